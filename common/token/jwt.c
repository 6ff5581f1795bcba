/*
 * jwt.c: minting, parsing and checking HS256 JSON Web Tokens the way
 * HTCondor's IDTOKENS are made and checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "classad.h"
#include "ks_mem.h"
#include "ks_token.h"
#include "token_int.h"

/* ---- building the token's text ---- */

/* The most characters base64url gives for n bytes. */
static size_t b64_max(size_t n)
{
	return (n + 2) / 3 * 4;
}

/* A JSON string escaped as HTCondor's JSON writer (picojson) does, so the
 * same claims give the same bytes: '/' is escaped, control characters and
 * DEL become \u00xx, other bytes pass unchanged. */
static void put_json_string(struct classad_buf *b, const char *s)
{
	classad_buf_puts(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		switch (c) {
		case '"': classad_buf_puts(b, "\\\""); break;
		case '\\': classad_buf_puts(b, "\\\\"); break;
		case '/': classad_buf_puts(b, "\\/"); break;
		case '\b': classad_buf_puts(b, "\\b"); break;
		case '\f': classad_buf_puts(b, "\\f"); break;
		case '\n': classad_buf_puts(b, "\\n"); break;
		case '\r': classad_buf_puts(b, "\\r"); break;
		case '\t': classad_buf_puts(b, "\\t"); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				classad_buf_puts(b, esc);
			} else {
				classad_buf_putc(b, (char)c);
			}
		}
	}
	classad_buf_puts(b, "\"");
}

static void put_b64(struct classad_buf *b, const void *data, size_t n)
{
	char *e = ks_token_b64url_encode(data, n);
	classad_buf_puts(b, e);
	free(e);
}

/* ---- minting ---- */

bool ks_token_identity_valid(const char *id)
{
	if (!id)
		return false;
	const char *at = strchr(id, '@');
	if (!at || at == id || at[1] == '\0')
		return false;
	for (const char *p = id; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c <= 0x20 || c >= 0x7f)
			return false;
	}
	return true;
}

static bool authz_valid(const char *a)
{
	if (!a || !*a)
		return false;
	for (; *a; a++) {
		unsigned char c = (unsigned char)*a;
		if (c <= 0x20 || c >= 0x7f)
			return false;
	}
	return true;
}

void ks_token_string_free(char *token)
{
	if (token)
		kt_wipe_free(token, strlen(token));
}

