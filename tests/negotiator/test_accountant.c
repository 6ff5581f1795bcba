/* Unit tests of the negotiator's accountant: priorities decaying with
 * the half-life, priority factors, effective priorities, the
 * GET_PRIORITY report, and what survives closing and reopening. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "accountant.h"

static char *tmp_path(void)
{
	char *p = strdup("/tmp/ng_acct_testXXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

static void cleanup(char *p)
{
	char lock[300];
	snprintf(lock, sizeof(lock), "%s-lock", p);
	unlink(p);
	unlink(lock);
	free(p);
}

static const struct ng_acct_params params = {
	.halflife = 100,
	.default_factor = 1000,
	.nice_factor = 1e10,
	.remote_factor = 1e7,
	.local_domain = NULL,
};

static ng_acct *open_at(const char *path, const struct ng_acct_params *p)
{
	ng_acct *a = NULL;
	struct ks_err err = {0};
	assert_int_equal(ng_acct_open(path, p, &a, &err), 0);
	return a;
}

static void test_decay(void **state)
{
	(void)state;
	char *path = tmp_path();
	ng_acct *a = open_at(path, &params);
	/* the first update only sets the clock */
	assert_int_equal(ng_acct_update(a, 1000, NULL), 0);
	assert_int_equal(ng_acct_last_update(a), 1000);
	ng_acct_usage_begin(a);
	ng_acct_add_usage(a, "alice@example.org", 4);
	/* one half-life: halfway from 0.5 to 4 */
	assert_int_equal(ng_acct_update(a, 1100, NULL), 0);
	const struct ng_customer *c = ng_acct_find(a, "alice@example.org");
	assert_non_null(c);
	assert_float_equal(c->priority, 0.5 * 0.5 + 4 * 0.5, 1e-9);
	assert_float_equal(c->accumulated, 100, 1e-9);
	assert_float_equal(c->weighted_accumulated, 400, 1e-9);
	assert_int_equal(c->begin_usage_time, 1100);
	assert_int_equal(c->last_usage_time, 1100);
	assert_float_equal(ng_acct_priority(a, "alice@example.org"),
			   2.25 * 1000, 1e-6);
	/* the usage goes on: another half-life */
	assert_int_equal(ng_acct_update(a, 1200, NULL), 0);
	c = ng_acct_find(a, "alice@example.org");
	assert_float_equal(c->priority, 2.25 * 0.5 + 2, 1e-9);
	/* a quarter half-life: 2^-0.25 */
	assert_int_equal(ng_acct_update(a, 1225, NULL), 0);
	c = ng_acct_find(a, "alice@example.org");
	double f = 0.8408964152537145;
	assert_float_equal(c->priority, 3.125 * f + 4 * (1 - f), 1e-9);
	double p = c->priority;
	/* the jobs end: the priority decays toward nothing, but never
	 * below 0.5 */
	ng_acct_usage_begin(a);
	assert_int_equal(ng_acct_update(a, 1325, NULL), 0);
	c = ng_acct_find(a, "alice@example.org");
	assert_float_equal(c->priority, p * 0.5, 1e-9);
	assert_int_equal(c->last_usage_time, 1225);
	assert_int_equal(ng_acct_update(a, 100000, NULL), 0);
	c = ng_acct_find(a, "alice@example.org");
	assert_float_equal(c->priority, NG_MIN_PRIORITY, 1e-12);
	/* the group every submitter counts in got the usage too */
	c = ng_acct_find(a, NG_NONE_GROUP);
	assert_non_null(c);
	assert_true(c->is_group);
	assert_float_equal(c->weighted_accumulated, 4 * 225.0, 1e-9);
	/* a clock set back only moves the mark */
	assert_int_equal(ng_acct_update(a, 50000, NULL), 0);
	assert_int_equal(ng_acct_last_update(a), 50000);
	ng_acct_close(a);
	cleanup(path);
}

