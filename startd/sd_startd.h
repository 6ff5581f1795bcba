/*
 * sd_startd.h: the startd daemon's own state, shared by its files
 * (startd.c: start, reconfig, shutdown, ads; engine.c: the policy engine,
 * sd_engine.h; claim.c: claims, starters; the other features), and what
 * the features offer each other.
 */
#ifndef SD_STARTD_H
#define SD_STARTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ks_daemon.h"
#include "sd_cron.h"
#include "sd_engine.h"
#include "sd_account.h"
#include "sd_layout.h"
#include "sd_machine.h"
#include "sd_slot.h"
#include "sd_sysinfo.h"

struct sd_orphan; /* end.c */

struct startd {
	struct sd_machine machine;
	struct sd_platform platform;
	sd_cron *bench;         /* BENCHMARKS jobs (OnDemand) */
	int64_t last_benchmark; /* time() the last run ended; 0 for never */
	bool benchmarking;      /* a run of them is under way */
	unsigned bench_runs;    /* processes started before this run */
	struct sd_slot **slots; /* each its own allocation: timers and
				 * watches hold slot pointers while dynamic
				 * slots come and go */
	size_t nslots;
	char *hostname;
	char *slot_host;        /* after the slots' "slotN@": hostname, or the
				 * startd's name when it is one of several */
	sd_cron *cron;          /* STARTD_CRON jobs */
	uint64_t poll_timer;
	int64_t poll_every;     /* seconds, as the timer runs now */
	uint64_t claim_seq;     /* numbers the claim ids */
	struct sd_idle_probe idle; /* console and keyboard, once a second */
	/* /proc/loadavg as last read, and the second it was read in: the
	 * kernel changes it every five seconds, and a job's start and end
	 * each evaluate the slots' policy */
	double load;
	int64_t load_read_at;
	struct sd_accounts accounts; /* the accounts jobs run as */
	classad *extras;        /* condor_update_machine_ad's attributes,
				 * in every slot ad until the startd ends */
	struct sd_backfill {
		pid_t pid;       /* the backfill client, 0 when none */
		int64_t started; /* when it was started */
		bool killing;    /* it was killed on purpose */
	} backfill;
	struct sd_drain {
		bool on;
		int how_fast;           /* HTCondor's 0 graceful, 10 quick,
					 * 20 fast */
		int on_completion;      /* 0 nothing, 1 resume (2, 3: exit,
					 * restart: taken as resume) */
		int request_id;         /* of the current request; counts up */
		char *reason;
		classad_expr *start;    /* START while draining; NULL: false */
		int64_t started, stopped;
		/* HTCondor's statistics of draining, in every slot ad */
		double badput;          /* CPU-seconds the jobs it evicted had
					 * run: TotalMachineDrainingBadput */
		double unclaimed_past;  /* CPU-seconds slots were free while
					 * draining, in stays that have ended */
		double unclaimed;       /* that and the current stays, as of
					 * the last poll (drain.c):
					 * TotalMachineDrainingUnclaimedTime */
		int64_t expected_badput[2];     /* ExpectedMachine{Graceful,
						 * Quick}DrainingBadput */
		int64_t expected_completion[2]; /* ... DrainingCompletion */
	} drain;
	/* the job ends an earlier startd left for their claimers (end.c),
	 * and the EXECUTE they are in */
	struct sd_orphan **orphans;
	size_t norphans;
	char *orphan_dir;
	/* a fast shutdown: the ends stay on disk for the next startd */
	bool keep_ends;
};

/* The features in the engine's table (features.c), each defined in its
 * own file. */
extern const struct sd_feature sd_dslot_feature;      /* dslot.c */
extern const struct sd_feature sd_claim_feature;      /* claim.c */
extern const struct sd_feature sd_drain_feature;      /* drain.c */
extern const struct sd_feature sd_backfill_feature;   /* backfill.c */
extern const struct sd_feature sd_benchmarks_feature; /* benchmarks.c */

