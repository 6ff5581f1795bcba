/* Unit tests of the daemon log (common/log). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "config.h"
#include "ks_log.h"
#include "log_int.h"

/* ---- helpers ---- */

struct fixture {
	char dir[256];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx || tmp_dir_make("kslog", fx->dir, sizeof(fx->dir))) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	tmp_dir_remove(fx->dir);
	free(fx);
	return 0;
}

/* A configuration of subsystem subsys with LOG = the test's directory,
 * then text. */
static ks_config *cfg_of(const struct fixture *fx, const char *subsys,
			 const char *text)
{
	ks_config *cfg = ks_config_new(subsys, NULL);
	char buf[4096];
	snprintf(buf, sizeof(buf), "LOG = %s\n%s", fx->dir, text);
	struct ks_err err;
	if (ks_config_read_text(cfg, "test.conf", buf, strlen(buf), &err))
		fail_msg("config error: %s", err.msg);
	return cfg;
}

static ks_log *open_log(const struct fixture *fx, const char *subsys,
			const char *text)
{
	ks_config *cfg = cfg_of(fx, subsys, text);
	struct ks_err err;
	ks_err_clear(&err);
	ks_log *log = ks_log_open(cfg, subsys, false, &err);
	if (!log)
		fail_msg("ks_log_open: %s", err.msg);
	ks_config_free(cfg);
	return log;
}

static char *path_in(const struct fixture *fx, const char *name)
{
	static char p[512];
	snprintf(p, sizeof(p), "%s/%s", fx->dir, name);
	return p;
}

/* The whole file (a new string), or NULL if it does not exist. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void assert_matches(const char *text, const char *pattern)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE))
		fail_msg("bad pattern %s", pattern);
	int rc = regexec(&re, text, 0, NULL, 0);
	regfree(&re);
	if (rc)
		fail_msg("'%s' does not match /%s/", text, pattern);
}

static int count_lines(const char *text)
{
	int n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static bool contains(const char *text, const char *what)
{
	return text && strstr(text, what) != NULL;
}

#define TS "[0-9]{2}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} "

/* Runs fn with standard error sent to a file; returns what was written. */
static char *capture_stderr(const struct fixture *fx, void (*fn)(void *),
			    void *arg)
{
	char *p = path_in(fx, "stderr.txt");
	char path[512];
	snprintf(path, sizeof(path), "%s", p);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	char *out = slurp(path);
	unlink(path);
	return out;
}

/* ---- line format ---- */

static void test_line_format(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "");
	assert_string_equal(ks_log_path(log), path_in(fx, "CollectorLog"));
	ks_log_printf(log, KS_D_ALWAYS, "hello %d", 42);
	ks_log_printf(log, KS_D_ALWAYS, "with newline\n");
	ks_log_printf(log, KS_D_ALWAYS, "first\nsecond");
	ks_log_printf(log, KS_D_ALWAYS, "%s", "");
	ks_log_close(log);

	char *text = slurp(path_in(fx, "CollectorLog"));
	assert_non_null(text);
	assert_matches(text, "^" TS "hello 42\n" TS "with newline\n" TS
			     "first\nsecond\n" TS "\n$");
	assert_int_equal(count_lines(text), 5);
	free(text);
}

static void test_long_message(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "");
	char big[6000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ks_log_printf(log, KS_D_ALWAYS, "<%s>", big);
	ks_log_close(log);
	char *text = slurp(path_in(fx, "CollectorLog"));
	assert_int_equal(strlen(text), 18 + 2 + sizeof(big) - 1 + 1);
	assert_matches(text, "^" TS "<x+>\n$");
	free(text);
}

static void test_time_formats(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR",
			       "DEBUG_TIME_FORMAT = \"%Y-%m\"\n");
	ks_log_printf(log, KS_D_ALWAYS, "quoted");
	ks_log_close(log);
	char *text = slurp(path_in(fx, "CollectorLog"));
	assert_matches(text, "^[0-9]{4}-[0-9]{2} quoted\n$");
	free(text);
	unlink(path_in(fx, "CollectorLog"));

	log = open_log(fx, "COLLECTOR", "LOGS_USE_TIMESTAMP = true\n");
	ks_log_printf(log, KS_D_ALWAYS, "unix");
	ks_log_close(log);
	text = slurp(path_in(fx, "CollectorLog"));
	assert_matches(text, "^[0-9]{9,} unix\n$");
	free(text);
	unlink(path_in(fx, "CollectorLog"));

	log = open_log(fx, "COLLECTOR", "COLLECTOR_DEBUG = D_SUB_SECOND\n");
	ks_log_printf(log, KS_D_ALWAYS, "millis");
	ks_log_close(log);
	text = slurp(path_in(fx, "CollectorLog"));
	assert_matches(text, "^[0-9/]{8} [0-9:]{8}\\.[0-9]{3} millis\n$");
	free(text);
}

