/*
 * pool.c: the cycle's slots (pool.h).  Private ads are joined to public
 * ones through a sorted index of names: tens of thousands of slots, one
 * sort.
 */
#include "pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"

double ng_pool_weight(const classad *ad)
{
	double w = 1;
	if (!classad_eval_real(ad, "SlotWeight", NULL, &w) || !(w >= 0) ||
	    !isfinite(w))
		w = 1;
	return w;
}

char *ng_pool_remote(const classad *ad)
{
	char *state = classad_eval_string_dup(ad, "State");
	bool busy = state && (strcasecmp(state, "Claimed") == 0 ||
			      strcasecmp(state, "Preempting") == 0);
	free(state);
	if (!busy)
		return NULL;
	char *who = classad_eval_string_dup(ad, "AccountingGroup");
	if (!who)
		who = classad_eval_string_dup(ad, "RemoteUser");
	return who ? who : classad_eval_string_dup(ad, "RemoteOwner");
}

bool ng_pool_offered(const classad *ad)
{
	char *state = classad_eval_string_dup(ad, "State");
	bool free_slot = !state || strcasecmp(state, "Unclaimed") == 0 ||
			 strcasecmp(state, "Backfill") == 0;
	free(state);
	return free_slot;
}

/* The slot's ad for the cycle, and in *remote whom a preemption takes
 * it from (pool.h). */
static classad *waiting_claim(classad *ad, const char *charged,
			      char **remote)
{
	*remote = NULL;
	if (!charged)
		return classad_ref(ad);
	*remote = classad_eval_string_dup(ad, "PreemptingAccountingGroup");
	if (!*remote)
		*remote = classad_eval_string_dup(ad, "PreemptingUser");
	if (!*remote)
		*remote = ks_xstrdup(charged);
	double rank;
	if (!classad_eval_real(ad, "PreemptingRank", NULL, &rank))
		return classad_ref(ad);
	classad *copy = classad_copy(ad);
	classad_insert_real(copy, "CurrentRank", rank);
	return copy;
}

struct pvt_ref {
	char *name;
	const classad *ad;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pvt_ref *)a)->name,
		      ((const struct pvt_ref *)b)->name);
}

static bool passes(const classad *ad, const classad_expr *constraint)
{
	if (!constraint)
		return true;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, constraint, NULL, &v);
	bool ok = false;
	bool b;
	if (classad_value_bool(&v, &b))
		ok = b;
	classad_value_clear(&v);
	return ok;
}

void ng_pool_build(struct ng_pool *p, classad *const *pub, size_t npub,
		   classad *const *pvt, size_t npvt,
		   const struct ng_pool_opts *o)
{
	memset(p, 0, sizeof(*p));
	struct pvt_ref *idx = ks_xmalloc((npvt ? npvt : 1) * sizeof(*idx));
	size_t nidx = 0;
	for (size_t i = 0; i < npvt; i++) {
		char *name = classad_eval_string_dup(pvt[i], "Name");
		if (name)
			idx[nidx++] = (struct pvt_ref){name, pvt[i]};
	}
	qsort(idx, nidx, sizeof(*idx), by_name);
	p->slot = ks_xcalloc(npub ? npub : 1, sizeof(*p->slot));
	p->min_weight = 0;
	for (size_t i = 0; i < npub; i++) {
		if (!passes(pub[i], o->slot_constraint))
			continue;
		char *name = classad_eval_string_dup(pub[i], "Name");
		if (!name)
			continue; /* no name, no claim id: not a slot ad */
		struct ng_slot *s = &p->slot[p->n++];
		s->name = name;
		s->addr = classad_eval_string_dup(pub[i], "MyAddress");
		s->charged = ng_pool_remote(pub[i]);
		s->ad = waiting_claim(pub[i], s->charged, &s->remote);
		bool b = false;
		s->partitionable = classad_eval_bool(pub[i], "PartitionableSlot",
						     NULL, &b) && b;
		s->weight = o->use_slot_weights ? ng_pool_weight(pub[i]) : 1;
		struct pvt_ref key = {name, NULL};
		struct pvt_ref *hit = bsearch(&key, idx, nidx, sizeof(*idx),
					      by_name);
		if (hit) {
			s->claim_id = classad_eval_string_dup(hit->ad,
							      "ClaimId");
			if (!s->claim_id)
				s->claim_id = classad_eval_string_dup(
					hit->ad, "Capability");
		}
		if (!s->claim_id)
			p->no_claim_id++;
		s->offered = !s->remote && ng_pool_offered(pub[i]);
		int64_t retire = 0;
		s->retiring = s->remote && !o->early_preemption &&
			      classad_eval_int(pub[i], "RetirementTimeRemaining",
					       NULL, &retire) &&
			      retire > 0;
		p->retiring += s->retiring;
		if (s->remote)
			p->claimed++;
		if (s->offered)
			p->offered++;
		p->total_weight += s->weight;
		if (s->weight > 0 &&
		    (p->min_weight == 0 || s->weight < p->min_weight))
			p->min_weight = s->weight;
	}
	if (p->min_weight == 0)
		p->min_weight = 1;
	for (size_t i = 0; i < nidx; i++)
		free(idx[i].name);
	free(idx);
}

void ng_pool_clear(struct ng_pool *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct ng_slot *s = &p->slot[i];
		classad_free(s->ad);
		free(s->name);
		free(s->claim_id);
		free(s->addr);
		free(s->remote);
		free(s->charged);
	}
	free(p->slot);
	memset(p, 0, sizeof(*p));
}
