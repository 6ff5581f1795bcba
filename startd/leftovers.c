/*
 * leftovers.c: what an earlier startd on this EXECUTE left behind (it was
 * killed, or crashed), ended and removed before the slots are first
 * advertised (docs/startd.md, "Start-up").
 *
 * A starter ends its job and itself when its startd dies (sr_run.h), but
 * one that cannot (stopped, stuck) must not keep a job running on CPUs
 * that the new startd offers again, where the job would then run twice.
 * The earlier starters are found in /proc: processes of the starters'
 * user (root, for a startd that root started) whose command line gives
 * this EXECUTE as -sandbox-root.  The identity is read from the live
 * process, so a pid reused since is never taken for a starter, and
 * nothing is written or removed per job to keep a record of them.  The
 * lock on EXECUTE (lock_execute() in startd.c) makes sure no live startd
 * owns them.
 *
 * A starter ends its job at once when its startd dies, and writes its
 * result: those still at it are given a moment (OWN_END_MS) before any is
 * ended here, so that their jobs' ends are not lost.  The ends that the
 * earlier startd had not seen given to their claimers are kept (end.c).
 *
 * Then, as HTCondor's startd clears EXECUTE at start-up, the sandboxes,
 * staging directories and the files of the other ends there go; and the
 * claim id files of slots that this startd does not have.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_proc.h"
#include "ks_text.h"
#include "ks_xfer.h"
#include "sd_startd.h"
#include "sr_family.h"

/* How long the processes of one earlier starter are given to die. */
#define KILL_WAIT_MS 5000

/* How long the earlier starters are given to end their jobs on their
 * own: a starter does at once when its startd dies (SIGKILL to the job,
 * then its result written), in a few milliseconds unless it is stopped
 * or stuck. */
#define OWN_END_MS 5000

/* A command line longer than this is no starter's. */
#define CMDLINE_MAX 65536

/* Whether process pid runs as uid with "-sandbox-root execute" among its
 * arguments. */
static bool earlier_starter(long pid, uid_t uid, const char *execute)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (stat(path, &st) != 0 || st.st_uid != uid)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char *buf = ks_xmalloc(CMDLINE_MAX + 1);
	size_t len = 0;
	ssize_t r;
	while (len < CMDLINE_MAX &&
	       (r = read(fd, buf + len, CMDLINE_MAX - len)) > 0)
		len += (size_t)r;
	close(fd);
	buf[len] = '\0';
	bool yes = false;
	/* the arguments, each ended by a NUL */
	for (size_t at = 0; at < len && !yes;) {
		const char *arg = buf + at;
		size_t n = strlen(arg);
		const char *next = at + n + 1 < len ? arg + n + 1 : NULL;
		yes = next && strcmp(arg, "-sandbox-root") == 0 &&
		      strcmp(next, execute) == 0;
		at += n + 1;
	}
	free(buf);
	return yes;
}

/* Waits until each of the n starters has ended, or is stopped (it will
 * not end by itself), or OWN_END_MS has passed. */
static void wait_own_end(const long *found, size_t n)
{
	int64_t deadline = ks_clock_ms() + OWN_END_MS;
	for (;;) {
		bool busy = false;
		for (size_t i = 0; i < n && !busy; i++) {
			struct ks_proc_stat st;
			busy = ks_proc_stat(found[i], &st) == 0 &&
			       !strchr("ZXTt", st.state);
		}
		if (!busy || ks_clock_ms() > deadline)
			return;
		struct timespec pause = {0, 10 * 1000000L};
		nanosleep(&pause, NULL);
	}
}

/* Ends every starter an earlier startd left on execute, with its job
 * (as root, when the startd can be: the jobs are their owners'). */
static void end_starters(ks_daemon *d, const char *execute)
{
	DIR *dir = opendir("/proc");
	if (!dir) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "cannot read /proc to look for the starters of an "
			      "earlier startd: %s", strerror(errno));
		return;
	}
	long me = (long)getpid();
	/* a root startd's starters take root's identity */
	uid_t uid = ks_priv_can_switch() ? 0 : geteuid();
	long *found = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 1 || pid == me ||
		    !earlier_starter(pid, uid, execute))
			continue;
		found = ks_xrealloc(found, (n + 1) * sizeof(*found));
		found[n++] = pid;
	}
	closedir(dir);
	wait_own_end(found, n);
	for (size_t i = 0; i < n; i++) {
		/* (looked at again: a pid that ended may be another's now) */
		if (sr_family_ended((pid_t)found[i]) ||
		    !earlier_starter(found[i], uid, execute)) {
			ks_log_printf(d->log, KS_D_FULLDEBUG,
				      "the starter (pid %ld) an earlier startd "
				      "left has ended its job itself", found[i]);
			continue;
		}
		size_t killed = 0;
		int left = sr_family_kill((pid_t)found[i], KILL_WAIT_MS, &killed);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "ended the starter (pid %ld) an earlier startd "
			      "left running, and the %zu process%s of its job%s",
			      found[i], killed, killed == 1 ? "" : "es",
			      left ? " (some would not die in time)" : "");
	}
	free(found);
}

