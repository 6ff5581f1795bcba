/* ad.c: the slot ads (sd_ad.h). */
#include "sd_ad.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "ks_proc.h"
#include "sd_startd.h"

static int64_t knob_int(const ks_config *cfg, const char *name, int64_t def)
{
	int64_t v;
	return ks_config_int(cfg, name, &v) ? v : def;
}

/* Every name in a list of STARTD_ATTRS style (commas or spaces), each
 * given to fn. */
static void each_name(const char *list, void (*fn)(const char *name, void *arg),
		      void *arg)
{
	if (!list)
		return;
	char *copy = ks_xstrdup(list);
	for (char *cur = copy, *t; (t = ks_list_cut(&cur));)
		fn(t, arg);
	free(copy);
}

struct attr_ctx {
	const struct sd_host *h;
	const struct sd_slot *s;
	classad *ad;
};

/* One STARTD_ATTRS name: its value for this slot (SLOT<N>_name first),
 * an expression inserted as it is. */
static void add_startd_attr(const char *name, void *arg)
{
	struct attr_ctx *c = arg;
	char *text = ks_config_get_slot(c->h->cfg, name, c->s->id, c->s->type,
					NULL);
	if (!text)
		return;
	if (classad_insert_text(c->ad, name, text, NULL) != 0)
		classad_insert_string(c->ad, name, text);
	free(text);
}

/* A slot knob (SLOT<N>_, SLOT_TYPE_<T>_ forms first) inserted as an
 * expression under attr; def when the knob is not set or does not parse. */
static void slot_expr(const struct sd_host *h, const struct sd_slot *s,
		      const char *knob, const char *attr, const char *def,
		      classad *ad)
{
	char *text = ks_config_get_slot(h->cfg, knob, s->id, s->type, NULL);
	if (!text || classad_insert_text(ad, attr, text, NULL) != 0)
		classad_insert_text(ad, attr, def, NULL);
	free(text);
}

/* With CONSUMPTION_POLICY on a partitionable slot's type, it and its
 * dynamic slots advertise Consumption<resource> for each resource but
 * swap: what a match takes from the slot (CONSUMPTION_<RESOURCE>, else
 * the job's Request<resource>, or 0), as HTCondor does.  (SlotWeight is a
 * policy attribute: sd_slot_policy_attrs().) */
static void add_consumption(const struct sd_host *h, const struct sd_slot *s,
			    classad *ad)
{
	if (!s->spec.partitionable && !s->parent)
		return;
	char *cp = ks_config_get_slot(h->cfg, "CONSUMPTION_POLICY", s->id,
				      s->type, NULL);
	classad_expr *e = cp ? classad_parse_expr(cp, strlen(cp), NULL) : NULL;
	classad_value v = CLASSAD_VALUE_INIT;
	bool on = false;
	if (e) {
		classad_eval_expr(NULL, e, NULL, &v);
		classad_value_bool(&v, &on);
		classad_value_clear(&v);
	}
	classad_expr_free(e);
	free(cp);
	if (!on)
		return;
	char *res = NULL;
	classad_eval_string(ad, "MachineResources", NULL, &res);
	size_t pos = 0, n;
	for (const char *p; (p = ks_list_next(res, &pos, &n));) {
		char name[128], knob[160], attr[160], def[400];
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (strcasecmp(name, "Swap") == 0)
			continue;
		snprintf(knob, sizeof(knob), "CONSUMPTION_%s", name);
		snprintf(attr, sizeof(attr), "Consumption%s", name);
		snprintf(def, sizeof(def),
			 "ifthenelse(target.Request%s =?= undefined, 0, "
			 "target.Request%s)", name, name);
		slot_expr(h, s, knob, attr, def, ad);
	}
	free(res);
}

