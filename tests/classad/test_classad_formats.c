/*
 * test_classad_formats.c: the ad API and the three text forms: old syntax
 * as condor_q -l prints it, new syntax, and JSON; readers of several ads;
 * the expression cache.
 */
#include "test_util.h"

static char *unparse(const classad *ad, enum classad_format fmt)
{
	return classad_unparse(ad, fmt);
}

static void test_ad_api(void **state)
{
	(void)state;
	classad *ad = classad_new();
	assert_int_equal(classad_insert_int(ad, "Cpus", 4), 0);
	assert_int_equal(classad_insert_string(ad, "Name", "slot1"), 0);
	assert_int_equal(classad_insert_int(ad, "", 1), KS_EINVAL);
	assert_non_null(classad_lookup(ad, "cpus"));
	assert_non_null(classad_lookup(ad, "CPUS"));
	assert_null(classad_lookup(ad, "Cpu"));
	/* Replacing keeps the place and takes the new spelling. */
	assert_int_equal(classad_insert_int(ad, "CPUS", 8), 0);
	char *t = unparse(ad, CLASSAD_FMT_NEW);
	assert_string_equal(t, "[ CPUS = 8; Name = \"slot1\" ]");
	free(t);
	struct ks_err err;
	assert_int_equal(classad_insert_text(ad, "Req", "CPUS > 2 &&", &err),
			 KS_EPARSE);
	assert_int_equal(classad_insert_text(ad, "Req", "CPUS > 2", &err), 0);
	assert_true(classad_delete(ad, "name"));
	assert_false(classad_delete(ad, "name"));
	assert_int_equal(classad_size(ad), 2);
	size_t pos = 0;
	const char *name;
	const char *order[] = {"CPUS", "Req"};
	for (int i = 0; classad_next(ad, &pos, &name, NULL); i++)
		assert_string_equal(name, order[i]);
	classad *c = classad_copy(ad);
	classad_clear(ad);
	assert_int_equal(classad_size(ad), 0);
	assert_int_equal(classad_size(c), 2);
	classad_update(ad, c);
	assert_int_equal(classad_size(ad), 2);
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, "req", NULL, &v);
	assert_string_equal(tu_describe(&v), "boolean true");
	classad_free(c);
	classad_free(ad);
}

/* Many attributes, deleted and added again, keep their lookups right. */
static void test_ad_growth(void **state)
{
	(void)state;
	classad *ad = classad_new();
	char name[32];
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "Attr%d", i);
		assert_int_equal(classad_insert_int(ad, name, i), 0);
	}
	for (int i = 0; i < 3000; i += 2) {
		snprintf(name, sizeof(name), "attr%d", i);
		assert_true(classad_delete(ad, name));
	}
	for (int i = 0; i < 3000; i += 4) {
		snprintf(name, sizeof(name), "ATTR%d", i);
		classad_insert_int(ad, name, -i);
	}
	assert_int_equal(classad_size(ad), 1500 + 750);
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "attr%d", i);
		int64_t x;
		bool there = classad_eval_int(ad, name, NULL, &x);
		if (i % 2)
			assert_true(there && x == i);
		else if (i % 4 == 0)
			assert_true(there && x == -i);
		else
			assert_false(there);
	}
	classad_free(ad);
	/* The attribute limit is an error, not a crash. */
	ad = classad_new();
	int rc = 0, i;
	for (i = 0; i < 70000 && rc == 0; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		rc = classad_insert_bool(ad, name, true);
	}
	assert_int_equal(rc, KS_ERANGE);
	assert_int_equal(i, 65001);
	classad_free(ad);
}

static const char *condor_q_text =
	"# condor_q -l, two jobs\n"
	"MyType = \"Job\"\n"
	"ClusterId = 12\n"
	"Args = \"C:\\dir\\\"\n"
	"Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.Memory >= "
	"RequestMemory)\n"
	"  Weird Name = 1 + 1\n"
	"Trailing = 5 junk ignored\r\n"
	"\n"
	"\n"
	"MyType = \"Job\"\n"
	"ClusterId = 13\n"
	"RemoteWallClockTime = 2.5\n";

