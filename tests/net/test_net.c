/* test_net.c: unit tests of common/net: the message format, addresses,
 * authorization lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ks_addr.h"
#include "ks_auth.h"
#include "ks_wire.h"

static classad *ad_of(const char *text)
{
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    NULL);
	assert_non_null(ad);
	return ad;
}

static int decode(const struct classad_buf *b, struct ks_wire_header *h,
		  classad ***ads, size_t *n, struct ks_err *err)
{
	int rc = ks_wire_header_decode((const unsigned char *)b->data, h, err);
	if (rc)
		return rc;
	return ks_wire_decode(h, (const unsigned char *)b->data +
				      KS_WIRE_HEADER, NULL, ads, n, err);
}

static void free_ads(classad **ads, size_t n)
{
	for (size_t i = 0; i < n; i++)
		classad_free(ads[i]);
	free(ads);
}

static void test_round_trip(void **state)
{
	(void)state;
	classad *in[2] = {
		ad_of("[ Name = \"slot1@a\"; Cpus = 4; L = { 1, \"x\" }; "
		      "N = [ a = 1 ]; S = \"tab\\there\\nline\" ]"),
		ad_of("[ Requirements = TARGET.Memory > 10 && MY.x =?= undefined ]"),
	};
	struct classad_buf b = {0};
	assert_int_equal(ks_wire_encode(&b, 5, in, 2, KS_WIRE_MORE, false,
					NULL), 0);
	struct ks_wire_header h;
	classad **out;
	size_t n;
	assert_int_equal(decode(&b, &h, &out, &n, NULL), 0);
	assert_int_equal(h.code, 5);
	assert_true(h.flags & KS_WIRE_MORE);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < 2; i++) {
		char *a = classad_unparse(in[i], CLASSAD_FMT_NEW);
		char *c = classad_unparse(out[i], CLASSAD_FMT_NEW);
		assert_string_equal(a, c);
		free(a);
		free(c);
		classad_free(in[i]);
	}
	free_ads(out, n);
	free(b.data);
}

static void test_compressed(void **state)
{
	(void)state;
	/* enough alike ads to pass the compression threshold */
	enum { N = 2000 };
	classad **in = calloc(N, sizeof(*in));
	for (int i = 0; i < N; i++) {
		in[i] = classad_new();
		classad_insert_int(in[i], "Index", i);
		classad_insert_string(in[i], "Text",
				      "the same words again and again");
	}
	struct classad_buf b = {0};
	assert_int_equal(ks_wire_encode(&b, -1, in, N, 0, true, NULL), 0);
	struct ks_wire_header h;
	classad **out;
	size_t n;
	assert_int_equal(decode(&b, &h, &out, &n, NULL), 0);
	assert_true(h.flags & KS_WIRE_COMPRESSED);
	assert_true(h.wire_len < h.len / 4);
	assert_int_equal(h.code, -1);
	assert_int_equal(n, N);
	int64_t v;
	assert_true(classad_eval_int(out[N - 1], "Index", NULL, &v));
	assert_int_equal(v, N - 1);
	free_ads(out, n);
	free_ads(in, N);
	free(b.data);
}

