/* human.c — numbers as people read them; see human.h. */
#include "util/human.h"

#include <math.h>
#include <stdio.h>

#include "util/util.h"

const char *human_bytes(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = bytes;
	size_t u = 0;

	if (!isfinite(bytes) || bytes < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (bytes < 1024) {
		snprintf(buf, len, "%.0f B", bytes);
		return buf;
	}
	v /= 1024;
	while (u + 1 < ARRAY_SIZE(units) && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else if (v >= 999.5)
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.3g %s", v, units[u]);
	return buf;
}

const char *human_ns(double ns, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1, "ns" }, { 1e3, "\u00b5s" }, { 1e6, "ms" }, { 1e9, "s" } };
	size_t u = 0;

	if (!isfinite(ns) || ns < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (ns == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	/* the next unit once 3 digits would round to 1000 ("999.7 ns" is 1 µs) */
	while (u + 1 < ARRAY_SIZE(units) && ns / units[u].scale >= 999.5)
		u++;
	if (ns / units[u].scale >= 999.5)
		snprintf(buf, len, "%.0f %s", ns / units[u].scale, units[u].unit);
	else
		snprintf(buf, len, "%.3g %s", ns / units[u].scale, units[u].unit);
	return buf;
}
