/*
 * ad.c: the attribute table of an ad, and scopes.
 *
 * Entries are kept in insertion order; an open-addressing index of 16-bit
 * entry numbers finds them by the case-insensitive hash stored in each
 * name.  Small ads (the nested ads of expressions, a match's context ads)
 * have no index and are searched in order.  Deleted entries stay in place
 * (name NULL) until the next rebuild.
 */
#include <stdlib.h>
#include <string.h>

#include "classad_int.h"

#define SMALL_AD 8 /* no index up to this many entries */

classad *classad_new(void)
{
	classad *ad = ks_xcalloc(1, sizeof(*ad));
	ad->refs = 1;
	ad->root.kind = CA_SCOPE_AD;
	ad->root.ad = ad;
	ad->root.owner = ad;
	return ad;
}

classad *classad_ref(const classad *ad)
{
	classad *m = (classad *)ad;
	if (m)
		m->refs++;
	return m;
}

static void entries_release(classad *ad)
{
	for (uint32_t i = 0; i < ad->n; i++) {
		if (ad->ents[i].name) {
			ca_str_unref(ad->ents[i].name);
			classad_expr_free(ad->ents[i].expr);
		}
	}
}

void classad_free(classad *ad)
{
	if (!ad || --ad->refs > 0)
		return;
	entries_release(ad);
	classad_free(ad->chain);
	free(ad->ents);
	free(ad->index);
	free(ad);
}

size_t classad_size(const classad *ad)
{
	return ad ? ad->live : 0;
}

#define TAG(h) ((h) & 0xffff0000u)

static void index_put(classad *ad, uint32_t hash, uint32_t entry)
{
	uint32_t h = hash & ad->imask;
	while (ad->index[h])
		h = (h + 1) & ad->imask;
	ad->index[h] = TAG(hash) | (entry + 1);
}

/* (Re)builds the index for the current capacity. */
static void build_index(classad *ad)
{
	uint32_t size = 16;
	while (size < ad->cap * 4 / 3 + 1)
		size *= 2;
	if (ad->cap > SMALL_AD && ad->index && ad->imask == size - 1) {
		memset(ad->index, 0, size * sizeof(uint32_t));
	} else {
		free(ad->index);
		ad->index = NULL;
		ad->imask = 0;
		if (ad->cap <= SMALL_AD)
			return;
		ad->index = ks_xcalloc(size, sizeof(uint32_t));
		ad->imask = size - 1;
	}
	for (uint32_t i = 0; i < ad->n; i++)
		if (ad->ents[i].name)
			index_put(ad, ad->ents[i].name->hash, i);
}

/* Moves the live entries down over the deleted ones. */
static void drop_deleted(classad *ad)
{
	uint32_t j = 0;
	for (uint32_t i = 0; i < ad->n; i++)
		if (ad->ents[i].name)
			ad->ents[j++] = ad->ents[i];
	ad->n = j;
}

/* Rebuilds entries (dropping deleted ones) and the index for at least
 * `want` entries (exactly `want` if exact). */
static void rebuild_to(classad *ad, uint32_t want, bool exact)
{
	drop_deleted(ad);
	if (want < ad->n)
		want = ad->n;
	if (want > ad->cap || ad->cap == 0) {
		uint32_t cap = exact && want ? want : ad->cap ? ad->cap : 4;
		while (cap < want)
			cap *= 2;
		if (cap > CA_AD_MAX)
			cap = CA_AD_MAX;
		ad->ents = ks_xrealloc(ad->ents, cap * sizeof(*ad->ents));
		ad->cap = cap;
	}
	build_index(ad);
}

static void rebuild(classad *ad, uint32_t want)
{
	rebuild_to(ad, want, false);
}

/* The entry number of the name (s, len, hash) in ad, or -1. */
static int32_t find_entry(const classad *ad, const char *s, uint32_t len,
			  uint32_t hash)
{
	if (!ad->index) {
		for (uint32_t i = 0; i < ad->n; i++) {
			const struct ca_str *n = ad->ents[i].name;
			if (n && n->hash == hash && n->len == len &&
			    (n->s == s || ca_bytes_ieq(n->s, s, len)))
				return (int32_t)i;
		}
		return -1;
	}
	uint32_t h = hash & ad->imask, tag = TAG(hash);
	for (;;) {
		uint32_t slot = ad->index[h];
		if (!slot)
			return -1;
		if ((slot & 0xffff0000u) == tag) {
			uint32_t i = (slot & 0xffff) - 1;
			const struct ca_str *n = ad->ents[i].name;
			if (n && n->hash == hash && n->len == len &&
			    (n->s == s || ca_bytes_ieq(n->s, s, len)))
				return (int32_t)i;
		}
		h = (h + 1) & ad->imask;
	}
}

