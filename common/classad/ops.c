/*
 * ops.c: what each operator does to its operand values.
 *
 * This is HTCondor's operator semantics, including its corners: integer
 * arithmetic wraps; INT64_MIN / -1 is INT64_MAX; real overflow to +inf is
 * an error but -inf is not; any real modulus is an error; unary minus of a
 * boolean is an error; shifts behave as on x86-64; string comparison with
 * == ignores case and with =?= does not; lists and ads cannot be compared.
 */
#include <math.h>

#include "classad_int.h"

static bool is_strict(int op)
{
	switch (op) {
	case CA_OP_META_EQ:
	case CA_OP_META_NE:
	case CA_OP_AND:
	case CA_OP_OR:
	case CA_OP_ELVIS:
	case CA_OP_TERNARY:
		return false;
	default:
		return true;
	}
}

/* The working form of an operand: numbers may be converted in place. */
struct operand {
	int type;
	int64_t i;
	double r;
	bool b;
	const classad_value *v;
};

static void load(struct operand *o, const classad_value *v)
{
	o->type = v->type;
	o->v = v;
	o->i = 0;
	o->r = 0;
	o->b = false;
	switch (v->type) {
	case CLASSAD_INTEGER: o->i = v->u.i; break;
	case CLASSAD_REAL:
	case CLASSAD_RELTIME: o->r = v->u.r; break;
	case CLASSAD_BOOLEAN: o->b = v->u.b; break;
	default: break;
	}
}

/* HTCondor's coerceToNumber: the type the operation works in; booleans
 * become integers and an integer meeting a real becomes a real. */
static int coerce(struct operand *a, struct operand *b)
{
	if (a->type == CLASSAD_AD || b->type == CLASSAD_AD)
		return CLASSAD_AD;
	if (a->type == CLASSAD_LIST || b->type == CLASSAD_LIST)
		return CLASSAD_LIST;
	if (a->type == CLASSAD_STRING || b->type == CLASSAD_STRING)
		return CLASSAD_STRING;
	if (a->type == CLASSAD_UNDEFINED || b->type == CLASSAD_UNDEFINED)
		return CLASSAD_UNDEFINED;
	if (a->type == CLASSAD_ERROR || b->type == CLASSAD_ERROR)
		return CLASSAD_ERROR;
	if (a->type == CLASSAD_ABSTIME || b->type == CLASSAD_ABSTIME)
		return CLASSAD_ABSTIME;
	if (a->type == CLASSAD_RELTIME || b->type == CLASSAD_RELTIME)
		return CLASSAD_RELTIME;
	struct operand *both[2] = {a, b};
	for (int k = 0; k < 2; k++) {
		if (both[k]->type == CLASSAD_BOOLEAN) {
			both[k]->type = CLASSAD_INTEGER;
			both[k]->i = both[k]->b ? 1 : 0;
		}
	}
	if (a->type == CLASSAD_INTEGER && b->type == CLASSAD_INTEGER)
		return CLASSAD_INTEGER;
	if (a->type == CLASSAD_INTEGER) {
		a->type = CLASSAD_REAL;
		a->r = (double)a->i;
	}
	if (b->type == CLASSAD_INTEGER) {
		b->type = CLASSAD_REAL;
		b->r = (double)b->i;
	}
	return CLASSAD_REAL;
}

static void set_cmp(classad_value *out, int op, int cmp)
{
	bool r;
	switch (op) {
	case CA_OP_LT: r = cmp < 0; break;
	case CA_OP_LE: r = cmp <= 0; break;
	case CA_OP_EQ:
	case CA_OP_META_EQ: r = cmp == 0; break;
	case CA_OP_NE:
	case CA_OP_META_NE: r = cmp != 0; break;
	case CA_OP_GT: r = cmp > 0; break;
	default: r = cmp >= 0; break;
	}
	ca_set_bool(out, r);
}

static void cmp_reals(classad_value *out, int op, double x, double y)
{
	bool r;
	switch (op) {
	case CA_OP_LT: r = x < y; break;
	case CA_OP_LE: r = x <= y; break;
	case CA_OP_EQ:
	case CA_OP_META_EQ: r = x == y; break;
	case CA_OP_NE:
	case CA_OP_META_NE: r = x != y; break;
	case CA_OP_GT: r = x > y; break;
	default: r = x >= y; break;
	}
	ca_set_bool(out, r);
}

