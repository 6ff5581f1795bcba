/*
 * classad_vectors: runs ClassAd test vectors (../shared/vectors/classad
 * format, one JSON object per line) against libclassad.
 *
 *   classad_vectors FILE...
 *
 * Lists every failing case (id, expected, got) and prints "passed N of M"
 * last; exits 1 if any case failed, 2 on unreadable input.  It depends on
 * nothing but the files: the time zone is fixed to UTC, as the reference
 * machine's was.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classad.h"
#include "mini_json.h"

struct ctx {
	classad *my;
	classad *target;
};

static int failures;   /* failed cases */
static bool case_failed;

static void report(const char *id, const char *what, const char *want,
		   const char *got)
{
	case_failed = true;
	printf("FAIL %s: %s\n  expected: %s\n  got:      %s\n", id, what, want,
	       got);
}

static classad *parse_ad(const char *text, char *why, size_t whylen)
{
	struct ks_err err;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad)
		snprintf(why, whylen, "ad does not parse: %s", err.msg);
	return ad;
}

static int eval_in(const struct ctx *c, const classad_expr *e,
		   classad_value *out)
{
	if (c->target)
		return classad_eval_expr_in_match(c->my, c->target, e, NULL,
						  out);
	return classad_eval_expr(c->my, e, NULL, out);
}

static bool same_value(const classad_value *got, const classad_value *want,
		       int depth);

/* same_value() one level down, of values taken out of got and want, which
 * it then clears. */
static bool same_taken(classad_value *g, classad_value *w, int depth)
{
	bool same = same_value(g, w, depth + 1);
	classad_value_clear(g);
	classad_value_clear(w);
	return same;
}

static bool same_real(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	if (a == b)
		return true;
	double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
	return d <= 1e-12 * m;
}

/* Compares lists item by item, each evaluated in its own list's scope. */
static bool same_list(const classad_value *got, const classad_value *want,
		      int depth)
{
	size_t n = classad_value_list_size(got);
	if (n != classad_value_list_size(want))
		return false;
	for (size_t i = 0; i < n; i++) {
		classad_value g = CLASSAD_VALUE_INIT, w = CLASSAD_VALUE_INIT;
		classad_value_list_get(got, i, NULL, &g);
		classad_value_list_get(want, i, NULL, &w);
		if (!same_taken(&g, &w, depth))
			return false;
	}
	return true;
}

static bool same_ad(const classad *got, const classad *want, int depth)
{
	if (classad_size(got) != classad_size(want))
		return false;
	size_t pos = 0;
	const char *name;
	while (classad_next(want, &pos, &name, NULL)) {
		if (!classad_lookup(got, name))
			return false;
		classad_value g = CLASSAD_VALUE_INIT, w = CLASSAD_VALUE_INIT;
		classad_eval_attr(got, name, NULL, &g);
		classad_eval_attr(want, name, NULL, &w);
		if (!same_taken(&g, &w, depth))
			return false;
	}
	return true;
}

static bool same_value(const classad_value *got, const classad_value *want,
		       int depth)
{
	if (depth > 50)
		return false;
	/* relTime("...") text evaluates to a real; compare seconds. */
	if (got->type == CLASSAD_RELTIME && want->type == CLASSAD_REAL)
		return same_real(got->u.r, want->u.r);
	if (got->type != want->type)
		return false;
	switch (got->type) {
	case CLASSAD_UNDEFINED:
	case CLASSAD_ERROR:
		return true;
	case CLASSAD_BOOLEAN:
		return got->u.b == want->u.b;
	case CLASSAD_INTEGER:
		return got->u.i == want->u.i;
	case CLASSAD_REAL:
	case CLASSAD_RELTIME:
		return same_real(got->u.r, want->u.r);
	case CLASSAD_ABSTIME:
		return got->u.abs.secs == want->u.abs.secs &&
		       got->u.abs.offset == want->u.abs.offset;
	case CLASSAD_STRING: {
		char *a = classad_value_unparse(got, false);
		char *b = classad_value_unparse(want, false);
		bool same = strcmp(a, b) == 0;
		free(a);
		free(b);
		return same;
	}
	case CLASSAD_LIST:
		return same_list(got, want, depth);
	case CLASSAD_AD:
		return same_ad(classad_value_ad(got), classad_value_ad(want),
			       depth);
	}
	return false;
}

