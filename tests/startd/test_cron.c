/*
 * test_cron.c: the startd's cron jobs (sd_cron.h), run as real child
 * processes (tests/startd/cron_job.sh) by a real loop.  Every wait is for
 * a condition, with a deadline; periods are HTCondor's smallest, 1 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sd_cron.h"

#ifndef CRON_SCRIPT
#error "CRON_SCRIPT must name tests/startd/cron_job.sh"
#endif

struct h {
	ks_loop *loop;
	ks_log *log;
	sd_cron *c;
	char dir[64];
	int updates;      /* callbacks */
	int asked;        /* of which asked for a collector update */
	int64_t when[64]; /* when each callback came (ms) */
	bool idle;        /* sd_cron_shutdown() said so */
	classad *ctx;     /* CONDITION context */
	int fds;          /* open before the test */
};

static void on_update(void *arg, bool update_collector)
{
	struct h *h = arg;
	if (h->updates < 64)
		h->when[h->updates] = ks_clock_ms();
	h->updates++;
	h->asked += update_collector;
}

static classad *on_context(void *arg)
{
	struct h *h = arg;
	return classad_ref(h->ctx);
}

static void on_idle(void *arg)
{
	((struct h *)arg)->idle = true;
}

/* Replaces @S@ with the script and @D@ with the test's directory. */
static char *expand(const struct h *h, const char *text)
{
	size_t cap = strlen(text) * 2 + 4096, n = 0;
	char *out = malloc(cap);
	for (const char *s = text; *s;) {
		const char *rep = NULL;
		if (!strncmp(s, "@S@", 3))
			rep = CRON_SCRIPT;
		else if (!strncmp(s, "@D@", 3))
			rep = h->dir;
		if (rep) {
			n += (size_t)snprintf(out + n, cap - n, "%s", rep);
			s += 3;
		} else {
			out[n++] = *s++;
		}
		assert_true(n < cap - 256);
	}
	out[n] = '\0';
	return out;
}

static ks_config *conf(const struct h *h, const char *text)
{
	ks_config *cfg = ks_config_new("STARTD", NULL);
	char *t = expand(h, text);
	struct ks_err err = {0};
	if (ks_config_read_text(cfg, "test.conf", t, strlen(t), &err))
		fail_msg("config: %s", err.msg);
	free(t);
	return cfg;
}

static void start(struct h *h, const char *text)
{
	ks_config *cfg = conf(h, text);
	h->c = sd_cron_new(h->loop, h->log, cfg, "STARTD_CRON", on_update, h);
	ks_config_free(cfg);
	assert_non_null(h->c);
}

static void reconfig(struct h *h, const char *text)
{
	ks_config *cfg = conf(h, text);
	sd_cron_reconfig(h->c, cfg);
	ks_config_free(cfg);
}

