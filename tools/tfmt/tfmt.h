/*
 * tfmt.h: what kestrel's query tools share (libks_tfmt): flags matched
 * as HTCondor matches them, HTCondor's print masks (tables of columns with headings, widths and
 * custom renderers), -af and -format, whole ads as -long and -json print
 * them, the printf conversions HTCondor adds (%v %V %r %T %Y), the
 * custom column functions of HTCondor's global print-format table, and
 * ads read from a file with a constraint.
 *
 * condor_status, condor_q and condor_history print through this module,
 * so a column, a date or a -af option looks the same in each.  Names
 * carry the tf_ prefix.  Nothing here talks to a daemon.
 */
#ifndef KS_TFMT_H
#define KS_TFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "classad.h"
#include "ks_wire.h"

/* ---- flags (tf_flag.c) ------------------------------------------------ */

/* Is arg "-name" (or "--name" spelled out) abbreviated to at least min
 * characters?  With colon not NULL, "-name:opts" matches too and *colon
 * gets what follows the ':' (NULL if none). */
bool tf_flag(const char *arg, const char *name, int min, const char **colon);

/* ---- growable strings (tf_buf.c) ------------------------------------- */

/* Output is built in libclassad's text buffer (classad_buf_add,
 * classad_buf_printf); these add what the tools need besides. */
void tf_buf_add(struct classad_buf *b, const char *s);
void tf_buf_addc(struct classad_buf *b, char c);
void tf_buf_pad(struct classad_buf *b, char c, size_t n);
void tf_buf_truncate(struct classad_buf *b, size_t len);
void tf_buf_free(struct classad_buf *b);
/* The text so far ("" when empty).  Borrowed. */
const char *tf_buf_str(const struct classad_buf *b);

/* What a printf conversion asks for: HTCondor's extended set, where %v
 * and %V print a ClassAd value, %r its unevaluated text, %T a duration
 * and %Y a date. */
enum tf_pft {
	TF_PFT_NONE = 0,
	TF_PFT_INT,
	TF_PFT_FLOAT,
	TF_PFT_CHAR,
	TF_PFT_STRING,
	TF_PFT_POINTER,
	TF_PFT_VALUE,
	TF_PFT_RAW,
	TF_PFT_TIME,
	TF_PFT_DATE,
};

/* The first conversion of a printf format (a "%%" is text). */
struct tf_spec {
	bool found;      /* a complete conversion was found */
	bool unsafe;     /* %n, or '*' for a width or precision */
	enum tf_pft type;
	char letter;
	int width;       /* 0 when none */
	bool left;       /* the '-' flag */
	size_t start;    /* offset of the '%' */
	size_t mods;     /* offset of the length modifiers */
	size_t end;      /* offset just past the conversion letter */
};

void tf_spec_parse(const char *fmt, struct tf_spec *sp);

/* Formats fmt (whose first conversion sp describes) with one argument,
 * after making the conversion fit the C type given; any later '%' is
 * printed as text, so that a format with several conversions cannot read
 * arguments that are not there. */
void tf_format_int(struct classad_buf *b, const char *fmt, const struct tf_spec *sp,
		   long long v);
void tf_format_double(struct classad_buf *b, const char *fmt,
		      const struct tf_spec *sp, double v);
/* letter replaces the conversion letter ('s' for %v, %V and %r). */
void tf_format_str(struct classad_buf *b, const char *fmt, const struct tf_spec *sp,
		   const char *v);

/* HTCondor's duration "%3d+%02d:%02d:%02d" and date "%2d/%-2d %02d:%02d"
 * (local time), and byte counts as "%.1f XB". */
void tf_format_time(struct classad_buf *b, long long secs);
void tf_format_date(struct classad_buf *b, long long when);
void tf_metric_units(struct classad_buf *b, double bytes);

/* Collapses C escapes (\n, \t, \\, ...) as HTCondor does for -format.
 * Returns a new string (free()). */
char *tf_collapse_escapes(const char *s);

/* strverscmp-like compare of HTCondor's natural sort. */
int tf_natural_cmp(const char *a, const char *b);

/* HTCondor's IsNumber(): integers, reals and booleans. */
bool tf_value_int(const classad_value *v, long long *out);
bool tf_value_real(const classad_value *v, double *out);
/* Appends a value as HTCondor's old-syntax unparser prints it. */
void tf_value_unparse(struct classad_buf *b, const classad_value *v, bool old);

/* ---- attribute names (tf_names.c) ------------------------------------ */

/* A set of attribute names, sorted without regard to case as HTCondor's
 * attribute sets are: what a query projects. */
struct tf_names {
	char **v; /* owned */
	size_t n;
};

void tf_names_add(struct tf_names *s, const char *name);
/* Every attribute name an expression text mentions (identifiers that are
 * not functions, keywords or scope prefixes); a name too many does no
 * harm to a projection. */
void tf_names_add_expr(struct tf_names *s, const char *expr);
bool tf_names_has(const struct tf_names *s, const char *name);
/* The names separated by spaces: a new string (free()), "" when none. */
char *tf_names_join(const struct tf_names *s);
void tf_names_clear(struct tf_names *s);

