/*
 * ks_call.h: a daemon's requests to other daemons, carried on its event
 * loop: connecting, the handshake, writing and reading never block, so
 * that a slow or stopped peer holds up only the calls made to it.
 *
 * A call sends one request (a command and its ads) to an address and
 * hands each reply message to ops->reply; it ends once, with ops->end:
 * 0 when the request's last reply came (one without KS_WIRE_MORE), or
 * the reason it could not (KS_ECONNECT: nobody listens; KS_EAUTH: the
 * peer refused us; KS_ETIMEDOUT: the deadline passed; KS_EIO: the
 * connection broke or the peer closed it; KS_EPROTO: a bad message).
 * A call whose request is answered over time (a claim's activation: the
 * job started, its news, its end) is also a channel: more messages go on
 * it with ks_call_send(), marked KS_WIRE_ECHO, and their replies come
 * back marked the same.  No callback ever runs from inside ks_call_*()
 * itself; each runs from the loop.
 *
 * The protocol is docs/protocol.md's; tools use the blocking ks_conn
 * (ks_client.h) for the same messages.
 */
#ifndef KS_CALL_H
#define KS_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "ks_log.h"
#include "ks_loop.h"

/* The calls a daemon has under way: freeing the set cancels them. */
typedef struct ks_calls ks_calls;
typedef struct ks_call ks_call;

/* A new set of calls on loop (which must outlive it). */
ks_calls *ks_calls_new(ks_loop *loop);
/* Cancels every call still under way (no callbacks) and frees the set;
 * NULL allowed. */
void ks_calls_free(ks_calls *set);
/* How many calls are under way. */
size_t ks_calls_count(const ks_calls *set);

/* One reply message; ads borrowed: valid during the callback only
 * (classad_ref() one to keep it). */
struct ks_call_reply {
	int code;
	classad **ads;
	size_t n;
	bool more; /* another reply to the same request follows */
	bool echo; /* the reply to a message sent with ks_call_send() */
};

struct ks_call_ops {
	/* Each reply (NULL: replies are ignored).  The callback may cancel
	 * the call, or send on it. */
	void (*reply)(void *arg, ks_call *c, const struct ks_call_reply *r);
	/* Once, at the end (NULL allowed); the call is freed after it
	 * (ks_call_peer() and ks_call_code() still answer during it). */
	void (*end)(void *arg, ks_call *c, int rc, const struct ks_err *err);
};

/* Starts a call to addr (a sinful string, "host:port" or "host": see
 * ks_conn_open(), whose connection and authentication rules it follows,
 * cfg read now only) with request code and its n ads (copied now).
 * timeout_ms bounds the time until the first reply (0: 20 s; below 0:
 * no bound); after
 * each reply, no deadline applies until ks_call_deadline() sets one.
 * Never NULL; a call that cannot even start ends from the loop soon. */
ks_call *ks_call_start(ks_calls *set, const ks_config *cfg, const char *addr,
		       int code, classad *const *ads, size_t n, int timeout_ms,
		       const struct ks_call_ops *ops, void *arg);

/* A request that gets no reply (an update to the collector): the call
 * ends (0) once the request is written whole.  flags: KS_WIRE_PAIRED or
 * 0.  Otherwise as ks_call_start(). */
ks_call *ks_call_post(ks_calls *set, const ks_config *cfg, const char *addr,
		      int code, classad *const *ads, size_t n, unsigned flags,
		      int timeout_ms, const struct ks_call_ops *ops, void *arg);

/* Sends one more message on the call (once its handshake is done: it
 * waits until then), marked KS_WIRE_ECHO; its reply comes with echo set.
 * Returns 0, or KS_ERANGE (too big) with err filled. */
int ks_call_send(ks_call *c, int code, classad *const *ads, size_t n,
		 struct ks_err *err);

/* The next reply must come within ms from now (<= 0: no deadline), or
 * the call ends with KS_ETIMEDOUT. */
void ks_call_deadline(ks_call *c, int64_t ms);

/* Ends the call at once, without callbacks (NULL allowed).  Safe from
 * within the call's own callbacks. */
void ks_call_cancel(ks_call *c);

/* The address the call was made to.  Borrowed. */
const char *ks_call_peer(const ks_call *c);

/* The request's command code. */
int ks_call_code(const ks_call *c);

/* A request whose answer does not matter to the caller (RELEASE_CLAIM,
 * RESCHEDULE): sent as ks_call_start() sends it; a refusal or a failure
 * is written to log (which must outlive the call). */
void ks_call_tell(ks_calls *set, const ks_config *cfg, ks_log *log,
		  const char *addr, int code, classad *const *ads, size_t n,
		  int timeout_ms);

#endif