static void test_old_syntax(void **state)
{
	(void)state;
	classad_reader *r = classad_reader_new(condor_q_text,
					       strlen(condor_q_text),
					       CLASSAD_FMT_OLD, NULL);
	classad *ad;
	struct ks_err err;
	assert_int_equal(classad_reader_next(r, &ad, &err), 1);
	assert_int_equal(classad_size(ad), 6);
	int64_t i;
	assert_true(classad_eval_int(ad, "ClusterId", NULL, &i) && i == 12);
	assert_true(classad_eval_int(ad, "Weird Name", NULL, &i) && i == 2);
	assert_true(classad_eval_int(ad, "Trailing", NULL, &i) && i == 5);
	char *s;
	assert_true(classad_eval_string(ad, "Args", NULL, &s));
	assert_string_equal(s, "C:\\dir\\");
	free(s);
	char *t = unparse(ad, CLASSAD_FMT_OLD);
	assert_string_equal(
		t, "MyType = \"Job\"\nClusterId = 12\nArgs = \"C:\\dir\\\"\n"
		   "Requirements = (TARGET.Arch == \"X86_64\") && "
		   "(TARGET.Memory >= RequestMemory)\n"
		   "Weird Name = 1 + 1\nTrailing = 5\n");
	free(t);
	t = unparse(ad, CLASSAD_FMT_NEW);
	assert_non_null(strstr(t, "'Weird Name' = 1 + 1"));
	assert_non_null(strstr(t, "Args = \"C:\\\\dir\\\\\""));
	free(t);
	classad_free(ad);
	assert_int_equal(classad_reader_next(r, &ad, &err), 1);
	assert_true(classad_eval_int(ad, "ClusterId", NULL, &i) && i == 13);
	classad_free(ad);
	assert_int_equal(classad_reader_next(r, &ad, &err), 0);
	assert_null(ad);
	classad_reader_free(r);
}

static void test_old_errors(void **state)
{
	(void)state;
	struct ks_err err;
	const char *text = "A = 1\nB = 2\nno equals sign\n";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				  &err));
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 1);
	assert_non_null(strstr(err.msg, "Name = value"));
	text = "A = 1\n\nB = (1 +\n";
	classad_reader *r = classad_reader_new(text, strlen(text),
					       CLASSAD_FMT_OLD, NULL);
	classad *ad;
	assert_int_equal(classad_reader_next(r, &ad, &err), 1);
	classad_free(ad);
	assert_int_equal(classad_reader_next(r, &ad, &err), KS_EPARSE);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.msg, "'B'"));
	classad_reader_free(r);
	text = "A =\n";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				  &err));
	assert_non_null(strstr(err.msg, "no value"));
	text = " = 5\n";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				  &err));
	text = "A = 1\n\nB = 2\n";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				  &err));
	assert_non_null(strstr(err.msg, "more than one ad"));
	assert_int_equal(err.line, 3);
	/* Empty text is an empty ad. */
	ad = classad_parse("", 0, CLASSAD_FMT_OLD, NULL, &err);
	assert_non_null(ad);
	assert_int_equal(classad_size(ad), 0);
	classad_free(ad);
}

static void test_new_syntax(void **state)
{
	(void)state;
	const char *text = "[ a = 1 ]\n// comment\n[ b = 2; c = [d = 3] ]\n"
			   "/* more */ [ ]";
	classad_reader *r = classad_reader_new(text, strlen(text),
					       CLASSAD_FMT_NEW, NULL);
	classad *ad;
	struct ks_err err;
	int sizes[] = {1, 2, 0};
	for (int k = 0; k < 3; k++) {
		assert_int_equal(classad_reader_next(r, &ad, &err), 1);
		assert_int_equal(classad_size(ad), sizes[k]);
		classad_free(ad);
	}
	assert_int_equal(classad_reader_next(r, &ad, &err), 0);
	classad_reader_free(r);
	text = "[ a = 1 ]\n[ b = 2;\n  c = ]\n";
	r = classad_reader_new(text, strlen(text), CLASSAD_FMT_NEW, NULL);
	assert_int_equal(classad_reader_next(r, &ad, &err), 1);
	classad_free(ad);
	assert_int_equal(classad_reader_next(r, &ad, &err), KS_EPARSE);
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 7);
	classad_reader_free(r);
	text = "[ a = 1 ] trailing";
	assert_null(classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				  &err));
	assert_null(classad_parse("", 0, CLASSAD_FMT_NEW, NULL, &err));
}

