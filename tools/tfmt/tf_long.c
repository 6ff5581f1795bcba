/*
 * tf_long.c: whole ads, as -long, -json, -xml and -long:new print
 * them.  The attributes come sorted without regard to case, private ones
 * (claim ids, capabilities) left out, as HTCondor prints them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "tfmt.h"

/* Attribute names are ASCII: comparing them needs none of the locale
 * handling of strncasecmp(), which a long listing would call some ten
 * million times. */
static int tf_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool tf_same_name(const char *a, const char *b, size_t blen)
{
	for (size_t i = 0; i < blen; i++)
		if (!a[i] || tf_lower((unsigned char)a[i]) !=
				     tf_lower((unsigned char)b[i]))
			return false;
	return a[blen] == '\0';
}

/* Attributes HTCondor never shows (ClassAdPrivateAttrs and the
 * _condor_priv prefix). */
static bool tf_private(const char *name, size_t len)
{
	static const char *const priv[] = {"Capability", "ChildClaimIds",
					   "ClaimId", "ClaimIdList", "ClaimIds",
					   "TransferKey", NULL};
	int first = len ? tf_lower((unsigned char)name[0]) : 0;
	if (first == '_')
		return len >= 12 && strncasecmp(name, "_condor_priv", 12) == 0;
	if (first != 'c' && first != 't')
		return false;
	for (int i = 0; priv[i]; i++)
		if (tf_same_name(priv[i], name, len))
			return true;
	return false;
}

struct tf_attr {
	uint64_t key; /* the name's first 8 bytes in lower case, big-endian */
	const char *name;
	size_t len;
	const classad_expr *e; /* from a parsed ad */
	const char *line;      /* or its line in a wire record */
	size_t line_len;
};

/* The sort key of a name: comparing two keys orders names as
 * strncasecmp() does their first 8 bytes (a long listing sorts a
 * million names; most differ early). */
static uint64_t tf_name_key(const char *name, size_t len)
{
	uint64_t k = 0;
	for (size_t i = 0; i < 8; i++)
		k = k << 8 | (uint64_t)(i < len ? tf_lower((unsigned char)name[i])
					       : 0);
	return k;
}

/* strcasecmp() of names that need not end in NUL */
static int tf_attr_cmp(const void *a, const void *b)
{
	const struct tf_attr *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	size_t n = x->len < y->len ? x->len : y->len;
	for (size_t i = 8; i < n; i++) {
		int c = tf_lower((unsigned char)x->name[i]) -
			tf_lower((unsigned char)y->name[i]);
		if (c)
			return c;
	}
	return (x->len > y->len) - (x->len < y->len);
}

static bool tf_wanted(const char *name, size_t len, char *const *attrs,
		      size_t nattrs)
{
	if (!attrs)
		return true;
	for (size_t i = 0; i < nattrs; i++)
		if (tf_same_name(attrs[i], name, len))
			return true;
	return false;
}

/* The attributes to print, sorted; *n of them. */
static struct tf_attr *tf_sorted_attrs(const classad *ad, char *const *attrs,
				       size_t nattrs, size_t *n)
{
	struct tf_attr *list = ks_xmalloc((classad_size(ad) + 1) * sizeof *list);
	size_t k = 0, pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		size_t len = strlen(name);
		if (tf_private(name, len) || !tf_wanted(name, len, attrs, nattrs))
			continue;
		list[k] = (struct tf_attr){.key = tf_name_key(name, len),
					   .name = name,
					   .len = len,
					   .e = e};
		k++;
	}
	qsort(list, k, sizeof *list, tf_attr_cmp);
	*n = k;
	return list;
}

