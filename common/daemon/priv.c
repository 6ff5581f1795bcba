/*
 * priv.c: the account a daemon started by root runs as (ks_priv.h), as
 * HTCondor's daemons choose it: CONDOR_IDS ("uid.gid") from the
 * environment, else from the configuration, else the account named
 * condor; none of them is an error, for a daemon must not run as root
 * by default.  The daemon then acts as that account, with root's or a
 * user's identity only for a moment (ks_priv_to_root(),
 * ks_priv_to_owner()).
 *
 * The directories of a personal pool's first start (LOG, SPOOL, EXECUTE,
 * LOCK) are made for that account: a daemon that makes one as root gives
 * it to the account, so that the daemons can write their logs and state.
 * One that exists is left as it is.
 */
#include "daemon_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_passwd.h"
#include "ks_priv.h"

/* "uid.gid", both numbers (HTCondor's format).  False when it is not. */
static bool parse_ids(const char *v, uid_t *uid, gid_t *gid)
{
	char *end;
	errno = 0;
	unsigned long u = strtoul(v, &end, 10);
	if (end == v || *end != '.' || errno || u > UINT_MAX)
		return false;
	const char *g = end + 1;
	unsigned long gg = strtoul(g, &end, 10);
	if (end == g || *end || errno || gg > UINT_MAX)
		return false;
	*uid = (uid_t)u;
	*gid = (gid_t)gg;
	return true;
}

int kd_priv_ids(ks_daemon *d, struct ks_err *err)
{
	free(d->condor_name);
	d->condor_name = NULL;
	if (!ks_priv_can_switch()) {
		/* a user's pool: everything runs as that user */
		d->condor_uid = geteuid();
		d->condor_gid = getegid();
		struct ks_passwd pw;
		if (ks_passwd_by_uid(d->condor_uid, &pw) == 0) {
			d->condor_name = ks_xstrdup(pw.name);
			ks_passwd_clear(&pw);
		}
		return 0;
	}
	const char *env = getenv("CONDOR_IDS");
	char *cfg = env ? NULL : ks_config_get(d->cfg, "CONDOR_IDS", NULL);
	const char *v = env ? env : cfg && *cfg ? cfg : NULL;
	int rc = 0;
	struct ks_passwd pw;
	if (v) {
		uid_t uid = 0;
		gid_t gid = 0;
		if (!parse_ids(v, &uid, &gid))
			rc = ks_err_set(err, KS_EINVAL, 0, 0, 0,
					"badly formed value in the CONDOR_IDS %s "
					"variable (%s); set CONDOR_IDS to the "
					"'.' separated uid, gid pair the "
					"daemons should run as",
					env ? "environment" : "config file", v);
		else if (ks_passwd_by_uid(uid, &pw) != 0)
			rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					"the uid in the CONDOR_IDS %s variable "
					"(%u) does not exist in the password "
					"information; set CONDOR_IDS to the '.' "
					"separated uid, gid pair the daemons "
					"should run as",
					env ? "environment" : "config file",
					(unsigned)uid);
		if (rc == 0) {
			d->condor_uid = uid;
			d->condor_gid = gid;
			d->condor_name = ks_xstrdup(pw.name);
			ks_passwd_clear(&pw);
		}
	} else if (ks_passwd_by_name("condor", &pw) == 0) {
		d->condor_uid = pw.uid;
		d->condor_gid = pw.gid;
		d->condor_name = ks_xstrdup(pw.name);
		ks_passwd_clear(&pw);
	} else {
		rc = ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				"Can't find \"condor\" in the password file "
				"and CONDOR_IDS not defined in condor_config "
				"or as an environment variable: a daemon "
				"started by root runs as that account (add "
				"the account, or set CONDOR_IDS = uid.gid)");
	}
	free(cfg);
	return rc;
}

/* Makes path and its missing parents, and gives the ones it made to the
 * daemons' account. */
static void make_dir(const ks_daemon *d, const char *path)
{
	char *p = ks_xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) == 0 && ks_priv_can_switch() &&
		    chown(p, d->condor_uid, d->condor_gid) != 0) {
			/* reported when the daemon cannot use it */
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
}

void kd_priv_make_dirs(ks_daemon *d)
{
	static const char *const dirs[] = {"LOG", "SPOOL", "EXECUTE", "LOCK"};
	struct ks_priv_saved saved;
	if (ks_priv_to_root(&saved, NULL) != 0)
		return;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *path = ks_config_get(d->cfg, dirs[i], NULL);
		if (path && path[0] == '/')
			make_dir(d, path);
		free(path);
	}
	ks_priv_restore(&saved);
}

int kd_priv_become_condor(ks_daemon *d, struct ks_err *err)
{
	return ks_priv_set_effective(d->condor_uid, d->condor_gid,
				     d->condor_name, err);
}
