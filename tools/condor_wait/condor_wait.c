/*
 * condor_wait.c: condor_wait, as HTCondor 25's (src/condor_tools/wait.cpp
 * for the facts): waits on a job event log until every job it mentions
 * (or the given cluster or job) has terminated or been aborted, or until
 * -num jobs have, or -wait seconds have passed.
 *
 * The log is read once to its end (the "initial scan"), then followed:
 * the process sleeps in poll() on an inotify watch of the file (or, if
 * inotify is unavailable, wakes once a second) and reads only what was
 * appended.  Events are cut out by common/ulogread, which keeps a
 * partial event until its "..." line arrives.
 *
 * Exit status, as HTCondor's: 0 only when the jobs are known to be done
 * (and, as there, after -help, and with -wait 0 once the end of the log
 * is reached); 1 for everything else, -version included.
 */
#define _GNU_SOURCE /* inotify, ctime_r */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "ks_mem.h"
#include "ks_ulogread.h"
#include "ks_version.h"
#include "sdt.h"
#include "ks_clock.h"

#define ANY (-1) /* a job id part given as "any" */

enum { EV_SUBMIT = 0, EV_EXECUTE = 1, EV_TERMINATED = 5, EV_ABORTED = 9 };

/* ---- the set of jobs submitted and not yet ended ------------------------ */

struct job_id {
	int c, p, s;
};

/* Open addressing with tombstones; ids are few enough that the table is
 * simply doubled when 1/2 full (tombstones counted). */
struct job_set {
	struct job_id *slot;
	unsigned char *state; /* 0 empty, 1 used, 2 removed */
	size_t cap, used, live;
};

