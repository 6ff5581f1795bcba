/*
 * main.c: condor_negotiator: the matchmaker and the accountant.  Knobs,
 * the cycle timer (NEGOTIATOR_INTERVAL, RESCHEDULE, with HTCondor's
 * NEGOTIATOR_CYCLE_DELAY and NEGOTIATOR_MIN_INTERVAL), the daemon's own
 * ad.  See docs/negotiator.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "negotiator.h"

static void on_timer(void *arg);

void ng_schedule(ks_daemon *d, int64_t delay_ms)
{
	struct negotiator *ng = d->ctx;
	ks_loop_cancel(d->loop, ng->timer);
	ng->timer = ks_loop_timer(d->loop, delay_ms > 0 ? delay_ms : 0, 0,
				  on_timer, d);
}

/* Milliseconds from now until the wall clock reaches second s (0 if it
 * has), never more than limit_s seconds however the clock jumps. */
static int64_t ms_until_second(time_t s, int64_t limit_s)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	int64_t wait = ((int64_t)s - (int64_t)now.tv_sec) * 1000 -
		       now.tv_nsec / 1000000;
	if (wait < 0)
		return 0;
	return wait > limit_s * 1000 ? limit_s * 1000 : wait;
}

/* As HTCondor's negotiationTime(): a cycle waits NEGOTIATOR_CYCLE_DELAY
 * after the last one ended (so that the startds have told the collector
 * of the last matches) and NEGOTIATOR_MIN_INTERVAL after it started;
 * the next one comes NEGOTIATOR_INTERVAL after this one started.  Like
 * HTCondor's, these count the wall clock's whole seconds: a cycle that
 * ended at 10.9 s lets the next one start at 12.0 s with a delay of 2,
 * so the waits users see are HTCondor's. */
static void on_timer(void *arg)
{
	ks_daemon *d = arg;
	struct negotiator *ng = d->ctx;
	ng->timer = 0;
	if (d->shutting_down)
		return;
	int64_t wait = ng->completed_last
			       ? ms_until_second(ng->completed_last +
							 ng->k.cycle_delay,
						 ng->k.cycle_delay)
			       : 0;
	if (wait > 0) {
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "New cycle requested but just finished one -- "
			      "delaying %.3f secs", wait / 1000.0);
		ng_schedule(d, wait);
		return;
	}
	wait = ng->started_last
		       ? ms_until_second(ng->started_last + ng->k.min_interval,
					 ng->k.min_interval)
		       : 0;
	if (wait > 0) {
		ks_log_printf(d->log, KS_D_FULLDEBUG,
			      "New cycle requested but last one started too "
			      "recently -- delaying %.3f secs", wait / 1000.0);
		ng_schedule(d, wait);
		return;
	}
	ng_cycle_run(d);
	int64_t took = (int64_t)(ng->completed_last - ng->started_last);
	int64_t next = ng->k.interval - took > ng->k.cycle_delay
			       ? ng->k.interval - took
			       : ng->k.cycle_delay;
	ng_schedule(d, ms_until_second(ng->completed_last + next, next));
}

/* ---- knobs --------------------------------------------------------------- */

static classad_expr *constraint(ks_daemon *d, const char *knob, char *text)
{
	classad_expr *e = NULL;
	if (text && *text) {
		struct ks_err err;
		e = classad_parse_expr(text, strlen(text), &err);
		if (!e)
			ks_log_printf(d->log, KS_D_ALWAYS,
				      "%s does not parse (%s); ignored: %s",
				      knob, err.msg, text);
	}
	free(text);
	return e;
}