/* ---- file names ---- */

static void test_default_names(void **state)
{
	struct fixture *fx = *state;
	static const char *const names[][2] = {
		{"MASTER", "MasterLog"},     {"COLLECTOR", "CollectorLog"},
		{"NEGOTIATOR", "NegotiatorLog"}, {"SCHEDD", "SchedLog"},
		{"STARTD", "StartLog"},      {"STARTER", "StarterLog"},
		{"SHARED_PORT", "SharedPortLog"}, {"MY_TOOL", "MyToolLog"},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ks_log *log = open_log(fx, names[i][0], "");
		assert_string_equal(ks_log_path(log),
				    path_in(fx, names[i][1]));
		assert_true(exists(path_in(fx, names[i][1])));
		ks_log_close(log);
	}

	ks_log *log = open_log(fx, "COLLECTOR",
			       "COLLECTOR_LOG = $(LOG)/mine.log\n");
	assert_string_equal(ks_log_path(log), path_in(fx, "mine.log"));
	ks_log_printf(log, KS_D_ALWAYS, "here");
	ks_log_close(log);
	char *text = slurp(path_in(fx, "mine.log"));
	assert_true(contains(text, "here"));
	free(text);
}

static void test_missing_directory(void **state)
{
	struct fixture *fx = *state;
	ks_config *cfg =
		cfg_of(fx, "COLLECTOR", "COLLECTOR_LOG = $(LOG)/nope/CollectorLog\n");
	struct ks_err err;
	ks_err_clear(&err);
	assert_null(ks_log_open(cfg, "COLLECTOR", false, &err));
	assert_int_equal(err.code, KS_EIO);
	assert_true(contains(err.msg, path_in(fx, "nope/CollectorLog")));
	assert_true(contains(err.msg, strerror(ENOENT)));
	ks_config_free(cfg);
}

static void test_bad_sizes(void **state)
{
	struct fixture *fx = *state;
	static const char *const bad[] = {
		"MAX_COLLECTOR_LOG = lots\n",
		"MAX_COLLECTOR_LOG = -5\n",
		"MAX_COLLECTOR_LOG = 10m\n", /* minutes: rotation by time */
		"MAX_NUM_COLLECTOR_LOG = many\n",
		"MAX_DEFAULT_LOG = 3 Mb please\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ks_config *cfg = cfg_of(fx, "COLLECTOR", bad[i]);
		struct ks_err err;
		ks_err_clear(&err);
		ks_log *log = ks_log_open(cfg, "COLLECTOR", false, &err);
		if (log)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(err.code, KS_EINVAL);
		ks_config_free(cfg);
	}
}

static void test_parse_size(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		long long value;
		bool time;
	} ok[] = {
		{"10 Mb", 10LL << 20, false}, {"10M", 10LL << 20, false},
		{"10MiB", 10LL << 20, false}, {"1 Kb", 1024, false},
		{"2gb", 2LL << 30, false},    {"1 Tb", 1LL << 40, false},
		{"77", 77, false},            {" 5 bytes ", 5, false},
		{"10m", 600, true},           {"3 Min", 180, true},
		{"2 Hr", 7200, true},         {"1 day", 86400, true},
		{"1wk", 604800, true},        {"30 sec", 30, true},
		{"0", 0, false},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		long long v;
		bool t;
		if (!kl_parse_size(ok[i].text, &v, &t))
			fail_msg("rejected '%s'", ok[i].text);
		assert_int_equal(v, ok[i].value);
		assert_int_equal(t, ok[i].time);
	}
	static const char *const bad[] = {"", "  ", "Mb", "-1", "10 Mx",
					  "10 Mb 3"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long long v;
		bool t;
		if (kl_parse_size(bad[i], &v, &t))
			fail_msg("accepted '%s'", bad[i]);
	}
}

