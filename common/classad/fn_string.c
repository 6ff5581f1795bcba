/*
 * fn_string.c: strcat(), join(), toUpper(), toLower(), substr(), strcmp(),
 * stricmp(), versioncmp() and its comparisons, version_in_range(), split(),
 * splitUserName(), splitSlotName().
 */
#include <ctype.h>
#include <stdlib.h>

#include "fn.h"

/* Appends v converted to a string: 1 done, 0 undefined, -1 error. */
static int append_string(struct classad_buf *b, const classad_value *v)
{
	classad_value s = CLASSAD_VALUE_INIT;
	if (v->type == CLASSAD_STRING) {
		classad_buf_add(b, v->u.s->s, v->u.s->len);
		return 1;
	}
	ca_to_string(v, &s);
	int rc = s.type == CLASSAD_STRING ? 1 : s.type == CLASSAD_UNDEFINED ? 0
									    : -1;
	if (rc == 1)
		classad_buf_add(b, s.u.s->s, s.u.s->len);
	ca_value_clear(&s);
	return rc;
}

CA_FN(ca_fn_strcat)
{
	bool join = ca_is_name(c, "join");
	/* join(sep, list) and join(list): the items come from the list. */
	const classad_expr *const *args = (const classad_expr *const *)c->args;
	uint32_t n = c->n;
	classad_value lv = CLASSAD_VALUE_INIT;
	classad_expr **tmp = NULL;
	classad_expr *empty = NULL;
	if (join && n > 0 && n <= 2) {
		if (st->depth <= 0)
			return ca_fail(out);
		st->depth--;
		bool ok = ca_arg(st, c, n - 1, &lv);
		st->depth++;
		if (ok && lv.type == CLASSAD_LIST) {
			const struct ca_list *l = ca_as_list(lv.u.l.list);
			tmp = ks_xmalloc((l->n + 1) * sizeof(*tmp));
			if (n > 1)
				tmp[0] = c->args[0];
			else
				tmp[0] = empty = ca_lit_string("", 0);
			memcpy(tmp + 1, l->items, l->n * sizeof(*tmp));
			args = (const classad_expr *const *)tmp;
			n = l->n + 1;
		}
		if (!ok) {
			ca_value_clear(&lv);
			return ca_fail(out);
		}
	}
	struct classad_buf buf = {0}, sep = {0}, item = {0};
	bool undef = false, def = false, error = false, ok = true;
	for (uint32_t i = 0; i < n; i++) {
		if (st->depth <= 0) {
			ok = false;
			break;
		}
		classad_value v = CLASSAD_VALUE_INIT;
		st->depth--;
		ok = ca_eval(st, args[i], &v);
		st->depth++;
		if (!ok) {
			ca_value_clear(&v);
			break;
		}
		item.len = 0;
		int rc = append_string(&item, &v);
		ca_value_clear(&v);
		if (rc < 0) {
			error = true;
			break;
		}
		if (rc == 0) {
			/* Undefined: strcat gives undefined, join skips. */
			undef = true;
			if (join)
				continue;
			def = false;
			break;
		}
		if (join && i == 0) {
			sep.len = 0;
			classad_buf_add(&sep, item.data ? item.data : "", item.len);
			continue;
		}
		if (join && buf.len)
			classad_buf_add(&buf, sep.data ? sep.data : "", sep.len);
		classad_buf_add(&buf, item.data ? item.data : "", item.len);
		def = true;
	}
	free(item.data);
	if (!ok)
		out->type = CLASSAD_ERROR;
	else if (error)
		out->type = CLASSAD_ERROR;
	else if (undef && !def)
		out->type = CLASSAD_UNDEFINED;
	else
		classad_value_set_string(out, buf.data ? buf.data : "", buf.len);
	free(buf.data);
	free(sep.data);
	free(tmp);
	classad_expr_free(empty);
	ca_value_clear(&lv);
	return ok;
}

CA_FN(ca_fn_change_case)
{
	classad_value v = CLASSAD_VALUE_INIT, s = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	ca_to_string(&v, &s);
	ca_value_clear(&v);
	if (s.type != CLASSAD_STRING) {
		out->type = s.type == CLASSAD_UNDEFINED ? CLASSAD_UNDEFINED
							: CLASSAD_ERROR;
		ca_value_clear(&s);
		return true;
	}
	bool lower = ca_is_name(c, "toLower");
	struct ca_str *r = ca_str_new(s.u.s->s, s.u.s->len);
	for (uint32_t i = 0; i < r->len; i++) {
		unsigned char ch = (unsigned char)r->s[i];
		if (lower && ch >= 'A' && ch <= 'Z')
			r->s[i] = (char)(ch + ('a' - 'A'));
		else if (!lower && ch >= 'a' && ch <= 'z')
			r->s[i] = (char)(ch - ('a' - 'A'));
	}
	r->hash = ca_hash_ci(r->s, r->len);
	ca_value_str_take(out, r);
	ca_value_clear(&s);
	return true;
}

