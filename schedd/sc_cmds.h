/*
 * sc_cmds.h: the schedd's command handlers (docs/schedd.md) and what
 * they share.
 */
#ifndef SC_CMDS_H
#define SC_CMDS_H

#include "ks_daemon.h"
#include "sc_schedd.h"

void sc_cmd_qmgmt(ks_daemon *d, struct ks_request *req);      /* submit.c */
void sc_cmd_query(ks_daemon *d, struct ks_request *req);      /* query.c */
void sc_cmd_history(ks_daemon *d, struct ks_request *req);    /* query.c */
void sc_cmd_act(ks_daemon *d, struct ks_request *req);        /* act.c */
void sc_cmd_reschedule(ks_daemon *d, struct ks_request *req); /* negotiate.c */
void sc_cmd_negotiate(ks_daemon *d, struct ks_request *req);  /* negotiate.c */
void sc_cmd_permission(ks_daemon *d, struct ks_request *req); /* negotiate.c */

/* The submitter a job counts for ("alice@domain", "group_a.alice@domain",
 * "nice-user.alice@domain").  New string (free()). */
char *sc_submitter_of(const struct sc_schedd *s, const struct sc_job *j);

/* ---- act.c: the moves every policy shares ---- */

/* Holds a job (HoldReason, HoldReasonCode, ...SubCode, NumHolds, the held
 * event; a running one is stopped). */
void sc_job_hold(struct sc_schedd *s, struct sc_job *j, const char *reason,
		 int code, int subcode);
/* Releases a held job to Idle (ReleaseReason, the released event). */
void sc_job_release(struct sc_schedd *s, struct sc_job *j, const char *reason);
/* Removes a job (RemoveReason): a running one leaves when its run ends,
 * unless force; the aborted event; then the history. */
void sc_job_remove(struct sc_schedd *s, struct sc_job *j, const char *reason,
		   bool force);
/* A removed job whose run is over: its aborted event (its RemoveReason),
 * then the history. */
void sc_job_removed_leaves(struct sc_schedd *s, struct sc_job *j);

/* ---- select.c: the jobs a command names ---- */

/* Per-id outcomes of ACT_ON_JOBS, as HTCondor numbers them. */
enum sc_result {
	SC_AR_SUCCESS = 1,
	SC_AR_NOT_FOUND = 2,
	SC_AR_PERMISSION_DENIED = 3,
	SC_AR_BAD_STATUS = 4,
	SC_AR_ALREADY_DONE = 5,
};

struct sc_select_totals {
	long n[6]; /* by enum sc_result */
};

/* Applies fn to the jobs that the command ad names by ActionIds ("1.0,2")
 * or ActionConstraint, each the identity may change; records each
 * outcome in totals and, for ActionIds, as job_<c>_<p> / cluster_<c> in
 * result.  fn returns an sc_result.  Returns 0, or KS_EINVAL with err
 * filled for a malformed id list or constraint. */
typedef int (*sc_select_fn)(struct sc_schedd *s, struct sc_job *j, void *arg);
int sc_select(struct sc_schedd *s, const classad *cmd, const char *identity,
	      sc_select_fn fn, void *arg, struct sc_select_totals *totals,
	      classad *result, struct ks_err *err);

/* Writes totals into result (TotalSuccess ...; ActionResult). */
void sc_select_report(const struct sc_select_totals *t, classad *result);

#endif
