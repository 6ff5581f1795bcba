/*
 * accountant.c: usage and priorities per submitter (accountant.h).
 *
 * The customers live in memory, sorted by name (a pool has tens to
 * thousands of submitters, and each cycle reads them all), and each is
 * stored as one record of the store's "Customers" table: its name as
 * key, its fields as old-syntax ClassAd text (readable with mdb_dump,
 * and open to new fields).  "Accountant" holds LastUpdateTime.
 */
#include "accountant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "ks_mem.h"
#include "ks_store.h"

#define T_CUSTOMERS "Customers"
#define T_META "Accountant"
#define NICE_PREFIX "nice-user" /* HTCondor's NiceUserName */

struct ng_acct {
	ks_store *store;
	struct ng_acct_params p;
	char *local_domain;
	int64_t last_update;
	struct ng_customer *c; /* sorted by name (strcmp) */
	size_t n, cap;
	const ng_groups *groups; /* borrowed; NULL: every customer in <none> */
};

/* ---- the in-memory table ---------------------------------------------- */

/* Index of name, or where it would go (*found false). */
static size_t locate(const ng_acct *a, const char *name, bool *found)
{
	size_t lo = 0, hi = a->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(a->c[mid].name, name);
		if (cmp == 0) {
			*found = true;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static struct ng_customer *find(const ng_acct *a, const char *name)
{
	bool found;
	size_t i = locate(a, name, &found);
	return found ? &a->c[i] : NULL;
}

static struct ng_customer *insert(ng_acct *a, const char *name)
{
	bool found;
	size_t i = locate(a, name, &found);
	if (found)
		return &a->c[i];
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->c = ks_xrealloc(a->c, a->cap * sizeof(*a->c));
	}
	memmove(&a->c[i + 1], &a->c[i], (a->n - i) * sizeof(*a->c));
	a->n++;
	struct ng_customer *c = &a->c[i];
	memset(c, 0, sizeof(*c));
	c->name = ks_xstrdup(name);
	/* as HTCondor tells them: a submitter has a domain, a group none */
	c->is_group = strchr(name, '@') == NULL;
	c->priority = NG_MIN_PRIORITY;
	return c;
}

static void remove_at(ng_acct *a, size_t i)
{
	free(a->c[i].name);
	memmove(&a->c[i], &a->c[i + 1], (a->n - i - 1) * sizeof(*a->c));
	a->n--;
}

/* The factor a customer gets when none was set, by HTCondor's rules. */
static double default_factor(const ng_acct *a, const char *name)
{
	if (strncmp(name, NICE_PREFIX, strlen(NICE_PREFIX)) == 0)
		return a->p.nice_factor;
	/* GROUP_PRIO_FACTOR_<group> of the group the customer counts for */
	if (a->groups) {
		const struct ng_group *grp = ng_groups_assign(a->groups, name);
		if (grp->prio_factor > 0)
			return grp->prio_factor;
	}
	if (a->local_domain && *a->local_domain) {
		const char *at = strrchr(name, '@');
		const char *domain = at ? at + 1 : "";
		if (strcmp(domain, a->local_domain) != 0)
			return a->p.remote_factor;
	}
	return a->p.default_factor;
}

/* name's record, created (with its factor) when new: HTCondor's
 * GetPriority() writes the factor it settles on, so that a later change
 * of DEFAULT_PRIO_FACTOR does not move existing submitters. */
static struct ng_customer *get(ng_acct *a, const char *name)
{
	struct ng_customer *c = insert(a, name);
	if (c->factor < NG_MIN_PRIORITY_FACTOR)
		c->factor = default_factor(a, name);
	if (c->priority < NG_MIN_PRIORITY)
		c->priority = NG_MIN_PRIORITY;
	return c;
}

/* ---- records in the store --------------------------------------------- */

static void record_text(const struct ng_customer *c, struct classad_buf *b)
{
	b->len = 0;
	/* %.17g: a double read back is the same double */
	classad_buf_printf(b,
			   "Priority = %.17g\nPriorityFactor = %.17g\n"
			   "ResourcesUsed = %lld\nWeightedResourcesUsed = %.17g\n"
			   "AccumulatedUsage = %.17g\n"
			   "WeightedAccumulatedUsage = %.17g\n"
			   "BeginUsageTime = %lld\nLastUsageTime = %lld\n",
			   c->priority, c->factor, (long long)c->resources_used,
			   c->weighted_used, c->accumulated,
			   c->weighted_accumulated,
			   (long long)c->begin_usage_time,
			   (long long)c->last_usage_time);
}

static double rd(const classad *ad, const char *name)
{
	double v = 0;
	classad_eval_real(ad, name, NULL, &v);
	return isfinite(v) ? v : 0;
}

static int64_t ri(const classad *ad, const char *name)
{
	int64_t v = 0;
	classad_eval_int(ad, name, NULL, &v);
	return v;
}

struct load {
	ng_acct *a;
	size_t bad;
};

static int load_one(void *arg, const void *key, size_t klen, const void *val,
		    size_t vlen)
{
	struct load *l = arg;
	classad *ad = classad_parse(val, vlen, CLASSAD_FMT_OLD, NULL, NULL);
	if (!ad || klen == 0 || memchr(key, '\0', klen)) {
		/* a record this code did not write: left alone */
		l->bad++;
		classad_free(ad);
		return 0;
	}
	char *name = ks_xstrndup(key, klen);
	struct ng_customer *c = insert(l->a, name);
	free(name);
	c->priority = rd(ad, "Priority");
	c->factor = rd(ad, "PriorityFactor");
	c->resources_used = ri(ad, "ResourcesUsed");
	c->weighted_used = rd(ad, "WeightedResourcesUsed");
	c->accumulated = rd(ad, "AccumulatedUsage");
	c->weighted_accumulated = rd(ad, "WeightedAccumulatedUsage");
	c->begin_usage_time = ri(ad, "BeginUsageTime");
	c->last_usage_time = ri(ad, "LastUsageTime");
	classad_free(ad);
	return 0;
}

static int load_all(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)err;
	struct load *l = arg;
	const void *v;
	size_t vlen;
	if (ks_txn_get(t, T_META, "LastUpdateTime", 14, &v, &vlen) == 0 &&
	    vlen < 32) {
		char buf[32];
		memcpy(buf, v, vlen);
		buf[vlen] = '\0';
		l->a->last_update = strtoll(buf, NULL, 10);
	}
	/* "" rather than NULL: the store compares the prefix with memcmp,
	 * which must not be given NULL even for 0 bytes */
	return ks_txn_each(t, T_CUSTOMERS, "", 0, false, load_one, l);
}

