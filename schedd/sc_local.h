/*
 * sc_local.h: local and scheduler universe jobs, run on the submit host
 * by the schedd itself (local.c).
 */
#ifndef SC_LOCAL_H
#define SC_LOCAL_H

#include "sc_schedd.h"

/* Whether the job runs on the submit host (JobUniverse 12 or 7). */
bool sc_local_universe(const struct sc_job *j);

/* Starts every idle local job (after a submission, a release, and
 * every second). */
void sc_local_start_idle(struct sc_schedd *s);

/* Soft-kills a running local job (condor_rm, condor_hold); its end is
 * handled when its starter exits. */
void sc_local_stop(struct sc_schedd *s, struct sc_job *j);

/* The job is going away (retired, the schedd ending): its starter's end
 * is no longer reported to it. */
void sc_local_forget(struct sc_job *j);

/* The schedd is ending: running local jobs are soft-killed and go back
 * to Idle (they run again when it returns). */
void sc_local_shutdown(struct sc_schedd *s);

#endif
