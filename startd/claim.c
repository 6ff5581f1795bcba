/*
 * claim.c: claims from the startd's side (docs/startd.md): the claim id
 * as a capability, the claim commands, the lease, and the job's starter.
 *
 * Every command names its claim by the id, which carries a random secret:
 * only a peer that was given the id (by the negotiator, or by an earlier
 * reply) can act on the claim.  A request with a wrong id is refused and
 * logged.  ACTIVATE_CLAIM answers twice on its connection: at once (the
 * starter's pid), and when the job has ended (the starter's result ad),
 * so the claimer needs no second conversation to learn the outcome.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_wire.h"
#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_text.h"
#include "sd_hold.h"
#include "sd_startd.h"
#include "sr_family.h"
#include "sr_file.h"

/* $(LOG)/.startd_<what>_id.<slot> into path; false without LOG. */
static bool id_path(ks_daemon *d, const char *what, const struct sd_slot *s,
		    char *path, size_t size)
{
	char *dir = ks_config_get(d->cfg, "LOG", NULL);
	if (!dir)
		return false;
	snprintf(path, size, "%s/.startd_%s_id.%s", dir, what, s->short_name);
	free(dir);
	return true;
}

void sd_claim_remove_ids(ks_daemon *d, const struct sd_slot *s)
{
	static const char *const what[] = {"claim", "preempt"};
	char path[4200];
	for (size_t i = 0; i < 2; i++)
		if (id_path(d, what[i], s, path, sizeof(path)))
			unlink(path);
}

/* As HTCondor's startd does (STARTD_SHOULD_WRITE_CLAIM_ID_FILE), each
 * slot's current claim id goes to $(LOG)/.startd_claim_id.<slot>,
 * readable by the daemon's user only: local tools (and tests) act on a
 * claim with it. */
void sd_claim_write_id(ks_daemon *d, const char *what,
		       const struct sd_slot *s, const char *id)
{
	bool want = true;
	ks_config_bool(d->cfg, "STARTD_SHOULD_WRITE_CLAIM_ID_FILE", &want);
	char path[4200], line[sizeof(s->claim.id) + 1];
	if (!want || !id_path(d, what, s, path, sizeof(path)))
		return;
	int n = snprintf(line, sizeof(line), "%s\n", id);
	size_t len = n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1;
	struct ks_err err = {0};
	if (sr_file_replace(path, line, len, false, 0, 0, &err))
		ks_log_printf(d->log, KS_D_ALWAYS, "%s", err.msg);
}

void sd_claim_make_id(ks_daemon *d, char *out, size_t size)
{
	struct startd *sd = d->ctx;
	unsigned char secret[16];
	char hex[33];
	if (RAND_bytes(secret, sizeof(secret)) != 1)
		abort(); /* a guessable claim id would be worse */
	for (size_t i = 0; i < sizeof(secret); i++)
		snprintf(hex + 2 * i, 3, "%02x", secret[i]);
	snprintf(out, size, "%s#%ld#%llu#%s", d->sinful, d->start_time,
		 (unsigned long long)++sd->claim_seq, hex);
}

void sd_claim_new_id(ks_daemon *d, struct sd_slot *s)
{
	sd_claim_make_id(d, s->claim.id, sizeof(s->claim.id));
	sd_claim_write_id(d, "claim", s, s->claim.id);
}

bool sd_claim_id_is(const char *have, const char *id)
{
	/* in constant time: the secret must not leak through timing */
	size_t len = strlen(id);
	return *have && strlen(have) == len &&
	       CRYPTO_memcmp(have, id, len) == 0;
}

/* The slot a claim id names, or NULL. */
static struct sd_slot *slot_of(ks_daemon *d, const char *id)
{
	struct startd *sd = d->ctx;
	if (!id)
		return NULL;
	for (size_t i = 0; i < sd->nslots; i++)
		if (sd_claim_id_is(sd->slots[i]->claim.id, id))
			return sd->slots[i];
	return NULL;
}

/* The slot a request names by its ClaimId, or NULL with the refusal
 * sent and logged. */
static struct sd_slot *claim_of(ks_daemon *d, struct ks_request *req)
{
	char *id = req->n ? classad_eval_string_dup(req->ads[0],
						    "ClaimId") : NULL;
	struct sd_slot *s = slot_of(d, id);
	if (!s) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s from %s: %s; refused",
			      ks_command_name(req->code), req->identity,
			      id ? "no slot has that claim id" : "no ClaimId");
		ks_reply_error(req, "%s", id ? "unknown claim id" :
						"the request has no ClaimId");
	}
	free(id);
	return s;
}

static void reply_slot(ks_daemon *d, struct ks_request *req,
		       const struct sd_slot *s)
{
	classad *ad = sd_slot_ad_now(d, s);
	classad_insert_string(ad, "ClaimId", s->claim.id);
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
}

/* ---- the claim's end ---------------------------------------------------- */

static void forget_claim(ks_daemon *d, struct sd_slot *s)
{
	struct sd_claim *c = &s->claim;
	classad_free(s->job);
	s->job = NULL;
	/* its last job's end, in memory and on disk */
	sd_end_drop(d, s, true);
	free(c->client);
	free(c->client_host);
	c->client = c->client_host = NULL;
	c->lease = c->last_alive = 0;
	c->unheard = false;
	ks_loop_cancel(d->loop, c->match_timer);
	c->match_timer = 0;
	/* a new id: whoever held the old one holds nothing now */
	sd_claim_new_id(d, s);
}

/* The input's staging directory, once the starter has taken its files
 * (or could not start): as root, the starter moved them as root. */
static void remove_input(struct sd_claim *c)
{
	if (!c->input_dir)
		return;
	struct ks_priv_saved root;
	bool up = ks_priv_to_root(&root, NULL) == 0;
	ks_xfer_remove_tree(c->input_dir);
	if (up)
		ks_priv_restore(&root);
	free(c->input_dir);
	c->input_dir = NULL;
}

/* ---- the starter -------------------------------------------------------- */

/* Removes the slot's hold file, which a job's end no longer needs (its
 * result has the hold) and the next job must not find. */
static void drop_hold(ks_daemon *d, struct sd_slot *s)
{
	char *path = sd_end_path(d, s, "hold");
	if (path && unlink(path) != 0 && errno != ENOENT)
		ks_log_printf(d->log, KS_D_ALWAYS, "cannot remove %s: %s",
			      path, strerror(errno));
	free(path);
}

