/* Unit tests of the configuration language (common/config). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "knobs.h"
#include "templates.h"

/* A configuration read from text (for subsystem subsys); fails the test
 * on an error. */
static ks_config *cfg_of(const char *subsys, const char *text)
{
	ks_config *cfg = ks_config_new(subsys, NULL);
	struct ks_err err;
	if (ks_config_read_text(cfg, "test.conf", text, strlen(text), &err))
		fail_msg("config error: %s", err.msg);
	return cfg;
}

/* The error reading text gives, or fails the test if there is none. */
static struct ks_err error_of(const char *text)
{
	ks_config *cfg = ks_config_new(NULL, NULL);
	struct ks_err err;
	if (!ks_config_read_text(cfg, "bad.conf", text, strlen(text), &err))
		fail_msg("no error for: %s", text);
	ks_config_free(cfg);
	return err;
}

static void expect(const ks_config *cfg, const char *name, const char *want)
{
	char *v = ks_config_get(cfg, name, NULL);
	if (!want) {
		if (v)
			fail_msg("%s: expected undefined, got '%s'", name, v);
		return;
	}
	if (!v)
		fail_msg("%s: expected '%s', got undefined", name, want);
	if (strcmp(v, want) != 0)
		fail_msg("%s: expected '%s', got '%s'", name, want, v);
	free(v);
}

static void test_assignments(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "# comment\n"
				      "A = 1\n"
				      "b = two words  \n"
				      "C = $(A) and $(B)\n"
				      "LONG = first \\\n  second \\\n  third\n"
				      "EMPTY =\n"
				      "OLD : colon form\n"
				      "[Section]\n"
				      "X +,= one\n"
				      "X +,= two\n"
				      "Y = a\n"
				      "Y +&&= b\n");
	expect(cfg, "a", "1");
	expect(cfg, "B", "two words");
	expect(cfg, "C", "1 and two words");
	expect(cfg, "LONG", "first second third");
	expect(cfg, "EMPTY", NULL);
	expect(cfg, "OLD", "colon form");
	expect(cfg, "X", "one,two");
	expect(cfg, "Y", "a && b");
	expect(cfg, "NOT_THERE_AT_ALL", NULL);
	struct ks_config_origin o;
	assert_non_null(ks_config_raw(cfg, "C", &o));
	assert_string_equal(o.file, "test.conf");
	assert_int_equal(o.line, 4);
	ks_config_free(cfg);
}

static void test_references(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "X = 5\n"
				      "Y = $(X:7)\n"
				      "Z = $(NOPE:fallback value)\n"
				      "W = $(NOPE:$(X))\n"
				      "START = KeyboardIdle > 60\n"
				      "START = ($(START)) || Owner == \"c\"\n"
				      "LATE = $(DEFINED_LATER)\n"
				      "DEFINED_LATER = here\n"
				      "D = cost $(DOLLAR)5\n"
				      "INNER = X\n"
				      "NESTED = $($(INNER))\n");
	expect(cfg, "Y", "5");
	expect(cfg, "Z", "fallback value");
	expect(cfg, "W", "5");
	expect(cfg, "START", "(KeyboardIdle > 60) || Owner == \"c\"");
	expect(cfg, "LATE", "here");
	expect(cfg, "D", "cost $5");
	/* As in HTCondor: the inner reference expands, the outer stays. */
	expect(cfg, "NESTED", "$(X)");
	ks_config_free(cfg);
}

static void test_loops(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "A = $(B)\nB = x $(C)\nC = $(A)\n"
				      "SELF = $(SELF) more\n"
				      "S = $STRING(A)\n");
	struct ks_err err;
	assert_null(ks_config_get(cfg, "A", &err));
	assert_non_null(strstr(err.msg, "refers to itself"));
	/* the message names the whole loop */
	assert_non_null(strstr(err.msg, "(B -> C -> A -> B)"));
	/* A loop inside a function's argument is the same error. */
	assert_null(ks_config_get(cfg, "S", &err));
	assert_non_null(strstr(err.msg, "refers to itself"));
	/* A self-reference at definition is the (empty) earlier value. */
	expect(cfg, "SELF", " more");
	ks_config_free(cfg);
}

