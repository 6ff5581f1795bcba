/* client.c: connections from tools and daemons to a daemon
 * (ks_client.h): connect, handshake, messages, collector queries. */
#include "ks_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_auth.h"
#include "ks_commands.h"
#include "ks_io.h"
#include "ks_daemon_name.h"
#include "ks_handshake.h"
#include "ks_mem.h"
#include "ks_tokauth.h"
#include "ks_tls.h"
#include "ks_wire.h"

struct ks_conn {
	int fd;
	SSL *ssl;       /* a TLS channel to another host, or NULL */
	SSL_CTX *ssl_ctx;
	int timeout_ms;
	bool compress; /* not for loopback or Unix-domain peers */
	char *peer;    /* what the user named, for messages */
	char *identity;
	classad_cache *cache;
	struct ks_addr addr; /* the daemon's TCP (and UDP) address */
	int udp_fd;
	char session[KS_WIRE_SESSION_ID + 1]; /* "" without a session */
	unsigned char key[32];
	/* reused for every message: fresh large buffers would each cost a
	 * mapping and its page faults */
	unsigned char *rbuf;
	size_t rcap;
	/* messages not yet written: sends are gathered into few writes */
	struct classad_buf out;
};

/* Past this much pending output, a send writes at once. */
#define OUT_BATCH (256u * 1024)

static int64_t deadline(const ks_conn *c)
{
	return ks_clock_ms() + c->timeout_ms;
}

/* After an SSL call returned r: waits for what TLS needs, or fails. */
static int tls_wait(ks_conn *c, int r, int64_t dl, const char *what,
		    struct ks_err *err)
{
	int e = SSL_get_error(c->ssl, r);
	short ev = e == SSL_ERROR_WANT_READ    ? POLLIN
		   : e == SSL_ERROR_WANT_WRITE ? POLLOUT
					       : 0;
	if (!ev) {
		char buf[160] = "the peer closed the connection";
		unsigned long code = ERR_get_error();
		if (code)
			ERR_error_string_n(code, buf, sizeof(buf));
		return ks_err_set(err, KS_EIO, 0, 0, 0, "TLS %s with %s: %s",
				  what, c->peer, buf);
	}
	if (ks_io_wait(c->fd, ev, dl))
		return ks_err_set(err, KS_ETIMEDOUT, 0, 0, 0,
				  "timed out in TLS %s with %s", what, c->peer);
	return 0;
}

