/*
 * groups.c: hierarchical group quotas (groups.h): the tree of groups
 * from GROUP_NAMES and its knobs, which group a submitter counts for,
 * and HTCondor's negotiation in rounds over the groups in GROUP_SORT_EXPR
 * order.  The quota and allocation arithmetic is quota.c's.
 */
#include "groups_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"

#define ROOT_NAME "<none>"
/* HTCondor's default GROUP_SORT_EXPR: fullest group (usage / quota)
 * last, groups without quota after those with, the root last of all */
#define DEFAULT_SORT_EXPR                                                      \
	"ifThenElse(AccountingGroup=?=\"<none>\",3.4e+38,"                     \
	"ifThenElse(GroupQuota>0,GroupResourcesInUse/GroupQuota,3.3e+38))"

/* ---- the tree ------------------------------------------------------------ */

static struct ng_group *new_group(const char *name)
{
	struct ng_group *grp = ks_xcalloc(1, sizeof(*grp));
	grp->name = ks_xstrdup(name);
	return grp;
}

static void free_group(struct ng_group *grp)
{
	free(grp->name);
	free(grp->child);
	free(grp);
}

/* The child of parent named name (compared without case, as HTCondor
 * compares group names), of length len, or NULL. */
static struct ng_group *child_named(const struct ng_group *parent,
				    const char *name, size_t len)
{
	for (size_t i = 0; i < parent->nchild; i++) {
		const char *full = parent->child[i]->name;
		const char *last = strrchr(full, '.');
		last = last ? last + 1 : full;
		if (strlen(last) == len && strncasecmp(last, name, len) == 0)
			return parent->child[i];
	}
	return NULL;
}

static int by_name_nocase(const void *pa, const void *pb)
{
	return strcasecmp(*(char *const *)pa, *(char *const *)pb);
}

/* A config value as a number (an expression, as HTCondor's param_double
 * evaluates one): 1 and *v, 0 when undefined, -1 when it is not a
 * number (*text gets the value, free()). */
static int number_knob(const ks_config *cfg, const char *knob, double *v,
		       char **text)
{
	*text = ks_config_get(cfg, knob, NULL);
	if (!*text)
		return 0;
	struct ks_err err = {0};
	classad_expr *e = classad_parse_expr(*text, strlen(*text), &err);
	if (!e)
		return -1;
	classad *ad = classad_new();
	classad_insert(ad, "Value", e);
	bool ok = classad_eval_real(ad, "Value", NULL, v) && isfinite(*v);
	classad_free(ad);
	return ok ? 1 : -1;
}

static bool bool_knob(const ks_config *cfg, const char *knob, bool dflt)
{
	bool b = dflt;
	ks_config_bool(cfg, knob, &b);
	return b;
}

static void configure(ng_groups *g, const ks_config *cfg,
		      struct ng_group *grp, bool dflt_surplus,
		      bool dflt_regroup)
{
	char knob[512];
	char *text = NULL;
	double q = -1;
	snprintf(knob, sizeof(knob), "GROUP_QUOTA_%s", grp->name);
	int rc = number_knob(cfg, knob, &q, &text);
	if (rc < 0)
		LOG(g, KS_D_ALWAYS,
		    "group quotas: ERROR: %s = %s is not a number; the group "
		    "has no static quota", knob, text);
	free(text);
	if (rc > 0) {
		grp->static_quota = true;
		if (q < 0) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: ERROR: negative quota (%g) "
			    "defaulting to zero", q);
			q = 0;
		}
		grp->config_quota = q;
	} else {
		snprintf(knob, sizeof(knob), "GROUP_QUOTA_DYNAMIC_%s",
			 grp->name);
		rc = number_knob(cfg, knob, &q, &text);
		if (rc < 0)
			LOG(g, KS_D_ALWAYS,
			    "group quotas: ERROR: %s = %s is not a number",
			    knob, text);
		free(text);
		if (rc > 0 && (q < 0 || q > 1)) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: ERROR: %s = %g is not between 0 "
			    "and 1; using %g", knob, q, q < 0 ? 0.0 : 1.0);
			q = q < 0 ? 0 : 1;
		}
		if (rc > 0) {
			grp->config_quota = q;
		} else {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: WARNING: no quota specified for "
			    "group \"%s\", defaulting to zero", grp->name);
			grp->config_quota = 0;
		}
	}
	snprintf(knob, sizeof(knob), "GROUP_ACCEPT_SURPLUS_%s", grp->name);
	grp->accept_surplus = bool_knob(cfg, knob, dflt_surplus);
	snprintf(knob, sizeof(knob), "GROUP_AUTOREGROUP_%s", grp->name);
	grp->autoregroup = bool_knob(cfg, knob, dflt_regroup);
	snprintf(knob, sizeof(knob), "GROUP_PRIO_FACTOR_%s", grp->name);
	double f = 0;
	rc = number_knob(cfg, knob, &f, &text);
	if (rc < 0)
		LOG(g, KS_D_ALWAYS, "%s = %s is not a number; ignored", knob,
		    text);
	free(text);
	grp->prio_factor = rc > 0 && f > 0 ? f : 0;
	g->autoregroup |= grp->autoregroup;
	g->accept_surplus |= grp->accept_surplus;
}