/* ---- categories ---- */

static void write_all_kinds(ks_log *log)
{
	ks_log_printf(log, KS_D_ALWAYS, "always");
	ks_log_printf(log, KS_D_ERROR, "error");
	ks_log_printf(log, KS_D_STATUS, "status");
	ks_log_printf(log, KS_D_FULLDEBUG, "fulldebug");
	ks_log_printf(log, KS_D_COMMAND, "command");
	ks_log_printf(log, KS_D_NETWORK, "network");
	ks_log_printf(log, KS_D_NETWORK | KS_D_FULLDEBUG, "verbose-network");
	ks_log_printf(log, KS_D_SECURITY, "security");
	ks_log_printf(log, KS_D_MATCH, "match");
	ks_log_printf(log, KS_D_TEST, "test");
}

/* Which of write_all_kinds()'s messages a configuration lets through. */
static char *kinds_written(const struct fixture *fx, const char *text)
{
	ks_log *log = open_log(fx, "COLLECTOR", text);
	write_all_kinds(log);
	ks_log_close(log);
	char *got = slurp(path_in(fx, "CollectorLog"));
	unlink(path_in(fx, "CollectorLog"));
	/* Keep only the message words, one per line. */
	char *out = calloc(1, strlen(got) + 1);
	for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n")) {
		char *word = strrchr(line, ' ');
		strcat(out, word ? word + 1 : line);
		strcat(out, " ");
	}
	free(got);
	return out;
}

static void expect_kinds(const struct fixture *fx, const char *text,
			 const char *want)
{
	char *got = kinds_written(fx, text);
	if (strcmp(got, want) != 0)
		fail_msg("with '%s': got '%s', want '%s'", text, got, want);
	free(got);
}

static void test_categories(void **state)
{
	struct fixture *fx = *state;
	expect_kinds(fx, "", "always error status ");
	expect_kinds(fx, "COLLECTOR_DEBUG = D_COMMAND\n",
		     "always error status command ");
	expect_kinds(fx, "COLLECTOR_DEBUG = D_COMMAND,D_NETWORK|D_TEST\n",
		     "always error status command network test ");
	expect_kinds(fx, "COLLECTOR_DEBUG = d_command D_BOGUS D_NETWORK:2\n",
		     "always error status command network verbose-network ");
	/* ALL_DEBUG and <SUBSYS>_DEBUG add up. */
	expect_kinds(fx, "ALL_DEBUG = D_MATCH\nCOLLECTOR_DEBUG = D_SECURITY\n",
		     "always error status security match ");
	/* :0 withdraws verbosity only, as in HTCondor. */
	expect_kinds(fx, "ALL_DEBUG = D_NETWORK:2\nCOLLECTOR_DEBUG = D_NETWORK:0\n",
		     "always error status network ");
	expect_kinds(fx, "COLLECTOR_DEBUG = D_FULLDEBUG\n",
		     "always error status fulldebug ");
	expect_kinds(fx, "COLLECTOR_DEBUG = D_ALWAYS:2\n",
		     "always error status fulldebug ");
	/* D_ANY is every category at verbosity 1; D_FULLDEBUG lines are
	 * verbosity 2. */
	expect_kinds(fx, "COLLECTOR_DEBUG = D_ANY\n",
		     "always error status command network security match test ");
	expect_kinds(fx, "COLLECTOR_DEBUG = D_ANY:2\n",
		     "always error status fulldebug command network "
		     "verbose-network security match test ");
}

static void test_enabled(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR",
			       "COLLECTOR_DEBUG = D_COMMAND D_SECURITY:2\n");
	assert_true(ks_log_enabled(log, KS_D_ALWAYS));
	assert_true(ks_log_enabled(log, KS_D_ERROR));
	assert_true(ks_log_enabled(log, KS_D_COMMAND));
	assert_false(ks_log_enabled(log, KS_D_COMMAND | KS_D_FULLDEBUG));
	assert_true(ks_log_enabled(log, KS_D_SECURITY | KS_D_FULLDEBUG));
	assert_false(ks_log_enabled(log, KS_D_FULLDEBUG));
	assert_false(ks_log_enabled(log, KS_D_MATCH));
	ks_log_close(log);

	assert_true(ks_log_enabled(NULL, KS_D_ALWAYS));
	assert_true(ks_log_enabled(NULL, KS_D_STATUS));
	assert_false(ks_log_enabled(NULL, KS_D_COMMAND));
	assert_false(ks_log_enabled(NULL, KS_D_FULLDEBUG));
}

