/*
 * fn_time.c: time(), currentTime(), timeZoneOffset(), dayTime(), the
 * get*() fields, splitTime(), formatTime(), interval(), and absTime() /
 * relTime() on values that are not literal strings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fn.h"

static bool no_args(const struct ca_call *c, classad_value *out)
{
	if (c->n > 0) {
		ca_err(out);
		return false;
	}
	return true;
}

CA_FN(ca_fn_time)
{
	(void)st;
	if (no_args(c, out))
		ca_set_int(out, (int64_t)time(NULL));
	return true;
}

CA_FN(ca_fn_current_time)
{
	(void)st;
	if (no_args(c, out)) {
		int64_t now = (int64_t)time(NULL);
		classad_value_set_abstime(out, now, (int32_t)ca_tz_offset(now));
	}
	return true;
}

CA_FN(ca_fn_tz_offset)
{
	(void)st;
	if (no_args(c, out))
		ca_set_reltime(out,
					  (double)ca_tz_offset(time(NULL)));
	return true;
}

CA_FN(ca_fn_day_time)
{
	(void)st;
	if (!no_args(c, out))
		return true;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	ca_set_reltime(out, tm.tm_hour * 3600 + tm.tm_min * 60 +
					       tm.tm_sec);
	return true;
}

CA_FN(ca_fn_get_field)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	const char *f = c->name->s + 3; /* after "get" */
	if (v.type == CLASSAD_ABSTIME) {
		/* HTCondor reads the fields in the local time zone. */
		time_t t = (time_t)v.u.abs.secs;
		struct tm tm;
		if (!localtime_r(&t, &tm))
			memset(&tm, 0, sizeof(tm));
		int64_t r;
		if (strcasecmp(f, "Year") == 0)
			r = tm.tm_year + 1900;
		else if (strcasecmp(f, "Month") == 0)
			r = tm.tm_mon + 1;
		else if (strcasecmp(f, "DayOfYear") == 0)
			r = tm.tm_yday;
		else if (strcasecmp(f, "DayOfMonth") == 0)
			r = tm.tm_mday;
		else if (strcasecmp(f, "DayOfWeek") == 0)
			r = tm.tm_wday;
		else if (strcasecmp(f, "Hours") == 0)
			r = tm.tm_hour;
		else if (strcasecmp(f, "Minutes") == 0)
			r = tm.tm_min;
		else if (strcasecmp(f, "Seconds") == 0)
			r = tm.tm_sec;
		else
			return ca_err(out); /* getDays */
		ca_set_int(out, r);
		return true;
	}
	if (v.type == CLASSAD_RELTIME) {
		int64_t s = ca_double_to_i64(v.u.r);
		if (strcasecmp(f, "Days") == 0)
			ca_set_int(out, s / 86400);
		else if (strcasecmp(f, "Hours") == 0)
			ca_set_int(out, (s % 86400) / 3600);
		else if (strcasecmp(f, "Minutes") == 0)
			ca_set_int(out, (s % 3600) / 60);
		else if (strcasecmp(f, "Seconds") == 0)
			ca_set_int(out, s % 60);
		else
			out->type = CLASSAD_ERROR;
		return true;
	}
	ca_value_clear(&v);
	return ca_err(out);
}

static classad *abstime_ad(int64_t secs, int32_t offset)
{
	time_t t = (time_t)(secs + offset);
	struct tm tm;
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	classad *ad = classad_new();
	classad_insert_string(ad, "Type", "AbsoluteTime");
	classad_insert_int(ad, "Year", tm.tm_year + 1900);
	classad_insert_int(ad, "Month", tm.tm_mon + 1);
	classad_insert_int(ad, "Day", tm.tm_mday);
	classad_insert_int(ad, "Hours", tm.tm_hour);
	classad_insert_int(ad, "Minutes", tm.tm_min);
	classad_insert_int(ad, "Seconds", tm.tm_sec);
	classad_insert_int(ad, "Offset", offset);
	return ad;
}

static classad *reltime_ad(double rsecs)
{
	bool neg = rsecs < 0;
	if (neg)
		rsecs = -rsecs;
	int64_t whole = ca_double_to_i64(rsecs);
	int days = (int)(int32_t)whole;
	int hrs = days % 86400;
	int mins = hrs % 3600;
	double secs = (mins % 60) + (rsecs - floor(rsecs));
	days /= 86400;
	hrs /= 3600;
	mins /= 60;
	if (neg) {
		if (days > 0)
			days = -days;
		else if (hrs > 0)
			hrs = -hrs;
		else if (mins > 0)
			mins = -mins;
		else
			secs = -secs;
	}
	classad *ad = classad_new();
	classad_insert_string(ad, "Type", "RelativeTime");
	classad_insert_int(ad, "Days", days);
	classad_insert_int(ad, "Hours", hrs);
	classad_insert_int(ad, "Minutes", mins);
	classad_insert_real(ad, "Seconds", secs);
	return ad;
}

