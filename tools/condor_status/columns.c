/*
 * columns.c: tables of columns, as HTCondor's print masks lay them out.
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
#include "status.h"

static char *st_dup(const char *s)
{
	return s ? ks_xstrdup(s) : NULL;
}

void st_mask_free(struct st_mask *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct st_col *c = &m->cols[i];
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

void st_mask_set_seps(struct st_mask *m, const char *rpre, const char *cpre,
		      const char *cpost, const char *rpost)
{
	free(m->row_prefix);
	free(m->col_prefix);
	free(m->col_suffix);
	free(m->row_suffix);
	m->row_prefix = st_dup(rpre);
	m->col_prefix = st_dup(cpre);
	m->col_suffix = st_dup(cpost);
	m->row_suffix = st_dup(rpost);
}

struct st_col *st_mask_add(struct st_mask *m, const char *expr,
			   const char *heading, const char *printf, int width,
			   unsigned opts, enum st_kind kind, st_render_fn render,
			   st_format_fn format)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->cols = ks_xrealloc(m->cols, m->cap * sizeof *m->cols);
	}
	struct st_col *c = &m->cols[m->n++];
	memset(c, 0, sizeof *c);
	c->expr = ks_xstrdup(expr);
	c->heading = st_dup(heading);
	if (heading)
		m->has_headings = true;
	c->width = abs(width);
	c->opts = opts;
	if (width < 0)
		c->opts |= ST_LEFT;
	c->kind = kind;
	c->render = render;
	c->format = format;
	if (printf) {
		c->printf = st_collapse_escapes(printf);
		struct st_spec sp;
		st_spec_parse(c->printf, &sp);
		if (sp.found) {
			c->type = sp.type;
			if (!width && !sp.unsafe) {
				c->width = sp.width;
				if (sp.left)
					c->opts |= ST_LEFT;
			}
		}
	}
	/* An attribute missing from an ad is evaluated as an expression, so
	 * parse the text once; text that does not parse shows nothing. */
	c->parsed = classad_parse_expr(expr, strlen(expr), NULL);
	return c;
}

void st_row_free(struct st_row *row)
{
	for (size_t i = 0; i < row->n; i++)
		classad_value_clear(&row->v[i]);
	free(row->v);
	free(row->valid);
	memset(row, 0, sizeof *row);
}

/* True if text is a bare attribute reference (a.b, MY.x), which -af:r
 * shows as "undefined" when the ad lacks it. */
static bool st_is_attr_ref(const char *text)
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

static size_t st_width_abs(int w)
{
	return (size_t)(w < 0 ? -w : w);
}

static void st_grow(struct st_col *c, size_t w)
{
	if ((int)w > c->width)
		c->width = (int)w;
}

/* Formats a number as a printf column would, padded on the left to the
 * column's width. */
static void st_format_number(struct classad_buf *b, const struct st_col *c,
			     enum st_pft type, const classad_value *v)
{
	struct st_spec sp;
	st_spec_parse(c->printf ? c->printf : "", &sp);
	size_t start = b->len;
	long long i = 0;
	double r = 0;
	switch (type) {
	case ST_PFT_FLOAT:
		st_value_real(v, &r);
		st_format_double(b, c->printf, &sp, r);
		break;
	case ST_PFT_TIME:
		st_value_int(v, &i);
		st_format_time(b, i);
		break;
	case ST_PFT_DATE:
		st_value_int(v, &i);
		st_format_date(b, i);
		break;
	default:
		st_value_int(v, &i);
		st_format_int(b, c->printf, &sp, i);
		break;
	}
	size_t len = b->len - start;
	if (c->width > 0 && (size_t)c->width > len) {
		/* right-align inside the column */
		struct classad_buf t = {0};
		st_buf_add(&t, b->data + start);
		st_buf_truncate(b, start);
		st_buf_pad(b, ' ', (size_t)c->width - len);
		st_buf_add(b, st_buf_str(&t));
		st_buf_free(&t);
	}
}