static void test_factors(void **state)
{
	(void)state;
	char *path = tmp_path();
	struct ng_acct_params p = params;
	p.local_domain = "example.org";
	ng_acct *a = open_at(path, &p);
	/* a new submitter: priority 0.5 times its factor */
	assert_float_equal(ng_acct_priority(a, "alice@example.org"), 500,
			   1e-9);
	assert_float_equal(ng_acct_factor(a, "alice@example.org"), 1000,
			   1e-9);
	assert_float_equal(ng_acct_factor(a, "nice-user.alice@example.org"),
			   1e10, 1);
	assert_float_equal(ng_acct_factor(a, "bob@elsewhere.org"), 1e7, 1e-3);
	assert_float_equal(ng_acct_factor(a, "group_physics.carol@example.org"),
			   1000, 1e-9);
	/* a factor once given stays when the default changes */
	p.default_factor = 10;
	ng_acct_set_params(a, &p);
	assert_float_equal(ng_acct_factor(a, "alice@example.org"), 1000,
			   1e-9);
	assert_float_equal(ng_acct_factor(a, "dave@example.org"), 10, 1e-9);
	/* SET_PRIORITYFACTOR, never below 1 */
	assert_int_equal(ng_acct_set_factor(a, "alice@example.org", 3000,
					    NULL), 0);
	assert_float_equal(ng_acct_priority(a, "alice@example.org"), 1500,
			   1e-9);
	assert_int_equal(ng_acct_set_factor(a, "alice@example.org", 0.25,
					    NULL), 0);
	assert_float_equal(ng_acct_factor(a, "alice@example.org"), 1, 1e-12);
	/* SET_PRIORITY sets the real priority */
	assert_int_equal(ng_acct_set_priority(a, "alice@example.org", 10,
					      NULL), 0);
	assert_float_equal(ng_acct_priority(a, "alice@example.org"), 10,
			   1e-12);
	/* without ACCOUNTANT_LOCAL_DOMAIN every submitter is local */
	p.local_domain = NULL;
	p.default_factor = 1000;
	ng_acct_set_params(a, &p);
	assert_float_equal(ng_acct_factor(a, "erin@far.away"), 1000, 1e-9);
	ng_acct_close(a);
	cleanup(path);
}

static double real_attr(const classad *ad, const char *name)
{
	double v = -12345;
	assert_true(classad_eval_real(ad, name, NULL, &v));
	return v;
}

static void test_report(void **state)
{
	(void)state;
	char *path = tmp_path();
	ng_acct *a = open_at(path, &params);
	ng_acct_update(a, 1000, NULL);
	ng_acct_usage_begin(a);
	ng_acct_add_usage(a, "bob@example.org", 2);
	ng_acct_add_usage(a, "bob@example.org", 1);
	ng_acct_priority(a, "alice@example.org");
	ng_acct_update(a, 1100, NULL);
	classad *ad = ng_acct_report(a);
	int64_t n = 0;
	assert_true(classad_eval_int(ad, "NumSubmittors", NULL, &n));
	assert_int_equal(n, 3);
	assert_float_equal(real_attr(ad, "LastUpdate"), 1100, 0);
	char *s = NULL;
	/* the group first, then the submitters */
	assert_true(classad_eval_string(ad, "Name1", NULL, &s));
	assert_string_equal(s, "<none>");
	free(s);
	bool b = false;
	assert_true(classad_eval_bool(ad, "IsAccountingGroup1", NULL, &b));
	assert_true(b);
	assert_true(classad_eval_string(ad, "Name2", NULL, &s));
	assert_string_equal(s, "alice@example.org");
	free(s);
	assert_true(classad_eval_string(ad, "Name3", NULL, &s));
	assert_string_equal(s, "bob@example.org");
	free(s);
	assert_true(classad_eval_string(ad, "AccountingGroup3", NULL, &s));
	assert_string_equal(s, "<none>");
	free(s);
	assert_float_equal(real_attr(ad, "Priority2"), 500, 1e-9);
	assert_float_equal(real_attr(ad, "PriorityFactor3"), 1000, 1e-9);
	assert_float_equal(real_attr(ad, "Priority3"),
			   (0.25 + 3 * 0.5) * 1000, 1e-6);
	assert_float_equal(real_attr(ad, "ResourcesUsed3"), 2, 0);
	assert_float_equal(real_attr(ad, "WeightedResourcesUsed3"), 3, 1e-12);
	assert_float_equal(real_attr(ad, "AccumulatedUsage3"), 200, 1e-9);
	assert_float_equal(real_attr(ad, "WeightedAccumulatedUsage3"), 300,
			   1e-9);
	assert_float_equal(real_attr(ad, "BeginUsageTime3"), 1100, 0);
	assert_float_equal(real_attr(ad, "LastUsageTime3"), 1100, 0);
	assert_float_equal(real_attr(ad, "LastUsageTime2"), 0, 0);
	assert_float_equal(real_attr(ad, "Ceiling3"), -1, 0);
	assert_float_equal(real_attr(ad, "Floor3"), 0, 0);
	assert_float_equal(real_attr(ad, "ResourcesUsed1"), 2, 0);
	classad_free(ad);
	/* an accounting ad for the collector */
	ad = ng_acct_ad(a, ng_acct_find(a, "bob@example.org"), "neg@host");
	assert_true(classad_eval_string(ad, "MyType", NULL, &s));
	assert_string_equal(s, "Accounting");
	free(s);
	assert_float_equal(real_attr(ad, "WeightedResourcesUsed"), 3, 1e-12);
	classad_free(ad);
	ng_acct_close(a);
	cleanup(path);
}

