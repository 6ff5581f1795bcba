/* Unit tests of fair share: the limits of one spin, and whole pies
 * spun over submitters with a fixed demand, taking slots of weight 1
 * the way the negotiator takes them (up to the limit, rounding up once
 * per spin, while slots are left). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "share.h"

static void test_limits(void **state)
{
	(void)state;
	struct ng_share_sub s[3] = {
		{.name = "a", .prio = 500, .active = true},
		{.name = "b", .prio = 500, .active = true},
		{.name = "c", .prio = 1500, .active = false},
	};
	double pie = ng_share_limits(s, 3, 10, false);
	assert_float_equal(s[0].share, 0.5, 1e-12);
	assert_float_equal(s[1].limit, 5, 1e-12);
	assert_float_equal(pie, 10, 1e-12);
	/* shares go as 1 / priority */
	s[2].active = true;
	s[1].prio = 1500;
	pie = ng_share_limits(s, 3, 10, false);
	assert_float_equal(s[0].share, 0.6, 1e-12);
	assert_float_equal(s[1].share, 0.2, 1e-12);
	assert_float_equal(s[2].limit, 2, 1e-12);
	/* what a submitter uses comes off its limit, never below 0 */
	s[0].usage = 4;
	s[1].usage = 7;
	pie = ng_share_limits(s, 3, 10, false);
	assert_float_equal(s[0].limit, 2, 1e-12);
	assert_float_equal(s[1].limit, 0, 1e-12);
	assert_float_equal(pie, 4, 1e-12);
	/* one user from two schedds counts once */
	struct ng_share_sub t[3] = {
		{.name = "a", .prio = 500, .active = true},
		{.name = "a", .prio = 500, .active = true},
		{.name = "b", .prio = 500, .active = true},
	};
	ng_share_limits(t, 3, 10, false);
	assert_float_equal(t[0].share, 0.5, 1e-12);
	assert_float_equal(t[1].share, 0.5, 1e-12);
	assert_float_equal(t[2].share, 0.5, 1e-12);
	/* NEGOTIATOR_IGNORE_USER_PRIORITIES */
	ng_share_limits(s, 3, 10, true);
	assert_true(s[1].limit > 1e300);
}

static void test_order(void **state)
{
	(void)state;
	struct ng_share_sub s[4] = {
		{.prio = 900, .starvation = 0},
		{.prio = 500, .starvation = 0.5},
		{.prio = 500, .starvation = 0.1},
		{.prio = 100, .starvation = 1},
	};
	size_t idx[4];
	ng_share_order(s, 4, idx);
	assert_int_equal(idx[0], 3);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idx[2], 1);
	assert_int_equal(idx[3], 0);
}

/* The pool and the submitters' demand, for the fake negotiation. */
struct sim {
	double slots_left;
	double demand[4];
	double got[4];
	size_t calls[16];
	size_t ncalls;
};

static enum ng_share_result take(void *arg, size_t i, double limit,
				 int spin, bool rank_only, double *pie)
{
	(void)spin;
	(void)rank_only;
	struct sim *m = arg;
	if (m->ncalls < 16)
		m->calls[m->ncalls++] = i;
	double used = 0;
	for (;;) {
		if (m->demand[i] - m->got[i] < 1)
			return NG_SHARE_DONE;
		if (m->slots_left < 1)
			return NG_SHARE_DONE; /* nothing matches any more */
		if (!(used + 1 <= limit || (used <= 0 && limit > 0)))
			return NG_SHARE_RESUME;
		used += 1;
		m->got[i] += 1;
		m->slots_left -= 1;
		*pie -= 1;
	}
}

/* The callback adds to usage through this wrapper, as the cycle does. */
struct run {
	struct ng_share_sub *subs;
	struct sim *sim;
};

static enum ng_share_result take_and_count(void *arg, size_t i, double limit,
					   int spin, bool rank_only,
					   double *pie)
{
	struct run *r = arg;
	double before = r->sim->got[i];
	enum ng_share_result res = take(r->sim, i, limit, spin, rank_only,
					pie);
	r->subs[i].usage += r->sim->got[i] - before;
	return res;
}

static int spin(struct ng_share_sub *subs, size_t n, struct sim *m,
		double total, bool preemption)
{
	struct ng_share_opts o = {.total = total, .min_weight = 1,
				  .consider_preemption = preemption};
	struct run r = {subs, m};
	return ng_share_pie(subs, n, &o, take_and_count, &r);
}

