/*
 * backfill.c: the backfill client (HTCondor's BOINC backfill, seed 004's
 * Backfill state).  With ENABLE_BACKFILL and BACKFILL_SYSTEM = BOINC, an
 * idle static slot whose START_BACKFILL holds enters Backfill (transition
 * 7) and the startd starts one client for all such slots: BOINC_Executable
 * with BOINC_Arguments in BOINC_InitialDir, output to BOINC_Output and
 * BOINC_Error, as BOINC_Owner when the startd runs as root.  A slot that
 * leaves (EVICT_BACKFILL, a match, a claim, condor_vacate, shutdown)
 * kills the client unless other slots still use it.  Partitionable slots
 * do not backfill (HTCondor's newer backfill slots are another design).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "sd_startd.h"

/* A client that ends this soon after its start is not started again:
 * something is wrong with it, and restarting it at once would spin. */
#define BACKFILL_MIN_RUN 2

static char *boinc_knob(ks_daemon *d, const char *name, const char *alt)
{
	char knob[64];
	snprintf(knob, sizeof(knob), "BOINC_%s", name);
	char *v = ks_config_get(d->cfg, knob, NULL);
	if (!v && alt) {
		snprintf(knob, sizeof(knob), "BOINC_%s", alt);
		v = ks_config_get(d->cfg, knob, NULL);
	}
	return v;
}

/* Whether backfill can run, and why not (logged when it is enabled). */
static bool usable(ks_daemon *d)
{
	bool on = false;
	ks_config_bool(d->cfg, "ENABLE_BACKFILL", &on);
	if (!on)
		return false;
	char *sys = ks_config_get(d->cfg, "BACKFILL_SYSTEM", NULL);
	const char *missing = NULL;
	if (!sys || strcasecmp(sys, "BOINC") != 0) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "ENABLE_BACKFILL is true but BACKFILL_SYSTEM is "
			      "%s, not BOINC: no backfill",
			      sys ? sys : "not set");
		free(sys);
		return false;
	}
	free(sys);
	static const char *const need[][2] = {{"Executable", "Cmd"},
					      {"InitialDir", "Iwd"},
					      {"Universe", "JobUniverse"}};
	for (size_t i = 0; i < 3 && !missing; i++) {
		char *v = boinc_knob(d, need[i][0], need[i][1]);
		if (!v)
			missing = need[i][0];
		free(v);
	}
	if (missing)
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "backfill is enabled but BOINC_%s is not "
			      "defined: no backfill", missing);
	return !missing;
}

static void set_usable(ks_daemon *d, bool on)
{
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		s->st.backfill_on = on && !s->spec.partitionable && !s->parent;
	}
}

/* Reads ENABLE_BACKFILL and the BOINC_ knobs; says which slots may
 * backfill. */
static void backfill_configure(ks_daemon *d)
{
	set_usable(d, !d->shutting_down && usable(d));
}

/* No slot starts backfill any more (the startd is shutting down). */
static void backfill_stop(ks_daemon *d)
{
	set_usable(d, false);
}

/* In the child: where the client runs, as whom, its files. */
static void client_child(char **argv, const char *dir, const char *out,
			 const char *err, const char *owner)
{
	setsid();
	if (chdir(dir) != 0) {
		fprintf(stderr, "cannot enter BOINC_InitialDir %s: %s\n", dir,
			strerror(errno));
		_exit(127);
	}
	int in = open("/dev/null", O_RDONLY);
	int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_APPEND,
		     0644);
	int e = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_APPEND,
		     0644);
	if (in < 0 || o < 0 || e < 0)
		_exit(127);
	dup2(in, STDIN_FILENO);
	dup2(o, STDOUT_FILENO);
	dup2(e, STDERR_FILENO);
	if (getuid() == 0) {
		/* (root's identity first: the startd acts as the condor
		 * account) */
		struct ks_priv_saved root;
		if (ks_priv_to_root(&root, NULL) != 0)
			_exit(126);
		struct passwd *pw = owner ? getpwnam(owner) : NULL;
		if (!pw || pw->pw_uid == 0 ||
		    initgroups(pw->pw_name, pw->pw_gid) != 0 ||
		    setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
			_exit(126);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execv(argv[0], argv);
	_exit(127);
}

static void backfill_action(ks_daemon *d, struct sd_slot *s,
			    enum sd_action a);

static void on_client_exit(void *arg, pid_t pid, int status)
{
	ks_daemon *d = arg;
	struct startd *sd = d->ctx;
	(void)pid;
	int64_t ran = sd_now() - sd->backfill.started;
	sd->backfill.pid = 0;
	bool asked = sd->backfill.killing;
	sd->backfill.killing = false;
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "the backfill client %s %d after %lld s",
		      WIFSIGNALED(status) ? "died on signal" : "exited with",
		      WIFSIGNALED(status) ? WTERMSIG(status)
					  : WEXITSTATUS(status),
		      (long long)ran);
	if (!asked && ran < BACKFILL_MIN_RUN) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "the backfill client ended within %d s of its "
			      "start: backfill stops until a reconfig",
			      BACKFILL_MIN_RUN);
		set_usable(d, false);
	}
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd->slots[i]->st.state == SD_BACKFILL)
			sd_event(d, sd->slots[i], SD_E_BACKFILL_EXIT);
	/* a slot that came into Backfill while the client was dying waited
	 * for it to go: it starts a new one */
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (s->st.state == SD_BACKFILL && s->st.activity == SD_IDLE &&
		    s->st.backfill_then == SD_BACKFILL)
			backfill_action(d, s, SD_A_BACKFILL_START);
	}
	sd_reevaluate(d, true);
	sd_startd_maybe_exit(d);
}