static int open_fds(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

static int setup(void **state)
{
	struct h *h = calloc(1, sizeof(*h));
	h->fds = open_fds();
	strcpy(h->dir, "/tmp/kscron.XXXXXX");
	assert_non_null(mkdtemp(h->dir));
	h->loop = ks_loop_new();
	ks_config *cfg = conf(h, "STARTD_LOG = @D@/StartLog\n"
				 "STARTD_DEBUG = D_FULLDEBUG\n");
	struct ks_err err = {0};
	h->log = ks_log_open(cfg, "STARTD", false, &err);
	ks_config_free(cfg);
	assert_non_null(h->log);
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	struct h *h = *state;
	sd_cron_free(h->c);
	ks_log_close(h->log);
	ks_loop_free(h->loop);
	classad_free(h->ctx);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", h->dir);
	assert_int_equal(system(cmd), 0);
	/* every pipe closed, every child reaped */
	assert_int_equal(open_fds(), h->fds);
	int st;
	assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	free(h);
	return 0;
}

/* ---- waiting ----------------------------------------------------------- */

typedef bool (*cond_fn)(struct h *h, const void *arg);

struct waiter {
	struct h *h;
	cond_fn fn;
	const void *arg;
	int64_t deadline;
	bool met;
};

static void poll_cond(void *arg)
{
	struct waiter *w = arg;
	if (w->fn(w->h, w->arg))
		w->met = true;
	if (w->met || ks_clock_ms() >= w->deadline)
		ks_loop_stop(w->h->loop);
}

/* Runs the loop until fn holds or timeout_ms have passed. */
static bool wait_for(struct h *h, cond_fn fn, const void *arg, int timeout_ms)
{
	struct waiter w = {h, fn, arg, ks_clock_ms() + timeout_ms, false};
	uint64_t t = ks_loop_timer(h->loop, 0, 5, poll_cond, &w);
	ks_loop_run(h->loop);
	ks_loop_cancel(h->loop, t);
	return w.met || fn(h, arg);
}

static bool c_updates(struct h *h, const void *n)
{
	return h->updates >= *(const int *)n;
}

static bool wait_updates(struct h *h, int n, int timeout_ms)
{
	return wait_for(h, c_updates, &n, timeout_ms);
}

static int count_lines(const struct h *h, const char *file, const char *what)
{
	char path[256], line[256];
	snprintf(path, sizeof(path), "%s/%s", h->dir, file);
	FILE *f = fopen(path, "r");
	int n = 0;
	while (f && fgets(line, sizeof(line), f))
		n += !what || !strncmp(line, what, strlen(what));
	if (f)
		fclose(f);
	return n;
}

struct lines {
	const char *file;
	const char *what; /* lines starting so; NULL: all */
	int n;
};

static bool c_lines(struct h *h, const void *arg)
{
	const struct lines *l = arg;
	return count_lines(h, l->file, l->what) >= l->n;
}

static bool wait_lines(struct h *h, const char *file, const char *what, int n,
		       int timeout_ms)
{
	struct lines l = {file, what, n};
	return wait_for(h, c_lines, &l, timeout_ms);
}

struct state {
	const char *job;
	const char *state;
};

static bool c_state(struct h *h, const void *arg)
{
	const struct state *s = arg;
	struct sd_cron_job_info i;
	return sd_cron_job_info(h->c, s->job, &i) == 0 &&
	       !strcmp(i.state, s->state);
}

static bool wait_state(struct h *h, const char *job, const char *state,
		       int timeout_ms)
{
	struct state s = {job, state};
	return wait_for(h, c_state, &s, timeout_ms);
}

static bool log_has(const struct h *h, const char *needle)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/StartLog", h->dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

static bool c_log(struct h *h, const void *needle)
{
	return log_has(h, needle);
}

static bool c_idle(struct h *h, const void *arg)
{
	(void)arg;
	return h->idle;
}

static bool c_gone(struct h *h, const void *pid)
{
	(void)h;
	return kill(*(const pid_t *)pid, 0) != 0 && errno == ESRCH;
}

static void write_file(const struct h *h, const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", h->dir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Slot id's ad (Name slot<id>@host, SlotID, and the extra lines), with
 * what the jobs published merged in.  Free with classad_free(). */
static classad *slot_ad(const struct h *h, int id, const char *extra)
{
	char text[512];
	snprintf(text, sizeof(text), "Name = \"slot%d@host\"\nSlotID = %d\n%s",
		 id, id, extra ? extra : "SlotTypeId = 1\n");
	struct ks_err err = {0};
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				    &err);
	assert_non_null(ad);
	sd_cron_publish(h->c, id, ad);
	return ad;
}

static void expect_int(const classad *ad, const char *attr, int64_t want)
{
	int64_t v = -12345;
	if (!classad_eval_int(ad, attr, NULL, &v))
		fail_msg("%s is not an integer", attr);
	assert_int_equal(v, want);
}

static void expect_real(const classad *ad, const char *attr, double want)
{
	double v = -1;
	if (!classad_eval_real(ad, attr, NULL, &v))
		fail_msg("%s is not a number", attr);
	assert_float_equal(v, want, 1e-9);
}

static void expect_str(const classad *ad, const char *attr, const char *want)
{
	char *v = NULL;
	if (!classad_eval_string(ad, attr, NULL, &v))
		fail_msg("%s is not a string", attr);
	assert_string_equal(v, want);
	free(v);
}

static void expect_true(const classad *ad, const char *attr)
{
	bool b = false;
	if (!classad_eval_bool(ad, attr, NULL, &b) || !b)
		fail_msg("%s is not true", attr);
}

static void expect_none(const classad *ad, const char *attr)
{
	if (classad_lookup(ad, attr))
		fail_msg("%s should not be there", attr);
}

#define EMIT_JOB(name, mode)                                         \
	"STARTD_CRON_" name "_EXECUTABLE = @S@\n"                    \
	"STARTD_CRON_" name "_ARGS = emit @D@/" name ".out\n"        \
	"STARTD_CRON_" name "_MODE = " mode "\n"

/* ---- output ------------------------------------------------------------ */

/* One ad: its attributes, expressions kept, LastUpdate added. */
static void test_single_ad(void **state)
{
	struct h *h = *state;
	write_file(h, "one.out", "A = 1\nB = \"x\"\nC = A + 1\n");
	start(h, "STARTD_CRON_JOBLIST = one\n" EMIT_JOB("one", "OneShot"));
	assert_true(wait_updates(h, 1, 5000));
	assert_true(wait_state(h, "one", "Idle", 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "A", 1);
	expect_str(ad, "B", "x");
	expect_int(ad, "C", 2);
	int64_t lu = 0;
	assert_true(classad_eval_int(ad, "LastUpdate", NULL, &lu));
	assert_true(lu > time(NULL) - 60 && lu <= time(NULL));
	expect_str(ad, "Name", "slot1@host");
	classad_free(ad);
	assert_int_equal(h->updates, 1);
	assert_int_equal(h->asked, 0); /* AUTOPUBLISH is Never */
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "one", &i), 0);
	assert_string_equal(i.mode, "OneShot");
	assert_int_equal(i.runs, 1);
	assert_int_equal(i.outputs, 1);
	assert_int_equal(i.pid, 0);
}

/* The manual's example: tagged ads for slots 1 and 2, the last ad for
 * the rest, and "update:true" asking for a collector update. */
static void test_several_ads(void **state)
{
	struct h *h = *state;
	write_file(h, "seed.out",
		   "Value=1\nSlotId=1\n-s1\nValue=2\nSlotId=2\n-s2\n"
		   "Value=10\n- update:true\n");
	start(h, "STARTD_CRON_JOBLIST = seed\n" EMIT_JOB("seed", "OneShot"));
	assert_true(wait_updates(h, 3, 5000));
	assert_int_equal(h->asked, 1);
	for (int id = 1; id <= 3; id++) {
		classad *ad = slot_ad(h, id, NULL);
		expect_int(ad, "Value", id < 3 ? id : 10);
		expect_int(ad, "SlotID", id); /* targeting is not merged */
		classad_free(ad);
	}
}

/* A tag names an ad that the next run replaces; an ad the next run does
 * not write stays. */
