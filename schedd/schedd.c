/*
 * schedd.c: condor_schedd: its knobs, its ads (the Scheduler ad and one
 * Submitter ad per user with jobs), its command table and its life.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_commands.h"
#include "ks_log.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "sc_cmds.h"
#include "sc_local.h"
#include "sc_periodic.h"
#include "sc_policy.h"
#include "sc_run.h"
#include "sc_schedd.h"
#include "sd_cron.h"

char *sc_identity_owner(const char *identity)
{
	const char *at = strchr(identity, '@');
	return at ? ks_xstrndup(identity, (size_t)(at - identity))
		  : ks_xstrdup(identity);
}

bool sc_is_super_user(const struct sc_schedd *s, const char *identity)
{
	char *me = sc_identity_owner(identity);
	bool ok = false;
	for (size_t i = 0; !ok && i < s->nsuper; i++)
		ok = strcmp(s->super_users[i], me) == 0 ||
		     strcmp(s->super_users[i], identity) == 0;
	free(me);
	return ok;
}

bool sc_may_change(const struct sc_schedd *s, const char *identity,
		   const char *owner)
{
	char *me = sc_identity_owner(identity);
	bool ok = strcmp(me, owner) == 0;
	free(me);
	return ok || sc_is_super_user(s, identity);
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "a, b c" -> {"a", "b", "c"} */
static char **split_list(const char *text, size_t *n)
{
	char **v = NULL;
	*n = 0;
	for (const char *p = text ? text : ""; *p;) {
		while (*p && (isspace((unsigned char)*p) || *p == ','))
			p++;
		const char *b = p;
		while (*p && !isspace((unsigned char)*p) && *p != ',')
			p++;
		if (p > b) {
			v = ks_xrealloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = ks_xstrndup(b, (size_t)(p - b));
		}
	}
	return v;
}

static void read_knobs(struct sc_schedd *s)
{
	ks_daemon *d = s->d;
	free(s->uid_domain);
	s->uid_domain = ks_config_get(d->cfg, "UID_DOMAIN", NULL);
	if (!s->uid_domain || !*s->uid_domain) {
		free(s->uid_domain);
		s->uid_domain = ks_xstrdup("localdomain");
	}
	free(s->fs_domain);
	s->fs_domain = ks_config_get(d->cfg, "FILESYSTEM_DOMAIN", NULL);
	free_list(s->super_users, s->nsuper);
	char *su = ks_config_get(d->cfg, "QUEUE_SUPER_USERS", NULL);
	s->super_users = split_list(su, &s->nsuper);
	free(su);
	/* the account the schedd runs as (a personal pool's user) is one,
	 * as in HTCondor, unless PERSONAL_CONDOR_IS_SUPER_USER says not */
	const char *self = d->condor_name ? d->condor_name : d->owner;
	bool self_super = true;
	ks_config_bool(d->cfg, "PERSONAL_CONDOR_IS_SUPER_USER", &self_super);
	if (self_super && self) {
		s->super_users = ks_xrealloc(s->super_users,
					     (s->nsuper + 1) * sizeof(char *));
		s->super_users[s->nsuper++] = ks_xstrdup(self);
	}
	s->alive_interval = (int)ks_daemon_int(d, "ALIVE_INTERVAL", 300);
	s->reconnect_factor = 2.0;
	ks_config_double(d->cfg, "RECONNECT_BACKOFF_FACTOR",
			 &s->reconnect_factor);
	if (s->reconnect_factor < 0)
		s->reconnect_factor = 0;
	s->reconnect_ceiling =
		(int)ks_daemon_int(d, "RECONNECT_BACKOFF_CEILING", 300);
	if (s->reconnect_ceiling < 0)
		s->reconnect_ceiling = 0;
	s->periodic_interval =
		(int)ks_daemon_int(d, "PERIODIC_EXPR_INTERVAL", 60);
	if (s->periodic_interval < 1)
		s->periodic_interval = 1;
	s->max_jobs_running = ks_daemon_int(d, "MAX_JOBS_RUNNING", 10000);
	s->max_jobs_submitted = ks_daemon_int(d, "MAX_JOBS_SUBMITTED", LONG_MAX);
	s->max_jobs_per_owner = ks_daemon_int(d, "MAX_JOBS_PER_OWNER", LONG_MAX);
	s->max_jobs_per_submission =
		ks_daemon_int(d, "MAX_JOBS_PER_SUBMISSION", LONG_MAX);
	free(s->event_log);
	s->event_log = ks_config_get(d->cfg, "EVENT_LOG", NULL);
	if (s->event_log && !*s->event_log) {
		free(s->event_log);
		s->event_log = NULL;
	}
}

/* ---- ads ------------------------------------------------------------- */