static void read_knobs(ks_daemon *d)
{
	struct negotiator *ng = d->ctx;
	struct ng_knobs *k = &ng->k;
	k->interval = ks_daemon_int(d, "NEGOTIATOR_INTERVAL", 60);
	/* HTCondor's default, given in its code, not its table */
	k->cycle_delay = ks_daemon_int(d, "NEGOTIATOR_CYCLE_DELAY", 20);
	k->min_interval = ks_daemon_int(d, "NEGOTIATOR_MIN_INTERVAL", 5);
	k->timeout = ks_daemon_int(d, "NEGOTIATOR_TIMEOUT", 30);
	k->max_per_submitter =
		ks_daemon_int(d, "NEGOTIATOR_MAX_TIME_PER_SUBMITTER", 60);
	k->max_per_cycle = ks_daemon_int(d, "NEGOTIATOR_MAX_TIME_PER_CYCLE",
					 1200);
	k->stats_length = (int)ks_daemon_int(d, "NEGOTIATION_CYCLE_STATS_LENGTH",
					     3);
	if (k->interval < 1)
		k->interval = 60;
	if (k->cycle_delay < 0)
		k->cycle_delay = 0;
	if (k->timeout < 1)
		k->timeout = 30;
	k->consider_preemption = true;
	ks_config_bool(d->cfg, "NEGOTIATOR_CONSIDER_PREEMPTION",
		       &k->consider_preemption);
	k->early_preemption = false;
	ks_config_bool(d->cfg, "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION",
		       &k->early_preemption);
	k->ignore_prios = false;
	ks_config_bool(d->cfg, "NEGOTIATOR_IGNORE_USER_PRIORITIES",
		       &k->ignore_prios);
	k->use_slot_weights = true;
	ks_config_bool(d->cfg, "NEGOTIATOR_USE_SLOT_WEIGHTS",
		       &k->use_slot_weights);
	k->inform_startd = false;
	ks_config_bool(d->cfg, "NEGOTIATOR_INFORM_STARTD", &k->inform_startd);
	k->allow_pslot_preemption = false;
	ks_config_bool(d->cfg, "ALLOW_PSLOT_PREEMPTION",
		       &k->allow_pslot_preemption);
	k->update_after_cycle = false;
	ks_config_bool(d->cfg, "NEGOTIATOR_UPDATE_AFTER_CYCLE",
		       &k->update_after_cycle);
	classad_expr_free(k->slot_constraint);
	classad_expr_free(k->job_constraint);
	k->strict_quota = true;
	ks_config_bool(d->cfg, "NEGOTIATOR_STRICT_ENFORCE_QUOTA",
		       &k->strict_quota);
	k->weighted_demand = true;
	ks_config_bool(d->cfg, "NEGOTIATOR_USE_WEIGHTED_DEMAND",
		       &k->weighted_demand);
	k->group_rounds = (int)ks_daemon_int(
		d, "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", 3);
	if (k->group_rounds < 1)
		k->group_rounds = 1;
	k->group_rr_rate = 1e100;
	ks_config_double(d->cfg, "GROUP_QUOTA_ROUND_ROBIN_RATE",
			 &k->group_rr_rate);
	if (!(k->group_rr_rate >= 1))
		k->group_rr_rate = 1e100;
	/* the groups are read once per (re)configuration: what is wrong
	 * with them is logged once, not every cycle */
	ng_groups *old = ng->groups;
	ng->groups = ng_groups_new(d->cfg, d->log);
	if (ng->acct)
		ng_acct_set_groups(ng->acct, ng->groups);
	ng_groups_free(old);
	k->slot_constraint = constraint(
		d, "NEGOTIATOR_SLOT_CONSTRAINT",
		ks_config_get(d->cfg, "NEGOTIATOR_SLOT_CONSTRAINT", NULL));
	k->job_constraint = constraint(
		d, "NEGOTIATOR_JOB_CONSTRAINT",
		ks_config_get(d->cfg, "NEGOTIATOR_JOB_CONSTRAINT", NULL));

	char *pre = ks_config_get(d->cfg, "NEGOTIATOR_PRE_JOB_RANK", NULL);
	char *post = ks_config_get(d->cfg, "NEGOTIATOR_POST_JOB_RANK", NULL);
	char *prank = ks_config_get(d->cfg, "PREEMPTION_RANK", NULL);
	char *preq = ks_config_get(d->cfg, "PREEMPTION_REQUIREMENTS", NULL);
	char *mcpu = ks_config_get(d->cfg, "MODIFY_REQUEST_EXPR_REQUESTCPUS",
				   NULL);
	char *mmem = ks_config_get(d->cfg, "MODIFY_REQUEST_EXPR_REQUESTMEMORY",
				   NULL);
	char *mdisk = ks_config_get(d->cfg, "MODIFY_REQUEST_EXPR_REQUESTDISK",
				    NULL);
	char *weight = ks_config_get(d->cfg, "SLOT_WEIGHT", NULL);
	struct ng_match_conf mc = {pre, post, prank, preq, mcpu, mmem, mdisk,
				   weight, k->use_slot_weights,
				   k->consider_preemption};
	bool bad;
	struct ks_err err = {0};
	ng_matcher_free(ng->matcher);
	ng->matcher = ng_matcher_new(&mc, &bad, &err);
	if (bad)
		ks_log_printf(d->log, KS_D_ALWAYS, "ERROR: %s", err.msg);
	free(pre);
	free(post);
	free(prank);
	free(preq);
	free(mcpu);
	free(mmem);
	free(mdisk);
	free(weight);

	ks_log_printf(d->log, KS_D_ALWAYS, "NEGOTIATOR_INTERVAL = %lld sec",
		      (long long)k->interval);
	ks_log_printf(d->log, KS_D_ALWAYS, "NEGOTIATOR_MIN_INTERVAL = %lld sec",
		      (long long)k->min_interval);
	ks_log_printf(d->log, KS_D_ALWAYS, "NEGOTIATOR_TIMEOUT = %lld sec",
		      (long long)k->timeout);
	ks_log_printf(d->log, KS_D_ALWAYS, "MAX_TIME_PER_CYCLE = %lld sec",
		      (long long)k->max_per_cycle);
	ks_log_printf(d->log, KS_D_ALWAYS, "MAX_TIME_PER_SUBMITTER = %lld sec",
		      (long long)k->max_per_submitter);
}

