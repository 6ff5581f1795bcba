/* slot.c: a slot's policy and transitions (sd_slot.h). */
#include "sd_slot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_daemon.h"
#include "ks_mem.h"

/* The configuration's policy knobs and the attributes they become, as
 * HTCondor's startd publishes them; a default fills in an undefined one
 * that the policy needs. */
static const struct {
	const char *knob, *attr, *def;
} policy_attrs[SD_POLICY_ATTRS] = {
	{"START", "START", "true"},
	{"SUSPEND", "SUSPEND", "false"},
	{"CONTINUE", "CONTINUE", "true"},
	{"PREEMPT", "PREEMPT", "false"},
	{"KILL", "KILL", "false"},
	{"WANT_SUSPEND", "WANT_SUSPEND", "false"},
	{"WANT_VACATE", "WANT_VACATE", "true"},
	{"WANT_HOLD", "WANT_HOLD", "false"},
	{"WANT_HOLD_REASON", "WANT_HOLD_REASON", NULL},
	{"WANT_HOLD_SUBCODE", "WANT_HOLD_SUBCODE", NULL},
	{"CLAIM_WORKLIFE", "CLAIM_WORKLIFE", NULL},
	{"MAXJOBRETIREMENTTIME", "MaxJobRetirementTime", NULL},
	{"MachineMaxVacateTime", "MachineMaxVacateTime", NULL},
	{"PERIODIC_CHECKPOINT", "PERIODIC_CHECKPOINT", NULL},
	{"RunBenchmarks", "RunBenchmarks", NULL},
	{"RANK", "Rank", "0.0"},
	{"SUSPEND_VANILLA", "SUSPEND_VANILLA", NULL},
	{"CONTINUE_VANILLA", "CONTINUE_VANILLA", NULL},
	{"PREEMPT_VANILLA", "PREEMPT_VANILLA", NULL},
	{"KILL_VANILLA", "KILL_VANILLA", NULL},
	{"WANT_SUSPEND_VANILLA", "WANT_SUSPEND_VANILLA", NULL},
	{"WANT_VACATE_VANILLA", "WANT_VACATE_VANILLA", NULL},
	{"SLOT_WEIGHT", "SlotWeight", "Cpus"},
	{"IS_OWNER", "IsOwner", "(START =?= false)"},
	{"CpuBusy", "CpuBusy", NULL},
	{"START_BACKFILL", "START_BACKFILL", NULL},
	{"EVICT_BACKFILL", "EVICT_BACKFILL", NULL},
};

/* A policy knob that cannot be read (its value does not expand: a
 * reference loop, a bad $INT()) or does not parse is never replaced by
 * its default, which may allow more than the configuration meant.  START
 * becomes error, as HTCondor publishes a START that does not parse: the
 * slot's Requirements is then error, no job matches it and the startd
 * takes no claim.  The others are left out, as HTCondor leaves out one
 * that does not parse, and read as undefined. */
static void unusable(struct sd_slot *s, int i, ks_log *log, const char *what)
{
	bool start = strcmp(policy_attrs[i].knob, "START") == 0;
	if (start)
		s->policy[i] = classad_parse_expr("error", 5, NULL);
	ks_log_printf(log, KS_D_ALWAYS, "%s: %s %s; %s", s->short_name,
		      policy_attrs[i].knob, what,
		      start ? "START is error, so no job starts on this slot "
			      "until the configuration is mended"
			    : "it is left out, and reads as undefined");
}

void sd_slot_configure(struct sd_slot *s, const ks_config *cfg, ks_log *log)
{
	for (int i = 0; i < SD_POLICY_ATTRS; i++) {
		classad_expr_free(s->policy[i]);
		s->policy[i] = NULL;
		const char *knob = policy_attrs[i].knob;
		struct ks_err err = {0};
		char what[600];
		char *text = ks_config_get_slot(cfg, knob, s->id, s->type, &err);
		if (!text && err.code) {
			snprintf(what, sizeof(what), "cannot be read: %s",
				 err.msg);
			unusable(s, i, log, what);
			continue;
		}
		if (!text && policy_attrs[i].def)
			text = ks_xstrdup(policy_attrs[i].def);
		if (!text)
			continue;
		s->policy[i] = classad_parse_expr(text, strlen(text), &err);
		if (!s->policy[i]) {
			snprintf(what, sizeof(what), "= %.300s does not parse (%s)",
				 text, err.msg);
			unusable(s, i, log, what);
		}
		free(text);
	}
	char *user = ks_config_get(cfg, "STARTD_LATCH_EXPRS", NULL);
	char *sys = ks_config_get(cfg, "SYSTEM_STARTD_LATCH_EXPRS", NULL);
	sd_latches_configure(&s->latches, user, sys);
	free(user);
	free(sys);
}

