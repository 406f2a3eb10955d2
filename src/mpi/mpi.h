/*
 * mpi.h — many clients, one result: every suite under mpirun (Open MPI).
 *
 * suite_main() (suite/suite.c) wraps every suite's session with these
 * calls; each is a no-op, returning what a lone client would, when
 * fsgauge was built without MPI (no HAVE_MPI) or runs without mpirun, and
 * when mpirun started a single rank.  Under mpirun with N > 1 ranks:
 *
 *   mpi_begin()        MPI_Init; the ranks check they run one fsgauge
 *                      build; rank clocks compared with rank 0's (a
 *                      ping-pong); ranks above 0 write nothing on stdout;
 *                      run directories named fsgauge-<host>-r<rank>-...
 *   mpi_agree(st)      every rank's status after a step that may fail on
 *                      one rank only: the largest, so all go on or all stop
 *   mpi_scale_needs()  the preflight: rank 0 checks space and inodes for
 *                      all ranks (x N), each rank memory and threads for
 *                      the ranks on its host
 *   mpi_check_target() the ranks' targets grouped by file system (type
 *                      and, on one host, device); several are named
 *                      with their ranks on rank 0, before the run
 *   mpi_sync()         the runner's hooks (runner/runner.h): a phase
 *                      starts on all ranks together; a rank that stops
 *                      (error, signal) sends a stop to the others, which
 *                      end their phase ("peer")
 *   mpi_reduce()       after each run (each of --repeat): every rank's
 *                      result to rank 0, folded into its own
 *                      (mpi/reduce.h); the ranks agree whether the
 *                      session goes on (no rank stopped)
 *   mpi_end()          MPI_Finalize
 *
 * Started by mpirun (OMPI_COMM_WORLD_SIZE set) without MPI support,
 * mpi_begin() says so and fails on every rank.  docs/mpi.md tells the
 * whole story.  Only the main thread calls MPI (MPI_THREAD_FUNNELED).
 */
#ifndef FSGAUGE_MPI_H
#define FSGAUGE_MPI_H

struct kvlist;
struct preflight_needs;
struct result;
struct runner_sync;

/* 0 to go on, or an exit status after a message (EXIT_USAGE: mpirun
 * without MPI support, ranks of different builds; EXIT_SYSTEM: MPI
 * failed to start). */
int mpi_begin(void);
void mpi_end(void);
/* 1 when this process is one of several ranks. */
int mpi_on(void);
int mpi_rank(void);
int mpi_size(void);
/* The largest `status` of all ranks (status itself alone). */
int mpi_agree(int status);
/* Scale the preflight `n` for this rank (see above). */
void mpi_scale_needs(struct preflight_needs *n);
/* This rank's share of checking a target every rank writes in: rank 0
 * checks it for all (the number of ranks), the others not at all (0);
 * 1 alone.  mpi_scale_needs() scales the bytes and entries by it. */
double mpi_target_share(void);
/* Compare this rank's target k (from 0: the session's k-th; directory
 * dirfd in `path`, either may be -1/NULL) with the other ranks': on
 * several file systems, a warning on rank 0 names each (type, mount
 * point, device, host) with its ranks, after "target K 'path': " for a
 * target but the first; the reduced result keeps the first target's
 * (result_ranks.fs, mpi_reduce()). */
void mpi_check_target(int dirfd, const char *path, size_t k);
/* The runner's hooks, or NULL alone. */
const struct runner_sync *mpi_sync(void);
/* A run's end on every rank (the session's, or one of --repeat's):
 * wait for every rank to finish it (`failed`: this one stopped on an
 * error or a signal, and tells the others so), then fold every rank's
 * result `run` into rank 0's (`env`: the environment for the host rows,
 * NULL for run's own).  Returns 1 on every rank when any rank stopped (no
 * further run may start), else 0; 0 alone. */
int mpi_reduce(struct result *run, const struct kvlist *env, int failed);

#endif
