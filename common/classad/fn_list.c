/*
 * fn_list.c: functions over lists: member(), identicalMember(), size(),
 * sum(), avg(), min(), max(), anyCompare(), allCompare(),
 * evalInEachContext(), countMatches().
 *
 * As in HTCondor, the items of a list are evaluated in the caller's scope.
 */
#include <stdlib.h>

#include "fn.h"

static uint32_t list_len(const classad_value *v)
{
	return ca_as_list(v->u.l.list)->n;
}

CA_FN(ca_fn_member)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	bool identical = ca_is_name(c, "identicalMember");
	bool ok = true;
	if (a[1].type == CLASSAD_UNDEFINED ||
	    (!identical && a[0].type == CLASSAD_UNDEFINED)) {
		out->type = CLASSAD_UNDEFINED;
	} else if (a[1].type != CLASSAD_LIST || a[0].type == CLASSAD_LIST ||
		   a[0].type == CLASSAD_AD ||
		   (!identical && a[0].type == CLASSAD_ERROR)) {
		out->type = CLASSAD_ERROR;
	} else {
		ca_set_bool(out, false);
		uint32_t n = list_len(&a[1]);
		for (uint32_t i = 0; i < n; i++) {
			classad_value item = CLASSAD_VALUE_INIT,
				      r = CLASSAD_VALUE_INIT;
			if (!ca_eval_item(st, &a[1], i, &item)) {
				ca_value_clear(&item);
				classad_value_clear(out);
				ok = ca_fail(out);
				break;
			}
			ca_operate_inplace(identical ? CA_OP_META_EQ
						     : CA_OP_EQ,
					   &item, &a[0], &r);
			ca_value_clear(&item);
			if (r.type == CLASSAD_BOOLEAN && r.u.b) {
				ca_set_bool(out, true);
				break;
			}
			ca_value_clear(&r);
		}
	}
	ca_clear_n(a, 2);
	return ok;
}

CA_FN(ca_fn_size)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	switch (v.type) {
	case CLASSAD_UNDEFINED:
		break;
	case CLASSAD_LIST:
		ca_set_int(out, list_len(&v));
		break;
	case CLASSAD_AD:
		ca_set_int(out, (int64_t)classad_size(v.u.ad->ad));
		break;
	case CLASSAD_STRING:
		ca_set_int(out, v.u.s->len);
		break;
	default:
		out->type = CLASSAD_ERROR;
		break;
	}
	ca_value_clear(&v);
	return true;
}

/* Evaluates argument i into v, which should be of the given type: 1 if it
 * is, 0 when out is already decided (undefined for an undefined argument,
 * else error), -1 on a hard failure. */
static int typed_arg(struct ca_state *st, const struct ca_call *c, uint32_t i,
		     int type, classad_value *v, classad_value *out)
{
	if (!ca_arg(st, c, i, v)) {
		classad_value_clear(v);
		ca_fail(out);
		return -1;
	}
	if (v->type == CLASSAD_UNDEFINED)
		return 0;
	if (v->type != type) {
		classad_value_clear(v);
		ca_err(out);
		return 0;
	}
	return 1;
}

/* The single list argument of sum/avg/min/max, as typed_arg(). */
static int list_arg(struct ca_state *st, const struct ca_call *c,
		    classad_value *list, classad_value *out)
{
	if (c->n != 1) {
		ca_err(out);
		return 0;
	}
	return typed_arg(st, c, 0, CLASSAD_LIST, list, out);
}

/* Evaluates item i of list into item for sum/avg/min/max: 1 if it is a
 * number, 0 if undefined (skipped), -1 when out is decided: error for any
 * other item, or a hard failure (*ok is then false). */
static int number_item(struct ca_state *st, const classad_value *list,
		       uint32_t i, classad_value *item, classad_value *out,
		       bool *ok)
{
	if (!ca_eval_item(st, list, i, item)) {
		ca_value_clear(item);
		*ok = ca_fail(out);
		return -1;
	}
	if (item->type == CLASSAD_UNDEFINED)
		return 0;
	if (item->type != CLASSAD_INTEGER && item->type != CLASSAD_REAL &&
	    item->type != CLASSAD_BOOLEAN) {
		ca_value_clear(item);
		out->type = CLASSAD_ERROR;
		return -1;
	}
	return 1;
}

