/*
 * format.c — fio's text report of an io result: per job (its clones
 * together) or per group (group_reporting), "read:"/"write:" lines with
 * IOPS and bandwidth, latency with percentiles and fio's latency buckets,
 * CPU, IO depths, issued requests; then "Run status group" lines and the
 * disk stats; then fsgauge's own lines (cache, too fast, errors).
 *
 * What fsgauge measures is the latency from issue to completion of each
 * request, fio's "lat": on a synchronous engine the report prints it as
 * such (fio's slat is nothing there, its clat the same figure).  On an
 * asynchronous engine (io_uring, libaio) the runner also splits it where
 * the submission call returned (stats/result.h, struct op_split), and
 * the report has fio's three lines, slat, clat and lat, with clat's
 * percentiles (and lat's with lat_percentiles), and fio's latency
 * distribution of clat.  Figures come from the histograms (bounded
 * relative error, stats/hist.h), stdev included.
 *
 * A group whose write jobs read back what they wrote (verify) has a
 * second phase, "<group>.verify" (io_group_phases): its reads are the
 * jobs' reads, over the read-back's own time, as fio reports its verify
 * reads; a VERIFY line says what was read back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "suite/io/internal.h"
#include "util/util.h"

/* fio's default percentile_list */
static const double default_pcts[] = { 1,  5,  10, 20, 30, 40,	 50,   60,   70,
				       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

const double *io_percentiles(const struct io_job *j, size_t *n)
{
	*n = j->npercentiles ? j->npercentiles : ARRAY_SIZE(default_pcts);
	return j->npercentiles ? j->percentiles : default_pcts;
}

/* What a job's (or a group's) direction did: its operations merged. */
struct dir_fig {
	struct op_stats st;
	struct op_schedule *sched; /* rate=, rate_iops=: merged; NULL without */
	int present;
};

/* "186k", "12.3k", "999", "1.50M": fio's short decimal numbers. */
static void short_num(char *buf, size_t len, double v)
{
	static const char sfx[] = " kMGT";
	int u = 0;

	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 100)
		snprintf(buf, len, "%.0f%c", v, sfx[u]);
	else if (v >= 10)
		snprintf(buf, len, "%.1f%c", v, sfx[u]);
	else
		snprintf(buf, len, "%.2f%c", v, sfx[u]);
}

/* Bytes as fio prints them: binary ("727MiB") or decimal ("763MB"), the
 * unit chosen so the number stays under 10000. */
static void bytes_fmt(char *buf, size_t len, double v, int binary)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const dec[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double base = binary ? 1024 : 1000;
	int u = 0;

	while (v >= 10000 && u < 5) {
		v /= base;
		u++;
	}
	if (v >= 100 || u == 0)
		snprintf(buf, len, "%.0f%s", v, binary ? bin[u] : dec[u]);
	else
		snprintf(buf, len, "%.1f%s", v, binary ? bin[u] : dec[u]);
}

double io_hist_stdev(const struct hist *h)
{
	double mean = hist_mean(h), ss = 0;

	if (h->count < 2)
		return 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->buckets[i]) {
			double d = (double)hist_value_at(i) - mean;

			ss += (double)h->buckets[i] * d * d;
		}
	return sqrt(ss / (double)(h->count - 1));
}

/* The unit latencies are printed in: nsec, usec or msec, by the mean. */
static const char *lat_unit(const struct hist *h, double *div)
{
	double mean = hist_mean(h);

	if (mean < 10000) {
		*div = 1;
		return "nsec";
	}
	if (mean < 10000000) {
		*div = 1e3;
		return "usec";
	}
	*div = 1e6;
	return "msec";
}

/* fio's "WHAT (UNIT): min=, max=, avg=, stdev=" line, indented by ind. */
static void stat_line(FILE *f, const struct hist *h, const char *ind, const char *what)
{
	double div;
	const char *unit = lat_unit(h, &div);

	fprintf(f, "%s%s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", ind, what, unit,
		(double)h->min / div, (double)h->max / div, hist_mean(h) / div,
		io_hist_stdev(h) / div);
}

