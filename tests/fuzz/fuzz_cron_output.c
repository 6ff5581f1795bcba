/*
 * fuzz_cron_output.c: a libFuzzer target for what a startd cron job
 * writes (startd/cron_output.c: lines into named ads) and how those ads
 * are merged into slot ads (cron_publish.c).
 *
 * The input is
 *
 *   byte 0   flags: bits 0-1 pick one of four job configurations (plain;
 *            PREFIX; METRICS, the monitor aggregation; SLOTS), bit 2
 *            asks for the raw-line dump of LOG_NON_ZERO_EXIT, bit 3
 *            feeds the bytes to standard error as well, bit 4 ends the
 *            first run part-way and starts a second, bit 6 repeats the
 *            text 17 times (a flood, so that lines pass the 64 KiB limit
 *            without huge inputs);
 *   byte 1   the seed of the chunk sizes (0: the text in one write), and
 *            in its high nibble where the first run ends;
 *   the rest the job's standard output.
 *
 * The bytes go in as the pipe gives them, in pieces, so that partial
 * lines are joined; at the end of a run the unterminated last line is
 * taken and the last ad published, as when the process exits.  Then the
 * published ads are merged into four slot ads (static slots 1-3 and a
 * dynamic slot of slot 1).  The job is never started: its executable is
 * only a name, and the loop never runs.
 *
 * Checks (abort() on failure): merging never changes a slot's Name,
 * SlotID or SlotTypeId and never brings in the targeting attributes
 * SlotMergeConstraint and SlotName.  Nothing may crash, leak or read out
 * of bounds.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cron_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- fixed state, made once ---------------------------------------------- */

/* Each job's configuration, by the two low bits of the first byte.  The
 * executable is never run; it only has to be set for the job to exist. */
static const char *const job_configs[4] = {
	"STARTD_CRON_JOBLIST = hw\n"
	"STARTD_CRON_hw_EXECUTABLE = /nonexistent/fuzz\n"
	"STARTD_CRON_hw_MODE = OneShot\n",

	"STARTD_CRON_JOBLIST = hw\n"
	"STARTD_CRON_hw_EXECUTABLE = /nonexistent/fuzz\n"
	"STARTD_CRON_hw_MODE = OnDemand\n"
	"STARTD_CRON_hw_PREFIX = Fz_\n"
	"STARTD_CRON_AUTOPUBLISH = If_Changed\n",

	"STARTD_CRON_JOBLIST = mon\n"
	"STARTD_CRON_mon_EXECUTABLE = /nonexistent/fuzz\n"
	"STARTD_CRON_mon_MODE = OnDemand\n"
	"STARTD_CRON_mon_METRICS = SUM:SQUIDs, PEAK:SQUIDsMemory\n"
	"STARTD_CRON_AUTOPUBLISH = Always\n",

	"STARTD_CRON_JOBLIST = hw\n"
	"STARTD_CRON_hw_EXECUTABLE = /nonexistent/fuzz\n"
	"STARTD_CRON_hw_MODE = WaitForExit\n"
	"STARTD_CRON_hw_PERIOD = 1\n"
	"STARTD_CRON_hw_SLOTS = 1, 3\n"
	"STARTD_CRON_hw_PREFIX = test_\n",
};

/* The slot ads merged into: the slot number sd_cron_publish() takes, and
 * the ad before the merge. */
static const struct {
	int slot;
	const char *text;
} slot_texts[] = {
	{1, "Name = \"slot1@fuzz\"\nSlotID = 1\nSlotTypeId = 1\n"
	    "Memory = 512\nAssignedSQUIDs = \"SQUID0,SQUID1\"\n"},
	{2, "Name = \"slot2@fuzz\"\nSlotID = 2\nSlotTypeId = 1\n"
	    "Memory = 2048\nAssignedSQUIDs = \"SQUID1\"\n"},
	{3, "Name = \"slot3@fuzz\"\nSlotID = 3\nSlotTypeId = 2\n"
	    "Memory = 100\n"},
	{1, "Name = \"slot1_1@fuzz\"\nSlotID = 1\nSlotTypeId = 1\n"
	    "DSlotId = 1\nMemory = 128\n"},
};
#define NSLOTS (sizeof(slot_texts) / sizeof(slot_texts[0]))

static ks_config *g_cfg[4];
static classad *g_slot[NSLOTS];
static ks_log *g_log; /* D_FULLDEBUG to /dev/null: every log line is
		       * formatted, none is kept */

static ks_config *fixed_config(const char *text)
{
	ks_config *cfg = ks_config_new("STARTD", NULL);
	struct ks_err err = {0};
	if (ks_config_read_text(cfg, "fuzz", text, strlen(text), &err)) {
		fprintf(stderr, "fuzz_cron_output: fixed config: %s\n",
			err.msg);
		abort();
	}
	return cfg;
}

