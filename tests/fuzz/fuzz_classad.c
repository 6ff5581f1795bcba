/*
 * fuzz_classad.c: a libFuzzer target for the ClassAd parser, unparser,
 * evaluator, readers and matchmaking (libclassad's public API only).
 *
 * The first byte of the input selects a mode; the rest is the text:
 *
 *   'e'  an expression (new syntax): parse, unparse (new and old), re-parse
 *        both unparses and check that they are the same expression; then
 *        evaluate it against a fixed ad and in a match with a second one.
 *   'o'  the same for an old-syntax expression (classad_parse_expr_old).
 *   'a'  an ad, parsed as new syntax, old syntax and JSON (each with and
 *        without a classad_cache): unparse it in all three forms, re-parse
 *        each and check that nothing was lost; check that its XML (which
 *        nothing reads back) is well formed in both layouts; evaluate its
 *        attributes.
 *   'r'  a sequence of ads through classad_reader_* in each format.
 *   'm'  two ads (the text split at the first NUL or newline) as a match:
 *        symmetric match, ranks, evaluations from both sides.
 *
 * Any other first byte selects one of these by its value modulo 5, so
 * that mutations of the first byte reach every mode.
 *
 * A check that fails prints what it saw and calls abort(): a round trip
 * that changes an expression is a bug of the library.  The round-trip
 * exemptions below are the documented, expected losses of the text forms,
 * and nothing else:
 *   - reals that are NaN or infinite unparse as real("NaN") and the like,
 *     which read back as calls, not literals: such expressions are
 *     compared by unparsing them again;
 *   - the old syntax is line based and escapes nothing but quotes: ads
 *     with strings holding '\n' or '\r', attribute names that are not
 *     plain identifiers, strings ending in a backslash and strings with
 *     a '"' just before a newline (old syntax cannot tell those from an
 *     escaped quote) are not round-tripped through it;
 *   - absolute times of years before 0 or after 9999 (see
 *     known_issue()).
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Evaluations of one input are bounded: the library allows 10 million
 * steps per evaluation, so the harness evaluates a limited number of
 * attributes and stops evaluating after the first evaluation that hits a
 * hard limit (KS_EEVAL). */
#define MAX_EVALS_PER_AD 16
#define MAX_READER_ADS 32
#define MAX_LIST_ITEMS 8

/* ---- fixed state ------------------------------------------------------ */

static classad *g_ad;     /* the MY ad of evaluations */
static classad *g_target; /* the TARGET of match evaluations */
static classad_env *g_env;

static bool usermap(void *arg, const char *map_name, const char *input,
		    char **output)
{
	(void)arg;
	if (strcmp(map_name, "groups") != 0 || strcmp(input, "alice") != 0)
		return false;
	*output = strdup("physics,chemistry");
	return *output != NULL;
}

static void debug_sink(void *arg, const char *line)
{
	(void)arg;
	(void)line;
}

static classad *fixed_ad(const char *text)
{
	struct ks_err err;
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad) {
		fprintf(stderr, "fuzz_classad: fixed ad: %s\n", err.msg);
		abort();
	}
	return ad;
}

static void init_once(void)
{
	if (g_ad)
		return;
	g_ad = fixed_ad(
		"[ Cpus = 4; Memory = 8192; Name = \"slot1@x\"; "
		"L = {1, 2, \"a\"}; Nested = [ a = 1; b = a + 1 ]; "
		"Arch = \"X86_64\"; OpSys = \"LINUX\"; Disk = 100000; "
		"Requirements = TARGET.RequestCpus <= MY.Cpus; "
		"Rank = TARGET.RequestMemory; "
		"Start = true; LoadAvg = 0.25; Owner = undefined ]");
	g_target = fixed_ad(
		"[ RequestCpus = 2; RequestMemory = 1024; Owner = \"alice\"; "
		"Cmd = \"/bin/sleep\"; Args = \"60\"; ClusterId = 7; "
		"ProcId = 0; JobPrio = -1; "
		"Requirements = TARGET.Cpus >= MY.RequestCpus && "
		"TARGET.Memory >= RequestMemory; "
		"Rank = TARGET.Memory / 1024.0; "
		"Groups = {\"a\", \"b\"}; Sub = [ x = 1; y = { 2, 3 } ] ]");
	g_env = classad_env_new();
	classad_env_set_usermap(g_env, usermap, NULL);
	classad_env_set_debug(g_env, debug_sink, NULL);
}

