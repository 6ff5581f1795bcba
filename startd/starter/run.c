/*
 * run.c: the starter's loop while the job runs (sr_run.h).
 *
 * Each turn reaps whatever ended, then waits for a signal until the next
 * memory sample is due.  Samples start 50 ms apart, so that even a short
 * job is seen, and back off to one a second.
 */
#include "sr_run.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sr_family.h"
#include "ks_clock.h"
#include "ks_jobad.h"

#define SAMPLE_FIRST_MS 50
#define SAMPLE_MAX_MS 1000
/* How long to wait for killed leftovers to be reaped: a process stuck in
 * the kernel (state D) cannot die, and the starter must still report. */
#define LEFTOVER_WAIT_MS 10000

struct watch {
	ks_log *log;
	const char *id;
	pid_t pid;
	int kill_sig;
	pid_t startd;         /* the parent to outlive no longer than */
	bool orphan;          /* ... which has gone */
	bool soft_sent;       /* the job was given its soft kill signal */
	struct sr_outcome *o;
	struct sr_family fam;
	bool suspended;
	double suspended_at;  /* monotonic seconds */
	double started;       /* monotonic seconds at exec */
	double ended;
	bool done;
};

/* An empty handler: with one installed, no signal of the set counts as
 * ignored by default and dropped (SIGCHLD, or SIGTSTP in an orphaned
 * process group) before sigtimedwait() can take it. */
static void nothing(int sig)
{
	(void)sig;
}

void sr_run_signals_init(sigset_t *set)
{
	sigemptyset(set);
	int sigs[] = {SIGCHLD, SIGTSTP, SIGCONT, SIGTERM, SIGINT, SIGQUIT,
		      SIGHUP};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	sigprocmask(SIG_BLOCK, set, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nothing;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* A signal's name for the log; KillSig may be a number without one. */
static const char *sig_text(int sig, char buf[16])
{
	const char *name = ks_jobad_signal_name(sig);
	if (name)
		return name;
	snprintf(buf, 16, "signal %d", sig);
	return buf;
}

static void sample(struct watch *w)
{
	if (sr_family_scan(getpid(), &w->fam))
		return;
	uint64_t vsize, rss;
	sr_family_memory(&w->fam, &vsize, &rss);
	if (vsize > w->o->image_kb)
		w->o->image_kb = vsize;
	if (rss > w->o->rss_kb)
		w->o->rss_kb = rss;
}

static void signal_job(struct watch *w, int sig)
{
	sample(w);
	int n = sr_family_signal(&w->fam, w->pid, sig);
	char buf[16];
	ks_log_printf(w->log, KS_D_FULLDEBUG,
		      "job %s: %s sent to %d process group or processes",
		      w->id, sig_text(sig, buf), n);
}

static void resume(struct watch *w, const char *why)
{
	signal_job(w, SIGCONT);
	double now = ks_clock_s();
	w->o->suspension += (int64_t)(now - w->suspended_at + 0.5);
	w->suspended = false;
	ks_log_printf(w->log, KS_D_ALWAYS,
		      "job %s: continued (%s) after %.0f s suspended", w->id,
		      why, now - w->suspended_at);
}

bool sr_run_startd_watch(pid_t startd)
{
	prctl(PR_SET_PDEATHSIG, SIGQUIT, 0, 0, 0);
	return sr_run_startd_alive(startd);
}

bool sr_run_startd_alive(pid_t startd)
{
	return getppid() == startd;
}

static void hard_kill(struct watch *w, const char *why)
{
	w->o->kill = SR_KILL_HARD;
	signal_job(w, SIGKILL);
	ks_log_printf(w->log, KS_D_ALWAYS,
		      "job %s: %s: SIGKILL sent to its processes", w->id, why);
}

/* The startd's SIGQUIT, or no startd any more. */
static void on_hard_kill(struct watch *w)
{
	if (!w->orphan && w->startd > 0 && !sr_run_startd_alive(w->startd)) {
		w->orphan = true;
		w->o->startd_gone = w->startd;
		char why[96];
		snprintf(why, sizeof(why),
			 "the startd (pid %ld) went away; hard kill",
			 (long)w->startd);
		hard_kill(w, why);
		return;
	}
	hard_kill(w, "hard kill");
}

static void on_signal(struct watch *w, int sig)
{
	switch (sig) {
	case SIGTSTP:
		if (w->suspended) {
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: suspend order, but the job is "
				      "already suspended", w->id);
			break;
		}
		signal_job(w, SIGSTOP);
		w->suspended = true;
		w->suspended_at = ks_clock_s();
		w->o->suspensions++;
		ks_log_printf(w->log, KS_D_ALWAYS,
			      "job %s: suspended (SIGSTOP to its processes)",
			      w->id);
		break;
	case SIGCONT:
		if (w->suspended)
			resume(w, "continue order");
		else
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: continue order, but the job is "
				      "not suspended", w->id);
		break;
	case SIGTERM:
	case SIGINT:
		if (w->o->kill == SR_KILL_HARD)
			break;
		/* A stopped process cannot act on its soft kill signal. */
		if (w->suspended)
			resume(w, "soft kill order");
		w->soft_sent = true;
		w->o->kill = SR_KILL_SOFT;
		w->o->kill_sig = w->kill_sig;
		signal_job(w, w->kill_sig);
		char buf[16];
		ks_log_printf(w->log, KS_D_ALWAYS,
			      "job %s: soft kill: %s (its KillSig) sent to its "
			      "processes; waiting for it to exit", w->id,
			      sig_text(w->kill_sig, buf));
		break;
	case SIGQUIT:
		on_hard_kill(w);
		break;
	case SIGHUP:
		ks_log_printf(w->log, KS_D_ALWAYS,
			      "job %s: SIGHUP ignored (nothing to reconfigure)",
			      w->id);
		break;
	default:
		break;
	}
}