static void test_replace_by_name(void **state)
{
	struct h *h = *state;
	write_file(h, "od.out", "X = 1\nY = 1\n- t1\nZ = 1\n");
	start(h, "STARTD_CRON_JOBLIST = od\n" EMIT_JOB("od", "OnDemand"));
	assert_int_equal(sd_cron_run_on_demand(h->c, "od"), 1);
	assert_true(wait_updates(h, 2, 5000));
	assert_true(wait_state(h, "od", "Idle", 5000));
	write_file(h, "od.out", "X = 2\n- t1\n");
	assert_int_equal(sd_cron_run_on_demand(h->c, NULL), 1);
	assert_true(wait_updates(h, 3, 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "X", 2);
	expect_none(ad, "Y");
	expect_int(ad, "Z", 1);
	classad_free(ad);
}

/* SlotMergeConstraint (TARGET: the slot), SlotName, SlotTypeId, and an ad
 * with none of them. */
static void test_targeting(void **state)
{
	struct h *h = *state;
	write_file(h, "t.out",
		   "SlotMergeConstraint = Memory > 1000\nBig = true\n- big\n"
		   "SlotName = \"slot2\"\nNamed = true\n- named\n"
		   "SlotTypeId = 2\nTyped = true\n- typed\n"
		   "SlotMergeConstraint = TARGET.SlotID == 1\nFirst = true\n"
		   "- first\n"
		   "Everywhere = true\n");
	start(h, "STARTD_CRON_JOBLIST = t\n" EMIT_JOB("t", "OneShot"));
	assert_true(wait_updates(h, 5, 5000));
	classad *s1 = slot_ad(h, 1, "SlotTypeId = 1\nMemory = 512\n");
	classad *s2 = slot_ad(h, 2, "SlotTypeId = 1\nMemory = 2048\n");
	classad *s3 = slot_ad(h, 3, "SlotTypeId = 2\nMemory = 100\n");
	expect_none(s1, "Big");
	expect_true(s2, "Big");
	expect_none(s3, "Big");
	expect_none(s1, "Named");
	expect_true(s2, "Named");
	expect_none(s3, "Named");
	expect_none(s1, "Typed");
	expect_none(s2, "Typed");
	expect_true(s3, "Typed");
	expect_true(s1, "First");
	expect_none(s2, "First");
	for (classad **s = (classad *[]){s1, s2, s3, NULL}; *s; s++) {
		expect_true(*s, "Everywhere");
		expect_none(*s, "SlotMergeConstraint");
		expect_none(*s, "SlotName");
	}
	expect_int(s3, "SlotTypeId", 2);
	expect_str(s2, "Name", "slot2@host");
	classad_free(s1);
	classad_free(s2);
	classad_free(s3);
}

/* PREFIX goes before every name the job writes (targeting attributes
 * too, as in HTCondor); SLOTS picks the slots. */
static void test_prefix_and_slots(void **state)
{
	struct h *h = *state;
	write_file(h, "p.out", "A = 1\nSlotId = 2\n");
	start(h, "STARTD_CRON_JOBLIST = p\n" EMIT_JOB("p", "OneShot")
		 "STARTD_CRON_p_PREFIX = test_\n"
		 "STARTD_CRON_p_SLOTS = 1, 3\n");
	assert_true(wait_updates(h, 1, 5000));
	for (int id = 1; id <= 3; id++) {
		classad *ad = slot_ad(h, id, NULL);
		if (id == 2) {
			expect_none(ad, "test_A");
			expect_none(ad, "test_LastUpdate");
		} else {
			expect_int(ad, "test_A", 1);
			expect_int(ad, "test_SlotId", 2);
			assert_non_null(classad_lookup(ad, "test_LastUpdate"));
			expect_none(ad, "A");
			expect_none(ad, "LastUpdate");
		}
		classad_free(ad);
	}
}

/* Lines that are not "Name = value" are logged and skipped; blank lines
 * and comments quietly. */
static void test_bad_lines(void **state)
{
	struct h *h = *state;
	write_file(h, "bad.out",
		   "A = 1\nthis is junk\n= 3\nB = (\n\n   \n# a comment\n"
		   "C = 2\r\n-\n-\n");
	start(h, "STARTD_CRON_JOBLIST = bad\n" EMIT_JOB("bad", "OneShot"));
	assert_true(wait_updates(h, 1, 5000));
	assert_true(wait_state(h, "bad", "Idle", 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "A", 1);
	expect_int(ad, "C", 2);
	expect_none(ad, "B");
	classad_free(ad);
	assert_true(log_has(h, "'this is junk'"));
	assert_true(log_has(h, "'B = ('"));
	assert_false(log_has(h, "a comment"));
	assert_int_equal(h->updates, 1); /* the empty ad is not published */
}

/* A line written in two pieces is one line; a last line without its
 * newline counts; a line over 64 KiB is dropped and logged. */
static void test_partial_and_long_lines(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = part long\n"
		 "STARTD_CRON_part_EXECUTABLE = @S@\n"
		 "STARTD_CRON_part_ARGS = partial\n"
		 "STARTD_CRON_part_MODE = OneShot\n"
		 "STARTD_CRON_long_EXECUTABLE = @S@\n"
		 "STARTD_CRON_long_ARGS = long\n"
		 "STARTD_CRON_long_MODE = OneShot\n");
	assert_true(wait_updates(h, 2, 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "A", 1);
	expect_int(ad, "B", 2);
	expect_int(ad, "Short", 1);
	classad_free(ad);
	assert_true(log_has(h, "longer than 65536 bytes"));
}

/* ---- modes ------------------------------------------------------------- */

/* Periodic runs every PERIOD from each start, however long a run takes;
 * WaitForExit waits PERIOD after each end. */
static void test_periodic_and_wait_for_exit(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = per\n"
		 "STARTD_CRON_per_EXECUTABLE = @S@\n"
		 "STARTD_CRON_per_ARGS = sleep 0.8 @D@/per\n"
		 "STARTD_CRON_per_PERIOD = 1s\n");
	assert_true(wait_updates(h, 3, 6000));
	for (int i = 1; i < 3; i++) {
		int64_t gap = h->when[i] - h->when[i - 1];
		if (gap < 800 || gap > 1500)
			fail_msg("Periodic runs %lld ms apart",
				 (long long)gap);
	}
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "per", &i), 0);
	assert_string_equal(i.mode, "Periodic");
	sd_cron_free(h->c);
	h->c = NULL;

	h->updates = 0;
	start(h, "STARTD_CRON_JOBLIST = wfe\n"
		 "STARTD_CRON_wfe_EXECUTABLE = @S@\n"
		 "STARTD_CRON_wfe_ARGS = sleep 0.8 @D@/wfe\n"
		 "STARTD_CRON_wfe_MODE = WaitForExit\n"
		 "STARTD_CRON_wfe_PERIOD = 1\n");
	assert_true(wait_updates(h, 2, 6000));
	int64_t gap = h->when[1] - h->when[0];
	if (gap < 1700)
		fail_msg("WaitForExit runs %lld ms apart", (long long)gap);
}

