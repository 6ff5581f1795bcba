/*
 * daemon_name.c: the Name a daemon gives itself (ks_daemon_name.h).
 */
#include "ks_daemon_name.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_auth.h"
#include "ks_mem.h"
#include "ks_passwd.h"
#include "ks_priv.h"

/* "x@y" stays; the host's own name stays; else "x@host". */
static char *valid_name(const char *given, const char *host)
{
	if (strchr(given, '@') || strcasecmp(given, host) == 0)
		return ks_xstrdup(given);
	size_t n = strlen(given) + strlen(host) + 2;
	char *name = ks_xmalloc(n);
	snprintf(name, n, "%s@%s", given, host);
	return name;
}

/* Whether this process is the pool's condor account: the uid in
 * CONDOR_IDS ("uid.gid"), else the account named condor. */
static bool is_condor_account(const ks_config *cfg, uid_t me)
{
	const char *env = getenv("CONDOR_IDS");
	char *conf = env ? NULL : ks_config_get(cfg, "CONDOR_IDS", NULL);
	const char *ids = env ? env : conf && *conf ? conf : NULL;
	bool yes;
	if (ids) {
		char *end;
		unsigned long uid = strtoul(ids, &end, 10);
		yes = end != ids && *end == '.' && uid == (unsigned long)me;
	} else {
		struct ks_passwd pw;
		yes = false;
		if (ks_passwd_by_name("condor", &pw) == 0) {
			yes = pw.uid == me;
			ks_passwd_clear(&pw);
		}
	}
	free(conf);
	return yes;
}

/* The daemons HTCondor names after the user who runs them. */
static bool named_for_user(const char *subsys)
{
	return !strcasecmp(subsys, "SCHEDD") || !strcasecmp(subsys, "MASTER") ||
	       !strcasecmp(subsys, "NEGOTIATOR");
}

char *ks_daemon_name(const ks_config *cfg, const char *subsys,
		     const char *local_name)
{
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	char knob[64];
	snprintf(knob, sizeof(knob), "%s_NAME", subsys);
	char *given = ks_config_get(cfg, knob, NULL);
	const char *first = given && *given ? given : local_name;
	char *name = NULL;
	if (first && *first) {
		name = valid_name(first, host);
	} else if (named_for_user(subsys) && !ks_priv_can_switch() &&
		   !is_condor_account(cfg, geteuid())) {
		char *user = ks_auth_username((unsigned)geteuid());
		name = user ? valid_name(user, host) : ks_xstrdup(host);
		free(user);
	} else {
		name = ks_xstrdup(host);
	}
	free(given);
	return name;
}
