/* test_layout.c: the machine's resources and their division into slots
 * (startd/sd_machine.h, startd/sd_layout.h), with machines of pinned sizes:
 * the default partitionable slot, NUM_SLOTS, slot types in every form the
 * manual gives, auto shares, custom resources with counts and ids, a GPU
 * inventory command, and each way a layout can be impossible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "ks_mem.h"
#include "sd_layout.h"
#include "sd_machine.h"

#define GPU_SCRIPT LAYOUT_TEST_DIR "/layout_gpus.sh"

/* ---- helpers ------------------------------------------------------------- */

static ks_config *conf(const char *text)
{
	ks_config *cfg = ks_config_new("STARTD", NULL);
	struct ks_err err = {0};
	int rc = ks_config_read_text(cfg, "test", text, strlen(text), &err);
	if (rc)
		fail_msg("config: %s", err.msg);
	return cfg;
}

/* The 4-core, 256 MiB machine of the manual's example, with a disk and
 * swap of round sizes. */
static struct sd_machine machine(int cpus, int mem)
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

struct layout {
	struct sd_slot_spec *s;
	size_t n;
	int rc;
	struct ks_err err;
};

static struct layout build(const struct sd_machine *m, const char *text)
{
	struct layout l = {0};
	ks_config *cfg = conf(text);
	l.rc = sd_layout_build(cfg, m, &l.s, &l.n, &l.err);
	ks_config_free(cfg);
	return l;
}

static struct layout build_ok(const struct sd_machine *m, const char *text)
{
	struct layout l = build(m, text);
	if (l.rc)
		fail_msg("layout of [%s]: %s", text, l.err.msg);
	return l;
}

/* The layout must fail with code and a message holding each of the
 * given phrases. */
static void build_fails(const struct sd_machine *m, const char *text,
			int code, ...)
{
	struct layout l = build(m, text);
	if (!l.rc)
		fail_msg("layout of [%s] should fail", text);
	assert_int_equal(l.rc, code);
	assert_null(l.s);
	assert_int_equal(l.n, 0);
	va_list ap;
	va_start(ap, code);
	for (const char *p; (p = va_arg(ap, const char *));)
		if (!strstr(l.err.msg, p))
			fail_msg("message \"%s\" lacks \"%s\"", l.err.msg, p);
	va_end(ap);
}

static void drop(struct layout *l)
{
	sd_layout_free(l->s, l->n);
}

static void expect_slot(const struct sd_slot_spec *s, int id, int type,
			bool pslot, double cpus, int mem, int64_t disk,
			int64_t swap)
{
	assert_int_equal(s->id, id);
	assert_int_equal(s->type, type);
	assert_int_equal(s->partitionable, pslot);
	if (s->cpus < cpus - 1e-9 || s->cpus > cpus + 1e-9)
		fail_msg("slot%d: cpus %g, expected %g", id, s->cpus, cpus);
	assert_int_equal(s->memory, mem);
	assert_int_equal(s->disk, disk);
	assert_int_equal(s->swap, swap);
}

static const struct sd_slot_res *slot_res(const struct sd_slot_spec *s,
					  const char *name)
{
	for (size_t j = 0; j < s->nres; j++)
		if (!strcasecmp(s->res[j].name, name))
			return &s->res[j];
	fail_msg("slot%d has no resource %s", s->id, name);
	return NULL;
}

/* The first id of resource name given to slot s. */
static const char *first_id(const struct sd_slot_spec *s, const char *name)
{
	const struct sd_slot_res *r = slot_res(s, name);
	if (!r->nids)
		fail_msg("slot%d has no %s id", s->id, name);
	return r->ids[0];
}

static classad *slot_ad(const struct sd_machine *m,
			const struct sd_slot_spec *s)
{
	classad *ad = classad_new();
	sd_layout_slot_attrs(m, s, ad);
	return ad;
}

static int64_t ad_int(const classad *ad, const char *name)
{
	const classad_expr *e = classad_lookup(ad, name);
	if (!e)
		fail_msg("no %s in the ad", name);
	classad_value v = CLASSAD_VALUE_INIT;
	assert_true(classad_expr_is_literal(e, &v));
	if (v.type != CLASSAD_INTEGER)
		fail_msg("%s is a %s, not an integer", name,
			 classad_type_name(v.type));
	return v.u.i;
}

static double ad_real(const classad *ad, const char *name)
{
	const classad_expr *e = classad_lookup(ad, name);
	if (!e)
		fail_msg("no %s in the ad", name);
	classad_value v = CLASSAD_VALUE_INIT;
	assert_true(classad_expr_is_literal(e, &v));
	if (v.type != CLASSAD_REAL)
		fail_msg("%s is a %s, not a real", name,
			 classad_type_name(v.type));
	return v.u.r;
}

static void expect_str(const classad *ad, const char *name, const char *want)
{
	char *s = NULL;
	if (!classad_eval_string(ad, name, NULL, &s))
		fail_msg("no string %s in the ad", name);
	if (strcmp(s, want))
		fail_msg("%s = \"%s\", expected \"%s\"", name, s, want);
	free(s);
}

static struct sd_machine detect(const char *text)
{
	struct sd_machine m;
	struct ks_err err = {0};
	ks_config *cfg = conf(text);
	int rc = sd_machine_detect(cfg, &m, &err);
	ks_config_free(cfg);
	if (rc)
		fail_msg("detect: %s", err.msg);
	return m;
}

/* A directory holding a condor_gpu_discovery that runs layout_gpus.sh, for
 * LIBEXEC; removed by rm_libexec(). */
static char *fake_libexec(void)
{
	char tmpl[] = "/tmp/test_layout.XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	char path[256];
	snprintf(path, sizeof(path), "%s/condor_gpu_discovery", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nexec /bin/sh %s \"$@\"\n", GPU_SCRIPT);
	fclose(f);
	chmod(path, 0755);
	return ks_xstrdup(dir);
}

