/*
 * reader.c: reading ads from text: old syntax ("Name = value" lines, as
 * condor_q -l and condor_status -l print them), new syntax ("[ ... ]") and
 * JSON, one ad or a sequence of them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "classad_int.h"

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

/* Does the line [s, e) hold only white space? */
static bool blank(const char *s, const char *e)
{
	for (; s < e; s++)
		if (!space(*s))
			return false;
	return true;
}

/* A comment line: '#' first after spaces and tabs. */
static bool comment(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s < e && *s == '#';
}

struct span {
	const char *s, *e; /* a content line, without its newline */
	int line;
};

/* Finds the content lines of the ad at text: up to the first blank line
 * after some content.  Returns how many; *next is where reading stops. */
static size_t scan_lines(const char *text, const char *end, int line0,
			 struct span **spans, size_t *cap, bool *heap,
			 const char **next, int *lines)
{
	size_t n = 0;
	int line = line0;
	const char *p = text;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = nl ? nl + 1 : end;
		line++;
		const char *c = p;
		while (c < le && (*c == ' ' || *c == '\t'))
			c++;
		if (c == le || blank(c, le)) {
			if (n) {
				p = q;
				break;
			}
		} else if (*c != '#') {
			if (n == *cap) {
				/* Move from the caller's stack buffer to the
				 * heap on the first growth. */
				struct span *bigger =
					ks_xmalloc(*cap * 2 * sizeof(**spans));
				memcpy(bigger, *spans, n * sizeof(**spans));
				if (*heap)
					free(*spans);
				*spans = bigger;
				*heap = true;
				*cap *= 2;
			}
			(*spans)[n].s = c;
			(*spans)[n].e = le;
			(*spans)[n].line = line - 1;
			n++;
		}
		p = q;
	}
	*next = p;
	*lines = line - line0;
	return n;
}

static bool parse_line(classad *ad, const struct span *sp, const char *text,
		       classad_cache *cache, struct ks_err *err)
{
	const char *s = sp->s, *le = sp->e, *p = sp->s;
	int line = sp->line;
	while (s < le && space(*s))
		s++;
	const char *eq = memchr(s, '=', (size_t)(le - s));
	if (!eq) {
		int n = (int)(le - s > 40 ? 40 : le - s);
		ks_err_set(err, KS_EPARSE, line, 1, (size_t)(s - text),
			   "expected 'Name = value', found '%.*s'", n, s);
		return false;
	}
	const char *ne = eq;
	while (ne > s && (ne[-1] == ' ' || ne[-1] == '\t'))
		ne--;
	if (ne == s) {
		ks_err_set(err, KS_EPARSE, line, 1, (size_t)(s - text),
			   "an attribute name is missing before '='");
		return false;
	}
	int nlen = (int)(ne - s > 60 ? 60 : ne - s);
	const char *v = eq + 1;
	while (v < le && *v == ' ')
		v++;
	const char *ve = le;
	while (ve > v && space(ve[-1]))
		ve--;
	if (v == ve) {
		ks_err_set(err, KS_EPARSE, line, (int)(eq - p) + 1,
			   (size_t)(eq - text), "attribute '%.*s' has no value",
			   nlen, s);
		return false;
	}
	struct ks_err sub;
	struct ca_str *name;
	classad_expr *e;
	if (ca_cache_line(cache, s, (size_t)(ne - s), v, (size_t)(ve - v), &name,
			  &e, &sub) != 0) {
		int col = (int)(v - p) + sub.col;
		ks_err_set(err, KS_EPARSE, line, col,
			   (size_t)(v - text) + sub.offset,
			   "in the value of '%.*s': %s", nlen, s, sub.msg);
		return false;
	}
	if (ca_ad_insert(ad, name, e) != 0) {
		ks_err_set(err, KS_ERANGE, line, 1, (size_t)(s - text),
			   "too many attributes in one ad (at most %d)",
			   CA_AD_MAX);
		return false;
	}
	return true;
}

classad *ca_parse_ad_old(const char *text, size_t len, size_t *used,
			 int line0, int *lines, classad_cache *cache,
			 struct ks_err *err)
{
	ks_err_clear(err);
	struct span local[192], *spans = local;
	size_t cap = sizeof(local) / sizeof(local[0]);
	bool heap = false;
	const char *next;
	int nlines;
	size_t n = scan_lines(text, text + len, line0, &spans, &cap, &heap,
			      &next, &nlines);
	classad *ad = classad_new();
	ca_ad_reserve(ad, (uint32_t)(n < CA_AD_MAX ? n : CA_AD_MAX));
	for (size_t i = 0; i < n; i++) {
		if (!parse_line(ad, &spans[i], text, cache, err)) {
			classad_free(ad);
			if (heap)
				free(spans);
			return NULL;
		}
	}
	if (heap)
		free(spans);
	*used = (size_t)(next - text);
	if (lines)
		*lines = nlines;
	ca_ad_compact(ad);
	return ad;
}

/* Skips white space and comments of new syntax and JSON. */
static size_t skip_blank(const char *t, size_t len, size_t pos)
{
	for (;;) {
		while (pos < len && space(t[pos]))
			pos++;
		if (pos + 1 < len && t[pos] == '/' && t[pos + 1] == '/') {
			while (pos < len && t[pos] != '\n')
				pos++;
		} else if (pos + 1 < len && t[pos] == '/' && t[pos + 1] == '*') {
			size_t p = pos + 2;
			while (p + 1 < len && !(t[p] == '*' && t[p + 1] == '/'))
				p++;
			if (p + 1 >= len)
				return pos;
			pos = p + 2;
		} else {
			return pos;
		}
	}
}

