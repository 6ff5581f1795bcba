/*
 * cycle.c: one negotiation cycle, in HTCondor's phases:
 *   1. the slot ads, their private ads (claim ids) and the submitter
 *      ads from the collector;
 *   2. accounting: priorities decay, usage is what the slots say;
 *   3. submitters in order of effective priority;
 *   4. the pie (share.h): each time a submitter's turn comes, its
 *      schedd is asked for its resource requests, each request is
 *      matched against the free slots (match.h) up to the submitter's
 *      limit, and the matches go back to the schedd on the same
 *      connection before the next submitter's turn.  (A schedd keeps
 *      one negotiation at a time, and counts the jobs it was given
 *      matches for as taken: a later spin asks afresh and gets only
 *      what is still idle.)
 * The cycle runs in the daemon's loop, as HTCondor's negotiator runs
 * in its one thread; every conversation has a time-out, and a schedd
 * that fails is skipped, logged, until the next cycle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "concurrency.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "negotiator.h"
#include "pool.h"
#include "pslot_preempt.h"
#include "schedd.h"
#include "share.h"
#include "sigattrs.h"

struct inform {
	char *addr, *claim_id;
};

struct sub {
	char *name;        /* Name: the submitter, and the accountant's key */
	char *addr;        /* the schedd's address */
	int64_t idle;      /* IdleJobs */
	double demand;     /* running and idle jobs (weighted): its group's
			    * request */
	struct ng_group *group; /* the group it counts for */
	ng_schedd *conv;   /* the negotiation under way */
	int64_t *rejected; /* autoclusters no slot matched this cycle */
	size_t nrejected;
	int64_t seconds;   /* spent with it this cycle */
	double fair;       /* its fair share of the pool's weight, as the
			    * first spin has it */
	bool opened;       /* its schedd was asked this cycle */
	size_t matched;
	struct inform *inf; /* MATCH_INFO to send (NEGOTIATOR_INFORM_STARTD) */
	size_t ninf;
};

struct cycle {
	ks_daemon *d;
	struct negotiator *ng;
	struct ng_cycle_stats *st;
	struct ng_pool pool;
	struct sub *sub;
	struct ng_share_sub *share;
	size_t nsub;
	int64_t start;
	int spin_logged;
	char *sig_attrs; /* the job attributes the slots read */
	ng_limits *limits; /* concurrency limits in use, matches included */
	/* accounting groups: the group negotiating now (NULL: every
	 * submitter, without groups or in autoregroup's last turn), its
	 * quota limit, and what its submitter took of free slots */
	bool groups;
	struct ng_group *neg_group;
	bool regroup_turn;
	double group_limit;
	double ucap, uused; /* free-slot cap of the submitter's turn (< 0:
			     * none) and what it used of it */
	size_t *map;        /* the group's submitters' indices in sub */
	struct ng_share_sub *gshare;
};

#define LOG(c, cat, ...) ks_log_printf((c)->d->log, (cat), __VA_ARGS__)

/* ---- statistics --------------------------------------------------------- */

void ng_cycle_stats_clear(struct ng_cycle_stats *s)
{
	free(s->submitters_failed);
	free(s->submitters_out_of_time);
	free(s->submitters_share_limit);
	memset(s, 0, sizeof(*s));
}

/* Adds name to a "a, b" list once. */
static void list_add(char **list, const char *name)
{
	size_t nlen = strlen(name), pos = 0, len;
	for (const char *p; (p = ks_list_next(*list, &pos, &len));)
		if (len == nlen && strncmp(p, name, len) == 0)
			return;
	size_t old = *list ? strlen(*list) : 0;
	*list = ks_xrealloc(*list, old + nlen + 3);
	snprintf(*list + old, nlen + 3, "%s%s", old ? ", " : "", name);
}

static struct ng_cycle_stats *new_stats(struct negotiator *ng)
{
	size_t keep = ng->k.stats_length < 1 ? 1
		      : ng->k.stats_length > NG_MAX_CYCLE_STATS
			      ? NG_MAX_CYCLE_STATS
			      : (size_t)ng->k.stats_length;
	ng_cycle_stats_clear(&ng->stats[NG_MAX_CYCLE_STATS - 1]);
	memmove(&ng->stats[1], &ng->stats[0],
		(NG_MAX_CYCLE_STATS - 1) * sizeof(ng->stats[0]));
	memset(&ng->stats[0], 0, sizeof(ng->stats[0]));
	ng->nstats = ng->nstats + 1 < keep ? ng->nstats + 1 : keep;
	for (size_t i = ng->nstats; i < NG_MAX_CYCLE_STATS; i++)
		ng_cycle_stats_clear(&ng->stats[i]);
	return &ng->stats[0];
}

static void put_int(classad *ad, const char *attr, size_t i, int64_t v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	classad_insert_int(ad, name, v);
}

static void put_real(classad *ad, const char *attr, size_t i, double v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	classad_insert_real(ad, name, v);
}

static void put_str(classad *ad, const char *attr, size_t i, const char *v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s%zu", attr, i);
	classad_insert_string(ad, name, v ? v : "");
}

