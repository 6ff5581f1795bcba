/*
 * test_classad_match.c: the matchmaking API -- both Requirements, each
 * side's Rank, reuse of one match for many pairs.
 */
#include "test_util.h"

static void test_match(void **state)
{
	(void)state;
	classad *job = tu_ad("[Owner = \"u\"; RequestMemory = 2048; "
			     "Requirements = TARGET.Memory >= RequestMemory; "
			     "Rank = TARGET.Mips]");
	classad *big = tu_ad("[Memory = 4096; Mips = 3000; "
			     "Requirements = Owner == \"u\"; Rank = 7]");
	classad *small = tu_ad("[Memory = 1024; Mips = 9000; "
			       "Requirements = true]");
	classad_match *m = classad_match_new(job, big, NULL);
	assert_true(classad_match_symmetric(m));
	assert_true(classad_match_left_matches_right(m));
	assert_true(classad_match_right_matches_left(m));
	classad_value v = CLASSAD_VALUE_INIT;
	assert_int_equal(classad_match_rank(m, CLASSAD_LEFT, &v), 0);
	assert_string_equal(tu_describe(&v), "integer 3000");
	classad_match_rank(m, CLASSAD_RIGHT, &v);
	assert_string_equal(tu_describe(&v), "integer 7");
	classad_match_eval_attr(m, CLASSAD_RIGHT, "RequestMemory", &v);
	assert_string_equal(tu_describe(&v), "integer 2048");

	classad_match_set(m, job, small);
	assert_false(classad_match_symmetric(m));
	assert_true(classad_match_left_matches_right(m));
	assert_false(classad_match_right_matches_left(m));
	classad_match_rank(m, CLASSAD_RIGHT, &v);
	assert_string_equal(tu_describe(&v), "undefined undefined");

	/* The match keeps its ads alive. */
	classad_free(small);
	assert_false(classad_match_symmetric(m));
	classad_match_set(m, NULL, NULL);
	assert_false(classad_match_symmetric(m));
	classad_match_free(m);

	/* A value taken from a match keeps it alive too. */
	m = classad_match_new(job, big, NULL);
	classad_expr *e = classad_parse_expr("TARGET", 6, NULL);
	classad_match_eval(m, CLASSAD_LEFT, e, &v);
	classad_match_free(m);
	assert_non_null(classad_value_ad(&v));
	assert_non_null(classad_lookup(classad_value_ad(&v), "Mips"));
	classad_value_clear(&v);
	classad_expr_free(e);
	classad_free(job);
	classad_free(big);
}

/* Requirements that are not booleans: numbers count, strings do not. */
static void test_requirement_values(void **state)
{
	(void)state;
	const char *reqs[][2] = {
		{"1", "true"}, {"0", "false"}, {"2.5", "true"},
		{"\"yes\"", "false"}, {"undefined", "false"}, {"error", "false"},
	};
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		char text[64];
		snprintf(text, sizeof(text), "[Requirements = %s]", reqs[i][0]);
		classad *l = tu_ad(text), *r = tu_ad("[Requirements = true]");
		classad_match *m = classad_match_new(l, r, NULL);
		assert_int_equal(classad_match_right_matches_left(m),
				 !strcmp(reqs[i][1], "true"));
		classad_match_free(m);
		classad_free(l);
		classad_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_requirement_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
