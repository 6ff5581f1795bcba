/*
 * sc_schedd.h: the schedd's state, shared by its files (not a library
 * API: the schedd is one program).
 *
 * The queue (queue.c) owns every job; a job being run has an sc_run
 * (run.c) that owns its claim on a startd.  Commands from tools
 * (submit.c, query.c, act.c) and from the negotiator (negotiate.c) change
 * jobs only through the queue's functions, which record what must reach
 * the store and flush it in one transaction from a zero-delay timer, so
 * changes made by one event are durable before the next event runs.
 */
#ifndef SC_SCHEDD_H
#define SC_SCHEDD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "ks_daemon.h"
#include "ks_priv.h"
#include "ks_store.h"

/* JobStatus values, as HTCondor numbers them. */
enum sc_status {
	SC_IDLE = 1,
	SC_RUNNING = 2,
	SC_REMOVED = 3,
	SC_COMPLETED = 4,
	SC_HELD = 5,
	SC_TRANSFERRING = 6,
	SC_SUSPENDED = 7,
	SC_NSTATUS = 8,
};

struct sc_run;
struct sc_local;
struct sc_cluster;

struct sc_job {
	int cluster, proc;
	classad *ad; /* the proc ad, chained to its cluster's ad */
	struct sc_cluster *cl;
	int status;
	struct sc_run *run; /* while it has a claim, or NULL */
	struct sc_local *local; /* a local job's starter, or NULL */
	int autocluster;    /* 0: not yet computed */
	bool dirty;         /* its proc ad must be written */
	bool gone;          /* retired to history; freed with the flush */
	char *owner;        /* Owner, cached for queries and submitters */
};

struct sc_cluster {
	int id;
	classad *ad;
	struct sc_job **procs; /* indexed by ProcId; NULL once retired */
	size_t nprocs;
	size_t live;
	bool dirty;
};

/* Counts of jobs by status, for the summary line and the ads. */
struct sc_counts {
	long by_status[SC_NSTATUS];
};

struct sc_queue;
struct sc_autoclusters;
struct sc_negotiation;
struct sc_policy;
struct sd_cron;

struct sc_schedd {
	ks_daemon *d;
	struct sc_queue *q;
	char *uid_domain;
	char *fs_domain; /* FILESYSTEM_DOMAIN */
	char **super_users;
	size_t nsuper;
	/* knobs read at start and reconfig */
	int alive_interval;
	double reconnect_factor;  /* RECONNECT_BACKOFF_FACTOR */
	int reconnect_ceiling;    /* RECONNECT_BACKOFF_CEILING */
	int periodic_interval;
	long max_jobs_running;
	/* HTCondor's submission limits: MAX_JOBS_SUBMITTED (the queue),
	 * MAX_JOBS_PER_OWNER, MAX_JOBS_PER_SUBMISSION; none by default */
	long max_jobs_submitted, max_jobs_per_owner, max_jobs_per_submission;
	char *event_log;
	/* runs (claims) in progress */
	struct sc_run **runs;
	size_t nruns, runcap;
	uint64_t run_serial; /* the last run's */
	uint64_t periodic_timer, submitter_timer;
	bool submitters_pending;
	char **submitters; /* names advertised last time, to invalidate */
	size_t nsubmitters;
	struct sc_autoclusters *ac;  /* negotiate.c */
	struct sc_negotiation *neg;  /* the negotiation under way */
	struct sc_policy *policy;    /* policy.c */
	struct sc_accounts *accounts; /* accounts.c */
	struct sd_cron *cron;        /* SCHEDD_CRON jobs (sd_cron.h) */
	bool cron_ending;            /* shutting down, waiting for them */
};

/* ---- queue.c ---- */

/* Opens the queue's store at path and loads every job.  Returns 0 or an
 * error with err filled. */
int sc_queue_open(struct sc_schedd *s, const char *path, struct ks_err *err);
void sc_queue_close(struct sc_schedd *s);
/* Forces the queue's changes to the disk (every
 * SCHEDD_JOB_QUEUE_LOG_FLUSH_DELAY, and at exit). */
void sc_queue_sync(struct sc_schedd *s);

/* Reserves a new cluster id (durable before it returns). */
int sc_queue_new_cluster(struct sc_schedd *s, int *id, struct ks_err *err);

/* Queues a whole cluster in one transaction: cl_ad and procs[i] become
 * the queue's (it takes them, on success and on failure).  Returns 0 or an
 * error (nothing queued). */
int sc_queue_submit(struct sc_schedd *s, int cluster, classad *cl_ad,
		    classad **procs, size_t n, struct ks_err *err);

struct sc_job *sc_queue_find(struct sc_schedd *s, int cluster, int proc);
struct sc_cluster *sc_queue_cluster(struct sc_schedd *s, int cluster);

/* Calls fn for every job in the queue in id order until it returns
 * non-zero (which is returned). */
int sc_queue_each(struct sc_schedd *s, int (*fn)(struct sc_job *j, void *arg),
		  void *arg);

/* The whole queue's counts. */
const struct sc_counts *sc_queue_counts(struct sc_schedd *s);
size_t sc_queue_size(struct sc_schedd *s);

