/* Unit tests of IDTOKENS (common/token). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_mem.h"
#include "ks_token.h"

/* Key file contents 00 01 .. 3f: the regression vectors below were made
 * from these bytes by tests/token/crosscheck.py, an independent Python
 * rendering of HTCondor's scheme. */
static unsigned char keydata[64];

static const char *vec_pool =
	"eyJhbGciOiJIUzI1NiIsImtpZCI6IlBPT0wifQ."
	"eyJleHAiOjE3MDAwMDM2MDAsImlhdCI6MTcwMDAwMDAwMCwiaXNzIjoiZXhhbXBsZS5uZXQ"
	"iLCJqdGkiOiIwMDExMjIzMzQ0NTU2Njc3ODg5OWFhYmJjY2RkZWVmZiIsInNjb3BlIjoiY2"
	"9uZG9yOlwvUkVBRCBjb25kb3I6XC9XUklURSIsInN1YiI6ImFsaWNlQGV4YW1wbGUubmV0"
	"In0.jS6RwYF5v2ngL6ZJaJREHtcBf2p1-BB87yw_VLgyEc4";
static const char *vec_signer =
	"eyJhbGciOiJIUzI1NiIsImtpZCI6InNpZ25lciJ9."
	"eyJpYXQiOjE3MDAwMDAwMDAsImlzcyI6ImV4YW1wbGUubmV0IiwianRpIjoiMDAxMTIyMzM"
	"0NDU1NjY3Nzg4OTlhYWJiY2NkZGVlZmYiLCJzdWIiOiJhbGljZUBleGFtcGxlLm5ldCJ9."
	"gv3Ie6tLG8ZUZK4pAprNR03TCVIacR-JjPSmej3CYMw";

#define NOW 1700000000
#define JTI "00112233445566778899aabbccddeeff"

static ks_token_key *key_of(const char *name)
{
	ks_token_key *k = NULL;
	struct ks_err err;
	if (ks_token_key_from_file_data(name, keydata, sizeof(keydata), &k, &err))
		fail_msg("key: %s", err.msg);
	return k;
}

static char *mint(const ks_token_key *k, const char *iss, const char *sub,
		  int64_t lifetime, const char *const *authz, size_t nauthz)
{
	struct ks_token_request req = {sub, authz, nauthz, lifetime, NOW, JTI};
	char *tok = NULL;
	struct ks_err err;
	if (ks_token_mint(k, iss, &req, &tok, &err))
		fail_msg("mint: %s", err.msg);
	/* (a copy: gcc -O3 otherwise takes what the caller finds in the
	 * token for a pointer to tok itself, and warns of it dangling) */
	char *copy = strdup(tok);
	ks_token_string_free(tok);
	return copy;
}

static struct ks_token *parse(const char *s)
{
	struct ks_token *t = NULL;
	struct ks_err err;
	if (ks_token_parse(s, strlen(s), &t, &err))
		fail_msg("parse '%s': %s", s, err.msg);
	return t;
}

static int parse_rc(const char *s)
{
	struct ks_token *t = NULL;
	int rc = ks_token_parse(s, strlen(s), &t, NULL);
	ks_token_free(t);
	return rc;
}

/* A token of header and payload JSON texts with a dummy signature. */
static char *forge(const char *hdr, const char *pay)
{
	char *h = ks_token_b64url_encode(hdr, strlen(hdr));
	char *p = ks_token_b64url_encode(pay, strlen(pay));
	size_t n = strlen(h) + strlen(p) + 16;
	char *s = ks_xmalloc(n);
	snprintf(s, n, "%s.%s.AAAA", h, p);
	free(h);
	free(p);
	return s;
}

static int forge_rc(const char *hdr, const char *pay)
{
	char *s = forge(hdr, pay);
	int rc = parse_rc(s);
	free(s);
	return rc;
}

/* ---- base64url ---- */

static void check_b64(const char *in, size_t n, const char *want)
{
	char *e = ks_token_b64url_encode(in, n);
	assert_string_equal(e, want);
	unsigned char *d;
	size_t dn;
	assert_int_equal(ks_token_b64url_decode(e, strlen(e), &d, &dn), 0);
	assert_int_equal(dn, n);
	assert_memory_equal(d, in, n);
	free(d);
	free(e);
}

static int b64_rc(const char *s)
{
	unsigned char *d = NULL;
	size_t n;
	int rc = ks_token_b64url_decode(s, strlen(s), &d, &n);
	free(d);
	return rc;
}

