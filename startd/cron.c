/*
 * cron.c: the lives of the startd's cron jobs (sd_cron.h), as HTCondor's
 * CronJobMgr and CronJob lead them.
 *
 * A job is Idle, Ready (due, but over the load limit or its CONDITION
 * false; tried again whenever a job ends), Running, or being killed
 * (TermSent, then KillSent).  Periodic jobs have a repeating timer from
 * their first start; WaitForExit jobs a one-shot timer set when they
 * end; OneShot jobs start once when first scheduled; OnDemand jobs only
 * when asked.  Every start goes through the load limit.
 */
#include "cron_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "ks_mem.h"
#include "ks_text.h"

/* A WaitForExit job that could not be started waits this long at least:
 * it would fail the same way at once. */
enum { CRON_RETRY_MS = 60 * 1000 };

static const char *const state_names[] = {"Idle", "Running", "Ready",
					  "TermSent", "KillSent"};

static bool alive(const struct cron_job *j)
{
	return j->state == CRON_RUNNING || j->state == CRON_TERM_SENT ||
	       j->state == CRON_KILL_SENT;
}

static void recompute_load(sd_cron *c)
{
	c->cur_load = 0;
	for (struct cron_job *j = c->jobs; j; j = j->next)
		c->cur_load += j->run_load;
}

static void job_schedule(struct cron_job *j);

static void on_sched(void *arg)
{
	sd_cron *c = arg;
	c->sched_timer = 0;
	for (struct cron_job *j = c->jobs; j; j = j->next)
		job_schedule(j);
}

/* Whether the idle callback is due: no job alive and, unless shutting
 * down (when nothing starts any more), none waiting to start. */
static bool idle_due(const sd_cron *c)
{
	if (!c->idle_fn || !sd_cron_idle(c))
		return false;
	if (c->shutting_down)
		return true;
	for (const struct cron_job *j = c->jobs; j; j = j->next)
		if (j->state == CRON_READY)
			return false;
	return true;
}

static void on_idle(void *arg)
{
	sd_cron *c = arg;
	c->idle_timer = 0;
	/* a job may have started since the timer was set */
	if (!idle_due(c))
		return;
	sd_cron_idle_fn fn = c->idle_fn;
	c->idle_fn = NULL;
	fn(c->idle_arg);
}

static void maybe_idle(sd_cron *c)
{
	if (!c->idle_timer && idle_due(c))
		c->idle_timer = ks_loop_timer(c->loop, 0, 0, on_idle, c);
}

/* A job has ended or failed to start: jobs waiting for load may go. */
static void job_left(sd_cron *c)
{
	recompute_load(c);
	if (c->cur_load < c->max_load && !c->sched_timer)
		c->sched_timer = ks_loop_timer(c->loop, 0, 0, on_sched, c);
	maybe_idle(c);
}

static bool should_start(struct cron_job *j)
{
	sd_cron *c = j->mgr;
	if (c->shutting_down)
		return false;
	/* the epsilon keeps ten loads of 0.01 within 0.1 */
	if (j->p->job_load + c->cur_load > c->max_load + 1e-9) {
		ks_log_printf(c->log, KS_D_FULLDEBUG,
			      "CronJob: too busy to run job '%s' (load %.2f + "
			      "%.2f > %s_MAX_JOB_LOAD %.2f)",
			      j->p->name, c->cur_load, j->p->job_load,
			      c->prefix, c->max_load);
		return false;
	}
	if (!j->p->condition)
		return true;
	classad *ctx = c->ctx_fn ? c->ctx_fn(c->ctx_arg) : NULL;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ctx, j->p->condition, NULL, &v);
	classad_free(ctx);
	bool ok = false, is_bool = classad_value_bool(&v, &ok);
	classad_value_clear(&v);
	if (!is_bool)
		ks_log_printf(c->log, KS_D_ERROR,
			      "CronJob: job '%s' CONDITION is not boolean, "
			      "treating as false",
			      j->p->name);
	else if (!ok)
		ks_log_printf(c->log, KS_D_FULLDEBUG,
			      "CronJob: job '%s' CONDITION evaluated to false",
			      j->p->name);
	return ok;
}

