/*
 * runner.h — executes a workload: creates its filesets inside the run
 * directory, starts one pthread per thread instance, runs the flowops
 * until the duration ends, a finishoncount/finishonbytes target is met,
 * every thread is done (set mode quit), an error stops it (--on-error=stop)
 * or a signal arrives; then merges every thread's statistics into a
 * struct result.
 *
 * Each worker owns its engine instance, buffers, random generator and
 * statistics; nothing shared is written on the hot path except the claim
 * of a fileset entry (one compare-and-swap) and, for rate-limited
 * workloads, the event counter.
 */
#ifndef FSGAUGE_RUNNER_H
#define FSGAUGE_RUNNER_H

#include <stdint.h>

#include "runner/data.h"
#include "stats/result.h"
#include "workload/workload.h"

struct rundir;

enum on_error {
	ON_ERROR_STOP = 0, /* stop the run at the first operation error */
	ON_ERROR_CONTINUE, /* count errors and go on */
};

struct run_opts {
	const char *engine;	  /* "psync" unless given */
	double duration;	  /* seconds of the measured phase */
	uint64_t seed;
	enum on_error on_error;
	int direct;		  /* O_DIRECT on every data file open */
	struct data_pattern data;
	int prealloc_threads;	  /* 0: number of CPUs */
	int quiet;
	int verify;		  /* --verify: self-checking blocks, reads checked
				   * (see runner/verify.h); data I/O is rounded
				   * out to whole 4 KiB blocks */
};

/* Set by the signal handler (or anyone) to stop the current run: the
 * value is the signal number, or -1 for a non-signal stop. */
extern volatile int runner_stop_signal;
/* Read it (atomically: worker threads poll it while a handler sets it). */
static inline int runner_signalled(void)
{
	return __atomic_load_n(&runner_stop_signal, __ATOMIC_RELAXED);
}
/* Install SIGINT/SIGTERM/SIGHUP handling that sets runner_stop_signal. */
void runner_install_signals(void);

/*
 * Step by step, for suites with several phases on the same files (bonnie,
 * iozone, untar): create a runner, create the workload's filesets once,
 * run one phase per set of processes (each phase appends a result phase;
 * the filesets keep their state between phases), free.
 */
struct runner;
struct runner *runner_new(struct workload *w, struct rundir *rd, const struct run_opts *o,
			  struct result *res);
/* Lay out and preallocate every fileset of the workload.  Returns 0,
 * -EINTR when a signal stopped it (res->interrupted set), or -errno. */
int runner_create_filesets(struct runner *rn);
/* Run `procs` as one measured phase named `name` for at most `duration`
 * seconds (or until a finish condition, a signal or --on-error=stop).
 * Returns 0 or -errno for a setup failure. */
int runner_phase(struct runner *rn, const char *name, struct wl_process *const *procs,
		 size_t nprocs, double duration);
void runner_free(struct runner *rn);

/*
 * Run workload `w` inside run directory `rd`.  Fills `res` (phases,
 * filesets, errors, interrupted).  Returns 0 when the run completed,
 * or -errno for a setup failure (message printed) — in which case `res`
 * may hold a partial record.
 */
int runner_run(struct workload *w, struct rundir *rd, const struct run_opts *o,
	       struct result *res);

#endif