static void acct_params(ks_daemon *d, struct ng_acct_params *p,
			char **domain)
{
	p->halflife = 86400;
	ks_config_double(d->cfg, "PRIORITY_HALFLIFE", &p->halflife);
	p->default_factor = 1000;
	ks_config_double(d->cfg, "DEFAULT_PRIO_FACTOR", &p->default_factor);
	p->nice_factor = 1e10;
	ks_config_double(d->cfg, "NICE_USER_PRIO_FACTOR", &p->nice_factor);
	p->remote_factor = 1e7;
	ks_config_double(d->cfg, "REMOTE_PRIO_FACTOR", &p->remote_factor);
	*domain = ks_config_get(d->cfg, "ACCOUNTANT_LOCAL_DOMAIN", NULL);
	p->local_domain = *domain;
	ks_log_printf(d->log, KS_D_ACCOUNTANT, "PRIORITY_HALFLIFE=%f",
		      p->halflife);
	ks_log_printf(d->log, KS_D_ACCOUNTANT, "NICE_USER_PRIO_FACTOR=%f",
		      p->nice_factor);
	ks_log_printf(d->log, KS_D_ACCOUNTANT, "REMOTE_PRIO_FACTOR=%f",
		      p->remote_factor);
	ks_log_printf(d->log, KS_D_ACCOUNTANT, "DEFAULT_PRIO_FACTOR=%f",
		      p->default_factor);
}

/* The store beside HTCondor's accountant log: ACCOUNTANT_DATABASE_FILE
 * with .mdb for .log (Accountantnew.log -> Accountantnew.mdb), since
 * the file is LMDB's and not HTCondor's ClassAd log. */
static char *store_path(ks_daemon *d)
{
	char *f = ks_config_get(d->cfg, "ACCOUNTANT_DATABASE_FILE", NULL);
	if (!f) {
		char *spool = ks_config_get(d->cfg, "SPOOL", NULL);
		f = ks_xmalloc(strlen(spool ? spool : ".") + 32);
		sprintf(f, "%s/Accountantnew.log", spool ? spool : ".");
		free(spool);
	}
	size_t n = strlen(f);
	char *p = ks_xmalloc(n + 8);
	if (n > 4 && strcmp(f + n - 4, ".log") == 0)
		sprintf(p, "%.*s.mdb", (int)(n - 4), f);
	else
		sprintf(p, "%s.mdb", f);
	free(f);
	return p;
}

