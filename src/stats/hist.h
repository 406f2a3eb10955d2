/*
 * hist.h — log-linear latency histogram with bounded relative error.
 *
 * Values are unsigned 64-bit integers (nanoseconds for latencies).  Values
 * below 2^HIST_SUB_BITS get one bucket each (exact).  Above that, every
 * power of two [2^e, 2^(e+1)) is split into 2^HIST_SUB_BITS equal buckets,
 * so a bucket's width is at most 2^-HIST_SUB_BITS of its lower bound.
 * hist_value_at() reports a bucket's midpoint, so any reported percentile
 * is within 2^-(HIST_SUB_BITS+1) (0.2% for 8 sub-bits) of a value that was
 * really recorded at that rank: well inside the 1% the project promises.
 * Values at or above 2^HIST_MAX_EXP are counted in the last bucket (and
 * min/max stay exact).
 *
 * Histograms merge by adding bucket counts (threads, repeats, ranks), so a
 * merged percentile has the same error bound.  hist_add() is the hot path:
 * a few shifts and an increment, no allocation, no locks; each thread owns
 * its own histograms.
 */
#ifndef FSGAUGE_HIST_H
#define FSGAUGE_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 8
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 44 /* 2^44 ns is about 4.9 hours */
#define HIST_BUCKETS ((HIST_MAX_EXP - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max; /* exact; min = UINT64_MAX when empty */
	double sum;	   /* for the mean */
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
/* Bucket index of a value, and the [lo, hi] range a bucket covers. */
unsigned hist_bucket(uint64_t v);
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);
/* The value reported for bucket idx: its midpoint, rounded down.  The
 * last bucket also holds everything above 2^HIST_MAX_EXP, so its
 * hist_bucket_hi() is UINT64_MAX; its reported value is the midpoint of
 * its nominal range [lo, 2^HIST_MAX_EXP - 1] (hist_quantile() then clamps
 * to the exact max). */
uint64_t hist_value_at(unsigned idx);

/*
 * The owner is the only writer, but the runner's sampler reads live
 * histograms (hist_merge_live) for time series and warm-up baselines, so
 * every field is written with a relaxed atomic store: on x86-64 and arm64
 * that is the same plain store as before, and no lock or read-modify-write
 * instruction is involved.
 */
static inline void hist_add(struct hist *h, uint64_t v)
{
	unsigned b = hist_bucket(v);
	double sum = h->sum + (double)v;

	__atomic_store_n(&h->buckets[b], h->buckets[b] + 1, __ATOMIC_RELAXED);
	__atomic_store(&h->sum, &sum, __ATOMIC_RELAXED);
	if (v < h->min)
		__atomic_store_n(&h->min, v, __ATOMIC_RELAXED);
	if (v > h->max)
		__atomic_store_n(&h->max, v, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, h->count + 1, __ATOMIC_RELAXED);
}

/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);
/* dst += a snapshot of `live`, a histogram its owner may be adding to
 * (relaxed atomic loads).  The snapshot is consistent with itself: the
 * count it adds is the sum of the bucket counts it read; an add racing
 * with it may be half seen, which moves at most one value per writer
 * between neighbouring snapshots. */
void hist_merge_live(struct hist *dst, const struct hist *live);
/* hist_merge_live() of nh (at most HIST_LIVE_MAX) histograms at once,
 * dst[h] += live[h], read bucket by bucket across them: histograms that
 * get one value each per operation (an operation's latency and its parts,
 * stats/result.h) are then read at about the same moment, and their
 * snapshots' counts differ by at most the few operations their owner
 * completed meanwhile. */
#define HIST_LIVE_MAX 4
void hist_merge_live_n(struct hist *const *dst, const struct hist *const *live, unsigned nh);
/* dst = later - earlier, for two snapshots of the same histogram (or of
 * the same merged set): the values added between them.  Bucket counts
 * and the sum are exact differences.  min/max are exact when the extreme
 * was recorded after `earlier` (it then changed), otherwise they are the
 * edges of the lowest/highest non-empty bucket, clamped to later's
 * min/max (within the histogram's resolution).  dst may not alias. */
void hist_sub(struct hist *dst, const struct hist *later, const struct hist *earlier);
/* Value at quantile q in [0, 1] (0.99 for p99): the midpoint of the
 * bucket holding the ceil(q*count)-th smallest value, clamped to
 * [min, max].  Returns 0 for an empty histogram. */
uint64_t hist_quantile(const struct hist *h, double q);
double hist_mean(const struct hist *h);

#endif