/* Adds the group called name under the tree, if its parent is there. */
static void add_group(ng_groups *g, struct ng_group *root, const char *name,
		      const ks_config *cfg, bool dflt_surplus,
		      bool dflt_regroup)
{
	struct ng_group *at = root;
	const char *p = name;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		if (len == 0) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: WARNING: ignoring group name %s: "
			    "an empty part", name);
			return;
		}
		struct ng_group *c = child_named(at, p, len);
		if (!dot) {
			if (c) {
				LOG(g, KS_D_ALWAYS,
				    "group quotas: WARNING: ignoring duplicate "
				    "group name %s", name);
				return;
			}
			break;
		}
		if (!c) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: WARNING: ignoring group name %s "
			    "with missing parent %.*s", name, (int)len, p);
			return;
		}
		at = c;
		p = dot + 1;
	}
	struct ng_group *grp = new_group(name);
	grp->parent = at;
	at->child = ks_xrealloc(at->child,
				(at->nchild + 1) * sizeof(*at->child));
	at->child[at->nchild++] = grp;
	configure(g, cfg, grp, dflt_surplus, dflt_regroup);
}

static void sort_expression(ng_groups *g, const ks_config *cfg)
{
	char *text = ks_config_get(cfg, "GROUP_SORT_EXPR", NULL);
	struct ks_err err = {0};
	g->sort_expr = text ? classad_parse_expr(text, strlen(text), &err)
			    : NULL;
	if (text && !g->sort_expr)
		/* HTCondor's negotiator stops here; kestrel's keeps
		 * negotiating, in HTCondor's default order */
		LOG(g, KS_D_ALWAYS,
		    "Failed to parse GROUP_SORT_EXPR = %s (%s); using the "
		    "default %s", text, err.msg, DEFAULT_SORT_EXPR);
	if (!g->sort_expr) {
		free(text);
		text = ks_xstrdup(DEFAULT_SORT_EXPR);
		g->sort_expr = classad_parse_expr(text, strlen(text), &err);
	}
	g->sort_text = text;
}

