/* store.c: the collector's ad table (store.h): a dense array of entries
 * and an open-addressing index over their keys. */
#include "store.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_hash.h"
#include "ks_mem.h"

/* An ad type, shared by the entries of that type: a query compares
 * pointers instead of reading each entry's own string. */
struct type {
	char *name;
	size_t uses;
};

struct cs_store {
	struct cs_entry *e;
	size_t n, cap;
	struct type *types; /* few: one per MyType seen and still held */
	size_t ntypes;
	size_t *slot; /* index + 1 into e, 0 empty; size mask + 1 */
	size_t mask;
};

static uint64_t hash(const char *k)
{
	return ks_hash(k, strlen(k));
}

cs_store *cs_store_new(void)
{
	cs_store *s = ks_xcalloc(1, sizeof(*s));
	s->mask = 1023;
	s->slot = ks_xcalloc(s->mask + 1, sizeof(*s->slot));
	return s;
}

static struct type *find_type(const cs_store *s, const char *name)
{
	for (size_t i = 0; i < s->ntypes; i++)
		if (strcasecmp(s->types[i].name, name) == 0)
			return &s->types[i];
	return NULL;
}

const char *cs_store_type(const cs_store *s, const char *name)
{
	struct type *t = find_type(s, name);
	return t ? t->name : NULL;
}

static const char *type_ref(cs_store *s, const char *name)
{
	struct type *t = find_type(s, name);
	if (!t) {
		s->types = ks_xrealloc(s->types,
				       (s->ntypes + 1) * sizeof(*s->types));
		t = &s->types[s->ntypes++];
		*t = (struct type){ks_xstrdup(name), 0};
	}
	t->uses++;
	return t->name;
}

static void type_unref(cs_store *s, const char *name)
{
	for (size_t i = 0; i < s->ntypes; i++)
		if (s->types[i].name == name && --s->types[i].uses == 0) {
			free(s->types[i].name);
			s->types[i] = s->types[--s->ntypes];
			return;
		}
}

static void entry_clear(cs_store *s, struct cs_entry *e)
{
	classad_free(e->ad);
	free(e->key);
	type_unref(s, e->type);
	free(e->stats);
	classad_free(e->pvt);
}

void cs_store_free(cs_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		entry_clear(s, &s->e[i]);
	free(s->types);
	free(s->e);
	free(s->slot);
	free(s);
}

/* The host of an address attribute ("<127.0.0.1:9618?...>"), or NULL. */
static char *host_of(const classad *ad, const char *attr, const char *old)
{
	char *a = classad_eval_string_dup(ad, attr);
	if (!a)
		a = classad_eval_string_dup(ad, old);
	if (!a)
		return NULL;
	const char *p = a + (*a == '<');
	size_t n = *p == '[' ? strcspn(p, "]") + 1 : strcspn(p, ":>?");
	char *h = n && n <= strlen(p) ? ks_xstrndup(p, n) : NULL;
	free(a);
	return h;
}

