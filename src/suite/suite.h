/*
 * suite.h — one session driver for every measuring command.
 *
 * A suite (run, bonnie, iozone, untar, verify) is a struct suite_ops: its
 * name, its own options, which shared options it accepts, its metrics
 * table, and hooks that build its workload model and run its phases.
 * suite_main() does everything around them, once, for all suites:
 *
 *   parse the options (suite/options.h; --help generated from the
 *   tables) -> ops->check (operands, cross checks) -> the shared checks
 *   (--drop-caches allowed, --verify's engine, --json's file) ->
 *   ops->setup (bonnie's -u/-g) -> signals -> the run directory ->
 *   ops->plan (the model and what it needs) ->
 *   one preflight (runner/preflight.h) -> the result (label, engine,
 *   seed, parameters, metrics table, environment) -> ops->begin -> the
 *   repeat loop (a runner per run, or one kept with --reuse; the run
 *   directory emptied between runs; ops->run runs the phases;
 *   ops->after_run prints what a run printed; runs folded with
 *   result_merge_repeat(), whose repeat statistics live in stats/) ->
 *   the run directory removed (or kept) -> ops->report (the native text)
 *   -> one exit-code mapping -> JSON.
 *
 * With --dry-run (SH_DRY_RUN) no run directory is made: ops->plan sees
 * s->dry_run and s->rds[i].path naming the directories that would be
 * made (their fd is -1); the preflight is checked against the target, then what
 * would run (the figures, the workload as read) is printed on stdout and
 * the session ends with 0 (or 2 when the preflight refuses it).
 *
 * The exit status is the same for every suite (suite_exit_status()):
 * 130 when a signal stopped the run, 1 when it ran and met operation or
 * verify errors or stopped on one (or ops->report said the run fell
 * short), 2 for a usage or workload error or a run the target cannot
 * hold, 3 for a system error, 0 otherwise.
 *
 * Hooks return an enum exit_code: EXIT_OK to go on, anything else to
 * stop with that status (after a message).  ops->check may also return
 * SUITE_DONE: finished, exit 0 without running (--list, bonnie -p).
 * Unset hooks are skipped.
 */
#ifndef FSGAUGE_SUITE_H
#define FSGAUGE_SUITE_H

#include <stdio.h>

#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "suite/options.h"
#include "util/rundir.h"

/* The shared options a suite may accept (ops->shared, a mask). */
enum suite_shared {
	SH_DIR = 1u << 0,	      /* -d, --dir DIR: the target */
	SH_JSON = 1u << 1,	      /* --json FILE */
	SH_LABEL = 1u << 2,	      /* --label TEXT */
	SH_ENGINE = 1u << 3,	      /* --engine NAME */
	SH_SEED = 1u << 4,	      /* --seed N */
	SH_ON_ERROR = 1u << 5,	      /* --on-error=stop|continue */
	SH_KEEP = 1u << 6,	      /* --keep */
	SH_QUIET = 1u << 7,	      /* -q, --quiet */
	SH_DATA = 1u << 8,	      /* --data PATTERN */
	SH_DIRECT = 1u << 9,	      /* --direct */
	SH_DROP_CACHES = 1u << 10,    /* --drop-caches */
	SH_REPEAT = 1u << 11,	      /* --repeat N */
	SH_REUSE = 1u << 12,	      /* --reuse */
	SH_INTERVAL = 1u << 13,	      /* --interval SECS */
	SH_WARMUP = 1u << 14,	      /* --warmup SECS */
	SH_STEADY = 1u << 15,	      /* --steady-state[=PCT[,N]] */
	SH_PROGRESS = 1u << 16,	      /* --progress[=WHEN] */
	SH_VERIFY = 1u << 17,	      /* --verify */
	SH_SHARED_TARGET = 1u << 18,  /* --allow-shared-target */
	SH_DRY_RUN = 1u << 19,	      /* --dry-run */
};
/* What every measuring suite accepts. */
#define SH_SESSION (SH_JSON | SH_LABEL | SH_ENGINE | SH_KEEP | SH_SHARED_TARGET)
/* The measurement options of docs/trust.md. */
#define SH_MEASURE                                                                        \
	(SH_DATA | SH_DIRECT | SH_DROP_CACHES | SH_REPEAT | SH_REUSE | SH_INTERVAL |     \
	 SH_WARMUP | SH_STEADY | SH_PROGRESS | SH_VERIFY)

/* A shared option a suite does not accept but explains: parsing it
 * prints `message` and exits 2 (help does not list it).  Terminated by a
 * 0 option. */
