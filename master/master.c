/* master.c: condor_master: starts the daemons of DAEMON_LIST, restarts one
 * that dies (with HTCondor's back-off), stops them in order, and relays
 * off/on/restart/reconfig. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_daemon.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"

struct child {
	char *name;       /* "COLLECTOR" */
	pid_t pid;        /* 0 when not running */
	bool off;         /* condor_off: do not restart */
	bool wanted;      /* still in DAEMON_LIST */
	int restarts;     /* failures since it last ran long enough */
	int64_t started;  /* time() of the last start */
	uint64_t timer;   /* pending restart */
	bool restart_now; /* condor_restart -daemon: start again on exit */
};

struct master {
	struct child *kids;
	size_t n;
	bool restarting; /* RESTART: start again once all have stopped */
	uint64_t kill_timer;
};

static struct child *find_child(struct master *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcasecmp(m->kids[i].name, name) == 0)
			return &m->kids[i];
	return NULL;
}

static void on_child(void *arg, pid_t pid, int status);

static void start_child(ks_daemon *d, struct child *k)
{
	char *prog = ks_config_get(d->cfg, k->name, NULL);
	if (!prog) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s is in DAEMON_LIST but %s (its program) is not "
			      "defined; not starting it", k->name, k->name);
		return;
	}
	char knob[80];
	snprintf(knob, sizeof(knob), "%s_ARGS", k->name);
	char *args = ks_config_get(d->cfg, knob, NULL);
	pid_t master = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		char *argv[64];
		int n = 0;
		argv[n++] = prog;
		argv[n++] = "-f";
		for (char *t = args ? strtok(args, " \t") : NULL; t && n < 62;
		     t = strtok(NULL, " \t"))
			argv[n++] = t;
		argv[n] = NULL;
		/* A daemon's heap on transparent huge pages: a collector
		 * taking in thousands of ads then pays a page fault per 2 MiB
		 * rather than per 4 KiB (a third of its time on some VMs).
		 * Whoever sets GLIBC_TUNABLES for the pool decides instead.
		 * (The daemon keeps it from what it starts: ks_daemon.h.) */
		setenv("GLIBC_TUNABLES", KS_DAEMON_TUNABLES, 0);
		/* the daemon ends with us, should we die without stopping
		 * it (kill -9) */
		ks_daemon_set_inherit(d, master);
		execv(prog, argv);
		fprintf(stderr, "cannot run %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		ks_log_printf(d->log, KS_D_ALWAYS, "cannot fork for %s: %s",
			      k->name, strerror(errno));
	else
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "Started DaemonCore process \"%s\", pid and pgroup "
			      "= %d", prog, (int)pid);
	k->pid = pid > 0 ? pid : 0;
	k->started = time(NULL);
	if (k->pid)
		ks_loop_child(d->loop, pid, on_child, d);
	free(prog);
	free(args);
}

static void on_restart(void *arg)
{
	ks_daemon *d = arg;
	struct master *m = d->ctx;
	for (size_t i = 0; i < m->n; i++) {
		struct child *k = &m->kids[i];
		if (k->timer && !k->pid && !k->off && k->wanted &&
		    !d->shutting_down && time(NULL) >= k->started) {
			k->timer = 0;
			start_child(d, k);
		}
	}
}

/* HTCondor's back-off: MASTER_BACKOFF_CONSTANT + FACTOR^restarts,
 * capped at MASTER_BACKOFF_CEILING. */
static long backoff(ks_daemon *d, int restarts)
{
	long c = ks_daemon_int(d, "MASTER_BACKOFF_CONSTANT", 9);
	long ceiling = ks_daemon_int(d, "MASTER_BACKOFF_CEILING", 3600);
	double f = 2.0, p = 1;
	ks_config_double(d->cfg, "MASTER_BACKOFF_FACTOR", &f);
	for (int i = 0; i < restarts && p < ceiling; i++)
		p *= f;
	long delay = c + (long)p - 1;
	return delay > ceiling ? ceiling : delay;
}

static bool all_stopped(struct master *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].pid)
			return false;
	return true;
}

static void start_all(ks_daemon *d)
{
	struct master *m = d->ctx;
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].wanted && !m->kids[i].off && !m->kids[i].pid)
			start_child(d, &m->kids[i]);
}