/* WaitForExit with PERIOD 0 runs again as soon as a run ends. */
static void test_wait_for_exit_at_once(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = again\n"
		 "STARTD_CRON_again_EXECUTABLE = @S@\n"
		 "STARTD_CRON_again_ARGS = count @D@/again\n"
		 "STARTD_CRON_again_MODE = WaitForExit\n"
		 "STARTD_CRON_again_PERIOD = 0\n");
	int64_t t0 = ks_clock_ms();
	assert_true(wait_lines(h, "again", NULL, 5, 5000));
	assert_true(ks_clock_ms() - t0 < 3000);
	classad *ad = slot_ad(h, 1, NULL);
	int64_t runs = 0;
	assert_true(classad_eval_int(ad, "Runs", NULL, &runs));
	assert_true(runs >= 4);
	classad_free(ad);
}

/* A WaitForExit job's ads are taken in at each '-', while it runs. */
static void test_wait_for_exit_stream(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = st\n"
		 "STARTD_CRON_st_EXECUTABLE = @S@\n"
		 "STARTD_CRON_st_ARGS = stream\n"
		 "STARTD_CRON_st_MODE = WaitForExit\n"
		 "STARTD_CRON_st_PERIOD = 10\n");
	assert_true(wait_updates(h, 1, 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "Step", 1);
	classad_free(ad);
	assert_true(wait_updates(h, 2, 5000));
	ad = slot_ad(h, 1, NULL);
	expect_int(ad, "Step", 2);
	classad_free(ad);
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "st", &i), 0);
	assert_string_equal(i.state, "Running");
	assert_true(i.pid > 0);
	assert_int_equal(h->asked, 0); /* update:false, then Never */
}

/* OneShot runs once; OnDemand only when asked, and not twice at once. */
static void test_one_shot_and_on_demand(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = clock once od\n"
		 "STARTD_CRON_clock_EXECUTABLE = @S@\n"
		 "STARTD_CRON_clock_ARGS = count @D@/clock\n"
		 "STARTD_CRON_clock_PERIOD = 1\n"
		 "STARTD_CRON_once_EXECUTABLE = @S@\n"
		 "STARTD_CRON_once_ARGS = count @D@/once\n"
		 "STARTD_CRON_once_MODE = OneShot\n"
		 "STARTD_CRON_once_PERIOD = 1\n" /* ignored */
		 "STARTD_CRON_od_EXECUTABLE = @S@\n"
		 "STARTD_CRON_od_ARGS = sleep 0.5 @D@/od\n"
		 "STARTD_CRON_od_MODE = OnDemand\n");
	assert_true(wait_lines(h, "clock", NULL, 3, 5000));
	assert_int_equal(count_lines(h, "once", NULL), 1);
	assert_int_equal(count_lines(h, "od", NULL), 0);
	assert_true(log_has(h, "no period; STARTD_CRON_once_PERIOD ignored"));
	assert_int_equal(sd_cron_run_on_demand(h->c, "od"), 1);
	assert_int_equal(sd_cron_run_on_demand(h->c, "od"), 0); /* running */
	assert_true(wait_lines(h, "od", NULL, 1, 5000));
	assert_int_equal(sd_cron_run_on_demand(h->c, "nosuch"), KS_ENOTFOUND);
	assert_int_equal(sd_cron_run_on_demand(h->c, "clock"), KS_ENOTFOUND);
	assert_true(wait_state(h, "od", "Idle", 5000));
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "od", &i), 0);
	assert_int_equal(i.runs, 1);
	assert_int_equal(sd_cron_job_info(h->c, "once", &i), 0);
	assert_int_equal(i.runs, 1);
}

/* ---- a job that outlives its period ------------------------------------ */

/* Without KILL, the periods that come while it runs are skipped. */
static void test_outlives_period(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = slow\n"
		 "STARTD_CRON_slow_EXECUTABLE = @S@\n"
		 "STARTD_CRON_slow_ARGS = sleep 2.3 @D@/slow\n"
		 "STARTD_CRON_slow_PERIOD = 1\n");
	assert_true(wait_updates(h, 1, 6000));
	assert_int_equal(count_lines(h, "slow", "start"), 1);
	assert_true(log_has(h, "job 'slow' is still running! (skipping"));
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "slow", &i), 0);
	assert_true(i.runs <= 2);
}

/* With KILL, it gets SIGTERM when its period comes, and runs again as
 * soon as it has gone. */
static void test_kill(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = k\n"
		 "STARTD_CRON_k_EXECUTABLE = @S@\n"
		 "STARTD_CRON_k_ARGS = term @D@/k\n"
		 "STARTD_CRON_k_PERIOD = 1\n"
		 "STARTD_CRON_k_KILL = true\n");
	int64_t t0 = ks_clock_ms();
	assert_true(wait_lines(h, "k", "start", 2, 4000));
	assert_true(ks_clock_ms() - t0 < 1900); /* not at the next period */
	assert_int_equal(count_lines(h, "k", "term"), 1);
}

