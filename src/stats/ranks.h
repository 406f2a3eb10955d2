/*
 * ranks.h — the clients of an MPI run (mpi/mpi.h) as rank 0's result
 * keeps them: one row per rank (its host, and per phase its operations,
 * bytes, time and start), and one per distinct host (its ranks and its
 * environment).  The result's phases hold the reduced figures (every
 * rank's operations merged); these rows say how they were shared out.
 *
 * rank_summary() gives, for one phase, the min/max/mean of the ranks'
 * rates (iozone's "Min/Max throughput per process"), the slowest rank
 * and the start skew, for the text and JSON writers.
 *
 * Memory: result_ranks_free() frees everything reachable from it; the
 * struct result that holds one frees it with itself.
 */
#ifndef FSGAUGE_RANKS_H
#define FSGAUGE_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "stats/result.h"

struct rank_phase {
	char *name;
	uint64_t ops, errors;
	uint64_t bytes;   /* read + written */
	double seconds;   /* this rank's phase time */
	double start;     /* its start after the earliest rank's (s, rank 0's clock) */
	char *end_reason; /* the phase's end_reason on that rank */
};

struct result_rank {
	int rank;
	char *host;
	double clock_offset; /* its clock minus rank 0's (s), as estimated */
	int other_fs;        /* its target is not on rank 0's file system */
	struct rank_phase *phases;
	size_t nphases;
};

/* What one host's block devices did in one phase, as the first rank on
 * that host measured it (ranks on one host see the same devices). */
struct host_phase {
	char *name;
	double seconds;	 /* that rank's phase time */
	size_t ndev;	 /* devices measured; 0: none */
	char *none;	 /* why none ("nfs has no block device"), or NULL */
	struct dev_io device;
};

struct result_host {
	char *host;
	int *ranks;
	size_t nranks;
	struct kvlist env;
	struct host_phase *phases;
	size_t nphases;
};

struct result_ranks {
	struct result_rank *v;
	size_t n;
	struct result_host *hosts;
	size_t nhosts;
};

/* One phase over the ranks that ran it. */
struct rank_summary {
	size_t n;              /* ranks with the phase */
	double min, max, mean; /* ops/s over those ranks */
	int slowest;           /* rank with the lowest ops/s (-1: none) */
	double skew;           /* latest start - earliest start (s) */
	/* the ranks' own phase times (s): each client's time, as timed by
	 * hand per client */
	double min_seconds, max_seconds, mean_seconds;
};

/* The ranks' figures for phase `name`; n = 0 when no rank has it. */
void rank_summary(const struct result_ranks *r, const char *name, struct rank_summary *out);
/* The phase `name` of rank row `rk`, or NULL. */
const struct rank_phase *rank_find_phase(const struct result_rank *rk, const char *name);
/* A rank's rate: ops / seconds, 0 without time. */
double rank_phase_rate(const struct rank_phase *p);
void result_ranks_free(struct result_ranks *r);

#endif