/* A job the startd held whose starter left no result of its own (it
 * died): the end the startd makes for it carries the hold as well, or
 * the job would run again. */
static void hold_into_result(ks_daemon *d, struct sd_slot *s)
{
	struct sd_claim *c = &s->claim;
	if (!c->held)
		return;
	c->held = false;
	char *how = classad_eval_string_dup(c->result, "JobExitReason");
	bool made_here = how && strcmp(how, "starter failed") == 0;
	free(how);
	char *path = made_here ? sd_end_path(d, s, "hold") : NULL;
	size_t len = 0;
	char *text = path ? sr_file_read(path, 4096, &len) : NULL;
	classad *h = text ? classad_parse(text, len, CLASSAD_FMT_OLD, NULL,
					  NULL)
			  : NULL;
	const char *names[] = {"HoldReason", "HoldReasonCode",
			       "HoldReasonSubCode"};
	for (size_t i = 0; h && i < 3; i++) {
		const classad_expr *e = classad_lookup(h, names[i]);
		if (e)
			classad_insert(c->result, names[i],
				       classad_expr_ref(e));
	}
	classad_free(h);
	free(text);
	free(path);
	drop_hold(d, s);
}

static void end_activation(ks_daemon *d, struct sd_slot *s, int status)
{
	struct sd_claim *c = &s->claim;
	char why[600] = "";
	classad_free(c->result);
	/* the starter wrote it before it exited; it stays, with the output,
	 * until the claimer has had the end (end.c) */
	c->result = c->result_file ? sd_end_read_result(c->result_file, why,
							sizeof(why))
				   : NULL;
	if (!c->result) {
		/* the starter died without saying how the job went */
		ks_log_printf(d->log, KS_D_FULLDEBUG, "%s: no result: %s",
			      s->short_name, why);
		c->result = classad_new();
		classad_insert_string(c->result, "JobExitReason",
				      "starter failed");
		char text[96];
		snprintf(text, sizeof(text), "the starter %s %d",
			 WIFSIGNALED(status) ? "died on signal" : "exited with",
			 WIFSIGNALED(status) ? WTERMSIG(status)
					     : WEXITSTATUS(status));
		classad_insert_string(c->result, "ExitReason", text);
	}
	hold_into_result(d, s);
	sd_end_collect(d, s->short_name, c->output_dir, c->result, &c->outputs);
	remove_input(c);
	ks_loop_cancel(d->loop, c->kill_timer);
	ks_loop_cancel(d->loop, c->vacate_timer);
	c->kill_timer = c->vacate_timer = 0;
	c->vacate_over = false;
	c->starter = 0;
	c->job_pid = 0;
	c->job_start = 0;
	c->suspended_at = 0;
	s->st.starter = false;
	if (c->later) {
		classad *r = c->result;
		size_t nads = 0;
		classad **ads = sd_end_final_ads(c->result, &c->outputs, &nads);
		bool sent = ks_later_reply(c->later, KS_REPLY_OK, ads, nads);
		free(ads);
		c->later = NULL;
		char *how = classad_eval_string_dup(r, "JobExitReason");
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the job has ended (%s); %s", s->short_name,
			      how ? how : "?",
			      sent ? "its result went to the claimer"
				   : "the claimer had gone, so no one heard");
		free(how);
	}
}

static void on_starter_exit(void *arg, pid_t pid, int status)
{
	ks_daemon *d = arg;
	struct startd *sd = d->ctx;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (s->claim.starter != pid)
			continue;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: the starter (pid %d) has ended", s->short_name,
			      (int)pid);
		end_activation(d, s, status);
		sd_event(d, s, SD_E_STARTER_EXIT);
		sd_reevaluate_changed(d);
		sd_startd_maybe_exit(d);
		return;
	}
}

/* ad in old syntax in a new memory file (close-on-exec: the starter
 * gets it as a numbered descriptor); the descriptor, or -1 with errno.
 * Two files made and removed in EXECUTE for every job cost the startd
 * more than the rest of a job's start. */
