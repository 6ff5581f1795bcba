/* Unit tests of common/store: transactions, prefix walks, growth and
 * what survives a reopen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_store.h"

static const char *const tables[] = {"jobs", "meta"};

static char *tmpfile_path(void)
{
	char *p = strdup("/tmp/ks_store_testXXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

static void cleanup(char *p)
{
	char lock[300];
	snprintf(lock, sizeof(lock), "%s-lock", p);
	unlink(p);
	unlink(lock);
	free(p);
}

struct kv {
	const char *k, *v;
};

static int put_all(ks_txn *t, void *arg, struct ks_err *err)
{
	for (const struct kv *e = arg; e->k; e++) {
		int rc = ks_txn_put(t, "jobs", e->k, strlen(e->k), e->v,
				    strlen(e->v), err);
		if (rc)
			return rc;
	}
	return 0;
}

static int fail_after_put(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)arg;
	ks_txn_put(t, "jobs", "zz", 2, "v", 1, err);
	return KS_EINVAL;
}

struct walk {
	char seen[256];
	int stop_at;
	int n;
};

static int collect(void *arg, const void *key, size_t klen, const void *val,
		   size_t vlen)
{
	struct walk *w = arg;
	(void)val;
	(void)vlen;
	strncat(w->seen, key, klen);
	strcat(w->seen, " ");
	return ++w->n == w->stop_at ? 7 : 0;
}

struct query {
	const char *prefix;
	bool reverse;
	struct walk w;
	const char *val;
	size_t count;
};

static int run_query(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)err;
	struct query *q = arg;
	q->count = ks_txn_count(t, "jobs");
	const void *v;
	size_t vl;
	if (ks_txn_get(t, "jobs", "c1", 2, &v, &vl) == 0)
		q->val = strndup(v, vl);
	return ks_txn_each(t, "jobs", q->prefix, q->prefix ? strlen(q->prefix) : 0,
			   q->reverse, collect, &q->w);
}

static void test_put_get_walk(void **state)
{
	(void)state;
	char *path = tmpfile_path();
	ks_store *s;
	struct ks_err err = {0};
	assert_int_equal(ks_store_open(path, tables, 2, &s, &err), 0);
	struct kv kvs[] = {{"c1", "cluster"}, {"p1.0", "a"}, {"p1.1", "b"},
			   {"p2.0", "c"}, {"q", "x"}, {NULL, NULL}};
	assert_int_equal(ks_store_write(s, put_all, kvs, &err), 0);
	/* a failing transaction changes nothing */
	assert_int_equal(ks_store_write(s, fail_after_put, NULL, &err),
			 KS_EINVAL);

	struct query q = {.prefix = "p"};
	assert_int_equal(ks_store_read(s, run_query, &q, &err), 0);
	assert_string_equal(q.w.seen, "p1.0 p1.1 p2.0 ");
	assert_int_equal(q.count, 5);
	assert_string_equal(q.val, "cluster");
	free((char *)q.val);

	struct query r = {.prefix = "p1", .reverse = true};
	assert_int_equal(ks_store_read(s, run_query, &r, &err), 0);
	assert_string_equal(r.w.seen, "p1.1 p1.0 ");
	free((char *)r.val);

	struct query all = {.reverse = true, .w.stop_at = 2};
	assert_int_equal(ks_store_read(s, run_query, &all, &err), 7);
	assert_string_equal(all.w.seen, "q p2.0 ");
	free((char *)all.val);
	ks_store_close(s);

	/* what was committed is there after a reopen; the failed one not */
	assert_int_equal(ks_store_open(path, tables, 2, &s, &err), 0);
	struct query again = {.prefix = "z"};
	assert_int_equal(ks_store_read(s, run_query, &again, &err), 0);
	assert_string_equal(again.w.seen, "");
	assert_int_equal(again.count, 5);
	free((char *)again.val);
	ks_store_close(s);
	cleanup(path);
}

struct big {
	size_t n;
	char *val;
};

static int put_big(ks_txn *t, void *arg, struct ks_err *err)
{
	struct big *b = arg;
	for (size_t i = 0; i < b->n; i++) {
		char key[32];
		snprintf(key, sizeof(key), "k%06zu", i);
		int rc = ks_txn_put(t, "jobs", key, strlen(key), b->val,
				    1 << 20, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int del_one(ks_txn *t, void *arg, struct ks_err *err)
{
	(void)arg;
	return ks_txn_del(t, "jobs", "k000003", 7, err);
}

static void test_grows(void **state)
{
	(void)state;
	char *path = tmpfile_path();
	ks_store *s;
	struct ks_err err = {0};
	assert_int_equal(ks_store_open(path, tables, 2, &s, &err), 0);
	/* more than the first map holds, in one transaction */
	struct big b = {.n = 80, .val = calloc(1, 1 << 20)};
	assert_int_equal(ks_store_write(s, put_big, &b, &err), 0);
	assert_int_equal(ks_store_write(s, del_one, NULL, &err), 0);
	ks_store_close(s);
	assert_int_equal(ks_store_open(path, tables, 2, &s, &err), 0);
	struct query q = {.prefix = "k00000"};
	assert_int_equal(ks_store_read(s, run_query, &q, &err), 0);
	assert_string_equal(q.w.seen, "k000000 k000001 k000002 k000004 "
				      "k000005 k000006 k000007 k000008 "
				      "k000009 ");
	assert_int_equal(q.count, 79);
	ks_store_close(s);
	free(b.val);
	cleanup(path);
}

static void test_bad_path(void **state)
{
	(void)state;
	ks_store *s;
	struct ks_err err = {0};
	assert_int_equal(ks_store_open("/nonexistent/dir/q.mdb", tables, 2, &s,
				       &err),
			 KS_EIO);
	assert_null(s);
	assert_non_null(strstr(err.msg, "/nonexistent/dir/q.mdb"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_walk),
		cmocka_unit_test(test_grows),
		cmocka_unit_test(test_bad_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
