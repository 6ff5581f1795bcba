/* condor_off, condor_on, condor_restart, condor_reconfig: one program
 * (built under each name, which picks the action) that sends the master
 * its command, as HTCondor's tools do.  See docs/protocol.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctool.h"
#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"

enum action { ACT_OFF, ACT_ON, ACT_RESTART, ACT_RECONFIG };

struct opts {
	enum action act;
	struct ct_opts c;   /* tool.cpp's command line (ctool.h) */
};

/* The command code and the name HTCondor's tools print for it. */
static int command(const struct opts *o, const char **label)
{
	const char *daemon = o->c.daemon;
	/* -force-graceful is -graceful here: kestrel's daemons keep no
	 * peaceful setting from an earlier command for it to override */
	int speed = o->c.mode == CT_FAST ? 1 : o->c.mode == CT_PEACEFUL ? 2 : 0;
	bool one = daemon && strcmp(daemon, "master") != 0;
	switch (o->act) {
	case ACT_OFF:
		if (!one && daemon) { /* the master itself */
			*label = speed == 1	 ? "Kill-Daemon-Fast"
				 : speed == 2 ? "Kill-Daemon-Peacefully"
						 : "Kill-Daemon";
			return speed == 1   ? KS_DC_OFF_FAST
			       : speed == 2 ? KS_DC_OFF_PEACEFUL
					       : KS_DC_OFF_GRACEFUL;
		}
		if (speed == 1) {
			*label = one ? "Kill-Daemon-Fast"
				     : "Kill-All-Daemons-Fast";
			return one ? KS_DAEMON_OFF_FAST : KS_DAEMONS_OFF_FAST;
		}
		if (speed == 2) {
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
		*label = speed == 1 ? "Restart-Fast"
			 : speed == 2 ? "Restart-Peaceful" : "Restart";
		return speed == 2 ? KS_RESTART_PEACEFUL : KS_RESTART;
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
static int masters(const ks_config *cfg, const struct opts *o,
		   const char *name, char ***out, char ***names, size_t *n,
		   struct ks_err *err)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "DaemonMaster");
	classad_insert_string(q, "Projection", "Name MyAddress");
	if (name) {
		struct classad_buf b = {0};
		classad_buf_add(&b, "Name == ", 8);
		classad_quote_string_buf(&b, name, strlen(name));
		classad_insert_text(q, "Requirements", b.data, NULL);
		free(b.data);
	} else if (o->c.constraint &&
		   classad_insert_text(q, "Requirements", o->c.constraint,
				       NULL)) {
		classad_free(q);
		return ks_err_set(err, KS_EPARSE, 0, 0, 0,
				  "the constraint '%s' does not parse",
				  o->c.constraint);
	}
	classad **ads;
	size_t nads;
	int rc = ks_collector_query(cfg, o->c.pool, KS_QUERY_MASTER_ADS, q, &ads,
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
	const char *daemon = o->c.daemon;
	if (daemon && strcmp(daemon, "master") != 0) {
		char sub[64];
		snprintf(sub, sizeof(sub), "%s", daemon);
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
	bool named = daemon &&
		     (code == KS_DAEMON_OFF || code == KS_DAEMON_OFF_FAST ||
		      code == KS_DAEMON_ON || code == KS_DC_OFF_GRACEFUL ||
		      code == KS_DC_OFF_FAST);
	if (named)
		printf("Sent \"%s\" command for \"%s\" to %s\n", label,
		       daemon, who);
	else
		printf("Sent \"%s\" command to %s\n", label, who);
	return 0;
}

/* The masters named, or those the collector has (all of them, or those
 * of -constraint), each sent the command. */
static int send_collected(const ks_config *cfg, const struct opts *o,
			  const char *name)
{
	char **addrs = NULL, **names = NULL;
	size_t n = 0;
	struct ks_err err = {0};
	int status = 0;
	if (masters(cfg, o, name, &addrs, &names, &n, &err)) {
		fprintf(stderr, "Error: %s\n", err.msg);
		return 1;
	}
	if (n == 0) {
		if (name)
			fprintf(stderr, "Can't find address for master %s\n",
				name);
		else
			fprintf(stderr, "Can't find addresses for masters "
					"for %s\n",
				o->c.constraint ? o->c.constraint : "-all");
		fprintf(stderr, "Perhaps you need to query another pool.\n");
		status = 1;
	}
	for (size_t i = 0; i < n; i++) {
		char who[600];
		snprintf(who, sizeof(who), "master %s", names[i]);
		status |= send_one(cfg, o, addrs[i], who);
		free(addrs[i]);
		free(names[i]);
	}
	free(addrs);
	free(names);
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	const char *prog = base ? base + 1 : argc > 0 ? argv[0] : "condor_off";
	enum ct_command cmd = CT_OFF;
	if (strstr(prog, "condor_on")) {
		o.act = ACT_ON;
		cmd = CT_ON;
	} else if (strstr(prog, "restart")) {
		o.act = ACT_RESTART;
		cmd = CT_RESTART;
	} else if (strstr(prog, "reconfig")) {
		o.act = ACT_RECONFIG;
		cmd = CT_RECONFIG;
	} else {
		o.act = ACT_OFF;
	}
	int st = ct_parse(argc, argv, cmd, "condor_off", &o.c, stdout, stderr);
	if (st != CT_GO) {
		ct_opts_free(&o.c);
		return st;
	}
	struct ks_err err;
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", err.msg);
		ct_opts_free(&o.c);
		return 1;
	}
	int status = 0;
	if (o.c.all || o.c.constraint) {
		status = send_collected(cfg, &o, NULL);
	} else if (o.c.ntargets == 0) {
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
		for (size_t i = 0; i < o.c.ntargets; i++) {
			const char *t = o.c.targets[i];
			status |= t[0] == '<' ? send_one(cfg, &o, t, t)
					      : send_collected(cfg, &o, t);
		}
	}
	ks_config_free(cfg);
	ct_opts_free(&o.c);
	return status;
}
