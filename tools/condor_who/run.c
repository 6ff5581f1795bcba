/*
 * run.c: condor_who's whole run, in the order of HTCondor's tool.
 *
 *  1. The log directories: each -logdir, else LOG when it is a directory.
 *     Each is read (logdir.c); the startd it names, if the master has not
 *     seen it exit, is one to ask; daemons without a pid are asked for
 *     it; -verbose and -daemons print their tables here.
 *  2. -daemons stops there.
 *  3. The startds: each -address, then those of the log directories;
 *     with none, the local startd found as every tool finds it (its
 *     address file, else the collector).  Each is asked directly for its
 *     slots with a job (JobId =!= UNDEFINED, and any -constraint), and
 *     the answer printed (show.c).  A startd that cannot be asked ends
 *     the command with status 1; finding none prints nothing, as
 *     HTCondor's tool does on a machine that runs no startd.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ks_addr.h"
#include "ks_client.h"
#include "ks_mem.h"
#include "sdt.h"
#include "who.h"

struct run {
	const ks_config *cfg;
	const struct who_opts *o;
	FILE *out, *err;
	char **addrs; /* the startds to ask; NULL for the local one */
	size_t naddrs;
};

/* A startd named twice (by -address and by the log directory) is asked
 * once: HTCondor's tool would print its jobs twice. */
