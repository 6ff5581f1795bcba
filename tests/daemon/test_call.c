/* test_call.c: requests on the event loop (ks_call.h) against a peer this
 * test plays by hand on 127.0.0.1: one that answers a byte at a time,
 * one that never answers, one that closes in the middle of a message,
 * none at all; and calls cancelled while they connect. */
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_call.h"
#include "ks_commands.h"
#include "ks_wire.h"

/* How the played peer behaves. */
enum peer_mode {
	P_ANSWER,  /* answers the handshake and the request, a byte a turn */
	P_SILENT,  /* accepts, reads, never answers */
	P_HALF,    /* answers the handshake, then half a reply, and closes */
	P_NOACCEPT /* never accepts (the kernel completes the connect) */
};

struct peer {
	ks_loop *loop;
	enum peer_mode mode;
	int lfd, fd;
	int port;
	unsigned char in[4 << 20];
	size_t inlen;
	struct classad_buf out;
	size_t outpos;
	size_t close_at; /* P_HALF: where to close (0: not yet known) */
	uint64_t drip;  /* the timer writing `out` a byte at a time */
	int got_codes[8];
	size_t ngot;
	size_t request_bytes; /* of the request's payload */
	bool closed;
};

struct seen {
	ks_loop *loop;
	ks_call *call;
	int replies, echoes;
	int codes[8];
	bool mores[8];
	int ended; /* times end() ran */
	int rc;
	char msg[256];
	bool send_echo; /* ks_call_send() after the first reply */
	bool cancel_in_reply;
};

static void queue(struct peer *p, int code, unsigned flags, const char *attr,
		  int64_t v)
{
	classad *ad = classad_new();
	if (attr)
		classad_insert_int(ad, attr, v);
	assert_int_equal(ks_wire_encode(&p->out, code, &ad, 1, flags, false,
					NULL),
			 0);
	classad_free(ad);
}

static void on_drip(void *arg)
{
	struct peer *p = arg;
	if (p->fd < 0 || p->outpos >= p->out.len)
		return;
	if (p->close_at && p->outpos >= p->close_at) {
		close(p->fd);
		ks_loop_unwatch(p->loop, p->fd);
		p->fd = -1;
		p->closed = true;
		return;
	}
	ssize_t w = send(p->fd, p->out.data + p->outpos, 1, MSG_NOSIGNAL);
	if (w == 1)
		p->outpos++;
}

/* Each whole message from the client: the handshake's HELLO gets DONE,
 * the request gets two replies (news, then the end), an echoed message
 * its echoed reply. */
static void peer_message(struct peer *p, const struct ks_wire_header *h)
{
	p->got_codes[p->ngot++ % 8] = h->code;
	if (p->mode == P_SILENT)
		return;
	if (h->code == KS_HS_HELLO) {
		queue(p, KS_HS_DONE, 0, NULL, 0);
		return;
	}
	if (p->mode == P_HALF) {
		size_t at = p->out.len;
		queue(p, KS_REPLY_OK, 0, "Big", 123456789);
		p->close_at = at + (p->out.len - at) / 2;
		return;
	}
	if (h->flags & KS_WIRE_ECHO) {
		queue(p, KS_REPLY_OK, KS_WIRE_ECHO, "Echo", h->code);
		queue(p, KS_REPLY_OK, 0, "Final", 2);
		return;
	}
	p->request_bytes = h->wire_len;
	queue(p, KS_REPLY_OK, KS_WIRE_MORE, "Started", 1);
}

static void on_peer_io(void *arg, int fd, unsigned ev)
{
	(void)ev;
	struct peer *p = arg;
	/* slowly: a small gulp a turn, so that the client's writes of a big
	 * request are partial */
	ssize_t r = recv(fd, p->in + p->inlen,
			 sizeof(p->in) - p->inlen < 4096
				 ? sizeof(p->in) - p->inlen
				 : 4096,
			 0);
	if (r <= 0) {
		ks_loop_unwatch(p->loop, fd);
		close(fd);
		p->fd = -1;
		return;
	}
	p->inlen += (size_t)r;
	for (;;) {
		struct ks_wire_header h;
		if (p->inlen < KS_WIRE_HEADER ||
		    ks_wire_header_decode(p->in, &h, NULL) ||
		    p->inlen < KS_WIRE_HEADER + h.wire_len)
			break;
		peer_message(p, &h);
		size_t used = KS_WIRE_HEADER + h.wire_len;
		memmove(p->in, p->in + used, p->inlen - used);
		p->inlen -= used;
	}
}

