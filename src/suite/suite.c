/* suite.c — the session every suite runs in; see suite.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/shared.h"
#include "engine/engine.h"
#include "mpi/mpi.h"
#include "output/output.h"
#include "stats/env.h"
#include "suite/suite.h"
#include "util/display.h"
#include "util/outfile.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/workload.h"

/* The shared options: key OPT_SHARED + the bit's index. */
#define SHKEY(bit) (OPT_SHARED + __builtin_ctz(bit))

static const struct suite_opt shared_opts[] = {
	{ "dir", 'd', SHKEY(SH_DIR), OPTARG_REQUIRED, "DIR",
	  "target directory (default: $TMPDIR or /tmp); one:\nseveral only as docs/targets.md says" },
	{ "json", 0, SHKEY(SH_JSON), OPTARG_REQUIRED, "FILE",
	  "write the full result as JSON ('-': stdout, and the\ntables go to stderr)" },
	{ "label", 0, SHKEY(SH_LABEL), OPTARG_REQUIRED, "TEXT",
	  "a label stored in the result (for compare/report)" },
	{ "engine", 0, SHKEY(SH_ENGINE), OPTARG_REQUIRED, "NAME",
	  "I/O engine: psync (default), io_uring, libaio, null,\nor faulty:ENGINE:RULE to inject "
	  "faults (tests; see\ndocs/reliability.md)" },
	{ "seed", 0, SHKEY(SH_SEED), OPTARG_REQUIRED, "N",
	  "seed for file layout and random choices (default 1)" },
	{ "on-error", 0, SHKEY(SH_ON_ERROR), OPTARG_REQUIRED, "MODE",
	  "stop (default) or continue after an I/O error" },
	{ "keep", 0, SHKEY(SH_KEEP), OPTARG_NONE, NULL, "keep the run directory and its files" },
	{ "quiet", 'q', SHKEY(SH_QUIET), OPTARG_NONE, NULL, "no progress messages on stderr" },
	{ "data", 0, SHKEY(SH_DATA), OPTARG_REQUIRED, "PATTERN",
	  "data written: random (default; incompressible, no\nrepeated blocks), zero, "
	  "compress=N%, dedupe=N%" },
	{ "direct", 0, SHKEY(SH_DIRECT), OPTARG_NONE, NULL, "open data files with O_DIRECT" },
	{ "drop-caches", 0, SHKEY(SH_DROP_CACHES), OPTARG_NONE, NULL,
	  "sync and drop the page cache before each measured\nphase (needs root)" },
	{ "repeat", 0, SHKEY(SH_REPEAT), OPTARG_REQUIRED, "N",
	  "run N times on fresh files; report each run and the\nmean, sd, cv and 95% confidence "
	  "interval" },
	{ "reuse", 0, SHKEY(SH_REUSE), OPTARG_NONE, NULL, "with --repeat: keep the files between runs" },
	{ "interval", 0, SHKEY(SH_INTERVAL), OPTARG_REQUIRED, "SECS",
	  "record a time series every SECS seconds (JSON)" },
	{ "warmup", 0, SHKEY(SH_WARMUP), OPTARG_REQUIRED, "SECS",
	  "exclude the first SECS seconds of each phase\n(durations: at most a year, 31536000 "
	  "seconds)" },
	{ "steady-state", 0, SHKEY(SH_STEADY), OPTARG_OPTIONAL, "PCT[,N]",
	  "end the warm-up once the ops/s trend over the last N\nintervals changes by at most PCT% "
	  "(default 5%, 5);\n--warmup then caps the warm-up (default: the run time)" },
	{ "progress", 0, SHKEY(SH_PROGRESS), OPTARG_OPTIONAL, "WHEN",
	  "live status line: auto (default: when stderr is a\nterminal), always, never" },
	{ "verify", 0, SHKEY(SH_VERIFY), OPTARG_NONE, NULL,
	  "write self-checking 4 KiB blocks (header and XXH3\nchecksum) and check every block "
	  "read; data I/O is\nrounded to whole blocks; mismatches exit 1" },
	{ "dry-run", 0, SHKEY(SH_DRY_RUN), OPTARG_NONE, NULL,
	  "parse the workload, check that the target, memory and\nthread limits hold it, print what would run and exit;\ncreate nothing" },
	{ "allow-shared-target", 0, SHKEY(SH_SHARED_TARGET), OPTARG_NONE, NULL,
	  "accept a target directory every user may write that\nis not sticky (refused otherwise: "
	  "another user could\nswap the run directory; docs/reliability.md)" },
	{ 0 },
};

