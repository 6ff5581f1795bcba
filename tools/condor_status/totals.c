/*
 * totals.c: the summary under a table, one row per class of ads and a
 * Total row.  Headings, widths and counting rules are HTCondor's
 * (src/condor_status.V6/totals.cpp): a slot is counted by its State, and
 * slots group by "Arch/OpSys"; schedds all fall in one class; submitters
 * group by Name; -state groups by Activity.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "status.h"

struct st_count {
	/* slot states (normal and -state) */
	int machines, owner, unclaimed, claimed, matched, preempting, drained,
	    backfill, backfill_idle;
	/* -server and -claimed */
	int avail;
	unsigned long long memory, disk, mips, kflops;
	float loadavg; /* HTCondor sums load averages in a float */
	/* -startd */
	int slots, cpus, gpus, busy_cpus, busy_gpus, bk_cpus, bk_gpus;
	double mem_usage, bk_mem_usage;
	/* schedds and submitters */
	int running, idle, held;
};

struct st_class {
	char *key;
	struct st_count c;
};

struct st_totals {
	enum st_style style;
	struct st_class *classes;
	size_t n, cap;
	struct st_count top;
	int malformed;
};

struct st_totals *st_totals_new(enum st_style style)
{
	struct st_totals *t = ks_xcalloc(1, sizeof *t);
	t->style = style;
	return t;
}

void st_totals_free(struct st_totals *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->classes[i].key);
	free(t->classes);
	free(t);
}

bool st_totals_meaningful(const struct st_totals *t)
{
	switch (t->style) {
	case ST_PP_SLOTS_NORMAL:
	case ST_PP_SLOTS_SERVER:
	case ST_PP_SLOTS_RUN:
	case ST_PP_SLOTS_STATE:
	case ST_PP_SCHEDD_NORMAL:
	case ST_PP_SUBMITTER:
	case ST_PP_STARTDAEMON:
		return true;
	default:
		return false;
	}
}

void st_totals_project(enum st_style style, struct st_query *q)
{
	static const char *const slots[] = {"State", "Arch", "OpSys", NULL};
	static const char *const server[] = {"State", "Memory", "Disk", "Mips",
					     "KFlops", "Arch", "OpSys", NULL};
	static const char *const run[] = {"Mips", "KFlops", "LoadAvg", "Arch",
					  "OpSys", NULL};
	static const char *const state[] = {"State", "Activity", NULL};
	static const char *const startd[] = {
		"TotalSlots", "NumDynamicSlots", "TotalCpus", "TotalMemory",
		"TotalGPUs", "TotalInUseCpus", "TotalInUseMemory",
		"TotalInUseDisk", "TotalInUseGPUs", "TotalBackfillInUseCpus",
		"TotalBackfillInUseMemory", "TotalBackfillInUseDisk",
		"TotalBackfillInUseGPUs", "Arch", "OpSys", "OpSysAndVer",
		"OpSysShortName", "CondorVersion", NULL};
	static const char *const schedd[] = {"TotalRunningJobs", "TotalIdleJobs",
					     "TotalHeldJobs", NULL};
	static const char *const submitter[] = {"RunningJobs", "IdleJobs",
						"HeldJobs", "Name", NULL};
	const char *const *list = NULL;
	switch (style) {
	case ST_PP_SLOTS_NORMAL: list = slots; break;
	case ST_PP_SLOTS_SERVER: list = server; break;
	case ST_PP_SLOTS_RUN: list = run; break;
	case ST_PP_SLOTS_STATE: list = state; break;
	case ST_PP_STARTDAEMON: list = startd; break;
	case ST_PP_SCHEDD_NORMAL: list = schedd; break;
	case ST_PP_SUBMITTER: list = submitter; break;
	default: return;
	}
	for (; *list; list++)
		st_query_project(q, *list);
}

/* The class an ad falls in; false if the ad lacks what names it. */
static bool st_class_key(const struct st_totals *t, const classad *ad,
			 struct classad_buf *key)
{
	switch (t->style) {
	case ST_PP_SLOTS_NORMAL:
	case ST_PP_SLOTS_RUN:
	case ST_PP_SLOTS_SERVER: {
		char *arch = classad_eval_string_dup(ad, "Arch");
		char *opsys = classad_eval_string_dup(ad, "OpSys");
		bool ok = arch && opsys;
		if (ok)
			classad_buf_printf(key, "%s/%s", arch, opsys);
		free(arch);
		free(opsys);
		return ok;
	}
	case ST_PP_STARTDAEMON:
		return tf_platform_name(ad, key);
	case ST_PP_SLOTS_STATE:
	case ST_PP_SUBMITTER: {
		char *s = classad_eval_string_dup(
			ad, t->style == ST_PP_SUBMITTER ? "Name" : "Activity");
		if (s)
			tf_buf_add(key, s);
		free(s);
		return s != NULL;
	}
	case ST_PP_SCHEDD_NORMAL:
		tf_buf_add(key, " ");
		return true;
	default:
		return false;
	}
}

