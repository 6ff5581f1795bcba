/* parent.c: a daemon started by a master ends when the master has gone.
 *
 * As HTCondor's daemons do (DaemonCore's check_parent): the master names
 * itself in CONDOR_INHERIT ("PID ADDRESS"), and a daemon whose master
 * has died (kill -9, a crash) shuts down fast, so that a new master
 * starts a clean set instead of a second one beside it.  HTCondor polls
 * every PARENT_CHECK_INTERVAL; here the master's end is an event (a
 * pidfd becomes readable when the process has exited, reaped or not),
 * with a poll every second only where pidfds are not to be had. */
#include "daemon_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ks_proc.h"

#define INHERIT_ENV "CONDOR_INHERIT"

void ks_daemon_set_inherit(const ks_daemon *d, pid_t parent)
{
	char v[400];
	snprintf(v, sizeof(v), "%ld %s", (long)parent, d->sinful);
	setenv(INHERIT_ENV, v, 1);
}

void kd_parent_read(ks_daemon *d)
{
	const char *v = getenv(INHERIT_ENV);
	if (v) {
		char *end;
		long pid = strtol(v, &end, 10);
		if (end != v && pid > 1 && (*end == ' ' || *end == '\0'))
			d->priv->parent = (pid_t)pid;
		/* not for what the daemon starts (starters, jobs, hooks) */
		unsetenv(INHERIT_ENV);
	}
}

static void parent_gone(ks_daemon *d)
{
	kd_parent_stop(d);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "Our parent process (pid %ld) went away; shutting down "
		      "fast", (long)d->priv->parent);
	ks_daemon_shutdown(d, true);
}

static void on_parent_fd(void *arg, int fd, unsigned events)
{
	(void)fd;
	(void)events;
	parent_gone(arg);
}

/* Gone, or a zombie nobody reaps yet (kill(pid, 0) would still see
 * that one). */
static bool parent_alive(pid_t pid)
{
	struct ks_proc_stat st;
	return ks_proc_stat(pid, &st) == 0 && st.state != 'Z' &&
	       st.state != 'X';
}

static void on_parent_poll(void *arg)
{
	ks_daemon *d = arg;
	if (!parent_alive(d->priv->parent))
		parent_gone(d);
}

void kd_parent_watch(ks_daemon *d)
{
	struct ks_daemon_priv *p = d->priv;
	p->parent_fd = -1;
	/* the master has no master to watch, as in HTCondor */
	if (p->parent <= 0 || strcmp(d->subsys, "MASTER") == 0)
		return;
	int fd = -1;
#ifdef SYS_pidfd_open
	fd = (int)syscall(SYS_pidfd_open, p->parent, 0);
#endif
	if (fd >= 0 && ks_loop_watch(d->loop, fd, KS_EV_IN, on_parent_fd,
				     d) == 0) {
		p->parent_fd = fd;
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "watching the parent process, pid %ld",
			      (long)p->parent);
		return;
	}
	if (fd >= 0)
		close(fd);
	/* gone already (ESRCH) or no pidfds here: the poll finds out */
	p->parent_timer = ks_loop_timer(d->loop, 0, 1000, on_parent_poll, d);
}

void kd_parent_stop(ks_daemon *d)
{
	struct ks_daemon_priv *p = d->priv;
	ks_loop_cancel(d->loop, p->parent_timer);
	p->parent_timer = 0;
	if (p->parent_fd >= 0) {
		ks_loop_unwatch(d->loop, p->parent_fd);
		close(p->parent_fd);
		p->parent_fd = -1;
	}
}
