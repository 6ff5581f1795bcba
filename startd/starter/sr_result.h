/*
 * sr_result.h: how the job's activation ended, and the result ad that
 * says so to the startd.
 *
 * The result ad is written once, in old ClassAd syntax, to the starter's
 * standard output.  Its attributes carry HTCondor's names and meanings,
 * so that whoever receives it can copy them into the job ad:
 *
 *   JobExitReason       "exited"       the job ended on its own with an exit
 *                                      code (ExitCode);
 *                       "signaled"     it died on its own from a signal
 *                                      (ExitSignal), no kill order given;
 *                       "killed"       it ended after the startd ordered a
 *                                      soft or hard kill, however it ended,
 *                                      or its startd went away (the starter
 *                                      killed it, or did not start it);
 *                       "start failed" it never ran: ExitReason says what
 *                                      failed and where, with HoldReason,
 *                                      HoldReasonCode and HoldReasonSubCode
 *                                      as HTCondor would put the job on hold.
 *   ExitBySignal, ExitCode | ExitSignal, JobCoreDumped (only when true),
 *   ExitReason ("died on signal N (name)" for a signal death, the kill
 *   order or the startd's going for "killed", the failure for "start
 *   failed"), JobPid (none for a job that never began),
 *   JobStartDate (the ad's own if it had one, else this start),
 *   JobCurrentStartDate (the activation began), JobCurrentStartExecutingDate
 *   (the executable began), CompletionDate (only when the job ended on its
 *   own: "exited" or "signaled"), JobDuration (seconds the executable ran),
 *   RemoteUserCpu and RemoteSysCpu (seconds, the whole process tree),
 *   ImageSize and ResidentSetSize (KiB, peaks of the tree's sums),
 *   MemoryUsage (MEMORY_USAGE_METRIC, an expression), LastRemoteWallClockTime
 *   (seconds of this activation) and the totals over the job's life:
 *   RemoteWallClockTime, CumulativeSuspensionTime and TotalSuspensions
 *   (the ad's previous values plus this activation's).
 *   A job killed on its startd's order to hold it has HoldReason,
 *   HoldReasonCode and HoldReasonSubCode as well (sr_result_hold()).
 */
#ifndef SR_RESULT_H
#define SR_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "classad.h"
#include "ks_err.h"
#include "ks_jobad.h"

enum sr_end {
	SR_END_START_FAILED,
	SR_END_EXITED,
	SR_END_SIGNALED,
	SR_END_KILLED,
};

/* HTCondor's hold reason codes for a job that could not start. */
enum sr_hold_code {
	SR_HOLD_CREATE_PROCESS = 6, /* FailedToCreateProcess */
	SR_HOLD_OPEN_OUTPUT = 7,    /* UnableToOpenOutput */
	SR_HOLD_OPEN_INPUT = 8,     /* UnableToOpenInput */
	SR_HOLD_TRANSFER_INPUT = 13, /* TransferInputError */
	SR_HOLD_IWD = 14,           /* IwdError */
	SR_HOLD_USER_ACCOUNT = 23,  /* FailedToAccessUserAccount */
};

enum sr_kill { SR_KILL_NONE, SR_KILL_SOFT, SR_KILL_HARD };

struct sr_outcome {
	enum sr_end how;
	char *reason;          /* start failures: what and where (owned) */
	int hold_code;         /* start failures: enum sr_hold_code */
	int hold_subcode;      /* start failures: the errno, or 0 */
	pid_t pid;             /* the job's main process, 0 if none */
	int status;            /* its wait status */
	enum sr_kill kill;     /* the strongest kill order carried out */
	int kill_sig;          /* the signal the soft kill sent */
	pid_t startd_gone;     /* the startd whose going ended the job, or 0 */
	int64_t start_date;    /* epoch seconds the activation began */
	int64_t exec_date;     /* epoch seconds the executable began, 0 if not */
	int64_t end_date;      /* epoch seconds the job ended */
	double wall;           /* seconds from activation start to end */
	double run;            /* seconds the executable ran */
	int64_t suspension;    /* seconds suspended in this activation */
	int64_t suspensions;   /* times suspended in this activation */
	double user_cpu;       /* seconds */
	double sys_cpu;
	uint64_t image_kb;
	uint64_t rss_kb;
};

/* How a job ended, from the strongest kill order carried out, whether
 * its soft kill signal was sent, and its wait status.  A job that was
 * only sent SIGKILL (its startd went away, or ordered a hard kill) and
 * did not die of it had ended by itself before the signal reached it: its
 * end is its own (exited or signaled), as one not killed at all; a job
 * given its soft kill signal may have ended because of it, and was
 * killed. */
enum sr_end sr_end_how(enum sr_kill kill, bool soft_sent, int status);

/* Records a start failure in o (the first one wins): reason is a
 * printf-style message that names what failed and where. */
void sr_outcome_fail(struct sr_outcome *o, int hold_code, int hold_subcode,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The startd (pid startd) went away before the job began (when says
 * when: "before the job started"): the job is killed without having run,
 * so that its claimer runs it again rather than hold it. */
void sr_outcome_startd_gone(struct sr_outcome *o, pid_t startd,
			    const char *when);

/* The result ad for job (whose ad may be missing if it did not load)
 * and outcome o; memory_metric is the MemoryUsage expression (NULL for
 * HTCondor's default).  Returns a new ad; free with classad_free(). */
classad *sr_result_ad(const struct ks_jobad *job, const struct sr_outcome *o,
		      const char *memory_metric);

/* The startd's order to put the job on hold rather than evict it
 * (WANT_HOLD), as the text of the -hold file: an old-syntax ad with
 * HoldReason (a string), HoldReasonCode and HoldReasonSubCode (integers).
 * When o says the job was killed (a job that ended on its own, or never
 * started, has its own end), those three go into the result ad, so that
 * the job's claimer holds it.  Returns true when they did; false, with
 * ad unchanged, for another end or a text that is not such an ad. */
bool sr_result_hold(classad *ad, const struct sr_outcome *o,
		    const char *text, size_t len);

/* Writes ad in old syntax to f and flushes it.  Returns 0 or KS_EIO with
 * err filled. */
int sr_result_write(FILE *f, const classad *ad, struct ks_err *err);

/* Writes ad in old syntax as the file path, whole or not at all
 * (sr_file.h), given to uid:gid when chown_it.  Returns 0 or KS_EIO with
 * err filled. */
int sr_result_save(const char *path, const classad *ad, bool chown_it,
		   uid_t uid, gid_t gid, struct ks_err *err);

/* "exited", "signaled", "killed", "start failed". */
const char *sr_end_name(enum sr_end how);

void sr_outcome_free(struct sr_outcome *o);

#endif