/* ---- diagnostics -------------------------------------------------------- */

static const uint8_t *g_input;
static size_t g_input_len;

static void print_c_string(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 32 || c >= 127)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void fail(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "\n==== fuzz_classad: CHECK FAILED: %s\n", what);
	fprintf(stderr, "input (%zu bytes): ", g_input_len);
	print_c_string(stderr, (const char *)g_input, g_input_len);
	fputc('\n', stderr);
	if (a) {
		fputs("first:  ", stderr);
		print_c_string(stderr, a, strlen(a));
		fputc('\n', stderr);
	}
	if (b) {
		fputs("second: ", stderr);
		print_c_string(stderr, b, strlen(b));
		fputc('\n', stderr);
	}
	abort();
}

/* ---- what unparsed text holds ----------------------------------------- */

/*
 * Facts about an expression or ad, read from its new-syntax unparse (the
 * one text form that escapes everything, so that string literals and
 * quoted names can be found and decoded with a simple scan).
 */
struct facts {
	bool nonfinite;   /* real("NaN"), real("INF"), real("-INF") */
	bool str_newline; /* a string literal holding '\n' or '\r' */
	bool str_bslash_end; /* a string literal ending in a backslash */
	bool str_quote_nl; /* a string literal with '"' before a newline */
	bool quoted_name; /* a name that is not a plain identifier */
	bool abstime_year; /* an absTime("...") of a year outside 0..9999 */
};

static int odigit(int c)
{
	return c >= '0' && c <= '7';
}

/* Scans a quoted literal starting at s[i] (the opening delimiter); returns
 * the index after the closing one and notes what the decoded text holds. */
static size_t scan_quoted(const char *s, size_t n, size_t i, struct facts *f)
{
	char delim = s[i++];
	char prev = 0;
	bool any = false;
	while (i < n && s[i] != delim) {
		char c = s[i++];
		if (c == '\\' && i < n) {
			char e = s[i++];
			switch (e) {
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 'a': case 'b': case 'f': case 't': case 'v':
				c = 1;
				break;
			default:
				if (odigit((unsigned char)e)) {
					unsigned v = (unsigned)(e - '0');
					for (int k = 0; k < 2 && i < n &&
							odigit((unsigned char)s[i]);
					     k++)
						v = v * 8 + (unsigned)(s[i++] - '0');
					c = (char)v;
				} else {
					c = e;
				}
			}
		}
		if (delim == '"' && (c == '\n' || c == '\r'))
			f->str_newline = true;
		if (delim == '"' && c == '\n' && prev == '"')
			f->str_quote_nl = true;
		prev = c;
		any = true;
	}
	if (delim == '"' && any && prev == '\\')
		f->str_bslash_end = true;
	return i < n ? i + 1 : n;
}

static bool starts(const char *s, size_t n, size_t i, const char *w)
{
	size_t k = strlen(w);
	return i + k <= n && memcmp(s + i, w, k) == 0;
}

static void scan_facts(const char *s, struct facts *f)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		if (starts(s, n, i, "real(\"NaN\")") ||
		    starts(s, n, i, "real(\"INF\")") ||
		    starts(s, n, i, "real(\"-INF\")"))
			f->nonfinite = true;
		if (starts(s, n, i, "absTime(\"")) {
			size_t k = i + 9, d = 0;
			while (k + d < n && s[k + d] >= '0' && s[k + d] <= '9')
				d++;
			if (d != 4) /* "-42-..." or "12345-..." */
				f->abstime_year = true;
		}
		if (s[i] == '"') {
			i = scan_quoted(s, n, i, f);
		} else if (s[i] == '\'') {
			f->quoted_name = true;
			i = scan_quoted(s, n, i, f);
		} else {
			i++;
		}
	}
}

