/*
 * compare.h — is B really different from A, by how much, and how sure are
 * we?  The statistics behind `fsgauge compare` and `fsgauge report`.
 *
 * A and B are the samples of one headline figure (ops/s, p99 latency, ...)
 * from two results: one value per repeat, or a single value when the run
 * was not repeated.  compare_samples() estimates the ratio B/A with a
 * confidence interval and a two-sided significance test:
 *
 *  - both sides with n >= 2 and all values > 0 (the usual case): Welch's
 *    unequal-variance t-test on the logarithms of the values.  The ratio is
 *    exp(mean log B - mean log A), the ratio of the geometric means, and its
 *    interval is the exponentiated Welch t-interval of that difference, so
 *    "significant" and "the interval excludes 1" always agree, swapping A
 *    and B inverts the interval, and a 20% change means the same for a
 *    figure of 10 as for one of 10000.  Assumes independent runs whose
 *    figures are roughly log-normal (multiplicative noise).
 *  - both sides with n >= 2 but some value <= 0 (MB/s of a metadata-only
 *    phase, say): Welch's t-test on the raw values; the ratio is the ratio
 *    of the means and there is no interval.
 *  - fewer than two values on either side: the ratio of the means only;
 *    significance cannot be judged from one sample and is reported as such.
 *  - A's mean is 0 and B's is not (whatever the number of values): there
 *    is no ratio, and so no interval, p-value or significance either.
 *
 * Pure computation: no I/O, no allocation.
 */
#ifndef FSGAUGE_COMPARE_H
#define FSGAUGE_COMPARE_H

#include <stddef.h>

#include "stats/summary.h"

enum compare_method {
	COMPARE_SINGLE = 0, /* a side has one sample: ratio only */
	COMPARE_LOG_WELCH,  /* Welch on log values: ratio, interval, p */
	COMPARE_RAW_WELCH,  /* Welch on raw values: ratio of means, p */
	COMPARE_NONE,	    /* A's mean is 0, B's is not: nothing but the means */
};

struct compare_stat {
	enum compare_method method;
	double ratio;	     /* B / A; NAN when A's mean is 0 */
	double ci_lo, ci_hi; /* interval for the ratio; NAN when none */
	double t, df;	     /* Welch statistic and degrees of freedom */
	double p;	     /* two-sided p-value; NAN for COMPARE_SINGLE and _NONE */
	int significant;     /* 1: p < 1 - conf, 0: not, -1: cannot tell */
};

/* Compare samples b (na values) with the baseline a at confidence level
 * conf (0.95).  Returns 0, or -EINVAL when a side is empty, a value is
 * not finite, or conf is outside (0, 1). */
int compare_samples(const double *a, size_t na, const double *b, size_t nb, double conf,
		    struct compare_stat *st);

/* Welch's test of mean(b) - mean(a) from two summaries with n >= 2 each:
 * sets *t, *df and the two-sided *p.  When both variances are 0 the
 * statistic is 0 (p = 1) for equal means and infinite (p = 0) otherwise.
 * Returns 0, or -EINVAL when a side has fewer than 2 values. */
int compare_welch(const struct summary *a, const struct summary *b, double *t, double *df,
		  double *p);

#endif
