/* hist.c — log-linear latency histogram; see hist.h. */
#include "stats/hist.h"
#include "util/util.h"

#include <float.h>
#include <math.h>
#include <string.h>

/*
 * Layout.  Write e for the index of v's highest set bit and
 * s = max(e - HIST_SUB_BITS, 0) for the number of low bits a bucket
 * ignores.  Then v >> s always lies in [0, 2 * HIST_SUB), and
 *
 *	idx = s * HIST_SUB + (v >> s)
 *
 * is contiguous: values below 2 * HIST_SUB map to themselves (s = 0,
 * width 1, exact), and each later power of two adds HIST_SUB buckets of
 * width 2^s.  Or-ing HIST_SUB into v before counting leading zeros makes
 * the small values come out with s = 0 without a branch.
 */

#define HIST_LAST (HIST_BUCKETS - 1)
#define HIST_LIMIT (1ull << HIST_MAX_EXP)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

HOT unsigned hist_bucket(uint64_t v)
{
	unsigned s;

	/* One well-predicted branch: overflow values are rare. */
	if (__builtin_expect(v >= HIST_LIMIT, 0))
		return HIST_LAST;
	s = 63 - HIST_SUB_BITS - (unsigned)__builtin_clzll(v | HIST_SUB);
	return s * HIST_SUB + (unsigned)(v >> s);
}

/* Low bits ignored by bucket idx (its width is 2^shift). */
static unsigned bucket_shift(unsigned idx)
{
	return idx < 2 * HIST_SUB ? 0 : idx / HIST_SUB - 1;
}

uint64_t hist_bucket_lo(unsigned idx)
{
	unsigned s;

	if (idx > HIST_LAST)
		idx = HIST_LAST;
	s = bucket_shift(idx);
	return (uint64_t)(idx - s * HIST_SUB) << s;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx >= HIST_LAST)
		return UINT64_MAX;
	return hist_bucket_lo(idx) + (1ull << bucket_shift(idx)) - 1;
}

uint64_t hist_value_at(unsigned idx)
{
	unsigned s;

	if (idx > HIST_LAST)
		idx = HIST_LAST;
	s = bucket_shift(idx);
	/*
	 * lo + (2^s - 1) / 2: no value of the bucket is further than 2^(s-1)
	 * from it, and lo >= HIST_SUB << s, hence the 2^-(HIST_SUB_BITS+1)
	 * relative bound promised in hist.h.  Computed from the nominal
	 * range so that the overflow bucket does not report ~2^63.
	 */
	return hist_bucket_lo(idx) + (((1ull << s) - 1) >> 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

void hist_merge_live(struct hist *dst, const struct hist *live)
{
	hist_merge_live_n(&dst, &live, 1);
}

void hist_merge_live_n(struct hist *const *dst, const struct hist *const *live, unsigned nh)
{
	uint64_t n[HIST_LIVE_MAX] = { 0 }, lo[HIST_LIVE_MAX], hi[HIST_LIVE_MAX];
	unsigned first[HIST_LIVE_MAX] = { 0 }, last[HIST_LIVE_MAX] = { 0 };
	unsigned from = HIST_BUCKETS, to = 0;
	double sum[HIST_LIVE_MAX];

	if (nh > HIST_LIVE_MAX)
		nh = HIST_LIVE_MAX;
	for (unsigned h = 0; h < nh; h++) {
		__atomic_load(&live[h]->sum, &sum[h], __ATOMIC_RELAXED);
		lo[h] = __atomic_load_n(&live[h]->min, __ATOMIC_RELAXED);
		hi[h] = __atomic_load_n(&live[h]->max, __ATOMIC_RELAXED);
		/* only the buckets between min and max hold values (an add
		 * racing with this beyond them is left to the next snapshot) */
		if (lo[h] <= hi[h]) {
			unsigned a = hist_bucket(lo[h]), b = hist_bucket(hi[h]) + 1;

			from = a < from ? a : from;
			to = b > to ? b : to;
		}
	}
	/* bucket by bucket across the histograms, so that each one's busy
	 * buckets are read at about the same time as the others' (and soon
	 * after the caller read its counters) */
	for (unsigned i = from; i < to; i++)
		for (unsigned h = 0; h < nh; h++) {
			uint64_t c = __atomic_load_n(&live[h]->buckets[i], __ATOMIC_RELAXED);

			if (!c)
				continue;
			if (!n[h])
				first[h] = i;
			last[h] = i;
			dst[h]->buckets[i] += c;
			n[h] += c;
		}
	for (unsigned h = 0; h < nh; h++) {
		struct hist *d = dst[h];

		if (!n[h])
			continue;
		/* min/max read before a racing add landed: take the bucket edges */
		if (lo[h] > hist_bucket_hi(first[h]))
			lo[h] = hist_bucket_lo(first[h]);
		if (hi[h] < hist_bucket_lo(last[h]))
			hi[h] = hist_value_at(last[h]);
		d->count += n[h];
		d->sum += sum[h];
		if (lo[h] < d->min)
			d->min = lo[h];
		if (hi[h] > d->max)
			d->max = hi[h];
	}
}

void hist_sub(struct hist *dst, const struct hist *later, const struct hist *earlier)
{
	unsigned first = HIST_BUCKETS, last = 0;
	uint64_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t a = later->buckets[i], b = earlier->buckets[i];

		dst->buckets[i] = a > b ? a - b : 0;
		if (dst->buckets[i]) {
			n += dst->buckets[i];
			if (first == HIST_BUCKETS)
				first = i;
			last = i;
		}
	}
	dst->count = n;
	if (!n) {
		dst->sum = 0;
		dst->min = UINT64_MAX;
		dst->max = 0;
		return;
	}
	dst->sum = later->sum > earlier->sum ? later->sum - earlier->sum : 0;
	if (later->min < earlier->min) {
		dst->min = later->min;
	} else {
		dst->min = hist_bucket_lo(first);
		if (dst->min < later->min)
			dst->min = later->min;
	}
	if (later->max > earlier->max) {
		dst->max = later->max;
	} else {
		dst->max = hist_bucket_hi(last);
		if (dst->max > later->max)
			dst->max = later->max;
	}
	if (dst->min > dst->max)
		dst->min = dst->max;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, v, seen = 0;
	double r;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(q > 0)) /* also NaN */
		return h->min;
	if (q >= 1)
		return h->max;
	/*
	 * q * count is often meant to be a whole number (p99 of 1000 values
	 * is the 990th) but comes out a hair above it in binary (0.07 * 100
	 * is 7.000000000000001), and ceil() would then skip to the next rank.
	 * Forgive a few ulps of rounding before taking the ceiling.
	 */
	r = q * (double)h->count;
	r = ceil(r - r * (4 * DBL_EPSILON));
	rank = r < 1 ? 1 : (uint64_t)r;
	if (rank > h->count)
		rank = h->count;

	for (i = 0; i < HIST_LAST; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	/* A histogram whose counts disagree with count (corrupt or racing
	 * input) ends the walk at the last bucket rather than overrunning. */
	v = hist_value_at(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	/* 0 for an empty histogram, like hist_quantile(). */
	return h->count ? h->sum / (double)h->count : 0;
}