/* With groups: usage counts for the submitter's group, a group's factor
 * is GROUP_PRIO_FACTOR_<group>, and GET_PRIORITY reports the declared
 * groups first (breadth first) with their quotas, rolled up on
 * request. */
static void test_groups(void **state)
{
	(void)state;
	ks_config *cfg = ks_config_new("NEGOTIATOR", NULL);
	ks_config_set(cfg, "GROUP_NAMES", "group_p, group_p.hep", NULL);
	ks_config_set(cfg, "GROUP_QUOTA_group_p", "4", NULL);
	ks_config_set(cfg, "GROUP_QUOTA_DYNAMIC_group_p.hep", "0.5", NULL);
	ks_config_set(cfg, "GROUP_PRIO_FACTOR_group_p.hep", "50", NULL);
	ng_groups *g = ng_groups_new(cfg, NULL);
	ng_groups_begin(g);
	ng_groups_assign_quotas(g, 10);
	char *path = tmp_path();
	ng_acct *a = open_at(path, &params);
	ng_acct_set_groups(a, g);
	ng_acct_update(a, 1000, NULL);
	ng_acct_usage_begin(a);
	ng_acct_add_usage(a, "group_p.hep.alice@example.org", 2);
	ng_acct_add_usage(a, "group_p.bob@example.org", 1);
	ng_acct_add_usage(a, "carol@example.org", 1);
	assert_float_equal(ng_acct_weighted_used(a, "group_p.hep"), 2, 1e-12);
	assert_float_equal(ng_acct_weighted_used(a, "group_p"), 1, 1e-12);
	assert_float_equal(ng_acct_weighted_used(a, "<none>"), 1, 1e-12);
	assert_float_equal(ng_acct_factor(a, "group_p.hep.alice@example.org"),
			   50, 1e-12);
	assert_float_equal(ng_acct_factor(a, "group_p.bob@example.org"), 1000,
			   1e-12);
	classad *ad = ng_acct_report(a);
	char *s = NULL;
	assert_true(classad_eval_string(ad, "Name2", NULL, &s));
	assert_string_equal(s, "group_p");
	free(s);
	assert_true(classad_eval_string(ad, "Name3", NULL, &s));
	assert_string_equal(s, "group_p.hep");
	free(s);
	assert_true(classad_eval_string(ad, "AccountingGroup3", NULL, &s));
	assert_string_equal(s, "group_p");
	free(s);
	assert_true(classad_eval_string(ad, "SurplusPolicy3", NULL, &s));
	assert_string_equal(s, "no");
	free(s);
	assert_float_equal(real_attr(ad, "EffectiveQuota2"), 4, 1e-9);
	assert_float_equal(real_attr(ad, "EffectiveQuota3"), 2, 1e-9);
	assert_float_equal(real_attr(ad, "ConfigQuota3"), 0.5, 1e-9);
	assert_float_equal(real_attr(ad, "SubtreeQuota2"), 4, 1e-9);
	assert_float_equal(real_attr(ad, "PriorityFactor3"), 50, 1e-9);
	assert_float_equal(real_attr(ad, "HierWeightedResourcesUsed2"), 3,
			   1e-9);
	assert_float_equal(real_attr(ad, "WeightedResourcesUsed2"), 1, 1e-9);
	/* the submitters after the groups, each with its group */
	int64_t n = 0;
	assert_true(classad_eval_int(ad, "NumSubmittors", NULL, &n));
	assert_int_equal(n, 6);
	for (int i = 4; i <= 6; i++) {
		char attr[32], *name = NULL;
		snprintf(attr, sizeof(attr), "Name%d", i);
		assert_true(classad_eval_string(ad, attr, NULL, &name));
		snprintf(attr, sizeof(attr), "AccountingGroup%d", i);
		assert_true(classad_eval_string(ad, attr, NULL, &s));
		assert_string_equal(s, strncmp(name, "group_p.hep.", 12) == 0
					       ? "group_p.hep"
				       : strncmp(name, "group_p.", 8) == 0
					       ? "group_p"
					       : "<none>");
		free(s);
		free(name);
	}
	classad_free(ad);
	/* rolled up: group_p counts group_p.hep's usage */
	ad = ng_acct_report_rollup(a, true);
	assert_float_equal(real_attr(ad, "WeightedResourcesUsed2"), 3, 1e-9);
	assert_float_equal(real_attr(ad, "Priority2"), 0, 0);
	classad_free(ad);
	ng_acct_close(a);
	cleanup(path);
	ng_groups_free(g);
	ks_config_free(cfg);
}

