/*
 * main.c: condor_starter, one process per job activation.
 *
 * THE CONTRACT WITH THE STARTD
 *
 *   condor_starter -job FILE -sandbox-root DIR [-machine FILE]
 *                  [-slot NAME] [-keep-sandbox] [-log FILE]
 *                  [-account SPEC] [-startd-pid PID]
 *                  [-input DIR -output DIR] [-result FILE] [-hold FILE]
 *
 * -job FILE         the job ad, in old ClassAd syntax (as condor_q -l
 *                   prints it).
 * -sandbox-root DIR an existing directory; the starter makes the job's
 *                   sandbox DIR/dir_<its own pid>, mode 0700, owned by the
 *                   account the job runs as, and removes it at the end.
 * -machine FILE     the slot's ad (old syntax); the job gets a copy,
 *                   DIR/dir_<pid>/.machine.ad (_CONDOR_MACHINE_AD), and
 *                   its assigned resources (ks_jobad.h).
 * -slot NAME        the slot's name, given to the job as _CONDOR_SLOT.
 * -account SPEC     the account to run the job as, already chosen by the
 *                   startd by the rule below (ks_jobad_user_format()'s
 *                   word), so that the starter makes no password or group
 *                   database lookups of its own; without it the starter
 *                   chooses.
 * -startd-pid PID   the startd that started it, its parent (without it,
 *                   the parent it has at its start).  When that process
 *                   is gone (at the start, or at any time while the job
 *                   runs) the starter ends the job's whole family with
 *                   SIGKILL, removes the sandbox, writes its result (the
 *                   job "killed", or never started) and exits: no job runs
 *                   on without a startd (sr_run.h).
 * -keep-sandbox     leave the sandbox in place at the end.
 * -log FILE         the starter's log (one line per step, ks_log's format,
 *                   STARTER_DEBUG categories); standard error without it.
 * -input DIR        the job's transferred input files: everything in DIR
 *                   moves into the sandbox (modes kept, owned by the job's
 *                   account) before the job starts.
 * -output DIR       when the job has exited, its output files are copied
 *                   into DIR before the sandbox goes: Out and Err when they
 *                   are in the sandbox, and TransferOutput's entries, or
 *                   without TransferOutput every top-level file the job
 *                   created or changed (HTCondor's rule).  A file that
 *                   cannot be copied puts TransferOutputError (and
 *                   TransferOutputErrno) into the result.
 * -result FILE      the result ad goes to FILE instead of standard output,
 *                   whole or not at all (FILE.tmp renamed over FILE), mode
 *                   0600, owned by the identity the starter was started
 *                   with (its startd's account): written before the
 *                   starter exits, it outlives a startd that dies, so the
 *                   next one can give the job's end to its claimer.
 * -hold FILE        where the startd writes its order to put the job on
 *                   hold (WANT_HOLD; sd_hold.h) before it sends the kill
 *                   signal: when the job was killed and FILE is there,
 *                   its HoldReason, HoldReasonCode and HoldReasonSubCode
 *                   go into the result (sr_result_hold()).  Read at the
 *                   end, it holds even when the startd has died meanwhile.
 *
 * The job: Cmd (absolute, or relative to the job's directory), Arguments
 * (new syntax) or else Args (old), Environment (new syntax) or else Env
 * (old, EnvDelim), and its directory: Iwd when ShouldTransferFiles is
 * "NO" (a shared filesystem), else the sandbox.  In, Out and Err are
 * relative to that directory (absolute ones are kept), /dev/null when
 * absent; Out and Err are truncated unless EraseOutputAndErrorOnRestart
 * is false.  The job's copy of its ad is DIR/dir_<pid>/.job.ad.  Its
 * environment is described in sr_jobenv.h.
 *
 * The account: the job's Owner when the starter runs as root and that
 * account exists and is not root; "nobody" for a root starter whose job
 * has no Owner, an unknown one, or root (the log says which); the
 * starter's own account when it is not root.  A job never runs as root.
 * The job runs in its own session and process group.
 *
 * Signals from the startd: SIGTSTP suspends the job, SIGCONT continues
 * it, SIGTERM soft-kills it (its KillSig, a name like "SIGINT" or a
 * number, default SIGTERM; continued first if suspended), SIGQUIT
 * hard-kills it (SIGKILL); see sr_run.h.  When the job's main process
 * exits, anything it left running is killed.
 *
 * The result: when the job has ended, or could not start, the starter
 * writes ONE result ad in old syntax to its standard output or -result
 * FILE (attributes
 * in sr_result.h; JobExitReason is "exited", "signaled", "killed" or
 * "start failed"), removes the sandbox, and exits 0.  It exits 1 only if
 * the result ad could not be written.  A bad command line, a job ad that
 * does not parse or has attributes of the wrong type, a missing
 * executable or unreadable In file: each gives a "start failed" result
 * saying what and where, never a crash.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "ks_jobad.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "sr_file.h"
#include "sr_jobenv.h"
#include "sr_result.h"
#include "sr_run.h"
#include "sr_sandbox.h"
#include "sr_spawn.h"
#include "ks_xfer.h"
#include "ks_clock.h"

static const char usage[] =
	"usage: condor_starter -job FILE -sandbox-root DIR [-machine FILE] "
	"[-slot NAME] [-keep-sandbox] [-log FILE] [-input DIR -output DIR] "
	"[-account SPEC] [-startd-pid PID] [-result FILE] [-hold FILE]";

struct opts {
	const char *job;
	const char *machine;
	const char *root;
	const char *slot;
	const char *log;
	const char *input, *output;
	const char *account;
	const char *startd_pid;
	const char *result;
	const char *hold;
	bool keep;
};

/* A top-level file of the sandbox before the job ran. */
struct seen {
	char *name;
	struct timespec mtime;
	off_t size;
};

