/*
 * cache.c: sharing of parsed expressions, literal values and names.
 *
 * Ads read from old syntax (collector updates, job queues, condor_q -l
 * text) repeat the same lines over and over.  The cache lets a repeat cost
 * a hash lookup instead of a parse, and share one copy in memory (HTCondor
 * shares expressions the same way, by default).  Three tables:
 *
 *   names:  attribute names, interned, so that names in ads and in
 *           expressions are usually the same object (lookups then compare
 *           pointers);
 *   values: literal values by their text ("LINUX", 64); a string's key is
 *           the literal's own bytes, so it costs no copy;
 *   lines:  whole lines "Name = expression" seen before, by their text,
 *           with the interned name: one lookup gives both;
 *   exprs:  expressions in new syntax by their text
 *           (classad_parse_expr_cached(): condor_submit writes the same
 *           Requirements and policy expressions into every job).
 *
 * Unlike HTCondor, lists and nested ads are shared too: expressions here
 * are immutable and do not point back at the ad that holds them.
 *
 * Some attributes have a value of their own in every ad (Name, MyAddress,
 * a load average).  Caching those buys nothing: each entry is used by one
 * ad (and, for a moment, by the ad's next version), yet it fills the
 * tables, so that every other lookup strays over more memory.  Each name
 * therefore keeps a count of how often a lookup of its values found one
 * that is worth keeping (below); a name whose values seldom are
 * stops using the value and line tables until the next purge.
 *
 * A text longer than CACHE_TEXT_MAX is never cached.  Such values are
 * rarely repeated, and an entry would hold the value (and for a line a
 * copy of its text) after the last ad using it had gone, until the next
 * purge: one 10 MB attribute would stay with the daemon that read it.
 */
#include <stdlib.h>

#include "classad_int.h"

struct slot {
	uint64_t hash;
	const char *text;    /* the key; NULL: an empty slot */
	uint32_t len;
	bool owned;          /* text is a copy to free */
	bool quoted;         /* values: a string's bytes, without quotes */
	struct ca_str *name; /* lines only */
	classad_expr *e;
};

struct table {
	struct slot *slots;
	size_t n, used;
};

/* An interned name and how sharing its values has gone lately. */
struct name {
	struct ca_str *s; /* NULL: an empty slot */
	uint16_t looks;   /* value lookups in this round */
	uint16_t shared;  /* of which found a value some other ad holds */
	bool unshared;    /* values of this name bypass the tables */
};

/* A round of lookups after which a name's sharing is judged; a name is
 * cached while at least 1 lookup in SHARE_MIN_FRACTION shares. */
#define SHARE_ROUND 128
#define SHARE_MIN_FRACTION 8

/* 1 MiB: from this size kestrel's daemons give a block a mapping of its
 * own (common/daemon/memory.c), which goes back to the system as soon as
 * its last ad is freed, unless an entry here still holds it. */
#define CACHE_TEXT_MAX (1u << 20)

struct classad_cache {
	struct table values, lines, exprs;
	struct name *names;
	size_t nnames, names_used;
};

static void table_init(struct table *t, size_t n)
{
	t->n = n;
	t->used = 0;
	t->slots = ks_xcalloc(n, sizeof(*t->slots));
}

static void slot_release(struct slot *s)
{
	if (s->owned)
		free((char *)s->text);
	if (s->name)
		ca_str_unref(s->name);
	classad_expr_free(s->e);
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->slots[i].text)
			slot_release(&t->slots[i]);
	free(t->slots);
}

/* Moves the entries of t into a table of n slots, dropping those that
 * drop() picks; returns how many were dropped. */
static size_t table_rehash(struct table *t, size_t n,
			   bool (*drop)(const struct slot *))
{
	struct slot *old = t->slots;
	size_t oldn = t->n, dropped = 0;
	table_init(t, n);
	for (size_t i = 0; i < oldn; i++) {
		if (!old[i].text)
			continue;
		if (drop && drop(&old[i])) {
			slot_release(&old[i]);
			dropped++;
			continue;
		}
		size_t h = old[i].hash & (t->n - 1);
		while (t->slots[h].text)
			h = (h + 1) & (t->n - 1);
		t->slots[h] = old[i];
		t->used++;
	}
	free(old);
	return dropped;
}

static bool slot_matches(const struct slot *s, uint64_t hash, const char *key,
			 size_t len)
{
	if (s->hash != hash)
		return false;
	if (!s->quoted)
		return s->len == len && memcmp(s->text, key, len) == 0;
	return s->len + 2 == len && memcmp(s->text, key + 1, s->len) == 0;
}

