/* tokauth.c: the TOKEN method's use of common/token (ks_tokauth.h). */
#include "ks_tokauth.h"

#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>

#include "ks_auth.h"
#include "ks_mem.h"
#include "ks_token.h"

/* A daemon's own token lives only as long as a handshake needs it. */
#define SELF_TOKEN_LIFETIME 60

static int split(const char *token, char **head, unsigned char sig[32])
{
	struct ks_token *t = NULL;
	if (ks_token_parse(token, strlen(token), &t, NULL) || !t->sig ||
	    t->sig_len != 32) {
		ks_token_free(t);
		return KS_ENOTFOUND;
	}
	*head = ks_xstrdup(t->signing_input);
	memcpy(sig, t->sig, 32);
	ks_token_free(t);
	return 0;
}

int ks_tokauth_client(const ks_config *cfg, char **head, unsigned char sig[32])
{
	char *token = NULL;
	*head = NULL;
	struct ks_token_find_opts opts = {0};
	int rc = ks_token_find(cfg, &opts, &token, NULL, NULL);
	/* Without a token of its own, a process that can read the pool's
	 * signing key (the pool's daemons) signs one for itself, as
	 * HTCondor's daemons do. */
	if (rc)
		rc = ks_token_mint_daemon(cfg, NULL, SELF_TOKEN_LIFETIME, &token,
					  NULL);
	if (rc == 0)
		rc = split(token, head, sig);
	ks_token_string_free(token);
	return rc ? KS_ENOTFOUND : 0;
}

int ks_tokauth_server(const ks_config *cfg, const char *head,
		      unsigned char sig[32], char **identity,
		      unsigned *levels, struct ks_err *err)
{
	struct ks_token *t = NULL;
	*identity = NULL;
	*levels = 0;
	int rc = ks_token_parse(head, strlen(head), &t, err);
	if (rc == 0)
		rc = ks_token_server_secret(cfg, t, 0, sig, err);
	if (rc == 0) {
		*identity = ks_xstrdup(t->sub);
		*levels = ks_level_scope((const char *const *)t->authz,
					  t->nauthz);
	}
	ks_token_free(t);
	return rc ? KS_EAUTH : 0;
}
