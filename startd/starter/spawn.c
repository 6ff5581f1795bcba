/*
 * spawn.c: the start of the job's process (sr_spawn.h).
 *
 * The child shares the starter's memory until its execve() (vfork()):
 * copying the starter's page tables for a fork and taking its
 * copy-on-write faults after cost about 5% of a short job's start.
 * The starter waits meanwhile and is single-threaded, so what the child
 * does before the execve touches nothing the starter is using: system
 * calls, no allocation, and it never returns (it execs or _exits).  It
 * reports only an errno and a step number; the parent writes the
 * message.
 */
#define _GNU_SOURCE /* close_range() */
#include "sr_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum step { STEP_SESSION = 1, STEP_USER, STEP_CWD, STEP_IN, STEP_OUT,
	    STEP_ERR, STEP_STDIO, STEP_EXEC };

struct report {
	int step;
	int err;
};

static _Noreturn void child_fail(int fd, enum step step)
{
	struct report r = {step, errno};
	ssize_t n;
	do
		n = write(fd, &r, sizeof(r));
	while (n < 0 && errno == EINTR);
	_exit(127);
}

/* The starter blocks and catches signals for itself; the job must start
 * with none blocked and every disposition at its default, whatever the
 * startd left ignored. */
static void reset_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Descriptors the starter inherited or opened (its log) must not reach
 * the job. */
static void cloexec_the_rest(void)
{
#ifdef CLOSE_RANGE_CLOEXEC
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = 3; fd < max; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static int open_out(const char *path, bool append)
{
	if (!path)
		return open("/dev/null", O_WRONLY);
	int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
	return open(path, flags, 0666);
}

static _Noreturn void child(const struct sr_spawn *s, int fd, pid_t parent)
{
	reset_signals();
	if (setsid() < 0)
		child_fail(fd, STEP_SESSION);
	/* JOB_RENICE_INCREMENT on top of the starter's niceness (raising
	 * it needs no privilege, and a failure leaves the job as it was) */
	if (s->nice > 0)
		setpriority(PRIO_PROCESS, 0,
			    getpriority(PRIO_PROCESS, 0) + s->nice);
	if (ks_jobad_user_become(s->user))
		child_fail(fd, STEP_USER);
	/* If the starter itself is killed outright, nothing is left to
	 * kill the job: take its main process down with it.  Set after the
	 * change of user, which clears it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(127);
	if (chdir(s->cwd))
		child_fail(fd, STEP_CWD);
	int in = open(s->in ? s->in : "/dev/null", O_RDONLY);
	if (in < 0)
		child_fail(fd, STEP_IN);
	int out = open_out(s->out, s->append);
	if (out < 0)
		child_fail(fd, STEP_OUT);
	/* One file for both streams shares one offset, so that the job's
	 * output and errors interleave instead of overwriting each other. */
	int err = s->err && s->out && !strcmp(s->err, s->out)
			  ? dup(out)
			  : open_out(s->err, s->append);
	if (err < 0)
		child_fail(fd, STEP_ERR);
	/* The starter keeps 0, 1 and 2 open, so these are all above 2 and
	 * none is overwritten before it is moved. */
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		child_fail(fd, STEP_STDIO);
	close(in);
	close(out);
	close(err);
	cloexec_the_rest();
	execve(s->path, s->argv, s->envp);
	child_fail(fd, STEP_EXEC);
}

static void describe(const struct sr_spawn *s, const struct report *r,
		     struct sr_outcome *o)
{
	const char *who = s->user->name ? s->user->name : "?";
	const char *why = strerror(r->err);
	switch (r->step) {
	case STEP_USER:
		sr_outcome_fail(o, SR_HOLD_USER_ACCOUNT, r->err,
				"cannot become user %s (uid %u, gid %u) to run "
				"the job: %s", who, (unsigned)s->user->uid,
				(unsigned)s->user->gid, why);
		break;
	case STEP_CWD:
		sr_outcome_fail(o, SR_HOLD_IWD, r->err,
				"cannot enter the job's directory %s (%s) as "
				"user %s: %s", s->cwd, s->cwd_attr, who, why);
		break;
	case STEP_IN:
		sr_outcome_fail(o, SR_HOLD_OPEN_INPUT, r->err,
				"cannot open %s, the job's standard input (In), "
				"as user %s: %s", s->in, who, why);
		break;
	case STEP_OUT:
	case STEP_ERR: {
		bool is_out = r->step == STEP_OUT;
		sr_outcome_fail(o, SR_HOLD_OPEN_OUTPUT, r->err,
				"cannot open %s, the job's standard %s (%s), "
				"as user %s: %s", is_out ? s->out : s->err,
				is_out ? "output" : "error",
				is_out ? "Out" : "Err", who, why);
		break;
	}
	case STEP_EXEC:
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, r->err,
				"cannot execute %s (the job's Cmd) as user %s: "
				"%s", s->path, who, why);
		break;
	default:
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, r->err,
				"cannot set up the job's process (step %d): %s",
				r->step, why);
		break;
	}
}

pid_t sr_spawn_job(const struct sr_spawn *s, struct sr_outcome *o)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC)) {
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, errno,
				"cannot start the job: pipe: %s",
				strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	/* back when the child has called execve() or exited */
	pid_t pid = vfork();
	if (pid < 0) {
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, errno,
				"cannot start the job: vfork: %s",
				strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0)
		child(s, p[1], parent); /* p[0] closes on exec */
	close(p[1]);
	struct report r;
	ssize_t n;
	do
		n = read(p[0], &r, sizeof(r));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == 0)
		return pid; /* the pipe closed on exec */
	if (n != (ssize_t)sizeof(r))
		r = (struct report){STEP_EXEC, n < 0 ? errno : EIO};
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	describe(s, &r, o);
	return -1;
}
