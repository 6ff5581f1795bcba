#define _GNU_SOURCE /* strcasestr */
/* parse.c: reading a submit description (submit.h). */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ks_mem.h"
#include "ks_name.h"
#include "ks_text.h"
#include "submit.h"

/* Two bits for a name, from its length and three of its letters (case
 * folded with 0x20, enough for the ASCII of names): a look-up must cost
 * less than the walk it saves, some hundred million times a submission. */
static void name_bits(const char *name, size_t len, unsigned *a, unsigned *b)
{
	if (!len) { /* ($() names nothing, and may still be asked for) */
		*a = *b = 0;
		return;
	}
	unsigned first = (unsigned char)name[0] | 0x20;
	unsigned mid = (unsigned char)name[len / 2] | 0x20;
	unsigned last = (unsigned char)name[len - 1] | 0x20;
	*a = (first * 7 + (unsigned)len * 13) & 255;
	*b = (last * 11 + mid * 5 + (unsigned)len) & 255;
}

void sub_names_add(uint64_t names[4], const char *name, size_t len)
{
	unsigned a, b;
	name_bits(name, len, &a, &b);
	names[a / 64] |= 1ULL << (a % 64);
	names[b / 64] |= 1ULL << (b % 64);
}

bool sub_names_may_hold(const uint64_t names[4], const char *name,
			size_t len)
{
	unsigned a, b;
	name_bits(name, len, &a, &b);
	return (names[a / 64] >> (a % 64) & 1) &&
	       (names[b / 64] >> (b % 64) & 1);
}

static void add_var(struct sub_file *f, const char *name, const char *value,
		    bool attr, int line, const char *src)
{
	sub_names_add(f->names, name, strlen(name));
	f->vars = ks_xrealloc(f->vars, (f->nvars + 1) * sizeof(*f->vars));
	f->vars[f->nvars++] = (struct sub_var){ks_xstrdup(name),
					       ks_xstrdup(value), attr, line,
					       src};
}

/* name as the sources of f hold it (one copy each, for the statements
 * read from it to point at). */
static const char *add_src(struct sub_file *f, const char *name)
{
	for (size_t i = 0; i < f->nsrcs; i++)
		if (!strcmp(f->srcs[i], name))
			return f->srcs[i];
	f->srcs = ks_xrealloc(f->srcs, (f->nsrcs + 1) * sizeof(*f->srcs));
	return f->srcs[f->nsrcs++] = ks_xstrdup(name);
}

/* Splits s into words at commas and white space (items of "in (...)",
 * fields of a "from" line); at most max words, the last taking the rest
 * when max > 0. */
static size_t split_words(char *s, char ***out, size_t max)
{
	size_t n = 0;
	char **v = NULL;
	while (*s) {
		s += strspn(s, ", \t\r\n");
		if (!*s)
			break;
		size_t len = max && n + 1 == max ? strlen(s)
						  : strcspn(s, ", \t\r\n");
		v = ks_xrealloc(v, (n + 1) * sizeof(*v));
		v[n] = ks_xstrndup(s, len);
		char *t = ks_trim(v[n]);
		memmove(v[n], t, strlen(t) + 1);
		n++;
		s += len;
	}
	*out = v;
	return n;
}

static void add_row(struct sub_queue *q, char **fields, size_t n)
{
	char **row = ks_xcalloc(q->nvars ? q->nvars : 1, sizeof(*row));
	for (size_t i = 0; i < q->nvars; i++)
		row[i] = ks_xstrdup(i < n ? fields[i] : "");
	q->rows = ks_xrealloc(q->rows, (q->nrows + 1) * sizeof(*q->rows));
	q->rows[q->nrows++] = row;
}