/* Whether name is what a startd or its starter makes in EXECUTE: a
 * sandbox dir_<pid>, a staging directory .input_<tag> or .output_<tag>,
 * a claim's record .claim_<tag> or a result .result_<tag> (end.c,
 * sr_sandbox.h), or a temporary file of one of them. */
static bool ours(const char *name)
{
	if (strncmp(name, "dir_", 4) == 0) {
		const char *p = name + 4;
		while (*p >= '0' && *p <= '9')
			p++;
		return p > name + 4 && !*p;
	}
	return strncmp(name, ".input_", 7) == 0 ||
	       strncmp(name, ".output_", 8) == 0 ||
	       strncmp(name, ".claim_", 7) == 0 ||
	       strncmp(name, ".result_", 8) == 0;
}

/* The sandboxes and staging directories in execute.  HTCondor's startd
 * empties EXECUTE whole; only what a startd and its starters make there
 * goes here, so that an EXECUTE set to a directory that holds other
 * things loses none of them. */
static void clear_execute(ks_daemon *d, const char *execute)
{
	DIR *dir = opendir(execute);
	if (!dir) {
		ks_log_printf(d->log, KS_D_ALWAYS, "cannot read EXECUTE %s: %s",
			      execute, strerror(errno));
		return;
	}
	size_t gone = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (!ours(de->d_name) || sd_orphans_own(d, de->d_name))
			continue;
		char *path = ks_path_in(execute, de->d_name);
		if (ks_xfer_remove_tree(path) == 0)
			gone++;
		else
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "cannot remove %s, left in EXECUTE by an "
				      "earlier startd: %s", path,
				      strerror(errno));
		free(path);
	}
	closedir(dir);
	if (gone)
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "removed %zu entr%s an earlier startd left in "
			      "EXECUTE %s", gone, gone == 1 ? "y" : "ies",
			      execute);
}

void sd_leftovers_end(ks_daemon *d)
{
	char *execute = ks_config_get(d->cfg, "EXECUTE", NULL);
	struct ks_priv_saved root;
	struct ks_err err = {0};
	if (execute && *execute) {
		/* the jobs, their sandboxes and files are their owners' */
		if (ks_priv_to_root(&root, &err))
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "what an earlier startd left is ended as "
				      "the startd's own user: %s", err.msg);
		end_starters(d, execute);
		sd_orphans_restore(d, execute);
		clear_execute(d, execute);
		ks_priv_restore(&root);
	}
	free(execute);
}

/* The slot a claim id file is for ("slot1_2" of ".startd_claim_id.slot1_2"),
 * or NULL when name is no such file. */
static const char *id_file_slot(const char *name, bool *preempt)
{
	static const char claim[] = ".startd_claim_id.";
	static const char pre[] = ".startd_preempt_id.";
	*preempt = strncmp(name, pre, sizeof(pre) - 1) == 0;
	if (*preempt)
		return name + sizeof(pre) - 1;
	if (strncmp(name, claim, sizeof(claim) - 1) == 0)
		return name + sizeof(claim) - 1;
	return NULL;
}

void sd_leftovers_claim_ids(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	/* several startds on one host share the files' names */
	if (!sd_startd_alone(d))
		return;
	char *log = ks_config_get(d->cfg, "LOG", NULL);
	DIR *dir = log ? opendir(log) : NULL;
	if (!dir) {
		free(log);
		return;
	}
	size_t gone = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		bool preempt;
		const char *slot = id_file_slot(de->d_name, &preempt);
		if (!slot)
			continue;
		/* a preempting capability is a claimed slot's: there is
		 * none at start; a claim id is kept for a slot there is */
		bool keep = false;
		for (size_t i = 0; !preempt && i < sd->nslots; i++)
			keep = keep || strcmp(sd->slots[i]->short_name, slot) == 0;
		if (keep)
			continue;
		char *path = ks_path_in(log, de->d_name);
		if (unlink(path) == 0)
			gone++;
		free(path);
	}
	closedir(dir);
	if (gone)
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "removed %zu claim id file%s of slots this startd "
			      "does not have", gone, gone == 1 ? "" : "s");
	free(log);
}
