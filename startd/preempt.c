/*
 * preempt.c: a better claim for a claimed slot (seed 004's rank and
 * priority preemption, from the startd's side).  While a slot is claimed
 * it has a second capability, which the negotiator may give a schedd
 * whose job the slot should run instead (kestrel writes it to
 * $(LOG)/.startd_preempt_id.<slot> until the negotiator reads it from the
 * collector).  A REQUEST_CLAIM with it is accepted when the slot's RANK of
 * the new job is at least that of the current one (equal: the negotiator
 * chose by user priority): the current claim retires (13, or 10 when
 * idle) and the request is answered once the slot is the new claim's
 * (23, 24).  If the waiting claim is released first, a claim that retired
 * for it alone goes back to work (19).
 */
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sd_startd.h"

static void drop_waiting(struct sd_slot *s)
{
	struct sd_preempt *p = &s->pre;
	free(p->client);
	free(p->client_host);
	classad_free(p->job);
	p->client = p->client_host = NULL;
	p->job = NULL;
	p->waiting = false;
	p->later = NULL;
}

static void refuse_waiting(struct sd_slot *s, const char *why)
{
	if (s->pre.later) {
		classad *e = classad_new();
		classad_insert_string(e, "ErrorString", why);
		classad_insert_int(e, "ErrorCode", 1);
		ks_later_reply(s->pre.later, KS_REPLY_ERROR, &e, 1);
		classad_free(e);
	}
	drop_waiting(s);
}

void sd_preempt_arm(ks_daemon *d, struct sd_slot *s)
{
	sd_claim_make_id(d, s->pre.id, sizeof(s->pre.id));
	sd_claim_write_id(d, "preempt", s, s->pre.id);
}

void sd_preempt_disarm(ks_daemon *d, struct sd_slot *s, const char *why)
{
	(void)d;
	if (s->pre.waiting)
		refuse_waiting(s, why);
	s->pre.id[0] = '\0';
}

struct sd_slot *sd_preempt_find(ks_daemon *d, const char *id)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; id && i < sd->nslots; i++)
		if (sd_claim_id_is(sd->slots[i]->pre.id, id))
			return sd->slots[i];
	return NULL;
}

double sd_rank_of(const classad *slot_ad, const classad *job)
{
	const classad_expr *e = classad_lookup(slot_ad, "Rank");
	classad_value v = CLASSAD_VALUE_INIT;
	double r = 0;
	if (e) {
		classad_eval_expr_in_match(slot_ad, job, e, NULL, &v);
		/* a number, as HTCondor's EvalFloat() takes one: a boolean
		 * is 1 or 0 (RANK = Owner == "coltrane") */
		r = v.type == CLASSAD_REAL      ? v.u.r
		    : v.type == CLASSAD_INTEGER ? (double)v.u.i
		    : v.type == CLASSAD_BOOLEAN ? (v.u.b ? 1.0 : 0.0)
						: 0.0;
		classad_value_clear(&v);
	}
	return r;
}

/* The slot's RANK of job. */
static double rank_of(ks_daemon *d, const struct sd_slot *s,
		      const classad *job)
{
	classad *ad = sd_slot_ad_now(d, s);
	double r = sd_rank_of(ad, job);
	classad_free(ad);
	return r;
}