/* May a and b (re-parsed from a's unparse) differ and be compared by their
 * unparsed text instead?  Only for real("NaN") and the like. */
static bool text_compare_ok(const struct facts *f)
{
	return f->nonfinite;
}

/* The one text form that cannot read back: absTime literals of years
 * before 0 or after 9999 print as HTCondor prints them ("-42-01-01...",
 * "12345-01-01..."), which its reader, and so ours, takes differently. */
static bool known_issue(const struct facts *f)
{
	return f->abstime_year;
}

/* ---- values --------------------------------------------------------------- */

static void touch_value(const classad_value *v, int depth)
{
	char *s = classad_value_unparse(v, false);
	free(s);
	s = classad_value_unparse(v, true);
	free(s);
	(void)classad_type_name(v->type);
	size_t len;
	const char *str = classad_value_str(v, &len);
	if (str && strlen(str) != len)
		fail("a string value holds a NUL byte", str, NULL);
	if (depth > 2)
		return;
	size_t n = classad_value_list_size(v);
	for (size_t i = 0; i < n && i < MAX_LIST_ITEMS; i++) {
		classad_value item = CLASSAD_VALUE_INIT;
		int rc = classad_value_list_get(v, i, g_env, &item);
		if (rc == 0)
			touch_value(&item, depth + 1);
		classad_value_clear(&item);
		if (rc == KS_EEVAL)
			break;
	}
	classad_value item = CLASSAD_VALUE_INIT;
	if (n > 0 && classad_value_list_get(v, n, g_env, &item) != KS_ERANGE)
		fail("list_get past the end is not KS_ERANGE", NULL, NULL);
	classad_value_clear(&item);
	const classad *ad = classad_value_ad(v);
	if (ad) {
		s = classad_unparse(ad, CLASSAD_FMT_NEW);
		free(s);
		(void)classad_size(ad);
	}
	classad_value copy = CLASSAD_VALUE_INIT;
	classad_value_copy(&copy, v);
	classad_value_clear(&copy);
}

/* Evaluates e against the fixed ads; false if an evaluation hit a hard
 * limit (then the caller evaluates no more). */
static bool eval_expr(const classad_expr *e)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = classad_eval_expr(g_ad, e, NULL, &v);
	touch_value(&v, 0);
	classad_value_clear(&v);
	if (rc == KS_EEVAL)
		return false;
	rc = classad_eval_expr_in_match(g_target, g_ad, e, g_env, &v);
	touch_value(&v, 0);
	classad_value_clear(&v);
	return rc != KS_EEVAL;
}

/* ---- expressions -------------------------------------------------------- */

/* b was parsed from text, an unparse of a: it must be the same expression
 * (or, where text_compare_ok, unparse to the same text again).  f holds the
 * facts of a's new-syntax unparse. */
static void check_same(const classad_expr *a, const classad_expr *b,
		       const char *text, bool old, const struct facts *f,
		       const char *what)
{
	if (classad_expr_same(a, b))
		return;
	char *again = classad_expr_unparse(b, old);
	if ((text_compare_ok(f) && strcmp(again, text) == 0) ||
	    known_issue(f)) {
		free(again);
		return;
	}
	fail(what, text, again);
}

