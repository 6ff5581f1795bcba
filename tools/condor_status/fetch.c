/*
 * fetch.c: the query and where the ads come from -- the collector, or a
 * file of ads (-ads) filtered the way the collector would filter them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "status.h"

static void st_push(char ***list, size_t *n, const char *s)
{
	*list = ks_xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = ks_xstrdup(s);
}

void st_query_and(struct st_query *q, const char *expr)
{
	st_push(&q->ands, &q->nands, expr);
}

void st_query_or(struct st_query *q, const char *expr)
{
	st_push(&q->ors, &q->nors, expr);
}

void st_query_project(struct st_query *q, const char *attr)
{
	tf_names_add(&q->proj, attr);
}

void st_query_project_expr(struct st_query *q, const char *expr)
{
	tf_names_add_expr(&q->proj, expr);
}

void st_query_free(struct st_query *q)
{
	for (size_t i = 0; i < q->nands; i++)
		free(q->ands[i]);
	for (size_t i = 0; i < q->nors; i++)
		free(q->ors[i]);
	free(q->ands);
	free(q->ors);
	tf_names_clear(&q->proj);
	memset(q, 0, sizeof *q);
}

char *st_query_requirements(const struct st_query *q)
{
	/* "( (a) && (b) ) && ( (c) || (d) )", as HTCondor builds it */
	struct classad_buf b = {0};
	for (size_t i = 0; i < q->nands; i++)
		classad_buf_printf(&b, "%s(%s)", i ? " && " : "( ", q->ands[i]);
	if (q->nands)
		tf_buf_add(&b, " )");
	for (size_t i = 0; i < q->nors; i++)
		classad_buf_printf(&b, "%s(%s)",
			      i ? " || " : (q->nands ? " && ( " : "( "),
			      q->ors[i]);
	if (q->nors)
		tf_buf_add(&b, " )");
	return b.data;
}

/* ---- the ads file ------------------------------------------------------ */

/* What the collector would answer with for a query's TargetType. */
static bool st_type_matches(const char *target, const classad *ad)
{
	static const char *const known[] = {
		"Machine", "StartD", "Scheduler", "Submitter", "DaemonMaster",
		"Collector", "Negotiator", "Accounting", NULL};
	if (!target || strcasecmp(target, "Any") == 0)
		return true;
	char *mytype = classad_eval_string_dup(ad, "MyType");
	bool ok;
	if (!mytype) {
		ok = true; /* ads saved without MyType are taken as asked */
	} else if (strcasecmp(target, "Generic") == 0) {
		ok = true;
		for (int i = 0; known[i]; i++)
			if (strcasecmp(known[i], mytype) == 0)
				ok = false;
	} else {
		ok = strcasecmp(target, mytype) == 0;
	}
	free(mytype);
	return ok;
}

struct st_file_pass {
	const struct st_query *q;
	const struct st_sink *sink;
	int limit;
	size_t kept;
};

/* The type filter and -limit, after the constraint. */
static int st_file_ad(classad *ad, void *arg)
{
	struct st_file_pass *fp = arg;
	if (!st_type_matches(fp->q->target, ad)) {
		classad_free(ad);
		return 0;
	}
	if (fp->sink->ad(ad, fp->sink->arg) != 0)
		return 1;
	return fp->limit > 0 && ++fp->kept >= (size_t)fp->limit;
}

static int st_fetch_file(const struct st_opts *o, const struct st_query *q,
			 const classad_expr *constraint,
			 const struct st_sink *sink, FILE *err)
{
	struct st_file_pass fp = {q, sink, o->limit, 0};
	return tf_read_ads(o->ads_file, o->ads_format, false, constraint,
			   st_file_ad, &fp, "-ads", err);
}

/* ---- the collector ----------------------------------------------------- */

classad *st_query_ad(const struct st_query *q, const classad_expr *constraint,
		     int limit)
{
	classad *query = classad_new();
	classad_insert_string(query, "MyType", "Query");
	classad_insert_string(query, "TargetType", q->target);
	if (constraint)
		classad_insert(query, "Requirements", classad_expr_ref(constraint));
	else if (!q->no_trivial_req)
		classad_insert_bool(query, "Requirements", true);
	if (q->proj.n) {
		char *p = tf_names_join(&q->proj);
		classad_insert_string(query, "Projection", p);
		free(p);
	}
	if (limit > 0)
		classad_insert_int(query, "LimitResults", limit);
	return query;
}

static int st_fetch_collector(const struct st_opts *o,
			      const struct st_query *q,
			      const classad_expr *constraint,
			      const struct st_sink *sink, FILE *err)
{
	ks_config *cfg = ks_config_new("TOOL", NULL);
	struct ks_err e = {0};
	if (ks_config_load(cfg, &e) != 0) {
		fprintf(err, "ERROR: %s\n", e.msg);
		ks_config_free(cfg);
		return 1;
	}

	classad *query = st_query_ad(q, constraint, o->limit);
	int rc = ks_collector_query_each(cfg, o->pool, q->command, query,
					 sink->record, sink->arg, &e);
	classad_free(query);
	if (rc != 0) {
		/* HTCondor's two lines, then which collector and what to do */
		fprintf(err, "Error: communication error\n%s\n",
			rc == KS_ECANCELED ? sink->err.msg : e.msg);
		char *host = o->pool ? ks_xstrdup(o->pool)
				     : ks_config_get(cfg, "COLLECTOR_HOST", NULL);
		fprintf(err, "Error: Couldn't contact the condor_collector on %s.\n",
			host ? host : "your central manager");
		if (!o->expert)
			fprintf(err, "\nExtra Info: check that the collector is "
				"running and that this host may read from it "
				"(COLLECTOR_HOST, or -pool HOST to ask "
				"another), or read saved ads with -ads FILE.\n");
		free(host);
		ks_config_free(cfg);
		return 1;
	}
	ks_config_free(cfg);
	return 0;
}

int st_fetch(const struct st_opts *o, const struct st_query *q,
	     const struct st_sink *sink, FILE *err)
{
	char *req = st_query_requirements(q);
	classad_expr *constraint = NULL;
	if (req) {
		struct ks_err e = {0};
		constraint = classad_parse_expr(req, strlen(req), &e);
		if (!constraint) {
			/* Name the culprit: the first piece that fails alone. */
			const char *bad = req;
			for (size_t i = 0; i < q->nands + q->nors; i++) {
				const char *s = i < q->nands ? q->ands[i]
							     : q->ors[i - q->nands];
				struct ks_err pe = {0};
				classad_expr *t = classad_parse_expr(s, strlen(s), &pe);
				if (!t) {
					bad = s;
					e = pe;
					break;
				}
				classad_expr_free(t);
			}
			if (o->ads_file)
				fprintf(err, "Invalid constraint expression : %s\n",
					bad);
			else
				fprintf(err, "Error: invalid constraint\n");
			fprintf(err, "%s: %s\n", bad, e.msg);
			free(req);
			return 1;
		}
	}
	free(req);
	int rc = o->ads_file
			 ? st_fetch_file(o, q, constraint, sink, err)
			 : st_fetch_collector(o, q, constraint, sink, err);
	classad_expr_free(constraint);
	return rc;
}
