/*
 * sd_state.h: a slot's states and activities, and the transitions between
 * them numbered as in the HTCondor manual (seed 004), as pure logic: the
 * startd says what happened or answers which policy expressions hold, and
 * gets back the transition to make, with its number and reason, and what
 * to do to the job.  Nothing here touches a process, a clock or an ad.
 */
#ifndef SD_STATE_H
#define SD_STATE_H

#include <stdbool.h>

enum sd_state {
	SD_OWNER,
	SD_UNCLAIMED,
	SD_MATCHED,
	SD_CLAIMED,
	SD_PREEMPTING,
	SD_BACKFILL,
	SD_DRAINED,
};

enum sd_activity {
	SD_IDLE,
	SD_BENCHMARKING,
	SD_BUSY,
	SD_SUSPENDED,
	SD_RETIRING,
	SD_VACATING,
	SD_KILLING,
};

/* HTCondor's names ("Owner", "Claimed", "Busy", ...). */
const char *sd_state_name(enum sd_state s);
const char *sd_activity_name(enum sd_activity a);

/* The policy expressions a slot evaluates (their knob names:
 * sd_expr_name()). */
enum sd_expr {
	SD_X_IS_OWNER,
	SD_X_START,
	SD_X_RUNBENCHMARKS,
	SD_X_WANT_SUSPEND,
	SD_X_SUSPEND,
	SD_X_CONTINUE,
	SD_X_PREEMPT,
	SD_X_WANT_VACATE,
	SD_X_KILL,
	SD_X_START_BACKFILL,
	SD_X_EVICT_BACKFILL,
	SD_X_COUNT
};

const char *sd_expr_name(enum sd_expr x);

/* How an expression came out: undefined and error count as neither. */
enum sd_truth { SD_FALSE, SD_TRUE, SD_UNDEF };

/* Answers what a policy expression evaluates to now, for the slot (and
 * its job, when it has one). */
typedef enum sd_truth (*sd_ask_fn)(void *arg, enum sd_expr x);

/* What the slot is doing, and why it is preempting or retiring. */
struct sd_slot_state {
	enum sd_state state;
	enum sd_activity activity;
	bool starter;        /* a starter runs (a job is active) */
	bool retiring;       /* the claim has been told to retire */
	bool for_better;     /* ... for a better claim only (not the owner) */
	bool preempt_was_true; /* PREEMPT held during this claim */
	bool backfill_on;    /* the slot may run backfill (ENABLE_BACKFILL
			      * and a usable backfill client) */
	enum sd_state backfill_then; /* where the slot goes once the
				      * backfill client is gone: Owner,
				      * Matched or Claimed; SD_BACKFILL for
				      * nowhere yet */
	bool left_benchmarking; /* the activity it left last: RUNBENCHMARKS
				 * is not asked again until it changes
				 * activity, as in HTCondor */
};

/* What the startd must do to the job as part of a transition. */
enum sd_action {
	SD_A_NONE,
	SD_A_SUSPEND,     /* stop the job */
	SD_A_CONTINUE,    /* let it go on */
	SD_A_SOFT_KILL,   /* the job's KillSig */
	SD_A_HARD_KILL,   /* SIGKILL */
	SD_A_BENCHMARK,   /* run the benchmarks */
	SD_A_END_CLAIM,   /* tell the claimer its claim is gone */
	SD_A_BACKFILL_START, /* start the backfill client (or join it) */
	SD_A_BACKFILL_KILL,  /* kill it (or leave it to other slots) */
};

struct sd_step {
	int transition;          /* the manual's number */
	enum sd_state state;     /* where the slot goes */
	enum sd_activity activity;
	enum sd_action action;
	bool preempt_true;       /* caused by PREEMPT (which the claim then
				  * remembers: preempt_was_true) */
	enum sd_state then;      /* SD_A_BACKFILL_KILL: backfill_then */
	char why[96];            /* "PREEMPT became true", "match timed out" */
};

/* What the clock says about the job, for the transitions that wait. */
struct sd_timers {
	bool retirement_over;  /* it has had its MaxJobRetirementTime */
	bool vacate_over;      /* Vacating has lasted the vacate time */
	bool worklife_over;    /* the claim, which has run a job, is older
				* than its CLAIM_WORKLIFE */
};

/* The transition the policy calls for now, if any: evaluates (through
 * ask) only the expressions the slot's state and activity look at, in
 * HTCondor's order.  Returns false when the slot stays as it is. */
bool sd_policy_step(const struct sd_slot_state *s, const struct sd_timers *t,
		    sd_ask_fn ask, void *arg, struct sd_step *out);

/* Whether step st, about to be taken from s, is one at which HTCondor's
 * startd asks WANT_HOLD (sd_hold.h): it enters Preempting, Vacating or
 * Killing, with a kill order for the job that still runs, and PREEMPT
 * has held during the claim.  Only then may the job be put on hold
 * instead of evicted; condor_vacate, a released claim or a better claim
 * alone never holds it. */
bool sd_hold_asked(const struct sd_slot_state *s, const struct sd_step *st);

/* Things that happen to a slot from outside the policy. */
enum sd_event {
	SD_E_MATCH,          /* the negotiator's match notice */
	SD_E_MATCH_TIMEOUT,  /* MATCH_TIMEOUT passed in Matched */
	SD_E_CLAIM,          /* a schedd claimed the slot */
	SD_E_ACTIVATE,       /* a job starts on the claim */
	SD_E_STARTER_EXIT,   /* the job's starter has ended */
	SD_E_BENCH_DONE,     /* the benchmarks have finished */
	SD_E_RELEASE,        /* the claimer gave the claim up */
	SD_E_LEASE_EXPIRED,  /* the claimer stopped renewing its lease */
	SD_E_VACATE,         /* condor_vacate (graceful) */
	SD_E_VACATE_FAST,    /* condor_vacate -fast */
	SD_E_DRAIN,          /* draining begins */
	SD_E_DRAINED,        /* every slot is drained */
	SD_E_DRAIN_END,      /* draining finished or cancelled */
	SD_E_SHUTDOWN,       /* a graceful or peaceful shutdown begins: a
			      * running job retires, an idle claim ends */
	SD_E_BETTER_CLAIM,   /* a better claim waits for the slot (the
			      * startd has set for_better) */
	SD_E_PREEMPTOR_GONE, /* ... and has gone away again */
	SD_E_BACKFILL_STARTED, /* the backfill client runs for the slot */
	SD_E_BACKFILL_EXIT,    /* ... and has exited (or left the slot) */
};

/* The transition an event causes in the slot's state, if any.  Returns
 * false when the event means nothing there (a match notice for a
 * claimed slot, say), which the caller may log or refuse. */
bool sd_event_step(const struct sd_slot_state *s, enum sd_event ev,
		   struct sd_step *out);

#endif
