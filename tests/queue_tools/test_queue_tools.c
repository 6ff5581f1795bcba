/*
 * test_queue_tools.c: unit tests of the job tools' parts: job ids and
 * users on the command line (condor_q's and condor_rm's readings), the
 * constraints they become, the schedd's ACT_ON_JOBS answers turned into
 * HTCondor's messages, condor_qedit's edits and job id constraint,
 * condor_q's summary lines, and its arguments.  The output of whole
 * commands is checked by cases.txt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "cq.h"
#include "hist.h"
#include "qedit.h"
#include "qtool.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static classad *ad_of(const char *text)
{
	struct ks_err e;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL, &e);
	assert_non_null(ad);
	return ad;
}

/* ---- job ids --------------------------------------------------------- */

static void q_ids(void **state)
{
	(void)state;
	int c = 99, p = 99;
	assert_true(qt_q_id("1", &c, &p));
	assert_int_equal(c, 1);
	assert_int_equal(p, -1);
	assert_true(qt_q_id("12.", &c, &p));
	assert_int_equal(c, 12);
	assert_int_equal(p, -1);
	assert_true(qt_q_id("12.3", &c, &p));
	assert_int_equal(p, 3);
	assert_true(qt_q_id("12.-1", &c, &p)); /* HTCondor allows it */
	assert_int_equal(p, -1);
	assert_true(qt_q_id("0", &c, &p));
	assert_int_equal(c, 0);
	assert_false(qt_q_id("alice", &c, &p));
	assert_false(qt_q_id("1.x", &c, &p));
	assert_false(qt_q_id("1.2.3", &c, &p));
	assert_false(qt_q_id("1a", &c, &p));
	assert_false(qt_q_id("", &c, &p));
	assert_false(qt_q_id("99999999999", &c, &p));
}

static void act_ids(void **state)
{
	(void)state;
	int c = 0, p = 0;
	assert_int_equal(qt_act_id("7", &c, &p), QT_ARG_CLUSTER);
	assert_int_equal(c, 7);
	assert_int_equal(p, -1);
	assert_int_equal(qt_act_id("007", &c, &p), QT_ARG_CLUSTER);
	assert_int_equal(c, 7);
	assert_int_equal(qt_act_id("7.2", &c, &p), QT_ARG_JOB);
	assert_int_equal(p, 2);
	assert_int_equal(qt_act_id("0", &c, &p), QT_ARG_BAD_CLUSTER);
	assert_int_equal(qt_act_id("0.1", &c, &p), QT_ARG_BAD_CLUSTER);
	/* not numbers in HTCondor's strict sense: user names */
	assert_int_equal(qt_act_id("alice", &c, &p), QT_ARG_USER);
	assert_int_equal(qt_act_id("7.", &c, &p), QT_ARG_USER);
	assert_int_equal(qt_act_id(".7", &c, &p), QT_ARG_USER);
	assert_int_equal(qt_act_id("7.2.1", &c, &p), QT_ARG_USER);
	assert_int_equal(qt_act_id("7a", &c, &p), QT_ARG_USER);
}

static void id_lists(void **state)
{
	(void)state;
	struct qt_idlist l = {0};
	qt_idlist_add(&l, 1, 0);
	qt_idlist_add(&l, 2, -1);
	qt_idlist_add(&l, 3, 1);
	char *s = qt_idlist_text(&l);
	assert_string_equal(s, "1.0,2,3.1");
	free(s);
	qt_idlist_free(&l);
	s = qt_quote("a\"b");
	assert_string_equal(s, "\"a\\\"b\"");
	free(s);
	s = qt_addr_summary("<127.0.0.1:9618?sock=schedd_1>");
	assert_string_equal(s, "<127.0.0.1:9618?...");
	free(s);
	s = qt_addr_summary("<127.0.0.1:9618>");
	assert_string_equal(s, "<127.0.0.1:9618>");
	free(s);
}

/* ---- condor_rm, condor_hold, condor_release ---------------------------- */