/* The slot holding key, or the empty slot where it would go. */
static struct slot *table_find(struct table *t, uint64_t hash,
			       const char *key, size_t len)
{
	size_t h = hash & (t->n - 1);
	for (; t->slots[h].text; h = (h + 1) & (t->n - 1))
		if (slot_matches(&t->slots[h], hash, key, len))
			break;
	return &t->slots[h];
}

/* After filling a slot found by table_find(). */
static void table_added(struct table *t)
{
	if (++t->used * 4 > t->n * 3)
		table_rehash(t, t->n * 2, NULL);
}

classad_cache *classad_cache_new(void)
{
	classad_cache *c = ks_xcalloc(1, sizeof(*c));
	table_init(&c->values, 1024);
	table_init(&c->lines, 256);
	table_init(&c->exprs, 64);
	c->nnames = 256;
	c->names = ks_xcalloc(c->nnames, sizeof(*c->names));
	return c;
}

void classad_cache_free(classad_cache *c)
{
	if (!c)
		return;
	table_free(&c->values);
	table_free(&c->lines);
	table_free(&c->exprs);
	for (size_t i = 0; i < c->nnames; i++)
		ca_str_unref(c->names[i].s);
	free(c->names);
	free(c);
}

/* Moves the names of old[0..n) that keep() keeps into a fresh table of
 * c->nnames slots, with their sharing judged anew; frees those dropped. */
static void rehash_names(classad_cache *c, struct name *old, size_t n,
			 bool (*keep)(const struct ca_str *))
{
	c->names = ks_xcalloc(c->nnames, sizeof(*c->names));
	c->names_used = 0;
	for (size_t i = 0; i < n; i++) {
		if (!old[i].s)
			continue;
		if (keep && !keep(old[i].s)) {
			ca_str_unref(old[i].s);
			continue;
		}
		size_t h = old[i].s->hash & (c->nnames - 1);
		while (c->names[h].s)
			h = (h + 1) & (c->nnames - 1);
		c->names[h].s = old[i].s;
		if (!keep) {
			c->names[h].looks = old[i].looks;
			c->names[h].shared = old[i].shared;
			c->names[h].unshared = old[i].unshared;
		}
		c->names_used++;
	}
	free(old);
}

static struct name *find_name(classad_cache *c, const char *s, size_t len)
{
	uint32_t hash = ca_hash_ci(s, len);
	size_t h = hash & (c->nnames - 1);
	for (struct ca_str *n; (n = c->names[h].s);
	     h = (h + 1) & (c->nnames - 1))
		/* Names keep their spelling: only exact repeats share. */
		if (n->hash == hash && n->len == len && memcmp(n->s, s, len) == 0)
			return &c->names[h];
	c->names[h].s = ca_str_new(s, len);
	if (++c->names_used * 4 > c->nnames * 3) {
		struct ca_str *n = c->names[h].s;
		c->nnames *= 2;
		rehash_names(c, c->names, c->nnames / 2, NULL);
		return find_name(c, n->s, n->len);
	}
	return &c->names[h];
}

struct ca_str *ca_cache_name(classad_cache *c, const char *s, size_t len)
{
	if (!c)
		return ca_str_new(s, len);
	return ca_str_ref(find_name(c, s, len)->s);
}

/* Counts one lookup of a value of name n, given the expression found (NULL:
 * none).  A line found saves a parse, which is worth it however few ads
 * hold the line.  A literal found saves only an allocation, and is worth
 * its table entry when ads share it; the cache holds one reference, so two
 * mean one ad holds it too, which is usually the previous version of the
 * ad being read (a collector's update): that does not count.  One means
 * an ad since freed held it (a tool reading ads one by one) and does. */
static void count_lookup(struct name *n, const classad_expr *found,
			 bool line)
{
	n->looks++;
	if (found && (line || found->refs != 2))
		n->shared++;
	if (n->looks < SHARE_ROUND)
		return;
	n->unshared = n->shared * SHARE_MIN_FRACTION < n->looks;
	n->looks = n->shared = 0;
}

static bool digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* A plain decimal integer (no leading zero), read without the lexer. */
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