CA_FN(ca_fn_substr)
{
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 3, a, out);
	if (rc <= 0)
		return rc == 0;
	bool three = c->n == 3;
	if (a[0].type == CLASSAD_UNDEFINED || a[1].type == CLASSAD_UNDEFINED ||
	    (three && a[2].type == CLASSAD_UNDEFINED)) {
		out->type = CLASSAD_UNDEFINED;
	} else if (a[0].type != CLASSAD_STRING ||
		   a[1].type != CLASSAD_INTEGER ||
		   (three && a[2].type != CLASSAD_INTEGER)) {
		out->type = CLASSAD_ERROR;
	} else {
		/* HTCondor reads offset and length into ints. */
		int alen = (int)a[0].u.s->len;
		int offset = (int32_t)(uint32_t)(uint64_t)a[1].u.i;
		int len = three ? (int32_t)(uint32_t)(uint64_t)a[2].u.i : 0;
		if (offset < 0) {
			offset = alen + offset;
			if (offset < 0)
				offset = 0;
		} else if (offset >= alen) {
			offset = alen;
		}
		if (len <= 0) {
			len = alen - offset + len;
			if (len < 0)
				len = 0;
		} else if (len > alen - offset) {
			len = alen - offset;
		}
		if (three && a[2].u.i == 0)
			len = 0;
		classad_value_set_string(out, a[0].u.s->s + offset,
					 (size_t)len);
	}
	ca_clear_n(a, 3);
	return true;
}

/* The two arguments (into a) as strings (into s); neither array needs
 * initialising.  1 with s[0] and s[1] set, 0 undefined, -1 error (also
 * for a wrong count), -2 hard failure. */
static int two_strings(struct ca_state *st, const struct ca_call *c,
		       classad_value *a, classad_value *s, classad_value *out)
{
	for (int i = 0; i < 2; i++)
		a[i] = s[i] = (classad_value)CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 2, 2, a, out);
	if (rc <= 0)
		return rc == 0 ? -1 : -2;
	if (a[0].type == CLASSAD_UNDEFINED || a[1].type == CLASSAD_UNDEFINED)
		return 0;
	if (!ca_to_string(&a[0], &s[0]) || !ca_to_string(&a[1], &s[1]) ||
	    s[0].type != CLASSAD_STRING || s[1].type != CLASSAD_STRING)
		return -1;
	return 1;
}

static bool finish_two(int rc, classad_value *a, classad_value *s,
		       classad_value *out)
{
	if (rc == 0)
		out->type = CLASSAD_UNDEFINED;
	else if (rc == -1)
		out->type = CLASSAD_ERROR;
	ca_clear_n(a, 2);
	ca_clear_n(s, 2);
	return rc != -2;
}

CA_FN(ca_fn_strcmp)
{
	classad_value a[2], s[2];
	int rc = two_strings(st, c, a, s, out);
	if (rc == 1) {
		int order = ca_is_name(c, "strcmp")
				    ? strcmp(s[0].u.s->s, s[1].u.s->s)
				    : strcasecmp(s[0].u.s->s, s[1].u.s->s);
		ca_set_int(out, order < 0 ? -1 : order > 0);
	}
	return finish_two(rc, a, s, out);
}

/* HTCondor's natural_cmp: digit runs compare as numbers. */
static int natural_cmp(const char *s1, const char *s2)
{
	const char *s1_beg = s1, *n1_beg, *n2_beg, *n1_end, *n2_end, *z1_end,
		   *z2_end;
	for (; *s1 && *s1 == *s2; ++s1, ++s2)
		;
	if (*s1 == *s2)
		return 0;
	for (n1_beg = s1; n1_beg > s1_beg && isdigit((unsigned char)n1_beg[-1]);
	     --n1_beg)
		;
	n2_beg = s2 - (s1 - n1_beg);
	/* Characters compare as (signed) chars, as HTCondor's do. */
	int d = (signed char)*s1 - (signed char)*s2;
	if (n1_beg == s1 && (!isdigit((unsigned char)*s1) ||
			     !isdigit((unsigned char)*s2)))
		return d;
	for (z1_end = n1_beg; *z1_end == '0'; ++z1_end)
		;
	for (z2_end = n2_beg; *z2_end == '0'; ++z2_end)
		;
	if (z1_end > n1_beg && !isdigit((unsigned char)*z1_end))
		--z1_end;
	if (z2_end > n2_beg && !isdigit((unsigned char)*z2_end))
		--z2_end;
	if (z1_end - n1_beg != z2_end - n2_beg)
		return (int)((z2_end - n2_beg) - (z1_end - n1_beg));
	if (z1_end > n1_beg)
		return d;
	for (n1_end = z1_end; isdigit((unsigned char)*n1_end); ++n1_end)
		;
	for (n2_end = z2_end; isdigit((unsigned char)*n2_end); ++n2_end)
		;
	if (n1_end - n1_beg != n2_end - n2_beg)
		return (int)((n1_end - n1_beg) - (n2_end - n2_beg));
	return d;
}

