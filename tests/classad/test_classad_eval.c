/*
 * test_classad_eval.c: operator semantics, scoping, matching scopes and
 * the evaluator's limits -- the cases the reference vectors do not pin.
 */
#include "test_util.h"

static void test_arithmetic(void **state)
{
	(void)state;
	EXPECT("9223372036854775807 + 1", "integer -9223372036854775808");
	EXPECT("-9223372036854775808 / -1", "integer 9223372036854775807");
	EXPECT("-9223372036854775808 % -1", "integer 0");
	EXPECT("-9223372036854775808 * -1", "integer -9223372036854775808");
	EXPECT("5 % -3", "integer 2");
	EXPECT("-5 % 3", "integer -2");
	EXPECT("1e308 * 10", "error error");
	EXPECT("-1e308 * 10", "real real(\"-INF\")");
	EXPECT("0.0 / 0.0", "real real(\"NaN\")");
	EXPECT("1.0 / 0", "error error");
	EXPECT("-1.0 / 0", "real real(\"-INF\")");
	EXPECT("7.5 % 2", "error error");
	EXPECT("7 % 2.0", "error error");
	EXPECT("true + true", "integer 2");
	EXPECT("true + 0.5", "real 1.500000000000000E+00");
	EXPECT("-true", "error error");
	EXPECT("+true", "error error");
	EXPECT("+\"a\"", "error error");
	EXPECT("+undefined", "undefined undefined");
	EXPECT("- undefined", "undefined undefined");
	EXPECT("+2.5", "real 2.500000000000000E+00");
	EXPECT("\"a\" + undefined", "undefined undefined");
	EXPECT("error + undefined", "error error");
}

static void test_bitwise(void **state)
{
	(void)state;
	/* shifts count modulo 64, as x86-64 does */
	EXPECT("1 << 64", "integer 1");
	EXPECT("1 << 63", "integer -9223372036854775808");
	EXPECT("8 >> 65", "integer 4");
	EXPECT("-8 >> 1", "integer -4");
	EXPECT("-1 >> 100", "integer -1");
	EXPECT("-8 >> 0", "integer -8");
	EXPECT("-8 >> -1", "integer -8");
	EXPECT("-16 >>> 1", "integer 9223372036854775800");
	EXPECT("-16 >>> 0", "integer 0");
	EXPECT("true & 1", "error error");
	EXPECT("~true", "error error");
	EXPECT("~0", "integer -1");
	EXPECT("12 ^ 10", "integer 6");
}

static void test_comparison(void **state)
{
	(void)state;
	EXPECT("\"a\" < \"B\"", "boolean true");
	EXPECT("\"abc\" =?= \"abc\"", "boolean true");
	EXPECT("\"abc\" is \"ABC\"", "boolean false");
	EXPECT("{1} == {1}", "error error");
	EXPECT("[a=1] =!= [a=1]", "error error");
	EXPECT("true < 2", "boolean true");
	EXPECT("\"1\" == 1", "error error");
	EXPECT("true == 1.0", "boolean true");
	EXPECT("undefined is undefined", "boolean true");
	EXPECT("error isnt error", "boolean false");
	EXPECT("undefined =?= error", "boolean false");
	EXPECT("1 < undefined", "undefined undefined");
	EXPECT("1 < error", "error error");
	EXPECT("real(\"NaN\") == real(\"NaN\")", "boolean false");
}

static void test_logic(void **state)
{
	(void)state;
	EXPECT("undefined && error", "error error");
	EXPECT("undefined || error", "error error");
	EXPECT("error && false", "error error");
	EXPECT("false && error", "boolean false");
	EXPECT("true || 1/0", "boolean true");
	EXPECT("1 && 2", "boolean true");
	EXPECT("0.0 || 0", "boolean false");
	EXPECT("true && \"a\"", "error error");
	EXPECT("!0.5", "boolean false");
	EXPECT("!error", "error error");
	EXPECT("\"x\" ? 1 : 2", "error error");
	EXPECT("{1} ? 1 : 2", "error error");
	EXPECT("2.5 ? 1 : 1/0", "integer 1");
	EXPECT("error ?: 1", "error error");
	EXPECT("0 ?: 1", "integer 0");
	EXPECT("undefined ?: undefined ?: 3", "integer 3");
}

