/* sigattrs.c: the job attributes the slots look at (sigattrs.h). */
#include "sigattrs.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_hash.h"
#include "ks_mem.h"

/* A set of names (copies), case-insensitive as attribute names are; open
 * addressing. */
struct names {
	char **slot;
	size_t cap, n;
};

static size_t hash_ci(const char *s)
{
	return (size_t)ks_hash_ci(s, strlen(s));
}

static void add_name(const char *name, void *arg)
{
	struct names *set = arg;
	if (2 * (set->n + 1) > set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		char **slot = ks_xcalloc(cap, sizeof(*slot));
		for (size_t i = 0; i < set->cap; i++) {
			if (!set->slot[i])
				continue;
			size_t k = hash_ci(set->slot[i]) & (cap - 1);
			while (slot[k])
				k = (k + 1) & (cap - 1);
			slot[k] = set->slot[i];
		}
		free(set->slot);
		set->slot = slot;
		set->cap = cap;
	}
	size_t k = hash_ci(name) & (set->cap - 1);
	for (; set->slot[k]; k = (k + 1) & (set->cap - 1))
		if (strcasecmp(set->slot[k], name) == 0)
			return;
	set->slot[k] = ks_xstrdup(name);
	set->n++;
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

char *ng_significant_attrs(classad *const *ads, size_t n)
{
	struct names set = {0};
	for (size_t i = 0; i < n; i++) {
		size_t pos = 0;
		const char *name;
		const classad_expr *e;
		while (classad_next(ads[i], &pos, &name, &e))
			if (!classad_expr_is_list(e))
				classad_expr_each_target_ref(ads[i], e,
							     add_name, &set);
	}
	char **list = ks_xmalloc((set.n ? set.n : 1) * sizeof(*list));
	size_t k = 0, len = 1;
	for (size_t i = 0; i < set.cap; i++)
		if (set.slot[i]) {
			list[k++] = set.slot[i];
			len += strlen(set.slot[i]) + 1;
		}
	qsort(list, k, sizeof(*list), by_name);
	char *out = ks_xmalloc(len);
	char *p = out;
	for (size_t i = 0; i < k; i++) {
		size_t l = strlen(list[i]);
		if (i)
			*p++ = ',';
		memcpy(p, list[i], l);
		p += l;
		free(list[i]);
	}
	*p = '\0';
	free(list);
	free(set.slot);
	return out;
}
