/*
 * drain.c: draining (condor_drain), as HTCondor's startd does it: the
 * slots stop taking jobs, running ones end as the request says (graceful:
 * their retirement time, then a vacate; quick: a vacate at once; fast: a
 * hard kill), each slot goes to Drained/Retiring once free (36, 37), and
 * all of them to Drained/Idle together (33).  Cancelling (or finishing a
 * request that resumes on completion) returns them to Owner (34, 35).
 * Every slot ad carries HTCondor's statistics of what draining costs:
 * CPU-seconds of jobs it evicted, CPU-seconds slots stood free, and what
 * a graceful or a quick drain would cost now.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_wire.h"
#include "sd_startd.h"

/* HTCondor's error codes for a refused request. */
enum { DRAINING_ALREADY_IN_PROGRESS = 1, DRAINING_NO_MATCHING_REQUEST_ID = 2,
       DRAINING_CHECK_EXPR_FAILED = 3 };

static void reply_result(struct ks_request *req, bool ok, int code,
			 const char *error, int request_id)
{
	classad *ad = classad_new();
	classad_insert_bool(ad, "Result", ok);
	if (!ok) {
		classad_insert_string(ad, "ErrorString", error);
		classad_insert_int(ad, "ErrorCode", code);
	} else if (request_id) {
		char id[32];
		snprintf(id, sizeof(id), "%d", request_id);
		classad_insert_string(ad, "RequestID", id);
	}
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
}

/* The request's CheckExpr must be true on every slot. */
static bool check_slots(ks_daemon *d, const classad_expr *check, char *why,
			size_t size)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; check && i < sd->nslots; i++) {
		classad *ad = sd_slot_ad_now(d, sd->slots[i]);
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(ad, check, NULL, &v);
		classad_free(ad);
		bool is_bool = v.type == CLASSAD_BOOLEAN, ok = is_bool && v.u.b;
		classad_value_clear(&v);
		if (!is_bool) {
			snprintf(why, size, "Draining check expression does not "
					    "evaluate to a bool on %s.",
				 sd->slots[i]->name);
			return false;
		}
		if (!ok) {
			snprintf(why, size, "Draining check expression is false "
					    "on %s.", sd->slots[i]->name);
			return false;
		}
	}
	return true;
}

void sd_cmd_drain(ks_daemon *d, struct ks_request *req)
{
	struct startd *sd = d->ctx;
	struct sd_drain *dr = &sd->drain;
	const classad *q = req->n ? req->ads[0] : NULL;
	ks_log_printf(d->log, KS_D_ALWAYS, "Processing drain request from %s",
		      req->identity);
	if (dr->on) {
		reply_result(req, false, DRAINING_ALREADY_IN_PROGRESS,
			     "Draining already in progress.", 0);
		return;
	}
	char why[300];
	if (!check_slots(d, q ? classad_lookup(q, "CheckExpr") : NULL, why,
			 sizeof(why))) {
		ks_log_printf(d->log, KS_D_ALWAYS, "Failed to start draining: %s",
			      why);
		reply_result(req, false, DRAINING_CHECK_EXPR_FAILED, why, 0);
		return;
	}
	int64_t how = 0, completion = 0;
	if (q) {
		classad_eval_int(q, "HowFast", NULL, &how);
		classad_eval_int(q, "ResumeOnCompletion", NULL, &completion);
	}
	char *reason = NULL;
	if (!q || !classad_eval_string(q, "DrainReason", NULL, &reason))
		reason = ks_xstrdup("by command");
	sd_drain_clear(d);
	dr->on = true;
	dr->how_fast = (int)how;
	dr->on_completion = (int)completion;
	dr->request_id++;
	dr->reason = reason;
	const classad_expr *start = q ? classad_lookup(q, "StartExpr") : NULL;
	dr->start = start ? classad_expr_ref(start) : NULL;
	dr->started = sd_now();
	ks_log_printf(d->log, KS_D_ALWAYS, "Initiating %s draining (request %d: %s)",
		      how <= 0 ? "graceful" : how <= 10 ? "quick" : "fast",
		      dr->request_id, reason);
	/* running jobs end as the request says */
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (s->st.state == SD_MATCHED)
			sd_event(d, s, SD_E_VACATE);
		if (s->st.state != SD_CLAIMED)
			continue;
		if (how <= 0 && s->st.activity != SD_IDLE)
			sd_event(d, s, SD_E_DRAIN); /* retires (13) */
		else
			sd_event(d, s, how <= 10 ? SD_E_VACATE
						 : SD_E_VACATE_FAST);
	}
	reply_result(req, true, 0, NULL, dr->request_id);
	sd_reevaluate(d, true);
}

