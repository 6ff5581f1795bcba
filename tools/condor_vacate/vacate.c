/*
 * vacate.c: condor_vacate's work, after HTCondor's tool.cpp (doCommands,
 * resolveNames, doCommand): the targets become startds found in one
 * collector query (or the local address file), then each gets its
 * command.  A whole machine gets VACATE_ALL_* once per address, since
 * all its slots share one startd; a slot named "slotN@host", or one
 * chosen by -constraint, gets VACATE_CLAIM_* with its Name.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "ks_wire.h"
#include "sdt.h"
#include "vacate.h"

/* How a target was found, which decides how it is named in messages
 * (HTCondor's Daemon::idStr()) and whether it may be one slot. */
enum vac_kind {
	VAC_STARTD, /* from a slot ad: "startd NAME" */
	VAC_LOCAL,  /* this host's: "local startd" */
	VAC_ADDR,   /* a sinful string given: "daemon at <addr>" */
};

struct vac_target {
	enum vac_kind kind;
	char *addr;
	char *name;    /* VAC_STARTD: the name asked for, or the ad's */
	char *machine; /* the ad's Machine, for -all's messages */
};

/* One run: what every target's send needs. */
struct vac_run {
	const ks_config *cfg;
	const struct ct_opts *o;
	FILE *out, *err;
	char **sent; /* addresses sent a machine-wide command already */
	size_t nsent;
	bool all_good;
};

static void target_clear(struct vac_target *t)
{
	free(t->addr);
	free(t->name);
	free(t->machine);
	*t = (struct vac_target){0};
}

static const char *label(int code)
{
	switch (code) {
	case KS_VACATE_CLAIM:
		return "Vacate-Claim";
	case KS_VACATE_CLAIM_FAST:
		return "Vacate-Claim-Fast";
	case KS_VACATE_ALL_FAST:
		return "Vacate-All-Claims-Fast";
	default:
		return "Vacate-All-Claims";
	}
}

static void id_str(const struct vac_target *t, char *buf, size_t size)
{
	char bare[320];
	switch (t->kind) {
	case VAC_LOCAL:
		snprintf(buf, size, "local startd");
		break;
	case VAC_ADDR:
		sdt_bare_addr(t->addr, bare, sizeof(bare));
		snprintf(buf, size, "daemon at %s", bare);
		break;
	default:
		snprintf(buf, size, "startd %s", t->name ? t->name : "?");
	}
}

/* HTCondor's doCommand() for one target. */
static void send_one(struct vac_run *r, const struct vac_target *t)
{
	const struct ct_opts *o = r->o;
	/* one slot only when it was named as one: never for -all, an
	 * address or the local startd */
	bool one = !o->all && t->kind == VAC_STARTD && t->name &&
		   strchr(t->name, '@');
	if (!one) {
		/* a machine-wide command goes to each startd once */
		for (size_t i = 0; i < r->nsent; i++)
			if (strcmp(r->sent[i], t->addr) == 0)
				return;
		r->sent = ks_xrealloc(r->sent,
				      (r->nsent + 1) * sizeof(*r->sent));
		r->sent[r->nsent++] = ks_xstrdup(t->addr);
	}
	bool fast = o->mode == CT_FAST;
	int code = one ? (fast ? KS_VACATE_CLAIM_FAST : KS_VACATE_CLAIM)
		       : (fast ? KS_VACATE_ALL_FAST : KS_VACATE_ALL_CLAIMS);
	classad *ad = NULL;
	if (one) {
		ad = classad_new();
		classad_insert_string(ad, "Name", t->name);
	}
	char id[600];
	id_str(t, id, sizeof(id));
	struct sdt_reply rep;
	struct ks_err e = {0};
	bool connected;
	int rc = sdt_send(r->cfg, t->addr, code, ad, &connected, &rep, &e);
	classad_free(ad);
	if (rc && !connected) {
		if (o->debug)
			fprintf(r->err, "%s\n", e.msg);
		fprintf(r->err, "Can't connect to %s\n", id);
		r->all_good = false;
		return;
	}
	if (rc || rep.code < 0) {
		/* HTCondor: "ERROR", the reason, then what could not be
		 * done (its cmdToStr() is not quoted here) */
		char *why = rc ? ks_xstrdup(e.msg) : sdt_reply_error(&rep, NULL);
		fprintf(r->err, "ERROR\n%s%s\nCan't send %s command to %s\n",
			rep.code == KS_REPLY_DENIED ? "PERMISSION DENIED: " : "",
			why, label(code), id);
		free(why);
		sdt_reply_clear(&rep);
		r->all_good = false;
		return;
	}
	sdt_reply_clear(&rep);
	if (t->kind == VAC_STARTD && o->all)
		fprintf(r->out, "Sent \"%s\" command to startd %s\n",
			label(code), t->machine ? t->machine : t->name);
	else
		fprintf(r->out, "Sent \"%s\" command to %s\n", label(code), id);
}

