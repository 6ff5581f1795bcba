/* Unit tests of partitionable-slot preemption (pslot_preempt.h): which
 * dynamic slots are chosen for a job (HTCondor's order, the lowest
 * CurrentRank first, one more until the job fits; then none it can do
 * without), what may not be preempted, consumption policies, and the
 * candidate it makes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match.h"
#include "pool.h"
#include "pslot_preempt.h"

static classad *ad_of(const char *text)
{
	struct ks_err err = {0};
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad)
		fail_msg("%s: %s", text, err.msg);
	return ad;
}

/* A pool of the slot ads given, each with a private ad holding the claim
 * id "claim-<Name>". */
static void make_pool(struct ng_pool *p, const char *const *slots, size_t n)
{
	classad *pub[16], *pvt[16];
	for (size_t i = 0; i < n; i++) {
		pub[i] = ad_of(slots[i]);
		char *name = NULL;
		classad_eval_string(pub[i], "Name", NULL, &name);
		char id[128];
		snprintf(id, sizeof(id), "claim-%s", name);
		pvt[i] = classad_new();
		classad_insert_string(pvt[i], "Name", name);
		classad_insert_string(pvt[i], "ClaimId", id);
		free(name);
	}
	struct ng_pool_opts o = {true, NULL, false};
	ng_pool_build(p, pub, n, pvt, n, &o);
	for (size_t i = 0; i < n; i++) {
		classad_free(pub[i]);
		classad_free(pvt[i]);
	}
}

static ng_matcher *matcher(const char *preq, const char *prank)
{
	struct ng_match_conf c = {
		.pre_job_rank = "0",
		.post_job_rank = "0",
		.preemption_rank = prank,
		.preemption_req = preq,
		.modify_cpus = "quantize(RequestCpus, {1})",
		.slot_weight = "Cpus",
		.use_slot_weights = true,
		.consider_preemption = true,
	};
	bool bad;
	struct ks_err err = {0};
	ng_matcher *m = ng_matcher_new(&c, &bad, &err);
	assert_false(bad);
	return m;
}

#define ADDR "MyAddress = \"<127.0.0.1:9618>\"; SlotID = 1; "
#define PSLOT(cpus, extra)                                                    \
	"[Name = \"slot1@h\"; " ADDR "PartitionableSlot = true; "              \
	"State = \"Unclaimed\"; Cpus = " #cpus "; Memory = 1024; Disk = "      \
	"1000; Rank = 0; Requirements = true; SlotWeight = Cpus; " extra "]"
#define DSLOT(n, cpus, user, crank)                                           \
	"[Name = \"slot1_" #n "@h\"; " ADDR "DynamicSlot = true; "             \
	"State = \"Claimed\"; Cpus = " #cpus "; Memory = 256; Disk = 100; "    \
	"Rank = 0; CurrentRank = " #crank "; Requirements = true; "            \
	"SlotWeight = Cpus; AccountingGroup = \"" user "\"; N = " #n "]"

static classad *job(int cpus, bool want)
{
	char text[300];
	snprintf(text, sizeof(text),
		 "[Requirements = TARGET.Cpus >= RequestCpus && TARGET.Memory "
		 ">= RequestMemory; RequestCpus = %d; RequestMemory = 128; "
		 "RequestDisk = 10%s]",
		 cpus, want ? "; WantPslotPreemption = true" : "");
	return ad_of(text);
}

/* The claims the pick names, "claim-slot1_1@h claim-slot1_2@h". */
static char *claims(ng_matcher *m, const classad *j, const char *submitter,
		    const struct ng_pool *p, struct ng_pslot_pick *pk)
{
	if (!ng_pslot_choose(m, j, submitter, p, 0, false, pk))
		return NULL;
	return ng_pslot_claims(p, pk);
}

