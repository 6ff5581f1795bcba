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

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "classad.h"
#include "config.h"
#include "ks_log.h"
#include "ks_xfer.h"
#include "sd_latch.h"
#include "sd_layout.h"
#include "sd_state.h"

/* How many policy attributes a slot carries (sd_slot_policy_attrs()). */
#define SD_POLICY_ATTRS 27

/* A claim on a slot, and the job running under it. */
struct sd_claim {
	char id[400];           /* the capability that names the claim:
				 * "<sinful>#<start>#<n>#<secret>"; made
				 * afresh whenever a claim ends */
	char *client;           /* who claimed: identity; NULL when none */
	char *client_host;      /* ClientMachine */
	int64_t lease;          /* seconds without ALIVE before it ends */
	int64_t last_alive;     /* time() */
	bool unheard;           /* a better claim whose claimer was gone
				 * when the slot became its: it ends at the
				 * next poll */
	pid_t starter;          /* 0: no job running */
	pid_t job_pid;          /* the job's process once seen; 0 before */
	char *input_dir;        /* the job's input files, for the starter */
	char *output_dir;       /* where the starter leaves its output, kept
				 * with the job's end (end.c) */
	char *result_file;      /* where the starter writes its result */
	bool recorded;          /* the claim's record is in EXECUTE (end.c) */
	int64_t recorded_lease; /* ... with this JobLeaseDuration */
	int64_t recorded_job[2]; /* ... for this ClusterId, ProcId */
	struct ks_xfer_set outputs; /* the last job's output files */
	int64_t job_start;      /* time() the job began; 0 before */
	int64_t claimed_at;     /* time() of the claim (CLAIM_WORKLIFE) */
	int activations;        /* jobs started on the claim */
	double load;            /* CondorLoadAvg: the job's CPUs in use */
	uint64_t load_ticks;    /* its CPU time at the last reading */
	int64_t load_at_ms;     /* when (monotonic); 0: none yet */
	uint64_t image_kb;      /* the job's largest virtual size and */
	uint64_t rss_kb;        /* resident set seen so far (KiB) */
	uint64_t reported_kb;   /* the image size last told the claimer */
	int64_t reported_at;    /* time() of that; 0: never */
	int64_t suspended_at;   /* time() of the suspension, 0 if running */
	int64_t suspended_total;
	uint64_t match_timer;
	uint64_t vacate_timer;  /* from the soft kill: the vacate time */
	uint64_t kill_timer;    /* from the hard kill: KILLING_TIMEOUT */
	bool vacate_over;       /* the vacate time is up */
	bool held;              /* the job is to be held (WANT_HOLD): its
				 * order is in the hold file (claim.c) */
	struct ks_daemon *daemon; /* the slot's startd, for its timers */
	struct ks_later *later; /* the activation's final reply, or NULL */
	/* the last job's result ad: kept until the claim runs another job
	 * or ends, so that a claimer that lost it (a schedd killed before
	 * it could record the end) gets it again when it reconnects (and
	 * on disk, for a claimer of the next startd: end.c) */
	classad *result;
};

/* A better claim waiting for a claimed slot (rank or priority
 * preemption), and the capability that lets one ask. */
struct sd_preempt {
	char id[400];           /* the capability; "" when not claimed */
	bool waiting;           /* a claim waits for the slot */
	char *client, *client_host;
	classad *job;
	double rank;            /* the slot's RANK of its job */
	int64_t lease;
	struct ks_later *later; /* its REQUEST_CLAIM's answer */
};

struct sd_slot {
	int id;                 /* N of slotN */
	int type;               /* its SLOT_TYPE_<type>; 0 for none */
	char *name;             /* "slot1@host" */
	char *short_name;       /* "slot1", for the log */
	struct sd_slot_spec spec; /* its share of the machine */
	struct sd_slot_state st;
	int64_t entered_state, entered_activity; /* time() */
	classad *job;           /* the claim's job ad, or NULL */
	struct sd_claim claim;
	struct sd_preempt pre;
	/* Partitionable slots and the dynamic slots carved from them */
	int parent;             /* a dynamic slot's partitionable slot (its
				 * SlotID); 0 for others */
	int sub;                /* M of slotN_M */
	int last_sub;           /* a partitionable slot's last M given */
	bool dead;              /* a dynamic slot whose claim has ended */
	bool dirty;             /* its ad changed since the collector had it */
	bool unevaluated;       /* it changed since its policy was last
				 * evaluated */
	double left_cpus;       /* a partitionable slot's resources not */
	int left_memory;        /* given to dynamic slots: its Cpus, */
	int64_t left_disk;      /* Memory and Disk, */
	struct sd_slot_res *left_res; /* and custom resources (spec.nres of
				       * them, with their free ids; owned) */
	int children;           /* NumDynamicSlots */
	struct sd_pswait *pswait; /* a claim waiting for dynamic slots it
				   * preempts (pslot_preempt.c), or NULL */
	/* The policy attributes, parsed from the configuration for this
	 * slot (SLOT<N>_ and SLOT_TYPE_<T>_ forms first); NULL when not
	 * defined, or not parsable or readable (logged when read; START is
	 * then error instead). */
	classad_expr *policy[SD_POLICY_ATTRS];
	struct sd_latches latches; /* STARTD_LATCH_EXPRS, CpuBusy */
	int64_t drain_run_from; /* a job draining evicts: its start, plus
				 * its time suspended; 0 for none */
};

/* Drops p's claim waiting for dynamic slots, if any, its request
 * unanswered (pslot_preempt.c). */
void sd_pslot_preempt_free(struct sd_slot *p);

/* Reads the slot's policy from cfg.  A knob that does not parse or cannot
 * be read (a reference loop) is logged and never replaced by its default:
 * START becomes error (as HTCondor publishes a START that does not
 * parse), the others are left out and read as undefined. */
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