static void test_header_options(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR",
			       "COLLECTOR_DEBUG = D_FULLDEBUG D_SECURITY:2 "
			       "D_PID D_CAT\n");
	ks_log_printf(log, KS_D_ALWAYS, "a");
	ks_log_printf(log, KS_D_FULLDEBUG, "b");
	ks_log_printf(log, KS_D_STATUS, "c");
	ks_log_printf(log, KS_D_SECURITY | KS_D_FULLDEBUG, "d");
	ks_log_printf(log, KS_D_ERROR, "e");
	ks_log_close(log);
	char *text = slurp(path_in(fx, "CollectorLog"));
	char want[512];
	snprintf(want, sizeof(want),
		 "^" TS "\\(pid:%d\\) \\(D_ALWAYS\\) a\n"
		 TS "\\(pid:%d\\) \\(D_ALWAYS:2\\) b\n"
		 TS "\\(pid:%d\\) \\(D_ALWAYS\\) c\n"
		 TS "\\(pid:%d\\) \\(D_SECURITY:2\\) d\n"
		 TS "\\(pid:%d\\) \\(D_ERROR\\) e\n$",
		 (int)getpid(), (int)getpid(), (int)getpid(), (int)getpid(),
		 (int)getpid());
	assert_matches(text, want);
	free(text);
	unlink(path_in(fx, "CollectorLog"));

	/* D_ALL: everything, with fd, pid and category. */
	log = open_log(fx, "COLLECTOR", "ALL_DEBUG = D_ALL\n");
	ks_log_printf(log, KS_D_COMMAND, "cmd");
	ks_log_close(log);
	text = slurp(path_in(fx, "CollectorLog"));
	snprintf(want, sizeof(want),
		 "^" TS "\\(fd:[0-9]+\\) \\(pid:%d\\) \\(D_COMMAND\\) cmd\n$",
		 (int)getpid());
	assert_matches(text, want);
	free(text);
}

/* ---- rotation ---- */

/* One line of exactly 60 bytes with the default header. */
static void line60(ks_log *log, int i)
{
	ks_log_printf(log, KS_D_ALWAYS, "line %02d %033d", i, 0);
}

static void test_rotation(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "MAX_COLLECTOR_LOG = 200\n");
	char *cur = strdup(path_in(fx, "CollectorLog"));
	char *old = strdup(path_in(fx, "CollectorLog.old"));
	for (int i = 1; i <= 4; i++)
		line60(log, i);
	/* 240 bytes: past the limit, but rotation waits for the next line. */
	assert_int_equal(file_size(cur), 240);
	assert_false(exists(old));
	line60(log, 5);
	assert_true(exists(old));

	char *o = slurp(old), *c = slurp(cur);
	assert_matches(o, "^(" TS "line 0[1-4] 0+\n){4}" TS
			  "MaxLog = 200 bytes, length = 240\n" TS
			  "Saving log file to \"[^\"]*CollectorLog.old\"\n$");
	assert_matches(c, "^" TS "Now in new log file [^\n]*CollectorLog\n" TS
			  "line 05 0+\n$");
	free(o);
	free(c);

	/* Again: the previous .old is replaced, only one is kept. */
	for (int i = 6; i <= 10; i++)
		line60(log, i);
	o = slurp(old);
	assert_true(contains(o, "line 05"));
	assert_false(contains(o, "line 01"));
	free(o);
	ks_log_close(log);

	int n = 0;
	DIR *d = opendir(fx->dir);
	struct dirent *e;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, "CollectorLog", 12) == 0;
	closedir(d);
	assert_int_equal(n, 2);
	free(cur);
	free(old);
}

