/*
 * iozone.c — `fsgauge iozone`: iozone's tests with iozone's options and
 * report, run on the fsgauge engine.
 *
 * Every test is a phase of threads (runner_phase), one thread per file.
 * Each thread opens its file, runs a composite flowop "t<N>" that times
 * exactly what iozone times (the records, plus fsync with -e and close
 * with -c), and then does the untimed rest (iozone's fsync before close,
 * the close).  A thread's throughput is the bytes of its record operations
 * ("t<N>.write", ...) over the composite's time; the parent's is every
 * thread's bytes over the phase's wall time.  Stonewalling is the
 * runner's `stonewall` flowop: the first thread to finish its records
 * ends the others' record loops; initial writers then complete their files
 * untimed ("t<N>-fill"), as iozone's do, so that the next tests find whole
 * files.
 *
 * Modes: throughput (-t N: the sections of iozone's throughput test),
 * auto (-a: a table of KB/s per file size and record size) and single
 * stream (neither: the same table for the -s/-r given).  The report's
 * layout is in src/output/iozone_fmt.c; docs/iozone.md lists the options
 * and what differs from iozone.
 *
 * The shared measurement options (cmd/common.h) are parsed by
 * common_run_opt(); --repeat is run_all()'s loop around every test,
 * folded with result_merge_repeat(), plus the statistics of iozone's own
 * figure per test (figs_*).  -f/-F may name block devices: each is opened
 * once by blockdev_open() (util/blockdev.h decides what is allowed) and
 * given to the runner as a `define file` with has_device; there is no run
 * directory then.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gitrev.h" /* generated: FSGAUGE_GITREV, the commit built from */
#include "cmd/cmd.h"
#include "cmd/common.h"
#include "suite/iozone/format.h"
#include "output/output.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/env.h"
#include "stats/summary.h"
#include "util/blockdev.h"
#include "util/outfile.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/build.h"

#define KB 1024ull
#define MAX_THREADS 256		      /* iozone's MAXSTREAMS */
#define MAX_RECORD (16ull << 20)      /* iozone's largest record */
#define AUTO_MIN_SIZE (64 * KB)	      /* auto mode's defaults */
#define AUTO_MAX_SIZE (512ull << 20)
#define AUTO_MIN_REC (4 * KB)
#define AUTO_MAX_REC MAX_RECORD
#define CROSSOVER (16ull << 20)	      /* above this file size auto mode ... */
#define LARGE_REC (64 * KB)	      /* ... skips records below this (but -z) */
#define DEFAULT_SIZE (512 * KB)
#define DEFAULT_REC (4 * KB)
#define DEFAULT_STRIDE 17
/* "until done" for the runner: a phase ends when its threads are done */
#define PHASE_SECONDS (3600.0 * 24 * 365)

/* -i numbers run when none is given. */
#define TP_DEFAULT_TESTS 0x72f	/* 0 1 2 3 5 8 9 10: seed 003's sections */
#define AUTO_DEFAULT_TESTS 0xff /* 0 to 7 */

enum {
	OPT_JSON = 0x1100,
	OPT_LABEL,
	OPT_ENGINE,
	OPT_SEED,
	OPT_DIR,
	OPT_HELP,
	OPT_ALLOW_WRITE_DEVICE,
	OPT_FORCE_DESTROY_DATA,
};

struct sizes {
	uint64_t *v;
	size_t n;
};

struct ioz {
	/* options */
	int autom;
	unsigned nthreads;	/* -t; 0: not throughput mode */
	struct sizes s_opt, r_opt;
	uint64_t min_size, max_size, min_rec, max_rec;
	int all_recs;		/* -z */
	unsigned tests;		/* -i bits */
	int osync, odsync, inc_close, inc_flush, direct, keep, no_retest, no_stonewall;
	int csv_stdout;
	const char *csv_file;
	uint64_t stride;
	char **files;		/* -F */
	size_t nfiles;
	const char *file;	/* -f */
	const char *dir;
	const char *json, *label;
	int quiet;
	struct run_opts ro;
	char *cmdline;
	char *options;		/* workload_options() */
	const char *target;	/* the target directory */
	/* derived */
	unsigned nfs;		/* threads (files) */
	struct sizes sizes, recs; /* the file sizes and record sizes to run */
	struct wl_fileset **fsets;
	struct workload *w;
	struct runner *rn;
	struct result *res; /* the current run's result */
	struct result *acc; /* every run's (res itself without --repeat) */
	/* --repeat: iozone's figures of every run, summarised at the end */
	struct ioz_fig *figs;
	size_t nfigs, fig_hint;
	int progress_given;
	/* block-device targets (-f/-F /dev/X) */
	struct blockdev_policy policy;
	int device; /* the targets are block devices */
	int *devfd; /* per thread, from blockdev_open() */
};

struct ioz_fig {
	char *phase, *metric, *unit;
	struct summary s;
	double *v; /* per run */
};

static void iozone_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge iozone [options]\n"
		"\n"
		"iozone's file I/O tests, with iozone's options and report, on the fsgauge\n"
		"engine.  With -t N, the throughput test (N threads, one file each; iozone\n"
		"uses processes by default, fsgauge always threads); with -a, the table of\n"
		"KB/s per file size and record size; else the table's row for -s and -r.\n"
		"Files live in a fresh directory inside the target, removed afterwards;\n"
		"-f or -F may name block devices instead (see 'block devices' below).\n"
		"\n"
		"iozone's options (sizes in KB unless suffixed k, m or g):\n"
		"  -a             auto mode: file sizes -n..-g, record sizes -y..-q\n"
		"  -n SIZE        auto mode's smallest file (64k)\n"
		"  -g SIZE        auto mode's largest file (512m)\n"
		"  -y SIZE        auto mode's smallest record (4k)\n"
		"  -q SIZE        auto mode's largest record (16m)\n"
		"  -z             auto mode: small records with large files too\n"
		"  -s SIZE        file size (512k); repeatable with -a\n"
		"  -r SIZE        record size (4k); repeatable with -a\n"
		"  -t N           throughput test with N threads (1 to %d)\n"
		"  -F F1 F2 ...   the threads' file names (in one directory)\n"
		"  -f FILE        the file of auto and single-stream mode\n"
		"  -i N           test to run, repeatable: 0 write/rewrite, 1 read/reread,\n"
		"                 2 random read/write, 3 backward read, 4 record rewrite,\n"
		"                 5 stride read, 6 fwrite/refwrite, 7 fread/refread,\n"
		"                 8 random mix, 9 pwrite/repwrite, 10 pread/repread\n"
		"  -o             O_SYNC opens\n"
		"  -+D            O_DSYNC opens\n"
		"  -I             O_DIRECT opens\n"
		"  -c             include close in the timing\n"
		"  -e             include fsync (and fflush) in the timing of writes\n"
		"  -j N           stride of the stride read, in records (17)\n"
		"  -w             keep the files (the run directory)\n"
		"  -x             no stonewalling: every thread does all its records\n"
		"  -+n            no retests (rewrite, reread, ...)\n"
		"  -R             spreadsheet report (CSV) on stdout\n"
		"  -b FILE        spreadsheet report (CSV) into FILE\n"
		"  -T             accepted: fsgauge always uses threads\n"
		"\n"
		"fsgauge's options:\n"
		"      --dir DIR      target directory (default: the -F/-f files' directory,\n"
		"                     else the current directory, as iozone)\n"
		"      --json FILE    write the full result as JSON ('-': stdout, and the\n"
		"                     tables go to stderr)\n"
		"      --label TEXT   a label stored in the result\n"
		"      --engine NAME  I/O engine: psync (default), io_uring, null, or\n"
		"                     faulty:ENGINE:RULE (fault injection, docs/reliability.md)\n"
		"      --seed N       seed for random offsets and data (default 1)\n"
		"      --allow-write-device  let write tests write to -f/-F block devices\n"
		"      --force-destroy-data  ... even when mounted, in use or holding a file\n"
		"                     system or partition table\n"
		"  -h, --help         this help\n"
		"\n",
		MAX_THREADS);
	common_run_usage(f);
	fprintf(f,
		"\n"
		"In iozone: --direct is -I (not on the fwrite/fread tests); --quiet has no\n"
		"short form (-q is the largest record); --repeat N runs every test N times\n"
		"(fresh files each run unless --reuse) and ends with each test's KB/sec\n"
		"mean, sd, cv and 95%% confidence interval; --drop-caches drops the page\n"
		"cache before each test; --interval records each test's time series in the\n"
		"JSON.  --warmup and --steady-state do not apply (a test is a fixed amount\n"
		"of I/O, timed from its first record to its last) and are refused.\n"
		"\n"
		"block devices (-f /dev/X, or -F /dev/X /dev/Y ..., one per thread): opened\n"
		"through fsgauge's device checks; read tests read what the device holds\n"
		"(nothing is written beforehand); a selection with a write test (-i 0, 2, 4,\n"
		"6, 8, 9) needs --allow-write-device, and a device that is mounted, in use,\n"
		"or carries a file-system or partition-table signature also needs\n"
		"--force-destroy-data.  The tests use the first -s bytes of each device; no\n"
		"directory is created, nothing is removed (docs/iozone.md).\n"
		"\n"
		"exit status: 0 ok, 1 I/O errors, 2 usage error or refused device, 3 system\n"
		"error, 130 interrupted (partial results are still written).\n");
}

