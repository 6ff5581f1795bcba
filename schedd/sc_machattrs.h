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

/* ... and what the slot gives it, as HTCondor's schedd copies it from
 * the slot's ad when the job starts: <Res>Provisioned for each resource
 * of its MachineResources (ProvisionedResources, the list), else of
 * Cpus, Disk and Memory, its value in the slot (the job as TARGET), the
 * name title-cased (GPUsProvisioned -> GpusProvisioned). */
void sc_provisioned(struct sc_schedd *s, struct sc_job *j,
		    const classad *slot);

#endif
