/*
 * expand.c: $(NAME), $(NAME:default) and the $FUNC() macro functions.
 *
 * The scan follows HTCondor's: find the leftmost macro whose body is
 * well formed (so "$(A$(B))" expands $(B) first), replace it, and scan
 * again from where it stood, so that replacement text is expanded too.
 * Unlike HTCondor, a macro that expands (directly or through others)
 * into a reference to itself is reported instead of looping forever.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "classad.h"
#include "config_int.h"

enum fn {
	FN_NONE = 0,
	FN_NORMAL,
	FN_ENV,
	FN_RANDOM_CHOICE,
	FN_RANDOM_INTEGER,
	FN_CHOICE,
	FN_SUBSTR,
	FN_INT,
	FN_REAL,
	FN_STRING,
	FN_EVAL,
	FN_BASENAME,
	FN_DIRNAME,
	FN_FILENAME,
};

enum body_kind { BODY_ANY, BODY_ID_COLON, BODY_META };

/* Which macros a scan stops at. */
enum scan_mode { SCAN_ALL, SCAN_DOLLAR_ONLY, SCAN_SELF, SCAN_META };

struct scan {
	enum scan_mode mode;
	const char *self, *self2; /* SCAN_SELF */
	size_t selflen, self2len;
};

/* A macro found in text: text[dollar..right) is "$FN(body)". */
struct mpos {
	size_t dollar, body, defval, right; /* defval 0: no default */
	enum fn fn;
};

static bool idchar(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '/';
}

static enum fn special_fn(const char *p, size_t len, enum body_kind *kind)
{
	static const struct {
		const char *name;
		enum fn fn;
	} fns[] = {
		{"ENV", FN_ENV},         {"RANDOM_CHOICE", FN_RANDOM_CHOICE},
		{"RANDOM_INTEGER", FN_RANDOM_INTEGER},
		{"CHOICE", FN_CHOICE},   {"SUBSTR", FN_SUBSTR},
		{"INT", FN_INT},         {"REAL", FN_REAL},
		{"STRING", FN_STRING},   {"EVAL", FN_EVAL},
		{"BASENAME", FN_BASENAME}, {"DIRNAME", FN_DIRNAME},
	};
	*kind = BODY_ANY;
	if (len >= 1 && p[0] == 'F') {
		size_t i = 1;
		while (i < len && strchr("pnxdqabfwu", p[i] | 0x20))
			i++;
		if (i == len)
			return FN_FILENAME;
	}
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (strlen(fns[i].name) == len && !memcmp(p, fns[i].name, len)) {
			if (fns[i].fn == FN_ENV)
				*kind = BODY_ID_COLON;
			return fns[i].fn;
		}
	return FN_NONE;
}

static bool name_is(const char *body, size_t len, const char *name,
		    size_t nlen, bool allow_default)
{
	if (len < nlen || strncasecmp(body, name, nlen) != 0)
		return false;
	return len == nlen || (allow_default && body[nlen] == ':');
}

/* Whether the scan passes over a well-formed macro. */
static bool skipped(const struct scan *s, enum fn fn, const char *body,
		    size_t len)
{
	bool dollar = fn == FN_NORMAL && name_is(body, len, "DOLLAR", 6, false);
	switch (s->mode) {
	case SCAN_ALL:
		return dollar;
	case SCAN_DOLLAR_ONLY:
		return !dollar;
	case SCAN_SELF:
		if (fn != FN_NORMAL && fn != FN_FILENAME)
			return true;
		return !name_is(body, len, s->self, s->selflen, true) &&
		       !(s->self2 &&
			 name_is(body, len, s->self2, s->self2len, true));
	case SCAN_META:
		return !isdigit((unsigned char)body[0]);
	}
	return true;
}

/* Finds the next macro at or after from; returns false if none. */
static bool next_macro(const char *text, size_t from, const struct scan *s,
		       struct mpos *m)
{
	size_t pos = from;
	for (;;) {
		const char *d = strchr(text + pos, '$');
		if (!d)
			return false;
		const char *p = d + 1;
		bool dd = *p == '$';
		if (dd)
			p++;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p != '(') {
			pos = (size_t)(p - text);
			continue;
		}
		enum body_kind kind = BODY_ANY;
		enum fn fn = FN_NONE;
		size_t plen = (size_t)(p - d);
		if (s->mode == SCAN_META) {
			if (plen == 1) {
				fn = FN_NORMAL;
				kind = BODY_META;
			}
		} else if (plen == 1) {
			fn = FN_NORMAL;
			kind = BODY_ID_COLON;
		} else if (!dd) {
			fn = special_fn(d + 1, plen - 1, &kind);
		}
		if (fn == FN_NONE) {
			pos = (size_t)(p - text);
			continue;
		}
		const char *body = p + 1, *v = body;
		size_t after_colon = 0;
		bool retry = false;
		if (kind == BODY_ANY) {
			while (*v && *v != ')')
				v++;
		} else {
			while (*v && *v != ')') {
				char c = *v++;
				if (c == ':' && !after_colon) {
					after_colon = (size_t)(v - body);
					continue;
				}
				if (after_colon) {
					if (c == '(') {
						const char *close = strchr(v, ')');
						if (close) {
							v = close + 1;
							continue;
						}
					} else if (kind == BODY_META ||
						   strchr("$ ,\\:", c)) {
						continue;
					}
				}
				if (kind == BODY_META ? !isdigit((unsigned char)c) &&
								!strchr("?#+", c)
						      : !idchar((unsigned char)c)) {
					retry = true;
					break;
				}
			}
		}
		if (retry || *v != ')') {
			pos = (size_t)(body - text);
			continue;
		}
		if (skipped(s, fn, body, (size_t)(v - body))) {
			pos = (size_t)(v - text);
			continue;
		}
		m->dollar = (size_t)(d - text);
		m->body = (size_t)(body - text);
		m->defval = after_colon ? m->body + after_colon : 0;
		m->right = (size_t)(v - text) + 1;
		m->fn = fn;
		return true;
	}
}

