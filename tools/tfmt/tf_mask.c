/*
 * tf_mask.c: tables of columns, as HTCondor's print masks lay them out.
 *
 * A row is rendered from its ad first (the value of each column, and
 * whether it is valid), then displayed.  Columns with an automatic width
 * grow at both steps, as HTCondor's do: all rows are rendered before the
 * headings are written, so headings and rows line up, while a width that
 * grows only when displaying (booleans, lists) moves later rows alone.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "tfmt.h"

static char *tf_dup(const char *s)
{
	return s ? ks_xstrdup(s) : NULL;
}

void tf_mask_free(struct tf_mask *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct tf_col *c = &m->cols[i];
		free(c->expr);
		free(c->heading);
		free(c->printf);
		classad_expr_free(c->parsed);
	}
	free(m->cols);
	free(m->row_prefix);
	free(m->col_prefix);
	free(m->col_suffix);
	free(m->row_suffix);
	memset(m, 0, sizeof *m);
}

void tf_mask_set_seps(struct tf_mask *m, const char *rpre, const char *cpre,
		      const char *cpost, const char *rpost)
{
	free(m->row_prefix);
	free(m->col_prefix);
	free(m->col_suffix);
	free(m->row_suffix);
	m->row_prefix = tf_dup(rpre);
	m->col_prefix = tf_dup(cpre);
	m->col_suffix = tf_dup(cpost);
	m->row_suffix = tf_dup(rpost);
}

struct tf_col *tf_mask_add(struct tf_mask *m, const char *expr,
			   const char *heading, const char *printf, int width,
			   unsigned opts, enum tf_kind kind, tf_render_fn render,
			   tf_format_fn format)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->cols = ks_xrealloc(m->cols, m->cap * sizeof *m->cols);
	}
	struct tf_col *c = &m->cols[m->n++];
	memset(c, 0, sizeof *c);
	c->expr = ks_xstrdup(expr);
	c->heading = tf_dup(heading);
	if (heading)
		m->has_headings = true;
	c->width = abs(width);
	c->opts = opts;
	if (width < 0)
		c->opts |= TF_LEFT;
	c->kind = kind;
	c->render = render;
	c->format = format;
	if (printf) {
		c->printf = tf_collapse_escapes(printf);
		struct tf_spec sp;
		tf_spec_parse(c->printf, &sp);
		if (sp.found) {
			c->type = sp.type;
			if (!width && !sp.unsafe) {
				c->width = sp.width;
				if (sp.left)
					c->opts |= TF_LEFT;
			}
		}
	}
	/* An attribute missing from an ad is evaluated as an expression, so
	 * parse the text once; text that does not parse shows nothing. */
	c->parsed = classad_parse_expr(expr, strlen(expr), NULL);
	return c;
}

void tf_row_free(struct tf_row *row)
{
	for (size_t i = 0; i < row->n; i++)
		classad_value_clear(&row->v[i]);
	free(row->v);
	free(row->valid);
	memset(row, 0, sizeof *row);
}

/* True if text is a bare attribute reference (a.b, MY.x), which -af:r
 * shows as "undefined" when the ad lacks it. */
