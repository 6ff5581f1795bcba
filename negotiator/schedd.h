/*
 * schedd.h: the negotiator's side of one submitter's negotiation with
 * its schedd (docs/schedd.md):
 *
 *   negotiator                      schedd
 *   NEGOTIATE [Submitter]      ->
 *                              <-   OK, one ad per autocluster of the
 *                                   submitter's idle jobs (AutoClusterId,
 *                                   ResourceRequestCount, the job's
 *                                   attributes)
 *   ... matchmaking (the connection waits) ...
 *   PERMISSION_AND_AD          ->   pairs: [AutoClusterId, ClaimId,
 *                                   Submitter], the slot's public ad;
 *                                   or for a request no slot was found
 *                                   for, [AutoClusterId, RejectReason,
 *                                   Submitter], []
 *                              <-   OK
 *
 * all on one connection.  The matches of one turn go in one message,
 * or in several (each answered) when one would exceed the wire's
 * limit.  Every wait is bounded by the time-out given; a schedd
 * that does not answer, answers with an error or sends ads that make no
 * sense costs this submitter its cycle and nothing else.
 */
#ifndef NG_SCHEDD_H
#define NG_SCHEDD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"

struct ng_request {
	classad *ad;       /* the representative job ad (owned) */
	int64_t autocluster;
	int64_t cluster, proc; /* ClusterId, ProcId (-1 when absent) */
	int64_t count;     /* jobs it still stands for this cycle */
	bool done;         /* no slot left for it this cycle */
};

typedef struct ng_schedd ng_schedd;

/* Connects to the schedd at addr, asks for submitter's requests (telling
 * it sig_attrs, the job attributes the slots read, as AutoClusterAttrs;
 * NULL for none) and reads them.  Ads without an integer AutoClusterId are dropped (counted
 * in *bad); a missing or non-positive ResourceRequestCount counts 1, as
 * HTCondor's schedd means by it.  Returns 0 and *out (ng_schedd_free()),
 * or a KS_E* code with err saying what went wrong. */
int ng_schedd_negotiate(const ks_config *cfg, const char *addr,
			const char *submitter, const char *sig_attrs,
			int timeout_ms,
			ng_schedd **out, size_t *bad, struct ks_err *err);

/* The requests, in the schedd's order.  Borrowed. */
size_t ng_schedd_count(const ng_schedd *s);
struct ng_request *ng_schedd_request(ng_schedd *s, size_t i);

/* Records a match to send: a job of autocluster on the slot whose ad
 * and claim id are given (copied / referenced). */
void ng_schedd_add_match(ng_schedd *s, int64_t autocluster,
			 const char *claim_id, const classad *slot);
/* ... a match that preempts dynamic slots of the partitionable slot
 * (pslot_preempt.h): their capabilities, "id1 id2", go with it as
 * PreemptDslotClaims, for the schedd to hand to the startd. */
void ng_schedd_add_match_dslots(ng_schedd *s, int64_t autocluster,
				const char *claim_id, const classad *slot,
				const char *dslot_claims);
size_t ng_schedd_matches(const ng_schedd *s);

/* Records why autocluster's request was not matched ("no match found",
 * "concurrency limit sw reached", ...), for the schedd to tell its job
 * (LastRejMatchReason), as HTCondor's REJECTED_WITH_REASON does. */
void ng_schedd_add_rejection(ng_schedd *s, int64_t autocluster,
			     const char *reason);

/* Sends the matches (nothing when there are none) and reads the
 * answers, then closes the connection.  Returns 0 or a KS_E* code with
 * err filled. */
int ng_schedd_finish(ng_schedd *s, struct ks_err *err);

void ng_schedd_free(ng_schedd *s);

#endif