void ng_cycle_publish(const struct negotiator *ng, classad *ad)
{
	for (size_t i = 0; i < ng->nstats; i++) {
		const struct ng_cycle_stats *s = &ng->stats[i];
		int64_t period = i + 1 < ng->nstats
					 ? s->end - ng->stats[i + 1].end
					 : 0;
		put_int(ad, "LastNegotiationCycleTime", i, s->start);
		put_int(ad, "LastNegotiationCycleEnd", i, s->end);
		put_int(ad, "LastNegotiationCyclePeriod", i, period);
		put_int(ad, "LastNegotiationCycleDuration", i, s->duration);
		static const char *const ph[4] = {
			"LastNegotiationCyclePhase1Duration",
			"LastNegotiationCyclePhase2Duration",
			"LastNegotiationCyclePhase3Duration",
			"LastNegotiationCyclePhase4Duration"};
		for (int p = 0; p < 4; p++)
			put_int(ad, ph[p], i, s->phase[p]);
		put_int(ad, "LastNegotiationCycleTotalSlots", i, s->total_slots);
		put_int(ad, "LastNegotiationCycleTrimmedSlots", i,
			s->trimmed_slots);
		put_int(ad, "LastNegotiationCycleCandidateSlots", i,
			s->candidate_slots);
		put_int(ad, "LastNegotiationCycleNumSchedulers", i, s->schedds);
		put_int(ad, "LastNegotiationCycleNumIdleJobs", i, s->idle_jobs);
		put_int(ad, "LastNegotiationCycleNumJobsConsidered", i,
			s->jobs_considered);
		put_int(ad, "LastNegotiationCycleMatches", i, s->matches);
		put_int(ad, "LastNegotiationCycleRejections", i, s->rejections);
		put_real(ad, "LastNegotiationCycleMatchRate", i,
			 s->duration > 0 ? (double)s->matches / s->duration : 0);
		put_real(ad, "LastNegotiationCycleMatchRateSustained", i,
			 period > 0 ? (double)s->matches / period : 0);
		put_int(ad, "LastNegotiationCycleActiveSubmitterCount", i,
			s->active_submitters);
		put_int(ad, "LastNegotiationCyclePies", i, s->pies);
		put_int(ad, "LastNegotiationCyclePieSpins", i, s->pie_spins);
		put_str(ad, "LastNegotiationCycleSubmittersFailed", i,
			s->submitters_failed);
		put_str(ad, "LastNegotiationCycleSubmittersOutOfTime", i,
			s->submitters_out_of_time);
		put_str(ad, "LastNegotiationCycleSubmittersShareLimit", i,
			s->submitters_share_limit);
	}
}

/* ---- phase 1: the ads ----------------------------------------------------- */

static int query(struct cycle *c, int command, const char *target,
		 classad ***ads, size_t *n)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", target);
	classad_insert_bool(q, "Requirements", true);
	struct ks_err err = {0};
	int rc = ks_collector_query(c->d->cfg, NULL, command, q, ads, n, &err);
	classad_free(q);
	if (rc)
		LOG(c, KS_D_ALWAYS, "Failed to get %s from the collector: %s",
		    ks_command_name(command), err.msg);
	return rc;
}

/* The submitters worth negotiating with: a name and a schedd address
 * (ScheddIpAddr, else MyAddress), not asking to be skipped. */
static void take_submitters(struct cycle *c, classad **ads, size_t n)
{
	c->sub = ks_xcalloc(n ? n : 1, sizeof(*c->sub));
	c->share = ks_xcalloc(n ? n : 1, sizeof(*c->share));
	for (size_t i = 0; i < n; i++) {
		char *name = classad_eval_string_dup(ads[i], "Name");
		char *addr = classad_eval_string_dup(ads[i], "ScheddIpAddr");
		if (!addr)
			addr = classad_eval_string_dup(ads[i], "MyAddress");
		bool skip = false;
		if (!name || !addr) {
			LOG(c, KS_D_ALWAYS,
			    "  Error!  Could not get Name and ScheddIpAddr from "
			    "a submitter ad%s%s", name ? " of " : "",
			    name ? name : "");
			LOG(c, KS_D_ALWAYS,
			    "  Ignoring this submitter and continuing");
			free(name);
			free(addr);
			continue;
		}
		if (classad_eval_bool(ads[i], "SkipMatchmaking", NULL, &skip) &&
		    skip) {
			LOG(c, KS_D_ALWAYS,
			    "Skipping submitter %s for this negotiation cycle "
			    "(SkipMatchmaking=true)", name);
			free(name);
			free(addr);
			continue;
		}
		struct sub *s = &c->sub[c->nsub];
		s->name = name;
		s->addr = addr;
		if (!classad_eval_int(ads[i], "IdleJobs", NULL, &s->idle) ||
		    s->idle < 0)
			s->idle = 0;
		/* what its group is asked for, as HTCondor counts it */
		double run = 0, idle = (double)s->idle;
		if (c->ng->k.weighted_demand) {
			classad_eval_real(ads[i], "WeightedIdleJobs", NULL, &idle);
			classad_eval_real(ads[i], "WeightedRunningJobs", NULL,
					  &run);
		} else {
			classad_eval_real(ads[i], "RunningJobs", NULL, &run);
		}
		s->demand = (run > 0 ? run : 0) + (idle > 0 ? idle : 0);
		c->nsub++;
	}
}

/* ---- phase 2: accounting ---------------------------------------------------- */

static void accounting(struct cycle *c)
{
	struct negotiator *ng = c->ng;
	struct ks_err err = {0};
	if (ng_acct_update(ng->acct, c->start, &err))
		LOG(c, KS_D_ALWAYS, "cannot store the accountant: %s", err.msg);
	ng_acct_usage_begin(ng->acct);
	for (size_t i = 0; i < c->pool.n; i++) {
		const struct ng_slot *s = &c->pool.slot[i];
		if (s->charged)
			ng_acct_add_usage(ng->acct, s->charged, s->weight);
		/* a claimed slot advertises its job's limits */
		char *limits = classad_eval_string_dup(s->ad,
						       "ConcurrencyLimits");
		ng_limits_take(c->limits, limits);
		free(limits);
	}
	if (ng_acct_save(ng->acct, &err))
		LOG(c, KS_D_ALWAYS, "cannot store the accountant: %s", err.msg);
	/* what PREEMPTION_REQUIREMENTS and PREEMPTION_RANK read of the user
	 * a claimed slot would be taken from, as HTCondor's negotiator
	 * inserts it (in the cycle's copy of the ad) */
	for (size_t i = 0; i < c->pool.n; i++) {
		struct ng_slot *s = &c->pool.slot[i];
		if (!s->remote)
			continue;
		classad *ad = classad_copy(s->ad);
		classad_insert_real(ad, "RemoteUserPrio",
				    (double)(float)ng_acct_priority(ng->acct,
								    s->remote));
		classad_insert_real(ad, "RemoteUserResourcesInUse",
				    ng_acct_weighted_used(ng->acct, s->remote));
		classad_free(s->ad);
		s->ad = ad;
	}
}

