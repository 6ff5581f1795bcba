/*
 * qt_userlog.c: the jobs a job event log tells of (qtool.h), for
 * condor_q -userlog and condor_history -userlog.  As HTCondor's
 * userlog_to_classads() makes them: each job
 * submitted in the log gets an ad at its submit event, with made-up
 * values where the log says nothing (Cmd "???", the Owner this tool runs
 * as), and each later event of the job changes it (its status, times,
 * exit, hold and release reasons, usage).  Events of jobs not submitted
 * in the log are passed over.
 */
#define _GNU_SOURCE /* timegm(), memmem() */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "qtool.h"
#include "ks_mem.h"
#include "ks_ulogread.h"

/* The event numbers this reads (HTCondor's ULogEventNumber). */
enum { EV_SUBMIT = 0, EV_EXECUTE = 1, EV_EVICTED = 4, EV_TERMINATED = 5,
       EV_IMAGE_SIZE = 6, EV_SHADOW_EXCEPTION = 7, EV_ABORTED = 9,
       EV_SUSPENDED = 10, EV_UNSUSPENDED = 11, EV_HELD = 12,
       EV_RELEASED = 13, EV_RECONNECT_FAILED = 24, EV_JOB_AD_INFO = 28 };

/* HTCondor's JobStatus values. */
enum { ST_IDLE = 1, ST_RUNNING = 2, ST_REMOVED = 3, ST_COMPLETED = 4,
       ST_HELD = 5, ST_SUSPENDED = 7 };

struct ul_job {
	int cluster, proc, subproc;
	classad *ad;
};

struct ul_queue {
	struct ul_job *v; /* in id order */
	size_t n, cap;
	const char *path;
	char *owner;
};

static int id_cmp(int c1, int p1, int s1, int c2, int p2, int s2)
{
	if (c1 != c2)
		return c1 < c2 ? -1 : 1;
	if (p1 != p2)
		return p1 < p2 ? -1 : 1;
	return (s1 > s2) - (s1 < s2);
}

/* Where the job is, or where it would go: a log's ids mostly come in
 * order, so the search usually ends at the last one. */
static size_t find(const struct ul_queue *q, int c, int p, int s, bool *found)
{
	size_t lo = 0, hi = q->n;
	if (q->n && id_cmp(q->v[q->n - 1].cluster, q->v[q->n - 1].proc,
			   q->v[q->n - 1].subproc, c, p, s) < 0)
		lo = q->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ul_job *j = &q->v[mid];
		int d = id_cmp(j->cluster, j->proc, j->subproc, c, p, s);
		if (d == 0) {
			*found = true;
			return mid;
		}
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* The event's time, from its header: ISO ("2026-11-23 10:11:12", local
 * time unless it ends in Z) or HTCondor's older "11/23 10:11:12" (this
 * year). */
static int64_t event_time(const char *date)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	int n = 0;
	if (sscanf(date, "%d-%d-%d %d:%d:%d%n", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 6) {
		tm.tm_year -= 1900;
	} else if (sscanf(date, "%d/%d %d:%d:%d%n", &tm.tm_mon, &tm.tm_mday,
			  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 5) {
		time_t now = time(NULL);
		struct tm here;
		localtime_r(&now, &here);
		tm.tm_year = here.tm_year;
	} else {
		return 0;
	}
	tm.tm_mon -= 1;
	const char *rest = date + n;
	rest += strspn(rest, ".0123456789");
	if (*rest == 'Z')
		return (int64_t)timegm(&tm);
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* The body's lines after the header, one at a time: *line (not NUL
 * ended) and its length; false after the last ("..." ends the event). */
static bool next_line(const char **at, const char *end, const char **line,
		      size_t *len)
{
	const char *p = *at;
	if (p >= end)
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *eol = nl ? nl : end;
	*at = nl ? nl + 1 : end;
	if (eol - p >= 3 && memcmp(p, "...", 3) == 0)
		return false;
	*line = p;
	*len = (size_t)(eol - p);
	return true;
}

/* The first body line, white space trimmed (a new string), or NULL. */
static char *first_body_line(const struct ks_ulogread_event *ev)
{
	const char *at = ev->text, *end = ev->text + ev->text_len, *line;
	size_t len;
	next_line(&at, end, &line, &len); /* the header */
	if (!next_line(&at, end, &line, &len))
		return NULL;
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
		       line[len - 1] == '\r'))
		len--;
	return ks_xstrndup(line, len);
}

