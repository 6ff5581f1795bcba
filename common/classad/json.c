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

static void js_ad_open(void *arg)
{
	struct js *j = arg;
	ca_buf_addc(j->b, '{');
	j->indent += 2;
}

static void js_attr_open(void *arg, const struct ca_str *name, bool first)
{
	struct js *j = arg;
	if (!first)
		ca_buf_addc(j->b, ',');
	js_newline(j);
	ca_buf_addc(j->b, '"');
	js_escape(j->b, name->s, name->len);
	ca_buf_adds(j->b, "\": ");
}

static void js_ad_close(void *arg)
{
	struct js *j = arg;
	j->indent -= 2;
	js_newline(j);
	ca_buf_addc(j->b, '}');
}

static void js_list_open(void *arg)
{
	struct js *j = arg;
	ca_buf_addc(j->b, '[');
	j->indent += 2;
}

static void js_item(void *arg, bool first)
{
	struct js *j = arg;
	if (!first)
		ca_buf_addc(j->b, ',');
	js_newline(j);
}

static void js_list_close(void *arg)
{
	struct js *j = arg;
	j->indent -= 2;
	js_newline(j);
	ca_buf_addc(j->b, ']');
}

/* A relTime literal is its number of seconds, a real, as HTCondor's JSON
 * writer sees it. */
static void js_scalar(void *arg, const classad_value *v, bool reltime)
{
	(void)reltime;
	struct js *j = arg;
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
	default: /* error and times: as expressions */
		ca_unparse_value(&t, v, false);
		js_quoted_expr(b, t.data, t.len);
		free(t.data);
		return;
	}
}

static void js_expr(void *arg, const classad_expr *e)
{
	js_expr_text(((struct js *)arg)->b, e);
}

static const struct ca_walk js_walk = {
	.ad_open = js_ad_open,
	.attr_open = js_attr_open,
	.ad_close = js_ad_close,
	.list_open = js_list_open,
	.item = js_item,
	.list_close = js_list_close,
	.scalar = js_scalar,
	.expr = js_expr,
};

void classad_unparse_json_buf(struct classad_buf *b, const classad *ad,
			      bool oneline)
{
	struct js j = {b, oneline, 0};
	ca_walk_ad(&js_walk, &j, ad);
}
