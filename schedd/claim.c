/*
 * claim.c: claiming the slot a match names, the first step of a run
 * (run.c does the rest).  The claim is sent with the match's claim id
 * (REQUEST_CLAIM; a partitionable slot answers with the dynamic slot
 * carved for the job and its own claim id) and its answer is waited for
 * in the loop: a claim that preempts another waits, up to
 * REQUEST_CLAIM_TIMEOUT as HTCondor's schedd, for the running job to
 * retire and leave.
 */
#include <limits.h>
#include <stdlib.h>

#include "ks_commands.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "sc_cmds.h"
#include "sc_run.h"
#include "sc_run_int.h"

void sc_claim_close_req(struct sc_run *r)
{
	ks_call_cancel(r->req);
	r->req = NULL;
}

/* The startd's answer to REQUEST_CLAIM: the claim is the run's, and
 * the job is activated on it. */
static void on_claim_reply(void *arg, ks_call *c, const struct ks_call_reply *rep)
{
	struct sc_run *r = arg;
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	/* the answer ends the call: let go of it before the run moves on */
	r->req = NULL;
	ks_call_cancel(c);
	struct ks_err err = {0};
	if (sc_run_reply_ok(rep, &err)) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "cannot claim %s for job %d.%d: %s", r->slot_name,
			      j ? j->cluster : 0, j ? j->proc : 0, err.msg);
		r->state = R_GONE;
		sc_run_free(r);
		return;
	}
	const classad *slot = rep->n ? rep->ads[0] : NULL;
	/* a partitionable slot answers with the dynamic slot it made */
	char *id = classad_eval_string_dup(slot, "ClaimId");
	char *name = classad_eval_string_dup(slot, "Name");
	if (id) {
		free(r->claim_id);
		r->claim_id = id;
	}
	/* those dynamic slots are gone: the claim is the new one's */
	free(r->dslot_claims);
	r->dslot_claims = NULL;
	if (name) {
		free(r->slot_name);
		r->slot_name = name;
	}
	/* what the claim says of the slot now, over what the collector had
	 * (the daemon attributes, CondorVersion...) */
	if (slot)
		classad_update(r->slot, slot);
	r->state = R_IDLE;
	/* a claim granted to a job that has gone meanwhile is given back */
	if (!j || j->status != SC_IDLE) {
		sc_run_release(r, "its job left while it was claimed");
		return;
	}
	sc_run_activate(r, j);
}

/* No answer: the startd could not be reached, or REQUEST_CLAIM_TIMEOUT
 * is up (the match is dropped, its job looks for another, and the
 * startd's waiting claim is released). */
static void on_claim_end(void *arg, ks_call *c, int rc, const struct ks_err *err)
{
	(void)c;
	struct sc_run *r = arg;
	struct sc_job *j = r->job;
	r->req = NULL;
	if (rc == KS_ETIMEDOUT) {
		ks_log_printf(r->s->d->log, KS_D_ALWAYS,
			      "Timed out requesting claim %s for job %d.%d "
			      "after REQUEST_CLAIM_TIMEOUT", r->slot_name,
			      j ? j->cluster : 0, j ? j->proc : 0);
		r->job = NULL;
		if (j)
			j->run = NULL;
		sc_run_release(r, "REQUEST_CLAIM_TIMEOUT");
		return;
	}
	ks_log_printf(r->s->d->log, KS_D_ALWAYS,
		      "cannot claim %s for job %d.%d: %s", r->slot_name,
		      j ? j->cluster : 0, j ? j->proc : 0,
		      err ? err->msg : "no answer");
	r->state = R_GONE;
	sc_run_free(r);
}

static const struct ks_call_ops claim_ops = {on_claim_reply, on_claim_end};

/* The claim itself, from a zero-delay timer so the negotiator's message
 * is answered first.  The answer is waited for in the loop: a startd
 * preempting a job for this one answers once that job has left, after
 * its retirement and vacate time. */
static void claim(void *arg)
{
	struct sc_run *r = arg;
	struct sc_schedd *s = r->s;
	r->start_timer = 0;
	struct sc_job *j = r->job;
	if (!j || j->status != SC_IDLE) {
		r->state = R_GONE;
		sc_run_free(r);
		return;
	}
	classad *job = sc_run_job_for_startd(s, j, r->slot);
	long secs = ks_daemon_int(s->d, "REQUEST_CLAIM_TIMEOUT", 1800);
	r->req = sc_run_call(r, KS_REQUEST_CLAIM, job, NULL, 0,
			     secs > 0 && secs < INT_MAX / 1000 ? (int)secs * 1000
							      : -1,
			     &claim_ops);
	classad_free(job);
}

int sc_run_match(struct sc_schedd *s, struct sc_job *j, const char *claim_id,
		 const char *dslot_claims, const classad *slot)
{
	if ((long)s->nruns >= s->max_jobs_running)
		return KS_ERANGE;
	char *addr = classad_eval_string_dup(slot, "MyAddress");
	if (!addr)
		addr = classad_eval_string_dup(slot, "StartdIpAddr");
	if (!addr)
		return KS_EINVAL;
	struct sc_run *r = ks_xcalloc(1, sizeof(*r));
	r->s = s;
	r->job = j;
	j->run = r;
	r->state = R_CLAIMING;
	r->claim_id = ks_xstrdup(claim_id);
	r->dslot_claims = dslot_claims ? ks_xstrdup(dslot_claims) : NULL;
	r->startd = addr;
	r->slot_name = classad_eval_string_dup(slot, "Name");
	if (!r->slot_name)
		r->slot_name = ks_xstrdup(addr);
	r->slot = classad_copy(slot);
	r->submitter = sc_submitter_of(s, j);
	r->limits = sc_run_job_limits(j);
	sc_run_add(s, r);
	r->start_timer = ks_loop_timer(s->d->loop, 0, 0, claim, r);
	return 0;
}