static void act_modes(void **state)
{
	(void)state;
	enum act_mode m;
	assert_true(act_mode_of("/usr/bin/condor_hold", &m));
	assert_int_equal(m, ACT_HOLD);
	assert_true(act_mode_of("condor_release", &m));
	assert_int_equal(m, ACT_RELEASE);
	assert_true(act_mode_of("condor_rm", &m));
	assert_int_equal(m, ACT_REMOVE);
	assert_true(act_mode_of("condor_hold.exe", &m));
	assert_false(act_mode_of("condor_q", &m));
	assert_false(act_mode_of("rm", &m));
}

static void check_msg(enum act_mode mode, int code, const char *want,
		      bool want_ok)
{
	bool ok = !want_ok;
	char *m = act_result_message(mode, 1, 7, code, &ok);
	assert_string_equal(m, want);
	assert_true(ok == want_ok);
	free(m);
}

static void act_messages(void **state)
{
	(void)state;
	check_msg(ACT_REMOVE, 1, "Job 1.7 marked for removal", true);
	check_msg(ACT_HOLD, 1, "Job 1.7 held", true);
	check_msg(ACT_RELEASE, 1, "Job 1.7 released", true);
	check_msg(ACT_REMOVE_X, 1,
		  "Job 1.7 removed locally (remote state unknown)", true);
	check_msg(ACT_REMOVE, 2, "Job 1.7 not found", false);
	check_msg(ACT_HOLD, 3, "Permission denied to hold job 1.7", false);
	check_msg(ACT_REMOVE_X, 3,
		  "Permission denied to force removal of job 1.7", false);
	check_msg(ACT_RELEASE, 4, "Job 1.7 not held to be released", false);
	check_msg(ACT_REMOVE_X, 4,
		  "Job 1.7 not in `X' state to be forcibly removed", false);
	check_msg(ACT_HOLD, 4, "Invalid result for job 1.7", false);
	check_msg(ACT_HOLD, 5, "Job 1.7 already held", false);
	check_msg(ACT_REMOVE, 5, "Job 1.7 already marked for removal", false);
	check_msg(ACT_RELEASE, 5, "Invalid result for job 1.7", false);
	check_msg(ACT_REMOVE, 0, "No result found for job 1.7", false);
	assert_string_equal(act_word(ACT_REMOVE, true), "marked for removal");
	assert_string_equal(act_word(ACT_RELEASE, false), "release");
	assert_string_equal(act_action_name(ACT_REMOVE_X), "RemoveX");
}

static void act_results(void **state)
{
	(void)state;
	classad *r = ad_of("ActionResult = 0\nTotalSuccess = 1\n"
			   "TotalNotFound = 1\njob_1_0 = 1\njob_1_7 = 2\n");
	struct qt_idlist ids = {0};
	qt_idlist_add(&ids, 1, 0);
	qt_idlist_add(&ids, 1, 7);
	char *o = NULL, *e = NULL;
	size_t ol, el;
	FILE *out = open_memstream(&o, &ol), *err = open_memstream(&e, &el);
	bool had_error = false;
	act_print_id_results(out, err, ACT_HOLD, r, &ids, &had_error);
	act_print_totals(out, r);
	fclose(out);
	fclose(err);
	assert_string_equal(o, "Job 1.0 held\n"
			       "1 Succeeded, 0 Failed, 1 Not Found, 0 Bad Status, 0 Already Done, 0 Permission Denied\n");
	assert_string_equal(e, "Job 1.7 not found\n");
	/* HTCondor fails the command only when no job was acted on */
	assert_false(had_error);
	free(o);
	free(e);
	classad_free(r);

	r = ad_of("ActionResult = 0\nTotalSuccess = 0\njob_1_7 = 2\n");
	qt_idlist_free(&ids);
	qt_idlist_add(&ids, 1, 7);
	out = open_memstream(&o, &ol);
	err = open_memstream(&e, &el);
	act_print_id_results(out, err, ACT_REMOVE, r, &ids, &had_error);
	fclose(out);
	fclose(err);
	assert_string_equal(o, "");
	assert_string_equal(e, "Job 1.7 not found\n");
	assert_true(had_error);
	free(o);
	free(e);
	classad_free(r);
	qt_idlist_free(&ids);

	r = ad_of("ActionResult = 1\n");
	assert_true(act_succeeded(r));
	classad_free(r);
}

