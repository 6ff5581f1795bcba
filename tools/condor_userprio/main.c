/*
 * main.c: condor_userprio: shows the negotiator's accountant (user
 * priorities and usage) and changes it.  The negotiator is found
 * through the collector (its Negotiator ad).  See
 * docs/man/condor_userprio.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sdt.h"
#include "userprio.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [options] [edit-option | display-options "
		"[usernames]]\n"
		"    where [options] are\n"
		"\t-name <name>\t\tName of negotiator\n"
		"\t-pool <host>\t\tUse host as the central manager to query\n"
		"\t-help\t\t\tThis Screen\n"
		"    where [edit-option] is one of\n"
		"\t-resetusage <user>\tReset usage data for <user>\n"
		"\t-resetall\t\tReset all usage data\n"
		"\t-delete <user>\t\tRemove a user record from the accountant\n"
		"\t-setprio <user> <val>\tSet priority for <user>\n"
		"\t-setfactor <user> <val>\tSet priority factor for <user>\n"
		"    where [display-options] are one or more of\n"
		"\t-allusers\t\tDisplay data for all users\n"
		"\t-priority\t\tDisplay user priority fields\n"
		"\t-usage\t\t\tDisplay user/group usage fields\n"
		"\t-most\t\t\tDisplay most useful prio and usage fields\n"
		"\t-all\t\t\tDisplay all fields\n"
		"\t-quotas\t\t\tDisplay group quota fields\n"
		"\t-surplus\t\tDisplay group surplus policy\n"
		"\t-sortkey\t\tDisplay group sort key\n"
		"\t-hierarchical\t\tDisplay users under their groups\n"
		"\t-flat\t\t\tDisplay users and groups as one list\n"
		"\t-grouporder\t\tDisplay groups first, in the "
		"negotiator's order\n"
		"\t-grouprollup\t\tGroup values are the sum of user "
		"values\n"
		"\t-long\t\t\tVerbose output (entire classads)\n"
		"\t  -legacy\t\tCauses -long to show a single classad\n"
		"   if [usernames] is specified, output will be restricted to "
		"the given names if possible.\n",
		prog);
	exit(1);
}

struct opts {
	const char *prog;
	const char *pool, *name;
	int setprio, setfactor, resetusage, deluser; /* argv index */
	bool resetall, lng, legacy;
	int detail;
	bool dash_quota, flat, dash_hier, group_order, rollup;
	bool allusers;
	const char **users;
	size_t nusers;
};

static void parse(int argc, char **argv, struct opts *o)
{
	o->prog = argv[0];
	o->users = ks_xcalloc((size_t)argc + 1, sizeof(*o->users));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		/* HTCondor's order: the first option a prefix names wins */
		if (sdt_dash_prefix(a, "setprio", 0)) {
			if (i + 2 >= argc)
				usage(o->prog);
			o->setprio = i;
			i += 2;
		} else if (sdt_dash_prefix(a, "setfactor", 0)) {
			if (i + 2 >= argc)
				usage(o->prog);
			o->setfactor = i;
			i += 2;
		} else if (sdt_dash_prefix(a, "resetusage", 0)) {
			if (i + 1 >= argc)
				usage(o->prog);
			o->resetusage = i;
			i += 1;
		} else if (sdt_dash_prefix(a, "delete", 3)) {
			if (i + 1 >= argc)
				usage(o->prog);
			o->deluser = i;
			i += 1;
		} else if (sdt_dash_prefix(a, "resetall", 0)) {
			o->resetall = true;
		} else if (sdt_dash_prefix(a, "long", 1)) {
			o->lng = true;
		} else if (sdt_dash_prefix(a, "legacy", 3)) {
			o->legacy = true;
		} else if (sdt_dash_prefix(a, "modular", 3)) {
			o->legacy = false;
		} else if (sdt_dash_prefix(a, "debug", 1)) {
			/* kestrel's tools say what went wrong anyway */
		} else if (sdt_dash_prefix(a, "help", 1)) {
			usage(o->prog);
		} else if (sdt_dash_prefix(a, "hierarchical", 2) ||
			   sdt_dash_prefix(a, "heir", 0)) {
			o->flat = false;
			o->dash_hier = true;
		} else if (sdt_dash_prefix(a, "flat", 2)) {
			o->flat = true;
			o->dash_hier = true;
		} else if (sdt_dash_prefix(a, "grouprollup", 0)) {
			o->rollup = true;
		} else if (sdt_dash_prefix(a, "grouporder", 0)) {
			o->group_order = true;
			o->flat = true;
			o->dash_hier = true;
		} else if (sdt_dash_prefix(a, "quotas", 1)) {
			o->detail |= UP_QUOTAS;
			o->dash_quota = true;
		} else if (sdt_dash_prefix(a, "surplus", 0)) {
			o->detail |= UP_SURPLUS;
			o->dash_quota = true;
		} else if (sdt_dash_prefix(a, "sortkey", 2)) {
			o->detail |= UP_SORT_KEY;
		} else if (sdt_dash_prefix(a, "groupid", 0)) {
			o->detail |= UP_GROUP;
		} else if (sdt_dash_prefix(a, "order", 0)) {
			o->detail |= UP_ORDER;
		} else if (sdt_dash_prefix(a, "all", 0)) {
			o->detail |= UP_ALL;
		} else if (sdt_dash_prefix(a, "most", 2)) {
			o->detail |= UP_MOST;
		} else if (sdt_dash_prefix(a, "allusers", 0)) {
			o->allusers = true;
		} else if (sdt_dash_prefix(a, "usage", 2)) {
			o->detail |= UP_USAGE | UP_USE_TIME1 | UP_USE_TIME2;
		} else if (sdt_dash_prefix(a, "priority", 4)) {
			o->detail |= UP_PRIOS;
		} else if (sdt_dash_prefix(a, "pool", 1)) {
			if (i + 1 >= argc)
				usage(o->prog);
			o->pool = argv[++i];
		} else if (sdt_dash_prefix(a, "name", 0)) {
			if (i + 1 >= argc)
				usage(o->prog);
			o->name = argv[++i];
		} else if (isalpha((unsigned char)a[0]) ||
			   strcmp(a, "<none>") == 0) {
			o->users[o->nusers++] = a;
		} else {
			usage(o->prog);
		}
	}
}

