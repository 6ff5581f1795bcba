/*
 * ks_store.h: the persistent tables of the schedd (job queue, history)
 * and the negotiator (accountant), a thin layer over LMDB.
 *
 * A store is one file holding named tables of byte keys and byte values.
 * Every change happens in a write transaction, which is durable once
 * ks_store_write() returns 0: a daemon killed at any moment restarts with
 * every committed transaction and nothing of the others.  The file grows
 * as needed: LMDB's fixed map is enlarged and the transaction run again,
 * which is why changes are made by a function the store may call twice.
 */
#ifndef KS_STORE_H
#define KS_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "ks_err.h"

typedef struct ks_store ks_store;
typedef struct ks_txn ks_txn;

/* Opens (creating, mode 0600) the store file path with room for the
 * named tables (at most 16).  Returns 0 and *out (free with
 * ks_store_close()), or KS_EIO with err saying which file and why. */
int ks_store_open(const char *path, const char *const *tables, size_t ntables,
		  ks_store **out, struct ks_err *err);
void ks_store_close(ks_store *s);

/* Lazy durability, as HTCondor's schedd has it
 * (SCHEDD_JOB_QUEUE_LOG_FLUSH_DELAY): commits reach the file at once, so
 * a process killed at any moment loses nothing, but are not forced to
 * the disk until ks_store_sync(); a machine that loses power may lose
 * what came since.  Off by default. */
int ks_store_set_lazy(ks_store *s, bool lazy, struct ks_err *err);
/* Forces what is committed to the disk. */
int ks_store_sync(ks_store *s, struct ks_err *err);

/* Runs fn in a write transaction and commits it if fn returns 0 (its
 * status is returned otherwise, nothing changed).  fn may run more than
 * once (after the file had to grow); it must not keep state between runs
 * except through the transaction. */
typedef int (*ks_store_fn)(ks_txn *t, void *arg, struct ks_err *err);
int ks_store_write(ks_store *s, ks_store_fn fn, void *arg, struct ks_err *err);

/* Runs fn in a read-only transaction (a consistent snapshot). */
int ks_store_read(ks_store *s, ks_store_fn fn, void *arg, struct ks_err *err);

/* Sets key to val in table.  Returns 0 or a KS_E* code. */
int ks_txn_put(ks_txn *t, const char *table, const void *key, size_t klen,
	       const void *val, size_t vlen, struct ks_err *err);

/* Finds key: *val and *vlen point into the store, valid until the
 * transaction ends.  Returns 0 or KS_ENOTFOUND. */
int ks_txn_get(ks_txn *t, const char *table, const void *key, size_t klen,
	       const void **val, size_t *vlen);

/* Deletes key (0 also when it was not there). */
int ks_txn_del(ks_txn *t, const char *table, const void *key, size_t klen,
	       struct ks_err *err);

/* Calls fn for each entry whose key starts with prefix (plen 0: all), in
 * key order (reverse: from the last); key and value are valid during the
 * call.  fn returns 0 to go on, anything else stops the walk and is
 * returned. */
typedef int (*ks_txn_each_fn)(void *arg, const void *key, size_t klen,
			      const void *val, size_t vlen);
int ks_txn_each(ks_txn *t, const char *table, const void *prefix, size_t plen,
		bool reverse, ks_txn_each_fn fn, void *arg);

/* Number of entries in a table. */
size_t ks_txn_count(ks_txn *t, const char *table);

#endif