struct suite_refusal {
	unsigned option; /* one SH_* bit */
	const char *message; /* "--reuse does not apply to bonnie: ..." */
};

#define SUITE_DONE 1000 /* ops->check: done, exit 0 without running */

/* What suite_main owns; the hooks read it and set the fields marked so. */
struct comparison;
struct rfile;

struct suite_session {
	const struct suite_ops *ops;
	void *ctx;		/* the suite's own state (ops->ctx_size bytes) */
	struct run_opts ro;	/* the runner's options, shared ones parsed here */
	const char *dir;	/* -d, or the suite's default (init may set it) */
	/* every distinct target named (-d, bonnie's -d, iozone's --dir), in
	 * the order given (suite_add_target()); more than one is refused
	 * unless the suite takes several (ops->one_target NULL) */
	const char **targets;
	size_t ntargets;
	const char *target_opt; /* how they were named: "-d", "--dir" */
	const char *json, *label;
	int keep;
	int dry_run;		/* --dry-run: parse, plan and preflight, print
				 * what would run, create nothing */
	unsigned given;		/* SH_* options given on the command line
				 * (untar refuses --data with a tarball) */
	int quiet;		/* the user asked for quiet (-q, --quiet, bonnie's -q):
				 * no verdicts_on_stderr lines (suite_main) */
	int chatter;		/* setup messages on stderr ("run directory: ...");
				 * 1 unless quiet (check may change it) */
	int no_rundir;		/* check: nothing is created (block devices) */
	const char *adopt;	/* check: take over this existing run directory
				 * (rundir_adopt(): verify --check-only) instead
				 * of creating one; released, never removed, when
				 * the session fails before running */
	/* set by plan */
	/* several targets: what each needs in its file system, target i's
	 * data bytes and entries in tneeds[i] (nrd of them, zeroed before
	 * plan; the run directory and its marker are the suite's to count,
	 * as in s->needs); s->needs keeps the totals, and its memory and
	 * threads are checked once.  With one target s->needs alone is
	 * checked. */
	struct target_needs *tneeds;
	struct workload *w;	/* the model the runner runs (owned by the suite);
				 * NULL: no runner (ops->run does its own work) */
	const char *workload;	/* the result's workload name */
	char *workload_hash;	/* result_hash() of what runs, or NULL (freed here) */
	char *workload_text;	/* the resolved text it hashes, or NULL (freed here) */
	struct preflight_needs needs;
	int has_needs;		/* needs filled: check them */
	/* the session: one run directory per target, in the order of
	 * s->targets (one in the default target when none was named); rd is
	 * rds[0], the first target's.  Each is made, checked against its own
	 * file system by the preflight, and removed (or kept) on every exit. */
	struct rundir *rds;
	size_t nrd;
	struct rundir *rd;
	struct result *acc;	/* the result written */
	unsigned run, nruns;	/* the current run (0-based) of nruns */
	int status;		/* a hook's verdict that the run fell short:
				 * EXIT_RUN_ERRORS (untar's unfinished copies) */
};

struct suite_ops {
	const char *name;	/* the command and the result's suite */
	const char *synopsis;	/* usage lines after "usage: " ("fsgauge run WORKLOAD...") */
	const char *about;	/* what it does: the help's first paragraph */
	const struct suite_opt *opts; /* its own options */
	unsigned shared;	/* SH_* it accepts */
	const struct suite_refusal *refused;
	const char *help_extra;	/* notes after the options (or NULL) */
	/* more notes after help_extra, for text known only at run time
	 * (untar's synthetic trees); NULL: none */
	void (*help_more)(FILE *f);
	const char *exit_help;	/* "exit status: ..." (NULL: the common text) */
	unsigned parse_flags;	/* OPTP_IN_ORDER */
	/* an option it does not accept, as typed: a message of its own
	 * instead of "unrecognized option" (opt_parser.unknown), or NULL */
	const char *(*unknown_option)(const char *word);
	const struct metric_def *metrics; /* its figures (NULL: none) */
	/* several targets (docs/targets.md): the reason a suite takes one
	 * ("bonnie tests one directory"), said when several are named; NULL
	 * declares that it takes several: suite_main() then makes one run
	 * directory per target (s->rds), checks each target's share of the
	 * run (s->tneeds) against its file system and removes them all, and
	 * the runner puts each fileset in the run directory of the target
	 * its path names (runner_new()) */
	const char *one_target;
	/* its text is another tool's layout (bonnie++, iozone), with no place
	 * for fsgauge's lines: the "limited by" line of each phase goes to
	 * stderr after its report (the others print it in their text),
	 * unless s->quiet: the verdicts stay in the JSON */
	int verdicts_on_stderr;
	size_t ctx_size;

