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

/* Runs condor_status with argv (argv[0] is the program name used in
 * messages), writing the result to out and messages to err.  Returns the
 * exit status: 0, or 1 on any error. */
int st_main(int argc, const char *const *argv, FILE *out, FILE *err);

/* The query condor_status would send for these arguments, without
 * sending it: *query is new (classad_free()), *command a KS_QUERY_*
 * code.  Returns 0, or the exit status with messages on err. */
int st_query_for_args(int argc, const char *const *argv, FILE *err,
		      classad **query, int *command);

/* ---- growable strings (buf.c) ---------------------------------------- */

/* Output is built in libclassad's text buffer (classad_buf_add,
 * classad_buf_printf); these add what condor_status needs besides. */
void st_buf_add(struct classad_buf *b, const char *s);
void st_buf_addc(struct classad_buf *b, char c);
void st_buf_pad(struct classad_buf *b, char c, size_t n);
void st_buf_truncate(struct classad_buf *b, size_t len);
void st_buf_free(struct classad_buf *b);
/* The text so far ("" when empty).  Borrowed. */
const char *st_buf_str(const struct classad_buf *b);

/* What a printf conversion asks for: HTCondor's extended set, where %v
 * and %V print a ClassAd value, %r its unevaluated text, %T a duration
 * and %Y a date. */
enum st_pft {
	ST_PFT_NONE = 0,
	ST_PFT_INT,
	ST_PFT_FLOAT,
	ST_PFT_CHAR,
	ST_PFT_STRING,
	ST_PFT_POINTER,
	ST_PFT_VALUE,
	ST_PFT_RAW,
	ST_PFT_TIME,
	ST_PFT_DATE,
};

/* The first conversion of a printf format (a "%%" is text). */
struct st_spec {
	bool found;      /* a complete conversion was found */
	bool unsafe;     /* %n, or '*' for a width or precision */
	enum st_pft type;
	char letter;
	int width;       /* 0 when none */
	bool left;       /* the '-' flag */
	size_t start;    /* offset of the '%' */
	size_t mods;     /* offset of the length modifiers */
	size_t end;      /* offset just past the conversion letter */
};

void st_spec_parse(const char *fmt, struct st_spec *sp);

/* Formats fmt (whose first conversion sp describes) with one argument,
 * after making the conversion fit the C type given; any later '%' is
 * printed as text, so that a format with several conversions cannot read
 * arguments that are not there. */
void st_format_int(struct classad_buf *b, const char *fmt, const struct st_spec *sp,
		   long long v);
void st_format_double(struct classad_buf *b, const char *fmt,
		      const struct st_spec *sp, double v);
/* letter replaces the conversion letter ('s' for %v, %V and %r). */
void st_format_str(struct classad_buf *b, const char *fmt, const struct st_spec *sp,
		   const char *v);

/* HTCondor's duration "%3d+%02d:%02d:%02d" and date "%2d/%-2d %02d:%02d"
 * (local time), and byte counts as "%.1f XB". */
void st_format_time(struct classad_buf *b, long long secs);
void st_format_date(struct classad_buf *b, long long when);
void st_metric_units(struct classad_buf *b, double bytes);

/* Collapses C escapes (\n, \t, \\, ...) as HTCondor does for -format.
 * Returns a new string (free()). */
char *st_collapse_escapes(const char *s);

/* strverscmp-like compare of HTCondor's natural sort. */
int st_natural_cmp(const char *a, const char *b);

/* ---- values ------------------------------------------------------------ */

/* HTCondor's IsNumber(): integers, reals and booleans. */
bool st_value_int(const classad_value *v, long long *out);
bool st_value_real(const classad_value *v, double *out);
/* Appends a value as HTCondor's old-syntax unparser prints it. */
void st_value_unparse(struct classad_buf *b, const classad_value *v, bool old);

/* ---- columns (columns.c) --------------------------------------------- */

/* Column options, as HTCondor's print masks have them. */
enum {
	ST_NOPREFIX = 0x01,
	ST_NOSUFFIX = 0x02,
	ST_NOTRUNC = 0x04,
	ST_AUTOW = 0x08,
	ST_LEFT = 0x10,
	ST_ALWAYS = 0x80,
	ST_FIT = 0x200,
	ST_IS_NAME = 0x1000,    /* the column shows Name (width fitting) */
	ST_IS_MACHINE = 0x2000, /* the column shows Machine */
};

/* How a column gets its text: by its printf format alone, or through a
 * function that formats the value (ST_K_*_FMT) or rewrites it before
 * formatting (ST_K_*_RENDER).  The value is converted first to what the
 * kind names. */
enum st_kind {
	ST_K_PRINTF = 0,
	ST_K_INT_FMT,
	ST_K_FLT_FMT,
	ST_K_STR_FMT,
	ST_K_VAL_FMT,
	ST_K_INT_RENDER,
	ST_K_FLT_RENDER,
	ST_K_STR_RENDER,
	ST_K_VAL_RENDER,
};

struct st_col;
/* A renderer rewrites *v (already converted per the kind) and says
 * whether the column is valid; a formatter appends the text. */
typedef bool (*st_render_fn)(classad_value *v, const classad *ad,
			     const struct st_col *c);
typedef void (*st_format_fn)(const classad_value *v, struct classad_buf *out,
			     const struct st_col *c);

struct st_col {
	char *expr;       /* the attribute or expression shown */
	char *heading;    /* NULL: no heading */
	char *printf;     /* NULL: none */
	int width;        /* HTCondor's signed width; < 0 also means left */
	unsigned opts;
	enum st_kind kind;
	st_render_fn render;
	st_format_fn format;
	char alt;         /* shown when the value is not valid */
	bool alt_wide;    /* fill the width with alt ("[????]") */
	enum st_pft type; /* the type of printf's first conversion */
	classad_expr *parsed; /* expr parsed, when it is not an attribute */
	const char *extra;    /* attributes a custom format also reads */
};

