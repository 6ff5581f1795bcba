/* test_store.c: the collector's ad table (collector/store.h): after any
 * mix of puts and removals every key still finds its own entry, removed
 * keys find nothing, and types are shared and let go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store.h"

static char *key_of(int i)
{
	char *k = malloc(32);
	snprintf(k, 32, "machine\nslot%d@host", i);
	return k;
}

static void test_put_remove(void **state)
{
	(void)state;
	cs_store *s = cs_store_new();
	enum { N = 5000 };
	bool live[N] = {false};
	uint32_t rng = 12345;
	for (int round = 0; round < 40000; round++) {
		rng = rng * 1103515245u + 12345u;
		int i = (int)((rng >> 8) % N);
		if ((rng >> 4) & 1) {
			classad *ad = classad_new();
			classad_insert_int(ad, "I", i);
			cs_store_put(s, key_of(i), "Machine", ad, 0);
			live[i] = true;
		} else {
			char *k = key_of(i);
			assert_int_equal(cs_store_remove(s, k), live[i]);
			free(k);
			live[i] = false;
		}
	}
	size_t n = 0;
	for (int i = 0; i < N; i++) {
		char *k = key_of(i);
		struct cs_entry *e = cs_store_find(s, k);
		free(k);
		assert_int_equal(e != NULL, live[i]);
		if (e) {
			int64_t v = -1;
			assert_true(classad_eval_int(e->ad, "I", NULL, &v));
			assert_int_equal(v, i);
			n++;
		}
	}
	assert_int_equal(cs_store_count(s), n);
	assert_non_null(cs_store_type(s, "machine"));
	/* removing by position, from the end, as a sweep does */
	for (size_t j = cs_store_count(s); j-- > 0;)
		cs_store_remove_at(s, j);
	assert_int_equal(cs_store_count(s), 0);
	assert_null(cs_store_type(s, "Machine"));
	cs_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_remove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
