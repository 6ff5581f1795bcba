/* creds.c: the credentials a job asks condor_submit to send or name, as
 * HTCondor 25's condor_submit writes them: an X.509 proxy
 * (x509userproxy, use_x509userproxy), its delegation lifetime, a
 * SciToken file (use_scitokens, scitokens_file) and the OAuth services
 * whose tokens the job needs (use_oauth_services). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "submit.h"

/* Whether the file at path reads as a certificate in PEM (what
 * condor_submit can tell of a proxy without a TLS library). */
static bool reads_as_cert(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t len;
	char *text = ks_read_all(f, &len);
	fclose(f);
	bool ok = text && strstr(text, "-----BEGIN CERTIFICATE-----");
	free(text);
	return ok;
}

char *sub_job_path(const classad *ad, const char *name)
{
	char *iwd = NULL;
	classad_eval_string(ad, "Iwd", NULL, &iwd);
	char *p = ks_path_in(iwd ? iwd : ".", name);
	free(iwd);
	/* "a//b" is "a/b", as HTCondor writes it */
	char *to = p;
	for (const char *from = p; *from; from++)
		if (*from != '/' || to == p || to[-1] != '/')
			*to++ = *from;
	*to = '\0';
	return p;
}

static int set_proxy(const struct sub_job_ctx *c, classad *ad,
		     struct ks_err *err)
{
	bool use = false;
	int rc = sub_param_bool(c, "use_x509userproxy", NULL, false, &use,
				err);
	if (rc)
		return rc;
	char *file = sub_param(c, "x509userproxy", NULL);
	if (!file && use) {
		/* where GSI looks: X509_USER_PROXY, else /tmp/x509up_u<uid> */
		const char *env = getenv("X509_USER_PROXY");
		file = ks_xmalloc(64 + (env ? strlen(env) : 0));
		if (env)
			strcpy(file, env);
		else
			sprintf(file, "/tmp/x509up_u%ld", (long)geteuid());
	}
	if (!file)
		return 0;
	char *full = sub_job_path(ad, file);
	free(file);
	if (!reads_as_cert(full))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"unable to read proxy file");
	else
		classad_insert_string(ad, "x509userproxy", full);
	free(full);
	return rc;
}

static int set_scitokens(const struct sub_job_ctx *c, classad *ad,
			 struct ks_err *err)
{
	char *use_cmd = sub_param(c, "use_scitokens", "use_scitoken");
	char *file = sub_param(c, "scitokens_file", "ScitokensFile");
	const char *bearer = getenv("BEARER_TOKEN_FILE");
	bool use = file != NULL;
	int rc = 0;
	if (use_cmd && !strcasecmp(use_cmd, "auto"))
		use = file || (bearer && *bearer);
	else if (use_cmd && !sub_value_bool(use_cmd, &use))
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"use_scitokens error. Value should be true, "
				"false, or auto.");
	const char *name = file ? file : bearer;
	if (!rc && use && !name)
		rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
				"No Scitokens filename specified. Expected either "
				"scitokens_file command or the BEARER_TOKEN_FILE "
				"environment variable to be set.");
	else if (!rc && use) {
		char *full = sub_job_path(ad, name);
		classad_insert_string(ad, "ScitokensFile", full);
		free(full);
	}
	free(use_cmd);
	free(file);
	return rc;
}

int sub_set_credentials(const struct sub_job_ctx *c, classad *ad,
			struct ks_err *err)
{
	int rc = set_proxy(c, ad, err);
	if (rc)
		return rc;
	char *v = sub_param(c, "delegate_job_gsi_credentials_lifetime",
			    "DelegateJobGSICredentialsLifetime");
	if (v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (*end)
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"invalid integer setting "
					"delegate_job_gsi_credentials_lifetime = %s",
					v);
		else
			classad_insert_int(ad, "DelegateJobGSICredentialsLifetime",
					   (int)n);
		free(v);
		if (rc)
			return rc;
	}
	return set_scitokens(c, ad, err);
}

/* ---- OAuth ----------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Where "_oauth_permissions", "_oauth_resource" or "_oauth_options"
 * (case ignored) starts in key, and *end where it ends; NULL if
 * nowhere. */
static const char *oauth_part(const char *key, const char **end)
{
	static const char *const kinds[] = {"permissions", "resource",
					    "options"};
	for (const char *p = key; *p; p++) {
		if (strncasecmp(p, "_oauth_", 7))
			continue;
		for (size_t i = 0; i < 3; i++)
			if (!strncasecmp(p + 7, kinds[i], strlen(kinds[i]))) {
				*end = p + 7 + strlen(kinds[i]);
				return p;
			}
	}
	return NULL;
}

static bool in_list(const char *list, const char *name, size_t len)
{
	size_t pos = 0, n;
	for (const char *p; (p = ks_list_next(list, &pos, &n));)
		if (n == len && !strncasecmp(p, name, n))
			return true;
	return false;
}

void sub_set_oauth(const struct sub_job_ctx *c, classad *ad)
{
	char *wanted = sub_param(c, "use_oauth_services", "UseOAuthServices");
	if (!wanted)
		return;
	char **names = NULL;
	size_t n = 0, cap = 0;
	/* a service with a handle (box_oauth_permissions_read) is needed
	 * as "box*read", and then no longer bare */
	struct classad_buf handled = {0};
	const struct sub_file *f = c->file;
	for (size_t i = 0; i <= c->queue->nvars_set; i++) {
		const char *key = NULL;
		char *name = NULL;
		if (i < c->queue->nvars_set) {
			key = f->vars[i].name;
			const char *end, *at = f->vars[i].attr ? NULL
							      : oauth_part(key, &end);
			if (!at || !in_list(wanted, key, (size_t)(at - key)))
				continue;
			size_t svc = (size_t)(at - key);
			if (*end) {
				classad_buf_printf(&handled, ",%.*s", (int)svc, key);
				name = ks_xmalloc(strlen(key) + 2);
				sprintf(name, "%.*s*%s", (int)svc, key, end + 1);
			} else {
				name = ks_xstrndup(key, svc);
			}
		}
		if (n + 64 >= cap)
			names = ks_xrealloc(names, (cap = cap * 2 + 64) *
						   sizeof(*names));
		if (name) {
			names[n++] = name;
			continue;
		}
		/* the bare services, last */
		size_t pos = 0, len;
		for (const char *p; (p = ks_list_next(wanted, &pos, &len));)
			if (!in_list(handled.data ? handled.data : "", p, len)) {
				if (n == cap)
					names = ks_xrealloc(names, (cap *= 2) *
								   sizeof(*names));
				names[n++] = ks_xstrndup(p, len);
			}
	}
	qsort(names, n, sizeof(*names), by_name);
	struct classad_buf b = {0};
	for (size_t i = 0; i < n; i++)
		if (!i || strcasecmp(names[i], names[i - 1]))
			classad_buf_printf(&b, "%s%s", b.len ? "," : "", names[i]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	if (b.len)
		classad_insert_string(ad, "OAuthServicesNeeded", b.data);
	free(b.data);
	free(names);
	free(handled.data);
	free(wanted);
}
