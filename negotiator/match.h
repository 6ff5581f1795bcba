/*
 * match.h: which slots a resource request may have, and in what order.
 *
 * A request (one autocluster's representative job ad) and a slot match
 * when both Requirements hold, each ad seeing the other as TARGET.
 * Among the slots that match, HTCondor takes the best by comparing, in
 * turn and the higher the better:
 *   1. NEGOTIATOR_PRE_JOB_RANK (evaluated in the slot, the job as TARGET),
 *   2. the job's Rank of the slot,
 *   3. NEGOTIATOR_POST_JOB_RANK,
 *   4. the kind of match: no preemption, then rank preemption (the slot
 *      prefers this job to its current one), then priority preemption,
 *   5. PREEMPTION_RANK, for a preempting match.
 * Pre, post and preemption ranks are single-precision, as HTCondor
 * evaluates them; an expression that is not configured or does not
 * evaluate to a number ranks lowest.
 *
 * A free slot (pool.h) is a candidate without preemption.  A claimed
 * one, with NEGOTIATOR_CONSIDER_PREEMPTION, is a rank preemption when
 * the slot prefers the job to the one it runs (MY.Rank > MY.CurrentRank,
 * the job as TARGET); otherwise, when another submitter holds it, a
 * priority preemption when PREEMPTION_REQUIREMENTS is true (the slot as
 * MY, the job as TARGET, with the attributes the cycle inserts:
 * RemoteUserPrio and RemoteUserResourcesInUse in the slot,
 * SubmitterUserPrio and SubmitterUserResourcesInUse in the job) and the
 * slot ranks the job at least as high as its own (MY.Rank >=
 * MY.CurrentRank), as HTCondor's negotiator decides.
 *
 * A partitionable slot matched by a request is carved: the request's
 * share of each resource (the slot's Consumption<res> when it has a
 * consumption policy, else MODIFY_REQUEST_EXPR_REQUEST<res> of the job
 * for Cpus, Memory and Disk as the startd rounds them, else the job's
 * Request<res>) is taken off the cycle's copy of the slot's ad, which is
 * then matched again.
 */
#ifndef NG_MATCH_H
#define NG_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "ks_err.h"
#include "pool.h"

enum ng_preempt {
	NG_PRIO_PREEMPTION = 0,
	NG_RANK_PREEMPTION = 1,
	NG_NO_PREEMPTION = 2,
};

struct ng_rank {
	double pre;            /* NEGOTIATOR_PRE_JOB_RANK */
	double job;            /* the job's Rank (0 when it has none) */
	double post;           /* NEGOTIATOR_POST_JOB_RANK */
	enum ng_preempt kind;
	double preempt;        /* PREEMPTION_RANK (lowest if not preempting) */
};

/* >0 if a is the better candidate, <0 if b is, 0 for a tie. */
int ng_rank_cmp(const struct ng_rank *a, const struct ng_rank *b);

/* The expressions that decide (configuration text; NULL or "": none). */
struct ng_match_conf {
	const char *pre_job_rank;     /* NEGOTIATOR_PRE_JOB_RANK */
	const char *post_job_rank;    /* NEGOTIATOR_POST_JOB_RANK */
	const char *preemption_rank;  /* PREEMPTION_RANK */
	const char *preemption_req;   /* PREEMPTION_REQUIREMENTS */
	const char *modify_cpus;      /* MODIFY_REQUEST_EXPR_REQUESTCPUS */
	const char *modify_memory;    /* MODIFY_REQUEST_EXPR_REQUESTMEMORY */
	const char *modify_disk;      /* MODIFY_REQUEST_EXPR_REQUESTDISK */
	const char *slot_weight;      /* SLOT_WEIGHT, for carves of a slot
				       * that publishes a fixed weight */
	bool use_slot_weights;        /* NEGOTIATOR_USE_SLOT_WEIGHTS */
	bool consider_preemption;     /* NEGOTIATOR_CONSIDER_PREEMPTION */
};

typedef struct ng_matcher ng_matcher;

/* A matcher for conf.  An expression that does not parse is left out
 * and the first such is named in err (the matcher is still made: *bad
 * set); PREEMPTION_REQUIREMENTS that does not parse is taken as false,
 * so that no slot is preempted by priority. */
ng_matcher *ng_matcher_new(const struct ng_match_conf *conf, bool *bad,
			   struct ks_err *err);
void ng_matcher_free(ng_matcher *m);

/* Expressions that evaluated to something unusable (an error, a string
 * where a number or boolean was needed; undefined is not one): each is
 * reported once in the matcher's life, by the first call after it
 * happened.  Returns the new NG_MATCH_WARN_* bits. */
enum {
	NG_MATCH_WARN_PRE_RANK = 1,  /* NEGOTIATOR_PRE_JOB_RANK */
	NG_MATCH_WARN_POST_RANK = 2, /* NEGOTIATOR_POST_JOB_RANK */
	NG_MATCH_WARN_PRANK = 4,     /* PREEMPTION_RANK */
	NG_MATCH_WARN_PREQ = 8,      /* PREEMPTION_REQUIREMENTS */
};
unsigned ng_matcher_warnings(ng_matcher *m);

/* Whether job (of submitter) and slot s match as things stand; if so
 * *out gets the ranks.  rank_only: only a slot that strictly prefers
 * this job to its current one may be had (no unclaimed slot, then). */
bool ng_match_one(ng_matcher *m, const classad *job, const char *submitter,
		  const struct ng_slot *s, bool rank_only,
		  struct ng_rank *out);

struct ng_cand {
	size_t slot;          /* index in the pool */
	struct ng_rank rank;
	bool pslot;           /* a partitionable slot with dynamic slots to
			       * preempt (pslot_preempt.h) */
};

/* qsort() order of candidates: the best first, ties in the pool's
 * order. */
int ng_cand_cmp(const void *a, const void *b);

/* Every slot of pool (not taken, with a claim id) that matches job,
 * best first (ties in the pool's order).  Returns a new array (free())
 * of *n candidates. */
struct ng_cand *ng_match_candidates(ng_matcher *m, const classad *job,
				    const char *submitter,
				    const struct ng_pool *pool,
				    bool rank_only, size_t *n);

/* The resources a partitionable slot hands out: the names in its
 * MachineResources less Swap, else Cpus, Memory and Disk; at most max
 * into names (each shorter than 64).  Returns how many. */
size_t ng_match_resources(const classad *slot, char names[][64], size_t max);

/* What is left of partitionable slot s once job's share is taken off:
 * a new ad (classad_free()) to take the place of s->ad, and in *cost
 * the slot weight the match uses.  NULL when the slot lacks something
 * the job needs. */
classad *ng_match_carve(ng_matcher *m, const classad *job,
			const struct ng_slot *s, double *cost);

/* For pslot preemption (pslot_preempt.h): whether claimed dynamic slot
 * s may be preempted for job, its size aside, by the same tests as a
 * claimed slot in ng_match_one() (rank, else priority under
 * PREEMPTION_REQUIREMENTS); *kind tells which, and *prank its
 * PREEMPTION_RANK. */
bool ng_match_dslot(ng_matcher *m, const classad *job, const char *submitter,
		    const struct ng_slot *s, bool rank_only,
		    enum ng_preempt *kind, double *prank);

/* Whether job and slot ad match (both Requirements); if so *out gets the
 * ranks of a match of that kind. */
bool ng_match_ranked(ng_matcher *m, const classad *job, const classad *slot,
		     enum ng_preempt kind, struct ng_rank *out);

#endif