/* Everything one run of the starter holds. */
struct starter {
	struct opts opt;
	pid_t startd; /* its parent, which it does not outlive */
	ks_config *cfg;
	ks_log *log;
	struct ks_jobad job;
	struct ks_jobad_user user;
	char *sandbox;
	char *job_ad_copy;
	classad *machine;
	char *machine_ad_copy;
	char *cwd;
	char *exe;
	char *in, *out, *err;
	struct ks_jobad_strv argv;
	struct ks_jobad_env env;
	struct sr_outcome o;
	double t0; /* monotonic seconds at start */
	struct seen *seen;
	size_t nseen;
	char *xfer_error; /* the output could not be copied: why */
	int xfer_errno;
};

/* A process id, or 0 when text is not one. */
static pid_t parse_pid(const char *text)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	return errno || end == text || *end || v <= 0 || v != (pid_t)v
		       ? 0
		       : (pid_t)v;
}

/* Returns 0, 1 for -help, or -1 with the problem in o. */
static int parse_args(int argc, char **argv, struct opts *op,
		      struct sr_outcome *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "-job")            ? &op->job
				   : !strcmp(a, "-machine")      ? &op->machine
				   : !strcmp(a, "-sandbox-root") ? &op->root
				   : !strcmp(a, "-slot")         ? &op->slot
				   : !strcmp(a, "-log")          ? &op->log
				   : !strcmp(a, "-input")        ? &op->input
				   : !strcmp(a, "-output")       ? &op->output
				   : !strcmp(a, "-account")      ? &op->account
				   : !strcmp(a, "-startd-pid")   ? &op->startd_pid
				   : !strcmp(a, "-result")       ? &op->result
				   : !strcmp(a, "-hold")         ? &op->hold
								 : NULL;
		if (dst) {
			if (i + 1 >= argc) {
				sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, 0,
						"condor_starter: %s needs a "
						"value (%s)", a, usage);
				return -1;
			}
			*dst = argv[++i];
		} else if (!strcmp(a, "-keep-sandbox")) {
			op->keep = true;
		} else if (!strcmp(a, "-help") || !strcmp(a, "-h")) {
			return 1;
		} else {
			sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, 0,
					"condor_starter: unknown argument '%s' "
					"(%s)", a, usage);
			return -1;
		}
	}
	if (!op->input != !op->output) {
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, 0,
				"condor_starter: -input and -output go "
				"together (%s)", usage);
		return -1;
	}
	if (!op->job || !op->root) {
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, 0,
				"condor_starter: %s is required (%s)",
				op->job ? "-sandbox-root" : "-job", usage);
		return -1;
	}
	if (op->startd_pid && parse_pid(op->startd_pid) <= 1) {
		sr_outcome_fail(o, SR_HOLD_CREATE_PROCESS, 0,
				"condor_starter: -startd-pid '%s' is not a "
				"process id (%s)", op->startd_pid, usage);
		return -1;
	}
	return 0;
}

