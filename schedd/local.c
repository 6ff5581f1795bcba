/*
 * local.c: local and scheduler universe jobs (JobUniverse 12 and 7),
 * which run on the submit host without negotiation: the schedd starts a
 * condor_starter for each itself, in the job's Iwd, and reads the
 * starter's result ad from its standard output when it ends, as the
 * startd does for its slots.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "sc_events.h"
#include "sc_local.h"
#include "sc_run.h"

struct sc_local {
	struct sc_schedd *s;
	struct sc_job *job;
	pid_t pid;
	int fd; /* the starter's standard output */
	struct classad_buf out;
	char *job_file;
};

bool sc_local_universe(const struct sc_job *j)
{
	int64_t u = 0;
	classad_eval_int(j->ad, "JobUniverse", NULL, &u);
	return u == 12 || u == 7;
}

static void drain(struct sc_local *l)
{
	for (;;) {
		classad_buf_reserve(&l->out, 4096);
		ssize_t n = read(l->fd, l->out.data + l->out.len, 4096);
		if (n <= 0)
			break;
		l->out.len += (size_t)n;
		l->out.data[l->out.len] = '\0';
	}
}

static void on_output(void *arg, int fd, unsigned events)
{
	(void)fd;
	(void)events;
	drain(arg);
}

static void free_local(struct sc_local *l)
{
	if (l->fd >= 0) {
		ks_loop_unwatch(l->s->d->loop, l->fd);
		close(l->fd);
	}
	if (l->job_file) {
		unlink(l->job_file);
		free(l->job_file);
	}
	free(l->out.data);
	free(l);
}

static void on_exit_local(void *arg, pid_t pid, int status)
{
	(void)pid;
	struct sc_local *l = arg;
	struct sc_schedd *s = l->s;
	drain(l);
	classad *res = l->out.len ? classad_parse(l->out.data, l->out.len,
						  CLASSAD_FMT_OLD, NULL, NULL)
				  : NULL;
	if (!res) {
		res = classad_new();
		classad_insert_string(res, "JobExitReason", "starter failed");
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "the local starter (pid %d) ended with status "
			      "%d and no result", (int)pid, status);
	}
	struct sc_job *j = l->job;
	if (j) {
		j->local = NULL;
		sc_run_job_end(s, j, "the submit host", res, NULL, NULL, 0);
	}
	classad_free(res);
	free_local(l);
}

/* Starts one job; false (logged) when it cannot. */
static bool start(struct sc_schedd *s, struct sc_job *j)
{
	ks_daemon *d = s->d;
	char *starter = ks_config_get(d->cfg, "STARTER", NULL);
	char *spool = ks_config_get(d->cfg, "SPOOL", NULL);
	if (!starter || !spool) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "job %d.%d: STARTER or SPOOL is not defined; "
			      "local jobs cannot run", j->cluster, j->proc);
		free(starter);
		free(spool);
		return false;
	}
	struct sc_local *l = ks_xcalloc(1, sizeof(*l));
	l->s = s;
	l->job = j;
	l->fd = -1;
	char path[4200];
	snprintf(path, sizeof(path), "%s/.local_job_%d.%d.XXXXXX", spool,
		 j->cluster, j->proc);
	int jfd = mkstemp(path);
	classad *ad = sc_job_flat(j);
	classad_delete(ad, "ClaimId");
	/* it runs where it was submitted: in its Iwd, nothing transferred */
	classad_insert_string(ad, "ShouldTransferFiles", "NO");
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	classad_free(ad);
	bool ok = jfd >= 0 && write(jfd, text, strlen(text)) ==
				      (ssize_t)strlen(text);
	free(text);
	if (jfd >= 0)
		close(jfd);
	int fds[2] = {-1, -1};
	pid_t pid = -1;
	if (ok && pipe(fds) == 0) {
		l->job_file = ks_xstrdup(path);
		pid_t parent = getpid();
		pid = fork();
		if (pid == 0) {
			/* a schedd killed outright takes the starter (and so
			 * the job) with it: the restarted schedd runs the job
			 * again, never beside a run it cannot see */
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			if (getppid() != parent)
				_exit(127);
			/* the starter sets the job up as root and becomes
			 * its owner (the schedd runs as the condor account) */
			struct ks_priv_saved root;
			if (ks_priv_to_root(&root, NULL) != 0)
				_exit(127);
			dup2(fds[1], 1);
			close(fds[0]);
			close(fds[1]);
			execl(starter, starter, "-job", path, "-sandbox-root",
			      spool, (char *)NULL);
			_exit(127);
		}
	}
	if (fds[1] >= 0)
		close(fds[1]);
	free(starter);
	free(spool);
	if (pid < 0) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "job %d.%d: cannot start the local starter: %s",
			      j->cluster, j->proc, strerror(errno));
		if (fds[0] >= 0)
			close(fds[0]);
		if (!l->job_file)
			unlink(path);
		free_local(l);
		return false;
	}
	l->pid = pid;
	l->fd = fds[0];
	fcntl(l->fd, F_SETFL, fcntl(l->fd, F_GETFL) | O_NONBLOCK);
	ks_loop_watch(d->loop, l->fd, KS_EV_IN, on_output, l);
	ks_loop_child(d->loop, pid, on_exit_local, l);
	j->local = l;
	time_t now = time(NULL);
	int64_t first = 0;
	if (!classad_eval_int(j->ad, "JobStartDate", NULL, &first))
		sc_job_set_int(s, j, "JobStartDate", (int64_t)now);
	sc_job_set_int(s, j, "JobCurrentStartDate", (int64_t)now);
	int64_t starts = 0;
	classad_eval_int(j->ad, "NumJobStarts", NULL, &starts);
	sc_job_set_int(s, j, "NumJobStarts", starts + 1);
	sc_job_set_status(s, j, SC_RUNNING);
	sc_event_execute(s, j, d->sinful, NULL);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "job %d.%d started on the submit host (starter pid %d)",
		      j->cluster, j->proc, (int)pid);
	return true;
}

static int start_idle(struct sc_job *j, void *arg)
{
	struct sc_schedd *s = arg;
	if (j->status == SC_IDLE && !j->local && !j->run &&
	    sc_local_universe(j))
		start(s, j);
	return 0;
}

void sc_local_start_idle(struct sc_schedd *s)
{
	if (s->d->shutting_down)
		return;
	sc_queue_each(s, start_idle, s);
	sc_queue_flush(s, NULL);
}

void sc_local_stop(struct sc_schedd *s, struct sc_job *j)
{
	(void)s;
	/* the starter's soft kill of the job; its end comes as usual */
	if (j->local && j->local->pid > 0)
		kill(j->local->pid, SIGTERM);
}

void sc_local_forget(struct sc_job *j)
{
	if (j->local)
		j->local->job = NULL;
	j->local = NULL;
}

static int stop_one(struct sc_job *j, void *arg)
{
	struct sc_schedd *s = arg;
	if (!j->local)
		return 0;
	sc_local_stop(s, j);
	sc_local_forget(j);
	sc_job_set_status(s, j, SC_IDLE);
	sc_event_evicted(s, j, NULL);
	return 0;
}

void sc_local_shutdown(struct sc_schedd *s)
{
	sc_queue_each(s, stop_one, s);
}
