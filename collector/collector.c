/* collector.c: condor_collector: holds every ad of the pool; updates,
 * invalidations, queries, expiry.  See docs/protocol.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_query.h"
#include "ks_daemon.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "store.h"

/* Query replies go out in messages of about this size, each made when the
 * reader has taken the last, so that the collector never holds a second
 * copy of the whole answer. */
#define CHUNK (256u * 1024)

struct collector {
	cs_store *store;
	int64_t lifetime; /* CLASSAD_LIFETIME */
	bool daemon_stats; /* COLLECTOR_DAEMON_STATS */
	int history_size;  /* COLLECTOR_DAEMON_HISTORY_SIZE */
	uint64_t sweep_timer, self_timer;
	int64_t updates, queries, invalid;
};

/* The ad type each command concerns (HTCondor's MyType values);
 * NULL: taken from the ad (generic commands), "" : any type. */
static const char *cmd_type(int code)
{
	switch (code) {
	case KS_UPDATE_STARTD_AD: case KS_UPDATE_STARTD_AD_WITH_ACK:
	case KS_QUERY_STARTD_ADS: case KS_QUERY_STARTD_PVT_ADS:
	case KS_INVALIDATE_STARTD_ADS: case KS_MERGE_STARTD_AD:
		return "Machine";
	case KS_UPDATE_SCHEDD_AD: case KS_QUERY_SCHEDD_ADS:
	case KS_INVALIDATE_SCHEDD_ADS:
		return "Scheduler";
	case KS_UPDATE_MASTER_AD: case KS_QUERY_MASTER_ADS:
	case KS_INVALIDATE_MASTER_ADS:
		return "DaemonMaster";
	case KS_UPDATE_SUBMITTOR_AD: case KS_QUERY_SUBMITTOR_ADS:
	case KS_INVALIDATE_SUBMITTOR_ADS:
		return "Submitter";
	case KS_UPDATE_COLLECTOR_AD: case KS_QUERY_COLLECTOR_ADS:
	case KS_INVALIDATE_COLLECTOR_ADS:
		return "Collector";
	case KS_UPDATE_NEGOTIATOR_AD: case KS_QUERY_NEGOTIATOR_ADS:
	case KS_INVALIDATE_NEGOTIATOR_ADS:
		return "Negotiator";
	case KS_UPDATE_ACCOUNTING_AD: case KS_QUERY_ACCOUNTING_ADS:
	case KS_INVALIDATE_ACCOUNTING_ADS:
		return "Accounting";
	case KS_QUERY_ANY_ADS:
		return "";
	default:
		return NULL;
	}
}

/* Stores ad; its entry, or NULL when it was dropped (logged). */
static struct cs_entry *put_ad(ks_daemon *d, struct collector *c,
			       const char *type, classad *ad,
			       const char *identity)
{
	const char *why;
	char *key = cs_store_key(type, ad, &why);
	if (!key) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "dropping a %s ad from %s: %s", type, identity,
			      why);
		c->invalid++;
		return NULL;
	}
	/* room for what is added here and by the update statistics */
	classad_reserve(ad, classad_size(ad) + 8);
	int64_t now = time(NULL), life = c->lifetime;
	classad_eval_int(ad, "ClassAdLifetime", NULL, &life);
	classad_insert_int(ad, "LastHeardFrom", now);
	if (strcmp(identity, KS_ANONYMOUS) != 0)
		classad_insert_string(ad, "AuthenticatedIdentity", identity);
	if (!classad_lookup(ad, "MyType"))
		classad_insert_string(ad, "MyType", type);
	struct cs_entry *old = cs_store_find(c->store, key);
	struct cs_updstats *st = NULL;
	if (c->daemon_stats) {
		st = old && old->stats ? old->stats
				       : cs_updstats_new(c->history_size);
		cs_updstats_record(st, old ? old->ad : NULL, ad);
		cs_updstats_publish(st, ad);
		if (old)
			old->stats = NULL;
	}
	struct cs_entry *e = cs_store_put(c->store, key, type,
					  classad_ref(ad), now + life);
	e->stats = st;
	c->updates++;
	return e;
}

/* A slot's private ad, kept with its public one for the negotiator's
 * QUERY_STARTD_PVT_ADS; it gets the public ad's Name and address, as
 * HTCondor's collector gives them. */