/* ---- helpers for the functions ----------------------------------------- */

/* Item i of a comma-separated list, trimmed: *start, *len.  False when
 * the list has no item i. */
static bool list_item(const char *list, size_t i, const char **start,
		      size_t *len)
{
	const char *p = list;
	for (size_t k = 0;; k++) {
		const char *e = strchr(p, ',');
		if (k == i) {
			if (!e)
				e = p + strlen(p);
			while (p < e && isspace((unsigned char)*p))
				p++;
			while (e > p && isspace((unsigned char)e[-1]))
				e--;
			*start = p;
			*len = (size_t)(e - p);
			return true;
		}
		if (!e)
			return false;
		p = e + 1;
	}
}

static size_t list_count(const char *list)
{
	size_t n = 1;
	for (const char *p = list; (p = strchr(p, ',')); p++)
		n++;
	return n;
}

struct ctx {
	const ks_config *cfg;  /* NULL only with a lookup of the caller's */
	ks_macro_lookup_fn lookup; /* NULL: cfg's macros */
	void *arg;
	bool self_empty;       /* submit's rule for a macro inside itself */
	size_t max_len;        /* submit's guard: stop here, no error */
	bool path_literals;    /* $F...(/a/path), $BASENAME(f, suffix) */
	uint64_t rng;          /* the generator without a configuration */
	struct ks_err *err;
	int depth;   /* expansions inside function arguments */
	long count;  /* macros expanded so far, against runaway growth */
};

/* A macro's raw value: the caller's lookup, else the configuration's.
 * The value is copied before the next lookup (the callback's contract). */
static const char *find(const struct ctx *c, const char *name, size_t len)
{
	if (c->lookup)
		return c->lookup(c->arg, name, len);
	return kc_lookup(c->cfg, name, len, NULL);
}

/* The configuration's generator when there is one; else one of this
 * expansion's own (a caller without a configuration: tests, fuzzing). */
static uint64_t random_pick(struct ctx *c)
{
	return c->cfg ? kc_random((ks_config *)c->cfg)
		      : kc_random_step(&c->rng);
}

/* A macro used as a function's argument is expanded on its own, so a
 * loop through arguments ($SUBSTR(S,1) inside S) is caught by depth. */
#define MAX_DEPTH 32

static char *expand_text(struct ctx *c, const char *text,
			 bool keep_dollar);
static char *expand_flat(struct ctx *c, const char *text, bool keep_dollar);

/* Argument i of a function: a macro name whose value is used, or else
 * the text itself; expanded either way.  NULL if there is no argument i or
 * the expansion failed (then c->err is set). */
static char *macro_arg(struct ctx *c, const char *args, size_t i,
		       bool *missing)
{
	const char *s;
	size_t n;
	*missing = !list_item(args, i, &s, &n);
	if (*missing)
		return NULL;
	const char *v = find(c, s, n);
	char *raw = v ? ks_xstrdup(v) : ks_xstrndup(s, n);
	char *out = expand_text(c, raw, true);
	free(raw);
	return out;
}

/* The value of text as an integer: a literal, or a ClassAd expression. */
static bool text_to_int(const char *text, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (end != text) {
		while (isspace((unsigned char)*end))
			end++;
		if (!*end && errno == 0) {
			*out = v;
			return true;
		}
	}
	classad *ad = classad_new();
	int64_t i;
	bool ok = classad_insert_text(ad, "CondorLong", text, NULL) == 0 &&
		  classad_eval_int(ad, "CondorLong", NULL, &i);
	classad_free(ad);
	if (ok)
		*out = i;
	return ok;
}

static bool text_to_double(const char *text, double *out)
{
	char *end;
	double v = strtod(text, &end);
	if (end != text) {
		while (isspace((unsigned char)*end))
			end++;
		if (!*end) {
			*out = v;
			return true;
		}
	}
	classad *ad = classad_new();
	bool ok = classad_insert_text(ad, "CondorDouble", text, NULL) == 0 &&
		  classad_eval_real(ad, "CondorDouble", NULL, out);
	classad_free(ad);
	return ok;
}

#define FORMAT_MAX 4096

/* Checks a printf format with one conversion of the given kind ('d' for
 * integers, 'f' for reals, 's' for strings) and returns it rewritten for
 * long long / double / char *, or NULL if it is not one. */