	/* compare and report (suite/report.h; each may be NULL): the grid a
	 * result's phases form, summarised per group (iozone's auto mode:
	 * a group per test; output/result_read.h), or NULL; its section of
	 * the HTML report; 1 when that section draws phase `phase` itself
	 * (it then gets no chart section) */
	const struct phase_grid *(*phase_grid)(const struct rfile *rf);
	void (*html_section)(FILE *f, const struct comparison *c);
	int (*html_covers)(const struct comparison *c, const char *phase);

	/* defaults (s->ro is set to the common ones first) */
	void (*init)(struct suite_session *s);
	/* one of its own options; argv/optind for options that take the
	 * next word (bonnie's "-f 20"): EXIT_OK or EXIT_USAGE */
	int (*option)(struct suite_session *s, int key, const char *arg, int argc, char **argv);
	/* the operands and the checks that need every option */
	int (*check)(struct suite_session *s, int argc, char **argv);
	/* after the shared checks, before signals and the run directory:
	 * what must come between them (bonnie's -u/-g privilege drop: the
	 * --json file is checked as the user who started us, the run
	 * directory made as the new one) */
	int (*setup)(struct suite_session *s);
	/* with the run directory made (s->rd; none with no_rundir): build the
	 * model, set s->w, s->workload, s->needs; EXIT_INTERRUPTED when a
	 * signal stopped it (a result saying so is still written); SUITE_DONE:
	 * finished without running, exit 0 (untar --list, with no_rundir) */
	int (*plan)(struct suite_session *s);
	/* the result's parameters (the shared ones are recorded already) */
	void (*params)(struct suite_session *s, struct result *res);
	/* before the first run: headers */
	void (*begin)(struct suite_session *s);
	/* the phases of one run into `one` (rn NULL when s->w is NULL): 0 or
	 * -errno (a setup failure; what ran is kept) */
	int (*run)(struct suite_session *s, struct runner *rn, struct result *one);
	/* after each run, before it is folded into s->acc; under mpirun
	 * after the run is reduced over the ranks (rank 0's `one` then holds
	 * every rank's operations) */
	void (*after_run)(struct suite_session *s, struct result *one);
	/* the native report of the whole result, after the run directory is
	 * gone (may set s->status) */
	void (*report)(struct suite_session *s, struct result *acc);
	/* instead of rundir_finish(), for each run directory rd (one of
	 * s->rds): 0 or -errno (verify --check-only) */
	int (*finish_rundir)(struct suite_session *s, struct rundir *rd);
	void (*fini)(struct suite_session *s);
};

/* Run suite `ops` with argv[0] its name ("fsgauge run"); returns the
 * exit status. */
int suite_main(const struct suite_ops *ops, int argc, char **argv);

/* The exit status of a session that ended with runner result `rr` (0 or
 * -errno) and result `res` (may be NULL): see the top of this file. */
int suite_exit_status(int rr, const struct result *res, int status);

/* Target `dir` named by option `opt` ("-d"): the first one becomes s->dir;
 * a repeat of one already named is ignored. */
void suite_add_target(struct suite_session *s, const char *opt, const char *dir);
/* Target i (0-based, of s->ntargets): s->dir for the first (a suite may
 * have put its own spelling there: iozone's absolute path), the others
 * as named; NULL for the default target when none was named. */
const char *suite_target(const struct suite_session *s, size_t i);
/* "-d given twice ('/a' and '/b')" into buf, for the suites' refusals. */
const char *suite_targets_text(const struct suite_session *s, char *buf, size_t len);
/* The target K (from 1) an operation's name tags: NAME@K or NAME@K.SUFFIX
 * (run --per-target's "deletefile1@2", untar's "untar@2.create", io's
 * "j@2.read": docs/targets.md), or 0 for a name that tags none. */
size_t suite_op_target(const char *name);
/* Phase p's operations of target k (suite_op_target()) into *sub, with
 * p's seconds, for that target's own figures (result_phase_headline()):
 * sub->ops is the caller's to free, the operations in it are p's (not
 * copied). */
void suite_target_phase(const struct result_phase *p, size_t k, struct result_phase *sub);

/* The generated --help of a suite. */
void suite_usage(const struct suite_ops *ops, FILE *f);

/* The suites, for the commands and for report's sections. */
extern const struct suite_ops suite_run, suite_bonnie, suite_iozone, suite_untar, suite_verify,
	suite_io;
const struct suite_ops *suite_find(const char *name);
/* The registry's i-th suite (0-based), or NULL past the last. */
const struct suite_ops *suite_at(size_t i);

#endif