static void on_run_timer(void *arg);

static void set_run_timer(struct cron_job *j, int64_t first_ms,
			  int64_t period_ms)
{
	ks_loop_cancel(j->mgr->loop, j->run_timer);
	j->run_timer = ks_loop_timer(j->mgr->loop, first_ms, period_ms,
				     on_run_timer, j);
}

static void start_job(struct cron_job *j)
{
	sd_cron *c = j->mgr;
	if (j->state != CRON_IDLE && j->state != CRON_READY) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s' not idle!", j->p->name);
		return;
	}
	if (!should_start(j)) {
		j->state = CRON_READY;
		return;
	}
	ks_log_printf(c->log, KS_D_FULLDEBUG, "CronJob: starting job '%s' (%s)",
		      j->p->name, j->p->executable);
	sd_cron_out_reset(j);
	j->state = CRON_RUNNING;
	j->runs++;
	j->last_start_ms = ks_clock_ms();
	j->run_load = j->p->job_load;
	recompute_load(c);
	/* the process may end, and be reported, before this returns */
	if (sd_cron_spawn(j) == 0)
		return;
	j->runs--;
	j->fails++;
	j->state = CRON_IDLE;
	j->run_load = 0;
	if (j->p->mode == CRON_WAIT_FOR_EXIT)
		set_run_timer(j,
			      j->p->period_s * 1000 > CRON_RETRY_MS
				      ? j->p->period_s * 1000
				      : CRON_RETRY_MS,
			      0);
	job_left(c);
}

static void kill_job(struct cron_job *j, bool force);

static void on_kill_timer(void *arg)
{
	struct cron_job *j = arg;
	j->kill_timer = 0;
	kill_job(j, false); /* TermSent by now: SIGKILL */
}

/* SIGTERM and SIGKILL a second later, or SIGKILL at once if force. */
static void kill_job(struct cron_job *j, bool force)
{
	sd_cron *c = j->mgr;
	if (!alive(j) || j->pid <= 0)
		return;
	if (force || j->state == CRON_TERM_SENT) {
		ks_log_printf(c->log, KS_D_FULLDEBUG,
			      "CronJob: killing job '%s' with SIGKILL, "
			      "pid = %d",
			      j->p->name, (int)j->pid);
		sd_cron_signal(j, SIGKILL);
		j->state = CRON_KILL_SENT;
		ks_loop_cancel(c->loop, j->kill_timer);
		j->kill_timer = 0;
	} else if (j->state == CRON_RUNNING) {
		ks_log_printf(c->log, KS_D_FULLDEBUG,
			      "CronJob: killing job '%s' with SIGTERM, "
			      "pid = %d",
			      j->p->name, (int)j->pid);
		sd_cron_signal(j, SIGTERM);
		j->state = CRON_TERM_SENT;
		ks_loop_cancel(c->loop, j->kill_timer);
		j->kill_timer =
			ks_loop_timer(c->loop, 1000, 0, on_kill_timer, j);
	}
}

/* A Periodic job's period has come. */
static void run_job(struct cron_job *j)
{
	if (alive(j)) {
		ks_log_printf(j->mgr->log, KS_D_ALWAYS,
			      "CronJob: job '%s' is still running!%s",
			      j->p->name,
			      j->p->kill ? " (killing it)"
					 : " (skipping a run)");
		if (j->p->kill)
			kill_job(j, false);
		return;
	}
	start_job(j);
}

static void on_run_timer(void *arg)
{
	struct cron_job *j = arg;
	if (j->p->mode == CRON_PERIODIC) {
		run_job(j);
	} else {
		j->run_timer = 0; /* one-shot */
		start_job(j);
	}
}

static void job_schedule(struct cron_job *j)
{
	bool fresh = !j->runs && !j->fails;
	if (j->state == CRON_READY)
		start_job(j);
	else if (j->p->mode == CRON_PERIODIC && fresh)
		run_job(j);
	else if ((j->p->mode == CRON_WAIT_FOR_EXIT ||
		  j->p->mode == CRON_ONE_SHOT) &&
		 fresh && j->state == CRON_IDLE)
		start_job(j);
}