static void put_private(struct cs_entry *e, classad *pvt)
{
	static const char *const copy[] = {"Name", "MyAddress",
					   "StartdIpAddr"};
	classad *p = classad_copy(pvt);
	for (size_t i = 0; i < sizeof(copy) / sizeof(*copy); i++) {
		const classad_expr *x = classad_lookup(e->ad, copy[i]);
		if (x)
			classad_insert(p, copy[i], classad_expr_ref(x));
	}
	if (!classad_lookup(p, "MyType"))
		classad_insert_string(p, "MyType", "Machine");
	classad_free(e->pvt);
	e->pvt = p;
}

static void cmd_update(ks_daemon *d, struct ks_request *req)
{
	struct collector *c = d->ctx;
	const char *type = cmd_type(req->code);
	/* paired: each ad, then its private ad (slots' only) */
	size_t step = req->paired ? 2 : 1;
	for (size_t i = 0; i < req->n; i += step) {
		char *mytype = NULL;
		if (!type) {
			mytype = classad_eval_string_dup(req->ads[i], "MyType");
			if (!mytype) {
				ks_log_printf(d->log, KS_D_ALWAYS,
					      "generic update without MyType "
					      "from %s dropped", req->identity);
				continue;
			}
		}
		struct cs_entry *e = put_ad(d, c, type ? type : mytype,
					    req->ads[i], req->identity);
		if (e && req->paired && i + 1 < req->n &&
		    strcasecmp(e->type, "Machine") == 0)
			put_private(e, req->ads[i + 1]);
		free(mytype);
	}
	if (req->code == KS_UPDATE_STARTD_AD_WITH_ACK)
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

/* A query's constraint: the query ad's Requirements, true if absent. */
/* The entries a query or an invalidation names by type: every one if
 * *all, else those whose type is the string returned (NULL: none). */
static const char *wanted_type(struct collector *c, const char *want,
			       bool *all)
{
	*all = !want || !*want || strcasecmp(want, "Any") == 0;
	return *all ? NULL : cs_store_type(c->store, want);
}

static void cmd_invalidate(ks_daemon *d, struct ks_request *req)
{
	struct collector *c = d->ctx;
	const char *type = cmd_type(req->code);
	size_t removed = 0;
	for (size_t i = 0; i < req->n; i++) {
		const classad *q = req->ads[i];
		char *target =
			type ? NULL : classad_eval_string_dup(q, "TargetType");
		const char *t = type ? type : target ? target : "";
		const classad_expr *r = classad_lookup(q, "Requirements");
		const char *why;
		char *key = *t ? cs_store_key(t, q, &why) : NULL;
		/* as HTCondor's collector: a query that names its ad (the
		 * form daemons send at exit, with a Requirements that says
		 * the same) removes it by name */
		if (key) {
			removed += cs_store_remove(c->store, key);
		} else {
			bool all;
			const char *tp = wanted_type(c, t, &all);
			for (size_t j = cs_store_count(c->store);
			     (all || tp) && j-- > 0;) {
				struct cs_entry *e = cs_store_at(c->store, j);
				if ((all || e->type == tp) &&
				    ks_query_matches(e->ad, r)) {
					cs_store_remove_at(c->store, j);
					removed++;
				}
			}
		}
		free(key);
		free(target);
	}
	ks_log_printf(d->log, KS_D_FULLDEBUG, "%s from %s removed %zu ads",
		      ks_command_name(req->code), req->identity, removed);
}

/* A query's answer: the matching ads as they were when it came (a
 * reference each, so updates and expiry meanwhile change nothing in it),
 * sent a piece at a time. */
struct query_reply {
	classad **ads;
	size_t n, next;
	struct ks_projection proj;
};

static bool query_piece(ks_daemon *d, void *arg, struct classad_buf *out)
{
	(void)d;
	struct query_reply *q = arg;
	size_t start = out->len;
	while (q->next < q->n && out->len - start < CHUNK) {
		ks_projection_encode(out, q->ads[q->next++], &q->proj);
	}
	return q->next < q->n;
}

static void query_done(void *arg)
{
	struct query_reply *q = arg;
	for (size_t i = 0; i < q->n; i++)
		classad_free(q->ads[i]);
	free(q->ads);
	ks_projection_free(&q->proj);
	free(q);
}

/* The first attributes a query's constraint reads: a query over
 * thousands of ads mostly waits for memory, and knowing which attributes
 * it will look up lets the loop load them a few ads ahead. */
#define QUERY_REFS 4
struct refs {
	const char *name[QUERY_REFS];
	size_t n;
};

static void add_ref(const char *name, void *arg)
{
	struct refs *r = arg;
	for (size_t i = 0; i < r->n; i++)
		if (strcasecmp(r->name[i], name) == 0)
			return;
	if (r->n < QUERY_REFS)
		r->name[r->n++] = name;
}

static void prefetch_refs(cs_store *s, size_t i, size_t count,
			  const struct refs *r)
{
	for (int k = 2; k <= CLASSAD_PREFETCH_AHEAD && i + (size_t)k < count;
	     k += 2) {
		const classad *ad = cs_store_at(s, i + (size_t)k)->ad;
		for (size_t j = 0; j < r->n; j++)
			classad_prefetch(ad, r->name[j], k);
	}
}

static void cmd_query(ks_daemon *d, struct ks_request *req)
{
	struct collector *c = d->ctx;
	if (req->n != 1) {
		ks_reply_error(req, "a query carries exactly one query ad");
		return;
	}
	const classad *qad = req->ads[0];
	const char *type = cmd_type(req->code);
	char *target = type ? NULL : classad_eval_string_dup(qad, "TargetType");
	const char *t = type ? type : target ? target : "";
	const classad_expr *r = classad_lookup(qad, "Requirements");
	int64_t limit = -1;
	classad_eval_int(qad, "LimitResults", NULL, &limit);
	struct query_reply *q = ks_xcalloc(1, sizeof(*q));
	ks_projection_read(qad, &q->proj);
	size_t count = cs_store_count(c->store);
	q->ads = ks_xmalloc((count ? count : 1) * sizeof(*q->ads));
	bool all;
	const char *tp = wanted_type(c, t, &all);
	bool pvt = req->code == KS_QUERY_STARTD_PVT_ADS;
	struct refs refs = {0};
	classad_expr_each_ref(r, add_ref, &refs);
	for (size_t i = 0; (all || tp) && i < count; i++) {
		if (limit >= 0 && q->n >= (size_t)limit)
			break;
		prefetch_refs(c->store, i, count, &refs);
		struct cs_entry *e = cs_store_at(c->store, i);
		/* the private ads: what the constraint sees, and answers */
		const classad *ad = pvt ? e->pvt : e->ad;
		if (ad && (all || e->type == tp) && ks_query_matches(ad, r))
			q->ads[q->n++] = classad_ref(ad);
	}
	free(target);
	c->queries++;
	ks_log_printf(d->log, KS_D_FULLDEBUG, "%s from %s: %zu ads",
		      ks_command_name(req->code), req->identity, q->n);
	ks_reply_stream(req, KS_REPLY_OK, query_piece, query_done, q);
}

static void on_sweep(void *arg)
{
	ks_daemon *d = arg;
	struct collector *c = d->ctx;
	int64_t now = time(NULL);
	size_t dropped = 0;
	for (size_t i = cs_store_count(c->store); i-- > 0;)
		if (cs_store_at(c->store, i)->expires < now) {
			cs_store_remove_at(c->store, i);
			dropped++;
		}
	if (dropped)
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "%zu ads expired", dropped);
}