static void fuzz_expr(const char *text, size_t len, bool old_input)
{
	struct ks_err err;
	classad_expr *e = old_input ? classad_parse_expr_old(text, len, &err)
				    : classad_parse_expr(text, len, &err);
	if (!e)
		return;

	/* New syntax: must always read back as the same expression. */
	char *nu = classad_expr_unparse(e, false);
	struct facts f = {0};
	scan_facts(nu, &f);
	classad_expr *e2 = classad_parse_expr(nu, strlen(nu), &err);
	/* (a relative time past 32 bits comes out as HTCondor writes it,
	 * wrapped, with negative parts: "-24855+-3:-14:-8" reads as no time,
	 * in HTCondor too) */
	bool reltime_wrapped = strstr(nu, "relTime(\"") && strstr(nu, "+-");
	if (!e2 && !known_issue(&f) && !reltime_wrapped)
		fail("the new-syntax unparse does not parse", nu, err.msg);
	if (e2) {
		check_same(e, e2, nu, false, &f,
			   "new-syntax unparse/parse round trip");
		char *nu2 = classad_expr_unparse(e2, false);
		if (strcmp(nu, nu2) != 0 && !known_issue(&f))
			fail("new-syntax unparse is not a fixed point", nu,
			     nu2);
		free(nu2);
		classad_expr_free(e2);
	}

	/* Old syntax: the same, but for what old syntax cannot write. */
	char *ol = classad_expr_unparse(e, true);
	if (!f.str_bslash_end && !f.str_quote_nl && !f.quoted_name) {
		classad_expr *e3 = classad_parse_expr_old(ol, strlen(ol), &err);
		if (!e3 && !known_issue(&f))
			fail("the old-syntax unparse does not parse", ol,
			     err.msg);
		if (e3)
			check_same(e, e3, ol, true, &f,
				   "old-syntax unparse/parse round trip");
		classad_expr_free(e3);
	}

	/* The buffer forms append to what is there. */
	struct classad_buf b = {0};
	classad_expr_unparse_buf(&b, e, false);
	classad_expr_unparse_buf(&b, e, true);
	classad_quote_string_buf(&b, text, len);
	free(b.data);

	/* A literal's value makes a literal of the same value (a relTime
	 * literal's value is a real, so the expressions may differ). */
	classad_value lit = CLASSAD_VALUE_INIT, lit2 = CLASSAD_VALUE_INIT;
	if (classad_expr_is_literal(e, &lit)) {
		classad_expr *l = classad_expr_literal(&lit);
		if (!classad_expr_is_literal(l, &lit2))
			fail("classad_expr_literal is not a literal", nu, NULL);
		char *x = classad_value_unparse(&lit, false);
		char *y = classad_value_unparse(&lit2, false);
		if (strcmp(x, y) != 0)
			fail("a literal copied is not the same", x, y);
		free(x);
		free(y);
		classad_expr_free(l);
	}
	classad_value_clear(&lit);
	classad_value_clear(&lit2);

	eval_expr(e);

	/* An ad holding e, evaluated by name. */
	classad *ad = classad_copy(g_ad);
	classad_insert(ad, "FuzzExpr", classad_expr_ref(e));
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, "FuzzExpr", g_env, &v);
	touch_value(&v, 0);
	classad_value_clear(&v);
	classad_free(ad);

	free(nu);
	free(ol);
	classad_expr_free(e);
}

/* ---- ads ---------------------------------------------------------------- */

static const char *fmt_name(enum classad_format fmt)
{
	return fmt == CLASSAD_FMT_NEW ? "new" : fmt == CLASSAD_FMT_OLD ? "old"
									: "json";
}

/* Facts about all of an ad's attributes and names. */
static void ad_facts(const classad *ad, struct facts *f)
{
	char *nu = classad_unparse(ad, CLASSAD_FMT_NEW);
	scan_facts(nu, f);
	free(nu);
}

/* Every attribute of a is in b, the same (or, where that is allowed, the
 * same when unparsed), and they have as many attributes. */
static void check_ads_same(const classad *a, const classad *b, bool exprs,
			   const char *text, const char *what)
{
	char msg[160];
	if (classad_size(a) != classad_size(b)) {
		snprintf(msg, sizeof(msg), "%s: %zu attributes became %zu",
			 what, classad_size(a), classad_size(b));
		fail(msg, text, NULL);
	}
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(a, &pos, &name, &e)) {
		const classad_expr *o = classad_lookup(b, name);
		if (!o) {
			snprintf(msg, sizeof(msg), "%s: attribute '%.40s' lost",
				 what, name);
			fail(msg, text, NULL);
		}
		if (!exprs || classad_expr_same(e, o))
			continue;
		char *x = classad_expr_unparse(e, false);
		char *y = classad_expr_unparse(o, false);
		struct facts f = {0};
		scan_facts(x, &f);
		if (!(text_compare_ok(&f) && strcmp(x, y) == 0) &&
		    !known_issue(&f)) {
			snprintf(msg, sizeof(msg),
				 "%s: attribute '%.40s' changed", what, name);
			fail(msg, x, y);
		}
		free(x);
		free(y);
	}
}

