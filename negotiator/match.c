/*
 * match.c: matching requests to slots and ordering the candidates
 * (match.h).  The work of a cycle is here: every autocluster is
 * evaluated against every free slot, so one match context is reused for
 * all pairs and only matching pairs are ranked.
 */
#include "match.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"

struct ng_matcher {
	classad_expr *pre, *post, *prank, *preq;
	classad_expr *modify[3]; /* Cpus, Memory, Disk */
	classad_expr *slot_weight;
	classad_expr *prefers; /* MY.Rank > MY.CurrentRank */
	classad_expr *likes;   /* MY.Rank >= MY.CurrentRank */
	bool use_slot_weights;
	bool consider_preemption;
	unsigned warn_seen, warn_new; /* NG_MATCH_WARN_* bits */
	classad_match *mx; /* left: the job, right: the slot */
};

static const char *const carved_std[3] = {"Cpus", "Memory", "Disk"};

/* instead: what is done in its place, for the message */
static classad_expr *parse_or(const char *text, const char *knob,
			      const char *instead, bool *bad,
			      struct ks_err *err)
{
	if (!text || !*text)
		return NULL;
	struct ks_err e;
	classad_expr *x = classad_parse_expr(text, strlen(text), &e);
	if (!x) {
		if (!*bad)
			ks_err_set(err, KS_EPARSE, 0, 0, 0,
				   "%s does not parse (%s): %s; %s", knob,
				   e.msg, text, instead);
		*bad = true;
	}
	return x;
}

static classad_expr *parse(const char *text, const char *knob, bool *bad,
			   struct ks_err *err)
{
	return parse_or(text, knob, "it is not used", bad, err);
}

ng_matcher *ng_matcher_new(const struct ng_match_conf *c, bool *bad,
			   struct ks_err *err)
{
	ng_matcher *m = ks_xcalloc(1, sizeof(*m));
	*bad = false;
	m->pre = parse(c->pre_job_rank, "NEGOTIATOR_PRE_JOB_RANK", bad, err);
	m->post = parse(c->post_job_rank, "NEGOTIATOR_POST_JOB_RANK", bad,
			err);
	m->prank = parse(c->preemption_rank, "PREEMPTION_RANK", bad, err);
	/* a policy that cannot be read must not widen what is allowed: no
	 * slot is taken by priority until it is fixed (HTCondor's
	 * negotiator would not start at all) */
	m->preq = parse_or(c->preemption_req, "PREEMPTION_REQUIREMENTS",
			   "it is taken as False (no priority preemption)",
			   bad, err);
	if (!m->preq && c->preemption_req && *c->preemption_req)
		m->preq = classad_parse_expr("false", 5, &(struct ks_err){0});
	m->modify[0] = parse(c->modify_cpus, "MODIFY_REQUEST_EXPR_REQUESTCPUS",
			     bad, err);
	m->modify[1] = parse(c->modify_memory,
			     "MODIFY_REQUEST_EXPR_REQUESTMEMORY", bad, err);
	m->modify[2] = parse(c->modify_disk, "MODIFY_REQUEST_EXPR_REQUESTDISK",
			     bad, err);
	m->slot_weight = parse(c->slot_weight, "SLOT_WEIGHT", bad, err);
	m->use_slot_weights = c->use_slot_weights;
	m->consider_preemption = c->consider_preemption;
	/* HTCondor's tests of a better claim for a claimed slot: for rank
	 * preemption, and for priority preemption */
	static const char prefers[] = "MY.Rank > MY.CurrentRank";
	static const char likes[] = "MY.Rank >= MY.CurrentRank";
	struct ks_err e;
	m->prefers = classad_parse_expr(prefers, sizeof(prefers) - 1, &e);
	m->likes = classad_parse_expr(likes, sizeof(likes) - 1, &e);
	m->mx = classad_match_new(NULL, NULL, NULL);
	return m;
}

void ng_matcher_free(ng_matcher *m)
{
	if (!m)
		return;
	classad_expr_free(m->pre);
	classad_expr_free(m->post);
	classad_expr_free(m->prank);
	classad_expr_free(m->preq);
	for (int i = 0; i < 3; i++)
		classad_expr_free(m->modify[i]);
	classad_expr_free(m->slot_weight);
	classad_expr_free(m->prefers);
	classad_expr_free(m->likes);
	classad_match_free(m->mx);
	free(m);
}

