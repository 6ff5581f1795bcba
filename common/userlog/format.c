/*
 * format.c: one job event as HTCondor's text.
 *
 * Every line written here is one that HTCondor's readers (read_user_log
 * and the event classes behind condor_wait, DAGMan and
 * htcondor.JobEventLog) scan with fixed patterns, so spacing, tabs and
 * wording follow HTCondor's writers byte for byte; docs/userlog.md shows
 * each event.  Pure: no I/O, no global state (time zone aside).
 */
#include "ks_userlog.h"
#include "userlog_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_mem.h"

/* HTCondor prints notes with "%.8191s", warnings after a prefix with
 * "%.8110s", and keeps a generic event's text in 1024 bytes. */
#define NOTES_MAX 8191
#define WARNINGS_MAX 8110
#define INFO_MAX 1023

static const char *const xfer_text[] = {
	NULL,
	"Entered queue to transfer input files",
	"Started transferring input files",
	"Finished transferring input files",
	"Entered queue to transfer output files",
	"Started transferring output files",
	"Finished transferring output files",
};

/* ---- helpers shared with ad.c ----------------------------------------- */

void ul_add_text(struct classad_buf *b, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;
	if (n == 0)
		return;
	classad_buf_reserve(b, n);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n')
			c = '|';
		else if (c == '\r')
			c = ' ';
		b->data[b->len++] = c;
	}
	b->data[b->len] = '\0';
}

void ul_add_cpu(struct classad_buf *b, const struct ks_userlog_cpu *c)
{
	int64_t u = c->user_secs > 0 ? c->user_secs : 0;
	int64_t s = c->sys_secs > 0 ? c->sys_secs : 0;
	classad_buf_printf(b,
			   "Usr %lld %02lld:%02lld:%02lld, "
			   "Sys %lld %02lld:%02lld:%02lld",
			   (long long)(u / 86400), (long long)(u % 86400 / 3600),
			   (long long)(u % 3600 / 60), (long long)(u % 60),
			   (long long)(s / 86400), (long long)(s % 86400 / 3600),
			   (long long)(s % 3600 / 60), (long long)(s % 60));
}

static bool to_tm(int64_t t, bool utc, struct tm *tm)
{
	time_t tt = (time_t)t;
	if ((int64_t)tt != t)
		return false;
	return utc ? gmtime_r(&tt, tm) != NULL : localtime_r(&tt, tm) != NULL;
}

void ul_iso_time(char *buf, size_t size, int64_t t, long usec, bool utc)
{
	struct tm tm;
	if (!to_tm(t, utc, &tm)) {
		snprintf(buf, size, "%s", "");
		return;
	}
	int n = snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (n < 0 || (size_t)n >= size)
		return;
	if (usec > 0)
		n += snprintf(buf + n, size - (size_t)n, ".%03ld",
			      usec / 1000 % 1000);
	if (utc && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "Z");
}

static int cmp_flatmap(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcasecmp(a, b);
}

static int cmp_nocase(const void *pa, const void *pb)
{
	const struct ul_attr *a = pa, *b = pb;
	return strcasecmp(a->name, b->name);
}

/* A merge sort, because qsort() takes no context argument and the order
 * must not live in a global (threads may format at once). */
static void sort_attrs(struct ul_attr *v, struct ul_attr *tmp, size_t n,
		       int (*cmp)(const struct ul_attr *, const struct ul_attr *))
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_attrs(v, tmp, h, cmp);
	sort_attrs(v + h, tmp, n - h, cmp);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static int by_bytes(const struct ul_attr *a, const struct ul_attr *b)
{
	return strcmp(a->name, b->name);
}

static int by_nocase(const struct ul_attr *a, const struct ul_attr *b)
{
	return strcasecmp(a->name, b->name);
}

static int by_flatmap(const struct ul_attr *a, const struct ul_attr *b)
{
	return cmp_flatmap(a->name, b->name);
}

