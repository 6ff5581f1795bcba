/*
 * who.h: condor_who, as HTCondor 25's (src/condor_who/who.cpp): run on an
 * execute machine, it finds this machine's startd the way HTCondor's tool
 * does (the address files and the master's log in LOG, or -logdir, or
 * -address), asks it directly for the slots that run a job, and prints
 * HTCondor's table of them; -daemons prints the local daemons instead.
 * A library (ks_who) so that tests can run it in-process.
 *
 * Files: args.c (the command line), logdir.c (what LOG says about the
 * daemons), daemons.c (the -daemons and -verbose tables), query.c (the
 * startd's answer), render.c (the columns that look at the job's
 * process), show.c (tables, banner, -long), run.c (the whole command).
 * Names carry the who_ prefix.
 */
#ifndef KS_WHO_H
#define KS_WHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "tfmt.h"

/* Runs condor_who with argv (argv[0] names the program in messages),
 * writing to out and err.  Returns the exit status: 0, or 1 on any
 * error, and 1 for -help as HTCondor's does. */
int who_main(int argc, const char *const *argv, FILE *out, FILE *err);

/* ---- options (args.c) -------------------------------------------------- */

/* One -format or -af, in the order given. */
struct who_item {
	bool af;
	const char *fmt, *expr; /* -format FMT EXPR */
	const char *opts;       /* -af's letters after the colon, or NULL */
	int argc;               /* -af's attributes, argv's strings */
	const char *const *argv;
};

struct who_opts {
	const char *prog;        /* argv[0]'s last part */
	bool verbose;            /* -verbose: the log directory's table too */
	bool diag;               /* -diagnostic: how the startd was found */
	bool debug;              /* -debug: why a daemon could not be asked */
	bool daemons;            /* -daemons: the daemons, not the jobs */
	bool dash_long;          /* -long */
	bool wide;               /* -wide: no overall width */
	int forced_width;        /* -wide:N, 0 for none */
	bool no_config_val;      /* -noccv: ask no daemon for knobs */
	const char **addrs;      /* -address, in order (array owned) */
	size_t naddrs;
	const char **logdirs;    /* -logdir, in order (array owned) */
	size_t nlogdirs;
	const char **constraints; /* -constraint, ANDed (array owned) */
	size_t nconstraints;
	int limit;               /* -limit, 0 for none */
	struct who_item *items;  /* -af and -format (array owned) */
	size_t nitems;
};

/* who_parse()'s answer when the command should go on. */
#define WHO_GO (-1)

/* Parses argv into *o (zeroed first).  Returns WHO_GO, or the exit
 * status after writing HTCondor's message to err (usage, -help).  Free
 * *o with who_opts_free() either way. */
int who_parse(int argc, const char *const *argv, struct who_opts *o,
	      FILE *err);
void who_opts_free(struct who_opts *o);
/* The usage text, on err. */
void who_usage(const char *prog, FILE *err);

/* ---- the log directory (logdir.c) -------------------------------------- */

/* What a log directory says about one daemon, named as HTCondor's tool
 * names them ("Master", "Startd", "Slot1"); empty strings for unknown. */
struct who_daemon {
	char name[64];
	char addr[320];     /* from its address file, else its log */
	char pid[24];       /* the latest, from the master's log */
	char exit_code[24]; /* set once the master saw it exit */
	char log[256];      /* file names in the directory */
	char log_old[256];
};

struct who_logdir {
	const char *dir;         /* borrowed */
	struct who_daemon *d;    /* sorted by name (owned) */
	size_t n;
};

/* Reads dir's address files and log names, then the master's log (the
 * pids of the daemons it started, and how they exited) and, for daemons
 * still without an address, their own logs.  addresses_only: every
 * daemon's log is read for its address (-daemons); otherwise only the
 * startd's and the schedd's, as HTCondor's tool does. */
void who_logdir_scan(const char *dir, bool addresses_only,
		     struct who_logdir *l);
void who_logdir_free(struct who_logdir *l);
/* The entry of name, or NULL.  Borrowed. */
struct who_daemon *who_logdir_find(struct who_logdir *l, const char *name);
/* The knob that names a daemon's program (and its subsystem):
 * "Startd" -> "STARTD", "SharedPort" -> "SHARED_PORT".  Into buf. */
void who_daemon_subsys(const char *name, char *buf, size_t size);

/* ---- the daemons (daemons.c) ------------------------------------------- */

/* The value of knob name as the daemon at addr has it (DC_CONFIG_VAL),
 * or NULL (new string otherwise).  Says "Cannot connect to ADDR" on err
 * when the daemon cannot be reached, as HTCondor's tool does. */
char *who_daemon_param(const ks_config *cfg, const struct who_opts *o,
		       const char *addr, const char *name, FILE *err);
/* Asks each daemon with an address but no pid for its PID. */
void who_fill_pids(const ks_config *cfg, const struct who_opts *o,
		   struct who_logdir *l, FILE *err);
/* -verbose's table: every entry, with its log files. */
void who_print_log_info(const struct who_logdir *l, FILE *out);
/* -daemons' table: the daemons with a pid, an exit or an address, each
 * asked whether it is alive (its PPID) and what program it runs. */
void who_print_daemons(const ks_config *cfg, const struct who_opts *o,
		       const struct who_logdir *l, FILE *out, FILE *err);

/* ---- asking the startd (query.c) --------------------------------------- */

/* Sends query (a QUERY_STARTD_ADS query ad) to the startd at addr and
 * collects its answer: *ads is a new array of new ads (ks_ads_free()).
 * Returns 0, or a KS_E* code with err saying what failed. */
int who_query(const ks_config *cfg, const char *addr, const classad *query,
	      classad ***ads, size_t *n, struct ks_err *err);

/* ---- columns that look at the job's process (render.c) ----------------- */

/* A custom column by HTCondor's print-format name (SLOT_ID, JOB_PID,
 * JOB_PROGRAM, JOB_DIR, JOB_DIRCMD), or NULL. */
const struct tf_custom *who_custom_find(const char *name);

/* The print-format line behind an -af column "#NAME" (DIR, DIRCMD, PID,
 * PROGRAM, RUNTIME, SLOT, SlotID; case ignored): its expression and
 * custom name, or false. */
bool who_af_column(const char *name, const char **expr, const char **custom);

/* ---- output (show.c) --------------------------------------------------- */

/* How the ads are printed: the table (HTCondor's default, or -af and
 * -format), and the banner line above it. */
struct who_show {
	const struct who_opts *o;
	struct tf_mask m;        /* empty for -long */
	struct tf_mask banner;
	struct tf_names proj;    /* what the query asks for; none: all */
};

/* Builds the table the options ask for, cut to the width of out's
 * terminal unless -wide.  Returns 0, or the exit status after writing
 * the message to err (an -af or -format that does not parse). */
int who_show_init(struct who_show *sh, const struct who_opts *o, FILE *out,
		  FILE *err);
void who_show_free(struct who_show *sh);
/* Prints the answer of one startd, as HTCondor's tool does: nothing for
 * no ads; else the banner, the headings, a row per ad, a blank line (or
 * the ads whole, for -long). */
void who_show_ads(struct who_show *sh, classad *const *ads, size_t n,
		  FILE *out);

#endif
