/*
 * json.c: ads as JSON, written as HTCondor writes them (condor_q -json):
 * literals as JSON values, undefined as null, and every other expression
 * as a string "\/Expr(...)\/" holding its new-syntax text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "classad_int.h"

struct js {
	struct classad_buf *b;
	bool oneline;
	int indent;
};

static void js_escape(struct classad_buf *b, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		switch (c) {
		case '"': ca_buf_adds(b, "\\\""); continue;
		case '\b': ca_buf_adds(b, "\\b"); continue;
		case '\f': ca_buf_adds(b, "\\f"); continue;
		case '\n': ca_buf_adds(b, "\\n"); continue;
		case '\r': ca_buf_adds(b, "\\r"); continue;
		case '\t': ca_buf_adds(b, "\\t"); continue;
		case '\\': ca_buf_adds(b, "\\\\"); continue;
		default:
			if (c > 0 && c < 32) {
				classad_buf_printf(b, "\\u00%02X", (int)c);
				continue;
			}
			ca_buf_addc(b, c);
		}
	}
}

static void js_quoted_expr(struct classad_buf *b, const char *text,
			   size_t len)
{
	ca_buf_adds(b, "\"\\/Expr(");
	js_escape(b, text, len);
	ca_buf_adds(b, ")\\/\"");
}

static void js_expr_text(struct classad_buf *b, const classad_expr *e)
{
	struct classad_buf t = {0};
	ca_unparse_expr(&t, e, false);
	js_quoted_expr(b, t.data ? t.data : "", t.len);
	free(t.data);
}

static void js_newline(struct js *j)
{
	if (j->oneline)
		return;
	ca_buf_addc(j->b, '\n');
	for (int i = 0; i < j->indent; i++)
		ca_buf_addc(j->b, ' ');
}

static void js_expr(struct js *j, const classad_expr *e);

static void js_ad(struct js *j, const classad *ad)
{
	ca_buf_addc(j->b, '{');
	j->indent += 2;
	bool first = true;
	for (uint32_t i = 0; i < ad->n; i++) {
		const struct ca_entry *en = &ad->ents[i];
		if (!en->name)
			continue;
		if (!first)
			ca_buf_addc(j->b, ',');
		first = false;
		js_newline(j);
		ca_buf_addc(j->b, '"');
		js_escape(j->b, en->name->s, en->name->len);
		ca_buf_adds(j->b, "\": ");
		js_expr(j, en->expr);
	}
	j->indent -= 2;
	js_newline(j);
	ca_buf_addc(j->b, '}');
}

static void js_list(struct js *j, const struct ca_list *l)
{
	ca_buf_addc(j->b, '[');
	j->indent += 2;
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			ca_buf_addc(j->b, ',');
		js_newline(j);
		js_expr(j, l->items[i]);
	}
	j->indent -= 2;
	js_newline(j);
	ca_buf_addc(j->b, ']');
}

static void js_value(struct js *j, const classad_value *v)
{
	struct classad_buf *b = j->b;
	struct classad_buf t = {0};
	switch (v->type) {
	case CLASSAD_STRING:
		ca_buf_addc(b, '"');
		js_escape(b, v->u.s->s, v->u.s->len);
		ca_buf_addc(b, '"');
		return;
	case CLASSAD_INTEGER:
		ca_buf_add_int(b, v->u.i);
		return;
	case CLASSAD_REAL:
		if (isnan(v->u.r) || isinf(v->u.r)) {
			ca_unparse_real(&t, v->u.r, false);
			js_quoted_expr(b, t.data, t.len);
			free(t.data);
		} else {
			ca_unparse_real(b, v->u.r, true);
		}
		return;
	case CLASSAD_BOOLEAN:
		ca_buf_adds(b, v->u.b ? "true" : "false");
		return;
	case CLASSAD_UNDEFINED:
		ca_buf_adds(b, "null");
		return;
	case CLASSAD_LIST:
		js_list(j, ca_as_list(v->u.l.list));
		return;
	case CLASSAD_AD:
		js_ad(j, v->u.ad->ad);
		return;
	default: /* error and times: as expressions */
		ca_unparse_value(&t, v, false);
		js_quoted_expr(b, t.data, t.len);
		free(t.data);
		return;
	}
}

static void js_expr(struct js *j, const classad_expr *e)
{
	switch (e->kind) {
	case CA_K_LIT:
		/* A relTime literal is its number of seconds, a real. */
		js_value(j, &ca_as_lit(e)->v);
		return;
	case CA_K_LIST:
		js_list(j, ca_as_list(e));
		return;
	case CA_K_AD:
		js_ad(j, ((const struct ca_adlit *)e)->ad);
		return;
	default:
		js_expr_text(j->b, e);
		return;
	}
}

void classad_unparse_json_buf(struct classad_buf *b, const classad *ad,
			      bool oneline)
{
	struct js j = {b, oneline, 0};
	js_ad(&j, ad);
}
