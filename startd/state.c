/* state.c: the slot state machine (sd_state.h). */
#include "sd_state.h"

#include <stdarg.h>
#include <stdio.h>

#include "ks_assert.h"

const char *sd_state_name(enum sd_state s)
{
	static const char *const names[] = {"Owner",      "Unclaimed",
					    "Matched",    "Claimed",
					    "Preempting", "Backfill",
					    "Drained"};
	return ALWAYS((unsigned)s < sizeof(names) / sizeof(*names)) ? names[s]
								      : "?";
}

const char *sd_activity_name(enum sd_activity a)
{
	static const char *const names[] = {"Idle",      "Benchmarking",
					    "Busy",      "Suspended",
					    "Retiring",  "Vacating",
					    "Killing"};
	return ALWAYS((unsigned)a < sizeof(names) / sizeof(*names)) ? names[a]
								      : "?";
}

const char *sd_expr_name(enum sd_expr x)
{
	static const char *const names[] = {
		"IS_OWNER", "START",   "RUNBENCHMARKS", "WANT_SUSPEND",
		"SUSPEND",  "CONTINUE", "PREEMPT",      "WANT_VACATE",
		"KILL",     "START_BACKFILL", "EVICT_BACKFILL"};
	return ALWAYS((unsigned)x < SD_X_COUNT) ? names[x] : "?";
}