static int usage_error(void)
{
	fprintf(stderr, "try 'fsgauge iozone --help'\n");
	return EXIT_USAGE;
}

static void sizes_add(struct sizes *s, uint64_t v)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = v;
}

/* iozone's sizes: KB unless suffixed. */
static int parse_kb(const char *opt, const char *arg, uint64_t *out)
{
	if (size_parse_unit(arg, KB, out) < 0 || !*out) {
		msg_err("invalid size '%s' for %s (a number of KB, or with k, m or g)", arg, opt);
		return -1;
	}
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	/* argv[0] is "fsgauge iozone" (main.c) */
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xmalloc(len);
	*s = 0;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The options that define the workload, for the result's parameters:
 * without fsgauge's reporting options (--json, --label, --quiet,
 * --progress), the device permissions, the
 * place (--dir, the directories of -F/-f), -w, -R and -b, which do not
 * change what is measured — so that `fsgauge compare` accepts two runs of
 * the same test in different places.  Caller frees. */
static char *workload_options(int argc, char **argv)
{
	static const char *const skip_arg[] = { "--json", "--label", "--dir", "--seed", "-b" };
	static const char *const skip[] = { "--quiet", "-w", "-R", "--allow-write-device",
					    "--force-destroy-data", "--allow-shared-target" };
	size_t len = 1;
	char *s;
	int files = 0;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xcalloc(1, len);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int drop = 0;

		for (size_t k = 0; k < ARRAY_SIZE(skip_arg); k++) {
			size_t n = strlen(skip_arg[k]);

			if (!strcmp(a, skip_arg[k])) {
				drop = 2;
			} else if (!strncmp(a, skip_arg[k], n) && (a[n] == '=' || n == 2)) {
				drop = 1;
			}
		}
		for (size_t k = 0; k < ARRAY_SIZE(skip); k++)
			if (!strcmp(a, skip[k]))
				drop = 1;
		if (!strcmp(a, "--progress") || !strncmp(a, "--progress=", 11))
			drop = 1;
		if (drop) {
			i += drop - 1;
			files = 0;
			continue;
		}
		if (a[0] == '-')
			files = !strcmp(a, "-F") || !strcmp(a, "-f");
		else if (files)
			a = base_name(a);
		if (*s)
			strcat(s, " ");
		strcat(s, a);
	}
	return s;
}

/* -F F1 F2 ...: the names following the option up to the next option. */
static void take_files(struct ioz *z, int argc, char **argv)
{
	z->files = xrealloc(z->files, (z->nfiles + 1) * sizeof(*z->files));
	z->files[z->nfiles++] = optarg;
	while (optind < argc && argv[optind][0] != '-') {
		z->files = xrealloc(z->files, (z->nfiles + 1) * sizeof(*z->files));
		z->files[z->nfiles++] = argv[optind++];
	}
}

static int parse_opts(struct ioz *z, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "allow-write-device", no_argument, NULL, OPT_ALLOW_WRITE_DEVICE },
		{ "force-destroy-data", no_argument, NULL, OPT_FORCE_DESTROY_DATA },
		COMMON_RUN_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ab:ceF:f:g:hIi:j:n:oq:Rr:s:t:Twxy:z+:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			z->autom = 1;
			break;
		case 'b':
			z->csv_file = optarg;
			break;
		case 'c':
			z->inc_close = 1;
			break;
		case 'e':
			z->inc_flush = 1;
			break;
		case 'F':
			take_files(z, argc, argv);
			break;
		case 'f':
			z->file = optarg;
			break;
		case 'g':
			if (parse_kb("-g", optarg, &z->max_size) < 0)
				return -1;
			break;
		case 'h':
		case OPT_HELP:
			iozone_usage(stdout);
			return 1;
		case 'I':
			z->direct = 1;
			break;
		case 'i':
			if (num_parse_u64(optarg, &v) < 0 || v > 10) {
				msg_err("invalid test '%s' for -i (0 to 10; see --help)", optarg);
				return -1;
			}
			z->tests |= 1u << v;
			break;
		case 'j':
			if (num_parse_u64(optarg, &v) < 0 || v < 1 || v > (1u << 20)) {
				msg_err("invalid stride '%s' for -j (a number of records, at least 1)",
					optarg);
				return -1;
			}
			z->stride = v;
			break;
		case 'n':
			if (parse_kb("-n", optarg, &z->min_size) < 0)
				return -1;
			break;
		case 'o':
			z->osync = 1;
			break;
		case 'q':
			if (parse_kb("-q", optarg, &z->max_rec) < 0)
				return -1;
			break;
		case 'R':
			z->csv_stdout = 1;
			break;
		case 'r':
			if (parse_kb("-r", optarg, &v) < 0)
				return -1;
			sizes_add(&z->r_opt, v);
			break;
		case 's':
			if (parse_kb("-s", optarg, &v) < 0)
				return -1;
			sizes_add(&z->s_opt, v);
			break;
		case 't':
			if (num_parse_u64(optarg, &v) < 0 || v < 1 || v > MAX_THREADS) {
				msg_err("invalid thread count '%s' for -t (1 to %d)", optarg,
					MAX_THREADS);
				return -1;
			}
			z->nthreads = (unsigned)v;
			break;
		case 'T':
			break;
		case 'w':
			z->keep = 1;
			break;
		case 'x':
			z->no_stonewall = 1;
			break;
		case 'y':
			if (parse_kb("-y", optarg, &z->min_rec) < 0)
				return -1;
			break;
		case 'z':
			z->all_recs = 1;
			break;
		case '+':
			if (!strcmp(optarg, "n")) {
				z->no_retest = 1;
			} else if (!strcmp(optarg, "D")) {
				z->odsync = 1;
			} else {
				msg_err("unknown or unsupported option '-+%s'", optarg);
				return -1;
			}
			break;
		case OPT_JSON:
			z->json = optarg;
			break;
		case OPT_LABEL:
			z->label = optarg;
			break;
		case OPT_ENGINE:
			if (!engine_find_checked(optarg))
				return -1;
			z->ro.engine = optarg;
			break;
		case OPT_SEED:
			if (num_parse_u64(optarg, &z->ro.seed) < 0) {
				msg_err("invalid seed '%s' (expected a whole number)", optarg);
				return -1;
			}
			break;
		case OPT_DIR:
			z->dir = optarg;
			break;
		case OPT_ALLOW_WRITE_DEVICE:
			z->policy.allow_write = 1;
			break;
		case OPT_FORCE_DESTROY_DATA:
			z->policy.force_destroy = 1;
			break;
		case OPT_QUIET:
			z->quiet = 1; /* and the runner's chatter, as it always is */
			common_run_opt(c, optarg, &z->ro);
			break;
		case OPT_DIRECT:
			z->direct = 1; /* --direct is -I: not on the fwrite/fread streams */
			break;
		case OPT_WARMUP:
		case OPT_STEADY_STATE:
			msg_err("--warmup and --steady-state do not apply to iozone: each test is a "
				"fixed amount of I/O (-s / -r records per thread), timed from its first "
				"record to its last");
			return -1;
		case OPT_PROGRESS:
			if (common_run_opt(c, optarg, &z->ro) < 0)
				return -1;
			z->progress_given = 1;
			break;
		case ':':
			if (optopt == '+')
				msg_err("option '-+' needs a letter (-+n, -+D)");
			else if (optopt > 0 && optopt < 0x100)
				msg_err("option '-%c' needs a value", optopt);
			else
				msg_err("option '%s' needs a value", argv[optind - 1]);
			return -1;
		default: {
			int r = common_run_opt(c, optarg, &z->ro);

			if (r > 0)
				break;
			if (r < 0)
				return -1;
			if (optopt > 0 && optopt < 0x100)
				msg_err("unknown or unsupported option '-%c'", optopt);
			else
				msg_err("unknown option '%s'", argv[optind - 1]);
			return -1;
		}
		}
	}
	if (optind < argc) {
		msg_err("unexpected argument '%s' (-F takes the file names)", argv[optind]);
		return -1;
	}
	return 0;
}

