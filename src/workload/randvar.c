/*
 * randvar.c — sampling random variables with filebench's semantics.
 *
 * Two families share struct randvar (see workload.h):
 *
 *  - randvar (`define randvar` / `set $x = randvar(...)`): as filebench's
 *    randvar types.  gamma draws Gamma(shape, (mean - min) / shape) and
 *    adds min, so `mean` is the mean of the result and min is an offset;
 *    uniform spans [min, 2 * mean - min] so that its mean is `mean` (or
 *    [min, max] when only max is given, our extension); tabular picks a
 *    row by its weight and draws uniformly in [lo, hi].
 *  - cvar (`cvar(type=cvar-gamma, parameters=mean:16384;gamma:1.5)`): as
 *    filebench's cvar library, with the library's parameters; min and max
 *    only clamp.
 *
 * Then, for both: round to the nearest multiple of `round`, clamp to
 * [min, max] (max only when it is above min), and never below 0.
 */
#include "workload/internal.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

static double table_sample(const struct randvar *rv, struct rng *r)
{
	double total = 0, u;

	for (size_t i = 0; i < rv->ntable; i++)
		total += rv->table[i].pct;
	if (rv->ntable == 0 || total <= 0)
		return 0;
	u = rng_double(r) * total;
	for (size_t i = 0; i < rv->ntable; i++) {
		const struct rv_bucket *b = &rv->table[i];

		if (u < b->pct || i == rv->ntable - 1)
			return b->hi > b->lo ? rng_uniform(r, b->lo, b->hi) : b->lo;
		u -= b->pct;
	}
	return 0; /* not reached */
}

static double triangular_sample(const struct randvar *rv, struct rng *r)
{
	double lo = rv->lower, hi = rv->upper, mode = rv->mode, u;

	if (hi <= lo)
		return lo;
	u = rng_double(r);
	if (u < (mode - lo) / (hi - lo))
		return lo + sqrt(u * (hi - lo) * (mode - lo));
	return hi - sqrt((1 - u) * (hi - lo) * (hi - mode));
}

static double finish(const struct randvar *rv, double x)
{
	if (!isfinite(x))
		x = rv->min;
	if (rv->round > 0)
		x = round(x / rv->round) * rv->round;
	if (x < rv->min)
		x = rv->min;
	if (rv->max > rv->min && x > rv->max)
		x = rv->max;
	return x < 0 ? 0 : x;
}

double randvar_sample(const struct randvar *rv, struct rng *r)
{
	double x = 0;

	switch (rv->type) {
	case RV_UNIFORM:
		if (rv->cvar)
			x = rng_uniform(r, rv->lower, rv->upper);
		else if (rv->mean > 0)
			x = 2 * rv->mean - rv->min > rv->min ?
				    rng_uniform(r, rv->min, 2 * rv->mean - rv->min) :
				    rv->min;
		else if (rv->max > rv->min)
			x = rng_uniform(r, rv->min, rv->max);
		else
			x = rv->min;
		break;
	case RV_GAMMA:
		if (rv->gamma <= 0)
			x = rv->mean;
		else if (rv->cvar)
			x = rng_gamma(r, rv->gamma, rv->mean / rv->gamma);
		else
			x = rv->min + rng_gamma(r, rv->gamma, (rv->mean - rv->min) / rv->gamma);
		break;
	case RV_TABULAR:
		x = table_sample(rv, r);
		break;
	case RV_EXPONENTIAL:
		x = rng_exponential(r, rv->mean);
		break;
	case RV_NORMAL:
		x = rng_normal(r, rv->mean, rv->sigma);
		break;
	case RV_LOGNORMAL:
		/* The cvar library's lognormal is exp(Normal(scale, shape)). */
		x = rng_lognormal(r, rv->scale, rv->shape);
		break;
	case RV_WEIBULL:
		x = rv->shape > 0 ? rng_weibull(r, rv->shape, rv->scale) : 0;
		break;
	case RV_TRIANGULAR:
		x = triangular_sample(rv, r);
		break;
	}
	return finish(rv, x);
}

