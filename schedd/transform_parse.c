/*
 * transform_parse.c: the transform language's lines into steps
 * (sc_transform_int.h), with every mistake found here rather than at
 * each submission: an unknown word, a statement short of arguments, a
 * REQUIREMENTS or a new name that cannot be right, a regular
 * expression that does not compile.
 *
 * As HTCondor's schedd reads a transform: NAME and UNIVERSE are taken
 * and do nothing to jobs; a TRANSFORM statement with arguments ends the
 * reading (the lines after it are not the transform's), and its loop is
 * not run; "WORD = text" is a macro even when WORD is a statement's.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "sc_transform_int.h"

enum form {
	F_REST,	   /* the rest of the line: REQUIREMENTS */
	F_ASSIGN,  /* a name, an optional '=', the rest: SET ... */
	F_TWO,	   /* a name or /re/, an optional '=' or ',', a new name */
	F_ONE,	   /* a name or /re/: DELETE */
	F_NAME,	   /* NAME text: nothing to do */
	F_UNIVERSE,
	F_TRANSFORM,
};

static const struct {
	const char *word;
	enum op op;
	enum form form;
} ops[] = {
	{"REQUIREMENTS", OP_REQUIREMENTS, F_REST},
	{"SET", OP_SET, F_ASSIGN},
	{"DEFAULT", OP_DEFAULT, F_ASSIGN},
	{"EVALSET", OP_EVALSET, F_ASSIGN},
	{"EVALMACRO", OP_EVALMACRO, F_ASSIGN},
	{"COPY", OP_COPY, F_TWO},
	{"RENAME", OP_RENAME, F_TWO},
	{"DELETE", OP_DELETE, F_ONE},
	{"NAME", OP_MACRO, F_NAME},
	{"UNIVERSE", OP_MACRO, F_UNIVERSE},
	{"TRANSFORM", OP_MACRO, F_TRANSFORM},
};

/* What parse_line() made of a line. */
enum outcome { L_STEP, L_NOTHING, L_UNIVERSE, L_END, L_END_LOOP, L_BAD };

const char *sc_transform_skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

char *sc_transform_word(const char **p)
{
	const char *b = *p = sc_transform_skip_ws(*p);
	while (**p && !isspace((unsigned char)**p) && **p != '=')
		(*p)++;
	return *p > b ? ks_xstrndup(b, (size_t)(*p - b)) : NULL;
}

