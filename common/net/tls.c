/* tls.c: TLS contexts, certificates and channel binding (ks_tls.h). */
#include "ks_tls.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_auth.h"
#include "ks_mem.h"
#include "ks_text.h"

static bool encryption_is(const ks_config *cfg, const char *what)
{
	char *v = ks_config_get(cfg, "SEC_DEFAULT_ENCRYPTION", NULL);
	bool is = v && strcasecmp(v, what) == 0;
	free(v);
	return is;
}

bool ks_tls_wanted(const ks_config *cfg, const char *host)
{
	return !ks_addr_is_local(host) && !encryption_is(cfg, "NEVER");
}

bool ks_tls_required(const ks_config *cfg, const char *host)
{
	return !ks_addr_is_local(host) && encryption_is(cfg, "REQUIRED");
}

static int ssl_error(struct ks_err *err, const char *what)
{
	char buf[200];
	ERR_error_string_n(ERR_get_error(), buf, sizeof(buf));
	return ks_err_set(err, KS_EINTERNAL, 0, 0, 0, "%s: %s", what, buf);
}

SSL_CTX *ks_tls_client_ctx(struct ks_err *err)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	if (!ctx) {
		ssl_error(err, "TLS client context");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	/* identity comes from the handshake's proofs, bound to the channel */
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	return ctx;
}

/* The n-th path of a comma or space separated list, or NULL. */
static char *list_item(const char *list, int n)
{
	size_t pos = 0, len;
	for (int i = 0;; i++) {
		const char *p = ks_list_next(list, &pos, &len);
		if (!p)
			return NULL;
		if (i == n)
			return ks_xstrndup(p, len);
	}
}

static bool load_configured(SSL_CTX *ctx, const ks_config *cfg)
{
	char *certs = ks_config_get(cfg, "AUTH_SSL_SERVER_CERTFILE", NULL);
	char *keys = ks_config_get(cfg, "AUTH_SSL_SERVER_KEYFILE", NULL);
	bool ok = false;
	for (int i = 0; certs && keys && !ok; i++) {
		char *c = list_item(certs, i), *k = list_item(keys, i);
		if (!c || !k) {
			free(c);
			free(k);
			break;
		}
		ok = access(c, R_OK) == 0 && access(k, R_OK) == 0 &&
		     SSL_CTX_use_certificate_chain_file(ctx, c) == 1 &&
		     SSL_CTX_use_PrivateKey_file(ctx, k, SSL_FILETYPE_PEM) == 1 &&
		     SSL_CTX_check_private_key(ctx) == 1;
		free(c);
		free(k);
	}
	ERR_clear_error();
	free(certs);
	free(keys);
	return ok;
}

/* A self-signed certificate on a new P-256 key, valid for a year. */
static bool make_certificate(SSL_CTX *ctx)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	bool ok = false;
	if (key && x) {
		unsigned char rnd[8];
		uint64_t serial;
		ks_auth_random(rnd, sizeof(rnd));
		memcpy(&serial, rnd, sizeof(serial));
		ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), serial >> 1);
		X509_gmtime_adj(X509_getm_notBefore(x), -3600);
		X509_gmtime_adj(X509_getm_notAfter(x), 365L * 86400);
		X509_set_pubkey(x, key);
		X509_NAME *name = X509_get_subject_name(x);
		X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
					   (const unsigned char *)"kestrel pool",
					   -1, -1, 0);
		X509_set_issuer_name(x, name);
		ok = X509_sign(x, key, EVP_sha256()) > 0 &&
		     SSL_CTX_use_certificate(ctx, x) == 1 &&
		     SSL_CTX_use_PrivateKey(ctx, key) == 1;
	}
	X509_free(x);
	EVP_PKEY_free(key);
	return ok;
}

SSL_CTX *ks_tls_server_ctx(const ks_config *cfg, bool *made,
			   struct ks_err *err)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	if (!ctx) {
		ssl_error(err, "TLS server context");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
				      SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	bool generated = false;
	if (!load_configured(ctx, cfg)) {
		generated = true;
		if (!make_certificate(ctx)) {
			ssl_error(err, "making a certificate");
			SSL_CTX_free(ctx);
			return NULL;
		}
	}
	if (made)
		*made = generated;
	return ctx;
}

char *ks_tls_bind_nonce(SSL *ssl, const char *nonce)
{
	if (!nonce)
		nonce = "";
	if (!ssl)
		return ks_xstrdup(nonce);
	unsigned char v[32] = {0};
	char hex[65];
	static const char label[] = "EXPORTER-kestrel-handshake";
	SSL_export_keying_material(ssl, v, sizeof(v), label,
				   sizeof(label) - 1, NULL, 0, 0);
	ks_auth_hex(v, sizeof(v), hex);
	size_t n = strlen(nonce) + sizeof(hex) + 1;
	char *out = ks_xmalloc(n);
	snprintf(out, n, "%s/%s", nonce, hex);
	return out;
}