/* Counts one slot in a state; false for a state not counted. */
static bool st_count_state(struct st_count *c, const char *s, bool backfill,
			   bool count_machine)
{
	enum tf_state st = tf_state_of(s);
	if (backfill) {
		if (st == TF_UNCLAIMED) {
			/* idle backfill slots are not in the slot total */
			c->backfill_idle++;
			return true;
		}
		if (st == TF_CLAIMED)
			st = TF_BACKFILL;
	}
	switch (st) {
	case TF_OWNER: c->owner++; break;
	case TF_UNCLAIMED: c->unclaimed++; break;
	case TF_CLAIMED: c->claimed++; break;
	case TF_MATCHED: c->matched++; break;
	case TF_PREEMPTING: c->preempting++; break;
	case TF_BACKFILL: c->backfill++; break;
	case TF_DRAINED: c->drained++; break;
	default: return false;
	}
	/* HTCondor's -state summary never counts its Total column */
	if (count_machine)
		c->machines++;
	return true;
}

static bool st_count_slots(struct st_count *c, const classad *ad, int options,
			   bool count_machine)
{
	bool pslot = false, dslot = false, bkfill = false;
	if (options) {
		tf_ad_bool(ad, "PartitionableSlot", &pslot);
		if (!pslot)
			tf_ad_bool(ad, "DynamicSlot", &dslot);
		if (options & ST_TOT_BACKFILL_SLOTS)
			tf_ad_bool(ad, "BackfillSlot", &bkfill);
	}
	if ((options & ST_TOT_IGNORE_DYNAMIC) && dslot)
		return true;
	if ((options & ST_TOT_ROLLUP_PARTITIONABLE) && pslot) {
		/* a partitionable slot counts its children's states */
		classad_value l = CLASSAD_VALUE_INIT;
		classad_eval_attr(ad, "ChildState", NULL, &l);
		size_t n = classad_value_list_size(&l);
		for (size_t i = 0; i < n; i++) {
			classad_value v = CLASSAD_VALUE_INIT;
			classad_value_list_get(&l, i, NULL, &v);
			const char *s = classad_value_str(&v, NULL);
			if (s)
				st_count_state(c, s, bkfill, count_machine);
			classad_value_clear(&v);
		}
		classad_value_clear(&l);
		return true;
	}
	char *state = classad_eval_string_dup(ad, "State");
	bool ok = state && st_count_state(c, state, bkfill, count_machine);
	free(state);
	return ok;
}

static int st_int(const classad *ad, const char *name, bool *bad)
{
	long long v;
	if (!tf_ad_int(ad, name, &v)) {
		if (bad)
			*bad = true;
		return 0;
	}
	return (int)v;
}

