/* policy.c: a job's policy commands as HTCondor 25's condor_submit writes
 * them: the periodic and on-exit expressions, leave_in_queue, retries
 * (max_retries, success_exit_code and retry_until, which rewrite
 * OnExitRemove) and job deferral (deferral_time and the cron commands). */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "submit.h"

/* Expressions taken as written (each may also be written under its
 * attribute's name).  on_exit_hold and on_exit_remove are the retries'. */
static const char *const policy_exprs[][2] = {
	{"periodic_hold", "PeriodicHold"},
	{"periodic_hold_reason", "PeriodicHoldReason"},
	{"periodic_hold_subcode", "PeriodicHoldSubCode"},
	{"periodic_release", "PeriodicRelease"},
	{"periodic_remove", "PeriodicRemove"},
	{"periodic_vacate", "PeriodicVacate"},
	{"on_exit_hold_reason", "OnExitHoldReason"},
	{"on_exit_hold_subcode", "OnExitHoldSubCode"},
};

static int put_param_expr(const struct sub_job_ctx *c, classad *ad,
			  const char *key, const char *attr,
			  struct ks_err *err)
{
	char *v = sub_param(c, key, attr);
	int rc = v ? sub_put_expr(c, ad, attr, v, key, err) : 0;
	free(v);
	return rc;
}

bool sub_top_level_op(const char *e, bool oror)
{
	int depth = 0;
	for (const char *p = e; *p; p++) {
		if (*p == '"' || *p == '\'') {
			char q = *p;
			for (p++; *p && *p != q; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		} else if (strchr("([{", *p)) {
			depth++;
		} else if (strchr(")]}", *p)) {
			depth--;
		} else if (!depth &&
			   ((oror && p[0] == '|' && p[1] == '|') ||
			    (*p == '?' && p[1] != ':' &&
			     (p == e || p[-1] != '=')))) {
			return true;
		}
	}
	return false;
}

/* text, parenthesized if it is a conditional; NULL if it does not parse */
static char *operand_of_or(const char *text)
{
	struct ks_err e;
	classad_expr *x = classad_parse_expr(text, strlen(text), &e);
	if (!x)
		return NULL;
	classad_expr_free(x);
	size_t n = strlen(text) + 3;
	char *out = ks_xmalloc(n);
	snprintf(out, n, sub_top_level_op(text, false) ? "(%s)" : "%s", text);
	return out;
}

static void count_ref(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
}

/* retry_until: an exit code that ends the retries becomes
 * "ExitCode =?= N"; anything else is an expression to || in. */
static char *retry_clause(const char *v, struct ks_err *err)
{
	struct ks_err e;
	classad_expr *x = classad_parse_expr(v, strlen(v), &e);
	char *out = NULL;
	if (x) {
		int refs = 0;
		classad_expr_each_ref(x, count_ref, &refs);
		long long code;
		if (!refs && sub_value_int(v, &code)) {
			if (code >= INT_MIN && code <= INT_MAX) {
				out = ks_xmalloc(32);
				snprintf(out, 32, "ExitCode =?= %d", (int)code);
			}
		} else {
			out = operand_of_or(v);
		}
		classad_expr_free(x);
	}
	if (!out)
		ks_err_set(err, KS_EINVAL, 0, 0, 0,
			   "retry_until=%s is invalid, it must be an integer "
			   "or boolean expression.", v);
	return out;
}

struct retries {
	char *remove, *hold, *until; /* on_exit_remove, on_exit_hold */
	long long max, success;
	bool max_set, success_set;
};

static int read_retries(const struct sub_job_ctx *c, struct retries *r,
			struct ks_err *err)
{
	static const struct {
		const char *key, *attr;
		size_t off, set;
	} ints[] = {
		{"max_retries", "JobMaxRetries", offsetof(struct retries, max),
		 offsetof(struct retries, max_set)},
		{"success_exit_code", "JobSuccessExitCode",
		 offsetof(struct retries, success),
		 offsetof(struct retries, success_set)}};
	r->remove = sub_param(c, "on_exit_remove", "OnExitRemove");
	r->hold = sub_param(c, "on_exit_hold", "OnExitHold");
	for (size_t i = 0; i < 2; i++) {
		char *v = sub_param(c, ints[i].key, ints[i].attr);
		if (!v)
			continue;
		long long *n = (long long *)((char *)r + ints[i].off);
		/* success_exit_code must fit an int */
		bool ok = sub_value_int(v, n) &&
			  (i == 0 || (*n >= INT_MIN && *n < INT_MAX));
		if (!ok) {
			int rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					    "%s=%s is invalid, must eval to an "
					    "integer.", ints[i].key, v);
			free(v);
			return rc;
		}
		*(bool *)((char *)r + ints[i].set) = true;
		free(v);
	}
	r->until = sub_param(c, "retry_until", NULL);
	return 0;
}

