/*
 * pslot_preempt.h: partitionable-slot preemption (ALLOW_PSLOT_PREEMPTION),
 * as HTCondor's negotiator has it: a partitionable slot and its dynamic
 * slots are one candidate for a request that the partitionable slot
 * alone does not match (what is left of it is too small).  Its claimed
 * dynamic slots that may be preempted for the job (ng_match_dslot():
 * the slot prefers the job, or ranks it as high and
 * PREEMPTION_REQUIREMENTS holds for another submitter's job; none in
 * the Preempting state) are taken in HTCondor's order, the lowest
 * CurrentRank first (then, kestrel's tie-break, the highest
 * PREEMPTION_RANK, then the collector's order), one more at a time
 * until their resources added to what the partitionable slot has left
 * match the job (both Requirements) and hold the job's share (its
 * Request<res>, or the slot's Consumption<res>).  Unlike HTCondor,
 * kestrel then drops again, the last taken first, each one the job can
 * do without, so that no dynamic slot is preempted for nothing.
 *
 * The request must say it can take such a match (WantPslotPreemption,
 * which the schedd sets, as HTCondor's does).  The match carries the
 * preempting capabilities of the dynamic slots chosen, for the startd
 * (PreemptDslotClaims).
 */
#ifndef NG_PSLOT_PREEMPT_H
#define NG_PSLOT_PREEMPT_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "match.h"
#include "pool.h"

/* What a partitionable slot's preemption would be. */
struct ng_pslot_pick {
	size_t *dslots;        /* pool indices of the dynamic slots (owned) */
	size_t n;
	enum ng_preempt kind;  /* priority if any of them is by priority */
	classad *ad;           /* the partitionable slot's ad with their
				* resources added: what the job is matched
				* against (owned) */
	struct ng_rank rank;
};

void ng_pslot_pick_clear(struct ng_pslot_pick *pk);

/* The dynamic slots of pool slot p to preempt for job (of submitter),
 * in *out (cleared first).  False when p is not a free partitionable
 * slot, job does not want such matches, or no choice fits. */
bool ng_pslot_choose(ng_matcher *m, const classad *job, const char *submitter,
		     const struct ng_pool *pool, size_t p, bool rank_only,
		     struct ng_pslot_pick *out);

/* Adds to cand (a malloc'd array of *n, as ng_match_candidates() makes
 * it) a candidate (pslot set) for each partitionable slot not already
 * there that ng_pslot_choose() finds a choice for, and sorts it again,
 * best first.  Returns the array (realloc'd). */
struct ng_cand *ng_pslot_candidates(ng_matcher *m, const classad *job,
				    const char *submitter,
				    const struct ng_pool *pool, bool rank_only,
				    struct ng_cand *cand, size_t *n);

/* What is left of the pick's combined ad once job's share is taken off
 * (ng_match_carve()): a new ad, and in *cost the weight of the match;
 * NULL when the job does not fit. */
classad *ng_pslot_carve(ng_matcher *m, const classad *job,
			const struct ng_pslot_pick *pk, double *cost);

/* The capabilities of the pick's dynamic slots, "id1 id2" (new string,
 * free()). */
char *ng_pslot_claims(const struct ng_pool *pool,
		      const struct ng_pslot_pick *pk);

/* The match is made: the pick's dynamic slots and the partitionable slot
 * are taken for the rest of the cycle (the startd keeps the slot for the
 * preempting claim until it has it), and left, what the carve left of
 * the pick's ad, loses what the pick put in it for the ranks. */
void ng_pslot_commit(struct ng_pool *pool, size_t p,
		     const struct ng_pslot_pick *pk, classad *left);

#endif
