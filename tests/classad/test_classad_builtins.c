/*
 * test_classad_builtins.c: the builtin functions, with HTCondor's answers
 * for wrong types and undefined arguments.
 */
#include "test_util.h"

static void test_types(void **state)
{
	(void)state;
	EXPECT("isReal(relTime(60))", "boolean false");
	EXPECT("isReltime(relTime(60))", "boolean true");
	EXPECT("isAbstime(absTime(0))", "boolean true");
	EXPECT("isClassAd(splitTime(0))", "boolean true");
	EXPECT("isInteger(1, 2)", "error error");
	EXPECT("isError(random(0))", "error error"); /* a hard failure */
	EXPECT("ifThenElse(0.0, 1, 2)", "integer 2");
	EXPECT("ifThenElse({}, 1, 2)", "error error");
	EXPECT("ifThenElse(true, 1)", "error error");
	EXPECT("ifThenElse(false, 1/0, 2)", "integer 2");
}

static void test_conversions(void **state)
{
	(void)state;
	EXPECT("int(\"  42abc\")", "integer 42");
	EXPECT("int(\"\")", "error error");
	EXPECT("int(real(\"INF\"))", "integer -9223372036854775808");
	EXPECT("int(relTime(90.7))", "integer 90");
	EXPECT("int(absTime(\"2004-01-01T00:00:00Z\"))", "integer 1072915200");
	EXPECT("int({})", "error error");
	EXPECT("int(undefined)", "undefined undefined");
	EXPECT("real(\"1e3\")", "real 1.000000000000000E+03");
	EXPECT("real(true)", "real 1.000000000000000E+00");
	EXPECT("real(relTime(90.7))", "real 9.000000000000000E+01");
	EXPECT("real(\"x\")", "error error");
	EXPECT("string(0.1 + 0.2)", "string \"3.000000000000000E-01\"");
	EXPECT("string(relTime(3600))", "string \"01:00:00\"");
	EXPECT("string(absTime(\"2004-01-01T00:00:00Z\"))",
	       "string \"2004-01-01T00:00:00-00:00\"");
	EXPECT("string([a = 1])", "string \"[ a = 1 ]\"");
	EXPECT("string(error)", "error error");
	EXPECT("bool(\"TRUE\")", "boolean true");
	EXPECT("bool(relTime(0))", "boolean false");
	EXPECT("bool(absTime(0))", "error error");
	EXPECT("bool({})", "error error");
	EXPECT_IN("[x = 2]", "eval(\"x * 3\")", "integer 6");
	EXPECT("eval(\"[a = 1].a\")", "integer 1");
	EXPECT("eval(5)", "integer 5");
	EXPECT("eval(1/0)", "error error");
}

static void test_unparse_fns(void **state)
{
	(void)state;
	EXPECT_IN("[x = a + 1]", "unparse(x)", "string \"a + 1\"");
	EXPECT_IN("[x = {1, 2}]", "unparse(x)",
		  "string \"\\n   {\\n      1,\\n      2\\n   }\"");
	EXPECT_IN("[x = 1]", "unparse(MY.x)", "string \"\"");
	EXPECT("unparse(1)", "error error");
	EXPECT_IN("[x = a + b; a = 1]", "unresolved(x)", "string \"b\"");
	EXPECT_IN("[x = TARGET.y + z]", "unresolved(x)", "string \"y,z\"");
	EXPECT_IN("[x = TARGET.y + z]", "unresolved(x, \"^Y$\")",
		  "boolean true");
	EXPECT_IN("[x = TARGET.y + z]", "unresolved(x, \"^q$\")",
		  "boolean false");
	EXPECT_IN("[x = 1]", "unresolved(nosuch)", "undefined undefined");
	EXPECT_MATCH("[x = TARGET.y + z + w]", "[y = 1; z = q]",
		     "unresolved(x)", "string \"w,z\"");
}

