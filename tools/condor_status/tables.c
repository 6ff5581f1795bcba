/*
 * tables.c: the default table of each kind of ad.
 *
 * The facts are HTCondor's (src/condor_status.V6/prettyPrint.cpp, the
 * print formats of ppSet*Cols), resolved here the way HTCondor's
 * print-format parser resolves them (make_printmask.cpp), so that each
 * row below is the column HTCondor registers:
 *   - "WIDTH n": width n (negative: left), no truncation unless TRUNCATE,
 *     and no default %v format;
 *   - no WIDTH, or WIDTH AUTO: a %v column, left-aligned, as wide as its
 *     heading at least, growing to fit (TF_AUTOW);
 *   - "OR ?" shows '?' for a value of the wrong type, "OR ??" fills the
 *     column ("[????]");
 *   - PRINTAS f: f's format replaces any PRINTF.
 * The -compact tables also name the columns that folding a machine's
 * slots into one row rewrites (st_layout's ix_*).
 */
#include <string.h>
#include <strings.h>

#include "status.h"

#define AUTO (TF_AUTOW | TF_NOTRUNC)
#define NT TF_NOTRUNC

/* Name WIDTH -34 FIT PRINTF %s OR ?? (shared by the slot tables) */
#define COL_NAME {"Name", "Name", -34, NT | TF_FIT, "%s", NULL, '?', true}
#define COL_OPSYS {"OpSys", "OpSys", -10, NT, NULL, NULL, '?', true}
#define COL_ARCH {"Arch", "Arch", -8, NT, NULL, NULL, '?', true}
/* CondorLoadAvg AS LoadAv WIDTH 6 TRUNCATE PRINTAS LOAD_AVG OR ?? */
#define COL_LOADAV {"CondorLoadAvg", "LoadAv", 6, 0, NULL, "LOAD_AVG", '?', true}

/* condor_status: startdPFV_Normal */
static const struct tf_coldef st_slots[] = {
	COL_NAME,
	COL_OPSYS,
	COL_ARCH,
	{"State", "State", -5, AUTO, "%v", NULL, '?', true},
	{"Activity", "Activity", -8, NT, NULL, "ACTIVITY_OR_OCU", '?', true},
	COL_LOADAV,
	{"Memory", "Mem", 6, NT, "%6d", NULL, '?', true},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};
/* The last column: "  ActvtyTime" (WIDTH 12 NOPREFIX) below 100 columns,
 * "ActivityTime" (WIDTH AUTO) when -wide. */
static const struct tf_coldef st_actvtytime = {
	"EnteredCurrentActivity", "  ActvtyTime", 12, TF_NOPREFIX, "%T",
	"ACTIVITY_TIME", '-', false};
static const struct tf_coldef st_activitytime = {
	"EnteredCurrentActivity", "ActivityTime", -12, TF_AUTOW, "%T",
	"ACTIVITY_TIME", '-', false};

