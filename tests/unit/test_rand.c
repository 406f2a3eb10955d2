/* test_rand.c — unit tests for util/rand.c. */
#include "tap.h"
#include "util/rand.h"
#include "workload/workload.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>

#define NDRAW 200000

static double xs[NDRAW];

static void test_generator(void)
{
	/* Known answers of xoshiro256** from the state {1, 2, 3, 4}. */
	static const uint64_t want[] = { 11520, 0, 1509978240, 1215971899390074240ull,
					 1216172134540287360ull, 607988272756665600ull };
	struct rng r = { { 1, 2, 3, 4 } }, a, b;
	unsigned bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (rng_next(&r) != want[i])
			bad++;
	is_int(bad, 0, "xoshiro256** reference outputs");

	rng_seed(&a, 42, 3);
	rng_seed(&b, 42, 3);
	for (int i = 0; i < 10000; i++)
		if (rng_next(&a) != rng_next(&b))
			bad++;
	is_int(bad, 0, "same seed and stream: same sequence");

	rng_seed(&a, 0, 0);
	ok(a.s[0] | a.s[1] | a.s[2] | a.s[3], "seed 0: state is not all zero");
	uint64_t x = rng_next(&a);
	ok(x != 0 || rng_next(&a) != 0, "seed 0 produces numbers");
}

/* Fraction of equal bits between two sequences: 1/2 if unrelated. */
static double equal_bits(struct rng *a, struct rng *b, int n)
{
	long same = 0;

	for (int i = 0; i < n; i++)
		same += 64 - __builtin_popcountll(rng_next(a) ^ rng_next(b));
	return (double)same / (64.0 * n);
}

static void test_streams(void)
{
	static uint64_t first[64 * 64];
	struct rng a, b;
	unsigned dup = 0, corr = 0, k = 0;

	/* The first output of 64 streams of 64 seeds: all different. */
	for (uint64_t seed = 0; seed < 64; seed++)
		for (uint64_t st = 0; st < 64; st++) {
			rng_seed(&a, seed, st);
			first[k++] = rng_next(&a);
		}
	for (unsigned i = 0; i < k; i++)
		for (unsigned j = i + 1; j < k; j++)
			if (first[i] == first[j])
				dup++;
	is_int(dup, 0, "%u seed/stream pairs start differently", k);

	/* Neighbouring streams (threads 0, 1, 2 ...) are uncorrelated: over
	 * 64000 bits the equal fraction has sd 0.002. */
	for (uint64_t st = 0; st < 16; st++) {
		rng_seed(&a, 7, st);
		rng_seed(&b, 7, st + 1);
		if (fabs(equal_bits(&a, &b, 1000) - 0.5) > 0.01)
			corr++;
		rng_seed(&a, st, 0);
		rng_seed(&b, st + 1, 0);
		if (fabs(equal_bits(&a, &b, 1000) - 0.5) > 0.01)
			corr++;
	}
	is_int(corr, 0, "neighbouring streams and seeds are uncorrelated");
}

/* Pearson chi-square of counts against equal expectations. */
static double chi_square(const uint64_t *count, unsigned bins, uint64_t total)
{
	double e = (double)total / bins, chi = 0;

	for (unsigned i = 0; i < bins; i++)
		chi += ((double)count[i] - e) * ((double)count[i] - e) / e;
	return chi;
}

/* A generous threshold: mean df, sd sqrt(2 df), plus 6 sd. */
static double chi_limit(unsigned bins)
{
	return (bins - 1) + 6 * sqrt(2.0 * (bins - 1));
}

