/* dist.c — offset distributions over N blocks; see dist.h. */
#include "util/dist.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad_spec(char *err, size_t errlen, const char *text, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad_spec(char *err, size_t errlen, const char *text, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return -EINVAL;
	n = snprintf(err, errlen, "bad random_distribution '%s': ", text);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A finite number filling [s, end) exactly. */
static int parse_num(const char *s, const char *end, double *out)
{
	char buf[64], *e;
	size_t len = (size_t)(end - s);

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (strspn(buf, "0123456789.+-eE") != len)
		return -EINVAL; /* no "nan", "inf", hex or spaces */
	errno = 0;
	*out = strtod(buf, &e);
	if (*e || errno || !isfinite(*out))
		return -EINVAL;
	return 0;
}

/* zoned:A/R:A/R...: `p` points after "zoned:". */
static int parse_zones(const char *text, const char *p, struct dist_spec *out, char *err,
                       size_t errlen)
{
	double acc = 0, range = 0;

	out->nzones = 0;
	for (;;) {
		const char *colon = strchr(p, ':'), *end = colon ? colon : p + strlen(p);
		const char *slash = memchr(p, '/', (size_t)(end - p));
		struct dist_zone *z;

		if (out->nzones == DIST_ZONES_MAX)
			return bad_spec(err, errlen, text, "more than %d zones", DIST_ZONES_MAX);
		z = &out->zone[out->nzones];
		if (!slash || parse_num(p, slash, &z->access) ||
		    parse_num(slash + 1, end, &z->range))
			return bad_spec(err, errlen, text,
			                "zone %u is not ACCESS%%/RANGE%% (as in zoned:60/10:40/90)",
			                out->nzones + 1);
		if (z->access < 0 || z->access > 100)
			return bad_spec(err, errlen, text,
			                "zone %u: access percentage must be from 0 to 100",
			                out->nzones + 1);
		if (z->range <= 0 || z->range > 100)
			return bad_spec(err, errlen, text,
			                "zone %u: range percentage must be > 0 and at most 100",
			                out->nzones + 1);
		acc += z->access;
		range += z->range;
		out->nzones++;
		if (!colon)
			break;
		p = colon + 1;
	}
	if (fabs(acc - 100) > 1e-6)
		return bad_spec(err, errlen, text, "access percentages add up to %g, not 100", acc);
	if (fabs(range - 100) > 1e-6)
		return bad_spec(err, errlen, text, "range percentages add up to %g, not 100",
		                range);
	return 0;
}

int dist_parse(const char *text, struct dist_spec *out, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
	const char *arg = colon ? colon + 1 : NULL;
	double v;

	memset(out, 0, sizeof(*out));
	if ((nlen == 7 && !strncmp(text, "uniform", 7)) ||
	    (nlen == 6 && !strncmp(text, "random", 6))) {
		if (arg)
			return bad_spec(err, errlen, text, "%.*s takes no parameter", (int)nlen,
			                text);
		out->kind = DIST_UNIFORM;
		return 0;
	}
	if (nlen == 5 && !strncmp(text, "zoned", 5)) {
		out->kind = DIST_ZONED;
		if (!arg)
			return bad_spec(err, errlen, text,
			                "zoned needs zones (as in zoned:60/10:40/90)");
		return parse_zones(text, arg, out, err, errlen);
	}
	if (nlen == 4 && !strncmp(text, "zipf", 4))
		out->kind = DIST_ZIPF;
	else if (nlen == 6 && !strncmp(text, "pareto", 6))
		out->kind = DIST_PARETO;
	else if (nlen == 6 && !strncmp(text, "normal", 6))
		out->kind = DIST_NORMAL;
	else
		return bad_spec(err, errlen, text,
		                "unknown distribution (random, zipf:THETA, pareto:H, normal:SIGMA, "
		                "zoned:A/R:...)");
	if (!arg || parse_num(arg, arg + strlen(arg), &v))
		return bad_spec(err, errlen, text, "%.*s needs a number after ':'", (int)nlen,
		                text);
	if (out->kind == DIST_ZIPF && !(v > 0))
		return bad_spec(err, errlen, text, "theta must be > 0");
	if (out->kind == DIST_PARETO && !(v > 0 && v < 1))
		return bad_spec(err, errlen, text, "h must be between 0 and 1");
	if (out->kind == DIST_NORMAL && !(v > 0 && v <= 100))
		return bad_spec(err, errlen, text, "sigma must be > 0 and at most 100 (percent)");
	out->param = v;
	return 0;
}