static void test_math(void **state)
{
	(void)state;
	EXPECT("round(-0.5)", "integer 0");
	EXPECT("round(0.5)", "integer 0");
	EXPECT("round(1.5)", "integer 2");
	EXPECT("floor(\"3.7\")", "integer 3");
	EXPECT("ceiling(undefined)", "error error");
	EXPECT("round(true)", "integer 1");
	EXPECT("floor(5)", "integer 5");
	EXPECT("ceil(2.1)", "integer 3");
	EXPECT("pow(3, 40)", "integer -9223372036854775808");
	EXPECT("pow(2, 62)", "integer 4611686018427387904");
	EXPECT("pow(undefined, 2)", "error error");
	EXPECT("pow(2, true)", "real 2.000000000000000E+00");
	EXPECT("quantize(0, 8)", "integer 0");
	EXPECT("quantize(-5, 4)", "integer 0");
	EXPECT("quantize(5, 0)", "integer 5");
	EXPECT("quantize(2.5, 0.5)", "real 2.500000000000000E+00");
	EXPECT("quantize(3, 0.0)", "integer 3");
	EXPECT("quantize(3, {})", "integer 3");
	EXPECT("quantize(3, {\"a\"})", "error error");
	EXPECT("quantize(10, {2.5, 4})", "integer 12");
	EXPECT("quantize(2, {2.5, 4})", "real 2.500000000000000E+00");
	EXPECT("quantize(\"7\", 4)", "real 8.000000000000000E+00");
	EXPECT("random(10) >= 0 && random(10) < 10", "boolean true");
	EXPECT("isInteger(random(10))", "boolean true");
	EXPECT("isReal(random())", "boolean true");
	EXPECT("random(-1.0)", "error error");
	EXPECT("random(\"x\")", "error error");
}

static void test_lists(void **state)
{
	(void)state;
	EXPECT("member(1, {1.0})", "boolean true");
	EXPECT("member(\"a\", {\"A\"})", "boolean true");
	EXPECT("identicalMember(1, {1.0})", "boolean false");
	EXPECT("identicalMember(undefined, {undefined})", "boolean true");
	EXPECT("member(error, {1})", "error error");
	EXPECT("identicalMember(error, {error})", "boolean true");
	EXPECT("member({1}, {{1}})", "error error");
	EXPECT("member(1, undefined)", "undefined undefined");
	EXPECT("size(\"\")", "integer 0");
	EXPECT("size([])", "integer 0");
	EXPECT("sum({true})", "boolean true");
	EXPECT("sum({1, undefined, 2})", "integer 3");
	EXPECT("avg({undefined})", "integer 0");
	EXPECT("avg({true})", "real 1.000000000000000E+00");
	EXPECT("max({true, 2})", "integer 2");
	EXPECT("max({2, true})", "integer 2");
	EXPECT("max({true})", "boolean true");
	EXPECT("min({1.5, 1})", "real 1.000000000000000E+00");
	EXPECT("sum({1, \"a\"})", "error error");
	EXPECT("sum(5)", "error error");
	EXPECT("sum(undefined)", "undefined undefined");
	/* the first undefined comparison ends the search: false */
	EXPECT("anyCompare(\"<\", {3, undefined, 1}, 2)", "boolean false");
	EXPECT("allCompare(\">\", {}, 1)", "boolean true");
	EXPECT("anyCompare(\"bad\", {1}, 1)", "error error");
	EXPECT("anyCompare(\"<\", undefined, 1)", "undefined undefined");
	EXPECT("anyCompare(undefined, {1}, 1)", "undefined undefined");
	EXPECT("allCompare(\"==\", {\"a\", 1}, \"a\")", "error error");
	EXPECT("anyCompare(\"isnt\", {1, 1.0}, 1)", "boolean true");
}

static void test_each_context(void **state)
{
	(void)state;
	EXPECT_IN("[Req = Cpus > 1; L = {[Cpus = 1], [Cpus = 2]}]",
		  "countMatches(Req, L)", "integer 1");
	EXPECT_IN("[Req = Cpus > 1; L = {[Cpus = 1], [Cpus = 2]}]",
		  "evalInEachContext(Req, L)", "list { false,true }");
	EXPECT("evalInEachContext(Cpus, undefined)", "undefined undefined");
	EXPECT("countMatches(Cpus, undefined)", "integer 0");
	EXPECT("countMatches(x, 5)", "error error");
	EXPECT("evalInEachContext(x, {1})", "list { error }");
	EXPECT("evalInEachContext(x, {[x = [y = 1]]})", "list { [ y = 1 ] }");
	/* In a match, an item's ad falls back to the other side. */
	EXPECT_MATCH("[JobMinCap = 4; RequireGPUs = Capability >= JobMinCap]",
		     "[AvailableGPUs = {GPUs_a, GPUs_b}; "
		     "GPUs_a = [Capability = 5]; GPUs_b = [Capability = 3]]",
		     "countMatches(RequireGPUs, TARGET.AvailableGPUs)",
		     "integer 1");
}