ng_groups *ng_groups_new(const ks_config *cfg, ks_log *log)
{
	ng_groups *g = ks_xcalloc(1, sizeof(*g));
	g->log = log;
	struct ng_group *root = new_group(ROOT_NAME);
	root->accept_surplus = true;
	bool dflt_surplus = bool_knob(cfg, "GROUP_ACCEPT_SURPLUS", false);
	bool dflt_regroup = bool_knob(cfg, "GROUP_AUTOREGROUP", false);
	g->autoregroup = dflt_regroup;
	g->accept_surplus = dflt_surplus;
	g->oversubscribe = bool_knob(cfg, "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION",
				     true);

	char *list = ks_config_get(cfg, "GROUP_NAMES", NULL);
	char **names = NULL;
	size_t nnames = 0;
	for (char *cur = list, *tok; (tok = ks_list_cut(&cur));) {
		if (strcmp(tok, ROOT_NAME) == 0) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: ERROR: group name \"%s\" is "
			    "reserved for root group -- ignoring this group",
			    tok);
			continue;
		}
		names = ks_xrealloc(names, (nnames + 1) * sizeof(*names));
		names[nnames++] = tok;
	}
	/* a parent sorts before its children */
	if (nnames > 1)
		qsort(names, nnames, sizeof(*names), by_name_nocase);
	for (size_t i = 0; i < nnames; i++)
		add_group(g, root, names[i], cfg, dflt_surplus, dflt_regroup);
	free(names);
	free(list);
	root->autoregroup = g->autoregroup;

	/* breadth first */
	g->all = ks_xmalloc(sizeof(*g->all));
	g->all[g->n++] = root;
	for (size_t i = 0; i < g->n; i++) {
		struct ng_group *grp = g->all[i];
		g->all = ks_xrealloc(g->all,
				     (g->n + grp->nchild) * sizeof(*g->all));
		for (size_t k = 0; k < grp->nchild; k++)
			g->all[g->n++] = grp->child[k];
	}
	sort_expression(g, cfg);
	return g;
}

void ng_groups_free(ng_groups *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free_group(g->all[i]);
	free(g->all);
	classad_expr_free(g->sort_expr);
	free(g->sort_text);
	free(g);
}

bool ng_groups_enabled(const ng_groups *g)
{
	return g && g->n > 1;
}

size_t ng_groups_count(const ng_groups *g)
{
	return g->n;
}

struct ng_group *ng_groups_at(const ng_groups *g, size_t i)
{
	return i < g->n ? g->all[i] : NULL;
}

struct ng_group *ng_groups_find(const ng_groups *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcasecmp(g->all[i]->name, name) == 0)
			return g->all[i];
	return NULL;
}

bool ng_groups_autoregroup(const ng_groups *g)
{
	return g->autoregroup;
}

struct ng_group *ng_groups_assign(const ng_groups *g, const char *customer)
{
	struct ng_group *root = g->all[0];
	const char *at = strrchr(customer, '@');
	if (!at) {
		struct ng_group *grp = ng_groups_find(g, customer);
		return grp ? grp : root;
	}
	/* the group part: before the last '.' of the name before '@' */
	const char *end = NULL;
	for (const char *p = customer; p < at; p++)
		if (*p == '.')
			end = p;
	if (!end)
		return root;
	struct ng_group *grp = root;
	for (const char *p = customer; p < end;) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t len = dot ? (size_t)(dot - p) : (size_t)(end - p);
		struct ng_group *c = child_named(grp, p, len);
		if (!c)
			break;
		grp = c;
		p += len + 1;
	}
	return grp;
}

const char *ng_group_surplus_policy(const struct ng_group *grp)
{
	if (grp->autoregroup)
		return "regroup";
	return grp->accept_surplus ? "byquota" : "no";
}

double ng_groups_quota(const struct ng_group *grp)
{
	return grp->quota;
}

/* ---- negotiation in rounds ---------------------------------------------- */

static void sort_keys(ng_groups *g, ng_group_usage_fn usage_fn, void *arg)
{
	for (size_t i = 0; i < g->n; i++) {
		struct ng_group *grp = g->all[i];
		classad *ad = classad_new();
		classad_insert_string(ad, "AccountingGroup", grp->name);
		classad_insert_real(ad, "GroupQuota", grp->quota);
		classad_insert_real(ad, "GroupResourcesAllocated",
				    grp->allocated);
		classad_insert_real(ad, "GroupResourcesInUse",
				    usage_fn(arg, grp->name));
		classad_insert(ad, "SortExpr", classad_expr_ref(g->sort_expr));
		double key;
		if (!classad_eval_real(ad, "SortExpr", NULL, &key) ||
		    isnan(key)) {
			key = FLT_MAX;
			if (!grp->sort_warned)
				LOG(g, KS_D_ALWAYS,
				    "WARNING: sort expression \"%s\" failed to "
				    "evaluate to floating point for group %s - "
				    "defaulting to %g (logged once)",
				    g->sort_text, grp->name, key);
			grp->sort_warned = true;
		}
		classad_free(ad);
		grp->sort_key = key;
	}
}

