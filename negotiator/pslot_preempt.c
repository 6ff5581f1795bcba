/*
 * pslot_preempt.c: choosing the dynamic slots to preempt for a job on a
 * partitionable slot (pslot_preempt.h).  Dynamic slots are found by
 * their partitionable slot's address and SlotID (a dynamic slot's ad has
 * DynamicSlot = true and its parent's SlotID); one sorted index per
 * request keeps that linear in the pool.
 */
#include "pslot_preempt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"

/* What rank expressions see of the preempted claims in the combined ad:
 * HTCondor's negotiator puts this RemoteUser in it. */
#define VARIOUS "various_dSlot_users"

void ng_pslot_pick_clear(struct ng_pslot_pick *pk)
{
	free(pk->dslots);
	classad_free(pk->ad);
	memset(pk, 0, sizeof(*pk));
}

static bool want_it(const classad *job)
{
	bool b = false;
	return classad_eval_bool(job, "WantPslotPreemption", NULL, &b) && b;
}

static bool is_dynamic(const classad *ad)
{
	bool b = false;
	return classad_eval_bool(ad, "DynamicSlot", NULL, &b) && b;
}

static int64_t slot_id(const classad *ad)
{
	int64_t id = -1;
	classad_eval_int(ad, "SlotID", NULL, &id);
	return id;
}

/* ---- the dynamic slots of a partitionable slot --------------------------- */

struct kid {
	const char *addr;
	int64_t id;
	size_t slot; /* pool index */
};