/* The directory part of a file name ("." for none); caller frees. */
static char *dir_name(const char *p)
{
	char *c = xstrdup(p);
	char *d = xstrdup(dirname(c));

	free(c);
	return d;
}

static int check_name(const char *opt, const char *full, const char *name)
{
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") ||
	    !strncmp(name, ".fsgauge", 8)) {
		msg_err("invalid file name '%s' for %s", full, opt);
		return -1;
	}
	return 0;
}

/* Where the files go: --dir, else the directory of the -F/-f names (one
 * directory: fsgauge works inside one run directory), else ".".
 * Returns an allocated path or NULL after a message. */
static char *target_dir(struct ioz *z)
{
	char *d = NULL;

	if (z->nfiles || z->file) {
		size_t n = z->nfiles ? z->nfiles : 1;

		for (size_t i = 0; i < n; i++) {
			const char *full = z->nfiles ? z->files[i] : z->file;
			const char *opt = z->nfiles ? "-F" : "-f";
			char *di = dir_name(full);

			if (check_name(opt, full, base_name(full)) < 0) {
				free(di);
				free(d);
				return NULL;
			}
			if (z->dir && strchr(full, '/')) {
				msg_err("file '%s' of %s has a directory and --dir is given: give "
					"one or the other",
					full, opt);
				free(di);
				free(d);
				return NULL;
			}
			if (d && strcmp(d, di)) {
				msg_err("the files of -F are in different directories ('%s' and "
					"'%s'); fsgauge works inside one directory",
					d, di);
				free(di);
				free(d);
				return NULL;
			}
			free(d);
			d = di;
		}
		for (size_t i = 0; i < z->nfiles; i++)
			for (size_t j = 0; j < i; j++)
				if (!strcmp(base_name(z->files[i]), base_name(z->files[j]))) {
					msg_err("file name '%s' is given twice to -F",
						base_name(z->files[i]));
					free(d);
					return NULL;
				}
	}
	if (z->dir) {
		free(d);
		return xstrdup(z->dir);
	}
	return d ? d : xstrdup(".");
}

static int check_opts(struct ioz *z)
{
	if (common_verify_check(&z->ro) < 0)
		return -1;
	if (z->autom && z->nthreads) {
		msg_err("auto mode (-a) and the throughput test (-t) cannot be combined");
		return -1;
	}
	if (z->nfiles && !z->nthreads)
		z->nthreads = (unsigned)z->nfiles;
	if (z->nfiles && z->nfiles != z->nthreads) {
		msg_err("-F names %zu file%s but -t asks for %u threads: give one file per thread",
			z->nfiles, z->nfiles == 1 ? "" : "s", z->nthreads);
		return -1;
	}
	if (z->nthreads && z->nfiles > MAX_THREADS) {
		msg_err("-F names %zu files; at most %d", z->nfiles, MAX_THREADS);
		return -1;
	}
	if (z->nthreads && (z->s_opt.n > 1 || z->r_opt.n > 1)) {
		msg_err("the throughput test (-t) takes one -s and one -r");
		return -1;
	}
	if (z->file && z->nthreads) {
		msg_err("-f names the file of auto and single-stream mode; the throughput test "
			"(-t) uses -F");
		return -1;
	}
	for (size_t i = 0; i < z->r_opt.n; i++)
		if (z->r_opt.v[i] > MAX_RECORD) {
			msg_err("record size %lluk is larger than iozone's largest, 16m",
				(unsigned long long)(z->r_opt.v[i] / KB));
			return -1;
		}
	if (z->min_size && z->max_size && z->min_size > z->max_size) {
		msg_err("-n (smallest file) is larger than -g (largest file)");
		return -1;
	}
	if (z->min_rec && z->max_rec && z->min_rec > z->max_rec) {
		msg_err("-y (smallest record) is larger than -q (largest record)");
		return -1;
	}
	if (z->max_rec > MAX_RECORD || z->min_rec > MAX_RECORD) {
		msg_err("record sizes are at most 16m");
		return -1;
	}
	if (!z->autom && (z->min_size || z->max_size || z->min_rec || z->max_rec || z->all_recs)) {
		msg_err("-n, -g, -y, -q and -z belong to auto mode (-a)");
		return -1;
	}
	if (z->csv_file && !*z->csv_file) {
		msg_err("-b needs a file name");
		return -1;
	}
	return 0;
}

/* The file sizes and record sizes to run, in iozone's order. */
static int plan_sizes(struct ioz *z)
{
	if (!z->autom) {
		if (z->s_opt.n)
			for (size_t i = 0; i < z->s_opt.n; i++)
				sizes_add(&z->sizes, z->s_opt.v[i]);
		else
			sizes_add(&z->sizes, DEFAULT_SIZE);
		if (z->r_opt.n)
			for (size_t i = 0; i < z->r_opt.n; i++)
				sizes_add(&z->recs, z->r_opt.v[i]);
		else
			sizes_add(&z->recs, DEFAULT_REC);
		for (size_t i = 0; i < z->sizes.n; i++)
			for (size_t j = 0; j < z->recs.n; j++)
				if (z->recs.v[j] > z->sizes.v[i]) {
					msg_err("record size %lluk is larger than the file size %lluk",
						(unsigned long long)(z->recs.v[j] / KB),
						(unsigned long long)(z->sizes.v[i] / KB));
					return -1;
				}
		return 0;
	}
	if (z->s_opt.n) {
		for (size_t i = 0; i < z->s_opt.n; i++)
			sizes_add(&z->sizes, z->s_opt.v[i]);
	} else {
		uint64_t lo = z->min_size ? z->min_size : AUTO_MIN_SIZE;
		uint64_t hi = z->max_size ? z->max_size : AUTO_MAX_SIZE;

		if (lo > hi)
			lo = hi;
		for (uint64_t s = lo; s <= hi; s *= 2)
			sizes_add(&z->sizes, s);
	}
	if (z->r_opt.n) {
		for (size_t i = 0; i < z->r_opt.n; i++)
			sizes_add(&z->recs, z->r_opt.v[i]);
	} else {
		uint64_t lo = z->min_rec ? z->min_rec : AUTO_MIN_REC;
		uint64_t hi = z->max_rec ? z->max_rec : AUTO_MAX_REC;

		if (lo > hi)
			lo = hi;
		for (uint64_t r = lo; r <= hi; r *= 2)
			sizes_add(&z->recs, r);
	}
	return 0;
}

/* Whether auto mode runs record size r with file size s. */
static int rec_applies(const struct ioz *z, uint64_t s, uint64_t r)
{
	if (r > s)
		return 0;
	if (z->autom && !z->r_opt.n && !z->all_recs && s > CROSSOVER && r < LARGE_REC)
		return 0;
	return 1;
}

static int test_selected(const struct ioz *z, enum ioz_test t)
{
	const struct ioz_test_info *ti = &ioz_tests[t];

	if (!(z->tests & (1u << ti->option)))
		return 0;
	if (ti->retest && z->no_retest)
		return 0;
	if (z->nthreads && !ti->tp_label)
		return 0;
	/* iozone's tables show random mix and pread/pwrite only when asked */
	return 1;
}

/* The tests of auto and single-stream mode, in column order. */
static size_t auto_columns(const struct ioz *z, enum ioz_test *cols)
{
	size_t n = 0;

	for (int t = 0; t < IOZ__COUNT; t++)
		if (test_selected(z, (enum ioz_test)t))
			cols[n++] = (enum ioz_test)t;
	return n;
}