static void test_equal(void **state)
{
	(void)state;
	struct ng_share_sub s[2] = {
		{.name = "alice", .prio = 500, .idle = true},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim m = {.slots_left = 10, .demand = {10, 10}};
	spin(s, 2, &m, 10, true);
	assert_float_equal(m.got[0], 5, 0);
	assert_float_equal(m.got[1], 5, 0);
}

static void test_factor(void **state)
{
	(void)state;
	/* priority factors 1000 and 3000: shares 3/4 and 1/4 */
	struct ng_share_sub s[2] = {
		{.name = "alice", .prio = 500, .idle = true},
		{.name = "bob", .prio = 1500, .idle = true},
	};
	struct sim m = {.slots_left = 12, .demand = {12, 12}};
	spin(s, 2, &m, 12, true);
	assert_float_equal(m.got[0], 9, 0);
	assert_float_equal(m.got[1], 3, 0);
	/* the better priority goes first */
	assert_int_equal(m.calls[0], 0);
	assert_int_equal(m.calls[1], 1);
	/* the other way round */
	struct ng_share_sub t[2] = {
		{.name = "alice", .prio = 1500, .idle = true},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim n = {.slots_left = 12, .demand = {12, 12}};
	spin(t, 2, &n, 12, true);
	assert_float_equal(n.got[0], 3, 0);
	assert_float_equal(n.got[1], 9, 0);
	assert_int_equal(n.calls[0], 1);
}

static void test_leftovers(void **state)
{
	(void)state;
	/* what alice does not want goes to bob in the next spin */
	struct ng_share_sub s[2] = {
		{.name = "alice", .prio = 500, .idle = true},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim m = {.slots_left = 10, .demand = {2, 10}};
	int spins = spin(s, 2, &m, 10, true);
	assert_float_equal(m.got[0], 2, 0);
	assert_float_equal(m.got[1], 8, 0);
	assert_true(spins >= 2);
	/* three users, one heavy */
	struct ng_share_sub t[3] = {
		{.name = "a", .prio = 500, .idle = true},
		{.name = "b", .prio = 500, .idle = true},
		{.name = "c", .prio = 500, .idle = true},
	};
	struct sim n = {.slots_left = 30, .demand = {4, 20, 20}};
	spin(t, 3, &n, 30, true);
	/* 10 each in the first spin; the 6 left split by the order of
	 * the first spin: b's new limit of 5 first, then what is left */
	assert_float_equal(n.got[0], 4, 0);
	assert_float_equal(n.got[1], 15, 0);
	assert_float_equal(n.got[2], 11, 0);
	/* usage from before the cycle counts against the share */
	struct ng_share_sub u[2] = {
		{.name = "alice", .prio = 500, .usage = 6, .idle = true},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim k = {.slots_left = 6, .demand = {10, 10}};
	spin(u, 2, &k, 12, true);
	assert_float_equal(k.got[0], 0, 0);
	assert_float_equal(k.got[1], 6, 0);
}

static void test_no_idle(void **state)
{
	(void)state;
	/* with preemption considered, a submitter without idle jobs holds
	 * its share in the first spin; the next spin hands it out */
	struct ng_share_sub s[2] = {
		{.name = "alice", .prio = 500, .idle = false},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim m = {.slots_left = 10, .demand = {0, 10}};
	int spins = spin(s, 2, &m, 10, true);
	assert_float_equal(m.got[1], 10, 0);
	assert_int_equal(spins, 2);
	/* without preemption it takes no part at all */
	struct ng_share_sub t[2] = {
		{.name = "alice", .prio = 500, .idle = false},
		{.name = "bob", .prio = 500, .idle = true},
	};
	struct sim n = {.slots_left = 10, .demand = {0, 10}};
	spins = spin(t, 2, &n, 10, false);
	assert_float_equal(n.got[1], 10, 0);
	assert_int_equal(spins, 1);
	assert_int_equal(n.ncalls, 1);
}

static void test_crumbs(void **state)
{
	(void)state;
	/* three equal users, two slots: the first two round up */
	struct ng_share_sub s[3] = {
		{.name = "a", .prio = 500, .idle = true},
		{.name = "b", .prio = 500, .idle = true},
		{.name = "c", .prio = 500, .idle = true},
	};
	struct sim m = {.slots_left = 2, .demand = {5, 5, 5}};
	spin(s, 3, &m, 2, true);
	assert_float_equal(m.got[0], 1, 0);
	assert_float_equal(m.got[1], 1, 0);
	assert_float_equal(m.got[2], 0, 0);
	/* an empty pool asks nobody for anything twice */
	struct ng_share_sub t[1] = {{.name = "a", .prio = 500, .idle = true}};
	struct sim n = {.slots_left = 0, .demand = {5}};
	int spins = spin(t, 1, &n, 0, false);
	assert_int_equal(spins, 1);
	assert_int_equal(n.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_factor),
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_no_idle),
		cmocka_unit_test(test_crumbs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
