/*
 * pslot_preempt.c: a claim on a partitionable slot that preempts some of
 * its dynamic slots (the negotiator's ALLOW_PSLOT_PREEMPTION: the schedd
 * sends their preempting capabilities as PreemptDslotClaims with
 * REQUEST_CLAIM).  HTCondor's startd kills their jobs at once, moves
 * their resources back, and carves for the new job from whatever is
 * free at that moment.  Here each of them is preempted as for a better
 * claim (its job retires, then is vacated, and its schedd requeues it),
 * the request waits, and the partitionable slot takes no other claim
 * until every one of them has gone; then one dynamic slot with the
 * job's share (by its requests or the consumption policy) is carved from
 * what they gave back and what was free, and the request is answered
 * with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"
#include "sd_startd.h"

struct sd_pswait {
	char **victims; /* names of the dynamic slots it waits for */
	size_t n;
	classad *job;
	char *client, *client_host;
	int64_t alive;
	struct ks_later *later; /* the REQUEST_CLAIM's answer */
};

void sd_pslot_preempt_free(struct sd_slot *p)
{
	struct sd_pswait *w = p->pswait;
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->victims[i]);
	free(w->victims);
	classad_free(w->job);
	free(w->client);
	free(w->client_host);
	ks_later_cancel(w->later);
	free(w);
	p->pswait = NULL;
}

bool sd_pslot_preempt_asked(const struct ks_request *req)
{
	return req->n && classad_lookup(req->ads[0], "PreemptDslotClaims");
}

bool sd_pslot_preempt_waits(const struct sd_slot *p)
{
	return p->pswait != NULL;
}

/* The slot's RANK of job, its ad as it is now. */
static double rank_now(ks_daemon *d, const struct sd_slot *s,
		       const classad *job)
{
	classad *ad = sd_slot_ad_now(d, s);
	double r = sd_rank_of(ad, job);
	classad_free(ad);
	return r;
}

/* The dynamic slots of p that the space-separated capabilities in ids
 * name, into v (at most max); 0 with why filled when one is not a
 * claimed dynamic slot of p free to be preempted. */
static size_t victims_of(ks_daemon *d, const struct sd_slot *p,
			 const char *ids, struct sd_slot **v, size_t max,
			 char *why, size_t size)
{
	size_t n = 0;
	bool any = false;
	char *list = ks_xstrdup(ids);
	for (char *cur = list, *id; (id = ks_list_cut(&cur));) {
		any = true;
		struct sd_slot *s = sd_preempt_find(d, id);
		bool twice = false;
		for (size_t i = 0; s && i < n; i++)
			twice = twice || v[i] == s;
		if (!s || !s->parent || s->parent != p->id) {
			snprintf(why, size, "PreemptDslotClaims names no dynamic "
					    "slot of %s that can be preempted",
				 p->name);
			n = 0;
			break;
		}
		if (twice)
			continue;
		if (s->st.state != SD_CLAIMED || s->pre.waiting || n == max) {
			snprintf(why, size, "%s cannot be preempted now (%s/%s%s)",
				 s->name, sd_state_name(s->st.state),
				 sd_activity_name(s->st.activity),
				 s->pre.waiting ? ", another claim waits" : "");
			n = 0;
			break;
		}
		v[n++] = s;
	}
	if (!any)
		snprintf(why, size, "PreemptDslotClaims names no dynamic slot");
	free(list);
	return n;
}

static void refuse(ks_daemon *d, const struct sd_slot *p,
		   struct ks_request *req, const char *why)
{
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: preempting claim from %s refused: %s", p->short_name,
		      req->identity, why);
	ks_reply_error(req, "%s", why);
}