/* The group forms of RemoteUserPrio, as HTCondor inserts them when
 * groups are configured: the claiming user's group, its usage (now)
 * and its quota (this round's). */
static void remote_group_attrs(struct cycle *c)
{
	if (!c->groups)
		return;
	for (size_t i = 0; i < c->pool.n; i++) {
		struct ng_slot *s = &c->pool.slot[i];
		if (!s->remote)
			continue;
		struct ng_group *grp = ng_groups_assign(c->ng->groups, s->remote);
		classad *ad = classad_copy(s->ad);
		classad_insert_string(ad, "RemoteGroup", grp->name);
		classad_insert_real(ad, "RemoteGroupResourcesInUse",
				    ng_acct_weighted_used(c->ng->acct,
							  grp->name));
		classad_insert_real(ad, "RemoteGroupQuota",
				    ng_groups_quota(grp));
		classad_free(s->ad);
		s->ad = ad;
	}
}

/* ---- phase 4: with each submitter ---------------------------------------- */

/* Tells the startds of a submitter's matches (NEGOTIATOR_INFORM_STARTD):
 * one connection per startd, every claim id on it. */
static void inform_startds(struct cycle *c, struct sub *s)
{
	int tmo = (int)c->ng->k.timeout * 1000;
	for (size_t i = 0; i < s->ninf; i++) {
		if (!s->inf[i].addr)
			continue;
		ks_conn *conn = NULL;
		struct ks_err err = {0};
		int rc = ks_conn_open(c->d->cfg, s->inf[i].addr, tmo, &conn,
				      &err);
		size_t sent = 0;
		for (size_t j = i; rc == 0 && j < s->ninf; j++) {
			if (!s->inf[j].addr ||
			    strcmp(s->inf[j].addr, s->inf[i].addr) != 0)
				continue;
			classad *ad = classad_new();
			classad_insert_string(ad, "ClaimId", s->inf[j].claim_id);
			rc = ks_conn_send(conn, KS_MATCH_INFO, &ad, 1, 0, &err);
			classad_free(ad);
			sent++;
		}
		for (size_t k = 0; rc == 0 && k < sent; k++) {
			int code;
			classad **ads = NULL;
			size_t n = 0;
			bool more;
			rc = ks_conn_recv(conn, &code, &ads, &n, &more, &err);
			if (rc == 0 && code != KS_REPLY_OK) {
				char *why = n ? classad_eval_string_dup(
							ads[0], "ErrorString")
					      : NULL;
				LOG(c, KS_D_ALWAYS,
				    "      startd %s refused MATCH_INFO: %s",
				    s->inf[i].addr, why ? why : "no reason");
				free(why);
			}
			ks_ads_free(ads, n);
		}
		if (rc)
			LOG(c, KS_D_ALWAYS,
			    "      Could not send MATCH_INFO to %s: %s",
			    s->inf[i].addr, err.msg);
		ks_conn_close(conn);
		/* done with this address */
		char *done = ks_xstrdup(s->inf[i].addr);
		for (size_t j = i; j < s->ninf; j++)
			if (s->inf[j].addr && strcmp(s->inf[j].addr, done) == 0) {
				free(s->inf[j].addr);
				s->inf[j].addr = NULL;
			}
		free(done);
	}
	for (size_t i = 0; i < s->ninf; i++) {
		free(s->inf[i].addr);
		free(s->inf[i].claim_id);
	}
	free(s->inf);
	s->inf = NULL;
	s->ninf = 0;
}

/* The submitter is done for this cycle: its matches go to the schedd. */
static void finish(struct cycle *c, struct sub *s)
{
	if (s->ninf)
		inform_startds(c, s);
	if (!s->conv)
		return;
	struct ks_err err = {0};
	size_t n = ng_schedd_matches(s->conv);
	if (ng_schedd_finish(s->conv, &err)) {
		LOG(c, KS_D_ALWAYS,
		    "      Could not send PERMISSION_AND_AD to %s for %s: %s",
		    s->addr, s->name, err.msg);
		list_add(&c->st->submitters_failed, s->name);
	} else if (n) {
		LOG(c, KS_D_FULLDEBUG, "  Sent %zu matches to %s for %s", n,
		    s->addr, s->name);
	}
	ng_schedd_free(s->conv);
	s->conv = NULL;
}

static void add_inform(struct sub *s, const struct ng_slot *slot)
{
	if (!slot->addr)
		return;
	for (size_t i = 0; i < s->ninf; i++)
		if (strcmp(s->inf[i].claim_id, slot->claim_id) == 0)
			return; /* a partitionable slot's next carve */
	s->inf = ks_xrealloc(s->inf, (s->ninf + 1) * sizeof(*s->inf));
	s->inf[s->ninf].addr = ks_xstrdup(slot->addr);
	s->inf[s->ninf].claim_id = ks_xstrdup(slot->claim_id);
	s->ninf++;
}