/* ---- columns (tf_mask.c) --------------------------------------------- */

/* Column options, as HTCondor's print masks have them. */
enum {
	TF_NOPREFIX = 0x01,
	TF_NOSUFFIX = 0x02,
	TF_NOTRUNC = 0x04,
	TF_AUTOW = 0x08,
	TF_LEFT = 0x10,
	TF_HIDDEN = 0x40, /* neither the heading nor the values are shown */
	TF_ALWAYS = 0x80,
	TF_FIT = 0x200,
	TF_USER1 = 0x1000, /* left to the caller: the mask ignores them */
	TF_USER2 = 0x2000,
};

/* How a column gets its text: by its printf format alone, or through a
 * function that formats the value (TF_K_*_FMT) or rewrites it before
 * formatting (TF_K_*_RENDER).  The value is converted first to what the
 * kind names. */
enum tf_kind {
	TF_K_PRINTF = 0,
	TF_K_INT_FMT,
	TF_K_FLT_FMT,
	TF_K_STR_FMT,
	TF_K_VAL_FMT,
	TF_K_INT_RENDER,
	TF_K_FLT_RENDER,
	TF_K_STR_RENDER,
	TF_K_VAL_RENDER,
};

struct tf_col;
/* A renderer rewrites *v (already converted per the kind) and says
 * whether the column is valid; a formatter appends the text. */
typedef bool (*tf_render_fn)(classad_value *v, const classad *ad,
			     const struct tf_col *c);
typedef void (*tf_format_fn)(const classad_value *v, struct classad_buf *out,
			     const struct tf_col *c);

struct tf_col {
	char *expr;       /* the attribute or expression shown */
	char *heading;    /* NULL: no heading */
	char *printf;     /* NULL: none */
	int width;        /* HTCondor's signed width; < 0 also means left */
	unsigned opts;
	enum tf_kind kind;
	tf_render_fn render;
	tf_format_fn format;
	char alt;         /* shown when the value is not valid */
	bool alt_wide;    /* fill the width with alt ("[????]") */
	enum tf_pft type; /* the type of printf's first conversion */
	classad_expr *parsed; /* expr parsed, when it is not an attribute */
	const char *extra;    /* attributes a custom format also reads */
};

/* A table of columns with HTCondor's separators. */
struct tf_mask {
	struct tf_col *cols;
	size_t n, cap;
	char *row_prefix, *col_prefix, *col_suffix, *row_suffix;
	int overall_width; /* 0: no limit */
	bool has_headings;
};

/* The values of one row, rendered from one ad.  A caller may rewrite
 * v[i] and valid[i] between rendering and display (condor_q's batch
 * rows are sums of several jobs). */
struct tf_row {
	classad_value *v;
	bool *valid;
	size_t n;
};

void tf_mask_free(struct tf_mask *m);
void tf_mask_set_seps(struct tf_mask *m, const char *rpre, const char *cpre,
		      const char *cpost, const char *rpost);
/* Adds a column; strings are copied.  width as HTCondor registers it:
 * negative means left-aligned.  With width 0 and a printf format, the
 * format's own width applies.  The column is borrowed: valid until the
 * next tf_mask_add(). */
struct tf_col *tf_mask_add(struct tf_mask *m, const char *expr,
			   const char *heading, const char *printf, int width,
			   unsigned opts, enum tf_kind kind, tf_render_fn render,
			   tf_format_fn format);

void tf_mask_render(struct tf_mask *m, const classad *ad, struct tf_row *row);
void tf_mask_display(struct tf_mask *m, struct tf_row *row, struct classad_buf *out);
void tf_mask_headings(struct tf_mask *m, struct classad_buf *out);
void tf_row_free(struct tf_row *row);

/* One column of a built-in table, as HTCondor's print formats name it:
 * custom is a PRINTAS name (tf_custom_find()) or NULL. */
struct tf_coldef {
	const char *expr;
	const char *head;
	int width;
	unsigned opts;
	const char *printf;
	const char *custom;
	char alt;
	bool alt_wide;
};

/* Adds one column, or each column of a list ended by a NULL expr. */
struct tf_col *tf_mask_add_def(struct tf_mask *m, const struct tf_coldef *d);
void tf_mask_add_defs(struct tf_mask *m, const struct tf_coldef *d);

/* ---- custom column functions (tf_render.c, tf_render_job.c) ----------- */

struct tf_custom {
	const char *name;
	enum tf_kind kind;
	tf_render_fn render;
	tf_format_fn format;
	const char *printf; /* default format, or NULL */
	const char *extra;  /* other attributes it reads, space-separated */
};

/* The custom formats by HTCondor's PRINTAS names, or NULL: the global
 * ones (dates, times, platform, activity) and the job ones (OWNER,
 * JOB_STATUS, JOB_DESCRIPTION, MEMORY_USAGE, BATCH_NAME, CPU_TIME, ...). */
const struct tf_custom *tf_custom_find(const char *name);

