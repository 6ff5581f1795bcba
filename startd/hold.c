/* hold.c: WANT_HOLD's hold reason and codes (sd_hold.h). */
#include "sd_hold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

/* e of slot_ad evaluated against job (*v cleared by the caller); false
 * when slot_ad has no such attribute. */
static bool eval(const classad *slot_ad, const classad *job, const char *name,
		 classad_value *v)
{
	const classad_expr *e = classad_lookup(slot_ad, name);
	if (!e)
		return false;
	classad_eval_expr_in_match(slot_ad, job, e, NULL, v);
	return true;
}

/* WANT_HOLD_SUBCODE as HTCondor reads a number: an integer, a real
 * (truncated) or a boolean; 0 for anything else. */
static int subcode_of(const classad *slot_ad, const classad *job)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int out = 0;
	if (eval(slot_ad, job, "WANT_HOLD_SUBCODE", &v)) {
		if (v.type == CLASSAD_INTEGER)
			out = (int)v.u.i;
		else if (v.type == CLASSAD_REAL && v.u.r == v.u.r &&
			 v.u.r < 2147483648.0 && v.u.r > -2147483649.0)
			out = (int)v.u.r;
		else if (v.type == CLASSAD_BOOLEAN)
			out = v.u.b ? 1 : 0;
	}
	classad_value_clear(&v);
	return out;
}

/* WANT_HOLD_REASON when it gives a non-empty string (new), else the
 * text HTCondor's startd writes, which quotes WANT_HOLD itself. */
static char *reason_of(const classad *slot_ad, const classad *job)
{
	classad_value v = CLASSAD_VALUE_INIT;
	char *out = NULL;
	if (eval(slot_ad, job, "WANT_HOLD_REASON", &v)) {
		const char *s = classad_value_str(&v, NULL);
		if (s && *s)
			out = ks_xstrdup(s);
	}
	classad_value_clear(&v);
	if (out)
		return out;
	const classad_expr *e = classad_lookup(slot_ad, "WANT_HOLD");
	char *expr = e ? classad_expr_unparse(e, false) : NULL;
	static const char head[] =
		"The startd put this job on hold.  (At preemption time, "
		"WANT_HOLD evaluated to true: ";
	size_t n = sizeof(head) + (expr ? strlen(expr) + 12 : 0) + 2;
	out = ks_xmalloc(n);
	snprintf(out, n, "%s%s%s)", head, expr ? "WANT_HOLD = " : "",
		 expr ? expr : "");
	free(expr);
	return out;
}

bool sd_hold_wanted(const classad *slot_ad, const classad *job,
		    struct sd_hold *out)
{
	classad_value v = CLASSAD_VALUE_INIT;
	bool want = false;
	if (eval(slot_ad, job, "WANT_HOLD", &v) &&
	    !classad_value_bool(&v, &want))
		want = false;
	classad_value_clear(&v);
	if (!want)
		return false;
	out->reason = reason_of(slot_ad, job);
	out->code = SD_HOLD_CODE_STARTD;
	out->subcode = subcode_of(slot_ad, job);
	return true;
}

char *sd_hold_text(const struct sd_hold *h)
{
	classad *ad = classad_new();
	classad_insert_string(ad, "HoldReason", h->reason ? h->reason : "");
	classad_insert_int(ad, "HoldReasonCode", h->code);
	classad_insert_int(ad, "HoldReasonSubCode", h->subcode);
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	classad_free(ad);
	return text;
}

void sd_hold_clear(struct sd_hold *h)
{
	if (!h)
		return;
	free(h->reason);
	h->reason = NULL;
}
