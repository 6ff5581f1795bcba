/*
 * fn_type.c: type tests and conversions, and the functions about
 * expressions themselves: isUndefined() and friends, int(), real(),
 * string(), bool(), ifThenElse(), eval(), unparse(), unresolved(), debug().
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fn.h"

CA_FN(ca_fn_is_type)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	/* The name after "is", e.g. "Undefined". */
	const char *what = c->name->s + 2;
	static const struct {
		const char *name;
		int type;
	} kinds[] = {
		{"undefined", CLASSAD_UNDEFINED}, {"error", CLASSAD_ERROR},
		{"integer", CLASSAD_INTEGER},     {"string", CLASSAD_STRING},
		{"real", CLASSAD_REAL},           {"boolean", CLASSAD_BOOLEAN},
		{"classad", CLASSAD_AD},          {"list", CLASSAD_LIST},
		{"abstime", CLASSAD_ABSTIME},     {"reltime", CLASSAD_RELTIME},
	};
	int want = -1;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcasecmp(what, kinds[i].name) == 0)
			want = kinds[i].type;
	ca_set_bool(out, v.type == want);
	ca_value_clear(&v);
	return true;
}

CA_FN(ca_fn_if_then_else)
{
	if (c->n != 3)
		return ca_err(out);
	classad_value v = CLASSAD_VALUE_INIT;
	if (!ca_arg(st, c, 0, &v)) {
		ca_value_clear(&v);
		return ca_fail(out);
	}
	bool b;
	switch (v.type) {
	case CLASSAD_BOOLEAN:
	case CLASSAD_INTEGER:
	case CLASSAD_REAL:
		ca_value_bool_equiv(&v, &b);
		break;
	case CLASSAD_UNDEFINED:
		return ca_undef(out);
	default:
		ca_value_clear(&v);
		return ca_err(out);
	}
	if (!ca_arg(st, c, b ? 1 : 2, out)) {
		classad_value_clear(out);
		return ca_fail(out);
	}
	return true;
}

CA_FN(ca_fn_eval)
{
	classad_value v = CLASSAD_VALUE_INIT, s = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	bool is_str = ca_to_string(&v, &s) && s.type == CLASSAD_STRING;
	ca_value_clear(&v);
	if (!is_str) {
		ca_value_clear(&s);
		return ca_err(out);
	}
	if (st->depth <= 0) {
		ca_value_clear(&s);
		return ca_fail(out);
	}
	classad_expr *e = ca_parse_expr(s.u.s->s, s.u.s->len, CA_LEX_NEW, true,
					NULL);
	ca_value_clear(&s);
	if (!e)
		return ca_err(out);
	st->depth--;
	bool ok = ca_eval(st, e, out);
	st->depth++;
	classad_expr_free(e);
	if (!ok) {
		classad_value_clear(out);
		return ca_fail(out);
	}
	return true;
}

CA_FN(ca_fn_unparse)
{
	if (c->n != 1 || c->args[0]->kind != CA_K_ATTR)
		return ca_err(out);
	/* HTCondor looks the reference up, as written, in the current ad
	 * only: unparse(MY.x) finds nothing. */
	struct classad_buf name = {0}, text = {0};
	ca_unparse_expr(&name, c->args[0], false);
	const classad_expr *e = st->cur
					? classad_lookup(st->cur->ad,
							 name.data ? name.data : "")
					: NULL;
	if (e)
		ca_unparse_pretty(&text, e);
	classad_value_set_string(out, text.data ? text.data : "", text.len);
	free(name.data);
	free(text.data);
	return true;
}