static void test_text_message(void **state)
{
	(void)state;
	const char *text = "MyType = \"Machine\"\n# a comment\nCpus = 2\n\n";
	struct classad_buf b = {0};
	assert_int_equal(ks_wire_encode_text(&b, 0, text, strlen(text), 0,
					     NULL), 0);
	struct ks_wire_header h;
	classad **out;
	size_t n;
	assert_int_equal(decode(&b, &h, &out, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(classad_size(out[0]), 2);
	free_ads(out, n);
	free(b.data);
}

struct seen {
	size_t n, stop_after;
	char texts[4][128];
	bool new_syntax[4];
};

static int see_record(const struct ks_wire_record *rec, void *arg)
{
	struct seen *s = arg;
	assert_true(rec->index == s->n + 1);
	assert_true(rec->len < sizeof(s->texts[0]));
	memcpy(s->texts[s->n], rec->text, rec->len);
	s->texts[s->n][rec->len] = '\0';
	s->new_syntax[s->n] = rec->new_syntax;
	s->n++;
	return s->n == s->stop_after ? 1 : 0;
}

/* A message built piece by piece (ks_wire_begin/end) and read record by
 * record: each record is the ad's text, in old syntax unless only new
 * syntax carries it; a reader may stop early. */
static void test_records(void **state)
{
	(void)state;
	classad *a = ad_of("[ Name = \"x\"; Cpus = 2 ]");
	classad *nl = ad_of("[ S = \"two\\nlines\" ]");
	struct classad_buf b = {0};
	size_t at = ks_wire_begin(&b);
	ks_wire_encode_ad(&b, a);
	ks_wire_encode_ad(&b, nl);
	ks_wire_encode_ad(&b, a);
	assert_int_equal(ks_wire_end(&b, at, 7, KS_WIRE_MORE, NULL), 0);
	struct ks_wire_header h;
	assert_int_equal(ks_wire_header_decode((unsigned char *)b.data, &h,
					       NULL), 0);
	assert_int_equal(h.code, 7);
	assert_true(h.flags & KS_WIRE_MORE);
	assert_int_equal(h.len, b.len - KS_WIRE_HEADER);
	const unsigned char *payload = (unsigned char *)b.data + KS_WIRE_HEADER;

	struct seen s = {0};
	assert_int_equal(ks_wire_records(&h, payload, see_record, &s, NULL), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.texts[0], "Name = \"x\"\nCpus = 2\n");
	assert_false(s.new_syntax[0]);
	assert_true(s.new_syntax[1]);
	struct ks_wire_record rec = {s.texts[1], strlen(s.texts[1]), true, 2, 0};
	classad *back = ks_wire_record_parse(&rec, NULL, NULL);
	char *v = NULL;
	assert_true(classad_eval_string(back, "S", NULL, &v));
	assert_string_equal(v, "two\nlines");
	free(v);
	classad_free(back);

	struct seen stop = {.stop_after = 2};
	struct ks_err err;
	assert_int_equal(ks_wire_records(&h, payload, see_record, &stop, &err),
			 KS_ECANCELED);
	assert_int_equal(stop.n, 2);

	/* a record that does not parse names itself */
	struct ks_wire_record bad = {"Cpus = = 2\n", 11, false, 5, 40};
	assert_null(ks_wire_record_parse(&bad, NULL, &err));
	assert_int_equal(err.code, KS_EPARSE);
	assert_non_null(strstr(err.msg, "ad 5 "));
	classad_free(a);
	classad_free(nl);
	free(b.data);
}

/* Each corruption is refused with KS_EPROTO or KS_EPARSE, never read. */
static void test_bad_messages(void **state)
{
	(void)state;
	classad *ad = ad_of("[ a = 1 ]");
	struct classad_buf good = {0};
	ks_wire_encode(&good, 7, &ad, 1, 0, false, NULL);
	classad_free(ad);
	struct {
		size_t at;
		unsigned char byte;
		int want;
	} cases[] = {
		{0, 'X', KS_EPROTO},         /* magic */
		{2, 9, KS_EPROTO},           /* version */
		{3, 0x80, KS_EPROTO},        /* unknown flag */
		{8, 0x7f, KS_EPROTO},        /* wire length over the limit */
		{14, 0x7f, KS_EPROTO},       /* two lengths, not compressed */
		{19, 0xff, KS_EPROTO},       /* ad record longer than payload */
		{20, '=', KS_EPARSE},        /* ad text that does not parse */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct classad_buf b = {0};
		b.data = malloc(good.len + 1);
		memcpy(b.data, good.data, good.len);
		b.len = good.len;
		b.data[cases[i].at] = (char)cases[i].byte;
		struct ks_wire_header h;
		classad **out = NULL;
		size_t n = 0;
		struct ks_err err;
		assert_int_equal(decode(&b, &h, &out, &n, &err), cases[i].want);
		assert_null(out);
		assert_true(strlen(err.msg) > 0);
		free(b.data);
	}
	free(good.data);
}

static void test_addresses(void **state)
{
	(void)state;
	struct ks_addr a;
	char buf[400];
	assert_int_equal(ks_addr_parse("<127.0.0.1:9618?sock=collector_9618&alias=x>",
				       0, &a, NULL), 0);
	assert_string_equal(a.host, "127.0.0.1");
	assert_int_equal(a.port, 9618);
	assert_string_equal(a.sock, "collector_9618");
	ks_addr_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "<127.0.0.1:9618?sock=collector_9618>");
	assert_int_equal(ks_addr_parse("cm.example.org", 9618, &a, NULL), 0);
	assert_int_equal(a.port, 9618);
	assert_int_equal(ks_addr_parse("[::1]:40000", 0, &a, NULL), 0);
	assert_string_equal(a.host, "::1");
	ks_addr_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "<[::1]:40000>");
	const char *bad[] = {"<127.0.0.1>", "host:99999", "host:", ":80",
			     "<1.2.3.4:5", "a b:1", "<1.2.3.4:5?sock=../x>"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ks_err err;
		assert_int_equal(ks_addr_parse(bad[i], 9618, &a, &err),
				 KS_EINVAL);
		assert_non_null(strstr(err.msg, "not an address"));
	}
}