struct user_counts {
	char *name; /* submitter: owner@uid_domain, or the group's */
	long idle, running, held;
};

struct tally {
	struct sc_schedd *s;
	struct user_counts *u;
	size_t n;
	long local_idle, local_running; /* not negotiated for */
};

static int tally_job(struct sc_job *j, void *arg)
{
	struct tally *t = arg;
	if (sc_local_universe(j)) {
		t->local_idle += j->status == SC_IDLE;
		t->local_running += j->status == SC_RUNNING;
		return 0;
	}
	char *name = sc_submitter_of(t->s, j);
	size_t i = 0;
	while (i < t->n && strcmp(t->u[i].name, name) != 0)
		i++;
	if (i == t->n) {
		t->u = ks_xrealloc(t->u, (t->n + 1) * sizeof(*t->u));
		t->u[t->n++] = (struct user_counts){.name = name};
	} else {
		free(name);
	}
	if (j->status == SC_IDLE)
		t->u[i].idle++;
	else if (j->status == SC_RUNNING || j->status == SC_TRANSFERRING ||
		 j->status == SC_SUSPENDED)
		t->u[i].running++;
	else if (j->status == SC_HELD)
		t->u[i].held++;
	return 0;
}

static classad *make_ad(ks_daemon *d);

classad *sc_schedd_ad(struct sc_schedd *s)
{
	classad *ad = make_ad(s->d);
	classad_insert_string(ad, "Name", s->d->name);
	classad_insert_string(ad, "MyAddress", s->d->sinful);
	return ad;
}

/* The Scheduler ad without what the SCHEDD_CRON jobs publish. */
static classad *own_ad(ks_daemon *d)
{
	struct sc_schedd *s = d->ctx;
	const struct sc_counts *c = sc_queue_counts(s);
	struct tally t = {.s = s};
	sc_queue_each(s, tally_job, &t);
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Scheduler");
	classad_insert_string(ad, "ScheddIpAddr", d->sinful);
	classad_insert_int(ad, "TotalIdleJobs", c->by_status[SC_IDLE]);
	classad_insert_int(ad, "TotalRunningJobs",
			   c->by_status[SC_RUNNING] +
				   c->by_status[SC_TRANSFERRING] +
				   c->by_status[SC_SUSPENDED]);
	classad_insert_int(ad, "TotalHeldJobs", c->by_status[SC_HELD]);
	classad_insert_int(ad, "TotalRemovedJobs", c->by_status[SC_REMOVED]);
	classad_insert_int(ad, "TotalJobAds", (int64_t)sc_queue_size(s));
	classad_insert_int(ad, "TotalFlockedJobs", 0);
	classad_insert_int(ad, "TotalLocalJobsIdle", t.local_idle);
	classad_insert_int(ad, "TotalLocalJobsRunning", t.local_running);
	classad_insert_int(ad, "TotalSchedulerJobsIdle", 0);
	classad_insert_int(ad, "TotalSchedulerJobsRunning", 0);
	classad_insert_int(ad, "NumUsers", (int64_t)t.n);
	classad_insert_int(ad, "MaxJobsRunning", s->max_jobs_running);
	classad_insert_string(ad, "UidDomain", s->uid_domain);
	for (size_t i = 0; i < t.n; i++)
		free(t.u[i].name);
	free(t.u);
	return ad;
}

/* The Scheduler ad, with the SCHEDD_CRON jobs' output merged in last, as
 * HTCondor's schedd publishes its named ads into it. */
static classad *make_ad(ks_daemon *d)
{
	struct sc_schedd *s = d->ctx;
	classad *ad = own_ad(d);
	sd_cron_publish_daemon(s->cron, ad);
	return ad;
}

/* New SCHEDD_CRON output goes with the next update of the Scheduler ad,
 * or at once when SCHEDD_CRON_AUTOPUBLISH (or the job) asks for it. */
static void on_cron(void *arg, bool update_collector)
{
	if (update_collector)
		ks_daemon_update_collector(arg);
}

/* A SCHEDD_CRON job's CONDITION sees the Scheduler ad. */
static classad *cron_context(void *arg)
{
	return own_ad(arg);
}

static void invalidate_submitter(ks_daemon *d, const char *name)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Submitter");
	struct classad_buf req = {0};
	classad_buf_add(&req, "Name == ", 8);
	classad_quote_string_buf(&req, name, strlen(name));
	classad_buf_add(&req, " && ScheddName == ", 18);
	classad_quote_string_buf(&req, d->name, strlen(d->name));
	classad_insert_text(q, "Requirements", req.data, NULL);
	free(req.data);
	ks_daemon_send(d, KS_INVALIDATE_SUBMITTOR_ADS, &q, 1);
	classad_free(q);
}