void tf_long_text(struct classad_buf *out, enum tf_long_form form,
		  const classad *ad, char *const *attrs, size_t nattrs)
{
	size_t n;
	struct tf_attr *list = tf_sorted_attrs(ad, attrs, nattrs, &n);
	if (form == TF_LONG_OLD) {
		/* one text buffer for every value: a long listing has
		 * hundreds of thousands of them */
		struct classad_buf t = {0};
		for (size_t i = 0; i < n; i++) {
			t.len = 0;
			classad_expr_unparse_buf(&t, list[i].e, true);
			tf_buf_add(out, list[i].name);
			tf_buf_add(out, " = ");
			classad_buf_add(out, t.data ? t.data : "", t.len);
			tf_buf_addc(out, '\n');
		}
		free(t.data);
		tf_buf_addc(out, '\n');
		free(list);
		return;
	}
	/* JSON, XML and new syntax print an ad holding the chosen
	 * attributes in their order */
	classad *sel = classad_new();
	for (size_t i = 0; i < n; i++)
		classad_insert(sel, list[i].name, classad_expr_ref(list[i].e));
	free(list);
	if (form == TF_LONG_XML) {
		/* already ends with its newline */
		classad_unparse_xml_buf(out, sel, false);
		classad_free(sel);
		return;
	}
	if (form == TF_LONG_JSON)
		classad_unparse_json_buf(out, sel, false);
	else
		classad_unparse_buf(out, sel, CLASSAD_FMT_NEW);
	tf_buf_addc(out, '\n');
	classad_free(sel);
}

bool tf_long_lines(struct classad_buf *out, const struct ks_wire_record *rec,
		   char *const *attrs, size_t nattrs)
{
	if (!rec || rec->new_syntax)
		return false;
	/* its text is the unparse of the ad, a line per attribute: only
	 * their order differs from what -long prints */
	size_t cap = 128, k = 0;
	struct tf_attr *list = ks_xmalloc(cap * sizeof *list);
	const char *p = rec->text, *end = rec->text + rec->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp) {
			free(list);
			return false;
		}
		size_t len = (size_t)(sp - p);
		if (!tf_private(p, len) && tf_wanted(p, len, attrs, nattrs)) {
			if (k == cap) {
				cap *= 2;
				list = ks_xrealloc(list, cap * sizeof *list);
			}
			list[k++] = (struct tf_attr){.key = tf_name_key(p, len),
						     .name = p,
						     .len = len,
						     .line = p,
						     .line_len = (size_t)(eol - p)};
		}
		p = eol + 1;
	}
	qsort(list, k, sizeof *list, tf_attr_cmp);
	for (size_t i = 0; i < k; i++) {
		classad_buf_add(out, list[i].line, list[i].line_len);
		tf_buf_addc(out, '\n');
	}
	tf_buf_addc(out, '\n');
	free(list);
	return true;
}

void tf_print_long_ad(struct classad_buf *out, enum tf_long_form form,
		      const char *text, size_t len, size_t index)
{
	if (form == TF_LONG_XML) {
		if (index == 0)
			classad_xml_header_buf(out);
	} else if (form != TF_LONG_OLD) {
		tf_buf_add(out, index == 0 ? (form == TF_LONG_JSON ? "[\n" : "{\n")
					   : ",\n");
	}
	classad_buf_add(out, text, len);
}

void tf_print_long_end(struct classad_buf *out, enum tf_long_form form, size_t count)
{
	if (form == TF_LONG_XML) {
		if (count == 0)
			classad_xml_header_buf(out);
		classad_xml_footer_buf(out);
		return;
	}
	if (count == 0)
		return;
	if (form == TF_LONG_JSON)
		tf_buf_add(out, "]\n");
	else if (form == TF_LONG_NEW)
		tf_buf_add(out, "}\n");
}

classad *tf_record_pick(const struct ks_wire_record *rec,
			const struct tf_names *names)
{
	if (!rec || rec->new_syntax)
		return NULL;
	classad *ad = classad_new();
	const char *p = rec->text, *end = rec->text + rec->len;
	while (p < end && ad) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(eol - p));
		const char *name_end = eq;
		while (name_end && name_end > p && name_end[-1] == ' ')
			name_end--;
		size_t len = name_end ? (size_t)(name_end - p) : 0;
		bool wanted = false;
		for (size_t i = 0; i < names->n && len && !wanted; i++)
			wanted = tf_same_name(names->v[i], p, len);
		if (wanted) {
			const char *v = eq + 1;
			classad_expr *x = classad_parse_expr_old(
				v, (size_t)(eol - v), NULL);
			char *name = ks_xstrndup(p, len);
			if (x && classad_expr_is_literal(x, NULL)) {
				classad_insert(ad, name, x);
			} else {
				classad_expr_free(x);
				classad_free(ad);
				ad = NULL;
			}
			free(name);
		}
		p = eol + 1;
	}
	return ad;
}