/* benchmarks.c: new output of the BENCHMARKS jobs (their cron's
 * callback, arg the daemon): the slots' ads change (Mips, KFlops...). */
void sd_benchmarks_output(void *arg, bool update_collector);

/* Once shutting down and no starter is left, the startd exits. */
void sd_startd_maybe_exit(ks_daemon *d);

/* Whether this is the host's only startd (no STARTD_NAME, no
 * -local-name): then what its host's earlier startd left is its own. */
bool sd_startd_alone(ks_daemon *d);

/* leftovers.c: what an earlier startd on the same EXECUTE left when it
 * died.  At start, before the machine is measured: ends the starters it
 * left running, with their jobs (those still ending their jobs on their
 * own are given a moment to), keeps the job ends it left for their
 * claimers (sd_orphans_restore()), and removes the sandboxes, staging
 * directories and other ends' files in EXECUTE. */
void sd_leftovers_end(ks_daemon *d);
/* Once the slots exist: removes the claim id files ($(LOG)/.startd_
 * claim_id.<slot>, .startd_preempt_id.<slot>) of slots it does not have,
 * and every preempting one (no slot is claimed yet). */
void sd_leftovers_claim_ids(ks_daemon *d);

/* claim.c */
/* A fresh claim id for the slot (when it starts, and after each claim). */
void sd_claim_new_id(ks_daemon *d, struct sd_slot *s);
/* A new claim id ("<sinful>#<start>#<n>#<secret>") into out. */
void sd_claim_make_id(ks_daemon *d, char *out, size_t size);
/* Writes id to $(LOG)/.startd_<what>_id.<slot> (mode 0600), for local
 * tools, unless STARTD_SHOULD_WRITE_CLAIM_ID_FILE is false. */
void sd_claim_write_id(ks_daemon *d, const char *what,
		       const struct sd_slot *s, const char *id);
/* Removes the slot's claim id files (a dynamic slot that is deleted). */
void sd_claim_remove_ids(ks_daemon *d, const struct sd_slot *s);
/* Whether id is the claim id have (never for an empty have), compared in
 * constant time. */
bool sd_claim_id_is(const char *have, const char *id);
/* What a transition asks of the claim's job; see enum sd_action. */
void sd_claim_action(ks_daemon *d, struct sd_slot *s, enum sd_action a);
/* How long the slot's job has, from its soft kill, before its hard kill
 * (HTCondor's evalMaxVacateTime): MachineMaxVacateTime (from ad, the
 * slot's), or the job's JobMaxVacateTime (KillSigTimeout, its older
 * name) when less; when more, what is left of its retirement, up to what
 * it asks. */
int64_t sd_claim_vacate_time(ks_daemon *d, const struct sd_slot *s,
			     const classad *ad);
/* The retirement time the slot's job has left (0 without a job; ad is
 * the slot's). */
int64_t sd_claim_retirement_left(ks_daemon *d, const struct sd_slot *s,
				  const classad *ad);
/* The same at now, INT64_MAX with endless (a peaceful shutdown). */
int64_t sd_claim_retirement(const struct sd_slot *s, const classad *ad,
			    int64_t now, bool endless);
/* Claim attributes of a claimed slot's ad. */
void sd_claim_attrs(const struct sd_slot *s, classad *ad);

/* end.c: a job's end kept in EXECUTE until its claimer has had it, and
 * the ends an earlier startd left ("orphans"). */
/* EXECUTE/.<what>_<slot>_<pid>_<start>: the slot's file of that kind in
 * this startd's life ("input", "output": the staging directories;
 * "claim": the claim's record; "result": the starter's result; "hold":
 * the startd's order to hold the job, for its starter).  New
 * string (free()), or NULL when EXECUTE is not defined. */
