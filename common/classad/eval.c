/*
 * eval.c: evaluating expressions.
 *
 * Name lookup follows HTCondor.  An unscoped name is looked up in the
 * current scope and then its parents; at the first level that lacks it, the
 * special names toplevel/root, self/my, parent and CurrentTime are
 * recognised; if nothing is found and the starting scope has an alternate
 * (the other ad of a match), the search is repeated from there.
 * "base.name" evaluates base to an ad and searches from it (never the
 * alternate); a list base projects name over the ads of the list.
 *
 * An attribute that is being evaluated and is reached again (a cycle)
 * evaluates to undefined.  Nesting beyond CA_MAX_DEPTH, or more than
 * CA_MAX_STEPS node evaluations, fails the whole evaluation (error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "classad_int.h"

void ca_state_init(struct ca_state *st, struct ca_scope *scope,
		   const classad_env *env, struct ca_frame *stack)
{
	st->cur = scope;
	st->root = scope;
	while (st->root && st->root->parent)
		st->root = st->root->parent;
	st->env = env;
	st->depth = CA_MAX_DEPTH;
	st->steps = CA_MAX_STEPS;
	st->stack = stack;
	st->nstack = 0;
	st->debug = false;
	memset(st->resolved, 0, sizeof(st->resolved));
}

static bool fail(classad_value *out)
{
	out->type = CLASSAD_ERROR;
	return false;
}

/* ---- name lookup ----------------------------------------------------- */

enum { FIND_FAIL, FIND_ERROR, FIND_UNDEF, FIND_OK };

struct found {
	const classad_expr *expr; /* the attribute's expression, or NULL */
	struct ca_scope *scope;   /* where it was found */
	classad_value v;          /* the value when expr is NULL */
};

int ca_special_name(const struct ca_str *n)
{
	switch (n->len) {
	case 2:
		return strcasecmp(n->s, "my") == 0 ? CA_SP_SELF : CA_SP_NONE;
	case 4:
		if (strcasecmp(n->s, "self") == 0)
			return CA_SP_SELF;
		return strcasecmp(n->s, "root") == 0 ? CA_SP_ROOT : CA_SP_NONE;
	case 6:
		return strcasecmp(n->s, "parent") == 0 ? CA_SP_PARENT
						       : CA_SP_NONE;
	case 8:
		return strcasecmp(n->s, "toplevel") == 0 ? CA_SP_ROOT
							 : CA_SP_NONE;
	case 11:
		return strcasecmp(n->s, "currenttime") == 0 ? CA_SP_TIME
							   : CA_SP_NONE;
	}
	return CA_SP_NONE;
}

static void set_ad(classad_value *v, struct ca_scope *s)
{
	v->type = CLASSAD_AD;
	v->u.ad = ca_scope_ref(s);
}

static int lookup(struct ca_state *st, struct ca_scope *start,
		  const struct ca_str *name, int special, struct found *f)
{
	struct ca_scope *s = start;
	while (s) {
		st->cur = s;
		const classad_expr *e = ca_ad_lookup(s->ad, name);
		if (e) {
			f->expr = e;
			f->scope = s;
			return FIND_OK;
		}
		struct ca_scope *super = s == st->root ? NULL : s->parent;
		switch (special) {
		case CA_SP_NONE:
			s = super;
			if (s == start)
				return FIND_UNDEF;
			continue;
		case CA_SP_ROOT:
			if (!st->root)
				return FIND_FAIL;
			set_ad(&f->v, st->root);
			return FIND_OK;
		case CA_SP_SELF:
			set_ad(&f->v, s);
			return FIND_OK;
		case CA_SP_PARENT:
			if (!super)
				return FIND_UNDEF;
			set_ad(&f->v, super);
			return FIND_OK;
		default: /* CA_SP_TIME */
			f->v.type = CLASSAD_INTEGER;
			f->v.u.i = (int64_t)time(NULL);
			return FIND_OK;
		}
	}
	return FIND_UNDEF;
}

static bool select_from(struct ca_state *st, const classad_value *base,
			const struct ca_str *name, int special, struct found *f,
			int *rc);
static bool finish(struct ca_state *st, int rc, struct found *f,
		   classad_value *out);