static void test_times(void **state)
{
	(void)state;
	EXPECT("absTime(\"2004-01-01T00:00:00Z\") + relTime(60)",
	       "abstime absTime(\"2004-01-01T00:01:00-00:00\")");
	EXPECT("relTime(60) + absTime(\"2004-01-01T00:00:00Z\")",
	       "abstime absTime(\"2004-01-01T00:01:00-00:00\")");
	EXPECT("absTime(\"2004-01-01T00:00:00Z\") - relTime(60)",
	       "abstime absTime(\"2003-12-31T23:59:00-00:00\")");
	EXPECT("absTime(\"2004-01-01T00:00:00Z\") < 5", "error error");
	EXPECT("absTime(\"2004-01-01T00:00:00Z\") == "
	       "absTime(\"2004-01-01T01:00:00+01:00\")",
	       "boolean true");
	EXPECT("absTime(\"2004-01-01T00:00:00Z\") =?= "
	       "absTime(\"2004-01-01T01:00:00+01:00\")",
	       "boolean false");
	EXPECT("relTime(60) * 2", "reltime relTime(\"02:00\")");
	EXPECT("2 * relTime(60)", "reltime relTime(\"02:00\")");
	EXPECT("relTime(60) / 2.0", "reltime relTime(\"30\")");
	EXPECT("-relTime(60)", "reltime relTime(\"-01:00\")");
	EXPECT("relTime(60) + relTime(30)", "reltime relTime(\"01:30\")");
	EXPECT("relTime(90061.5)", "reltime relTime(\"1+01:01:1.5\")");
	EXPECT("relTime(60) == relTime(60)", "boolean true");
	EXPECT("relTime(60) == 60", "error error");
	EXPECT("relTime(60) + 1", "error error");
	EXPECT("-absTime(\"2004-01-01T00:00:00Z\")", "error error");
}

static void test_scoping(void **state)
{
	(void)state;
	EXPECT("[a = b; b = a].a", "undefined undefined");
	EXPECT("[a = a + 1].a", "undefined undefined");
	EXPECT("[Foo = 1].FOO", "integer 1");
	EXPECT("[a = 1; b = [a = 2; c = PARENT.a + a]].b.c", "integer 3");
	EXPECT("[a = 1; b = MY.a].b", "integer 1");
	/* MY.x searches from this ad upwards, as any base.name does */
	EXPECT("[a = 1; b = [c = SELF.a]].b.c", "integer 1");
	EXPECT_IN("[x = 3]", "[y = x].y", "integer 3");
	EXPECT_IN("[x = 7]", ".x", "integer 7");
	EXPECT_IN("[x = 7]", "[x = 1; y = .x].y", "integer 7");
	EXPECT_IN("[x = 5]", "TOPLEVEL.x + ROOT.x", "integer 10");
	EXPECT_IN("[x = 5]", "PARENT.x", "undefined undefined");
	EXPECT("CurrentTime > 1700000000", "boolean true");
	EXPECT_IN("[CurrentTime = 5]", "CurrentTime", "integer 5");
	EXPECT_IN("[my = [x = 1]; x = 2]", "MY.x", "integer 1");
	EXPECT("(1).a", "error error");
	EXPECT("undefined.a", "undefined undefined");
	EXPECT("error.a", "error error");
	EXPECT("string({[a=1],[a=2],[b=3]}.a)", "string \"{ 1,2,undefined }\"");
	EXPECT("string({[a=1], 5}.a)", "string \"{ 1,error }\"");
	EXPECT("size({[a=1],[a=2]}.a)", "integer 2");
}

