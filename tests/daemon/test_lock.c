/* test_lock.c: a daemon's lock on its local state (ks_daemon_lock()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_daemon.h"
#include "tmp_dir.h"

struct fix {
	char dir[256];
};

static int setup(void **state)
{
	static struct fix f;
	if (tmp_dir_make("test_lock", f.dir, sizeof(f.dir)))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	tmp_dir_remove(f->dir);
	return 0;
}

/* Runs ks_daemon_lock() in a child process (whose locks end with it):
 * its status, and its message in msg. */
static int lock_in_child(const char *path, bool dir, char *msg, size_t size)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ks_err err = {0};
		int rc = ks_daemon_lock(path, dir, "the test state", &err);
		if (write(p[1], err.msg, strlen(err.msg)) < 0)
			_exit(100);
		_exit(rc == 0 ? 0 : rc == KS_EEXIST ? 1 : 2);
	}
	close(p[1]);
	ssize_t n = read(p[0], msg, size - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* A file and its missing directories are made; a second holder is
 * refused with the path, the program and the pid of the first. */
static void test_file_held(void **state)
{
	struct fix *f = *state;
	char path[512], want[1024], msg[512];
	snprintf(path, sizeof(path), "%s/spool/q.log", f->dir);
	struct ks_err err = {0};
	assert_int_equal(ks_daemon_lock(path, false, "the test state", &err),
			 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(lock_in_child(path, false, msg, sizeof(msg)), 1);
	/* the program is this one's, test_lock (valgrind's when under it) */
	snprintf(want, sizeof(want),
		 "Can't get lock on \"%s\" (the test state): ", path);
	assert_memory_equal(msg, want, strlen(want));
	const char *prog = msg + strlen(want);
	assert_true(strncmp(prog, "test_lock ", 10) == 0 ||
		    strncmp(prog, "valgrind", 8) == 0);
	snprintf(want, sizeof(want),
		 " (pid %ld) holds it; stop that one first", (long)getpid());
	assert_string_equal(strstr(prog, " (pid "), want);
	/* a second open file of the same process is refused just the same */
	assert_int_equal(ks_daemon_lock(path, false, "the test state", &err),
			 KS_EEXIST);
}

/* A directory is locked as itself: nothing is added inside it. */
static void test_directory(void **state)
{
	struct fix *f = *state;
	char path[512], msg[512];
	snprintf(path, sizeof(path), "%s/a/execute", f->dir);
	assert_int_equal(lock_in_child(path, true, msg, sizeof(msg)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	struct ks_err err = {0};
	assert_int_equal(ks_daemon_lock(path, true, "the test state", &err),
			 0);
	assert_int_equal(lock_in_child(path, true, msg, sizeof(msg)), 1);
	char want[300];
	snprintf(want, sizeof(want), "(pid %ld) holds it", (long)getpid());
	assert_non_null(strstr(msg, want));
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", path);
	assert_int_equal(system(cmd), 0);
}

/* The lock ends with its holder, however it ends: the child's is free
 * once the child has gone. */
static void test_released_at_exit(void **state)
{
	struct fix *f = *state;
	char path[512], msg[512];
	snprintf(path, sizeof(path), "%s/acct.mdb", f->dir);
	assert_int_equal(lock_in_child(path, false, msg, sizeof(msg)), 0);
	assert_int_equal(lock_in_child(path, false, msg, sizeof(msg)), 0);
}

/* What cannot be opened is an I/O error that says what and why. */
static void test_cannot_open(void **state)
{
	struct fix *f = *state;
	char file[512], path[600];
	snprintf(file, sizeof(file), "%s/plain", f->dir);
	FILE *fp = fopen(file, "w");
	assert_non_null(fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/under", file);
	struct ks_err err = {0};
	assert_int_equal(ks_daemon_lock(path, false, "the test state", &err),
			 KS_EIO);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "the test state"));
	assert_non_null(strstr(err.msg, "Not a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_held),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_released_at_exit),
		cmocka_unit_test(test_cannot_open),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
