/*
 * negotiate.c: the schedd's side of negotiation: its idle jobs grouped
 * into autoclusters (jobs the negotiator cannot tell apart), NEGOTIATE
 * answered with one request per autocluster, PERMISSION_AND_AD's matches
 * handed to run.c; RESCHEDULE passed on to the negotiator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_hash.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"
#include "sc_cmds.h"
#include "sc_local.h"
#include "sc_run.h"

char *sc_submitter_of(const struct sc_schedd *s, const struct sc_job *j)
{
	char *group = NULL, *name;
	bool nice = false;
	classad_eval_bool(j->ad, "NiceUser", NULL, &nice);
	if (classad_eval_string(j->ad, "AccountingGroup", NULL, &group) &&
	    *group) {
		size_t n = strlen(group) + strlen(s->uid_domain) + 2;
		name = ks_xmalloc(n);
		snprintf(name, n, "%s@%s", group, s->uid_domain);
	} else {
		size_t n = strlen(j->owner) + strlen(s->uid_domain) + 12;
		name = ks_xmalloc(n);
		snprintf(name, n, "%s%s@%s", nice ? "nice-user." : "",
			 j->owner, s->uid_domain);
	}
	free(group);
	return name;
}

/* ---- autoclusters ---------------------------------------------------- */

/* What a job's match depends on, besides its Requirements and Rank and
 * what they read of the job itself, and what the slots read of it (the
 * negotiator's AutoClusterAttrs). */
static const char *const significant[] = {
	"Requirements", "Rank",	      "RequestCpus", "RequestMemory",
	"RequestDisk",	"RequestGPUs", "JobUniverse", "NiceUser",
	"ConcurrencyLimits", "ImageSize", "DiskUsage", "AccountingGroup",
};

struct sig_ctx {
	const classad *ad;
	struct classad_buf *b;
};

static void add_attr(struct classad_buf *b, const classad *ad,
		     const char *name)
{
	const classad_expr *e = classad_lookup(ad, name);
	classad_buf_add(b, name, strlen(name));
	classad_buf_add(b, "=", 1);
	if (e)
		classad_expr_unparse_buf(b, e, false);
	classad_buf_add(b, ";", 1);
}

static void add_ref(const char *name, void *arg)
{
	struct sig_ctx *c = arg;
	add_attr(c->b, c->ad, name);
}

struct ac_entry {
	char *sig;
	int id;
	struct ac_entry *next;
};

#define AC_BUCKETS 1024

struct sc_autoclusters {
	struct ac_entry *b[AC_BUCKETS];
	int next_id;
	/* per cluster, when its procs share one: id by cluster id */
	int *by_cluster;
	size_t ncluster;
	/* the negotiator's AutoClusterAttrs, as it came and split */
	char *slot_read_text;
	char **slot_read;
	size_t nslot_read;
};

static bool is_slot_read(const struct sc_autoclusters *a, const char *name)
{
	for (size_t i = 0; i < a->nslot_read; i++)
		if (strcasecmp(a->slot_read[i], name) == 0)
			return true;
	return false;
}

static bool proc_has_significant(const struct sc_autoclusters *a,
				 const struct sc_job *j)
{
	/* a proc that changes none of them shares its cluster's
	 * autocluster, which saves building a signature per job */
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(j->ad, &pos, &name, &e)) {
		if (strncasecmp(name, "Request", 7) == 0)
			return true;
		for (size_t i = 0; i < sizeof(significant) / sizeof(*significant); i++)
			if (strcasecmp(name, significant[i]) == 0)
				return true;
		if (is_slot_read(a, name))
			return true;
	}
	return false;
}

static unsigned hash(const char *s)
{
	return (unsigned)ks_hash(s, strlen(s));
}