static void add_startd_attrs(const struct sd_host *h, const struct sd_slot *s,
			     classad *ad)
{
	struct attr_ctx c = {h, s, ad};
	static const char *const lists[] = {"STARTD_ATTRS", "STARTD_EXPRS"};
	for (size_t i = 0; i < 2; i++) {
		char *all = ks_config_get(h->cfg, lists[i], NULL);
		each_name(all, add_startd_attr, &c);
		free(all);
		char knob[64];
		snprintf(knob, sizeof(knob), "SLOT%d_%s", s->id, lists[i]);
		char *own = ks_config_get(h->cfg, knob, NULL);
		each_name(own, add_startd_attr, &c);
		free(own);
	}
	/* a latched name is published as STARTD_ATTRS are, as HTCondor
	 * does, for the startd to evaluate it in the ad */
	static const char *const latched[] = {"STARTD_LATCH_EXPRS",
					      "SYSTEM_STARTD_LATCH_EXPRS"};
	for (size_t i = 0; i < 2; i++) {
		char *all = ks_config_get(h->cfg, latched[i], NULL);
		each_name(all, add_startd_attr, &c);
		free(all);
	}
}

/* KeyboardIdle and ConsoleIdle: a slot not connected to the console or
 * the keyboard (SLOTS_CONNECTED_TO_*) reports the time since the startd
 * began, plus DISCONNECTED_KEYBOARD_IDLE_BOOST. */
static void add_idle(const struct sd_host *h, const struct sd_slot *s,
		     classad *ad)
{
	int64_t console = knob_int(h->cfg, "SLOTS_CONNECTED_TO_CONSOLE", 0);
	int64_t keyboard = knob_int(h->cfg, "SLOTS_CONNECTED_TO_KEYBOARD", 0);
	int64_t boost = knob_int(h->cfg, "DISCONNECTED_KEYBOARD_IDLE_BOOST",
				 1200);
	int64_t away = h->now - h->start_time + boost;
	classad_insert_int(ad, "ConsoleIdle",
			   s->id <= console ? h->idle.console : away);
	classad_insert_int(ad, "KeyboardIdle",
			   s->id <= keyboard || s->id <= console
				   ? h->idle.keyboard
				   : away);
}

/* The host's load not due to jobs goes to the slots in order, up to one
 * per CPU of each, as HTCondor shares it out; each slot adds its job's
 * own (CondorLoadAvg). */
static double owner_share(const struct sd_slot *s, double *owner_left)
{
	double cpus = s->spec.cpus > 0 ? s->spec.cpus : 1;
	double mine = *owner_left < cpus ? *owner_left : cpus;
	*owner_left -= mine;
	return mine;
}

static void add_load(const struct sd_host *h, const struct sd_slot *s,
		     double *owner_left, classad *ad)
{
	double mine = owner_share(s, owner_left);
	double job = s->claim.load;
	classad_insert_real(ad, "LoadAvg", mine + job);
	classad_insert_real(ad, "CondorLoadAvg", job);
	classad_insert_real(ad, "TotalLoadAvg", h->load);
	classad_insert_real(ad, "TotalCondorLoadAvg", h->condor_load);
}

/* A process's parent and session from /proc; false once it is gone. */
static bool proc_ids(long pid, long *ppid, long *sid)
{
	struct ks_proc_stat st;
	if (ks_proc_stat(pid, &st))
		return false;
	*ppid = st.ppid;
	*sid = st.session;
	return true;
}

/* The job's pid: the child of the starter that leads its own session,
 * since the starter starts the job in a new one; 0 until there is one.
 * HTCondor's startd learns JobPid from its starter; kestrel's starter
 * reports only at the end, so the startd looks for itself.  The kernel's
 * list of the starter's children answers in one read; without it, every
 * process is looked at. */
static long job_pid(pid_t starter)
{
	char path[96];
	long child, ppid, sid, found = 0;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
		 (long)starter, (long)starter);
	FILE *f = fopen(path, "re");
	if (f) {
		while (!found && fscanf(f, "%ld", &child) == 1)
			if (proc_ids(child, &ppid, &sid) && sid == child)
				found = child;
		fclose(f);
		return found;
	}
	DIR *dir = opendir("/proc");
	struct dirent *de;
	while (dir && !found && (de = readdir(dir))) {
		child = atol(de->d_name);
		if (child > 0 && proc_ids(child, &ppid, &sid) &&
		    ppid == (long)starter && sid == child)
			found = child;
	}
	if (dir)
		closedir(dir);
	return found;
}