static bool go(struct sd_step *out, int n, enum sd_state s,
	       enum sd_activity a, enum sd_action act, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static bool go(struct sd_step *out, int n, enum sd_state s,
	       enum sd_activity a, enum sd_action act, const char *fmt, ...)
{
	out->transition = n;
	out->state = s;
	out->activity = a;
	out->action = act;
	out->preempt_true = false;
	out->then = SD_BACKFILL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
	return true;
}

static const char *truth_word(enum sd_truth t)
{
	return t == SD_TRUE ? "true" : t == SD_FALSE ? "false" : "undefined";
}

/* Into Preempting: Vacating (a soft kill first), or straight to Killing
 * when PREEMPT has held and WANT_VACATE does not (as HTCondor decides
 * it: a claim preempted for another reason always gets its soft kill).
 * With no job there is nothing to kill. */
static bool preempt(const struct sd_slot_state *s, sd_ask_fn ask, void *arg,
		    struct sd_step *out, int n, const char *why)
{
	bool vacate = !s->preempt_was_true ||
		      ask(arg, SD_X_WANT_VACATE) == SD_TRUE;
	enum sd_action act = !s->starter ? SD_A_NONE
			     : vacate    ? SD_A_SOFT_KILL
					 : SD_A_HARD_KILL;
	return go(out, n, SD_PREEMPTING, vacate ? SD_VACATING : SD_KILLING,
		  act, "%s", why);
}

/* Suspension, from Busy (14) or Retiring (20), when WANT_SUSPEND and
 * SUSPEND both hold. */
static bool suspend(sd_ask_fn ask, void *arg, struct sd_step *out, int n)
{
	if (ask(arg, SD_X_WANT_SUSPEND) != SD_TRUE ||
	    ask(arg, SD_X_SUSPEND) != SD_TRUE)
		return false;
	return go(out, n, SD_CLAIMED, SD_SUSPENDED, SD_A_SUSPEND,
		  "SUSPEND became true");
}

/* Leaving Backfill: a busy client is killed first (28) and the slot goes
 * on to `then` once it is gone; with none running it goes at once (30,
 * 31, 32). */
static bool leave_backfill(const struct sd_slot_state *s, enum sd_state then,
			   struct sd_step *out, const char *why)
{
	if (s->activity == SD_BUSY) {
		go(out, 28, SD_BACKFILL, SD_KILLING, SD_A_BACKFILL_KILL, "%s",
		   why);
		out->then = then;
		return true;
	}
	if (s->activity != SD_IDLE)
		return false;
	if (then == SD_CLAIMED)
		return go(out, 31, SD_CLAIMED, SD_IDLE, SD_A_NONE, "%s", why);
	if (then == SD_MATCHED)
		return go(out, 32, SD_MATCHED, SD_IDLE, SD_A_NONE, "%s", why);
	return go(out, 30, SD_OWNER, SD_IDLE, SD_A_NONE, "%s", why);
}

static bool backfill_step(const struct sd_slot_state *s, sd_ask_fn ask,
			  void *arg, struct sd_step *out)
{
	if (s->activity == SD_IDLE && s->backfill_then != SD_BACKFILL)
		return leave_backfill(s, s->backfill_then, out,
				      "the backfill client is gone");
	if (!s->backfill_on)
		return leave_backfill(s, SD_OWNER, out,
				      "backfill is not enabled");
	if (s->activity != SD_KILLING &&
	    ask(arg, SD_X_EVICT_BACKFILL) == SD_TRUE)
		return leave_backfill(s, SD_OWNER, out,
				      "EVICT_BACKFILL became true");
	return false;
}

static bool by_preempt(bool made, struct sd_step *out)
{
	out->preempt_true = made;
	return made;
}

static bool claimed_step(const struct sd_slot_state *s,
			 const struct sd_timers *t, sd_ask_fn ask, void *arg,
			 struct sd_step *out)
{
	switch (s->activity) {
	case SD_IDLE:
		/* IS_OWNER rather than START: without a job START may be
		 * false for reasons that say nothing about the owner */
		if (ask(arg, SD_X_IS_OWNER) == SD_TRUE)
			return preempt(s, ask, arg, out, 10,
				       "IS_OWNER became true");
		if (t && t->worklife_over)
			return preempt(s, ask, arg, out, 10,
				       "idle claim shutting down due to "
				       "CLAIM_WORKLIFE");
		return false;
	case SD_BUSY:
		/* WANT_SUSPEND picks which of SUSPEND and PREEMPT is
		 * looked at */
		if (ask(arg, SD_X_WANT_SUSPEND) == SD_TRUE)
			return suspend(ask, arg, out, 14);
		if (ask(arg, SD_X_PREEMPT) == SD_TRUE)
			return by_preempt(go(out, 13, SD_CLAIMED, SD_RETIRING,
					     SD_A_NONE, "PREEMPT became true"),
					  out);
		return false;
	case SD_RETIRING:
		/* the end of retirement comes before a suspension, as in
		 * HTCondor */
		if (t && t->retirement_over)
			return preempt(s, ask, arg, out, 18,
				       "retirement time is up");
		return suspend(ask, arg, out, 20);
	case SD_SUSPENDED:
		if (s->retiring && t && t->retirement_over)
			return preempt(s, ask, arg, out, 17,
				       "retirement time is up while suspended");
		if (ask(arg, SD_X_CONTINUE) == SD_TRUE)
			return go(out, s->retiring ? 16 : 15, SD_CLAIMED,
				  s->retiring ? SD_RETIRING : SD_BUSY,
				  SD_A_CONTINUE, "CONTINUE became true");
		if (!s->retiring && ask(arg, SD_X_PREEMPT) == SD_TRUE)
			return by_preempt(go(out, 16, SD_CLAIMED, SD_RETIRING,
					     SD_A_CONTINUE,
					     "PREEMPT became true"),
					  out);
		return false;
	default:
		return false;
	}
}

/* Out of Preempting once the starter is gone: back to the owner, or to
 * the better claim that preempted this one. */
static bool preempting_done(const struct sd_slot_state *s, struct sd_step *out)
{
	bool vac = s->activity == SD_VACATING;
	if (s->for_better)
		return go(out, vac ? 23 : 24, SD_CLAIMED, SD_IDLE,
			  SD_A_END_CLAIM, "the job is gone; the better claim "
					  "takes the slot");
	return go(out, vac ? 22 : 25, SD_OWNER, SD_IDLE, SD_A_END_CLAIM,
		  "the job is gone");
}

bool sd_policy_step(const struct sd_slot_state *s, const struct sd_timers *t,
		    sd_ask_fn ask, void *arg, struct sd_step *out)
{
	enum sd_truth v;
	switch (s->state) {
	case SD_OWNER:
		v = ask(arg, SD_X_IS_OWNER);
		if (v != SD_TRUE)
			return go(out, 1, SD_UNCLAIMED, SD_IDLE, SD_A_NONE,
				  "IS_OWNER is %s", truth_word(v));
		return false;
	case SD_UNCLAIMED:
		if (s->activity != SD_IDLE)
			return false;
		if (ask(arg, SD_X_IS_OWNER) == SD_TRUE)
			return go(out, 2, SD_OWNER, SD_IDLE, SD_A_NONE,
				  "IS_OWNER became true");
		if (!s->left_benchmarking &&
		    ask(arg, SD_X_RUNBENCHMARKS) == SD_TRUE)
			return go(out, 3, SD_UNCLAIMED, SD_BENCHMARKING,
				  SD_A_BENCHMARK, "RUNBENCHMARKS became true");
		if (s->backfill_on && ask(arg, SD_X_START_BACKFILL) == SD_TRUE)
			return go(out, 7, SD_BACKFILL, SD_IDLE,
				  SD_A_BACKFILL_START,
				  "START_BACKFILL became true");
		return false;
	case SD_BACKFILL:
		return backfill_step(s, ask, arg, out);
	case SD_MATCHED:
		if (ask(arg, SD_X_START) == SD_FALSE)
			return go(out, 8, SD_OWNER, SD_IDLE, SD_A_NONE,
				  "START became false");
		return false;
	case SD_CLAIMED:
		return claimed_step(s, t, ask, arg, out);
	case SD_PREEMPTING:
		if (!s->starter)
			return preempting_done(s, out);
		if (s->activity == SD_VACATING) {
			if (ask(arg, SD_X_KILL) == SD_TRUE)
				return go(out, 21, SD_PREEMPTING, SD_KILLING,
					  SD_A_HARD_KILL, "KILL became true");
			if (t && t->vacate_over)
				return go(out, 21, SD_PREEMPTING, SD_KILLING,
					  SD_A_HARD_KILL,
					  "the vacate time is up");
		}
		return false;
	default:
		return false;
	}
}

bool sd_hold_asked(const struct sd_slot_state *s, const struct sd_step *st)
{
	return st->state == SD_PREEMPTING &&
	       (st->activity == SD_VACATING || st->activity == SD_KILLING) &&
	       (st->action == SD_A_SOFT_KILL ||
		st->action == SD_A_HARD_KILL) &&
	       s->starter && (s->preempt_was_true || st->preempt_true);
}

static enum sd_truth always_vacate(void *arg, enum sd_expr x)
{
	(void)arg;
	return x == SD_X_WANT_VACATE ? SD_TRUE : SD_FALSE;
}

static enum sd_truth never_vacate(void *arg, enum sd_expr x)
{
	(void)arg;
	(void)x;
	return SD_FALSE;
}

bool sd_event_step(const struct sd_slot_state *s, enum sd_event ev,
		   struct sd_step *out)
{
	bool claimed = s->state == SD_CLAIMED;
	switch (ev) {
	case SD_E_MATCH:
		if (s->state == SD_UNCLAIMED)
			return go(out, 6, SD_MATCHED, SD_IDLE, SD_A_NONE,
				  "matched by the negotiator");
		if (s->state == SD_BACKFILL)
			return leave_backfill(s, SD_MATCHED, out,
					      "matched by the negotiator");
		return false;
	case SD_E_MATCH_TIMEOUT:
		if (s->state == SD_MATCHED)
			return go(out, 8, SD_OWNER, SD_IDLE, SD_A_NONE,
				  "not claimed within MATCH_TIMEOUT");
		return false;
	case SD_E_CLAIM:
		if (s->state == SD_UNCLAIMED)
			return go(out, 5, SD_CLAIMED, SD_IDLE, SD_A_NONE,
				  "claimed");
		if (s->state == SD_MATCHED)
			return go(out, 9, SD_CLAIMED, SD_IDLE, SD_A_NONE,
				  "claimed");
		if (s->state == SD_BACKFILL)
			return leave_backfill(s, SD_CLAIMED, out, "claimed");
		return false;
	case SD_E_ACTIVATE:
		if (claimed && s->activity == SD_IDLE)
			return go(out, 11, SD_CLAIMED, SD_BUSY, SD_A_NONE,
				  "a job was started");
		return false;
	case SD_E_STARTER_EXIT:
		if (claimed && (s->activity == SD_BUSY ||
				s->activity == SD_SUSPENDED))
			return go(out, 12, SD_CLAIMED, SD_IDLE, SD_A_NONE,
				  "the job has ended");
		if (claimed && s->activity == SD_RETIRING)
			return go(out, 18, SD_PREEMPTING, SD_VACATING,
				  SD_A_NONE, "the retiring job has ended");
		if (s->state == SD_PREEMPTING)
			return preempting_done(s, out);
		return false;
	case SD_E_BENCH_DONE:
		if (s->state == SD_UNCLAIMED && s->activity == SD_BENCHMARKING)
			return go(out, 4, SD_UNCLAIMED, SD_IDLE, SD_A_NONE,
				  "the benchmarks are done");
		return false;
	case SD_E_RELEASE:
	case SD_E_VACATE:
	case SD_E_LEASE_EXPIRED:
	case SD_E_VACATE_FAST: {
		const char *why = ev == SD_E_RELEASE	    ? "the claim was released"
				  : ev == SD_E_LEASE_EXPIRED ? "the claim lease expired"
				  : ev == SD_E_VACATE	    ? "condor_vacate"
							    : "condor_vacate -fast";
		if (s->state == SD_MATCHED)
			return go(out, 8, SD_OWNER, SD_IDLE, SD_A_NONE, "%s",
				  why);
		if (s->state == SD_BACKFILL &&
		    (ev == SD_E_VACATE || ev == SD_E_VACATE_FAST))
			return leave_backfill(s, SD_OWNER, out, why);
		if (!claimed)
			return false;
		/* a graceful end gives the job its soft kill; a lost lease
		 * or a fast vacate does not wait */
		bool soft = ev == SD_E_RELEASE || ev == SD_E_VACATE;
		struct sd_slot_state hard = *s;
		hard.preempt_was_true = true;
		return preempt(soft ? s : &hard,
			       soft ? always_vacate : never_vacate, NULL, out,
			       10, why);
	}
	case SD_E_DRAIN:
		if (s->state == SD_OWNER)
			return go(out, 36, SD_DRAINED, SD_RETIRING, SD_A_NONE,
				  "draining");
		if (s->state == SD_UNCLAIMED)
			return go(out, 37, SD_DRAINED, SD_RETIRING, SD_A_NONE,
				  "draining");
		if (claimed && s->activity == SD_BUSY)
			return go(out, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE,
				  "draining");
		return false;
	case SD_E_DRAINED:
		if (s->state == SD_DRAINED && s->activity == SD_RETIRING)
			return go(out, 33, SD_DRAINED, SD_IDLE, SD_A_NONE,
				  "every slot is drained");
		return false;
	case SD_E_SHUTDOWN:
		if (claimed && s->activity == SD_BUSY)
			return go(out, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE,
				  "the startd is shutting down");
		if (claimed && s->activity == SD_IDLE)
			return preempt(s, always_vacate, NULL, out, 10,
				       "the startd is shutting down");
		if (s->state == SD_MATCHED)
			return go(out, 8, SD_OWNER, SD_IDLE, SD_A_NONE,
				  "the startd is shutting down");
		if (s->state == SD_BACKFILL)
			return leave_backfill(s, SD_OWNER, out,
					      "the startd is shutting down");
		return false;
	case SD_E_BETTER_CLAIM:
		if (claimed && s->activity == SD_BUSY)
			return go(out, 13, SD_CLAIMED, SD_RETIRING, SD_A_NONE,
				  "a better claim preempts this one");
		if (claimed && s->activity == SD_IDLE)
			return preempt(s, always_vacate, NULL, out, 10,
				       "a better claim preempts this one");
		return false;
	case SD_E_PREEMPTOR_GONE:
		/* only a claim that retires for the better claim alone */
		if (claimed && s->activity == SD_RETIRING &&
		    !s->preempt_was_true)
			return go(out, 19, SD_CLAIMED, SD_BUSY, SD_A_NONE,
				  "the preempting claim went away");
		return false;
	case SD_E_BACKFILL_STARTED:
		if (s->state == SD_BACKFILL && s->activity == SD_IDLE &&
		    s->backfill_then == SD_BACKFILL)
			return go(out, 26, SD_BACKFILL, SD_BUSY, SD_A_NONE,
				  "the backfill client is running");
		return false;
	case SD_E_BACKFILL_EXIT:
		if (s->state == SD_BACKFILL && s->activity == SD_KILLING)
			return go(out, 29, SD_BACKFILL, SD_IDLE, SD_A_NONE,
				  "the backfill client is gone");
		/* on its own: it is started again */
		if (s->state == SD_BACKFILL && s->activity == SD_BUSY)
			return go(out, 27, SD_BACKFILL, SD_IDLE,
				  SD_A_BACKFILL_START,
				  "the backfill client exited");
		return false;
	case SD_E_DRAIN_END:
		if (s->state == SD_DRAINED)
			return go(out, s->activity == SD_RETIRING ? 34 : 35,
				  SD_OWNER, SD_IDLE, SD_A_NONE,
				  "draining has ended");
		return false;
	}
	return false;
}
