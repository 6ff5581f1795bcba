/*
 * find.c: where a client's tokens live and which one it presents, as
 * HTCondor's IDTOKENS client chooses; and writing a token file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_token.h"
#include "ks_text.h"
#include "token_int.h"

static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + 1 + strlen(name) + 1;
	char *p = ks_xmalloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int ks_token_dir(const ks_config *cfg, char **dir_out, struct ks_err *err)
{
	char *d = ks_config_get(cfg, "SEC_TOKEN_DIRECTORY", NULL);
	if (d) {
		*dir_out = d;
		return 0;
	}
	/* Root serves every user, so its tokens are the system's, never
	 * those of a home directory (HTCondor: root "can switch ids"). */
	if (geteuid() != 0) {
		const char *home = getenv("HOME");
		if (!home || !*home) {
			struct passwd *pw = getpwuid(geteuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (home && *home) {
			*dir_out = join_path(home, ".condor/tokens.d");
			return 0;
		}
	}
	d = ks_config_get(cfg, "SEC_TOKEN_SYSTEM_DIRECTORY", NULL);
	if (!d)
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "no token directory: SEC_TOKEN_DIRECTORY and "
				  "SEC_TOKEN_SYSTEM_DIRECTORY are not set");
	*dir_out = d;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ks_token_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i])
			kt_wipe_free(v[i], strlen(v[i]));
	free(v);
}

int ks_token_dir_files(const ks_config *cfg, const char *dir,
		       char ***files_out, size_t *n_out, struct ks_err *err)
{
	/* (as root, as the files are read: kt_read_file()) */
	struct ks_priv_saved saved;
	if (ks_priv_to_root(&saved, err))
		return KS_EPERM;
	DIR *dh = opendir(dir);
	if (!dh) {
		int e = errno;
		ks_priv_restore(&saved);
		return ks_err_set(err, e == ENOENT ? KS_ENOTFOUND : KS_EIO, 0, 0,
				  0, "cannot read token directory %s: %s", dir,
				  strerror(e));
	}
	/* The same rule that keeps editor backups and package leftovers out
	 * of LOCAL_CONFIG_DIR keeps them from being taken for tokens. */
	char *exclude = ks_config_get(cfg, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP", NULL);
	regex_t re;
	bool have_re = exclude && regcomp(&re, exclude, REG_EXTENDED | REG_NOSUB) == 0;
	free(exclude);
	char **v = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(dh));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (have_re && regexec(&re, e->d_name, 0, NULL, 0) == 0)
			continue;
		char *path = join_path(dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
			free(path);
			continue;
		}
		v = ks_xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = path;
	}
	closedir(dh);
	ks_priv_restore(&saved);
	if (have_re)
		regfree(&re);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	*files_out = v;
	*n_out = n;
	return 0;
}

int ks_token_file_lines(const char *path, bool secure, char ***lines_out,
			size_t *n_out, struct ks_err *err)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	int rc = kt_read_file(path, secure, &buf, &len, err);
	if (rc)
		return rc;
	char **v = NULL;
	size_t n = 0;
	const char *p = (const char *)buf, *end = p + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *s = p, *e = le;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e > s && *s != '#') {
			v = ks_xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = ks_xstrndup(s, (size_t)(e - s));
		}
		p = nl ? nl + 1 : end;
	}
	kt_wipe_free(buf, len + 1);
	*lines_out = v;
	*n_out = n;
	return 0;
}

/* Whether line is a token this server may accept (HTCondor's client-side
 * test, plus expiry); on yes *parsed is its parse. */
static bool usable(const char *line, const struct ks_token_find_opts *o,
		   int64_t now, struct ks_token **parsed)
{
	struct ks_token *t = NULL;
	if (ks_token_parse(line, strlen(line), &t, NULL))
		return false;
	bool ok = t->has_sig && t->sig_len == KS_TOKEN_SIG_LEN && t->kid &&
		  *t->kid && t->sub && *t->sub;
	if (ok && o && o->key_ids) {
		ok = false;
		for (size_t i = 0; i < o->nkey_ids; i++)
			if (o->key_ids[i] && !strcmp(o->key_ids[i], t->kid))
				ok = true;
	}
	if (ok && o && o->issuer)
		ok = t->iss && !strcmp(t->iss, o->issuer);
	if (ok && t->has_exp && t->exp < now)
		ok = false;
	if (!ok) {
		ks_token_free(t);
		return false;
	}
	*parsed = t;
	return true;
}

