/*
 * sd_ad.h: the slot ads, as HTCondor's startd publishes them: identity,
 * state, resources, platform, load, idle times, clock, policy, and the
 * attributes the configuration adds (STARTD_ATTRS, STARTD_SLOT_ATTRS).
 */
#ifndef SD_AD_H
#define SD_AD_H

#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "sd_cron.h"
#include "sd_layout.h"
#include "sd_slot.h"
#include "sd_sysinfo.h"

/* What every slot's ad shares, read once per round. */
struct sd_host {
	const ks_config *cfg;
	const char *hostname;   /* full name: Machine, and Name after '@' */
	const char *sinful;     /* StartdIpAddr */
	int64_t now, start_time;
	double load;            /* the host's load average */
	double condor_load;     /* the part of it that is the slots' jobs'
				 * (the sum of their CondorLoadAvg) */
	struct sd_idle idle;
	const struct sd_machine *machine;
	const struct sd_platform *platform;
	size_t nslots;
	const sd_cron *bench;         /* BENCHMARKS output (Mips, KFlops),
				       * merged before cron's; NULL */
	int64_t last_benchmark;       /* 0: never */
	const sd_cron *cron;          /* its output goes into every ad last;
				       * NULL for none */
	const struct sd_drain *drain; /* NULL: not draining */
	const classad *extras;        /* condor_update_machine_ad's; NULL */
	bool endless_retirement;      /* a peaceful shutdown: jobs retire
				       * without end */
};

/* The ads of the slots: *slots[i]'s in ads[i] (new ads; classad_free()),
 * for every slot or, with want, those where want[i] is true (NULL in the
 * others).  Cross-slot attributes (slot<N>_<attr> of STARTD_SLOT_ATTRS)
 * need all of them, so they are made together. */
void sd_slot_ads(const struct sd_host *h, struct sd_slot *const *slots,
		 classad **ads, const bool *want);

/* Whether the slots' ads depend on one another (STARTD_SLOT_ATTRS). */
bool sd_slot_ads_linked(const ks_config *cfg);

#endif
