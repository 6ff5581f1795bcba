/*
 * prio.c: condor_prio, as HTCondor 25's (src/condor_prio/prio.cpp for
 * the facts): sets the JobPrio of jobs, to -p N or by +N / -N relative
 * to each job's current value, for a cluster, a job, a user's jobs or
 * (-a) every job of the schedd.
 *
 * The jobs and their current JobPrio are read with QUERY_JOB_ADS, then
 * each is set with condor_qedit's SetAttribute (qe_set_attr()).  As in
 * HTCondor, the value may be any integer (HTCondor has no -20..20 bound
 * any more), and a job that cannot be read or set is reported on
 * standard error without changing the exit status: 1 is only for a bad
 * command line, a schedd not found or not reachable.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_commands.h"
#include "ks_mem.h"
#include "qedit.h"
#include "qtool.h"

struct prio {
	const char *prog;
	bool have_prio, have_adj;
	int prio;  /* -p */
	int adj;   /* +N / -N */
	ks_conn *c;
};

static int usage(const char *prog)
{
	fprintf(stderr, "Usage: %s [{+|-}priority ] [-p priority] ", prog);
	fprintf(stderr, "[ -a ] [-n schedd_name] [ -pool pool_name ] "
			"[user | cluster | cluster.proc | -a] ...\n");
	return 1;
}

struct found {
	struct {
		int cluster, proc, prio;
	} *v;
	size_t n, cap;
	const char *missing_fmt; /* message for a job without JobPrio */
	int cluster;             /* for the cluster form's message */
};

static int collect(classad *ad, void *arg)
{
	struct found *f = arg;
	char *type = NULL;
	bool summary = classad_eval_string(ad, "MyType", NULL, &type) &&
		       strcmp(type, "Summary") == 0;
	free(type);
	if (!summary) {
		int64_t c = 0, p = 0, prio = 0;
		classad_eval_int(ad, "ClusterId", NULL, &c);
		classad_eval_int(ad, "ProcId", NULL, &p);
		if (!classad_eval_int(ad, "JobPrio", NULL, &prio)) {
			if (f->missing_fmt == NULL)
				fprintf(stderr, "Couldn't retrieve current proc "
						"or priority for %d.\n",
					f->cluster);
			else
				fprintf(stderr, f->missing_fmt, (int)c, (int)p);
		} else {
			if (f->n == f->cap) {
				f->cap = f->cap ? f->cap * 2 : 16;
				f->v = ks_xrealloc(f->v, f->cap * sizeof(*f->v));
			}
			f->v[f->n].cluster = (int)c;
			f->v[f->n].proc = (int)p;
			f->v[f->n].prio = (int)prio;
			f->n++;
		}
	}
	classad_free(ad);
	return 0;
}

/* The jobs satisfying constraint, with their JobPrio. */
static int query(struct prio *pr, const char *constraint, struct found *f)
{
	classad *q = classad_new();
	struct ks_err err = {0};
	classad_insert_text(q, "Requirements", constraint, NULL);
	classad_insert_string(q, "Projection", "ClusterId ProcId JobPrio");
	int rc = qt_stream(pr->c, KS_QUERY_JOB_ADS, q, collect, f, &err);
	classad_free(q);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	return rc;
}

static void set_prio(struct prio *pr, int cluster, int proc, int old)
{
	int now = pr->have_prio ? pr->prio : old + pr->adj;
	char ids[48], value[24];
	snprintf(ids, sizeof ids, "%d.%d", cluster, proc);
	snprintf(value, sizeof value, "%d", now);
	classad *res = NULL;
	struct ks_err err = {0};
	int64_t ok = 0;
	char attr[64];
	snprintf(attr, sizeof attr, "job_%d_%d", cluster, proc);
	int rc = qe_set_attr(pr->c, ids, NULL, "JobPrio", value, &res, &err);
	/* (a schedd that lists no per-job result counts its successes) */
	if (rc == 0 && !classad_eval_int(res, attr, NULL, &ok))
		classad_eval_int(res, "TotalSuccess", NULL, &ok);
	if (rc != 0 || ok != 1)
		fprintf(stderr, "Couldn't set new priority for %d.%d.\n",
			cluster, proc);
	classad_free(res);
}