static void compare(int op, struct operand *a, struct operand *b,
		    classad_value *out)
{
	bool meta = op == CA_OP_META_EQ || op == CA_OP_META_NE;
	int kind = meta ? a->type : coerce(a, b);
	if (meta) {
		if (a->type != b->type) {
			ca_set_bool(out, op == CA_OP_META_NE);
			return;
		}
		if (a->type == CLASSAD_UNDEFINED || a->type == CLASSAD_ERROR) {
			ca_set_bool(out, op == CA_OP_META_EQ);
			return;
		}
	}
	switch (kind) {
	case CLASSAD_STRING: {
		if (a->type != CLASSAD_STRING || b->type != CLASSAD_STRING) {
			ca_set_error(out);
			return;
		}
		const char *x = a->v->u.s->s, *y = b->v->u.s->s;
		int c = meta ? strcmp(x, y) : strcasecmp(x, y);
		set_cmp(out, op, c);
		return;
	}
	case CLASSAD_INTEGER:
		set_cmp(out, op, a->i < b->i ? -1 : a->i > b->i);
		return;
	case CLASSAD_REAL:
		cmp_reals(out, op, a->r, b->r);
		return;
	case CLASSAD_BOOLEAN:
		if (a->type != CLASSAD_BOOLEAN || b->type != CLASSAD_BOOLEAN) {
			ca_set_error(out);
			return;
		}
		set_cmp(out, op, (int)a->b - (int)b->b);
		return;
	case CLASSAD_ABSTIME: {
		if (a->type != CLASSAD_ABSTIME || b->type != CLASSAD_ABSTIME) {
			ca_set_error(out);
			return;
		}
		int64_t x = a->v->u.abs.secs, y = b->v->u.abs.secs;
		if (op == CA_OP_META_EQ || op == CA_OP_META_NE) {
			bool same = x == y &&
				    a->v->u.abs.offset == b->v->u.abs.offset;
			ca_set_bool(out,
					       op == CA_OP_META_EQ ? same : !same);
			return;
		}
		set_cmp(out, op, x < y ? -1 : x > y);
		return;
	}
	case CLASSAD_RELTIME:
		if (a->type != CLASSAD_RELTIME || b->type != CLASSAD_RELTIME) {
			ca_set_error(out);
			return;
		}
		cmp_reals(out, op, a->r, b->r);
		return;
	default: /* lists and ads */
		ca_set_error(out);
		return;
	}
}

static int32_t to_i32(double d)
{
	if (d >= -2147483648.0 && d < 2147483648.0)
		return (int32_t)d;
	return INT32_MIN;
}

static void time_arith(int op, struct operand *a, struct operand *b,
		       classad_value *out)
{
	int ta = a->type, tb = b->type;
	if (op == CA_OP_ADD || op == CA_OP_SUB) {
		if (ta == CLASSAD_ABSTIME && tb == CLASSAD_RELTIME) {
			int64_t d = to_i32(b->r);
			int64_t s = a->v->u.abs.secs;
			classad_value_set_abstime(out,
						  op == CA_OP_ADD ? s + d : s - d,
						  a->v->u.abs.offset);
			return;
		}
		if (op == CA_OP_ADD && ta == CLASSAD_RELTIME &&
		    tb == CLASSAD_ABSTIME) {
			classad_value_set_abstime(out,
						  b->v->u.abs.secs + to_i32(a->r),
						  b->v->u.abs.offset);
			return;
		}
		if (ta == CLASSAD_RELTIME && tb == CLASSAD_RELTIME) {
			ca_set_reltime(out, op == CA_OP_ADD
							       ? a->r + b->r
							       : a->r - b->r);
			return;
		}
		if (op == CA_OP_SUB && ta == CLASSAD_ABSTIME &&
		    tb == CLASSAD_ABSTIME) {
			ca_set_reltime(
				out, (double)(a->v->u.abs.secs -
					      b->v->u.abs.secs));
			return;
		}
	}
	if (op == CA_OP_MUL || op == CA_OP_DIV) {
		if (ta == CLASSAD_RELTIME &&
		    (tb == CLASSAD_INTEGER || tb == CLASSAD_REAL)) {
			double n = tb == CLASSAD_INTEGER ? (double)b->i : b->r;
			ca_set_reltime(out, op == CA_OP_MUL ? a->r * n
								       : a->r / n);
			return;
		}
		if (op == CA_OP_MUL && tb == CLASSAD_RELTIME &&
		    ta == CLASSAD_INTEGER) {
			ca_set_reltime(out, (double)a->i * b->r);
			return;
		}
		if (op == CA_OP_MUL && tb == CLASSAD_RELTIME &&
		    ta == CLASSAD_REAL) {
			/* HTCondor reads the operands crosswise here and
			 * multiplies by zero. */
			ca_set_reltime(out, 0.0);
			return;
		}
	}
	ca_set_error(out);
}

