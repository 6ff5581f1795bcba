/*
 * query.c: the startd's own answer to QUERY_STARTD_ADS, the query
 * HTCondor's condor_who sends to the startd itself rather than to the
 * collector: the slots as the startd sees them now.
 */
#include <stdlib.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "who.h"

int who_query(const ks_config *cfg, const char *addr, const classad *query,
	      classad ***ads, size_t *n, struct ks_err *err)
{
	*ads = NULL;
	*n = 0;
	/* HTCondor's query objects wait QUERY_TIMEOUT for an answer */
	int64_t secs = 60;
	ks_config_int(cfg, "QUERY_TIMEOUT", &secs);
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, secs > 0 ? (int)(secs * 1000) : 0, &c,
			      err);
	classad *q = (classad *)query;
	if (rc == 0)
		rc = ks_conn_send(c, KS_QUERY_STARTD_ADS, &q, 1, false, err);
	size_t cap = 0;
	bool more = rc == 0;
	while (rc == 0 && more) {
		int code = 0;
		classad **got = NULL;
		size_t ngot = 0;
		rc = ks_conn_recv(c, &code, &got, &ngot, &more, err);
		if (rc == 0 && code < 0) {
			char *why = NULL;
			if (ngot)
				classad_eval_string(got[0], "ErrorString", NULL,
						    &why);
			rc = ks_err_set(err, code == KS_REPLY_DENIED ? KS_EPERM
								     : KS_EPROTO,
					0, 0, 0, "the startd at %s refused the "
					"query: %s", addr,
					why ? why : "no reason given");
			free(why);
		}
		for (size_t i = 0; rc == 0 && i < ngot; i++) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				*ads = ks_xrealloc(*ads, cap * sizeof(**ads));
			}
			(*ads)[(*n)++] = got[i];
			got[i] = NULL;
		}
		ks_ads_free(got, ngot);
	}
	ks_conn_close(c);
	if (rc) {
		ks_ads_free(*ads, *n);
		*ads = NULL;
		*n = 0;
	}
	return rc;
}
