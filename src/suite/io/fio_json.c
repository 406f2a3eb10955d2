/*
 * fio_json.c — an io result in fio's JSON layout (--output-format=json,
 * json+), for the tools that read fio's: a "jobs" entry per job (its
 * clones together) or per group with group_reporting, each with "read",
 * "write" and "trim" objects in fio's field names and units, the CPU, the
 * IO depths, fio's latency buckets, and "disk_util".
 *
 * Only what fsgauge measures is written: fields it has no figure for
 * (slat_ns on a synchronous engine, the IOPS and bandwidth samples of a
 * run too short for one --interval sample, ctx, majf and minf of a job
 * that ran with others without group_reporting, short_ios, drop_ios,
 * iodepth_submit/complete) are absent, never zero.
 * fsgauge times each request from its issue to its completion, fio's
 * "lat".  On a synchronous engine that is also fio's "clat" (fio's slat
 * is nothing there): clat_ns and lat_ns are written, the same figures.
 * On an asynchronous one (io_uring, libaio) the runner also splits it
 * where the submission call returned (stats/result.h, struct op_split):
 * slat_ns, clat_ns and lat_ns, as fio's, with the percentiles (json+:
 * the bins) under clat_ns, and under lat_ns too with lat_percentiles;
 * fio's latency_ns/us/ms are completion latency's, as fio's.
 * A job's verify read-back (its group's "<group>.verify" phase) is in
 * its "read" object, as fio counts its verify reads, each direction over
 * its own time (io_dir_seconds) and job_runtime over both phases.
 * docs/fio-compat.md lists the fields.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "suite/io/internal.h"
#include "util/util.h"


static void set_u(json_t *o, const char *k, uint64_t v)
{
	json_object_set_new(o, k, json_integer((json_int_t)v));
}

static void set_d(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, json_real(v));
}

/* {min, max, mean, stddev, N}, with percentiles (and json+'s bins). */
static json_t *lat_obj(const struct hist *h, const struct io_job *j, int pcts, int plus)
{
	json_t *o = json_object();

	set_u(o, "min", h->count ? h->min : 0);
	set_u(o, "max", h->count ? h->max : 0);
	set_d(o, "mean", hist_mean(h));
	set_d(o, "stddev", io_hist_stdev(h));
	set_u(o, "N", h->count);
	if (pcts && h->count) {
		size_t np;
		const double *p = io_percentiles(j, &np);
		json_t *po = json_object();

		for (size_t i = 0; i < np; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", p[i]);
			set_u(po, key, hist_quantile(h, p[i] / 100.0));
		}
		json_object_set_new(o, "percentile", po);
	}
	if (plus && pcts && h->count) {
		json_t *bins = json_object();

		for (unsigned i = 0; i < HIST_BUCKETS; i++)
			if (h->buckets[i]) {
				char key[32];

				snprintf(key, sizeof(key), "%llu",
					 (unsigned long long)hist_value_at(i));
				set_u(bins, key, h->buckets[i]);
			}
		json_object_set_new(o, "bins", bins);
	}
	return o;
}

/* fio's slat_ns, clat_ns and lat_ns of st (percentiles: as their
 * comments say). */
static void lat_objs(json_t *o, const struct op_stats *st, const struct io_job *j,
		     int sync_engine, int plus)
{
	/* an asynchronous engine's direction that did nothing: fio's three
	 * zeroed objects (st->lat is empty then) */
	const struct hist *slat = st->split ? &st->split->slat : &st->lat;
	const struct hist *clat = st->split ? &st->split->clat : &st->lat;

	if (sync_engine) {
		/* one figure, clat's and lat's; the percentiles with clat, as
		 * fio's, unless lat_percentiles */
		json_object_set_new(o, "clat_ns", lat_obj(&st->lat, j, !j->lat_percentiles, plus));
		json_object_set_new(o, "lat_ns", lat_obj(&st->lat, j, j->lat_percentiles, plus));
	} else if (st->split || !st->ops) {
		/* fio's clat_percentiles (its default) and lat_percentiles */
		json_object_set_new(o, "slat_ns", lat_obj(slat, j, 0, plus));
		json_object_set_new(o, "clat_ns", lat_obj(clat, j, 1, plus));
		json_object_set_new(o, "lat_ns", lat_obj(&st->lat, j, j->lat_percentiles, plus));
	} else {
		/* (requests without their split: the total alone, as before
		 * fsgauge split it) */
		json_object_set_new(o, "lat_ns", lat_obj(&st->lat, j, 1, plus));
	}
}

