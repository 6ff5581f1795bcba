/*
 * cq.h: condor_q, as a library (ks_cq) so that tests can run it without
 * a process of its own.
 *
 * The command follows HTCondor 25's condor_q: the default batch view,
 * -nobatch, -run, -hold, -idle, -totals, -long/-json, -af/-format,
 * -better-analyze, the same headers and summary lines.  Where a width or
 * a message comes from is said beside the table that holds it
 * (tables.c, batch.c, output.c, args.c).  Internal names carry the cq_
 * prefix; cq_main() is the entry point.
 */
#ifndef KS_CQ_H
#define KS_CQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "classad.h"
#include "ks_wire.h"
#include "tfmt.h"

/* Runs condor_q with argv (argv[0] names the program in messages),
 * writing the result to out and messages to err.  Returns the exit
 * status: 0, or 1 on any error. */
int cq_main(int argc, const char *const *argv, FILE *out, FILE *err);

/* ---- options (args.c) -------------------------------------------------- */

/* The table shown: HTCondor's QDO_* modes that kestrel has. */
enum cq_view {
	CQ_V_NOTSET = 0,
	CQ_V_NORMAL,  /* -nobatch: one line per job */
	CQ_V_RUN,     /* -run */
	CQ_V_IDLE,    /* -idle */
	CQ_V_HOLD,    /* -hold */
	CQ_V_IO,      /* -io */
	CQ_V_TOTALS,  /* -totals */
	CQ_V_BATCH,   /* the default: one line per batch */
	CQ_V_CUSTOM,  /* -af, -format */
	CQ_V_ANALYZE, /* -better-analyze */
};

/* -af and -format, in the order given. */
struct cq_item {
	bool af;
	const char *fmt, *expr; /* -format */
	const char *opts;       /* -af's letters after the colon */
	int argc;               /* -af's attributes */
	const char *const *argv;
};

struct cq_opts {
	const char *prog;
	enum cq_view view;
	bool analyze_better;        /* -better-analyze, not only -analyze */
	bool batch, batch_specified;
	bool dash_long;             /* -long, -json, -xml */
	enum tf_long_form long_form;
	bool xml;
	struct tf_names attrs;      /* -attributes */
	struct cq_item *items;
	size_t nitems;
	bool af_headings;           /* -af:h */
	/* the query, as HTCondor's CondorQ builds it */
	char **ands, **ors;         /* owned */
	size_t nands, nors;
	const char *user_constraint; /* the last -constraint, for messages */
	bool my_jobs;               /* only the user's own (the default) */
	bool partial;               /* some procs of a cluster may be left out */
	int limit;                  /* 0: none */
	const char *name, *pool;
	const char *jobads;         /* -jobads FILE */
	const char *userlog;        /* -userlog FILE (when no -jobads) */
	enum tf_ads_format jobads_format;
	const char *slotads;        /* -slotads/-machineads FILE */
	enum tf_ads_format slotads_format;
	const char *mconstraint;    /* -mconstraint */
	bool analyze_prio;          /* -better-analyze:priority, -userprios */
	const char *userprios;      /* -userprios FILE (else the negotiator) */
	bool wide;                  /* -wide */
	int forced_width;           /* -wide:N */
	bool expert;
};

/* Parses argv.  Returns -1 to go on, or the exit status when the
 * arguments say to stop (-help: 0, an error: 1), with messages on err
 * (and -help's text on out, as HTCondor prints it). */
int cq_parse_args(int argc, const char *const *argv, struct cq_opts *o,
		  FILE *out, FILE *err);
void cq_opts_free(struct cq_opts *o);
void cq_usage(FILE *out, const char *prog);

/* The query constraint as HTCondor writes it ("( (a) && (b) ) && ( (c)
 * || (d) )"), or NULL when there is none: a new string (free()). */
char *cq_constraint(const struct cq_opts *o);

/* ---- jobs ---------------------------------------------------------------- */

/* Batch rows (batch.c); HTCondor's JROD_* flags. */
enum { CQ_R_COOKED = 0x01, CQ_R_SKIP = 0x02, CQ_R_FOLDED = 0x04,
       CQ_R_SCHEDUNIV = 0x10, CQ_R_ISDAGNODE = 0x20 };

struct cq_job {
	int cluster, proc;
	classad *ad;         /* kept for -long and -better-analyze */
	size_t text_at, text_len; /* or its -long text in the run's texts */
	struct tf_row row;
	/* batch view */
	unsigned flags;
	int batch_uid;       /* same name and owner: same batch (0: none) */
	int dag_cluster;     /* a DAG node's DAGMan job, or 0 */
	int materialize_next; /* JobMaterializeNextProcId, or -1 */
	struct cq_job *next_proc, *children, *next_sib, *last_sib;
};

/* What the summary line counts (HTCondor's LiveJobCounters). */
struct cq_counts {
	long idle, running, removed, completed, held, suspended;
	long sched_idle, sched_running, sched_removed, sched_completed,
		sched_held;
};
void cq_count_job(struct cq_counts *c, const classad *ad);
/* The counts as a summary ad, as HTCondor fakes one for a file of ads
 * (new; classad_free()). */
classad *cq_counts_ad(const struct cq_counts *c);

/* ---- sources (fetch.c) ------------------------------------------------- */