static void test_b64url(void **state)
{
	(void)state;
	/* RFC 4648's vectors, without padding. */
	check_b64("", 0, "");
	check_b64("f", 1, "Zg");
	check_b64("fo", 2, "Zm8");
	check_b64("foo", 3, "Zm9v");
	check_b64("foob", 4, "Zm9vYg");
	check_b64("fooba", 5, "Zm9vYmE");
	check_b64("foobar", 6, "Zm9vYmFy");
	/* The url-safe characters, where base64 has '+' and '/'. */
	check_b64("\xfb\xff\xbf", 3, "-_-_");
	check_b64("\0\0", 2, "AAA");

	for (size_t n = 0; n < 70; n++) {
		unsigned char b[70];
		for (size_t i = 0; i < n; i++)
			b[i] = (unsigned char)(i * 37 + n);
		char *e = ks_token_b64url_encode(b, n);
		unsigned char *d;
		size_t dn;
		assert_int_equal(ks_token_b64url_decode(e, strlen(e), &d, &dn), 0);
		assert_int_equal(dn, n);
		assert_memory_equal(d, b, n);
		free(d);
		free(e);
	}

	assert_int_equal(b64_rc("Zg=="), KS_EPARSE);  /* no padding */
	assert_int_equal(b64_rc("Zm9v+A"), KS_EPARSE); /* not url-safe */
	assert_int_equal(b64_rc("Zm9v/A"), KS_EPARSE);
	assert_int_equal(b64_rc("Zm9 v"), KS_EPARSE);
	assert_int_equal(b64_rc("Zm9vY"), KS_EPARSE);  /* 4n+1 characters */
	assert_int_equal(b64_rc("Zh"), KS_EPARSE);     /* spare bits set */
	assert_int_equal(b64_rc("Zm9"), KS_EPARSE);
	assert_int_equal(b64_rc("Zm8"), 0);
}

/* ---- keys and compatibility vectors ---- */

static void test_vectors(void **state)
{
	(void)state;
	ks_token_key *pool = key_of("POOL"), *signer = key_of("signer");
	const char *authz[] = {"READ", "WRITE"};
	char *t = mint(pool, "example.net", "alice@example.net", 3600, authz, 2);
	assert_string_equal(t, vec_pool);
	ks_token_string_free(t);
	t = mint(signer, "example.net", "alice@example.net", -1, NULL, 0);
	assert_string_equal(t, vec_signer);
	ks_token_string_free(t);
	/* The same bytes under another name: POOL's key is doubled first. */
	t = mint(pool, "example.net", "alice@example.net", -1, NULL, 0);
	assert_string_not_equal(strrchr(t, '.'), strrchr(vec_signer, '.'));
	ks_token_string_free(t);
	ks_token_key_free(pool);
	ks_token_key_free(signer);
}

/* HTCondor's manual shows a token of its condor_token_create; the same
 * claims give the same header and payload bytes here. */
static void test_manual_example(void **state)
{
	(void)state;
	const char *manual =
		"eyJhbGciOiJIUzI1NiIsImtpZCI6IlBPT0wifQ.eyJpYXQiOjE1ODg0NzQ3MTks"
		"ImlzcyI6ImhjYy1icmlhbnRlc3Q3LnVubC5lZHUiLCJqdGkiOiJjNzYwYzJhZjE5"
		"M2ExZmQ0ZTQwYmM5YzUzYzk2ZWU3YyIsInN1YiI6ImJib2NrZWxtQGhjYy1icmlh"
		"bnRlc3Q3LnVubC5lZHUifQ";
	ks_token_key *k = key_of("POOL");
	struct ks_token_request req = {"bbockelm@hcc-briantest7.unl.edu", NULL, 0,
				       -1, 1588474719,
				       "c760c2af193a1fd4e40bc9c53c96ee7c"};
	char *tok = NULL;
	assert_int_equal(ks_token_mint(k, "hcc-briantest7.unl.edu", &req, &tok, NULL), 0);
	assert_int_equal(strlen(manual), strrchr(tok, '.') - tok);
	assert_memory_equal(tok, manual, strlen(manual));
	/* What the handshake sends parses alone. */
	struct ks_token *t = parse(manual);
	assert_false(t->has_sig);
	assert_string_equal(t->kid, "POOL");
	assert_string_equal(t->sub, "bbockelm@hcc-briantest7.unl.edu");
	assert_int_equal(t->iat, 1588474719);
	assert_false(t->has_exp);
	assert_string_equal(t->signing_input, manual);
	ks_token_free(t);
	ks_token_string_free(tok);
	ks_token_key_free(k);
}

static void test_key_names(void **state)
{
	(void)state;
	assert_true(ks_token_key_name_valid("POOL"));
	assert_true(ks_token_key_name_valid("token_key-2.x"));
	assert_false(ks_token_key_name_valid(""));
	assert_false(ks_token_key_name_valid(NULL));
	assert_false(ks_token_key_name_valid("../POOL"));
	assert_false(ks_token_key_name_valid("a/b"));
	assert_false(ks_token_key_name_valid(".hidden"));
	assert_false(ks_token_key_name_valid("a b"));
	ks_token_key *k = NULL;
	assert_int_equal(ks_token_key_from_file_data("POOL", "", 0, &k, NULL), KS_EINVAL);
	assert_int_equal(ks_token_key_from_file_data("x/y", "a", 1, &k, NULL), KS_EINVAL);
}

/* ---- mint, parse, verify ---- */

