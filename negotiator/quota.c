/*
 * quota.c: the arithmetic of hierarchical group quotas (groups.h);
 * groups.c builds the tree and drives the negotiation.  The arithmetic
 * is HTCondor's, in its order, so that the same configuration and
 * demand give the same allocations: quotas down the tree, then per round
 * a fair share (request capped by quota), surplus shared by quota and
 * then equally among groups that accept it, fractions of slots gathered
 * and dealt round robin.  A pool has a handful to a few hundred groups;
 * everything is linear or n log n in them per round.
 */
#include "groups_int.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

void ng_groups_begin(ng_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct ng_group *grp = g->all[i];
		grp->quota = grp->requested = grp->currently_requested = 0;
		grp->allocated = grp->subtree_quota = 0;
		grp->subtree_requested = grp->usage = grp->subtree_usage = 0;
		grp->nsubmitters = 0;
	}
}

/* ---- quotas down the tree ------------------------------------------------ */

static void assign(ng_groups *g, struct ng_group *grp, double quota)
{
	if (quota <= 0)
		return;
	grp->subtree_quota = quota;
	double sqsum = 0, dqsum = 0;
	for (size_t i = 0; i < grp->nchild; i++) {
		if (grp->child[i]->static_quota)
			sqsum += grp->child[i]->config_quota;
		else
			dqsum += grp->child[i]->config_quota;
	}
	/* with NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (HTCondor's
	 * default) static quotas are given in full even past the parent's */
	double sqa = g->oversubscribe || sqsum < quota ? sqsum : quota;
	double dqa = quota - sqa > 0 ? quota - sqa : 0;
	double zs = sqsum > 0 ? sqsum : 1;
	double zd = dqsum > 1 ? dqsum : 1;
	double chq = 0;
	for (size_t i = 0; i < grp->nchild; i++) {
		struct ng_group *c = grp->child[i];
		double q = c->static_quota ? c->config_quota * (sqa / zs)
					   : c->config_quota * (dqa / zd);
		if (q < 0)
			q = 0;
		if (c->static_quota && q < c->config_quota)
			LOG(g, KS_D_ALWAYS,
			    "group quotas: WARNING: static quota for group %s "
			    "rescaled from %g to %g", c->name, c->config_quota,
			    q);
		else if (zd - 1 > 0.0001)
			LOG(g, KS_D_ALWAYS,
			    "group quotas: WARNING: dynamic quota for group %s "
			    "rescaled from %g to %g", c->name, c->config_quota,
			    c->config_quota / zd);
		assign(g, c, q);
		chq += q;
	}
	/* with oversubscription a group keeps its whole quota; the root's
	 * is what its subgroups leave of the pool, or surplus would be
	 * counted twice */
	grp->quota = g->oversubscribe && grp->parent ? quota : quota - chq;
	if (grp->quota < 0)
		grp->quota = 0;
	LOG(g, KS_D_FULLDEBUG, "group quotas: group %s assigned quota= %g",
	    grp->name, grp->quota);
}

static void log_table(ng_groups *g, const struct ng_group *grp, bool first)
{
	if (first) {
		LOG(g, KS_D_ALWAYS, "%-20s %8s %8s %8s %8s %8s %8s %8s %8s%8s",
		    "Group", "Computed", "Config", "Quota", "Use", "Auto",
		    "Claimed", "Requestd", "Submters", "Allocatd");
		LOG(g, KS_D_ALWAYS, "%-20s %8s %8s %8s %8s %8s %8s %8s %8s%8s",
		    "Name", "quota", "quota", "static", "surplus", "Regroup",
		    "cores", "cores", "in group", "cores");
		LOG(g, KS_D_ALWAYS,
		    "----------------------------------------------------"
		    "----------------------------------------------------");
	}
	LOG(g, KS_D_ALWAYS, "%-20s %8g %8g %8c %8c %8c %8g %8g %8zu%8g",
	    grp->name, grp->quota, grp->config_quota,
	    grp->static_quota ? 'Y' : 'N', grp->accept_surplus ? 'Y' : 'N',
	    grp->autoregroup ? 'Y' : 'N', grp->usage, grp->requested,
	    grp->nsubmitters, grp->allocated);
	for (size_t i = 0; i < grp->nchild; i++)
		log_table(g, grp->child[i], false);
}

void ng_groups_assign_quotas(ng_groups *g, double total)
{
	assign(g, g->all[0], total);
	LOG(g, KS_D_ALWAYS,
	    "group quota: Quotas have been assigned to the following groups");
	log_table(g, g->all[0], true);
}

/* ---- one allocation round -------------------------------------------- */

/* Shares surplus among the groups of v (the last is the parent, which
 * takes part as if it accepted surplus) in proportion to their subtree
 * quotas (by_quota) or equally, never past what each still asks for. */
