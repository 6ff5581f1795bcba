/* condor_off, condor_on, condor_restart, condor_reconfig: one program
 * (built under each name, which picks the action) that sends the master
 * its command, as HTCondor's tools do.  See docs/protocol.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

enum action { ACT_OFF, ACT_ON, ACT_RESTART, ACT_RECONFIG };

struct opts {
	enum action act;
	const char *prog;
	const char *daemon; /* -daemon: a subsystem */
	const char *name;   /* -name */
	const char *addr;   /* -addr */
	const char *pool;
	bool all;
	int speed;          /* 0 graceful, 1 fast, 2 peaceful */
};

static int usage(const struct opts *o, const char *bad)
{
	if (bad)
		fprintf(stderr, "%s: unknown or incomplete option '%s'\n",
			o->prog, bad);
	fprintf(stderr,
		"Usage: %s [-graceful | -fast | -peaceful] [-daemon SUBSYSTEM]\n"
		"       [-name NAME | -addr \"<ip:port>\" | -all] [-pool HOST]\n"
		"  with no NAME, acts on the master of this machine\n",
		o->prog);
	return bad ? 1 : 0;
}

/* The command code and the name HTCondor's tools print for it. */
static int command(const struct opts *o, const char **label)
{
	bool one = o->daemon && strcasecmp(o->daemon, "MASTER") != 0;
	switch (o->act) {
	case ACT_OFF:
		if (!one && o->daemon) { /* the master itself */
			*label = o->speed == 1	 ? "Kill-Daemon-Fast"
				 : o->speed == 2 ? "Kill-Daemon-Peacefully"
						 : "Kill-Daemon";
			return o->speed == 1   ? KS_DC_OFF_FAST
			       : o->speed == 2 ? KS_DC_OFF_PEACEFUL
					       : KS_DC_OFF_GRACEFUL;
		}
		if (o->speed == 1) {
			*label = one ? "Kill-Daemon-Fast"
				     : "Kill-All-Daemons-Fast";
			return one ? KS_DAEMON_OFF_FAST : KS_DAEMONS_OFF_FAST;
		}
		if (o->speed == 2) {
			*label = one ? "Kill-Daemon-Peacefully"
				     : "Kill-All-Daemons-Peacefully";
			return one ? KS_DAEMON_OFF_PEACEFUL
				   : KS_DAEMONS_OFF_PEACEFUL;
		}
		*label = one ? "Kill-Daemon" : "Kill-All-Daemons";
		return one ? KS_DAEMON_OFF : KS_DAEMONS_OFF;
	case ACT_ON:
		*label = one ? "Spawn-Daemon" : "Spawn-All-Daemons";
		return one ? KS_DAEMON_ON : KS_DAEMONS_ON;
	case ACT_RESTART:
		*label = o->speed == 1 ? "Restart-Fast"
			 : o->speed == 2 ? "Restart-Peaceful" : "Restart";
		return o->speed == 2 ? KS_RESTART_PEACEFUL : KS_RESTART;
	default:
		*label = "Reconfig";
		return KS_DC_RECONFIG_FULL;
	}
}

static char *local_master(const ks_config *cfg)
{
	char *path = ks_config_get(cfg, "MASTER_ADDRESS_FILE", NULL);
	char *addr = path ? ks_addr_read_file(path, NULL) : NULL;
	free(path);
	return addr;
}

/* Masters named in the collector: by Name, or all of them. */
static int masters(const ks_config *cfg, const struct opts *o, char ***out,
		   char ***names, size_t *n, struct ks_err *err)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "DaemonMaster");
	classad_insert_string(q, "Projection", "Name MyAddress");
	if (o->name) {
		struct classad_buf b = {0};
		classad_quote_string_buf(&b, o->name, strlen(o->name));
		char *req = ks_xmalloc(b.len + 16);
		sprintf(req, "Name == %s", b.data);
		classad_insert_text(q, "Requirements", req, NULL);
		free(req);
		free(b.data);
	}
	classad **ads;
	size_t nads;
	int rc = ks_collector_query(cfg, o->pool, KS_QUERY_MASTER_ADS, q, &ads,
				    &nads, err);
	classad_free(q);
	if (rc)
		return rc;
	*out = ks_xcalloc(nads + 1, sizeof(**out));
	*names = ks_xcalloc(nads + 1, sizeof(**names));
	*n = 0;
	for (size_t i = 0; i < nads; i++) {
		char *a = NULL, *nm = NULL;
		if (classad_eval_string(ads[i], "MyAddress", NULL, &a)) {
			classad_eval_string(ads[i], "Name", NULL, &nm);
			(*out)[*n] = a;
			(*names)[(*n)++] = nm ? nm : ks_xstrdup("?");
		}
	}
	ks_ads_free(ads, nads);
	return 0;
}

