/*
 * clock.c — choosing and calibrating the clock operations are timed
 * with; see clock.h.
 */
#include "util/clock.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

HOT_DATA int op_clock_tsc;
HOT_DATA uint64_t op_clock_mult;

static char description[192];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Most a CPU's TSC may differ from the others', once converted: an
 * operation timed across a move between CPUs is off by at most this. */
#define STEP_TOLERANCE_NS 1000
/* Calibration window: the rate's error is the reads' uncertainty (tens of
 * ns) over this, a few parts per million. */
#define CALIBRATE_NS 10000000ull

static void use_system(const char *why)
{
	op_clock_tsc = 0;
	snprintf(description, sizeof(description), "clock_gettime (CLOCK_MONOTONIC): %s", why);
}

#if defined(__x86_64__)
static int invariant_tsc(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return 0;
	__get_cpuid(0x80000007u, &a, &b, &c, &d);
	return (d >> 8) & 1;
}

/* CLOCK_MONOTONIC and the TSC read as nearly together as this CPU
 * allows: of several tries, the one whose TSC readings before and after
 * the clock's are closest, with the TSC taken halfway between them. */
static void pair(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = __rdtsc(), n = now_ns(), b = __rdtsc();

		if (b - a < best) {
			best = b - a;
			*ns = n;
			*tsc = a + (b - a) / 2;
		}
	}
}

/* The TSC reading t, converted, less CLOCK_MONOTONIC read with it: equal
 * on every CPU whose TSC is in step with the calibration CPU's. */
static int64_t offset_ns(uint64_t t0, uint64_t n0, uint64_t t, uint64_t n)
{
	return (int64_t)(n - n0) - (int64_t)op_clock_ns(t - t0);
}

/* Each CPU this thread may run on, visited in turn: the spread of their
 * offsets (ns), or -1 when a CPU could not be visited. */
static int64_t cpu_spread(uint64_t t0, uint64_t n0)
{
	cpu_set_t all, one;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int bad = 0;

	if (sched_getaffinity(0, sizeof(all), &all))
		return -1;
	for (int round = 0; round < 2 && !bad; round++) {
		for (int c = 0; c < CPU_SETSIZE; c++) {
			uint64_t n, t;
			int64_t off;

			if (!CPU_ISSET(c, &all))
				continue;
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			if (sched_setaffinity(0, sizeof(one), &one) || sched_getcpu() != c) {
				bad = 1;
				break;
			}
			pair(&n, &t);
			off = offset_ns(t0, n0, t, n);
			lo = off < lo ? off : lo;
			hi = off > hi ? off : hi;
		}
	}
	sched_setaffinity(0, sizeof(all), &all);
	return bad || lo > hi ? -1 : hi - lo;
}

static void choose_tsc(void)
{
	uint64_t n0, t0, n1, t1;
	struct timespec nap = {0, 1000000};
	double hz;
	int64_t spread;
	char why[96];

	if (!invariant_tsc()) {
		use_system("the CPU does not report an invariant TSC");
		return;
	}
	pair(&n0, &t0);
	do
		nanosleep(&nap, NULL);
	while (now_ns() - n0 < CALIBRATE_NS);
	pair(&n1, &t1);
	hz = (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
	if (!(hz > 1e8 && hz < 2e10)) {
		snprintf(why, sizeof(why), "TSC rate calibrated at %.0f Hz, not believable", hz);
		use_system(why);
		return;
	}
	op_clock_mult = (uint64_t)(1e9 * 4294967296.0 / hz);
	op_clock_tsc = 1; /* for op_clock_ns() in the checks */
	spread = cpu_spread(t0, n0);
	if (spread < 0) {
		use_system("could not visit every CPU to check their TSCs");
		return;
	}
	if (spread > STEP_TOLERANCE_NS) {
		snprintf(why, sizeof(why), "the CPUs' TSCs differ by %lld ns", (long long)spread);
		use_system(why);
		return;
	}
	snprintf(description, sizeof(description),
	         "tsc (%.1f MHz, invariant, calibrated against CLOCK_MONOTONIC; CPUs in step "
	         "within %lld ns)",
	         hz / 1e6, (long long)spread);
}
#endif

static void choose(void)
{
	const char *e = getenv("FSGAUGE_CLOCK");

	if (e && *e && strcmp(e, "auto") && strcmp(e, "system")) {
		msg_warn("FSGAUGE_CLOCK='%s' is not 'auto' or 'system'; using auto", e);
		e = NULL;
	}
	if (e && !strcmp(e, "system")) {
		use_system("FSGAUGE_CLOCK=system");
		return;
	}
#if defined(__x86_64__)
	choose_tsc();
#else
	use_system("no TSC support on this architecture");
#endif
}

void op_clock_init(void)
{
	pthread_once(&once, choose);
}

const char *op_clock_describe(void)
{
	op_clock_init();
	return description;
}
