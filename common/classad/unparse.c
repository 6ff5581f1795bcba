/*
 * unparse.c: expressions and ads back to text.
 *
 * The spellings are HTCondor's, so that tools comparing text keep working:
 * new syntax writes reals as %1.15E and =?= as "is"; old syntax writes reals
 * as %.16G, keeps =?= and escapes nothing in strings but the quote; unary
 * operators are written " -x"; lists "{ a,b }"; ads "[ a = 1; b = 2 ]".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "classad_int.h"

static const char *const op_text[CA_OP_COUNT] = {
	[CA_OP_NONE] = "",
	[CA_OP_LT] = " < ",
	[CA_OP_LE] = " <= ",
	[CA_OP_NE] = " != ",
	[CA_OP_EQ] = " == ",
	[CA_OP_GE] = " >= ",
	[CA_OP_GT] = " > ",
	[CA_OP_META_EQ] = " is ",
	[CA_OP_META_NE] = " isnt ",
	[CA_OP_UPLUS] = " +",
	[CA_OP_UMINUS] = " -",
	[CA_OP_ADD] = " + ",
	[CA_OP_SUB] = " - ",
	[CA_OP_MUL] = " * ",
	[CA_OP_DIV] = " / ",
	[CA_OP_MOD] = " % ",
	[CA_OP_NOT] = " !",
	[CA_OP_OR] = " || ",
	[CA_OP_AND] = " && ",
	[CA_OP_BITNOT] = " ~",
	[CA_OP_BITOR] = " | ",
	[CA_OP_BITXOR] = " ^ ",
	[CA_OP_BITAND] = " & ",
	[CA_OP_LSHIFT] = " << ",
	[CA_OP_RSHIFT] = " >> ",
	[CA_OP_URSHIFT] = " >>> ",
	[CA_OP_PAREN] = " () ",
	[CA_OP_SUBSCRIPT] = " [] ",
	[CA_OP_ELVIS] = " ?: ",
	[CA_OP_TERNARY] = " ?: ",
};

/* HTCondor writes reals with 16 significant digits, which does not read
 * back exactly for every double.  Ads and expressions use 17 digits when
 * 16 lose precision (so that parse(unparse(x)) == x); conversions to
 * strings (string(), strcat()) keep HTCondor's text exactly. */
void ca_format_real(struct classad_buf *b, double r, bool old, bool exact)
{
	char tmp[64];
	if (r == 0.0) {
		snprintf(tmp, sizeof(tmp), "%.1f", r);
	} else if (isnan(r)) {
		ca_buf_adds(b, "real(\"NaN\")");
		return;
	} else if (isinf(r)) {
		ca_buf_adds(b, r < 0 ? "real(\"-INF\")" : "real(\"INF\")");
		return;
	} else {
		snprintf(tmp, sizeof(tmp), old ? "%.16G" : "%1.15E", r);
		if (exact && strtod(tmp, NULL) != r)
			snprintf(tmp, sizeof(tmp), old ? "%.17G" : "%1.16E", r);
		if (old && tmp[strcspn(tmp, ".Ee")] == '\0')
			strcat(tmp, ".0");
	}
	ca_buf_adds(b, tmp);
}

void ca_unparse_real(struct classad_buf *b, double r, bool old)
{
	ca_format_real(b, r, old, true);
}

const char *ca_char_escape(char c, char tmp[8])
{
	switch (c) {
	case '\a': return "\\a";
	case '\b': return "\\b";
	case '\f': return "\\f";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	case '\v': return "\\v";
	case '\\': return "\\\\";
	default:
		/* isprint() of a plain char: bytes over 127 are negative and
		 * not printable. */
		if (c < 32 || c == 127 || (signed char)c < 0) {
			snprintf(tmp, 8, "\\%03o", (unsigned char)c);
			return tmp;
		}
		return NULL;
	}
}

/* Whether the byte c is written as it is inside a literal delimited by
 * delim: in old syntax all but the delimiter, in new syntax printable
 * ASCII but the delimiter and the backslash. */
