/*
 * sd_hold.h: WANT_HOLD, the startd's choice to put a job on hold rather
 * than evict it.
 *
 * As HTCondor's startd does, when a slot whose PREEMPT has held during
 * the claim enters Preempting (Vacating or Killing) with its job still
 * running (sd_hold_asked() in sd_state.h), it evaluates WANT_HOLD in the
 * slot's ad against the job.  When that is true the job is stopped as
 * it would have been, but its claimer is told to hold it: HoldReasonCode
 * 21 (HTCondor's StartdHeldJob), HoldReasonSubCode from
 * WANT_HOLD_SUBCODE (0 when it gives no number), HoldReason from
 * WANT_HOLD_REASON, or when that gives no text, HTCondor's words:
 * "The startd put this job on hold.  (At preemption time, WANT_HOLD
 * evaluated to true: WANT_HOLD = <the expression>)".
 *
 * Pure: nothing here touches a process or a file.
 */
#ifndef SD_HOLD_H
#define SD_HOLD_H

#include <stdbool.h>

#include "classad.h"

/* HTCondor's hold reason code for a job the startd put on hold. */
#define SD_HOLD_CODE_STARTD 21

struct sd_hold {
	char *reason; /* new string (free()) */
	int code;     /* SD_HOLD_CODE_STARTD */
	int subcode;
};

/* Whether WANT_HOLD of slot_ad (the slot's ad now, its policy among its
 * attributes) is true for job (NULL allowed); undefined, an error or a
 * value that is no boolean or number count as false.  When true, *out
 * is filled (release with sd_hold_clear()); otherwise it is left. */
bool sd_hold_wanted(const classad *slot_ad, const classad *job,
		    struct sd_hold *out);

/* The hold as an ad in old syntax: HoldReason, HoldReasonCode and
 * HoldReasonSubCode, as the starter puts them into the job's result
 * (sr_result.h).  Returns a new string (free()). */
char *sd_hold_text(const struct sd_hold *h);

/* Frees what h holds; NULL allowed. */
void sd_hold_clear(struct sd_hold *h);

#endif