char *dist_format(const struct dist_spec *s, char *buf, size_t len)
{
	size_t n = 0;

	switch (s->kind) {
	case DIST_UNIFORM:
		snprintf(buf, len, "random");
		break;
	case DIST_ZIPF:
		snprintf(buf, len, "zipf:%g", s->param);
		break;
	case DIST_PARETO:
		snprintf(buf, len, "pareto:%g", s->param);
		break;
	case DIST_NORMAL:
		snprintf(buf, len, "normal:%g", s->param);
		break;
	case DIST_ZONED:
		n = (size_t)snprintf(buf, len, "zoned");
		for (unsigned i = 0; i < s->nzones && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, ":%g/%g", s->zone[i].access,
			                      s->zone[i].range);
		break;
	}
	return buf;
}

/* log1p(x) / x and expm1(x) / x, exact near 0 where the quotient is 0/0. */
static double log1p_x(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x / 2.0 + x * x / 3.0;
}

static double expm1_x(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x / 2.0 + x * x / 6.0;
}

/*
 * Zipf by rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996): h(x) = x^-theta is a hat of the weights, H its integral from 1;
 * a draw inverts H at a uniform point and accepts the nearest integer
 * unless it falls in the sliver where the hat exceeds the weight.
 */
static double zipf_H(double x, double theta)
{
	double lx = log(x);

	return expm1_x((1.0 - theta) * lx) * lx;
}

static double zipf_Hinv(double y, double theta)
{
	double t = (1.0 - theta) * y;

	if (t < -1.0) /* rounding at the edge of H's range */
		t = -1.0 + 1e-15;
	return exp(log1p_x(t) * y);
}

static double zipf_h(double x, double theta)
{
	return exp(-theta * log(x));
}

void dist_init(struct dist *d, const struct dist_spec *s, uint64_t n, uint64_t key)
{
	struct dist_spec spec = *s; /* s may be &d->spec */
	double th = spec.param, cum = 0, range = 0;

	memset(d, 0, sizeof(*d));
	d->spec = spec;
	s = &d->spec;
	d->n = n ? n : 1;
	d->key = key;
	switch (s->kind) {
	case DIST_ZIPF:
		d->z_h1 = zipf_H(1.5, th) - 1.0;
		d->z_hn = zipf_H((double)d->n + 0.5, th);
		d->z_s = 2.0 - zipf_Hinv(zipf_H(2.5, th) - zipf_h(2.0, th), th);
		break;
	case DIST_PARETO:
		d->p_pow = log(th) / log(1.0 - th);
		break;
	case DIST_ZONED:
		for (unsigned i = 0; i < s->nzones; i++) {
			d->zone_first[i] = (uint64_t)(range / 100.0 * (double)d->n);
			range += s->zone[i].range;
			cum += s->zone[i].access;
			d->zone_cum[i] = cum / 100.0;
		}
		d->zone_first[s->nzones] = d->n;
		d->zone_cum[s->nzones - 1] = 1.0; /* whatever the rounding */
		break;
	default:
		break;
	}
}

static uint64_t zipf_rank(const struct dist *d, struct rng *r)
{
	double th = d->spec.param;

	if (d->n == 1)
		return 0;
	for (;;) {
		double u = d->z_hn + rng_double(r) * (d->z_h1 - d->z_hn);
		double x = zipf_Hinv(u, th);
		uint64_t k = x < 1.5 ? 1 : (uint64_t)(x + 0.5);

		if (k > d->n)
			k = d->n;
		if ((double)k - x <= d->z_s ||
		    u >= zipf_H((double)k + 0.5, th) - zipf_h((double)k, th))
			return k - 1;
	}
}

static uint64_t zoned_block(const struct dist *d, struct rng *r)
{
	double u = rng_double(r);
	unsigned i = 0;
	uint64_t lo, hi;

	while (i + 1 < d->spec.nzones && u >= d->zone_cum[i])
		i++;
	lo = d->zone_first[i];
	hi = d->zone_first[i + 1];
	if (hi <= lo) /* fewer blocks than zones: the zone's first block */
		return lo < d->n ? lo : d->n - 1;
	return lo + rng_below(r, hi - lo);
}

uint64_t dist_next(const struct dist *d, struct rng *r)
{
	uint64_t k;

	switch (d->spec.kind) {
	case DIST_ZIPF:
		return rand_permute(zipf_rank(d, r), d->n, d->key);
	case DIST_PARETO:
		k = (uint64_t)((double)d->n * pow(rng_double(r), d->p_pow));
		return rand_permute(k < d->n ? k : d->n - 1, d->n, d->key);
	case DIST_NORMAL:
		for (;;) {
			double x =
			    rng_normal(r, (double)d->n / 2.0, (double)d->n * d->spec.param / 100.0);

			if (x >= 0 && x < (double)d->n)
				return (uint64_t)x;
		}
	case DIST_ZONED:
		return zoned_block(d, r);
	default:
		return rng_below(r, d->n);
	}
}
