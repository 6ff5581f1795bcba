/*
 * query.c: constraint and projection of query ads (ks_query.h).
 */
#include "ks_query.h"

#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"

bool ks_query_matches(const classad *ad, const classad_expr *req)
{
	if (!req)
		return true;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, req, NULL, &v);
	bool ok = v.type == CLASSAD_BOOLEAN ? v.u.b
		  : v.type == CLASSAD_INTEGER ? v.u.i != 0
					       : false;
	classad_value_clear(&v);
	return ok;
}

void ks_projection_read(const classad *query, struct ks_projection *p)
{
	p->names = NULL;
	p->n = 0;
	char *text = NULL;
	if (!query || !classad_eval_string(query, "Projection", NULL, &text))
		return;
	for (char *cur = text, *tok; (tok = ks_list_cut(&cur));) {
		p->names = ks_xrealloc(p->names, (p->n + 1) * sizeof(*p->names));
		p->names[p->n++] = ks_xstrdup(tok);
	}
	free(text);
}

void ks_projection_free(struct ks_projection *p)
{
	for (size_t k = 0; k < p->n; k++)
		free(p->names[k]);
	free(p->names);
	p->names = NULL;
	p->n = 0;
}

/* The names still to be looked at, while a projection is widened. */
struct todo {
	const char **names;
	size_t n, cap;
};

static void push_name(const char *name, void *arg)
{
	struct todo *t = arg;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->names = ks_xrealloc(t->names, t->cap * sizeof(*t->names));
	}
	t->names[t->n++] = name;
}

void ks_projection_encode(struct classad_buf *out, const classad *ad,
			  const struct ks_projection *p)
{
	if (!p->n) {
		ks_wire_encode_ad(out, ad);
		return;
	}
	/* each projected attribute with the attributes of the ad that its
	 * expression reads, and theirs in turn, as HTCondor widens a
	 * projection: "condor_status -af Start" must evaluate Start as the
	 * whole ad would */
	classad *small = classad_new();
	struct todo t = {0};
	for (size_t k = p->n; k-- > 0;)
		push_name(p->names[k], &t);
	while (t.n) {
		const char *name = t.names[--t.n];
		if (classad_lookup(small, name))
			continue;
		const classad_expr *x = classad_lookup(ad, name);
		if (!x)
			continue;
		classad_insert(small, name, classad_expr_ref(x));
		classad_expr_each_ref(x, push_name, &t);
	}
	free(t.names);
	ks_wire_encode_ad(out, small);
	classad_free(small);
}