static void test_round_trip(void **state)
{
	(void)state;
	ks_token_key *k = key_of("POOL");
	const char *authz[] = {"READ", "ADVERTISE_STARTD"};
	char *tok = mint(k, "pool.example", "bob/x@example.org", 600, authz, 2);
	struct ks_token *t = NULL;
	struct ks_err err;
	assert_int_equal(ks_token_verify_key(k, "pool.example", -1, tok, NOW + 5, &t, &err), 0);
	assert_string_equal(t->alg, "HS256");
	assert_null(t->typ);
	assert_string_equal(t->kid, "POOL");
	assert_string_equal(t->iss, "pool.example");
	assert_string_equal(t->sub, "bob/x@example.org");
	assert_string_equal(t->jti, JTI);
	assert_true(t->has_iat && t->has_exp);
	assert_int_equal(t->iat, NOW);
	assert_int_equal(t->exp, NOW + 600);
	assert_string_equal(t->scope, "condor:/READ condor:/ADVERTISE_STARTD");
	assert_int_equal(t->nscopes, 2);
	assert_int_equal(t->nauthz, 2);
	assert_string_equal(t->authz[0], "READ");
	assert_string_equal(t->authz[1], "ADVERTISE_STARTD");
	assert_true(t->has_sig);
	assert_int_equal(t->sig_len, KS_TOKEN_SIG_LEN);
	/* '/' is written escaped, as HTCondor's writer does. */
	assert_non_null(strstr(t->payload_json, "\"bob\\/x@example.org\""));
	assert_string_equal(t->header_json, "{\"alg\":\"HS256\",\"kid\":\"POOL\"}");

	/* The handshake's secret is the signature itself. */
	unsigned char sig[KS_TOKEN_SIG_LEN];
	assert_int_equal(ks_token_sign(k, t->signing_input, t->signing_input_len, sig), 0);
	assert_memory_equal(sig, t->sig, KS_TOKEN_SIG_LEN);
	ks_token_free(t);

	/* A random jti: 32 hex digits, different each time. */
	struct ks_token_request req = {"a@b", NULL, 0, -1, 0, NULL};
	char *t1 = NULL, *t2 = NULL;
	assert_int_equal(ks_token_mint(k, "d", &req, &t1, NULL), 0);
	assert_int_equal(ks_token_mint(k, "d", &req, &t2, NULL), 0);
	struct ks_token *p1 = parse(t1), *p2 = parse(t2);
	assert_int_equal(strlen(p1->jti), 32);
	assert_int_equal(strspn(p1->jti, "0123456789abcdef"), 32);
	assert_string_not_equal(p1->jti, p2->jti);
	assert_false(p1->has_exp);
	assert_null(p1->scope);
	ks_token_free(p1);
	ks_token_free(p2);
	ks_token_string_free(t1);
	ks_token_string_free(t2);
	ks_token_string_free(tok);
	ks_token_key_free(k);
}

static int verify_rc(const ks_token_key *k, const char *td, int64_t max_age,
		     const char *tok, int64_t now)
{
	struct ks_err err;
	ks_err_clear(&err);
	return ks_token_verify_key(k, td, max_age, tok, now, NULL, &err);
}

