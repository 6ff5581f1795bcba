/*
 * accountant.h: the negotiator's accountant: per submitter, the usage
 * and priorities that decide who gets the pool, kept in an LMDB store
 * (common/store) so that a restart forgets nothing.
 *
 * A customer is a submitter name as the schedd advertises it
 * ("alice@example.org", "group_physics.alice@example.org",
 * "nice-user.alice@example.org"), or the group "<none>" that every
 * ungrouped submitter's usage also counts for, as in HTCondor.
 *
 * Priorities follow HTCondor's accountant:
 *   - the real priority decays toward the customer's weighted usage:
 *     each update after t seconds, with a = 0.5^(t / PRIORITY_HALFLIFE),
 *     priority = priority * a + usage * (1 - a), never below 0.5;
 *   - accumulated usage grows by usage * t;
 *   - the effective priority is the real priority times the priority
 *     factor: SET_PRIORITYFACTOR's, else NICE_USER_PRIO_FACTOR for
 *     "nice-user." names, REMOTE_PRIO_FACTOR for names outside
 *     ACCOUNTANT_LOCAL_DOMAIN (when set), DEFAULT_PRIO_FACTOR otherwise;
 *     a factor, once given, is kept in the record.
 *
 * Usage is what the pool's slot ads say at each cycle (Claimed and
 * Preempting slots, by their AccountingGroup, else RemoteUser), plus the
 * matches the cycle makes.  Times are passed in (seconds since the
 * epoch) so that tests can drive the clock.
 *
 * The administrator's commands, ng_acct_update() and ng_acct_save()
 * write before they return; a store error is returned with err filled
 * and the in-memory state keeps the change.  What a cycle changes as it
 * goes (usage, records made by asking for a priority) is written by
 * the next of those.
 */
#ifndef NG_ACCOUNTANT_H
#define NG_ACCOUNTANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "groups.h"
#include "ks_err.h"

#define NG_MIN_PRIORITY 0.5
#define NG_MIN_PRIORITY_FACTOR 1.0
#define NG_NONE_GROUP "<none>"

typedef struct ng_acct ng_acct;

struct ng_acct_params {
	double halflife;       /* PRIORITY_HALFLIFE, seconds (> 0) */
	double default_factor; /* DEFAULT_PRIO_FACTOR */
	double nice_factor;    /* NICE_USER_PRIO_FACTOR */
	double remote_factor;  /* REMOTE_PRIO_FACTOR */
	const char *local_domain; /* ACCOUNTANT_LOCAL_DOMAIN; NULL or "":
				   * every submitter is local (copied) */
};

/* One customer's record. */
struct ng_customer {
	char *name;
	bool is_group;
	double priority;            /* real priority */
	double factor;              /* priority factor (0 before first use) */
	int64_t resources_used;     /* slots in use */
	double weighted_used;       /* their SlotWeight */
	double accumulated;         /* slot-seconds used */
	double weighted_accumulated;
	int64_t begin_usage_time;
	int64_t last_usage_time;
	double share;               /* this cycle's fair share (not stored) */
	double limit;               /* ... and limit, in slot weight */
};

/* Opens the accountant kept in the store file path (created if absent),
 * and adds the "<none>" group.  Returns 0 and *out (ng_acct_close()), or
 * a KS_E* code with err saying which file and why. */
int ng_acct_open(const char *path, const struct ng_acct_params *p,
		 ng_acct **out, struct ks_err *err);
void ng_acct_close(ng_acct *a);

/* New knob values (reconfig). */
void ng_acct_set_params(ng_acct *a, const struct ng_acct_params *p);

/* The time of the last priority update (0: never). */
int64_t ng_acct_last_update(const ng_acct *a);

/* Decays every priority and charges usage for the time since the last
 * update (HTCondor's UpdatePriorities).  A clock that went backwards
 * only moves the update time. */
int ng_acct_update(ng_acct *a, int64_t now, struct ks_err *err);

