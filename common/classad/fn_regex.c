/*
 * fn_regex.c: regular expressions (PCRE2, as HTCondor uses): regexp(),
 * regexpMember(), regexps(), replace(), replaceAll(),
 * stringList_regexpMember().
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>

#include "fn.h"

static uint32_t pcre_options(uint32_t o)
{
	uint32_t p = 0;
	if (o & CA_RE_CASELESS)
		p |= PCRE2_CASELESS;
	if (o & CA_RE_MULTILINE)
		p |= PCRE2_MULTILINE;
	if (o & CA_RE_DOTALL)
		p |= PCRE2_DOTALL;
	if (o & CA_RE_EXTENDED)
		p |= PCRE2_EXTENDED;
	return p;
}

static pcre2_code *compile(const char *pattern, uint32_t options)
{
	int code;
	PCRE2_SIZE off;
	return pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			     pcre_options(options), &code, &off, NULL);
}

bool ca_regex_compile_ok(const char *pattern, uint32_t options)
{
	pcre2_code *re = compile(pattern, options);
	pcre2_code_free(re);
	return re != NULL;
}

bool ca_regex_search(const char *pattern, uint32_t options,
		     const char *subject, size_t len, bool *matched)
{
	*matched = false;
	pcre2_code *re = compile(pattern, options);
	if (!re)
		return false;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int rc = pcre2_match(re, (PCRE2_SPTR)subject, len, 0,
			     (options & CA_RE_NOTEMPTY) ? PCRE2_NOTEMPTY : 0,
			     md, NULL);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	*matched = rc > 0;
	return rc >= 0 || rc == PCRE2_ERROR_NOMATCH;
}

/* Options from an option string: i, m, s, x; with replace, also f (keep
 * the unmatched text) and g (every match). */
static uint32_t parse_options(const char *s, bool *full, bool *all)
{
	uint32_t o = 0;
	if (strchr(s, 'i'))
		o |= CA_RE_CASELESS;
	if (strchr(s, 'm'))
		o |= CA_RE_MULTILINE;
	if (strchr(s, 's'))
		o |= CA_RE_DOTALL;
	if (strchr(s, 'x'))
		o |= CA_RE_EXTENDED;
	*full = strchr(s, 'f') != NULL;
	*all = strchr(s, 'g') != NULL;
	return o;
}

/* HTCondor's regexp_helper: matches pattern against target; without
 * replace the result is whether it matched, with replace the text built
 * from the replacement (\0..\9 name the groups). */
static void regex_helper(const char *pattern, const char *target,
			 const char *replace, const char *opts,
			 classad_value *out)
{
	bool full = false, all = false;
	uint32_t options = parse_options(opts ? opts : "", &full, &all);
	if (!replace)
		full = all = false;
	pcre2_code *re = compile(pattern, options);
	if (!re) {
		ca_set_error(out);
		return;
	}
	size_t tlen = strlen(target), idx = 0;
	struct classad_buf o = {0};
	bool empty_match = false;
	int status;
	bool error = false;
	do {
		uint32_t flags = empty_match
					 ? PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED
					 : 0;
		pcre2_match_data *md =
			pcre2_match_data_create_from_pattern(re, NULL);
		status = pcre2_match(re, (PCRE2_SPTR)target, tlen, idx, flags,
				     md, NULL);
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (empty_match && status == PCRE2_ERROR_NOMATCH) {
			/* Step over one character after an empty match. */
			if (idx < tlen)
				ca_buf_addc(&o, target[idx]);
			idx++;
			empty_match = false;
			status = 0;
			pcre2_match_data_free(md);
			continue;
		}
		if (status >= 0 && replace) {
			int ngroups = status;
			if (full && ov[0] >= idx)
				classad_buf_add(&o, target + idx, ov[0] - idx);
			for (const char *r = replace; *r; r++) {
				if (*r == '\\' && r[1] >= '0' && r[1] <= '9') {
					int g = *++r - '0';
					if (g >= ngroups) {
						error = true;
						break;
					}
					if (ov[2 * g] != PCRE2_UNSET)
						classad_buf_add(&o, target + ov[2 * g],
							   ov[2 * g + 1] -
								   ov[2 * g]);
				} else {
					ca_buf_addc(&o, *r);
				}
			}
			idx = ov[1];
			if (ov[0] == ov[1])
				empty_match = true;
		}
		pcre2_match_data_free(md);
	} while (!error && status >= 0 && all);
	pcre2_code_free(re);
	if (error || (status < 0 && status != PCRE2_ERROR_NOMATCH)) {
		ca_set_error(out);
	} else if (!replace) {
		ca_set_bool(out, status >= 0);
	} else {
		if (full && idx < tlen)
			classad_buf_add(&o, target + idx, tlen - idx);
		classad_value_set_string(out, o.data ? o.data : "", o.len);
	}
	free(o.data);
}

/* Evaluates the arguments of the regexp family: nfix fixed ones and an
 * optional options string.  Returns 1 to go on, 0 when out is decided,
 * -1 on a hard failure. */