static void free_words(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

/* One "from" item: a row, its fields split into the variables (the last
 * taking the rest of the item). */
static void row_from_item(struct sub_queue *q, char *item)
{
	char **w;
	size_t n = split_words(item, &w, q->nvars);
	if (n)
		add_row(q, w, n);
	free_words(w, n);
}

/* The items of an "in" list or the patterns of a "matching" one (text
 * split at commas and white space) into words. */
static void add_words(char ***words, size_t *nwords, char *text)
{
	char **w;
	size_t n = split_words(text, &w, 0);
	*words = ks_xrealloc(*words, (*nwords + n + 1) * sizeof(**words));
	for (size_t i = 0; i < n; i++)
		(*words)[(*nwords)++] = w[i];
	free(w);
}

/* The rows of "from" items read from fp (a file or standard input): one
 * per line, but for empty and comment lines. */
static void rows_from_stream(struct sub_queue *q, FILE *fp)
{
	char buf[8192];
	while (fgets(buf, sizeof(buf), fp)) {
		char *t = ks_trim(buf);
		if (*t && *t != '#')
			row_from_item(q, t);
	}
}

/* "from FILE", or "from -" (standard input) when cl allows; not "from
 * COMMAND |": kestrel's condor_submit runs no command a description
 * names (as for include command). */
static int rows_from(struct sub_queue *q, const char *dir, char *what,
		     const char *name, const struct sub_cmdline *cl,
		     struct ks_err *err)
{
	size_t len = strlen(what);
	if (len && what[len - 1] == '|')
		return ks_err_set(err, KS_EPARSE, q->line, 0, 0,
				  "on Line %d of %s: queue from a command is "
				  "not supported (only from a file, from - and "
				  "from a list)", q->line, name);
	if (!strcmp(what, "-")) {
		if (!(cl && cl->item_stdin))
			return ks_err_set(err, KS_EPARSE, q->line, 0, 0,
					  "on Line %d of %s: QUEUE FROM - (read "
					  "from stdin) is not allowed in this "
					  "context", q->line, name);
		rows_from_stream(q, stdin);
		return 0;
	}
	char *path = ks_path_in(dir, what);
	FILE *fp = fopen(path, "r");
	free(path);
	if (!fp)
		return ks_err_set(err, KS_EPARSE, q->line, 0, 0,
				  "on Line %d of %s: cannot open the items file "
				  "%s: %s", q->line, name, what, strerror(errno));
	rows_from_stream(q, fp);
	fclose(fp);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files and directories (as files and dirs say) that the n patterns
 * w match in dir, each pattern's sorted, as rows. */
static void rows_matching(struct sub_queue *q, const char *dir, char **w,
			  size_t n, bool files, bool dirs)
{
	for (size_t i = 0; i < n; i++) {
		char pat[4096];
		snprintf(pat, sizeof(pat), "%s/%s", dir, w[i]);
		glob_t g;
		if (glob(pat, GLOB_MARK, NULL, &g) != 0)
			continue;
		char **names = ks_xcalloc(g.gl_pathc + 1, sizeof(*names));
		size_t k = 0;
		for (size_t j = 0; j < g.gl_pathc; j++) {
			const char *p = g.gl_pathv[j] + strlen(dir) + 1;
			bool is_dir = p[strlen(p) - 1] == '/';
			if ((is_dir && !dirs) || (!is_dir && !files))
				continue;
			names[k] = ks_xstrdup(p);
			if (is_dir)
				names[k][strlen(names[k]) - 1] = '\0';
			k++;
		}
		qsort(names, k, sizeof(*names), cmp_str);
		for (size_t j = 0; j < k; j++)
			add_row(q, &names[j], 1);
		free_words(names, k);
		globfree(&g);
	}
}

/* A python-like slice [start:end:step] of a queue statement's items, as
 * HTCondor's submit reads one (each part optional, a negative start or
 * end counted from the end). */
struct slice {
	bool set, has_start, has_end, has_step;
	long start, end, step;
};

/* Reads the slice at s ("[...]"); returns what follows it, or NULL when
 * it is not one. */
static char *slice_parse(char *s, struct slice *sl)
{
	*sl = (struct slice){.set = true};
	char *p = s + 1, *e;
	long *parts[] = {&sl->start, &sl->end, &sl->step};
	bool *has[] = {&sl->has_start, &sl->has_end, &sl->has_step};
	for (int i = 0; i < 3; i++) {
		*parts[i] = strtol(p, &e, 10);
		*has[i] = e > p;
		if (*e == ']')
			return *has[2] && sl->step <= 0 ? NULL : e + 1;
		if (*e != ':' || i == 2)
			return NULL;
		p = e + 1;
	}
	return NULL;
}

/* Whether item ix of n is in the slice. */
static bool slice_has(const struct slice *sl, long ix, long n)
{
	if (!sl->set)
		return true;
	long from = !sl->has_start ? 0 : sl->start < 0 ? sl->start + n : sl->start;
	long to = !sl->has_end ? n : sl->end < 0 ? sl->end + n : sl->end;
	return ix >= from && ix < to &&
	       (!sl->has_step || (ix - from) % sl->step == 0);
}

/* Keeps the rows of q that the slice selects, and the index each had
 * ($(ItemIndex) stays the item's place in the whole list). */
static void slice_rows(struct sub_queue *q, const struct slice *sl)
{
	if (!sl->set)
		return;
	q->index = ks_xcalloc(q->nrows + 1, sizeof(*q->index));
	size_t kept = 0;
	for (size_t r = 0; r < q->nrows; r++) {
		if (slice_has(sl, (long)r, (long)q->nrows)) {
			q->index[kept] = (long)r;
			q->rows[kept++] = q->rows[r];
			continue;
		}
		for (size_t v = 0; v < (q->nvars ? q->nvars : 1); v++)
			free(q->rows[r][v]);
		free(q->rows[r]);
	}
	q->nrows = kept;
}

/* The items of a queue statement: after the keyword (mode 'i'n, 'f'rom
 * or 'm'atching), the qualifiers (files, dirs or any for matching, a
 * slice), then the list: "(...)" on the line, "(" with the items on the
 * lines that follow up to one that begins with ")" (*used: how many
 * lines of more it took, comments among them), or what the line says
 * (in: the items; matching: the patterns; from: a file, or "-" for
 * standard input).  A "from" item is a line,
 * split into the variables; "in" items and "matching" patterns are words
 * (split at commas and white space), as HTCondor's submit reads them. */
static int queue_items(struct sub_queue *q, char mode, char *rest, char **more,
		       size_t nmore, size_t *used, const char *name,
		       const char *dir, const struct sub_cmdline *cl,
		       struct ks_err *err)
{
	bool files = true, dirs = true;
	struct slice sl = {0};
	int line = q->line;
	while (*rest && *rest != '(') {
		size_t wl = strcspn(rest, " \t([");
		if (*rest == '[') {
			char *after = slice_parse(rest, &sl);
			if (!after)
				return ks_err_set(err, KS_EPARSE, line, 0, 0,
						  "on Line %d of %s: Invalid [::] "
						  "statement", line, name);
			rest = ks_trim(after);
		} else if (mode == 'm' && wl == 5 && !strncasecmp(rest, "files", 5)) {
			dirs = false, files = true;
			rest = ks_trim(rest + wl);
		} else if (mode == 'm' && wl == 4 && !strncasecmp(rest, "dirs", 4)) {
			files = false, dirs = true;
			rest = ks_trim(rest + wl);
		} else if (mode == 'm' && wl == 3 && !strncasecmp(rest, "any", 3)) {
			files = dirs = true;
			rest = ks_trim(rest + wl);
		} else {
			break;
		}
	}
	char **words = NULL;
	size_t nwords = 0;
	int rc = 0;
	size_t len = strlen(rest);
	if (*rest == '(' && len > 1 && rest[len - 1] == ')') {
		/* the whole list on this line */
		rest[len - 1] = '\0';
		char *list = ks_trim(rest + 1);
		if (mode == 'f')
			row_from_item(q, list);
		else
			add_words(&words, &nwords, list);
	} else if (*rest == '(') {
		/* the list goes on to a line that begins with ")" */
		char *first = ks_trim(rest + 1);
		if (mode == 'f' && *first)
			row_from_item(q, first);
		else if (*first)
			add_words(&words, &nwords, first);
		size_t k = 0;
		bool closed = false;
		while (k < nmore) {
			char *l = ks_trim(more[k++]);
			if (*l == ')') {
				closed = true;
				break;
			}
			if (!*l || *l == '#')
				continue;
			if (mode == 'f')
				row_from_item(q, l);
			else
				add_words(&words, &nwords, l);
		}
		*used = k;
		if (!closed)
			rc = ks_err_set(err, KS_EPARSE, line, 0, 0,
					"on Line %d of %s: Reached end of file "
					"without finding closing brace ')' for "
					"Queue command on line %d", line, name,
					line);
	} else if (mode == 'f') {
		if (!*rest)
			rc = ks_err_set(err, KS_EPARSE, line, 0, 0,
					"on Line %d of %s: no items file after "
					"from", line, name);
		else
			rc = rows_from(q, dir, rest, name, cl, err);
	} else {
		add_words(&words, &nwords, rest);
	}
	if (mode == 'i') {
		for (size_t i = 0; i < nwords; i++)
			row_from_item(q, words[i]);
	} else if (mode == 'm') {
		rows_matching(q, dir, words, nwords, files, dirs);
	}
	free_words(words, nwords);
	if (!rc)
		slice_rows(q, &sl);
	return rc;
}

/* "queue [N] [vars] [in (...) | from FILE | matching ...]", the text
 * after the keyword; more is the rest of the file for an item list that
 * goes on after this line.  *used is how many following lines it took. */
static int parse_queue(struct sub_file *f, char *args, char **more,
		       size_t nmore, size_t *used, int line, const char *name,
		       const char *dir, const struct sub_cmdline *cl,
		       struct ks_err *err)
{
	struct sub_queue q = {.count = 1, .line = line,
			      .nvars_set = f->nvars, .src = add_src(f, name)};
	*used = 0;
	char *s = ks_trim(args);
	if (isdigit((unsigned char)*s)) {
		char *end;
		q.count = strtol(s, &end, 10);
		s = ks_trim(end);
	}
	/* the variables, up to the keyword */
	char *kw = NULL;
	const char *kws[] = {" in ", " from ", " matching ", NULL};
	size_t plen = strlen(s) + 3;
	char *padded = ks_xmalloc(plen);
	snprintf(padded, plen, " %s ", s);
	size_t at = strlen(padded);
	for (size_t i = 0; kws[i]; i++) {
		char *p = strcasestr(padded, kws[i]);
		if (p && (size_t)(p - padded) < at) {
			at = (size_t)(p - padded);
			kw = (char *)kws[i];
		}
	}
	char *rest = NULL;
	if (kw) {
		padded[at] = '\0';
		rest = ks_trim(padded + at + strlen(kw));
	} else if (*ks_trim(padded)) {
		/* "queue x" alone: HTCondor reads it as a count that is not a
		 * number */
		int rc = ks_err_set(err, KS_EPARSE, line, 0, 0,
				    "on Line %d of %s: Unexpected text after "
				    "Queue: %s", line, name, ks_trim(padded));
		free(padded);
		return rc;
	}
	char **names;
	size_t nn = split_words(ks_trim(padded), &names, 0);
	if (!nn && kw) {
		names = ks_xcalloc(1, sizeof(*names));
		names[0] = ks_xstrdup("Item");
		nn = 1;
	}
	q.vars = ks_xcalloc(nn + 1, sizeof(*q.vars));
	for (size_t i = 0; i < nn; i++)
		q.vars[i] = names[i];
	free(names);
	q.nvars = nn;
	q.listed = kw != NULL;
	int rc = kw ? queue_items(&q, kw[1], rest, more, nmore, used, name,
				  dir, cl, err)
		    : 0;
	free(padded);
	f->queues = ks_xrealloc(f->queues, (f->nqueues + 1) * sizeof(*f->queues));
	f->queues[f->nqueues++] = q;
	return rc;
}

/* ---- reading: lines, if blocks, include ---------------------------- */

struct reader {
	struct sub_file *f;
	const char *dir;
	int depth; /* include nesting */
	/* the -append lines, read again before each queue statement (so
	 * that they win over what the description sets), as HTCondor reads
	 * them; NULL: none */
	const char *append;
	bool in_append;
	const struct sub_cmdline *cl; /* NULL: none */
};

/* How the -append lines are named in errors. */
#define APPEND_NAME "the -append lines"

/* How deep includes nest, as HTCondor's configuration reader allows. */
#define INCLUDE_MAX 20

/* A macro as an if condition or an include line sees it: the file's
 * variables so far (the latest wins), then the predefined ones. */
static const char *parse_lookup(void *arg, const char *name, size_t len)
{
	const struct sub_file *f = arg;
	for (size_t i = f->nvars; i-- > 0;)
		if (!f->vars[i].attr && !strncasecmp(f->vars[i].name, name, len) &&
		    !f->vars[i].name[len])
			return f->vars[i].value;
	for (size_t i = 0; i < f->ndefs; i++)
		if (!strncasecmp(f->defs[i].name, name, len) &&
		    !f->defs[i].name[len])
			return f->defs[i].value;
	return NULL;
}

static struct ks_expand_opts parse_opts(struct sub_file *f)
{
	return (struct ks_expand_opts){.lookup = parse_lookup, .arg = f,
				       .self_empty = true,
				       .max_len = SUB_EXPAND_MAX};
}

/* An if/elif/else/endif line (the configuration's rules, conditions read
 * against the file so far): 1 if it was one, 0 if not, or KS_EPARSE with
 * err naming the file and line in HTCondor's words. */
static int if_line(struct ks_ifs *st, struct sub_file *f, const char *s,
		   int line, const char *name, struct ks_err *err)
{
	struct ks_expand_opts o = parse_opts(f);
	char msg[600];
	int rc = ks_ifs_line(st, s, &o, msg, sizeof(msg));
	if (rc < 0)
		return ks_err_set(err, KS_EPARSE, line, 0, 0,
				  "on Line %d of %s: %s", line, name, msg);
	return rc;
}

static int read_text(struct reader *r, const char *text, size_t len,
		     const char *name, struct ks_err *err);

/* "include [ifexist] : FILE" (the name expanded against the file so far,
 * relative to the submit directory): 0 if s is not one, else 1 when read,
 * or an error. */
static int include_line(struct reader *r, const char *s, int line,
			const char *name, struct ks_err *err)
{
	const char *p = s + (*s == '@');
	if (strncasecmp(p, "include", 7) ||
	    !(isspace((unsigned char)p[7]) || p[7] == ':'))
		return 0;
	p += 7;
	const char *colon = p + strcspn(p, ":=");
	if (*colon != ':')
		return 0; /* "include = ...": a macro of that name */
	bool ifexist = false;
	char words[64] = "";
	size_t wl = (size_t)(colon - p);
	snprintf(words, sizeof(words), "%.*s", (int)(wl < 63 ? wl : 63), p);
	char *w = ks_trim(words);
	if (!strcasecmp(w, "ifexist")) {
		ifexist = true;
	} else if (*w) {
		/* include command (and into): kestrel's condor_submit runs no
		 * command a description names */
		return ks_err_set(err, KS_EPARSE, line, 0, 0,
				  "on Line %d of %s: include %s is not "
				  "supported (only include and include "
				  "ifexist of a file)", line, name, w);
	}
	struct ks_expand_opts o = parse_opts(r->f);
	char *file = ks_expand(&o, colon + 1, NULL);
	char *t = file ? ks_trim(file) : NULL;
	if (!t || !*t) {
		free(file);
		return ks_err_set(err, KS_EPARSE, line, 0, 0,
				  "on Line %d of %s: include names no file",
				  line, name);
	}
	if (r->depth + 1 >= INCLUDE_MAX) {
		free(file);
		return ks_err_set(err, KS_EPARSE, line, 0, 0,
				  "on Line %d of %s: includes nested too deep",
				  line, name);
	}
	char *path = ks_path_in(r->dir, t);
	FILE *fp = fopen(path, "r");
	int rc = 1;
	if (!fp) {
		if (!ifexist)
			rc = ks_err_set(err, KS_EPARSE, line, 0, 0,
					"on Line %d of %s: cannot open the "
					"include file %s: %s", line, name, t,
					strerror(errno));
	} else {
		size_t n;
		char *inner = ks_read_all(fp, &n);
		fclose(fp);
		r->depth++;
		int irc = read_text(r, inner, n, t, err);
		r->depth--;
		free(inner);
		if (irc)
			rc = irc;
	}
	free(path);
	free(file);
	return rc;
}

/* Reads the statements of text (a file called name) into r->f. */
static int read_text(struct reader *r, const char *text, size_t len,
		     const char *name, struct ks_err *err)
{
	struct sub_file *out = r->f;
	const char *dir = r->dir;
	/* a NUL would end the text early, and what follows it would be lost
	 * without a word: a description is text, and a binary file or a
	 * damaged one is refused, at the line that holds it */
	const char *nul = len ? memchr(text, '\0', len) : NULL;
	if (nul) {
		int at = 1;
		for (const char *p = text; p < nul; p++)
			at += *p == '\n';
		return ks_err_set(err, KS_EPARSE, at, 0, (size_t)(nul - text),
				  "on Line %d of %s: the line holds a NUL byte "
				  "(byte %zu of the file): a submit description "
				  "must be text", at, name,
				  (size_t)(nul - text) + 1);
	}
	/* lines, with a trailing backslash joining the next */
	char *copy = ks_xstrndup(text, len);
	char **lines = NULL;
	int *numbers = NULL;
	size_t n = 0;
	int lineno = 0;
	struct classad_buf cur = {0};
	int first = 0;
	for (char *p = copy; p;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		size_t l = strlen(p);
		if (l && p[l - 1] == '\r')
			p[--l] = '\0';
		if (!cur.len)
			first = lineno;
		bool cont = l && p[l - 1] == '\\';
		classad_buf_add(&cur, p, cont ? l - 1 : l);
		if (!cont || !nl) {
			lines = ks_xrealloc(lines, (n + 1) * sizeof(*lines));
			numbers = ks_xrealloc(numbers, (n + 1) * sizeof(*numbers));
			lines[n] = ks_xstrdup(cur.data ? cur.data : "");
			numbers[n++] = first;
			cur.len = 0;
		}
		p = nl ? nl + 1 : NULL;
	}
	free(cur.data);
	free(copy);
	int rc = 0;
	struct ks_ifs st = KS_IFS_INIT;
	for (size_t i = 0; i < n && !rc; i++) {
		char *s = ks_trim(lines[i]);
		if (!*s || *s == '#')
			continue;
		s = ks_trim(ks_ifs_unhide(&st, s));
		if ((rc = if_line(&st, out, s, numbers[i], name, err)) != 0) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		if (!ks_ifs_enabled(&st))
			continue;
		if ((rc = include_line(r, s, numbers[i], name, err)) != 0) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		if (!strncasecmp(s, "queue", 5) &&
		    (!s[5] || isspace((unsigned char)s[5]))) {
			if (r->in_append) {
				rc = ks_err_set(err, KS_EPARSE, numbers[i], 0, 0,
						"on Line %d of %s: a queue "
						"statement cannot come from the "
						"command line", numbers[i], name);
				break;
			}
			if (r->append) {
				r->in_append = true;
				rc = read_text(r, r->append, strlen(r->append),
					       APPEND_NAME, err);
				r->in_append = false;
				if (rc)
					break;
			}
			size_t used;
			rc = parse_queue(out, s + 5, lines + i + 1, n - i - 1,
					 &used, numbers[i], name, dir, r->cl,
					 err);
			i += used;
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			rc = ks_err_set(err, KS_EPARSE, numbers[i], 0, 0,
					"on Line %d of %s: syntax error: %s",
					numbers[i], name, s);
			break;
		}
		*eq = '\0';
		char *key = ks_trim(s), *value = ks_trim(eq + 1);
		bool attr = false;
		if (*key == '+') {
			key = ks_trim(key + 1);
			attr = true;
		} else if (!strncasecmp(key, "MY.", 3)) {
			key += 3;
			attr = true;
		}
		if (!*key) {
			rc = ks_err_set(err, KS_EPARSE, numbers[i], 0, 0,
					"on Line %d of %s: a name is missing "
					"before '='", numbers[i], name);
			break;
		}
		/* a macro's name as HTCondor's reader takes one; a job
		 * attribute's as a ClassAd can hold it (HTCondor takes any,
		 * and the job ad cannot be read back) */
		if (attr && !ks_name_is_attr(key, strlen(key))) {
			rc = ks_err_set(err, KS_EPARSE, numbers[i], 0, 0,
					"on Line %d of %s: %s is not a valid "
					"attribute name (a letter or '_', then "
					"letters, digits and '_')", numbers[i],
					name, key);
			break;
		}
		if (!attr && !ks_config_valid_name(key, strlen(key))) {
			rc = ks_err_set(err, KS_EPARSE, numbers[i], 0, 0,
					"on Line %d of %s: Illegal Identifier: "
					"<%s>", numbers[i], name, key);
			break;
		}
		add_var(out, key, value, attr, numbers[i], add_src(out, name));
	}
	/* (named by its last line, not the empty one after the last
	 * newline) */
	int last = lineno - (len && text[len - 1] == '\n' && lineno > 1);
	if (!rc && st.top > 1)
		rc = ks_err_set(err, KS_EPARSE, last, 0, 0,
				"on Line %d of %s: endif(s) not found before "
				"end-of-file", last, name);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(numbers);
	return rc;
}

static void add_def(struct sub_file *f, const char *name, const char *value)
{
	sub_names_add(f->names, name, strlen(name));
	f->defs = ks_xrealloc(f->defs, (f->ndefs + 1) * sizeof(*f->defs));
	f->defs[f->ndefs++] = (struct sub_var){ks_xstrdup(name),
					       ks_xstrdup(value), false, 0, NULL};
}

/* HTCondor's SubmitMacroDefaults, as its condor_submit fills them in. */
static void add_defs(struct sub_file *f, const char *file,
		     const ks_config *cfg, long long now)
{
	static const char *const from_cfg[] = {
		"ARCH", "OPSYS", "OPSYSANDVER", "OPSYSMAJORVER", "OPSYSVER",
		"SPOOL"};
	for (size_t i = 0; i < sizeof(from_cfg) / sizeof(*from_cfg); i++) {
		char *v = cfg ? ks_config_get(cfg, from_cfg[i], NULL) : NULL;
		add_def(f, from_cfg[i], v ? v : "");
		free(v);
	}
#ifdef __linux__
	add_def(f, "IsLinux", "1");
#else
	add_def(f, "IsLinux", "0");
#endif
	add_def(f, "IsWindows", "0");
	add_def(f, "JobId", "$(ClusterId).$(ProcId)");
	add_def(f, "JobListId", "$(ClusterId)");
	/* so that a description setting RequestMemory (the attribute's
	 * name) still has a $(request_memory) */
	add_def(f, "Request_CPUs", "$(RequestCPUs)");
	add_def(f, "Request_Memory", "$(RequestMemory)");
	add_def(f, "VM_MEMORY", "$(Request_Memory)");
	add_def(f, "VM_VCPUS", "$(Request_CPUs)");
	add_def(f, "SUBMIT_FILE", file ? file : "");
	/* the local date of the submission, and its time in seconds */
	time_t t = (time_t)now;
	struct tm tm;
	char buf[32];
	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y", &tm);
	add_def(f, "Year", buf);
	strftime(buf, sizeof(buf), "%m", &tm);
	add_def(f, "Month", buf);
	strftime(buf, sizeof(buf), "%d", &tm);
	add_def(f, "Day", buf);
	snprintf(buf, sizeof(buf), "%lld", now);
	add_def(f, "SUBMIT_TIME", buf);
}

int sub_file_read(const char *text, size_t len, const char *name,
		  const char *file, const char *dir, const ks_config *cfg,
		  long long now, const struct sub_cmdline *cl,
		  struct sub_file *out, struct ks_err *err)
{
	memset(out, 0, sizeof(*out));
	add_defs(out, file, cfg, now);
	struct reader r = {.f = out, .dir = dir, .cl = cl,
			   .append = cl && cl->append && *cl->append
					     ? cl->append
					     : NULL};
	int rc = 0;
	if (cl && cl->args && *cl->args) {
		/* (no queue statement there: append is for them) */
		r.in_append = true;
		rc = read_text(&r, cl->args, strlen(cl->args),
			       "the command line", err);
		r.in_append = false;
	}
	if (!rc)
		rc = read_text(&r, text, len, name, err);
	if (rc)
		sub_file_free(out);
	return rc;
}

int sub_file_parse(const char *text, size_t len, const char *name,
		   const char *dir, struct sub_file *out, struct ks_err *err)
{
	return sub_file_read(text, len, name, name, dir, NULL,
			     (long long)time(NULL), NULL, out, err);
}

bool sub_file_has_jobs(const struct sub_file *f)
{
	for (size_t i = 0; i < f->nqueues; i++)
		if (f->queues[i].count > 0 &&
		    (!f->queues[i].listed || f->queues[i].nrows > 0))
			return true;
	return false;
}

void sub_file_free(struct sub_file *f)
{
	for (size_t i = 0; i < f->nvars; i++) {
		free(f->vars[i].name);
		free(f->vars[i].value);
	}
	free(f->vars);
	for (size_t i = 0; i < f->ndefs; i++) {
		free(f->defs[i].name);
		free(f->defs[i].value);
	}
	free(f->defs);
	for (size_t i = 0; i < f->nqueues; i++) {
		struct sub_queue *q = &f->queues[i];
		for (size_t r = 0; r < q->nrows; r++) {
			for (size_t v = 0; v < q->nvars; v++)
				free(q->rows[r][v]);
			free(q->rows[r]);
		}
		free(q->rows);
		free(q->index);
		for (size_t v = 0; v < q->nvars; v++)
			free(q->vars[v]);
		free(q->vars);
	}
	free(f->queues);
	for (size_t i = 0; i < f->nsrcs; i++)
		free(f->srcs[i]);
	free(f->srcs);
	memset(f, 0, sizeof(*f));
}