static void rm_libexec(char *dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/condor_gpu_discovery", dir);
	unlink(path);
	rmdir(dir);
	free(dir);
}

/* ---- the default, NUM_SLOTS, static slots -------------------------------- */

static void test_default_pslot(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	struct layout l = build_ok(&m, "");
	assert_int_equal(l.n, 1);
	expect_slot(&l.s[0], 1, 0, true, 4, 256, 1000000, 400000);
	assert_string_equal(l.s[0].name, "slot1");
	assert_int_equal(l.s[0].total_disk, 1000000);
	assert_non_null(strstr(sd_layout_describe(&l.s[0]), "Cpus: 4"));

	classad *ad = slot_ad(&m, &l.s[0]);
	assert_int_equal(ad_int(ad, "Cpus"), 4);
	assert_int_equal(ad_int(ad, "TotalSlotCpus"), 4);
	assert_true(ad_real(ad, "TotalCpus") == 4.0);
	assert_int_equal(ad_int(ad, "Memory"), 256);
	assert_int_equal(ad_int(ad, "TotalSlotMemory"), 256);
	assert_int_equal(ad_int(ad, "TotalMemory"), 256);
	assert_int_equal(ad_int(ad, "Disk"), 1000000);
	assert_true(ad_real(ad, "TotalSlotDisk") == 1000000.0);
	assert_int_equal(ad_int(ad, "TotalDisk"), 1000000);
	assert_int_equal(ad_int(ad, "DetectedDisk"), 2000000);
	assert_int_equal(ad_int(ad, "VirtualMemory"), 400000);
	assert_int_equal(ad_int(ad, "TotalVirtualMemory"), 400000);
	assert_int_equal(ad_int(ad, "DetectedCpus"), 4);
	assert_int_equal(ad_int(ad, "DetectedMemory"), 256);
	assert_int_equal(ad_int(ad, "SlotID"), 1);
	assert_int_equal(ad_int(ad, "SlotTypeID"), 0);
	expect_str(ad, "SlotType", "Partitionable");
	bool b = false;
	assert_true(classad_eval_bool(ad, "PartitionableSlot", NULL, &b));
	assert_true(b);
	expect_str(ad, "MachineResources", "Cpus Memory Disk Swap");
	classad_free(ad);
	drop(&l);
}

static void test_num_slots(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	struct layout l = build_ok(&m, "NUM_SLOTS = 4");
	assert_int_equal(l.n, 4);
	for (int i = 0; i < 4; i++) {
		expect_slot(&l.s[i], i + 1, 0, true, 1, 64, 250000, 100000);
		char name[16];
		snprintf(name, sizeof(name), "slot%d", i + 1);
		assert_string_equal(l.s[i].name, name);
		assert_int_equal(l.s[i].total_disk, 1000000);
		assert_true(l.s[i].disk_share == 0.25);
	}
	drop(&l);

	/* shares need not be whole CPUs; the ad shows whole ones */
	l = build_ok(&m, "NUM_SLOTS = 3");
	assert_int_equal(l.n, 3);
	expect_slot(&l.s[2], 3, 0, true, 4.0 / 3, 85, 333333, 133333);
	classad *ad = slot_ad(&m, &l.s[2]);
	assert_int_equal(ad_int(ad, "Cpus"), 1);
	classad_free(ad);
	drop(&l);

	/* NUM_SLOTS = 0: no slot at all */
	l = build_ok(&m, "NUM_SLOTS = 0");
	assert_int_equal(l.n, 0);
	assert_null(l.s);

	/* NUM_SLOTS is ignored once a slot type has slots */
	l = build_ok(&m, "NUM_SLOTS = 3\nNUM_SLOTS_TYPE_2 = 2");
	assert_int_equal(l.n, 2);
	expect_slot(&l.s[0], 1, 2, false, 2, 128, 500000, 200000);
	drop(&l);
}

static void test_static_slots(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	/* the template's count is NUM_CPUS, which this unloaded
	 * configuration must be told */
	struct layout l = build_ok(&m, "NUM_CPUS = 4\n"
				       "use FEATURE : StaticSlots");
	assert_int_equal(l.n, 4);
	for (int i = 0; i < 4; i++)
		expect_slot(&l.s[i], i + 1, 1, false, 1, 64, 250000, 100000);
	classad *ad = slot_ad(&m, &l.s[3]);
	expect_str(ad, "SlotType", "Static");
	assert_null(classad_lookup(ad, "PartitionableSlot"));
	classad_free(ad);
	drop(&l);

	/* type 0 not partitionable: NUM_SLOTS defaults to the CPUs */
	l = build_ok(&m, "SLOT_TYPE_0_PARTITIONABLE = false");
	assert_int_equal(l.n, 4);
	expect_slot(&l.s[1], 2, 0, false, 1, 64, 250000, 100000);
	drop(&l);

	/* and the manual's way to one partitionable slot */
	l = build_ok(&m, "NUM_SLOTS = 1\nNUM_SLOTS_TYPE_1 = 1\n"
			 "SLOT_TYPE_1 = 100%\n"
			 "SLOT_TYPE_1_PARTITIONABLE = TRUE");
	assert_int_equal(l.n, 1);
	expect_slot(&l.s[0], 1, 1, true, 4, 256, 1000000, 400000);
	drop(&l);

	l = build_ok(&m, "use FEATURE : PartitionableSlot(2, 50%)");
	assert_int_equal(l.n, 1);
	expect_slot(&l.s[0], 1, 2, true, 2, 128, 500000, 200000);
	assert_int_equal(l.s[0].total_disk, 500000);
	drop(&l);
}

/* ---- slot type descriptions ---------------------------------------------- */

