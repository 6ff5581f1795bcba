/*
 * args.c: the argument and environment syntaxes of a job ad (ks_jobad.h).
 *
 * Inputs are a job's own strings, usually a few hundred bytes; everything
 * is a single pass, and a name lookup in an environment is a linear scan,
 * which is plenty for the few dozen variables a job has.
 */
#include "ks_jobad.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "ks_mem.h"

void ks_jobad_strv_add(struct ks_jobad_strv *sv, const char *s, size_t len)
{
	/* One spare slot keeps the vector NULL-terminated for execve(). */
	if (sv->n + 2 > sv->cap) {
		size_t cap = sv->cap ? sv->cap * 2 : 8;
		sv->v = ks_xrealloc(sv->v, cap * sizeof(*sv->v));
		sv->cap = cap;
	}
	sv->v[sv->n++] = ks_xstrndup(s, len);
	sv->v[sv->n] = NULL;
}

void ks_jobad_strv_free(struct ks_jobad_strv *sv)
{
	if (!sv)
		return;
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

static bool is_arg_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int ks_jobad_args_parse_v2(const char *raw, struct ks_jobad_strv *out,
			   struct ks_err *err)
{
	struct classad_buf b = {0};
	bool in_token = false;
	const char *s = raw ? raw : "";
	while (*s) {
		if (*s == '\'') {
			const char *open = s++;
			in_token = true;
			for (;;) {
				if (!*s) {
					free(b.data);
					return ks_err_set(err, KS_EPARSE, 0, 0,
							  (size_t)(open - raw),
							  "unbalanced single quote at "
							  "offset %zu: %s (close it, "
							  "and write '' for a quote "
							  "inside quotes)",
							  (size_t)(open - raw), open);
				}
				if (*s == '\'' && s[1] == '\'') {
					classad_buf_putc(&b, '\'');
					s += 2;
				} else if (*s == '\'') {
					s++;
					break;
				} else {
					classad_buf_putc(&b, *s++);
				}
			}
		} else if (is_arg_space(*s)) {
			s++;
			if (in_token) {
				ks_jobad_strv_add(out, b.data ? b.data : "", b.len);
				b.len = 0;
				in_token = false;
			}
		} else {
			in_token = true;
			classad_buf_putc(&b, *s++);
		}
	}
	if (in_token)
		ks_jobad_strv_add(out, b.data ? b.data : "", b.len);
	free(b.data);
	return 0;
}

void ks_jobad_args_parse_v1(const char *raw, struct ks_jobad_strv *out)
{
	const char *s = raw ? raw : "";
	while (*s) {
		while (is_arg_space(*s))
			s++;
		const char *start = s;
		while (*s && !is_arg_space(*s))
			s++;
		if (s > start)
			ks_jobad_strv_add(out, start, (size_t)(s - start));
	}
}

bool ks_jobad_args_is_v2_quoted(const char *s)
{
	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	return *s == '"';
}

int ks_jobad_args_unquote_v2(const char *quoted, char **raw, struct ks_err *err)
{
	*raw = NULL;
	const char *s = quoted;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '"')
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "expected a double-quoted string: %s", quoted);
	s++;
	struct classad_buf b = {0};
	classad_buf_putc(&b, '\0');
	b.len = 0;
	const char *close = NULL;
	while (*s) {
		if (*s == '"' && s[1] == '"') {
			classad_buf_putc(&b, '"');
			s += 2;
		} else if (*s == '"') {
			close = s++;
			break;
		} else {
			classad_buf_putc(&b, *s++);
		}
	}
	if (!close) {
		free(b.data);
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "no closing double quote in: %s", quoted);
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s) {
		free(b.data);
		return ks_err_set(err, KS_EPARSE, 0, 0, (size_t)(close - quoted),
				  "text after the closing double quote: %s "
				  "(write \"\" for a double quote inside)",
				  close);
	}
	*raw = b.data;
	return 0;
}

char *ks_jobad_args_join_v2(const struct ks_jobad_strv *args, size_t from)
{
	/* HTCondor's canonical form: only the characters that need it are
	 * quoted, each run of them in one quoted section ("x y" becomes
	 * x' 'y), a quote doubled inside, '' for an empty argument */
	struct classad_buf b = {0};
	classad_buf_putc(&b, '\0');
	b.len = 0;
	for (size_t i = from; i < args->n; i++) {
		const char *a = args->v[i];
		if (i > from)
			classad_buf_putc(&b, ' ');
		if (!*a) {
			classad_buf_putc(&b, '\'');
			classad_buf_putc(&b, '\'');
		}
		bool open = false; /* the last thing put closes a quoted run */
		for (; *a; a++) {
			bool special = strchr(" \t\n\r'", *a) != NULL;
			if (!special) {
				classad_buf_putc(&b, *a);
				open = false;
				continue;
			}
			if (open)
				b.len--; /* reopen the run just closed */
			else
				classad_buf_putc(&b, '\'');
			if (*a == '\'')
				classad_buf_putc(&b, '\'');
			classad_buf_putc(&b, *a);
			classad_buf_putc(&b, '\'');
			open = true;
		}
	}
	return b.data;
}

/* ---- environments ---------------------------------------------------- */