/* OnExitHold and OnExitRemove; with retries asked for, OnExitRemove
 * becomes "out of retries, or a good exit, or the user's own". */
static int set_retries(const struct sub_job_ctx *c, classad *ad,
		       struct ks_err *err)
{
	struct retries r = {0};
	int rc = read_retries(c, &r, err);
	char *until = NULL;
	if (rc)
		goto out;
	if (!r.max_set && !r.success_set && !r.until) {
		if ((r.remove &&
		     (rc = sub_put_expr(c, ad, "OnExitRemove", r.remove,
					"on_exit_remove", err))) ||
		    (r.hold && (rc = sub_put_expr(c, ad, "OnExitHold", r.hold,
						  "on_exit_hold", err))))
			goto out;
		goto out;
	}
	if (r.until && !(until = retry_clause(r.until, err))) {
		rc = KS_EINVAL;
		goto out;
	}
	/* (HTCondor's DEFAULT_JOB_MAX_RETRIES) */
	classad_insert_int(ad, "JobMaxRetries", r.max_set ? r.max : 2);
	if (r.hold) {
		if ((rc = sub_put_expr(c, ad, "OnExitHold", r.hold,
				       "on_exit_hold", err)))
			goto out;
	} else {
		classad_insert_bool(ad, "OnExitHold", false);
	}
	struct classad_buf b = {0};
	classad_buf_printf(&b, "NumJobCompletions > JobMaxRetries || "
			       "ExitCode =?= ");
	if (r.success_set) {
		classad_insert_int(ad, "JobSuccessExitCode", r.success);
		classad_buf_printf(&b, "JobSuccessExitCode");
	} else {
		classad_buf_printf(&b, "0");
	}
	if (until)
		classad_buf_printf(&b, " || %s", until);
	if (r.remove) {
		char *own = operand_of_or(r.remove);
		if (!own) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"on_exit_remove=%s is invalid, it must be "
					"a boolean expression.", r.remove);
			free(b.data);
			goto out;
		}
		classad_buf_printf(&b, " || %s", own);
		free(own);
	}
	rc = sub_put_expr(c, ad, "OnExitRemove", b.data, NULL, err);
	free(b.data);
out:
	free(until);
	free(r.remove);
	free(r.hold);
	free(r.until);
	return rc;
}

int sub_set_policy(const struct sub_job_ctx *c, classad *ad,
		   struct ks_err *err)
{
	int rc;
	size_t n = sizeof(policy_exprs) / sizeof(*policy_exprs);
	for (size_t i = 0; i < n; i++)
		if ((rc = put_param_expr(c, ad, policy_exprs[i][0],
					 policy_exprs[i][1], err)))
			return rc;
	char *v = sub_param(c, "leave_in_queue", "LeaveJobInQueue");
	if (v)
		rc = sub_put_expr(c, ad, "LeaveJobInQueue", v, "leave_in_queue",
				  err);
	else
		rc = classad_insert_bool(ad, "LeaveJobInQueue", false);
	free(v);
	return rc ? rc : set_retries(c, ad, err);
}

/* ---- deferral -------------------------------------------------------- */