/* HTCondor's doSplitTime: the ad for a time value, or NULL. */
static classad *split_time(const classad_value *v)
{
	int64_t secs;
	switch (v->type) {
	case CLASSAD_INTEGER:
	case CLASSAD_REAL:
		secs = v->type == CLASSAD_INTEGER
			       ? v->u.i
			       : (int32_t)ca_double_to_i64(v->u.r);
		return abstime_ad(secs, (int32_t)ca_tz_offset(secs));
	case CLASSAD_ABSTIME:
		return abstime_ad(v->u.abs.secs, v->u.abs.offset);
	case CLASSAD_RELTIME:
		return reltime_ad(v->u.r);
	case CLASSAD_AD:
		return classad_copy(v->u.ad->ad);
	default:
		return NULL;
	}
}

CA_FN(ca_fn_split_time)
{
	classad_value v = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	classad *ad = v.type == CLASSAD_AD ? NULL : split_time(&v);
	if (v.type == CLASSAD_UNDEFINED)
		out->type = CLASSAD_UNDEFINED;
	else if (ad)
		ca_value_ad_take(out, ad);
	else
		out->type = CLASSAD_ERROR;
	ca_value_clear(&v);
	return true;
}

static int ad_int(const classad *ad, const char *name, int dflt)
{
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_attr(ad, name, NULL, &v);
	int r = v.type == CLASSAD_INTEGER ? (int)(int32_t)v.u.i : dflt;
	ca_value_clear(&v);
	return r;
}

static void formatted(const struct tm *tm, const char *fmt,
		      classad_value *out)
{
	char buf[1024];
	size_t n = strftime(buf, sizeof(buf) - 1, fmt, tm);
	classad_value_set_string(out, buf, n);
}

/* HTCondor's day_numbers(): weekday and day of the year. */
static void day_numbers(int year, int month, int day, int *wday, int *yday)
{
	int adj = month <= 2 ? 0
		  : ((year % 4 == 0 && year % 400 != 100 &&
		      year % 400 != 200 && year % 400 != 300)
			     ? -1
			     : -2);
	int fixed = 365 * (year - 1) + (year - 1) / 4 - (year - 1) / 100 +
		    (year - 1) / 400 + (367 * month - 362) / 12 + adj + day;
	int jan1 = 365 * (year - 1) + (year - 1) / 4 - (year - 1) / 100 +
		   (year - 1) / 400 + (367 * 1 - 362) / 12 + 1;
	*wday = fixed % 7;
	*yday = fixed - jan1;
}

CA_FN(ca_fn_format_time)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	if (c->n == 0) {
		time_t now = time(NULL);
		localtime_r(&now, &tm);
		formatted(&tm, "%c", out);
		return true;
	}
	if (c->n > 2)
		return ca_err(out);
	classad_value v = CLASSAD_VALUE_INIT, f = CLASSAD_VALUE_INIT;
	if (!ca_arg(st, c, 0, &v)) {
		ca_value_clear(&v);
		return ca_fail(out);
	}
	classad *ad = v.type == CLASSAD_RELTIME ? NULL : split_time(&v);
	ca_value_clear(&v);
	if (!ad)
		return ca_err(out);
	tm.tm_sec = ad_int(ad, "Seconds", 0);
	tm.tm_min = ad_int(ad, "Minutes", 0);
	tm.tm_hour = ad_int(ad, "Hours", 0);
	tm.tm_mday = ad_int(ad, "Day", 0);
	tm.tm_mon = ad_int(ad, "Month", 1) - 1;
	tm.tm_year = ad_int(ad, "Year", 1900) - 1900;
	classad_free(ad);
	day_numbers(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, &tm.tm_wday,
		    &tm.tm_yday);
	if (c->n == 1) {
		formatted(&tm, "%c", out);
		return true;
	}
	if (!ca_arg(st, c, 1, &f)) {
		ca_value_clear(&f);
		return ca_fail(out);
	}
	if (f.type != CLASSAD_STRING)
		out->type = CLASSAD_ERROR;
	else
		formatted(&tm, f.u.s->s, out);
	ca_value_clear(&f);
	return true;
}