static void test_strings(void **state)
{
	(void)state;
	EXPECT("strcat(\"a\", error)", "error error");
	EXPECT("strcat(undefined, error)", "undefined undefined");
	EXPECT("strcat(\"x\", {1})", "string \"x{ 1 }\"");
	EXPECT("strcat(1.5)", "string \"1.500000000000000E+00\"");
	EXPECT("join(\",\", \"a\", undefined, \"b\")", "string \"a,b\"");
	EXPECT("join(undefined, \"a\", \"b\")", "string \"ab\"");
	EXPECT("join(\",\", \"\", \"a\")", "string \"a\"");
	EXPECT("join(\",\", \"a\", \"\", \"b\")", "string \"a,,b\"");
	EXPECT("join(\",\")", "string \"\"");
	EXPECT("join()", "string \"\"");
	EXPECT("join(\",\", {\"a\", 2})", "string \"a,2\"");
	EXPECT("join({})", "string \"\"");
	EXPECT("join(\",\", undefined)", "undefined undefined");
	EXPECT("toLower(undefined)", "undefined undefined");
	EXPECT("toUpper({1})", "string \"{ 1 }\"");
	EXPECT("toLower(\"\xc3\x80\x42\")", "string \"\\303\\200b\"");
	EXPECT("substr(\"abc\", 1.5)", "error error");
	EXPECT("substr(\"abc\", -10, 2)", "string \"ab\"");
	EXPECT("substr(\"abc\", 1, 0)", "string \"\"");
	EXPECT("substr(\"abc\", 1, 10)", "string \"bc\"");
	EXPECT("substr(\"abc\", 3)", "string \"\"");
	EXPECT("substr(undefined, 1)", "undefined undefined");
	EXPECT("substr(\"abc\", 1, -5)", "string \"\"");
	EXPECT("strcmp(\"a\", undefined)", "undefined undefined");
	EXPECT("strcmp({1}, \"x\")", "integer 1");
	EXPECT("stricmp(\"ABC\", \"abd\")", "integer -1");
	EXPECT("versioncmp(\"1.10\", \"1.9\")", "integer 1");
	EXPECT("versioncmp(\"a\", \"c\")", "integer -2");
	EXPECT("versionGT(\"10.0\", \"9.5\")", "boolean true");
	EXPECT("versionLE(\"1.0\", \"1.0\")", "boolean true");
	EXPECT("version_in_range(\"1.5\", \"1.0\", \"2.0\")", "boolean true");
	EXPECT("version_in_range(\"3\", \"1\", undefined)",
	       "undefined undefined");
	EXPECT("split(\"a,,b\")", "list { \"a\",\"\",\"b\" }");
	EXPECT("split(\" a , b \")", "list { \"a\",\"b\" }");
	EXPECT("split(\"a;;b\", \";\")", "list { \"a\",\"\",\"b\" }");
	EXPECT("split(\"abc\", \"\")", "list { \"abc\" }");
	EXPECT("split(1)", "error error");
	EXPECT("splitUserName(\"@x\")", "list { \"\",\"x\" }");
	EXPECT("splitSlotName(\"a@b@c\")", "list { \"a\",\"b@c\" }");
	/* stringListRegexpMember is not an HTCondor function */
	EXPECT("stringListRegexpMember(\"a\", \"a\")", "error error");
	EXPECT("noSuchFunction(1)", "error error");
}

static void test_string_lists(void **state)
{
	(void)state;
	EXPECT("stringListSize(\"a, ,b,\")", "integer 2");
	EXPECT("stringListSize(\"a b\", \" \")", "integer 2");
	EXPECT("stringListSize(undefined)", "error error");
	EXPECT("stringListSum(\"\")", "real 0.0");
	EXPECT("stringListAvg(\"\")", "real 0.0");
	EXPECT("stringListMin(\"\")", "undefined undefined");
	EXPECT("stringListMax(\"-1,-2\")", "integer 0");
	EXPECT("stringListMin(\"5\")", "integer 5");
	EXPECT("stringListSum(\"1.5,1.5\")", "real 3.000000000000000E+00");
	EXPECT("stringListSum(\"1e2\")", "real 1.000000000000000E+02");
	EXPECT("stringListAvg(\"1,2\")", "integer 1");
	EXPECT("stringListMember(\" b\", \"a,b\")", "boolean false");
	EXPECT("stringListMember(\"b\", \" a , b \")", "boolean true");
	EXPECT("stringListMember(undefined, \"a\")", "boolean false");
	EXPECT("stringListMember(undefined, undefined)", "undefined undefined");
	EXPECT("stringListMember(1, \"1\")", "error error");
	EXPECT("stringListIMember(\"A\", \"a\")", "boolean true");
	EXPECT("stringListSubsetMatch(\"\", \"a\")", "boolean true");
	EXPECT("stringListSubsetMatch(\",\", \"a\")", "boolean false");
	EXPECT("stringListSubsetMatch(\"a\", \"\")", "boolean false");
	EXPECT("stringListSubsetMatch(\"a,b\", \"b,a,c\")", "boolean true");
	EXPECT("stringListISubsetMatch(\"A\", \"a\")", "boolean true");
	EXPECT("stringListSubsetMatch(\"a|b\", \"a|b|c\", \"|\")",
	       "boolean true");
	EXPECT("stringListsIntersect(\"a,b\", \"c,b\")", "boolean true");
	EXPECT("stringListsIntersect(\"a\", \"b\")", "boolean false");
	EXPECT("stringListsIntersect(\"a b\", \"x a\")", "boolean true");
	EXPECT("stringListsIntersect(\"a\", undefined)", "undefined undefined");
	EXPECT("stringList_regexpMember(\"^b\", \"a,bb,c\")", "boolean true");
	EXPECT("stringList_regexpMember(\"^z\", \"a\")", "boolean false");
	EXPECT("stringList_regexpMember(\"^z\", \"\")", "undefined undefined");
	EXPECT("stringList_regexpMember(\"(\", \"a\")", "error error");
	EXPECT("stringList_regexpMember(\"^B\", \"a,bb\", \",\", \"i\")",
	       "boolean true");
}