int ng_rank_cmp(const struct ng_rank *a, const struct ng_rank *b)
{
	if (a->pre != b->pre)
		return a->pre > b->pre ? 1 : -1;
	if (a->job != b->job)
		return a->job > b->job ? 1 : -1;
	if (a->post != b->post)
		return a->post > b->post ? 1 : -1;
	if (a->kind != b->kind)
		return a->kind > b->kind ? 1 : -1;
	if (a->preempt != b->preempt)
		return a->preempt > b->preempt ? 1 : -1;
	return 0;
}

/* A number from v: integers and reals, and booleans as 0 and 1 when
 * allowed (as HTCondor's IsNumber() and EvalFloat() take them); NaN is
 * no number. */
static bool number(const classad_value *v, bool allow_bool, double *out)
{
	switch (v->type) {
	case CLASSAD_INTEGER:
		*out = (double)v->u.i;
		return true;
	case CLASSAD_REAL:
		*out = v->u.r;
		return !isnan(v->u.r);
	case CLASSAD_BOOLEAN:
		*out = v->u.b;
		return allow_bool;
	default:
		return false;
	}
}

/* An expression that gives something other than its kind of value (or
 * undefined, which is common and meant) is noted once, for the log. */
static void note(ng_matcher *m, unsigned bit)
{
	if (!(m->warn_seen & bit)) {
		m->warn_seen |= bit;
		m->warn_new |= bit;
	}
}

/* A negotiator rank expression, evaluated in the slot with the job as
 * TARGET: single precision, the lowest value when it gives no number. */
static double slot_rank(ng_matcher *m, const classad_expr *e, unsigned bit)
{
	if (!e)
		return -DBL_MAX;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_match_eval(m->mx, CLASSAD_RIGHT, e, &v);
	double d;
	bool num = number(&v, true, &d);
	if (!num && v.type != CLASSAD_UNDEFINED)
		note(m, bit);
	double r = num ? (double)(float)d : -DBL_MAX;
	classad_value_clear(&v);
	return r;
}

static void ranks(ng_matcher *m, enum ng_preempt kind, struct ng_rank *out)
{
	out->pre = slot_rank(m, m->pre, NG_MATCH_WARN_PRE_RANK);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_match_rank(m->mx, CLASSAD_LEFT, &v);
	if (!number(&v, true, &out->job))
		out->job = 0;
	classad_value_clear(&v);
	out->post = slot_rank(m, m->post, NG_MATCH_WARN_POST_RANK);
	out->kind = kind;
	out->preempt = kind == NG_NO_PREEMPTION ? -FLT_MAX
						 : slot_rank(m, m->prank,
							     NG_MATCH_WARN_PRANK);
}

/* Whether e, evaluated in the slot (right) with the job (left) as
 * TARGET, is true: anything else is false, as HTCondor's EvalExprToBool
 * takes it. */
static bool slot_true(ng_matcher *m, const classad_expr *e, unsigned bit)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_match_eval(m->mx, CLASSAD_RIGHT, e, &v);
	bool b = false;
	bool is_bool = classad_value_bool(&v, &b);
	if (!is_bool && v.type != CLASSAD_UNDEFINED)
		note(m, bit);
	classad_value_clear(&v);
	return is_bool && b;
}

unsigned ng_matcher_warnings(ng_matcher *m)
{
	unsigned w = m->warn_new;
	m->warn_new = 0;
	return w;
}

/* Whether claimed slot s, set in m->mx with the job, may be preempted
 * for it, and how: rank preemption when the slot prefers the job to its
 * current one, else priority preemption of another submitter under
 * PREEMPTION_REQUIREMENTS if the slot likes the job as well. */
static bool preemptible(ng_matcher *m, const char *submitter,
			const struct ng_slot *s, bool rank_only,
			enum ng_preempt *kind)
{
	if (slot_true(m, m->prefers, 0)) {
		*kind = NG_RANK_PREEMPTION;
		return true;
	}
	if (rank_only || (submitter && strcmp(s->remote, submitter) == 0))
		return false; /* the same submitter's slot */
	if ((m->preq && !slot_true(m, m->preq, NG_MATCH_WARN_PREQ)) ||
	    !slot_true(m, m->likes, 0))
		return false;
	*kind = NG_PRIO_PREEMPTION;
	return true;
}

