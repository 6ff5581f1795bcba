/*
 * send.c: submitting a description's jobs to a schedd: a cluster id
 * first (the jobs' $(Cluster) needs it), then the cluster ad (the first
 * job's attributes) and each job's differences from it, in one message
 * the schedd queues in one transaction (docs/schedd.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_mem.h"
#include "submit.h"

struct gather {
	classad **ads; /* [0] the command, [1] the cluster ad, then procs */
	size_t n, cap;
	bool dots;
	bool verbose; /* each job's ad, as HTCondor's -verbose shows it */
};

/* The attributes of ad that the cluster ad does not already have. */
static classad *proc_part(const classad *ad, const classad *cl)
{
	classad *p = classad_new();
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e))
		if (!classad_expr_same(e, classad_lookup(cl, name)))
			classad_insert(p, name, classad_expr_ref(e));
	return p;
}

static int gather_job(void *arg, classad *ad, struct ks_err *err)
{
	(void)err;
	struct gather *g = arg;
	if (g->n + 1 >= g->cap) {
		g->cap = g->cap * 2 + 16;
		g->ads = ks_xrealloc(g->ads, g->cap * sizeof(*g->ads));
	}
	if (g->n == 2) {
		/* the first job's ad is the cluster's */
		classad *cl = classad_copy(ad);
		classad_delete(cl, "ProcId");
		g->ads[1] = cl;
	}
	g->ads[g->n++] = proc_part(ad, g->ads[1]);
	if (g->verbose) {
		int64_t c = 0, p = 0;
		classad_eval_int(ad, "ClusterId", NULL, &c);
		classad_eval_int(ad, "ProcId", NULL, &p);
		char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
		printf("\n** Proc %lld.%lld:\n%s", (long long)c, (long long)p,
		       text);
		free(text);
	} else if (g->dots) {
		fputc('.', stdout);
	}
	classad_free(ad);
	return 0;
}

static void print_error(const char *what, const char *why)
{
	fprintf(stderr, "\nERROR: %s\n", what);
	if (why && *why)
		fprintf(stderr, "ERROR: %s\n", why);
}

/* One request and its reply's first ad (new, or NULL).  Returns 0, or
 * the error with *why the schedd's ErrorString (new) when it gave one. */
static int ask(ks_conn *c, classad **ads, size_t n, classad **reply,
	       char **why, struct ks_err *err)
{
	*reply = NULL;
	*why = NULL;
	int rc = ks_conn_send(c, KS_QMGMT_WRITE_CMD, ads, n, 0, err);
	int code = 0;
	classad **in = NULL;
	size_t nin = 0;
	bool more = false;
	if (rc == 0)
		rc = ks_conn_recv(c, &code, &in, &nin, &more, err);
	if (rc == 0 && code != KS_REPLY_OK) {
		if (nin)
			classad_eval_string(in[0], "ErrorString", NULL, why);
		rc = KS_EPERM;
	}
	if (rc == 0 && nin)
		*reply = classad_ref(in[0]);
	ks_ads_free(in, nin);
	return rc;
}

int sub_send(const ks_config *cfg, const struct sub_file *sf, const char *iwd,
	     const char *user, long long now, const char *name,
	     const char *pool, bool terse, bool verbose, bool stdin_file)
{
	struct ks_err err = {0};
	char *addr = NULL;
	if (ks_schedd_addr(cfg, name, pool, &addr, NULL, &err)) {
		if (name)
			fprintf(stderr, "\nERROR: Can't find address of schedd "
					"%s\n", name);
		else
			fprintf(stderr, "\nERROR: Can't find address of local "
					"schedd\n");
		return 1;
	}
	ks_conn *c = NULL;
	if (ks_conn_open(cfg, addr, 0, &c, &err)) {
		fprintf(stderr, "\nERROR: Failed to connect to queue manager "
				"%s\n%s\n", name ? name : addr, err.msg);
		free(addr);
		return 1;
	}
	free(addr);
	int status = 1;
	classad *cmd = classad_new(), *reply = NULL;
	char *why = NULL;
	int64_t cluster = 0;
	struct gather g = {.dots = !terse, .verbose = verbose && !terse};
	classad_insert_string(cmd, "Op", "NewCluster");
	if (ask(c, &cmd, 1, &reply, &why, &err) ||
	    !classad_eval_int(reply, "ClusterId", NULL, &cluster)) {
		if (why && !strncmp(why, "MAX_JOBS_SUBMITTED", 18))
			/* as HTCondor's submit says it */
			fprintf(stderr, "\nERROR: %s\nNumber of submitted jobs "
					"would exceed MAX_JOBS_SUBMITTED\n", why);
		else
			print_error("Failed to create cluster",
				    why ? why : err.msg);
		goto out;
	}
	classad_free(reply);
	reply = NULL;
	if (!terse && !stdin_file)
		fputs("Submitting job(s)", stdout);
	g.cap = 16;
	g.ads = ks_xcalloc(g.cap, sizeof(*g.ads));
	g.ads[0] = classad_new();
	classad_insert_string(g.ads[0], "Op", "Submit");
	classad_insert_int(g.ads[0], "ClusterId", cluster);
	g.n = 2;
	long njobs = 0;
	bool factory;
	/* (a late-materialization factory's jobs are all submitted at
	 * once: the schedd makes no jobs of its own) */
	if (sub_factory(cfg, sf, iwd, user, &factory, &err) ||
	    sub_each_job(cfg, sf, (long)cluster, iwd, user, now, gather_job,
			 &g, &njobs, &err)) {
		fprintf(stderr, "\nERROR: %s\n", err.msg);
		goto out;
	}
	if (njobs == 0) {
		status = 0;
		goto out;
	}
	fflush(stdout);
	if (ask(c, g.ads, g.n, &reply, &why, &err)) {
		if (why && strstr(why, "Number of submitted jobs would exceed "))
			/* a submission limit, as HTCondor's submit says it */
			fprintf(stderr, "\nERROR: Failed to create proc\n%s\n",
				why);
		else
			print_error("Failed to commit job submission into the "
				    "queue.", why ? why : err.msg);
		goto out;
	}
	char *warn = NULL;
	if (classad_eval_string(reply, "Warnings", NULL, &warn) && *warn) {
		fprintf(stderr, "\nWARNING: Committed job submission into the "
				"queue with the following warning(s):\n");
		fprintf(stderr, "WARNING: %s\n", warn);
	}
	free(warn);
	if (!terse && !stdin_file)
		fputc('\n', stdout);
	/* -verbose has shown every job instead */
	if (terse)
		printf("%lld.0 - %lld.%ld\n", (long long)cluster,
		       (long long)cluster, njobs - 1);
	else if (!verbose) {
		printf("%ld job(s) submitted to cluster %lld.\n", njobs,
		       (long long)cluster);
		/* HTCondor's closing hint, on stderr so that scripts reading
		 * the cluster from stdout do not see it */
		fflush(stdout);
		fprintf(stderr, "To monitor your job(s), run: condor_watch_q "
				"-clusters %lld\n",
			(long long)cluster);
	}
	/* the schedd passes it on to the negotiator: a cycle now rather
	 * than at the next interval */
	(void)ks_conn_reschedule(c, &err); /* the jobs are queued anyway */
	status = 0;
out:
	for (size_t i = 0; i < g.n; i++)
		classad_free(g.ads[i]);
	free(g.ads);
	classad_free(cmd);
	classad_free(reply);
	free(why);
	ks_conn_close(c);
	return status;
}
