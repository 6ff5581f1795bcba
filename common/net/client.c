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

int ks_conn_fd(const ks_conn *c)
{
	return c->fd;
}

bool ks_conn_pending(const ks_conn *c)
{
	return c->ssl && SSL_pending(c->ssl) > 0;
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

/* Whether host (numeric) is an address of one of this host's interfaces:
 * a daemon bound to its NETWORK_INTERFACE is still on this host, and its
 * local clients (a user's condor_submit) are known by their Unix-domain
 * socket's credentials. */
static bool own_address(const char *host)
{
	unsigned char want[16];
	int family = AF_INET;
	if (inet_pton(AF_INET, host, want) != 1) {
		family = AF_INET6;
		if (inet_pton(AF_INET6, host, want) != 1)
			return false;
	}
	struct ifaddrs *ifs = NULL;
	if (getifaddrs(&ifs) != 0)
		return false;
	bool found = false;
	for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != family)
			continue;
		if (family == AF_INET)
			found = memcmp(&((struct sockaddr_in *)i->ifa_addr)
					       ->sin_addr,
				       want, 4) == 0;
		else
			found = memcmp(&((struct sockaddr_in6 *)i->ifa_addr)
					       ->sin6_addr,
				       want, 16) == 0;
	}
	freeifaddrs(ifs);
	return found;
}

/* The Unix-domain socket of a daemon of this host, if its address names
 * one and it exists here. */
static char *local_socket(const ks_config *cfg, const struct ks_addr *a)
{
	if (!a->sock[0] ||
	    (!ks_addr_is_local(a->host) && !own_address(a->host)))
		return NULL;
	char *dir = ks_addr_socket_dir(cfg);
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + strlen(a->sock) + 2;
	char *path = ks_xmalloc(n);
	snprintf(path, n, "%s/%s", dir, a->sock);
	free(dir);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		free(path);
		return NULL;
	}
	return path;
}

static char *ad_string(const classad *ad, const char *name)
{
	char *s = NULL;
	if (ad && classad_eval_string(ad, name, NULL, &s))
		return s;
	return NULL;
}

/* One step of the handshake: send, then read the answer. */
static int exchange(ks_conn *c, int code, classad *out, int *rcode,
		    classad **in, struct ks_err *err)
{
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_conn_send(c, code, &out, 1, false, err);
	if (rc == 0)
		rc = ks_conn_recv(c, rcode, &ads, &n, NULL, err);
	if (rc)
		return rc;
	*in = n ? classad_ref(ads[0]) : classad_new();
	ks_ads_free(ads, n);
	if (*rcode == KS_REPLY_DENIED || *rcode == KS_REPLY_ERROR) {
		char *why = ad_string(*in, "ErrorString");
		rc = ks_err_set(err, KS_EAUTH, 0, 0, 0,
				"%s refused the connection: %s", c->peer,
				why ? why : "no reason given");
		free(why);
		classad_free(*in);
		*in = NULL;
	}
	return rc;
}

static bool method_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		p += strspn(p, ", \t");
		size_t len = strcspn(p, ", \t");
		if (len == n && strncasecmp(p, name, n) == 0)
			return true;
		p += len;
	}
	return false;
}