#define HELP_KEY (OPT_SHARED + 31)

/* The session options come first in help, the measurement options in
 * their own section. */
#define SH_SESSION_ALL                                                                    \
	(SH_DIR | SH_JSON | SH_LABEL | SH_ENGINE | SH_SEED | SH_ON_ERROR | SH_KEEP | SH_DRY_RUN)

static const char common_exit_help[] =
	"exit status: 0 ok, 1 I/O or verify errors during the run, 2 usage or workload\n"
	"error, 3 system error, 130 interrupted (partial results are still written).\n";

/* The shared options of `mask` (and the refused ones, which parse but are
 * not listed), in table order, into out[]; returns how many. */
static size_t shared_pick(unsigned mask, const struct suite_refusal *ref,
			  const struct suite_opt **out)
{
	size_t n = 0;

	for (const struct suite_opt *o = shared_opts; o->key; o++) {
		unsigned bit = 1u << (o->key - OPT_SHARED);
		int refused = 0;

		for (const struct suite_refusal *r = ref; r && r->option; r++)
			refused |= r->option == bit;
		if ((mask & bit) || refused)
			out[n++] = o;
	}
	return n;
}

static void help_section(FILE *f, const struct suite_ops *ops, unsigned want)
{
	struct suite_opt pick[ARRAY_SIZE(shared_opts)];
	size_t n = 0;
	int taken[128] = { 0 };

	for (const struct suite_opt *o = ops->opts; o && o->key; o++)
		if (o->letter > 0 && o->letter < 128)
			taken[o->letter] = 1;
	for (const struct suite_opt *o = shared_opts; o->key; o++) {
		unsigned bit = 1u << (o->key - OPT_SHARED);

		if (!(ops->shared & want & bit))
			continue;
		pick[n] = *o;
		if (o->letter > 0 && o->letter < 128 && taken[o->letter])
			pick[n].letter = 0;
		n++;
	}
	opt_help(f, pick, n);
}

static int own_letter_h(const struct suite_ops *ops)
{
	for (const struct suite_opt *o = ops->opts; o && o->key; o++)
		if (o->letter == 'h')
			return 1;
	return 0;
}

void suite_usage(const struct suite_ops *ops, FILE *f)
{
	size_t nown = 0;

	for (const struct suite_opt *o = ops->opts; o && o->key; o++)
		nown++;
	fprintf(f, "usage: %s\n\n%s\n\noptions:\n", ops->synopsis, ops->about);
	opt_help(f, ops->opts, nown);
	help_section(f, ops, SH_SESSION_ALL | SH_QUIET | SH_SHARED_TARGET);
	fprintf(f, "%s", own_letter_h(ops) ? "      --help             this help\n"
					   : "  -h, --help             this help\n");
	if (ops->shared & SH_MEASURE) {
		fprintf(f, "\nmeasurement options (docs/trust.md):\n");
		help_section(f, ops, SH_MEASURE);
	}
	if (ops->help_extra)
		fprintf(f, "\n%s", ops->help_extra);
	if (ops->help_more)
		ops->help_more(f);
	fprintf(f, "\n%s", ops->exit_help ? ops->exit_help : common_exit_help);
}

void suite_add_target(struct suite_session *s, const char *opt, const char *dir)
{
	for (size_t i = 0; i < s->ntargets; i++)
		if (!strcmp(s->targets[i], dir))
			return;
	s->targets = xrealloc(s->targets, (s->ntargets + 1) * sizeof(*s->targets));
	s->targets[s->ntargets++] = dir;
	if (s->ntargets == 1) {
		s->dir = dir;
		s->target_opt = opt;
	}
}

const char *suite_target(const struct suite_session *s, size_t i)
{
	return i == 0 || i >= s->ntargets ? s->dir : s->targets[i];
}