static void make_dirs(const char *path)
{
	char *p = ks_xstrdup(path);
	char *slash = strrchr(p, '/');
	if (slash && slash != p) {
		*slash = '\0';
		for (char *s = p + 1; *s; s++)
			if (*s == '/') {
				*s = '\0';
				mkdir(p, 0755);
				*s = '/';
			}
		mkdir(p, 0755);
	}
	free(p);
}

/* ---- the daemon ---------------------------------------------------------- */

/* One negotiator per accountant. */
static int lock_accountant(ks_daemon *d, struct ks_err *err)
{
	char *path = store_path(d);
	int rc = ks_daemon_lock(path, false, "the accountant", err);
	free(path);
	return rc;
}

static int start(ks_daemon *d, struct ks_err *err)
{
	struct negotiator *ng = d->ctx;
	read_knobs(d);
	struct ng_acct_params p;
	char *domain;
	acct_params(d, &p, &domain);
	char *path = store_path(d);
	make_dirs(path);
	int rc = ng_acct_open(path, &p, &ng->acct, err);
	if (rc == 0) {
		ks_log_printf(d->log, KS_D_ACCOUNTANT,
			      "Accountant::Initialize - LogFileName=%s", path);
		ng_acct_set_groups(ng->acct, ng->groups);
	}
	free(path);
	free(domain);
	if (rc)
		return rc;
	ng_schedule(d, 0);
	return 0;
}

static void reconfig(ks_daemon *d)
{
	struct negotiator *ng = d->ctx;
	read_knobs(d);
	struct ng_acct_params p;
	char *domain;
	acct_params(d, &p, &domain);
	ng_acct_set_params(ng->acct, &p);
	free(domain);
	if (!ng->timer)
		ng_schedule(d, ng->k.interval * 1000);
}

static classad *make_ad(ks_daemon *d)
{
	struct negotiator *ng = d->ctx;
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Negotiator");
	classad_insert_string(ad, "Name", d->name);
	classad_insert_string(ad, "NegotiatorIpAddr", d->sinful);
	classad_insert_int(ad, "RealUid", (int64_t)getuid());
	ng_cycle_publish(ng, ad);
	return ad;
}

static const struct ks_command_def cmds[] = {
	{KS_RESCHEDULE, KS_LEVEL_WRITE, ng_cmd_reschedule},
	{KS_GET_PRIORITY, KS_LEVEL_READ, ng_cmd_get_priority},
	{KS_GET_PRIORITY_ROLLUP, KS_LEVEL_READ, ng_cmd_get_priority},
	{KS_SET_PRIORITYFACTOR, KS_LEVEL_ADMINISTRATOR, ng_cmd_set_factor},
	{KS_SET_PRIORITY, KS_LEVEL_ADMINISTRATOR, ng_cmd_set_priority},
	{KS_RESET_USAGE, KS_LEVEL_ADMINISTRATOR, ng_cmd_reset_usage},
	{KS_DELETE_USER, KS_LEVEL_ADMINISTRATOR, ng_cmd_delete_user},
};

int main(int argc, char **argv)
{
	struct negotiator ng = {0};
	static const struct ks_daemon_ops ops = {
		.lock = lock_accountant,
		.start = start,
		.reconfig = reconfig,
		.make_ad = make_ad,
		.update_code = KS_UPDATE_NEGOTIATOR_AD,
		.invalidate_code = KS_INVALIDATE_NEGOTIATOR_ADS,
	};
	int rc = ks_daemon_main(argc, argv, "NEGOTIATOR", &ops, cmds,
				sizeof(cmds) / sizeof(cmds[0]), &ng);
	ng_acct_close(ng.acct);
	ng_groups_free(ng.groups);
	ng_matcher_free(ng.matcher);
	ng_limits_free(ng.limits);
	classad_expr_free(ng.k.slot_constraint);
	classad_expr_free(ng.k.job_constraint);
	for (size_t i = 0; i < NG_MAX_CYCLE_STATS; i++)
		ng_cycle_stats_clear(&ng.stats[i]);
	return rc;
}
