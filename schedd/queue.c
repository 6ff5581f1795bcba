/*
 * queue.c: the job queue, in memory and in its store.
 *
 * Store layout (table "queue"): 'n' holds the next cluster id; 'c' and the
 * cluster id (4 bytes, big-endian, so keys sort as ids do) a cluster ad;
 * 'p', cluster id and proc id a proc ad (only what differs from its
 * cluster).  Table "history": an 8-byte big-endian sequence number and
 * the job's whole ad, so a reverse walk lists the newest first.  Ads are
 * kept in new ClassAd syntax, which carries any string.
 *
 * In memory, clusters sit in an array in id order (ids only grow), each
 * with its procs indexed by ProcId: finding a job is a binary search and
 * an index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "sc_queue_int.h"

static const char *const tables[] = {"queue", "history"};


void sc_queue_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

size_t sc_queue_cluster_key(unsigned char *k, int cluster)
{
	k[0] = 'c';
	sc_queue_put_be32(k + 1, (uint32_t)cluster);
	return 5;
}

size_t sc_queue_proc_key(unsigned char *k, int cluster, int proc)
{
	k[0] = 'p';
	sc_queue_put_be32(k + 1, (uint32_t)cluster);
	sc_queue_put_be32(k + 5, (uint32_t)proc);
	return 9;
}

const char *sc_status_name(int st)
{
	static const char *const names[] = {
		"Unexpanded", "Idle", "Running", "Removed", "Completed",
		"Held", "Transferring Output", "Suspended"};
	return st >= 0 && st < SC_NSTATUS ? names[st] : "Unknown";
}

/* ---- memory ---------------------------------------------------------- */