void sd_preempt_request(ks_daemon *d, struct sd_slot *s,
			struct ks_request *req)
{
	if (req->n < 2) {
		ks_reply_error(req, "REQUEST_CLAIM carries the claim and the job ad");
		return;
	}
	if (s->st.state != SD_CLAIMED || s->pre.waiting) {
		ks_reply_error(req, "%s cannot be preempted now (%s/%s%s)",
			       s->short_name, sd_state_name(s->st.state),
			       sd_activity_name(s->st.activity),
			       s->pre.waiting ? ", another claim waits" : "");
		return;
	}
	double now = rank_of(d, s, s->job), rank = rank_of(d, s, req->ads[1]);
	if (rank < now) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: preempting claim from %s refused: its rank "
			      "%g is below the current claim's %g",
			      s->short_name, req->identity, rank, now);
		ks_reply_error(req, "the slot ranks this job %g, below the "
			       "current claim's %g", rank, now);
		return;
	}
	struct sd_preempt *p = &s->pre;
	p->later = ks_reply_later(req);
	if (!p->later) {
		ks_reply_error(req, "a preempting claim needs a connection "
				    "to wait on");
		return;
	}
	p->waiting = true;
	p->client = ks_xstrdup(req->identity);
	p->client_host = ks_xstrdup(*req->host ? req->host : "localhost");
	p->job = classad_copy(req->ads[1]);
	p->rank = rank;
	int64_t lease = 0, alive = 300;
	classad_eval_int(req->ads[0], "AliveInterval", NULL, &alive);
	if (!classad_eval_int(p->job, "JobLeaseDuration", NULL, &lease))
		lease = ks_daemon_int(d, "MAX_CLAIM_ALIVES_MISSED", 6) * alive;
	p->lease = lease;
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: preempting claim from %s accepted (rank %g, the "
		      "current claim's %g: %s preemption)",
		      s->short_name, req->identity, rank, now,
		      rank > now ? "rank" : "priority");
	s->st.for_better = true;
	if (!sd_event(d, s, SD_E_BETTER_CLAIM) &&
	    s->st.activity == SD_SUSPENDED && !s->st.retiring) {
		/* a suspended job stays suspended, but its retirement (which
		 * time suspended does not use up) has begun */
		s->st.retiring = true;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: retiring while suspended: a better claim "
			      "preempts this one", s->short_name);
	}
	sd_reevaluate(d, true);
}

void sd_preempt_release(ks_daemon *d, struct sd_slot *s,
			struct ks_request *req)
{
	if (req->code == KS_ALIVE) {
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
		return;
	}
	if (!s->pre.waiting) {
		ks_reply_error(req, "no claim waits for %s", s->short_name);
		return;
	}
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: the preempting claim of %s was released",
		      s->short_name, s->pre.client);
	refuse_waiting(s, "the preempting claim was released");
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	s->st.for_better = false;
	/* a slot retiring for other reasons too (the owner, a drain, a
	 * shutdown) goes on retiring */
	if (!d->shutting_down && !((struct startd *)d->ctx)->drain.on)
		sd_event(d, s, SD_E_PREEMPTOR_GONE);
	sd_reevaluate(d, true);
}

bool sd_preempt_take_over(ks_daemon *d, struct sd_slot *s)
{
	struct sd_preempt *p = &s->pre;
	if (!p->waiting)
		return false;
	struct sd_claim *c = &s->claim;
	/* the last job's end was the old claim's: never the new one's */
	sd_end_drop(d, s, true);
	free(c->client);
	free(c->client_host);
	classad_free(s->job);
	c->client = p->client;
	c->client_host = p->client_host;
	s->job = p->job;
	p->client = p->client_host = NULL;
	p->job = NULL;
	/* the waiting claim's capability names it now; a new one is made
	 * for the next better claim */
	memcpy(c->id, p->id, sizeof(c->id));
	sd_claim_write_id(d, "claim", s, c->id);
	sd_preempt_arm(d, s);
	c->lease = p->lease;
	c->last_alive = c->claimed_at = sd_now();
	c->activations = 0;
	s->st.for_better = false;
	s->st.retiring = false;
	s->st.preempt_was_true = false;
	ks_log_printf(d->log, KS_D_ALWAYS, "%s: now claimed by %s",
		      s->short_name, c->client);
	classad *ad = sd_slot_ad_now(d, s);
	classad_insert_string(ad, "ClaimId", c->id);
	/* a claimer gone meanwhile (its schedd killed, or it gave up
	 * waiting) would leave the slot claimed by nobody until the lease
	 * ran out: as HTCondor's startd aborts a claim whose answer cannot
	 * be sent, the claim ends (at the next poll: the slot is in the
	 * middle of its transition now) */
	if (!ks_later_reply(p->later, KS_REPLY_OK, &ad, 1)) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the answer to %s's preempting claim could not "
			      "be sent: it has gone", s->short_name, c->client);
		c->unheard = true;
	}
	classad_free(ad);
	p->later = NULL;
	p->waiting = false;
	return true;
}