static size_t tp_tests(const struct ioz *z, enum ioz_test *list)
{
	size_t n = 0;

	for (const enum ioz_test *t = ioz_tp_order; *t != IOZ__COUNT; t++)
		if (test_selected(z, *t))
			list[n++] = *t;
	return n;
}

/* --- building a test's threads ------------------------------------------- */

static char *fmt_name(char *buf, size_t len, const char *thread, const char *what)
{
	snprintf(buf, len, "%s%s", thread, what);
	return buf;
}

static void open_attrs(const struct ioz *z, struct wl_flowop *fo, int stdio)
{
	fo->fd = wl_int(1);
	if (stdio)
		return; /* iozone's fopen streams get none of these */
	if (z->osync)
		fo->osync = wl_bool(1);
	if (z->odsync)
		fo->dsync = wl_bool(1);
	if (z->direct)
		fo->directio = wl_bool(1);
}

struct data_op {
	int write, random, reverse, same_record, stdio;
};

static struct data_op test_data_op(const struct ioz *z, enum ioz_test t, unsigned thread)
{
	struct data_op d = { 0 };

	d.write = ioz_tests[t].writes;
	d.stdio = ioz_tests[t].stdio;
	switch (t) {
	case IOZ_RANDREAD:
	case IOZ_RANDWRITE:
		d.random = 1;
		break;
	case IOZ_MIX:
		/* iozone's throughput mix: half the threads read, half write */
		d.random = 1;
		d.write = thread % 2;
		break;
	case IOZ_BKWDREAD:
		d.reverse = 1;
		break;
	case IOZ_RECREWRITE:
		d.same_record = 1;
		break;
	default:
		break;
	}
	return d;
}

static struct wl_flowop *add_data_op(struct wl_flowop *parent, const char *name,
				     struct wl_fileset *fs, const struct data_op *d,
				     const struct ioz *z, uint64_t s, uint64_t r, uint64_t iters)
{
	struct wl_flowop *fo = wl_add_child(parent, d->write ? FO_WRITE : FO_READ, name, fs);

	fo->fd = wl_int(1);
	fo->iosize = wl_int((int64_t)r);
	fo->iters = wl_int((int64_t)iters);
	fo->wss = wl_int((int64_t)(d->same_record ? r : s));
	if (d->random)
		fo->random = wl_bool(1);
	if (d->reverse)
		fo->reverse = wl_bool(1);
	if (d->stdio)
		fo->bufsize = wl_int((int64_t)r);
	return fo;
}

/* One phase: a process of one thread per file.  Thread t<N>:
 *   t<N>-open                     open (create for initial writes)
 *   [t<N>-fill]                   auto mode: grow the file to s, untimed
 *   t<N> { t<N>.<op> x records    the timed section (composite)
 *          [t<N>.fsync] [t<N>.close] }
 *   [stonewall]                   throughput mode, without -x
 *   [t<N>-reopen] [t<N>-fill]     stonewalled initial writes complete the file
 *   [t<N>-fsync] [t<N>-close]     what iozone does after the timing
 *   done                          threaddone
 */
static struct wl_process *build_phase(const struct ioz *z, enum ioz_test t, uint64_t s,
				      uint64_t r)
{
	const struct ioz_test_info *ti = &ioz_tests[t];
	struct wl_process *p = wl_new_process("iozone", 1);
	uint64_t nrec = s / r;
	int stonewall = z->nthreads && !z->no_stonewall;

	for (unsigned i = 0; i < z->nfs; i++) {
		char th[32], nm[64];
		struct wl_fileset *fs = z->fsets[i];
		struct data_op d = test_data_op(z, t, i);
		struct wl_thread *thr;
		struct wl_flowop *fo, *timed;
		int reopened = 0;

		snprintf(th, sizeof(th), "t%u", i);
		thr = wl_add_thread(p, th, 1, (int64_t)MAX(r, 4096));
		fo = wl_add_flowop(thr, ti->creates ? FO_CREATEFILE : FO_OPENFILE,
				   fmt_name(nm, sizeof(nm), th, "-open"), fs);
		open_attrs(z, fo, d.stdio);
		/* (a device is always its full size: nothing to complete) */
		if (!ti->creates && z->sizes.n > 1 && !z->device) {
			fo = wl_add_flowop(thr, FO_WRITEWHOLEFILE,
					   fmt_name(nm, sizeof(nm), th, "-fill"), fs);
			fo->fd = wl_int(1);
			fo->resume = wl_bool(1);
			fo->iosize = wl_int((int64_t)r);
			fo->wss = wl_int((int64_t)s);
		}
		timed = wl_add_composite(thr, th);
		if (t == IOZ_MIX && !z->nthreads) {
			/* single stream: random reads and writes in turn */
			struct data_op rd = d, wr = d;
			struct wl_flowop *mix;

			rd.write = 0;
			wr.write = 1;
			if (nrec / 2) {
				mix = wl_add_child(timed, FO_COMPOSITE,
						   fmt_name(nm, sizeof(nm), th, ".mix"), NULL);
				mix->composite_name = xstrdup(mix->name);
				mix->iters = wl_int((int64_t)(nrec / 2));
				add_data_op(mix, fmt_name(nm, sizeof(nm), th, ".mix.read"), fs, &rd,
					    z, s, r, 1);
				add_data_op(mix, fmt_name(nm, sizeof(nm), th, ".mix.write"), fs,
					    &wr, z, s, r, 1);
			}
			if (nrec % 2)
				add_data_op(timed, fmt_name(nm, sizeof(nm), th, ".mix.read"), fs, &rd,
					    z, s, r, 1);
			d.write = 1;
		} else {
			fo = add_data_op(timed,
					 fmt_name(nm, sizeof(nm), th, d.write ? ".write" : ".read"),
					 fs, &d, z, s, r, nrec);
			if (t == IOZ_STRIDEREAD)
				fo->stride = wl_int((int64_t)z->stride);
			if (stonewall)
				fo->stonewall = wl_bool(1);
		}
		if (z->inc_flush && d.write) {
			fo = wl_add_child(timed, FO_FSYNC, fmt_name(nm, sizeof(nm), th, ".fsync"),
					  fs);
			fo->fd = wl_int(1);
		}
		if (z->inc_close) {
			fo = wl_add_child(timed, FO_CLOSEFILE,
					  fmt_name(nm, sizeof(nm), th, ".close"), fs);
			fo->fd = wl_int(1);
		}
		if (stonewall)
			wl_add_flowop(thr, FO_STONEWALL, "stonewall", NULL);
		if (stonewall && ti->creates) {
			if (z->inc_close) {
				fo = wl_add_flowop(thr, FO_OPENFILE,
						   fmt_name(nm, sizeof(nm), th, "-reopen"), fs);
				open_attrs(z, fo, d.stdio);
				reopened = 1;
			}
			fo = wl_add_flowop(thr, FO_WRITEWHOLEFILE,
					   fmt_name(nm, sizeof(nm), th, "-fill"), fs);
			fo->fd = wl_int(1);
			fo->resume = wl_bool(1);
			fo->iosize = wl_int((int64_t)r);
			fo->wss = wl_int((int64_t)s);
		}
		if (!z->inc_close && d.write) {
			fo = wl_add_flowop(thr, FO_FSYNC, fmt_name(nm, sizeof(nm), th, "-fsync"),
					   fs);
			fo->fd = wl_int(1);
		}
		if (!z->inc_close || reopened) {
			fo = wl_add_flowop(thr, FO_CLOSEFILE,
					   fmt_name(nm, sizeof(nm), th, "-close"), fs);
			fo->fd = wl_int(1);
		}
		wl_add_flowop(thr, FO_THREADDONE, "done", NULL);
	}
	return p;
}

/* --- figures --------------------------------------------------------------- */

/* Thread `i`'s timed seconds (its composite) and bytes (its record
 * operations). */
static void thread_figures(const struct result_phase *ph, unsigned i, double *secs,
			   double *bytes)
{
	char th[32];
	size_t tl = (size_t)snprintf(th, sizeof(th), "t%u", i);

	*secs = 0;
	*bytes = 0;
	for (size_t k = 0; k < ph->nops; k++) {
		const struct result_op *o = &ph->ops[k];

		if (!strcmp(o->name, th))
			*secs = o->st.lat.count ? o->st.lat.sum / 1e9 : 0;
		else if (!strncmp(o->name, th, tl) && o->name[tl] == '.')
			*bytes += (double)(o->st.bytes_read + o->st.bytes_written);
	}
}