static bool st_count_ad(const struct st_totals *t, struct st_count *c,
			const classad *ad, int options)
{
	bool bad = false;
	switch (t->style) {
	case ST_PP_SLOTS_NORMAL:
		return st_count_slots(c, ad, options, true);
	case ST_PP_SLOTS_STATE:
		return st_count_slots(c, ad, options, false);
	case ST_PP_SLOTS_SERVER: {
		char *state = classad_eval_string_dup(ad, "State");
		if (!state)
			return false;
		enum tf_state st = tf_state_of(state);
		free(state);
		int mem = st_int(ad, "Memory", &bad);
		int disk = st_int(ad, "Disk", &bad);
		int mips = st_int(ad, "Mips", &bad);
		int kflops = st_int(ad, "KFlops", &bad);
		if (st == TF_CLAIMED || st == TF_UNCLAIMED)
			c->avail++;
		c->machines++;
		c->memory += (unsigned long long)(long long)mem;
		c->disk += (unsigned long long)(long long)disk;
		c->mips += (unsigned long long)(long long)mips;
		c->kflops += (unsigned long long)(long long)kflops;
		return !bad;
	}
	case ST_PP_SLOTS_RUN: {
		int mips = st_int(ad, "Mips", &bad);
		int kflops = st_int(ad, "KFlops", &bad);
		double load = 0;
		if (!tf_ad_real(ad, "LoadAvg", &load)) {
			bad = true;
			load = 0;
		}
		c->mips += (unsigned long long)(long long)mips;
		c->kflops += (unsigned long long)(long long)kflops;
		c->loadavg = (float)(c->loadavg + load);
		c->machines++;
		return !bad;
	}
	case ST_PP_STARTDAEMON: {
		long long slots;
		if (!tf_ad_int(ad, "TotalSlots", &slots) &&
		    !tf_ad_int(ad, "NumDynamicSlots", &slots)) {
			bad = true;
			slots = 0;
		}
		int cpus = st_int(ad, "TotalCpus", &bad);
		int gpus = st_int(ad, "TotalGPUs", &bad);
		long long mem = 0;
		if (!tf_ad_int(ad, "TotalMemory", &mem)) {
			bad = true;
			mem = 0;
		}
		long long inuse_mem = 0, bk_mem = 0;
		tf_ad_int(ad, "TotalInUseMemory", &inuse_mem);
		tf_ad_int(ad, "TotalBackfillInUseMemory", &bk_mem);
		c->machines++;
		c->slots += (int)slots;
		c->cpus += cpus;
		c->gpus += gpus;
		c->busy_cpus += st_int(ad, "TotalInUseCpus", NULL);
		c->busy_gpus += st_int(ad, "TotalInUseGPUs", NULL);
		c->bk_cpus += st_int(ad, "TotalBackfillInUseCpus", NULL);
		c->bk_gpus += st_int(ad, "TotalBackfillInUseGPUs", NULL);
		if (mem != 0) {
			c->mem_usage += (double)inuse_mem / (double)mem;
			c->bk_mem_usage += (double)bk_mem / (double)mem;
		} else {
			bad = true;
		}
		return !bad;
	}
	case ST_PP_SCHEDD_NORMAL:
	case ST_PP_SUBMITTER: {
		bool sch = t->style == ST_PP_SCHEDD_NORMAL;
		long long v;
		if (tf_ad_int(ad, sch ? "TotalRunningJobs" : "RunningJobs", &v))
			c->running += (int)v;
		else
			bad = true;
		if (tf_ad_int(ad, sch ? "TotalIdleJobs" : "IdleJobs", &v))
			c->idle += (int)v;
		else
			bad = true;
		if (tf_ad_int(ad, sch ? "TotalHeldJobs" : "HeldJobs", &v))
			c->held += (int)v;
		else
			bad = true;
		return !bad;
	}
	default:
		return false;
	}
}

void st_totals_update(struct st_totals *t, const classad *ad, int options,
		      const char *key)
{
	struct classad_buf k = {0};
	if (key && *key) {
		tf_buf_add(&k, key);
	} else if (!st_class_key(t, ad, &k)) {
		t->malformed++;
		tf_buf_free(&k);
		return;
	}
	struct st_class *cl = NULL;
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->classes[i].key, tf_buf_str(&k)) == 0)
			cl = &t->classes[i];
	if (!cl) {
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 8;
			t->classes = ks_xrealloc(t->classes,
						 t->cap * sizeof *t->classes);
		}
		cl = &t->classes[t->n++];
		memset(cl, 0, sizeof *cl);
		cl->key = ks_xstrdup(tf_buf_str(&k));
	}
	tf_buf_free(&k);
	bool ok = st_count_ad(t, &cl->c, ad, options);
	st_count_ad(t, &t->top, ad, options);
	if (!ok)
		t->malformed++;
}

static void st_header(const struct st_totals *t, struct classad_buf *o)
{
	switch (t->style) {
	case ST_PP_SLOTS_NORMAL:
		classad_buf_printf(o, "%6.6s %5.5s %7.7s %9.9s %7.7s %10.10s %6.6s %8.8s %6.6s\n",
			      "Total", "Owner", "Claimed", "Unclaimed",
			      "Matched", "Preempting", "Drain", "Backfill",
			      "BkIdle");
		break;
	case ST_PP_SLOTS_STATE:
		classad_buf_printf(o, "%6.6s %5.5s %9.9s %7.7s %10.10s %7.7s %6.6s %8.8s %6.6s\n",
			      "Total", "Owner", "Unclaimed", "Claimed",
			      "Preempting", "Matched", "Drain", "Backfill",
			      "BkIdle");
		break;
	case ST_PP_SLOTS_SERVER:
		classad_buf_printf(o, "%9.9s %5.5s %7.7s %11.11s %11.11s %11.11s\n",
			      "Slots", "Avail", "Memory", "Disk", "MIPS",
			      "KFLOPS");
		break;
	case ST_PP_SLOTS_RUN:
		classad_buf_printf(o, "%9.9s  %11.11s  %11.11s  %11.11s\n",
			      "Machines", "MIPS", "KFLOPS", "AvgLoadAvg");
		break;
	case ST_PP_STARTDAEMON:
		classad_buf_printf(o, "%8.8s %8.8s %8.8s %8.8s %8.8s %8.8s %8.8s %8.8s %8.8s %8.8s\n",
			      "Machines", "Slots", "Cpus", "BusyCpus",
			      "BkCpus", "GPUs", "BusyGPUs", "BkGPUs",
			      "Memory%", "BkMem%");
		break;
	case ST_PP_SCHEDD_NORMAL:
		classad_buf_printf(o, "%18s %18s %18s\n", "TotalRunningJobs",
			      "TotalIdleJobs", "TotalHeldJobs");
		break;
	case ST_PP_SUBMITTER:
		classad_buf_printf(o, "%11s %10s %10s\n", "RunningJobs", "IdleJobs",
			      "HeldJobs");
		break;
	default:
		break;
	}
}

