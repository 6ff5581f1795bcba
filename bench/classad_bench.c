/*
 * classad_bench: speed and memory of the ClassAd library on the benchmark
 * inputs of gen_ads.py (see /work/shared/bench/README.md, "ClassAd library
 * benchmark"), measured so that the figures compare with HTCondor's own
 * library:
 *
 *   parse        old-syntax text already in memory -> ads, through one
 *                expression cache per run (HTCondor caches by default)
 *   unparse_new  the machine ads -> new syntax
 *   unparse_old  the machine ads -> old syntax
 *   match        every job x the first 1,000 machines: symmetric match, and
 *                the job's Rank for each matching pair
 *   memory       resident bytes per parsed machine ad
 *
 *   classad_bench [-n RUNS] DIR
 *
 * DIR holds machines.ads and jobs.ads.  Each timed figure is the best of
 * RUNS runs (default 3), single-threaded.  Output is one JSON object per
 * line on stdout; diagnostics go to stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "classad.h"

#define PROG "classad_bench"
#define MATCH_MACHINES 1000 /* the README's "first 1,000 machines" */

struct text {
	char *path; /* for messages */
	char *data;
	size_t len;
};

struct adlist {
	classad **ads;
	size_t n, cap;
};

struct bench {
	int runs;
	struct text machines_text, jobs_text;
	struct adlist machines, jobs;
};

/* ---- small helpers ---------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fprintf(stderr, "%s: out of memory\n", PROG);
		exit(1);
	}
	return q;
}

static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = xrealloc(NULL, dl + nl + 2);
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

static void adlist_push(struct adlist *l, classad *ad)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->ads = xrealloc(l->ads, l->cap * sizeof(*l->ads));
	}
	l->ads[l->n++] = ad;
}

/* Keeps the array so that later runs do not time its growth. */
static void adlist_clear(struct adlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		classad_free(l->ads[i]);
	l->n = 0;
}

static void adlist_free(struct adlist *l)
{
	adlist_clear(l);
	free(l->ads);
	l->ads = NULL;
	l->cap = 0;
}

/* ---- input ------------------------------------------------------------ */

