/*
 * cron_proc.c: a cron job's process: fork and exec, the pipes the loop
 * reads, signals, and reaping.
 *
 * The child gets its own process group, so that a kill reaches whatever
 * it started too (a shell's children would otherwise keep the output
 * pipe open after the shell is gone), and an unblocked signal mask with
 * default dispositions: the daemon's loop blocks the signals it takes
 * through signalfd, and exec would pass that mask on.  Whether exec
 * worked is learnt through a close-on-exec pipe, so that a job that
 * cannot start is reported at once, as HTCondor's Create_Process does.
 */
#define _GNU_SOURCE /* pipe2 */
#include "cron_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_priv.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

extern char **environ;

/* Bounds one read callback, so that a chatty job cannot hold the loop. */
enum { READS_PER_EVENT = 16 };

static void close_fd(struct cron_job *j, int *fd)
{
	if (*fd < 0)
		return;
	ks_loop_unwatch(j->mgr->loop, *fd);
	close(*fd);
	*fd = -1;
}

/* Reads fd until it would block (or max reads); closes it at its end.
 * Returns false once it is closed. */
static bool drain(struct cron_job *j, int *fd, bool is_out, int max)
{
	char buf[16384];
	for (int i = 0; *fd >= 0 && (max < 0 || i < max); i++) {
		ssize_t n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			if (is_out)
				sd_cron_out_bytes(j, buf, (size_t)n);
			else
				sd_cron_err_bytes(j, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n < 0)
			ks_log_printf(j->mgr->log, KS_D_ALWAYS,
				      "CronJob: reading the %s of '%s' failed: "
				      "%s",
				      is_out ? "output" : "standard error",
				      j->p->name, strerror(errno));
		close_fd(j, fd);
		sd_cron_out_flush(j);
		return false;
	}
	return *fd >= 0;
}

static void on_out(void *arg, int fd, unsigned events)
{
	struct cron_job *j = arg;
	(void)fd;
	(void)events;
	drain(j, &j->out_fd, true, READS_PER_EVENT);
}

static void on_err(void *arg, int fd, unsigned events)
{
	struct cron_job *j = arg;
	(void)fd;
	(void)events;
	drain(j, &j->err_fd, false, READS_PER_EVENT);
}

void sd_cron_close_pipes(struct cron_job *j)
{
	/* the process has ended: what it wrote is in the pipes already, so
	 * reading until they would block takes all of it (a child it left
	 * behind may keep writing; that is not waited for) */
	drain(j, &j->out_fd, true, -1);
	drain(j, &j->err_fd, false, -1);
	close_fd(j, &j->out_fd);
	close_fd(j, &j->err_fd);
	sd_cron_out_flush(j);
}

void sd_cron_drop_pipes(struct cron_job *j)
{
	close_fd(j, &j->out_fd);
	close_fd(j, &j->err_fd);
}

static void on_exit_status(void *arg, pid_t pid, int status)
{
	(void)pid;
	sd_cron_job_ended(arg, status);
}

static void reap_only(void *arg, pid_t pid, int status)
{
	(void)arg;
	(void)pid;
	(void)status;
}

/* The daemon's environment with the job's settings over it; a new
 * vector (sd_cron_vec_free()). */
static char **job_env(char *const *over)
{
	char **v = NULL;
	size_t n = 0, no = sd_cron_vec_len(over);
	for (char **e = environ; e && *e; e++)
		n++;
	v = ks_xcalloc(n + no + 1, sizeof(*v));
	size_t k = 0;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t nl = eq ? (size_t)(eq - *e) : strlen(*e);
		bool replaced = false;
		for (size_t i = 0; i < no && !replaced; i++)
			replaced = !strncmp(over[i], *e, nl) &&
				   over[i][nl] == '=';
		if (!replaced)
			v[k++] = ks_xstrdup(*e);
	}
	for (size_t i = 0; i < no; i++)
		v[k++] = ks_xstrdup(over[i]);
	return v;
}

/* What the child reports when it cannot exec. */
struct exec_failure {
	int step; /* 0: chdir, 1: exec, 2: set-up */
	int err;
};

/* In the child: only async-signal-safe calls from here on. */
static _Noreturn void child(const struct cron_params *p, char **envp,
			    const struct ks_priv_drop *drop, int in, int out,
			    int err, int report)
{
	struct exec_failure f = {2, 0};
	setpgid(0, 0);
	sigset_t none;
	sigemptyset(&none);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, NULL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
		f.err = errno;
		goto fail;
	}
	/* a cron job runs as the condor account, as HTCondor's do, for
	 * good: it must not get the startd's root back */
	if (ks_priv_drop_now(drop) != 0) {
		f.err = errno;
		goto fail;
	}