bool sc_transform_attr_ok(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* A new name the transform spells out (no macro in it, which is put in
 * when it is used) must be valid. */
static bool name_ok(const char *s)
{
	return strstr(s, "$(") || sc_transform_attr_ok(s);
}

static enum outcome bad(struct ks_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static enum outcome bad(struct ks_err *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ks_err_set(err, KS_EINVAL, 0, 0, 0, "%s", msg);
	return L_BAD;
}

/* "/re/opts" at *p into st->a and st->re; p moved past it. */
static enum outcome regex(const char *word, const char **p, struct step *st,
			  struct ks_err *err)
{
	const char *open = *p, *close = strchr(open + 1, '/');
	if (!close)
		return bad(err, "%s %s: the regular expression has no closing /",
			   word, open);
	/* HTCondor matches attribute names ignoring case, whatever the
	 * options say; g is taken and means nothing for a name */
	uint32_t flags = PCRE2_CASELESS;
	const char *o = close + 1;
	for (; *o && !isspace((unsigned char)*o); o++) {
		if (*o == 'm')
			flags |= PCRE2_MULTILINE;
		else if (*o == 'U')
			flags |= PCRE2_UNGREEDY;
		else if (*o != 'i' && *o != 'g') {
			char opt[2] = {*o, 0};
			return bad(err, "%s: unknown regular expression option "
					"'%s' (g, i, m and U are known)",
				   word, opt);
		}
	}
	st->a = ks_xstrndup(open + 1, (size_t)(close - open - 1));
	int code;
	PCRE2_SIZE off;
	st->re = pcre2_compile((PCRE2_SPTR)st->a, PCRE2_ZERO_TERMINATED, flags,
			       &code, &off, NULL);
	if (!st->re) {
		PCRE2_UCHAR msg[120];
		pcre2_get_error_message(code, msg, sizeof(msg));
		char where[160];
		snprintf(where, sizeof(where), "%s at offset %zu",
			 (const char *)msg, (size_t)off);
		return bad(err, "%s /%s/: the regular expression does not "
				"compile: %s", word, st->a, where);
	}
	*p = o;
	return L_STEP;
}

/* The first argument: a name (a trailing ',' or '=' is not part of it,
 * as in HTCondor), or for COPY, RENAME and DELETE a /re/. */
static enum outcome first_arg(const char *word, enum form form,
			      const char **p, struct step *st,
			      struct ks_err *err)
{
	*p = sc_transform_skip_ws(*p);
	if ((form == F_TWO || form == F_ONE) && **p == '/')
		return regex(word, p, st, err);
	st->a = sc_transform_word(p);
	if (!st->a)
		return bad(err, "%s needs %s", word,
			   form == F_ASSIGN ? "an attribute and an expression"
			   : form == F_TWO  ? "2 arguments"
					    : "an attribute");
	size_t n = strlen(st->a);
	if (n > 1 && st->a[n - 1] == ',')
		st->a[n - 1] = '\0';
	/* never expanded: a macro here would stay in the name */
	if (st->op != OP_EVALMACRO && !sc_transform_attr_ok(st->a))
		return bad(err, "%s: %s is not a valid attribute name", word,
			   st->a);
	return L_STEP;
}

static enum outcome statement(const char *word, enum form form, const char *q,
			      struct step *st, struct ks_err *err)
{
	q = sc_transform_skip_ws(q);
	switch (form) {
	case F_NAME:
		return *q ? L_NOTHING : bad(err, "%s needs a name", word);
	case F_UNIVERSE:
		return *q ? L_UNIVERSE
			  : bad(err, "%s needs a universe", word);
	case F_TRANSFORM: {
		/* nothing, or 0 or 1 alone, is no loop */
		char *end;
		long n = strtol(q, &end, 10);
		if (!*q)
			return L_NOTHING;
		return (n == 0 || n == 1) && end != q &&
				       !*sc_transform_skip_ws(end)
			       ? L_END
			       : L_END_LOOP;
	}
	case F_REST: {
		st->b = ks_xstrdup(q);
		if (!*st->b)
			return bad(err, "%s needs an expression", word);
		if (strstr(st->b, "$("))
			return L_STEP;
		struct ks_err perr = {0};
		classad_expr *e = classad_parse_expr(st->b, strlen(st->b), &perr);
		if (!e)
			return bad(err, "REQUIREMENTS %s does not parse: %s",
				   st->b, perr.msg);
		classad_expr_free(e);
		return L_STEP;
	}
	case F_ASSIGN:
		if (first_arg(word, form, &q, st, err) != L_STEP)
			return L_BAD;
		q = sc_transform_skip_ws(q);
		if (*q == '=')
			q = sc_transform_skip_ws(q + 1);
		st->b = ks_xstrdup(q);
		return *st->b ? L_STEP
			      : bad(err, "%s %s needs an expression", word,
				    st->a);
	case F_ONE:
		if (first_arg(word, form, &q, st, err) != L_STEP)
			return L_BAD;
		q = sc_transform_skip_ws(q);
		return *q ? bad(err, "%s: unexpected text after the attribute: "
				     "%s", word, q)
			  : L_STEP;
	case F_TWO:
		if (first_arg(word, form, &q, st, err) != L_STEP)
			return L_BAD;
		q = sc_transform_skip_ws(q);
		if (*q == '=' || *q == ',')
			q = sc_transform_skip_ws(q + 1);
		st->b = ks_xstrdup(q);
		if (!*st->b)
			return bad(err, "%s needs 2 arguments", word);
		/* a pattern's template is checked name by name when used */
		if (st->re)
			return L_STEP;
		if (strpbrk(st->b, " \t"))
			return bad(err, "%s: the new name is one word, not %s",
				   word, st->b);
		return name_ok(st->b)
			       ? L_STEP
			       : bad(err, "%s: the new name %s is not a valid "
					  "attribute name",
				     word, st->b);
	}
	return L_BAD;
}

/* The if blocks open at a point of the text: a bit per level, as the
 * configuration's reader keeps them, for the structure alone (the
 * conditions are the job's, read when the transform is applied). */
struct blocks {
	int depth;
	uint64_t had_else; /* bit d: level d has had its else */
	int open_line[64]; /* the line of each level's if */
};

static bool starts_word(const char *p, const char *w)
{
	size_t n = strlen(w);
	return strncasecmp(p, w, n) == 0 &&
	       (!p[n] || isspace((unsigned char)p[n]));
}

/* An if, elif, else or endif line: L_STEP (b the line), L_NOTHING when
 * it is another line, L_BAD when it breaks the blocks' structure. */
static enum outcome if_line(const char *p, struct blocks *bl, int lineno,
			    struct step *st, struct ks_err *err)
{
	uint64_t bit;
	if (starts_word(p, "if") || starts_word(p, "elif")) {
		bool elif = starts_word(p, "elif");
		if (!*sc_transform_skip_ws(p + (elif ? 4 : 2)))
			return bad(err, "%s needs a condition",
				   elif ? "elif" : "if");
		if (elif && !bl->depth)
			return bad(err, "elif without matching if");
		if (elif && (bl->had_else >> bl->depth & 1))
			return bad(err, "elif is not allowed after else");
		if (!elif) {
			if (bl->depth == 63)
				return bad(err, "if blocks nest too deep");
			bl->depth++;
			bl->had_else &= ~((uint64_t)1 << bl->depth);
			bl->open_line[bl->depth] = lineno;
		}
	} else if (starts_word(p, "else")) {
		bit = (uint64_t)1 << bl->depth;
		if (!bl->depth)
			return bad(err, "else without matching if");
		if (bl->had_else & bit)
			return bad(err, "else is not allowed after else");
		bl->had_else |= bit;
	} else if (starts_word(p, "endif")) {
		if (!bl->depth)
			return bad(err, "endif without matching if");
		bl->depth--;
	} else {
		return L_NOTHING;
	}
	st->op = OP_IF;
	st->b = ks_xstrdup(p);
	return L_STEP;
}

/* One line into a step. */
static enum outcome parse_line(const char *line, struct blocks *bl,
			       int lineno, struct step *st, struct ks_err *err)
{
	const char *p = sc_transform_skip_ws(line);
	if (!*p || *p == '#')
		return L_NOTHING;
	enum outcome o = if_line(p, bl, lineno, st, err);
	if (o != L_NOTHING)
		return o;
	const char *q = p;
	char *w = sc_transform_word(&q);
	if (!w)
		return bad(err, "a line cannot start with '='");
	/* NAME = text: a macro, whatever the word */
	const char *eq = sc_transform_skip_ws(q);
	if (*eq == '=') {
		st->op = OP_MACRO;
		st->a = w;
		st->b = ks_xstrdup(sc_transform_skip_ws(eq + 1));
		return L_STEP;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strcasecmp(w, ops[i].word) != 0)
			continue;
		st->op = ops[i].op;
		enum outcome o = statement(ops[i].word, ops[i].form, q, st, err);
		free(w);
		return o;
	}
	bad(err, "%s is not a valid transform keyword (nor a NAME = value "
		 "macro)", w);
	free(w);
	return L_BAD;
}

static void free_step(struct step *st)
{
	free(st->a);
	free(st->b);
	pcre2_code_free(st->re);
}

void sc_transform_free(struct transform *t)
{
	for (size_t i = 0; i < t->n; i++)
		free_step(&t->steps[i]);
	free(t->steps);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

/* After the TRANSFORM statement at line lineno: the first line that
 * would have been a statement, or 0. */
static int first_unread(const char *p, int lineno)
{
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		const char *s = sc_transform_skip_ws(p);
		if (s < p + len && *s != '#' && *s != '\r')
			return lineno;
		p += len + (nl ? 1 : 0);
	}
	return 0;
}

int sc_transform_parse(const char *name, const char *text,
		       struct transform *t, struct ks_err *err)
{
	memset(t, 0, sizeof(*t));
	t->name = ks_xstrdup(name);
	struct blocks bl = {0};
	int lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = ks_xstrndup(p, len);
		lineno++;
		p += len + (nl ? 1 : 0);
		struct step st = {.line = lineno};
		enum outcome o = parse_line(ks_trim(line), &bl, lineno, &st, err);
		free(line);
		if (o != L_STEP)
			free_step(&st);
		if (o == L_BAD) {
			if (err)
				err->line = lineno;
			return lineno;
		}
		if (o == L_UNIVERSE && !t->universe_line)
			t->universe_line = lineno;
		if (o == L_END || o == L_END_LOOP) {
			t->transform_line = lineno;
			t->loops = o == L_END_LOOP;
			t->unread_line = first_unread(p, lineno);
			break;
		}
		if (o == L_STEP) {
			t->steps = ks_xrealloc(t->steps,
					       (t->n + 1) * sizeof(*t->steps));
			t->steps[t->n++] = st;
		}
	}
	if (bl.depth) {
		int at = bl.open_line[bl.depth];
		bad(err, "the if at line %d has no endif", at);
		if (err)
			err->line = at;
		return at;
	}
	return 0;
}
