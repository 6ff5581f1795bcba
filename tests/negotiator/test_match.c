/* Unit tests of matchmaking: which slots match a request (both
 * Requirements), the order of the candidates (NEGOTIATOR_PRE_JOB_RANK,
 * then the job's Rank, then NEGOTIATOR_POST_JOB_RANK, as HTCondor
 * orders them), and carving partitionable slots. */
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

static classad *ad_of(const char *text)
{
	struct ks_err err = {0};
	classad *ad = classad_parse(text, strlen(text), CLASSAD_FMT_NEW, NULL,
				    &err);
	if (!ad)
		fail_msg("%s: %s", text, err.msg);
	return ad;
}

/* A pool of the slot ads given (new syntax), each with a private ad
 * holding a claim id "claim-<Name>" unless its text has NoClaim. */
static void make_pool_early(struct ng_pool *p, const char *const *slots,
			    size_t n, bool early)
{
	classad *pub[16], *pvt[16];
	size_t npvt = 0;
	for (size_t i = 0; i < n; i++) {
		pub[i] = ad_of(slots[i]);
		if (strstr(slots[i], "NoClaim"))
			continue;
		char *name = NULL;
		classad_eval_string(pub[i], "Name", NULL, &name);
		char id[128];
		snprintf(id, sizeof(id), "claim-%s", name);
		pvt[npvt] = classad_new();
		classad_insert_string(pvt[npvt], "Name", name);
		classad_insert_string(pvt[npvt], "ClaimId", id);
		npvt++;
		free(name);
	}
	struct ng_pool_opts o = {true, NULL, early};
	ng_pool_build(p, pub, n, pvt, npvt, &o);
	for (size_t i = 0; i < n; i++)
		classad_free(pub[i]);
	for (size_t i = 0; i < npvt; i++)
		classad_free(pvt[i]);
}

static void make_pool(struct ng_pool *p, const char *const *slots, size_t n)
{
	make_pool_early(p, slots, n, false);
}

static ng_matcher *matcher(const char *pre, const char *post)
{
	struct ng_match_conf c = {
		.pre_job_rank = pre,
		.post_job_rank = post,
		.modify_cpus = "quantize(RequestCpus, {1})",
		.modify_memory = "quantize(RequestMemory, {128})",
		.slot_weight = "Cpus",
		.use_slot_weights = true,
	};
	bool bad;
	struct ks_err err = {0};
	ng_matcher *m = ng_matcher_new(&c, &bad, &err);
	assert_false(bad);
	return m;
}

/* The names of the candidates, in order, "a b c". */
static void names(const struct ng_pool *p, const struct ng_cand *c, size_t n,
		  char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strncat(out, p->slot[c[i].slot].name, len - strlen(out) - 2);
		if (i + 1 < n)
			strcat(out, " ");
	}
}

static void test_rank_cmp(void **state)
{
	(void)state;
	struct ng_rank a = {1, 0, 0, NG_NO_PREEMPTION, 0};
	struct ng_rank b = {0, 100, 100, NG_NO_PREEMPTION, 0};
	/* pre-job rank outweighs everything after it */
	assert_true(ng_rank_cmp(&a, &b) > 0);
	assert_true(ng_rank_cmp(&b, &a) < 0);
	/* then the job's rank, then the post-job rank */
	b.pre = 1;
	assert_true(ng_rank_cmp(&b, &a) > 0);
	a.job = 100;
	assert_true(ng_rank_cmp(&b, &a) > 0);
	a.post = 200;
	assert_true(ng_rank_cmp(&a, &b) > 0);
	/* then no preemption before rank preemption before priority
	 * preemption, then PREEMPTION_RANK */
	a.post = b.post;
	a.kind = NG_RANK_PREEMPTION;
	b.kind = NG_PRIO_PREEMPTION;
	assert_true(ng_rank_cmp(&a, &b) > 0);
	b.kind = NG_RANK_PREEMPTION;
	b.preempt = 5;
	assert_true(ng_rank_cmp(&b, &a) > 0);
	a.preempt = 5;
	assert_int_equal(ng_rank_cmp(&a, &b), 0);
}