/* Opens the negotiation with s's schedd and reads its requests. */
static bool open_schedd(struct cycle *c, struct sub *s)
{
	struct ks_err err = {0};
	size_t bad = 0;
	int rc = ng_schedd_negotiate(c->d->cfg, s->addr, s->name,
				     c->sig_attrs,
				     (int)c->ng->k.timeout * 1000, &s->conv,
				     &bad, &err);
	if (rc) {
		LOG(c, KS_D_ALWAYS, "    Failed to get resource requests "
				    "from %s for %s: %s", s->addr, s->name,
		    err.msg);
		return false;
	}
	if (bad)
		LOG(c, KS_D_ALWAYS,
		    "    %zu resource requests from %s for %s have no "
		    "AutoClusterId; ignored", bad, s->addr, s->name);
	const classad_expr *jc = c->ng->k.job_constraint;
	for (size_t i = 0; i < ng_schedd_count(s->conv); i++) {
		struct ng_request *r = ng_schedd_request(s->conv, i);
		/* fewer slots later in a cycle, never more: what found none
		 * before finds none now */
		for (size_t j = 0; j < s->nrejected; j++)
			if (s->rejected[j] == r->autocluster)
				r->done = true;
		if (!jc || r->done)
			continue;
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(r->ad, jc, NULL, &v);
		bool ok = false;
		if (!classad_value_bool(&v, &ok) || !ok)
			r->done = true;
		classad_value_clear(&v);
	}
	bool seen = false;
	for (size_t i = 0; i < c->nsub && !seen; i++)
		seen = c->sub[i].opened && strcmp(c->sub[i].addr, s->addr) == 0;
	c->st->schedds += !seen;
	s->opened = true;
	return true;
}

/* Moves the candidate at pos (a partitionable slot just carved, with
 * its new ranks) forward to its place among those after it. */
static void resort(struct ng_cand *cand, size_t pos, size_t n)
{
	while (pos + 1 < n) {
		int cmp = ng_rank_cmp(&cand[pos + 1].rank, &cand[pos].rank);
		if (cmp < 0 || (cmp == 0 && cand[pos + 1].slot > cand[pos].slot))
			break;
		struct ng_cand t = cand[pos];
		cand[pos] = cand[pos + 1];
		cand[pos + 1] = t;
		pos++;
	}
}

enum req_end {
	REQ_FILLED,   /* every job it stands for has a slot */
	REQ_REJECTED, /* no slot matches (any more) */
	REQ_TOO_BIG,  /* the slots left would take it past its limit */
	REQ_LIMIT,    /* the submitter is at its limit */
	REQ_TIME,     /* out of time */
};

/* Request r of submitter s gets no (more) slots this turn, for why:
 * logged, and told to the schedd with the matches. */
static void reject(struct cycle *c, struct sub *s, struct ng_request *r,
		   const char *why)
{
	LOG(c, KS_D_MATCH, "      Rejected %lld.%lld %s %s: %s",
	    (long long)r->cluster, (long long)r->proc, s->name, s->addr, why);
	c->st->rejections++;
	ng_schedd_add_rejection(s->conv, r->autocluster, why);
}

/* Matches request r of submitter s as far as its count, the limit and
 * the deadline allow; *used grows by the weight matched. */
