/*
 * sd_machine.h: what the execute machine has, as condor_startd sees it
 * before dividing it into slots: CPUs, memory, the free disk of EXECUTE,
 * swap (VirtualMemory), and the custom resources of MACHINE_RESOURCE_<name>
 * and MACHINE_RESOURCE_INVENTORY_<name> (GPUs among them).
 *
 * Each amount follows HTCondor 25's rules, and the configuration can pin
 * it: NUM_CPUS, MEMORY less RESERVED_MEMORY, DISK (else the free space
 * less RESERVED_DISK).  Swap has no knob in HTCondor; a caller that needs
 * an exact figure (a test) sets the field after detection, or builds a
 * struct sd_machine by hand: every field is plain data.
 */
#ifndef SD_MACHINE_H
#define SD_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_err.h"

/* One custom resource. */
struct sd_res {
	char *name;        /* as configured ("GPUs", "Cogs"); attribute names
			    * are made from it */
	double quantity;   /* Detected<name> and Total<name>: what the slots
			    * share, offline ones left out */
	size_t nids;       /* 0: a plain quantity */
	char **ids;        /* the online ids, in the order detected */
	classad **props;   /* nids property ads from the inventory (entries
			    * may be NULL), or NULL when there are none */
	size_t noffline;
	char **offline;    /* ids named offline (OFFLINE_MACHINE_RESOURCE_<name>
			    * or Offline<name> of the inventory) */
};

struct sd_machine {
	int detected_cores;    /* logical processors online (DETECTED_CORES,
				* DetectedCpus) */
	int detected_physical; /* physical cores (DETECTED_PHYSICAL_CPUS) */
	int detected_cpus;     /* DETECTED_CPUS: cores, or physical ones when
				* COUNT_HYPERTHREAD_CPUS is false */
	int cpus;              /* NUM_CPUS: what the slots divide (TotalCpus) */
	int detected_memory;   /* MiB of RAM (DetectedMemory) */
	int memory;            /* MiB the slots divide (TotalMemory): MEMORY
				* or detected, less RESERVED_MEMORY */
	int64_t disk;          /* KiB the slots divide: DISK, or the free
				* space of EXECUTE less RESERVED_DISK */
	int64_t detected_disk; /* KiB: size of EXECUTE's filesystem
				* (DetectedDisk); DISK when set */
	bool disk_from_config; /* DISK was set */
	int64_t swap;          /* KiB: TotalVirtualMemory, RAM plus free swap
				* as HTCondor counts it */
	size_t nres;
	struct sd_res *res;    /* sorted by name, case ignored, as HTCondor
				* orders them */
	classad *extra;        /* attributes of the inventory commands' output
				* that every slot ad carries, or NULL */
	size_t nwarnings;
	char **warnings;       /* things worth a log line (a resource left out
				* by MACHINE_RESOURCE_NAMES, unreadable
				* inventory output, ...) */
};

/* Fills *m (which it clears first) from the machine and cfg.  Runs the
 * inventory commands (MACHINE_RESOURCE_INVENTORY_<name>, and HTCondor's
 * default GPU discovery, $(LIBEXEC)/condor_gpu_discovery
 * $(STARTD_DETECT_GPUS), when no GPUs resource is configured; a missing
 * discovery tool means no GPUs, i.e. GPUs = 0).  Returns 0, or a KS_E*
 * code with err filled: EXECUTE unreadable (and DISK not set), no memory
 * left after RESERVED_MEMORY, a bad NUM_CPUS/MEMORY/DISK value, a custom
 * resource with a reserved name (Cpus, Memory, ...), an inventory command
 * that cannot be run.  On error *m holds what was found so far: release it
 * with sd_machine_clear() either way. */
int sd_machine_detect(const ks_config *cfg, struct sd_machine *m,
		      struct ks_err *err);

/* Releases what *m holds and zeroes it.  NULL allowed. */
void sd_machine_clear(struct sd_machine *m);

/* Adds (or replaces) the custom resource name as MACHINE_RESOURCE_<name> =
 * value would: a number, an expression giving one, or a list of ids
 * (commas or spaces).  offline (NULL allowed) is the value of
 * OFFLINE_MACHINE_RESOURCE_<name>.  Returns 0 or KS_EINVAL for an empty or
 * reserved name.  Callers building a machine by hand use it too. */
int sd_machine_add_res(struct sd_machine *m, const char *name,
		       const char *value, const char *offline,
		       struct ks_err *err);

/* The resource called name (case ignored), or NULL.  Borrowed from m. */
const struct sd_res *sd_machine_res(const struct sd_machine *m,
				    const char *name);

#endif