/* Seconds of an "Usr D HH:MM:SS, Sys D HH:MM:SS  -  WHAT" line. */
static bool usage_line(const char *line, size_t len, const char *what,
		       double *usr, double *sys)
{
	char buf[256];
	if (len >= sizeof buf)
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	const char *dash = strstr(buf, "  -  ");
	if (!dash || strcmp(dash + 5, what) != 0)
		return false;
	int ud, uh, um, us, sd, sh, sm, ss;
	if (sscanf(buf, " Usr %d %d:%d:%d, Sys %d %d:%d:%d", &ud, &uh, &um,
		   &us, &sd, &sh, &sm, &ss) != 8)
		return false;
	*usr = ud * 86400.0 + uh * 3600.0 + um * 60.0 + us;
	*sys = sd * 86400.0 + sh * 3600.0 + sm * 60.0 + ss;
	return true;
}

static void set_status(classad *ad, int status, int64_t when)
{
	const classad_expr *old = classad_lookup(ad, "JobStatus");
	if (old)
		classad_insert(ad, "LastJobStatus", classad_expr_ref(old));
	classad_insert_int(ad, "JobStatus", status);
	classad_insert_int(ad, "EnteredCurrentStatus", when);
}

/* set_status(), and the event's first line, when it has one, as attr
 * (why the job was released or removed). */
static void set_status_why(classad *ad, int status, int64_t when,
			   const struct ks_ulogread_event *ev, const char *attr)
{
	set_status(ad, status, when);
	char *reason = first_body_line(ev);
	if (reason && *reason)
		classad_insert_string(ad, attr, reason);
	free(reason);
}

static void count(classad *ad, const char *name)
{
	int64_t v = 0;
	classad_eval_int(ad, name, NULL, &v);
	classad_insert_int(ad, name, v + 1);
}

static double real_of(const classad *ad, const char *name)
{
	classad_value v = CLASSAD_VALUE_INIT;
	double r = 0;
	if (classad_eval_attr(ad, name, NULL, &v) == 0) {
		if (v.type == CLASSAD_REAL)
			r = v.u.r;
		else if (v.type == CLASSAD_INTEGER)
			r = (double)v.u.i;
	}
	classad_value_clear(&v);
	return r;
}

static void submitted(struct ul_queue *q, size_t at,
		      const struct ks_ulogread_event *ev, int64_t when)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->v = ks_xrealloc(q->v, q->cap * sizeof *q->v);
	}
	memmove(&q->v[at + 1], &q->v[at], (q->n - at) * sizeof *q->v);
	q->n++;
	classad *ad = classad_new();
	q->v[at] = (struct ul_job){ev->cluster, ev->proc, ev->subproc, ad};
	classad_insert_string(ad, "MyType", "Job");
	classad_insert_string(ad, "TargetType", "Machine");
	classad_insert_int(ad, "ClusterId", ev->cluster);
	classad_insert_int(ad, "ProcId", ev->proc);
	classad_insert_string(ad, "UserLog", q->path);
	classad_insert_int(ad, "QDate", when);
	classad_insert_int(ad, "EnteredCurrentStatus", when);
	char id[96];
	snprintf(id, sizeof id, "localhost#%d.%d#%lld", ev->cluster, ev->proc,
		 (long long)when);
	classad_insert_string(ad, "GlobalJobId", id);
	classad_insert_int(ad, "ServerTime", (int64_t)time(NULL));
	const char *host = strstr(ev->what, "from host: ");
	classad_insert_string(ad, "SubmitHost", host ? host + 11 : "");
	classad_insert_int(ad, "JobStatus", ST_IDLE);
	classad_insert_int(ad, "LastJobStatus", 0);
	classad_insert_string(ad, "Owner", q->owner ? q->owner : "???");
	classad_insert_int(ad, "JobPrio", 0);
	classad_insert_int(ad, "ImageSize", 0);
	classad_insert_string(ad, "Cmd", "???");
	static const char *const zeros[] = {"LastSuspensionTime",
					    "CompletionDate", "NumJobStarts",
					    "TotalSuspensions",
					    "NumSystemHolds"};
	for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++)
		classad_insert_int(ad, zeros[i], 0);
	static const char *const reals[] = {"LocalUserCpu", "RemoteUserCpu",
					    "LocalSysCpu", "RemoteSysCpu",
					    "RemoteWallClockTime"};
	for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
		classad_insert_real(ad, reals[i], 0.0);
}

