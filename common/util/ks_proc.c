/* ks_proc.c: a process's line of /proc/PID/stat (ks_proc.h). */
#include "ks_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int ks_proc_stat(long pid, struct ks_proc_stat *out)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	/* open and read, not stdio: the starter reads one per process of a
	 * job at each of its samples */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name is in parentheses and may hold anything, ')'
	 * included: the fields start after the last ')'. */
	const char *s = strrchr(buf, ')');
	unsigned long long ut, st, vsize;
	long long rss;
	if (!s || sscanf(s + 1,
			 " %c %ld %ld %ld %*d %*d %*u %*u %*u %*u %*u %llu %llu"
			 " %*d %*d %*d %*d %*d %*d %*u %llu %lld",
			 &out->state, &out->ppid, &out->pgrp, &out->session,
			 &ut, &st, &vsize, &rss) != 8)
		return -1;
	out->ticks = ut + st;
	out->vsize = vsize;
	out->rss = rss;
	return 0;
}
