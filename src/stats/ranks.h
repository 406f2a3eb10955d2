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

/* How a phase's stonewall (iozone's throughput mode: the first thread
 * to finish its share ends every thread's) came to a rank. */
enum rank_wall {
	RANK_WALL_NONE = 0, /* none did (no stonewall, or the rank was done first) */
	RANK_WALL_RAISED,   /* one of its own threads raised it */
	RANK_WALL_PEER,	    /* another rank's did */
};

struct rank_phase {
	char *name;
	uint64_t ops, errors;
	uint64_t bytes;   /* read + written */
	double seconds;   /* this rank's phase time */
	double start;     /* its start after the earliest rank's (s, rank 0's clock) */
	char *end_reason; /* the phase's end_reason on that rank */
	enum rank_wall wall;
	double wall_at; /* when, after the earliest rank's start (s, rank 0's clock) */
	/* --repeat: the row is every run's together (ops, errors, bytes and
	 * seconds added; start the latest; end_reason an error before a
	 * signal before a peer's stop, else the last run's; the stonewall
	 * the first run's that had one), and runs[] each run's own row, in
	 * run order, with `repeat` its 0-based run (runs[] of its own none).
	 * A single run has nruns 0. */
	unsigned repeat;
	struct rank_phase *runs;
	size_t nruns;
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

/* One distinct host of an MPI run: rank 0's result keeps them in
 * struct result_ranks, and a result read back (output/result_read.h) its
 * "hosts" array. */
struct result_host {
	char *host;
	int *ranks;
	size_t nranks;
	struct kvlist env;
	struct host_phase *phases;
	size_t nphases;
};

/* One file system the ranks' targets are on: its type, its mount point
 * and device on the host of its first rank, and the ranks on it. */
struct rank_fs {
	char *type;        /* "ext4" (mountinfo), or the statfs magic "0x..." */
	char *mount_point; /* on the first rank's host ("" when unknown) */
	char *device;      /* "major:minor" on that host */
	char *host;        /* the first rank's host */
	int *ranks;
	size_t nranks;
};

/* What a rank says of its target, for rank_fs_group(). */
struct rank_target {
	const char *host;
	uint64_t dev;	   /* st_dev (means something on its host only) */
	uint64_t magic;	   /* statfs f_type */
	const char *type;  /* mountinfo's type, "" when not found */
	const char *mount_point;
};

struct result_ranks {
	struct result_rank *v;
	size_t n;
	struct result_host *hosts;
	size_t nhosts;
	struct rank_fs *fs; /* the file systems of the ranks' targets (0: not known) */
	size_t nfs;
	/* --repeat: how many runs' rows are folded in (0: a single run's) */
	unsigned nruns;
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
	/* the stonewall: the rank that raised it first (-1: none did), when
	 * (after the earliest start), and how many ranks a peer's stopped */
	int wall_rank;
	double wall_at;
	size_t wall_peers;
};
/* "raised", "peer", or NULL for none. */
const char *rank_wall_name(enum rank_wall w);

/* The ranks' figures for phase `name`; n = 0 when no rank has it. */
void rank_summary(const struct result_ranks *r, const char *name, struct rank_summary *out);
/* The same over run `run` (0-based) of a --repeat: each rank's runs[]
 * entry of that run; n = 0 when no rank has it. */
void rank_summary_run(const struct result_ranks *r, const char *name, unsigned run,
		      struct rank_summary *out);
/* --repeat under mpirun: fold one run's rows `*one` into `*acc` as the
 * next run (result_merge_repeat() calls it): when *acc is NULL it takes
 * *one as run 0; otherwise each rank's phases add up (struct rank_phase),
 * each host's device counters and seconds add up, and the file systems
 * are kept from the first run that had them.  *one is NULL afterwards
 * (taken or freed). */
void result_ranks_merge_repeat(struct result_ranks **acc, struct result_ranks **one);
/* The phase `name` of rank row `rk`, or NULL. */
const struct rank_phase *rank_find_phase(const struct result_rank *rk, const char *name);
/* A rank's rate: ops / seconds, 0 without time. */
double rank_phase_rate(const struct rank_phase *p);
void result_ranks_free(struct result_ranks *r);
/* The phase `name` of host `h`, or NULL. */
const struct host_phase *result_host_phase(const struct result_host *h, const char *name);
/* A copy of the n hosts h[] (everything in them duplicated; NULL for
 * none); free it with result_hosts_free(). */
struct result_host *result_hosts_dup(const struct result_host *h, size_t n);
/* Free the n hosts h[] and the array. */
void result_hosts_free(struct result_host *h, size_t n);
/* Group n ranks' targets t[] (rank i is t[i]) by file system: a rank
 * joins the first group whose first rank has its type and, on the same
 * host, its device (a device number means nothing across hosts).  Group 0
 * is rank 0's; other_fs[i] (n entries, may be NULL) is set to 1 for the
 * ranks outside it.  *out gets the groups (free with rank_fs_free());
 * returns how many. */
size_t rank_fs_group(const struct rank_target *t, size_t n, struct rank_fs **out, int *other_fs);
void rank_fs_free(struct rank_fs *fs, size_t n);
/* The warning for ranks on several file systems, naming each with its
 * ranks ("the ranks' targets are on 2 file systems: ..."), or NULL for
 * one or none; the caller frees it. */
char *rank_fs_warning(const struct rank_fs *fs, size_t n);

#endif
