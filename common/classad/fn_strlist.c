/*
 * fn_strlist.c: functions over string lists ("a, b, c"): stringListSize(),
 * stringListSum/Avg/Min/Max(), stringListMember(), stringListIMember(),
 * stringListSubsetMatch(), stringListISubsetMatch(),
 * stringListsIntersect().
 */
#include <float.h>
#include <stdlib.h>

#include "fn.h"

/* Evaluates 1..max arguments that must all be strings; the optional last
 * one is the delimiter set.  Returns 1 ok, 0 done (error), -1 failed. */
static int string_args(struct ca_state *st, const struct ca_call *c,
		       uint32_t min, uint32_t max, classad_value *a,
		       classad_value *out)
{
	int rc = ca_call_args(st, c, min, max, a, out);
	if (rc <= 0)
		return rc;
	for (uint32_t i = 0; i < c->n; i++) {
		if (a[i].type != CLASSAD_STRING) {
			ca_clear_n(a, c->n);
			ca_err(out);
			return 0;
		}
	}
	return 1;
}

CA_FN(ca_fn_strlist_size)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = string_args(st, c, 1, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	struct ca_tokens t;
	ca_tokens_init(&t, a[0].u.s->s, a[0].u.s->len, c->n == 2 ? a[1].u.s->s : ", ");
	const char *tok;
	size_t len;
	int64_t n = 0;
	while (ca_token_next(&t, &tok, &len))
		n++;
	ca_set_int(out, n);
	ca_clear_n(a, 2);
	return true;
}

CA_FN(ca_fn_strlist_summarize)
{
	classad_value a[2] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT};
	int rc = string_args(st, c, 1, 2, a, out);
	if (rc <= 0)
		return rc == 0;
	const char *which = c->name->s + 10; /* after "stringList" */
	bool sum = strcasecmp(which, "Sum") == 0;
	bool avg = strcasecmp(which, "Avg") == 0;
	bool min = strcasecmp(which, "Min") == 0;
	/* HTCondor starts min at FLT_MAX and max at FLT_MIN (the smallest
	 * positive float), so stringListMax("-1,-2") is 0. */
	double acc = (sum || avg) ? 0.0 : min ? FLT_MAX : FLT_MIN;
	bool real = false;
	int cnt = 0;
	struct ca_tokens t;
	ca_tokens_init(&t, a[0].u.s->s, a[0].u.s->len, c->n == 2 ? a[1].u.s->s : ", ");
	const char *tok;
	size_t len;
	while (ca_token_next(&t, &tok, &len)) {
		cnt++;
		char buf[128];
		size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
		memcpy(buf, tok, n);
		buf[n] = '\0';
		char *end;
		double x = strtod(buf, &end);
		if (end == buf) {
			out->type = CLASSAD_ERROR;
			goto done;
		}
		if (strspn(buf, "+-0123456789") != len)
			real = true;
		if (sum || avg)
			acc += x;
		else if (min)
			acc = x < acc ? x : acc;
		else
			acc = x > acc ? x : acc;
	}
	if (cnt == 0) {
		if (sum || avg)
			ca_set_real(out, 0.0);
		else
			out->type = CLASSAD_UNDEFINED;
		goto done;
	}
	if (avg)
		acc /= cnt;
	if (real)
		ca_set_real(out, acc);
	else
		ca_set_int(out, ca_double_to_i64(acc));
done:
	ca_clear_n(a, 2);
	return true;
}

/* Is (s, len) among the tokens of list? */
static bool token_in(const char *s, size_t len, const char *list,
		     size_t list_len, const char *delims, bool icase)
{
	struct ca_tokens t;
	ca_tokens_init(&t, list, list_len, delims);
	const char *tok;
	size_t n;
	while (ca_token_next(&t, &tok, &n)) {
		if (n == len && (icase ? strncasecmp(tok, s, len) == 0
				       : memcmp(tok, s, len) == 0))
			return true;
	}
	return false;
}