/* One slot of a type described by desc. */
static struct sd_slot_spec one(const struct sd_machine *m, const char *desc)
{
	char text[512];
	snprintf(text, sizeof(text), "SLOT_TYPE_1 = %s\nNUM_SLOTS_TYPE_1 = 1\n",
		 desc);
	struct layout l = build_ok(m, text);
	assert_int_equal(l.n, 1);
	struct sd_slot_spec s = l.s[0];
	free(l.s);
	return s;
}

static void expect_same(const struct sd_machine *m, const char *a,
			const char *b)
{
	struct sd_slot_spec x = one(m, a), y = one(m, b);
	if (x.cpus != y.cpus || x.memory != y.memory || x.disk != y.disk ||
	    x.swap != y.swap)
		fail_msg("[%s] gives %s; [%s] gives %s", a, x.desc, b, y.desc);
	sd_slot_spec_clear(&x);
	sd_slot_spec_clear(&y);
}

static void test_seed_types(void **state)
{
	(void)state;
	/* the manual: on a machine with 4 cores and 256 MiB, types 1-3 are
	 * all equivalent to each other, as are types 4-6 */
	struct sd_machine m = machine(4, 256);
	struct sd_slot_spec s = one(&m, "cpus=2, ram=128, swap=25%, disk=1/2");
	expect_slot(&s, 1, 1, false, 2, 128, 500000, 100000);
	sd_slot_spec_clear(&s);
	expect_same(&m, "cpus=2, ram=128, swap=25%, disk=1/2",
		    "cpus=1/2, memory=128, virt=25%, disk=50%");
	expect_same(&m, "cpus=2, ram=128, swap=25%, disk=1/2",
		    "c=1/2, m=50%, v=1/4, disk=1/2");
	s = one(&m, "c=25%, m=64, v=1/4, d=25%");
	expect_slot(&s, 1, 1, false, 1, 64, 250000, 100000);
	sd_slot_spec_clear(&s);
	expect_same(&m, "c=25%, m=64, v=1/4, d=25%", "25%");
	expect_same(&m, "c=25%, m=64, v=1/4, d=25%", "1/4");

	/* "in a machine with 128 Mbytes of RAM, all the following
	 * definitions result in the same allocation amount" */
	struct sd_machine m128 = machine(4, 128);
	s = one(&m128, "mem=64");
	assert_int_equal(s.memory, 64);
	sd_slot_spec_clear(&s);
	expect_same(&m128, "mem=64, 1/2", "mem=1/2, 1/2");
	expect_same(&m128, "mem=64, 1/2", "mem=50%, 1/2");
	s = one(&m128, "mem=auto");
	assert_int_equal(s.memory, 128); /* the only slot: all of it */
	sd_slot_spec_clear(&s);

	/* disk auto, one core, everything else 50%, two ways */
	expect_same(&m, "cpus=1, ram=1/2, swap=50%", "cpus=1, disk=auto, 50%");
	s = one(&m, "cpus=1, disk=auto, 50%");
	expect_slot(&s, 1, 1, false, 1, 128, 1000000, 200000);
	sd_slot_spec_clear(&s);

	/* names: any leading part, any case */
	expect_same(&m, "CPUS=2, RAM=100, SWAP=1000, DISK=2000",
		    "Cp=2, Mem=100, VirtualMemory=1000, Di=2000");
	/* blanks separate when there are no commas; lines in a multi-line
	 * value */
	expect_same(&m, "cpus=2, ram=128", "cpus=2 ram=128");
	struct layout l = build_ok(&m, "SLOT_TYPE_1 @=end\n"
				       "  cpus = 2\n"
				       "  memory = 128\n"
				       "@end\n"
				       "NUM_SLOTS_TYPE_1 = 1");
	expect_slot(&l.s[0], 1, 1, false, 2, 128, 1000000, 400000);
	drop(&l);
}

static void test_amount_units(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 8192);
	m.disk = 100000000;
	m.swap = 100000000;
	struct sd_slot_spec s = one(&m, "ram=2G, disk=3M, swap=1G");
	assert_int_equal(s.memory, 2048);
	assert_int_equal(s.disk, 3 * 1024);
	assert_int_equal(s.swap, 1024 * 1024);
	sd_slot_spec_clear(&s);
	s = one(&m, "ram=512, disk=2048, swap=100");
	assert_int_equal(s.memory, 512);
	assert_int_equal(s.disk, 2048);
	assert_int_equal(s.swap, 100);
	sd_slot_spec_clear(&s);
	/* the least disk an explicit share gives is 1 MiB, the least memory
	 * 1 MiB, the least CPUs one */
	s = one(&m, "cpus=0, ram=0, disk=0");
	assert_true(s.cpus == 1);
	assert_int_equal(s.memory, 1);
	assert_int_equal(s.disk, 1024);
	sd_slot_spec_clear(&s);
}