static void test_regex(void **state)
{
	(void)state;
	EXPECT("regexp(\"a\", undefined)", "undefined undefined");
	EXPECT("regexp(\"a\", 1)", "error error");
	EXPECT("regexp(\"a\", \"b\", 1)", "error error");
	EXPECT("regexp(\"a b\", \"ab\", \"x\")", "boolean true");
	EXPECT("regexps(\"(a)(b)?\", \"ab\", \"[\\\\2]\")", "string \"[b]\"");
	EXPECT("regexps(\"(a)(b)?\", \"ac\", \"[\\\\2]\")", "error error");
	EXPECT("regexps(\"b\", \"abc\", \"X\")", "string \"X\"");
	EXPECT("replace(\"b\", \"abcb\", \"X\")", "string \"aXcb\"");
	EXPECT("replaceAll(\"b\", \"abcb\", \"X\")", "string \"aXcX\"");
	EXPECT("replaceAll(\"B\", \"abcb\", \"X\", \"i\")", "string \"aXcX\"");
	EXPECT("replace(\"^\", \"ab\", \"-\")", "string \"-ab\"");
	/* An empty match at the end runs past it, as HTCondor's does. */
	EXPECT("replaceAll(\"x*\", \"ab\", \"-\")", "error error");
	EXPECT("regexps(\"(\", \"a\", \"b\")", "error error");
	EXPECT("regexps(\"a\", \"b\", \"\\\\1\")", "string \"\"");
	EXPECT("regexps(\"a\", \"a\", \"\\\\9\")", "error error");
	EXPECT("regexpMember(\"^a\", {\"b\", undefined})",
	       "undefined undefined");
	EXPECT("regexpMember(\"^a\", {\"b\", 1})", "error error");
	EXPECT("regexpMember(\"(\", {\"a\"})", "boolean false");
}

static void test_times(void **state)
{
	(void)state;
	EXPECT("formatTime(0)", "string \"Thu Jan  1 00:00:00 1970\"");
	EXPECT("formatTime([Year = 2000; Month = 2; Day = 3], "
	       "\"%Y-%m-%d %j %a\")",
	       "string \"2000-02-03 034 Thu\"");
	EXPECT("formatTime(relTime(5))", "error error");
	EXPECT("formatTime(1, 2)", "error error");
	EXPECT("formatTime(\"x\")", "error error");
	EXPECT("formatTime(1, 2, 3)", "error error");
	EXPECT("interval(-3725)", "string \"-1:02:05\"");
	EXPECT("interval(59)", "string \"59\"");
	EXPECT("interval(60)", "string \"1:00\"");
	EXPECT("interval(\"abc\")", "error error");
	const char *t = "absTime(\"2004-03-05T06:07:08Z\")";
	const char *fields[][2] = {
		{"getYear", "integer 2004"},    {"getMonth", "integer 3"},
		{"getDayOfMonth", "integer 5"}, {"getDayOfWeek", "integer 5"},
		{"getDayOfYear", "integer 64"}, {"getHours", "integer 6"},
		{"getMinutes", "integer 7"},    {"getSeconds", "integer 8"},
		{"getDays", "error error"},
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char e[128];
		snprintf(e, sizeof(e), "%s(%s)", fields[i][0], t);
		EXPECT(e, fields[i][1]);
	}
	EXPECT("getDays(relTime(90061))", "integer 1");
	EXPECT("getHours(relTime(90061))", "integer 1");
	EXPECT("getSeconds(relTime(90061))", "integer 1");
	EXPECT("getYear(relTime(1))", "error error");
	EXPECT("getYear(5)", "error error");
	EXPECT("splitTime(relTime(-90061.5))",
	       "classad [ Type = \"RelativeTime\"; Days = -1; Hours = 1; "
	       "Minutes = 1; Seconds = 1.500000000000000E+00 ]");
	EXPECT("splitTime([a = 1])", "error error");
	EXPECT("splitTime(\"x\")", "error error");
	EXPECT("splitTime(undefined)", "undefined undefined");
	EXPECT("absTime(1000, 3600)",
	       "abstime absTime(\"1970-01-01T01:16:40+01:00\")");
	/* A non-literal string is not read as a time, as in HTCondor. */
	EXPECT("absTime(strcat(\"20\", \"04\"))", "string \"2004\"");
	EXPECT("relTime(strcat(\"1:00\"))", "reltime relTime(\"00\")");
	EXPECT("absTime(undefined)", "undefined undefined");
	EXPECT("absTime(true)", "error error");
	EXPECT("relTime(1, 2)", "error error");
	EXPECT("relTime()", "error error");
	EXPECT("isAbstime(absTime())", "boolean true");
	EXPECT("time() > 1700000000", "boolean true");
	EXPECT("isAbstime(currentTime())", "boolean true");
	EXPECT("timeZoneOffset()", "reltime relTime(\"00\")");
	EXPECT("isReltime(dayTime())", "boolean true");
	EXPECT("time(1)", "error error");
}