static const char *const slots[] = {
	"[Name = \"s1\"; SlotID = 1; Cpus = 1; Memory = 2048; Color = \"red\"; "
	"Rank = 0; Requirements = true; State = \"Unclaimed\"]",
	"[Name = \"s2\"; SlotID = 2; Cpus = 1; Memory = 1024; Color = \"blue\"; "
	"Rank = 0; Requirements = true; State = \"Unclaimed\"]",
	"[Name = \"s3\"; SlotID = 3; Cpus = 1; Memory = 1024; Color = \"green\"; "
	"Rank = 0; Requirements = TARGET.Owner == \"bob\"; State = "
	"\"Unclaimed\"]",
	"[Name = \"s4\"; SlotID = 4; Cpus = 1; Memory = 1024; Color = \"green\"; "
	"Rank = 0; Requirements = true; State = \"Unclaimed\"]",
	"[Name = \"s5\"; SlotID = 5; Cpus = 1; Memory = 1024; Color = \"blue\"; "
	"Rank = ifThenElse(TARGET.Owner == \"alice\", 1, 0); "
	"Requirements = true; State = "
	"\"Unclaimed\"]",
	"[Name = \"s6\"; SlotID = 6; Cpus = 1; Memory = 1024; Color = \"blue\"; "
	"Rank = 0; Requirements = true; NoClaim = true]",
	"[Name = \"s7\"; SlotID = 7; Cpus = 1; Memory = 1024; Color = \"blue\"; "
	"Rank = 0; Requirements = true; State = \"Claimed\"; RemoteUser = "
	"\"carol@example.org\"]",
};

static void test_order(void **state)
{
	(void)state;
	struct ng_pool p;
	make_pool(&p, slots, 7);
	assert_int_equal(p.n, 7);
	assert_int_equal(p.no_claim_id, 1);
	assert_int_equal(p.claimed, 1);
	assert_float_equal(p.total_weight, 7, 0);
	classad *job = ad_of("[Owner = \"alice\"; Requirements = TARGET.Color "
			     "=!= \"red\"; Rank = (TARGET.Color == \"green\") "
			     "* 10 + (TARGET.Color == \"blue\")]");
	char out[256];
	size_t n;

	/* no negotiator ranks: the job's Rank, then the pool's order; s1
	 * is red, s3 wants bob, s6 has no claim id, s7 is claimed */
	ng_matcher *m = matcher(NULL, NULL);
	struct ng_cand *c = ng_match_candidates(m, job, NULL, &p, false, &n);
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "s4 s2 s5");
	assert_float_equal(c[0].rank.job, 10, 0);
	free(c);
	/* nothing unclaimed when only rank preemption is sought */
	c = ng_match_candidates(m, job, NULL, &p, true, &n);
	assert_int_equal(n, 0);
	free(c);
	ng_matcher_free(m);

	/* the slot's own Rank first (pre-job rank), then the job's */
	m = matcher("My.Rank", NULL);
	c = ng_match_candidates(m, job, NULL, &p, false, &n);
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "s5 s4 s2");
	free(c);
	ng_matcher_free(m);

	/* the post-job rank breaks the job rank's ties: highest SlotID */
	classad *flat = ad_of("[Owner = \"alice\"; Requirements = true; Rank = "
			      "TARGET.Color == \"blue\"]");
	m = matcher(NULL, "SlotID");
	c = ng_match_candidates(m, flat, NULL, &p, false, &n);
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "s5 s2 s4 s1");
	free(c);
	ng_matcher_free(m);

	/* HTCondor's default pre-job rank: unclaimed, fewer cpus, less
	 * memory first; its post-job rank: lower SlotID (no KFlops) */
	m = matcher("(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= "
		    "UNDEFINED)) - (100000 * Cpus) - Memory",
		    "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined("
		    "KFlops), 1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))");
	classad *any = ad_of("[Owner = \"bob\"; Requirements = true; Rank = 0]");
	c = ng_match_candidates(m, any, NULL, &p, false, &n);
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "s2 s3 s4 s5 s1");
	free(c);
	ng_matcher_free(m);

	/* a rank that is not a number ranks lowest; pre and post ranks
	 * are single precision, as HTCondor evaluates them */
	m = matcher("ifThenElse(SlotID == 2, \"x\", 16777216 + SlotID)", NULL);
	c = ng_match_candidates(m, any, NULL, &p, false, &n);
	names(&p, c, n, out, sizeof(out));
	/* 16777219, 16777220 and 16777221 are all 16777220 as floats */
	assert_string_equal(out, "s3 s4 s5 s1 s2");
	assert_float_equal(c[0].rank.pre, 16777220.0, 0);
	free(c);
	ng_matcher_free(m);

	classad_free(job);
	classad_free(flat);
	classad_free(any);
	ng_pool_clear(&p);
}

