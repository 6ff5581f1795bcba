/*
 * act.c: ACT_ON_JOBS: condor_rm, condor_hold, condor_release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sc_cmds.h"
#include "sc_events.h"
#include "sc_holds.h"
#include "sc_local.h"
#include "sc_run.h"

enum action { A_REMOVE, A_REMOVE_X, A_HOLD, A_RELEASE, A_VACATE };

struct act {
	enum action a;
	const char *reason;
	int subcode;
	const char *who; /* "alice" for "(by user alice)" */
};

/* HTCondor's wording: the user's reason, or which tool, then who. */
static void action_reason(char *buf, size_t n, const struct act *a,
			  const char *tool)
{
	if (a->reason)
		snprintf(buf, n, "%s (by user %s)", a->reason, a->who);
	else
		snprintf(buf, n, "via %s (by user %s)", tool, a->who);
}

static bool running(const struct sc_job *j)
{
	return j->status == SC_RUNNING || j->status == SC_TRANSFERRING ||
	       j->status == SC_SUSPENDED;
}

/* A job stopped on its startd (or its local starter) once its new status
 * is in the store: the startd must not end a job whose removal a
 * restarted schedd would not know of. */
struct stop {
	int cluster, proc;
	bool force;
};

static void stop_job(struct sc_schedd *s, void *arg)
{
	struct stop *st = arg;
	struct sc_job *j = sc_queue_find(s, st->cluster, st->proc);
	if (!j || (!j->run && !j->local))
		return;
	if (!st->force) {
		sc_run_stop(s, j);
		return;
	}
	/* condor_rm -forcex: the job leaves the queue now; its run (or
	 * local starter) is told to end and left to end without it */
	if (j->local)
		sc_local_stop(s, j);
	sc_run_abandon(s, j);
	sc_local_forget(j);
	sc_job_removed_leaves(s, j);
}

void sc_job_removed_leaves(struct sc_schedd *s, struct sc_job *j)
{
	char *why = NULL;
	classad_eval_string(j->ad, "RemoveReason", NULL, &why);
	sc_event_aborted(s, j, why ? why : "");
	free(why);
	sc_job_retire(s, j);
}

static void stop_later(struct sc_schedd *s, struct sc_job *j, bool force)
{
	struct stop *st = ks_xmalloc(sizeof(*st));
	*st = (struct stop){j->cluster, j->proc, force};
	sc_queue_after(s, stop_job, st, free);
}

void sc_job_remove(struct sc_schedd *s, struct sc_job *j, const char *reason,
		   bool force)
{
	if (j->status != SC_REMOVED) {
		sc_job_set_string(s, j, "RemoveReason", reason);
		sc_job_set_status(s, j, SC_REMOVED);
	}
	if (j->run || j->local) {
		/* the run's end writes the abort and retires the job */
		stop_later(s, j, force);
		return;
	}
	sc_event_aborted(s, j, reason);
	sc_job_retire(s, j);
}

void sc_job_hold(struct sc_schedd *s, struct sc_job *j, const char *reason,
		 int code, int subcode)
{
	sc_job_set_string(s, j, "HoldReason", reason);
	sc_job_set_int(s, j, "HoldReasonCode", code);
	sc_job_set_int(s, j, "HoldReasonSubCode", subcode);
	if (sc_hold_counts(code)) {
		int64_t holds = 0;
		classad_eval_int(j->ad, "NumHolds", NULL, &holds);
		char *by = sc_holds_by_reason(j->ad, code);
		sc_job_set_int(s, j, "NumHolds", holds + 1);
		sc_job_set_expr(s, j, "NumHoldsByReason", by);
		free(by);
	}
	sc_job_set_status(s, j, SC_HELD);
	if (j->run || j->local)
		stop_later(s, j, false);
	sc_event_held(s, j, reason, code, subcode);
}

void sc_job_release(struct sc_schedd *s, struct sc_job *j, const char *reason)
{
	sc_job_set_string(s, j, "ReleaseReason", reason);
	sc_job_delete_attr(s, j, "HoldReason");
	sc_job_set_status(s, j, SC_IDLE);
	sc_event_released(s, j, reason);
}

static int do_remove(struct sc_schedd *s, struct sc_job *j, struct act *a)
{
	if (j->status == SC_REMOVED && a->a != A_REMOVE_X)
		return SC_AR_ALREADY_DONE;
	if (j->status == SC_COMPLETED)
		return SC_AR_BAD_STATUS;
	char reason[512];
	action_reason(reason, sizeof(reason), a, "condor_rm");
	sc_job_remove(s, j, reason, a->a == A_REMOVE_X);
	return SC_AR_SUCCESS;
}

/* condor_hold's code is HTCondor's UserRequest */
#define HOLD_CODE_USER_REQUEST 1

