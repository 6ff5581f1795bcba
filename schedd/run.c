/*
 * run.c: running jobs on claimed slots.
 *
 * A match from the negotiator becomes a run: the slot is claimed with the
 * match's claim id (REQUEST_CLAIM; a partitionable slot answers with the
 * dynamic slot carved for the job and its own claim id), the claim is
 * activated with the job (ACTIVATE_CLAIM: the startd answers at once and
 * again when the job has ended, on the same connection, which the loop
 * watches), kept alive with ALIVE every alive interval, and when the job
 * is done reused for another idle job of the same submitter that the
 * slot matches, or released.
 *
 * Releasing and keep-alives block the schedd for as long as one round
 * trip (bounded by a short time-out); a claim's answer and an
 * activation's (the job started, then its end) are waited for in the
 * loop, so that many short jobs on many slots keep starting while a
 * startd forks, and a claim that preempts another waits, up to
 * REQUEST_CLAIM_TIMEOUT as HTCondor's schedd, for the running job to
 * retire and leave.
 *
 * A run whose activation connection breaks (the startd killed, the
 * network down) is disconnected, as HTCondor's shadow: the job stays
 * Running while the schedd tries to reconnect, at once and then after
 * RECONNECT_BACKOFF_FACTOR^(n+2) seconds (at most
 * RECONNECT_BACKOFF_CEILING), until its JobLeaseDuration since
 * LastJobLeaseRenewal is over; the startd keeps the job as long.  Jobs
 * that were running when the schedd stopped start out disconnected.
 *
 * The claim itself (REQUEST_CLAIM, its answer, its time-out) is
 * claim.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_client.h"
#include "ks_call.h"
#include "ks_commands.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "ks_userlog.h"
#include "ks_wire.h"
#include "sc_cmds.h"
#include "sc_events.h"
#include "sc_local.h"
#include "sc_machattrs.h"
#include "sc_run.h"
#include "sc_run_int.h"
#include "sc_xfer.h"

/* Set in a job from the moment its activation is in the store until its
 * execute event is written: a schedd that restarts in between learns
 * from the startd whether the job started, and writes the event then. */
#define PENDING_ATTR "KsActivationPending"

/* A startd on loopback answers in microseconds; one that does not
 * answer in this long is treated as gone. */
#define STARTD_TIMEOUT_MS 5000
/* An activation is answered once the startd has started the starter,
 * after taking in the job's input files: a busy one may take longer. */
#define ACTIVATE_TIMEOUT_MS 60000

/* The run named serial, if it is still there. */
static struct sc_run *run_by_serial(struct sc_schedd *s, uint64_t serial)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i]->serial == serial)
			return s->runs[i];
	return NULL;
}

/* The job as the startd gets it: whole, without the claim id.  As
 * HTCondor's shadow decides, a job that transfers files only IF_NEEDED
 * runs in its Iwd when the slot shares the submit side's file system
 * (same FILESYSTEM_DOMAIN). */
classad *sc_run_job_for_startd(const struct sc_schedd *s,
			       const struct sc_job *j, const classad *slot)
{
	classad *ad = sc_job_flat(j);
	classad_delete(ad, "ClaimId");
	char *stf = NULL, *fsd = NULL;
	if (classad_eval_string(ad, "ShouldTransferFiles", NULL, &stf) &&
	    strcasecmp(stf, "IF_NEEDED") == 0 && s->fs_domain &&
	    classad_eval_string(slot, "FileSystemDomain", NULL, &fsd) &&
	    strcasecmp(fsd, s->fs_domain) == 0)
		classad_insert_string(ad, "ShouldTransferFiles", "NO");
	free(stf);
	free(fsd);
	/* the group the negotiator matched the job in goes with the claim
	 * (and each activation, which the startd's copy of the job comes
	 * from) into the slot's ad, as HTCondor's, for later preemption
	 * policies */
	static const char *const group_attrs[] = {"RemoteGroup",
						  "RemoteNegotiatingGroup"};
	for (size_t i = 0; i < 2; i++) {
		char *v = classad_eval_string_dup(slot, group_attrs[i]);
		if (v)
			classad_insert_string(ad, group_attrs[i], v);
		free(v);
	}
	bool autoregroup;
	if (classad_eval_bool(slot, "RemoteAutoregroup", NULL, &autoregroup))
		classad_insert_bool(ad, "RemoteAutoregroup", autoregroup);
	return ad;
}

/* What every request about the claim starts with: the claim id, and
 * (reconnecting) which job. */
static classad *head_ad(const struct sc_run *r, int code)
{
	classad *head = classad_new();
	classad_insert_string(head, "ClaimId", r->claim_id);
	classad_insert_int(head, "AliveInterval", r->s->alive_interval);
	if (code == KS_REQUEST_CLAIM && r->dslot_claims)
		classad_insert_string(head, "PreemptDslotClaims",
				      r->dslot_claims);
	if (code == KS_ACTIVATE_CLAIM && r->state == R_DISCONNECTED) {
		classad_insert_bool(head, "Reconnect", true);
		/* which job: a claim runs one job after another, and the
		 * startd's may be an earlier one than the schedd's record */
		if (r->job) {
			classad_insert_int(head, "ClusterId", r->job->cluster);
			classad_insert_int(head, "ProcId", r->job->proc);
		}
	}
	return head;
}

ks_call *sc_run_call(struct sc_run *r, int code, const classad *job,
		     classad *const *files, size_t nfiles, int timeout_ms,
		     const struct ks_call_ops *ops)
{
	ks_daemon *d = r->s->d;
	classad **ads = ks_xmalloc((2 + nfiles) * sizeof(*ads));
	size_t nads = 0;
	ads[nads++] = head_ad(r, code);
	if (job) {
		ads[nads++] = (classad *)job;
		for (size_t i = 0; i < nfiles; i++)
			ads[nads++] = files[i];
	}
	ks_call *c = ks_call_start(d->calls, d->cfg, r->startd, code, ads,
				   nads, timeout_ms, ops, r);
	classad_free(ads[0]);
	free(ads);
	return c;
}

int sc_run_reply_ok(const struct ks_call_reply *rep, struct ks_err *err)
{
	if (rep->code == KS_REPLY_OK)
		return 0;
	char *why = rep->n ? classad_eval_string_dup(rep->ads[0], "ErrorString")
			   : NULL;
	int rc = ks_err_set(err, KS_EPERM, 0, 0, 0, "%s",
			    why ? why : "refused");
	free(why);
	return rc;
}

/* Tells the startd code about the claim, without waiting for its answer
 * (a refusal or a failure goes to the log). */
static void tell_startd(struct sc_run *r, int code)
{
	ks_daemon *d = r->s->d;
	classad *head = head_ad(r, code);
	ks_call_tell(d->calls, d->cfg, d->log, r->startd, code, &head, 1,
		     STARTD_TIMEOUT_MS);
	classad_free(head);
}

void sc_run_add(struct sc_schedd *s, struct sc_run *r)
{
	r->serial = ++s->run_serial;
	if (s->nruns == s->runcap) {
		s->runcap = s->runcap ? s->runcap * 2 : 16;
		s->runs = ks_xrealloc(s->runs, s->runcap * sizeof(*s->runs));
	}
	s->runs[s->nruns++] = r;
}

