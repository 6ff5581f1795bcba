/* test_state.c: the slot state machine (startd/sd_state.h), transition by
 * transition, with the policy expressions answered by the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sd_state.h"

/* The policy: what each expression gives; unset ones are undefined.  It
 * also records which were asked, to check that a state looks only at its
 * own expressions. */
struct policy {
	enum sd_truth v[SD_X_COUNT];
	bool set[SD_X_COUNT];
	unsigned asked;
};

static enum sd_truth ask(void *arg, enum sd_expr x)
{
	struct policy *p = arg;
	p->asked |= 1u << x;
	return p->set[x] ? p->v[x] : SD_UNDEF;
}

static void set(struct policy *p, enum sd_expr x, enum sd_truth t)
{
	p->v[x] = t;
	p->set[x] = true;
}

static struct sd_slot_state at(enum sd_state s, enum sd_activity a)
{
	return (struct sd_slot_state){.state = s, .activity = a};
}

static void expect(const struct sd_step *st, int n, enum sd_state s,
		   enum sd_activity a, enum sd_action act)
{
	assert_int_equal(st->transition, n);
	assert_int_equal(st->state, s);
	assert_int_equal(st->activity, a);
	assert_int_equal(st->action, act);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(sd_state_name(SD_PREEMPTING), "Preempting");
	assert_string_equal(sd_activity_name(SD_BENCHMARKING), "Benchmarking");
	assert_string_equal(sd_expr_name(SD_X_WANT_SUSPEND), "WANT_SUSPEND");
}

/* Owner and Unclaimed follow IS_OWNER (1, 2); RUNBENCHMARKS (3, 4). */
static void test_owner_unclaimed(void **state)
{
	(void)state;
	struct policy p = {0};
	struct sd_step st;
	struct sd_slot_state s = at(SD_OWNER, SD_IDLE);
	set(&p, SD_X_IS_OWNER, SD_TRUE);
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
	/* undefined is not true: the desktop policy's START =?= FALSE */
	p.set[SD_X_IS_OWNER] = false;
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 1, SD_UNCLAIMED, SD_IDLE, SD_A_NONE);
	assert_string_equal(st.why, "IS_OWNER is undefined");

	s = at(SD_UNCLAIMED, SD_IDLE);
	set(&p, SD_X_IS_OWNER, SD_FALSE);
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
	set(&p, SD_X_RUNBENCHMARKS, SD_TRUE);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 3, SD_UNCLAIMED, SD_BENCHMARKING, SD_A_BENCHMARK);
	set(&p, SD_X_IS_OWNER, SD_TRUE);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 2, SD_OWNER, SD_IDLE, SD_A_NONE);

	s = at(SD_UNCLAIMED, SD_BENCHMARKING);
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
	assert_true(sd_event_step(&s, SD_E_BENCH_DONE, &st));
	expect(&st, 4, SD_UNCLAIMED, SD_IDLE, SD_A_NONE);
	/* back from Benchmarking, RUNBENCHMARKS still true does not start
	 * them again until the slot's activity changes (HTCondor) */
	set(&p, SD_X_IS_OWNER, SD_FALSE);
	s = at(SD_UNCLAIMED, SD_IDLE);
	s.left_benchmarking = true;
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
}

