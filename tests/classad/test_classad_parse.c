/*
 * test_classad_parse.c: tokenizing, parsing and unparsing expressions,
 * including the corners where HTCondor's tokenizer is surprising.
 */
#include "test_util.h"

static void test_numbers(void **state)
{
	(void)state;
	EXPECT("-7 / 2", "integer -3");
	EXPECT("1 - -7", "integer 8");
	EXPECT_IN("[x = 5]", "x-1", "integer 4");
	EXPECT(".5", "real 5.000000000000000E-01");
	EXPECT("-.5", "real -5.000000000000000E-01");
	EXPECT("09.5", "real 9.500000000000000E+00");
	EXPECT("0e5", "real 0.0");
	EXPECT("1.5e3", "real 1.500000000000000E+03");
	/* out of range integers read as 0, as std::from_chars leaves them */
	EXPECT("9223372036854775808", "integer 0");
	EXPECT("-9223372036854775808", "integer -9223372036854775808");
	EXPECT("-05", "integer -5");
	const char *bad[] = {"0x10", "010", "00", "08", "1.", "1.e5", "1e",
			     "1e+", "0x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(tu_parses(bad[i]));
}

static void test_strings(void **state)
{
	(void)state;
	EXPECT("\"a\" \"b\"", "string \"ab\"");
	EXPECT("\"a\"\n  \"b\" + 1", "error error");
	EXPECT("\"tab\\there\"", "string \"tab\\there\"");
	EXPECT("\"\\u00e9\"", "string \"u00e9\"");
	EXPECT("\"\\101\\x\"", "string \"Ax\"");
	EXPECT("size(\"\\303\\251\")", "integer 2");
	assert_false(tu_parses("\"abc"));
	assert_false(tu_parses("\"a\\0b\""));
	assert_false(tu_parses("'abc"));
}

static void test_old_strings(void **state)
{
	(void)state;
	struct ks_err err;
	const char *cases[][2] = {
		{"\"a\\b\"", "a\\b"},             /* backslash is literal */
		{"\"quote\\\"inside\"", "quote\"inside"},
		{"\"C:\\dir\\\"", "C:\\dir\\"},   /* ends with a backslash */
	};
	for (size_t i = 0; i < 3; i++) {
		classad_expr *e = classad_parse_expr_old(
			cases[i][0], strlen(cases[i][0]), &err);
		assert_non_null(e);
		classad_value v = CLASSAD_VALUE_INIT;
		assert_true(classad_expr_is_literal(e, &v));
		assert_string_equal(classad_value_str(&v, NULL), cases[i][1]);
		classad_value_clear(&v);
		classad_expr_free(e);
	}
}

static void test_operators_lex(void **state)
{
	(void)state;
	EXPECT("undefined ? : 3", "integer 3");
	EXPECT("1 IS 1", "boolean true");
	EXPECT("1 ISNT 1.0", "boolean true");
	EXPECT("1 =?= 1", "boolean true");
	EXPECT("1 =!= 1", "boolean false");
	EXPECT("1 + /* c */ 2 // end", "integer 3");
	EXPECT("-16 >>> 2", "integer 4611686018427387900");
	EXPECT("TRUE && True", "boolean true");
	assert_false(tu_parses("1 =? 2"));
	assert_false(tu_parses("1 + /* open"));
	assert_false(tu_parses("a @ b"));
	assert_false(tu_parses("2 ** 3"));
	assert_false(tu_parses("\"\xc3\xa9\" + \xc3\xa9"));
}

static void test_precedence(void **state)
{
	(void)state;
	EXPECT("1 + 2 * 3", "integer 7");
	EXPECT("(1 + 2) * 3", "integer 9");
	EXPECT("1 << 2 + 1", "integer 8");
	EXPECT("1 < 2 == true", "boolean true");
	EXPECT("6 & 3 ^ 1 | 8", "integer 11");
	EXPECT("true || false && false", "boolean true");
	EXPECT("false ? 1 : true ? 2 : 3", "integer 2");
	/* ?: binds as a postfix operator */
	EXPECT("undefined ?: 2 + 1", "integer 3");
	EXPECT("-2 * -3", "integer 6");
	EXPECT("!true || true", "boolean true");
}

static void test_structure(void **state)
{
	(void)state;
	EXPECT("{1,2,3}[1]", "integer 2");
	EXPECT("[a = 1; b = a + 1].b", "integer 2");
	EXPECT("[;a = 1;;b = 2;].b", "integer 2");
	EXPECT("[ 'a b' = 1 ].'a b'", "integer 1");
	EXPECT("[ 'x\\'y' = 2 ][\"x'y\"]", "integer 2");
	assert_false(tu_parses("{1,2,}"));
	assert_false(tu_parses("f(1,)"));
	assert_false(tu_parses("[a = 1 b = 2]"));
	assert_false(tu_parses("[1 = 2]"));
	assert_false(tu_parses("[a]"));
	assert_false(tu_parses("[true = 1]"));
	assert_false(tu_parses("a."));
	assert_false(tu_parses("(1"));
	assert_false(tu_parses("x[1"));
	assert_false(tu_parses(""));
	assert_true(tu_parses("f(1; 2)"));
	/* HTCondor never checks the end of input after a conditional */
	EXPECT("1 ? 2 : 3 4", "integer 2");
	assert_false(tu_parses("1 + 2 3"));
}

static void test_depth(void **state)
{
	(void)state;
	/* Each parenthesis costs three levels of the parser's 500. */
	char buf[1200];
	for (int n = 165; n <= 166; n++) {
		int k = 0;
		for (int i = 0; i < n; i++)
			buf[k++] = '(';
		buf[k++] = '1';
		for (int i = 0; i < n; i++)
			buf[k++] = ')';
		buf[k] = '\0';
		assert_int_equal(tu_parses(buf), n == 165);
	}
	struct ks_err err;
	classad_expr *e = classad_parse_expr(buf, strlen(buf), &err);
	assert_null(e);
	assert_non_null(strstr(err.msg, "nested too deeply"));
}

static void test_time_literals(void **state)
{
	(void)state;
	assert_string_equal(tu_unparse("absTime(\"2004-01-01T00:00:00Z\")",
				       false),
			    "absTime(\"2004-01-01T00:00:00-00:00\")");
	assert_string_equal(tu_unparse("absTime(\"2004-01-01T06:00:00+05:30\")",
				       false),
			    "absTime(\"2004-01-01T06:00:00+05:30\")");
	assert_string_equal(tu_unparse("relTime(\"1:00\")", false),
			    "relTime(\"01:00\")");
	assert_string_equal(tu_unparse("relTime(\"2+25:14:16.123\")", false),
			    "relTime(\"3+01:14:16.123\")");
	/* Where HTCondor's text would not read back exactly. */
	assert_string_equal(tu_unparse("relTime(\"1.1234567\")", false),
			    "relTime(\"1.1234567\")");
	assert_string_equal(tu_unparse("relTime(\"99999999999.75\")", false),
			    "relTime(\"99999999999.75\")");
	assert_string_equal(tu_unparse("absTime(\"0002-09-09T01:46:40Z\")",
				       false),
			    "absTime(\"0002-09-09T01:46:40-00:00\")");
	EXPECT("string(relTime(\"1.1234567\"))",
	       "string \"1.123456700000000E+00\"");
	EXPECT("relTime(\"1:00\")", "real 6.000000000000000E+01");
	EXPECT("relTime(\"-5m\")", "real -3.000000000000000E+02");
	assert_false(tu_parses("absTime(\"nonsense\")"));
	assert_false(tu_parses("relTime(\"nonsense\")"));
	assert_false(tu_parses("absTime(\"2004-01-01T00:00:00Z 5\")"));
}

static void test_unparse(void **state)
{
	(void)state;
	const char *cases[][2] = {
		{"a+b*c", "a + b * c"},
		{"(a+b)*c", "(a + b) * c"},
		{"!a", " !a"},
		{"-a", " -a"},
		{"- 5", " - 5"},
		{"a - - 5", "a -  - 5"},
		{"a - -5", "a - -5"},
		{"~x", " ~x"},
		{"a =?= b", "a is b"},
		{"a isnt b", "a isnt b"},
		{"a ? b : c", "a ? b : c"},
		{"a ?: b", "a ?: b"},
		{"x[1]", "x[1]"},
		{"a.b.c", "a.b.c"},
		{".a", ".a"},
		{"strcat(\"a\", 1)", "strcat(\"a\",1)"},
		{"{1, 2}", "{ 1,2 }"},
		{"{}", "{  }"},
		{"[]", "[  ]"},
		{"[a = 1; b = \"x\"]", "[ a = 1; b = \"x\" ]"},
		{"2.5", "2.500000000000000E+00"},
		{"0.30000000000000004", "3.0000000000000004E-01"},
		{"0.0", "0.0"},
		{"\"a\\tb\"", "\"a\\tb\""},
		{"\"\xc3\xa9\"", "\"\\303\\251\""},
		{"'a b'", "'a b'"},
		{"'true' + 'parent'", "'true' + 'parent'"},
		{"undefined", "undefined"},
		{"ERROR", "error"},
		{"TRUE", "true"},
		{"-9223372036854775808", "-9223372036854775808"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(tu_unparse(cases[i][0], false), cases[i][1]);
	assert_string_equal(tu_unparse("a =?= b", true), "a =?= b");
	assert_string_equal(tu_unparse("a =!= b", true), "a =!= b");
	assert_string_equal(tu_unparse("2.5", true), "2.5");
	assert_string_equal(tu_unparse("1e10", true), "10000000000.0");
	assert_string_equal(tu_unparse("1e20", true), "1E+20");
	assert_string_equal(tu_unparse("0.30000000000000004", true),
			    "0.30000000000000004");
	assert_string_equal(tu_unparse("\"a\\tb\"", true), "\"a\tb\"");
	assert_string_equal(tu_unparse("\"x\\\"y\"", true), "\"x\\\"y\"");
}

/* parse(unparse(x)) is x, in both syntaxes. */
static void test_roundtrip(void **state)
{
	(void)state;
	const char *exprs[] = {
		"a + b * c - (d / e) % f",
		"- 5", "- -5", "-(5)", "a - - 5", "!(!a)", "~ -x",
		"a ? b : c ? d : e",
		"(a ? b : c) ? d : e",
		"x ?: y ?: z",
		"{1, {2, [a = 1; b = {3}]}, \"s\"}[1][1].b[0]",
		"TARGET.Memory >= MY.RequestMemory && .Cpus > 0",
		"strcat(\"a\\\"b\", 'x y', regexps(\"(a)\", \"b\", \"\\\\1\"))",
		"1e300 * 1e300", "0.1 + 0.2", "1.7976931348623157E+308",
		"relTime(\"1+02:03:04\") + absTime(\"2020-02-29T12:00:00+01:00\")",
		"real(\"INF\") + real(\"NaN\")",
		"a =?= b || c =!= d",
		"'weird name' + PARENT.x + 'isnt'",
		"1 .a + (2).b",
		"relTime(\"1.1234567\") + relTime(\"0.00001\")",
		"relTime(\"2+25:14:16.123\") - relTime(\"99999999999.75\")",
		"absTime(\"0002-09-09T01:46:40Z\")",
		"absTime(\"0999-12-31T23:59:59+05:00\")",
	};
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		for (int old = 0; old < 2; old++) {
			struct ks_err err;
			classad_expr *e = old
				? classad_parse_expr_old(exprs[i],
							 strlen(exprs[i]), &err)
				: classad_parse_expr(exprs[i], strlen(exprs[i]),
						     &err);
			assert_non_null(e);
			char *t = classad_expr_unparse(e, old);
			classad_expr *back =
				old ? classad_parse_expr_old(t, strlen(t), &err)
				    : classad_parse_expr(t, strlen(t), &err);
			if (!back || !classad_expr_same(e, back))
				fail_msg("%s -> %s does not read back", exprs[i],
					 t);
			classad_expr_free(back);
			classad_expr_free(e);
			free(t);
		}
	}
}

static void test_error_positions(void **state)
{
	(void)state;
	struct ks_err err;
	const char *text = "a +\n  (b *";
	assert_null(classad_parse_expr(text, strlen(text), &err));
	assert_int_equal(err.code, KS_EPARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 7);
	assert_non_null(strstr(err.msg, "expected an expression"));
	text = "[ a = 1; b = ]";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				  &err));
	assert_int_equal(err.col, 14);
	assert_non_null(strstr(err.msg, "found ']'"));
	text = "x + 010";
	assert_null(classad_parse_expr(text, strlen(text), &err));
	assert_int_equal(err.col, 5);
	assert_non_null(strstr(err.msg, "octal"));
}

