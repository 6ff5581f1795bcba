/*
 * cron_params.c: one cron job's knobs, <P>_<name>_<ITEM>, read and
 * checked as HTCondor's CronJobParams does: a job without an executable,
 * with an unknown mode, or a Periodic or WaitForExit job without a
 * usable period, is left out with a log line that says how to fix it.
 */
#include "cron_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"

static const char *const mode_names[] = {"Periodic", "WaitForExit",
					 "OneShot", "OnDemand"};

const char *sd_cron_mode_name(enum cron_mode m)
{
	return (unsigned)m < 4 ? mode_names[m] : "?";
}

/* <P>_<name>_<item>, a new string. */
static char *knob(const sd_cron *c, const char *name, const char *item)
{
	size_t n = strlen(c->prefix) + strlen(name) + strlen(item) + 3;
	char *k = ks_xmalloc(n);
	snprintf(k, n, "%s_%s_%s", c->prefix, name, item);
	return k;
}

static char *get(const sd_cron *c, const ks_config *cfg, const char *name,
		 const char *item)
{
	char *k = knob(c, name, item);
	char *v = ks_config_get(cfg, k, NULL);
	free(k);
	return v;
}

/* HTCondor reads these with "starts with T"; the usual boolean words are
 * taken too, so that "yes" does not quietly mean false. */
static bool get_bool(const sd_cron *c, const ks_config *cfg,
		     const char *name, const char *item)
{
	char *k = knob(c, name, item);
	bool b = false;
	if (!ks_config_bool(cfg, k, &b)) {
		char *v = ks_config_get(cfg, k, NULL);
		b = v && toupper((unsigned char)*v) == 'T';
		free(v);
	}
	free(k);
	return b;
}

static bool is_benchmarks(const sd_cron *c)
{
	return !strcasecmp(c->prefix, "BENCHMARKS");
}

/* "15", "15s", "10m", "2h" (as HTCondor: a number and one letter). */
static bool parse_period(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno || v < 0)
		return false;
	int64_t mul = 1;
	switch (toupper((unsigned char)*end)) {
	case '\0':
	case 'S':
		break;
	case 'M':
		mul = 60;
		break;
	case 'H':
		mul = 3600;
		break;
	default:
		return false;
	}
	if (v > INT64_MAX / 1000 / mul)
		return false;
	*out = v * mul;
	return true;
}

static bool read_mode(const sd_cron *c, const ks_config *cfg,
		      struct cron_params *p)
{
	p->mode = is_benchmarks(c) ? CRON_ON_DEMAND : CRON_PERIODIC;
	char *v = get(c, cfg, p->name, "MODE");
	if (!v)
		return true;
	size_t i = 0;
	while (i < 4 && strcasecmp(v, mode_names[i]))
		i++;
	if (i == 4)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': unknown %s_%s_MODE '%s'; job "
			      "skipped (use Periodic, WaitForExit, OneShot or "
			      "OnDemand)",
			      p->name, c->prefix, p->name, v);
	else
		p->mode = (enum cron_mode)i;
	free(v);
	if (i < 4 && is_benchmarks(c) && p->mode != CRON_ON_DEMAND) {
		/* the startd runs benchmarks only when RunBenchmarks asks */
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: benchmark job '%s' is not OnDemand "
			      "(%s_%s_MODE = %s); job skipped",
			      p->name, c->prefix, p->name,
			      sd_cron_mode_name(p->mode));
		return false;
	}
	return i < 4;
}

static bool read_period(const sd_cron *c, const ks_config *cfg,
			struct cron_params *p)
{
	char *v = get(c, cfg, p->name, "PERIOD");
	bool ok = true;
	p->period_s = 0;
	if (p->mode == CRON_ONE_SHOT || p->mode == CRON_ON_DEMAND) {
		if (v)
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: job '%s': %s jobs have no "
				      "period; %s_%s_PERIOD ignored",
				      p->name, sd_cron_mode_name(p->mode),
				      c->prefix, p->name);
	} else if (!v) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': no %s_%s_PERIOD; job skipped "
			      "(a %s job needs one, e.g. 5m)",
			      p->name, c->prefix, p->name,
			      sd_cron_mode_name(p->mode));
		ok = false;
	} else if (!parse_period(v, &p->period_s)) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': invalid %s_%s_PERIOD '%s'; "
			      "job skipped (write seconds, or a number "
			      "followed by s, m or h)",
			      p->name, c->prefix, p->name, v);
		ok = false;
	} else if (p->mode == CRON_PERIODIC && p->period_s == 0) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': a Periodic job needs a "
			      "period of at least 1 second; job skipped",
			      p->name);
		ok = false;
	}
	free(v);
	return ok;
}