static int ad_memfd(const char *what, const classad *ad)
{
	int fd = memfd_create(what, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(text);
	if (off < len) {
		int e = errno;
		close(fd);
		errno = e ? e : EIO;
		return -1;
	}
	return fd;
}

/* EXECUTE/.<what>_<tag> (sd_end_path()), made afresh (0700: only the
 * startd and its root starter look inside).  New path, or NULL with why
 * filled. */
static char *make_dir(ks_daemon *d, const struct sd_slot *s, const char *what,
		      char *why, size_t size)
{
	char *path = sd_end_path(d, s, what);
	if (!path) {
		snprintf(why, size, "EXECUTE is not defined");
		return NULL;
	}
	ks_xfer_remove_tree(path);
	if (mkdir(path, 0700) != 0) {
		snprintf(why, size, "cannot make %s: %s", path,
			 strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}

/* The input files that came with the activation (ads[from..n-1]) into
 * a new staging directory, and a directory for the output, when the job
 * transfers files.  Returns 0 or -1 with why filled (hold code 13). */
static int stage_files(ks_daemon *d, struct sd_slot *s,
		       classad *const *ads, size_t n, char *why, size_t size)
{
	struct sd_claim *c = &s->claim;
	char *stf = NULL;
	bool transfer = !(classad_eval_string(s->job, "ShouldTransferFiles",
					      NULL, &stf) &&
			  strcasecmp(stf, "NO") == 0);
	free(stf);
	if (!transfer)
		return 0;
	if (!(c->input_dir = make_dir(d, s, "input", why, size)) ||
	    !(c->output_dir = make_dir(d, s, "output", why, size)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *name = ks_xfer_name(ads[i]);
		if (!name) {
			snprintf(why, size, "input file %zu has no valid "
				 "FileName", i + 1);
			return -1;
		}
		char *path = ks_path_in(c->input_dir, name);
		free(name);
		struct ks_err err = {0};
		int rc = ks_xfer_write(ads[i], path, true, false, 0, 0, NULL,
				       NULL, &err);
		free(path);
		if (rc) {
			snprintf(why, size, "%s", err.msg);
			return -1;
		}
	}
	return 0;
}

/* JobState of the startd's copy of the job ad ("Running", "Suspended"),
 * as the starter's updates give it in HTCondor. */
static void job_state(struct sd_slot *s, const char *state)
{
	if (s->job)
		classad_insert_string(s->job, "JobState", state);
}

/* Starts the job's starter, giving it slot_ad (the slot's ad now: what
 * it gives the job, assigned GPUs...).  Returns 0 or -1 with why filled. */
static int spawn_starter(ks_daemon *d, struct sd_slot *s,
			 const classad *slot_ad, char *why, size_t size)
{
	struct startd *sd = d->ctx;
	struct sd_claim *c = &s->claim;
	char *prog = ks_config_get(d->cfg, "STARTER", NULL);
	char *execute = ks_config_get(d->cfg, "EXECUTE", NULL);
	int job_fd = s->job ? ad_memfd("job.ad", s->job) : -1;
	int machine_fd = slot_ad ? ad_memfd("machine.ad", slot_ad) : -1;
	/* the result goes to a file, which outlives this process (end.c) */
	free(c->result_file);
	c->result_file = sd_end_path(d, s, "result");
	/* a hold is for the job it was ordered for alone */
	char *hold_file = sd_end_path(d, s, "hold");
	c->held = false;
	drop_hold(d, s);
	int rc = -1;
	if (!prog || !execute || !c->result_file || !hold_file)
		snprintf(why, size, "STARTER or EXECUTE is not defined");
	else if (job_fd < 0 || machine_fd < 0)
		snprintf(why, size, "cannot hand the job and slot ads to the "
			 "starter: %s", strerror(errno));
	else
		rc = 0;
	pid_t pid = -1;
	if (rc == 0) {
		/* the claim's record, which the job's end on disk belongs
		 * to, before there is an end */
		sd_end_record(d, s);
		/* posix_spawn (a vfork underneath): a fork would copy the
		 * startd's page tables and make it fault on each page it
		 * then writes, for every job */
		/* at most 21 words and the NULL: room to spare */
		char *argv[32];
		size_t n = 0;
		argv[n++] = prog;
		/* the ads as descriptors 3 and 4 of the starter, which
		 * closes them before the job runs */
		argv[n++] = "-job";
		argv[n++] = "/dev/fd/3";
		argv[n++] = "-machine";
		argv[n++] = "/dev/fd/4";
		argv[n++] = "-sandbox-root";
		argv[n++] = execute;
		argv[n++] = "-slot";
		argv[n++] = s->name;
		/* the starter ends its job when this process has gone */
		char me[24];
		snprintf(me, sizeof(me), "%ld", (long)getpid());
		argv[n++] = "-startd-pid";
		argv[n++] = me;
		/* the account chosen once per Owner here, not in each
		 * starter (sd_account.h) */
		char *owner = classad_eval_string_dup(s->job, "Owner");
		int64_t ttl;
		if (!ks_config_int(d->cfg, "PASSWD_CACHE_REFRESH", &ttl))
			ttl = 72000;
		const char *account = sd_account_spec(&sd->accounts, owner,
						      sd_now(), ttl);
		free(owner);
		if (account) {
			argv[n++] = "-account";
			argv[n++] = (char *)account;
		}
		if (c->input_dir) {
			argv[n++] = "-input";
			argv[n++] = c->input_dir;
			argv[n++] = "-output";
			argv[n++] = c->output_dir;
		}
		argv[n++] = "-result";
		argv[n++] = c->result_file;
		argv[n++] = "-hold";
		argv[n++] = hold_file;
		argv[n] = NULL;
		posix_spawn_file_actions_t fa;
		posix_spawnattr_t at;
		sigset_t none;
		sigemptyset(&none);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, job_fd, 3);
		posix_spawn_file_actions_adddup2(&fa, machine_fd, 4);
		posix_spawnattr_init(&at);
		posix_spawnattr_setsigmask(&at, &none);
		posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
		int e = posix_spawn(&pid, prog, &fa, &at, argv, environ);
		posix_spawnattr_destroy(&at);
		posix_spawn_file_actions_destroy(&fa);
		if (e) {
			snprintf(why, size, "cannot run %s: %s", prog,
				 strerror(e));
			pid = -1;
			rc = -1;
		}
	}
	if (job_fd >= 0)
		close(job_fd);
	if (machine_fd >= 0)
		close(machine_fd);
	if (rc == 0) {
		c->starter = pid;
		c->job_pid = 0;
		ks_loop_child(d->loop, pid, on_starter_exit, d);
		c->job_start = sd_now();
		c->image_kb = c->rss_kb = c->reported_kb = 0;
		c->reported_at = 0;
		/* this job's suspensions only (its run and retirement
		 * times leave them out) */
		c->suspended_total = 0;
		c->suspended_at = 0;
		c->activations++;
		s->st.starter = true;
		/* the startd's copy of the job ad, as HTCondor's shadow and
		 * starter keep it up to date, for the policy to read
		 * (Hold_If_Runtime_Exceeds) */
		if (s->job) {
			classad_insert_int(s->job, "JobCurrentStartDate",
					   c->job_start);
			job_state(s, "Running");
		}
		int64_t cluster = 0, proc = 0;
		classad_eval_int(s->job, "ClusterId", NULL, &cluster);
		classad_eval_int(s->job, "ProcId", NULL, &proc);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: started the starter (pid %d) for job "
			      "%lld.%lld", s->short_name, (int)pid,
			      (long long)cluster, (long long)proc);
	} else {
		remove_input(c);
		sd_end_drop(d, s, false);
	}
	free(prog);
	free(execute);
	free(hold_file);
	return rc;
}

/* KILLING_TIMEOUT after a hard kill the starter is still there (stopped,
 * stuck): as HTCondor's startd does, it and every process under it are
 * killed, and again every KILLING_TIMEOUT until it has gone.  Killing the
 * starter alone would leave its job running, an orphan. */
static void on_kill_timeout(void *arg)
{
	struct sd_slot *s = arg;
	struct sd_claim *c = &s->claim;
	ks_daemon *d = c->daemon;
	if (c->starter <= 0)
		return;
	size_t killed = 0;
	/* the job's processes are its owner's */
	struct ks_priv_saved root;
	int up = ks_priv_to_root(&root, NULL);
	int left = sr_family_kill(c->starter, 1000, &killed);
	if (up == 0)
		ks_priv_restore(&root);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: the starter (pid %d) did not end within "
		      "KILLING_TIMEOUT of its hard kill: killed, with the %zu "
		      "process%s of its job%s", s->short_name, (int)c->starter,
		      killed, killed == 1 ? "" : "es",
		      left ? "; some would not die yet" : "");
}

/* The vacate time is up and the job is still there.  A slot that is
 * vacating makes its transition to Killing (21: its policy reads
 * vacate_over); a job deactivated on a claim that stays gets its hard
 * kill here, as HTCondor's starter's soft kill times out. */
static void on_vacate_over(void *arg)
{
	struct sd_slot *s = arg;
	struct sd_claim *c = &s->claim;
	ks_daemon *d = c->daemon;
	c->vacate_timer = 0;
	if (c->starter <= 0 || c->kill_timer)
		return;
	c->vacate_over = true;
	if (s->st.state == SD_PREEMPTING && s->st.activity == SD_VACATING) {
		s->unevaluated = true;
		sd_reevaluate_changed(d);
		return;
	}
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "%s: the job did not end within its vacate time of its "
		      "soft kill; hard kill", s->short_name);
	sd_claim_action(d, s, SD_A_HARD_KILL);
}