static void test_auto_division(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 1000);
	/* one slot takes 10% of the memory; the others divide the rest */
	struct layout l = build_ok(&m, "SLOT_TYPE_1 = mem=10%\n"
				       "NUM_SLOTS_TYPE_1 = 1\n"
				       "NUM_SLOTS_TYPE_2 = 3\n");
	assert_int_equal(l.n, 4);
	expect_slot(&l.s[0], 1, 1, false, 1, 100, 250000, 100000);
	for (int i = 1; i < 4; i++)
		expect_slot(&l.s[i], i + 1, 2, false, 1, 300, 250000, 100000);
	drop(&l);

	/* explicit CPUs first, auto ones share the rest */
	l = build_ok(&m, "SLOT_TYPE_1 = cpus=2, mem=400, disk=40%, swap=0\n"
			 "NUM_SLOTS_TYPE_1 = 1\n"
			 "SLOT_TYPE_2 = auto\n"
			 "NUM_SLOTS_TYPE_2 = 2\n");
	expect_slot(&l.s[0], 1, 1, false, 2, 400, 400000, 0);
	expect_slot(&l.s[1], 2, 2, false, 1, 300, 300000, 200000);
	expect_slot(&l.s[2], 3, 2, false, 1, 300, 300000, 200000);
	assert_int_equal(l.s[0].total_disk, 1000000);
	drop(&l);

	/* CPUs left are counted whole, as in HTCondor: 4 less 1.5 leaves 2 */
	l = build_ok(&m, "SLOT_TYPE_1 = cpus=1.5\nNUM_SLOTS_TYPE_1 = 1\n"
			 "NUM_SLOTS_TYPE_2 = 1\n");
	expect_slot(&l.s[1], 2, 2, false, 2, 500, 500000, 200000);
	classad *ad = slot_ad(&m, &l.s[0]);
	assert_int_equal(ad_int(ad, "Cpus"), 1);
	classad_free(ad);
	drop(&l);

	/* no auto share of disk: TotalDisk is what the slots were given */
	l = build_ok(&m, "SLOT_TYPE_1 = disk=30%\nNUM_SLOTS_TYPE_1 = 2");
	assert_int_equal(l.s[0].total_disk, 600000);
	drop(&l);
}

static void test_backfill_and_names(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	/* backfill slots divide the machine again, on their own */
	struct layout l = build_ok(&m, "NUM_SLOTS_TYPE_1 = 1\n"
				       "SLOT_TYPE_1 = 100%\n"
				       "SLOT_TYPE_1_PARTITIONABLE = true\n"
				       "NUM_SLOTS_TYPE_2 = 2\n"
				       "SLOT_TYPE_2_BACKFILL = true\n"
				       "SLOT_TYPE_2_NAME_PREFIX = bkslot\n");
	assert_int_equal(l.n, 3);
	expect_slot(&l.s[0], 1, 1, true, 4, 256, 1000000, 400000);
	expect_slot(&l.s[1], 2, 2, false, 2, 128, 500000, 200000);
	assert_true(l.s[1].backfill);
	assert_string_equal(l.s[0].name, "slot1");
	assert_string_equal(l.s[2].name, "bkslot3");
	classad *ad = slot_ad(&m, &l.s[1]);
	bool b = false;
	assert_true(classad_eval_bool(ad, "BackfillSlot", NULL, &b) && b);
	classad_free(ad);
	drop(&l);

	l = build_ok(&m, "STARTD_RESOURCE_PREFIX = vm\nNUM_SLOTS = 2");
	assert_string_equal(l.s[1].name, "vm2");
	drop(&l);
}

/* ---- custom resources ---------------------------------------------------- */

static void test_custom_counts(void **state)
{
	(void)state;
	/* the manual's example: half the Cogs, 6 actuators and half of the
	 * rest in a partitionable slot; two static slots of a quarter */
	struct sd_machine m = detect("NUM_CPUS = 4\nMEMORY = 256\n"
				     "DISK = 1000000\n"
				     "STARTD_DETECT_GPUS = false\n"
				     "MACHINE_RESOURCE_Cogs = 16\n"
				     "MACHINE_RESOURCE_actuator = 8\n");
	m.swap = 400000;
	assert_int_equal(m.nres, 2);
	/* HTCondor's order: by name, case ignored */
	assert_string_equal(m.res[0].name, "actuator");
	assert_string_equal(m.res[1].name, "Cogs");
	assert_true(sd_machine_res(&m, "cogs")->quantity == 16);
	struct layout l = build_ok(&m, "SLOT_TYPE_1 = cogs=50%,actuator=6,50%\n"
				       "SLOT_TYPE_1_PARTITIONABLE = TRUE\n"
				       "NUM_SLOTS_TYPE_1 = 1\n"
				       "SLOT_TYPE_2 = cogs=25%,actuator=1,25%\n"
				       "SLOT_TYPE_2_PARTITIONABLE = FALSE\n"
				       "NUM_SLOTS_TYPE_2 = 2\n");
	assert_int_equal(l.n, 3);
	expect_slot(&l.s[0], 1, 1, true, 2, 128, 500000, 200000);
	expect_slot(&l.s[1], 2, 2, false, 1, 64, 250000, 100000);
	assert_true(slot_res(&l.s[0], "Cogs")->amount == 8);
	assert_true(slot_res(&l.s[0], "actuator")->amount == 6);
	assert_true(slot_res(&l.s[2], "Cogs")->amount == 4);
	assert_true(slot_res(&l.s[2], "actuator")->amount == 1);
	assert_int_equal(slot_res(&l.s[0], "Cogs")->nids, 0);

	classad *ad = slot_ad(&m, &l.s[1]);
	assert_int_equal(ad_int(ad, "Cogs"), 4);
	assert_int_equal(ad_int(ad, "TotalSlotCogs"), 4);
	assert_int_equal(ad_int(ad, "TotalCogs"), 16);
	assert_int_equal(ad_int(ad, "DetectedCogs"), 16);
	assert_int_equal(ad_int(ad, "actuator"), 1);
	assert_null(classad_lookup(ad, "AssignedCogs"));
	expect_str(ad, "MachineResources",
		   "Cpus Memory Disk Swap actuator Cogs");
	classad_free(ad);
	drop(&l);

	/* auto shares of a custom resource: whole units, odd ones first */
	l = build_ok(&m, "SLOT_TYPE_1 = actuator=1\nNUM_SLOTS_TYPE_1 = 1\n"
			 "NUM_SLOTS_TYPE_2 = 3\n");
	assert_true(slot_res(&l.s[0], "actuator")->amount == 1);
	assert_true(slot_res(&l.s[1], "actuator")->amount == 3);
	assert_true(slot_res(&l.s[2], "actuator")->amount == 2);
	assert_true(slot_res(&l.s[3], "actuator")->amount == 2);
	assert_true(slot_res(&l.s[1], "Cogs")->amount == 4);
	drop(&l);

	/* none, or a share, of a resource the machine lacks is fine */
	l = build_ok(&m, "SLOT_TYPE_1 = bogus=0, widgets=50%, 1/2\n"
			 "NUM_SLOTS_TYPE_1 = 2\n");
	assert_int_equal(l.n, 2);
	drop(&l);
	sd_machine_clear(&m);
}

