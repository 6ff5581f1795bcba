/*
 * sc_run_int.h: a run's inside, shared by run.c (activation,
 * keep-alives, the job's end, reconnection, stopping, shutdown) and
 * claim.c (REQUEST_CLAIM and its answer or time-out).  Not for the rest
 * of the schedd, which goes through sc_run.h.
 */
#ifndef SC_RUN_INT_H
#define SC_RUN_INT_H

#include "ks_call.h"
#include "sc_schedd.h"

/* R_ACTIVATING: ACTIVATE_CLAIM sent, its first answer not yet come */
enum run_state {
	R_CLAIMING,
	R_IDLE,
	R_ACTIVATING,
	R_ACTIVE,
	R_GONE,
	R_DISCONNECTED
};

struct sc_run {
	struct sc_schedd *s;
	struct sc_job *job; /* the job on it, or NULL for an idle claim */
	enum run_state state;
	char *claim_id;
	char *dslot_claims; /* dynamic slots the claim preempts, or NULL */
	char *startd; /* the startd's address */
	char *slot_name;
	classad *slot;
	char *submitter;
	/* the ConcurrencyLimits of the job the negotiator matched the slot
	 * for ("" for none): as HTCondor's schedd, the claim then takes
	 * only jobs with the same (CLAIM_RECYCLING_CONSIDER_LIMITS), or the
	 * negotiator's count of the limits in use would be wrong */
	char *limits;
	/* the claim's channel: ACTIVATE_CLAIM's call (or a reconnection's),
	 * which carries the job's start, news and end from the startd, and
	 * the keep-alives and deactivations to it, for the job's life */
	ks_call *act;
	ks_call *req; /* REQUEST_CLAIM's, until the startd answers */
	uint64_t alive_timer, start_timer, reconnect_timer;
	int64_t heard;  /* time() the startd last answered about the job */
	int attempts;       /* to reconnect, since the last contact */
	bool born_disconnected; /* found running at the schedd's start */
	bool release_after; /* the job was stopped: no reuse */
	bool xfer;          /* the job on it transfers files */
	uint64_t sent;      /* bytes of input sent with the activation */
	uint64_t serial;    /* names it to effects that wait for a flush */
	bool stop_on_start; /* stopped while being started: deactivate it */
	bool stop_force;    /* ... forcibly */
};

/* run.c */
/* The job as the startd gets it with a claim or an activation (new). */
classad *sc_run_job_for_startd(const struct sc_schedd *s,
			       const struct sc_job *j, const classad *slot);
/* Starts request code to the run's startd: the claim id (and Reconnect
 * when reconnecting), then job and its nfiles files when job is given;
 * ops get r as their argument.  timeout_ms as ks_call_start()'s. */
ks_call *sc_run_call(struct sc_run *r, int code, const classad *job,
		     classad *const *files, size_t nfiles, int timeout_ms,
		     const struct ks_call_ops *ops);
/* 0 for an OK reply, else KS_EPERM with its ErrorString in err. */
int sc_run_reply_ok(const struct ks_call_reply *rep, struct ks_err *err);
/* A new run into the schedd's list (which owns it from then on). */
void sc_run_add(struct sc_schedd *s, struct sc_run *r);
/* The run out of the list and freed, its connections and timers too. */
void sc_run_free(struct sc_run *r);
/* A job's ConcurrencyLimits, "" for none (new string). */
char *sc_run_job_limits(const struct sc_job *j);
/* Ends the claim: the startd is told (unless it is gone), r freed. */
void sc_run_release(struct sc_run *r, const char *why);
/* Starts job j on the run's claimed slot (ACTIVATE_CLAIM). */
void sc_run_activate(struct sc_run *r, struct sc_job *j);

/* claim.c: the claim request, if one is under way, given up. */
void sc_claim_close_req(struct sc_run *r);

#endif