/* The claim's channel, if any, closed. */
static void close_act(struct sc_run *r)
{
	ks_call_cancel(r->act);
	r->act = NULL;
}

void sc_run_free(struct sc_run *r)
{
	struct sc_schedd *s = r->s;
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == r) {
			s->runs[i] = s->runs[--s->nruns];
			break;
		}
	close_act(r);
	sc_claim_close_req(r);
	ks_loop_cancel(s->d->loop, r->alive_timer);
	ks_loop_cancel(s->d->loop, r->start_timer);
	ks_loop_cancel(s->d->loop, r->reconnect_timer);
	if (r->job && r->job->run == r)
		r->job->run = NULL;
	free(r->claim_id);
	free(r->dslot_claims);
	free(r->startd);
	free(r->slot_name);
	free(r->submitter);
	free(r->limits);
	classad_free(r->slot);
	free(r);
}

/* A job's ConcurrencyLimits, "" for none (new string). */
char *sc_run_job_limits(const struct sc_job *j)
{
	char *v = classad_eval_string_dup(j->ad, "ConcurrencyLimits");
	return v ? v : ks_xstrdup("");
}

/* Ends the claim: the startd is told (unless it is gone) and the run
 * freed. */
void sc_run_release(struct sc_run *r, const char *why)
{
	ks_daemon *d = r->s->d;
	if (r->state != R_GONE)
		tell_startd(r, KS_RELEASE_CLAIM);
	ks_log_printf(d->log, KS_D_FULLDEBUG, "claim on %s released: %s",
		      r->slot_name ? r->slot_name : r->startd, why);
	sc_run_free(r);
}

/* ---- keep-alive ------------------------------------------------------ */

static int alive_seconds(const struct sc_run *r)
{
	/* ALIVE_INTERVAL, shortened to a third of the job's lease, never
	 * below 10 s */
	int iv = r->s->alive_interval;
	int64_t lease = 0;
	if (r->job &&
	    classad_eval_int(r->job->ad, "JobLeaseDuration", NULL, &lease) &&
	    lease > 0 && lease / 3 < iv)
		iv = (int)(lease / 3);
	return iv < 10 ? 10 : iv;
}

static int64_t job_lease(const struct sc_job *j)
{
	int64_t lease = 0;
	return j && classad_eval_int(j->ad, "JobLeaseDuration", NULL, &lease)
		       ? lease
		       : 0;
}

/* The startd was heard from about the running job: its lease starts
 * again.  What a restarted schedd knows of it (LastJobLeaseRenewal) is
 * stored now and then, not at every keep-alive: at most a third of the
 * lease (and 15 minutes, as HTCondor's shadow updates its queue) old. */
static void renew_lease(struct sc_run *r)
{
	if (!r->job || r->state != R_ACTIVE)
		return;
	int64_t now = (int64_t)time(NULL), stored = 0;
	r->heard = now;
	int64_t every = job_lease(r->job) / 3;
	if (every <= 0 || every > 900)
		every = 900;
	classad_eval_int(r->job->ad, "LastJobLeaseRenewal", NULL, &stored);
	if (now - stored >= every)
		sc_job_set_int(r->s, r->job, "LastJobLeaseRenewal", now);
}

static void disconnected(struct sc_run *r);

/* The keep-alive rides the claim's channel; its answer renews the
 * lease.  A startd not heard from for the job's whole lease (stopped,
 * or its host gone without closing the connection) is disconnected from,
 * as HTCondor's shadow gives up on a silent starter. */
static void on_alive(void *arg)
{
	struct sc_run *r = arg;
	if (r->state != R_ACTIVE || !r->act)
		return;
	int64_t lease = job_lease(r->job);
	if (r->job && lease > 0 && (int64_t)time(NULL) - r->heard > lease) {
		ks_log_printf(r->s->d->log, KS_D_ALWAYS,
			      "job %d.%d: nothing heard from %s for its whole "
			      "lease (%lld s)", r->job->cluster, r->job->proc,
			      r->slot_name, (long long)lease);
		disconnected(r);
		return;
	}
	classad *head = head_ad(r, KS_ALIVE);
	struct ks_err err = {0};
	if (ks_call_send(r->act, KS_ALIVE, &head, 1, &err))
		ks_log_printf(r->s->d->log, KS_D_ALWAYS, "ALIVE to %s: %s",
			      r->startd, err.msg);
	classad_free(head);
}

static void arm_alive(struct sc_run *r)
{
	ks_loop_cancel(r->s->d->loop, r->alive_timer);
	int64_t ms = (int64_t)alive_seconds(r) * 1000;
	r->alive_timer = ks_loop_timer(r->s->d->loop, ms, ms, on_alive, r);
}

/* ---- a job's end ----------------------------------------------------- */

static void add_real(struct sc_schedd *s, struct sc_job *j, const char *name,
		     double d)
{
	double v = 0;
	classad_eval_real(j->ad, name, NULL, &v);
	sc_job_set_real(s, j, name, v + d);
}

static void add_int(struct sc_schedd *s, struct sc_job *j, const char *name,
		    int64_t d)
{
	int64_t v = 0;
	classad_eval_int(j->ad, name, NULL, &v);
	sc_job_set_int(s, j, name, v + d);
}

static bool job_bool(const struct sc_job *j, const char *name, bool def)
{
	bool v = def;
	classad_eval_bool(j->ad, name, NULL, &v);
	return v;
}

/* Usage of the run that ended, into the job. */
static void record_usage(struct sc_schedd *s, struct sc_job *j,
			 const classad *res)
{
	double wall = 0, user = 0, sys = 0;
	int64_t image = 0, rss = 0;
	/* this run's (the starter's RemoteWallClockTime counts the earlier
	 * runs too), in whole seconds, as HTCondor's shadow and starter
	 * count them */
	classad_eval_real(res, "LastRemoteWallClockTime", NULL, &wall);
	classad_eval_real(res, "RemoteUserCpu", NULL, &user);
	classad_eval_real(res, "RemoteSysCpu", NULL, &sys);
	wall = floor(wall);
	user = floor(user);
	sys = floor(sys);
	add_real(s, j, "RemoteWallClockTime", wall);
	add_real(s, j, "CumulativeRemoteUserCpu", user);
	add_real(s, j, "CumulativeRemoteSysCpu", sys);
	sc_job_set_real(s, j, "RemoteUserCpu", user);
	sc_job_set_real(s, j, "RemoteSysCpu", sys);
	sc_job_set_real(s, j, "LastRemoteWallClockTime", wall);
	if (classad_eval_int(res, "ImageSize", NULL, &image) && image > 0)
		sc_job_set_int(s, j, "ImageSize", image);
	if (classad_eval_int(res, "ResidentSetSize", NULL, &rss) && rss > 0)
		sc_job_set_int(s, j, "ResidentSetSize", rss);
	/* the starter's totals count this run's suspensions and the
	 * earlier runs' */
	int64_t susp = 0;
	if (classad_eval_int(res, "TotalSuspensions", NULL, &susp))
		sc_job_set_int(s, j, "TotalSuspensions", susp);
	if (classad_eval_int(res, "CumulativeSuspensionTime", NULL, &susp))
		sc_job_set_int(s, j, "CumulativeSuspensionTime", susp);
	sc_job_set_int(s, j, "LastJobLeaseRenewal", (int64_t)time(NULL));
	/* where it ran stays known, as HTCondor keeps it */
	char *host = classad_eval_string_dup(j->ad, "RemoteHost");
	if (host)
		sc_job_set_string(s, j, "LastRemoteHost", host);
	free(host);
	sc_job_delete_attr(s, j, "RemoteHost");
	sc_job_delete_attr(s, j, "ClaimId");
	sc_job_delete_attr(s, j, "StartdIpAddr");
}

