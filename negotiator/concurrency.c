/* concurrency.c: concurrency limits (concurrency.h). */
#include "concurrency.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_name.h"
#include "ks_text.h"

/* The default maximum: HTCondor's, large enough to mean "no limit". */
#define DEFAULT_MAX 2308032.0

struct limit {
	char *name; /* lower case */
	double used;
};

struct ng_limits {
	const ks_config *cfg;
	struct limit *v;
	size_t n;
};

ng_limits *ng_limits_new(const ks_config *cfg)
{
	ng_limits *l = ks_xcalloc(1, sizeof(*l));
	l->cfg = cfg;
	return l;
}

void ng_limits_free(ng_limits *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	free(l);
}

/* One entry "name[:amount]" of a list: its name (lower case) in name
 * (size bytes) and its amount.  False for an entry to ignore. */
static bool entry(const char *s, size_t len, char *name, size_t size,
		  double *amount)
{
	const char *colon = memchr(s, ':', len);
	size_t nlen = colon ? (size_t)(colon - s) : len;
	*amount = 1;
	if (colon) {
		char num[64];
		size_t alen = len - nlen - 1;
		snprintf(num, sizeof(num), "%.*s",
			 (int)(alen < sizeof(num) ? alen : sizeof(num) - 1),
			 colon + 1);
		*amount = strtod(num, NULL);
		if (!(*amount > 0) || !isfinite(*amount))
			*amount = 1;
	}
	if (nlen >= size)
		return false;
	bool ok = ks_name_is_limit(s, nlen);
	for (size_t i = 0; i < nlen; i++)
		name[i] = (char)tolower((unsigned char)s[i]);
	name[nlen] = '\0';
	return ok;
}

/* Calls fn for each valid entry of list; stops when fn returns true,
 * and returns that. */
static bool each_entry(const char *list,
		       bool (*fn)(void *arg, const char *name, double amount),
		       void *arg)
{
	size_t pos = 0, len;
	for (const char *p; (p = ks_list_next(list, &pos, &len));) {
		char name[256];
		double amount;
		if (entry(p, len, name, sizeof(name), &amount) &&
		    fn(arg, name, amount))
			return true;
	}
	return false;
}

static struct limit *find(const ng_limits *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

double ng_limits_used(const ng_limits *l, const char *name)
{
	char low[256];
	size_t n = strlen(name);
	if (n >= sizeof(low))
		return 0;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	const struct limit *x = find(l, low);
	return x ? x->used : 0;
}

static bool take_one(void *arg, const char *name, double amount)
{
	ng_limits *l = arg;
	struct limit *x = find(l, name);
	if (!x) {
		l->v = ks_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		x = &l->v[l->n++];
		x->name = ks_xstrdup(name);
		x->used = 0;
	}
	x->used += amount;
	return false;
}

void ng_limits_take(ng_limits *l, const char *list)
{
	each_entry(list, take_one, l);
}

/* A limit's maximum: <name>_LIMIT, else the scope's default, else
 * CONCURRENCY_LIMIT_DEFAULT. */
static double max_of(const ks_config *cfg, const char *name)
{
	double max = DEFAULT_MAX, v;
	if (ks_config_double(cfg, "CONCURRENCY_LIMIT_DEFAULT", &v))
		max = v;
	char knob[320];
	const char *dot = strrchr(name, '.');
	if (dot) {
		snprintf(knob, sizeof(knob), "CONCURRENCY_LIMIT_DEFAULT_%.*s",
			 (int)(dot - name), name);
		if (ks_config_double(cfg, knob, &v))
			max = v;
	}
	snprintf(knob, sizeof(knob), "%s_LIMIT", name);
	if (ks_config_double(cfg, knob, &v))
		max = v;
	return max;
}

struct full_ctx {
	const ng_limits *l;
	char *which;
	size_t size;
};

static bool full_one(void *arg, const char *name, double amount)
{
	struct full_ctx *c = arg;
	const struct limit *x = find(c->l, name);
	double used = x ? x->used : 0;
	if (used + amount <= max_of(c->l->cfg, name))
		return false;
	snprintf(c->which, c->size, "%s", name);
	return true;
}

bool ng_limits_full(const ng_limits *l, const char *list, char *which,
		    size_t size)
{
	struct full_ctx c = {l, which, size};
	return each_entry(list, full_one, &c);
}

void ng_limits_publish(const ng_limits *l, classad *ad)
{
	for (size_t i = 0; i < l->n; i++) {
		char attr[300];
		snprintf(attr, sizeof(attr), "ConcurrencyLimit_%s",
			 l->v[i].name);
		for (char *p = attr; *p; p++)
			if (*p == '.')
				*p = '_';
		classad_insert_real(ad, attr, l->v[i].used);
	}
}
