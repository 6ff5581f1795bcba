/*
 * accounts.c: the accounts of the jobs' owners, as the schedd switches to
 * them (sc_schedd.h): at every event of a job's log and every file it
 * moves for a job.  A look-up reads the password and group files, ten
 * times what the switch itself costs, so each account is kept for
 * PASSWD_CACHE_REFRESH seconds (as HTCondor's passwd cache keeps them),
 * and forgotten at a reconfig.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ks_mem.h"
#include "sc_schedd.h"

struct sc_account {
	struct ks_priv_account a;
	int64_t until;
};

struct sc_accounts {
	struct sc_account *v;
	size_t n;
};

static const struct ks_priv_account *account(struct sc_schedd *s,
					     const char *owner,
					     struct ks_err *err)
{
	if (!s->accounts)
		s->accounts = ks_xcalloc(1, sizeof(*s->accounts));
	struct sc_accounts *c = s->accounts;
	int64_t now = (int64_t)time(NULL);
	struct sc_account *e = NULL;
	for (size_t i = 0; i < c->n && !e; i++)
		if (strcmp(c->v[i].a.name, owner) == 0)
			e = &c->v[i];
	if (e && now < e->until)
		return &e->a;
	struct ks_priv_account a;
	if (ks_priv_lookup(owner, &a, err))
		return NULL;
	if (!e) {
		c->v = ks_xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
		e = &c->v[c->n++];
	} else {
		ks_priv_account_clear(&e->a);
	}
	e->a = a;
	e->until = now + ks_daemon_int(s->d, "PASSWD_CACHE_REFRESH", 72000);
	return &e->a;
}

int sc_as_owner(struct sc_schedd *s, const char *owner,
		struct ks_priv_saved *saved, struct ks_err *err)
{
	memset(saved, 0, sizeof(*saved));
	if (!ks_priv_can_switch())
		return 0;
	const struct ks_priv_account *a = owner ? account(s, owner, err) : NULL;
	if (!a)
		return owner ? KS_ENOTFOUND
			     : ks_err_set(err, KS_ENOTFOUND, 0, 0, 0,
					  "the job has no owner");
	return ks_priv_to_account(a, saved, err);
}

void sc_accounts_free(struct sc_schedd *s)
{
	struct sc_accounts *c = s->accounts;
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		ks_priv_account_clear(&c->v[i].a);
	free(c->v);
	free(c);
	s->accounts = NULL;
}
