/*
 * engine.c: the startd's policy engine (sd_engine.h): passes of policy
 * over the slots, their transitions, and which slot ads changed; the
 * features plug in through sd_features[].
 */
#include <stdlib.h>
#include <time.h>

#include "ks_daemon.h"
#include "ks_mem.h"
#include "sd_ad.h"
#include "sd_engine.h"
#include "sd_slot.h"
#include "sd_startd.h"
#include "sd_state.h"
#include "sd_sysinfo.h"

/* A slot whose policy keeps calling for transitions is stopped after
 * this many in one round: a policy that loops (IS_OWNER and START
 * disagreeing, say) shows in the log instead of hanging the startd. */
#define MAX_STEPS 8

int64_t sd_now(void)
{
	return (int64_t)time(NULL);
}

static void host_facts(ks_daemon *d, struct sd_host *h)
{
	struct startd *sd = d->ctx;
	int64_t now = sd_now();
	if (sd->load_read_at != now) {
		sd->load = sd_load_average();
		sd->load_read_at = now;
	}
	*h = (struct sd_host){.cfg = d->cfg,
			      .hostname = sd->hostname,
			      .sinful = d->sinful,
			      .now = now,
			      .start_time = d->start_time,
			      .load = sd->load,
			      .machine = &sd->machine,
			      .platform = &sd->platform,
			      .nslots = sd->nslots,
			      .bench = sd->bench,
			      .last_benchmark = sd->last_benchmark,
			      .cron = sd->cron,
			      .drain = &sd->drain,
			      .extras = sd->extras,
			      .endless_retirement = d->shutting_down &&
						    d->peaceful};
	sd_idle_times(&sd->idle, h->now, d->start_time, &h->idle);
	sd_jobload_measure(d);
	for (size_t i = 0; i < sd->nslots; i++)
		h->condor_load += sd->slots[i]->claim.load;
}

struct ask_ctx {
	const struct sd_slot *slot;
	const classad *ad;
};

static enum sd_truth ask(void *arg, enum sd_expr x)
{
	struct ask_ctx *c = arg;
	return sd_slot_eval(c->slot, c->ad, x);
}

/* Each feature's hook of the given kind, in the table's order. */
#define EACH_FEATURE(hook, ...)                                     \
	for (size_t f_ = 0; f_ < sd_nfeatures; f_++)                \
		if (sd_features[f_]->hook)                          \
			sd_features[f_]->hook(__VA_ARGS__)

void sd_transition(ks_daemon *d, struct sd_slot *s, const struct sd_step *st)
{
	struct sd_slot_state was = s->st;
	EACH_FEATURE(before_step, d, s, st);
	sd_slot_apply(s, st, sd_now(), d->log);
	sd_slot_changed(d, s);
	EACH_FEATURE(after_step, d, s, st, &was);
	/* a dynamic slot lives as long as its claim: back in Owner, it goes
	 * (at the next round, not while the slots are being walked) */
	if (s->parent && s->st.state == SD_OWNER)
		s->dead = true;
}

bool sd_event(ks_daemon *d, struct sd_slot *s, enum sd_event ev)
{
	struct sd_step st;
	if (!sd_event_step(&s->st, ev, &st))
		return false;
	sd_transition(d, s, &st);
	return true;
}

/* Rounds of policy for every slot (all) or for those that changed
 * since their policy was last evaluated: each makes the transitions
 * its expressions call for, seeing its own ad as it is after each one.
 * (HTCondor's startd too evaluates a slot when it changes, and every slot
 * on its polling timer.) */
static void evaluate(ks_daemon *d, bool all)
{
	struct startd *sd = d->ctx;
	struct sd_host h;
	if (!all)
		all = sd_slot_ads_linked(d->cfg);
	for (int round = 0; round < MAX_STEPS; round++) {
		bool any = false;
		for (size_t f = 0; f < sd_nfeatures; f++)
			if (sd_features[f]->pass)
				any |= sd_features[f]->pass(d);
		size_t n = sd->nslots ? sd->nslots : 1;
		classad **ads = ks_xmalloc(n * sizeof(*ads));
		bool *want = ks_xcalloc(n, sizeof(*want));
		for (size_t i = 0; i < sd->nslots; i++)
			want[i] = all || sd->slots[i]->unevaluated;
		host_facts(d, &h); /* a transition may have changed them */
		sd_slot_ads(&h, sd->slots, ads, want);
		for (size_t i = 0; i < sd->nslots; i++) {
			struct sd_slot *s = sd->slots[i];
			if (!ads[i])
				continue;
			/* a transition below marks it again */
			s->unevaluated = false;
			/* a latch that changed is in the ad of the next round */
			if (sd_latches_update(&s->latches, ads[i], h.now)) {
				sd_slot_changed(d, s);
				any = true;
			}
			struct ask_ctx c = {s, ads[i]};
			struct sd_timers t = {0};
			EACH_FEATURE(timers, d, s, ads[i], &t);
			struct sd_step step;
			if (!sd_policy_step(&s->st, &t, ask, &c, &step))
				continue;
			sd_transition(d, s, &step);
			any = true;
		}
		for (size_t i = 0; i < sd->nslots; i++)
			classad_free(ads[i]);
		free(ads);
		free(want);
		if (!any)
			break;
		if (round == MAX_STEPS - 1)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "the policy keeps changing the slots' "
				      "states; stopping for this round");
	}
}