static char *check_format(const char *fmt, char kind)
{
	struct classad_buf b = {0};
	int convs = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			kc_buf_addc(&b, *p);
			continue;
		}
		if (p[1] == '%') {
			kc_buf_adds(&b, "%%");
			p++;
			continue;
		}
		const char *start = p++;
		while (*p && strchr("-+ #0", *p))
			p++;
		/* widths and precisions past FORMAT_MAX are refused: printf
		 * would spend seconds padding a value nobody can use */
		long width = 0, prec = 0;
		for (; isdigit((unsigned char)*p); p++)
			if (width <= FORMAT_MAX)
				width = width * 10 + (*p - '0');
		if (*p == '.') {
			for (p++; isdigit((unsigned char)*p); p++)
				if (prec <= FORMAT_MAX)
					prec = prec * 10 + (*p - '0');
		}
		if (width > FORMAT_MAX || prec > FORMAT_MAX) {
			free(b.data);
			return NULL;
		}
		const char *spec_end = p;
		while (*p && strchr("hlLqjzt", *p))
			p++;
		const char *conv = kind == 'd' ? "diouxXc"
				 : kind == 'f' ? "eEfFgGaA" : "s";
		if (!*p || !strchr(conv, *p) || ++convs > 1) {
			free(b.data);
			return NULL;
		}
		classad_buf_add(&b, start, (size_t)(spec_end - start));
		if (kind == 'd')
			kc_buf_adds(&b, "ll");
		kc_buf_addc(&b, *p);
	}
	if (convs != 1) {
		free(b.data);
		return NULL;
	}
	return kc_buf_take(&b);
}

static int fail(struct ctx *c, const char *fmt, const char *arg)
{
	return ks_err_set(c->err, KS_EINVAL, 0, 0, 0, fmt, arg ? arg : "");
}

/* ---- the functions ------------------------------------------------------ */

static int fn_random_integer(struct ctx *c, const char *args,
			     struct classad_buf *out)
{
	long long v[3];
	static const char *what[] = {"min", "max", "step"};
	for (size_t i = 0; i < 3; i++) {
		const char *s;
		size_t n;
		char tmp[64];
		char *end;
		if (!list_item(args, i, &s, &n) || n == 0 || n >= sizeof(tmp))
			return fail(c, "$RANDOM_INTEGER() error: invalid %s",
				    what[i]);
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		errno = 0;
		v[i] = strtoll(tmp, &end, 10);
		if (*end || errno)
			return fail(c, "$RANDOM_INTEGER() error: invalid %s",
				    what[i]);
	}
	if (v[2] < 1)
		return fail(c, "$RANDOM_INTEGER() error: invalid %s", "step");
	if (v[0] > v[1])
		return fail(c, "$RANDOM_INTEGER() error: min > max", NULL);
	unsigned long long count =
		((unsigned long long)v[1] - (unsigned long long)v[0]) /
			(unsigned long long)v[2] +
		1;
	unsigned long long pick =
		random_pick(c) % (count ? count : 1);
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%lld",
		 (long long)((unsigned long long)v[0] +
			     pick * (unsigned long long)v[2]));
	kc_buf_adds(out, tmp);
	return 0;
}

static int fn_choice(struct ctx *c, const char *args, bool random,
		     struct classad_buf *out)
{
	char *owned = NULL;
	const char *items;
	size_t index = 0;
	if (random) {
		items = args;
		if (!strchr(args, ',')) {
			bool missing;
			if (!*args)
				return fail(c, "$RANDOM_CHOICE() error: no list",
					    NULL);
			owned = macro_arg(c, args, 0, &missing);
			if (!owned)
				return KS_EINVAL;
			items = owned;
		}
		size_t n = list_count(items);
		index = (size_t)(random_pick(c) % n);
	} else {
		const char *s;
		size_t n;
		if (!list_item(args, 1, &s, &n)) {
			return fail(c, "$CHOICE() error: no list", NULL);
		}
		items = s;
		bool missing;
		char *iv = macro_arg(c, args, 0, &missing);
		long long ix;
		if (!iv || !text_to_int(iv, &ix) || ix < 0 || ix >= INT_MAX) {
			int rc = fail(c, "$CHOICE() error: '%s' is invalid index",
				      iv);
			free(iv);
			return rc;
		}
		free(iv);
		index = (size_t)ix;
		if (list_count(items) == 1) {
			/* The name of a macro holding the list. */
			const char *v = find(c, s, n);
			if (!n || !v) {
				char *name = ks_xstrndup(s, n);
				int rc = fail(c,
					      n ? "$CHOICE() error: no list "
						  "named %s"
						: "$CHOICE() error: no list",
					      name);
				free(name);
				return rc;
			}
			owned = expand_text(c, v, true);
			if (!owned)
				return KS_EINVAL;
			items = owned;
		}
	}
	const char *s;
	size_t n;
	if (!list_item(items, index, &s, &n)) {
		free(owned);
		char tmp[32];
		snprintf(tmp, sizeof(tmp), "%zu", index);
		return fail(c, "$CHOICE() error: index %s is out of range", tmp);
	}
	classad_buf_add(out, s, n);
	free(owned);
	return 0;
}

