/*
 * ks_passwd.c: accounts through the system's name service (ks_passwd.h).
 */
#include "ks_passwd.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "ks_mem.h"

static int lookup(const char *name, uid_t uid, struct ks_passwd *pw)
{
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t len = size > 0 ? (size_t)size : 16384;
	char *buf = ks_xmalloc(len);
	struct passwd p, *res = NULL;
	int rc;
	while ((rc = name ? getpwnam_r(name, &p, buf, len, &res)
			  : getpwuid_r(uid, &p, buf, len, &res)) == ERANGE) {
		len *= 2;
		buf = ks_xrealloc(buf, len);
	}
	if (rc || !res) {
		free(buf);
		return -1;
	}
	pw->uid = p.pw_uid;
	pw->gid = p.pw_gid;
	pw->name = ks_xstrdup(p.pw_name);
	pw->home = ks_xstrdup(p.pw_dir && *p.pw_dir ? p.pw_dir : "/");
	free(buf);
	return 0;
}

int ks_passwd_by_name(const char *name, struct ks_passwd *pw)
{
	return lookup(name, 0, pw);
}

int ks_passwd_by_uid(uid_t uid, struct ks_passwd *pw)
{
	return lookup(NULL, uid, pw);
}

int ks_passwd_groups(const char *name, gid_t gid, gid_t **groups)
{
	int n = 16;
	gid_t *g = ks_xmalloc(sizeof(gid_t) * (size_t)n);
	/* a short array gets -1 and the number needed in n */
	while (getgrouplist(name, gid, g, &n) < 0)
		g = ks_xrealloc(g, sizeof(gid_t) * (size_t)n);
	*groups = g;
	return n;
}