static void st_info(const struct st_totals *t, const struct st_count *c,
		    bool top, struct classad_buf *o)
{
	switch (t->style) {
	case ST_PP_SLOTS_NORMAL:
		classad_buf_printf(o, "%6d %5d %7d %9d %7d %10d %6d %8d %6d\n",
			      c->machines, c->owner, c->claimed, c->unclaimed,
			      c->matched, c->preempting, c->drained,
			      c->backfill, c->backfill_idle);
		break;
	case ST_PP_SLOTS_STATE:
		classad_buf_printf(o, "%6d %5d %9d %7d %10d %7d %6d %8d %6d\n",
			      c->machines, c->owner, c->unclaimed, c->claimed,
			      c->preempting, c->matched, c->drained,
			      c->backfill, c->backfill_idle);
		break;
	case ST_PP_SLOTS_SERVER:
		classad_buf_printf(o, "%9d %5d %11llu %11llu %11llu %11llu\n",
			      c->machines, c->avail, c->memory, c->disk,
			      c->mips, c->kflops);
		break;
	case ST_PP_SLOTS_RUN:
		classad_buf_printf(o, "%9d  %11llu  %11llu   %-.3f\n", c->machines,
			      c->mips, c->kflops,
			      c->machines > 0
				      ? (double)(float)(c->loadavg / (float)c->machines)
				      : 0.0);
		break;
	case ST_PP_STARTDAEMON:
		classad_buf_printf(o, "%8d %8d %8d %8d %8d %8d %8d %8d %7.2f%% %7.2f%%\n",
			      c->machines, c->slots, c->cpus, c->busy_cpus,
			      c->bk_cpus, c->gpus, c->busy_gpus, c->bk_gpus,
			      100 * c->mem_usage / c->machines,
			      100 * c->bk_mem_usage / c->machines);
		break;
	case ST_PP_SCHEDD_NORMAL:
		/* schedds show only the Total row's numbers */
		if (top)
			classad_buf_printf(o, "%18d %18d %18d\n", c->running,
				      c->idle, c->held);
		break;
	case ST_PP_SUBMITTER:
		classad_buf_printf(o, "%11d %10d %10d\n", c->running, c->idle,
			      c->held);
		break;
	default:
		break;
	}
}

static int st_class_cmp(const void *a, const void *b)
{
	const struct st_class *x = a, *y = b;
	return strcmp(x->key, y->key);
}

void st_totals_display(const struct st_totals *t, struct classad_buf *out,
		       int keylen)
{
	if (!st_totals_meaningful(t))
		return;
	if (keylen < 0) {
		keylen = 5; /* room for "Total" */
		for (size_t i = 0; i < t->n; i++)
			if ((int)strlen(t->classes[i].key) > keylen)
				keylen = (int)strlen(t->classes[i].key);
	}
	classad_buf_printf(out, "%*.*s", keylen, keylen, "");
	st_header(t, out);
	tf_buf_add(out, "\n");

	struct st_class *sorted = ks_xmalloc((t->n ? t->n : 1) * sizeof *sorted);
	if (t->n)
		memcpy(sorted, t->classes, t->n * sizeof *sorted);
	qsort(sorted, t->n, sizeof *sorted, st_class_cmp);
	for (size_t i = 0; i < t->n; i++) {
		classad_buf_printf(out, "%*.*s", keylen, keylen, sorted[i].key);
		st_info(t, &sorted[i].c, false, out);
	}
	free(sorted);
	if (t->n)
		tf_buf_add(out, "\n");
	classad_buf_printf(out, "%*.*s", keylen, keylen, "Total");
	st_info(t, &t->top, true, out);
	if (t->malformed > 0)
		classad_buf_printf(out,
			      "\n%*.*s(Omitted %d malformed ads in computed attribute totals)\n\n",
			      keylen, keylen, "", t->malformed);
}
