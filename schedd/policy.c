/*
 * policy.c: submit requirements and warnings (SUBMIT_REQUIREMENT_NAMES,
 * SUBMIT_REQUIREMENT_<name>, _REASON, _IS_WARNING), and the order in
 * which a submission meets the schedd's policy: transforms first, then
 * the requirements on the transformed jobs.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "sc_policy.h"
#include "sc_transform.h"

struct requirement {
	char *name;
	classad *exprs; /* "R" the requirement, "W" the reason */
	bool warning;
};

struct sc_policy {
	struct requirement *req;
	size_t nreq;
	struct sc_transforms *tf;
};

static void free_reqs(struct sc_policy *p)
{
	for (size_t i = 0; i < p->nreq; i++) {
		free(p->req[i].name);
		classad_free(p->req[i].exprs);
	}
	free(p->req);
	p->req = NULL;
	p->nreq = 0;
}

void sc_policy_free(struct sc_schedd *s)
{
	if (!s->policy)
		return;
	free_reqs(s->policy);
	sc_transforms_free(s->policy->tf);
	free(s->policy);
	s->policy = NULL;
}

static char *knob(const struct sc_schedd *s, const char *fmt, const char *name)
{
	char key[300];
	snprintf(key, sizeof(key), fmt, name);
	char *v = ks_config_get(s->d->cfg, key, NULL);
	if (v && !*v) {
		free(v);
		v = NULL;
	}
	return v;
}

void sc_policy_reconfig(struct sc_schedd *s)
{
	if (!s->policy)
		s->policy = ks_xcalloc(1, sizeof(*s->policy));
	struct sc_policy *p = s->policy;
	free_reqs(p);
	char *names = ks_config_get(s->d->cfg, "SUBMIT_REQUIREMENT_NAMES", NULL);
	for (char *cur = names, *n; (n = ks_list_cut(&cur));) {
		char *text = knob(s, "SUBMIT_REQUIREMENT_%s", n);
		if (!text) {
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "SUBMIT_REQUIREMENT_%s is not defined; "
				      "requirement %s is ignored", n, n);
			continue;
		}
		struct requirement r = {.exprs = classad_new()};
		struct ks_err err = {0};
		if (classad_insert_text(r.exprs, "R", text, &err)) {
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "SUBMIT_REQUIREMENT_%s does not parse "
				      "(%s); requirement %s is ignored",
				      n, err.msg, n);
			classad_free(r.exprs);
			free(text);
			continue;
		}
		free(text);
		char *reason = knob(s, "SUBMIT_REQUIREMENT_%s_REASON", n);
		if (reason && classad_insert_text(r.exprs, "W", reason, &err))
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "SUBMIT_REQUIREMENT_%s_REASON does not "
				      "parse: %s", n, err.msg);
		free(reason);
		char *warn = knob(s, "SUBMIT_REQUIREMENT_%s_IS_WARNING", n);
		r.warning = warn && (strcasecmp(warn, "true") == 0 ||
				     strcmp(warn, "1") == 0);
		free(warn);
		r.name = ks_xstrdup(n);
		p->req = ks_xrealloc(p->req, (p->nreq + 1) * sizeof(*p->req));
		p->req[p->nreq++] = r;
	}
	free(names);
	sc_transforms_free(p->tf);
	p->tf = sc_transforms_load(s);
}

static char *reason_of(const struct requirement *r, const classad *schedd,
		       const classad *job)
{
	char def[300];
	snprintf(def, sizeof(def), "Submit requirement %s not met.", r->name);
	const classad_expr *w = classad_lookup(r->exprs, "W");
	if (!w)
		return ks_xstrdup(def);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(schedd, job, w, NULL, &v);
	const char *str = classad_value_str(&v, NULL);
	char *out = ks_xstrdup(str ? str : def);
	classad_value_clear(&v);
	return out;
}

/* 0 met; 1 a warning (reason in *why); KS_EPERM refused (reason). */
static int check(const struct requirement *r, const classad *schedd,
		 const classad *job, char **why)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(schedd, job,
				   classad_lookup(r->exprs, "R"), NULL, &v);
	bool ok = false, known = classad_value_bool(&v, &ok);
	classad_value_clear(&v);
	char buf[300];
	if (!known) {
		snprintf(buf, sizeof(buf),
			 "Submit requirement %s evaluated to non-boolean.",
			 r->name);
		*why = ks_xstrdup(buf);
		return KS_EPERM;
	}
	if (ok)
		return 0;
	*why = reason_of(r, schedd, job);
	return r->warning ? 1 : KS_EPERM;
}

int sc_policy_submit(struct sc_schedd *s, classad *cl_ad, classad **procs,
		     size_t n, char **warnings, struct ks_err *err)
{
	*warnings = NULL;
	struct sc_policy *p = s->policy;
	if (!p)
		return 0;
	int rc = sc_transforms_apply(s, p->tf, cl_ad, procs, n, err);
	if (rc)
		return rc;
	if (!p->nreq)
		return 0;
	classad *schedd = sc_schedd_ad(s);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		for (size_t k = 0; k < p->nreq; k++) {
			char *why = NULL;
			int r = check(&p->req[k], schedd, procs[i], &why);
			if (r == 1) {
				free(*warnings);
				*warnings = why;
				continue;
			}
			if (r) {
				rc = ks_err_set(err, KS_EPERM, 0, 0, 0, "%s",
						why);
				free(why);
				break;
			}
		}
	}
	classad_free(schedd);
	if (rc) {
		free(*warnings);
		*warnings = NULL;
	}
	return rc;
}
