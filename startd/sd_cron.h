/*
 * sd_cron.h: daemon ClassAd hooks ("startd cron"): programs the startd
 * runs now and then, whose output ("Name = value" lines) it merges into
 * its slot ads; the schedd runs its own (SCHEDD_CRON) for its Scheduler
 * ad.  (It stays here, beside the starter's argument parsing it uses.)
 *
 * Configuration, as HTCondor reads it, with <P> the prefix given to
 * sd_cron_new() (STARTD_CRON and BENCHMARKS in the startd, SCHEDD_CRON in
 * the schedd):
 * - <P>_JOBLIST: job names, separated by spaces or commas.
 * - <P>_<name>_EXECUTABLE (required), _ARGS (HTCondor's arguments
 *   syntax: plain words, or a double-quoted string with single-quote
 *   grouping; the program's argv[0] is the job's name), _ENV (a
 *   double-quoted "A=1 B='x y'" or the old "A=1;B=2"), _CWD.
 * - _MODE: Periodic (the default; a run every PERIOD, counted from
 *   each start), WaitForExit (a run PERIOD after the previous one
 *   ended; 0 restarts at once), OneShot (once at start-up, and at each
 *   reconfig with _RECONFIG_RERUN), OnDemand (only when asked).
 *   Benchmarks are OnDemand (another MODE skips the job, as in
 *   HTCondor), and what follows their '-' lines is ignored.
 * - _PERIOD: seconds, or a number followed by s, m or h.  Required for
 *   Periodic and WaitForExit.
 * - _KILL: a job still running when its period comes again is killed
 *   (SIGTERM, then SIGKILL a second later) and run again; without it,
 *   that period is skipped.
 * - _RECONFIG: a running job gets SIGHUP at reconfig (once it has
 *   written its first ad).  _RECONFIG_RERUN: see OneShot.
 * - _PREFIX: prepended to every attribute name the job writes.
 * - _SLOTS: the slot numbers whose ads take the job's output (default
 *   all).
 * - _JOB_LOAD (default 0.01) and <P>_MAX_JOB_LOAD (default 0.1): a job
 *   is started only while the loads of the running jobs, its own
 *   included, stay within the maximum.
 * - _CONDITION: a ClassAd expression; the job is started only when it
 *   is true against the context ad (sd_cron_set_context()).
 * - _METRICS: "SUM:Name PEAK:Name ...": a custom resource monitor; its
 *   Uptime<Name>Seconds values are summed and its
 *   Uptime<Name>PeakUsage values kept at their peak.
 * - _CONFIG_VAL_PROG: exported to the job as <MGR>_CONFIG_VAL, and
 *   <P>_CONFIG_VAL as itself.  Jobs also get <MGR>_INTERFACE_VERSION=1
 *   and <MGR>_CRON_NAME=<MGR> (MGR: the prefix without "_CRON").
 * - <P>_AUTOPUBLISH: Never (default), Always or If_Changed: whether new
 *   output asks for an update to the collector.
 * - <P>_LOG_NON_ZERO_EXIT: log the output of a job that exits non-zero.
 *
 * Output.  Lines "Name = value" build an ad; a line starting with '-'
 * ends it, and may name it and ask for an update:
 *     - [tag] [update:<bool>]
 * An ad is named after its job ("job", or "job.tag" with a tag) and
 * replaces the ad of that name the job published before.  A job's last
 * ad also ends when it exits.  Empty lines and lines starting with '#'
 * are skipped; other lines that do not parse are logged and skipped.
 * Each ad gets <prefix>LastUpdate, the time it was taken in.  Lines are
 * limited to 64 KiB and an ad to 1 MiB of text; what is over is logged
 * and dropped.
 *
 * Slots.  (The schedd's ad takes every ad: sd_cron_publish_daemon().)
 * An ad is merged into a slot's ad (sd_cron_publish()) if the
 * slot is in the job's SLOTS and, tried in this order, the ad's
 * SlotMergeConstraint is true with the slot ad as TARGET, or the slot's
 * Name starts with the ad's SlotName (else Name), or the SlotTypeId
 * matches, or the SlotId matches; an ad with none of these goes to every
 * slot.  Those attributes (and Name) are not merged.  Ads are merged in
 * the order they were first published, each job's untagged ad first.
 *
 * Processes.  A job runs as a child in its own process group, stdin
 * from /dev/null, stdout read through a pipe the loop watches, stderr
 * written to the log (D_FULLDEBUG), signals unblocked, with the daemon's
 * environment plus _ENV.  Its end is learnt through ks_loop_child().
 *
 * An sd_cron belongs to its loop's thread.  None of its callbacks may
 * free it or reconfigure it.
 */
#ifndef SD_CRON_H
#define SD_CRON_H

#include <stdbool.h>
#include <sys/types.h>

#include "classad.h"
#include "config.h"
#include "ks_log.h"
#include "ks_loop.h"

typedef struct sd_cron sd_cron;