/* attr from the first of keys given, which must be a non-negative integer
 * if it is a literal (an expression is the starter's to judge); def when
 * none is.  what names the command in the error. */
static int put_deferral(const struct sub_job_ctx *c, classad *ad,
			const char *attr, const char *const keys[4],
			const char *what, long def, struct ks_err *err)
{
	char *v = sub_param(c, keys[0], keys[1]);
	if (!v && keys[2])
		v = sub_param(c, keys[2], keys[3]);
	if (!v) {
		if (def >= 0)
			classad_insert_int(ad, attr, def);
		return 0;
	}
	bool ok = classad_insert_text(ad, attr, v, NULL) == 0;
	classad_value lit = CLASSAD_VALUE_INIT;
	if (ok && classad_expr_is_literal(classad_lookup(ad, attr), &lit))
		ok = lit.type == CLASSAD_INTEGER && lit.u.i >= 0;
	classad_value_clear(&lit);
	int rc = ok ? 0
		    : ks_err_set(err, KS_EINVAL, 0, 0, 0,
				 "%s = %s is invalid, must eval to a "
				 "non-negative integer.", what, v);
	free(v);
	return rc;
}

int sub_set_deferral(const struct sub_job_ctx *c, classad *ad,
		     int universe, struct ks_err *err)
{
	static const char *const when[4] = {"deferral_time", "DeferralTime",
					    NULL, NULL};
	static const char *const window[4] = {"cron_window", "CronWindow",
					      "deferral_window",
					      "DeferralWindow"};
	static const char *const prep[4] = {"cron_prep_time", "CronPrepTime",
					    "deferral_prep_time",
					    "DeferralPrepTime"};
	/* what makes a job wait for its time (the cron commands having
	 * been set already) */
	static const char *const needs[] = {"CronMinute", "CronHour",
					    "CronDayOfMonth", "CronMonth",
					    "CronDayOfWeek", "DeferralTime"};
	int rc = put_deferral(c, ad, "DeferralTime", when, "deferral_time", -1,
			      err);
	if (rc)
		return rc;
	const char *need = NULL;
	for (size_t i = 0; i < sizeof(needs) / sizeof(*needs) && !need; i++)
		if (classad_lookup(ad, needs[i]))
			need = needs[i];
	if (!need)
		return 0;
	if ((rc = put_deferral(c, ad, "DeferralWindow", window,
			       "deferral_window", 0, err)) ||
	    (rc = put_deferral(c, ad, "DeferralPrepTime", prep,
			       "deferral_prep_time", 300, err)))
		return rc;
	/* the scheduler universe has no starter to wait */
	if (universe == 7 && classad_lookup(ad, "DeferralTime"))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "%s does not work for scheduler universe "
				  "jobs.\nConsider submitting this job using "
				  "the local universe, instead", need);
	return 0;
}

/* ---- requests that grow when the job is evicted ---------------------- */

/* What SUBMIT_REQUEST_MISSING_UNITS says of a size without a unit: NULL
 * (nothing), else a new string ("error", or anything meaning warn). */
static char *missing_units(const struct sub_job_ctx *c)
{
	char *m = sub_knob(c, "SUBMIT_REQUEST_MISSING_UNITS");
	if (m && !*m) {
		free(m);
		m = NULL;
	}
	return m;
}

/* Appends attr to the job's TransformOnEvict list (names separated by
 * blanks) unless it is there. */
static void add_on_evict(classad *ad, const char *attr)
{
	char *list = NULL;
	classad_eval_string(ad, "TransformOnEvict", NULL, &list);
	struct classad_buf b = {0};
	bool there = false;
	size_t pos = 0, n;
	for (const char *p; (p = ks_list_next(list, &pos, &n));)
		there |= n == strlen(attr) && !strncasecmp(p, attr, n);
	if (list && *list)
		classad_buf_printf(&b, "%s ", list);
	classad_buf_printf(&b, "%s", attr);
	if (!there)
		classad_insert_string(ad, "TransformOnEvict", b.data);
	free(b.data);
	free(list);
}