static void on_accept(void *arg, int fd, unsigned ev)
{
	(void)ev;
	struct peer *p = arg;
	p->fd = accept(fd, NULL, NULL);
	assert_true(p->fd >= 0);
	ks_loop_watch(p->loop, p->fd, KS_EV_IN, on_peer_io, p);
}

static struct peer *peer_new(ks_loop *loop, enum peer_mode mode)
{
	struct peer *p = calloc(1, sizeof(*p));
	p->loop = loop;
	p->mode = mode;
	p->fd = -1;
	p->lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_int_equal(bind(p->lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	socklen_t len = sizeof(sa);
	getsockname(p->lfd, (struct sockaddr *)&sa, &len);
	p->port = ntohs(sa.sin_port);
	assert_int_equal(listen(p->lfd, 8), 0);
	if (mode != P_NOACCEPT)
		ks_loop_watch(loop, p->lfd, KS_EV_IN, on_accept, p);
	p->drip = ks_loop_timer(loop, 1, 1, on_drip, p);
	return p;
}

static void peer_free(struct peer *p)
{
	ks_loop_cancel(p->loop, p->drip);
	if (p->fd >= 0) {
		ks_loop_unwatch(p->loop, p->fd);
		close(p->fd);
	}
	ks_loop_unwatch(p->loop, p->lfd);
	close(p->lfd);
	free(p->out.data);
	free(p);
}

static void on_reply(void *arg, ks_call *c, const struct ks_call_reply *r)
{
	struct seen *s = arg;
	if (r->echo)
		s->echoes++;
	s->codes[s->replies % 8] = r->code;
	s->mores[s->replies % 8] = r->more;
	s->replies++;
	if (s->cancel_in_reply) {
		ks_call_cancel(c);
		ks_loop_stop(s->loop);
		return;
	}
	if (s->send_echo && s->replies == 1) {
		classad *ad = classad_new();
		classad_insert_string(ad, "ClaimId", "x");
		assert_int_equal(ks_call_send(c, KS_ALIVE, &ad, 1, NULL), 0);
		classad_free(ad);
	}
}

static void on_end(void *arg, ks_call *c, int rc, const struct ks_err *err)
{
	(void)c;
	struct seen *s = arg;
	s->ended++;
	s->rc = rc;
	snprintf(s->msg, sizeof(s->msg), "%s", err ? err->msg : "");
	ks_loop_stop(s->loop);
}

static const struct ks_call_ops ops = {on_reply, on_end};

static void give_up(void *arg)
{
	ks_loop_stop(arg);
}

static ks_config *test_config(void)
{
	ks_config *cfg = ks_config_new("TOOL", NULL);
	/* no token offered, no TLS: the played peer speaks neither */
	ks_config_set(cfg, "SEC_CLIENT_AUTHENTICATION_METHODS", "FS", NULL);
	ks_config_set(cfg, "SEC_DEFAULT_ENCRYPTION", "NEVER", NULL);
	return cfg;
}

struct fixture {
	ks_loop *loop;
	ks_calls *set;
	ks_config *cfg;
	struct seen seen;
	char addr[64];
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->loop = ks_loop_new();
	f->set = ks_calls_new(f->loop);
	f->cfg = test_config();
	f->seen.loop = f->loop;
	return f;
}

static void fixture_free(struct fixture *f)
{
	ks_calls_free(f->set);
	ks_loop_free(f->loop);
	ks_config_free(f->cfg);
	free(f);
}

static void run_for(struct fixture *f, int64_t ms)
{
	uint64_t t = ks_loop_timer(f->loop, ms, 0, give_up, f->loop);
	ks_loop_run(f->loop);
	ks_loop_cancel(f->loop, t);
}

static ks_call *call(struct fixture *f, int port, classad *req, int timeout)
{
	snprintf(f->addr, sizeof(f->addr), "<127.0.0.1:%d>", port);
	return ks_call_start(f->set, f->cfg, f->addr, KS_ACTIVATE_CLAIM, &req,
			     req ? 1 : 0, timeout, &ops, &f->seen);
}

/* A big request goes out in many partial writes while the peer reads
 * slowly; the answers come back a byte at a time; a message sent on the
 * call comes back marked as its echo; the call ends after the request's
 * last reply. */
static void test_partial(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_ANSWER);
	classad *req = classad_new();
	char *big = malloc(2u << 20);
	memset(big, 'x', (2u << 20) - 1);
	big[(2u << 20) - 1] = '\0';
	classad_insert_string(req, "Payload", big);
	free(big);
	f->seen.send_echo = true;
	call(f, p->port, req, 20000);
	classad_free(req);
	run_for(f, 30000);
	assert_int_equal(f->seen.ended, 1);
	assert_int_equal(f->seen.rc, 0);
	assert_int_equal(f->seen.replies, 3);
	assert_true(f->seen.mores[0]);  /* started: more to come */
	assert_int_equal(f->seen.echoes, 1);
	assert_false(f->seen.mores[2]); /* the end */
	assert_true(p->request_bytes > (2u << 20));
	assert_int_equal(p->got_codes[0], KS_HS_HELLO);
	assert_int_equal(p->got_codes[1], KS_ACTIVATE_CLAIM);
	assert_int_equal(p->got_codes[2], KS_ALIVE);
	assert_int_equal(ks_calls_count(f->set), 0);
	peer_free(p);
	fixture_free(f);
}

/* A peer that never answers: the call ends at its deadline. */
static void test_silent(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_SILENT);
	call(f, p->port, NULL, 300);
	run_for(f, 10000);
	assert_int_equal(f->seen.ended, 1);
	assert_int_equal(f->seen.rc, KS_ETIMEDOUT);
	assert_non_null(strstr(f->seen.msg, "did not answer"));
	assert_int_equal(f->seen.replies, 0);
	assert_int_equal(p->got_codes[0], KS_HS_HELLO);
	peer_free(p);
	fixture_free(f);
}