/* Parses condor_rm-style arguments; returns the status. */
static int act_args(struct act_opts *o, enum act_mode mode, char **err,
		    int argc, ...)
{
	const char *argv[16] = {"condor_rm"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc && i < 15; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	size_t el;
	FILE *e = open_memstream(err, &el);
	o->mode = mode;
	o->prog = "condor_rm";
	int rc = act_parse_args(argc, argv, o, stdout, e);
	fclose(e);
	return rc;
}

static void act_constraints(void **state)
{
	(void)state;
	struct act_opts o = {0};
	char *err = NULL, *what = NULL, *c;

	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "alice"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "Owner == \"alice\"");
	assert_string_equal(what, " of user \"alice\"");
	free(c), free(what), free(err), act_opts_free(&o);

	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "3"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "ClusterId == 3");
	assert_string_equal(what, " in cluster 3");
	free(c), free(what), free(err), act_opts_free(&o);

	assert_int_equal(act_args(&o, ACT_HOLD, &err, 3, "3", "4"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "ClusterId == 3 || ClusterId == 4");
	assert_string_equal(what, " matching constraint (ClusterId == 3 || ClusterId == 4)");
	free(c), free(what), free(err), act_opts_free(&o);

	assert_int_equal(act_args(&o, ACT_HOLD, &err, 4, "-constraint", "Foo > 1",
				  "bob"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "(Foo > 1) && (Owner == \"bob\")");
	assert_string_equal(what, " matching constraint ((Foo > 1) && (Owner == \"bob\"))");
	free(c), free(what), free(err), act_opts_free(&o);

	/* only job ids: no constraint at all */
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 3, "1.0", "2.3"), -1);
	assert_null(act_constraint(&o, &what));
	assert_int_equal(o.ids.n, 2);
	free(err), act_opts_free(&o);

	/* -held turns ids into constraints and filters on JobStatus */
	assert_int_equal(act_args(&o, ACT_RELEASE, &err, 3, "-held", "1.0"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "(ClusterId == 1 && ProcId == 0) && (JobStatus == 5)");
	assert_int_equal(o.ids.n, 0);
	free(c), free(what), free(err), act_opts_free(&o);

	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "-all"), -1);
	c = act_constraint(&o, &what);
	assert_string_equal(c, "ClusterId >= 0");
	assert_string_equal(what, "");
	free(c), free(what), free(err), act_opts_free(&o);
}

static void act_bad_args(void **state)
{
	(void)state;
	struct act_opts o = {0};
	char *err = NULL;
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 3, "1", "-all"), 1);
	assert_string_equal(err, "condor_rm: can't mix -all with other constraints\n");
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "-constraint"), 1);
	assert_string_equal(err, "condor_rm: -constraint requires another argument\n");
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_HOLD, &err, 3, "-subcode", "x1"), 1);
	assert_string_equal(err, "Invalid -subcode x1!\n");
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_HOLD, &err, 3, "-forcex", "1"), 1);
	assert_true(starts(err, "-forcex is only valid with condor_rm\nUsage: "));
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 3, "-forcex", "1"), -1);
	assert_int_equal(o.mode, ACT_REMOVE_X);
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "-bogus"), 1);
	assert_true(starts(err, "Unrecognized option: -bogus\nUsage: condor_rm"));
	free(err), act_opts_free(&o);
	assert_int_equal(act_args(&o, ACT_REMOVE, &err, 2, "0"), 1);
	assert_true(starts(err, "Invalid cluster # from 0.\nYou did not specify any jobs\n"));
	free(err), act_opts_free(&o);
}

