/*
 * wq_track.c: what condor_watch_q knows of its jobs.  Each event of a
 * followed log moves its job to a state (HTCondor's tool's table of
 * event types; a 040 file transfer event by its text); clusters keep a
 * state per proc, and the rows of the table group and count them.
 * Clusters are few next to events, so they sit in an array sorted by
 * id; a cluster's procs in an array indexed by proc id.
 */
#define _GNU_SOURCE /* strcasestr */
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "wq.h"

/* Event numbers of the job event log. */
enum {
	EV_SUBMIT = 0, EV_EXECUTE = 1, EV_EVICTED = 4, EV_TERMINATED = 5,
	EV_SHADOW_EXCEPTION = 7, EV_ABORTED = 9, EV_SUSPENDED = 10,
	EV_UNSUSPENDED = 11, EV_HELD = 12, EV_RELEASED = 13,
	EV_RECONNECT_FAILED = 24, EV_FILE_TRANSFER = 40,
};

/* A proc id past this is not a job any writer makes; refusing it keeps
 * a corrupt log from making the per-proc array huge. */
#define MAX_PROC (1 << 24)

static const char *const state_names[WQ_NSTATES] = {
	"REMOVED", "HELD", "SUSPENDED", "IDLE", "INPUT", "RUN", "OUTPUT",
	"DONE",
};

const char *wq_state_name(enum wq_state s)
{
	return (unsigned)s < WQ_NSTATES ? state_names[s] : "?";
}

static bool exited(enum wq_state s)
{
	return s == WQ_REMOVED || s == WQ_DONE;
}

enum wq_state wq_event_state(int type, const char *what)
{
	switch (type) {
	case EV_SUBMIT:
	case EV_EVICTED:
	case EV_UNSUSPENDED:
	case EV_RELEASED:
	case EV_SHADOW_EXCEPTION:
	case EV_RECONNECT_FAILED:
		return WQ_IDLE;
	case EV_TERMINATED: return WQ_DONE;
	case EV_EXECUTE: return WQ_RUN;
	case EV_HELD: return WQ_HELD;
	case EV_SUSPENDED: return WQ_SUSPENDED;
	case EV_ABORTED: return WQ_REMOVED;
	case EV_FILE_TRANSFER:
		/* only the start of a transfer says anything; its end is
		 * followed by the execute or terminate event */
		if (what && strcasestr(what, "started")) {
			if (strcasestr(what, "input"))
				return WQ_INPUT;
			if (strcasestr(what, "output"))
				return WQ_OUTPUT;
		}
		return WQ_UNSEEN;
	default:
		return WQ_UNSEEN;
	}
}

/* Index of the first entry >= id in a sorted array of n records of
 * size sz whose first member is an int id. */
