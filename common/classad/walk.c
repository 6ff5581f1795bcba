/*
 * walk.c: one walk over an ad's tree for the unparsers that write it as
 * nested markup (JSON, XML): literal lists and ads, and lists and ads held
 * by literal values, are entered; every other expression is handed over
 * whole.
 */
#include "classad_int.h"

static void walk_expr(const struct ca_walk *w, void *arg,
		      const classad_expr *e);

static void walk_list(const struct ca_walk *w, void *arg,
		      const struct ca_list *l)
{
	w->list_open(arg);
	for (uint32_t i = 0; i < l->n; i++) {
		if (w->item)
			w->item(arg, i == 0);
		walk_expr(w, arg, l->items[i]);
	}
	w->list_close(arg);
}

static void walk_value(const struct ca_walk *w, void *arg,
		       const classad_value *v, bool reltime)
{
	if (v->type == CLASSAD_LIST)
		walk_list(w, arg, ca_as_list(v->u.l.list));
	else if (v->type == CLASSAD_AD)
		ca_walk_ad(w, arg, v->u.ad->ad);
	else
		w->scalar(arg, v, reltime);
}

static void walk_expr(const struct ca_walk *w, void *arg,
		      const classad_expr *e)
{
	switch (e->kind) {
	case CA_K_LIT:
		walk_value(w, arg, &ca_as_lit(e)->v,
			   (e->flags & CA_LIT_RELTIME) != 0);
		return;
	case CA_K_LIST:
		walk_list(w, arg, ca_as_list(e));
		return;
	case CA_K_AD:
		ca_walk_ad(w, arg, ((const struct ca_adlit *)e)->ad);
		return;
	default:
		w->expr(arg, e);
		return;
	}
}

void ca_walk_ad(const struct ca_walk *w, void *arg, const classad *ad)
{
	w->ad_open(arg);
	bool first = true;
	for (uint32_t i = 0; i < ad->n; i++) {
		const struct ca_entry *en = &ad->ents[i];
		if (!en->name)
			continue;
		w->attr_open(arg, en->name, first);
		first = false;
		walk_expr(w, arg, en->expr);
		if (w->attr_close)
			w->attr_close(arg);
	}
	w->ad_close(arg);
}
