/*
 * txn.c: what reaches the job queue's store, and when.
 *
 * Changes to jobs are made in memory and written by a flush, one store
 * transaction for everything pending, from a zero-delay timer or at once
 * when asked.  Nothing that depends on a change may be seen outside the
 * schedd before the change is in the store, or a schedd killed (or a
 * disk filled) at the wrong moment would have told the world something
 * its restart does not know: so the effects of changes (events for the
 * jobs' logs, claims released, jobs stopped on their startds) wait in a
 * list that runs, in order, once a flush has written what came before
 * them.  A flush that fails keeps everything pending, effects included,
 * and is tried again (after 1 s, doubling to 15 s): a job's end that
 * could not be written is retried, never dropped.
 *
 * A command (condor_rm, condor_qedit...) changes jobs inside
 * sc_queue_begin() / sc_queue_commit(): the commit flushes, and if that
 * fails every job the command changed is put back as it was (and its
 * effects dropped), so that the command can fail with nothing changed
 * and the queue in memory still agrees with the store.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ks_log.h"
#include "ks_mem.h"
#include "sc_queue_int.h"

#define RETRY_FIRST_MS 1000
#define RETRY_MAX_MS 15000

/* ---- the flush --------------------------------------------------------- */

static int flush_txn(ks_txn *t, void *arg, struct ks_err *err)
{
	struct sc_queue *q = arg;
	unsigned char k[9];
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < q->ndirty; i++) {
		struct sc_job *j = q->dirty[i];
		size_t kl = sc_queue_proc_key(k, j->cluster, j->proc);
		rc = j->gone ? ks_txn_del(t, "queue", k, kl, err)
			     : sc_queue_put_ad(t, "queue", k, kl, j->ad, err);
	}
	for (size_t i = 0; rc == 0 && i < q->ndead; i++)
		rc = ks_txn_del(t, "queue", k,
				sc_queue_cluster_key(k, q->dead[i]->id), err);
	uint64_t seq = q->history_seq;
	for (size_t i = 0; rc == 0 && i < q->nretired; i++) {
		seq++;
		sc_queue_put_be32(k, (uint32_t)(seq >> 32));
		sc_queue_put_be32(k + 4, (uint32_t)seq);
		rc = sc_queue_put_ad(t, "history", k, 8, q->retired[i], err);
	}
	return rc;
}

/* The pending changes are in the store: they are pending no more. */
static void written(struct sc_queue *q)
{
	q->history_seq += q->nretired;
	for (size_t i = 0; i < q->ndirty; i++) {
		struct sc_job *j = q->dirty[i];
		j->dirty = false;
		if (j->gone)
			sc_queue_free_job(j);
	}
	q->ndirty = 0;
	for (size_t i = 0; i < q->ndead; i++) {
		q->dead[i]->nprocs = 0; /* its jobs were freed above */
		sc_queue_free_cluster(q->dead[i]);
	}
	q->ndead = 0;
	for (size_t i = 0; i < q->nretired; i++)
		classad_free(q->retired[i]);
	q->nretired = 0;
}

static void drop_effect(struct sc_effect *e)
{
	if (e->drop)
		e->drop(e->arg);
}

/* Runs the effects waiting (those they add wait for the next flush). */
static void run_effects(struct sc_schedd *s)
{
	struct sc_queue *q = s->q;
	struct sc_effect *list = q->effects;
	size_t n = q->neffects;
	q->effects = NULL;
	q->neffects = q->capeffects = 0;
	for (size_t i = 0; i < n; i++) {
		list[i].fn(s, list[i].arg);
		drop_effect(&list[i]);
	}
	free(list);
}

static void on_retry(void *arg)
{
	struct sc_schedd *s = arg;
	s->q->retry_timer = 0;
	sc_queue_flush(s, NULL);
}

/* Writes what is pending (without running the effects).  Returns 0 or
 * the store's error, everything then kept for a retry. */
static int write_pending(struct sc_schedd *s, struct ks_err *err)
{
	struct sc_queue *q = s->q;
	if (q->flush_timer) {
		ks_loop_cancel(s->d->loop, q->flush_timer);
		q->flush_timer = 0;
	}
	if (q->ndirty || q->ndead || q->nretired) {
		int rc = ks_store_write(q->store, flush_txn, q, err);
		if (rc) {
			if (!q->retry_timer) {
				q->retry_ms = q->retry_ms ? q->retry_ms * 2
							  : RETRY_FIRST_MS;
				if (q->retry_ms > RETRY_MAX_MS)
					q->retry_ms = RETRY_MAX_MS;
				q->retry_timer = ks_loop_timer(
					s->d->loop, q->retry_ms, 0, on_retry, s);
			}
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "cannot write the job queue: %s; %zu "
				      "job changes and %zu actions wait for "
				      "it (next try in %lld ms)",
				      err->msg, q->ndirty + q->nretired,
				      q->neffects, (long long)q->retry_ms);
			return rc;
		}
		if (q->retry_ms)
			ks_log_printf(s->d->log, KS_D_ALWAYS,
				      "the job queue is written again");
		written(q);
	}
	q->retry_ms = 0;
	if (q->retry_timer) {
		ks_loop_cancel(s->d->loop, q->retry_timer);
		q->retry_timer = 0;
	}
	return 0;
}

int sc_queue_flush(struct sc_schedd *s, struct ks_err *err)
{
	struct ks_err mine = {0};
	/* a command's changes go with its commit */
	if (s->q->in_txn)
		return 0;
	int rc = write_pending(s, err ? err : &mine);
	if (rc == 0)
		run_effects(s);
	return rc;
}

