/*
 * reduce.h — how an MPI run's ranks become one result (mpi/mpi.h does the
 * messaging; this is the part without MPI, unit-tested on its own).
 *
 * Each rank packs what it measured (reduce_pack(): its result's status,
 * phases with their operations' statistics, metrics, untar copies,
 * filesets, environment, and the phases' start and end times on rank 0's
 * clock) into a byte buffer; rank 0 unpacks every rank's buffer and
 * folds them into its own result (reduce_merge()):
 *
 *  - operations, by phase and operation index: statistics merged
 *    (op_stats_merge(): counts and histograms add up);
 *  - a phase's time is the earliest start to the latest end (less its
 *    warm-up); threads, CPU and engine requests add up;
 *  - device counters add up over the first rank of each distinct host
 *    (ranks on one host see the same devices);
 *  - suite metrics: "min_*" the least, "max_*" the largest, "avg_*" and
 *    any figure that is not a rate or an amount (units "s", "%", "us")
 *    the mean, rates and amounts (units ending "/s" or "/sec", "KB") the
 *    sum;
 *  - untar copies are appended (the report's table then lists every
 *    rank's);
 *  - status: errors added, stopped/interrupted if any rank was, the
 *    first error of the lowest rank that had one ("rank 2: ...");
 *  - the rows of stats/ranks.h: one per rank, one per distinct host with
 *    that host's environment.
 *
 * The ranks run the same fsgauge build (mpi_begin() checks), so the
 * statistics travel as their raw bytes.
 */
#ifndef FSGAUGE_MPI_REDUCE_H
#define FSGAUGE_MPI_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/result.h"

/* A growing byte buffer; free(b->data) when done. */
struct rbuf {
	unsigned char *data;
	size_t len, cap;
};

/* What a rank adds to its result for packing. */
struct rank_info {
	int rank;
	const char *host;
	double clock_offset;  /* its clock minus rank 0's, seconds */
	const double *starts; /* per phase of the result, rank 0's clock (s) */
	const double *ends;
	size_t ntimes; /* entries of starts/ends (phases past it: none) */
	const int *wall_how;   /* per phase: enum rank_wall (NULL: none) */
	const double *wall_at; /* per phase: when, rank 0's clock (s) */
	/* the environment packed for the host's row (NULL: the result's own;
	 * a --repeat run's result has none: the session's is given) */
	const struct kvlist *env;
};

/* Append result `r` and `ri` to `b`. */
void reduce_pack(struct rbuf *b, const struct result *r, const struct rank_info *ri);
/* Fold the n packed ranks bufs[i] (lens[i] bytes; bufs[0] is acc's own,
 * rank 0's) into acc; other_fs[i] marks rank i's target as on another
 * file system (may be NULL).  Returns 0, or -EINVAL for a buffer that
 * does not unpack (acc then unchanged past the ranks before it). */
int reduce_merge(struct result *acc, const unsigned char *const *bufs, const size_t *lens, size_t n,
                 const int *other_fs);
/* How metric `name` with `unit` combines over ranks. */
enum reduce_rule { REDUCE_SUM, REDUCE_MEAN, REDUCE_MIN, REDUCE_MAX };
enum reduce_rule reduce_metric_rule(const char *name, const char *unit);

#endif
