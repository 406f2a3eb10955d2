/* test_hist.c — unit tests for stats/hist.c. */
#include "stats/hist.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>

#define HIST_LAST (HIST_BUCKETS - 1)
#define NSAMPLES 100000

/* struct hist is ~75 KiB: keep them off the stack. */
static struct hist ha, hb, hu;
static uint64_t samples[2 * NSAMPLES];

/* |reported - v| for a value v that fell into bucket hist_bucket(v). */
static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The bound promised by hist.h, in exact integer arithmetic:
 * |reported - v| <= v * 2^-(HIST_SUB_BITS + 1). */
static int within_bound(uint64_t reported, uint64_t v)
{
	return (unsigned __int128)abs_diff(reported, v) << (HIST_SUB_BITS + 1) <=
	       (unsigned __int128)v;
}

static void test_layout(void)
{
	unsigned bad_order = 0, bad_contig = 0, bad_lo = 0, bad_hi = 0, bad_width = 0;
	unsigned bad_mid = 0, i;

	is_int(hist_bucket_lo(0), 0, "first bucket starts at 0");
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);

		if (lo > hi)
			bad_order++;
		if (i + 1 < HIST_BUCKETS && hist_bucket_lo(i + 1) != hi + 1)
			bad_contig++;
		if (hist_bucket(lo) != i)
			bad_lo++;
		if (hist_bucket(hi) != i)
			bad_hi++;
		if (i == HIST_LAST)
			continue;
		/* width <= lo * 2^-HIST_SUB_BITS (width 1 for the exact ones) */
		if (lo >= HIST_SUB && (hi - lo + 1) > (lo >> HIST_SUB_BITS))
			bad_width++;
		if (!within_bound(hist_value_at(i), lo) || !within_bound(hist_value_at(i), hi))
			bad_mid++;
		if (hist_value_at(i) < lo || hist_value_at(i) > hi)
			bad_mid++;
	}
	is_int(bad_order, 0, "every bucket has lo <= hi");
	is_int(bad_contig, 0, "buckets are contiguous and increasing");
	is_int(bad_lo, 0, "hist_bucket(lo(i)) == i for every bucket");
	is_int(bad_hi, 0, "hist_bucket(hi(i)) == i for every bucket");
	is_int(bad_width, 0, "bucket width <= lo * 2^-%d", HIST_SUB_BITS);
	is_int(bad_mid, 0, "midpoint lies in its bucket, within 2^-%d of both ends",
	       HIST_SUB_BITS + 1);
	ok(hist_bucket_hi(HIST_LAST) == UINT64_MAX, "last bucket extends to UINT64_MAX");
	is_int(hist_bucket_lo(HIST_LAST), (uint64_t)(2 * HIST_SUB - 1) << (HIST_MAX_EXP - HIST_SUB_BITS - 1),
	       "last bucket's nominal start");
	is_int(hist_bucket((1ull << HIST_MAX_EXP) - 1), HIST_LAST, "2^%d - 1 is in the last bucket",
	       HIST_MAX_EXP);
}

static void test_exact_small(void)
{
	unsigned bad = 0;

	for (uint64_t v = 0; v < HIST_SUB; v++)
		if (hist_bucket(v) != v || hist_bucket_lo(v) != v || hist_bucket_hi(v) != v ||
		    hist_value_at(v) != v)
			bad++;
	is_int(bad, 0, "values below 2^%d have a bucket of their own", HIST_SUB_BITS);
	/* The layout actually keeps one more octave exact; nothing promises
	 * it, but the quantile tests below rely on small values being exact. */
	for (uint64_t v = HIST_SUB; v < 2 * HIST_SUB; v++)
		if (hist_bucket_lo(hist_bucket(v)) != v || hist_bucket_hi(hist_bucket(v)) != v)
			bad++;
	is_int(bad, 0, "values below 2^%d are exact", HIST_SUB_BITS + 1);
}

/* Random values of every magnitude, and the neighbours of each power of
 * two, land in a bucket that contains them, within the error bound. */