static void note_ref(const char *name, void *arg)
{
	struct {
		const char *want;
		bool found;
	} *r = arg;
	r->found |= !strcasecmp(name, r->want);
}

/* Whether expression text reads attribute attr. */
static bool refers_to(const char *text, const char *attr)
{
	struct ks_err e;
	classad_expr *x = classad_parse_expr(text, strlen(text), &e);
	struct {
		const char *want;
		bool found;
	} r = {attr, false};
	if (x)
		classad_expr_each_ref(x, note_ref, &r);
	classad_expr_free(x);
	return r.found;
}

/* HTCondor's built-in on-evict transform for attr (RequestMemory,
 * RequestDisk): line is a growing list of sizes (in units of scale
 * bytes when bare) that may end in an expression, incr what to add at
 * each eviction (then line is the most to ask for).  It writes the
 * TransformBody_<attr> the schedd applies when the job is evicted for
 * using too much, the attributes that body reads, and lists attr in
 * TransformOnEvict. */
static int evict_check(const struct sub_job_ctx *c, classad *ad,
		       const char *attr, const char *subkey, long long scale,
		       const char *line, const char *incr, struct ks_err *err)
{
	const char *label = scale == 1024 * 1024 ? "defaults to megabytes, but "
						 : "";
	char *units = missing_units(c);
	long long seq[64];
	size_t nseq = 0;
	char *last = NULL; /* the final expression, if any */
	struct classad_buf body = {0};
	classad *tmp = classad_new();
	int rc = 0;
	if (line) {
		const char *p = line, *misu = NULL, *end;
		long long n;
		char unit;
		while (nseq < 64 && sub_size_value(p, scale, ",", &n, &unit, &end)) {
			if (!unit && !misu)
				misu = p;
			seq[nseq++] = n;
			p = end;
			while (isspace((unsigned char)*p))
				p++;
			if (*p != ',')
				break;
			p++;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p) {
			struct ks_err e;
			classad_expr *x = classad_parse_expr(p, strlen(p), &e);
			if (!x) {
				rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
						"%s=%s is invalid. must be an "
						"expression or number", subkey, p);
				goto out;
			}
			classad_expr_free(x);
			last = ks_xstrdup(p);
		} else if (misu && units) {
			if (!strcasecmp(units, "error")) {
				rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
						"%s=%s %smust contain a units "
						"suffix (i.e K, M, G, or T)",
						subkey, misu, label);
				goto out;
			}
			fprintf(stderr, "\nWARNING: %s=%s %sshould contain a units "
					"suffix (i.e K, M, G, or T)\n", subkey,
				misu, label);
		}
	}
	for (size_t i = 0; nseq > 1 && i < nseq; i++)
		if (seq[i] <= (i ? seq[i - 1] : 0)) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"%s must have an increasing sequence of "
					"values, but %lld is not greater than %lld",
					subkey, seq[i], i ? seq[i - 1] : 0LL);
			goto out;
		}
	if (last)
		classad_insert_text(tmp, attr, last, NULL);
	else if (nseq)
		classad_insert_int(tmp, attr, seq[--nseq]);
	else if (!incr)
		goto out;
	const classad_expr *max = classad_lookup(tmp, attr);
	char *max_text = max ? classad_expr_unparse(max, false) : NULL;
	if (nseq) {
		/* a list to step through, one entry per eviction */
		struct classad_buf list = {0};
		classad_buf_printf(&list, "{");
		for (size_t i = 0; i < nseq; i++)
			classad_buf_printf(&list, "%lld,", seq[i]);
		classad_buf_printf(&list, "%s}", max_text);
		char name[64];
		snprintf(name, sizeof(name), "Retry%s", attr);
		rc = sub_put_expr(c, ad, name, list.data, NULL, err);
		free(list.data);
		classad_buf_printf(&body, "EVALSET %s %s[%sIndex?:0]\x1e"
					  "EVALSET %sIndex MIN({size(%s)-1, "
					  "(%sIndex?:0)+1})",
				   attr, name, name, name, name, name);
	} else if (incr) {
		long long step;
		char unit;
		char *inc_text = NULL;
		if (sub_size_value(incr, scale, NULL, &step, &unit, NULL)) {
			if (!unit && units && !strcasecmp(units, "error")) {
				rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
						"%s retry increment %s %smust "
						"contain a units suffix (i.e K, M, "
						"G or T)", attr, incr, label);
			} else if (!unit && units) {
				fprintf(stderr, "\nWARNING: %s retry increment %s "
						"%sshould contain a units suffix "
						"(i.e K, M, G or T)\n", attr, incr,
					label);
			}
			if (!rc && step <= 0)
				rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
						"%s retry increment must be a "
						"positive number or an expression "
						"that references %s", attr, attr);
			inc_text = ks_xmalloc(strlen(attr) + 32);
			sprintf(inc_text, "%s + %lld", attr, step);
		} else if (!refers_to(incr, attr)) {
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"%s retry increment must be a positive "
					"number or an expression that references "
					"%s", attr, attr);
		} else {
			inc_text = ks_xstrdup(incr);
		}
		if (!rc && max_text) {
			char name[64];
			snprintf(name, sizeof(name), "Max%s", attr);
			rc = sub_put_expr(c, ad, name, max_text, NULL, err);
			snprintf(name, sizeof(name), "Next%s", attr);
			if (!rc)
				rc = sub_put_expr(c, ad, name, inc_text, NULL,
						  err);
			classad_buf_printf(&body, "EVALSET %s MIN({Next%s, Max%s})",
					   attr, attr, attr);
		} else if (!rc) {
			/* no most: the one increment, worked out now */
			int64_t cur = 0, next = 0;
			if (classad_eval_int(ad, attr, NULL, &cur))
				classad_insert_int(tmp, attr, cur);
			classad_insert_text(tmp, "Increment", inc_text, NULL);
			if (!classad_eval_int(tmp, "Increment", NULL, &next))
				rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
						"%s retry increment (%s) must "
						"evaluate to an integer at submit "
						"time", attr, incr);
			else
				classad_buf_printf(&body, "SET %s %lld", attr,
						   (long long)next);
		}
		free(inc_text);
	} else {
		classad_buf_printf(&body, "%s %s %s", last ? "EVALSET" : "SET",
				   attr, max_text);
	}
	free(max_text);
	if (rc)
		goto out;
	/* when the transform applies: ON_EVICT_CHECK_<attr>_REQUIREMENTS,
	 * else (for want of it) evicted for going over the memory, or the
	 * disk, it asked for */
	char knob[96];
	snprintf(knob, sizeof(knob), "ON_EVICT_CHECK_%s_REQUIREMENTS", attr);
	char *when = c->cfg ? ks_config_get(c->cfg, knob, NULL) : NULL;
	if (!when && (!strcmp(attr, "RequestMemory") ||
		      !strcmp(attr, "RequestDisk"))) {
		struct classad_buf def = {0};
		classad_buf_printf(&def, "(VacateReasonCode==21 || "
					 "VacateReasonCode == 34) && "
					 "VacateReasonSubCode == %s",
				   attr[7] == 'M' ? "102" : "104");
		when = def.data;
	}
	struct classad_buf all = {0};
	if (when)
		classad_buf_printf(&all, "REQUIREMENTS %s\x1e", when);
	classad_buf_printf(&all, "%s", body.data);
	free(when);
	char *text = all.data;
	char name[64];
	snprintf(name, sizeof(name), "TransformBody_%s", attr);
	classad_insert_string(ad, name, text);
	free(text);
	add_on_evict(ad, attr);
