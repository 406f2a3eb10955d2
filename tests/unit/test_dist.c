/* test_dist.c — unit tests for util/dist.c: spec parsing and the shares
 * each distribution gives, by counting (fixed seeds). */
#include "tap.h"
#include "util/dist.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define NDRAW 400000

/* chi-square against expected counts; a bound of df + 6 sqrt(2 df) is
 * beyond the 1e-6 tail for any df used here */
static int chi_ok(const uint64_t *obs, const double *expect, size_t k, const char *what)
{
	double x2 = 0, df = (double)k - 1;

	for (size_t i = 0; i < k; i++) {
		double d = (double)obs[i] - expect[i];

		x2 += d * d / expect[i];
	}
	if (!ok(x2 < df + 6 * sqrt(2 * df), "%s: chi-square %.1f for %zu cells", what, x2, k))
		return 0;
	return 1;
}

static void test_parse_ok(void)
{
	static const struct {
		const char *in, *canon;
		enum dist_kind kind;
	} t[] = {
	    {"random", "random", DIST_UNIFORM},
	    {"uniform", "random", DIST_UNIFORM},
	    {"zipf:1.2", "zipf:1.2", DIST_ZIPF},
	    {"zipf:1", "zipf:1", DIST_ZIPF},
	    {"pareto:0.2", "pareto:0.2", DIST_PARETO},
	    {"normal:10", "normal:10", DIST_NORMAL},
	    {"zoned:60/10:30/20:10/70", "zoned:60/10:30/20:10/70", DIST_ZONED},
	    {"zoned:100/100", "zoned:100/100", DIST_ZONED},
	    {"zoned:0/50:100/50", "zoned:0/50:100/50", DIST_ZONED},
	};
	struct dist_spec s;
	char err[256], buf[256];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int rc = dist_parse(t[i].in, &s, err, sizeof(err));

		is_int(rc, 0, "'%s' parses", t[i].in);
		is_int(s.kind, t[i].kind, "'%s': its kind", t[i].in);
		is_str(dist_format(&s, buf, sizeof(buf)), t[i].canon, "'%s': canonical form",
		       t[i].in);
	}
	dist_parse("zoned:60/10:30/20:10/70", &s, err, sizeof(err));
	is_int(s.nzones, 3, "zoned: three zones");
	ok(s.zone[1].access == 30 && s.zone[1].range == 20, "zoned: second zone 30/20");
}

static void test_parse_errors(void)
{
	static const struct {
		const char *in, *msg;
	} t[] = {
	    {"zipf:-1", "bad random_distribution 'zipf:-1': theta must be > 0"},
	    {"zipf:0", "bad random_distribution 'zipf:0': theta must be > 0"},
	    {"zipf", "bad random_distribution 'zipf': zipf needs a number after ':'"},
	    {"zipf:", "bad random_distribution 'zipf:': zipf needs a number after ':'"},
	    {"zipf:x", "bad random_distribution 'zipf:x': zipf needs a number after ':'"},
	    {"zipf:nan", "bad random_distribution 'zipf:nan': zipf needs a number after ':'"},
	    {"zipf:1.2x", "bad random_distribution 'zipf:1.2x': zipf needs a number after ':'"},
	    {"pareto:1", "bad random_distribution 'pareto:1': h must be between 0 and 1"},
	    {"pareto:0", "bad random_distribution 'pareto:0': h must be between 0 and 1"},
	    {"normal:0",
	     "bad random_distribution 'normal:0': sigma must be > 0 and at most 100 (percent)"},
	    {"normal:101",
	     "bad random_distribution 'normal:101': sigma must be > 0 and at most 100 "
	     "(percent)"},
	    {"random:3", "bad random_distribution 'random:3': random takes no parameter"},
	    {"gauss:3",
	     "bad random_distribution 'gauss:3': unknown distribution (random, zipf:THETA, "
	     "pareto:H, normal:SIGMA, zoned:A/R:...)"},
	    {"", "bad random_distribution '': unknown distribution (random, zipf:THETA, "
	         "pareto:H, normal:SIGMA, zoned:A/R:...)"},
	    {"zoned", "bad random_distribution 'zoned': zoned needs zones (as in "
	              "zoned:60/10:40/90)"},
	    {"zoned:60/10:30",
	     "bad random_distribution 'zoned:60/10:30': zone 2 is not ACCESS%/RANGE% (as in "
	     "zoned:60/10:40/90)"},
	    {"zoned:60/10:30/20:10/60",
	     "bad random_distribution 'zoned:60/10:30/20:10/60': range percentages add up to "
	     "90, not 100"},
	    {"zoned:60/10:30/20:20/70",
	     "bad random_distribution 'zoned:60/10:30/20:20/70': access percentages add up "
	     "to 110, not 100"},
	    {"zoned:100/0:0/100",
	     "bad random_distribution 'zoned:100/0:0/100': zone 1: range percentage must be "
	     "> 0 and at most 100"},
	    {"zoned:-10/50:110/50",
	     "bad random_distribution 'zoned:-10/50:110/50': zone 1: access percentage must "
	     "be from 0 to 100"},
	};
	struct dist_spec s;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		err[0] = 0;
		is_int(dist_parse(t[i].in, &s, err, sizeof(err)), -EINVAL, "'%s' is refused",
		       t[i].in);
		is_str(err, t[i].msg, "'%s': its message", t[i].in);
	}
	is_int(dist_parse("zipf:-1", &s, NULL, 0), -EINVAL, "no message buffer: still refused");
}