static size_t job_hash(struct job_id j, size_t cap)
{
	uint64_t h = (uint64_t)(unsigned)j.c * 0x9E3779B97F4A7C15u;
	h ^= (uint64_t)(unsigned)j.p * 0xC2B2AE3D27D4EB4Fu;
	h ^= (uint64_t)(unsigned)j.s * 0x165667B19E3779F9u;
	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static bool job_eq(struct job_id a, struct job_id b)
{
	return a.c == b.c && a.p == b.p && a.s == b.s;
}

/* Finds j's slot, or the empty slot where it would go. */
static size_t job_find(const struct job_set *t, struct job_id j)
{
	size_t i = job_hash(j, t->cap);
	while (t->state[i] != 0 && !(t->state[i] == 1 && job_eq(t->slot[i], j)))
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void job_insert(struct job_set *t, struct job_id j);

static void job_grow(struct job_set *t)
{
	struct job_set old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slot = ks_xcalloc(t->cap, sizeof(*t->slot));
	t->state = ks_xcalloc(t->cap, 1);
	t->used = t->live = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.state[i] == 1)
			job_insert(t, old.slot[i]);
	free(old.slot);
	free(old.state);
}

static void job_insert(struct job_set *t, struct job_id j)
{
	if ((t->used + 1) * 2 > t->cap)
		job_grow(t);
	size_t i = job_find(t, j);
	if (t->state[i] == 1)
		return;
	t->slot[i] = j;
	t->state[i] = 1;
	t->used++;
	t->live++;
}

static void job_erase(struct job_set *t, struct job_id j)
{
	if (!t->cap)
		return;
	size_t i = job_find(t, j);
	if (t->state[i] == 1) {
		t->state[i] = 2;
		t->live--;
	}
}

static void job_set_free(struct job_set *t)
{
	free(t->slot);
	free(t->state);
}

/* ---- options ---------------------------------------------------------- */

struct opts {
	const char *prog;
	const char *log;
	const char *job;
	long wait_secs;       /* -wait; meaningful when has_wait */
	bool has_wait;
	bool dont_wait;       /* -wait 0, or -allevents without -wait */
	int min_jobs;         /* -num; INT_MAX for -allevents */
	int special_id;       /* -event-id */
	int min_special;
	bool status;
	bool echo;
	bool debug;           /* -debug and the flags ask for D_FULLDEBUG */
	bool to_term;         /* -debug was given */
	const char *debug_flags;
	const char *echo_fmt;
};

static void usage(const char *prog)
{
	fprintf(stderr,
		"\nUse: %s [options] <log-file> [job-number]\n"
		"Where options are:\n"
		"    -help             Display options\n"
		"    -version          Display Condor version\n"
		"    -debug            Show extra debugging info\n"
		"    -status           Show job start and terminate info\n"
		"    -echo[:<fmt>]     Echo log events relevant to [job-number]\n"
		"       optional <fmt> is one or more log format options:\n"
		"         ISO_DATE     date in Year-Month-Day form\n"
		"         UTC          echo time as UTC time\n"
		"         XML          echo in XML log format\n"
		"         JSON         echo in JSON log format\n"
		"    -num <number>     Wait for this many jobs to end\n"
		"                       (default is all jobs)\n"
		"    -wait <seconds>   Wait no more than this time\n"
		"                       (default is unlimited)\n"
		"    -allevents        Continue on even if all jobs have ended.\n"
		"                      use with -echo to transcribe the whole log\n"
		"                      cannot be used with -num\n"
		"\n"
		"%s follows the job event log and says when the given job,\n"
		"or cluster, or every job the log mentions, has terminated or\n"
		"been aborted.  It exits 0 only when that is known, 1 otherwise.\n"
		"\n",
		prog, prog);
	fprintf(stderr, "Examples:\n");
	fprintf(stderr, "    %s logfile\n", prog);
	fprintf(stderr, "    %s logfile 35\n", prog);
	fprintf(stderr, "    %s logfile 1406.35\n", prog);
	fprintf(stderr, "    %s -wait 60 logfile 13.25.3\n", prog);
	fprintf(stderr, "    %s -num 2 logfile\n", prog);
	fprintf(stderr, "\nTranscribe an entire log to UTC timestamps:\n"
			"    %s -all -echo:UTC logfile\n", prog);
}

/* HTCondor prints its D_FULLDEBUG lines only when the tool's debug flags
 * (-debug:FLAGS, else TOOL_DEBUG or DEFAULT_DEBUG, plus ALL_DEBUG) ask for
 * them. */
static bool wants_fulldebug(const char *flags)
{
	return flags && (strcasestr(flags, "D_FULLDEBUG") ||
			 strcasestr(flags, "D_ALL") ||
			 strcasestr(flags, "D_ALWAYS:2"));
}

/* dprintf's console form: "MM/DD/YY HH:MM:SS message". */
static void debugf(const struct opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void debugf(const struct opts *o, const char *fmt, ...)
{
	if (!o->debug)
		return;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%m/%d/%y %H:%M:%S", &tm);
	fprintf(stderr, "%s ", stamp);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *colon = NULL;
		if (strcmp(a, "-help") == 0) {
			usage(o->prog);
			return 0;
		} else if (strcmp(a, "-version") == 0) {
			fputs(KS_CONDOR_VERSION_LINES, stdout);
			return 1; /* HTCondor's condor_wait exits 1 here */
		} else if (sdt_dash_colon_prefix(a, "debug", 1, &colon)) {
			o->to_term = true;
			o->debug_flags = colon && colon[1] ? colon + 1 : NULL;
			o->status = false;
		} else if (strcmp(a, "-status") == 0) {
			if (o->to_term)
				fprintf(stderr, "-status is implied by -debug\n");
			else
				o->status = true;
		} else if (sdt_dash_colon_prefix(a, "echo", -1, &colon)) {
			o->echo = true;
			if (colon)
				o->echo_fmt = colon + 1;
		} else if (sdt_dash_colon_prefix(a, "event-id", -1, &colon)) {
			if (++i >= argc) {
				fprintf(stderr, "-event-id requires an id\n");
				usage(o->prog);
				return 1;
			}
			o->special_id = atoi(argv[i]);
			o->min_special = colon ? atoi(colon + 1) : 1;
		} else if (sdt_dash_prefix(a, "allevents", 3)) {
			if (o->min_jobs) {
				fprintf(stderr, "-allevents cannot be used with -num\n");
				usage(o->prog);
				return 1;
			}
			o->min_jobs = INT_MAX;
			if (!o->has_wait || o->wait_secs == 0)
				o->dont_wait = true;
		} else if (strcmp(a, "-wait") == 0) {
			if (++i >= argc) {
				fprintf(stderr, "-wait requires an argument\n");
				usage(o->prog);
				return 1;
			}
			o->wait_secs = atol(argv[i]);
			o->has_wait = true;
			o->dont_wait = o->wait_secs == 0;
		} else if (strcmp(a, "-num") == 0) {
			if (++i >= argc) {
				fprintf(stderr, "-num requires an argument\n");
				usage(o->prog);
				return 1;
			}
			if (o->min_jobs == INT_MAX) {
				fprintf(stderr, "-num cannot be used with -allevents\n");
				usage(o->prog);
				return 1;
			}
			o->min_jobs = atoi(argv[i]);
			if (o->min_jobs < 1) {
				fprintf(stderr, "-num must be greater than zero\n");
				usage(o->prog);
				return 1;
			}
		} else if (strcmp(a, "-log") == 0) {
			if (++i >= argc) {
				fprintf(stderr, "-log requires an argument\n");
				usage(o->prog);
				return 1;
			}
			o->log = argv[i];
		} else if (o->log && !o->job && strcmp(a, "-1") == 0) {
			o->job = a; /* every cluster */
		} else if (a[0] != '-') {
			if (!o->log) {
				o->log = a;
			} else if (!o->job) {
				o->job = a;
			} else {
				fprintf(stderr, "Extra argument: %s\n\n", a);
				usage(o->prog);
				return 1;
			}
		} else {
			usage(o->prog);
			return 1;
		}
	}
	if (!o->log) {
		usage(o->prog);
		return 1;
	}
	return -1;
}

/* "C", "C.P" or "C.P.S" as HTCondor's sscanf("%d.%d.%d") reads it: at
 * least the cluster must be a number; what follows a part that does not
 * read is ignored. */
static bool parse_job(const char *s, struct job_id *j)
{
	int *parts[3] = {&j->c, &j->p, &j->s};
	j->c = j->p = j->s = ANY;
	for (int k = 0; k < 3; k++) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (end == s || errno || v < INT_MIN || v > INT_MAX)
			return k > 0;
		*parts[k] = (int)v;
		if (*end != '.')
			return true;
		s = end + 1;
	}
	return true;
}

