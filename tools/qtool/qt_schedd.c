/*
 * qt_schedd.c: which schedd a job tool talks to.  The collector knows
 * every schedd's Name and MyAddress; without -name the tools want this
 * host's, as HTCondor's do.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_auth.h"
#include "ks_commands.h"
#include "ks_daemon_name.h"
#include "ks_mem.h"
#include "qtool.h"

char *qt_user_name(void)
{
	char *name = ks_auth_username((unsigned)getuid());
	return name ? name : ks_xstrdup("unknown");
}

void qt_schedd_free(struct qt_schedd *s)
{
	free(s->name);
	free(s->addr);
	free(s->machine);
	memset(s, 0, sizeof *s);
}

/* Does an advertised Name answer to what the user typed?  Exactly
 * (ignoring case), or a bare host name for "host.domain". */
static bool qt_name_is(const char *adname, const char *want)
{
	if (strcasecmp(adname, want) == 0)
		return true;
	size_t n = strlen(want);
	return !strchr(want, '.') && strncasecmp(adname, want, n) == 0 &&
	       adname[n] == '.';
}

static void qt_take(const classad *ad, struct qt_schedd *out)
{
	char *s = NULL;
	classad_eval_string(ad, "Name", NULL, &s);
	out->name = s;
	s = NULL;
	classad_eval_string(ad, "MyAddress", NULL, &s);
	out->addr = s;
	s = NULL;
	classad_eval_string(ad, "Machine", NULL, &s);
	out->machine = s;
}

/* The schedd ads of the pool with an address: *ads new (ks_ads_free()). */
static int qt_schedd_ads(const ks_config *cfg, const char *pool,
			 classad ***ads, size_t *n, struct ks_err *err)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Scheduler");
	classad_insert_bool(q, "Requirements", true);
	classad_insert_string(q, "Projection", "Name MyAddress Machine");
	int rc = ks_collector_query(cfg, pool, KS_QUERY_SCHEDD_ADS, q, ads, n,
				    err);
	classad_free(q);
	return rc;
}

/* When the collector has no schedd by the exact name: a bare host name
 * for "host.domain", or, for this host's, the only schedd of the pool. */
static int qt_schedd_guess(const ks_config *cfg, const char *pool,
			   const char *name, const char *want,
			   struct qt_schedd *out, struct ks_err *err)
{
	classad **ads = NULL;
	size_t n = 0;
	int rc = qt_schedd_ads(cfg, pool, &ads, &n, err);
	const classad *pick = NULL, *only = NULL;
	size_t with_addr = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *adname = NULL, *addr = NULL;
		classad_eval_string(ads[i], "Name", NULL, &adname);
		classad_eval_string(ads[i], "MyAddress", NULL, &addr);
		if (adname && addr) {
			with_addr++;
			only = ads[i];
			if (!pick && qt_name_is(adname, want))
				pick = ads[i];
		}
		free(adname);
		free(addr);
	}
	if (!pick && !name && with_addr == 1)
		pick = only;
	if (pick)
		qt_take(pick, out);
	ks_ads_free(ads, n);
	if (rc == 0 && !pick)
		rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				"Can't find address for schedd %s", want);
	return rc;
}

int qt_schedd_find(const ks_config *cfg, const char *pool, const char *name,
		   struct qt_schedd *out, struct ks_err *err)
{
	memset(out, 0, sizeof *out);
	char *addr = NULL, *found = NULL;
	int rc = ks_schedd_addr(cfg, name, pool, &addr, &found, err);
	if (rc == 0) {
		out->addr = addr;
		out->name = found ? found : ks_xstrdup(name ? name : addr);
		return 0;
	}
	if (rc != KS_ENOTFOUND)
		return rc;
	char *want = name ? ks_xstrdup(name) : ks_daemon_name(cfg, "SCHEDD", NULL);
	rc = qt_schedd_guess(cfg, pool, name, want, out, err);
	free(want);
	return rc;
}

char *qt_addr_summary(const char *addr)
{
	const char *q = strchr(addr, '?');
	if (!q)
		return ks_xstrdup(addr);
	struct classad_buf b = {0};
	classad_buf_add(&b, addr, (size_t)(q - addr));
	classad_buf_add(&b, "?...", 4);
	return b.data;
}
