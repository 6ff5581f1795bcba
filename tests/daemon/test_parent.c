/* test_parent.c: a daemon ends with the master that started it
 * (parent.c): CONDOR_INHERIT read and dropped, a fast shutdown once that
 * process has died (a zombie nobody reaped included), through a pidfd
 * and, where pidfd_open is refused, through the poll. */
#define _GNU_SOURCE /* setenv */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cmocka.h>

#include "daemon_int.h"

struct seen {
	int shutdowns;
	bool fast;
};

static void on_shutdown(ks_daemon *d, bool fast)
{
	struct seen *s = d->ctx;
	s->shutdowns++;
	s->fast = fast;
	ks_daemon_exit(d);
}

static void give_up(void *arg)
{
	ks_loop_stop(arg);
}

/* A stand-in for the master: a child that waits to be killed. */
static pid_t fake_master(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

/* A daemon of subsys with just what parent.c uses. */
static void daemon_init(ks_daemon *d, struct ks_daemon_priv *p,
			struct seen *s, const char *subsys)
{
	static const struct ks_daemon_ops ops = {.shutdown = on_shutdown};
	*d = (ks_daemon){.subsys = subsys, .ops = &ops, .ctx = s, .priv = p};
	*p = (struct ks_daemon_priv){.parent_fd = -1};
	*s = (struct seen){0};
	d->loop = ks_loop_new();
}

/* The whole story, for a process of its own: the master named in
 * CONDOR_INHERIT dies (left a zombie), the daemon shuts down fast.  Its
 * exit status: 0, or what went wrong. */
static int story(void)
{
	ks_daemon d;
	struct ks_daemon_priv p;
	struct seen s;
	daemon_init(&d, &p, &s, "SCHEDD");
	pid_t m = fake_master();
	char v[64];
	snprintf(v, sizeof(v), "%ld <127.0.0.1:9618>", (long)m);
	setenv("CONDOR_INHERIT", v, 1);
	kd_parent_read(&d);
	if (p.parent != m)
		return 2;
	if (getenv("CONDOR_INHERIT"))
		return 3;
	kd_parent_watch(&d);
	kill(m, SIGKILL);
	/* (the bound only ends a failing run) */
	ks_loop_timer(d.loop, 20000, 0, give_up, d.loop);
	ks_loop_run(d.loop);
	int rc = s.shutdowns == 1 && s.fast ? 0 : 4;
	kd_parent_stop(&d);
	ks_loop_free(d.loop);
	waitpid(m, NULL, 0);
	return rc;
}

static int run_story(bool without_pidfd)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (without_pidfd) {
#ifdef SYS_pidfd_open
			/* pidfd_open fails as on a kernel without it */
			struct sock_filter f[] = {
				BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					 offsetof(struct seccomp_data, nr)),
				BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					 SYS_pidfd_open, 0, 1),
				BPF_STMT(BPF_RET | BPF_K,
					 SECCOMP_RET_ERRNO | ENOSYS),
				BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			};
			struct sock_fprog prog = {
				.len = sizeof(f) / sizeof(f[0]), .filter = f};
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
			    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
				  &prog) != 0)
				_exit(5);
			if (syscall(SYS_pidfd_open, getpid(), 0) >= 0 ||
			    errno != ENOSYS)
				_exit(6);
#endif
		}
		_exit(story());
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_pidfd(void **state)
{
	(void)state;
	assert_int_equal(run_story(false), 0);
}

static void test_poll(void **state)
{
	(void)state;
	assert_int_equal(run_story(true), 0);
}

/* A malformed CONDOR_INHERIT names nobody, and goes all the same. */
static void test_malformed(void **state)
{
	(void)state;
	const char *bad[] = {"", "x 1", "1", "-5 <a>", "12x <a>"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ks_daemon d;
		struct ks_daemon_priv p;
		struct seen s;
		daemon_init(&d, &p, &s, "STARTD");
		setenv("CONDOR_INHERIT", bad[i], 1);
		kd_parent_read(&d);
		assert_int_equal(p.parent, 0);
		assert_null(getenv("CONDOR_INHERIT"));
		kd_parent_watch(&d);
		assert_int_equal(p.parent_fd, -1);
		assert_int_equal(p.parent_timer, 0);
		ks_loop_free(d.loop);
	}
}

/* The master watches no parent, as in HTCondor; nor does a daemon
 * started by hand. */
static void test_not_watched(void **state)
{
	(void)state;
	ks_daemon d;
	struct ks_daemon_priv p;
	struct seen s;
	daemon_init(&d, &p, &s, "MASTER");
	char v[64];
	snprintf(v, sizeof(v), "%ld <127.0.0.1:9618>", (long)getppid());
	setenv("CONDOR_INHERIT", v, 1);
	kd_parent_read(&d);
	kd_parent_watch(&d);
	assert_int_equal(p.parent_fd, -1);
	assert_int_equal(p.parent_timer, 0);
	ks_loop_free(d.loop);
	daemon_init(&d, &p, &s, "SCHEDD");
	unsetenv("CONDOR_INHERIT");
	kd_parent_read(&d);
	kd_parent_watch(&d);
	assert_int_equal(p.parent_fd, -1);
	assert_int_equal(p.parent_timer, 0);
	ks_loop_free(d.loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pidfd),
		cmocka_unit_test(test_poll),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_not_watched),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