/* News of the running job for its claimer, ahead of its result on the
 * activation's connection: JobState when it is suspended or continued
 * (with NumPids, the processes stopped, when >= 0). */
static void tell_claimer(struct sd_claim *c, const char *state, int npids)
{
	if (!c->later)
		return;
	classad *ad = classad_new();
	classad_insert_string(ad, "JobState", state);
	if (npids >= 0)
		classad_insert_int(ad, "NumPids", npids);
	ks_later_update(c->later, KS_REPLY_OK, &ad, 1);
	classad_free(ad);
}

/* The job's memory for its claimer, as HTCondor's starter updates its
 * shadow: first STARTER_INITIAL_UPDATE_INTERVAL after the start, then
 * every STARTER_UPDATE_INTERVAL while the image grows. */
static void sd_claim_report_usage(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	int64_t now = sd_now();
	int64_t first = ks_daemon_int(d, "STARTER_INITIAL_UPDATE_INTERVAL", 8);
	int64_t every = ks_daemon_int(d, "STARTER_UPDATE_INTERVAL", 300);
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_claim *c = &sd->slots[i]->claim;
		if (!c->starter || !c->later || c->suspended_at ||
		    !c->image_kb || c->image_kb == c->reported_kb)
			continue;
		if (c->reported_at ? now - c->reported_at < every
				   : now - c->job_start < first)
			continue;
		classad *ad = classad_new();
		classad_insert_int(ad, "ImageSize", (int64_t)c->image_kb);
		classad_insert_int(ad, "ResidentSetSize", (int64_t)c->rss_kb);
		classad_insert_int(ad, "MemoryUsage",
				   (int64_t)((c->rss_kb + 1023) / 1024));
		ks_later_update(c->later, KS_REPLY_OK, &ad, 1);
		classad_free(ad);
		c->reported_kb = c->image_kb;
		c->reported_at = now;
	}
}

/* At a transition where HTCondor asks WANT_HOLD (sd_hold_asked()),
 * before its kill order: when WANT_HOLD is true for the job, the hold
 * (sd_hold.h) goes to the slot's hold file (sd_end_path(.., "hold")),
 * which its starter reads into the job's result, and the job is then
 * held rather than evicted.  Once per job: the first hold stands. */
static void sd_claim_hold(ks_daemon *d, struct sd_slot *s)
{
	struct sd_claim *c = &s->claim;
	if (!c->starter || c->held)
		return;
	classad *ad = sd_slot_ad_now(d, s);
	struct sd_hold h = {0};
	bool want = sd_hold_wanted(ad, s->job, &h);
	classad_free(ad);
	if (!want) {
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "%s: WANT_HOLD is not true: the job is evicted",
			      s->short_name);
		return;
	}
	char *path = sd_end_path(d, s, "hold");
	char *text = sd_hold_text(&h);
	struct ks_err err = {0};
	int rc = path ? sr_file_replace(path, text, strlen(text), false, 0, 0,
					&err)
		      : KS_EIO;
	if (rc) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: WANT_HOLD is true, but the job cannot be "
			      "held, so it is evicted: %s", s->short_name,
			      path ? err.msg : "EXECUTE is not defined");
	} else {
		c->held = true;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: WANT_HOLD is true: the job is to be held "
			      "(code %d, subcode %d): %s", s->short_name,
			      h.code, h.subcode, h.reason);
	}
	free(text);
	free(path);
	sd_hold_clear(&h);
}

void sd_claim_action(ks_daemon *d, struct sd_slot *s, enum sd_action a)
{
	struct sd_claim *c = &s->claim;
	switch (a) {
	case SD_A_SUSPEND:
		job_state(s, "Suspended");
		if (c->starter) {
			kill(c->starter, SIGTSTP);
			tell_claimer(c, "Suspended",
				     sd_jobload_nprocs(c->starter));
		}
		c->suspended_at = sd_now();
		break;
	case SD_A_CONTINUE:
		job_state(s, "Running");
		if (c->starter) {
			kill(c->starter, SIGCONT);
			tell_claimer(c, "Running", -1);
		}
		if (c->suspended_at)
			c->suspended_total += sd_now() - c->suspended_at;
		c->suspended_at = 0;
		break;
	case SD_A_SOFT_KILL:
		/* a job being hard-killed is not given time again */
		if (!c->starter || c->kill_timer)
			break;
		kill(c->starter, SIGTERM);
		if (!c->vacate_timer) {
			/* its vacate time, and no more: then the hard kill */
			classad *ad = sd_slot_ad_now(d, s);
			int64_t secs = sd_claim_vacate_time(d, s, ad);
			classad_free(ad);
			c->daemon = d;
			c->vacate_timer = ks_loop_timer(
				d->loop, secs * 1000, 0, on_vacate_over, s);
			ks_log_printf(d->log, KS_D_FULLDEBUG,
				      "%s: soft kill; the job has %lld s to end",
				      s->short_name, (long long)secs);
		}
		break;
	case SD_A_HARD_KILL:
		if (c->starter) {
			ks_loop_cancel(d->loop, c->vacate_timer);
			c->vacate_timer = 0;
			kill(c->starter, SIGQUIT);
			if (!c->kill_timer) {
				int64_t every =
					ks_daemon_int(d, "KILLING_TIMEOUT", 30);
				if (every < 1)
					every = 1;
				c->daemon = d;
				c->kill_timer = ks_loop_timer(
					d->loop, every * 1000, every * 1000,
					on_kill_timeout, s);
			}
		}
		break;
	case SD_A_END_CLAIM:
		ks_log_printf(d->log, KS_D_ALWAYS, "%s: the claim of %s ends",
			      s->short_name, c->client ? c->client : "nobody");
		/* for the better claim that waited (23, 24), or for nobody */
		if (s->st.state == SD_CLAIMED && sd_preempt_take_over(d, s))
			break;
		forget_claim(d, s);
		sd_preempt_disarm(d, s, "the slot's claim ended without it");
		break;
	default:
		break;
	}
}

