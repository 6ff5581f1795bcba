/*
 * test_queue.c: the schedd's job queue (schedd/queue.c, txn.c) on a store
 * in a temporary directory, and the policies that change it without a
 * running daemon: the periodic expressions (periodic.c: PeriodicHold,
 * PeriodicRelease, PeriodicRemove and SYSTEM_PERIODIC_*) and the submit
 * requirements (policy.c).  The schedd's library (sc_schedd) is linked
 * whole; what schedd.c would give it is defined below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sc_periodic.h"
#include "sc_policy.h"
#include "sc_schedd.h"
#include "tmp_dir.h"

/* ---- schedd.c's part, as the tests need it ---------------------------- */

static int submitters_changed;

char *sc_identity_owner(const char *identity)
{
	size_t n = strcspn(identity, "@");
	char *o = malloc(n + 1);
	memcpy(o, identity, n);
	o[n] = '\0';
	return o;
}
bool sc_is_super_user(const struct sc_schedd *s, const char *identity)
{
	(void)s;
	(void)identity;
	return false;
}
bool sc_may_change(const struct sc_schedd *s, const char *identity,
		   const char *owner)
{
	(void)s;
	return strcmp(identity, owner) == 0;
}
void sc_submitters_changed(struct sc_schedd *s)
{
	(void)s;
	submitters_changed++;
}
void sc_submitters_now(struct sc_schedd *s)
{
	(void)s;
}
/* the submit requirements' MY */
classad *sc_schedd_ad(struct sc_schedd *s)
{
	(void)s;
	const char *text = "[ Name = \"test-schedd\"; MaxMemory = 1000 ]";
	return classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL, NULL);
}

/* ---- the fixture ------------------------------------------------------- */

struct fx {
	ks_daemon d;
	struct sc_schedd s;
	char dir[256];
	char path[300];
};

static struct fx *open_fx(const char *config)
{
	struct fx *f = calloc(1, sizeof(*f));
	assert_int_equal(tmp_dir_make("test_queue", f->dir, sizeof(f->dir)), 0);
	snprintf(f->path, sizeof(f->path), "%s/job_queue", f->dir);
	f->d.cfg = ks_config_new("SCHEDD", NULL);
	struct ks_err err = {0};
	assert_int_equal(ks_config_read_text(f->d.cfg, "test", config,
					     strlen(config), &err),
			 0);
	f->s.d = &f->d;
	assert_int_equal(sc_queue_open(&f->s, f->path, &err), 0);
	return f;
}

/* Closes the queue and opens it again from its store, as a new schedd
 * would. */
static void reopen(struct fx *f)
{
	sc_queue_close(&f->s);
	struct ks_err err = {0};
	assert_int_equal(sc_queue_open(&f->s, f->path, &err), 0);
}

static void close_fx(struct fx *f)
{
	sc_queue_close(&f->s);
	sc_policy_free(&f->s);
	ks_config_free(f->d.cfg);
	tmp_dir_remove(f->dir);
	free(f);
}

static classad *ad(const char *text)
{
	struct ks_err err = {0};
	classad *a = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				   &err);
	assert_non_null(a);
	return a;
}

/* Queues one cluster of the proc ads given (NULL-terminated) under a
 * cluster ad owned by alice; returns its id. */
static int submit(struct fx *f, const char *const *procs)
{
	int id;
	struct ks_err err = {0};
	assert_int_equal(sc_queue_new_cluster(&f->s, &id, &err), 0);
	size_t n = 0;
	while (procs[n])
		n++;
	classad **p = calloc(n, sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		p[i] = ad(procs[i]);
		classad_insert_int(p[i], "ProcId", (int64_t)i);
	}
	classad *cl = ad("[ Owner = \"alice\"; Cmd = \"/bin/sleep\"; "
			 "RequestMemory = 100 ]");
	classad_insert_int(cl, "ClusterId", id);
	assert_int_equal(sc_queue_submit(&f->s, id, cl, p, n, &err), 0);
	free(p);
	return id;
}

static struct sc_job *job(struct fx *f, int c, int p)
{
	return sc_queue_find(&f->s, c, p);
}

static int64_t job_int(struct sc_job *j, const char *name)
{
	int64_t v = -999;
	classad_eval_int(j->ad, name, NULL, &v);
	return v;
}

