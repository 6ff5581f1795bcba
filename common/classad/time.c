/*
 * time.c: absolute and relative times: reading absTime("...") and
 * relTime("...") text, and writing them back, as HTCondor does.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "classad_int.h"

long ca_tz_offset(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!localtime_r(&tt, &tm))
		return 0;
	return tm.tm_gmtoff;
}

/* The offset without daylight saving, as HTCondor's timezone_offset(t,
 * true) computes it. */
static long tz_offset_nodst(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!localtime_r(&tt, &tm))
		return 0;
	return tm.tm_gmtoff - (tm.tm_isdst > 0 ? 3600 : 0);
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* atoi() of at most n bytes of s. */
static int atoi_n(const char *s, size_t n)
{
	char tmp[8];
	if (n > 7)
		n = 7;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return atoi(tmp);
}

/* A trailing "+hhmm" / "-hhmm": removes it and sets the offset. */
static bool take_zone(char *s, size_t *len, int *hr, int *min)
{
	size_t n = *len;
	if (n < 5)
		return false;
	char *z = s + n - 5;
	if ((z[0] != '+' && z[0] != '-') || !digit(z[1]) || !digit(z[2]) ||
	    !digit(z[3]) || !digit(z[4]))
		return false;
	int h = atoi_n(z + 1, 2), m = atoi_n(z + 3, 2);
	*hr = z[0] == '+' ? h : -h;
	*min = z[0] == '+' ? m : -m;
	*len = n - 5;
	s[*len] = '\0';
	return true;
}

int ca_parse_abstime(const char *src, size_t len0, int64_t *secs,
		     int32_t *offset)
{
	if (len0 > 256)
		return KS_EINVAL;
	char s[260];
	memcpy(s, src, len0);
	s[len0] = '\0';
	size_t len = strlen(s);
	int tzhr = 0, tzmin = 0;
	bool has_off = false;

	long i = (long)len - 1;
	while (i >= 0 && isspace((unsigned char)s[i]))
		i--;
	if (i > 0 && (s[i] == 'z' || s[i] == 'Z')) {
		has_off = true;
		memmove(s + i, s + i + 1, len - (size_t)i);
		len--;
	} else if (len > 5 && (s[len - 5] == '+' || s[len - 5] == '-')) {
		has_off = take_zone(s, &len, &tzhr, &tzmin);
	} else if (len > 6 && (s[len - 6] == '+' || s[len - 6] == '-') &&
		   s[len - 3] == ':') {
		memmove(s + len - 3, s + len - 2, 3);
		len--;
		has_off = take_zone(s, &len, &tzhr, &tzmin);
	}

	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	long n = (long)len;
	i = 0;
#define NEXT_DIGIT() while (i < n && !digit(s[i])) i++
	NEXT_DIGIT();
	if (i > n - 4)
		return KS_EINVAL;
	tm.tm_year = atoi_n(s + i, 4) - 1900;
	i += 4;
	/* Month, day, hours, minutes, seconds: two digits each, as far as
	 * the text goes (the month counts from 1). */
	int field[5] = {1, 0, 0, 0, 0};
	for (int k = 0; k < 5; k++) {
		NEXT_DIGIT();
		if (i <= n - 2) {
			field[k] = atoi_n(s + i, 2);
			i += 2;
		}
	}
	NEXT_DIGIT();
#undef NEXT_DIGIT
	tm.tm_mon = field[0] - 1;
	tm.tm_mday = field[1];
	tm.tm_hour = field[2];
	tm.tm_min = field[3];
	tm.tm_sec = field[4];
	if (i <= n - 1 && digit(s[i]))
		return KS_EINVAL; /* digits left over */
	time_t t = mktime(&tm);
	if (t == (time_t)-1)
		return KS_EINVAL;
	int64_t off = has_off ? (int64_t)tzhr * 3600 + tzmin * 60
			      : ca_tz_offset(t);
	int64_t r = (int64_t)t + tz_offset_nodst(t);
	*secs = r - off;
	*offset = (int32_t)off;
	return off == -1 ? KS_EINVAL : 0;
}

static void skip_space_back(const char *s, long *i)
{
	while (*i >= 0 && isspace((unsigned char)s[*i]))
		(*i)--;
}

/* Digits read backwards from s[*i] as an int (0 if out of range). */
static int back_int(const char *s, long *i)
{
	long end = *i;
	while (*i >= 0 && digit(s[*i]))
		(*i)--;
	long start = *i + 1;
	int64_t v = 0;
	for (long k = start; k <= end; k++) {
		v = v * 10 + (s[k] - '0');
		if (v > INT32_MAX)
			return 0;
	}
	return (int)v;
}

/* Reading back from s[*i]: a unit mark (the letter unit in either case,
 * or sep) and the count before it, white space allowed around the mark;
 * 0 if there is no mark. */
static int back_unit(const char *s, long *i, char unit, char sep)
{
	skip_space_back(s, i);
	if (*i < 0 || (s[*i] != unit && s[*i] != unit - 'a' + 'A' &&
		       s[*i] != sep))
		return 0;
	(*i)--;
	skip_space_back(s, i);
	return back_int(s, i);
}