/* fio's "WHAT percentiles (UNIT):" and its rows. */
static void pct_lines(FILE *f, const struct hist *h, const struct io_job *j, const char *ind,
		      const char *what)
{
	double div;
	const char *unit = lat_unit(h, &div);
	size_t np;
	const double *pcts = io_percentiles(j, &np);

	fprintf(f, "%s%s percentiles (%s):\n", ind, what, unit);
	for (size_t i = 0; i < np; i++) {
		char p[16];

		snprintf(p, sizeof(p), "%.2f", pcts[i]);
		fprintf(f, "%s%6sth=[%5.0f]%s", i % 4 ? " " : "     |", p,
			(double)hist_quantile(h, pcts[i] / 100.0) / div,
			i + 1 == np ? "\n" : i % 4 == 3 ? ",\n" : ",");
	}
}

/* fio's "lat" lines (what: "lat", with its indent) or "sync" lines: the
 * figures, then the percentiles. */
static void lat_lines(FILE *f, const struct hist *h, const struct io_job *j, const char *what)
{
	const char *ind = strcmp(what, "lat") ? "    " : "     ";

	stat_line(f, h, ind, what);
	pct_lines(f, h, j, ind, what);
}

/* An asynchronous engine's requests (st->split): fio's slat, clat and lat
 * lines, clat's percentiles (fio's default), lat's with lat_percentiles. */
static void split_lines(FILE *f, const struct op_stats *st, const struct io_job *j)
{
	stat_line(f, &st->split->slat, "    ", "slat");
	stat_line(f, &st->split->clat, "    ", "clat");
	stat_line(f, &st->lat, "     ", "lat");
	pct_lines(f, &st->split->clat, j, "    ", "clat");
	if (j->lat_percentiles)
		pct_lines(f, &st->lat, j, "    ", "lat");
}

uint64_t io_hist_count_in(const struct hist *h, double lo, double hi)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		double v = (double)hist_value_at(i);

		if (h->buckets[i] && v > lo && v <= hi)
			n += h->buckets[i];
	}
	return n;
}

/* fio's latency distribution: the share of requests up to each edge
 * (2, 4, 10, ... 1000 of a unit), one line per unit that has any. */
static void lat_buckets(FILE *f, const struct hist *h)
{
	static const double edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	static const char *const units[] = { "nsec", "usec", "msec" };
	double scale = 1, lo = -1; /* (a request can take 0 ns on the clock) */

	if (!h->count)
		return;
	for (int u = 0; u < 3; u++, scale *= 1000) {
		char line[512];
		size_t len = 0;

		for (size_t e = 0; e < ARRAY_SIZE(edges); e++) {
			double hi = edges[e] * scale, pct;
			/* the last edge takes every longer request too */
			uint64_t n = io_hist_count_in(h, lo,
						      u == 2 && e + 1 == ARRAY_SIZE(edges) ? 1e300 : hi);

			lo = hi;
			pct = 100.0 * (double)n / (double)h->count;
			if (pct >= 0.01 && len < sizeof(line) - 32)
				len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%.0f=%.2f%%",
							len ? ", " : "", edges[e], pct);
		}
		if (len)
			fprintf(f, "  lat (%s)   : %s\n", units[u], line);
	}
}

static void depth_line(FILE *f, const struct op_stats *st)
{
	static const char *const lab[OP_QDEPTH_BUCKETS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	uint64_t tot = 0;

	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++)
		tot += st->qdepth[b];
	fprintf(f, "  IO depths    :");
	for (int b = 0; b < OP_QDEPTH_BUCKETS; b++) {
		double pct = tot ? 100.0 * (double)st->qdepth[b] / (double)tot : b == 0 ? 100.0 : 0;

		fprintf(f, " %s=%.1f%%%s", lab[b], pct, b + 1 < OP_QDEPTH_BUCKETS ? "," : "\n");
	}
}

static void dir_block(FILE *f, const char *what, const struct dir_fig *d, double secs,
		      const struct io_job *j)
{
	double bytes = (double)(d->st.bytes_read + d->st.bytes_written + d->st.bytes_trimmed);
	char iops[32], bw[32], bwd[32], io[32];

	short_num(iops, sizeof(iops), secs > 0 ? (double)d->st.ops / secs : 0);
	bytes_fmt(bw, sizeof(bw), secs > 0 ? bytes / secs : 0, 1);
	bytes_fmt(bwd, sizeof(bwd), secs > 0 ? bytes / secs : 0, 0);
	bytes_fmt(io, sizeof(io), bytes, 1);
	fprintf(f, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%.0fmsec)\n", what, iops, bw, bwd, io,
		secs * 1000);
	if (d->st.lat.count && d->st.split)
		split_lines(f, &d->st, j);
	else if (d->st.lat.count)
		lat_lines(f, &d->st.lat, j, "lat");
	if (d->sched && d->sched->lat.count) {
		/* what fio does not print: the latency from each request's
		 * scheduled time (the open-loop schedule's clients' wait) */
		char r[64];

		if (j->rate_iops)
			snprintf(r, sizeof(r), "rate_iops=%llu", (unsigned long long)j->rate_iops);
		else
			snprintf(r, sizeof(r), "rate=%llu", (unsigned long long)j->rate);
		lat_lines(f, &d->sched->lat, j, "sched lat");
		fprintf(f, "    schedule: %s (%s), issued=%llu, late=%llu (more than %llu ms after "
			   "their time)\n",
			r, j->rate_process == 2 ? "poisson" : "linear",
			(unsigned long long)d->sched->ops, (unsigned long long)d->sched->late,
			OP_SCHED_LATE_NS / 1000000ull);
	}
}