static struct sc_cluster *find_cluster(const struct sc_queue *q, int id)
{
	size_t lo = 0, hi = q->ncl;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (q->cl[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < q->ncl && q->cl[lo]->id == id ? q->cl[lo] : NULL;
}

void sc_queue_readd_cluster(struct sc_queue *q, struct sc_cluster *c)
{
	if (q->ncl == q->capcl) {
		q->capcl = q->capcl ? q->capcl * 2 : 64;
		q->cl = ks_xrealloc(q->cl, q->capcl * sizeof(*q->cl));
	}
	/* ids only grow, but a restart loads them from the store in key
	 * order too (and an undone removal puts one back), so this is
	 * mostly an append */
	size_t at = q->ncl;
	while (at > 0 && q->cl[at - 1]->id > c->id)
		at--;
	memmove(q->cl + at + 1, q->cl + at, (q->ncl - at) * sizeof(*q->cl));
	q->cl[at] = c;
	q->ncl++;
}

static struct sc_cluster *add_cluster(struct sc_queue *q, int id, classad *ad)
{
	struct sc_cluster *c = ks_xcalloc(1, sizeof(*c));
	c->id = id;
	c->ad = ad;
	sc_queue_readd_cluster(q, c);
	return c;
}

void sc_queue_count(struct sc_queue *q, int st, long d)
{
	if (st >= 0 && st < SC_NSTATUS)
		q->counts.by_status[st] += d;
}

static int64_t ad_int(const classad *ad, const char *name, int64_t def)
{
	int64_t v;
	return classad_eval_int(ad, name, NULL, &v) ? v : def;
}

static struct sc_job *add_job(struct sc_queue *q, struct sc_cluster *c,
			      int proc, classad *ad)
{
	if (proc < 0 || proc > 10 * 1000 * 1000)
		return NULL;
	if ((size_t)proc >= c->nprocs) {
		size_t n = (size_t)proc + 1;
		c->procs = ks_xrealloc(c->procs, n * sizeof(*c->procs));
		memset(c->procs + c->nprocs, 0,
		       (n - c->nprocs) * sizeof(*c->procs));
		c->nprocs = n;
	}
	if (c->procs[proc])
		return NULL;
	struct sc_job *j = ks_xcalloc(1, sizeof(*j));
	j->cluster = c->id;
	j->proc = proc;
	j->ad = ad;
	j->cl = c;
	classad_chain(ad, c->ad);
	j->status = (int)ad_int(ad, "JobStatus", SC_IDLE);
	char *owner = NULL;
	classad_eval_string(ad, "Owner", NULL, &owner);
	j->owner = owner ? owner : ks_xstrdup("");
	c->procs[proc] = j;
	c->live++;
	q->njobs++;
	sc_queue_count(q, j->status, 1);
	return j;
}

void sc_queue_free_job(struct sc_job *j)
{
	classad_free(j->ad);
	free(j->owner);
	free(j);
}

void sc_queue_free_cluster(struct sc_cluster *c)
{
	for (size_t i = 0; i < c->nprocs; i++)
		if (c->procs[i])
			sc_queue_free_job(c->procs[i]);
	free(c->procs);
	classad_free(c->ad);
	free(c);
}

/* ---- loading --------------------------------------------------------- */

static classad *parse_ad(const void *v, size_t vl)
{
	struct ks_err err = {0};
	return classad_parse(v, vl, CLASSAD_FMT_NEW, NULL, &err);
}

struct load {
	struct sc_schedd *s;
	size_t bad;
};

static int load_one(void *arg, const void *key, size_t kl, const void *v,
		    size_t vl)
{
	struct load *L = arg;
	struct sc_queue *q = L->s->q;
	const unsigned char *k = key;
	if (kl == 1 && k[0] == 'n') {
		char buf[32];
		size_t n = vl < sizeof(buf) - 1 ? vl : sizeof(buf) - 1;
		memcpy(buf, v, n);
		buf[n] = '\0';
		q->next_cluster = atoi(buf);
		return 0;
	}
	if (kl == 5 && k[0] == 'c') {
		classad *ad = parse_ad(v, vl);
		if (!ad) {
			L->bad++;
			return 0;
		}
		add_cluster(q, (int)get_be32(k + 1), ad);
		return 0;
	}
	if (kl == 9 && k[0] == 'p') {
		struct sc_cluster *c = find_cluster(q, (int)get_be32(k + 1));
		classad *ad = c ? parse_ad(v, vl) : NULL;
		if (!ad || !add_job(q, c, (int)get_be32(k + 5), ad)) {
			classad_free(ad);
			L->bad++;
		}
		return 0;
	}
	L->bad++;
	return 0;
}

static int last_seq(void *arg, const void *key, size_t kl, const void *v,
		    size_t vl)
{
	(void)v;
	(void)vl;
	struct sc_queue *q = arg;
	const unsigned char *k = key;
	if (kl == 8)
		q->history_seq = (uint64_t)get_be32(k) << 32 | get_be32(k + 4);
	return 1;
}

static int load_all(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)err;
	struct load *L = arg;
	ks_txn_each(t, "queue", "n", 1, false, load_one, L);
	ks_txn_each(t, "queue", "c", 1, false, load_one, L);
	ks_txn_each(t, "queue", "p", 1, false, load_one, L);
	ks_txn_each(t, "history", NULL, 0, true, last_seq, L->s->q);
	return 0;
}

int sc_queue_open(struct sc_schedd *s, const char *path, struct ks_err *err)
{
	struct sc_queue *q = ks_xcalloc(1, sizeof(*q));
	s->q = q;
	q->next_cluster = 1;
	int rc = ks_store_open(path, tables, 2, &q->store, err);
	if (rc)
		return rc;
	/* job changes (a start, an end) reach the file at once and the disk
	 * every SCHEDD_JOB_QUEUE_LOG_FLUSH_DELAY; submissions at once */
	rc = ks_store_set_lazy(q->store, true, err);
	if (rc)
		return rc;
	struct load L = {.s = s};
	rc = ks_store_read(q->store, load_all, &L, err);
	if (rc)
		return rc;
	/* clusters whose jobs were all gone (a crash between the two) */
	for (size_t i = 0; i < q->ncl; i++)
		if (q->cl[i]->id >= q->next_cluster)
			q->next_cluster = q->cl[i]->id + 1;
	if (L.bad)
		ks_log_printf(s->d->log, KS_D_ALWAYS,
			      "job queue %s: %zu records could not be read "
			      "and were skipped",
			      path, L.bad);
	ks_log_printf(s->d->log, KS_D_ALWAYS,
		      "job queue %s: %zu jobs in %zu clusters; next cluster %d",
		      path, q->njobs, q->ncl, q->next_cluster);
	return 0;
}

void sc_queue_sync(struct sc_schedd *s)
{
	struct ks_err err = {0};
	if (s->q && s->q->store && ks_store_sync(s->q->store, &err))
		ks_log_printf(s->d->log, KS_D_ALWAYS, "%s", err.msg);
}

void sc_queue_close(struct sc_schedd *s)
{
	struct sc_queue *q = s->q;
	if (!q)
		return;
	if (q->store)
		ks_store_sync(q->store, NULL);
	for (size_t i = 0; i < q->ncl; i++)
		sc_queue_free_cluster(q->cl[i]);
	for (size_t i = 0; i < q->ndead; i++)
		sc_queue_free_cluster(q->dead[i]);
	for (size_t i = 0; i < q->nretired; i++)
		classad_free(q->retired[i]);
	sc_txn_free(q);
	free(q->cl);
	free(q->dirty);
	free(q->dead);
	free(q->retired);
	ks_store_close(q->store);
	free(q);
	s->q = NULL;
}

/* ---- writing --------------------------------------------------------- */

int sc_queue_put_ad(ks_txn *t, const char *table, const unsigned char *k,
		  size_t kl, const classad *ad, struct ks_err *err)
{
	char *text = classad_unparse(ad, CLASSAD_FMT_NEW);
	int rc = ks_txn_put(t, table, k, kl, text, strlen(text), err);
	free(text);
	return rc;
}

static int put_next(ks_txn *t, int next, struct ks_err *err)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d", next);
	return ks_txn_put(t, "queue", "n", 1, buf, (size_t)n, err);
}