static int kid_cmp(const void *pa, const void *pb)
{
	const struct kid *a = pa, *b = pb;
	int c = strcmp(a->addr, b->addr);
	if (c)
		return c;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Every claimed dynamic slot of the pool that has a capability, sorted
 * by address and SlotID (then pool order). */
static struct kid *claimed_kids(const struct ng_pool *pool, size_t *n)
{
	struct kid *k = NULL;
	size_t len = 0;
	for (size_t i = 0; i < pool->n; i++) {
		const struct ng_slot *s = &pool->slot[i];
		if (!s->remote || !s->claim_id || !s->addr || s->taken ||
		    !is_dynamic(s->ad))
			continue;
		k = ks_xrealloc(k, (len + 1) * sizeof(*k));
		k[len++] = (struct kid){s->addr, slot_id(s->ad), i};
	}
	if (len > 1)
		qsort(k, len, sizeof(*k), kid_cmp);
	*n = len;
	return k;
}

/* The range [*from, *to) of kids that are p's. */
static void kids_of(const struct kid *k, size_t n, const struct ng_slot *p,
		    size_t *from, size_t *to)
{
	int64_t id = slot_id(p->ad);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(k[mid].addr, p->addr);
		if (c < 0 || (c == 0 && k[mid].id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	*from = lo;
	while (lo < n && strcmp(k[lo].addr, p->addr) == 0 && k[lo].id == id)
		lo++;
	*to = lo;
}

/* ---- the combined ad --------------------------------------------------------- */

/* A number attribute: false when absent or not a number; *integral
 * cleared when it is not an integer. */
static bool number_attr(const classad *ad, const char *name, double *out,
			bool *integral)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	bool ok = true;
	if (v.type == CLASSAD_INTEGER)
		*out = (double)v.u.i;
	else if (v.type == CLASSAD_REAL)
		*out = v.u.r, *integral = false;
	else
		ok = false;
	classad_value_clear(&v);
	return ok && isfinite(*out);
}

/* The partitionable slot's ad with the resources of dynamic slots
 * kids[0..n) added (each resource the slot advertises), its weight
 * grown by theirs when it does not follow from the resources, and
 * RemoteUser and RemoteOwner saying that claims are preempted. */
static classad *combined(const struct ng_pool *pool, const struct ng_slot *p,
			 const size_t *kids, size_t n)
{
	classad *ad = classad_copy(p->ad);
	char names[32][64];
	size_t nn = ng_match_resources(p->ad, names, 32);
	for (size_t r = 0; r < nn; r++) {
		bool integral = true;
		double sum;
		if (!number_attr(p->ad, names[r], &sum, &integral))
			continue;
		for (size_t i = 0; i < n; i++) {
			double v;
			if (number_attr(pool->slot[kids[i]].ad, names[r], &v,
					&integral))
				sum += v;
		}
		if (integral)
			classad_insert_int(ad, names[r], (int64_t)sum);
		else
			classad_insert_real(ad, names[r], sum);
	}
	double before = ng_pool_weight(p->ad), kw = 0;
	for (size_t i = 0; i < n; i++)
		kw += ng_pool_weight(pool->slot[kids[i]].ad);
	if (n && ng_pool_weight(ad) == before)
		classad_insert_real(ad, "SlotWeight", before + kw);
	classad_insert_string(ad, "RemoteUser", VARIOUS);
	classad_insert_string(ad, "RemoteOwner", VARIOUS);
	return ad;
}

/* ---- the choice ------------------------------------------------------------- */

struct elig {
	size_t slot;
	enum ng_preempt kind;
	double current; /* CurrentRank */
	double prank;   /* PREEMPTION_RANK */
};

static int elig_cmp(const void *pa, const void *pb)
{
	const struct elig *a = pa, *b = pb;
	if (a->current != b->current)
		return a->current < b->current ? -1 : 1;
	if (a->prank != b->prank)
		return a->prank > b->prank ? -1 : 1;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Whether the job fits p with the dynamic slots of e chosen by use[]:
 * if so *out has them (out->ad, out->dslots, ...). */
static bool fits(ng_matcher *m, const classad *job, const struct ng_pool *pool,
		 const struct ng_slot *p, const struct elig *e,
		 const bool *use, size_t ne, struct ng_pslot_pick *out)
{
	size_t *kids = ks_xmalloc((ne ? ne : 1) * sizeof(*kids));
	size_t n = 0;
	enum ng_preempt kind = NG_RANK_PREEMPTION;
	for (size_t i = 0; i < ne; i++) {
		if (!use[i])
			continue;
		kids[n++] = e[i].slot;
		if (e[i].kind == NG_PRIO_PREEMPTION)
			kind = NG_PRIO_PREEMPTION;
	}
	classad *ad = combined(pool, p, kids, n);
	struct ng_rank rank;
	bool ok = n > 0 && ng_match_ranked(m, job, ad, kind, &rank);
	if (ok) {
		struct ng_slot tmp = *p;
		tmp.ad = ad;
		double cost;
		classad *left = ng_match_carve(m, job, &tmp, &cost);
		ok = left != NULL;
		classad_free(left);
	}
	if (!ok) {
		free(kids);
		classad_free(ad);
		return false;
	}
	ng_pslot_pick_clear(out);
	out->dslots = kids;
	out->n = n;
	out->kind = kind;
	out->ad = ad;
	out->rank = rank;
	return true;
}

static bool choose(ng_matcher *m, const classad *job, const char *submitter,
		   const struct ng_pool *pool, size_t p, const struct kid *k,
		   size_t from, size_t to, bool rank_only,
		   struct ng_pslot_pick *out)
{
	const struct ng_slot *ps = &pool->slot[p];
	struct elig *e = ks_xmalloc((to - from + 1) * sizeof(*e));
	size_t ne = 0;
	for (size_t i = from; i < to; i++) {
		const struct ng_slot *d = &pool->slot[k[i].slot];
		char *state = NULL;
		bool preempting =
			classad_eval_string(d->ad, "State", NULL, &state) &&
			strcasecmp(state, "Preempting") == 0;
		free(state);
		struct elig x = {k[i].slot, NG_PRIO_PREEMPTION, 0, 0};
		if (preempting || !ng_match_dslot(m, job, submitter, d,
						  rank_only, &x.kind, &x.prank))
			continue;
		if (!classad_eval_real(d->ad, "CurrentRank", NULL, &x.current) ||
		    !isfinite(x.current))
			x.current = 0;
		e[ne++] = x;
	}
	bool found = false;
	bool *use = ks_xcalloc(ne + 1, sizeof(*use));
	if (ne > 1)
		qsort(e, ne, sizeof(*e), elig_cmp);
	/* HTCondor's: one more at a time, in order, until the job fits */
	size_t last = 0;
	for (size_t i = 0; i < ne && !found; i++) {
		use[i] = true;
		found = fits(m, job, pool, ps, e, use, ne, out);
		last = i;
	}
	/* then each the job does without goes again, the last taken (the
	 * one preempting is least wanted of) first; the last one taken was
	 * needed */
	for (size_t i = last; found && i-- > 0;) {
		use[i] = false;
		if (!fits(m, job, pool, ps, e, use, ne, out))
			use[i] = true;
	}
	if (found) /* out holds the last set tried that fitted */
		fits(m, job, pool, ps, e, use, ne, out);
	free(use);
	free(e);
	return found;
}

/* Whether slot p may be had by pslot preemption at all. */
static bool pslot_ok(const struct ng_pool *pool, size_t p)
{
	const struct ng_slot *s = &pool->slot[p];
	return s->partitionable && s->offered && !s->taken && s->claim_id &&
	       s->addr;
}

bool ng_pslot_choose(ng_matcher *m, const classad *job, const char *submitter,
		     const struct ng_pool *pool, size_t p, bool rank_only,
		     struct ng_pslot_pick *out)
{
	ng_pslot_pick_clear(out);
	if (!want_it(job) || !pslot_ok(pool, p))
		return false;
	size_t nk, from, to;
	struct kid *k = claimed_kids(pool, &nk);
	kids_of(k, nk, &pool->slot[p], &from, &to);
	bool ok = from < to && choose(m, job, submitter, pool, p, k, from, to,
				      rank_only, out);
	free(k);
	return ok;
}

struct ng_cand *ng_pslot_candidates(ng_matcher *m, const classad *job,
				    const char *submitter,
				    const struct ng_pool *pool, bool rank_only,
				    struct ng_cand *cand, size_t *n)
{
	if (!want_it(job))
		return cand;
	size_t nk;
	struct kid *k = claimed_kids(pool, &nk);
	size_t have = *n;
	for (size_t p = 0; nk && p < pool->n; p++) {
		if (!pslot_ok(pool, p))
			continue;
		bool listed = false;
		for (size_t i = 0; i < have && !listed; i++)
			listed = cand[i].slot == p;
		size_t from, to;
		kids_of(k, nk, &pool->slot[p], &from, &to);
		if (listed || from == to)
			continue;
		struct ng_pslot_pick pk = {0};
		if (choose(m, job, submitter, pool, p, k, from, to, rank_only,
			   &pk)) {
			cand = ks_xrealloc(cand, (*n + 1) * sizeof(*cand));
			cand[(*n)++] = (struct ng_cand){p, pk.rank, true};
		}
		ng_pslot_pick_clear(&pk);
	}
	free(k);
	if (*n > have && *n > 1)
		qsort(cand, *n, sizeof(*cand), ng_cand_cmp);
	return cand;
}

classad *ng_pslot_carve(ng_matcher *m, const classad *job,
			const struct ng_pslot_pick *pk, double *cost)
{
	struct ng_slot tmp = {.ad = pk->ad, .partitionable = true};
	return ng_match_carve(m, job, &tmp, cost);
}

char *ng_pslot_claims(const struct ng_pool *pool,
		      const struct ng_pslot_pick *pk)
{
	size_t len = 1;
	for (size_t i = 0; i < pk->n; i++)
		len += strlen(pool->slot[pk->dslots[i]].claim_id) + 1;
	char *out = ks_xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < pk->n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, pool->slot[pk->dslots[i]].claim_id);
	}
	return out;
}

void ng_pslot_commit(struct ng_pool *pool, size_t p,
		     const struct ng_pslot_pick *pk, classad *left)
{
	for (size_t i = 0; i < pk->n; i++)
		pool->slot[pk->dslots[i]].taken = true;
	pool->slot[p].taken = true;
	if (left) {
		classad_delete(left, "RemoteUser");
		classad_delete(left, "RemoteOwner");
	}
}
