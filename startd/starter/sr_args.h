/*
 * sr_args.h: the job's argument and environment syntaxes, as HTCondor
 * writes them into a job ad, turned into argv and envp for execve().
 *
 * Arguments (the "new" syntax, V2 raw, attribute Arguments): arguments
 * are separated by whitespace; a single quote starts a quoted section in
 * which whitespace is kept and '' stands for one single quote; a quoted
 * section that is not closed is an error.  The submit file's outer double
 * quotes (arguments = "a 'b c'") and their "" escape are gone by the time
 * the text is in the ad; sr_args_unquote_v2() removes them when a text
 * still has them (STARTER_JOB_ENVIRONMENT).
 *
 * Args (the "old" syntax, V1 raw): whitespace separates, nothing quotes.
 *
 * Environment (new syntax): split as Arguments, each piece NAME=VALUE.
 * Env (old syntax): NAME=VALUE entries separated by ';' (or the ad's
 * EnvDelim, or a delimiter the text itself starts with) or by newlines,
 * leading whitespace of each entry dropped.  In both, an entry without
 * '=' is an error unless it holds "$$" (an unexpanded $$() macro, kept as
 * it is), and a later entry for a name replaces an earlier one.
 *
 * Pure string work: nothing here touches the process or the system.
 */
#ifndef SR_ARGS_H
#define SR_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "ks_err.h"

/* A growable vector of strings, always NULL-terminated (v is NULL only
 * while n == 0), so that v can go to execve().  Start zeroed; every string
 * in it is owned by the vector. */
struct sr_strv {
	char **v;
	size_t n;
	size_t cap;
};

/* Appends a copy of len bytes of s. */
void sr_strv_add(struct sr_strv *sv, const char *s, size_t len);
/* Frees the strings and the array; sv is zeroed again.  NULL allowed. */
void sr_strv_free(struct sr_strv *sv);

/* Appends the arguments of raw in the new syntax to out.  Returns 0, or
 * KS_EPARSE with err saying where an unbalanced quote starts (out keeps
 * the arguments before it). */
int sr_args_parse_v2(const char *raw, struct sr_strv *out, struct ks_err *err);

/* Appends the arguments of raw in the old syntax to out (never fails). */
void sr_args_parse_v1(const char *raw, struct sr_strv *out);

/* True if s (after leading whitespace) starts with a double quote: the
 * submit file's quoted form of the new syntax. */
bool sr_args_is_v2_quoted(const char *s);

/* Removes the outer double quotes of quoted and turns "" into ".
 * Sets *raw to a new string (free()).  Returns 0, or KS_EPARSE (with
 * *raw NULL) for a missing closing quote or text after it. */
int sr_args_unquote_v2(const char *quoted, char **raw, struct ks_err *err);

/* args[from..] joined back into the new syntax, quoting as needed (for
 * messages and logs).  Returns a new string (free()). */
char *sr_args_join_v2(const struct sr_strv *args, size_t from);

/* An environment: "NAME=VALUE" strings in kv.v, ready for execve(), plus
 * "$$" entries kept as they were, in the order first set.  Start zeroed. */
struct sr_env {
	struct sr_strv kv;
};

/* Sets name to value (a copy); value NULL keeps name as a bare entry.
 * Returns 0, or KS_EINVAL for an empty name or one holding '='. */
int sr_env_set(struct sr_env *env, const char *name, const char *value);

/* The value of name, or NULL if unset or bare.  Borrowed: valid until the
 * environment next changes. */
const char *sr_env_get(const struct sr_env *env, const char *name);

/* Merges one "NAME=VALUE" entry, as the syntaxes above define entries.
 * Returns 0 or KS_EPARSE with err filled. */
int sr_env_put(struct sr_env *env, const char *entry, struct ks_err *err);

/* Merges raw in the new syntax.  Returns 0 or KS_EPARSE with err filled
 * (entries before the bad one are kept). */
int sr_env_merge_v2(struct sr_env *env, const char *raw, struct ks_err *err);

/* Merges raw in the old syntax; delim is the ad's EnvDelim (0: ';').
 * Returns 0 or KS_EPARSE with err filled. */
int sr_env_merge_v1(struct sr_env *env, const char *raw, char delim,
		    struct ks_err *err);

/* Merges text that is either the new syntax in double quotes or the old
 * syntax bare (STARTER_JOB_ENVIRONMENT).  NULL merges nothing.  Returns 0
 * or KS_EPARSE with err filled. */
int sr_env_merge_v1_or_v2_quoted(struct sr_env *env, const char *text,
				 struct ks_err *err);

/* Replaces every occurrence of from (non-empty) by to in every value. */
void sr_env_replace_in_values(struct sr_env *env, const char *from,
			      const char *to);

/* Frees everything; env is zeroed again.  NULL allowed. */
void sr_env_free(struct sr_env *env);

#endif
