/*
 * sc_xfer.h: the submit side of file transfer (xfer.c).
 *
 * A job transfers files unless the ad it is activated with says
 * ShouldTransferFiles = "NO" (run.c turns IF_NEEDED into NO on a slot of
 * the schedd's FILESYSTEM_DOMAIN).  Its files are read and written as its
 * Owner (sc_as_owner()), relative to its Iwd.
 */
#ifndef SC_XFER_H
#define SC_XFER_H

#include <stdbool.h>
#include <stdint.h>

#include "classad.h"
#include "ks_err.h"
#include "ks_xfer.h"
#include "sc_schedd.h"

/* The names stdout and stderr have in the sandbox, as HTCondor's. */
#define SC_XFER_STDOUT "_condor_stdout"
#define SC_XFER_STDERR "_condor_stderr"

/* True if ad (the job as the startd gets it) transfers files. */
bool sc_xfer_wanted(const classad *ad);

/* Reads j's input files (Cmd unless TransferExecutable is false, In
 * unless /dev/null, TransferInput) into set, and rewrites ad so that
 * Cmd, In, Out and Err name the sandbox's files; sets
 * TransferInputSizeMB.  Returns 0, or a KS_E* code with err holding the
 * detail of HTCondor's hold reason and *eno the system error. */
int sc_xfer_input(struct sc_schedd *s, const struct sc_job *j, classad *ad,
		  struct ks_xfer_set *set, int *eno, struct ks_err *err);

/* Writes the n output file ads into j's Iwd (_condor_stdout and
 * _condor_stderr to its Out and Err, TransferOutputRemaps applied).
 * *bytes gets the bytes written.  Returns 0 or a KS_E* code with err and
 * *eno as above (files before the failing one stay written). */
int sc_xfer_output(struct sc_schedd *s, const struct sc_job *j,
		   classad *const *ads, size_t n, uint64_t *bytes, int *eno,
		   struct ks_err *err);

#endif