/* One direction's object; st NULL: the direction did nothing (fio's
 * zeros, which are then the truth). */
static json_t *dir_obj(const struct op_stats *st, double secs, const struct io_job *j,
		       int sync_engine, int plus)
{
	struct op_stats none;
	json_t *o = json_object();
	uint64_t bytes;
	double bw;

	if (!st) {
		op_stats_init(&none);
		st = &none;
	}
	bytes = st->bytes_read + st->bytes_written + st->bytes_trimmed;
	bw = secs > 0 ? (double)bytes / secs : 0;
	set_u(o, "io_bytes", bytes);
	set_u(o, "io_kbytes", bytes / 1024);
	set_u(o, "bw_bytes", (uint64_t)bw);
	set_u(o, "bw", (uint64_t)(bw / 1024));
	set_d(o, "iops", secs > 0 ? (double)st->ops / secs : 0);
	set_u(o, "runtime", st->ops ? (uint64_t)(secs * 1000 + 0.5) : 0);
	set_u(o, "total_ios", st->ops);
	lat_objs(o, st, j, sync_engine, plus);
	return o;
}

/* The share of requests (percent) with a latency in (lo, hi] ns. */
static double share(const struct hist *h, double lo, double hi)
{
	return h->count ? 100.0 * (double)io_hist_count_in(h, lo, hi) / (double)h->count : 0;
}

/* fio's latency_ns/us/ms: the share up to each edge of a unit. */
static void lat_dist(json_t *job, const struct hist *h)
{
	static const double edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	static const char *const keys[] = { "latency_ns", "latency_us", "latency_ms" };
	double scale = 1, lo = -1; /* (a request can take 0 ns on the clock) */

	for (int u = 0; u < 3; u++, scale *= 1000) {
		json_t *o = json_object();

		for (size_t e = 0; e < ARRAY_SIZE(edges); e++) {
			char key[16];

			snprintf(key, sizeof(key), "%.0f", edges[e]);
			set_d(o, key, share(h, lo, edges[e] * scale));
			lo = edges[e] * scale;
		}
		if (u == 2) {
			set_d(o, "2000", share(h, lo, 2000 * scale));
			set_d(o, ">=2000", share(h, 2000 * scale, 1e300));
		}
		json_object_set_new(job, keys[u], o);
	}
}

static json_t *depth_obj(const struct op_stats *st)
{
	static const char *const lab[OP_QDEPTH_BUCKETS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	json_t *o = json_object();
	uint64_t tot = 0;

	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++)
		tot += st->qdepth[b];
	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++)
		set_d(o, lab[b], tot ? 100.0 * (double)st->qdepth[b] / (double)tot : b == 0 ? 100.0 : 0);
	return o;
}

/* Options key=value as fio lists them (a flag's value is ""). */
static json_t *opts_obj(const struct io_kv *kv, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, kv[i].key, json_string(kv[i].val ? kv[i].val : ""));
	return o;
}

int io_samples(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
	       enum io_dir dir, struct io_samples *s)
{
	double sum = 0, ss = 0, bsum = 0, bss = 0;

	memset(s, 0, sizeof(*s));
	/* the group's phase, then (reads) its read-back's "<job>.verify" */
	for (int v = 0; v < 2; v++) {
		const struct result_phase *ph = v ? gp->vph : gp->ph;
		double period = ph ? ph->interval : 0;

		if (!ph || (v && dir != IO_DIR_READ))
			continue;
		for (size_t i = 0; i < ph->nintervals; i++) {
			const struct result_interval *iv = &ph->intervals[i];
			uint64_t ops = 0, bytes = 0;

			if (iv->warmup || iv->seconds <= 0 || iv->seconds < period / 2)
				continue;
			for (size_t k = 0; k < iv->nops && k < ph->nops; k++)
				for (size_t m = 0; m < n; m++) {
					if (v ? io_op_of(ph->ops[k].name, jobs[m].name, "verify")
					      : io_op_of_dir(ph->ops[k].name, jobs[m].name, dir)) {
						ops += iv->op_ops[k];
						bytes += iv->op_bytes[k];
					}
				}
			double x = (double)ops / iv->seconds;
			/* whole KiB/s, rounded down, as fio's bandwidth samples */
			double b = floor((double)bytes / 1024.0 / iv->seconds);

			s->iops_min = s->n == 0 || x < s->iops_min ? x : s->iops_min;
			s->iops_max = s->n == 0 || x > s->iops_max ? x : s->iops_max;
			s->bw_min = s->n == 0 || b < s->bw_min ? b : s->bw_min;
			s->bw_max = s->n == 0 || b > s->bw_max ? b : s->bw_max;
			sum += x;
			ss += x * x;
			bsum += b;
			bss += b * b;
			s->n++;
		}
	}
	if (!s->n)
		return 0;
	double nn = (double)s->n;
	double var = s->n > 1 ? (ss - sum * sum / nn) / (nn - 1) : 0;
	double bvar = s->n > 1 ? (bss - bsum * bsum / nn) / (nn - 1) : 0;