static void test_custom_ids(void **state)
{
	(void)state;
	struct sd_machine m = detect("NUM_CPUS = 4\nMEMORY = 256\n"
				     "DISK = 1000000\n"
				     "MACHINE_RESOURCE_GPUs = "
				     "GPU-0, GPU-1, GPU-2\n"
				     "OFFLINE_MACHINE_RESOURCE_GPUs = GPU-1\n"
				     "MACHINE_RESOURCE_Tape = t0 t1 t2\n");
	m.swap = 400000;
	const struct sd_res *g = sd_machine_res(&m, "GPUs");
	assert_non_null(g);
	assert_true(g->quantity == 2);
	assert_int_equal(g->nids, 2);
	assert_string_equal(g->ids[1], "GPU-2");
	assert_int_equal(g->noffline, 1);

	struct layout l = build_ok(&m, "NUM_SLOTS = 2");
	assert_int_equal(slot_res(&l.s[0], "GPUs")->nids, 1);
	assert_string_equal(first_id(&l.s[0], "GPUs"), "GPU-0");
	assert_string_equal(first_id(&l.s[1], "GPUs"), "GPU-2");
	/* three tapes for two slots: two, then one */
	assert_int_equal(slot_res(&l.s[0], "Tape")->nids, 2);
	assert_string_equal(first_id(&l.s[1], "Tape"), "t2");
	classad *ad = slot_ad(&m, &l.s[0]);
	expect_str(ad, "AssignedGPUs", "GPU-0");
	expect_str(ad, "AssignedTape", "t0,t1");
	expect_str(ad, "OfflineGPUs", "GPU-1");
	assert_int_equal(ad_int(ad, "GPUs"), 1);
	assert_int_equal(ad_int(ad, "DetectedGPUs"), 2);
	assert_int_equal(ad_int(ad, "TotalGPUs"), 2);
	assert_int_equal(ad_int(ad, "TotalTape"), 3);
	classad_free(ad);
	drop(&l);

	/* ids picked by a constraint: a string is an id, a number an index */
	l = build_ok(&m, "SLOT_TYPE_1 = Tape = 1 : \"t2\", 1/4\n"
			 "NUM_SLOTS_TYPE_1 = 1\n"
			 "SLOT_TYPE_2 = Tape = 1 : 0, 1/4\n"
			 "NUM_SLOTS_TYPE_2 = 1\n"
			 "NUM_SLOTS_TYPE_3 = 1\n");
	assert_string_equal(first_id(&l.s[0], "Tape"), "t2");
	assert_string_equal(slot_res(&l.s[0], "Tape")->constraint, "\"t2\"");
	assert_string_equal(first_id(&l.s[1], "Tape"), "t0");
	assert_string_equal(first_id(&l.s[2], "Tape"), "t1");
	/* a quarter of two GPUs is half of one: no GPU, and no Assigned
	 * attribute */
	ad = slot_ad(&m, &l.s[0]);
	assert_int_equal(ad_int(ad, "GPUs"), 0);
	assert_null(classad_lookup(ad, "AssignedGPUs"));
	classad_free(ad);
	drop(&l);

	/* expressions and counts */
	struct sd_machine n = machine(4, 256);
	assert_int_equal(sd_machine_add_res(&n, "Licenses", "2 * 3", NULL,
					    NULL),
			 0);
	assert_int_equal(sd_machine_add_res(&n, "Seats", "10", "4", NULL), 0);
	assert_true(sd_machine_res(&n, "licenses")->quantity == 6);
	assert_true(sd_machine_res(&n, "Seats")->quantity == 6);
	struct ks_err err = {0};
	assert_int_equal(sd_machine_add_res(&n, "Memory", "1", NULL, &err),
			 KS_EINVAL);
	assert_non_null(strstr(err.msg, "reserved"));
	sd_machine_clear(&n);
	sd_machine_clear(&m);
}

static void test_resource_names(void **state)
{
	(void)state;
	struct sd_machine m = detect("NUM_CPUS = 2\nMEMORY = 100\nDISK = 1000\n"
				     "STARTD_DETECT_GPUS = false\n"
				     "MACHINE_RESOURCE_NAMES = Cogs\n"
				     "MACHINE_RESOURCE_Cogs = 4\n"
				     "MACHINE_RESOURCE_Bogus = 2\n");
	assert_int_equal(m.nres, 1);
	assert_string_equal(m.res[0].name, "Cogs");
	assert_int_equal(m.nwarnings, 1);
	assert_non_null(strstr(m.warnings[0], "Bogus"));
	sd_machine_clear(&m);

	ks_config *cfg = conf("NUM_CPUS = 2\nMEMORY = 100\nDISK = 1000\n"
			      "STARTD_DETECT_GPUS = false\n"
			      "MACHINE_RESOURCE_Cpus = 4\n");
	struct ks_err err = {0};
	assert_int_equal(sd_machine_detect(cfg, &m, &err), KS_EINVAL);
	assert_non_null(strstr(err.msg, "MACHINE_RESOURCE_Cpus"));
	assert_non_null(strstr(err.msg, "reserved"));
	sd_machine_clear(&m);
	ks_config_free(cfg);
}

/* ---- GPUs from an inventory command -------------------------------------- */