static bool eval_attrs(const classad *ad)
{
	size_t pos = 0;
	const char *name;
	int n = 0;
	while (classad_next(ad, &pos, &name, NULL) && n++ < MAX_EVALS_PER_AD) {
		classad_value v = CLASSAD_VALUE_INIT;
		int rc = classad_eval_attr(ad, name, g_env, &v);
		touch_value(&v, 0);
		classad_value_clear(&v);
		if (rc == KS_EEVAL)
			return false;
	}
	return true;
}

/* An entity at p, as the XML unparser writes them: its length, or 0. */
static size_t xml_entity(const char *p)
{
	static const char *const ents[] = {"&amp;", "&lt;", "&gt;"};
	for (int i = 0; i < 3; i++)
		if (strncmp(p, ents[i], strlen(ents[i])) == 0)
			return strlen(ents[i]);
	return 0;
}

/* x, the XML of an ad, must be well formed: one <c> element, tags that
 * nest and close, '&' only in entities, no '<' or '>' in text or in the
 * n="..." of a name (where HTCondor's own \" stands for a quote). */
static void check_xml_well_formed(const char *x)
{
	size_t len = strlen(x), depth = 0;
	const char **open = malloc((len / 3 + 1) * sizeof *open);
	size_t *open_len = malloc((len / 3 + 1) * sizeof *open_len);
	if (!open || !open_len)
		abort();
	if (strncmp(x, "<c>", 3) != 0)
		fail("the XML of an ad does not start with <c>", x, NULL);
	for (const char *p = x; *p;) {
		if (*p == '&') {
			size_t n = xml_entity(p);
			if (!n)
				fail("the XML of an ad has a bare '&'", x, p);
			p += n;
			continue;
		}
		if (*p == '>')
			fail("the XML of an ad has a bare '>'", x, p);
		if (*p != '<') {
			p++;
			continue;
		}
		bool end = p[1] == '/';
		const char *name = p + 1 + end;
		size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz");
		const char *q = name + n;
		if (n == 0)
			fail("the XML of an ad has a '<' that starts no tag", x, p);
		if (*q == ' ' && !end) {
			q++;
			q += strspn(q, "abcdefghijklmnopqrstuvwxyz");
			if (q[0] != '=' || q[1] != '"')
				fail("the XML of an ad has a bad tag attribute", x, p);
			for (q += 2; *q && *q != '"'; q++) {
				if (*q == '<' || *q == '>')
					fail("the XML of an ad has markup in a tag "
					     "attribute", x, p);
				if (*q == '\\' && q[1])
					q++;
			}
			if (*q++ != '"')
				fail("the XML of an ad has an unended tag attribute",
				     x, p);
		}
		bool empty = *q == '/';
		q += empty;
		if (*q != '>')
			fail("the XML of an ad has an unended tag", x, p);
		if (end) {
			if (empty || depth == 0 || open_len[depth - 1] != n ||
			    strncmp(open[depth - 1], name, n) != 0)
				fail("the XML of an ad closes a tag it did not "
				     "open", x, p);
			depth--;
			if (depth == 0 && q[1] != '\0' &&
			    strcmp(q + 1, "\n") != 0)
				fail("the XML of an ad goes on after its </c>", x,
				     q + 1);
		} else if (!empty) {
			open[depth] = name;
			open_len[depth++] = n;
		}
		p = q + 1;
	}
	if (depth)
		fail("the XML of an ad leaves a tag open", x, NULL);
	free(open);
	free(open_len);
}