/* The job exited (or was killed by a signal of its own): its exit
 * policy decides whether it leaves the queue, is held, or runs again. */
static void job_exited(struct sc_schedd *s, struct sc_job *j,
		       const classad *res, bool by_signal)
{
	int64_t code = 0, sig = 0;
	classad_eval_int(res, "ExitCode", NULL, &code);
	classad_eval_int(res, "ExitSignal", NULL, &sig);
	sc_job_set_bool(s, j, "ExitBySignal", by_signal);
	if (by_signal) {
		sc_job_set_int(s, j, "ExitSignal", sig);
		sc_job_delete_attr(s, j, "ExitCode");
	} else {
		sc_job_set_int(s, j, "ExitCode", code);
	}
	sc_job_set_int(s, j, "CompletionDate", (int64_t)time(NULL));
	add_int(s, j, "NumJobCompletions", 1);
	if (job_bool(j, "OnExitHold", false)) {
		sc_job_delete_attr(s, j, "CompletionDate");
		sc_job_hold(s, j,
			 "The job attribute OnExitHold expression evaluated "
			 "to TRUE.",
			 3, 0);
		return;
	}
	if (!job_bool(j, "OnExitRemove", true)) {
		/* it runs again: an eviction, as HTCondor logs it */
		sc_job_delete_attr(s, j, "CompletionDate");
		sc_job_set_status(s, j, SC_IDLE);
		sc_event_evicted(s, j, res);
		return;
	}
	sc_job_set_status(s, j, SC_COMPLETED);
	sc_event_terminated(s, j, res);
	sc_job_retire(s, j);
}

static void forget_claim(struct sc_schedd *s, struct sc_job *j);
static void activation_failed(struct sc_run *r, const char *why);
static void never_ran(struct sc_schedd *s, struct sc_job *j,
		      const char *where);
static void deactivate(struct sc_run *r, bool force);
static void job_started(struct sc_run *r, struct sc_job *j);

/* Another idle job of the same submitter that the claimed slot takes. */
static struct sc_job *next_job(struct sc_run *r);

/* A file transfer event (040) with the job attributes HTCondor's shadow
 * keeps of it: when each step happened, how many transfers began. */
static void xfer_event(struct sc_schedd *s, struct sc_job *j, int kind,
		       const char *host)
{
	static const char *const when[] = {
		[KS_USERLOG_XFER_IN_STARTED] = "TransferInStarted",
		[KS_USERLOG_XFER_IN_FINISHED] = "TransferInFinished",
		[KS_USERLOG_XFER_OUT_STARTED] = "TransferOutStarted",
		[KS_USERLOG_XFER_OUT_FINISHED] = "TransferOutFinished",
	};
	if (when[kind])
		sc_job_set_int(s, j, when[kind], (int64_t)time(NULL));
	if (kind == KS_USERLOG_XFER_IN_STARTED)
		add_int(s, j, "NumInputTransferStarts", 1);
	else if (kind == KS_USERLOG_XFER_OUT_STARTED)
		add_int(s, j, "NumOutputTransferStarts", 1);
	sc_event_file_transfer(s, j, kind, host);
}

/* The job's output files, into its Iwd; false (with the hold reason
 * and subcode filled) when they could not all be written, or the
 * execution point could not send them. */
static bool job_output(struct sc_run *r, struct sc_job *j, const classad *res,
		       classad *const *files, size_t nfiles, char *why,
		       size_t size, int *sub)
{
	struct sc_schedd *s = r->s;
	char *failure = classad_eval_string_dup(res, "TransferOutputError");
	if (failure) {
		int64_t e = 0;
		classad_eval_int(res, "TransferOutputErrno", NULL, &e);
		*sub = (int)e;
		snprintf(why, size,
			 "Transfer output files failure at execution point %s "
			 "while sending files to access point %s. Details: %s",
			 r->slot_name, s->d->name ? s->d->name : "?", failure);
		free(failure);
		return false;
	}
	uint64_t bytes = 0;
	int eno = 0;
	struct ks_err err = {0};
	int rc = sc_xfer_output(s, j, files, nfiles, &bytes, &eno, &err);
	add_real(s, j, "BytesRecvd", (double)bytes);
	if (rc == 0)
		return true;
	*sub = eno;
	snprintf(why, size,
		 "Transfer output files failure at access point %s while "
		 "receiving files from the execution point %s. Details: %s",
		 s->d->name ? s->d->name : "?", r->slot_name, err.msg);
	return false;
}

/* Whether res is the end of a job its startd stopped to hold it
 * (WANT_HOLD): killed, with a hold reason code. */
static bool startd_held(const classad *res)
{
	int64_t code = 0;
	return res && classad_eval_int(res, "HoldReasonCode", NULL, &code) &&
	       code > 0;
}

void sc_run_job_end(struct sc_schedd *s, struct sc_job *j, const char *where,
		    const classad *res, struct sc_run *r,
		    classad *const *files, size_t nfiles)
{
	char *how = classad_eval_string_dup(res, "JobExitReason");
	if (!how)
		how = ks_xstrdup(res ? "?" : "lost");
	ks_log_printf(s->d->log, KS_D_ALWAYS, "job %d.%d on %s ended: %s",
		      j->cluster, j->proc, where, how);
	if (res)
		record_usage(s, j, res);
	if (j->status == SC_REMOVED) {
		/* condor_rm while it ran */
		sc_job_removed_leaves(s, j);
	} else if (j->status == SC_HELD) {
		/* condor_hold: the held event is written already */
	} else if (strcmp(how, "exited") == 0 || strcmp(how, "signaled") == 0) {
		char why[800];
		int sub = 0;
		if (r && r->xfer)
			xfer_event(s, j, KS_USERLOG_XFER_OUT_STARTED, NULL);
		bool ok = !r || job_output(r, j, res, files, nfiles, why,
					   sizeof(why), &sub);
		if (ok && r && r->xfer)
			xfer_event(s, j, KS_USERLOG_XFER_OUT_FINISHED, NULL);
		if (ok) {
			job_exited(s, j, res, strcmp(how, "signaled") == 0);
		} else {
			ks_log_printf(s->d->log, KS_D_ALWAYS, "job %d.%d: %s",
				      j->cluster, j->proc, why);
			sc_job_hold(s, j, why, 12, sub);
		}
	} else if (strcmp(how, "start failed") == 0) {
		char *why = classad_eval_string_dup(res, "HoldReason");
		int64_t code = 6, sub = 0;
		classad_eval_int(res, "HoldReasonCode", NULL, &code);
		classad_eval_int(res, "HoldReasonSubCode", NULL, &sub);
		sc_job_hold(s, j, why ? why : "the job could not start", (int)code,
			 (int)sub);
		free(why);
	} else if (startd_held(res)) {
		/* the startd's WANT_HOLD: held instead of evicted, as
		 * HTCondor's shadow holds it, with no eviction event */
		char *why = classad_eval_string_dup(res, "HoldReason");
		int64_t code = 21, sub = 0;
		classad_eval_int(res, "HoldReasonCode", NULL, &code);
		classad_eval_int(res, "HoldReasonSubCode", NULL, &sub);
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "job %d.%d held by its startd (code %d, "
			      "subcode %d): %s", j->cluster, j->proc, (int)code,
			      (int)sub, why ? why : "");
		sc_job_hold(s, j, why ? why : "", (int)code, (int)sub);
		free(why);
	} else {
		/* evicted (vacated, preempted) or lost: it runs again */
		sc_job_set_status(s, j, SC_IDLE);
		sc_event_evicted(s, j, res);
	}
	free(how);
	sc_queue_flush(s, NULL);
}