static void end_draining(ks_daemon *d, const char *why)
{
	struct startd *sd = d->ctx;
	ks_log_printf(d->log, KS_D_ALWAYS, "Draining ends: %s", why);
	sd_drain_clear(d);
	sd->drain.stopped = sd_now();
	for (size_t i = 0; i < sd->nslots; i++)
		sd_event(d, sd->slots[i], SD_E_DRAIN_END);
}

void sd_cmd_cancel_drain(ks_daemon *d, struct ks_request *req)
{
	struct startd *sd = d->ctx;
	char *id = NULL;
	if (req->n)
		classad_eval_string(req->ads[0], "RequestID", NULL, &id);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "Processing cancel drain request from %s", req->identity);
	if (id && *id && (!sd->drain.on || atoi(id) != sd->drain.request_id)) {
		char why[128];
		snprintf(why, sizeof(why), "No matching draining request id %s.",
			 id);
		reply_result(req, false, DRAINING_NO_MATCHING_REQUEST_ID, why, 0);
		free(id);
		return;
	}
	free(id);
	if (sd->drain.on)
		end_draining(d, "cancelled");
	reply_result(req, true, 0, NULL, 0);
	sd_reevaluate(d, true);
}

/* At the start of a policy pass: slots free to drain go to Drained;
 * when every slot is drained, Drained/Idle (and the end, for a request
 * that resumes on completion). */
static bool drain_pass(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	if (!sd->drain.on)
		return false;
	bool all = true, changed = false;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (s->st.state == SD_OWNER || s->st.state == SD_UNCLAIMED)
			changed |= sd_event(d, s, SD_E_DRAIN);
		else if (s->st.state == SD_CLAIMED && s->st.activity == SD_IDLE)
			changed |= sd_event(d, s, SD_E_VACATE); /* job done */
		if (s->st.state != SD_DRAINED)
			all = false;
	}
	if (!all)
		return changed;
	for (size_t i = 0; i < sd->nslots; i++)
		changed |= sd_event(d, sd->slots[i], SD_E_DRAINED);
	if (sd->drain.on_completion) {
		end_draining(d, "every slot is drained, and the request "
				"resumes on completion");
		changed = true;
	}
	return changed;
}

/* The CPUs a slot holds (a partitionable slot: those not carved). */
static double cpus_of(const struct sd_slot *s)
{
	return s->spec.partitionable ? s->left_cpus : s->spec.cpus;
}

/* Since when slot s, free, has been so while draining; 0 if it is not
 * (Drained is only ever entered while draining). */
static int64_t free_since(const struct sd_drain *dr, const struct sd_slot *s)
{
	if (s->st.state == SD_DRAINED)
		return s->entered_state;
	if (s->st.state == SD_UNCLAIMED && dr->on)
		return s->entered_state > dr->started ? s->entered_state
						      : dr->started;
	return 0;
}

/* Before slot s takes step st: counts the time it was free while
 * draining, and the run of a job draining evicts. */
static void drain_note(ks_daemon *d, struct sd_slot *s,
		       const struct sd_step *st)
{
	struct startd *sd = d->ctx;
	struct sd_drain *dr = &sd->drain;
	int64_t now = sd_now();
	if (st->state == s->st.state)
		return; /* a new activity only */
	int64_t from = free_since(dr, s);
	if (from && now > from)
		dr->unclaimed_past += (double)(now - from) * cpus_of(s);
	/* a job evicted while draining: HTCondor counts its whole run once
	 * it has gone (its vacate time included) */
	const struct sd_claim *c = &s->claim;
	if (st->state == SD_PREEMPTING && dr->on && c->job_start) {
		s->drain_run_from = c->job_start + c->suspended_total +
				    (c->suspended_at ? now - c->suspended_at : 0);
	} else if (s->st.state == SD_PREEMPTING && s->drain_run_from) {
		double badput = (double)(now - s->drain_run_from) * cpus_of(s);
		if (badput < 0)
			badput = 0;
		dr->badput += badput;
		s->drain_run_from = 0;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: adding to badput caused by draining: %.0f "
			      "cpu-seconds", s->short_name, badput);
	}
}

