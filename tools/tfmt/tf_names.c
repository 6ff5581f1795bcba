/*
 * tf_names.c: sets of attribute names, the projection a query asks for:
 * only what the columns, the sort and the summary read.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "tfmt.h"

/* Where name is, or would go. */
static size_t tf_names_pos(const struct tf_names *s, const char *name,
			   bool *found)
{
	size_t lo = 0, hi = s->n;
	*found = false;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcasecmp(s->v[mid], name);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void tf_names_add(struct tf_names *s, const char *name)
{
	bool found;
	size_t at = tf_names_pos(s, name, &found);
	if (found)
		return;
	s->v = ks_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	memmove(s->v + at + 1, s->v + at, (s->n - at) * sizeof *s->v);
	s->v[at] = ks_xstrdup(name);
	s->n++;
}

bool tf_names_has(const struct tf_names *s, const char *name)
{
	bool found;
	tf_names_pos(s, name, &found);
	return found;
}

static bool tf_idstart(char c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool tf_idchar(char c)
{
	return tf_idstart(c) || (c >= '0' && c <= '9');
}

/* A scan of the text rather than of the parsed expression: the text may
 * not parse (a -format argument is checked later), and a projection
 * only has to cover what the columns read. */
void tf_names_add_expr(struct tf_names *s, const char *expr)
{
	static const char *const keywords[] = {"true", "false", "undefined",
					       "error", "is", "isnt", NULL};
	const char *p = expr;
	bool after_dot = false;
	while (*p) {
		if (*p == '"' || *p == '\'') {
			char quote = *p++;
			while (*p && *p != quote) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p)
				p++;
			after_dot = false;
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			while (tf_idchar(*p) || *p == '.' ||
			       ((*p == '+' || *p == '-') &&
				(p[-1] == 'e' || p[-1] == 'E')))
				p++;
			after_dot = false;
			continue;
		}
		if (!tf_idstart(*p)) {
			after_dot = *p == '.';
			p++;
			continue;
		}
		const char *st = p;
		while (tf_idchar(*p))
			p++;
		size_t len = (size_t)(p - st);
		const char *r = p;
		while (*r == ' ' || *r == '\t')
			r++;
		bool skip = after_dot || *r == '(';
		for (int k = 0; keywords[k] && !skip; k++)
			if (strlen(keywords[k]) == len &&
			    strncasecmp(keywords[k], st, len) == 0)
				skip = true;
		if (*r == '.' && ((len == 2 && strncasecmp(st, "MY", 2) == 0) ||
				  (len == 6 && strncasecmp(st, "TARGET", 6) == 0) ||
				  (len == 6 && strncasecmp(st, "PARENT", 6) == 0))) {
			/* MY.x names x */
			p = r + 1;
			after_dot = false;
			continue;
		}
		if (!skip) {
			char *name = ks_xstrndup(st, len);
			tf_names_add(s, name);
			free(name);
		}
		after_dot = false;
	}
}

char *tf_names_join(const struct tf_names *s)
{
	struct classad_buf b = {0};
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			tf_buf_addc(&b, ' ');
		tf_buf_add(&b, s->v[i]);
	}
	return b.data ? b.data : ks_xstrdup("");
}

void tf_names_clear(struct tf_names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