/* Only free slots are candidates: a slot another user holds (known by
 * AccountingGroup, RemoteUser or RemoteOwner, as HTCondor's startd names
 * it) or one in a state that is not free is not offered, whatever its
 * Requirements say. */
static const char *const states[] = {
	"[Name = \"u\"; Requirements = true; State = \"Unclaimed\"]",
	"[Name = \"o\"; Requirements = true; State = \"Owner\"]",
	"[Name = \"m\"; Requirements = true; State = \"Matched\"]",
	"[Name = \"d\"; Requirements = true; State = \"Drained\"]",
	"[Name = \"b\"; Requirements = true; State = \"Backfill\"]",
	"[Name = \"c1\"; Requirements = true; State = \"Claimed\"; "
	"RemoteOwner = \"dave@example.org\"]",
	"[Name = \"c2\"; Requirements = true; State = \"Claimed\"; "
	"AccountingGroup = \"group_a.erin@example.org\"]",
	"[Name = \"p\"; Requirements = true; State = \"Preempting\"; "
	"RemoteUser = \"fred@example.org\"]",
	"[Name = \"n\"; Requirements = true]",
};

static void test_free_slots(void **state)
{
	(void)state;
	struct ng_pool p;
	make_pool(&p, states, 9);
	assert_int_equal(p.claimed, 3);
	assert_int_equal(p.offered, 3);
	assert_string_equal(p.slot[5].remote, "dave@example.org");
	assert_string_equal(p.slot[6].remote, "group_a.erin@example.org");
	classad *job = ad_of("[Owner = \"alice\"; Requirements = true]");
	ng_matcher *m = matcher(NULL, NULL);
	size_t n;
	struct ng_cand *c = ng_match_candidates(m, job, NULL, &p, false, &n);
	char out[256];
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "u b n");
	free(c);
	ng_matcher_free(m);
	classad_free(job);
	ng_pool_clear(&p);
}

/* Claimed slots as preemption candidates, as HTCondor's negotiator
 * takes them: a slot that prefers the job (rank preemption), else another
 * submitter's slot under PREEMPTION_REQUIREMENTS that ranks the job at
 * least as high as its own (priority preemption); never the submitter's
 * own slot by priority; none at all without NEGOTIATOR_CONSIDER_PREEMPTION. */
