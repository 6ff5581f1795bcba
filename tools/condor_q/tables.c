/*
 * tables.c: condor_q's tables, from HTCondor 25's print formats
 * (src/condor_q.V6/queue.cpp: jobDefault_, jobRuntime_, jobIdle_,
 * jobHold_, jobIO_, jobProgress_PrintFormat), resolved as HTCondor's
 * print-format parser resolves them (tools/condor_status/tables.c says
 * how): "WIDTH n" is width n without truncation, no WIDTH (or WIDTH
 * AUTO) a column as wide as its heading that grows, "OR ?" a '?' for a
 * missing value and "OR ??" a column of them.
 */
#include "cq.h"

#define AUTO (TF_AUTOW | TF_NOTRUNC)
#define NT TF_NOTRUNC

/* ClusterId AS ' ID' NOSUFFIX WIDTH 5 PRINTF '%4d.', ProcId AS ' '
 * NOPREFIX WIDTH 3 PRINTF '%-3d', Owner AS OWNER WIDTH -14 PRINTAS
 * OWNER OR ?? */
#define COL_ID {"ClusterId", " ID", 5, TF_NOSUFFIX | NT, "%4d.", NULL, 0, false}
#define COL_PROC {"ProcId", " ", 3, TF_NOPREFIX | NT, "%-3d", NULL, 0, false}
#define COL_OWNER {"Owner", "OWNER", -14, NT, NULL, "OWNER", '?', true}
#define COL_END {NULL, NULL, 0, 0, NULL, NULL, 0, false}

/* -nobatch: one line per job */
static const struct tf_coldef cq_normal[] = {
	COL_ID,
	COL_PROC,
	COL_OWNER,
	{"QDate", "  SUBMITTED", 11, NT, "%Y", "QDATE", 0, false},
	{"RemoteUserCpu", "    RUN_TIME", 12, NT, "%T", "CPU_TIME", 0, false},
	{"JobStatus", "ST", -2, AUTO, NULL, "JOB_STATUS", 0, false},
	{"JobPrio", "PRI", -3, AUTO, "%v", NULL, 0, false},
	{"ImageSize", "SIZE", 4, NT, "%.1f", "MEMORY_USAGE", 0, false},
	{"Cmd", "CMD", 0, NT, NULL, "JOB_DESCRIPTION", 0, false},
	COL_END,
};

/* -run: where each job runs; no summary */
static const struct tf_coldef cq_run[] = {
	COL_ID,
	COL_PROC,
	COL_OWNER,
	{"QDate", "  SUBMITTED", 11, NT, "%Y", "QDATE", '?', true},
	{"RemoteUserCpu", "    RUN_TIME", 12, NT, "%T", "CPU_TIME", '?', true},
	{"Owner", "HOST(S)", 0, NT, NULL, "REMOTE_HOST", '?', true},
	COL_END,
};

/* -idle: what each job asks for; no summary */
static const struct tf_coldef cq_idle[] = {
	COL_ID,
	COL_PROC,
	COL_OWNER,
	{"JobUniverse", "UNIVERSE ", -9, AUTO, NULL, "JOB_UNIVERSE", 0, false},
	{"RequestCpus", "CPUS", -4, AUTO, "%4d", NULL, 0, false},
	{"RequestMemory", "MEMORY", -6, AUTO, "%6d", NULL, 0, false},
	{"NumShadowStarts?:0", "STARTS", -6, AUTO, "%6d", NULL, 0, false},
	{"LastRemoteHost", "LAST_HOST", 0, NT, "%v", NULL, 0, false},
	COL_END,
};

/* -io: what each job has moved (the standard universe's file I/O, long
 * gone, else its transfers); its WHERE is args.c's constraint */
