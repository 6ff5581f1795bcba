/*
 * negotiator_bench: one negotiation cycle at scale (issue figures; see
 * /work/shared/bench/README.md for HTCondor's): 100,000 idle jobs in
 * 100 autoclusters of one submitter against the slots of MACHINES.
 *
 * It starts a pool in a temporary directory on loopback: condor_master
 * with the collector, the negotiator and the negotiator tests' stand-in
 * schedd (tests/negotiator/ng_fake_schedd), which advertises the
 * submitter and answers NEGOTIATE with the requests: the first 100 job
 * ads of JOBS, each standing for 1,000 jobs.  The slot ads go to the
 * collector with made-up claim ids (condor_advertise -fake-private-ad),
 * then one RESCHEDULE starts the cycle that is measured: from the
 * RESCHEDULE until the negotiator's ad, sent at the cycle's end
 * (NEGOTIATOR_UPDATE_AFTER_CYCLE), shows it ended.  Prints one JSON
 * object; nothing is asserted.
 *
 * Usage: negotiator_bench BUILD_DIR MACHINES_FILE JOBS_FILE
 * (the files from /work/shared/bench/gen_ads.py)
 */
#include <signal.h>
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

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s BUILD_DIR MACHINES_FILE JOBS_FILE\n",
			argv[0]);
		return 2;
	}
	const char *b = argv[1];
	char cmd[2048];
	char dir[] = "/tmp/ks_negotiator_bench.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char path[512], req[512];
	snprintf(req, sizeof(req), "%s/requests.ads", dir);
	if (write_requests(argv[3], req)) {
		fprintf(stderr, "%s: cannot make %d requests of it\n", argv[3],
			AUTOCLUSTERS);
		return 1;
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
		 b, argv[2]);
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
