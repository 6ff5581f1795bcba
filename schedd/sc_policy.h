/*
 * sc_policy.h: the schedd's policy on what it accepts (seed 004): job
 * transforms (JOB_TRANSFORM_NAMES, transform.c) applied in order to every
 * job, then submit requirements and warnings (SUBMIT_REQUIREMENT_NAMES,
 * policy.c), evaluated with the schedd's ad as MY and the job as TARGET.
 */
#ifndef SC_POLICY_H
#define SC_POLICY_H

#include "sc_schedd.h"

/* Applies the policy to a cluster about to be queued: procs[i] are
 * chained to cl_ad.  Transforms change the proc ads.  Returns 0 (with
 * *warnings a new string when a warning failed: the last one, as
 * HTCondor reports it), or KS_EPERM with err holding the first failed
 * requirement's reason: the whole cluster is refused. */
int sc_policy_submit(struct sc_schedd *s, classad *cl_ad, classad **procs,
		     size_t n, char **warnings, struct ks_err *err);

/* Re-reads the policy's knobs (at start and reconfig). */
void sc_policy_reconfig(struct sc_schedd *s);
void sc_policy_free(struct sc_schedd *s);

#endif
