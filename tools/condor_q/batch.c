/*
 * batch.c: condor_q's default view, one line per batch (HTCondor's
 * -batch: queue.cpp, linkup_nodes_by_id, reduce_results).
 *
 * A batch is the procs of a cluster, plus the later clusters of the
 * same owner with the same JobBatchName, plus, for a DAGMan job, the
 * node jobs whose DAGManJobId names it.  Its row is its first job's,
 * with the counters replaced by sums: DONE (procs that have left the
 * queue, known only from TotalSubmitProcs, and only when the query
 * returns whole clusters), RUN, IDLE (and suspended), HOLD, TOTAL, and
 * JOB_IDS, the first and last job ids.  A counter of 0 shows '_'.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cq.h"
#include "ks_mem.h"

/* JobStatus values, as HTCondor numbers them (JOB_STATUS_MAX 10). */
enum { CQ_IDLE = 1, CQ_RUNNING = 2, CQ_HELD = 5, CQ_TRANSFERRING = 6,
       CQ_SUSPENDED = 7, CQ_STATUS_MAX = 10 };

struct cq_batch {
	char **names; /* "name\nowner", index + 1 is the batch uid */
	size_t n;
};

struct cq_batch *cq_batch_new(void)
{
	return ks_xcalloc(1, sizeof(struct cq_batch));
}

void cq_batch_free(struct cq_batch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		free(b->names[i]);
	free(b->names);
	free(b);
}

static int cq_batch_uid(struct cq_batch *b, const char *key)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->names[i], key) == 0)
			return (int)i + 1;
	b->names = ks_xrealloc(b->names, (b->n + 1) * sizeof *b->names);
	b->names[b->n++] = ks_xstrdup(key);
	return (int)b->n;
}

/* DAGManJobId: an integer, or the old "201.0" string. */
static int cq_dagman_id(const classad *ad)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, "DAGManJobId", NULL, &v);
	long long id = -1;
	if (v.type == CLASSAD_INTEGER) {
		id = v.u.i;
	} else if (v.type == CLASSAD_STRING) {
		const char *s = classad_value_str(&v, NULL);
		char *end;
		long long n = strtoll(s, &end, 10);
		if (n > 0 && end > s && (*end == '.' || *end == '\0'))
			id = n;
	}
	classad_value_clear(&v);
	return id > 0 && id <= INT_MAX ? (int)id : -1;
}

void cq_batch_note(struct cq_batch *b, struct cq_job *j, const classad *ad)
{
	j->materialize_next = -1;
	int dag = cq_dagman_id(ad);
	if (dag > 0) {
		j->dag_cluster = dag;
		j->flags |= CQ_R_ISDAGNODE;
	} else {
		/* batch names are unique per owner */
		char *name = classad_eval_string_dup(ad, "JobBatchName");
		char *node = NULL;
		if (!name && classad_lookup(ad, "DAGManJobId") &&
		    (node = classad_eval_string_dup(ad,
						    "DAGNodeName")) != NULL) {
			struct classad_buf t = {0};
			classad_buf_printf(&t, "NODE: %s", node);
			name = t.data;
		}
		if (name) {
			struct classad_buf key = {0};
			tf_buf_add(&key, name);
			char *owner = classad_eval_string_dup(ad, "Owner");
			if (owner) {
				tf_buf_addc(&key, '\n');
				tf_buf_add(&key, owner);
			}
			j->batch_uid = cq_batch_uid(b, tf_buf_str(&key));
			free(owner);
			tf_buf_free(&key);
		}
		free(name);
		free(node);
		long long next;
		if (tf_ad_int(ad, "JobMaterializeNextProcId", &next) &&
		    next >= 0 && next <= INT_MAX)
			j->materialize_next = (int)next;
	}
	long long universe;
	if (tf_ad_int(ad, "JobUniverse", &universe) && universe == 7)
		j->flags |= CQ_R_SCHEDUNIV;
}