/* Is phase name `p` the read-back phase of group phase `g`:
 * "<g>.verify"? */
static int verify_phase_of(const char *p, const char *g)
{
	size_t n = strlen(g);

	return !strncmp(p, g, n) && !strcmp(p + n, ".verify");
}

size_t io_group_phases(const struct result *res, const struct io_job *jobs,
		       const struct io_group *groups, size_t ngroups, struct io_gphases *v)
{
	size_t p = 0, g;

	for (g = 0; g < ngroups; g++) {
		const char *name = jobs[groups[g].first].name;
		size_t q = p;

		while (q < res->nphases && strcmp(res->phases[q].name, name))
			q++;
		if (q == res->nphases)
			break;
		v[g].ph = &res->phases[q];
		v[g].vph = NULL;
		p = q + 1;
		if (p < res->nphases && verify_phase_of(res->phases[p].name, name))
			v[g].vph = &res->phases[p++];
	}
	return g;
}

/* Does job `job` have operations of direction dir in the group phase
 * (vph 0) or of its read-back in the read-back phase (vph 1)?  Merged
 * into st when st is not NULL. */
static int dir_ops(struct op_stats *st, const struct io_gphases *gp, const char *job,
		   enum io_dir dir, int vph)
{
	const struct result_phase *ph = vph ? gp->vph : gp->ph;
	int present = 0;

	if (!ph || (vph && dir != IO_DIR_READ))
		return 0;
	for (size_t i = 0; i < ph->nops; i++)
		if (vph ? io_op_of(ph->ops[i].name, job, "verify")
			: io_op_of_dir(ph->ops[i].name, job, dir)) {
			if (st)
				op_stats_merge(st, &ph->ops[i].st);
			present = 1;
		}
	return present;
}

int io_merge_ops(struct op_stats *st, const struct io_gphases *gp, const char *job,
		 enum io_dir dir)
{
	int a = dir_ops(st, gp, job, dir, 0);
	int b = dir_ops(st, gp, job, dir, 1);

	return a || b;
}

uint64_t io_group_bytes(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
			enum io_dir dir)
{
	struct op_stats st;

	op_stats_init(&st);
	for (size_t i = 0; i < n; i++)
		io_merge_ops(&st, gp, jobs[i].name, dir);
	op_stats_release(&st);
	return st.bytes_read + st.bytes_written + st.bytes_trimmed;
}

double io_dir_seconds(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
		      enum io_dir dir)
{
	int in_ph = 0, in_v = 0;

	for (size_t i = 0; i < n; i++) {
		in_ph |= dir_ops(NULL, gp, jobs[i].name, dir, 0);
		in_v |= dir_ops(NULL, gp, jobs[i].name, dir, 1);
	}
	/* (a direction the jobs did not do: the group's time, as before
	 * there were read-backs; nothing divides by it then) */
	if (!in_ph && !in_v)
		return gp->ph->seconds;
	return (in_ph ? gp->ph->seconds : 0) + (in_v ? gp->vph->seconds : 0);
}

double io_seconds(const struct io_gphases *gp)
{
	return gp->ph->seconds + (gp->vph ? gp->vph->seconds : 0);
}

int io_cpu(const struct io_gphases *gp, double *usr, double *sys)
{
	const struct result_phase *v = gp->vph;
	double tw = gp->ph->seconds * gp->ph->nthreads + (v ? v->seconds * v->nthreads : 0);

	if (!(gp->ph->seconds > 0) || gp->ph->nthreads <= 0 || !(tw > 0))
		return 0;
	*usr = 100.0 * (double)(gp->ph->cpu_user_ns + (v ? v->cpu_user_ns : 0)) / 1e9 / tw;
	*sys = 100.0 * (double)(gp->ph->cpu_sys_ns + (v ? v->cpu_sys_ns : 0)) / 1e9 / tw;
	return 1;
}

