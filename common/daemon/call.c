/* call.c: requests to other daemons on the event loop (ks_call.h).
 *
 * A call is a small state machine driven by its socket's events:
 * connecting, TLS (to another host, when configured), the handshake
 * (ks_handshake.h's steps), then replies.  What it sends waits in `out`
 * until the socket takes it; the request itself waits in `held` until
 * the handshake is done. */
#include "ks_call.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_commands.h"
#include "ks_handshake.h"
#include "ks_io.h"
#include "ks_mem.h"
#include "ks_tls.h"
#include "ks_wire.h"

/* Input is read in gulps of this much while the next message is small. */
#define IN_GULP (64u * 1024)
/* The largest handshake message accepted (a token is at most 64 KiB). */
#define HANDSHAKE_MAX (96u * 1024)

enum call_state { C_CONNECTING, C_TLS, C_HANDSHAKE, C_READY, C_ENDED };

struct ks_calls {
	ks_loop *loop;
	ks_call *head;
	size_t n;
	classad_cache *cache; /* the replies' expressions, shared */
	uint64_t purge_timer;
};

struct ks_call {
	ks_calls *set;
	ks_call *prev, *next;
	enum call_state st;
	char *peer;
	int fd;
	bool unix_peer;
	bool compress;
	bool tls;
	SSL_CTX *ctx;
	SSL *ssl;
	struct ks_hs_client hs;
	struct classad_buf out; /* to write now */
	size_t outpos;
	struct classad_buf held; /* to write once the handshake is done */
	unsigned char *in;
	size_t inlen, incap;
	uint64_t timer;
	const struct ks_call_ops *ops;
	void *arg;
	int busy;  /* callbacks of this call under way */
	bool dead; /* to be freed once they are over */
	int code;    /* the request's */
	bool post;   /* no reply: done once the request is written */
	int fail_rc; /* an end decided before the loop ran */
	struct ks_err fail_err;
};

/* Expressions no reply's ad holds any more leave the cache: a job's
 * news differ from one report to the next. */
static void on_purge(void *arg)
{
	classad_cache_purge(((ks_calls *)arg)->cache);
}

ks_calls *ks_calls_new(ks_loop *loop)
{
	ks_calls *set = ks_xcalloc(1, sizeof(*set));
	set->loop = loop;
	set->cache = classad_cache_new();
	set->purge_timer = ks_loop_timer(loop, 60000, 60000, on_purge, set);
	return set;
}

size_t ks_calls_count(const ks_calls *set)
{
	return set ? set->n : 0;
}

static void call_close(ks_call *c)
{
	if (c->fd >= 0) {
		ks_loop_unwatch(c->set->loop, c->fd);
		close(c->fd);
		c->fd = -1;
	}
	ks_loop_cancel(c->set->loop, c->timer);
	c->timer = 0;
}

static void call_free(ks_call *c)
{
	call_close(c);
	if (c->prev)
		c->prev->next = c->next;
	else
		c->set->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->set->n--;
	SSL_free(c->ssl);
	SSL_CTX_free(c->ctx);
	ks_hs_client_clear(&c->hs);
	free(c->out.data);
	free(c->held.data);
	free(c->in);
	free(c->peer);
	free(c);
}

void ks_calls_free(ks_calls *set)
{
	if (!set)
		return;
	while (set->head)
		call_free(set->head);
	ks_loop_cancel(set->loop, set->purge_timer);
	classad_cache_free(set->cache);
	free(set);
}

/* The call's end: its callback, then (once no callback of it is under
 * way) its memory. */
static void finish(ks_call *c, int rc, const struct ks_err *err)
{
	if (c->st == C_ENDED)
		return;
	c->st = C_ENDED;
	call_close(c);
	c->dead = true;
	if (c->ops && c->ops->end) {
		c->busy++;
		c->ops->end(c->arg, c, rc, err);
		c->busy--;
	}
	if (!c->busy)
		call_free(c);
}

static void fail(ks_call *c, int rc, const char *fmt, const char *detail)
{
	struct ks_err err = {0};
	ks_err_set(&err, rc, 0, 0, 0, fmt, c->peer, detail);
	finish(c, rc, &err);
}

void ks_call_cancel(ks_call *c)
{
	if (!c || c->dead)
		return;
	c->st = C_ENDED;
	c->dead = true;
	call_close(c);
	if (!c->busy)
		call_free(c);
}

static void watch_for(ks_call *c, bool want_out)
{
	ks_loop_rewatch(c->set->loop, c->fd,
			KS_EV_IN | (want_out ? KS_EV_OUT : 0u));
}

/* ---- output ----------------------------------------------------------- */