/* One Submitter ad per user with jobs, as HTCondor's schedd sends them:
 * what the negotiator reads to know whom to negotiate for and where. */
static void send_submitters(void *arg)
{
	struct sc_schedd *s = arg;
	ks_daemon *d = s->d;
	s->submitter_timer = 0;
	s->submitters_pending = false;
	struct tally t = {.s = s};
	sc_queue_each(s, tally_job, &t);
	classad **ads = ks_xcalloc(t.n + 1, sizeof(*ads));
	for (size_t i = 0; i < t.n; i++) {
		classad *ad = classad_new();
		classad_insert_string(ad, "MyType", "Submitter");
		classad_insert_string(ad, "Name", t.u[i].name);
		classad_insert_string(ad, "ScheddName", d->name);
		classad_insert_string(ad, "ScheddIpAddr", d->sinful);
		classad_insert_string(ad, "MyAddress", d->sinful);
		classad_insert_string(ad, "Machine", d->name);
		classad_insert_int(ad, "IdleJobs", t.u[i].idle);
		classad_insert_int(ad, "RunningJobs", t.u[i].running);
		classad_insert_int(ad, "HeldJobs", t.u[i].held);
		classad_insert_int(ad, "WeightedIdleJobs", t.u[i].idle);
		classad_insert_int(ad, "WeightedRunningJobs", t.u[i].running);
		classad_insert_string(ad, "SubmitterTag", "");
		ads[i] = ad;
	}
	if (t.n && ks_daemon_send(d, KS_UPDATE_SUBMITTOR_AD, ads, t.n) != 0) {
		/* the collector is not there yet (it starts alongside): soon
		 * again rather than at the next interval */
		s->submitters_pending = true;
		s->submitter_timer =
			ks_loop_timer(d->loop, 1000, 0, send_submitters, s);
	}
	/* users whose jobs are all gone: withdraw their ads */
	for (size_t k = 0; k < s->nsubmitters; k++) {
		bool still = false;
		for (size_t i = 0; i < t.n && !still; i++)
			still = strcmp(s->submitters[k], t.u[i].name) == 0;
		if (still)
			continue;
		invalidate_submitter(d, s->submitters[k]);
	}
	free_list(s->submitters, s->nsubmitters);
	s->submitters = ks_xcalloc(t.n + 1, sizeof(char *));
	s->nsubmitters = t.n;
	for (size_t i = 0; i < t.n; i++) {
		s->submitters[i] = t.u[i].name;
		classad_free(ads[i]);
	}
	free(ads);
	free(t.u);
}

void sc_submitters_now(struct sc_schedd *s)
{
	if (s->submitter_timer)
		ks_loop_cancel(s->d->loop, s->submitter_timer);
	send_submitters(s);
}

void sc_submitters_changed(struct sc_schedd *s)
{
	/* a burst of changes (a submission, a cycle's matches) is told
	 * once */
	if (s->submitters_pending || !s->d->loop)
		return;
	s->submitters_pending = true;
	s->submitter_timer =
		ks_loop_timer(s->d->loop, 200, 0, send_submitters, s);
}

static void on_sync(void *arg)
{
	sc_queue_sync(arg);
}

static void on_local(void *arg)
{
	sc_local_start_idle(arg);
}

static void on_periodic(void *arg)
{
	sc_periodic_run(arg);
}

static void periodic_submitters(void *arg)
{
	struct sc_schedd *s = arg;
	if (!s->submitters_pending)
		send_submitters(s);
}

/* ---- life ------------------------------------------------------------ */

/* One schedd per job queue (start() says when JOB_QUEUE_LOG is unset). */
static int lock_queue(ks_daemon *d, struct ks_err *err)
{
	char *path = ks_config_get(d->cfg, "JOB_QUEUE_LOG", NULL);
	int rc = path && *path ? ks_daemon_lock(path, false, "the job queue",
						err)
			       : 0;
	free(path);
	return rc;
}