static int regex_args(struct ca_state *st, const struct ca_call *c,
		      uint32_t nfix, classad_value *a, classad_value *out)
{
	int rc = ca_call_args(st, c, nfix, nfix + 1, a, out);
	if (rc <= 0)
		return rc;
	for (uint32_t i = 0; i < c->n; i++) {
		if (a[i].type == CLASSAD_ERROR) {
			ca_clear_n(a, c->n);
			ca_err(out);
			return 0;
		}
	}
	for (uint32_t i = 0; i < c->n; i++) {
		if (a[i].type == CLASSAD_UNDEFINED) {
			ca_clear_n(a, c->n);
			ca_undef(out);
			return 0;
		}
	}
	if (c->n == nfix + 1 && a[nfix].type != CLASSAD_STRING) {
		ca_clear_n(a, c->n);
		ca_err(out);
		return 0;
	}
	return 1;
}

CA_FN(ca_fn_regexp)
{
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	int rc = regex_args(st, c, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	if (a[0].type != CLASSAD_STRING || a[1].type != CLASSAD_STRING)
		out->type = CLASSAD_ERROR;
	else
		regex_helper(a[0].u.s->s, a[1].u.s->s, NULL,
			     c->n == 3 ? a[2].u.s->s : NULL, out);
	ca_clear_n(a, 3);
	return true;
}

CA_FN(ca_fn_regexps)
{
	classad_value a[4] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = regex_args(st, c, 3, a, out);
	if (rc <= 0)
		return rc == 0;
	struct classad_buf opts = {0};
	if (c->n == 4)
		classad_buf_add(&opts, a[3].u.s->s, a[3].u.s->len);
	if (ca_is_name(c, "replace"))
		ca_buf_adds(&opts, "f");
	else if (ca_is_name(c, "replaceAll"))
		ca_buf_adds(&opts, "fg");
	if (a[0].type != CLASSAD_STRING || a[1].type != CLASSAD_STRING ||
	    a[2].type != CLASSAD_STRING)
		out->type = CLASSAD_ERROR;
	else
		regex_helper(a[0].u.s->s, a[1].u.s->s, a[2].u.s->s,
			     opts.data ? opts.data : "", out);
	free(opts.data);
	ca_clear_n(a, 4);
	return true;
}

CA_FN(ca_fn_regexp_member)
{
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	int rc = regex_args(st, c, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	if (a[0].type != CLASSAD_STRING || a[1].type != CLASSAD_LIST) {
		ca_clear_n(a, 3);
		return ca_err(out);
	}
	ca_set_bool(out, false);
	bool maybe_undef = false;
	uint32_t n = ca_as_list(a[1].u.l.list)->n;
	for (uint32_t i = 0; i < n; i++) {
		classad_value item = CLASSAD_VALUE_INIT, m = CLASSAD_VALUE_INIT;
		if (!ca_eval_item(st, &a[1], i, &item)) {
			ca_value_clear(&item);
			ca_set_error(out);
			break;
		}
		if (item.type != CLASSAD_STRING) {
			if (item.type == CLASSAD_UNDEFINED) {
				maybe_undef = true;
				continue;
			}
			ca_value_clear(&item);
			ca_set_error(out);
			break;
		}
		regex_helper(a[0].u.s->s, item.u.s->s, NULL,
			     c->n == 3 ? a[2].u.s->s : NULL, &m);
		ca_value_clear(&item);
		/* A pattern that does not compile just never matches. */
		bool hit = m.type == CLASSAD_BOOLEAN && m.u.b;
		ca_value_clear(&m);
		if (hit) {
			ca_set_bool(out, true);
			break;
		}
	}
	if (out->type == CLASSAD_BOOLEAN && !out->u.b && maybe_undef)
		ca_set_undef(out);
	ca_clear_n(a, 3);
	return true;
}

CA_FN(ca_fn_strlist_regexp_member)
{
	classad_value a[4] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 4, a, out);
	if (rc <= 0)
		return rc == 0;
	for (uint32_t i = 0; i < c->n; i++) {
		if (a[i].type != CLASSAD_STRING) {
			ca_clear_n(a, 4);
			return ca_err(out);
		}
	}
	uint32_t options = 0;
	if (c->n == 4) {
		for (const char *o = a[3].u.s->s; *o; o++) {
			switch (*o) {
			case 'i': case 'I': options |= CA_RE_CASELESS; break;
			case 'm': case 'M': options |= CA_RE_MULTILINE; break;
			case 's': case 'S': options |= CA_RE_DOTALL; break;
			case 'x': case 'X': options |= CA_RE_EXTENDED; break;
			}
		}
	}
	if (!ca_regex_compile_ok(a[0].u.s->s, options)) {
		ca_clear_n(a, 4);
		return ca_err(out);
	}
	ca_set_bool(out, false);
	bool empty = true;
	struct ca_tokens t;
	ca_tokens_init(&t, a[1].u.s->s, a[1].u.s->len, c->n >= 3 ? a[2].u.s->s : ", ");
	const char *tok;
	size_t len;
	while (ca_token_next(&t, &tok, &len)) {
		empty = false;
		bool m = false;
		ca_regex_search(a[0].u.s->s, options, tok, len, &m);
		if (m)
			ca_set_bool(out, true);
	}
	if (empty)
		ca_set_undef(out);
	ca_clear_n(a, 4);
	return true;
}
