/*
 * sr_assigned.h: what a job is told about the resources its slot was
 * given, as HTCondor's starter tells it.  For each resource the slot ad
 * lists in MachineResources with an Assigned<name> (the ids: "GPU-1,GPU-2")
 * the job gets _CONDOR_Assigned<name>; ENVIRONMENT_FOR_Assigned<name>
 * names more variables to set from those ids:
 *
 *   NAME                  the ids as they are (for CUDA_VISIBLE_DEVICES and
 *                         GPU_DEVICE_ORDINAL only their digits and commas),
 *                         and no further entries are read;
 *   NAME=/regex/replace/  each id with the first match of the regular
 *                         expression (PCRE2) replaced, $0-$9 for groups,
 *                         the ids joined by commas; any character may
 *                         stand for '/'; entries may be separated by
 *                         spaces or a comma.
 *
 * A slot that has the resource but was given none of it gets
 * ENVIRONMENT_VALUE_FOR_UnAssigned<name> instead, when
 * ENVIRONMENT_FOR_Assigned<name> is set (HTCondor's default for GPUs sets
 * CUDA_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL to 10000, so that a job
 * without GPUs sees none).
 */
#ifndef SR_ASSIGNED_H
#define SR_ASSIGNED_H

#include "classad.h"
#include "config.h"
#include "ks_log.h"
#include "sr_args.h"

/* Sets those variables in env; an entry that does not parse is logged
 * (to log, which may be NULL) and ends the reading of that knob. */
void sr_assigned_env(const ks_config *cfg, const classad *machine,
		     struct sr_env *env, ks_log *log);

#endif
