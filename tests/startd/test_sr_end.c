/* test_sr_end.c: how a job's end is named from the kill orders it got and
 * its wait status (sr_end_how(), startd/starter/sr_result.h). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_kill),
		cmocka_unit_test(test_hard_kill_after_own_end),
		cmocka_unit_test(test_soft_kill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