/* Checks a result against "type" and the reference's unparse "value". */
static void check_value(const char *id, const struct ctx *c,
			const classad_value *got, const char *type,
			const char *value)
{
	char *gtext = classad_value_unparse(got, false);
	char gdesc[600];
	snprintf(gdesc, sizeof(gdesc), "%s %.560s",
		 classad_type_name(got->type), gtext);
	char wdesc[600];
	snprintf(wdesc, sizeof(wdesc), "%s %.560s", type, value ? value : "");
	if (strcmp(type, classad_type_name(got->type)) != 0) {
		report(id, "wrong type", wdesc, gdesc);
		free(gtext);
		return;
	}
	if (!strcmp(type, "string")) {
		if (strcmp(gtext, value) != 0)
			report(id, "wrong string", wdesc, gdesc);
		free(gtext);
		return;
	}
	free(gtext);
	if (!strcmp(type, "undefined") || !strcmp(type, "error"))
		return;
	struct ks_err err;
	classad_expr *we = classad_parse_expr(value, strlen(value), &err);
	if (!we) {
		char why[400];
		snprintf(why, sizeof(why), "expected value does not parse: %s",
			 err.msg);
		report(id, why, wdesc, gdesc);
		return;
	}
	classad_value want = CLASSAD_VALUE_INIT;
	eval_in(c, we, &want);
	if (!same_value(got, &want, 0))
		report(id, "wrong value", wdesc, gdesc);
	classad_value_clear(&want);
	classad_expr_free(we);
}

static void run_eval(const char *id, const struct mj *v, struct ctx *c)
{
	const char *expr = mj_str(v, "expr");
	const char *type = mj_str(v, "type");
	const char *value = mj_str(v, "value");
	if (!expr || !type) {
		report(id, "malformed case", "expr and type", "missing");
		return;
	}
	struct ks_err err;
	classad_expr *e = classad_parse_expr(expr, strlen(expr), &err);
	if (!strcmp(type, "parse_error")) {
		if (e) {
			char *t = classad_expr_unparse(e, false);
			report(id, "should not parse", "parse_error", t);
			free(t);
			classad_expr_free(e);
		}
		return;
	}
	if (!e) {
		report(id, "does not parse", expr, err.msg);
		return;
	}
	classad_value got = CLASSAD_VALUE_INIT;
	eval_in(c, e, &got);
	check_value(id, c, &got, type, value);
	classad_value_clear(&got);
	classad_expr_free(e);
}

/* "type value" as in my_rank / target_rank. */
static void check_typed(const char *id, const struct ctx *c,
			const classad_value *got, const char *tv)
{
	char type[32];
	const char *sp = strchr(tv, ' ');
	size_t n = sp ? (size_t)(sp - tv) : strlen(tv);
	if (n >= sizeof(type))
		n = sizeof(type) - 1;
	memcpy(type, tv, n);
	type[n] = '\0';
	check_value(id, c, got, type, sp ? sp + 1 : "");
}

static void run_match(const char *id, const struct mj *v, struct ctx *c)
{
	classad_match *m = classad_match_new(c->my, c->target, NULL);
	static const struct {
		const char *key;
		bool (*fn)(classad_match *);
	} tests[] = {
		{"symmetric", classad_match_symmetric},
		{"left_matches_right", classad_match_left_matches_right},
		{"right_matches_left", classad_match_right_matches_left},
	};
	for (size_t i = 0; i < 3; i++) {
		const struct mj *want = mj_get(v, tests[i].key);
		if (!want || want->type != MJ_BOOL)
			continue;
		bool got = tests[i].fn(m);
		if (got != want->b)
			report(id, tests[i].key, want->b ? "true" : "false",
			       got ? "true" : "false");
	}
	const char *ranks[2] = {mj_str(v, "my_rank"), mj_str(v, "target_rank")};
	for (int side = 0; side < 2; side++) {
		if (!ranks[side])
			continue;
		classad_value got = CLASSAD_VALUE_INIT;
		classad_match_rank(m, side, &got);
		char sub[300];
		snprintf(sub, sizeof(sub), "%s (%s)", id,
			 side ? "target_rank" : "my_rank");
		struct ctx sc = {side ? c->target : c->my,
				 side ? c->my : c->target};
		check_typed(sub, &sc, &got, ranks[side]);
		classad_value_clear(&got);
	}
	classad_match_free(m);
}

