/* summary.c — running mean/variance and Student-t intervals; see summary.h. */
#include "stats/summary.h"

#include <float.h>
#include <math.h>

/*
 * An empty summary keeps min = max = 0 rather than +-infinity: these
 * fields go straight into JSON and text output, where "inf" is not a
 * number.  n says whether they mean anything.
 */
void summary_init(struct summary *s)
{
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
	s->min = 0;
	s->max = 0;
}

void summary_add(struct summary *s, double x)
{
	double d;

	/* Welford: updating the mean first and multiplying the old and new
	 * deviations avoids the cancellation of sum(x^2) - n*mean^2. */
	s->n++;
	d = x - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (x - s->mean);
	if (s->n == 1 || x < s->min)
		s->min = x;
	if (s->n == 1 || x > s->max)
		s->max = x;
}

void summary_merge(struct summary *a, const struct summary *b)
{
	double na, nb, n, d;

	if (!b->n)
		return;
	if (!a->n) {
		*a = *b;
		return;
	}
	/* Chan, Golub and LeVeque: combine means weighted by counts, and add
	 * the between-group term to the within-group sums of squares. */
	na = (double)a->n;
	nb = (double)b->n;
	n = na + nb;
	d = b->mean - a->mean;
	a->mean += d * (nb / n);
	a->m2 += b->m2 + d * d * (na * nb / n);
	a->n += b->n;
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
}

double summary_var(const struct summary *s)
{
	if (s->n < 2)
		return 0;
	/* m2 can come out a hair below 0 only through rounding in merge. */
	return s->m2 > 0 ? s->m2 / (double)(s->n - 1) : 0;
}

double summary_sd(const struct summary *s)
{
	return sqrt(summary_var(s));
}

double summary_cv(const struct summary *s)
{
	if (s->mean == 0)
		return 0;
	/* |mean|: a spread is never negative, whatever the sign of the data. */
	return summary_sd(s) / fabs(s->mean);
}

/* --- Student t ------------------------------------------------------------ */

/*
 * The two-sided tail of Student's t is a regularized incomplete beta
 * function:  P(|T| > t) = I_x(df/2, 1/2)  with  x = df / (df + t^2).
 * I_x(a, b) is evaluated by its continued fraction (modified Lentz), which
 * converges quickly for x < (a + 1) / (a + b + 2); above that the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) is used.  The symmetric branch is only
 * taken when the tail is large (|t| small), so the subtraction never
 * cancels a tiny tail away.
 */

#define CF_MAX_ITER 100000
#define CF_TINY 1e-300

/* ln(Gamma(a + 1/2) / Gamma(a)) for a > 0.  For large a the difference of
 * two lgamma() values (each ~ a ln a) would lose digits, so use the
 * asymptotic series there: 1/2 ln a - 1/(8a) + 1/(192a^3) - 1/(640a^5). */
static double ln_gamma_half_ratio(double a)
{
	int sg;

	if (a >= 1000) {
		double r = 1 / a, r2 = r * r;

		return 0.5 * log(a) - r / 8 + r * r2 / 192 - r * r2 * r2 / 640;
	}
	return lgamma_r(a + 0.5, &sg) - lgamma_r(a, &sg); /* reentrant: no signgam */
}

/* Continued fraction of I_x(a, b), without the front factor. */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d, f, num, delta;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m;

		/* even step */
		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		f *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1) < 4 * DBL_EPSILON)
			break;
	}
	return f;
}

/*
 * P(|T| > t) for t >= 0.  x and 1 - x are passed as their logarithms,
 * computed from t^2/df without forming 1 - x by subtraction.
 */
static double t_tail2(double t, double df)
{
	double a = df / 2, tt = t * t, u, x, y, lnx, lny, ln_beta;

	if (t == 0)
		return 1;
	if (isinf(t))
		return 0;
	u = tt / df;			 /* (1 - x) / x */
	x = 1 / (1 + u);		 /* df / (df + t^2) */
	y = u / (1 + u);		 /* t^2 / (df + t^2) = 1 - x */
	lnx = -log1p(u);
	lny = log(u) - log1p(u);
	if (isinf(u)) {			 /* t^2 overflowed: far in the tail */
		lny = 0;
		lnx = log(df) - 2 * log(t);
		x = exp(lnx);
		y = 1;
	}
	/* ln B(a, 1/2) = ln Gamma(1/2) - ln(Gamma(a + 1/2) / Gamma(a)) */
	ln_beta = 0.5 * log(M_PI) - ln_gamma_half_ratio(a);
	if (x < (a + 1) / (a + 2.5))
		return exp(a * lnx + 0.5 * lny - ln_beta) * beta_cf(a, 0.5, x) / a;
	return 1 - exp(a * lnx + 0.5 * lny - ln_beta) * beta_cf(0.5, a, y) / 0.5;
}

/* Density of Student's t. */
static double t_pdf(double t, double df)
{
	double ln_c = ln_gamma_half_ratio(df / 2) - 0.5 * log(df * M_PI);

	return exp(ln_c - (df + 1) / 2 * log1p(t * t / df));
}

