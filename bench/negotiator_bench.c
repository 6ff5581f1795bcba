/*
 * negotiator_bench: one negotiation cycle at scale (issue figures; see
 * /work/shared/bench/README.md for HTCondor's), in two cases:
 *
 *   negotiator_bench BUILD_DIR MACHINES_FILE JOBS_FILE
 *     100,000 idle jobs in 100 autoclusters of one submitter against
 *     the slots of MACHINES (the files from /work/shared/bench/gen_ads.py);
 *   negotiator_bench BUILD_DIR -preempt
 *     priority preemption: 10,000 static slots, every one Claimed by a
 *     submitter whose priority factor is 1,000,000, and 100,000 idle
 *     jobs in 100 autoclusters of a submitter with the default factor,
 *     under PREEMPTION_REQUIREMENTS = True.  The ads are made here.
 *
 * It starts a pool in a temporary directory on loopback: condor_master
 * with the collector, the negotiator and the negotiator tests' stand-in
 * schedd (tests/negotiator/ng_fake_schedd), which advertises the
 * submitter and answers NEGOTIATE with the requests: 100 job ads, each
 * standing for 1,000 jobs.  The slot ads go to the collector with
 * made-up claim ids (condor_advertise -fake-private-ad), then one
 * RESCHEDULE starts the cycle that is measured: from the RESCHEDULE
 * until the negotiator's ad, sent at the cycle's end
 * (NEGOTIATOR_UPDATE_AFTER_CYCLE), shows it ended.  The preemptions are
 * the cycle's MatchLog lines that name a user preempted.  Prints one
 * JSON object; nothing is asserted.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ks_client.h"
#include "ks_commands.h"
#include "ks_text.h"
#include "ks_wire.h"

#define AUTOCLUSTERS 100
#define JOBS_EACH 1000

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static classad *query_one(const ks_config *cfg, int command, const char *type)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", type);
	classad_insert_bool(q, "Requirements", true);
	classad **ads = NULL;
	size_t n = 0;
	struct ks_err err = {0};
	classad *one = NULL;
	if (ks_collector_query(cfg, NULL, command, q, &ads, &n, &err) == 0 &&
	    n)
		one = classad_ref(ads[0]);
	ks_ads_free(ads, n);
	classad_free(q);
	return one;
}

static size_t count(const ks_config *cfg, int command, const char *type)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", type);
	classad_insert_bool(q, "Requirements", true);
	classad_insert_string(q, "Projection", "Name");
	classad **ads = NULL;
	size_t n = 0;
	struct ks_err err = {0};
	if (ks_collector_query(cfg, NULL, command, q, &ads, &n, &err))
		n = 0;
	ks_ads_free(ads, n);
	classad_free(q);
	return n;
}

static int64_t int_attr(const classad *ad, const char *name)
{
	int64_t v = -1;
	if (ad)
		classad_eval_int(ad, name, NULL, &v);
	return v;
}

/* The requests file: the first AUTOCLUSTERS job ads, each for JOBS_EACH
 * jobs of one submitter. */
static int write_requests(const char *jobs, const char *path)
{
	FILE *f = fopen(jobs, "r");
	if (!f)
		return -1;
	size_t len;
	char *text = ks_read_all(f, &len);
	fclose(f);
	classad_reader *r = classad_reader_new(text, len, CLASSAD_FMT_OLD,
					       NULL);
	FILE *out = fopen(path, "w");
	classad *ad;
	struct ks_err err;
	int n = 0;
	while (out && n < AUTOCLUSTERS &&
	       classad_reader_next(r, &ad, &err) == 1) {
		classad_insert_string(ad, "User", "alice@cs.example.edu");
		classad_insert_string(ad, "Owner", "alice");
		classad_insert_int(ad, "AutoClusterId", n + 1);
		classad_insert_int(ad, "ResourceRequestCount", JOBS_EACH);
		char *s = classad_unparse(ad, CLASSAD_FMT_OLD);
		fprintf(out, "%s\n", s);
		free(s);
		classad_free(ad);
		n++;
	}
	classad_reader_free(r);
	free(text);
	if (out)
		fclose(out);
	return n == AUTOCLUSTERS ? 0 : -1;
}

