/*
 * config_int.h: what the files of common/config share.  Not installed.
 */
#ifndef KS_CONFIG_INT_H
#define KS_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "ks_mem.h"

/* Where a macro came from: an index into cfg->sources, or one of these. */
enum {
	KC_SRC_DEFAULT = -1,
	KC_SRC_ENV = -2,
};

struct kc_macro {
	char *name;  /* as first written */
	char *value; /* raw, self-references expanded */
	int source;  /* index into cfg->sources or KC_SRC_* */
	int line;
	char *use;   /* "CATEGORY:Template" or NULL */
};

/* A growable string. */

struct ks_config {
	char *subsys;
	char *localname;
	struct kc_macro *macros; /* in order of first definition */
	size_t n, cap;
	uint32_t *index; /* open addressing: macro index + 1, 0 empty */
	size_t index_cap;
	char **sources; /* names of everything read: files, templates, ... */
	size_t nsources;
	size_t *files; /* which sources are files (for -config) */
	size_t nfiles;
	char **warnings;
	size_t nwarnings;
	uint64_t rng; /* $RANDOM_INTEGER() and $RANDOM_CHOICE() */
	/* TILDE, the condor user's home, is looked up when first asked for:
	 * a user that does not exist costs a tour of every name service
	 * (a millisecond or two), and few configurations use it; USERNAME
	 * and DETECTED_* likewise (kc_settle()). */
	int tilde_source; /* the builtins' source; -1 once looked up */
	/* kc_lookup()'s answers, a name's whole LOCALNAME./SUBSYS./default
	 * search each (a daemon asks for the same knobs over and over);
	 * emptied by every kc_insert() */
	struct kc_memo *memo; /* open addressing; name NULL: empty */
	size_t memo_cap, memo_n;
};

struct kc_memo {
	char *name;
	const char *value; /* NULL: the name has no value */
};

/* ---- table.c ---- */
struct kc_macro *kc_find(const ks_config *cfg, const char *name, size_t len);
/* Defines name (replacing its value and origin if it exists).  A new
 * macro whose value equals its default is not stored, as in HTCondor. */
void kc_insert(ks_config *cfg, const char *name, const char *value,
	       int source, int line, const char *use);
int kc_add_source(ks_config *cfg, const char *name, bool is_file);
bool kc_valid_name(const char *name, size_t len);
/* The raw value of name after the LOCALNAME./SUBSYS./default rules, or
 * NULL; origin may be NULL. */
const char *kc_lookup(const ks_config *cfg, const char *name, size_t len,
		      struct ks_config_origin *origin);
/* The next pick of the generator whose state is *state (seeded from the
 * time and pid when 0). */
uint64_t kc_random_step(uint64_t *state);
uint64_t kc_random(ks_config *cfg);
/* Defines the macros computed when first wanted, because each costs a
 * password database lookup or a read of /sys (TILDE, USERNAME,
 * DETECTED_*), unless the configuration defined them.  Only memoizes, so
 * it takes a const configuration. */
void kc_settle(const ks_config *cfg);

/* ---- buf (table.c): helpers over libclassad's text buffer ---- */
void kc_buf_adds(struct classad_buf *b, const char *s);
void kc_buf_addc(struct classad_buf *b, char c);
/* Replaces n bytes at pos with s[0..sn). */
void kc_buf_splice(struct classad_buf *b, size_t pos, size_t n, const char *s,
		   size_t sn);
char *kc_buf_take(struct classad_buf *b);
void *ks_xmalloc(size_t n);
void *ks_xrealloc(void *p, size_t n);
char *ks_xstrndup(const char *s, size_t n);
char *ks_xstrdup(const char *s);

/* ---- expand.c ---- */
/* Expands every macro of text.  keep_dollar leaves $(DOLLAR) in place (for
 * nested expansions).  Returns a new string or NULL with err filled. */
char *kc_expand(const ks_config *cfg, const char *text, bool keep_dollar,
		struct ks_err *err);
/* Expands only references to name itself (and to name without the
 * subsystem or local-name prefix), against the current definition. */
char *kc_expand_self(const ks_config *cfg, const char *text,
		     const char *name);
/* Substitutes a template's $(0) $(1) $(1?) $(0#) $(2+) arguments. */
char *kc_expand_meta_args(const char *text, const char *args);
bool kc_has_meta_args(const char *text);

/* ---- ifcond.c ---- */
/* Evaluates the condition of an if or elif line.  Returns true with
 * *result set, or false with why filled (a sentence fragment). */
bool kc_if_condition(const ks_config *cfg, const char *expr, bool *result,
		     char *why, size_t whylen);

/* ---- read.c ---- */
struct kc_reader;
/* Reads configuration text as source (an index into cfg->sources); depth
 * counts include and use nesting.  For a template, use is its
 * "CATEGORY:Name" and use_line the line of the use statement, where its
 * definitions are said to come from. */
int kc_read(ks_config *cfg, int source, const char *text, size_t len,
	    int depth, const char *use, int use_line, struct ks_err *err);

/* Reads a file, or the output of a command (is_command, or a name ending
 * in '|').  A missing file is no error unless must_exist. */
int kc_read_source(ks_config *cfg, const char *name, bool is_command,
		   bool must_exist, int depth, struct ks_err *err);
/* Whether a template category (ROLE, POLICY, ...) exists. */
bool kc_category_known(const char *category);

#define KC_MAX_DEPTH 20

#endif
