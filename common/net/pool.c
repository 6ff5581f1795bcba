/* pool.c: the pool's address book and collector queries (ks_pool.h). */
#include "ks_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_daemon_name.h"
#include "ks_mem.h"

/* The address in the collector's address file, if the file names the
 * collector the user meant (same port, or any when the port is 0). */
static char *address_file(const ks_config *cfg, const struct ks_addr *want)
{
	char *path = ks_config_get(cfg, "COLLECTOR_ADDRESS_FILE", NULL);
	if (!path)
		return NULL;
	struct ks_addr a;
	char *got = ks_addr_read_file(path, &a);
	free(path);
	if (got && want->port != 0 && want->port != a.port) {
		free(got);
		got = NULL;
	}
	return got;
}

int ks_collector_addr(const ks_config *cfg, const char *pool, char **addr,
		      struct ks_err *err)
{
	*addr = NULL;
	char *host = pool ? ks_xstrdup(pool)
			  : ks_config_get(cfg, "COLLECTOR_HOST", NULL);
	if (!host)
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "COLLECTOR_HOST is not defined in the "
				  "configuration; set it, or give -pool");
	/* COLLECTOR_HOST may list several collectors; the first is asked. */
	host[strcspn(host, ", \t")] = '\0';
	struct ks_addr a;
	int rc = ks_addr_parse(host, KS_DEFAULT_PORT, &a, err);
	if (rc) {
		free(host);
		return rc;
	}
	char *found = ks_addr_is_local(a.host) || a.port == 0
			      ? address_file(cfg, &a) : NULL;
	if (!found && a.port == 0) {
		rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				"the collector %s chooses its port at start-up "
				"and has not written COLLECTOR_ADDRESS_FILE: "
				"is it running?", host);
		free(host);
		return rc;
	}
	*addr = found ? found : host;
	if (found)
		free(host);
	return 0;
}

struct query_each {
	int code;
	char *why; /* the ErrorString of an error reply */
	ks_wire_record_fn each;
	void *arg;
};

static int query_record(const struct ks_wire_record *rec, void *arg)
{
	struct query_each *q = arg;
	if (q->code >= 0)
		return q->each(rec, q->arg);
	classad *ad = q->why ? NULL : ks_wire_record_parse(rec, NULL, NULL);
	if (ad)
		q->why = classad_eval_string_dup(ad, "ErrorString");
	classad_free(ad);
	return 0;
}

int ks_collector_query_each(const ks_config *cfg, const char *pool,
			    int command, const classad *query,
			    ks_wire_record_fn each, void *arg,
			    struct ks_err *err)
{
	char *addr = NULL;
	ks_conn *c = NULL;
	int rc = ks_collector_addr(cfg, pool, &addr, err);
	if (rc == 0)
		rc = ks_conn_open(cfg, addr, 0, &c, err);
	classad *q = (classad *)query;
	if (rc == 0)
		rc = ks_conn_send(c, command, &q, 1, false, err);
	struct query_each st = {.each = each, .arg = arg};
	bool more = rc == 0;
	while (more && rc == 0) {
		rc = ks_conn_recv_records(c, &st.code, &more, query_record, &st,
					  err);
		if (rc == 0 && st.code < 0)
			rc = ks_err_set(err, st.code == KS_REPLY_DENIED
						     ? KS_EPERM
						     : KS_EPROTO,
					0, 0, 0, "the collector at %s refused "
					"the query: %s", addr,
					st.why ? st.why : "no reason given");
	}
	free(st.why);
	ks_conn_close(c);
	free(addr);
	return rc;
}

struct query_all {
	classad_cache *cache;
	struct ks_err *err;
	classad **ads;
	size_t n, cap;
};

static int keep_ad(const struct ks_wire_record *rec, void *arg)
{
	struct query_all *a = arg;
	classad *ad = ks_wire_record_parse(rec, a->cache, a->err);
	if (!ad)
		return KS_EPARSE;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->ads = ks_xrealloc(a->ads, a->cap * sizeof(*a->ads));
	}
	a->ads[a->n++] = ad;
	return 0;
}

int ks_collector_query(const ks_config *cfg, const char *pool, int command,
		       const classad *query, classad ***ads, size_t *n,
		       struct ks_err *err)
{
	struct ks_err perr = {0};
	struct query_all a = {.cache = classad_cache_new(), .err = &perr};
	int rc = ks_collector_query_each(cfg, pool, command, query, keep_ad,
					 &a, err);
	if (rc == KS_ECANCELED) { /* an ad did not parse: its message */
		rc = perr.code;
		if (err)
			*err = perr;
	}
	classad_cache_free(a.cache);
	if (rc) {
		ks_ads_free(a.ads, a.n);
		a.ads = NULL;
		a.n = 0;
	}
	*ads = a.ads;
	*n = a.n;
	return rc;
}

char *ks_negotiator_addr(const ks_config *cfg, const char *pool,
			 const char *name, struct ks_err *err)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Negotiator");
	if (name) {
		struct classad_buf b = {0};
		classad_buf_add(&b, "Name == ", 8);
		classad_quote_string_buf(&b, name, strlen(name));
		classad_insert_text(q, "Requirements", b.data, NULL);
		free(b.data);
	} else {
		classad_insert_bool(q, "Requirements", true);
	}
	classad **ads = NULL;
	size_t n = 0;
	char *addr = NULL;
	int rc = ks_collector_query(cfg, pool, KS_QUERY_NEGOTIATOR_ADS, q,
				    &ads, &n, err);
	classad_free(q);
	for (size_t i = 0; rc == 0 && i < n && !addr; i++)
		if (!classad_eval_string(ads[i], "NegotiatorIpAddr", NULL,
					 &addr))
			classad_eval_string(ads[i], "MyAddress", NULL, &addr);
	ks_ads_free(ads, n);
	if (!addr && rc == 0)
		ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
			   "no negotiator%s%s in the collector",
			   name ? " named " : "", name ? name : "");
	return addr;
}

int ks_schedd_addr(const ks_config *cfg, const char *name, const char *pool,
		   char **addr, char **found_name, struct ks_err *err)
{
	*addr = NULL;
	if (found_name)
		*found_name = NULL;
	if (!name && !pool) {
		char *path = ks_config_get(cfg, "SCHEDD_ADDRESS_FILE", NULL);
		struct ks_addr a;
		char *got = path ? ks_addr_read_file(path, &a) : NULL;
		free(path);
		if (got) {
			*addr = got;
			if (found_name)
				*found_name = ks_daemon_name(cfg, "SCHEDD", NULL);
			return 0;
		}
	}
	char *want = name ? ks_xstrdup(name) : ks_daemon_name(cfg, "SCHEDD", NULL);
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Scheduler");
	struct classad_buf req = {0};
	classad_buf_add(&req, "Name == ", 8);
	classad_quote_string_buf(&req, want, strlen(want));
	classad_insert_text(q, "Requirements", req.data, NULL);
	free(req.data);
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_collector_query(cfg, pool, KS_QUERY_SCHEDD_ADS, q, &ads,
				    &n, err);
	classad_free(q);
	if (rc == 0) {
		*addr = n ? classad_eval_string_dup(ads[0], "MyAddress") : NULL;
		if (!*addr)
			rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					"no schedd named %s is known to the "
					"collector", want);
	}
	if (rc == 0 && found_name) {
		*found_name = want;
		want = NULL;
	}
	ks_ads_free(ads, n);
	free(want);
	return rc;
}