int ks_token_mint(const ks_token_key *key, const char *issuer,
		  const struct ks_token_request *req, char **token_out,
		  struct ks_err *err)
{
	if (!ks_token_identity_valid(req->identity))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "invalid identity '%s': expected user@domain",
				  req->identity ? req->identity : "");
	/* HTCondor refuses these: a trust domain is one word, and lists of
	 * them are written with spaces and commas. */
	if (!issuer || !*issuer || strpbrk(issuer, ", \t"))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "TRUST_DOMAIN '%s' is empty or has a space, "
				  "tab or comma",
				  issuer ? issuer : "");
	for (size_t i = 0; i < req->nauthz; i++)
		if (!authz_valid(req->authz[i]))
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "invalid authorization level '%s'",
					  req->authz[i] ? req->authz[i] : "");

	char jti[33];
	if (req->jti) {
		if (!*req->jti)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0, "empty jti");
	} else {
		unsigned char r[16];
		if (RAND_bytes(r, sizeof(r)) != 1)
			return ks_err_set(err, KS_EINTERNAL, 0, 0, 0,
					  "no random bytes for jti");
		for (size_t i = 0; i < sizeof(r); i++)
			snprintf(jti + 2 * i, 3, "%02x", r[i]);
	}
	int64_t now = req->now ? req->now : (int64_t)time(NULL);
	char num[32];

	struct classad_buf hdr = {0}, pay = {0}, tok = {0};
	classad_buf_puts(&hdr, "{\"alg\":\"HS256\",\"kid\":");
	put_json_string(&hdr, ks_token_key_name(key));
	classad_buf_puts(&hdr, "}");

	/* Keys in byte order, as HTCondor's writer (a sorted map) puts them. */
	classad_buf_puts(&pay, "{");
	if (req->lifetime >= 0) {
		snprintf(num, sizeof(num), "\"exp\":%lld,",
			 (long long)(now + req->lifetime));
		classad_buf_puts(&pay, num);
	}
	snprintf(num, sizeof(num), "\"iat\":%lld,", (long long)now);
	classad_buf_puts(&pay, num);
	classad_buf_puts(&pay, "\"iss\":");
	put_json_string(&pay, issuer);
	classad_buf_puts(&pay, ",\"jti\":");
	put_json_string(&pay, req->jti ? req->jti : jti);
	if (req->nauthz > 0) {
		struct classad_buf sc = {0};
		for (size_t i = 0; i < req->nauthz; i++) {
			classad_buf_puts(&sc, i ? " condor:/" : "condor:/");
			classad_buf_puts(&sc, req->authz[i]);
		}
		classad_buf_puts(&pay, ",\"scope\":");
		put_json_string(&pay, sc.data);
		free(sc.data);
	}
	classad_buf_puts(&pay, ",\"sub\":");
	put_json_string(&pay, req->identity);
	classad_buf_puts(&pay, "}");

	/* the token is a credential: room for all of it at once, so that
	 * no copy of it is left behind unwiped by a realloc() */
	classad_buf_reserve(&tok, b64_max(hdr.len) + 1 + b64_max(pay.len) + 1 +
					  b64_max(KS_TOKEN_SIG_LEN));
	put_b64(&tok, hdr.data, hdr.len);
	classad_buf_puts(&tok, ".");
	put_b64(&tok, pay.data, pay.len);
	free(hdr.data);
	free(pay.data);

	unsigned char sig[KS_TOKEN_SIG_LEN];
	if (ks_token_sign(key, tok.data, tok.len, sig)) {
		kt_wipe_free(tok.data, tok.cap);
		return ks_err_set(err, KS_EINTERNAL, 0, 0, 0, "HMAC failed");
	}
	classad_buf_puts(&tok, ".");
	put_b64(&tok, sig, sizeof(sig));
	OPENSSL_cleanse(sig, sizeof(sig));
	*token_out = tok.data;
	return 0;
}

int ks_token_trust_domain(const ks_config *cfg, char **out, struct ks_err *err)
{
	char *td = ks_config_get(cfg, "TRUST_DOMAIN", NULL);
	if (!td)
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "TRUST_DOMAIN is not set");
	*out = td;
	return 0;
}

int ks_token_create(const ks_config *cfg, const char *key_name,
		    const struct ks_token_request *req, char **token_out,
		    struct ks_err *err)
{
	char *td = NULL;
	int rc = ks_token_trust_domain(cfg, &td, err);
	if (rc)
		return rc;
	ks_token_key *key = NULL;
	rc = ks_token_key_load(cfg, key_name ? key_name : "POOL", &key, err);
	if (rc == 0)
		rc = ks_token_mint(key, td, req, token_out, err);
	ks_token_key_free(key);
	free(td);
	return rc;
}

int ks_token_mint_daemon(const ks_config *cfg, const char *key_name,
			 int64_t lifetime, char **token_out, struct ks_err *err)
{
	char *td = NULL;
	int rc = ks_token_trust_domain(cfg, &td, err);
	if (rc)
		return rc;
	size_t n = strlen(td) + sizeof("condor@");
	char *id = ks_xmalloc(n);
	snprintf(id, n, "condor@%s", td);
	free(td);
	struct ks_token_request req = {.identity = id, .lifetime = lifetime};
	rc = ks_token_create(cfg, key_name, &req, token_out, err);
	free(id);
	return rc;
}

/* ---- parsing ---- */

enum claim_bit {
	C_ALG = 1 << 0, C_KID = 1 << 1, C_TYP = 1 << 2, C_ISS = 1 << 3,
	C_SUB = 1 << 4, C_JTI = 1 << 5, C_SCOPE = 1 << 6, C_IAT = 1 << 7,
	C_EXP = 1 << 8, C_CAP = 1 << 9,
};

struct claim_state {
	struct ks_token *t;
	unsigned seen;
	const char *what; /* "header" or "payload" */
	bool failed;      /* a claim, not the JSON, was refused */
	struct ks_err *err;
};

