/* updstats.c: per-daemon update statistics (updstats.h). */
#include "updstats.h"

#include <stdlib.h>
#include <string.h>

#include "ks_mem.h"

/* The history is a ring of bits in 32-bit words.  HTCondor wraps its ring
 * one bit before the end of the last word (so a 128-update history turns
 * over after 127 bits), and reads back history_size bits from the newest;
 * the same here, so that UpdatesHistory reads the same. */
struct cs_updstats {
	int64_t total, sequenced, lost;
	int size;   /* updates remembered */
	int words;
	int maxbit; /* the ring wraps when the next bit reaches this */
	int bitnum; /* where the next update goes */
	uint32_t bits[];
};

struct cs_updstats *cs_updstats_new(int history_size)
{
	if (history_size < 0)
		history_size = 0;
	int words = (history_size + 31) / 32;
	struct cs_updstats *s =
		ks_xcalloc(1, sizeof(*s) + (size_t)words * sizeof(uint32_t));
	s->size = history_size;
	s->words = words;
	s->maxbit = words ? 32 * words - 1 : 0;
	return s;
}

static void push_bits(struct cs_updstats *s, int lost, int count)
{
	if (!s->words)
		return;
	for (int i = 0; i < count; i++) {
		uint32_t mask = 1u << (s->bitnum % 32);
		if (lost)
			s->bits[s->bitnum / 32] |= mask;
		else
			s->bits[s->bitnum / 32] &= ~mask;
		if (++s->bitnum >= s->maxbit)
			s->bitnum = 0;
	}
}

void cs_updstats_record(struct cs_updstats *s, const classad *old,
			const classad *ad)
{
	int64_t new_seq, old_seq, new_start, old_start;
	int64_t dropped = 0;
	int sequenced = 0;
	if (old && classad_eval_int(ad, "UpdateSequenceNumber", NULL, &new_seq) &&
	    classad_eval_int(old, "UpdateSequenceNumber", NULL, &old_seq) &&
	    classad_eval_int(ad, "DaemonStartTime", NULL, &new_start) &&
	    classad_eval_int(old, "DaemonStartTime", NULL, &old_start)) {
		sequenced = 1;
		int64_t expected = old_seq + 1;
		/* a restarted daemon counts again from its start */
		if (new_start == old_start && new_seq != expected)
			dropped = new_seq < expected ? 1 : new_seq - expected;
	}
	s->total++;
	s->sequenced += dropped + sequenced;
	s->lost += dropped;
	if (dropped >= s->maxbit && s->words) {
		/* a gap longer than the ring fills it with lost updates (and
		 * moves on as far as pushing each would) */
		for (int b = 0; b < s->maxbit; b++)
			s->bits[b / 32] |= 1u << (b % 32);
		s->bitnum = (int)((s->bitnum + dropped) % s->maxbit);
	} else if (dropped) {
		push_bits(s, 1, (int)dropped);
	}
	push_bits(s, 0, 1);
}

static char *history_text(const struct cs_updstats *s)
{
	char *out = ks_xmalloc((size_t)s->size / 4 + 2);
	size_t n = 0;
	if (!s->words) {
		out[0] = '\0';
		return out;
	}
	int at = s->bitnum - 1;
	if (at < 0)
		at = s->maxbit;
	unsigned digit = 0, used = 0;
	for (int i = 0; i < s->size; i++) {
		if (s->bits[at / 32] & (1u << (at % 32)))
			digit |= 0x8u >> used;
		if (--at < 0)
			at = 32 * s->words - 1;
		if (++used == 4) {
			out[n++] = "0123456789abcdef"[digit];
			digit = used = 0;
		}
	}
	if (used)
		out[n++] = "0123456789abcdef"[digit];
	out[n] = '\0';
	return out;
}

void cs_updstats_publish(const struct cs_updstats *s, classad *ad)
{
	classad_insert_int(ad, "UpdatesTotal", s->total);
	classad_insert_int(ad, "UpdatesSequenced", s->sequenced);
	classad_insert_int(ad, "UpdatesLost", s->lost);
	char *h = history_text(s);
	classad_insert_string(ad, "UpdatesHistory", h);
	free(h);
}