static void test_below(void)
{
	static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, 1ull << 32, (1ull << 32) + 1,
				       (1ull << 63) + 1, UINT64_MAX };
	static uint64_t count[1000];
	struct rng r;
	unsigned bad = 0;

	rng_seed(&r, 5, 0);
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		for (int k = 0; k < 20000; k++)
			if (rng_below(&r, ns[i]) >= ns[i])
				bad++;
	is_int(bad, 0, "rng_below(n) < n for n from 1 to UINT64_MAX");

	static const unsigned bins[] = { 2, 3, 10, 1000 };
	for (size_t i = 0; i < ARRAY_SIZE(bins); i++) {
		uint64_t total = 1000 * (uint64_t)bins[i] < 200000 ? 200000 : 1000 * (uint64_t)bins[i];
		double chi;

		memset(count, 0, sizeof(count));
		for (uint64_t k = 0; k < total; k++)
			count[rng_below(&r, bins[i])]++;
		chi = chi_square(count, bins[i], total);
		ok(chi < chi_limit(bins[i]), "rng_below(%u) uniform: chi2 %.1f < %.1f", bins[i], chi,
		   chi_limit(bins[i]));
	}

	/* n = 3 * 2^62: reducing modulo n would put half the draws into the
	 * lowest third; rejection must keep the thirds equal. */
	uint64_t n = 3ull << 62, third = 1ull << 62;
	memset(count, 0, sizeof(count));
	for (int k = 0; k < 300000; k++)
		count[rng_below(&r, n) / third]++;
	double chi = chi_square(count, 3, 300000);
	ok(chi < chi_limit(3), "rng_below(3 * 2^62) is unbiased: chi2 %.1f", chi);
	/* Multiply-and-shift without the rejection step gives every third
	 * value of [0, 3 * 2^62) two chances in four instead of one in four. */
	memset(count, 0, sizeof(count));
	for (int k = 0; k < 300000; k++)
		count[rng_below(&r, n) % 3]++;
	chi = chi_square(count, 3, 300000);
	ok(chi < chi_limit(3), "rng_below(3 * 2^62) mod 3 is uniform: chi2 %.1f", chi);

	/* rng_double: [0, 1), uniform in 100 bins */
	double lo = 1, hi = 0;
	memset(count, 0, sizeof(count));
	for (int k = 0; k < 500000; k++) {
		double u = rng_double(&r);

		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		count[(int)(u * 100)]++;
	}
	ok(lo >= 0 && hi < 1, "rng_double in [0, 1)");
	chi = chi_square(count, 100, 500000);
	ok(chi < chi_limit(100), "rng_double uniform: chi2 %.1f", chi);
}

