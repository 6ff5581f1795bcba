/*
 * wq_find.c: which event logs condor_watch_q follows, and reading them.
 * The schedd is asked once, at the start, for the jobs the command line
 * names (its users, clusters and batch names, ORed), and each job's
 * UserLog (relative to its Iwd) joins the -files; after that only the
 * logs are read, as they grow, through common/ulogread.
 */
#define _GNU_SOURCE /* timegm */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_ulogread.h"
#include "qtool.h"
#include "wq.h"

/* Python's os.path.abspath(): path made absolute from base (the current
 * directory when NULL) and normalized: no ".", "..", or doubled "/".  A
 * new string. */
static char *abspath(const char *path, const char *base)
{
	char *cwd = NULL;
	if (path[0] != '/' && !base) {
		cwd = getcwd(NULL, 0);
		base = cwd ? cwd : "/";
	}
	size_t cap = strlen(path) + (base ? strlen(base) : 0) + 3;
	char *joined = ks_xmalloc(cap);
	if (path[0] == '/')
		snprintf(joined, cap, "%s", path);
	else
		snprintf(joined, cap, "%s/%s", base, path);
	free(cwd);
	char *out = ks_xmalloc(strlen(joined) + 2);
	size_t n = 0;
	out[n++] = '/';
	for (char *p = joined; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 1 && out[n - 1] != '/')
				n--;
			if (n > 1)
				n--; /* the "/" before the part dropped */
		} else {
			if (out[n - 1] != '/')
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
	}
	if (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
	free(joined);
	return out;
}

static void add_log(struct wq_logs *logs, char *path)
{
	for (size_t i = 0; i < logs->n; i++)
		if (strcmp(logs->v[i].path, path) == 0) {
			free(path);
			return;
		}
	logs->v = ks_xrealloc(logs->v, (logs->n + 1) * sizeof *logs->v);
	logs->v[logs->n++] = (struct wq_log){.path = path, .fd = -1};
}

/* The constraint HTCondor's tool asks with: its terms ORed. */
static char *constraint(const struct wq_opts *o, char **users, size_t nusers)
{
	struct classad_buf b = {0};
	const char *sep = "";
	for (size_t i = 0; i < nusers; i++) {
		char *q = qt_quote(users[i]);
		classad_buf_printf(&b, "%sOwner == %s", sep, q);
		free(q);
		sep = " || ";
	}
	for (size_t i = 0; i < o->clusters.n; i++) {
		classad_buf_printf(&b, "%sClusterId == %ld", sep,
				   strtol(o->clusters.v[i], NULL, 10));
		sep = " || ";
	}
	for (size_t i = 0; i < o->batches.n; i++) {
		char *q = qt_quote(o->batches.v[i]);
		classad_buf_printf(&b, "%sJobBatchName == %s", sep, q);
		free(q);
		sep = " || ";
	}
	return b.data;
}

struct found {
	const struct wq_opts *o;
	struct wq_track *t;
	struct wq_logs *logs;
	FILE *err;
	int *warned; /* clusters already said to have no log */
	size_t nwarned;
};

static int take_ad(classad *ad, void *arg)
{
	struct found *f = arg;
	char *type = classad_eval_string_dup(ad, "MyType");
	bool summary = type && strcasecmp(type, "Summary") == 0;
	free(type);
	int64_t cid = 0, nprocs = -1;
	if (summary || !classad_eval_int(ad, "ClusterId", NULL, &cid)) {
		classad_free(ad);
		return 0;
	}
	if (!classad_eval_int(ad, "TotalSubmitProcs", NULL, &nprocs))
		nprocs = -1;
	char *batch = classad_eval_string_dup(ad, "JobBatchName");
	wq_track_know(f->t, (int)cid, batch, (long)nprocs);
	free(batch);
	if (f->o->batches.n)
		wq_track_filter(f->t, (int)cid);

	char *log = classad_eval_string_dup(ad, "DAGManNodesLog");
	if (!log)
		log = classad_eval_string_dup(ad, "UserLog");
	if (!log || !*log) {
		bool said = false;
		for (size_t i = 0; i < f->nwarned; i++)
			said = said || f->warned[i] == (int)cid;
		if (!said) {
			fprintf(f->err, "WARNING: Cluster %d does not have a job "
					"event log file (set log=<path> in the "
					"submit description)\n", (int)cid);
			f->warned = ks_xrealloc(f->warned, (f->nwarned + 1) *
							     sizeof *f->warned);
			f->warned[f->nwarned++] = (int)cid;
		}
	} else {
		char *iwd = classad_eval_string_dup(ad, "Iwd");
		add_log(f->logs, abspath(log, iwd ? iwd : "/"));
		free(iwd);
	}
	free(log);
	classad_free(ad);
	return 0;
}

