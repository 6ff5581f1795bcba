/* tokauth.c: TOKEN method glue (ks_tokauth.h).  Placeholder until the
 * token module lands: no token is ever offered or accepted. */
#include "ks_tokauth.h"

int ks_tokauth_client(const ks_config *cfg, char **head, unsigned char sig[32])
{
	(void)cfg;
	(void)sig;
	*head = NULL;
	return KS_ENOTFOUND;
}

int ks_tokauth_server(const ks_config *cfg, const char *head,
		      unsigned char sig[32], char **identity,
		      struct ks_err *err)
{
	(void)cfg;
	(void)head;
	(void)sig;
	*identity = NULL;
	return ks_err_set(err, KS_EAUTH, 0, 0, 0, "tokens not supported");
}