static void test_rejections(void **state)
{
	(void)state;
	ks_token_key *k = key_of("POOL");
	char *tok = mint(k, "td", "u@d", 100, NULL, 0);

	/* Expiry: exp itself is still valid, a second later not. */
	assert_int_equal(verify_rc(k, "td", -1, tok, NOW + 100), 0);
	assert_int_equal(verify_rc(k, "td", -1, tok, NOW + 101), KS_EAUTH);
	/* Issued in the future beyond the allowed skew. */
	assert_int_equal(verify_rc(k, "td", -1, tok, NOW - KS_TOKEN_CLOCK_SKEW), 0);
	assert_int_equal(verify_rc(k, "td", -1, tok, NOW - KS_TOKEN_CLOCK_SKEW - 1), KS_EAUTH);
	/* SEC_TOKEN_MAX_AGE. */
	assert_int_equal(verify_rc(k, "td", 50, tok, NOW + 50), 0);
	assert_int_equal(verify_rc(k, "td", 50, tok, NOW + 51), KS_EAUTH);
	assert_int_equal(verify_rc(k, "td", 0, tok, NOW + 99), 0);
	/* Wrong issuer. */
	assert_int_equal(verify_rc(k, "other", -1, tok, NOW), KS_EAUTH);
	assert_int_equal(verify_rc(k, NULL, -1, tok, NOW), KS_EAUTH);

	/* Wrong key: same name, other bytes. */
	unsigned char other[64];
	memcpy(other, keydata, sizeof(other));
	other[7] ^= 1;
	ks_token_key *k2 = NULL;
	assert_int_equal(ks_token_key_from_file_data("POOL", other, sizeof(other), &k2, NULL), 0);
	assert_int_equal(verify_rc(k2, "td", -1, tok, NOW), KS_EAUTH);
	ks_token_key_free(k2);
	/* A key of another name. */
	ks_token_key *k3 = key_of("signer");
	assert_int_equal(verify_rc(k3, "td", -1, tok, NOW), KS_EAUTH);
	ks_token_key_free(k3);

	/* Tampered payload, signature kept. */
	struct ks_token *t = parse(tok);
	const char *evil = "{\"exp\":1700000100,\"iat\":1700000000,\"iss\":\"td\","
			   "\"jti\":\"" JTI "\",\"sub\":\"root@d\"}";
	char *p = ks_token_b64url_encode(evil, strlen(evil));
	char *sig = strrchr(tok, '.');
	size_t hl = (size_t)(strchr(tok, '.') - tok);
	char forged[1024];
	snprintf(forged, sizeof(forged), "%.*s.%s%s", (int)hl, tok, p, sig);
	assert_int_equal(parse_rc(forged), 0);
	assert_int_equal(verify_rc(k, "td", -1, forged, NOW), KS_EAUTH);
	free(p);
	ks_token_free(t);

	/* Tampered, truncated or missing signature. */
	char *bad = ks_xstrdup(tok);
	char *last = bad + strlen(bad) - 2;
	*last = *last == 'A' ? 'B' : 'A';
	assert_int_equal(verify_rc(k, "td", -1, bad, NOW), KS_EAUTH);
	bad[strlen(bad) - 3] = '\0'; /* 30 bytes, validly encoded */
	assert_int_equal(verify_rc(k, "td", -1, bad, NOW), KS_EAUTH);
	*strrchr(bad, '.') = '\0';
	assert_int_equal(verify_rc(k, "td", -1, bad, NOW), KS_EAUTH);
	strcat(bad, ".");
	assert_int_equal(verify_rc(k, "td", -1, bad, NOW), KS_EAUTH);
	free(bad);
	ks_token_string_free(tok);

	/* Claims the server refuses whatever the signature. */
	struct ks_token *c;
	char *f;
	struct { const char *hdr, *pay; } refused[] = {
		{"{\"alg\":\"none\",\"kid\":\"POOL\"}",
		 "{\"iat\":1,\"iss\":\"td\",\"jti\":\"j\",\"sub\":\"u@d\"}"},
		{"{\"alg\":\"HS256\"}",
		 "{\"iat\":1,\"iss\":\"td\",\"jti\":\"j\",\"sub\":\"u@d\"}"},
		{"{\"alg\":\"HS256\",\"kid\":\"POOL\"}",
		 "{\"iat\":1,\"iss\":\"td\",\"sub\":\"u@d\"}"},
		{"{\"alg\":\"HS256\",\"kid\":\"POOL\"}",
		 "{\"iat\":1,\"iss\":\"td\",\"jti\":\"j\"}"},
		{"{\"alg\":\"HS256\",\"kid\":\"POOL\"}",
		 "{\"iat\":1,\"jti\":\"j\",\"sub\":\"u@d\"}"},
		{"{\"alg\":\"HS256\",\"kid\":\"POOL\"}",
		 "{\"cap\":true,\"iat\":1,\"iss\":\"td\",\"jti\":\"j\",\"sub\":\"u@d\"}"},
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		f = forge(refused[i].hdr, refused[i].pay);
		c = parse(f);
		assert_int_equal(ks_token_check_claims(c, "td", 10, -1, NULL), KS_EAUTH);
		ks_token_free(c);
		free(f);
	}
	ks_token_key_free(k);
}

static void test_mint_refusals(void **state)
{
	(void)state;
	ks_token_key *k = key_of("POOL");
	char *tok = NULL;
	const char *bad_ids[] = {"", "noat", "@d", "u@", "a b@d", "u@d\n"};
	for (size_t i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		struct ks_token_request req = {bad_ids[i], NULL, 0, -1, NOW, NULL};
		assert_int_equal(ks_token_mint(k, "td", &req, &tok, NULL), KS_EINVAL);
	}
	struct ks_token_request req = {"u@d", NULL, 0, -1, NOW, NULL};
	assert_int_equal(ks_token_mint(k, "a,b", &req, &tok, NULL), KS_EINVAL);
	assert_int_equal(ks_token_mint(k, "a b", &req, &tok, NULL), KS_EINVAL);
	assert_int_equal(ks_token_mint(k, "", &req, &tok, NULL), KS_EINVAL);
	const char *authz[] = {"READ", "WRI TE"};
	req.authz = authz;
	req.nauthz = 2;
	assert_int_equal(ks_token_mint(k, "td", &req, &tok, NULL), KS_EINVAL);
	ks_token_key_free(k);
}

/* ---- the parser on bad and odd input ---- */

