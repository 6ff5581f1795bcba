/*
 * wq.h: condor_watch_q's parts (library ks_wq, prefix wq_), so that unit
 * tests can drive them without a pool:
 *
 *   wq_args.c    the command line, parsed as HTCondor's argparse-based
 *                tool parses it (abbreviations, messages, exit codes);
 *   wq_track.c   the jobs' states as their event logs tell them, the
 *                rows of the table (grouped and counted) and the -exit
 *                conditions;
 *   wq_render.c  the text shown each turn: table, progress bars, summary;
 *   wq_find.c    which event logs to follow (the schedd's answer, -files)
 *                and following them;
 *   main.c       the loop.
 *
 * HTCondor's condor_watch_q (a Python script) is the specification of
 * everything a user sees; docs/man/condor_watch_q.md describes it.
 */
#ifndef KS_WQ_H
#define KS_WQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* A job's state, in the order of the table's columns. */
enum wq_state {
	WQ_REMOVED,
	WQ_HELD,
	WQ_SUSPENDED,
	WQ_IDLE,
	WQ_INPUT,  /* transferring input */
	WQ_RUN,
	WQ_OUTPUT, /* transferring output */
	WQ_DONE,
	WQ_NSTATES,
	WQ_UNSEEN = 0xff /* no event about this proc yet */
};

/* The column heading of a state ("RUN" for WQ_RUN). */
const char *wq_state_name(enum wq_state s);

/* ---- -exit conditions (wq_args.c) -------------------------------------- */

enum wq_grouper { WQ_ALL, WQ_ANY, WQ_NONE };
enum wq_check { WQ_CHECK_ACTIVE, WQ_CHECK_DONE, WQ_CHECK_IDLE,
		WQ_CHECK_HELD };

struct wq_exit {
	enum wq_grouper grouper;
	enum wq_check check;
	int status;       /* the exit status, as the shell sees it (0..255) */
	char disp[32];    /* "all done", as the exit message names it */
};

/* Reads "GROUPER,JOB_STATUS[,EXIT_STATUS]" into *out.  Returns 0, or -1
 * with msg (size n) saying what is wrong, in HTCondor's words. */
int wq_exit_parse(const char *spec, struct wq_exit *out, char *msg, size_t n);

/* ---- the command line (wq_args.c) --------------------------------------- */

enum wq_groupby { WQ_BY_BATCH, WQ_BY_LOG, WQ_BY_CLUSTER };

struct wq_strs {
	char **v; /* borrowed from argv */
	size_t n;
};

struct wq_opts {
	bool debug;
	bool has_users, has_clusters, has_files, has_batches;
	struct wq_strs users, clusters, files, batches;
	bool has_since;
	long since;              /* -larger-than */
	const char *collector;   /* NULL: the local one */
	const char *schedd;      /* NULL: the local one */
	double interval;         /* seconds */
	struct wq_exit *exits;   /* owned (free()) */
	size_t nexits;
	int key_press;           /* -1: default (stdout is a terminal) */
	enum wq_groupby groupby;
	bool display_exited;
	long decay;              /* -exited-row-decay, seconds */
	bool decay_at_read;
	bool table, progress, row_progress, summary, percentages;
	bool updated_at, abbreviate;
	int color;               /* -1: default (stdout is a terminal) */
	int refresh;             /* -1: default (stdout is a terminal) */
};

/* Parses argv into *o.  Returns -1 to go on, or the exit status (after
 * printing help, or the error and usage, as HTCondor's tool does: 2 for
 * what argparse refuses, 1 for its own hints).  out gets help and the
 * usage before a hint; err gets errors. */
int wq_parse_args(int argc, char **argv, struct wq_opts *o, FILE *out,
		  FILE *err);
void wq_opts_free(struct wq_opts *o);

/* ---- the jobs (wq_track.c) ------------------------------------------------ */

struct wq_cluster {
	int id;
	char *log;           /* the log that first told of it (owned) */
	char *batch;         /* JobBatchName, or NULL (owned) */
	long nprocs;         /* TotalSubmitProcs, or -1 when unknown */
	unsigned char *state; /* per proc id: enum wq_state, or WQ_UNSEEN */
	size_t cap;          /* entries in state */
	size_t seen;         /* procs with a state */
	size_t exited;       /* of which done or removed */
	bool has_decay;
	time_t decay_start;  /* when its last job left the queue */
};

/* What the schedd said about a cluster when the tool started. */
struct wq_known {
	int id;
	char *batch; /* NULL when it has none (owned) */
	long nprocs; /* -1 when unknown */
};

