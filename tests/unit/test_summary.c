/* test_summary.c — unit tests for stats/summary.c. */
#include "stats/summary.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#include <limits.h>
#include <math.h>

#define Z975 1.959963984540054 /* standard normal 0.975 quantile */

static void add_all(struct summary *s, const double *x, size_t n)
{
	summary_init(s);
	for (size_t i = 0; i < n; i++)
		summary_add(s, x[i]);
}

static void test_hand_computed(void)
{
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	/* sum of squared deviations from 5 is 32: var = 32/7 */
	static const double offset[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	static const double neg[] = { -1, -2, -3 };
	struct summary s;

	add_all(&s, x, ARRAY_SIZE(x));
	is_int(s.n, 8, "n");
	is_near(s.mean, 5, 1e-15, "mean of 2 4 4 4 5 5 7 9");
	is_near(s.m2, 32, 1e-13, "m2");
	is_near(summary_var(&s), 32.0 / 7, 1e-14, "sample variance 32/7");
	is_near(summary_sd(&s), sqrt(32.0 / 7), 1e-14, "sd");
	is_near(summary_cv(&s), sqrt(32.0 / 7) / 5, 1e-14, "cv = sd / mean");
	is_near(s.min, 2, 0, "min");
	is_near(s.max, 9, 0, "max");
	is_near(summary_ci_half(&s, 0.95), 2.36462425159 * sqrt(32.0 / 7) / sqrt(8), 1e-9,
		"95%% CI half-width = t(7) sd / sqrt(n)");

	/* Welford keeps the digits that sum(x^2) - n mean^2 would lose. */
	add_all(&s, offset, ARRAY_SIZE(offset));
	is_near(s.mean, 1e9 + 10, 1e-6, "mean with a large offset");
	is_near(summary_var(&s), 30, 1e-6, "variance with a large offset: 90/3");

	add_all(&s, neg, ARRAY_SIZE(neg));
	is_near(summary_cv(&s), 1.0 / 2, 1e-15, "cv of negative data uses |mean|");

	summary_init(&s);
	is_int(s.n, 0, "empty: n 0");
	is_near(summary_var(&s), 0, 0, "empty: var 0");
	is_near(summary_sd(&s), 0, 0, "empty: sd 0");
	is_near(summary_cv(&s), 0, 0, "empty: cv 0");
	ok(isnan(summary_ci_half(&s, 0.95)), "empty: CI is NAN");
	summary_add(&s, 42);
	is_near(s.mean, 42, 0, "one value: mean");
	ok(s.min == 42 && s.max == 42, "one value: min = max = 42");
	is_near(summary_var(&s), 0, 0, "one value: var 0");
	ok(isnan(summary_ci_half(&s, 0.95)), "one value: CI is NAN");
	summary_add(&s, 42);
	is_near(summary_ci_half(&s, 0.95), 0, 0, "two equal values: CI half-width 0");

	summary_init(&s);
	summary_add(&s, -3);
	summary_add(&s, 3);
	is_near(summary_cv(&s), 0, 0, "mean 0: cv 0");
}

static void check_same(const struct summary *a, const struct summary *b, const char *what)
{
	ok(a->n == b->n && fabs(a->mean - b->mean) <= 1e-12 * fabs(b->mean) &&
		   fabs(a->m2 - b->m2) <= 1e-10 * b->m2 && a->min == b->min && a->max == b->max,
	   "%s equals sequential add", what);
	if (a->n != b->n || a->min != b->min || a->max != b->max)
		printf("#   n %llu/%llu min %g/%g max %g/%g\n", (unsigned long long)a->n,
		       (unsigned long long)b->n, a->min, b->min, a->max, b->max);
}

static void test_merge(void)
{
	static double x[1000];
	static const size_t splits[] = { 0, 1, 2, 500, 999, 1000 };
	struct summary all, a, b, parts[10], tree;
	struct rng r;

	rng_seed(&r, 7, 0);
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = rng_lognormal(&r, 3, 1) + (i < 300 ? 1000 : 0); /* groups differ */
	add_all(&all, x, ARRAY_SIZE(x));

	for (size_t k = 0; k < ARRAY_SIZE(splits); k++) {
		size_t m = splits[k];
		char what[64];

		add_all(&a, x, m);
		add_all(&b, x + m, ARRAY_SIZE(x) - m);
		summary_merge(&a, &b);
		snprintf(what, sizeof(what), "merge split at %zu", m);
		check_same(&a, &all, what);
	}

	/* Ten parts, merged pairwise as a tree (threads, then repeats). */
	for (int p = 0; p < 10; p++)
		add_all(&parts[p], x + 100 * p, 100);
	for (int step = 1; step < 10; step *= 2)
		for (int p = 0; p + step < 10; p += 2 * step)
			summary_merge(&parts[p], &parts[p + step]);
	tree = parts[0];
	check_same(&tree, &all, "tree merge of 10 parts");
	is_near(summary_var(&tree), summary_var(&all), 1e-10 * summary_var(&all),
		"tree merge: variance");

	summary_init(&a);
	summary_init(&b);
	summary_merge(&a, &b);
	ok(a.n == 0 && a.mean == 0 && a.m2 == 0, "empty + empty is empty");
}

static const struct {
	double conf;
	unsigned df;
	double t;
} t_table[] = {
	/* The values in every textbook's t table, to the digits printed there. */
	{ 0.95, 1, 12.706 },	{ 0.95, 2, 4.303 },   { 0.95, 4, 2.776 },   { 0.95, 9, 2.262 },
	{ 0.95, 30, 2.042 },	{ 0.95, 1000, 1.962 }, { 0.99, 5, 4.032 },  { 0.90, 10, 1.812 },
	/* Twelve digits from an independent arbitrary-precision inversion. */
	{ 0.90, 1, 6.31375151468 },   { 0.90, 2, 2.91998558035 },   { 0.90, 3, 2.3533634348 },
	{ 0.90, 5, 2.01504837333 },   { 0.90, 9, 1.83311293266 },   { 0.90, 29, 1.69912702653 },
	{ 0.90, 31, 1.69551878255 },  { 0.90, 120, 1.65765089936 }, { 0.90, 10000, 1.64500601807 },
	{ 0.95, 1, 12.7062047362 },   { 0.95, 2, 4.30265272975 },   { 0.95, 3, 3.18244630528 },
	{ 0.95, 4, 2.7764451052 },    { 0.95, 5, 2.57058183564 },   { 0.95, 6, 2.44691185114 },
	{ 0.95, 7, 2.36462425159 },   { 0.95, 9, 2.2621571628 },    { 0.95, 10, 2.22813885199 },
	{ 0.95, 15, 2.13144954556 },  { 0.95, 20, 2.08596344727 },  { 0.95, 29, 2.04522964213 },
	{ 0.95, 30, 2.0422724563 },   { 0.95, 31, 2.0395134464 },   { 0.95, 40, 2.02107539031 },
	{ 0.95, 60, 2.00029782201 },  { 0.95, 100, 1.98397151852 }, { 0.95, 1000, 1.96233908083 },
	{ 0.95, 10000, 1.96020123989 }, { 0.99, 1, 63.6567411629 }, { 0.99, 2, 9.92484320092 },
	{ 0.99, 3, 5.84090930973 },   { 0.99, 4, 4.60409487135 },   { 0.99, 5, 4.03214298356 },
	{ 0.99, 9, 3.24983554159 },   { 0.99, 10, 3.16927267262 },  { 0.99, 29, 2.75638590367 },
	{ 0.99, 30, 2.74999565357 },  { 0.99, 31, 2.74404191929 },  { 0.99, 60, 2.66028302886 },
	{ 0.99, 120, 2.61742114511 }, { 0.99, 1000, 2.58075469807 }, { 0.99, 10000, 2.57632104667 },
};

static void test_t_critical(void)
{
	unsigned bad = 0;
	double prev;

	for (size_t i = 0; i < ARRAY_SIZE(t_table); i++) {
		double got = t_critical(t_table[i].conf, t_table[i].df);
		double want = t_table[i].t;
		/* as many digits as the table gives: half a unit in the last one */
		double tol = i < 8 ? 0.0005 : 1e-9 * want;

		is_near(got, want, tol, "t_critical(%.2f, %u) = %.12g", t_table[i].conf,
			t_table[i].df, want);
	}

	/* Decreasing in df towards the normal value, across the switch to
	 * the asymptotic expansion at df = 1e5. */
	prev = INFINITY;
	for (unsigned df = 1; df <= 3000; df++) {
		double t = t_critical(0.95, df);

		if (!(t < prev && t > Z975))
			bad++;
		prev = t;
	}
	static const unsigned big[] = { 10000, 99998, 99999, 100000, 100001, 1000000, UINT_MAX };
	for (size_t i = 0; i < ARRAY_SIZE(big); i++) {
		double t = t_critical(0.95, big[i]);

		/* t - z = z (z^2 + 1) / (4 df) + O(df^-2) */
		if (!(t <= prev && t > Z975) ||
		    fabs((t - Z975) / (Z975 * (Z975 * Z975 + 1) / 4 / big[i]) - 1) > 3.0 / big[i] + 1e-4)
			bad++;
		prev = t;
	}
	is_int(bad, 0, "t_critical(0.95, df) decreases to 1.95996 for df 1..3000 and up to UINT_MAX");
	is_near(t_critical(0.95, UINT_MAX), Z975, 1e-9, "df = UINT_MAX: the normal value");

	ok(isnan(t_critical(0.95, 0)), "df 0: NAN");
	ok(isnan(t_critical(0, 5)), "conf 0: NAN");
	ok(isnan(t_critical(1, 5)), "conf 1: NAN");
	ok(isnan(t_critical(NAN, 5)), "conf NaN: NAN");
	is_near(t_critical(0.5, 1), 1, 1e-12, "t_critical(0.5, 1) = 1 (Cauchy quartile)");
}

static void test_t_cdf_quantile(void)
{
	static const double dfs[] = { 0.5, 1, 2, 3, 4.5, 7, 30, 1000, 99999, 1e5, 1e7, 1e9 };
	static const double ps[] = { 1e-12, 1e-6, 0.001, 0.025, 0.1, 0.3, 0.5, 0.6, 0.9, 0.975, 0.999 };
	unsigned bad_rt = 0, bad_sym = 0, bad_closed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dfs); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(ps); j++) {
			double df = dfs[i], p = ps[j], t = t_quantile(p, df);
			double back = t_cdf(t, df);
			/* relative to the smaller tail: 1e-12 of 1e-12 is what matters */
			double tail = p < 0.5 ? p : 1 - p;

			if (!(fabs(back - p) <= 1e-10 * tail + 1e-16)) {
				bad_rt++;
				printf("#   df %g p %g: t %.17g cdf %.17g\n", df, p, t, back);
			}
			/* 1 - (1 - p) is not p for tiny p: mirror what 1 - p rounds to */
			double q = 1 - p, tq = t_quantile(q, df), tp = t_quantile(1 - q, df);

			if (fabs(tq + tp) > 1e-9 * fabs(tp) + 1e-15 ||
			    fabs(t_cdf(-t, df) - q) > 1e-10 * tail + 2e-16) {
				bad_sym++;
				printf("#   df %g p %g: t(1-p) %.17g t(p) %.17g cdf(-t) %.17g\n", df,
				       p, tq, tp, t_cdf(-t, df));
			}
		}
	}
	is_int(bad_rt, 0, "t_cdf(t_quantile(p, df), df) = p, df 0.5..1e9, p 1e-12..0.999");
	is_int(bad_sym, 0, "t is symmetric about 0");

	/* Closed forms: df 1 is Cauchy, df 2 is algebraic. */
	for (double t = -50; t <= 50; t += 0.37) {
		if (fabs(t_cdf(t, 1) - (0.5 + atan(t) / M_PI)) > 1e-13)
			bad_closed++;
		if (fabs(t_cdf(t, 2) - (0.5 + t / (2 * sqrt(2 + t * t)))) > 1e-13)
			bad_closed++;
	}
	for (double p = 0.01; p < 1; p += 0.01) {
		double c1 = tan(M_PI * (p - 0.5)), c2 = (2 * p - 1) / sqrt(2 * p * (1 - p));

		if (fabs(t_quantile(p, 1) - c1) > 1e-11 * (1 + fabs(c1)))
			bad_closed++;
		if (fabs(t_quantile(p, 2) - c2) > 1e-11 * (1 + fabs(c2)))
			bad_closed++;
	}
	is_int(bad_closed, 0, "df 1 and 2 match their closed forms");

	is_near(t_cdf(0, 5), 0.5, 0, "t_cdf(0) = 1/2");
	is_near(t_cdf(1.96, INFINITY), 0.9750021048517795, 1e-15, "df = inf is the normal");
	is_near(t_quantile(0.975, INFINITY), Z975, 1e-14, "quantile with df = inf");
	ok(t_quantile(0, 3) == -INFINITY && t_quantile(1, 3) == INFINITY, "p 0 and 1: -+inf");
	ok(t_cdf(INFINITY, 3) == 1 && t_cdf(-INFINITY, 3) == 0, "t = -+inf: 0 and 1");
	ok(isnan(t_quantile(0.5, 0)) && isnan(t_quantile(0.5, -1)) && isnan(t_quantile(1.5, 3)) &&
		   isnan(t_quantile(NAN, 3)),
	   "t_quantile: bad arguments give NAN");
	ok(isnan(t_cdf(1, 0)) && isnan(t_cdf(NAN, 3)) && isnan(t_cdf(1, NAN)),
	   "t_cdf: bad arguments give NAN");
}