static void test_persistence(void **state)
{
	(void)state;
	char *path = tmp_path();
	ng_acct *a = open_at(path, &params);
	ng_acct_update(a, 1000, NULL);
	ng_acct_usage_begin(a);
	ng_acct_add_usage(a, "alice@example.org", 0.1);
	ng_acct_update(a, 1137, NULL);
	assert_int_equal(ng_acct_set_factor(a, "bob@example.org", 2500, NULL),
			 0);
	ng_acct_priority(a, "carol@example.org");
	assert_int_equal(ng_acct_save(a, NULL), 0);
	struct ng_customer before = *ng_acct_find(a, "alice@example.org");
	ng_acct_close(a);

	a = open_at(path, &params);
	assert_int_equal(ng_acct_last_update(a), 1137);
	const struct ng_customer *c = ng_acct_find(a, "alice@example.org");
	assert_non_null(c);
	/* exactly the same doubles */
	assert_true(c->priority == before.priority);
	assert_true(c->accumulated == before.accumulated);
	assert_true(c->weighted_accumulated == before.weighted_accumulated);
	assert_true(c->weighted_used == before.weighted_used);
	assert_int_equal(c->resources_used, 1);
	assert_int_equal(c->begin_usage_time, 1137);
	assert_float_equal(ng_acct_factor(a, "bob@example.org"), 2500, 0);
	assert_non_null(ng_acct_find(a, "carol@example.org"));
	/* the usage stored goes on being charged after a restart */
	assert_int_equal(ng_acct_update(a, 1237, NULL), 0);
	c = ng_acct_find(a, "alice@example.org");
	assert_float_equal(c->weighted_accumulated,
			   before.weighted_accumulated + 10, 1e-9);
	/* RESET_USAGE and DELETE_USER are stored too */
	assert_int_equal(ng_acct_reset_usage(a, "alice@example.org", 2000,
					     NULL), 0);
	assert_int_equal(ng_acct_delete(a, "carol@example.org", NULL), 0);
	assert_int_equal(ng_acct_delete(a, "nobody@example.org", NULL), 0);
	ng_acct_close(a);

	a = open_at(path, &params);
	c = ng_acct_find(a, "alice@example.org");
	assert_float_equal(c->accumulated, 0, 0);
	assert_float_equal(c->weighted_accumulated, 0, 0);
	assert_int_equal(c->begin_usage_time, 2000);
	assert_null(ng_acct_find(a, "carol@example.org"));
	assert_non_null(ng_acct_find(a, NG_NONE_GROUP));
	/* every user at once */
	ng_acct_update(a, 2100, NULL);
	assert_int_equal(ng_acct_reset_usage(a, NULL, 3000, NULL), 0);
	for (size_t i = 0; i < ng_acct_count(a); i++) {
		assert_float_equal(ng_acct_at(a, i)->accumulated, 0, 0);
		assert_int_equal(ng_acct_at(a, i)->begin_usage_time, 3000);
	}
	ng_acct_close(a);
	cleanup(path);
}

static void test_bad_file(void **state)
{
	(void)state;
	ng_acct *a = NULL;
	struct ks_err err = {0};
	assert_int_not_equal(ng_acct_open("/nonexistent/dir/acct.mdb", &params,
					  &a, &err),
			     0);
	assert_null(a);
	assert_non_null(strstr(err.msg, "/nonexistent/dir/acct.mdb"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_factors),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_persistence),
		cmocka_unit_test(test_bad_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