/* The sum of usage under grp (for NEGOTIATOR_STRICT_ENFORCE_QUOTA). */
static double subtree_usage(struct ng_group *grp, ng_group_usage_fn usage_fn,
			    void *arg)
{
	double u = usage_fn(arg, grp->name);
	for (size_t i = 0; i < grp->nchild; i++)
		u += subtree_usage(grp->child[i], usage_fn, arg);
	grp->subtree_usage = u;
	return u;
}

/* A group under a parent that takes no surplus gets no more than what
 * is left of that parent's quota. */
static double strict_limit(ng_groups *g, struct ng_group *grp, double slots,
			   ng_group_usage_fn usage_fn, void *arg)
{
	subtree_usage(g->all[0], usage_fn, arg);
	double extra = slots - grp->usage;
	for (struct ng_group *lim = grp; lim; lim = lim->parent) {
		if (lim->accept_surplus)
			continue;
		double avail = (lim->static_quota ? lim->config_quota
						  : lim->subtree_quota) -
			       lim->subtree_usage;
		if (avail < 0)
			avail = 0;
		if (extra > avail) {
			LOG(g, KS_D_ALWAYS,
			    "Group %s with accept_surplus=false has total "
			    "usage = %g and config quota of %g -- "
			    "constraining allocation in subgroup %s to %g",
			    lim->name, lim->subtree_usage, lim->config_quota,
			    grp->name, avail + grp->usage);
			extra = avail;
		}
	}
	return extra + grp->usage;
}

static int by_key(const void *pa, const void *pb)
{
	const struct ng_group *a = *(struct ng_group *const *)pa;
	const struct ng_group *b = *(struct ng_group *const *)pb;
	if (a->sort_key != b->sort_key)
		return a->sort_key < b->sort_key ? -1 : 1;
	return 0;
}

