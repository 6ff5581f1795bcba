/*
 * sc_machattrs.h: what a job keeps of the slots it ran on, as HTCondor's
 * schedd records it each time a job starts on a match: NumJobMatches,
 * LastMatchTime, and MachineAttr<name>0 for each slot attribute named by
 * the job's JobMachineAttrs and by SYSTEM_JOB_MACHINE_ATTRS ("Cpus,
 * SlotWeight"), its value in the slot's ad (an error when the slot has
 * none).  With a history longer than 1 (the larger of the job's
 * JobMachineAttrsHistoryLength, default 1, and
 * SYSTEM_JOB_MACHINE_ATTRS_HISTORY_LENGTH), MachineAttr<name><k> holds
 * the k-th run back; 0 keeps none.
 */
#ifndef SC_MACHATTRS_H
#define SC_MACHATTRS_H

#include "classad.h"
#include "sc_schedd.h"

/* Job j starts a run on slot (the ad the claim describes). */
void sc_machine_attrs(struct sc_schedd *s, struct sc_job *j,
		      const classad *slot);

#endif
