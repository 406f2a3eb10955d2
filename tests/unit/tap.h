/*
 * tap.h — a minimal Test Anything Protocol harness for fsgauge unit tests.
 *
 * Each unit test is one program: call the ok()/is_int()/... macros, then
 * return done_testing() from main().  Output is TAP, read by
 * tests/run-tests.sh.  Header-only so that each test program stays a
 * single file.
 */
#ifndef FSGAUGE_TAP_H
#define FSGAUGE_TAP_H

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...)                                                       \
	do {                                                                         \
		long long g_ = (long long)(got), w_ = (long long)(want);            \
		if (!ok(g_ == w_, __VA_ARGS__))                                      \
			printf("#   got %lld, want %lld\n", g_, w_);                 \
	} while (0)

#define is_str(got, want, ...)                                                       \
	do {                                                                         \
		const char *g_ = (got), *w_ = (want);                                \
		int eq_ = (g_ && w_) ? strcmp(g_, w_) == 0 : g_ == w_;               \
		if (!ok(eq_, __VA_ARGS__))                                           \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",      \
			       w_ ? w_ : "(null)");                                  \
	} while (0)

/* |got - want| <= tol */
#define is_near(got, want, tol, ...)                                                 \
	do {                                                                         \
		double g_ = (got), w_ = (want), t_ = (tol);                          \
		if (!ok(fabs(g_ - w_) <= t_, __VA_ARGS__))                           \
			printf("#   got %g, want %g +- %g\n", g_, w_, t_);           \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
