/*
 * ks_clock.h: the one monotonic clock every part of kestrel measures
 * time-outs, deadlines and durations with (wall-clock time, which can
 * jump, is time() and is only for what users read).
 */
#ifndef KS_CLOCK_H
#define KS_CLOCK_H

#include <stdint.h>

/* Milliseconds since an arbitrary start, never going back. */
int64_t ks_clock_ms(void);

/* The same instant in seconds, with sub-millisecond precision. */
double ks_clock_s(void);

#endif