CA_FN(ca_fn_unresolved)
{
	if (c->n < 1 || c->n > 2 || c->args[0]->kind != CA_K_ATTR)
		return ca_err(out);
	struct ca_scope *saved = st->cur;
	const classad_expr *e;
	if (ca_deref(st, c->args[0], &e) != CA_FIND_OK) {
		st->cur = saved;
		return ca_undef(out);
	}
	/* HTCondor keeps whatever scope the lookup ended in. */
	const char *pattern = NULL;
	classad_value pat = CLASSAD_VALUE_INIT;
	if (c->n == 2) {
		if (!ca_arg(st, c, 1, &pat) || pat.type != CLASSAD_STRING) {
			ca_value_clear(&pat);
			st->cur = saved;
			return ca_fail(out);
		}
		pattern = pat.u.s->s;
		if (!ca_regex_compile_ok(pattern, CA_RE_CASELESS)) {
			ca_value_clear(&pat);
			st->cur = saved;
			return ca_err(out);
		}
		ca_set_bool(out, false);
	}
	struct ca_names refs = {0};
	struct classad_buf list = {0};
	if (e && st->cur && ca_external_refs(st, e, &refs)) {
		for (size_t i = 0; i < refs.n; i++) {
			const char *r = refs.v[i];
			if (strncasecmp(r, "target.", 7) == 0)
				r += 7;
			if (pattern) {
				bool m = false;
				ca_regex_search(pattern,
						CA_RE_CASELESS | CA_RE_NOTEMPTY, r,
						strlen(r), &m);
				if (m) {
					ca_set_bool(out, true);
					break;
				}
			} else {
				if (list.len)
					ca_buf_addc(&list, ',');
				ca_buf_adds(&list, r);
			}
		}
	}
	if (!pattern)
		classad_value_set_string(out, list.data ? list.data : "",
					 list.len);
	ca_names_free(&refs);
	free(list.data);
	ca_value_clear(&pat);
	st->cur = saved;
	return true;
}

CA_FN(ca_fn_debug)
{
	if (c->n != 1)
		return ca_err(out);
	bool old = st->debug;
	st->debug = true;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!ca_arg(st, c, 0, out)) {
		classad_value_clear(out);
		return ca_fail(out);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st->debug = old;
	if (st->env && st->env->debug) {
		double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		struct classad_buf b = {0};
		classad_buf_printf(&b, "Classad debug: [%5.5fms] ", ms);
		ca_unparse_expr(&b, c->args[0], false);
		ca_buf_adds(&b, " --> ");
		char *v = classad_value_unparse(out, false);
		ca_buf_adds(&b, v);
		free(v);
		st->env->debug(st->env->debug_arg, b.data);
		free(b.data);
	}
	return true;
}

/* One argument, converted by conv. */
static bool convert(struct ca_state *st, const struct ca_call *c,
		    classad_value *out,
		    bool (*conv)(const classad_value *, classad_value *))
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	conv(&v, out);
	ca_value_clear(&v);
	return true;
}

CA_FN(ca_fn_int)
{
	return convert(st, c, out, ca_to_int);
}

CA_FN(ca_fn_real)
{
	return convert(st, c, out, ca_to_real);
}

CA_FN(ca_fn_string)
{
	return convert(st, c, out, ca_to_string);
}

static bool to_bool(const classad_value *v, classad_value *out)
{
	switch (v->type) {
	case CLASSAD_UNDEFINED:
		ca_set_undef(out);
		break;
	case CLASSAD_BOOLEAN:
		ca_set_bool(out, v->u.b);
		break;
	case CLASSAD_INTEGER:
		ca_set_bool(out, v->u.i != 0);
		break;
	case CLASSAD_REAL:
		ca_set_bool(out, v->u.r != 0.0);
		break;
	case CLASSAD_STRING:
		if (strcasecmp(v->u.s->s, "false") == 0)
			ca_set_bool(out, false);
		else if (strcasecmp(v->u.s->s, "true") == 0)
			ca_set_bool(out, true);
		else
			ca_set_undef(out);
		break;
	case CLASSAD_RELTIME:
		/* HTCondor reads it through a time_t. */
		ca_set_bool(out, ca_double_to_i64(v->u.r) != 0);
		break;
	default:
		ca_set_error(out);
		break;
	}
	return true;
}

CA_FN(ca_fn_bool)
{
	return convert(st, c, out, to_bool);
}