/* ---- condor_qedit ------------------------------------------------------ */

static int qe_args(struct qe_opts *o, char **err, int argc, ...)
{
	const char *argv[16] = {"condor_qedit"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc && i < 15; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	size_t el;
	char *so = NULL;
	size_t sol;
	FILE *e = open_memstream(err, &el), *out = open_memstream(&so, &sol);
	int rc = qe_parse_args(argc, argv, o, out, e);
	fclose(e);
	fclose(out);
	free(so);
	return rc;
}

static void qedit_args(void **state)
{
	(void)state;
	struct qe_opts o;
	char *err = NULL, *c;
	assert_int_equal(qe_args(&o, &err, 6, "3.1", "3.0", "Foo=1 ", "Bar", "\"x\""), -1);
	assert_int_equal(o.ids.n, 2);
	assert_int_equal(o.ids.v[0].proc, 0); /* sorted, as HTCondor's set */
	assert_int_equal(o.nedits, 2);
	assert_string_equal(o.edits[0].attr, "Bar");
	assert_string_equal(o.edits[0].value, "\"x\"");
	assert_string_equal(o.edits[1].attr, "Foo");
	assert_string_equal(o.edits[1].value, "1");
	assert_false(o.only_my_jobs);
	assert_null(qe_constraint(&o)); /* whole job ids go one by one */
	free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 6, "3", "4.1", "4.2", "A", "1"), -1);
	c = qe_constraint(&o);
	assert_string_equal(c, "( (ClusterId == 3 || ( ClusterId == 4 && (ProcId == 1  || ProcId == 2 ))) )");
	free(c), free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 4, "alice", "A", "1"), -1);
	c = qe_constraint(&o);
	assert_string_equal(c, "( (Owner==\"alice\") )");
	free(c), free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 5, "-constraint", "JobPrio > 1", "A", "2"), -1);
	assert_true(o.only_my_jobs);
	free(err), qe_opts_free(&o);

	/* as in HTCondor, arguments after the ids that start with a digit
	 * are ids too: "1bad" would be one */
	assert_int_equal(qe_args(&o, &err, 4, "3", "bad-name", "1"), 1);
	assert_string_equal(err, "Update aborted, illegal attribute-name specified for attribute \"bad-name\".\n"
				 "Transaction failed.  No attributes were set.\n");
	free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 4, "3", "A", "(("), 1);
	assert_string_equal(err, "Update aborted, illegal value for : A\n"
				 "Transaction failed.  No attributes were set.\n");
	free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 3, "3", "A"), 1);
	assert_true(starts(err, "condor_qedit : expression required after attribute A\n"));
	free(err), qe_opts_free(&o);

	assert_int_equal(qe_args(&o, &err, 2, "3"), 1);
	assert_true(starts(err, "condor_qedit : Error - no attributes specifed.\n"));
	free(err), qe_opts_free(&o);

	assert_true(qe_in_list("Owner ClusterId,ProcId", "procid"));
	assert_false(qe_in_list("Owner ClusterId", "Own"));
}

/* ---- condor_q ---------------------------------------------------------- */

static int q_args(struct cq_opts *o, char **err, int argc, ...)
{
	const char *argv[16] = {"condor_q"};
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc && i < 15; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	size_t el, sol;
	char *so = NULL;
	FILE *e = open_memstream(err, &el), *out = open_memstream(&so, &sol);
	int rc = cq_parse_args(argc, argv, o, out, e);
	fclose(e);
	fclose(out);
	free(so);
	return rc;
}