struct ul_attr *ul_attrs_sorted(const classad *ad, bool with_parent,
				enum ul_order order, size_t *n)
{
	*n = 0;
	if (!ad)
		return NULL;
	const classad *parent = with_parent ? classad_chained_parent(ad) : NULL;
	size_t own = classad_size(ad);
	size_t cap = own + (parent ? classad_size(parent) : 0);
	if (cap == 0)
		return NULL;
	struct ul_attr *v = ks_xcalloc(cap, sizeof(*v));
	size_t pos = 0, k = 0;
	const char *name;
	const classad_expr *e;
	while (k < cap && classad_next(ad, &pos, &name, &e))
		v[k++] = (struct ul_attr){name, e};
	size_t nown = k;
	if (parent) {
		/* The child's names, sorted, to skip what it overrides. */
		struct ul_attr *mine = ks_xcalloc(nown ? nown : 1, sizeof(*mine));
		memcpy(mine, v, nown * sizeof(*mine));
		qsort(mine, nown, sizeof(*mine), cmp_nocase);
		pos = 0;
		while (k < cap && classad_next(parent, &pos, &name, &e)) {
			struct ul_attr key = {name, NULL};
			if (nown && bsearch(&key, mine, nown, sizeof(*mine),
					    cmp_nocase))
				continue;
			v[k++] = (struct ul_attr){name, e};
		}
		free(mine);
	}
	struct ul_attr *tmp = ks_xcalloc(k ? k : 1, sizeof(*tmp));
	sort_attrs(v, tmp, k,
		   order == UL_ORDER_BYTES    ? by_bytes
		   : order == UL_ORDER_NOCASE ? by_nocase
					      : by_flatmap);
	free(tmp);
	*n = k;
	if (k == 0) {
		free(v);
		return NULL;
	}
	return v;
}

/* Appends an expression in old ClassAd syntax, as HTCondor's "Name =
 * value" lines show it, newlines made harmless. */
static void add_old_expr(struct classad_buf *b, const classad_expr *e)
{
	struct classad_buf t = {0};
	classad_expr_unparse_buf(&t, e, true);
	ul_add_text(b, t.data ? t.data : "", t.len);
	free(t.data);
}

static bool is_private(const char *name)
{
	static const char *const names[] = {
		"Capability", "ChildClaimIds", "ClaimId",
		"ClaimIdList", "ClaimIds",     "TransferKey",
	};
	if (strncasecmp(name, "_condor_priv", 12) == 0)
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i]) == 0)
			return true;
	return false;
}

static bool empty(const char *s)
{
	return !s || !*s;
}

/* ---- the resource table of events 004 and 005 ----------------------- */

struct res_row {
	char *name; /* the first spelling met */
	char *use, *req, *alloc, *assigned;
};

struct res_table {
	struct res_row *rows;
	size_t n, cap;
};

static struct res_row *res_row(struct res_table *t, const char *name,
			       size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->rows[i].name) == len &&
		    strncasecmp(t->rows[i].name, name, len) == 0)
			return &t->rows[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->rows = ks_xrealloc(t->rows, t->cap * sizeof(*t->rows));
	}
	struct res_row *r = &t->rows[t->n++];
	*r = (struct res_row){.name = ks_xstrndup(name, len)};
	return r;
}

static void set_cell(char **cell, const char *value)
{
	free(*cell);
	*cell = ks_xstrdup(value);
}