static size_t count_type(struct collector *c, const char *type)
{
	size_t n = 0;
	const char *tp = cs_store_type(c->store, type);
	for (size_t i = 0; tp && i < cs_store_count(c->store); i++)
		n += cs_store_at(c->store, i)->type == tp;
	return n;
}

/* The collector's own ad goes straight into its table. */
static void on_self(void *arg)
{
	ks_daemon *d = arg;
	struct collector *c = d->ctx;
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Collector");
	char *name = ks_config_get(d->cfg, "COLLECTOR_NAME", NULL);
	classad_insert_string(ad, "Name", name ? name : d->name);
	free(name);
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	classad_insert_string(ad, "Machine", host);
	classad_insert_string(ad, "MyAddress", d->sinful);
	classad_insert_string(ad, "CollectorIpAddr", d->sinful);
	classad_insert_int(ad, "DaemonStartTime", d->start_time);
	classad_insert_int(ad, "MyCurrentTime", (int64_t)time(NULL));
	classad_insert_int(ad, "UpdatesTotal", c->updates);
	classad_insert_int(ad, "UpdatesLost", 0);
	classad_insert_int(ad, "QueriesTotal", c->queries);
	classad_insert_int(ad, "HostsTotal", (int64_t)count_type(c, "Machine"));
	classad_insert_int(ad, "SubmitterAds",
			   (int64_t)count_type(c, "Submitter"));
	classad_insert_int(ad, "TotalAds", (int64_t)cs_store_count(c->store));
	put_ad(d, c, "Collector", ad, d->owner);
	classad_free(ad);
}