static void test_rotation_units(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "MAX_COLLECTOR_LOG = 1 Kb\n");
	for (int i = 0; i < 17; i++) /* 1020 bytes */
		line60(log, i);
	assert_false(exists(path_in(fx, "CollectorLog.old")));
	line60(log, 17);
	line60(log, 18);
	assert_true(exists(path_in(fx, "CollectorLog.old")));
	ks_log_close(log);

	/* A file exactly at its limit is rotated before the next line. */
	log = open_log(fx, "MASTER", "MAX_MASTER_LOG = 120\n");
	line60(log, 1);
	line60(log, 2);
	assert_false(exists(path_in(fx, "MasterLog.old")));
	line60(log, 3);
	assert_true(exists(path_in(fx, "MasterLog.old")));
	ks_log_close(log);

	/* 0 never rotates; MAX_DEFAULT_LOG applies to every daemon. */
	log = open_log(fx, "SCHEDD",
		       "MAX_DEFAULT_LOG = 100\nMAX_SCHEDD_LOG = 0\n");
	for (int i = 0; i < 10; i++)
		line60(log, i);
	assert_false(exists(path_in(fx, "SchedLog.old")));
	ks_log_close(log);
	log = open_log(fx, "MY_TOOL", "MAX_DEFAULT_LOG = 100\n");
	for (int i = 0; i < 3; i++)
		line60(log, i);
	assert_true(exists(path_in(fx, "MyToolLog.old")));
	ks_log_close(log);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_rotation_many(void **state)
{
	struct fixture *fx = *state;
	put_file(path_in(fx, "CollectorLog.20000101T000000"), "first\n");
	put_file(path_in(fx, "CollectorLog.20000102T000000"), "second\n");
	put_file(path_in(fx, "CollectorLog.unrelated"), "keep\n");
	ks_log *log = open_log(fx, "COLLECTOR",
			       "MAX_COLLECTOR_LOG = 100\n"
			       "MAX_NUM_COLLECTOR_LOG = 2\n");
	line60(log, 1);
	line60(log, 2);
	line60(log, 3); /* rotates to a time-stamped name */
	ks_log_close(log);

	/* Three rotated files for two places: the oldest ones went to .old
	 * in turn, so .old holds the second. */
	assert_false(exists(path_in(fx, "CollectorLog.20000101T000000")));
	assert_false(exists(path_in(fx, "CollectorLog.20000102T000000")));
	char *o = slurp(path_in(fx, "CollectorLog.old"));
	assert_string_equal(o, "second\n");
	free(o);
	assert_true(exists(path_in(fx, "CollectorLog.unrelated")));

	int stamped = 0;
	DIR *d = opendir(fx->dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		regex_t re;
		regcomp(&re, "^CollectorLog\\.[0-9]{8}T[0-9]{6}$",
			REG_EXTENDED | REG_NOSUB);
		if (regexec(&re, e->d_name, 0, NULL, 0) == 0) {
			stamped++;
			char *t = slurp(path_in(fx, e->d_name));
			assert_true(contains(t, "line 02"));
			assert_true(contains(t, "Saving log file to"));
			free(t);
		}
		regfree(&re);
	}
	closedir(d);
	assert_int_equal(stamped, 1);
}

static void test_truncate_on_open(void **state)
{
	struct fixture *fx = *state;
	put_file(path_in(fx, "CollectorLog"), "earlier\n");
	ks_log *log = open_log(fx, "COLLECTOR", "");
	ks_log_printf(log, KS_D_ALWAYS, "appended");
	ks_log_close(log);
	char *t = slurp(path_in(fx, "CollectorLog"));
	assert_matches(t, "^earlier\n" TS "appended\n$");
	free(t);

	log = open_log(fx, "COLLECTOR", "TRUNC_COLLECTOR_LOG_ON_OPEN = true\n");
	assert_int_equal(file_size(path_in(fx, "CollectorLog")), 0);
	ks_log_printf(log, KS_D_ALWAYS, "fresh");
	ks_log_close(log);
	t = slurp(path_in(fx, "CollectorLog"));
	assert_matches(t, "^" TS "fresh\n$");
	free(t);

	/* A per-category file has its own knob. */
	put_file(path_in(fx, "MatchLog"), "old matches\n");
	put_file(path_in(fx, "NegotiatorLog"), "old cycles\n");
	log = open_log(fx, "NEGOTIATOR",
		       "TRUNC_NEGOTIATOR_MATCH_LOG_ON_OPEN = true\n");
	ks_log_close(log);
	assert_int_equal(file_size(path_in(fx, "MatchLog")), 0);
	assert_int_equal(file_size(path_in(fx, "NegotiatorLog")), 11);
}

