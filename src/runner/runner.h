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

#include "engine/engine.h"
#include "runner/data.h"
#include "stats/result.h"
#include "workload/workload.h"

struct rundir;

enum on_error {
	ON_ERROR_STOP = 0, /* stop the run at the first operation error */
	ON_ERROR_CONTINUE, /* count errors and go on */
};

enum progress_mode {
	PROGRESS_AUTO = 0, /* a status line when stderr is a terminal */
	PROGRESS_ALWAYS,   /* also when it is not (one line per update) */
	PROGRESS_NEVER,
};

/*
 * A run that is one of several clients started together (mpi/mpi.h):
 * every phase starts when every client starts it, and a client that
 * stops (an error, a signal) stops the others.  runner_phase() calls
 * start() with the phase's threads made and waiting, before the clock
 * starts: nonzero means another client has stopped, and the phase does
 * not run; poll() while the phase runs (every 10 ms): RUNNER_SYNC_STOP
 * when another client stopped, which ends the phase ("peer"),
 * RUNNER_SYNC_WALL when another client raised its stonewall (a
 * `stonewall` flowop ran there: iozone's throughput mode), which raises
 * this one's (its stonewall= loops end, the phase goes on); wall(), at
 * most once a phase, when this client's stonewall went up (at `ns`,
 * CLOCK_MONOTONIC) and no other's had before; end() once the phase is
 * over, `stopping` nonzero when this client's phase ended on an error or
 * a signal.  A phase a peer ended or kept from running sets the result's
 * stopped_on_error.  Every hook is called from the thread that called
 * runner_phase(), never from a worker.
 */
#define RUNNER_SYNC_STOP 1
#define RUNNER_SYNC_WALL 2
struct runner_sync {
	int (*start)(void *arg);
	int (*poll)(void *arg);
	void (*wall)(void *arg, uint64_t ns);
	void (*end)(void *arg, int stopping);
	void *arg;
};

/*
 * Options of a run.  The measurement options (data .. progress) are
 * parsed for every suite by shared_measure_opt() in src/suite/shared.h and
 * documented in docs/trust.md.
 */
struct run_opts {
	const char *engine;	  /* "psync" unless given */
	/* the workers' engine options (fsgauge io's sqthread_poll, ...;
	 * engine.h); zeroed: none.  Not for the layout's instances. */
	struct engine_opts engine_opts;
	double duration;	  /* seconds of the measured phase (after warm-up) */
	uint64_t seed;
	enum on_error on_error;
	int direct;		  /* O_DIRECT on every data file open */
	struct data_pattern data;
	int prealloc_threads;	  /* 0: number of CPUs */
	int quiet;
	int drop_caches;	  /* sync + drop caches before each measured phase */
	unsigned repeat;	  /* runs of the workload (0 or 1: once) */
	int reuse;		  /* keep the filesets between repeats */
	double interval;	  /* time-series sample period, seconds; 0: none */
	double warmup;		  /* seconds excluded at the start of each phase
				   * (with steady_pct: the longest warm-up) */
	double steady_pct;	  /* end the warm-up when the rate's trend over
				   * steady_window intervals is within this many
				   * percent; 0: off */
	unsigned steady_window;
	enum progress_mode progress;
	int verify;		  /* --verify: self-checking blocks, reads checked
				   * (see runner/verify.h); data I/O is rounded
				   * out to whole 4 KiB blocks */
	int allow_shared_target;  /* --allow-shared-target (util/rundir.h) */
	int chatter_unnamed;	  /* a phase's start line without its name:
				   * filebench's "Running for 60 seconds..." (run) */
	const struct runner_sync *sync; /* NULL: a client alone */
};

/* Set by the signal handler (or anyone) to stop the current run: the
 * value is the signal number, or -1 for a non-signal stop. */
extern volatile int runner_stop_signal;
/* Read it (atomically: worker threads poll it while a handler sets it). */
static inline int runner_signalled(void)
{
	return __atomic_load_n(&runner_stop_signal, __ATOMIC_RELAXED);
}
/* Install SIGINT/SIGTERM/SIGHUP handling that sets runner_stop_signal,
 * and ignore SIGPIPE (writing to a closed pipe then fails with EPIPE). */
void runner_install_signals(void);

/*
 * How a suite runs its phases (suite/suite.c makes the runner, the suite's
 * run hook calls runner_phase()): create a runner, create the workload's
 * filesets once, run one phase per set of processes (each phase appends a
 * result phase; the filesets keep their state between phases), free.
 */
struct runner;
struct runner *runner_new(struct workload *w, struct rundir *rds, size_t nrd,
			  const struct run_opts *o, struct result *res);
/* (`rds` are the run directories, one per target, nrd of them; each
 * fileset goes in the one its path names (runner_fileset_target()), the
 * device counters are those of the devices under all of them.  `rds`
 * may be NULL (nrd 0) when every fileset of `w` is a block device
 * (wl_fileset.has_device): nothing is created anywhere then, and the
 * device counters are those of the devices themselves.) */
