/*
 * test_status.c: unit tests of condor_status's parts -- printf
 * conversions, HTCondor's time and size texts, natural sorting, the
 * column engine, the summary, the query ad sent for given arguments, and
 * whole runs through st_main() in-process.  The output cases of the
 * command itself are in cases.txt.
 *
 * Runs in tests/status/ads with TZ=UTC (see CMakeLists.txt).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

/* ---- helpers ----------------------------------------------------------- */

static classad *ad_of(const char *text)
{
	struct ks_err e;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL, &e);
	assert_non_null(ad);
	return ad;
}

/* Runs st_main() with argv, returning the exit status; *out and *err
 * get new strings (free()). */
static int run(char **out, char **err, int argc, ...)
{
	const char *argv[32] = {"condor_status"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc && i < 31; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	size_t olen, elen;
	FILE *o = open_memstream(out, &olen);
	FILE *e = open_memstream(err, &elen);
	assert_non_null(o);
	assert_non_null(e);
	int rc = st_main(argc, argv, o, e);
	fclose(o);
	fclose(e);
	return rc;
}

static classad *query_for(int *command, int argc, ...)
{
	const char *argv[32] = {"condor_status"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc && i < 31; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	classad *q = NULL;
	assert_int_equal(st_query_for_args(argc, argv, stderr, &q, command), 0);
	assert_non_null(q);
	return q;
}

static void assert_attr_string(const classad *ad, const char *name,
			       const char *want)
{
	char *s = NULL;
	assert_true(classad_eval_string(ad, name, NULL, &s));
	assert_string_equal(s, want);
	free(s);
}

/* Does the query's Requirements accept the ad? */
static bool accepts(const classad *query, const char *ad_text)
{
	const classad_expr *req = classad_lookup(query, "Requirements");
	if (!req)
		return true;
	classad *ad = ad_of(ad_text);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, req, NULL, &v);
	bool ok = v.type == CLASSAD_BOOLEAN && v.u.b;
	classad_value_clear(&v);
	classad_free(ad);
	return ok;
}

/* ---- text helpers ------------------------------------------------------ */

static void test_format_time(void **state)
{
	(void)state;
	struct classad_buf b = {0};
	tf_format_time(&b, 0);
	assert_string_equal(tf_buf_str(&b), "  0+00:00:00");
	tf_buf_truncate(&b, 0);
	tf_format_time(&b, 900000); /* 10 days 10 hours */
	assert_string_equal(tf_buf_str(&b), " 10+10:00:00");
	tf_buf_truncate(&b, 0);
	tf_format_time(&b, 86400 * 1234 + 61);
	assert_string_equal(tf_buf_str(&b), "1234+00:01:01");
	tf_buf_truncate(&b, 0);
	tf_format_date(&b, 1763799950); /* 2025-11-22 08:25:50 UTC */
	assert_string_equal(tf_buf_str(&b), "11/22 08:25");
	tf_buf_truncate(&b, 0);
	tf_format_date(&b, 1767225600 - 86400 * 31 + 3600); /* Dec 1 01:00 */
	assert_string_equal(tf_buf_str(&b), "12/1  01:00");
	tf_buf_truncate(&b, 0);
	tf_format_date(&b, -1);
	assert_string_equal(tf_buf_str(&b), "    ???    ");
	tf_buf_free(&b);
}

static void test_metric_units(void **state)
{
	(void)state;
	struct classad_buf b = {0};
	tf_metric_units(&b, 512);
	assert_string_equal(tf_buf_str(&b), "512.0 B ");
	tf_buf_truncate(&b, 0);
	tf_metric_units(&b, 1024); /* not above 1024: stays in bytes */
	assert_string_equal(tf_buf_str(&b), "1024.0 B ");
	tf_buf_truncate(&b, 0);
	tf_metric_units(&b, 7821.0 * 1024 * 1024);
	assert_string_equal(tf_buf_str(&b), "7.6 GB");
	tf_buf_truncate(&b, 0);
	tf_metric_units(&b, 5e15);
	assert_string_equal(tf_buf_str(&b), "4547.5 TB");
	tf_buf_free(&b);
}

static void test_spec_parse(void **state)
{
	(void)state;
	struct tf_spec sp;
	tf_spec_parse("Mem: %-10lld\n", &sp);
	assert_true(sp.found);
	assert_int_equal(sp.type, TF_PFT_INT);
	assert_int_equal(sp.width, 10);
	assert_true(sp.left);
	assert_int_equal(sp.start, 5);
	tf_spec_parse("100%% %V", &sp);
	assert_true(sp.found);
	assert_int_equal(sp.type, TF_PFT_VALUE);
	assert_int_equal(sp.letter, 'V');
	tf_spec_parse("%*d", &sp);
	assert_true(sp.unsafe);
	tf_spec_parse("%n", &sp);
	assert_true(sp.unsafe);
	tf_spec_parse("no conversion", &sp);
	assert_false(sp.found);
	tf_spec_parse("%k", &sp);
	assert_false(sp.found);
	tf_spec_parse("%T and %Y", &sp);
	assert_int_equal(sp.type, TF_PFT_TIME);
}

static void test_format_safely(void **state)
{
	(void)state;
	struct classad_buf b = {0};
	struct tf_spec sp;
	/* a second conversion is printed, not read from nowhere */
	tf_spec_parse("%d %s%%\n", &sp);
	tf_format_int(&b, "%d %s%%\n", &sp, 42);
	assert_string_equal(tf_buf_str(&b), "42 %s%\n");
	tf_buf_truncate(&b, 0);
	tf_spec_parse("[%8.2f]", &sp);
	tf_format_double(&b, "[%8.2f]", &sp, 15.625);
	assert_string_equal(tf_buf_str(&b), "[   15.62]");
	tf_buf_truncate(&b, 0);
	tf_spec_parse("<%-6V>", &sp);
	tf_format_str(&b, "<%-6V>", &sp, "ab");
	assert_string_equal(tf_buf_str(&b), "<ab    >");
	tf_buf_truncate(&b, 0);
	tf_spec_parse("%hd", &sp);
	tf_format_int(&b, "%hd", &sp, 70000); /* the length is the value's */
	assert_string_equal(tf_buf_str(&b), "70000");
	tf_buf_free(&b);
}

static void test_collapse_escapes(void **state)
{
	(void)state;
	char *s = tf_collapse_escapes("a\\tb\\n\\x41\\101\\q\\\\");
	assert_string_equal(s, "a\tb\nAAq\\");
	free(s);
	s = tf_collapse_escapes("end\\");
	assert_string_equal(s, "end\\");
	free(s);
}

static void test_natural_cmp(void **state)
{
	(void)state;
	assert_true(tf_natural_cmp("slot2@h", "slot10@h") < 0);
	assert_true(tf_natural_cmp("slot10@h", "slot2@h") > 0);
	assert_true(tf_natural_cmp("slot1@h", "slot1_1@h") < 0);
	assert_int_equal(tf_natural_cmp("abc", "abc"), 0);
	assert_true(tf_natural_cmp("a01", "a1") < 0); /* zeros first */
	assert_true(tf_natural_cmp("X86", "aarch") < 0); /* bytes */
	assert_true(tf_natural_cmp("host9\n", "host10\n") < 0);
}

/* ---- columns ----------------------------------------------------------- */

static void test_columns(void **state)
{
	(void)state;
	struct tf_mask m = {0};
	tf_mask_set_seps(&m, NULL, " ", NULL, "\n");
	struct tf_col *c;
	c = tf_mask_add(&m, "Name", "Name", "%s", -6, TF_NOTRUNC, TF_K_PRINTF,
			NULL, NULL);
	c->alt = '?';
	c->alt_wide = true;
	c = tf_mask_add(&m, "Memory", "Mem", "%6d", 6, TF_NOTRUNC, TF_K_PRINTF,
			NULL, NULL);
	c->alt = '?';
	c->alt_wide = true;
	tf_mask_add(&m, "State", "State", "%v", -5, TF_AUTOW | TF_NOTRUNC,
		    TF_K_PRINTF, NULL, NULL);
	/* truncated, right aligned, no prefix */
	c = tf_mask_add(&m, "Load", "Ld", NULL, 3, TF_NOPREFIX, TF_K_PRINTF,
			NULL, NULL);

	classad *a = ad_of("Name = \"n1\"\nMemory = 512\nState = \"Unclaimed\"\nLoad = \"abcdef\"\n");
	classad *b = ad_of("Name = 7\nState = true\nLoad = \"x\"\n");
	struct tf_row ra = {0}, rb = {0};
	tf_mask_render(&m, a, &ra);
	tf_mask_render(&m, b, &rb);
	struct classad_buf out = {0};
	tf_mask_headings(&m, &out);
	tf_mask_display(&m, &ra, &out);
	tf_mask_display(&m, &rb, &out);
	/* State grew to "Unclaimed" while rendering, so its heading is as
	 * wide; %s of a number shows its text; a missing number fills its
	 * column with "[????]" */
	assert_string_equal(tf_buf_str(&out),
			    "Name   Mem    State    Ld \n"
			    "n1        512 Unclaimedabc\n"
			    "7      [????] true       x\n");
	tf_row_free(&ra);
	tf_row_free(&rb);
	tf_buf_free(&out);
	classad_free(a);
	classad_free(b);
	tf_mask_free(&m);
}

static void test_renderers(void **state)
{
	(void)state;
	const struct tf_custom *cu = tf_custom_find("CONDOR_VERSION");
	assert_non_null(cu);
	struct tf_mask m = {0};
	tf_mask_set_seps(&m, NULL, "|", NULL, "\n");
	tf_mask_add(&m, "CondorVersion", NULL, NULL, -14, TF_NOTRUNC, cu->kind,
		    cu->render, cu->format);
	/* narrower than 10: no build id */
	tf_mask_add(&m, "CondorVersion", NULL, NULL, 8, TF_NOTRUNC, cu->kind,
		    cu->render, cu->format);
	cu = tf_custom_find("PLATFORM");
	tf_mask_add(&m, "OpSys", NULL, NULL, 0, 0, cu->kind, cu->render,
		    cu->format);
	cu = tf_custom_find("ACTIVITY_CODE");
	tf_mask_add(&m, "Activity", NULL, NULL, 0, 0, cu->kind, cu->render,
		    cu->format);
	cu = tf_custom_find("READABLE_MB");
	tf_mask_add(&m, "DetectedMemory", NULL, NULL, 0, 0, cu->kind,
		    cu->render, cu->format);
	cu = tf_custom_find("MEMBER_COUNT");
	tf_mask_add(&m, "DetectedGPUs", NULL, cu->printf, 0, 0, cu->kind,
		    cu->render, cu->format);
	classad *ad = ad_of(
		"CondorVersion = \"$CondorVersion: 25.14.0 2026-11-01 BuildID: 812345 PACKAGEID: x $\"\n"
		"OpSys = \"WINDOWS\"\nOpSysShortName = \"Win10\"\nArch = \"X86_64\"\n"
		"State = \"Preempting\"\nActivity = \"Vacating\"\n"
		"DetectedMemory = 1536\nDetectedGPUs = \"GPU-1, GPU-2,GPU-3\"\n");
	struct tf_row r = {0};
	tf_mask_render(&m, ad, &r);
	struct classad_buf out = {0};
	tf_mask_display(&m, &r, &out);
	assert_string_equal(tf_buf_str(&out),
			    "25.14.0.812345| 25.14.0|x64/Win10|Pv|1.5 GB|3\n");
	tf_row_free(&r);
	tf_buf_free(&out);
	classad_free(ad);
	tf_mask_free(&m);
}

/* ---- summary ----------------------------------------------------------- */

static void test_totals(void **state)
{
	(void)state;
	struct st_totals *t = st_totals_new(ST_PP_SLOTS_NORMAL);
	const char *ads[] = {
		"Arch = \"X86_64\"\nOpSys = \"LINUX\"\nState = \"Claimed\"\n",
		"Arch = \"X86_64\"\nOpSys = \"LINUX\"\nState = \"Unclaimed\"\n",
		"Arch = \"ARM\"\nOpSys = \"LINUX\"\nState = \"Drained\"\n",
		"Arch = \"X86_64\"\nOpSys = \"LINUX\"\n",   /* no State */
		"OpSys = \"LINUX\"\nState = \"Owner\"\n", /* no Arch */
	};
	for (size_t i = 0; i < sizeof ads / sizeof ads[0]; i++) {
		classad *ad = ad_of(ads[i]);
		st_totals_update(t, ad, 0, NULL);
		classad_free(ad);
	}
	struct classad_buf out = {0};
	st_totals_display(t, &out, 14);
	assert_string_equal(tf_buf_str(&out),
		"               Total Owner Claimed Unclaimed Matched Preempting  Drain Backfill BkIdle\n"
		"\n"
		"     ARM/LINUX     1     0       0         0       0          0      1        0      0\n"
		"  X86_64/LINUX     2     0       1         1       0          0      0        0      0\n"
		"\n"
		"         Total     3     0       1         1       0          0      1        0      0\n"
		"\n"
		"              (Omitted 2 malformed ads in computed attribute totals)\n"
		"\n");
	tf_buf_free(&out);
	st_totals_free(t);

	/* partitionable slots roll up their children's states */
	t = st_totals_new(ST_PP_SLOTS_NORMAL);
	classad *p = ad_of("PartitionableSlot = true\nState = \"Unclaimed\"\n"
			   "ChildState = { \"Claimed\", \"Matched\" }\n");
	st_totals_update(t, p, ST_TOT_ROLLUP_PARTITIONABLE | ST_TOT_IGNORE_DYNAMIC,
			 "x64/Linux");
	st_totals_update(t, p, ST_TOT_IGNORE_DYNAMIC, "x64/Linux");
	classad_free(p);
	st_totals_display(t, &out, -1);
	assert_string_equal(tf_buf_str(&out),
		"          Total Owner Claimed Unclaimed Matched Preempting  Drain Backfill BkIdle\n"
		"\n"
		"x64/Linux     3     0       1         1       1          0      0        0      0\n"
		"\n"
		"    Total     3     0       1         1       1          0      0        0      0\n");
	tf_buf_free(&out);
	st_totals_free(t);
}

/* ---- the query --------------------------------------------------------- */

static void test_query_default(void **state)
{
	(void)state;
	int cmd;
	classad *q = query_for(&cmd, 1);
	assert_int_equal(cmd, 5); /* QUERY_STARTD_ADS */
	assert_attr_string(q, "MyType", "Query");
	assert_attr_string(q, "TargetType", "Machine");
	bool b = false;
	assert_true(classad_eval_bool(q, "Requirements", NULL, &b));
	assert_true(b);
	/* what the slot table and its summary read, sorted */
	assert_attr_string(q, "Projection",
			   "Activity Arch CondorLoadAvg EnteredCurrentActivity "
			   "LastHeardFrom Machine Memory MyCurrentTime Name OCU "
			   "OpSys State");
	assert_null(classad_lookup(q, "LimitResults"));
	classad_free(q);
}

static void test_query_constraints(void **state)
{
	(void)state;
	int cmd;
	classad *q = query_for(&cmd, 8, "-schedd", "slot1@h", "exec.y",
			       "-constraint", "Cpus > 1", "-sort", "Memory");
	assert_int_equal(cmd, 6); /* QUERY_SCHEDD_ADS */
	assert_attr_string(q, "TargetType", "Scheduler");
	/* the constraint and the sort key's defined-ness, and any name */
	assert_true(accepts(q, "Cpus = 2\nMemory = 1\nName = \"slot1@h\"\n"));
	assert_true(accepts(q, "Cpus = 2\nMemory = 1\nMachine = \"exec.y\"\n"));
	assert_false(accepts(q, "Cpus = 2\nMemory = 1\nName = \"other\"\n"));
	assert_false(accepts(q, "Cpus = 1\nMemory = 1\nName = \"slot1@h\"\n"));
	assert_false(accepts(q, "Cpus = 2\nName = \"slot1@h\"\n"));
	classad_free(q);

	q = query_for(&cmd, 3, "-claimed", "alice@x");
	/* -claimed ORs its state with names, which are users here */
	assert_true(accepts(q, "State = \"Claimed\"\n"));
	assert_true(accepts(q, "State = \"Unclaimed\"\nRemoteUser = \"alice@x\"\n"));
	assert_false(accepts(q, "State = \"Unclaimed\"\n"));
	classad_free(q);

	q = query_for(&cmd, 2, "-compact");
	assert_true(accepts(q, "PartitionableSlot = true\n"));
	assert_true(accepts(q, "Name = \"static\"\n"));
	assert_false(accepts(q, "DynamicSlot = true\n"));
	classad_free(q);
}

static void test_query_forms(void **state)
{
	(void)state;
	int cmd;
	classad *q = query_for(&cmd, 2, "-startd");
	assert_int_equal(cmd, 53); /* QUERY_MULTIPLE_ADS */
	assert_attr_string(q, "TargetType", "StartD");
	assert_null(classad_lookup(q, "Requirements"));
	classad_free(q);

	q = query_for(&cmd, 2, "-l");
	assert_null(classad_lookup(q, "Projection")); /* whole ads */
	classad_free(q);

	q = query_for(&cmd, 4, "-l", "-attributes", "Name, Memory");
	assert_attr_string(q, "Projection", "Memory Name");
	classad_free(q);

	q = query_for(&cmd, 6, "-af", "Name", "MY.Cpus * 2 + size(\"x\")",
		      "-limit", "5");
	assert_attr_string(q, "Projection", "Cpus Machine Name OCU");
	long long lim = 0;
	assert_true(tf_ad_int(q, "LimitResults", &lim));
	assert_int_equal(lim, 5);
	classad_free(q);

	const char *modes[][3] = {
		{"-master", "DaemonMaster", "7"},  {"-collector", "Collector", "20"},
		{"-negotiator", "Negotiator", "50"}, {"-submitters", "Submitter", "12"},
		{"-any", "Any", "48"},             {"-generic", "Generic", "74"},
	};
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		q = query_for(&cmd, 2, modes[i][0]);
		assert_attr_string(q, "TargetType", modes[i][1]);
		assert_int_equal(cmd, atoi(modes[i][2]));
		classad_free(q);
	}
}