static void test_uniform(void)
{
	enum { K = 100 };
	uint64_t obs[K] = {0};
	double expect[K];
	struct dist_spec s;
	struct dist d;
	struct rng r;

	dist_parse("random", &s, NULL, 0);
	dist_init(&d, &s, K, 1);
	rng_seed(&r, 1, 0);
	for (int i = 0; i < NDRAW; i++)
		obs[dist_next(&d, &r)]++;
	for (int i = 0; i < K; i++)
		expect[i] = (double)NDRAW / K;
	chi_ok(obs, expect, K, "uniform over 100 blocks");
}

static void test_zoned(void)
{
	enum { N = 1000 };
	uint64_t cnt[N] = { 0 };
	uint64_t zone[3] = {0}, within[10] = {0};
	double expect[10];
	struct dist_spec s;
	struct dist d;
	struct rng r;

	dist_parse("zoned:60/10:30/20:10/70", &s, NULL, 0);
	dist_init(&d, &s, N, 2);
	rng_seed(&r, 2, 0);
	for (int i = 0; i < NDRAW; i++)
		cnt[dist_next(&d, &r)]++;
	for (int b = 0; b < N; b++)
		zone[b < 100 ? 0 : b < 300 ? 1 : 2] += cnt[b];
	/* sd of a share near 0.5 over NDRAW draws is under 0.001 */
	is_near((double)zone[0] / NDRAW, 0.60, 0.005, "zoned: first 10%% of blocks: 60%%");
	is_near((double)zone[1] / NDRAW, 0.30, 0.005, "zoned: next 20%%: 30%%");
	is_near((double)zone[2] / NDRAW, 0.10, 0.005, "zoned: last 70%%: 10%%");
	/* uniform inside a zone: the first zone's 100 blocks in tens */
	for (int b = 0; b < 100; b++)
		within[b / 10] += cnt[b];
	for (int i = 0; i < 10; i++)
		expect[i] = (double)zone[0] / 10;
	chi_ok(within, expect, 10, "zoned: uniform within the first zone");

	/* fewer blocks than zones: every draw still inside */
	unsigned out = 0;

	dist_parse("zoned:25/25:25/25:25/25:25/25", &s, NULL, 0);
	for (uint64_t n = 1; n <= 5; n++) {
		dist_init(&d, &s, n, 3);
		for (int i = 0; i < 1000; i++)
			if (dist_next(&d, &r) >= n)
				out++;
	}
	is_int(out, 0, "zoned over 1 to 5 blocks: every draw in range");

	/* set up again from its own spec (a file that changed size) */
	uint64_t first = 0;

	dist_parse("zoned:100/10:0/90", &s, NULL, 0);
	dist_init(&d, &s, 10, 3);
	dist_init(&d, &d.spec, 1000, 3);
	for (int i = 0; i < 10000; i++)
		if (dist_next(&d, &r) < 100)
			first++;
	is_int(first, 10000, "set up again from its own spec: still zoned:100/10:0/90");
}

/* The exact share of ranks [0, m) among n under zipf theta. */
static double zipf_share(uint64_t n, uint64_t m, double theta)
{
	double all = 0, top = 0;

	for (uint64_t k = 1; k <= n; k++) {
		double w = pow((double)k, -theta);

		all += w;
		if (k <= m)
			top += w;
	}
	return top / all;
}

static void test_zipf_one(double theta, uint64_t n)
{
	static uint64_t cnt[100000];
	uint64_t top = 0, low = 0, first[20];
	double expect[20], all = 0;
	struct dist_spec s;
	struct dist d;
	struct rng r;
	char spec[32];

	snprintf(spec, sizeof(spec), "zipf:%g", theta);
	dist_parse(spec, &s, NULL, 0);
	dist_init(&d, &s, n, 77);
	rng_seed(&r, 3, (uint64_t)(theta * 10));
	memset(cnt, 0, n * sizeof(cnt[0]));
	for (int i = 0; i < NDRAW; i++)
		cnt[dist_next(&d, &r)]++;
	/* the top 1% of ranks, found where the spreading put them */
	for (uint64_t k = 0; k < n / 100; k++) {
		uint64_t b = rand_permute(k, n, 77);

		top += cnt[b];
		if (b < n / 100)
			low++;
	}
	is_near((double)top / NDRAW, zipf_share(n, n / 100, theta), 0.005,
	        "%s over %llu blocks: the top 1%% of ranks' share (%.3f)", spec,
	        (unsigned long long)n, zipf_share(n, n / 100, theta));
	/* the twenty hottest ranks one by one, the rest in one cell */
	for (uint64_t k = 1; k <= n; k++)
		all += pow((double)k, -theta);
	for (int k = 0; k < 19; k++) {
		first[k] = cnt[rand_permute((uint64_t)k, n, 77)];
		expect[k] = NDRAW * pow(k + 1.0, -theta) / all;
	}
	first[19] = NDRAW;
	expect[19] = NDRAW;
	for (int k = 0; k < 19; k++) {
		first[19] -= first[k];
		expect[19] -= expect[k];
	}
	chi_ok(first, expect, 20, spec);
	/* hot blocks are spread: about 1% of the top ranks land in the
	 * first 1% of blocks, not all of them */
	ok(low < n / 100 / 10, "%s: the hot blocks are spread (%llu of %llu in the first 1%%)",
	   spec, (unsigned long long)low, (unsigned long long)(n / 100));
}