/* Match, claim, match timeout, START false while Matched (5, 6, 8, 9). */
static void test_matched(void **state)
{
	(void)state;
	struct sd_step st;
	struct sd_slot_state s = at(SD_UNCLAIMED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_MATCH, &st));
	expect(&st, 6, SD_MATCHED, SD_IDLE, SD_A_NONE);
	assert_true(sd_event_step(&s, SD_E_CLAIM, &st));
	expect(&st, 5, SD_CLAIMED, SD_IDLE, SD_A_NONE);
	s = at(SD_MATCHED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_CLAIM, &st));
	expect(&st, 9, SD_CLAIMED, SD_IDLE, SD_A_NONE);
	assert_true(sd_event_step(&s, SD_E_MATCH_TIMEOUT, &st));
	expect(&st, 8, SD_OWNER, SD_IDLE, SD_A_NONE);
	struct policy p = {0};
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st)); /* undefined */
	set(&p, SD_X_START, SD_FALSE);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 8, SD_OWNER, SD_IDLE, SD_A_NONE);
	/* nothing to match or claim in Owner, or twice */
	s = at(SD_OWNER, SD_IDLE);
	assert_false(sd_event_step(&s, SD_E_MATCH, &st));
	assert_false(sd_event_step(&s, SD_E_CLAIM, &st));
	s = at(SD_CLAIMED, SD_BUSY);
	assert_false(sd_event_step(&s, SD_E_MATCH, &st));
}

/* Claimed: activation (11), job end (12), START false while idle (10),
 * then out of Preempting with no job (22). */
static void test_claimed_idle(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	struct sd_slot_state s = at(SD_CLAIMED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_ACTIVATE, &st));
	expect(&st, 11, SD_CLAIMED, SD_BUSY, SD_A_NONE);
	/* START false without a job says nothing: IS_OWNER decides */
	set(&p, SD_X_START, SD_FALSE);
	set(&p, SD_X_IS_OWNER, SD_FALSE);
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
	set(&p, SD_X_IS_OWNER, SD_TRUE);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	/* PREEMPT never held: Vacating whatever WANT_VACATE says */
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
	assert_false(st.preempt_true);
	s = at(SD_PREEMPTING, SD_VACATING);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 22, SD_OWNER, SD_IDLE, SD_A_END_CLAIM);
	s = at(SD_PREEMPTING, SD_KILLING);
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 25, SD_OWNER, SD_IDLE, SD_A_END_CLAIM);
	s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 12, SD_CLAIMED, SD_IDLE, SD_A_NONE);
}

/* The desktop sequence: suspend (14), continue (15), preempt while
 * suspended (16), retire until the time is up (18), vacate, kill (21),
 * and back to Owner when the starter is gone (25). */
static void test_desktop(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	struct sd_timers t = {0};
	struct sd_slot_state s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	set(&p, SD_X_WANT_SUSPEND, SD_TRUE);
	set(&p, SD_X_SUSPEND, SD_FALSE);
	set(&p, SD_X_PREEMPT, SD_TRUE);
	/* WANT_SUSPEND true: PREEMPT is not looked at from Busy */
	p.asked = 0;
	assert_false(sd_policy_step(&s, &t, ask, &p, &st));
	assert_false(p.asked & (1u << SD_X_PREEMPT));
	set(&p, SD_X_SUSPEND, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 14, SD_CLAIMED, SD_SUSPENDED, SD_A_SUSPEND);
	assert_string_equal(st.why, "SUSPEND became true");

	s.activity = SD_SUSPENDED;
	set(&p, SD_X_CONTINUE, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 15, SD_CLAIMED, SD_BUSY, SD_A_CONTINUE);
	set(&p, SD_X_CONTINUE, SD_FALSE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 16, SD_CLAIMED, SD_RETIRING, SD_A_CONTINUE);
	assert_true(st.preempt_true);

	s.activity = SD_RETIRING;
	s.retiring = true;
	s.preempt_was_true = true;
	set(&p, SD_X_SUSPEND, SD_FALSE);
	assert_false(sd_policy_step(&s, &t, ask, &p, &st));
	set(&p, SD_X_SUSPEND, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 20, SD_CLAIMED, SD_SUSPENDED, SD_A_SUSPEND);
	/* suspended in retirement: CONTINUE goes back to Retiring (16), an
	 * expired retirement preempts (17) */
	s.activity = SD_SUSPENDED;
	set(&p, SD_X_CONTINUE, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 16, SD_CLAIMED, SD_RETIRING, SD_A_CONTINUE);
	t.retirement_over = true;
	set(&p, SD_X_WANT_VACATE, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 17, SD_PREEMPTING, SD_VACATING, SD_A_SOFT_KILL);

	s.activity = SD_RETIRING;
	set(&p, SD_X_SUSPEND, SD_FALSE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 18, SD_PREEMPTING, SD_VACATING, SD_A_SOFT_KILL);
	set(&p, SD_X_WANT_VACATE, SD_FALSE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 18, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);

	s = at(SD_PREEMPTING, SD_VACATING);
	s.starter = true;
	t = (struct sd_timers){0};
	set(&p, SD_X_KILL, SD_FALSE);
	assert_false(sd_policy_step(&s, &t, ask, &p, &st));
	set(&p, SD_X_KILL, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 21, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	set(&p, SD_X_KILL, SD_FALSE);
	t.vacate_over = true;
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 21, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	assert_string_equal(st.why, "the vacate time is up");

	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 22, SD_OWNER, SD_IDLE, SD_A_END_CLAIM);
	s.activity = SD_KILLING;
	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 25, SD_OWNER, SD_IDLE, SD_A_END_CLAIM);
	/* preempted for a better claim: the slot stays claimed (23, 24) */
	s.for_better = true;
	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 24, SD_CLAIMED, SD_IDLE, SD_A_END_CLAIM);
	s.activity = SD_VACATING;
	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 23, SD_CLAIMED, SD_IDLE, SD_A_END_CLAIM);
}

