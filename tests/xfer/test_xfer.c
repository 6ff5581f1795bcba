/* Unit tests (cmocka) of common/xfer: base64, names, lists, files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_xfer.h"

static void test_b64_round_trip(void **state)
{
	(void)state;
	const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	const char *want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
			      "Zm9vYmE=", "Zm9vYmFy"};
	for (size_t i = 0; i < 7; i++) {
		char *e = ks_xfer_b64_encode((const unsigned char *)in[i],
					     strlen(in[i]));
		assert_string_equal(e, want[i]);
		unsigned char *d = NULL;
		size_t n = 0;
		assert_int_equal(ks_xfer_b64_decode(e, &d, &n, NULL), 0);
		assert_int_equal(n, strlen(in[i]));
		assert_memory_equal(d, in[i], n);
		free(d);
		free(e);
	}
}

static void test_b64_bad(void **state)
{
	(void)state;
	const char *bad[] = {"Zg=", "Z===", "Zm9v!", "=Zg=", "Zg==Zg==", "Zm=v"};
	for (size_t i = 0; i < 6; i++) {
		unsigned char *d = (unsigned char *)"x";
		size_t n = 9;
		struct ks_err err;
		assert_int_equal(ks_xfer_b64_decode(bad[i], &d, &n, &err),
				 KS_EPARSE);
		assert_null(d);
	}
}

static void test_names(void **state)
{
	(void)state;
	assert_true(ks_xfer_name_ok("a"));
	assert_true(ks_xfer_name_ok("d/e/f.txt"));
	assert_true(ks_xfer_name_ok("..a"));
	assert_false(ks_xfer_name_ok(""));
	assert_false(ks_xfer_name_ok("/etc/passwd"));
	assert_false(ks_xfer_name_ok("../x"));
	assert_false(ks_xfer_name_ok("a/../../x"));
	assert_false(ks_xfer_name_ok("a//b"));
	assert_false(ks_xfer_name_ok("a/"));
	assert_false(ks_xfer_name_ok("./a"));
	assert_false(ks_xfer_name_ok("a\nb"));
}

static void test_list(void **state)
{
	(void)state;
	char **items = NULL;
	size_t n = ks_xfer_list_split(" a.txt,b , c d/,,", &items);
	assert_int_equal(n, 4);
	assert_string_equal(items[0], "a.txt");
	assert_string_equal(items[1], "b");
	assert_string_equal(items[2], "c");
	assert_string_equal(items[3], "d/");
	ks_xfer_list_free(items, n);
	assert_int_equal(ks_xfer_list_split(NULL, &items), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_files(void **state)
{
	(void)state;
	char base[] = "/tmp/test_xfer.XXXXXX";
	assert_non_null(mkdtemp(base));
	char p[512], q[512];
	snprintf(p, sizeof(p), "%s/in", base);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/in/dir", base);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/in/dir/f.txt", base);
	put(p, "deep\n");
	snprintf(p, sizeof(p), "%s/in/x.sh", base);
	put(p, "#!/bin/sh\n");
	chmod(p, 0751);
	snprintf(p, sizeof(p), "%s/in/dir/link", base);
	assert_int_equal(symlink("/etc/passwd", p), 0);

	/* a directory whole, its contents, a file; links not followed */
	struct ks_xfer_set set = {.nofollow = true};
	snprintf(p, sizeof(p), "%s/in", base);
	assert_int_equal(ks_xfer_add_entry(&set, p, "dir", NULL, NULL), 0);
	assert_int_equal(ks_xfer_add_entry(&set, p, "dir/", NULL, NULL), 0);
	assert_int_equal(ks_xfer_add_entry(&set, p, "x.sh", NULL, NULL), 0);
	assert_int_equal(set.n, 3);
	char *n0 = ks_xfer_name(set.ads[0]);
	char *n1 = ks_xfer_name(set.ads[1]);
	char *n2 = ks_xfer_name(set.ads[2]);
	assert_string_equal(n0, "dir/f.txt");
	assert_string_equal(n1, "f.txt");
	assert_string_equal(n2, "x.sh");
	free(n0);
	free(n1);
	free(n2);
	assert_int_equal(set.bytes, 5 + 5 + 10);

	/* outside the base, and missing files, are refused */
	int eno = 0;
	struct ks_err err;
	assert_int_equal(ks_xfer_add_entry(&set, p, "../in/x.sh", &eno, &err),
			 KS_EIO);
	assert_int_equal(ks_xfer_add_entry(&set, p, "nope", &eno, &err),
			 KS_EIO);
	assert_int_equal(eno, 2);
	assert_non_null(strstr(err.msg, "(errno 2) No such file or directory"));

	/* written back with its mode */
	snprintf(q, sizeof(q), "%s/out/sub/x.sh", base);
	uint64_t w = 0;
	assert_int_equal(ks_xfer_write(set.ads[2], q, true, false, 0, 0, &w,
				       NULL, NULL), 0);
	assert_int_equal(w, 10);
	struct stat st;
	assert_int_equal(stat(q, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0751);

	/* the limit */
	struct ks_xfer_set small = {.limit = 8};
	assert_int_equal(ks_xfer_add_entry(&small, p, "x.sh", &eno, &err),
			 KS_ERANGE);
	ks_xfer_set_free(&small);
	ks_xfer_set_free(&set);
	assert_int_equal(ks_xfer_remove_tree(base), 0);
	assert_int_not_equal(access(base, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b64_round_trip),
		cmocka_unit_test(test_b64_bad),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