/* Both XML layouts are well formed, and the tools' layout is the compact
 * one with its line breaks and indentation added (strings hold no raw
 * newline). */
static void check_xml(const classad *ad)
{
	struct classad_buf c = {0}, l = {0};
	classad_unparse_xml_buf(&c, ad, true);
	classad_unparse_xml_buf(&l, ad, false);
	check_xml_well_formed(c.data);
	check_xml_well_formed(l.data);
	size_t k = 0;
	for (size_t i = 0; i < l.len; i++) {
		if (l.data[i] == '\n') {
			while (i + 1 < l.len && l.data[i + 1] == ' ')
				i++;
			continue;
		}
		l.data[k++] = l.data[i];
	}
	l.data[k] = '\0';
	if (strcmp(c.data, l.data) != 0)
		fail("the XML layouts of an ad differ in more than layout",
		     c.data, l.data);
	free(c.data);
	free(l.data);
}

/* Unparses ad in each form and re-parses it. */
static void round_trip_ad(const classad *ad)
{
	struct facts f = {0};
	ad_facts(ad, &f);
	check_xml(ad);
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_OLD, CLASSAD_FMT_JSON};
	for (int i = 0; i < 3; i++) {
		enum classad_format fmt = fmts[i];
		if (fmt == CLASSAD_FMT_OLD &&
		    (f.str_newline || f.quoted_name || f.str_bslash_end))
			continue;
		char *t = classad_unparse(ad, fmt);
		struct ks_err err;
		classad *back = classad_parse(t, strlen(t), fmt, NULL, &err);
		if (!back && known_issue(&f)) {
			free(t);
			continue;
		}
		if (!back) {
			char msg[320];
			snprintf(msg, sizeof(msg),
				 "the %s unparse of an ad does not parse: %s",
				 fmt_name(fmt), err.msg);
			fail(msg, t, NULL);
		}
		char what[64];
		snprintf(what, sizeof(what), "%s unparse/parse of an ad",
			 fmt_name(fmt));
		/* JSON writes relTime literals as plain reals and some
		 * expressions differently: count and names only. */
		check_ads_same(ad, back, fmt != CLASSAD_FMT_JSON, t, what);
		if (fmt == CLASSAD_FMT_JSON) {
			/* ... but its text must be a fixed point. */
			char *t2 = classad_unparse(back, fmt);
			if (strcmp(t, t2) != 0 && !known_issue(&f))
				fail("the JSON unparse is not a fixed point",
				     t, t2);
			free(t2);
		}
		classad_free(back);
		free(t);
	}
	/* One-line JSON reads back too. */
	struct classad_buf b = {0};
	classad_unparse_json_buf(&b, ad, true);
	if (b.data) {
		struct ks_err err;
		classad *back = classad_parse(b.data, b.len, CLASSAD_FMT_JSON,
					      NULL, &err);
		if (!back && !known_issue(&f))
			fail("one-line JSON does not parse", b.data, err.msg);
		if (back)
			check_ads_same(ad, back, false, b.data, "one-line JSON");
		classad_free(back);
	}
	free(b.data);
}

/* The other API on a copy of ad: chaining, update, delete, conversions. */
static bool exercise_copy(const classad *ad)
{
	classad *c = classad_copy(ad);
	classad_chain(c, g_ad);
	if (classad_chained_parent(c) != g_ad)
		fail("classad_chain did not chain", NULL, NULL);
	bool ok = true;
	static const char *const names[] = {"Cpus", "Name", "Requirements",
					    "Rank", "a"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && ok; i++) {
		int64_t iv;
		double rv;
		bool bv;
		char *sv = NULL;
		(void)classad_eval_int(c, names[i], g_env, &iv);
		(void)classad_eval_real(c, names[i], g_env, &rv);
		(void)classad_eval_bool(c, names[i], g_env, &bv);
		if (classad_eval_string(c, names[i], g_env, &sv))
			free(sv);
		(void)classad_lookup(c, names[i]);
	}
	size_t pos = 0;
	const char *name;
	if (classad_next(ad, &pos, &name, NULL)) {
		size_t before = classad_size(c);
		char *nm = strdup(name);
		if (!classad_delete(c, nm) || classad_size(c) != before - 1)
			fail("classad_delete of an attribute failed", nm, NULL);
		if (classad_lookup(c, nm) && !classad_lookup(g_ad, nm))
			fail("a deleted attribute is still found", nm, NULL);
		free(nm);
	}
	classad_update(c, g_target);
	classad_chain(c, NULL);
	classad *d = classad_new();
	classad_update(d, ad);
	if (classad_size(d) != classad_size(ad))
		fail("classad_update lost attributes", NULL, NULL);
	classad_clear(d);
	if (classad_size(d) != 0)
		fail("classad_clear left attributes", NULL, NULL);
	classad_free(d);
	classad_free(c);
	return ok;
}