CA_FN(ca_fn_strlist_member)
{
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	int rc = ca_call_args(st, c, 2, 3, a, out);
	if (rc <= 0)
		return rc == 0;
	for (uint32_t i = 0; i < c->n; i++) {
		if (a[i].type != CLASSAD_UNDEFINED &&
		    a[i].type != CLASSAD_STRING) {
			ca_clear_n(a, 3);
			return ca_err(out);
		}
	}
	if (a[0].type == CLASSAD_UNDEFINED && a[1].type == CLASSAD_UNDEFINED) {
		ca_clear_n(a, 3);
		return ca_undef(out);
	}
	/* Undefined otherwise reads as an empty string. */
	const char *item = a[0].type == CLASSAD_STRING ? a[0].u.s->s : "";
	size_t ilen = a[0].type == CLASSAD_STRING ? a[0].u.s->len : 0;
	const char *list = a[1].type == CLASSAD_STRING ? a[1].u.s->s : "";
	size_t llen = a[1].type == CLASSAD_STRING ? a[1].u.s->len : 0;
	const char *delims = (c->n == 3 && a[2].type == CLASSAD_STRING)
				     ? a[2].u.s->s
				     : ", \t\r\n";
	const char *op = c->name->s + 10; /* after "stringList" */
	bool icase = *op == 'I' || *op == 'i';
	if (icase)
		op++;
	bool result;
	if (*op == 'M' || *op == 'm') {
		result = token_in(item, ilen, list, llen, delims, icase);
	} else if (ilen == 0) {
		result = true; /* the empty list is a subset of anything */
	} else {
		/* As HTCondor: false if item has no tokens, or the list
		 * none, or any token is missing. */
		result = false;
		struct ca_tokens t;
	ca_tokens_init(&t, item, ilen, delims);
		const char *tok;
		size_t n;
		while (ca_token_next(&t, &tok, &n)) {
			result = token_in(tok, n, list, llen, delims, icase);
			if (!result)
				break;
		}
	}
	ca_set_bool(out, result);
	ca_clear_n(a, 3);
	return true;
}

CA_FN(ca_fn_strlists_intersect)
{
	if (c->n != 2 && c->n != 3)
		return ca_err(out);
	classad_value a[3] = {CLASSAD_VALUE_INIT, CLASSAD_VALUE_INIT,
			      CLASSAD_VALUE_INIT};
	/* HTCondor answers error, not failure, if an argument fails. */
	for (uint32_t i = 0; i < c->n; i++) {
		if (!ca_arg(st, c, i, &a[i])) {
			ca_clear_n(a, 3);
			return ca_err(out);
		}
	}
	bool delim = c->n == 3;
	if (a[0].type == CLASSAD_ERROR || a[1].type == CLASSAD_ERROR ||
	    (delim && a[2].type == CLASSAD_ERROR)) {
		out->type = CLASSAD_ERROR;
	} else if (a[0].type == CLASSAD_UNDEFINED ||
		   a[1].type == CLASSAD_UNDEFINED ||
		   (delim && a[2].type == CLASSAD_UNDEFINED)) {
		out->type = CLASSAD_UNDEFINED;
	} else if ((delim && a[2].type != CLASSAD_STRING) ||
		   a[0].type != CLASSAD_STRING || a[1].type != CLASSAD_STRING) {
		out->type = CLASSAD_ERROR;
	} else {
		const char *d = delim && a[2].u.s->len ? a[2].u.s->s : " ,";
		bool hit = false;
		/* Items are split without trimming; empty ones are skipped. */
		const char *s = a[0].u.s->s;
		while (*s && !hit) {
			size_t n = strcspn(s, d);
			if (n > 0) {
				const char *t = a[1].u.s->s;
				while (*t && !hit) {
					size_t m = strcspn(t, d);
					if (m == n && memcmp(s, t, n) == 0)
						hit = true;
					t += m;
					if (*t)
						t++;
				}
				s += n;
			}
			if (*s)
				s++;
		}
		ca_set_bool(out, hit);
	}
	ca_clear_n(a, 3);
	return true;
}