static int fn_substr(struct ctx *c, const char *args,
		     struct classad_buf *out)
{
	bool missing;
	char *s = macro_arg(c, args, 0, &missing);
	if (!s || !*s) {
		/* No argument, or an empty one, is empty; a failed
		 * expansion is its error. */
		int rc = !s && !missing ? KS_EINVAL : 0;
		free(s);
		return rc;
	}
	/* $SUBSTR(name, start[, length]) */
	long long start = 0, len = LLONG_MAX / 2;
	static const char *what[] = {"start", "length"};
	for (size_t i = 1; i <= 2; i++) {
		char *a = macro_arg(c, args, i, &missing);
		if (missing)
			break;
		long long v;
		if (!a || !text_to_int(a, &v) || v < INT_MIN || v >= INT_MAX) {
			char fmt[64];
			snprintf(fmt, sizeof(fmt), "$SUBSTR() error: %%s is "
						   "invalid %s",
				 what[i - 1]);
			int rc = fail(c, fmt, a);
			free(a);
			free(s);
			return rc;
		}
		free(a);
		if (i == 1)
			start = v;
		else
			len = v;
	}
	long long cch = (long long)strlen(s);
	if (start < 0)
		start += cch;
	if (start < 0)
		start = 0;
	else if (start > cch)
		start = cch;
	cch -= start;
	if (len < 0)
		len += cch;
	if (len < 0)
		len = 0;
	else if (len > cch)
		len = cch;
	classad_buf_add(out, s + start, (size_t)len);
	free(s);
	return 0;
}

static int fn_number(struct ctx *c, const char *args, bool real,
		     struct classad_buf *out)
{
	const char *fs;
	size_t fn;
	char *fmt = NULL;
	if (list_item(args, 1, &fs, &fn)) {
		/* The format is everything after the first comma. */
		const char *comma = strchr(args, ',');
		char *raw = ks_xstrdup(comma + 1);
		fmt = check_format(raw, real ? 'f' : 'd');
		if (!fmt) {
			int rc = fail(c,
				      real ? "$REAL() error: '%s' is not a "
					     "valid format specifier"
					   : "$INT() error: '%s' is not a "
					     "valid format specifier",
				      raw);
			free(raw);
			return rc;
		}
		free(raw);
	}
	bool missing;
	char *v = macro_arg(c, args, 0, &missing);
	char tmp[512];
	int rc = 0;
	if (!v && !missing) {
		free(fmt);
		return KS_EINVAL;
	}
	if (!v)
		v = ks_xstrdup("");
	if (real) {
		double d;
		if (!text_to_double(v, &d)) {
			rc = fail(c, "$REAL() error: %s does not evaluate to a "
				     "real",
				  v);
		} else {
			snprintf(tmp, sizeof(tmp), fmt ? fmt : "%.16G", d);
			kc_buf_adds(out, tmp);
			if (fmt && !strchr(tmp, '.'))
				kc_buf_adds(out, ".0");
		}
	} else {
		long long i;
		if (!text_to_int(v, &i)) {
			rc = fail(c, "$INT() error: %s does not evaluate to an "
				     "integer",
				  v);
		} else {
			snprintf(tmp, sizeof(tmp), fmt ? fmt : "%lld", i);
			kc_buf_adds(out, tmp);
		}
	}
	free(v);
	free(fmt);
	return rc;
}

/* $STRING(): the value as a ClassAd string when it evaluates to one, else
 * the text.  $EVAL(): the value evaluated, strings bare, others unparsed. */
static int fn_string_eval(struct ctx *c, const char *args, bool eval,
			  struct classad_buf *out)
{
	char *fmt = NULL, *v;
	if (eval) {
		const char *mv = find(c, args, strlen(args));
		v = expand_text(c, mv ? mv : args, false);
		if (!v)
			return KS_EINVAL;
	} else {
		const char *comma = strchr(args, ',');
		if (comma) {
			fmt = check_format(comma + 1, 's');
			if (!fmt)
				return fail(c,
					    "$STRING() error: '%s' is not a "
					    "valid format specifier",
					    comma + 1);
		}
		bool missing;
		v = macro_arg(c, args, 0, &missing);
		if (!v && !missing) {
			free(fmt);
			return KS_EINVAL;
		}
		if (!v)
			v = ks_xstrdup("");
	}
	classad_expr *e = classad_parse_expr(v, strlen(v), NULL);
	char *result = NULL;
	if (e) {
		classad_value val = CLASSAD_VALUE_INIT;
		classad_eval_expr(NULL, e, NULL, &val);
		size_t n;
		const char *s = classad_value_str(&val, &n);
		if (s)
			result = ks_xstrndup(s, n);
		else if (eval)
			result = classad_value_unparse(&val, false);
		classad_value_clear(&val);
		classad_expr_free(e);
	}
	const char *use = result ? result : v;
	if (fmt) {
		int n = snprintf(NULL, 0, fmt, use);
		/* a width such as %99999999999s overflows, or asks for a
		 * value no configuration needs */
		if (n < 0 || n > (1 << 20)) {
			int rc = fail(c, "$STRING() error: the format '%s' makes "
				      "a value too long", fmt);
			free(result);
			free(v);
			free(fmt);
			return rc;
		}
		char *tmp = ks_xmalloc((size_t)n + 1);
		snprintf(tmp, (size_t)n + 1, fmt, use);
		kc_buf_adds(out, tmp);
		free(tmp);
	} else {
		kc_buf_adds(out, use);
	}
	free(result);
	free(v);
	free(fmt);
	return 0;
}