/* WANT_SUSPEND false: PREEMPT retires from Busy (13), SUSPEND is not
 * looked at; a retiring job that ends preempts (18). */
static void test_nonsuspendable(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	struct sd_slot_state s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	set(&p, SD_X_WANT_SUSPEND, SD_FALSE);
	set(&p, SD_X_SUSPEND, SD_TRUE);
	set(&p, SD_X_PREEMPT, SD_TRUE);
	p.asked = 0;
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE);
	assert_string_equal(st.why, "PREEMPT became true");
	assert_false(p.asked & (1u << SD_X_SUSPEND));
	s.activity = SD_RETIRING;
	assert_true(sd_event_step(&s, SD_E_STARTER_EXIT, &st));
	expect(&st, 18, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
}

/* Vacate, release and lease expiry end a claim through Preempting (10);
 * fast ones skip the soft kill. */
static void test_claim_endings(void **state)
{
	(void)state;
	struct sd_step st;
	struct sd_slot_state s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	assert_true(sd_event_step(&s, SD_E_VACATE, &st));
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_SOFT_KILL);
	assert_true(sd_event_step(&s, SD_E_VACATE_FAST, &st));
	expect(&st, 10, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	assert_true(sd_event_step(&s, SD_E_LEASE_EXPIRED, &st));
	expect(&st, 10, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	assert_string_equal(st.why, "the claim lease expired");
	s = at(SD_CLAIMED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_RELEASE, &st));
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
	s = at(SD_MATCHED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_VACATE, &st));
	expect(&st, 8, SD_OWNER, SD_IDLE, SD_A_NONE);
	s = at(SD_UNCLAIMED, SD_IDLE);
	assert_false(sd_event_step(&s, SD_E_VACATE, &st));
}

/* Draining: Owner (36) and Unclaimed (37) to Drained/Retiring, a busy
 * claim retires (13); all drained (33); the end (34, 35). */
static void test_drain(void **state)
{
	(void)state;
	struct sd_step st;
	struct sd_slot_state s = at(SD_OWNER, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_DRAIN, &st));
	expect(&st, 36, SD_DRAINED, SD_RETIRING, SD_A_NONE);
	s = at(SD_UNCLAIMED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_DRAIN, &st));
	expect(&st, 37, SD_DRAINED, SD_RETIRING, SD_A_NONE);
	s = at(SD_CLAIMED, SD_BUSY);
	assert_true(sd_event_step(&s, SD_E_DRAIN, &st));
	expect(&st, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE);
	s = at(SD_DRAINED, SD_RETIRING);
	assert_true(sd_event_step(&s, SD_E_DRAINED, &st));
	expect(&st, 33, SD_DRAINED, SD_IDLE, SD_A_NONE);
	assert_true(sd_event_step(&s, SD_E_DRAIN_END, &st));
	expect(&st, 34, SD_OWNER, SD_IDLE, SD_A_NONE);
	s.activity = SD_IDLE;
	assert_true(sd_event_step(&s, SD_E_DRAIN_END, &st));
	expect(&st, 35, SD_OWNER, SD_IDLE, SD_A_NONE);
}

