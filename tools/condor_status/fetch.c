/*
 * fetch.c: the query and where the ads come from -- the collector, or a
 * file of ads (-ads) filtered the way the collector would filter them.
 */
#include <errno.h>
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
	/* sorted without regard to case, as HTCondor's attribute sets */
	size_t lo = 0, hi = q->nproj;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcasecmp(q->proj[mid], attr);
		if (c == 0)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	q->proj = ks_xrealloc(q->proj, (q->nproj + 1) * sizeof *q->proj);
	memmove(q->proj + lo + 1, q->proj + lo,
		(q->nproj - lo) * sizeof *q->proj);
	q->proj[lo] = ks_xstrdup(attr);
	q->nproj++;
}

static bool st_idstart(char c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool st_idchar(char c)
{
	return st_idstart(c) || (c >= '0' && c <= '9');
}

/* The attribute names an expression mentions: identifiers that are not
 * function names, keywords or scope prefixes.  The projection only has
 * to cover what the columns read, so a name too many does no harm. */
void st_query_project_expr(struct st_query *q, const char *expr)
{
	static const char *const keywords[] = {"true", "false", "undefined",
					       "error", "is", "isnt", NULL};
	const char *p = expr;
	bool after_dot = false;
	while (*p) {
		if (*p == '"' || *p == '\'') {
			char quote = *p++;
			while (*p && *p != quote) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p)
				p++;
			after_dot = false;
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			while (st_idchar(*p) || *p == '.' ||
			       ((*p == '+' || *p == '-') &&
				(p[-1] == 'e' || p[-1] == 'E')))
				p++;
			after_dot = false;
			continue;
		}
		if (!st_idstart(*p)) {
			after_dot = *p == '.';
			p++;
			continue;
		}
		const char *s = p;
		while (st_idchar(*p))
			p++;
		size_t len = (size_t)(p - s);
		const char *r = p;
		while (*r == ' ' || *r == '\t')
			r++;
		bool skip = after_dot || *r == '(';
		for (int k = 0; keywords[k] && !skip; k++)
			if (strlen(keywords[k]) == len &&
			    strncasecmp(keywords[k], s, len) == 0)
				skip = true;
		if (*r == '.' && ((len == 2 && strncasecmp(s, "MY", 2) == 0) ||
				  (len == 6 && strncasecmp(s, "TARGET", 6) == 0) ||
				  (len == 6 && strncasecmp(s, "PARENT", 6) == 0))) {
			/* MY.x names x */
			p = r + 1;
			after_dot = false;
			continue;
		}
		if (!skip) {
			char *name = ks_xstrndup(s, len);
			st_query_project(q, name);
			free(name);
		}
		after_dot = false;
	}
}

void st_query_free(struct st_query *q)
{
	for (size_t i = 0; i < q->nands; i++)
		free(q->ands[i]);
	for (size_t i = 0; i < q->nors; i++)
		free(q->ors[i]);
	for (size_t i = 0; i < q->nproj; i++)
		free(q->proj[i]);
	free(q->ands);
	free(q->ors);
	free(q->proj);
	memset(q, 0, sizeof *q);
}

char *st_query_requirements(const struct st_query *q)
{
	/* "( (a) && (b) ) && ( (c) || (d) )", as HTCondor builds it */
	struct classad_buf b = {0};
	for (size_t i = 0; i < q->nands; i++)
		classad_buf_printf(&b, "%s(%s)", i ? " && " : "( ", q->ands[i]);
	if (q->nands)
		st_buf_add(&b, " )");
	for (size_t i = 0; i < q->nors; i++)
		classad_buf_printf(&b, "%s(%s)",
			      i ? " || " : (q->nands ? " && ( " : "( "),
			      q->ors[i]);
	if (q->nors)
		st_buf_add(&b, " )");
	return b.data;
}

/* ---- the ads file ------------------------------------------------------ */

static char *st_read_all(FILE *f, size_t *len)
{
	struct classad_buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		classad_buf_add(&b, chunk, n);
	*len = b.len;
	return b.data ? b.data : ks_xstrdup("");
}

/* -ads:auto guesses from the first characters. */
static enum classad_format st_guess_format(const char *text)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p == '{')
		return CLASSAD_FMT_JSON;
	if (*p == '[') {
		p++;
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		return *p == '{' ? CLASSAD_FMT_JSON : CLASSAD_FMT_NEW;
	}
	return CLASSAD_FMT_OLD;
}

/* What the collector would answer with for a query's TargetType. */
static bool st_type_matches(const char *target, const classad *ad)
{
	static const char *const known[] = {
		"Machine", "StartD", "Scheduler", "Submitter", "DaemonMaster",
		"Collector", "Negotiator", "Accounting", NULL};
	if (!target || strcasecmp(target, "Any") == 0)
		return true;
	char *mytype = st_ad_string(ad, "MyType");
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

/* HTCondor takes a constraint as true when it is true or a non-zero
 * number. */
static bool st_constraint_true(const classad *ad, const classad_expr *c)
{
	if (!c)
		return true;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, c, NULL, &v);
	bool ok = false;
	classad_value_bool(&v, &ok);
	classad_value_clear(&v);
	return ok;
}

static int st_fetch_file(const struct st_opts *o, const struct st_query *q,
			 const classad_expr *constraint,
			 const struct st_sink *sink, FILE *err)
{
	const char *name = o->ads_file;
	FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
	if (!f) {
		fprintf(err, "Can't open file of ClassAds: %s: %s\n", name,
			strerror(errno));
		return 1;
	}
	size_t len;
	char *text = st_read_all(f, &len);
	if (f != stdin)
		fclose(f);

	enum classad_format fmt = CLASSAD_FMT_OLD;
	switch (o->ads_format) {
	case ST_ADS_JSON: fmt = CLASSAD_FMT_JSON; break;
	case ST_ADS_NEW: fmt = CLASSAD_FMT_NEW; break;
	case ST_ADS_AUTO: fmt = st_guess_format(text); break;
	case ST_ADS_XML:
		fprintf(err, "Error: %s: reading ads in XML is not supported; "
			"use -ads:long, -ads:json or -ads:new\n", name);
		free(text);
		return 1;
	default: break;
	}

	classad_cache *cache = classad_cache_new();
	classad_reader *r = classad_reader_new(text, len, fmt, cache);
	size_t kept = 0;
	int rc = 0;
	for (;;) {
		classad *ad = NULL;
		struct ks_err e = {0};
		int got = classad_reader_next(r, &ad, &e);
		if (got < 0) {
			fprintf(err, "Error: cannot read the ads in %s: line %d, "
				"column %d: %s\n", name, e.line, e.col, e.msg);
			rc = 1;
			break;
		}
		if (got == 0)
			break;
		if (!st_type_matches(q->target, ad) ||
		    !st_constraint_true(ad, constraint)) {
			classad_free(ad);
			continue;
		}
		if (sink->ad(ad, sink->arg) != 0 ||
		    (o->limit > 0 && ++kept >= (size_t)o->limit))
			break;
	}
	classad_reader_free(r);
	classad_cache_free(cache);
	free(text);
	return rc;
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
	if (q->nproj) {
		struct classad_buf p = {0};
		for (size_t i = 0; i < q->nproj; i++) {
			if (i)
				st_buf_addc(&p, ' ');
			st_buf_add(&p, q->proj[i]);
		}
		classad_insert_string(query, "Projection", st_buf_str(&p));
		st_buf_free(&p);
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