/* Standard input, output and error must be open: the result goes to
 * standard output, and the job's files are moved onto 0, 1 and 2 from
 * descriptors that must not be any of them. */
static void ensure_std_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

static void open_log(struct starter *s)
{
	struct ks_err err, cfg_err;
	s->cfg = ks_config_load_new("STARTER", NULL, &cfg_err);
	const char *cfg_problem = NULL;
	if (!s->cfg) {
		/* The starter must still report on its job; it runs on
		 * HTCondor's defaults and says why. */
		cfg_problem = cfg_err.msg;
		s->cfg = ks_config_new("STARTER", NULL);
	}
	if (s->opt.log)
		ks_config_set(s->cfg, "STARTER_LOG", s->opt.log,
			      "<command line>");
	s->log = ks_log_open(s->cfg, "STARTER", s->opt.log == NULL, &err);
	if (!s->log) {
		fprintf(stderr, "condor_starter: cannot open the log %s: %s; "
			"logging to standard error\n",
			s->opt.log ? s->opt.log : "", err.msg);
		s->log = ks_log_open(s->cfg, "STARTER", true, NULL);
	}
	if (cfg_problem)
		ks_log_printf(s->log, KS_D_ALWAYS,
			      "configuration not read (%s): using defaults",
			      cfg_problem);
}

/* lchown -R; 0 or the first errno. */
static int chown_tree(const char *p, uid_t uid, gid_t gid, int depth)
{
	struct stat st;
	if (lchown(p, uid, gid) != 0 || lstat(p, &st) != 0)
		return errno;
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (depth > 32)
		return ELOOP;
	DIR *dir = opendir(p);
	if (!dir)
		return errno;
	int e = 0;
	struct dirent *de;
	while (!e && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *c = ks_path_in(p, de->d_name);
		e = chown_tree(c, uid, gid, depth + 1);
		free(c);
	}
	closedir(dir);
	return e;
}

/* The input files into the sandbox (rename: both are under EXECUTE),
 * given to the job's account.  Returns 0 or -1 with the failure in o. */
static int take_input(struct starter *s)
{
	DIR *dir = opendir(s->opt.input);
	if (!dir) {
		sr_outcome_fail(&s->o, SR_HOLD_TRANSFER_INPUT, errno,
				"Transfer input files failure at execution "
				"point %s: reading from directory %s: (errno "
				"%d) %s", s->opt.slot ? s->opt.slot : "?",
				s->opt.input, errno, strerror(errno));
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *from = ks_path_in(s->opt.input, de->d_name);
		char *to = ks_path_in(s->sandbox, de->d_name);
		int e = 0;
		if (rename(from, to) != 0)
			e = errno;
		else if (s->user.switch_to)
			e = chown_tree(to, s->user.uid, s->user.gid, 0);
		if (e) {
			sr_outcome_fail(&s->o, SR_HOLD_TRANSFER_INPUT, e,
					"Transfer input files failure at "
					"execution point %s: writing to file "
					"%s: (errno %d) %s",
					s->opt.slot ? s->opt.slot : "?", to, e,
					strerror(e));
			rc = -1;
		}
		free(from);
		free(to);
	}
	closedir(dir);
	return rc;
}

/* The sandbox's own files, never output. */
static bool starter_file(const char *name)
{
	return !strcmp(name, ".job.ad") || !strcmp(name, ".machine.ad") ||
	       !strcmp(name, ".chirp.config") || !strcmp(name, ".update.ad");
}

