/*
 * summary.h — summary statistics for repeated measurements: running
 * mean/variance (Welford, mergeable by the parallel formula of Chan et al.)
 * and confidence intervals.
 *
 * Used for repeats of a whole run (--repeat N) and by compare/report.
 * Pure computation; no I/O, no allocation.
 */
#ifndef FSGAUGE_SUMMARY_H
#define FSGAUGE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	uint64_t n;
	double mean;
	double m2; /* sum of squared deviations from the mean */
	double min, max;
};

void summary_init(struct summary *s);
void summary_add(struct summary *s, double x);
/* a += b, as if every value added to b had been added to a. */
void summary_merge(struct summary *a, const struct summary *b);
/* Sample variance and standard deviation (n - 1 denominator); 0 if n < 2. */
double summary_var(const struct summary *s);
double summary_sd(const struct summary *s);
/* Coefficient of variation sd/mean; 0 when mean is 0. */
double summary_cv(const struct summary *s);
/* Two-sided Student-t critical value for confidence level conf (0.95)
 * with df degrees of freedom (df >= 1); NAN for conf outside (0, 1) or
 * df = 0. */
double t_critical(double conf, unsigned df);
/* Student-t distribution function P(T <= t) for df > 0 degrees of
 * freedom (need not be whole: Welch's test), and its inverse for p in
 * (0, 1) (t_quantile(0.975, 9) = 2.262).  Relative error about 1e-12.
 * Both return NAN for df <= 0 or NaN arguments; t_quantile returns
 * -/+INFINITY for p = 0 and 1. */
double t_cdf(double t, double df);
double t_quantile(double p, double df);
/* Half-width of the t-based confidence interval of the mean:
 * t(conf, n-1) * sd / sqrt(n).  Returns NAN when n < 2. */
double summary_ci_half(const struct summary *s, double conf);

#endif