static int read_whole(FILE *f, struct text *t)
{
	struct stat st;
	if (fstat(fileno(f), &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	t->len = (size_t)st.st_size;
	t->data = xrealloc(NULL, t->len + 1);
	if (fread(t->data, 1, t->len, f) != t->len) {
		if (!ferror(f))
			errno = EIO; /* the file shrank under us */
		return -1;
	}
	t->data[t->len] = '\0';
	return 0;
}

static int load_text(const char *dir, const char *name, struct text *t)
{
	t->path = join_path(dir, name);
	FILE *f = fopen(t->path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open %s: %s\n", PROG, t->path,
			strerror(errno));
		return -1;
	}
	int rc = read_whole(f, t);
	if (rc < 0)
		fprintf(stderr, "%s: cannot read %s: %s\n", PROG, t->path,
			strerror(errno));
	fclose(f);
	return rc;
}

static void text_free(struct text *t)
{
	free(t->path);
	free(t->data);
	t->path = t->data = NULL;
	t->len = 0;
}

/* The reader's messages mostly name the line themselves already. */
static void report_parse_error(const struct text *t, const struct ks_err *err)
{
	if (!strncmp(err->msg, "line ", 5))
		fprintf(stderr, "%s: %s: %s\n", PROG, t->path, err->msg);
	else
		fprintf(stderr, "%s: %s: line %d, column %d: %s\n", PROG,
			t->path, err->line, err->col, err->msg);
}

/* Appends every ad of the old-syntax text t to out. */
static int parse_all(const struct text *t, const char *data,
		     classad_cache *cache, struct adlist *out)
{
	classad_reader *r = classad_reader_new(data, t->len, CLASSAD_FMT_OLD,
					       cache);
	struct ks_err err;
	classad *ad;
	int rc;
	while ((rc = classad_reader_next(r, &ad, &err)) > 0)
		adlist_push(out, ad);
	classad_reader_free(r);
	if (rc < 0)
		report_parse_error(t, &err);
	return rc;
}

/* ---- parse ------------------------------------------------------------ */

/* Leaves the ads of the last run in out, for the benchmarks that follow. */
static int bench_parse(const struct bench *b, const char *input,
		       const struct text *t, struct adlist *out)
{
	double best = INFINITY;
	for (int run = 0; run < b->runs; run++) {
		adlist_clear(out);
		double t0 = now_s();
		classad_cache *cache = classad_cache_new();
		int rc = parse_all(t, t->data, cache, out);
		double dt = now_s() - t0;
		classad_cache_free(cache);
		if (rc < 0)
			return -1;
		if (dt < best)
			best = dt;
	}
	printf("{\"bench\": \"classad\", \"op\": \"parse\", \"input\": \"%s\", "
	       "\"ads\": %zu, \"ads_per_s\": %.1f, \"mb_per_s\": %.2f}\n",
	       input, out->n, (double)out->n / best,
	       (double)t->len / 1e6 / best);
	return 0;
}

/* ---- unparse ---------------------------------------------------------- */

static void bench_unparse(const struct bench *b, enum classad_format fmt,
			  const char *op)
{
	const struct adlist *l = &b->machines;
	struct classad_buf buf = {0};
	double best = INFINITY;
	for (int run = 0; run < b->runs; run++) {
		double t0 = now_s();
		for (size_t i = 0; i < l->n; i++) {
			buf.len = 0;
			classad_unparse_buf(&buf, l->ads[i], fmt);
		}
		double dt = now_s() - t0;
		if (dt < best)
			best = dt;
	}
	free(buf.data);
	printf("{\"bench\": \"classad\", \"op\": \"%s\", \"ads_per_s\": %.1f}\n",
	       op, (double)l->n / best);
}

/* ---- match ------------------------------------------------------------ */

struct match_result {
	size_t matches;
	double rank_sum;
};

/* A Rank that is not a number (undefined, a string...) ranks nothing, as in
 * the reference figures. */
static double rank_number(const classad_value *v)
{
	switch (v->type) {
	case CLASSAD_INTEGER:
		return (double)v->u.i;
	case CLASSAD_REAL:
		return v->u.r;
	case CLASSAD_BOOLEAN:
		return v->u.b ? 1.0 : 0.0;
	default:
		return 0.0;
	}
}

/* The job is the left ad, as the negotiator evaluates a job against each
 * machine; one match object serves every pair to leave allocation out. */
static struct match_result match_pairs(const struct bench *b, size_t nm,
				       classad_match *m)
{
	struct match_result res = {0, 0.0};
	classad_value rank = CLASSAD_VALUE_INIT;
	for (size_t j = 0; j < b->jobs.n; j++) {
		for (size_t k = 0; k < nm; k++) {
			classad_match_set(m, b->jobs.ads[j],
					  b->machines.ads[k]);
			if (!classad_match_symmetric(m))
				continue;
			res.matches++;
			classad_match_rank(m, CLASSAD_LEFT, &rank);
			res.rank_sum += rank_number(&rank);
		}
	}
	classad_value_clear(&rank);
	return res;
}

/* %.17g round-trips a double; JSON has no NaN or infinity. */
static void print_json_double(double d)
{
	if (isfinite(d))
		printf("%.17g", d);
	else
		printf("null");
}

static int bench_match(const struct bench *b)
{
	size_t nm = b->machines.n < MATCH_MACHINES ? b->machines.n
						   : MATCH_MACHINES;
	classad_match *m = classad_match_new(NULL, NULL, NULL);
	struct match_result first = {0, 0.0};
	double best = INFINITY;
	int rc = 0;
	for (int run = 0; run < b->runs; run++) {
		double t0 = now_s();
		struct match_result res = match_pairs(b, nm, m);
		double dt = now_s() - t0;
		if (dt < best)
			best = dt;
		if (run == 0) {
			first = res;
		} else if (res.matches != first.matches ||
			   res.rank_sum != first.rank_sum) {
			/* Evaluation must be deterministic: a difference is a
			 * library bug, not noise. */
			fprintf(stderr,
				"%s: match: run %d gave %zu matches, rank_sum "
				"%.17g; run 1 gave %zu, %.17g\n",
				PROG, run + 1, res.matches, res.rank_sum,
				first.matches, first.rank_sum);
			rc = -1;
		}
	}
	classad_match_free(m);
	size_t pairs = b->jobs.n * nm;
	printf("{\"bench\": \"classad\", \"op\": \"match\", \"pairs\": %zu, "
	       "\"matches\": %zu, \"rank_sum\": ",
	       pairs, first.matches);
	print_json_double(first.rank_sum);
	printf(", \"pairs_per_s\": %.1f}\n", (double)pairs / best);
	return rc;
}

/* ---- memory ----------------------------------------------------------- */

static long resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, resident;
	if (!f)
		return -1;
	int n = fscanf(f, "%ld %ld", &size, &resident);
	fclose(f);
	if (n != 2)
		return -1;
	return resident * sysconf(_SC_PAGESIZE);
}