static bool plain_char(char c, char delim, bool old)
{
	if (c == delim)
		return false;
	return old || (c >= 32 && c < 127 && c != '\\');
}

/* A quoted literal with HTCondor's escaping, delimited by delim.  Runs
 * of plain bytes are copied at once: most values have no escape. */
static void quote(struct classad_buf *b, const char *s, size_t len, char delim,
		  bool old)
{
	classad_buf_reserve(b, len + 2);
	ca_buf_addc(b, delim);
	size_t i = 0;
	while (i < len) {
		size_t run = i;
		while (run < len && plain_char(s[run], delim, old))
			run++;
		if (run > i) {
			classad_buf_add(b, s + i, run - i);
			i = run;
			continue;
		}
		char c = s[i++];
		if (c == delim) {
			ca_buf_addc(b, '\\');
			ca_buf_addc(b, c);
			continue;
		}
		char tmp[8];
		const char *esc = ca_char_escape(c, tmp);
		if (esc)
			ca_buf_adds(b, esc);
		else
			ca_buf_addc(b, c);
	}
	ca_buf_addc(b, delim);
}

void ca_unparse_string(struct classad_buf *b, const char *s, size_t len,
		       bool old)
{
	quote(b, s, len, '"', old);
}

void classad_quote_string_buf(struct classad_buf *b, const char *s,
			      size_t len)
{
	quote(b, s, len, '"', false);
}

static bool reserved(const char *s, size_t n)
{
	static const char *const words[] = {"error", "false", "is", "isnt",
					    "parent", "true", "undefined"};
	/* most names are longer than any of these */
	if (n > 9)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncasecmp(words[i], s, n) == 0)
			return true;
	return false;
}