static void test_zipf(void)
{
	test_zipf_one(1.2, 10000);
	test_zipf_one(1.0, 10000);
	test_zipf_one(0.8, 100000);
	test_zipf_one(2.0, 1000);
}

static void test_pareto(void)
{
	enum { N = 10000 };
	static uint64_t cnt[N];
	uint64_t top = 0;
	struct dist_spec s;
	struct dist d;
	struct rng r;

	dist_parse("pareto:0.2", &s, NULL, 0);
	dist_init(&d, &s, N, 5);
	rng_seed(&r, 5, 0);
	for (int i = 0; i < NDRAW; i++)
		cnt[dist_next(&d, &r)]++;
	for (uint64_t k = 0; k < N / 5; k++)
		top += cnt[rand_permute(k, N, 5)];
	is_near((double)top / NDRAW, 0.80, 0.005, "pareto:0.2: the hottest 20%% get 80%%");

	memset(cnt, 0, sizeof(cnt));
	top = 0;
	dist_parse("pareto:0.1", &s, NULL, 0);
	dist_init(&d, &s, N, 5);
	for (int i = 0; i < NDRAW; i++)
		cnt[dist_next(&d, &r)]++;
	for (uint64_t k = 0; k < N / 10; k++)
		top += cnt[rand_permute(k, N, 5)];
	is_near((double)top / NDRAW, 0.90, 0.005, "pareto:0.1: the hottest 10%% get 90%%");
}

static void test_normal(void)
{
	enum { N = 10000 };
	uint64_t mid = 0, band2 = 0;
	double sum = 0;
	struct dist_spec s;
	struct dist d;
	struct rng r;

	dist_parse("normal:10", &s, NULL, 0);
	dist_init(&d, &s, N, 6);
	rng_seed(&r, 6, 0);
	for (int i = 0; i < NDRAW; i++) {
		uint64_t b = dist_next(&d, &r);

		sum += (double)b;
		if (b >= 4000 && b < 6000)
			mid++;
		if (b >= 3000 && b < 7000)
			band2++;
	}
	is_near(sum / NDRAW, N / 2.0, 20, "normal:10: centred on the middle block");
	is_near((double)mid / NDRAW, 0.6827, 0.005, "normal:10: 68%% within one sigma (10%%)");
	is_near((double)band2 / NDRAW, 0.9545, 0.003, "normal:10: 95%% within two sigmas");

	unsigned out = 0;

	dist_parse("normal:100", &s, NULL, 0);
	dist_init(&d, &s, 3, 6);
	for (int i = 0; i < 10000; i++)
		if (dist_next(&d, &r) >= 3)
			out++;
	is_int(out, 0, "normal:100 over 3 blocks: every draw in range");
}

static void test_ranges(void)
{
	static const char *specs[] = {"random", "zipf:1.1", "pareto:0.3", "normal:30",
	                              "zoned:50/1:50/99"};
	static const uint64_t ns[] = {0, 1, 2, 3, 7, 1000003, 1ull << 40};
	struct dist_spec s;
	struct dist d;
	struct rng r, a, b;
	unsigned out = 0, diff = 0;

	rng_seed(&r, 8, 0);
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
		for (size_t j = 0; j < ARRAY_SIZE(ns); j++) {
			uint64_t n = ns[j] ? ns[j] : 1;

			dist_parse(specs[i], &s, NULL, 0);
			dist_init(&d, &s, ns[j], 9);
			for (int k = 0; k < 2000; k++)
				if (dist_next(&d, &r) >= n)
					out++;
		}
	is_int(out, 0, "every kind, 1 block to 2^40: every draw in range");

	dist_parse("zipf:1.2", &s, NULL, 0);
	dist_init(&d, &s, 12345, 4);
	rng_seed(&a, 9, 1);
	rng_seed(&b, 9, 1);
	for (int k = 0; k < 10000; k++)
		if (dist_next(&d, &a) != dist_next(&d, &b))
			diff++;
	is_int(diff, 0, "same seed: same draws");
}

int main(void)
{
	test_parse_ok();
	test_parse_errors();
	test_uniform();
	test_zoned();
	test_zipf();
	test_pareto();
	test_normal();
	test_ranges();
	return done_testing();
}
