/*
 * claim.c: claiming the slot a match names, the first step of a run
 * (run.c does the rest).  The claim is sent with the match's claim id
 * (REQUEST_CLAIM; a partitionable slot answers with the dynamic slot
 * carved for the job and its own claim id) and its answer is waited for
 * in the loop: a claim that preempts another waits, up to
 * REQUEST_CLAIM_TIMEOUT as HTCondor's schedd, for the running job to
 * retire and leave.
 */
#include <stdlib.h>

#include "ks_commands.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "sc_cmds.h"
#include "sc_run.h"
#include "sc_run_int.h"

/* The claim request's connection, if any, closed and no longer
 * watched, and its time limit cancelled. */
void sc_claim_close_req(struct sc_run *r)
{
	ks_loop_cancel(r->s->d->loop, r->claim_timer);
	r->claim_timer = 0;
	if (!r->req)
		return;
	ks_loop_unwatch(r->s->d->loop, ks_conn_fd(r->req));
	ks_conn_close(r->req);
	r->req = NULL;
}

/* The startd's answer to REQUEST_CLAIM: the claim is the run's, and
 * the job is activated on it. */
static void on_claimed(void *arg, int fd, unsigned events)
{
	(void)fd;
	(void)events;
	struct sc_run *r = arg;
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	classad *slot = NULL;
	struct ks_err err = {0};
	int rc = sc_run_reply_of(r->req, &slot, NULL, &err);
	sc_claim_close_req(r);
	if (rc) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "cannot claim %s for job %d.%d: %s", r->slot_name,
			      j ? j->cluster : 0, j ? j->proc : 0, err.msg);
		r->state = R_GONE;
		sc_run_free(r);
		return;
	}
	/* a partitionable slot answers with the dynamic slot it made */
	char *id = sc_run_ad_string(slot, "ClaimId");
	char *name = sc_run_ad_string(slot, "Name");
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
	if (slot) {
		/* what the claim says of the slot now, over what the
		 * collector had (the daemon attributes, CondorVersion...) */
		classad_update(r->slot, slot);
		classad_free(slot);
	}
	r->state = R_IDLE;
	/* a claim granted to a job that has gone meanwhile is given back */
	if (!j || j->status != SC_IDLE) {
		sc_run_release(r, "its job left while it was claimed");
		return;
	}
	sc_run_activate(r, j);
}

/* REQUEST_CLAIM_TIMEOUT is up: the match is dropped, its job looks for
 * another (the startd's waiting claim is released). */
static void on_claim_timeout(void *arg)
{
	struct sc_run *r = arg;
	struct sc_job *j = r->job;
	r->claim_timer = 0;
	ks_log_printf(r->s->d->log, KS_D_ALWAYS,
		      "Timed out requesting claim %s for job %d.%d after "
		      "REQUEST_CLAIM_TIMEOUT", r->slot_name, j ? j->cluster : 0,
		      j ? j->proc : 0);
	sc_claim_close_req(r);
	r->job = NULL;
	if (j)
		j->run = NULL;
	sc_run_release(r, "REQUEST_CLAIM_TIMEOUT");
}

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
	struct ks_err err = {0};
	ks_conn *c = NULL;
	int rc = sc_run_send_startd(r, KS_REQUEST_CLAIM, job, NULL, 0, &c,
				    &err);
	classad_free(job);
	if (rc) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "cannot claim %s for job %d.%d: %s",
			      r->slot_name, j->cluster, j->proc, err.msg);
		r->state = R_GONE;
		sc_run_free(r);
		return;
	}
	r->req = c;
	long secs = ks_daemon_int(s->d, "REQUEST_CLAIM_TIMEOUT", 1800);
	if (secs > 0)
		r->claim_timer = ks_loop_timer(s->d->loop, secs * 1000, 0,
					       on_claim_timeout, r);
	ks_loop_watch(s->d->loop, ks_conn_fd(c), KS_EV_IN, on_claimed, r);
	if (ks_conn_pending(c))
		on_claimed(r, ks_conn_fd(c), KS_EV_IN);
}

int sc_run_match(struct sc_schedd *s, struct sc_job *j, const char *claim_id,
		 const char *dslot_claims, const classad *slot)
{
	if ((long)s->nruns >= s->max_jobs_running)
		return KS_ERANGE;
	char *addr = sc_run_ad_string(slot, "MyAddress");
	if (!addr)
		addr = sc_run_ad_string(slot, "StartdIpAddr");
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
	r->slot_name = sc_run_ad_string(slot, "Name");
	if (!r->slot_name)
		r->slot_name = ks_xstrdup(addr);
	r->slot = classad_copy(slot);
	r->submitter = sc_submitter_of(s, j);
	r->limits = sc_run_job_limits(j);
	sc_run_add(s, r);
	r->start_timer = ks_loop_timer(s->d->loop, 0, 0, claim, r);
	return 0;
}
