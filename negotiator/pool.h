/*
 * pool.h: the slots one negotiation cycle works on: each public slot ad
 * from the collector with the claim id of its private ad, its weight,
 * and what the cycle has done to it.
 *
 * A slot is matched at most once per cycle, except a partitionable slot,
 * which is matched as long as what is left of it matches: each match
 * carves the request off the cycle's own copy of its ad (match.h), and
 * each uses the slot's one claim id, as the startd keeps it across
 * carves.
 */
#ifndef NG_POOL_H
#define NG_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"

struct ng_slot {
	classad *ad;        /* the slot's ad: the collector's, or after a
			     * carve the cycle's copy (a reference, owned) */
	char *name;         /* Name */
	char *claim_id;     /* from the private ad; NULL: cannot be matched */
	char *addr;         /* MyAddress, for MATCH_INFO */
	char *charged;      /* AccountingGroup, else RemoteUser, else
			     * RemoteOwner, of a Claimed or Preempting slot
			     * (whose usage it is); NULL otherwise */
	char *remote;       /* whom preempting the slot would take it
			     * from: the claim waiting for it
			     * (PreemptingAccountingGroup, else
			     * PreemptingUser), else charged; NULL when
			     * charged is */
	bool offered;       /* free: a candidate without preemption */
	bool partitionable; /* PartitionableSlot */
	bool taken;         /* matched (static), or nothing left (pslot) */
	bool retiring;      /* claimed, its job still has retirement time:
			     * not preempted without early preemption */
	double weight;      /* SlotWeight (1 without NEGOTIATOR_USE_SLOT_WEIGHTS) */
	unsigned matches;   /* this cycle */
};

struct ng_pool {
	struct ng_slot *slot;
	size_t n;
	double total_weight; /* the pie: every slot's weight */
	double min_weight;   /* the smallest (> 0), 1 if none */
	size_t claimed;      /* slots with a remote user */
	size_t offered;      /* free slots (ng_pool_offered()) */
	size_t no_claim_id;  /* slots whose private ad was missing */
	size_t retiring;     /* claimed slots left alone while their job
			      * retires */
};

struct ng_pool_opts {
	bool use_slot_weights;             /* NEGOTIATOR_USE_SLOT_WEIGHTS */
	const classad_expr *slot_constraint; /* NEGOTIATOR_SLOT_CONSTRAINT
					      * (NULL: every slot) */
	bool early_preemption; /* NEGOTIATOR_CONSIDER_EARLY_PREEMPTION: a
				* slot whose job has RetirementTimeRemaining
				* may be preempted (it goes on retiring) */
};

/* Builds p from the public and private slot ads of a query (the private
 * ads found by Name; references are taken, the arrays stay the
 * caller's).  Slots failing the constraint are left out.  p starts
 * zeroed or cleared. */
void ng_pool_build(struct ng_pool *p, classad *const *pub, size_t npub,
		   classad *const *pvt, size_t npvt,
		   const struct ng_pool_opts *o);
void ng_pool_clear(struct ng_pool *p);

/* The weight a slot ad counts for: its SlotWeight, 1 when absent or
 * negative. */
double ng_pool_weight(const classad *ad);

/* A slot's claimer whose usage it is: AccountingGroup, else RemoteUser,
 * else RemoteOwner (the names HTCondor's startd gives it), of a Claimed
 * or Preempting slot.  New string (free()) or NULL.  A slot that a
 * better claim waits for (retiring for it) also says who that is
 * (Preempting...) and its rank (PreemptingRank): the build takes them
 * as the slot's user and CurrentRank, as HTCondor's negotiator does, so
 * that a new preemption must beat the waiting one. */
char *ng_pool_remote(const classad *ad);

/* Whether a slot that no one claims is offered to jobs without
 * preemption: as HTCondor's startd offers its slots, one in the
 * Unclaimed or Backfill state (or an ad that names no State).  A slot
 * in the Owner, Matched, Drained, Claimed or Preempting state is not
 * free, whatever its Requirements say. */
bool ng_pool_offered(const classad *ad);

#endif
