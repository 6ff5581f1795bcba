/*
 * ifcond.c: the conditions of "if" and "elif" lines.
 *
 * HTCondor accepts only simple conditions: a boolean or number,
 * "defined NAME", "version OP x.y[.z]", each optionally negated with '!',
 * after macro expansion.  Anything else ("$(N) > 2") is an error, and so
 * it is here: a condition that works in kestrel works in HTCondor.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_int.h"
#include "templates.h"

/* The HTCondor version kestrel's configuration answers "version" with. */
#define KC_VERSION_MAJOR 25
#define KC_VERSION_MINOR 14
#define KC_VERSION_SUB 0

enum kind { K_EMPTY, K_NUMBER, K_BOOL, K_IDENT, K_VERSION, K_DEFINED,
	    K_MACRO, K_COMPLEX };

/* s equals lit ignoring case and surrounding space; with rest, lit need
 * only start s (followed by a non-alphanumeric). */
static bool is_word(const char *s, const char *lit, bool rest)
{
	while (isspace((unsigned char)*s))
		s++;
	while (*lit)
		if ((*s++ | 0x20) != *lit++)
			return false;
	if (rest)
		return !isalnum((unsigned char)*s);
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

/* Sorts a condition by the kinds of characters in it, as HTCondor does. */
static enum kind characterize(const char *expr, bool keywords)
{
	enum {
		SPACE = 1, DIGIT = 2, ALPHA = 4, IDENT = 8, CMP = 0x10,
		SUM = 0x20, LOGIC = 0x40, GROUP = 0x80, MONEY = 0x100,
		COLON = 0x200, OTHER = 0x400, FLOAT = 0x1000, MACRO = 0x2000,
	};
	const char *p = expr;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return K_EMPTY;
	const char *begin = p;
	if (*p == '-')
		p++;
	int set = 0;
	for (int ch; (ch = (unsigned char)*p++);) {
		if (isdigit(ch))
			set |= DIGIT;
		else if (ch == '.')
			set |= (set == DIGIT || !*p || isdigit((unsigned char)*p))
				       ? FLOAT
				       : IDENT;
		else if (ch == 'e' || ch == 'E')
			set |= (set & ~FLOAT) == DIGIT ? FLOAT : ALPHA;
		else if (ch == '-' || ch == '+') {
			if (set != (DIGIT | FLOAT))
				set |= SUM;
		} else if (isalpha(ch))
			set |= ALPHA;
		else if (ch == '_' || ch == '/')
			set |= IDENT;
		else if (ch >= '<' && ch <= '>')
			set |= CMP;
		else if (ch == '!' && *p == '=')
			set |= CMP;
		else if (ch == '$') {
			set |= MONEY;
			if (*p == '(')
				set |= MACRO;
		} else if (isspace(ch)) {
			if (*p && !isspace((unsigned char)*p))
				set |= SPACE; /* only inner space counts */
		} else if (ch == '&' || ch == '|')
			set |= LOGIC;
		else if (strchr("(){}[]", ch) || ch == '|')
			set |= GROUP;
		else if (ch == ':')
			set |= COLON;
		else
			set |= OTHER;
	}
	switch (set) {
	case 0:
		return K_EMPTY;
	case DIGIT:
	case DIGIT | FLOAT:
		return K_NUMBER;
	case ALPHA:
		if (is_word(expr, "false", false) || is_word(expr, "true", false))
			return K_BOOL;
		if (keywords && is_word(begin, "version", false))
			return K_VERSION;
		if (keywords && is_word(begin, "defined", false))
			return K_DEFINED;
		return K_IDENT;
	case ALPHA | DIGIT:
	case ALPHA | DIGIT | FLOAT:
	case ALPHA | IDENT:
	case ALPHA | IDENT | DIGIT:
	case ALPHA | IDENT | DIGIT | FLOAT:
		return K_IDENT;
	case ALPHA | SPACE | CMP | DIGIT:
	case ALPHA | SPACE | CMP | DIGIT | FLOAT:
		if (keywords && is_word(begin, "version", true))
			return K_VERSION;
		return K_COMPLEX;
	case ALPHA | SPACE:
	case ALPHA | SPACE | COLON:
	case ALPHA | SPACE | IDENT:
	case ALPHA | SPACE | IDENT | COLON:
	case ALPHA | SPACE | DIGIT:
	case ALPHA | SPACE | DIGIT | IDENT:
	case ALPHA | SPACE | DIGIT | FLOAT:
	case ALPHA | SPACE | DIGIT | IDENT | FLOAT:
		if (keywords && is_word(begin, "defined", true))
			return K_DEFINED;
		return K_COMPLEX;
	}
	if ((set & MACRO) &&
	    !(set & ~(MONEY | IDENT | ALPHA | DIGIT | MACRO | COLON)))
		return K_MACRO;
	return K_COMPLEX;
}

/* yes/no/t/f, which look like names. */
static bool old_bool(const char *s, bool *result)
{
	if (is_word(s, "yes", false) || is_word(s, "t", false)) {
		*result = true;
		return true;
	}
	if (is_word(s, "no", false) || is_word(s, "f", false)) {
		*result = false;
		return true;
	}
	return false;
}

static int cmp3(int a, int b)
{
	return a < b ? -1 : a > b;
}

static bool eval_version(const char *expr, bool *result, char *why,
			 size_t whylen)
{
	const char *p = expr;
	while (isspace((unsigned char)*p))
		p++;
	p += 7; /* "version" */
	while (isspace((unsigned char)*p))
		p++;
	int op = 0; /* -1 <, 0 =, 1 > */
	bool or_equal = false, negated = *p == '!';
	if (negated)
		p++;
	if (*p >= '<' && *p <= '>')
		op = *p++ - '=';
	if (*p == '=') {
		or_equal = true;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == 'v' || *p == 'V')
		p++;
	int maj = 0, min = 0, sub = 0;
	int n = sscanf(p, "%d.%d.%d", &maj, &min, &sub);
	if (n < 2 || maj < 6) {
		snprintf(why, whylen, "the version literal is invalid");
		return false;
	}
	if (n < 3)
		sub = KC_VERSION_SUB;
	/* The sign of (ours - theirs), then read as "ours OP theirs". */
	int diff = cmp3(KC_VERSION_MAJOR, maj);
	if (!diff)
		diff = cmp3(KC_VERSION_MINOR, min);
	if (!diff)
		diff = cmp3(KC_VERSION_SUB, sub);
	*result = diff == op || (or_equal && diff == 0);
	if (negated)
		*result = !*result;
	return true;
}

static bool eval_defined(const struct ks_expand_opts *o, const char *expr,
			 bool *result, char *why, size_t whylen)
{
	const char *p = expr;
	while (isspace((unsigned char)*p))
		p++;
	p += 7; /* "defined" */
	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		*result = false;
		return true;
	}
	enum kind k = characterize(p, false);
	if (k == K_IDENT) {
		size_t n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		const char *v = o->lookup ? o->lookup(o->arg, p, n)
					  : kc_lookup(o->cfg, p, n, NULL);
		bool dummy;
		*result = (v && *v) || (!v && old_bool(p, &dummy));
		return true;
	}
	if (k == K_NUMBER || k == K_BOOL) {
		*result = true;
		return true;
	}
	if (strncasecmp(p, "use", 3) == 0 && isspace((unsigned char)p[3])) {
		p += 4;
		while (isspace((unsigned char)*p))
			p++;
		if (strpbrk(p, " \t\r")) {
			snprintf(why, whylen, "defined use meta argument with "
					      "internal spaces will never "
					      "match");
			return false;
		}
		const char *colon = strchr(p, ':');
		char cat[64];
		size_t cl = colon ? (size_t)(colon - p) : strlen(p);
		if (cl >= sizeof(cat))
			cl = sizeof(cat) - 1;
		memcpy(cat, p, cl);
		cat[cl] = '\0';
		*result = kc_category_known(cat) &&
			  (!colon || !colon[1] ||
			   ks_template_find(cat, colon + 1));
		return true;
	}
	snprintf(why, whylen, "defined argument must be param name, boolean, "
			      "or number");
	return false;
}

