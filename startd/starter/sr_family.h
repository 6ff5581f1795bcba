/*
 * sr_family.h: the job's processes, as /proc shows them (the starter's
 * view of its job, and the startd's of a starter it must end).
 *
 * The starter makes itself a child subreaper, so every process the job
 * starts stays its descendant even after its parent dies (daemons that
 * double-fork included): the family is exactly the starter's descendants.
 * Signals go to the job's process group and then to each descendant
 * outside it, which also reaches a process that called setsid().
 */
#ifndef SR_FAMILY_H
#define SR_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sr_proc {
	pid_t pid;
	pid_t ppid;
	pid_t pgrp;
	char state;        /* as in /proc/PID/stat: R, S, T, Z, ... */
	uint64_t vsize_kb; /* virtual size */
	uint64_t rss_kb;   /* resident set */
};

/* A snapshot.  Start zeroed; free with sr_family_free(). */
struct sr_family {
	struct sr_proc *p;
	size_t n;
	size_t cap;
};

/* Replaces f's contents with the live descendants of ancestor.  Returns
 * 0, or -1 with errno set if /proc cannot be read. */
int sr_family_scan(pid_t ancestor, struct sr_family *f);

/* Sums the virtual and resident sizes over f, in KiB. */
void sr_family_memory(const struct sr_family *f, uint64_t *vsize_kb,
		      uint64_t *rss_kb);

/* Sends sig to process group pgid (if > 0) and to every process of f
 * outside that group.  Returns how many kill() calls succeeded. */
int sr_family_signal(const struct sr_family *f, pid_t pgid, int sig);

/* Ends root and every descendant of it with SIGKILL, however they take
 * their signals: for a starter that does not end its job (stopped,
 * stuck), or one an earlier startd left.  root is stopped first: a
 * stopped subreaper reaps nothing, so the pids of the family stay taken
 * (by zombies) while it is being killed, and its orphans stay its
 * descendants.  Then every live descendant is killed, pass after pass,
 * until none is left alive, and root last.  Waits at most wait_ms for
 * all of them (a process stuck in the kernel cannot die); *killed is how
 * many live descendants the first pass found.  Returns how many processes, root
 * among them, are still alive at the end (0: the family is gone; a root
 * that is the caller's child counts as gone once it is a zombie). */
int sr_family_kill(pid_t root, int wait_ms, size_t *killed);

/* Whether pid is gone, or dead and waiting to be reaped. */
bool sr_family_ended(pid_t pid);

void sr_family_free(struct sr_family *f);

#endif