static const struct tf_coldef cq_io[] = {
	COL_ID,
	COL_PROC,
	COL_OWNER,
	{"IfThenElse(JobUniverse==1,NumCkpts_RAW,NumJobStarts)", "RUNS", -4,
	 AUTO, "%4d", NULL, '?', false},
	{"JobStatus", "ST", -2, AUTO, NULL, "JOB_STATUS", 0, false},
	{"IfThenElse(JobUniverse==1,FileReadBytes,BytesRecvd)", " INPUT", -6,
	 AUTO, NULL, "READABLE_BYTES", '?', true},
	{"IfThenElse(JobUniverse==1,FileWriteBytes,BytesSent)", " OUTPUT", -7,
	 AUTO, NULL, "READABLE_BYTES", '?', true},
	{"IfThenElse(JobUniverse==1,FileReadBytes+FileWriteBytes,"
	 "BytesRecvd+BytesSent)",
	 " RATE", 10, NT, NULL, "READABLE_BYTES", '?', true},
	{"JobUniverse", "MISC", -4, AUTO, NULL, "BUFFER_IO_MISC", 0, false},
	COL_END,
};

/* -hold: why each job is held.  HoldReasonSubCode is TRUNCATEd, and
 * "OR ' '" shows nothing for a missing subcode. */
static const struct tf_coldef cq_hold[] = {
	COL_ID,
	COL_PROC,
	COL_OWNER,
	{"EnteredCurrentStatus", "HELD_SINCE", 11, NT, "%Y", "QDATE", '?', true},
	{"HoldReasonCode", "CODE", -4, AUTO | TF_NOSUFFIX, "%4d", NULL, '?',
	 false},
	{"HoldReasonSubCode", "/SUB", -4, TF_AUTOW | TF_NOPREFIX, "/%-3d", NULL,
	 0, false},
	{"HoldReason", "HOLD_REASON", 0, NT, "%v", NULL, 0, false},
	COL_END,
};

/* The batch view: the columns only say what to fetch and how to show
 * it; batch.c writes each batch's sums over the counters and JOB_IDS.
 * The counters show '_' for nothing (their value is valid only above
 * zero). */
static const struct tf_coldef cq_batch[] = {
	{"Owner", "OWNER", -5, AUTO, NULL, "OWNER", '?', true},
	{"Cmd", "BATCH_NAME", -12, NT, NULL, "BATCH_NAME", 0, false},
	{"QDate", "   SUBMITTED", 12, NT, "%Y", "QDATE", 0, false},
	{"JobStatus", "  DONE", 6, NT, "%6d", NULL, '_', false},
	{"JobUniverse", "  RUN ", 6, NT, "%6d", NULL, '_', false},
	{"DAG_NodesQueued", "  IDLE", 6, NT, "%6d", NULL, '_', false},
	{"DAG_NodesDone", "  HOLD", 6, NT, "%6d", NULL, '_', false},
	{"DAG_NodesTotal?:TotalSubmitProcs", " TOTAL", 6, NT, "%6d", NULL, '_',
	 false},
	{"JobStatus?:JobMaterializeNextProcId", "JOB_IDS", 0, NT, NULL,
	 "JOB_STATUS", 0, false},
	COL_END,
};

bool cq_table_init(struct tf_mask *m, enum cq_view view,
		   struct tf_names *proj)
{
	const struct tf_coldef *t = NULL;
	bool summary = true;
	switch (view) {
	case CQ_V_NORMAL: t = cq_normal; break;
	case CQ_V_RUN: t = cq_run; summary = false; break;
	case CQ_V_IDLE: t = cq_idle; summary = false; break;
	case CQ_V_HOLD: t = cq_hold; break;
	case CQ_V_IO: t = cq_io; break;
	case CQ_V_BATCH: t = cq_batch; break;
	default: break; /* -totals: no columns */
	}
	tf_mask_set_seps(m, NULL, " ", NULL, "\n");
	if (t)
		tf_mask_add_defs(m, t);
	for (size_t i = 0; i < m->n; i++) {
		tf_names_add_expr(proj, m->cols[i].expr);
		if (m->cols[i].extra)
			tf_names_add_expr(proj, m->cols[i].extra);
	}
	/* the ids, and what the summary and the batches read */
	static const char *const always[] = {
		"ClusterId", "ProcId", "JobStatus", "JobUniverse", NULL};
	static const char *const batch[] = {
		"Owner", "JobBatchName", "DAGManJobId", "DAGNodeName",
		"JobMaterializeNextProcId", NULL};
	for (int i = 0; always[i]; i++)
		tf_names_add(proj, always[i]);
	for (int i = 0; view == CQ_V_BATCH && batch[i]; i++)
		tf_names_add(proj, batch[i]);
	return summary;
}