static int reserve_txn(ks_txn *t, void *arg, struct ks_err *err)
{
	return put_next(t, *(int *)arg, err);
}

int sc_queue_new_cluster(struct sc_schedd *s, int *id, struct ks_err *err)
{
	struct sc_queue *q = s->q;
	int next = q->next_cluster + 1;
	int rc = ks_store_write(q->store, reserve_txn, &next, err);
	if (rc == 0)
		rc = ks_store_sync(q->store, err);
	if (rc)
		return rc;
	*id = q->next_cluster;
	q->next_cluster = next;
	return 0;
}

struct submit {
	int cluster;
	classad *cl_ad;
	classad **procs;
	size_t n;
};

static int submit_txn(ks_txn *t, void *arg, struct ks_err *err)
{
	struct submit *S = arg;
	unsigned char k[9];
	int rc = sc_queue_put_ad(t, "queue", k, sc_queue_cluster_key(k, S->cluster), S->cl_ad,
			err);
	for (size_t i = 0; rc == 0 && i < S->n; i++)
		rc = sc_queue_put_ad(t, "queue", k, sc_queue_proc_key(k, S->cluster, (int)i),
			    S->procs[i], err);
	return rc;
}

int sc_queue_submit(struct sc_schedd *s, int cluster, classad *cl_ad,
		    classad **procs, size_t n, struct ks_err *err)
{
	struct sc_queue *q = s->q;
	struct submit S = {cluster, cl_ad, procs, n};
	int rc = find_cluster(q, cluster)
			 ? ks_err_set(err, KS_EEXIST, 0, 0, 0,
				      "cluster %d is already in the queue",
				      cluster)
			 : ks_store_write(q->store, submit_txn, &S, err);
	if (rc == 0)
		rc = ks_store_sync(q->store, err);
	if (rc) {
		classad_free(cl_ad);
		for (size_t i = 0; i < n; i++)
			classad_free(procs[i]);
		return rc;
	}
	struct sc_cluster *c = add_cluster(q, cluster, cl_ad);
	c->procs = ks_xcalloc(n ? n : 1, sizeof(*c->procs));
	c->nprocs = n;
	for (size_t i = 0; i < n; i++)
		if (!add_job(q, c, (int)i, procs[i]))
			classad_free(procs[i]);
	if (cluster >= q->next_cluster)
		q->next_cluster = cluster + 1;
	return 0;
}