static void test_glob(void **state)
{
	(void)state;
	assert_true(ks_auth_glob("*", "anything"));
	assert_true(ks_auth_glob("alice@*", "Alice@example.org"));
	assert_true(ks_auth_glob("*.example.org", "a.b.example.org"));
	assert_false(ks_auth_glob("alice@*", "bob@example.org"));
	assert_true(ks_auth_glob("a*b*c", "aXXbYYc"));
	assert_false(ks_auth_glob("a*b*c", "aXXbYY"));
}

static void test_authz(void **state)
{
	(void)state;
	ks_config *cfg = ks_config_new("COLLECTOR", NULL);
	const char *text = "ALLOW_WRITE = alice@*/127.0.0.1, *.trusted\n"
			   "DENY_WRITE = alice@evil.org\n"
			   "ALLOW_READ_COLLECTOR = carol@*\n";
	assert_int_equal(ks_config_read_text(cfg, "t", text, strlen(text),
					     NULL), 0);
	ks_authz *a = ks_authz_new(cfg, "COLLECTOR", "pooluser");
	char why[300];
	/* WRITE by user and host, DENY first */
	assert_true(ks_authz_check(a, KS_LEVEL_WRITE, "alice@x", "127.0.0.1",
				   why, sizeof(why)));
	assert_false(ks_authz_check(a, KS_LEVEL_WRITE, "alice@x", "10.0.0.1",
				    why, sizeof(why)));
	assert_false(ks_authz_check(a, KS_LEVEL_WRITE, "alice@evil.org",
				    "127.0.0.1", why, sizeof(why)));
	assert_non_null(strstr(why, "DENY_WRITE"));
	/* WRITE implies READ; the subsystem's own READ list is read */
	assert_true(ks_authz_check(a, KS_LEVEL_READ, "alice@x", "127.0.0.1",
				   NULL, 0));
	assert_true(ks_authz_check(a, KS_LEVEL_READ, "carol@y", "10.1.1.1",
				   NULL, 0));
	assert_false(ks_authz_check(a, KS_LEVEL_READ, "dave@y", "10.1.1.1",
				    why, sizeof(why)));
	/* defaults: the pool's user and condor administer and advertise */
	assert_true(ks_authz_check(a, KS_LEVEL_DAEMON, "pooluser@h", "1.2.3.4",
				   NULL, 0));
	assert_true(ks_authz_check(a, KS_LEVEL_ADVERTISE_STARTD,
				   "condor@pool", "1.2.3.4", NULL, 0));
	assert_false(ks_authz_check(a, KS_LEVEL_ADVERTISE_STARTD,
				    KS_ANONYMOUS, "127.0.0.1", why,
				    sizeof(why)));
	assert_non_null(strstr(why, "ALLOW_DAEMON"));
	assert_false(ks_authz_check(a, KS_LEVEL_ADMINISTRATOR, "bob@h",
				    "127.0.0.1", NULL, 0));
	ks_authz_free(a);
	ks_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_text_message),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_bad_messages),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_authz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
