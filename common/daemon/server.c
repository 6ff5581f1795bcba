/* server.c: a daemon's command sockets: accepting, the handshake,
 * authorization, dispatch and replies (ks_daemon.h, docs/protocol.md). */
#define _GNU_SOURCE /* struct ucred, accept4 */
#include "daemon_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <time.h>

#include "ks_addr.h"
#include "ks_commands.h"
#include "ks_handshake.h"
#include "ks_mem.h"
#include "ks_tls.h"
#include "ks_tokauth.h"
#include "ks_wire.h"

/* A connection that has not finished its handshake within this many
 * seconds, or that stays idle this long, is closed. */
#define HANDSHAKE_TIMEOUT_S 20
#define IDLE_TIMEOUT_S 300
/* The largest handshake message accepted (a token is at most 64 KiB). */
#define HANDSHAKE_MAX (96u * 1024)
/* A streamed reply makes its next piece once less than this is left
 * unsent. */
#define STREAM_LOW (128u * 1024)
/* A connection's input or output buffer grown past this for a large
 * message is given back once that message is done with: a 10 MB
 * attribute must not cost a long-lived connection 10 MB for its life. */
#define BUF_KEEP (1u << 20)
/* Input is read in gulps of this much while the next message is small
 * (or its header has not come), and no read asks for less than
 * READ_MIN. */
#define IN_GULP (128u * 1024)
#define READ_MIN (16u * 1024)

/* A reply made a piece at a time (ks_reply_stream()). */
struct srv_stream {
	int code;
	ks_stream_fn produce;
	void (*done)(void *arg);
	void *arg;
};

enum hs_state { HS_HELLO, HS_PROOF, HS_READY };

struct ks_srv_conn {
	ks_daemon *d;
	struct ks_srv_conn *prev, *next;
	int fd;
	bool unix_peer;
	bool closing; /* close once the output is written */
	SSL *ssl;            /* TLS from another host, or NULL */
	bool tls_checked;    /* the first byte has been looked at */
	bool tls_accepting;  /* the TLS handshake is under way */
	char host[64];
	enum hs_state state;
	char *identity;
	unsigned levels; /* a token's scope: bits of enum ks_level; 0 all */
	char cn[40], sn[40];
	unsigned char sig[32];
	unsigned char *in;
	size_t inlen, incap;
	struct classad_buf out;
	size_t outpos;
	struct srv_stream *stream; /* a reply still being made, or NULL */
	struct ks_later *later;    /* a reply promised for later, or NULL */
	unsigned echo; /* KS_WIRE_ECHO while such a request is dispatched */
	int64_t last_ms;
};

struct ks_later {
	struct ks_srv_conn *conn; /* NULL once the connection has gone */
};

static void stream_end(struct ks_srv_conn *c)
{
	if (!c->stream)
		return;
	c->stream->done(c->stream->arg);
	free(c->stream);
	c->stream = NULL;
}

static void conn_free(struct ks_srv_conn *c)
{
	struct ks_daemon_priv *p = c->d->priv;
	ks_loop_unwatch(c->d->loop, c->fd);
	close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		p->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	p->nconns--;
	stream_end(c);
	if (c->later)
		c->later->conn = NULL;
	SSL_free(c->ssl);
	free(c->identity);
	free(c->in);
	free(c->out.data);
	free(c);
}

static void conn_events(struct ks_srv_conn *c);

/* Writes what can be written now; the rest waits for KS_EV_OUT. */
static int conn_flush(struct ks_srv_conn *c)
{
	while (c->outpos < c->out.len && !c->tls_accepting) {
		if (c->ssl) {
			size_t done = 0;
			int r = SSL_write_ex(c->ssl, c->out.data + c->outpos,
					     c->out.len - c->outpos, &done);
			if (r == 1) {
				c->outpos += done;
				continue;
			}
			int e = SSL_get_error(c->ssl, r);
			if (e == SSL_ERROR_WANT_WRITE ||
			    e == SSL_ERROR_WANT_READ)
				break;
			return -1;
		}
		ssize_t w = send(c->fd, c->out.data + c->outpos,
				 c->out.len - c->outpos, MSG_NOSIGNAL);
		if (w > 0) {
			c->outpos += (size_t)w;
			continue;
		}
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		return -1;
	}
	if (c->outpos == c->out.len) {
		c->out.len = 0;
		c->outpos = 0;
		if (c->out.cap > BUF_KEEP) {
			free(c->out.data);
			c->out = (struct classad_buf){0};
		}
	}
	return 0;
}

static void send_flagged(struct ks_srv_conn *c, int code,
			 classad *const *ads, size_t n, unsigned flags)
{
	struct ks_err err;
	if (ks_wire_encode(&c->out, code, ads, n, flags, false, &err))
		ks_log_printf(c->d->log, KS_D_ALWAYS, "reply not sent: %s",
			      err.msg);
}

