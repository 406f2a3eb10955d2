/* test_compare.c — unit tests for stats/compare.c. */
#include "stats/compare.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>

#define MAXN 16

static void draw_lognormal(struct rng *r, double *x, size_t n, double mu, double sigma)
{
	for (size_t i = 0; i < n; i++)
		x[i] = rng_lognormal(r, mu, sigma);
}

static void test_welch_hand_computed(void)
{
	/* A: mean 3, var 2.5; B: mean 7, var 10; n = 5 each.
	 * se^2 = 2.5/5 + 10/5 = 2.5, t = 4 / sqrt(2.5),
	 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625,
	 * p = 0.0454646 (numerical integration of the t density). */
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 5, 7, 9, 11 };
	struct summary sa, sb;
	double t, df, p;

	summary_init(&sa);
	summary_init(&sb);
	for (size_t i = 0; i < 5; i++) {
		summary_add(&sa, a[i]);
		summary_add(&sb, b[i]);
	}
	is_int(compare_welch(&sa, &sb, &t, &df, &p), 0, "welch: returns 0");
	is_near(t, 4 / sqrt(2.5), 1e-12, "welch: t = 4/sqrt(2.5)");
	is_near(df, 6.25 / 1.0625, 1e-12, "welch: Welch-Satterthwaite df");
	is_near(p, 0.0454646190, 1e-7, "welch: two-sided p");
	compare_welch(&sb, &sa, &t, &df, &p);
	is_near(t, -4 / sqrt(2.5), 1e-12, "welch: swapping sides negates t");
	is_near(p, 0.0454646190, 1e-7, "welch: and keeps p");

	summary_init(&sa);
	summary_add(&sa, 1);
	is_int(compare_welch(&sa, &sb, &t, &df, &p), -EINVAL, "welch: one value is refused");
}

static void test_edge_cases(void)
{
	static const double one[] = { 100 }, two[] = { 100, 100 }, three[] = { 200, 200, 200 };
	static const double a[] = { 10, 11, 12 }, zeros[] = { 0, 0, 0 }, mixed[] = { 0, 1, 2 };
	static const double half[] = { 0, 1 };
	static const double bad[] = { 1, NAN };
	struct compare_stat st;

	is_int(compare_samples(one, 1, three, 3, 0.95, &st), 0, "single baseline sample: ok");
	is_int(st.method, COMPARE_SINGLE, "single baseline sample: single method");
	is_near(st.ratio, 2, 1e-15, "single baseline sample: ratio of means");
	is_int(st.significant, -1, "single baseline sample: never claims significance");
	ok(isnan(st.p) && isnan(st.ci_lo) && isnan(st.ci_hi), "single sample: no p, no interval");

	compare_samples(three, 3, one, 1, 0.95, &st);
	is_int(st.significant, -1, "single other sample: cannot tell");
	is_near(st.ratio, 0.5, 1e-15, "single other sample: ratio 0.5");

	compare_samples(two, 2, three, 3, 0.95, &st);
	is_int(st.method, COMPARE_LOG_WELCH, "constant sides: log Welch");
	is_near(st.ratio, 2, 1e-12, "constant sides: ratio 2");
	is_int(st.significant, 1, "constant different sides: significant");
	is_near(st.ci_lo, 2, 1e-12, "constant sides: degenerate interval (lo)");
	is_near(st.ci_hi, 2, 1e-12, "constant sides: degenerate interval (hi)");

	compare_samples(a, 3, a, 3, 0.95, &st);
	is_near(st.ratio, 1, 1e-15, "identical samples: ratio 1");
	is_near(st.p, 1, 1e-12, "identical samples: p = 1");
	is_int(st.significant, 0, "identical samples: not significant");
	ok(st.ci_lo < 1 && st.ci_hi > 1, "identical samples: interval contains 1");

	compare_samples(zeros, 3, zeros, 3, 0.95, &st);
	is_int(st.method, COMPARE_RAW_WELCH, "zeros: raw Welch");
	is_near(st.ratio, 1, 0, "zeros vs zeros: ratio 1");
	is_int(st.significant, 0, "zeros vs zeros: not significant");
	ok(isnan(st.ci_lo), "zeros: no interval");

	compare_samples(zeros, 3, mixed, 3, 0.95, &st);
	ok(isnan(st.ratio), "zero baseline, nonzero other: ratio undefined");
	is_int(st.method, COMPARE_NONE, "zero baseline: no method");
	ok(isnan(st.p) && isnan(st.ci_lo) && isnan(st.ci_hi), "zero baseline: no p, no interval");
	is_int(st.significant, -1, "zero baseline: no verdict");
	compare_samples(zeros, 2, half, 2, 0.95, &st);
	ok(isnan(st.p) && st.significant == -1, "0,0 vs 0,1 (was p = 0.5, ns): no p, no verdict");
	compare_samples(zeros, 1, mixed + 1, 1, 0.95, &st);
	is_int(st.method, COMPARE_NONE, "zero single baseline: no method either");

	compare_samples(mixed + 1, 2, mixed, 3, 0.95, &st);
	is_int(st.method, COMPARE_RAW_WELCH, "a zero in B, baseline > 0: raw Welch");
	is_near(st.ratio, 1 / 1.5, 1e-12, "raw Welch: ratio of the means");
	ok(isfinite(st.p) && st.significant == 0 && isnan(st.ci_lo), "raw Welch: p, no interval");

	is_int(compare_samples(a, 0, a, 3, 0.95, &st), -EINVAL, "empty side refused");
	is_int(compare_samples(a, 3, bad, 2, 0.95, &st), -EINVAL, "NaN refused");
	is_int(compare_samples(a, 3, a, 3, 1.0, &st), -EINVAL, "conf 1 refused");
}