static int put_customer(ks_txn *t, const struct ng_customer *c,
			struct classad_buf *b, struct ks_err *err)
{
	record_text(c, b);
	return ks_txn_put(t, T_CUSTOMERS, c->name, strlen(c->name), b->data,
			  b->len, err);
}

static int put_meta(ks_txn *t, const ng_acct *a, struct ks_err *err)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld", (long long)a->last_update);
	return ks_txn_put(t, T_META, "LastUpdateTime", 14, buf, (size_t)n,
			  err);
}

static int save_all(ks_txn *t, void *arg, struct ks_err *err)
{
	const ng_acct *a = arg;
	struct classad_buf b = {0};
	int rc = put_meta(t, a, err);
	for (size_t i = 0; rc == 0 && i < a->n; i++)
		rc = put_customer(t, &a->c[i], &b, err);
	free(b.data);
	return rc;
}

struct one {
	const ng_acct *a;
	const struct ng_customer *c; /* NULL: delete name */
	const char *name;
};

static int save_one(ks_txn *t, void *arg, struct ks_err *err)
{
	struct one *o = arg;
	if (!o->c)
		return ks_txn_del(t, T_CUSTOMERS, o->name, strlen(o->name),
				  err);
	struct classad_buf b = {0};
	int rc = put_customer(t, o->c, &b, err);
	free(b.data);
	return rc;
}