out:
	free(body.data);
	free(last);
	free(units);
	classad_free(tmp);
	return rc;
}

int sub_set_request_size(const struct sub_job_ctx *c, classad *ad,
			 const char *attr, const char *text, bool given,
			 struct ks_err *err)
{
	bool memory = !strcmp(attr, "RequestMemory");
	long long scale = memory ? 1024 * 1024 : 1024;
	const char *key = memory ? "request_memory" : "request_disk";
	long long n;
	char unit;
	const char *end = NULL;
	if (!sub_size_value(text, scale, ",", &n, &unit, &end)) {
		/* "undefined" asks for no request at all */
		return strcasecmp(text, "undefined")
			       ? sub_put_expr(c, ad, attr, text,
					      given ? key : NULL, err)
			       : 0;
	}
	char *units = given ? missing_units(c) : NULL;
	int rc = 0;
	if (units && !unit) {
		const char *what = memory ? "megabytes" : "kilobytes";
		const char *suffix = memory ? "(i.e K, M, G or T)"
					    : "(i.e K, M, or B)";
		if (!strcasecmp(units, "error"))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"%s=%s defaults to %s, %smust contain a "
					"units suffix %s", key, text, what,
					memory ? "but " : "", suffix);
		else
			fprintf(stderr, "\nWARNING: %s=%s defaults to %s, %sshould "
					"contain a units suffix %s\n", key, text,
				what, memory ? "but " : "", suffix);
	}
	free(units);
	if (rc)
		return rc;
	classad_insert_int(ad, attr, n);
	/* "a, b": the second (and any more) for after an eviction */
	if (end && end[0] == ',' && end[1])
		return evict_check(c, ad, attr, key, scale, end + 1, NULL, err);
	if (!memory) {
		char *rrd = sub_param(c, "retry_request_disk", NULL);
		rc = rrd ? evict_check(c, ad, attr, key, scale, rrd, NULL, err) : 0;
		free(rrd);
		return rc;
	}
	char *rrm = sub_param(c, "retry_request_memory", NULL);
	char *max = sub_param(c, "retry_request_memory_max", NULL);
	char *inc = sub_param(c, "retry_request_memory_increase", NULL);
	if (rrm) {
		if (inc)
			fprintf(stderr, "\nWARNING: retry_request_memory_increase "
					"will be ignored because "
					"retry_request_memory was used");
		rc = evict_check(c, ad, attr, "retry_request_memory", scale, rrm,
				 NULL, err);
	} else if (max || inc) {
		rc = evict_check(c, ad, attr, "retry_request_memory_max", scale,
				 max, inc, err);
	}
	free(rrm);
	free(max);
	free(inc);
	return rc;
}

