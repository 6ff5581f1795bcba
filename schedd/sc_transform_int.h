/*
 * sc_transform_int.h: a job transform as read from its configuration
 * text (transform_parse.c), apart from applying it (transform.c), so
 * that the reading can be fuzzed on its own.
 */
#ifndef SC_TRANSFORM_INT_H
#define SC_TRANSFORM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ks_err.h"

enum op { OP_REQUIREMENTS, OP_SET, OP_DEFAULT, OP_EVALSET, OP_EVALMACRO,
	  OP_COPY, OP_RENAME, OP_DELETE, OP_MACRO,
	  OP_IF /* an if, elif, else or endif line, whole in b */ };

struct step {
	enum op op;
	char *a;  /* attribute or macro name; a regular expression's text;
		   * NULL for REQUIREMENTS and IF */
	char *b;  /* expression text or new name (unexpanded); NULL for
		   * DELETE */
	int line;
	void *re; /* COPY, RENAME, DELETE /re/: the compiled pattern
		   * (pcre2_code, matched ignoring case), else NULL */
};

struct transform {
	char *name;
	struct step *steps;
	size_t n;
	/* Statements the schedd reads and does not act on, as HTCondor's
	 * does (0 when absent), for the notes at load: */
	int universe_line;  /* UNIVERSE: the job router's target universe */
	int transform_line; /* the TRANSFORM statement that ended reading */
	bool loops;	    /* it names a loop (condor_transform_ads's) */
	int unread_line;    /* the first statement after it, not read */
};

/* Reads a transform's text (name is kept in t->name).  Returns 0, or
 * the number of the first line that is wrong, with err (NULL allowed)
 * saying what is wrong with it (t then holds the steps before it).
 * Either way free t with sc_transform_free(). */
int sc_transform_parse(const char *name, const char *text,
		       struct transform *t, struct ks_err *err);
void sc_transform_free(struct transform *t);

/* True if s is a valid attribute name (a letter or _, then letters,
 * digits and _), as a transform's new names must be. */
bool sc_transform_attr_ok(const char *s);

/* The language's words, for the user maps' lines too: p past blanks;
 * the next word (up to a blank or '='; new string, or NULL at the end),
 * p moved past it. */
const char *sc_transform_skip_ws(const char *p);
char *sc_transform_word(const char **p);

#endif
