/*
 * load.c: where a daemon's configuration comes from, in HTCondor's order:
 * built-in macros, the global file (CONDOR_CONFIG or a default location),
 * LOCAL_CONFIG_DIR, LOCAL_CONFIG_FILE, LOCAL_CONFIG_DIR again if that
 * changed it, then _CONDOR_NAME environment overrides.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config_int.h"
#include "ks_passwd.h"

extern char **environ;

static void builtin(ks_config *cfg, int src, const char *name,
		    const char *value)
{
	kc_insert(cfg, name, value, src, 0, NULL);
}

static void builtin_int(ks_config *cfg, int src, const char *name, long v)
{
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%ld", v);
	builtin(cfg, src, name, tmp);
}

/* The macros HTCondor computes rather than reads. */
static void builtins(ks_config *cfg)
{
	int src = kc_add_source(cfg, "<Detected>", false);
	char host[256] = "localhost";
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	char full[256];
	snprintf(full, sizeof(full), "%s", host);
	/* The short name is the host name up to its first dot. */
	char *dot = strchr(host, '.');
	if (dot)
		*dot = '\0';
	builtin(cfg, src, "HOSTNAME", host);
	builtin(cfg, src, "FULL_HOSTNAME", full);
	builtin(cfg, src, "IP_ADDRESS", "127.0.0.1");
	builtin(cfg, src, "IPV4_ADDRESS", "127.0.0.1");
	/* kc_settle(): TILDE, USERNAME and DETECTED_*, when first asked */
	cfg->tilde_source = src;
	builtin_int(cfg, src, "PID", (long)getpid());
	builtin_int(cfg, src, "PPID", (long)getppid());
	builtin_int(cfg, src, "REAL_UID", (long)getuid());
	builtin_int(cfg, src, "REAL_GID", (long)getgid());
	if (cfg->subsys)
		builtin(cfg, src, "SUBSYSTEM", cfg->subsys);
	if (cfg->localname)
		builtin(cfg, src, "LOCALNAME", cfg->localname);
	struct utsname u;
	if (uname(&u) == 0) {
		builtin(cfg, src, "UNAME_ARCH", u.machine);
		builtin(cfg, src, "UNAME_OPSYS", u.sysname);
		builtin(cfg, src, "ARCH",
			!strcmp(u.machine, "x86_64") ? "X86_64"
			: !strcmp(u.machine, "aarch64") ? "aarch64"
							 : u.machine);
	}
	builtin(cfg, src, "OPSYS", "LINUX");
	builtin(cfg, src, "OPSYSANDVER", "LINUX");
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The global file: CONDOR_CONFIG, else the first default location that
 * exists.  Returns 0 with *path (NULL for ONLY_ENV) or an error. */
static int global_file(char **path, struct ks_err *err)
{
	*path = NULL;
	const char *env = getenv("CONDOR_CONFIG");
	if (env && *env) {
		if (!strcmp(env, "ONLY_ENV"))
			return 0;
		if (!exists(env) && env[strlen(env) - 1] != '|')
			return ks_err_set(err, KS_EIO, 0, 0, 0,
					  "cannot read the file '%s' that "
					  "CONDOR_CONFIG names: %s",
					  env, strerror(errno));
		*path = ks_xstrdup(env);
		return 0;
	}
	char buf[4096];
	const char *cands[] = {"/etc/condor/condor_config",
			       "/usr/local/etc/condor_config", NULL};
	for (size_t i = 0; cands[i]; i++)
		if (exists(cands[i])) {
			*path = ks_xstrdup(cands[i]);
			return 0;
		}
	/* the password database last: looking in it costs more than the
	 * rest of a tool's start */
	struct ks_passwd pw;
	if (ks_passwd_by_name("condor", &pw) == 0) {
		snprintf(buf, sizeof(buf), "%s/condor_config", pw.home);
		ks_passwd_clear(&pw);
		if (exists(buf)) {
			*path = ks_xstrdup(buf);
			return 0;
		}
	}
	return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
			  "neither the environment variable CONDOR_CONFIG, "
			  "/etc/condor/, /usr/local/etc/, nor ~condor/ "
			  "contain a condor_config source");
}