/* The preemption case's slots: SLOTS static slots, SLOTS_PER_HOST a
 * machine, each Claimed by the low submitter (its RemoteUser, which
 * the negotiator counts its usage for), ranking every job alike (Rank
 * and CurrentRank 0, so that only priorities decide). */
#define SLOTS 10000
#define SLOTS_PER_HOST 8
#define LOW_USER "bob@grid.example.org"
#define HIGH_USER "alice@cs.example.edu"

static int write_claimed_slots(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	for (int i = 0; i < SLOTS; i++) {
		int slot = i % SLOTS_PER_HOST + 1, host = i / SLOTS_PER_HOST;
		/* loopback addresses only: a benchmark sends nothing off
		 * this host (nor to these: the negotiator does not inform
		 * the startds) */
		fprintf(f,
			"MyType = \"Machine\"\nTargetType = \"Job\"\n"
			"Name = \"slot%d@exec%05d.cs.example.edu\"\n"
			"Machine = \"exec%05d.cs.example.edu\"\n"
			"SlotID = %d\nSlotType = \"Static\"\n"
			"State = \"Claimed\"\nActivity = \"Busy\"\n"
			"RemoteUser = \"%s\"\nRemoteOwner = \"%s\"\n"
			"OpSys = \"LINUX\"\nArch = \"X86_64\"\n"
			"Cpus = 1\nMemory = %d\nDisk = 10000000\n"
			"KFlops = %d\nSlotWeight = Cpus\n"
			"StartdIpAddr = \"<127.1.%d.%d:9618>\"\n"
			"MyAddress = \"<127.1.%d.%d:9618>\"\n"
			"HasFileTransfer = true\n"
			"Start = true\nRank = 0\nCurrentRank = 0\n"
			"Requirements = START && (TARGET.RequestCpus ?: 1) <= "
			"Cpus && (TARGET.RequestMemory ?: 0) <= Memory && "
			"(TARGET.RequestDisk ?: 0) <= Disk\n\n",
			slot, host, host, slot, LOW_USER, LOW_USER,
			1024 * (1 + i % 4), 100000 + i % 997, host % 250,
			slot, host % 250, slot);
	}
	return fclose(f);
}

/* The preemption case's requests: AUTOCLUSTERS autoclusters of
 * JOBS_EACH jobs of the better submitter, told apart by RequestMemory. */
static int write_preempting_requests(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	for (int n = 0; n < AUTOCLUSTERS; n++)
		fprintf(f,
			"MyType = \"Job\"\nTargetType = \"Machine\"\n"
			"ClusterId = %d\nProcId = 0\nJobUniverse = 5\n"
			"User = \"%s\"\nOwner = \"alice\"\n"
			"AutoClusterId = %d\nResourceRequestCount = %d\n"
			"RequestCpus = 1\nRequestMemory = %d\n"
			"RequestDisk = 1000\nRank = 0.0\n"
			"Requirements = (TARGET.Arch == \"X86_64\") && "
			"(TARGET.OpSys == \"LINUX\") && (TARGET.Disk >= "
			"RequestDisk) && (TARGET.Memory >= RequestMemory) && "
			"(TARGET.Cpus >= RequestCpus) && "
			"(TARGET.HasFileTransfer)\n\n",
			n + 1, HIGH_USER, n + 1, JOBS_EACH, 100 + n);
	return fclose(f);
}

/* MatchLog lines of matches that preempt someone ("preempting USER",
 * not "preempting none"). */
