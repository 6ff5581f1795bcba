/*
 * fn_math.c: floor(), ceiling(), round(), pow(), quantize(), random().
 */
#include <math.h>

#include "fn.h"

CA_FN(ca_fn_round)
{
	classad_value v = CLASSAD_VALUE_INIT, r = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	if (v.type == CLASSAD_INTEGER) {
		ca_value_move(out, &v);
		return true;
	}
	bool ok = ca_to_real(&v, &r);
	ca_value_clear(&v);
	if (!ok) {
		ca_value_clear(&r);
		return ca_err(out);
	}
	double d = r.u.r, x;
	if (ca_is_name(c, "floor"))
		x = floor(d);
	else if (ca_is_name(c, "round"))
		x = rint(d); /* halves to even, as HTCondor's rint() */
	else
		x = ceil(d);
	ca_set_int(out, ca_double_to_i64(x));
	return true;
}

CA_FN(ca_fn_pow)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	if (a[0].type == CLASSAD_INTEGER && a[1].type == CLASSAD_INTEGER &&
	    a[1].u.i >= 0) {
		double r = pow((double)a[0].u.i, (double)a[1].u.i) + 0.5;
		ca_set_int(out, ca_double_to_i64(r));
	} else {
		classad_value x = CLASSAD_VALUE_INIT, y = CLASSAD_VALUE_INIT;
		if (ca_to_real(&a[0], &x) && ca_to_real(&a[1], &y))
			ca_set_real(out, pow(x.u.r, y.u.r));
		else
			ca_set_error(out);
		ca_value_clear(&x);
		ca_value_clear(&y);
	}
	ca_clear_n(a, 2);
	return true;
}

CA_FN(ca_fn_quantize)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	classad_value conv = CLASSAD_VALUE_INIT, base = CLASSAD_VALUE_INIT;
	bool ok = true;
	int rc = ca_call_args(st, c, 2, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	if (!ca_to_real(&a[0], &conv)) {
		out->type = CLASSAD_ERROR;
		goto done;
	}
	double rval = conv.u.r, rbase;
	if (a[1].type == CLASSAD_LIST) {
		/* The first item at least as large, else quantize to the
		 * last item.  An empty list means "don't quantize". */
		ca_set_real(&base, 0.0);
		rbase = 0.0;
		uint32_t n = ca_as_list(a[1].u.l.list)->n;
		for (uint32_t i = 0; i < n; i++) {
			ca_value_clear(&base);
			if (!ca_eval_item(st, &a[1], i, &base)) {
				ok = ca_fail(out);
				goto done;
			}
			classad_value r = CLASSAD_VALUE_INIT;
			if (!ca_to_real(&base, &r)) {
				ca_value_clear(&r);
				out->type = CLASSAD_ERROR;
				goto done;
			}
			rbase = r.u.r;
			if (rbase >= rval) {
				ca_value_move(out, &base);
				goto done;
			}
		}
		ca_value_clear(&a[1]);
		ca_value_move(&a[1], &base);
	} else {
		classad_value r = CLASSAD_VALUE_INIT;
		if (!ca_to_real(&a[1], &r)) {
			ca_value_clear(&r);
			out->type = CLASSAD_ERROR;
			goto done;
		}
		rbase = r.u.r;
	}
	if (a[1].type == CLASSAD_INTEGER) {
		int64_t ibase = a[1].u.i;
		if (!ibase) {
			classad_value_copy(out, &a[0]);
		} else if (a[0].type == CLASSAD_INTEGER) {
			/* Wrapping arithmetic, as HTCondor's long long. */
			int64_t num = (int64_t)((uint64_t)a[0].u.i +
						(uint64_t)ibase - 1u);
			int64_t q = (num == INT64_MIN && ibase == -1)
					    ? INT64_MIN
					    : num / ibase;
			ca_set_int(out,
					      (int64_t)((uint64_t)q *
							(uint64_t)ibase));
		} else {
			ca_set_real(out, ceil(rval / (double)ibase) *
							    (double)ibase);
		}
	} else if (rbase >= -1e-8 && rbase <= 1e-8) {
		classad_value_copy(out, &a[0]);
	} else {
		ca_set_real(out, ceil(rval / rbase) * rbase);
	}
done:
	ca_clear_n(a, 2);
	ca_value_clear(&conv);
	ca_value_clear(&base);
	return ok;
}

CA_FN(ca_fn_random)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 0, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	if (c->n == 0)
		ca_set_real(&v, 1.0);
	/* HTCondor draws a 31-bit integer, like lrand48(). */
	int32_t draw = (int32_t)(ca_random(st) >> 33);
	if (v.type == CLASSAD_INTEGER) {
		int32_t max = (int32_t)(uint32_t)(uint64_t)v.u.i;
		if (max <= 0)
			return ca_fail(out); /* as HTCondor: a hard failure */
		ca_set_int(out, draw % max);
	} else if (v.type == CLASSAD_REAL) {
		if (v.u.r <= 0)
			return ca_fail(out);
		ca_set_real(out, v.u.r * (draw / 2147483647.0));
	} else {
		ca_value_clear(&v);
		return ca_err(out);
	}
	return true;
}