/* A reply to the request being dispatched (marked as it was). */
static void send_msg(struct ks_srv_conn *c, int code, classad *const *ads,
		     size_t n, bool more)
{
	send_flagged(c, code, ads, n, (more ? KS_WIRE_MORE : 0u) | c->echo);
}

static void send_reason(struct ks_srv_conn *c, int code, const char *why)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "ErrorString", why);
	classad_insert_int(ad, "ErrorCode", code);
	send_msg(c, code, &ad, 1, false);
	classad_free(ad);
}

void ks_reply(struct ks_request *req, int code, classad *const *ads, size_t n,
	      bool more)
{
	if (req->conn)
		send_msg(req->conn, code, ads, n, more);
}

void ks_reply_stream(struct ks_request *req, int code, ks_stream_fn produce,
		     void (*done)(void *arg), void *arg)
{
	struct ks_srv_conn *c = req->conn;
	if (!c || c->stream) { /* no reply possible, or one already going */
		done(arg);
		return;
	}
	c->stream = ks_xmalloc(sizeof(*c->stream));
	*c->stream = (struct srv_stream){code, produce, done, arg};
}

ks_later *ks_reply_later(struct ks_request *req)
{
	struct ks_srv_conn *c = req->conn;
	if (!c || c->later)
		return NULL;
	c->later = ks_xcalloc(1, sizeof(*c->later));
	c->later->conn = c;
	return c->later;
}

/* Writes what is queued on c now as far as it goes; the loop does the
 * rest (not conn_events(): this may run inside the connection's own
 * dispatch, which must not see it freed). */
static void later_flush(struct ks_srv_conn *c)
{
	if (conn_flush(c) == 0 && c->outpos < c->out.len)
		ks_loop_rewatch(c->d->loop, c->fd,
				(c->closing || c->stream ? 0u : KS_EV_IN) |
					KS_EV_OUT);
}

bool ks_later_reply(ks_later *l, int code, classad *const *ads, size_t n)
{
	if (!l)
		return false;
	struct ks_srv_conn *c = l->conn;
	free(l);
	if (!c)
		return false;
	c->later = NULL;
	send_flagged(c, code, ads, n, 0);
	later_flush(c);
	return true;
}

bool ks_later_update(ks_later *l, int code, classad *const *ads, size_t n)
{
	if (!l || !l->conn)
		return false;
	send_flagged(l->conn, code, ads, n, KS_WIRE_MORE);
	later_flush(l->conn);
	return true;
}

void ks_later_cancel(ks_later *l)
{
	if (!l)
		return;
	if (l->conn)
		l->conn->later = NULL;
	free(l);
}

/* Makes pieces of the connection's stream while the peer keeps up:
 * whatever the reader's pace, the stream holds about a piece and
 * STREAM_LOW of output.  Returns -1 when the connection failed. */
static int conn_stream(struct ks_srv_conn *c)
{
	while (c->stream && c->out.len - c->outpos < STREAM_LOW) {
		if (c->outpos) { /* what is left goes to the front */
			memmove(c->out.data, c->out.data + c->outpos,
				c->out.len - c->outpos);
			c->out.len -= c->outpos;
			c->outpos = 0;
		}
		struct srv_stream *s = c->stream;
		size_t at = ks_wire_begin(&c->out);
		bool more = s->produce(c->d, s->arg, &c->out);
		struct ks_err err;
		if (ks_wire_end(&c->out, at, s->code, more ? KS_WIRE_MORE : 0,
				&err)) {
			/* the reader would see a reply cut short */
			ks_log_printf(c->d->log, KS_D_ALWAYS,
				      "reply to %s abandoned: %s", c->host,
				      err.msg);
			c->closing = true;
			more = false;
		}
		if (!more)
			stream_end(c);
		if (conn_flush(c))
			return -1;
	}
	return 0;
}

void ks_reply_error(struct ks_request *req, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (req->conn)
		send_reason(req->conn, KS_REPLY_ERROR, why);
}

void kd_identity_forget(ks_daemon *d)
{
	free(d->priv->id_name);
	d->priv->id_name = NULL;
}

/* user@UID_DOMAIN for a local peer.  The last one is remembered, as
 * HTCondor's daemons keep their passwd cache (PASSWD_CACHE_REFRESH):
 * most connections come from the same account, and the password
 * database costs a file read each time. */