static struct cq_job *cq_find(struct cq_job *jobs, size_t n, int cluster,
			      int proc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct cq_job *m = &jobs[mid];
		if (m->cluster == cluster && m->proc == proc)
			return &jobs[mid];
		if (m->cluster < cluster ||
		    (m->cluster == cluster && m->proc < proc))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void cq_append_sibling(struct cq_job *list, struct cq_job *sib)
{
	if (!list->next_sib)
		list->next_sib = sib;
	else
		list->last_sib->next_sib = sib;
	list->last_sib = sib;
}

/* Procs to their cluster's first, DAG nodes to their DAGMan job, and
 * clusters of one batch to its oldest (all in id order). */
static void cq_link(struct cq_job *jobs, size_t n, struct cq_batch *b)
{
	struct cq_job **first = ks_xcalloc(b->n + 1, sizeof *first);
	for (size_t i = 0; i < n; i++) {
		struct cq_job *j = &jobs[i];
		bool first_proc = i == 0 || jobs[i - 1].cluster != j->cluster;
		if (!first_proc)
			jobs[i - 1].next_proc = j;
		if (j->dag_cluster > 0) {
			struct cq_job *parent = cq_find(jobs, n, j->dag_cluster, 0);
			if (parent) {
				if (!parent->children)
					parent->children = j;
				else if (first_proc)
					cq_append_sibling(parent->children, j);
			}
		} else if (j->batch_uid && first_proc) {
			struct cq_job **f = &first[j->batch_uid];
			if (!*f)
				*f = j;
			else if (!(j->flags & CQ_R_SCHEDUNIV))
				cq_append_sibling(*f, j);
		}
	}
	free(first);
}

struct cq_prog {
	int count, jobs, dags, nodes_total, nodes_done, unknown_total;
	int cluster, min_proc, max_proc;
	int states[CQ_STATUS_MAX + 1];
	bool have_ids;
	int min_cluster, min_p, max_cluster, max_p;
};

static bool cq_num(const struct cq_job *j, int col, int *out)
{
	long long v;
	if ((size_t)col >= j->row.n || !j->row.valid[col] ||
	    !tf_value_int(&j->row.v[col], &v))
		return false;
	*out = (int)v;
	return true;
}

/* One cluster: its own row and its other procs (HTCondor's
 * reduce_procs). */
static void cq_reduce_procs(struct cq_prog *p, struct cq_job *jr,
			    bool partial)
{
	int total_submit = 0, num_procs = 0, status = 0;
	p->count++;
	p->cluster = jr->cluster;
	if (jr->proc >= 0)
		p->min_proc = p->max_proc = jr->proc;
	int universe = 0;
	if (cq_num(jr, CQ_B_RUN, &universe) && universe == 7) {
		jr->flags |= CQ_R_SCHEDUNIV;
		p->dags++;
		int done = 0, total = 0;
		if (cq_num(jr, CQ_B_TOTAL, &total))
			p->nodes_total += total;
		if (cq_num(jr, CQ_B_HOLD, &done))
			p->nodes_done += done;
	} else {
		if (jr->proc >= 0)
			p->jobs++;
		if (cq_num(jr, CQ_B_TOTAL, &num_procs)) {
			total_submit = num_procs;
			num_procs = 1;
		}
		if (jr->proc >= 0) {
			cq_num(jr, CQ_B_DONE, &status);
			if (status < 0 || status > CQ_STATUS_MAX)
				status = 0;
			p->states[status]++;
		}
	}
	int materialized = jr->materialize_next;
	for (struct cq_job *k = jr->next_proc; k; k = k->next_proc) {
		if (!(k->flags & (CQ_R_FOLDED | CQ_R_SKIP))) {
			if (k->proc >= 0) {
				p->count++;
				p->jobs++;
				int st = 0;
				cq_num(k, CQ_B_DONE, &st);
				if (st < 0 || st > CQ_STATUS_MAX)
					st = 0;
				p->states[st]++;
				if (k->proc < p->min_proc)
					p->min_proc = k->proc;
				p->max_proc = k->proc > p->min_proc ? k->proc
								    : p->min_proc;
			}
			k->flags |= CQ_R_FOLDED;
		}
		if (k->materialize_next >= 0)
			materialized = k->materialize_next;
		num_procs++;
	}
	if (!(jr->flags & (CQ_R_SCHEDUNIV | CQ_R_ISDAGNODE))) {
		if (total_submit) {
			int done = total_submit - num_procs;
			if (materialized >= 0)
				done = materialized - p->jobs;
			p->nodes_total += total_submit;
			if (!partial)
				p->nodes_done += done;
		} else {
			p->unknown_total++;
		}
	}
}

static void cq_jobid_minmax(struct cq_prog *p)
{
	long long lo = (long long)p->cluster << 32 | (unsigned)p->min_proc;
	long long hi = (long long)p->cluster << 32 | (unsigned)p->max_proc;
	long long cur_lo = (long long)p->min_cluster << 32 | (unsigned)p->min_p;
	long long cur_hi = (long long)p->max_cluster << 32 | (unsigned)p->max_p;
	if (!p->have_ids || lo < cur_lo) {
		p->min_cluster = p->cluster;
		p->min_p = p->min_proc;
	}
	if (!p->have_ids || hi > cur_hi) {
		p->max_cluster = p->cluster;
		p->max_p = p->max_proc;
	}
	p->have_ids = true;
}

static void cq_reduce_children(struct cq_prog *p, struct cq_job *j,
			       bool partial)
{
	for (; j; j = j->next_sib) {
		cq_reduce_procs(p, j, partial);
		if (!(j->flags & CQ_R_SCHEDUNIV))
			cq_jobid_minmax(p);
		j->flags |= CQ_R_FOLDED;
		if (j->children)
			cq_reduce_children(p, j->children, partial);
	}
}

static int cq_number_width(int num)
{
	int wid = 1;
	for (int val = 10; val < 999999999; val *= 10) {
		if (num < val)
			return wid;
		wid++;
	}
	return wid;
}

static void cq_set_int(struct cq_job *j, int col, int v)
{
	classad_value_set_int(&j->row.v[col], v);
	j->row.valid[col] = v > 0;
}

static void cq_set_str(struct cq_job *j, int col, const char *s)
{
	classad_value_set_string(&j->row.v[col], s, strlen(s));
	j->row.valid[col] = true;
}

static int cq_str_len(const struct cq_job *j, int col, bool *ok)
{
	size_t len = 0;
	*ok = (size_t)col < j->row.n && j->row.valid[col] &&
	      classad_value_str(&j->row.v[col], &len) != NULL;
	return *ok ? (int)len : 0;
}

struct cq_widths {
	int owner, batch, ids;
	int counts[5];
	bool any_held;
};

/* On a terminal, the three variable columns share what the fixed 50
 * leave (HTCondor's arithmetic, kept as it is). */
static void cq_fit_terminal(struct cq_widths *w, int display_width)
{
	int var_wid = display_width - 50;
	if (w->batch + w->owner + w->ids <= var_wid)
		return;
	int var_min = 8 + 10 + 9;
	int bw, nw, iw;
	bw = nw = iw = (var_wid - var_min) / 3;
	if (iw < w->ids) {
		int needed = (w->batch + w->owner) - (bw + nw + 10 + 8);
		if (needed > 7 && bw < 10)
			w->ids /= 2;
	}
	if (iw + 9 > w->ids) {
		int rw = iw + 9 - w->ids;
		nw += rw / 2;
		bw += rw - rw / 2;
	}
	if (bw + 10 > w->batch) {
		int rw = bw + 10 - w->batch;
		nw = (8 + nw + rw < w->owner ? 8 + nw + rw : w->owner) - 8;
	}
	if (nw + 8 > w->owner) {
		int rw = nw + 8 - w->owner;
		bw = (10 + bw + rw < w->batch ? 10 + bw + rw : w->batch) - 10;
	}
	if (bw + 10 < w->batch)
		w->batch = bw + 10;
	if (nw + 8 < w->owner)
		w->owner = nw + 8;
}

/* HTCondor's fnFixupWidthsForProgressFormat. */
static void cq_fix_columns(struct tf_mask *m, const struct cq_widths *w)
{
	if (m->n < CQ_B_NCOLS)
		return;
	struct tf_col *owner = &m->cols[CQ_B_OWNER];
	if (w->owner < owner->width) {
		owner->width = w->owner > 8 ? w->owner : 8;
		owner->opts &= ~(unsigned)(TF_NOTRUNC | TF_AUTOW);
	} else {
		owner->width = w->owner;
	}
	m->cols[CQ_B_BATCH].width = w->batch > 10 ? w->batch : 10;
	for (int i = 0; i < 5; i++) {
		struct tf_col *c = &m->cols[CQ_B_DONE + i];
		if (w->counts[i] > 6 && w->counts[i] <= 9) {
			char f[8];
			snprintf(f, sizeof f, "%%%dd", w->counts[i]);
			free(c->printf);
			c->printf = ks_xstrdup(f);
			c->width = w->counts[i];
		}
	}
	/* (HTCondor's -global, which kestrel lacks, keeps it too) */
	if (!w->any_held)
		m->cols[CQ_B_HOLD].opts |= TF_HIDDEN;
}

void cq_batch_reduce(struct cq_batch *b, struct cq_job *jobs, size_t n,
		     struct tf_mask *m, bool partial, int display_width)
{
	if (n == 0 || m->n < CQ_B_NCOLS)
		return;
	cq_link(jobs, n, b);
	struct cq_widths w = {0};
	for (size_t i = 0; i < n; i++) {
		struct cq_job *jr = &jobs[i];
		if (jr->flags & (CQ_R_FOLDED | CQ_R_SKIP | CQ_R_COOKED))
			continue;
		struct cq_prog p = {.min_proc = INT_MAX};
		cq_reduce_children(&p, jr, partial);
		jr->flags |= CQ_R_COOKED;

		int done = p.unknown_total ? 0 : p.nodes_done;
		int total = p.unknown_total ? 0 : p.nodes_total;
		int idle = p.states[CQ_IDLE] + p.states[CQ_SUSPENDED];
		int active = p.states[CQ_RUNNING] + p.states[CQ_TRANSFERRING];
		int held = p.states[CQ_HELD];
		if (held > 0)
			w.any_held = true;
		int sums[5] = {done, active, idle, held, total};
		for (int k = 0; k < 5; k++) {
			cq_set_int(jr, CQ_B_DONE + k, sums[k]);
			int nw = cq_number_width(sums[k]);
			if (nw > w.counts[k])
				w.counts[k] = nw;
		}
		bool ok;
		int len = cq_str_len(jr, CQ_B_OWNER, &ok);
		if (len > w.owner)
			w.owner = len;
		len = cq_str_len(jr, CQ_B_BATCH, &ok);
		if (!ok && !(jr->flags & CQ_R_SCHEDUNIV)) {
			char id[32];
			snprintf(id, sizeof id, "ID: %d", jr->cluster);
			cq_set_str(jr, CQ_B_BATCH, id);
			len = (int)strlen(id);
		}
		if (len > w.batch)
			w.batch = len;

		char ids[96];
		if (p.min_cluster != p.max_cluster)
			snprintf(ids, sizeof ids, "%d.%d ... %d.%d", p.min_cluster,
				 p.min_p, p.max_cluster, p.max_p);
		else if (p.min_p != p.max_p)
			snprintf(ids, sizeof ids, "%d.%d-%d", p.min_cluster,
				 p.min_p, p.max_p);
		else
			snprintf(ids, sizeof ids, "%d.%d", p.min_cluster, p.min_p);
		cq_set_str(jr, CQ_B_IDS, ids);
		if ((int)strlen(ids) > w.ids)
			w.ids = (int)strlen(ids);
	}
	if (display_width > 0)
		cq_fit_terminal(&w, display_width);
	cq_fix_columns(m, &w);
}