static void tp_figures(struct ioz *z, struct result_phase *ph, struct ioz_tp *t)
{
	double total_kb = 0;

	memset(t, 0, sizeof(*t));
	t->nthreads = z->nfs;
	for (unsigned i = 0; i < z->nfs; i++) {
		double secs, bytes, kb, kbs;
		char name[48];

		thread_figures(ph, i, &secs, &bytes);
		kb = bytes / KB;
		kbs = secs > 0 ? kb / secs : 0;
		t->children += kbs;
		total_kb += kb;
		if (!i || kbs < t->min)
			t->min = kbs;
		if (!i || kbs > t->max)
			t->max = kbs;
		if (!i || kb < t->min_xfer)
			t->min_xfer = kb;
		snprintf(name, sizeof(name), "t%u.throughput", i);
		result_phase_add_metric(ph, name, "KB/s", kbs);
		snprintf(name, sizeof(name), "t%u.xfer", i);
		result_phase_add_metric(ph, name, "KB", kb);
	}
	t->avg = z->nfs ? t->children / z->nfs : 0;
	t->parent = ph->seconds > 0 ? total_kb / ph->seconds : 0;
	result_phase_add_metric(ph, "children_throughput", "KB/s", t->children);
	result_phase_add_metric(ph, "parent_throughput", "KB/s", t->parent);
	result_phase_add_metric(ph, "min_throughput", "KB/s", t->min);
	result_phase_add_metric(ph, "max_throughput", "KB/s", t->max);
	result_phase_add_metric(ph, "avg_throughput", "KB/s", t->avg);
	result_phase_add_metric(ph, "min_xfer", "KB", t->min_xfer);
}

/* Auto and single-stream mode: KB/s as iozone prints it (whole KB/s of
 * the bytes over the timed section). */
static double single_figure(struct result_phase *ph)
{
	double secs, bytes, kbs;

	thread_figures(ph, 0, &secs, &bytes);
	kbs = secs > 0 ? (double)((uint64_t)(bytes / secs) >> 10) : 0;
	result_phase_add_metric(ph, "throughput", "KB/s", kbs);
	result_phase_add_metric(ph, "xfer", "KB", bytes / KB);
	return kbs;
}

/* --- running --------------------------------------------------------------- */

/* After printing: when stdout is gone (a closed pipe), stop as after a
 * signal, so that the files are still removed. */
static void out_flush(void)
{
	if (fflush(stdout) == EOF && !runner_signalled())
		__atomic_store_n(&runner_stop_signal, SIGPIPE, __ATOMIC_RELAXED);
}

/* Run one test as a phase; returns the new result phase, or NULL when it
 * could not run or was cut short (interrupted, stopped on an error). */
static struct result_phase *run_test(struct ioz *z, enum ioz_test t, uint64_t s, uint64_t r,
				     int *err)
{
	struct wl_process *p = build_phase(z, t, s, r);
	char name[96];
	size_t before = z->res->nphases;
	int ret;

	if (z->nthreads)
		snprintf(name, sizeof(name), "%s", ioz_tests[t].tp_label);
	else
		snprintf(name, sizeof(name), "%s %lluk %lluk", ioz_tests[t].key,
			 (unsigned long long)(s / KB), (unsigned long long)(r / KB));
	ret = runner_phase(z->rn, name, &p, 1, PHASE_SECONDS);
	wl_process_free(p);
	if (ret < 0)
		*err = ret;
	if (z->res->nphases == before)
		return NULL;
	if (runner_signalled() || z->res->stopped_on_error)
		return NULL;
	return &z->res->phases[z->res->nphases - 1];
}

/* Before the run: the files (one per thread, the largest size; none on
 * a device or the null engine), the threads and their memory (measured
 * on each selected test's phase at the largest size and record). */
static int preflight(struct ioz *z, const struct rundir *rd)
{
	struct preflight_needs n = { .threads = z->nfs };
	uint64_t biggest = 0, rec = 0;
	double per = 0;

	for (size_t i = 0; i < z->sizes.n; i++)
		biggest = MAX(biggest, z->sizes.v[i]);
	for (size_t i = 0; i < z->recs.n; i++)
		rec = MAX(rec, z->recs.v[i]);
	rec = MIN(rec, biggest);
	if (!z->device && !(engine_spec_caps(z->ro.engine) & ENGINE_DISKLESS)) {
		n.bytes = (double)biggest * z->nfs;
		n.entries = z->nfs;
	}
	for (int t = 0; t < IOZ__COUNT && rec; t++) {
		if (!test_selected(z, t))
			continue;
		struct wl_process *p = build_phase(z, t, biggest, rec);

		for (size_t i = 0; i < p->nthreads; i++)
			per = MAX(per, runner_thread_memory(p->threads[i]));
		wl_process_free(p);
	}
	n.memory = per * z->nfs;
	snprintf(n.what, sizeof(n.what), "%u thread%s", z->nfs, z->nfs > 1 ? "s" : "");
	snprintf(n.memory_detail, sizeof(n.memory_detail),
		 "%.1f MiB each for records of %lluk", per / 1048576.0,
		 (unsigned long long)(rec / KB));
	snprintf(n.lower_space, sizeof(n.lower_space), "use a smaller -s or fewer threads");
	snprintf(n.lower_inodes, sizeof(n.lower_inodes), "use fewer threads");
	snprintf(n.lower_memory, sizeof(n.lower_memory), "use smaller records (-r) or fewer threads");
	return preflight_check(rd ? rd->fd : -1, rd ? rd->parent : NULL, &n);
}

static void print_header(struct ioz *z)
{
	struct timespec res;
	time_t now = time(NULL);
	char date[64];

	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", localtime(&now));
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("\tfsgauge iozone: iozone's file I/O tests on the fsgauge engine\n"
	       "\t\tfsgauge %s (%s), engine %s\n\n",
	       FSGAUGE_VERSION, FSGAUGE_GITREV, z->ro.engine);
	printf("\tRun began: %s\n\n", date);
	if (z->autom)
		printf("\tAuto Mode\n");
	if (z->osync)
		printf("\tSYNC Mode.\n");
	if (z->odsync)
		printf("\tO_DSYNC Mode.\n");
	if (z->inc_close)
		printf("\tInclude close in write timing\n");
	if (z->inc_flush)
		printf("\tInclude fsync in write timing\n");
	if (z->direct)
		printf("\tO_DIRECT feature enabled\n");
	if (z->no_retest)
		printf("\tNo retest option selected\n");
	if (z->keep)
		printf("\tSetting no_unlink\n");
	if (z->nthreads && z->no_stonewall)
		printf("\tStonewall disabled\n");
	for (size_t i = 0; i < z->r_opt.n; i++)
		printf("\tRecord Size %llu KB\n", (unsigned long long)(z->r_opt.v[i] / KB));
	for (size_t i = 0; i < z->s_opt.n; i++)
		printf("\tFile size set to %llu KB\n", (unsigned long long)(z->s_opt.v[i] / KB));
	if (z->autom && !z->s_opt.n)
		printf("\tUsing minimum file size of %llu kilobytes.\n"
		       "\tUsing maximum file size of %llu kilobytes.\n",
		       (unsigned long long)(z->sizes.v[0] / KB),
		       (unsigned long long)(z->sizes.v[z->sizes.n - 1] / KB));
	printf("\tCommand line used: %s\n", z->cmdline);
	printf("\tOutput is in Kbytes/sec\n");
	printf("\tTime Resolution = %.9f seconds.\n",
	       (double)res.tv_sec + (double)res.tv_nsec / 1e9);
	printf("\tFile stride size set to %llu * record size.\n", (unsigned long long)z->stride);
	if (z->nthreads) {
		printf("\tThroughput test with %u threads (iozone's default is processes; fsgauge "
		       "always uses threads)\n",
		       z->nthreads);
		printf("\tEach thread writes a %llu Kbyte file in %llu Kbyte records\n\n",
		       (unsigned long long)(z->sizes.v[0] / KB),
		       (unsigned long long)(z->recs.v[0] / KB));
	} else {
		putchar('\n');
	}
	out_flush();
}