static int save(ng_acct *a, const struct ng_customer *c, struct ks_err *err)
{
	struct one o = {a, c, c->name};
	return a->store ? ks_store_write(a->store, save_one, &o, err) : 0;
}

int ng_acct_save(ng_acct *a, struct ks_err *err)
{
	return a->store ? ks_store_write(a->store, save_all, a, err) : 0;
}

/* ---- life cycle -------------------------------------------------------- */

void ng_acct_set_params(ng_acct *a, const struct ng_acct_params *p)
{
	a->p = *p;
	if (!(a->p.halflife > 0))
		a->p.halflife = 86400; /* HTCondor's range stops at 1e-5 */
	free(a->local_domain);
	a->local_domain = p->local_domain && *p->local_domain
				  ? ks_xstrdup(p->local_domain)
				  : NULL;
	a->p.local_domain = a->local_domain;
}

int ng_acct_open(const char *path, const struct ng_acct_params *p,
		 ng_acct **out, struct ks_err *err)
{
	static const char *const tables[] = {T_CUSTOMERS, T_META};
	*out = NULL;
	ng_acct *a = ks_xcalloc(1, sizeof(*a));
	ng_acct_set_params(a, p);
	int rc = ks_store_open(path, tables, 2, &a->store, err);
	struct load l = {a, 0};
	if (rc == 0)
		rc = ks_store_read(a->store, load_all, &l, err);
	if (rc) {
		ng_acct_close(a);
		return rc;
	}
	get(a, NG_NONE_GROUP);
	*out = a;
	return 0;
}

void ng_acct_close(ng_acct *a)
{
	if (!a)
		return;
	ks_store_close(a->store);
	for (size_t i = 0; i < a->n; i++)
		free(a->c[i].name);
	free(a->c);
	free(a->local_domain);
	free(a);
}

int64_t ng_acct_last_update(const ng_acct *a)
{
	return a->last_update;
}

/* ---- the cycle's accounting -------------------------------------------- */

int ng_acct_update(ng_acct *a, int64_t now, struct ks_err *err)
{
	int64_t passed = now - a->last_update;
	if (passed == 0)
		return 0;
	/* a first start charges nothing, and a clock set back only moves
	 * the mark, as HTCondor does */
	if (a->last_update == 0 || passed < 0) {
		a->last_update = now;
		return ng_acct_save(a, err);
	}
	double aging = pow(0.5, (double)passed / a->p.halflife);
	for (size_t i = 0; i < a->n; i++) {
		struct ng_customer *c = &a->c[i];
		double prio = c->priority < NG_MIN_PRIORITY ? NG_MIN_PRIORITY
							   : c->priority;
		prio = prio * aging + c->weighted_used * (1 - aging);
		c->priority = prio < NG_MIN_PRIORITY ? NG_MIN_PRIORITY : prio;
		c->accumulated += (double)c->resources_used * (double)passed;
		c->weighted_accumulated += c->weighted_used * (double)passed;
		if (c->accumulated > 0 && c->begin_usage_time == 0)
			c->begin_usage_time = now;
		if (c->resources_used > 0)
			c->last_usage_time = now;
		c->share = c->limit = 0;
	}
	a->last_update = now;
	return ng_acct_save(a, err);
}

void ng_acct_usage_begin(ng_acct *a)
{
	for (size_t i = 0; i < a->n; i++) {
		a->c[i].resources_used = 0;
		a->c[i].weighted_used = 0;
	}
}

void ng_acct_set_groups(ng_acct *a, const ng_groups *g)
{
	a->groups = g;
}

const char *ng_acct_group_of(const ng_acct *a, const char *name)
{
	return a->groups ? ng_groups_assign(a->groups, name)->name
			 : NG_NONE_GROUP;
}

