/*
 * reschedule.c: condor_reschedule, as HTCondor 25's (built there from
 * src/condor_tools/tool.cpp with the schedd as its target): asks each
 * target schedd for a negotiation cycle and says so with
 *
 *   Sent "Reschedule" command to local schedd
 *   Sent "Reschedule" command to schedd NAME
 *
 * Targets: none (this host's schedd), names (bare or -name), addresses
 * (bare "<...>" or -addr), -all or -constraint (schedd ads from the
 * collector).  The command line is tool.cpp's (ctool.h): the daemon and
 * shutdown flags of the other tools are refused with HTCondor's
 * messages.  Exit status 0 when every command was sent, else 1.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctool.h"
#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "qtool.h"

/* Sends RESCHEDULE to addr; who is how HTCondor names the target. */
static bool send_to(const ks_config *cfg, const struct ct_opts *o,
		    const char *addr, const char *who)
{
	struct ks_err err = {0};
	ks_conn *c = NULL;
	int rc = ks_conn_open(cfg, addr, 0, &c, &err);
	if (rc) {
		if (o->debug)
			fprintf(stderr, "%s\n", err.msg);
		fprintf(stderr, "Can't connect to %s\n", who);
		return false;
	}
	rc = ks_conn_reschedule(c, &err);
	ks_conn_close(c);
	if (rc) {
		fprintf(stderr, "ERROR\n%s\n", err.msg);
		fprintf(stderr, "Can't send Reschedule command to %s\n", who);
		return false;
	}
	printf("Sent \"Reschedule\" command to %s\n", who);
	return true;
}

/* -all and -constraint: every schedd ad the collector has. */
static int send_all(const ks_config *cfg, const struct ct_opts *o)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Scheduler");
	struct ks_err err = {0};
	if (classad_insert_text(q, "Requirements",
				o->constraint ? o->constraint : "true",
				&err)) {
		fprintf(stderr, "ERROR: Failed to find daemons matching the "
				"constraint\n");
		classad_free(q);
		return 1;
	}
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_collector_query(cfg, o->pool, KS_QUERY_SCHEDD_ADS, q, &ads,
				    &n, &err);
	classad_free(q);
	if (rc || n == 0) {
		if (rc) {
			fprintf(stderr, "%s\n", err.msg);
			fprintf(stderr, "ERROR: can't connect to %s\n",
				o->pool ? o->pool : "local collector");
		} else {
			fprintf(stderr, "Found no ClassAds when querying pool "
					"(%s)\n", o->pool ? o->pool : "local");
		}
		if (o->constraint)
			fprintf(stderr, "Can't find addresses for schedd's for "
					"constraint '%s'\n", o->constraint);
		else
			fprintf(stderr, "Can't find addresses for schedd's for "
					"-all\n");
		fprintf(stderr, "Perhaps you need to query another pool.\n");
		ks_ads_free(ads, n);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		char *name = NULL, *addr = NULL;
		classad_eval_string(ads[i], "Name", NULL, &name);
		if (classad_eval_string(ads[i], "MyAddress", NULL, &addr)) {
			char who[512];
			snprintf(who, sizeof who, "schedd %s",
				 name ? name : addr);
			/* as HTCondor's, -all ends 0 once the collector
			 * answered, whatever each send did */
			(void)send_to(cfg, o, addr, who);
		}
		free(name);
		free(addr);
	}
	ks_ads_free(ads, n);
	return 0;
}

int main(int argc, char **argv)
{
	struct ct_opts o;
	int st = ct_parse(argc, argv, CT_RESCHEDULE, "condor_reschedule", &o,
			  stdout, stderr);
	if (st != CT_GO) {
		ct_opts_free(&o);
		return st;
	}
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", e.msg);
		ct_opts_free(&o);
		return 1;
	}
	int status = 0;
	if (o.all || o.constraint) {
		status = send_all(cfg, &o);
	} else if (o.ntargets == 0) {
		if (o.pool) {
			fprintf(stderr,
				"ERROR: You have asked to find a machine in "
				"another pool (with\n"
				"the -pool option) but you have not specified "
				"which machine.\n"
				"Please also use -addr, -name, or list the "
				"name(s).\n"
				"For more information, use -help.\n");
			status = 1;
		} else {
			struct qt_schedd s;
			if (qt_schedd_find(cfg, NULL, NULL, &s, &e) != 0) {
				if (o.debug)
					fprintf(stderr, "%s\n", e.msg);
				fprintf(stderr, "Can't find address for local "
						"schedd\n"
						"Perhaps you need to query "
						"another pool.\n");
				status = 1;
			} else {
				status = send_to(cfg, &o, s.addr,
						 "local schedd") ? 0 : 1;
				qt_schedd_free(&s);
			}
		}
	} else {
		bool unresolved = false;
		for (size_t i = 0; i < o.ntargets; i++) {
			const char *t = o.targets[i];
			char who[512];
			if (t[0] == '<') {
				struct ks_addr a;
				if (t[strlen(t) - 1] != '>' ||
				    ks_addr_parse(t, 0, &a, NULL) != 0 ||
				    a.port == 0) {
					fprintf(stderr,
						"Address %s is not valid.\n"
						"Should be of the form "
						"<ip.address.here:port>.\n"
						"For example: "
						"<123.456.789.123:6789>\n",
						t);
					status = 1;
					continue;
				}
				/* HTCondor names an address target as a daemon
				 * of any type, without the address's options */
				snprintf(who, sizeof who, "daemon at %.*s>",
					 (int)strcspn(t, "?>"), t);
				if (!send_to(cfg, &o, t, who))
					status = 1;
				continue;
			}
			struct qt_schedd s;
			if (qt_schedd_find(cfg, o.pool, t, &s, &e) != 0) {
				if (o.debug)
					fprintf(stderr, "%s\n", e.msg);
				fprintf(stderr, "Can't find address for schedd "
						"%s\n", t);
				fprintf(stderr, "Can't find address for %s\n",
					t);
				unresolved = true;
				continue;
			}
			snprintf(who, sizeof who, "schedd %s",
				 s.name ? s.name : t);
			if (!send_to(cfg, &o, s.addr, who))
				status = 1;
			qt_schedd_free(&s);
		}
		if (unresolved) {
			fprintf(stderr, "Perhaps you need to query another "
					"pool.\n");
			status = 1;
		}
	}
	ks_config_free(cfg);
	ct_opts_free(&o);
	return status;
}
