/* Unit tests of concurrency limits: how a ConcurrencyLimits list is read
 * (amounts, case, scopes, entries ignored), the maxima from the knobs,
 * and the names reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "concurrency.h"

static ks_config *conf(void)
{
	ks_config *cfg = ks_config_new("NEGOTIATOR", NULL);
	ks_config_set(cfg, "SW_LIMIT", "2", NULL);
	ks_config_set(cfg, "CONCURRENCY_LIMIT_DEFAULT_LICENSE", "3", NULL);
	ks_config_set(cfg, "LICENSE.MATLAB_LIMIT", "1", NULL);
	return cfg;
}

static void test_amounts(void **state)
{
	(void)state;
	ks_config *cfg = conf();
	ng_limits *l = ng_limits_new(cfg);
	ng_limits_take(l, "SW, db:2.5, license.matlab:0.5");
	ng_limits_take(l, "sw:0, db:-1 ,  other:x");
	/* no amount, 0, a negative one or a word: 1 */
	assert_float_equal(ng_limits_used(l, "sw"), 2, 1e-12);
	assert_float_equal(ng_limits_used(l, "DB"), 3.5, 1e-12);
	assert_float_equal(ng_limits_used(l, "License.Matlab"), 0.5, 1e-12);
	assert_float_equal(ng_limits_used(l, "other"), 1, 1e-12);
	/* not names: left out */
	ng_limits_take(l, "9lives, a-b, .x, y., a.b.c");
	assert_float_equal(ng_limits_used(l, "9lives"), 0, 1e-12);
	assert_float_equal(ng_limits_used(l, "a.b.c"), 0, 1e-12);
	ng_limits_take(l, NULL);
	ng_limits_take(l, "");
	ng_limits_free(l);
	ks_config_free(cfg);
}

static void test_maxima(void **state)
{
	(void)state;
	ks_config *cfg = conf();
	ng_limits *l = ng_limits_new(cfg);
	char which[64] = "";
	/* SW_LIMIT = 2 */
	assert_false(ng_limits_full(l, "sw", which, sizeof(which)));
	ng_limits_take(l, "sw");
	assert_false(ng_limits_full(l, "sw", which, sizeof(which)));
	assert_true(ng_limits_full(l, "sw:1.5", which, sizeof(which)));
	assert_string_equal(which, "sw");
	ng_limits_take(l, "Sw");
	assert_true(ng_limits_full(l, "other, SW", which, sizeof(which)));
	assert_string_equal(which, "sw");
	/* a scope's default, then the name's own knob */
	ng_limits_take(l, "license.stata:3");
	assert_true(ng_limits_full(l, "license.stata", which, sizeof(which)));
	assert_false(ng_limits_full(l, "license.matlab", which, sizeof(which)));
	ng_limits_take(l, "license.matlab");
	assert_true(ng_limits_full(l, "license.matlab", which, sizeof(which)));
	assert_string_equal(which, "license.matlab");
	/* no knob: CONCURRENCY_LIMIT_DEFAULT, 2308032 unless set */
	ng_limits_take(l, "big:2308031");
	assert_false(ng_limits_full(l, "big", which, sizeof(which)));
	assert_true(ng_limits_full(l, "big:2", which, sizeof(which)));
	ks_config_set(cfg, "CONCURRENCY_LIMIT_DEFAULT", "5", NULL);
	assert_true(ng_limits_full(l, "big", which, sizeof(which)));
	assert_false(ng_limits_full(l, "fresh:5", which, sizeof(which)));
	assert_true(ng_limits_full(l, "fresh:6", which, sizeof(which)));
	ng_limits_free(l);
	ks_config_free(cfg);
}

static void test_publish(void **state)
{
	(void)state;
	ks_config *cfg = conf();
	ng_limits *l = ng_limits_new(cfg);
	ng_limits_take(l, "sw:2, license.matlab");
	classad *ad = classad_new();
	ng_limits_publish(l, ad);
	double v = 0;
	assert_true(classad_eval_real(ad, "ConcurrencyLimit_sw", NULL, &v));
	assert_float_equal(v, 2, 1e-12);
	assert_true(classad_eval_real(ad, "ConcurrencyLimit_license_matlab",
				      NULL, &v));
	assert_float_equal(v, 1, 1e-12);
	assert_int_equal(classad_size(ad), 2);
	classad_free(ad);
	ng_limits_free(l);
	ks_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amounts),
		cmocka_unit_test(test_maxima),
		cmocka_unit_test(test_publish),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