static int ac_id(struct sc_autoclusters *a, const char *sig)
{
	unsigned h = hash(sig) % AC_BUCKETS;
	for (struct ac_entry *e = a->b[h]; e; e = e->next)
		if (strcmp(e->sig, sig) == 0)
			return e->id;
	struct ac_entry *e = ks_xmalloc(sizeof(*e));
	e->sig = ks_xstrdup(sig);
	e->id = ++a->next_id;
	e->next = a->b[h];
	a->b[h] = e;
	return e->id;
}

static int job_autocluster(struct sc_autoclusters *a, struct sc_job *j)
{
	if (j->autocluster)
		return j->autocluster;
	bool shared = !proc_has_significant(a, j);
	if (shared && (size_t)j->cluster < a->ncluster &&
	    a->by_cluster[j->cluster])
		return j->autocluster = a->by_cluster[j->cluster];
	struct classad_buf b = {0};
	for (size_t i = 0; i < sizeof(significant) / sizeof(*significant); i++)
		add_attr(&b, j->ad, significant[i]);
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	const classad *sides[2] = {j->cl->ad, j->ad};
	for (int k = 0; k < 2; k++) {
		pos = 0;
		while (classad_next(sides[k], &pos, &name, &e))
			if (strncasecmp(name, "Request", 7) == 0)
				add_attr(&b, j->ad, name);
	}
	for (size_t i = 0; i < a->nslot_read; i++)
		add_attr(&b, j->ad, a->slot_read[i]);
	struct sig_ctx c = {j->ad, &b};
	classad_expr_each_ref(classad_lookup(j->ad, "Requirements"), add_ref,
			      &c);
	classad_expr_each_ref(classad_lookup(j->ad, "Rank"), add_ref, &c);
	j->autocluster = ac_id(a, b.data ? b.data : "");
	free(b.data);
	if (shared && j->cluster >= 0) {
		if ((size_t)j->cluster >= a->ncluster) {
			size_t n = (size_t)j->cluster * 2 + 16;
			a->by_cluster = ks_xrealloc(a->by_cluster,
						    n * sizeof(int));
			memset(a->by_cluster + a->ncluster, 0,
			       (n - a->ncluster) * sizeof(int));
			a->ncluster = n;
		}
		a->by_cluster[j->cluster] = j->autocluster;
	}
	return j->autocluster;
}

void sc_autoclusters_free(struct sc_schedd *s)
{
	struct sc_autoclusters *a = s->ac;
	if (!a)
		return;
	for (size_t i = 0; i < AC_BUCKETS; i++)
		for (struct ac_entry *e = a->b[i], *n; e; e = n) {
			n = e->next;
			free(e->sig);
			free(e);
		}
	free(a->by_cluster);
	for (size_t i = 0; i < a->nslot_read; i++)
		free(a->slot_read[i]);
	free(a->slot_read);
	free(a->slot_read_text);
	free(a);
	s->ac = NULL;
}

static int forget_autocluster(struct sc_job *j, void *arg)
{
	(void)arg;
	j->autocluster = 0;
	return 0;
}

/* The autoclusters for the attributes the slots read now (text: the
 * negotiator's AutoClusterAttrs, NULL if it sent none): when they
 * changed, every job is grouped again. */
static void autoclusters_for(struct sc_schedd *s, const char *text)
{
	if (!text)
		text = "";
	if (s->ac && s->ac->slot_read_text &&
	    strcmp(s->ac->slot_read_text, text) == 0)
		return;
	sc_autoclusters_free(s);
	sc_queue_each(s, forget_autocluster, NULL);
	struct sc_autoclusters *a = ks_xcalloc(1, sizeof(*a));
	a->slot_read_text = ks_xstrdup(text);
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(text, &pos, &len));) {
		a->slot_read = ks_xrealloc(a->slot_read, (a->nslot_read + 1) *
							       sizeof(*a->slot_read));
		a->slot_read[a->nslot_read++] = ks_xstrndup(p, len);
	}
	s->ac = a;
}

/* ---- NEGOTIATE ------------------------------------------------------- */

/* One autocluster's idle jobs for the negotiation under way. */
struct request {
	int id;
	struct sc_job *rep;
	int (*ids)[2]; /* cluster, proc of each idle job */
	size_t n, cap, next;
};