CA_FN(ca_fn_sum_avg)
{
	classad_value list = CLASSAD_VALUE_INIT;
	int rc = list_arg(st, c, &list, out);
	if (rc <= 0)
		return rc == 0;
	bool avg = ca_is_name(c, "avg");
	classad_value acc = CLASSAD_VALUE_INIT;
	ca_set_int(&acc, 0);
	bool first = true, ok = true;
	int64_t len = 0;
	uint32_t n = list_len(&list);
	for (uint32_t i = 0; i < n; i++) {
		classad_value item = CLASSAD_VALUE_INIT;
		rc = number_item(st, &list, i, &item, out, &ok);
		if (rc < 0)
			goto done;
		if (rc == 0)
			continue;
		len++;
		if (first) {
			/* The first item is taken as it is, so that
			 * sum({true}) is true. */
			ca_value_clear(&acc);
			ca_value_move(&acc, &item);
			first = false;
		} else {
			classad_value r = CLASSAD_VALUE_INIT;
			ca_operate(CA_OP_ADD, &acc, &item, &r);
			ca_value_clear(&acc);
			ca_value_move(&acc, &r);
		}
		ca_value_clear(&item);
	}
	if (avg && len > 0) {
		classad_value d = {.type = CLASSAD_REAL, .u.r = (double)len};
		ca_operate(CA_OP_DIV, &acc, &d, out);
	} else {
		/* avg({}) is 0, as in HTCondor. */
		ca_value_move(out, &acc);
	}
done:
	ca_value_clear(&acc);
	ca_value_clear(&list);
	return ok;
}

CA_FN(ca_fn_min_max)
{
	classad_value list = CLASSAD_VALUE_INIT;
	int rc = list_arg(st, c, &list, out);
	if (rc <= 0)
		return rc == 0;
	int cmp = ca_is_name(c, "min") ? CA_OP_LT : CA_OP_GT;
	classad_value best = CLASSAD_VALUE_INIT;
	bool ok = true;
	uint32_t n = list_len(&list);
	for (uint32_t i = 0; i < n; i++) {
		classad_value item = CLASSAD_VALUE_INIT;
		rc = number_item(st, &list, i, &item, out, &ok);
		if (rc < 0) {
			ca_value_clear(&best);
			goto done;
		}
		if (rc == 0)
			continue;
		if (best.type == CLASSAD_UNDEFINED) {
			ca_value_move(&best, &item);
			continue;
		}
		classad_value r = CLASSAD_VALUE_INIT;
		ca_operate_inplace(cmp, &item, &best, &r);
		if (r.type == CLASSAD_BOOLEAN && r.u.b) {
			ca_value_clear(&best);
			ca_value_move(&best, &item);
		}
		ca_value_clear(&item);
	}
	ca_value_move(out, &best);
done:
	ca_value_clear(&list);
	return ok;
}

CA_FN(ca_fn_list_compare)
{
	if (c->n != 3)
		return ca_err(out);
	classad_value opv = CLASSAD_VALUE_INIT, list = CLASSAD_VALUE_INIT,
		      with = CLASSAD_VALUE_INIT;
	bool ok = true;
	int rc = typed_arg(st, c, 0, CLASSAD_STRING, &opv, out);
	if (rc <= 0) {
		ok = rc == 0;
		goto done;
	}
	static const struct {
		const char *text;
		int op;
	} ops[] = {{"<", CA_OP_LT},      {"<=", CA_OP_LE},
		   {"!=", CA_OP_NE},     {"==", CA_OP_EQ},
		   {">", CA_OP_GT},      {">=", CA_OP_GE},
		   {"is", CA_OP_META_EQ}, {"isnt", CA_OP_META_NE}};
	int op = -1;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(opv.u.s->s, ops[i].text) == 0)
			op = ops[i].op;
	if (op < 0) {
		out->type = CLASSAD_ERROR;
		goto done;
	}
	rc = typed_arg(st, c, 1, CLASSAD_LIST, &list, out);
	if (rc <= 0) {
		ok = rc == 0;
		goto done;
	}
	if (!ca_arg(st, c, 2, &with)) {
		ok = ca_fail(out);
		goto done;
	}
	bool all = ca_is_name(c, "allCompare");
	ca_set_bool(out, all);
	uint32_t n = list_len(&list);
	for (uint32_t i = 0; i < n; i++) {
		classad_value item = CLASSAD_VALUE_INIT, r = CLASSAD_VALUE_INIT;
		if (!ca_eval_item(st, &list, i, &item)) {
			ca_value_clear(&item);
			ok = ca_fail(out);
			goto done;
		}
		ca_operate_inplace(op, &item, &with, &r);
		ca_value_clear(&item);
		if (r.type == CLASSAD_UNDEFINED) {
			/* HTCondor stops at the first undefined comparison:
			 * false, whichever function. */
			ca_set_bool(out, false);
			goto done;
		}
		if (r.type != CLASSAD_BOOLEAN) {
			ca_value_clear(&r);
			out->type = CLASSAD_ERROR;
			goto done;
		}
		if (r.u.b != all) {
			ca_set_bool(out, r.u.b);
			goto done;
		}
	}