/* Remembers the sandbox's top-level files before the job runs. */
static void snapshot(struct starter *s)
{
	DIR *dir = opendir(s->sandbox);
	if (!dir)
		return;
	struct dirent *de;
	while ((de = readdir(dir))) {
		struct stat st;
		if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		s->seen = ks_xrealloc(s->seen,
				      (s->nseen + 1) * sizeof(*s->seen));
		s->seen[s->nseen++] = (struct seen){
			ks_xstrdup(de->d_name), st.st_mtim, st.st_size};
	}
	closedir(dir);
}

static bool unchanged(const struct starter *s, const char *name,
		      const struct stat *st)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i].name, name))
			return s->seen[i].size == st->st_size &&
			       s->seen[i].mtime.tv_sec == st->st_mtim.tv_sec &&
			       s->seen[i].mtime.tv_nsec == st->st_mtim.tv_nsec;
	return false;
}

/* The files the job leaves for its owner, into set. */
static int gather_output(struct starter *s, struct ks_xfer_set *set,
			 int *eno, struct ks_err *err)
{
	const char *std[2] = {s->job.out, s->job.err};
	int rc = 0;
	for (int i = 0; rc == 0 && i < 2; i++)
		if (std[i] && std[i][0] != '/' &&
		    (i == 0 || !s->job.out || strcmp(std[0], std[1])))
			rc = ks_xfer_add_entry(set, s->sandbox, std[i], eno,
					       err);
	char *list = NULL;
	if (rc == 0 &&
	    classad_eval_string(s->job.ad, "TransferOutput", NULL, &list)) {
		char **items = NULL;
		size_t n = ks_xfer_list_split(list, &items);
		for (size_t i = 0; rc == 0 && i < n; i++)
			rc = ks_xfer_add_entry(set, s->sandbox, items[i], eno,
					       err);
		ks_xfer_list_free(items, n);
		free(list);
		return rc;
	}
	DIR *dir = rc == 0 ? opendir(s->sandbox) : NULL;
	struct dirent *de;
	while (dir && rc == 0 && (de = readdir(dir))) {
		const char *n = de->d_name;
		struct stat st;
		/* subdirectories are not output unless named (HTCondor) */
		if (starter_file(n) ||
		    (s->job.out && !strcmp(n, s->job.out)) ||
		    (s->job.err && !strcmp(n, s->job.err)) ||
		    fstatat(dirfd(dir), n, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || unchanged(s, n, &st))
			continue;
		rc = ks_xfer_add_entry(set, s->sandbox, n, eno, err);
	}
	if (dir)
		closedir(dir);
	return rc;
}

/* Copies the job's output into -output DIR; a failure is kept for the
 * result. */
static void give_output(struct starter *s)
{
	struct ks_xfer_set set = {.nofollow = true};
	struct ks_err err = {0};
	int eno = 0;
	int rc = gather_output(s, &set, &eno, &err);
	for (size_t i = 0; rc == 0 && i < set.n; i++) {
		char *name = ks_xfer_name(set.ads[i]);
		char *path = ks_path_in(s->opt.output, name ? name : "?");
		rc = ks_xfer_write(set.ads[i], path, true, false, 0, 0, NULL,
				   &eno, &err);
		free(path);
		free(name);
	}
	if (rc) {
		s->xfer_error = ks_xstrdup(err.msg);
		s->xfer_errno = eno;
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: output: %s",
			      s->job.id, err.msg);
	} else {
		ks_log_printf(s->log, KS_D_ALWAYS,
			      "job %s: %zu output files (%llu bytes) for the "
			      "startd", s->job.id, set.n,
			      (unsigned long long)set.bytes);
	}
	ks_xfer_set_free(&set);
}

/* Account, sandbox, the ad's copy, directory, paths, environment.
 * Returns 0, or -1 with the failure in s->o. */
