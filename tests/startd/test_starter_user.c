/* test_starter_user.c: the job's account as the startd hands it to the
 * starter (ks_jobad_user_format / ks_jobad_user_parse in
 * common/jobad/ks_jobad.h), and the choice itself for the account these
 * tests run under. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_jobad.h"

static void test_round_trip(void **state)
{
	(void)state;
	gid_t groups[] = {1000, 27, 100};
	struct ks_jobad_user u = {.uid = 1000, .gid = 1000, .name = "alice",
			    .home = "/home/odd:name", .groups = groups,
			    .ngroups = 3, .switch_to = true,
			    .why = KS_JOBAD_USER_OWNER};
	char *spec = ks_jobad_user_format(&u);
	assert_string_equal(spec, "0:1000:1000:1000,27,100:alice:"
				  "/home/odd:name");
	struct ks_jobad_user v;
	struct ks_err err;
	assert_int_equal(ks_jobad_user_parse(spec, "alice", &v, &err), 0);
	assert_int_equal(v.uid, 1000);
	assert_int_equal(v.gid, 1000);
	assert_string_equal(v.name, "alice");
	assert_string_equal(v.home, "/home/odd:name");
	assert_int_equal(v.ngroups, 3);
	assert_int_equal(v.groups[1], 27);
	assert_true(v.switch_to);
	assert_null(v.note);
	ks_jobad_user_free(&v);
	free(spec);
}

static void test_notes(void **state)
{
	(void)state;
	struct ks_jobad_user v;
	struct ks_err err;
	assert_int_equal(ks_jobad_user_parse("2:65534:65534:65534:nobody:/",
					     "root", &v, &err), 0);
	assert_non_null(strstr(v.note, "Owner root is root"));
	assert_string_equal(v.name, "nobody");
	ks_jobad_user_free(&v);
	assert_int_equal(ks_jobad_user_parse("3:65534:65534::nobody:/", "ghost",
					     &v, &err), 0);
	assert_non_null(strstr(v.note, "Owner ghost has no account"));
	assert_int_equal(v.ngroups, 0);
	ks_jobad_user_free(&v);
	assert_int_equal(ks_jobad_user_parse("4:65534:65534::nobody:/", NULL,
					     &v, &err), 0);
	assert_non_null(strstr(v.note, "names no Owner"));
	ks_jobad_user_free(&v);
	/* a non-root starter's own account: no change of user */
	assert_int_equal(ks_jobad_user_parse("1:0:0::root:/root", NULL, &v,
					     &err),
			 0);
	assert_false(v.switch_to);
	ks_jobad_user_free(&v);
}

static void test_bad(void **state)
{
	(void)state;
	const char *bad[] = {
		"", "x", "0", "0:1000", "0:1000:1000", "0:1000:1000:",
		"0:1000:1000::alice",	     /* no home */
		"0:1000:1000::alice:",	     /* empty home */
		"0:1000:1000:::/home",	     /* empty name */
		"5:1000:1000::alice:/h",     /* no such why */
		"0:-1:1000::alice:/h",	     /* negative uid */
		"0:1000:1000:7,:alice:/h",   /* a comma and no group */
		"0:1000:1000:7;8:alice:/h",  /* not a comma */
		"0:0:0::root:/root",	     /* a job never runs as root */
		"0:4294967295:1:1:a:/h",     /* (uid_t)-1 */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct ks_jobad_user v;
		struct ks_err err;
		if (ks_jobad_user_parse(bad[i], "alice", &v, &err) == 0)
			fail_msg("'%s' was accepted", bad[i]);
		assert_int_equal(err.code, KS_EPARSE);
		assert_non_null(strstr(err.msg, bad[i]));
		assert_null(v.name);
	}
}

/* The choice, under whatever account runs the tests: its format parses
 * back to the same account. */
static void test_pick(void **state)
{
	(void)state;
	struct ks_jobad_user u, v;
	struct ks_err err;
	assert_int_equal(ks_jobad_user_pick("root", &u, &err), 0);
	if (geteuid() == 0) {
		/* root's jobs run as nobody, with nobody's groups */
		assert_int_equal(u.why, KS_JOBAD_USER_ROOT);
		assert_string_equal(u.name, "nobody");
		assert_true(u.switch_to);
		assert_true(u.ngroups >= 1);
		assert_non_null(u.note);
	} else {
		assert_int_equal(u.why, KS_JOBAD_USER_SELF);
		assert_int_equal(u.uid, geteuid());
		assert_false(u.switch_to);
	}
	char *spec = ks_jobad_user_format(&u);
	assert_int_equal(ks_jobad_user_parse(spec, "root", &v, &err), 0);
	assert_int_equal(v.uid, u.uid);
	assert_int_equal(v.gid, u.gid);
	assert_int_equal(v.ngroups, u.ngroups);
	assert_string_equal(v.name, u.name);
	assert_string_equal(v.home, u.home);
	if (u.note)
		assert_string_equal(v.note, u.note);
	free(spec);
	ks_jobad_user_free(&u);
	ks_jobad_user_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
