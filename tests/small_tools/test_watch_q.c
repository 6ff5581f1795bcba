/*
 * test_watch_q.c: unit tests (cmocka) of condor_watch_q's parts: the
 * -exit conditions, the command line, how events move jobs between
 * states, how jobs are grouped into rows and counted, and the text of
 * the table, bars and summary (the layouts were checked against
 * HTCondor's tool on the same events).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wq.h"

/* ---- -exit ---------------------------------------------------------------- */

static void exit_valid(void **state)
{
	(void)state;
	struct wq_exit e;
	char msg[256];
	assert_int_equal(wq_exit_parse("all,done,0", &e, msg, sizeof msg), 0);
	assert_int_equal(e.grouper, WQ_ALL);
	assert_int_equal(e.check, WQ_CHECK_DONE);
	assert_int_equal(e.status, 0);
	assert_string_equal(e.disp, "all done");
	assert_int_equal(wq_exit_parse("any,held,1", &e, msg, sizeof msg), 0);
	assert_int_equal(e.grouper, WQ_ANY);
	assert_int_equal(e.check, WQ_CHECK_HELD);
	assert_int_equal(e.status, 1);
	/* the status defaults to 0 */
	assert_int_equal(wq_exit_parse("none,active", &e, msg, sizeof msg), 0);
	assert_int_equal(e.grouper, WQ_NONE);
	assert_int_equal(e.check, WQ_CHECK_ACTIVE);
	assert_int_equal(e.status, 0);
	assert_string_equal(e.disp, "none active");
	/* as the shell sees Python's sys.exit() */
	assert_int_equal(wq_exit_parse("any,idle,-1", &e, msg, sizeof msg), 0);
	assert_int_equal(e.status, 255);
	assert_int_equal(wq_exit_parse("any,idle,+7", &e, msg, sizeof msg), 0);
	assert_int_equal(e.status, 7);
	assert_int_equal(wq_exit_parse("any,idle,256", &e, msg, sizeof msg), 0);
	assert_int_equal(e.status, 0);
}