static bool test_map(void *arg, const char *map, const char *in, char **out)
{
	(void)arg;
	if (strcmp(map, "groups") != 0)
		return false;
	if (!strcmp(in, "alice"))
		*out = strdup("physics, chem");
	else if (!strcmp(in, "nobody"))
		*out = strdup("");
	else
		return false;
	return true;
}

static const char *eval_env(const classad_env *env, const char *expr)
{
	static char buf[4200];
	classad_expr *e = classad_parse_expr(expr, strlen(expr), NULL);
	assert_non_null(e);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(NULL, e, env, &v);
	snprintf(buf, sizeof(buf), "%s", tu_describe(&v));
	classad_value_clear(&v);
	classad_expr_free(e);
	return buf;
}

static void debug_sink(void *arg, const char *line)
{
	int *n = arg;
	if (strstr(line, "Classad debug:"))
		(*n)++;
}

static void test_environment(void **state)
{
	(void)state;
	classad_env *env = classad_env_new();
	classad_env_set_usermap(env, test_map, NULL);
	const char *cases[][2] = {
		{"userMap(\"groups\", \"alice\")", "string \"physics, chem\""},
		{"userMap(\"groups\", \"alice\", \"CHEM\")", "string \"chem\""},
		{"userMap(\"groups\", \"alice\", \"bio\")", "string \"physics\""},
		{"userMap(\"groups\", \"bob\")", "undefined undefined"},
		{"userMap(\"groups\", \"bob\", \"x\", \"dflt\")",
		 "string \"dflt\""},
		{"userMap(\"groups\", undefined)", "undefined undefined"},
		{"userMap(\"groups\", error)", "error error"},
		{"userMap(\"groups\", \"nobody\", \"x\")", "undefined undefined"},
		{"userMap(\"groups\", \"nobody\")", "string \"\""},
		{"userMap(\"other\", \"alice\")", "undefined undefined"},
		{"userMap(\"groups\")", "error error"},
		{"userHome(\"root\")", "undefined undefined"},
		{"userHome(\"root\", \"/d\")", "string \"/d\""},
		{"userHome(1)", "error error"},
		{"userHome(1, \"/d\")", "string \"/d\""},
		{"userHome()", "error error"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(eval_env(env, cases[i][0]), cases[i][1]);
	/* Without an environment there are no maps. */
	assert_string_equal(eval_env(NULL, "userMap(\"groups\", \"alice\")"),
			    "undefined undefined");
	classad_env_enable_user_home(env, true);
	assert_string_equal(eval_env(env, "userHome(\"root\")"),
			    "string \"/root\"");
	assert_string_equal(eval_env(env, "userHome(\"no-such-user-x\")"),
			    "undefined undefined");
	int lines = 0;
	classad_env_set_debug(env, debug_sink, &lines);
	assert_string_equal(eval_env(env, "debug(1 + strcat(\"a\"))"),
			    "error error");
	assert_true(lines >= 2);
	classad_env_free(env);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_unparse_fns),
		cmocka_unit_test(test_math),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_each_context),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_string_lists),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_environment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