static bool matches(const struct ks_ulogread_event *ev, struct job_id want)
{
	return (want.c == ANY || ev->cluster == want.c) &&
	       (want.p == ANY || ev->proc == want.p) &&
	       (want.s == ANY || ev->subproc == want.s);
}

/* ---- following the file ---------------------------------------------- */

struct follow {
	int fd;          /* the log */
	int ino;         /* inotify instance, or -1: wake once a second */
	ks_ulogread *r;
	bool broken;     /* a read error or an event too long */
};

/* Feeds the reader everything appended since the last call. */
static void read_appended(struct follow *f, const struct opts *o)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(f->fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			debugf(o, "reading %s: %s\n", o->log, strerror(errno));
			f->broken = true;
			return;
		}
		if (n == 0)
			return;
		struct ks_err err = {0};
		if (ks_ulogread_feed(f->r, buf, (size_t)n, &err) != 0) {
			debugf(o, "%s: %s\n", o->log, err.msg);
			f->broken = true;
			return;
		}
	}
}

/* Sleeps until the file changes or timeout_ms pass (-1: no limit). */
static void wait_change(struct follow *f, int64_t timeout_ms)
{
	int64_t t = timeout_ms;
	if (f->ino < 0 && (t < 0 || t > 1000))
		t = 1000;
	if (t > INT_MAX)
		t = INT_MAX;
	struct pollfd p = {.fd = f->ino, .events = POLLIN};
	int rc = poll(f->ino >= 0 ? &p : NULL, f->ino >= 0 ? 1 : 0, (int)t);
	if (rc > 0) {
		char ibuf[4096]; /* the events only say "modified" */
		while (read(f->ino, ibuf, sizeof ibuf) > 0)
			;
	}
}