static const classad_expr *lookup_chain(const classad *ad, const char *s,
					uint32_t len, uint32_t hash)
{
	for (int hops = 0; ad && hops < 64; ad = ad->chain, hops++) {
		int32_t i = find_entry(ad, s, len, hash);
		if (i >= 0)
			return ad->ents[i].expr;
	}
	return NULL;
}

const classad_expr *ca_ad_find(const classad *ad, const struct ca_str *name)
{
	int32_t i = find_entry(ad, name->s, name->len, name->hash);
	return i < 0 ? NULL : ad->ents[i].expr;
}

const classad_expr *ca_ad_lookup(const classad *ad, const struct ca_str *name)
{
	return lookup_chain(ad, name->s, name->len, name->hash);
}

int ca_ad_insert(classad *ad, struct ca_str *name, classad_expr *e)
{
	/* One probe finds the name or the empty slot for it. */
	uint32_t slot_at = UINT32_MAX;
	int32_t i = -1;
	if (ad->index && ad->n < ad->cap) {
		uint32_t h = name->hash & ad->imask, tag = TAG(name->hash);
		for (;; h = (h + 1) & ad->imask) {
			uint32_t slot = ad->index[h];
			if (!slot) {
				slot_at = h;
				break;
			}
			if ((slot & 0xffff0000u) != tag)
				continue;
			const struct ca_str *n = ad->ents[(slot & 0xffff) - 1].name;
			if (n && ca_name_eq(n, name)) {
				i = (int32_t)(slot & 0xffff) - 1;
				break;
			}
		}
	} else {
		i = find_entry(ad, name->s, name->len, name->hash);
	}
	if (i >= 0) {
		struct ca_entry *en = &ad->ents[i];
		classad_expr_free(en->expr);
		en->expr = e;
		/* Keep the newest spelling of the name, as a replace does. */
		ca_str_unref(en->name);
		en->name = name;
		return 0;
	}
	if (ad->live >= CA_AD_MAX) {
		ca_str_unref(name);
		classad_expr_free(e);
		return KS_ERANGE;
	}
	if (ad->n >= ad->cap) {
		rebuild(ad, ad->live + 1 > ad->cap ? ad->cap * 2 : ad->cap);
		slot_at = UINT32_MAX;
	}
	uint32_t idx = ad->n++;
	ad->ents[idx].name = name;
	ad->ents[idx].expr = e;
	ad->live++;
	if (ad->index && slot_at != UINT32_MAX)
		ad->index[slot_at] = TAG(name->hash) | (idx + 1);
	else if (ad->index)
		index_put(ad, name->hash, idx);
	else if (ad->cap > SMALL_AD)
		build_index(ad);
	return 0;
}

void ca_ad_compact(classad *ad)
{
	if (ad->n == ad->cap || ad->live == 0)
		return;
	drop_deleted(ad);
	ad->ents = ks_xrealloc(ad->ents, ad->n * sizeof(*ad->ents));
	ad->cap = ad->n;
	build_index(ad);
}

void ca_ad_reserve(classad *ad, uint32_t n)
{
	if (n > CA_AD_MAX)
		n = CA_AD_MAX;
	if (n <= ad->cap)
		return;
	rebuild_to(ad, n, true);
}

void classad_reserve(classad *ad, size_t n)
{
	ca_ad_reserve(ad, n > CA_AD_MAX ? CA_AD_MAX : (uint32_t)n);
}

int classad_insert(classad *ad, const char *name, classad_expr *e)
{
	size_t len = name ? strlen(name) : 0;
	if (len == 0) {
		classad_expr_free(e);
		return KS_EINVAL;
	}
	return ca_ad_insert(ad, ca_str_new(name, len), e);
}

int classad_insert_int(classad *ad, const char *name, int64_t i)
{
	return classad_insert(ad, name, ca_lit_int(i));
}

int classad_insert_real(classad *ad, const char *name, double r)
{
	return classad_insert(ad, name, ca_lit_real(r));
}

int classad_insert_bool(classad *ad, const char *name, bool b)
{
	return classad_insert(ad, name, ca_lit_bool(b));
}

int classad_insert_string(classad *ad, const char *name, const char *s)
{
	if (!s)
		return KS_EINVAL;
	return classad_insert(ad, name, ca_lit_string(s, strlen(s)));
}

int classad_insert_value(classad *ad, const char *name,
			 const classad_value *v)
{
	return classad_insert(ad, name, ca_lit_new(v));
}

int classad_insert_text(classad *ad, const char *name, const char *text,
			struct ks_err *err)
{
	if (!text)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0, "no expression text");
	classad_expr *e = classad_parse_expr(text, strlen(text), err);
	if (!e)
		return KS_EPARSE;
	return classad_insert(ad, name, e);
}