CA_FN(ca_fn_version_cmp)
{
	classad_value a[2], s[2];
	int rc = two_strings(st, c, a, s, out);
	if (rc == 1) {
		int r = natural_cmp(s[0].u.s->s, s[1].u.s->s);
		const char *n = c->name->s;
		if (strcasecmp(n, "versioncmp") == 0)
			ca_set_int(out, r);
		else if (strcasecmp(n, "versionLE") == 0)
			ca_set_bool(out, r <= 0);
		else if (strcasecmp(n, "versionLT") == 0)
			ca_set_bool(out, r < 0);
		else if (strcasecmp(n, "versionGE") == 0)
			ca_set_bool(out, r >= 0);
		else if (strcasecmp(n, "versionGT") == 0)
			ca_set_bool(out, r > 0);
		else
			ca_set_bool(out, r == 0);
	}
	return finish_two(rc, a, s, out);
}

CA_FN(ca_fn_version_in_range)
{
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	classad_value s[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 3, 3, a, out);
	if (rc <= 0)
		return rc == 0;
	if (a[1].type == CLASSAD_UNDEFINED || a[2].type == CLASSAD_UNDEFINED) {
		out->type = CLASSAD_UNDEFINED;
	} else if (ca_to_string(&a[0], &s[0]) && ca_to_string(&a[1], &s[1]) &&
		   ca_to_string(&a[2], &s[2]) && s[0].type == CLASSAD_STRING &&
		   s[1].type == CLASSAD_STRING && s[2].type == CLASSAD_STRING) {
		int l = natural_cmp(s[1].u.s->s, s[0].u.s->s);
		int r = natural_cmp(s[0].u.s->s, s[2].u.s->s);
		ca_set_bool(out, l <= 0 && r <= 0);
	} else {
		out->type = CLASSAD_ERROR;
	}
	ca_clear_n(a, 3);
	ca_clear_n(s, 3);
	return true;
}

static void push_str(classad_expr ***items, uint32_t *n, uint32_t *cap,
		     const char *s, size_t len)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*items = ks_xrealloc(*items, *cap * sizeof(**items));
	}
	(*items)[(*n)++] = ca_lit_string(s, len);
}

CA_FN(ca_fn_split)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 1, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	if (a[0].type != CLASSAD_STRING ||
	    (c->n == 2 && a[1].type != CLASSAD_STRING)) {
		ca_clear_n(a, 2);
		return ca_err(out);
	}
	const char *seps = c->n == 2 ? a[1].u.s->s : ", \t";
	const char *str = a[0].u.s->s;
	size_t len = a[0].u.s->len, last = 0;
	classad_expr **items = NULL;
	uint32_t n = 0, cap = 0;
	/* Runs of white space, or of one separator mixed with white space,
	 * separate once; a repeated non-space separator separates an empty
	 * item ("a,,b" is three items). */
	if (*seps) {
		int ch = -1;
		for (size_t ix = 0; ix < len; ix++) {
			if (!strchr(seps, str[ix]))
				continue;
			if (ix > last)
				push_str(&items, &n, &cap, str + last,
					 ix - last);
			else if (!(ch >= 0 && isspace(ch)) && ch == str[ix])
				push_str(&items, &n, &cap, "", 0);
			if (!isspace((unsigned char)str[ix]))
				ch = str[ix];
			last = ix + 1;
		}
	}
	if (len > last)
		push_str(&items, &n, &cap, str + last, len - last);
	ca_value_list_take(out, n, items);
	free(items);
	ca_clear_n(a, 2);
	return true;
}

CA_FN(ca_fn_split_at)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	if (v.type != CLASSAD_STRING) {
		ca_value_clear(&v);
		return ca_err(out);
	}
	const char *s = v.u.s->s;
	size_t len = v.u.s->len;
	const char *at = memchr(s, '@', len);
	classad_expr *items[2];
	if (at) {
		items[0] = ca_lit_string(s, (size_t)(at - s));
		items[1] = ca_lit_string(at + 1, len - (size_t)(at - s) - 1);
	} else if (ca_is_name(c, "splitSlotName")) {
		items[0] = ca_lit_string("", 0);
		items[1] = ca_lit_string(s, len);
	} else {
		items[0] = ca_lit_string(s, len);
		items[1] = ca_lit_string("", 0);
	}
	ca_value_list_take(out, 2, items);
	ca_value_clear(&v);
	return true;
}
