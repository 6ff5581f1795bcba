/*
 * query.c: constraint and projection of query ads (ks_query.h).
 */
#include "ks_query.h"

#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
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
	char *save = NULL;
	for (char *tok = strtok_r(text, " ,\t\n", &save); tok;
	     tok = strtok_r(NULL, " ,\t\n", &save)) {
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

void ks_projection_encode(struct classad_buf *out, const classad *ad,
			  const struct ks_projection *p)
{
	if (!p->n) {
		ks_wire_encode_ad(out, ad);
		return;
	}
	classad *small = classad_new();
	for (size_t k = 0; k < p->n; k++) {
		const classad_expr *x = classad_lookup(ad, p->names[k]);
		if (x)
			classad_insert(small, p->names[k], classad_expr_ref(x));
	}
	ks_wire_encode_ad(out, small);
	classad_free(small);
}