void sd_slot_policy_attrs(const struct sd_slot *s, classad *ad)
{
	for (int i = 0; i < SD_POLICY_ATTRS; i++)
		if (s->policy[i])
			classad_insert(ad, policy_attrs[i].attr,
				       classad_expr_ref(s->policy[i]));
}

/* The attribute each expression of the state machine is read from. */
static const char *expr_attr(enum sd_expr x)
{
	switch (x) {
	case SD_X_IS_OWNER: return "IsOwner";
	case SD_X_RUNBENCHMARKS: return "RunBenchmarks";
	default: return sd_expr_name(x);
	}
}

enum sd_truth sd_slot_eval(const struct sd_slot *s, const classad *ad,
			   enum sd_expr x)
{
	const char *attr = expr_attr(x);
	const classad_expr *e = NULL;
	int64_t universe = 0;
	if (s->job && classad_eval_int(s->job, "JobUniverse", NULL, &universe) &&
	    universe == 5) {
		char vanilla[64];
		snprintf(vanilla, sizeof(vanilla), "%s_VANILLA", attr);
		e = classad_lookup(ad, vanilla);
	}
	if (!e)
		e = classad_lookup(ad, attr);
	if (!e)
		return SD_UNDEF;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr_in_match(ad, s->job, e, NULL, &v);
	bool b = false;
	bool known = classad_value_bool(&v, &b);
	classad_value_clear(&v);
	return !known ? SD_UNDEF : b ? SD_TRUE : SD_FALSE;
}

void sd_slot_apply(struct sd_slot *s, const struct sd_step *step,
		   int64_t now, ks_log *log)
{
	ks_log_printf(log, KS_D_ALWAYS, "%s: transition %d %s/%s -> %s/%s: %s",
		      s->short_name, step->transition,
		      sd_state_name(s->st.state),
		      sd_activity_name(s->st.activity),
		      sd_state_name(step->state),
		      sd_activity_name(step->activity), step->why);
	if (step->state != s->st.state) {
		s->entered_state = now;
		s->st.backfill_then = SD_BACKFILL;
	}
	if (step->action == SD_A_BACKFILL_KILL)
		s->st.backfill_then = step->then;
	s->entered_activity = now;
	s->st.left_benchmarking = s->st.activity == SD_BENCHMARKING;
	s->st.state = step->state;
	s->st.activity = step->activity;
	if (step->activity == SD_RETIRING && step->state == SD_CLAIMED)
		s->st.retiring = true;
	if (step->transition == 19) /* unretired */
		s->st.retiring = s->st.for_better = false;
	if (step->preempt_true)
		s->st.preempt_was_true = true;
	if (step->state != SD_CLAIMED && step->state != SD_PREEMPTING) {
		s->st.retiring = false;
		s->st.for_better = false;
		s->st.preempt_was_true = false;
	}
}

void sd_slot_clear(struct sd_slot *s)
{
	for (int i = 0; i < SD_POLICY_ATTRS; i++)
		classad_expr_free(s->policy[i]);
	sd_latches_clear(&s->latches);
	classad_free(s->job);
	free(s->claim.client);
	free(s->claim.client_host);
	classad_free(s->claim.result);
	ks_xfer_set_free(&s->claim.outputs);
	free(s->claim.input_dir);
	free(s->claim.output_dir);
	free(s->claim.result_file);
	ks_later_cancel(s->claim.later); /* a startd ending with a job on */
	ks_later_cancel(s->pre.later);
	sd_pslot_preempt_free(s);
	free(s->pre.client);
	free(s->pre.client_host);
	classad_free(s->pre.job);
	/* what is left of a partitionable slot has as many resources as
	 * its spec: counted before the spec goes */
	struct sd_slot_spec left = {.res = s->left_res, .nres = s->spec.nres};
	if (s->left_res)
		sd_slot_spec_clear(&left);
	sd_slot_spec_clear(&s->spec);
	free(s->name);
	free(s->short_name);
	memset(s, 0, sizeof(*s));
}