static char *uid_identity(ks_daemon *d, uid_t uid)
{
	struct ks_daemon_priv *p = d->priv;
	int64_t now = (int64_t)time(NULL);
	if (p->id_name && p->id_uid == uid && now < p->id_until)
		return ks_xstrdup(p->id_name);
	char *user = ks_auth_username((unsigned)uid);
	char *domain = ks_config_get(d->cfg, "UID_DOMAIN", NULL);
	size_t n = strlen(user) + (domain ? strlen(domain) : 9) + 2;
	char *id = ks_xmalloc(n);
	snprintf(id, n, "%s@%s", user, domain ? domain : "localhost");
	free(user);
	free(domain);
	int64_t ttl = 72000;
	ks_config_int(d->cfg, "PASSWD_CACHE_REFRESH", &ttl);
	free(p->id_name);
	p->id_name = ks_xstrdup(id);
	p->id_uid = uid;
	p->id_until = now + ttl;
	return id;
}

/* Sessions are kept for a day (HTCondor's SEC_DEFAULT_SESSION_DURATION
 * for daemons); the table is bounded, oldest dropped first. */
#define MAX_SESSIONS 4096

static void session_drop(struct ks_daemon_priv *p, size_t i)
{
	OPENSSL_cleanse(p->sessions[i].key, 32);
	free(p->sessions[i].identity);
	memmove(p->sessions + i, p->sessions + i + 1,
		(p->nsessions - i - 1) * sizeof(*p->sessions));
	p->nsessions--;
}

static struct kd_session *session_new(ks_daemon *d, const char *identity)
{
	struct ks_daemon_priv *p = d->priv;
	if (p->nsessions == MAX_SESSIONS)
		session_drop(p, 0);
	p->sessions = ks_xrealloc(p->sessions,
				  (p->nsessions + 1) * sizeof(*p->sessions));
	struct kd_session *s = &p->sessions[p->nsessions++];
	unsigned char id[16];
	ks_auth_random(id, sizeof(id));
	ks_auth_hex(id, sizeof(id), s->id);
	s->identity = ks_xstrdup(identity);
	int64_t life = 86400;
	ks_config_int(d->cfg, "SEC_DEFAULT_SESSION_DURATION", &life);
	s->expires = (int64_t)time(NULL) + life;
	return s;
}

static const struct kd_session *session_find(ks_daemon *d, const char *id)
{
	struct ks_daemon_priv *p = d->priv;
	int64_t now = time(NULL);
	for (size_t i = p->nsessions; i-- > 0;) {
		if (strncmp(p->sessions[i].id, id, 32) != 0)
			continue;
		if (p->sessions[i].expires < now) {
			session_drop(p, i);
			return NULL;
		}
		return &p->sessions[i];
	}
	return NULL;
}

void kd_sessions_free(ks_daemon *d)
{
	kd_identity_forget(d);
	while (d->priv->nsessions)
		session_drop(d->priv, d->priv->nsessions - 1);
	free(d->priv->sessions);
	d->priv->sessions = NULL;
}

static void hs_done(struct ks_srv_conn *c, const char *method,
		    const char *proof)
{
	classad *ad = classad_new();
	if (c->identity) {
		struct kd_session *s = session_new(c->d, c->identity);
		s->levels = c->levels;
		classad_insert_string(ad, "SessionId", s->id);
		if (c->unix_peer) {
			ks_auth_random(s->key, sizeof(s->key));
			char hex[65];
			ks_auth_hex(s->key, sizeof(s->key), hex);
			classad_insert_string(ad, "SessionKey", hex);
			OPENSSL_cleanse(hex, sizeof(hex));
		} else {
			ks_auth_mac(c->sig, 32, "session", c->cn, s->id,
				    s->key);
		}
	}
	classad_insert_string(ad, "AuthMethod", method);
	classad_insert_string(ad, "Identity",
			      c->identity ? c->identity : KS_ANONYMOUS);
	if (proof)
		classad_insert_string(ad, "ServerProof", proof);
	send_msg(c, KS_HS_DONE, &ad, 1, false);
	classad_free(ad);
	c->state = HS_READY;
	ks_log_printf(c->d->log, KS_D_SECURITY,
		      "authenticated %s from %s with %s%s",
		      c->identity ? c->identity : KS_ANONYMOUS,
		      c->unix_peer ? "a local socket" : c->host, method,
		      c->ssl && strcmp(method, "TOKEN+TLS") != 0 ? " over TLS"
								 : "");
}