static void test_subscripts(void **state)
{
	(void)state;
	EXPECT("[a = 1][\"A\"]", "integer 1");
	EXPECT("[a = 1][\"b\"]", "undefined undefined");
	/* the index is read into an int, as HTCondor reads it */
	EXPECT("{1,2,3}[4294967297]", "integer 2");
	EXPECT("{1,2}[true]", "error error");
	EXPECT("{1,2}[1.0]", "error error");
	EXPECT("{1}[undefined]", "undefined undefined");
	EXPECT("undefined[0]", "undefined undefined");
	EXPECT("\"abc\"[0]", "error error");
	EXPECT("{1, 1/0}[1]", "error error");
	EXPECT("[a = {x}; x = 4].a[0]", "integer 4");
}

static const char *repeat_terms(int n)
{
	static char buf[8192];
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		if (i)
			buf[k++] = '+';
		buf[k++] = '1';
	}
	buf[k] = '\0';
	return buf;
}

static void test_limits(void **state)
{
	(void)state;
	/* 400 nested operations evaluate; 401 are too deep. */
	EXPECT(repeat_terms(401), "integer 401");
	EXPECT(repeat_terms(402), "error error");

	/* A long chain of attribute references is too deep too. */
	char ad[20000];
	for (int n = 300; n <= 500; n += 200) {
		size_t k = (size_t)snprintf(ad, sizeof(ad), "[");
		for (int i = 0; i < n; i++)
			k += (size_t)snprintf(ad + k, sizeof(ad) - k,
					      "a%d = a%d; ", i, i + 1);
		snprintf(ad + k, sizeof(ad) - k, "a%d = 42 ]", n);
		EXPECT_IN(ad, "a0", n == 300 ? "integer 42" : "error error");
	}

	/* Exponential re-evaluation stops at the step budget. */
	size_t k = (size_t)snprintf(ad, sizeof(ad), "[");
	for (int i = 0; i < 30; i++)
		k += (size_t)snprintf(ad + k, sizeof(ad) - k,
				      "a%d = a%d + a%d; ", i, i + 1, i + 1);
	snprintf(ad + k, sizeof(ad) - k, "a30 = 1 ]");
	EXPECT_IN(ad, "a20", "integer 1024");
	EXPECT_IN(ad, "a0", "error error");

	/* ...and a hard failure reports KS_EEVAL. */
	classad *a = tu_ad(ad);
	classad_value v = CLASSAD_VALUE_INIT;
	assert_int_equal(classad_eval_attr(a, "a0", NULL, &v), KS_EEVAL);
	assert_int_equal(v.type, CLASSAD_ERROR);
	assert_int_equal(classad_eval_attr(a, "a25", NULL, &v), 0);
	assert_int_equal(v.u.i, 32);
	classad_free(a);
}

static void test_match_scopes(void **state)
{
	(void)state;
	const char *l = "[a = 1; b = x; n = [q = x]]";
	const char *r = "[x = 5]";
	EXPECT_MATCH(l, r, "TARGET.x", "integer 5");
	EXPECT_MATCH(l, r, "MY.a", "integer 1");
	EXPECT_MATCH(l, r, "MY.x", "undefined undefined");
	EXPECT_MATCH(l, r, "x", "integer 5");          /* the other ad */
	EXPECT_MATCH(l, r, "b", "integer 5");
	EXPECT_MATCH(l, r, "n.q", "undefined undefined"); /* no fallback */
	EXPECT_MATCH(l, r, "PARENT.other.x", "integer 5");
	EXPECT_MATCH(l, r, ".LEFT.a + TOPLEVEL.RIGHT.x", "integer 6");
	EXPECT_MATCH(l, r, "TARGET.TARGET.a", "integer 1");
	EXPECT_MATCH(l, r, "symmetricMatch", "undefined undefined");
	EXPECT_MATCH("[Requirements = true]", "[Requirements = 1]",
		     "symmetricMatch", "boolean true");
	/* Without a target TARGET is undefined. */
	EXPECT_IN(l, "TARGET.x", "undefined undefined");
}

