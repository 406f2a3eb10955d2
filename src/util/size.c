/* size.c — size and number parsing; see size.h. */
#include "util/size.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int suffix_shift(const char *p, int *shift)
{
	static const char units[] = "kmgtpe";
	const char *u;

	if (!*p) {
		*shift = 0;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)*p));
	if (!u)
		return -EINVAL;
	*shift = 10 * (int)(u - units + 1);
	p++;
	/* optional "i" (KiB) and/or "b" */
	if (*p == 'i' || *p == 'I')
		p++;
	if (*p == 'b' || *p == 'B')
		p++;
	return *p ? -EINVAL : 0;
}

int size_parse_unit(const char *s, uint64_t default_unit, uint64_t *out)
{
	uint64_t ip = 0, frac = 0, fscale = 1, mult;
	unsigned __int128 v;
	const char *p = s;
	int shift, overflow = 0;

	/* A digit first: no sign, no space, no ".5". */
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	/*
	 * Digits by hand rather than strtod(): strtod() would also take
	 * exponents ("1.5e3k"), hex and the locale's decimal point, and
	 * would round "1.3t" through a double.  The fraction keeps up to 19
	 * digits, which is finer than one byte even in exbibytes.
	 */
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (ip > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			ip = ip * 10 + d;
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (fscale <= UINT64_MAX / 10) {
				frac = frac * 10 + (unsigned)(*p - '0');
				fscale *= 10;
			}
		}
	}
	if ((*p == 'b' || *p == 'B') && !p[1]) {
		mult = 1;
	} else if (!*p) {
		/* bare number in the caller's unit */
		mult = default_unit > 1 ? default_unit : 1;
	} else {
		if (suffix_shift(p, &shift) < 0)
			return -EINVAL;
		mult = 1ull << shift;
	}
	if (overflow)
		return -ERANGE;
	/* Both products fit 128 bits; the fraction is truncated to bytes. */
	v = (unsigned __int128)ip * mult + (unsigned __int128)frac * mult / fscale;
	if (v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int size_parse(const char *s, uint64_t *out)
{
	return size_parse_unit(s, 1, out);
}

int num_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	/* "1e999" is a number, just too big, as in num_parse_u64(); an
	 * underflow to 0 or a denormal is close enough and accepted. */
	if (errno == ERANGE && isinf(v))
		return -ERANGE;
	if (!isfinite(v)) /* "nan", "inf" */
		return -EINVAL;
	*out = v;
	return 0;
}

int duration_parse(const char *s, double min, int min_excluded, double *out)
{
	double v;
	int rc = num_parse_double(s, &v);

	if (rc == -EINVAL)
		return rc;
	if (rc < 0 || v < min || (min_excluded && v == min) || v > DURATION_MAX_SECONDS)
		return -ERANGE;
	*out = v;
	return 0;
}

char *size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "kmgtpe";

	/*
	 * Exact, so that sizes written into results and workload dumps read
	 * back as the same number: the largest unit of which bytes is a whole
	 * or half multiple ("16k", "1.5m"), otherwise plain bytes ("1025",
	 * not "1.0k").
	 */
	for (int i = 5; i >= 0; i--) {
		int shift = 10 * (i + 1);
		uint64_t unit = 1ull << shift, whole = bytes >> shift;

		if (!whole)
			continue;
		if (!(bytes & (unit - 1))) {
			snprintf(buf, len, "%llu%c", (unsigned long long)whole, units[i]);
			return buf;
		}
		if (!(bytes & (unit / 2 - 1))) {
			snprintf(buf, len, "%llu.5%c", (unsigned long long)whole, units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}
