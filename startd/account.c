/*
 * account.c: the accounts jobs run as, remembered (sd_account.h).
 */
#include "sd_account.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_priv.h"
#include "ks_jobad.h"

struct sd_account_entry {
	char *owner; /* "" for a job without one */
	char *spec;  /* NULL: no account found */
	int64_t when;
};

const char *sd_account_spec(struct sd_accounts *a, const char *owner,
			    int64_t now, int64_t ttl)
{
	/* a startd that cannot switch (a user's pool) runs jobs as itself */
	if (!ks_priv_can_switch())
		return NULL;
	if (!owner)
		owner = "";
	struct sd_account_entry *e = NULL;
	for (size_t i = 0; i < a->n && !e; i++)
		if (!strcmp(a->e[i].owner, owner))
			e = &a->e[i];
	if (e && now - e->when < ttl && now >= e->when)
		return e->spec;
	if (!e) {
		a->e = ks_xrealloc(a->e, (a->n + 1) * sizeof(*a->e));
		e = &a->e[a->n++];
		e->owner = ks_xstrdup(owner);
	} else {
		free(e->spec);
	}
	struct ks_jobad_user u;
	struct ks_err err;
	bool found = !ks_jobad_user_pick(*owner ? owner : NULL, &u, &err);
	e->spec = found ? ks_jobad_user_format(&u) : NULL;
	/* an Owner without an account may get one: asked again next time */
	e->when = found && u.why != KS_JOBAD_USER_UNKNOWN ? now : now - ttl;
	if (found)
		ks_jobad_user_free(&u);
	return e->spec;
}

void sd_accounts_free(struct sd_accounts *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->e[i].owner);
		free(a->e[i].spec);
	}
	free(a->e);
	a->e = NULL;
	a->n = 0;
}
