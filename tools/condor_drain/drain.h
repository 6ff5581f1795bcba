/*
 * drain.h: condor_drain, as HTCondor 25's (src/condor_tools/drain.cpp):
 * the same flags, the same request ad (the attributes DCStartd::drainJobs()
 * and cancelDrainJobs() send: HowFast, ResumeOnCompletion, DrainReason,
 * CheckExpr, StartExpr; RequestID), the same messages and exit statuses
 * (2 for a command line it refuses, 1 for usage and for failures).  A
 * library so that tests can parse arguments without a process.
 * Prefix: drn_.
 */
#ifndef KS_DRAIN_H
#define KS_DRAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"

/* HTCondor's DRAIN_* values for HowFast (condor_commands.h). */
enum drn_how_fast { DRN_GRACEFUL = 0, DRN_QUICK = 10, DRN_FAST = 20 };

/* ... and for ResumeOnCompletion (what to do once drained). */
enum drn_completion {
	DRN_NOTHING = 0,  /* stay Drained until -cancel */
	DRN_RESUME = 1,   /* -resume-on-completion */
	DRN_EXIT = 2,     /* -exit-on-completion */
	DRN_RESTART = 3,  /* -restart-on-completion */
	DRN_RECONFIG = 4, /* -reconfig-on-completion */
};

/* What the command line asks for. */
struct drn_opts {
	const char *prog;       /* argv[0] as given: HTCondor's messages
				   use it so */
	bool cancel;            /* -cancel: CANCEL_DRAIN_JOBS */
	int how_fast;           /* enum drn_how_fast */
	int on_completion;      /* enum drn_completion */
	const char *reason;     /* -reason, or NULL ("by USER") */
	const char *request_id; /* -request-id (with -cancel), or NULL */
	const char *check;      /* -check expression, or NULL */
	const char *start;      /* -start expression, or NULL */
	const char *pool;       /* -pool, or NULL */
	const char *target;     /* the machine (or slot, or <address>) */
	bool verbose;           /* -verbose: print the request id */
	bool debug;             /* -debug */
};

/* drn_parse()'s answer when the command should go on. */
#define DRN_GO (-1)

/* Parses argv into *o.  Returns DRN_GO, or the exit status the command
 * ends with after writing what HTCondor writes (usage: 1; a refused
 * command line: 2; -version: 0). */
int drn_parse(int argc, char **argv, struct drn_opts *o, FILE *out,
	      FILE *err);

/* The flag that asks for on_completion ("-resume-on-completion", ...). */
const char *drn_completion_flag(int on_completion);

/* Finds the startd and sends the request.  Returns 0, or 1 with
 * HTCondor's messages on err. */
int drn_run(const ks_config *cfg, const struct drn_opts *o, FILE *out,
	    FILE *err);

/* The whole command: parse, load the configuration, run. */
int drn_main(int argc, char **argv, FILE *out, FILE *err);

#endif
