/*
 * clock.h — the clock operations are timed with.
 *
 * Every timed operation reads a clock twice, so the clock's own cost is
 * part of what fsgauge adds to each system call: clock_gettime() costs
 * 20-30 ns on a VM's kvm-clock, the CPU's time-stamp counter (rdtsc)
 * about 10.  The TSC is used only where it can be trusted: an x86-64 CPU
 * that says its TSC is invariant (constant rate, running in every
 * C-state), a rate calibrated against CLOCK_MONOTONIC at start, and every
 * CPU this process may run on found in step with the others (a thread can
 * move between the two reads).  Otherwise, or with FSGAUGE_CLOCK=system,
 * CLOCK_MONOTONIC it is.  Only operation latencies use this clock; phase
 * times, deadlines and rates keep CLOCK_MONOTONIC (now_ns()).
 *
 *   uint64_t t0 = op_clock();  ...  lat = op_clock_ns(op_clock() - t0);
 */
#ifndef FSGAUGE_CLOCK_H
#define FSGAUGE_CLOCK_H

#include <stdint.h>

#include "util/util.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Set once by op_clock_init(), read-only afterwards. */
extern int op_clock_tsc;       /* 1: op_clock() is the TSC */
extern uint64_t op_clock_mult; /* TSC: nanoseconds per tick, << 32 */

/* Choose the clock (once per process; thread-safe; cheap after the first
 * call, which takes about 10 ms to calibrate the TSC).  Must run before
 * the first op_clock(). */
void op_clock_init(void);

/* What op_clock_init() chose, for the record: "tsc (2893.2 MHz, ...)" or
 * "clock_gettime (CLOCK_MONOTONIC): <why not the TSC>". */
const char *op_clock_describe(void);

static ALWAYS_INLINE uint64_t op_clock(void)
{
#if defined(__x86_64__)
	if (op_clock_tsc)
		return __rdtsc();
#endif
	return now_ns();
}

/* A difference of two op_clock() readings in nanoseconds; 0 when the
 * second is earlier (CPUs in step only within the checked bound). */
static ALWAYS_INLINE uint64_t op_clock_ns(uint64_t d)
{
	if ((int64_t)d < 0)
		return 0;
	if (op_clock_tsc)
		return (uint64_t)(((unsigned __int128)d * op_clock_mult) >> 32);
	return d;
}

/* An asynchronous request's three latencies in nanoseconds (fio's lat,
 * slat, clat; stats/result.h, struct op_split) from its op_clock()
 * readings: issued, its submission call returned, reaped.  lat is the
 * whole (0 when the readings come out backwards, as op_clock_ns()),
 * slat its part up to the submission (at most lat: readings on two CPUs
 * a little apart can put the submission outside the span), and clat the
 * rest: neither is negative and slat + clat = lat exactly. */
static ALWAYS_INLINE void op_clock_split(uint64_t issued, uint64_t submitted, uint64_t reaped,
					 uint64_t *lat, uint64_t *slat, uint64_t *clat)
{
	uint64_t s = op_clock_ns(submitted - issued);

	*lat = op_clock_ns(reaped - issued);
	*slat = s < *lat ? s : *lat;
	*clat = *lat - *slat;
}

#endif
