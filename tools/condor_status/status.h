/*
 * status.h: condor_status, as a library (ks_status) so that tests and
 * later integration tests can run it without a process of its own.
 *
 * The command follows HTCondor's condor_status: the same flags, the same
 * query ads, the same tables byte for byte.  Where a width, a heading or
 * a message comes from is said beside the table that holds it (tables.c,
 * totals.c, args.c).
 *
 * Internal names carry the st_ prefix; st_main() is the entry point.
 */
#ifndef KS_STATUS_H
#define KS_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "classad.h"
#include "ks_wire.h"
#include "tfmt.h"

/* Runs condor_status with argv (argv[0] is the program name used in
 * messages), writing the result to out and messages to err.  Returns the
 * exit status: 0, or 1 on any error. */
int st_main(int argc, const char *const *argv, FILE *out, FILE *err);

/* The query condor_status would send for these arguments, without
 * sending it: *query is new (classad_free()), *command a KS_QUERY_*
 * code.  Returns 0, or the exit status with messages on err. */
int st_query_for_args(int argc, const char *const *argv, FILE *err,
		      classad **query, int *command);

/* Column marks read by condor_status's own steps (fitting to the
 * terminal), which the mask itself ignores. */
enum { ST_IS_NAME = TF_USER1, ST_IS_MACHINE = TF_USER2 };

/* ---- options (args.c) -------------------------------------------- */

/* What is queried, HTCondor's SDO_* modes that kestrel has. */
enum st_mode {
	ST_M_NOTSET = 0,
	ST_M_SLOTS,
	ST_M_SLOTS_AVAIL,
	ST_M_SLOTS_CLAIMED,
	ST_M_STARTD,
	ST_M_SCHEDD,
	ST_M_SCHEDD_RUN,
	ST_M_SUBMITTERS,
	ST_M_MASTER,
	ST_M_COLLECTOR,
	ST_M_NEGOTIATOR,
	ST_M_GENERIC,
	ST_M_ANY,
	ST_M_OTHER,
};

/* How it is shown; the order is HTCondor's ppOption order, which decides
 * which of two display flags wins. */
enum st_style {
	ST_PP_NOTSET = 0,
	ST_PP_SLOTS_NORMAL,
	ST_PP_SLOTS_SERVER,
	ST_PP_SLOTS_STATE,
	ST_PP_SLOTS_RUN,
	ST_PP_STARTDAEMON,
	ST_PP_SCHEDD_NORMAL,
	ST_PP_SCHEDD_RUN,
	ST_PP_SUBMITTER,
	ST_PP_MASTER,
	ST_PP_COLLECTOR,
	ST_PP_NEGOTIATOR,
	ST_PP_GENERIC_NORMAL,
	ST_PP_GENERIC,
	ST_PP_CUSTOM,
	ST_PP_LONG,
	ST_PP_XML,
	ST_PP_JSON,
	ST_PP_NEW,
};
#define ST_PP_LONGISH(s) ((s) >= ST_PP_LONG && (s) <= ST_PP_NEW)

/* Header and footer switches (HTCondor's HF_*). */
enum { ST_HF_NOTITLE = 1, ST_HF_NOHEADER = 2, ST_HF_NOSUMMARY = 4,
       ST_HF_BARE = 15 };

/* The arguments that act in the order given (constraints, formats). */
enum st_item_kind { ST_I_CONSTRAINT, ST_I_NAME, ST_I_SORT, ST_I_FORMAT,
		    ST_I_AF };
struct st_item {
	enum st_item_kind kind;
	const char *a, *b;  /* the arguments (borrowed from argv) */
	const char *opts;   /* -af's letters after the colon */
	int argc;           /* -af: how many attribute arguments */
	const char *const *argv;
};

struct st_opts {
	const char *prog;
	enum st_mode mode;
	int mode_arg;
	const char *mode_argstr;
	enum st_style style;
	int style_arg;
	const char *style_argstr;
	int headfoot;
	bool explicit_format;
	bool want_only_totals;
	bool compact;
	bool expert;
	bool wide;
	int forced_width;
	bool natural; /* -natural[:off]; HTCondor's rows sort naturally anyway */
	bool no_sort;
	const char *pool;
	const char *ads_file;
	enum tf_ads_format ads_format;
	const char *generic_type;
	int limit;
	char **attributes; /* -attributes, split at commas */
	size_t nattributes;
	struct st_item *items;
	size_t nitems;
};

/* Parses argv.  Returns -1 to go on, or the exit status when the
 * arguments say to stop (-help: 0, an error: 1), with messages on err. */
int st_parse_args(int argc, const char *const *argv, struct st_opts *o,
		  FILE *out, FILE *err);
void st_opts_free(struct st_opts *o);
void st_usage(FILE *err, const char *prog);

/* ---- the query (fetch.c) ----------------------------------------- */

struct st_query {
	int command;            /* a KS_QUERY_* code */
	const char *target;     /* TargetType */
	char **ands, **ors;     /* the constraints, as HTCondor adds them */
	size_t nands, nors;
	struct tf_names proj;   /* projection */
	bool no_trivial_req;    /* QUERY_MULTIPLE_ADS: no Requirements = true */
};