static void terminated(classad *ad, const struct ks_ulogread_event *ev,
		       int64_t when)
{
	set_status(ad, ST_COMPLETED, when);
	const classad_expr *host = classad_lookup(ad, "RemoteHost");
	if (host) {
		classad_insert(ad, "LastRemoteHost", classad_expr_ref(host));
		classad_delete(ad, "RemoteHost");
	}
	classad_insert_int(ad, "CompletionDate", when);
	const char *at = ev->text, *end = ev->text + ev->text_len, *line;
	size_t len;
	static const struct {
		const char *what, *usr, *sys;
	} usages[] = {
		{"Run Remote Usage", "LastRemoteUserCpu", "LastRemoteSysCpu"},
		{"Run Local Usage", "LastLocalUserCpu", "LastLocalSysCpu"},
		{"Total Remote Usage", "RemoteUserCpu", "RemoteSysCpu"},
		{"Total Local Usage", "LocalUserCpu", "LocalSysCpu"},
	};
	while (next_line(&at, end, &line, &len)) {
		int v;
		char buf[128];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 127 ? len : 127),
			 line);
		if (sscanf(buf, " (1) Normal termination (return value %d)",
			   &v) == 1) {
			classad_insert_bool(ad, "ExitBySignal", false);
			classad_insert_int(ad, "ExitCode", v);
		} else if (sscanf(buf, " (0) Abnormal termination (signal %d)",
				  &v) == 1) {
			classad_insert_bool(ad, "ExitBySignal", true);
			classad_insert_int(ad, "ExitSignal", v);
		}
		for (size_t i = 0; i < sizeof usages / sizeof usages[0]; i++) {
			double usr, sys;
			if (usage_line(line, len, usages[i].what, &usr, &sys)) {
				classad_insert_real(ad, usages[i].usr, usr);
				classad_insert_real(ad, usages[i].sys, sys);
			}
		}
	}
	int64_t started = 0;
	if (classad_eval_int(ad, "JobCurrentStartDate", NULL, &started)) {
		double wall = (double)(when - started);
		classad_insert_real(ad, "LastRemoteWallClockTime", wall);
		classad_insert_real(ad, "RemoteWallClockTime",
				    real_of(ad, "RemoteWallClockTime") + wall);
	}
}

/* A vacate (eviction, exception, failed reconnect): back to Idle. */
static void vacated(classad *ad, int64_t when, bool began, char *reason)
{
	set_status(ad, ST_IDLE, when);
	if (began)
		classad_insert_int(ad, "LastVacateTime", when);
	if (reason && *reason)
		classad_insert_string(ad, "LastVacateReason", reason);
	free(reason);
}

/* The evicted event's reason: its "Reason: " line, or the line after a
 * requeued job's termination. */
static char *eviction_reason(const struct ks_ulogread_event *ev)
{
	const char *at = ev->text, *end = ev->text + ev->text_len, *line;
	size_t len;
	next_line(&at, end, &line, &len);
	char *reason = NULL;
	while (next_line(&at, end, &line, &len)) {
		const char *r = memmem(line, len, "Reason: ", 8);
		if (r) {
			free(reason);
			r += 8;
			reason = ks_xstrndup(r, (size_t)(line + len - r));
		}
	}
	return reason;
}

static void held(classad *ad, const struct ks_ulogread_event *ev,
		 int64_t when)
{
	int64_t before = ST_IDLE;
	classad_eval_int(ad, "JobStatus", NULL, &before);
	set_status(ad, ST_HELD, when);
	char *reason = first_body_line(ev);
	if (before != ST_IDLE) {
		classad_insert_int(ad, "LastVacateTime", when);
		if (reason && *reason)
			classad_insert_string(ad, "LastVacateReason", reason);
	}
	if (reason)
		classad_insert_string(ad, "HoldReason", reason);
	free(reason);
	int code = 0, sub = 0;
	const char *c = memmem(ev->text, ev->text_len, "\tCode ", 6);
	if (c)
		sscanf(c, "\tCode %d Subcode %d", &code, &sub);
	classad_insert_int(ad, "HoldReasonCode", code);
	classad_insert_int(ad, "HoldReasonSubCode", sub);
	if (code != 1)
		count(ad, "NumSystemHolds");
}

static void image_size(classad *ad, const struct ks_ulogread_event *ev)
{
	long long v = 0;
	if (sscanf(ev->what, "Image size of job updated: %lld", &v) == 1)
		classad_insert_int(ad, "ImageSize", v);
	const char *at = ev->text, *end = ev->text + ev->text_len, *line;
	size_t len;
	while (next_line(&at, end, &line, &len)) {
		char buf[128];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 127 ? len : 127),
			 line);
		if (sscanf(buf, " %lld  -  ResidentSetSize of job (KB)", &v) == 1)
			classad_insert_int(ad, "ResidentSetSize", v);
		else if (sscanf(buf, " %lld  -  ProportionalSetSize of job (KB)",
				&v) == 1)
			classad_insert_int(ad, "ProportionalSetSize", v);
	}
}

/* The job ad information event's attributes, but those that describe
 * the event itself. */