static int attr_special(const struct ca_attr *a)
{
	return (a->h.flags & CA_ATTR_SPECIAL_MASK) >> CA_ATTR_SPECIAL_SHIFT;
}

/* An unscoped or absolute name: where it leads from the current scope. */
static int find_unscoped(struct ca_state *st, const struct ca_attr *a,
			 struct found *f)
{
	struct ca_scope *start =
		(a->h.flags & CA_ATTR_ABSOLUTE) ? st->root : st->cur;
	if (!start)
		return (a->h.flags & CA_ATTR_ABSOLUTE) ? FIND_FAIL : FIND_UNDEF;
	struct ca_resolved *r =
		&st->resolved[(((uintptr_t)start >> 4) ^
			       ((uintptr_t)a->name >> 4)) &
			      (CA_RESOLVED - 1)];
	if (r->start == start && r->name == a->name) {
		f->expr = r->expr;
		f->scope = st->cur = r->scope;
		return FIND_OK;
	}
	int sp = attr_special(a);
	int rc = lookup(st, start, a->name, sp, f);
	if (rc == FIND_UNDEF && !(a->h.flags & CA_ATTR_ABSOLUTE) && start->alt)
		rc = lookup(st, start->alt, a->name, sp, f);
	if (rc == FIND_OK && f->expr && !(a->h.flags & CA_ATTR_ABSOLUTE)) {
		r->start = start;
		r->name = a->name;
		r->expr = f->expr;
		r->scope = f->scope;
	}
	return rc;
}

static bool on_stack(const struct ca_state *st, const struct found *f)
{
	for (int i = 0; i < st->nstack; i++)
		if (st->stack[i].e == f->expr && st->stack[i].scope == f->scope)
			return true;
	return false;
}

/* "NAME.x" where NAME leads straight to an ad (TARGET in a match, MY):
 * the ad to search, without making a value of it.  NULL if NAME is
 * anything else, and then nothing has been done. */
static struct ca_scope *direct_base(struct ca_state *st,
				    const struct ca_attr *base,
				    classad_value *hold)
{
	if (base->base || st->depth <= 1 || st->steps < 3)
		return NULL;
	struct ca_scope *saved = st->cur;
	struct found f = {0};
	int rc = find_unscoped(st, base, &f);
	st->cur = saved;
	if (rc != FIND_OK) {
		ca_value_clear(&f.v);
		return NULL;
	}
	if (f.expr && f.expr->kind == CA_K_SCOPEREF &&
	    ((const struct ca_scoperef *)f.expr)->scope && !on_stack(st, &f)) {
		/* What evaluating the reference would have counted. */
		st->steps -= 2;
		return ((const struct ca_scoperef *)f.expr)->scope;
	}
	if (!f.expr && f.v.type == CLASSAD_AD) {
		st->steps -= 2;
		ca_value_move(hold, &f.v);
		return hold->u.ad;
	}
	ca_value_clear(&f.v);
	return NULL;
}

/* Finds what attribute reference a names (HTCondor's FindExpr). */
static int find_expr(struct ca_state *st, const struct ca_attr *a,
		     struct found *f, classad_value *basev)
{
	if (!a->base)
		return find_unscoped(st, a, f);
	if (a->base->kind == CA_K_ATTR) {
		struct ca_scope *s =
			direct_base(st, (const struct ca_attr *)a->base, basev);
		if (s) {
			st->steps--;
			return lookup(st, s, a->name, attr_special(a), f);
		}
	}
	if (st->depth <= 0)
		return FIND_ERROR;
	st->depth--;
	bool ok = ca_eval(st, a->base, basev);
	st->depth++;
	if (!ok)
		return FIND_FAIL;
	int rc;
	if (!select_from(st, basev, a->name, attr_special(a), f, &rc))
		return FIND_FAIL;
	return rc;
}

