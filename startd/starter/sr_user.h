/*
 * sr_user.h: the account a job runs as.
 *
 * A starter running as root runs the job as the job's Owner when that
 * account exists and is not root, and as "nobody" otherwise: a job never
 * runs as root.  A starter that is not root cannot change user, so the
 * job runs as the starter's own user.
 */
#ifndef SR_USER_H
#define SR_USER_H

#include <stdbool.h>
#include <sys/types.h>

#include "ks_err.h"

struct sr_user {
	uid_t uid;
	gid_t gid;
	char *name;   /* login name */
	char *home;   /* home directory ("/" if the account has none) */
	bool switch_to; /* the starter is root and must become this user */
	char *note;   /* why the Owner was not used, or NULL */
};

/* Picks the account for a job whose Owner is owner (NULL: none) into u
 * (zeroed first).  Returns 0, or KS_ENOTFOUND with err filled when no
 * account at all can be found (a root starter without a "nobody" account,
 * or a uid without a password entry).  Free with sr_user_free(). */
int sr_user_pick(const char *owner, struct sr_user *u, struct ks_err *err);

/* Becomes u in the calling process (a child about to exec the job): the
 * account's groups, then its gid, then its uid, for good (it checks that
 * root cannot be regained).  A no-op unless u->switch_to.  Returns 0 or
 * -1 with errno set.  It calls initgroups(), so after fork() only in a
 * single-threaded program, as the starter is. */
int sr_user_become(const struct sr_user *u);

void sr_user_free(struct sr_user *u);

#endif