static void flush_cb(void *arg)
{
	struct sc_schedd *s = arg;
	s->q->flush_timer = 0;
	sc_queue_flush(s, NULL);
}

void sc_queue_arm_flush(struct sc_schedd *s)
{
	struct sc_queue *q = s->q;
	/* after a failure, the retry timer decides */
	if (!q->flush_timer && !q->retry_timer && s->d->loop)
		q->flush_timer = ks_loop_timer(s->d->loop, 0, 0, flush_cb, s);
}

void sc_queue_after(struct sc_schedd *s, sc_effect_fn fn, void *arg,
		    void (*drop)(void *arg))
{
	struct sc_queue *q = s->q;
	if (q->neffects == q->capeffects) {
		q->capeffects = q->capeffects ? q->capeffects * 2 : 16;
		q->effects = ks_xrealloc(q->effects,
					 q->capeffects * sizeof(*q->effects));
	}
	q->effects[q->neffects++] = (struct sc_effect){fn, arg, drop};
	sc_queue_arm_flush(s);
}

/* ---- a command's transaction ----------------------------------------- */

void sc_queue_begin(struct sc_schedd *s)
{
	struct sc_queue *q = s->q;
	/* transactions do not nest: the one before ended in its commit or
	 * abort, which emptied the undo list */
	q->in_txn = true;
	q->nundo = 0;
	q->txn_retired = q->nretired;
	q->txn_dead = q->ndead;
	q->txn_effects = q->neffects;
}

void sc_txn_remember(struct sc_queue *q, struct sc_job *j)
{
	if (!q->in_txn)
		return;
	for (size_t i = 0; i < q->nundo; i++)
		if (q->undo[i].j == j)
			return;
	if (q->nundo == q->capundo) {
		q->capundo = q->capundo ? q->capundo * 2 : 16;
		q->undo = ks_xrealloc(q->undo, q->capundo * sizeof(*q->undo));
	}
	q->undo[q->nundo++] = (struct sc_undo){
		.j = j,
		.ad = classad_copy(j->ad),
		.status = j->status,
		.dirty = j->dirty,
		.gone = j->gone,
	};
}

static void forget_undo(struct sc_queue *q)
{
	for (size_t i = 0; i < q->nundo; i++)
		classad_free(q->undo[i].ad);
	q->nundo = 0;
}

/* A job retired in the transaction is back in its cluster (and the
 * cluster back in the queue if the job was its last). */
static void unretire(struct sc_queue *q, struct sc_job *j)
{
	struct sc_cluster *c = j->cl;
	if (c->live == 0) {
		for (size_t i = q->txn_dead; i < q->ndead; i++)
			if (q->dead[i] == c) {
				memmove(q->dead + i, q->dead + i + 1,
					(q->ndead - i - 1) * sizeof(*q->dead));
				q->ndead--;
				break;
			}
		sc_queue_readd_cluster(q, c);
	}
	c->procs[j->proc] = j;
	c->live++;
	q->njobs++;
	sc_queue_count(q, j->status, 1);
	j->gone = false;
}

static void undo_one(struct sc_queue *q, const struct sc_undo *u)
{
	struct sc_job *j = u->j;
	if (j->gone && !u->gone)
		unretire(q, j);
	classad_clear(j->ad);
	classad_update(j->ad, u->ad);
	if (j->status != u->status) {
		sc_queue_count(q, j->status, -1);
		sc_queue_count(q, u->status, 1);
		j->status = u->status;
	}
	j->autocluster = 0;
	if (!u->dirty && j->dirty) {
		for (size_t i = 0; i < q->ndirty; i++)
			if (q->dirty[i] == j) {
				memmove(q->dirty + i, q->dirty + i + 1,
					(q->ndirty - i - 1) * sizeof(*q->dirty));
				q->ndirty--;
				break;
			}
		j->dirty = false;
	}
}

void sc_queue_abort(struct sc_schedd *s)
{
	struct sc_queue *q = s->q;
	q->in_txn = false;
	/* as if the command had not run: the jobs as they were, its
	 * history records and its effects gone */
	for (size_t i = q->nundo; i-- > 0;)
		undo_one(q, &q->undo[i]);
	forget_undo(q);
	for (size_t i = q->txn_retired; i < q->nretired; i++)
		classad_free(q->retired[i]);
	q->nretired = q->txn_retired;
	for (size_t i = q->txn_effects; i < q->neffects; i++)
		drop_effect(&q->effects[i]);
	q->neffects = q->txn_effects;
	sc_submitters_changed(s);
}

int sc_queue_commit(struct sc_schedd *s, struct ks_err *err)
{
	struct sc_queue *q = s->q;
	struct ks_err mine = {0};
	q->in_txn = false;
	int rc = write_pending(s, err ? err : &mine);
	if (rc) {
		sc_queue_abort(s);
		return rc;
	}
	/* (before the effects, which may begin transactions of their own) */
	forget_undo(q);
	run_effects(s);
	return 0;
}

void sc_txn_free(struct sc_queue *q)
{
	forget_undo(q);
	free(q->undo);
	for (size_t i = 0; i < q->neffects; i++)
		drop_effect(&q->effects[i]);
	free(q->effects);
	/* jobs retired whose removal never reached the store */
	for (size_t i = 0; i < q->ndirty; i++)
		if (q->dirty[i]->gone)
			sc_queue_free_job(q->dirty[i]);
}