bool ng_match_one(ng_matcher *m, const classad *job, const char *submitter,
		  const struct ng_slot *s, bool rank_only,
		  struct ng_rank *out)
{
	/* A claimed slot is a preemption: rank preemption when the slot
	 * prefers this job to its current one, else priority preemption
	 * of another submitter under PREEMPTION_REQUIREMENTS.  A slot that
	 * is not free (Owner, Matched, Drained) is never a candidate, and
	 * an unclaimed slot is never a rank preemption, so it is out when
	 * only those are sought.  A claimed slot whose job may still
	 * retire is left alone unless early preemption is asked for. */
	if (s->remote ? !m->consider_preemption || s->retiring
		      : !s->offered || rank_only)
		return false;
	classad_match_set(m->mx, job, s->ad);
	/* both Requirements, the job's first: it is usually the cheaper
	 * and the more selective (Arch, OpSys, memory), where the slot's
	 * is its whole START policy */
	if (!classad_match_right_matches_left(m->mx) ||
	    !classad_match_left_matches_right(m->mx))
		return false;
	enum ng_preempt kind = NG_NO_PREEMPTION;
	if (s->remote && !preemptible(m, submitter, s, rank_only, &kind))
		return false;
	ranks(m, kind, out);
	return true;
}

int ng_cand_cmp(const void *pa, const void *pb)
{
	const struct ng_cand *a = pa, *b = pb;
	int c = ng_rank_cmp(&b->rank, &a->rank); /* best first */
	if (c)
		return c;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

struct ng_cand *ng_match_candidates(ng_matcher *m, const classad *job,
				    const char *submitter,
				    const struct ng_pool *pool,
				    bool rank_only, size_t *n)
{
	struct ng_cand *c = NULL;
	size_t k = 0, cap = 0;
	for (size_t i = 0; i < pool->n; i++) {
		const struct ng_slot *s = &pool->slot[i];
		if (s->taken || !s->claim_id)
			continue;
		struct ng_rank r;
		if (!ng_match_one(m, job, submitter, s, rank_only, &r))
			continue;
		if (k == cap) {
			cap = cap ? cap * 2 : 64;
			c = ks_xrealloc(c, cap * sizeof(*c));
		}
		c[k++] = (struct ng_cand){i, r, false};
	}
	if (k > 1)
		qsort(c, k, sizeof(*c), ng_cand_cmp);
	classad_match_set(m->mx, NULL, NULL);
	*n = k;
	return c;
}

/* ---- carving partitionable slots --------------------------------------- */

struct take {
	char name[64];
	double avail, amount;
	bool integral;
};

/* How much of resource name the job takes from the slot (the match
 * context holds both). */
static double amount_of(ng_matcher *m, const classad *slot, const char *name)
{
	char attr[96];
	classad_value v = CLASSAD_VALUE_INIT;
	double d = 0;
	snprintf(attr, sizeof(attr), "Consumption%.63s", name);
	if (classad_lookup(slot, attr)) {
		classad_match_eval_attr(m->mx, CLASSAD_RIGHT, attr, &v);
		bool ok = number(&v, true, &d);
		classad_value_clear(&v);
		return ok ? d : 0;
	}
	for (int i = 0; i < 3; i++) {
		if (strcasecmp(name, carved_std[i]) != 0 || !m->modify[i])
			continue;
		classad_match_eval(m->mx, CLASSAD_LEFT, m->modify[i], &v);
		bool ok = number(&v, true, &d);
		classad_value_clear(&v);
		if (ok)
			return d;
	}
	snprintf(attr, sizeof(attr), "Request%.63s", name);
	classad_match_eval_attr(m->mx, CLASSAD_LEFT, attr, &v);
	bool ok = number(&v, true, &d);
	classad_value_clear(&v);
	if (ok)
		return d;
	return strcasecmp(name, "Cpus") == 0 ? 1 : 0;
}

size_t ng_match_resources(const classad *slot, char names[][64], size_t max)
{
	char *list = NULL;
	size_t n = 0;
	if (!classad_eval_string(slot, "MachineResources", NULL, &list))
		list = ks_xstrdup("Cpus Memory Disk");
	size_t pos = 0, len;
	for (const char *p; n < max && (p = ks_list_next(list, &pos, &len));)
		if (len < 64 && !(len == 4 && strncasecmp(p, "Swap", 4) == 0)) {
			memcpy(names[n], p, len);
			names[n][len] = '\0';
			n++;
		}
	free(list);
	return n;
}

static size_t resources(const classad *slot, struct take *t, size_t max)
{
	char names[32][64];
	size_t n = ng_match_resources(slot, names, max < 32 ? max : 32);
	for (size_t i = 0; i < n; i++)
		memcpy(t[i].name, names[i], sizeof(t[i].name));
	return n;
}

/* The weight of a dynamic slot holding what t describes, by SLOT_WEIGHT
 * (for a slot whose own SlotWeight does not change with a carve). */
static double carved_weight(ng_matcher *m, const struct take *t, size_t n)
{
	if (!m->slot_weight)
		return 1;
	classad *d = classad_new();
	for (size_t i = 0; i < n; i++)
		if (t[i].name[0])
			classad_insert_real(d, t[i].name, t[i].amount);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(d, m->slot_weight, NULL, &v);
	double w;
	if (!number(&v, true, &w) || w < 0)
		w = 1;
	classad_value_clear(&v);
	classad_free(d);
	return w;
}

classad *ng_match_carve(ng_matcher *m, const classad *job,
			const struct ng_slot *s, double *cost)
{
	struct take t[32];
	size_t n = resources(s->ad, t, 32);
	classad_match_set(m->mx, job, s->ad);
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_attr(s->ad, t[i].name, NULL, &v);
		t[i].integral = v.type == CLASSAD_INTEGER;
		if (!number(&v, false, &t[i].avail)) {
			/* a resource the slot does not show is not carved */
			t[i].avail = t[i].amount = 0;
			t[i].name[0] = '\0';
			classad_value_clear(&v);
			continue;
		}
		classad_value_clear(&v);
		t[i].amount = amount_of(m, s->ad, t[i].name);
		if (t[i].amount < 0)
			t[i].amount = 0;
		t[i].integral = t[i].integral && t[i].amount == floor(t[i].amount);
		ok = t[i].amount <= t[i].avail;
	}
	classad_match_set(m->mx, NULL, NULL);
	if (!ok)
		return NULL;
	classad *left = classad_copy(s->ad);
	for (size_t i = 0; i < n; i++) {
		if (!t[i].name[0])
			continue;
		double rest = t[i].avail - t[i].amount;
		if (t[i].integral)
			classad_insert_int(left, t[i].name, (int64_t)rest);
		else
			classad_insert_real(left, t[i].name, rest);
	}
	double before = ng_pool_weight(s->ad), after = ng_pool_weight(left);
	if (!m->use_slot_weights)
		*cost = 1;
	else if (before > after)
		*cost = before - after;
	else
		*cost = carved_weight(m, t, n);
	return left;
}

/* ---- pslot preemption ----------------------------------------------------- */

bool ng_match_dslot(ng_matcher *m, const classad *job, const char *submitter,
		    const struct ng_slot *s, bool rank_only,
		    enum ng_preempt *kind, double *prank)
{
	if (!s->remote || !m->consider_preemption || s->retiring)
		return false;
	classad_match_set(m->mx, job, s->ad);
	bool ok = preemptible(m, submitter, s, rank_only, kind);
	if (ok)
		*prank = slot_rank(m, m->prank, NG_MATCH_WARN_PRANK);
	classad_match_set(m->mx, NULL, NULL);
	return ok;
}

bool ng_match_ranked(ng_matcher *m, const classad *job, const classad *slot,
		     enum ng_preempt kind, struct ng_rank *out)
{
	classad_match_set(m->mx, job, slot);
	bool ok = classad_match_right_matches_left(m->mx) &&
		  classad_match_left_matches_right(m->mx);
	if (ok)
		ranks(m, kind, out);
	classad_match_set(m->mx, NULL, NULL);
	return ok;
}
