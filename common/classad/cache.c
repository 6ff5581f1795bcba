/*
 * cache.c: sharing of parsed expressions and attribute names.
 *
 * Ads read from old syntax (collector updates, job queues, condor_q -l
 * text) repeat the same "Name = expression" lines over and over.  The
 * cache maps the text of a value to its parsed expression and interns
 * names, so that repeats cost a hash lookup instead of a parse and share
 * one copy in memory (HTCondor does the same, by default).  Plain numbers
 * and short strings are not worth a cache entry and are parsed directly.
 */
#include <stdlib.h>

#include "classad_int.h"

struct expr_slot {
	uint64_t hash;
	const char *text; /* NULL: empty; the key */
	uint32_t len;
	bool owned;       /* text is a copy to free (else the literal's own) */
	classad_expr *e;
};

struct classad_cache {
	struct expr_slot *slots;
	size_t nslots, used;
	struct ca_str **names;
	size_t nnames, names_used;
};

classad_cache *classad_cache_new(void)
{
	classad_cache *c = ca_xcalloc(1, sizeof(*c));
	c->nslots = 1024;
	c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
	c->nnames = 256;
	c->names = ca_xcalloc(c->nnames, sizeof(*c->names));
	return c;
}

void classad_cache_free(classad_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nslots; i++) {
		if (c->slots[i].text) {
			if (c->slots[i].owned)
				free((char *)c->slots[i].text);
			classad_expr_free(c->slots[i].e);
		}
	}
	for (size_t i = 0; i < c->nnames; i++)
		ca_str_unref(c->names[i]);
	free(c->slots);
	free(c->names);
	free(c);
}

static void grow_exprs(classad_cache *c)
{
	struct expr_slot *old = c->slots;
	size_t n = c->nslots;
	c->nslots *= 2;
	c->slots = ca_xcalloc(c->nslots, sizeof(*c->slots));
	for (size_t i = 0; i < n; i++) {
		if (!old[i].text)
			continue;
		size_t h = old[i].hash & (c->nslots - 1);
		while (c->slots[h].text)
			h = (h + 1) & (c->nslots - 1);
		c->slots[h] = old[i];
	}
	free(old);
}

static void grow_names(classad_cache *c)
{
	struct ca_str **old = c->names;
	size_t n = c->nnames;
	c->nnames *= 2;
	c->names = ca_xcalloc(c->nnames, sizeof(*c->names));
	for (size_t i = 0; i < n; i++) {
		if (!old[i])
			continue;
		size_t h = old[i]->hash & (c->nnames - 1);
		while (c->names[h])
			h = (h + 1) & (c->nnames - 1);
		c->names[h] = old[i];
	}
	free(old);
}

struct ca_str *ca_cache_name(classad_cache *c, const char *s, size_t len)
{
	if (!c)
		return ca_str_new(s, len);
	uint32_t hash = ca_hash_ci(s, len);
	size_t h = hash & (c->nnames - 1);
	for (struct ca_str *n; (n = c->names[h]); h = (h + 1) & (c->nnames - 1))
		/* Names keep their spelling: only exact repeats share. */
		if (n->hash == hash && n->len == len && memcmp(n->s, s, len) == 0)
			return ca_str_ref(n);
	struct ca_str *n = ca_str_new(s, len);
	c->names[h] = ca_str_ref(n);
	if (++c->names_used * 4 > c->nnames * 3)
		grow_names(c);
	return n;
}

