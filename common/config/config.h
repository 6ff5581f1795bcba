/*
 * config.h: HTCondor's configuration language.
 *
 * A ks_config holds the macros read from configuration files (and
 * templates, and _CONDOR_ environment overrides), each with where it was
 * defined.  Values are stored raw, with only self-references expanded,
 * and expanded when read, as HTCondor does: the latest definition of a
 * macro wins, and a macro may refer to one defined later.  Names ignore
 * case.  Lookups fall back on the knob table (knobs.h), HTCondor's
 * defaults.  See docs/configuration.md.
 *
 * Errors.  Reading stops at the first error, which fills the caller's
 * struct ks_err with a message naming the file and line; the ks_config
 * keeps what was read before it.  Load into a fresh ks_config and swap it
 * in only on success to keep an old configuration on a failed reconfig.
 *
 * A ks_config belongs to one thread at a time.
 */
#ifndef KS_CONFIG_H
#define KS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ks_err.h"

typedef struct ks_config ks_config;

/* A new, empty configuration for a daemon or tool of subsystem subsys
 * (e.g. "STARTD", "TOOL"; NULL for none) and local name (NULL for none):
 * lookups try LOCALNAME.NAME, then SUBSYS.NAME, then NAME.  Free with
 * ks_config_free(). */
ks_config *ks_config_new(const char *subsys, const char *localname);
void ks_config_free(ks_config *cfg);

/* Reads the whole configuration the way a daemon does at start-up: the
 * built-in macros (FULL_HOSTNAME, DETECTED_CORES, ...), the file named by
 * CONDOR_CONFIG (or the default locations; "ONLY_ENV" reads no file), the
 * files of LOCAL_CONFIG_FILE and LOCAL_CONFIG_DIR, then the _CONDOR_NAME
 * environment overrides.  Returns 0 or a KS_E* code with err filled. */
int ks_config_load(ks_config *cfg, struct ks_err *err);

/* ks_config_new() and ks_config_load() in one, as every tool and daemon
 * starts: the loaded configuration (ks_config_free()), or NULL with err
 * filled when it does not load. */
ks_config *ks_config_load_new(const char *subsys, const char *localname,
			      struct ks_err *err);

/* Reads one configuration file (a command if path ends with '|').
 * Returns 0 or a KS_E* code with err filled. */
int ks_config_read_file(ks_config *cfg, const char *path, struct ks_err *err);

/* Reads configuration text; name is what messages and -v call it. */
int ks_config_read_text(ks_config *cfg, const char *name, const char *text,
			size_t len, struct ks_err *err);

/* Sets one macro as if by a line "name = value" of source (a label such
 * as "<command line>"; NULL: "<internal>").  Returns 0 or KS_EINVAL for
 * an invalid name. */
int ks_config_set(ks_config *cfg, const char *name, const char *value,
		  const char *source);

/* The expanded value of name, or NULL if it is not defined or empty.
 * Returns a new string (free()); err (NULL allowed) says why on NULL when
 * the expansion itself failed (a loop, a bad $INT(), ...). */
char *ks_config_get(const ks_config *cfg, const char *name,
		    struct ks_err *err);

/* name as the startd reads it for one slot: SLOT<slot>_NAME, then (if
 * slot_type > 0) SLOT_TYPE_<slot_type>_NAME, then NAME.  Returns a new
 * string (free()) or NULL as ks_config_get(). */
char *ks_config_get_slot(const ks_config *cfg, const char *name, int slot,
			 int slot_type, struct ks_err *err);

/* Where a value came from. */
struct ks_config_origin {
	const char *file; /* a file, "<Default>", "<Environment>", ... */
	int line;         /* 0 when not from a file */
	const char *name; /* the name as found (with its prefix), borrowed */
	const char *use;  /* "CATEGORY:Template" when set by a use line */
};

/* The raw (unexpanded) value of name after the prefix and default rules,
 * or NULL.  Borrowed: valid until the configuration changes.  origin
 * (NULL allowed) says where it came from. */
const char *ks_config_raw(const ks_config *cfg, const char *name,
			  struct ks_config_origin *origin);

/* Expands $(...) references in text as a value would be.  Returns a new
 * string (free()) or NULL with err filled. */
char *ks_config_expand(const ks_config *cfg, const char *text,
		       struct ks_err *err);

/* ---- the same language over another set of macros ----
 *
 * condor_submit's values use the configuration's macro language ($(NAME),
 * $(NAME:default), $ENV(), $F...(), $INT(), $REAL(), $STRING(), $EVAL(),
 * $CHOICE(), $RANDOM_CHOICE(), $RANDOM_INTEGER(), $SUBSTR(), $BASENAME(),
 * $DIRNAME(), $(DOLLAR)) and its if conditions, with names of its own.
 * One implementation serves both: the caller says where names are
 * looked up. */

