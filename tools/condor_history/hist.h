/*
 * hist.h: condor_history, as a library (ks_hist) so that tests can run
 * it in-process.  Jobs that left the queue come from the schedd
 * (QUERY_SCHEDD_HISTORY, docs/schedd.md, newest first), or from a file
 * of ads with -file, and print as HTCondor 25's condor_history prints
 * them (src/condor_tools/history.cpp).  Internal names carry the hi_
 * prefix; hi_main() is the entry point.
 */
#ifndef KS_HIST_H
#define KS_HIST_H

#include <stdbool.h>
#include <stdio.h>

#include "tfmt.h"

struct hi_item {
	bool af;
	const char *fmt, *expr;
	const char *opts;
	int argc;
	const char *const *argv;
};

struct hi_opts {
	const char *prog;
	bool dash_long, json, xml, jsonl;
	bool forwards;
	int limit;                 /* -limit/-match, 0: none */
	const char *file;          /* -file, or -userlog's */
	bool userlog;              /* file is a job event log (-userlog) */
	const char *name, *pool;
	struct tf_names attrs;     /* -attributes */
	struct hi_item *items;     /* -af, -format */
	size_t nitems;
	bool af_headings;
	char **ands, **ors;        /* -constraint; ids and owners (owned) */
	size_t nands, nors;
	bool wide;
	int forced_width;
	/* -since/-completedsince: the history is read newest first up to
	 * the first job this is true of (owned; NULL: none) */
	char *since;
};

/* Parses argv.  Returns -1 to go on, or the exit status (messages on
 * err, usage on out as HTCondor prints it). */
int hi_parse_args(int argc, const char *const *argv, struct hi_opts *o,
		  FILE *out, FILE *err);
void hi_opts_free(struct hi_opts *o);
/* The constraint, or NULL: a new string. */
char *hi_constraint(const struct hi_opts *o);

int hi_main(int argc, const char *const *argv, FILE *out, FILE *err);

#endif
