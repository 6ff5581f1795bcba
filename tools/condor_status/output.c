/*
 * output.c: whole ads, as -long, -json and -long:new print them.  The
 * attributes come sorted without regard to case, private ones (claim
 * ids, capabilities) left out, as HTCondor prints them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "status.h"

/* Attributes HTCondor never shows (ClassAdPrivateAttrs and the
 * _condor_priv prefix). */
static bool st_private(const char *name)
{
	static const char *const priv[] = {"Capability", "ChildClaimIds",
					   "ClaimId", "ClaimIdList", "ClaimIds",
					   "TransferKey", NULL};
	if (strncasecmp(name, "_condor_priv", 12) == 0)
		return true;
	for (int i = 0; priv[i]; i++)
		if (strcasecmp(priv[i], name) == 0)
			return true;
	return false;
}

struct st_attr {
	const char *name;
	const classad_expr *e;
};

static int st_attr_cmp(const void *a, const void *b)
{
	const struct st_attr *x = a, *y = b;
	return strcasecmp(x->name, y->name);
}

static bool st_wanted(const char *name, char *const *attrs, size_t nattrs)
{
	if (!attrs)
		return true;
	for (size_t i = 0; i < nattrs; i++)
		if (strcasecmp(attrs[i], name) == 0)
			return true;
	return false;
}

/* The attributes to print, sorted; *n of them. */
static struct st_attr *st_sorted_attrs(const classad *ad, char *const *attrs,
				       size_t nattrs, size_t *n)
{
	struct st_attr *list = ks_xmalloc((classad_size(ad) + 1) * sizeof *list);
	size_t k = 0, pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		if (st_private(name) || !st_wanted(name, attrs, nattrs))
			continue;
		list[k].name = name;
		list[k].e = e;
		k++;
	}
	qsort(list, k, sizeof *list, st_attr_cmp);
	*n = k;
	return list;
}

void st_print_long_ad(struct classad_buf *out, enum st_style style,
		      const classad *ad, size_t index, char *const *attrs,
		      size_t nattrs)
{
	size_t n;
	struct st_attr *list = st_sorted_attrs(ad, attrs, nattrs, &n);
	if (style == ST_PP_LONG) {
		/* one text buffer for every value: a long listing has
		 * hundreds of thousands of them */
		struct classad_buf t = {0};
		for (size_t i = 0; i < n; i++) {
			t.len = 0;
			classad_expr_unparse_buf(&t, list[i].e, true);
			st_buf_add(out, list[i].name);
			st_buf_add(out, " = ");
			classad_buf_add(out, t.data ? t.data : "", t.len);
			st_buf_addc(out, '\n');
		}
		free(t.data);
		st_buf_addc(out, '\n');
		free(list);
		return;
	}
	/* JSON and new syntax print an ad holding the chosen attributes in
	 * their order */
	classad *sel = classad_new();
	for (size_t i = 0; i < n; i++)
		classad_insert(sel, list[i].name, classad_expr_ref(list[i].e));
	free(list);
	bool json = style == ST_PP_JSON;
	st_buf_add(out, index == 0 ? (json ? "[\n" : "{\n") : ",\n");
	struct classad_buf b = {0};
	if (json)
		classad_unparse_json_buf(&b, sel, false);
	else
		classad_unparse_buf(&b, sel, CLASSAD_FMT_NEW);
	if (b.len)
		classad_buf_add(out, b.data, b.len);
	free(b.data);
	st_buf_addc(out, '\n');
	classad_free(sel);
}

void st_print_long_end(struct classad_buf *out, enum st_style style, size_t count)
{
	if (count == 0)
		return;
	if (style == ST_PP_JSON)
		st_buf_add(out, "]\n");
	else if (style == ST_PP_NEW)
		st_buf_add(out, "}\n");
}
