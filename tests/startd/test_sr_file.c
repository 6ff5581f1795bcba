/* test_sr_file.c: small files written whole or not at all, and read back
 * within a bound (startd/starter/sr_file.h): a claim's record and a job's
 * result, which a startd that comes after a crash reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sr_file.h"

struct fx {
	char dir[64];
	char path[128];
	char tmp[160];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/ks_sr_file.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/.result_slot1_1_2_3",
		 fx->dir);
	snprintf(fx->tmp, sizeof(fx->tmp), "%s.tmp", fx->path);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	unlink(fx->path);
	unlink(fx->tmp);
	char other[160];
	snprintf(other, sizeof(other), "%s/other", fx->dir);
	unlink(other);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void test_replace(void **state)
{
	struct fx *fx = *state;
	struct ks_err err;
	assert_int_equal(sr_file_replace(fx->path, "A = 1\n", 6, false, 0, 0,
					 &err), 0);
	struct stat st;
	assert_int_equal(stat(fx->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(access(fx->tmp, F_OK), -1);
	/* a second write replaces the first whole */
	assert_int_equal(sr_file_replace(fx->path, "B = 2\n", 6, false, 0, 0,
					 &err), 0);
	size_t len = 0;
	char *text = sr_file_read(fx->path, 100, &len);
	assert_non_null(text);
	assert_int_equal(len, 6);
	assert_string_equal(text, "B = 2\n");
	free(text);
}

static void test_tmp_link_not_followed(void **state)
{
	struct fx *fx = *state;
	char other[160];
	snprintf(other, sizeof(other), "%s/other", fx->dir);
	FILE *f = fopen(other, "w");
	assert_non_null(f);
	fputs("keep", f);
	fclose(f);
	assert_int_equal(symlink(other, fx->tmp), 0);
	struct ks_err err;
	assert_int_not_equal(sr_file_replace(fx->path, "x", 1, false, 0, 0,
					     &err), 0);
	assert_non_null(strstr(err.msg, fx->path));
	char *text = sr_file_read(other, 100, NULL);
	assert_string_equal(text, "keep");
	free(text);
	/* and the file named is not there: whole or not at all */
	assert_int_equal(access(fx->path, F_OK), -1);
	unlink(fx->tmp);
}

static void test_read_bounds(void **state)
{
	struct fx *fx = *state;
	struct ks_err err;
	assert_int_equal(sr_file_replace(fx->path, "0123456789", 10, false, 0,
					 0, &err), 0);
	errno = 0;
	assert_null(sr_file_read(fx->path, 9, NULL));
	assert_int_equal(errno, EFBIG);
	char *text = sr_file_read(fx->path, 10, NULL);
	assert_string_equal(text, "0123456789");
	free(text);
	/* a directory, a link, nothing at all */
	errno = 0;
	assert_null(sr_file_read(fx->dir, 100, NULL));
	assert_int_equal(errno, EINVAL);
	char link[160];
	snprintf(link, sizeof(link), "%s/other", fx->dir);
	assert_int_equal(symlink(fx->path, link), 0);
	assert_null(sr_file_read(link, 100, NULL));
	errno = 0;
	assert_null(sr_file_read(fx->tmp, 100, NULL));
	assert_int_equal(errno, ENOENT);
}

static void test_unwritable(void **state)
{
	(void)state;
	struct ks_err err;
	assert_int_not_equal(sr_file_replace("/nonexistent/dir/f", "x", 1,
					     false, 0, 0, &err), 0);
	assert_non_null(strstr(err.msg, "cannot write /nonexistent/dir/f"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmp_link_not_followed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_bounds, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unwritable, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