/* Looks up the raw (unexpanded) value of the macro named by the len bytes
 * at name (not NUL-terminated; letter case as the caller's language
 * wants).  Returns NULL when it is not defined.  The string stays the
 * callee's: it must stay valid until the next call of the function (the
 * expander copies a value before it looks up another). */
typedef const char *(*ks_macro_lookup_fn)(void *arg, const char *name,
					  size_t len);

struct ks_expand_opts {
	ks_macro_lookup_fn lookup; /* NULL: cfg's macros */
	void *arg;                 /* handed to lookup */
	/* The configuration (borrowed; NULL allowed when lookup is given):
	 * the macros when lookup is NULL, and the generator of
	 * $RANDOM_CHOICE() and $RANDOM_INTEGER() */
	const ks_config *cfg;
	/* A macro met again inside its own expansion expands to nothing
	 * (submit's rule); false: it is an error (the configuration's). */
	bool self_empty;
	/* > 0: a value that grows past max_len bytes, or takes too many
	 * expansions, stops there and is cut, without an error (submit's
	 * guard); 0: that is an error (the configuration's). */
	size_t max_len;
	bool keep_dollar; /* leave $(DOLLAR) as it is */
	/* HTCondor 25's submit: the argument of $F...(), $BASENAME() and
	 * $DIRNAME() that names no macro is the path itself ($Fn(/a/b.c) is
	 * "b"), and $BASENAME(name, suffix) drops the suffix.  Off for the
	 * configuration, whose vectors were recorded without it. */
	bool path_literals;
};

/* text with its macros expanded as o says.  Returns a new string
 * (free()), or NULL with err (NULL allowed) filled: a bad function call,
 * or a loop or runaway growth when o forbids them. */
char *ks_expand(const struct ks_expand_opts *o, const char *text,
		struct ks_err *err);

/* The condition of an "if" or "elif" line (what follows the keyword), as
 * HTCondor's configuration and submit files read it: expanded as o says,
 * then a number, a boolean, "defined NAME" (looked up as o says),
 * "version OP x.y[.z]", optionally negated with '!'.  Returns true with
 * *result set, or false with why (a sentence fragment, whylen bytes)
 * saying why it is not a condition. */
bool ks_if_condition(const struct ks_expand_opts *o, const char *expr,
		     bool *result, char *why, size_t whylen);

/* The if blocks open in one file, as HTCondor keeps them: a bit per
 * nesting level (bit 0 the file itself) in state (this branch is taken),
 * estate (some branch of this block was), istate (no else yet); top is
 * the innermost level's bit.  A file starts with KS_IFS_INIT. */
struct ks_ifs {
	uint64_t state, estate, istate, top;
};
#define KS_IFS_INIT {.state = 1, .top = 1}

/* Whether the lines at this point are read: every open block's branch
 * is taken. */
bool ks_ifs_enabled(const struct ks_ifs *st);

/* line without the ':' that hid an if line, or any line of an if body,
 * from readers older than HTCondor 8.1.5 (they are read without it).
 * Returns line or line + 1. */
char *ks_ifs_unhide(const struct ks_ifs *st, char *line);

/* An if, elif, else or endif line (blanks trimmed at its start), its
 * conditions read as o says (ks_if_condition()): returns 1 when it was
 * one, 0 when it is another line, -1 when it is wrong, with msg (size
 * bytes) in HTCondor's words ("else without matching if", "X is not a
 * valid if condition because ..."). */
int ks_ifs_line(struct ks_ifs *st, const char *line,
		const struct ks_expand_opts *o, char *msg, size_t size);

/* Typed reads of name, as HTCondor's param_integer() and friends: the
 * value may be an expression ("15 * 60").  Return true and set *out when
 * the name is defined and converts; false leaves *out unchanged. */
bool ks_config_int(const ks_config *cfg, const char *name, int64_t *out);
bool ks_config_double(const ks_config *cfg, const char *name, double *out);
bool ks_config_bool(const ks_config *cfg, const char *name, bool *out);

/* A knob's text as ks_config_bool() reads it (true/yes/t/y, false/no/
 * f/n in any case, else an expression that evaluates to a boolean):
 * false when it is none of these (*out untouched). */
bool ks_config_text_bool(const char *v, bool *out);

/* Whether the len bytes at name are a name a knob (or a submit
 * description's macro) may have, as HTCondor's is_valid_param_name()
 * decides: letters, digits, '_', '.' and '/'. */
bool ks_config_valid_name(const char *name, size_t len);

/* Iterates the macros defined by configuration (not defaults) in the order
 * they were first defined: start with *pos = 0.  *name and *raw are
 * borrowed. */
bool ks_config_next(const ks_config *cfg, size_t *pos, const char **name,
		    const char **raw, struct ks_config_origin *origin);

/* The files read, in order (borrowed). */
size_t ks_config_file_count(const ks_config *cfg);
const char *ks_config_file(const ks_config *cfg, size_t i);

/* The warnings that "warning :" lines produced (borrowed; NULL past the
 * end). */
const char *ks_config_warning(const ks_config *cfg, size_t i);

#endif