/* A graceful or peaceful shutdown: a running job retires (13), an idle
 * claim is vacated (10), a match is dropped (8); nothing else moves. */
static void test_shutdown(void **state)
{
	(void)state;
	struct sd_step st;
	struct sd_slot_state s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	assert_true(sd_event_step(&s, SD_E_SHUTDOWN, &st));
	expect(&st, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE);
	s = at(SD_CLAIMED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_SHUTDOWN, &st));
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
	s = at(SD_MATCHED, SD_IDLE);
	assert_true(sd_event_step(&s, SD_E_SHUTDOWN, &st));
	expect(&st, 8, SD_OWNER, SD_IDLE, SD_A_NONE);
	s = at(SD_UNCLAIMED, SD_IDLE);
	assert_false(sd_event_step(&s, SD_E_SHUTDOWN, &st));
	s = at(SD_CLAIMED, SD_RETIRING);
	assert_false(sd_event_step(&s, SD_E_SHUTDOWN, &st));
}

static struct sd_slot_state backfill(enum sd_activity a, enum sd_state then)
{
	struct sd_slot_state s = at(SD_BACKFILL, a);
	s.backfill_on = true;
	s.backfill_then = then;
	return s;
}

/* Backfill: START_BACKFILL from Unclaimed/Idle (7) when backfill is on;
 * the client runs (26), exits on its own (27: started again), is killed
 * for EVICT_BACKFILL, a match, a claim or a vacate (28), is gone (29);
 * then Owner (30), Claimed (31) or Matched (32). */
