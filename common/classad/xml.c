/*
 * xml.c: ads as XML, written as HTCondor's XML unparser writes them
 * (condor_q -xml, condor_status -xml): "<c>" holding one
 * "<a n=\"Name\">" per attribute, literals as typed elements, every
 * other expression as "<e>" holding its new-syntax text.  Nothing reads
 * this form back: it is for people and for other programs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "classad_int.h"

struct xs {
	struct classad_buf *b;
	bool compact;
	int indent; /* of the ad being written; its attributes are 4 deeper */
};

/* Text as HTCondor's unparser writes a string for XML: the escapes of a
 * new-syntax string literal (backslashes, control characters, octal for
 * bytes that are not printable ASCII), then &, < and > as entities.
 * delim is escaped with a backslash: '"' in a name written as an XML
 * attribute value, none (0) in an element's text -- where HTCondor,
 * comparing each byte with that 0, writes a NUL byte as \'. */
static void xml_text(struct classad_buf *b, const char *s, size_t len,
		     char delim)
{
	classad_buf_reserve(b, len);
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		const char *esc = NULL;
		if (c == delim) {
			ca_buf_adds(b, delim == '"' ? "\\\"" : "\\'");
			continue;
		}
		/* new syntax's escapes (UTF-8 as octal, as HTCondor's
		 * isprint() of a signed char makes it), and the three
		 * entities */
		char tmp[8];
		switch (c) {
		case '&': esc = "&amp;"; break;
		case '<': esc = "&lt;"; break;
		case '>': esc = "&gt;"; break;
		default: esc = ca_char_escape(c, tmp);
		}
		if (esc)
			ca_buf_adds(b, esc);
		else
			ca_buf_addc(b, c);
	}
}

/* Only &, < and > need entities in an expression's text: its strings and
 * names already carry their escapes, and HTCondor escapes those three
 * wherever they appear (operators, strings, quoted names). */
static void xml_entities(struct classad_buf *b, const char *s, size_t len)
{
	classad_buf_reserve(b, len);
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': ca_buf_adds(b, "&amp;"); break;
		case '<': ca_buf_adds(b, "&lt;"); break;
		case '>': ca_buf_adds(b, "&gt;"); break;
		default: ca_buf_addc(b, s[i]); break;
		}
	}
}

static void xml_indent(struct xs *x, int n)
{
	if (x->compact)
		return;
	for (int i = 0; i < n; i++)
		ca_buf_addc(x->b, ' ');
}

static void xml_ad_open(void *arg)
{
	struct xs *x = arg;
	ca_buf_adds(x->b, "<c>");
	if (!x->compact)
		ca_buf_addc(x->b, '\n');
	x->indent += 4;
}

static void xml_attr_open(void *arg, const struct ca_str *name, bool first)
{
	(void)first;
	struct xs *x = arg;
	xml_indent(x, x->indent);
	ca_buf_adds(x->b, "<a n=\"");
	xml_text(x->b, name->s, name->len, '"');
	ca_buf_adds(x->b, "\">");
}

static void xml_attr_close(void *arg)
{
	struct xs *x = arg;
	ca_buf_adds(x->b, "</a>");
	if (!x->compact)
		ca_buf_addc(x->b, '\n');
}

/* A nested ad ends its last line where its attribute goes on ("</c></a>");
 * only the outermost ends with a newline. */
static void xml_ad_close(void *arg)
{
	struct xs *x = arg;
	x->indent -= 4;
	xml_indent(x, x->indent);
	ca_buf_adds(x->b, "</c>");
	if (!x->compact && x->indent == 0)
		ca_buf_addc(x->b, '\n');
}

static void xml_list_open(void *arg)
{
	ca_buf_adds(((struct xs *)arg)->b, "<l>");
}

static void xml_list_close(void *arg)
{
	ca_buf_adds(((struct xs *)arg)->b, "</l>");
}

/* HTCondor's XML reals: zero (either sign) as 0.0, NaN and INF by name,
 * else %1.15E, whether or not 16 digits give the double back. */
static void xml_real(struct classad_buf *b, double r)
{
	char tmp[64];
	if (r == 0.0)
		ca_buf_adds(b, "0.0");
	else if (isnan(r))
		ca_buf_adds(b, "NaN");
	else if (isinf(r))
		ca_buf_adds(b, r < 0 ? "-INF" : "INF");
	else {
		snprintf(tmp, sizeof tmp, "%1.15E", r);
		ca_buf_adds(b, tmp);
	}
}

static void xml_scalar(void *arg, const classad_value *v, bool reltime)
{
	struct classad_buf *b = ((struct xs *)arg)->b;
	if (reltime && v->type == CLASSAD_REAL) {
		ca_buf_adds(b, "<rt>");
		ca_reltime_to_string(b, v->u.r, false);
		ca_buf_adds(b, "</rt>");
		return;
	}
	switch (v->type) {
	case CLASSAD_STRING:
		ca_buf_adds(b, "<s>");
		xml_text(b, v->u.s->s, v->u.s->len, '\0');
		ca_buf_adds(b, "</s>");
		return;
	case CLASSAD_INTEGER:
		ca_buf_adds(b, "<i>");
		ca_buf_add_int(b, v->u.i);
		ca_buf_adds(b, "</i>");
		return;
	case CLASSAD_REAL:
		ca_buf_adds(b, "<r>");
		xml_real(b, v->u.r);
		ca_buf_adds(b, "</r>");
		return;
	case CLASSAD_BOOLEAN:
		ca_buf_adds(b, v->u.b ? "<b v=\"t\"/>" : "<b v=\"f\"/>");
		return;
	case CLASSAD_UNDEFINED:
		ca_buf_adds(b, "<un/>");
		return;
	case CLASSAD_ERROR:
		ca_buf_adds(b, "<er/>");
		return;
	case CLASSAD_ABSTIME:
		ca_buf_adds(b, "<at>");
		ca_abstime_to_string(b, v->u.abs.secs, v->u.abs.offset);
		ca_buf_adds(b, "</at>");
		return;
	case CLASSAD_RELTIME:
		ca_buf_adds(b, "<rt>");
		ca_reltime_to_string(b, v->u.r, false);
		ca_buf_adds(b, "</rt>");
		return;
	default: /* lists and ads are walked into */
		return;
	}
}

static void xml_expr(void *arg, const classad_expr *e)
{
	struct classad_buf *b = ((struct xs *)arg)->b;
	struct classad_buf t = {0};
	ca_unparse_expr_lossy(&t, e);
	ca_buf_adds(b, "<e>");
	xml_entities(b, t.data ? t.data : "", t.len);
	ca_buf_adds(b, "</e>");
	free(t.data);
}

static const struct ca_walk xml_walk = {
	.ad_open = xml_ad_open,
	.attr_open = xml_attr_open,
	.attr_close = xml_attr_close,
	.ad_close = xml_ad_close,
	.list_open = xml_list_open,
	.list_close = xml_list_close,
	.scalar = xml_scalar,
	.expr = xml_expr,
};

void classad_unparse_xml_buf(struct classad_buf *b, const classad *ad,
			     bool compact)
{
	struct xs x = {b, compact, 0};
	ca_walk_ad(&xml_walk, &x, ad);
}

void classad_xml_header_buf(struct classad_buf *b)
{
	ca_buf_adds(b, "<?xml version=\"1.0\"?>\n"
		       "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n"
		       "<classads>\n");
}

void classad_xml_footer_buf(struct classad_buf *b)
{
	ca_buf_adds(b, "</classads>\n");
}
