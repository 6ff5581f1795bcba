/*
 * fuzz_ulogread.c: a libFuzzer target for the job event log reader
 * (common/ulogread): any bytes, fed whole and then in pieces whose sizes
 * come from the input, must give the same events, each ending in its
 * "..." line, and nothing may crash, leak or read out of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ulogread.h"

/* A digest of what a reading produced, to compare two readings. */
struct tally {
	uint64_t sum;
	size_t events, errors, bytes;
};

static void drain(ks_ulogread *r, struct tally *t)
{
	struct ks_ulogread_event ev;
	struct ks_err err = {0};
	int rc;
	while ((rc = ks_ulogread_next(r, &ev, &err)) != 0) {
		if (rc < 0) {
			t->errors++;
			continue;
		}
		if (ev.text_len < 4 ||
		    memcmp(ev.text + ev.text_len - 1, "\n", 1) != 0)
			abort();
		t->events++;
		t->bytes += ev.text_len + strlen(ev.what) + strlen(ev.date);
		t->sum = t->sum * 31 + (uint64_t)(unsigned)ev.type * 7 +
			 (uint64_t)(unsigned)ev.cluster * 3 +
			 (uint64_t)(unsigned)ev.proc +
			 (uint64_t)(unsigned)ev.subproc + (uint64_t)ev.line;
		(void)ks_ulogread_execute_host(&ev);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tally whole = {0}, pieces = {0};
	struct ks_err err = {0};

	ks_ulogread *r = ks_ulogread_new();
	if (ks_ulogread_feed(r, text, size, &err) == 0)
		drain(r, &whole);
	ks_ulogread_free(r);

	r = ks_ulogread_new();
	size_t step = size ? (size_t)data[0] % 17 + 1 : 1;
	for (size_t off = 0; off < size; off += step) {
		size_t n = size - off < step ? size - off : step;
		if (ks_ulogread_feed(r, text + off, n, &err) != 0)
			abort(); /* inputs are far below the limit */
		drain(r, &pieces);
	}
	ks_ulogread_free(r);

	if (whole.events != pieces.events || whole.errors != pieces.errors ||
	    whole.sum != pieces.sum || whole.bytes != pieces.bytes)
		abort();
	return 0;
}
