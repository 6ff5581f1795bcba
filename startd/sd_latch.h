/*
 * sd_latch.h: the startd's latched expressions.  STARTD_LATCH_EXPRS (then
 * SYSTEM_STARTD_LATCH_EXPRS, by default NumDynamicSlots) name attributes
 * of a slot's ad that the startd evaluates, as numbers, each time it
 * evaluates the slot's policy; as HTCondor does, the ad then carries
 * <name>Value (the last value, when the attribute is an expression and
 * has one) and <name>Time (when that value last changed, or became
 * defined or undefined).  The desktop policy templates read CpuBusyValue
 * and CpuBusyTime this way.
 *
 * The same evaluation keeps the older startd's CpuIsBusy (CpuBusy's value
 * as a boolean) and CpuBusyTime (how many seconds CpuBusy has been true,
 * 0 when it is not), which seed 004's example policies read; when
 * CpuBusy is itself latched, CpuBusyTime is the latch's time instead.
 */
#ifndef SD_LATCH_H
#define SD_LATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"

struct sd_latch {
	char *name;             /* the attribute (owned) */
	bool defined;           /* it had a number at the last evaluation */
	int64_t value;          /* that number */
	int64_t changed_at;     /* time() it last changed; 0: never */
};

struct sd_latches {
	struct sd_latch *v;     /* owned */
	size_t n;
	bool cpu_busy;          /* CpuBusy at the last evaluation */
	int64_t cpu_busy_since; /* time() it became what it is; 0: never
				 * evaluated */
};

/* Sets the latched names: those of user_list, then system_list (either
 * may be NULL; names separated by commas or spaces, repeats after the
 * first ignored, letter case ignored).  A name kept from the previous
 * set keeps its state. */
void sd_latches_configure(struct sd_latches *l, const char *user_list,
			  const char *system_list);

/* Evaluates every latched attribute, and CpuBusy, in ad (the slot's ad,
 * as MY) at time now.  Returns true when any latch changed (the ad's
 * <name>Value or <name>Time would differ). */
bool sd_latches_update(struct sd_latches *l, const classad *ad, int64_t now);

/* Inserts <name>Value and <name>Time of each latch, CpuIsBusy and
 * CpuBusyTime (as of now) into ad. */
void sd_latches_publish(const struct sd_latches *l, classad *ad, int64_t now);

/* Frees what l holds and zeroes it. */
void sd_latches_clear(struct sd_latches *l);

#endif