/* Asks the schedd; returns 0, or -1 with e saying why not. */
static int query(const struct wq_opts *o, const char *cons, struct found *f,
		 struct ks_err *e)
{
	ks_config *cfg = ks_config_load_new("TOOL", NULL, e);
	if (!cfg)
		return -1;
	struct qt_schedd s;
	int rc = qt_schedd_find(cfg, o->collector, o->schedd, &s, e);
	if (rc) {
		ks_config_free(cfg);
		return -1;
	}
	if (o->debug)
		fprintf(f->err, "condor_watch_q: asking schedd %s at %s for "
				"jobs with %s\n", s.name, s.addr, cons);
	ks_conn *c = NULL;
	rc = ks_conn_open(cfg, s.addr, 0, &c, e);
	if (rc == 0) {
		classad *q = classad_new();
		struct ks_err pe = {0};
		if (classad_insert_text(q, "Requirements", cons, &pe)) {
			snprintf(e->msg, sizeof e->msg, "bad constraint: %.200s",
				 pe.msg);
			rc = -1;
		} else {
			classad_insert_string(q, "Projection",
					      "ClusterId Owner UserLog "
					      "DAGManNodesLog JobBatchName Iwd "
					      "DAG_NodesTotal "
					      "OtherJobRemoveRequirements "
					      "TotalSubmitProcs");
			rc = qt_stream(c, KS_QUERY_JOB_ADS, q, take_ad, f, e);
		}
		classad_free(q);
	}
	ks_conn_close(c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	return rc ? -1 : 0;
}

void wq_find(const struct wq_opts *o, struct wq_track *t,
	     struct wq_logs *logs, FILE *err)
{
	for (size_t i = 0; i < o->files.n; i++)
		add_log(logs, abspath(o->files.v[i], NULL));