/* A table of columns with HTCondor's separators. */
struct st_mask {
	struct st_col *cols;
	size_t n, cap;
	char *row_prefix, *col_prefix, *col_suffix, *row_suffix;
	int overall_width; /* 0: no limit */
	bool has_headings;
};

/* The values of one row, rendered from one ad. */
struct st_row {
	classad_value *v;
	bool *valid;
	size_t n;
};

void st_mask_free(struct st_mask *m);
void st_mask_set_seps(struct st_mask *m, const char *rpre, const char *cpre,
		      const char *cpost, const char *rpost);
/* Adds a column; strings are copied.  width as HTCondor registers it:
 * negative means left-aligned.  With width 0 and a printf format, the
 * format's own width applies. */
struct st_col *st_mask_add(struct st_mask *m, const char *expr,
			   const char *heading, const char *printf, int width,
			   unsigned opts, enum st_kind kind, st_render_fn render,
			   st_format_fn format);

void st_mask_render(struct st_mask *m, const classad *ad, struct st_row *row);
void st_mask_display(struct st_mask *m, struct st_row *row, struct classad_buf *out);
void st_mask_headings(struct st_mask *m, struct classad_buf *out);
void st_row_free(struct st_row *row);

/* ---- custom renderers (renderers.c) ------------------------------- */

struct st_custom {
	const char *name;
	enum st_kind kind;
	st_render_fn render;
	st_format_fn format;
	const char *printf; /* default format, or NULL */
	const char *extra;  /* other attributes it reads, space-separated */
};

/* The custom formats by HTCondor's PRINTAS names, or NULL. */
const struct st_custom *st_custom_find(const char *name);

/* One-letter codes of HTCondor's states and activities. */
enum st_state {
	ST_NO_STATE = 0, ST_OWNER, ST_UNCLAIMED, ST_MATCHED, ST_CLAIMED,
	ST_PREEMPTING, ST_SHUTDOWN, ST_DELETE, ST_BACKFILL, ST_DRAINED,
	ST_STATE_THRESHOLD, ST_STATE_ERROR,
};
enum st_activity {
	ST_NO_ACT = 0, ST_IDLE, ST_BUSY, ST_RETIRING, ST_VACATING,
	ST_SUSPENDED, ST_BENCHMARKING, ST_KILLING, ST_CLEANING,
	ST_ACT_THRESHOLD, ST_ACT_ERROR,
};
enum st_state st_state_of(const char *s);
enum st_activity st_activity_of(const char *s);
void st_state_code(char sa[3], enum st_state st, enum st_activity ac);

/* Typed lookups of an ad attribute, as HTCondor's Lookup*(). */
bool st_ad_int(const classad *ad, const char *name, long long *out);
bool st_ad_real(const classad *ad, const char *name, double *out);
bool st_ad_bool(const classad *ad, const char *name, bool *out);
/* A new string (free()), or NULL. */
char *st_ad_string(const classad *ad, const char *name);
/* Arch/OpSysAndVer as HTCondor's PLATFORM shows it ("x64/Ubuntu22"). */
bool st_platform_name(const classad *ad, struct classad_buf *out);

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

enum st_ads_format { ST_ADS_LONG, ST_ADS_JSON, ST_ADS_NEW, ST_ADS_XML,
		     ST_ADS_AUTO };

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
	enum st_ads_format ads_format;
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
	char **proj;            /* projection, sorted, no duplicates */
	size_t nproj;
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
void st_table_init(struct st_mask *m, struct st_layout *lay,
		   enum st_style style, bool compact, bool wide, int width);
/* Gives the Name and Machine columns their widths (HTCondor's adjust
 * step), and adds every attribute the table needs to the projection. */
void st_table_adjust(struct st_mask *m, const struct st_layout *lay,
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

/* ---- -af and -format (af.c) -------------------------------------- */

/* Adds the columns of one -af or -format argument.  Returns 0, or 1 with
 * the message written on err. */
int st_af_add(struct st_mask *m, const struct st_item *it,
	      struct st_query *q, FILE *err);

/* ---- whole ads (output.c) ---------------------------------------- */

/* Appends the text of one ad in a long form (attrs, if not NULL, are the
 * only attributes shown). */
void st_long_text(struct classad_buf *out, enum st_style style,
		  const classad *ad, char *const *attrs, size_t nattrs);
/* st_long_text() for -long from the ad's wire record, whose lines are
 * already what -long prints; false (nothing appended) when the record
 * is NULL or not in old syntax. */
bool st_long_lines(struct classad_buf *out, const struct ks_wire_record *rec,
		   char *const *attrs, size_t nattrs);
/* Appends one ad's text from st_long_text(), with what goes before it
 * in the listing; index 0 is the first ad written. */
void st_print_long_ad(struct classad_buf *out, enum st_style style,
		      const char *text, size_t len, size_t index);
/* Closes the list a JSON or new-syntax output opened. */
void st_print_long_end(struct classad_buf *out, enum st_style style,
		       size_t count);

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
	struct st_row row;
};

/* Slot flags and, for a partitionable slot, the state of its children
 * folded into the ST column. */
void st_compact_ingest(struct st_entry *e, const struct st_layout *lay);
/* Folds the slots of each machine into one row (entries sorted). */
void st_compact_reduce(struct st_entry **es, size_t n,
		       const struct st_layout *lay);

#endif