static void record_params(struct ioz *z)
{
	struct kvlist *pl = &z->res->params;
	char buf[64], tests[64] = "";

	for (int i = 0; i <= 10; i++)
		if (z->tests & (1u << i))
			snprintf(tests + strlen(tests), sizeof(tests) - strlen(tests), "%s%d",
				 *tests ? "," : "", i);
	kv_add(pl, "options", "%s", z->options);
	kv_add(pl, z->device ? "device" : "dir", "%s", z->target);
	kv_add(pl, "mode", "%s", z->nthreads ? "throughput" : z->autom ? "auto" : "single");
	kv_add(pl, "threads", "%u", z->nfs);
	kv_add(pl, "tests", "%s", tests);
	kv_add(pl, "file_sizes", "%zu", z->sizes.n);
	kv_add(pl, "file_size", "%s", size_format(z->sizes.v[z->sizes.n - 1], buf, sizeof(buf)));
	kv_add(pl, "record_sizes", "%zu", z->recs.n);
	kv_add(pl, "record_size", "%s", size_format(z->recs.v[0], buf, sizeof(buf)));
	kv_add(pl, "o_sync", "%s", z->osync ? "true" : "false");
	kv_add(pl, "o_dsync", "%s", z->odsync ? "true" : "false");
	kv_add(pl, "o_direct", "%s", z->direct ? "true" : "false");
	kv_add(pl, "include_close", "%s", z->inc_close ? "true" : "false");
	kv_add(pl, "include_flush", "%s", z->inc_flush ? "true" : "false");
	kv_add(pl, "stonewalling", "%s", z->nthreads && !z->no_stonewall ? "true" : "false");
	kv_add(pl, "retests", "%s", z->no_retest ? "false" : "true");
	kv_add(pl, "stride", "%llu", (unsigned long long)z->stride);
	kv_add(pl, "keep", "%s", z->keep ? "true" : "false");
	kv_add(pl, "engine", "%s", z->ro.engine);
	kv_add(pl, "seed", "%llu", (unsigned long long)z->ro.seed);
	common_run_params(pl, &z->ro);
	/* --direct is -I here (not on the fwrite/fread streams) */
	kv_add(pl, "direct", "%s", z->direct ? "true" : "false");
	kv_add(pl, "target", "%s", z->device ? "block device" : "directory");
	if (z->device) {
		kv_add(pl, "device_access", "%s", z->policy.write ? "write" : "read");
		kv_add(pl, "allow_write_device", "%s", z->policy.allow_write ? "true" : "false");
		kv_add(pl, "force_destroy_data", "%s", z->policy.force_destroy ? "true" : "false");
	}
}

/* Throughput mode: one section per test. */
static int run_throughput(struct ioz *z, FILE *csv)
{
	enum ioz_test list[IOZ__COUNT];
	double children[IOZ__COUNT];
	size_t n = tp_tests(z, list), done = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		struct result_phase *ph = run_test(z, list[i], z->sizes.v[0], z->recs.v[0], &err);
		struct ioz_tp t;

		if (!ph)
			break;
		tp_figures(z, ph, &t);
		ioz_fmt_tp_section(stdout, ioz_tests[list[i]].tp_label, &t);
		out_flush();
		children[done++] = t.children;
	}
	if (z->csv_stdout && done) {
		printf("\n\"Excel output is below:\"\n\n");
		ioz_fmt_csv_tp(stdout, list, children, done, z->nfs, z->recs.v[0] / KB);
	}
	if (csv && done)
		ioz_fmt_csv_tp(csv, list, children, done, z->nfs, z->recs.v[0] / KB);
	return err;
}

/* Auto and single-stream mode: one row per file size and record size. */
static int run_table(struct ioz *z, FILE *csv)
{
	enum ioz_test cols[IOZ__COUNT];
	size_t nc = auto_columns(z, cols), nv;
	uint64_t *skb = xcalloc(z->sizes.n, sizeof(*skb));
	uint64_t *rkb = xcalloc(z->recs.n, sizeof(*rkb));
	double *values;
	int err = 0, stop = 0;

	nv = nc * z->sizes.n * z->recs.n;
	values = xmalloc((nv ? nv : 1) * sizeof(*values));
	for (size_t i = 0; i < nv; i++)
		values[i] = -1;
	for (size_t i = 0; i < z->sizes.n; i++)
		skb[i] = z->sizes.v[i] / KB;
	for (size_t i = 0; i < z->recs.n; i++)
		rkb[i] = z->recs.v[i] / KB;
	ioz_fmt_table_header(stdout, cols, nc);
	for (size_t si = 0; si < z->sizes.n && !stop; si++) {
		for (size_t ri = 0; ri < z->recs.n && !stop; ri++) {
			uint64_t s = z->sizes.v[si], r = z->recs.v[ri];

			if (!rec_applies(z, s, r))
				continue;
			ioz_fmt_table_row(stdout, skb[si], rkb[ri]);
			for (size_t c = 0; c < nc; c++) {
				struct result_phase *ph = run_test(z, cols[c], s, r, &err);

				if (!ph) {
					stop = 1;
					break;
				}
				values[(c * z->sizes.n + si) * z->recs.n + ri] = single_figure(ph);
				ioz_fmt_table_cell(stdout, values[(c * z->sizes.n + si) * z->recs.n + ri]);
				out_flush();
			}
			putchar('\n');
			out_flush();
		}
	}
	if (z->csv_stdout) {
		printf("\n\"Excel output is below:\"\n\n");
		ioz_fmt_csv_auto(stdout, cols, nc, skb, z->sizes.n, rkb, z->recs.n, values);
	}
	if (csv)
		ioz_fmt_csv_auto(csv, cols, nc, skb, z->sizes.n, rkb, z->recs.n, values);
	free(values);
	free(skb);
	free(rkb);
	return err;
}

/* Files are made by the first test unless it only reads (iozone needs -i
 * 0 first; fsgauge writes the files beforehand instead). */
static int needs_prealloc(const struct ioz *z)
{
	enum ioz_test list[IOZ__COUNT];
	size_t n = z->nthreads ? tp_tests(z, list) : auto_columns(z, list);

	return n && !ioz_tests[list[0]].creates;
}

/* Whether any selected test writes (a block device then needs
 * --allow-write-device). */
static int selection_writes(const struct ioz *z)
{
	enum ioz_test list[IOZ__COUNT];
	size_t n = z->nthreads ? tp_tests(z, list) : auto_columns(z, list);

	for (size_t i = 0; i < n; i++)
		if (ioz_tests[list[i]].writes || list[i] == IOZ_MIX)
			return 1;
	return 0;
}

/* Are the -f/-F targets block devices?  Returns 1 (all of them), 0 (none)
 * or -1 after a message (some are, or a device target with --dir). */
static int device_targets(const struct ioz *z)
{
	size_t n = z->nfiles ? z->nfiles : z->file ? 1 : 0, ndev = 0;

	for (size_t i = 0; i < n; i++)
		if (blockdev_is(z->nfiles ? z->files[i] : z->file) == 1)
			ndev++;
	if (!ndev)
		return 0;
	if (ndev != n) {
		msg_err("-F names block devices and files: give only devices or only files");
		return -1;
	}
	if (z->dir) {
		msg_err("--dir does not apply to a block device target ('%s'): nothing is created "
			"on it",
			z->nfiles ? z->files[0] : z->file);
		return -1;
	}
	return 1;
}

/* Open every device target through blockdev_open() (the one place that
 * decides whether a device may be read or written), and check that the
 * largest file size fits in each.  Returns 0, or an exit code after a
 * message. */