static bool bare_integer(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void pad_fraction(char **cell)
{
	size_t n = strlen(*cell);
	*cell = ks_xrealloc(*cell, n + 4);
	memcpy(*cell + n, "   ", 4);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct res_row *a = pa, *b = pb;
	return strcasecmp(a->name, b->name);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static int cell_width(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	return n > 100000 ? 100000 : (int)n;
}

/* The text of one value of the usage ad: reals as HTCondor shows them
 * (two decimals only when there is a fraction), anything else unparsed
 * in old syntax.  *frac says whether a fraction was shown. */
static char *usage_value(const classad_expr *e, bool *frac)
{
	classad_value v = CLASSAD_VALUE_INIT;
	*frac = false;
	char buf[64];
	if (classad_expr_is_literal(e, &v) && v.type == CLASSAD_REAL &&
	    isfinite(v.u.r) && fabs(v.u.r) < 9e18) {
		double ip;
		double fp = modf(v.u.r, &ip);
		if (fp > 0.0) {
			snprintf(buf, sizeof(buf), "%.2f", v.u.r);
			*frac = true;
		} else {
			snprintf(buf, sizeof(buf), "%lld", (long long)ip);
		}
		classad_value_clear(&v);
		return ks_xstrdup(buf);
	}
	classad_value_clear(&v);
	struct classad_buf t = {0};
	add_old_expr(&t, e);
	return t.data ? t.data : ks_xstrdup("");
}

static bool starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool ends_with(const char *s, const char *p)
{
	size_t n = strlen(s), m = strlen(p);
	return n >= m && strcmp(s + n - m, p) == 0;
}

static void add_usage_table(struct classad_buf *b, const classad *usage)
{
	size_t n;
	struct ul_attr *attrs = ul_attrs_sorted(usage, false, UL_ORDER_FLATMAP,
						&n);
	struct res_table t = {0};
	bool req_frac = false, assigned_frac = false, alloc_frac = false,
	     use_frac = false;
	for (size_t i = 0; i < n; i++) {
		const char *name = attrs[i].name;
		size_t len = strlen(name);
		bool frac;
		char *value = usage_value(attrs[i].e, &frac);
		struct res_row *r;
		size_t res_len;
		if (starts_with(name, "Request")) {
			res_len = len - 7;
			r = res_row(&t, name + 7, res_len);
			set_cell(&r->req, value);
			req_frac |= frac;
		} else if (starts_with(name, "Assigned")) {
			res_len = len - 8;
			r = res_row(&t, name + 8, res_len);
			set_cell(&r->assigned, value);
			/* HTCondor keeps only the last Assigned's flag. */
			assigned_frac = frac;
		} else if (ends_with(name, "AverageUsage")) {
			res_len = len - 12;
			r = res_row(&t, name, res_len);
			set_cell(&r->use, value);
			use_frac |= frac;
		} else if (ends_with(name, "Usage")) {
			res_len = len - 5;
			r = res_row(&t, name, res_len);
			set_cell(&r->use, value);
			use_frac |= frac;
		} else {
			res_len = len;
			r = res_row(&t, name, res_len);
			set_cell(&r->alloc, value);
			alloc_frac |= frac;
		}
		/* A bare "Usage" or "Request" names no resource: HTCondor
		 * shows it as a line of its own, before the table. */
		if (res_len == 0) {
			classad_buf_add(b, "\t", 1);
			classad_buf_add(b, name, len);
			classad_buf_printf(b, " = %s\n", value);
		}
		free(value);
	}
	free(attrs);
	if (t.n == 0)
		return;

	qsort(t.rows, t.n, sizeof(*t.rows), cmp_row);
	int w_res = (int)sizeof("Memory (MB)"), w_use = 8, w_req = 8,
	    w_alloc = 0, w_assigned = 0;
	for (size_t i = 0; i < t.n; i++) {
		struct res_row *r = &t.rows[i];
		if (!r->alloc) {
			const classad_expr *e = classad_lookup(usage, r->name);
			if (e) {
				struct classad_buf u = {0};
				add_old_expr(&u, e);
				r->alloc = u.data ? u.data : ks_xstrdup("");
			}
		}
		if (use_frac && bare_integer(r->use))
			pad_fraction(&r->use);
		if (req_frac && bare_integer(r->req))
			pad_fraction(&r->req);
		if (alloc_frac && bare_integer(r->alloc))
			pad_fraction(&r->alloc);
		if (assigned_frac && bare_integer(r->assigned))
			pad_fraction(&r->assigned);
		w_res = max_int(w_res, cell_width(r->name));
		w_use = max_int(w_use, cell_width(r->use));
		w_req = max_int(w_req, cell_width(r->req));
		w_alloc = max_int(w_alloc, cell_width(r->alloc));
		w_assigned = max_int(w_assigned, cell_width(r->assigned));
	}
	int w_alloc_col = max_int(w_alloc, 9);
	classad_buf_printf(b, "\tPartitionable Resources : %*s %*s %*s %s\n",
			   w_use, "Usage", w_req, "Request", w_alloc_col,
			   w_alloc ? "Allocated" : "",
			   w_assigned ? "Assigned" : "");
	for (size_t i = 0; i < t.n; i++) {
		struct res_row *r = &t.rows[i];
		if (r->name[0]) {
			static const struct {
				const char *res, *unit;
			} units[] = {
				{"Memory", " (MB)"},       {"Disk", " (KB)"},
				{"Gpus", " (Average)"},    {"GpusMemory", " (MB)"},
				{"TimeExecute", " (s)"},   {"TimeSlotBusy", " (s)"},
			};
			const char *unit = "";
			for (size_t u = 0; u < sizeof(units) / sizeof(units[0]);
			     u++)
				if (strcmp(r->name, units[u].res) == 0)
					unit = units[u].unit;
			struct classad_buf label = {0};
			ul_add_text(&label, r->name, SIZE_MAX);
			classad_buf_printf(&label, "%s", unit);
			classad_buf_printf(b, "\t   %-*s : %*s %*s %*s %s\n",
					   w_res + 8, label.data, w_use,
					   r->use ? r->use : "", w_req,
					   r->req ? r->req : "", w_alloc_col,
					   r->alloc ? r->alloc : "",
					   r->assigned ? r->assigned : "");
			free(label.data);
		}
		free(r->name);
		free(r->use);
		free(r->req);
		free(r->alloc);
		free(r->assigned);
	}
	free(t.rows);
}

/* ---- the events -------------------------------------------------------- */

static double finite_or_zero(double d)
{
	return isfinite(d) ? d : 0.0;
}

static void add_cpu_line(struct classad_buf *b, const struct ks_userlog_cpu *c,
			 const char *what)
{
	classad_buf_add(b, "\t\t", 2);
	ul_add_cpu(b, c);
	classad_buf_printf(b, "  -  %s\n", what);
}

static void add_bytes_line(struct classad_buf *b, double v, const char *what)
{
	classad_buf_printf(b, "\t%.0f  -  %s\n", finite_or_zero(v), what);
}

static void add_line(struct classad_buf *b, const char *prefix, const char *s,
		     size_t max)
{
	classad_buf_printf(b, "%s", prefix);
	ul_add_text(b, s, max);
	classad_buf_add(b, "\n", 1);
}

/* "[ a = 1; b = "x" ]" as HTCondor unparses an ad: new syntax, in the ad's
 * own (length, then name) order. */
static void add_notes_ad(struct classad_buf *b, const classad *ad)
{
	size_t n;
	struct ul_attr *v = ul_attrs_sorted(ad, false, UL_ORDER_FLATMAP, &n);
	struct classad_buf t = {0};
	classad_buf_add(&t, "[ ", 2);
	for (size_t i = 0; i < n; i++) {
		if (i)
			classad_buf_add(&t, "; ", 2);
		classad_buf_printf(&t, "%s = ", v[i].name);
		classad_expr_unparse_buf(&t, v[i].e, false);
	}
	classad_buf_add(&t, " ]", 2);
	add_line(b, "    ", t.data, SIZE_MAX);
	free(t.data);
	free(v);
}

static void add_submit_notes(struct classad_buf *b,
			     const struct ks_userlog_event *ev)
{
	if (ev->structured_notes && classad_size(ev->structured_notes) > 0)
		add_notes_ad(b, ev->structured_notes);
	else if (!empty(ev->notes))
		add_line(b, "    ", ev->notes, NOTES_MAX);
	if (!empty(ev->user_notes))
		add_line(b, "    ", ev->user_notes, NOTES_MAX);
}

static void add_termination(struct classad_buf *b,
			    const struct ks_userlog_event *ev)
{
	if (ev->normal) {
		classad_buf_printf(b,
				   "\t(1) Normal termination (return value %d)\n",
				   ev->return_value);
		return;
	}
	classad_buf_printf(b, "\t(0) Abnormal termination (signal %d)\n",
			   ev->signal);
	if (!empty(ev->core_file))
		add_line(b, "\t(1) Corefile in: ", ev->core_file, SIZE_MAX);
	else
		classad_buf_printf(b, "\t(0) No core file\n");
}

static int need(const char *s, const char *what, int type, struct ks_err *err)
{
	if (!empty(s))
		return 0;
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "job event %03d needs %s; fill it in before writing "
			  "the event",
			  type, what);
}

static int format_body(struct classad_buf *b, const struct ks_userlog_event *ev,
		       struct ks_err *err)
{
	int rc;
	switch (ev->type) {
	case KS_USERLOG_SUBMIT:
		add_line(b, "Job submitted from host: ", ev->submit_host,
			 SIZE_MAX);
		add_submit_notes(b, ev);
		if (!empty(ev->warnings))
			add_line(b,
				 "    WARNING: Committed job submission into "
				 "the queue with the following warning(s): ",
				 ev->warnings, WARNINGS_MAX);
		return 0;

	case KS_USERLOG_EXECUTE: {
		add_line(b, "Job executing on host: ", ev->execute_host,
			 SIZE_MAX);
		if (!empty(ev->slot_name))
			add_line(b, "\tSlotName: ", ev->slot_name, SIZE_MAX);
		size_t n;
		struct ul_attr *v = ul_attrs_sorted(ev->execute_props, true,
						    UL_ORDER_NOCASE, &n);
		for (size_t i = 0; i < n; i++) {
			classad_buf_printf(b, "\t%s = ", v[i].name);
			add_old_expr(b, v[i].e);
			classad_buf_add(b, "\n", 1);
		}
		free(v);
		return 0;
	}

	case KS_USERLOG_EVICTED:
		if (ev->code != 0)
			classad_buf_printf(b,
					   "Job was evicted. Code %d Subcode %d\n",
					   ev->code, ev->subcode);
		else
			classad_buf_printf(b, "Job was evicted.\n");
		if (ev->requeued)
			classad_buf_printf(b, "\t(0) Job terminated and was "
					      "requeued\n");
		else if (ev->checkpointed)
			classad_buf_printf(b, "\t(1) Job was checkpointed.\n");
		else
			classad_buf_printf(b, "\t(0) CPU times\n");
		add_cpu_line(b, &ev->run_remote, "Run Remote Usage");
		add_cpu_line(b, &ev->run_local, "Run Local Usage");
		add_bytes_line(b, ev->sent_bytes, "Run Bytes Sent By Job");
		add_bytes_line(b, ev->recvd_bytes, "Run Bytes Received By Job");
		if (ev->requeued)
			add_termination(b, ev);
		if (!empty(ev->reason))
			add_line(b, ev->requeued ? "\t" : "\tReason: ",
				 ev->reason, SIZE_MAX);
		if (ev->usage)
			add_usage_table(b, ev->usage);
		return 0;

	case KS_USERLOG_TERMINATED:
		classad_buf_printf(b, "Job terminated.\n");
		add_termination(b, ev);
		add_cpu_line(b, &ev->run_remote, "Run Remote Usage");
		add_cpu_line(b, &ev->run_local, "Run Local Usage");
		add_cpu_line(b, &ev->total_remote, "Total Remote Usage");
		add_cpu_line(b, &ev->total_local, "Total Local Usage");
		add_bytes_line(b, ev->sent_bytes, "Run Bytes Sent By Job");
		add_bytes_line(b, ev->recvd_bytes, "Run Bytes Received By Job");
		add_bytes_line(b, ev->total_sent_bytes,
			       "Total Bytes Sent By Job");
		add_bytes_line(b, ev->total_recvd_bytes,
			       "Total Bytes Received By Job");
		if (ev->usage)
			add_usage_table(b, ev->usage);
		return 0;

	case KS_USERLOG_IMAGE_SIZE:
		classad_buf_printf(b, "Image size of job updated: %lld\n",
				   (long long)ev->image_size_kb);
		if (ev->memory_usage_mb >= 0)
			classad_buf_printf(b,
					   "\t%lld  -  MemoryUsage of job (MB)\n",
					   (long long)ev->memory_usage_mb);
		if (ev->rss_kb >= 0)
			classad_buf_printf(
				b, "\t%lld  -  ResidentSetSize of job (KB)\n",
				(long long)ev->rss_kb);
		if (ev->pss_kb >= 0)
			classad_buf_printf(
				b, "\t%lld  -  ProportionalSetSize of job (KB)\n",
				(long long)ev->pss_kb);
		return 0;

	case KS_USERLOG_SHADOW_EXCEPTION:
		add_line(b, "Shadow exception!\n\t", ev->reason, SIZE_MAX);
		add_bytes_line(b, ev->sent_bytes, "Run Bytes Sent By Job");
		add_bytes_line(b, ev->recvd_bytes, "Run Bytes Received By Job");
		return 0;

	case KS_USERLOG_GENERIC:
		add_line(b, "", ev->info, INFO_MAX);
		return 0;

	case KS_USERLOG_ABORTED:
		classad_buf_printf(b, "Job was aborted.\n");
		if (!empty(ev->reason))
			add_line(b, "\t", ev->reason, SIZE_MAX);
		return 0;

	case KS_USERLOG_SUSPENDED:
		classad_buf_printf(b,
				   "Job was suspended.\n\tNumber of processes "
				   "actually suspended: %d\n",
				   ev->num_pids);
		return 0;

	case KS_USERLOG_UNSUSPENDED:
		classad_buf_printf(b, "Job was unsuspended.\n");
		return 0;

	case KS_USERLOG_HELD:
		classad_buf_printf(b, "Job was held.\n");
		if (!empty(ev->reason))
			add_line(b, "\t", ev->reason, SIZE_MAX);
		else
			classad_buf_printf(b, "\tReason unspecified\n");
		classad_buf_printf(b, "\tCode %d Subcode %d\n", ev->code,
				   ev->subcode);
		return 0;

	case KS_USERLOG_RELEASED:
		classad_buf_printf(b, "Job was released.\n");
		if (!empty(ev->reason))
			add_line(b, "\t", ev->reason, SIZE_MAX);
		return 0;

	case KS_USERLOG_DISCONNECTED:
		if ((rc = need(ev->reason, "a disconnect reason", ev->type,
			       err)) ||
		    (rc = need(ev->startd_addr, "the startd's address",
			       ev->type, err)) ||
		    (rc = need(ev->startd_name, "the startd's name", ev->type,
			       err)))
			return rc;
		classad_buf_printf(b,
				   "Job disconnected, attempting to reconnect\n");
		add_line(b, "    ", ev->reason, NOTES_MAX);
		classad_buf_printf(b, "    Trying to reconnect to ");
		ul_add_text(b, ev->startd_name, SIZE_MAX);
		classad_buf_add(b, " ", 1);
		add_line(b, "", ev->startd_addr, SIZE_MAX);
		return 0;

	case KS_USERLOG_RECONNECTED:
		if ((rc = need(ev->startd_addr, "the startd's address",
			       ev->type, err)) ||
		    (rc = need(ev->startd_name, "the startd's name", ev->type,
			       err)) ||
		    (rc = need(ev->starter_addr, "the starter's address",
			       ev->type, err)))
			return rc;
		add_line(b, "Job reconnected to ", ev->startd_name, SIZE_MAX);
		add_line(b, "    startd address: ", ev->startd_addr, SIZE_MAX);
		add_line(b, "    starter address: ", ev->starter_addr,
			 SIZE_MAX);
		return 0;

	case KS_USERLOG_RECONNECT_FAILED:
		if ((rc = need(ev->reason, "a reason", ev->type, err)) ||
		    (rc = need(ev->startd_name, "the startd's name", ev->type,
			       err)))
			return rc;
		classad_buf_printf(b, "Job reconnection failed\n");
		add_line(b, "    ", ev->reason, NOTES_MAX);
		classad_buf_printf(b, "    Can not reconnect to ");
		ul_add_text(b, ev->startd_name, SIZE_MAX);
		classad_buf_printf(b, ", rescheduling job\n");
		return 0;

	case KS_USERLOG_JOB_AD_INFO: {
		classad_buf_printf(b, "Job ad information event triggered.\n");
		size_t n, shown = 0;
		struct ul_attr *v = ul_attrs_sorted(ev->info_ad, true,
						    UL_ORDER_BYTES, &n);
		for (size_t i = 0; i < n; i++) {
			if (is_private(v[i].name))
				continue;
			classad_buf_printf(b, "%s = ", v[i].name);
			add_old_expr(b, v[i].e);
			classad_buf_add(b, "\n", 1);
			shown++;
		}
		free(v);
		if (shown == 0)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "job event 028 needs an ad with at "
					  "least one attribute (readers reject "
					  "an empty one)");
		return 0;
	}

	case KS_USERLOG_ATTRIBUTE_UPDATE:
		if ((rc = need(ev->attr_name, "the attribute's name", ev->type,
			       err)) ||
		    (rc = need(ev->attr_value, "the attribute's value",
			       ev->type, err)))
			return rc;
		if (ev->attr_old_value) {
			classad_buf_printf(b, "Changing job attribute ");
			ul_add_text(b, ev->attr_name, SIZE_MAX);
			classad_buf_printf(b, " from ");
			ul_add_text(b, ev->attr_old_value, SIZE_MAX);
			classad_buf_printf(b, " to ");
		} else {
			classad_buf_printf(b, "Setting job attribute ");
			ul_add_text(b, ev->attr_name, SIZE_MAX);
			classad_buf_printf(b, " to ");
		}
		add_line(b, "", ev->attr_value, SIZE_MAX);
		return 0;

	case KS_USERLOG_CLUSTER_SUBMIT:
		add_line(b, "Cluster submitted from host: ", ev->submit_host,
			 SIZE_MAX);
		add_submit_notes(b, ev);
		return 0;

	case KS_USERLOG_CLUSTER_REMOVE:
		/* No newline after "items.": HTCondor puts the completion on
		 * the same line, after a tab. */
		classad_buf_printf(b,
				   "Cluster removed\n\tMaterialized %d jobs "
				   "from %d items.",
				   ev->next_proc_id, ev->next_row);
		if (ev->completion <= KS_USERLOG_CLUSTER_ERROR)
			classad_buf_printf(b, "\tError %d\n", ev->completion);
		else if (ev->completion == KS_USERLOG_CLUSTER_COMPLETE)
			classad_buf_printf(b, "\tComplete\n");
		else if (ev->completion >= KS_USERLOG_CLUSTER_PAUSED)
			classad_buf_printf(b, "\tPaused\n");
		else
			classad_buf_printf(b, "\tIncomplete\n");
		if (!empty(ev->notes))
			add_line(b, "\t", ev->notes, SIZE_MAX);
		return 0;

	case KS_USERLOG_FILE_TRANSFER:
		if ((int)ev->xfer < KS_USERLOG_XFER_IN_QUEUED ||
		    (int)ev->xfer > KS_USERLOG_XFER_OUT_FINISHED)
			return ks_err_set(err, KS_EINVAL, 0, 0, 0,
					  "job event 040 has no transfer kind "
					  "(%d); set xfer to one of "
					  "KS_USERLOG_XFER_*",
					  (int)ev->xfer);
		classad_buf_printf(b, "%s\n", xfer_text[ev->xfer]);
		if (ev->queueing_delay >= 0)
			classad_buf_printf(b, "\tSeconds spent in queue: %lld\n",
					   (long long)ev->queueing_delay);
		if (!empty(ev->xfer_host))
			add_line(b, "\tTransferring to host: ", ev->xfer_host,
				 SIZE_MAX);
		return 0;
	}
	return ks_err_set(err, KS_EINVAL, 0, 0, 0,
			  "unknown job event type %d; kestrel writes the "
			  "KS_USERLOG_* events only",
			  (int)ev->type);
}

