/*
 * ctool.h: the command line of HTCondor's tool.cpp, the one program
 * behind condor_vacate, condor_reschedule, condor_off and the like.  Its
 * flags are tried in tool.cpp's order, each with its shortest prefix,
 * because that order decides what an abbreviation ("-d", "-p") means; a
 * flag the command does not take is refused with HTCondor's message for
 * that command.  Prefix: ct_.
 */
#ifndef KS_CTOOL_H
#define KS_CTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The commands whose command lines are parsed here. */
enum ct_command {
	CT_VACATE,     /* condor_vacate: -fast and -graceful */
	CT_RESCHEDULE, /* condor_reschedule: -graceful only (a no-op) */
	CT_OFF,        /* condor_off: every mode, a daemon flag */
	CT_ON,         /* condor_on: a daemon flag */
	CT_RESTART,    /* condor_restart: -fast, -peaceful, a daemon flag */
	CT_RECONFIG,   /* condor_reconfig: a daemon flag, -full (a no-op) */
};

/* How a daemon is stopped (or a job vacated): -graceful (the default),
 * -fast, -peaceful, -force-graceful. */
enum ct_mode { CT_GRACEFUL, CT_FAST, CT_PEACEFUL, CT_FORCE_GRACEFUL };

/* What the command line asks for. */
struct ct_opts {
	const char *prog;       /* argv[0]'s last part, for messages */
	enum ct_mode mode;
	const char *daemon;     /* a daemon flag's daemon: "master",
				   "collector", ... (HTCondor's names of the
				   types it knows), else as given (-daemon,
				   -subsystem); NULL without one */
	bool all;               /* -all */
	bool debug;             /* -debug: also say why a send failed */
	const char *pool;       /* -pool, or NULL */
	const char *constraint; /* -constraint / -annex*, or NULL */
	char *annex;            /* owned text behind an -annex constraint */
	const char **targets;   /* names and addresses in the order given;
				   the array is owned, the strings are argv's */
	size_t ntargets;
};

/* ct_parse()'s answer when the command should go on. */
#define CT_GO (-1)

/* Parses argv for cmd into *o (zeroed first; prog is argv[0]'s last
 * part, or fallback without one).  Returns CT_GO, or the exit status the
 * command ends with (0 for -help and -version) after writing what
 * HTCondor writes to out and err (the usage text, for -help or a bad
 * flag, names the command's targets: startds, schedds or masters).  Free *o with ct_opts_free() either
 * way. */
int ct_parse(int argc, char **argv, enum ct_command cmd, const char *fallback,
	     struct ct_opts *o, FILE *out, FILE *err);

void ct_opts_free(struct ct_opts *o);

#endif