/* "base.name" once base is evaluated; false on a hard failure. */
static bool select_from(struct ca_state *st, const classad_value *base,
			const struct ca_str *name, int special, struct found *f,
			int *rc)
{
	switch (base->type) {
	case CLASSAD_UNDEFINED:
		*rc = FIND_UNDEF;
		return true;
	case CLASSAD_AD:
		*rc = lookup(st, base->u.ad, name, special, f);
		return true;
	case CLASSAD_LIST:
		break;
	default:
		*rc = FIND_ERROR;
		return true;
	}
	/* Projection: a new list of item.name for each item, each
	 * evaluated in the caller's scope. */
	const struct ca_list *l = ca_as_list(base->u.l.list);
	struct ca_scope *saved = st->cur;
	classad_expr **items = ks_xmalloc((l->n ? l->n : 1) * sizeof(*items));
	for (uint32_t i = 0; i < l->n; i++) {
		classad_value iv = CLASSAD_VALUE_INIT, r = CLASSAD_VALUE_INIT;
		st->cur = saved;
		bool ok = ca_eval(st, l->items[i], &iv);
		if (ok) {
			struct found g = {0};
			int grc;
			ok = select_from(st, &iv, name, special, &g, &grc);
			if (ok)
				ok = finish(st, grc, &g, &r);
			st->cur = saved;
			ca_value_clear(&g.v);
		}
		ca_value_clear(&iv);
		if (!ok) {
			ca_value_clear(&r);
			for (uint32_t k = 0; k < i; k++)
				classad_expr_free(items[k]);
			free(items);
			st->cur = saved;
			return false;
		}
		items[i] = ca_lit_take(&r);
	}
	st->cur = saved;
	f->expr = NULL;
	ca_value_list_take(&f->v, l->n, items);
	free(items);
	*rc = FIND_OK;
	return true;
}

/* Evaluates what a lookup found (HTCondor's AttributeReference::_Evaluate
 * after FindExpr); st->cur is left wherever the lookup left it. */
static bool finish(struct ca_state *st, int rc, struct found *f,
		   classad_value *out)
{
	switch (rc) {
	case FIND_FAIL:
		return fail(out);
	case FIND_ERROR:
		out->type = CLASSAD_ERROR;
		return true;
	case FIND_UNDEF:
		out->type = CLASSAD_UNDEFINED;
		return true;
	}
	if (st->depth <= 0)
		return fail(out);
	if (!f->expr) {
		ca_value_move(out, &f->v);
		return true;
	}
	if (on_stack(st, f)) {
		out->type = CLASSAD_UNDEFINED;
		return true;
	}
	st->stack[st->nstack].e = f->expr;
	st->stack[st->nstack].scope = f->scope;
	st->nstack++;
	st->depth--;
	st->cur = f->scope;
	bool ok = ca_eval(st, f->expr, out);
	st->depth++;
	st->nstack--;
	return ok;
}

static bool eval_attr(struct ca_state *st, const struct ca_attr *a,
		      classad_value *out)
{
	struct ca_scope *saved = st->cur;
	struct found f = {0};
	classad_value basev = CLASSAD_VALUE_INIT;
	int rc = find_expr(st, a, &f, &basev);
	bool ok = finish(st, rc, &f, out);
	ca_value_clear(&f.v);
	ca_value_clear(&basev);
	st->cur = saved;
	return ok;
}

/* ---- operators ------------------------------------------------------- */

/* The subscript operator: list[integer] or ad["name"]. */
static void subscript(struct ca_state *st, const classad_value *a,
		      const classad_value *i, classad_value *out)
{
	if (a->type == CLASSAD_AD && i->type == CLASSAD_STRING) {
		const struct ca_scope *s = a->u.ad;
		const classad_expr *e = ca_ad_lookup(s->ad, i->u.s);
		if (!e) {
			ca_set_undef(out);
			return;
		}
		/* HTCondor evaluates it as a fresh top-level evaluation of
		 * the ad's attribute. */
		struct ca_frame stack[CA_MAX_DEPTH + 1];
		struct ca_state sub;
		ca_state_init(&sub, a->u.ad, st->env, stack);
		struct found f = {0};
		int rc = lookup(&sub, a->u.ad, i->u.s, ca_special_name(i->u.s),
				&f);
		bool ok = true;
		if (rc == FIND_OK && f.expr) {
			sub.cur = f.scope;
			ok = ca_eval(&sub, f.expr, out);
		} else if (rc == FIND_OK) {
			ca_value_move(out, &f.v);
		} else {
			ca_set_undef(out);
		}
		ca_value_clear(&f.v);
		if (!ok)
			ca_set_error(out);
		return;
	}
	if (a->type == CLASSAD_LIST && i->type == CLASSAD_INTEGER) {
		const struct ca_list *l = ca_as_list(a->u.l.list);
		/* HTCondor reads the index into an int. */
		int32_t idx = (int32_t)(uint32_t)(uint64_t)i->u.i;
		if (idx < 0 || (uint32_t)idx >= l->n) {
			ca_set_error(out);
			return;
		}
		if (st->depth <= 0) {
			ca_set_error(out);
			return;
		}
		struct ca_scope *saved = st->cur;
		st->depth--;
		st->cur = a->u.l.scope;
		/* Its success is ignored, as in HTCondor. */
		(void)ca_eval(st, l->items[idx], out);
		st->cur = saved;
		st->depth++;
		return;
	}
	ca_set_error(out);
}

