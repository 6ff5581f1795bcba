/*
 * jobload.c: the CPU load of each slot's job (CondorLoadAvg): the CPU
 * time its starter and everything under it used since the last reading,
 * per second of wall time.  HTCondor's startd measures the same thing
 * (the job's process family); this takes it from /proc, at most once a
 * second per slot, and keeps no average beyond that interval.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "sd_startd.h"

struct proc {
	pid_t pid, ppid;
	uint64_t ticks; /* utime + stime */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Every process: its parent and the CPU time it has used. */
static struct proc *read_procs(size_t *n)
{
	*n = 0;
	DIR *dir = opendir("/proc");
	if (!dir)
		return NULL;
	size_t cap = 256;
	struct proc *ps = ks_xmalloc(cap * sizeof(*ps));
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		char path[300], buf[1024];
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		/* after the command's closing parenthesis: state ppid ... */
		const char *p = strrchr(buf, ')');
		unsigned long long ut = 0, st = 0;
		int ppid = 0;
		if (!p || sscanf(p + 2,
				 "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
				 "%llu %llu",
				 &ppid, &ut, &st) != 3)
			continue;
		if (*n == cap) {
			cap *= 2;
			ps = ks_xrealloc(ps, cap * sizeof(*ps));
		}
		ps[(*n)++] = (struct proc){(pid_t)atoi(de->d_name), ppid,
					   ut + st};
	}
	closedir(dir);
	return ps;
}

/* CPU ticks of root and its descendants. */
static uint64_t family_ticks(const struct proc *ps, size_t n, pid_t root)
{
	uint64_t sum = 0;
	pid_t *stack = ks_xmalloc((n + 1) * sizeof(*stack));
	size_t top = 0;
	stack[top++] = root;
	while (top) {
		pid_t p = stack[--top];
		for (size_t i = 0; i < n; i++) {
			if (ps[i].pid == p)
				sum += ps[i].ticks;
			else if (ps[i].ppid == p && top < n)
				stack[top++] = ps[i].pid;
		}
	}
	free(stack);
	return sum;
}

void sd_jobload_measure(ks_daemon *d)
{
	struct startd *sd = d->ctx;
	int64_t now = now_ms();
	struct proc *ps = NULL;
	size_t n = 0;
	bool read = false;
	long hz = sysconf(_SC_CLK_TCK);
	for (size_t i = 0; i < sd->nslots; i++) {
		struct sd_claim *c = &sd->slots[i]->claim;
		if (!c->starter) {
			c->load = 0;
			c->load_ticks = 0;
			c->load_at_ms = 0;
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
		uint64_t ticks = family_ticks(ps, n, c->starter);
		if (ticks >= c->load_ticks && hz > 0)
			c->load = (double)(ticks - c->load_ticks) / (double)hz /
				  ((double)(now - c->load_at_ms) / 1000.0);
		c->load_ticks = ticks;
		c->load_at_ms = now;
	}
	free(ps);
}