/* A job that ignores SIGTERM gets SIGKILL a second later. */
static void test_kill_escalates(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = stubborn\n"
		 "STARTD_CRON_stubborn_EXECUTABLE = @S@\n"
		 "STARTD_CRON_stubborn_ARGS = ignoreterm @D@/stubborn\n"
		 "STARTD_CRON_stubborn_PERIOD = 1\n"
		 "STARTD_CRON_stubborn_KILL = true\n");
	assert_true(wait_lines(h, "stubborn", "start", 1, 3000));
	int64_t t0 = ks_clock_ms();
	assert_true(wait_lines(h, "stubborn", "start", 2, 5000));
	int64_t gap = ks_clock_ms() - t0;
	if (gap < 1700)
		fail_msg("restarted after %lld ms", (long long)gap);
	assert_true(log_has(h, "exit_signal=9"));
}

/* ---- reconfig ---------------------------------------------------------- */

/* Jobs dropped from the list are killed and their ads go; new ones
 * start; a job whose mode changed starts afresh. */
static void test_reconfig_job_list(void **state)
{
	struct h *h = *state;
	write_file(h, "a.out", "FromA = 1\n");
	write_file(h, "b.out", "FromB = 1\n");
	start(h, "STARTD_CRON_JOBLIST = a, forever, m\n"
		 EMIT_JOB("a", "OneShot")
		 "STARTD_CRON_forever_EXECUTABLE = @S@\n"
		 "STARTD_CRON_forever_ARGS = forever @D@/forever\n"
		 "STARTD_CRON_forever_MODE = OneShot\n"
		 "STARTD_CRON_m_EXECUTABLE = @S@\n"
		 "STARTD_CRON_m_ARGS = count @D@/m\n"
		 "STARTD_CRON_m_MODE = OneShot\n");
	assert_true(wait_state(h, "forever", "Running", 5000));
	assert_true(wait_lines(h, "m", NULL, 1, 5000));
	assert_true(wait_updates(h, 2, 5000));
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "forever", &i), 0);
	pid_t pid = i.pid;
	assert_true(pid > 0);
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "FromA", 1);
	classad_free(ad);

	reconfig(h, "STARTD_CRON_JOBLIST = b m\n" EMIT_JOB("b", "OneShot")
		    "STARTD_CRON_m_EXECUTABLE = @S@\n"
		    "STARTD_CRON_m_ARGS = count @D@/m\n"
		    "STARTD_CRON_m_MODE = Periodic\n"
		    "STARTD_CRON_m_PERIOD = 1\n");
	assert_int_equal(sd_cron_job_info(h->c, "a", &i), KS_ENOTFOUND);
	assert_int_equal(sd_cron_job_info(h->c, "forever", &i), KS_ENOTFOUND);
	assert_true(wait_for(h, c_gone, &pid, 5000));
	int st;
	assert_int_equal(waitpid(pid, &st, WNOHANG), -1); /* reaped */
	assert_true(wait_lines(h, "m", NULL, 2, 5000));
	assert_true(log_has(h, "mode of job 'm' changed from 'OneShot' to "
			       "'Periodic'"));
	assert_int_equal(sd_cron_job_info(h->c, "m", &i), 0);
	assert_string_equal(i.mode, "Periodic");
	assert_true(wait_updates(h, 4, 5000)); /* b, and m's ad */
	ad = slot_ad(h, 1, NULL);
	expect_none(ad, "FromA");
	expect_int(ad, "FromB", 1);
	classad_free(ad);
}

/* RECONFIG jobs get SIGHUP (once they have written an ad);
 * RECONFIG_RERUN jobs run again; other OneShot jobs do not. */