static void q_arguments(void **state)
{
	(void)state;
	struct cq_opts o;
	char *err = NULL, *c;
	assert_int_equal(q_args(&o, &err, 1), -1);
	assert_int_equal(o.view, CQ_V_BATCH);
	assert_true(o.my_jobs);
	assert_null(cq_constraint(&o));
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 4, "alice", "7.1", "-nobatch"), -1);
	assert_int_equal(o.view, CQ_V_NORMAL);
	assert_false(o.my_jobs);
	assert_true(o.partial);
	c = cq_constraint(&o);
	assert_string_equal(c, "( (Owner==\"alice\") || (ClusterId == 7 && ProcId == 1) )");
	free(c), free(err), cq_opts_free(&o);

	/* a cluster in the batch view also brings in a DAG's nodes */
	assert_int_equal(q_args(&o, &err, 4, "-constraint", "JobPrio > 0", "7"), -1);
	c = cq_constraint(&o);
	assert_string_equal(c, "( (JobPrio > 0) ) && ( (ClusterId == 7) || "
			       "(DAGManJobId == 7) || "
			       "(int(split(JobBatchId, \".\")[0]) == 7) )");
	free(c), free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 3, "-run", "-hold"), 1);
	assert_string_equal(err, "-run and -hold/held or -idle are incompatible\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 4, "-batch", "-af", "Owner"), 1);
	assert_string_equal(err, "Error: -batch conflicts with -format and -af\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 3, "-limit", "x"), 1);
	assert_string_equal(err, "Error: Unable to convert (x) to a number for -limit.\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 3, "-limit", "0"), 1);
	assert_string_equal(err, "Error: 0 is not a valid for -limit.\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 2, "-bogus"), 1);
	assert_string_equal(err, "Error: unrecognized argument -bogus\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 2, "-dag"), 1);
	assert_string_equal(err, "Error: -dag is an HTCondor option that kestrel's condor_q does not support yet\n");
	free(err), cq_opts_free(&o);

	assert_int_equal(q_args(&o, &err, 3, "-hold:3/1,12", "-allusers"), -1);
	assert_int_equal(o.view, CQ_V_HOLD);
	assert_false(o.my_jobs);
	c = cq_constraint(&o);
	assert_string_equal(c, "( (JobStatus==5) && ((HoldReasonCode==3 && HoldReasonSubCode==1) || HoldReasonCode==12) )");
	free(c), free(err), cq_opts_free(&o);
}

static void q_summary(void **state)
{
	(void)state;
	classad *s = ad_of("MyType = \"Summary\"\n"
			   "Jobs = 3\nIdle = 2\nRunning = 1\nRemoved = 0\n"
			   "Completed = 0\nHeld = 0\nSuspended = 0\n"
			   "MyJobs = 3\nMyIdle = 2\nMyRunning = 1\nMyRemoved = 0\n"
			   "MyCompleted = 0\nMyHeld = 0\nMySuspended = 0\n"
			   "AllusersJobs = 10\nAllusersIdle = 5\nAllusersRunning = 4\n"
			   "AllusersRemoved = 0\nAllusersCompleted = 0\n"
			   "AllusersHeld = 1\nAllusersSuspended = 0\n");
	struct classad_buf b = {0};
	cq_print_summary(&b, s, "alice");
	assert_string_equal(b.data,
		"Total for query: 3 jobs; 0 completed, 0 removed, 2 idle, 1 running, 0 held, 0 suspended \n"
		"Total for alice: 3 jobs; 0 completed, 0 removed, 2 idle, 1 running, 0 held, 0 suspended \n"
		"Total for all users: 10 jobs; 0 completed, 0 removed, 5 idle, 4 running, 1 held, 0 suspended\n");
	tf_buf_truncate(&b, 0);
	cq_print_summary(&b, s, NULL);
	assert_string_equal(b.data,
		"Total for query: 3 jobs; 0 completed, 0 removed, 2 idle, 1 running, 0 held, 0 suspended \n"
		"Total for all users: 10 jobs; 0 completed, 0 removed, 5 idle, 4 running, 1 held, 0 suspended\n");
	tf_buf_free(&b);
	classad_free(s);

	/* the counts of a file's jobs: scheduler universe jobs apart */
	struct cq_counts c = {0};
	classad *j = ad_of("ProcId = 0\nJobStatus = 6\nJobUniverse = 5\n");
	cq_count_job(&c, j);
	classad_free(j);
	j = ad_of("ProcId = 0\nJobStatus = 2\nJobUniverse = 7\n");
	cq_count_job(&c, j);
	classad_free(j);
	j = ad_of("JobStatus = 1\n"); /* a cluster ad */
	cq_count_job(&c, j);
	classad_free(j);
	assert_int_equal(c.running, 1);
	assert_int_equal(c.sched_running, 1);
	assert_int_equal(c.idle, 0);
}

/* ---- condor_history ---------------------------------------------------- */

static void hist_args(void **state)
{
	(void)state;
	struct hi_opts o;
	const char *argv[] = {"condor_history", "alice", "3.1", "-constraint",
			      "ExitCode != 0", "-limit", "5", NULL};
	assert_int_equal(hi_parse_args(7, argv, &o, stdout, stderr), -1);
	char *c = hi_constraint(&o);
	assert_string_equal(c, "( (ExitCode != 0) ) && ( (Owner == \"alice\") || (ClusterId == 3 && ProcId == 1) )");
	assert_int_equal(o.limit, 5);
	free(c);
	hi_opts_free(&o);
}

/* condor_q -analyze considering user priority: bob's claimed slot is
 * one alice's job may preempt when PREEMPTION_REQUIREMENTS lets it (the
 * output cases run without a configuration, where it is False). */
static char *q_analyze_with(const char *preemption_req)
{
	/* the configuration is the environment's alone, whoever runs the
	 * test (ctest, or valgrind in test.sh) */
	setenv("CONDOR_CONFIG", "ONLY_ENV", 1);
	setenv("_CONDOR_PREEMPTION_REQUIREMENTS", preemption_req, 1);
	const char *argv[] = {"condor_q", "-jobads", QT_ADS_DIR "/jobs.ads",
			      "-analyze", "2.0", "-slotads",
			      QT_ADS_DIR "/claimed.ads", "-userprios",
			      QT_ADS_DIR "/userprios.txt", NULL};
	char *o = NULL, *e = NULL;
	size_t ol, el;
	FILE *out = open_memstream(&o, &ol), *err = open_memstream(&e, &el);
	assert_int_equal(cq_main(9, argv, out, err), 0);
	fclose(out);
	fclose(err);
	assert_string_equal(e, "");
	free(e);
	unsetenv("_CONDOR_PREEMPTION_REQUIREMENTS");
	return o;
}

static void q_analyze_preempt(void **state)
{
	(void)state;
	char *o = q_analyze_with("True");
	assert_non_null(strstr(o, "Submittor alice@example.org has a priority of 500.000\n"));
	assert_non_null(strstr(o, "      1 slots match and are already running one of your jobs\n"
				  "      1 slots match but are serving users with a better priority in the pool\n"
				  "      0 slots match but will not currently preempt their existing job\n"));
	assert_non_null(strstr(o, "      1 slots match and are willing to run your job\n"));
	free(o);
	/* bob's priority is not 1000 times alice's */
	o = q_analyze_with("RemoteUserPrio > SubmittorPrio * 1000");
	assert_non_null(strstr(o, "      1 slots match but will not currently preempt their existing job\n"));
	assert_non_null(strstr(o, "      0 slots match and are willing to run your job\n"));
	free(o);
	o = q_analyze_with("RemoteUserPrio > SubmittorPrio * 100");
	assert_non_null(strstr(o, "      1 slots match and are willing to run your job\n"));
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(q_ids),
		cmocka_unit_test(act_ids),
		cmocka_unit_test(id_lists),
		cmocka_unit_test(act_modes),
		cmocka_unit_test(act_messages),
		cmocka_unit_test(act_results),
		cmocka_unit_test(act_constraints),
		cmocka_unit_test(act_bad_args),
		cmocka_unit_test(qedit_args),
		cmocka_unit_test(q_arguments),
		cmocka_unit_test(q_summary),
		cmocka_unit_test(hist_args),
		cmocka_unit_test(q_analyze_preempt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
