/*
 * sd_layout.h: how condor_startd divides the machine into slots, as
 * HTCondor 25 does it (slot_builder and ResAttributes in HTCondor's
 * startd), and the resource attributes of each slot's ad.
 *
 * The configuration read:
 *   - nothing: one partitionable slot holding the whole machine;
 *   - NUM_SLOTS = N: N slots of slot type 0, each an equal ("auto") share;
 *     partitionable unless SLOT_TYPE_0_PARTITIONABLE = false, which also
 *     makes NUM_SLOTS default to NUM_CPUS;
 *   - NUM_SLOTS_TYPE_<t> (t = 1 .. MAX_SLOT_TYPES), any of them non-zero:
 *     that many slots of SLOT_TYPE_<t>, types in order, NUM_SLOTS ignored;
 *     SLOT_TYPE_<t> = a fraction (1/4), a percentage (25%), or a list of
 *     resource=share (c/cpus, r/ram/m/mem/memory, d/disk, s/swap/v/virt/
 *     VirtualMemory, or a custom resource's name) and a bare share for the
 *     rest; a share is auto, a fraction, a percentage or an amount (memory
 *     in MiB, disk and swap in KiB, with K/M/G/T suffixes); a custom
 *     resource with ids may add ": constraint" to choose its ids;
 *     SLOT_TYPE_<t>_PARTITIONABLE, SLOT_TYPE_<t>_BACKFILL,
 *     SLOT_TYPE_<t>_NAME_PREFIX (else STARTD_RESOURCE_PREFIX, else "slot").
 * Auto shares divide evenly what the explicit shares of the same pool
 * (backfill slots have their own) leave.  Slots are numbered 1, 2, ... in
 * type order.
 */
#ifndef SD_LAYOUT_H
#define SD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"
#include "sd_machine.h"

/* A slot's share of one custom resource. */
struct sd_slot_res {
	char *name;       /* the machine resource's name ("GPUs") */
	double amount;    /* <name> and TotalSlot<name> (published as
			   * integers) */
	size_t nids;      /* ids bound to the slot: Assigned<name>; 0 when the
			   * resource has no ids or the slot has none of it */
	char **ids;
	char *constraint; /* "GPUs = 2 : <constraint>" of the slot type, or
			   * NULL */
};

/* One slot as the layout makes it.  Plain data, copied by value; the
 * pointers in res belong to it: release them with sd_slot_spec_clear(). */
struct sd_slot_spec {
	int id;               /* N of slotN */
	int type;             /* SLOT_TYPE_<type>; 0 for the NUM_SLOTS layout */
	char name[64];        /* "slot1" (its name prefix and id) */
	bool partitionable;
	bool backfill;
	bool fractional_cpus; /* the type's share is "minimal": Cpus may be
			       * fractional */
	double cpus;          /* Cpus, TotalSlotCpus */
	int memory;           /* MiB: Memory, TotalSlotMemory */
	int64_t disk;         /* KiB: Disk, TotalSlotDisk */
	double disk_share;    /* disk as a fraction of the machine's disk */
	int64_t swap;         /* KiB: VirtualMemory */
	int64_t total_disk;   /* KiB: TotalDisk, the disk given to slots */
	size_t nres;          /* one per machine resource, in its order */
	struct sd_slot_res *res;
	char desc[224];       /* "Cpus: 2, Memory: 128 MiB, ..." for logs */
};

/* Divides machine m as cfg says.  On success returns 0 and sets *slots to
 * a new array of *n specs (NULL when the configuration asks for no slot:
 * NUM_SLOTS = 0); release it with sd_layout_free(), or take the specs by
 * value and free() the array.  On failure returns KS_EINVAL (a malformed
 * or forbidden setting) or KS_ERANGE (the layout asks for more than the
 * machine has) with err saying what could not be done, sets *slots to NULL
 * and *n to 0: the startd should refuse to start with that message. */
int sd_layout_build(const ks_config *cfg, const struct sd_machine *m,
		    struct sd_slot_spec **slots, size_t *n,
		    struct ks_err *err);

/* Releases what spec s holds (not s itself) and empties its resources.
 * NULL allowed. */
void sd_slot_spec_clear(struct sd_slot_spec *s);

/* sd_slot_spec_clear() on each of n specs, then free(slots). */
void sd_layout_free(struct sd_slot_spec *slots, size_t n);

/* The spec's one-line summary.  Borrowed from s. */
const char *sd_layout_describe(const struct sd_slot_spec *s);

/* Puts into ad the attributes of a static or partitionable slot fresh from
 * the layout, with HTCondor's names and units: SlotID, SlotTypeID,
 * SlotType, PartitionableSlot, BackfillSlot; Cpus, TotalSlotCpus, Memory,
 * TotalSlotMemory, Disk, TotalSlotDisk, VirtualMemory; per custom resource
 * <name>, TotalSlot<name>, Assigned<name> and the properties of the
 * assigned ids (<name>_<property>); and the machine's TotalCpus,
 * TotalMemory, TotalDisk, DetectedDisk, TotalVirtualMemory, DetectedCpus,
 * DetectedMemory, Detected<name>, Total<name>, Offline<name>,
 * MachineResources, and the attributes the inventory commands printed. */
void sd_layout_slot_attrs(const struct sd_machine *m,
			  const struct sd_slot_spec *s, classad *ad);

#endif
