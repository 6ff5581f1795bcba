/*
 * share.h: fair share, as HTCondor's negotiator spins the pie.
 *
 * Each submitter's share of the pool is proportional to 1 / its
 * effective priority:  share = (1/prio) / sum over submitters of
 * (1/prio), counting each name once.  Its limit in a spin is
 * share * (pool's total slot weight) - what it already uses (never
 * below 0).  Submitters are negotiated with in order of priority; one
 * that got all it asked for leaves the pie, and the pie is spun again
 * over those still wanting, whose shares then grow, until a spin
 * changes nothing.  So a submitter gets its share or what it asks for,
 * whichever is less, and the leftovers go to those who want more.
 *
 * This module holds the arithmetic and the spins; the negotiation with
 * each submitter is the caller's callback, which a test can replace by
 * a fixed demand.
 */
#ifndef NG_SHARE_H
#define NG_SHARE_H

#include <stdbool.h>
#include <stddef.h>

struct ng_share_sub {
	const char *name;  /* submitters with one name share one portion */
	double prio;       /* effective priority (> 0) */
	double usage;      /* weighted slots in use, matches of this cycle
			    * included (the callback adds its own) */
	double starvation; /* usage / (usage + limit), for the order */
	double share;      /* out: share of the pool, this spin */
	double limit;      /* out: weight it may take this spin */
	bool idle;         /* has idle jobs to ask for */
	bool active;       /* still in the pie (kept by ng_share_pie) */
};

/* Computes share and limit of every active submitter for a pool of
 * total weight; ignore_prios (NEGOTIATOR_IGNORE_USER_PRIORITIES) makes
 * every limit unbounded.  Returns the pie left: the sum of the limits. */
double ng_share_limits(struct ng_share_sub *subs, size_t n, double total,
		       bool ignore_prios);

/* Orders submitters for negotiation: lowest priority value first, then
 * the least starved; idx receives the indices of subs. */
void ng_share_order(const struct ng_share_sub *subs, size_t n, size_t *idx);

enum ng_share_result {
	NG_SHARE_DONE,   /* got all it wanted (or has nothing to ask) */
	NG_SHARE_RESUME, /* stopped at its limit: may take more next spin */
	NG_SHARE_ERROR,  /* could not negotiate: out for this cycle */
};

/* Negotiates with subs[i] for up to limit weight, in spin spin (from
 * 1).  Adds what it matched to subs[i].usage and takes it off *pie_left.
 * rank_only: past its limit it may still take slots whose owner
 * prefers it (rank preemption, first spin only). */
typedef enum ng_share_result (*ng_share_fn)(void *arg, size_t i,
					    double limit, int spin,
					    bool rank_only, double *pie_left);

struct ng_share_opts {
	double total;             /* the pool's total slot weight */
	double min_weight;        /* smallest slot weight in the pool */
	bool consider_preemption; /* NEGOTIATOR_CONSIDER_PREEMPTION */
	bool ignore_prios;        /* NEGOTIATOR_IGNORE_USER_PRIORITIES */
	int max_spins;            /* safety net; <= 0: 100 */
	/* NULL, or asked before each spin whether to go on (a group that
	 * reached its quota halts its pie); arg is ng_share_pie()'s */
	bool (*spin_ok)(void *arg, int spin);
};

/* Spins the pie over subs until a spin changes nothing.  Every
 * submitter takes part, as in HTCondor: one without idle jobs still
 * holds its share in the first spin when preemption is considered (its
 * running jobs keep their slots), else it is left out from the start.
 * The order of the first spin stands for the whole cycle.  Returns the
 * number of spins. */
int ng_share_pie(struct ng_share_sub *subs, size_t n,
		 const struct ng_share_opts *o, ng_share_fn fn, void *arg);

#endif