static int conn_write(ks_conn *c, const void *buf, size_t n,
		      struct ks_err *err)
{
	int64_t dl = deadline(c);
	if (!c->ssl)
		return ks_io_write(c->fd, buf, n, dl, err);
	const char *p = buf;
	while (n) {
		size_t done = 0;
		int r = SSL_write_ex(c->ssl, p, n, &done);
		if (r == 1) {
			p += done;
			n -= done;
		} else {
			int rc = tls_wait(c, r, dl, "write", err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int conn_read(ks_conn *c, void *buf, size_t n, int64_t dl,
		     struct ks_err *err)
{
	if (!c->ssl)
		return ks_io_read(c->fd, buf, n, dl, err);
	char *p = buf;
	while (n) {
		size_t done = 0;
		int r = SSL_read_ex(c->ssl, p, n, &done);
		if (r == 1) {
			p += done;
			n -= done;
		} else {
			int rc = tls_wait(c, r, dl, "read", err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int tls_start(ks_conn *c, const ks_config *cfg, struct ks_err *err)
{
	(void)cfg;
	c->ssl_ctx = ks_tls_client_ctx(err);
	if (!c->ssl_ctx)
		return KS_EINTERNAL;
	c->ssl = SSL_new(c->ssl_ctx);
	if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1)
		return ks_err_set(err, KS_EINTERNAL, 0, 0, 0, "SSL_new failed");
	int64_t dl = deadline(c);
	for (;;) {
		int r = SSL_connect(c->ssl);
		if (r == 1)
			return 0;
		int rc = tls_wait(c, r, dl, "handshake", err);
		if (rc)
			return rc;
	}
}

int ks_conn_send(ks_conn *c, int code, classad *const *ads, size_t n,
		 unsigned flags, struct ks_err *err)
{
	int rc = ks_wire_encode(&c->out, code, ads, n,
				flags & (KS_WIRE_MORE | KS_WIRE_PAIRED),
				c->compress, err);
	if (rc == 0 && c->out.len >= OUT_BATCH)
		rc = ks_conn_flush(c, err);
	return rc;
}

int ks_conn_flush(ks_conn *c, struct ks_err *err)
{
	int rc = 0;
	if (c->out.len)
		rc = conn_write(c, c->out.data, c->out.len, err);
	c->out.len = 0;
	return rc;
}

/* Reads one message's header and payload into c->rbuf. */
static int recv_message(ks_conn *c, struct ks_wire_header *h,
			struct ks_err *err)
{
	unsigned char hb[KS_WIRE_HEADER];
	int rc = ks_conn_flush(c, err);
	if (rc)
		return rc;
	int64_t dl = deadline(c);
	rc = conn_read(c, hb, sizeof(hb), dl, err);
	if (rc == 0)
		rc = ks_wire_header_decode(hb, h, err);
	if (rc)
		return rc;
	if (h->wire_len + 1u > c->rcap) {
		c->rcap = h->wire_len + 1u;
		c->rbuf = ks_xrealloc(c->rbuf, c->rcap);
	}
	return conn_read(c, c->rbuf, h->wire_len, dl, err);
}

int ks_conn_recv(ks_conn *c, int *code, classad ***ads, size_t *n,
		 bool *more, struct ks_err *err)
{
	struct ks_wire_header h;
	*ads = NULL;
	*n = 0;
	int rc = recv_message(c, &h, err);
	if (rc == 0)
		rc = ks_wire_decode(&h, c->rbuf, c->cache, ads, n, err);
	if (rc)
		return rc;
	*code = h.code;
	if (more)
		*more = (h.flags & KS_WIRE_MORE) != 0;
	return 0;
}

int ks_conn_recv_records(ks_conn *c, int *code, bool *more,
			 ks_wire_record_fn fn, void *arg, struct ks_err *err)
{
	struct ks_wire_header h;
	int rc = recv_message(c, &h, err);
	if (rc)
		return rc;
	*code = h.code;
	*more = (h.flags & KS_WIRE_MORE) != 0;
	return ks_wire_records(&h, c->rbuf, fn, arg, err);
}

void ks_ads_free(classad **ads, size_t n)
{
	for (size_t i = 0; i < n; i++)
		classad_free(ads[i]);
	free(ads);
}

void ks_conn_close(ks_conn *c)
{
	if (!c)
		return;
	if (c->fd >= 0) {
		ks_conn_flush(c, NULL);
		if (c->ssl)
			SSL_shutdown(c->ssl);
		close(c->fd);
	}
	SSL_free(c->ssl);
	SSL_CTX_free(c->ssl_ctx);
	free(c->out.data);
	if (c->udp_fd >= 0)
		close(c->udp_fd);
	OPENSSL_cleanse(c->key, sizeof(c->key));
	free(c->rbuf);
	free(c->peer);
	free(c->identity);
	classad_cache_free(c->cache);
	free(c);
}

const char *ks_conn_identity(const ks_conn *c)
{
	return c->identity ? c->identity : KS_ANONYMOUS;
}

/* Drives the handshake's steps over the blocking connection. */
static int handshake(ks_conn *c, const ks_config *cfg, bool unix_peer,
		     struct ks_err *err)
{
	struct ks_hs_client h;
	classad *out = NULL;
	int out_code = KS_HS_HELLO;
	int rc = ks_hs_client_begin(&h, cfg, unix_peer, c->peer, &out, err);
	while (rc == 0 && out) {
		int code = 0;
		classad **ads = NULL;
		size_t n = 0;
		rc = ks_conn_send(c, out_code, &out, 1, 0, err);
		classad_free(out);
		out = NULL;
		if (rc == 0)
			rc = ks_conn_recv(c, &code, &ads, &n, NULL, err);
		if (rc == 0) {
			rc = ks_hs_client_step(&h, c->ssl, code,
					       n ? ads[0] : NULL, &out_code,
					       &out, err);
			rc = rc > 0 ? 0 : rc;
		}
		ks_ads_free(ads, n);
	}
	if (rc == 0) {
		c->identity = h.identity;
		h.identity = NULL;
		memcpy(c->session, h.session, sizeof(c->session));
		memcpy(c->key, h.key, sizeof(c->key));
	}
	ks_hs_client_clear(&h);
	return rc;
}

int ks_conn_open(const ks_config *cfg, const char *addr, int timeout_ms,
		 ks_conn **out, struct ks_err *err)
{
	struct ks_addr a;
	*out = NULL;
	int rc = ks_addr_parse(addr, KS_DEFAULT_PORT, &a, err);
	if (rc)
		return rc;
	ks_conn *c = ks_xcalloc(1, sizeof(*c));
	c->udp_fd = -1;
	c->addr = a;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 20000;
	c->peer = ks_xstrdup(addr);
	c->cache = classad_cache_new();
	char *path = ks_addr_local_socket(cfg, &a);
	int64_t dl = deadline(c);
	c->fd = path ? ks_io_connect(&a, path, dl, NULL) : -1;
	bool unix_peer = c->fd >= 0;
	if (c->fd < 0)
		c->fd = ks_io_connect(&a, NULL, dl, err);
	free(path);
	if (c->fd < 0) {
		rc = c->fd;
		ks_conn_close(c);
		return rc;
	}
	c->compress = !unix_peer && !ks_addr_is_local(a.host);
	if (!unix_peer && ks_tls_wanted(cfg, a.host)) {
		rc = tls_start(c, cfg, err);
		if (rc) {
			ks_conn_close(c);
			return rc;
		}
	}
	rc = handshake(c, cfg, unix_peer, err);
	if (rc) {
		ks_conn_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

int ks_conn_send_udp_raw(ks_conn *c, const char *msg, size_t len,
			 struct ks_err *err)
{
	if (c->udp_fd < 0) {
		c->udp_fd = ks_io_udp_connect(&c->addr, err);
		if (c->udp_fd < 0)
			return c->udp_fd;
	}
	size_t trailer = c->session[0] ? KS_WIRE_SESSION_ID + KS_WIRE_MAC : 0;
	if (len < KS_WIRE_HEADER || len + trailer > 65507)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "a message of %zu bytes does not fit in a "
				  "UDP datagram; use TCP", len);
	unsigned char *d = ks_xmalloc(len + trailer);
	memcpy(d, msg, len);
	if (trailer) {
		d[3] |= KS_WIRE_SIGNED;
		unsigned int ml = KS_WIRE_MAC;
		HMAC(EVP_sha256(), c->key, sizeof(c->key), d, len,
		     d + len + KS_WIRE_SESSION_ID, &ml);
		memcpy(d + len, c->session, KS_WIRE_SESSION_ID);
	}
	int rc = 0;
	if (send(c->udp_fd, d, len + trailer, 0) != (ssize_t)(len + trailer))
		rc = ks_err_set(err, KS_EIO, 0, 0, 0, "UDP send failed: %s",
				strerror(errno));
	free(d);
	return rc;
}

int ks_conn_send_udp(ks_conn *c, int code, classad *const *ads, size_t n,
		     struct ks_err *err)
{
	struct classad_buf b = {0};
	int rc = ks_wire_encode(&b, code, ads, n, 0, false, err);
	if (rc == 0)
		rc = ks_conn_send_udp_raw(c, b.data, b.len, err);
	free(b.data);
	return rc;
}

int ks_conn_send_iov(ks_conn *c, const struct iovec *iov, size_t n,
		     struct ks_err *err)
{
	int rc = ks_conn_flush(c, err);
	if (rc || !n)
		return rc;
	if (c->ssl) {
		for (size_t i = 0; i < n && rc == 0; i++)
			rc = conn_write(c, iov[i].iov_base, iov[i].iov_len, err);
		return rc;
	}
	return ks_io_writev(c->fd, iov, n, deadline(c), err);
}

int ks_conn_send_raw(ks_conn *c, const char *msgs, size_t len,
		     struct ks_err *err)
{
	int rc = ks_conn_flush(c, err);
	if (rc == 0)
		rc = conn_write(c, msgs, len, err);
	return rc;
}

int ks_conn_reschedule(ks_conn *c, struct ks_err *err)
{
	int code = 0;
	classad **in = NULL;
	size_t n = 0;
	bool more = false;
	int rc = ks_conn_send(c, KS_RESCHEDULE, NULL, 0, 0, err);
	if (rc == 0)
		rc = ks_conn_recv(c, &code, &in, &n, &more, err);
	if (rc == 0 && code < 0) {
		char *why = n ? classad_eval_string_dup(in[0], "ErrorString") : NULL;
		rc = ks_err_set(err, code == KS_REPLY_DENIED ? KS_EPERM
							      : KS_EPROTO,
				0, 0, 0, "%s", why ? why : "no reason given");
		free(why);
	}
	ks_ads_free(in, n);
	return rc;
}