static void test_chain(void **state)
{
	(void)state;
	classad *cluster = tu_ad("[Owner = \"ann\"; Cmd = \"/bin/true\"]");
	classad *proc = tu_ad("[ProcId = 3; Cmd = \"/bin/false\"]");
	assert_int_equal(classad_chain(proc, cluster), 0);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(proc, "Owner", NULL, &v);
	assert_string_equal(classad_value_str(&v, NULL), "ann");
	classad_eval_attr(proc, "Cmd", NULL, &v);
	assert_string_equal(classad_value_str(&v, NULL), "/bin/false");
	assert_int_equal(classad_size(proc), 2);
	/* A chain that would loop is refused. */
	assert_int_equal(classad_chain(cluster, proc), KS_EINVAL);
	assert_int_equal(classad_chain(cluster, cluster), KS_EINVAL);
	assert_null(classad_chained_parent(cluster));
	classad_chain(proc, NULL);
	classad_eval_attr(proc, "Owner", NULL, &v);
	assert_int_equal(v.type, CLASSAD_UNDEFINED);
	classad_value_clear(&v);
	classad_free(cluster);
	classad_free(proc);
}

/* Values outlive the ads they came from: they hold references. */
static void test_value_lifetime(void **state)
{
	(void)state;
	classad *ad = tu_ad("[L = {1, x + 1}; x = 41; N = [a = x]]");
	classad_value l = CLASSAD_VALUE_INIT, n = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, "L", NULL, &l);
	classad_eval_attr(ad, "N", NULL, &n);
	classad_free(ad);
	assert_int_equal(classad_value_list_size(&l), 2);
	classad_value item = CLASSAD_VALUE_INIT;
	assert_int_equal(classad_value_list_get(&l, 1, NULL, &item), 0);
	assert_int_equal(item.u.i, 42);
	assert_int_equal(classad_value_list_get(&l, 2, NULL, &item),
			 KS_ERANGE);
	const classad *nested = classad_value_ad(&n);
	assert_non_null(nested);
	assert_non_null(classad_lookup(nested, "A"));
	classad_value copy = CLASSAD_VALUE_INIT;
	classad_value_copy(&copy, &l);
	classad_value_clear(&l);
	classad_value_clear(&n);
	assert_int_equal(classad_value_list_size(&copy), 2);
	classad_value_clear(&copy);
	classad_value_clear(&item);
}

static void test_typed_getters(void **state)
{
	(void)state;
	classad *ad = tu_ad("[i = 7; r = 2.5; b = true; s = \"x\"; u = nope]");
	int64_t i;
	double r;
	bool b;
	char *s;
	assert_true(classad_eval_int(ad, "i", NULL, &i) && i == 7);
	assert_true(classad_eval_int(ad, "r", NULL, &i) && i == 2);
	assert_true(classad_eval_real(ad, "i", NULL, &r) && r == 7.0);
	assert_true(classad_eval_bool(ad, "i", NULL, &b) && b);
	assert_true(classad_eval_bool(ad, "b", NULL, &b) && b);
	assert_false(classad_eval_bool(ad, "s", NULL, &b));
	assert_false(classad_eval_int(ad, "u", NULL, &i));
	assert_true(classad_eval_string(ad, "s", NULL, &s));
	assert_string_equal(s, "x");
	free(s);
	assert_false(classad_eval_string(ad, "i", NULL, &s));
	classad_free(ad);
}

/* The attribute-as-string helper the daemons and tools share: a copy of a
 * string value (computed ones too), NULL for anything else. */
static void test_eval_string_dup(void **state)
{
	(void)state;
	classad *ad = tu_ad("[s = \"x\"; t = strcat(s, \"y\"); e = \"\"; "
			    "i = 7; u = nope; l = {\"a\"}]");
	char *s = classad_eval_string_dup(ad, "S");
	assert_non_null(s);
	assert_string_equal(s, "x");
	free(s);
	s = classad_eval_string_dup(ad, "t");
	assert_non_null(s);
	assert_string_equal(s, "xy");
	free(s);
	s = classad_eval_string_dup(ad, "e");
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	assert_null(classad_eval_string_dup(ad, "i"));
	assert_null(classad_eval_string_dup(ad, "u"));
	assert_null(classad_eval_string_dup(ad, "l"));
	assert_null(classad_eval_string_dup(ad, "missing"));
	assert_null(classad_eval_string_dup(NULL, "s"));
	classad_free(ad);
}

