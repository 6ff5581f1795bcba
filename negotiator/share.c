/*
 * share.c: the pie (share.h).  A cycle has a handful to a few thousand
 * submitters; everything here is linear or n log n in them.
 */
#include "share.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

/* Whether subs[i] is the first active submitter of its name: a user
 * submitting from several schedds counts once in the normalisation. */
static bool first_of_name(const struct ng_share_sub *subs, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (subs[j].active && subs[j].name && subs[i].name &&
		    strcmp(subs[j].name, subs[i].name) == 0)
			return false;
	return true;
}

static double one_limit(const struct ng_share_sub *s, double norm,
			double total, bool ignore_prios, double *share)
{
	*share = norm > 0 && s->prio > 0 ? (1.0 / s->prio) / norm : 0;
	if (ignore_prios)
		return DBL_MAX;
	double limit = *share * total - s->usage;
	return limit < 0 ? 0 : limit;
}

static double norm_of(const struct ng_share_sub *subs, size_t n)
{
	double norm = 0;
	for (size_t i = 0; i < n; i++)
		if (subs[i].active && subs[i].prio > 0 &&
		    first_of_name(subs, i))
			norm += 1.0 / subs[i].prio;
	return norm;
}

double ng_share_limits(struct ng_share_sub *subs, size_t n, double total,
		       bool ignore_prios)
{
	double norm = norm_of(subs, n), pie = 0;
	for (size_t i = 0; i < n; i++) {
		struct ng_share_sub *s = &subs[i];
		if (!s->active)
			continue;
		s->limit = one_limit(s, norm, total, ignore_prios, &s->share);
		s->starvation = s->usage + s->limit > 0
					? s->usage / (s->usage + s->limit)
					: FLT_MAX;
		pie = ignore_prios ? DBL_MAX : pie + s->limit;
	}
	return pie;
}

/* What the order reads of a submitter, carried along so that the sort
 * needs no context. */
struct key {
	double prio, starvation;
	size_t idx;
};

static int by_priority(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	if (a->prio != b->prio)
		return a->prio < b->prio ? -1 : 1;
	if (a->starvation != b->starvation)
		return a->starvation < b->starvation ? -1 : 1;
	/* equal submitters keep their order in the input */
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void ng_share_order(const struct ng_share_sub *subs, size_t n, size_t *idx)
{
	struct key *k = ks_xmalloc((n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++)
		k[i] = (struct key){subs[i].prio, subs[i].starvation, i};
	qsort(k, n, sizeof(*k), by_priority);
	for (size_t i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
}

int ng_share_pie(struct ng_share_sub *subs, size_t n,
		 const struct ng_share_opts *o, ng_share_fn fn, void *arg)
{
	int max_spins = o->max_spins > 0 ? o->max_spins : 100;
	size_t *order = ks_xmalloc((n ? n : 1) * sizeof(*order));
	for (size_t i = 0; i < n; i++)
		subs[i].active = o->consider_preemption || subs[i].idle;
	int spin = 0;
	double pie, pie_orig;
	size_t active, active_orig;
	do {
		spin++;
		/* past its limit in the first spin, a submitter may still
		 * take slots whose owners prefer it (startd rank) */
		bool rank_only = spin == 1 && o->consider_preemption;
		if (o->spin_ok && !o->spin_ok(arg, spin))
			break;
		pie = ng_share_limits(subs, n, o->total, o->ignore_prios);
		if (!o->consider_preemption && pie <= 0)
			break;
		if (spin == 1)
			ng_share_order(subs, n, order);
		pie_orig = pie;
		active_orig = 0;
		for (size_t i = 0; i < n; i++)
			active_orig += subs[i].active;
		double norm = norm_of(subs, n);
		for (size_t k = 0; k < n; k++) {
			struct ng_share_sub *s = &subs[order[k]];
			if (!s->active)
				continue;
			/* the same name may have been served already this
			 * spin (another schedd): its usage grew */
			s->limit = one_limit(s, norm, o->total, o->ignore_prios,
					     &s->share);
			double limit = s->limit > pie ? pie : s->limit;
			enum ng_share_result r;
			if (!s->idle)
				r = NG_SHARE_DONE;
			else if (spin > 1 && (limit < o->min_weight ||
					      pie < o->min_weight))
				r = NG_SHARE_RESUME;
			else
				r = fn(arg, order[k], limit, spin, rank_only,
				       &pie);
			if (r != NG_SHARE_RESUME)
				s->active = false;
		}
		active = 0;
		for (size_t i = 0; i < n; i++)
			active += subs[i].active;
	} while ((pie < pie_orig || active < active_orig) && active > 0 &&
		 spin < max_spins);
	free(order);
	return spin;
}
