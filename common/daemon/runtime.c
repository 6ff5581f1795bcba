/* runtime.c: settings made from outside a running daemon
 * (condor_config_val -set/-unset: DC_CONFIG_PERSIST, kept in
 * $(PERSISTENT_CONFIG_DIR)/.config.<subsys>; -rset/-runset:
 * DC_CONFIG_RUNTIME, kept in memory).  They take effect at the next
 * reconfig, read after every configuration file, persistent ones first,
 * as HTCondor does.  Each needs ENABLE_PERSISTENT_CONFIG /
 * ENABLE_RUNTIME_CONFIG and a name that SETTABLE_ATTRS_ADMINISTRATOR or
 * SETTABLE_ATTRS_CONFIG lists. */
#include "daemon_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_text.h"
#include "ks_wire.h"

/* One setting: the knob's name and its whole configuration line. */
struct kd_setting {
	char *name;
	char *line;
};

struct kd_settings {
	struct kd_setting *v;
	size_t n;
};

static void settings_clear(struct kd_settings *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].line);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Replaces name's setting, adds it, or (line NULL) removes it. */
static void settings_put(struct kd_settings *s, const char *name,
			 const char *line)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcasecmp(s->v[i].name, name) == 0) {
			free(s->v[i].line);
			if (line) {
				s->v[i].line = ks_xstrdup(line);
			} else {
				free(s->v[i].name);
				s->v[i] = s->v[--s->n];
			}
			return;
		}
	if (!line)
		return;
	s->v = ks_xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n].name = ks_xstrdup(name);
	s->v[s->n].line = ks_xstrdup(line);
	s->n++;
}

static char *persist_path(const ks_config *cfg, const char *subsys)
{
	char *dir = ks_config_get(cfg, "PERSISTENT_CONFIG_DIR", NULL);
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + strlen(subsys) + 10;
	char *p = ks_xmalloc(n);
	snprintf(p, n, "%s/.config.%s", dir, subsys);
	free(dir);
	return p;
}

/* The persistent file holds one setting per line: "NAME = value". */
static void persist_read(const char *path, struct kd_settings *s)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		size_t nl = strcspn(line, " \t=:");
		if (nl == 0)
			continue;
		char *name = ks_xstrndup(line, nl);
		settings_put(s, name, line);
		free(name);
	}
	free(line);
	fclose(f);
}