static const char *const claimed[] = {
	"[Name = \"u\"; Requirements = true; State = \"Unclaimed\"; Rank = 0]",
	"[Name = \"r\"; Requirements = true; State = \"Claimed\"; "
	"RemoteUser = \"dave@x\"; Rank = TARGET.Owner == \"alice\"; "
	"CurrentRank = 0.0]",
	"[Name = \"q\"; Requirements = true; State = \"Claimed\"; "
	"RemoteUser = \"erin@x\"; Rank = 0; CurrentRank = 0.0; "
	"RemoteUserPrio = 1000.0]",
	"[Name = \"s\"; Requirements = true; State = \"Claimed\"; "
	"RemoteUser = \"alice@x\"; Rank = 0; CurrentRank = 0.0; "
	"RemoteUserPrio = 1000.0]",
	"[Name = \"w\"; Requirements = true; State = \"Claimed\"; "
	"RemoteUser = \"frank@x\"; Rank = 0; CurrentRank = 5.0; "
	"RemoteUserPrio = 1000.0]",
};

static ng_matcher *preempting(bool consider, const char *req)
{
	struct ng_match_conf c = {
		.preemption_req = req,
		.consider_preemption = consider,
	};
	bool bad;
	struct ks_err err = {0};
	ng_matcher *m = ng_matcher_new(&c, &bad, &err);
	assert_false(bad);
	return m;
}

