/*
 * store.c: ks_store over LMDB.  Table handles are opened once, in the
 * transaction that creates them, and looked up by name afterwards.
 */
#include "ks_store.h"

#include <errno.h>
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MAX_TABLES 16
/* A sparse file: the map costs address space, not disk, until used. */
#define FIRST_MAP ((size_t)64 << 20)

struct ks_store {
	MDB_env *env;
	size_t map;
	char *path;
	size_t ntables;
	char *names[MAX_TABLES];
	MDB_dbi dbi[MAX_TABLES];
};

struct ks_txn {
	ks_store *s;
	MDB_txn *txn;
};

/* LMDB reports a write cut short as EIO, which is what a full file
 * system does to it first: the error a user can act on is the full
 * disk, so that is what is said when the store's file system has no
 * room left for this process. */
static int real_errno(const ks_store *s, int rc)
{
	mdb_filehandle_t fd;
	struct statvfs v;
	if (rc != EIO || !s || !s->env || mdb_env_get_fd(s->env, &fd) != 0 ||
	    fstatvfs(fd, &v) != 0)
		return rc;
	fsblkcnt_t left = geteuid() == 0 ? v.f_bfree : v.f_bavail;
	return left * v.f_frsize < (fsblkcnt_t)64 * 1024 ? ENOSPC : rc;
}

static int fail(struct ks_err *err, const ks_store *s, const char *what,
		int rc)
{
	rc = real_errno(s, rc);
	int code = rc == MDB_NOTFOUND ? KS_ENOTFOUND
		   : rc == ENOMEM     ? KS_ENOMEM
				      : KS_EIO;
	return ks_err_set(err, code, 0, 0, 0, "%s: %s: %s",
			  s ? s->path : "store", what, mdb_strerror(rc));
}

void ks_store_close(ks_store *s)
{
	if (!s)
		return;
	if (s->env)
		mdb_env_close(s->env);
	for (size_t i = 0; i < s->ntables; i++)
		free(s->names[i]);
	free(s->path);
	free(s);
}

int ks_store_open(const char *path, const char *const *tables, size_t ntables,
		  ks_store **out, struct ks_err *err)
{
	*out = NULL;
	if (ntables > MAX_TABLES)
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "%s: too many tables", path);
	ks_store *s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return ks_err_set(err, KS_ENOMEM, 0, 0, 0, "out of memory");
	}
	s->map = FIRST_MAP;
	int rc = mdb_env_create(&s->env);
	if (rc == 0)
		rc = mdb_env_set_maxdbs(s->env, MAX_TABLES);
	if (rc == 0)
		rc = mdb_env_set_mapsize(s->env, s->map);
	if (rc == 0)
		rc = mdb_env_open(s->env, path, MDB_NOSUBDIR | MDB_NOTLS, 0600);
	if (rc) {
		fail(err, s, "cannot open", rc);
		ks_store_close(s);
		return err ? err->code : KS_EIO;
	}
	/* the file may have grown bigger than our first map in an earlier
	 * life: LMDB adopts its size when asked for 0 */
	MDB_envinfo info;
	if (mdb_env_set_mapsize(s->env, 0) == 0 &&
	    mdb_env_info(s->env, &info) == 0 && info.me_mapsize > s->map)
		s->map = info.me_mapsize;
	MDB_txn *txn;
	rc = mdb_txn_begin(s->env, NULL, 0, &txn);
	for (size_t i = 0; rc == 0 && i < ntables; i++) {
		s->names[i] = strdup(tables[i]);
		if (!s->names[i]) {
			rc = ENOMEM;
			break;
		}
		s->ntables++;
		rc = mdb_dbi_open(txn, tables[i], MDB_CREATE, &s->dbi[i]);
	}
	if (rc == 0)
		rc = mdb_txn_commit(txn);
	else
		mdb_txn_abort(txn);
	if (rc) {
		fail(err, s, "cannot open its tables", rc);
		ks_store_close(s);
		return err ? err->code : KS_EIO;
	}
	*out = s;
	return 0;
}

int ks_store_set_lazy(ks_store *s, bool lazy, struct ks_err *err)
{
	int rc = mdb_env_set_flags(s->env, MDB_NOSYNC, lazy ? 1 : 0);
	return rc ? fail(err, s, "cannot set its sync mode", rc) : 0;
}

int ks_store_sync(ks_store *s, struct ks_err *err)
{
	int rc = mdb_env_sync(s->env, 1);
	return rc ? fail(err, s, "cannot sync", rc) : 0;
}

static int table(ks_txn *t, const char *name, MDB_dbi *dbi)
{
	for (size_t i = 0; i < t->s->ntables; i++)
		if (strcmp(t->s->names[i], name) == 0) {
			*dbi = t->s->dbi[i];
			return 0;
		}
	return KS_EINVAL;
}

static int grow(ks_store *s, struct ks_err *err)
{
	int rc = mdb_env_set_mapsize(s->env, s->map * 2);
	if (rc)
		return fail(err, s, "cannot grow", rc);
	s->map *= 2;
	return 0;
}