void ng_acct_add_usage(ng_acct *a, const char *name, double w)
{
	struct ng_customer *c = get(a, name);
	c->resources_used++;
	c->weighted_used += w;
	if (!c->is_group) {
		/* and for its group, as HTCondor's AddMatch charges it */
		c = get(a, ng_acct_group_of(a, name));
		c->resources_used++;
		c->weighted_used += w;
	}
}

double ng_acct_priority(ng_acct *a, const char *name)
{
	const struct ng_customer *c = get(a, name);
	return c->priority * c->factor;
}

double ng_acct_factor(ng_acct *a, const char *name)
{
	return get(a, name)->factor;
}

double ng_acct_weighted_used(ng_acct *a, const char *name)
{
	const struct ng_customer *c = find(a, name);
	return c ? c->weighted_used : 0;
}

const struct ng_customer *ng_acct_find(const ng_acct *a, const char *name)
{
	return find(a, name);
}

void ng_acct_set_share(ng_acct *a, const char *name, double share,
		       double limit)
{
	struct ng_customer *c = find(a, name);
	if (c) {
		c->share = share;
		c->limit = limit;
	}
}

/* ---- administration ---------------------------------------------------- */

int ng_acct_set_factor(ng_acct *a, const char *name, double factor,
		       struct ks_err *err)
{
	struct ng_customer *c = get(a, name);
	c->factor = factor < NG_MIN_PRIORITY_FACTOR || !isfinite(factor)
			    ? NG_MIN_PRIORITY_FACTOR
			    : factor;
	return save(a, c, err);
}

int ng_acct_set_priority(ng_acct *a, const char *name, double prio,
			 struct ks_err *err)
{
	struct ng_customer *c = get(a, name);
	c->priority = isfinite(prio) ? prio : NG_MIN_PRIORITY;
	return save(a, c, err);
}

int ng_acct_reset_usage(ng_acct *a, const char *name, int64_t now,
			struct ks_err *err)
{
	for (size_t i = 0; i < a->n; i++) {
		struct ng_customer *c = &a->c[i];
		if (name && strcmp(c->name, name) != 0)
			continue;
		c->accumulated = 0;
		c->weighted_accumulated = 0;
		c->begin_usage_time = now;
	}
	if (name && !find(a, name)) {
		/* HTCondor's reset writes the record even for a new name */
		struct ng_customer *c = get(a, name);
		c->begin_usage_time = now;
	}
	if (!name)
		return ng_acct_save(a, err);
	return save(a, find(a, name), err);
}

int ng_acct_delete(ng_acct *a, const char *name, struct ks_err *err)
{
	bool found;
	size_t i = locate(a, name, &found);
	if (found)
		remove_at(a, i);
	struct one o = {a, NULL, name};
	int rc = a->store ? ks_store_write(a->store, save_one, &o, err) : 0;
	/* the group every submitter counts in is always there */
	if (strcmp(name, NG_NONE_GROUP) == 0)
		get(a, NG_NONE_GROUP);
	return rc;
}

size_t ng_acct_count(const ng_acct *a)
{
	return a->n;
}

const struct ng_customer *ng_acct_at(const ng_acct *a, size_t i)
{
	return i < a->n ? &a->c[i] : NULL;
}

/* ---- reports ----------------------------------------------------------- */

static void put_num(classad *ad, const char *attr, int idx, double v,
		    bool integer)
{
	char name[96];
	if (idx > 0)
		snprintf(name, sizeof(name), "%s%d", attr, idx);
	else
		snprintf(name, sizeof(name), "%s", attr);
	if (integer)
		classad_insert_int(ad, name, (int64_t)v);
	else
		classad_insert_real(ad, name, v);
}

static void put_str(classad *ad, const char *attr, int idx, const char *s)
{
	char name[96];
	if (idx > 0)
		snprintf(name, sizeof(name), "%s%d", attr, idx);
	else
		snprintf(name, sizeof(name), "%s", attr);
	classad_insert_string(ad, name, s);
}