static void test_fill(void)
{
	static unsigned char buf[1 << 20];
	static uint64_t count[256];
	unsigned char small[13], again[13];
	struct rng a, b;
	uint64_t w[2];

	rng_seed(&a, 9, 0);
	rng_seed(&b, 9, 0);
	rng_fill(&a, small, sizeof(small));
	w[0] = rng_next(&b);
	w[1] = rng_next(&b);
	ok(memcmp(small, w, sizeof(small)) == 0, "rng_fill uses rng_next's bytes in order");
	ok(rng_next(&a) == rng_next(&b), "a partial word consumes one rng_next");
	rng_seed(&a, 9, 0);
	rng_fill(&a, again, sizeof(again));
	ok(memcmp(small, again, sizeof(small)) == 0, "rng_fill is deterministic");
	rng_fill(&a, small, 0);

	rng_fill(&a, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		count[buf[i]]++;
	double chi = chi_square(count, 256, sizeof(buf));
	ok(chi < chi_limit(256), "rng_fill bytes uniform: chi2 %.1f", chi);
}

/* --- distributions ----------------------------------------------------- */

static double gamma_p_half(double y) /* regularized lower gamma P(1/2, y) */
{
	return erf(sqrt(y));
}

static double gamma_p_3half(double y) /* P(3/2, y) */
{
	return erf(sqrt(y)) - 2 * sqrt(y / M_PI) * exp(-y);
}

static double s_exp(struct rng *r, double a, double b) { return rng_exponential(r, a); }
static double s_norm(struct rng *r, double a, double b) { return rng_normal(r, a, b); }
static double s_gamma(struct rng *r, double a, double b) { return rng_gamma(r, a, b); }
static double s_unif(struct rng *r, double a, double b) { return rng_uniform(r, a, b); }
static double s_lnorm(struct rng *r, double a, double b) { return rng_lognormal(r, a, b); }
static double s_weib(struct rng *r, double a, double b) { return rng_weibull(r, a, b); }

static double c_exp(double x, double a, double b) { return x <= 0 ? 0 : -expm1(-x / a); }
static double c_norm(double x, double a, double b) { return 0.5 * erfc(-(x - a) / (b * M_SQRT2)); }
static double c_gamma(double x, double a, double b)
{
	if (x <= 0)
		return 0;
	if (a == 0.5)
		return gamma_p_half(x / b);
	if (a == 1.5)
		return gamma_p_3half(x / b);
	return c_exp(x, b, 0); /* shape 1 */
}
static double c_unif(double x, double a, double b) { return x <= a ? 0 : x >= b ? 1 : (x - a) / (b - a); }
static double c_lnorm(double x, double a, double b) { return x <= 0 ? 0 : c_norm(log(x), a, b); }
static double c_weib(double x, double a, double b) { return x <= 0 ? 0 : -expm1(-pow(x / b, a)); }

struct moments {
	double mean, var, exkurt;
};

static struct moments m_lnorm(double mu, double s)
{
	double s2 = s * s;

	return (struct moments){ exp(mu + s2 / 2), expm1(s2) * exp(2 * mu + s2),
				 exp(4 * s2) + 2 * exp(3 * s2) + 3 * exp(2 * s2) - 6 };
}

static struct moments m_weib(double k, double lambda)
{
	double g1 = tgamma(1 + 1 / k), g2 = tgamma(1 + 2 / k), g3 = tgamma(1 + 3 / k),
	       g4 = tgamma(1 + 4 / k), v = g2 - g1 * g1;

	return (struct moments){ lambda * g1, lambda * lambda * v,
				 (g4 - 4 * g3 * g1 + 6 * g2 * g1 * g1 - 3 * g1 * g1 * g1 * g1) / (v * v) - 3 };
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void test_distributions(void)
{
	struct {
		const char *name;
		double (*sample)(struct rng *, double, double);
		double (*cdf)(double, double, double);
		double a, b;
		struct moments m;
		double lo; /* every sample must be >= lo (and > lo if strict) */
		int strict;
	} d[] = {
		{ "exponential(3)", s_exp, c_exp, 3, 0, { 3, 9, 6 }, 0, 0 },
		{ "normal(5, 2)", s_norm, c_norm, 5, 2, { 5, 4, 0 }, -INFINITY, 0 },
		{ "gamma(1.5, 2)", s_gamma, c_gamma, 1.5, 2, { 3, 6, 4 }, 0, 1 },
		{ "gamma(0.5, 2)", s_gamma, c_gamma, 0.5, 2, { 1, 2, 12 }, 0, 0 },
		{ "gamma(1, 4)", s_gamma, c_gamma, 1, 4, { 4, 16, 6 }, 0, 1 },
		{ "uniform(-1, 3)", s_unif, c_unif, -1, 3, { 1, 16.0 / 12, -1.2 }, -1, 0 },
		{ "lognormal(0.5, 0.5)", s_lnorm, c_lnorm, 0.5, 0.5, m_lnorm(0.5, 0.5), 0, 1 },
		{ "lognormal(ln 1e5, 1)", s_lnorm, c_lnorm, log(1e5), 1, m_lnorm(log(1e5), 1), 0, 1 },
		{ "weibull(1.5, 2)", s_weib, c_weib, 1.5, 2, m_weib(1.5, 2), 0, 0 },
		{ "weibull(0.8, 1)", s_weib, c_weib, 0.8, 1, m_weib(0.8, 1), 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		struct rng r;
		double sum = 0, mean, m2 = 0, var, se_mean, se_var, ks = 0;
		int below = 0;

		rng_seed(&r, 1000 + i, 0);
		for (int k = 0; k < NDRAW; k++) {
			xs[k] = d[i].sample(&r, d[i].a, d[i].b);
			sum += xs[k];
			if (xs[k] < d[i].lo || (d[i].strict && xs[k] <= d[i].lo) || !isfinite(xs[k]))
				below++;
		}
		mean = sum / NDRAW;
		for (int k = 0; k < NDRAW; k++)
			m2 += (xs[k] - mean) * (xs[k] - mean);
		var = m2 / (NDRAW - 1);

		/* Five standard errors, from the theoretical moments: the
		 * variance of a sample variance grows with the kurtosis. */
		se_mean = sqrt(d[i].m.var / NDRAW);
		se_var = d[i].m.var * sqrt(2.0 / (NDRAW - 1) + d[i].m.exkurt / NDRAW);
		is_int(below, 0, "%s: samples finite and in range", d[i].name);
		is_near(mean, d[i].m.mean, 5 * se_mean, "%s: mean", d[i].name);
		is_near(var, d[i].m.var, 5 * se_var, "%s: variance", d[i].name);

		/* Kolmogorov-Smirnov against the distribution function: the
		 * moments alone would miss a wrong shape.  sqrt(n) D > 1.95 has
		 * probability 0.1%. */
		qsort(xs, NDRAW, sizeof(xs[0]), cmp_double);
		for (int k = 0; k < NDRAW; k++) {
			double f = d[i].cdf(xs[k], d[i].a, d[i].b);
			double dlo = f - (double)k / NDRAW, dhi = (double)(k + 1) / NDRAW - f;

			ks = fmax(ks, fmax(dlo, dhi));
		}
		ok(sqrt(NDRAW) * ks < 1.95, "%s: Kolmogorov-Smirnov sqrt(n) D = %.3f", d[i].name,
		   sqrt(NDRAW) * ks);
	}
}

static void test_permute(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 16, 100, 1000, 1024, 4097, 65536 };
	unsigned char *seen = calloc(65536, 1);
	unsigned bad = 0, fixed = 0;

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		uint64_t n = sizes[k];

		memset(seen, 0, n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = rand_permute(i, n, 12345);

			if (v >= n || seen[v]++)
				bad++;
			fixed += v == i;
		}
	}
	is_int(bad, 0, "rand_permute is a bijection of [0, n) for sizes 1 to 65536");
	ok(fixed < 200, "rand_permute moves almost every index (%u fixed points)", fixed);
	uint64_t same = 0;

	for (uint64_t i = 0; i < 1000; i++)
		same += rand_permute(i, 1000, 1) == rand_permute(i, 1000, 2);
	ok(same < 20, "different keys give different orders (%llu agree)", (unsigned long long)same);
	ok(rand_permute(5, 1000, 7) == rand_permute(5, 1000, 7), "same key, same order");
	/* a shuffled pass is not nearly sorted: adjacent values rarely follow */
	unsigned ascending = 0;

	for (uint64_t i = 1; i < 4096; i++)
		ascending += rand_permute(i, 4096, 9) == rand_permute(i - 1, 4096, 9) + 1;
	ok(ascending < 40, "consecutive indexes are not mapped to consecutive values (%u)",
	   ascending);
	ok(rand_permute(123456789, 1ull << 40, 3) < (1ull << 40), "large n stays in range");
	free(seen);
}

/* A tabular randvar as fsgauge io makes for bssplit (each row one size,
 * lo = hi): the sizes drawn in the rows' proportions, by counting
 * (chi-square against the expected counts, 2 degrees of freedom). */
static void test_tabular(void)
{
	struct rv_bucket rows[] = { { 50, 4096, 4096 }, { 30, 65536, 65536 }, { 20, 8192, 8192 } };
	struct randvar rv = { .type = RV_TABULAR, .table = rows, .ntable = 3 };
	uint64_t count[3] = { 0 }, other = 0, total = 100000;
	double chi = 0;
	struct rng r;

	rng_seed(&r, 11, 0);
	for (uint64_t k = 0; k < total; k++) {
		double x = randvar_sample(&rv, &r);
		size_t i = 0;

		while (i < 3 && x != rows[i].lo)
			i++;
		if (i < 3)
			count[i]++;
		else
			other++;
	}
	is_int(other, 0, "bssplit-like table: every draw is one of the rows' sizes");
	for (size_t i = 0; i < 3; i++) {
		double e = (double)total * rows[i].pct / 100;

		chi += ((double)count[i] - e) * ((double)count[i] - e) / e;
	}
	ok(chi < chi_limit(3), "bssplit-like table 4k/50:64k/30:8k/20: chi2 %.1f < %.1f (%llu %llu %llu)",
	   chi, chi_limit(3), (unsigned long long)count[0], (unsigned long long)count[1],
	   (unsigned long long)count[2]);
}

int main(void)
{
	test_permute();
	test_generator();
	test_streams();
	test_below();
	test_fill();
	test_distributions();
	test_tabular();
	return done_testing();
}
