/*
 * test_classad_xml.c: ads written as HTCondor's XML unparser writes them
 * (src/classad/xmlSink.cpp): each value type, the escaping of strings
 * and expressions, nested ads and lists, the layout the tools print and
 * the compact one.
 */
#include "test_util.h"

/* The XML of an ad given in new syntax: a new string. */
static char *xml_of(const char *text, bool compact)
{
	classad *ad = tu_ad(text);
	struct classad_buf b = {0};
	classad_unparse_xml_buf(&b, ad, compact);
	classad_free(ad);
	return b.data; /* never empty: there is always a <c> */
}

static void check_compact(const char *text, const char *want)
{
	char *got = xml_of(text, true);
	assert_string_equal(got, want);
	free(got);
}

static void test_scalars(void **state)
{
	(void)state;
	check_compact("[a = 1]", "<c><a n=\"a\"><i>1</i></a></c>");
	check_compact("[a = -9223372036854775807 - 1]",
		      "<c><a n=\"a\"><e>-9223372036854775807 - 1</e></a></c>");
	check_compact("[a = \"x\"]", "<c><a n=\"a\"><s>x</s></a></c>");
	check_compact("[a = \"\"]", "<c><a n=\"a\"><s></s></a></c>");
	check_compact("[a = true; b = false]",
		      "<c><a n=\"a\"><b v=\"t\"/></a>"
		      "<a n=\"b\"><b v=\"f\"/></a></c>");
	check_compact("[a = undefined; b = error]",
		      "<c><a n=\"a\"><un/></a><a n=\"b\"><er/></a></c>");
	check_compact("[]", "<c></c>");
}

static void test_reals(void **state)
{
	(void)state;
	check_compact("[a = 2.5]",
		      "<c><a n=\"a\"><r>2.500000000000000E+00</r></a></c>");
	check_compact("[a = 0.0]", "<c><a n=\"a\"><r>0.0</r></a></c>");
	/* 16 digits, as HTCondor, even where they do not give 0.1 back
	 * exactly (new syntax writes 17 there) */
	check_compact("[a = 0.1]",
		      "<c><a n=\"a\"><r>1.000000000000000E-01</r></a></c>");
	check_compact("[a = 1e300]",
		      "<c><a n=\"a\"><r>1.000000000000000E+300</r></a></c>");
	/* a literal of the value, not real("INF") */
	classad *ad = classad_new();
	classad_insert_real(ad, "p", 1.0 / 0.0);
	classad_insert_real(ad, "n", -1.0 / 0.0);
	classad_insert_real(ad, "q", 0.0 / 0.0);
	classad_insert_real(ad, "z", -0.0);
	struct classad_buf b = {0};
	classad_unparse_xml_buf(&b, ad, true);
	assert_string_equal(b.data, "<c><a n=\"p\"><r>INF</r></a>"
				    "<a n=\"n\"><r>-INF</r></a>"
				    "<a n=\"q\"><r>NaN</r></a>"
				    "<a n=\"z\"><r>0.0</r></a></c>");
	free(b.data);
	classad_free(ad);
}

static void test_times(void **state)
{
	(void)state;
	check_compact("[a = absTime(\"2004-01-01T00:00:00Z\")]",
		      "<c><a n=\"a\"><at>2004-01-01T00:00:00-00:00</at></a></c>");
	check_compact("[a = relTime(\"1+02:03:04\")]",
		      "<c><a n=\"a\"><rt>1+02:03:04</rt></a></c>");
	classad *ad = classad_new();
	classad_value v = CLASSAD_VALUE_INIT;
	classad_value_set_reltime(&v, 90);
	classad_insert_value(ad, "r", &v);
	struct classad_buf b = {0};
	classad_unparse_xml_buf(&b, ad, true);
	assert_string_equal(b.data, "<c><a n=\"r\"><rt>01:30</rt></a></c>");
	free(b.data);
	classad_value_clear(&v);
	classad_free(ad);
}

static void test_string_escapes(void **state)
{
	(void)state;
	/* markup characters as entities; quotes as they are */
	check_compact("[a = \"<a href='x'>&\\\"</a>\"]",
		      "<c><a n=\"a\"><s>&lt;a href='x'&gt;&amp;\"&lt;/a&gt;</s>"
		      "</a></c>");
	/* backslashes and control characters as in new syntax */
	check_compact("[a = \"x\\\\y\\n\\t\\001\"]",
		      "<c><a n=\"a\"><s>x\\\\y\\n\\t\\001</s></a></c>");
	/* bytes that are not ASCII as octal escapes, as HTCondor */
	check_compact("[a = \"caf\xc3\xa9\"]",
		      "<c><a n=\"a\"><s>caf\\303\\251</s></a></c>");
	/* a name as an XML attribute: its quote gets a backslash */
	check_compact("['we<i\"rd' = 1]",
		      "<c><a n=\"we&lt;i\\\"rd\"><i>1</i></a></c>");
}