static int send_one(const ks_config *cfg, const struct opts *o,
		    const char *addr, const char *who)
{
	const char *label;
	int code = command(o, &label);
	struct ks_err err;
	ks_conn *c = NULL;
	classad *ad = classad_new();
	if (o->daemon && strcasecmp(o->daemon, "MASTER") != 0) {
		char sub[64];
		snprintf(sub, sizeof(sub), "%s", o->daemon);
		for (char *s = sub; *s; s++)
			*s = (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
		classad_insert_string(ad, "Subsystem", sub);
	}
	int rc = ks_conn_open(cfg, addr, 0, &c, &err);
	if (rc == 0)
		rc = ks_conn_send(c, code, &ad, 1, false, &err);
	int rcode = 0;
	classad **got = NULL;
	size_t ngot = 0;
	if (rc == 0)
		rc = ks_conn_recv(c, &rcode, &got, &ngot, NULL, &err);
	classad_free(ad);
	ks_conn_close(c);
	if (rc) {
		fprintf(stderr, "Can't send \"%s\" command to %s: %s\n", label,
			who, err.msg);
		return 1;
	}
	if (rcode < 0) {
		char *why = NULL;
		if (ngot)
			classad_eval_string(got[0], "ErrorString", NULL, &why);
		fprintf(stderr, "The %s refused \"%s\": %s\n", who, label,
			why ? why : "no reason given");
		free(why);
		ks_ads_free(got, ngot);
		return 1;
	}
	ks_ads_free(got, ngot);
	/* HTCondor names the daemon for a daemon's off and on (and the
	 * master's own off), and not for the rest */
	bool named = o->daemon &&
		     (code == KS_DAEMON_OFF || code == KS_DAEMON_OFF_FAST ||
		      code == KS_DAEMON_ON || code == KS_DC_OFF_GRACEFUL ||
		      code == KS_DC_OFF_FAST);
	if (named)
		printf("Sent \"%s\" command for \"%s\" to %s\n", label,
		       o->daemon, who);
	else
		printf("Sent \"%s\" command to %s\n", label, who);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	const char *base = strrchr(argv[0], '/');
	o.prog = base ? base + 1 : argv[0];
	if (strstr(o.prog, "condor_on"))
		o.act = ACT_ON;
	else if (strstr(o.prog, "restart"))
		o.act = ACT_RESTART;
	else if (strstr(o.prog, "reconfig"))
		o.act = ACT_RECONFIG;
	else
		o.act = ACT_OFF;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (!strcmp(a, "-help") || !strcmp(a, "-h"))
			return usage(&o, NULL);
		else if (!strcmp(a, "-graceful"))
			o.speed = 0;
		else if (!strcmp(a, "-fast"))
			o.speed = 1;
		else if (!strcmp(a, "-peaceful"))
			o.speed = 2;
		else if (!strcmp(a, "-all"))
			o.all = true;
		else if (!strcmp(a, "-master") || !strcmp(a, "-collector") ||
			 !strcmp(a, "-negotiator") || !strcmp(a, "-schedd") ||
			 !strcmp(a, "-startd"))
			o.daemon = a + 1; /* HTCondor's shorthands for -daemon */
		else if (!strcmp(a, "-daemon") && has)
			o.daemon = argv[++i];
		else if (!strcmp(a, "-name") && has)
			o.name = argv[++i];
		else if (!strcmp(a, "-addr") && has)
			o.addr = argv[++i];
		else if (!strcmp(a, "-pool") && has)
			o.pool = argv[++i];
		else if (a[0] != '-' && !o.name)
			o.name = a;
		else
			return usage(&o, a);
	}
	struct ks_err err;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", err.msg);
		return 1;
	}
	int status = 0;
	if (o.addr) {
		status = send_one(cfg, &o, o.addr, o.addr);
	} else if (!o.name && !o.all) {
		char *addr = local_master(cfg);
		if (!addr) {
			fprintf(stderr, "Can't find address for local master\n"
				"Perhaps you need to query another pool.\n");
			status = 1;
		} else {
			status = send_one(cfg, &o, addr, "local master");
		}
		free(addr);
	} else {
		char **addrs = NULL, **names = NULL;
		size_t n = 0;
		if (masters(cfg, &o, &addrs, &names, &n, &err)) {
			fprintf(stderr, "Error: %s\n", err.msg);
			status = 1;
		} else if (n == 0) {
			fprintf(stderr, "Can't find address for master %s\n",
				o.name ? o.name : "(any)");
			status = 1;
		}
		for (size_t i = 0; i < n; i++) {
			char who[600];
			snprintf(who, sizeof(who), "master %s", names[i]);
			status |= send_one(cfg, &o, addrs[i], who);
			free(addrs[i]);
			free(names[i]);
		}
		free(addrs);
		free(names);
	}
	ks_config_free(cfg);
	return status;
}