/* A job's output was taken in: the ads sd_cron_publish() merges have
 * changed.  update_collector: the daemon should send its ads to the
 * collector now (<P>_AUTOPUBLISH, or the job's "update:true"). */
typedef void (*sd_cron_update_fn)(void *arg, bool update_collector);

/* The ad a job's CONDITION is evaluated against (HTCondor's daemon ad,
 * without slot attributes): a new reference (classad_free()), or NULL
 * for an empty ad. */
typedef classad *(*sd_cron_context_fn)(void *arg);

/* Every job has ended (sd_cron_shutdown(), sd_cron_when_idle()). */
typedef void (*sd_cron_idle_fn)(void *arg);

/* A new manager of the jobs that cfg lists under prefix (e.g.
 * "STARTD_CRON"); cfg is only read during the call.  loop and log (NULL
 * allowed: standard error) must outlive it; fn (NULL allowed) is called
 * with arg from the loop.  Jobs start from the loop, not during this
 * call, so sd_cron_set_context() may follow.  Invalid jobs are logged
 * and left out.  Free with sd_cron_free(). */
sd_cron *sd_cron_new(ks_loop *loop, ks_log *log, const ks_config *cfg,
		     const char *prefix, sd_cron_update_fn fn, void *arg);

/* Sets where CONDITION expressions find their ad (fn NULL: an empty ad). */
void sd_cron_set_context(sd_cron *c, sd_cron_context_fn fn, void *arg);

/* Reads the configuration again: new jobs are added, jobs no longer
 * listed are killed (SIGKILL) and their ads dropped, a job whose MODE
 * changed starts afresh, the others take their new settings at their
 * next run (a changed PERIOD at once).  Then RECONFIG jobs get SIGHUP
 * and RECONFIG_RERUN jobs run again.  cfg is only read during the call. */
void sd_cron_reconfig(sd_cron *c, const ks_config *cfg);

/* Starts the OnDemand job called name, or every OnDemand job if name is
 * NULL, unless it is already running.  Returns how many were started or
 * asked to start (a job over the load limit waits), or KS_ENOTFOUND if
 * no OnDemand job is called name. */
int sd_cron_run_on_demand(sd_cron *c, const char *name);

/* Merges what the jobs published into ad, the ad of slot `slot`
 * (1-based; for a dynamic slot, its partitionable parent's number), as
 * the startd does whenever it builds a slot ad.  ad should already hold
 * the slot's Name, SlotID and SlotTypeId. */
void sd_cron_publish(const sd_cron *c, int slot, classad *ad);

/* Merges what the jobs published into ad, a daemon's own ad (the
 * schedd's, which has no slots): every ad, in the same order, with SLOTS
 * and the slot-targeting attributes ignored; Name and MyType, the ad's
 * identity, are left out. */
void sd_cron_publish_daemon(const sd_cron *c, classad *ad);

/* Stops starting jobs and kills those running: SIGKILL if force, else
 * SIGTERM and SIGKILL a second later.  fn (NULL allowed) is called from
 * the loop, once, when none is left. */
void sd_cron_shutdown(sd_cron *c, bool force, sd_cron_idle_fn fn,
		      void *arg);

/* fn (NULL: none) is called from the loop, once, as soon as no job is
 * running or waiting to run (at once if none is): the end of a round of
 * OnDemand jobs, as the startd's benchmarks need.  It replaces an
 * earlier such call's fn, and is replaced by sd_cron_shutdown()'s. */
void sd_cron_when_idle(sd_cron *c, sd_cron_idle_fn fn, void *arg);

/* How many job processes have been started in all (0 for NULL). */
unsigned sd_cron_runs(const sd_cron *c);

/* True if no job process is alive. */
bool sd_cron_idle(const sd_cron *c);

/* What a job is doing, for logs, condor_who-style tools and tests. */
struct sd_cron_job_info {
	const char *mode;  /* "Periodic", ... (static) */
	const char *state; /* "Idle", "Running", "Ready", "TermSent",
			      "KillSent" (static) */
	pid_t pid;         /* 0 when not running */
	unsigned runs;     /* processes started */
	unsigned fails;    /* processes that could not be started */
	unsigned outputs;  /* blocks of output taken in */
};

/* Fills *out for the job called name.  Returns 0, or KS_ENOTFOUND. */
int sd_cron_job_info(const sd_cron *c, const char *name,
		     struct sd_cron_job_info *out);

/* Kills the jobs still running (SIGKILL) and waits for them, so that no
 * zombie is left, then frees everything.  NULL allowed. */
void sd_cron_free(sd_cron *c);

/* Appends to the NULL-terminated vector *v (NULL: empty) the words of
 * an HTCondor argument string (V2 when in double quotes, else V1), as a
 * job's ARGS; returns 0, or -1 with err (errlen bytes) saying why.  The
 * backfill client's BOINC_Arguments read the same way. */
int sd_cron_split_args(const char *s, char ***v, char *err, size_t errlen);
/* Frees such a vector. */
void sd_cron_vec_free(char **v);

#endif