/* The phase's context switches (csw) or page faults (!csw), when read
 * for every worker: 1, else 0. */
static int thread_counts(const struct result_phase *ph, int csw, uint64_t *a, uint64_t *b)
{
	const struct result_threads *t = &ph->threads;

	if (!t->n || (csw ? t->csw_n : t->flt_n) != t->n)
		return 0;
	*a += csw ? t->vcsw : t->majflt;
	*b += csw ? t->ivcsw : t->minflt;
	return 1;
}

int io_ctx(const struct io_gphases *gp, size_t n, size_t gn, uint64_t *ctx)
{
	uint64_t v = 0, iv = 0;

	if (n != gn || !thread_counts(gp->ph, 1, &v, &iv) ||
	    (gp->vph && !thread_counts(gp->vph, 1, &v, &iv)))
		return 0;
	*ctx = v + iv;
	return 1;
}

int io_faults(const struct io_gphases *gp, size_t n, size_t gn, uint64_t *majf, uint64_t *minf)
{
	uint64_t ma = 0, mi = 0;

	if (n != gn || !thread_counts(gp->ph, 0, &ma, &mi) ||
	    (gp->vph && !thread_counts(gp->vph, 0, &ma, &mi)))
		return 0;
	*majf = ma;
	*minf = mi;
	return 1;
}

/* Sum the job's ops of its direction into d (io_merge_ops), their
 * schedules too. */
static void add_op(struct dir_fig *d, const struct io_gphases *gp, const char *job,
		   enum io_dir dir)
{
	const struct result_phase *ph = gp->ph;

	d->present |= io_merge_ops(&d->st, gp, job, dir);
	for (size_t i = 0; i < ph->nops; i++)
		if (ph->ops[i].sched && io_op_of_dir(ph->ops[i].name, job, dir))
			op_schedule_merge(&d->sched, ph->ops[i].sched);
}

/* Sum the phase's syncs of fsync=, fdatasync=, end_fsync= ("<job>.fsync",
 * "<job>.fdatasync": io.c, add_sync) into d. */
static void add_syncs(struct dir_fig *d, const struct result_phase *ph, const char *job)
{
	for (size_t i = 0; i < ph->nops; i++) {
		const char *name = ph->ops[i].name;

		if (io_op_of(name, job, "fsync") || io_op_of(name, job, "fdatasync")) {
			op_stats_merge(&d->st, &ph->ops[i].st);
			d->present = 1;
		}
	}
}

/* jobs[0 .. n) of the group's gn, reported together. */
static void job_block(FILE *f, const struct io_gphases *gp, const struct io_job *jobs,
		      size_t n, size_t gn, unsigned group)
{
	struct dir_fig d[3], sy;
	struct op_stats all;
	unsigned clones = 0;
	uint64_t errors, ctx, majf, minf;
	double usr, sys;

	for (int k = 0; k < 3; k++) {
		memset(&d[k], 0, sizeof(d[k]));
		op_stats_init(&d[k].st);
	}
	memset(&sy, 0, sizeof(sy));
	op_stats_init(&sy.st);
	for (size_t i = 0; i < n; i++) {
		add_op(&d[0], gp, jobs[i].name, IO_DIR_READ);
		add_op(&d[1], gp, jobs[i].name, IO_DIR_WRITE);
		add_op(&d[2], gp, jobs[i].name, IO_DIR_TRIM);
		add_syncs(&sy, gp->ph, jobs[i].name);
		clones += jobs[i].numjobs;
	}
	errors = d[0].st.errors + d[1].st.errors + d[2].st.errors + sy.st.errors;
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%3llu\n", jobs[0].name, group, clones,
		(unsigned long long)errors);
	/* (each direction over its own time: the reads of a read-back over
	 * the read-back's, fio's read runtime) */
	if (d[0].present)
		dir_block(f, "read", &d[0], io_dir_seconds(gp, jobs, n, IO_DIR_READ), &jobs[0]);
	if (d[1].present)
		dir_block(f, "write", &d[1], io_dir_seconds(gp, jobs, n, IO_DIR_WRITE), &jobs[0]);
	if (d[2].present)
		dir_block(f, "trim", &d[2], io_dir_seconds(gp, jobs, n, IO_DIR_TRIM), &jobs[0]);
	op_stats_init(&all);
	for (int k = 0; k < 3; k++)
		op_stats_merge(&all, &d[k].st);
	/* fio's distribution is completion latency's (the total's on a
	 * synchronous engine) */
	lat_buckets(f, all.split ? &all.split->clat : &all.lat);
	if (sy.present && sy.st.lat.count) {
		fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
		lat_lines(f, &sy.st.lat, &jobs[0], "sync");
	}
	if (io_cpu(gp, &usr, &sys)) {
		fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%", usr, sys);
		if (io_ctx(gp, n, gn, &ctx))
			fprintf(f, ", ctx=%llu", (unsigned long long)ctx);
		if (io_faults(gp, n, gn, &majf, &minf))
			fprintf(f, ", majf=%llu, minf=%llu", (unsigned long long)majf,
				(unsigned long long)minf);
		fputs(" (usr, sys: all of fsgauge's threads)\n", f);
	}
	depth_line(f, &all);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu\n", (unsigned long long)d[0].st.ops,
		(unsigned long long)d[1].st.ops, (unsigned long long)d[2].st.ops,
		(unsigned long long)sy.st.ops);
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n\n",
		jobs[0].iodepth);
	for (int k = 0; k < 3; k++) {
		free(d[k].sched);
		op_stats_release(&d[k].st);
	}
	op_stats_release(&sy.st);
	op_stats_release(&all);
}

