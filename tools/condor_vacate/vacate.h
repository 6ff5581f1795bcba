/*
 * vacate.h: condor_vacate, as HTCondor 25's (built there from
 * src/condor_tools/tool.cpp): the same flags, the same targets, the same
 * commands (VACATE_ALL_CLAIMS / VACATE_ALL_FAST to a whole startd,
 * VACATE_CLAIM / VACATE_CLAIM_FAST with the slot's Name for one slot),
 * the same messages and exit statuses.  A library so that tests can parse
 * arguments without a process.  Prefix: vac_.
 */
#ifndef KS_VACATE_H
#define KS_VACATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"

/* What the command line asks for. */
struct vac_opts {
	const char *prog;       /* argv[0]'s last part, for messages */
	bool fast;              /* -fast (else -graceful) */
	bool all;               /* -all */
	bool debug;             /* -debug: also say why a send failed */
	const char *pool;       /* -pool, or NULL */
	const char *constraint; /* -constraint / -annex*, or NULL */
	char *annex;            /* owned text behind an -annex constraint */
	const char **targets;   /* names and addresses in the order given;
				   the array is owned, the strings are argv's */
	size_t ntargets;
};

/* vac_parse()'s answer when the command should go on. */
#define VAC_GO (-1)

/* Parses argv into *o (zeroed first).  Returns VAC_GO, or the exit
 * status the command ends with (0 for -help and -version) after writing
 * what HTCondor writes to out and err.  Free *o with vac_opts_free()
 * either way. */
int vac_parse(int argc, char **argv, struct vac_opts *o, FILE *out,
	      FILE *err);

void vac_opts_free(struct vac_opts *o);

/* Sends the vacate commands *o asks for.  Returns the exit status: 0, or
 * 1 when a target was not found or a command could not be sent (with
 * -all and -constraint HTCondor's tool exits 0 once the collector has
 * answered, and so does this one). */
int vac_run(const ks_config *cfg, const struct vac_opts *o, FILE *out,
	    FILE *err);

/* The whole command: parse, load the configuration, run. */
int vac_main(int argc, char **argv, FILE *out, FILE *err);

#endif
