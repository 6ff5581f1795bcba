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

/* Why the job runs as the account it does. */
enum sr_user_why {
	SR_USER_OWNER,	  /* the job's Owner */
	SR_USER_SELF,	  /* the starter is not root: its own account */
	SR_USER_ROOT,	  /* the Owner is root: nobody */
	SR_USER_UNKNOWN,  /* the Owner has no account here: nobody */
	SR_USER_NO_OWNER, /* the ad names no Owner: nobody */
};

struct sr_user {
	uid_t uid;
	gid_t gid;
	char *name;   /* login name */
	char *home;   /* home directory ("/" if the account has none) */
	gid_t *groups; /* supplementary groups (with gid), when switch_to */
	int ngroups;
	bool switch_to; /* the starter is root and must become this user */
	enum sr_user_why why;
	char *note;   /* why the Owner was not used, or NULL */
};

/* Picks the account for a job whose Owner is owner (NULL: none) into u
 * (zeroed first), with its groups.  Returns 0, or KS_ENOTFOUND with err
 * filled when no account at all can be found (a root starter without a
 * "nobody" account, or a uid without a password entry).  Free with
 * sr_user_free().  This is the password and group databases' work, and
 * with NSS modules it is most of a starter's own time: a long-lived
 * caller (the startd) picks once and hands the result on with
 * sr_user_format(). */
int sr_user_pick(const char *owner, struct sr_user *u, struct ks_err *err);

/* u as one word, "WHY:UID:GID:GROUPS:NAME:HOME" (GROUPS comma-separated),
 * for sr_user_parse().  Returns a new string (free()). */
char *sr_user_format(const struct sr_user *u);

/* The account sr_user_format() wrote into spec, for a job whose Owner is
 * owner (for the note), into u (zeroed first).  Returns 0, or KS_EPARSE
 * with err saying what is wrong.  Free with sr_user_free(). */
int sr_user_parse(const char *spec, const char *owner, struct sr_user *u,
		  struct ks_err *err);

/* Becomes u in the calling process (a child about to exec the job): the
 * account's groups, then its gid, then its uid, for good (it checks that
 * root cannot be regained).  A no-op unless u->switch_to.  Returns 0 or
 * -1 with errno set.  System calls only, so it may run after vfork(). */
int sr_user_become(const struct sr_user *u);

void sr_user_free(struct sr_user *u);

#endif