void ca_unparse_name(struct classad_buf *b, const char *s, size_t len)
{
	bool plain = len > 0 && (isalpha((unsigned char)s[0]) || s[0] == '_');
	for (size_t i = 1; plain && i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			plain = false;
	if (plain && !reserved(s, len)) {
		classad_buf_add(b, s, len);
		return;
	}
	quote(b, s, len, '\'', false);
}

/* Where and how to write: old syntax, and the indented layout of
 * HTCondor's PrettyPrint (used by the unparse() function) for lists and
 * ads. */
struct up {
	struct classad_buf *b;
	bool old;
	bool pretty;
	int indent;
	bool lossy; /* HTCondor's 16 digits even when they lose precision */
};

static void up_expr(struct up *u, const classad_expr *e);

static void up_newline(struct up *u)
{
	ca_buf_addc(u->b, '\n');
	for (int i = 0; i < u->indent; i++)
		ca_buf_addc(u->b, ' ');
}

static void up_ad(struct up *u, const classad *ad)
{
	if (u->pretty) {
		u->indent += 4;
		up_newline(u);
		ca_buf_addc(u->b, '[');
		u->indent += 4;
	} else {
		ca_buf_adds(u->b, "[ ");
	}
	bool first = true;
	for (uint32_t i = 0; i < ad->n; i++) {
		const struct ca_entry *en = &ad->ents[i];
		if (!en->name)
			continue;
		if (!first)
			ca_buf_adds(u->b, "; ");
		first = false;
		if (u->pretty)
			up_newline(u);
		ca_unparse_name(u->b, en->name->s, en->name->len);
		ca_buf_adds(u->b, " = ");
		up_expr(u, en->expr);
	}
	if (u->pretty) {
		u->indent -= 4;
		up_newline(u);
		ca_buf_addc(u->b, ']');
		u->indent -= 4;
	} else {
		ca_buf_adds(u->b, " ]");
	}
}

static void up_list(struct up *u, const struct ca_list *l)
{
	if (u->pretty) {
		u->indent += 3;
		up_newline(u);
		ca_buf_addc(u->b, '{');
		u->indent += 3;
	} else {
		ca_buf_adds(u->b, "{ ");
	}
	for (uint32_t i = 0; i < l->n; i++) {
		if (u->pretty)
			up_newline(u);
		up_expr(u, l->items[i]);
		if (i + 1 < l->n)
			ca_buf_addc(u->b, ',');
	}
	if (u->pretty) {
		u->indent -= 3;
		up_newline(u);
		ca_buf_addc(u->b, '}');
		u->indent -= 3;
	} else {
		ca_buf_adds(u->b, " }");
	}
}

static void up_value(struct up *u, const classad_value *v)
{
	struct classad_buf *b = u->b;
	switch (v->type) {
	case CLASSAD_UNDEFINED: ca_buf_adds(b, "undefined"); break;
	case CLASSAD_ERROR: ca_buf_adds(b, "error"); break;
	case CLASSAD_BOOLEAN: ca_buf_adds(b, v->u.b ? "true" : "false"); break;
	case CLASSAD_INTEGER: ca_buf_add_int(b, v->u.i); break;
	case CLASSAD_REAL: ca_format_real(b, v->u.r, u->old, !u->lossy); break;
	case CLASSAD_STRING:
		ca_unparse_string(b, v->u.s->s, v->u.s->len, u->old);
		break;
	case CLASSAD_ABSTIME:
		ca_buf_adds(b, "absTime(\"");
		ca_abstime_to_string(b, v->u.abs.secs, v->u.abs.offset);
		ca_buf_adds(b, "\")");
		break;
	case CLASSAD_RELTIME:
		ca_buf_adds(b, "relTime(\"");
		ca_reltime_to_string(b, v->u.r, !u->lossy);
		ca_buf_adds(b, "\")");
		break;
	case CLASSAD_LIST:
		up_list(u, ca_as_list(v->u.l.list));
		break;
	case CLASSAD_AD:
		up_ad(u, v->u.ad->ad);
		break;
	}
}

static void up_op(struct up *u, const struct ca_opnode *o)
{
	struct classad_buf *b = u->b;
	int op = o->h.op;
	switch (op) {
	case CA_OP_PAREN:
		ca_buf_addc(b, '(');
		up_expr(u, o->a[0]);
		ca_buf_addc(b, ')');
		return;
	case CA_OP_UPLUS:
	case CA_OP_UMINUS:
	case CA_OP_NOT:
	case CA_OP_BITNOT: {
		ca_buf_adds(b, op_text[op]);
		size_t at = b->len;
		up_expr(u, o->a[0]);
		/* " -5" would read back as the literal -5: for a minus
		 * before a number write " - 5". */
		char c0 = b->len > at ? b->data[at] : 0;
		if (op == CA_OP_UMINUS && ((c0 >= '0' && c0 <= '9') || c0 == '.')) {
			ca_buf_addc(b, ' ');
			memmove(b->data + at + 1, b->data + at, b->len - at - 1);
			b->data[at] = ' ';
		}
		return;
	}
	case CA_OP_TERNARY:
		up_expr(u, o->a[0]);
		ca_buf_adds(b, " ? ");
		up_expr(u, o->a[1]);
		ca_buf_adds(b, " : ");
		up_expr(u, o->a[2]);
		return;
	case CA_OP_SUBSCRIPT:
		up_expr(u, o->a[0]);
		ca_buf_addc(b, '[');
		up_expr(u, o->a[1]);
		ca_buf_addc(b, ']');
		return;
	}
	up_expr(u, o->a[0]);
	if (u->old && op == CA_OP_META_EQ)
		ca_buf_adds(b, " =?= ");
	else if (u->old && op == CA_OP_META_NE)
		ca_buf_adds(b, " =!= ");
	else
		ca_buf_adds(b, op_text[op]);
	up_expr(u, o->a[1]);
}

static void up_expr(struct up *u, const classad_expr *e)
{
	struct classad_buf *b = u->b;
	switch (e->kind) {
	case CA_K_LIT: {
		const struct ca_lit *l = ca_as_lit(e);
		if (e->flags & CA_LIT_RELTIME) {
			ca_buf_adds(b, "relTime(\"");
			ca_reltime_to_string(b, l->v.u.r, !u->lossy);
			ca_buf_adds(b, "\")");
		} else {
			up_value(u, &l->v);
		}
		return;
	}
	case CA_K_ATTR: {
		const struct ca_attr *a = (const struct ca_attr *)e;
		if (a->base) {
			up_expr(u, a->base);
			/* "1.a" would read as the real 1. and then a name. */
			if (a->base->kind == CA_K_LIT &&
			    ca_as_lit(a->base)->v.type == CLASSAD_INTEGER)
				ca_buf_addc(b, ' ');
			ca_buf_addc(b, '.');
		} else if (a->h.flags & CA_ATTR_ABSOLUTE) {
			ca_buf_addc(b, '.');
		}
		ca_unparse_name(b, a->name->s, a->name->len);
		return;
	}
	case CA_K_OP:
		up_op(u, (const struct ca_opnode *)e);
		return;
	case CA_K_CALL: {
		const struct ca_call *c = (const struct ca_call *)e;
		classad_buf_add(b, c->name->s, c->name->len);
		ca_buf_addc(b, '(');
		for (uint32_t i = 0; i < c->n; i++) {
			if (i)
				ca_buf_addc(b, ',');
			up_expr(u, c->args[i]);
		}
		ca_buf_addc(b, ')');
		return;
	}
	case CA_K_LIST:
		up_list(u, ca_as_list(e));
		return;
	case CA_K_AD:
		up_ad(u, ((const struct ca_adlit *)e)->ad);
		return;
	case CA_K_SCOPEREF: {
		const struct ca_scope *s = ((const struct ca_scoperef *)e)->scope;
		if (s)
			up_ad(u, s->ad);
		else
			ca_buf_adds(b, "undefined");
		return;
	}
	}
}

void ca_unparse_ad_attrs(struct classad_buf *b, const classad *ad, bool old)
{
	struct up u = {b, old, false, 0, false};
	up_ad(&u, ad);
}

void ca_unparse_value(struct classad_buf *b, const classad_value *v, bool old)
{
	struct up u = {b, old, false, 0, false};
	up_value(&u, v);
}

void ca_unparse_value_lossy(struct classad_buf *b, const classad_value *v)
{
	struct up u = {b, false, false, 0, true};
	up_value(&u, v);
}

void ca_unparse_expr(struct classad_buf *b, const classad_expr *e, bool old)
{
	struct up u = {b, old, false, 0, false};
	up_expr(&u, e);
}

void ca_unparse_expr_lossy(struct classad_buf *b, const classad_expr *e)
{
	struct up u = {b, false, false, 0, true};
	up_expr(&u, e);
}

void ca_unparse_pretty(struct classad_buf *b, const classad_expr *e)
{
	struct up u = {b, false, true, 0, false};
	up_expr(&u, e);
}

char *classad_expr_unparse(const classad_expr *e, bool old)
{
	struct classad_buf b = {0};
	ca_unparse_expr(&b, e, old);
	return ca_buf_take(&b);
}

void classad_expr_unparse_buf(struct classad_buf *b, const classad_expr *e,
			      bool old)
{
	ca_unparse_expr(b, e, old);
}

void classad_unparse_buf(struct classad_buf *b, const classad *ad,
			 enum classad_format fmt)
{
	switch (fmt) {
	case CLASSAD_FMT_NEW:
		ca_unparse_ad_attrs(b, ad, false);
		return;
	case CLASSAD_FMT_OLD:
		for (uint32_t i = 0; i < ad->n; i++) {
			const struct ca_entry *en = &ad->ents[i];
			if (!en->name)
				continue;
			classad_buf_add(b, en->name->s, en->name->len);
			ca_buf_adds(b, " = ");
			ca_unparse_expr(b, en->expr, true);
			ca_buf_addc(b, '\n');
		}
		return;
	case CLASSAD_FMT_JSON:
		classad_unparse_json_buf(b, ad, false);
		return;
	}
}

char *classad_unparse(const classad *ad, enum classad_format fmt)
{
	struct classad_buf b = {0};
	classad_unparse_buf(&b, ad, fmt);
	return ca_buf_take(&b);
}