struct sc_negotiation {
	char *submitter;
	struct request *r;
	size_t n;
};

static void negotiation_free(struct sc_negotiation *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->r[i].ids);
	free(g->r);
	free(g->submitter);
	free(g);
}

void sc_negotiation_free(struct sc_schedd *s)
{
	negotiation_free(s->neg);
	s->neg = NULL;
}

struct gather {
	struct sc_schedd *s;
	struct sc_negotiation *g;
};

static int gather_job(struct sc_job *j, void *arg)
{
	struct gather *G = arg;
	if (j->status != SC_IDLE || j->run || sc_local_universe(j))
		return 0;
	char *sub = sc_submitter_of(G->s, j);
	bool ours = strcmp(sub, G->g->submitter) == 0;
	free(sub);
	if (!ours)
		return 0;
	int id = job_autocluster(G->s->ac, j);
	struct sc_negotiation *g = G->g;
	size_t i = 0;
	/* few autoclusters: the last one used is the likely one */
	if (g->n && g->r[g->n - 1].id == id)
		i = g->n - 1;
	else
		while (i < g->n && g->r[i].id != id)
			i++;
	if (i == g->n) {
		g->r = ks_xrealloc(g->r, (g->n + 1) * sizeof(*g->r));
		g->r[g->n++] = (struct request){.id = id, .rep = j};
	}
	struct request *r = &g->r[i];
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->ids = ks_xrealloc(r->ids, r->cap * sizeof(*r->ids));
	}
	r->ids[r->n][0] = j->cluster;
	r->ids[r->n][1] = j->proc;
	r->n++;
	return 0;
}

void sc_cmd_negotiate(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	char *submitter = NULL;
	if (req->n < 1 || !classad_eval_string(req->ads[0], "Submitter", NULL,
					       &submitter)) {
		ks_reply_error(req, "NEGOTIATE carries an ad with Submitter");
		return;
	}
	char *slot_read = NULL;
	classad_eval_string(req->ads[0], "AutoClusterAttrs", NULL, &slot_read);
	autoclusters_for(s, slot_read);
	free(slot_read);
	sc_negotiation_free(s);
	s->neg = ks_xcalloc(1, sizeof(*s->neg));
	s->neg->submitter = submitter;
	struct gather G = {s, s->neg};
	sc_queue_each(s, gather_job, &G);
	classad **ads = ks_xcalloc(s->neg->n + 1, sizeof(*ads));
	for (size_t i = 0; i < s->neg->n; i++) {
		struct request *r = &s->neg->r[i];
		ads[i] = sc_job_flat(r->rep);
		classad_insert_int(ads[i], "AutoClusterId", r->id);
		classad_insert_int(ads[i], "ResourceRequestCount",
				   (int64_t)r->n);
		/* as HTCondor's: it can claim a partitionable slot with
		 * dynamic slots to preempt (PreemptDslotClaims) */
		classad_insert_bool(ads[i], "WantPslotPreemption", true);
	}
	ks_log_printf(d->log, KS_D_FULLDEBUG,
		      "NEGOTIATE for %s: %zu autoclusters", submitter,
		      s->neg->n);
	ks_reply(req, KS_REPLY_OK, ads, s->neg->n, false);
	for (size_t i = 0; i < s->neg->n; i++)
		classad_free(ads[i]);
	free(ads);
}

/* The next job of autocluster id still idle and not being matched. */
static struct sc_job *take_job(struct sc_schedd *s, int id)
{
	struct sc_negotiation *g = s->neg;
	for (size_t i = 0; g && i < g->n; i++) {
		struct request *r = &g->r[i];
		if (r->id != id)
			continue;
		while (r->next < r->n) {
			int *ids = r->ids[r->next++];
			struct sc_job *j = sc_queue_find(s, ids[0], ids[1]);
			if (j && j->status == SC_IDLE && !j->run)
				return j;
		}
	}
	return NULL;
}

