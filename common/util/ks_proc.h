/*
 * ks_proc.h: a process's line of /proc/PID/stat, for the starter's view
 * of a job's processes, the startd's of its jobs' load and pids, and
 * condor_who's of the daemons.
 */
#ifndef KS_PROC_H
#define KS_PROC_H

#include <stdint.h>

struct ks_proc_stat {
	char state;        /* R, S, D, T, Z ... */
	long ppid, pgrp, session;
	uint64_t ticks;    /* CPU time used: utime + stime, clock ticks */
	uint64_t vsize;    /* bytes */
	int64_t rss;       /* pages */
};

/* Reads pid's /proc/PID/stat into out.  Returns 0, or -1 if the process
 * is gone or the line does not parse. */
int ks_proc_stat(long pid, struct ks_proc_stat *out);

#endif
