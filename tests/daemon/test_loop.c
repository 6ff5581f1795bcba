/* test_loop.c: the event loop's timers and children (ks_loop.h). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_loop.h"

struct seen {
	ks_loop *loop;
	int ended;
	pid_t pids[4];
	int status[4];
};

static void on_child(void *arg, pid_t pid, int status)
{
	struct seen *s = arg;
	s->pids[s->ended] = pid;
	s->status[s->ended] = status;
	if (++s->ended == 2)
		ks_loop_stop(s->loop);
}

static void give_up(void *arg)
{
	ks_loop_stop(arg);
}

static pid_t spawn(int code, int delay_ms)
{
	pid_t pid = fork();
	if (pid == 0) {
		usleep((useconds_t)delay_ms * 1000);
		_exit(code);
	}
	assert_true(pid > 0);
	return pid;
}

/* Each watched child is reported once, with its own status, whether it
 * ended before or after it was watched; an unwatched one is left alone. */
static void test_children(void **state)
{
	(void)state;
	struct seen s = {.loop = ks_loop_new()};
	pid_t quick = spawn(3, 0);
	usleep(50 * 1000); /* it has surely ended before it is watched */
	pid_t slow = spawn(5, 100);
	pid_t other = spawn(7, 0);
	assert_int_equal(ks_loop_child(s.loop, quick, on_child, &s), 0);
	assert_int_equal(ks_loop_child(s.loop, slow, on_child, &s), 0);
	ks_loop_timer(s.loop, 10000, 0, give_up, s.loop);
	ks_loop_run(s.loop);
	assert_int_equal(s.ended, 2);
	assert_int_equal(s.pids[0], quick);
	assert_int_equal(WEXITSTATUS(s.status[0]), 3);
	assert_int_equal(s.pids[1], slow);
	assert_int_equal(WEXITSTATUS(s.status[1]), 5);
	int st;
	assert_int_equal(waitpid(other, &st, 0), other);
	assert_int_equal(WEXITSTATUS(st), 7);
	ks_loop_free(s.loop);
}

/* A forgotten child is not reported. */
static void test_forget(void **state)
{
	(void)state;
	struct seen s = {.loop = ks_loop_new()};
	pid_t a = spawn(1, 50), b = spawn(2, 100);
	ks_loop_child(s.loop, a, on_child, &s);
	ks_loop_child(s.loop, b, on_child, &s);
	ks_loop_forget_child(s.loop, a);
	ks_loop_timer(s.loop, 1000, 0, give_up, s.loop);
	ks_loop_run(s.loop);
	assert_int_equal(s.ended, 1);
	assert_int_equal(s.pids[0], b);
	int st;
	assert_int_equal(waitpid(a, &st, 0), a);
	ks_loop_free(s.loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_forget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
