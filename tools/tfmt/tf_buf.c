/*
 * tf_buf.c: growable strings, printf conversions, and the small text
 * helpers the tools' output is made of.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ks_mem.h"
#include "tfmt.h"

void tf_buf_add(struct classad_buf *b, const char *s)
{
	classad_buf_add(b, s, strlen(s));
}

void tf_buf_addc(struct classad_buf *b, char c)
{
	classad_buf_add(b, &c, 1);
}

void tf_buf_pad(struct classad_buf *b, char c, size_t n)
{
	classad_buf_reserve(b, n);
	memset(b->data + b->len, c, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void tf_buf_truncate(struct classad_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->data[len] = '\0';
	}
}

void tf_buf_free(struct classad_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

const char *tf_buf_str(const struct classad_buf *b)
{
	return b->data ? b->data : "";
}

/* ---- printf conversions ---------------------------------------------- */

void tf_spec_parse(const char *fmt, struct tf_spec *sp)
{
	memset(sp, 0, sizeof *sp);
	const char *p = fmt;
	for (;;) {
		while (*p && *p != '%')
			p++;
		if (!*p)
			return;
		sp->start = (size_t)(p - fmt);
		p++;
		if (*p == '%') { /* a literal percent sign */
			p++;
			continue;
		}
		break;
	}
	while (*p && strchr("#0- +'", *p)) {
		if (*p == '-')
			sp->left = true;
		p++;
	}
	if (*p == '*') {
		sp->unsafe = true;
		p++;
	} else {
		while (isdigit((unsigned char)*p))
			sp->width = sp->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			sp->unsafe = true;
			p++;
		}
		while (isdigit((unsigned char)*p))
			p++;
	}
	sp->mods = (size_t)(p - fmt);
	while (*p && strchr("hlLqjzt", *p))
		p++;
	if (!*p)
		return;
	sp->letter = *p++;
	sp->end = (size_t)(p - fmt);
	switch (sp->letter) {
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
		sp->type = TF_PFT_INT; break;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
	case 'a': case 'A':
		sp->type = TF_PFT_FLOAT; break;
	case 'c': case 'C':
		sp->type = TF_PFT_CHAR; break;
	case 's': case 'S':
		sp->type = TF_PFT_STRING; break;
	case 'p':
		sp->type = TF_PFT_POINTER; break;
	case 'n':
		sp->unsafe = true; break;
	case 'v': case 'V':
		sp->type = TF_PFT_VALUE; break;
	case 'r': case 'R':
		sp->type = TF_PFT_RAW; break;
	case 'T':
		sp->type = TF_PFT_TIME; break;
	case 'Y':
		sp->type = TF_PFT_DATE; break;
	default:
		return; /* not a conversion HTCondor knows */
	}
	sp->found = true;
}

/* Rewrites fmt so that its first conversion is mods+letter and every
 * later '%' that does not start "%%" is text. */