/* What condor_who shows of a running job, as HTCondor's slot ads carry
 * it: the starter's and the job's pids, and the time the job has run
 * and been suspended on this activation. */
static void add_job_attrs(const struct sd_host *h, struct sd_slot *s,
			  classad *ad)
{
	struct sd_claim *c = &s->claim;
	if (!s->job || !c->starter || !c->job_start ||
	    (s->st.state != SD_CLAIMED && s->st.state != SD_PREEMPTING))
		return;
	classad_insert_int(ad, "StarterPid", c->starter);
	/* looked for until found: it stays for the activation */
	if (!c->job_pid)
		c->job_pid = (pid_t)job_pid(c->starter);
	if (c->job_pid > 0)
		classad_insert_int(ad, "JobPid", c->job_pid);
	int64_t susp = c->suspended_total +
		       (c->suspended_at ? h->now - c->suspended_at : 0);
	int64_t run = h->now - c->job_start - susp;
	/* HTCondor publishes each only once it is more than zero */
	if (run > 0)
		classad_insert_int(ad, "TotalJobRunTime", run);
	if (susp > 0)
		classad_insert_int(ad, "TotalJobSuspendTime", susp);
}

static classad *base_ad(const struct sd_host *h, struct sd_slot *s,
			double *owner_left)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "MyType", "Machine");
	classad_insert_string(ad, "TargetType", "Job");
	classad_insert_string(ad, "Name", s->name);
	classad_insert_string(ad, "Machine", h->hostname);
	classad_insert_int(ad, "SlotID", s->id);
	classad_insert_int(ad, "SlotTypeID", s->type);
	sd_layout_slot_attrs(h->machine, &s->spec, ad);
	if (s->spec.partitionable) {
		sd_dslot_left_attrs(s, ad);
	} else if (s->parent) {
		classad_insert_string(ad, "SlotType", "Dynamic");
		classad_insert_bool(ad, "DynamicSlot", true);
		classad_insert_int(ad, "DSlotId", s->sub);
	}
	classad_insert_string(ad, "State", sd_state_name(s->st.state));
	classad_insert_string(ad, "Activity", sd_activity_name(s->st.activity));
	classad_insert_int(ad, "EnteredCurrentState", s->entered_state);
	classad_insert_int(ad, "EnteredCurrentActivity", s->entered_activity);
	classad_insert_int(ad, "MyCurrentTime", h->now);
	classad_insert_int(ad, "TotalSlots", (int64_t)h->nslots);
	sd_platform_attrs(h->platform, ad);
	add_load(h, s, owner_left, ad);
	add_idle(h, s, ad);
	sd_clock_attrs(h->now, ad);
	classad_insert_int(ad, "LastBenchmark", h->last_benchmark);
	char *fs = ks_config_get(h->cfg, "FILESYSTEM_DOMAIN", NULL);
	char *uid = ks_config_get(h->cfg, "UID_DOMAIN", NULL);
	classad_insert_string(ad, "FileSystemDomain", fs ? fs : h->hostname);
	classad_insert_string(ad, "UidDomain", uid ? uid : h->hostname);
	free(fs);
	free(uid);
	classad_insert_string(ad, "StartdIpAddr", h->sinful);
	classad_insert_bool(ad, "HasFileTransfer", true);

	/* the policy; Requirements says false while the slot must not be
	 * matched again (Matched, Preempting) */
	sd_slot_policy_attrs(s, ad);
	if (h->drain)
		sd_drain_attrs(h->drain, ad);
	bool closed = s->st.state == SD_MATCHED || s->st.state == SD_PREEMPTING;
	classad_insert_text(ad, "Requirements", closed ? "false" : "START",
			    NULL);
	classad_insert_real(ad, "CurrentRank", 0.0);
	/* the negotiator leaves a slot whose job still has retirement time
	 * alone unless NEGOTIATOR_CONSIDER_EARLY_PREEMPTION */
	int64_t retire = s->st.state == SD_CLAIMED ||
				 s->st.state == SD_PREEMPTING
			     ? sd_claim_retirement(s, ad, h->now,
						   h->endless_retirement)
			     : 0;
	classad_insert_int(ad, "RetirementTimeRemaining", retire);
	sd_claim_attrs(s, ad);
	add_job_attrs(h, s, ad);
	add_consumption(h, s, ad);
	add_startd_attrs(h, s, ad);
	sd_latches_publish(&s->latches, ad, h->now);
	if (h->extras)
		classad_update(ad, h->extras);
	/* what cron jobs publish comes last: a script can stand in for the
	 * machine's own figures (KeyboardIdle, LoadAvg), as HTCondor's
	 * tests simulate an owner */
	if (h->bench)
		sd_cron_publish(h->bench, s->id, ad);
	if (h->cron)
		sd_cron_publish(h->cron, s->id, ad);
	return ad;
}