static void on_child(void *arg, pid_t pid, int status)
{
	ks_daemon *d = arg;
	struct master *m = d->ctx;
	struct child *k = NULL;
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].pid == pid)
			k = &m->kids[i];
	if (!k)
		return;
	k->pid = 0;
	char how[200];
	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "died on signal %d", WTERMSIG(status));
	else if (WEXITSTATUS(status) == KS_DAEMON_EXIT_LOCKED)
		/* the daemon said who holds what on its standard error,
		 * which in the background is nobody's */
		snprintf(how, sizeof(how),
			 "exited with status %d (another process holds its "
			 "local state: a %s of an earlier master still "
			 "shutting down, or one started by hand)",
			 KS_DAEMON_EXIT_LOCKED, k->name);
	else
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(status));
	ks_log_printf(d->log, KS_D_ALWAYS, "The %s (pid %d) %s", k->name,
		      (int)pid, how);
	if (k->restart_now && !d->shutting_down && k->wanted) {
		/* a commanded restart is not a failure: no back-off */
		k->restart_now = false;
		start_child(d, k);
	} else if (!d->shutting_down && !k->off && k->wanted &&
		   !m->restarting) {
		long recover = ks_daemon_int(d, "MASTER_RECOVER_FACTOR", 300);
		if (time(NULL) - k->started >= recover)
			k->restarts = 0;
		long delay = backoff(d, k->restarts++);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "restarting %s in %ld seconds", k->name, delay);
		k->started = time(NULL) + delay;
		k->timer = ks_loop_timer(d->loop, delay * 1000, 0, on_restart,
					 d);
	}
	if (all_stopped(m)) {
		if (d->shutting_down)
			ks_daemon_exit(d);
		else if (m->restarting) {
			m->restarting = false;
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "all daemons stopped; starting them again");
			start_all(d);
		}
	}
}

/* How a daemon is asked to stop: SIGTERM graceful, SIGQUIT fast, and
 * SIGUSR2 peaceful (its jobs may finish first; HTCondor's master sends a
 * command for that, kestrel's a signal of its own). */
static int stop_signal(bool fast, bool peaceful)
{
	return fast ? SIGQUIT : peaceful ? SIGUSR2 : SIGTERM;
}

/* Stops children in the reverse of DAEMON_LIST's order, so that the
 * collector (listed first) hears the others leave. */
static void stop_children(ks_daemon *d, const char *only, int sig)
{
	struct master *m = d->ctx;
	for (size_t i = m->n; i-- > 0;) {
		struct child *k = &m->kids[i];
		if (only && strcasecmp(only, k->name) != 0)
			continue;
		ks_loop_cancel(d->loop, k->timer);
		k->timer = 0;
		if (k->pid)
			kill(k->pid, sig);
	}
}

static void on_kill_timeout(void *arg)
{
	ks_daemon *d = arg;
	struct master *m = d->ctx;
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].pid) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s did not stop in time; killing it",
				      m->kids[i].name);
			kill(m->kids[i].pid, SIGKILL);
		}
}

static void shutdown_master(ks_daemon *d, bool fast)
{
	struct master *m = d->ctx;
	/* while the collector still runs */
	ks_daemon_invalidate(d);
	stop_children(d, NULL, stop_signal(fast, d->peaceful));
	if (all_stopped(m)) {
		ks_daemon_exit(d);
		return;
	}
	long t = ks_daemon_int(d, fast ? "SHUTDOWN_FAST_TIMEOUT"
				      : "SHUTDOWN_GRACEFUL_TIMEOUT",
			       fast ? 300 : 1800);
	ks_loop_cancel(d->loop, m->kill_timer);
	m->kill_timer = ks_loop_timer(d->loop, t * 1000, 0, on_kill_timeout, d);
}

/* Reads DAEMON_LIST: new names are added, dropped ones stopped. */
static void read_list(ks_daemon *d)
{
	struct master *m = d->ctx;
	for (size_t i = 0; i < m->n; i++)
		m->kids[i].wanted = false;
	char *list = ks_config_get(d->cfg, "DAEMON_LIST", NULL);
	for (char *cur = list, *t; (t = ks_list_cut(&cur));) {
		for (char *c = t; *c; c++)
			*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
		if (strcmp(t, "MASTER") == 0)
			continue;
		struct child *k = find_child(m, t);
		if (!k) {
			m->kids = ks_xrealloc(m->kids,
					      (m->n + 1) * sizeof(*m->kids));
			k = &m->kids[m->n++];
			*k = (struct child){.name = ks_xstrdup(t)};
		}
		k->wanted = true;
	}
	free(list);
	for (size_t i = 0; i < m->n; i++)
		if (!m->kids[i].wanted && m->kids[i].pid) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s left DAEMON_LIST; stopping it",
				      m->kids[i].name);
			kill(m->kids[i].pid, SIGTERM);
		}
}

/* One master per LOCAL_DIR, as HTCondor has it: a lock on
 * MASTER_INSTANCE_LOCK, else on InstanceLock in LOCK (which is LOG unless
 * set).  The daemons need not ask again: those of this master are its
 * children, and a master that dies takes them with it (parent.c). */
static int lock_instance(ks_daemon *d, struct ks_err *err)
{
	char *path = ks_config_get(d->cfg, "MASTER_INSTANCE_LOCK", NULL);
	if (!path || !*path) {
		free(path);
		char *dir = ks_config_get(d->cfg, "LOCK", NULL);
		path = ks_path_in(dir && *dir ? dir : "/tmp", "InstanceLock");
		free(dir);
	}
	int rc = ks_daemon_lock(path, false,
				"one condor_master per LOCAL_DIR", err);
	free(path);
	return rc;
}

static int start(ks_daemon *d, struct ks_err *err)
{
	(void)err;
	read_list(d);
	start_all(d);
	return 0;
}

static void reconfig(ks_daemon *d)
{
	struct master *m = d->ctx;
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].pid)
			kill(m->kids[i].pid, SIGHUP);
	read_list(d);
	start_all(d);
}

