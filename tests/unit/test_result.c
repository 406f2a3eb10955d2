/* test_result.c — unit tests for the trust parts of stats/result.c and
 * stats/hist.c: live snapshots and differences, headline figures, the
 * too-fast verdict, repeat statistics against hand-computed values, and
 * folding repeats together. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/summary.h"
#include "tap.h"
#include "util/util.h"

static struct hist *hnew(void)
{
	struct hist *h = xmalloc(sizeof(*h));

	hist_init(h);
	return h;
}

static void test_hist_sub(void)
{
	struct hist *a = hnew(), *snap1 = hnew(), *snap2 = hnew(), *d = hnew();

	for (uint64_t v = 100; v < 200; v++)
		hist_add(a, v);
	hist_merge_live(snap1, a);
	is_int(snap1->count, 100, "live snapshot: count");
	is_int(snap1->min, 100, "live snapshot: min");
	is_int(snap1->max, 199, "live snapshot: max");
	for (uint64_t v = 150; v < 160; v++)
		hist_add(a, v);
	hist_merge_live(snap2, a);
	hist_sub(d, snap2, snap1);
	is_int(d->count, 10, "difference: the 10 values added in between");
	is_near(d->sum, 1545, 1e-9, "difference: their sum");
	is_int(hist_quantile(d, 0.5), 154, "difference: median of 150..159");
	ok(d->min >= 150 && d->min <= 159 && d->max >= 150 && d->max <= 159,
	   "difference: min/max from the bucket range (%llu..%llu) when the extremes are old",
	   (unsigned long long)d->min, (unsigned long long)d->max);
	/* a new extreme after the earlier snapshot is exact */
	hist_add(a, 5);
	hist_add(a, 1000000);
	hist_init(snap1);
	hist_merge_live(snap1, a);
	hist_sub(d, snap1, snap2);
	is_int(d->count, 2, "difference with new extremes: count");
	is_int(d->min, 5, "difference: new minimum is exact");
	is_int(d->max, 1000000, "difference: new maximum is exact");
	/* nothing in between */
	hist_sub(d, snap1, snap1);
	is_int(d->count, 0, "difference of equal snapshots: empty");
	is_int(hist_quantile(d, 0.99), 0, "empty difference: p99 0");
	/* merge_live adds */
	hist_merge_live(snap1, a);
	is_int(snap1->count, 2 * a->count, "merge_live adds to what is there");
	free(a);
	free(snap1);
	free(snap2);
	free(d);
}

/* A worker updating an operation's counters while the control thread
 * takes live snapshots (a warm-up baseline, an interval): every snapshot
 * must see whole operations, bytes = ops x 4096. */
static struct op_stats live_st;
static int live_stop;

static void *live_writer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&live_stop, __ATOMIC_RELAXED)) {
		STAT_BEGIN(&live_st);
		STAT_ADD_R(live_st.bytes_written, 4096);
		STAT_ADD_R(live_st.ops, 1);
		STAT_COMMIT(&live_st);
	}
	return NULL;
}