/* The claim once its last job's end is in the store: the startd keeps
 * that end (for a schedd that reconnects) until the claim runs another
 * job or is released, so neither may happen before. */
static void reuse_claim(struct sc_schedd *s, void *arg)
{
	struct sc_run *r = run_by_serial(s, *(uint64_t *)arg);
	if (!r || r->job)
		return;
	if (r->state == R_GONE || r->release_after || s->d->shutting_down) {
		sc_run_release(r, "the job is done");
		return;
	}
	struct sc_job *next = next_job(r);
	if (next)
		sc_run_activate(r, next);
	else
		sc_run_release(r, "no more jobs for it");
}

static void after_flush(struct sc_run *r, sc_effect_fn fn)
{
	uint64_t *serial = ks_xmalloc(sizeof(*serial));
	*serial = r->serial;
	sc_queue_after(r->s, fn, serial, free);
}

static void job_ended(struct sc_run *r, const classad *res,
		      classad *const *files, size_t nfiles)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	r->job = NULL;
	if (r->state != R_GONE)
		r->state = R_IDLE;
	close_act(r);
	if (j) {
		j->run = NULL;
		sc_run_job_end(s, j, r->slot_name, res, r, files, nfiles);
	} else {
		/* its job left the queue meanwhile (condor_rm -forcex) */
		r->release_after = true;
	}
	after_flush(r, reuse_claim);
}

/* News of the running job from its startd (as HTCondor's starter
 * updates its shadow): suspended or continued, its memory. */
static void job_news(struct sc_run *r, const classad *u)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	if (!j)
		return;
	renew_lease(r);
	int64_t now = (int64_t)time(NULL);
	char *state = classad_eval_string_dup(u, "JobState");
	if (state && strcmp(state, "Suspended") == 0 &&
	    j->status == SC_RUNNING) {
		int64_t npids = -1;
		classad_eval_int(u, "NumPids", NULL, &npids);
		sc_job_set_status(s, j, SC_SUSPENDED);
		add_int(s, j, "TotalSuspensions", 1);
		sc_job_set_int(s, j, "LastSuspensionTime", now);
		sc_event_suspended(s, j, (int)npids);
	} else if (state && strcmp(state, "Running") == 0 &&
		   j->status == SC_SUSPENDED) {
		int64_t since = now;
		classad_eval_int(j->ad, "LastSuspensionTime", NULL, &since);
		add_int(s, j, "CumulativeSuspensionTime",
			now > since ? now - since : 0);
		sc_job_set_int(s, j, "LastSuspensionTime", 0);
		sc_job_set_status(s, j, SC_RUNNING);
		sc_event_unsuspended(s, j);
	}
	free(state);
	int64_t image = 0, old = 0, rss = -1, mem = -1;
	if (classad_eval_int(u, "ImageSize", NULL, &image) && image > 0 &&
	    (!classad_eval_int(j->ad, "ImageSize", NULL, &old) ||
	     image > old)) {
		classad_eval_int(u, "ResidentSetSize", NULL, &rss);
		classad_eval_int(u, "MemoryUsage", NULL, &mem);
		sc_job_set_int(s, j, "ImageSize", image);
		if (rss >= 0)
			sc_job_set_int(s, j, "ResidentSetSize", rss);
		if (mem >= 0)
			sc_job_set_int(s, j, "MemoryUsage", mem);
		sc_event_image_size(s, j, image, mem, rss);
	}
	sc_queue_flush(s, NULL);
}

/* ---- disconnection and reconnection ---------------------------------- */

/* Seconds left of the job's lease: JobLeaseDuration since the startd was
 * last heard from (LastJobLeaseRenewal); 0 when it is over, -1 when the
 * job has none (it cannot reconnect). */
static int64_t lease_left(const struct sc_job *j)
{
	int64_t lease = 0, renewed = 0;
	if (!classad_eval_int(j->ad, "JobLeaseDuration", NULL, &lease) ||
	    lease <= 0)
		return -1;
	if (!classad_eval_int(j->ad, "LastJobLeaseRenewal", NULL, &renewed))
		classad_eval_int(j->ad, "JobCurrentStartDate", NULL, &renewed);
	/* (what is stored lags behind what the run has heard) */
	if (j->run && j->run->heard > renewed)
		renewed = j->run->heard;
	int64_t left = lease - ((int64_t)time(NULL) - renewed);
	return left > 0 ? left : 0;
}

static void forget_claim(struct sc_schedd *s, struct sc_job *j)
{
	sc_job_delete_attr(s, j, "RemoteHost");
	sc_job_delete_attr(s, j, "ClaimId");
	sc_job_delete_attr(s, j, "StartdIpAddr");
	sc_job_delete_attr(s, j, "JobDisconnectedDate");
	sc_job_delete_attr(s, j, "JobCurrentReconnectAttempt");
}

/* The run is given up: the job goes back to Idle with HTCondor's
 * reconnect-failed event (and the eviction's, unless it was found
 * running at the schedd's start, as HTCondor's shadow writes them), and
 * the claim is released (which ends the job on the startd if it is
 * there after all, so that it never runs twice at once). */
static bool start_pending(const struct sc_job *j)
{
	bool v = false;
	return classad_eval_bool(j->ad, PENDING_ATTR, NULL, &v) && v;
}

static void reconnect_failed(struct sc_run *r, const char *why)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "job %d.%d: reconnecting to %s failed: %s", j->cluster,
		      j->proc, r->slot_name, why);
	r->job = NULL;
	j->run = NULL;
	if (start_pending(j)) {
		/* the schedd died between recording the start and hearing
		 * of it, and the startd has no job: it never started, so
		 * its log has nothing to tell */
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "job %d.%d had not started on %s: idle again",
			      j->cluster, j->proc, r->slot_name);
		never_ran(s, j, r->slot_name);
	} else if (j->status == SC_REMOVED || j->status == SC_HELD) {
		/* stopped by a command while out of reach: it stays held, or
		 * leaves the queue, now that its run is over */
		sc_event_reconnect_failed(s, j, r->slot_name, why);
		forget_claim(s, j);
		sc_run_job_end(s, j, r->slot_name, NULL, NULL, NULL, 0);
	} else {
		sc_event_reconnect_failed(s, j, r->slot_name, why);
		forget_claim(s, j);
		sc_job_set_status(s, j, SC_IDLE);
		if (!r->born_disconnected)
			sc_event_evicted(s, j, NULL);
	}
	sc_queue_flush(s, NULL);
	sc_run_release(r, "its job could not be reconnected");
}