/* $Fpdnxbqa(NAME), $BASENAME(NAME), $DIRNAME(NAME): parts of a path. */
static int fn_filename(struct ctx *c, const char *func, size_t flen,
		       enum fn fn, char *name, struct classad_buf *out,
		       bool *empty)
{
	int parts = 0, ndirs = 0;
	bool quoted = false, full = false, bare = false, argq = false;
	char to_path = 0;
	if (fn == FN_BASENAME) {
		parts = 1 | 2;
	} else if (fn == FN_DIRNAME) {
		parts = 4;
	} else {
		for (size_t i = 1; i < flen; i++) {
			switch (func[i] | 0x20) {
			case 'x': parts |= 1; break;
			case 'n': parts |= 2; break;
			case 'p': parts |= 4; break;
			case 'd': parts |= 8; ndirs++; break;
			case 'a': argq = true; break;
			case 'b': bare = true; break;
			case 'f': full = true; break;
			case 'w': to_path = '\\'; break;
			case 'u': to_path = '/'; break;
			case 'q': quoted = true; break;
			}
		}
	}
	/* HTCondor 25's submit: $BASENAME(path, suffix) drops a suffix, and
	 * a path that names no macro is taken as written */
	char *suffix = NULL;
	char *comma = fn == FN_BASENAME && c->path_literals
			      ? strrchr(name, ',') : NULL;
	if (comma) {
		*comma = '\0';
		suffix = comma + 1;
		while (isspace((unsigned char)*suffix))
			suffix++;
	}
	const char *mv = find(c, name, strlen(name));
	*empty = true;
	if (!mv && c->path_literals)
		mv = name;
	if (!mv)
		return 0;
	char *val = expand_text(c, mv, true);
	if (!val)
		return KS_EINVAL;
	/* Strip one level of quotes, then make it absolute if asked. */
	size_t n = strlen(val);
	const char *s = val;
	char qc = quoted ? (argq ? '\'' : '"') : 0;
	if (n > 0 && (s[0] == '"' || (qc && s[0] == qc))) {
		char q = s[0];
		s++;
		n--;
		if (n > 0 && s[n - 1] == q)
			n--;
	}
	struct classad_buf p = {0};
	if (full && s[0] != '/') {
		char cwd[4096];
		if (getcwd(cwd, sizeof(cwd))) {
			size_t cl = strlen(cwd);
			if (cl && cwd[cl - 1] == '/')
				cl--;
			classad_buf_add(&p, cwd, cl);
			kc_buf_addc(&p, '/');
			if (n > 2 && s[0] == '.' && s[1] == '/') {
				s += 2;
				n -= 2;
			}
		}
	}
	classad_buf_add(&p, s, n);
	free(val);
	if (to_path)
		for (size_t i = 0; i < p.len; i++)
			if (p.data[i] == (to_path == '/' ? '\\' : '/'))
				p.data[i] = to_path;
	const char *b = p.data;
	size_t end = p.len;
	size_t ixn = 0; /* start of the file name */
	for (size_t i = 0; i < end; i++)
		if (b[i] == '/' || b[i] == '\\')
			ixn = i + 1;
	size_t ixx = end; /* the '.' of the extension */
	for (size_t i = end; i > ixn; i--)
		if (b[i - 1] == '.') {
			ixx = i - 1;
			break;
		}
	size_t cut = suffix ? strlen(suffix) : 0;
	if (suffix && end >= ixn + cut && !strcasecmp(suffix, b + end - cut)) {
		ixx = end - cut; /* the suffix counts as the extension */
		parts &= ~1;
	}
	if (!ixn && (parts & 3))
		parts &= ~(4 | 8);
	size_t from = 0;
	switch (parts & 0xF) {
	case 1:
		from = ixx;
		if (bare && ixx < end)
			from++;
		break;
	case 3: from = ixn; break;
	case 2: from = ixn; end = ixx; break;
	case 0: case 7: case 5: break;
	case 4:
		end = ixn;
		if (bare && ixn > 0)
			end = ixn - 1;
		break;
	case 6: end = ixx; break;
	default:
		if (ixn > 0) {
			/* Keep ndirs directories before the name. */
			size_t seps[256], ns = 0;
			for (size_t i = 0; i < p.len && ns < 256; i++)
				if (b[i] == '/' || b[i] == '\\')
					seps[ns++] = i + 1;
			size_t keep = ns > (size_t)ndirs ? ns - (size_t)ndirs : 0;
			from = keep ? seps[keep - 1] : 0;
			if ((parts & 3) == 2)
				end = ixx;
			else if ((parts & 3) == 0) {
				end = ixn;
				if (bare && ixn > 0)
					end = ixn - 1;
			}
		} else {
			from = end = 0;
		}
		break;
	}
	if (end < from)
		end = from;
	if (qc)
		kc_buf_addc(out, qc);
	classad_buf_add(out, b + from, end - from);
	if (qc)
		kc_buf_addc(out, qc);
	*empty = end == from && !qc;
	free(p.data);
	return 0;
}