static void test_json(void **state)
{
	(void)state;
	classad *ad = tu_ad("[a = 1; b = \"x\\ny\"; c = a + 1; d = undefined; "
			    "e = {1, 2.5}; f = [g = true]; h = error; "
			    "i = real(\"INF\"); j = absTime(\"2004-01-01T00:00:00Z\"); "
			    "k = relTime(\"1:00\")]");
	struct classad_buf b = {0};
	classad_unparse_json_buf(&b, ad, true);
	assert_string_equal(
		b.data,
		"{\"a\": 1,\"b\": \"x\\ny\",\"c\": \"\\/Expr(a + 1)\\/\","
		"\"d\": null,\"e\": [1,2.5],\"f\": {\"g\": true},"
		"\"h\": \"\\/Expr(error)\\/\","
		"\"i\": \"\\/Expr(real(\\\"INF\\\"))\\/\","
		"\"j\": \"\\/Expr(absTime(\\\"2004-01-01T00:00:00-00:00\\\"))\\/\","
		"\"k\": 60.0}");
	free(b.data);
	classad *small = tu_ad("[a = 1; l = {}]");
	char *t = unparse(small, CLASSAD_FMT_JSON);
	assert_string_equal(t, "{\n  \"a\": 1,\n  \"l\": [\n  ]\n}");
	free(t);
	classad_free(small);
	/* Reading it back gives the same ad (k is now a real). */
	t = unparse(ad, CLASSAD_FMT_JSON);
	struct ks_err err;
	classad *back = classad_parse(t, strlen(t), CLASSAD_FMT_JSON, NULL,
				      &err);
	assert_non_null(back);
	assert_int_equal(classad_size(back), classad_size(ad));
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		if (strcmp(name, "k") == 0)
			continue;
		assert_true(classad_expr_same(e, classad_lookup(back, name)));
	}
	free(t);
	classad_free(back);
	classad_free(ad);

	const char *arr = " [ {\"A\": 1}, {\"B\": \"\\u00e9\"},\n{} ] ";
	classad_reader *r = classad_reader_new(arr, strlen(arr),
					       CLASSAD_FMT_JSON, NULL);
	int n = 0;
	while (classad_reader_next(r, &ad, &err) == 1) {
		n++;
		classad_free(ad);
	}
	assert_int_equal(n, 3);
	classad_reader_free(r);
	const char *bad[] = {"{\"a\": [1,]}", "{a: 1}", "{\"a\" 1}",
			     "{\"a\": \"\\/Expr(1 +)\\/\"}", "{\"a\": error}",
			     "[ {\"a\": 1}"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = classad_reader_new(bad[i], strlen(bad[i]), CLASSAD_FMT_JSON,
				       NULL);
		int rc;
		while ((rc = classad_reader_next(r, &ad, &err)) == 1)
			classad_free(ad);
		assert_int_equal(rc, KS_EPARSE);
		classad_reader_free(r);
	}
	ad = classad_parse("{\"a\": 1,}", 9, CLASSAD_FMT_JSON, NULL, &err);
	assert_non_null(ad); /* HTCondor accepts a trailing comma here */
	classad_free(ad);
}

/* parse(unparse(x)) == x for every form. */
static void test_roundtrip_forms(void **state)
{
	(void)state;
	classad *ad = tu_ad(
		"[ a = 1; b = -2.5e-300; c = \"q\\\"uote\"; d = {1, \"x\", {}}; "
		"e = [f = undefined; g = error]; h = a =?= b; i = !true; "
		"j = x ?: 3; k = 0.1 + 0.2; l = TARGET.x >= MY.y; "
		"m = strcat(\"a\\\\b\", 'name with space'); n = - 5 ]");
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_OLD, CLASSAD_FMT_JSON};
	for (int f = 0; f < 3; f++) {
		char *t = unparse(ad, fmts[f]);
		struct ks_err err;
		classad *back = classad_parse(t, strlen(t), fmts[f], NULL, &err);
		if (!back)
			fail_msg("form %d does not read back: %s\n%s", f, err.msg,
				 t);
		size_t pos = 0;
		const char *name;
		const classad_expr *e;
		while (classad_next(ad, &pos, &name, &e))
			if (!classad_expr_same(e, classad_lookup(back, name)))
				fail_msg("form %d: %s differs\n%s", f, name, t);
		assert_int_equal(classad_size(back), classad_size(ad));
		classad_free(back);
		free(t);
	}
	classad_free(ad);
}

