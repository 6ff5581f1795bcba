/*
 * fuzz_slot_layout.c: a libFuzzer target for the division of a machine
 * into slots (startd/layout.c: the NUM_SLOTS / SLOT_TYPE_<n> knobs and
 * their share syntax) and the resource attributes of each slot's ad.
 *
 * The first byte of the input picks one of four machines, built by hand
 * with fixed sizes (the inventory commands of sd_machine_detect() are
 * never run); the rest is configuration text, one knob a line, so that
 * the fuzzer spends its time in the share parser rather than in the
 * configuration language:
 *
 *   - a line that starts with a name the layout reads (SLOT_TYPE_,
 *     NUM_SLOTS, MAX_SLOT_TYPES, STARTD_RESOURCE_PREFIX, NUM_CPUS), with
 *     "use ", '#', '@' (the end of a multi-line value) or white space
 *     (a line of one) is kept as it is, so that seeds read as
 *     configuration;
 *   - any other line is mapped onto a knob: its first byte picks the knob
 *     (SLOT_TYPE_<t> most often), its second the type t (0-5: type 0 may
 *     not be set, which is worth reaching too), and the rest is the
 *     value.
 *
 * Input whose configuration would say "include" is skipped: includes
 * read files and run commands.
 *
 * The layout is built; on failure it must be KS_EINVAL or KS_ERANGE with
 * a message and no slots.  On success every slot is checked against the
 * machine (abort() on failure): numbered 1, 2, ... in order; no amount
 * negative or not finite; the slots of each pool (backfill slots have
 * their own) together take no more memory, disk or swap than the
 * machine has; a resource with ids gives each slot as many ids as its
 * amount, ids of the machine, none twice within a pool.  Then each slot's
 * attributes go into a fresh ad, whose SlotID must be the slot's.
 *
 * Linked with replay_main.c it replays a corpus without libFuzzer.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sd_layout.h"
#include "sd_machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Slot ads are made for this many slots at most: beyond it the code is
 * the same, and NUM_SLOTS may ask for 100000. */
#define MAX_ADS 256

/* ---- the machines, made once --------------------------------------------- */

#define NMACHINES 4
static struct sd_machine g_machines[NMACHINES];
static bool g_ready;

static void add_res(struct sd_machine *m, const char *name, const char *value,
		    const char *offline)
{
	struct ks_err err = {0};
	if (sd_machine_add_res(m, name, value, offline, &err)) {
		fprintf(stderr, "fuzz_slot_layout: resource %s: %s\n", name,
			err.msg);
		abort();
	}
}

static classad *fixed_ad(const char *text)
{
	struct ks_err err = {0};
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad) {
		fprintf(stderr, "fuzz_slot_layout: fixed ad: %s\n", err.msg);
		abort();
	}
	return ad;
}

/* The 4-core, 256 MiB machine of the manual's example (and of
 * tests/startd/test_layout.c), with a disk and swap of round sizes. */
static struct sd_machine small_machine(int cpus, int mem)
{
	return (struct sd_machine){.detected_cores = cpus,
				   .detected_physical = cpus,
				   .detected_cpus = cpus,
				   .cpus = cpus,
				   .detected_memory = mem,
				   .memory = mem,
				   .disk = 1000000,
				   .detected_disk = 2000000,
				   .swap = 400000};
}

