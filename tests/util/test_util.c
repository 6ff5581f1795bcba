/* Unit tests of the small shared helpers in common/util. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_assert.h"
#include "ks_hash.h"
#include "ks_text.h"

/* The published FNV-1a 64-bit vectors: another tool computing the same
 * hash must agree. */
static void test_hash_vectors(void **state)
{
	(void)state;
	assert_true(ks_hash("", 0) == 0xcbf29ce484222325ull);
	assert_true(ks_hash("a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(ks_hash("foobar", 6) == 0x85944171f73967e8ull);
	/* the length counts, not a NUL */
	assert_true(ks_hash("foobar", 3) == ks_hash("foo", 3));
	assert_true(ks_hash("a\0b", 3) != ks_hash("a", 1));
}

static void test_hash_ci(void **state)
{
	(void)state;
	assert_true(ks_hash_ci("Foo_BAR.1", 9) == ks_hash("foo_bar.1", 9));
	assert_true(ks_hash_ci("foobar", 6) == ks_hash("foobar", 6));
	assert_true(ks_hash("Foo", 3) != ks_hash("foo", 3));
	/* bytes over 127 are not letters */
	assert_true(ks_hash_ci("\xc3\x84", 2) == ks_hash("\xc3\x84", 2));
}

/* An HTCondor list: items between any run of blanks and commas. */
static void test_list_next(void **state)
{
	(void)state;
	const char *list = " a,b\t, ,cc\r\n dd ,";
	const char *want[] = {"a", "b", "cc", "dd"};
	size_t pos = 0, len, n = 0;
	for (const char *p; (p = ks_list_next(list, &pos, &len)); n++) {
		assert_true(n < 4);
		assert_int_equal(len, strlen(want[n]));
		assert_memory_equal(p, want[n], len);
	}
	assert_int_equal(n, 4);
	pos = 0;
	assert_null(ks_list_next(NULL, &pos, &len));
	assert_null(ks_list_next(" ,, ", &pos, &len));
}

/* Other separators: ';' splits, a blank no longer does. */
static void test_list_next_sep(void **state)
{
	(void)state;
	size_t pos = 0, len;
	const char *p = ks_list_next_sep("x y;;z", ";", &pos, &len);
	assert_non_null(p);
	assert_int_equal(len, 3);
	assert_memory_equal(p, "x y", 3);
	p = ks_list_next_sep("x y;;z", ";", &pos, &len);
	assert_non_null(p);
	assert_int_equal(len, 1);
	assert_int_equal(*p, 'z');
	assert_null(ks_list_next_sep("x y;;z", ";", &pos, &len));
}

/* The cutting form gives the same items, NUL-terminated in place, and
 * keeps no state of its own: two lists can be walked at once. */
static void test_list_cut(void **state)
{
	(void)state;
	char a[] = ", one two,three ", b[] = "x";
	char *ca = a, *cb = b;
	assert_string_equal(ks_list_cut(&ca), "one");
	assert_string_equal(ks_list_cut(&cb), "x");
	assert_string_equal(ks_list_cut(&ca), "two");
	assert_null(ks_list_cut(&cb));
	assert_null(cb);
	assert_null(ks_list_cut(&cb));
	assert_string_equal(ks_list_cut(&ca), "three");
	assert_null(ks_list_cut(&ca));
	char *none = NULL;
	assert_null(ks_list_cut(&none));
	char last[] = "end";
	char *cl = last;
	assert_string_equal(ks_list_cut(&cl), "end");
	assert_null(ks_list_cut(&cl));
}

#ifndef NDEBUG
/* The impossible, taken: how a child that runs fn ends. */
static int end_of(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the assertion's message is expected, not news */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn();
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}
#endif

static volatile int never_taken, always_failed;

static void take_never(void)
{
	int one = 1;
	if (NEVER(one == 1))
		never_taken = 1;
}

static void fail_always(void)
{
	int zero = 0;
	if (!ALWAYS(zero == 1))
		always_failed = 1;
}

/* Unreachable branches: the plain test's value when it holds; an
 * assertion in a debug build when it does not, the plain test in a
 * release build. */
static void test_never_always(void **state)
{
	(void)state;
	int x = 2;
	assert_true(ALWAYS(x == 2));
	assert_false(NEVER(x == 3));
	assert_true(ALWAYS(x));
	assert_false(NEVER(x - 2));
#ifdef NDEBUG
	take_never();
	fail_always();
	assert_int_equal(never_taken, 1);
	assert_int_equal(always_failed, 1);
#else
	assert_int_equal(end_of(take_never), SIGABRT);
	assert_int_equal(end_of(fail_always), SIGABRT);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_vectors),
		cmocka_unit_test(test_hash_ci),
		cmocka_unit_test(test_list_next),
		cmocka_unit_test(test_list_next_sep),
		cmocka_unit_test(test_list_cut),
		cmocka_unit_test(test_never_always),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