/* The reconnection's call answered that the job is there: the call is
 * the claim's channel from now on. */
static void reconnected(struct sc_run *r)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	r->state = R_ACTIVE;
	r->attempts = 0;
	ks_log_printf(s->d->log, KS_D_ALWAYS, "job %d.%d reconnected on %s",
		      j->cluster, j->proc, r->slot_name);
	/* it started while the schedd was away: its start first */
	if (start_pending(j))
		job_started(r, j);
	add_int(s, j, "NumJobReconnects", 1);
	sc_job_delete_attr(s, j, "JobDisconnectedDate");
	sc_job_delete_attr(s, j, "JobCurrentReconnectAttempt");
	sc_job_set_int(s, j, "LastJobLeaseRenewal", (int64_t)time(NULL));
	renew_lease(r);
	sc_event_reconnected(s, j, r->slot_name, r->startd);
	sc_queue_flush(s, NULL);
	arm_alive(r);
}

static void attempt_reconnect(void *arg);

/* The next attempt: at once the first time, then after
 * RECONNECT_BACKOFF_FACTOR^(attempts+2) seconds up to the ceiling, as
 * HTCondor's shadow waits; never past the lease. */
static void next_reconnect(struct sc_run *r)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	int64_t left = lease_left(j);
	if (left < 0) {
		reconnect_failed(r, "This job cannot reconnect");
		return;
	}
	if (left == 0) {
		int64_t lease = 0;
		classad_eval_int(j->ad, "JobLeaseDuration", NULL, &lease);
		char why[160];
		snprintf(why, sizeof(why),
			 "Job disconnected too long: JobLeaseDuration (%lld "
			 "seconds) expired",
			 (long long)lease);
		reconnect_failed(r, why);
		return;
	}
	double delay = 0;
	if (r->attempts > 0) {
		delay = 1;
		for (int i = 0; i < r->attempts + 2 && delay <= s->reconnect_ceiling;
		     i++)
			delay *= s->reconnect_factor;
		delay = ceil(delay);
		if (delay > s->reconnect_ceiling)
			delay = s->reconnect_ceiling;
	}
	if (delay > (double)left)
		delay = (double)left;
	if (delay > 0)
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "job %d.%d: next attempt to reconnect to %s in "
			      "%.0f s (%lld s left of its lease)",
			      j->cluster, j->proc, r->slot_name, delay,
			      (long long)left);
	r->reconnect_timer = ks_loop_timer(s->d->loop, (int64_t)delay * 1000,
					   0, attempt_reconnect, r);
}

/* The collector's address for the run's startd, when it is not the one
 * the run knows: the startd restarted elsewhere (a new port).  The slot
 * is looked for by its name, then (a dynamic slot is gone with its
 * startd) any slot of the same machine, when they all agree.  True when
 * r->startd was changed. */
static bool startd_moved(struct sc_run *r)
{
	ks_daemon *d = r->s->d;
	const char *at = strrchr(r->slot_name, '@');
	char *machine = classad_eval_string_dup(r->slot, "Machine");
	if (!machine && at && at[1])
		machine = ks_xstrdup(at + 1);
	if (!machine)
		return false;
	struct classad_buf req = {0};
	classad_buf_add(&req, "Name == ", 8);
	classad_quote_string_buf(&req, r->slot_name, strlen(r->slot_name));
	classad_buf_add(&req, " || Machine == ", 15);
	classad_quote_string_buf(&req, machine, strlen(machine));
	free(machine);
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	classad_insert_text(q, "Requirements", req.data, NULL);
	classad_insert_string(q, "Projection", "Name MyAddress");
	free(req.data);
	classad **ads = NULL;
	size_t n = 0;
	struct ks_err err = {0};
	char *found = NULL;
	bool ambiguous = false, named = false;
	if (ks_collector_query(d->cfg, NULL, KS_QUERY_STARTD_ADS, q, &ads, &n,
			       &err) == 0) {
		for (size_t i = 0; i < n && !named; i++) {
			char *addr = classad_eval_string_dup(ads[i], "MyAddress");
			char *name = classad_eval_string_dup(ads[i], "Name");
			if (addr && name && strcmp(name, r->slot_name) == 0) {
				free(found);
				found = addr;
				addr = NULL;
				named = true;
				ambiguous = false;
			} else if (addr && !found) {
				found = addr;
				addr = NULL;
			} else if (addr && strcmp(addr, found) != 0) {
				ambiguous = true;
			}
			free(addr);
			free(name);
		}
	}
	ks_ads_free(ads, n);
	classad_free(q);
	bool moved = found && !ambiguous && strcmp(found, r->startd) != 0;
	if (moved) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "the startd of %s is now at %s (was %s)",
			      r->slot_name, found, r->startd);
		free(r->startd);
		r->startd = found;
		found = NULL;
	}
	free(found);
	return moved;
}

static const struct ks_call_ops act_ops;

static void attempt_reconnect(void *arg)
{
	struct sc_run *r = arg;
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	r->reconnect_timer = 0;
	r->attempts++;
	sc_job_set_int(s, j, "JobCurrentReconnectAttempt", r->attempts);
	add_int(s, j, "TotalJobReconnectAttempts", 1);
	sc_queue_flush(s, NULL);
	r->act = sc_run_call(r, KS_ACTIVATE_CLAIM, NULL, NULL, 0,
			     STARTD_TIMEOUT_MS, &act_ops);
}

/* The startd's answer to a reconnection that did not find the job
 * running: it has no such claim (it was restarted), or no job on it (the
 * claim is released), or the job ran under the startd before it and was
 * lost. */
static void reconnect_refused(struct sc_run *r, int rc, const char *why)
{
	struct sc_job *j = r->job;
	bool claim = rc == KS_EPERM && strstr(why, "claim id");
	bool lost = rc == KS_EPERM && strstr(why, KS_RECONNECT_JOB_LOST);
	r->state = claim ? R_GONE : R_IDLE;
	/* a start the schedd did not hear of: it happened */
	if (lost && start_pending(j))
		job_started(r, j);
	reconnect_failed(r, claim  ? "Claim not found at execution machine"
			    : lost ? "Job lost at execution machine: its "
				     "starter ended with the startd that ran "
				     "it"
				   : "Job not found at execution machine");
}

/* A reconnection that got no answer: tried again later (at once when the
 * startd is found to have moved: a restarted one answers at once, and if
 * it no longer has the claim, the job need not wait out its lease). */