static void status_line(FILE *f, const char *what, const struct io_gphases *gp,
			const struct io_job *jobs, size_t n, enum io_dir dir)
{
	double secs = io_dir_seconds(gp, jobs, n, dir), tot = 0, lo = -1, hi = 0;
	char bw[32], bwd[32], lob[32], hib[32], lod[32], hid[32], io[32], iod[32];

	for (size_t i = 0; i < n; i++) {
		struct dir_fig d;
		double b;

		memset(&d, 0, sizeof(d));
		op_stats_init(&d.st);
		add_op(&d, gp, jobs[i].name, dir);
		free(d.sched);
		op_stats_release(&d.st);
		if (!d.present)
			continue;
		b = (double)(dir == IO_DIR_READ	   ? d.st.bytes_read
			     : dir == IO_DIR_TRIM ? d.st.bytes_trimmed
						  : d.st.bytes_written);
		tot += b;
		if (lo < 0 || b < lo)
			lo = b;
		hi = MAX(hi, b);
	}
	if (lo < 0 || !(secs > 0))
		return;
	bytes_fmt(bw, sizeof(bw), tot / secs, 1);
	bytes_fmt(bwd, sizeof(bwd), tot / secs, 0);
	bytes_fmt(lob, sizeof(lob), lo / secs, 1);
	bytes_fmt(hib, sizeof(hib), hi / secs, 1);
	bytes_fmt(lod, sizeof(lod), lo / secs, 0);
	bytes_fmt(hid, sizeof(hid), hi / secs, 0);
	bytes_fmt(io, sizeof(io), tot, 1);
	bytes_fmt(iod, sizeof(iod), tot, 0);
	fprintf(f, "  %5s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%.0f-%.0fmsec\n",
		what, bw, bwd, lob, hib, lod, hid, io, iod, secs * 1000, secs * 1000);
}

/* The devices over the group's phase and its read-back (fio's disk
 * stats cover its whole run, verify included). */
static void disk_stats(FILE *f, const struct io_gphases *gp)
{
	const struct result_device *d = &gp->ph->device;
	double secs = io_seconds(gp) > 0 ? io_seconds(gp) : 1e-9;

	if (d->none) {
		fprintf(f, "\nDisk stats: none (%s)\n", d->none);
		return;
	}
	if (!d->ndev)
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < d->ndev; i++) {
		struct dev_io sum = d->per[i];
		const struct dev_io *x = &sum;

		for (size_t k = 0; gp->vph && k < gp->vph->device.ndev; k++)
			if (!strcmp(gp->vph->device.names[k], d->names[i]))
				dev_io_add(&sum, &gp->vph->device.per[k]);

		fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
			   "util=%.2f%%\n",
			d->names[i], (unsigned long long)x->reads, (unsigned long long)x->writes,
			(unsigned long long)x->read_merges, (unsigned long long)x->write_merges,
			(unsigned long long)x->read_ms, (unsigned long long)x->write_ms,
			(unsigned long long)x->weighted_ms, dev_io_utilization(x, secs, 1));
	}
}