/* A peer that closes in the middle of a reply: the call ends, broken,
 * and the half message is never handed on. */
static void test_half(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_HALF);
	call(f, p->port, NULL, 10000);
	run_for(f, 10000);
	assert_true(p->closed);
	assert_int_equal(f->seen.ended, 1);
	assert_int_equal(f->seen.rc, KS_EIO);
	assert_non_null(strstr(f->seen.msg, "closed the connection"));
	assert_int_equal(f->seen.replies, 0);
	peer_free(p);
	fixture_free(f);
}

/* Nobody listens: refused, reported from the loop, not from the start. */
static void test_refused(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_ANSWER);
	int port = p->port;
	peer_free(p); /* the port is free again */
	call(f, port, NULL, 10000);
	assert_int_equal(f->seen.ended, 0);
	run_for(f, 10000);
	assert_int_equal(f->seen.ended, 1);
	assert_int_equal(f->seen.rc, KS_ECONNECT);
	fixture_free(f);
}

/* Cancelled while connecting (a peer that never accepts), or from its
 * own reply callback: no callback after the cancel, nothing left. */
static void test_cancel(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_NOACCEPT);
	ks_call *c = call(f, p->port, NULL, 200);
	run_for(f, 50);
	ks_call_cancel(c);
	assert_int_equal(ks_calls_count(f->set), 0);
	run_for(f, 400); /* past its deadline */
	assert_int_equal(f->seen.ended, 0);
	/* a call that could not start, cancelled before the loop ends it */
	c = ks_call_start(f->set, f->cfg, "<not an address", KS_ALIVE, NULL,
			  0, 0, &ops, &f->seen);
	ks_call_cancel(c);
	run_for(f, 50);
	assert_int_equal(f->seen.ended, 0);
	peer_free(p);

	p = peer_new(f->loop, P_ANSWER);
	f->seen.cancel_in_reply = true;
	call(f, p->port, NULL, 10000);
	run_for(f, 10000);
	assert_int_equal(f->seen.replies, 1);
	assert_int_equal(f->seen.ended, 0);
	assert_int_equal(ks_calls_count(f->set), 0);
	peer_free(p);
	fixture_free(f);
}

/* Freeing the set ends what is under way, without callbacks. */
static void test_free_set(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct peer *p = peer_new(f->loop, P_SILENT);
	call(f, p->port, NULL, 10000);
	call(f, p->port, NULL, 10000);
	run_for(f, 50);
	assert_int_equal(ks_calls_count(f->set), 2);
	peer_free(p);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial), cmocka_unit_test(test_silent),
		cmocka_unit_test(test_half),    cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cancel),  cmocka_unit_test(test_free_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