void sc_queue_mark(struct sc_schedd *s, struct sc_job *j)
{
	struct sc_queue *q = s->q;
	if (!j->dirty) {
		j->dirty = true;
		if (q->ndirty == q->capdirty) {
			q->capdirty = q->capdirty ? q->capdirty * 2 : 64;
			q->dirty = ks_xrealloc(q->dirty,
					       q->capdirty * sizeof(*q->dirty));
		}
		q->dirty[q->ndirty++] = j;
	}
	sc_queue_arm_flush(s);
}

void sc_job_touch(struct sc_schedd *s, struct sc_job *j)
{
	sc_txn_remember(s->q, j);
	sc_queue_mark(s, j);
}

void sc_job_set_int(struct sc_schedd *s, struct sc_job *j, const char *name,
		    int64_t v)
{
	sc_txn_remember(s->q, j);
	classad_insert_int(j->ad, name, v);
	sc_queue_mark(s, j);
}

void sc_job_set_real(struct sc_schedd *s, struct sc_job *j, const char *name,
		     double v)
{
	sc_txn_remember(s->q, j);
	classad_insert_real(j->ad, name, v);
	sc_queue_mark(s, j);
}

void sc_job_set_string(struct sc_schedd *s, struct sc_job *j,
		       const char *name, const char *v)
{
	sc_txn_remember(s->q, j);
	classad_insert_string(j->ad, name, v);
	sc_queue_mark(s, j);
}

void sc_job_set_bool(struct sc_schedd *s, struct sc_job *j, const char *name,
		     bool v)
{
	sc_txn_remember(s->q, j);
	classad_insert_bool(j->ad, name, v);
	sc_queue_mark(s, j);
}

int sc_job_set_expr(struct sc_schedd *s, struct sc_job *j, const char *name,
		    const char *expr)
{
	classad_expr *e = expr ? classad_parse_expr(expr, strlen(expr), NULL)
			       : NULL;
	return e ? sc_job_set_parsed(s, j, name, e) : KS_EPARSE;
}

int sc_job_set_parsed(struct sc_schedd *s, struct sc_job *j,
		      const char *name, classad_expr *e)
{
	sc_txn_remember(s->q, j);
	int rc = classad_insert(j->ad, name, e);
	if (rc)
		return rc;
	sc_queue_mark(s, j);
	j->autocluster = 0;
	if (strcasecmp(name, "Owner") == 0) {
		char *owner = NULL;
		classad_eval_string(j->ad, "Owner", NULL, &owner);
		free(j->owner);
		j->owner = owner ? owner : ks_xstrdup("");
	}
	return 0;
}

void sc_job_delete_attr(struct sc_schedd *s, struct sc_job *j,
			const char *name)
{
	sc_txn_remember(s->q, j);
	/* a proc without its own value would see the cluster's: an
	 * explicit undefined hides it */
	if (classad_lookup(j->cl->ad, name))
		classad_insert_text(j->ad, name, "undefined", NULL);
	else
		classad_delete(j->ad, name);
	sc_queue_mark(s, j);
	j->autocluster = 0;
}

void sc_job_set_status(struct sc_schedd *s, struct sc_job *j, int st)
{
	if (j->status == st)
		return;
	sc_txn_remember(s->q, j);
	sc_queue_count(s->q, j->status, -1);
	sc_queue_count(s->q, st, 1);
	classad_insert_int(j->ad, "LastJobStatus", j->status);
	classad_insert_int(j->ad, "JobStatus", st);
	classad_insert_int(j->ad, "EnteredCurrentStatus", (int64_t)time(NULL));
	j->status = st;
	sc_queue_mark(s, j);
	sc_submitters_changed(s);
}