static void put_bool(classad *ad, const char *attr, int idx, bool b)
{
	char name[96];
	if (idx > 0)
		snprintf(name, sizeof(name), "%s%d", attr, idx);
	else
		snprintf(name, sizeof(name), "%s", attr);
	classad_insert_bool(ad, name, b);
}

/* The figures of the group a record stands for (the root's zeros when
 * no groups are configured). */
static const struct ng_group *group_of_record(const ng_acct *a,
					      const struct ng_customer *c)
{
	if (!a->groups)
		return NULL;
	const struct ng_group *grp = ng_groups_find(a->groups, c->name);
	return grp ? grp : ng_groups_at(a->groups, 0);
}

/* The usage of a group and its subgroups (HierWeightedResourcesUsed);
 * the root's is 0, as HTCondor charges it only to declared groups. */
static double hier_used(const ng_acct *a, const struct ng_group *grp)
{
	if (!grp || !grp->parent)
		return 0;
	const struct ng_customer *c = find(a, grp->name);
	double u = c ? c->weighted_used : 0;
	for (size_t i = 0; i < grp->nchild; i++)
		u += hier_used(a, grp->child[i]);
	return u;
}

/* One customer's fields, under idx (0: without a suffix); c has its
 * factor (get() gave it one). */
static void put_customer_attrs(const ng_acct *a, classad *ad, int idx,
			       const struct ng_customer *c, bool rollup)
{
	put_str(ad, "Name", idx, c->name);
	put_bool(ad, "IsAccountingGroup", idx, c->is_group);
	if (c->is_group) {
		/* a group's AccountingGroup is its parent (the root its
		 * own name), its factor GROUP_PRIO_FACTOR_<group> */
		const struct ng_group *grp = group_of_record(a, c);
		put_str(ad, "AccountingGroup", idx,
			grp && grp->parent ? grp->parent->name : c->name);
		put_num(ad, "Priority", idx,
			rollup ? 0 : c->priority * c->factor, false);
		put_num(ad, "PriorityFactor", idx,
			rollup ? c->factor : grp ? grp->prio_factor : 0,
			false);
		put_num(ad, "EffectiveQuota", idx, grp ? grp->quota : 0, false);
		put_num(ad, "ConfigQuota", idx, grp ? grp->config_quota : 0,
			false);
		put_num(ad, "SubtreeQuota", idx, grp ? grp->subtree_quota : 0,
			false);
		put_num(ad, "GroupSortKey", idx, grp ? grp->sort_key : 3.4e38,
			false);
		put_str(ad, "SurplusPolicy", idx,
			grp ? ng_group_surplus_policy(grp) : "no");
		put_num(ad, "Requested", idx,
			grp ? grp->currently_requested : 0, false);
		put_num(ad, "HierWeightedResourcesUsed", idx, hier_used(a, grp),
			false);
	} else {
		put_str(ad, "AccountingGroup", idx,
			ng_acct_group_of(a, c->name));
		put_num(ad, "Priority", idx, c->priority * c->factor, false);
		put_num(ad, "Ceiling", idx, -1, true);
		put_num(ad, "Floor", idx, 0, true);
		put_num(ad, "PriorityFactor", idx, c->factor, false);
		put_num(ad, "SubmitterShare", idx, c->share, false);
		put_num(ad, "SubmitterLimit", idx, c->limit, false);
	}
	put_num(ad, "ResourcesUsed", idx, (double)c->resources_used, true);
	put_num(ad, "WeightedResourcesUsed", idx, c->weighted_used, false);
	put_num(ad, "AccumulatedUsage", idx, c->accumulated, false);
	put_num(ad, "WeightedAccumulatedUsage", idx, c->weighted_accumulated,
		false);
	put_num(ad, "BeginUsageTime", idx, (double)c->begin_usage_time, true);
	put_num(ad, "LastUsageTime", idx, (double)c->last_usage_time, true);
}