/* Hands free heap pages back to the kernel so that RSS counts live data
 * only, not what earlier frees left behind. */
static void trim_heap(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static long pages_of(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	return (long)((bytes + (size_t)page - 1) / (size_t)page) * page;
}

/*
 * Run before the other benchmarks, while the heap holds nothing but the
 * input texts, so that the ads cannot settle into memory freed earlier and
 * already counted as resident.  The text being parsed is a private copy
 * because the ads must be measured with their text freed, and the parse
 * benchmark still needs the original.  The text counts as "before"; its
 * pages are subtracted rather than measuring before it is loaded, so that
 * RSS0 and RSS1 are both taken with the heap in the same trimmed state.
 */
static int bench_memory(const struct bench *b, double *bytes_per_ad)
{
	const struct text *t = &b->machines_text;
	struct adlist ads = {0};
	char *copy = xrealloc(NULL, t->len + 1);
	memcpy(copy, t->data, t->len + 1);
	trim_heap();
	long rss0 = resident_bytes();

	classad_cache *cache = classad_cache_new();
	int rc = parse_all(t, copy, cache, &ads);
	free(copy);
	trim_heap();
	long rss1 = resident_bytes(); /* the cache is part of the cost */

	if (rc == 0 && (rss0 < 0 || rss1 < 0)) {
		fprintf(stderr, "%s: cannot read /proc/self/statm: %s\n", PROG,
			strerror(errno));
		rc = -1;
	}
	if (rc == 0 && ads.n == 0) {
		fprintf(stderr, "%s: %s holds no ads\n", PROG, t->path);
		rc = -1;
	}
	if (rc == 0)
		*bytes_per_ad = (double)(rss1 - (rss0 - pages_of(t->len + 1))) /
				(double)ads.n;
	adlist_free(&ads);
	classad_cache_free(cache);
	return rc < 0 ? -1 : 0;
}

/* ---- main ------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-n RUNS] DIR\n"
		   "Benchmarks the ClassAd library on DIR/machines.ads and "
		   "DIR/jobs.ads\n(from gen_ads.py); each figure is the best "
		   "of RUNS runs (default 3).\n",
		PROG);
}

static int parse_args(int argc, char **argv, int *runs, const char **dir)
{
	int c;
	*runs = 3;
	while ((c = getopt(argc, argv, "hn:")) != -1) {
		char *end;
		long n;
		switch (c) {
		case 'n':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1 ||
			    n > 1000) {
				fprintf(stderr,
					"%s: -n wants a number of runs from "
					"1 to 1000, not '%s'\n",
					PROG, optarg);
				return -1;
			}
			*runs = (int)n;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return -1;
	}
	*dir = argv[optind];
	return 0;
}

static int check_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", PROG, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a directory\n", PROG, dir);
		return -1;
	}
	return 0;
}

static int run_all(struct bench *b)
{
	double bytes_per_ad = 0.0;
	if (bench_memory(b, &bytes_per_ad) < 0)
		return -1;
	if (bench_parse(b, "machines.ads", &b->machines_text, &b->machines) <
		    0 ||
	    bench_parse(b, "jobs.ads", &b->jobs_text, &b->jobs) < 0)
		return -1;
	bench_unparse(b, CLASSAD_FMT_NEW, "unparse_new");
	bench_unparse(b, CLASSAD_FMT_OLD, "unparse_old");
	int rc = bench_match(b);
	printf("{\"bench\": \"classad\", \"op\": \"memory\", "
	       "\"bytes_per_ad\": %.0f}\n",
	       bytes_per_ad);
	return rc;
}

int main(int argc, char **argv)
{
	struct bench b = {0};
	const char *dir;
	if (parse_args(argc, argv, &b.runs, &dir) < 0)
		return 2;
	int rc = -1;
	if (check_dir(dir) == 0 &&
	    load_text(dir, "machines.ads", &b.machines_text) == 0 &&
	    load_text(dir, "jobs.ads", &b.jobs_text) == 0)
		rc = run_all(&b);
	adlist_free(&b.machines);
	adlist_free(&b.jobs);
	text_free(&b.machines_text);
	text_free(&b.jobs_text);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing output: %s\n", PROG,
			strerror(errno));
		rc = -1;
	}
	return rc < 0 ? 1 : 0;
}