#ifdef SYS_close_range
	/* a descriptor the daemon forgot to mark stays out of the job */
	syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);
#endif
	if (p->cwd && chdir(p->cwd) != 0) {
		f = (struct exec_failure){0, errno};
		goto fail;
	}
	execve(p->executable, p->argv, envp);
	f = (struct exec_failure){1, errno};
fail:
	if (write(report, &f, sizeof(f)) < 0) {
		/* nothing more can be said */
	}
	_exit(127);
}

static void close_pair(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
}

int sd_cron_spawn(struct cron_job *j)
{
	sd_cron *c = j->mgr;
	const struct cron_params *p = j->p;
	int out[2] = {-1, -1}, err[2] = {-1, -1}, rep[2] = {-1, -1};
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0 || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    pipe2(rep, O_CLOEXEC) || fcntl(out[0], F_SETFL, O_NONBLOCK) ||
	    fcntl(err[0], F_SETFL, O_NONBLOCK)) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: cannot create the pipes for '%s': %s",
			      p->name, strerror(errno));
		goto fail;
	}
	char **envp = job_env(p->env);
	struct ks_priv_drop drop;
	ks_priv_drop_prepare(&drop);
	pid_t pid = fork();
	if (pid == 0)
		child(p, envp, &drop, in, out[1], err[1], rep[1]);
	sd_cron_vec_free(envp);
	if (pid < 0) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: cannot fork for '%s': %s", p->name,
			      strerror(errno));
		goto fail;
	}
	setpgid(pid, pid); /* either side may get there first */
	close(in);
	in = -1;
	close(out[1]);
	close(err[1]);
	close(rep[1]);
	out[1] = err[1] = rep[1] = -1;
	struct exec_failure f;
	ssize_t n;
	do
		n = read(rep[0], &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(f)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: cannot run job '%s': %s %s: %s (check "
			      "%s_%s_%s)",
			      p->name,
			      f.step == 0 ? "chdir" : f.step == 1 ? "exec"
								  : "set up",
			      f.step == 0 ? p->cwd : p->executable,
			      strerror(f.err), c->prefix, p->name,
			      f.step == 0 ? "CWD" : "EXECUTABLE");
		goto fail;
	}
	close(rep[0]);
	rep[0] = -1;
	j->out_fd = out[0];
	j->err_fd = err[0];
	if (ks_loop_watch(c->loop, out[0], KS_EV_IN, on_out, j) ||
	    ks_loop_watch(c->loop, err[0], KS_EV_IN, on_err, j)) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: cannot watch the pipes of '%s': %s",
			      p->name, strerror(errno));
		j->pid = pid;
		sd_cron_abandon(j, true);
		close_fd(j, &j->out_fd);
		close_fd(j, &j->err_fd);
		return -1;
	}
	j->pid = pid;
	ks_log_printf(c->log, KS_D_STATUS, "%s job %s started. pid=%d",
		      c->prefix, p->name, (int)pid);
	/* last: if it has ended already, this reports it at once */
	if (ks_loop_child(c->loop, pid, on_exit_status, j)) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: cannot watch the process of '%s'",
			      p->name);
		sd_cron_abandon(j, true);
		close_fd(j, &j->out_fd);
		close_fd(j, &j->err_fd);
		return -1;
	}
	return 0;
fail:
	if (in >= 0)
		close(in);
	close_pair(out);
	close_pair(err);
	close_pair(rep);
	return -1;
}

void sd_cron_signal(struct cron_job *j, int sig)
{
	if (j->pid <= 0)
		return;
	if (kill(-j->pid, sig) != 0 && kill(j->pid, sig) != 0)
		ks_log_printf(j->mgr->log, KS_D_ALWAYS,
			      "CronJob: cannot send signal %d to '%s' (pid "
			      "%d): %s",
			      sig, j->p->name, (int)j->pid, strerror(errno));
}

void sd_cron_abandon(struct cron_job *j, bool wait)
{
	if (j->pid <= 0)
		return;
	pid_t pid = j->pid;
	ks_loop_forget_child(j->mgr->loop, pid);
	sd_cron_signal(j, SIGKILL);
	j->pid = 0;
	if (wait) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	} else if (ks_loop_child(j->mgr->loop, pid, reap_only, NULL)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
}
