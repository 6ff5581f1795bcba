/*
 * sc_run.h: running jobs: claims on startds, activation, keep-alives,
 * the job's end (run.c; the claim itself: claim.c).
 */
#ifndef SC_RUN_H
#define SC_RUN_H

#include "sc_schedd.h"

void sc_run_start(struct sc_schedd *s);
void sc_run_reconfig(struct sc_schedd *s);
/* Releases every claim (jobs back to Idle; fast: without waiting). */
void sc_run_shutdown(struct sc_schedd *s, bool fast);
void sc_run_free_all(struct sc_schedd *s);

/* A match from the negotiator: claims slot (its public ad) with claim_id
 * for job, then runs it.  dslot_claims (NULL for none): the capabilities
 * of the slot's dynamic slots the claim preempts ("id1 id2", from the
 * negotiator's PreemptDslotClaims), passed on to the startd.  Returns 0,
 * or an error (logged) and the job stays Idle. */
int sc_run_match(struct sc_schedd *s, struct sc_job *j, const char *claim_id,
		 const char *dslot_claims, const classad *slot);

/* Stops a running job because of a command (condor_rm, condor_hold):
 * the job has already been given its new status; its run ends and the
 * claim is released. */
void sc_run_stop(struct sc_schedd *s, struct sc_job *j);

/* condor_rm -forcex of a running job: the job leaves its run now (the
 * caller retires it); the run is ended forcibly on its startd and its
 * claim released without it. */
void sc_run_abandon(struct sc_schedd *s, struct sc_job *j);

/* What a job's end means for it: usage recorded, then completed (exit
 * policy), held, requeued or retired (a removal while it ran), with its
 * events.  where names the slot for the log; r and files: the run and
 * the output files that came back (NULL and 0 for a local job). */
void sc_run_job_end(struct sc_schedd *s, struct sc_job *j, const char *where,
		    const classad *res, struct sc_run *r,
		    classad *const *files, size_t nfiles);

#endif
