/*
 * fn_table.c: the builtin functions by name (names ignore case), and
 * helpers the builtins share.
 *
 * The table holds HTCondor's ClassAd library functions plus those its
 * daemons register (stringList*, split*, userHome, userMap,
 * evalInEachContext, countMatches).  Note that HTCondor registers the
 * regular-expression string-list member test as "stringList_regexpMember";
 * "stringListRegexpMember" is not defined there, and so not here either.
 */
#include <stdlib.h>
#include <time.h>

#include "fn.h"
#include "ks_name.h"

/* Sorted by name, ignoring case (checked by the unit tests). */
static const struct ca_builtin builtins[] = {
	{"absTime", ca_fn_conv_time},
	{"allCompare", ca_fn_list_compare},
	{"anyCompare", ca_fn_list_compare},
	{"avg", ca_fn_sum_avg},
	{"bool", ca_fn_bool},
	{"ceil", ca_fn_round},
	{"ceiling", ca_fn_round},
	{"countMatches", ca_fn_eval_in_each},
	{"currentTime", ca_fn_current_time},
	{"dayTime", ca_fn_day_time},
	{"debug", ca_fn_debug},
	{"eval", ca_fn_eval},
	{"evalInEachContext", ca_fn_eval_in_each},
	{"floor", ca_fn_round},
	{"formatTime", ca_fn_format_time},
	{"getDayOfMonth", ca_fn_get_field},
	{"getDayOfWeek", ca_fn_get_field},
	{"getDayOfYear", ca_fn_get_field},
	{"getDays", ca_fn_get_field},
	{"getHours", ca_fn_get_field},
	{"getMinutes", ca_fn_get_field},
	{"getMonth", ca_fn_get_field},
	{"getSeconds", ca_fn_get_field},
	{"getYear", ca_fn_get_field},
	{"identicalMember", ca_fn_member},
	{"ifThenElse", ca_fn_if_then_else},
	{"int", ca_fn_int},
	{"interval", ca_fn_interval},
	{"isAbstime", ca_fn_is_type},
	{"isBoolean", ca_fn_is_type},
	{"isClassAd", ca_fn_is_type},
	{"isError", ca_fn_is_type},
	{"isInteger", ca_fn_is_type},
	{"isList", ca_fn_is_type},
	{"isReal", ca_fn_is_type},
	{"isReltime", ca_fn_is_type},
	{"isString", ca_fn_is_type},
	{"isUndefined", ca_fn_is_type},
	{"join", ca_fn_strcat},
	{"max", ca_fn_min_max},
	{"member", ca_fn_member},
	{"min", ca_fn_min_max},
	{"pow", ca_fn_pow},
	{"quantize", ca_fn_quantize},
	{"random", ca_fn_random},
	{"real", ca_fn_real},
	{"regexp", ca_fn_regexp},
	{"regexpMember", ca_fn_regexp_member},
	{"regexps", ca_fn_regexps},
	{"relTime", ca_fn_conv_time},
	{"replace", ca_fn_regexps},
	{"replaceAll", ca_fn_regexps},
	{"round", ca_fn_round},
	{"size", ca_fn_size},
	{"split", ca_fn_split},
	{"splitSlotName", ca_fn_split_at},
	{"splitTime", ca_fn_split_time},
	{"splitUserName", ca_fn_split_at},
	{"strcat", ca_fn_strcat},
	{"strcmp", ca_fn_strcmp},
	{"stricmp", ca_fn_strcmp},
	{"string", ca_fn_string},
	{"stringList_regexpMember", ca_fn_strlist_regexp_member},
	{"stringListAvg", ca_fn_strlist_summarize},
	{"stringListIMember", ca_fn_strlist_member},
	{"stringListISubsetMatch", ca_fn_strlist_member},
	{"stringListMax", ca_fn_strlist_summarize},
	{"stringListMember", ca_fn_strlist_member},
	{"stringListMin", ca_fn_strlist_summarize},
	{"stringListsIntersect", ca_fn_strlists_intersect},
	{"stringListSize", ca_fn_strlist_size},
	{"stringListSubsetMatch", ca_fn_strlist_member},
	{"stringListSum", ca_fn_strlist_summarize},
	{"substr", ca_fn_substr},
	{"sum", ca_fn_sum_avg},
	{"time", ca_fn_time},
	{"timeZoneOffset", ca_fn_tz_offset},
	{"toLower", ca_fn_change_case},
	{"toUpper", ca_fn_change_case},
	{"unparse", ca_fn_unparse},
	{"unresolved", ca_fn_unresolved},
	{"userHome", ca_fn_user_home},
	{"userMap", ca_fn_user_map},
	{"version_in_range", ca_fn_version_in_range},
	{"versioncmp", ca_fn_version_cmp},
	{"versionEQ", ca_fn_version_cmp},
	{"versionGE", ca_fn_version_cmp},
	{"versionGT", ca_fn_version_cmp},
	{"versionLE", ca_fn_version_cmp},
	{"versionLT", ca_fn_version_cmp},
};


const struct ca_builtin *ca_builtin_find(const char *name, size_t len)
{
	return ks_name_find(name, len, builtins,
			    sizeof(builtins) / sizeof(builtins[0]),
			    sizeof(builtins[0]));
}

size_t ca_builtin_count(void);
const char *ca_builtin_name(size_t i);

size_t ca_builtin_count(void)
{
	return sizeof(builtins) / sizeof(builtins[0]);
}

const char *ca_builtin_name(size_t i)
{
	return builtins[i].name;
}

bool ca_args(struct ca_state *st, const struct ca_call *c, uint32_t n,
	     classad_value *vals, classad_value *out)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!ca_eval(st, c->args[i], &vals[i])) {
			ca_clear_n(vals, i + 1);
			return ca_fail(out);
		}
	}
	return true;
}

void ca_tokens_init(struct ca_tokens *t, const char *s, size_t len,
		    const char *delims)
{
	t->s = s;
	t->len = len;
	t->pos = 0;
	memset(t->delim, 0, sizeof(t->delim));
	for (const unsigned char *d = (const unsigned char *)delims; *d; d++)
		t->delim[*d >> 3] |= (uint8_t)(1u << (*d & 7));
}

static bool tok_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool tok_delim(const struct ca_tokens *t, unsigned char c)
{
	return t->delim[c >> 3] & (1u << (c & 7));
}

bool ca_token_next(struct ca_tokens *t, const char **tok, size_t *len)
{
	const unsigned char *s = (const unsigned char *)t->s;
	size_t ix = t->pos;
	while (ix < t->len && s[ix] && (tok_delim(t, s[ix]) || tok_space(s[ix])))
		ix++;
	size_t start = ix, end = ix;
	while (ix < t->len && s[ix] && !tok_delim(t, s[ix])) {
		if (!tok_space(s[ix]))
			end = ix;
		ix++;
	}
	t->pos = ix;
	if (ix <= start)
		return false;
	*tok = t->s + start;
	*len = end - start + 1;
	return true;
}

uint64_t ca_random(struct ca_state *st)
{
	/* splitmix64 over a state kept in the environment when there is
	 * one, else seeded from the clock. */
	uint64_t *state = st->env ? &((classad_env *)st->env)->rng : NULL;
	uint64_t local;
	if (!state || *state == 0) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		local = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
			(uint64_t)ts.tv_sec ^ (uintptr_t)st;
		if (state)
			*state = local | 1;
		else
			state = &local;
	}
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