static char *tf_safe_format(const char *fmt, const struct tf_spec *sp,
			    const char *mods, char letter)
{
	struct classad_buf b = {0};
	classad_buf_add(&b, fmt, sp->mods);
	tf_buf_add(&b, mods);
	tf_buf_addc(&b, letter);
	for (const char *p = fmt + sp->end; *p; p++) {
		if (*p == '%') {
			tf_buf_add(&b, "%%");
			if (p[1] == '%')
				p++;
			continue;
		}
		tf_buf_addc(&b, *p);
	}
	return b.data ? b.data : ks_xstrdup("");
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void tf_format_int(struct classad_buf *b, const char *fmt, const struct tf_spec *sp,
		   long long v)
{
	char *f;
	if (sp->type == TF_PFT_CHAR) {
		f = tf_safe_format(fmt, sp, "", 'c');
		classad_buf_printf(b, f, (int)v);
	} else if (sp->type == TF_PFT_POINTER) {
		f = tf_safe_format(fmt, sp, "", 'p');
		classad_buf_printf(b, f, (void *)(uintptr_t)v);
	} else {
		char letter = sp->type == TF_PFT_INT ? sp->letter : 'd';
		f = tf_safe_format(fmt, sp, "ll", letter);
		classad_buf_printf(b, f, v);
	}
	free(f);
}

void tf_format_double(struct classad_buf *b, const char *fmt,
		      const struct tf_spec *sp, double v)
{
	char *f = tf_safe_format(fmt, sp, "",
				 sp->type == TF_PFT_FLOAT ? sp->letter : 'f');
	classad_buf_printf(b, f, v);
	free(f);
}

void tf_format_str(struct classad_buf *b, const char *fmt, const struct tf_spec *sp,
		   const char *v)
{
	char *f = tf_safe_format(fmt, sp, "", 's');
	/* glibc's text for a null string, which HTCondor passes on */
	classad_buf_printf(b, f, v ? v : "(null)");
	free(f);
}
#pragma GCC diagnostic pop

void tf_format_time(struct classad_buf *b, long long secs)
{
	long long days = secs / 86400;
	secs %= 86400;
	long long hours = secs / 3600;
	secs %= 3600;
	classad_buf_printf(b, "%3lld+%02lld:%02lld:%02lld", days, hours, secs / 60,
		      secs % 60);
}

void tf_format_date(struct classad_buf *b, long long when)
{
	if (when < 0) {
		tf_buf_add(b, "    ???    ");
		return;
	}
	time_t t = (time_t)when;
	struct tm tm;
	if (!localtime_r(&t, &tm)) {
		tf_buf_add(b, "    ???    ");
		return;
	}
	classad_buf_printf(b, "%2d/%-2d %02d:%02d", tm.tm_mon + 1, tm.tm_mday,
		      tm.tm_hour, tm.tm_min);
}

void tf_metric_units(struct classad_buf *b, double bytes)
{
	static const char *const suffix[] = {"B ", "KB", "MB", "GB", "TB"};
	int power = 0;
	while (bytes > 1024.0 && power < 4) {
		bytes /= 1024.0;
		power++;
	}
	classad_buf_printf(b, "%.1f %s", bytes, suffix[power]);
}

char *tf_collapse_escapes(const char *s)
{
	struct classad_buf b = {0};
	for (const char *p = s; *p; p++) {
		if (*p != '\\' || !p[1]) {
			tf_buf_addc(&b, *p);
			continue;
		}
		p++;
		int v;
		switch (*p) {
		case 'a': v = '\a'; break;
		case 'b': v = '\b'; break;
		case 'f': v = '\f'; break;
		case 'n': v = '\n'; break;
		case 'r': v = '\r'; break;
		case 't': v = '\t'; break;
		case 'v': v = '\v'; break;
		case 'x':
			v = 0;
			while (isxdigit((unsigned char)p[1])) {
				p++;
				v = v * 16 + (isdigit((unsigned char)*p)
						      ? *p - '0'
						      : tolower((unsigned char)*p) - 'a' + 10);
			}
			break;
		default:
			if (*p >= '0' && *p <= '7') {
				v = *p - '0';
				while (p[1] >= '0' && p[1] <= '7') {
					p++;
					v = v * 8 + (*p - '0');
				}
			} else {
				v = (unsigned char)*p;
			}
		}
		/* a NUL ends the format, as it does in C */
		if ((char)v == '\0')
			break;
		tf_buf_addc(&b, (char)v);
	}
	return b.data ? b.data : ks_xstrdup("");
}

/* Characters compared as signed, which is how HTCondor's builds on x86
 * order them. */
static int tf_chdiff(const char *a, const char *b)
{
	return (int)(signed char)*a - (int)(signed char)*b;
}

int tf_natural_cmp(const char *s1, const char *s2)
{
	const char *beg = s1;
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return 0;
	const char *n1 = s1;
	while (n1 > beg && isdigit((unsigned char)n1[-1]))
		n1--;
	const char *n2 = s2 - (s1 - n1);
	if (n1 == s1 && (!isdigit((unsigned char)*s1) ||
			 !isdigit((unsigned char)*s2)))
		return tf_chdiff(s1, s2);
	const char *z1 = n1, *z2 = n2;
	while (*z1 == '0')
		z1++;
	while (*z2 == '0')
		z2++;
	/* a lone final zero is the number zero, not a leading zero */
	if (z1 > n1 && !isdigit((unsigned char)*z1))
		z1--;
	if (z2 > n2 && !isdigit((unsigned char)*z2))
		z2--;
	if (z1 - n1 != z2 - n2)
		return (int)((z2 - n2) - (z1 - n1));
	if (z1 > n1)
		return tf_chdiff(s1, s2);
	const char *e1 = z1, *e2 = z2;
	while (isdigit((unsigned char)*e1))
		e1++;
	while (isdigit((unsigned char)*e2))
		e2++;
	if (e1 - n1 != e2 - n2)
		return (int)((e1 - n1) - (e2 - n2));
	return tf_chdiff(s1, s2);
}

/* ---- values ------------------------------------------------------------ */

bool tf_value_int(const classad_value *v, long long *out)
{
	switch (v->type) {
	case CLASSAD_INTEGER: *out = v->u.i; return true;
	case CLASSAD_REAL:
		/* out-of-range reals convert as the hardware does in C++,
		 * without undefined behaviour here */
		if (v->u.r >= 9.2e18 || v->u.r <= -9.2e18 || v->u.r != v->u.r)
			*out = (long long)INT64_MIN;
		else
			*out = (long long)v->u.r;
		return true;
	case CLASSAD_BOOLEAN: *out = v->u.b; return true;
	default: return false;
	}
}

bool tf_value_real(const classad_value *v, double *out)
{
	switch (v->type) {
	case CLASSAD_INTEGER: *out = (double)v->u.i; return true;
	case CLASSAD_REAL: *out = v->u.r; return true;
	case CLASSAD_BOOLEAN: *out = v->u.b; return true;
	default: return false;
	}
}

void tf_value_unparse(struct classad_buf *b, const classad_value *v, bool old)
{
	char *s = classad_value_unparse(v, old);
	tf_buf_add(b, s);
	free(s);
}
