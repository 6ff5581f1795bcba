/*
 * sd_engine.h: the startd's policy engine (engine.c).  It evaluates the
 * slots' policy in passes, makes the transitions the policy and outside
 * events call for, and keeps track of which slot ads changed.
 *
 * What the engine does not know itself it asks of its features (claims,
 * partitionable slots, draining, backfill, benchmarks), each a struct
 * sd_feature listed once in sd_features[] (features.c).  The engine
 * calls every feature's hook in that order; a feature calls the engine
 * only through the functions of this header.
 */
#ifndef SD_ENGINE_H
#define SD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "ks_daemon.h"
#include "sd_slot.h"
#include "sd_state.h"

/* A feature's hooks; NULL for those it does not need. */
struct sd_feature {
	const char *name;
	/* At start and on each reconfig, once the slots have read their
	 * policy. */
	void (*configure)(ks_daemon *d);
	/* At the start of each evaluation pass, before the slots' policy;
	 * true if it changed a slot (then another pass follows). */
	bool (*pass)(ks_daemon *d);
	/* What the clock says about slot s's job (ad: the slot's ad now),
	 * for the transitions that wait; into t, which starts zeroed. */
	void (*timers)(ks_daemon *d, const struct sd_slot *s,
		       const classad *ad, struct sd_timers *t);
	/* Before slot s takes step st (s->st is still the old state). */
	void (*before_step)(ks_daemon *d, struct sd_slot *s,
			    const struct sd_step *st);
	/* After slot s took step st from state was: the feature does the
	 * step's action if it is one of its own. */
	void (*after_step)(ks_daemon *d, struct sd_slot *s,
			   const struct sd_step *st,
			   const struct sd_slot_state *was);
	/* On the polling timer, before the policy pass. */
	void (*poll)(ks_daemon *d);
	/* On the polling timer, after the pass and the ads' update. */
	void (*polled)(ks_daemon *d);
	/* The startd begins to shut down (before the slots are told). */
	void (*shutdown)(ks_daemon *d);
};

/* The features, in the order their hooks are called (features.c). */
extern const struct sd_feature *const sd_features[];
extern const size_t sd_nfeatures;

int64_t sd_now(void);

/* Makes a transition of slot s (sd_slot_apply()), with the features'
 * before_step and after_step hooks around it. */
void sd_transition(ks_daemon *d, struct sd_slot *s, const struct sd_step *st);

/* The transition an event calls for, if any, made; false if the event
 * means nothing in the slot's state. */
bool sd_event(ks_daemon *d, struct sd_slot *s, enum sd_event ev);

/* A policy round for every slot, then the collector gets the ads of the
 * slots that changed (sd_slot_changed(), each transition), or with force
 * all of them (for a change that is not one slot's). */
void sd_reevaluate(ks_daemon *d, bool force);

/* The same for the slots that changed alone (after a transition made
 * for one slot: a claim, a job's start or end). */
void sd_reevaluate_changed(ks_daemon *d);

/* s's ad (and its partitionable slot's, for a dynamic slot) changed:
 * the next update sends it. */
void sd_slot_changed(ks_daemon *d, struct sd_slot *s);

/* Every slot's ad changed (a slot came or went: TotalSlots). */
void sd_all_changed(ks_daemon *d);

/* The slot's ad as the policy sees it now (new ad). */
classad *sd_slot_ad_now(ks_daemon *d, const struct sd_slot *s);

/* For the daemon itself (startd.c). */
/* The first policy round, at start, and the polling timer. */
void sd_engine_start(ks_daemon *d);
/* The ads of the slots where want[i] (all of them without want), cron
 * output left out with no_cron.  The array is new (free()), its ads new
 * (classad_free()) or NULL. */
classad **sd_engine_ads(ks_daemon *d, const bool *want, bool no_cron);
/* One slot's ad, the same way (new ad), or NULL for a slot not there. */
classad *sd_engine_ad(ks_daemon *d, const struct sd_slot *s, bool no_cron);

#endif