static enum req_end match_request(struct cycle *c, struct sub *s,
				  struct ng_share_sub *sh,
				  struct ng_request *r, double limit,
				  bool rank_only, double *used, double *pie,
				  int64_t deadline)
{
	struct negotiator *ng = c->ng;
	size_t nc;
	/* what PREEMPTION_REQUIREMENTS reads of the submitter, as
	 * HTCondor's negotiator inserts it into the request */
	double prio = (double)(float)ng_acct_priority(ng->acct, s->name);
	classad_insert_real(r->ad, "SubmitterUserPrio", prio);
	classad_insert_real(r->ad, "SubmittorPrio", prio);
	classad_insert_real(r->ad, "SubmitterUserResourcesInUse",
			    ng_acct_weighted_used(ng->acct, s->name));
	if (c->groups) {
		/* the group it counts for and the one it negotiates in
		 * ("<none>" in autoregroup's turn) */
		classad_insert_string(r->ad, "SubmitterNegotiatingGroup",
				      c->neg_group ? c->neg_group->name
						   : NG_NONE_GROUP);
		classad_insert_bool(r->ad, "SubmitterAutoregroup",
				    c->regroup_turn);
		classad_insert_string(r->ad, "SubmitterGroup", s->group->name);
		classad_insert_real(r->ad, "SubmitterGroupResourcesInUse",
				    ng_acct_weighted_used(ng->acct,
							  s->group->name));
		classad_insert_real(r->ad, "SubmitterGroupQuota",
				    ng_groups_quota(s->group));
	}
	struct ng_cand *cand = ng_match_candidates(ng->matcher, r->ad, s->name,
						   &c->pool, false, &nc);
	if (ng->k.allow_pslot_preemption)
		cand = ng_pslot_candidates(ng->matcher, r->ad, s->name,
					   &c->pool, false, cand, &nc);
	struct ng_pslot_pick pick = {0};
	c->st->jobs_considered++;
	char *limits = classad_eval_string_dup(r->ad, "ConcurrencyLimits");
	size_t pos = 0;
	bool limited = false;
	enum req_end end = REQ_FILLED;
	while (r->count > 0) {
		if (time(NULL) >= deadline) {
			end = REQ_TIME;
			break;
		}
		/* past its limit in the first spin, a submitter may still
		 * have the claimed slots that prefer its jobs (HTCondor's
		 * "only consider startd ranks") */
		bool over = *used >= limit;
		if (over && !rank_only) {
			end = REQ_LIMIT;
			break;
		}
		char full[256];
		if (limits && ng_limits_full(c->limits, limits, full,
					     sizeof(full))) {
			char why[300];
			snprintf(why, sizeof(why), "concurrency limit %s reached",
				 full);
			reject(c, s, r, why);
			end = REQ_REJECTED;
			break;
		}
		struct ng_slot *slot = NULL;
		classad *carved = NULL;
		double cost = 0;
		for (; pos < nc && !slot; pos++) {
			struct ng_slot *sl = &c->pool.slot[cand[pos].slot];
			if (sl->taken)
				continue;
			bool by_rank = cand[pos].rank.kind == NG_RANK_PREEMPTION;
			if (over && !by_rank)
				continue;
			if (cand[pos].pslot) {
				/* chosen again: earlier matches change things */
				carved = ng_pslot_choose(ng->matcher, r->ad,
							 s->name, &c->pool,
							 cand[pos].slot, over,
							 &pick)
						 ? ng_pslot_carve(ng->matcher,
								  r->ad, &pick,
								  &cost)
						 : NULL;
				if (!carved)
					continue;
			} else if (sl->partitionable) {
				carved = ng_match_carve(ng->matcher, r->ad, sl,
							&cost);
				if (!carved)
					continue;
			} else {
				cost = sl->weight;
			}
			/* HTCondor lets a submitter round up once per spin,
			 * so that no crumbs of the pie are left over; but a
			 * submitter takes a slot from another by priority
			 * only when that brings it nearer its fair share of
			 * the first spin (where the slots' holders count
			 * too), else two would take the slots back and forth
			 * once the pie is spun again without the holder */
			bool by_prio = cand[pos].rank.kind == NG_PRIO_PREEMPTION;
			/* a free slot counts against what is left of the
			 * group's quota too; a claimed one already counts
			 * for some group */
			if (c->ucap >= 0 &&
			    cand[pos].rank.kind == NG_NO_PREEMPTION &&
			    !(c->uused + cost <= c->ucap ||
			      (c->uused <= 0 && c->ucap > 0))) {
				limited = true;
				classad_free(carved);
				carved = NULL;
				continue;
			}
			bool fair = !by_prio || ng->k.ignore_prios ||
				    sh->usage + cost / 2 <= s->fair;
			if (fair && (*used + cost <= limit ||
				     (*used <= 0 && limit > 0) ||
				     (rank_only && by_rank))) {
				slot = sl;
				break;
			}
			limited = true;
			classad_free(carved);
			carved = NULL;
		}
		if (!slot && over) {
			end = REQ_LIMIT;
			break;
		}
		if (!slot) {
			reject(c, s, r, limited ? "submitter limit exceeded"
						: "no match found");
			end = limited ? REQ_TOO_BIG : REQ_REJECTED;
			break;
		}
		bool by_pslot = cand[pos].pslot;
		char victims[64];
		const classad *offer = by_pslot ? pick.ad : slot->ad;
		classad *grouped = NULL;
		if (c->groups) {
			/* what the schedd passes on to the claim, as
			 * HTCondor's offer carries it */
			grouped = classad_copy(offer);
			classad_insert_string(grouped, "RemoteGroup",
					      s->group->name);
			classad_insert_string(grouped, "RemoteNegotiatingGroup",
					      c->neg_group ? c->neg_group->name
							   : NG_NONE_GROUP);
			classad_insert_bool(grouped, "RemoteAutoregroup",
					    c->regroup_turn);
			offer = grouped;
		}
		if (by_pslot) {
			char *ids = ng_pslot_claims(&c->pool, &pick);
			ng_schedd_add_match_dslots(s->conv, r->autocluster,
						   slot->claim_id, offer, ids);
			free(ids);
			/* HTCondor's words for them */
			snprintf(victims, sizeof(victims), "%zu dslots", pick.n);
		} else {
			ng_schedd_add_match(s->conv, r->autocluster,
					    slot->claim_id, offer);
		}
		classad_free(grouped);
		if (!slot->remote && !by_pslot)
			c->uused += cost;
		char *startd = classad_eval_string_dup(slot->ad,
						       "StartdIpAddr");
		LOG(c, KS_D_MATCH,
		    "      Matched %lld.%lld %s %s preempting %s %s %s",
		    (long long)r->cluster, (long long)r->proc, s->name,
		    s->addr, by_pslot ? victims
			     : slot->remote ? slot->remote : "none",
		    startd ? startd : "<0.0.0.0:0>", slot->name);
		LOG(c, KS_D_ALWAYS, "      Successfully matched with %s",
		    slot->name);
		free(startd);
		if (ng->k.inform_startd)
			add_inform(s, slot);
		ng_acct_add_usage(ng->acct, s->name, cost);
		ng_limits_take(c->limits, limits);
		*used += cost;
		*pie -= cost;
		sh->usage += cost;
		c->st->matches++;
		s->matched++;
		slot->matches++;
		r->count--;
		if (by_pslot) {
			ng_pslot_commit(&c->pool, cand[pos].slot, &pick, carved);
			classad_free(slot->ad);
			slot->ad = carved;
			pos++;
		} else if (slot->partitionable) {
			classad_free(slot->ad);
			slot->ad = carved;
			/* what is left may take this request again, in its
			 * new place among the candidates */
			struct ng_rank rk;
			if (ng_match_one(ng->matcher, r->ad, s->name, slot,
					 false, &rk)) {
				cand[pos].rank = rk;
				resort(cand, pos, nc);
			} else {
				pos++;
			}
		} else {
			slot->taken = true;
			pos++;
		}
	}
	ng_pslot_pick_clear(&pick);
	free(cand);
	free(limits);
	return end;
}

