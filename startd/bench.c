/* bench.c: the CPU benchmarks (sd_bench.h). */
#include "sd_bench.h"
#include "ks_clock.h"

#include <time.h>

/* Four independent streams of integer work (add, xor, shift, rotate,
 * compare), as a processor overlaps them in ordinary code: 16 operations
 * a round, none of which the compiler can skip, as the result is kept. */
static int64_t integer_rounds(uint64_t rounds, uint64_t *sink)
{
	uint64_t a = 1, b = 2, c = 3, e = 4;
	for (uint64_t i = 0; i < rounds; i++) {
		a += i ^ (b >> 3);
		b ^= a + (c << 1);
		c += (e < a) ? b : a;
		e ^= (c >> 7) | (c << 57);
	}
	*sink ^= a ^ b ^ c ^ e;
	return (int64_t)rounds * 16;
}

/* y += a * x over vectors, Linpack's inner loop: 2 flops an element. */
static int64_t float_rounds(uint64_t rounds, double *sink)
{
	enum { N = 512 };
	double x[N], y[N];
	for (int i = 0; i < N; i++) {
		x[i] = 1.0 + i * 1e-3;
		y[i] = 0.5;
	}
	double a = 1.000001;
	for (uint64_t r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++)
			y[i] += a * x[i];
		a = -a * 0.999999;
	}
	*sink += y[N / 2];
	return (int64_t)rounds * N * 2;
}

int64_t sd_bench_mips(int ms)
{
	double budget = ms / 1000.0, took = 0;
	uint64_t sink = 0;
	int64_t ops = 0;
	/* grow the work until it takes the time asked for */
	for (uint64_t n = 1u << 16; took < budget; n *= 2) {
		double t0 = ks_clock_s();
		ops = integer_rounds(n, &sink);
		took = ks_clock_s() - t0;
	}
	/* the result is kept, so the loop cannot be left out */
	volatile uint64_t keep = sink;
	(void)keep;
	return (int64_t)((double)ops / took / 1e6);
}

int64_t sd_bench_kflops(int ms)
{
	double budget = ms / 1000.0, took = 0;
	double sink = 0;
	int64_t ops = 0;
	for (uint64_t n = 64; took < budget; n *= 2) {
		double t0 = ks_clock_s();
		ops = float_rounds(n, &sink);
		took = ks_clock_s() - t0;
	}
	volatile double keep = sink;
	(void)keep;
	return (int64_t)((double)ops / took / 1e3);
}