static int format_header(struct classad_buf *b,
			 const struct ks_userlog_event *ev, unsigned opts,
			 struct ks_err *err)
{
	bool utc = opts & KS_USERLOG_UTC;
	struct tm tm;
	if (!to_tm(ev->time, utc, &tm))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "job event time %lld cannot be shown as a "
				  "date",
				  (long long)ev->time);
	classad_buf_printf(b, "%03d (%03d.%03d.%03d) ", (int)ev->type,
			   ev->cluster, ev->proc, ev->subproc);
	if (opts & KS_USERLOG_ISO_DATE)
		classad_buf_printf(b, "%04d-%02d-%02d %02d:%02d:%02d",
				   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
				   tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		classad_buf_printf(b, "%02d/%02d %02d:%02d:%02d", tm.tm_mon + 1,
				   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (opts & KS_USERLOG_SUB_SECOND) {
		long ms = ev->usec > 0 ? ev->usec / 1000 % 1000 : 0;
		classad_buf_printf(b, ".%03ld", ms);
	}
	if (utc)
		classad_buf_add(b, "Z", 1);
	classad_buf_add(b, " ", 1);
	return 0;
}

int ks_userlog_format(const struct ks_userlog_event *ev, unsigned opts,
		      char **out, size_t *len, struct ks_err *err)
{
	*out = NULL;
	if (len)
		*len = 0;
	if (!ev)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0, "no job event");
	struct classad_buf b = {0};
	int rc = format_header(&b, ev, opts, err);
	if (rc == 0)
		rc = format_body(&b, ev, err);
	if (rc != 0) {
		free(b.data);
		return rc;
	}
	classad_buf_add(&b, "...\n", 4);
	*out = b.data;
	if (len)
		*len = b.len;
	return 0;
}