/* A NUL byte ends the input, as it does for HTCondor. */
static void test_nul(void **state)
{
	(void)state;
	const char text[] = "1 + 2\0 garbage";
	classad_expr *e = classad_parse_expr(text, sizeof(text) - 1, NULL);
	assert_non_null(e);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(NULL, e, NULL, &v);
	assert_int_equal(v.u.i, 3);
	classad_expr_free(e);
	const char bad[] = "\"ab\0cd\"";
	assert_null(classad_parse_expr(bad, sizeof(bad) - 1, NULL));
}

/* A parsed ad holds exactly its attributes; room reserved for more keeps
 * every attribute findable, old and new, and keeps the order. */
static void test_reserve(void **state)
{
	(void)state;
	const char text[] = "A = 1\nB = 2\nC = 3\nD = 4\nE = 5\nF = 6\n"
			    "G = 7\nH = 8\nI = 9\nJ = 10\n";
	classad *ad = classad_parse(text, sizeof(text) - 1, CLASSAD_FMT_OLD,
				    NULL, NULL);
	assert_non_null(ad);
	classad_reserve(ad, 3); /* fewer than it has: nothing changes */
	classad_reserve(ad, classad_size(ad) + 8);
	for (int i = 0; i < 8; i++) {
		char name[8];
		snprintf(name, sizeof(name), "N%d", i);
		assert_int_equal(classad_insert_int(ad, name, 100 + i), 0);
	}
	assert_int_equal(classad_size(ad), 18);
	int64_t v;
	assert_true(classad_eval_int(ad, "j", NULL, &v));
	assert_int_equal(v, 10);
	assert_true(classad_eval_int(ad, "n7", NULL, &v));
	assert_int_equal(v, 107);
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	assert_true(classad_next(ad, &pos, &name, &e));
	assert_string_equal(name, "A");
	classad_free(ad);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_old_strings),
		cmocka_unit_test(test_operators_lex),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_time_literals),
		cmocka_unit_test(test_unparse),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_error_positions),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_reserve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