static void test_reconfig_hup_and_rerun(void **state)
{
	struct h *h = *state;
	const char *cfg = "STARTD_CRON_JOBLIST = hup rerun once\n"
			  "STARTD_CRON_hup_EXECUTABLE = @S@\n"
			  "STARTD_CRON_hup_ARGS = hup\n"
			  "STARTD_CRON_hup_MODE = WaitForExit\n"
			  "STARTD_CRON_hup_PERIOD = 1\n"
			  "STARTD_CRON_hup_RECONFIG = true\n"
			  "STARTD_CRON_rerun_EXECUTABLE = @S@\n"
			  "STARTD_CRON_rerun_ARGS = count @D@/rerun\n"
			  "STARTD_CRON_rerun_MODE = OneShot\n"
			  "STARTD_CRON_rerun_RECONFIG_RERUN = true\n"
			  "STARTD_CRON_once_EXECUTABLE = @S@\n"
			  "STARTD_CRON_once_ARGS = count @D@/once\n"
			  "STARTD_CRON_once_MODE = OneShot\n";
	start(h, cfg);
	assert_true(wait_updates(h, 3, 5000));
	assert_true(wait_state(h, "rerun", "Idle", 5000));
	assert_true(wait_state(h, "once", "Idle", 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_true(ad, "Ready");
	expect_none(ad, "Hupped");
	classad_free(ad);
	reconfig(h, cfg);
	assert_true(wait_updates(h, 5, 5000));
	assert_true(wait_lines(h, "rerun", NULL, 2, 5000));
	ad = slot_ad(h, 1, NULL);
	expect_true(ad, "Hupped");
	classad_free(ad);
	assert_true(log_has(h, "sending HUP to 'hup'"));
	assert_int_equal(count_lines(h, "once", NULL), 1);
}

/* ---- ending ------------------------------------------------------------ */

/* Freeing the manager kills and reaps a running job. */
static void test_free_while_running(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = f\n"
		 "STARTD_CRON_f_EXECUTABLE = @S@\n"
		 "STARTD_CRON_f_ARGS = forever @D@/f\n"
		 "STARTD_CRON_f_MODE = OneShot\n");
	assert_true(wait_lines(h, "f", "start", 1, 5000));
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "f", &i), 0);
	pid_t pid = i.pid;
	assert_true(pid > 0);
	assert_false(sd_cron_idle(h->c));
	sd_cron_free(h->c);
	h->c = NULL;
	assert_int_equal(kill(pid, 0), -1); /* gone, not a zombie */
	assert_int_equal(errno, ESRCH);
	int st;
	assert_int_equal(waitpid(pid, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* A shutdown sends SIGTERM and says when every job has gone. */
static void test_shutdown(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = t1 t2\n"
		 "STARTD_CRON_t1_EXECUTABLE = @S@\n"
		 "STARTD_CRON_t1_ARGS = term @D@/t1\n"
		 "STARTD_CRON_t1_MODE = OneShot\n"
		 "STARTD_CRON_t2_EXECUTABLE = @S@\n"
		 "STARTD_CRON_t2_ARGS = term @D@/t2\n"
		 "STARTD_CRON_t2_PERIOD = 1\n");
	assert_true(wait_lines(h, "t1", "start", 1, 5000));
	assert_true(wait_lines(h, "t2", "start", 1, 5000));
	sd_cron_shutdown(h->c, false, on_idle, h);
	assert_false(h->idle); /* said from the loop, not from here */
	assert_true(wait_for(h, c_idle, NULL, 5000));
	assert_true(sd_cron_idle(h->c));
	assert_true(log_has(h, "exit_status=3"));
	assert_int_equal(count_lines(h, "t1", "term"), 1);
	assert_int_equal(count_lines(h, "t2", "term"), 1);
	/* a Periodic job killed at its period would run again at once; not
	 * while shutting down */
	assert_true(wait_state(h, "t2", "Ready", 1000));
	/* nothing starts again: t2's period passes */
	assert_false(wait_lines(h, "t2", "start", 2, 1300));
}

/* The startd's benchmarks: OnDemand only, a load of 1.0 each, so
 * they run one after the other; sd_cron_when_idle() says when the last
 * has ended, not before, and at once for a round that started nothing. */
static void test_when_idle(void **state)
{
	struct h *h = *state;
	ks_config *cfg = conf(h, "BENCHMARKS_JOBLIST = b1 b2 bad per\n"
				 "BENCHMARKS_per_EXECUTABLE = @S@\n"
				 "BENCHMARKS_per_MODE = Periodic\n"
				 "BENCHMARKS_per_PERIOD = 1\n"
				 "BENCHMARKS_b1_EXECUTABLE = @S@\n"
				 "BENCHMARKS_b1_ARGS = sleep 0.3 @D@/b\n"
				 "BENCHMARKS_b2_EXECUTABLE = @S@\n"
				 "BENCHMARKS_b2_ARGS = sleep 0.3 @D@/b\n"
				 "BENCHMARKS_bad_EXECUTABLE = @D@/nosuch\n");
	h->c = sd_cron_new(h->loop, h->log, cfg, "BENCHMARKS", on_update, h);
	ks_config_free(cfg);
	/* nothing runs until asked */
	assert_false(wait_updates(h, 1, 500));
	sd_cron_when_idle(h->c, on_idle, h);
	assert_false(h->idle); /* from the loop */
	assert_true(wait_for(h, c_idle, NULL, 1000));
	assert_int_equal(count_lines(h, "b", "start"), 0);
	h->idle = false;
	assert_int_equal(sd_cron_run_on_demand(h->c, NULL), 3);
	sd_cron_when_idle(h->c, on_idle, h);
	assert_true(wait_for(h, c_idle, NULL, 5000));
	assert_int_equal(count_lines(h, "b", "start"), 2);
	assert_int_equal(h->updates, 2);
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "b2", &i), 0);
	assert_int_equal(i.outputs, 1);
	assert_string_equal(i.state, "Idle");
	assert_int_equal(sd_cron_job_info(h->c, "bad", &i), 0);
	assert_int_equal(i.fails, 1);
	assert_int_equal(sd_cron_runs(h->c), 2);
	/* a benchmark runs only when asked: any other mode is refused */
	assert_int_equal(sd_cron_job_info(h->c, "per", &i), KS_ENOTFOUND);
	assert_true(log_has(h, "benchmark job 'per' is not OnDemand"));
}

/* ---- how jobs are run -------------------------------------------------- */

/* argv[0] is the job's name, ARGS split as HTCondor splits them, ENV
 * (both syntaxes) over the daemon's environment, CWD, and the
 * interface variables. */