static void test_random_values(void)
{
	unsigned bad_range = 0, bad_bound = 0, bad_mono = 0, n = 0;
	struct rng r;

	rng_seed(&r, 1, 0);
	for (int i = 0; i < 200000; i++) {
		unsigned bits = (unsigned)rng_below(&r, 65);
		uint64_t v = bits == 64 ? rng_next(&r) : rng_next(&r) & ((1ull << bits) - 1);
		unsigned b = hist_bucket(v);

		n++;
		if (b > HIST_LAST || v < hist_bucket_lo(b) || v > hist_bucket_hi(b))
			bad_range++;
		if (v < (1ull << HIST_MAX_EXP) && !within_bound(hist_value_at(b), v))
			bad_bound++;
		if (v && hist_bucket(v - 1) > b)
			bad_mono++;
	}
	for (unsigned e = 1; e < 64; e++) {
		uint64_t p = 1ull << e;
		uint64_t around[] = { p - 2, p - 1, p, p + 1, p + 2 };

		for (unsigned k = 0; k < ARRAY_SIZE(around); k++) {
			uint64_t v = around[k];
			unsigned b = hist_bucket(v);

			n++;
			if (b > HIST_LAST || v < hist_bucket_lo(b) || v > hist_bucket_hi(b))
				bad_range++;
			if (v < (1ull << HIST_MAX_EXP) && !within_bound(hist_value_at(b), v))
				bad_bound++;
			if (v && hist_bucket(v - 1) > b)
				bad_mono++;
		}
	}
	is_int(bad_range, 0, "lo <= v <= hi for %u values", n);
	is_int(bad_bound, 0, "reported value within 2^-%d of v for %u values", HIST_SUB_BITS + 1, n);
	is_int(bad_mono, 0, "hist_bucket is monotone");
	is_int(hist_bucket(UINT64_MAX), HIST_LAST, "UINT64_MAX goes to the last bucket");
}

/* Small values are exact, so quantiles are exactly the ranks. */
static void test_quantile_exact(void)
{
	static const struct {
		double q;
		uint64_t want;
	} cases[] = {
		{ 0, 1 },	 { 0.001, 1 }, { 0.01, 1 },  { 0.0100001, 2 }, { 0.07, 7 },
		{ 0.5, 50 },	 { 0.9, 90 },  { 0.99, 99 }, { 0.991, 100 },	{ 0.999, 100 },
		{ 1, 100 },	 { 2, 100 },   { -1, 1 },    { NAN, 1 },
	};

	hist_init(&ha);
	for (uint64_t v = 100; v >= 1; v--)
		hist_add(&ha, v);
	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++)
		is_int(hist_quantile(&ha, cases[i].q), cases[i].want, "1..100: quantile(%g)",
		       cases[i].q);
	is_near(hist_mean(&ha), 50.5, 1e-12, "1..100: mean");
	is_int(ha.min, 1, "1..100: min");
	is_int(ha.max, 100, "1..100: max");
	is_int(ha.count, 100, "1..100: count");

	/* Rounding of q * count: 0.29 * 100 is 28.999999999999996 in binary
	 * and 0.07 * 100 is 7.000000000000001; both mean a whole rank. */
	hist_init(&ha);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_add(&ha, v * 2 % 509); /* with ties, all exact */
	uint64_t sorted[1000];
	for (uint64_t v = 1; v <= 1000; v++)
		sorted[v - 1] = v * 2 % 509;
	qsort(sorted, 1000, sizeof(sorted[0]), cmp_u64);
	unsigned bad = 0;
	for (unsigned k = 1; k <= 1000; k++) {
		/* q = k/1000 must select exactly the k-th smallest */
		if (hist_quantile(&ha, k / 1000.0) != sorted[k - 1])
			bad++;
		/* and a hair above it the next one */
		if (k < 1000 && hist_quantile(&ha, k / 1000.0 + 1e-9) != sorted[k])
			bad++;
	}
	is_int(bad, 0, "quantile(k/1000) is the k-th of 1000 exact values");
}

enum dist { D_LOGNORMAL, D_EXPONENTIAL, D_UNIFORM, D_GAMMA, D_WEIBULL, D_NORMAL_SMALL };