void sd_cron_job_ended(struct cron_job *j, int status)
{
	sd_cron *c = j->mgr;
	pid_t pid = j->pid;
	bool failed = false;
	if (WIFSIGNALED(status)) {
		failed = true;
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' (pid %d) exit_signal=%d",
			      j->p->name, (int)pid, WTERMSIG(status));
	} else {
		int es = WEXITSTATUS(status);
		failed = es != 0 && c->log_nonzero;
		ks_log_printf(c->log, failed ? KS_D_ALWAYS : KS_D_FULLDEBUG,
			      "CronJob: '%s' (pid %d) exit_status=%d",
			      j->p->name, (int)pid, es);
	}
	j->pid = 0;
	j->last_exit_ms = ks_clock_ms();
	j->run_load = 0;
	enum cron_state was = j->state;
	j->state = CRON_IDLE;
	ks_loop_cancel(c->loop, j->kill_timer);
	j->kill_timer = 0;
	sd_cron_close_pipes(j);
	if (failed && !j->block_lines && !j->kept_err.len)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' (pid %d) produced no output",
			      j->p->name, (int)pid);
	/* HTCondor restarts first and so loses this output; not here */
	sd_cron_out_end(j, failed, pid);
	if (failed && j->kept_err.len)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: '%s' (pid %d) produced %zu lines of "
			      "standard error, which follow.\n%s",
			      j->p->name, (int)pid, j->err_lines,
			      j->kept_err.data);
	j->kept_err.len = 0;
	j->err_lines = 0;
	if (j->p->mode == CRON_WAIT_FOR_EXIT)
		set_run_timer(j, j->p->period_s * 1000, 0); /* via the loop */
	else if (j->p->mode == CRON_PERIODIC &&
		 (was == CRON_TERM_SENT || was == CRON_KILL_SENT))
		run_job(j); /* killed because its period came: run it now */
	job_left(c);
}

/* HTCondor's CronJob::HandleReconfig(). */
static void job_reconfig(struct cron_job *j)
{
	sd_cron *c = j->mgr;
	const struct cron_params *p = j->p;
	if (p->reconfig_rerun && j->runs) {
		if (!alive(j))
			j->state = CRON_READY;
		return;
	}
	if (j->state == CRON_RUNNING && p->reconfig) {
		if (!j->outputs) {
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: not HUPing '%s' pid %d before "
				      "its first output",
				      p->name, (int)j->pid);
		} else {
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: sending HUP to '%s' pid %d",
				      p->name, (int)j->pid);
			sd_cron_signal(j, SIGHUP);
		}
		return;
	}
	bool periodic = p->mode == CRON_PERIODIC;
	if (!periodic && p->mode != CRON_WAIT_FOR_EXIT)
		return;
	if (p->period_s == j->old_period_s)
		return;
	int64_t now = ks_clock_ms(), period = p->period_s * 1000;
	int64_t last = periodic ? j->last_start_ms : j->last_exit_ms;
	if (alive(j)) {
		/* a running Periodic job keeps its cadence, at its new
		 * period */
		int64_t due = last + period - now;
		if (periodic && last >= 0)
			set_run_timer(j, due > 0 ? due : 0, period);
		return;
	}
	if (last < 0 || last + period < now) {
		ks_loop_cancel(c->loop, j->run_timer);
		j->run_timer = 0;
		j->state = CRON_READY;
		if (periodic)
			set_run_timer(j, period, period);
	} else {
		set_run_timer(j, last + period - now, periodic ? period : 0);
	}
}

static struct cron_job *find_job(const sd_cron *c, const char *name)
{
	for (struct cron_job *j = c->jobs; j; j = j->next)
		if (!strcmp(j->p->name, name))
			return j;
	return NULL;
}

/* Frees j (unlinked by the caller); kill its process first: SIGKILL,
 * reaped by the loop, or waited for here if wait. */
static void free_job(struct cron_job *j, bool wait)
{
	sd_cron *c = j->mgr;
	ks_loop_cancel(c->loop, j->run_timer);
	ks_loop_cancel(c->loop, j->kill_timer);
	sd_cron_abandon(j, wait);
	sd_cron_drop_pipes(j);
	sd_cron_ads_drop_job(c, j);
	sd_cron_out_free(j);
	sd_cron_params_free(j->p);
	free(j);
}