/* A string attribute of the job (new string), or NULL. */
static char *job_str(struct sc_job *j, const char *name)
{
	char *v = NULL;
	classad_eval_string(j->ad, name, NULL, &v);
	return v;
}

struct wanted {
	int64_t c, p;
	int found;
};

static int count_wanted(classad *a, void *arg)
{
	struct wanted *w = arg;
	int64_t c = -1, p = -1;
	classad_eval_int(a, "ClusterId", NULL, &c);
	classad_eval_int(a, "ProcId", NULL, &p);
	if (c == w->c && p == w->p)
		w->found++;
	return 0;
}

/* How many times job c.p is in the history. */
static int in_history(struct fx *f, int c, int p)
{
	struct wanted w = {c, p, 0};
	assert_int_equal(sc_history_each(&f->s, count_wanted, &w), 0);
	return w.found;
}

/* ---- the queue ---------------------------------------------------------- */

static int collect(struct sc_job *j, void *arg)
{
	char *buf = arg;
	char one[32];
	snprintf(one, sizeof(one), "%d.%d ", j->cluster, j->proc);
	strcat(buf, one);
	return 0;
}

/* Jobs are found by id, walked in id order, counted by status; what is
 * set on one proc stays its own, and all of it is in the store. */
static void test_queue_find_each_set(void **state)
{
	(void)state;
	struct fx *f = open_fx("");
	const char *const procs[] = {"[ JobStatus = 1 ]", "[ JobStatus = 1 ]",
				     "[ JobStatus = 5; HoldReasonCode = 1 ]",
				     NULL};
	int c1 = submit(f, procs);
	int c2 = submit(f, (const char *const[]){"[ JobStatus = 1 ]", NULL});
	assert_int_equal(c2, c1 + 1);
	assert_int_equal(sc_queue_size(&f->s), 4);
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_IDLE], 3);
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_HELD], 1);
	assert_null(job(f, c1, 3));
	assert_null(job(f, c2 + 1, 0));
	assert_int_equal(job(f, c1, 2)->status, SC_HELD);
	assert_string_equal(job(f, c1, 1)->owner, "alice");

	char order[128] = "";
	sc_queue_each(&f->s, collect, order);
	char want[128];
	snprintf(want, sizeof(want), "%d.0 %d.1 %d.2 %d.0 ", c1, c1, c1, c2);
	assert_string_equal(order, want);

	/* a proc's own value hides the cluster's for that proc only */
	sc_job_set_int(&f->s, job(f, c1, 1), "RequestMemory", 2048);
	sc_job_set_string(&f->s, job(f, c1, 1), "Note", "mine");
	assert_int_equal(sc_job_set_expr(&f->s, job(f, c1, 0), "Twice",
					 "RequestMemory * 2"),
			 0);
	assert_int_equal(sc_job_set_expr(&f->s, job(f, c1, 0), "Bad", "1 +"),
			 KS_EPARSE);
	sc_job_set_status(&f->s, job(f, c1, 0), SC_RUNNING);
	assert_int_equal(job_int(job(f, c1, 0), "LastJobStatus"), SC_IDLE);
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_RUNNING], 1);
	assert_int_equal(sc_queue_flush(&f->s, NULL), 0);

	reopen(f);
	assert_int_equal(sc_queue_size(&f->s), 4);
	assert_int_equal(job_int(job(f, c1, 1), "RequestMemory"), 2048);
	assert_int_equal(job_int(job(f, c1, 0), "RequestMemory"), 100);
	assert_int_equal(job_int(job(f, c1, 2), "RequestMemory"), 100);
	assert_int_equal(job_int(job(f, c1, 0), "Twice"), 200);
	assert_null(classad_lookup(job(f, c1, 0)->ad, "Bad"));
	char *note = job_str(job(f, c1, 1), "Note");
	assert_string_equal(note, "mine");
	free(note);
	assert_int_equal(job(f, c1, 0)->status, SC_RUNNING);
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_RUNNING], 1);
	/* a new cluster id after the reload is beyond the ones in use */
	int next;
	struct ks_err err = {0};
	assert_int_equal(sc_queue_new_cluster(&f->s, &next, &err), 0);
	assert_true(next > c2);
	close_fx(f);
}