char *cs_store_key(const char *type, const classad *ad, const char **why)
{
	*why = "it has no Name";
	char *name = classad_eval_string_dup(ad, "Name"), *extra = NULL;
	bool schedd = strcasecmp(type, "Scheduler") == 0 ||
		      strcasecmp(type, "Submitter") == 0;
	if (!name && strcasecmp(type, "Machine") == 0) {
		/* Machine, and the slot's number */
		char *m = classad_eval_string_dup(ad, "Machine");
		int64_t id;
		if (m && classad_eval_int(ad, "SlotID", NULL, &id)) {
			size_t n = strlen(m) + 24;
			name = ks_xmalloc(n);
			snprintf(name, n, "%s:%lld", m, (long long)id);
			free(m);
		} else {
			name = m;
		}
	} else if (!name && (schedd || strcasecmp(type, "DaemonMaster") == 0 ||
			     strcasecmp(type, "Collector") == 0)) {
		name = classad_eval_string_dup(ad, "Machine");
	}
	if (!name)
		return NULL;
	if (schedd) {
		/* submitters of schedds that share a host stay apart; and a
		 * schedd's ads must say where it is */
		char *host = host_of(ad, "MyAddress", "ScheddIpAddr");
		if (!host) {
			*why = "it has no valid MyAddress";
			free(name);
			return NULL;
		}
		free(host);
		extra = classad_eval_string_dup(ad, "ScheddName");
	} else if (strcasecmp(type, "Accounting") == 0) {
		extra = classad_eval_string_dup(ad, "NegotiatorName");
	}
	size_t n = strlen(type) + strlen(name) + (extra ? strlen(extra) : 0) + 3;
	char *k = ks_xmalloc(n);
	/* the type in one case (the table it goes in); the name as it is,
	 * as HTCondor compares them */
	size_t t = strlen(type);
	for (size_t i = 0; i < t; i++)
		k[i] = (char)tolower((unsigned char)type[i]);
	snprintf(k + t, n - t, "\n%s%s%s", name, extra ? "\n" : "",
		 extra ? extra : "");
	free(name);
	free(extra);
	return k;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(const cs_store *s, const char *key)
{
	size_t i = hash(key) & s->mask;
	while (s->slot[i] && strcmp(s->e[s->slot[i] - 1].key, key) != 0)
		i = (i + 1) & s->mask;
	return i;
}

static void reindex(cs_store *s)
{
	memset(s->slot, 0, (s->mask + 1) * sizeof(*s->slot));
	for (size_t i = 0; i < s->n; i++)
		s->slot[find(s, s->e[i].key)] = i + 1;
}

struct cs_entry *cs_store_find(cs_store *s, const char *key)
{
	size_t i = find(s, key);
	return s->slot[i] ? &s->e[s->slot[i] - 1] : NULL;
}

struct cs_entry *cs_store_put(cs_store *s, char *key, const char *type,
			      classad *ad, int64_t expires)
{
	size_t i = find(s, key);
	if (s->slot[i]) {
		struct cs_entry *e = &s->e[s->slot[i] - 1];
		classad_free(e->ad);
		free(key);
		e->ad = ad;
		e->expires = expires;
		return e;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->e = ks_xrealloc(s->e, s->cap * sizeof(*s->e));
	}
	s->e[s->n] = (struct cs_entry){ad, key, type_ref(s, type), expires,
				       NULL, NULL};
	size_t at = s->n;
	s->slot[i] = ++s->n;
	if (s->n * 2 > s->mask) {
		s->mask = s->mask * 2 + 1;
		s->slot = ks_xrealloc(s->slot, (s->mask + 1) * sizeof(*s->slot));
		reindex(s);
	}
	return &s->e[at];
}

/* Empties slot i of the index, shifting back the entries after it that
 * probed past it (linear probing may not leave a hole in a run). */
static void unslot(cs_store *s, size_t i)
{
	size_t j = i;
	for (;;) {
		j = (j + 1) & s->mask;
		if (!s->slot[j])
			break;
		size_t k = hash(s->e[s->slot[j] - 1].key) & s->mask;
		/* j's entry may move to i unless its home lies in (i, j] */
		bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
		if (!stays) {
			s->slot[i] = s->slot[j];
			i = j;
		}
	}
	s->slot[i] = 0;
}

void cs_store_remove_at(cs_store *s, size_t idx)
{
	unslot(s, find(s, s->e[idx].key));
	entry_clear(s, &s->e[idx]);
	size_t last = --s->n;
	if (idx != last) {
		/* the last entry takes its place: its slot says so */
		s->e[idx] = s->e[last];
		s->slot[find(s, s->e[idx].key)] = idx + 1;
	}
}

bool cs_store_remove(cs_store *s, const char *key)
{
	size_t i = find(s, key);
	if (!s->slot[i])
		return false;
	cs_store_remove_at(s, s->slot[i] - 1);
	return true;
}

size_t cs_store_count(const cs_store *s)
{
	return s->n;
}

struct cs_entry *cs_store_at(cs_store *s, size_t i)
{
	return &s->e[i];
}