classad *sc_job_flat(const struct sc_job *j)
{
	classad *ad = classad_new();
	classad_reserve(ad, classad_size(j->cl->ad) + classad_size(j->ad));
	classad_update(ad, j->cl->ad);
	classad_update(ad, j->ad);
	return ad;
}

void sc_job_retire(struct sc_schedd *s, struct sc_job *j)
{
	struct sc_queue *q = s->q;
	if (j->gone)
		return;
	sc_txn_remember(q, j);
	if (q->nretired == q->capretired) {
		q->capretired = q->capretired ? q->capretired * 2 : 64;
		q->retired = ks_xrealloc(q->retired,
					 q->capretired * sizeof(*q->retired));
	}
	q->retired[q->nretired++] = sc_job_flat(j);
	sc_queue_mark(s, j);
	j->gone = true;
	sc_queue_count(q, j->status, -1);
	q->njobs--;
	struct sc_cluster *c = j->cl;
	c->procs[j->proc] = NULL;
	if (--c->live == 0) {
		/* out of the array now; freed once the store agrees */
		size_t at = 0;
		while (at < q->ncl && q->cl[at] != c)
			at++;
		if (at < q->ncl) {
			memmove(q->cl + at, q->cl + at + 1,
				(q->ncl - at - 1) * sizeof(*q->cl));
			q->ncl--;
		}
		if (q->ndead == q->capdead) {
			q->capdead = q->capdead ? q->capdead * 2 : 16;
			q->dead = ks_xrealloc(q->dead,
					      q->capdead * sizeof(*q->dead));
		}
		q->dead[q->ndead++] = c;
	}
	sc_submitters_changed(s);
}

/* ---- reading --------------------------------------------------------- */

struct sc_job *sc_queue_find(struct sc_schedd *s, int cluster, int proc)
{
	struct sc_cluster *c = find_cluster(s->q, cluster);
	if (!c || proc < 0 || (size_t)proc >= c->nprocs)
		return NULL;
	return c->procs[proc];
}

struct sc_cluster *sc_queue_cluster(struct sc_schedd *s, int cluster)
{
	return find_cluster(s->q, cluster);
}

int sc_queue_each(struct sc_schedd *s, int (*fn)(struct sc_job *j, void *arg),
		  void *arg)
{
	struct sc_queue *q = s->q;
	for (size_t i = 0; i < q->ncl; i++) {
		struct sc_cluster *c = q->cl[i];
		for (size_t p = 0; p < c->nprocs; p++) {
			if (!c->procs[p])
				continue;
			int rc = fn(c->procs[p], arg);
			if (rc)
				return rc;
			/* fn may have retired the cluster's last job */
			if (i >= q->ncl || q->cl[i] != c) {
				i--;
				break;
			}
		}
	}
	return 0;
}

const struct sc_counts *sc_queue_counts(struct sc_schedd *s)
{
	return &s->q->counts;
}

size_t sc_queue_size(struct sc_schedd *s)
{
	return s->q->njobs;
}

struct hist {
	int (*fn)(classad *ad, void *arg);
	void *arg;
};

static int hist_one(void *arg, const void *key, size_t kl, const void *v,
		    size_t vl)
{
	(void)key;
	(void)kl;
	struct hist *h = arg;
	classad *ad = parse_ad(v, vl);
	if (!ad)
		return 0;
	int rc = h->fn(ad, h->arg);
	classad_free(ad);
	return rc;
}

static int hist_txn(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)err;
	ks_txn_each(t, "history", NULL, 0, true, hist_one, arg);
	return 0;
}

int sc_history_each(struct sc_schedd *s,
		    int (*fn)(classad *ad, void *arg), void *arg)
{
	/* what is about to be written is history already */
	struct sc_queue *q = s->q;
	for (size_t i = q->nretired; i-- > 0;)
		if (fn(q->retired[i], arg))
			return 0;
	struct hist h = {fn, arg};
	struct ks_err err = {0};
	return ks_store_read(q->store, hist_txn, &h, &err);
}