/* A transaction undone puts the jobs back as they were. */
static void test_queue_abort(void **state)
{
	(void)state;
	struct fx *f = open_fx("");
	int c = submit(f, (const char *const[]){"[ JobStatus = 1 ]", NULL});
	sc_queue_begin(&f->s);
	sc_job_set_int(&f->s, job(f, c, 0), "Prio", 5);
	sc_job_set_status(&f->s, job(f, c, 0), SC_HELD);
	sc_queue_abort(&f->s);
	assert_int_equal(job(f, c, 0)->status, SC_IDLE);
	assert_null(classad_lookup(job(f, c, 0)->ad, "Prio"));
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_HELD], 0);
	assert_int_equal(sc_queue_counts(&f->s)->by_status[SC_IDLE], 1);
	reopen(f);
	assert_int_equal(job(f, c, 0)->status, SC_IDLE);
	close_fx(f);
}

/* ---- the periodic policy ----------------------------------------------- */

/* The job's own expressions: hold one, remove one, leave one; a held job
 * is released by its PeriodicRelease unless its user held it. */
static void test_periodic_job_expressions(void **state)
{
	(void)state;
	struct fx *f = open_fx("");
	const char *const procs[] = {
		"[ JobStatus = 1; PeriodicHold = RequestMemory > 50 ]",
		"[ JobStatus = 1; PeriodicRemove = true ]",
		"[ JobStatus = 1; PeriodicHold = false; PeriodicRemove = false ]",
		"[ JobStatus = 5; HoldReasonCode = 3; HoldReason = \"x\"; "
		"PeriodicRelease = true ]",
		"[ JobStatus = 5; HoldReasonCode = 1; HoldReason = \"by user\"; "
		"PeriodicRelease = true ]",
		NULL};
	int c = submit(f, procs);
	sc_periodic_run(&f->s);

	struct sc_job *j0 = job(f, c, 0);
	assert_int_equal(j0->status, SC_HELD);
	assert_int_equal(job_int(j0, "HoldReasonCode"), 3);
	assert_int_equal(job_int(j0, "HoldReasonSubCode"), 0);
	assert_int_equal(job_int(j0, "NumHolds"), 1);
	char *why = job_str(j0, "HoldReason");
	assert_string_equal(why, "The job attribute PeriodicHold expression "
				 "'RequestMemory > 50' evaluated to TRUE");
	free(why);

	assert_null(job(f, c, 1));
	assert_int_equal(in_history(f, c, 1), 1);

	assert_int_equal(job(f, c, 2)->status, SC_IDLE);

	struct sc_job *j3 = job(f, c, 3);
	assert_int_equal(j3->status, SC_IDLE);
	assert_null(classad_lookup(j3->ad, "HoldReason"));
	why = job_str(j3, "ReleaseReason");
	assert_non_null(strstr(why, "PeriodicRelease"));
	free(why);

	assert_int_equal(job(f, c, 4)->status, SC_HELD);

	/* all of it is in the store */
	reopen(f);
	assert_int_equal(job(f, c, 0)->status, SC_HELD);
	assert_null(job(f, c, 1));
	assert_int_equal(job(f, c, 3)->status, SC_IDLE);
	assert_int_equal(sc_queue_size(&f->s), 4);
	close_fx(f);
}

/* SYSTEM_PERIODIC_HOLD with its _REASON and _SUBCODE, evaluated against
 * each job; a job's own PeriodicHold comes first. */