static void test_parse_errors(void **state)
{
	(void)state;
	const char *H = "{\"alg\":\"HS256\",\"kid\":\"POOL\"}";
	assert_int_equal(parse_rc(""), KS_EPARSE);
	assert_int_equal(parse_rc("abc"), KS_EPARSE);
	assert_int_equal(parse_rc("a.b.c.d"), KS_EPARSE);
	assert_int_equal(parse_rc(".."), KS_EPARSE);
	assert_int_equal(parse_rc("e30.e30.!!"), KS_EPARSE);
	assert_int_equal(parse_rc("e30.e30"), 0);         /* {}.{} */
	assert_int_equal(parse_rc("e30.e30."), 0);        /* empty signature */
	assert_int_equal(parse_rc("e30=.e30"), KS_EPARSE);

	assert_int_equal(forge_rc("[]", "{}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "\"x\""), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{} x"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":1,}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\" 1}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{'a':1}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":01}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":tru}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":\"\x01\"}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":\"\\x\"}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":\"\\ud800\"}"), KS_EPARSE);
	assert_int_equal(forge_rc("{}", "{\"a\":\"\\udc00\"}"), KS_EPARSE);
	/* Types and repeats of the claims read. */
	assert_int_equal(forge_rc(H, "{\"iat\":\"1\"}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"iat\":1.5}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"exp\":1e3}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"exp\":99999999999999999999}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"sub\":1}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"cap\":1}"), KS_EPARSE);
	assert_int_equal(forge_rc(H, "{\"sub\":\"a@b\",\"sub\":\"root@b\"}"), KS_EPARSE);
	assert_int_equal(forge_rc("{\"kid\":\"A\",\"kid\":\"B\"}", "{}"), KS_EPARSE);
	/* A NUL would make the C string differ from the signed text. */
	assert_int_equal(forge_rc(H, "{\"sub\":\"root\\u0000@x\"}"), KS_EPARSE);
	/* Nesting is bounded. */
	char deep[300];
	strcpy(deep, "{\"x\":");
	for (int i = 0; i < 100; i++)
		strcat(deep, "[");
	for (int i = 0; i < 100; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	assert_int_equal(forge_rc(H, deep), KS_EPARSE);

	char *big = ks_xmalloc(KS_TOKEN_MAX_LEN + 2);
	memset(big, 'A', KS_TOKEN_MAX_LEN + 1);
	big[10] = '.';
	big[KS_TOKEN_MAX_LEN + 1] = '\0';
	assert_int_equal(parse_rc(big), KS_ERANGE);
	free(big);
}

static void test_parse_accepts(void **state)
{
	(void)state;
	char *f = forge(" { \"typ\" : \"JWT\" , \"alg\":\"HS256\", \"kid\":\"K\",\"x\":{\"y\":[1,2.5e-3,null,true,{}]}}",
			"{\"sub\":\"\\u00e9\\ud83d\\ude00\\/\\\"@x\",\"aud\":[\"a\"],"
			"\"scope\":\" condor:/READ  other\\tcondor:/DAEMON condor:/\",\"iat\":-5,"
			"\"cap\":false}");
	struct ks_token *t = parse(f);
	assert_string_equal(t->typ, "JWT");
	assert_string_equal(t->kid, "K");
	assert_string_equal(t->sub, "\xc3\xa9\xf0\x9f\x98\x80/\"@x");
	assert_int_equal(t->iat, -5);
	assert_false(t->cap);
	assert_int_equal(t->nscopes, 4);
	assert_string_equal(t->scopes[1], "other");
	assert_int_equal(t->nauthz, 2);
	assert_string_equal(t->authz[0], "READ");
	assert_string_equal(t->authz[1], "DAEMON");
	assert_true(t->has_sig);
	assert_int_equal(t->sig_len, 3);
	ks_token_free(t);
	free(f);
}

/* ---- configuration, files and discovery ---- */

struct env {
	char dir[256];
	ks_config *cfg;
};