static void test_backfill(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	set(&p, SD_X_IS_OWNER, SD_FALSE);
	set(&p, SD_X_RUNBENCHMARKS, SD_FALSE);
	set(&p, SD_X_START_BACKFILL, SD_TRUE);
	struct sd_slot_state s = at(SD_UNCLAIMED, SD_IDLE);
	assert_false(sd_policy_step(&s, NULL, ask, &p, &st));
	s.backfill_on = true;
	assert_true(sd_policy_step(&s, NULL, ask, &p, &st));
	expect(&st, 7, SD_BACKFILL, SD_IDLE, SD_A_BACKFILL_START);

	s = backfill(SD_IDLE, SD_BACKFILL);
	assert_true(sd_event_step(&s, SD_E_BACKFILL_STARTED, &st));
	expect(&st, 26, SD_BACKFILL, SD_BUSY, SD_A_NONE);
	s = backfill(SD_BUSY, SD_BACKFILL);
	assert_true(sd_event_step(&s, SD_E_BACKFILL_EXIT, &st));
	expect(&st, 27, SD_BACKFILL, SD_IDLE, SD_A_BACKFILL_START);

	/* busy: EVICT_BACKFILL is looked at, and kills the client */
	struct policy q = {0};
	set(&q, SD_X_EVICT_BACKFILL, SD_FALSE);
	assert_false(sd_policy_step(&s, NULL, ask, &q, &st));
	set(&q, SD_X_EVICT_BACKFILL, SD_TRUE);
	assert_true(sd_policy_step(&s, NULL, ask, &q, &st));
	expect(&st, 28, SD_BACKFILL, SD_KILLING, SD_A_BACKFILL_KILL);
	assert_int_equal(st.then, SD_OWNER);
	assert_true(sd_event_step(&s, SD_E_MATCH, &st));
	expect(&st, 28, SD_BACKFILL, SD_KILLING, SD_A_BACKFILL_KILL);
	assert_int_equal(st.then, SD_MATCHED);
	assert_true(sd_event_step(&s, SD_E_CLAIM, &st));
	assert_int_equal(st.then, SD_CLAIMED);
	assert_true(sd_event_step(&s, SD_E_VACATE, &st));
	assert_int_equal(st.then, SD_OWNER);

	/* killing: only the client's end moves it */
	s = backfill(SD_KILLING, SD_CLAIMED);
	assert_false(sd_policy_step(&s, NULL, ask, &q, &st));
	assert_false(sd_event_step(&s, SD_E_CLAIM, &st));
	assert_true(sd_event_step(&s, SD_E_BACKFILL_EXIT, &st));
	expect(&st, 29, SD_BACKFILL, SD_IDLE, SD_A_NONE);

	/* gone: where the slot was going */
	s = backfill(SD_IDLE, SD_OWNER);
	assert_true(sd_policy_step(&s, NULL, ask, &q, &st));
	expect(&st, 30, SD_OWNER, SD_IDLE, SD_A_NONE);
	s = backfill(SD_IDLE, SD_CLAIMED);
	assert_true(sd_policy_step(&s, NULL, ask, &q, &st));
	expect(&st, 31, SD_CLAIMED, SD_IDLE, SD_A_NONE);
	s = backfill(SD_IDLE, SD_MATCHED);
	assert_true(sd_policy_step(&s, NULL, ask, &q, &st));
	expect(&st, 32, SD_MATCHED, SD_IDLE, SD_A_NONE);
	/* with no client running, a claim or match goes straight there */
	s = backfill(SD_IDLE, SD_BACKFILL);
	assert_true(sd_event_step(&s, SD_E_CLAIM, &st));
	expect(&st, 31, SD_CLAIMED, SD_IDLE, SD_A_NONE);
	assert_true(sd_event_step(&s, SD_E_MATCH, &st));
	expect(&st, 32, SD_MATCHED, SD_IDLE, SD_A_NONE);
	/* backfill turned off: back to the owner */
	s.backfill_on = false;
	assert_true(sd_policy_step(&s, NULL, ask, &q, &st));
	expect(&st, 30, SD_OWNER, SD_IDLE, SD_A_NONE);
}

