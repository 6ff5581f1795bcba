/*
 * main.c: condor_submit.  Reads a submit description (a file, or standard
 * input) and makes its jobs' ads; with -dry-run FILE it writes them as
 * HTCondor's condor_submit -dry-run does (to standard output for "-")
 * instead of submitting them.  Submitting to a schedd comes with the
 * schedd.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"
#include "ks_text.h"
#include "submit.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [options] [<attrib>=<value>] [- | <submit-file>]\n"
		"    [options] are\n"
		"\t-terse\t\t\tDisplay terse output, jobid ranges only\n"
		"\t-dry-run <file>\t\tProcess submit file and write ClassAd "
		"attributes to <file>\n"
		"\t\t\t\tbut do not actually submit the job(s) to the SCHEDD.\n"
		"\t\t\t\tIf <file> is -, output is written to stdout.\n"
		"\t-batch-name <name>\tappend a line to submit file that sets "
		"the batch name\n"
		"\t-append <line>\t\tadd line to submit file before processing\n"
		"\t\t\t\t(overrides submit file; multiple -a lines ok)\n"
		"\t-name <name>\t\tsubmit to the specified schedd\n"
		"\t-pool <host>\t\tuse host as the central manager to query\n"
		"\t-verbose\t\tverbose output\n",
		prog);
}

/* The ad's attributes as Name=value lines, only those that differ from
 * first (NULL: all), then a line ".". */
static void print_ad(FILE *out, const classad *ad, const classad *first)
{
	size_t pos = 0;
	const char *name;
	const classad_expr *e;
	while (classad_next(ad, &pos, &name, &e)) {
		if (first && classad_expr_same(e, classad_lookup(first, name)))
			continue;
		char *text = classad_expr_unparse(e, true);
		fprintf(out, "%s=%s\n", name, text);
		free(text);
	}
	fprintf(out, ".\n");
}

struct dry {
	FILE *out;
	classad *first;
	bool factory; /* only the cluster ad: the schedd would make the jobs */
};

static int print_job(void *arg, classad *ad, struct ks_err *err)
{
	(void)err;
	struct dry *d = arg;
	if (d->factory && !d->first)
		classad_delete(ad, "ProcId");
	if (!d->factory || !d->first)
		print_ad(d->out, ad, d->first);
	if (!d->first)
		d->first = ad;
	else
		classad_free(ad);
	return 0;
}

/* Whether a is one of HTCondor's condor_submit options that this one
 * does not have (said so, rather than "Unknown argument"); as HTCondor's
 * submit, any prefix of the name from its shortest form on. */