static void test_args_env_cwd(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = argsjob envjob env1\n"
		 "STARTD_CRON_argsjob_EXECUTABLE = /bin/sh\n"
		 "STARTD_CRON_argsjob_ARGS = \"@S@ argv x 'y z'\"\n"
		 "STARTD_CRON_argsjob_MODE = OneShot\n"
		 "STARTD_CRON_argsjob_PREFIX = a_\n"
		 "STARTD_CRON_envjob_EXECUTABLE = @S@\n"
		 "STARTD_CRON_envjob_ARGS = env\n"
		 "STARTD_CRON_envjob_ENV = \"FOO=hello BAR='a b'\"\n"
		 "STARTD_CRON_envjob_CWD = @D@\n"
		 "STARTD_CRON_envjob_MODE = OneShot\n"
		 "STARTD_CRON_envjob_PREFIX = e_\n"
		 "STARTD_CRON_env1_EXECUTABLE = @S@\n"
		 "STARTD_CRON_env1_ARGS = env\n"
		 "STARTD_CRON_env1_ENV = FOO=one;BAR=two\n"
		 "STARTD_CRON_env1_MODE = OneShot\n"
		 "STARTD_CRON_env1_PREFIX = v1_\n");
	assert_true(wait_updates(h, 3, 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_str(ad, "a_Arg0", "argsjob");
	expect_str(ad, "a_Arg1", "x");
	expect_str(ad, "a_Arg2", "y z");
	expect_int(ad, "a_Argc", 2);
	expect_str(ad, "e_Foo", "hello");
	expect_str(ad, "e_Bar", "a b");
	char *real = realpath(h->dir, NULL);
	expect_str(ad, "e_Cwd", real);
	free(real);
	expect_str(ad, "e_Version", "1");
	expect_str(ad, "e_CronName", "STARTD");
	expect_true(ad, "e_HasPath");
	expect_str(ad, "v1_Foo", "one");
	expect_str(ad, "v1_Bar", "two");
	classad_free(ad);
}

/* Jobs that cannot be run as configured are logged and left out; a
 * program that does not exist is logged and counted, never fatal. */
static void test_bad_jobs(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_JOBLIST = noexe badmode noperiod badperiod "
		 "badargs ok missing\n"
		 "STARTD_CRON_badmode_EXECUTABLE = /bin/true\n"
		 "STARTD_CRON_badmode_MODE = Sometimes\n"
		 "STARTD_CRON_noperiod_EXECUTABLE = /bin/true\n"
		 "STARTD_CRON_badperiod_EXECUTABLE = /bin/true\n"
		 "STARTD_CRON_badperiod_PERIOD = 10x\n"
		 "STARTD_CRON_badargs_EXECUTABLE = /bin/true\n"
		 "STARTD_CRON_badargs_ARGS = \"a 'b\"\n"
		 "STARTD_CRON_badargs_MODE = OneShot\n"
		 "STARTD_CRON_ok_EXECUTABLE = /bin/true\n"
		 "STARTD_CRON_ok_PERIOD = 2m\n"
		 "STARTD_CRON_missing_EXECUTABLE = @D@/no/such/program\n"
		 "STARTD_CRON_missing_MODE = OneShot\n");
	struct sd_cron_job_info i;
	const char *bad[] = {"noexe", "badmode", "noperiod", "badperiod",
			     "badargs"};
	for (size_t k = 0; k < sizeof(bad) / sizeof(*bad); k++)
		assert_int_equal(sd_cron_job_info(h->c, bad[k], &i),
				 KS_ENOTFOUND);
	assert_true(log_has(h, "no STARTD_CRON_noexe_EXECUTABLE"));
	assert_true(log_has(h, "unknown STARTD_CRON_badmode_MODE 'Sometimes'"));
	assert_true(log_has(h, "no STARTD_CRON_noperiod_PERIOD"));
	assert_true(log_has(h, "invalid STARTD_CRON_badperiod_PERIOD '10x'"));
	assert_true(log_has(h, "unbalanced single quote"));
	assert_true(wait_for(h, c_log, "cannot run job 'missing'",
			     5000));
	assert_int_equal(sd_cron_job_info(h->c, "missing", &i), 0);
	assert_int_equal(i.fails, 1);
	assert_int_equal(i.runs, 0);
	assert_string_equal(i.state, "Idle");
	assert_true(wait_state(h, "ok", "Idle", 5000));
	assert_int_equal(sd_cron_job_info(h->c, "ok", &i), 0);
	assert_int_equal(i.runs, 1);
}

/* Standard error goes to the log; with LOG_NON_ZERO_EXIT a failing job's
 * output and standard error are logged too, and its ad still counts. */
static void test_stderr_and_failure(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_LOG_NON_ZERO_EXIT = true\n"
		 "STARTD_CRON_JOBLIST = bad good\n"
		 "STARTD_CRON_bad_EXECUTABLE = @S@\n"
		 "STARTD_CRON_bad_ARGS = fail\n"
		 "STARTD_CRON_bad_MODE = OneShot\n"
		 "STARTD_CRON_good_EXECUTABLE = @S@\n"
		 "STARTD_CRON_good_ARGS = stderr\n"
		 "STARTD_CRON_good_MODE = OneShot\n");
	assert_true(wait_updates(h, 2, 5000));
	classad *ad = slot_ad(h, 1, NULL);
	expect_int(ad, "Bad", 1);
	expect_int(ad, "Good", 1);
	classad_free(ad);
	assert_true(log_has(h, "exit_status=3"));
	assert_true(log_has(h, "produced 1 lines of standard output"));
	assert_true(log_has(h, "['bad' ("));
	assert_true(log_has(h, "produced 1 lines of standard error"));
	assert_true(log_has(h, "bad things happened"));
	assert_true(log_has(h, "'good' stderr: a warning on stderr"));
}

/* ---- policy ------------------------------------------------------------ */

/* If_Changed asks for a collector update only when the ad changed
 * (LastUpdate aside); Always asks every time. */
static void test_autopublish(void **state)
{
	struct h *h = *state;
	write_file(h, "ap.out", "A = 1\n");
	start(h, "STARTD_CRON_AUTOPUBLISH = If_Changed\n"
		 "STARTD_CRON_JOBLIST = ap\n" EMIT_JOB("ap", "OnDemand"));
	sd_cron_run_on_demand(h->c, "ap");
	assert_true(wait_updates(h, 1, 5000));
	assert_int_equal(h->asked, 1); /* a new ad is a changed one */
	assert_true(wait_state(h, "ap", "Idle", 5000));
	sd_cron_run_on_demand(h->c, "ap");
	assert_true(wait_updates(h, 2, 5000));
	assert_int_equal(h->asked, 1);
	assert_true(wait_state(h, "ap", "Idle", 5000));
	write_file(h, "ap.out", "A = 2\n");
	sd_cron_run_on_demand(h->c, "ap");
	assert_true(wait_updates(h, 3, 5000));
	assert_int_equal(h->asked, 2);
	assert_true(wait_state(h, "ap", "Idle", 5000));
	reconfig(h, "STARTD_CRON_AUTOPUBLISH = Always\n"
		    "STARTD_CRON_JOBLIST = ap\n" EMIT_JOB("ap", "OnDemand"));
	sd_cron_run_on_demand(h->c, "ap");
	assert_true(wait_updates(h, 4, 5000));
	assert_int_equal(h->asked, 3);
}