static void write_text(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void write_key(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(keydata, 1, sizeof(keydata), f), sizeof(keydata));
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static char *path_in(const struct env *e, const char *rel)
{
	size_t n = strlen(e->dir) + strlen(rel) + 2;
	char *p = ks_xmalloc(n);
	snprintf(p, n, "%s/%s", e->dir, rel);
	return p;
}

static int setup_env(void **state)
{
	struct env *e = ks_xcalloc(1, sizeof(*e));
	const char *tmp = getenv("TMPDIR");
	snprintf(e->dir, sizeof(e->dir), "%s/ks_token_XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(e->dir))
		return -1;
	e->cfg = ks_config_new("TOOL", NULL);
	char *pw = path_in(e, "etc/passwords.d");
	char *sys = path_in(e, "etc/tokens.d");
	char *user = path_in(e, "tokens");
	ks_config_set(e->cfg, "SEC_PASSWORD_DIRECTORY", pw, NULL);
	ks_config_set(e->cfg, "SEC_TOKEN_SYSTEM_DIRECTORY", sys, NULL);
	ks_config_set(e->cfg, "SEC_TOKEN_DIRECTORY", user, NULL);
	ks_config_set(e->cfg, "TRUST_DOMAIN", "pool.example", NULL);
	free(pw);
	free(sys);
	free(user);
	*state = e;
	return 0;
}

static int teardown_env(void **state)
{
	struct env *e = *state;
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
	int rc = system(cmd);
	ks_config_free(e->cfg);
	free(e);
	return rc == 0 ? 0 : -1;
}

static void test_pool_key_file(void **state)
{
	struct env *e = *state;
	char *path = NULL;
	assert_int_equal(ks_token_key_path(e->cfg, "POOL", &path, NULL), 0);
	char *want = path_in(e, "etc/passwords.d/POOL");
	assert_string_equal(path, want);
	free(want);

	ks_token_key *k = NULL;
	struct ks_err err;
	assert_int_equal(ks_token_key_load(e->cfg, "POOL", &k, &err), KS_ENOTFOUND);

	bool created = false;
	assert_int_equal(ks_token_pool_key_ensure(e->cfg, &created, &err), 0);
	assert_true(created);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, 64);
	char *dir = path_in(e, "etc/passwords.d");
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(dir);

	/* A second start leaves the key alone. */
	FILE *f = fopen(path, "rb");
	unsigned char before[64], after[64];
	assert_int_equal(fread(before, 1, 64, f), 64);
	fclose(f);
	assert_int_equal(ks_token_pool_key_ensure(e->cfg, &created, &err), 0);
	assert_false(created);
	f = fopen(path, "rb");
	assert_int_equal(fread(after, 1, 64, f), 64);
	fclose(f);
	assert_memory_equal(before, after, 64);

	/* Mint with it, check with it, as two processes would. */
	struct ks_token_request req = {"alice@pool.example", NULL, 0, 60, 0, NULL};
	char *tok = NULL;
	assert_int_equal(ks_token_create(e->cfg, NULL, &req, &tok, &err), 0);
	struct ks_token *t = NULL;
	assert_int_equal(ks_token_verify(e->cfg, tok, 0, &t, &err), 0);
	assert_string_equal(t->iss, "pool.example");
	unsigned char secret[KS_TOKEN_SIG_LEN];
	assert_int_equal(ks_token_server_secret(e->cfg, t, 0, secret, &err), 0);
	assert_memory_equal(secret, t->sig, KS_TOKEN_SIG_LEN);
	/* The server's secret needs only "header.payload". */
	struct ks_token *half = parse(t->signing_input);
	unsigned char secret2[KS_TOKEN_SIG_LEN];
	assert_int_equal(ks_token_server_secret(e->cfg, half, 0, secret2, &err), 0);
	assert_memory_equal(secret, secret2, KS_TOKEN_SIG_LEN);
	ks_token_free(half);

	/* SEC_TOKEN_MAX_AGE from the configuration. */
	ks_config_set(e->cfg, "SEC_TOKEN_MAX_AGE", "10", NULL);
	assert_int_equal(ks_token_server_secret(e->cfg, t, t->iat + 10, secret, &err), 0);
	assert_int_equal(ks_token_server_secret(e->cfg, t, t->iat + 11, secret, &err), KS_EAUTH);
	ks_config_set(e->cfg, "SEC_TOKEN_MAX_AGE", "", NULL);
	/* Another trust domain refuses it. */
	ks_config_set(e->cfg, "TRUST_DOMAIN", "elsewhere", NULL);
	assert_int_equal(ks_token_verify(e->cfg, tok, 0, NULL, &err), KS_EAUTH);
	ks_config_set(e->cfg, "TRUST_DOMAIN", "pool.example", NULL);
	ks_token_free(t);

	/* A key the group may read is refused, as HTCondor does. */
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(ks_token_key_load(e->cfg, "POOL", &k, &err), KS_EPERM);
	assert_int_equal(ks_token_verify(e->cfg, tok, 0, NULL, &err), KS_EAUTH);
	assert_int_equal(chmod(path, 0600), 0);
	/* An empty key file is refused. */
	write_text(path, "", 0600);
	assert_int_equal(ks_token_key_load(e->cfg, "POOL", &k, &err), KS_EINVAL);
	/* A file of known bytes gives the vector's signature. */
	write_key(path, 0600);
	assert_int_equal(ks_token_verify(e->cfg, vec_pool, NOW, NULL, &err), KS_EAUTH);
	ks_config_set(e->cfg, "TRUST_DOMAIN", "example.net", NULL);
	assert_int_equal(ks_token_verify(e->cfg, vec_pool, NOW, NULL, &err), 0);
	assert_int_equal(ks_token_verify(e->cfg, vec_pool, NOW + 3601, NULL, &err), KS_EAUTH);
	/* Named keys come from SEC_PASSWORD_DIRECTORY. */
	assert_int_equal(ks_token_verify(e->cfg, vec_signer, NOW, NULL, &err), KS_EAUTH);
	char *sp = path_in(e, "etc/passwords.d/signer");
	write_key(sp, 0600);
	assert_int_equal(ks_token_verify(e->cfg, vec_signer, NOW, NULL, &err), 0);
	free(sp);
	ks_config_set(e->cfg, "TRUST_DOMAIN", "pool.example", NULL);

	ks_token_string_free(tok);
	free(path);
}

static void test_daemon_token(void **state)
{
	struct env *e = *state;
	struct ks_err err;
	assert_int_equal(ks_token_pool_key_ensure(e->cfg, NULL, &err), 0);
	char *tok = NULL;
	assert_int_equal(ks_token_mint_daemon(e->cfg, NULL, 60, &tok, &err), 0);
	struct ks_token *t = NULL;
	assert_int_equal(ks_token_verify(e->cfg, tok, 0, &t, &err), 0);
	assert_string_equal(t->sub, "condor@pool.example");
	assert_int_equal(t->exp - t->iat, 60);
	ks_token_free(t);
	ks_token_string_free(tok);
	/* Without the named key, no token. */
	assert_int_equal(ks_token_mint_daemon(e->cfg, "NOPE", 60, &tok, &err), KS_ENOTFOUND);
}

/* A token line for discovery, signed with the vectors' bytes as key. */
static char *line_of(const char *iss, const char *sub, int64_t now, int64_t lifetime)
{
	ks_token_key *k = key_of("POOL");
	struct ks_token_request req = {sub, NULL, 0, lifetime, now, NULL};
	char *tok = NULL;
	assert_int_equal(ks_token_mint(k, iss, &req, &tok, NULL), 0);
	ks_token_key_free(k);
	return tok;
}

static void add_token_file(const struct env *e, const char *name, const char *pre,
			   const char *tok, mode_t mode)
{
	char *p = path_in(e, name);
	size_t n = strlen(pre) + (tok ? strlen(tok) : 0) + 2;
	char *text = ks_xmalloc(n);
	snprintf(text, n, "%s%s\n", pre, tok ? tok : "");
	write_text(p, text, mode);
	free(text);
	free(p);
}

static char *find_sub(const ks_config *cfg, const struct ks_token_find_opts *o, int *rc)
{
	char *tok = NULL;
	struct ks_token *t = NULL;
	*rc = ks_token_find(cfg, o, &tok, &t, NULL);
	if (*rc)
		return NULL;
	char *sub = ks_xstrdup(t->sub);
	assert_int_equal(strncmp(tok, t->signing_input, t->signing_input_len), 0);
	assert_int_equal(tok[t->signing_input_len], '.');
	ks_token_free(t);
	ks_token_string_free(tok);
	return sub;
}

static void test_discovery(void **state)
{
	struct env *e = *state;
	int rc;
	struct ks_token_find_opts o = {.now = NOW};
	/* No directory yet. */
	assert_null(find_sub(e->cfg, &o, &rc));
	assert_int_equal(rc, KS_ENOTFOUND);

	char *d = path_in(e, "tokens");
	assert_int_equal(mkdir(d, 0700), 0);
	char *sub_dir = path_in(e, "tokens/b_subdir");
	assert_int_equal(mkdir(sub_dir, 0700), 0);
	free(sub_dir);

	char *good = line_of("pool.example", "good@x", NOW, -1);
	char *expired = line_of("pool.example", "expired@x", NOW - 100, 10);
	char *foreign = line_of("other.example", "foreign@x", NOW, -1);
	char *hidden = line_of("pool.example", "hidden@x", NOW, -1);
	char *loose = line_of("pool.example", "loose@x", NOW, -1);
	char *autogen = line_of("pool.example", "auto@x", NOW, -1);
	/* Half a token: no signature to present. */
	char *halfp = ks_xstrdup(good);
	*strrchr(halfp, '.') = '\0';

	add_token_file(e, "tokens/a_garbage", "# comment\n\nnot a token\n\t \n", NULL, 0600);
	add_token_file(e, "tokens/a_half", "", halfp, 0600);
	add_token_file(e, "tokens/b_expired", "", expired, 0600);
	add_token_file(e, "tokens/c_foreign", "", foreign, 0600);
	add_token_file(e, "tokens/.hidden", "", hidden, 0600);
	add_token_file(e, "tokens/a_backup~", "", hidden, 0600);
	add_token_file(e, "tokens/a_loose", "", loose, 0644);
	add_token_file(e, "tokens/d_good", "# first the comment\n   ", good, 0600);
	add_token_file(e, "tokens/e_unreadable", "", good, 0000);

	/* Any issuer: the first usable, lexically. */
	char *s = find_sub(e->cfg, &o, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "foreign@x");
	free(s);
	/* The server's trust domain filters. */
	o.issuer = "pool.example";
	s = find_sub(e->cfg, &o, &rc);
	assert_string_equal(s, "good@x");
	free(s);
	o.issuer = "nobody.example";
	assert_null(find_sub(e->cfg, &o, &rc));
	assert_int_equal(rc, KS_ENOTFOUND);
	/* So do the server's keys. */
	const char *keys[] = {"AP", "POOL"};
	o.issuer = "pool.example";
	o.key_ids = keys;
	o.nkey_ids = 2;
	s = find_sub(e->cfg, &o, &rc);
	assert_string_equal(s, "good@x");
	free(s);
	o.nkey_ids = 1;
	assert_null(find_sub(e->cfg, &o, &rc));
	o.key_ids = NULL;
	o.nkey_ids = 0;
	/* The expired token is found only before it expired. */
	o.issuer = NULL;
	o.now = NOW - 95;
	add_token_file(e, "tokens/c_foreign", "", good, 0600);
	s = find_sub(e->cfg, &o, &rc);
	assert_string_equal(s, "expired@x");
	free(s);
	o.now = NOW;
	/* A daemon's auto-generated token comes first. */
	add_token_file(e, "tokens/SCHEDD_auto_generated_token", "", autogen, 0600);
	o.subsys = "schedd";
	s = find_sub(e->cfg, &o, &rc);
	assert_string_equal(s, "auto@x");
	free(s);

	/* The file list: sorted, no directories, no excluded names. */
	char **files = NULL;
	size_t n = 0;
	assert_int_equal(ks_token_dir_files(e->cfg, d, &files, &n, NULL), 0);
	const char *want[] = {"SCHEDD_auto_generated_token", "a_garbage", "a_half",
			      "a_loose", "b_expired", "c_foreign", "d_good",
			      "e_unreadable"};
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(strrchr(files[i], '/') + 1, want[i]);
	ks_token_strv_free(files, n);
	/* Lines: trimmed, no comments or blanks; the secure read refuses a
	 * loose file that the plain one reads. */
	char **lines = NULL;
	char *gp = path_in(e, "tokens/a_garbage");
	assert_int_equal(ks_token_file_lines(gp, true, &lines, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_string_equal(lines[0], "not a token");
	ks_token_strv_free(lines, n);
	free(gp);
	char *lp = path_in(e, "tokens/a_loose");
	assert_int_equal(ks_token_file_lines(lp, true, &lines, &n, NULL), KS_EPERM);
	assert_int_equal(ks_token_file_lines(lp, false, &lines, &n, NULL), 0);
	ks_token_strv_free(lines, n);
	free(lp);

	ks_token_string_free(good);
	ks_token_string_free(expired);
	ks_token_string_free(foreign);
	ks_token_string_free(hidden);
	ks_token_string_free(loose);
	ks_token_string_free(autogen);
	free(halfp);
	free(d);
}

static void test_token_dir(void **state)
{
	struct env *e = *state;
	ks_config *cfg = ks_config_new("TOOL", NULL);
	char *sys = path_in(e, "etc/tokens.d");
	char *home = path_in(e, "home");
	ks_config_set(cfg, "SEC_TOKEN_SYSTEM_DIRECTORY", sys, NULL);
	ks_config_set(cfg, "TRUST_DOMAIN", "pool.example", NULL);
	char *old = getenv("HOME") ? ks_xstrdup(getenv("HOME")) : NULL;
	setenv("HOME", home, 1);

	char *dir = NULL;
	assert_int_equal(ks_token_dir(cfg, &dir, NULL), 0);
	char *user = path_in(e, "home/.condor/tokens.d");
	/* Root uses the system's directory, everyone else their own. */
	assert_string_equal(dir, geteuid() == 0 ? sys : user);

	/* Saving makes the directory and a private file. */
	char *path = NULL;
	assert_int_equal(ks_token_save(cfg, "mine", "a.b.c", &path, NULL), 0);
	char *want = path_in(e, geteuid() == 0 ? "etc/tokens.d/mine" : "home/.condor/tokens.d/mine");
	assert_string_equal(path, want);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, 6);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* Rewriting a loose file makes it private again. */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(ks_token_write_file(path, "x.y.z", NULL), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, 6);
	/* No way out of the directory, and no following a planted link. */
	assert_int_equal(ks_token_save(cfg, "../x", "a.b.c", NULL, NULL), KS_EINVAL);
	assert_int_equal(ks_token_save(cfg, "..", "a.b.c", NULL, NULL), KS_EINVAL);
	char *link_path = path_in(e, "link");
	char *target = path_in(e, "target");
	assert_int_equal(symlink(target, link_path), 0);
	assert_int_equal(ks_token_write_file(link_path, "a.b.c", NULL), KS_EIO);
	assert_int_equal(access(target, F_OK), -1);

	/* SEC_TOKEN_DIRECTORY wins. */
	ks_config_set(cfg, "SEC_TOKEN_DIRECTORY", "/some/where", NULL);
	free(dir);
	assert_int_equal(ks_token_dir(cfg, &dir, NULL), 0);
	assert_string_equal(dir, "/some/where");

	if (old) {
		setenv("HOME", old, 1);
		free(old);
	} else {
		unsetenv("HOME");
	}
	free(link_path);
	free(target);
	free(want);
	free(path);
	free(dir);
	free(user);
	free(sys);
	free(home);
	ks_config_free(cfg);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(keydata); i++)
		keydata[i] = (unsigned char)i;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b64url),
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_manual_example),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_mint_refusals),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_accepts),
		cmocka_unit_test_setup_teardown(test_pool_key_file, setup_env, teardown_env),
		cmocka_unit_test_setup_teardown(test_daemon_token, setup_env, teardown_env),
		cmocka_unit_test_setup_teardown(test_discovery, setup_env, teardown_env),
		cmocka_unit_test_setup_teardown(test_token_dir, setup_env, teardown_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