static bool tf_is_attr_ref(const char *text)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return false;
	for (; *p; p++) {
		if (!(*p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
			break;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\0';
}

static size_t tf_width_abs(int w)
{
	return (size_t)(w < 0 ? -w : w);
}

static void tf_grow(struct tf_col *c, size_t w)
{
	if ((int)w > c->width)
		c->width = (int)w;
}

/* Formats a number as a printf column would, padded on the left to the
 * column's width. */
static void tf_format_number(struct classad_buf *b, const struct tf_col *c,
			     enum tf_pft type, const classad_value *v)
{
	struct tf_spec sp;
	tf_spec_parse(c->printf ? c->printf : "", &sp);
	size_t start = b->len;
	long long i = 0;
	double r = 0;
	switch (type) {
	case TF_PFT_FLOAT:
		tf_value_real(v, &r);
		tf_format_double(b, c->printf, &sp, r);
		break;
	case TF_PFT_TIME:
		tf_value_int(v, &i);
		tf_format_time(b, i);
		break;
	case TF_PFT_DATE:
		tf_value_int(v, &i);
		tf_format_date(b, i);
		break;
	default:
		tf_value_int(v, &i);
		tf_format_int(b, c->printf, &sp, i);
		break;
	}
	size_t len = b->len - start;
	if (c->width > 0 && (size_t)c->width > len) {
		/* right-align inside the column */
		struct classad_buf t = {0};
		tf_buf_add(&t, b->data + start);
		tf_buf_truncate(b, start);
		tf_buf_pad(b, ' ', (size_t)c->width - len);
		tf_buf_add(b, tf_buf_str(&t));
		tf_buf_free(&t);
	}
}

/* How wide a rendered value will be, for a column of automatic width. */
static size_t tf_value_width(const struct tf_col *c, const classad_value *v)
{
	struct classad_buf t = {0};
	size_t w = tf_width_abs(c->width);
	switch (v->type) {
	case CLASSAD_REAL:
	case CLASSAD_INTEGER:
		if (c->type == TF_PFT_FLOAT || c->type == TF_PFT_INT ||
		    c->type == TF_PFT_TIME || c->type == TF_PFT_DATE ||
		    (c->type == TF_PFT_POINTER && v->type == CLASSAD_INTEGER)) {
			tf_format_number(&t, c, c->type, v);
			w = t.len;
		} else if (c->type == TF_PFT_VALUE ||
			   c->type == TF_PFT_STRING || c->type == TF_PFT_RAW) {
			if (v->type == CLASSAD_REAL)
				tf_value_unparse(&t, v, false);
			else
				classad_buf_printf(&t, "%lld", (long long)v->u.i);
			w = t.len;
		}
		break;
	case CLASSAD_STRING: {
		size_t len = 0;
		classad_value_str(v, &len);
		w = len;
		break;
	}
	default:
		break;
	}
	tf_buf_free(&t);
	return w;
}

static void tf_set_string(classad_value *v, const char *s)
{
	classad_value_set_string(v, s, strlen(s));
}

static void tf_render_col(struct tf_col *c, const classad *ad,
			  classad_value *v, bool *valid)
{
	enum tf_pft type = TF_PFT_VALUE;
	bool no_data = false;
	struct tf_spec sp;
	switch (c->kind) {
	case TF_K_INT_FMT: type = TF_PFT_INT; break;
	case TF_K_FLT_FMT: type = TF_PFT_FLOAT; break;
	case TF_K_STR_FMT: type = TF_PFT_STRING; break;
	case TF_K_VAL_FMT: type = TF_PFT_VALUE; break;
	case TF_K_PRINTF:
		if (c->printf) {
			tf_spec_parse(c->printf, &sp);
			if (!sp.found || sp.unsafe)
				no_data = true;
			type = sp.type;
		}
		break;
	default:
		break;
	}

	*valid = false;
	if (no_data) {
		/* a format without a conversion prints as text */
		tf_set_string(v, c->printf ? c->printf : "");
		if (c->opts & TF_AUTOW)
			tf_grow(c, strlen(c->printf ? c->printf : ""));
		*valid = true;
		return;
	}

	const classad_expr *tree = classad_lookup(ad, c->expr);
	bool is_expr = false;
	if (!tree) {
		tree = c->parsed;
		is_expr = true;
	}
	if (tree) {
		if (c->kind == TF_K_PRINTF && type == TF_PFT_STRING && !is_expr) {
			/* %s of an attribute that is not a string shows the
			 * attribute's text */
			classad_value s = CLASSAD_VALUE_INIT;
			classad_eval_attr(ad, c->expr, NULL, &s);
			if (s.type != CLASSAD_STRING)
				type = TF_PFT_RAW;
			classad_value_clear(&s);
		}
		if (type == TF_PFT_RAW) {
			if (is_expr && tf_is_attr_ref(c->expr)) {
				tf_set_string(v, "undefined");
			} else {
				char *t = classad_expr_unparse(tree, true);
				tf_set_string(v, t);
				free(t);
			}
			*valid = true;
		} else {
			classad_eval_expr(ad, tree, NULL, v);
			*valid = true;
		}
	}

	long long i = 0;
	double r = 0;
	switch (c->kind) {
	case TF_K_INT_RENDER:
		tf_value_int(v, &i);
		classad_value_set_int(v, i);
		*valid = c->render(v, ad, c);
		break;
	case TF_K_FLT_RENDER:
		tf_value_real(v, &r);
		classad_value_set_real(v, r);
		*valid = c->render(v, ad, c);
		break;
	case TF_K_STR_RENDER:
		if (v->type != CLASSAD_STRING)
			tf_set_string(v, "");
		*valid = c->render(v, ad, c);
		break;
	case TF_K_VAL_RENDER:
		*valid = c->render(v, ad, c);
		break;
	default:
		if (!*valid)
			break;
		if (type == TF_PFT_INT || type == TF_PFT_CHAR ||
		    type == TF_PFT_TIME) {
			*valid = tf_value_int(v, &i);
			classad_value_set_int(v, i);
		} else if (type == TF_PFT_FLOAT) {
			*valid = tf_value_real(v, &r);
			classad_value_set_real(v, r);
		} else if (type == TF_PFT_STRING) {
			*valid = v->type == CLASSAD_STRING;
		} else if (type == TF_PFT_DATE) {
			if (tf_value_int(v, &i))
				classad_value_set_int(v, i);
			else
				*valid = v->type == CLASSAD_ABSTIME;
		}
		break;
	}

	if (*valid && (c->opts & TF_AUTOW))
		tf_grow(c, tf_value_width(c, v));
}

void tf_mask_render(struct tf_mask *m, const classad *ad, struct tf_row *row)
{
	tf_row_free(row);
	row->n = m->n;
	row->v = ks_xcalloc(m->n ? m->n : 1, sizeof *row->v);
	row->valid = ks_xcalloc(m->n ? m->n : 1, sizeof *row->valid);
	for (size_t i = 0; i < m->n; i++)
		tf_render_col(&m->cols[i], ad, &row->v[i], &row->valid[i]);
}

/* The text HTCondor shows for a value that is not valid: one alt
 * character, or the column's width of them ("[???]" for '?'). */
static void tf_alt_text(const struct tf_col *c, struct classad_buf *b)
{
	if (c->alt_wide) {
		size_t w = tf_width_abs(c->width);
		if (!w)
			return;
		if (w < 3) {
			tf_buf_addc(b, c->alt);
		} else if (c->alt == '?') {
			tf_buf_addc(b, '[');
			tf_buf_pad(b, '?', w - 2);
			tf_buf_addc(b, ']');
		} else {
			tf_buf_pad(b, c->alt, w);
		}
	} else if (c->alt && c->alt != ' ') {
		tf_buf_addc(b, c->alt);
	}
}

/* The text of one cell, before alignment. */
static void tf_cell_text(struct tf_col *c, const classad_value *v, bool valid,
			 struct classad_buf *t)
{
	const char *pf = c->printf;
	if (pf && (!pf[0] || strcmp(pf, "%s") == 0))
		pf = NULL;
	bool done = false;
	long long i = 0;
	double r = 0;
	if (valid || (c->opts & TF_ALWAYS)) {
		classad_value cv = CLASSAD_VALUE_INIT;
		switch (c->kind) {
		case TF_K_INT_FMT:
			tf_value_int(v, &i);
			classad_value_set_int(&cv, i);
			c->format(&cv, t, c);
			done = true;
			break;
		case TF_K_FLT_FMT:
			tf_value_real(v, &r);
			classad_value_set_real(&cv, r);
			c->format(&cv, t, c);
			done = true;
			break;
		case TF_K_STR_FMT:
		case TF_K_VAL_FMT:
			c->format(v, t, c);
			done = true;
			break;
		default:
			break;
		}
		classad_value_clear(&cv);
		if (done)
			return;
	}
	if (!valid) {
		tf_alt_text(c, t);
		return;
	}
	const char *str = classad_value_str(v, NULL);
	if (!pf) {
		if (str)
			tf_buf_add(t, str);
		return;
	}
	struct tf_spec sp;
	tf_spec_parse(pf, &sp);
	if (!sp.found || sp.unsafe) {
		tf_buf_add(t, pf);
		return;
	}
	switch (sp.type) {
	case TF_PFT_TIME:
	case TF_PFT_DATE:
	case TF_PFT_INT:
	case TF_PFT_POINTER:
	case TF_PFT_CHAR:
	case TF_PFT_FLOAT:
		tf_format_number(t, c, sp.type, v);
		break;
	case TF_PFT_STRING:
		tf_format_str(t, pf, &sp, str);
		break;
	case TF_PFT_RAW:
	case TF_PFT_VALUE: {
		/* %v prints strings bare, %V quotes them */
		struct classad_buf u = {0};
		if (str && sp.letter != 'V')
			tf_buf_add(&u, str);
		else
			tf_value_unparse(&u, v, true);
		tf_format_str(t, pf, &sp, tf_buf_str(&u));
		tf_buf_free(&u);
		break;
	}
	default:
		break;
	}
}

void tf_mask_display(struct tf_mask *m, struct tf_row *row, struct classad_buf *out)
{
	size_t row_start = out->len;
	if (m->row_prefix)
		tf_buf_add(out, m->row_prefix);
	struct classad_buf t = {0};
	for (size_t ic = 0; ic < m->n; ic++) {
		struct tf_col *c = &m->cols[ic];
		if (c->opts & TF_HIDDEN)
			continue;
		if (m->col_prefix && ic > 0 && !(c->opts & TF_NOPREFIX))
			tf_buf_add(out, m->col_prefix);
		tf_buf_truncate(&t, 0);
		static const classad_value undef = CLASSAD_VALUE_INIT;
		const classad_value *v = ic < row->n ? &row->v[ic] : &undef;
		bool valid = ic < row->n && row->valid[ic];
		tf_cell_text(c, v, valid, &t);
		size_t len = t.len;
		if (c->opts & TF_AUTOW)
			tf_grow(c, len);
		if (!c->width) {
			classad_buf_add(out, tf_buf_str(&t), len);
		} else {
			size_t wid = tf_width_abs(c->width);
			if (len > wid) {
				classad_buf_add(out, tf_buf_str(&t),
					    (c->opts & TF_NOTRUNC) ? len : wid);
			} else if (c->width < 0 || (c->opts & TF_LEFT)) {
				classad_buf_add(out, tf_buf_str(&t), len);
				tf_buf_pad(out, ' ', wid - len);
			} else {
				tf_buf_pad(out, ' ', wid - len);
				classad_buf_add(out, tf_buf_str(&t), len);
			}
		}
		if (m->col_suffix && ic + 1 < m->n && !(c->opts & TF_NOSUFFIX))
			tf_buf_add(out, m->col_suffix);
	}
	tf_buf_free(&t);
	if (m->overall_width > 0 &&
	    out->len - row_start > (size_t)m->overall_width)
		tf_buf_truncate(out, row_start + (size_t)m->overall_width);
	if (m->row_suffix)
		tf_buf_add(out, m->row_suffix);
}

void tf_mask_headings(struct tf_mask *m, struct classad_buf *out)
{
	size_t start = out->len;
	if (m->row_prefix)
		tf_buf_add(out, m->row_prefix);
	for (size_t ic = 0; ic < m->n; ic++) {
		struct tf_col *c = &m->cols[ic];
		if (!c->heading)
			break; /* headings stop at the first column without */
		if (c->opts & TF_HIDDEN)
			continue;
		if (ic != 0 && m->col_prefix && !(c->opts & TF_NOPREFIX))
			tf_buf_add(out, m->col_prefix);
		size_t len = strlen(c->heading);
		tf_buf_add(out, c->heading);
		size_t wid = tf_width_abs(c->width);
		if (c->width && wid > len)
			tf_buf_pad(out, ' ', wid - len);
		if (ic + 1 < m->n && m->col_suffix && !(c->opts & TF_NOSUFFIX))
			tf_buf_add(out, m->col_suffix);
	}
	if (m->overall_width > 0 && out->len - start > (size_t)m->overall_width)
		tf_buf_truncate(out, start + (size_t)m->overall_width);
	if (m->row_suffix)
		tf_buf_add(out, m->row_suffix);
}

struct tf_col *tf_mask_add_def(struct tf_mask *m, const struct tf_coldef *d)
{
	const struct tf_custom *cu = d->custom ? tf_custom_find(d->custom) : NULL;
	struct tf_col *c = tf_mask_add(m, d->expr, d->head, d->printf, d->width,
				       d->opts, cu ? cu->kind : TF_K_PRINTF,
				       cu ? cu->render : NULL,
				       cu ? cu->format : NULL);
	c->alt = d->alt;
	c->alt_wide = d->alt_wide;
	c->extra = cu ? cu->extra : NULL;
	return c;
}

void tf_mask_add_defs(struct tf_mask *m, const struct tf_coldef *d)
{
	for (; d->expr; d++)
		tf_mask_add_def(m, d);
}
