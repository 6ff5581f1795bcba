/*
 * tf_adfile.c: ads read from a file (condor_status -ads, condor_q
 * -jobads, condor_history -file), filtered as the daemon would filter
 * them, so that every output can be tried without a pool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "tfmt.h"

enum tf_ads_format tf_ads_format_of(const char *s, enum tf_ads_format dflt)
{
	if (!s || !*s)
		return dflt;
	if (strcasecmp(s, "long") == 0)
		return TF_ADS_LONG;
	if (strcasecmp(s, "json") == 0)
		return TF_ADS_JSON;
	if (strcasecmp(s, "new") == 0)
		return TF_ADS_NEW;
	if (strcasecmp(s, "xml") == 0)
		return TF_ADS_XML;
	if (strcasecmp(s, "auto") == 0)
		return TF_ADS_AUTO;
	return dflt;
}

bool tf_constraint_true(const classad *ad, const classad_expr *c)
{
	if (!c)
		return true;
	classad_value v = CLASSAD_VALUE_INIT;
	classad_eval_expr(ad, c, NULL, &v);
	bool ok = false;
	classad_value_bool(&v, &ok);
	classad_value_clear(&v);
	return ok;
}

/* "auto" guesses from the first characters. */
static enum classad_format tf_guess_format(const char *text)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p == '{')
		return CLASSAD_FMT_JSON;
	if (*p == '[') {
		p++;
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		return *p == '{' ? CLASSAD_FMT_JSON : CLASSAD_FMT_NEW;
	}
	return CLASSAD_FMT_OLD;
}

/* Blanks every line that starts with "-- " (condor_q's title), "***"
 * (the banner after each ad of a history file) or "...", keeping the
 * line count, so the reader sees an ad boundary there and positions in
 * messages stay true. */
static void tf_blank_banners(char *text, size_t len)
{
	char *p = text, *end = text + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		if (eol - p >= 3 &&
		    (memcmp(p, "-- ", 3) == 0 || memcmp(p, "***", 3) == 0 ||
		     memcmp(p, "...", 3) == 0))
			memset(p, ' ', (size_t)(eol - p));
		p = eol + 1;
	}
}

int tf_read_ads(const char *path, enum tf_ads_format form, bool banners,
		const classad_expr *constraint,
		int (*fn)(classad *ad, void *arg), void *arg, const char *flag,
		FILE *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(err, "Can't open file of ClassAds: %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	size_t len;
	char *text = ks_read_all(f, &len);
	if (f != stdin)
		fclose(f);

	enum classad_format fmt = CLASSAD_FMT_OLD;
	switch (form) {
	case TF_ADS_JSON: fmt = CLASSAD_FMT_JSON; break;
	case TF_ADS_NEW: fmt = CLASSAD_FMT_NEW; break;
	case TF_ADS_AUTO: fmt = tf_guess_format(text); break;
	case TF_ADS_XML:
		fprintf(err, "Error: %s: reading ads in XML is not supported; "
			"use %s:long, %s:json or %s:new\n", path, flag, flag,
			flag);
		free(text);
		return 1;
	default: break;
	}
	if (banners && fmt == CLASSAD_FMT_OLD)
		tf_blank_banners(text, len);

	classad_cache *cache = classad_cache_new();
	classad_reader *r = classad_reader_new(text, len, fmt, cache);
	int rc = 0;
	for (;;) {
		classad *ad = NULL;
		struct ks_err e = {0};
		int got = classad_reader_next(r, &ad, &e);
		if (got < 0) {
			fprintf(err, "Error: cannot read the ads in %s: line %d, "
				"column %d: %s\n", path, e.line, e.col, e.msg);
			rc = 1;
			break;
		}
		if (got == 0)
			break;
		if (!tf_constraint_true(ad, constraint)) {
			classad_free(ad);
			continue;
		}
		if (fn(ad, arg) != 0)
			break;
	}
	classad_reader_free(r);
	classad_cache_free(cache);
	free(text);
	return rc;
}
