/*
 * user.c: choosing and becoming the job's account (sr_user.h).
 */
#include "sr_user.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_mem.h"

/* Looks an account up by name (or by uid when name is NULL) into u.
 * Returns 0, or -1 when there is no such account. */
static int lookup(const char *name, uid_t uid, struct sr_user *u)
{
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t len = size > 0 ? (size_t)size : 16384;
	char *buf = ks_xmalloc(len);
	struct passwd pw, *res = NULL;
	int rc;
	while ((rc = name ? getpwnam_r(name, &pw, buf, len, &res)
			  : getpwuid_r(uid, &pw, buf, len, &res)) == ERANGE) {
		len *= 2;
		buf = ks_xrealloc(buf, len);
	}
	if (rc || !res) {
		free(buf);
		return -1;
	}
	u->uid = pw.pw_uid;
	u->gid = pw.pw_gid;
	u->name = ks_xstrdup(pw.pw_name);
	u->home = ks_xstrdup(pw.pw_dir && *pw.pw_dir ? pw.pw_dir : "/");
	free(buf);
	return 0;
}

static char *note(const char *fmt, const char *owner)
{
	size_t n = strlen(fmt) + strlen(owner) + 1;
	char *s = ks_xmalloc(n);
	snprintf(s, n, fmt, owner);
	return s;
}

int sr_user_pick(const char *owner, struct sr_user *u, struct ks_err *err)
{
	memset(u, 0, sizeof(*u));
	if (geteuid() != 0) {
		if (lookup(NULL, geteuid(), u))
			return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					  "the starter's own uid %u has no "
					  "account (no password entry)",
					  (unsigned)geteuid());
		return 0;
	}
	if (owner && *owner && !lookup(owner, 0, u)) {
		if (u->uid != 0) {
			u->switch_to = true;
			return 0;
		}
		free(u->name);
		free(u->home);
		u->name = u->home = NULL;
		u->note = note("the job's Owner %s is root, and jobs never run "
			       "as root: running it as nobody", owner);
	} else {
		u->note = owner && *owner
				  ? note("the job's Owner %s has no account on "
					 "this machine: running it as nobody",
					 owner)
				  : ks_xstrdup("the job ad names no Owner: "
					       "running it as nobody");
	}
	if (lookup("nobody", 0, u) || u->uid == 0) {
		sr_user_free(u);
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "no account to run the job as: %s, and this "
				  "machine has no unprivileged \"nobody\" account",
				  owner && *owner ? "its Owner cannot be used"
						  : "it names no Owner");
	}
	u->switch_to = true;
	return 0;
}

int sr_user_become(const struct sr_user *u)
{
	if (!u->switch_to)
		return 0;
	if (initgroups(u->name, u->gid) || setgid(u->gid) || setuid(u->uid))
		return -1;
	/* Make sure the switch cannot be undone by the job. */
	if (u->uid != 0 && setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

void sr_user_free(struct sr_user *u)
{
	if (!u)
		return;
	free(u->name);
	free(u->home);
	free(u->note);
	memset(u, 0, sizeof(*u));
}