static void test_cache(void **state)
{
	(void)state;
	classad_cache *cache = classad_cache_new();
	const char *t1 = "Requirements = TARGET.Memory > 1024\nCpus = 4\n"
			 "Name = \"slot1@host.cs.example.org\"\n";
	const char *t2 = "Requirements = TARGET.Memory > 1024\nCpus = 8\n"
			 "Name = \"slot2@host.cs.example.org\"\n";
	struct ks_err err;
	classad *a = classad_parse(t1, strlen(t1), CLASSAD_FMT_OLD, cache, &err);
	classad *b = classad_parse(t2, strlen(t2), CLASSAD_FMT_OLD, cache, &err);
	assert_ptr_equal(classad_lookup(a, "Requirements"),
			 classad_lookup(b, "Requirements"));
	assert_ptr_not_equal(classad_lookup(a, "Cpus"),
			     classad_lookup(b, "Cpus"));
	int64_t i;
	assert_true(classad_eval_int(b, "Cpus", NULL, &i) && i == 8);
	classad_free(a);
	/* what only a used: its Cpus and its Name */
	assert_int_equal(classad_cache_purge(cache), 2);
	classad_free(b);
	assert_true(classad_cache_purge(cache) >= 1);
	/* Ads outlive their cache. */
	b = classad_parse(t2, strlen(t2), CLASSAD_FMT_OLD, cache, &err);
	classad_cache_free(cache);
	assert_true(classad_eval_int(b, "Cpus", NULL, &i) && i == 8);
	classad_free(b);
}

/* condor_submit's expressions: the same new-syntax text gives the same
 * expression; new-syntax escapes are kept; errors are errors; without a
 * cache, a plain parse. */
static void test_cache_exprs(void **state)
{
	(void)state;
	classad_cache *cache = classad_cache_new();
	const char *req = "(TARGET.Memory >= RequestMemory) && (Foo == \"a\\tb\")";
	struct ks_err err;
	classad_expr *a = classad_parse_expr_cached(cache, req, strlen(req), &err);
	classad_expr *b = classad_parse_expr_cached(cache, req, strlen(req), &err);
	assert_non_null(a);
	assert_ptr_equal(a, b);
	classad_expr *c = classad_parse_expr_cached(cache, "1 + 2", 5, &err);
	assert_ptr_not_equal(a, c);
	assert_null(classad_parse_expr_cached(cache, "1 +", 3, &err));
	assert_int_equal(err.code, KS_EPARSE);
	classad *ad = classad_new();
	const char *foo = "\"a\\tb\"", *same = "Foo == \"a\\tb\"";
	classad_insert(ad, "Foo", classad_parse_expr(foo, strlen(foo), NULL));
	classad_insert(ad, "X", c);
	int64_t i;
	assert_true(classad_eval_int(ad, "X", NULL, &i) && i == 3);
	/* the string holds a tab, as a new-syntax parse makes it */
	classad_insert(ad, "Same",
		       classad_parse_expr_cached(cache, same, strlen(same), &err));
	bool yes = false;
	assert_true(classad_eval_bool(ad, "Same", NULL, &yes) && yes);
	classad_expr_free(a);
	classad_expr_free(b);
	/* expressions outlive their cache */
	classad_expr *d = classad_parse_expr_cached(cache, "2 * 21", 6, &err);
	classad_cache_free(cache);
	classad_insert(ad, "Y", d);
	assert_true(classad_eval_int(ad, "Y", NULL, &i) && i == 42);
	classad_expr *e = classad_parse_expr_cached(NULL, "7", 1, &err);
	assert_non_null(e);
	classad_expr_free(e);
	classad_free(ad);
}

/* Ads parsed through one cache and kept, as a collector keeps them. */
static classad *parse_kept(classad_cache *cache, const char *name)
{
	char text[256];
	snprintf(text, sizeof(text),
		 "Name = \"%s\"\nOpSys = \"LINUX\"\n"
		 "Start = KeyboardIdle > 15 * 60\n", name);
	struct ks_err err;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, cache,
				    &err);
	assert_non_null(ad);
	return ad;
}

/* A name whose values each ad has to itself stops being cached; one that
 * ads share stays cached; a purge judges them again. */