static const char *tls_reason(char *buf, size_t n)
{
	unsigned long code = ERR_get_error();
	if (!code)
		return "the peer closed the connection";
	ERR_error_string_n(code, buf, n);
	return buf;
}

/* Writes what the socket takes now.  Returns 0, or -1 once the call has
 * ended (the connection broke). */
static int flush_out(ks_call *c)
{
	while (c->outpos < c->out.len) {
		size_t left = c->out.len - c->outpos;
		const char *p = c->out.data + c->outpos;
		if (c->ssl) {
			size_t done = 0;
			int r = SSL_write_ex(c->ssl, p, left, &done);
			if (r == 1) {
				c->outpos += done;
				continue;
			}
			int e = SSL_get_error(c->ssl, r);
			if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ)
				break;
			char buf[160];
			fail(c, KS_EIO, "TLS write to %s: %s",
			     tls_reason(buf, sizeof(buf)));
			return -1;
		}
		ssize_t w = send(c->fd, p, left, MSG_NOSIGNAL);
		if (w > 0) {
			c->outpos += (size_t)w;
			continue;
		}
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		fail(c, KS_EIO, "writing to %s: %s",
		     strerror(w < 0 ? errno : EPIPE));
		return -1;
	}
	if (c->outpos == c->out.len) {
		free(c->out.data);
		c->out = (struct classad_buf){0};
		c->outpos = 0;
		if (c->post && c->st == C_READY) {
			finish(c, 0, NULL);
			return -1;
		}
	}
	watch_for(c, c->out.len > 0);
	return 0;
}

/* ---- input ------------------------------------------------------------ */

static void on_deadline(void *arg)
{
	ks_call *c = arg;
	c->timer = 0;
	fail(c, KS_ETIMEDOUT, "%s did not answer in time%s", "");
}

void ks_call_deadline(ks_call *c, int64_t ms)
{
	if (c->dead)
		return;
	ks_loop_cancel(c->set->loop, c->timer);
	c->timer = ms > 0 ? ks_loop_timer(c->set->loop, ms, 0, on_deadline, c)
			  : 0;
}

/* The handshake's answer: its next step, or the request under way. */
static void handshake_step(ks_call *c, int code, classad **ads, size_t n)
{
	int out_code = 0;
	classad *out = NULL;
	struct ks_err err = {0};
	int rc = ks_hs_client_step(&c->hs, c->ssl, code, n ? ads[0] : NULL,
				   &out_code, &out, &err);
	if (rc < 0) {
		finish(c, rc, &err);
		return;
	}
	if (rc > 0) {
		rc = ks_wire_encode(&c->out, out_code, &out, 1, 0, false, &err);
		classad_free(out);
		if (rc)
			finish(c, rc, &err);
		return;
	}
	c->st = C_READY;
	classad_buf_add(&c->out, c->held.data, c->held.len);
	free(c->held.data);
	c->held = (struct classad_buf){0};
}

static void deliver(ks_call *c, const struct ks_wire_header *h, classad **ads,
		    size_t n)
{
	struct ks_call_reply r = {h->code, ads, n,
				  (h->flags & KS_WIRE_MORE) != 0,
				  (h->flags & KS_WIRE_ECHO) != 0};
	/* each reply lifts the deadline: the caller sets the next one */
	ks_loop_cancel(c->set->loop, c->timer);
	c->timer = 0;
	if (c->ops && c->ops->reply) {
		c->busy++;
		c->ops->reply(c->arg, c, &r);
		c->busy--;
	}
	if (!c->dead && !r.echo && !r.more)
		finish(c, 0, NULL);
}

/* Handles every whole message read; stops once the call has ended. */
static void parse(ks_call *c)
{
	size_t pos = 0;
	while (!c->dead && c->inlen - pos >= KS_WIRE_HEADER) {
		struct ks_wire_header h;
		struct ks_err err = {0};
		if (ks_wire_header_decode(c->in + pos, &h, &err)) {
			finish(c, KS_EPROTO, &err);
			return;
		}
		if (c->st != C_READY && h.wire_len > HANDSHAKE_MAX) {
			fail(c, KS_EPROTO, "%s sent a handshake message of %s",
			     "more than 96 KiB");
			return;
		}
		size_t need = KS_WIRE_HEADER + (size_t)h.wire_len;
		if (c->inlen - pos < need) {
			if (pos + need > c->incap) {
				c->incap = pos + need;
				c->in = ks_xrealloc(c->in, c->incap);
			}
			break;
		}
		classad **ads = NULL;
		size_t n = 0;
		int rc = ks_wire_decode(&h, c->in + pos + KS_WIRE_HEADER,
					c->set->cache, &ads, &n, &err);
		pos += need;
		if (rc) {
			finish(c, rc, &err);
			return;
		}
		if (c->st == C_HANDSHAKE)
			handshake_step(c, h.code, ads, n);
		else
			deliver(c, &h, ads, n);
		for (size_t i = 0; i < n; i++)
			classad_free(ads[i]);
		free(ads);
	}
	if (c->dead)
		return;
	memmove(c->in, c->in + pos, c->inlen - pos);
	c->inlen -= pos;
	/* a channel waits long between messages (a job's news): it keeps no
	 * buffer meanwhile */
	if (c->inlen == 0) {
		free(c->in);
		c->in = NULL;
		c->incap = 0;
	}
}

