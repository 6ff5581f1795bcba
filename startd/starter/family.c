/*
 * family.c: the job's processes from /proc (sr_family.h).
 *
 * The starter scans at the job's start, about once a second while it
 * runs, at each suspend, continue and kill, and after its end.  The
 * kernel's lists of each task's children (/proc/PID/task/TID/children)
 * give the family in a few reads however many processes the machine
 * runs, which matters for short jobs: a pass over every /proc/PID/stat
 * cost more than running /bin/true.  Kernels without those lists get the
 * pass over /proc.
 */
#include "sr_family.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_proc.h"
#include "ks_clock.h"

/* More descendants than any job has: a walk that finds these many is
 * going round a reused pid. */
#define FAMILY_MAX 100000

/* Reads /proc/pid/stat into p.  Returns 0, or -1 if the process is gone
 * or the line does not parse. */
static int read_stat(pid_t pid, struct sr_proc *p, long page_kb)
{
	struct ks_proc_stat st;
	if (ks_proc_stat(pid, &st))
		return -1;
	p->pid = pid;
	p->ppid = (pid_t)st.ppid;
	p->pgrp = (pid_t)st.pgrp;
	p->state = st.state;
	p->vsize_kb = st.vsize / 1024;
	p->rss_kb = st.rss > 0 ? (uint64_t)st.rss * (uint64_t)page_kb : 0;
	return 0;
}

static void add(struct sr_family *f, const struct sr_proc *p)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->p = ks_xrealloc(f->p, f->cap * sizeof(*f->p));
	}
	f->p[f->n++] = *p;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct sr_proc *)a)->pid;
	pid_t y = ((const struct sr_proc *)b)->pid;
	return (x > y) - (x < y);
}

/* Index of pid in the sorted snapshot, or -1. */
static long find(const struct sr_family *all, pid_t pid)
{
	size_t lo = 0, hi = all->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (all->p[mid].pid == pid)
			return (long)mid;
		if (all->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int scan_all(pid_t ancestor, struct sr_family *f, long page_kb)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	struct sr_family all = {0};
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct sr_proc p;
		if (*end || pid <= 0 || read_stat((pid_t)pid, &p, page_kb))
			continue;
		add(&all, &p);
	}
	closedir(d);
	/* Each process walks up its parents until it meets the ancestor
	 * (yes), the top (no), or one already decided; parents are found
	 * by binary search in the pid-sorted snapshot. */
	qsort(all.p, all.n, sizeof(*all.p), by_pid);
	signed char *in = ks_xcalloc(all.n ? all.n : 1, sizeof(*in));
	size_t *chain = ks_xmalloc((all.n ? all.n : 1) * sizeof(*chain));
	for (size_t i = 0; i < all.n; i++) {
		size_t depth = 0, k = i;
		signed char verdict = -1;
		for (;;) {
			if (in[k]) {
				verdict = in[k];
				break;
			}
			chain[depth++] = k;
			if (all.p[k].ppid == ancestor) {
				verdict = 1;
				break;
			}
			long up = find(&all, all.p[k].ppid);
			if (up < 0 || depth >= all.n)
				break;
			k = (size_t)up;
		}
		while (depth)
			in[chain[--depth]] = verdict;
	}
	free(chain);
	for (size_t i = 0; i < all.n; i++)
		if (in[i] > 0)
			add(f, &all.p[i]);
	free(in);
	sr_family_free(&all);
	return 0;
}

/* Reads the children lists of every task of pid (none if it is gone)
 * and adds each child to f. */
static void add_children(pid_t pid, struct sr_family *f, long page_kb)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%.20s/children",
			 (long)pid, de->d_name);
		FILE *in = fopen(path, "re");
		if (!in)
			continue;
		long child;
		while (fscanf(in, "%ld", &child) == 1) {
			struct sr_proc p;
			if (child > 0 && read_stat((pid_t)child, &p, page_kb) == 0)
				add(f, &p);
		}
		fclose(in);
	}
	closedir(d);
}

int sr_family_scan(pid_t ancestor, struct sr_family *f)
{
	f->n = 0;
	long page = sysconf(_SC_PAGESIZE);
	long page_kb = page > 0 ? page / 1024 : 4;
	/* breadth first: f itself is the queue; a pid met twice (reused
	 * while the lists were read) could loop, hence the bound */
	if (access("/proc/thread-self/children", R_OK) != 0)
		return scan_all(ancestor, f, page_kb);
	add_children(ancestor, f, page_kb);
	for (size_t i = 0; i < f->n && f->n < FAMILY_MAX; i++)
		add_children(f->p[i].pid, f, page_kb);
	return 0;
}

void sr_family_memory(const struct sr_family *f, uint64_t *vsize_kb,
		      uint64_t *rss_kb)
{
	*vsize_kb = *rss_kb = 0;
	for (size_t i = 0; i < f->n; i++) {
		*vsize_kb += f->p[i].vsize_kb;
		*rss_kb += f->p[i].rss_kb;
	}
}

int sr_family_signal(const struct sr_family *f, pid_t pgid, int sig)
{
	int sent = 0;
	if (pgid > 0 && kill(-pgid, sig) == 0)
		sent++;
	for (size_t i = 0; i < f->n; i++)
		if (f->p[i].pgrp != pgid && f->p[i].state != 'Z' &&
		    kill(f->p[i].pid, sig) == 0)
			sent++;
	return sent;
}

bool sr_family_ended(pid_t pid)
{
	struct ks_proc_stat st;
	return ks_proc_stat(pid, &st) != 0 || st.state == 'Z' ||
	       st.state == 'X';
}

static void pause_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
}

int sr_family_kill(pid_t root, int wait_ms, size_t *killed)
{
	double deadline = (ks_clock_s() * 1e3) + wait_ms;
	struct sr_family f = {0};
	*killed = 0;
	kill(root, SIGSTOP);
	size_t alive;
	for (bool first = true;; first = false) {
		alive = 0;
		if (sr_family_scan(root, &f) == 0)
			for (size_t i = 0; i < f.n; i++) {
				if (f.p[i].state == 'Z' || f.p[i].state == 'X')
					continue;
				alive++;
				kill(f.p[i].pid, SIGKILL);
			}
		if (first)
			*killed = alive;
		if (!alive || (ks_clock_s() * 1e3) > deadline)
			break;
		pause_ms(5);
	}
	sr_family_free(&f);
	kill(root, SIGKILL);
	while (!sr_family_ended(root) && (ks_clock_s() * 1e3) <= deadline)
		pause_ms(5);
	return (int)alive + !sr_family_ended(root);
}

void sr_family_free(struct sr_family *f)
{
	if (!f)
		return;
	free(f->p);
	f->p = NULL;
	f->n = f->cap = 0;
}
