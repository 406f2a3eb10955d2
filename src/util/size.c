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
	char *end;
	double v;
	int shift;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	/* Integers are parsed exactly; only a fraction goes through double. */
	errno = 0;
	unsigned long long iv = strtoull(s, &end, 10);
	if (end == s)
		return -EINVAL;
	if (*end == '.') {
		v = strtod(s, &end);
		if (!isfinite(v))
			return -EINVAL;
	} else {
		if (errno == ERANGE)
			return -ERANGE;
		v = -1;
	}
	if (*end == 'b' || *end == 'B') {
		if (end[1])
			return -EINVAL;
		shift = 0;
	} else if (suffix_shift(end, &shift) < 0) {
		return -EINVAL;
	}
	if (!*end && default_unit > 1) {
		/* bare number in the caller's unit */
		if (v >= 0) {
			double r = v * (double)default_unit;
			if (r >= 18446744073709551615.0)
				return -ERANGE;
			*out = (uint64_t)r;
			return 0;
		}
		if (iv > UINT64_MAX / default_unit)
			return -ERANGE;
		*out = iv * default_unit;
		return 0;
	}
	if (v >= 0) {
		double r = ldexp(v, shift);
		if (r >= 18446744073709551615.0)
			return -ERANGE;
		*out = (uint64_t)r;
		return 0;
	}
	if (shift && iv > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)iv << shift;
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
	if (*end || end == s || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

char *size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "kmgtpe";
	int i = -1;
	double v = (double)bytes;

	while (v >= 1024 && i < 5 && (bytes % 1024 == 0 || v >= 1024 * 10)) {
		v /= 1024;
		i++;
		if ((uint64_t)v * 1024 != (uint64_t)(v * 1024))
			break;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[i]);
	else
		snprintf(buf, len, "%.1f%c", v, units[i]);
	return buf;
}