static void test_gpu_inventory(void **state)
{
	(void)state;
	setenv("LAYOUT_OFFLINE_GPUS", "", 1);
	struct sd_machine m = detect(
		"NUM_CPUS = 40\nMEMORY = 10000\nDISK = 1000000\n"
		"MACHINE_RESOURCE_INVENTORY_GPUs = /bin/sh " GPU_SCRIPT
		" -properties\n");
	m.swap = 400000;
	const struct sd_res *g = sd_machine_res(&m, "GPUs");
	assert_non_null(g);
	assert_true(g->quantity == 4);
	assert_int_equal(g->nids, 4);
	assert_non_null(g->props);
	double cap = 0;
	assert_true(classad_eval_real(g->props[1], "Capability", NULL, &cap));
	assert_true(cap == 8.0);
	double drv = 0;
	assert_true(classad_eval_real(g->props[3], "DriverVersion", NULL,
				      &drv));
	assert_non_null(m.extra);

	/* the manual's example: the two capable GPUs in a partitionable slot
	 * with 90% of the rest, one GPU by id in a small static slot, and two
	 * static slots sharing what is left */
	struct layout l = build_ok(&m, "SLOT_TYPE_1 @=slot\n"
				       "  GPUs = 2 : Capability >= 8.0\n"
				       "  90%\n"
				       "@slot\n"
				       "SLOT_TYPE_1_PARTITIONABLE = TRUE\n"
				       "NUM_SLOTS_TYPE_1 = 1\n"
				       "SLOT_TYPE_2 @=slot\n"
				       "  GPUs = 1 : \"GPU-dddd4444\"\n"
				       "  CPUs = 1\n"
				       "  Memory = 10\n"
				       "@slot\n"
				       "SLOT_TYPE_2_PARTITIONABLE = FALSE\n"
				       "NUM_SLOTS_TYPE_2 = 1\n"
				       "SLOT_TYPE_3 = auto\n"
				       "SLOT_TYPE_3_PARTITIONABLE = FALSE\n"
				       "NUM_SLOTS_TYPE_3 = 2\n");
	assert_int_equal(l.n, 4);
	expect_slot(&l.s[0], 1, 1, true, 36, 9000, 900000, 360000);
	expect_slot(&l.s[1], 2, 2, false, 1, 10, 33333, 13333);
	expect_slot(&l.s[2], 3, 3, false, 1.5, 495, 33333, 13333);
	const struct sd_slot_res *r = slot_res(&l.s[0], "GPUs");
	assert_int_equal(r->nids, 2);
	assert_string_equal(r->ids[0], "GPU-bbbb2222");
	assert_string_equal(r->ids[1], "GPU-cccc3333");
	assert_string_equal(first_id(&l.s[1], "GPUs"), "GPU-dddd4444");
	assert_string_equal(first_id(&l.s[2], "GPUs"), "GPU-aaaa1111");
	assert_true(slot_res(&l.s[3], "GPUs")->amount == 0);

	classad *ad = slot_ad(&m, &l.s[0]);
	expect_str(ad, "AssignedGPUs", "GPU-bbbb2222,GPU-cccc3333");
	assert_int_equal(ad_int(ad, "GPUs"), 2);
	assert_int_equal(ad_int(ad, "TotalGPUs"), 4);
	/* what both assigned GPUs share, and each one's own properties */
	expect_str(ad, "GPUs_DeviceName", "A100");
	double v = 0;
	assert_true(classad_eval_real(ad, "GPUs_Capability", NULL, &v));
	assert_true(v == 8.0);
	assert_non_null(classad_lookup(ad, "GPUs_GPU_bbbb2222"));
	/* the inventory's own attributes, DetectedGPUs among them */
	expect_str(ad, "GPUDiscoveryArgs", "-properties");
	expect_str(ad, "DetectedGPUs",
		   "GPU-aaaa1111, GPU-bbbb2222, GPU-cccc3333, GPU-dddd4444");
	assert_null(classad_lookup(ad, "Common"));
	assert_null(classad_lookup(ad, "GPU_aaaa1111"));
	classad_free(ad);
	drop(&l);
	sd_machine_clear(&m);

	/* offline GPUs named by the inventory are left out */
	setenv("LAYOUT_OFFLINE_GPUS", "GPU-aaaa1111", 1);
	m = detect("NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\n"
		   "MACHINE_RESOURCE_INVENTORY_GPUs = /bin/sh " GPU_SCRIPT
		   "\n");
	unsetenv("LAYOUT_OFFLINE_GPUS");
	g = sd_machine_res(&m, "GPUs");
	assert_true(g->quantity == 3);
	assert_string_equal(g->ids[0], "GPU-bbbb2222");
	assert_string_equal(g->offline[0], "GPU-aaaa1111");
	sd_machine_clear(&m);
}

static void test_feature_gpus(void **state)
{
	(void)state;
	char *dir = fake_libexec();
	char text[512];
	/* use FEATURE : GPUs runs $(LIBEXEC)/condor_gpu_discovery */
	snprintf(text, sizeof(text),
		 "NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\nLIBEXEC = %s\n"
		 "use FEATURE : GPUs\nGPU_DISCOVERY_EXTRA = -extra\n",
		 dir);
	struct sd_machine m = detect(text);
	const struct sd_res *g = sd_machine_res(&m, "GPUs");
	assert_non_null(g);
	assert_int_equal(g->nids, 4);
	classad *ad = classad_new();
	classad_update(ad, m.extra);
	char *args = NULL;
	assert_true(classad_eval_string(ad, "GPUDiscoveryArgs", NULL, &args));
	assert_non_null(strstr(args, "-properties -extra"));
	free(args);
	classad_free(ad);
	sd_machine_clear(&m);

	/* without any GPU configuration, HTCondor 25 runs the discovery
	 * tool with STARTD_DETECT_GPUS */
	snprintf(text, sizeof(text),
		 "NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\nLIBEXEC = %s\n",
		 dir);
	m = detect(text);
	assert_int_equal(sd_machine_res(&m, "GPUs")->nids, 4);
	sd_machine_clear(&m);
	rm_libexec(dir);

	/* no discovery tool: no GPUs, but GPUs = 0 as on a machine without */
	m = detect("NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\n"
		   "LIBEXEC = /nonexistent/libexec\n");
	assert_int_equal(m.nres, 1);
	assert_true(sd_machine_res(&m, "GPUs")->quantity == 0);
	sd_machine_clear(&m);

	/* STARTD_DETECT_GPUS = false turns discovery off */
	m = detect("NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\n"
		   "STARTD_DETECT_GPUS = false\n");
	assert_int_equal(m.nres, 0);
	sd_machine_clear(&m);

	/* an inventory command that cannot run is an error */
	ks_config *cfg = conf("NUM_CPUS = 4\nMEMORY = 100\nDISK = 1000\n"
			      "MACHINE_RESOURCE_INVENTORY_Foo = "
			      "/no/such/cmd\n");
	struct ks_err err = {0};
	assert_int_equal(sd_machine_detect(cfg, &m, &err), KS_EIO);
	assert_non_null(strstr(err.msg, "Foo"));
	assert_non_null(strstr(err.msg, "/no/such/cmd"));
	sd_machine_clear(&m);
	ks_config_free(cfg);
}

