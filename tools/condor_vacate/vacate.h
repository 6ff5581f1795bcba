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
#include "ctool.h"

/* Parses condor_vacate's command line into *o: ct_parse() for
 * CT_VACATE (CT_GO to go on, else the exit status).  Free *o with
 * ct_opts_free() either way. */
int vac_parse(int argc, char **argv, struct ct_opts *o, FILE *out,
	      FILE *err);

/* Sends the vacate commands *o asks for.  Returns the exit status: 0, or
 * 1 when a target was not found or a command could not be sent (with
 * -all and -constraint HTCondor's tool exits 0 once the collector has
 * answered, and so does this one). */
int vac_run(const ks_config *cfg, const struct ct_opts *o, FILE *out,
	    FILE *err);

/* The whole command: parse, load the configuration, run. */
int vac_main(int argc, char **argv, FILE *out, FILE *err);

#endif