done:
	ca_value_clear(&opv);
	ca_value_clear(&list);
	ca_value_clear(&with);
	return ok;
}

static bool in_tree(const struct ca_scope *member, const struct ca_scope *leaf)
{
	for (; leaf; leaf = leaf->parent)
		if (member == leaf)
			return true;
	return false;
}

/* HTCondor's evaluateInContext: expr evaluated afresh in the ad that item
 * names, with the match's other side as its alternate scope. */
static void eval_in_context(struct ca_state *st, const classad_expr *expr,
			    const classad_expr *item, classad_value *out)
{
	classad_value ad = CLASSAD_VALUE_INIT;
	if (!ca_eval(st, item, &ad)) {
		ca_value_clear(&ad);
		out->type = CLASSAD_ERROR;
		return;
	}
	if (ad.type != CLASSAD_AD) {
		out->type = ad.type == CLASSAD_UNDEFINED ? CLASSAD_UNDEFINED
							 : CLASSAD_ERROR;
		ca_value_clear(&ad);
		return;
	}
	struct ca_scope *scope = ad.u.ad, *left, *right;
	struct ca_scope *tmp = NULL;
	if (ca_match_sides(st->root, &left, &right)) {
		struct ca_scope *alt = NULL;
		if (in_tree(scope->parent, left))
			alt = left->alt;
		else if (in_tree(scope->parent, right))
			alt = right->alt;
		if (alt) {
			tmp = ca_scope_new(scope->ad, scope->parent);
			tmp->alt = alt;
			scope = tmp;
		}
	}
	struct ca_frame stack[CA_MAX_DEPTH + 1];
	struct ca_state sub;
	ca_state_init(&sub, scope, st->env, stack);
	if (!ca_eval(&sub, expr, out)) {
		classad_value_clear(out);
		out->type = CLASSAD_ERROR;
	}
	if (tmp)
		ca_scope_unref(tmp);
	ca_value_clear(&ad);
}

CA_FN(ca_fn_eval_in_each)
{
	if (c->n != 2)
		return ca_err(out);
	bool each = ca_is_name(c, "evalInEachContext");
	const classad_expr *expr = c->args[0];
	struct ca_scope *saved = st->cur;
	if (expr->kind == CA_K_ATTR) {
		const classad_expr *found;
		/* An attribute reference names the expression to evaluate;
		 * the lookup's scope stays, as in HTCondor. */
		if (ca_deref(st, expr, &found) == CA_FIND_OK && found)
			expr = found;
	}
	classad_value lv = CLASSAD_VALUE_INIT;
	const struct ca_list *items;
	if (c->args[1]->kind == CA_K_LIST) {
		items = ca_as_list(c->args[1]);
	} else {
		(void)ca_eval(st, c->args[1], &lv);
		if (lv.type == CLASSAD_UNDEFINED) {
			st->cur = saved;
			if (each)
				return ca_undef(out);
			ca_set_int(out, 0);
			return true;
		}
		if (lv.type != CLASSAD_LIST) {
			ca_value_clear(&lv);
			st->cur = saved;
			return ca_err(out);
		}
		items = ca_as_list(lv.u.l.list);
	}
	classad_expr **results =
		each ? ks_xmalloc((items->n ? items->n : 1) * sizeof(*results))
		     : NULL;
	int64_t count = 0;
	for (uint32_t i = 0; i < items->n; i++) {
		classad_value r = CLASSAD_VALUE_INIT;
		eval_in_context(st, expr, items->items[i], &r);
		if (each) {
			results[i] = ca_lit_take(&r);
		} else {
			bool b;
			if (ca_value_bool_equiv(&r, &b) && b)
				count++;
			ca_value_clear(&r);
		}
	}
	if (each)
		ca_value_list_take(out, items->n, results);
	else
		ca_set_int(out, count);
	free(results);
	ca_value_clear(&lv);
	st->cur = saved;
	return true;
}
