/*
 * periodic.c: the periodic policy, every PERIODIC_EXPR_INTERVAL: the
 * job's PeriodicHold, PeriodicRelease and PeriodicRemove, and the
 * schedd's SYSTEM_PERIODIC_HOLD/RELEASE/REMOVE (with _REASON and
 * _SUBCODE), in HTCondor's order: hold a job not held, release a held
 * one not held by its user, then remove.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "sc_cmds.h"
#include "sc_periodic.h"

enum { HOLD, RELEASE, REMOVE };
static const char *const job_attr[] = {"PeriodicHold", "PeriodicRelease",
				       "PeriodicRemove"};
static const char *const sys_knob[] = {"SYSTEM_PERIODIC_HOLD",
				       "SYSTEM_PERIODIC_RELEASE",
				       "SYSTEM_PERIODIC_REMOVE"};

/* HTCondor's hold reason codes for the two sources */
#define HOLD_CODE_USER_REQUEST 1
#define HOLD_CODE_JOB_POLICY 3
#define HOLD_CODE_SYSTEM_POLICY 26

static bool fires(const classad *job, const classad_expr *e)
{
	if (!e)
		return false;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(job, e, NULL, &v);
	bool b = false, known = classad_value_bool(&v, &b);
	classad_value_clear(&v);
	return known && b;
}

/* Which policy fires for the job, and why (new string), or -1. */
static int which(struct sc_schedd *s, const classad *sys, struct sc_job *j,
		 char **why, int *code, int *sub)
{
	int order[3], n = 0;
	if (j->status != SC_HELD && j->status != SC_COMPLETED)
		order[n++] = HOLD;
	if (j->status == SC_HELD) {
		int64_t hc = 0;
		classad_eval_int(j->ad, "HoldReasonCode", NULL, &hc);
		if (hc != HOLD_CODE_USER_REQUEST)
			order[n++] = RELEASE;
	}
	order[n++] = REMOVE;
	for (int k = 0; k < n; k++) {
		int p = order[k];
		const classad_expr *e = classad_lookup(j->ad, job_attr[p]);
		const char *src = "job attribute", *name = job_attr[p];
		*code = HOLD_CODE_JOB_POLICY;
		*sub = 0;
		if (!fires(j->ad, e)) {
			e = sys ? classad_lookup(sys, sys_knob[p]) : NULL;
			if (!fires(j->ad, e))
				continue;
			src = "system macro";
			name = sys_knob[p];
			*code = HOLD_CODE_SYSTEM_POLICY;
			char knob[64];
			snprintf(knob, sizeof(knob), "%s_REASON", sys_knob[p]);
			const classad_expr *r = classad_lookup(sys, knob);
			snprintf(knob, sizeof(knob), "%s_SUBCODE", sys_knob[p]);
			const classad_expr *sc = classad_lookup(sys, knob);
			if (sc) {
				classad_value v = CLASSAD_VALUE_INIT;
				classad_eval_expr(j->ad, sc, NULL, &v);
				if (v.type == CLASSAD_INTEGER)
					*sub = (int)v.u.i;
				classad_value_clear(&v);
			}
			if (r) {
				classad_value v = CLASSAD_VALUE_INIT;
				classad_eval_expr(j->ad, r, NULL, &v);
				const char *str = classad_value_str(&v, NULL);
				*why = str && *str ? ks_xstrdup(str) : NULL;
				classad_value_clear(&v);
				if (*why)
					return p;
			}
		}
		char *text = classad_expr_unparse(e, false);
		size_t len = strlen(text) + strlen(name) + 80;
		*why = ks_xmalloc(len);
		snprintf(*why, len, "The %s %s expression '%s' evaluated to TRUE",
			 src, name, text);
		free(text);
		(void)s;
		return p;
	}
	return -1;
}

struct pass {
	struct sc_schedd *s;
	const classad *sys;
	struct sc_job **jobs;
	int *what;
	char **why;
	int *code, *sub;
	size_t n, cap;
};

static int look(struct sc_job *j, void *arg)
{
	struct pass *P = arg;
	char *why = NULL;
	int code, sub;
	int p = which(P->s, P->sys, j, &why, &code, &sub);
	if (p < 0)
		return 0;
	if (P->n == P->cap) {
		P->cap = P->cap * 2 + 8;
		P->jobs = ks_xrealloc(P->jobs, P->cap * sizeof(*P->jobs));
		P->what = ks_xrealloc(P->what, P->cap * sizeof(int));
		P->why = ks_xrealloc(P->why, P->cap * sizeof(char *));
		P->code = ks_xrealloc(P->code, P->cap * sizeof(int));
		P->sub = ks_xrealloc(P->sub, P->cap * sizeof(int));
	}
	P->jobs[P->n] = j;
	P->what[P->n] = p;
	P->why[P->n] = why;
	P->code[P->n] = code;
	P->sub[P->n] = sub;
	P->n++;
	return 0;
}

static void act(struct sc_schedd *s, struct sc_job *j, int p, const char *why,
		int code, int sub)
{
	ks_log_printf(s->d->log, KS_D_ALWAYS, "job %d.%d: %s", j->cluster,
		      j->proc, why);
	if (p == HOLD)
		sc_job_hold(s, j, why, code, sub);
	else if (p == RELEASE)
		sc_job_release(s, j, why);
	else
		sc_job_remove(s, j, why, false);
}

/* The SYSTEM_PERIODIC_* knobs as an ad of expressions. */
static classad *system_policy(struct sc_schedd *s)
{
	classad *ad = NULL;
	static const char *const suffix[] = {"", "_REASON", "_SUBCODE"};
	for (int p = 0; p < 3; p++)
		for (int k = 0; k < 3; k++) {
			char knob[64];
			snprintf(knob, sizeof(knob), "%s%s", sys_knob[p],
				 suffix[k]);
			char *v = ks_config_get(s->d->cfg, knob, NULL);
			if (v && *v) {
				if (!ad)
					ad = classad_new();
				struct ks_err err = {0};
				if (classad_insert_text(ad, knob, v, &err))
					ks_log_printf(s->d->log, KS_D_ALWAYS,
						      "%s does not parse: %s",
						      knob, err.msg);
			}
			free(v);
		}
	return ad;
}

void sc_periodic_run(struct sc_schedd *s)
{
	classad *sys = system_policy(s);
	struct pass P = {.s = s, .sys = sys};
	sc_queue_each(s, look, &P);
	/* acting changes the queue: after the walk */
	for (size_t i = 0; i < P.n; i++) {
		act(s, P.jobs[i], P.what[i], P.why[i], P.code[i], P.sub[i]);
		free(P.why[i]);
	}
	free(P.jobs);
	free(P.what);
	free(P.why);
	free(P.code);
	free(P.sub);
	classad_free(sys);
	if (P.n)
		sc_queue_flush(s, NULL);
}