static void delete_job(sd_cron *c, struct cron_job *j)
{
	ks_log_printf(c->log, KS_D_ALWAYS, "CronJob: deleting job '%s' (%s)",
		      j->p->name, j->p->executable);
	for (struct cron_job **pp = &c->jobs; *pp; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	free_job(j, false);
	recompute_load(c);
}

static struct cron_job *add_job(sd_cron *c, struct cron_params *p)
{
	struct cron_job *j = ks_xcalloc(1, sizeof(*j));
	j->mgr = c;
	j->p = p;
	j->state = CRON_IDLE;
	j->out_fd = j->err_fd = -1;
	j->out.max = CRON_MAX_LINE;
	j->err.max = CRON_MAX_ERR_LINE;
	j->last_start_ms = j->last_exit_ms = -1;
	struct cron_job **pp = &c->jobs;
	while (*pp)
		pp = &(*pp)->next;
	*pp = j;
	sd_cron_ads_add_job(c, j);
	ks_log_printf(c->log, KS_D_ALWAYS,
		      "CronJob: initializing job '%s' (%s)", p->name,
		      p->executable);
	return j;
}

static void read_manager(sd_cron *c, const ks_config *cfg)
{
	size_t n = strlen(c->prefix) + 32;
	char *k = ks_xmalloc(n);
	c->max_load = sd_cron_max_load(c, cfg);
	snprintf(k, n, "%s_AUTOPUBLISH", c->prefix);
	char *v = ks_config_get(cfg, k, NULL);
	c->autopub = CRON_AP_NEVER;
	if (v && !strcasecmp(v, "Always"))
		c->autopub = CRON_AP_ALWAYS;
	else if (v && !strcasecmp(v, "If_Changed"))
		c->autopub = CRON_AP_IF_CHANGED;
	else if (v && strcasecmp(v, "Never"))
		ks_log_printf(c->log, KS_D_ERROR,
			      "CronJob: invalid %s '%s', using Never (use "
			      "Never, Always or If_Changed)",
			      k, v);
	free(v);
	snprintf(k, n, "%s_LOG_NON_ZERO_EXIT", c->prefix);
	c->log_nonzero = false;
	ks_config_bool(cfg, k, &c->log_nonzero);
	snprintf(k, n, "%s_CONFIG_VAL", c->prefix);
	free(c->config_val);
	c->config_val = ks_config_get(cfg, k, NULL);
	free(k);
}

/* HTCondor's CronJobMgr::DoConfig(). */
static void do_config(sd_cron *c, const ks_config *cfg)
{
	read_manager(c, cfg);
	for (struct cron_job *j = c->jobs; j; j = j->next)
		j->marked = false;
	size_t n = strlen(c->prefix) + 16;
	char *k = ks_xmalloc(n);
	snprintf(k, n, "%s_JOBLIST", c->prefix);
	char *list = ks_config_get(cfg, k, NULL);
	free(k);
	size_t pos = 0, len;
	for (const char *s; (s = ks_list_next(list, &pos, &len));) {
		char *name = ks_xstrndup(s, len);
		struct cron_job *j = find_job(c, name);
		if (j && j->marked) {
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: job '%s' is listed twice in "
				      "%s_JOBLIST; the second is ignored",
				      name, c->prefix);
			free(name);
			continue;
		}
		struct cron_params *p = sd_cron_params_read(c, cfg, name);
		free(name);
		if (!p)
			continue;
		if (j && j->p->mode != p->mode) {
			ks_log_printf(c->log, KS_D_STATUS,
				      "CronJob: mode of job '%s' changed from "
				      "'%s' to '%s'; starting it afresh",
				      p->name, sd_cron_mode_name(j->p->mode),
				      sd_cron_mode_name(p->mode));
			delete_job(c, j);
			j = NULL;
		}
		if (j) {
			j->old_period_s = j->p->period_s;
			sd_cron_params_free(j->p);
			j->p = p;
		} else {
			j = add_job(c, p);
		}
		j->marked = true;
	}
	free(list);
	for (struct cron_job *j = c->jobs, *next; j; j = next) {
		next = j->next;
		if (!j->marked)
			delete_job(c, j);
	}
	for (struct cron_job *j = c->jobs; j; j = j->next)
		job_reconfig(j);
}