/* Starts the client; 0, or -1 (logged). */
static int spawn_client(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	char *exe = boinc_knob(d, "Executable", "Cmd");
	char *args = boinc_knob(d, "Arguments", "Args");
	char *dir = boinc_knob(d, "InitialDir", "Iwd");
	char *out = boinc_knob(d, "Output", NULL);
	char *err = boinc_knob(d, "Error", NULL);
	char *owner = boinc_knob(d, "Owner", NULL);
	char **argv = NULL, why[160] = "";
	int rc = -1;
	if (!exe || !dir) {
		snprintf(why, sizeof(why), "BOINC_Executable or BOINC_InitialDir "
					   "is not defined");
	} else if (getuid() == 0 && !owner) {
		snprintf(why, sizeof(why), "the startd runs as root and "
					   "BOINC_Owner is not set (a backfill "
					   "client never runs as root)");
	} else {
		argv = ks_xcalloc(2, sizeof(*argv));
		argv[0] = ks_xstrdup(exe);
		if (sd_cron_split_args(args, &argv, why, sizeof(why)) == 0)
			rc = 0;
	}
	pid_t pid = -1;
	if (rc == 0) {
		pid = fork();
		if (pid == 0)
			client_child(argv, dir, out, err, owner);
		if (pid < 0) {
			snprintf(why, sizeof(why), "fork: %s", strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0) {
		setpgid(pid, pid);
		sd->backfill.pid = pid;
		sd->backfill.started = sd_now();
		ks_loop_child(d->loop, pid, on_client_exit, d);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "started the backfill client %s (pid %d)", exe,
			      (int)pid);
	} else {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "cannot start the backfill client: %s", why);
	}
	sd_cron_vec_free(argv);
	free(exe);
	free(args);
	free(dir);
	free(out);
	free(err);
	free(owner);
	return rc;
}

/* Starts (or joins) or kills (or leaves) the backfill client for slot s;
 * the slot hears of it through SD_E_BACKFILL_STARTED and _EXIT. */
static void backfill_action(ks_daemon *d, struct sd_slot *s, enum sd_action a)
{
	struct startd *sd = d->ctx;
	if (a == SD_A_BACKFILL_START) {
		if (!s->st.backfill_on || sd->backfill.killing)
			return; /* stopped: the slot leaves at the next round;
				 * dying: on_client_exit() starts a new one */
		if (sd->backfill.pid > 0 || spawn_client(d) == 0) {
			sd_event(d, s, SD_E_BACKFILL_STARTED);
		} else {
			/* the slot leaves Backfill at the next round */
			set_usable(d, false);
		}
		return;
	}
	/* SD_A_BACKFILL_KILL: the client stays while other slots use it */
	for (size_t i = 0; i < sd->nslots; i++) {
		const struct sd_slot *o = sd->slots[i];
		if (o != s && o->st.state == SD_BACKFILL &&
		    o->st.activity == SD_BUSY) {
			sd_event(d, s, SD_E_BACKFILL_EXIT);
			return;
		}
	}
	if (sd->backfill.pid > 0) {
		/* BOINC's own processes and all they started */
		sd->backfill.killing = true;
		kill(-sd->backfill.pid, SIGKILL);
	} else {
		sd_event(d, s, SD_E_BACKFILL_EXIT);
	}
}

static void backfill_after_step(ks_daemon *d, struct sd_slot *s,
				const struct sd_step *st,
				const struct sd_slot_state *was)
{
	(void)was;
	if (st->action == SD_A_BACKFILL_START ||
	    st->action == SD_A_BACKFILL_KILL)
		backfill_action(d, s, st->action);
}

const struct sd_feature sd_backfill_feature = {
	.name = "backfill",
	.configure = backfill_configure,
	.after_step = backfill_after_step,
	.shutdown = backfill_stop,
};
