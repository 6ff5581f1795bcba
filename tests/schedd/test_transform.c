/*
 * test_transform.c: the schedd's job transforms (schedd/sc_transform.h)
 * read from a configuration and applied to a cluster ad and its procs
 * as a submission brings them: the regular expression forms of COPY,
 * RENAME and DELETE, deletion that leaves the ad, UNIVERSE, NAME and
 * TRANSFORM statements, if blocks, and the transforms that cannot be
 * used.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sc_schedd.h"
#include "sc_transform.h"
#include "sc_transform_int.h"

struct fx {
	ks_daemon d;
	struct sc_schedd s;
	struct sc_transforms *T;
	classad *cl;
	classad *procs[2];
};

/* The transforms of config (its text), a cluster ad cl and two procs
 * chained to it, as the schedd's submit has them. */
static void setup_fx(struct fx *f, const char *config, const char *cl,
		     const char *p0, const char *p1)
{
	memset(f, 0, sizeof(*f));
	f->d.cfg = ks_config_new("SCHEDD", NULL);
	struct ks_err err = {0};
	assert_int_equal(ks_config_read_text(f->d.cfg, "test", config,
					     strlen(config), &err),
			 0);
	f->s.d = &f->d;
	f->T = sc_transforms_load(&f->s);
	f->cl = classad_parse(cl, strlen(cl), CLASSAD_FMT_NEW, NULL, &err);
	assert_non_null(f->cl);
	const char *p[2] = {p0, p1};
	for (int i = 0; i < 2; i++) {
		f->procs[i] = classad_parse(p[i], strlen(p[i]), CLASSAD_FMT_NEW, NULL, &err);
		assert_non_null(f->procs[i]);
		classad_chain(f->procs[i], f->cl);
	}
}

static int apply(struct fx *f, struct ks_err *err)
{
	return sc_transforms_apply(&f->s, f->T, f->cl, f->procs, 2, err);
}

static void teardown_fx(struct fx *f)
{
	for (int i = 0; i < 2; i++) {
		classad_chain(f->procs[i], NULL);
		classad_free(f->procs[i]);
	}
	classad_free(f->cl);
	sc_transforms_free(f->T);
	ks_config_free(f->d.cfg);
}

/* proc i's attribute name as ClassAd text, or NULL when the job has
 * none (looking through the cluster ad).  New string. */
static char *attr(struct fx *f, int i, const char *name)
{
	const classad_expr *e = classad_lookup(f->procs[i], name);
	return e ? classad_expr_unparse(e, false) : NULL;
}

static void expect(struct fx *f, int i, const char *name, const char *text)
{
	char *got = attr(f, i, name);
	if (!text) {
		if (got)
			fail_msg("proc %d: %s = %s, expected none", i, name,
				 got);
		return;
	}
	if (!got)
		fail_msg("proc %d: no %s, expected %s", i, name, text);
	assert_string_equal(got, text);
	free(got);
}

static const char *const CL = "[ FooA = 1; FooB = \"x\"; Baz2 = 2; "
			      "tmpOne = 11; JobUniverse = 5; Keep = 7 ]";

static void test_regex_copy(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = C\n"
		 "JOB_TRANSFORM_C = COPY /^Foo(.*)$/ Bar\\1\n",
		 CL, "[ ProcId = 0; FooC = 3 ]", "[ ProcId = 1 ]");
	assert_non_null(f.T);
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "BarA", "1");
	expect(&f, 0, "BarB", "\"x\"");
	expect(&f, 0, "BarC", "3");
	expect(&f, 0, "FooA", "1");
	expect(&f, 1, "BarA", "1");
	expect(&f, 1, "BarC", NULL);
	teardown_fx(&f);
}

/* \0 is the whole name; matching ignores case, options or not */
static void test_regex_rename(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = R\n"
		 "JOB_TRANSFORM_R @=end\n"
		 "  RENAME /^TMP(.+)$/i Kept_\\1_\\0\n"
		 "  RENAME /^fooa$/ FooRenamed\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1; tmpTwo = 22 ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Kept_One_tmpOne", "11");
	expect(&f, 0, "tmpOne", NULL);
	expect(&f, 0, "FooRenamed", "1");
	expect(&f, 0, "FooA", NULL);
	expect(&f, 1, "Kept_Two_tmpTwo", "22");
	expect(&f, 1, "tmpTwo", NULL);
	/* gone from the cluster ad, not left undefined in the procs */
	classad_chain(f.procs[0], NULL);
	assert_null(classad_lookup(f.procs[0], "tmpOne"));
	assert_null(classad_lookup(f.cl, "tmpOne"));
	classad_chain(f.procs[0], f.cl);
	teardown_fx(&f);
}