static size_t lower_bound(const void *base, size_t n, size_t sz, int id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int v;
		memcpy(&v, (const char *)base + mid * sz, sizeof v);
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct wq_known *known_of(const struct wq_track *t, int id)
{
	size_t i = lower_bound(t->known, t->nknown, sizeof *t->known, id);
	return i < t->nknown && t->known[i].id == id ? &t->known[i] : NULL;
}

void wq_track_know(struct wq_track *t, int id, const char *batch,
		   long nprocs)
{
	size_t i = lower_bound(t->known, t->nknown, sizeof *t->known, id);
	if (i < t->nknown && t->known[i].id == id) {
		free(t->known[i].batch);
	} else {
		t->known = ks_xrealloc(t->known,
				       (t->nknown + 1) * sizeof *t->known);
		memmove(&t->known[i + 1], &t->known[i],
			(t->nknown - i) * sizeof *t->known);
		t->nknown++;
	}
	t->known[i] = (struct wq_known){
		.id = id, .batch = batch ? ks_xstrdup(batch) : NULL,
		.nprocs = nprocs};
}

void wq_track_filter(struct wq_track *t, int id)
{
	t->filter = ks_xrealloc(t->filter, (t->nfilter + 1) * sizeof *t->filter);
	t->filter[t->nfilter++] = id;
	t->has_filter = true;
}

static bool wanted(const struct wq_track *t, int cluster)
{
	if (t->has_since && cluster < t->since)
		return false;
	if (!t->has_filter)
		return true;
	for (size_t i = 0; i < t->nfilter; i++)
		if (t->filter[i] == cluster)
			return true;
	return false;
}

static struct wq_cluster *cluster_for(struct wq_track *t, int id,
				      const char *log, const char *batch)
{
	size_t i = lower_bound(t->c, t->n, sizeof *t->c, id);
	if (i < t->n && t->c[i].id == id)
		return &t->c[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->c = ks_xrealloc(t->c, t->cap * sizeof *t->c);
	}
	memmove(&t->c[i + 1], &t->c[i], (t->n - i) * sizeof *t->c);
	t->n++;
	const struct wq_known *k = known_of(t, id);
	t->c[i] = (struct wq_cluster){
		.id = id,
		.log = ks_xstrdup(log),
		.batch = k && k->batch ? ks_xstrdup(k->batch)
				       : batch ? ks_xstrdup(batch) : NULL,
		.nprocs = k ? k->nprocs : -1,
	};
	return &t->c[i];
}

void wq_track_event(struct wq_track *t, const char *log, int type,
		    int cluster, int proc, const char *what, time_t when,
		    time_t now, const char *batch)
{
	if (!wanted(t, cluster))
		return;
	enum wq_state s = wq_event_state(type, what);
	if (s == WQ_UNSEEN || proc < 0 || proc >= MAX_PROC)
		return;
	struct wq_cluster *c =
		cluster_for(t, cluster, log, type == EV_SUBMIT ? batch : NULL);
	size_t p = (size_t)proc;
	if (p >= c->cap) {
		size_t cap = c->cap ? c->cap : 8;
		while (cap <= p)
			cap *= 2;
		c->state = ks_xrealloc(c->state, cap);
		memset(c->state + c->cap, WQ_UNSEEN, cap - c->cap);
		c->cap = cap;
	}
	enum wq_state old = c->state[p];
	if (old == WQ_UNSEEN)
		c->seen++;
	else if (exited(old))
		c->exited--;
	if (exited(s))
		c->exited++;
	c->state[p] = (unsigned char)s;
	if (exited(s) && c->exited == c->seen) {
		c->decay_start = t->decay_at_read ? now : when;
		c->has_decay = true;
	}
}

void wq_track_free(struct wq_track *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->c[i].log);
		free(t->c[i].batch);
		free(t->c[i].state);
	}
	for (size_t i = 0; i < t->nknown; i++)
		free(t->known[i].batch);
	free(t->c);
	free(t->known);
	free(t->filter);
	*t = (struct wq_track){0};
}

static bool check(enum wq_check c, enum wq_state s)
{
	switch (c) {
	case WQ_CHECK_ACTIVE: return !exited(s);
	case WQ_CHECK_DONE: return s == WQ_DONE;
	case WQ_CHECK_IDLE: return s == WQ_IDLE;
	case WQ_CHECK_HELD: return s == WQ_HELD;
	}
	return false;
}

bool wq_exit_holds(const struct wq_track *t, const struct wq_exit *cond)
{
	bool any = false, all = true;
	for (size_t i = 0; i < t->n; i++) {
		const struct wq_cluster *c = &t->c[i];
		for (size_t p = 0; p < c->cap; p++) {
			if (c->state[p] == WQ_UNSEEN)
				continue;
			if (check(cond->check, (enum wq_state)c->state[p]))
				any = true;
			else
				all = false;
		}
	}
	switch (cond->grouper) {
	case WQ_ALL: return all;
	case WQ_ANY: return any;
	case WQ_NONE: return !any;
	}
	return false;
}

/* ---- rows ----------------------------------------------------------------- */

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* path relative to base ("a/b"), when path is base or under it, else
 * NULL; both absolute and without "." or ".." parts. */
static const char *under(const char *path, const char *base)
{
	size_t n = strlen(base);
	while (n > 1 && base[n - 1] == '/')
		n--;
	if (n == 1 && base[0] == '/')
		return path + 1;
	if (strncmp(path, base, n) != 0)
		return NULL;
	if (path[n] == '\0')
		return path + n;
	return path[n] == '/' ? path + n + 1 : NULL;
}

/* Python's os.path.relpath(path, start) for absolute, normalized paths:
 * a new string. */