/* -server: server_PrintFormat */
static const struct tf_coldef st_server[] = {
	COL_NAME,
	COL_OPSYS,
	COL_ARCH,
	COL_LOADAV,
	{"Memory", "Memory", 8, NT, "%8d", NULL, '?', true},
	{"Disk", "Disk", 9, NT, "%9d", NULL, '?', true},
	{"Mips", "Mips", 7, NT, "%7d", NULL, '?', true},
	{"KFlops", "KFlops", 9, NT, "%9d", NULL, '?', true},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -state: startdState_PrintFormat */
static const struct tf_coldef st_state[] = {
	COL_NAME,
	{"Cpus", "Cpu", -3, AUTO, "%v", NULL, '?', true},
	{"Memory", " Mem", 5, NT, NULL, NULL, '?', true},
	COL_LOADAV,
	{"KeyboardIdle", "  KbdIdle", 12, 0, NULL, "TIME", '?', true},
	{"State", "State", -7, NT, NULL, NULL, '?', true},
	{"EnteredCurrentState", "  StateTime", 12, 0, "%T", "ELAPSED_TIME",
	 '?', true},
	{"Activity", "Activ", -5, AUTO, "%v", NULL, '?', true},
	{"EnteredCurrentActivity", "  ActvtyTime", 12, 0, "%T", "ELAPSED_TIME",
	 '-', false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -claimed: startdPFV_Normal without State and Activity, and RemoteUser
 * and ClientMachine in place of Mem and ActvtyTime */
static const struct tf_coldef st_run[] = {
	COL_NAME,
	COL_OPSYS,
	COL_ARCH,
	COL_LOADAV,
	{"RemoteUser", "RemoteUser", -20, NT, NULL, NULL, '?', true},
	{"ClientMachine", "ClientMachine", -16, NT, NULL, NULL, '?', true},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -startd: startDaemonNormal_PrintFormat */
static const struct tf_coldef st_startd[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"OpSys", "Platform", -8, AUTO, NULL, "PLATFORM", 0, false},
	{"CondorVersion", "Version", -7, AUTO, NULL, "CONDOR_VERSION", 0, false},
	{"DetectedCpus", "Cpus", 4, NT, "%4d", NULL, '?', true},
	{"DetectedMemory", "  Memory", 10, NT, NULL, "READABLE_MB", '?', true},
	{"DetectedGPUs", "GPUs", 5, NT, "%d", "MEMBER_COUNT", 0, false},
	{"DaemonStartTime", "   Uptime", 13, NT, "%T", "ELAPSED_TIME", 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -schedd: scheddNormal_PrintFormat */
static const struct tf_coldef st_schedd[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"TotalRunningJobs", "RunningJobs", -11, AUTO, "%11d", NULL, 0, false},
	{"TotalIdleJobs", "  IdleJobs", -10, AUTO, "%10d", NULL, 0, false},
	{"TotalHeldJobs", "  HeldJobs", -10, AUTO, "%10d", NULL, 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -run: scheddRun_PrintFormat */
static const struct tf_coldef st_schedd_run[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"TotalJobAds", "TotalJobs", -9, AUTO, "%9d", NULL, 0, false},
	{"ShadowsRunning", "Shadows", -7, AUTO, "%7d", NULL, 0, false},
	{"TotalSchedulerJobsRunning", "ActiveDAGs", -10, AUTO, "%10d", NULL, 0,
	 false},
	{"TotalSchedulerJobsIdle", "IdleDAGs", -8, AUTO, "%8d", NULL, 0, false},
	{"RecentJobsCompleted", "RcntDone", -8, AUTO, "%8d", NULL, 0, false},
	{"RecentJobsStarted", "RcntStart", -9, AUTO, "%9d", NULL, 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -submitters: submitterNormal_PrintFormat */
static const struct tf_coldef st_submitters[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"RunningJobs", "RunningJobs", -11, AUTO, "%11d", NULL, 0, false},
	{"IdleJobs", "  IdleJobs", -10, AUTO, "%10d", NULL, 0, false},
	{"HeldJobs", "  HeldJobs", -10, AUTO, "%10d", NULL, 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -master: masterNormal_PrintFormat */
static const struct tf_coldef st_master[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"CondorVersion", "Version", -14, NT, NULL, "CONDOR_VERSION", 0, false},
	{"DetectedCpus", "Cpus", 4, NT, "%4d", NULL, '?', true},
	{"DetectedMemory", "  Memory", 10, NT, NULL, "READABLE_MB", '?', true},
	{"DaemonStartTime", "   Uptime", 13, NT, "%T", "ELAPSED_TIME", 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -collector: collectorNormal_PrintFormat */
static const struct tf_coldef st_collector[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"RunningJobs", "RunningJobs", -11, AUTO, "%11d", NULL, 0, false},
	{"IdleJobs", "  IdleJobs", -10, AUTO, "%10d", NULL, 0, false},
	{"HostsTotal", "HostsTotal", -10, AUTO, "%10d", NULL, 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -negotiator: negotiatorNormal_PrintFormat */
static const struct tf_coldef st_negotiator[] = {
	{"Name", "Name", -4, AUTO, "%v", NULL, 0, false},
	{"LastNegotiationCycleEnd0", "LastCycleEnd", 12, NT, NULL, "DATE", 0,
	 false},
	{"LastNegotiationCycleDuration0", "(Sec)", -5, AUTO, "%5d", NULL, 0,
	 false},
	{"LastNegotiationCycleCandidateSlots0", "  Slots", -7, AUTO, "%7d", NULL,
	 0, false},
	{"LastNegotiationCycleActiveSubmitterCount0", "Submitrs", -8, AUTO,
	 "%8d", NULL, 0, false},
	{"LastNegotiationCycleNumSchedulers0", "Schedds", -7, AUTO, "%7d", NULL,
	 0, false},
	{"LastNegotiationCycleNumIdleJobs0", "   Jobs", -7, AUTO, "%7d", NULL, 0,
	 false},
	{"LastNegotiationCycleMatches0", "Matches", -7, AUTO, "%7d", NULL, 0,
	 false},
	{"LastNegotiationCycleRejections0", "Rejections", -10, AUTO, "%10d",
	 NULL, 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -any, -generic: adtype_PrintFormat */
static const struct tf_coldef st_any[] = {
	{"MyType?:\"None\"", "MyType", -18, NT, NULL, NULL, 0, false},
	{"TargetType?:\"None\"", "TargetType", -18, NT, NULL, NULL, 0, false},
	{"Name", "Name", -41, NT | TF_FIT, NULL, NULL, '?', false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -compact: startdCompact_PrintFormat */
static const struct tf_coldef st_compact[] = {
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"OpSys", "Platform", -8, AUTO, NULL, "PLATFORM", 0, false},
	{"NumDynamicSlots", "Slot", -4, AUTO, "%4d", NULL, 0, false},
	{"SlotType", "s", -1, AUTO | TF_NOPREFIX, NULL, "SLOT_COUNT_TAG", 0,
	 false},
	{"TotalSlotCpus", "Cpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotGpus", "Gpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotMemory/1024.0", " TotalGb", -8, AUTO, "%8.2f", NULL, 0,
	 false},
	{"Cpus", "FreCpu", -6, AUTO, "%6d", NULL, 0, false},
	{"Memory/1024.0", " FreeGb ", -8, AUTO, "%8.2f", NULL, 0, false},
	{"TotalLoadAvg*1.0/TotalCpus", "CpuLoad", -7, AUTO, "%7.2f", NULL, 0,
	 false},
	{"Activity", "ST", 2, NT, NULL, "ACTIVITY_CODE", 0, false},
	{"RecentJobStarts/20.0", "Jobs/Min", -8, AUTO, "%8.2f", NULL, '_',
	 false},
	{"Max(ChildMemory)/1024.0", "MaxSlotGb", -9, AUTO, "%9.2f", NULL, '*',
	 false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -server -compact: serverCompact_PrintFormat */
static const struct tf_coldef st_server_compact[] = {
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"OpSys", "Platform", -8, AUTO, NULL, "PLATFORM", 0, false},
	{"NumDynamicSlots", "Slot", -4, AUTO, "%4d", NULL, 0, false},
	{"SlotType", "s", -1, AUTO | TF_NOPREFIX, NULL, "SLOT_COUNT_TAG", 0,
	 false},
	{"TotalSlotCpus", "Cpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotGpus", "Gpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotMemory/1024.0", " TotalGb", -8, AUTO, "%8.2f", NULL, 0,
	 false},
	{"Mips", " Mips  ", -7, AUTO, "%7d", NULL, '-', false},
	{"KFlops", " KFlops  ", -9, AUTO, "%9d", NULL, '-', false},
	{"TotalLoadAvg*1.0/TotalCpus", "CpuLoad", -7, AUTO, "%7.2f", NULL, 0,
	 false},
	{"Activity", "ST", 2, NT, NULL, "ACTIVITY_CODE", 0, false},
	{"RecentJobStarts/20.0", "Jobs/Min", -8, AUTO, "%8.2f", NULL, '_',
	 false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -state -compact: stateCompact_PrintFormat */
static const struct tf_coldef st_state_compact[] = {
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"OpSys", "Platform", -8, AUTO, NULL, "PLATFORM", 0, false},
	{"NumDynamicSlots", "Slot", -4, AUTO, "%4d", NULL, 0, false},
	{"SlotType", "s", -1, AUTO | TF_NOPREFIX, NULL, "SLOT_COUNT_TAG", 0,
	 false},
	{"TotalSlotCpus", "Cpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotGpus", "Gpus", -4, AUTO, "%4d", NULL, 0, false},
	{"TotalSlotMemory/1024.0", " TotalGb", -8, AUTO, "%8.2f", NULL, 0,
	 false},
	{"TotalLoadAvg*1.0/TotalCpus", "CpuLoad", -7, AUTO, "%7.2f", NULL, 0,
	 false},
	{"Activity", "ST", 2, NT, NULL, "ACTIVITY_CODE", 0, false},
	{"RecentJobStarts/20.0", "Jobs/Min", -8, AUTO, "%8.2f", NULL, '_',
	 false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

/* -claimed -compact: claimedCompact_PrintFormat */
static const struct tf_coldef st_claimed_compact[] = {
	{"Machine", "Machine", -7, AUTO, "%v", NULL, 0, false},
	{"OpSys", "Platform", -8, AUTO, NULL, "PLATFORM", 0, false},
	{"NumDynamicSlots", "Slot", -4, AUTO, "%4d", NULL, 0, false},
	{"SlotType", "s", -1, AUTO | TF_NOPREFIX, NULL, "SLOT_COUNT_TAG", 0,
	 false},
	{"ChildRemoteUser", "Users", -5, AUTO, NULL, "UNIQUE", 0, false},
	{NULL, NULL, 0, 0, NULL, NULL, 0, false},
};

void st_table_init(struct tf_mask *m, struct st_layout *lay,
		   enum st_style style, bool compact, bool wide, int width)
{
	memset(lay, 0, sizeof *lay);
	lay->width_of_fixed_cols = -1;
	lay->name_flags = wide ? TF_AUTOW : 0;
	lay->machine_flags = lay->name_flags;
	lay->ix_platform = lay->ix_slots = lay->ix_freecpus = lay->ix_freemem =
		lay->ix_actcode = lay->ix_jobstarts = lay->ix_maxslotmem =
			lay->ix_machineslot = -1;
	/* A table without a SUMMARY line has none (HTCondor's default). */
	lay->headfoot = 0;
	tf_mask_set_seps(m, NULL, " ", NULL, "\n");

	switch (style) {
	case ST_PP_SLOTS_NORMAL:
		if (compact) {
			tf_mask_add_defs(m, st_compact);
			lay->where = "PartitionableSlot =?= true || DynamicSlot =!= true";
			lay->machine_width = 12;
			lay->machine_flags = TF_AUTOW;
			lay->ix_machineslot = 0;
			lay->ix_platform = 1;
			lay->ix_slots = 2;
			lay->ix_freecpus = 7;
			lay->ix_freemem = 8;
			lay->ix_actcode = 10;
			lay->ix_jobstarts = 11;
			lay->ix_maxslotmem = 12;
		} else {
			tf_mask_add_defs(m, st_slots);
			tf_mask_add_def(m, (width < 100 && !wide) ? &st_actvtytime
							    : &st_activitytime);
			lay->name_flags = TF_AUTOW;
			lay->width_of_fixed_cols = 65;
		}
		break;
	case ST_PP_SLOTS_SERVER:
		if (compact) {
			tf_mask_add_defs(m, st_server_compact);
			lay->where = "PartitionableSlot =?= true || DynamicSlot =!= true";
			lay->ix_machineslot = 0;
			lay->ix_platform = 1;
			lay->ix_slots = 2;
			lay->ix_actcode = 10;
			lay->ix_jobstarts = 11;
		} else {
			tf_mask_add_defs(m, st_server);
		}
		lay->name_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 65;
		break;
	case ST_PP_SLOTS_STATE:
		if (compact) {
			tf_mask_add_defs(m, st_state_compact);
			lay->where = "PartitionableSlot =?= true || DynamicSlot =!= true";
			lay->ix_machineslot = 0;
			lay->ix_platform = 1;
			lay->ix_slots = 2;
			lay->ix_actcode = 8;
			lay->ix_jobstarts = 9;
		} else {
			tf_mask_add_defs(m, st_state);
		}
		lay->name_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 34 + 3 * 12;
		break;
	case ST_PP_SLOTS_RUN:
		if (compact) {
			tf_mask_add_defs(m, st_claimed_compact);
			lay->where = "(State == \"Claimed\" && DynamicSlot =!= true) || "
				     "(NumDynamicSlots isnt undefined && NumDynamicSlots > 0)";
			lay->ix_machineslot = 0;
			lay->ix_platform = 1;
			lay->ix_slots = 2;
		} else {
			tf_mask_add_defs(m, st_run);
		}
		lay->name_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 63;
		break;
	case ST_PP_STARTDAEMON:
		tf_mask_add_defs(m, st_startd);
		break;
	case ST_PP_SCHEDD_NORMAL:
		tf_mask_add_defs(m, st_schedd);
		lay->name_width = 15;
		lay->machine_width = 12;
		lay->name_flags = lay->machine_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 35;
		break;
	case ST_PP_SCHEDD_RUN:
		tf_mask_add_defs(m, st_schedd_run);
		lay->where = "(ShadowsRunning+TotalSchedulerJobsRunning) > 0";
		lay->headfoot = ST_HF_NOSUMMARY;
		lay->name_width = 15;
		lay->name_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 35;
		break;
	case ST_PP_SUBMITTER:
		tf_mask_add_defs(m, st_submitters);
		lay->name_width = 15;
		lay->machine_width = 12;
		lay->name_flags = lay->machine_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 35;
		break;
	case ST_PP_MASTER:
		tf_mask_add_defs(m, st_master);
		lay->headfoot = ST_HF_NOSUMMARY;
		lay->name_width = 12;
		lay->name_flags = TF_AUTOW;
		break;
	case ST_PP_COLLECTOR:
		tf_mask_add_defs(m, st_collector);
		/* the Machine column takes what a wide terminal leaves */
		lay->machine_width = wide ? -34 : -18;
		if (width > 79 && !wide) {
			int w = width - (28 + 18 + 11 + 8 + 10 + 4);
			if (w > 50)
				w = 50;
			int nw = w * 2 / 3 < 20 ? w * 2 / 3 : 20;
			int nm = w - nw < 30 ? w - nw : 30;
			lay->machine_width -= nm;
		}
		break;
	case ST_PP_NEGOTIATOR:
		tf_mask_add_defs(m, st_negotiator);
		lay->headfoot = ST_HF_NOSUMMARY;
		lay->name_width = 12;
		lay->name_flags = TF_AUTOW;
		lay->width_of_fixed_cols = 12 + 5 + 7 + 8 + 7 + 7 + 7 + 10;
		break;
	case ST_PP_GENERIC_NORMAL:
	case ST_PP_GENERIC:
		tf_mask_add_defs(m, st_any);
		lay->headfoot = ST_HF_NOSUMMARY;
		break;
	default:
		break;
	}
}

void st_table_adjust(struct tf_mask *m, const struct st_layout *lay,
		     bool wide, struct st_query *q)
{
	for (size_t i = 0; i < m->n; i++) {
		struct tf_col *c = &m->cols[i];
		st_query_project_expr(q, c->expr);
		if (c->extra)
			st_query_project_expr(q, c->extra);
		if (strcasecmp(c->expr, "Name") == 0) {
			c->opts |= ST_IS_NAME;
			if (lay->name_width) {
				c->width = lay->name_width;
				if (!wide)
					c->opts &= ~(unsigned)TF_AUTOW;
				c->opts |= lay->name_flags & TF_AUTOW;
			} else {
				c->opts |= lay->name_flags & TF_AUTOW;
			}
		} else if (strcasecmp(c->expr, "Machine") == 0) {
			c->opts |= ST_IS_MACHINE;
			if (lay->machine_width) {
				c->width = lay->machine_width;
				c->opts &= ~(unsigned)TF_AUTOW;
				c->opts |= lay->machine_flags & TF_AUTOW;
			}
		}
	}
}
