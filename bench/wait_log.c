/*
 * wait_log.c: waits until a job event log holds COUNT events of one code.
 *
 *   wait_log LOG CODE COUNT SECONDS [FIRST]
 *
 * Exits 0 once LOG has COUNT lines beginning "CODE " (e.g. "005 "), 1 with
 * a message when SECONDS pass first, 2 on a bad command line.  LOG need not
 * exist yet.  With FIRST (e.g. 001) it prints, at the end, the time of day
 * (seconds since 1970, as bash's EPOCHREALTIME) when it saw the first line
 * beginning "FIRST ": pool_bench.sh splits a run's time at the first job's
 * start that way.
 *
 * Why a program: pool_bench.sh times jobs by their events, and whatever
 * waits for them shares the two cores with the jobs.  This one sleeps in
 * poll() on inotify events for LOG's directory and reads only what was
 * appended, so the waiting costs the pool next to nothing (a shell loop
 * that looked every 10 ms took about 4% of the cores during the run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

struct scan {
	const char *code; /* "005 " */
	size_t code_len;
	size_t at_line_start; /* bytes of the current line seen so far */
	int matching;	      /* the current line still matches code */
	long found;
};

/* Counts lines beginning with the code in buf; a line may arrive in pieces. */
static void scan_bytes(struct scan *s, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '\n') {
			s->at_line_start = 0;
			s->matching = 1;
			continue;
		}
		if (s->matching && s->at_line_start < s->code_len) {
			if (c != s->code[s->at_line_start])
				s->matching = 0;
			else if (s->at_line_start + 1 == s->code_len)
				s->found++;
		}
		s->at_line_start++;
	}
}

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* A scanner for the lines beginning "code " (code at most 13 bytes). */
static void scan_init(struct scan *s, char buf[16], const char *code)
{
	snprintf(buf, 16, "%s ", code);
	*s = (struct scan){buf, strlen(buf), 0, 1, 0};
}

int main(int argc, char **argv)
{
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: %s LOG CODE COUNT SECONDS [FIRST]\n",
			argv[0]);
		return 2;
	}
	const char *log = argv[1];
	char code[16], first_code[16];
	char *end;
	long want = strtol(argv[3], &end, 10);
	double limit = strtod(argv[4], NULL);
	if (*end || want < 0 || strlen(argv[2]) > 13 ||
	    (argc == 6 && strlen(argv[5]) > 13)) {
		fprintf(stderr, "%s: bad COUNT, CODE or FIRST\n", argv[0]);
		return 2;
	}
	struct scan s, first;
	scan_init(&s, code, argv[2]);
	scan_init(&first, first_code, argc == 6 ? argv[5] : "");
	double first_seen = 0;

	char *copy = strdup(log);
	const char *dir = dirname(copy);
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in < 0 || inotify_add_watch(in, dir, IN_CREATE | IN_MODIFY |
						       IN_MOVED_TO) < 0) {
		fprintf(stderr, "%s: cannot watch %s: %s\n", argv[0], dir,
			strerror(errno));
		return 1;
	}
	free(copy);

	double deadline = now() + limit;
	int fd = -1;
	char buf[65536];
	for (;;) {
		/* the watch is in place before each look, so no append
		 * between a look and the next poll goes unnoticed */
		if (fd < 0)
			fd = open(log, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t r;
			while ((r = read(fd, buf, sizeof(buf))) > 0) {
				scan_bytes(&s, buf, (size_t)r);
				scan_bytes(&first, buf, (size_t)r);
			}
		}
		if (argc == 6 && first.found && !first_seen)
			first_seen = clock_s(CLOCK_REALTIME);
		if (s.found >= want) {
			if (argc == 6)
				printf("%.6f\n", first_seen);
			return 0;
		}
		double left = deadline - now();
		if (left <= 0) {
			fprintf(stderr, "%s: %ld of %ld '%s' events in %s\n",
				argv[0], s.found, want, argv[2], log);
			return 1;
		}
		struct pollfd p = {in, POLLIN, 0};
		if (poll(&p, 1, (int)(left * 1000) + 1) > 0)
			while (read(in, buf, sizeof(buf)) > 0)
				;
	}
}