/* A file renamed or removed behind the log's back is created again. */
static void test_file_moved(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "");
	ks_log_printf(log, KS_D_ALWAYS, "before");
	char moved[512];
	snprintf(moved, sizeof(moved), "%s", path_in(fx, "moved"));
	assert_int_equal(rename(path_in(fx, "CollectorLog"), moved), 0);
	ks_log_printf(log, KS_D_ALWAYS, "after");
	char *m0 = slurp(moved);
	assert_matches(m0, "^" TS "before\n$");
	free(m0);
	assert_int_equal(unlink(moved), 0);
	assert_int_equal(unlink(path_in(fx, "CollectorLog")), 0);
	ks_log_printf(log, KS_D_ALWAYS, "again");
	/* Another process rotated it and started the new file. */
	assert_int_equal(rename(path_in(fx, "CollectorLog"), moved), 0);
	put_file(path_in(fx, "CollectorLog"), "other\n");
	ks_log_printf(log, KS_D_ALWAYS, "joined");
	ks_log_close(log);

	char *m = slurp(moved), *c = slurp(path_in(fx, "CollectorLog"));
	assert_matches(m, "^" TS "again\n$");
	assert_matches(c, "^other\n" TS "joined\n$");
	free(m);
	free(c);
}

/* ---- reconfig ---- */

static void test_reconfig(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "");
	ks_log_printf(log, KS_D_COMMAND, "hidden");
	ks_log_printf(log, KS_D_ALWAYS, "one");

	/* Same file, more categories: the file stays. */
	ks_config *cfg = cfg_of(fx, "COLLECTOR", "COLLECTOR_DEBUG = D_COMMAND\n");
	struct ks_err err;
	assert_int_equal(ks_log_reconfig(log, cfg, &err), 0);
	ks_config_free(cfg);
	ks_log_printf(log, KS_D_COMMAND, "shown");

	/* Another file, fewer categories. */
	cfg = cfg_of(fx, "COLLECTOR", "COLLECTOR_LOG = $(LOG)/second\n");
	assert_int_equal(ks_log_reconfig(log, cfg, &err), 0);
	ks_config_free(cfg);
	assert_string_equal(ks_log_path(log), path_in(fx, "second"));
	ks_log_printf(log, KS_D_COMMAND, "hidden-again");
	ks_log_printf(log, KS_D_ALWAYS, "two");

	/* A file that cannot be opened: nothing changes. */
	cfg = cfg_of(fx, "COLLECTOR",
		     "COLLECTOR_LOG = $(LOG)/nope/third\nCOLLECTOR_DEBUG = D_COMMAND\n");
	ks_err_clear(&err);
	assert_int_equal(ks_log_reconfig(log, cfg, &err), KS_EIO);
	assert_true(contains(err.msg, "nope/third"));
	ks_config_free(cfg);
	assert_string_equal(ks_log_path(log), path_in(fx, "second"));
	ks_log_printf(log, KS_D_COMMAND, "still-hidden");
	ks_log_printf(log, KS_D_ALWAYS, "three");

	/* An invalid value: nothing changes either. */
	cfg = cfg_of(fx, "COLLECTOR", "MAX_COLLECTOR_LOG = huge\n");
	ks_err_clear(&err);
	assert_int_equal(ks_log_reconfig(log, cfg, &err), KS_EINVAL);
	ks_config_free(cfg);
	ks_log_printf(log, KS_D_ALWAYS, "four");
	ks_log_close(log);

	char *first = slurp(path_in(fx, "CollectorLog"));
	char *second = slurp(path_in(fx, "second"));
	assert_matches(first, "^" TS "one\n" TS "shown\n$");
	assert_matches(second, "^" TS "two\n" TS "three\n" TS "four\n$");
	free(first);
	free(second);
}

/* ---- per-category files ---- */