/* Splits a list value at commas and white space. */
static char *next_item(char **p)
{
	char *s = *p;
	while (*s && (isspace((unsigned char)*s) || *s == ','))
		s++;
	if (!*s)
		return NULL;
	char *e = s;
	while (*e && !isspace((unsigned char)*e) && *e != ',')
		e++;
	*p = *e ? e + 1 : e;
	*e = '\0';
	return s;
}

static int local_files(ks_config *cfg, struct ks_err *err)
{
	char *list = ks_config_get(cfg, "LOCAL_CONFIG_FILE", err);
	if (!list)
		return err && err->code ? err->code : 0;
	bool require = true;
	ks_config_bool(cfg, "REQUIRE_LOCAL_CONFIG_FILE", &require);
	int rc = 0;
	if (strchr(list, '|')) {
		/* A '|' anywhere makes the whole value one command. */
		rc = kc_read_source(cfg, list, true, true, 0, err);
		free(list);
		return rc;
	}
	char *p = list;
	for (char *f; !rc && (f = next_item(&p));)
		rc = kc_read_source(cfg, f, false, require, 0, err);
	free(list);
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int local_dirs(ks_config *cfg, char *list, struct ks_err *err)
{
	char *exclude = ks_config_get(cfg, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP",
				      NULL);
	regex_t re;
	bool have_re = exclude && regcomp(&re, exclude, REG_EXTENDED | REG_NOSUB) == 0;
	int rc = 0;
	char *p = list;
	for (char *d; !rc && (d = next_item(&p));) {
		DIR *dir = opendir(d);
		if (!dir)
			continue;
		char **names = NULL;
		size_t n = 0;
		for (struct dirent *e; (e = readdir(dir));) {
			if (e->d_name[0] == '.')
				continue;
			if (have_re && regexec(&re, e->d_name, 0, NULL, 0) == 0)
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", d, e->d_name);
			struct stat st;
			if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			names = ks_xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = ks_xstrdup(path);
		}
		closedir(dir);
		qsort(names, n, sizeof(*names), cmp_names);
		for (size_t i = 0; i < n; i++) {
			if (!rc)
				rc = kc_read_source(cfg, names[i], false, true, 0,
						    err);
			free(names[i]);
		}
		free(names);
	}
	if (have_re)
		regfree(&re);
	free(exclude);
	return rc;
}

/* _CONDOR_NAME=value overrides everything read from files. */
static void env_overrides(ks_config *cfg)
{
	for (char **e = environ; *e; e++) {
		if (strncasecmp(*e, "_CONDOR_", 8) != 0)
			continue;
		const char *eq = strchr(*e, '=');
		if (!eq || eq == *e + 8)
			continue;
		char *name = ks_xstrndup(*e + 8, (size_t)(eq - *e - 8));
		if (kc_valid_name(name, strlen(name))) {
			char *v = kc_expand_self(cfg, eq + 1, name);
			kc_insert(cfg, name, v, KC_SRC_ENV, 0, NULL);
			free(v);
		}
		free(name);
	}
}

ks_config *ks_config_load_new(const char *subsys, const char *localname,
			      struct ks_err *err)
{
	ks_config *cfg = ks_config_new(subsys, localname);
	if (ks_config_load(cfg, err) != 0) {
		ks_config_free(cfg);
		return NULL;
	}
	return cfg;
}

int ks_config_load(ks_config *cfg, struct ks_err *err)
{
	ks_err_clear(err);
	builtins(cfg);
	char *path;
	int rc = global_file(&path, err);
	if (rc)
		return rc;
	if (path) {
		rc = kc_read_source(cfg, path, false, true, 0, err);
		free(path);
		if (rc)
			return rc;
	}
	/* HTCondor reads LOCAL_CONFIG_DIR, then LOCAL_CONFIG_FILE, then the
	 * directories again if the files changed LOCAL_CONFIG_DIR. */
	char *dirs = ks_config_get(cfg, "LOCAL_CONFIG_DIR", NULL);
	if (dirs) {
		char *list = ks_xstrdup(dirs); /* local_dirs() cuts it up */
		rc = local_dirs(cfg, list, err);
		free(list);
	}
	if (!rc)
		rc = local_files(cfg, err);
	char *again = rc ? NULL : ks_config_get(cfg, "LOCAL_CONFIG_DIR", NULL);
	if (again && (!dirs || strcmp(again, dirs) != 0))
		rc = local_dirs(cfg, again, err);
	free(again);
	free(dirs);
	if (!rc)
		env_overrides(cfg);
	return rc;
}