/* [-]digits.digits: a real the lexer reads with strtod() alone. */
static bool plain_real(const char *s, size_t len, double *out)
{
	size_t i = s[0] == '-' ? 1 : 0, d1 = 0, d2 = 0;
	while (i < len && digit(s[i]))
		i++, d1++;
	if (i >= len || s[i] != '.' || !d1 || len > 60)
		return false;
	for (i++; i < len && digit(s[i]); i++)
		d2++;
	if (i != len || !d2)
		return false;
	char tmp[64];
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*out = strtod(tmp, NULL);
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

/* A literal, shared by value: strings always (they repeat: "LINUX",
 * "Idle"), numbers when short (counts and sizes repeat; times and other
 * long numbers rarely do). */
static classad_expr *literal(classad_cache *c, struct name *n,
			     const char *rhs, size_t len, int kind, int64_t i,
			     double r)
{
	bool share = c && !n->unshared && (kind == 's' || len <= 6) &&
		     len <= CACHE_TEXT_MAX;
	struct slot *s = NULL;
	uint64_t hash = 0;
	if (share) {
		hash = ca_hash_bytes(rhs, len);
		s = table_find(&c->values, hash, rhs, len);
		count_lookup(n, s->e, false);
		if (s->text)
			return classad_expr_ref(s->e);
	}
	classad_expr *e = kind == 'i'   ? ca_lit_int(i)
			  : kind == 'r' ? ca_lit_real(r)
					: ca_lit_string(rhs + 1, len - 2);
	if (!share)
		return e;
	s->hash = hash;
	s->e = classad_expr_ref(e);
	if (kind == 's') {
		const struct ca_str *str = ca_as_lit(e)->v.u.s;
		s->text = str->s;
		s->len = str->len;
		s->quoted = true;
	} else {
		s->text = ks_xstrndup(rhs, len);
		s->len = (uint32_t)len;
		s->owned = true;
	}
	table_added(&c->values);
	return e;
}

int ca_cache_line(classad_cache *c, const char *name, size_t nlen,
		  const char *rhs, size_t rlen, struct ca_str **name_out,
		  classad_expr **expr_out, struct ks_err *err)
{
	int64_t i = 0;
	double r = 0;
	int kind = plain_int(rhs, rlen, &i)    ? 'i'
		   : plain_real(rhs, rlen, &r) ? 'r'
		   : plain_string(rhs, rlen)   ? 's'
					       : 0;
	struct name *n = c ? find_name(c, name, nlen) : NULL;
	if (kind) {
		*expr_out = literal(c, n, rhs, rlen, kind, i, r);
		*name_out = n ? ca_str_ref(n->s) : ca_str_new(name, nlen);
		return 0;
	}
	struct slot *s = NULL;
	uint64_t hash = 0;
	size_t llen = (size_t)(rhs + rlen - name);
	if (c && !n->unshared && llen <= CACHE_TEXT_MAX) {
		hash = ca_hash_bytes(name, llen);
		s = table_find(&c->lines, hash, name, llen);
		count_lookup(n, s->e, true);
		if (s->text) {
			*name_out = ca_str_ref(s->name);
			*expr_out = classad_expr_ref(s->e);
			return 0;
		}
	}
	/* Old syntax, and (as HTCondor) text after the expression is
	 * ignored. */
	classad_expr *e = ca_parse_expr_in(rhs, rlen, CA_LEX_OLD, false, c, err);
	if (!e)
		return KS_EPARSE;
	/* The parse may have grown the names table (n is stale) but touched
	 * no other: s is still the empty slot for this line. */
	struct ca_str *ns = ca_cache_name(c, name, nlen);
	*name_out = ns;
	*expr_out = e;
	if (s) {
		s->hash = hash;
		s->text = ks_xstrndup(name, llen);
		s->len = (uint32_t)llen;
		s->owned = true;
		s->name = ca_str_ref(ns);
		s->e = classad_expr_ref(e);
		table_added(&c->lines);
	}
	return 0;
}

/* No more texts than this are kept: a text that differs in every use
 * (one naming $(Process)'s value) would only fill the table. */
#define EXPRS_MAX 4096

classad_expr *classad_parse_expr_cached(classad_cache *c, const char *text,
					size_t len, struct ks_err *err)
{
	if (!c)
		return classad_parse_expr(text, len, err);
	if (len > CACHE_TEXT_MAX)
		return ca_parse_expr_in(text, len, CA_LEX_NEW, true, c, err);
	uint64_t hash = ca_hash_bytes(text, len);
	struct slot *s = table_find(&c->exprs, hash, text, len);
	if (s->text)
		return classad_expr_ref(s->e);
	classad_expr *e = ca_parse_expr_in(text, len, CA_LEX_NEW, true, c, err);
	if (!e || c->exprs.used >= EXPRS_MAX)
		return e;
	s->hash = hash;
	s->text = ks_xstrndup(text, len);
	s->len = (uint32_t)len;
	s->owned = true;
	s->e = classad_expr_ref(e);
	table_added(&c->exprs);
	return e;
}

static bool name_in_use(const struct ca_str *s)
{
	return s->refs > 1;
}

static bool unused(const struct slot *s)
{
	return s->e->refs == 1;
}

size_t classad_cache_purge(classad_cache *c)
{
	size_t dropped = table_rehash(&c->values, c->values.n, unused) +
			 table_rehash(&c->lines, c->lines.n, unused) +
			 table_rehash(&c->exprs, c->exprs.n, unused);
	/* Names held only by the cache go too; the others are judged anew. */
	rehash_names(c, c->names, c->nnames, name_in_use);
	return dropped;
}