static void test_cache_unshared(void **state)
{
	(void)state;
	classad_cache *cache = classad_cache_new();
	enum { N = 300 };
	classad *ads[N];
	char name[64];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "slot1@host%d.example.org", i);
		ads[i] = parse_kept(cache, name);
	}
	classad *x = parse_kept(cache, "slot1@same.example.org");
	classad *y = parse_kept(cache, "slot1@same.example.org");
	assert_ptr_not_equal(classad_lookup(x, "Name"),
			     classad_lookup(y, "Name"));
	assert_ptr_equal(classad_lookup(x, "OpSys"), classad_lookup(y, "OpSys"));
	assert_ptr_equal(classad_lookup(x, "Start"), classad_lookup(y, "Start"));
	assert_ptr_equal(classad_lookup(x, "OpSys"),
			 classad_lookup(ads[0], "OpSys"));
	classad_cache_purge(cache);
	classad *z = parse_kept(cache, "slot1@other.example.org");
	classad *w = parse_kept(cache, "slot1@other.example.org");
	assert_ptr_equal(classad_lookup(z, "Name"), classad_lookup(w, "Name"));
	char *s = NULL;
	assert_true(classad_eval_string(y, "Name", NULL, &s));
	assert_string_equal(s, "slot1@same.example.org");
	free(s);
	classad_free(x);
	classad_free(y);
	classad_free(z);
	classad_free(w);
	for (int i = 0; i < N; i++)
		classad_free(ads[i]);

	/* A tool reading ads one at a time and letting each go: what repeats
	 * is still found in the cache. */
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "slot1@host%d.example.org", i);
		classad_free(parse_kept(cache, name));
	}
	x = parse_kept(cache, "a");
	y = parse_kept(cache, "b");
	assert_ptr_equal(classad_lookup(x, "OpSys"), classad_lookup(y, "OpSys"));
	assert_ptr_equal(classad_lookup(x, "Start"), classad_lookup(y, "Start"));
	classad_free(x);
	classad_free(y);
	classad_cache_free(cache);
}

/* A text over 1 MiB is parsed each time and never kept: once the last ad
 * holding it has gone, nothing is left for a purge to drop, and two ads
 * with the same large value each have their own. */
static void test_cache_large(void **state)
{
	(void)state;
	enum { BIG = (1 << 20) + 16 };
	char *text = malloc(BIG + 64);
	assert_non_null(text);
	const char *forms[] = {
		"Big = \"%s\"\n",                 /* a literal */
		"Big = strcat(\"%s\", \"y\")\n", /* a line */
	};
	struct ks_err err;
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		classad_cache *cache = classad_cache_new();
		char *x = malloc(BIG + 1);
		memset(x, 'x', BIG);
		x[BIG] = '\0';
		int n = snprintf(text, BIG + 64, forms[f], x);
		free(x);
		classad *a = classad_parse(text, (size_t)n, CLASSAD_FMT_OLD,
					   cache, &err);
		classad *b = classad_parse(text, (size_t)n, CLASSAD_FMT_OLD,
					   cache, &err);
		assert_non_null(a);
		assert_non_null(b);
		assert_ptr_not_equal(classad_lookup(a, "Big"),
				     classad_lookup(b, "Big"));
		char *s = NULL;
		assert_true(classad_eval_string(a, "Big", NULL, &s));
		assert_int_equal(strlen(s), BIG + (f ? 1 : 0));
		free(s);
		classad_free(a);
		classad_free(b);
		assert_int_equal(classad_cache_purge(cache), 0);
		/* as condor_submit parses its expressions */
		n = snprintf(text, BIG + 64, "size(\"%0*d\")", BIG, 0);
		classad_expr *e = classad_parse_expr_cached(cache, text,
							    (size_t)n, &err);
		classad_expr *g = classad_parse_expr_cached(cache, text,
							    (size_t)n, &err);
		assert_non_null(e);
		assert_ptr_not_equal(e, g);
		classad_expr_free(e);
		classad_expr_free(g);
		assert_int_equal(classad_cache_purge(cache), 0);
		classad_cache_free(cache);
	}
	free(text);
}

/* The one text buffer: zeroed is empty, every append keeps it
 * NUL-terminated, and it grows past any first guess. */
static void test_buf(void **state)
{
	(void)state;
	struct classad_buf b = {0};
	classad_buf_puts(&b, "ab");
	classad_buf_putc(&b, 'c');
	classad_buf_add(&b, "dxx", 1);
	classad_buf_printf(&b, "%d", 42);
	assert_string_equal(b.data, "abcd42");
	assert_int_equal(b.len, 6);
	for (int i = 0; i < 1000; i++)
		classad_buf_putc(&b, 'z');
	assert_int_equal(b.len, 1006);
	assert_int_equal(strlen(b.data), 1006);
	assert_true(b.cap > b.len);
	free(b.data);
	struct classad_buf e = {0};
	classad_buf_puts(&e, "");
	assert_non_null(e.data);
	assert_string_equal(e.data, "");
	free(e.data);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ad_api),
		cmocka_unit_test(test_ad_growth),
		cmocka_unit_test(test_old_syntax),
		cmocka_unit_test(test_old_errors),
		cmocka_unit_test(test_new_syntax),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_roundtrip_forms),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_unshared),
		cmocka_unit_test(test_cache_exprs),
		cmocka_unit_test(test_cache_large),
		cmocka_unit_test(test_buf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
