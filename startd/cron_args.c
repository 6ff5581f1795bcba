/*
 * cron_args.c: a cron job's ARGS and ENV, split the way HTCondor splits
 * them (condor_arglist, env): a value that starts with a double quote is
 * the "new" syntax, where words are separated by white space, single
 * quotes group ('' is a quote) and "" inside the double quotes is a
 * double quote; anything else is the old syntax: ARGS split at white
 * space with no quoting, ENV split at ';' (or at the first character,
 * if it is one of HTCondor's permitted delimiters) or newlines.
 */
#include "cron_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

size_t sd_cron_vec_len(char *const *v)
{
	size_t n = 0;
	while (v && v[n])
		n++;
	return n;
}

void sd_cron_vec_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Takes ownership of s. */
static void vec_push(char ***v, char *s)
{
	size_t n = sd_cron_vec_len(*v);
	*v = ks_xrealloc(*v, (n + 2) * sizeof(**v));
	(*v)[n] = s;
	(*v)[n + 1] = NULL;
}

static bool v2_quoted(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '"';
}

/* The text inside the double quotes, with "" made ", or NULL. */
static char *v2_unquote(const char *s, char *err, size_t errlen)
{
	while (isspace((unsigned char)*s))
		s++;
	s++; /* the opening quote */
	char *out = ks_xmalloc(strlen(s) + 1), *o = out;
	for (;;) {
		if (!*s) {
			snprintf(err, errlen, "a double quote is not closed");
			free(out);
			return NULL;
		}
		if (*s == '"') {
			if (s[1] != '"')
				break;
			s++;
		}
		*o++ = *s++;
	}
	*o = '\0';
	for (s++; isspace((unsigned char)*s); s++)
		;
	if (*s) {
		snprintf(err, errlen,
			 "text after the closing double quote: '%s' "
			 "(repeat a double quote to put one in)", s);
		free(out);
		return NULL;
	}
	return out;
}

/* Words of the new syntax's inner text into *v. */
static int split_words(const char *s, char ***v, char *err, size_t errlen)
{
	size_t n = strlen(s);
	char *buf = ks_xmalloc(n + 1);
	size_t len = 0;
	bool in_word = false;
	while (*s) {
		if (*s == '\'') {
			const char *open = s++;
			in_word = true;
			for (;;) {
				if (!*s) {
					snprintf(err, errlen,
						 "a single quote is not "
						 "closed: %s",
						 open);
					free(buf);
					return -1;
				}
				if (*s == '\'') {
					if (s[1] != '\'')
						break;
					s++;
				}
				buf[len++] = *s++;
			}
			s++;
		} else if (*s == ' ' || *s == '\t' || *s == '\n' ||
			   *s == '\r') {
			s++;
			if (in_word) {
				vec_push(v, ks_xstrndup(buf, len));
				len = 0;
				in_word = false;
			}
		} else {
			in_word = true;
			buf[len++] = *s++;
		}
	}
	if (in_word)
		vec_push(v, ks_xstrndup(buf, len));
	free(buf);
	return 0;
}

int sd_cron_split_args(const char *s, char ***v, char *err, size_t errlen)
{
	if (!s)
		return 0;
	if (v2_quoted(s)) {
		char *inner = v2_unquote(s, err, errlen);
		if (!inner)
			return -1;
		int r = split_words(inner, v, err, errlen);
		free(inner);
		return r;
	}
	/* old syntax on Unix: white space separates, nothing quotes */
	while (*s) {
		while (*s && strchr(" \t\n\r", *s))
			s++;
		size_t n = strcspn(s, " \t\n\r");
		if (n)
			vec_push(v, ks_xstrndup(s, n));
		s += n;
	}
	return 0;
}

void sd_cron_env_set(char ***v, const char *name, const char *value)
{
	size_t nl = strlen(name), vl = strlen(value);
	char *e = ks_xmalloc(nl + vl + 2);
	memcpy(e, name, nl);
	e[nl] = '=';
	memcpy(e + nl + 1, value, vl + 1);
	for (size_t i = 0; *v && (*v)[i]; i++)
		if (!strncmp((*v)[i], name, nl) && (*v)[i][nl] == '=') {
			free((*v)[i]);
			(*v)[i] = e;
			return;
		}
	vec_push(v, e);
}

static int env_entry(const char *entry, char ***v, char *err, size_t errlen)
{
	const char *eq = strchr(entry, '=');
	if (!eq || eq == entry) {
		snprintf(err, errlen,
			 eq ? "an entry has no name before '=': '%s'"
			    : "'%s' has no '=' (write NAME=value)",
			 entry);
		return -1;
	}
	char *name = ks_xstrndup(entry, (size_t)(eq - entry));
	sd_cron_env_set(v, name, eq + 1);
	free(name);
	return 0;
}

int sd_cron_split_env(const char *s, char ***v, char *err, size_t errlen)
{
	if (!s || !*s)
		return 0;
	if (v2_quoted(s)) {
		char *inner = v2_unquote(s, err, errlen);
		if (!inner)
			return -1;
		char **words = NULL;
		int r = split_words(inner, &words, err, errlen);
		for (size_t i = 0; r == 0 && words && words[i]; i++)
			r = env_entry(words[i], v, err, errlen);
		sd_cron_vec_free(words);
		free(inner);
		return r;
	}
	char delim = ';';
	if (*s && strchr("!#$%&*+,-/:;<>?@^`|~\x1f", *s))
		delim = *s++;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		size_t n = 0;
		while (s[n] && s[n] != delim && s[n] != '\n')
			n++;
		if (n) {
			char *entry = ks_xstrndup(s, n);
			int r = env_entry(entry, v, err, errlen);
			free(entry);
			if (r)
				return -1;
		}
		s += n;
		if (*s)
			s++;
	}
	return 0;
}
