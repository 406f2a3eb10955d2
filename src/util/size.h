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
/* Format bytes as "16k", "1.5m", ... into buf; returns buf.  Exact:
 * size_parse() gives bytes back, so a size that is not a whole or half
 * multiple of a unit is printed as plain bytes ("1025"). */
char *size_format(uint64_t bytes, char *buf, size_t len);

#endif