static classad *make_ad(ks_daemon *d)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "DaemonMaster");
	classad_insert_string(ad, "MasterIpAddr", d->sinful);
	struct master *m = d->ctx;
	char list[1024] = "MASTER";
	for (size_t i = 0; i < m->n; i++)
		if (m->kids[i].wanted &&
		    strlen(list) + strlen(m->kids[i].name) + 2 < sizeof(list)) {
			strcat(list, " ");
			strcat(list, m->kids[i].name);
		}
	classad_insert_string(ad, "DaemonList", list);
	return ad;
}

static char *subsystem_of(struct ks_request *req)
{
	char *s = NULL;
	if (req->n)
		classad_eval_string(req->ads[0], "Subsystem", NULL, &s);
	return s;
}

static void cmd_off_on(ks_daemon *d, struct ks_request *req)
{
	struct master *m = d->ctx;
	char *only = subsystem_of(req);
	bool on = req->code == KS_DAEMONS_ON || req->code == KS_DAEMON_ON;
	bool fast = req->code == KS_DAEMONS_OFF_FAST ||
		    req->code == KS_DAEMON_OFF_FAST;
	bool peaceful = req->code == KS_DAEMONS_OFF_PEACEFUL ||
			req->code == KS_DAEMON_OFF_PEACEFUL;
	if (only && !find_child(m, only)) {
		ks_reply_error(req, "%s is not in this master's DAEMON_LIST",
			       only);
		free(only);
		return;
	}
	for (size_t i = 0; i < m->n; i++)
		if (!only || strcasecmp(only, m->kids[i].name) == 0)
			m->kids[i].off = !on;
	if (on)
		start_all(d);
	else
		stop_children(d, only, stop_signal(fast, peaceful));
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	free(only);
}

static void cmd_restart(ks_daemon *d, struct ks_request *req)
{
	struct master *m = d->ctx;
	char *only = subsystem_of(req);
	if (only) {
		/* one daemon: stopped, then started again by on_child at
		 * once */
		struct child *k = find_child(m, only);
		if (k && k->pid) {
			k->off = false;
			k->restarts = 0;
			k->restart_now = true;
			kill(k->pid, stop_signal(false, req->code ==
						     KS_RESTART_PEACEFUL));
			ks_reply(req, KS_REPLY_OK, NULL, 0, false);
		} else {
			ks_reply_error(req, "%s is not running here", only);
		}
		free(only);
		return;
	}
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	for (size_t i = 0; i < m->n; i++)
		m->kids[i].off = false;
	m->restarting = true;
	stop_children(d, NULL,
		      stop_signal(false, req->code == KS_RESTART_PEACEFUL));
	if (all_stopped(m)) {
		m->restarting = false;
		start_all(d);
	}
}

/* DC_RECONFIG with a Subsystem: only that daemon re-reads; without,
 * the master and every daemon. */
static void cmd_reconfig(ks_daemon *d, struct ks_request *req)
{
	struct master *m = d->ctx;
	char *only = subsystem_of(req);
	if (only && strcasecmp(only, "MASTER") != 0) {
		struct child *k = find_child(m, only);
		if (k && k->pid)
			kill(k->pid, SIGHUP);
		if (k)
			ks_reply(req, KS_REPLY_OK, NULL, 0, false);
		else
			ks_reply_error(req, "%s is not running here", only);
	} else if (ks_daemon_reconfig(d) == 0) {
		ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	} else {
		ks_reply_error(req, "reconfig failed, the master keeps its "
			       "old configuration; see MasterLog");
	}
	free(only);
}

static const struct ks_command_def cmds[] = {
	{KS_DAEMONS_OFF, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMONS_OFF_FAST, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMONS_OFF_PEACEFUL, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMONS_ON, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMON_OFF, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMON_OFF_FAST, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMON_OFF_PEACEFUL, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_DAEMON_ON, KS_LEVEL_ADMINISTRATOR, cmd_off_on},
	{KS_RESTART, KS_LEVEL_ADMINISTRATOR, cmd_restart},
	{KS_RESTART_PEACEFUL, KS_LEVEL_ADMINISTRATOR, cmd_restart},
	{KS_DC_RECONFIG, KS_LEVEL_ADMINISTRATOR, cmd_reconfig},
	{KS_DC_RECONFIG_FULL, KS_LEVEL_ADMINISTRATOR, cmd_reconfig},
};

int main(int argc, char **argv)
{
	struct master m = {0};
	static const struct ks_daemon_ops ops = {
		.lock = lock_instance,
		.start = start,
		.reconfig = reconfig,
		.shutdown = shutdown_master,
		.make_ad = make_ad,
		.update_code = KS_UPDATE_MASTER_AD,
		.invalidate_code = KS_INVALIDATE_MASTER_ADS,
	};
	int rc = ks_daemon_main(argc, argv, "MASTER", &ops, cmds,
				sizeof(cmds) / sizeof(cmds[0]), &m);
	for (size_t i = 0; i < m.n; i++)
		free(m.kids[i].name);
	free(m.kids);
	return rc;
}