/* ---- whole runs -------------------------------------------------------- */

static void test_run_af(void **state)
{
	(void)state;
	char *out, *err;
	int rc = run(&out, &err, 8, "-ads", "slots.ads", "-af:,", "Name", "Cpus",
		     "-constraint", "Cpus == 2 && DynamicSlot");
	assert_int_equal(rc, 0);
	assert_string_equal(out, "slot1_1@exec02.example.org, 2\n"
				 "slot1_2@exec02.example.org, 2\n");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void test_run_errors(void **state)
{
	(void)state;
	char *out, *err;
	assert_int_equal(run(&out, &err, 2, "-bogus"), 1);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "Error:  Unknown option -bogus\n"));
	free(out);
	free(err);

	assert_int_equal(run(&out, &err, 5, "-ads", "slots.ads", "-constraint",
			     "Cpus =="),
			 1);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "Invalid constraint expression : Cpus ==\n"));
	free(out);
	free(err);

	assert_int_equal(run(&out, &err, 2, "-help"), 0);
	assert_non_null(strstr(err, "Usage: condor_status "));
	free(out);
	free(err);

	/* nothing matches: no table, no summary, success */
	assert_int_equal(run(&out, &err, 5, "-ads", "slots.ads", "-constraint",
			     "false"),
			 0);
	assert_string_equal(out, "");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void test_run_type_filter(void **state)
{
	(void)state;
	char *out, *err;
	/* a file of mixed ads: -master sees only the masters */
	assert_int_equal(run(&out, &err, 6, "-ads", "daemons.ads", "-master",
			     "-af", "Name"),
			 0);
	assert_string_equal(out, "cm.example.org\nexec01.example.org\n");
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_time),
		cmocka_unit_test(test_metric_units),
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_format_safely),
		cmocka_unit_test(test_collapse_escapes),
		cmocka_unit_test(test_natural_cmp),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_renderers),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_query_default),
		cmocka_unit_test(test_query_constraints),
		cmocka_unit_test(test_query_forms),
		cmocka_unit_test(test_run_af),
		cmocka_unit_test(test_run_errors),
		cmocka_unit_test(test_run_type_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
