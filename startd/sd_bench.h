/*
 * sd_bench.h: the startd's CPU benchmarks, Mips (integer work) and
 * KFlops (floating point), measured by running short loops.  They give
 * figures of the same scale as HTCondor's Dhrystone and Linpack, good for
 * comparing machines of one pool, not for their own sake.
 */
#ifndef SD_BENCH_H
#define SD_BENCH_H

#include <stdint.h>

struct sd_bench {
	int64_t mips;
	int64_t kflops;
};

/* Runs both, for about ms milliseconds each. */
void sd_bench_run(int ms, struct sd_bench *out);

#endif
