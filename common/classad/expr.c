/*
 * expr.c: expression nodes: construction, reference counting, comparison.
 *
 * Nodes are immutable after construction, so a tree may be shared by many
 * ads (the cache relies on this).  A node holds one reference to each child.
 */
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "classad_int.h"

static void *node_new(size_t size, int kind)
{
	classad_expr *e = ks_xcalloc(1, size);
	e->refs = 1;
	e->kind = (uint8_t)kind;
	return e;
}

classad_expr *ca_lit_take(classad_value *v)
{
	struct ca_lit *l = node_new(sizeof(*l), CA_K_LIT);
	ca_value_move(&l->v, v);
	return &l->h;
}

classad_expr *ca_lit_new(const classad_value *v)
{
	classad_value c = CLASSAD_VALUE_INIT;
	classad_value_copy(&c, v);
	return ca_lit_take(&c);
}

classad_expr *ca_lit_int(int64_t i)
{
	classad_value v = {.type = CLASSAD_INTEGER, .u.i = i};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_real(double r)
{
	classad_value v = {.type = CLASSAD_REAL, .u.r = r};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_bool(bool b)
{
	classad_value v = {.type = CLASSAD_BOOLEAN, .u.b = b};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_undefined(void)
{
	classad_value v = {.type = CLASSAD_UNDEFINED};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_error(void)
{
	classad_value v = {.type = CLASSAD_ERROR};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_str(struct ca_str *s)
{
	classad_value v = {.type = CLASSAD_STRING, .u.s = s};
	return ca_lit_take(&v);
}

classad_expr *ca_lit_string(const char *s, size_t len)
{
	return ca_lit_str(ca_str_new(s, len));
}

classad_expr *classad_expr_literal(const classad_value *v)
{
	return ca_lit_new(v);
}

classad_expr *ca_attr_new(classad_expr *base, struct ca_str *name,
			  bool absolute)
{
	struct ca_attr *a = node_new(sizeof(*a), CA_K_ATTR);
	a->base = base;
	a->name = name;
	if (absolute)
		a->h.flags |= CA_ATTR_ABSOLUTE;
	a->h.flags |= (uint16_t)(ca_special_name(name) << CA_ATTR_SPECIAL_SHIFT);
	return &a->h;
}

classad_expr *ca_op_new(int op, classad_expr *x, classad_expr *y,
			classad_expr *z)
{
	struct ca_opnode *o = node_new(sizeof(*o), CA_K_OP);
	o->h.op = (uint8_t)op;
	o->a[0] = x;
	o->a[1] = y;
	o->a[2] = z;
	return &o->h;
}

classad_expr *ca_call_new(struct ca_str *name, uint32_t n,
			  classad_expr **args)
{
	struct ca_call *c =
		node_new(sizeof(*c) + n * sizeof(classad_expr *), CA_K_CALL);
	c->name = name;
	c->fn = ca_builtin_find(name->s, name->len);
	c->n = n;
	if (n)
		memcpy(c->args, args, n * sizeof(classad_expr *));
	return &c->h;
}

classad_expr *ca_list_new(uint32_t n, classad_expr **items)
{
	struct ca_list *l =
		node_new(sizeof(*l) + n * sizeof(classad_expr *), CA_K_LIST);
	l->n = n;
	if (n)
		memcpy(l->items, items, n * sizeof(classad_expr *));
	return &l->h;
}

classad_expr *ca_adlit_new(classad *ad)
{
	struct ca_adlit *a = node_new(sizeof(*a), CA_K_AD);
	a->ad = ad;
	return &a->h;
}

classad_expr *ca_scoperef_new(struct ca_scope *scope)
{
	struct ca_scoperef *r = node_new(sizeof(*r), CA_K_SCOPEREF);
	r->scope = scope;
	return &r->h;
}

classad_expr *classad_expr_ref(const classad_expr *e)
{
	classad_expr *m = (classad_expr *)e;
	if (m)
		m->refs++;
	return m;
}

static void node_free(classad_expr *e)
{
	switch (e->kind) {
	case CA_K_LIT:
		ca_value_clear(&((struct ca_lit *)e)->v);
		break;
	case CA_K_ATTR: {
		struct ca_attr *a = (struct ca_attr *)e;
		classad_expr_free(a->base);
		ca_str_unref(a->name);
		break;
	}
	case CA_K_OP: {
		struct ca_opnode *o = (struct ca_opnode *)e;
		for (int i = 0; i < 3; i++)
			classad_expr_free(o->a[i]);
		break;
	}
	case CA_K_CALL: {
		struct ca_call *c = (struct ca_call *)e;
		for (uint32_t i = 0; i < c->n; i++)
			classad_expr_free(c->args[i]);
		ca_str_unref(c->name);
		break;
	}
	case CA_K_LIST: {
		struct ca_list *l = (struct ca_list *)e;
		for (uint32_t i = 0; i < l->n; i++)
			classad_expr_free(l->items[i]);
		break;
	}
	case CA_K_AD:
		classad_free(((struct ca_adlit *)e)->ad);
		break;
	default:
		break;
	}
	free(e);
}

void classad_expr_free(classad_expr *e)
{
	if (e && --e->refs == 0)
		node_free(e);
}

bool classad_expr_is_literal(const classad_expr *e, classad_value *out)
{
	if (!e || e->kind != CA_K_LIT)
		return false;
	if (out)
		classad_value_copy(out, &ca_as_lit(e)->v);
	return true;
}

bool classad_expr_is_list(const classad_expr *e)
{
	return e && e->kind == CA_K_LIST;
}

static int special_of(const classad_expr *e)
{
	return (e->flags & CA_ATTR_SPECIAL_MASK) >> CA_ATTR_SPECIAL_SHIFT;
}

/* The walk behind classad_expr_each_ref() (ad NULL: the names read from
 * the ad itself) and classad_expr_each_target_ref() (ad given: the names
 * read from the other ad of a match). */
static void walk_refs(const classad *ad, const classad_expr *e,
		      void (*fn)(const char *name, void *arg), void *arg)
{
	if (!e)
		return;
	switch (e->kind) {
	case CA_K_ATTR: {
		const struct ca_attr *a = (const void *)e;
		const classad_expr *b = a->base;
		if (!b) {
			if (!(e->flags & CA_ATTR_ABSOLUTE) &&
			    special_of(e) == CA_SP_NONE &&
			    (!ad || !classad_lookup(ad, a->name->s)))
				fn(a->name->s, arg);
			break;
		}
		const struct ca_attr *ba = (const void *)b;
		bool plain_base = b->kind == CA_K_ATTR && !ba->base;
		bool target = plain_base && ba->name->len == 6 &&
			      strncasecmp(ba->name->s, "TARGET", 6) == 0;
		if (plain_base && special_of(b) == CA_SP_SELF) {
			if (!ad)
				fn(a->name->s, arg);
		} else if (target) {
			/* TARGET.x reads the other ad of a match */
			if (ad)
				fn(a->name->s, arg);
		} else {
			walk_refs(ad, b, fn, arg);
		}
		break;
	}
	case CA_K_OP: {
		const struct ca_opnode *o = (const void *)e;
		for (int i = 0; i < 3; i++)
			walk_refs(ad, o->a[i], fn, arg);
		break;
	}
	case CA_K_CALL: {
		const struct ca_call *c = (const void *)e;
		for (uint32_t i = 0; i < c->n; i++)
			walk_refs(ad, c->args[i], fn, arg);
		break;
	}
	case CA_K_LIST: {
		const struct ca_list *l = (const void *)e;
		for (uint32_t i = 0; i < l->n; i++)
			walk_refs(ad, l->items[i], fn, arg);
		break;
	}
	default:
		break;
	}
}

void classad_expr_each_ref(const classad_expr *e,
			   void (*fn)(const char *name, void *arg), void *arg)
{
	walk_refs(NULL, e, fn, arg);
}

void classad_expr_each_target_ref(const classad *ad, const classad_expr *e,
				  void (*fn)(const char *name, void *arg),
				  void *arg)
{
	walk_refs(ad, e, fn, arg);
}

static bool value_same(const classad_value *a, const classad_value *b);
static bool ad_same(const classad *a, const classad *b);

bool classad_expr_same(const classad_expr *a, const classad_expr *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->op != b->op ||
	    a->flags != b->flags)
		return false;
	switch (a->kind) {
	case CA_K_LIT:
		return value_same(&ca_as_lit(a)->v, &ca_as_lit(b)->v);
	case CA_K_ATTR: {
		const struct ca_attr *x = (const void *)a, *y = (const void *)b;
		return x->name->len == y->name->len &&
		       memcmp(x->name->s, y->name->s, x->name->len) == 0 &&
		       classad_expr_same(x->base, y->base);
	}
	case CA_K_OP: {
		const struct ca_opnode *x = (const void *)a, *y = (const void *)b;
		for (int i = 0; i < 3; i++)
			if (!classad_expr_same(x->a[i], y->a[i]))
				return false;
		return true;
	}
	case CA_K_CALL: {
		const struct ca_call *x = (const void *)a, *y = (const void *)b;
		if (x->n != y->n || x->name->len != y->name->len ||
		    strcasecmp(x->name->s, y->name->s) != 0)
			return false;
		for (uint32_t i = 0; i < x->n; i++)
			if (!classad_expr_same(x->args[i], y->args[i]))
				return false;
		return true;
	}
	case CA_K_LIST: {
		const struct ca_list *x = ca_as_list(a), *y = ca_as_list(b);
		if (x->n != y->n)
			return false;
		for (uint32_t i = 0; i < x->n; i++)
			if (!classad_expr_same(x->items[i], y->items[i]))
				return false;
		return true;
	}
	case CA_K_AD:
		return ad_same(((const struct ca_adlit *)a)->ad,
			       ((const struct ca_adlit *)b)->ad);
	case CA_K_SCOPEREF:
		return ((const struct ca_scoperef *)a)->scope ==
		       ((const struct ca_scoperef *)b)->scope;
	}
	return false;
}

static bool ad_same(const classad *a, const classad *b)
{
	if (a == b)
		return true;
	if (classad_size(a) != classad_size(b))
		return false;
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(a, &pos, &name, &e)) {
		const classad_expr *o = classad_lookup(b, name);
		if (!o || !classad_expr_same(e, o))
			return false;
	}
	return true;
}

static bool value_same(const classad_value *a, const classad_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case CLASSAD_UNDEFINED:
	case CLASSAD_ERROR:
		return true;
	case CLASSAD_BOOLEAN:
		return a->u.b == b->u.b;
	case CLASSAD_INTEGER:
		return a->u.i == b->u.i;
	case CLASSAD_REAL:
	case CLASSAD_RELTIME:
		/* Bitwise equality: NaN literals are the same literal. */
		return memcmp(&a->u.r, &b->u.r, sizeof(double)) == 0 ||
		       a->u.r == b->u.r;
	case CLASSAD_ABSTIME:
		return a->u.abs.secs == b->u.abs.secs &&
		       a->u.abs.offset == b->u.abs.offset;
	case CLASSAD_STRING:
		return a->u.s->len == b->u.s->len &&
		       memcmp(a->u.s->s, b->u.s->s, a->u.s->len) == 0;
	case CLASSAD_LIST:
		return classad_expr_same(a->u.l.list, b->u.l.list);
	case CLASSAD_AD:
		return ad_same(a->u.ad->ad, b->u.ad->ad);
	}
	return false;
}