static void ad_information(classad *ad, const struct ks_ulogread_event *ev)
{
	static const char *const own[] = {
		"MyType", "Cluster", "Proc", "Subproc", "EventTypeNumber",
		"EventTime", "TriggerEventTypeNumber", "TriggerEventTypeName"};
	const char *at = ev->text, *end = ev->text + ev->text_len, *line;
	size_t len;
	next_line(&at, end, &line, &len);
	while (next_line(&at, end, &line, &len)) {
		const char *eq = memchr(line, '=', len);
		if (!eq)
			continue;
		const char *ne = eq;
		while (ne > line && ne[-1] == ' ')
			ne--;
		char *name = ks_xstrndup(line, (size_t)(ne - line));
		bool skip = !*name;
		for (size_t i = 0; i < sizeof own / sizeof own[0] && !skip; i++)
			skip = strcasecmp(name, own[i]) == 0;
		const char *v = eq + 1;
		classad_expr *e = skip ? NULL
				       : classad_parse_expr_old(
						 v, (size_t)(line + len - v), NULL);
		if (e)
			classad_insert(ad, name, e);
		free(name);
	}
}

static void apply(struct ul_queue *q, const struct ks_ulogread_event *ev)
{
	int64_t when = event_time(ev->date);
	bool found;
	size_t at = find(q, ev->cluster, ev->proc, ev->subproc, &found);
	if (ev->type == EV_SUBMIT) {
		if (found) { /* submitted again: begins afresh */
			classad_free(q->v[at].ad);
			q->n--;
			memmove(&q->v[at], &q->v[at + 1],
				(q->n - at) * sizeof *q->v);
		}
		submitted(q, at, ev, when);
		return;
	}
	if (!found)
		return;
	classad *ad = q->v[at].ad;
	switch (ev->type) {
	case EV_EXECUTE: {
		set_status(ad, ST_RUNNING, when);
		classad_insert_int(ad, "JobCurrentStartDate", when);
		count(ad, "NumJobStarts");
		const char *host = ks_ulogread_execute_host(ev);
		classad_insert_string(ad, "StartdIpAddr", host);
		classad_insert_string(ad, "RemoteHost", host);
		break;
	}
	case EV_TERMINATED:
		terminated(ad, ev, when);
		break;
	case EV_SUSPENDED:
		set_status(ad, ST_SUSPENDED, when);
		classad_insert_int(ad, "LastSuspensionTime", when);
		count(ad, "TotalSuspensions");
		break;
	case EV_UNSUSPENDED:
		set_status(ad, ST_RUNNING, when);
		break;
	case EV_EVICTED:
		vacated(ad, when, true, eviction_reason(ev));
		break;
	case EV_SHADOW_EXCEPTION:
		/* the text does not say whether the job had begun, and
		 * HTCondor's reader takes it that it had not */
		vacated(ad, when, false, first_body_line(ev));
		break;
	case EV_RECONNECT_FAILED:
		vacated(ad, when, true, first_body_line(ev));
		break;
	case EV_HELD:
		held(ad, ev, when);
		break;
	case EV_RELEASED:
		set_status_why(ad, ST_IDLE, when, ev, "ReleaseReason");
		break;
	case EV_ABORTED:
		set_status_why(ad, ST_REMOVED, when, ev, "RemoveReason");
		break;
	case EV_IMAGE_SIZE:
		image_size(ad, ev);
		break;
	case EV_JOB_AD_INFO:
		ad_information(ad, ev);
		break;
	default:
		break;
	}
}

int qt_userlog_each(FILE *f, const char *path,
		    int (*each)(classad *ad, void *arg), void *arg, FILE *err)
{
	struct ul_queue q = {.path = path};
	struct passwd *pw = getpwuid(getuid());
	if (pw)
		q.owner = ks_xstrdup(pw->pw_name);
	ks_ulogread *r = ks_ulogread_new();
	char buf[65536];
	size_t got;
	int rc = 0;
	struct ks_err e = {0};
	while (rc == 0 && (got = fread(buf, 1, sizeof buf, f)) > 0) {
		if (ks_ulogread_feed(r, buf, got, &e)) {
			fprintf(err, "Error: %s: %s\n", path, e.msg);
			rc = 1;
			break;
		}
		struct ks_ulogread_event ev;
		int n;
		/* as HTCondor's reader, a line that is not an event header
		 * is passed over */
		while ((n = ks_ulogread_next(r, &ev, &e)) != 0)
			if (n == 1 && ev.cluster >= 0)
				apply(&q, &ev);
	}
	if (rc == 0 && ferror(f)) {
		fprintf(err, "\nCan't open user log: %s\n", path);
		rc = 1;
	}
	ks_ulogread_free(r);
	size_t i = 0;
	for (; rc == 0 && i < q.n; i++) {
		classad *ad = q.v[i].ad;
		q.v[i].ad = NULL;
		if (each(ad, arg) != 0)
			rc = 1;
	}
	for (; i < q.n; i++)
		classad_free(q.v[i].ad);
	free(q.v);
	free(q.owner);
	return rc;
}