char *sd_end_path(ks_daemon *d, const struct sd_slot *s, const char *what);
/* Before a job's starter starts: the claim's record (its id, the job's
 * ClusterId, ProcId and JobLeaseDuration) written, unless it is there
 * already as it would be; removed for a job without a lease (its
 * claimer cannot reconnect).  A failure is logged: the job runs all the
 * same. */
void sd_end_record(ks_daemon *d, struct sd_slot *s);
/* The result ad a starter wrote to path, or NULL with why filled and
 * errno set (ENOENT: there is none).  New ad (classad_free()). */
classad *sd_end_read_result(const char *path, char *why, size_t size);
/* The files the starter left in dir (NULL: none) into outputs, read as
 * root; a failure is logged (slot names whose) and goes into result
 * (TransferOutputError, TransferOutputErrno) for the claimer. */
void sd_end_collect(ks_daemon *d, const char *slot, const char *dir,
		    classad *result, struct ks_xfer_set *outputs);
/* The final reply's ads: result, then the output files.  The array is
 * new (free()); its ads are borrowed. */
classad **sd_end_final_ads(classad *result, const struct ks_xfer_set *outputs,
			   size_t *n);
/* Whether ad (a job ad, or a result ad, which names its job) is the job
 * a reconnect request names (its ClusterId and ProcId; one that names
 * none takes any): a claim runs one job after another, and the end or
 * the job a claimer finds must be the one it asks for. */
bool sd_end_is_for(const classad *req, const classad *ad);
/* Answers a reconnect to a job that has ended: OK with StarterPid 0 and
 * Reconnected ("more"), then OK with result and the output files. */
void sd_end_reply_reconnect(struct ks_request *req, classad *result,
			    const struct ks_xfer_set *outputs);
/* Drops the slot's last job's end: its result and output, in memory and
 * on disk, and when claim_ends the claim's record too; in a fast
 * shutdown (keep_ends) in memory only. */
void sd_end_drop(ks_daemon *d, struct sd_slot *s, bool claim_ends);
/* At start (from sd_leftovers_end(), as root): every record in execute
 * whose job's result is there becomes an orphan, kept with its files,
 * and so does one that names a job with no result (lost); other records
 * are left to be removed. */
void sd_orphans_restore(ks_daemon *d, const char *execute);
/* Whether the entry name of EXECUTE is a file of an orphan. */
bool sd_orphans_own(ks_daemon *d, const char *name);
/* A claim command naming an orphan's id, answered: ACTIVATE_CLAIM with
 * Reconnect as for a job that ended while its claimer was away,
 * RELEASE_CLAIM with OK (the orphan goes), ALIVE with OK (it is kept
 * another lease), others refused.  False, with nothing sent, for any
 * other id. */
bool sd_orphan_command(ks_daemon *d, struct ks_request *req);
/* Removes the orphans whose lease has passed with no claimer. */
void sd_orphans_expire(ks_daemon *d);
void sd_orphans_free(struct startd *sd);

/* preempt.c */
/* A claimed slot's capability for a better claim: made when the slot is
 * claimed (.startd_preempt_id.<slot>), dropped when its claim ends. */
void sd_preempt_arm(ks_daemon *d, struct sd_slot *s);
void sd_preempt_disarm(ks_daemon *d, struct sd_slot *s, const char *why);
/* The slot whose preempting capability id is, or NULL. */
struct sd_slot *sd_preempt_find(ks_daemon *d, const char *id);
/* The slot's RANK of job (slot_ad: the slot's ad now): a number, a
 * boolean counting 1 or 0, anything else 0 (preempt.c). */
double sd_rank_of(const classad *slot_ad, const classad *job);
/* REQUEST_CLAIM with that capability: a claim whose job the slot ranks at
 * least as high as its current one waits, the current claim retiring
 * (answered once the slot is the new claim's); otherwise refused. */
void sd_preempt_request(ks_daemon *d, struct sd_slot *s,
			struct ks_request *req);