/* The first usable token of file path; 0 found, KS_ENOTFOUND not. */
static int find_in_file(const char *path, const struct ks_token_find_opts *o,
			int64_t now, char **token_out, struct ks_token **parsed)
{
	char **lines = NULL;
	size_t n = 0;
	if (ks_token_file_lines(path, true, &lines, &n, NULL))
		return KS_ENOTFOUND;
	int rc = KS_ENOTFOUND;
	for (size_t i = 0; i < n && rc; i++) {
		if (usable(lines[i], o, now, parsed)) {
			*token_out = lines[i];
			lines[i] = NULL;
			rc = 0;
		}
	}
	ks_token_strv_free(lines, n);
	return rc;
}

int ks_token_find(const ks_config *cfg, const struct ks_token_find_opts *opts,
		  char **token_out, struct ks_token **parsed_out,
		  struct ks_err *err)
{
	int64_t now = opts && opts->now ? opts->now : (int64_t)time(NULL);
	char *dir = NULL;
	int rc = ks_token_dir(cfg, &dir, err);
	if (rc)
		return rc;
	char **files = NULL;
	size_t n = 0;
	if (ks_token_dir_files(cfg, dir, &files, &n, NULL))
		n = 0;

	/* A daemon's own auto-generated token goes first, as in HTCondor. */
	size_t first = n;
	if (opts && opts->subsys) {
		size_t len = strlen(opts->subsys) + sizeof("_auto_generated_token");
		char *want = ks_xmalloc(len);
		snprintf(want, len, "%s_auto_generated_token", opts->subsys);
		for (size_t i = 0; i < n; i++) {
			const char *base = strrchr(files[i], '/');
			base = base ? base + 1 : files[i];
			if (!strcasecmp(base, want))
				first = i;
		}
		free(want);
	}
	struct ks_token *t = NULL;
	char *tok = NULL;
	rc = KS_ENOTFOUND;
	if (first < n)
		rc = find_in_file(files[first], opts, now, &tok, &t);
	for (size_t i = 0; i < n && rc; i++)
		if (i != first)
			rc = find_in_file(files[i], opts, now, &tok, &t);
	ks_token_strv_free(files, n);
	if (rc) {
		rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				"no usable token in %s", dir);
		free(dir);
		return rc;
	}
	free(dir);
	*token_out = tok;
	if (parsed_out)
		*parsed_out = t;
	else
		ks_token_free(t);
	return 0;
}

int ks_token_write_file(const char *path, const char *token, struct ks_err *err)
{
	/* O_NOFOLLOW: when run as root into a directory others can write, a
	 * planted symlink must not redirect the secret. */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	if (fd < 0) {
		int e = errno;
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot write token to %s: %s", path,
				  strerror(e));
	}
	int rc = 0;
	if (fchmod(fd, 0600) != 0)
		rc = -1;
	size_t n = strlen(token);
	const char *p = token;
	while (!rc && n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = -1;
			break;
		}
		p += w;
		n -= (size_t)w;
	}
	while (!rc) {
		ssize_t w = write(fd, "\n", 1);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != 1)
			rc = -1;
		break;
	}
	int e = errno;
	if (close(fd) != 0 && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc)
		return ks_err_set(err, KS_EIO, 0, 0, 0,
				  "cannot write token to %s: %s", path,
				  strerror(e));
	return 0;
}

int ks_token_save(const ks_config *cfg, const char *name, const char *token,
		  char **path_out, struct ks_err *err)
{
	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return ks_err_set(err, KS_EINVAL, 0, 0, 0,
				  "token name '%s' is not a plain file name",
				  name ? name : "");
	char *dir = NULL;
	int rc = ks_token_dir(cfg, &dir, err);
	if (rc)
		return rc;
	if (ks_mkdirs(dir, 0700) != 0) {
		int e = errno;
		rc = ks_err_set(err, KS_EIO, 0, 0, 0,
				"cannot make token directory %s: %s", dir,
				strerror(e));
		free(dir);
		return rc;
	}
	char *path = join_path(dir, name);
	free(dir);
	rc = ks_token_write_file(path, token, err);
	if (rc == 0 && path_out)
		*path_out = path;
	else
		free(path);
	return rc;
}