static void test_functions(void **state)
{
	(void)state;
	setenv("KS_TEST_VAR", "from env", 1);
	unsetenv("KS_NOT_SET");
	ks_config *cfg = cfg_of(NULL,
				"A = 6\n"
				"B = $INT(A)\n"
				"B2 = $INT(A,%03d)\n"
				"C = $REAL(A)\n"
				"C2 = $REAL(A,%.2f)\n"
				"E = $INT(A) * 2\n"
				"EXPR = 3 * 7\n"
				"F = $INT(EXPR)\n"
				"S = hello world\n"
				"SUB1 = $SUBSTR(S,6)\n"
				"SUB2 = $SUBSTR(S,0,5)\n"
				"SUB3 = $SUBSTR(S,-5)\n"
				"P = /usr/local/bin/condor_q.exe\n"
				"FP = $Fp(P)\n"
				"FN = $Fn(P)\n"
				"FX = $Fx(P)\n"
				"FNX = $Fnx(P)\n"
				"FD = $Fd(P)\n"
				"FQ = $Fqn(P)\n"
				"STR = $STRING(S)\n"
				"QS = \"quoted\"\n"
				"STR2 = $STRING(QS)\n"
				"EV = $EVAL(EXPR)\n"
				"ENV1 = $ENV(KS_TEST_VAR)\n"
				"ENV2 = [$ENV(KS_NOT_SET)]\n"
				"ENV3 = $ENV(KS_NOT_SET:dflt)\n"
				"LIST = a, b, c\n"
				"CH = $CHOICE(1, LIST)\n"
				"CH2 = $CHOICE(2, x, y, z)\n"
				"R = $RANDOM_INTEGER(3, 3, 1)\n"
				"RC = $RANDOM_CHOICE(only)\n");
	expect(cfg, "B", "6");
	expect(cfg, "B2", "006");
	expect(cfg, "C", "6");
	expect(cfg, "C2", "6.00");
	expect(cfg, "E", "6 * 2");
	expect(cfg, "F", "21");
	expect(cfg, "SUB1", "world");
	expect(cfg, "SUB2", "hello");
	expect(cfg, "SUB3", "world");
	expect(cfg, "FP", "/usr/local/bin/");
	expect(cfg, "FN", "condor_q");
	expect(cfg, "FX", ".exe");
	expect(cfg, "FNX", "condor_q.exe");
	expect(cfg, "FD", "bin/");
	expect(cfg, "FQ", "\"condor_q\"");
	expect(cfg, "STR", "hello world");
	expect(cfg, "STR2", "quoted");
	expect(cfg, "EV", "21");
	expect(cfg, "ENV1", "from env");
	expect(cfg, "ENV2", "[UNDEFINED]");
	expect(cfg, "ENV3", "dflt");
	expect(cfg, "CH", "b");
	expect(cfg, "CH2", "z");
	expect(cfg, "R", "3");
	expect(cfg, "RC", "only");
	ks_config_free(cfg);

	cfg = cfg_of(NULL, "R = $RANDOM_INTEGER(10, 20, 5)\n"
			   "RC = $RANDOM_CHOICE(a, b, c)\n"
			   "BAD = $INT(S)\nS = word\n");
	for (int i = 0; i < 20; i++) {
		char *v = ks_config_get(cfg, "R", NULL);
		assert_true(!strcmp(v, "10") || !strcmp(v, "15") ||
			    !strcmp(v, "20"));
		free(v);
		v = ks_config_get(cfg, "RC", NULL);
		assert_true(strlen(v) == 1 && strchr("abc", v[0]));
		free(v);
	}
	struct ks_err err;
	assert_null(ks_config_get(cfg, "BAD", &err));
	assert_non_null(strstr(err.msg, "$INT()"));
	ks_config_free(cfg);
}