/* Reaps every child that has ended; notes the job's own end. */
static void reap(struct watch *w)
{
	int status;
	pid_t p;
	while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
		if (p != w->pid || w->done)
			continue;
		w->done = true;
		w->ended = ks_clock_s();
		w->o->status = status;
		w->o->end_date = (int64_t)time(NULL);
		if (WIFSIGNALED(status))
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: process %ld died on signal %d "
				      "(%s)%s", w->id, (long)p,
				      WTERMSIG(status), strsignal(WTERMSIG(status)),
				      WCOREDUMP(status) ? ", core dumped" : "");
		else
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: process %ld exited with status %d",
				      w->id, (long)p, WEXITSTATUS(status));
	}
}

static void wait_signal(const sigset_t *set, int ms, struct watch *w)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	siginfo_t info;
	int sig = sigtimedwait(set, &info, &ts);
	if (sig > 0 && w)
		on_signal(w, sig);
}

/* After the job's end: kill what it left, and reap until nothing is
 * left or the wait is over. */
static void kill_leftovers(struct watch *w, const sigset_t *set)
{
	double deadline = ks_clock_s() + LEFTOVER_WAIT_MS / 1000.0;
	bool told = false;
	for (;;) {
		/* As a subreaper the starter inherits every orphan of the job,
		 * so with no child left there is no descendant either: no need
		 * to walk /proc (most jobs end so). */
		siginfo_t info;
		if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 &&
		    errno == ECHILD) {
			w->fam.n = 0;
			break;
		}
		sample(w);
		if (w->fam.n == 0)
			break;
		if (!told) {
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: killing %zu process(es) it left "
				      "running", w->id, w->fam.n);
			told = true;
		}
		sr_family_signal(&w->fam, w->pid, SIGKILL);
		if (ks_clock_s() > deadline) {
			ks_log_printf(w->log, KS_D_ALWAYS,
				      "job %s: %zu process(es) would not die "
				      "within %d s; giving up on them", w->id,
				      w->fam.n, LEFTOVER_WAIT_MS / 1000);
			break;
		}
		/* Further orders mean nothing now: everything is being
		 * killed; only SIGCHLD matters. */
		wait_signal(set, 20, NULL);
		reap(w);
	}
	int status;
	while (waitpid(-1, &status, WNOHANG) > 0)
		;
}

void sr_run_watch(ks_log *log, const char *id, pid_t pid, int kill_sig,
		  pid_t startd, const sigset_t *set, struct sr_outcome *o)
{
	struct watch w = {.log = log, .id = id, .pid = pid,
			  .kill_sig = kill_sig, .startd = startd, .o = o,
			  .started = ks_clock_s()};
	int interval = SAMPLE_FIRST_MS;
	double next = w.started;
	for (;;) {
		reap(&w);
		if (w.done)
			break;
		double now = ks_clock_s();
		if (now >= next) {
			sample(&w);
			next = now + interval / 1000.0;
			interval = interval * 2 > SAMPLE_MAX_MS ? SAMPLE_MAX_MS
								: interval * 2;
		}
		int ms = (int)((next - now) * 1000.0) + 1;
		wait_signal(set, ms > 0 ? ms : 1, &w);
		/* should the kernel's signal not come (it follows the
		 * thread that started the starter, not the process), this
		 * finds the startd gone within a second */
		if (!w.orphan && startd > 0 && !sr_run_startd_alive(startd))
			on_hard_kill(&w);
	}
	if (w.suspended) {
		w.o->suspension += (int64_t)(w.ended - w.suspended_at + 0.5);
		w.suspended = false;
	}
	kill_leftovers(&w, set);
	sr_family_free(&w.fam);
	o->run = w.ended - w.started;
	o->how = sr_end_how(o->kill, w.soft_sent, o->status);
	if (o->how != SR_END_KILLED)
		o->kill = SR_KILL_NONE; /* (its end is its own) */
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		o->user_cpu = (double)ru.ru_utime.tv_sec +
			      (double)ru.ru_utime.tv_usec / 1e6;
		o->sys_cpu = (double)ru.ru_stime.tv_sec +
			     (double)ru.ru_stime.tv_usec / 1e6;
		/* A job too short to be sampled still has its peak here:
		 * the largest single process's resident set. */
		if ((uint64_t)ru.ru_maxrss > o->rss_kb)
			o->rss_kb = (uint64_t)ru.ru_maxrss;
	}
	if (o->image_kb < o->rss_kb)
		o->image_kb = o->rss_kb;
}
