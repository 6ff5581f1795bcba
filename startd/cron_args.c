/*
 * cron_args.c: a cron job's ARGS and ENV, split the way HTCondor splits
 * them (condor_arglist, env), by the starter's parser of the same
 * syntaxes (ks_jobad.h): a value that starts with a double quote is the
 * "new" syntax, anything else the old one.
 */
#include "cron_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"
#include "ks_jobad.h"

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

int sd_cron_split_args(const char *s, char ***v, char *err, size_t errlen)
{
	if (!s)
		return 0;
	struct ks_jobad_strv out = {0};
	struct ks_err e = {0};
	int rc = 0;
	if (ks_jobad_args_is_v2_quoted(s)) {
		char *raw = NULL;
		rc = ks_jobad_args_unquote_v2(s, &raw, &e);
		if (rc == 0)
			rc = ks_jobad_args_parse_v2(raw, &out, &e);
		free(raw);
	} else {
		ks_jobad_args_parse_v1(s, &out);
	}
	for (size_t i = 0; rc == 0 && i < out.n; i++)
		vec_push(v, ks_xstrdup(out.v[i]));
	ks_jobad_strv_free(&out);
	if (rc)
		snprintf(err, errlen, "%s", e.msg);
	return rc ? -1 : 0;
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

int sd_cron_split_env(const char *s, char ***v, char *err, size_t errlen)
{
	if (!s || !*s)
		return 0;
	struct ks_jobad_env env = {0};
	struct ks_err e = {0};
	int rc = ks_jobad_env_merge_v1_or_v2_quoted(&env, s, &e);
	for (size_t i = 0; rc == 0 && i < env.kv.n; i++) {
		const char *entry = env.kv.v[i];
		const char *eq = strchr(entry, '=');
		if (!eq)
			continue; /* a "$$" entry: nothing to set */
		char *name = ks_xstrndup(entry, (size_t)(eq - entry));
		sd_cron_env_set(v, name, eq + 1);
		free(name);
	}
	ks_jobad_env_free(&env);
	if (rc)
		snprintf(err, errlen, "%s", e.msg);
	return rc ? -1 : 0;
}