/* The negotiator's address, from its ad in the collector. */
static char *locate(const ks_config *cfg, const struct opts *o)
{
	struct ks_err err = {0};
	char *addr = ks_negotiator_addr(cfg, o->pool, o->name, &err);
	if (!addr) {
		if (err.code != KS_ENOTFOUND)
			fprintf(stderr, "%s\n", err.msg);
		fprintf(stderr, "%s: Can't locate negotiator '%s' in %s\n",
			o->prog, o->name ? o->name : "default",
			o->pool ? o->pool : "local pool");
	}
	return addr;
}

/* Sends one command; on success *reply (NULL allowed) gets the reply's
 * ads.  Prints why it failed and returns false otherwise. */
static bool command(const ks_config *cfg, const char *addr, int code,
		    classad *ad, classad ***reply, size_t *nreply)
{
	ks_conn *c = NULL;
	struct ks_err err = {0};
	int rc = addr ? ks_conn_open(cfg, addr, 0, &c, &err) : KS_ECONNECT;
	if (rc == 0)
		rc = ks_conn_send(c, code, ad ? &ad : NULL, ad ? 1 : 0, 0, &err);
	int got = 0;
	classad **ads = NULL;
	size_t n = 0;
	bool more;
	if (rc == 0)
		rc = ks_conn_recv(c, &got, &ads, &n, &more, &err);
	ks_conn_close(c);
	if (rc == 0 && got != KS_REPLY_OK) {
		char *why = NULL;
		if (n)
			classad_eval_string(ads[0], "ErrorString", NULL, &why);
		fprintf(stderr, "%s\n", why ? why : "the negotiator refused");
		free(why);
		ks_ads_free(ads, n);
		return false;
	}
	if (rc) {
		if (addr)
			fprintf(stderr, "%s\n", err.msg);
		return false;
	}
	if (reply) {
		*reply = ads;
		*nreply = n;
	} else {
		ks_ads_free(ads, n);
	}
	return true;
}

static bool full_name(const struct opts *o, const char *name,
		      const char *what)
{
	if (strchr(name, '@'))
		return true;
	fprintf(stderr, "%s: You must specify the full name of the %s\n",
		o->prog, what);
	return false;
}