static void init_once(void)
{
	if (g_log)
		return;
	for (int i = 0; i < 4; i++)
		g_cfg[i] = fixed_config(job_configs[i]);
	for (size_t i = 0; i < NSLOTS; i++) {
		struct ks_err err = {0};
		g_slot[i] = classad_parse(slot_texts[i].text,
					  strlen(slot_texts[i].text),
					  CLASSAD_FMT_OLD, NULL, &err);
		if (!g_slot[i]) {
			fprintf(stderr, "fuzz_cron_output: fixed ad: %s\n",
				err.msg);
			abort();
		}
	}
	ks_config *lc = fixed_config("STARTD_LOG = /dev/null\n"
				     "STARTD_DEBUG = D_FULLDEBUG\n");
	struct ks_err err = {0};
	g_log = ks_log_open(lc, "STARTD", false, &err);
	ks_config_free(lc);
	if (!g_log) {
		fprintf(stderr, "fuzz_cron_output: log: %s\n", err.msg);
		abort();
	}
}

/* ---- one input ----------------------------------------------------------- */

struct updates {
	unsigned calls;
	unsigned asked;
};

static void on_update(void *arg, bool update_collector)
{
	struct updates *u = arg;
	u->calls++;
	u->asked += update_collector;
}

/* Writes n bytes as a pipe would hand them over: in pieces of 1 to 64
 * bytes drawn from *rng, or all at once when *rng is 0. */
static void feed(struct cron_job *j, const uint8_t *p, size_t n,
		 uint32_t *rng, bool to_stderr)
{
	while (n) {
		size_t k = n;
		if (*rng) {
			/* xorshift32: any non-zero state stays non-zero */
			*rng ^= *rng << 13;
			*rng ^= *rng >> 17;
			*rng ^= *rng << 5;
			k = 1 + *rng % 64;
			if (k > n)
				k = n;
		}
		sd_cron_out_bytes(j, (const char *)p, k);
		if (to_stderr)
			sd_cron_err_bytes(j, (const char *)p, k);
		p += k;
		n -= k;
	}
}

/* What cron_proc.c and cron.c do when the process ends: the rest of the
 * pipes, then the last ad. */
static void end_run(struct cron_job *j, bool dump)
{
	sd_cron_out_flush(j);
	sd_cron_out_end(j, dump, 4242);
}

static void fail(const char *what, const char *attr)
{
	fprintf(stderr, "\n==== fuzz_cron_output: CHECK FAILED: %s (%s)\n",
		what, attr);
	abort();
}

static void check_merged(const classad *before, const classad *after)
{
	static const char *const kept[] = {"Name", "SlotID", "SlotTypeId"};
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		const classad_expr *a = classad_lookup(before, kept[i]);
		const classad_expr *b = classad_lookup(after, kept[i]);
		if (!b || !classad_expr_same(a, b))
			fail("a merge changed a targeting attribute", kept[i]);
	}
	static const char *const never[] = {"SlotMergeConstraint",
					    "SlotName"};
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (classad_lookup(after, never[i]))
			fail("a merge brought in a targeting attribute",
			     never[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > 256 * 1024)
		return 0;
	init_once();
	unsigned flags = data[0];
	uint32_t rng = data[1];
	const uint8_t *text = data + 2;
	size_t n = size - 2;
	bool dump = flags & 0x04, err_too = flags & 0x08;
	int reps = (flags & 0x40) ? 17 : 1;

	ks_loop *loop = ks_loop_new();
	if (!loop)
		return 0;
	struct updates u = {0};
	sd_cron *c = sd_cron_new(loop, g_log, g_cfg[flags & 3], "STARTD_CRON",
				 on_update, &u);
	struct cron_job *j = c->jobs;
	if (!j)
		fail("the fixed job configuration gives no job", "");

	/* The first run ends after `cut` bytes of the text when bit 4 is set;
	 * the second run is what follows, as a restarted job writes it. */
	size_t cut = (flags & 0x10) ? n * (size_t)(data[1] >> 4) / 16 : n;
	for (int r = 0; r < reps; r++)
		feed(j, text, cut, &rng, err_too);
	end_run(j, dump);
	if (cut < n) {
		sd_cron_out_reset(j);
		for (int r = 0; r < reps; r++)
			feed(j, text + cut, n - cut, &rng, err_too);
		end_run(j, dump);
	}

	struct sd_cron_job_info info;
	if (sd_cron_job_info(c, j->p->name, &info) != 0)
		fail("the job is not found by its name", j->p->name);

	for (size_t i = 0; i < NSLOTS; i++) {
		classad *ad = classad_copy(g_slot[i]);
		sd_cron_publish(c, slot_texts[i].slot, ad);
		check_merged(g_slot[i], ad);
		char *t = classad_unparse(ad, CLASSAD_FMT_NEW);
		free(t);
		classad_free(ad);
	}

	sd_cron_free(c);
	ks_loop_free(loop);
	return 0;
}
