/* test_passwd_files.c: the statically linked starter's account lookups
 * (common/util/ks_passwd_files.c) agree with the system's name service
 * on the accounts of /etc/passwd and their groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_passwd.h"

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;
	return x < y ? -1 : x > y;
}

/* name's account and groups, by name and by uid, against glibc's */
static void check(const char *name)
{
	struct passwd *p = getpwnam(name);
	assert_non_null(p);
	uid_t uid = p->pw_uid;
	gid_t gid = p->pw_gid;
	char *home = strdup(*p->pw_dir ? p->pw_dir : "/");
	struct ks_passwd pw;
	assert_int_equal(ks_passwd_by_name(name, &pw), 0);
	assert_int_equal(pw.uid, uid);
	assert_int_equal(pw.gid, gid);
	assert_string_equal(pw.name, name);
	assert_string_equal(pw.home, home);
	ks_passwd_clear(&pw);
	assert_null(pw.name);
	/* the first entry with the uid: glibc's answer too */
	p = getpwuid(uid);
	assert_int_equal(ks_passwd_by_uid(uid, &pw), 0);
	assert_string_equal(pw.name, p->pw_name);
	ks_passwd_clear(&pw);

	gid_t *got;
	int n = ks_passwd_groups(name, gid, &got);
	assert_true(n >= 1);
	assert_int_equal(got[0], gid);
	int m = 64;
	gid_t want[64];
	assert_true(getgrouplist(name, gid, want, &m) >= 0);
	assert_int_equal(n, m);
	qsort(got, (size_t)n, sizeof(gid_t), cmp_gid);
	qsort(want, (size_t)m, sizeof(gid_t), cmp_gid);
	assert_memory_equal(got, want, sizeof(gid_t) * (size_t)n);
	free(got);
	free(home);
}

static void test_accounts(void **state)
{
	(void)state;
	check("root");
	if (getpwnam("nobody"))
		check("nobody");
	struct passwd *me = getpwuid(getuid());
	if (me)
		check(me->pw_name);
}

static void test_missing(void **state)
{
	(void)state;
	struct ks_passwd pw = {0};
	assert_int_equal(ks_passwd_by_name("no_such_account_ks", &pw), -1);
	assert_int_equal(ks_passwd_by_name("", &pw), -1);
	assert_int_equal(ks_passwd_by_uid((uid_t)4000000123u, &pw), -1);
	assert_null(pw.name);
	/* an account with no entry still has its own group */
	gid_t *g;
	assert_int_equal(ks_passwd_groups("no_such_account_ks", 4321, &g), 1);
	assert_int_equal(g[0], 4321);
	free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accounts),
		cmocka_unit_test(test_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