static int edit(const ks_config *cfg, const char *addr, const struct opts *o,
		char **argv)
{
	classad *ad = classad_new();
	int rc = 1;
	if (o->setprio) {
		const char *user = argv[o->setprio + 1];
		double p = atof(argv[o->setprio + 2]);
		if (!full_name(o, user, "submittor you wish\n\tto update the "
					"priority of (user@uid.domain or "
					"user@full.host.name)"))
			goto out;
		classad_insert_string(ad, "Name", user);
		classad_insert_real(ad, "Priority", p);
		if (!command(cfg, addr, KS_SET_PRIORITY, ad, NULL, NULL)) {
			fprintf(stderr, "failed to send SET_PRIORITY command "
					"to negotiator\n");
			goto out;
		}
		printf("The priority of %s was set to %f\n", user, p);
	} else if (o->setfactor) {
		const char *user = argv[o->setfactor + 1];
		double f = atof(argv[o->setfactor + 2]);
		if (!full_name(o, user, "submittor you wish\n\tto update the "
					"priority of (user@uid.domain or "
					"user@full.host.name)"))
			goto out;
		if (f < 1) {
			fprintf(stderr, "Priority factors must be greater than "
					"or equal to 1.\n");
			goto out;
		}
		classad_insert_string(ad, "Name", user);
		classad_insert_real(ad, "PriorityFactor", f);
		if (!command(cfg, addr, KS_SET_PRIORITYFACTOR, ad, NULL,
			     NULL)) {
			fprintf(stderr, "failed to send SET_PRIORITYFACTOR "
					"command to negotiator\n");
			goto out;
		}
		printf("The priority factor of %s was set to %f\n", user, f);
	} else if (o->resetusage) {
		const char *user = argv[o->resetusage + 1];
		if (!full_name(o, user, "submittor you wish\n\tto update the "
					"priority of (user@uid.domain or "
					"user@full.host.name)"))
			goto out;
		classad_insert_string(ad, "Name", user);
		if (!command(cfg, addr, KS_RESET_USAGE, ad, NULL, NULL)) {
			fprintf(stderr, "failed to send RESET_USAGE command "
					"to negotiator\n");
			goto out;
		}
		printf("The accumulated usage of %s was reset\n", user);
	} else if (o->deluser) {
		const char *user = argv[o->deluser + 1];
		if (!full_name(o, user, "record you wish\n\tto delete "
					"(user@uid.domain or "
					"user@full.host.name)"))
			goto out;
		classad_insert_string(ad, "Name", user);
		if (!command(cfg, addr, KS_DELETE_USER, ad, NULL, NULL)) {
			fprintf(stderr, "failed to send DELETE_USER command "
					"to negotiator\n");
			goto out;
		}
		printf("The accountant record named %s was deleted\n", user);
	} else {
		/* every user: RESET_USAGE without a Name (docs/schedd.md) */
		if (!command(cfg, addr, KS_RESET_USAGE, ad, NULL, NULL)) {
			fprintf(stderr, "failed to send RESET_ALL_USAGE "
					"command to negotiator\n");
			goto out;
		}
		printf("The accumulated usage was reset for all users\n");
	}
	rc = 0;
out:
	classad_free(ad);
	return rc;
}

/* Whether record name is one of the users asked for: a full name as
 * given, or a short one (before the '@'). */
static bool wanted(const struct opts *o, const char *name)
{
	if (!o->nusers)
		return true;
	for (size_t i = 0; i < o->nusers; i++) {
		const char *u = o->users[i];
		if (strchr(u, '@') || strcmp(u, "<none>") == 0) {
			if (strcmp(u, name) == 0)
				return true;
		} else {
			size_t n = strlen(u);
			if (strncmp(name, u, n) == 0 &&
			    (name[n] == '@' || name[n] == '\0'))
				return true;
		}
	}
	return false;
}

static int show(const ks_config *cfg, const char *addr, const struct opts *o)
{
	classad **ads = NULL;
	size_t n = 0;
	int code = o->rollup ? KS_GET_PRIORITY_ROLLUP : KS_GET_PRIORITY;
	if (!command(cfg, addr, code, NULL, &ads, &n) || n < 1) {
		ks_ads_free(ads, n);
		fprintf(stderr, "failed to send %s command to negotiator\n",
			o->rollup ? "GET_PRIORITY_ROLLUP" : "GET_PRIORITY");
		return 1;
	}
	const classad *ad = ads[0];
	if (o->lng) {
		if (o->legacy) {
			char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
			fputs(text, stdout);
			free(text);
		} else {
			up_print_long(stdout, ad);
		}
		ks_ads_free(ads, n);
		return 0;
	}
	size_t nr;
	int avail;
	struct up_rec *r = up_recs_from_ad(ad, &nr, &avail, o->rollup);
	/* names asked for: only those, however long ago they ran */
	size_t k = 0;
	for (size_t i = 0; i < nr; i++) {
		if (wanted(o, r[i].name) || r[i].is_group) {
			r[k++] = r[i];
		} else {
			free(r[i].name);
			free(r[i].group);
		}
	}
	int64_t last = 0;
	classad_eval_int(ad, "LastUpdate", NULL, &last);
	time_t min_last = o->allusers || o->nusers ? -1
						   : time(NULL) - 24 * 3600;
	struct up_view v = {
		.detail = o->detail,
		.dash_quota = o->dash_quota,
		.hier = !o->flat,
		.dash_hier = o->dash_hier,
		.group_order = o->group_order,
		.rollup = o->rollup,
		.min_last = min_last,
	};
	if (k)
		up_print_table(stdout, r, k, avail, &v, (time_t)last);
	up_recs_free(r, k);
	ks_ads_free(ads, n);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	parse(argc, argv, &o);
	struct ks_err err = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	char *addr = locate(cfg, &o);
	int rc;
	if (o.setprio || o.setfactor || o.resetusage || o.deluser ||
	    o.resetall)
		rc = edit(cfg, addr, &o, argv);
	else
		rc = show(cfg, addr, &o);
	free(addr);
	free(o.users);
	ks_config_free(cfg);
	return rc;
}