static enum ng_share_result negotiate(void *arg, size_t i, double limit,
				      int spin, bool rank_only, double *pie)
{
	struct cycle *c = arg;
	struct negotiator *ng = c->ng;
	struct sub *s = &c->sub[i];
	struct ng_share_sub *sh = &c->share[i];
	if (spin != c->spin_logged) {
		LOG(c, KS_D_ALWAYS, "Phase 4.%d:  Negotiating with schedds ...",
		    spin);
		c->spin_logged = spin;
	}
	if (spin == 1) {
		ng_acct_set_share(ng->acct, s->name, sh->share,
				  sh->share * c->pool.total_weight);
		s->fair = sh->share * c->pool.total_weight;
	}
	int64_t now = time(NULL);
	int64_t left_sub = ng->k.max_per_submitter - s->seconds;
	int64_t left_cycle = ng->k.max_per_cycle - (now - c->start);
	if (left_sub <= 0 || left_cycle <= 0) {
		LOG(c, KS_D_ALWAYS,
		    "  Negotiation with %s skipped because of time limits",
		    s->name);
		list_add(&c->st->submitters_out_of_time, s->name);
		finish(c, s);
		return NG_SHARE_DONE;
	}
	LOG(c, KS_D_ALWAYS, "  Negotiating with %s at %s", s->name, s->addr);
	LOG(c, KS_D_FULLDEBUG,
	    "    SubmitterPrio = %f, submitterShare = %f, submitterLimit = "
	    "%f, submitterUsage = %f", sh->prio, sh->share, limit,
	    sh->usage);
	if (!open_schedd(c, s)) {
		LOG(c, KS_D_ALWAYS, "  Error: Ignoring submitter for this cycle");
		list_add(&c->st->submitters_failed, s->name);
		finish(c, s);
		return NG_SHARE_ERROR;
	}
	int64_t deadline = now + (left_sub < left_cycle ? left_sub : left_cycle);
	double used = 0;
	c->uused = 0;
	c->ucap = -1;
	if (c->neg_group) {
		/* HTCondor's unclaimed limit: free slots up to what is left
		 * of the group's quota (its usage as the turn starts) */
		double left = c->group_limit -
			      ng_acct_weighted_used(ng->acct,
						    c->neg_group->name);
		c->ucap = left > 0 ? left : 0;
		if (!ng->k.consider_preemption && limit > c->ucap)
			limit = c->ucap;
	}
	enum ng_share_result res = NG_SHARE_DONE;
	/* as HTCondor's: a request the limit kept from its slots is
	 * rejected, the next may fit; the submitter then waits for the
	 * next spin, where its limit may be larger */
	for (size_t k = 0; k < ng_schedd_count(s->conv); k++) {
		struct ng_request *r = ng_schedd_request(s->conv, k);
		if (r->done || r->count <= 0)
			continue;
		enum req_end e = match_request(c, s, sh, r, limit, rank_only,
					       &used, pie, deadline);
		if (e == REQ_REJECTED) {
			r->done = true;
			s->rejected = ks_xrealloc(s->rejected,
						  (s->nrejected + 1) *
							  sizeof(*s->rejected));
			s->rejected[s->nrejected++] = r->autocluster;
		}
		if (e == REQ_TOO_BIG) {
			list_add(&c->st->submitters_share_limit, s->name);
			res = NG_SHARE_RESUME;
		}
		if (e == REQ_LIMIT) {
			LOG(c, KS_D_ALWAYS,
			    "    Reached submitter resource limit: %f ... "
			    "stopping", used);
			list_add(&c->st->submitters_share_limit, s->name);
			res = NG_SHARE_RESUME;
			break;
		}
		if (e == REQ_TIME) {
			LOG(c, KS_D_ALWAYS,
			    "    Reached deadline for %s after %lld sec... "
			    "stopping", s->name, (long long)(time(NULL) - now));
			list_add(&c->st->submitters_out_of_time, s->name);
			res = NG_SHARE_RESUME;
			break;
		}
	}
	s->seconds += time(NULL) - now;
	if (res == NG_SHARE_DONE)
		LOG(c, KS_D_FULLDEBUG, "  Submitter %s got all it wants; "
				       "removing it.", s->name);
	finish(c, s);
	return res;
}

/* ---- accounting groups ------------------------------------------------------ */

static double group_usage(void *arg, const char *group)
{
	struct cycle *c = arg;
	return ng_acct_weighted_used(c->ng->acct, group);
}

/* Before each spin of a group's pie: a group at its quota stops, but
 * for the first spin with preemption (slots that prefer its jobs). */
static bool group_spin_ok(void *arg, int spin)
{
	struct cycle *c = arg;
	if (!c->neg_group || (spin == 1 && c->ng->k.consider_preemption))
		return true;
	if (group_usage(c, c->neg_group->name) >= c->group_limit) {
		LOG(c, KS_D_ALWAYS,
		    "Group %s is using its quota %g - halting negotiation",
		    c->neg_group->name, c->group_limit);
		return false;
	}
	return true;
}

static enum ng_share_result negotiate_member(void *arg, size_t i,
					     double limit, int spin,
					     bool rank_only, double *pie)
{
	struct cycle *c = arg;
	size_t k = c->map[i];
	c->share[k].share = c->gshare[i].share;
	c->share[k].limit = c->gshare[i].limit;
	enum ng_share_result r = negotiate(c, k, limit, spin, rank_only, pie);
	c->gshare[i].usage = c->share[k].usage;
	return r;
}

/* One group's negotiation (ng_groups_negotiate()'s callback): its own
 * pie over its submitters, the pool's weight capped at its limit, as
 * HTCondor's negotiateWithGroup(); grp NULL is autoregroup's last turn,
 * over the ungrouped and regrouped submitters, without a group limit. */