static void test_both_for_four(void **state)
{
	(void)state;
	static const char *const s[] = {PSLOT(0, ""), DSLOT(1, 2, "low", 0),
					DSLOT(2, 2, "low", 0)};
	struct ng_pool p;
	make_pool(&p, s, 3);
	ng_matcher *m = matcher("True", NULL);
	classad *j = job(4, true);
	struct ng_pslot_pick pk = {0};
	char *ids = claims(m, j, "high", &p, &pk);
	assert_non_null(ids);
	assert_string_equal(ids, "claim-slot1_1@h claim-slot1_2@h");
	assert_int_equal(pk.kind, NG_PRIO_PREEMPTION);
	int64_t cpus = 0;
	assert_true(classad_eval_int(pk.ad, "Cpus", NULL, &cpus));
	assert_int_equal(cpus, 4);
	/* the job's share is 4 CPUs: the weight of the match */
	double cost = 0;
	classad *left = ng_pslot_carve(m, j, &pk, &cost);
	assert_non_null(left);
	assert_true(cost == 4);
	ng_pslot_commit(&p, 0, &pk, left);
	assert_null(classad_lookup(left, "RemoteUser"));
	assert_true(p.slot[0].taken && p.slot[1].taken && p.slot[2].taken);
	classad_free(left);
	free(ids);
	/* a 2-CPU job needs one of them only */
	for (size_t i = 0; i < p.n; i++)
		p.slot[i].taken = false;
	classad_free(j);
	j = job(2, true);
	ids = claims(m, j, "high", &p, &pk);
	assert_non_null(ids);
	assert_string_equal(ids, "claim-slot1_1@h");
	free(ids);
	/* one that wants more than the whole slot: none */
	classad_free(j);
	j = job(5, true);
	assert_null(claims(m, j, "high", &p, &pk));
	ng_pslot_pick_clear(&pk);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_none_for_nothing(void **state)
{
	(void)state;
	/* in order 1, 2, 3 the job fits only with all three; 1 and 2 are
	 * then dropped again: 3 alone holds 4 CPUs */
	static const char *const s[] = {PSLOT(0, ""), DSLOT(1, 1, "low", 0),
					DSLOT(2, 1, "low", 0),
					DSLOT(3, 4, "low", 0)};
	struct ng_pool p;
	make_pool(&p, s, 4);
	ng_matcher *m = matcher("True", NULL);
	classad *j = job(4, true);
	struct ng_pslot_pick pk = {0};
	char *ids = claims(m, j, "high", &p, &pk);
	assert_non_null(ids);
	assert_string_equal(ids, "claim-slot1_3@h");
	free(ids);
	/* 5 CPUs: 3 and one of the others, the one preempting is wanted of
	 * first (1) */
	classad_free(j);
	j = job(5, true);
	ids = claims(m, j, "high", &p, &pk);
	assert_non_null(ids);
	assert_string_equal(ids, "claim-slot1_1@h claim-slot1_3@h");
	free(ids);
	ng_pslot_pick_clear(&pk);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_order(void **state)
{
	(void)state;
	/* the lowest CurrentRank goes first: slot1_2 (0) before slot1_1
	 * (5); the slot's Rank of the job is 5, so slot1_2 is a rank
	 * preemption and slot1_1 only a priority one */
	static const char *const s[] = {
		PSLOT(0, ""),
		"[Name = \"slot1_1@h\"; " ADDR "DynamicSlot = true; State = "
		"\"Claimed\"; Cpus = 2; Memory = 256; Disk = 100; Rank = 5; "
		"CurrentRank = 5; Requirements = true; AccountingGroup = "
		"\"low\"]",
		"[Name = \"slot1_2@h\"; " ADDR "DynamicSlot = true; State = "
		"\"Claimed\"; Cpus = 2; Memory = 256; Disk = 100; Rank = 5; "
		"CurrentRank = 0; Requirements = true; AccountingGroup = "
		"\"low\"]"};
	struct ng_pool p;
	make_pool(&p, s, 3);
	ng_matcher *m = matcher("True", NULL);
	classad *j = job(2, true);
	struct ng_pslot_pick pk = {0};
	char *ids = claims(m, j, "high", &p, &pk);
	assert_non_null(ids);
	assert_string_equal(ids, "claim-slot1_2@h");
	assert_int_equal(pk.kind, NG_RANK_PREEMPTION);
	free(ids);
	/* both: a priority preemption, then */
	classad_free(j);
	j = job(4, true);
	ids = claims(m, j, "high", &p, &pk);
	assert_string_equal(ids, "claim-slot1_2@h claim-slot1_1@h");
	assert_int_equal(pk.kind, NG_PRIO_PREEMPTION);
	free(ids);
	/* rank preemptions only (past its limit in the first spin) */
	assert_true(ng_pslot_choose(m, j, "high", &p, 0, true, &pk) == false);
	classad_free(j);
	j = job(2, true);
	assert_true(ng_pslot_choose(m, j, "high", &p, 0, true, &pk));
	ng_pslot_pick_clear(&pk);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_prank_ties(void **state)
{
	(void)state;
	/* equal CurrentRank: the higher PREEMPTION_RANK first */
	static const char *const s[] = {PSLOT(0, ""), DSLOT(1, 2, "low", 0),
					DSLOT(2, 2, "low", 0)};
	struct ng_pool p;
	make_pool(&p, s, 3);
	ng_matcher *m = matcher("True", "MY.N");
	classad *j = job(2, true);
	struct ng_pslot_pick pk = {0};
	char *ids = claims(m, j, "high", &p, &pk);
	assert_string_equal(ids, "claim-slot1_2@h");
	free(ids);
	ng_pslot_pick_clear(&pk);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_not_preempted(void **state)
{
	(void)state;
	static const char *const s[] = {
		PSLOT(0, ""), DSLOT(1, 2, "low", 0),
		"[Name = \"slot1_2@h\"; " ADDR "DynamicSlot = true; State = "
		"\"Preempting\"; Cpus = 2; Memory = 256; Disk = 100; Rank = 0; "
		"CurrentRank = 0; Requirements = true; AccountingGroup = "
		"\"low\"]",
		/* another slot's dynamic slot */
		"[Name = \"slot2_1@h\"; MyAddress = \"<127.0.0.1:9618>\"; "
		"SlotID = 2; DynamicSlot = true; State = \"Claimed\"; Cpus = 2; "
		"Memory = 256; Disk = 100; Rank = 0; CurrentRank = 0; "
		"Requirements = true; AccountingGroup = \"low\"]"};
	struct ng_pool p;
	make_pool(&p, s, 4);
	ng_matcher *m = matcher("True", NULL);
	struct ng_pslot_pick pk = {0};
	/* a Preempting one and another slot's do not count */
	classad *j = job(4, true);
	assert_false(ng_pslot_choose(m, j, "high", &p, 0, false, &pk));
	classad_free(j);
	j = job(2, true);
	/* its own submitter's are not preempted by priority */
	assert_false(ng_pslot_choose(m, j, "low", &p, 0, false, &pk));
	/* nor without the request saying it can take such a match */
	classad_free(j);
	j = job(2, false);
	assert_false(ng_pslot_choose(m, j, "high", &p, 0, false, &pk));
	classad_free(j);
	ng_matcher_free(m);
	/* nor when PREEMPTION_REQUIREMENTS is false */
	m = matcher("False", NULL);
	j = job(2, true);
	assert_false(ng_pslot_choose(m, j, "high", &p, 0, false, &pk));
	ng_matcher_free(m);
	m = matcher("TARGET.SubmitterUserPrio < MY.RemoteUserPrio", NULL);
	classad_insert_real(j, "SubmitterUserPrio", 500);
	classad_insert_real(p.slot[1].ad, "RemoteUserPrio", 1e6);
	assert_true(ng_pslot_choose(m, j, "high", &p, 0, false, &pk));
	ng_pslot_pick_clear(&pk);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_consumption(void **state)
{
	(void)state;
	/* 1 CPU free and two dynamic slots of 2: a 3-CPU job needs one of
	 * them, but a policy that takes CPUs by 4 needs both */
	static const char *const plain[] = {PSLOT(1, ""),
					    DSLOT(1, 2, "low", 0),
					    DSLOT(2, 2, "low", 0)};
	static const char *const policy[] = {
		PSLOT(1, "MachineResources = \"Cpus Memory Disk\"; "
			 "ConsumptionCpus = quantize(TARGET.RequestCpus, {4}); "
			 "ConsumptionMemory = TARGET.RequestMemory; "
			 "ConsumptionDisk = TARGET.RequestDisk"),
		DSLOT(1, 2, "low", 0), DSLOT(2, 2, "low", 0)};
	ng_matcher *m = matcher("True", NULL);
	classad *j = job(3, true);
	struct ng_pslot_pick pk = {0};
	struct ng_pool p;
	make_pool(&p, plain, 3);
	char *ids = claims(m, j, "high", &p, &pk);
	assert_string_equal(ids, "claim-slot1_1@h");
	free(ids);
	ng_pool_clear(&p);
	make_pool(&p, policy, 3);
	ids = claims(m, j, "high", &p, &pk);
	assert_string_equal(ids, "claim-slot1_1@h claim-slot1_2@h");
	free(ids);
	/* the match weighs what the policy takes: 4 of 5 CPUs */
	double cost = 0;
	classad *left = ng_pslot_carve(m, j, &pk, &cost);
	assert_non_null(left);
	assert_true(cost == 4);
	int64_t cpus = -1;
	assert_true(classad_eval_int(left, "Cpus", NULL, &cpus));
	assert_int_equal(cpus, 1);
	classad_free(left);
	ng_pslot_pick_clear(&pk);
	ng_pool_clear(&p);
	classad_free(j);
	ng_matcher_free(m);
}

static void test_candidates(void **state)
{
	(void)state;
	/* slot1 is full and has dynamic slots: a pslot candidate; slot2
	 * fits as it is: an ordinary one, not a second time */
	static const char *const s[] = {
		PSLOT(0, ""), DSLOT(1, 2, "low", 0), DSLOT(2, 2, "low", 0),
		"[Name = \"slot2@h\"; MyAddress = \"<127.0.0.1:9618>\"; "
		"SlotID = 2; PartitionableSlot = true; State = \"Unclaimed\"; "
		"Cpus = 4; Memory = 1024; Disk = 1000; Rank = 0; Requirements "
		"= true]",
		"[Name = \"slot2_1@h\"; MyAddress = \"<127.0.0.1:9618>\"; "
		"SlotID = 2; DynamicSlot = true; State = \"Claimed\"; Cpus = 2; "
		"Memory = 256; Disk = 100; Rank = 0; CurrentRank = 0; "
		"Requirements = true; AccountingGroup = \"low\"]"};
	struct ng_pool p;
	make_pool(&p, s, 5);
	ng_matcher *m = matcher("True", NULL);
	classad *j = job(2, true);
	size_t n = 0;
	struct ng_cand *c = ng_match_candidates(m, j, "high", &p, false, &n);
	size_t plain = n;
	c = ng_pslot_candidates(m, j, "high", &p, false, c, &n);
	assert_int_equal(n, plain + 1);
	size_t pslots = 0, slot2 = 0;
	for (size_t i = 0; i < n; i++) {
		if (c[i].pslot) {
			pslots++;
			assert_int_equal(c[i].slot, 0);
			assert_int_equal(c[i].rank.kind, NG_PRIO_PREEMPTION);
		}
		slot2 += c[i].slot == 3;
	}
	assert_int_equal(pslots, 1);
	assert_int_equal(slot2, 1);
	/* the free slot first: no preemption ranks above */
	assert_int_equal(c[0].slot, 3);
	free(c);
	classad_free(j);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_for_four),
		cmocka_unit_test(test_none_for_nothing),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_prank_ties),
		cmocka_unit_test(test_not_preempted),
		cmocka_unit_test(test_consumption),
		cmocka_unit_test(test_candidates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