/* ---- the policy's view of the claim ------------------------------------- */

static int64_t eval_seconds(const classad *ad, const classad *job,
			    const char *name, int64_t def)
{
	const classad_expr *e = classad_lookup(ad, name);
	if (!e)
		return def;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(ad, job, e, NULL, &v);
	int64_t out = def;
	if (v.type == CLASSAD_INTEGER)
		out = v.u.i;
	else if (v.type == CLASSAD_REAL && v.u.r == v.u.r) /* not NaN */
		out = v.u.r >= 9.2e18	 ? INT64_MAX
		      : v.u.r <= -9.2e18 ? INT64_MIN
					 : (int64_t)v.u.r;
	classad_value_clear(&v);
	return out;
}

/* Seconds of retirement the running job has left: MaxJobRetirementTime
 * (the machine's, or the job's when it asks for less) from its start,
 * time suspended left out; 0 when it has none or no job runs. */
int64_t sd_claim_retirement(const struct sd_slot *s, const classad *ad,
			    int64_t now, bool endless)
{
	const struct sd_claim *c = &s->claim;
	if (!c->job_start)
		return 0;
	if (endless)
		return INT64_MAX;
	int64_t mine = eval_seconds(ad, s->job, "MaxJobRetirementTime", 0);
	int64_t job = s->job ? eval_seconds(s->job, ad, "MaxJobRetirementTime",
					    mine)
			     : mine;
	int64_t limit = job < mine ? job : mine;
	int64_t suspended = c->suspended_total +
			    (c->suspended_at ? now - c->suspended_at : 0);
	int64_t used = now - c->job_start - suspended;
	return used >= limit ? 0 : limit - used;
}

/* a peaceful shutdown makes the retirement endless */
static int64_t retirement_left(ks_daemon *d, const struct sd_slot *s,
			       const classad *ad, int64_t now)
{
	return sd_claim_retirement(s, ad, now,
				   d->shutting_down && d->peaceful);
}

int64_t sd_claim_retirement_left(ks_daemon *d, const struct sd_slot *s,
				  const classad *ad)
{
	return retirement_left(d, s, ad, sd_now());
}

int64_t sd_claim_vacate_time(ks_daemon *d, const struct sd_slot *s,
			     const classad *ad)
{
	int64_t mine = eval_seconds(ad, s->job, "MachineMaxVacateTime", 600);
	const char *name = !s->job ? NULL
			   : classad_lookup(s->job, "JobMaxVacateTime")
				   ? "JobMaxVacateTime"
			   : classad_lookup(s->job, "KillSigTimeout")
				   ? "KillSigTimeout" /* its older name */
				   : NULL;
	int64_t want = name ? eval_seconds(s->job, ad, name, 0) : mine;
	int64_t secs = mine;
	if (want <= mine) {
		secs = want;
	} else {
		/* more than the machine gives: what is left of its
		 * retirement may make up the difference */
		int64_t left = retirement_left(d, s, ad, sd_now());
		secs = left >= want ? want : left > mine ? left : mine;
	}
	return secs < 0 ? 0 : secs;
}

/* The claim's timers, for the policy: retirement and vacate time. */
static void sd_claim_timers(ks_daemon *d, const struct sd_slot *s,
			    const classad *ad, struct sd_timers *t)
{
	const struct sd_claim *c = &s->claim;
	int64_t now = sd_now();
	t->retirement_over = retirement_left(d, s, ad, now) == 0;
	/* CLAIM_WORKLIFE: once a claim has run a job and is older than
	 * this, it takes no more (-1, the default: no limit) */
	int64_t worklife = eval_seconds(ad, s->job, "CLAIM_WORKLIFE", -1);
	t->worklife_over = c->claimed_at && c->activations > 0 &&
			   worklife >= 0 && now - c->claimed_at > worklife;
	/* the soft kill's timer says when (on_vacate_over()) */
	t->vacate_over = s->st.activity == SD_VACATING && c->vacate_over;
}

/* Ends claims whose lease has run out (on the polling timer). */
static void sd_claim_check_leases(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	int64_t now = sd_now();
	sd_orphans_expire(d);
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		struct sd_claim *c = &s->claim;
		if (s->st.state == SD_CLAIMED && c->unheard) {
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: %s never learnt that the slot is "
				      "its: the claim ends", s->short_name,
				      c->client ? c->client : "?");
			c->unheard = false;
			sd_event(d, s, SD_E_RELEASE);
			continue;
		}
		if (s->st.state != SD_CLAIMED || !c->lease ||
		    now - c->last_alive <= c->lease)
			continue;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: no ALIVE from %s for %lld s (lease %lld s)",
			      s->short_name, c->client ? c->client : "?",
			      (long long)(now - c->last_alive),
			      (long long)c->lease);
		sd_event(d, s, SD_E_LEASE_EXPIRED);
	}
}

/* After a step: WANT_HOLD is asked before the kill order, which the hold
 * goes with; then the step's action for the claim's job, if it has one
 * (sd_claim_action() leaves the others alone). */
static void claim_after_step(ks_daemon *d, struct sd_slot *s,
			     const struct sd_step *st,
			     const struct sd_slot_state *was)
{
	if (sd_hold_asked(was, st))
		sd_claim_hold(d, s);
	sd_claim_action(d, s, st->action);
}

const struct sd_feature sd_claim_feature = {
	.name = "claims",
	.timers = sd_claim_timers,
	.after_step = claim_after_step,
	.poll = sd_claim_check_leases,
	.polled = sd_claim_report_usage,
};