static bool digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* A plain decimal integer (no leading zero), parsed without the lexer. */
static bool plain_int(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = len > 0 && s[0] == '-';
	if (neg)
		i++;
	if (i >= len || len - i > 18 || (s[i] == '0' && len - i > 1))
		return false;
	int64_t v = 0;
	for (; i < len; i++) {
		if (!digit(s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return true;
}

/* A string with nothing to unescape, old syntax or new: its bytes are the
 * text between the quotes. */
static bool plain_string(const char *s, size_t len)
{
	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return false;
	for (size_t i = 1; i + 1 < len; i++)
		if (s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

/* Worth sharing: expressions, strings, and short numbers (counts and
 * sizes repeat across ads; long ones such as times rarely do).  Lists and
 * ads are never shared, as in HTCondor. */
static bool cacheable(const char *rhs, size_t len)
{
	if (rhs[0] == '[' || rhs[0] == '{')
		return false;
	if (digit(rhs[0]) || rhs[0] == '-' || rhs[0] == '.')
		return len <= 6;
	return true;
}

static bool slot_matches(const struct expr_slot *s, uint64_t hash,
			 const char *rhs, size_t len)
{
	if (s->hash != hash)
		return false;
	if (s->owned)
		return s->len == len && memcmp(s->text, rhs, len) == 0;
	/* the key is the literal string, without its quotes */
	return s->len + 2 == len && rhs[0] == '"' &&
	       memcmp(s->text, rhs + 1, s->len) == 0 && rhs[len - 1] == '"';
}

classad_expr *ca_cache_expr(classad_cache *c, const char *rhs, size_t len,
			    struct ks_err *err)
{
	int64_t i;
	bool use = c && len > 0 && cacheable(rhs, len);
	bool is_int = plain_int(rhs, len, &i);
	if (!use && is_int)
		return ca_lit_int(i);
	uint64_t hash = 0;
	size_t h = 0;
	if (use) {
		hash = ca_hash_bytes(rhs, len);
		h = hash & (c->nslots - 1);
		for (struct expr_slot *s; (s = &c->slots[h])->text;
		     h = (h + 1) & (c->nslots - 1))
			if (slot_matches(s, hash, rhs, len))
				return classad_expr_ref(s->e);
	}
	classad_expr *e;
	bool simple = !is_int && plain_string(rhs, len);
	if (is_int) {
		e = ca_lit_int(i);
	} else if (simple) {
		e = ca_lit_string(rhs + 1, len - 2);
	} else {
		/* Old syntax, and (as HTCondor) text after the expression
		 * is ignored. */
		e = ca_parse_expr_in(rhs, len, CA_LEX_OLD, false, c, err);
	}
	if (!e || !use)
		return e;
	struct expr_slot *s = &c->slots[h];
	s->hash = hash;
	if (simple) {
		const struct ca_str *str = ca_as_lit(e)->v.u.s;
		s->text = str->s;
		s->len = str->len;
		s->owned = false;
	} else {
		s->text = ca_xstrndup(rhs, len);
		s->len = (uint32_t)len;
		s->owned = true;
	}
	s->e = classad_expr_ref(e);
	if (++c->used * 4 > c->nslots * 3)
		grow_exprs(c);
	return e;
}

size_t classad_cache_purge(classad_cache *c)
{
	size_t dropped = 0;
	struct expr_slot *old = c->slots;
	size_t n = c->nslots;
	c->slots = ca_xcalloc(n, sizeof(*c->slots));
	c->used = 0;
	for (size_t i = 0; i < n; i++) {
		if (!old[i].text)
			continue;
		if (old[i].e->refs == 1) {
			if (old[i].owned)
				free((char *)old[i].text);
			classad_expr_free(old[i].e);
			dropped++;
			continue;
		}
		size_t h = old[i].hash & (n - 1);
		while (c->slots[h].text)
			h = (h + 1) & (n - 1);
		c->slots[h] = old[i];
		c->used++;
	}
	free(old);
	/* Names held only by the cache go too. */
	struct ca_str **names = c->names;
	size_t nn = c->nnames;
	c->names = ca_xcalloc(nn, sizeof(*c->names));
	c->names_used = 0;
	for (size_t i = 0; i < nn; i++) {
		if (!names[i])
			continue;
		if (names[i]->refs == 1) {
			ca_str_unref(names[i]);
			continue;
		}
		size_t h = names[i]->hash & (nn - 1);
		while (c->names[h])
			h = (h + 1) & (nn - 1);
		c->names[h] = names[i];
		c->names_used++;
	}
	free(names);
	return dropped;
}