static void share_surplus(ng_groups *g, bool by_quota, struct ng_group **v,
			  size_t n, double *alloc, double *want,
			  double *surplus, double *requested)
{
	while (*surplus > 0) {
		double z = 0;
		for (size_t j = 0; j < n; j++)
			if (want[j] > 0)
				z += by_quota ? v[j]->subtree_quota : 1.0;
		if (z <= 0)
			break;
		bool never_capped = true;
		double sum = 0;
		for (size_t j = 0; j < n; j++) {
			if (want[j] <= 0)
				continue;
			double a = *surplus *
				   ((by_quota ? v[j]->subtree_quota : 1.0) / z);
			if (a > want[j]) {
				a = want[j];
				never_capped = false;
			}
			alloc[j] += a;
			want[j] -= a;
			sum += a;
		}
		*surplus -= sum;
		*requested -= sum;
		/* each pass either hands out everything or satisfies a
		 * group; what is left below a rounding error is nothing */
		if (never_capped || *surplus < 0) {
			if (fabs(*surplus) > 0.00001)
				LOG(g, KS_D_ALWAYS,
				    "group quotas: allocate-surplus-loop: "
				    "WARNING: rounding surplus= %g to zero",
				    *surplus);
			*surplus = 0;
		}
	}
}

/* The children of grp and grp itself (last), for sharing at one node;
 * grp temporarily plays a child that accepts surplus with its own
 * quota and request.  Returns the saved fields via *save. */
struct node_save {
	bool accept;
	double subtree_quota, subtree_requested, subtree_rr_time;
};

static struct ng_group **node_members(struct ng_group *grp,
				      struct node_save *save)
{
	struct ng_group **v = ks_xmalloc((grp->nchild + 1) * sizeof(*v));
	if (grp->nchild)
		memcpy(v, grp->child, grp->nchild * sizeof(*v));
	v[grp->nchild] = grp;
	save->accept = grp->accept_surplus;
	save->subtree_quota = grp->subtree_quota;
	save->subtree_requested = grp->subtree_requested;
	save->subtree_rr_time = grp->subtree_rr_time;
	grp->accept_surplus = true;
	grp->subtree_quota = grp->quota;
	grp->subtree_requested = grp->requested;
	grp->subtree_rr_time = grp->rr_time;
	return v;
}

static void node_restore(struct ng_group *grp, const struct node_save *save,
			 double requested)
{
	grp->accept_surplus = save->accept;
	grp->subtree_quota = save->subtree_quota;
	grp->subtree_rr_time = save->subtree_rr_time;
	grp->subtree_requested = requested;
}

static double allocate_surplus(ng_groups *g, struct ng_group *grp,
			       double surplus)
{
	if (surplus <= 0)
		return 0;
	if (grp->subtree_requested <= 0)
		return surplus;
	struct node_save save;
	double requested = grp->subtree_requested;
	struct ng_group **v = node_members(grp, &save);
	size_t n = grp->nchild + 1;
	double *alloc = ks_xcalloc(n, sizeof(*alloc));
	double *want = ks_xcalloc(n, sizeof(*want));
	for (size_t j = 0; j < n; j++)
		if (v[j]->accept_surplus && v[j]->subtree_requested > 0)
			want[j] = v[j]->subtree_requested;
	if (surplus >= requested) {
		/* enough for everyone who asks */
		memcpy(alloc, want, n * sizeof(*alloc));
		surplus -= requested;
		requested = 0;
	} else {
		/* groups with quota first, by quota; then the rest equally */
		share_surplus(g, true, v, n, alloc, want, &surplus,
			      &requested);
		share_surplus(g, false, v, n, alloc, want, &surplus,
			      &requested);
		if (surplus > 0)
			LOG(g, KS_D_ALWAYS,
			    "group quotas: allocate-surplus WARNING: nonzero "
			    "surplus %g after allocation", surplus);
	}
	for (size_t j = 0; j + 1 < n; j++)
		if (alloc[j] > 0) {
			double s = allocate_surplus(g, v[j], alloc[j]);
			if (fabs(s) > 0.00001)
				LOG(g, KS_D_ALWAYS,
				    "group quotas: WARNING: allocate-surplus "
				    "(3): surplus= %g", s);
		}
	grp->allocated += alloc[n - 1];
	grp->requested -= alloc[n - 1];
	node_restore(grp, &save, requested);
	free(alloc);
	free(want);
	free(v);
	return surplus;
}

static double fairshare(ng_groups *g, struct ng_group *grp)
{
	grp->allocated = grp->requested < grp->quota ? grp->requested
						     : grp->quota;
	grp->requested -= grp->allocated;
	grp->subtree_requested = grp->requested;
	double surplus = grp->quota - grp->allocated;
	if (grp->nchild == 0)
		return surplus;
	for (size_t i = 0; i < grp->nchild; i++) {
		struct ng_group *c = grp->child[i];
		surplus += fairshare(g, c);
		if (c->accept_surplus)
			grp->subtree_requested += c->subtree_requested;
	}
	return allocate_surplus(g, grp, surplus);
}