static bool eval_simple(const struct ks_expand_opts *o, const char *expr,
			bool *result,
			char *why, size_t whylen)
{
	enum kind k = characterize(expr, true);
	switch (k) {
	case K_NUMBER: {
		double d = atof(expr);
		*result = d < 0 || d > 0;
		return true;
	}
	case K_BOOL:
		*result = is_word(expr, "true", false);
		return true;
	case K_IDENT:
		if (old_bool(expr, result))
			return true;
		break;
	case K_VERSION:
		return eval_version(expr, result, why, whylen);
	case K_DEFINED:
		return eval_defined(o, expr, result, why, whylen);
	default:
		break;
	}
	snprintf(why, whylen, "%s",
		 k == K_COMPLEX ? "complex conditionals are not supported"
				: "expression is not a conditional");
	return false;
}

bool ks_if_condition(const struct ks_expand_opts *o, const char *expr,
		     bool *result, char *why, size_t whylen)
{
	char *expanded = NULL;
	why[0] = '\0';
	if (strchr(expr, '$')) {
		struct ks_err err;
		struct ks_expand_opts plain = *o;
		plain.keep_dollar = false;
		expanded = ks_expand(&plain, expr, &err);
		if (!expanded) {
			snprintf(why, whylen, "%s", err.msg);
			return false;
		}
		size_t n = strlen(expanded);
		while (n && isspace((unsigned char)expanded[n - 1]))
			expanded[--n] = '\0';
		expr = expanded;
	}
	while (isspace((unsigned char)*expr))
		expr++;
	bool inverted = *expr == '!';
	if (inverted) {
		expr++;
		while (isspace((unsigned char)*expr))
			expr++;
	}
	bool ok, value = false;
	if (expanded && !*expr) {
		/* "if $(FOO)" with FOO undefined is false. */
		ok = true;
	} else {
		ok = eval_simple(o, expr, &value, why, whylen);
	}
	free(expanded);
	*result = inverted ? !value : value;
	return ok;
}