double randvar_mean(const struct randvar *rv)
{
	double m = 0, total = 0;

	switch (rv->type) {
	case RV_UNIFORM:
		if (rv->cvar)
			m = (rv->lower + rv->upper) / 2;
		else if (rv->mean > 0)
			m = rv->mean;
		else if (rv->max > rv->min)
			m = (rv->min + rv->max) / 2;
		else
			m = rv->min;
		break;
	case RV_GAMMA:
	case RV_EXPONENTIAL:
	case RV_NORMAL:
		m = rv->mean;
		break;
	case RV_TABULAR:
		for (size_t i = 0; i < rv->ntable; i++) {
			m += rv->table[i].pct * (rv->table[i].lo + rv->table[i].hi) / 2;
			total += rv->table[i].pct;
		}
		m = total > 0 ? m / total : 0;
		break;
	case RV_LOGNORMAL:
		m = exp(rv->scale + rv->shape * rv->shape / 2);
		break;
	case RV_WEIBULL:
		m = rv->shape > 0 ? rv->scale * tgamma(1 + 1 / rv->shape) : 0;
		break;
	case RV_TRIANGULAR:
		m = (rv->lower + rv->upper + rv->mode) / 3;
		break;
	}
	/* Clamping moves the true mean too; this is the usual approximation. */
	if (!isfinite(m))
		m = rv->min;
	if (m < rv->min)
		m = rv->min;
	if (rv->max > rv->min && m > rv->max)
		m = rv->max;
	return m < 0 ? 0 : m;
}

static const char *const rv_type_names[] = {
	[RV_UNIFORM] = "uniform",	  [RV_GAMMA] = "gamma",
	[RV_TABULAR] = "tabular",	  [RV_EXPONENTIAL] = "exponential",
	[RV_NORMAL] = "normal",		  [RV_LOGNORMAL] = "lognormal",
	[RV_WEIBULL] = "weibull",	  [RV_TRIANGULAR] = "triangular",
};

/* Integral values print as integers ("1024", not "1024.0"): these are
 * mostly byte counts, and the dump should read like the language. */
static void fmt_num(struct sbuf *sb, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		sbuf_addf(sb, "%.0f", d);
	else
		sbuf_addf(sb, "%.15g", d);
}

static void param(struct sbuf *sb, const char *name, double d)
{
	sbuf_addf(sb, ",%s=", name);
	fmt_num(sb, d);
}

void randvar_format(struct sbuf *sb, const struct randvar *rv)
{
	sbuf_addf(sb, "%s(type=%s%s", rv->cvar ? "cvar" : "randvar", rv->cvar ? "cvar-" : "",
		  rv_type_names[rv->type]);
	if (rv->cvar) {
		switch (rv->type) {
		case RV_UNIFORM:
			param(sb, "lower", rv->lower);
			param(sb, "upper", rv->upper);
			break;
		case RV_GAMMA:
			param(sb, "mean", rv->mean);
			param(sb, "gamma", rv->gamma);
			break;
		case RV_EXPONENTIAL:
			param(sb, "mean", rv->mean);
			break;
		case RV_NORMAL:
			param(sb, "mean", rv->mean);
			param(sb, "sigma", rv->sigma);
			break;
		case RV_LOGNORMAL:
		case RV_WEIBULL:
			param(sb, "shape", rv->shape);
			param(sb, "scale", rv->scale);
			break;
		case RV_TRIANGULAR:
			param(sb, "lower", rv->lower);
			param(sb, "upper", rv->upper);
			param(sb, "mode", rv->mode);
			break;
		case RV_TABULAR:
			break;
		}
		if (rv->min != 0)
			param(sb, "min", rv->min);
	} else {
		param(sb, "min", rv->min);
		if (rv->type == RV_GAMMA) {
			param(sb, "mean", rv->mean);
			/* In the randvar's own unit: thousandths of the shape. */
			param(sb, "gamma", rv->gamma * 1000);
		} else if (rv->type == RV_UNIFORM && rv->mean > 0) {
			param(sb, "mean", rv->mean);
		}
	}
	if (rv->max > rv->min)
		param(sb, "max", rv->max);
	if (rv->round > 0)
		param(sb, "round", rv->round);
	if (rv->has_seed)
		sbuf_addf(sb, ",seed=%llu", (unsigned long long)rv->seed);
	if (rv->type == RV_TABULAR) {
		sbuf_add(sb, ",randtable={");
		for (size_t i = 0; i < rv->ntable; i++) {
			sbuf_add(sb, i ? ",{" : "{");
			fmt_num(sb, rv->table[i].pct);
			sbuf_addc(sb, ',');
			fmt_num(sb, rv->table[i].lo);
			sbuf_addc(sb, ',');
			fmt_num(sb, rv->table[i].hi);
			sbuf_addc(sb, '}');
		}
		sbuf_addc(sb, '}');
	}
	sbuf_addc(sb, ')');
}

void randvar_free(struct randvar *rv)
{
	if (!rv)
		return;
	free(rv->name);
	free(rv->table);
	free(rv);
}
