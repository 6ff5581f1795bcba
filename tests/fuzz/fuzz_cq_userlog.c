/*
 * fuzz_cq_userlog.c: a libFuzzer target for condor_q -userlog's reading
 * of a job event log into job ads (tools/qtool/qt_userlog.c): any bytes
 * as the log.  Every ad handed out has a ClusterId and a ProcId, comes in
 * job id order, has a JobStatus HTCondor knows, and its old-syntax text
 * parses back to as many attributes; nothing may crash, leak or read out
 * of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#define _GNU_SOURCE /* fmemopen() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qtool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	int64_t cluster, proc;
	size_t n;
};

static int check(classad *ad, void *arg)
{
	struct seen *s = arg;
	int64_t c, p, st;
	if (!classad_eval_int(ad, "ClusterId", NULL, &c) ||
	    !classad_eval_int(ad, "ProcId", NULL, &p) ||
	    !classad_eval_int(ad, "JobStatus", NULL, &st))
		abort();
	if (st < 1 || st > 7 || st == 6)
		abort();
	/* ids in order (the subproc may repeat a cluster and proc) */
	if (s->n && (c < s->cluster || (c == s->cluster && p < s->proc)))
		abort();
	s->cluster = c;
	s->proc = p;
	s->n++;
	char *text = classad_unparse(ad, CLASSAD_FMT_OLD);
	classad *back = classad_parse(text, strlen(text), CLASSAD_FMT_OLD, NULL,
				      NULL);
	/* a string with a newline does not survive the old syntax: the
	 * new one must then */
	if (!back || classad_size(back) != classad_size(ad)) {
		classad_free(back);
		free(text);
		text = classad_unparse(ad, CLASSAD_FMT_NEW);
		back = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				     NULL);
		if (!back || classad_size(back) != classad_size(ad))
			abort();
	}
	classad_free(back);
	free(text);
	classad_free(ad);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	FILE *err = fopen("/dev/null", "w");
	if (!f || !err)
		abort();
	struct seen s = {0};
	qt_userlog_each(f, "fuzz.log", check, &s, err);
	fclose(f);
	fclose(err);
	return 0;
}