/* Who a claim is for, from its job: as HTCondor's, the claimer's
 * user@domain (RemoteUser; the bare name failing that), its owner, whom
 * the accountant charges (the job's accounting group, or its nice-user
 * name, under its user's domain, as the schedd names submitters) and
 * the concurrency limits it takes (which the negotiator counts).  The
 * names are the current claim's (Remote..., AccountingGroup) or a
 * waiting one's (Preempting...). */
struct who_names {
	const char *user, *owner, *group, *limits;
};

static void who_attrs(const classad *job, const struct who_names *n,
		      bool user_always, classad *ad)
{
	char *owner = classad_eval_string_dup(job, "Owner");
	char *user = classad_eval_string_dup(job, "User");
	if (user || owner)
		classad_insert_string(ad, n->owner, user ? user : owner);
	if (user || owner || user_always)
		classad_insert_string(ad, n->user,
				      user ? user : owner ? owner : "");
	char *group = classad_eval_string_dup(job, "AccountingGroup");
	bool nice = false;
	classad_eval_bool(job, "NiceUser", NULL, &nice);
	const char *at = user ? strchr(user, '@') : NULL;
	if ((group && *group) || (nice && owner)) {
		char acct[600];
		snprintf(acct, sizeof(acct), "%s%s%s",
			 group && *group ? "" : "nice-user.",
			 group && *group ? group : owner, at ? at : "");
		classad_insert_string(ad, n->group, acct);
	}
	free(group);
	char *limits = classad_eval_string_dup(job, "ConcurrencyLimits");
	if (limits && *limits)
		classad_insert_string(ad, n->limits, limits);
	free(limits);
	free(owner);
	free(user);
}

void sd_claim_attrs(const struct sd_slot *s, classad *ad)
{
	const struct sd_claim *c = &s->claim;
	if (!s->job || (s->st.state != SD_CLAIMED &&
			s->st.state != SD_PREEMPTING))
		return;
	static const struct who_names current = {
		"RemoteUser", "RemoteOwner", "AccountingGroup",
		"ConcurrencyLimits"};
	who_attrs(s->job, &current, true, ad);
	/* the group the negotiator matched it in, from the schedd */
	char *group = classad_eval_string_dup(s->job, "RemoteGroup");
	char *neg = classad_eval_string_dup(s->job, "RemoteNegotiatingGroup");
	bool autoregroup = false;
	classad_eval_bool(s->job, "RemoteAutoregroup", NULL, &autoregroup);
	if (group)
		classad_insert_string(ad, "RemoteGroup", group);
	if (neg) {
		classad_insert_string(ad, "RemoteNegotiatingGroup", neg);
		classad_insert_bool(ad, "RemoteAutoregroup", autoregroup);
	}
	free(group);
	free(neg);
	/* a claim waiting for the slot: the negotiator takes it as the
	 * slot's user and its rank as the one to beat, so that it does not
	 * match the slot again for what the waiting claim already has */
	if (s->pre.waiting && s->pre.job) {
		static const struct who_names waiting = {
			"PreemptingUser", "PreemptingOwner",
			"PreemptingAccountingGroup",
			"PreemptingConcurrencyLimits"};
		who_attrs(s->pre.job, &waiting, false, ad);
		classad_insert_real(ad, "PreemptingRank", s->pre.rank);
	}
	if (c->client_host)
		classad_insert_string(ad, "ClientMachine", c->client_host);
	int64_t cluster = 0, proc = 0;
	/* the job itself from the claim until its starter ends: a claim idle
	 * between jobs names none, as HTCondor's (condor_who lists it no
	 * more) */
	bool job_on = c->starter > 0 || c->activations == 0;
	if (job_on &&
	    classad_eval_int(s->job, "ClusterId", NULL, &cluster) &&
	    classad_eval_int(s->job, "ProcId", NULL, &proc)) {
		char id[64];
		snprintf(id, sizeof(id), "%lld.%lld", (long long)cluster,
			 (long long)proc);
		classad_insert_string(ad, "JobId", id);
	}
	if (job_on && c->job_start)
		classad_insert_int(ad, "JobStart", c->job_start);
	/* CurrentRank: RANK against the claim's job */
	if (classad_lookup(ad, "Rank"))
		classad_insert_real(ad, "CurrentRank", sd_rank_of(ad, s->job));
}

/* ---- the commands ------------------------------------------------------- */

/* A command naming a claimed slot's preempting capability: handled by
 * preempt.c (true), else by the claim itself. */
static bool for_better_claim(ks_daemon *d, struct ks_request *req)
{
	char *id = req->n ? classad_eval_string_dup(req->ads[0],
						    "ClaimId") : NULL;
	struct sd_slot *p = sd_preempt_find(d, id);
	free(id);
	if (!p)
		return false;
	if (req->code == KS_REQUEST_CLAIM)
		sd_preempt_request(d, p, req);
	else
		sd_preempt_release(d, p, req);
	return true;
}

static void cmd_request_claim(ks_daemon *d, struct ks_request *req)
{
	if (for_better_claim(d, req))
		return;
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	if (req->n < 2) {
		ks_reply_error(req, "REQUEST_CLAIM carries the claim and the job ad");
		return;
	}
	if (d->shutting_down) {
		ks_reply_error(req, "the startd is shutting down");
		return;
	}
	/* a backfill slot kills its client first (transitions 28, 31) */
	if (s->st.state != SD_UNCLAIMED && s->st.state != SD_MATCHED &&
	    !(s->st.state == SD_BACKFILL && s->st.activity != SD_KILLING)) {
		ks_reply_error(req, "%s is %s/%s, not free to claim",
			       s->short_name, sd_state_name(s->st.state),
			       sd_activity_name(s->st.activity));
		return;
	}
	if (s->spec.partitionable && sd_pslot_preempt_asked(req)) {
		sd_pslot_preempt_request(d, s, req);
		return;
	}
	if (sd_pslot_preempt_waits(s)) {
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: claim request from %s refused: a preempting "
			      "claim waits for its dynamic slots", s->short_name,
			      req->identity);
		ks_reply_error(req, "%s is kept for a claim that preempts its "
				    "dynamic slots", s->name);
		return;
	}
	int64_t alive = 300;
	classad_eval_int(req->ads[0], "AliveInterval", NULL, &alive);
	char why[300];
	s = sd_claim_grant(d, s, classad_copy(req->ads[1]), req->identity,
			   *req->host ? req->host : "localhost", alive, why,
			   sizeof(why));
	if (!s) {
		ks_reply_error(req, "%s", why);
		return;
	}
	reply_slot(d, req, s);
	sd_reevaluate_changed(d);
}