/* ---- names --------------------------------------------------------- */

static const struct {
	int type;
	const char *my_type;
	const char *number_name;
} names[] = {
	{KS_USERLOG_SUBMIT, "SubmitEvent", "ULOG_SUBMIT"},
	{KS_USERLOG_EXECUTE, "ExecuteEvent", "ULOG_EXECUTE"},
	{KS_USERLOG_EVICTED, "JobEvictedEvent", "ULOG_JOB_EVICTED"},
	{KS_USERLOG_TERMINATED, "JobTerminatedEvent", "ULOG_JOB_TERMINATED"},
	{KS_USERLOG_IMAGE_SIZE, "JobImageSizeEvent", "ULOG_IMAGE_SIZE"},
	{KS_USERLOG_SHADOW_EXCEPTION, "ShadowExceptionEvent",
	 "ULOG_SHADOW_EXCEPTION"},
	{KS_USERLOG_GENERIC, "GenericEvent", "ULOG_GENERIC"},
	{KS_USERLOG_ABORTED, "JobAbortedEvent", "ULOG_JOB_ABORTED"},
	{KS_USERLOG_SUSPENDED, "JobSuspendedEvent", "ULOG_JOB_SUSPENDED"},
	{KS_USERLOG_UNSUSPENDED, "JobUnsuspendedEvent",
	 "ULOG_JOB_UNSUSPENDED"},
	{KS_USERLOG_HELD, "JobHeldEvent", "ULOG_JOB_HELD"},
	/* sic: HTCondor's MyType for 013 lacks the "d". */
	{KS_USERLOG_RELEASED, "JobReleaseEvent", "ULOG_JOB_RELEASED"},
	{KS_USERLOG_DISCONNECTED, "JobDisconnectedEvent",
	 "ULOG_JOB_DISCONNECTED"},
	{KS_USERLOG_RECONNECTED, "JobReconnectedEvent",
	 "ULOG_JOB_RECONNECTED"},
	{KS_USERLOG_RECONNECT_FAILED, "JobReconnectFailedEvent",
	 "ULOG_JOB_RECONNECT_FAILED"},
	{KS_USERLOG_JOB_AD_INFO, "JobAdInformationEvent",
	 "ULOG_JOB_AD_INFORMATION"},
	{KS_USERLOG_ATTRIBUTE_UPDATE, "AttributeUpdateEvent",
	 "ULOG_ATTRIBUTE_UPDATE"},
	{KS_USERLOG_CLUSTER_SUBMIT, "ClusterSubmitEvent",
	 "ULOG_CLUSTER_SUBMIT"},
	{KS_USERLOG_CLUSTER_REMOVE, "ClusterRemoveEvent",
	 "ULOG_CLUSTER_REMOVE"},
	{KS_USERLOG_FILE_TRANSFER, "FileTransferEvent", "ULOG_FILE_TRANSFER"},
};

const char *ul_my_type(int type)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].my_type;
	return NULL;
}

const char *ul_number_name(int type)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].number_name;
	return NULL;
}