/* The phase's warnings and verdicts; what: NULL for a group's phase,
 * "read-back" for its read-back's, whose lines it names. */
static void trust_lines(FILE *f, const struct result_phase *ph, const struct kvlist *env,
			const char *what)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "%s%s", what ? what : "", what ? ": " : "");
	for (size_t i = 0; i < ph->nops; i++) {
		const struct op_schedule *s = ph->ops[i].sched;

		if (s && s->late)
			fprintf(f, "WARNING: %s could not keep up with its schedule: %llu of %llu "
				   "requests late (issued more than %llu ms after their time)\n",
				ph->ops[i].name, (unsigned long long)s->late,
				(unsigned long long)s->ops, OP_SCHED_LATE_NS / 1000000ull);
		if (s && s->below_min)
			fprintf(f, "WARNING: %s stayed below rate_min in %llu of %llu clones\n",
				ph->ops[i].name, (unsigned long long)s->below_min,
				(unsigned long long)s->threads);
	}
	if (ph->too_fast)
		fprintf(f, "WARNING: %stoo fast to measure reliably: %s\n", prefix,
			ph->too_fast_reason ? ph->too_fast_reason : "");
	output_cache_warnings(f, ph, NULL, what);
	output_zfs(f, ph, env, prefix);
	output_limited_by(f, ph, prefix);
}

/* fsgauge's line about a group's read-back (verify): what it read and
 * checked, and that its time is not the writes'. */
static void verify_line(FILE *f, const struct io_gphases *gp)
{
	const struct result_phase *v = gp->vph;
	uint64_t ops = 0, bytes = 0;
	char io[32];

	for (size_t i = 0; i < v->nops; i++) {
		size_t n = strlen(v->ops[i].name);

		if (n > 7 && !strcmp(v->ops[i].name + n - 7, ".verify")) {
			ops += v->ops[i].st.ops;
			bytes += v->ops[i].st.bytes_read;
		}
	}
	bytes_fmt(io, sizeof(io), (double)bytes, 1);
	fprintf(f, "  VERIFY: read back and checked %llu requests, io=%s, run=%.0fmsec, after the "
		   "writes (in READ, not in the writes' time)%s\n",
		(unsigned long long)ops, io, v->seconds * 1000,
		v->end_reason && !strcmp(v->end_reason, "duration") ? "; cut short by the runtime"
								     : "");
}

void io_format_text(FILE *f, const struct result *res, const struct io_job *jobs,
		    size_t njobs, const struct io_group *groups, size_t ngroups)
{
	struct io_gphases *gps = xcalloc(ngroups ? ngroups : 1, sizeof(*gps));
	size_t ran = io_group_phases(res, jobs, groups, ngroups, gps);

	for (size_t g = 0; g < ran; g++) {
		const struct io_gphases *gp = &gps[g];
		const struct io_group *gr = &groups[g];
		const struct io_job *gj = jobs + gr->first;

		if (gj->group_reporting)
			job_block(f, gp, gj, gr->n, gr->n, (unsigned)g);
		else
			for (size_t i = 0; i < gr->n; i++)
				job_block(f, gp, gj + i, 1, gr->n, (unsigned)g);
		fprintf(f, "Run status group %zu (all jobs):\n", g);
		status_line(f, "READ", gp, gj, gr->n, IO_DIR_READ);
		status_line(f, "WRITE", gp, gj, gr->n, IO_DIR_WRITE);
		status_line(f, "TRIM", gp, gj, gr->n, IO_DIR_TRIM);
		if (gp->vph)
			verify_line(f, gp);
		disk_stats(f, gp);
		trust_lines(f, gp->ph, &res->env, NULL);
		if (gp->vph)
			trust_lines(f, gp->vph, &res->env, "read-back");
		if (g + 1 < ran)
			fputc('\n', f);
	}
	free(gps);
	(void)njobs;
	if (res->interrupted)
		fprintf(f, "NOTE: interrupted by a signal: these are partial results\n");
	if (res->stopped_on_error)
		fprintf(f, "NOTE: stopped at the first error (--on-error=stop): partial results\n");
	if (res->verify_errors)
		fprintf(f, "NOTE: %llu blocks failed verification\n",
			(unsigned long long)res->verify_errors);
	if (res->errors)
		fprintf(f, "NOTE: %llu operation errors; first: %s\n", (unsigned long long)res->errors,
			res->first_error ? res->first_error : "?");
}