CA_FN(ca_fn_interval)
{
	classad_value v = CLASSAD_VALUE_INIT, i = CLASSAD_VALUE_INIT;
	int rc = ca_call_args(st, c, 1, 1, &v, out);
	if (rc <= 0)
		return rc == 0;
	bool ok = ca_to_int(&v, &i) && i.type == CLASSAD_INTEGER;
	ca_value_clear(&v);
	if (!ok) {
		ca_value_clear(&i);
		return ca_err(out);
	}
	int tot = (int)(int32_t)(uint32_t)(uint64_t)i.u.i; /* an int */
	int days = tot / 86400;
	tot %= 86400;
	int hours = tot / 3600;
	tot %= 3600;
	int min = tot / 60, secs = tot % 60;
	char buf[64];
	if (days != 0)
		snprintf(buf, sizeof(buf), "%d+%02d:%02d:%02d", days,
			 abs(hours), abs(min), abs(secs));
	else if (hours != 0)
		snprintf(buf, sizeof(buf), "%d:%02d:%02d", hours, abs(min),
			 abs(secs));
	else if (min != 0)
		snprintf(buf, sizeof(buf), "%d:%02d", min, abs(secs));
	else
		snprintf(buf, sizeof(buf), "%d", secs);
	classad_value_set_string(out, buf, strlen(buf));
	return true;
}

CA_FN(ca_fn_conv_time)
{
	bool rel = ca_is_name(c, "relTime");
	if (c->n == 0 && !rel)
		return ca_fn_current_time(st, c, out);
	if (c->n < 1 || c->n > 2)
		return ca_err(out);
	classad_value v = CLASSAD_VALUE_INIT, v2 = CLASSAD_VALUE_INIT;
	if (!ca_arg(st, c, 0, &v)) {
		ca_value_clear(&v);
		return ca_fail(out);
	}
	bool have_off = c->n == 2;
	int32_t off = 0;
	if (have_off) {
		if (!ca_arg(st, c, 1, &v2)) {
			ca_value_clear(&v);
			ca_value_clear(&v2);
			return ca_fail(out);
		}
		bool bad = rel;
		if (v2.type == CLASSAD_INTEGER)
			off = (int32_t)(uint32_t)(uint64_t)v2.u.i;
		else if (v2.type == CLASSAD_REAL || v2.type == CLASSAD_RELTIME)
			off = (int32_t)ca_double_to_i64(v2.u.r);
		else
			bad = true;
		ca_value_clear(&v2);
		if (bad) {
			ca_value_clear(&v);
			return ca_err(out);
		}
	}
	bool ok = true;
	int64_t secs;
	switch (v.type) {
	case CLASSAD_UNDEFINED:
		break;
	case CLASSAD_INTEGER:
		secs = (int32_t)(uint32_t)(uint64_t)v.u.i; /* an int */
		if (rel) {
			ca_set_reltime(out, (double)secs);
		} else {
			int64_t o = have_off ? off : ca_tz_offset(secs);
			if (o == -1)
				ok = ca_fail(out);
			else
				classad_value_set_abstime(out, secs, (int32_t)o);
		}
		break;
	case CLASSAD_REAL:
		if (rel) {
			ca_set_reltime(out, v.u.r);
		} else {
			secs = (int32_t)ca_double_to_i64(v.u.r);
			classad_value_set_abstime(
				out, secs,
				have_off ? off : (int32_t)ca_tz_offset(secs));
		}
		break;
	case CLASSAD_STRING:
		/* HTCondor falls through to the absolute-time case with no
		 * time read: relTime gives 0 and absTime the string. */
		if (rel)
			ca_set_reltime(out, 0.0);
		else
			classad_value_copy(out, &v);
		break;
	case CLASSAD_ABSTIME:
		if (rel)
			ca_set_reltime(out, (double)v.u.abs.secs);
		else
			classad_value_copy(out, &v);
		break;
	case CLASSAD_RELTIME:
		if (rel) {
			classad_value_copy(out, &v);
		} else {
			secs = ca_double_to_i64(v.u.r);
			classad_value_set_abstime(
				out, secs,
				have_off ? off : (int32_t)ca_tz_offset(secs));
		}
		break;
	default:
		out->type = CLASSAD_ERROR;
		break;
	}
	ca_value_clear(&v);
	return ok;
}