/* ca_eval(), with literals (a third of all operands) done in place. */
static inline bool eval_child(struct ca_state *st, const classad_expr *e,
			      classad_value *out)
{
	if (e->kind == CA_K_LIT && ca_as_lit(e)->v.type < CLASSAD_STRING) {
		if (--st->steps < 0) {
			out->type = CLASSAD_ERROR;
			return false;
		}
		*out = ca_as_lit(e)->v;
		return true;
	}
	return ca_eval(st, e, out);
}

static bool eval_op(struct ca_state *st, const struct ca_opnode *o,
		    classad_value *out)
{
	if (--st->depth < 0) {
		st->depth++;
		return fail(out);
	}
	int op = o->h.op;
	bool ok;
	classad_value v1 = CLASSAD_VALUE_INIT, v2 = CLASSAD_VALUE_INIT,
		      v3 = CLASSAD_VALUE_INIT;
	if (op == CA_OP_PAREN) {
		ok = ca_eval(st, o->a[0], out);
		st->depth++;
		return ok;
	}
	if (!eval_child(st, o->a[0], &v1)) {
		ok = fail(out);
		goto out;
	}
	bool b, need2 = o->a[1] != NULL, need3 = o->a[2] != NULL;
	switch (op) {
	case CA_OP_OR:
	case CA_OP_AND:
		if (ca_value_bool_equiv(&v1, &b) && b == (op == CA_OP_OR)) {
			ca_set_bool(out, b);
			ok = true;
			goto out;
		}
		if (v1.type == CLASSAD_ERROR) {
			out->type = CLASSAD_ERROR;
			ok = true;
			goto out;
		}
		break;
	case CA_OP_ELVIS:
		if (v1.type != CLASSAD_UNDEFINED) {
			ca_value_move(out, &v1);
			ok = true;
			goto out;
		}
		break;
	case CA_OP_TERNARY:
		if (ca_value_bool_equiv(&v1, &b)) {
			need2 = b;
			need3 = !b;
		} else if (v1.type == CLASSAD_ERROR ||
			   v1.type == CLASSAD_UNDEFINED) {
			out->type = v1.type;
			ok = true;
			goto out;
		}
		break;
	}
	if (need2 && !eval_child(st, o->a[1], &v2)) {
		ok = fail(out);
		goto out;
	}
	if (need3 && !eval_child(st, o->a[2], &v3)) {
		ok = fail(out);
		goto out;
	}
	ok = true;
	if (op == CA_OP_TERNARY) {
		if (v1.type == CLASSAD_UNDEFINED)
			out->type = CLASSAD_UNDEFINED;
		else if (!ca_value_bool_equiv(&v1, &b))
			out->type = CLASSAD_ERROR;
		else
			ca_value_move(out, b ? &v2 : &v3);
	} else if (op == CA_OP_SUBSCRIPT) {
		if (v1.type == CLASSAD_ERROR || v2.type == CLASSAD_ERROR)
			out->type = CLASSAD_ERROR;
		else if (v1.type == CLASSAD_UNDEFINED ||
			 v2.type == CLASSAD_UNDEFINED)
			out->type = CLASSAD_UNDEFINED;
		else
			subscript(st, &v1, &v2, out);
	} else {
		ca_operate(op, &v1, o->a[1] ? &v2 : NULL, out);
	}
out:
	ca_value_clear(&v1);
	ca_value_clear(&v2);
	ca_value_clear(&v3);
	st->depth++;
	return ok;
}