/* Evaluates the macro at m; its replacement goes to out.  *use_default
 * says the macro had no value and its default should stand instead. */
static int eval_macro(struct ctx *c, const char *text,
		      const struct mpos *m, struct classad_buf *out,
		      bool *use_default)
{
	size_t name_end = m->defval ? m->defval - 1 : m->right - 1;
	char *name = ks_xstrndup(text + m->body, name_end - m->body);
	char *body = ks_xstrndup(text + m->body, m->right - 1 - m->body);
	int rc = 0;
	*use_default = false;
	switch (m->fn) {
	case FN_NORMAL: {
		const char *v = find(c, name, strlen(name));
		if (v && *v)
			kc_buf_adds(out, v);
		else
			*use_default = true;
		break;
	}
	case FN_ENV: {
		const char *v = getenv(name);
		if (!v && !m->defval)
			v = "UNDEFINED";
		if (v && *v)
			kc_buf_adds(out, v);
		else
			*use_default = true;
		break;
	}
	case FN_RANDOM_CHOICE:
		rc = fn_choice(c, body, true, out);
		break;
	case FN_CHOICE:
		rc = fn_choice(c, body, false, out);
		break;
	case FN_RANDOM_INTEGER:
		rc = fn_random_integer(c, body, out);
		break;
	case FN_SUBSTR:
		rc = fn_substr(c, body, out);
		break;
	case FN_INT:
	case FN_REAL:
		rc = fn_number(c, body, m->fn == FN_REAL, out);
		break;
	case FN_STRING:
	case FN_EVAL:
		rc = fn_string_eval(c, body, m->fn == FN_EVAL, out);
		break;
	case FN_BASENAME:
	case FN_DIRNAME:
	case FN_FILENAME: {
		bool empty;
		rc = fn_filename(c, text + m->dollar + 1,
				 m->body - m->dollar - 2, m->fn, name, out,
				 &empty);
		*use_default = empty;
		break;
	}
	case FN_NONE:
		break;
	}
	free(name);
	free(body);
	return rc;
}

/* ---- expansion --------------------------------------------------------- */

/* The macros being expanded around the scan position: a name's text
 * occupies [start, end) of the value until the scan passes it. */
struct open_macro {
	char *name;
	size_t start, end;
};

/* The error for a macro met again inside its own expansion: the loop,
 * from the macro through the ones open around it back to itself
 * ("$(A) refers to itself (A -> B -> A)"). */
static int loop_error(struct ctx *c, const struct open_macro *chain,
		      size_t n, const char *name)
{
	struct classad_buf path = {0};
	for (size_t i = 0; i < n; i++) {
		kc_buf_adds(&path, chain[i].name);
		kc_buf_adds(&path, " -> ");
	}
	kc_buf_adds(&path, name);
	int rc = ks_err_set(c->err, KS_EINVAL, 0, 0, 0,
			    "$(%s) refers to itself (%s)", name, path.data);
	free(path.data);
	return rc;
}

#define MAX_EXPANSIONS 10000
#define MAX_VALUE (16u << 20)

static char *expand_text(struct ctx *c, const char *text,
			 bool keep_dollar)
{
	if (c->depth >= MAX_DEPTH) {
		ks_err_set(c->err, KS_ERANGE, 0, 0, 0,
			   "macros nested more than %d deep (does one refer "
			   "to itself through a function?)",
			   MAX_DEPTH);
		return NULL;
	}
	c->depth++;
	char *r = expand_flat(c, text, keep_dollar);
	c->depth--;
	return r;
}