static void fuzz_ad(const char *text, size_t len)
{
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_OLD, CLASSAD_FMT_JSON};
	bool evaluate = true;
	for (int i = 0; i < 3; i++) {
		struct ks_err err;
		classad *ad = classad_parse(text, len, fmts[i], NULL, &err);
		classad_cache *cache = classad_cache_new();
		classad *cad = classad_parse(text, len, fmts[i], cache, &err);
		/* A second parse through the same cache shares expressions
		 * and must give the same ad again. */
		classad *cad2 = classad_parse(text, len, fmts[i], cache, &err);
		if (!ad != !cad || !cad != !cad2)
			fail("parsing with a cache and without disagree", fmt_name(fmts[i]),
			     NULL);
		if (ad) {
			check_ads_same(ad, cad, true, NULL, "cache/no cache");
			check_ads_same(ad, cad2, true, NULL, "cache twice");
			round_trip_ad(ad);
			if (evaluate)
				evaluate = eval_attrs(ad) && exercise_copy(ad);
		}
		classad_free(cad2);
		classad_cache_purge(cache);
		classad_cache_free(cache);
		/* ads parsed through a cache stay valid after it goes */
		if (cad) {
			char *t = classad_unparse(cad, CLASSAD_FMT_NEW);
			free(t);
		}
		classad_free(cad);
		classad_free(ad);
	}
}

/* ---- readers ------------------------------------------------------------ */

static void fuzz_reader(const char *text, size_t len)
{
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_OLD, CLASSAD_FMT_JSON};
	bool evaluate = true;
	for (int i = 0; i < 3; i++) {
		classad_cache *cache = (i & 1) ? NULL : classad_cache_new();
		classad_reader *r = classad_reader_new(text, len, fmts[i], cache);
		for (int k = 0; k < MAX_READER_ADS; k++) {
			classad *ad = NULL;
			struct ks_err err;
			int rc = classad_reader_next(r, &ad, &err);
			if (rc <= 0) {
				if (ad)
					fail("reader returned an ad with rc <= 0",
					     NULL, NULL);
				if (rc < 0 && err.code != rc)
					fail("reader error code disagrees", err.msg,
					     NULL);
				/* After the end, the end again. */
				if (classad_reader_next(r, &ad, &err) != 0 || ad)
					fail("reader does not stay at the end",
					     NULL, NULL);
				break;
			}
			char *t = classad_unparse(ad, fmts[i]);
			free(t);
			if (evaluate && k < 4)
				evaluate = eval_attrs(ad);
			classad_free(ad);
		}
		classad_reader_free(r);
		if (cache)
			classad_cache_free(cache);
	}
}

/* ---- matches ------------------------------------------------------------ */

/* One side of a match: new syntax, else JSON, else one old-syntax line;
 * NULL (an empty ad) if none reads. */
static classad *parse_any(const char *text, size_t len)
{
	static const enum classad_format fmts[] = {
		CLASSAD_FMT_NEW, CLASSAD_FMT_JSON, CLASSAD_FMT_OLD};
	for (int i = 0; i < 3; i++) {
		classad *ad = classad_parse(text, len, fmts[i], NULL, NULL);
		if (ad)
			return ad;
	}
	return NULL;
}