/* ---- the dispatcher ------------------------------------------------- */

static void debug_line(struct ca_state *st, const classad_expr *e,
		       const classad_value *v);

bool ca_eval(struct ca_state *st, const classad_expr *e, classad_value *out)
{
	if (--st->steps < 0)
		return fail(out);
	bool ok = true;
	switch (e->kind) {
	case CA_K_LIT: {
		const classad_value *v = &ca_as_lit(e)->v;
		*out = *v;
		switch (v->type) {
		case CLASSAD_STRING:
			ca_str_ref(v->u.s);
			break;
		case CLASSAD_LIST:
			classad_expr_ref(v->u.l.list);
			if (v->u.l.scope)
				ca_scope_ref(v->u.l.scope);
			break;
		case CLASSAD_AD:
			ca_scope_ref(v->u.ad);
			break;
		}
		return true;
	}
	case CA_K_ATTR:
		ok = eval_attr(st, (const struct ca_attr *)e, out);
		break;
	case CA_K_OP:
		return eval_op(st, (const struct ca_opnode *)e, out);
	case CA_K_CALL: {
		const struct ca_call *c = (const struct ca_call *)e;
		if (c->fn)
			ok = c->fn->fn(st, c, out);
		else
			out->type = CLASSAD_ERROR;
		break;
	}
	case CA_K_LIST:
		out->type = CLASSAD_LIST;
		out->u.l.list = classad_expr_ref(e);
		out->u.l.scope = st->cur ? ca_scope_ref(st->cur) : NULL;
		break;
	case CA_K_AD:
		out->type = CLASSAD_AD;
		out->u.ad = ca_scope_new(((const struct ca_adlit *)e)->ad,
					 st->cur);
		break;
	case CA_K_SCOPEREF: {
		struct ca_scope *s = ((const struct ca_scoperef *)e)->scope;
		if (s)
			set_ad(out, s);
		else
			out->type = CLASSAD_UNDEFINED;
		break;
	}
	}
	if (st->debug)
		debug_line(st, e, out);
	return ok;
}

static void debug_line(struct ca_state *st, const classad_expr *e,
		       const classad_value *v)
{
	if (!st->env || !st->env->debug || e->kind == CA_K_AD)
		return;
	struct classad_buf b = {0};
	ca_buf_adds(&b, "Classad debug: ");
	ca_unparse_expr(&b, e, false);
	ca_buf_adds(&b, " --> ");
	switch (v->type) {
	case CLASSAD_UNDEFINED: ca_buf_adds(&b, "UNDEFINED"); break;
	case CLASSAD_ERROR:
		if (e->kind == CA_K_CALL && !((const struct ca_call *)e)->fn)
			ca_buf_adds(&b, "ERROR (function is not defined)");
		else
			ca_buf_adds(&b, "ERROR");
		break;
	case CLASSAD_BOOLEAN: ca_buf_adds(&b, v->u.b ? "TRUE" : "FALSE"); break;
	case CLASSAD_INTEGER: ca_buf_add_int(&b, v->u.i); break;
	case CLASSAD_REAL: classad_buf_printf(&b, "%g", v->u.r); break;
	case CLASSAD_STRING: classad_buf_add(&b, v->u.s->s, v->u.s->len); break;
	case CLASSAD_LIST: ca_buf_adds(&b, "LIST"); break;
	case CLASSAD_AD: ca_buf_adds(&b, "CLASSAD"); break;
	case CLASSAD_ABSTIME: ca_buf_adds(&b, "ABSOLUTE TIME"); break;
	case CLASSAD_RELTIME: ca_buf_adds(&b, "RELATIVE TIME"); break;
	}
	st->env->debug(st->env->debug_arg, b.data);
	free(b.data);
}

/* ---- top-level entry points ---------------------------------------- */