/* a job the transform leaves alone keeps what the others lost from
 * the cluster ad */
static void test_regex_delete(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = D\n"
		 "JOB_TRANSFORM_D @=end\n"
		 "  REQUIREMENTS ProcId == 0\n"
		 "  DELETE /^Baz/\n"
		 "@end\n",
		 CL, "[ ProcId = 0; Baz1 = 1; Bazaar = 3 ]",
		 "[ ProcId = 1; Baz1 = 1 ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Baz1", NULL);
	expect(&f, 0, "Baz2", NULL);
	expect(&f, 0, "Bazaar", NULL);
	expect(&f, 0, "FooA", "1");
	expect(&f, 1, "Baz1", "1");
	expect(&f, 1, "Baz2", "2");
	assert_null(classad_lookup(f.cl, "Baz2"));
	teardown_fx(&f);
}

static void test_delete_and_rename_leave_the_ad(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = X\n"
		 "JOB_TRANSFORM_X @=end\n"
		 "  DELETE Keep\n"
		 "  RENAME FooB FooBee\n"
		 "  DEFAULT Keep 9\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1; FooB = \"own\" ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	/* DEFAULT sees a deleted attribute as absent */
	expect(&f, 0, "Keep", "9");
	expect(&f, 0, "FooB", NULL);
	expect(&f, 0, "FooBee", "\"x\"");
	expect(&f, 1, "FooB", NULL);
	expect(&f, 1, "FooBee", "\"own\"");
	for (int i = 0; i < 2; i++) {
		classad_chain(f.procs[i], NULL);
		assert_null(classad_lookup(f.procs[i], "FooB"));
		classad_chain(f.procs[i], f.cl);
	}
	assert_null(classad_lookup(f.cl, "FooB"));
	teardown_fx(&f);
}

/* UNIVERSE and NAME are taken and change nothing; a TRANSFORM with
 * arguments ends the transform; a bare one does nothing */
static void test_statements(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = U\n"
		 "JOB_TRANSFORM_U @=end\n"
		 "  NAME Something\n"
		 "  UNIVERSE grid\n"
		 "  SET = 4\n"
		 "  SET A $(SET)\n"
		 "  TRANSFORM\n"
		 "  SET B 2\n"
		 "  TRANSFORM 1\n"
		 "  SET C 3\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1 ]");
	assert_non_null(f.T);
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "A", "4");
	expect(&f, 0, "B", "2");
	expect(&f, 0, "C", NULL);
	expect(&f, 1, "JobUniverse", "5");
	teardown_fx(&f);

	struct transform t;
	assert_int_equal(sc_transform_parse("t",
					    "UNIVERSE vanilla\n"
					    "SET A 1\n"
					    "TRANSFORM Item in (a, b)\n"
					    "# not a statement\n\n"
					    "SET B 2\n",
					    &t, NULL),
			 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.universe_line, 1);
	assert_int_equal(t.transform_line, 3);
	assert_true(t.loops);
	assert_int_equal(t.unread_line, 6);
	sc_transform_free(&t);
}

/* the last REQUIREMENTS decides */
static void test_last_requirements(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = Q\n"
		 "JOB_TRANSFORM_Q @=end\n"
		 "  REQUIREMENTS ProcId == 0\n"
		 "  SET Hit true\n"
		 "  REQUIREMENTS ProcId == 1\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1 ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Hit", NULL);
	expect(&f, 1, "Hit", "true");
	teardown_fx(&f);
}

/* if, elif, else and endif, their conditions read in each job */
static void test_if_blocks(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = I\n"
		 "JOB_TRANSFORM_I @=end\n"
		 "  if defined MY.Foo1\n"
		 "    SET HasFoo true\n"
		 "  elif $(MY.ProcId)\n"
		 "    SET Second true\n"
		 "  else\n"
		 "    SET Neither true\n"
		 "  endif\n"
		 "  if ! defined MY.NoSuch\n"
		 "    SET After true\n"
		 "  endif\n"
		 "@end\n",
		 CL, "[ ProcId = 0; Foo1 = 1 ]", "[ ProcId = 1 ]");
	assert_non_null(f.T);
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "HasFoo", "true");
	expect(&f, 0, "Second", NULL);
	expect(&f, 0, "Neither", NULL);
	expect(&f, 1, "HasFoo", NULL);
	expect(&f, 1, "Second", "true");
	expect(&f, 1, "Neither", NULL);
	expect(&f, 0, "After", "true");
	expect(&f, 1, "After", "true");
	teardown_fx(&f);

	/* a condition that is none is the job's transform failing */
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = J\n"
		 "JOB_TRANSFORM_J @=end\n"
		 "  SET A 1\n"
		 "  if two words\n"
		 "  endif\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1 ]");
	assert_int_equal(apply(&f, &err), KS_EINVAL);
	if (!strstr(err.msg, "JOB_TRANSFORM_J line 2: "))
		fail_msg("%s", err.msg);
	teardown_fx(&f);
}