static void round_precise(ng_groups *g, double *x)
{
	double ref = *x;
	*x = floor(0.5 + *x);
	if (fabs(*x - ref) > 0.00001)
		LOG(g, KS_D_ALWAYS,
		    "group quotas: WARNING: encountered precision error of %g",
		    fabs(*x - ref));
}

/* Who gets the next whole slot: the longest since it last got one, then
 * the larger quota, then the larger request. */
static int rr_before(const struct ng_group *a, const struct ng_group *b)
{
	if (a->subtree_rr_time != b->subtree_rr_time)
		return a->subtree_rr_time < b->subtree_rr_time ? -1 : 1;
	if (a->subtree_quota != b->subtree_quota)
		return a->subtree_quota > b->subtree_quota ? -1 : 1;
	if (a->subtree_requested != b->subtree_requested)
		return a->subtree_requested > b->subtree_requested ? -1 : 1;
	return 0;
}

static double round_robin(ng_groups *g, struct ng_group *grp, double surplus)
{
	if (grp->subtree_requested != floor(grp->subtree_requested))
		grp->subtree_requested = floor(grp->subtree_requested);
	if (grp->subtree_requested <= 0 || surplus < 1)
		return surplus;
	struct node_save save;
	double requested = grp->subtree_requested;
	struct ng_group **v = node_members(grp, &save);
	size_t n = grp->nchild + 1;
	double *alloc = ks_xcalloc(n, sizeof(*alloc));
	double *want = ks_xcalloc(n, sizeof(*want));
	size_t *idx = ks_xmalloc(n * sizeof(*idx));
	double outstanding = 0;
	for (size_t j = 0; j < n; j++) {
		idx[j] = j;
		if (v[j]->accept_surplus && v[j]->subtree_requested > 0) {
			want[j] = v[j]->subtree_requested;
			outstanding += 1;
		}
	}
	/* a stable insertion sort: n is a node's children */
	for (size_t j = 1; j < n; j++)
		for (size_t k = j; k > 0 && rr_before(v[idx[k]], v[idx[k - 1]]) < 0;
		     k--) {
			size_t t = idx[k];
			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
	while (surplus >= 1 && requested > 0) {
		double amax = floor(surplus / outstanding);
		if (amax < 1)
			amax = 1;
		outstanding = 0;
		double sum = 0;
		for (size_t jj = 0; jj < n; jj++) {
			size_t j = idx[jj];
			if (!(v[j]->accept_surplus && want[j] > 0))
				continue;
			double a = want[j] < amax ? want[j] : amax;
			alloc[j] += a;
			want[j] -= a;
			sum += a;
			surplus -= a;
			requested -= a;
			v[j]->rr = true;
			if (want[j] > 0)
				outstanding += 1;
			if (surplus < amax)
				break;
		}
		if (sum < 1) {
			LOG(g, KS_D_ALWAYS,
			    "group quotas: round-robin (3): WARNING: round "
			    "robin failed to allocate >= 1 slot this round - "
			    "halting");
			break;
		}
	}
	for (size_t j = 0; j + 1 < n; j++)
		if (alloc[j] > 0) {
			double s = round_robin(g, v[j], alloc[j]);
			if (s > 0)
				LOG(g, KS_D_ALWAYS,
				    "group quotas: round-robin (4):  WARNING: "
				    "nonzero surplus %g returned from round "
				    "robin for group %s", s, v[j]->name);
		}
	grp->allocated += alloc[n - 1];
	grp->requested -= alloc[n - 1];
	node_restore(grp, &save, requested);
	free(idx);
	free(alloc);
	free(want);
	free(v);
	return surplus;
}

static double recover_remainders(ng_groups *g, struct ng_group *grp)
{
	double surplus = grp->allocated - floor(grp->allocated);
	grp->allocated -= surplus;
	grp->requested += surplus;
	round_precise(g, &grp->allocated);
	round_precise(g, &grp->requested);
	grp->subtree_requested = grp->requested;
	grp->subtree_rr_time = grp->requested > 0 ? grp->rr_time : DBL_MAX;
	if (grp->nchild == 0)
		return surplus;
	for (size_t i = 0; i < grp->nchild; i++) {
		struct ng_group *c = grp->child[i];
		surplus += recover_remainders(g, c);
		if (c->accept_surplus) {
			grp->subtree_requested += c->subtree_requested;
			if (c->subtree_requested > 0 &&
			    c->subtree_rr_time < grp->subtree_rr_time)
				grp->subtree_rr_time = c->subtree_rr_time;
		}
	}
	return round_robin(g, grp, surplus);
}

double ng_groups_allocate(ng_groups *g, bool whole_slots)
{
	for (size_t i = 0; i < g->n; i++) {
		g->all[i]->allocated = 0;
		g->all[i]->subtree_requested = 0;
		g->all[i]->rr = false;
	}
	double surplus = fairshare(g, g->all[0]);
	if (whole_slots)
		surplus += recover_remainders(g, g->all[0]);
	return surplus;
}