static void hs_hello(struct ks_srv_conn *c, const classad *hello)
{
	int64_t version = 0;
	if (!hello || !classad_eval_int(hello, "Version", NULL, &version) ||
	    version != KS_WIRE_VERSION) {
		send_reason(c, KS_REPLY_DENIED, "unsupported protocol version");
		c->closing = true;
		return;
	}
	if (!c->ssl && !c->unix_peer && ks_tls_required(c->d->cfg, c->host)) {
		ks_log_printf(c->d->log, KS_D_ALWAYS,
			      "%s connected without TLS, which "
			      "SEC_DEFAULT_ENCRYPTION = REQUIRED asks; closing",
			      c->host);
		send_reason(c, KS_REPLY_DENIED, "this daemon requires "
			    "encryption (TLS) from other hosts");
		c->closing = true;
		return;
	}
	char *cn = classad_eval_string_dup(hello, "ClientNonce");
	snprintf(c->cn, sizeof(c->cn), "%s", cn ? cn : "");
	free(cn);
	if (c->unix_peer) {
		struct ucred cred;
		socklen_t len = sizeof(cred);
		if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ==
		    0) {
			c->identity = uid_identity(c->d, cred.uid);
			hs_done(c, "FS", NULL);
			return;
		}
	}
	char *head = classad_eval_string_dup(hello, "TokenHead");
	if (head) {
		struct ks_err err;
		char *id = NULL;
		if (ks_tokauth_server(c->d->cfg, head, c->sig, &id,
				      &c->levels, &err) == 0) {
			unsigned char nonce[16];
			ks_auth_random(nonce, sizeof(nonce));
			ks_auth_hex(nonce, sizeof(nonce), c->sn);
			c->identity = id;
			classad *ad = classad_new();
			classad_insert_string(ad, "ServerNonce", c->sn);
			send_msg(c, KS_HS_CHALLENGE, &ad, 1, false);
			classad_free(ad);
			c->state = HS_PROOF;
			free(head);
			return;
		}
		ks_log_printf(c->d->log, KS_D_ALWAYS,
			      "token from %s not accepted: %s", c->host,
			      err.msg);
		free(head);
	}
	hs_done(c, "ANONYMOUS", NULL);
}

static void hs_proof(struct ks_srv_conn *c, const classad *ad)
{
	char *proof = ad ? classad_eval_string_dup(ad, "Proof") : NULL;
	char want[65];
	/* the proofs cover the TLS channel too (ks_tls.h) */
	char *sn = ks_tls_bind_nonce(c->ssl, c->sn);
	ks_hs_proof(c->sig, "client", c->cn, sn, want);
	bool ok = proof && strlen(proof) == 64 &&
		  CRYPTO_memcmp(proof, want, 64) == 0;
	free(proof);
	if (!ok) {
		ks_log_printf(c->d->log, KS_D_ALWAYS,
			      "token proof from %s (%s) is wrong: closing",
			      c->host, c->identity);
		send_reason(c, KS_REPLY_DENIED,
			    "the token's proof is wrong (was it signed with "
			    "this pool's key?)");
		c->closing = true;
		free(sn);
		return;
	}
	ks_hs_proof(c->sig, "server", c->cn, sn, want);
	free(sn);
	hs_done(c, c->ssl ? "TOKEN+TLS" : "TOKEN", want);
}

static const struct ks_command_def *find_cmd(const ks_daemon *d, int code)
{
	for (size_t i = 0; i < d->ncmds; i++)
		if (d->cmds[i].code == code)
			return &d->cmds[i];
	return NULL;
}

static void cmd_name(int code, char *buf, size_t n)
{
	const char *name = ks_command_name(code);
	if (name)
		snprintf(buf, n, "%d (%s)", code, name);
	else
		snprintf(buf, n, "%d", code);
}

/* Checks one command against the level its table gives (and the scope
 * of the token the peer presented, levels != 0), then runs it. */
static void dispatch(ks_daemon *d, struct ks_request *req, unsigned levels)
{
	char name[64], why[300];
	cmd_name(req->code, name, sizeof(name));
	const struct ks_command_def *def = find_cmd(d, req->code);
	if (!def) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "command %s from %s: not a command of this "
			      "daemon", name, req->identity);
		ks_reply_error(req, "command %s is not served by the %s",
			       name, d->subsys);
		return;
	}
	bool in_scope = !levels || def->level == KS_LEVEL_ALLOW ||
			(levels & (1u << def->level));
	if (!in_scope)
		snprintf(why, sizeof(why), "the token of %s does not grant %s",
			 req->identity, ks_level_name(def->level));
	if (!in_scope ||
	    !ks_authz_check(d->authz, def->level, req->identity, req->host,
			    why, sizeof(why))) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "PERMISSION DENIED to %s from host %s for "
			      "command %s, access level %s: %s",
			      req->identity, *req->host ? req->host : "local",
			      name, ks_level_name(def->level), why);
		if (req->conn)
			send_reason(req->conn, KS_REPLY_DENIED, why);
		return;
	}
	ks_log_printf(d->log, KS_D_COMMAND, "command %s from %s", name,
		      req->identity);
	def->fn(d, req);
}