static void test_multiline(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "BLOCK @=end\n"
				      "  line one\n"
				      "  # a comment, dropped\n"
				      "  line two\n"
				      "@end\n"
				      "AFTER = ok\n");
	expect(cfg, "BLOCK", "line one\nline two");
	expect(cfg, "AFTER", "ok");
	ks_config_free(cfg);
	struct ks_err err = error_of("BLOCK @=end\nline\n");
	assert_non_null(strstr(err.msg, "@end"));
}

static void test_conditionals(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "FLAG = true\n"
				      "if $(FLAG)\n  R1 = yes\nelse\n  R1 = no\n"
				      "endif\n"
				      "if false\n  R4 = a\nendif\n"
				      "if defined NOT_THERE\n  R2 = d\n"
				      "elif defined FLAG\n  R2 = flag\n"
				      "else\n  R2 = neither\nendif\n"
				      "if version >= 8.0\n  V = new\nendif\n"
				      "if ! version > 99.0\n  V2 = old\nendif\n"
				      "if $(UNDEFINED_THING)\n  U = x\nendif\n"
				      "if 0\n if true\n  N = 1\n endif\n"
				      "else\n  N = 2\nendif\n"
				      "if yes\n  Y = 1\nendif\n"
				      "if defined use POLICY:Desktop\n"
				      "  HAS_TEMPLATE = 1\nendif\n");
	expect(cfg, "R1", "yes");
	expect(cfg, "R4", NULL);
	expect(cfg, "R2", "flag");
	expect(cfg, "V", "new");
	expect(cfg, "V2", "old");
	expect(cfg, "U", NULL);
	expect(cfg, "N", "2");
	expect(cfg, "Y", "1");
	expect(cfg, "HAS_TEMPLATE", "1");
	ks_config_free(cfg);

	struct ks_err err = error_of("N = 3\nif $(N) > 2\n  R = big\nendif\n");
	assert_non_null(strstr(err.msg, "complex conditionals"));
	assert_int_equal(err.line, 2);
	err = error_of("if\n");
	assert_non_null(strstr(err.msg, "not a conditional"));
	err = error_of("if true\nA = 1\n");
	assert_non_null(strstr(err.msg, "endif"));
	err = error_of("else\n");
	assert_non_null(strstr(err.msg, "without matching if"));
	err = error_of("if true\nelse\nelse\nendif\n");
	assert_non_null(strstr(err.msg, "after else"));
	err = error_of("endif\n");
	assert_non_null(strstr(err.msg, "endif without"));
}

static void test_errors(void **state)
{
	(void)state;
	struct ks_err err = error_of("GOOD = 1\nBROKEN\n");
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.msg, "bad.conf"));
	assert_non_null(strstr(err.msg, "Line 2"));
	err = error_of("A = 1\nerror : not finished $(A)\n");
	assert_non_null(strstr(err.msg, "not finished 1"));
	err = error_of("BAD-NAME = 1\n");
	assert_non_null(strstr(err.msg, "Illegal Identifier"));
	err = error_of("include : /nonexistent/file.conf\n");
	assert_non_null(strstr(err.msg, "/nonexistent/file.conf"));
	err = error_of("use POLICY : NoSuchPolicy\n");
	assert_non_null(strstr(err.msg, "NoSuchPolicy"));
	err = error_of("use NOCATEGORY : X\n");
	assert_non_null(strstr(err.msg, "NOCATEGORY"));
	err = error_of("A B = 1\n");
	assert_non_null(strstr(err.msg, "expected '='"));

	ks_config *cfg = cfg_of(NULL, "A = 1\nwarning : careful\nB = 2\n");
	expect(cfg, "B", "2");
	assert_non_null(strstr(ks_config_warning(cfg, 0), "careful"));
	ks_config_free(cfg);
}