/* CONDITION is evaluated against the context ad when the job is due. */
static void test_condition(void **state)
{
	struct h *h = *state;
	h->ctx = classad_new();
	classad_insert_bool(h->ctx, "HasFoo", true);
	start(h, "STARTD_CRON_JOBLIST = yes no notbool\n"
		 "STARTD_CRON_yes_EXECUTABLE = @S@\n"
		 "STARTD_CRON_yes_ARGS = count @D@/yes\n"
		 "STARTD_CRON_yes_MODE = OneShot\n"
		 "STARTD_CRON_yes_CONDITION = HasFoo\n"
		 "STARTD_CRON_no_EXECUTABLE = @S@\n"
		 "STARTD_CRON_no_ARGS = count @D@/no\n"
		 "STARTD_CRON_no_MODE = OneShot\n"
		 "STARTD_CRON_no_CONDITION = HasBar =?= true\n"
		 "STARTD_CRON_notbool_EXECUTABLE = @S@\n"
		 "STARTD_CRON_notbool_ARGS = count @D@/notbool\n"
		 "STARTD_CRON_notbool_MODE = OneShot\n"
		 "STARTD_CRON_notbool_CONDITION = \"abc\"\n");
	sd_cron_set_context(h->c, on_context, h);
	assert_true(wait_lines(h, "yes", NULL, 1, 5000));
	assert_true(wait_for(h, c_log,
			     "job 'no' CONDITION evaluated to false", 5000));
	assert_true(log_has(h, "job 'notbool' CONDITION is not boolean"));
	assert_int_equal(count_lines(h, "no", NULL), 0);
	assert_int_equal(count_lines(h, "notbool", NULL), 0);
	struct sd_cron_job_info i;
	assert_int_equal(sd_cron_job_info(h->c, "no", &i), 0);
	assert_string_equal(i.state, "Ready");
}

/* Jobs whose loads add up beyond MAX_JOB_LOAD run one after the other. */
static void test_job_load(void **state)
{
	struct h *h = *state;
	start(h, "STARTD_CRON_MAX_JOB_LOAD = 1.0\n"
		 "STARTD_CRON_JOBLIST = j1 j2\n"
		 "STARTD_CRON_j1_EXECUTABLE = @S@\n"
		 "STARTD_CRON_j1_ARGS = sleep 0.4 @D@/j\n"
		 "STARTD_CRON_j1_MODE = OneShot\n"
		 "STARTD_CRON_j1_JOB_LOAD = 0.6\n"
		 "STARTD_CRON_j2_EXECUTABLE = @S@\n"
		 "STARTD_CRON_j2_ARGS = sleep 0.4 @D@/j\n"
		 "STARTD_CRON_j2_MODE = OneShot\n"
		 "STARTD_CRON_j2_JOB_LOAD = 0.6\n");
	assert_true(wait_state(h, "j2", "Ready", 5000));
	assert_true(wait_updates(h, 2, 5000));
	if (h->when[1] - h->when[0] < 350)
		fail_msg("the jobs overlapped (%lld ms apart)",
			 (long long)(h->when[1] - h->when[0]));
}

/* A METRICS job's values add up across the resource instances a slot
 * holds (SUM) or keep their peak (PEAK), and across reports. */
static void test_metrics(void **state)
{
	struct h *h = *state;
	write_file(h, "mon.out",
		   "SlotMergeConstraint = StringListMember(\"SQUID0\", "
		   "AssignedSQUIDs)\n"
		   "UptimeSQUIDsSeconds = 5.0\n"
		   "UptimeSQUIDsMemoryPeakUsage = 50\n"
		   "- SQUIDsReport0\n"
		   "SlotMergeConstraint = StringListMember(\"SQUID1\", "
		   "AssignedSQUIDs)\n"
		   "UptimeSQUIDsSeconds = 1.0\n"
		   "UptimeSQUIDsMemoryPeakUsage = 10\n"
		   "- SQUIDsReport1\n");
	start(h, "STARTD_CRON_JOBLIST = mon\n" EMIT_JOB("mon", "OnDemand")
		 "STARTD_CRON_mon_METRICS = SUM:SQUIDs, PEAK:SQUIDsMemory\n");
	sd_cron_run_on_demand(h->c, "mon");
	assert_true(wait_updates(h, 2, 5000));
	classad *s1 = slot_ad(h, 1, "AssignedSQUIDs = \"SQUID0,SQUID1\"\n");
	classad *s2 = slot_ad(h, 2, "AssignedSQUIDs = \"SQUID1\"\n");
	expect_real(s1, "UptimeSQUIDsSeconds", 6.0);
	expect_real(s1, "UptimeSQUIDsMemoryPeakUsage", 50.0);
	expect_real(s2, "UptimeSQUIDsSeconds", 1.0);
	expect_none(s1, "SlotMergeConstraint");
	classad_free(s1);
	classad_free(s2);
	assert_true(wait_state(h, "mon", "Idle", 5000));
	sd_cron_run_on_demand(h->c, "mon");
	assert_true(wait_updates(h, 4, 5000));
	s1 = slot_ad(h, 1, "AssignedSQUIDs = \"SQUID0\"\n");
	expect_real(s1, "UptimeSQUIDsSeconds", 10.0);
	expect_real(s1, "UptimeSQUIDsMemoryPeakUsage", 50.0);
	classad_free(s1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_single_ad),
		T(test_several_ads),
		T(test_replace_by_name),
		T(test_targeting),
		T(test_prefix_and_slots),
		T(test_bad_lines),
		T(test_partial_and_long_lines),
		T(test_periodic_and_wait_for_exit),
		T(test_wait_for_exit_at_once),
		T(test_wait_for_exit_stream),
		T(test_one_shot_and_on_demand),
		T(test_outlives_period),
		T(test_kill),
		T(test_kill_escalates),
		T(test_reconfig_job_list),
		T(test_reconfig_hup_and_rerun),
		T(test_free_while_running),
		T(test_shutdown),
		T(test_when_idle),
		T(test_args_env_cwd),
		T(test_bad_jobs),
		T(test_stderr_and_failure),
		T(test_autopublish),
		T(test_condition),
		T(test_job_load),
		T(test_metrics),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
