/*
 * negotiator.h: condor_negotiator's state, shared by its parts:
 * main.c (knobs, timers, the daemon's ad), cycle.c (one negotiation
 * cycle), commands.c (RESCHEDULE and the accountant's commands).
 */
#ifndef NG_NEGOTIATOR_H
#define NG_NEGOTIATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accountant.h"
#include "concurrency.h"
#include "groups.h"
#include "ks_daemon.h"
#include "match.h"

/* The figures HTCondor publishes for each of the last cycles
 * (LastNegotiationCycle*<n> in the negotiator's ad). */
struct ng_cycle_stats {
	int64_t start, end, duration;
	int64_t phase[4];         /* seconds in phases 1-4 */
	int64_t total_slots, trimmed_slots, candidate_slots;
	int64_t schedds, idle_jobs, jobs_considered;
	int64_t matches, rejections;
	int64_t pies, pie_spins, active_submitters;
	char *submitters_failed;  /* "a, b" */
	char *submitters_out_of_time;
	char *submitters_share_limit;
};

#define NG_MAX_CYCLE_STATS 100

/* What the knobs say (read at start and reconfig). */
struct ng_knobs {
	int64_t interval;         /* NEGOTIATOR_INTERVAL */
	int64_t cycle_delay;      /* NEGOTIATOR_CYCLE_DELAY */
	int64_t min_interval;     /* NEGOTIATOR_MIN_INTERVAL */
	int64_t timeout;          /* NEGOTIATOR_TIMEOUT */
	int64_t max_per_submitter;/* NEGOTIATOR_MAX_TIME_PER_SUBMITTER */
	int64_t max_per_cycle;    /* NEGOTIATOR_MAX_TIME_PER_CYCLE */
	bool consider_preemption; /* NEGOTIATOR_CONSIDER_PREEMPTION */
	bool early_preemption;    /* NEGOTIATOR_CONSIDER_EARLY_PREEMPTION */
	bool ignore_prios;        /* NEGOTIATOR_IGNORE_USER_PRIORITIES */
	bool use_slot_weights;    /* NEGOTIATOR_USE_SLOT_WEIGHTS */
	bool inform_startd;       /* NEGOTIATOR_INFORM_STARTD */
	bool allow_pslot_preemption; /* ALLOW_PSLOT_PREEMPTION */
	bool update_after_cycle;  /* NEGOTIATOR_UPDATE_AFTER_CYCLE */
	int stats_length;         /* NEGOTIATION_CYCLE_STATS_LENGTH */
	classad_expr *slot_constraint; /* NEGOTIATOR_SLOT_CONSTRAINT */
	classad_expr *job_constraint;  /* NEGOTIATOR_JOB_CONSTRAINT */
	bool strict_quota;        /* NEGOTIATOR_STRICT_ENFORCE_QUOTA */
	bool weighted_demand;     /* NEGOTIATOR_USE_WEIGHTED_DEMAND */
	int group_rounds;         /* GROUP_QUOTA_MAX_ALLOCATION_ROUNDS */
	double group_rr_rate;     /* GROUP_QUOTA_ROUND_ROBIN_RATE */
};

struct negotiator {
	ng_acct *acct;
	ng_matcher *matcher;
	ng_groups *groups;        /* GROUP_NAMES and their knobs */
	struct ng_knobs k;
	uint64_t timer;           /* the next cycle */
	/* the wall clock's second the last cycle started and ended in:
	 * NEGOTIATOR_CYCLE_DELAY and _MIN_INTERVAL count whole seconds
	 * from them, as HTCondor's */
	time_t started_last;
	time_t completed_last;
	bool reschedule;          /* a RESCHEDULE waits for its cycle */
	ng_limits *limits;        /* the last cycle's concurrency limits in
				   * use (NULL before the first) */
	struct ng_cycle_stats stats[NG_MAX_CYCLE_STATS]; /* [0]: latest */
	size_t nstats;
};

/* Runs one negotiation cycle now (cycle.c). */
void ng_cycle_run(ks_daemon *d);

/* Arms the cycle timer to fire in delay_ms milliseconds (main.c). */
void ng_schedule(ks_daemon *d, int64_t delay_ms);

/* Adds the cycle statistics to the negotiator's ad (cycle.c). */
void ng_cycle_publish(const struct negotiator *ng, classad *ad);

/* Frees what the statistics hold (cycle.c). */
void ng_cycle_stats_clear(struct ng_cycle_stats *s);

/* The daemon's commands (commands.c). */
void ng_cmd_reschedule(ks_daemon *d, struct ks_request *req);
void ng_cmd_get_priority(ks_daemon *d, struct ks_request *req);
void ng_cmd_set_factor(ks_daemon *d, struct ks_request *req);
void ng_cmd_set_priority(ks_daemon *d, struct ks_request *req);
void ng_cmd_reset_usage(ks_daemon *d, struct ks_request *req);
void ng_cmd_delete_user(ks_daemon *d, struct ks_request *req);

#endif