/* Upper quantile of the standard normal: z with P(Z > z) = alpha, for
 * alpha in (0, 1/2].  A rational start (Abramowitz and Stegun 26.2.23,
 * |error| < 4.5e-4) polished by Newton steps on erfc(). */
static double normal_upper(double alpha)
{
	double w = sqrt(-2 * log(alpha));
	double z = w - (2.515517 + w * (0.802853 + w * 0.010328)) /
			       (1 + w * (1.432788 + w * (0.189269 + w * 0.001308)));

	for (int i = 0; i < 4; i++) {
		double pdf = exp(-0.5 * z * z) / sqrt(2 * M_PI);

		if (pdf == 0)
			break;
		z += (0.5 * erfc(z / M_SQRT2) - alpha) / pdf;
	}
	return z > 0 ? z : 0;
}

/* Cornish-Fisher expansion of the t quantile in powers of 1/df around
 * the normal one (Abramowitz and Stegun 26.7.5).  Its error falls like
 * df^-5: below 1e-7 at df = 30, negligible for df >= 1e5. */
static double t_cornish_fisher(double z, double df)
{
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/* d/dz of t_cornish_fisher(z, df). */
static double t_cornish_fisher_dz(double z, double df)
{
	double z2 = z * z, z4 = z2 * z2, z6 = z4 * z2, z8 = z6 * z2;
	double d1 = (3 * z2 + 1) / 4;
	double d2 = (25 * z4 + 48 * z2 + 3) / 96;
	double d3 = (21 * z6 + 95 * z4 + 51 * z2 - 15) / 384;
	double d4 = (711 * z8 + 5432 * z6 + 7410 * z4 - 5760 * z2 - 945) / 92160;

	return 1 + (d1 + (d2 + (d3 + d4 / df) / df) / df) / df;
}

double t_cdf(double t, double df)
{
	double half, z;

	if (isnan(t) || isnan(df) || !(df > 0))
		return NAN;
	if (isinf(df))
		return 0.5 * erfc(-t / M_SQRT2);
	if (df >= 1e5 && t * t <= df) {
		/*
		 * Here x = df / (df + t^2) sits so close to 1 that its rounding
		 * alone costs the incomplete beta about df * 1e-16 of relative
		 * accuracy.  Instead solve Cornish-Fisher for the normal z that
		 * maps to t (Newton; the map is within t^2/df of the identity)
		 * and take the normal distribution function there.
		 */
		z = t;
		for (int i = 0; i < 50; i++) {
			double step = (t_cornish_fisher(z, df) - t) / t_cornish_fisher_dz(z, df);

			z -= step;
			if (fabs(step) <= 1e-16 * fabs(z))
				break;
		}
		return 0.5 * erfc(-z / M_SQRT2);
	}
	half = 0.5 * t_tail2(fabs(t), df);
	return t < 0 ? half : 1 - half;
}

/*
 * t with P(T > t) = alpha, alpha in (0, 1/2).  Safeguarded Newton on
 * P(T > t) - alpha, started from Cornish-Fisher: two or three steps for
 * moderate df; the bracket [lo, hi] falls back to bisection where Newton
 * would leave it (small df, far tails, where the start is poor).
 */
static double t_upper(double alpha, double df)
{
	double z = normal_upper(alpha), t, lo = 0, hi;

	if (df >= 1e5)
		return t_cornish_fisher(z, df);
	t = t_cornish_fisher(z, df);
	/* Bracket: tail(lo) >= alpha > tail(hi). */
	hi = t > 1 ? t : 1;
	while (0.5 * t_tail2(hi, df) > alpha && hi < 1e300)
		hi *= 4;
	if (!(t > lo && t < hi))
		t = 0.5 * (lo + hi);
	for (int i = 0; i < 300; i++) {
		double f = 0.5 * t_tail2(t, df) - alpha, pdf, next;

		if (f > 0)
			lo = t;
		else
			hi = t;
		pdf = t_pdf(t, df);
		next = pdf > 0 ? t + f / pdf : NAN;
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - t) <= 1e-14 * next || hi - lo <= 1e-15 * hi)
			return next;
		t = next;
	}
	return t;
}

double t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || !(df > 0) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (isinf(df))
		return p > 0.5 ? normal_upper(1 - p) : -normal_upper(p);
	return p > 0.5 ? t_upper(1 - p, df) : -t_upper(p, df);
}

double t_critical(double conf, unsigned df)
{
	if (!(conf > 0 && conf < 1) || df < 1)
		return NAN;
	/* Two-sided: each tail holds (1 - conf) / 2.  Passing the tail rather
	 * than (1 + conf) / 2 keeps its digits. */
	return t_upper((1 - conf) / 2, df);
}

double summary_ci_half(const struct summary *s, double conf)
{
	if (s->n < 2)
		return NAN;
	return t_critical(conf, (unsigned)(s->n - 1 > UINT32_MAX ? UINT32_MAX : s->n - 1)) *
	       summary_sd(s) / sqrt((double)s->n);
}
