/*
 * transform_parse.c: the transform language's lines into steps
 * (sc_transform_int.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "sc_transform_int.h"

static const struct {
	const char *word;
	enum op op;
	int args; /* 1: name and the rest; 2: two names; 0: the rest */
} ops[] = {
	{"REQUIREMENTS", OP_REQUIREMENTS, 0}, {"SET", OP_SET, 1},
	{"DEFAULT", OP_DEFAULT, 1},	      {"EVALSET", OP_EVALSET, 1},
	{"EVALMACRO", OP_EVALMACRO, 1},	      {"COPY", OP_COPY, 2},
	{"RENAME", OP_RENAME, 2},	      {"DELETE", OP_DELETE, 3},
};

const char *sc_transform_skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

char *sc_transform_word(const char **p)
{
	const char *b = *p = sc_transform_skip_ws(*p);
	while (**p && !isspace((unsigned char)**p) && **p != '=')
		(*p)++;
	return *p > b ? ks_xstrndup(b, (size_t)(*p - b)) : NULL;
}

/* One line into a step; 0, 1 (blank or comment) or -1 (malformed). */
static int parse_line(const char *line, struct step *st)
{
	const char *p = sc_transform_skip_ws(line);
	if (!*p || *p == '#')
		return 1;
	const char *q = p;
	char *w = sc_transform_word(&q);
	if (!w)
		return -1;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strcasecmp(w, ops[i].word) != 0)
			continue;
		free(w);
		st->op = ops[i].op;
		if (ops[i].args == 0) {
			st->b = ks_xstrdup(sc_transform_skip_ws(q));
			return *st->b ? 0 : -1;
		}
		st->a = sc_transform_word(&q);
		if (!st->a)
			return -1;
		q = sc_transform_skip_ws(q);
		if (ops[i].args == 1 && *q == '=')
			q = sc_transform_skip_ws(q + 1);
		if (ops[i].args == 3)
			return *q ? -1 : 0;
		if (ops[i].args == 2) {
			if (*q == '=')
				q++;
			st->b = sc_transform_word(&q);
			return st->b && !*sc_transform_skip_ws(q) ? 0 : -1;
		}
		st->b = ks_xstrdup(q);
		return *st->b ? 0 : -1;
	}
	/* NAME = text: a macro */
	q = sc_transform_skip_ws(q);
	if (*q != '=') {
		free(w);
		return -1;
	}
	st->op = OP_MACRO;
	st->a = w;
	st->b = ks_xstrdup(sc_transform_skip_ws(q + 1));
	return 0;
}

void sc_transform_free(struct transform *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->steps[i].a);
		free(t->steps[i].b);
	}
	free(t->steps);
	free(t->name);
}

int sc_transform_parse(const char *name, const char *text,
		       struct transform *t)
{
	t->name = ks_xstrdup(name);
	int lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = ks_xstrndup(p, len);
		lineno++;
		struct step st = {.line = lineno};
		int rc = parse_line(ks_trim(line), &st);
		free(line);
		if (rc < 0) {
			free(st.a);
			free(st.b);
			return lineno;
		}
		if (rc == 0) {
			t->steps = ks_xrealloc(t->steps,
					       (t->n + 1) * sizeof(*t->steps));
			t->steps[t->n++] = st;
		}
		p += len + (nl ? 1 : 0);
	}
	return 0;
}