/* Reads what there is.  Returns 1 at the end of the input, 0 when the
 * socket is drained, -1 once the call has ended. */
static int read_some(ks_call *c)
{
	for (;;) {
		if (c->incap - c->inlen < IN_GULP / 4) {
			c->incap = c->inlen + IN_GULP;
			c->in = ks_xrealloc(c->in, c->incap);
		}
		size_t room = c->incap - c->inlen;
		if (c->ssl) {
			size_t got = 0;
			int r = SSL_read_ex(c->ssl, c->in + c->inlen, room, &got);
			if (r == 1) {
				c->inlen += got;
				continue;
			}
			int e = SSL_get_error(c->ssl, r);
			if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
				return 0;
			if (e == SSL_ERROR_ZERO_RETURN)
				return 1;
			char buf[160];
			fail(c, KS_EIO, "TLS read from %s: %s",
			     tls_reason(buf, sizeof(buf)));
			return -1;
		}
		ssize_t r = recv(c->fd, c->in + c->inlen, room, 0);
		if (r > 0) {
			c->inlen += (size_t)r;
			continue;
		}
		if (r == 0)
			return 1;
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		fail(c, KS_EIO, "reading from %s: %s", strerror(errno));
		return -1;
	}
}

/* ---- connecting ------------------------------------------------------- */

static void begin_handshake(ks_call *c)
{
	c->st = C_HANDSHAKE;
	/* the HELLO was made at the start, in front of `out` */
}

/* One step of the TLS handshake.  Returns 1 when done, 0 to wait, -1
 * once the call has ended. */
static int tls_step(ks_call *c)
{
	int r = SSL_connect(c->ssl);
	if (r == 1)
		return 1;
	int e = SSL_get_error(c->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		watch_for(c, e == SSL_ERROR_WANT_WRITE);
		return 0;
	}
	char buf[160];
	fail(c, KS_EIO, "TLS handshake with %s: %s",
	     tls_reason(buf, sizeof(buf)));
	return -1;
}

static void connected(ks_call *c)
{
	int soerr = 0;
	socklen_t sl = sizeof(soerr);
	getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
	if (soerr) {
		fail(c, KS_ECONNECT, "cannot connect to %s: %s",
		     strerror(soerr));
		return;
	}
	if (!c->tls) {
		begin_handshake(c);
		return;
	}
	c->ssl = SSL_new(c->ctx);
	if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1) {
		fail(c, KS_EINTERNAL, "TLS to %s: %s", "SSL_new failed");
		return;
	}
	c->st = C_TLS;
}

static void on_io(void *arg, int fd, unsigned ev)
{
	(void)fd;
	ks_call *c = arg;
	c->busy++;
	if (c->st == C_CONNECTING && (ev & (KS_EV_OUT | KS_EV_ERR)))
		connected(c);
	if (c->st == C_TLS && tls_step(c) > 0)
		begin_handshake(c);
	if (c->st == C_HANDSHAKE || c->st == C_READY) {
		int end = read_some(c);
		if (end >= 0)
			parse(c);
		if (end > 0 && !c->dead)
			fail(c, KS_EIO, "%s closed the connection%s", "");
		if (!c->dead)
			flush_out(c);
	}
	c->busy--;
	if (c->dead && !c->busy)
		call_free(c);
}

static void on_failed_start(void *arg)
{
	ks_call *c = arg;
	c->timer = 0;
	finish(c, c->fail_rc, &c->fail_err);
}

/* Connects (first to the daemon's Unix-domain socket when it is on this
 * host and has one, as ks_conn_open() does) and makes the HELLO. */