/* A value read as policies read one: booleans, and numbers as non-zero. */
static void test_value_bool(void **state)
{
	(void)state;
	const struct {
		const char *text;
		bool known, b;
	} cases[] = {
		{"true", true, true},   {"false", true, false},
		{"7", true, true},      {"0", true, false},
		{"0.5", true, true},    {"0.0", true, false},
		{"\"true\"", false, false}, {"undefined", false, false},
		{"error", false, false}, {"{ true }", false, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		classad_expr *e = classad_parse_expr(cases[i].text,
						     strlen(cases[i].text), NULL);
		assert_non_null(e);
		classad_value v = CLASSAD_VALUE_INIT;
		classad_eval_expr(NULL, e, NULL, &v);
		bool b = !cases[i].b;
		assert_int_equal(classad_value_bool(&v, &b), cases[i].known);
		if (cases[i].known)
			assert_int_equal(b, cases[i].b);
		else
			assert_int_equal(b, !cases[i].b); /* left alone */
		classad_value_clear(&v);
		classad_expr_free(e);
	}
}

static void collect_ref(const char *name, void *arg)
{
	char *out = arg;
	strcat(out, name);
	strcat(out, " ");
}

/* The attributes an expression reads from its own ad; prefetching them
 * changes nothing a lookup finds. */
static void test_each_ref(void **state)
{
	(void)state;
	const char *text = "Cpus > 4 && MY.Memory > TARGET.RequestMemory && "
			   "strcmp(Name, .Root) == 0 && [a = Inner].a == "
			   "{Foo, MY.Bar}[0] && self.Baz";
	classad_expr *e = classad_parse_expr(text, strlen(text), NULL);
	assert_non_null(e);
	char out[256] = "";
	classad_expr_each_ref(e, collect_ref, out);
	assert_string_equal(out, "Cpus Memory Name Foo Bar Baz ");
	classad_expr_free(e);

	/* what it reads of a match's other ad: TARGET.x, and the plain
	 * names its own ad does not define */
	const char *slot = "[Cpus = 4; Memory = 100; "
			   "Start = Cpus > RequestCpus && MY.Memory > "
			   "TARGET.RequestMemory && Owner != \"x\" && "
			   "{Foo, MY.Bar}[0] && MY.Gone && time() > 0]";
	classad *sa = classad_parse(slot, strlen(slot), CLASSAD_FMT_NEW, NULL, NULL);
	assert_non_null(sa);
	out[0] = '\0';
	classad_expr_each_target_ref(sa, classad_lookup(sa, "Start"),
				     collect_ref, out);
	assert_string_equal(out, "RequestCpus RequestMemory Owner Foo ");
	classad_free(sa);

	classad *ad = classad_new();
	for (int i = 0; i < 40; i++) {
		char name[16];
		snprintf(name, sizeof(name), "A%d", i);
		classad_insert_int(ad, name, i);
	}
	classad *small = classad_new();
	classad_insert_int(small, "A1", 1);
	for (int k = 0; k <= CLASSAD_PREFETCH_AHEAD + 1; k++) {
		classad_prefetch(ad, "A7", k);
		classad_prefetch(ad, "Missing", k);
		classad_prefetch(small, "A1", k);
		classad_prefetch(NULL, "A1", k);
		classad_prefetch(ad, NULL, k);
	}
	int64_t v = -1;
	assert_true(classad_eval_int(ad, "A7", NULL, &v) && v == 7);
	assert_true(classad_eval_int(small, "A1", NULL, &v) && v == 1);
	classad_free(ad);
	classad_free(small);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_bitwise),
		cmocka_unit_test(test_comparison),
		cmocka_unit_test(test_logic),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_scoping),
		cmocka_unit_test(test_subscripts),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_match_scopes),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_value_lifetime),
		cmocka_unit_test(test_typed_getters),
		cmocka_unit_test(test_eval_string_dup),
		cmocka_unit_test(test_value_bool),
		cmocka_unit_test(test_each_ref),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
