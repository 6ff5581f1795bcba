/*
 * sc_transform_int.h: a job transform as read from its configuration
 * text (transform_parse.c), apart from applying it (transform.c), so
 * that the reading can be fuzzed on its own.
 */
#ifndef SC_TRANSFORM_INT_H
#define SC_TRANSFORM_INT_H

#include <stddef.h>

enum op { OP_REQUIREMENTS, OP_SET, OP_DEFAULT, OP_EVALSET, OP_EVALMACRO,
	  OP_COPY, OP_RENAME, OP_DELETE, OP_MACRO };

struct step {
	enum op op;
	char *a; /* attribute or macro name */
	char *b; /* expression text (unexpanded) or the new name */
	int line;
};

struct transform {
	char *name;
	struct step *steps;
	size_t n;
};

/* Reads a transform's text (name is kept in t->name).  Returns 0, or
 * the number of the first line that does not parse (t then holds the
 * steps before it; free with sc_transform_free()). */
int sc_transform_parse(const char *name, const char *text,
		       struct transform *t);
void sc_transform_free(struct transform *t);

/* The language's words, for the user maps' lines too: p past blanks;
 * the next word (up to a blank or '='; new string, or NULL at the end),
 * p moved past it. */
const char *sc_transform_skip_ws(const char *p);
char *sc_transform_word(const char **p);

#endif