static bool match_eval_side(classad_match *m, enum classad_side side,
			    const classad *ad)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = classad_match_rank(m, side, &v);
	touch_value(&v, 0);
	classad_value_clear(&v);
	if (rc == KS_EEVAL)
		return false;
	size_t pos = 0;
	const char *name;
	int n = 0;
	while (ad && classad_next(ad, &pos, &name, NULL) &&
	       n++ < MAX_EVALS_PER_AD) {
		rc = classad_match_eval_attr(m, side, name, &v);
		touch_value(&v, 0);
		classad_value_clear(&v);
		if (rc == KS_EEVAL)
			return false;
	}
	static const char *const exprs[] = {
		"TARGET.Cpus >= MY.RequestCpus",
		"MY.Requirements && TARGET.Requirements",
		"other.Name =?= undefined ? self.Name : target.Name",
		"Requirements", "Rank",
		"{ LEFT.Rank, RIGHT.Rank, symmetricMatch }",
	};
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		classad_expr *e = classad_parse_expr(exprs[i], strlen(exprs[i]),
						     NULL);
		if (!e)
			fail("a fixed expression does not parse", exprs[i], NULL);
		rc = classad_match_eval(m, side, e, &v);
		touch_value(&v, 0);
		classad_value_clear(&v);
		classad_expr_free(e);
		if (rc == KS_EEVAL)
			return false;
	}
	return true;
}

static void fuzz_match(const char *text, size_t len)
{
	size_t cut = 0;
	while (cut < len && text[cut] != '\0' && text[cut] != '\n')
		cut++;
	classad *left = parse_any(text, cut);
	classad *right = cut < len ? parse_any(text + cut + 1, len - cut - 1)
				   : NULL;
	classad_match *m = classad_match_new(left, right, g_env);
	bool sym = classad_match_symmetric(m);
	bool lr = classad_match_left_matches_right(m);
	bool rl = classad_match_right_matches_left(m);
	if (sym != (lr && rl))
		fail("symmetric match is not both one-way matches", NULL, NULL);
	if (match_eval_side(m, CLASSAD_LEFT, left) &&
	    match_eval_side(m, CLASSAD_RIGHT, right)) {
		/* The same ads swapped, then each against a fixed ad. */
		classad_match_set(m, right, left);
		sym = classad_match_symmetric(m);
		if (sym != (classad_match_left_matches_right(m) &&
			    classad_match_right_matches_left(m)))
			fail("symmetric match is not both one-way matches "
			     "(swapped)",
			     NULL, NULL);
		if (match_eval_side(m, CLASSAD_LEFT, right)) {
			classad_match_set(m, left, g_target);
			(void)classad_match_symmetric(m);
			classad_match_set(m, g_ad, right);
			(void)classad_match_symmetric(m);
		}
	}
	classad_match_free(m);
	/* The match held its own references. */
	if (left) {
		char *t = classad_unparse(left, CLASSAD_FMT_NEW);
		free(t);
	}
	classad_free(left);
	classad_free(right);
}

/* ---- entry point ------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	init_once();
	/* The text gets its own allocation, exactly size - 1 bytes, so that
	 * ASan sees any read past its end. */
	size_t len = size - 1;
	char *text = malloc(len ? len : 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, len);
	g_input = data;
	g_input_len = size;
	int mode;
	switch (data[0]) {
	case 'e': mode = 0; break;
	case 'o': mode = 1; break;
	case 'a': mode = 2; break;
	case 'r': mode = 3; break;
	case 'm': mode = 4; break;
	default: mode = data[0] % 5; break;
	}
	switch (mode) {
	case 0: fuzz_expr(text, len, false); break;
	case 1: fuzz_expr(text, len, true); break;
	case 2: fuzz_ad(text, len); break;
	case 3: fuzz_reader(text, len); break;
	case 4: fuzz_match(text, len); break;
	}
	free(text);
	g_input = NULL;
	g_input_len = 0;
	return 0;
}