/* HTCondor's readEvent outcomes. */
enum outcome { OUT_EVENT, OUT_NONE, OUT_ERROR };

/* The next event, waiting at most timeout_ms for it (0: only what is
 * there; -1: no limit).  A partial event does not end the wait early. */
static enum outcome next_event(struct follow *f, const struct opts *o,
			       int64_t timeout_ms,
			       struct ks_ulogread_event *ev)
{
	int64_t until = timeout_ms > 0 ? ks_clock_ms() + timeout_ms : 0;
	for (;;) {
		struct ks_err err = {0};
		int rc = ks_ulogread_next(f->r, ev, &err);
		if (rc == 0 && !f->broken) {
			read_appended(f, o);
			rc = ks_ulogread_next(f->r, ev, &err);
		}
		if (rc == 1)
			return OUT_EVENT;
		if (rc < 0) {
			debugf(o, "%s: %s\n", o->log, err.msg);
			return OUT_ERROR;
		}
		if (f->broken)
			return OUT_ERROR;
		if (timeout_ms == 0)
			return OUT_NONE;
		int64_t left = -1;
		if (timeout_ms > 0) {
			left = until - ks_clock_ms();
			if (left <= 0)
				return OUT_NONE;
		}
		wait_change(f, left);
	}
}

/* ---- the command -------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct opts o = {0};
	/* HTCondor names itself by argv[0] as given, path and all */
	o.prog = argc > 0 ? argv[0] : "condor_wait";
	int st = parse(argc, argv, &o);
	if (st >= 0)
		return st;

	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", e.msg);
		return 1;
	}
	if (o.to_term) {
		char *flags = o.debug_flags ? ks_xstrdup(o.debug_flags) : NULL;
		if (!flags)
			flags = ks_config_get(cfg, "TOOL_DEBUG", NULL);
		if (!flags)
			flags = ks_config_get(cfg, "DEFAULT_DEBUG", NULL);
		char *all = ks_config_get(cfg, "ALL_DEBUG", NULL);
		o.debug = wants_fulldebug(flags) || wants_fulldebug(all);
		free(flags);
		free(all);
	}
	ks_config_free(cfg);

	if (o.echo && o.echo_fmt &&
	    (strcasestr(o.echo_fmt, "XML") || strcasestr(o.echo_fmt, "JSON"))) {
		fprintf(stderr, "%s: -echo:%s: kestrel echoes events in the "
				"text format only\n", o.prog, o.echo_fmt);
		return 1;
	}
	if (o.has_wait && o.wait_secs)
		debugf(&o, "Will wait until %ld seconds from now\n",
		       o.wait_secs);
	else if (o.has_wait)
		debugf(&o, "Will exit at EOF\n");
	if (o.min_jobs && o.min_jobs != INT_MAX)
		debugf(&o, "Will wait until %d jobs end\n", o.min_jobs);

	struct job_id want = {ANY, ANY, ANY};
	if (o.job && !parse_job(o.job, &want)) {
		fprintf(stderr, "Couldn't understand job number: %s\n", o.job);
		return 1;
	}

	debugf(&o, "Reading log file %s\n", o.log);
	struct follow f = {.fd = -1, .ino = -1};
	f.fd = open(o.log, O_RDONLY | O_CLOEXEC);
	if (f.fd < 0) {
		fprintf(stderr, "Couldn't open %s: %s\n", o.log, strerror(errno));
		return 1;
	}
	/* watched before the first read, so no append can fall between */
	f.ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (f.ino >= 0 && inotify_add_watch(f.ino, o.log, IN_MODIFY) < 0) {
		close(f.ino);
		f.ino = -1;
	}
	f.r = ks_ulogread_new();

	int64_t deadline = o.has_wait ? ks_clock_ms() + (int64_t)o.wait_secs * 1000
				      : 0;
	struct job_set table = {0};
	long submitted = 0, ended = 0, special = 0;
	bool initial_scan = true;
	int status = -1;
	while (status < 0) {
		int64_t timeout = -1;
		if (!o.dont_wait && o.has_wait) {
			int64_t left = deadline - ks_clock_ms();
			if (left <= 0) {
				printf("Time expired.\n");
				status = 1;
				break;
			}
			timeout = left;
		}
		struct ks_ulogread_event ev;
		enum outcome out =
			next_event(&f, &o, initial_scan ? 0 : timeout, &ev);
		if (out == OUT_ERROR) {
			debugf(&o, "Got ULOG_RD_ERROR, done.\n");
			status = 1;
		} else if (out == OUT_EVENT) {
			if (matches(&ev, want)) {
				char key[48];
				struct job_id id = {ev.cluster, ev.proc,
						    ev.subproc};
				snprintf(key, sizeof key, "%d.%d.%d", id.c,
					 id.p, id.s);
				if (o.echo)
					fwrite(ev.text, 1, ev.text_len, stdout);
				if (ev.type == EV_SUBMIT) {
					debugf(&o, "%s submitted\n", key);
					if (o.status)
						printf("%s submitted\n", key);
					job_insert(&table, id);
					submitted++;
				} else if (ev.type == EV_TERMINATED ||
					   ev.type == EV_ABORTED) {
					const char *how = ev.type == EV_ABORTED
								  ? "aborted"
								  : "completed";
					debugf(&o, "%s %s\n", key, how);
					if (o.status)
						printf("%s %s\n", key, how);
					job_erase(&table, id);
					ended++;
				} else if (ev.type == EV_EXECUTE) {
					if (o.status)
						printf("%s executing on host %s\n",
						       key,
						       ks_ulogread_execute_host(&ev));
				} else if (o.special_id &&
					   ev.type == o.special_id) {
					if (o.status)
						printf("%s event %d found\n", key,
						       o.special_id);
					special++;
				}
			}
			if (o.min_jobs && ended >= o.min_jobs) {
				/* HTCondor's spelling */
				printf("Specifed number of jobs (%d) done.\n",
				       o.min_jobs);
				status = 0;
			} else if (table.live == 0 && submitted > 0 &&
				   !o.min_jobs && !initial_scan &&
				   !o.special_id) {
				printf("All jobs done.\n");
				status = 0;
			} else if (o.special_id && special >= o.min_special) {
				printf("Got %ld events of id %d\n", special,
				       o.special_id);
				status = 0;
			}
		} else if (initial_scan) {
			initial_scan = false;
			if (table.live == 0 && !o.min_jobs && !o.special_id) {
				printf("All jobs done.\n");
				status = 0;
			} else if (o.dont_wait) {
				status = 0;
			}
		} else {
			if (table.live == 0 && submitted == 0) {
				if (want.c != ANY)
					fprintf(stderr, "This log does not "
							"mention that job!\n");
				else if (o.special_id)
					fprintf(stderr, "Saw only %ld events of "
							"id %d!\n",
						special, o.special_id);
				else
					fprintf(stderr, "This log does not "
							"mention any jobs!\n");
				if (!o.dont_wait)
					status = 1;
			}
			if (status < 0 && o.dont_wait)
				status = 0;
		}
		fflush(stdout);
	}
	ks_ulogread_free(f.r);
	job_set_free(&table);
	if (f.ino >= 0)
		close(f.ino);
	close(f.fd);
	return status;
}