/* Handles one message, whose ads were decoded (err NULL) or not. */
static void conn_message(struct ks_srv_conn *c, const struct ks_wire_header *h,
			 classad **ads, size_t n, const struct ks_err *err)
{
	ks_daemon *d = c->d;
	if (err) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "bad message from %s (code %d): %s; closing",
			      c->host, h->code, err->msg);
		send_reason(c, KS_REPLY_ERROR, err->msg);
		c->closing = true;
		return;
	}
	if (c->state == HS_HELLO && h->code == KS_HS_HELLO) {
		hs_hello(c, n ? ads[0] : NULL);
	} else if (c->state == HS_PROOF && h->code == KS_HS_PROOF) {
		hs_proof(c, n ? ads[0] : NULL);
	} else if (c->state != HS_READY) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "command %d from %s before the handshake; "
			      "closing", h->code, c->host);
		send_reason(c, KS_REPLY_DENIED, "handshake required first");
		c->closing = true;
	} else {
		struct ks_request req = {h->code, ads, n,
					 c->identity ? c->identity
						     : KS_ANONYMOUS,
					 c->unix_peer ? "" : c->host, false,
					 (h->flags & KS_WIRE_PAIRED) != 0, c};
		c->echo = h->flags & KS_WIRE_ECHO;
		dispatch(d, &req, c->levels);
		c->echo = 0;
	}
	for (size_t i = 0; i < n; i++)
		classad_free(ads[i]);
	free(ads);
}

/* Drops the first `used` bytes of the input, and a buffer grown for a
 * large message once nothing is left in it (a message under way may
 * have grown it for itself). */
static void conn_consume(struct ks_srv_conn *c, size_t used)
{
	if (!used)
		return;
	memmove(c->in, c->in + used, c->inlen - used);
	c->inlen -= used;
	if (c->incap > BUF_KEEP && c->inlen == 0) {
		free(c->in);
		c->in = NULL;
		c->incap = 0;
	}
}

/* Handles every whole message in the input buffer. */
static void conn_parse(struct ks_srv_conn *c)
{
	size_t pos = 0;
	while (!c->closing && !c->stream && c->inlen - pos >= KS_WIRE_HEADER) {
		struct ks_wire_header h;
		struct ks_err err;
		if (ks_wire_header_decode(c->in + pos, &h, &err)) {
			ks_log_printf(c->d->log, KS_D_ALWAYS,
				      "bad message from %s: %s; closing",
				      c->host, err.msg);
			c->closing = true;
			break;
		}
		/* before the handshake a peer is nobody: it gets no room
		 * for big messages */
		if (c->state != HS_READY && h.wire_len > HANDSHAKE_MAX) {
			ks_log_printf(c->d->log, KS_D_ALWAYS,
				      "handshake message of %u bytes from %s; "
				      "closing", h.wire_len, c->host);
			c->closing = true;
			break;
		}
		if (c->inlen - pos - KS_WIRE_HEADER < h.wire_len) {
			size_t need = pos + KS_WIRE_HEADER + h.wire_len;
			if (need > c->incap) {
				c->incap = need;
				c->in = ks_xrealloc(c->in, c->incap);
			}
			break;
		}
		classad **ads = NULL;
		size_t n = 0;
		int rc = ks_wire_decode(&h, c->in + pos + KS_WIRE_HEADER,
					c->d->priv->cache, &ads, &n, &err);
		pos += KS_WIRE_HEADER + h.wire_len;
		/* The ads do not point into the input: a large message's
		 * bytes go before its command runs, which may make another
		 * copy (a reply, a write to the job queue). */
		if (h.wire_len >= BUF_KEEP / 2) {
			conn_consume(c, pos);
			pos = 0;
		}
		conn_message(c, &h, ads, n, rc ? &err : NULL);
	}
	conn_consume(c, pos);
}

/* A connection from another host may open with TLS (its first byte is a
 * TLS handshake record, 22): then the TLS handshake runs first.  Returns
 * 1 when reading may go on, 0 to wait, -1 to close. */
static int tls_step(struct ks_srv_conn *c)
{
	if (!c->tls_checked && !c->unix_peer) {
		unsigned char b;
		ssize_t r = recv(c->fd, &b, 1, MSG_PEEK);
		if (r == 0)
			return -1;
		if (r < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->tls_checked = true;
		if (b == 22) {
			if (!c->d->priv->tls_ctx) {
				ks_log_printf(c->d->log, KS_D_ALWAYS,
					      "TLS from %s, but no TLS here; "
					      "closing", c->host);
				return -1;
			}
			c->ssl = SSL_new(c->d->priv->tls_ctx);
			if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1)
				return -1;
			c->tls_accepting = true;
		}
	}
	if (!c->tls_accepting)
		return 1;
	int r = SSL_accept(c->ssl);
	if (r == 1) {
		c->tls_accepting = false;
		return 1;
	}
	int e = SSL_get_error(c->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		ks_loop_rewatch(c->d->loop, c->fd,
				e == SSL_ERROR_WANT_READ ? KS_EV_IN : KS_EV_OUT);
		return 0;
	}
	ks_log_printf(c->d->log, KS_D_ALWAYS, "TLS handshake with %s failed; "
		      "closing", c->host);
	return -1;
}

