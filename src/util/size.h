/*
 * size.h — parse and format sizes and numbers as users type them.
 *
 * Suffixes are binary, as in filebench and bonnie++: k = 1024, m = 1024^2,
 * g, t; upper or lower case, an optional trailing "b" ("16kb", "1GiB" and
 * "1g" are the same).  No I/O, no allocation.
 */
#ifndef FSGAUGE_SIZE_H
#define FSGAUGE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Parse "16k", "1.5g", "100" into bytes.  Returns 0, or -EINVAL for text
 * that is not a size (empty, unknown suffix, junk after it, negative,
 * exponent) and -ERANGE when the value does not fit 64 bits.  A fraction
 * is exact to the byte, truncated ("1.3k" is 1331). */
int size_parse(const char *s, uint64_t *out);
/* Same, but a bare number is multiplied by default_unit (bonnie's -s is
 * MiB by default). */
int size_parse_unit(const char *s, uint64_t default_unit, uint64_t *out);
/* Parse a plain non-negative decimal integer (no suffix). */
int num_parse_u64(const char *s, uint64_t *out);
/* Parse a double (for seconds, rates, percentages): -EINVAL for junk,
 * "nan" and "inf", -ERANGE for a finite number too big for a double. */
int num_parse_double(const char *s, double *out);
/* The longest duration fsgauge takes anywhere (-t, a workload's `run N`,
 * --warmup, --interval, untar's --max-time): a year, in seconds.  Longer
 * than any benchmark, the "until done" of runs that end on their own, and
 * far inside what the nanosecond deadlines hold (2^64 ns is 584 years:
 * the clock, a warm-up and a run at this maximum still fit). */
#define DURATION_MAX_SECONDS (365.0 * 24 * 3600)
#define DURATION_MAX_TEXT "31536000, a year"
/* Parse seconds, range-checked before anything converts them: 0, or
 * -EINVAL for junk, "nan" and "inf", -ERANGE for a number below `min`
 * (or equal to it when min_excluded: -t 0), or above
 * DURATION_MAX_SECONDS. */
int duration_parse(const char *s, double min, int min_excluded, double *out);
/* Seconds (from the user, a workload or a random variable) as a
 * nanosecond count a deadline can add to now_ns() without overflow: 0 for
 * anything not above 0 (NaN too), DURATION_MAX_SECONDS' worth for
 * anything longer, where a plain conversion of 1e308 is undefined. */
static inline uint64_t duration_ns(double s)
{
	if (!(s > 0))
		return 0;
	if (s >= DURATION_MAX_SECONDS)
		return (uint64_t)(DURATION_MAX_SECONDS * 1e9);
	return (uint64_t)(s * 1e9);
}
/* Format bytes as "16k", "1.5m", ... into buf; returns buf.  Exact:
 * size_parse() gives bytes back, so a size that is not a whole or half
 * multiple of a unit is printed as plain bytes ("1025"). */
char *size_format(uint64_t bytes, char *buf, size_t len);

#endif
