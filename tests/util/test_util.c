/* Unit tests of the small shared helpers in common/util. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ks_hash.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_vectors),
		cmocka_unit_test(test_hash_ci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