static size_t count_preemptions(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[4096];
	size_t n = 0;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, " preempting ");
		if (strstr(line, "Matched ") && p &&
		    strncmp(p + 12, "none ", 5) != 0)
			n++;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	bool preempt = argc == 3 && strcmp(argv[2], "-preempt") == 0;
	if (argc != 4 && !preempt) {
		fprintf(stderr,
			"usage: %s BUILD_DIR MACHINES_FILE JOBS_FILE\n"
			"       %s BUILD_DIR -preempt\n",
			argv[0], argv[0]);
		return 2;
	}
	const char *b = argv[1];
	char cmd[2048];
	char dir[] = "/tmp/ks_negotiator_bench.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char path[512], req[512], machines[512];
	snprintf(req, sizeof(req), "%s/requests.ads", dir);
	if (preempt) {
		snprintf(machines, sizeof(machines), "%s/machines.ads", dir);
		if (write_claimed_slots(machines) ||
		    write_preempting_requests(req)) {
			fprintf(stderr, "%s: cannot write the inputs\n", dir);
			return 1;
		}
	} else {
		snprintf(machines, sizeof(machines), "%s", argv[2]);
		if (write_requests(argv[3], req)) {
			fprintf(stderr, "%s: cannot make %d requests of it\n",
				argv[3], AUTOCLUSTERS);
			return 1;
		}
	}
	snprintf(path, sizeof(path), "%s/condor_config", dir);
	FILE *f = fopen(path, "w");
	fprintf(f,
		"LOCAL_DIR = %s\nCOLLECTOR_HOST = 127.0.0.1:0\n"
		"MASTER = %s/master/condor_master\n"
		"COLLECTOR = %s/collector/condor_collector\n"
		"NEGOTIATOR = %s/negotiator/condor_negotiator\n"
		"SCHEDD = %s/tests/negotiator/ng_fake_schedd\n"
		"DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR SCHEDD\n"
		"CLASSAD_LIFETIME = 100000\n"
		"NEGOTIATOR_INTERVAL = 3600\nNEGOTIATOR_CYCLE_DELAY = 0\n"
		"NEGOTIATOR_MIN_INTERVAL = 0\n"
		"NEGOTIATOR_UPDATE_AFTER_CYCLE = True\n"
		"NG_FAKE_SCHEDD_REQUESTS = %s\n",
		dir, b, b, b, b, req);
	/* the claiming user is remote to the accountant: its factor is
	 * REMOTE_PRIO_FACTOR from the moment it is first seen */
	if (preempt)
		fprintf(f,
			"PREEMPTION_REQUIREMENTS = True\n"
			"ACCOUNTANT_LOCAL_DOMAIN = cs.example.edu\n"
			"REMOTE_PRIO_FACTOR = 1000000\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/spool", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/condor_config", dir);
	setenv("CONDOR_CONFIG", path, 1);
	/* a bench run by root keeps its daemons root's (docs/pool.md) */
	if (getuid() == 0)
		setenv("CONDOR_IDS", "0.0", 0);
	char master[512];
	snprintf(master, sizeof(master), "%s/master/condor_master", b);
	pid_t pid = fork();
	if (pid == 0) {
		execl(master, master, "-f", (char *)NULL);
		_exit(127);
	}
	int status = 1;
	struct ks_err err = {0};
	ks_config *cfg = NULL;
	char addrfile[600];
	snprintf(addrfile, sizeof(addrfile), "%s/log/.collector_address", dir);
	struct stat st;
	for (int i = 0; i < 500 && stat(addrfile, &st) != 0; i++)
		usleep(20000);
	cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "configuration: %s\n", err.msg);
		goto out;
	}
	/* the slots, each with a made-up private ad (claim id) */
	snprintf(cmd, sizeof(cmd),
		 "%s/tools/condor_advertise/condor_advertise -multiple "
		 "-fake-private-ad UPDATE_STARTD_AD %s >/dev/null",
		 b, machines);
	if (system(cmd) != 0) {
		fprintf(stderr, "condor_advertise failed\n");
		goto out;
	}
	size_t slots = 0;
	classad *neg = NULL, *sub = NULL;
	for (int i = 0; i < 600; i++) {
		slots = count(cfg, KS_QUERY_STARTD_ADS, "Machine");
		classad_free(neg);
		classad_free(sub);
		neg = query_one(cfg, KS_QUERY_NEGOTIATOR_ADS, "Negotiator");
		sub = query_one(cfg, KS_QUERY_SUBMITTOR_ADS, "Submitter");
		if (neg && sub && slots > 0 &&
		    slots == count(cfg, KS_QUERY_STARTD_PVT_ADS, "Machine"))
			break;
		usleep(50000);
	}
	int64_t idle = int_attr(sub, "IdleJobs");
	char *naddr = NULL;
	if (neg)
		classad_eval_string(neg, "MyAddress", NULL, &naddr);
	int64_t before = int_attr(neg, "LastNegotiationCycleEnd0");
	classad_free(neg);
	classad_free(sub);
	if (!naddr) {
		fprintf(stderr, "no negotiator or submitter in the collector\n");
		goto out;
	}
	/* a cycle that may still be running from the start (none had
	 * slots): RESCHEDULE is taken once it is over */
	usleep(200000);
	ks_conn *c = NULL;
	double t0 = now_s();
	time_t wall0 = time(NULL);
	if (ks_conn_open(cfg, naddr, 0, &c, &err) ||
	    ks_conn_send(c, KS_RESCHEDULE, NULL, 0, 0, &err) ||
	    ks_conn_flush(c, &err)) {
		fprintf(stderr, "RESCHEDULE: %s\n", err.msg);
		ks_conn_close(c);
		free(naddr);
		goto out;
	}
	ks_conn_close(c);
	free(naddr);
	classad *ad = NULL;
	double t1 = 0;
	for (int i = 0; i < 36000; i++) {
		classad *a = query_one(cfg, KS_QUERY_NEGOTIATOR_ADS, "Negotiator");
		int64_t start = int_attr(a, "LastNegotiationCycleTime0");
		if (start >= wall0 && int_attr(a, "LastNegotiationCycleEnd0") !=
					      before) {
			t1 = now_s();
			ad = a;
			break;
		}
		classad_free(a);
		usleep(20000);
	}
	if (!ad) {
		fprintf(stderr, "the cycle did not end\n");
		goto out;
	}
	double secs = t1 - t0;
	int64_t matches = int_attr(ad, "LastNegotiationCycleMatches0");
	if (preempt) {
		snprintf(path, sizeof(path), "%s/log/MatchLog", dir);
		size_t pre = count_preemptions(path);
		printf("{\"bench\": \"negotiator\", \"op\": \"preempt_cycle\", "
		       "\"slots\": %zu, \"claimed_slots\": %zu, "
		       "\"idle_jobs\": %lld, \"autoclusters\": %d, "
		       "\"matches\": %lld, \"preemptions\": %zu, "
		       "\"cycle_s\": %.3f, \"preemptions_per_s\": %.1f, "
		       "\"phase1_s\": %lld, \"phase2_s\": %lld, "
		       "\"phase4_s\": %lld, \"pie_spins\": %lld}\n",
		       slots, slots - (size_t)int_attr(
					      ad, "LastNegotiationCycleCandidateSlots0"),
		       (long long)idle, AUTOCLUSTERS, (long long)matches, pre,
		       secs, secs > 0 ? pre / secs : 0,
		       (long long)int_attr(ad, "LastNegotiationCyclePhase1Duration0"),
		       (long long)int_attr(ad, "LastNegotiationCyclePhase2Duration0"),
		       (long long)int_attr(ad, "LastNegotiationCyclePhase4Duration0"),
		       (long long)int_attr(ad, "LastNegotiationCyclePieSpins0"));
		classad_free(ad);
		status = 0;
		goto out;
	}
	printf("{\"bench\": \"negotiator\", \"op\": \"cycle\", \"slots\": %zu, "
	       "\"idle_jobs\": %lld, \"autoclusters\": %d, \"matches\": %lld, "
	       "\"rejections\": %lld, \"cycle_s\": %.3f, \"matches_per_s\": "
	       "%.1f, \"phase1_s\": %lld, \"phase2_s\": %lld, "
	       "\"phase4_s\": %lld, \"pie_spins\": %lld}\n",
	       slots, (long long)idle, AUTOCLUSTERS, (long long)matches,
	       (long long)int_attr(ad, "LastNegotiationCycleRejections0"),
	       secs, secs > 0 ? matches / secs : 0,
	       (long long)int_attr(ad, "LastNegotiationCyclePhase1Duration0"),
	       (long long)int_attr(ad, "LastNegotiationCyclePhase2Duration0"),
	       (long long)int_attr(ad, "LastNegotiationCyclePhase4Duration0"),
	       (long long)int_attr(ad, "LastNegotiationCyclePieSpins0"));
	classad_free(ad);
	status = 0;
out:
	kill(pid, SIGQUIT);
	waitpid(pid, NULL, 0);
	ks_config_free(cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return status;
}