static void reconnect_unanswered(struct sc_run *r, const char *why)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "job %d.%d: attempt %d to reconnect to %s failed: %s",
		      j->cluster, j->proc, r->attempts, r->slot_name, why);
	if (startd_moved(r)) {
		r->reconnect_timer = ks_loop_timer(s->d->loop, 0, 0,
						   attempt_reconnect, r);
		return;
	}
	next_reconnect(r);
}

/* The connection to the running job's startd broke. */
static void disconnected(struct sc_run *r)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	close_act(r);
	r->state = R_DISCONNECTED;
	r->attempts = 0;
	sc_event_disconnected(s, j, r->slot_name, r->startd,
			      "Socket between submit and execute hosts closed "
			      "unexpectedly");
	sc_job_set_int(s, j, "JobDisconnectedDate", (int64_t)time(NULL));
	sc_queue_flush(s, NULL);
	next_reconnect(r);
}

/* A message from the startd about the running job: news, or its end. */
static void job_message(struct sc_run *r, const struct ks_call_reply *rep)
{
	if (rep->code != KS_REPLY_OK || rep->n < 1) {
		/* the startd went away with the job: the claim is gone */
		ks_log_printf(r->s->d->log, KS_D_ALWAYS,
			      "lost the connection to %s running job %d.%d: "
			      "no result", r->slot_name,
			      r->job ? r->job->cluster : -1,
			      r->job ? r->job->proc : -1);
		r->state = R_GONE;
		job_ended(r, NULL, NULL, 0);
	} else if (rep->more) {
		job_news(r, rep->ads[0]);
	} else {
		job_ended(r, rep->ads[0], rep->ads + 1, rep->n - 1);
	}
}

/* The claim's channel broke while the job ran. */
static void channel_lost(struct sc_run *r, const char *why)
{
	ks_log_printf(r->s->d->log, KS_D_ALWAYS,
		      "lost the connection to %s running job %d.%d: %s",
		      r->slot_name, r->job ? r->job->cluster : -1,
		      r->job ? r->job->proc : -1, why);
	if (!r->job) {
		r->state = R_GONE;
		job_ended(r, NULL, NULL, 0);
	} else if (lease_left(r->job) >= 0) {
		disconnected(r);
	} else {
		/* job_lease_duration = 0: no reconnecting, as HTCondor's
		 * shadow gives up at once */
		r->state = R_DISCONNECTED;
		reconnect_failed(r, "Reconnect is not supported");
	}
}

static void activated(struct sc_run *r, const struct ks_call_reply *rep);

/* Every message on the claim's channel.  The request's last reply ends
 * the call: it is let go first, as what it brings may reuse or free the
 * run. */
static void on_act_reply(void *arg, ks_call *c, const struct ks_call_reply *rep)
{
	struct sc_run *r = arg;
	if (rep->echo) {
		/* a keep-alive's or a deactivation's answer */
		if (rep->code == KS_REPLY_OK) {
			renew_lease(r);
		} else {
			struct ks_err err = {0};
			sc_run_reply_ok(rep, &err);
			ks_log_printf(r->s->d->log, KS_D_FULLDEBUG,
				      "%s answered on the claim of %s: %s",
				      r->startd, r->slot_name, err.msg);
		}
		return;
	}
	if (!rep->more) {
		r->act = NULL;
		ks_call_cancel(c);
	}
	struct ks_err err = {0};
	switch (r->state) {
	case R_ACTIVATING:
		activated(r, rep);
		break;
	case R_DISCONNECTED:
		if (sc_run_reply_ok(rep, &err) == 0 && rep->more) {
			reconnected(r);
		} else {
			/* (an OK without more: no job on the claim) */
			int rc = sc_run_reply_ok(rep, &err);
			close_act(r);
			reconnect_refused(r, rc, err.msg);
		}
		break;
	default:
		job_message(r, rep);
		break;
	}
}

/* The claim's channel ended without the request's last reply. */
static void on_act_end(void *arg, ks_call *c, int rc, const struct ks_err *err)
{
	(void)c;
	struct sc_run *r = arg;
	struct sc_job *j = r->job;
	const char *why = err ? err->msg : "the connection ended";
	r->act = NULL;
	switch (r->state) {
	case R_ACTIVATING:
		if ((rc == KS_ECONNECT || rc == KS_EAUTH) || !j) {
			/* the request never reached the startd */
			activation_failed(r, why);
			break;
		}
		/* the connection broke after ACTIVATE_CLAIM went: the job
		 * may have started (its startd killed as it did), so the
		 * start stays pending and the schedd finds out as after a
		 * restart of its own, by reconnecting */
		ks_log_printf(r->s->d->log, KS_D_ALWAYS,
			      "job %d.%d: the connection to %s broke as the job "
			      "was being started (%s): reconnecting to learn "
			      "whether it started", j->cluster, j->proc,
			      r->slot_name, why);
		r->state = R_DISCONNECTED;
		r->attempts = 0;
		next_reconnect(r);
		break;
	case R_DISCONNECTED:
		reconnect_unanswered(r, why);
		break;
	default:
		channel_lost(r, why);
		break;
	}
}

static const struct ks_call_ops act_ops = {on_act_reply, on_act_end};

/* ---- starting -------------------------------------------------------- */

/* A job whose run ended before it started: Idle again, without an event
 * (its log never told of a start), or out of the queue when a command
 * removed it meanwhile; nothing of the claim left in it. */
static void never_ran(struct sc_schedd *s, struct sc_job *j, const char *where)
{
	forget_claim(s, j);
	sc_job_delete_attr(s, j, PENDING_ATTR);
	if (j->status == SC_RUNNING)
		sc_job_set_status(s, j, SC_IDLE);
	else if (j->status == SC_REMOVED)
		sc_run_job_end(s, j, where, NULL, NULL, NULL, 0);
}

static void activation_failed(struct sc_run *r, const char *why)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "cannot start job %d.%d on %s: %s", j ? j->cluster : -1,
		      j ? j->proc : -1, r->slot_name, why);
	r->job = NULL;
	if (j) {
		j->run = NULL;
		never_ran(s, j, r->slot_name);
	}
	close_act(r);
	r->state = R_IDLE;
	sc_queue_flush(s, NULL);
	/* (after the flush: the startd may drop the claim at once) */
	after_flush(r, reuse_claim);
	r->release_after = true;
}

/* What the schedd keeps of a job's start on the claim's slot, and its
 * execute event: at the startd's answer, or at a reconnection that finds
 * the job started while the schedd was away. */
static void job_started(struct sc_run *r, struct sc_job *j)
{
	struct sc_schedd *s = r->s;
	time_t now = time(NULL);
	int64_t first = 0;
	sc_job_delete_attr(s, j, PENDING_ATTR);
	if (!classad_eval_int(j->ad, "JobStartDate", NULL, &first))
		sc_job_set_int(s, j, "JobStartDate", (int64_t)now);
	sc_job_set_int(s, j, "JobCurrentStartDate", (int64_t)now);
	sc_job_set_int(s, j, "JobCurrentStartExecutingDate", (int64_t)now);
	add_int(s, j, "NumJobStarts", 1);
	sc_machine_attrs(s, j, r->slot);
	sc_provisioned(s, j, r->slot);
	sc_job_set_int(s, j, "LastJobLeaseRenewal", (int64_t)now);
	sc_event_execute(s, j, r->startd, r->slot_name);
	ks_log_printf(s->d->log, KS_D_ALWAYS, "job %d.%d started on %s",
		      j->cluster, j->proc, r->slot_name);
}