static bool read_args_env(const sd_cron *c, const ks_config *cfg,
			  struct cron_params *p)
{
	char err[200] = "";
	p->argv = ks_xcalloc(2, sizeof(char *));
	p->argv[0] = ks_xstrdup(p->name); /* HTCondor's first argument */
	char *v = get(c, cfg, p->name, "ARGS");
	int r = sd_cron_split_args(v, &p->argv, err, sizeof(err));
	if (r)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': cannot split %s_%s_ARGS: "
			      "%s; job skipped",
			      p->name, c->prefix, p->name, err);
	free(v);
	if (r)
		return false;
	v = get(c, cfg, p->name, "ENV");
	r = sd_cron_split_env(v, &p->env, err, sizeof(err));
	if (r)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': cannot read %s_%s_ENV: %s; "
			      "job skipped",
			      p->name, c->prefix, p->name, err);
	free(v);
	if (r)
		return false;
	/* what HTCondor tells every ClassAd hook */
	size_t n = strlen(c->mgr) + 32;
	char *k = ks_xmalloc(n);
	snprintf(k, n, "%s_INTERFACE_VERSION", c->mgr);
	sd_cron_env_set(&p->env, k, "1");
	snprintf(k, n, "%s_CRON_NAME", c->mgr);
	sd_cron_env_set(&p->env, k, c->mgr);
	v = get(c, cfg, p->name, "CONFIG_VAL_PROG");
	if (v) {
		snprintf(k, n, "%s_CONFIG_VAL", c->mgr);
		sd_cron_env_set(&p->env, k, v);
		free(v);
	}
	free(k);
	if (c->config_val) {
		k = ks_xmalloc(strlen(c->prefix) + 16);
		sprintf(k, "%s_CONFIG_VAL", c->prefix);
		sd_cron_env_set(&p->env, k, c->config_val);
		free(k);
	}
	return true;
}

static double get_double(const sd_cron *c, const ks_config *cfg,
			 const char *name, const char *item, double dflt,
			 double min, double max)
{
	char *k = name ? knob(c, name, item) : NULL;
	if (!k) {
		k = ks_xmalloc(strlen(c->prefix) + strlen(item) + 2);
		sprintf(k, "%s_%s", c->prefix, item);
	}
	double v = dflt;
	if (ks_config_double(cfg, k, &v) && (v < min || v > max)) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: %s = %g is outside [%g, %g]; using %g",
			      k, v, min, max, dflt);
		v = dflt;
	}
	free(k);
	return v;
}

double sd_cron_max_load(const sd_cron *c, const ks_config *cfg)
{
	return get_double(c, cfg, NULL, "MAX_JOB_LOAD",
			  is_benchmarks(c) ? 1.0 : 0.1, 0.01, 1000.0);
}

static void read_slots(const sd_cron *c, const ks_config *cfg,
		       struct cron_params *p)
{
	char *v = get(c, cfg, p->name, "SLOTS");
	size_t pos = 0, n;
	for (const char *s; (s = ks_list_next(v, &pos, &n));) {
		if (!isdigit((unsigned char)*s)) {
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: job '%s': invalid slot number "
				      "'%.*s' in %s_%s_SLOTS; the list is "
				      "ignored and every slot takes the output",
				      p->name, (int)n, s, c->prefix, p->name);
			free(p->slots);
			p->slots = NULL;
			p->nslots = 0;
			break;
		}
		p->slots = ks_xrealloc(p->slots,
				       (p->nslots + 1) * sizeof(*p->slots));
		p->slots[p->nslots++] = atoi(s);
	}
	free(v);
}