static int prepare(struct starter *s)
{
	struct ks_err err;
	const char *id = s->job.id;
	if (s->opt.account ? ks_jobad_user_parse(s->opt.account, s->job.owner,
						 &s->user, &err)
			   : ks_jobad_user_pick(s->job.owner, &s->user, &err)) {
		sr_outcome_fail(&s->o, SR_HOLD_USER_ACCOUNT, 0, "%s", err.msg);
		return -1;
	}
	if (s->user.note)
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: %s", id,
			      s->user.note);
	ks_log_printf(s->log, KS_D_ALWAYS, "job %s: runs as user %s (uid %u, "
		      "gid %u)", id, s->user.name, (unsigned)s->user.uid,
		      (unsigned)s->user.gid);

	bool root = s->user.switch_to;
	if (sr_sandbox_create(s->opt.root, getpid(), root, s->user.uid,
			      s->user.gid, &s->sandbox, &err)) {
		sr_outcome_fail(&s->o, SR_HOLD_IWD, 0, "%s", err.msg);
		return -1;
	}
	ks_log_printf(s->log, KS_D_ALWAYS, "job %s: sandbox %s created", id,
		      s->sandbox);
	if (sr_sandbox_write_ad(s->sandbox, ".job.ad", s->job.text,
				s->job.text_len, root, s->user.uid,
				s->user.gid, &s->job_ad_copy, &err)) {
		sr_outcome_fail(&s->o, SR_HOLD_CREATE_PROCESS, 0, "%s",
				err.msg);
		return -1;
	}
	char *text = NULL;
	size_t len = 0;
	if (s->opt.machine &&
	    (!(s->machine = ks_jobad_ad_load(s->opt.machine, "slot ad", &text,
					     &len, &err)) ||
	     sr_sandbox_write_ad(s->sandbox, ".machine.ad", text, len, root,
				 s->user.uid, s->user.gid, &s->machine_ad_copy,
				 &err))) {
		free(text);
		sr_outcome_fail(&s->o, SR_HOLD_CREATE_PROCESS, 0, "%s",
				err.msg);
		return -1;
	}
	free(text);

	if (s->opt.input && take_input(s))
		return -1;
	snapshot(s);

	s->cwd = ks_xstrdup(s->job.shared_fs ? s->job.iwd : s->sandbox);
	s->exe = ks_path_in(s->cwd, s->job.cmd);
	s->in = s->job.in ? ks_path_in(s->cwd, s->job.in) : NULL;
	s->out = s->job.out ? ks_path_in(s->cwd, s->job.out) : NULL;
	s->err = s->job.err ? ks_path_in(s->cwd, s->job.err) : NULL;

	struct sr_jobenv_in ein = {
		.cfg = s->cfg, .job = &s->job, .user = &s->user,
		.sandbox = s->sandbox, .cwd = s->cwd, .slot = s->opt.slot,
		.job_ad = s->job_ad_copy, .machine = s->machine,
		.machine_ad = s->machine_ad_copy, .log = s->log,
		.starter_pid = getpid()};
	if (sr_jobenv_build(&ein, &s->env, &err)) {
		sr_outcome_fail(&s->o, SR_HOLD_CREATE_PROCESS, 0, "%s",
				err.msg);
		return -1;
	}
	ks_jobad_strv_add(&s->argv, s->exe, strlen(s->exe));
	for (size_t i = 0; i < s->job.args.n; i++)
		ks_jobad_strv_add(&s->argv, s->job.args.v[i],
				  strlen(s->job.args.v[i]));
	if (s->job.kill_sig_note)
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: %s", id,
			      s->job.kill_sig_note);
	return 0;
}

/* JOB_RENICE_INCREMENT, evaluated for the job (against the slot), as
 * HTCondor's starter does: 0 when it is not set; 10 when it does not
 * give an integer; held to 0..19. */