static void test_expressions(void **state)
{
	(void)state;
	check_compact("[a = b + 1]", "<c><a n=\"a\"><e>b + 1</e></a></c>");
	/* operators, strings and quoted names inside get entities */
	check_compact("[a = x < 2 && y >= \"<&>\"]",
		      "<c><a n=\"a\"><e>x &lt; 2 &amp;&amp; y &gt;= "
		      "\"&lt;&amp;&gt;\"</e></a></c>");
	check_compact("[a = 'b&c' =?= \"q\\\"\"]",
		      "<c><a n=\"a\"><e>'b&amp;c' is \"q\\\"\"</e></a></c>");
	check_compact("[a = ifThenElse(x, 1.5, -2)]",
		      "<c><a n=\"a\"><e>ifThenElse(x,1.500000000000000E+00,-2)"
		      "</e></a></c>");
	check_compact("[a = (b)]", "<c><a n=\"a\"><e>(b)</e></a></c>");
}

static void test_lists_and_ads(void **state)
{
	(void)state;
	check_compact("[a = {1, \"x\", {}, b}]",
		      "<c><a n=\"a\"><l><i>1</i><s>x</s><l></l><e>b</e></l>"
		      "</a></c>");
	check_compact("[a = [b = 1; c = {[d = true]}]]",
		      "<c><a n=\"a\"><c><a n=\"b\"><i>1</i></a><a n=\"c\"><l>"
		      "<c><a n=\"d\"><b v=\"t\"/></a></c></l></a></c></a></c>");
	/* a list value (not an expression) walks the same way */
	classad *ad = classad_new();
	classad_value v = CLASSAD_VALUE_INIT;
	classad *src = tu_ad("[l = {1, 2}]");
	assert_int_equal(classad_eval_attr(src, "l", NULL, &v), 0);
	classad_insert_value(ad, "l", &v);
	classad_value_clear(&v);
	classad_free(src);
	struct classad_buf b = {0};
	classad_unparse_xml_buf(&b, ad, true);
	assert_string_equal(b.data,
			    "<c><a n=\"l\"><l><i>1</i><i>2</i></l></a></c>");
	free(b.data);
	classad_free(ad);
}

/* The layout the tools print: an attribute a line, 4 spaces a level,
 * a nested ad closing on the line its attribute goes on. */
static void test_layout(void **state)
{
	(void)state;
	char *got = xml_of("[a = 1; n = [b = 2; l = {[c = 3]}]; s = \"x\"]",
			   false);
	assert_string_equal(got, "<c>\n"
				 "    <a n=\"a\"><i>1</i></a>\n"
				 "    <a n=\"n\"><c>\n"
				 "        <a n=\"b\"><i>2</i></a>\n"
				 "        <a n=\"l\"><l><c>\n"
				 "            <a n=\"c\"><i>3</i></a>\n"
				 "        </c></l></a>\n"
				 "    </c></a>\n"
				 "    <a n=\"s\"><s>x</s></a>\n"
				 "</c>\n");
	free(got);
	got = xml_of("[]", false);
	assert_string_equal(got, "<c>\n</c>\n");
	free(got);
	struct classad_buf b = {0};
	classad_xml_header_buf(&b);
	classad_xml_footer_buf(&b);
	assert_string_equal(b.data, "<?xml version=\"1.0\"?>\n"
				    "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n"
				    "<classads>\n"
				    "</classads>\n");
	free(b.data);
}

/* The JSON writer shares the walk: its output is unchanged. */
static void test_json_unchanged(void **state)
{
	(void)state;
	classad *ad = tu_ad("[a = {1, [b = x]}; c = relTime(\"1:00\")]");
	struct classad_buf b = {0};
	classad_unparse_json_buf(&b, ad, true);
	assert_string_equal(b.data, "{\"a\": [1,{\"b\": \"\\/Expr(x)\\/\"}],"
				    "\"c\": 60.0}");
	free(b.data);
	classad_free(ad);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_reals),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_expressions),
		cmocka_unit_test(test_lists_and_ads),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_json_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
