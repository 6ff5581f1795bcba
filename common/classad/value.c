/*
 * value.c: ClassAd values, their lifetimes and HTCondor's conversions
 * between types (string(), int(), real() and the implicit ones).
 */
#include <math.h>
#include <stdlib.h>

#include "classad_int.h"

void classad_value_clear(classad_value *v)
{
	if (!v)
		return;
	switch (v->type) {
	case CLASSAD_STRING:
		ca_str_unref(v->u.s);
		break;
	case CLASSAD_LIST:
		classad_expr_free((classad_expr *)v->u.l.list);
		if (v->u.l.scope)
			ca_scope_unref(v->u.l.scope);
		break;
	case CLASSAD_AD:
		ca_scope_unref(v->u.ad);
		break;
	default:
		break;
	}
	v->type = CLASSAD_UNDEFINED;
}

void classad_value_copy(classad_value *dst, const classad_value *src)
{
	if (dst == src)
		return;
	classad_value tmp = *src;
	switch (tmp.type) {
	case CLASSAD_STRING:
		ca_str_ref(tmp.u.s);
		break;
	case CLASSAD_LIST:
		classad_expr_ref(tmp.u.l.list);
		if (tmp.u.l.scope)
			ca_scope_ref(tmp.u.l.scope);
		break;
	case CLASSAD_AD:
		ca_scope_ref(tmp.u.ad);
		break;
	default:
		break;
	}
	classad_value_clear(dst);
	*dst = tmp;
}

void classad_value_set_undefined(classad_value *v)
{
	classad_value_clear(v);
}

void classad_value_set_error(classad_value *v)
{
	classad_value_clear(v);
	v->type = CLASSAD_ERROR;
}

void classad_value_set_bool(classad_value *v, bool b)
{
	classad_value_clear(v);
	v->type = CLASSAD_BOOLEAN;
	v->u.b = b;
}

void classad_value_set_int(classad_value *v, int64_t i)
{
	classad_value_clear(v);
	v->type = CLASSAD_INTEGER;
	v->u.i = i;
}

void classad_value_set_real(classad_value *v, double r)
{
	classad_value_clear(v);
	v->type = CLASSAD_REAL;
	v->u.r = r;
}

void classad_value_set_string(classad_value *v, const char *s, size_t len)
{
	ca_value_str_take(v, ca_str_new(s, len));
}

void classad_value_set_abstime(classad_value *v, int64_t secs, int32_t offset)
{
	classad_value_clear(v);
	v->type = CLASSAD_ABSTIME;
	v->u.abs.secs = secs;
	v->u.abs.offset = offset;
}

void classad_value_set_reltime(classad_value *v, double secs)
{
	classad_value_clear(v);
	v->type = CLASSAD_RELTIME;
	v->u.r = secs;
}

void ca_value_str_take(classad_value *v, struct ca_str *s)
{
	classad_value_clear(v);
	v->type = CLASSAD_STRING;
	v->u.s = s;
}

void ca_value_list_take(classad_value *v, uint32_t n, classad_expr **items)
{
	classad_value_clear(v);
	v->type = CLASSAD_LIST;
	v->u.l.list = ca_list_new(n, items);
	v->u.l.scope = NULL;
}

void ca_value_ad_take(classad_value *v, classad *ad)
{
	classad_value_clear(v);
	v->type = CLASSAD_AD;
	v->u.ad = ca_scope_new(ad, NULL);
	classad_free(ad);
}

bool classad_value_bool(const classad_value *v, bool *out)
{
	return ca_value_bool_equiv(v, out);
}

const char *classad_value_str(const classad_value *v, size_t *len)
{
	if (v->type != CLASSAD_STRING)
		return NULL;
	if (len)
		*len = v->u.s->len;
	return v->u.s->s;
}

size_t classad_value_list_size(const classad_value *v)
{
	return v->type == CLASSAD_LIST ? ca_as_list(v->u.l.list)->n : 0;
}

int classad_value_list_get(const classad_value *v, size_t i,
			   const classad_env *env, classad_value *out)
{
	classad_value_clear(out);
	if (v->type != CLASSAD_LIST || i >= ca_as_list(v->u.l.list)->n)
		return KS_ERANGE;
	return ca_eval_top(v->u.l.scope, ca_as_list(v->u.l.list)->items[i],
			   env, out);
}

