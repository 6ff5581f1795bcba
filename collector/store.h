/*
 * store.h: the collector's ads, keyed as HTCondor keys them: by ad type
 * and Name (and ScheddName for Submitter ads), names ignoring case.
 * Only the parsed ad is kept: keeping each ad's wire text as well made
 * full queries 5% faster but doubled the memory per ad.
 */
#ifndef CS_STORE_H
#define CS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "updstats.h"

struct cs_entry {
	classad *ad;
	char *key;      /* owned */
	const char *type; /* MyType, the store's (cs_store_type) */
	int64_t expires; /* time() after which the ad is dropped */
	struct cs_updstats *stats; /* owned; NULL until set */
	classad *pvt;   /* the private ad sent with it (a slot's claim id),
			 * owned; NULL for none */
};

typedef struct cs_store cs_store;

cs_store *cs_store_new(void);
void cs_store_free(cs_store *s);

/* The key of ad as an ad of type, as HTCondor's collector makes it: the
 * Name (a startd's may be Machine:SlotID, a master's, collector's or
 * schedd's Machine) exactly as written, then ScheddName for schedd and
 * submitter ads and NegotiatorName for accounting ads.  A schedd's ads
 * must also carry an address.  NULL if the ad cannot have a key, with
 * *why saying what it lacks (static text).  New string (free()). */
char *cs_store_key(const char *type, const classad *ad, const char **why);

/* Inserts or replaces the ad under key (both taken over); an entry keeps
 * its stats.  Returns the entry (valid until the store changes). */
struct cs_entry *cs_store_put(cs_store *s, char *key, const char *type,
			      classad *ad, int64_t expires);

/* The entry under key, or NULL (valid until the store changes). */
struct cs_entry *cs_store_find(cs_store *s, const char *key);

/* Removes the entry under key.  Returns true if there was one. */
bool cs_store_remove(cs_store *s, const char *key);

/* Removes entry i of the iteration order (cs_store_at). */
void cs_store_remove_at(cs_store *s, size_t i);

size_t cs_store_count(const cs_store *s);

/* The store's own string for ad type name (any case), which entries of
 * that type point to; NULL if no entry has that type. */
const char *cs_store_type(const cs_store *s, const char *name);

/* Entry i, 0 <= i < count.  Removal moves the last entry into i. */
struct cs_entry *cs_store_at(cs_store *s, size_t i);

#endif