static char *expand_flat(struct ctx *c, const char *text, bool keep_dollar)
{
	struct classad_buf v = {0};
	kc_buf_adds(&v, text);
	struct scan all = {.mode = SCAN_ALL};
	struct open_macro *open = NULL;
	size_t nopen = 0, cap = 0;
	struct mpos m = {0};
	int rc = 0;
	while (next_macro(v.data, m.dollar, &all, &m)) {
		while (nopen && open[nopen - 1].end <= m.dollar)
			free(open[--nopen].name);
		size_t name_end = m.defval ? m.defval - 1 : m.right - 1;
		char *name = ks_xstrndup(v.data + m.body, name_end - m.body);
		bool self = false;
		if (m.fn == FN_NORMAL) {
			size_t i = 0;
			while (i < nopen && strcasecmp(open[i].name, name))
				i++;
			self = i < nopen;
			if (self && !c->self_empty)
				rc = loop_error(c, open + i, nopen - i, name);
		}
		if (!rc && c->max_len &&
		    (++c->count > MAX_EXPANSIONS || v.len > c->max_len)) {
			/* submit's guard: the value stops growing, and the
			 * job is made of what there is */
			if (v.len > c->max_len)
				v.data[v.len = c->max_len] = '\0';
			free(name);
			break;
		}
		if (!rc && !c->max_len &&
		    (++c->count > MAX_EXPANSIONS || v.len > MAX_VALUE))
			rc = ks_err_set(c->err, KS_ERANGE, 0, 0, 0,
					"expanding $(%s) does not end", name);
		struct classad_buf out = {0};
		bool use_default = false;
		if (!rc && self) {
			/* (submit) it expands to nothing, and is not open */
			kc_buf_splice(&v, m.dollar, m.right - m.dollar, "", 0);
			long delta = -(long)(m.right - m.dollar);
			for (size_t i = 0; i < nopen; i++)
				open[i].end = (size_t)((long)open[i].end + delta);
			free(name);
			continue;
		}
		if (!rc)
			rc = eval_macro(c, v.data, &m, &out, &use_default);
		if (rc) {
			free(name);
			free(out.data);
			break;
		}
		const char *rep = out.data ? out.data : "";
		size_t replen = out.len;
		if (use_default && m.defval) {
			rep = v.data + m.defval;
			replen = m.right - 1 - m.defval;
		}
		char *r = ks_xstrndup(rep, replen);
		kc_buf_splice(&v, m.dollar, m.right - m.dollar, r, replen);
		free(r);
		free(out.data);
		long delta = (long)replen - (long)(m.right - m.dollar);
		for (size_t i = 0; i < nopen; i++)
			open[i].end = (size_t)((long)open[i].end + delta);
		if (nopen == cap) {
			cap = cap ? cap * 2 : 8;
			open = ks_xrealloc(open, cap * sizeof(*open));
		}
		open[nopen++] = (struct open_macro){name, m.dollar,
						    m.dollar + replen};
	}
	while (nopen)
		free(open[--nopen].name);
	free(open);
	if (rc) {
		free(v.data);
		return NULL;
	}
	if (!keep_dollar) {
		struct scan dollar = {.mode = SCAN_DOLLAR_ONLY};
		size_t from = 0;
		while (next_macro(v.data, from, &dollar, &m)) {
			kc_buf_splice(&v, m.dollar, m.right - m.dollar, "$", 1);
			from = m.dollar + 1;
		}
	}
	return kc_buf_take(&v);
}

char *kc_expand(const ks_config *cfg, const char *text, bool keep_dollar,
		struct ks_err *err)
{
	struct ks_err local;
	struct ctx c = {.cfg = cfg, .err = err ? err : &local};
	ks_err_clear(c.err);
	return expand_text(&c, text, keep_dollar);
}

char *ks_expand(const struct ks_expand_opts *o, const char *text,
		struct ks_err *err)
{
	struct ks_err local;
	struct ctx c = {.cfg = o->cfg, .lookup = o->lookup, .arg = o->arg,
			.self_empty = o->self_empty, .max_len = o->max_len,
			.path_literals = o->path_literals,
			.err = err ? err : &local};
	ks_err_clear(c.err);
	/* a value without a macro (most of a job's) needs no scan */
	if (!strchr(text, '$'))
		return ks_xstrdup(text);
	return expand_text(&c, text, o->keep_dollar);
}

char *ks_config_expand(const ks_config *cfg, const char *text,
		       struct ks_err *err)
{
	return kc_expand(cfg, text, false, err);
}

char *ks_config_get(const ks_config *cfg, const char *name,
		    struct ks_err *err)
{
	ks_err_clear(err);
	const char *raw = kc_lookup(cfg, name, strlen(name), NULL);
	if (!raw || !*raw)
		return NULL;
	char *v = kc_expand(cfg, raw, false, err);
	if (v && !*v) {
		free(v);
		return NULL;
	}
	return v;
}

char *ks_config_get_slot(const ks_config *cfg, const char *name, int slot,
			 int slot_type, struct ks_err *err)
{
	char key[256];
	snprintf(key, sizeof(key), "SLOT%d_%s", slot, name);
	const char *raw = kc_lookup(cfg, key, strlen(key), NULL);
	if ((!raw || !*raw) && slot_type > 0) {
		snprintf(key, sizeof(key), "SLOT_TYPE_%d_%s", slot_type, name);
		raw = kc_lookup(cfg, key, strlen(key), NULL);
	}
	if (!raw || !*raw)
		return ks_config_get(cfg, name, err);
	ks_err_clear(err);
	char *v = kc_expand(cfg, raw, false, err);
	if (v && !*v) {
		free(v);
		return NULL;
	}
	return v;
}

/* The part of name after the local name or subsystem prefix, if any. */
static const char *unprefixed(const char *prefix, const char *name)
{
	if (!prefix)
		return NULL;
	size_t n = strlen(prefix);
	if (strncasecmp(name, prefix, n) == 0 && name[n] == '.' && name[n + 1])
		return name + n + 1;
	return NULL;
}

char *kc_expand_self(const ks_config *cfg, const char *text,
		     const char *name)
{
	struct scan s = {.mode = SCAN_SELF, .self = name,
			 .selflen = strlen(name)};
	s.self2 = unprefixed(cfg->localname, name);
	if (!s.self2)
		s.self2 = unprefixed(cfg->subsys, name);
	if (s.self2)
		s.self2len = strlen(s.self2);
	struct classad_buf v = {0};
	kc_buf_adds(&v, text);
	struct ks_err err;
	struct ctx c = {.cfg = cfg, .err = &err};
	struct mpos m;
	size_t from = 0;
	/* The current value never refers to name (it was expanded the same
	 * way when it was set), so one pass is enough. */
	while (next_macro(v.data, from, &s, &m)) {
		struct classad_buf out = {0};
		bool use_default = false;
		const char *rep = "";
		size_t replen = 0;
		if (eval_macro(&c, v.data, &m, &out, &use_default) == 0) {
			rep = out.data ? out.data : "";
			replen = out.len;
			if (use_default && m.defval) {
				rep = v.data + m.defval;
				replen = m.right - 1 - m.defval;
			}
		}
		char *r = ks_xstrndup(rep, replen);
		kc_buf_splice(&v, m.dollar, m.right - m.dollar, r, replen);
		from = m.dollar + replen;
		free(r);
		free(out.data);
	}
	return kc_buf_take(&v);
}