/* The negotiator found no slot for autocluster id's request: its job
 * (the one the request stood for) says why, as HTCondor's schedd records
 * a REJECTED_WITH_REASON. */
static void rejected(struct sc_schedd *s, int id, const char *why)
{
	struct sc_negotiation *g = s->neg;
	for (size_t i = 0; g && i < g->n; i++) {
		struct request *r = &g->r[i];
		if (r->id != id || !r->n)
			continue;
		struct sc_job *j = sc_queue_find(s, r->ids[0][0], r->ids[0][1]);
		if (!j)
			return;
		sc_job_set_string(s, j, "LastRejMatchReason", why);
		sc_job_set_int(s, j, "LastRejMatchTime", (int64_t)time(NULL));
		ks_log_printf(s->d->log, KS_D_FULLDEBUG,
			      "job %d.%d rejected: %s", j->cluster, j->proc,
			      why);
		return;
	}
}

void sc_cmd_permission(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	size_t used = 0, stale = 0;
	for (size_t i = 0; i + 1 < req->n; i += 2) {
		int64_t id = 0;
		char *claim = NULL, *why = NULL;
		classad_eval_int(req->ads[i], "AutoClusterId", NULL, &id);
		if (classad_eval_string(req->ads[i], "RejectReason", NULL,
					&why)) {
			rejected(s, (int)id, why);
			free(why);
			continue;
		}
		classad_eval_string(req->ads[i], "ClaimId", NULL, &claim);
		char *dslots = NULL;
		classad_eval_string(req->ads[i], "PreemptDslotClaims", NULL,
				    &dslots);
		struct sc_job *j = claim ? take_job(s, (int)id) : NULL;
		if (j && sc_run_match(s, j, claim, dslots, req->ads[i + 1]) == 0)
			used++;
		else
			stale++;
		free(claim);
		free(dslots);
	}
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "PERMISSION_AND_AD from %s: %zu matches taken, %zu "
		      "not used",
		      req->identity, used, stale);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

/* ---- RESCHEDULE ------------------------------------------------------ */

/* The collector's answer: every negotiator of the pool is asked for a
 * cycle. */
static void on_negotiators(void *arg, ks_call *c, const struct ks_call_reply *rep)
{
	(void)c;
	ks_daemon *d = arg;
	for (size_t i = 0; rep->code >= 0 && i < rep->n; i++) {
		char *addr = NULL;
		if (!classad_eval_string(rep->ads[i], "MyAddress", NULL, &addr))
			continue;
		ks_call_tell(d->calls, d->cfg, d->log, addr, KS_RESCHEDULE, NULL,
			     0, 5000);
		free(addr);
	}
}

static void on_negotiators_end(void *arg, ks_call *c, int rc,
			       const struct ks_err *err)
{
	(void)c;
	if (rc)
		ks_log_printf(((ks_daemon *)arg)->log, KS_D_FULLDEBUG,
			      "no RESCHEDULE sent: %s", err ? err->msg : "");
}

void sc_reschedule(struct sc_schedd *s)
{
	static const struct ks_call_ops ops = {on_negotiators,
					       on_negotiators_end};
	ks_daemon *d = s->d;
	char *addr = NULL;
	struct ks_err err = {0};
	if (ks_collector_addr(d->cfg, NULL, &addr, &err)) {
		ks_log_printf(d->log, KS_D_FULLDEBUG, "no RESCHEDULE sent: %s",
			      err.msg);
		return;
	}
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Negotiator");
	classad_insert_text(q, "Requirements", "true", NULL);
	classad_insert_string(q, "Projection", "MyAddress Name");
	ks_call_start(d->calls, d->cfg, addr, KS_QUERY_NEGOTIATOR_ADS, &q, 1,
		      5000, &ops, d);
	classad_free(q);
	free(addr);
}

void sc_cmd_reschedule(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	/* the submitter ads first, so the cycle sees the new jobs */
	sc_submitters_now(s);
	sc_reschedule(s);
}