/* Recomputes usage from the pool: ng_acct_usage_begin() zeroes every
 * customer's usage, then ng_acct_add_usage() counts each claimed slot of
 * weight w for name (and, for a submitter, for "<none>" too).  A match
 * the cycle makes is added the same way, as HTCondor's AddMatch does, so
 * that later spins of the pie see it.  ng_acct_save() stores it all. */
void ng_acct_usage_begin(ng_acct *a);
/* The accounting groups (groups.h; borrowed, NULL: none): a submitter's
 * usage then counts for its group rather than "<none>", its default
 * factor is its group's GROUP_PRIO_FACTOR_<group>, and GET_PRIORITY
 * reports the declared groups with their quotas. */
void ng_acct_set_groups(ng_acct *a, const ng_groups *g);
/* The group name counts for ("<none>" without groups).  Borrowed. */
const char *ng_acct_group_of(const ng_acct *a, const char *name);
void ng_acct_add_usage(ng_acct *a, const char *name, double w);
int ng_acct_save(ng_acct *a, struct ks_err *err);

/* The effective priority (real priority times factor).  As in
 * HTCondor, asking creates the record with its factor. */
double ng_acct_priority(ng_acct *a, const char *name);
double ng_acct_factor(ng_acct *a, const char *name);
double ng_acct_weighted_used(ng_acct *a, const char *name);

/* The record of name, or NULL.  Borrowed: valid until the next call
 * that adds or deletes a customer. */
const struct ng_customer *ng_acct_find(const ng_acct *a, const char *name);

/* Records the fair share and limit a cycle computed (reported by
 * GET_PRIORITY as SubmitterShare and SubmitterLimit). */
void ng_acct_set_share(ng_acct *a, const char *name, double share,
		       double limit);

/* The administrator's commands.  A factor below 1 is raised to 1, as
 * HTCondor does.  ng_acct_reset_usage() with name NULL resets every
 * customer.  Deleting an unknown name is not an error. */
int ng_acct_set_factor(ng_acct *a, const char *name, double factor,
		       struct ks_err *err);
int ng_acct_set_priority(ng_acct *a, const char *name, double prio,
			 struct ks_err *err);
int ng_acct_reset_usage(ng_acct *a, const char *name, int64_t now,
			struct ks_err *err);
int ng_acct_delete(ng_acct *a, const char *name, struct ks_err *err);

/* Customers in name order: ng_acct_count() of them.  Borrowed. */
size_t ng_acct_count(const ng_acct *a);
const struct ng_customer *ng_acct_at(const ng_acct *a, size_t i);

/* The ad GET_PRIORITY answers, as HTCondor's ReportState makes it:
 * LastUpdate, NumSubmittors, and for each customer i (from 1, the
 * "<none>" group first) Name<i>, Priority<i> (effective),
 * PriorityFactor<i>, ResourcesUsed<i>, WeightedResourcesUsed<i>,
 * AccumulatedUsage<i>, WeightedAccumulatedUsage<i>, BeginUsageTime<i>,
 * LastUsageTime<i>, IsAccountingGroup<i>, AccountingGroup<i>,
 * Ceiling<i>, Floor<i>, SubmitterShare<i>, SubmitterLimit<i> (and the
 * group's quota attributes: EffectiveQuota<i>, ConfigQuota<i>,
 * SubtreeQuota<i>, GroupSortKey<i>, SurplusPolicy<i>, Requested<i>,
 * HierWeightedResourcesUsed<i>).  New ad (classad_free()). */
classad *ng_acct_report(ng_acct *a);
/* The same; with rollup (GET_PRIORITY_ROLLUP) each group's usage
 * figures include its subgroups' and its priority is 0. */
classad *ng_acct_report_rollup(ng_acct *a, bool rollup);

/* One customer's accounting ad for the collector (UPDATE_ACCOUNTING_AD):
 * the record without index, MyType "Accounting", Name, Priority
 * (effective), LastUpdate, NegotiatorName.  New ad. */
classad *ng_acct_ad(ng_acct *a, const struct ng_customer *c,
		    const char *negotiator);

#endif
