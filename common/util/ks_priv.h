/*
 * ks_priv.h: whose identity a process started by root acts with, as
 * HTCondor's daemons do (its "priv states").
 *
 * A daemon that root starts keeps root as its real uid and makes the
 * unprivileged condor account (CONDOR_IDS, or the account named condor;
 * see ks_daemon.h) its effective identity for everything it does.  It
 * takes root's identity only for the moment an operation needs it, and
 * a user's for that user's files: a job's event log, its input and
 * output, so that the kernel checks the user's rights, never root's.
 * Only the effective ids (and the supplementary groups) change, so a
 * switch can always be undone; each is undone by the code that made it,
 * and the process keeps no other state than the ids it has.
 *
 * In a process whose real uid is not root (a personal pool run by a
 * user) none of this can switch anything: the functions do nothing and
 * succeed, and everything runs as that user, as in HTCondor.
 */
#ifndef KS_PRIV_H
#define KS_PRIV_H

#include <stdbool.h>
#include <sys/types.h>

#include "ks_err.h"

/* The ids a switch replaced, for ks_priv_restore(). */
struct ks_priv_saved {
	bool switched;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[64];
};

/* Whether this process can switch: its real uid is root. */
bool ks_priv_can_switch(void);

/* Makes uid, gid and name's groups the effective identity for good (a
 * daemon's condor account; root stays the real and saved uid).  Returns
 * 0, or KS_EPERM with err filled. */
int ks_priv_set_effective(uid_t uid, gid_t gid, const char *name,
			  struct ks_err *err);

/* Root's identity for a moment (saved: what to restore).  Returns 0, or
 * KS_EPERM with err filled (err may be NULL). */
int ks_priv_to_root(struct ks_priv_saved *saved, struct ks_err *err);

/* An account as a switch needs it: what a daemon that switches often
 * (the schedd, at every event of a job's log) keeps rather than look it
 * up each time. */
struct ks_priv_account {
	char *name; /* owned */
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t *groups; /* owned: gid first, then its other groups */
};

/* Looks account name up (its groups too).  Returns 0 (release a with
 * ks_priv_account_clear()), or KS_ENOTFOUND with err filled. */
int ks_priv_lookup(const char *name, struct ks_priv_account *a,
		   struct ks_err *err);
void ks_priv_account_clear(struct ks_priv_account *a);

/* Account a's identity for a moment.  Returns 0, or KS_EPERM with err
 * filled. */
int ks_priv_to_account(const struct ks_priv_account *a,
		       struct ks_priv_saved *saved, struct ks_err *err);

/* The account owner's identity for a moment (looked up by name: the
 * two calls above).  Returns 0; KS_ENOTFOUND for an unknown account or
 * KS_EPERM, with err filled. */
int ks_priv_to_owner(const char *owner, struct ks_priv_saved *saved,
		     struct ks_err *err);

/* Back to the ids a ks_priv_to_*() replaced (nothing when it switched
 * nothing). */
void ks_priv_restore(struct ks_priv_saved *saved);

/* A child about to exec a program of the daemon's own (a cron job, a
 * backfill client) that must not get root back: real, effective and
 * saved ids all become the process's effective identity now (the condor
 * account), with its groups.  Taken in the parent before the fork, made
 * in the child with async-signal-safe calls only. */
struct ks_priv_drop {
	bool can;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[64];
};
void ks_priv_drop_prepare(struct ks_priv_drop *p);
/* Returns 0 or -1 (errno). */
int ks_priv_drop_now(const struct ks_priv_drop *p);

#endif