static uint64_t draw(struct rng *r, enum dist d)
{
	double x = 0;

	switch (d) {
	case D_LOGNORMAL: /* median 100 us, long tail */
		x = rng_lognormal(r, log(100000.0), 1.0);
		break;
	case D_EXPONENTIAL:
		x = rng_exponential(r, 2e6);
		break;
	case D_UNIFORM:
		x = rng_uniform(r, 0, 1e9);
		break;
	case D_GAMMA:
		x = rng_gamma(r, 0.5, 1e5);
		break;
	case D_WEIBULL:
		x = rng_weibull(r, 0.7, 5e4);
		break;
	case D_NORMAL_SMALL: /* mostly exact buckets, some not */
		x = fabs(rng_normal(r, 400, 150));
		break;
	}
	return (uint64_t)llround(x);
}

static void test_quantile_random(void)
{
	static const struct {
		enum dist d;
		const char *name;
		uint64_t seed;
	} dists[] = {
		{ D_LOGNORMAL, "lognormal", 11 }, { D_EXPONENTIAL, "exponential", 12 },
		{ D_UNIFORM, "uniform", 13 },	  { D_GAMMA, "gamma(0.5)", 14 },
		{ D_WEIBULL, "weibull(0.7)", 15 }, { D_NORMAL_SMALL, "|normal(400,150)|", 16 },
	};
	/* quantiles in units of 1/100000 */
	static const uint64_t qs[] = { 1, 1000, 25000, 50000, 90000, 99000, 99900, 99990, 99999 };

	for (unsigned i = 0; i < ARRAY_SIZE(dists); i++) {
		struct rng r;
		unsigned bad = 0;
		double worst = 0;

		rng_seed(&r, dists[i].seed, 0);
		hist_init(&ha);
		for (int k = 0; k < NSAMPLES; k++) {
			samples[k] = draw(&r, dists[i].d);
			hist_add(&ha, samples[k]);
		}
		qsort(samples, NSAMPLES, sizeof(samples[0]), cmp_u64);
		for (unsigned k = 0; k < ARRAY_SIZE(qs); k++) {
			/* rank = ceil(q * n), at least 1, in integers */
			uint64_t rank = (qs[k] * NSAMPLES + 99999) / 100000;
			uint64_t exact = samples[(rank ? rank : 1) - 1];
			uint64_t got = hist_quantile(&ha, qs[k] / 100000.0);
			double rel = exact ? (double)abs_diff(got, exact) / (double)exact : 0;

			if (rel > worst)
				worst = rel;
			if (!within_bound(got, exact)) {
				bad++;
				printf("#   %s p%g: got %llu, exact %llu (rel %.5f)\n", dists[i].name,
				       qs[k] / 1000.0, (unsigned long long)got,
				       (unsigned long long)exact, rel);
			}
		}
		is_int(bad, 0, "%s: %d samples, p0.001..p99.999 within 2^-%d (worst %.5f%%)",
		       dists[i].name, NSAMPLES, HIST_SUB_BITS + 1, worst * 100);
		ok(worst <= 0.01, "%s: within the 1%% the project promises", dists[i].name);
		is_int(hist_quantile(&ha, 0), samples[0], "%s: quantile(0) is the exact min",
		       dists[i].name);
		is_int(hist_quantile(&ha, 1), samples[NSAMPLES - 1],
		       "%s: quantile(1) is the exact max", dists[i].name);
		double sum = 0;
		for (int k = 0; k < NSAMPLES; k++)
			sum += (double)samples[k];
		is_near(hist_mean(&ha), sum / NSAMPLES, 1e-9 * sum / NSAMPLES, "%s: mean",
			dists[i].name);
	}
}