/* Brings the statistics of draining up to date (on the polling timer,
 * as HTCondor's startd does). */
static void drain_stats(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	struct sd_drain *dr = &sd->drain;
	int64_t now = sd_now();
	double unclaimed = dr->unclaimed_past;
	double badput[2] = {0, 0};         /* graceful, quick */
	int64_t completion[2] = {0, 0};
	bool drained = true;
	for (size_t i = 0; i < sd->nslots; i++) {
		const struct sd_slot *s = sd->slots[i];
		double cpus = cpus_of(s);
		int64_t from = free_since(dr, s);
		if (from && now > from)
			unclaimed += (double)(now - from) * cpus;
		const struct sd_claim *c = &s->claim;
		if (!c->job_start)
			continue; /* no job to lose or wait for */
		drained = false;
		classad *ad = sd_slot_ad_now(d, s);
		int64_t retire = sd_claim_retirement_left(d, s, ad);
		int64_t vacate = sd_claim_vacate_time(d, s, ad);
		classad_free(ad);
		int64_t run = now - c->job_start - c->suspended_total -
			      (c->suspended_at ? now - c->suspended_at : 0);
		if (run < 0)
			run = 0;
		/* a graceful drain waits out the retirement, or vacates at
		 * once when that is shorter than the vacate time */
		int64_t graceful = retire < vacate ? vacate : retire;
		/* in doubles: a retirement without end is INT64_MAX */
		badput[0] += cpus * ((double)run + (double)graceful);
		badput[1] += cpus * ((double)run + (double)vacate);
		if (graceful > completion[0])
			completion[0] = graceful;
		if (vacate > completion[1])
			completion[1] = vacate;
	}
	for (int k = 0; k < 2; k++) {
		dr->expected_badput[k] = badput[k] + 0.5 >= 9.2e18
						 ? INT64_MAX
						 : (int64_t)(badput[k] + 0.5);
		if (!drained) {
			dr->expected_completion[k] =
				completion[k] > INT64_MAX - now ? INT64_MAX
								: now + completion[k];
		} else if (!dr->expected_completion[k] ||
			   dr->expected_completion[k] > now) {
			/* drained: now, unless it was so earlier */
			dr->expected_completion[k] = now;
		}
	}
	dr->unclaimed = unclaimed;
}

void sd_drain_attrs(const struct sd_drain *dr, classad *ad)
{
	classad_insert_int(ad, "ExpectedMachineGracefulDrainingBadput",
			   dr->expected_badput[0]);
	classad_insert_int(ad, "ExpectedMachineQuickDrainingBadput",
			   dr->expected_badput[1]);
	classad_insert_int(ad, "ExpectedMachineGracefulDrainingCompletion",
			   dr->expected_completion[0]);
	classad_insert_int(ad, "ExpectedMachineQuickDrainingCompletion",
			   dr->expected_completion[1]);
	/* as HTCondor, the totals once they are more than 0 */
	if ((int64_t)(dr->badput + 0.5) > 0)
		classad_insert_int(ad, "TotalMachineDrainingBadput",
				   (int64_t)(dr->badput + 0.5));
	if ((int64_t)(dr->unclaimed + 0.5) > 0)
		classad_insert_int(ad, "TotalMachineDrainingUnclaimedTime",
				   (int64_t)(dr->unclaimed + 0.5));
	if (dr->started)
		classad_insert_int(ad, "LastDrainStartTime", dr->started);
	if (dr->stopped)
		classad_insert_int(ad, "LastDrainStopTime", dr->stopped);
	if (!dr->on)
		return;
	char id[32];
	snprintf(id, sizeof(id), "%d", dr->request_id);
	classad_insert_bool(ad, "Draining", true);
	classad_insert_string(ad, "DrainingRequestId", id);
	classad_insert_string(ad, "DrainReason", dr->reason ? dr->reason : "");
	/* no new jobs but those the request's StartExpr lets in */
	if (dr->start)
		classad_insert(ad, "START", classad_expr_ref(dr->start));
	else
		classad_insert_bool(ad, "START", false);
}

void sd_drain_clear(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	free(sd->drain.reason);
	sd->drain.reason = NULL;
	classad_expr_free(sd->drain.start);
	sd->drain.start = NULL;
	sd->drain.on = false;
}

const struct sd_feature sd_drain_feature = {
	.name = "drain",
	.pass = drain_pass,
	.before_step = drain_note,
	.poll = drain_stats,
};
