/*
 * sr_run.h: watching the running job and acting on the startd's signals.
 *
 * The startd talks to the starter with signals only:
 *   SIGTSTP  suspend: SIGSTOP to the job's processes;
 *   SIGCONT  continue: SIGCONT to them;
 *   SIGTERM  soft kill: the job's KillSig to them (after a SIGCONT if
 *            suspended), then wait for the job to end (SIGINT does the
 *            same, for a starter run by hand);
 *   SIGQUIT  hard kill: SIGKILL to them (the kernel sends it too when
 *            the startd dies: sr_run_startd_watch()).
 * SIGHUP is logged and ignored.  The starter keeps these signals blocked
 * and takes them with sigtimedwait(), so no handler runs and no state is
 * shared with one.  The kernel itself resolves a suspend and a continue
 * that arrive together: each discards the other if it is still pending.
 *
 * When the job's main process exits, the job has ended: whatever it left
 * running is killed, as HTCondor kills a job's leftover processes.
 */
#ifndef SR_RUN_H
#define SR_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "ks_log.h"
#include "sr_result.h"

/* Blocks the signals above in the calling process and fills set with
 * them; also makes the starter a child subreaper (so orphans of the job
 * stay its descendants) and stops SIGPIPE from killing it.  Call first
 * thing in main(). */
void sr_run_signals_init(sigset_t *set);

/* The startd is the starter's parent.  When it dies (kill -9, a crash)
 * nobody is left to hear of the job or to end it, and a new startd
 * offers its CPUs again: the starter then hard-kills the job, as
 * HTCondor's starter shuts down fast when its parent has gone.  This asks
 * the kernel for a SIGQUIT (the hard kill) at the startd's death, and
 * says whether startd is still the parent now, after asking (false: it
 * died before, and no signal will come). */
bool sr_run_startd_watch(pid_t startd);

/* Whether startd is still the starter's parent. */
bool sr_run_startd_alive(pid_t startd);

/* Watches job pid (its own process group) until it has ended and every
 * process it left is gone, acting on the signals in set; fills o's exit
 * status, kill order, times, suspension, CPU and memory.  id names the
 * job in log lines; kill_sig is the soft kill's signal.  A startd that
 * has gone (startd, looked at each turn too, in case its signal was
 * lost) is a hard kill. */
void sr_run_watch(ks_log *log, const char *id, pid_t pid, int kill_sig,
		  pid_t startd, const sigset_t *set, struct sr_outcome *o);

#endif