static int do_hold(struct sc_schedd *s, struct sc_job *j, struct act *a)
{
	if (j->status == SC_HELD)
		return SC_AR_ALREADY_DONE;
	if (j->status == SC_COMPLETED || j->status == SC_REMOVED)
		return SC_AR_BAD_STATUS;
	char reason[512];
	action_reason(reason, sizeof(reason), a, "condor_hold");
	sc_job_hold(s, j, reason, HOLD_CODE_USER_REQUEST, a->subcode);
	return SC_AR_SUCCESS;
}

static int do_release(struct sc_schedd *s, struct sc_job *j, struct act *a)
{
	if (j->status != SC_HELD)
		return SC_AR_BAD_STATUS;
	char reason[512];
	action_reason(reason, sizeof(reason), a, "condor_release");
	sc_job_release(s, j, reason);
	return SC_AR_SUCCESS;
}

static int do_vacate(struct sc_schedd *s, struct sc_job *j, struct act *a)
{
	(void)a;
	if (!running(j) || (!j->run && !j->local))
		return SC_AR_BAD_STATUS;
	/* nothing of the job changes here: it is stopped after the
	 * command's (empty) commit, with the other commands' stops */
	stop_later(s, j, false);
	return SC_AR_SUCCESS;
}

static int act_one(struct sc_schedd *s, struct sc_job *j, void *arg)
{
	struct act *a = arg;
	switch (a->a) {
	case A_REMOVE:
	case A_REMOVE_X:
		return do_remove(s, j, a);
	case A_HOLD:
		return do_hold(s, j, a);
	case A_RELEASE:
		return do_release(s, j, a);
	case A_VACATE:
		return do_vacate(s, j, a);
	}
	return SC_AR_BAD_STATUS;
}

static bool parse_action(const classad *cmd, enum action *a)
{
	static const struct {
		const char *name;
		int code; /* HTCondor's numbers, for clients that send them */
		enum action a;
	} names[] = {
		{"Remove", 3, A_REMOVE}, {"RemoveX", 4, A_REMOVE_X},
		{"Hold", 5, A_HOLD},	 {"Release", 6, A_RELEASE},
		{"Vacate", 8, A_VACATE},
	};
	char *str = NULL;
	int64_t code = -1;
	if (!classad_eval_string(cmd, "JobAction", NULL, &str))
		classad_eval_int(cmd, "JobAction", NULL, &code);
	bool ok = false;
	for (size_t i = 0; !ok && i < sizeof(names) / sizeof(names[0]); i++)
		if ((str && strcasecmp(str, names[i].name) == 0) ||
		    code == names[i].code) {
			*a = names[i].a;
			ok = true;
		}
	free(str);
	return ok;
}

void sc_cmd_act(ks_daemon *d, struct ks_request *req)
{
	struct sc_schedd *s = d->ctx;
	if (req->n < 1) {
		ks_reply_error(req, "ACT_ON_JOBS carries one command ad");
		return;
	}
	struct act a = {0};
	if (!parse_action(req->ads[0], &a.a)) {
		ks_reply_error(req, "ACT_ON_JOBS: unknown JobAction");
		return;
	}
	char *reason = NULL;
	classad_eval_string(req->ads[0], "Reason", NULL, &reason);
	int64_t sub = 0;
	classad_eval_int(req->ads[0], "HoldReasonSubCode", NULL, &sub);
	a.reason = reason && *reason ? reason : NULL;
	a.subcode = (int)sub;
	char *who = sc_identity_owner(req->identity);
	a.who = who;
	classad *result = classad_new();
	struct sc_select_totals t = {0};
	struct ks_err err = {0};
	/* all or nothing, and answered only once it is in the store */
	sc_queue_begin(s);
	int rc = sc_select(s, req->ads[0], req->identity, act_one, &a, &t,
			   result, &err);
	int crc = 0;
	if (rc)
		sc_queue_abort(s);
	else
		crc = sc_queue_commit(s, &err);
	if (rc) {
		ks_reply_error(req, "%s", err.msg);
	} else if (crc) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "ACT_ON_JOBS from %s failed, nothing changed: %s",
			      req->identity, err.msg);
		ks_reply_error(req, "the job queue could not be written, so "
				    "nothing was changed: %s", err.msg);
	} else {
		sc_select_report(&t, result);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "ACT_ON_JOBS from %s: %ld done, %ld not found, "
			      "%ld denied, %ld wrong status, %ld already",
			      req->identity, t.n[1], t.n[2], t.n[3], t.n[4],
			      t.n[5]);
		ks_reply(req, KS_REPLY_OK, &result, 1, false);
	}
	classad_free(result);
	free(reason);
	free(who);
}
