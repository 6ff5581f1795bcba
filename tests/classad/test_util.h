/*
 * test_util.h: helpers for the ClassAd unit tests: evaluate text and
 * compare "type value" strings, so each case reads as one line.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "classad.h"

/* "type value" of v, in a static buffer. */
static inline const char *tu_describe(const classad_value *v)
{
	static char buf[4096];
	char *t = classad_value_unparse(v, false);
	snprintf(buf, sizeof(buf), "%s %s", classad_type_name(v->type), t);
	free(t);
	return buf;
}

static inline classad *tu_ad(const char *text)
{
	if (!text)
		return NULL;
	struct ks_err err;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad)
		fail_msg("ad does not parse: %s: %s", text, err.msg);
	return ad;
}

/* Parses expr; if it does not parse, NULL with "parse_error <message>"
 * in buf, for the caller to answer instead. */
static inline classad_expr *tu_parse(const char *expr, char *buf, size_t size)
{
	struct ks_err err;
	classad_expr *e = classad_parse_expr(expr, strlen(expr), &err);
	if (!e)
		snprintf(buf, size, "parse_error %s", err.msg);
	return e;
}

/* Evaluates expr with my (and target, when not NULL) as in a match. */
static inline const char *tu_eval_in(const char *my, const char *target,
				     const char *expr)
{
	static char buf[4096];
	classad_expr *e = tu_parse(expr, buf, sizeof(buf));
	if (!e)
		return buf;
	classad *m = tu_ad(my), *t = tu_ad(target);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(m, t, e, NULL, &v);
	snprintf(buf, sizeof(buf), "%s", tu_describe(&v));
	classad_value_clear(&v);
	classad_expr_free(e);
	classad_free(m);
	classad_free(t);
	return buf;
}

static inline const char *tu_eval(const char *expr)
{
	return tu_eval_in(NULL, NULL, expr);
}

#define EXPECT(expr, want) assert_string_equal(tu_eval(expr), want)
#define EXPECT_IN(my, expr, want) \
	assert_string_equal(tu_eval_in(my, NULL, expr), want)
#define EXPECT_MATCH(my, target, expr, want) \
	assert_string_equal(tu_eval_in(my, target, expr), want)

static inline bool tu_parses(const char *expr)
{
	classad_expr *e = classad_parse_expr(expr, strlen(expr), NULL);
	classad_expr_free(e);
	return e != NULL;
}

/* new-syntax unparse of a parsed expression, in a static buffer */
static inline const char *tu_unparse(const char *expr, bool old)
{
	static char buf[4096];
	classad_expr *e = tu_parse(expr, buf, sizeof(buf));
	if (!e)
		return buf;
	char *t = classad_expr_unparse(e, old);
	snprintf(buf, sizeof(buf), "%s", t);
	free(t);
	classad_expr_free(e);
	return buf;
}

#endif