/* $(MY.attr) is a string's text, without its quotes, as HTCondor
 * expands it; other values are their ClassAd text */
static void test_my_expansion(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = M\n"
		 "JOB_TRANSFORM_M @=end\n"
		 "  SET Grp \"$(MY.FooB)_grp\"\n"
		 "  SET Sum $(MY.FooA) + 1\n"
		 "@end\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1; FooB = \"y\" ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Grp", "\"x_grp\"");
	expect(&f, 1, "Grp", "\"y_grp\"");
	expect(&f, 0, "Sum", "1 + 1");
	teardown_fx(&f);
}

static void bad_line(const char *text, int line, const char *what)
{
	struct transform t;
	struct ks_err err = {0};
	int got = sc_transform_parse("t", text, &t, &err);
	sc_transform_free(&t);
	if (got != line || !strstr(err.msg, what))
		fail_msg("\"%s\": line %d \"%s\", expected line %d with \"%s\"",
			 text, got, err.msg, line, what);
	assert_int_equal(err.line, line);
}

static void test_bad_lines(void **state)
{
	(void)state;
	bad_line("SET A 1\nCOPY /Foo(/ Bar", 2,
		 "COPY /Foo(/: the regular expression does not compile: "
		 "missing closing parenthesis at offset 4");
	bad_line("DELETE /^Foo", 1, "no closing /");
	bad_line("RENAME /^Foo/x Bar", 1, "unknown regular expression option 'x'");
	bad_line("COPY /^Foo/", 1, "COPY needs 2 arguments");
	bad_line("# c\nFROB A 1", 2, "FROB is not a valid transform keyword");
	bad_line("REQUIREMENTS ProcId ==", 1, "REQUIREMENTS ProcId == does not parse");
	bad_line("RENAME A 1B", 1, "the new name 1B is not a valid attribute name");
	bad_line("UNIVERSE", 1, "UNIVERSE needs a universe");
	bad_line("SET A", 1, "SET A needs an expression");
	bad_line("DELETE /a/ b", 1, "unexpected text");
	/* the regex forms are those of COPY, RENAME and DELETE only */
	bad_line("SET /a/ 1", 1, "/a/ is not a valid attribute name");
	bad_line("SET A 1\nelse\n", 2, "else without matching if");
	bad_line("if true\nSET A 1\n# end\n", 1, "the if at line 1 has no endif");
	bad_line("if\nendif", 1, "if needs a condition");
	bad_line("if true\nelse\nelif false\nendif", 3,
		 "elif is not allowed after else");
	bad_line("if true\nendif\nendif", 3, "endif without matching if");
}

/* a transform that cannot be used is left out; the others are used */
static void test_unusable_left_out(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = Bad, Good, Missing\n"
		 "JOB_TRANSFORM_Bad @=end\n"
		 "  SET Broken true\n"
		 "  DELETE /(/\n"
		 "@end\n"
		 "JOB_TRANSFORM_Good = SET Fine true\n",
		 CL, "[ ProcId = 0 ]", "[ ProcId = 1 ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Broken", NULL);
	expect(&f, 0, "Fine", "true");
	teardown_fx(&f);
}

/* a new name a pattern makes that is not valid is skipped */
static void test_regex_bad_new_name(void **state)
{
	(void)state;
	struct fx f;
	setup_fx(&f,
		 "JOB_TRANSFORM_NAMES = N\n"
		 "JOB_TRANSFORM_N = COPY /^Foo(.)$/ \\1x\n",
		 CL, "[ ProcId = 0; Foo1 = 1 ]", "[ ProcId = 1 ]");
	struct ks_err err = {0};
	assert_int_equal(apply(&f, &err), 0);
	expect(&f, 0, "Ax", "1");
	expect(&f, 0, "Foo1", "1");
	teardown_fx(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regex_copy),
		cmocka_unit_test(test_regex_rename),
		cmocka_unit_test(test_regex_delete),
		cmocka_unit_test(test_delete_and_rename_leave_the_ad),
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_last_requirements),
		cmocka_unit_test(test_if_blocks),
		cmocka_unit_test(test_my_expansion),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_unusable_left_out),
		cmocka_unit_test(test_regex_bad_new_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