struct slot_attr_ctx {
	struct sd_slot *const *slots;
	classad **ads;
	size_t n;
	bool values;     /* STARTD_EVAL_SLOT_ATTRS: values, not expressions */
	bool undefined;  /* STARTD_EVAL_SLOT_ATTRS_DEBUG: undefined ones too */
};

/* One STARTD_SLOT_ATTRS name: <slot>_<name> in every ad (slot1_State,
 * slot1_1_State for a dynamic slot), name's expression in that slot's
 * ad, as HTCondor copies it; or with STARTD_EVAL_SLOT_ATTRS its value
 * there (an error, or undefined, left out). */
static void add_cross_attr(const char *name, void *arg)
{
	struct slot_attr_ctx *c = arg;
	for (size_t j = 0; j < c->n; j++) {
		const classad_expr *e = classad_lookup(c->ads[j], name);
		if (!e)
			continue;
		char key[256];
		snprintf(key, sizeof(key), "%s_%s", c->slots[j]->short_name,
			 name);
		classad_value v = CLASSAD_VALUE_INIT;
		if (c->values) {
			classad_eval_expr(c->ads[j], e, NULL, &v);
			bool skip = v.type == CLASSAD_ERROR ||
				    (v.type == CLASSAD_UNDEFINED &&
				     !c->undefined);
			for (size_t i = 0; i < c->n && !skip; i++)
				classad_insert_value(c->ads[i], key, &v);
			classad_value_clear(&v);
			continue;
		}
		for (size_t i = 0; i < c->n; i++)
			classad_insert(c->ads[i], key, classad_expr_ref(e));
	}
}

static const char *const cross_lists[] = {"STARTD_SLOT_ATTRS",
					  "STARTD_SLOT_EXPRS"};

bool sd_slot_ads_linked(const ks_config *cfg)
{
	bool linked = false;
	for (size_t k = 0; k < 2 && !linked; k++) {
		char *v = ks_config_get(cfg, cross_lists[k], NULL);
		linked = v && *v;
		free(v);
	}
	return linked;
}

void sd_slot_ads(const struct sd_host *h, struct sd_slot *const *slots,
		 classad **ads, const bool *want)
{
	char *names[2];
	for (size_t k = 0; k < 2; k++)
		names[k] = ks_config_get(h->cfg, cross_lists[k], NULL);
	/* cross-slot attributes need every ad */
	bool every = !want || names[0] || names[1];
	double owner_left = h->load > h->condor_load
				    ? h->load - h->condor_load
				    : 0;
	for (size_t i = 0; i < h->nslots; i++) {
		ads[i] = NULL;
		if (every || want[i])
			ads[i] = base_ad(h, slots[i], &owner_left);
		else
			owner_share(slots[i], &owner_left);
	}
	struct slot_attr_ctx c = {slots, ads, h->nslots, false, false};
	ks_config_bool(h->cfg, "STARTD_EVAL_SLOT_ATTRS", &c.values);
	ks_config_bool(h->cfg, "STARTD_EVAL_SLOT_ATTRS_DEBUG", &c.undefined);
	for (size_t k = 0; k < 2; k++) {
		each_name(names[k], add_cross_attr, &c);
		free(names[k]);
	}
	for (size_t i = 0; want && every && i < h->nslots; i++)
		if (!want[i]) {
			classad_free(ads[i]);
			ads[i] = NULL;
		}
}