	s->iops_mean = sum / nn;
	s->iops_stddev = var > 0 ? sqrt(var) : 0;
	s->bw_mean = bsum / nn;
	s->bw_dev = bvar > 0 ? sqrt(bvar) : 0;
	return (int)MIN(s->n, (uint64_t)INT32_MAX);
}

double io_bw_agg(const struct io_samples *s, uint64_t group_bytes, double secs)
{
	double agg = secs > 0 ? (double)group_bytes / 1024.0 / secs : 0;

	return agg > 0 ? MIN(100.0, 100.0 * s->bw_mean / agg) : 0;
}

/* fio's IOPS and bandwidth samples (iops_min/max/mean/stddev/samples,
 * bw_min/max/agg/mean/dev/samples) of jobs[0 .. n) in direction dir;
 * group_bytes: the direction's bytes of the whole group (for bw_agg);
 * absent without samples. */
static void samples_obj(json_t *o, const struct io_gphases *gp, const struct io_job *jobs,
			size_t n, enum io_dir dir, uint64_t group_bytes, double group_secs)
{
	struct io_samples s;

	if (!io_samples(gp, jobs, n, dir, &s))
		return;
	set_u(o, "iops_min", (uint64_t)(s.iops_min + 0.5));
	set_u(o, "iops_max", (uint64_t)(s.iops_max + 0.5));
	set_d(o, "iops_mean", s.iops_mean);
	set_d(o, "iops_stddev", s.iops_stddev);
	set_u(o, "iops_samples", s.n);
	set_u(o, "bw_min", (uint64_t)s.bw_min);
	set_u(o, "bw_max", (uint64_t)s.bw_max);
	set_d(o, "bw_agg", io_bw_agg(&s, group_bytes, group_secs));
	set_d(o, "bw_mean", s.bw_mean);
	set_d(o, "bw_dev", s.bw_dev);
	set_u(o, "bw_samples", s.n);
}

/* jobs[0 .. n) of group gj[0 .. gn), reported together: each
 * direction over its own time (a read-back's reads over its phase's:
 * fio's read runtime of its verify reads), the job over both phases. */
static json_t *job_obj(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
		       const struct io_job *gj, size_t gn, unsigned group, int plus)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	struct op_stats d[3], all;
	uint64_t ctx, majf, minf;
	int present[3] = { 0, 0, 0 };
	double secs = io_seconds(gp), usr, sys;
	int sync_engine = !(engine_spec_caps(jobs[0].ioengine) & ENGINE_ASYNC);
	json_t *o = json_object();

	for (int k = 0; k < 3; k++)
		op_stats_init(&d[k]);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			present[k] |= io_merge_ops(&d[k], gp, jobs[i].name, (enum io_dir)k);
	json_object_set_new(o, "jobname", json_string(jobs[0].name));
	set_u(o, "groupid", group);
	set_u(o, "error", (d[0].errors + d[1].errors + d[2].errors) ? 1 : 0);
	set_u(o, "elapsed", (uint64_t)(secs + 0.5));
	json_object_set_new(o, "job options",
			    opts_obj(jobs[0].opts + jobs[0].nglobal, jobs[0].nopts - jobs[0].nglobal));
	for (int k = 0; k < 3; k++) {
		/* (a trim is synchronous on every engine: fio's clat, as psync's) */
		json_t *dj = dir_obj(present[k] ? &d[k] : NULL,
				     io_dir_seconds(gp, jobs, n, (enum io_dir)k), &jobs[0],
				     sync_engine || k == IO_DIR_TRIM, plus);

		if (present[k])
			samples_obj(dj, gp, jobs, n, (enum io_dir)k,
				    io_group_bytes(gp, gj, gn, (enum io_dir)k),
				    io_dir_seconds(gp, gj, gn, (enum io_dir)k));
		json_object_set_new(o, dirs[k], dj);
	}
	set_u(o, "job_runtime", (uint64_t)(secs * 1000 + 0.5));
	if (io_cpu(gp, &usr, &sys)) {
		set_d(o, "usr_cpu", usr);
		set_d(o, "sys_cpu", sys);
	}
	if (io_ctx(gp, n, gn, &ctx))
		set_u(o, "ctx", ctx);
	if (io_faults(gp, n, gn, &majf, &minf)) {
		set_u(o, "majf", majf);
		set_u(o, "minf", minf);
	}
	op_stats_init(&all);
	for (int k = 0; k < 3; k++)
		op_stats_merge(&all, &d[k]);
	json_object_set_new(o, "iodepth_level", depth_obj(&all));
	/* fio's distribution is completion latency's (the same as the
	 * total's on a synchronous engine) */
	lat_dist(o, all.split ? &all.split->clat : &all.lat);
	set_u(o, "latency_depth", jobs[0].iodepth);
	set_u(o, "latency_target", 0);
	set_d(o, "latency_percentile", 100.0);
	set_u(o, "latency_window", 0);
	for (int k = 0; k < 3; k++)
		op_stats_release(&d[k]);
	op_stats_release(&all);
	return o;
}

