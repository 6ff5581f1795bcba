/* test_sr_end.c: how a job's end is named from the kill orders it got and
 * its wait status (sr_end_how(), startd/starter/sr_result.h). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sr_result.h"

/* wait statuses as the kernel makes them */
#define EXITED(code) (((code) & 0xff) << 8)
#define SIGNALED(sig) ((sig) & 0x7f)

static void test_no_kill(void **state)
{
	(void)state;
	assert_int_equal(sr_end_how(SR_KILL_NONE, false, EXITED(3)), SR_END_EXITED);
	assert_int_equal(sr_end_how(SR_KILL_NONE, false, SIGNALED(SIGSEGV)),
			 SR_END_SIGNALED);
}

/* A job sent only SIGKILL that did not die of it had ended by itself: a
 * job that completed as its startd shut down fast (or died) is not run
 * again. */
static void test_hard_kill_after_own_end(void **state)
{
	(void)state;
	assert_int_equal(sr_end_how(SR_KILL_HARD, false, EXITED(0)), SR_END_EXITED);
	assert_int_equal(sr_end_how(SR_KILL_HARD, false, SIGNALED(SIGSEGV)),
			 SR_END_SIGNALED);
	assert_int_equal(sr_end_how(SR_KILL_HARD, false, SIGNALED(SIGKILL)),
			 SR_END_KILLED);
}

/* A job given its soft kill signal may have ended because of it. */
static void test_soft_kill(void **state)
{
	(void)state;
	assert_int_equal(sr_end_how(SR_KILL_SOFT, true, EXITED(0)), SR_END_KILLED);
	assert_int_equal(sr_end_how(SR_KILL_SOFT, true, SIGNALED(SIGTERM)),
			 SR_END_KILLED);
	assert_int_equal(sr_end_how(SR_KILL_HARD, true, EXITED(0)), SR_END_KILLED);
	assert_int_equal(sr_end_how(SR_KILL_HARD, true, SIGNALED(SIGKILL)),
			 SR_END_KILLED);
}

/* The startd's hold order goes into the result of a killed job alone. */
static void test_hold(void **state)
{
	(void)state;
	static const char order[] = "HoldReason = \"my reason\"\n"
				    "HoldReasonCode = 21\n"
				    "HoldReasonSubCode = 42\n";
	struct sr_outcome o = {.how = SR_END_KILLED};
	classad *ad = classad_new();
	assert_true(sr_result_hold(ad, &o, order, sizeof(order) - 1));
	int64_t v = 0;
	assert_true(classad_eval_int(ad, "HoldReasonCode", NULL, &v));
	assert_int_equal(v, 21);
	assert_true(classad_eval_int(ad, "HoldReasonSubCode", NULL, &v));
	assert_int_equal(v, 42);
	char *why = NULL;
	assert_true(classad_eval_string(ad, "HoldReason", NULL, &why));
	assert_string_equal(why, "my reason");
	free(why);
	classad_free(ad);

	/* a job that ended on its own (or never started) keeps its end */
	enum sr_end others[] = {SR_END_EXITED, SR_END_SIGNALED,
				SR_END_START_FAILED};
	for (size_t i = 0; i < 3; i++) {
		o.how = others[i];
		ad = classad_new();
		assert_false(sr_result_hold(ad, &o, order, sizeof(order) - 1));
		assert_null(classad_lookup(ad, "HoldReasonCode"));
		classad_free(ad);
	}
	/* what is not a whole order is none */
	o.how = SR_END_KILLED;
	const char *bad[] = {"HoldReason = \"x\"\n", "garbage [[",
			     "HoldReason = 1\nHoldReasonCode = 21\n"
			     "HoldReasonSubCode = 0\n",
			     "HoldReason = \"x\"\nHoldReasonCode = 0\n"
			     "HoldReasonSubCode = 0\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ad = classad_new();
		assert_false(sr_result_hold(ad, &o, bad[i], strlen(bad[i])));
		assert_null(classad_lookup(ad, "HoldReasonCode"));
		classad_free(ad);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_no_kill),
		cmocka_unit_test(test_hard_kill_after_own_end),
		cmocka_unit_test(test_soft_kill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