/*
 * Does the interval do its job?  Draw samples of 5 from a normal with a
 * known mean and count how often mean +- half-width covers it.  With the
 * fixed seed the count is deterministic; the windows are four or more
 * binomial standard deviations wide, so any seed would pass too.
 */
static void test_coverage(void)
{
	static const struct {
		double conf, lo, hi;
	} levels[] = { { 0.90, 0.88, 0.92 }, { 0.95, 0.93, 0.97 }, { 0.99, 0.98, 1.0 } };
	const int trials = 4000, n = 5;
	const double mu = 10, sigma = 3;

	for (size_t l = 0; l < ARRAY_SIZE(levels); l++) {
		struct rng r;
		int covered = 0, covered_z = 0;

		rng_seed(&r, 2024, l);
		for (int k = 0; k < trials; k++) {
			struct summary s;

			summary_init(&s);
			for (int i = 0; i < n; i++)
				summary_add(&s, rng_normal(&r, mu, sigma));
			if (fabs(s.mean - mu) <= summary_ci_half(&s, levels[l].conf))
				covered++;
			/* the normal quantile in place of t: too narrow for n = 5 */
			if (fabs(s.mean - mu) <=
			    t_quantile(0.5 + levels[l].conf / 2, INFINITY) * summary_sd(&s) / sqrt(n))
				covered_z++;
		}
		double c = (double)covered / trials, cz = (double)covered_z / trials;

		ok(c >= levels[l].lo && c <= levels[l].hi,
		   "%.0f%% CI from samples of %d covers the mean in %.2f%% of %d trials",
		   levels[l].conf * 100, n, c * 100, trials);
		ok(cz < levels[l].conf - 0.02,
		   "the same interval with the normal quantile covers only %.2f%%", cz * 100);
	}
}

int main(void)
{
	test_hand_computed();
	test_merge();
	test_t_critical();
	test_t_cdf_quantile();
	test_coverage();
	return done_testing();
}