static void test_preemption(void **state)
{
	(void)state;
	struct ng_pool p;
	make_pool(&p, claimed, 5);
	classad *job = ad_of("[Owner = \"alice\"; Requirements = true; "
			     "SubmitterUserPrio = 5.0]");
	static const struct {
		bool consider;
		const char *req;
		bool rank_only;
		const char *want;
	} cases[] = {
		{false, "True", false, "u"},
		{true, "False", false, "u r"},
		{true, "MY.RemoteUserPrio > TARGET.SubmitterUserPrio", false,
		 "u r q"},
		{true, "MY.RemoteUserPrio < TARGET.SubmitterUserPrio", false,
		 "u r"},
		{true, "True", true, "r"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ng_matcher *m = preempting(cases[i].consider, cases[i].req);
		size_t n;
		struct ng_cand *c = ng_match_candidates(
			m, job, "alice@x", &p, cases[i].rank_only, &n);
		char out[256];
		names(&p, c, n, out, sizeof(out));
		assert_string_equal(out, cases[i].want);
		if (n == 3) {
			assert_int_equal(c[1].rank.kind, NG_RANK_PREEMPTION);
			assert_int_equal(c[2].rank.kind, NG_PRIO_PREEMPTION);
		}
		free(c);
		ng_matcher_free(m);
	}
	classad_free(job);
	ng_pool_clear(&p);
}

/* A claimed slot whose job may still retire is no candidate unless
 * NEGOTIATOR_CONSIDER_EARLY_PREEMPTION, as HTCondor trims it. */
static void test_early_preemption(void **state)
{
	(void)state;
	static const char *const slots[] = {
		"[Name = \"r\"; Requirements = true; State = \"Claimed\"; "
		"RemoteUser = \"dave@x\"; Rank = TARGET.Owner == \"alice\"; "
		"CurrentRank = 0.0; RetirementTimeRemaining = 300]",
		"[Name = \"o\"; Requirements = true; State = \"Claimed\"; "
		"RemoteUser = \"erin@x\"; Rank = TARGET.Owner == \"alice\"; "
		"CurrentRank = 0.0; RetirementTimeRemaining = 0]",
	};
	classad *job = ad_of("[Owner = \"alice\"; Requirements = true]");
	for (int early = 0; early < 2; early++) {
		struct ng_pool p;
		make_pool_early(&p, slots, 2, early);
		assert_int_equal(p.retiring, early ? 0 : 1);
		ng_matcher *m = preempting(true, "False");
		size_t n;
		struct ng_cand *c = ng_match_candidates(m, job, "alice@x", &p,
							false, &n);
		char out[64];
		names(&p, c, n, out, sizeof(out));
		assert_string_equal(out, early ? "r o" : "o");
		free(c);
		ng_matcher_free(m);
		ng_pool_clear(&p);
	}
	classad_free(job);
}

/* A slot a better claim already waits for is that claim's to lose: its
 * user and rank are the preempting ones; usage stays the current
 * claimer's. */
static void test_waiting_claim(void **state)
{
	(void)state;
	static const char *const slots[] = {
		"[Name = \"r\"; Requirements = true; State = \"Claimed\"; "
		"RemoteUser = \"dave@x\"; Rank = TARGET.Owner == \"alice\"; "
		"CurrentRank = 0.0; PreemptingUser = \"alice@x\"; "
		"PreemptingRank = 1.0]",
		"[Name = \"q\"; Requirements = true; State = \"Claimed\"; "
		"RemoteUser = \"dave@x\"; Rank = 0; CurrentRank = 0.0; "
		"PreemptingAccountingGroup = \"group_b.erin@x\"; "
		"PreemptingUser = \"erin@x\"; PreemptingRank = 0.0]",
	};
	struct ng_pool p;
	make_pool(&p, slots, 2);
	assert_string_equal(p.slot[0].charged, "dave@x");
	assert_string_equal(p.slot[0].remote, "alice@x");
	assert_string_equal(p.slot[1].remote, "group_b.erin@x");
	classad *job = ad_of("[Owner = \"alice\"; Requirements = true]");
	ng_matcher *m = preempting(true, "True");
	size_t n;
	struct ng_cand *c = ng_match_candidates(m, job, "alice@x", &p, false,
						&n);
	char out[64];
	names(&p, c, n, out, sizeof(out));
	/* r: no better than the waiting claim, and alice's own; q: by
	 * priority from group_b */
	assert_string_equal(out, "q");
	assert_int_equal(c[0].rank.kind, NG_PRIO_PREEMPTION);
	free(c);
	ng_matcher_free(m);
	classad_free(job);
	ng_pool_clear(&p);
}

/* A PREEMPTION_REQUIREMENTS that cannot be read never widens: it is
 * false; one that gives no boolean is false and said once. */
static void test_bad_preemption_policy(void **state)
{
	(void)state;
	struct ng_pool p;
	make_pool(&p, claimed, 5);
	classad *job = ad_of("[Owner = \"alice\"; Requirements = true; "
			     "SubmitterUserPrio = 5.0]");
	struct ng_match_conf conf = {.preemption_req = "RemoteUserPrio >",
				     .consider_preemption = true};
	bool bad;
	struct ks_err err = {0};
	ng_matcher *m = ng_matcher_new(&conf, &bad, &err);
	assert_true(bad);
	assert_non_null(strstr(err.msg, "PREEMPTION_REQUIREMENTS does not "
					 "parse"));
	assert_non_null(strstr(err.msg, "taken as False"));
	size_t n;
	struct ng_cand *c = ng_match_candidates(m, job, "alice@x", &p, false,
						&n);
	char out[64];
	names(&p, c, n, out, sizeof(out));
	assert_string_equal(out, "u r");
	free(c);
	ng_matcher_free(m);

	m = preempting(true, "\"yes\"");
	for (int round = 0; round < 2; round++) {
		c = ng_match_candidates(m, job, "alice@x", &p, false, &n);
		names(&p, c, n, out, sizeof(out));
		assert_string_equal(out, "u r");
		free(c);
		assert_int_equal(ng_matcher_warnings(m),
				 round ? 0u : (unsigned)NG_MATCH_WARN_PREQ);
	}
	ng_matcher_free(m);
	classad_free(job);
	ng_pool_clear(&p);
}

static void test_carve(void **state)
{
	(void)state;
	static const char *const ps[] = {
		"[Name = \"slot1@p\"; PartitionableSlot = true; Cpus = 8; "
		"Memory = 8192; Disk = 100000; GPUs = 2; MachineResources = "
		"\"Cpus Memory Disk Swap GPUs\"; SlotWeight = Cpus; "
		"Requirements = true; Rank = 0]",
		"[Name = \"slot2@p\"; PartitionableSlot = true; Cpus = 4; "
		"Memory = 4096; Disk = 1000; SlotWeight = 4; ConsumptionCpus "
		"= 1; ConsumptionMemory = quantize(TARGET.RequestMemory, "
		"{512}); Requirements = true; Rank = 0]",
	};
	struct ng_pool p;
	make_pool(&p, ps, 2);
	assert_true(p.slot[0].partitionable);
	ng_matcher *m = matcher(NULL, NULL);
	classad *job = ad_of("[RequestCpus = 2; RequestMemory = 1000; "
			     "RequestGPUs = 1; Requirements = TARGET.Cpus >= "
			     "RequestCpus && TARGET.Memory >= RequestMemory; "
			     "Rank = 0]");
	double cost = 0;
	classad *left = ng_match_carve(m, job, &p.slot[0], &cost);
	assert_non_null(left);
	int64_t v;
	assert_true(classad_eval_int(left, "Cpus", NULL, &v));
	assert_int_equal(v, 6);
	/* memory as the startd rounds it: 1000 -> 1024 */
	assert_true(classad_eval_int(left, "Memory", NULL, &v));
	assert_int_equal(v, 8192 - 1024);
	assert_true(classad_eval_int(left, "GPUs", NULL, &v));
	assert_int_equal(v, 1);
	assert_true(classad_eval_int(left, "Disk", NULL, &v));
	assert_int_equal(v, 100000);
	/* its weight: what the slot's weight went down by */
	assert_float_equal(cost, 2, 0);
	/* again, on what is left: the GPUs run out first */
	classad_free(p.slot[0].ad);
	p.slot[0].ad = left;
	left = ng_match_carve(m, job, &p.slot[0], &cost);
	assert_non_null(left);
	classad_free(p.slot[0].ad);
	p.slot[0].ad = left;
	assert_null(ng_match_carve(m, job, &p.slot[0], &cost));
	/* and what is left no longer matches a request for 8 cpus */
	struct ng_rank r;
	classad *big = ad_of("[RequestCpus = 8; Requirements = TARGET.Cpus >= "
			     "RequestCpus; Rank = 0]");
	assert_false(ng_match_one(m, big, NULL, &p.slot[0], false, &r));

	/* a consumption policy decides what a match takes; a weight that
	 * does not change with a carve is SLOT_WEIGHT of what was taken */
	left = ng_match_carve(m, big, &p.slot[1], &cost);
	assert_non_null(left);
	assert_true(classad_eval_int(left, "Cpus", NULL, &v));
	assert_int_equal(v, 3);
	assert_float_equal(cost, 1, 0);
	classad_free(left);
	classad *mem = ad_of("[RequestMemory = 600; Requirements = true; "
			     "Rank = 0]");
	left = ng_match_carve(m, mem, &p.slot[1], &cost);
	assert_true(classad_eval_int(left, "Memory", NULL, &v));
	assert_int_equal(v, 4096 - 1024);
	classad_free(left);

	classad_free(job);
	classad_free(big);
	classad_free(mem);
	ng_matcher_free(m);
	ng_pool_clear(&p);
}

static void test_bad_conf(void **state)
{
	(void)state;
	struct ng_match_conf c = {.pre_job_rank = "1 +", .post_job_rank = "2"};
	bool bad = false;
	struct ks_err err = {0};
	ng_matcher *m = ng_matcher_new(&c, &bad, &err);
	assert_non_null(m);
	assert_true(bad);
	assert_non_null(strstr(err.msg, "NEGOTIATOR_PRE_JOB_RANK"));
	ng_matcher_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_cmp),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_free_slots),
		cmocka_unit_test(test_preemption),
		cmocka_unit_test(test_early_preemption),
		cmocka_unit_test(test_waiting_claim),
		cmocka_unit_test(test_bad_preemption_policy),
		cmocka_unit_test(test_carve),
		cmocka_unit_test(test_bad_conf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
