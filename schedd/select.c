/*
 * select.c: the jobs a command names (condor_rm 1.0 2, -constraint ...,
 * a user name becomes a constraint on Owner in the tool).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_query.h"
#include "sc_cmds.h"

static void tally(struct sc_schedd *s, struct sc_job *j, const char *identity,
		  sc_select_fn fn, void *arg, struct sc_select_totals *t,
		  int *worst)
{
	int r = sc_may_change(s, identity, j->owner) ? fn(s, j, arg)
						      : SC_AR_PERMISSION_DENIED;
	if (r < 1 || r > 5)
		r = SC_AR_BAD_STATUS;
	t->n[r]++;
	/* a cluster's outcome is its first failure, or success */
	if (*worst == SC_AR_SUCCESS || *worst == 0)
		*worst = r;
}

struct by_constraint {
	struct sc_schedd *s;
	const classad_expr *req;
	const char *identity;
	sc_select_fn fn;
	void *arg;
	struct sc_select_totals *t;
	/* the jobs first, then act: fn may retire jobs */
	struct sc_job **jobs;
	size_t n, cap;
};

static int collect(struct sc_job *j, void *arg)
{
	struct by_constraint *b = arg;
	if (!ks_query_matches(j->ad, b->req))
		return 0;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->jobs = realloc(b->jobs, b->cap * sizeof(*b->jobs));
		if (!b->jobs)
			abort();
	}
	b->jobs[b->n++] = j;
	return 0;
}

static int parse_id(const char **p, int *cluster, int *proc)
{
	char *end;
	long c = strtol(*p, &end, 10);
	if (end == *p || c < 0 || c > 2147483647L)
		return -1;
	*cluster = (int)c;
	*proc = -1;
	if (*end == '.') {
		const char *q = end + 1;
		long pr = strtol(q, &end, 10);
		if (end == q || pr < 0 || pr > 2147483647L)
			return -1;
		*proc = (int)pr;
	}
	*p = end;
	return 0;
}

static int by_ids(struct sc_schedd *s, const char *ids, const char *identity,
		  sc_select_fn fn, void *arg, struct sc_select_totals *t,
		  classad *result, struct ks_err *err)
{
	for (const char *p = ids; *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		int c, pr;
		if (parse_id(&p, &c, &pr))
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "malformed job id in \"%s\"", ids);
		char name[64];
		int worst = 0;
		if (pr >= 0) {
			snprintf(name, sizeof(name), "job_%d_%d", c, pr);
			struct sc_job *j = sc_queue_find(s, c, pr);
			if (j)
				tally(s, j, identity, fn, arg, t, &worst);
		} else {
			snprintf(name, sizeof(name), "cluster_%d", c);
			struct sc_cluster *cl = sc_queue_cluster(s, c);
			size_t n = cl ? cl->nprocs : 0;
			for (size_t i = 0; i < n; i++) {
				/* the cluster goes when its last job does */
				cl = sc_queue_cluster(s, c);
				if (cl && i < cl->nprocs && cl->procs[i])
					tally(s, cl->procs[i], identity, fn,
					      arg, t, &worst);
			}
		}
		if (!worst) {
			worst = SC_AR_NOT_FOUND;
			t->n[worst]++;
		}
		classad_insert_int(result, name, worst);
	}
	return 0;
}

int sc_select(struct sc_schedd *s, const classad *cmd, const char *identity,
	      sc_select_fn fn, void *arg, struct sc_select_totals *totals,
	      classad *result, struct ks_err *err)
{
	char *ids = NULL;
	if (classad_eval_string(cmd, "ActionIds", NULL, &ids)) {
		int rc = by_ids(s, ids, identity, fn, arg, totals, result, err);
		free(ids);
		return rc;
	}
	const classad_expr *req = classad_lookup(cmd, "ActionConstraint");
	if (!req)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "the command names no jobs (ActionIds or "
				  "ActionConstraint)");
	/* a constraint may come as a string holding the expression */
	classad_value v = CLASSAD_VALUE_INIT;
	classad *holder = NULL;
	if (classad_expr_is_literal(req, &v) && v.type == CLASSAD_STRING) {
		holder = classad_new();
		if (classad_insert_text(holder, "C", classad_value_str(&v, NULL),
					 err)) {
			classad_value_clear(&v);
			classad_free(holder);
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "malformed constraint");
		}
		req = classad_lookup(holder, "C");
	}
	classad_value_clear(&v);
	struct by_constraint b = {s, req, identity, fn, arg, totals, NULL, 0, 0};
	sc_queue_each(s, collect, &b);
	int worst = 0;
	for (size_t i = 0; i < b.n; i++)
		tally(s, b.jobs[i], identity, fn, arg, totals, &worst);
	free(b.jobs);
	classad_free(holder);
	return 0;
}

void sc_select_report(const struct sc_select_totals *t, classad *result)
{
	classad_insert_int(result, "TotalSuccess", t->n[SC_AR_SUCCESS]);
	classad_insert_int(result, "TotalNotFound", t->n[SC_AR_NOT_FOUND]);
	classad_insert_int(result, "TotalPermissionDenied",
			   t->n[SC_AR_PERMISSION_DENIED]);
	classad_insert_int(result, "TotalBadStatus", t->n[SC_AR_BAD_STATUS]);
	classad_insert_int(result, "TotalAlreadyDone",
			   t->n[SC_AR_ALREADY_DONE]);
	long bad = 0;
	for (int k = 2; k <= 5; k++)
		bad += t->n[k];
	classad_insert_int(result, "ActionResult", bad == 0);
}