/* Refuses a claim: the message says which, not just "bad JSON". */
static int refuse(struct claim_state *st, const char *fmt, const char *key)
{
	st->failed = true;
	return ks_err_set(st->err, KS_EPARSE, 0, 0, 0, fmt, st->what, key);
}

static int take_string(struct claim_state *st, unsigned bit, const char *key,
		       const struct kt_jval *v, char **dst)
{
	if (st->seen & bit)
		return refuse(st, "token %s repeats \"%s\"", key);
	st->seen |= bit;
	if (v->type != KT_J_STR)
		return refuse(st, "token %s: \"%s\" is not a string", key);
	*dst = ks_xstrdup(v->str);
	return 0;
}

static int take_int(struct claim_state *st, unsigned bit, const char *key,
		    const struct kt_jval *v, int64_t *dst, bool *has)
{
	if (st->seen & bit)
		return refuse(st, "token %s repeats \"%s\"", key);
	st->seen |= bit;
	/* As HTCondor's JWT library: times are whole seconds. */
	if (v->type != KT_J_INT)
		return refuse(st, "token %s: \"%s\" is not an integer", key);
	*dst = v->i;
	*has = true;
	return 0;
}

static int header_claim(void *arg, const char *key, const struct kt_jval *v)
{
	struct claim_state *st = arg;
	if (!strcmp(key, "alg"))
		return take_string(st, C_ALG, key, v, &st->t->alg);
	if (!strcmp(key, "kid"))
		return take_string(st, C_KID, key, v, &st->t->kid);
	if (!strcmp(key, "typ"))
		return take_string(st, C_TYP, key, v, &st->t->typ);
	return 0;
}

static int payload_claim(void *arg, const char *key, const struct kt_jval *v)
{
	struct claim_state *st = arg;
	struct ks_token *t = st->t;
	if (!strcmp(key, "iss"))
		return take_string(st, C_ISS, key, v, &t->iss);
	if (!strcmp(key, "sub"))
		return take_string(st, C_SUB, key, v, &t->sub);
	if (!strcmp(key, "jti"))
		return take_string(st, C_JTI, key, v, &t->jti);
	if (!strcmp(key, "scope"))
		return take_string(st, C_SCOPE, key, v, &t->scope);
	if (!strcmp(key, "iat"))
		return take_int(st, C_IAT, key, v, &t->iat, &t->has_iat);
	if (!strcmp(key, "exp"))
		return take_int(st, C_EXP, key, v, &t->exp, &t->has_exp);
	if (!strcmp(key, "cap")) {
		if (st->seen & C_CAP)
			return refuse(st, "token %s repeats \"%s\"", key);
		st->seen |= C_CAP;
		if (v->type != KT_J_BOOL)
			return refuse(st, "token %s: \"%s\" is not a boolean",
				      key);
		t->cap = v->b;
	}
	return 0;
}

static void split_scope(struct ks_token *t)
{
	const char *p = t->scope;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
			e++;
		t->scopes = ks_xrealloc(t->scopes, (t->nscopes + 1) * sizeof(char *));
		t->scopes[t->nscopes++] = ks_xstrndup(p, (size_t)(e - p));
		if (e - p > 8 && !strncmp(p, "condor:/", 8)) {
			t->authz = ks_xrealloc(t->authz,
					       (t->nauthz + 1) * sizeof(char *));
			t->authz[t->nauthz++] = ks_xstrndup(p + 8, (size_t)(e - p - 8));
		}
		p = e;
	}
}

/* Decodes one base64url part holding a JSON text. */
static int decode_json_part(const char *s, size_t n, const char *what,
			    char **out, struct ks_err *err)
{
	unsigned char *b;
	size_t blen;
	if (ks_token_b64url_decode(s, n, &b, &blen))
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "token %s is not valid base64url", what);
	if (memchr(b, '\0', blen)) {
		free(b);
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "token %s holds a NUL byte", what);
	}
	*out = (char *)b;
	return 0;
}