static void test_live_consistent(void)
{
	struct op_stats *snap = xmalloc(sizeof(*snap));
	pthread_t t;
	int torn = 0, n = 0, moving = 0;
	uint64_t last = 0;

	op_stats_init(&live_st);
	if (pthread_create(&t, NULL, live_writer, NULL)) {
		ok(0, "pthread_create");
		free(snap);
		return;
	}
	for (n = 0; n < 20000; n++) {
		op_stats_init(snap);
		op_stats_merge_live(snap, &live_st);
		if (snap->bytes_written != snap->ops * 4096)
			torn++;
		if (snap->ops != last)
			moving++;
		last = snap->ops;
	}
	__atomic_store_n(&live_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	ok(moving > 0, "the writer ran during the snapshots (%d of %d saw new ops)", moving, n);
	is_int(torn, 0, "no snapshot saw an operation half-counted");
	free(snap);
}

/* An op_stats with n operations of lat = slat + clat: slat s0 + i, clat
 * c0 + 2i (i from 0), each in the three histograms. */
static void split_fill(struct op_stats *st, uint64_t n, uint64_t s0, uint64_t c0)
{
	struct op_split *sp = op_stats_split(st);

	for (uint64_t i = 0; i < n; i++) {
		st->ops++;
		hist_add(&st->lat, s0 + i + c0 + 2 * i);
		hist_add(&sp->slat, s0 + i);
		hist_add(&sp->clat, c0 + 2 * i);
	}
}

/* An asynchronous engine's split (struct op_split) goes where the
 * operation's latency goes: merged (threads, repeats, ranks), snapshot
 * live, subtracted (a warm-up), cleared and released. */
static void test_split_stats(void)
{
	struct op_stats *a = xmalloc(sizeof(*a)), *b = xmalloc(sizeof(*b)),
			*m = xmalloc(sizeof(*m)), *d = xmalloc(sizeof(*d));
	struct hist *h3[3], *l3[3];

	op_stats_init(a);
	op_stats_init(b);
	op_stats_init(m);
	op_stats_init(d);
	ok(!a->split, "a fresh op_stats has no split");
	split_fill(a, 100, 1000, 5000);
	op_stats_merge(m, b);
	ok(!m->split, "merging one without a split makes none");
	op_stats_merge(m, a);
	ok(m->split && m->split->slat.count == 100 && m->split->clat.count == 100,
	   "merging one with a split allocates the destination's: 100 each");
	split_fill(b, 50, 3000, 9000);
	op_stats_merge(m, b);
	is_int(m->split->slat.count, 150, "merged: slat counts add up");
	is_int(m->split->clat.count, m->lat.count, "merged: clat's count is lat's");
	ok(m->split->slat.sum + m->split->clat.sum == m->lat.sum,
	   "merged: slat + clat = lat, summed over the operations");
	is_int(m->split->slat.min, 1000, "merged: slat min exact");
	is_int(m->split->clat.max, 9000 + 2 * 49, "merged: clat max exact");
	/* a warm-up: the window is what came after the baseline */
	op_stats_merge(d, a); /* (d: the baseline, a alone) */
	op_stats_sub(b, m, d);
	is_int(b->split->slat.count, 50, "subtracted: the 50 after the baseline");
	ok(b->split->slat.sum + b->split->clat.sum == b->lat.sum, "subtracted: slat + clat = lat");
	op_stats_release(a);
	op_stats_init(a); /* (a baseline before anything: no split) */
	op_stats_sub(d, m, a);
	ok(d->split && d->split->clat.count == 150 && d->split->slat.sum == m->split->slat.sum,
	   "subtracted from a baseline without a split: the whole");
	op_stats_sub(d, a, m);
	ok(!d->split, "subtracting into one whose later has no split: none left");
	/* a live snapshot reads the three histograms together */
	op_stats_clear(b);
	ok(b->split && !b->split->slat.count && !b->lat.count && !b->ops,
	   "cleared: nothing counted, the split kept for the next snapshot");
	op_stats_merge_live(b, m);
	ok(b->ops == 150 && b->lat.count == 150 && b->split->slat.count == 150 &&
		   b->split->clat.count == 150,
	   "a live snapshot: ops and the three histograms, 150 each");
	ok(b->split->slat.sum == m->split->slat.sum && b->split->clat.max == m->split->clat.max,
	   "  with their sums and extremes");
	/* hist_merge_live_n() of three histograms is hist_merge_live() of each */
	op_stats_clear(d);
	h3[0] = &d->lat;
	h3[1] = &op_stats_split(d)->slat;
	h3[2] = &d->split->clat;
	l3[0] = &m->lat;
	l3[1] = &m->split->slat;
	l3[2] = &m->split->clat;
	hist_merge_live_n(h3, (const struct hist *const *)l3, 3);
	ok(!memcmp(d->lat.buckets, m->lat.buckets, sizeof(m->lat.buckets)) &&
		   !memcmp(d->split->slat.buckets, m->split->slat.buckets, sizeof(m->lat.buckets)) &&
		   !memcmp(d->split->clat.buckets, m->split->clat.buckets, sizeof(m->lat.buckets)) &&
		   d->lat.min == m->lat.min && d->split->clat.max == m->split->clat.max,
	   "hist_merge_live_n of three: each histogram's buckets and extremes as its own");
	op_stats_release(a);
	op_stats_release(b);
	op_stats_release(m);
	op_stats_release(d);
	ok(!m->split, "released: no split");
	free(a);
	free(b);
	free(m);
	free(d);
}

static struct result_phase *phase_with(struct result *r, const char *name, double secs,
				       uint64_t ops, uint64_t lat_ns, uint64_t wbytes)
{
	struct result_phase *p = result_add_phase(r, name);
	struct result_op *o = result_phase_add_op(p, "w", "write", OPC_WRITE);

	p->seconds = secs;
	p->cpu_user_ns = ops * 1000;
	for (uint64_t i = 0; i < ops; i++) {
		hist_add(&o->st.lat, lat_ns);
		o->st.ops++;
	}
	o->st.bytes_written = wbytes;
	return p;
}

static void test_headline_and_judge(void)
{
	struct result *r = result_new("run", "t");
	struct result_phase *p = phase_with(r, "a", 2.0, 1000, 50000, 2 * 1048576);
	struct result_headline h;

	result_phase_headline(p, &h);
	is_near(h.ops_per_second, 500, 1e-9, "headline: ops/s");
	is_near(h.write_ops_per_second, 500, 1e-9, "headline: write ops/s");
	is_near(h.mb_per_second, 1.0, 1e-9, "headline: MiB/s");
	is_near(h.mean_latency_ms, 0.05, 1e-12, "headline: mean latency ms");
	is_near(h.p99_latency_us, 50, 0.2, "headline: p99 us");
	is_near(h.cpu_us_per_op, 1, 1e-9, "headline: cpu us/op");
	result_phase_judge(p);
	ok(!p->too_fast, "2 s and 1000 ops: measurable");

	p = phase_with(r, "b", 0.3, 1000, 1000, 0);
	result_phase_judge(p);
	ok(p->too_fast && strstr(p->too_fast_reason, "0.300 s"), "0.3 s: too fast (%s)",
	   p->too_fast_reason);
	p = phase_with(r, "c", 5, 3, 1000, 0);
	result_phase_judge(p);
	ok(p->too_fast && strstr(p->too_fast_reason, "only 3 operations"), "3 ops: too few (%s)",
	   p->too_fast_reason);
	p = phase_with(r, "d", 5, 0, 1000, 0);
	result_phase_judge(p);
	ok(!p->too_fast, "0 ops over 5 s is a measurement (nothing could be done)");
	ok(result_op_too_few(&r->phases[2].ops[0]), "an op with 3 ops is too few");
	ok(!result_op_too_few(&r->phases[0].ops[0]), "an op with 1000 ops is not");
	result_free(r);
}

static void test_repeat_stats(void)
{
	/* ops/s 10, 12, 14, 16, 18 over 1 s runs: mean 14, sd sqrt(10),
	 * 95% CI 14 +- t(0.975, 4) sqrt(10) / sqrt(5) = 14 +- 2.776445 * 1.414214 */
	static const uint64_t ops[] = { 10, 12, 14, 16, 18 };
	struct result *acc = result_new("run", "t");
	struct repeat_stat rs;
	const struct headline_field *f = &headline_fields[0];
	double half = 2.7764451051977987 * sqrt(10.0) / sqrt(5.0);

	for (size_t i = 0; i < 5; i++) {
		struct result *one = result_new("run", "t");
		struct result_phase *p = phase_with(one, "run", 1.0, ops[i], 1000 * (i + 1), 4096);
		struct result_interval *iv = result_phase_add_interval(p, 1);

		iv->ops = ops[i];
		iv->op_ops[0] = ops[i];
		result_add_fileset(one, "fs");
		one->errors = i;
		one->io_requests[1] = 100 * (i + 1); /* process-wide, cumulative */
		p->io_requests[1] = 100;
		result_merge_repeat(acc, one);
		result_free(one);
	}
	is_str(f->name, "ops_per_second", "first headline field is ops/s");
	is_int(acc->nphases, 1, "repeats fold into one phase");
	is_int(acc->phases[0].nrepeats, 5, "five repeats recorded");
	result_repeat_stat(&acc->phases[0], f, &rs);
	is_int(rs.n, 5, "n = 5");
	is_near(rs.mean, 14, 1e-12, "mean ops/s = 14");
	is_near(rs.sd, sqrt(10.0), 1e-12, "sd = sqrt(10)");
	is_near(rs.cv, sqrt(10.0) / 14, 1e-12, "cv = sd / mean");
	is_near(rs.ci95_low, 14 - half, 1e-9, "ci95_low = 14 - t sd / sqrt(n)");
	is_near(rs.ci95_high, 14 + half, 1e-9, "ci95_high");
	is_near(half, t_critical(0.95, 4) * sqrt(10.0) / sqrt(5.0), 1e-6,
		"the same t as summary.h's t_critical");
	ok(acc->phases[0].repeats[2].nper_op == 1 && acc->phases[0].repeats[2].per_op[0].ops == 14 &&
		   !strcmp(acc->phases[0].repeats[2].per_op[0].name, "w") &&
		   fabs(acc->phases[0].repeats[2].per_op[0].lat_mean_us - 3) < 1e-9,
	   "each repeat keeps its operations' figures");
	ok(isnan(acc->phases[0].repeats[0].write_amplification),
	   "no device counters: no amplification");
	is_int(acc->phases[0].ops[0].st.ops, 70, "merged ops add up");
	is_int(acc->phases[0].ops[0].st.lat.count, 70, "merged histograms add up");
	is_near(acc->phases[0].seconds, 5, 1e-12, "merged seconds add up");
	is_int(acc->phases[0].nintervals, 5, "intervals kept");
	is_int(acc->phases[0].intervals[3].repeat, 3, "intervals tagged with their repeat");
	is_int(acc->nfilesets, 1, "filesets taken once");
	is_int(acc->errors, 0 + 1 + 2 + 3 + 4, "errors add up");
	is_int(acc->io_requests[1], 500, "result io_requests: the cumulative total");
	is_int(acc->phases[0].io_requests[1], 500, "phase io_requests add up");
	ok(!acc->phases[0].too_fast, "no repeat too fast");

	/* one run alone: CI undefined */
	struct result_phase one_run = { 0 };
	struct result_headline h = { .ops_per_second = 7 };

	one_run.repeats = &h;
	one_run.nrepeats = 1;
	result_repeat_stat(&one_run, f, &rs);
	ok(rs.n == 1 && rs.mean == 7 && isnan(rs.ci95_low) && isnan(rs.ci95_high),
	   "one run: mean, no interval");

	/* two very different runs: mean 505, t(0.975, 1) = 12.7 makes the
	 * half-width ~6000, but a rate is never negative */
	struct result_headline h2[2] = { { .ops_per_second = 10, .p99_latency_us = 100 },
					 { .ops_per_second = 1000, .p99_latency_us = 9000 } };

	one_run.repeats = h2;
	one_run.nrepeats = 2;
	result_repeat_stat(&one_run, f, &rs);
	ok(rs.ci95_low == 0 && rs.ci95_high > 6000, "ops/s: lower bound clamped at 0 (%g, %g)",
	   rs.ci95_low, rs.ci95_high);
	for (size_t k = 0; headline_fields[k].name; k++) {
		result_repeat_stat(&one_run, &headline_fields[k], &rs);
		ok(rs.ci95_low >= 0, "%s: ci95_low %g >= 0", headline_fields[k].name, rs.ci95_low);
	}

	/* the text shows the clamped bounds, not only mean ± half-width
	 * (which reads as if the rate could go below 0) */
	struct result *wide = result_new("run", "t");

	for (size_t i = 0; i < 2; i++) {
		struct result *one = result_new("run", "t");

		phase_with(one, "run", 1.0, i ? 1000 : 10, 1000, 4096);
		result_merge_repeat(wide, one);
		result_free(one);
	}
	char *text = NULL;
	size_t textlen = 0;
	FILE *mf = open_memstream(&text, &textlen);

	output_text(mf, wide);
	fclose(mf);
	const char *line = strstr(text, "\n  ops/s ");
	double mean = -1, hw = -1, lo = -1, hi = -1;

	ok(line && sscanf(line, "\n  ops/s %lf ± %lf (%lf to %lf; sd", &mean, &hw, &lo, &hi) == 4,
	   "text: ops/s line with mean, half-width and bounds");
	result_repeat_stat(&wide->phases[0], f, &rs);
	ok(mean == 505 && lo == 0 && mean - hw < 0 && fabs(hi - rs.ci95_high) < 0.001,
	   "text: the low bound is 0, the high one the JSON's (%g ± %g, %g to %g)", mean, hw,
	   lo, hi);
	free(text);
	result_free(wide);

	/* a too-fast repeat marks the merged phase */
	struct result *fast = result_new("run", "t");

	phase_with(fast, "run", 0.1, 100, 1000, 0);
	result_merge_repeat(acc, fast);
	result_free(fast);
	ok(acc->phases[0].too_fast && strstr(acc->phases[0].too_fast_reason, "repeat 6"),
	   "a too-fast repeat marks the phase (%s)", acc->phases[0].too_fast_reason);
	ok(acc->phases[0].repeats[5].too_fast, "and its own headline");
	result_free(acc);
}

/* A suite's figure over repeats: every run's value kept, the mean as the
 * value, sd/cv/CI from result_metric_stat (the maths of the headlines). */
static void test_metric_repeats(void)
{
	static const double kbs[] = { 10, 12, 14, 16, 18 };
	struct result *acc = result_new("iozone", "t");
	const struct result_metric *m;
	struct repeat_stat rs;
	double half = 2.7764451051977987 * sqrt(10.0) / sqrt(5.0);

	for (size_t i = 0; i < 5; i++) {
		struct result *one = result_new("iozone", "t");
		struct result_phase *p = phase_with(one, "write", 1.0, 100, 1000, 4096);

		result_phase_add_metric(p, "throughput", "KB/s", kbs[i]);
		if (i == 2)
			result_phase_add_metric(p, "late", "KB", -4);
		result_merge_repeat(acc, one);
		result_free(one);
	}
	m = result_phase_find_metric(&acc->phases[0], "throughput");
	ok(m && m->nruns == 5 && m->runs[0] == 10 && m->runs[4] == 18,
	   "every run's value is kept, in run order");
	is_near(m->value, 14, 1e-12, "the metric's value is the mean");
	result_metric_stat(m, &rs);
	is_int(rs.n, 5, "metric n = 5");
	is_near(rs.sd, sqrt(10.0), 1e-12, "metric sd");
	is_near(rs.cv, sqrt(10.0) / 14, 1e-12, "metric cv");
	is_near(rs.ci95_low, 14 - half, 1e-9, "metric ci95_low");
	is_near(rs.ci95_high, 14 + half, 1e-9, "metric ci95_high");
	m = result_phase_find_metric(&acc->phases[0], "late");
	ok(m && m->nruns == 1 && m->value == -4, "a metric of one run only: that run's value");
	result_metric_stat(m, &rs);
	ok(rs.n == 1 && rs.sd == 0 && isnan(rs.ci95_low) && isnan(rs.ci95_high),
	   "one run: no interval");
	ok(!result_phase_find_metric(&acc->phases[0], "none"), "an absent metric is NULL");
	result_free(acc);
}

/* iodepth=: the depths at submission merge by adding, the max by the
 * larger; a subtraction subtracts the counts and keeps the later max. */
static void test_qdepth(void)
{
	struct op_stats *a = xmalloc(sizeof(*a)), *b = xmalloc(sizeof(*b)), *d = xmalloc(sizeof(*d));
	static const uint64_t depths[] = { 1, 2, 3, 4, 7, 8, 31, 32, 63, 64, 65536 };
	static const unsigned want[] = { 0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6 };
	int good = 1;

	for (size_t i = 0; i < ARRAY_SIZE(depths); i++)
		good &= op_qdepth_bucket(depths[i]) == want[i];
	ok(good, "depth buckets 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64");
	ok(op_qdepth_low(0) == 1 && op_qdepth_low(OP_QDEPTH_BUCKETS - 1) == 64, "bucket lows");
	op_stats_init(a);
	op_stats_init(b);
	op_stats_init(d);
	a->qdepth[0] = 3;
	a->qdepth[5] = 10;
	a->qdepth_max = 32;
	b->qdepth[0] = 1;
	b->qdepth_max = 8;
	op_stats_merge(b, a);
	ok(b->qdepth[0] == 4 && b->qdepth[5] == 10 && b->qdepth_max == 32, "merge adds, max the larger");
	op_stats_sub(d, b, a);
	ok(d->qdepth[0] == 1 && d->qdepth[5] == 0 && d->qdepth_max == 32, "sub: counts, later max");
	free(a);
	free(b);
	free(d);
}

static void test_dev_io(void)
{
	struct dev_io a = { 10, 20, 1, 2, 4096, 8192, 5, 6, 7, 8, 40, 12, 0 },
		      b = { 4, 5, 1, 1, 1024, 4096, 1, 1, 2, 3, 10, 2, 0 };
	struct dev_io d, e;

	dev_io_sub(&d, &a, &b);
	ok(d.reads == 6 && d.writes == 15 && d.read_merges == 0 && d.write_merges == 1 &&
		   d.bytes_read == 3072 && d.bytes_written == 4096 && d.busy_ms == 5 &&
		   d.weighted_ms == 5,
	   "dev_io_sub");
	dev_io_sub(&d, &b, &a);
	ok(d.reads == 0 && d.bytes_written == 0, "dev_io_sub clamps counters that went back");
	dev_io_add(&d, &a);
	is_int(d.writes, 20, "dev_io_add");
	dev_io_sub(&e, &a, &b);
	ok(e.flushes == 30 && e.flush_ms == 10 && !e.no_flush, "dev_io_sub: the flush counters");
	dev_io_add(&e, &a);
	ok(e.flushes == 70 && e.flush_ms == 22 && !e.no_flush, "dev_io_add: the flush counters");
	b.no_flush = 1;
	dev_io_sub(&e, &a, &b);
	ok(e.no_flush, "dev_io_sub: flushes unknown at one end are unknown");
	e.no_flush = 0;
	dev_io_add(&e, &b);
	ok(e.no_flush, "dev_io_add: a device without flush counters makes the sum's unknown");

	d.busy_ms = 500;
	is_near(dev_io_utilization(&d, 1.0, 1), 50, 1e-12, "utilization: 500 ms busy of 1 s");
	is_near(dev_io_utilization(&d, 1.0, 2), 25, 1e-12, "utilization: averaged over devices");
	is_near(dev_io_utilization(&d, 1.0, 0), 50, 1e-12, "utilization: 0 devices count as 1");
	d.busy_ms = 4;
	is_near(dev_io_utilization(&d, 0.0038, 1), 100, 0,
		"utilization: 4 ms busy in a 3.8 ms interval (jiffy rounding) is 100%, not 105%");
	ok(isnan(dev_io_utilization(&d, 0, 1)), "utilization: no time, no figure");

	/* dev_io_figures(): 2 s of 2 devices; 40 reads, 50 writes and 10
	 * flushes (100 requests) of 3 MiB, 500 ms busy, 4000 ms in queue */
	struct dev_figures fg;
	struct dev_io x = { .reads = 40, .writes = 50, .flushes = 10, .bytes_read = 1048576,
			    .bytes_written = 2097152, .read_ms = 300, .write_ms = 600,
			    .flush_ms = 100, .busy_ms = 500, .weighted_ms = 4000 };

	dev_io_figures(&x, 2.0, 2, &fg);
	ok(fg.utilization == 12.5 && fg.queue == 2 && fg.requests_per_second == 50 &&
		   fg.mib_per_second == 1.5 && fg.service_ms == 5 && fg.await_ms == 10,
	   "dev_io_figures: utilisation over the devices, queue, rates, flushes as requests");
	x.no_flush = 1;
	dev_io_figures(&x, 2.0, 2, &fg);
	ok(fg.requests_per_second == 45 && fg.service_ms == 500.0 / 90 && fg.await_ms == 10,
	   "dev_io_figures: unknown flushes are no requests and no time");
	dev_io_figures(&x, 0, 2, &fg);
	ok(isnan(fg.utilization) && isnan(fg.queue) && isnan(fg.requests_per_second) &&
		   isnan(fg.mib_per_second) && fg.service_ms == 500.0 / 90,
	   "dev_io_figures: no time, no rates; the times per request stay");
	memset(&x, 0, sizeof(x));
	dev_io_figures(&x, 1.0, 1, &fg);
	ok(fg.utilization == 0 && fg.requests_per_second == 0 && isnan(fg.service_ms) &&
		   isnan(fg.await_ms),
	   "dev_io_figures: no request, no time per request");
}

/* result_hash() is XXH3-128 as xxh128sum prints it; result_new() copies
 * the command line result_set_command_line() recorded, as given. */
static void test_hash_and_command_line(void)
{
	char *h = result_hash("", 0);
	char *argv[] = { "fsgauge", "run", "-s", "x=1", NULL };
	struct result *r;

	is_str(h, "99aa06d3014798d86001c324468d497f", "XXH3-128 of nothing, high half first");
	free(h);
	h = result_hash("abc", 3);
	is_int(strlen(h), 32, "32 hex digits");
	ok(strcmp(h, "99aa06d3014798d86001c324468d497f") != 0, "other text, other hash");
	free(h);
	r = result_new("run", "w");
	ok(!r->command_line && !r->ncommand_line, "nothing recorded: no command line");
	result_free(r);
	result_set_command_line(4, argv);
	argv[3] = "x=2"; /* the result keeps its own copy */
	r = result_new("run", "w");
	is_int(r->ncommand_line, 4, "four arguments");
	ok(r->ncommand_line == 4 && !strcmp(r->command_line[0], "fsgauge") &&
		   !strcmp(r->command_line[3], "x=1") && !r->command_line[4],
	   "the arguments as recorded, in order, NULL-terminated");
	result_free(r);
	result_set_command_line(1, argv);
	r = result_new("run", "w");
	is_int(r->ncommand_line, 1, "a second call replaces the first");
	result_free(r);
}

/* CPU per operation is the sampled share of latency that was CPU times
 * the mean latency of every operation (runner/internal.h): weights count,
 * a merge adds, a subtraction takes the baseline off, and the figure never
 * exceeds the mean latency when every sample is at most its latency. */
static void test_cpu_per_op(void)
{
	struct op_stats a, b, m, d;

	op_stats_init(&a);
	ok(isnan(op_stats_cpu_per_op(&a)), "cpu/op: no sample is NaN (unknown)");
	/* 100 operations of 10 us; two samples: 4 us of 10 with weight 1,
	 * 8 us of 10 with weight 49 (it stands for 49 operations) */
	for (int i = 0; i < 100; i++)
		hist_add(&a.lat, 10000);
	a.ops = 100;
	a.cpu_samples = 2;
	a.cpu_ns = 4000 * 1 + 8000 * 49;
	a.cpu_lat_ns = 10000 * 1 + 10000 * 49;
	is_near(op_stats_cpu_per_op(&a), (4000.0 + 8000 * 49) / 50, 1e-6,
		"cpu/op: the weighted share of the sampled latency times the mean");
	/* the same operations slower in another thread: 20 us, CPU 2 us */
	op_stats_init(&b);
	for (int i = 0; i < 100; i++)
		hist_add(&b.lat, 20000);
	b.ops = 100;
	b.cpu_samples = 1;
	b.cpu_ns = 2000 * 100;
	b.cpu_lat_ns = 20000 * 100;
	op_stats_init(&m);
	op_stats_merge(&m, &a);
	op_stats_merge(&m, &b);
	is_int((int)m.cpu_samples, 3, "cpu/op: merged samples");
	is_near(op_stats_cpu_per_op(&m), (double)m.cpu_ns / (double)m.cpu_lat_ns * 15000.0, 1e-6,
		"cpu/op: merged over both threads");
	ok(op_stats_cpu_per_op(&m) <= hist_mean(&m.lat), "cpu/op: at most the mean latency");
	op_stats_sub(&d, &m, &a);
	is_int((int)d.cpu_lat_ns, (int)b.cpu_lat_ns, "cpu/op: the baseline's weighted latency taken off");
	is_near(op_stats_cpu_per_op(&d), 2000.0, 1e-6, "cpu/op: what is left is the second thread's");
	/* samples of zero latency (the null engine) used no CPU */
	op_stats_init(&b);
	hist_add(&b.lat, 0);
	b.ops = b.cpu_samples = 1;
	is_near(op_stats_cpu_per_op(&b), 0, 0, "cpu/op: samples of no time: 0, not NaN");
}

int main(void)
{
	test_cpu_per_op();
	test_hash_and_command_line();
	test_hist_sub();
	test_live_consistent();
	test_split_stats();
	test_headline_and_judge();
	test_repeat_stats();
	test_metric_repeats();
	test_qdepth();
	test_dev_io();
	return done_testing();
}