static void test_include(void **state)
{
	(void)state;
	char dir[] = "/tmp/ks_cfg_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/extra.conf", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("FROM_INCLUDE = included $(BASE)\n", f);
	fclose(f);
	char text[512];
	snprintf(text, sizeof(text),
		 "BASE = base\n"
		 "DIR = %s\n"
		 "include : $(DIR)/extra.conf\n"
		 "include ifexist : $(DIR)/missing.conf\n"
		 "include command : echo FROM_CMD = cmd\n"
		 "include : echo FROM_PIPE = pipe |\n",
		 dir);
	ks_config *cfg = cfg_of(NULL, text);
	expect(cfg, "FROM_INCLUDE", "included base");
	expect(cfg, "FROM_CMD", "cmd");
	expect(cfg, "FROM_PIPE", "pipe");
	struct ks_config_origin o;
	ks_config_raw(cfg, "FROM_INCLUDE", &o);
	assert_string_equal(o.file, path);
	assert_int_equal(o.line, 1);
	ks_config_free(cfg);
	unlink(path);
	rmdir(dir);
}

static void test_prefixes(void **state)
{
	(void)state;
	const char *text = "UPDATE_INTERVAL = 11\n"
			   "STARTD.UPDATE_INTERVAL = 7\n"
			   "SCHEDD.FOO = schedd foo\n"
			   "FOO = plain foo\n"
			   "LIST = base\n"
			   "STARTD.LIST = $(LIST) more\n";
	ks_config *plain = cfg_of(NULL, text);
	ks_config *startd = cfg_of("startd", text);
	ks_config *schedd = cfg_of("SCHEDD", text);
	expect(plain, "UPDATE_INTERVAL", "11");
	expect(startd, "UPDATE_INTERVAL", "7");
	expect(schedd, "FOO", "schedd foo");
	expect(startd, "FOO", "plain foo");
	expect(plain, "STARTD.UPDATE_INTERVAL", "7");
	expect(startd, "LIST", "base more");
	ks_config_free(plain);
	ks_config_free(startd);
	ks_config_free(schedd);

	ks_config *named = ks_config_new("STARTD", "vm1");
	const char *t2 = "X = plain\nSTARTD.X = subsys\nvm1.X = local\n";
	assert_int_equal(ks_config_read_text(named, "t", t2, strlen(t2), NULL),
			 0);
	expect(named, "X", "local");
	ks_config_free(named);
}

/* Lookups are remembered (kc_lookup's memo): every change is seen at
 * once, an answer of "not set" included, whatever the name's case. */
static void test_memo(void **state)
{
	(void)state;
	ks_config *c = cfg_of("startd", "A = 1\nB = $(A)\n");
	expect(c, "B", "1");
	expect(c, "b", "1");
	assert_null(ks_config_get(c, "NOT_YET", NULL));
	assert_int_equal(ks_config_set(c, "NOT_YET", "here", NULL), 0);
	expect(c, "not_yet", "here");
	assert_int_equal(ks_config_set(c, "A", "2", NULL), 0);
	expect(c, "B", "2");
	/* a prefixed definition now hides the plain one */
	assert_int_equal(ks_config_set(c, "STARTD.A", "3", NULL), 0);
	expect(c, "B", "3");
	/* more names than the memo keeps */
	char name[32];
	for (int i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "SLOT%d_NONE", i);
		assert_null(ks_config_get(c, name, NULL));
	}
	expect(c, "A", "3");
	struct ks_config_origin o;
	assert_string_equal(ks_config_raw(c, "A", &o), "3");
	assert_string_equal(o.name, "STARTD.A");
	ks_config_free(c);
}

static void test_slots(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of("STARTD", "START = any\n"
					  "SLOT2_START = two\n"
					  "SLOT_TYPE_1_START = type one\n");
	char *v = ks_config_get_slot(cfg, "START", 2, 1, NULL);
	assert_string_equal(v, "two");
	free(v);
	v = ks_config_get_slot(cfg, "START", 3, 1, NULL);
	assert_string_equal(v, "type one");
	free(v);
	v = ks_config_get_slot(cfg, "START", 4, 0, NULL);
	assert_string_equal(v, "any");
	free(v);
	assert_null(ks_config_get_slot(cfg, "NOPE", 1, 1, NULL));
	ks_config_free(cfg);
}

