/*
 * ks_name.h: names that ignore case, as HTCondor's attribute, function
 * and knob names do.  Folding is ASCII only, by hand, so that no locale
 * can change a match or an order.
 */
#ifndef KS_NAME_H
#define KS_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Orders len bytes of name against the NUL-terminated key by their
 * lower-cased bytes: <0, 0 or >0. */
int ks_name_cmp(const char *name, size_t len, const char *key);

/* Binary search of n entries of size bytes, sorted by ks_name_cmp() order,
 * each starting with a `const char *` name.  Returns the entry or NULL. */
const void *ks_name_find(const char *name, size_t len, const void *table,
			 size_t n, size_t size);

/* Whether the len bytes at s are an attribute name as HTCondor accepts
 * one: a letter or '_', then letters, digits and '_'. */
bool ks_name_is_attr(const char *s, size_t len);

/* Whether the len bytes at s name a concurrency limit: NAME or
 * SCOPE.NAME, each part an attribute name (condor_submit refuses
 * others, the negotiator ignores them). */
bool ks_name_is_limit(const char *s, size_t len);

#endif
