/*
 * match.c: two ads seen as a match.
 *
 * The scopes are laid out as HTCondor's MatchClassAd lays them out, so that
 * every name resolves as it does there:
 *
 *   root:  symmetricMatch, leftMatchesRight, rightMatchesLeft,
 *          leftRankValue, rightRankValue, lCtx, rCtx, LEFT, RIGHT
 *   lctx (parent root):  other = .RIGHT; target = .RIGHT; my = .LEFT;
 *                        ad = .LEFT        (rctx the other way round)
 *   left (parent lctx, alternate right), right (parent rctx, alternate
 *   left)
 *
 * so TARGET in the left ad climbs to lctx and means .RIGHT, and an
 * unscoped name missing everywhere is looked up in the other ad.  (The
 * context ads hold the sides themselves rather than the references
 * ".RIGHT" and ".LEFT": the same value, one lookup fewer for every TARGET
 * in an expression.)
 */
#include <stdlib.h>

#include "fn.h"

enum { MX_SYM, MX_LMR, MX_RML, MX_LRANK, MX_RRANK, MX_N };

struct classad_match {
	uint32_t refs;
	const classad_env *env;
	classad *left, *right;
	classad *root_ad, *lctx_ad, *rctx_ad;
	struct ca_scope root, lctx, rctx, lscope, rscope;
	classad_expr *refs_to_scopes[4]; /* weak SCOPEREF nodes */
	classad_expr *attr[MX_N];        /* the root's expressions */
};

static void init_scope(struct ca_scope *s, classad_match *m, classad *ad,
		       struct ca_scope *parent, struct ca_scope *alt)
{
	s->kind = CA_SCOPE_MATCH;
	s->owner = m;
	s->ad = ad;
	s->parent = parent;
	s->alt = alt;
}

static classad_expr *absref(const char *name)
{
	return ca_attr_new(NULL, ca_str_new(name, strlen(name)), true);
}

/* "SIDE.attr" */
static classad_expr *sel(const char *side, const char *attr)
{
	return ca_attr_new(absref(side), ca_str_new(attr, strlen(attr)),
			   false);
}

static void put(classad *ad, const char *name, classad_expr *e)
{
	ca_ad_insert(ad, ca_str_new(name, strlen(name)), e);
}

static classad_expr *scoperef(classad_match *m, int i, struct ca_scope *s)
{
	m->refs_to_scopes[i] = ca_scoperef_new(s);
	return classad_expr_ref(m->refs_to_scopes[i]);
}

classad_match *classad_match_new(const classad *left, const classad *right,
				 const classad_env *env)
{
	classad_match *m = ks_xcalloc(1, sizeof(*m));
	m->refs = 1;
	m->env = env;
	m->left = left ? classad_ref(left) : classad_new();
	m->right = right ? classad_ref(right) : classad_new();
	m->root_ad = classad_new();
	m->lctx_ad = classad_new();
	m->rctx_ad = classad_new();
	init_scope(&m->root, m, m->root_ad, NULL, NULL);
	init_scope(&m->lctx, m, m->lctx_ad, &m->root, NULL);
	init_scope(&m->rctx, m, m->rctx_ad, &m->root, NULL);
	init_scope(&m->lscope, m, m->left, &m->lctx, &m->rscope);
	init_scope(&m->rscope, m, m->right, &m->rctx, &m->lscope);

	m->attr[MX_SYM] = ca_op_new(CA_OP_AND, sel("RIGHT", "requirements"),
				    sel("LEFT", "requirements"), NULL);
	m->attr[MX_LMR] = sel("RIGHT", "requirements");
	m->attr[MX_RML] = sel("LEFT", "requirements");
	m->attr[MX_LRANK] = sel("LEFT", "rank");
	m->attr[MX_RRANK] = sel("RIGHT", "rank");
	static const char *const names[MX_N] = {
		"symmetricMatch", "leftMatchesRight", "rightMatchesLeft",
		"leftRankValue", "rightRankValue"};
	for (int i = 0; i < MX_N; i++)
		put(m->root_ad, names[i], classad_expr_ref(m->attr[i]));
	put(m->root_ad, "lCtx", scoperef(m, 0, &m->lctx));
	put(m->root_ad, "rCtx", scoperef(m, 1, &m->rctx));
	put(m->root_ad, "LEFT", scoperef(m, 2, &m->lscope));
	put(m->root_ad, "RIGHT", scoperef(m, 3, &m->rscope));

	classad_expr *l = m->refs_to_scopes[2];
	classad_expr *r = m->refs_to_scopes[3];
	put(m->lctx_ad, "other", classad_expr_ref(r));
	put(m->lctx_ad, "target", classad_expr_ref(r));
	put(m->lctx_ad, "my", classad_expr_ref(l));
	put(m->lctx_ad, "ad", classad_expr_ref(l));
	put(m->rctx_ad, "other", classad_expr_ref(l));
	put(m->rctx_ad, "target", classad_expr_ref(l));
	put(m->rctx_ad, "my", classad_expr_ref(r));
	put(m->rctx_ad, "ad", classad_expr_ref(r));
	return m;
}

