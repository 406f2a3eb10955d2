/*
 * fio_terse.c — an io result in fio's terse format, version 3
 * (--output-format=terse): one line of ';'-separated fields per job (its
 * clones together) or per group with group_reporting, in the order fio's
 * documentation gives for version 3: the job, then for reads and for
 * writes the amount, bandwidth, IOPS and runtime, submission, completion
 * and total latency (microseconds), 20 percentile fields and the
 * bandwidth samples, then CPU, IO depths, the latency buckets and, per
 * disk, its counters.
 *
 * The bandwidth's min, max, share, mean and stddev are those of the
 * samples fio's JSON has (io_samples(): every 0.5 s when terse lines are
 * asked for).
 *
 * The fields are positional, so one fsgauge has no figure for is left
 * empty (never written as zero): the bandwidth samples (min, max, mean,
 * stddev) of a run too short for one (their share is then that of the
 * bytes), the context switches of a job that ran with others without
 * group_reporting, the page faults.  On a synchronous engine the
 * submission latency is nothing, as in fio, and the completion latency
 * is the request's; on an asynchronous one (io_uring, libaio) they are
 * the runner's split of it (stats/result.h, struct op_split).  The
 * percentile fields are completion latency's, or total latency's with
 * lat_percentiles (as fio's terse lines), and the latency buckets
 * completion latency's, as fio's.  A job's verify read-back is in its
 * read fields, over the read-back's time, as in the JSON.
 * docs/fio-compat.md lists the fields.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "suite/io/internal.h"
#include "util/util.h"

#define TERSE_PCTS 20 /* percentile fields, used or "0%=0" */


/* min;max;mean;stddev of a histogram, in microseconds (have: 0 leaves
 * the four fields empty). */
static void lat4(FILE *f, const struct hist *h, int have)
{
	if (!have) {
		fputs(";;;;", f);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(h->count ? h->min / 1000 : 0),
		(unsigned long long)(h->count ? h->max / 1000 : 0), hist_mean(h) / 1000.0,
		io_hist_stdev(h) / 1000.0);
}

static void pcts20(FILE *f, const struct hist *h, const struct io_job *j)
{
	size_t np;
	const double *p = io_percentiles(j, &np);

	for (size_t i = 0; i < TERSE_PCTS; i++) {
		if (i < np)
			fprintf(f, ";%f%%=%llu", p[i],
				(unsigned long long)(h->count ? hist_quantile(h, p[i] / 100.0) / 1000
							      : 0));
		else
			fputs(";0%=0", f);
	}
}

/* One direction: st's figures over secs; total_bytes: the direction's
 * bytes over the whole group, in gsecs (for the bandwidth's share); sm:
 * the direction's bandwidth samples (sm->n 0: none). */
static void dir_fields(FILE *f, const struct op_stats *st, double secs, uint64_t total_bytes,
		       double gsecs, const struct io_samples *sm, const struct io_job *j,
		       int sync_engine)
{
	uint64_t bytes = st->bytes_read + st->bytes_written;
	double bw = secs > 0 ? (double)bytes / secs : 0;

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(bytes / 1024),
		(unsigned long long)(bw / 1024),
		(unsigned long long)(secs > 0 ? (double)st->ops / secs + 0.5 : 0),
		(unsigned long long)(st->ops ? secs * 1000 + 0.5 : 0));
	const struct op_split *sp = sync_engine ? NULL : st->split;

	if (sp && st->ops)
		lat4(f, &sp->slat, 1); /* slat */
	else if (sync_engine || !st->ops)
		fputs(";0;0;0.000000;0.000000", f);
	else
		fputs(";;;;", f); /* (requests without their split) */
	lat4(f, sp ? &sp->clat : &st->lat, sync_engine || !st->ops || sp); /* clat */
	pcts20(f, sp && !j->lat_percentiles ? &sp->clat : &st->lat, j);
	lat4(f, &st->lat, 1); /* lat */
	/* bw min, max, share of the group's, mean, stddev: the samples', as
	 * the JSON's; without samples only the share, of the bytes (fio's
	 * zeros when the direction did nothing) */
	if (!st->ops)
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
	else if (sm->n)
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)sm->bw_min,
			(unsigned long long)sm->bw_max, io_bw_agg(sm, total_bytes, gsecs), sm->bw_mean,
			sm->bw_dev);
	else
		fprintf(f, ";;;%f%%;;",
			total_bytes ? 100.0 * (double)bytes / (double)total_bytes : 0.0);
}

/* fio's latency buckets in percent: <=2 ... 1000 us, then <=2 ... 1000,
 * 2000, >=2000 ms. */