static bool unsupported(const char *a)
{
	static const struct {
		const char *name;
		size_t shortest; /* characters after the dash */
	} opts[] = {{"interactive", 1}, {"spool", 2},  {"remote", 1},
		    {"addr", 2},	{"factory", 1}, {"maxjobs", 3},
		    {"single-cluster", 3}, {"queue", 1}, {"file", 1},
		    {"disable", 2},	{"password", 2}, {"debug", 2},
		    {"unused", 2},	{"dump", 2},	{"stm", 2},
		    {"allow-crlf-script", 2}};
	if (a[0] != '-')
		return false;
	const char *n = a + 1 + (a[1] == '-');
	size_t len = strlen(n);
	for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++)
		if (len >= opts[i].shortest && len <= strlen(opts[i].name) &&
		    !strncmp(n, opts[i].name, len))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *pool = NULL;
	const char *dry = NULL, *file = NULL;
	bool terse = false, verbose = false;
	struct classad_buf args = {0};   /* NAME=VALUE */
	struct classad_buf append = {0}; /* -append, then -batch-name */
	const char *batch = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "-dry-run") || !strcmp(a, "-dry")) {
			if (!more) {
				fprintf(stderr, "%s: -dry-run requires another "
						"argument\n", argv[0]);
				return 1;
			}
			dry = argv[++i];
		} else if (!strcmp(a, "-terse")) {
			terse = true;
		} else if (!strcmp(a, "-verbose") || !strcmp(a, "-v")) {
			/* (the ads of -dry-run already say everything) */
			verbose = true;
		} else if (!strcmp(a, "-batch-name") || !strcmp(a, "-append") ||
			   !strcmp(a, "-a") || !strcmp(a, "-name") ||
			   !strcmp(a, "-pool")) {
			if (!more) {
				fprintf(stderr, "%s: %s requires another "
						"argument\n", argv[0], a);
				return 1;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "-name")) {
				name = v;
			} else if (!strcmp(a, "-pool")) {
				pool = v;
			} else if (!strcmp(a, "-batch-name")) {
				batch = v;
			} else if (a[1] == 'a') {
				classad_buf_add(&append, v, strlen(v));
				classad_buf_add(&append, "\n", 1);
			}
		} else if (!strcmp(a, "-help") || !strcmp(a, "-h")) {
			usage(stdout, argv[0]);
			return 0;
		} else if (unsupported(a)) {
			fprintf(stderr,
				"%s: %s is an HTCondor option that kestrel's "
				"condor_submit does not support%s\n",
				argv[0], a,
				!strncmp(a, "-i", 2)
					? " (interactive jobs need "
					  "condor_ssh_to_job: submit a batch "
					  "job instead)"
					: "");
			return 1;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: Unknown argument '%s'\n", argv[0], a);
			usage(stderr, argv[0]);
			return 1;
		} else if (strchr(a, '=') && a[0] != '-') {
			classad_buf_add(&args, a, strlen(a));
			classad_buf_add(&args, "\n", 1);
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "%s: Extra argument '%s'\n", argv[0], a);
			return 1;
		}
	}
	FILE *f = stdin;
	const char *fname = "(stdin)";
	if (file && strcmp(file, "-") != 0) {
		f = fopen(file, "r");
		if (!f) {
			fprintf(stderr, "ERROR: Failed to open command file (%s)\n",
				strerror(errno));
			return 1;
		}
		fname = file;
	}
	size_t len;
	char *text = ks_read_all(f, &len);
	bool from_stdin = f == stdin;
	if (!from_stdin)
		fclose(f);
	/* -batch-name comes last, as an attribute: it wins over the
	 * description's batch_name (quoted unless it already is) */
	if (batch)
		classad_buf_printf(&append, *batch == '"'
						    ? "MY.JobBatchName = %s\n"
						    : "MY.JobBatchName = \"%s\"\n",
				   batch);
	/* (a description read from standard input leaves none for items) */
	struct sub_cmdline cl = {args.data, append.data, !from_stdin};
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	struct passwd *pw = getpwuid(getuid());
	const char *user = pw ? pw->pw_name : "nobody";
	struct ks_err cerr;
	ks_config *cfg = ks_config_load_new("SUBMIT", NULL, &cerr);
	if (!cfg) {
		fprintf(stderr, "ERROR: %s\n", cerr.msg);
		free(text);
		free(args.data);
		free(append.data);
		return 1;
	}
	struct sub_file sf;
	struct ks_err err;
	long long now = (long long)time(NULL);
	int rc = sub_file_read(text, len, fname, from_stdin ? NULL : file, cwd,
			       cfg, now, &cl, &sf, &err);
	free(text);
	free(args.data);
	free(append.data);
	if (rc) {
		fprintf(stderr, "\nERROR: %s\n", err.msg);
		ks_config_free(cfg);
		return 1;
	}
	/* a description that makes no jobs is most likely cut short or not
	 * one at all: refused, as HTCondor refuses it, before any schedd is
	 * asked for a cluster */
	if (!sf.nqueues) {
		fprintf(stderr, "\nERROR: \"%s\" doesn't contain any \"queue\" "
				"commands -- no jobs queued\n", fname);
		sub_file_free(&sf);
		ks_config_free(cfg);
		return 1;
	}
	if (!terse && !sub_file_has_jobs(&sf))
		fprintf(stderr, "\nWARNING: \"%s\" has only empty \"queue\" "
				"commands -- no jobs queued\n", fname);
	int status;
	if (!dry) {
		status = sub_send(cfg, &sf, cwd, user, now, name, pool, terse,
				  verbose, file == NULL || strcmp(file, "-") == 0);
		sub_file_free(&sf);
		ks_config_free(cfg);
		return status;
	}
	FILE *out = strcmp(dry, "-") ? fopen(dry, "w") : stdout;
	if (!out) {
		fprintf(stderr, "ERROR: cannot write %s: %s\n", dry,
			strerror(errno));
		sub_file_free(&sf);
		ks_config_free(cfg);
		return 1;
	}
	if (!terse)
		printf("Dry-Run job(s).\n");
	struct dry d = {out, NULL, false};
	long njobs = 0;
	status = sub_factory(cfg, &sf, cwd, user, &d.factory, &err) ||
				 sub_each_job(cfg, &sf, 1, cwd, user, now,
					      print_job, &d, &njobs, &err)
			 ? 1
			 : 0;
	if (status)
		fprintf(stderr, "\nERROR: %s\n", err.msg);
	else if (terse)
		printf("1.0 - 1.%ld\n", njobs ? njobs - 1 : 0);
	else
		printf("%ld job(s) dry-run to cluster 1.\n", njobs);
	classad_free(d.first);
	if (out != stdout)
		fclose(out);
	sub_file_free(&sf);
	ks_config_free(cfg);
	return status;
}
