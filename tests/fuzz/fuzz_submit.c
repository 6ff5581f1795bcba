/*
 * fuzz_submit.c: a libFuzzer target for condor_submit's reading of a
 * submit description (tools/condor_submit/parse.c) and the job ads made
 * from it (job.c): the input is the description.  Item files and
 * "matching" patterns are looked for in a directory that does not exist.
 * Checks: a description that reads makes, for every job, an ad or an
 * error (never both, never neither), and the job numbers count up.
 * Nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "submit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0;
	struct sub_file f;
	struct ks_err err;
	if (sub_file_parse((const char *)data, size, "fuzz.sub",
			   "/nonexistent-fuzz-dir", &f, &err) != 0)
		return 0;
	long proc = 0;
	for (size_t qi = 0; qi < f.nqueues; qi++) {
		const struct sub_queue *q = &f.queues[qi];
		size_t items = q->nrows ? q->nrows : 1;
		/* a huge "queue N" is cut short: the point is the reading */
		for (size_t r = 0; r < items && r < 64; r++)
			for (long step = 0; step < q->count && step < 4; step++) {
				struct sub_job_ctx c = {
					.file = &f, .queue = q, .row = r,
					.cluster = 1, .proc = proc++, .step = step,
					.item_index = (long)r, .iwd = "/",
					.user = "fuzz"};
				struct ks_err e = {0};
				classad *ad = sub_job_ad(&c, &e);
				if (!ad && !e.msg[0])
					abort();
				classad_free(ad);
			}
	}
	sub_file_free(&f);
	return 0;
}