static void init_once(void)
{
	if (g_ready)
		return;
	g_ready = true;
	/* 0: the manual's machine, nothing else */
	g_machines[0] = small_machine(4, 256);

	/* 1: GPUs by id, one offline, and tapes by id */
	g_machines[1] = small_machine(4, 256);
	add_res(&g_machines[1], "GPUs", "GPU-0, GPU-1, GPU-2", "GPU-1");
	add_res(&g_machines[1], "Tape", "t0 t1 t2", NULL);

	/* 2: a big machine with an inventory's GPUs (ids with properties,
	 * for constraints), counted resources and inventory attributes */
	struct sd_machine *m = &g_machines[2];
	*m = small_machine(40, 10000);
	m->detected_cores = 48;
	m->swap = 4000000;
	add_res(m, "GPUs", "GPU-aaaa1111, GPU-bbbb2222, GPU-cccc3333, "
			   "GPU-dddd4444",
		NULL);
	add_res(m, "Cogs", "16", NULL);
	add_res(m, "actuator", "8", NULL);
	struct sd_res *g = NULL;
	for (size_t j = 0; j < m->nres; j++)
		if (!strcasecmp(m->res[j].name, "GPUs"))
			g = &m->res[j];
	if (!g || g->nids != 4)
		abort();
	static const char *const props[4] = {
		"[ Capability = 7.5; DeviceName = \"T4\"; GlobalMemoryMb = "
		"15360 ]",
		"[ Capability = 8.0; DeviceName = \"A100\"; GlobalMemoryMb = "
		"40536 ]",
		"[ Capability = 8.0; DeviceName = \"A100\"; GlobalMemoryMb = "
		"40536; ECCEnabled = true ]",
		"[ Capability = 9.0; DeviceName = \"H100\"; GlobalMemoryMb = "
		"81559 ]",
	};
	g->props = calloc(4, sizeof(*g->props));
	for (int k = 0; k < 4; k++)
		g->props[k] = fixed_ad(props[k]);
	m->extra = fixed_ad("[ GPUDiscoveryArgs = \"-properties\"; "
			    "DetectedGPUs = \"GPU-aaaa1111, GPU-bbbb2222, "
			    "GPU-cccc3333, GPU-dddd4444\" ]");

	/* 3: a tiny machine with nothing to spare, and resources given as an
	 * expression and as an amount with some offline */
	m = &g_machines[3];
	*m = small_machine(1, 1);
	m->disk = 0;
	m->swap = 0;
	add_res(m, "Licenses", "2 * 3", NULL);
	add_res(m, "Seats", "10", "4");
}

/* ---- the configuration text ---------------------------------------------- */

struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static bool kept_as_is(const char *line, size_t n)
{
	static const char *const names[] = {
		"SLOT_TYPE_", "NUM_SLOTS", "MAX_SLOT_TYPES",
		"STARTD_RESOURCE_PREFIX", "NUM_CPUS", "use "};
	if (!n)
		return true;
	if (line[0] == '#' || line[0] == '@' || line[0] == ' ' ||
	    line[0] == '\t')
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t k = strlen(names[i]);
		if (n >= k && !strncasecmp(line, names[i], k))
			return true;
	}
	return false;
}

/* The knob a mapped line sets, by its first byte; %d is the slot type.
 * SLOT_TYPE_<t> is there twice: the share parser is the point. */
static const char *const knobs[8] = {
	"SLOT_TYPE_%d = ",
	"NUM_SLOTS_TYPE_%d = ",
	"SLOT_TYPE_%d_PARTITIONABLE = ",
	"NUM_SLOTS = ",
	"SLOT_TYPE_%d_BACKFILL = ",
	"SLOT_TYPE_%d_NAME_PREFIX = ",
	"SLOT_TYPE_%d = ",
	"STARTD_RESOURCE_PREFIX = ",
};

static void add_line(struct text *t, const char *line, size_t n)
{
	if (kept_as_is(line, n)) {
		put(t, line, n);
	} else {
		unsigned char k = (unsigned char)line[0];
		int type = n > 1 ? (unsigned char)line[1] % 6 : 1;
		char head[64];
		int h = snprintf(head, sizeof(head), knobs[k % 8], type);
		put(t, head, (size_t)h);
		if (n > 2)
			put(t, line + 2, n - 2);
	}
	put(t, "\n", 1);
}

/* The input after its first byte as configuration, or NULL if it must be
 * skipped.  A new string. */
static char *config_text(const uint8_t *data, size_t size)
{
	struct text t = {0};
	put(&t, "", 0);
	const char *s = (const char *)data, *end = s + size;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		add_line(&t, s, n);
		s += n + (nl ? 1 : 0);
	}
	/* a NUL ends the text the reader sees; includes must not be seen */
	for (const char *p = t.s; *p; p++)
		if (!strncasecmp(p, "include", 7)) {
			free(t.s);
			return NULL;
		}
	return t.s;
}

/* ---- checks -------------------------------------------------------------- */

static void fail(const char *what, const struct sd_slot_spec *s,
		 const char *text)
{
	fprintf(stderr, "\n==== fuzz_slot_layout: CHECK FAILED: %s\n", what);
	if (s)
		fprintf(stderr, "slot %d (%s): %s\n", s->id, s->name, s->desc);
	fprintf(stderr, "configuration:\n%s\n", text);
	abort();
}