/* How much input to hold before it is parsed: the first message whole
 * once its header says how long it is, else IN_GULP.  Reading stops
 * there, the rest waiting in the socket: however fast a peer sends, it
 * makes the daemon hold one message (KS_WIRE_MAX at most, HANDSHAKE_MAX
 * before the handshake), checked before anything is allocated for it. */
static size_t conn_want(const struct ks_srv_conn *c)
{
	if (c->inlen < KS_WIRE_HEADER)
		return IN_GULP;
	struct ks_wire_header h;
	if (ks_wire_header_decode(c->in, &h, NULL) ||
	    (c->state != HS_READY && h.wire_len > HANDSHAKE_MAX))
		return 0; /* conn_parse() says why and closes */
	size_t need = KS_WIRE_HEADER + (size_t)h.wire_len;
	return need > IN_GULP ? need : IN_GULP;
}

/* Reads what the socket (or TLS) has now, up to conn_want().  Returns 0,
 * or -1 when the peer has gone. */
static int conn_read_some(struct ks_srv_conn *c)
{
	for (;;) {
		/* what TLS has already taken from the socket no event
		 * announces: it is read now (a record, 16 KiB at most) */
		bool held = c->ssl && SSL_pending(c->ssl) > 0;
		size_t want = conn_want(c);
		if (c->inlen >= want && !held)
			return 0;
		size_t room = want > c->inlen ? want - c->inlen : 0;
		if (room < READ_MIN)
			room = READ_MIN;
		if (c->incap - c->inlen < room) {
			c->incap = c->inlen + room;
			c->in = ks_xrealloc(c->in, c->incap);
		}
		if (c->ssl) {
			size_t got = 0;
			int r = SSL_read_ex(c->ssl, c->in + c->inlen, room,
					    &got);
			if (r == 1) {
				c->inlen += got;
				continue;
			}
			int e = SSL_get_error(c->ssl, r);
			return e == SSL_ERROR_WANT_READ ||
				       e == SSL_ERROR_WANT_WRITE
				       ? 0
				       : -1;
		}
		ssize_t r = recv(c->fd, c->in + c->inlen, room, 0);
		if (r > 0) {
			c->inlen += (size_t)r;
			continue;
		}
		return r == 0 || (errno != EAGAIN && errno != EINTR) ? -1 : 0;
	}
}

static void on_conn(void *arg, int fd, unsigned ev)
{
	struct ks_srv_conn *c = arg;
	(void)fd;
	c->last_ms = ks_clock_ms();
	if (!c->tls_checked || c->tls_accepting) {
		int t = tls_step(c);
		if (t < 0) {
			conn_free(c);
			return;
		}
		if (t == 0)
			return;
		ev |= KS_EV_IN; /* data may wait inside TLS already */
	}
	if (ev & (KS_EV_IN | KS_EV_ERR)) {
		/* at the end of the input what came is still answered */
		bool ended = conn_read_some(c) != 0;
		conn_parse(c);
		if (ended)
			c->closing = true;
	}
	conn_events(c);
}

/* Writes and streams what it can, takes up the requests that waited for
 * a stream to end, then closes or waits for the right events.  No input
 * is read while a stream goes on, so a peer that sends without reading
 * cannot make the daemon hold more. */
static void conn_events(struct ks_srv_conn *c)
{
	for (;;) {
		if (conn_flush(c) || conn_stream(c)) {
			conn_free(c);
			return;
		}
		if (c->stream || c->closing || c->inlen < KS_WIRE_HEADER)
			break;
		size_t before = c->inlen;
		conn_parse(c);
		if (c->inlen == before) /* only part of a message is here */
			break;
	}
	bool pending = c->outpos < c->out.len || c->stream;
	if (c->closing && !pending) {
		conn_free(c);
		return;
	}
	ks_loop_rewatch(c->d->loop, c->fd,
			(c->closing || c->stream ? 0u : KS_EV_IN) |
				(pending ? KS_EV_OUT : 0u));
}

static void on_accept(void *arg, int lfd, unsigned ev)
{
	ks_daemon *d = arg;
	(void)ev;
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		struct ks_srv_conn *c = ks_xcalloc(1, sizeof(*c));
		c->d = d;
		c->fd = fd;
		c->unix_peer = lfd == d->priv->unix_fd;
		c->tls_checked = c->unix_peer; /* TLS is for other hosts */
		c->last_ms = ks_clock_ms();
		if (ss.ss_family == AF_INET)
			inet_ntop(AF_INET,
				  &((struct sockaddr_in *)&ss)->sin_addr,
				  c->host, sizeof(c->host));
		else if (ss.ss_family == AF_INET6)
			inet_ntop(AF_INET6,
				  &((struct sockaddr_in6 *)&ss)->sin6_addr,
				  c->host, sizeof(c->host));
		else
			snprintf(c->host, sizeof(c->host), "local");
		if (!c->unix_peer) {
			int one = 1;
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
		}
		c->next = d->priv->conns;
		if (c->next)
			c->next->prev = c;
		d->priv->conns = c;
		d->priv->nconns++;
		if (ks_loop_watch(d->loop, fd, KS_EV_IN, on_conn, c))
			conn_free(c);
	}
}