static void test_clear_shift(void)
{
	struct rng r;
	double a[5], b[5];
	struct compare_stat st;

	rng_seed(&r, 7, 0);
	/* 50% faster with 2% noise: unmistakable. */
	draw_lognormal(&r, a, 5, log(1000), 0.02);
	draw_lognormal(&r, b, 5, log(1500), 0.02);
	compare_samples(a, 5, b, 5, 0.95, &st);
	is_int(st.significant, 1, "clear shift: significant");
	ok(st.p < 1e-6, "clear shift: p < 1e-6 (p = %g)", st.p);
	ok(st.ci_lo < 1.5 && st.ci_hi > 1.5, "clear shift: interval [%.4f, %.4f] holds 1.5", st.ci_lo,
	   st.ci_hi);
	ok(st.ci_lo <= st.ratio && st.ratio <= st.ci_hi, "clear shift: ratio inside its interval");
	ok(st.ci_lo > 1, "clear shift: interval excludes 1");

	/* The log scale makes the test symmetric: B vs A inverts A vs B. */
	{
		struct compare_stat inv;

		compare_samples(b, 5, a, 5, 0.95, &inv);
		is_near(inv.ratio, 1 / st.ratio, 1e-12, "swap: ratio inverts");
		is_near(inv.ci_lo, 1 / st.ci_hi, 1e-12, "swap: interval inverts");
		is_near(inv.p, st.p, 1e-15, "swap: same p");
	}

	/* Scale invariance: ms or us, ops/s or ops/min, same verdict. */
	{
		struct compare_stat sc;
		double a2[5], b2[5];

		for (int i = 0; i < 5; i++) {
			a2[i] = a[i] * 60;
			b2[i] = b[i] * 60;
		}
		compare_samples(a2, 5, b2, 5, 0.95, &sc);
		is_near(sc.p, st.p, 1e-12, "scale: same p");
		is_near(sc.ratio, st.ratio, 1e-12, "scale: same ratio");
	}
}

/*
 * With A and B drawn from the same distribution, a test at the 5% level
 * must say "significant" about 5% of the time, no more; and whatever the
 * true ratio, the 95% interval must hold it about 95% of the time.  Log
 * values of log-normal samples are exactly normal, so Welch's test is
 * (close to) exact here; unequal variances and sample sizes exercise the
 * Welch-Satterthwaite correction.
 */
static void test_simulation(void)
{
	static const struct {
		size_t na, nb;
		double sa, sb, true_ratio;
		double cov_hi, fp_lo; /* n = 2 is conservative: df is between 1 and 2 */
	} cases[] = {
		{ 5, 5, 0.05, 0.05, 1.0, 0.97, 0.03 },	{ 3, 3, 0.10, 0.10, 1.3, 0.97, 0.03 },
		{ 10, 4, 0.02, 0.15, 0.8, 0.97, 0.03 }, { 8, 8, 0.30, 0.10, 2.0, 0.97, 0.03 },
		{ 2, 2, 0.05, 0.05, 1.1, 0.99, 0.01 },
	};
	const int trials = 4000;
	struct rng r;

	rng_seed(&r, 20240607, 1);
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		double a[MAXN], b[MAXN];
		int covered = 0, same_signif = 0, agree = 1;

		for (int t = 0; t < trials; t++) {
			struct compare_stat st;

			draw_lognormal(&r, a, cases[c].na, log(1000), cases[c].sa);
			draw_lognormal(&r, b, cases[c].nb, log(1000 * cases[c].true_ratio),
				       cases[c].sb);
			compare_samples(a, cases[c].na, b, cases[c].nb, 0.95, &st);
			covered += st.ci_lo <= cases[c].true_ratio && cases[c].true_ratio <= st.ci_hi;
			/* Significance and "the interval excludes 1" agree. */
			if ((st.significant == 1) != (st.ci_lo > 1 || st.ci_hi < 1))
				agree = 0;

			/* Same distribution on both sides: the false-positive rate. */
			draw_lognormal(&r, b, cases[c].nb, log(1000), cases[c].sa);
			compare_samples(a, cases[c].na, b, cases[c].nb, 0.95, &st);
			same_signif += st.significant == 1;
		}
		double cov = (double)covered / trials, fp = (double)same_signif / trials;

		/* Binomial sd of a 95% rate over 4000 trials is 0.0034. */
		ok(cov > 0.93 && cov < cases[c].cov_hi,
		   "n=%zu/%zu sd=%.2f/%.2f ratio %.1f: CI coverage %.3f ~ 0.95", cases[c].na,
		   cases[c].nb, cases[c].sa, cases[c].sb, cases[c].true_ratio, cov);
		ok(fp > cases[c].fp_lo && fp < 0.07,
		   "n=%zu/%zu: identical distributions significant %.3f ~ 0.05", cases[c].na,
		   cases[c].nb, fp);
		ok(agree, "n=%zu/%zu: significant <=> interval excludes 1", cases[c].na, cases[c].nb);
	}
}

int main(void)
{
	test_welch_hand_computed();
	test_edge_cases();
	test_clear_shift();
	test_simulation();
	return done_testing();
}