/* Changes one attribute of a job's proc ad (the cluster's value stays for
 * the other jobs); marks it for the store. */
void sc_job_set_int(struct sc_schedd *s, struct sc_job *j, const char *name,
		    int64_t v);
void sc_job_set_real(struct sc_schedd *s, struct sc_job *j, const char *name,
		     double v);
void sc_job_set_string(struct sc_schedd *s, struct sc_job *j,
		       const char *name, const char *v);
void sc_job_set_bool(struct sc_schedd *s, struct sc_job *j, const char *name,
		     bool v);
/* expr is ClassAd text; returns 0 or KS_EPARSE. */
int sc_job_set_expr(struct sc_schedd *s, struct sc_job *j, const char *name,
		    const char *expr);
/* The same with the expression parsed (its reference is taken, even on
 * failure): one parse for many jobs, which then share it.  Returns 0 or
 * classad_insert()'s error. */
int sc_job_set_parsed(struct sc_schedd *s, struct sc_job *j, const char *name,
		      classad_expr *e);
void sc_job_delete_attr(struct sc_schedd *s, struct sc_job *j,
			const char *name);
/* Marks a job changed through its ad directly. */
void sc_job_touch(struct sc_schedd *s, struct sc_job *j);

/* Moves a job to status st: JobStatus, LastJobStatus,
 * EnteredCurrentStatus, and the counts. */
void sc_job_set_status(struct sc_schedd *s, struct sc_job *j, int st);

/* Takes a finished (Completed or Removed) job out of the queue into the
 * history, with the flush. */
void sc_job_retire(struct sc_schedd *s, struct sc_job *j);

/* Writes every pending change in one transaction now (also done from a
 * zero-delay timer after any change), then runs the effects waiting for
 * it.  Returns 0, or the store's error (err filled, may be NULL): then
 * everything stays pending and is tried again soon (txn.c). */
int sc_queue_flush(struct sc_schedd *s, struct ks_err *err);

/* Something to do once the changes made before it are in the store: an
 * event for a job's log, a claim released, a job stopped on its startd.
 * fn runs after the next successful flush, in the order given; drop (may
 * be NULL) frees arg after fn has run, or when the effect is dropped (a
 * transaction undone, the schedd ending). */
typedef void (*sc_effect_fn)(struct sc_schedd *s, void *arg);
void sc_queue_after(struct sc_schedd *s, sc_effect_fn fn, void *arg,
		    void (*drop)(void *arg));

/* A command's changes, all or nothing: after sc_queue_begin(), changes
 * wait for sc_queue_commit(), which writes them (durable when it returns
 * 0).  When it cannot, the jobs changed are put back as they were in
 * memory too, the effects added meanwhile are dropped, and the store's
 * error is returned (err filled). */
void sc_queue_begin(struct sc_schedd *s);
int sc_queue_commit(struct sc_schedd *s, struct ks_err *err);
/* Ends the transaction by undoing it (a command that failed midway). */
void sc_queue_abort(struct sc_schedd *s);

/* Walks the history newest first. */
int sc_history_each(struct sc_schedd *s,
		    int (*fn)(classad *ad, void *arg), void *arg);

/* A job's whole ad (cluster and proc attributes) as one new ad. */
classad *sc_job_flat(const struct sc_job *j);

/* The name of a status ("Idle"...) */
const char *sc_status_name(int st);

/* ---- schedd.c ---- */

/* The Owner an authenticated identity may submit as ("alice@x" ->
 * "alice").  New string (free()). */
char *sc_identity_owner(const char *identity);
/* Whether identity is a queue superuser: QUEUE_SUPER_USERS, and the
 * account the schedd runs as (PERSONAL_CONDOR_IS_SUPER_USER). */
bool sc_is_super_user(const struct sc_schedd *s, const char *identity);
/* Whether identity may change jobs owned by owner. */
bool sc_may_change(const struct sc_schedd *s, const char *identity,
		   const char *owner);
/* Asks for the submitter ads to be sent soon (jobs changed). */
void sc_submitters_changed(struct sc_schedd *s);
/* Sends them now. */
void sc_submitters_now(struct sc_schedd *s);
/* The schedd's ad as the collector gets it (new ad). */
classad *sc_schedd_ad(struct sc_schedd *s);

/* ---- accounts.c ---- */

/* The job owner's identity for a moment, as ks_priv_to_account() takes
 * it (restore with ks_priv_restore()), the account looked up at most
 * once per PASSWD_CACHE_REFRESH.  Returns 0, or KS_ENOTFOUND / KS_EPERM
 * with err filled. */
int sc_as_owner(struct sc_schedd *s, const char *owner,
		struct ks_priv_saved *saved, struct ks_err *err);
/* Forgets every account (at reconfig, and at the end). */
void sc_accounts_free(struct sc_schedd *s);

/* ---- negotiate.c ---- */

/* Asks the negotiator for a cycle (RESCHEDULE). */
void sc_reschedule(struct sc_schedd *s);
void sc_autoclusters_free(struct sc_schedd *s);
void sc_negotiation_free(struct sc_schedd *s);

#endif
