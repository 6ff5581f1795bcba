/*
 * bench_main.c: condor_mips and condor_kflops (built from this file with
 * KS_BENCH_KFLOPS for the second), the startd's default BENCHMARKS jobs:
 * each prints its figure as a cron job's ad ("Mips = N" or "KFlops = N",
 * then a line "--" that ends it), as HTCondor's programs of those names
 * do, and exits 0.  No arguments.
 */
#include <stdio.h>

#include "sd_bench.h"

/* Long enough to steady the figure, short enough that a slot is not kept
 * Benchmarking long. */
enum { BENCH_MS = 250 };

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
		return 2;
	}
#ifdef KS_BENCH_KFLOPS
	printf("KFlops = %lld\n", (long long)sd_bench_kflops(BENCH_MS));
#else
	printf("Mips = %lld\n", (long long)sd_bench_mips(BENCH_MS));
#endif
	printf("--\n");
	return 0;
}
