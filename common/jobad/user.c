/*
 * user.c: choosing and becoming the job's account (ks_jobad.h).
 */
#include "ks_jobad.h"

#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_passwd.h"
#include "ks_priv.h"

/* Looks an account up by name (or by uid when name is NULL) into u.
 * Returns 0, or -1 when there is no such account. */
static int lookup(const char *name, uid_t uid, struct ks_jobad_user *u)
{
	struct ks_passwd pw;
	if (name ? ks_passwd_by_name(name, &pw) : ks_passwd_by_uid(uid, &pw))
		return -1;
	u->uid = pw.uid;
	u->gid = pw.gid;
	u->name = pw.name;
	u->home = pw.home;
	return 0;
}

/* The log's explanation when the job does not run as its Owner. */
static char *note(enum ks_jobad_user_why why, const char *owner)
{
	const char *fmt;
	switch (why) {
	case KS_JOBAD_USER_ROOT:
		fmt = "the job's Owner %s is root, and jobs never run as "
		      "root: running it as nobody";
		break;
	case KS_JOBAD_USER_UNKNOWN:
		fmt = "the job's Owner %s has no account on this machine: "
		      "running it as nobody";
		break;
	case KS_JOBAD_USER_NO_OWNER:
		return ks_xstrdup("the job ad names no Owner: running it as "
				  "nobody");
	default:
		return NULL;
	}
	if (!owner)
		owner = "";
	size_t n = strlen(fmt) + strlen(owner) + 1;
	char *s = ks_xmalloc(n);
	snprintf(s, n, fmt, owner);
	return s;
}

static void load_groups(struct ks_jobad_user *u)
{
	u->ngroups = ks_passwd_groups(u->name, u->gid, &u->groups);
}

int ks_jobad_user_pick(const char *owner, struct ks_jobad_user *u,
		       struct ks_err *err)
{
	memset(u, 0, sizeof(*u));
	/* (the real uid: a startd started by root acts as the condor
	 * account, and its starters still become the job's owner) */
	if (!ks_priv_can_switch()) {
		if (lookup(NULL, geteuid(), u))
			return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					  "the starter's own uid %u has no "
					  "account (no password entry)",
					  (unsigned)geteuid());
		u->why = KS_JOBAD_USER_SELF;
		return 0;
	}
	if (owner && *owner && !lookup(owner, 0, u)) {
		if (u->uid != 0) {
			u->why = KS_JOBAD_USER_OWNER;
			u->switch_to = true;
			load_groups(u);
			return 0;
		}
		free(u->name);
		free(u->home);
		u->name = u->home = NULL;
		u->why = KS_JOBAD_USER_ROOT;
	} else {
		u->why = owner && *owner ? KS_JOBAD_USER_UNKNOWN : KS_JOBAD_USER_NO_OWNER;
	}
	if (lookup("nobody", 0, u) || u->uid == 0) {
		ks_jobad_user_free(u);
		return ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
				  "no account to run the job as: %s, and this "
				  "machine has no unprivileged \"nobody\" account",
				  owner && *owner ? "its Owner cannot be used"
						  : "it names no Owner");
	}
	u->note = note(u->why, owner);
	u->switch_to = true;
	load_groups(u);
	return 0;
}

char *ks_jobad_user_format(const struct ks_jobad_user *u)
{
	/* 11 bytes a number and its comma */
	size_t n = 64 + (size_t)u->ngroups * 12 + strlen(u->name) +
		   strlen(u->home);
	char *s = ks_xmalloc(n);
	size_t at = (size_t)snprintf(s, n, "%d:%u:%u:", (int)u->why,
				     (unsigned)u->uid, (unsigned)u->gid);
	for (int i = 0; i < u->ngroups; i++)
		at += (size_t)snprintf(s + at, n - at, "%s%u", i ? "," : "",
				       (unsigned)u->groups[i]);
	snprintf(s + at, n - at, ":%s:%s", u->name, u->home);
	return s;
}

/* One unsigned number of spec at *p, ended by one of stops. */
static bool number(const char **p, const char *stops, unsigned long *v)
{
	char *end;
	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno || !*end || !strchr(stops, *end) || *v > (uid_t)-1 - 1)
		return false;
	*p = end;
	return true;
}

int ks_jobad_user_parse(const char *spec, const char *owner,
			struct ks_jobad_user *u, struct ks_err *err)
{
	memset(u, 0, sizeof(*u));
	const char *p = spec;
	unsigned long why, uid, gid, g;
	if (!number(&p, ":", &why) || why > KS_JOBAD_USER_NO_OWNER ||
	    !(p++, number(&p, ":", &uid)) || !(p++, number(&p, ":", &gid)))
		goto bad;
	p++;
	int cap = 0;
	while (*p != ':') {
		if (!number(&p, ",:", &g))
			goto bad;
		if (u->ngroups == cap) {
			cap = cap ? cap * 2 : 8;
			u->groups = ks_xrealloc(u->groups,
						sizeof(gid_t) * (size_t)cap);
		}
		u->groups[u->ngroups++] = (gid_t)g;
		if (*p == ',' && *++p == ':')
			goto bad;
	}
	const char *name = p + 1, *colon = strchr(name, ':');
	if (!colon || colon == name || !colon[1])
		goto bad;
	u->why = (enum ks_jobad_user_why)why;
	u->uid = (uid_t)uid;
	u->gid = (gid_t)gid;
	u->name = ks_xstrndup(name, (size_t)(colon - name));
	u->home = ks_xstrdup(colon + 1);
	u->switch_to = u->why != KS_JOBAD_USER_SELF;
	if (u->switch_to && u->uid == 0)
		goto bad; /* jobs never run as root, whoever says so */
	u->note = note(u->why, owner);
	return 0;
bad:
	ks_jobad_user_free(u);
	return ks_err_set(err, KS_EPARSE, 0, 0, 0,
			  "bad -account '%s': expected "
			  "WHY:UID:GID:GROUPS:NAME:HOME", spec);
}

int ks_jobad_user_become(const struct ks_jobad_user *u)
{
	if (!u->switch_to)
		return 0;
	if (setgroups((size_t)u->ngroups, u->groups) || setgid(u->gid) ||
	    setuid(u->uid))
		return -1;
	/* Make sure the switch cannot be undone by the job. */
	if (u->uid != 0 && setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

void ks_jobad_user_free(struct ks_jobad_user *u)
{
	if (!u)
		return;
	free(u->name);
	free(u->home);
	free(u->note);
	free(u->groups);
	memset(u, 0, sizeof(*u));
}