/* One job selector, as HTCondor's ProcArg(). */
static void proc_arg(struct prio *pr, const char *arg)
{
	struct found f = {0};
	char constraint[256];
	if (isdigit((unsigned char)arg[0])) {
		char *end;
		long cluster = strtol(arg, &end, 10);
		if (cluster <= 0 || cluster > 0x7fffffff) {
			fprintf(stderr, "Invalid cluster # from %s\n", arg);
			return;
		}
		if (*end == '\0') {
			snprintf(constraint, sizeof constraint,
				 "ClusterId == %ld", cluster);
			f.cluster = (int)cluster;
			query(pr, constraint, &f);
		} else if (*end == '.') {
			long proc = strtol(end + 1, &end, 10);
			if (proc < 0 || proc > 0x7fffffff) {
				fprintf(stderr, "Invalid proc # from %s\n", arg);
				return;
			}
			if (*end != '\0') {
				fprintf(stderr, "Warning: unrecognized \"%s\" "
						"skipped\n", arg);
				return;
			}
			snprintf(constraint, sizeof constraint,
				 "ClusterId == %ld && ProcId == %ld", cluster,
				 proc);
			f.missing_fmt = "Couldn't retrieve current priority "
					"for %d.%d.\n";
			query(pr, constraint, &f);
			if (f.n == 0)
				fprintf(stderr, "Couldn't retrieve current "
						"priority for %ld.%ld.\n",
					cluster, proc);
		} else {
			fprintf(stderr, "Warning: unrecognized \"%s\" skipped\n",
				arg);
			return;
		}
	} else if (arg[0] == '-' && arg[1] == 'a') {
		f.missing_fmt = "Couldn't retrieve priority for %d.%d.\n";
		query(pr, "true", &f);
	} else if (isalpha((unsigned char)arg[0])) {
		char *q = qt_quote(arg);
		char *c = ks_xmalloc(strlen(q) + 16);
		sprintf(c, "Owner == %s", q);
		f.missing_fmt = "Couldn't retrieve priority for %d.%d.\n";
		query(pr, c, &f);
		free(c);
		free(q);
	} else {
		fprintf(stderr, "Warning: unrecognized \"%s\" skipped\n", arg);
	}
	for (size_t i = 0; i < f.n; i++)
		set_prio(pr, f.v[i].cluster, f.v[i].proc, f.v[i].prio);
	free(f.v);
}

int main(int argc, char **argv)
{
	struct prio pr = {0};
	pr.prog = argc > 0 ? argv[0] : "condor_prio";
	const char *pool = NULL, *name = NULL;
	const char **args = ks_xcalloc((size_t)argc + 1, sizeof(*args));
	size_t nargs = 0;
	if (argc < 2) {
		free(args);
		return usage(pr.prog);
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((a[0] == '-' || a[0] == '+') &&
		    isdigit((unsigned char)a[1])) {
			int v = atoi(a + 1);
			pr.adj = a[0] == '-' ? -v : v;
			pr.have_adj = true;
		} else if (strcmp(a, "-p") == 0) {
			if (i + 1 >= argc) {
				/* HTCondor reads past the end here */
				free(args);
				return usage(pr.prog);
			}
			pr.prio = atoi(argv[++i]);
			pr.have_prio = true;
		} else if (strcmp(a, "-pool") == 0 || strcmp(a, "-n") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s requires another "
						"argument\n", pr.prog, a);
				free(args);
				return 1;
			}
			if (a[1] == 'n')
				name = argv[++i];
			else
				pool = argv[++i];
		} else {
			args[nargs++] = a;
		}
	}
	if (pool && !name) {
		fprintf(stderr, "%s: -pool also requires -n to be specified\n",
			pr.prog);
		free(args);
		return 1;
	}
	struct ks_err e = {0};
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &e);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", e.msg);
		free(args);
		return 1;
	}
	int status = 0;
	struct qt_schedd s = {0};
	if (qt_schedd_find(cfg, pool, name, &s, &e) != 0) {
		if (!name)
			fprintf(stderr, "%s: ERROR: Can't find address of local "
					"schedd\n", pr.prog);
		else if (!pool)
			fprintf(stderr, "%s: No such schedd named %s in local "
					"pool\n", pr.prog, name);
		else
			fprintf(stderr, "%s: No such schedd named %s in pool "
					"%s\n", pr.prog, name, pool);
		status = 1;
	} else if (!pr.have_prio && !pr.have_adj) {
		fprintf(stderr, "You must specify a new priority or priority "
				"adjustment.\n");
		status = usage(pr.prog);
	} else if (ks_conn_open(cfg, s.addr, 0, &pr.c, &e) != 0) {
		fprintf(stderr, "Failed to connect to queue manager %s\n",
			s.addr);
		status = 1;
	} else {
		for (size_t i = 0; i < nargs; i++)
			proc_arg(&pr, args[i]);
	}
	ks_conn_close(pr.c);
	qt_schedd_free(&s);
	ks_config_free(cfg);
	free(args);
	return status;
}