static void schedule_soon(sd_cron *c)
{
	if (!c->sched_timer)
		c->sched_timer = ks_loop_timer(c->loop, 0, 0, on_sched, c);
}

sd_cron *sd_cron_new(ks_loop *loop, ks_log *log, const ks_config *cfg,
		     const char *prefix, sd_cron_update_fn fn, void *arg)
{
	sd_cron *c = ks_xcalloc(1, sizeof(*c));
	c->loop = loop;
	c->log = log;
	c->prefix = ks_xstrdup(prefix);
	size_t pl = strlen(prefix);
	c->mgr = ks_xstrdup(prefix);
	if (pl > 5 && !strcasecmp(prefix + pl - 5, "_CRON"))
		c->mgr[pl - 5] = '\0';
	for (char *s = c->mgr; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 'a' + 'A');
	c->fn = fn;
	c->arg = arg;
	do_config(c, cfg);
	schedule_soon(c);
	return c;
}

void sd_cron_set_context(sd_cron *c, sd_cron_context_fn fn, void *arg)
{
	c->ctx_fn = fn;
	c->ctx_arg = arg;
}

void sd_cron_reconfig(sd_cron *c, const ks_config *cfg)
{
	do_config(c, cfg);
	schedule_soon(c);
}

int sd_cron_run_on_demand(sd_cron *c, const char *name)
{
	int n = 0;
	bool found = false;
	for (struct cron_job *j = c->jobs; j; j = j->next) {
		if (j->p->mode != CRON_ON_DEMAND ||
		    (name && strcmp(name, j->p->name)))
			continue;
		found = true;
		if (j->state == CRON_IDLE) {
			j->state = CRON_READY;
			start_job(j);
			n++;
		}
	}
	if (name && !found)
		return KS_ENOTFOUND;
	schedule_soon(c);
	return n;
}

void sd_cron_shutdown(sd_cron *c, bool force, sd_cron_idle_fn fn, void *arg)
{
	ks_log_printf(c->log, KS_D_FULLDEBUG, "CronJob: %s shutting down%s",
		      c->prefix, force ? " (fast)" : "");
	c->shutting_down = true;
	c->idle_fn = fn;
	c->idle_arg = arg;
	for (struct cron_job *j = c->jobs; j; j = j->next)
		kill_job(j, force);
	maybe_idle(c);
}

void sd_cron_when_idle(sd_cron *c, sd_cron_idle_fn fn, void *arg)
{
	c->idle_fn = fn;
	c->idle_arg = arg;
	maybe_idle(c);
}

unsigned sd_cron_runs(const sd_cron *c)
{
	unsigned n = 0;
	for (const struct cron_job *j = c ? c->jobs : NULL; j; j = j->next)
		n += j->runs;
	return n;
}

bool sd_cron_idle(const sd_cron *c)
{
	for (const struct cron_job *j = c->jobs; j; j = j->next)
		if (alive(j))
			return false;
	return true;
}

int sd_cron_job_info(const sd_cron *c, const char *name,
		     struct sd_cron_job_info *out)
{
	const struct cron_job *j = find_job(c, name);
	if (!j)
		return KS_ENOTFOUND;
	*out = (struct sd_cron_job_info){
		.mode = sd_cron_mode_name(j->p->mode),
		.state = state_names[j->state],
		.pid = j->pid,
		.runs = j->runs,
		.fails = j->fails,
		.outputs = j->outputs,
	};
	return 0;
}

void sd_cron_free(sd_cron *c)
{
	if (!c)
		return;
	ks_loop_cancel(c->loop, c->sched_timer);
	ks_loop_cancel(c->loop, c->idle_timer);
	while (c->jobs) {
		struct cron_job *j = c->jobs;
		c->jobs = j->next;
		free_job(j, true);
	}
	free(c->prefix);
	free(c->mgr);
	free(c->config_val);
	free(c);
}