size_t io_ndisks(const struct result *res)
{
	const struct result_device *d0 = res->nphases ? &res->phases[0].device : NULL;

	return !d0 || d0->none ? 0 : d0->ndev;
}

const char *io_disk_total(const struct result *res, size_t i, struct dev_io *sum, double *util)
{
	const char *name = res->phases[0].device.names[i];
	double secs = 0;

	memset(sum, 0, sizeof(*sum));
	for (size_t p = 0; p < res->nphases; p++) {
		const struct result_device *d = &res->phases[p].device;

		for (size_t k = 0; k < d->ndev; k++)
			if (!strcmp(d->names[k], name))
				dev_io_add(sum, &d->per[k]);
		secs += res->phases[p].seconds;
	}
	*util = secs > 0 ? dev_io_utilization(sum, secs, 1) : 0;
	return name;
}

/* The devices over the whole run. */
static json_t *disk_util(const struct result *res)
{
	json_t *a = json_array();

	for (size_t i = 0; i < io_ndisks(res); i++) {
		struct dev_io sum;
		double util;
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(io_disk_total(res, i, &sum, &util)));
		set_u(o, "read_ios", sum.reads);
		set_u(o, "write_ios", sum.writes);
		set_u(o, "read_merges", sum.read_merges);
		set_u(o, "write_merges", sum.write_merges);
		set_u(o, "read_ticks", sum.read_ms);
		set_u(o, "write_ticks", sum.write_ms);
		set_u(o, "in_queue", sum.weighted_ms);
		set_d(o, "util", util);
		json_array_append_new(a, o);
	}
	return a;
}

static void stamp(json_t *o, const struct result *res)
{
	struct tm tm;
	char buf[64];

	memset(&tm, 0, sizeof(tm));
	if (!res->started_at || !strptime(res->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	time_t t = timegm(&tm);

	set_u(o, "timestamp", (uint64_t)t);
	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm);
	json_object_set_new(o, "time", json_string(buf));
}

json_t *io_fio_json(const struct result *res, const struct io_job *jobs,
		    const struct io_group *groups, size_t ngroups, int plus)
{
	json_t *o = json_object(), *ja = json_array();

	json_object_set_new(o, "fio version", json_string("fsgauge-" FSGAUGE_VERSION));
	stamp(o, res);
	json_object_set_new(o, "global options", opts_obj(jobs[0].opts, jobs[0].nglobal));
	struct io_gphases *gps = xcalloc(ngroups ? ngroups : 1, sizeof(*gps));
	size_t ran = io_group_phases(res, jobs, groups, ngroups, gps);

	for (size_t g = 0; g < ran; g++) {
		const struct io_group *gr = &groups[g];
		const struct io_job *gj = jobs + gr->first;

		if (gj->group_reporting)
			json_array_append_new(ja, job_obj(&gps[g], gj, gr->n, gj, gr->n,
							  (unsigned)g, plus));
		else
			for (size_t i = 0; i < gr->n; i++)
				json_array_append_new(ja, job_obj(&gps[g], gj + i, 1, gj, gr->n,
								  (unsigned)g, plus));
	}
	free(gps);
	json_object_set_new(o, "jobs", ja);
	json_object_set_new(o, "disk_util", disk_util(res));
	return o;
}