/* Adds a group's figures to its parent's (at pidx), as HTCondor's
 * GET_PRIORITY_ROLLUP does: sums, and the earliest and latest times. */
static void roll_up(classad *ad, int idx, int pidx)
{
	static const char *const sums[] = {"ResourcesUsed",
					   "WeightedResourcesUsed",
					   "AccumulatedUsage",
					   "WeightedAccumulatedUsage"};
	char from[96], to[96];
	for (size_t k = 0; k < 4; k++) {
		double x = 0, y = 0;
		snprintf(from, sizeof(from), "%s%d", sums[k], idx);
		snprintf(to, sizeof(to), "%s%d", sums[k], pidx);
		classad_eval_real(ad, from, NULL, &x);
		classad_eval_real(ad, to, NULL, &y);
		if (k == 0)
			classad_insert_int(ad, to, (int64_t)(x + y));
		else
			classad_insert_real(ad, to, x + y);
	}
	int64_t x = 0, y = 0;
	snprintf(from, sizeof(from), "BeginUsageTime%d", idx);
	snprintf(to, sizeof(to), "BeginUsageTime%d", pidx);
	classad_eval_int(ad, from, NULL, &x);
	classad_eval_int(ad, to, NULL, &y);
	classad_insert_int(ad, to, x < y ? x : y);
	snprintf(from, sizeof(from), "LastUsageTime%d", idx);
	snprintf(to, sizeof(to), "LastUsageTime%d", pidx);
	classad_eval_int(ad, from, NULL, &x);
	classad_eval_int(ad, to, NULL, &y);
	classad_insert_int(ad, to, x > y ? x : y);
}

classad *ng_acct_report(ng_acct *a)
{
	return ng_acct_report_rollup(a, false);
}

classad *ng_acct_report_rollup(ng_acct *a, bool rollup)
{
	classad *ad = classad_new();
	classad_insert_int(ad, "LastUpdate", a->last_update);
	int idx = 1;
	get(a, NG_NONE_GROUP);
	size_t ngroups = a->groups ? ng_groups_count(a->groups) : 1;
	/* every declared group has its record, as in HTCondor */
	for (size_t i = 0; i < ngroups; i++)
		if (a->groups)
			get(a, ng_groups_at(a->groups, i)->name);
	/* as reading a priority does in HTCondor: every record gets its
	 * factor (none is added, so no pointer moves) */
	for (size_t i = 0; i < a->n; i++)
		get(a, a->c[i].name);
	/* the groups first, breadth first as HTCondor numbers them; a
	 * record of a group no longer declared is not shown */
	for (size_t i = 0; i < ngroups; i++) {
		const char *name = a->groups ? ng_groups_at(a->groups, i)->name
					     : NG_NONE_GROUP;
		put_customer_attrs(a, ad, idx++, find(a, name), rollup);
	}
	if (rollup && a->groups)
		for (size_t i = ngroups; i-- > 1;) {
			const struct ng_group *grp = ng_groups_at(a->groups, i);
			size_t p = 0;
			while (ng_groups_at(a->groups, p) != grp->parent)
				p++;
			roll_up(ad, (int)i + 1, (int)p + 1);
		}
	for (size_t i = 0; i < a->n; i++)
		if (!a->c[i].is_group)
			put_customer_attrs(a, ad, idx++, &a->c[i], false);
	classad_insert_int(ad, "NumSubmittors", idx - 1);
	return ad;
}

classad *ng_acct_ad(ng_acct *a, const struct ng_customer *c,
		    const char *negotiator)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Accounting");
	struct ng_customer copy = *c;
	if (copy.factor < NG_MIN_PRIORITY_FACTOR)
		copy.factor = default_factor(a, c->name);
	put_customer_attrs(a, ad, 0, &copy, false);
	classad_insert_string(ad, "NegotiatorName", negotiator);
	classad_insert_int(ad, "LastUpdate", a->last_update);
	return ad;
}