static void schedule_poll(ks_daemon *d);

static bool any_changed(const struct startd *sd)
{
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->dirty)
			return true;
	return false;
}

void sd_reevaluate(ks_daemon *d, bool force)
{
	struct startd *sd = d->ctx;
	evaluate(d, true);
	if (force) {
		ks_daemon_update_collector(d);
		for (size_t i = 0; i < sd->nslots; i++)
			sd->slots[i]->dirty = false;
	} else if (any_changed(sd))
		ks_daemon_update_changed(d);
	schedule_poll(d);
}

void sd_reevaluate_changed(ks_daemon *d)
{
	evaluate(d, false);
	if (any_changed(d->ctx))
		ks_daemon_update_changed(d);
	schedule_poll(d);
}

void sd_slot_changed(ks_daemon *d, struct sd_slot *s)
{
	struct startd *sd = d->ctx;
	s->dirty = s->unevaluated = true;
	for (size_t i = 0; s->parent && i < sd->nslots; i++)
		if (sd->slots[i]->spec.partitionable &&
		    sd->slots[i]->id == s->parent)
			sd->slots[i]->dirty = sd->slots[i]->unevaluated = true;
}

void sd_all_changed(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++)
		sd->slots[i]->dirty = sd->slots[i]->unevaluated = true;
}

/* The ads of the slots where want[i] (all of them without want), cron
 * output left out with no_cron; the array is new, its ads new or NULL. */
classad **sd_engine_ads(ks_daemon *d, const bool *want, bool no_cron)
{
	struct startd *sd = d->ctx;
	struct sd_host h;
	host_facts(d, &h);
	if (no_cron)
		h.cron = NULL;
	classad **ads = ks_xmalloc((sd->nslots ? sd->nslots : 1) *
				   sizeof(*ads));
	sd_slot_ads(&h, sd->slots, ads, want);
	return ads;
}

/* One slot's ad (new), made alone when no cross-slot attribute needs
 * the others. */
classad *sd_engine_ad(ks_daemon *d, const struct sd_slot *s, bool no_cron)
{
	struct startd *sd = d->ctx;
	bool *want = ks_xcalloc(sd->nslots ? sd->nslots : 1, sizeof(*want));
	size_t at = 0;
	while (at < sd->nslots && sd->slots[at] != s)
		at++;
	if (at == sd->nslots) {
		free(want);
		return NULL;
	}
	want[at] = true;
	classad **ads = sd_engine_ads(d, want, no_cron);
	classad *mine = ads[at];
	free(ads);
	free(want);
	return mine;
}

classad *sd_slot_ad_now(ks_daemon *d, const struct sd_slot *s)
{
	return sd_engine_ad(d, s, false);
}

static void on_poll(void *arg)
{
	ks_daemon *d = arg;
	EACH_FEATURE(poll, d);
	sd_reevaluate(d, false);
	EACH_FEATURE(polled, d);
}

/* POLLING_INTERVAL while any slot is claimed (a job is there to
 * protect the owner from), else UPDATE_INTERVAL. */
static void schedule_poll(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	bool claimed = false;
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->st.state == SD_CLAIMED ||
		    sd->slots[i]->st.state == SD_PREEMPTING)
			claimed = true;
	int64_t every = ks_daemon_int(d, claimed ? "POLLING_INTERVAL"
						 : "UPDATE_INTERVAL",
				      claimed ? 5 : 300);
	if (every < 1)
		every = 1;
	if (sd->poll_timer && every == sd->poll_every)
		return;
	ks_loop_cancel(d->loop, sd->poll_timer);
	sd->poll_every = every;
	sd->poll_timer = ks_loop_timer(d->loop, every * 1000, every * 1000,
				       on_poll, d);
}

void sd_engine_start(ks_daemon *d)
{
	evaluate(d, true);
	schedule_poll(d);
}