static int start(ks_call *c, const ks_config *cfg, struct ks_err *err)
{
	struct ks_addr a;
	int rc = ks_addr_parse(c->peer, KS_DEFAULT_PORT, &a, err);
	if (rc)
		return rc;
	char *path = ks_addr_local_socket(cfg, &a);
	c->fd = path ? ks_io_connect_start(&a, path, NULL) : -1;
	free(path);
	c->unix_peer = c->fd >= 0;
	if (c->fd < 0)
		c->fd = ks_io_connect_start(&a, NULL, err);
	if (c->fd < 0)
		return c->fd;
	c->compress = !c->unix_peer && !ks_addr_is_local(a.host);
	c->tls = !c->unix_peer && ks_tls_wanted(cfg, a.host);
	if (c->tls) {
		c->ctx = ks_tls_client_ctx(err);
		if (!c->ctx)
			return KS_EINTERNAL;
	}
	classad *hello = NULL;
	rc = ks_hs_client_begin(&c->hs, cfg, c->unix_peer, c->peer, &hello,
				err);
	if (rc == 0)
		rc = ks_wire_encode(&c->out, KS_HS_HELLO, &hello, 1, 0, false,
				    err);
	classad_free(hello);
	if (rc)
		return rc;
	if (ks_loop_watch(c->set->loop, c->fd, KS_EV_OUT, on_io, c))
		return ks_err_set(err, KS_EINTERNAL, 0, 0, 0,
				  "cannot watch the connection to %s",
				  c->peer);
	return 0;
}

static ks_call *call_new(ks_calls *set, const ks_config *cfg,
			 const char *addr, int code, classad *const *ads,
			 size_t n, unsigned flags, bool post, int timeout_ms,
			 const struct ks_call_ops *ops, void *arg)
{
	ks_call *c = ks_xcalloc(1, sizeof(*c));
	c->set = set;
	c->next = set->head;
	if (set->head)
		set->head->prev = c;
	set->head = c;
	set->n++;
	c->fd = -1;
	c->peer = ks_xstrdup(addr ? addr : "");
	c->ops = ops;
	c->arg = arg;
	c->st = C_CONNECTING;
	c->code = code;
	c->post = post;
	int rc = start(c, cfg, &c->fail_err);
	if (rc == 0)
		rc = ks_wire_encode(&c->held, code, ads, n, flags, c->compress,
				    &c->fail_err);
	if (rc) {
		call_close(c);
		c->fail_rc = rc;
		c->timer = ks_loop_timer(set->loop, 0, 0, on_failed_start, c);
		return c;
	}
	ks_call_deadline(c, timeout_ms == 0 ? 20000 : timeout_ms);
	return c;
}

ks_call *ks_call_start(ks_calls *set, const ks_config *cfg, const char *addr,
		       int code, classad *const *ads, size_t n, int timeout_ms,
		       const struct ks_call_ops *ops, void *arg)
{
	return call_new(set, cfg, addr, code, ads, n, 0, false, timeout_ms,
			ops, arg);
}

ks_call *ks_call_post(ks_calls *set, const ks_config *cfg, const char *addr,
		      int code, classad *const *ads, size_t n, unsigned flags,
		      int timeout_ms, const struct ks_call_ops *ops, void *arg)
{
	return call_new(set, cfg, addr, code, ads, n,
			flags & KS_WIRE_PAIRED, true, timeout_ms, ops, arg);
}

int ks_call_send(ks_call *c, int code, classad *const *ads, size_t n,
		 struct ks_err *err)
{
	if (c->dead)
		return 0;
	bool ready = c->st == C_READY;
	int rc = ks_wire_encode(ready ? &c->out : &c->held, code, ads, n,
				KS_WIRE_ECHO, c->compress, err);
	if (rc == 0 && ready && c->fd >= 0) {
		/* written from the loop: no callback may run from here */
		watch_for(c, true);
	}
	return rc;
}

const char *ks_call_peer(const ks_call *c)
{
	return c->peer;
}

int ks_call_code(const ks_call *c)
{
	return c->code;
}

static const char *code_name(int code)
{
	const char *name = ks_command_name(code);
	return name ? name : "request";
}

static void on_told(void *arg, ks_call *c, const struct ks_call_reply *r)
{
	if (r->code >= 0 || r->echo)
		return;
	char *why = NULL;
	if (r->n)
		classad_eval_string(r->ads[0], "ErrorString", NULL, &why);
	ks_log_printf(arg, KS_D_ALWAYS, "%s to %s refused: %s",
		      code_name(c->code), c->peer,
		      why ? why : "no reason given");
	free(why);
}

static void on_told_end(void *arg, ks_call *c, int rc,
			const struct ks_err *err)
{
	if (rc)
		ks_log_printf(arg, KS_D_ALWAYS, "%s to %s: %s",
			      code_name(c->code), c->peer,
			      err ? err->msg : "failed");
}

void ks_call_tell(ks_calls *set, const ks_config *cfg, ks_log *log,
		  const char *addr, int code, classad *const *ads, size_t n,
		  int timeout_ms)
{
	static const struct ks_call_ops told = {on_told, on_told_end};
	ks_call_start(set, cfg, addr, code, ads, n, timeout_ms, &told, log);
}