/* The collector query failed, or found nothing: HTCondor's
 * resolveNames() says so for each name and gives up (exit 1). */
static int query_failed(struct vac_run *r, int rc, const struct ks_err *e,
			const char *const *names, size_t nnames)
{
	const struct ct_opts *o = r->o;
	if (rc) {
		fprintf(r->err, "%s\n", e->msg);
		if (o->pool)
			fprintf(r->err, "ERROR: can't connect to collector "
					"%s\n", o->pool);
		else
			fprintf(r->err, "ERROR: can't connect to local "
					"collector\n");
	} else {
		fprintf(r->err, "Found no ClassAds when querying pool (%s)\n",
			o->pool ? o->pool : "local");
	}
	if (!names) {
		if (o->constraint)
			fprintf(r->err, "Can't find addresses for startd's for "
					"constraint '%s'\n", o->constraint);
		else
			fprintf(r->err, "Can't find addresses for startd's for "
					"-all\n");
	}
	for (size_t i = 0; names && i < nnames; i++)
		fprintf(r->err, "Can't find address for startd %s\n", names[i]);
	fprintf(r->err, "Perhaps you need to query another pool.\n");
	return 1;
}

/* -all and -constraint: every matching slot ad is a target. */
static int run_all(struct vac_run *r)
{
	struct sdt_startd *s;
	size_t n;
	struct ks_err e = {0};
	int rc = sdt_query(r->cfg, r->o->pool, r->o->constraint, &s, &n, &e);
	if (rc || n == 0) {
		sdt_startds_free(s, n);
		return query_failed(r, rc, &e, NULL, 0);
	}
	for (size_t i = 0; i < n; i++) {
		struct vac_target t = {VAC_STARTD, s[i].addr, s[i].name,
				       s[i].machine};
		send_one(r, &t);
	}
	sdt_startds_free(s, n);
	/* as HTCondor's doCommands(): a failed send does not change the
	 * exit status of -all or -constraint */
	return 0;
}

/* No target: this host's startd. */
static int run_local(struct vac_run *r)
{
	const struct ct_opts *o = r->o;
	if (o->pool) {
		fprintf(r->err,
			"ERROR: You have asked to find a machine in another "
			"pool (with\n"
			"the -pool option) but you have not specified which "
			"machine.\n"
			"Please also use -addr, -name, or list the name(s).\n"
			"For more information, use -help.\n");
		return 1;
	}
	struct vac_target t = {VAC_LOCAL, NULL, NULL, NULL};
	struct sdt_startd s;
	bool local;
	struct ks_err e = {0};
	if (sdt_locate(r->cfg, NULL, NULL, &local, &s, &e) != 0 || !s.addr) {
		if (o->debug && e.msg[0])
			fprintf(r->err, "%s\n", e.msg);
		sdt_startd_clear(&s);
		fprintf(r->err, "Can't find address for local startd\n"
				"Perhaps you need to query another pool.\n");
		return 1;
	}
	t.addr = s.addr;
	s.addr = NULL;
	sdt_startd_clear(&s);
	send_one(r, &t);
	target_clear(&t);
	return r->all_good ? 0 : 1;
}

/* HTCondor's resolveNames() test: a host name matches Machine; a slot
 * name matches Name, or the host after its '@'. */
static bool matches(const struct sdt_startd *s, const char *want)
{
	if (!strchr(want, '@'))
		return s->machine && strcasecmp(s->machine, want) == 0;
	return s->name && (strcasecmp(s->name, want) == 0 ||
			   strcasecmp(sdt_host_part(s->name), want) == 0);
}

/* Named machines and slots (one query for all of them), then
 * addresses, as HTCondor orders them. */