/* The startd's first answer to ACTIVATE_CLAIM: the job has started (its
 * news and its end come later on the same call) or could not. */
static void activated(struct sc_run *r, const struct ks_call_reply *rep)
{
	struct sc_schedd *s = r->s;
	struct sc_job *j = r->job;
	struct ks_err err = {0};
	int rc = sc_run_reply_ok(rep, &err);
	if (rc || !rep->more) {
		activation_failed(r, rc ? err.msg
					: "the startd gave no result");
		return;
	}
	r->state = R_ACTIVE;
	r->heard = (int64_t)time(NULL);
	if (j) {
		if (r->sent)
			add_real(s, j, "BytesSent", (double)r->sent);
		if (r->xfer)
			xfer_event(s, j, KS_USERLOG_XFER_IN_FINISHED, NULL);
		job_started(r, j);
		sc_queue_flush(s, NULL);
	}
	arm_alive(r);
	/* a command stopped it while it was being started */
	if (r->stop_on_start)
		deactivate(r, r->stop_force);
}

/* The job's coming start, in the store before the startd hears of it
 * (HTCondor's schedd marks a job Running when its shadow is born): a
 * schedd killed after sending ACTIVATE_CLAIM then reconnects to the job,
 * or learns that it never started, instead of matching it again while it
 * runs.  Returns 0 or the store's error (the job as it was). */
static int record_start(struct sc_run *r, struct sc_job *j, struct ks_err *err)
{
	struct sc_schedd *s = r->s;
	sc_queue_begin(s);
	sc_job_set_string(s, j, "RemoteHost", r->slot_name);
	sc_job_set_string(s, j, "StartdIpAddr", r->startd);
	sc_job_set_string(s, j, "ClaimId", r->claim_id);
	sc_job_set_int(s, j, "ShadowBday", (int64_t)time(NULL));
	/* (the lease a restarted schedd reconnects within) */
	sc_job_set_int(s, j, "LastJobLeaseRenewal", (int64_t)time(NULL));
	add_int(s, j, "NumShadowStarts", 1);
	sc_job_set_bool(s, j, PENDING_ATTR, true);
	sc_job_set_status(s, j, SC_RUNNING);
	return sc_queue_commit(s, err);
}

void sc_run_activate(struct sc_run *r, struct sc_job *j)
{
	struct sc_schedd *s = r->s;
	ks_daemon *d = s->d;
	struct ks_err err = {0};
	if (record_start(r, j, &err)) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "job %d.%d not started on %s: %s", j->cluster,
			      j->proc, r->slot_name, err.msg);
		sc_run_release(r, "the job's start could not be recorded");
		return;
	}
	r->job = j;
	j->run = r;
	classad *job = sc_run_job_for_startd(s, j, r->slot);
	struct ks_xfer_set files = {0};
	r->xfer = sc_xfer_wanted(job);
	if (r->xfer) {
		xfer_event(s, j, KS_USERLOG_XFER_IN_STARTED, r->startd);
		int eno = 0;
		if (sc_xfer_input(s, j, job, &files, &eno, &err)) {
			char why[800];
			snprintf(why, sizeof(why),
				 "Transfer input files failure at access point "
				 "%s while sending files to the execution point "
				 "%s. Details: %s",
				 d->name ? d->name : "?", r->slot_name, err.msg);
			ks_log_printf(d->log, KS_D_ALWAYS, "job %d.%d: %s",
				      j->cluster, j->proc, why);
			ks_xfer_set_free(&files);
			classad_free(job);
			r->job = NULL;
			j->run = NULL;
			never_ran(s, j, r->slot_name);
			sc_job_hold(s, j, why, 13, eno);
			sc_queue_flush(s, NULL);
			r->release_after = true;
			after_flush(r, reuse_claim);
			return;
		}
	}
	/* the startd answers once it has started the starter: meanwhile
	 * the loop goes on with the other slots' jobs */
	r->state = R_ACTIVATING;
	r->act = sc_run_call(r, KS_ACTIVATE_CLAIM, job, files.ads, files.n,
			     ACTIVATE_TIMEOUT_MS, &act_ops);
	r->sent = files.bytes;
	ks_xfer_set_free(&files);
	classad_free(job);
}

struct pick {
	struct sc_run *r;
	struct sc_job *found;
	bool same_limits; /* CLAIM_RECYCLING_CONSIDER_LIMITS */
};

static int pick_job(struct sc_job *j, void *arg)
{
	struct pick *p = arg;
	if (j->status != SC_IDLE || j->run)
		return 0;
	char *sub = sc_submitter_of(p->r->s, j);
	bool same = strcmp(sub, p->r->submitter) == 0;
	free(sub);
	if (!same)
		return 0;
	if (p->same_limits && p->r->limits) {
		char *limits = sc_run_job_limits(j);
		same = strcasecmp(limits, p->r->limits) == 0;
		free(limits);
		if (!same)
			return 0;
	}
	classad_match *m = classad_match_new(j->ad, p->r->slot, NULL);
	bool ok = m && classad_match_symmetric(m);
	classad_match_free(m);
	if (ok)
		p->found = j;
	return ok;
}

static struct sc_job *next_job(struct sc_run *r)
{
	struct pick p = {r, NULL, true};
	if (r->s->d->shutting_down)
		return NULL;
	ks_config_bool(r->s->d->cfg, "CLAIM_RECYCLING_CONSIDER_LIMITS",
		       &p.same_limits);
	sc_queue_each(r->s, pick_job, &p);
	return p.found;
}

/* Tells the startd, on the claim's channel, to end the job on the claim
 * (forcibly: at once); its end comes back on the same channel. */
static void deactivate(struct sc_run *r, bool force)
{
	int code = force ? KS_DEACTIVATE_CLAIM_FORCIBLY : KS_DEACTIVATE_CLAIM;
	if (!r->act) {
		tell_startd(r, code);
		return;
	}
	classad *head = head_ad(r, code);
	struct ks_err err = {0};
	if (ks_call_send(r->act, code, &head, 1, &err))
		ks_log_printf(r->s->d->log, KS_D_ALWAYS, "%s to %s: %s",
			      ks_command_name(code), r->startd, err.msg);
	classad_free(head);
}

/* Stops what the run does, for a command: a job started is deactivated
 * (its end comes as any end), one being started is deactivated once the
 * startd says it has started (so that its log tells of the run), one
 * out of reach is given up with its claim.  Returns the job when its run
 * is over here and now (NULL when its end is still to come). */
