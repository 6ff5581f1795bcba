/*
 * collector_bench: the collector's speed and memory (issue figures; see
 * /work/shared/bench/README.md for HTCondor's).  It starts its own
 * condor_collector on loopback in a temporary directory, then measures:
 *   - updates over TCP: every ad of MACHINES as its own UPDATE_STARTD_AD
 *     on one connection, until a DC_NOP after them is answered;
 *   - the collector's memory per ad (VmRSS growth / ads);
 *   - a full query (as condor_status -l) and a constrained, projected one
 *     (as condor_status -constraint ... -af Name Cpus Memory), median of 5;
 *   - updates over UDP (signed datagrams), until the collector lists them
 *     all, and how many were lost.
 * Prints one JSON object per figure.
 * Usage: collector_bench PATH/TO/condor_collector MACHINES_FILE
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
#include "ks_wire.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kb(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static int query(const ks_config *cfg, const char *constraint,
		 const char *proj, size_t *count)
{
	classad *q = classad_new();
	classad_insert_string(q, "MyType", "Query");
	classad_insert_string(q, "TargetType", "Machine");
	if (constraint)
		classad_insert_text(q, "Requirements", constraint, NULL);
	if (proj)
		classad_insert_string(q, "Projection", proj);
	classad **ads;
	struct ks_err err;
	int rc = ks_collector_query(cfg, NULL, KS_QUERY_STARTD_ADS, q, &ads,
				    count, &err);
	classad_free(q);
	if (rc) {
		fprintf(stderr, "query: %s\n", err.msg);
		return rc;
	}
	ks_ads_free(ads, *count);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_query(const ks_config *cfg, const char *c, const char *p,
			   size_t *count)
{
	double t[5];
	for (int i = 0; i < 5; i++) {
		double t0 = now_s();
		if (query(cfg, c, p, count))
			return -1;
		t[i] = now_s() - t0;
	}
	qsort(t, 5, sizeof(double), cmp_double);
	return t[2];
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: collector_bench CONDOR_COLLECTOR "
			"MACHINES_FILE\n");
		return 2;
	}
	size_t len;
	char *text = slurp(argv[2], &len);
	if (!text) {
		fprintf(stderr, "cannot read %s\n", argv[2]);
		return 1;
	}
	classad_reader *r = classad_reader_new(text, len, CLASSAD_FMT_OLD, NULL);
	classad **ads = NULL, *ad;
	size_t n = 0, attrs = 0;
	struct ks_err err;
	while (classad_reader_next(r, &ad, &err) == 1) {
		ads = realloc(ads, (n + 1) * sizeof(*ads));
		ads[n++] = ad;
		attrs += classad_size(ad);
	}
	classad_reader_free(r);
	free(text);

	char dir[] = "/tmp/ks_collector_bench.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char cfgpath[128], conf[512];
	snprintf(cfgpath, sizeof(cfgpath), "%s/condor_config", dir);
	snprintf(conf, sizeof(conf),
		 "LOCAL_DIR = %s\nCOLLECTOR_HOST = 127.0.0.1:0\n"
		 "CLASSAD_LIFETIME = 100000\nCOLLECTOR_UPDATE_INTERVAL = 3600\n",
		 dir);
	FILE *f = fopen(cfgpath, "w");
	fputs(conf, f);
	fclose(f);
	setenv("CONDOR_CONFIG", cfgpath, 1);
	/* a bench run by root keeps its daemons root's (docs/pool.md) */
	if (getuid() == 0)
		setenv("CONDOR_IDS", "0.0", 0);
	pid_t pid = fork();
	if (pid == 0) {
		/* as condor_master starts it (docs/pool.md) */
		setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0);
		execl(argv[1], argv[1], "-f", (char *)NULL);
		_exit(127);
	}
	char addrfile[160];
	snprintf(addrfile, sizeof(addrfile), "%s/log/.collector_address", dir);
	struct stat st;
	for (int i = 0; i < 200 && stat(addrfile, &st) != 0; i++)
		usleep(20000);
	ks_config *cfg = ks_config_load_new("TOOL", NULL, &err);
	if (!cfg) {
		fprintf(stderr, "configuration: %s\n", err.msg);
		kill(pid, SIGQUIT);
		waitpid(pid, NULL, 0);
		return 1;
	}
	char *addr = NULL;
	ks_conn *c = NULL;
	int status = 1;
	if (ks_collector_addr(cfg, NULL, &addr, &err) ||
	    ks_conn_open(cfg, addr, 0, &c, &err)) {
		fprintf(stderr, "collector: %s\n", err.msg);
		goto out;
	}
	usleep(200000);
	long rss0 = rss_kb(pid);

	double t0 = now_s();
	for (size_t i = 0; i < n; i++)
		if (ks_conn_send(c, KS_UPDATE_STARTD_AD, &ads[i], 1, false, &err))
			goto fail;
	classad *nop = classad_new();
	int code;
	classad **got;
	size_t ngot;
	if (ks_conn_send(c, KS_DC_NOP, &nop, 1, false, &err) ||
	    ks_conn_recv(c, &code, &got, &ngot, NULL, &err))
		goto fail;
	ks_ads_free(got, ngot);
	classad_free(nop);
	double tcp = now_s() - t0;
	long rss1 = rss_kb(pid);
	printf("{\"figure\":\"update_tcp\",\"ads\":%zu,\"attrs_per_ad\":%.1f,"
	       "\"seconds\":%.4f,\"ads_per_s\":%.0f}\n",
	       n, (double)attrs / n, tcp, n / tcp);
	printf("{\"figure\":\"collector_memory\",\"ads\":%zu,"
	       "\"bytes_per_ad\":%.0f,\"rss_kb\":%ld}\n",
	       n, (rss1 - rss0) * 1024.0 / n, rss1);

	size_t count = 0;
	double full = median_query(cfg, NULL, NULL, &count);
	printf("{\"figure\":\"query_full\",\"ads\":%zu,\"seconds\":%.4f}\n",
	       count, full);
	double cons = median_query(cfg, "Cpus >= 8 && Memory > 16000",
				   "Name Cpus Memory", &count);
	printf("{\"figure\":\"query_constrained_af\",\"ads\":%zu,"
	       "\"seconds\":%.4f}\n", count, cons);
	long rss2 = rss_kb(pid);
	printf("{\"figure\":\"collector_memory_after_queries\","
	       "\"bytes_per_ad\":%.0f,\"rss_kb\":%ld}\n",
	       (rss2 - rss0) * 1024.0 / n, rss2);

	/* UDP: drop everything, then send again as datagrams. */
	classad *inv = classad_new();
	classad_insert_string(inv, "MyType", "Query");
	classad_insert_string(inv, "TargetType", "Machine");
	classad_insert_text(inv, "Requirements", "true", NULL);
	if (ks_conn_send(c, KS_INVALIDATE_STARTD_ADS, &inv, 1, false, &err))
		goto fail;
	classad_free(inv);
	for (int i = 0; i < 100 && query(cfg, NULL, "Name", &count) == 0 &&
			count; i++)
		usleep(10000);
	t0 = now_s();
	for (size_t i = 0; i < n; i++)
		if (ks_conn_send_udp(c, KS_UPDATE_STARTD_AD, &ads[i], 1, &err))
			goto fail;
	double last_change = now_s();
	size_t seen = 0;
	while (now_s() - last_change < 1.0) {
		if (query(cfg, NULL, "Name", &count))
			goto fail;
		if (count != seen) {
			seen = count;
			last_change = now_s();
		}
		if (seen == n)
			break;
		usleep(5000);
	}
	double udp = last_change - t0;
	printf("{\"figure\":\"update_udp\",\"ads\":%zu,\"received\":%zu,"
	       "\"seconds\":%.4f,\"ads_per_s\":%.0f}\n",
	       n, seen, udp, seen / udp);
	status = 0;
	goto out;
fail:
	fprintf(stderr, "error: %s\n", err.msg);
out:
	ks_conn_close(c);
	free(addr);
	ks_config_free(cfg);
	kill(pid, SIGQUIT);
	waitpid(pid, NULL, 0);
	for (size_t i = 0; i < n; i++)
		classad_free(ads[i]);
	free(ads);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		status = 1;
	return status;
}
