/*
 * sc_queue_int.h: the job queue's inside, shared by queue.c (jobs in
 * memory, loading, changing them) and txn.c (what reaches the store and
 * when: flushes, commands' transactions, and what waits for them).  Not
 * for the rest of the schedd, which goes through sc_schedd.h.
 */
#ifndef SC_QUEUE_INT_H
#define SC_QUEUE_INT_H

#include "sc_schedd.h"

/* A job as it was when a transaction first changed it. */
struct sc_undo {
	struct sc_job *j;
	classad *ad;  /* a copy of its proc ad then */
	int status;
	bool dirty;   /* it had changes for the store already */
	bool gone;
};

/* Something to do once what came before it is in the store. */
struct sc_effect {
	sc_effect_fn fn;
	void *arg;
	void (*drop)(void *arg); /* frees arg: after fn, or instead of it */
};

struct sc_queue {
	ks_store *store;
	struct sc_cluster **cl;
	size_t ncl, capcl;
	int next_cluster;
	uint64_t history_seq;
	struct sc_counts counts;
	size_t njobs;
	/* jobs and clusters with changes for the store */
	struct sc_job **dirty;
	size_t ndirty, capdirty;
	struct sc_cluster **dead; /* clusters whose last job left */
	size_t ndead, capdead;
	classad **retired; /* whole ads for the history */
	size_t nretired, capretired;
	uint64_t flush_timer;
	/* a flush that failed is tried again after retry_ms (doubling) */
	uint64_t retry_timer;
	int64_t retry_ms;
	/* what waits for the next flush, in order */
	struct sc_effect *effects;
	size_t neffects, capeffects;
	/* a command's transaction (sc_queue_begin()): what it changed, and
	 * where the lists stood when it began */
	bool in_txn;
	struct sc_undo *undo;
	size_t nundo, capundo;
	size_t txn_retired, txn_dead, txn_effects;
};

/* queue.c */
void sc_queue_mark(struct sc_schedd *s, struct sc_job *j);
void sc_queue_free_job(struct sc_job *j);
void sc_queue_free_cluster(struct sc_cluster *c);
/* Puts a cluster back in the array (a transaction undone). */
void sc_queue_readd_cluster(struct sc_queue *q, struct sc_cluster *c);
void sc_queue_count(struct sc_queue *q, int st, long d);
/* The store's tables' keys. */
size_t sc_queue_cluster_key(unsigned char *k, int cluster);
size_t sc_queue_proc_key(unsigned char *k, int cluster, int proc);
void sc_queue_put_be32(unsigned char *p, uint32_t v);
int sc_queue_put_ad(ks_txn *t, const char *table, const unsigned char *k,
		    size_t kl, const classad *ad, struct ks_err *err);

/* txn.c: a flush soon (a zero-delay timer), for changes just made. */
void sc_queue_arm_flush(struct sc_schedd *s);
/* txn.c: called by every change to j before it is made. */
void sc_txn_remember(struct sc_queue *q, struct sc_job *j);
void sc_txn_free(struct sc_queue *q);

#endif