static int renice(struct starter *s, const char *id)
{
	char *text = ks_config_get(s->cfg, "JOB_RENICE_INCREMENT", NULL);
	if (!text || !*text) {
		free(text);
		return 0;
	}
	struct ks_err err = {0};
	classad_expr *e = classad_parse_expr(text, strlen(text), &err);
	classad_value v = CLASSAD_VALUE_INIT;
	if (e)
		classad_eval_expr_in_match(s->job.ad, s->machine, e, NULL, &v);
	long long inc = 10;
	if (v.type == CLASSAD_INTEGER)
		inc = v.u.i;
	else if (v.type == CLASSAD_REAL)
		inc = (long long)v.u.r;
	else
		ks_log_printf(s->log, KS_D_ALWAYS,
			      "job %s: JOB_RENICE_INCREMENT (%s) does not give "
			      "an integer: the job's niceness goes up by 10",
			      id, text);
	classad_value_clear(&v);
	classad_expr_free(e);
	free(text);
	int n = inc < 0 ? 0 : inc > 19 ? 19 : (int)inc;
	if (n)
		ks_log_printf(s->log, KS_D_ALWAYS,
			      "job %s: its niceness goes up by %d "
			      "(JOB_RENICE_INCREMENT)", id, n);
	return n;
}

static void run_job(struct starter *s, const sigset_t *set)
{
	const char *id = s->job.id;
	char *args = ks_jobad_args_join_v2(&s->argv, 1);
	ks_log_printf(s->log, KS_D_ALWAYS,
		      "job %s: executing %s with arguments [%s] in %s "
		      "(In %s, Out %s, Err %s)", id, s->exe, args, s->cwd,
		      s->in ? s->in : "/dev/null",
		      s->out ? s->out : "/dev/null",
		      s->err ? s->err : "/dev/null");
	free(args);
	/* a job started now would run without a startd */
	if (!sr_run_startd_alive(s->startd)) {
		sr_outcome_startd_gone(&s->o, s->startd,
				       "before the job started");
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: %s", id,
			      s->o.reason);
		return;
	}
	struct sr_spawn sp = {
		.path = s->exe, .argv = s->argv.v, .envp = s->env.kv.v,
		.cwd = s->cwd,
		.cwd_attr = s->job.shared_fs ? "Iwd" : "the sandbox",
		.in = s->in, .out = s->out, .err = s->err,
		.append = s->job.append, .user = &s->user,
		.nice = renice(s, id)};
	static char *const no_env[] = {NULL};
	if (!sp.envp)
		sp.envp = no_env;
	pid_t pid = sr_spawn_job(&sp, &s->o);
	if (pid < 0)
		return;
	s->o.pid = pid;
	s->o.exec_date = (int64_t)time(NULL);
	ks_log_printf(s->log, KS_D_ALWAYS,
		      "job %s: started as process %ld (its own process group)",
		      id, (long)pid);
	sr_run_watch(s->log, id, pid, s->job.kill_sig, s->startd, set, &s->o);
}

static void finish(struct starter *s)
{
	const char *id = s->job.id ? s->job.id : "?";
	struct ks_err err;
	if (s->sandbox && s->opt.output &&
	    (s->o.how == SR_END_EXITED || s->o.how == SR_END_SIGNALED))
		give_output(s);
	if (s->sandbox && s->opt.keep) {
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: sandbox %s kept "
			      "(-keep-sandbox)", id, s->sandbox);
	} else if (s->sandbox) {
		if (sr_sandbox_remove(s->sandbox, &err))
			ks_log_printf(s->log, KS_D_ALWAYS,
				      "job %s: sandbox not fully removed: %s",
				      id, err.msg);
		else
			ks_log_printf(s->log, KS_D_ALWAYS,
				      "job %s: sandbox %s removed", id,
				      s->sandbox);
	}
	s->o.wall = ks_clock_s() - s->t0;
	if (!s->o.end_date)
		s->o.end_date = (int64_t)time(NULL);
	if (s->o.how == SR_END_START_FAILED)
		ks_log_printf(s->log, KS_D_ALWAYS, "job %s: did not start: %s",
			      id, s->o.reason ? s->o.reason : "?");
}