static void test_periodic_system_hold(void **state)
{
	(void)state;
	struct fx *f = open_fx(
		"SYSTEM_PERIODIC_HOLD = RequestMemory > 1000\n"
		"SYSTEM_PERIODIC_HOLD_REASON = strcat(\"asked for \", "
		"RequestMemory, \" MB\")\n"
		"SYSTEM_PERIODIC_HOLD_SUBCODE = 42\n"
		"SYSTEM_PERIODIC_REMOVE = NumHolds >= 3\n");
	const char *const procs[] = {
		"[ JobStatus = 1; RequestMemory = 4096 ]",
		"[ JobStatus = 1 ]",
		"[ JobStatus = 1; RequestMemory = 4096; PeriodicHold = true ]",
		"[ JobStatus = 5; HoldReasonCode = 1; NumHolds = 3 ]", NULL};
	int c = submit(f, procs);
	sc_periodic_run(&f->s);

	struct sc_job *j0 = job(f, c, 0);
	assert_int_equal(j0->status, SC_HELD);
	assert_int_equal(job_int(j0, "HoldReasonCode"), 26);
	assert_int_equal(job_int(j0, "HoldReasonSubCode"), 42);
	char *why = job_str(j0, "HoldReason");
	assert_string_equal(why, "asked for 4096 MB");
	free(why);

	assert_int_equal(job(f, c, 1)->status, SC_IDLE);

	struct sc_job *j2 = job(f, c, 2);
	assert_int_equal(j2->status, SC_HELD);
	assert_int_equal(job_int(j2, "HoldReasonCode"), 3);

	/* removed by the system's policy, even though its user held it */
	assert_null(job(f, c, 3));
	assert_int_equal(in_history(f, c, 3), 1);

	/* a second pass finds nothing more to do: held jobs stay held */
	int64_t holds = job_int(j0, "NumHolds");
	sc_periodic_run(&f->s);
	assert_int_equal(job(f, c, 0)->status, SC_HELD);
	assert_int_equal(job_int(job(f, c, 0), "NumHolds"), holds);
	close_fx(f);
}

/* ---- submit requirements --------------------------------------------- */

static classad **procs_of(classad *cl, const char *const *texts, size_t n)
{
	classad **p = calloc(n, sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		p[i] = ad(texts[i]);
		classad_chain(p[i], cl);
	}
	return p;
}

static void free_procs(classad *cl, classad **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		classad_free(p[i]);
	free(p);
	classad_free(cl);
}

/* A requirement refuses the cluster with its reason (MY is the schedd,
 * TARGET the job); a warning lets it through and says why. */
static void test_policy_requirements(void **state)
{
	(void)state;
	struct fx *f = open_fx(
		"SUBMIT_REQUIREMENT_NAMES = Mem Tag\n"
		"SUBMIT_REQUIREMENT_Mem = TARGET.RequestMemory <= MY.MaxMemory\n"
		"SUBMIT_REQUIREMENT_Mem_REASON = strcat(\"RequestMemory \", "
		"TARGET.RequestMemory, \" is over \", MY.MaxMemory)\n"
		"SUBMIT_REQUIREMENT_Tag = TARGET.Tag =?= \"ok\"\n"
		"SUBMIT_REQUIREMENT_Tag_IS_WARNING = true\n");
	sc_policy_reconfig(&f->s);

	const char *const good[] = {"[ RequestMemory = 10; Tag = \"ok\" ]"};
	classad *cl = ad("[ Owner = \"alice\" ]");
	classad **p = procs_of(cl, good, 1);
	char *warn = NULL;
	struct ks_err err = {0};
	assert_int_equal(sc_policy_submit(&f->s, cl, p, 1, &warn, &err), 0);
	assert_null(warn);
	free_procs(cl, p, 1);

	const char *const warned[] = {"[ RequestMemory = 10 ]"};
	cl = ad("[ Owner = \"alice\" ]");
	p = procs_of(cl, warned, 1);
	assert_int_equal(sc_policy_submit(&f->s, cl, p, 1, &warn, &err), 0);
	assert_string_equal(warn, "Submit requirement Tag not met.");
	free(warn);
	free_procs(cl, p, 1);

	/* one proc over the limit refuses the whole cluster */
	const char *const bad[] = {"[ RequestMemory = 10; Tag = \"ok\" ]",
				   "[ RequestMemory = 5000; Tag = \"ok\" ]"};
	cl = ad("[ Owner = \"alice\" ]");
	p = procs_of(cl, bad, 2);
	assert_int_equal(sc_policy_submit(&f->s, cl, p, 2, &warn, &err),
			 KS_EPERM);
	assert_null(warn);
	assert_string_equal(err.msg, "RequestMemory 5000 is over 1000");
	free_procs(cl, p, 2);
	close_fx(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_find_each_set),
		cmocka_unit_test(test_queue_abort),
		cmocka_unit_test(test_periodic_job_expressions),
		cmocka_unit_test(test_periodic_system_hold),
		cmocka_unit_test(test_policy_requirements),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