/* UDP: one message per datagram, no handshake.  A datagram signed with a
 * session (set up by the sender's TCP handshake) carries that session's
 * identity; an unsigned one is from unauthenticated@unmapped
 * (docs/protocol.md). */
static void on_udp(void *arg, int fd, unsigned ev)
{
	ks_daemon *d = arg;
	(void)ev;
	static const size_t max = 65536;
	unsigned char *buf = ks_xmalloc(max);
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		ssize_t r = recvfrom(fd, buf, max, 0, (struct sockaddr *)&ss,
				     &sl);
		if (r < 0)
			break;
		char host[64] = "";
		if (ss.ss_family == AF_INET)
			inet_ntop(AF_INET,
				  &((struct sockaddr_in *)&ss)->sin_addr, host,
				  sizeof(host));
		struct ks_wire_header h;
		struct ks_err err;
		classad **ads = NULL;
		size_t n = 0;
		const char *identity = KS_ANONYMOUS;
		unsigned levels = 0;
		size_t trailer = 0;
		if ((size_t)r >= KS_WIRE_HEADER &&
		    ks_wire_header_decode(buf, &h, &err) == 0 &&
		    (h.flags & KS_WIRE_SIGNED)) {
			trailer = KS_WIRE_SESSION_ID + KS_WIRE_MAC;
			const struct kd_session *s =
				(size_t)r >= KS_WIRE_HEADER + trailer
					? session_find(d, (char *)buf + r -
								  trailer)
					: NULL;
			unsigned char mac[32];
			unsigned int ml = sizeof(mac);
			if (s)
				HMAC(EVP_sha256(), s->key, 32, buf,
				     (size_t)r - trailer, mac, &ml);
			if (!s || CRYPTO_memcmp(mac, buf + r - KS_WIRE_MAC,
						KS_WIRE_MAC) != 0) {
				ks_log_printf(d->log, KS_D_ALWAYS,
					      "datagram from %s with %s; "
					      "dropped", host,
					      s ? "a bad signature"
						: "an unknown session");
				continue;
			}
			identity = s->identity;
			levels = s->levels;
		}
		if ((size_t)r < KS_WIRE_HEADER ||
		    ks_wire_header_decode(buf, &h, &err) ||
		    h.wire_len != (size_t)r - KS_WIRE_HEADER - trailer ||
		    ks_wire_decode(&h, buf + KS_WIRE_HEADER, d->priv->cache,
				   &ads, &n, &err)) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "bad datagram of %zd bytes from %s",
				      r, host);
			continue;
		}
		struct ks_request req = {h.code, ads, n, identity, host,
					 true, (h.flags & KS_WIRE_PAIRED) != 0,
					 NULL};
		dispatch(d, &req, levels);
		for (size_t i = 0; i < n; i++)
			classad_free(ads[i]);
		free(ads);
	}
	free(buf);
}

static void on_sweep(void *arg)
{
	ks_daemon *d = arg;
	int64_t now = ks_clock_ms();
	/* Lines of ads replaced since (a new MyCurrentTime each update...)
	 * stay in the parse cache until purged: once a minute. */
	if (++d->priv->sweeps % 12 == 0) {
		size_t n = classad_cache_purge(d->priv->cache);
		if (n)
			ks_log_printf(d->log, KS_D_FULLDEBUG,
				      "%zu unused cached expressions dropped", n);
	}
	kd_memory_sweep(d);
	struct ks_srv_conn *c = d->priv->conns;
	while (c) {
		struct ks_srv_conn *next = c->next;
		int64_t limit = (c->state == HS_READY ? IDLE_TIMEOUT_S
						      : HANDSHAKE_TIMEOUT_S) *
				1000;
		/* a connection waiting for a promised reply (a job's end)
		 * is quiet, not idle */
		if (now - c->last_ms > limit && !c->later) {
			ks_log_printf(d->log, KS_D_FULLDEBUG,
				      "closing idle connection from %s",
				      c->host);
			conn_free(c);
		}
		c = next;
	}
}

static int bind_inet(int type, const char *ip, int port, int *bound,
		     struct ks_err *err)
{
	int fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ks_err_set(err, KS_EIO, 0, 0, 0, "socket: %s",
				  strerror(errno));
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port)};
	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    (type == SOCK_STREAM && listen(fd, 512) != 0)) {
		int e = errno;
		close(fd);
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot bind %s port %d on %s: %s",
				  type == SOCK_STREAM ? "TCP" : "UDP", port,
				  ip, strerror(e));
	}
	socklen_t sl = sizeof(sa);
	getsockname(fd, (struct sockaddr *)&sa, &sl);
	*bound = ntohs(sa.sin_port);
	return fd;
}

