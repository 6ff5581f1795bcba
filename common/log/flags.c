/*
 * flags.c: the text a daemon log's configuration is made of: debug
 * category lists, log sizes with units, default log names.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_log.h"
#include "log_int.h"

/* D_FULLDEBUG is absent on purpose: in a configuration it is a
 * verbosity (D_ALWAYS:2), not a category of its own. */
const struct kl_cat kl_cats[] = {
	{"D_ALWAYS", KS_D_ALWAYS},
	{"D_ERROR", KS_D_ERROR},
	{"D_STATUS", KS_D_STATUS},
	{"D_COMMAND", KS_D_COMMAND},
	{"D_SECURITY", KS_D_SECURITY},
	{"D_NETWORK", KS_D_NETWORK},
	{"D_PROTOCOL", KS_D_PROTOCOL},
	{"D_DAEMONCORE", KS_D_DAEMONCORE},
	{"D_MACHINE", KS_D_MACHINE},
	{"D_MATCH", KS_D_MATCH},
	{"D_JOB", KS_D_JOB},
	{"D_ACCOUNTANT", KS_D_ACCOUNTANT},
	{"D_PROCFAMILY", KS_D_PROCFAMILY},
	{"D_HOSTNAME", KS_D_HOSTNAME},
	{"D_AUDIT", KS_D_AUDIT},
	{"D_TEST", KS_D_TEST},
};
const size_t kl_ncats = sizeof(kl_cats) / sizeof(kl_cats[0]);

const char *kl_cat_name(unsigned bit)
{
	if (bit == KS_D_FULLDEBUG)
		return "D_FULLDEBUG";
	for (size_t i = 0; i < kl_ncats; i++)
		if (kl_cats[i].bit == bit)
			return kl_cats[i].name;
	return NULL;
}

static bool is_sep(char c)
{
	/* HTCondor splits on space, comma and bar; tabs and newlines come
	 * from multi-line values and mean the same. */
	return c == ' ' || c == ',' || c == '|' || c == '\t' || c == '\n' ||
	       c == '\r';
}