static void negotiate_group(void *arg, struct ng_group *grp, double limit)
{
	struct cycle *c = arg;
	struct ng_group *root = ng_groups_at(c->ng->groups, 0);
	size_t n = 0;
	for (size_t i = 0; i < c->nsub; i++) {
		struct ng_group *g = c->sub[i].group;
		if (grp ? g == grp : g == root || g->autoregroup)
			c->map[n++] = i;
	}
	if (!n)
		return;
	for (size_t k = 0; k < n; k++) {
		struct ng_share_sub *sh = &c->gshare[k];
		*sh = c->share[c->map[k]];
		sh->share = sh->limit = 0;
	}
	c->neg_group = grp;
	c->regroup_turn = grp == NULL;
	c->group_limit = limit;
	c->spin_logged = 0;
	/* the claimed slots' group usage as this group starts */
	remote_group_attrs(c);
	struct ng_share_opts so = {
		.total = c->pool.total_weight < limit ? c->pool.total_weight
						      : limit,
		.min_weight = c->pool.min_weight,
		.consider_preemption = c->ng->k.consider_preemption,
		.ignore_prios = c->ng->k.ignore_prios,
		.spin_ok = group_spin_ok,
	};
	c->st->pies++;
	c->st->pie_spins += ng_share_pie(c->gshare, n, &so, negotiate_member,
					 c);
	for (size_t k = 0; k < n; k++)
		finish(c, &c->sub[c->map[k]]);
	c->neg_group = NULL;
	c->regroup_turn = false;
}

/* Phase 4 with groups: quotas from the pool, then group by group. */
static void negotiate_groups(struct cycle *c)
{
	struct negotiator *ng = c->ng;
	ng_groups *g = ng->groups;
	ng_groups_begin(g);
	for (size_t i = 0; i < ng_groups_count(g); i++) {
		struct ng_group *grp = ng_groups_at(g, i);
		grp->usage = group_usage(c, grp->name);
	}
	LOG(c, KS_D_ALWAYS,
	    "group quotas: assigning %zu submitters to accounting groups",
	    c->nsub);
	struct ng_group *root = ng_groups_at(g, 0);
	size_t regrouped = 0;
	for (size_t i = 0; i < c->nsub; i++) {
		struct sub *s = &c->sub[i];
		s->group = ng_groups_assign(g, s->name);
		s->group->requested += s->demand;
		s->group->currently_requested += s->demand;
		s->group->nsubmitters++;
		if (s->group != root && s->group->autoregroup)
			regrouped++;
	}
	if (ng_groups_autoregroup(g)) {
		root->nsubmitters += regrouped;
		LOG(c, KS_D_ALWAYS,
		    "group quotas: autoregroup mode: appended %zu submitters "
		    "to group %s negotiation", regrouped, root->name);
	}
	double total = c->pool.total_weight;
	LOG(c, KS_D_ALWAYS,
	    "group quotas: assigning group quotas from %g available%s slots",
	    total, ng->k.use_slot_weights ? " weighted" : "");
	ng_groups_assign_quotas(g, total);
	c->map = ks_xmalloc((c->nsub ? c->nsub : 1) * sizeof(*c->map));
	c->gshare = ks_xcalloc(c->nsub ? c->nsub : 1, sizeof(*c->gshare));
	c->st->pies = 0;
	struct ng_groups_opts o = {
		.total = total,
		.whole_slots = !ng->k.use_slot_weights,
		.consider_preemption = ng->k.consider_preemption,
		.strict_quota = ng->k.strict_quota,
		.max_rounds = ng->k.group_rounds,
		.rr_rate = ng->k.group_rr_rate,
		.now = c->start,
	};
	ng_groups_negotiate(g, &o, group_usage, negotiate_group, c);
	free(c->map);
	free(c->gshare);
	c->map = NULL;
	c->gshare = NULL;
}

/* ---- the cycle ------------------------------------------------------------ */

/* Said once per configuration: each cycle would repeat it for every
 * pair of job and slot. */
static void warn_expressions(struct cycle *c)
{
	static const struct {
		unsigned bit;
		const char *knob, *then;
	} w[] = {
		{NG_MATCH_WARN_PRE_RANK, "NEGOTIATOR_PRE_JOB_RANK",
		 "that slot ranks lowest"},
		{NG_MATCH_WARN_POST_RANK, "NEGOTIATOR_POST_JOB_RANK",
		 "that slot ranks lowest"},
		{NG_MATCH_WARN_PRANK, "PREEMPTION_RANK",
		 "that slot ranks lowest among those to preempt"},
		{NG_MATCH_WARN_PREQ, "PREEMPTION_REQUIREMENTS",
		 "taken as False: that slot is not preempted"},
	};
	unsigned bits = ng_matcher_warnings(c->ng->matcher);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (bits & w[i].bit)
			LOG(c, KS_D_ALWAYS,
			    "WARNING: %s gave an error or a value of the "
			    "wrong type for a slot and a job; %s (said once "
			    "until the next reconfig)",
			    w[i].knob, w[i].then);
}

static void publish_accounting(struct cycle *c)
{
	struct negotiator *ng = c->ng;
	size_t ngroups = ng_groups_count(ng->groups);
	classad **ads = ks_xmalloc((c->nsub + ngroups + 1) * sizeof(*ads));
	size_t n = 0;
	/* "<none>" and the declared groups, then the submitters */
	for (size_t i = 0; i < ngroups; i++) {
		const struct ng_customer *grp = ng_acct_find(
			ng->acct, ng_groups_at(ng->groups, i)->name);
		if (grp)
			ads[n++] = ng_acct_ad(ng->acct, grp, c->d->name);
	}
	for (size_t i = 0; i < c->nsub; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(c->sub[j].name, c->sub[i].name) == 0;
		const struct ng_customer *cu = ng_acct_find(ng->acct,
							     c->sub[i].name);
		if (!seen && cu)
			ads[n++] = ng_acct_ad(ng->acct, cu, c->d->name);
	}
	if (n)
		ks_daemon_send(c->d, KS_UPDATE_ACCOUNTING_AD, ads, n);
	ks_ads_free(ads, n);
}