/* An idle claim past its CLAIM_WORKLIFE ends (10); a busy one does not. */
static void test_worklife(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	set(&p, SD_X_IS_OWNER, SD_FALSE);
	struct sd_timers t = {.worklife_over = true};
	struct sd_slot_state s = at(SD_CLAIMED, SD_IDLE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
	assert_string_equal(st.why,
			    "idle claim shutting down due to CLAIM_WORKLIFE");
	t.worklife_over = false;
	assert_false(sd_policy_step(&s, &t, ask, &p, &st));
	s = at(SD_CLAIMED, SD_BUSY);
	t.worklife_over = true;
	set(&p, SD_X_WANT_SUSPEND, SD_FALSE);
	set(&p, SD_X_PREEMPT, SD_FALSE);
	assert_false(sd_policy_step(&s, &t, ask, &p, &st));
}

/* A better claim: a busy claim retires (13), an idle one is preempted
 * (10); if the better claim goes, a claim retiring for it alone goes back
 * to work (19); one PREEMPT also retired does not. */
static void test_better_claim(void **state)
{
	(void)state;
	struct sd_step st;
	struct sd_slot_state s = at(SD_CLAIMED, SD_BUSY);
	s.starter = true;
	s.for_better = true;
	assert_true(sd_event_step(&s, SD_E_BETTER_CLAIM, &st));
	expect(&st, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE);
	s = at(SD_CLAIMED, SD_IDLE);
	s.for_better = true;
	assert_true(sd_event_step(&s, SD_E_BETTER_CLAIM, &st));
	expect(&st, 10, SD_PREEMPTING, SD_VACATING, SD_A_NONE);
	s = at(SD_CLAIMED, SD_RETIRING);
	s.retiring = true;
	assert_true(sd_event_step(&s, SD_E_PREEMPTOR_GONE, &st));
	expect(&st, 19, SD_CLAIMED, SD_BUSY, SD_A_NONE);
	s.preempt_was_true = true;
	assert_false(sd_event_step(&s, SD_E_PREEMPTOR_GONE, &st));
	s = at(SD_CLAIMED, SD_BUSY);
	assert_false(sd_event_step(&s, SD_E_PREEMPTOR_GONE, &st));
}

/* WANT_HOLD is asked where HTCondor asks it: entering Preempting with a
 * kill order for a running job, once PREEMPT has held in the claim. */
static void test_hold_asked(void **state)
{
	(void)state;
	struct sd_step st;
	struct policy p = {0};
	struct sd_timers t = {.retirement_over = true};
	struct sd_slot_state s = at(SD_CLAIMED, SD_RETIRING);
	s.starter = true;
	s.retiring = true;
	s.preempt_was_true = true;
	set(&p, SD_X_WANT_VACATE, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 18, SD_PREEMPTING, SD_VACATING, SD_A_SOFT_KILL);
	assert_true(sd_hold_asked(&s, &st));
	set(&p, SD_X_WANT_VACATE, SD_FALSE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	expect(&st, 18, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	assert_true(sd_hold_asked(&s, &st));
	/* and again from Vacating to Killing (21) */
	struct sd_slot_state v = at(SD_PREEMPTING, SD_VACATING);
	v.starter = true;
	v.preempt_was_true = true;
	set(&p, SD_X_KILL, SD_TRUE);
	assert_true(sd_policy_step(&v, &t, ask, &p, &st));
	expect(&st, 21, SD_PREEMPTING, SD_KILLING, SD_A_HARD_KILL);
	assert_true(sd_hold_asked(&v, &st));

	/* retirement over for a claim preempted for a better one alone */
	s.preempt_was_true = false;
	set(&p, SD_X_WANT_VACATE, SD_TRUE);
	assert_true(sd_policy_step(&s, &t, ask, &p, &st));
	assert_false(sd_hold_asked(&s, &st));
	/* condor_vacate, fast or not, a release, a lost lease: no hold
	 * unless PREEMPT had held */
	struct sd_slot_state b = at(SD_CLAIMED, SD_BUSY);
	b.starter = true;
	enum sd_event evs[] = {SD_E_VACATE, SD_E_VACATE_FAST, SD_E_RELEASE,
			       SD_E_LEASE_EXPIRED};
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		assert_true(sd_event_step(&b, evs[i], &st));
		assert_int_equal(st.state, SD_PREEMPTING);
		assert_false(sd_hold_asked(&b, &st));
	}
	b.activity = SD_RETIRING;
	b.preempt_was_true = true;
	assert_true(sd_event_step(&b, SD_E_VACATE, &st));
	assert_true(sd_hold_asked(&b, &st));
	/* no job: nothing to hold */
	struct sd_slot_state idle = at(SD_CLAIMED, SD_IDLE);
	idle.preempt_was_true = true;
	assert_true(sd_event_step(&idle, SD_E_RELEASE, &st));
	assert_false(sd_hold_asked(&idle, &st));
	/* a retiring job that ended on its own (18 without a kill) */
	b.starter = false;
	assert_true(sd_event_step(&b, SD_E_STARTER_EXIT, &st));
	assert_false(sd_hold_asked(&b, &st));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_asked),
		cmocka_unit_test(test_better_claim),
		cmocka_unit_test(test_worklife),
		cmocka_unit_test(test_backfill),
		cmocka_unit_test(test_shutdown),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_owner_unclaimed),
		cmocka_unit_test(test_matched),
		cmocka_unit_test(test_claimed_idle),
		cmocka_unit_test(test_desktop),
		cmocka_unit_test(test_nonsuspendable),
		cmocka_unit_test(test_claim_endings),
		cmocka_unit_test(test_drain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