static bool arith_type(int t)
{
	return t == CLASSAD_INTEGER || t == CLASSAD_REAL ||
	       t == CLASSAD_ABSTIME || t == CLASSAD_RELTIME ||
	       t == CLASSAD_BOOLEAN;
}

static void arith(int op, struct operand *a, struct operand *b,
		  classad_value *out)
{
	if (!arith_type(a->type) ||
	    (op != CA_OP_UMINUS && !arith_type(b->type))) {
		ca_set_error(out);
		return;
	}
	if (op == CA_OP_UMINUS) {
		switch (a->type) {
		case CLASSAD_INTEGER:
			ca_set_int(out,
					      (int64_t)(0 - (uint64_t)a->i));
			return;
		case CLASSAD_REAL:
			ca_set_real(out, -a->r);
			return;
		case CLASSAD_RELTIME:
			ca_set_reltime(out, -a->r);
			return;
		default: /* booleans and absolute times */
			ca_set_error(out);
			return;
		}
	}
	switch (coerce(a, b)) {
	case CLASSAD_INTEGER: {
		int64_t x = a->i, y = b->i;
		uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
		switch (op) {
		case CA_OP_ADD:
			ca_set_int(out, (int64_t)(ux + uy));
			return;
		case CA_OP_SUB:
			ca_set_int(out, (int64_t)(ux - uy));
			return;
		case CA_OP_MUL:
			ca_set_int(out, (int64_t)(ux * uy));
			return;
		case CA_OP_DIV:
			if (x == INT64_MIN && y == -1)
				ca_set_int(out, INT64_MAX);
			else if (y == 0)
				ca_set_error(out);
			else
				ca_set_int(out, x / y);
			return;
		default: /* CA_OP_MOD */
			if (x == INT64_MIN && y == -1)
				ca_set_int(out, 0);
			else if (y == 0)
				ca_set_error(out);
			else
				ca_set_int(out, x % y);
			return;
		}
	}
	case CLASSAD_REAL: {
		double r;
		switch (op) {
		case CA_OP_ADD: r = a->r + b->r; break;
		case CA_OP_SUB: r = a->r - b->r; break;
		case CA_OP_MUL: r = a->r * b->r; break;
		case CA_OP_DIV: r = a->r / b->r; break;
		default:
			ca_set_error(out);
			return;
		}
		if (r == HUGE_VAL)
			ca_set_error(out);
		else
			ca_set_real(out, r);
		return;
	}
	default: /* absolute and relative times */
		time_arith(op, a, b, out);
		return;
	}
}

static void logical(int op, struct operand *a, struct operand *b,
		    classad_value *out)
{
	bool x = false, y = false;
	int ta = a->type, tb = b ? b->type : CLASSAD_UNDEFINED;
	if (ca_value_bool_equiv(a->v, &x))
		ta = CLASSAD_BOOLEAN;
	if (b && ca_value_bool_equiv(b->v, &y))
		tb = CLASSAD_BOOLEAN;
	if (ta != CLASSAD_UNDEFINED && ta != CLASSAD_ERROR &&
	    ta != CLASSAD_BOOLEAN) {
		ca_set_error(out);
		return;
	}
	if (op == CA_OP_NOT) {
		if (ta == CLASSAD_BOOLEAN)
			ca_set_bool(out, !x);
		else
			classad_value_copy(out, a->v);
		return;
	}
	if (tb != CLASSAD_UNDEFINED && tb != CLASSAD_ERROR &&
	    tb != CLASSAD_BOOLEAN) {
		ca_set_error(out);
		return;
	}
	bool is_or = op == CA_OP_OR;
	if (ta == CLASSAD_BOOLEAN && x == is_or) {
		ca_set_bool(out, is_or);
	} else if (ta == CLASSAD_ERROR) {
		ca_set_error(out);
	} else if (ta == CLASSAD_BOOLEAN || tb != CLASSAD_BOOLEAN) {
		/* a is the neutral value, or b is undefined or error */
		if (tb == CLASSAD_BOOLEAN)
			ca_set_bool(out, y);
		else
			classad_value_copy(out, b->v);
	} else if (y == is_or) {
		ca_set_bool(out, is_or); /* undefined op b */
	} else {
		ca_set_undef(out);
	}
}