static void check_ids(const struct sd_machine *m,
		      const struct sd_slot_spec *slots, size_t n,
		      const char *text)
{
	for (size_t j = 0; j < m->nres; j++) {
		const struct sd_res *r = &m->res[j];
		if (!r->nids)
			continue;
		/* per pool: [0] main, [1] backfill */
		bool *taken = calloc(2 * r->nids, sizeof(*taken));
		for (size_t i = 0; i < n; i++) {
			const struct sd_slot_spec *s = &slots[i];
			const struct sd_slot_res *sr = &s->res[j];
			if (strcmp(sr->name, r->name))
				fail("a slot's resources are not in the "
				     "machine's order",
				     s, text);
			if (sr->nids != (size_t)(int)sr->amount)
				fail("a slot has not as many ids as its "
				     "amount",
				     s, text);
			for (size_t k = 0; k < sr->nids; k++) {
				const char *id = sr->ids[k];
				size_t x = 0;
				while (x < r->nids && strcmp(r->ids[x], id))
					x++;
				if (x == r->nids)
					fail("a slot got an id the machine has "
					     "not",
					     s, text);
				size_t pool = s->backfill ? r->nids : 0;
				bool *t = &taken[pool + x];
				if (*t)
					fail("an id went to two slots of a "
					     "pool",
					     s, text);
				*t = true;
			}
		}
		free(taken);
	}
}

static void check_layout(const struct sd_machine *m,
			 const struct sd_slot_spec *slots, size_t n,
			 const char *text)
{
	int64_t mem[2] = {0}, disk[2] = {0}, swap[2] = {0};
	for (size_t i = 0; i < n; i++) {
		const struct sd_slot_spec *s = &slots[i];
		if (s->id != (int)i + 1)
			fail("slots are not numbered 1, 2, ...", s, text);
		if (!isfinite(s->cpus) || s->cpus < 0 || s->memory < 0 ||
		    s->disk < 0 || s->swap < 0 || s->total_disk < 0 ||
		    !isfinite(s->disk_share) || s->disk_share < 0)
			fail("a slot has a negative or infinite amount", s,
			     text);
		if (s->nres != m->nres)
			fail("a slot has not one share per machine resource",
			     s, text);
		for (size_t j = 0; j < s->nres; j++)
			if (!isfinite(s->res[j].amount) || s->res[j].amount < 0)
				fail("a slot has a negative or infinite "
				     "custom resource",
				     s, text);
		int p = s->backfill;
		mem[p] += s->memory;
		disk[p] += s->disk;
		swap[p] += s->swap;
		if (mem[p] > m->memory || disk[p] > m->disk ||
		    swap[p] > m->swap)
			fail("the slots of a pool take more memory, disk or "
			     "swap than the machine has",
			     s, text);
		if (!sd_layout_describe(s))
			fail("no description", s, text);
	}
	check_ids(m, slots, n, text);
}

/* ---- entry point --------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 16 * 1024)
		return 0;
	init_once();
	const struct sd_machine *m = &g_machines[data[0] % NMACHINES];
	char *text = config_text(data + 1, size - 1);
	if (!text)
		return 0;
	ks_config *cfg = ks_config_new("STARTD", NULL);
	struct ks_err err;
	ks_config_read_text(cfg, "fuzz", text, strlen(text), &err);

	/* Filled with something else first: a failure must reset them. */
	struct sd_slot_spec sentinel;
	struct sd_slot_spec *slots = &sentinel;
	size_t n = 99;
	int rc = sd_layout_build(cfg, m, &slots, &n, &err);
	if (rc) {
		if (rc != KS_EINVAL && rc != KS_ERANGE)
			fail("the layout failed with an unexpected code", NULL,
			     text);
		if (slots || n)
			fail("a failed layout returned slots", NULL, text);
		if (!err.msg[0] || err.code != rc)
			fail("a failed layout says nothing", NULL, text);
	} else {
		if (!slots != !n)
			fail("a layout's slot count and array disagree", NULL,
			     text);
		check_layout(m, slots, n, text);
		for (size_t i = 0; i < n && i < MAX_ADS; i++) {
			classad *ad = classad_new();
			sd_layout_slot_attrs(m, &slots[i], ad);
			int64_t id = -1;
			if (!classad_eval_int(ad, "SlotID", NULL, &id) ||
			    id != slots[i].id)
				fail("a slot ad's SlotID is not the slot's",
				     &slots[i], text);
			char *t = classad_unparse(ad, CLASSAD_FMT_NEW);
			free(t);
			classad_free(ad);
		}
	}
	sd_layout_free(slots, n);
	ks_config_free(cfg);
	free(text);
	return 0;
}
