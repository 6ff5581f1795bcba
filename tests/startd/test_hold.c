/* test_hold.c: WANT_HOLD's reason and codes (startd/sd_hold.h), from a
 * slot ad and a job ad as the startd has them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sd_hold.h"

static classad *ad_of(const char *text)
{
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				    NULL);
	assert_non_null(ad);
	return ad;
}

static const char job_text[] = "JobUniverse = 5\nMemoryUsage = 20\n";

/* As WANT_HOLD_IF writes them: the reason and subcode of the policy. */
static void test_reason_and_subcode(void **state)
{
	(void)state;
	classad *slot = ad_of(
		"Memory = 10\n"
		"WANT_HOLD = (JobUniverse != 1 && (MemoryUsage > Memory))\n"
		"WANT_HOLD_SUBCODE = ifThenElse(MemoryUsage > Memory, 102, "
		"UNDEFINED)\n"
		"WANT_HOLD_REASON = ifThenElse(MemoryUsage > Memory, "
		"\"memory usage exceeded request_memory\", UNDEFINED)\n");
	classad *job = ad_of(job_text);
	struct sd_hold h = {0};
	assert_true(sd_hold_wanted(slot, job, &h));
	assert_string_equal(h.reason, "memory usage exceeded request_memory");
	assert_int_equal(h.code, 21);
	assert_int_equal(h.subcode, 102);
	char *text = sd_hold_text(&h);
	classad *back = ad_of(text);
	int64_t v = 0;
	assert_true(classad_eval_int(back, "HoldReasonCode", NULL, &v));
	assert_int_equal(v, 21);
	assert_true(classad_eval_int(back, "HoldReasonSubCode", NULL, &v));
	assert_int_equal(v, 102);
	char *why = NULL;
	assert_true(classad_eval_string(back, "HoldReason", NULL, &why));
	assert_string_equal(why, "memory usage exceeded request_memory");
	free(why);
	classad_free(back);
	free(text);
	sd_hold_clear(&h);
	assert_null(h.reason);

	/* false, undefined, an error, a string: no hold */
	const char *nos[] = {"WANT_HOLD = false\n", "WANT_HOLD = Nothing\n",
			     "WANT_HOLD = 1/0 > 2\n", "WANT_HOLD = \"yes\"\n",
			     "Other = 1\n"};
	for (size_t i = 0; i < sizeof(nos) / sizeof(nos[0]); i++) {
		classad *no = ad_of(nos[i]);
		assert_false(sd_hold_wanted(no, job, &h));
		assert_null(h.reason);
		classad_free(no);
	}
	classad_free(slot);
	classad_free(job);
}

/* No WANT_HOLD_REASON (or none that is a non-empty string): HTCondor's
 * words, quoting WANT_HOLD; a subcode that is no number is 0, a real is
 * truncated. */
static void test_default_reason(void **state)
{
	(void)state;
	classad *job = ad_of(job_text);
	const char *slots[] = {
		"WANT_HOLD = MemoryUsage > 5\n",
		"WANT_HOLD = MemoryUsage > 5\nWANT_HOLD_REASON = \"\"\n"
		"WANT_HOLD_SUBCODE = \"x\"\n",
		"WANT_HOLD = MemoryUsage > 5\nWANT_HOLD_REASON = 7\n"
		"WANT_HOLD_SUBCODE = UNDEFINED\n",
	};
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		classad *slot = ad_of(slots[i]);
		struct sd_hold h = {0};
		assert_true(sd_hold_wanted(slot, job, &h));
		assert_string_equal(h.reason,
				    "The startd put this job on hold.  (At "
				    "preemption time, WANT_HOLD evaluated to "
				    "true: WANT_HOLD = MemoryUsage > 5)");
		assert_int_equal(h.subcode, 0);
		sd_hold_clear(&h);
		classad_free(slot);
	}
	classad *slot = ad_of("WANT_HOLD = 1\nWANT_HOLD_SUBCODE = 7.9\n");
	struct sd_hold h = {0};
	assert_true(sd_hold_wanted(slot, job, &h));
	assert_int_equal(h.subcode, 7);
	sd_hold_clear(&h);
	classad_free(slot);
	classad_free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reason_and_subcode),
		cmocka_unit_test(test_default_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
