/*
 * sort.c: the order of the rows.  Each ad gets a text key, one line per
 * sort expression and its arrival number last, compared as HTCondor
 * compares them (natural order, so slot2 comes before slot10).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "status.h"

bool st_sort_add(struct st_sort *s, const char *text)
{
	classad_expr *e = classad_parse_expr(text, strlen(text), NULL);
	if (!e)
		return false;
	s->keys = ks_xrealloc(s->keys, (s->n + 1) * sizeof *s->keys);
	s->texts = ks_xrealloc(s->texts, (s->n + 1) * sizeof *s->texts);
	s->keys[s->n] = e;
	s->texts[s->n] = ks_xstrdup(text);
	s->n++;
	return true;
}

void st_sort_force_primary(struct st_sort *s, const char *attr,
			   const char *text)
{
	bool first_is_attr = s->n && strcasecmp(attr, s->texts[0]) == 0;
	if (s->n && s->texts[0][0] && first_is_attr &&
	    strcasecmp(text, s->texts[0]) == 0)
		return;
	classad_expr *e = classad_parse_expr(text, strlen(text), NULL);
	if (!e)
		return;
	if (first_is_attr) {
		classad_expr_free(s->keys[0]);
		free(s->texts[0]);
		s->keys[0] = e;
		s->texts[0] = ks_xstrdup(text);
		return;
	}
	s->keys = ks_xrealloc(s->keys, (s->n + 1) * sizeof *s->keys);
	s->texts = ks_xrealloc(s->texts, (s->n + 1) * sizeof *s->texts);
	memmove(s->keys + 1, s->keys, s->n * sizeof *s->keys);
	memmove(s->texts + 1, s->texts, s->n * sizeof *s->texts);
	s->keys[0] = e;
	s->texts[0] = ks_xstrdup(text);
	s->n++;
}

void st_sort_key(const struct st_sort *s, const classad *ad, unsigned ord,
		 struct classad_buf *key)
{
	for (size_t i = 0; i < s->n; i++) {
		classad_value v = CLASSAD_VALUE_INIT;
		if (classad_eval_expr(ad, s->keys[i], NULL, &v) == 0) {
			long long bits;
			switch (v.type) {
			case CLASSAD_REAL:
				/* the bits of a double order as the double
				 * does (for positive numbers), which HTCondor
				 * relies on */
				memcpy(&bits, &v.u.r, sizeof bits);
				classad_buf_printf(key, "%lld", bits);
				break;
			case CLASSAD_INTEGER:
				classad_buf_printf(key, "%lld", (long long)v.u.i);
				break;
			case CLASSAD_BOOLEAN:
				classad_buf_printf(key, "%d", v.u.b ? 1 : 0);
				break;
			case CLASSAD_STRING:
				tf_buf_add(key, classad_value_str(&v, NULL));
				break;
			default:
				tf_value_unparse(key, &v, false);
				break;
			}
		}
		classad_value_clear(&v);
		tf_buf_addc(key, '\n');
	}
	classad_buf_printf(key, "%08X", ord);
}

void st_sort_free(struct st_sort *s)
{
	for (size_t i = 0; i < s->n; i++) {
		classad_expr_free(s->keys[i]);
		free(s->texts[i]);
	}
	free(s->keys);
	free(s->texts);
	memset(s, 0, sizeof *s);
}