/* Which of the run directories rds[0..nrd) fileset `def` lives in, and
 * its path below that run directory into rel: its path= must be a run
 * directory or below one, or a target (the directory holding a run
 * directory) or below one, which stand for the same place in that
 * target's run directory.  Returns the index, or -errno after a message
 * (-EPERM: under no target, or with ".."; -EINVAL: too long).  With
 * `quiet`, no message (the preflight's sorting). */
int runner_fileset_target(const struct wl_fileset *def, const struct rundir *rds, size_t nrd,
			  char *rel, size_t len, int quiet);
/* Which of rds[0..nrd) path p is in, as runner_fileset_target() sees it
 * (the run directory, the target, or below either), or -1: under none.
 * No message. */
int runner_path_target(const char *p, const struct rundir *rds, size_t nrd);
/* Lay out and preallocate every fileset of the workload.  Returns 0,
 * -EINTR when a signal stopped it (res->interrupted set), or -errno. */
int runner_create_filesets(struct runner *rn);
/* Run `procs` as one measured phase named `name` for at most `duration`
 * seconds after the warm-up (or until a finish condition, a signal or
 * --on-error=stop).  Every trust measurement happens here, for every
 * suite: caches dropped first (--drop-caches), device counters, system
 * CPU and memory sampled at the start and end of the measured window,
 * the warm-up excluded, --interval samples, the cache verdict, the
 * too-fast verdict, the progress line.  Returns 0 or -errno for a setup
 * failure (-EPERM when caches cannot be dropped). */
int runner_phase(struct runner *rn, const char *name, struct wl_process *const *procs,
		 size_t nprocs, double duration);
/* runner_phase() with flags: RUNNER_PHASE_NO_WARMUP measures the whole
 * phase, without the run's warm-up (--warmup, --steady-state, fio's
 * ramp_time), for a phase whose every operation is to be counted
 * (fsgauge io's verify read-back). */
#define RUNNER_PHASE_NO_WARMUP 1u
int runner_phase_flags(struct runner *rn, const char *name, struct wl_process *const *procs,
		       size_t nprocs, double duration, unsigned flags);
/* Record the next phases (and, at runner_free(), the engine request
 * totals) into `res`: the session's --repeat loop with --reuse keeps one
 * runner and gives each run its result. */
void runner_set_result(struct runner *rn, struct result *res);
void runner_free(struct runner *rn);

/*
 * The preflight (runner/preflight.h) of running workload `w` with
 * options `o`: fills `n` with the threads every phase of its processes
 * starts, the memory their workers and the fileset tables take, and the
 * entries (inodes) and bytes its filesets need in the target (none on the
 * null engine, which creates nothing), with the texts of the messages:
 * which variable (-s NAME) or attribute to lower.  Reads only the model:
 * nothing is allocated for the filesets and no thread is started, so it
 * runs before anything is created in the run directory.  Returns 0, or -EINVAL after a
 * message for a fileset that cannot be laid out.
 */
struct preflight_needs;
int runner_needs(const struct workload *w, const struct run_opts *o, struct preflight_needs *n);
/* With several targets (docs/targets.md): each fileset's bytes and
 * entries added to tn[i] of the run directory rds[i] its path names, and
 * two entries to each (its run directory and marker); a fileset under no
 * target is left for runner_create_filesets() to refuse.  Returns 0, or
 * -EINVAL after a message for a fileset that cannot be laid out. */
struct target_needs;
int runner_needs_targets(const struct workload *w, const struct run_opts *o,
			 const struct rundir *rds, size_t nrd, struct target_needs *tn);
/* RAM a worker allocates beyond its I/O buffer (memsize): its state and a
 * statistics block (with its histogram) per flowop it runs, nflows
 * counting a composite's flowops too.  For front ends that count their
 * own threads' memory. */
size_t runner_worker_overhead(size_t nflows);
/* The RAM one worker of thread `td` allocates: memsize (at least 4 KiB,
 * as the worker rounds it) plus runner_worker_overhead(); the _on()
 * form on engine `engine` (NULL: as runner_thread_memory()) adds, on an
 * asynchronous engine, the submission and completion histograms of its
 * reads and writes (struct op_split, stats/result.h). */
double runner_thread_memory(const struct wl_thread *td);
double runner_thread_memory_on(const struct wl_thread *td, const char *engine);

/* Write 3 to /proc/sys/vm/drop_caches after sync() (check_only: only see
 * whether we may).  Returns 0, or -errno with a message naming the file
 * and saying it needs root. */
int runner_drop_caches(int check_only);
/* The same without the message: 0, or -errno with *step "open" or
 * "write" (verify falls back to dropping its own files' pages). */
int runner_drop_caches_try(int check_only, const char **step);

#endif