struct sd_slot *sd_claim_grant(ks_daemon *d, struct sd_slot *s, classad *job,
			       const char *client, const char *client_host,
			       int64_t alive, char *why, size_t size)
{
	/* START, against this job */
	classad_free(s->job);
	s->job = job;
	classad *ad = sd_slot_ad_now(d, s);
	enum sd_truth start = sd_slot_eval(s, ad, SD_X_START);
	classad_free(ad);
	if (start == SD_TRUE && s->spec.partitionable) {
		/* the claim is on a new dynamic slot with the job's share */
		s->job = NULL;
		struct sd_slot *dyn = sd_dslot_carve(d, s, job, why, size);
		if (!dyn) {
			classad_free(job);
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s: claim request from %s refused: %s",
				      s->short_name, client, why);
			return NULL;
		}
		s = dyn;
		s->job = job;
	}
	if (start != SD_TRUE) {
		classad_free(s->job);
		s->job = NULL;
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: claim request from %s refused: START is %s "
			      "for its job", s->short_name, client,
			      start == SD_FALSE ? "false" : "undefined");
		snprintf(why, size, "START is %s for this job on %s",
			 start == SD_FALSE ? "false" : "undefined", s->name);
		return NULL;
	}
	struct sd_claim *c = &s->claim;
	free(c->client);
	free(c->client_host);
	c->client = ks_xstrdup(client);
	c->client_host = ks_xstrdup(client_host);
	/* the lease: the job's JobLeaseDuration, else MAX_CLAIM_ALIVES_MISSED
	 * of the claimer's alive interval */
	int64_t lease = 0;
	if (!classad_eval_int(job, "JobLeaseDuration", NULL, &lease))
		lease = ks_daemon_int(d, "MAX_CLAIM_ALIVES_MISSED", 6) * alive;
	c->lease = lease;
	c->last_alive = sd_now();
	c->claimed_at = sd_now();
	c->activations = 0;
	ks_loop_cancel(d->loop, c->match_timer);
	c->match_timer = 0;
	sd_event(d, s, SD_E_CLAIM);
	if (s->st.state == SD_CLAIMED)
		sd_preempt_arm(d, s);
	return s;
}

/* A claimer that lost its connection to a running job (its schedd
 * restarted) asks for the job's end again: it gets the reply the lost
 * connection would have had, now if the job has ended meanwhile. */
static void reconnect(ks_daemon *d, struct sd_slot *s, struct ks_request *req)
{
	struct sd_claim *c = &s->claim;
	classad *now = classad_new();
	classad_insert_int(now, "StarterPid", c->starter);
	classad_insert_bool(now, "Reconnected", true);
	/* the claimer's job, not an earlier one on the claim: its activation
	 * may never have come */
	const classad *whose = c->starter ? s->job : c->result;
	if ((c->starter || c->result) && !sd_end_is_for(req->ads[0], whose)) {
		ks_reply_error(req, "%s runs no such job to reconnect to",
			       s->short_name);
	} else if (c->starter) {
		if (c->later)
			ks_later_cancel(c->later);
		ks_reply(req, KS_REPLY_OK, &now, 1, true);
		c->later = ks_reply_later(req);
		c->last_alive = sd_now();
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: %s reconnected to its running job",
			      s->short_name, req->identity);
	} else if (c->result) {
		sd_end_reply_reconnect(req, c->result, &c->outputs);
		c->last_alive = sd_now();
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: %s reconnected and was given its job's end",
			      s->short_name, req->identity);
	} else {
		ks_reply_error(req, "%s runs no job to reconnect to",
			       s->short_name);
	}
	classad_free(now);
}

static void cmd_activate_claim(ks_daemon *d, struct ks_request *req)
{
	if (sd_orphan_command(d, req))
		return;
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	bool again = false;
	if (classad_eval_bool(req->ads[0], "Reconnect", NULL, &again) && again) {
		reconnect(d, s, req);
		return;
	}
	if (d->shutting_down) {
		ks_reply_error(req, "the startd is shutting down");
		return;
	}
	if (s->st.state != SD_CLAIMED || s->st.activity != SD_IDLE) {
		ks_reply_error(req, "%s is %s/%s: nothing to activate",
			       s->short_name, sd_state_name(s->st.state),
			       sd_activity_name(s->st.activity));
		return;
	}
	/* The slot's ad with the new job in it serves both the claim's
	 * timers and the starter; a refused job leaves the claim's last. */
	classad *last = s->job;
	if (req->n >= 2)
		s->job = classad_copy(req->ads[1]);
	struct sd_timers t = {0};
	classad *ad = sd_slot_ad_now(d, s);
	sd_claim_timers(d, s, ad, &t);
	if (t.worklife_over) {
		classad_free(ad);
		if (s->job != last) {
			classad_free(s->job);
			s->job = last;
		}
		ks_reply_error(req, "the claim on %s is older than its "
			       "CLAIM_WORKLIFE: it takes no more jobs",
			       s->short_name);
		/* its policy ends the claim now */
		s->unevaluated = true;
		sd_reevaluate_changed(d);
		return;
	}
	if (s->job != last)
		classad_free(last);
	char why[300];
	/* the last job's end was heard: a claimer that was not told it
	 * would not start another job on the claim */
	sd_end_drop(d, s, false);
	int rc = stage_files(d, s, req->ads + 2, req->n > 2 ? req->n - 2 : 0,
			     why, sizeof(why));
	if (rc) {
		remove_input(&s->claim);
		sd_end_drop(d, s, false);
		ks_log_printf(d->log, KS_D_ALWAYS,
			      "%s: cannot take the job's input: %s",
			      s->short_name, why);
		ks_reply_error(req, "cannot take the job's input: %s", why);
	} else if ((rc = spawn_starter(d, s, ad, why, sizeof(why)))) {
		ks_log_printf(d->log, KS_D_ALWAYS, "%s: cannot start the job: %s",
			      s->short_name, why);
		ks_reply_error(req, "cannot start the job: %s", why);
	}
	classad_free(ad);
	if (rc)
		return;
	s->claim.last_alive = sd_now();
	classad *now = classad_new();
	classad_insert_int(now, "StarterPid", s->claim.starter);
	ks_reply(req, KS_REPLY_OK, &now, 1, true);
	classad_free(now);
	s->claim.later = ks_reply_later(req);
	sd_event(d, s, SD_E_ACTIVATE);
	sd_reevaluate_changed(d);
}

