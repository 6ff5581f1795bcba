/*
 * ks_passwd.h: accounts and their groups, the one way kestrel code that
 * the starter links looks them up.
 *
 * Two implementations define exactly these functions:
 *   ks_passwd.c        the system's name service (NSS: files, LDAP, SSSD
 *                      ...), in ks_util and so in every program;
 *   ks_passwd_files.c  /etc/passwd and /etc/group only, for the
 *                      statically linked condor_starter, whose glibc
 *                      cannot load the system's NSS modules (they link
 *                      the shared libc).  The starter lists it among its
 *                      own sources, so the archive's ks_passwd.o is never
 *                      pulled into it.  The startd, which uses the name
 *                      service, hands the starter the job's account
 *                      (-account), so the files serve only a starter run
 *                      without one, and its $(USERNAME).
 */
#ifndef KS_PASSWD_H
#define KS_PASSWD_H

#include <stdlib.h>
#include <sys/types.h>

struct ks_passwd {
	uid_t uid;
	gid_t gid;
	char *name; /* owned */
	char *home; /* owned; "/" when the entry has none */
};

/* Looks up the account named name, or with uid.  Returns 0 and fills pw
 * (release it with ks_passwd_clear()), or -1 when there is none. */
int ks_passwd_by_name(const char *name, struct ks_passwd *pw);
int ks_passwd_by_uid(uid_t uid, struct ks_passwd *pw);

/* The groups of the account name whose primary group is gid, as
 * getgrouplist(3) gives them: gid first, then every group listing name
 * as a member.  *groups is allocated (the caller frees it).  Returns
 * their number, at least 1. */
int ks_passwd_groups(const char *name, gid_t gid, gid_t **groups);

/* Frees what pw owns (not pw itself).  Inline, so that both
 * implementations share it without either pulling in the other. */
static inline void ks_passwd_clear(struct ks_passwd *pw)
{
	free(pw->name);
	free(pw->home);
	pw->name = pw->home = NULL;
}

#endif
