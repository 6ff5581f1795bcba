/*
 * sd_bench.h: CPU benchmarks, Mips (integer work) and KFlops (floating
 * point), measured by running short loops.  They give figures of the same
 * scale as HTCondor's Dhrystone and Linpack, good for comparing machines
 * of one pool, not for their own sake.  condor_mips and condor_kflops
 * (bench_main.c), the startd's default BENCHMARKS jobs, print them.
 */
#ifndef SD_BENCH_H
#define SD_BENCH_H

#include <stdint.h>

/* Each runs for about ms milliseconds and returns its figure. */
int64_t sd_bench_mips(int ms);
int64_t sd_bench_kflops(int ms);

#endif
