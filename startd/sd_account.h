/*
 * sd_account.h: the accounts jobs run as, looked up once and remembered.
 *
 * Choosing a job's account (ks_jobad_user_pick(): its Owner, or nobody) asks
 * the password and group databases, and through NSS modules that costs a
 * fresh process more than the rest of its work for a short job.  The
 * startd lives long, so it asks once per Owner and hands the answer to
 * each starter (-account), as HTCondor's daemons keep their passwd cache:
 * an answer is kept PASSWD_CACHE_REFRESH seconds.
 */
#ifndef SD_ACCOUNT_H
#define SD_ACCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct sd_account_entry;

/* Start zeroed. */
struct sd_accounts {
	struct sd_account_entry *e;
	size_t n;
};

/* The -account word for a job whose Owner is owner (NULL: none), or NULL
 * when the starter is to choose itself: the startd is not root, or no
 * account could be found (the starter then says why).  Borrowed: valid
 * until the next call.  Answers older than ttl seconds at now are looked
 * up again, and so is an Owner that had no account (the job then runs as
 * nobody). */
const char *sd_account_spec(struct sd_accounts *a, const char *owner,
			    int64_t now, int64_t ttl);

/* Frees every remembered answer; a is zeroed again. */
void sd_accounts_free(struct sd_accounts *a);

#endif