static void cleanup(struct cycle *c)
{
	for (size_t i = 0; i < c->nsub; i++) {
		struct sub *s = &c->sub[i];
		ng_schedd_free(s->conv);
		for (size_t j = 0; j < s->ninf; j++) {
			free(s->inf[j].addr);
			free(s->inf[j].claim_id);
		}
		free(s->inf);
		free(s->rejected);
		free(s->name);
		free(s->addr);
	}
	free(c->sub);
	free(c->share);
	free(c->sig_attrs);
	ng_pool_clear(&c->pool);
	/* what the cycle counted is what condor_userprio -l reports */
	ng_limits_free(c->ng->limits);
	c->ng->limits = c->limits;
}

void ng_cycle_run(ks_daemon *d)
{
	struct negotiator *ng = d->ctx;
	struct cycle c = {.d = d, .ng = ng};
	c.start = time(NULL);
	LOG(&c, KS_D_ALWAYS, "---------- Started Negotiation Cycle ----------");
	ng->started_last = c.start;
	ng->reschedule = false;

	LOG(&c, KS_D_ALWAYS, "Phase 1:  Obtaining ads from collector ...");
	classad **pub = NULL, **pvt = NULL, **subm = NULL;
	size_t npub = 0, npvt = 0, nsubm = 0;
	LOG(&c, KS_D_ALWAYS, "  Getting startd private ads ...");
	if (query(&c, KS_QUERY_STARTD_ADS, "Machine", &pub, &npub) ||
	    query(&c, KS_QUERY_STARTD_PVT_ADS, "Machine", &pvt, &npvt) ||
	    query(&c, KS_QUERY_SUBMITTOR_ADS, "Submitter", &subm, &nsubm)) {
		LOG(&c, KS_D_ALWAYS, "Aborting negotiation cycle");
		ks_ads_free(pub, npub);
		ks_ads_free(pvt, npvt);
		ks_ads_free(subm, nsubm);
		/* not a cycle: NEGOTIATOR_CYCLE_DELAY counts from the last
		 * one that ran, as in HTCondor */
		return;
	}
	LOG(&c, KS_D_ALWAYS, "Got ads: %zu public and %zu private",
	    npub + nsubm, npvt);
	LOG(&c, KS_D_ALWAYS, "Public ads include %zu submitter, %zu startd",
	    nsubm, npub);
	c.st = new_stats(ng);
	c.st->start = c.start;
	c.limits = ng_limits_new(d->cfg);
	c.st->pies = 1;
	struct ng_pool_opts po = {ng->k.use_slot_weights,
				  ng->k.slot_constraint,
				  ng->k.early_preemption};
	ng_pool_build(&c.pool, pub, npub, pvt, npvt, &po);
	if (c.pool.retiring && ng->k.consider_preemption)
		LOG(&c, KS_D_ALWAYS,
		    "Trimmed out %zu startd ads due to "
		    "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION=False",
		    c.pool.retiring);
	c.sig_attrs = ng_significant_attrs(pub, npub);
	LOG(&c, KS_D_FULLDEBUG, "the slots read these job attributes: %s",
	    *c.sig_attrs ? c.sig_attrs : "(none)");
	take_submitters(&c, subm, nsubm);
	ks_ads_free(pub, npub);
	ks_ads_free(pvt, npvt);
	ks_ads_free(subm, nsubm);
	if (c.pool.no_claim_id)
		LOG(&c, KS_D_FULLDEBUG,
		    "%zu slot ads have no private ad (no claim id): they "
		    "cannot be matched", c.pool.no_claim_id);
	int64_t t1 = time(NULL);
	c.st->phase[0] = t1 - c.start;

	LOG(&c, KS_D_ALWAYS, "Phase 2:  Performing accounting ...");
	accounting(&c);
	int64_t t2 = time(NULL);
	c.st->phase[1] = t2 - t1;
	c.st->total_slots = (int64_t)c.pool.n;
	c.st->candidate_slots = (int64_t)c.pool.offered;

	for (size_t i = 0; i < c.nsub; i++) {
		struct ng_share_sub *sh = &c.share[i];
		sh->name = c.sub[i].name;
		sh->prio = ng_acct_priority(ng->acct, c.sub[i].name);
		sh->usage = ng_acct_weighted_used(ng->acct, c.sub[i].name);
		sh->idle = c.sub[i].idle > 0;
		c.st->idle_jobs += c.sub[i].idle;
		c.st->active_submitters += c.sub[i].idle > 0;
	}
	LOG(&c, KS_D_ALWAYS, "Phase 3:  Sorting submitter ads by priority ...");
	struct ng_share_opts so = {
		.total = c.pool.total_weight,
		.min_weight = c.pool.min_weight,
		.consider_preemption = ng->k.consider_preemption,
		.ignore_prios = ng->k.ignore_prios,
	};
	c.ucap = -1;
	c.groups = ng_groups_enabled(ng->groups);
	if (c.groups) {
		negotiate_groups(&c);
	} else {
		int spins = c.nsub ? ng_share_pie(c.share, c.nsub, &so,
						  negotiate, &c)
				   : 0;
		c.st->pie_spins = spins;
	}
	for (size_t i = 0; i < c.nsub; i++)
		finish(&c, &c.sub[i]);
	warn_expressions(&c);
	int64_t t4 = time(NULL);
	c.st->phase[3] = t4 - t2;

	struct ks_err err = {0};
	if (ng_acct_save(ng->acct, &err))
		LOG(&c, KS_D_ALWAYS, "cannot store the accountant: %s", err.msg);
	publish_accounting(&c);
	cleanup(&c);
	c.st->end = time(NULL);
	ng->completed_last = c.st->end;
	c.st->duration = c.st->end - c.st->start;
	LOG(&c, KS_D_ALWAYS, "---------- Finished Negotiation Cycle ----------");
	if (ng->k.update_after_cycle)
		ks_daemon_update_collector(d);
}