static int run_named(struct vac_run *r)
{
	const struct ct_opts *o = r->o;
	size_t nt = o->ntargets;
	char **names = ks_xcalloc(nt + 1, sizeof(*names));
	const char **addrs = ks_xcalloc(nt + 1, sizeof(*addrs));
	size_t nnames = 0, naddrs = 0;
	for (size_t i = 0; i < nt; i++) {
		const char *a = o->targets[i];
		if (a[0] == '<') {
			struct ks_addr pa;
			size_t len = strlen(a);
			if (a[len - 1] != '>' ||
			    ks_addr_parse(a, 0, &pa, NULL) || pa.port <= 0) {
				fprintf(r->err,
					"Address %s is not valid.\n"
					"Should be of the form "
					"<ip.address.here:port>.\n"
					"For example: <123.456.789.123:6789>\n",
					a);
				r->all_good = false;
				continue;
			}
			addrs[naddrs++] = a;
			continue;
		}
		char *name = sdt_daemon_name(r->cfg, a);
		if (!name) {
			fprintf(r->err, "%s: unknown host %s\n", o->prog,
				sdt_host_part(a));
			r->all_good = false;
			continue;
		}
		names[nnames++] = name;
	}
	struct vac_target *ts = ks_xcalloc(nnames + naddrs + 1, sizeof(*ts));
	size_t nts = 0;
	const char **missing = ks_xcalloc(nnames + 1, sizeof(*missing));
	size_t nmissing = 0;
	int status = 0;
	if (nnames) {
		struct sdt_startd *s;
		size_t n;
		struct ks_err e = {0};
		int rc = sdt_query(r->cfg, o->pool, NULL, &s, &n, &e);
		if (rc || n == 0) {
			sdt_startds_free(s, n);
			status = query_failed(r, rc, &e,
					      (const char *const *)names,
					      nnames);
			goto out;
		}
		for (size_t i = 0; i < nnames; i++) {
			const char *want = names[i];
			size_t k = 0;
			while (k < n && !matches(&s[k], want))
				k++;
			if (k == n) {
				fprintf(r->err, "Can't find address for startd "
						"%s\n", want);
				missing[nmissing++] = want;
				continue;
			}
			ts[nts++] = (struct vac_target){
				VAC_STARTD, ks_xstrdup(s[k].addr),
				ks_xstrdup(want),
				s[k].machine ? ks_xstrdup(s[k].machine) : NULL};
		}
		sdt_startds_free(s, n);
	}
	for (size_t i = 0; i < naddrs; i++)
		ts[nts++] = (struct vac_target){VAC_ADDR, ks_xstrdup(addrs[i]),
						NULL, NULL};
	for (size_t i = 0; i < nts; i++)
		send_one(r, &ts[i]);
	status = r->all_good ? 0 : 1;
	/* HTCondor's main() names the missing ones again at the end */
	for (size_t i = 0; i < nmissing; i++)
		fprintf(r->err, "Can't find address for %s\n", missing[i]);
	if (nmissing) {
		fprintf(r->err, "Perhaps you need to query another pool.\n");
		status = 1;
	}
out:
	for (size_t i = 0; i < nts; i++)
		target_clear(&ts[i]);
	free(ts);
	free(missing);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(addrs);
	return status;
}

int vac_run(const ks_config *cfg, const struct ct_opts *o, FILE *out,
	    FILE *err)
{
	struct vac_run r = {cfg, o, out, err, NULL, 0, true};
	int status;
	if (o->pool) {
		/* HTCondor checks -pool as it reads it (DCCollector) */
		char *addr = NULL;
		struct ks_err e = {0};
		if (ks_collector_addr(cfg, o->pool, &addr, &e) != 0) {
			fprintf(err, "%s: %s\n", o->prog, e.msg);
			return 1;
		}
		free(addr);
	}
	if (o->all || o->constraint)
		status = run_all(&r);
	else if (o->ntargets == 0)
		status = run_local(&r);
	else
		status = run_named(&r);
	for (size_t i = 0; i < r.nsent; i++)
		free(r.sent[i]);
	free(r.sent);
	return status;
}

int vac_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct ct_opts o;
	int status = vac_parse(argc, argv, &o, out, err);
	if (status != CT_GO) {
		ct_opts_free(&o);
		return status;
	}
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(err, "ERROR: %s\n", e.msg);
		ct_opts_free(&o);
		return 1;
	}
	status = vac_run(cfg, &o, out, err);
	ks_config_free(cfg);
	ct_opts_free(&o);
	return status;
}