	char *me = NULL;
	char **users = o->users.v;
	size_t nusers = o->users.n;
	if (!o->has_users && !o->has_clusters && !o->has_files &&
	    !o->has_batches) {
		me = qt_user_name();
		users = &me;
		nusers = 1;
	}
	char *cons = constraint(o, users, nusers);
	if (cons) {
		struct found f = {o, t, logs, err, NULL, 0};
		struct ks_err e = {0};
		if (query(o, cons, &f, &e))
			fprintf(err, "WARNING: Was not able to query to discover "
				     "job event logs due to: %s\n", e.msg);
		free(f.warned);
	}
	free(cons);
	free(me);
}

void wq_logs_open(struct wq_logs *logs, FILE *err)
{
	for (size_t i = 0; i < logs->n; i++) {
		struct wq_log *l = &logs->v[i];
		const char *why = NULL;
		l->fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		struct stat st;
		if (l->fd < 0)
			why = errno == ENOENT ? "File path does not exist"
					      : strerror(errno);
		else if (fstat(l->fd, &st) == 0 && S_ISDIR(st.st_mode))
			why = strerror(EISDIR);
		if (why) {
			fprintf(err, "WARNING: Could not open event log at %s "
				     "for reading, so it will be ignored. "
				     "Reason: %s\n", l->path, why);
			if (l->fd >= 0)
				close(l->fd);
			l->fd = -1;
			continue;
		}
		l->reader = ks_ulogread_new();
	}
}

/* An event's header time as seconds since the epoch: "2026-11-23
 * 10:11:12[.mmm][Z]" or the legacy "11/23 10:11:12" (this year), local
 * time unless it ends in Z. */
static time_t event_time(const char *date, time_t now)
{
	struct tm tm = {0};
	int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
	if (sscanf(date, "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &s) != 6) {
		struct tm nt;
		localtime_r(&now, &nt);
		y = nt.tm_year + 1900;
		if (sscanf(date, "%d/%d %d:%d:%d", &mo, &d, &h, &mi, &s) != 5)
			return now;
	}
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	return strchr(date, 'Z') ? timegm(&tm) : mktime(&tm);
}

/* The JobBatchName of a submit event's structured notes (its first body
 * line that is an ad, "    [ JobBatchName = \"x\" ]"), or NULL: a new
 * string. */
static char *notes_batch(const struct ks_ulogread_event *ev)
{
	const char *p = memchr(ev->text, '\n', ev->text_len);
	const char *end = ev->text + ev->text_len;
	while (p && p < end) {
		const char *line = p + 1;
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		while (line < stop && (*line == ' ' || *line == '\t'))
			line++;
		if (line < stop && *line == '[') {
			classad *ad = classad_parse(line, (size_t)(stop - line),
						    CLASSAD_FMT_NEW, NULL, NULL);
			char *batch = NULL;
			if (ad && !classad_eval_string(ad, "JobBatchName", NULL,
						       &batch))
				batch = NULL;
			classad_free(ad);
			return batch;
		}
		p = nl;
	}
	return NULL;
}

static void add_msg(char **msgs, const char *fmt, const char *path,
		    const char *why)
{
	size_t old = *msgs ? strlen(*msgs) : 0;
	size_t n = strlen(fmt) + strlen(path) + strlen(why) + 2;
	*msgs = ks_xrealloc(*msgs, old + n);
	if (!old)
		(*msgs)[0] = '\0';
	snprintf(*msgs + old, n, fmt, path, why);
	strcat(*msgs, "\n");
}

void wq_logs_read(struct wq_logs *logs, struct wq_track *t, time_t now,
		  char **msgs)
{
	static const char fmt[] = "ERROR: Failed to parse event from %s. "
				  "Reason: %s";
	for (size_t i = 0; i < logs->n; i++) {
		struct wq_log *l = &logs->v[i];
		if (l->fd < 0 || l->broken)
			continue;
		char buf[65536];
		for (;;) {
			ssize_t n = read(l->fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno != EAGAIN) {
				add_msg(msgs, fmt, l->path, strerror(errno));
				l->broken = true;
			}
			if (n <= 0)
				break;
			struct ks_err e = {0};
			if (ks_ulogread_feed(l->reader, buf, (size_t)n, &e)) {
				add_msg(msgs, fmt, l->path, e.msg);
				l->broken = true;
				break;
			}
			/* take events as they come, so that a huge log is
			 * not held whole */
			struct ks_ulogread_event ev;
			int rc;
			while ((rc = ks_ulogread_next(l->reader, &ev, &e)) != 0) {
				if (rc < 0) {
					add_msg(msgs, fmt, l->path, e.msg);
					e = (struct ks_err){0};
					continue;
				}
				char *batch = ev.type == 0 ? notes_batch(&ev)
							   : NULL;
				wq_track_event(t, l->path, ev.type, ev.cluster,
					       ev.proc, ev.what,
					       event_time(ev.date, now), now,
					       batch);
				free(batch);
			}
		}
	}
}

void wq_logs_free(struct wq_logs *logs)
{
	for (size_t i = 0; i < logs->n; i++) {
		free(logs->v[i].path);
		if (logs->v[i].fd >= 0)
			close(logs->v[i].fd);
		ks_ulogread_free(logs->v[i].reader);
	}
	free(logs->v);
	*logs = (struct wq_logs){0};
}