const classad *classad_value_ad(const classad_value *v)
{
	return v->type == CLASSAD_AD ? v->u.ad->ad : NULL;
}

const char *classad_type_name(int type)
{
	static const char *const names[] = {
		"undefined", "error", "boolean", "integer", "real",
		"string", "list", "classad", "abstime", "reltime",
	};
	if (type < 0 || type > CLASSAD_RELTIME)
		return "unknown";
	return names[type];
}

char *classad_value_unparse(const classad_value *v, bool old)
{
	struct classad_buf b = {0};
	ca_unparse_value(&b, v, old);
	return ca_buf_take(&b);
}

bool ca_value_number(const classad_value *v, double *r)
{
	switch (v->type) {
	case CLASSAD_INTEGER:
		*r = (double)v->u.i;
		return true;
	case CLASSAD_REAL:
		*r = v->u.r;
		return true;
	case CLASSAD_BOOLEAN:
		*r = v->u.b ? 1.0 : 0.0;
		return true;
	default:
		return false;
	}
}

int64_t ca_double_to_i64(double d)
{
	/* The range test is written so that NaN fails it. */
	if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
		return (int64_t)d;
	return INT64_MIN;
}

bool ca_to_string(const classad_value *v, classad_value *out)
{
	struct classad_buf b = {0};
	switch (v->type) {
	case CLASSAD_UNDEFINED:
		classad_value_set_undefined(out);
		return false;
	case CLASSAD_ERROR:
		classad_value_set_error(out);
		return false;
	case CLASSAD_STRING:
		classad_value_copy(out, v);
		return true;
	case CLASSAD_ABSTIME:
		ca_abstime_to_string(&b, v->u.abs.secs, v->u.abs.offset);
		break;
	case CLASSAD_RELTIME:
		ca_reltime_to_string(&b, v->u.r, false);
		break;
	default:
		ca_unparse_value_lossy(&b, v);
		break;
	}
	ca_value_str_take(out, ca_str_new(b.data ? b.data : "", b.len));
	free(b.data);
	return true;
}

/* strtod as HTCondor uses it: error only if nothing was read and the
 * result is zero. */
static bool parse_number(const struct ca_str *s, double *d)
{
	char *end;
	*d = strtod(s->s, &end);
	return !(end == s->s && *d == 0.0);
}

bool ca_to_int(const classad_value *v, classad_value *out)
{
	double d;
	switch (v->type) {
	case CLASSAD_UNDEFINED:
		classad_value_set_undefined(out);
		return false;
	case CLASSAD_STRING:
		if (!parse_number(v->u.s, &d)) {
			classad_value_set_error(out);
			return false;
		}
		classad_value_set_int(out, ca_double_to_i64(d));
		return true;
	case CLASSAD_BOOLEAN:
		classad_value_set_int(out, v->u.b ? 1 : 0);
		return true;
	case CLASSAD_INTEGER:
		classad_value_set_int(out, v->u.i);
		return true;
	case CLASSAD_REAL:
	case CLASSAD_RELTIME:
		classad_value_set_int(out, ca_double_to_i64(v->u.r));
		return true;
	case CLASSAD_ABSTIME:
		classad_value_set_int(out, v->u.abs.secs);
		return true;
	default:
		classad_value_set_error(out);
		return false;
	}
}

bool ca_to_real(const classad_value *v, classad_value *out)
{
	double d;
	switch (v->type) {
	case CLASSAD_UNDEFINED:
		classad_value_set_undefined(out);
		return false;
	case CLASSAD_STRING:
		if (!parse_number(v->u.s, &d)) {
			classad_value_set_error(out);
			return false;
		}
		classad_value_set_real(out, d);
		return true;
	case CLASSAD_BOOLEAN:
		classad_value_set_real(out, v->u.b ? 1.0 : 0.0);
		return true;
	case CLASSAD_INTEGER:
		classad_value_set_real(out, (double)v->u.i);
		return true;
	case CLASSAD_REAL:
		classad_value_set_real(out, v->u.r);
		return true;
	case CLASSAD_RELTIME:
		/* HTCondor reads a reltime through a time_t here. */
		classad_value_set_real(out, (double)ca_double_to_i64(v->u.r));
		return true;
	case CLASSAD_ABSTIME:
		classad_value_set_real(out, (double)v->u.abs.secs);
		return true;
	default:
		classad_value_set_error(out);
		return false;
	}
}