bool kc_if_condition(const ks_config *cfg, const char *expr, bool *result,
		     char *why, size_t whylen)
{
	struct ks_expand_opts o = {.cfg = cfg};
	return ks_if_condition(&o, expr, result, why, whylen);
}

/* ---- if blocks ------------------------------------------------------- */

static bool starts_word(const char *line, const char *w)
{
	size_t n = strlen(w);
	return strncasecmp(line, w, n) == 0 &&
	       (!line[n] || isspace((unsigned char)line[n]));
}

bool ks_ifs_enabled(const struct ks_ifs *st)
{
	uint64_t mask = st->top | (st->top - 1);
	return (st->state & mask) == mask;
}

char *ks_ifs_unhide(const struct ks_ifs *st, char *line)
{
	return *line == ':' && (st->top > 1 || starts_word(line + 1, "if"))
		       ? line + 1
		       : line;
}

/* The condition after keyword kw ("if" or "elif") in line, when wanted:
 * its value in *b; false with msg filled when it is no condition. */
static bool condition(const char *line, const char *kw,
		      const struct ks_expand_opts *o, bool *b, char *msg,
		      size_t size)
{
	const char *e = line + strlen(kw);
	while (isspace((unsigned char)*e))
		e++;
	char why[200] = "";
	if (!*b || ks_if_condition(o, e, b, why, sizeof(why)))
		return true;
	snprintf(msg, size, "%s is not a valid %s condition%s%s", e, kw,
		 why[0] ? " because " : "", why);
	return false;
}

int ks_ifs_line(struct ks_ifs *st, const char *line,
		const struct ks_expand_opts *o, char *msg, size_t size)
{
	const char *wrong = NULL;
	bool b;
	if (starts_word(line, "if")) {
		b = ks_ifs_enabled(st);
		if (!condition(line, "if", o, &b, msg, size))
			return -1;
		if (st->top >> 62) {
			wrong = "if nesting too deep!";
		} else {
			st->top <<= 1;
			st->istate |= st->top;
			if (b) {
				st->state |= st->top;
				st->estate |= st->top;
			} else {
				st->state &= ~st->top;
				st->estate &= ~st->top;
			}
		}
	} else if (starts_word(line, "elif")) {
		/* only a block whose branches were all false so far, inside
		 * enabled ones, reads the condition */
		b = !(st->estate & st->top) &&
		    (st->state & (st->top - 1)) == st->top - 1;
		if (!condition(line, "elif", o, &b, msg, size))
			return -1;
		if (!(st->istate & st->top) || st->top == 1) {
			wrong = st->top > 1 ? "elif is not allowed after else"
					    : "elif without matching if";
		} else if (b && !(st->estate & st->top)) {
			st->state |= st->top;
			st->estate |= st->top;
		} else {
			st->state &= ~st->top;
		}
	} else if (starts_word(line, "else")) {
		if (!(st->istate & st->top) || st->top == 1) {
			wrong = st->top > 1 ? "else is not allowed after else"
					    : "else without matching if";
		} else {
			st->istate &= ~st->top;
			if ((st->estate | st->state) & st->top)
				st->state &= ~st->top;
			else
				st->state |= st->top;
		}
	} else if (starts_word(line, "endif")) {
		if (st->top == 1) {
			wrong = "endif without matching if";
		} else {
			st->istate &= ~st->top;
			st->top >>= 1;
		}
	} else {
		return 0;
	}
	if (wrong) {
		snprintf(msg, size, "%s", wrong);
		return -1;
	}
	return 1;
}