/* RELEASE_CLAIM (and ALIVE) with the capability: the waiting claim goes,
 * and the current one unretires if it retired only for it (19). */
void sd_preempt_release(ks_daemon *d, struct sd_slot *s,
			struct ks_request *req);
/* When the current claim ends for the waiting one: the waiting claim
 * becomes the slot's claim and is answered.  False if none waits. */
bool sd_preempt_take_over(ks_daemon *d, struct sd_slot *s);

/* Gives slot s to a claim of client for job (taken), as REQUEST_CLAIM
 * does: START must hold for the job; a partitionable slot carves a
 * dynamic slot for it.  Returns the claimed slot, or NULL with why filled
 * (and logged) (claim.c). */
struct sd_slot *sd_claim_grant(ks_daemon *d, struct sd_slot *s, classad *job,
			       const char *client, const char *client_host,
			       int64_t alive, char *why, size_t size);

/* jobload.c */
/* Reads how much CPU each slot's job has used since the last reading
 * (its CondorLoadAvg). */
void sd_jobload_measure(ks_daemon *d);
/* How many processes the job under starter has (the starter left out),
 * from one pass over /proc. */
int sd_jobload_nprocs(pid_t starter);

/* dslot.c */
/* Gives partitionable slot p all of its share to carve from. */
void sd_dslot_init(struct sd_slot *p);
/* A partitionable slot's ad: what is not carved yet (Cpus, Memory, Disk
 * and each custom resource with its Assigned ids), NumDynamicSlots. */
void sd_dslot_left_attrs(const struct sd_slot *p, classad *ad);
/* A dynamic slot carved from partitionable slot p for job (which it does
 * not keep), or NULL with why filled when p has not enough left. */
struct sd_slot *sd_dslot_carve(ks_daemon *d, struct sd_slot *p,
			       const classad *job, char *why, size_t size);
/* Whether p would have enough for job (its share as sd_dslot_carve()
 * takes it) with the resources of dynamic slots with[0..n) back; why
 * filled when not. */
bool sd_dslot_fits(ks_daemon *d, struct sd_slot *p, const classad *job,
		   struct sd_slot *const *with, size_t n, char *why,
		   size_t size);

/* pslot_preempt.c */
/* Whether a REQUEST_CLAIM names dynamic slots to preempt
 * (PreemptDslotClaims in its first ad). */
bool sd_pslot_preempt_asked(const struct ks_request *req);
/* REQUEST_CLAIM on partitionable slot p preempting some of its dynamic
 * slots (their preempting capabilities): refused unless each is a
 * claimed dynamic slot of p that ranks the job at least as high as its
 * own and the job's share fits in what p has left plus theirs; else each
 * of them retires (13) or is preempted (10) as for a better claim, and
 * once they are all gone one dynamic slot is carved for the job and the
 * request answered with it.  Until then p takes no other claim. */
void sd_pslot_preempt_request(ks_daemon *d, struct sd_slot *p,
			      struct ks_request *req);
/* Whether a preempting claim waits for p's dynamic slots. */
bool sd_pslot_preempt_waits(const struct sd_slot *p);
/* Gives each waiting claim whose dynamic slots have all gone its slot
 * (or its refusal). */
void sd_pslot_preempt_resume(ks_daemon *d);


/* drain.c */
/* Draining attributes of a slot ad (START among them, while draining). */
void sd_drain_attrs(const struct sd_drain *dr, classad *ad);
void sd_cmd_drain(ks_daemon *d, struct ks_request *req);
void sd_cmd_cancel_drain(ks_daemon *d, struct ks_request *req);
void sd_drain_clear(ks_daemon *d);

/* The claim commands (REQUEST_CLAIM, ACTIVATE_CLAIM, ...). */
extern const struct ks_command_def sd_claim_commands[];
extern const size_t sd_claim_ncommands;

#endif