/* Index of the entry for name (len bytes), or -1. */
static long env_find(const struct ks_jobad_env *env, const char *name,
		     size_t len)
{
	for (size_t i = 0; i < env->kv.n; i++) {
		const char *e = env->kv.v[i];
		if (strncmp(e, name, len) == 0 && (e[len] == '=' || !e[len]))
			return (long)i;
	}
	return -1;
}

int ks_jobad_env_set(struct ks_jobad_env *env, const char *name,
		     const char *value)
{
	size_t nlen = strlen(name);
	if (!nlen || memchr(name, '=', nlen))
		return KS_EINVAL;
	size_t vlen = value ? strlen(value) : 0;
	char *e = ks_xmalloc(nlen + vlen + 2);
	memcpy(e, name, nlen);
	if (value) {
		e[nlen] = '=';
		memcpy(e + nlen + 1, value, vlen + 1);
	} else {
		e[nlen] = '\0';
	}
	long i = env_find(env, name, nlen);
	if (i >= 0) {
		free(env->kv.v[i]);
		env->kv.v[i] = e;
		return 0;
	}
	ks_jobad_strv_add(&env->kv, "", 0);
	free(env->kv.v[env->kv.n - 1]);
	env->kv.v[env->kv.n - 1] = e;
	return 0;
}

const char *ks_jobad_env_get(const struct ks_jobad_env *env, const char *name)
{
	long i = env_find(env, name, strlen(name));
	if (i < 0)
		return NULL;
	const char *eq = strchr(env->kv.v[i], '=');
	return eq ? eq + 1 : NULL;
}

int ks_jobad_env_put(struct ks_jobad_env *env, const char *entry,
		     struct ks_err *err)
{
	const char *eq = strchr(entry, '=');
	if (!eq && strstr(entry, "$$")) {
		/* An unexpanded $$() macro travels to the job untouched. */
		ks_jobad_env_set(env, entry, NULL);
		return 0;
	}
	if (!eq)
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "environment entry '%s' has no '=' "
				  "(write NAME=VALUE)", entry);
	if (eq == entry)
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "environment entry '%s' names no variable "
				  "before its '='", entry);
	char *name = ks_xstrndup(entry, (size_t)(eq - entry));
	ks_jobad_env_set(env, name, eq + 1);
	free(name);
	return 0;
}

int ks_jobad_env_merge_v2(struct ks_jobad_env *env, const char *raw,
			  struct ks_err *err)
{
	struct ks_jobad_strv items = {0};
	int rc = ks_jobad_args_parse_v2(raw, &items, err);
	for (size_t i = 0; !rc && i < items.n; i++)
		rc = ks_jobad_env_put(env, items.v[i], err);
	ks_jobad_strv_free(&items);
	return rc;
}

/* The characters an old-syntax environment may start with to name its own
 * delimiter. */
static bool is_delim_char(char c)
{
	return c && strchr("!#$%&*+,-/:;<>?@^`|~\x1F", c) != NULL;
}

int ks_jobad_env_merge_v1(struct ks_jobad_env *env, const char *raw, char delim,
			  struct ks_err *err)
{
	if (!raw || !*raw)
		return 0;
	if (!delim)
		delim = ';';
	const char *s = raw;
	if (*s == delim) {
		s++;
	} else if (is_delim_char(*s)) {
		delim = *s++;
	}
	struct classad_buf b = {0};
	int rc = 0;
	while (*s && !rc) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		b.len = 0;
		classad_buf_putc(&b, '\0');
		b.len = 0;
		while (*s && *s != delim && *s != '\n')
			classad_buf_putc(&b, *s++);
		if (*s)
			s++;
		if (b.len)
			rc = ks_jobad_env_put(env, b.data, err);
	}
	free(b.data);
	return rc;
}

int ks_jobad_env_merge_v1_or_v2_quoted(struct ks_jobad_env *env,
				       const char *text, struct ks_err *err)
{
	if (!text)
		return 0;
	if (!ks_jobad_args_is_v2_quoted(text))
		return ks_jobad_env_merge_v1(env, text, 0, err);
	char *raw;
	int rc = ks_jobad_args_unquote_v2(text, &raw, err);
	if (rc)
		return rc;
	rc = ks_jobad_env_merge_v2(env, raw, err);
	free(raw);
	return rc;
}

void ks_jobad_env_replace_in_values(struct ks_jobad_env *env, const char *from,
				    const char *to)
{
	size_t flen = strlen(from), tlen = strlen(to);
	if (!flen)
		return;
	for (size_t i = 0; i < env->kv.n; i++) {
		char *eq = strchr(env->kv.v[i], '=');
		if (!eq || !strstr(eq + 1, from))
			continue;
		struct classad_buf b = {0};
		for (const char *p = env->kv.v[i]; *p;) {
			if (p > eq && strncmp(p, from, flen) == 0) {
				for (size_t k = 0; k < tlen; k++)
					classad_buf_putc(&b, to[k]);
				p += flen;
			} else {
				classad_buf_putc(&b, *p++);
			}
		}
		free(env->kv.v[i]);
		env->kv.v[i] = b.data;
	}
}

void ks_jobad_env_free(struct ks_jobad_env *env)
{
	if (env)
		ks_jobad_strv_free(&env->kv);
}