static int persist_write(const char *path, const struct kd_settings *s,
			 struct ks_err *err)
{
	size_t n = strlen(path) + 8;
	char *tmp = ks_xmalloc(n);
	snprintf(tmp, n, "%s.new", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;
	if (!f) {
		rc = ks_err_set(err, KS_EIO, 0, 0, 0, "cannot write %s: %s",
				tmp, strerror(errno));
	} else {
		for (size_t i = 0; i < s->n; i++)
			fprintf(f, "%s\n", s->v[i].line);
		if (fclose(f) != 0 || rename(tmp, path) != 0)
			rc = ks_err_set(err, KS_EIO, 0, 0, 0,
					"cannot write %s: %s", path,
					strerror(errno));
	}
	free(tmp);
	return rc;
}

int kd_runtime_apply(ks_daemon *d, ks_config *cfg, struct ks_err *err)
{
	bool on = false;
	if (ks_config_bool(cfg, "ENABLE_PERSISTENT_CONFIG", &on) && on) {
		char *path = persist_path(cfg, d->subsys);
		struct stat st;
		int rc = 0;
		if (path && stat(path, &st) == 0)
			rc = ks_config_read_file(cfg, path, err);
		free(path);
		if (rc)
			return rc;
	}
	on = false;
	if (ks_config_bool(cfg, "ENABLE_RUNTIME_CONFIG", &on) && on) {
		struct kd_settings *s = d->priv->runtime;
		for (size_t i = 0; s && i < s->n; i++) {
			int rc = ks_config_read_text(cfg, "<runtime>",
						     s->v[i].line,
						     strlen(s->v[i].line), err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

void kd_runtime_free(ks_daemon *d)
{
	if (d->priv->runtime)
		settings_clear(d->priv->runtime);
	free(d->priv->runtime);
	d->priv->runtime = NULL;
}

/* Whether one of the SETTABLE_ATTRS lists names the knob (patterns with
 * '*', as HTCondor's). */
static bool settable(const ks_config *cfg, const char *name)
{
	static const char *const lists[] = {"SETTABLE_ATTRS_ADMINISTRATOR",
					    "SETTABLE_ATTRS_CONFIG"};
	for (size_t i = 0; i < 2; i++) {
		char *v = ks_config_get(cfg, lists[i], NULL);
		for (char *cur = v, *t; (t = ks_list_cut(&cur));)
			if (ks_auth_glob(t, name)) {
				free(v);
				return true;
			}
		free(v);
	}
	return false;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/* DC_CONFIG_PERSIST / DC_CONFIG_RUNTIME: an ad with Name and Setting (the
 * whole line; "" to unset). */
void kd_cmd_config_set(ks_daemon *d, struct ks_request *req)
{
	bool persist = req->code == KS_DC_CONFIG_PERSIST;
	char *name = NULL, *setting = NULL;
	if (!req->n ||
	    !classad_eval_string(req->ads[0], "Name", NULL, &name) ||
	    !classad_eval_string(req->ads[0], "Setting", NULL, &setting) ||
	    !valid_name(name)) {
		ks_reply_error(req, "the request needs a Name (letters, digits "
			       "and _) and a Setting");
		goto out;
	}
	const char *knob = persist ? "ENABLE_PERSISTENT_CONFIG"
				   : "ENABLE_RUNTIME_CONFIG";
	bool on = false;
	if (!ks_config_bool(d->cfg, knob, &on) || !on) {
		ks_reply_error(req, "%s is not true on this %s", knob,
			       d->subsys);
		goto out;
	}
	if (!settable(d->cfg, name)) {
		ks_reply_error(req, "%s is not in SETTABLE_ATTRS_ADMINISTRATOR "
			       "or SETTABLE_ATTRS_CONFIG of this %s", name,
			       d->subsys);
		goto out;
	}
	struct ks_err err;
	if (*setting) {
		/* The line must read on its own as configuration. */
		ks_config *scratch = ks_config_new(d->subsys, d->local_name);
		int rc = ks_config_read_text(scratch, "<request>", setting,
					     strlen(setting), &err);
		ks_config_free(scratch);
		if (rc) {
			ks_reply_error(req, "%s", err.msg);
			goto out;
		}
	}
	const char *line = *setting ? setting : NULL;
	if (persist) {
		char *path = persist_path(d->cfg, d->subsys);
		if (!path) {
			ks_reply_error(req, "PERSISTENT_CONFIG_DIR is not set on "
				       "this %s", d->subsys);
			goto out;
		}
		struct kd_settings s = {0};
		persist_read(path, &s);
		settings_put(&s, name, line);
		int rc = persist_write(path, &s, &err);
		settings_clear(&s);
		free(path);
		if (rc) {
			ks_reply_error(req, "%s", err.msg);
			goto out;
		}
	} else {
		if (!d->priv->runtime)
			d->priv->runtime = ks_xcalloc(1, sizeof(struct kd_settings));
		settings_put(d->priv->runtime, name, line);
	}
	ks_log_printf(d->log, KS_D_ALWAYS, "%s %s%s by %s", line ? "set" : "unset",
		      line ? line : name, persist ? "" : " (runtime)",
		      req->identity);
	classad *ad = classad_new();
	classad_insert_string(ad, "Name", d->name);
	classad_insert_string(ad, "MyAddress", d->sinful);
	ks_reply(req, KS_REPLY_OK, &ad, 1, false);
	classad_free(ad);
out:
	free(name);
	free(setting);
}