int ks_store_write(ks_store *s, ks_store_fn fn, void *arg, struct ks_err *err)
{
	for (;;) {
		struct ks_txn t = {.s = s};
		int rc = mdb_txn_begin(s->env, NULL, 0, &t.txn);
		if (rc == MDB_MAP_RESIZED) {
			/* another process grew it: adopt the new size */
			if ((rc = mdb_env_set_mapsize(s->env, 0)) == 0)
				continue;
		}
		if (rc)
			return fail(err, s, "cannot begin a transaction", rc);
		int st = fn(&t, arg, err);
		if (st == KS_ERANGE && err && strstr(err->msg, "MDB_MAP_FULL")) {
			mdb_txn_abort(t.txn);
			if ((st = grow(s, err)) != 0)
				return st;
			ks_err_clear(err);
			continue;
		}
		if (st) {
			mdb_txn_abort(t.txn);
			return st;
		}
		rc = mdb_txn_commit(t.txn);
		if (rc == MDB_MAP_FULL) {
			if ((st = grow(s, err)) != 0)
				return st;
			continue;
		}
		if (rc)
			return fail(err, s, "cannot commit", rc);
		return 0;
	}
}

int ks_store_read(ks_store *s, ks_store_fn fn, void *arg, struct ks_err *err)
{
	struct ks_txn t = {.s = s};
	int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &t.txn);
	if (rc == MDB_MAP_RESIZED && mdb_env_set_mapsize(s->env, 0) == 0)
		rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &t.txn);
	if (rc)
		return fail(err, s, "cannot begin a transaction", rc);
	int st = fn(&t, arg, err);
	mdb_txn_abort(t.txn);
	return st;
}

int ks_txn_put(ks_txn *t, const char *name, const void *key, size_t klen,
	       const void *val, size_t vlen, struct ks_err *err)
{
	MDB_dbi dbi;
	if (table(t, name, &dbi))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0, "no table %s", name);
	MDB_val k = {klen, (void *)key}, v = {vlen, (void *)val};
	int rc = mdb_put(t->txn, dbi, &k, &v, 0);
	if (rc == MDB_MAP_FULL)
		/* ks_store_write() recognises this and grows the file */
		return ks_err_set(err, KS_ERANGE, 0, 0, 0, "MDB_MAP_FULL");
	return rc ? fail(err, t->s, "cannot write", rc) : 0;
}

int ks_txn_get(ks_txn *t, const char *name, const void *key, size_t klen,
	       const void **val, size_t *vlen)
{
	MDB_dbi dbi;
	if (table(t, name, &dbi))
		return KS_EINVAL;
	MDB_val k = {klen, (void *)key}, v;
	int rc = mdb_get(t->txn, dbi, &k, &v);
	if (rc)
		return rc == MDB_NOTFOUND ? KS_ENOTFOUND : KS_EIO;
	*val = v.mv_data;
	*vlen = v.mv_size;
	return 0;
}

int ks_txn_del(ks_txn *t, const char *name, const void *key, size_t klen,
	       struct ks_err *err)
{
	MDB_dbi dbi;
	if (table(t, name, &dbi))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0, "no table %s", name);
	MDB_val k = {klen, (void *)key};
	int rc = mdb_del(t->txn, dbi, &k, NULL);
	if (rc == MDB_NOTFOUND)
		return 0;
	return rc ? fail(err, t->s, "cannot delete", rc) : 0;
}

static bool has_prefix(const MDB_val *k, const void *prefix, size_t plen)
{
	return plen == 0 ||
	       (k->mv_size >= plen && memcmp(k->mv_data, prefix, plen) == 0);
}

int ks_txn_each(ks_txn *t, const char *name, const void *prefix, size_t plen,
		bool reverse, ks_txn_each_fn fn, void *arg)
{
	MDB_dbi dbi;
	MDB_cursor *cur;
	if (table(t, name, &dbi) || mdb_cursor_open(t->txn, dbi, &cur))
		return KS_EINVAL;
	MDB_val k = {plen, (void *)prefix}, v;
	int rc;
	if (!reverse) {
		rc = plen ? mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE)
			  : mdb_cursor_get(cur, &k, &v, MDB_FIRST);
	} else if (plen == 0) {
		rc = mdb_cursor_get(cur, &k, &v, MDB_LAST);
	} else {
		/* the last key with the prefix is just before the first key
		 * past every such key */
		unsigned char past[512];
		size_t n = plen < sizeof(past) ? plen : sizeof(past);
		memcpy(past, prefix, n);
		while (n > 0 && past[n - 1] == 0xff)
			n--;
		if (n == 0) {
			rc = mdb_cursor_get(cur, &k, &v, MDB_LAST);
		} else {
			past[n - 1]++;
			k.mv_size = n;
			k.mv_data = past;
			rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
			rc = rc == 0 ? mdb_cursor_get(cur, &k, &v, MDB_PREV)
				     : mdb_cursor_get(cur, &k, &v, MDB_LAST);
		}
	}
	int st = 0;
	while (rc == 0 && has_prefix(&k, prefix, plen)) {
		if ((st = fn(arg, k.mv_data, k.mv_size, v.mv_data, v.mv_size)))
			break;
		rc = mdb_cursor_get(cur, &k, &v, reverse ? MDB_PREV : MDB_NEXT);
	}
	mdb_cursor_close(cur);
	return st;
}

size_t ks_txn_count(ks_txn *t, const char *name)
{
	MDB_dbi dbi;
	MDB_stat st;
	if (table(t, name, &dbi) || mdb_stat(t->txn, dbi, &st))
		return 0;
	return st.ms_entries;
}
