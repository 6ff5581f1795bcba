/* Unit tests of accounting groups with quotas (groups.h): the tree from
 * GROUP_NAMES, which group a submitter counts for, static and dynamic
 * quotas, surplus across and down the tree, whole-slot remainders,
 * autoregroup, and bad knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "groups.h"

static ks_config *conf(const char *const *kv)
{
	ks_config *cfg = ks_config_new("NEGOTIATOR", NULL);
	for (size_t i = 0; kv[i]; i += 2)
		ks_config_set(cfg, kv[i], kv[i + 1], NULL);
	return cfg;
}

static struct ng_group *grp(ng_groups *g, const char *name)
{
	struct ng_group *x = ng_groups_find(g, name);
	assert_non_null(x);
	return x;
}

/* what each group's submitters ask for, then the quotas and one round */
static void demand(ng_groups *g, const char *name, double want)
{
	struct ng_group *x = grp(g, name);
	x->requested = x->currently_requested = want;
	x->nsubmitters = 1;
}

static void test_tree_and_assign(void **state)
{
	(void)state;
	const char *kv[] = {"GROUP_NAMES",
			    "group_physics.hep, group_physics, group_chem, "
			    "group_x.y, <none>",
			    NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	assert_true(ng_groups_enabled(g));
	/* breadth first: the root, its children in name order, then the
	 * grandchildren; group_x.y has no declared parent: left out */
	assert_int_equal(ng_groups_count(g), 4);
	assert_string_equal(ng_groups_at(g, 0)->name, "<none>");
	assert_string_equal(ng_groups_at(g, 1)->name, "group_chem");
	assert_string_equal(ng_groups_at(g, 2)->name, "group_physics");
	assert_string_equal(ng_groups_at(g, 3)->name, "group_physics.hep");
	assert_null(ng_groups_find(g, "group_x.y"));

	assert_string_equal(
		ng_groups_assign(g, "group_physics.hep.alice@d")->name,
		"group_physics.hep");
	/* the longest declared prefix */
	assert_string_equal(
		ng_groups_assign(g, "group_physics.other.bob@d")->name,
		"group_physics");
	assert_string_equal(ng_groups_assign(g, "GROUP_PHYSICS.carol@d")->name,
			    "group_physics");
	assert_string_equal(ng_groups_assign(g, "group_x.bob@d")->name,
			    "<none>");
	assert_string_equal(ng_groups_assign(g, "alice@d")->name, "<none>");
	assert_string_equal(ng_groups_assign(g, "group_chem")->name,
			    "group_chem");
	assert_string_equal(ng_groups_assign(g, "group_gone")->name, "<none>");
	ng_groups_free(g);
	ks_config_free(cfg);

	/* no GROUP_NAMES: only the root */
	const char *none[] = {NULL};
	cfg = conf(none);
	g = ng_groups_new(cfg, NULL);
	assert_false(ng_groups_enabled(g));
	assert_string_equal(ng_groups_assign(g, "group_a.u@d")->name, "<none>");
	ng_groups_free(g);
	ks_config_free(cfg);
}

/* The example: four slots, quotas 1 and 3, no surplus. */
static void test_static(void **state)
{
	(void)state;
	const char *kv[] = {"GROUP_NAMES", "group_a, group_b",
			    "GROUP_QUOTA_group_a", "1",
			    "GROUP_QUOTA_group_b", "3", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	demand(g, "group_a", 10);
	demand(g, "group_b", 10);
	ng_groups_assign_quotas(g, 4);
	assert_float_equal(grp(g, "group_a")->quota, 1, 1e-9);
	assert_float_equal(grp(g, "group_b")->quota, 3, 1e-9);
	assert_float_equal(grp(g, "<none>")->quota, 0, 1e-9);
	double surplus = ng_groups_allocate(g, true);
	assert_float_equal(surplus, 0, 1e-9);
	assert_float_equal(grp(g, "group_a")->allocated, 1, 1e-9);
	assert_float_equal(grp(g, "group_b")->allocated, 3, 1e-9);
	assert_string_equal(ng_group_surplus_policy(grp(g, "group_a")), "no");
	ng_groups_free(g);
	ks_config_free(cfg);
}

static void test_dynamic_and_tree(void **state)
{
	(void)state;
	const char *kv[] = {"GROUP_NAMES",
			    "group_physics, group_physics.hep, "
			    "group_physics.th, group_chem",
			    "GROUP_QUOTA_group_physics", "10",
			    "GROUP_QUOTA_DYNAMIC_group_physics.hep", "0.5",
			    "GROUP_QUOTA_DYNAMIC_group_physics.th", "0.5",
			    "GROUP_QUOTA_group_chem", "5", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	ng_groups_assign_quotas(g, 20);
	assert_float_equal(grp(g, "group_chem")->quota, 5, 1e-9);
	assert_float_equal(grp(g, "group_physics.hep")->quota, 5, 1e-9);
	assert_float_equal(grp(g, "group_physics.th")->quota, 5, 1e-9);
	assert_float_equal(grp(g, "group_physics")->subtree_quota, 10, 1e-9);
	/* HTCondor's default NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION: an
	 * inner group keeps its whole quota; the root has what is left */
	assert_float_equal(grp(g, "group_physics")->quota, 10, 1e-9);
	assert_float_equal(grp(g, "<none>")->quota, 5, 1e-9);
	ng_groups_free(g);
	/* without oversubscription a group's own quota is what its
	 * subgroups leave, and static quotas past the parent's shrink */
	ks_config_set(cfg, "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION", "false",
		      NULL);
	ks_config_set(cfg, "GROUP_QUOTA_group_chem", "15", NULL);
	g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	ng_groups_assign_quotas(g, 20);
	assert_float_equal(grp(g, "group_physics")->quota, 0, 1e-9);
	assert_float_equal(grp(g, "group_physics")->subtree_quota, 8, 1e-9);
	assert_float_equal(grp(g, "group_chem")->quota, 12, 1e-9);
	assert_float_equal(grp(g, "<none>")->quota, 0, 1e-9);
	ng_groups_free(g);
	ks_config_free(cfg);

	/* dynamic quotas over 1 in all are scaled to the parent's */
	const char *kv2[] = {"GROUP_NAMES", "a, b",
			     "GROUP_QUOTA_DYNAMIC_a", "0.6",
			     "GROUP_QUOTA_DYNAMIC_b", "0.4", NULL};
	cfg = conf(kv2);
	g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	demand(g, "a", 100);
	demand(g, "b", 100);
	ng_groups_assign_quotas(g, 10);
	ng_groups_allocate(g, true);
	assert_float_equal(grp(g, "a")->allocated, 6, 1e-9);
	assert_float_equal(grp(g, "b")->allocated, 4, 1e-9);
	ng_groups_free(g);
	ks_config_free(cfg);
}

static void test_surplus_across(void **state)
{
	(void)state;
	for (int accept = 0; accept < 2; accept++) {
		const char *kv[] = {"GROUP_NAMES", "group_a, group_b",
				    "GROUP_QUOTA_group_a", "5",
				    "GROUP_QUOTA_group_b", "5",
				    "GROUP_ACCEPT_SURPLUS",
				    accept ? "true" : "false", NULL};
		ks_config *cfg = conf(kv);
		ng_groups *g = ng_groups_new(cfg, NULL);
		ng_groups_begin(g);
		demand(g, "group_a", 8);
		demand(g, "group_b", 2);
		ng_groups_assign_quotas(g, 10);
		double surplus = ng_groups_allocate(g, true);
		/* b leaves 3 of its 5; a takes them only when it accepts
		 * surplus */
		assert_float_equal(grp(g, "group_a")->allocated,
				   accept ? 8 : 5, 1e-9);
		assert_float_equal(grp(g, "group_b")->allocated, 2, 1e-9);
		assert_float_equal(surplus, accept ? 0 : 3, 1e-9);
		assert_string_equal(ng_group_surplus_policy(grp(g, "group_a")),
				    accept ? "byquota" : "no");
		ng_groups_free(g);
		ks_config_free(cfg);
	}
}

static void test_surplus_down(void **state)
{
	(void)state;
	/* p.y leaves most of its quota: its sibling p.x, which accepts
	 * surplus, gets it at p */
	const char *kv[] = {"GROUP_NAMES", "p, p.x, p.y",
			    "GROUP_QUOTA_p", "10",
			    "GROUP_QUOTA_p.x", "2",
			    "GROUP_QUOTA_p.y", "8",
			    "GROUP_ACCEPT_SURPLUS_p.x", "true", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	demand(g, "p.x", 6);
	demand(g, "p.y", 1);
	ng_groups_assign_quotas(g, 10);
	ng_groups_allocate(g, true);
	assert_float_equal(grp(g, "p.x")->allocated, 6, 1e-9);
	assert_float_equal(grp(g, "p.y")->allocated, 1, 1e-9);
	assert_float_equal(grp(g, "p")->allocated, 0, 1e-9);
	ng_groups_free(g);
	ks_config_free(cfg);
}

static void test_remainders(void **state)
{
	(void)state;
	/* 1.5 and 1.5 of three whole slots: the odd slot goes round robin,
	 * to the first group, when they accept surplus */
	const char *kv[] = {"GROUP_NAMES", "a, b",
			    "GROUP_QUOTA_DYNAMIC_a", "0.5",
			    "GROUP_QUOTA_DYNAMIC_b", "0.5",
			    "GROUP_ACCEPT_SURPLUS", "true", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	demand(g, "a", 10);
	demand(g, "b", 10);
	ng_groups_assign_quotas(g, 3);
	ng_groups_allocate(g, true);
	assert_float_equal(grp(g, "a")->allocated, 2, 1e-9);
	assert_float_equal(grp(g, "b")->allocated, 1, 1e-9);
	/* weighted slots: fractions stay */
	ng_groups_allocate(g, false);
	assert_float_equal(grp(g, "a")->allocated, 1.5, 1e-9);
	ng_groups_free(g);
	ks_config_free(cfg);
}

/* A stand-in negotiation: each group takes what its limit allows, up
 * to what it asks for; regrouped submitters in the root take the pool. */
struct sim {
	double used_a;
	char calls[8][32];
	double limit[8];
	int n;
};

static double sim_usage(void *arg, const char *group)
{
	struct sim *s = arg;
	return strcmp(group, "group_a") == 0 ? s->used_a : 0;
}

static void sim_negotiate(void *arg, struct ng_group *grp, double limit)
{
	struct sim *s = arg;
	if (s->n < 8) {
		snprintf(s->calls[s->n], sizeof(s->calls[0]), "%s",
			 grp ? grp->name : "(all)");
		s->limit[s->n] = limit;
		s->n++;
	}
	if (limit > s->used_a)
		s->used_a = limit;
}

static void test_autoregroup(void **state)
{
	(void)state;
	const char *kv[] = {"GROUP_NAMES", "group_a",
			    "GROUP_QUOTA_group_a", "1",
			    "GROUP_AUTOREGROUP_group_a", "true", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	assert_true(ng_groups_autoregroup(g));
	assert_string_equal(ng_group_surplus_policy(grp(g, "group_a")),
			    "regroup");
	ng_groups_begin(g);
	demand(g, "group_a", 10);
	grp(g, "<none>")->nsubmitters = 1; /* group_a's, regrouped */
	ng_groups_assign_quotas(g, 4);
	struct sim s = {0};
	struct ng_groups_opts o = {.total = 4, .whole_slots = true,
				   .consider_preemption = true,
				   .strict_quota = true, .max_rounds = 3};
	ng_groups_negotiate(g, &o, sim_usage, sim_negotiate, &s);
	/* first the group up to its quota, then everyone over the pool */
	assert_true(s.n >= 2);
	assert_string_equal(s.calls[0], "group_a");
	assert_float_equal(s.limit[0], 1, 1e-9);
	assert_string_equal(s.calls[1], "(all)");
	assert_float_equal(s.limit[1], 4, 1e-9);
	assert_float_equal(s.used_a, 4, 1e-9);
	ng_groups_free(g);
	ks_config_free(cfg);
}

/* Order: by GROUP_SORT_EXPR, the fullest group last, the root last. */
static double order_usage(void *arg, const char *group)
{
	(void)arg;
	return strcmp(group, "group_a") == 0 ? 1 : 0;
}

static void record(void *arg, struct ng_group *grp, double limit)
{
	struct sim *s = arg;
	(void)limit;
	if (s->n < 8)
		snprintf(s->calls[s->n++], sizeof(s->calls[0]), "%s",
			 grp ? grp->name : "(all)");
}

static void test_order_and_bad_knobs(void **state)
{
	(void)state;
	const char *kv[] = {"GROUP_NAMES", "group_a, group_b, group_c",
			    "GROUP_QUOTA_group_a", "2",
			    "GROUP_QUOTA_group_b", "2",
			    "GROUP_QUOTA_group_c", "lots",
			    "GROUP_QUOTA_DYNAMIC_group_c", "2",
			    "GROUP_SORT_EXPR", "((", NULL};
	ks_config *cfg = conf(kv);
	ng_groups *g = ng_groups_new(cfg, NULL);
	/* a quota that is no number is no static quota; a dynamic one
	 * past 1 is 1 */
	assert_false(grp(g, "group_c")->static_quota);
	assert_float_equal(grp(g, "group_c")->config_quota, 1, 1e-9);
	ng_groups_begin(g);
	demand(g, "group_a", 5);
	demand(g, "group_b", 5);
	demand(g, "<none>", 5);
	grp(g, "group_a")->usage = 1;
	ng_groups_assign_quotas(g, 10);
	struct sim s = {0};
	struct ng_groups_opts o = {.total = 10, .whole_slots = true,
				   .consider_preemption = true,
				   .max_rounds = 1};
	ng_groups_negotiate(g, &o, order_usage, record, &s);
	/* the default order (the bad GROUP_SORT_EXPR is replaced): b
	 * (0 of 2 used) before a (1 of 2), the root last; c asks nothing */
	assert_int_equal(s.n, 3);
	assert_string_equal(s.calls[0], "group_b");
	assert_string_equal(s.calls[1], "group_a");
	assert_string_equal(s.calls[2], "<none>");
	ng_groups_free(g);
	ks_config_free(cfg);

	/* an expression that evaluates to no number: last, as HTCondor */
	const char *kv2[] = {"GROUP_NAMES", "group_a, group_b",
			     "GROUP_QUOTA_group_a", "2",
			     "GROUP_QUOTA_group_b", "2",
			     "GROUP_SORT_EXPR",
			     "ifThenElse(AccountingGroup == \"group_a\", "
			     "\"x\", 1)", NULL};
	cfg = conf(kv2);
	g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	demand(g, "group_a", 5);
	demand(g, "group_b", 5);
	ng_groups_assign_quotas(g, 4);
	struct sim s2 = {0};
	ng_groups_negotiate(g, &o, order_usage, record, &s2);
	assert_int_equal(s2.n, 2);
	assert_string_equal(s2.calls[0], "group_b");
	assert_string_equal(s2.calls[1], "group_a");
	assert_true(grp(g, "group_a")->sort_warned);
	ng_groups_free(g);
	ks_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_and_assign),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_dynamic_and_tree),
		cmocka_unit_test(test_surplus_across),
		cmocka_unit_test(test_surplus_down),
		cmocka_unit_test(test_remainders),
		cmocka_unit_test(test_autoregroup),
		cmocka_unit_test(test_order_and_bad_knobs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