void ng_groups_negotiate(ng_groups *g, const struct ng_groups_opts *o,
			 ng_group_usage_fn usage_fn,
			 ng_group_negotiate_fn fn, void *arg)
{
	struct ng_group *root = g->all[0];
	int max_rounds = o->max_rounds > 0 ? o->max_rounds : 3;
	double rate = o->rr_rate >= 1 ? o->rr_rate : DBL_MAX;
	struct ng_group **order = ks_xmalloc(g->n * sizeof(*order));
	for (int iter = 1;; iter++) {
		if (iter > max_rounds) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: halting allocation rounds after %d "
			    "iterations", iter - 1);
			break;
		}
		LOG(g, KS_D_ALWAYS, "group quotas: allocation round %d", iter);
		double surplus = ng_groups_allocate(g, o->whole_slots);
		if (g->autoregroup) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: autoregroup mode: allocating %g to "
			    "group %s", o->total, root->name);
			root->quota = o->total;
			root->allocated = o->total;
		}
		double maxdelta = 0, requested = 0, allocated = 0;
		unsigned long served = 0, unserved = 0;
		for (size_t i = 0; i < g->n; i++) {
			struct ng_group *grp = g->all[i];
			LOG(g, KS_D_FULLDEBUG,
			    "group quotas: group= %s  quota= %g  requested= %g  "
			    "allocated= %g  unallocated= %g", grp->name,
			    grp->quota, grp->requested + grp->allocated,
			    grp->allocated, grp->requested);
			requested += grp->requested;
			allocated += grp->allocated;
			if (grp->allocated > 0)
				served++;
			else if (grp->requested > 0)
				unserved++;
			double target = g->accept_surplus ? grp->allocated
							  : grp->quota;
			double d = target - grp->usage;
			if (d > maxdelta)
				maxdelta = d;
		}
		LOG(g, KS_D_ALWAYS,
		    "group quotas: groups= %zu  requesting= %lu  served= %lu  "
		    "unserved= %lu  requested= %g  allocated= %g  surplus= %g  "
		    "maxdelta= %g", g->n, served + unserved, served, unserved,
		    requested + allocated, allocated, surplus, maxdelta);
		sort_keys(g, usage_fn, arg);
		memcpy(order, g->all, g->n * sizeof(*order));
		/* qsort is not stable: equal keys keep the tree's order by
		 * an insertion sort, n being small */
		for (size_t j = 1; j < g->n; j++)
			for (size_t k = j;
			     k > 0 && by_key(&order[k], &order[k - 1]) < 0; k--) {
				struct ng_group *t = order[k];
				order[k] = order[k - 1];
				order[k - 1] = t;
			}
		if (g->autoregroup) {
			/* the root, where regrouped submitters negotiate
			 * without a quota, comes last */
			size_t r = 0;
			while (order[r] != root)
				r++;
			memmove(&order[r], &order[r + 1],
				(g->n - r - 1) * sizeof(*order));
			order[g->n - 1] = root;
		}
		for (double step = 0;;) {
			step = step + rate < maxdelta ? step + rate : maxdelta;
			LOG(g, KS_D_ALWAYS,
			    "group quotas: entering RR iteration n= %g", step);
			for (size_t k = 0; k < g->n; k++) {
				struct ng_group *grp = order[k];
				LOG(g, KS_D_FULLDEBUG, "Group %s - sortkey= %g",
				    grp->name, grp->sort_key);
				if (grp->allocated <= 0) {
					LOG(g, KS_D_ALWAYS,
					    "Group %s - skipping, zero slots "
					    "allocated", grp->name);
					continue;
				}
				if (grp->usage >= grp->allocated &&
				    !o->consider_preemption) {
					LOG(g, KS_D_ALWAYS,
					    "Group %s - skipping, at or over "
					    "quota (quota=%g) (usage=%g) "
					    "(allocation=%g)", grp->name,
					    grp->quota, grp->usage,
					    grp->allocated);
					continue;
				}
				if (grp->nsubmitters == 0) {
					LOG(g, KS_D_ALWAYS,
					    "Group %s - skipping, no submitters "
					    "(usage=%g)", grp->name, grp->usage);
					continue;
				}
				double target = grp->allocated > grp->quota
							? grp->allocated
							: grp->quota;
				double delta = target - grp->usage > 0
						       ? target - grp->usage
						       : 0;
				double slots = delta > 0
						       ? grp->usage +
								 delta * (step / maxdelta)
						       : target;
				if (slots > target)
					slots = target;
				if (o->whole_slots)
					slots = floor(slots);
				if (o->strict_quota)
					slots = strict_limit(g, grp, slots,
							     usage_fn, arg);
				LOG(g, KS_D_ALWAYS,
				    "Group %s - BEGIN NEGOTIATION with a quota "
				    "limit of %g", grp->name, slots);
				fn(arg,
				   g->autoregroup && grp == root ? NULL : grp,
				   slots);
			}
			if (step >= maxdelta)
				break;
		}
		double used_total = 0;
		for (size_t i = 0; i < g->n; i++) {
			struct ng_group *grp = g->all[i];
			grp->usage = usage_fn(arg, grp->name);
			used_total += grp->usage < grp->allocated
					      ? grp->usage
					      : grp->allocated;
			/* a group that did not get all it was allocated asks,
			 * next round, for what it got: the rest goes to
			 * others */
			if (grp->usage < grp->allocated)
				grp->requested = grp->usage;
			else
				grp->requested += grp->allocated;
		}
		LOG(g, KS_D_ALWAYS, "Round %d totals: allocated= %g  usage= %g",
		    iter, allocated, used_total);
		if (used_total >= allocated)
			break;
	}
	for (size_t i = 0; i < g->n; i++)
		if (g->all[i]->rr || g->all[i]->requested <= 0)
			g->all[i]->rr_time = (double)o->now;
	free(order);
}