static int handshake(ks_conn *c, const ks_config *cfg, bool unix_peer,
		     struct ks_err *err)
{
	unsigned char nonce[16], sig[32];
	char cn[33], *head = NULL;
	if (ks_auth_random(nonce, sizeof(nonce)))
		return ks_err_set(err, KS_EIO, 0, 0, 0, "no random numbers");
	ks_auth_hex(nonce, sizeof(nonce), cn);
	classad *hello = classad_new();
	classad_insert_int(hello, "Version", KS_WIRE_VERSION);
	classad_insert_string(hello, "ClientNonce", cn);
	char *methods = ks_config_get(cfg, "SEC_CLIENT_AUTHENTICATION_METHODS",
				      NULL);
	if (!methods)
		methods = ks_config_get(cfg,
					"SEC_DEFAULT_AUTHENTICATION_METHODS",
					NULL);
	classad_insert_string(hello, "AuthMethods",
			      methods ? methods : "FS,TOKEN");
	bool want_token = !methods || method_listed(methods, "TOKEN") ||
			  method_listed(methods, "IDTOKENS");
	free(methods);
	if (!unix_peer && want_token &&
	    ks_tokauth_client(cfg, &head, sig) == 0)
		classad_insert_string(hello, "TokenHead", head);
	int code;
	classad *in = NULL;
	int rc = exchange(c, KS_HS_HELLO, hello, &code, &in, err);
	classad_free(hello);
	if (rc == 0 && code == KS_HS_CHALLENGE && head) {
		char *sn0 = ad_string(in, "ServerNonce");
		/* the proofs cover the TLS channel too, when there is one */
		char *sn = ks_tls_bind_nonce(c->ssl, sn0);
		free(sn0);
		classad_free(in);
		in = NULL;
		unsigned char mac[32];
		char hex[65];
		ks_auth_mac(sig, 32, "client", cn, sn ? sn : "", mac);
		ks_auth_hex(mac, 32, hex);
		classad *proof = classad_new();
		classad_insert_string(proof, "Proof", hex);
		rc = exchange(c, KS_HS_PROOF, proof, &code, &in, err);
		classad_free(proof);
		if (rc == 0) {
			char *sp = ad_string(in, "ServerProof");
			ks_auth_mac(sig, 32, "server", cn, sn ? sn : "", mac);
			ks_auth_hex(mac, 32, hex);
			if (!sp || strcmp(sp, hex) != 0)
				rc = ks_err_set(err, KS_EAUTH, 0, 0, 0,
						"%s did not prove it knows the "
						"pool signing key", c->peer);
			free(sp);
		}
		free(sn);
	}
	free(head);
	if (rc == 0 && code != KS_HS_DONE)
		rc = ks_err_set(err, KS_EPROTO, 0, 0, 0,
				"%s answered the handshake with code %d",
				c->peer, code);
	if (rc == 0) {
		c->identity = ad_string(in, "Identity");
		/* The session for signed datagrams: its key comes in the answer
		 * over a Unix-domain socket (private to the host), and is
		 * derived from the token's secret otherwise. */
		char *sid = ad_string(in, "SessionId");
		char *skey = ad_string(in, "SessionKey");
		if (sid && strlen(sid) == KS_WIRE_SESSION_ID) {
			if (skey && ks_auth_unhex(skey, c->key, 32) == 0)
				strcpy(c->session, sid);
			else if (!skey && head) {
				ks_auth_mac(sig, 32, "session", cn, sid, c->key);
				strcpy(c->session, sid);
			}
		}
		if (skey)
			OPENSSL_cleanse(skey, strlen(skey));
		free(sid);
		free(skey);
	}
	OPENSSL_cleanse(sig, sizeof(sig));
	classad_free(in);
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
	char *path = local_socket(cfg, &a);
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

/* The address in the collector's address file, if the file names the
 * collector the user meant (same port, or any when the port is 0). */
static char *address_file(const ks_config *cfg, const struct ks_addr *want)
{
	char *path = ks_config_get(cfg, "COLLECTOR_ADDRESS_FILE", NULL);
	if (!path)
		return NULL;
	struct ks_addr a;
	char *got = ks_addr_read_file(path, &a);
	free(path);
	if (got && want->port != 0 && want->port != a.port) {
		free(got);
		got = NULL;
	}
	return got;
}

int ks_collector_addr(const ks_config *cfg, const char *pool, char **addr,
		      struct ks_err *err)
{
	*addr = NULL;
	char *host = pool ? ks_xstrdup(pool)
			  : ks_config_get(cfg, "COLLECTOR_HOST", NULL);
	if (!host)
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "COLLECTOR_HOST is not defined in the "
				  "configuration; set it, or give -pool");
	/* COLLECTOR_HOST may list several collectors; the first is asked. */
	host[strcspn(host, ", \t")] = '\0';
	struct ks_addr a;
	int rc = ks_addr_parse(host, KS_DEFAULT_PORT, &a, err);
	if (rc) {
		free(host);
		return rc;
	}
	char *found = ks_addr_is_local(a.host) || a.port == 0
			      ? address_file(cfg, &a) : NULL;
	if (!found && a.port == 0) {
		rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				"the collector %s chooses its port at start-up "
				"and has not written COLLECTOR_ADDRESS_FILE: "
				"is it running?", host);
		free(host);
		return rc;
	}
	*addr = found ? found : host;
	if (found)
		free(host);
	return 0;
}

struct query_each {
	int code;
	char *why; /* the ErrorString of an error reply */
	ks_wire_record_fn each;
	void *arg;
};

static int query_record(const struct ks_wire_record *rec, void *arg)
{
	struct query_each *q = arg;
	if (q->code >= 0)
		return q->each(rec, q->arg);
	classad *ad = q->why ? NULL : ks_wire_record_parse(rec, NULL, NULL);
	if (ad)
		q->why = ad_string(ad, "ErrorString");
	classad_free(ad);
	return 0;
}

int ks_collector_query_each(const ks_config *cfg, const char *pool,
			    int command, const classad *query,
			    ks_wire_record_fn each, void *arg,
			    struct ks_err *err)
{
	char *addr = NULL;
	ks_conn *c = NULL;
	int rc = ks_collector_addr(cfg, pool, &addr, err);
	if (rc == 0)
		rc = ks_conn_open(cfg, addr, 0, &c, err);
	classad *q = (classad *)query;
	if (rc == 0)
		rc = ks_conn_send(c, command, &q, 1, false, err);
	struct query_each st = {.each = each, .arg = arg};
	bool more = rc == 0;
	while (more && rc == 0) {
		rc = ks_conn_recv_records(c, &st.code, &more, query_record, &st,
					  err);
		if (rc == 0 && st.code < 0)
			rc = ks_err_set(err, st.code == KS_REPLY_DENIED
						     ? KS_EPERM
						     : KS_EPROTO,
					0, 0, 0, "the collector at %s refused "
					"the query: %s", addr,
					st.why ? st.why : "no reason given");
	}
	free(st.why);
	ks_conn_close(c);
	free(addr);
	return rc;
}

