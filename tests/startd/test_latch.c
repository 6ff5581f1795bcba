/* test_latch.c: latched expressions, CpuIsBusy and CpuBusyTime
 * (startd/sd_latch.h), against ads made by the test at times it chooses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sd_latch.h"

static classad *ad_of(const char *text)
{
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				    NULL);
	assert_non_null(ad);
	return ad;
}

/* The slot's ad at load avg load: CpuBusy as the desktop policy has it. */
static classad *slot_ad(double load)
{
	char text[300];
	snprintf(text, sizeof(text),
		 "LoadAvg = %g\nCondorLoadAvg = 0\nNumDynamicSlots = 2\n"
		 "CpuBusy = ((LoadAvg - CondorLoadAvg) >= 0.5)\n",
		 load);
	return ad_of(text);
}

/* attr of ad as an integer; -1 when missing */
static int64_t int_of(const classad *ad, const char *attr)
{
	int64_t v = -1;
	if (!classad_lookup(ad, attr))
		return -1;
	assert_true(classad_eval_int(ad, attr, NULL, &v));
	return v;
}

/* Publishes l into a fresh slot ad at load, now; returns the ad. */
static classad *published(const struct sd_latches *l, double load,
			  int64_t now)
{
	classad *ad = slot_ad(load);
	sd_latches_publish(l, ad, now);
	return ad;
}

/* The template's CpuBusy latch: CpuBusyValue and CpuBusyTime (when it
 * last changed) follow the load; the template's CpuBusyTimer reads. */
static void test_cpu_busy_latch(void **state)
{
	(void)state;
	struct sd_latches l = {0};
	sd_latches_configure(&l, " CpuBusy", "NumDynamicSlots");
	assert_int_equal(l.n, 2);
	classad *ad = slot_ad(0.1);
	assert_true(sd_latches_update(&l, ad, 1000)); /* first: defined */
	classad_free(ad);
	ad = slot_ad(0.1);
	assert_false(sd_latches_update(&l, ad, 1010)); /* the same */
	classad_free(ad);
	ad = published(&l, 0.1, 1010);
	assert_int_equal(int_of(ad, "CpuBusyValue"), 0);
	assert_int_equal(int_of(ad, "CpuBusyTime"), 1000);
	/* a constant: only its time */
	assert_int_equal(int_of(ad, "NumDynamicSlotsTime"), 1000);
	assert_int_equal(int_of(ad, "NumDynamicSlotsValue"), -1);
	classad_free(ad);

	ad = slot_ad(3);
	assert_true(sd_latches_update(&l, ad, 1020));
	classad_free(ad);
	ad = slot_ad(2.5);
	assert_false(sd_latches_update(&l, ad, 1030)); /* still busy */
	classad_free(ad);
	ad = published(&l, 2.5, 1200);
	assert_int_equal(int_of(ad, "CpuBusyValue"), 1);
	assert_int_equal(int_of(ad, "CpuBusyTime"), 1020);
	bool busy = false;
	assert_true(classad_eval_bool(ad, "CpuIsBusy", NULL, &busy));
	assert_true(busy);
	/* the desktop template's timer */
	const char *timer = "IfThenElse(CpuBusyValue is 1, 1200 - CpuBusyTime, 0)";
	classad_insert_text(ad, "Timer", timer, NULL);
	assert_int_equal(int_of(ad, "Timer"), 180);
	classad_free(ad);
	sd_latches_clear(&l);
	assert_int_equal(l.n, 0);
}

/* Without the latch, CpuBusyTime is how long CpuBusy has been true, 0
 * while it is false (seed 004), and CpuIsBusy its value. */
static void test_cpu_busy_time(void **state)
{
	(void)state;
	struct sd_latches l = {0};
	sd_latches_configure(&l, NULL, NULL);
	classad *ad = published(&l, 0, 500);
	assert_int_equal(int_of(ad, "CpuBusyTime"), -1); /* not yet read */
	classad_free(ad);
	ad = slot_ad(0.2);
	sd_latches_update(&l, ad, 500);
	classad_free(ad);
	ad = published(&l, 0.2, 600);
	assert_int_equal(int_of(ad, "CpuBusyTime"), 0);
	bool busy = true;
	assert_true(classad_eval_bool(ad, "CpuIsBusy", NULL, &busy));
	assert_false(busy);
	classad_free(ad);
	ad = slot_ad(1);
	sd_latches_update(&l, ad, 700);
	classad_free(ad);
	ad = slot_ad(1);
	sd_latches_update(&l, ad, 800);
	classad_free(ad);
	ad = published(&l, 1, 830);
	assert_int_equal(int_of(ad, "CpuBusyTime"), 130);
	classad_free(ad);
	ad = slot_ad(0);
	sd_latches_update(&l, ad, 900);
	classad_free(ad);
	ad = published(&l, 0, 950);
	assert_int_equal(int_of(ad, "CpuBusyTime"), 0);
	classad_free(ad);
	sd_latches_clear(&l);
}

/* A latch that becomes undefined, or defined again, changes; reals are
 * truncated; a name listed twice is one latch; a reconfiguration keeps
 * the state of the names it keeps. */
static void test_latch_rules(void **state)
{
	(void)state;
	struct sd_latches l = {0};
	sd_latches_configure(&l, "X, x y", "X");
	assert_int_equal(l.n, 2);
	classad *ad = ad_of("X = 2.9\nY = \"text\"\n");
	assert_true(sd_latches_update(&l, ad, 10));
	classad_free(ad);
	ad = ad_of("X = 2.1 + 0\n");
	assert_false(sd_latches_update(&l, ad, 20)); /* 2 both times */
	sd_latches_publish(&l, ad, 20);
	assert_int_equal(int_of(ad, "XValue"), 2);
	assert_int_equal(int_of(ad, "XTime"), 10);
	assert_int_equal(int_of(ad, "YTime"), -1); /* never defined */
	assert_int_equal(int_of(ad, "YValue"), -1);
	classad_free(ad);
	ad = ad_of("X = undefined\n");
	assert_true(sd_latches_update(&l, ad, 30));
	sd_latches_publish(&l, ad, 30);
	assert_int_equal(int_of(ad, "XTime"), 30);
	assert_null(classad_lookup(ad, "XValue"));
	classad_free(ad);
	sd_latches_configure(&l, "Z", "x");
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[1].name, "X");
	assert_int_equal(l.v[1].changed_at, 30);
	assert_int_equal(l.v[0].changed_at, 0);
	sd_latches_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_busy_latch),
		cmocka_unit_test(test_cpu_busy_time),
		cmocka_unit_test(test_latch_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