static void test_defaults(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "");
	expect(cfg, "MATCH_TIMEOUT", "120");
	expect(cfg, "KILLING_TIMEOUT", "30");
	expect(cfg, "ALIVE_INTERVAL", "300");
	expect(cfg, "MAX_CLAIM_ALIVES_MISSED", "6");
	expect(cfg, "UPDATE_INTERVAL", "300");
	expect(cfg, "POLLING_INTERVAL", "5");
	/* Not in HTCondor's parameter table (its collector has the 900 in
	 * code), so not defined for condor_config_val either. */
	expect(cfg, "CLASSAD_LIFETIME", NULL);
	expect(cfg, "NEGOTIATOR_INTERVAL", "60");
	expect(cfg, "IS_OWNER", "False");
	expect(cfg, "START", "True");
	expect(cfg, "StartIdleTime", "15 * 60");
	struct ks_config_origin o;
	assert_non_null(ks_config_raw(cfg, "MATCH_TIMEOUT", &o));
	assert_string_equal(o.file, "<Default>");
	int64_t i;
	assert_true(ks_config_int(cfg, "StartIdleTime", &i));
	assert_int_equal(i, 900);
	bool b = false;
	assert_true(ks_config_bool(cfg, "START", &b));
	assert_true(b);
	ks_config_free(cfg);
}

/* The tables are sorted as their searches expect: every entry is found. */
static void test_tables(void **state)
{
	(void)state;
	for (size_t i = 0; i < ks_knobs_count; i++) {
		const char *n = ks_knobs[i].name;
		assert_ptr_equal(ks_knob_find(n, strlen(n)), &ks_knobs[i]);
	}
	assert_null(ks_knob_find("NO_SUCH_KNOB_AT_ALL", 19));
	assert_non_null(ks_knob_find("match_timeout", 13));
	for (size_t i = 0; i < ks_templates_count; i++)
		assert_ptr_equal(ks_template_find(ks_templates[i].category,
						  ks_templates[i].name),
				 &ks_templates[i]);
}

static void test_templates(void **state)
{
	(void)state;
	ks_config *cfg = cfg_of(NULL, "use POLICY : Desktop\n");
	expect(cfg, "IS_OWNER", "(START =?= False)");
	expect(cfg, "KeyboardBusy", "(KeyboardIdle < 60)");
	expect(cfg, "START",
	       "((KeyboardIdle > 15 * 60) && ( ((LoadAvg - CondorLoadAvg) "
	       "<= 0.3) || (State != \"Unclaimed\" && State != \"Owner\")) )");
	struct ks_config_origin o;
	ks_config_raw(cfg, "START", &o);
	assert_string_equal(o.use, "POLICY:DESKTOP+10");
	ks_config_free(cfg);

	cfg = cfg_of(NULL, "use ROLE : Personal\n");
	expect(cfg, "DAEMON_LIST", "MASTER COLLECTOR NEGOTIATOR STARTD SCHEDD");
	expect(cfg, "COLLECTOR_HOST", "127.0.0.1:0");
	ks_config_free(cfg);

	cfg = cfg_of(NULL, "use ROLE : Execute, Submit\n");
	expect(cfg, "DAEMON_LIST", "MASTER STARTD SCHEDD");
	ks_config_free(cfg);

	cfg = cfg_of(NULL, "use POLICY : Limit_Job_Runtimes(3600)\n");
	expect(cfg, "MAX_JOB_RUNTIME", "3600");
	ks_config_free(cfg);

	cfg = cfg_of(NULL, "use POLICY : Preempt_If_Memory_Exceeded\n");
	char *v = ks_config_get(cfg, "PREEMPT", NULL);
	assert_non_null(v);
	assert_non_null(strstr(v, "MemoryUsage > Memory"));
	free(v);
	ks_config_free(cfg);

	struct ks_err err = error_of("use POLICY : PREEMPT_IF\n");
	assert_non_null(strstr(err.msg, "requires an argument"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assignments),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_multiline),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_templates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
