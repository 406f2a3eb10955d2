/*
 * shared.h — the values of the options every measuring suite shares, parsed
 * in one place so they mean the same everywhere (suite.c declares them,
 * with their help text, and calls these):
 *
 *   --data PATTERN       random (default), zero, compress=N%, dedupe=N%
 *   --direct             O_DIRECT on data files
 *   --drop-caches        sync and drop the page cache before each measured
 *                        phase (root)
 *   --repeat N           run N times; report each run, mean, sd, cv, 95% CI
 *   --reuse              with --repeat: keep the files between runs
 *   --interval SECS      time series every SECS seconds
 *   --warmup SECS        exclude the first SECS seconds of each phase
 *   --steady-state[=PCT[,N]]  end the warm-up once the ops/s trend over N
 *                        intervals changes by at most PCT% (5%, 5)
 *   --quiet              no progress or chatter on stderr
 *   --progress[=WHEN]    auto (default: when stderr is a terminal),
 *                        always, never
 *   --verify             self-checking 4 KiB blocks; every block read is
 *                        checked (runner/verify.h, docs/reliability.md)
 *   --allow-shared-target  accept a target every user may write that is
 *                        not sticky (util/rundir.h, docs/reliability.md)
 *
 * Their meaning for the measuring: docs/trust.md.
 */
#ifndef FSGAUGE_SUITE_SHARED_H
#define FSGAUGE_SUITE_SHARED_H

#include "runner/runner.h"
#include "stats/result.h"
#include "suite/suite.h"

/* Limits of the shared options. */
#define SHARED_REPEAT_MAX 1000
#define SHARED_INTERVAL_MIN 0.05
#define SHARED_STEADY_WINDOW_MAX 64

/* Shared measurement option `bit` (one SH_* of suite.h) with argument
 * `arg` into `o`.  Returns 0, or -1 after printing what is wrong with the
 * value (exit with EXIT_USAGE). */
int shared_measure_opt(unsigned bit, const char *arg, struct run_opts *o);
/* Checks that need every option: --drop-caches is allowed (we can write
 * /proc/sys/vm/drop_caches), --reuse has a --repeat, --verify has an
 * engine that stores data.  Returns 0 or -1 after a message (exit with
 * EXIT_USAGE). */
int shared_run_check(const struct run_opts *o);
/* Whether engine spec `e` is diskless (ENGINE_DISKLESS: null, alone or
 * wrapped, "faulty:null:RULE"): it stores nothing, so data cannot be read
 * back and checked.  1 or 0 (0 for NULL or an invalid spec). */
int shared_engine_stores_nothing(const char *e);
/* Record the options in the result's parameters. */
void shared_run_params(struct kvlist *params, const struct run_opts *o);

#endif
