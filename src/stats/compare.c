/* compare.c — ratio, interval and significance of two samples; see compare.h. */
#include "stats/compare.h"

#include <errno.h>
#include <math.h>

int compare_welch(const struct summary *a, const struct summary *b, double *t, double *df,
		  double *p)
{
	double va, vb, se2, d;

	if (a->n < 2 || b->n < 2)
		return -EINVAL;
	va = summary_var(a) / (double)a->n;
	vb = summary_var(b) / (double)b->n;
	se2 = va + vb;
	d = b->mean - a->mean;
	if (!(se2 > 0)) {
		/* Both sides constant (a deterministic figure, or the null
		 * engine): the data leave no doubt either way. */
		*df = (double)(a->n + b->n - 2);
		*t = d == 0 ? 0 : copysign(INFINITY, d);
		*p = d == 0 ? 1 : 0;
		return 0;
	}
	/* Welch-Satterthwaite degrees of freedom. */
	*df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	*t = d / sqrt(se2);
	*p = 2 * t_cdf(-fabs(*t), *df);
	if (*p > 1)
		*p = 1;
	return 0;
}

static void summarize(struct summary *s, const double *x, size_t n, int logs)
{
	summary_init(s);
	for (size_t i = 0; i < n; i++)
		summary_add(s, logs ? log(x[i]) : x[i]);
}

static int all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

static int all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/* B's mean over A's: 1 when both are 0, NAN when only A's is (no ratio). */
static double ratio_of(double b, double a)
{
	if (a == 0)
		return b == 0 ? 1 : NAN;
	return b / a;
}

int compare_samples(const double *a, size_t na, const double *b, size_t nb, double conf,
		    struct compare_stat *st)
{
	struct summary sa, sb;
	double alpha = 1 - conf, se, q;

	if (!na || !nb || !(conf > 0 && conf < 1) || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	st->ci_lo = st->ci_hi = NAN;
	st->t = st->df = st->p = NAN;
	st->significant = -1;

	summarize(&sa, a, na, 0);
	summarize(&sb, b, nb, 0);
	st->ratio = ratio_of(sb.mean, sa.mean);
	if (!isfinite(st->ratio)) {
		/* No ratio to qualify: a p-value or a verdict would answer a
		 * question the row does not ask. */
		st->method = COMPARE_NONE;
		return 0;
	}
	if (na < 2 || nb < 2) {
		st->method = COMPARE_SINGLE;
		return 0;
	}
	if (!all_positive(a, na) || !all_positive(b, nb)) {
		/* No logarithm of 0: the means themselves are tested. */
		st->method = COMPARE_RAW_WELCH;
		compare_welch(&sa, &sb, &st->t, &st->df, &st->p);
		st->significant = st->p < alpha;
		return 0;
	}
	summarize(&sa, a, na, 1);
	summarize(&sb, b, nb, 1);
	st->method = COMPARE_LOG_WELCH;
	st->ratio = exp(sb.mean - sa.mean);
	compare_welch(&sa, &sb, &st->t, &st->df, &st->p);
	st->significant = st->p < alpha;
	se = sqrt(summary_var(&sa) / (double)sa.n + summary_var(&sb) / (double)sb.n);
	if (se > 0) {
		q = t_quantile(1 - alpha / 2, st->df);
		st->ci_lo = exp(sb.mean - sa.mean - q * se);
		st->ci_hi = exp(sb.mean - sa.mean + q * se);
	} else {
		st->ci_lo = st->ci_hi = st->ratio;
	}
	return 0;
}