static void read_metrics(const sd_cron *c, const ks_config *cfg,
			 struct cron_params *p)
{
	char *v = get(c, cfg, p->name, "METRICS");
	size_t pos = 0, n;
	for (const char *s; (s = ks_list_next(v, &pos, &n));) {
		char *item = ks_xstrndup(s, n);
		char *colon = strchr(item, ':');
		if (!colon || !colon[1]) {
			free(item);
			continue;
		}
		*colon = '\0';
		bool peak = !strncasecmp(item, "PEAK", 4);
		if (!peak && strncasecmp(item, "SUM", 3)) {
			ks_log_printf(c->log, KS_D_ALWAYS,
				      "CronJob: job '%s': unknown metric type "
				      "'%s' for '%s' (use SUM or PEAK); "
				      "ignored",
				      p->name, item, colon + 1);
			free(item);
			continue;
		}
		size_t an = strlen(colon + 1) + 16;
		char *attr = ks_xmalloc(an);
		snprintf(attr, an,
			 peak ? "Uptime%sPeakUsage" : "Uptime%sSeconds",
			 colon + 1);
		free(item);
		p->metrics = ks_xrealloc(
			p->metrics, (p->nmetrics + 1) * sizeof(*p->metrics));
		p->metrics[p->nmetrics++] =
			(struct cron_metric){.peak = peak, .attr = attr};
	}
	free(v);
}

static bool read_condition(const sd_cron *c, const ks_config *cfg,
			   struct cron_params *p)
{
	char *v = get(c, cfg, p->name, "CONDITION");
	if (!v)
		return true;
	struct ks_err err = {0};
	p->condition = classad_parse_expr(v, strlen(v), &err);
	if (!p->condition)
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': %s_%s_CONDITION '%s' does "
			      "not parse (%s); job skipped",
			      p->name, c->prefix, p->name, v, err.msg);
	free(v);
	return p->condition != NULL;
}

struct cron_params *sd_cron_params_read(const sd_cron *c,
					const ks_config *cfg,
					const char *name)
{
	struct cron_params *p = ks_xcalloc(1, sizeof(*p));
	p->name = ks_xstrdup(name);
	p->executable = get(c, cfg, name, "EXECUTABLE");
	if (!p->executable) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: job '%s': no %s_%s_EXECUTABLE; job "
			      "skipped (set it to the program to run)",
			      name, c->prefix, name);
		goto bad;
	}
	if (!read_mode(c, cfg, p) || !read_period(c, cfg, p) ||
	    !read_args_env(c, cfg, p) || !read_condition(c, cfg, p))
		goto bad;
	p->cwd = get(c, cfg, name, "CWD");
	p->prefix = get(c, cfg, name, "PREFIX");
	if (!p->prefix)
		p->prefix = ks_xstrdup("");
	p->kill = get_bool(c, cfg, name, "KILL");
	p->reconfig = get_bool(c, cfg, name, "RECONFIG");
	p->reconfig_rerun = get_bool(c, cfg, name, "RECONFIG_RERUN");
	if (is_benchmarks(c) && p->reconfig_rerun) {
		ks_log_printf(c->log, KS_D_ALWAYS,
			      "CronJob: benchmark '%s' cannot rerun at "
			      "reconfig; %s_%s_RECONFIG_RERUN ignored",
			      name, c->prefix, name);
		p->reconfig_rerun = false;
	}
	p->job_load = get_double(c, cfg, name, "JOB_LOAD",
				 is_benchmarks(c) ? 1.0 : 0.01, 0.0, 100.0);
	read_slots(c, cfg, p);
	read_metrics(c, cfg, p);
	return p;
bad:
	sd_cron_params_free(p);
	return NULL;
}

void sd_cron_params_free(struct cron_params *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->executable);
	sd_cron_vec_free(p->argv);
	sd_cron_vec_free(p->env);
	free(p->cwd);
	free(p->prefix);
	free(p->slots);
	classad_expr_free(p->condition);
	for (size_t i = 0; i < p->nmetrics; i++)
		free(p->metrics[i].attr);
	free(p->metrics);
	free(p);
}

bool sd_cron_in_slots(const struct cron_params *p, int slot)
{
	if (!p->nslots)
		return true;
	for (size_t i = 0; i < p->nslots; i++)
		if (p->slots[i] == slot)
			return true;
	return false;
}