/* ---- template arguments ------------------------------------------------ */

bool kc_has_meta_args(const char *text)
{
	for (const char *p = strstr(text, "$("); p; p = strstr(p, "$(")) {
		p += 2;
		if (isdigit((unsigned char)*p))
			return true;
	}
	return false;
}

/* The arguments as HTCondor tokenizes them: split at commas, trimmed,
 * empty ones skipped.  Sets *start and *len of token i, and *after to the
 * text after it. */
static bool arg_token(const char *args, int i, const char **start,
		      size_t *len, const char **after)
{
	const char *p = args;
	for (int k = 0;; k++) {
		while (*p && (*p == ',' || isspace((unsigned char)*p)))
			p++;
		if (!*p)
			return false;
		const char *s = p, *e = p;
		while (*p && *p != ',') {
			if (!isspace((unsigned char)*p))
				e = p + 1;
			p++;
		}
		if (k == i) {
			*start = s;
			*len = (size_t)(e - s);
			*after = p;
			return true;
		}
	}
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return ks_xstrndup(s, n);
}

char *kc_expand_meta_args(const char *text, const char *args)
{
	struct classad_buf v = {0};
	kc_buf_adds(&v, text);
	struct scan s = {.mode = SCAN_META};
	struct mpos m;
	size_t from = 0;
	while (next_macro(v.data, from, &s, &m)) {
		const char *body = v.data + m.body;
		char *end;
		long index = strtol(body, &end, 10);
		bool empty_check = false, rest = false;
		if (*end == '?') {
			empty_check = true;
			end++;
		} else if (*end == '#' || *end == '+') {
			rest = true;
			end++;
		}
		const char *def = *end == ':' ? end + 1 : NULL;
		size_t deflen = def ? (size_t)(v.data + m.right - 1 - def) : 0;
		char *val;
		const char *ts, *after;
		size_t tl;
		if (index <= 0) {
			if (rest) {
				int n = 0;
				while (arg_token(args, n, &ts, &tl, &after))
					n++;
				char tmp[16];
				snprintf(tmp, sizeof(tmp), "%d", n);
				val = ks_xstrdup(tmp);
			} else {
				val = trimmed(args, strlen(args));
			}
		} else if (rest) {
			const char *remain = args;
			if (index > 1) {
				remain = arg_token(args, (int)index - 2, &ts, &tl,
						   &after)
						 ? after
						 : NULL;
			}
			if (remain && *remain == ',')
				remain++;
			val = remain ? trimmed(remain, strlen(remain))
				     : ks_xstrdup("");
			if (!*val && def) {
				free(val);
				val = trimmed(def, deflen);
			}
		} else if (arg_token(args, (int)index - 1, &ts, &tl, &after)) {
			val = ks_xstrndup(ts, tl);
		} else {
			val = def ? trimmed(def, deflen) : ks_xstrdup("");
		}
		if (empty_check) {
			bool some = *val != '\0';
			free(val);
			val = ks_xstrdup(some ? "1" : "0");
		}
		size_t vl = strlen(val);
		kc_buf_splice(&v, m.dollar, m.right - m.dollar, val, vl);
		free(val);
		/* HTCondor rescans from the start; an argument that itself
		 * looks like $(1) would loop, so go on after it. */
		from = m.dollar + vl;
	}
	return kc_buf_take(&v);
}

/* ---- typed reads -------------------------------------------------------- */

bool ks_config_int(const ks_config *cfg, const char *name, int64_t *out)
{
	char *v = ks_config_get(cfg, name, NULL);
	long long i;
	bool ok = v && text_to_int(v, &i);
	if (ok)
		*out = i;
	free(v);
	return ok;
}

bool ks_config_double(const ks_config *cfg, const char *name, double *out)
{
	char *v = ks_config_get(cfg, name, NULL);
	bool ok = v && text_to_double(v, out);
	free(v);
	return ok;
}

bool ks_config_text_bool(const char *v, bool *out)
{
	static const char *yes[] = {"true", "yes", "t", "y"};
	static const char *no[] = {"false", "no", "f", "n"};
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]))
			return *out = true;
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return true;
		}
	}
	classad *ad = classad_new();
	bool b;
	bool ok = classad_insert_text(ad, "CondorBool", v, NULL) == 0 &&
		  classad_eval_bool(ad, "CondorBool", NULL, &b);
	if (ok)
		*out = b;
	classad_free(ad);
	return ok;
}

bool ks_config_bool(const ks_config *cfg, const char *name, bool *out)
{
	char *v = ks_config_get(cfg, name, NULL);
	if (!v)
		return false;
	bool ok = ks_config_text_bool(v, out);
	free(v);
	return ok;
}
