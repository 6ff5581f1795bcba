/*
 * fn.h: helpers shared by the builtin function files (internal).
 *
 * A builtin receives the evaluation state and its call node and fills out
 * (which holds nothing on entry).  It returns false only for a hard failure
 * (out is then error), which ends the whole evaluation -- as HTCondor's
 * functions do when an argument fails to evaluate.
 */
#ifndef CA_FN_H
#define CA_FN_H

#include "classad_int.h"

#define CA_FN(name)                                                      \
	bool name(struct ca_state *st, const struct ca_call *c,          \
		  classad_value *out)

/* Evaluates argument i into v (which must hold nothing). */
static inline bool ca_arg(struct ca_state *st, const struct ca_call *c,
			  uint32_t i, classad_value *v)
{
	return ca_eval(st, c->args[i], v);
}

/* Evaluates arguments 0..n-1 into vals[] in order, stopping at the first
 * hard failure; on failure all of vals[] are cleared and out is error. */
bool ca_args(struct ca_state *st, const struct ca_call *c, uint32_t n,
	     classad_value *vals, classad_value *out);

static inline bool ca_err(classad_value *out)
{
	out->type = CLASSAD_ERROR;
	return true;
}

static inline bool ca_fail(classad_value *out)
{
	out->type = CLASSAD_ERROR;
	return false;
}

static inline bool ca_undef(classad_value *out)
{
	out->type = CLASSAD_UNDEFINED;
	return true;
}

/* The start of a builtin that takes min..max arguments, all evaluated up
 * front into vals[] (which must hold nothing): 1 to go on, 0 when out is
 * decided (error, for a wrong count), -1 on a hard failure (as ca_args()).
 * On rc <= 0 the builtin returns rc == 0. */
static inline int ca_call_args(struct ca_state *st, const struct ca_call *c,
			       uint32_t min, uint32_t max, classad_value *vals,
			       classad_value *out)
{
	if (c->n < min || c->n > max) {
		ca_err(out);
		return 0;
	}
	return ca_args(st, c, c->n, vals, out) ? 1 : -1;
}

static inline void ca_clear_n(classad_value *vals, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		classad_value_clear(&vals[i]);
}

static inline bool ca_is_name(const struct ca_call *c, const char *name)
{
	return strcasecmp(c->name->s, name) == 0;
}

/* StringTokenIterator: tokens of s separated by any of delims, white space
 * trimmed, empty tokens skipped. */
struct ca_tokens {
	const char *s;
	size_t len;
	size_t pos;
	uint8_t delim[32]; /* bit set of the delimiter bytes */
};
void ca_tokens_init(struct ca_tokens *t, const char *s, size_t len,
		    const char *delims);
/* The next token; false at the end. */
bool ca_token_next(struct ca_tokens *t, const char **tok, size_t *len);

/* The RNG of random(): seeded per environment or per evaluation. */
uint64_t ca_random(struct ca_state *st);

/* In a match, sets *left and *right to the sides if root is a match's root
 * scope; false otherwise. */
bool ca_match_sides(const struct ca_scope *root, struct ca_scope **left,
		    struct ca_scope **right);

/* PCRE2 matching as HTCondor's regexp functions do it (fn_regex.c). */
#define CA_RE_CASELESS 0x1
#define CA_RE_MULTILINE 0x2
#define CA_RE_DOTALL 0x4
#define CA_RE_EXTENDED 0x8
#define CA_RE_NOTEMPTY 0x10 /* an empty match does not count */
bool ca_regex_compile_ok(const char *pattern, uint32_t options);
/* Sets *matched; false if the pattern does not compile or matching
 * fails. */
bool ca_regex_search(const char *pattern, uint32_t options,
		     const char *subject, size_t len, bool *matched);

/* The builtins, by file. */
CA_FN(ca_fn_is_type);
CA_FN(ca_fn_if_then_else);
CA_FN(ca_fn_eval);
CA_FN(ca_fn_unparse);
CA_FN(ca_fn_unresolved);
CA_FN(ca_fn_debug);
CA_FN(ca_fn_int);
CA_FN(ca_fn_real);
CA_FN(ca_fn_string);
CA_FN(ca_fn_bool);

CA_FN(ca_fn_round);
CA_FN(ca_fn_pow);
CA_FN(ca_fn_quantize);
CA_FN(ca_fn_random);

CA_FN(ca_fn_member);
CA_FN(ca_fn_size);
CA_FN(ca_fn_sum_avg);
CA_FN(ca_fn_min_max);
CA_FN(ca_fn_list_compare);
CA_FN(ca_fn_eval_in_each);

CA_FN(ca_fn_strcat);
CA_FN(ca_fn_change_case);
CA_FN(ca_fn_substr);
CA_FN(ca_fn_strcmp);
CA_FN(ca_fn_version_cmp);
CA_FN(ca_fn_version_in_range);
CA_FN(ca_fn_split);
CA_FN(ca_fn_split_at);

CA_FN(ca_fn_strlist_size);
CA_FN(ca_fn_strlist_summarize);
CA_FN(ca_fn_strlist_member);
CA_FN(ca_fn_strlists_intersect);

CA_FN(ca_fn_regexp);
CA_FN(ca_fn_regexp_member);
CA_FN(ca_fn_regexps);
CA_FN(ca_fn_strlist_regexp_member);

CA_FN(ca_fn_time);
CA_FN(ca_fn_current_time);
CA_FN(ca_fn_tz_offset);
CA_FN(ca_fn_day_time);
CA_FN(ca_fn_get_field);
CA_FN(ca_fn_split_time);
CA_FN(ca_fn_format_time);
CA_FN(ca_fn_interval);
CA_FN(ca_fn_conv_time);

CA_FN(ca_fn_user_home);
CA_FN(ca_fn_user_map);

#endif