/* ---- detection ----------------------------------------------------------- */

static void test_detect_overrides(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test_layout_exec.XXXXXX";
	char *exec = mkdtemp(tmpl);
	assert_non_null(exec);
	char text[512];
	unsetenv("OMP_THREAD_LIMIT");
	unsetenv("SLURM_CPUS_ON_NODE");

	struct sd_machine m = detect("NUM_CPUS = 3\nMEMORY = 2048\n"
				     "RESERVED_MEMORY = 512\nDISK = 123456\n"
				     "RESERVED_DISK = 10\n"
				     "STARTD_DETECT_GPUS = false\n");
	assert_int_equal(m.cpus, 3);
	assert_int_equal(m.memory, 1536);
	assert_int_equal(m.disk, 123456);
	assert_int_equal(m.detected_disk, 123456);
	assert_true(m.disk_from_config);
	assert_true(m.detected_cores >= 1);
	assert_true(m.detected_memory >= 1);
	assert_true(m.swap > 0);
	sd_machine_clear(&m);

	/* the defaults: what the machine has */
	snprintf(text, sizeof(text),
		 "EXECUTE = %s\nSTARTD_DETECT_GPUS = false\n", exec);
	m = detect(text);
	assert_int_equal(m.cpus, m.detected_cores);
	assert_int_equal(m.memory, m.detected_memory);
	struct statvfs st;
	assert_int_equal(statvfs(exec, &st), 0);
	int64_t free_kib = (int64_t)st.f_bavail * (int64_t)st.f_frsize / 1024;
	int64_t diff = m.disk - free_kib;
	assert_true(diff < 65536 && diff > -65536);
	assert_false(m.disk_from_config);
	int64_t before = m.disk;
	sd_machine_clear(&m);

	snprintf(text, sizeof(text),
		 "EXECUTE = %s\nRESERVED_DISK = 100\n"
		 "STARTD_DETECT_GPUS = false\n"
		 "COUNT_HYPERTHREAD_CPUS = false\n",
		 exec);
	m = detect(text);
	diff = before - 100 * 1024 - m.disk;
	assert_true(diff < 65536 && diff > -65536);
	assert_int_equal(m.detected_cpus, m.detected_physical);
	assert_int_equal(m.cpus, m.detected_physical);
	sd_machine_clear(&m);

	/* the environment limits the default CPU count */
	setenv("OMP_THREAD_LIMIT", "1", 1);
	m = detect("DISK = 1000\nSTARTD_DETECT_GPUS = false\n");
	assert_int_equal(m.cpus, 1);
	sd_machine_clear(&m);
	unsetenv("OMP_THREAD_LIMIT");

	/* what cannot be detected or makes no sense */
	struct {
		const char *text;
		int code;
		const char *phrase;
	} bad[] = {
		{"EXECUTE = /nonexistent/execute\n", KS_EIO, "EXECUTE"},
		{"DISK = 1000\nMEMORY = 100\nRESERVED_MEMORY = 100\n",
		 KS_ERANGE, "RESERVED_MEMORY"},
		{"DISK = 1000\nMEMORY = lots\n", KS_EINVAL, "MEMORY"},
		{"DISK = 1000\nNUM_CPUS = 0\n", KS_ERANGE, "NUM_CPUS"},
		{"DISK = huge\n", KS_EINVAL, "DISK"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		ks_config *cfg = conf(bad[i].text);
		struct ks_err err = {0};
		int rc = sd_machine_detect(cfg, &m, &err);
		if (rc != bad[i].code || !strstr(err.msg, bad[i].phrase))
			fail_msg("[%s]: %d %s", bad[i].text, rc, err.msg);
		sd_machine_clear(&m);
		ks_config_free(cfg);
	}
	rmdir(exec);
}

/* ---- impossible layouts -------------------------------------------------- */

static void test_overcommitted(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	build_fails(&m, "SLOT_TYPE_1 = cpus=3\nNUM_SLOTS_TYPE_1 = 2",
		    KS_ERANGE, "slot2", "second slot of type 1",
		    "Cpus 3 (1 left)",
		    "SLOT_TYPE_1 or NUM_SLOTS_TYPE_1", NULL);
	build_fails(&m, "SLOT_TYPE_1 = cpus=1, mem=200\nNUM_SLOTS_TYPE_1 = 2",
		    KS_ERANGE, "Memory 200 MiB (56 left)", NULL);
	build_fails(&m, "SLOT_TYPE_1 = cpus=1, disk=60%\nNUM_SLOTS_TYPE_1 = 2",
		    KS_ERANGE, "Disk 600000 KiB (400000 left)", NULL);
	build_fails(&m, "SLOT_TYPE_1 = cpus=1, swap=3/4\nNUM_SLOTS_TYPE_1 = 2",
		    KS_ERANGE, "VirtualMemory 300000 KiB (100000 left)", NULL);
	build_fails(&m, "SLOT_TYPE_1 = 50%\nNUM_SLOTS_TYPE_1 = 1\n"
			"SLOT_TYPE_2 = 75%\nNUM_SLOTS_TYPE_2 = 1",
		    KS_ERANGE, "slot2, the first slot of type 2", NULL);
	/* the auto shares: more slots than CPUs */
	build_fails(&m, "NUM_SLOTS = 5", KS_ERANGE, "slot1",
		    "NUM_SLOTS may not exceed NUM_CPUS", NULL);
	build_fails(&m, "SLOT_TYPE_1 = cpus=4\nNUM_SLOTS_TYPE_1 = 1\n"
			"NUM_SLOTS_TYPE_2 = 1",
		    KS_ERANGE, "slot2 (slot type 2)", "0 Cpus left for 1 slots",
		    NULL);
	build_fails(&m, "SLOT_TYPE_1 = cpus=1, mem=256\nNUM_SLOTS_TYPE_1 = 1\n"
			"SLOT_TYPE_2 = cpus=1\nNUM_SLOTS_TYPE_2 = 1",
		    KS_ERANGE, "0 MiB of Memory left", NULL);

	/* custom resources */
	struct sd_machine g = machine(4, 256);
	sd_machine_add_res(&g, "GPUs", "GPU-0, GPU-1", NULL, NULL);
	build_fails(&g, "SLOT_TYPE_1 = GPUs=3\nNUM_SLOTS_TYPE_1 = 1",
		    KS_ERANGE, "GPUs 3 (2 left)", NULL);
	build_fails(&g, "SLOT_TYPE_1 = GPUs=1 : \"GPU-9\", 1/4\n"
			"NUM_SLOTS_TYPE_1 = 1",
		    KS_ERANGE, "slot1", "1 GPUs", "0 of their ids",
		    "\"GPU-9\"", NULL);
	sd_machine_clear(&g);
}

static void test_malformed(void **state)
{
	(void)state;
	struct sd_machine m = machine(4, 256);
	sd_machine_add_res(&m, "GPUs", "GPU-0, GPU-1", NULL, NULL);
	struct {
		const char *text;
		const char *phrase;
	} bad[] = {
		{"SLOT_TYPE_1 = cpus=two\nNUM_SLOTS_TYPE_1 = 1", "cpus=two"},
		{"SLOT_TYPE_1 = cpus=\nNUM_SLOTS_TYPE_1 = 1", "cannot read"},
		{"SLOT_TYPE_1 = 1/0\nNUM_SLOTS_TYPE_1 = 1",
		 "\"1/0\" is invalid"},
		{"SLOT_TYPE_1 = 150%\nNUM_SLOTS_TYPE_1 = 1",
		 "\"150%\" is invalid"},
		{"SLOT_TYPE_1 = 4\nNUM_SLOTS_TYPE_1 = 1", "a percentage (25%)"},
		{"SLOT_TYPE_1 = cpus=-1\nNUM_SLOTS_TYPE_1 = 1", "cpus=-1"},
		{"SLOT_TYPE_1 = mem=12 parsecs\nNUM_SLOTS_TYPE_1 = 1",
		 "parsecs"},
		{"SLOT_TYPE_1 = widgets=2\nNUM_SLOTS_TYPE_1 = 1",
		 "unknown resource \"widgets\""},
		{"SLOT_TYPE_1 = GPUs=1 : (((, 1/4\nNUM_SLOTS_TYPE_1 = 1",
		 "does not parse"},
		{"SLOT_TYPE_0 = 1/2", "SLOT_TYPE_0 may not be set"},
		{"NUM_SLOTS_TYPE_0 = 1", "NUM_SLOTS_TYPE_0 may not be set"},
		{"NUM_SLOTS_TYPE_1 = many", "NUM_SLOTS_TYPE_1 = many"},
		{"NUM_SLOTS_TYPE_2 = -1", "NUM_SLOTS_TYPE_2 = -1"},
		{"NUM_SLOTS = -2", "NUM_SLOTS = -2"},
		/* shares no machine has are refused, not wrapped around */
		{"SLOT_TYPE_1 = cpus=3e9\nNUM_SLOTS_TYPE_1 = 1",
		 "the cpus share is too large"},
		{"SLOT_TYPE_1 = disk=1e300\nNUM_SLOTS_TYPE_1 = 1",
		 "the disk share is too large"},
		{"SLOT_TYPE_1 = swap=9000000P\nNUM_SLOTS_TYPE_1 = 1",
		 "the swap share is too large"},
		{"SLOT_TYPE_1 = mem=1e12\nNUM_SLOTS_TYPE_1 = 1",
		 "the memory share is too large"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		build_fails(&m, bad[i].text, KS_EINVAL, bad[i].phrase, NULL);
	/* a slot type only counts when it has slots */
	struct layout l = build_ok(&m, "SLOT_TYPE_3 = nonsense");
	assert_int_equal(l.n, 1);
	drop(&l);
	sd_machine_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pslot),
		cmocka_unit_test(test_num_slots),
		cmocka_unit_test(test_static_slots),
		cmocka_unit_test(test_seed_types),
		cmocka_unit_test(test_amount_units),
		cmocka_unit_test(test_auto_division),
		cmocka_unit_test(test_backfill_and_names),
		cmocka_unit_test(test_custom_counts),
		cmocka_unit_test(test_custom_ids),
		cmocka_unit_test(test_resource_names),
		cmocka_unit_test(test_gpu_inventory),
		cmocka_unit_test(test_feature_gpus),
		cmocka_unit_test(test_detect_overrides),
		cmocka_unit_test(test_overcommitted),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