int ks_token_parse(const char *text, size_t len, struct ks_token **out,
		   struct ks_err *err)
{
	if (len > KS_TOKEN_MAX_LEN)
		return ks_err_set(err, KS_ERANGE, 0, 0, 0,
				  "token longer than %d bytes", KS_TOKEN_MAX_LEN);
	const char *d1 = memchr(text, '.', len);
	if (!d1)
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "token has no '.' between its parts");
	const char *end = text + len;
	const char *d2 = memchr(d1 + 1, '.', (size_t)(end - d1 - 1));
	if (d2 && memchr(d2 + 1, '.', (size_t)(end - d2 - 1)))
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "token has more than three parts");
	const char *pend = d2 ? d2 : end;

	struct ks_token *t = ks_xcalloc(1, sizeof(*t));
	int rc = decode_json_part(text, (size_t)(d1 - text), "header",
				  &t->header_json, err);
	if (!rc)
		rc = decode_json_part(d1 + 1, (size_t)(pend - d1 - 1), "payload",
				      &t->payload_json, err);
	if (!rc && d2) {
		t->has_sig = true;
		if (ks_token_b64url_decode(d2 + 1, (size_t)(end - d2 - 1),
					   &t->sig, &t->sig_len))
			rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
					"token signature is not valid base64url");
	}
	struct claim_state st = {t, 0, "header", false, err};
	if (!rc) {
		rc = kt_json_object(t->header_json, strlen(t->header_json),
				    header_claim, &st);
		if (rc && !st.failed)
			rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
					"token header is not a JSON object");
	}
	if (!rc) {
		st.what = "payload";
		rc = kt_json_object(t->payload_json, strlen(t->payload_json),
				    payload_claim, &st);
		if (rc && !st.failed)
			rc = ks_err_set(err, KS_EPARSE, 0, 0, 0,
					"token payload is not a JSON object");
	}
	if (rc) {
		ks_token_free(t);
		return rc;
	}
	t->signing_input_len = (size_t)(pend - text);
	t->signing_input = ks_xstrndup(text, t->signing_input_len);
	if (t->scope)
		split_scope(t);
	*out = t;
	return 0;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ks_token_free(struct ks_token *t)
{
	if (!t)
		return;
	free(t->signing_input);
	kt_wipe_free(t->sig, t->sig_len);
	free(t->header_json);
	free(t->payload_json);
	free(t->alg);
	free(t->kid);
	free(t->typ);
	free(t->iss);
	free(t->sub);
	free(t->jti);
	free(t->scope);
	free_strv(t->scopes, t->nscopes);
	free_strv(t->authz, t->nauthz);
	free(t);
}

/* ---- verification ---- */

/* A peer's string made safe for a log line: the messages below end up in
 * daemon logs, and a claim may hold newlines or escape codes. */
static const char *printable(const char *s, char out[68])
{
	size_t i = 0;
	for (; s && s[i] && i < 64; i++) {
		unsigned char c = (unsigned char)s[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (s && s[i])
		out[i++] = '.', out[i++] = '.', out[i++] = '.';
	out[i] = '\0';
	return out;
}

static bool nonempty(const char *s)
{
	return s && *s;
}

int ks_token_check_claims(const struct ks_token *t, const char *trust_domain,
			  int64_t now, int64_t max_age, struct ks_err *err)
{
	if (!t->alg || strcmp(t->alg, "HS256") != 0)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token algorithm is not HS256");
	if (!nonempty(t->kid))
		return ks_err_set(err, KS_EAUTH, 0, 0, 0, "token has no key id");
	if (!nonempty(t->iss))
		return ks_err_set(err, KS_EAUTH, 0, 0, 0, "token has no issuer");
	if (!nonempty(t->jti))
		return ks_err_set(err, KS_EAUTH, 0, 0, 0, "token has no jti");
	if (t->cap)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "capability tokens are not supported");
	if (!nonempty(t->sub))
		return ks_err_set(err, KS_EAUTH, 0, 0, 0, "token has no subject");
	char shown[68];
	if (!trust_domain || strcmp(t->iss, trust_domain) != 0)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token issuer '%s' is not this trust domain "
				  "'%s'",
				  printable(t->iss, shown),
				  trust_domain ? trust_domain : "");
	if (t->has_exp && t->exp < now)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token expired %lld seconds ago",
				  (long long)now - (long long)t->exp);
	if (t->has_iat && t->iat > now && t->iat - now > KS_TOKEN_CLOCK_SKEW)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token issued %lld seconds in the future",
				  (long long)(t->iat - now));
	if (max_age > 0 && t->has_iat && now > t->iat && now - t->iat > max_age)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token is %lld seconds old, more than "
				  "SEC_TOKEN_MAX_AGE %lld",
				  (long long)(now - t->iat), (long long)max_age);
	return 0;
}