static struct sc_job *stop_run(struct sc_run *r, bool force)
{
	struct sc_job *j = r->job;
	r->release_after = true;
	switch (r->state) {
	case R_ACTIVE:
		deactivate(r, force);
		return NULL;
	case R_ACTIVATING:
		r->stop_on_start = true;
		r->stop_force = force;
		return NULL;
	case R_DISCONNECTED:
		/* the claim is given up (which ends the job on its startd if
		 * that is there after all) and the run ends here, as lost */
		r->job = NULL;
		if (j)
			j->run = NULL;
		sc_run_release(r, "the job was stopped while disconnected");
		return j;
	case R_CLAIMING:
		r->job = NULL;
		if (j)
			j->run = NULL;
		/* a claim asked for (a preempting one may wait long) is
		 * given up at the startd; one not asked for yet is dropped
		 * when claim() finds no job */
		if (r->req) {
			sc_claim_close_req(r);
			sc_run_release(r, "the job was stopped while it was "
				       "claimed");
		}
		return j;
	default:
		r->job = NULL;
		if (j)
			j->run = NULL;
		sc_run_release(r, "the job was stopped");
		return j;
	}
}

void sc_run_stop(struct sc_schedd *s, struct sc_job *j)
{
	if (j->local) {
		sc_local_stop(s, j);
		return;
	}
	struct sc_run *r = j->run;
	if (!r)
		return;
	bool lost = r->state == R_DISCONNECTED;
	char *where = ks_xstrdup(r->slot_name);
	if (stop_run(r, false)) {
		if (lost)
			sc_run_job_end(s, j, where, NULL, NULL, NULL, 0);
		else
			never_ran(s, j, where);
	}
	free(where);
}

void sc_run_abandon(struct sc_schedd *s, struct sc_job *j)
{
	(void)s;
	struct sc_run *r = j->run;
	if (!r)
		return;
	stop_run(r, true);
	/* the run ends without its job, which leaves the queue now */
	r->job = NULL;
	j->run = NULL;
}

/* ---- start-up and shutdown ------------------------------------------ */

/* A run for the claim the store records in job j (ClaimId,
 * StartdIpAddr, RemoteHost), in state st: what a restarted schedd has of
 * it. */
static struct sc_run *run_of_record(struct sc_schedd *s,
				    const struct sc_job *j,
				    enum run_state st)
{
	struct sc_run *r = ks_xcalloc(1, sizeof(*r));
	r->s = s;
	r->state = st;
	r->claim_id = classad_eval_string_dup(j->ad, "ClaimId");
	r->startd = classad_eval_string_dup(j->ad, "StartdIpAddr");
	r->slot_name = classad_eval_string_dup(j->ad, "RemoteHost");
	if (!r->slot_name)
		r->slot_name = ks_xstrdup(r->startd ? r->startd : "unknown");
	r->slot = classad_new();
	r->submitter = sc_submitter_of(s, j);
	sc_run_add(s, r);
	return r;
}

/* A job removed or held while it ran, whose run had not ended when the
 * schedd stopped: its claim is released (which ends the job on its
 * startd), and a removed job leaves the queue as its run's end would
 * have made it leave. */
static void recover_stopped(struct sc_schedd *s, struct sc_job *j)
{
	struct sc_run *r = run_of_record(s, j, R_IDLE);
	if (r->claim_id && r->startd) {
		sc_run_release(r, "its job was stopped while the schedd "
			       "was away");
	} else {
		r->state = R_GONE;
		sc_run_free(r);
	}
	forget_claim(s, j);
	sc_job_delete_attr(s, j, PENDING_ATTR);
	if (j->status == SC_REMOVED) {
		sc_job_removed_leaves(s, j);
	}
}

/* A job the store says was running when the schedd stopped: if it can
 * be reconnected (not a local or scheduler universe job, its claim
 * known, its lease not over), its run starts out disconnected (the
 * startd keeps the job within its lease and tells its end on the new
 * connection; the claim is released after the job, as its slot ad is
 * not at hand for a match).  Else it is Idle again at once, without an
 * event, as HTCondor's schedd marks such jobs stopped; a claim it had is
 * released, which ends the job if it still runs there. */
static int recover_job(struct sc_job *j, void *arg)
{
	struct sc_schedd *s = arg;
	if (j->status == SC_REMOVED ||
	    (j->status == SC_HELD && classad_lookup(j->ad, "ClaimId"))) {
		recover_stopped(s, j);
		return 0;
	}
	if (j->status != SC_RUNNING && j->status != SC_TRANSFERRING &&
	    j->status != SC_SUSPENDED)
		return 0;
	struct sc_run *r = run_of_record(s, j, R_DISCONNECTED);
	r->born_disconnected = true;
	r->release_after = true;
	bool has_claim = r->claim_id && r->startd;
	if (sc_local_universe(j) || !has_claim || lease_left(j) <= 0) {
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "job %d.%d was running when the schedd stopped "
			      "and cannot be reconnected (%s): idle again",
			      j->cluster, j->proc,
			      sc_local_universe(j) ? "it ran here"
			      : !has_claim	   ? "no claim in the queue"
						   : "its lease is over");
		if (!has_claim)
			r->state = R_GONE;
		forget_claim(s, j);
		sc_job_delete_attr(s, j, PENDING_ATTR);
		sc_job_set_status(s, j, SC_IDLE);
		sc_run_release(r, "its job was idle again after a restart");
		return 0;
	}
	r->job = j;
	j->run = r;
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "job %d.%d was running on %s when the schedd stopped: "
		      "reconnecting", j->cluster, j->proc, r->slot_name);
	next_reconnect(r);
	return 0;
}

void sc_run_start(struct sc_schedd *s)
{
	sc_queue_each(s, recover_job, s);
	sc_queue_flush(s, NULL);
}

void sc_run_reconfig(struct sc_schedd *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i]->state == R_ACTIVE)
			arm_alive(s->runs[i]);
}

void sc_run_shutdown(struct sc_schedd *s, bool fast)
{
	while (s->nruns) {
		struct sc_run *r = s->runs[s->nruns - 1];
		struct sc_job *j = r->job;
		bool started = j && (r->state == R_ACTIVE ||
				     r->state == R_ACTIVATING ||
				     r->state == R_DISCONNECTED);
		if (fast && started) {
			/* as HTCondor's schedd shut down fast: the job goes on
			 * under its lease, and the next schedd reconnects to
			 * it (its start and claim are in the store) */
			r->job = NULL;
			j->run = NULL;
			sc_run_free(r);
			continue;
		}
		if (j) {
			/* a graceful end: the job back to Idle, or it would
			 * run on unseen and then again */
			r->job = NULL;
			j->run = NULL;
			if (start_pending(j)) {
				never_ran(s, j, r->slot_name);
			} else {
				forget_claim(s, j);
				if (j->status == SC_RUNNING ||
				    j->status == SC_SUSPENDED ||
				    j->status == SC_TRANSFERRING) {
					sc_job_set_status(s, j, SC_IDLE);
					sc_event_evicted(s, j, NULL);
				}
			}
		}
		/* a claim asked for is given up at the startd (a preempting
		 * one waits there), one not asked for yet is dropped */
		if (r->state == R_CLAIMING && !r->req)
			r->state = R_GONE;
		sc_run_release(r, "the schedd is shutting down");
	}
}

void sc_run_free_all(struct sc_schedd *s)
{
	while (s->nruns) {
		struct sc_run *r = s->runs[s->nruns - 1];
		r->job = NULL;
		sc_run_free(r);
	}
	free(s->runs);
	s->runs = NULL;
}
