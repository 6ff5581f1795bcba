/* handshake.c: the client's handshake steps (ks_handshake.h). */
#include "ks_handshake.h"

#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_auth.h"
#include "ks_text.h"
#include "ks_tls.h"
#include "ks_tokauth.h"

static bool method_listed(const char *list, const char *name)
{
	size_t pos = 0, len, n = strlen(name);
	for (const char *item; (item = ks_list_next(list, &pos, &len));)
		if (len == n && strncasecmp(item, name, n) == 0)
			return true;
	return false;
}

void ks_hs_proof(const unsigned char sig[32], const char *side,
		 const char *cn, const char *sn, char hex[65])
{
	unsigned char mac[32];
	ks_auth_mac(sig, 32, side, cn, sn ? sn : "", mac);
	ks_auth_hex(mac, 32, hex);
	OPENSSL_cleanse(mac, sizeof(mac));
}

int ks_hs_client_begin(struct ks_hs_client *h, const ks_config *cfg,
		       bool unix_peer, const char *peer, classad **hello,
		       struct ks_err *err)
{
	memset(h, 0, sizeof(*h));
	h->peer = peer;
	*hello = NULL;
	unsigned char nonce[16];
	if (ks_auth_random(nonce, sizeof(nonce)))
		return ks_err_set(err, KS_EIO, 0, 0, 0, "no random numbers");
	ks_auth_hex(nonce, sizeof(nonce), h->cn);
	classad *ad = classad_new();
	classad_insert_int(ad, "Version", KS_WIRE_VERSION);
	classad_insert_string(ad, "ClientNonce", h->cn);
	char *methods = ks_config_get(cfg, "SEC_CLIENT_AUTHENTICATION_METHODS",
				      NULL);
	if (!methods)
		methods = ks_config_get(cfg,
					"SEC_DEFAULT_AUTHENTICATION_METHODS",
					NULL);
	classad_insert_string(ad, "AuthMethods",
			      methods ? methods : "FS,TOKEN");
	bool want_token = !methods || method_listed(methods, "TOKEN") ||
			  method_listed(methods, "IDTOKENS");
	free(methods);
	if (!unix_peer && want_token &&
	    ks_tokauth_client(cfg, &h->head, h->sig) == 0)
		classad_insert_string(ad, "TokenHead", h->head);
	*hello = ad;
	return 0;
}

/* The server's DONE: who we are, and the session for signed datagrams,
 * whose key comes in the answer over a Unix-domain socket (private to
 * the host) and is derived from the token's secret otherwise. */
static void take_done(struct ks_hs_client *h, const classad *in)
{
	h->identity = classad_eval_string_dup(in, "Identity");
	char *sid = classad_eval_string_dup(in, "SessionId");
	char *skey = classad_eval_string_dup(in, "SessionKey");
	if (sid && strlen(sid) == KS_WIRE_SESSION_ID) {
		if (skey && ks_auth_unhex(skey, h->key, 32) == 0)
			strcpy(h->session, sid);
		else if (!skey && h->head) {
			ks_auth_mac(h->sig, 32, "session", h->cn, sid, h->key);
			strcpy(h->session, sid);
		}
	}
	if (skey)
		OPENSSL_cleanse(skey, strlen(skey));
	free(sid);
	free(skey);
}

int ks_hs_client_step(struct ks_hs_client *h, SSL *ssl, int code,
		      const classad *in, int *out_code, classad **out,
		      struct ks_err *err)
{
	*out = NULL;
	if (code == KS_REPLY_DENIED || code == KS_REPLY_ERROR) {
		char *why = classad_eval_string_dup(in, "ErrorString");
		int rc = ks_err_set(err, KS_EAUTH, 0, 0, 0,
				    "%s refused the connection: %s", h->peer,
				    why ? why : "no reason given");
		free(why);
		return rc;
	}
	if (code == KS_HS_CHALLENGE && h->head && !h->proving) {
		char *sn0 = classad_eval_string_dup(in, "ServerNonce");
		/* the proofs cover the TLS channel too, when there is one */
		char *sn = ks_tls_bind_nonce(ssl, sn0);
		free(sn0);
		char hex[65];
		ks_hs_proof(h->sig, "client", h->cn, sn, hex);
		ks_hs_proof(h->sig, "server", h->cn, sn, h->server_proof);
		free(sn);
		classad *proof = classad_new();
		classad_insert_string(proof, "Proof", hex);
		*out = proof;
		*out_code = KS_HS_PROOF;
		h->proving = true;
		return 1;
	}
	if (code != KS_HS_DONE)
		return ks_err_set(err, KS_EPROTO, 0, 0, 0,
				  "%s answered the handshake with code %d",
				  h->peer, code);
	if (h->proving) {
		char *sp = classad_eval_string_dup(in, "ServerProof");
		bool ok = sp && strlen(sp) == 64 &&
			  CRYPTO_memcmp(sp, h->server_proof, 64) == 0;
		free(sp);
		if (!ok)
			return ks_err_set(err, KS_EAUTH, 0, 0, 0,
					  "%s did not prove it knows the pool "
					  "signing key", h->peer);
	}
	take_done(h, in);
	return 0;
}

void ks_hs_client_clear(struct ks_hs_client *h)
{
	free(h->head);
	free(h->identity);
	OPENSSL_cleanse(h->sig, sizeof(h->sig));
	OPENSSL_cleanse(h->key, sizeof(h->key));
	memset(h, 0, sizeof(*h));
}