static void add_addr(struct run *r, const char *addr)
{
	for (size_t i = 0; addr && i < r->naddrs; i++)
		if (r->addrs[i] && strcmp(r->addrs[i], addr) == 0)
			return;
	r->addrs = ks_xrealloc(r->addrs, (r->naddrs + 1) * sizeof(*r->addrs));
	r->addrs[r->naddrs++] = addr ? ks_xstrdup(addr) : NULL;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void scan_logdirs(struct run *r)
{
	const struct who_opts *o = r->o;
	const char *const *dirs = o->logdirs;
	size_t n = o->nlogdirs;
	char *conf = NULL;
	if (!n) {
		conf = ks_config_get(r->cfg, "LOG", NULL);
		if (conf && is_dir(conf)) {
			dirs = (const char *const *)&conf;
			n = 1;
		}
	}
	if (o->diag && n) {
		fprintf(r->err, "Query log dirs:\n");
		for (size_t i = 0; i < n; i++)
			fprintf(r->err, "    [%3d] %s\n", (int)i, dirs[i]);
	}
	for (size_t i = 0; i < n; i++) {
		struct who_logdir l;
		who_logdir_scan(dirs[i], o->daemons && !o->verbose, &l);
		struct who_daemon *sd = who_logdir_find(&l, "Startd");
		if (sd && sd->addr[0] && !sd->exit_code[0])
			add_addr(r, sd->addr);
		who_fill_pids(r->cfg, o, &l, r->err);
		if (o->verbose || (o->diag && !o->daemons)) {
			fprintf(r->out, "\nLOG directory \"%s\"\n", dirs[i]);
			who_print_log_info(&l, r->out);
		} else if (o->daemons) {
			fprintf(r->out, "\nLOG directory \"%s\"\n", dirs[i]);
			who_print_daemons(r->cfg, o, &l, r->out, r->err);
		}
		who_logdir_free(&l);
	}
	if (o->verbose && !n)
		fprintf(r->out, "\nNo log directory to read (LOG is not a "
				"directory; use -logdir)\n");
	free(conf);
}

/* The query HTCondor's tool sends: slot ads of slots with a job. */
static classad *make_query(const struct run *r, const struct who_show *sh)
{
	const struct who_opts *o = r->o;
	struct classad_buf req = {0};
	for (size_t i = 0; i < o->nconstraints; i++)
		classad_buf_printf(&req, "(%s) && ", o->constraints[i]);
	tf_buf_add(&req, "(JobId =!= UNDEFINED)");
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	classad_insert_text(q, "Requirements", tf_buf_str(&req), NULL);
	if (sh->proj.n) {
		char *names = tf_names_join(&sh->proj);
		classad_insert_string(q, "Projection", names);
		free(names);
	}
	if (o->limit > 0)
		classad_insert_int(q, "LimitResults", o->limit);
	tf_buf_free(&req);
	return q;
}

/* The local startd, as every tool finds it: NULL when there is none. */
static char *local_startd(const struct run *r)
{
	struct sdt_startd s;
	bool local;
	struct ks_err e = {0};
	char *addr = NULL;
	if (sdt_locate(r->cfg, NULL, NULL, &local, &s, &e) == 0) {
		addr = s.addr;
		s.addr = NULL;
	} else if (r->o->debug || r->o->diag) {
		fprintf(r->err, "no local startd: %s\n", e.msg);
	}
	sdt_startd_clear(&s);
	return addr;
}

/* Asks one startd and prints its answer.  Returns the exit status. */
static int ask(struct run *r, struct who_show *sh, const classad *q,
	       const char *given)
{
	const struct who_opts *o = r->o;
	if (o->verbose || o->diag)
		fprintf(r->out, "querying addr = %s\n", given ? given : "NULL");
	char *found = given ? NULL : local_startd(r);
	const char *addr = given ? given : found;
	if (o->diag)
		fprintf(r->err, "got a Daemon, addr = %s\n",
			addr ? addr : "(null)");
	if (!addr)
		return 0;
	struct ks_err e = {0};
	struct ks_addr pa;
	classad **ads = NULL;
	size_t n = 0;
	int rc = ks_addr_parse(addr, 0, &pa, &e);
	if (rc == 0 && pa.port <= 0)
		rc = ks_err_set(&e, KS_EINVAL, 0, 0, 0,
				"%s has no port: give a sinful string such as "
				"<127.0.0.1:9618>", addr);
	if (rc) {
		/* HTCondor's tool words an address it cannot use so */
		fprintf(r->err, "Error: can't find collector\n%s\n", e.msg);
		free(found);
		return 1;
	}
	rc = who_query(r->cfg, addr, q, &ads, &n, &e);
	if (rc) {
		fprintf(r->err, "Error: communication error\n%s\n", e.msg);
		free(found);
		return 1;
	}
	if (o->diag)
		fprintf(r->err, "QueryResult is 0 : \n    %zu records\n", n);
	who_show_ads(sh, ads, n, r->out);
	ks_ads_free(ads, n);
	free(found);
	return 0;
}

static int run(const ks_config *cfg, const struct who_opts *o, FILE *out,
	       FILE *err)
{
	struct run r = {cfg, o, out, err, NULL, 0};
	struct who_show sh;
	int status = who_show_init(&sh, o, out, err);
	if (status == 0) {
		for (size_t i = 0; i < o->naddrs; i++)
			add_addr(&r, o->addrs[i]);
		scan_logdirs(&r);
	}
	if (status == 0 && !o->daemons) {
		if (!r.naddrs)
			add_addr(&r, NULL);
		classad *q = make_query(&r, &sh);
		for (size_t i = 0; i < r.naddrs && status == 0; i++)
			status = ask(&r, &sh, q, r.addrs[i]);
		classad_free(q);
	}
	for (size_t i = 0; i < r.naddrs; i++)
		free(r.addrs[i]);
	free(r.addrs);
	who_show_free(&sh);
	return status;
}

/* The configuration; with none at all (no CONDOR_CONFIG, no file where
 * one is looked for), an empty one, as HTCondor's tool carries on then:
 * -address and -logdir need none. */
static ks_config *load_config(FILE *err)
{
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (cfg)
		return cfg;
	if (getenv("CONDOR_CONFIG")) {
		fprintf(err, "ERROR: %s\n", e.msg);
		return NULL;
	}
	return ks_config_new("TOOL", NULL);
}

int who_main(int argc, const char *const *argv, FILE *out, FILE *err)
{
	struct who_opts o;
	int status = who_parse(argc, argv, &o, err);
	if (status == WHO_GO) {
		ks_config *cfg = load_config(err);
		status = cfg ? run(cfg, &o, out, err) : 1;
		ks_config_free(cfg);
	}
	who_opts_free(&o);
	return status;
}