static char *relpath(const char *path, const char *start)
{
	/* the common directory prefix */
	size_t n = common_prefix(path, start);
	while (n > 0 && !((path[n] == '/' || path[n] == '\0') &&
			  (start[n] == '/' || start[n] == '\0')))
		n--;
	const char *rest = path + n;
	while (*rest == '/')
		rest++;
	size_t ups = 0;
	for (const char *s = start + n; *s; s++)
		if (*s != '/' && (s == start || s[-1] == '/'))
			ups++;
	size_t len = ups * 3 + strlen(rest) + 2;
	char *out = ks_xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < ups; i++)
		strcat(out, i + 1 < ups || *rest ? "../" : "..");
	strcat(out, rest);
	if (!out[0])
		strcpy(out, ".");
	return out;
}

char *wq_nice_path(const char *path, const char *home, const char *cwd)
{
	char *best = ks_xstrdup(path);
	if (home && home[0] == '/' && path[0] == '/') {
		char *rel = relpath(path, home);
		char *cand = ks_xmalloc(strlen(rel) + 3);
		sprintf(cand, "~/%s", rel);
		if (strcmp(rel, ".") == 0)
			strcpy(cand, "~/.");
		if (strlen(cand) < strlen(best)) {
			free(best);
			best = cand;
		} else {
			free(cand);
		}
		free(rel);
	}
	if (cwd && cwd[0] == '/' && path[0] == '/' && under(path, cwd)) {
		const char *rel = under(path, cwd);
		char *cand = ks_xmalloc(strlen(rel) + 3);
		sprintf(cand, "./%s", *rel ? rel : ".");
		if (strlen(cand) < strlen(best)) {
			free(best);
			best = cand;
		} else {
			free(cand);
		}
	}
	return best;
}

struct group {
	struct wq_row row;
	char *gkey; /* what the clusters are grouped by */
	bool shown;
};

static void add_cluster(struct group *g, const struct wq_cluster *c,
			time_t now, const struct wq_opts *o)
{
	if (g->row.min_cluster < 0 || c->id < g->row.min_cluster)
		g->row.min_cluster = c->id;
	g->row.total += c->nprocs >= 0 ? c->nprocs : (long)c->seen;
	bool done = c->exited == c->seen;
	if (!done)
		g->row.active = true;
	/* a row stays while one of its clusters is shown */
	if (!done || !c->has_decay || now - c->decay_start < o->decay)
		g->shown = true;
	for (size_t p = 0; p < c->cap; p++)
		if (c->state[p] != WQ_UNSEEN)
			g->row.count[c->state[p]]++;
}

struct jid {
	int c, p;
};

static int jid_cmp(const void *a, const void *b)
{
	const struct jid *x = a, *y = b;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	return (x->p > y->p) - (x->p < y->p);
}

/* The JOB_IDS cell: the row's jobs still in the queue. */
static char *job_ids(const struct wq_track *t, const struct group *g,
		     char *const *keys)
{
	struct jid *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(keys[i], g->gkey) != 0)
			continue;
		const struct wq_cluster *c = &t->c[i];
		for (size_t p = 0; p < c->cap; p++) {
			if (c->state[p] == WQ_UNSEEN || exited(c->state[p]))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				v = ks_xrealloc(v, cap * sizeof *v);
			}
			v[n++] = (struct jid){c->id, (int)p};
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, jid_cmp);
	char buf[128];
	if (n > 2)
		snprintf(buf, sizeof buf, "%d.%d ... %d.%d", v[0].c, v[0].p,
			 v[n - 1].c, v[n - 1].p);
	else if (n == 2)
		snprintf(buf, sizeof buf, "%d.%d, %d.%d", v[0].c, v[0].p,
			 v[1].c, v[1].p);
	else if (n == 1)
		snprintf(buf, sizeof buf, "%d.%d", v[0].c, v[0].p);
	else
		buf[0] = '\0';
	free(v);
	return ks_xstrdup(buf);
}

static int row_cmp(const void *a, const void *b)
{
	const struct wq_row *x = a, *y = b;
	if (x->active != y->active)
		return x->active ? -1 : 1;
	return (x->min_cluster > y->min_cluster) -
	       (x->min_cluster < y->min_cluster);
}

static char *group_key(const struct wq_cluster *c, enum wq_groupby by)
{
	char buf[32];
	switch (by) {
	case WQ_BY_LOG:
		return ks_xstrdup(c->log);
	case WQ_BY_CLUSTER:
		snprintf(buf, sizeof buf, "%d", c->id);
		return ks_xstrdup(buf);
	case WQ_BY_BATCH:
	default:
		if (c->batch)
			return ks_xstrdup(c->batch);
		snprintf(buf, sizeof buf, "ID: %d", c->id);
		return ks_xstrdup(buf);
	}
}