/* One-letter codes of HTCondor's states and activities. */
enum tf_state {
	TF_NO_STATE = 0, TF_OWNER, TF_UNCLAIMED, TF_MATCHED, TF_CLAIMED,
	TF_PREEMPTING, TF_SHUTDOWN, TF_DELETE, TF_BACKFILL, TF_DRAINED,
	TF_STATE_THRESHOLD, TF_STATE_ERROR,
};
enum tf_activity {
	TF_NO_ACT = 0, TF_IDLE, TF_BUSY, TF_RETIRING, TF_VACATING,
	TF_SUSPENDED, TF_BENCHMARKING, TF_KILLING, TF_CLEANING,
	TF_ACT_THRESHOLD, TF_ACT_ERROR,
};
enum tf_state tf_state_of(const char *s);
enum tf_activity tf_activity_of(const char *s);
void tf_state_code(char sa[3], enum tf_state st, enum tf_activity ac);

/* Typed lookups of an ad attribute, as HTCondor's Lookup*(). */
bool tf_ad_int(const classad *ad, const char *name, long long *out);
bool tf_ad_real(const classad *ad, const char *name, double *out);
bool tf_ad_bool(const classad *ad, const char *name, bool *out);
/* Arch/OpSysAndVer as HTCondor's PLATFORM shows it ("x64/Ubuntu22"). */
bool tf_platform_name(const classad *ad, struct classad_buf *out);

/* ---- -af and -format (tf_af.c) --------------------------------------- */

/* Adds the column of "-format FMT EXPR", and the attributes it reads to
 * proj.  Returns 0, or 1 with HTCondor's message written on err. */
int tf_format_add(struct tf_mask *m, const char *fmt, const char *expr,
		  struct tf_names *proj, FILE *err);
/* Adds the columns of "-af[:OPTS] EXPR...", OPTS the letters after the
 * colon (NULL for none).  Returns 0, or 1 with the message on err. */
int tf_af_add(struct tf_mask *m, const char *opts, int argc,
	      const char *const *argv, struct tf_names *proj, FILE *err);

/* ---- whole ads (tf_long.c) ------------------------------------------- */

enum tf_long_form { TF_LONG_OLD, TF_LONG_JSON, TF_LONG_NEW, TF_LONG_XML };

/* Appends the text of one ad in a long form (attrs, if not NULL, are the
 * only attributes shown), sorted by name without regard to case, private
 * attributes (claim ids) left out. */
void tf_long_text(struct classad_buf *out, enum tf_long_form form,
		  const classad *ad, char *const *attrs, size_t nattrs);
/* tf_long_text() for -long from the ad's wire record, whose lines are
 * already what -long prints; false (nothing appended) when the record
 * is NULL or not in old syntax. */
bool tf_long_lines(struct classad_buf *out, const struct ks_wire_record *rec,
		   char *const *attrs, size_t nattrs);
/* The attributes of names (and no others) from the lines of an
 * old-syntax wire record, for what must read an ad whose -long text
 * comes from tf_long_lines(): a new ad, or NULL when the record is not
 * in old syntax or one of them is not a plain value (it might need
 * other attributes then) or does not parse. */
classad *tf_record_pick(const struct ks_wire_record *rec,
			const struct tf_names *names);
/* Appends one ad's text from tf_long_text(), with what goes before it
 * in the listing (JSON's "[", XML's header); index 0 is the first ad
 * written. */
void tf_print_long_ad(struct classad_buf *out, enum tf_long_form form,
		      const char *text, size_t len, size_t index);
/* Closes the list a JSON or new-syntax output opened.  XML, as
 * HTCondor's tools print it, always has its header and footer: with no
 * ads, the header comes here. */
void tf_print_long_end(struct classad_buf *out, enum tf_long_form form,
		       size_t count);

/* ---- ads from a file (tf_adfile.c) ------------------------------------ */

enum tf_ads_format { TF_ADS_LONG, TF_ADS_JSON, TF_ADS_NEW, TF_ADS_XML,
		     TF_ADS_AUTO };

/* The form named after a colon ("long", "json", "new", "xml", "auto"),
 * or dflt for none or an unknown name. */
enum tf_ads_format tf_ads_format_of(const char *s, enum tf_ads_format dflt);

/* Reads the ads of a file ("-" for stdin) one by one, keeping those for
 * which constraint (NULL: all) is true, and hands each to fn, which owns
 * it from then on and returns 0 to go on.  When banners is set, lines
 * beginning with "-- " (the header condor_q prints), "***" (a history
 * file's) or "..." separate ads as blank lines do.  flag names the option in messages ("-ads").  Returns
 * 0, or 1 with the message on err. */
int tf_read_ads(const char *path, enum tf_ads_format fmt, bool banners,
		const classad_expr *constraint,
		int (*fn)(classad *ad, void *arg), void *arg, const char *flag,
		FILE *err);

/* HTCondor takes a constraint as true when it is true or a non-zero
 * number. */
bool tf_constraint_true(const classad *ad, const classad_expr *c);

#endif
