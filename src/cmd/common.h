/*
 * common.h — helpers shared by the subcommands, and the measurement
 * options every measuring front end (run, bonnie, iozone, untar) accepts,
 * parsed in one place so they mean the same everywhere:
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
 * How a front end uses them:
 *
 *	static const struct option longopts[] = {
 *		{ "dir", required_argument, NULL, 'd' },
 *		...
 *		COMMON_RUN_LONGOPTS,
 *		{ NULL, 0, NULL, 0 },
 *	};
 *	struct run_opts o = { ... };
 *	while ((c = getopt_long(argc, argv, "...", longopts, NULL)) != -1) {
 *		switch (c) {
 *		case 'd': ...
 *		default:
 *			r = common_run_opt(c, optarg, &o);
 *			if (r > 0)
 *				break;
 *			if (r == 0)		// not ours: getopt's '?'
 *				fprintf(stderr, "try 'fsgauge X --help'\n");
 *			return EXIT_USAGE;
 *		}
 *	}
 *	if (common_run_check(&o) < 0)
 *		return EXIT_USAGE;
 *	...
 *	common_run_usage(stdout);		// in --help
 *	common_run_params(&res->params, &o);	// into the result
 *
 * and then runs its phases with runner_phase(), which does the measuring
 * (see runner.h); --repeat is runner_run()'s loop, or the front end's own
 * loop around a whole run folded with result_merge_repeat().
 */
#ifndef FSGAUGE_CMD_COMMON_H
#define FSGAUGE_CMD_COMMON_H

#include <getopt.h>
#include <stdio.h>

#include "engine/engine.h"
#include "runner/runner.h"
#include "stats/result.h"

/* engine_spec_find(), printing "unknown engine 'x' (available: ...)" or
 * what is wrong with a wrapper spec such as "faulty:ENGINE:RULE" (see
 * engine/faulty.h) when it fails. */
const struct engine_ops *engine_find_checked(const char *name);

/* getopt codes of the shared options: above every short option. */
enum common_opt {
	OPT_DATA = 0x1000,
	OPT_DIRECT,
	OPT_DROP_CACHES,
	OPT_REPEAT,
	OPT_REUSE,
	OPT_INTERVAL,
	OPT_WARMUP,
	OPT_STEADY_STATE,
	OPT_QUIET,
	OPT_PROGRESS,
	OPT_VERIFY,
	OPT_ALLOW_SHARED_TARGET,
};

#define COMMON_RUN_LONGOPTS                                                    \
	{ "data", required_argument, NULL, OPT_DATA },                         \
	{ "direct", no_argument, NULL, OPT_DIRECT },                           \
	{ "drop-caches", no_argument, NULL, OPT_DROP_CACHES },                 \
	{ "repeat", required_argument, NULL, OPT_REPEAT },                     \
	{ "reuse", no_argument, NULL, OPT_REUSE },                             \
	{ "interval", required_argument, NULL, OPT_INTERVAL },                 \
	{ "warmup", required_argument, NULL, OPT_WARMUP },                     \
	{ "steady-state", optional_argument, NULL, OPT_STEADY_STATE },         \
	{ "quiet", no_argument, NULL, OPT_QUIET },                             \
	{ "progress", optional_argument, NULL, OPT_PROGRESS },                 \
	{ "verify", no_argument, NULL, OPT_VERIFY },                           \
	{ "allow-shared-target", no_argument, NULL, OPT_ALLOW_SHARED_TARGET }

/* Limits of the shared options. */
#define COMMON_REPEAT_MAX 1000
#define COMMON_INTERVAL_MIN 0.05
#define COMMON_STEADY_WINDOW_MAX 64

/* Handle getopt result `c` with argument `arg` if it is a shared option.
 * Returns 1 when handled, 0 when `c` is not a shared option, -1 after
 * printing what is wrong with the value (exit with EXIT_USAGE). */
int common_run_opt(int c, const char *arg, struct run_opts *o);
/* Checks that need every option: --drop-caches is allowed (we can write
 * /proc/sys/vm/drop_caches), --reuse has a --repeat, --verify has an
 * engine that stores data.  Returns 0 or -1 after a message (exit with
 * EXIT_USAGE). */
int common_run_check(const struct run_opts *o);
/* Whether engine spec `e` is diskless (ENGINE_DISKLESS: null, alone or
 * wrapped, "faulty:null:RULE"): it stores nothing, so data cannot be read
 * back and checked.  1 or 0 (0 for NULL or an invalid spec). */
int common_engine_stores_nothing(const char *e);
/* The --verify part of common_run_check(), for front ends that do not
 * call it.  0, or -1 after a message. */
int common_verify_check(const struct run_opts *o);
/* The options' help text, for a front end's --help. */
void common_run_usage(FILE *f);
/* --allow-shared-target's line of it, for a front end without the
 * others (verify). */
void common_shared_target_usage(FILE *f);
/* Record the options in the result's parameters. */
void common_run_params(struct kvlist *params, const struct run_opts *o);

#endif