struct cq_sink {
	int (*job)(classad *ad, void *arg); /* owns ad; returns 0 to go on */
	/* optional: a schedd's answer comes here unparsed instead, each
	 * record to be given to cq_sink_take() or taken otherwise */
	ks_wire_record_fn record;
	void *arg;
	classad *summary; /* the schedd's summary ad, when it sent one */
	char *label;      /* "Schedd: NAME : ADDR" or "Jobads: FILE" (new) */
	char *user;       /* who asked, as the schedd sees it (new; NULL
			   * for a file) */
};

/* Whether ad is the schedd's summary ad (MyType "Summary"). */
bool cq_is_summary(const classad *ad);
/* Keeps ad as the summary when it is the schedd's summary ad, else
 * hands it to sink->job; returns what that returned. */
int cq_sink_take(struct cq_sink *sink, classad *ad);
/* Hands every job of the -jobads file, or of the schedd's answer, to
 * sink->job.  Returns 0, or 1 with HTCondor's message on err. */
int cq_fetch(const struct cq_opts *o, const struct tf_names *proj,
	     struct cq_sink *sink, FILE *err);
/* The slot ads for -better-analyze: from -slotads, or the collector's
 * (with -mconstraint).  *slots new (ks_ads_free()). */
int cq_fetch_slots(const struct cq_opts *o, classad ***slots, size_t *n,
		   FILE *err);

/* The submitters' priorities for an analysis that considers them: from
 * -userprios FILE (condor_userprio -l's "NameN = ..." and "PriorityN =
 * ..." lines, as HTCondor reads it) or from the negotiator
 * (GET_PRIORITY), and PREEMPTION_REQUIREMENTS from the configuration. */
struct cq_prio {
	char *name;  /* NULL: no record of that number */
	double prio;
};
struct cq_prios {
	struct cq_prio *v;
	size_t n;
	char *preemption_req; /* PREEMPTION_REQUIREMENTS ("False" if unset) */
};
/* Fills *p (cq_prios_free()).  Returns 0, or 1 with the message on err
 * and nothing left in *p to free. */
int cq_fetch_prios(const struct cq_opts *o, struct cq_prios *p, FILE *err);
void cq_prios_free(struct cq_prios *p);

/* ---- tables (tables.c) ----------------------------------------------------- */

/* Column indexes of the batch table. */
enum { CQ_B_OWNER, CQ_B_BATCH, CQ_B_SUBMITTED, CQ_B_DONE, CQ_B_RUN,
       CQ_B_IDLE, CQ_B_HOLD, CQ_B_TOTAL, CQ_B_IDS, CQ_B_NCOLS };

/* Fills m with the table of view (CQ_V_NORMAL ... CQ_V_BATCH), and adds
 * what it reads to proj.  Returns whether the view has HTCondor's
 * standard summary. */
bool cq_table_init(struct tf_mask *m, enum cq_view view,
		   struct tf_names *proj);

/* ---- the batch view (batch.c) ------------------------------------------ */

struct cq_batch;
struct cq_batch *cq_batch_new(void);
void cq_batch_free(struct cq_batch *b);
/* Notes a job's batch, DAG and universe (before cq_batch_reduce()). */
void cq_batch_note(struct cq_batch *b, struct cq_job *j, const classad *ad);
/* Links the jobs (sorted by id) into batches and writes each batch's
 * sums into its first job's row (CQ_R_COOKED); fits the columns to the
 * values.  partial: the query may have left out procs of a cluster (no
 * DONE counts then).  display_width 0: no fitting (output not to a
 * terminal). */
void cq_batch_reduce(struct cq_batch *b, struct cq_job *jobs, size_t n,
		     struct tf_mask *m, bool partial, int display_width);

/* ---- output (output.c) ------------------------------------------------- */

/* "\n\n-- LABEL @ mm/dd/yy HH:MM:SS\n" (local time). */
void cq_print_title(struct classad_buf *out, const char *label, long long when);
/* HTCondor's standard summary lines from a summary ad; me names whose
 * are the "My" counts (NULL: no such line). */
void cq_print_summary(struct classad_buf *out, const classad *summary,
		      const char *me);
/* Widens the ID and SIZE columns of the per-job tables for big ids and
 * sizes, and the OWNER column on a terminal (HTCondor's
 * fixup_std_column_widths); display_width 0: not a terminal. */
void cq_fit_job_columns(struct tf_mask *m, const struct cq_job *jobs,
			size_t n, int display_width);
/* Removes the white space before the row's final newline. */
void cq_trim_row(struct classad_buf *out, size_t row_start);

/* ---- -analyze and -better-analyze (analyze.c) ------------------------- */

/* Prints the analysis of each job (its ad kept) against the slot ads,
 * under the "-- LABEL" title: with better, always the clause-by-clause
 * analysis of its Requirements; without (-analyze), as HTCondor's, only
 * when some slot is rejected by them.  prios (NULL: user priority
 * ignored) makes the summary HTCondor's "considering user priority":
 * a slot claimed by another user counts as willing when the job could
 * preempt it (the claiming user's priority worse by more than 0.5,
 * MY.Rank >= MY.CurrentRank, PREEMPTION_REQUIREMENTS), else as serving
 * a better-priority user or not preempting its job. */
void cq_analyze(struct classad_buf *out, const char *label,
		struct cq_job *jobs, size_t n, classad *const *slots,
		size_t nslots, bool better, const struct cq_prios *prios);

#endif