/* HTCondor's abbreviate_path(): each directory of path cut to one
 * character more than what its siblings have in common. */
static char *abbreviate(const char *path);

void wq_rows_make(const struct wq_track *t, const struct wq_opts *o,
		  time_t now, const char *home, const char *cwd,
		  struct wq_rows *out)
{
	*out = (struct wq_rows){0};
	char **keys = ks_xcalloc(t->n + 1, sizeof *keys);
	struct group *g = ks_xcalloc(t->n + 1, sizeof *g);
	size_t ng = 0;
	for (size_t i = 0; i < t->n; i++) {
		keys[i] = group_key(&t->c[i], o->groupby);
		size_t j = 0;
		while (j < ng && strcmp(g[j].gkey, keys[i]) != 0)
			j++;
		if (j == ng) {
			g[ng].gkey = keys[i];
			g[ng].row.min_cluster = -1;
			ng++;
		}
		add_cluster(&g[j], &t->c[i], now, o);
	}
	out->v = ks_xcalloc(ng + 1, sizeof *out->v);
	for (size_t j = 0; j < ng; j++) {
		out->total += g[j].row.total;
		for (int s = 0; s < WQ_NSTATES; s++)
			out->totals[s] += g[j].row.count[s];
		if (!o->display_exited && !g[j].shown)
			continue;
		struct wq_row r = g[j].row;
		r.job_ids = job_ids(t, &g[j], keys);
		if (o->groupby == WQ_BY_LOG) {
			char *nice = wq_nice_path(g[j].gkey, home, cwd);
			if (o->abbreviate) {
				r.key = abbreviate(nice);
				free(nice);
			} else {
				r.key = nice;
			}
		} else {
			r.key = ks_xstrdup(g[j].gkey);
		}
		out->v[out->n++] = r;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, row_cmp);
	for (size_t i = 0; i < t->n; i++)
		free(keys[i]);
	free(keys);
	free(g);
}

void wq_rows_free(struct wq_rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].job_ids);
	}
	free(r->v);
	*r = (struct wq_rows){0};
}

/* ---- abbreviated paths ------------------------------------------------------ */

#include <dirent.h>

/* The longest prefix every entry of dir shares ("" when it has one entry
 * or cannot be read): a new string. */
static char *dir_common(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char *common = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!common) {
			common = ks_xstrdup(e->d_name);
		} else {
			common[common_prefix(common, e->d_name)] = '\0';
		}
		n++;
	}
	closedir(d);
	if (n <= 1) {
		free(common);
		common = ks_xstrdup("");
	}
	return common;
}

static char *abbreviate(const char *path)
{
	size_t len = strlen(path);
	char *out = ks_xmalloc(len + 2);
	char *sofar = ks_xmalloc(len + 2);
	const char *home = getenv("HOME");
	out[0] = sofar[0] = '\0';
	const char *p = path;
	if (*p == '/') {
		strcpy(out, "/");
		strcpy(sofar, "/");
		while (*p == '/')
			p++;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		if (!slash) { /* the file's own name stays whole */
			strcat(out, p);
			break;
		}
		size_t clen = (size_t)(slash - p);
		if ((clen == 1 && p[0] == '~') || (clen == 1 && p[0] == '.')) {
			strncat(out, p, clen);
		} else {
			/* the directory holding this component */
			char *dir;
			if (!sofar[0])
				dir = ks_xstrdup(".");
			else if (sofar[0] == '~' && home)
				dir = ks_xmalloc(strlen(home) + strlen(sofar) + 1),
				sprintf(dir, "%s%s", home, sofar + 1);
			else
				dir = ks_xstrdup(sofar);
			char *common = dir_common(dir);
			size_t keep = common ? strlen(common) + 1 : clen;
			strncat(out, p, keep < clen ? keep : clen);
			free(common);
			free(dir);
		}
		strcat(out, "/");
		if (sofar[0] && sofar[strlen(sofar) - 1] != '/')
			strcat(sofar, "/");
		strncat(sofar, p, clen);
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	free(sofar);
	return out;
}
