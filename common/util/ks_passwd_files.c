/*
 * ks_passwd_files.c: accounts from /etc/passwd and /etc/group alone
 * (ks_passwd.h), for the statically linked starter.  glibc's own
 * fgetpwent_r() and fgetgrent_r() read the lines, as its NSS "files"
 * module does, without loading any module.
 */
#include "ks_passwd.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

/* What a reader's return rc means: 1 read again, with the larger buffer
 * made here (a line longer than *buf gives ERANGE and is read again); 0
 * an entry was read; -1 the end (ENOENT) or an error. */
static int step(int rc, char **buf, size_t *len)
{
	if (rc == ERANGE) {
		*len *= 2;
		*buf = ks_xrealloc(*buf, *len);
		return 1;
	}
	return rc ? -1 : 0;
}

static int lookup(const char *name, uid_t uid, struct ks_passwd *pw)
{
	FILE *f = fopen("/etc/passwd", "re");
	if (!f)
		return -1;
	size_t len = 4096;
	char *buf = ks_xmalloc(len);
	struct passwd p, *res;
	int rc, found = -1;
	while ((rc = step(fgetpwent_r(f, &p, buf, len, &res), &buf, &len)) >= 0) {
		if (rc == 0 && (name ? strcmp(p.pw_name, name) == 0
				     : p.pw_uid == uid)) {
			pw->uid = p.pw_uid;
			pw->gid = p.pw_gid;
			pw->name = ks_xstrdup(p.pw_name);
			pw->home = ks_xstrdup(p.pw_dir && *p.pw_dir ? p.pw_dir
								    : "/");
			found = 0;
			break;
		}
	}
	free(buf);
	fclose(f);
	return found;
}

int ks_passwd_by_name(const char *name, struct ks_passwd *pw)
{
	return lookup(name, 0, pw);
}

int ks_passwd_by_uid(uid_t uid, struct ks_passwd *pw)
{
	return lookup(NULL, uid, pw);
}

static bool member(char **mem, const char *name)
{
	for (; mem && *mem; mem++)
		if (strcmp(*mem, name) == 0)
			return true;
	return false;
}

int ks_passwd_groups(const char *name, gid_t gid, gid_t **groups)
{
	size_t cap = 16, n = 0;
	gid_t *g = ks_xmalloc(sizeof(gid_t) * cap);
	g[n++] = gid;
	FILE *f = fopen("/etc/group", "re");
	if (f) {
		size_t len = 4096;
		char *buf = ks_xmalloc(len);
		struct group gr, *res;
		int rc;
		while ((rc = step(fgetgrent_r(f, &gr, buf, len, &res), &buf,
				  &len)) >= 0) {
			if (rc)
				continue;
			bool seen = false;
			for (size_t i = 0; i < n && !seen; i++)
				seen = g[i] == gr.gr_gid;
			if (seen || !member(gr.gr_mem, name))
				continue;
			if (n == cap)
				g = ks_xrealloc(g, sizeof(gid_t) * (cap *= 2));
			g[n++] = gr.gr_gid;
		}
		free(buf);
		fclose(f);
	}
	*groups = g;
	return (int)n;
}
