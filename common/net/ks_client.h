/*
 * ks_client.h: talking to a daemon from a tool (or from another daemon):
 * connect, authenticate, send a command with ads, read the reply.
 *
 * Every call blocks for at most the time-out given to ks_conn_open()
 * (per read or write).  See docs/protocol.md for what goes on the wire.
 */
#ifndef KS_CLIENT_H
#define KS_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "ks_wire.h"
#include "ks_pool.h" /* where the pool's daemons are */

typedef struct ks_conn ks_conn;

/* Connects to addr: a sinful string ("<127.0.0.1:9618>"), "host:port" or
 * "host" (port 9618), and authenticates with the methods cfg allows
 * (SEC_CLIENT_AUTHENTICATION_METHODS / SEC_DEFAULT_AUTHENTICATION_METHODS).
 * timeout_ms <= 0 means 20 s.  Returns 0 and *out (free with
 * ks_conn_close()), or KS_ECONNECT / KS_ETIMEDOUT / KS_EAUTH / KS_EPROTO
 * with err saying which address and why. */
int ks_conn_open(const ks_config *cfg, const char *addr, int timeout_ms,
		 ks_conn **out, struct ks_err *err);

/* The identity the peer authenticated us as ("alice@example.org", or
 * "unauthenticated@unmapped").  Borrowed. */
const char *ks_conn_identity(const ks_conn *c);

/* Sends one message: a command or reply code and n ads.  flags:
 * KS_WIRE_MORE for a message followed by others of the same stream,
 * KS_WIRE_PAIRED for an update of public and private ads.  Messages are
 * gathered and written together: by ks_conn_flush(), before every
 * ks_conn_recv(), at ks_conn_close() (where an error goes unreported:
 * read an answer when delivery matters), or once enough is pending. */
int ks_conn_send(ks_conn *c, int code, classad *const *ads, size_t n,
		 unsigned flags, struct ks_err *err);

/* Writes what ks_conn_send() has gathered. */
int ks_conn_flush(ks_conn *c, struct ks_err *err);

/* Reads one message.  *ads is a new array of new ads (free with
 * ks_ads_free()); *more tells whether more messages of the same stream
 * follow.  A reply code below 0 is an error reply: its first ad has
 * ErrorString. */
int ks_conn_recv(ks_conn *c, int *code, classad ***ads, size_t *n,
		 bool *more, struct ks_err *err);

/* Reads one message, handing its ad records to fn (see
 * ks_wire_records()); *code and *more are set before the first. */
int ks_conn_recv_records(ks_conn *c, int *code, bool *more,
			 ks_wire_record_fn fn, void *arg, struct ks_err *err);

/* Sends one message as a UDP datagram to the same daemon, signed with the
 * session the handshake set up when there is one (else the daemon sees an
 * unauthenticated sender).  No answer comes back. */
int ks_conn_send_udp(ks_conn *c, int code, classad *const *ads, size_t n,
		     struct ks_err *err);

/* The same for one message already encoded (ks_wire_encode()). */
int ks_conn_send_udp_raw(ks_conn *c, const char *msg, size_t len,
			 struct ks_err *err);

struct iovec;

/* Sends messages made of parts (headers from ks_wire_text_header() and
 * the texts they announce), written together without copying. */
int ks_conn_send_iov(ks_conn *c, const struct iovec *iov, size_t n,
		     struct ks_err *err);

/* Sends messages already encoded with ks_wire_encode(), back to back. */
int ks_conn_send_raw(ks_conn *c, const char *msgs, size_t len,
		     struct ks_err *err);

void ks_conn_close(ks_conn *c);

/* Frees an array of ads returned by this module (NULL allowed). */
void ks_ads_free(classad **ads, size_t n);

/* Asks the schedd at the other end of c for a negotiation cycle soon
 * (RESCHEDULE: it updates its submitter ads and wakes the negotiator),
 * as condor_submit does after queueing jobs and condor_reschedule does
 * on request, and reads the schedd's acknowledgement.  Returns 0;
 * KS_EPERM when the schedd refused (the peer lacks WRITE), KS_EPROTO for
 * another error reply, both with its ErrorString in err; or the
 * connection's error. */
int ks_conn_reschedule(ks_conn *c, struct ks_err *err);

#endif