/* How wide a rendered value will be, for a column of automatic width. */
static size_t st_value_width(const struct st_col *c, const classad_value *v)
{
	struct classad_buf t = {0};
	size_t w = st_width_abs(c->width);
	switch (v->type) {
	case CLASSAD_REAL:
	case CLASSAD_INTEGER:
		if (c->type == ST_PFT_FLOAT || c->type == ST_PFT_INT ||
		    c->type == ST_PFT_TIME || c->type == ST_PFT_DATE ||
		    (c->type == ST_PFT_POINTER && v->type == CLASSAD_INTEGER)) {
			st_format_number(&t, c, c->type, v);
			w = t.len;
		} else if (c->type == ST_PFT_VALUE ||
			   c->type == ST_PFT_STRING || c->type == ST_PFT_RAW) {
			if (v->type == CLASSAD_REAL)
				st_value_unparse(&t, v, false);
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
	st_buf_free(&t);
	return w;
}

static void st_set_string(classad_value *v, const char *s)
{
	classad_value_set_string(v, s, strlen(s));
}

static void st_render_col(struct st_col *c, const classad *ad,
			  classad_value *v, bool *valid)
{
	enum st_pft type = ST_PFT_VALUE;
	bool no_data = false;
	struct st_spec sp;
	switch (c->kind) {
	case ST_K_INT_FMT: type = ST_PFT_INT; break;
	case ST_K_FLT_FMT: type = ST_PFT_FLOAT; break;
	case ST_K_STR_FMT: type = ST_PFT_STRING; break;
	case ST_K_VAL_FMT: type = ST_PFT_VALUE; break;
	case ST_K_PRINTF:
		if (c->printf) {
			st_spec_parse(c->printf, &sp);
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
		st_set_string(v, c->printf ? c->printf : "");
		if (c->opts & ST_AUTOW)
			st_grow(c, strlen(c->printf ? c->printf : ""));
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
		if (c->kind == ST_K_PRINTF && type == ST_PFT_STRING && !is_expr) {
			/* %s of an attribute that is not a string shows the
			 * attribute's text */
			classad_value s = CLASSAD_VALUE_INIT;
			classad_eval_attr(ad, c->expr, NULL, &s);
			if (s.type != CLASSAD_STRING)
				type = ST_PFT_RAW;
			classad_value_clear(&s);
		}
		if (type == ST_PFT_RAW) {
			if (is_expr && st_is_attr_ref(c->expr)) {
				st_set_string(v, "undefined");
			} else {
				char *t = classad_expr_unparse(tree, true);
				st_set_string(v, t);
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
	case ST_K_INT_RENDER:
		st_value_int(v, &i);
		classad_value_set_int(v, i);
		*valid = c->render(v, ad, c);
		break;
	case ST_K_FLT_RENDER:
		st_value_real(v, &r);
		classad_value_set_real(v, r);
		*valid = c->render(v, ad, c);
		break;
	case ST_K_STR_RENDER:
		if (v->type != CLASSAD_STRING)
			st_set_string(v, "");
		*valid = c->render(v, ad, c);
		break;
	case ST_K_VAL_RENDER:
		*valid = c->render(v, ad, c);
		break;
	default:
		if (!*valid)
			break;
		if (type == ST_PFT_INT || type == ST_PFT_CHAR ||
		    type == ST_PFT_TIME) {
			*valid = st_value_int(v, &i);
			classad_value_set_int(v, i);
		} else if (type == ST_PFT_FLOAT) {
			*valid = st_value_real(v, &r);
			classad_value_set_real(v, r);
		} else if (type == ST_PFT_STRING) {
			*valid = v->type == CLASSAD_STRING;
		} else if (type == ST_PFT_DATE) {
			if (st_value_int(v, &i))
				classad_value_set_int(v, i);
			else
				*valid = v->type == CLASSAD_ABSTIME;
		}
		break;
	}

	if (*valid && (c->opts & ST_AUTOW))
		st_grow(c, st_value_width(c, v));
}

void st_mask_render(struct st_mask *m, const classad *ad, struct st_row *row)
{
	st_row_free(row);
	row->n = m->n;
	row->v = ks_xcalloc(m->n ? m->n : 1, sizeof *row->v);
	row->valid = ks_xcalloc(m->n ? m->n : 1, sizeof *row->valid);
	for (size_t i = 0; i < m->n; i++)
		st_render_col(&m->cols[i], ad, &row->v[i], &row->valid[i]);
}

/* The text HTCondor shows for a value that is not valid: one alt
 * character, or the column's width of them ("[???]" for '?'). */
static void st_alt_text(const struct st_col *c, struct classad_buf *b)
{
	if (c->alt_wide) {
		size_t w = st_width_abs(c->width);
		if (!w)
			return;
		if (w < 3) {
			st_buf_addc(b, c->alt);
		} else if (c->alt == '?') {
			st_buf_addc(b, '[');
			st_buf_pad(b, '?', w - 2);
			st_buf_addc(b, ']');
		} else {
			st_buf_pad(b, c->alt, w);
		}
	} else if (c->alt && c->alt != ' ') {
		st_buf_addc(b, c->alt);
	}
}

/* The text of one cell, before alignment. */
static void st_cell_text(struct st_col *c, const classad_value *v, bool valid,
			 struct classad_buf *t)
{
	const char *pf = c->printf;
	if (pf && (!pf[0] || strcmp(pf, "%s") == 0))
		pf = NULL;
	bool done = false;
	long long i = 0;
	double r = 0;
	if (valid || (c->opts & ST_ALWAYS)) {
		classad_value cv = CLASSAD_VALUE_INIT;
		switch (c->kind) {
		case ST_K_INT_FMT:
			st_value_int(v, &i);
			classad_value_set_int(&cv, i);
			c->format(&cv, t, c);
			done = true;
			break;
		case ST_K_FLT_FMT:
			st_value_real(v, &r);
			classad_value_set_real(&cv, r);
			c->format(&cv, t, c);
			done = true;
			break;
		case ST_K_STR_FMT:
		case ST_K_VAL_FMT:
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
		st_alt_text(c, t);
		return;
	}
	const char *str = classad_value_str(v, NULL);
	if (!pf) {
		if (str)
			st_buf_add(t, str);
		return;
	}
	struct st_spec sp;
	st_spec_parse(pf, &sp);
	if (!sp.found || sp.unsafe) {
		st_buf_add(t, pf);
		return;
	}
	switch (sp.type) {
	case ST_PFT_TIME:
	case ST_PFT_DATE:
	case ST_PFT_INT:
	case ST_PFT_POINTER:
	case ST_PFT_CHAR:
	case ST_PFT_FLOAT:
		st_format_number(t, c, sp.type, v);
		break;
	case ST_PFT_STRING:
		st_format_str(t, pf, &sp, str);
		break;
	case ST_PFT_RAW:
	case ST_PFT_VALUE: {
		/* %v prints strings bare, %V quotes them */
		struct classad_buf u = {0};
		if (str && sp.letter != 'V')
			st_buf_add(&u, str);
		else
			st_value_unparse(&u, v, true);
		st_format_str(t, pf, &sp, st_buf_str(&u));
		st_buf_free(&u);
		break;
	}
	default:
		break;
	}
}

void st_mask_display(struct st_mask *m, struct st_row *row, struct classad_buf *out)
{
	size_t row_start = out->len;
	if (m->row_prefix)
		st_buf_add(out, m->row_prefix);
	struct classad_buf t = {0};
	for (size_t ic = 0; ic < m->n; ic++) {
		struct st_col *c = &m->cols[ic];
		if (m->col_prefix && ic > 0 && !(c->opts & ST_NOPREFIX))
			st_buf_add(out, m->col_prefix);
		st_buf_truncate(&t, 0);
		static const classad_value undef = CLASSAD_VALUE_INIT;
		const classad_value *v = ic < row->n ? &row->v[ic] : &undef;
		bool valid = ic < row->n && row->valid[ic];
		st_cell_text(c, v, valid, &t);
		size_t len = t.len;
		if (c->opts & ST_AUTOW)
			st_grow(c, len);
		if (!c->width) {
			classad_buf_add(out, st_buf_str(&t), len);
		} else {
			size_t wid = st_width_abs(c->width);
			if (len > wid) {
				classad_buf_add(out, st_buf_str(&t),
					    (c->opts & ST_NOTRUNC) ? len : wid);
			} else if (c->width < 0 || (c->opts & ST_LEFT)) {
				classad_buf_add(out, st_buf_str(&t), len);
				st_buf_pad(out, ' ', wid - len);
			} else {
				st_buf_pad(out, ' ', wid - len);
				classad_buf_add(out, st_buf_str(&t), len);
			}
		}
		if (m->col_suffix && ic + 1 < m->n && !(c->opts & ST_NOSUFFIX))
			st_buf_add(out, m->col_suffix);
	}
	st_buf_free(&t);
	if (m->overall_width > 0 &&
	    out->len - row_start > (size_t)m->overall_width)
		st_buf_truncate(out, row_start + (size_t)m->overall_width);
	if (m->row_suffix)
		st_buf_add(out, m->row_suffix);
}

void st_mask_headings(struct st_mask *m, struct classad_buf *out)
{
	size_t start = out->len;
	if (m->row_prefix)
		st_buf_add(out, m->row_prefix);
	for (size_t ic = 0; ic < m->n; ic++) {
		struct st_col *c = &m->cols[ic];
		if (!c->heading)
			break; /* headings stop at the first column without */
		if (ic != 0 && m->col_prefix && !(c->opts & ST_NOPREFIX))
			st_buf_add(out, m->col_prefix);
		size_t len = strlen(c->heading);
		st_buf_add(out, c->heading);
		size_t wid = st_width_abs(c->width);
		if (c->width && wid > len)
			st_buf_pad(out, ' ', wid - len);
		if (ic + 1 < m->n && m->col_suffix && !(c->opts & ST_NOSUFFIX))
			st_buf_add(out, m->col_suffix);
	}
	if (m->overall_width > 0 && out->len - start > (size_t)m->overall_width)
		st_buf_truncate(out, start + (size_t)m->overall_width);
	if (m->row_suffix)
		st_buf_add(out, m->row_suffix);
}