static int start(ks_daemon *d, struct ks_err *err)
{
	struct sc_schedd *s = d->ctx;
	s->d = d;
	read_knobs(s);
	sc_policy_reconfig(s);
	char *path = ks_config_get(d->cfg, "JOB_QUEUE_LOG", NULL);
	if (!path || !*path) {
		free(path);
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "JOB_QUEUE_LOG is not set; the schedd needs "
				  "a file for its job queue");
	}
	/* the schedd makes its spool, as HTCondor's does */
	char *dir = ks_xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (ks_mkdirs(dir, 0755) != 0)
			ks_log_printf(d->log, KS_D_ALWAYS, "cannot make %s: %s",
				      dir, strerror(errno));
	}
	free(dir);
	int rc = sc_queue_open(s, path, err);
	free(path);
	if (rc)
		return rc;
	sc_run_start(s);
	long interval = ks_daemon_int(d, "SCHEDD_INTERVAL", 300);
	if (interval < 1)
		interval = 300;
	ks_loop_timer(d->loop, interval * 1000, interval * 1000,
		      periodic_submitters, s);
	send_submitters(s);
	long flush = ks_daemon_int(d, "SCHEDD_JOB_QUEUE_LOG_FLUSH_DELAY", 5);
	if (flush < 1)
		flush = 1;
	ks_loop_timer(d->loop, flush * 1000, flush * 1000, on_sync, s);
	/* local jobs released or requeued start within a second */
	ks_loop_timer(d->loop, 1000, 1000, on_local, s);
	s->periodic_timer = ks_loop_timer(d->loop, s->periodic_interval * 1000,
					  s->periodic_interval * 1000,
					  on_periodic, s);
	s->cron = sd_cron_new(d->loop, d->log, d->cfg, "SCHEDD_CRON", on_cron,
			      d);
	sd_cron_set_context(s->cron, cron_context, d);
	return 0;
}

static void reconfig(ks_daemon *d)
{
	struct sc_schedd *s = d->ctx;
	int before = s->periodic_interval;
	read_knobs(s);
	sc_accounts_free(s);
	sc_policy_reconfig(s);
	sc_run_reconfig(s);
	if (s->cron)
		sd_cron_reconfig(s->cron, d->cfg);
	if (before != s->periodic_interval) {
		ks_loop_cancel(d->loop, s->periodic_timer);
		s->periodic_timer =
			ks_loop_timer(d->loop, s->periodic_interval * 1000,
				      s->periodic_interval * 1000, on_periodic, s);
	}
}

static void cron_gone(void *arg)
{
	ks_daemon_exit(arg);
}

/* The SCHEDD_CRON jobs end with the schedd: a graceful shutdown sends
 * them SIGTERM (SIGKILL a second later) and exits once they are gone, a
 * fast one kills them at once. */
static void shutdown_schedd(ks_daemon *d, bool fast)
{
	struct sc_schedd *s = d->ctx;
	if (s->cron_ending) { /* a fast shutdown during a graceful one */
		sd_cron_free(s->cron);
		s->cron = NULL;
		ks_daemon_exit(d);
		return;
	}
	sc_run_shutdown(s, fast);
	sc_run_free_all(s);
	sc_local_shutdown(s);
	sc_queue_flush(s, NULL);
	/* withdraw the submitter ads: no jobs to negotiate for now */
	for (size_t k = 0; k < s->nsubmitters; k++) {
		invalidate_submitter(d, s->submitters[k]);
	}
	if (s->cron && !fast && !sd_cron_idle(s->cron)) {
		s->cron_ending = true;
		sd_cron_shutdown(s->cron, false, cron_gone, d);
		return;
	}
	sd_cron_free(s->cron);
	s->cron = NULL;
	ks_daemon_exit(d);
}

static const struct ks_command_def cmds[] = {
	{KS_QMGMT_WRITE_CMD, KS_LEVEL_WRITE, sc_cmd_qmgmt},
	{KS_QUERY_JOB_ADS, KS_LEVEL_READ, sc_cmd_query},
	{KS_QUERY_SCHEDD_HISTORY, KS_LEVEL_READ, sc_cmd_history},
	{KS_ACT_ON_JOBS, KS_LEVEL_WRITE, sc_cmd_act},
	{KS_RESCHEDULE, KS_LEVEL_WRITE, sc_cmd_reschedule},
	{KS_NEGOTIATE, KS_LEVEL_NEGOTIATOR, sc_cmd_negotiate},
	{KS_PERMISSION_AND_AD, KS_LEVEL_NEGOTIATOR, sc_cmd_permission},
};

int main(int argc, char **argv)
{
	struct sc_schedd s = {0};
	static const struct ks_daemon_ops ops = {
		.lock = lock_queue,
		.start = start,
		.reconfig = reconfig,
		.shutdown = shutdown_schedd,
		.make_ad = make_ad,
		.update_code = KS_UPDATE_SCHEDD_AD,
		.invalidate_code = KS_INVALIDATE_SCHEDD_ADS,
	};
	int rc = ks_daemon_main(argc, argv, "SCHEDD", &ops, cmds,
				sizeof(cmds) / sizeof(cmds[0]), &s);
	sd_cron_free(s.cron);
	sc_queue_close(&s);
	sc_accounts_free(&s);
	sc_policy_free(&s);
	sc_autoclusters_free(&s);
	sc_negotiation_free(&s);
	free(s.uid_domain);
	free(s.fs_domain);
	free(s.event_log);
	free_list(s.super_users, s.nsuper);
	free_list(s.submitters, s.nsubmitters);
	return rc;
}