struct query_all {
	classad_cache *cache;
	struct ks_err *err;
	classad **ads;
	size_t n, cap;
};

static int keep_ad(const struct ks_wire_record *rec, void *arg)
{
	struct query_all *a = arg;
	classad *ad = ks_wire_record_parse(rec, a->cache, a->err);
	if (!ad)
		return KS_EPARSE;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->ads = ks_xrealloc(a->ads, a->cap * sizeof(*a->ads));
	}
	a->ads[a->n++] = ad;
	return 0;
}

int ks_collector_query(const ks_config *cfg, const char *pool, int command,
		       const classad *query, classad ***ads, size_t *n,
		       struct ks_err *err)
{
	struct ks_err perr = {0};
	struct query_all a = {.cache = classad_cache_new(), .err = &perr};
	int rc = ks_collector_query_each(cfg, pool, command, query, keep_ad,
					 &a, err);
	if (rc == KS_ECANCELED) { /* an ad did not parse: its message */
		rc = perr.code;
		if (err)
			*err = perr;
	}
	classad_cache_free(a.cache);
	if (rc) {
		ks_ads_free(a.ads, a.n);
		a.ads = NULL;
		a.n = 0;
	}
	*ads = a.ads;
	*n = a.n;
	return rc;
}

char *ks_negotiator_addr(const ks_config *cfg, const char *pool,
			 const char *name, struct ks_err *err)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Negotiator");
	if (name) {
		struct classad_buf b = {0};
		classad_buf_add(&b, "Name == ", 8);
		classad_quote_string_buf(&b, name, strlen(name));
		classad_insert_text(q, "Requirements", b.data, NULL);
		free(b.data);
	} else {
		classad_insert_bool(q, "Requirements", true);
	}
	classad **ads = NULL;
	size_t n = 0;
	char *addr = NULL;
	int rc = ks_collector_query(cfg, pool, KS_QUERY_NEGOTIATOR_ADS, q,
				    &ads, &n, err);
	classad_free(q);
	for (size_t i = 0; rc == 0 && i < n && !addr; i++)
		if (!classad_eval_string(ads[i], "NegotiatorIpAddr", NULL,
					 &addr))
			classad_eval_string(ads[i], "MyAddress", NULL, &addr);
	ks_ads_free(ads, n);
	if (!addr && rc == 0)
		ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
			   "no negotiator%s%s in the collector",
			   name ? " named " : "", name ? name : "");
	return addr;
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
		char *why = n ? ad_string(in[0], "ErrorString") : NULL;
		rc = ks_err_set(err, code == KS_REPLY_DENIED ? KS_EPERM
							      : KS_EPROTO,
				0, 0, 0, "%s", why ? why : "no reason given");
		free(why);
	}
	ks_ads_free(in, n);
	return rc;
}

int ks_schedd_addr(const ks_config *cfg, const char *name, const char *pool,
		   char **addr, char **found_name, struct ks_err *err)
{
	*addr = NULL;
	if (found_name)
		*found_name = NULL;
	if (!name && !pool) {
		char *path = ks_config_get(cfg, "SCHEDD_ADDRESS_FILE", NULL);
		struct ks_addr a;
		char *got = path ? ks_addr_read_file(path, &a) : NULL;
		free(path);
		if (got) {
			*addr = got;
			if (found_name)
				*found_name = ks_daemon_name(cfg, "SCHEDD", NULL);
			return 0;
		}
	}
	char *want = name ? ks_xstrdup(name) : ks_daemon_name(cfg, "SCHEDD", NULL);
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Scheduler");
	struct classad_buf req = {0};
	classad_buf_add(&req, "Name == ", 8);
	classad_quote_string_buf(&req, want, strlen(want));
	classad_insert_text(q, "Requirements", req.data, NULL);
	free(req.data);
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_collector_query(cfg, pool, KS_QUERY_SCHEDD_ADS, q, &ads,
				    &n, err);
	classad_free(q);
	if (rc == 0) {
		*addr = n ? ad_string(ads[0], "MyAddress") : NULL;
		if (!*addr)
			rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					"no schedd named %s is known to the "
					"collector", want);
	}
	if (rc == 0 && found_name) {
		*found_name = want;
		want = NULL;
	}
	ks_ads_free(ads, n);
	free(want);
	return rc;
}
