/*
 * fuzz_submit.c: a libFuzzer target for condor_submit's reading of a
 * submit description (tools/condor_submit/parse.c) and the job ads made
 * from it, as condor_submit makes them for -dry-run and for a schedd alike
 * (each.c, job.c, base.c, transfer.c and the rest): the input is the
 * description, its first line doubling as the command line's -append
 * lines.  Item files and "matching" patterns are looked for in a
 * directory that does not exist; "from -" is refused.
 * Checks: a description that reads makes its jobs in order, each a whole
 * job ad (MyType, QDate, Owner, Requirements, ProcId counting up), or
 * stops with an error that says something.  Nothing may crash, leak or
 * read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "submit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A huge "queue N" is cut short: the point is the reading. */
#define MAX_JOBS 64

struct seen {
	long jobs;
};

static int check_job(void *arg, classad *ad, struct ks_err *err)
{
	struct seen *s = arg;
	int64_t proc = -1;
	if (!classad_eval_int(ad, "ProcId", NULL, &proc) || proc != s->jobs ||
	    !classad_lookup(ad, "MyType") || !classad_lookup(ad, "QDate") ||
	    !classad_lookup(ad, "Owner") || !classad_lookup(ad, "Requirements"))
		abort();
	classad_free(ad);
	if (++s->jobs >= MAX_JOBS)
		return ks_err_set(err, KS_ECANCELED, 0, 0, 0, "enough jobs");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0;
	const char *text = (const char *)data;
	/* the first line, when it says so, is what -append adds */
	char *append = NULL;
	if (size > 2 && text[0] == '#' && text[1] == 'a') {
		const char *nl = memchr(text, '\n', size);
		size_t n = nl ? (size_t)(nl - text) : size;
		append = malloc(n - 1);
		memcpy(append, text + 2, n - 2);
		append[n - 2] = '\0';
	}
	/* (no standard input read for items) */
	struct sub_cmdline cl = {NULL, append, false};
	struct sub_file f;
	struct ks_err err;
	int rc = sub_file_read(text, size, "fuzz.sub", "fuzz.sub",
			       "/nonexistent-fuzz-dir", NULL, 1700000000, &cl,
			       &f, &err);
	free(append);
	if (rc != 0) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	struct seen s = {0};
	long njobs = 0;
	struct ks_err e = {0};
	rc = sub_each_job(NULL, &f, 1, "/", "fuzz", 1700000000, check_job, &s,
			  &njobs, &e);
	/* (a job fn refused is handed over but not counted) */
	if ((rc != 0 && !e.msg[0]) ||
	    njobs + (rc == KS_ECANCELED) != s.jobs)
		abort();
	sub_file_free(&f);
	return 0;
}