static void starter_free(struct starter *s)
{
	ks_jobad_free(&s->job);
	ks_jobad_user_free(&s->user);
	free(s->sandbox);
	free(s->job_ad_copy);
	free(s->machine_ad_copy);
	classad_free(s->machine);
	free(s->cwd);
	free(s->exe);
	free(s->in);
	free(s->out);
	free(s->err);
	ks_jobad_strv_free(&s->argv);
	ks_jobad_env_free(&s->env);
	sr_outcome_free(&s->o);
	for (size_t i = 0; i < s->nseen; i++)
		free(s->seen[i].name);
	free(s->seen);
	free(s->xfer_error);
	ks_log_close(s->log);
	ks_config_free(s->cfg);
}

int main(int argc, char **argv)
{
	/* a startd (or schedd) started by root acts as the condor account:
	 * its starter takes root back, to set the job up and become its
	 * owner */
	struct ks_priv_saved root;
	(void)ks_priv_to_root(&root, NULL);
	/* first of all: a startd that dies from now on is seen */
	pid_t parent = getppid();
	sigset_t set;
	sr_run_signals_init(&set);
	ensure_std_fds();
	struct starter s = {0};
	s.t0 = ks_clock_s();
	s.o.start_date = (int64_t)time(NULL);

	int a = parse_args(argc, argv, &s.opt, &s.o);
	if (a == 1) {
		printf("%s\n", usage);
		return 0;
	}
	s.startd = s.opt.startd_pid ? parse_pid(s.opt.startd_pid) : parent;
	bool orphan = a == 0 && !sr_run_startd_watch(s.startd);
	open_log(&s);
	if (orphan) {
		sr_outcome_startd_gone(&s.o, s.startd,
				       "before the starter began");
		ks_log_printf(s.log, KS_D_ALWAYS, "%s", s.o.reason);
	} else if (a == 0) {
		struct ks_err err;
		ks_log_printf(s.log, KS_D_ALWAYS,
			      "starter %ld: job ad %s, sandbox root %s%s%s",
			      (long)getpid(), s.opt.job, s.opt.root,
			      s.opt.slot ? ", slot " : "",
			      s.opt.slot ? s.opt.slot : "");
		int rc = ks_jobad_load(s.opt.job, &s.job, &err);
		if (rc)
			sr_outcome_fail(&s.o, SR_HOLD_CREATE_PROCESS, 0, "%s",
					err.msg);
		else if (prepare(&s) == 0)
			run_job(&s, &set);
	}
	if (!s.job.id)
		s.job.id = ks_xstrdup("?");
	finish(&s);

	char *metric = ks_config_get(s.cfg, "MEMORY_USAGE_METRIC", NULL);
	classad *ad = sr_result_ad(&s.job, &s.o, metric);
	free(metric);
	if (s.opt.hold && s.o.how == SR_END_KILLED) {
		size_t len = 0;
		char *text = sr_file_read(s.opt.hold, 4096, &len);
		if (text && sr_result_hold(ad, &s.o, text, len))
			ks_log_printf(s.log, KS_D_ALWAYS,
				      "job %s: its startd puts it on hold",
				      s.job.id);
		else if (text || errno != ENOENT)
			ks_log_printf(s.log, KS_D_ALWAYS,
				      "job %s: %s is not a hold order (%s): "
				      "the job is evicted", s.job.id,
				      s.opt.hold,
				      text ? "not an ad of HoldReason, "
					     "HoldReasonCode, HoldReasonSubCode"
					   : strerror(errno));
		free(text);
	}
	if (s.xfer_error) {
		classad_insert_string(ad, "TransferOutputError", s.xfer_error);
		classad_insert_int(ad, "TransferOutputErrno", s.xfer_errno);
	}
	struct ks_err err;
	int status = 0;
	/* the file is its startd's, as if the startd had written it */
	if (s.opt.result ? sr_result_save(s.opt.result, ad, root.switched,
					  root.uid, root.gid, &err)
			 : sr_result_write(stdout, ad, &err)) {
		ks_log_printf(s.log, KS_D_ALWAYS, "job %s: %s", s.job.id,
			      err.msg);
		status = 1;
	} else {
		ks_log_printf(s.log, KS_D_ALWAYS,
			      "job %s: result written: %s", s.job.id,
			      sr_end_name(s.o.how));
	}
	classad_free(ad);
	starter_free(&s);
	return status;
}