/* The address the daemon binds and publishes: NETWORK_INTERFACE when it
 * is an IPv4 address, else 127.0.0.1 (a pool on one host). */
static void public_ip(ks_daemon *d, char *ip, size_t n)
{
	char *ni = ks_config_get(d->cfg, "NETWORK_INTERFACE", NULL);
	struct in_addr a;
	if (ni && inet_pton(AF_INET, ni, &a) == 1)
		snprintf(ip, n, "%s", ni);
	else
		snprintf(ip, n, "127.0.0.1");
	free(ni);
}

static int bind_unix(ks_daemon *d, const char *name)
{
	char *dir = ks_addr_socket_dir(d->cfg);
	if (!dir)
		return -1;
	mkdir(dir, 0755);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	int n = snprintf(un.sun_path, sizeof(un.sun_path), "%s/%s", dir, name);
	free(dir);
	if (n < 0 || (size_t)n >= sizeof(un.sun_path)) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "DAEMON_SOCKET_DIR is too long for a socket "
			      "path; local tools will use TCP");
		return -1;
	}
	unlink(un.sun_path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&un, sizeof(un)) != 0 ||
	    listen(fd, 512) != 0) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "cannot listen on %s: %s; local tools will use "
			      "TCP", un.sun_path, strerror(errno));
		close(fd);
		return -1;
	}
	chmod(un.sun_path, 0777); /* FS identifies whoever connects */
	d->priv->unix_path = ks_xstrdup(un.sun_path);
	return fd;
}

int kd_server_start(ks_daemon *d, struct ks_err *err)
{
	struct ks_daemon_priv *p = d->priv;
	char ip[64];
	public_ip(d, ip, sizeof(ip));
	int port = 0;
	p->tcp_fd = bind_inet(SOCK_STREAM, ip, p->want_port, &port, err);
	if (p->tcp_fd < 0)
		return p->tcp_fd;
	int uport = 0;
	p->udp_fd = bind_inet(SOCK_DGRAM, ip, port, &uport, err);
	if (p->udp_fd < 0)
		return p->udp_fd;
	int rcv = 8 << 20;
	setsockopt(p->udp_fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	d->port = port;
	/* The socket's name: the subsystem, with the local name and port so
	 * that several daemons of a kind on one host do not collide. */
	char sock[64];
	snprintf(sock, sizeof(sock), "%s%s%s_%d", d->subsys,
		 d->local_name ? "_" : "", d->local_name ? d->local_name : "",
		 port);
	for (char *s = sock; *s; s++)
		*s = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
	p->unix_fd = bind_unix(d, sock);
	struct ks_addr a = {.port = port};
	snprintf(a.host, sizeof(a.host), "%s", ip);
	if (p->unix_fd >= 0)
		snprintf(a.sock, sizeof(a.sock), "%s", sock);
	ks_addr_format(&a, d->sinful, sizeof(d->sinful));
	if (ks_loop_watch(d->loop, p->tcp_fd, KS_EV_IN, on_accept, d) ||
	    ks_loop_watch(d->loop, p->udp_fd, KS_EV_IN, on_udp, d) ||
	    (p->unix_fd >= 0 &&
	     ks_loop_watch(d->loop, p->unix_fd, KS_EV_IN, on_accept, d)))
		return ks_err_set(err, KS_EIO, 0, 0, 0, "epoll: %s",
				  strerror(errno));
	p->sweep_timer = ks_loop_timer(d->loop, 5000, 5000, on_sweep, d);
	/* peers on other hosts talk TLS (ks_tls.h) */
	bool made = false;
	struct ks_err terr;
	p->tls_ctx = ks_tls_server_ctx(d->cfg, &made, &terr);
	if (!p->tls_ctx)
		ks_log_printf(d->log, KS_D_ALWAYS, "no TLS: %s", terr.msg);
	else if (made)
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "TLS with a certificate made at start-up");
	return 0;
}

void kd_server_stop(ks_daemon *d)
{
	struct ks_daemon_priv *p = d->priv;
	while (p->conns) {
		conn_flush(p->conns);
		conn_free(p->conns);
	}
	int fds[] = {p->tcp_fd, p->udp_fd, p->unix_fd};
	for (size_t i = 0; i < 3; i++)
		if (fds[i] >= 0) {
			ks_loop_unwatch(d->loop, fds[i]);
			close(fds[i]);
		}
	if (p->unix_path)
		unlink(p->unix_path);
	free(p->unix_path);
	p->unix_path = NULL;
	ks_loop_cancel(d->loop, p->sweep_timer);
	SSL_CTX_free(p->tls_ctx);
	p->tls_ctx = NULL;
}