int ca_eval_top(struct ca_scope *scope, const classad_expr *e,
		const classad_env *env, classad_value *out)
{
	struct ca_frame stack[CA_MAX_DEPTH + 1];
	struct ca_state st;
	ca_state_init(&st, scope, env, stack);
	classad_value_clear(out);
	if (!e)
		return 0;
	return ca_eval(&st, e, out) ? 0 : KS_EEVAL;
}

int classad_eval_expr(const classad *ad, const classad_expr *e,
		      const classad_env *env, classad_value *out)
{
	if (ad)
		return ca_eval_top(&((classad *)ad)->root, e, env, out);
	classad *empty = classad_new();
	int rc = ca_eval_top(&empty->root, e, env, out);
	classad_free(empty);
	return rc;
}

int classad_eval_attr(const classad *ad, const char *name,
		      const classad_env *env, classad_value *out)
{
	size_t len = name ? strlen(name) : 0;
	classad_value_clear(out);
	if (!len || !ad)
		return 0;
	struct ca_str *n = ca_str_new(name, len);
	classad_expr *ref = ca_attr_new(NULL, n, false);
	int rc = classad_eval_expr(ad, ref, env, out);
	classad_expr_free(ref);
	return rc;
}

int classad_eval_expr_in_match(const classad *my, const classad *target,
			       const classad_expr *e, const classad_env *env,
			       classad_value *out)
{
	if (!target || target == my)
		return classad_eval_expr(my, e, env, out);
	classad_match *m = classad_match_new(my, target, env);
	int rc = classad_match_eval(m, CLASSAD_LEFT, e, out);
	classad_match_free(m);
	return rc;
}

bool classad_eval_int(const classad *ad, const char *name,
		      const classad_env *env, int64_t *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, env, &v);
	bool ok = true;
	switch (v.type) {
	case CLASSAD_INTEGER: *out = v.u.i; break;
	case CLASSAD_REAL: *out = ca_double_to_i64(v.u.r); break;
	case CLASSAD_BOOLEAN: *out = v.u.b; break;
	default: ok = false; break;
	}
	ca_value_clear(&v);
	return ok;
}

bool classad_eval_real(const classad *ad, const char *name,
		       const classad_env *env, double *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, env, &v);
	double r;
	bool ok = ca_value_number(&v, &r);
	if (ok)
		*out = r;
	ca_value_clear(&v);
	return ok;
}

bool classad_eval_bool(const classad *ad, const char *name,
		       const classad_env *env, bool *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, env, &v);
	bool b;
	bool ok = ca_value_bool_equiv(&v, &b);
	if (ok)
		*out = b;
	ca_value_clear(&v);
	return ok;
}

bool classad_eval_string(const classad *ad, const char *name,
			 const classad_env *env, char **str)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, env, &v);
	bool ok = v.type == CLASSAD_STRING;
	if (ok)
		*str = ks_xstrndup(v.u.s->s, v.u.s->len);
	ca_value_clear(&v);
	return ok;
}

char *classad_eval_string_dup(const classad *ad, const char *name)
{
	char *s = NULL;
	return ad && classad_eval_string(ad, name, NULL, &s) ? s : NULL;
}

/* ---- references (for unresolved() and evalInEachContext) ----------- */

int ca_deref(struct ca_state *st, const classad_expr *e,
	     const classad_expr **found)
{
	*found = NULL;
	if (e->kind != CA_K_ATTR)
		return CA_FIND_ERROR;
	struct found f = {0};
	classad_value basev = CLASSAD_VALUE_INIT;
	int rc = find_expr(st, (const struct ca_attr *)e, &f, &basev);
	/* Only an expression can be handed back; names that resolve to a
	 * value (MY, a projection) count as found but yield no expression. */
	if (rc == FIND_OK)
		*found = f.expr;
	ca_value_clear(&f.v);
	ca_value_clear(&basev);
	switch (rc) {
	case FIND_FAIL: return CA_FIND_FAIL;
	case FIND_ERROR: return CA_FIND_ERROR;
	case FIND_UNDEF: return CA_FIND_UNDEF;
	}
	return CA_FIND_OK;
}

