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

#include "ks_mem.h"
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
	int rc = v ? sub_put_expr(ad, attr, v, err) : 0;
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
		     (rc = sub_put_expr(ad, "OnExitRemove", r.remove, err))) ||
		    (r.hold && (rc = sub_put_expr(ad, "OnExitHold", r.hold, err))))
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
		if ((rc = sub_put_expr(ad, "OnExitHold", r.hold, err)))
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
	rc = sub_put_expr(ad, "OnExitRemove", b.data, err);
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
		rc = sub_put_expr(ad, "LeaveJobInQueue", v, err);
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
