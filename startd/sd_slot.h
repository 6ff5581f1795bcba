/*
 * sd_slot.h: one slot of the startd: its resources, state and activity,
 * and its policy.  As HTCondor's startd does, the policy expressions of
 * the configuration (START, SUSPEND, ..., IS_OWNER as IsOwner, RANK as
 * Rank) are attributes of the slot's ad, so that they can refer to one
 * another (the desktop policy's PREEMPT reads SUSPEND and WANT_SUSPEND)
 * and show in condor_status -l; the policy evaluates them there.  A slot
 * changes state only through sd_slot_apply(), which logs every transition
 * with its number and reason.
 */
#ifndef SD_SLOT_H
#define SD_SLOT_H

#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_log.h"
#include "sd_layout.h"
#include "sd_state.h"

/* How many policy attributes a slot carries (sd_slot_policy_attrs()). */
#define SD_POLICY_ATTRS 26

struct sd_slot {
	int id;                 /* N of slotN */
	int type;               /* its SLOT_TYPE_<type>; 0 for none */
	char *name;             /* "slot1@host" */
	char *short_name;       /* "slot1", for the log */
	struct sd_slot_spec spec; /* its share of the machine */
	struct sd_slot_state st;
	int64_t entered_state, entered_activity; /* time() */
	classad *job;           /* the claim's job ad, or NULL */
	/* The policy attributes, parsed from the configuration for this
	 * slot (SLOT<N>_ and SLOT_TYPE_<T>_ forms first); NULL when not
	 * defined or not parsable (logged when read). */
	classad_expr *policy[SD_POLICY_ATTRS];
};

/* Reads the slot's policy from cfg, logging what does not parse (HTCondor
 * then leaves the attribute out, and the policy reads it as undefined). */
void sd_slot_configure(struct sd_slot *s, const ks_config *cfg, ks_log *log);

/* Inserts the slot's policy attributes into its ad. */
void sd_slot_policy_attrs(const struct sd_slot *s, classad *ad);

/* What expression x says now: its attribute in ad (MY) evaluated against
 * the claim's job (TARGET) when there is one; for a vanilla job the
 * attribute's _VANILLA form when the ad has one. */
enum sd_truth sd_slot_eval(const struct sd_slot *s, const classad *ad,
			   enum sd_expr x);

/* Makes a transition: state, activity, their entry times, and the log
 * line "slot1: transition 13 Claimed/Busy -> Claimed/Retiring: PREEMPT
 * became true". */
void sd_slot_apply(struct sd_slot *s, const struct sd_step *step,
		   int64_t now, ks_log *log);

void sd_slot_clear(struct sd_slot *s);

#endif
