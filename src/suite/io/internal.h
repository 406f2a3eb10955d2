/*
 * internal.h — what the files of the io suite share.
 *
 *   job.c     a fio job's options by fio's names and units (job.h)
 *   io.c      the suite: the command line's jobs, checks, block devices,
 *             the model (one thread per clone), the hooks of suite_main()
 *   format.c  fio's per-job text report from the result
 *   fio_json.c  the result in fio's JSON (--output-format=json, json+)
 *   fio_terse.c the result in fio's terse format, version 3
 */
#ifndef FSGAUGE_SUITE_IO_INTERNAL_H
#define FSGAUGE_SUITE_IO_INTERNAL_H

#include <stdio.h>

#include "stats/result.h"
#include "suite/io/job.h"

/* A reporting group: jobs run together in one phase (a stonewall starts
 * the next). */
struct io_group {
	size_t first, n; /* jobs[first .. first + n) */
};

/* Is operation `op` job `job`'s `what` ("read", "fsync"): "<job>.<what>",
 * or with several targets "<job>@K.<what>" (K from 1: its clones in
 * target K, docs/targets.md)?  fio's figures of a job are over every
 * target. */
int io_op_of(const char *op, const char *job, const char *what);
/* The same for direction d's requests ("read", "write", "trim"). */
int io_op_of_dir(const char *op, const char *job, enum io_dir d);

/* fio's text report of the result's phases: a block per job (clones
 * together), or per group with group_reporting, the "Run status" lines
 * and the disk stats, then fsgauge's own lines (cache, amplification). */
void io_format_text(FILE *f, const struct result *res, const struct io_job *jobs,
		    size_t njobs, const struct io_group *groups, size_t ngroups);

/* A group's phases in the result: the one its jobs ran in, and, when
 * its jobs that wrote with verify read back what they wrote, the
 * read-back phase after it, "<group>.verify" (NULL: none), whose
 * "<job>.verify" operations are the job's reads in fio's reports, as
 * fio counts its verify phase's reads as the job's (docs/io.md,
 * "Verify"). */
struct io_gphases {
	const struct result_phase *ph, *vph;
};
/* The phases of groups[0 .. ngroups) in res, in order, into v: how many
 * groups have their phase there (the first ones: a run stops at the
 * first group that fails). */
size_t io_group_phases(const struct result *res, const struct io_job *jobs,
		       const struct io_group *groups, size_t ngroups, struct io_gphases *v);

/* Merge the operations of job `job`'s direction into st (reads: its
 * group phase's and its read-back's): 1 if it has any. */
int io_merge_ops(struct op_stats *st, const struct io_gphases *gp, const char *job,
		 enum io_dir dir);
/* The bytes (read and written) of jobs[0 .. n) in direction dir. */
uint64_t io_group_bytes(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
			enum io_dir dir);
/* The time jobs[0 .. n) spent in direction dir, fio's runtime of it:
 * the group phase's when they had requests of it there, plus, for
 * reads, the read-back phase's when they read back (0: neither). */
double io_dir_seconds(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
		      enum io_dir dir);
/* The group's time: its phase's and its read-back's, fio's job_runtime. */
double io_seconds(const struct io_gphases *gp);
/* usr and sys CPU in percent per worker over the group's phases: 0 when
 * there is no time to divide by. */
int io_cpu(const struct io_gphases *gp, double *usr, double *sys);

/* fio's ctx of a report of n of the group's gn jobs: the context
 * switches, voluntary and not, of the phases' workers in their measured
 * windows (measure.c reads them from each worker's /proc status).  The
 * phases' workers are the clones of the group's jobs (and their
 * read-backs), so they are the report's only when it covers them all (n
 * == gn: one job in the group, or group_reporting), and known only when
 * read for every worker: 1 then, with *ctx; else 0. */
int io_ctx(const struct io_gphases *gp, size_t n, size_t gn, uint64_t *ctx);
/* fio's majf and minf: the workers' major and minor page faults in the
 * windows (from each worker's /proc stat), on the same terms as io_ctx(). */
int io_faults(const struct io_gphases *gp, size_t n, size_t gn, uint64_t *majf,
	      uint64_t *minf);

/* fio's IOPS and bandwidth samples of jobs[0 .. n) in one direction,
 * from the group's phases' --interval samples (the io suite takes them
 * every 0.5 s, fio's iops_avg_time and bw_avg_time, when fio's JSON or
 * terse lines are asked for; reads: the read-back's too), each
 * ph->interval long; a phase's last, shorter one counts when it lasted
 * half an interval or more (fio counts whole windows only); warm-up
 * samples do not.  Bandwidth in KiB/s,
 * each sample rounded down to a whole KiB/s (so min <= mean <= max);
 * standard deviations over n - 1.  Returns the number of samples (0:
 * none, *s zeroed). */
struct io_samples {
	uint64_t n;
	double iops_min, iops_max, iops_mean, iops_stddev;
	double bw_min, bw_max, bw_mean, bw_dev;
};
int io_samples(const struct io_gphases *gp, const struct io_job *jobs, size_t n,
	       enum io_dir dir, struct io_samples *s);
/* fio's bw_agg: the samples' mean bandwidth as a percentage of the
 * group's aggregate (group_bytes over secs), at most 100; 0 when the
 * group moved no bytes. */
double io_bw_agg(const struct io_samples *s, uint64_t group_bytes, double secs);

/* The job's percentile_list, or fio's default one: n of them. */
const double *io_percentiles(const struct io_job *j, size_t *n);
/* A histogram's standard deviation (from its buckets), and how many of
 * its values are in (lo, hi]. */
double io_hist_stdev(const struct hist *h);
uint64_t io_hist_count_in(const struct hist *h, double lo, double hi);

/* The devices of the result (those of its first phase), and device i's
 * counters summed over the phases with its utilization (percent) over
 * their time; returns its name. */
size_t io_ndisks(const struct result *res);
const char *io_disk_total(const struct result *res, size_t i, struct dev_io *sum, double *util);

/* fio's terse lines (version 3), one per job or group with
 * group_reporting. */
void io_format_terse(FILE *f, const struct result *res, const struct io_job *jobs,
		     const struct io_group *groups, size_t ngroups);

/* The result as fio's JSON (json+: with the latency bins). */
struct json_t;
struct json_t *io_fio_json(const struct result *res, const struct io_job *jobs,
			   const struct io_group *groups, size_t ngroups, int plus);

#endif
