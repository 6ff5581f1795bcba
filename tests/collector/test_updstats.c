/* test_updstats.c: the collector's per-daemon update statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "updstats.h"

static classad *update(int64_t seq, int64_t start)
{
	classad *ad = classad_new();
	classad_insert_int(ad, "UpdateSequenceNumber", seq);
	classad_insert_int(ad, "DaemonStartTime", start);
	return ad;
}

/* Feeds the sequence numbers (start time 100, or 200 after a 0) and
 * returns the published ad of the last. */
static classad *feed(struct cs_updstats *s, const int64_t *seqs, size_t n)
{
	classad *old = NULL;
	int64_t start = 100;
	for (size_t i = 0; i < n; i++) {
		if (seqs[i] == 0) {
			start = 200;
			continue;
		}
		classad *ad = update(seqs[i], start);
		cs_updstats_record(s, old, ad);
		cs_updstats_publish(s, ad);
		classad_free(old);
		old = ad;
	}
	return old;
}

static int64_t num(const classad *ad, const char *name)
{
	int64_t v = -1;
	assert_true(classad_eval_int(ad, name, NULL, &v));
	return v;
}

static char *str(const classad *ad, const char *name)
{
	char *v = NULL;
	assert_true(classad_eval_string(ad, name, NULL, &v));
	return v;
}

static void test_no_loss(void **state)
{
	(void)state;
	struct cs_updstats *s = cs_updstats_new(128);
	const int64_t seqs[] = {1, 2, 3, 4};
	classad *ad = feed(s, seqs, 4);
	assert_int_equal(num(ad, "UpdatesTotal"), 4);
	assert_int_equal(num(ad, "UpdatesSequenced"), 3);
	assert_int_equal(num(ad, "UpdatesLost"), 0);
	char *h = str(ad, "UpdatesHistory");
	assert_int_equal(strlen(h), 32);
	assert_string_equal(h, "00000000000000000000000000000000");
	free(h);
	classad_free(ad);
	free(s);
}

static void test_lost(void **state)
{
	(void)state;
	struct cs_updstats *s = cs_updstats_new(16);
	/* 3 and 4 never came: newest first the bits read 0 1 1 0 ... */
	const int64_t seqs[] = {1, 2, 5};
	classad *ad = feed(s, seqs, 3);
	assert_int_equal(num(ad, "UpdatesTotal"), 3);
	assert_int_equal(num(ad, "UpdatesLost"), 2);
	assert_int_equal(num(ad, "UpdatesSequenced"), 4);
	char *h = str(ad, "UpdatesHistory");
	assert_string_equal(h, "6000");
	free(h);
	classad_free(ad);
	free(s);
}

static void test_restart_and_repeat(void **state)
{
	(void)state;
	struct cs_updstats *s = cs_updstats_new(8);
	/* a restart (new DaemonStartTime) starts again at 1: nothing lost;
	 * a repeated number counts one lost, as in HTCondor */
	const int64_t seqs[] = {7, 8, 0, 1, 1};
	classad *ad = feed(s, seqs, 5);
	assert_int_equal(num(ad, "UpdatesTotal"), 4);
	assert_int_equal(num(ad, "UpdatesLost"), 1);
	char *h = str(ad, "UpdatesHistory");
	assert_string_equal(h, "40");
	free(h);
	classad_free(ad);
	free(s);
}

static void test_huge_gap(void **state)
{
	(void)state;
	struct cs_updstats *s = cs_updstats_new(8);
	const int64_t seqs[] = {1, 1000000};
	classad *ad = feed(s, seqs, 2);
	assert_int_equal(num(ad, "UpdatesLost"), 999998);
	char *h = str(ad, "UpdatesHistory");
	/* newest kept, older ones lost; the ring's one unused bit (HTCondor
	 * wraps a bit early) reads as 0 third: 0101 1111 */
	assert_string_equal(h, "5f");
	free(h);
	classad_free(ad);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_loss),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_restart_and_repeat),
		cmocka_unit_test(test_huge_gap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