static void bitwise(int op, struct operand *a, struct operand *b,
		    classad_value *out)
{
	if (a->type != CLASSAD_INTEGER ||
	    (op != CA_OP_BITNOT && b->type != CLASSAD_INTEGER)) {
		ca_set_error(out);
		return;
	}
	int64_t x = a->i, y = op == CA_OP_BITNOT ? 0 : b->i;
	uint64_t ux = (uint64_t)x;
	int64_t r;
	switch (op) {
	case CA_OP_BITNOT: r = ~x; break;
	case CA_OP_BITOR: r = x | y; break;
	case CA_OP_BITAND: r = x & y; break;
	case CA_OP_BITXOR: r = x ^ y; break;
	case CA_OP_LSHIFT:
		/* x86-64 uses the low six bits of the count. */
		r = (int64_t)(ux << (y & 63));
		break;
	case CA_OP_RSHIFT:
		if (x >= 0) {
			r = (int64_t)(ux >> (y & 63));
		} else {
			/* HTCondor shifts a negative value one bit at a time,
			 * min(64, y) times, keeping the sign. */
			int64_t n = y < 64 ? y : 64;
			if (n <= 0)
				r = x;
			else if (n >= 63)
				r = -1;
			else
				r = (int64_t)~(~ux >> n);
		}
		break;
	default: /* CA_OP_URSHIFT */
		if (x >= 0) {
			r = (int64_t)(ux >> (y & 63));
		} else {
			uint64_t v = ux >> 1;
			r = (int64_t)(v >> (((uint64_t)y - 1) & 63));
		}
		break;
	}
	ca_set_int(out, r);
}

/* Two integers, or two reals, or an integer and a real: the common case,
 * done without the general machinery (same results).  False if the
 * operands or the operator are not of this kind. */
static bool fast_numeric(int op, const classad_value *a, const classad_value *b,
			 classad_value *out)
{
	int ta = a->type, tb = b->type;
	if (ta == CLASSAD_BOOLEAN && tb == CLASSAD_BOOLEAN) {
		int c = (int)a->u.b - (int)b->u.b;
		switch (op) {
		case CA_OP_EQ:
		case CA_OP_META_EQ: ca_set_bool(out, c == 0); return true;
		case CA_OP_NE:
		case CA_OP_META_NE: ca_set_bool(out, c != 0); return true;
		case CA_OP_AND: ca_set_bool(out, a->u.b && b->u.b); return true;
		case CA_OP_OR: ca_set_bool(out, a->u.b || b->u.b); return true;
		default: return false;
		}
	}
	if (ta == CLASSAD_STRING && tb == CLASSAD_STRING) {
		bool meta = op == CA_OP_META_EQ || op == CA_OP_META_NE;
		if (op < CA_OP_LT || op > CA_OP_META_NE)
			return false;
		const char *x = a->u.s->s, *y = b->u.s->s;
		set_cmp(out, op, meta ? strcmp(x, y) : strcasecmp(x, y));
		return true;
	}
	if (ta == CLASSAD_INTEGER && tb == CLASSAD_INTEGER) {
		int64_t x = a->u.i, y = b->u.i;
		switch (op) {
		case CA_OP_LT: ca_set_bool(out, x < y); return true;
		case CA_OP_LE: ca_set_bool(out, x <= y); return true;
		case CA_OP_GT: ca_set_bool(out, x > y); return true;
		case CA_OP_GE: ca_set_bool(out, x >= y); return true;
		case CA_OP_EQ:
		case CA_OP_META_EQ: ca_set_bool(out, x == y); return true;
		case CA_OP_NE:
		case CA_OP_META_NE: ca_set_bool(out, x != y); return true;
		case CA_OP_ADD:
			ca_set_int(out, (int64_t)((uint64_t)x + (uint64_t)y));
			return true;
		case CA_OP_SUB:
			ca_set_int(out, (int64_t)((uint64_t)x - (uint64_t)y));
			return true;
		case CA_OP_MUL:
			ca_set_int(out, (int64_t)((uint64_t)x * (uint64_t)y));
			return true;
		default:
			return false;
		}
	}
	double x, y;
	if (ta == CLASSAD_REAL && tb == CLASSAD_REAL) {
		x = a->u.r;
		y = b->u.r;
	} else if (ta == CLASSAD_REAL && tb == CLASSAD_INTEGER &&
		   op != CA_OP_META_EQ && op != CA_OP_META_NE) {
		x = a->u.r;
		y = (double)b->u.i;
	} else if (ta == CLASSAD_INTEGER && tb == CLASSAD_REAL &&
		   op != CA_OP_META_EQ && op != CA_OP_META_NE) {
		x = (double)a->u.i;
		y = b->u.r;
	} else {
		return false;
	}
	double r;
	switch (op) {
	case CA_OP_LT: ca_set_bool(out, x < y); return true;
	case CA_OP_LE: ca_set_bool(out, x <= y); return true;
	case CA_OP_GT: ca_set_bool(out, x > y); return true;
	case CA_OP_GE: ca_set_bool(out, x >= y); return true;
	case CA_OP_EQ:
	case CA_OP_META_EQ: ca_set_bool(out, x == y); return true;
	case CA_OP_NE:
	case CA_OP_META_NE: ca_set_bool(out, x != y); return true;
	case CA_OP_ADD: r = x + y; break;
	case CA_OP_SUB: r = x - y; break;
	case CA_OP_MUL: r = x * y; break;
	case CA_OP_DIV: r = x / y; break;
	default: return false;
	}
	if (r == HUGE_VAL)
		ca_set_error(out);
	else
		ca_set_real(out, r);
	return true;
}