void ca_match_ref(classad_match *m)
{
	m->refs++;
}

void ca_match_unref(classad_match *m)
{
	if (--m->refs > 0)
		return;
	for (int i = 0; i < 4; i++) {
		((struct ca_scoperef *)m->refs_to_scopes[i])->scope = NULL;
		classad_expr_free(m->refs_to_scopes[i]);
	}
	for (int i = 0; i < MX_N; i++)
		classad_expr_free(m->attr[i]);
	classad_free(m->root_ad);
	classad_free(m->lctx_ad);
	classad_free(m->rctx_ad);
	classad_free(m->left);
	classad_free(m->right);
	free(m);
}

void classad_match_free(classad_match *m)
{
	if (m)
		ca_match_unref(m);
}

void classad_match_set(classad_match *m, const classad *left,
		       const classad *right)
{
	classad *l = left ? classad_ref(left) : classad_new();
	classad *r = right ? classad_ref(right) : classad_new();
	classad_free(m->left);
	classad_free(m->right);
	m->left = l;
	m->right = r;
	m->lscope.ad = l;
	m->rscope.ad = r;
}

static bool eval_bool(classad_match *m, int which)
{
	classad_value v = CLASSAD_VALUE_INIT;
	ca_eval_top(&m->root, m->attr[which], m->env, &v);
	bool b = false;
	bool ok = ca_value_bool_equiv(&v, &b) && b;
	ca_value_clear(&v);
	return ok;
}

bool classad_match_left_matches_right(classad_match *m)
{
	return eval_bool(m, MX_LMR);
}

bool classad_match_right_matches_left(classad_match *m)
{
	return eval_bool(m, MX_RML);
}

bool classad_match_symmetric(classad_match *m)
{
	return eval_bool(m, MX_SYM);
}

int classad_match_rank(classad_match *m, enum classad_side side,
		       classad_value *out)
{
	return ca_eval_top(&m->root,
			   m->attr[side == CLASSAD_LEFT ? MX_LRANK : MX_RRANK],
			   m->env, out);
}

int classad_match_eval(classad_match *m, enum classad_side side,
		       const classad_expr *e, classad_value *out)
{
	return ca_eval_top(side == CLASSAD_LEFT ? &m->lscope : &m->rscope, e,
			   m->env, out);
}

int classad_match_eval_attr(classad_match *m, enum classad_side side,
			    const char *name, classad_value *out)
{
	size_t len = name ? strlen(name) : 0;
	classad_value_clear(out);
	if (!len)
		return 0;
	classad_expr *ref = ca_attr_new(NULL, ca_str_new(name, len), false);
	int rc = classad_match_eval(m, side, ref, out);
	classad_expr_free(ref);
	return rc;
}

bool ca_match_sides(const struct ca_scope *root, struct ca_scope **left,
		    struct ca_scope **right)
{
	if (!root || root->kind != CA_SCOPE_MATCH)
		return false;
	classad_match *m = root->owner;
	if (root != &m->root)
		return false;
	*left = &m->lscope;
	*right = &m->rscope;
	return true;
}