static void cmd_deactivate(ks_daemon *d, struct ks_request *req)
{
	if (sd_orphan_command(d, req))
		return;
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	if (!s->claim.starter) {
		ks_reply_error(req, "%s runs no job", s->short_name);
		return;
	}
	bool force = req->code == KS_DEACTIVATE_CLAIM_FORCIBLY;
	ks_log_printf(d->log, KS_D_ALWAYS, "%s: %s from %s", s->short_name,
		      ks_command_name(req->code), req->identity);
	/* a suspended job is let go on first, so that it can end */
	if (s->st.activity == SD_SUSPENDED)
		sd_claim_action(d, s, SD_A_CONTINUE);
	sd_claim_action(d, s, force ? SD_A_HARD_KILL : SD_A_SOFT_KILL);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

static void cmd_release(ks_daemon *d, struct ks_request *req)
{
	if (sd_orphan_command(d, req) || for_better_claim(d, req))
		return;
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	ks_log_printf(d->log, KS_D_ALWAYS, "%s: claim released by %s",
		      s->short_name, req->identity);
	sd_event(d, s, SD_E_RELEASE);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	sd_reevaluate_changed(d);
}

static void cmd_alive(ks_daemon *d, struct ks_request *req)
{
	if (sd_orphan_command(d, req) || for_better_claim(d, req))
		return;
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	s->claim.last_alive = sd_now();
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
}

static void on_match_expired(void *arg)
{
	struct sd_slot *s = arg;
	ks_daemon *d = s->claim.daemon;
	s->claim.match_timer = 0;
	if (sd_event(d, s, SD_E_MATCH_TIMEOUT))
		sd_reevaluate_changed(d);
}

/* MATCH_INFO: the negotiator matched the slot; it waits MATCH_TIMEOUT to
 * be claimed. */
static void cmd_match_info(ks_daemon *d, struct ks_request *req)
{
	struct sd_slot *s = claim_of(d, req);
	if (!s)
		return;
	if (!sd_event(d, s, SD_E_MATCH)) {
		ks_reply_error(req, "%s is %s: not matchable", s->short_name,
			       sd_state_name(s->st.state));
		return;
	}
	s->claim.daemon = d;
	s->claim.match_timer = ks_loop_timer(
		d->loop, ks_daemon_int(d, "MATCH_TIMEOUT", 120) * 1000, 0,
		on_match_expired, s);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	sd_reevaluate_changed(d);
}

/* condor_vacate: every claimed slot (or the one named by Name). */
static void cmd_vacate(ks_daemon *d, struct ks_request *req)
{
	struct startd *sd = d->ctx;
	bool fast = req->code == KS_VACATE_ALL_FAST ||
		    req->code == KS_VACATE_CLAIM_FAST;
	bool one = req->code == KS_VACATE_CLAIM ||
		   req->code == KS_VACATE_CLAIM_FAST;
	char *name = one && req->n ? classad_eval_string_dup(req->ads[0],
							     "Name") : NULL;
	size_t done = 0;
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *s = sd->slots[i];
		if (name && strcasecmp(name, s->name) != 0 &&
		    strcasecmp(name, s->short_name) != 0)
			continue;
		if (sd_event(d, s, fast ? SD_E_VACATE_FAST : SD_E_VACATE))
			done++;
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "%s from %s: %zu slot%s vacated",
		      ks_command_name(req->code), req->identity, done,
		      done == 1 ? "" : "s");
	free(name);
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	sd_reevaluate(d, true);
}

/* condor_update_machine_ad: attributes for every slot's ad, kept until
 * the startd ends (a later update of the same name replaces them). */
static void cmd_update_machine_ad(ks_daemon *d, struct ks_request *req)
{
	struct startd *sd = d->ctx;
	if (!req->n || classad_size(req->ads[0]) == 0) {
		ks_reply_error(req, "the update carries no attributes");
		return;
	}
	if (!sd->extras)
		sd->extras = classad_new();
	classad_update(sd->extras, req->ads[0]);
	ks_log_printf(d->log, KS_D_ALWAYS,
		      "machine ad updated by %s (%zu attributes)", req->identity,
		      classad_size(req->ads[0]));
	ks_reply(req, KS_REPLY_OK, NULL, 0, false);
	sd_reevaluate(d, true);
}

const struct ks_command_def sd_claim_commands[] = {
	{KS_CA_UPDATE_MACHINE_AD, KS_LEVEL_ADMINISTRATOR, cmd_update_machine_ad},
	{KS_MATCH_INFO, KS_LEVEL_NEGOTIATOR, cmd_match_info},
	{KS_REQUEST_CLAIM, KS_LEVEL_DAEMON, cmd_request_claim},
	{KS_ACTIVATE_CLAIM, KS_LEVEL_DAEMON, cmd_activate_claim},
	{KS_DEACTIVATE_CLAIM, KS_LEVEL_DAEMON, cmd_deactivate},
	{KS_DEACTIVATE_CLAIM_FORCIBLY, KS_LEVEL_DAEMON, cmd_deactivate},
	{KS_RELEASE_CLAIM, KS_LEVEL_DAEMON, cmd_release},
	{KS_ALIVE, KS_LEVEL_DAEMON, cmd_alive},
	{KS_VACATE_ALL_CLAIMS, KS_LEVEL_ADMINISTRATOR, cmd_vacate},
	{KS_VACATE_ALL_FAST, KS_LEVEL_ADMINISTRATOR, cmd_vacate},
	{KS_VACATE_CLAIM, KS_LEVEL_ADMINISTRATOR, cmd_vacate},
	{KS_VACATE_CLAIM_FAST, KS_LEVEL_ADMINISTRATOR, cmd_vacate},
	{KS_DRAIN_JOBS, KS_LEVEL_ADMINISTRATOR, sd_cmd_drain},
	{KS_CANCEL_DRAIN_JOBS, KS_LEVEL_ADMINISTRATOR, sd_cmd_cancel_drain},
};
const size_t sd_claim_ncommands =
	sizeof(sd_claim_commands) / sizeof(sd_claim_commands[0]);