void ca_names_add(struct ca_names *ns, const char *s, size_t len)
{
	size_t lo = 0, hi = ns->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *m = ns->v[mid];
		size_t mlen = strlen(m);
		int c = strncasecmp(s, m, len < mlen ? len : mlen);
		if (c == 0)
			c = len < mlen ? -1 : len > mlen;
		if (c == 0)
			return;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 8;
		ns->v = ks_xrealloc(ns->v, ns->cap * sizeof(char *));
	}
	memmove(ns->v + lo + 1, ns->v + lo, (ns->n - lo) * sizeof(char *));
	ns->v[lo] = ks_xstrndup(s, len);
	ns->n++;
}

void ca_names_free(struct ca_names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	ns->v = NULL;
	ns->n = ns->cap = 0;
}

static bool ext_ad(struct ca_state *st, const classad *ad,
		   struct ca_names *refs)
{
	for (uint32_t i = 0; i < ad->n; i++) {
		if (!ad->ents[i].name)
			continue;
		if (st->depth <= 0)
			return false;
		st->depth--;
		bool ok = ca_external_refs(st, ad->ents[i].expr, refs);
		st->depth++;
		if (!ok)
			return false;
	}
	return true;
}

bool ca_external_refs(struct ca_state *st, const classad_expr *e,
		      struct ca_names *refs)
{
	if (--st->steps < 0)
		return false;
	switch (e->kind) {
	case CA_K_LIT:
		return true;
	case CA_K_ATTR: {
		const struct ca_attr *a = (const struct ca_attr *)e;
		struct ca_scope *start;
		classad_value bv = CLASSAD_VALUE_INIT;
		if (!a->base) {
			start = (a->h.flags & CA_ATTR_ABSOLUTE) ? st->root
							       : st->cur;
			if (!start)
				return !(a->h.flags & CA_ATTR_ABSOLUTE);
		} else {
			if (!ca_eval(st, a->base, &bv)) {
				ca_value_clear(&bv);
				return false;
			}
			if (bv.type == CLASSAD_UNDEFINED) {
				struct classad_buf b = {0};
				ca_unparse_expr(&b, a->base, false);
				ca_buf_addc(&b, '.');
				classad_buf_add(&b, a->name->s, a->name->len);
				ca_names_add(refs, b.data, b.len);
				free(b.data);
				return true;
			}
			if (bv.type != CLASSAD_AD) {
				ca_value_clear(&bv);
				return false;
			}
			start = bv.u.ad;
		}
		struct ca_scope *saved = st->cur;
		struct found f = {0};
		int rc = lookup(st, start, a->name, attr_special(a), &f);
		bool ok = true;
		if (rc == FIND_UNDEF) {
			ca_names_add(refs, a->name->s, a->name->len);
		} else if (rc != FIND_OK) {
			ok = false;
		} else if (st->depth <= 0) {
			ok = false;
		} else {
			st->depth--;
			if (f.expr)
				ok = ca_external_refs(st, f.expr, refs);
			else if (f.v.type == CLASSAD_AD)
				ok = ext_ad(st, f.v.u.ad->ad, refs);
			st->depth++;
		}
		ca_value_clear(&f.v);
		ca_value_clear(&bv);
		st->cur = saved;
		return ok;
	}
	case CA_K_OP: {
		const struct ca_opnode *o = (const struct ca_opnode *)e;
		for (int i = 0; i < 3; i++)
			if (o->a[i] && !ca_external_refs(st, o->a[i], refs))
				return false;
		return true;
	}
	case CA_K_CALL: {
		const struct ca_call *c = (const struct ca_call *)e;
		for (uint32_t i = 0; i < c->n; i++) {
			if (st->depth <= 0)
				return false;
			st->depth--;
			bool ok = ca_external_refs(st, c->args[i], refs);
			st->depth++;
			if (!ok)
				return false;
		}
		return true;
	}
	case CA_K_LIST: {
		const struct ca_list *l = ca_as_list(e);
		for (uint32_t i = 0; i < l->n; i++) {
			if (st->depth <= 0)
				return false;
			st->depth--;
			bool ok = ca_external_refs(st, l->items[i], refs);
			st->depth++;
			if (!ok)
				return false;
		}
		return true;
	}
	case CA_K_AD:
		return ext_ad(st, ((const struct ca_adlit *)e)->ad, refs);
	default:
		return false;
	}
}