static int open_devices(struct ioz *z)
{
	uint64_t biggest = 0;
	int flags = (z->osync ? O_SYNC : 0) | (z->odsync ? O_DSYNC : 0) | (z->direct ? O_DIRECT : 0);

	for (size_t k = 0; k < z->sizes.n; k++)
		biggest = MAX(biggest, z->sizes.v[k]);
	z->policy.write = selection_writes(z);
	z->devfd = xmalloc(z->nfs * sizeof(*z->devfd));
	for (unsigned i = 0; i < z->nfs; i++)
		z->devfd[i] = -1;
	for (unsigned i = 0; i < z->nfs; i++) {
		const char *path = z->nfiles ? z->files[i] : z->file;
		struct stat a, b;
		uint64_t size;

		for (unsigned j = 0; j < i; j++)
			if (stat(path, &a) == 0 && stat(z->files[j], &b) == 0 &&
			    a.st_rdev == b.st_rdev) {
				msg_err("block device '%s' is given twice to -F (as '%s'): one thread "
					"per device",
					path, z->files[j]);
				return EXIT_USAGE;
			}
		z->devfd[i] = blockdev_open(path, &z->policy, flags);
		if (z->devfd[i] < 0)
			return z->devfd[i] == BLOCKDEV_REFUSED ? EXIT_USAGE : EXIT_SYSTEM;
		if (blockdev_size(z->devfd[i], &size) < 0) {
			err_errno(-errno, "cannot get the size of block device '%s'", path);
			return EXIT_SYSTEM;
		}
		if (biggest > size) {
			msg_err("file size %lluk does not fit on block device '%s' (%llu bytes); use "
				"a smaller -s",
				(unsigned long long)(biggest / KB), path, (unsigned long long)size);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static void close_devices(struct ioz *z)
{
	if (!z->devfd)
		return;
	for (unsigned i = 0; i < z->nfs; i++)
		if (z->devfd[i] >= 0)
			close(z->devfd[i]);
	free(z->devfd);
	z->devfd = NULL;
}

/* --- --repeat -------------------------------------------------------------- */

/* The figure iozone reports for a test. */
static const char *main_figure(const struct ioz *z)
{
	return z->nthreads ? "children_throughput" : "throughput";
}

static struct ioz_fig *fig_find(struct ioz *z, const char *phase, const char *metric)
{
	/* every run makes the same phases and metrics in the same order */
	for (size_t k = 0; k < z->nfigs; k++) {
		size_t i = (z->fig_hint + k) % z->nfigs;

		if (!strcmp(z->figs[i].phase, phase) && !strcmp(z->figs[i].metric, metric)) {
			z->fig_hint = i + 1;
			return &z->figs[i];
		}
	}
	return NULL;
}

/* Keep run `run`'s figures (the phases' metrics of `one`). */
static void figs_collect(struct ioz *z, const struct result *one, unsigned run, unsigned nruns)
{
	for (size_t i = 0; i < one->nphases; i++) {
		const struct result_phase *p = &one->phases[i];

		for (size_t j = 0; j < p->nmetrics; j++) {
			const struct result_metric *m = &p->metrics[j];
			struct ioz_fig *f = fig_find(z, p->name, m->name);

			if (!f) {
				z->figs = xrealloc(z->figs, (z->nfigs + 1) * sizeof(*z->figs));
				f = &z->figs[z->nfigs++];
				f->phase = xstrdup(p->name);
				f->metric = xstrdup(m->name);
				f->unit = xstrdup(m->unit);
				summary_init(&f->s);
				f->v = xmalloc(nruns * sizeof(*f->v));
				for (unsigned r = 0; r < nruns; r++)
					f->v[r] = NAN;
				z->fig_hint = z->nfigs;
			}
			f->v[run] = m->value;
			summary_add(&f->s, m->value);
		}
	}
}

static struct result_phase *acc_phase(struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

/* Into the merged result: each figure's mean over the runs, and for
 * iozone's own figure its sd, cv, 95% confidence interval and every
 * run's value. */
static void figs_store(struct ioz *z, unsigned nruns)
{
	const char *mainf = main_figure(z);

	for (size_t i = 0; i < z->nfigs; i++) {
		struct ioz_fig *f = &z->figs[i];
		struct result_phase *p = acc_phase(z->acc, f->phase);
		char name[160];
		double half = summary_ci_half(&f->s, 0.95);

		if (!p)
			continue;
		result_phase_add_metric(p, f->metric, f->unit, f->s.mean);
		if (strcmp(f->metric, mainf))
			continue;
		snprintf(name, sizeof(name), "%s.sd", f->metric);
		result_phase_add_metric(p, name, f->unit, summary_sd(&f->s));
		snprintf(name, sizeof(name), "%s.cv", f->metric);
		result_phase_add_metric(p, name, "ratio", summary_cv(&f->s));
		if (!isnan(half)) {
			snprintf(name, sizeof(name), "%s.ci95_low", f->metric);
			/* a throughput: never negative */
			result_phase_add_metric(p, name, f->unit, MAX(f->s.mean - half, 0));
			snprintf(name, sizeof(name), "%s.ci95_high", f->metric);
			result_phase_add_metric(p, name, f->unit, f->s.mean + half);
		}
		snprintf(name, sizeof(name), "%s.runs", f->metric);
		result_phase_add_metric(p, name, "count", (double)f->s.n);
		for (unsigned r = 0; r < nruns; r++) {
			if (isnan(f->v[r]))
				continue;
			snprintf(name, sizeof(name), "%s.run%u", f->metric, r + 1);
			result_phase_add_metric(p, name, f->unit, f->v[r]);
		}
	}
}

static void figs_print(struct ioz *z, unsigned nruns)
{
	const char *mainf = main_figure(z);

	fprintf(stdout,
		"\n\tfsgauge: iozone's figure (KB/sec) over %u runs: mean, 95%% confidence "
		"interval (Student t, %u df), sd, cv, and each run\n",
		nruns, nruns - 1);
	/* "±" is two bytes in UTF-8: one more for the same width */
	fprintf(stdout, "\t%-26s %12s %13s %12s %6s  %s\n", "test", "mean", "± ci95", "sd", "cv",
		"runs");
	for (size_t i = 0; i < z->nfigs; i++) {
		const struct ioz_fig *f = &z->figs[i];
		double half = summary_ci_half(&f->s, 0.95);

		if (strcmp(f->metric, mainf))
			continue;
		fprintf(stdout, "\t%-26s %12.2f ", f->phase, f->s.mean);
		if (isnan(half))
			fprintf(stdout, "%12s", "-");
		else
			fprintf(stdout, "%12.2f", half);
		fprintf(stdout, " %12.2f %5.1f%% ", summary_sd(&f->s), summary_cv(&f->s) * 100.0);
		for (unsigned r = 0; r < nruns; r++)
			if (!isnan(f->v[r]))
				fprintf(stdout, " %.2f", f->v[r]);
		fputc('\n', stdout);
	}
}

static void figs_free(struct ioz *z)
{
	for (size_t i = 0; i < z->nfigs; i++) {
		free(z->figs[i].phase);
		free(z->figs[i].metric);
		free(z->figs[i].unit);
		free(z->figs[i].v);
	}
	free(z->figs);
}

/* Run the tests o->repeat times (once without --repeat): each run on fresh
 * files (the run directory emptied in between) unless --reuse; each run
 * prints its report; the runs are folded into z->acc.  Returns 0 or the
 * first -errno. */
static int run_all(struct ioz *z, struct rundir *rd, FILE *csv)
{
	unsigned nruns = z->ro.repeat > 1 ? z->ro.repeat : 1;
	int rr = 0;

	for (unsigned k = 0; k < nruns && !runner_signalled(); k++) {
		struct result *one = nruns > 1 ? result_new("iozone", "iozone") : z->acc;

		if (nruns > 1) {
			if (!z->quiet)
				fprintf(stderr, "Repeat %u of %u%s\n", k + 1, nruns,
					z->ro.reuse && k ? " (reusing the files)" : "");
			printf("%s\tRun %u of %u\n\n", k ? "\n" : "", k + 1, nruns);
		}
		z->res = one;
		if (z->rn) {
			runner_set_result(z->rn, one);
		} else {
			if (k > 0 && rd) {
				rr = rundir_empty(rd->fd);
				if (rr < 0) {
					err_errno(rr, "cannot empty run directory '%s' between repeats",
						  rd->path);
					if (one != z->acc)
						result_free(one);
					z->res = z->acc;
					break;
				}
			}
			z->rn = runner_new(z->w, rd, &z->ro, one);
			rr = runner_create_filesets(z->rn);
		}
		if (rr == 0)
			rr = z->nthreads ? run_throughput(z, csv) : run_table(z, csv);
		if (!z->ro.reuse) {
			runner_free(z->rn);
			z->rn = NULL;
		}
		if (one != z->acc) {
			figs_collect(z, one, k, nruns);
			result_merge_repeat(z->acc, one);
			result_free(one);
		}
		z->res = z->acc;
		if (z->rn)
			runner_set_result(z->rn, z->acc);
		if (rr < 0 || z->acc->interrupted || z->acc->stopped_on_error)
			break;
	}
	if (nruns > 1) {
		figs_store(z, nruns);
		if (z->nfigs)
			figs_print(z, nruns);
	}
	return rr == -EINTR ? 0 : rr;
}

static void free_ioz(struct ioz *z)
{
	free(z->s_opt.v);
	free(z->r_opt.v);
	free(z->sizes.v);
	free(z->recs.v);
	free(z->files);
	free(z->fsets);
	free(z->cmdline);
	free(z->options);
	runner_free(z->rn);
	result_free(z->acc);
	workload_free(z->w);
	figs_free(z);
	close_devices(z);
}

int cmd_iozone(int argc, char **argv)
{
	struct ioz z = { 0 };
	struct rundir rd = { .fd = -1, .parent_fd = -1 };
	struct outfile csv = { 0 };
	char *dir = NULL;
	int ret = EXIT_OK, rr;

	z.ro = (struct run_opts){ .engine = "psync", .seed = 1, .on_error = ON_ERROR_STOP,
				  .quiet = 1, .duration = PHASE_SECONDS };
	z.stride = DEFAULT_STRIDE;
	rr = parse_opts(&z, argc, argv);
	if (rr) {
		ret = rr > 0 ? EXIT_OK : usage_error();
		goto out;
	}
	if (check_opts(&z) < 0 || plan_sizes(&z) < 0) {
		ret = usage_error();
		goto out;
	}
	if (!z.tests)
		z.tests = z.nthreads ? TP_DEFAULT_TESTS : AUTO_DEFAULT_TESTS;
	z.nfs = z.nthreads ? z.nthreads : 1;
	/* the runner's progress line needs it not quiet (its setup chatter
	 * on stderr comes with it) */
	if (z.progress_given && !z.quiet && z.ro.progress != PROGRESS_NEVER)
		z.ro.quiet = 0;
	z.device = device_targets(&z);
	if (z.device < 0) {
		ret = usage_error();
		goto out;
	}
	if (z.device && z.ro.verify && needs_prealloc(&z)) {
		msg_err("--verify on a block device needs a write test first: the first test "
			"would read what the device holds, which fsgauge did not write");
		ret = usage_error();
		goto out;
	}
	if (common_run_check(&z.ro) < 0 ||
	    (z.json && outfile_check(z.json, "JSON result") < 0) ||
	    (z.csv_file && outfile_check(z.csv_file, "spreadsheet") < 0)) {
		ret = usage_error();
		goto out;
	}
	if (z.json && !strcmp(z.json, "-") && outfile_claim_stdout() < 0) {
		ret = EXIT_SYSTEM;
		goto out;
	}
	z.cmdline = join_args(argc, argv);
	z.options = workload_options(argc, argv);
	if (z.device) {
		dir = xstrdup(z.nfiles ? z.files[0] : z.file);
	} else {
		dir = target_dir(&z);
		if (!dir) {
			ret = usage_error();
			goto out;
		}
		/* recorded and shown as an absolute path (iozone's default is ".") */
		char *abs = realpath(dir, NULL);

		if (abs) {
			free(dir);
			dir = abs;
		}
	}
	z.target = dir;
	if (z.device) {
		ret = open_devices(&z);
		if (ret != EXIT_OK)
			goto out;
	}
	if (z.csv_file && outfile_open(&csv, z.csv_file, "spreadsheet") < 0) {
		ret = EXIT_USAGE;
		goto out;
	}

	runner_install_signals(); /* a closed stdout is then seen by out_flush() */
	if (!z.device) {
		int rc = rundir_create(&rd, dir,
				       z.ro.allow_shared_target ? RUNDIR_ALLOW_SHARED : 0);

		if (rc < 0) {
			ret = rundir_create_status(rc);
			goto out;
		}
		if (!z.quiet)
			fprintf(stderr, "run directory: %s\n", rd.path);
	} else if (!z.quiet) {
		fprintf(stderr, "block device%s: %s%s (%s; nothing is created or removed)\n",
			z.nfs > 1 ? "s" : "", dir, z.nfs > 1 ? " ..." : "",
			z.policy.write ? "written" : "read only");
	}

	/* one file per thread; sized for the largest test (preallocation) */
	z.w = wl_new("iozone");
	if (!z.device)
		workload_set_var(z.w, "dir", rd.path);
	z.fsets = xcalloc(z.nfs, sizeof(*z.fsets));
	for (unsigned i = 0; i < z.nfs; i++) {
		char name[64];
		const char *fname = name;
		uint64_t biggest = 0;

		for (size_t k = 0; k < z.sizes.n; k++)
			biggest = MAX(biggest, z.sizes.v[k]);
		if (z.nfiles)
			fname = base_name(z.files[i]);
		else if (z.file)
			fname = base_name(z.file);
		else if (z.nthreads)
			snprintf(name, sizeof(name), "iozone.DUMMY.%u", i);
		else
			snprintf(name, sizeof(name), "iozone.tmp");
		z.fsets[i] = wl_add_file(z.w, fname, (int64_t)biggest);
		if (z.device) {
			/* a device's content is read as it is: never preallocated */
			z.fsets[i]->has_device = 1;
			z.fsets[i]->device_fd = z.devfd[i];
			z.fsets[i]->device_flags = (z.policy.write ? O_RDWR : O_RDONLY) |
						   (z.osync ? O_SYNC : 0) | (z.odsync ? O_DSYNC : 0) |
						   (z.direct ? O_DIRECT : 0);
			z.fsets[i]->device_path = xstrdup(z.nfiles ? z.files[i] : z.file);
		} else if (needs_prealloc(&z)) {
			z.fsets[i]->prealloc = wl_int(100);
		}
	}

	if (preflight(&z, z.device ? NULL : &rd) < 0) {
		if (!z.device)
			rundir_remove(&rd);
		ret = EXIT_USAGE;
		goto out;
	}
	z.acc = result_new("iozone", "iozone");
	z.res = z.acc;
	z.acc->label = z.label ? xstrdup(z.label) : NULL;
	z.acc->engine = xstrdup(z.ro.engine);
	z.acc->seed = z.ro.seed;
	record_params(&z);
	if (z.device) {
		env_capture(&z.acc->env, NULL);
		kv_add(&z.acc->env, "target", "%s", dir);
	} else {
		env_capture(&z.acc->env, rd.parent);
	}

	print_header(&z);
	rr = run_all(&z, z.device ? NULL : &rd, csv.f);
	if (runner_signalled())
		z.acc->interrupted = 1; /* also when it came before a test began */
	if (z.acc->nphases)
		ioz_fmt_summary(stdout, z.acc);
	if (z.acc->interrupted)
		printf("\nNOTE: interrupted by a signal: these are partial results\n");
	if (z.acc->errors || z.acc->stopped_on_error)
		printf("\nNOTE: %llu operation errors; first: %s\n",
		       (unsigned long long)z.acc->errors,
		       z.acc->first_error ? z.acc->first_error : "?");
	if (!z.acc->interrupted && !z.acc->stopped_on_error && rr == 0)
		printf("\n\niozone test complete.\n");
	fflush(stdout);
	if (runner_signalled() || z.acc->interrupted)
		ret = EXIT_INTERRUPTED;
	else if (z.acc->errors || z.acc->stopped_on_error)
		ret = EXIT_RUN_ERRORS;
	else if (rr < 0)
		ret = rr == -ENOSPC || rr == -EINVAL || rr == -EPERM ? EXIT_USAGE : EXIT_SYSTEM;
	runner_free(z.rn);
	z.rn = NULL;
	/* the run directory goes first: on a full file system its space is
	 * what lets the results be written */
	/* (a device has nothing to remove: it is left as the tests left it) */
	if (!z.device && rundir_finish(&rd, z.keep, !z.quiet) < 0 && !ret)
		ret = EXIT_SYSTEM;
	if (csv.f && outfile_close(&csv, "spreadsheet") < 0 && !ret)
		ret = EXIT_SYSTEM;
	if (z.json && output_json_file(z.acc, z.json) < 0 && !ret)
		ret = EXIT_SYSTEM;
out:
	if (csv.f)
		outfile_discard(&csv);
	if (rd.fd >= 0)
		rundir_release(&rd);
	free(dir);
	free_ioz(&z);
	return ret;
}