static bool name_is(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

static void apply(const char *s, size_t len, struct kl_flags *f)
{
	/* A bare name means verbosity 1; "-NAME" means 0, which (as in
	 * HTCondor) only withdraws the verbose level and header option:
	 * the basic level, once merged in, stays. */
	unsigned verb = 1;
	if (len && (*s == '-' || *s == '+')) {
		verb = *s == '-' ? 0 : 1;
		s++;
		len--;
	}
	const char *colon = memchr(s, ':', len);
	size_t nlen = len;
	if (colon) {
		nlen = (size_t)(colon - s);
		if (colon + 1 < s + len && isdigit((unsigned char)colon[1]))
			verb = (unsigned)(colon[1] - '0');
	}

	unsigned bit = 0, hdr = 0;
	if (name_is(s, nlen, "D_ALL")) {
		hdr = KL_H_PID | KL_H_FDS | KL_H_CAT;
		bit = KL_ALL_CATS;
	} else if (name_is(s, nlen, "D_ANY")) {
		bit = KL_ALL_CATS;
	} else if (name_is(s, nlen, "D_PID")) {
		hdr = KL_H_PID;
	} else if (name_is(s, nlen, "D_FDS")) {
		hdr = KL_H_FDS;
	} else if (name_is(s, nlen, "D_CAT") || name_is(s, nlen, "D_CATEGORY") ||
		   name_is(s, nlen, "D_LEVEL")) {
		hdr = KL_H_CAT;
	} else if (name_is(s, nlen, "D_SUB_SECOND")) {
		hdr = KL_H_SUBSEC;
	} else if (name_is(s, nlen, "D_TIMESTAMP")) {
		hdr = KL_H_TIMESTAMP;
	} else if (name_is(s, nlen, "D_FULLDEBUG")) {
		/* D_FULLDEBUG:1 is D_ALWAYS:2. */
		verb *= 2;
		bit = KS_D_ALWAYS;
	} else if (name_is(s, nlen, "D_FAILURE")) {
		bit = KS_D_ERROR;
	} else {
		for (size_t i = 0; i < kl_ncats; i++)
			if (name_is(s, nlen, kl_cats[i].name)) {
				bit = kl_cats[i].bit;
				break;
			}
	}

	if (verb) {
		f->hdr |= hdr;
		f->basic |= bit;
		if (verb > 1)
			f->verbose |= bit;
	} else {
		f->hdr &= ~hdr;
		f->verbose &= ~bit;
	}
}

void kl_parse_debug(const char *text, struct kl_flags *f)
{
	if (!text)
		return;
	const char *p = text;
	while (*p) {
		while (*p && is_sep(*p))
			p++;
		const char *start = p;
		while (*p && !is_sep(*p))
			p++;
		if (p > start)
			apply(start, (size_t)(p - start), f);
	}
	/* D_ALWAYS:2 and D_FULLDEBUG are one setting; keep the bit set so
	 * that either spelling reads back the same. */
	if (f->verbose & KS_D_ALWAYS)
		f->basic |= KS_D_FULLDEBUG;
}

static bool mul(long long *v, long long by)
{
	if (*v > LLONG_MAX / by)
		return false;
	*v *= by;
	return true;
}

bool kl_parse_size(const char *text, long long *value, bool *is_time)
{
	*value = 0;
	*is_time = false;
	const char *p = text;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(p, &end, 10);
	if (end == p || errno == ERANGE || v < 0)
		return false;
	p = end;
	while (isspace((unsigned char)*p))
		p++;
	bool ok = true, time = false;
	if (*p) {
		char c1 = *p++;
		char c2 = 0, c3 = 0;
		if (isalpha((unsigned char)*p))
			c2 = (char)toupper((unsigned char)*p++);
		if (isalpha((unsigned char)*p))
			c3 = (char)toupper((unsigned char)*p++);
		while (isalpha((unsigned char)*p))
			p++;
		switch (toupper((unsigned char)c1)) {
		case 'S':
			time = true;
			break;
		case 'H':
			time = true;
			ok = mul(&v, 3600);
			break;
		case 'D':
			time = true;
			ok = mul(&v, 86400);
			break;
		case 'W':
			time = true;
			ok = mul(&v, 7 * 86400);
			break;
		case 'B':
			break;
		case 'K':
			ok = mul(&v, 1024);
			break;
		case 'G':
			ok = mul(&v, 1024LL * 1024 * 1024);
			break;
		case 'T':
			ok = mul(&v, 1024LL * 1024 * 1024 * 1024);
			break;
		case 'M':
			/* Mb is a size and Min a time; a lone M is a size and
			 * a lone m a time, as HTCondor reads them ("MiB" is a
			 * size too). */
			if (c2 == 'B')
				time = false;
			else if (c2 == 'I')
				time = c3 != 'B';
			else if (c2)
				return false;
			else
				time = c1 == 'm';
			ok = mul(&v, time ? 60 : 1024 * 1024);
			break;
		default:
			/* HTCondor accepts an unknown unit as bytes. */
			break;
		}
		while (isspace((unsigned char)*p))
			p++;
	}
	if (!ok || *p)
		return false;
	*value = v;
	*is_time = time;
	return true;
}

void kl_camel_name(const char *subsys, char *out, size_t size)
{
	size_t j = 0;
	bool upper = true;
	for (const char *s = subsys; *s && j + 1 < size; s++) {
		char c = *s;
		if (c == '_' || isspace((unsigned char)c)) {
			upper = true;
			continue;
		}
		out[j++] = upper ? (char)toupper((unsigned char)c)
				 : (char)tolower((unsigned char)c);
		upper = false;
	}
	if (size)
		out[j] = '\0';
}