void st_query_and(struct st_query *q, const char *expr);
void st_query_or(struct st_query *q, const char *expr);
void st_query_project(struct st_query *q, const char *attr);
/* Every attribute name an expression text mentions. */
void st_query_project_expr(struct st_query *q, const char *expr);
void st_query_free(struct st_query *q);
/* The constraint as HTCondor writes it, or NULL when there is none. */
char *st_query_requirements(const struct st_query *q);

/* The query ad sent to the collector (new; classad_free()). */
classad *st_query_ad(const struct st_query *q, const classad_expr *constraint,
		     int limit);

/* Where the ads go as they come: parsed ads from a file to ad() (which
 * owns them), the collector's records to record().  Each returns 0 to go
 * on. */
struct st_sink {
	int (*ad)(classad *ad, void *arg);
	ks_wire_record_fn record;
	void *arg;
	struct ks_err err; /* why record() stopped */
};

/* Gets the ads: from the -ads file (with the constraint, the ad type and
 * -limit applied) or from the collector, handing each to the sink as it
 * comes.  Returns 0, or 1 with the message written on err; ads handed
 * over before a failure stay handed over. */
int st_fetch(const struct st_opts *o, const struct st_query *q,
	     const struct st_sink *sink, FILE *err);

/* ---- tables (tables.c), totals (totals.c) ------------------------ */

struct st_layout {
	int width_of_fixed_cols; /* for fitting Name into a terminal */
	int name_width, machine_width;
	unsigned name_flags, machine_flags;
	int headfoot;            /* the table's summary choice */
	const char *where;       /* a constraint the table adds, or NULL */
	/* compact mode's column indexes (-1 when absent) */
	int ix_platform, ix_slots, ix_freecpus, ix_freemem, ix_actcode,
	    ix_jobstarts, ix_maxslotmem, ix_machineslot;
};

/* Fills m with the default table of style; width is the display width
 * less one, as HTCondor passes it. */
void st_table_init(struct tf_mask *m, struct st_layout *lay,
		   enum st_style style, bool compact, bool wide, int width);
/* Gives the Name and Machine columns their widths (HTCondor's adjust
 * step), and adds every attribute the table needs to the projection. */
void st_table_adjust(struct tf_mask *m, const struct st_layout *lay,
		     bool wide, struct st_query *q);

struct st_totals;
struct st_totals *st_totals_new(enum st_style style);
void st_totals_free(struct st_totals *t);
bool st_totals_meaningful(const struct st_totals *t);
/* options: the ST_TOT_* flags; key NULL or "" derives it from the ad. */
enum { ST_TOT_ROLLUP_PARTITIONABLE = 2, ST_TOT_IGNORE_DYNAMIC = 4,
       ST_TOT_BACKFILL_SLOTS = 8 };
void st_totals_update(struct st_totals *t, const classad *ad, int options,
		      const char *key);
/* keylen < 0: as wide as the longest key (at least 5). */
void st_totals_display(const struct st_totals *t, struct classad_buf *out,
		       int keylen);
void st_totals_project(enum st_style style, struct st_query *q);

/* ---- sorting (sort.c) -------------------------------------------- */

struct st_sort {
	classad_expr **keys;
	char **texts;
	size_t n;
};
/* Adds a sort expression; returns false if it does not parse. */
bool st_sort_add(struct st_sort *s, const char *text);
/* Makes text the first key, replacing a first key equal to attr. */
void st_sort_force_primary(struct st_sort *s, const char *attr,
			   const char *text);
void st_sort_key(const struct st_sort *s, const classad *ad, unsigned ord,
		 struct classad_buf *key);
void st_sort_free(struct st_sort *s);

/* ---- compact rows (compact.c) ------------------------------------ */

enum {
	ST_R_COOKED = 0x0001,
	ST_R_FOLDED = 0x0004,
	ST_R_ROWN = 0x0010,
	ST_R_DYNAMIC = 0x0200,
	ST_R_PARTITIONABLE = 0x0400,
	ST_R_BACKFILL = 0x0800,
	ST_R_AP_RESERVED = 0x1000,
	ST_R_BUSY = 0x2000,
	ST_R_UNAVAIL = 0x4000,
	ST_R_EXHAUSTED = 0x8000,
};

/* One ad as it will be shown. */
struct st_entry {
	classad *ad;       /* only while the entry is made */
	char *key;         /* sort key */
	size_t text_at;    /* the whole ad, for the long forms: where in */
	size_t text_len;   /* the run's text buffer, and how long */
	char *label;       /* slot name before '@' (compact) */
	unsigned flags;
	struct tf_row row;
};

/* Slot flags and, for a partitionable slot, the state of its children
 * folded into the ST column. */
void st_compact_ingest(struct st_entry *e, const struct st_layout *lay);
/* Folds the slots of each machine into one row (entries sorted). */
void st_compact_reduce(struct st_entry **es, size_t n,
		       const struct st_layout *lay);

#endif