int ks_token_server_secret(const ks_config *cfg, const struct ks_token *t,
			   int64_t now, unsigned char sig_out[KS_TOKEN_SIG_LEN],
			   struct ks_err *err)
{
	if (!now)
		now = (int64_t)time(NULL);
	char *td = ks_config_get(cfg, "TRUST_DOMAIN", NULL);
	int64_t max_age = -1;
	if (!ks_config_int(cfg, "SEC_TOKEN_MAX_AGE", &max_age))
		max_age = -1;
	int rc = ks_token_check_claims(t, td, now, max_age, err);
	free(td);
	if (rc)
		return rc;
	ks_token_key *key = NULL;
	struct ks_err kerr;
	char shown[68];
	if (ks_token_key_load(cfg, t->kid, &key, &kerr))
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "no usable signing key '%s': %s",
				  printable(t->kid, shown), kerr.msg);
	rc = ks_token_sign(key, t->signing_input, t->signing_input_len, sig_out);
	ks_token_key_free(key);
	if (rc)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0, "HMAC failed");
	return 0;
}

/* The signature check shared by both verify functions. */
static int compare_sig(const struct ks_token *t,
		       const unsigned char want[KS_TOKEN_SIG_LEN],
		       struct ks_err *err)
{
	if (!t->has_sig || t->sig_len != KS_TOKEN_SIG_LEN ||
	    CRYPTO_memcmp(t->sig, want, KS_TOKEN_SIG_LEN) != 0)
		return ks_err_set(err, KS_EAUTH, 0, 0, 0,
				  "token signature does not match");
	return 0;
}

static int finish(struct ks_token *t, int rc, struct ks_token **out)
{
	if (rc == 0 && out)
		*out = t;
	else
		ks_token_free(t);
	return rc;
}

int ks_token_verify(const ks_config *cfg, const char *token, int64_t now,
		    struct ks_token **out, struct ks_err *err)
{
	struct ks_token *t = NULL;
	int rc = ks_token_parse(token, strlen(token), &t, err);
	if (rc)
		return rc;
	if (!t->has_sig)
		return finish(t, ks_err_set(err, KS_EAUTH, 0, 0, 0,
					    "token has no signature"),
			      out);
	unsigned char want[KS_TOKEN_SIG_LEN];
	rc = ks_token_server_secret(cfg, t, now, want, err);
	if (!rc)
		rc = compare_sig(t, want, err);
	OPENSSL_cleanse(want, sizeof(want));
	return finish(t, rc, out);
}

int ks_token_verify_key(const ks_token_key *key, const char *trust_domain,
			int64_t max_age, const char *token, int64_t now,
			struct ks_token **out, struct ks_err *err)
{
	struct ks_token *t = NULL;
	int rc = ks_token_parse(token, strlen(token), &t, err);
	if (rc)
		return rc;
	if (!now)
		now = (int64_t)time(NULL);
	rc = ks_token_check_claims(t, trust_domain, now, max_age, err);
	char shown[68];
	if (!rc && strcmp(t->kid, ks_token_key_name(key)) != 0)
		rc = ks_err_set(err, KS_EAUTH, 0, 0, 0,
				"token is signed with key '%s', not '%s'",
				printable(t->kid, shown), ks_token_key_name(key));
	unsigned char want[KS_TOKEN_SIG_LEN];
	if (!rc && ks_token_sign(key, t->signing_input, t->signing_input_len, want))
		rc = ks_err_set(err, KS_EAUTH, 0, 0, 0, "HMAC failed");
	if (!rc)
		rc = compare_sig(t, want, err);
	OPENSSL_cleanse(want, sizeof(want));
	return finish(t, rc, out);
}