/* Positions in err from a sub-parse of text + base become positions in
 * the whole text. */
static void rebase(const char *text, size_t base, struct ks_err *err)
{
	if (!err || !err->code)
		return;
	err->offset += base;
	ca_text_position(text, err->offset, &err->line, &err->col);
}

struct classad_reader {
	const char *text;
	size_t len;
	size_t pos;
	enum classad_format fmt;
	classad_cache *cache;
	int line;         /* old syntax: the line at pos */
	bool json_array;  /* inside a JSON [ ... ] */
	bool started;
	bool done;
};

classad_reader *classad_reader_new(const char *text, size_t len,
				   enum classad_format fmt,
				   classad_cache *cache)
{
	classad_reader *r = ks_xcalloc(1, sizeof(*r));
	r->text = text;
	/* A NUL byte ends the text, as it ends HTCondor's input. */
	const char *nul = memchr(text, '\0', len);
	r->len = nul ? (size_t)(nul - text) : len;
	r->fmt = fmt;
	r->cache = cache;
	r->line = 1;
	return r;
}

void classad_reader_free(classad_reader *r)
{
	free(r);
}

static int next_old(classad_reader *r, classad **out, struct ks_err *err)
{
	/* Skip blank and comment lines between ads. */
	while (r->pos < r->len) {
		const char *p = r->text + r->pos, *end = r->text + r->len;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (!blank(p, le) && !comment(p, le))
			break;
		r->pos = (size_t)((nl ? nl + 1 : end) - r->text);
		r->line++;
	}
	if (r->pos >= r->len)
		return 0;
	size_t used;
	int lines;
	classad *ad = ca_parse_ad_old(r->text + r->pos, r->len - r->pos, &used,
				      r->line, &lines, r->cache, err);
	if (!ad)
		return err ? err->code : KS_EPARSE;
	r->line += lines;
	r->pos += used;
	*out = ad;
	return 1;
}

static int next_structured(classad_reader *r, classad **out,
			   struct ks_err *err)
{
	const char *t = r->text;
	size_t pos = skip_blank(t, r->len, r->pos);
	if (r->fmt == CLASSAD_FMT_JSON && !r->started && pos < r->len &&
	    t[pos] == '[') {
		r->json_array = true;
		pos = skip_blank(t, r->len, pos + 1);
	}
	r->started = true;
	if (r->json_array) {
		if (pos < r->len && t[pos] == ',')
			pos = skip_blank(t, r->len, pos + 1);
		if (pos < r->len && t[pos] == ']') {
			r->pos = skip_blank(t, r->len, pos + 1);
			r->done = true;
			if (r->pos < r->len) {
				int line, col;
				ca_text_position(t, r->pos, &line, &col);
				return ks_err_set(err, KS_EPARSE, line, col,
						  r->pos,
						  "text after the end of the "
						  "JSON array");
			}
			return 0;
		}
	}
	if (pos >= r->len || t[pos] == '\0') {
		r->pos = pos;
		if (r->json_array) {
			int line, col;
			ca_text_position(t, pos, &line, &col);
			return ks_err_set(err, KS_EPARSE, line, col, pos,
					  "the JSON array is not closed with "
					  "']'");
		}
		return 0;
	}
	size_t used = 0;
	classad *ad = r->fmt == CLASSAD_FMT_JSON
			      ? ca_parse_ad_json(t + pos, r->len - pos, &used, err)
			      : ca_parse_ad_new(t + pos, r->len - pos, &used, err);
	if (!ad) {
		rebase(t, pos, err);
		return err ? err->code : KS_EPARSE;
	}
	r->pos = pos + used;
	*out = ad;
	return 1;
}

int classad_reader_next(classad_reader *r, classad **out, struct ks_err *err)
{
	*out = NULL;
	ks_err_clear(err);
	if (r->done)
		return 0;
	int rc = r->fmt == CLASSAD_FMT_OLD ? next_old(r, out, err)
					   : next_structured(r, out, err);
	if (rc <= 0)
		r->done = true;
	return rc;
}

size_t classad_reader_pos(const classad_reader *r)
{
	return r->pos;
}

classad *classad_parse(const char *text, size_t len, enum classad_format fmt,
		       classad_cache *cache, struct ks_err *err)
{
	const char *nul = memchr(text, '\0', len);
	classad_reader r = {.text = text,
			    .len = nul ? (size_t)(nul - text) : len,
			    .fmt = fmt,
			    .cache = cache,
			    .line = 1};
	classad *ad = NULL, *extra = NULL;
	int rc = classad_reader_next(&r, &ad, err);
	if (rc < 0)
		return NULL;
	if (rc == 0) {
		if (fmt == CLASSAD_FMT_OLD)
			return classad_new(); /* an empty ad */
		ks_err_set(err, KS_EPARSE, 1, 1, 0,
			   "no ad in the text (expected '%s')",
			   fmt == CLASSAD_FMT_JSON ? "{" : "[");
		return NULL;
	}
	size_t at = r.pos;
	rc = classad_reader_next(&r, &extra, err);
	if (rc != 0) {
		classad_free(extra);
		classad_free(ad);
		if (rc > 0) {
			int line, col;
			ca_text_position(text, at, &line, &col);
			ks_err_set(err, KS_EPARSE, line, col, at,
				   "more than one ad in the text (read several "
				   "with classad_reader)");
		}
		return NULL;
	}
	return ad;
}
