/* ks_priv.c: switching a root process's effective identity (ks_priv.h). */
#define _GNU_SOURCE /* setresuid, setresgid */
#include "ks_priv.h"

#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_passwd.h"

bool ks_priv_can_switch(void)
{
	return getuid() == 0;
}

static void save(struct ks_priv_saved *s)
{
	s->switched = true;
	s->uid = geteuid();
	s->gid = getegid();
	s->ngroups = getgroups(64, s->groups);
	if (s->ngroups < 0)
		s->ngroups = 0;
}

/* Effective root, from whatever effective ids the process has: only
 * root may set the rest, and a real uid of root may always take it. */
static int up(void)
{
	return geteuid() == 0 ? 0 : seteuid(0);
}

/* The effective ids and groups become uid, gid and the n groups
 * (effective root first).  Returns 0 or -1 (errno). */
static int become_ids(uid_t uid, gid_t gid, const gid_t *groups, int n)
{
	if (up() != 0)
		return -1;
	return setgroups((size_t)n, groups) != 0 || setegid(gid) != 0 ||
			       seteuid(uid) != 0
		       ? -1
		       : 0;
}

/* The same with name's groups, looked up. */
static int become(uid_t uid, gid_t gid, const char *name)
{
	gid_t *groups = NULL;
	int n = name ? ks_passwd_groups(name, gid, &groups) : 1;
	int rc = become_ids(uid, gid, groups ? groups : &gid, n);
	int e = errno;
	free(groups);
	errno = e;
	return rc;
}

int ks_priv_set_effective(uid_t uid, gid_t gid, const char *name,
			  struct ks_err *err)
{
	if (!ks_priv_can_switch())
		return 0;
	if (become(uid, gid, name) != 0)
		return ks_err_set(err, KS_EPERM, 0, 0, 0,
				  "cannot take the identity of %s (uid %u, "
				  "gid %u): %s",
				  name ? name : "?", (unsigned)uid, (unsigned)gid,
				  strerror(errno));
	return 0;
}

int ks_priv_to_root(struct ks_priv_saved *saved, struct ks_err *err)
{
	memset(saved, 0, sizeof(*saved));
	if (!ks_priv_can_switch() || geteuid() == 0)
		return 0;
	save(saved);
	if (seteuid(0) != 0 || setegid(0) != 0) {
		int e = errno;
		ks_priv_restore(saved);
		return ks_err_set(err, KS_EPERM, 0, 0, 0,
				  "cannot take root's identity: %s",
				  strerror(e));
	}
	return 0;
}

int ks_priv_lookup(const char *name, struct ks_priv_account *a,
		   struct ks_err *err)
{
	memset(a, 0, sizeof(*a));
	struct ks_passwd pw;
	if (!name || ks_passwd_by_name(name, &pw))
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "the job's owner %s has no account on this "
				  "host", name ? name : "(none)");
	a->name = pw.name;
	pw.name = NULL;
	a->uid = pw.uid;
	a->gid = pw.gid;
	a->ngroups = ks_passwd_groups(a->name, a->gid, &a->groups);
	ks_passwd_clear(&pw);
	return 0;
}

void ks_priv_account_clear(struct ks_priv_account *a)
{
	free(a->name);
	free(a->groups);
	memset(a, 0, sizeof(*a));
}

int ks_priv_to_account(const struct ks_priv_account *a,
		       struct ks_priv_saved *saved, struct ks_err *err)
{
	memset(saved, 0, sizeof(*saved));
	if (!ks_priv_can_switch())
		return 0;
	save(saved);
	if (become_ids(a->uid, a->gid, a->groups, a->ngroups) != 0) {
		int e = errno;
		ks_priv_restore(saved);
		return ks_err_set(err, KS_EPERM, 0, 0, 0, "cannot act as %s: %s",
				  a->name, strerror(e));
	}
	return 0;
}

int ks_priv_to_owner(const char *owner, struct ks_priv_saved *saved,
		     struct ks_err *err)
{
	memset(saved, 0, sizeof(*saved));
	if (!ks_priv_can_switch())
		return 0;
	struct ks_priv_account a;
	int rc = ks_priv_lookup(owner, &a, err);
	if (rc == 0)
		rc = ks_priv_to_account(&a, saved, err);
	ks_priv_account_clear(&a);
	return rc;
}

void ks_priv_restore(struct ks_priv_saved *saved)
{
	if (!saved->switched)
		return;
	if (up() == 0) {
		(void)setgroups((size_t)saved->ngroups, saved->groups);
		(void)setegid(saved->gid);
		(void)seteuid(saved->uid);
	}
	saved->switched = false;
}

void ks_priv_drop_prepare(struct ks_priv_drop *p)
{
	memset(p, 0, sizeof(*p));
	p->can = ks_priv_can_switch();
	p->uid = geteuid();
	p->gid = getegid();
	p->ngroups = getgroups(64, p->groups);
	if (p->ngroups < 0)
		p->ngroups = 0;
}

int ks_priv_drop_now(const struct ks_priv_drop *p)
{
	if (!p->can)
		return 0;
	if (up() != 0 || setgroups((size_t)p->ngroups, p->groups) != 0 ||
	    setresgid(p->gid, p->gid, p->gid) != 0 ||
	    setresuid(p->uid, p->uid, p->uid) != 0)
		return -1;
	return 0;
}