static void lat_buckets(FILE *f, const struct hist *h)
{
	static const double edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	double lo = -1; /* (a request can take 0 ns on the clock) */

	for (double scale = 1e3; scale <= 1e6; scale *= 1e3)
		for (size_t e = 0; e < ARRAY_SIZE(edges); e++) {
			double hi = edges[e] * scale;

			fprintf(f, ";%.2f%%",
				h->count ? 100.0 * (double)io_hist_count_in(h, lo, hi) /
						   (double)h->count
					 : 0.0);
			lo = hi;
		}
	fprintf(f, ";%.2f%%;%.2f%%",
		h->count ? 100.0 * (double)io_hist_count_in(h, lo, 2e9) / (double)h->count : 0.0,
		h->count ? 100.0 * (double)io_hist_count_in(h, 2e9, 1e300) / (double)h->count
			 : 0.0);
}

static void depths(FILE *f, const struct op_stats *st)
{
	uint64_t tot = 0;

	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++)
		tot += st->qdepth[b];
	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++)
		fprintf(f, ";%.1f%%",
			tot ? 100.0 * (double)st->qdepth[b] / (double)tot : b == 0 ? 100.0 : 0.0);
}

/* Each disk: name;read_ios;write_ios;read_merges;write_merges;
 * read_ticks;write_ticks;in_queue;util%, over the whole run. */
static void disks(FILE *f, const struct result *res)
{
	size_t n = io_ndisks(res);

	for (size_t i = 0; i < n; i++) {
		struct dev_io sum;
		double util;
		const char *name = io_disk_total(res, i, &sum, &util);

		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%.2f%%", name,
			(unsigned long long)sum.reads, (unsigned long long)sum.writes,
			(unsigned long long)sum.read_merges, (unsigned long long)sum.write_merges,
			(unsigned long long)sum.read_ms, (unsigned long long)sum.write_ms,
			(unsigned long long)sum.weighted_ms, util);
	}
}

/* One line: jobs[0 .. n) of group `group`, of gr's jobs. */
static void job_line(FILE *f, const struct result *res, const struct io_gphases *gp,
		     const struct io_job *jobs, size_t n, const struct io_job *gj, size_t gn,
		     unsigned group)
{
	struct op_stats d[2], grp[2], all;
	uint64_t ctx, majf, minf;
	int sync_engine = !(engine_spec_caps(jobs[0].ioengine) & ENGINE_ASYNC);
	double usr, sys;

	for (int k = 0; k < 2; k++) {
		op_stats_init(&d[k]);
		op_stats_init(&grp[k]);
		for (size_t i = 0; i < n; i++)
			io_merge_ops(&d[k], gp, jobs[i].name, (enum io_dir)k);
		for (size_t i = 0; i < gn; i++)
			io_merge_ops(&grp[k], gp, gj[i].name, (enum io_dir)k);
	}
	fprintf(f, "3;fsgauge-%s;%s;%u;%d", FSGAUGE_VERSION, jobs[0].name, group,
		(d[0].errors + d[1].errors) ? 1 : 0);
	for (int k = 0; k < 2; k++) {
		struct io_samples sm;

		io_samples(gp, jobs, n, (enum io_dir)k, &sm);
		dir_fields(f, &d[k], io_dir_seconds(gp, jobs, n, (enum io_dir)k),
			   grp[k].bytes_read + grp[k].bytes_written,
			   io_dir_seconds(gp, gj, gn, (enum io_dir)k), &sm, &jobs[0], sync_engine);
	}
	if (io_cpu(gp, &usr, &sys))
		fprintf(f, ";%f%%;%f%%", usr, sys);
	else
		fputs(";;", f);
	/* context switches, major and minor faults, when known (io_ctx(),
	 * io_faults()) */
	if (io_ctx(gp, n, gn, &ctx))
		fprintf(f, ";%llu", (unsigned long long)ctx);
	else
		fputs(";", f);
	if (io_faults(gp, n, gn, &majf, &minf))
		fprintf(f, ";%llu;%llu", (unsigned long long)majf, (unsigned long long)minf);
	else
		fputs(";;", f);
	op_stats_init(&all);
	op_stats_merge(&all, &d[0]);
	op_stats_merge(&all, &d[1]);
	depths(f, &all);
	lat_buckets(f, !sync_engine && all.split ? &all.split->clat : &all.lat);
	disks(f, res);
	fputc('\n', f);
	for (int k = 0; k < 2; k++) {
		op_stats_release(&d[k]);
		op_stats_release(&grp[k]);
	}
	op_stats_release(&all);
}

void io_format_terse(FILE *f, const struct result *res, const struct io_job *jobs,
		     const struct io_group *groups, size_t ngroups)
{
	struct io_gphases *gps = xcalloc(ngroups ? ngroups : 1, sizeof(*gps));
	size_t ran = io_group_phases(res, jobs, groups, ngroups, gps);

	for (size_t g = 0; g < ran; g++) {
		const struct io_job *gj = jobs + groups[g].first;
		size_t gn = groups[g].n;

		if (gj->group_reporting)
			job_line(f, res, &gps[g], gj, gn, gj, gn, (unsigned)g);
		else
			for (size_t i = 0; i < gn; i++)
				job_line(f, res, &gps[g], gj + i, 1, gj, gn, (unsigned)g);
	}
	free(gps);
}