static void exit_invalid(void **state)
{
	(void)state;
	struct wq_exit e;
	char msg[256];
	assert_int_equal(wq_exit_parse("all", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "invalid -exit specification");
	assert_int_equal(wq_exit_parse("all,done,0,1", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "invalid -exit specification");
	assert_int_equal(wq_exit_parse("some,done", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "invalid GROUPER \"some\", must be one of "
				 "{all, any, none}");
	/* case matters, as in HTCondor's */
	assert_int_equal(wq_exit_parse("ALL,done", &e, msg, sizeof msg), -1);
	assert_int_equal(wq_exit_parse("all,finished", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "invalid JOB_STATUS \"finished\", must be one "
				 "of {active, done, idle, held}");
	assert_int_equal(wq_exit_parse("all,done,x", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "exit_status must be an integer, but was \"x\"");
	assert_int_equal(wq_exit_parse("all,done,", &e, msg, sizeof msg), -1);
	assert_string_equal(msg, "exit_status must be an integer, but was \"\"");
}

/* ---- the command line -------------------------------------------------------- */

/* Parses the words of line, copied into copy (512 bytes, which o's lists
 * point into); returns the status, the outputs in out and err.  What a
 * refused line allocated is freed. */
static int parse_line(char *copy, const char *line, struct wq_opts *o,
		      char *out, char *err)
{
	snprintf(copy, 512, "%s", line);
	char *argv[32] = {"condor_watch_q"};
	int argc = 1;
	for (char *w = strtok(copy, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	char *ob = NULL, *eb = NULL;
	size_t on = 0, en = 0;
	FILE *fo = open_memstream(&ob, &on), *fe = open_memstream(&eb, &en);
	int rc = wq_parse_args(argc, argv, o, fo, fe);
	fclose(fo);
	fclose(fe);
	snprintf(out, 4096, "%s", ob);
	snprintf(err, 4096, "%s", eb);
	free(ob);
	free(eb);
	if (rc >= 0)
		wq_opts_free(o);
	return rc;
}

static const char *last_line(const char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '\n')
		n--;
	while (n && s[n - 1] != '\n')
		n--;
	return s + n;
}

static void args_ok(void **state)
{
	(void)state;
	struct wq_opts o;
	char out[4096], err[4096], w[512];
	assert_int_equal(parse_line(w, "-clus 5 6 -exit all,done,0 -exit any,held,1 "
				    "-no-table -groupby=cluster -int 2",
				    &o, out, err), -1);
	assert_int_equal(o.clusters.n, 2);
	assert_string_equal(o.clusters.v[1], "6");
	assert_int_equal(o.nexits, 2);
	assert_int_equal(o.exits[1].status, 1);
	assert_false(o.table);
	assert_true(o.progress);
	assert_int_equal(o.groupby, WQ_BY_CLUSTER);
	assert_true(o.interval == 2.0);
	assert_int_equal(o.color, -1);
	assert_int_equal(o.decay, 7L * 24 * 3600);
	wq_opts_free(&o);

	/* a repeated list option replaces the first; the decay's units */
	assert_int_equal(parse_line(w, "-users a b -users c -exited-row-decay 90m "
				    "-no-color",
				    &o, out, err), -1);
	assert_int_equal(o.users.n, 1);
	assert_string_equal(o.users.v[0], "c");
	assert_int_equal(o.decay, 90 * 60);
	assert_int_equal(o.color, 0);
	wq_opts_free(&o);
	assert_int_equal(parse_line(w, "-exited-row-decay 2", &o, out, err), -1);
	assert_int_equal(o.decay, 2 * 7 * 86400);
	wq_opts_free(&o);
}

static void args_refused(void **state)
{
	(void)state;
	struct wq_opts o;
	char out[4096], err[4096], w[512];
	assert_int_equal(parse_line(w, "-bogus", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: "
				"unrecognized arguments: -bogus\n");
	assert_int_equal(parse_line(w, "-c 1", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: ambiguous "
				"option: -c could match -clusters, -collector, "
				"-color\n");
	assert_int_equal(parse_line(w, "-exit any", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: invalid "
				"-exit specification\n");
	assert_int_equal(parse_line(w, "-clusters", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: argument "
				"-clusters: expected at least one argument\n");
	assert_int_equal(parse_line(w, "-groupby owner", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: argument "
				"-groupby: invalid choice: 'owner' (choose from "
				"'batch', 'log', 'cluster')\n");
	assert_int_equal(parse_line(w, "-exited-row-decay 3q", &o, out, err), 2);
	assert_string_equal(last_line(err), "condor_watch_q: error: Unknown "
				"unit specifier provided for -exited-row-decay: "
				"q\n");
	/* condor_q's habits get a hint, status 1, usage on stdout */
	assert_int_equal(parse_line(w, "12 13", &o, out, err), 1);
	assert_string_equal(err, "condor_watch_q: error: argument 12: to track "
				 "specific cluster IDs, try -clusters 12 13\n");
	assert_true(strncmp(out, "usage: condor_watch_q", 21) == 0);
	assert_int_equal(parse_line(w, "alice 5 bob", &o, out, err), 1);
	assert_string_equal(err, "condor_watch_q: error: argument alice: to "
				 "track jobs from specific users, try -users "
				 "alice bob\n");
	assert_int_equal(parse_line(w, "-userlog a.log", &o, out, err), 1);
	assert_string_equal(err, "condor_watch_q: error: argument -userlog: to "
				 "track jobs from specific event logs, try "
				 "-files a.log\n");
	assert_int_equal(parse_line(w, "-clusters 1 -larger-than 3", &o, out, err), 1);
	assert_string_equal(err, "ERROR: Use of both -clusters and -larger-than "
				 "flag is prohibited.\n");
	assert_int_equal(parse_line(w, "-clusters x", &o, out, err), 1);
	assert_string_equal(err, "ERROR: -clusters: \"x\" is not a cluster id\n");
}

/* ---- events and rows ----------------------------------------------------------- */

static void event_states(void **state)
{
	(void)state;
	assert_int_equal(wq_event_state(0, "Job submitted"), WQ_IDLE);
	assert_int_equal(wq_event_state(1, ""), WQ_RUN);
	assert_int_equal(wq_event_state(4, ""), WQ_IDLE);
	assert_int_equal(wq_event_state(5, ""), WQ_DONE);
	assert_int_equal(wq_event_state(9, ""), WQ_REMOVED);
	assert_int_equal(wq_event_state(10, ""), WQ_SUSPENDED);
	assert_int_equal(wq_event_state(11, ""), WQ_IDLE);
	assert_int_equal(wq_event_state(12, ""), WQ_HELD);
	assert_int_equal(wq_event_state(13, ""), WQ_IDLE);
	assert_int_equal(wq_event_state(6, "Image size"), WQ_UNSEEN);
	assert_int_equal(wq_event_state(28, ""), WQ_UNSEEN);
	assert_int_equal(wq_event_state(40, "Started transferring input files"),
			 WQ_INPUT);
	assert_int_equal(wq_event_state(40, "Started transferring output files"),
			 WQ_OUTPUT);
	assert_int_equal(wq_event_state(40, "Finished transferring input files"),
			 WQ_UNSEEN);
}

static struct wq_opts defaults(void)
{
	struct wq_opts o;
	char out[4096], err[4096], w[512];
	parse_line(w, "-exit any,held", &o, out, err);
	return o;
}

/* The events of the sample log: cluster 12 (3 procs: running, done,
 * held) and cluster 13 (1 proc, idle). */
static void sample(struct wq_track *t)
{
	for (int p = 0; p < 3; p++)
		wq_track_event(t, "/w/a.log", 0, 12, p, "", 100, 200, NULL);
	wq_track_event(t, "/w/a.log", 1, 12, 0, "", 101, 200, NULL);
	wq_track_event(t, "/w/a.log", 5, 12, 1, "", 102, 200, NULL);
	wq_track_event(t, "/w/a.log", 12, 12, 2, "", 102, 200, NULL);
	wq_track_event(t, "/w/a.log", 0, 13, 0, "", 100, 200, NULL);
	wq_track_event(t, "/w/a.log", 35, 13, -1, "", 100, 200, NULL);
}

static void rows_by_batch(void **state)
{
	(void)state;
	struct wq_track t = {0};
	wq_track_know(&t, 13, "mine", 4);
	sample(&t);
	struct wq_opts o = defaults();
	struct wq_rows r;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[0].key, "ID: 12");
	assert_int_equal(r.v[0].count[WQ_RUN], 1);
	assert_int_equal(r.v[0].count[WQ_DONE], 1);
	assert_int_equal(r.v[0].count[WQ_HELD], 1);
	assert_int_equal(r.v[0].total, 3);
	assert_string_equal(r.v[0].job_ids, "12.0, 12.2");
	/* the known batch name and TotalSubmitProcs */
	assert_string_equal(r.v[1].key, "mine");
	assert_int_equal(r.v[1].count[WQ_IDLE], 1);
	assert_int_equal(r.v[1].total, 4);
	assert_int_equal(r.total, 7);
	assert_int_equal(r.totals[WQ_IDLE], 1);
	wq_rows_free(&r);

	/* a cluster all done is listed after those still active */
	wq_track_event(&t, "/w/a.log", 5, 12, 0, "", 110, 200, NULL);
	wq_track_event(&t, "/w/a.log", 9, 12, 2, "", 111, 200, NULL);
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	assert_string_equal(r.v[0].key, "mine");
	assert_string_equal(r.v[1].key, "ID: 12");
	assert_false(r.v[1].active);
	assert_string_equal(r.v[1].job_ids, "");
	wq_rows_free(&r);
	/* and, with -no-display-exited, left out once its decay passed,
	 * still counted in the totals */
	o.display_exited = false;
	o.decay = 100;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.total, 7);
	wq_rows_free(&r);
	wq_rows_make(&t, &o, 150, NULL, NULL, &r);
	assert_int_equal(r.n, 2);
	wq_rows_free(&r);
	wq_opts_free(&o);
	wq_track_free(&t);
}

static void rows_grouped(void **state)
{
	(void)state;
	struct wq_track t = {0};
	wq_track_know(&t, 12, "same", -1);
	wq_track_know(&t, 13, "same", -1);
	sample(&t);
	struct wq_opts o = defaults();
	struct wq_rows r;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].total, 4);
	assert_int_equal(r.v[0].min_cluster, 12);
	assert_string_equal(r.v[0].job_ids, "12.0 ... 13.0");
	wq_rows_free(&r);
	o.groupby = WQ_BY_CLUSTER;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[1].key, "13");
	wq_rows_free(&r);
	o.groupby = WQ_BY_LOG;
	o.abbreviate = false;
	wq_rows_make(&t, &o, 300, "/home/u", "/w", &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].key, "./a.log");
	wq_rows_free(&r);
	wq_opts_free(&o);
	wq_track_free(&t);
}

static void batch_from_notes(void **state)
{
	(void)state;
	struct wq_track t = {0};
	wq_track_know(&t, 31, "asked", -1);
	wq_track_event(&t, "/w/a.log", 0, 30, 0, "", 1, 1, "noted");
	wq_track_event(&t, "/w/a.log", 0, 31, 0, "", 1, 1, "noted");
	/* only a submit event's notes count, and only the first event's */
	wq_track_event(&t, "/w/a.log", 1, 32, 0, "", 1, 1, "exec");
	wq_track_event(&t, "/w/a.log", 0, 32, 1, "", 1, 1, "later");
	assert_string_equal(t.c[0].batch, "noted");
	assert_string_equal(t.c[1].batch, "asked");
	assert_null(t.c[2].batch);
	wq_track_free(&t);
}

static void filters(void **state)
{
	(void)state;
	struct wq_track t = {0};
	wq_track_filter(&t, 13);
	sample(&t);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.c[0].id, 13);
	wq_track_free(&t);
	t = (struct wq_track){.has_since = true, .since = 13};
	sample(&t);
	assert_int_equal(t.n, 1);
	wq_track_free(&t);
}

static void exit_conditions(void **state)
{
	(void)state;
	struct wq_track t = {0};
	struct wq_exit all_done = {WQ_ALL, WQ_CHECK_DONE, 0, ""};
	struct wq_exit any_held = {WQ_ANY, WQ_CHECK_HELD, 1, ""};
	struct wq_exit none_active = {WQ_NONE, WQ_CHECK_ACTIVE, 2, ""};
	/* over no jobs: all and none hold, any does not */
	assert_true(wq_exit_holds(&t, &all_done));
	assert_false(wq_exit_holds(&t, &any_held));
	assert_true(wq_exit_holds(&t, &none_active));
	sample(&t);
	assert_false(wq_exit_holds(&t, &all_done));
	assert_true(wq_exit_holds(&t, &any_held));
	assert_false(wq_exit_holds(&t, &none_active));
	wq_track_event(&t, "/w/a.log", 5, 12, 0, "", 1, 1, NULL);
	wq_track_event(&t, "/w/a.log", 13, 12, 2, "", 1, 1, NULL);
	wq_track_event(&t, "/w/a.log", 5, 12, 2, "", 1, 1, NULL);
	wq_track_event(&t, "/w/a.log", 5, 13, 0, "", 1, 1, NULL);
	assert_true(wq_exit_holds(&t, &all_done));
	assert_false(wq_exit_holds(&t, &any_held));
	assert_true(wq_exit_holds(&t, &none_active));
	/* a removed job is not done, but no longer active */
	wq_track_event(&t, "/w/a.log", 9, 13, 1, "", 1, 1, NULL);
	assert_false(wq_exit_holds(&t, &all_done));
	assert_true(wq_exit_holds(&t, &none_active));
	wq_track_free(&t);
}

static void nice_paths(void **state)
{
	(void)state;
	char *p = wq_nice_path("/home/u/jobs/a.log", "/home/u", "/tmp");
	assert_string_equal(p, "~/jobs/a.log");
	free(p);
	p = wq_nice_path("/home/u/jobs/a.log", "/home/u", "/home/u/jobs");
	assert_string_equal(p, "./a.log");
	free(p);
	p = wq_nice_path("/a.log", "/home/u", "/tmp");
	assert_string_equal(p, "/a.log");
	free(p);
	/* a tie goes to the absolute path */
	p = wq_nice_path("/srv/x/a.log", "/srv/y", "/");
	assert_string_equal(p, "/srv/x/a.log");
	free(p);
	p = wq_nice_path("/home/users/al/data/jobs/a.log",
			 "/home/users/al/data/x", "/");
	assert_string_equal(p, "~/../jobs/a.log");
	free(p);
}

/* ---- the text ----------------------------------------------------------------- */

static void render_table(void **state)
{
	(void)state;
	struct wq_track t = {0};
	sample(&t);
	struct wq_opts o = defaults();
	struct wq_rows r;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	struct wq_view v = {.columns = 80, .lines = 24,
			    .updated = "2026-11-27 10:00:00"};
	char *text = wq_render(&r, &o, &v);
	assert_string_equal(text,
		"BATCH    HELD  IDLE  RUN  DONE  TOTAL  JOB_IDS\n"
		"ID: 12     1     -    1     1      3   12.0, 12.2 "
		"[==========#########!!!!!!!!!]\n"
		"ID: 13     -     1    -     -      1   13.0       "
		"[----------------------------]\n"
		"\n"
		"Total Progress: [-----------------==============="
		"###############!!!!!!!!!!!!!!!]\n"
		"\n"
		"Total: 4 jobs; 1 completed, 1 idle, 1 running, 1 held\n"
		"\n"
		"Updated at 2026-11-27 10:00:00\n"
		"...");
	free(text);

	/* no -exit: how to stop; refreshing: no "..." */
	o.nexits = 0;
	o.table = false;
	o.percentages = true;
	v.refresh = true;
	text = wq_render(&r, &o, &v);
	assert_string_equal(text,
		"Total Progress: [-----------------==============="
		"###############!!!!!!!!!!!!!!!]\n"
		"\n"
		"Total: 4 jobs; 25% completed, 0% removed, 25% idle, "
		"25% running, 25% held, 0% suspended\n"
		"\n"
		"Updated at 2026-11-27 10:00:00\n"
		"Press ^C to exit");
	free(text);
	v.key_press = true;
	o.summary = o.progress = o.updated_at = false;
	text = wq_render(&r, &o, &v);
	assert_string_equal(text, "\nPress any key to exit");
	free(text);
	wq_rows_free(&r);
	wq_opts_free(&o);
	wq_track_free(&t);
}

static void render_limits(void **state)
{
	(void)state;
	struct wq_track t = {0};
	sample(&t);
	struct wq_opts o = defaults();
	struct wq_rows r;
	wq_rows_make(&t, &o, 300, NULL, NULL, &r);
	/* too narrow for row bars: rows cut to the width, and the summary's
	 * words shortened until it fits */
	struct wq_view v = {.columns = 40, .lines = 24, .updated = "now"};
	o.progress = o.updated_at = false;
	char *text = wq_render(&r, &o, &v);
	assert_string_equal(text,
		"BATCH    HELD  IDLE  RUN  DONE  TOTAL  JOB_IDS\n"
		"ID: 12     1     -    1     1      3   1\n"
		"ID: 13     -     1    -     -      1   1\n"
		"\n"
		"Total: 4 jobs; 1 co, 1 id, 1 ru, 1 he\n"
		"...");
	free(text);
	/* too short: cut, and said so */
	v.columns = 80;
	v.lines = 4;
	text = wq_render(&r, &o, &v);
	assert_string_equal(text,
		"BATCH    HELD  IDLE  RUN  DONE  TOTAL  JOB_IDS\n"
		"Insufficient terminal height to display full output!\n"
		"...");
	free(text);
	wq_rows_free(&r);
	/* no jobs at all: the columns always shown, an all-idle bar */
	struct wq_track none = {0};
	wq_rows_make(&none, &o, 300, NULL, NULL, &r);
	v.lines = 24;
	o.progress = true;
	text = wq_render(&r, &o, &v);
	assert_string_equal(text,
		"BATCH  IDLE  RUN  DONE  TOTAL\n"
		"\n"
		"Total Progress: [----------------------------------------"
		"----------------------]\n"
		"\n"
		"Total: 0 jobs; \n"
		"...");
	free(text);
	wq_rows_free(&r);
	wq_opts_free(&o);
	wq_track_free(&t);
}

static void bars(void **state)
{
	(void)state;
	long c[WQ_NSTATES] = {0};
	c[WQ_IDLE] = 1;
	c[WQ_RUN] = 1;
	c[WQ_DONE] = 1;
	/* 10 wide: 8 inside, 2 each, the 2 left over to the first longest */
	char *b = wq_bar(NULL, c, 3, 10, false);
	assert_string_equal(b, "[----==##]");
	free(b);
	b = wq_bar(NULL, c, 3, 6, true);
	assert_string_equal(b, "[\033[93m--\033[0m\033[36m\033[0m\033[36m="
			       "\033[0m\033[36m\033[0m\033[32m#\033[0m\033[31m"
			       "\033[0m\033[31m\033[0m\033[31m\033[0m]");
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_valid),
		cmocka_unit_test(exit_invalid),
		cmocka_unit_test(args_ok),
		cmocka_unit_test(args_refused),
		cmocka_unit_test(event_states),
		cmocka_unit_test(rows_by_batch),
		cmocka_unit_test(rows_grouped),
		cmocka_unit_test(batch_from_notes),
		cmocka_unit_test(filters),
		cmocka_unit_test(exit_conditions),
		cmocka_unit_test(nice_paths),
		cmocka_unit_test(render_table),
		cmocka_unit_test(render_limits),
		cmocka_unit_test(bars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