struct wq_track {
	struct wq_cluster *c; /* sorted by id */
	size_t n, cap;
	struct wq_known *known; /* sorted by id */
	size_t nknown;
	int *filter;          /* only these clusters, when nfilter or
				 has_filter */
	size_t nfilter;
	bool has_filter;
	bool has_since;
	long since;
	bool decay_at_read;
};

/* Records what the query said of a cluster (its batch name may be NULL;
 * copied).  A second call for the same cluster replaces the first. */
void wq_track_know(struct wq_track *t, int id, const char *batch,
		   long nprocs);
void wq_track_filter(struct wq_track *t, int id);

/* The state an event leads to: the event type and its header's text
 * ("Started transferring input files" for a 040).  Returns WQ_UNSEEN
 * for an event that changes nothing. */
enum wq_state wq_event_state(int type, const char *what);

/* Applies an event of log: type, job, header text, and the time it was
 * written.  Events of clusters outside the filter are ignored.  batch
 * (NULL allowed) is the JobBatchName of a submit event's notes: a cluster
 * the schedd gave no batch name takes it from its first event. */
void wq_track_event(struct wq_track *t, const char *log, int type,
		    int cluster, int proc, const char *what, time_t when,
		    time_t now, const char *batch);
void wq_track_free(struct wq_track *t);

/* Whether cond holds over every job seen so far (over none, "all" and
 * "none" hold and "any" does not). */
bool wq_exit_holds(const struct wq_track *t, const struct wq_exit *cond);

/* One row of the table. */
struct wq_row {
	char *key;              /* as shown: batch name, log or cluster */
	long count[WQ_NSTATES];
	long total;
	char *job_ids;          /* "1.0, 1.1" or "1.0 ... 1.9", or "" */
	int min_cluster;
	bool active;            /* some cluster still has jobs in the queue */
};

struct wq_rows {
	struct wq_row *v; /* in display order: active rows first */
	size_t n;
	long totals[WQ_NSTATES];
	long total;
};

/* Groups the clusters into rows as HTCondor does (by batch name, "ID: N"
 * for none; by the log, shown by nice_path; by cluster id), counts them,
 * and orders them.  Rows of clusters that all left the queue longer ago
 * than o->decay are left out with -no-display-exited (their jobs still
 * count in the totals).  home and cwd shorten log paths (may be NULL). */
void wq_rows_make(const struct wq_track *t, const struct wq_opts *o,
		  time_t now, const char *home, const char *cwd,
		  struct wq_rows *out);
void wq_rows_free(struct wq_rows *r);

/* The shortest of: path, path from home as "~/...", path from cwd as
 * "./..." (when under it).  New string (free()). */
char *wq_nice_path(const char *path, const char *home, const char *cwd);

/* ---- the text (wq_render.c) ----------------------------------------------- */

struct wq_view {
	int columns, lines;  /* the terminal's size */
	bool color;
	bool refresh;
	bool key_press;      /* "Press any key to exit" */
	const char *updated; /* "YYYY-MM-DD HH:MM:SS" */
};

/* The whole text shown in one turn, without its final newline, as
 * HTCondor's tool composes it.  New string (free()). */
char *wq_render(const struct wq_rows *r, const struct wq_opts *o,
		const struct wq_view *v);

/* The progress bar of the counts, at most min(width, 79) wide with its
 * brackets, appended to *buf (a malloc'd string, reallocated). */
char *wq_bar(char *buf, const long count[WQ_NSTATES], long total, int width,
	     bool color);

/* ---- the logs (wq_find.c) -------------------------------------------------- */

struct wq_log {
	char *path;   /* absolute */
	int fd;       /* -1 when it could not be opened */
	void *reader; /* ks_ulogread */
	bool broken;
};

struct wq_logs {
	struct wq_log *v;
	size_t n;
};

/* Asks the schedd (o->schedd through o->collector, else the local one)
 * for the jobs o names, records them in t, and lists their event logs
 * after o's -files in logs.  Warnings go to err. */
void wq_find(const struct wq_opts *o, struct wq_track *t,
	     struct wq_logs *logs, FILE *err);

/* Opens the logs, warning on err of those that cannot be. */
void wq_logs_open(struct wq_logs *logs, FILE *err);

/* Reads what the logs have that was not read yet into t; a message line
 * per event that could not be read is appended to *msgs (a malloc'd
 * string or NULL, reallocated). */
void wq_logs_read(struct wq_logs *logs, struct wq_track *t, time_t now,
		  char **msgs);
void wq_logs_free(struct wq_logs *logs);

#endif