static void read_knobs(ks_daemon *d)
{
	struct collector *c = d->ctx;
	/* HTCondor's default, applied in its code rather than its table. */
	c->lifetime = ks_daemon_int(d, "CLASSAD_LIFETIME", 900);
	c->daemon_stats = true;
	ks_config_bool(d->cfg, "COLLECTOR_DAEMON_STATS", &c->daemon_stats);
	c->history_size = (int)ks_daemon_int(d, "COLLECTOR_DAEMON_HISTORY_SIZE",
					     128);
	if (c->history_size < 0 || c->history_size > 4096)
		c->history_size = 128;
	ks_loop_cancel(d->loop, c->self_timer);
	long every = ks_daemon_int(d, "COLLECTOR_UPDATE_INTERVAL", 900);
	c->self_timer = ks_loop_timer(d->loop, 0, (every > 0 ? every : 900) *
					       1000, on_self, d);
}

static int start(ks_daemon *d, struct ks_err *err)
{
	struct collector *c = d->ctx;
	(void)err;
	c->store = cs_store_new();
	c->sweep_timer = ks_loop_timer(d->loop, 1000, 1000, on_sweep, d);
	read_knobs(d);
	return 0;
}

static const struct ks_command_def cmds[] = {
	{KS_UPDATE_STARTD_AD, KS_LEVEL_ADVERTISE_STARTD, cmd_update},
	{KS_UPDATE_STARTD_AD_WITH_ACK, KS_LEVEL_ADVERTISE_STARTD, cmd_update},
	{KS_UPDATE_SCHEDD_AD, KS_LEVEL_ADVERTISE_SCHEDD, cmd_update},
	{KS_UPDATE_SUBMITTOR_AD, KS_LEVEL_ADVERTISE_SCHEDD, cmd_update},
	{KS_UPDATE_MASTER_AD, KS_LEVEL_ADVERTISE_MASTER, cmd_update},
	{KS_UPDATE_COLLECTOR_AD, KS_LEVEL_DAEMON, cmd_update},
	{KS_UPDATE_NEGOTIATOR_AD, KS_LEVEL_NEGOTIATOR, cmd_update},
	{KS_UPDATE_ACCOUNTING_AD, KS_LEVEL_NEGOTIATOR, cmd_update},
	{KS_UPDATE_AD_GENERIC, KS_LEVEL_DAEMON, cmd_update},
	{KS_INVALIDATE_STARTD_ADS, KS_LEVEL_ADVERTISE_STARTD, cmd_invalidate},
	{KS_INVALIDATE_SCHEDD_ADS, KS_LEVEL_ADVERTISE_SCHEDD, cmd_invalidate},
	{KS_INVALIDATE_SUBMITTOR_ADS, KS_LEVEL_ADVERTISE_SCHEDD, cmd_invalidate},
	{KS_INVALIDATE_MASTER_ADS, KS_LEVEL_ADVERTISE_MASTER, cmd_invalidate},
	{KS_INVALIDATE_COLLECTOR_ADS, KS_LEVEL_DAEMON, cmd_invalidate},
	{KS_INVALIDATE_NEGOTIATOR_ADS, KS_LEVEL_NEGOTIATOR, cmd_invalidate},
	{KS_INVALIDATE_ACCOUNTING_ADS, KS_LEVEL_NEGOTIATOR, cmd_invalidate},
	{KS_INVALIDATE_ADS_GENERIC, KS_LEVEL_DAEMON, cmd_invalidate},
	{KS_QUERY_STARTD_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_STARTD_PVT_ADS, KS_LEVEL_NEGOTIATOR, cmd_query},
	{KS_QUERY_SCHEDD_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_MASTER_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_SUBMITTOR_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_COLLECTOR_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_NEGOTIATOR_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_ACCOUNTING_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_ANY_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_GENERIC_ADS, KS_LEVEL_READ, cmd_query},
	{KS_QUERY_MULTIPLE_ADS, KS_LEVEL_READ, cmd_query},
};

static void reconfig(ks_daemon *d)
{
	read_knobs(d);
}

int main(int argc, char **argv)
{
	struct collector c = {0};
	static const struct ks_daemon_ops ops = {
		.start = start,
		.reconfig = reconfig,
	};
	int rc = ks_daemon_main(argc, argv, "COLLECTOR", &ops, cmds,
				sizeof(cmds) / sizeof(cmds[0]), &c);
	cs_store_free(c.store);
	return rc;
}