static void test_category_file(void **state)
{
	struct fixture *fx = *state;
	/* HTCondor's defaults: NEGOTIATOR_DEBUG = D_MATCH and
	 * NEGOTIATOR_MATCH_LOG = $(LOG)/MatchLog. */
	ks_log *log = open_log(fx, "NEGOTIATOR", "");
	ks_log_printf(log, KS_D_MATCH, "matched");
	ks_log_printf(log, KS_D_ALWAYS, "cycle");
	ks_log_printf(log, KS_D_MATCH | KS_D_FULLDEBUG, "verbose-match");
	ks_log_close(log);
	char *main_text = slurp(path_in(fx, "NegotiatorLog"));
	char *match = slurp(path_in(fx, "MatchLog"));
	assert_matches(main_text, "^" TS "matched\n" TS "cycle\n$");
	assert_matches(match, "^" TS "matched\n$");
	free(main_text);
	free(match);

	/* The category file is written even when the main log does not
	 * take the category. */
	log = open_log(fx, "COLLECTOR",
		       "COLLECTOR_SECURITY_LOG = $(LOG)/Sec\n");
	ks_log_printf(log, KS_D_SECURITY, "auth");
	ks_log_close(log);
	char *sec = slurp(path_in(fx, "Sec"));
	assert_matches(sec, "^" TS "auth\n$");
	free(sec);
	char *col = slurp(path_in(fx, "CollectorLog"));
	assert_string_equal(col, "");
	free(col);

	/* Naming the main file adds the category to it, once. */
	log = open_log(fx, "STARTD", "STARTD_JOB_LOG = $(STARTD_LOG)\n");
	ks_log_printf(log, KS_D_JOB, "job ad");
	ks_log_close(log);
	char *st = slurp(path_in(fx, "StartLog"));
	assert_matches(st, "^" TS "job ad\n$");
	free(st);
}

/* ---- standard error ---- */

struct emit_arg {
	const struct fixture *fx;
	bool use_null;
};

static void emit_to_stderr(void *p)
{
	struct emit_arg *a = p;
	if (a->use_null) {
		ks_log_printf(NULL, KS_D_ALWAYS, "no log %d", 7);
		ks_log_printf(NULL, KS_D_COMMAND, "not shown");
		return;
	}
	ks_config *cfg = cfg_of(a->fx, "COLLECTOR", "COLLECTOR_DEBUG = D_COMMAND\n");
	struct ks_err err;
	ks_log *log = ks_log_open(cfg, "COLLECTOR", true, &err);
	ks_config_free(cfg);
	assert_non_null(log);
	assert_null(ks_log_path(log));
	ks_log_printf(log, KS_D_ALWAYS, "to stderr");
	ks_log_printf(log, KS_D_COMMAND, "a command");
	ks_log_printf(log, KS_D_SECURITY, "not shown");
	ks_log_close(log);
}

static void test_stderr(void **state)
{
	struct fixture *fx = *state;
	struct emit_arg a = {fx, false};
	char *out = capture_stderr(fx, emit_to_stderr, &a);
	assert_matches(out, "^" TS "to stderr\n" TS "a command\n$");
	free(out);
	/* -t opens no file. */
	assert_false(exists(path_in(fx, "CollectorLog")));

	a.use_null = true;
	out = capture_stderr(fx, emit_to_stderr, &a);
	assert_matches(out, "^" TS "no log 7\n$");
	free(out);
}

static void test_closed_pipe(void **state)
{
	struct fixture *fx = *state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(p[1], STDERR_FILENO);
	close(p[1]);

	ks_config *cfg = cfg_of(fx, "COLLECTOR", "");
	struct ks_err err;
	ks_log *log = ks_log_open(cfg, "COLLECTOR", true, &err);
	ks_config_free(cfg);
	errno = 1234;
	/* Without the guard SIGPIPE would end the test program here. */
	ks_log_printf(log, KS_D_ALWAYS, "into a closed pipe");
	ks_log_printf(NULL, KS_D_ALWAYS, "and again");
	int e = errno;
	ks_log_close(log);
	dup2(saved, STDERR_FILENO);
	close(saved);
	assert_int_equal(e, 1234);

	sigset_t pending;
	sigpending(&pending);
	assert_false(sigismember(&pending, SIGPIPE));
}

static void test_errno_kept(void **state)
{
	struct fixture *fx = *state;
	ks_log *log = open_log(fx, "COLLECTOR", "");
	errno = EAGAIN;
	ks_log_printf(log, KS_D_ALWAYS, "x");
	assert_int_equal(errno, EAGAIN);
	ks_log_close(log);
}

int main(void)
{
	/* Lines are checked against the default "%m/%d/%y" format whatever
	 * the environment says. */
	unsetenv("_CONDOR_DEBUG_TIME_FORMAT");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_line_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_sizes, setup, teardown),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test_setup_teardown(test_categories, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rotation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rotation_units, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rotation_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncate_on_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reconfig, setup, teardown),
		cmocka_unit_test_setup_teardown(test_category_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stderr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_closed_pipe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errno_kept, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