static void test_merge(void)
{
	struct rng r;
	unsigned diff = 0;

	rng_seed(&r, 21, 0);
	hist_init(&ha);
	hist_init(&hb);
	hist_init(&hu);
	for (int k = 0; k < NSAMPLES; k++) {
		uint64_t a = draw(&r, D_LOGNORMAL), b = draw(&r, D_UNIFORM) + 1000;

		hist_add(&ha, a);
		hist_add(&hb, b);
		hist_add(&hu, a);
		hist_add(&hu, b);
	}
	hist_add(&hb, UINT64_MAX); /* also merge the overflow bucket and max */
	hist_add(&hu, UINT64_MAX);
	hist_merge(&ha, &hb);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (ha.buckets[i] != hu.buckets[i])
			diff++;
	is_int(diff, 0, "merge: buckets equal those of the union");
	is_int(ha.count, hu.count, "merge: count");
	is_int(ha.min, hu.min, "merge: min");
	ok(ha.max == hu.max && ha.max == UINT64_MAX, "merge: max");
	is_near(ha.sum, hu.sum, 1e-12 * hu.sum, "merge: sum (up to rounding order)");
	for (unsigned q = 0; q <= 1000; q += 50)
		if (hist_quantile(&ha, q / 1000.0) != hist_quantile(&hu, q / 1000.0))
			diff++;
	is_int(diff, 0, "merge: quantiles equal those of the union");

	/* Empty on either side changes nothing. */
	hist_init(&hb);
	hist_merge(&ha, &hb);
	is_int(ha.count, hu.count, "merge of an empty histogram: count unchanged");
	is_int(ha.min, hu.min, "merge of an empty histogram: min unchanged");
	hist_merge(&hb, &ha);
	is_int(memcmp(&hb, &ha, sizeof(ha)), 0, "merge into an empty histogram copies it");
}

static void test_empty(void)
{
	hist_init(&ha);
	is_int(ha.count, 0, "empty: count 0");
	ok(ha.min == UINT64_MAX, "empty: min is UINT64_MAX");
	is_int(ha.max, 0, "empty: max 0");
	is_int(hist_quantile(&ha, 0), 0, "empty: quantile(0) is 0");
	is_int(hist_quantile(&ha, 0.5), 0, "empty: quantile(0.5) is 0");
	is_int(hist_quantile(&ha, 1), 0, "empty: quantile(1) is 0");
	is_near(hist_mean(&ha), 0, 0, "empty: mean 0");
	hist_init(&hb);
	hist_merge(&ha, &hb);
	ok(ha.count == 0 && ha.min == UINT64_MAX && ha.max == 0, "empty + empty is empty");
}

static void test_huge(void)
{
	static const uint64_t huge[] = { 1ull << HIST_MAX_EXP, (1ull << HIST_MAX_EXP) + 12345,
					 1ull << 60, UINT64_MAX - 1, UINT64_MAX };
	unsigned bad = 0;

	for (unsigned i = 0; i < ARRAY_SIZE(huge); i++)
		if (hist_bucket(huge[i]) != HIST_LAST)
			bad++;
	is_int(bad, 0, "values >= 2^%d go to the last bucket", HIST_MAX_EXP);

	hist_init(&ha);
	hist_add(&ha, 1ull << 50);
	is_int(ha.buckets[HIST_LAST], 1, "one huge value counted in the last bucket");
	ok(ha.min == 1ull << 50 && ha.max == 1ull << 50, "huge value: exact min and max");
	ok(hist_quantile(&ha, 0.5) == 1ull << 50, "single huge value: median is the value");

	hist_init(&ha);
	for (int i = 0; i < 999; i++)
		hist_add(&ha, 1000);
	hist_add(&ha, UINT64_MAX);
	ok(ha.max == UINT64_MAX, "max stays exact at UINT64_MAX");
	ok(hist_quantile(&ha, 1) == UINT64_MAX, "quantile(1) is the exact max");
	is_int(hist_quantile(&ha, 0.999), 1000, "p99.9 below the outlier is unaffected");
	uint64_t p = hist_quantile(&ha, 0.9999);
	ok(p >= hist_bucket_lo(HIST_LAST) && p <= UINT64_MAX,
	   "rank in the overflow bucket reports at least its nominal start (%llu)",
	   (unsigned long long)p);
	is_near(hist_mean(&ha), (999 * 1000.0 + 18446744073709551615.0) / 1000, 1e3,
		"mean includes the huge value");
}

int main(void)
{
	test_layout();
	test_exact_small();
	test_random_values();
	test_quantile_exact();
	test_quantile_random();
	test_merge();
	test_empty();
	test_huge();
	return done_testing();
}