const classad_expr *classad_lookup(const classad *ad, const char *name)
{
	if (!ad || !name)
		return NULL;
	size_t len = strlen(name);
	if (len > UINT32_MAX)
		return NULL;
	return lookup_chain(ad, name, (uint32_t)len, ca_hash_ci(name, len));
}

void classad_prefetch(const classad *ad, const char *name, int k)
{
	/* three stages, each two places behind the last, so that each has
	 * time to arrive before the next reads it */
	if (!ad || !name || k < 1 || k % 2)
		return;
	if (k >= 6) {
		__builtin_prefetch(ad);
		return;
	}
	size_t len = strlen(name);
	uint32_t hash = ca_hash_ci(name, len);
	if (!ad->index) {
		__builtin_prefetch(ad->ents);
		return;
	}
	const uint32_t *slot = &ad->index[hash & ad->imask];
	if (k == 4) {
		__builtin_prefetch(slot);
		return;
	}
	/* the entry the first probe names, when it is likely the one */
	if (*slot && (*slot & 0xffff0000u) == TAG(hash))
		__builtin_prefetch(&ad->ents[(*slot & 0xffff) - 1]);
}

bool classad_delete(classad *ad, const char *name)
{
	if (!ad || !name)
		return false;
	size_t len = strlen(name);
	if (len > UINT32_MAX)
		return false;
	int32_t i = find_entry(ad, name, (uint32_t)len, ca_hash_ci(name, len));
	if (i < 0)
		return false;
	ca_str_unref(ad->ents[i].name);
	classad_expr_free(ad->ents[i].expr);
	ad->ents[i].name = NULL;
	ad->ents[i].expr = NULL;
	ad->live--;
	if (ad->n > 16 && ad->live < ad->n / 2)
		rebuild(ad, ad->live);
	return true;
}

void classad_clear(classad *ad)
{
	entries_release(ad);
	ad->n = ad->live = 0;
	free(ad->index);
	ad->index = NULL;
	ad->imask = 0;
}

bool classad_next(const classad *ad, size_t *pos, const char **name,
		  const classad_expr **e)
{
	if (!ad)
		return false;
	while (*pos < ad->n) {
		const struct ca_entry *en = &ad->ents[(*pos)++];
		if (en->name) {
			if (name)
				*name = en->name->s;
			if (e)
				*e = en->expr;
			return true;
		}
	}
	return false;
}

classad *classad_copy(const classad *ad)
{
	classad *c = classad_new();
	if (ad->live)
		rebuild(c, ad->live);
	classad_update(c, ad);
	c->chain = classad_ref(ad->chain);
	return c;
}

void classad_update(classad *dst, const classad *src)
{
	if (dst == src)
		return;
	for (uint32_t i = 0; i < src->n; i++) {
		const struct ca_entry *en = &src->ents[i];
		if (en->name)
			ca_ad_insert(dst, ca_str_ref(en->name),
				     classad_expr_ref(en->expr));
	}
}

int classad_chain(classad *ad, classad *parent)
{
	/* A loop would make every lookup that misses run forever. */
	for (const classad *p = parent; p; p = p->chain)
		if (p == ad)
			return KS_EINVAL;
	classad *old = ad->chain;
	ad->chain = classad_ref(parent);
	classad_free(old);
	return 0;
}

classad *classad_chained_parent(const classad *ad)
{
	return ad->chain;
}

/* ---- scopes ---------------------------------------------------------- */

struct ca_scope *ca_scope_new(classad *ad, struct ca_scope *parent)
{
	struct ca_scope *s = ks_xcalloc(1, sizeof(*s));
	s->refs = 1;
	s->kind = CA_SCOPE_HEAP;
	s->ad = classad_ref(ad);
	s->parent = parent ? ca_scope_ref(parent) : NULL;
	return s;
}

struct ca_scope *ca_scope_ref(struct ca_scope *s)
{
	switch (s->kind) {
	case CA_SCOPE_HEAP:
		s->refs++;
		break;
	case CA_SCOPE_AD:
		classad_ref(s->owner);
		break;
	case CA_SCOPE_MATCH:
		ca_match_ref(s->owner);
		break;
	}
	return s;
}

void ca_scope_unref(struct ca_scope *s)
{
	switch (s->kind) {
	case CA_SCOPE_HEAP:
		if (--s->refs == 0) {
			if (s->parent)
				ca_scope_unref(s->parent);
			classad_free(s->ad);
			free(s);
		}
		break;
	case CA_SCOPE_AD:
		classad_free(s->owner);
		break;
	case CA_SCOPE_MATCH:
		ca_match_unref(s->owner);
		break;
	}
}