static bool ads_equal(const classad *a, const classad *b)
{
	if (classad_size(a) != classad_size(b))
		return false;
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(a, &pos, &name, &e)) {
		const classad_expr *o = classad_lookup(b, name);
		if (!o || !classad_expr_same(e, o))
			return false;
	}
	return true;
}

static void roundtrip_form(const char *id, const classad *ad,
			   const char *text, enum classad_format fmt,
			   const char *what)
{
	struct ks_err err;
	classad *back = classad_parse(text, strlen(text), fmt, NULL, &err);
	if (!back) {
		report(id, what, text, err.msg);
		return;
	}
	if (!ads_equal(ad, back)) {
		char *t = classad_unparse(back, CLASSAD_FMT_NEW);
		report(id, what, text, t);
		free(t);
	}
	classad_free(back);
}

static void run_roundtrip(const char *id, const struct mj *v, struct ctx *c)
{
	const char *newt = mj_str(v, "new"), *oldt = mj_str(v, "old");
	if (newt)
		roundtrip_form(id, c->my, newt, CLASSAD_FMT_NEW,
			       "reference new syntax differs");
	if (oldt)
		roundtrip_form(id, c->my, oldt, CLASSAD_FMT_OLD,
			       "reference old syntax differs");
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_OLD, CLASSAD_FMT_JSON};
	static const char *const names[] = {"own new syntax", "own old syntax",
					    "own JSON"};
	for (int i = 0; i < 3; i++) {
		char *t = classad_unparse(c->my, fmts[i]);
		roundtrip_form(id, c->my, t, fmts[i], names[i]);
		free(t);
	}
}

static void run_case(const struct mj *v, int lineno, const char *file)
{
	char idbuf[64];
	const char *id = mj_str(v, "id");
	if (!id) {
		snprintf(idbuf, sizeof(idbuf), "%s:%d", file, lineno);
		id = idbuf;
	}
	const char *kind = mj_str(v, "kind");
	const char *my = mj_str(v, "my"), *target = mj_str(v, "target");
	struct ctx c = {NULL, NULL};
	char why[400];
	if (my && !(c.my = parse_ad(my, why, sizeof(why)))) {
		report(id, why, my, "");
		return;
	}
	if (target && !(c.target = parse_ad(target, why, sizeof(why)))) {
		report(id, why, target, "");
		classad_free(c.my);
		return;
	}
	if (!kind)
		report(id, "malformed case", "a kind", "none");
	else if (!strcmp(kind, "eval"))
		run_eval(id, v, &c);
	else if (!strcmp(kind, "match"))
		run_match(id, v, &c);
	else if (!strcmp(kind, "roundtrip"))
		run_roundtrip(id, v, &c);
	else
		report(id, "unknown kind", "eval, match or roundtrip", kind);
	classad_free(c.my);
	classad_free(c.target);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	fclose(f);
	if (buf)
		buf[n < cap ? n : cap - 1] = '\0';
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE.jsonl...\n", argv[0]);
		return 2;
	}
	setenv("TZ", "UTC", 1);
	tzset();
	int total = 0;
	for (int a = 1; a < argc; a++) {
		size_t len;
		char *text = slurp(argv[a], &len);
		if (!text) {
			fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[a]);
			return 2;
		}
		int lineno = 0;
		for (char *line = text; line < text + len;) {
			char *nl = memchr(line, '\n', (size_t)(text + len - line));
			size_t n = nl ? (size_t)(nl - line) : strlen(line);
			lineno++;
			const char *why;
			case_failed = false;
			struct mj *v = n ? mj_parse(line, n, &why) : NULL;
			if (n && !v) {
				total++;
				char where[300];
				snprintf(where, sizeof(where), "%s:%d", argv[a],
					 lineno);
				report(where, "line is not JSON", "a case", why);
			} else if (v) {
				total++;
				run_case(v, lineno, argv[a]);
				mj_free(v);
			}
			if (case_failed)
				failures++;
			line = nl ? nl + 1 : text + len;
		}
		free(text);
	}
	printf("passed %d of %d\n", total - failures, total);
	return failures ? 1 : 0;
}