const char *suite_targets_text(const struct suite_session *s, char *buf, size_t len)
{
	size_t n = 0;

	if (s->ntargets == 2)
		n = snprintf(buf, len, "%s given twice ('%s' and '%s')", s->target_opt,
			     s->targets[0], s->targets[1]);
	else
		n = snprintf(buf, len, "%s given %zu times", s->target_opt, s->ntargets);
	for (size_t i = 0; s->ntargets > 2 && i < s->ntargets && n < len; i++)
		n += snprintf(buf + n, len - n, "%s'%s'", i ? ", " : " (", s->targets[i]);
	if (s->ntargets > 2 && n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}

size_t suite_op_target(const char *name)
{
	const char *at = strrchr(name, '@');
	char *end;
	unsigned long k;

	if (!at || at[1] < '1' || at[1] > '9')
		return 0;
	k = strtoul(at + 1, &end, 10);
	return *end == 0 || *end == '.' ? k : 0;
}

void suite_target_phase(const struct result_phase *p, size_t k, struct result_phase *sub)
{
	memset(sub, 0, sizeof(*sub));
	sub->seconds = p->seconds;
	sub->ops = xcalloc(p->nops ? p->nops : 1, sizeof(*sub->ops));
	for (size_t i = 0; i < p->nops; i++)
		if (suite_op_target(p->ops[i].name) == k)
			sub->ops[sub->nops++] = p->ops[i];
}

/* Several targets for a suite that takes one: EXIT_USAGE after saying why. */
static int one_target_check(const struct suite_session *s)
{
	char what[1024];

	if (s->ntargets < 2 || !s->ops->one_target)
		return EXIT_OK;
	msg_err("%s: %s; give one %s (docs/targets.md)", suite_targets_text(s, what, sizeof(what)),
		s->ops->one_target, s->target_opt);
	return EXIT_USAGE;
}

/* A shared option: into the session.  EXIT_OK or EXIT_USAGE. */
static int shared_option(struct suite_session *s, unsigned bit, const char *arg)
{
	uint64_t v;

	for (const struct suite_refusal *r = s->ops->refused; r && r->option; r++)
		if (r->option == bit && !(s->ops->shared & bit)) {
			msg_err("%s", r->message);
			return EXIT_USAGE;
		}
	s->given |= bit;
	if (bit == SH_QUIET)
		s->quiet = 1;
	switch (bit) {
	case SH_DIR:
		suite_add_target(s, "-d", arg);
		return EXIT_OK;
	case SH_JSON:
		s->json = arg;
		return EXIT_OK;
	case SH_LABEL:
		s->label = arg;
		return EXIT_OK;
	case SH_KEEP:
		s->keep = 1;
		return EXIT_OK;
	case SH_DRY_RUN:
		s->dry_run = 1;
		return EXIT_OK;
	case SH_ENGINE:
		if (!engine_find_checked(arg))
			return EXIT_USAGE;
		s->ro.engine = arg;
		return EXIT_OK;
	case SH_SEED:
		if (num_parse_u64(arg, &v) < 0) {
			msg_err("invalid --seed '%s' (expected a non-negative integer)", arg);
			return EXIT_USAGE;
		}
		s->ro.seed = v;
		return EXIT_OK;
	case SH_ON_ERROR:
		if (!strcmp(arg, "stop"))
			s->ro.on_error = ON_ERROR_STOP;
		else if (!strcmp(arg, "continue"))
			s->ro.on_error = ON_ERROR_CONTINUE;
		else {
			msg_err("invalid --on-error '%s' (expected stop or continue)", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	default:
		break;
	}
	if (shared_measure_opt(bit, arg, &s->ro) < 0)
		return EXIT_USAGE;
	if (bit == SH_QUIET)
		s->chatter = 0;
	return EXIT_OK;
}

/* Parse argv into the session: EXIT_OK (operands from optind), SUITE_DONE
 * after --help, or EXIT_USAGE after a message. */
static int parse(struct suite_session *s, int argc, char **argv)
{
	const struct suite_ops *ops = s->ops;
	const struct suite_opt *sh[ARRAY_SIZE(shared_opts)];
	size_t nsh = shared_pick(ops->shared, ops->refused, sh);
	static const struct suite_opt help = { "help", 'h', HELP_KEY, OPTARG_NONE, NULL, NULL };
	struct opt_parser p;
	const char *arg;
	int key, ret = EXIT_OK;

	sh[nsh++] = &help;
	opt_parser_init(&p, argv[0], ops->parse_flags, ops->opts, sh, nsh);
	p.unknown = ops->unknown_option;
	while (ret == EXIT_OK && (key = opt_next(&p, argc, argv, &arg)) != 0) {
		if (key < 0)
			ret = EXIT_USAGE;
		else if (key == HELP_KEY) {
			suite_usage(ops, stdout);
			ret = SUITE_DONE;
		} else if (key >= OPT_SHARED)
			ret = shared_option(s, 1u << (key - OPT_SHARED), arg);
		else if (ops->option)
			ret = ops->option(s, key, arg, argc, argv);
	}
	opt_parser_free(&p);
	return ret;
}

/* Under mpirun: what the ranks cannot fold into one result yet is
 * refused (docs/mpi.md); ranks above 0 say nothing but errors and
 * warnings, and write no JSON (rank 0 writes the reduced result). */
static int mpi_checks(struct suite_session *s)
{
	static const struct {
		unsigned bit;
		const char *name;
	} no[] = {
		{ SH_INTERVAL, "--interval" },
		{ SH_STEADY, "--steady-state" },
		{ SH_REUSE, "--reuse" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (s->given & no[i].bit) {
			msg_err("%s cannot be used under mpirun: the ranks' runs are not folded "
				"into one result yet (docs/mpi.md)",
				no[i].name);
			return EXIT_USAGE;
		}
	if (mpi_rank() > 0) {
		s->chatter = 0;
		s->ro.quiet = 1;
		s->ro.progress = PROGRESS_NEVER;
		msg_quiet = 1;
		s->json = NULL;
	}
	return EXIT_OK;
}

/* The checks every suite shares, once its options are known. */
static int shared_checks(struct suite_session *s)
{
	if (shared_run_check(&s->ro) < 0)
		return EXIT_USAGE;
	for (size_t i = 0; i < (s->ntargets ? s->ntargets : 1); i++) {
		const char *t = suite_target(s, i);

		if (t && !*t) {
			msg_err("cannot use target directory '': No such file or directory");
			return EXIT_USAGE;
		}
	}
	if (s->json && outfile_check(s->json, "JSON result") < 0)
		return EXIT_USAGE;
	if (s->json && !strcmp(s->json, "-") && outfile_claim_stdout() < 0)
		return EXIT_USAGE;
	return mpi_on() ? mpi_checks(s) : EXIT_OK;
}

/* The engine, one instance opened and closed before anything is made
 * (with its options: the io suite's sqthread_poll, registerfiles,
 * fixedbufs), when it is an asynchronous one or has options: the kernel
 * may refuse its ring or context (io_uring disabled or sqthread_poll
 * without the privilege: EPERM; no AIO contexts left: EAGAIN), and the
 * command stops here with the engine's message, as a system error,
 * rather than in each worker when the run starts (there the EPERM would
 * read as a target that refuses the run).  EXIT_OK or EXIT_SYSTEM. */
static int probe_engine(const struct suite_session *s)
{
	struct engine *e;

	if (!s->ro.engine_opts.flags && !(engine_spec_caps(s->ro.engine) & ENGINE_ASYNC))
		return EXIT_OK;
	if (engine_open_opts(&e, s->ro.engine, 1, &s->ro.engine_opts) < 0)
		return EXIT_SYSTEM;
	engine_close(e);
	return EXIT_OK;
}

/* A setup failure's status: the target cannot hold the run, or a bad
 * workload (EPERM, ENOSPC, EINVAL), else the system's fault. */
static int setup_status(int rr)
{
	return rr == -EPERM || rr == -ENOSPC || rr == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
}

int suite_exit_status(int rr, const struct result *res, int status)
{
	int measured = res && (res->nphases || res->interrupted || res->stopped_on_error);

	if (res && res->interrupted)
		return EXIT_INTERRUPTED;
	if (rr == -EINTR)
		return EXIT_INTERRUPTED;
	if (rr < 0 && !measured)
		return setup_status(rr);
	if (res && (res->errors || res->stopped_on_error || res->verify_errors))
		return EXIT_RUN_ERRORS;
	if (status != EXIT_OK)
		return status;
	if (rr < 0)
		return setup_status(rr);
	return EXIT_OK;
}

static struct result *new_result(struct suite_session *s)
{
	struct result *r = result_new(s->ops->name, s->workload ? s->workload : s->ops->name);

	r->label = s->label ? xstrdup(s->label) : NULL;
	r->engine = xstrdup(s->ro.engine);
	r->seed = s->ro.seed;
	return r;
}

/* One run into `one`: a runner made (or reused with --reuse) for s->w. */
static int one_run(struct suite_session *s, struct runner **rn, struct result *one)
{
	int rr = 0;

	if (*rn) {
		runner_set_result(*rn, one);
	} else if (s->w) {
		for (size_t i = 0; s->run > 0 && i < s->nrd; i++) {
			if (s->rds[i].fd < 0)
				continue;
			/* the previous run's files go, unmeasured */
			rr = rundir_empty(s->rds[i].fd);
			if (rr < 0)
				return err_errno(rr, "cannot empty run directory '%s' between repeats",
						 s->rds[i].path);
		}
		*rn = runner_new(s->w, s->no_rundir ? NULL : s->rds, s->no_rundir ? 0 : s->nrd,
				 &s->ro, one);
		rr = runner_create_filesets(*rn);
	}
	if (rr == 0 && s->ops->run)
		rr = s->ops->run(s, *rn, one);
	if (!s->ro.reuse) {
		runner_free(*rn);
		*rn = NULL;
	}
	return rr;
}

/* The repeat loop: s->nruns runs folded into s->acc.  Under mpirun each
 * run is reduced over the ranks (mpi_reduce()) before it is folded, and
 * the ranks agree there whether the next one starts: a rank signalled
 * between the runs still takes part in the next one's reduction, so that
 * no rank waits in a collective the others have left. */
static int run_all(struct suite_session *s)
{
	struct runner *rn = NULL;
	int rr = 0, stop;

	for (s->run = 0; s->run < s->nruns && (mpi_on() || !runner_signalled()); s->run++) {
		struct result *one = s->nruns > 1 ? new_result(s) : s->acc;
		int ran = !runner_signalled();

		if (s->nruns > 1 && s->chatter)
			fprintf(stderr, "Repeat %u of %u%s\n", s->run + 1, s->nruns,
				s->ro.reuse && s->run ? " (reusing the filesets)" : "");
		if (ran)
			rr = one_run(s, &rn, one);
		if (rr == -EINTR || runner_signalled())
			one->interrupted = 1;
		stop = mpi_reduce(one, &s->acc->env,
				  rr < 0 || one->stopped_on_error || one->interrupted);
		/* after the reduction: on rank 0, what it prints and the
		 * figures it adds are those of every rank */
		if (s->ops->after_run && ran)
			s->ops->after_run(s, one);
		if (one != s->acc) {
			result_merge_repeat(s->acc, one);
			result_free(one);
		}
		if (rn)
			runner_set_result(rn, s->acc); /* runner_free() records into it */
		if (rr < 0 || s->acc->interrupted || s->acc->stopped_on_error || stop)
			break;
	}
	runner_free(rn);
	if (runner_signalled())
		s->acc->interrupted = 1; /* also when it came before a phase began */
	return rr;
}

/* One preflight figure: bytes in MiB (unit NULL) or a count. */
static void dry_figure(const char *what, double need, const char *unit, const char *detail,
		       const char *have_what, double have)
{
	if (unit)
		printf("  %-8s %.0f%s", what, need, unit);
	else
		printf("  %-8s %.1f MiB", what, need / (1024.0 * 1024.0));
	if (*detail)
		printf(" (%s)", detail);
	if (have >= 0 && unit)
		printf("; %s %.0f%s", have_what, have, unit);
	else if (have >= 0)
		printf("; %s %.1f MiB", have_what, have / (1024.0 * 1024.0));
	putchar('\n');
}

/* The run directories, one per target (one in the default target when
 * none was named), not made yet: fd -1.  rd is rds[0]. */
static void rundirs_alloc(struct suite_session *s, size_t n)
{
	free(s->rds);
	free(s->tneeds);
	s->rds = xcalloc(n, sizeof(*s->rds));
	s->tneeds = xcalloc(n, sizeof(*s->tneeds));
	for (size_t i = 0; i < n; i++)
		s->rds[i].fd = s->rds[i].parent_fd = -1;
	s->nrd = n;
	s->rd = &s->rds[0];
}

/* Target i's share of the run for the preflight: with several targets
 * its own bytes and entries (s->tneeds), the memory and threads with the
 * first target only (they are the machine's, counted once). */
static void target_needs(const struct suite_session *s, size_t i, struct preflight_needs *n)
{
	*n = s->needs;
	if (s->nrd < 2)
		return;
	n->bytes = s->tneeds[i].bytes;
	n->entries = s->tneeds[i].entries;
	if (i > 0)
		n->memory = n->threads = n->processes = 0;
}

/* --dry-run's report: where, what the preflight counted against what
 * there is, and the workload as read (the suites with a model). */
static void dry_report(const struct suite_session *s)
{
	struct preflight_have h;

	printf("dry run: nothing was created\n");
	for (size_t i = 0; i < s->nrd; i++)
		printf("target: %s (the run directory would be %s)\n", s->rds[i].parent,
		       s->rds[i].path);
	if (s->ro.duration > 0 && s->ro.duration < DURATION_MAX_SECONDS)
		printf("duration: %.0f s per run\n", s->ro.duration);
	printf("runs: %u\n", s->ro.repeat > 1 ? s->ro.repeat : 1);
	for (size_t i = 0; s->has_needs && i < s->nrd; i++) {
		struct preflight_needs n;

		target_needs(s, i, &n);
		preflight_have_read(-1, s->rds[i].parent, &h);
		printf("needs (preflight)%s%s%s%s:\n", *n.what ? ", for " : "", n.what,
		       s->nrd > 1 ? ", in " : "", s->nrd > 1 ? s->rds[i].parent : "");
		dry_figure("space", n.bytes, NULL, "", "free", h.bytes_free);
		dry_figure("entries", n.entries, "", "files and directories", "free inodes",
			   h.inodes_free);
		if (i > 0)
			continue;
		dry_figure("memory", n.memory, NULL, n.memory_detail, "available",
			   h.mem_available);
		dry_figure("threads", n.threads, "", n.threads_detail, "at most", h.max_threads);
	}
	if (s->w) {
		char *dump = workload_dump(s->w);

		printf("workload (as fsgauge reads it):\n%s", dump);
		free(dump);
	}
}

/* The preflight, target by target (fd: each run directory, or -1 to
 * check the target's file system by its path: --dry-run).  EXIT_OK or
 * EXIT_USAGE after the first target's messages that cannot hold it. */
static int preflight_targets(struct suite_session *s, int by_path)
{
	if (!s->has_needs)
		return EXIT_OK;
	if (s->no_rundir)
		return preflight_check(-1, NULL, &s->needs) < 0 ? EXIT_USAGE : EXIT_OK;
	for (size_t i = 0; i < s->nrd; i++) {
		struct preflight_needs n;

		target_needs(s, i, &n);
		if (preflight_check(by_path ? -1 : s->rds[i].fd, s->rds[i].parent, &n) < 0)
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --dry-run: plan with the run directories named, not made; the
 * preflight against the targets.  SUITE_DONE, or the plan's or
 * preflight's status. */
static int dry_prepare(struct suite_session *s)
{
	struct stat st;
	int ret = EXIT_OK, e;

	for (size_t i = 0; i < s->nrd; i++) {
		const char *target = suite_target(s, i);

		if (!target)
			target = rundir_default_parent();
		/* what rundir_create() would say first */
		e = stat(target, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		if (e) {
			msg_err("cannot use target directory '%s': %s", target, strerror(e));
			return EXIT_USAGE;
		}
		s->rds[i].parent = xstrdup(target);
		s->rds[i].path = xasprintf("%s/fsgauge-%d-XXXXXX", target, (int)getpid());
	}
	ret = s->ops->plan ? s->ops->plan(s) : EXIT_OK;
	if (ret == EXIT_OK)
		ret = preflight_targets(s, 1);
	if (ret == EXIT_OK) {
		dry_report(s);
		ret = SUITE_DONE;
	}
	for (size_t i = 0; i < s->nrd; i++)
		rundir_release(&s->rds[i]); /* (nothing open: names only) */
	return ret;
}

/* The run directories, one per target in the order named; the first
 * that cannot be made stops the session (those made before it are
 * removed at the end, as after any failure).  EXIT_OK or the status. */
static int make_rundirs(struct suite_session *s)
{
	unsigned flags = s->ro.allow_shared_target ? RUNDIR_ALLOW_SHARED : 0;

	if (s->adopt)
		return rundir_adopt(s->rd, s->adopt) < 0 ? EXIT_USAGE : EXIT_OK;
	for (size_t i = 0; !s->no_rundir && i < s->nrd; i++) {
		int rc = rundir_create(&s->rds[i], suite_target(s, i), flags);

		if (rc < 0)
			return rundir_create_status(rc);
	}
	return EXIT_OK;
}

/* Up to the result: the run directories, the plan, the preflight.  Under
 * mpirun each step's status is agreed (mpi_agree()): a step that fails on
 * one rank stops them all there. */
static int prepare(struct suite_session *s)
{
	int ret;

	rundirs_alloc(s, s->ntargets > 1 && !s->adopt ? s->ntargets : 1);
	if (s->dry_run)
		return dry_prepare(s);
	runner_install_signals();
	ret = mpi_agree(make_rundirs(s));
	if (ret == EXIT_OK && s->ops->plan)
		ret = s->ops->plan(s);
	ret = mpi_agree(ret);
	if (ret != EXIT_OK)
		return ret;
	/* before anything else is created (after the target's own checks,
	 * which say more: a read-only or missing target): the run must fit
	 * in each target, the memory and the thread limits; under mpirun
	 * rank 0 checks the target for every rank */
	if (s->has_needs) {
		mpi_scale_needs(&s->needs);
		for (size_t i = 0; s->nrd > 1 && i < s->nrd; i++) {
			s->tneeds[i].bytes *= mpi_target_share();
			s->tneeds[i].entries *= mpi_target_share();
		}
	}
	ret = mpi_agree(preflight_targets(s, 0));
	if (ret != EXIT_OK)
		return ret;
	if (s->no_rundir)
		mpi_check_target(-1, NULL, 0);
	for (size_t i = 0; !s->no_rundir && i < s->nrd; i++)
		mpi_check_target(s->rds[i].fd, s->rds[i].parent, i);
	for (size_t i = 0; !s->no_rundir && s->chatter && i < s->nrd; i++)
		fprintf(stderr, "run directory: %s\n", s->rds[i].path);
	return EXIT_OK;
}

/* The suite's metrics table into r; with several targets also each
 * metric as NAME@K for target K, labelled "LABEL, target K" (not the
 * directory: results of two layouts compare target K with target K), so
 * that compare and report know the units and directions of the figures
 * bonnie, untar and io keep per target (docs/targets.md). */
static void metric_defs_record(const struct suite_session *s, struct result *r)
{
	const struct metric_def *m = s->ops->metrics;
	struct metric_def *defs;
	size_t nbase = 0, n = 0;

	while (m && m[nbase].name)
		nbase++;
	if (s->nrd < 2 || !nbase) {
		result_set_metric_defs(r, m);
		return;
	}
	defs = xcalloc(nbase * (s->nrd + 1) + 1, sizeof(*defs));
	for (size_t i = 0; i < nbase; i++)
		defs[n++] = m[i];
	for (size_t k = 1; k <= s->nrd; k++)
		for (size_t i = 0; i < nbase; i++, n++) {
			defs[n] = m[i];
			defs[n].name = xasprintf("%s@%zu", m[i].name, k);
			defs[n].label = xasprintf("%s, target %zu", m[i].label ? m[i].label : m[i].name,
						  k);
		}
	result_set_metric_defs(r, defs);
	for (size_t i = nbase; i < n; i++) {
		free((char *)defs[i].name);
		free((char *)defs[i].label);
	}
	free(defs);
}

static void record(struct suite_session *s)
{
	s->acc = new_result(s);
	s->acc->workload_hash = s->workload_hash;
	s->workload_hash = NULL;
	s->acc->workload_text = s->workload_text;
	s->workload_text = NULL;
	metric_defs_record(s, s->acc);
	shared_run_params(&s->acc->params, &s->ro);
	if (s->ops->params)
		s->ops->params(s, s->acc);
	env_capture(&s->acc->env, s->no_rundir || !s->rd ? NULL : s->rd->parent);
	/* the other targets by name: target2, target3, ... (the file system
	 * recorded is the first target's; docs/targets.md) */
	for (size_t i = 1; !s->no_rundir && i < s->nrd; i++) {
		char key[32];

		snprintf(key, sizeof(key), "target%zu", i + 1);
		kv_add(&s->acc->env, key, "%s", s->rds[i].parent);
	}
}

/* Every run directory finished (removed, or kept with --keep): 0 or the
 * first -errno (each one is tried). */
static int finish_rundirs(struct suite_session *s)
{
	int fin = 0;

	for (size_t i = 0; i < s->nrd; i++) {
		struct rundir *rd = &s->rds[i];
		int r;

		if (rd->fd < 0)
			continue;
		r = s->ops->finish_rundir ? s->ops->finish_rundir(s, rd)
					  : rundir_finish(rd, s->keep, 1);
		if (r < 0 && !fin)
			fin = r;
	}
	return fin;
}

/* The end: the run directories first (on a full file system their space
 * is what lets the results be written), the report, the status, JSON. */
static int conclude(struct suite_session *s, int rr)
{
	struct result *acc = s->acc;
	int ret, measured = acc->nphases || acc->interrupted || acc->stopped_on_error;
	int fin = finish_rundirs(s);

	if ((measured || rr >= 0) && s->ops->report)
		s->ops->report(s, acc);
	if (s->ops->verdicts_on_stderr && !s->quiet && mpi_rank() == 0 && acc->nphases) {
		fflush(stdout);
		output_limited_by_all(stderr, acc);
	}
	output_ranks_text(stdout, acc);
	fflush(stdout);
	ret = suite_exit_status(rr, acc, s->status);
	if (fin < 0 && ret == EXIT_OK)
		ret = EXIT_SYSTEM;
	if (s->json && measured && output_json_file(acc, s->json) < 0 && ret == EXIT_OK)
		ret = EXIT_SYSTEM;
	return ret;
}

int suite_main(const struct suite_ops *ops, int argc, char **argv)
{
	struct suite_session s = {
		.ops = ops,
		.ro = { .engine = ENGINE_DEFAULT, .seed = 1, .on_error = ON_ERROR_STOP },
		.chatter = 1,
	};
	int ret, rr;

	rundirs_alloc(&s, 1);
	ret = mpi_begin();
	if (ret != EXIT_OK) {
		mpi_end();
		free(s.rds);
		free(s.tneeds);
		return ret;
	}
	s.chatter = mpi_rank() == 0; /* one rank tells the story */
	s.ctx = ops->ctx_size ? xcalloc(1, ops->ctx_size) : NULL;
	if (ops->init)
		ops->init(&s);
	ret = parse(&s, argc, argv);
	if (ret == EXIT_OK)
		ret = one_target_check(&s);
	if (ret == EXIT_OK && ops->check)
		ret = ops->check(&s, argc - optind, argv + optind);
	if (ret == EXIT_OK)
		ret = shared_checks(&s);
	if (ret == EXIT_OK && ops->setup)
		ret = ops->setup(&s);
	if (ret == EXIT_OK)
		ret = probe_engine(&s);
	ret = mpi_agree(ret);
	if (ret == EXIT_OK)
		ret = prepare(&s);
	if (ret == EXIT_INTERRUPTED) {
		/* stopped before anything ran (a slow archive): --json still
		 * gets a result that says so */
		record(&s);
		s.acc->interrupted = 1;
		ret = conclude(&s, -EINTR);
	} else if (ret == EXIT_OK) {
		record(&s);
		if (ops->begin)
			ops->begin(&s);
		s.nruns = s.ro.repeat > 1 ? s.ro.repeat : 1;
		s.ro.sync = mpi_sync();
		rr = run_all(&s); /* (reduced over the ranks run by run) */
		ret = conclude(&s, rr);
	}
	ret = mpi_agree(ret); /* every rank exits with the worst status */
	for (size_t i = 0; i < s.nrd; i++) {
		if (s.rds[i].fd >= 0 && s.adopt)
			rundir_release(&s.rds[i]); /* not ours to remove */
		else if (s.rds[i].fd >= 0)
			rundir_remove(&s.rds[i]); /* failed before running: nothing worth keeping */
	}
	if (ops->fini)
		ops->fini(&s);
	result_free(s.acc);
	free(s.workload_hash);
	free(s.workload_text);
	free(s.ctx);
	free(s.targets);
	free(s.rds);
	free(s.tneeds);
	mpi_end();
	return ret == SUITE_DONE ? EXIT_OK : ret;
}

const struct suite_ops *suite_at(size_t i)
{
	static const struct suite_ops *const all[] = { &suite_run,   &suite_bonnie, &suite_iozone,
						       &suite_untar, &suite_verify, &suite_io };

	return i < ARRAY_SIZE(all) ? all[i] : NULL;
}

const struct suite_ops *suite_find(const char *name)
{
	const struct suite_ops *ops;

	for (size_t i = 0; (ops = suite_at(i)); i++)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}