void sd_pslot_preempt_request(ks_daemon *d, struct sd_slot *p,
			      struct ks_request *req)
{
	char why[400] = "";
	if (req->n < 2) {
		ks_reply_error(req, "REQUEST_CLAIM carries the claim and the job ad");
		return;
	}
	if (p->pswait) {
		refuse(d, p, req, "another preempting claim waits for the slot");
		return;
	}
	if (p->st.state != SD_UNCLAIMED && p->st.state != SD_MATCHED) {
		snprintf(why, sizeof(why), "%s is %s/%s, not free to claim",
			 p->name, sd_state_name(p->st.state),
			 sd_activity_name(p->st.activity));
		refuse(d, p, req, why);
		return;
	}
	char *ids = NULL;
	classad_eval_string(req->ads[0], "PreemptDslotClaims", NULL, &ids);
	struct sd_slot *v[256];
	size_t n = ids ? victims_of(d, p, ids, v, 256, why, sizeof(why)) : 0;
	free(ids);
	if (!n) {
		refuse(d, p, req, *why ? why : "PreemptDslotClaims is not a "
						"string of capabilities");
		return;
	}
	const classad *job = req->ads[1];
	for (size_t i = 0; i < n; i++) {
		double now = rank_now(d, v[i], v[i]->job),
		       rank = rank_now(d, v[i], job);
		if (rank < now) {
			snprintf(why, sizeof(why),
				 "%s ranks this job %g, below its current "
				 "claim's %g", v[i]->name, rank, now);
			refuse(d, p, req, why);
			return;
		}
	}
	/* START now, so that no job is evicted for a claim that START
	 * would refuse (it is evaluated again when the slot is carved) */
	classad_free(p->job);
	p->job = classad_copy(job);
	classad *pad = sd_slot_ad_now(d, p);
	enum sd_truth start = sd_slot_eval(p, pad, SD_X_START);
	classad_free(pad);
	classad_free(p->job);
	p->job = NULL;
	if (start != SD_TRUE) {
		snprintf(why, sizeof(why), "START is %s for this job on %s",
			 start == SD_FALSE ? "false" : "undefined", p->name);
		refuse(d, p, req, why);
		return;
	}
	if (!sd_dslot_fits(d, p, job, v, n, why, sizeof(why))) {
		refuse(d, p, req, why);
		return;
	}
	struct ks_later *later = ks_reply_later(req);
	if (!later) {
		ks_reply_error(req, "a preempting claim needs a connection to "
				    "wait on");
		return;
	}
	struct sd_pswait *w = ks_xcalloc(1, sizeof(*w));
	w->victims = ks_xcalloc(n, sizeof(*w->victims));
	struct classad_buf names = {0};
	for (size_t i = 0; i < n; i++) {
		w->victims[i] = ks_xstrdup(v[i]->name);
		classad_buf_printf(&names, "%s%s", i ? ", " : "",
				   v[i]->short_name);
	}
	w->n = n;
	w->job = classad_copy(job);
	w->client = ks_xstrdup(req->identity);
	w->client_host = ks_xstrdup(*req->host ? req->host : "localhost");
	w->alive = 300;
	classad_eval_int(req->ads[0], "AliveInterval", NULL, &w->alive);
	w->later = later;
	p->pswait = w;
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: preempting claim from %s accepted: it waits for "
		      "%s to go", p->short_name, req->identity, names.data);
	free(names.data);
	for (size_t i = 0; i < n; i++) {
		struct sd_slot *s = v[i];
		/* nobody else preempts it now; its claim ends with it */
		sd_preempt_disarm(d, s, "its partitionable slot is claimed "
					"by a preempting claim");
		if (!sd_event(d, s, SD_E_BETTER_CLAIM) &&
		    s->st.activity == SD_SUSPENDED && !s->st.retiring) {
			s->st.retiring = true;
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: retiring while suspended: a better "
				      "claim preempts this one",
				      s->short_name);
		}
	}
	sd_reevaluate(d, true);
}

static bool present(const struct startd *sd, const char *name)
{
	for (size_t i = 0; i < sd->nslots; i++)
		if (strcmp(sd->slots[i]->name, name) == 0)
			return true;
	return false;
}

/* Answers p's waiting claim: with the dynamic slot carved for it, or
 * with why not. */
static void grant(ks_daemon *d, struct sd_slot *p)
{
	struct sd_pswait *w = p->pswait;
	struct ks_later *later = w->later;
	w->later = NULL;
	classad *job = w->job;
	w->job = NULL;
	char *client = ks_xstrdup(w->client), *host = ks_xstrdup(w->client_host);
	int64_t alive = w->alive;
	sd_pslot_preempt_free(p);
	char why[400];
	struct sd_slot *s = NULL;
	if (d->shutting_down) {
		classad_free(job);
		snprintf(why, sizeof(why), "the startd is shutting down");
	} else if (p->st.state != SD_UNCLAIMED && p->st.state != SD_MATCHED) {
		classad_free(job);
		snprintf(why, sizeof(why), "%s is %s/%s, not free to claim",
			 p->name, sd_state_name(p->st.state),
			 sd_activity_name(p->st.activity));
	} else {
		s = sd_claim_grant(d, p, job, client, host, alive, why,
				   sizeof(why));
	}
	if (s) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the dynamic slots preempted are gone: %s "
			      "is claimed by %s", p->short_name, s->short_name,
			      client);
		classad *ad = sd_slot_ad_now(d, s);
		classad_insert_string(ad, "ClaimId", s->claim.id);
		bool heard = ks_later_reply(later, KS_REPLY_OK, &ad, 1);
		classad_free(ad);
		if (!heard) {
			/* no one holds the claim: it goes at once rather
			 * than when its lease runs out */
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: %s is gone; its claim is released",
				      s->short_name, client);
			sd_event(d, s, SD_E_RELEASE);
		}
	} else {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the preempting claim from %s is refused: %s",
			      p->short_name, client, why);
		classad *e = classad_new();
		classad_insert_string(e, "ErrorString", why);
		classad_insert_int(e, "ErrorCode", 1);
		ks_later_reply(later, KS_REPLY_ERROR, &e, 1);
		classad_free(e);
	}
	free(client);
	free(host);
}

void sd_pslot_preempt_resume(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *p = sd->slots[i];
		if (!p->pswait)
			continue;
		bool left = false;
		for (size_t k = 0; k < p->pswait->n && !left; k++)
			left = present(sd, p->pswait->victims[k]);
		if (!left)
			grant(d, p);
	}
}
