/* test_loop.c: the event loop's timers and children (ks_loop.h). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* ---- timers --------------------------------------------------------- */

#define NT 3000

struct tick {
	ks_loop *loop;
	uint64_t ids[NT];
	int64_t due[NT]; /* its wave */
	int fired[NT];
	bool cancelled[NT];
	int order[NT];
	int nfired;
	int periodic;
	uint64_t periodic_id;
};

struct tick_arg {
	struct tick *t;
	int i;
};

static void on_tick(void *arg)
{
	struct tick_arg *a = arg;
	struct tick *t = a->t;
	t->fired[a->i]++;
	t->order[t->nfired++] = a->i;
	/* cancelling a timer that has fired does nothing to another */
	ks_loop_cancel(t->loop, t->ids[a->i]);
	/* every tenth cancels a later one, which then never fires */
	if (a->i % 10 == 0 && a->i + 5 < NT && !t->fired[a->i + 5]) {
		ks_loop_cancel(t->loop, t->ids[a->i + 5]);
		t->cancelled[a->i + 5] = true;
	}
}

static void on_periodic(void *arg)
{
	struct tick *t = arg;
	if (++t->periodic == 3)
		ks_loop_cancel(t->loop, t->periodic_id); /* its own */
}

/* Thousands of timers fire once each, in the order they are due (ties in
 * the order they were set), a cancelled one never, and a periodic one
 * until it cancels itself from its own callback. */
static void test_timers(void **state)
{
	(void)state;
	static struct tick t;
	static struct tick_arg args[NT];
	t = (struct tick){.loop = ks_loop_new()};
	/* three waves 100 ms apart, set in a mixed order: each wave fires
	 * after the one before, and within a wave in the order it was set */
	for (int i = 0; i < NT; i++) {
		args[i] = (struct tick_arg){&t, i};
		t.due[i] = (i * 7919) % 3;
		t.ids[i] = ks_loop_timer(t.loop, t.due[i] * 100, 0, on_tick,
					 &args[i]);
		assert_true(t.ids[i] != 0);
	}
	for (int i = 1; i < NT; i += 7) {
		ks_loop_cancel(t.loop, t.ids[i]);
		t.cancelled[i] = true;
	}
	ks_loop_cancel(t.loop, 0); /* nothing */
	t.periodic_id = ks_loop_timer(t.loop, 1, 5, on_periodic, &t);
	ks_loop_timer(t.loop, 400, 0, give_up, t.loop);
	ks_loop_run(t.loop);
	for (int i = 0; i < NT; i++)
		assert_int_equal(t.fired[i], t.cancelled[i] ? 0 : 1);
	for (int k = 1; k < t.nfired; k++) {
		int a = t.order[k - 1], b = t.order[k];
		assert_true(t.due[a] < t.due[b] ||
			    (t.due[a] == t.due[b] && a < b));
	}
	assert_int_equal(t.periodic, 3);
	ks_loop_free(t.loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_forget),
		cmocka_unit_test(test_timers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