void ca_operate(int op, const classad_value *va, const classad_value *vb,
		classad_value *out)
{
	if (vb && fast_numeric(op, va, vb, out))
		return;
	struct operand a, b;
	load(&a, va);
	bool binary = vb != NULL;
	if (binary)
		load(&b, vb);

	if (op == CA_OP_NONE || op == CA_OP_PAREN) {
		classad_value_copy(out, va);
		return;
	}
	if (op == CA_OP_UPLUS) {
		if (a.type == CLASSAD_BOOLEAN || a.type == CLASSAD_STRING ||
		    a.type == CLASSAD_LIST || a.type == CLASSAD_AD ||
		    a.type == CLASSAD_ABSTIME)
			ca_set_error(out);
		else
			classad_value_copy(out, va);
		return;
	}
	if (is_strict(op)) {
		if (a.type == CLASSAD_ERROR ||
		    (binary && b.type == CLASSAD_ERROR)) {
			ca_set_error(out);
			return;
		}
		if (a.type == CLASSAD_UNDEFINED ||
		    (binary && b.type == CLASSAD_UNDEFINED)) {
			ca_set_undef(out);
			return;
		}
	}
	switch (op) {
	case CA_OP_LT: case CA_OP_LE: case CA_OP_NE: case CA_OP_EQ:
	case CA_OP_GE: case CA_OP_GT: case CA_OP_META_EQ: case CA_OP_META_NE:
		compare(op, &a, &b, out);
		return;
	case CA_OP_UMINUS: case CA_OP_ADD: case CA_OP_SUB: case CA_OP_MUL:
	case CA_OP_DIV: case CA_OP_MOD:
		arith(op, &a, binary ? &b : NULL, out);
		return;
	case CA_OP_NOT: case CA_OP_OR: case CA_OP_AND:
		logical(op, &a, binary ? &b : NULL, out);
		return;
	case CA_OP_BITNOT: case CA_OP_BITOR: case CA_OP_BITXOR:
	case CA_OP_BITAND: case CA_OP_LSHIFT: case CA_OP_RSHIFT:
	case CA_OP_URSHIFT:
		bitwise(op, &a, binary ? &b : NULL, out);
		return;
	case CA_OP_ELVIS:
		classad_value_copy(out, a.type == CLASSAD_UNDEFINED ? vb : va);
		return;
	default:
		ca_set_error(out);
		return;
	}
}

void ca_operate_inplace(int op, classad_value *a, classad_value *b,
			classad_value *out)
{
	bool numeric = (op >= CA_OP_LT && op <= CA_OP_GT) ||
		       (op >= CA_OP_ADD && op <= CA_OP_MOD);
	if (numeric) {
		struct operand x, y;
		load(&x, a);
		load(&y, b);
		bool plain = a->type != CLASSAD_ERROR &&
			     a->type != CLASSAD_UNDEFINED &&
			     b->type != CLASSAD_ERROR &&
			     b->type != CLASSAD_UNDEFINED;
		if (plain) {
			int kind = coerce(&x, &y);
			if (kind == CLASSAD_INTEGER || kind == CLASSAD_REAL) {
				struct operand *o[2] = {&x, &y};
				classad_value *v[2] = {a, b};
				for (int k = 0; k < 2; k++) {
					if (o[k]->type == CLASSAD_INTEGER)
						ca_set_int(v[k],
								      o[k]->i);
					else
						ca_set_real(v[k],
								       o[k]->r);
				}
			}
		}
	}
	ca_operate(op, a, b, out);
}