int sub_set_on_evict(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err)
{
	char *tags = sub_param(c, "on_evict_checks", "TransformOnEvict");
	if (!tags)
		return 0;
	struct classad_buf list = {0};
	for (char *cur = tags, *t; (t = ks_list_cut(&cur));) {
		/* the transform's body: transform_body_<tag> (or
		 * TransformBody_<tag>), one statement a line, comments and
		 * blank lines left out */
		size_t n = strlen(t) + 32;
		char *key = ks_xmalloc(n);
		snprintf(key, n, "transform_body_%s", t);
		char *body = sub_param(c, key, NULL);
		snprintf(key, n, "TransformBody_%s", t);
		if (!body)
			body = sub_param(c, key, NULL);
		if (body) {
			if (list.len)
				classad_buf_add(&list, " ", 1);
			classad_buf_add(&list, t, strlen(t));
			struct classad_buf lines = {0};
			char *lsave = NULL;
			for (char *l = strtok_r(body, "\n", &lsave); l;
			     l = strtok_r(NULL, "\n", &lsave)) {
				if (!*l || *l == '#')
					continue;
				if (lines.len)
					classad_buf_add(&lines, "\x1e", 1);
				classad_buf_add(&lines, l, strlen(l));
			}
			classad_insert_string(ad, key, lines.data ? lines.data : "");
			free(lines.data);
		}
		free(body);
		free(key);
	}
	classad_insert_string(ad, "TransformOnEvict", list.data ? list.data : "");
	free(list.data);
	free(tags);
	(void)err;
	return 0;
}
