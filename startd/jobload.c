/*
 * jobload.c: the CPU load of each slot's job (CondorLoadAvg): the CPU
 * time its starter and everything under it used since the last reading,
 * per second of wall time; and the job's memory (its processes' virtual
 * and resident sizes, the largest seen), for its claimer's ImageSize.
 * HTCondor's startd measures the same thing (the job's process family);
 * this takes it from /proc, at most once a second per slot, and keeps no
 * average beyond that interval.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_proc.h"
#include "sd_startd.h"
#include "ks_clock.h"

struct proc {
	pid_t pid, ppid;
	uint64_t ticks; /* utime + stime */
	uint64_t vsize_kb, rss_kb;
};

/* Every process: its parent and the CPU time it has used. */
static struct proc *read_procs(size_t *n)
{
	*n = 0;
	DIR *dir = opendir("/proc");
	if (!dir)
		return NULL;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t page_kb = page > 0 ? (uint64_t)page / 1024 : 4;
	size_t cap = 256;
	struct proc *ps = ks_xmalloc(cap * sizeof(*ps));
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		struct ks_proc_stat st;
		if (ks_proc_stat(atol(de->d_name), &st))
			continue;
		if (*n == cap) {
			cap *= 2;
			ps = ks_xrealloc(ps, cap * sizeof(*ps));
		}
		ps[(*n)++] = (struct proc){
			(pid_t)atoi(de->d_name), (pid_t)st.ppid, st.ticks,
			st.vsize / 1024,
			st.rss > 0 ? (uint64_t)st.rss * page_kb : 0};
	}
	closedir(dir);
	return ps;
}

/* CPU ticks of root and its descendants; the memory and number of the
 * descendants (the job's processes, the starter left out). */
struct family {
	uint64_t ticks, vsize_kb, rss_kb;
	int nprocs;
};

static struct family family_of(const struct proc *ps, size_t n, pid_t root)
{
	struct family f = {0};
	pid_t *stack = ks_xmalloc((n + 1) * sizeof(*stack));
	size_t top = 0;
	stack[top++] = root;
	while (top) {
		pid_t p = stack[--top];
		for (size_t i = 0; i < n; i++) {
			if (ps[i].pid == p) {
				f.ticks += ps[i].ticks;
				if (p != root) {
					f.vsize_kb += ps[i].vsize_kb;
					f.rss_kb += ps[i].rss_kb;
					f.nprocs++;
				}
			} else if (ps[i].ppid == p && top < n) {
				stack[top++] = ps[i].pid;
			}
		}
	}
	free(stack);
	return f;
}

int sd_jobload_nprocs(pid_t starter)
{
	size_t n = 0;
	struct proc *ps = read_procs(&n);
	struct family f = family_of(ps, n, starter);
	free(ps);
	return f.nprocs;
}

/* The job's usage into the startd's copy of its ad, as HTCondor's
 * starter updates it there: the policy reads it (Hold_If_Memory_Exceeded's
 * MemoryUsage > Memory). */
static void job_usage(struct sd_slot *s)
{
	const struct sd_claim *c = &s->claim;
	if (!s->job || !c->rss_kb)
		return;
	classad_insert_int(s->job, "ImageSize", (int64_t)c->image_kb);
	classad_insert_int(s->job, "ResidentSetSize", (int64_t)c->rss_kb);
	classad_insert_int(s->job, "MemoryUsage",
			   (int64_t)((c->rss_kb + 1023) / 1024));
}

void sd_jobload_measure(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	int64_t now = ks_clock_ms();
	struct proc *ps = NULL;
	size_t n = 0;
	bool read = false;
	long hz = sysconf(_SC_CLK_TCK);
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_slot *slot = sd->slots[i];
		struct sd_claim *c = &slot->claim;
		if (!c->starter) {
			c->load = 0;
			c->load_ticks = 0;
			c->load_at_ms = 0;
			c->image_kb = c->rss_kb = 0;
			continue;
		}
		if (!c->load_at_ms) {
			/* a new starter has used next to nothing: counting
			 * from zero now spares a pass over /proc for every
			 * job, which short jobs would pay for */
			c->load = 0;
			c->load_ticks = 0;
			c->load_at_ms = now;
			continue;
		}
		if (now - c->load_at_ms < 1000)
			continue;
		if (!read) {
			ps = read_procs(&n);
			read = true;
		}
		struct family f = family_of(ps, n, c->starter);
		uint64_t ticks = f.ticks;
		if (f.vsize_kb > c->image_kb)
			c->image_kb = f.vsize_kb;
		if (f.rss_kb > c->rss_kb)
			c->rss_kb = f.rss_kb;
		job_usage(slot);
		if (ticks >= c->load_ticks && hz > 0)
			c->load = (double)(ticks - c->load_ticks) / (double)hz /
				  ((double)(now - c->load_at_ms) / 1000.0);
		c->load_ticks = ticks;
		c->load_at_ms = now;
	}
	free(ps);
}