int ca_parse_reltime(const char *s, size_t len, double *out)
{
	double secs = 0;
	bool negative = false;
	long i = (long)len - 1;
	skip_space_back(s, &i);
	if (i >= 0 && (s[i] == 's' || s[i] == 'S' || digit(s[i]))) {
		if (s[i] == 's' || s[i] == 'S')
			i--;
		skip_space_back(s, &i);
		long end = i;
		while (i >= 0 && digit(s[i]))
			i--;
		if (i >= 0 && s[i] == '.') {
			i--;
			while (i >= 0 && digit(s[i]))
				i--;
		}
		char tmp[64];
		long n = end - i;
		if (n > 63)
			n = 63;
		memcpy(tmp, s + i + 1, n > 0 ? (size_t)n : 0);
		tmp[n > 0 ? n : 0] = '\0';
		secs = strtod(tmp, NULL);
	}
	int mins = back_unit(s, &i, 'm', ':');
	int hrs = back_unit(s, &i, 'h', ':');
	int days = back_unit(s, &i, 'd', '+');
	skip_space_back(s, &i);
	if (i >= 0 && s[i] == '-') {
		negative = true;
		i--;
	}
	skip_space_back(s, &i);
	if (i >= 0 && !isspace((unsigned char)s[i]))
		return KS_EINVAL;
	/* HTCondor sums the whole units in a (wrapping) int. */
	int32_t whole = (int32_t)((uint32_t)days * 86400u +
				  (uint32_t)hrs * 3600u + (uint32_t)mins * 60u);
	*out = (negative ? -1 : 1) * ((double)whole + secs);
	return 0;
}

void ca_abstime_to_string(struct classad_buf *b, int64_t secs, int32_t offset)
{
	int tz = offset;
	char sign = tz > 0 ? '+' : '-';
	if (tz < 0)
		tz = -tz;
	time_t t = (time_t)(secs + offset);
	struct tm tm;
	char tmp[64];
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	/* Years before 1000 get four digits, so that the text reads back
	 * (HTCondor's "%Y" would print "2-09-09", read as 2009 days off). */
	if (tm.tm_year >= -1900 && tm.tm_year < 1000 - 1900)
		snprintf(tmp, sizeof(tmp), "%04d-%02d-%02dT%02d:%02d:%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	ca_buf_adds(b, tmp);
	classad_buf_printf(b, "%c%02d:%02d", sign, tz / 3600, (tz / 60) % 60);
}

/* (int) of a double as x86-64 converts it: out of range gives INT_MIN. */
static int to_int32(double d)
{
	if (d >= -2147483648.0 && d < 2147483648.0)
		return (int)d;
	return INT32_MIN;
}

/* HTCondor's text for a non-negative relative time: whole units through a
 * 32-bit int, the seconds with "%g" (HTCondor's precision p is 6). */
static void reltime_condor(struct classad_buf *b, double rsecs, int p)
{
	double frac = rsecs - floor(rsecs);
	int days = to_int32(rsecs);
	int hrs = days % 86400;
	int mins = hrs % 3600;
	double secs = (mins % 60) + frac;
	days /= 86400;
	hrs /= 3600;
	mins /= 60;
	if (days) {
		if (frac == 0)
			classad_buf_printf(b, "%d+%02d:%02d:%02d", days, hrs, mins,
				      (int)secs);
		else
			classad_buf_printf(b, "%d+%02d:%02d:%02.*g", days, hrs,
				      mins, p, secs);
	} else if (hrs) {
		if (frac == 0)
			classad_buf_printf(b, "%02d:%02d:%02d", hrs, mins, (int)secs);
		else
			classad_buf_printf(b, "%02d:%02d:%02.*g", hrs, mins, p,
				      secs);
	} else if (mins) {
		if (frac == 0)
			classad_buf_printf(b, "%02d:%02d", mins, (int)secs);
		else
			classad_buf_printf(b, "%02d:%02.*g", mins, p, secs);
	} else {
		if (frac == 0)
			classad_buf_printf(b, "%02d", (int)secs);
		else
			classad_buf_printf(b, "%02.*g", p, secs);
	}
}

static bool reads_back(const struct classad_buf *t, double rsecs)
{
	double back;
	return ca_parse_reltime(t->data, t->len, &back) == 0 && back == rsecs;
}

/* The shortest text of rsecs that reads back exactly, in HTCondor's form
 * with more digits of seconds (plain false) or as plain seconds with
 * decimals (plain true: HTCondor's units wrap beyond 2^31 seconds, and
 * the reader takes any number of decimals). */
static bool exact_form(struct classad_buf *t, double rsecs, bool plain)
{
	for (int p = plain ? 0 : 7; p <= (plain ? 40 : 17); p++) {
		t->len = 0;
		if (plain)
			classad_buf_printf(t, "%.*f", p, rsecs);
		else
			reltime_condor(t, rsecs, p);
		if (reads_back(t, rsecs))
			return true;
	}
	return false;
}

void ca_reltime_to_string(struct classad_buf *b, double rsecs, bool exact)
{
	if (rsecs < 0) {
		ca_buf_addc(b, '-');
		rsecs = -rsecs;
	}
	struct classad_buf t = {0};
	reltime_condor(&t, rsecs, 6);
	if (exact && isfinite(rsecs) && !reads_back(&t, rsecs)) {
		struct classad_buf u = {0};
		bool ok_t = exact_form(&t, rsecs, false);
		bool ok_u = exact_form(&u, rsecs, true);
		if (ok_u && (!ok_t || u.len < t.len)) {
			free(t.data);
			t = u;
		} else {
			free(u.data);
			if (!ok_t) { /* neither: HTCondor's after all */
				t.len = 0;
				reltime_condor(&t, rsecs, 6);
			}
		}
	}
	classad_buf_add(b, t.data, t.len);
	free(t.data);
}
