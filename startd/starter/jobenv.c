/*
 * jobenv.c: the job's environment (sr_jobenv.h).
 */
#include "sr_jobenv.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_mem.h"
#include "ks_jobad.h"
#include "ks_text.h"

extern char **environ;

/* Case-blind match of name against a pattern with '*' wildcards, as
 * JOB_INHERITS_STARTER_ENVIRONMENT's lists are matched. */
static bool wild_match(const char *pat, const char *name)
{
	if (!*pat)
		return !*name;
	if (*pat == '*') {
		for (const char *n = name;; n++) {
			if (wild_match(pat + 1, n))
				return true;
			if (!*n)
				return false;
		}
	}
	return *name && tolower((unsigned char)*pat) ==
				tolower((unsigned char)*name) &&
	       wild_match(pat + 1, name + 1);
}

/* Whether variable name passes JOB_INHERITS_STARTER_ENVIRONMENT's list:
 * "!pattern" items exclude, other items include, and with no include
 * item everything not excluded passes. */
static bool inherits(const char *list, const char *name)
{
	bool any_white = false, white = false, black = false;
	size_t pos = 0, len;
	for (const char *p; !black &&
	     (p = ks_list_next_sep(list, ",; \t\r\n", &pos, &len));) {
		char *t = ks_xstrndup(p, len);
		if (*t == '!') {
			black = t[1] && wild_match(t + 1, name);
		} else {
			any_white = true;
			white = white || wild_match(t, name);
		}
		free(t);
	}
	return !black && (!any_white || white);
}

static void inherit_starter_env(const ks_config *cfg, struct ks_jobad_env *out)
{
	char *list = ks_config_get(cfg, "JOB_INHERITS_STARTER_ENVIRONMENT",
				   NULL);
	if (!list || !strcasecmp(list, "false")) {
		free(list);
		return;
	}
	bool all = !strcasecmp(list, "true") || !strcmp(list, "*");
	for (char **e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		/* A value with a newline cannot travel in an ad, and
		 * HTCondor drops it here too. */
		if (!eq || eq == *e || strchr(eq, '\n'))
			continue;
		char *name = ks_xstrndup(*e, (size_t)(eq - *e));
		if (all || inherits(list, name))
			ks_jobad_env_set(out, name, eq + 1);
		free(name);
	}
	free(list);
}

static char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return ks_xstrdup(s ? s + 1 : path);
}

static void set_x509(const struct sr_jobenv_in *in, struct ks_jobad_env *out)
{
	const char *proxy = in->job->x509_proxy;
	if (!proxy || !*proxy)
		return;
	/* Transferred files land flat in the sandbox. */
	char *p = in->job->shared_fs ? ks_xstrdup(proxy) : base_name(proxy);
	if (p[0] != '/') {
		size_t n = strlen(in->cwd) + strlen(p) + 2;
		char *full = ks_xmalloc(n);
		snprintf(full, n, "%s/%s", in->cwd, p);
		free(p);
		p = full;
	}
	ks_jobad_env_set(out, "X509_USER_PROXY", p);
	free(p);
}

int sr_jobenv_build(const struct sr_jobenv_in *in, struct ks_jobad_env *out,
		    struct ks_err *err)
{
	memset(out, 0, sizeof(*out));
	inherit_starter_env(in->cfg, out);

	char *site = ks_config_get(in->cfg, "STARTER_JOB_ENVIRONMENT", NULL);
	struct ks_err e;
	if (site && ks_jobad_env_merge_v1_or_v2_quoted(out, site, &e)) {
		ks_err_set(err, KS_EINVAL, 0, 0, 0,
			   "STARTER_JOB_ENVIRONMENT (%s): %s", site, e.msg);
		free(site);
		return KS_EINVAL;
	}
	free(site);

	const struct ks_jobad_strv *job = &in->job->env.kv;
	for (size_t i = 0; i < job->n; i++) {
		const char *eq = strchr(job->v[i], '=');
		if (!eq) {
			ks_jobad_env_set(out, job->v[i], NULL);
			continue;
		}
		char *name = ks_xstrndup(job->v[i], (size_t)(eq - job->v[i]));
		ks_jobad_env_set(out, name, eq + 1);
		free(name);
	}

	char pid[24];
	snprintf(pid, sizeof(pid), "%ld", (long)in->starter_pid);
	ks_jobad_env_set(out, "BATCH_SYSTEM", "HTCondor");
	ks_jobad_env_set(out, "_CONDOR_JOB_IWD", in->cwd);
	char *bin = ks_config_get(in->cfg, "BIN", NULL);
	if (bin && *bin)
		ks_jobad_env_set(out, "_CONDOR_BIN", bin);
	free(bin);
	set_x509(in, out);
	ks_jobad_env_set(out, "CONDOR_STARTER_PID", pid);
	ks_jobad_env_set(out, "_CONDOR_SCRATCH_DIR", in->sandbox);
	ks_jobad_env_set(out, "APPTAINER_CACHEDIR", in->sandbox);
	ks_jobad_env_set(out, "SINGULARITY_CACHEDIR", in->sandbox);
	if (in->slot && *in->slot)
		ks_jobad_env_set(out, "_CONDOR_SLOT", in->slot);
	ks_jobad_env_set(out, "TMPDIR", in->sandbox);
	ks_jobad_env_set(out, "TEMP", in->sandbox);
	ks_jobad_env_set(out, "TMP", in->sandbox);
	if (in->job_ad)
		ks_jobad_env_set(out, "_CONDOR_JOB_AD", in->job_ad);
	if (in->machine_ad)
		ks_jobad_env_set(out, "_CONDOR_MACHINE_AD", in->machine_ad);
	ks_jobad_assigned_env(in->cfg, in->machine, out, in->log);
	bool home = true;
	ks_config_bool(in->cfg, "STARTER_SETS_HOME_ENV", &home);
	if (home && in->user->home)
		ks_jobad_env_set(out, "HOME", in->user->home);
	ks_jobad_env_replace_in_values(out, "#CoNdOrScRaTcHdIr#", in->sandbox);
	return 0;
}
