/*
 * groups.h: accounting groups with quotas (hierarchical group quotas),
 * as HTCondor 25's negotiator has them.
 *
 * GROUP_NAMES declares the groups ("group_physics, group_physics.hep");
 * a name with dots is a subgroup of the group before its last dot, which
 * must be declared too.  The root of the tree is "<none>", the pool.
 * Each group's quota is GROUP_QUOTA_<g> (static: slot weight) or else
 * GROUP_QUOTA_DYNAMIC_<g> (a fraction of the parent's quota), else 0.
 * A submitter "group_physics.hep.alice@domain" belongs to the longest
 * declared prefix of "group_physics.hep" (its name before the last dot
 * of the part before '@'); a submitter with no group, or whose groups
 * are not declared, belongs to "<none>".
 *
 * At each cycle the pool's slot weight is handed down the tree as
 * quotas (static quotas first, the rest to the dynamic ones), then each
 * group is allocated what it asks for (its submitters' running and idle
 * jobs) up to its quota; what a group does not use is surplus, which
 * GROUP_ACCEPT_SURPLUS[_<g>] groups share, by quota, with their parent
 * and siblings, up the tree to the root.  The groups are then
 * negotiated with one by one in GROUP_SORT_EXPR order (lowest first),
 * each up to its allocation.  GROUP_AUTOREGROUP[_<g>] groups' submitters
 * also negotiate, last, with the "<none>" group over the whole pool.
 *
 * Nothing here talks to schedds: the cycle passes a callback that
 * negotiates with one group's submitters (ng_groups_negotiate()).
 */
#ifndef NG_GROUPS_H
#define NG_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_log.h"

struct ng_group {
	char *name;            /* "group_physics.hep"; the root "<none>" */
	struct ng_group *parent;
	struct ng_group **child;
	size_t nchild;
	/* configuration */
	double config_quota;   /* GROUP_QUOTA_ or GROUP_QUOTA_DYNAMIC_ */
	bool static_quota;
	bool accept_surplus;   /* GROUP_ACCEPT_SURPLUS[_<g>] */
	bool autoregroup;      /* GROUP_AUTOREGROUP[_<g>] */
	double prio_factor;    /* GROUP_PRIO_FACTOR_<g>; 0: none */
	bool sort_warned;      /* GROUP_SORT_EXPR failed for it (logged) */
	/* the cycle's figures */
	double usage;          /* weighted slots its submitters hold */
	double requested;      /* what is not allocated of what they ask */
	double currently_requested; /* what they ask (running + idle) */
	double quota;          /* its own quota, from the tree */
	double subtree_quota;  /* its quota and its subgroups' */
	double allocated;      /* what it may use this round */
	double subtree_requested, subtree_usage;
	double rr_time, subtree_rr_time; /* last round-robin share */
	bool rr;
	double sort_key;       /* GROUP_SORT_EXPR's value */
	size_t nsubmitters;    /* submitters negotiating in it */
};

typedef struct ng_groups ng_groups;

/* The groups the configuration declares (GROUP_NAMES and the knobs
 * above), always with the root.  What is wrong (a group whose parent is
 * not declared, a quota or GROUP_SORT_EXPR that does not parse) is
 * logged here, once, and the group left out or the value defaulted as
 * HTCondor does: a missing or bad quota is 0, a bad GROUP_SORT_EXPR is
 * replaced by the default.  log may be NULL (standard error).  Never
 * fails; ng_groups_free(). */
ng_groups *ng_groups_new(const ks_config *cfg, ks_log *log);
void ng_groups_free(ng_groups *g);

/* Whether any group is declared: with only the root, negotiation is
 * HTCondor's traditional one over all submitters. */
bool ng_groups_enabled(const ng_groups *g);

/* The groups breadth first, [0] the root.  Borrowed. */
size_t ng_groups_count(const ng_groups *g);
struct ng_group *ng_groups_at(const ng_groups *g, size_t i);
struct ng_group *ng_groups_find(const ng_groups *g, const char *name);

/* The group a customer counts for: for a submitter (a name with '@')
 * the longest declared prefix of its group part, else the root; a group
 * name (no '@') is its own group when declared, else the root.
 * Borrowed. */
struct ng_group *ng_groups_assign(const ng_groups *g, const char *customer);

/* Starts a cycle: zeroes every group's figures. */
void ng_groups_begin(ng_groups *g);

/* Hands out total (the pool's slot weight) as quotas down the tree,
 * after requested and usage were filled in.  Logs the quota table
 * ("group quota: Quotas have been assigned to the following groups"). */
void ng_groups_assign_quotas(ng_groups *g, double total);

/* One allocation round: each group gets what it asks for up to its
 * quota, then the surplus goes to groups that accept it; with
 * whole_slots (no slot weights) fractions are gathered and handed out
 * round robin (to the group that got one least recently first).
 * Returns the surplus nobody took. */
double ng_groups_allocate(ng_groups *g, bool whole_slots);

/* The usage of a group, read by the negotiation (the accountant's). */
typedef double (*ng_group_usage_fn)(void *arg, const char *group);
/* Negotiates with group grp (NULL for the root in autoregroup mode:
 * every submitter without a group limit) up to limit weight. */
typedef void (*ng_group_negotiate_fn)(void *arg, struct ng_group *grp,
				      double limit);

struct ng_groups_opts {
	double total;             /* the pool's slot weight */
	bool whole_slots;         /* no slot weights: whole slots */
	bool consider_preemption; /* NEGOTIATOR_CONSIDER_PREEMPTION */
	bool strict_quota;        /* NEGOTIATOR_STRICT_ENFORCE_QUOTA */
	int max_rounds;           /* GROUP_QUOTA_MAX_ALLOCATION_ROUNDS */
	double rr_rate;           /* GROUP_QUOTA_ROUND_ROBIN_RATE */
	int64_t now;
};

/* HTCondor's allocation rounds: allocate, order the groups by
 * GROUP_SORT_EXPR, negotiate with each (fn) up to its allocation; when
 * some group did not get all it was allocated, its request is cut to
 * what it got and the next round hands the rest to others.  Usage is
 * read through usage_fn after each negotiation.  The quotas must have
 * been assigned (ng_groups_assign_quotas()). */
void ng_groups_negotiate(ng_groups *g, const struct ng_groups_opts *o,
			 ng_group_usage_fn usage_fn,
			 ng_group_negotiate_fn fn, void *arg);

/* The quota a group's negotiation stops at (for SubmitterGroupQuota
 * and RemoteGroupQuota): the last round's quota. */
double ng_groups_quota(const struct ng_group *grp);

/* Whether autoregroup is on for some group (the root's flag). */
bool ng_groups_autoregroup(const ng_groups *g);

/* The surplus policy HTCondor reports: "regroup", "byquota" or "no". */
const char *ng_group_surplus_policy(const struct ng_group *grp);

#endif
