/*
 * iozone.c — the `iozone` suite: iozone's tests with iozone's options and
 * report, run on the fsgauge engine by suite_main() (suite/suite.h).
 *
 * Every test is a phase of threads (runner_phase), one thread per file
 * (tests.c).  Modes: throughput (-t N: the sections of iozone's
 * throughput test), auto (-a: a table of KB/s per file size and record
 * size) and single stream (neither: the same table for the -s/-r given).
 * The report's layout is in format.c; docs/iozone.md lists the options
 * and what differs from iozone.
 *
 * This file is the suite: its options table (iozone's own letters; the
 * shared -q/--quiet keeps only --quiet, -q being iozone's largest record),
 * the checks, the plan (the sizes, the files, what the run needs), block
 * devices and the hooks.  --repeat is the driver's loop; each run prints
 * its report, and the repeat figures (every run's value of each metric,
 * their mean, sd, cv and confidence interval) come from the result
 * (result_merge_repeat(), result_metric_stat()).  -f/-F may name block
 * devices: each is opened once by blockdev_open() (util/blockdev.h
 * decides what is allowed) and given to the runner as a `define file`
 * with has_device; there is no run directory then.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "output/result_read.h"
#include "runner/runner.h"
#include "suite/iozone/internal.h"
#include "suite/shared.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"

#define AUTO_MIN_SIZE (64 * KB) /* auto mode's defaults */
#define AUTO_MAX_SIZE (512ull << 20)
#define AUTO_MIN_REC (4 * KB)
#define AUTO_MAX_REC MAX_RECORD
#define DEFAULT_SIZE (512 * KB)
#define DEFAULT_REC (4 * KB)
#define DEFAULT_STRIDE 17

/* -i numbers run when none is given. */
#define TP_DEFAULT_TESTS 0x72f	/* 0 1 2 3 5 8 9 10: seed 003's sections */
#define AUTO_DEFAULT_TESTS 0xff /* 0 to 7 */

/* --progress not given (the runner's progress line only when asked) */
#define PROGRESS_UNSET ((enum progress_mode)-1)

enum {
	IOZ_DIR = OPT_OWN,
	IOZ_ALLOW_WRITE_DEVICE,
	IOZ_FORCE_DESTROY_DATA,
};

static const struct suite_opt iozone_opts[] = {
	{ NULL, 'a', 'a', OPTARG_NONE, NULL, "auto mode: file sizes -n..-g, record sizes -y..-q" },
	{ NULL, 'n', 'n', OPTARG_REQUIRED, "SIZE", "auto mode's smallest file (64k)" },
	{ NULL, 'g', 'g', OPTARG_REQUIRED, "SIZE", "auto mode's largest file (512m)" },
	{ NULL, 'y', 'y', OPTARG_REQUIRED, "SIZE", "auto mode's smallest record (4k)" },
	{ NULL, 'q', 'q', OPTARG_REQUIRED, "SIZE", "auto mode's largest record (16m)" },
	{ NULL, 'z', 'z', OPTARG_NONE, NULL, "auto mode: small records with large files too" },
	{ NULL, 's', 's', OPTARG_REQUIRED, "SIZE", "file size (512k); repeatable with -a" },
	{ NULL, 'r', 'r', OPTARG_REQUIRED, "SIZE", "record size (4k); repeatable with -a" },
	{ NULL, 't', 't', OPTARG_REQUIRED, "N", "throughput test with N threads (1 to 256)" },
	{ NULL, 'F', 'F', OPTARG_REQUIRED, "F1 F2 ...", "the threads' file names (in one directory)" },
	{ NULL, 'f', 'f', OPTARG_REQUIRED, "FILE", "the file of auto and single-stream mode" },
	{ NULL, 'i', 'i', OPTARG_REQUIRED, "N",
	  "test to run, repeatable: 0 write/rewrite,\n1 read/reread, 2 random read/write, 3 backward "
	  "read,\n4 record rewrite, 5 stride read, 6 fwrite/refwrite,\n7 fread/refread, 8 random mix, "
	  "9 pwrite/repwrite,\n10 pread/repread" },
	{ NULL, 'o', 'o', OPTARG_NONE, NULL, "O_SYNC opens" },
	{ NULL, '+', '+', OPTARG_REQUIRED, "n|D",
	  "-+D: O_DSYNC opens; -+n: no retests (rewrite,\nreread, ...)" },
	{ NULL, 'I', 'I', OPTARG_NONE, NULL, "O_DIRECT opens" },
	{ NULL, 'c', 'c', OPTARG_NONE, NULL, "include close in the timing" },
	{ NULL, 'e', 'e', OPTARG_NONE, NULL, "include fsync (and fflush) in the timing of writes" },
	{ NULL, 'j', 'j', OPTARG_REQUIRED, "N", "stride of the stride read, in records (17)" },
	{ NULL, 'w', 'w', OPTARG_NONE, NULL, "keep the files (the run directory), as --keep" },
	{ NULL, 'x', 'x', OPTARG_NONE, NULL, "no stonewalling: every thread does all its records" },
	{ NULL, 'R', 'R', OPTARG_NONE, NULL, "spreadsheet report (CSV) on stdout" },
	{ NULL, 'b', 'b', OPTARG_REQUIRED, "FILE", "spreadsheet report (CSV) into FILE" },
	{ NULL, 'T', 'T', OPTARG_NONE, NULL, "accepted: fsgauge always uses threads" },
	{ "dir", 0, IOZ_DIR, OPTARG_REQUIRED, "DIR",
	  "target directory (default: the directory of each\n-F/-f file, else the current directory, "
	  "as\niozone); one --dir: for several, name the files in\nseveral directories with -F "
	  "(docs/targets.md)" },
	{ "allow-write-device", 0, IOZ_ALLOW_WRITE_DEVICE, OPTARG_NONE, NULL,
	  "let write tests write to -f/-F block devices" },
	{ "force-destroy-data", 0, IOZ_FORCE_DESTROY_DATA, OPTARG_NONE, NULL,
	  "... even when mounted, in use or holding a file\nsystem or partition table" },
	{ 0 },
};

#define NOT_TIMED_MSG                                                                             \
	"--warmup and --steady-state do not apply to iozone: each test is a fixed amount of I/O " \
	"(-s / -r records per thread), timed from its first record to its last"

static const struct suite_refusal iozone_refused[] = {
	{ SH_WARMUP, NOT_TIMED_MSG },
	{ SH_STEADY, NOT_TIMED_MSG },
	{ 0, NULL },
};

/* iozone's figures (tests.c), and per thread tN.throughput (KB/s) and
 * tN.xfer (KB) in throughput mode. */
static const struct metric_def iozone_metrics[] = {
	{ "children_throughput", "KB/s", "children see throughput", BETTER_HIGHER },
	{ "parent_throughput", "KB/s", "parent sees throughput", BETTER_HIGHER },
	{ "min_throughput", "KB/s", "min throughput per thread", BETTER_HIGHER },
	{ "max_throughput", "KB/s", "max throughput per thread", BETTER_HIGHER },
	{ "avg_throughput", "KB/s", "avg throughput per thread", BETTER_HIGHER },
	{ "min_xfer", "KB", "min xfer (least moved by a thread)", BETTER_NONE },
	{ "idle_threads", "threads", "threads that moved no data (not in min or min xfer)",
	  BETTER_NONE },
	{ "throughput", "KB/s", "throughput", BETTER_HIGHER },
	{ "xfer", "KB", "bytes moved, in KB", BETTER_NONE },
	{ NULL, NULL, NULL, BETTER_NONE },
};

static struct ioz *ctx(struct suite_session *s)
{
	return s->ctx;
}

void sizes_add(struct sizes *s, uint64_t v)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = v;
}

/* iozone's sizes: KB unless suffixed. */
static int parse_kb(const char *opt, const char *arg, uint64_t *out)
{
	if (size_parse_unit(arg, KB, out) < 0 || !*out) {
		msg_err("invalid %s '%s' (expected a number of KB, or a size with k, m or g)", opt, arg);
		return -1;
	}
	return 0;
}

const char *base_name(const char *p)
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
static char *workload_options(int argc, char *const *argv)
{
	static const char *const skip_arg[] = { "--json", "--label", "--dir", "--seed", "-b" };
	static const char *const skip[] = { "--quiet", "-w", "--keep", "-R",
					    "--allow-write-device", "--force-destroy-data",
					    "--allow-shared-target" };
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
		msg_err("invalid %s '%s' (expected a file name, not '.', '..' or .fsgauge*)", opt, full);
		return -1;
	}
	return 0;
}

/* The directory of each -F/-f name becomes a target (z->tdirs, the
 * file's in z->ftarget): one when they share it, several when they sit
 * in different directories (docs/targets.md).  0, or -1 after a
 * message. */
static int file_dirs(struct ioz *z)
{
	size_t n = z->nfiles ? z->nfiles : 1;
	const char *opt = z->nfiles ? "-F" : "-f";

	z->ftarget = xcalloc(n, sizeof(*z->ftarget));
	for (size_t i = 0; i < n; i++) {
		const char *full = z->nfiles ? z->files[i] : z->file;
		char *di = dir_name(full);
		size_t k = 0;

		if (check_name(opt, full, base_name(full)) < 0) {
			free(di);
			return -1;
		}
		if (z->dir && strchr(full, '/')) {
			msg_err("file '%s' of %s has a directory and --dir is given: give "
				"one or the other",
				full, opt);
			free(di);
			return -1;
		}
		while (k < z->ntdirs && strcmp(z->tdirs[k], di))
			k++;
		if (k == z->ntdirs) {
			z->tdirs = xrealloc(z->tdirs, (z->ntdirs + 1) * sizeof(*z->tdirs));
			z->tdirs[z->ntdirs++] = di;
		} else {
			free(di);
		}
		z->ftarget[i] = k;
	}
	return 0;
}

/* Where the files go: --dir, else the directories of the -F/-f names,
 * else ".": z->tdirs, absolute where they resolve.  Two names in one
 * directory are refused.  0, or -1 after a message. */
static int target_dirs(struct ioz *z)
{
	if ((z->nfiles || z->file) && file_dirs(z) < 0)
		return -1;
	if (z->dir || !z->ntdirs) {
		for (size_t k = 0; k < z->ntdirs; k++)
			free(z->tdirs[k]);
		z->tdirs = xrealloc(z->tdirs, sizeof(*z->tdirs));
		z->tdirs[0] = xstrdup(z->dir ? z->dir : ".");
		z->ntdirs = 1;
		if (z->ftarget)
			memset(z->ftarget, 0, (z->nfiles ? z->nfiles : 1) * sizeof(*z->ftarget));
	}
	for (size_t k = 0; k < z->ntdirs; k++) {
		char *abs = realpath(z->tdirs[k], NULL);

		if (abs) {
			free(z->tdirs[k]);
			z->tdirs[k] = abs;
		}
	}
	/* two spellings of one directory ("a/f1 ./a/f2") are one target */
	for (size_t k = 1; k < z->ntdirs; k++)
		for (size_t j = 0; j < k; j++)
			if (!strcmp(z->tdirs[k], z->tdirs[j])) {
				for (size_t i = 0; i < z->nfiles; i++)
					z->ftarget[i] = z->ftarget[i] == k ? j
						      : z->ftarget[i] > k ? z->ftarget[i] - 1
									  : z->ftarget[i];
				free(z->tdirs[k]);
				memmove(z->tdirs + k, z->tdirs + k + 1,
					(z->ntdirs - k - 1) * sizeof(*z->tdirs));
				z->ntdirs--;
				k--;
				break;
			}
	for (size_t i = 0; i < z->nfiles; i++)
		for (size_t j = 0; j < i; j++)
			if (z->ftarget[i] == z->ftarget[j] &&
			    !strcmp(base_name(z->files[i]), base_name(z->files[j]))) {
				msg_err("file name '%s' is given twice to -F in '%s'",
					base_name(z->files[i]), z->tdirs[z->ftarget[i]]);
				return -1;
			}
	return 0;
}

static int check_opts(struct ioz *z)
{
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


/* What the run needs: the files (one per thread, the largest size; none on
 * a device or the null engine), the threads and their memory (measured
 * on each selected test's phase at the largest size and record). */
static void plan_needs(struct ioz *z, struct preflight_needs *n)
{
	uint64_t biggest = 0, rec = 0;
	double per = 0;

	n->threads = z->nfs;
	for (size_t i = 0; i < z->sizes.n; i++)
		biggest = MAX(biggest, z->sizes.v[i]);
	for (size_t i = 0; i < z->recs.n; i++)
		rec = MAX(rec, z->recs.v[i]);
	rec = MIN(rec, biggest);
	if (!z->device && !(engine_spec_caps(z->s->ro.engine) & ENGINE_DISKLESS)) {
		n->bytes = (double)biggest * z->nfs;
		n->entries = z->nfs;
		/* several targets: each holds its own files */
		for (unsigned i = 0; z->s->nrd > 1 && i < z->nfs; i++) {
			z->s->tneeds[z->ftarget[i]].bytes += (double)biggest;
			z->s->tneeds[z->ftarget[i]].entries += 1;
		}
	}
	for (int t = 0; t < IOZ__COUNT && rec; t++) {
		if (!test_selected(z, t))
			continue;
		struct wl_process *p = build_phase(z, t, biggest, rec);

		for (size_t i = 0; i < p->nthreads; i++)
			per = MAX(per, runner_thread_memory_on(p->threads[i], z->s->ro.engine));
		wl_process_free(p);
	}
	n->memory = per * z->nfs;
	snprintf(n->what, sizeof(n->what), "%u thread%s", z->nfs, z->nfs > 1 ? "s" : "");
	snprintf(n->memory_detail, sizeof(n->memory_detail),
		 "%.1f MiB each for records of %lluk", per / 1048576.0,
		 (unsigned long long)(rec / KB));
	snprintf(n->lower_space, sizeof(n->lower_space), "use a smaller -s or fewer threads");
	snprintf(n->lower_inodes, sizeof(n->lower_inodes), "use fewer threads");
	snprintf(n->lower_memory, sizeof(n->lower_memory), "use smaller records (-r) or fewer threads");
}

static void record_params(struct ioz *z, struct result *res)
{
	struct kvlist *pl = &res->params;
	char buf[64], tests[64] = "";

	for (int i = 0; i <= 10; i++)
		if (z->tests & (1u << i))
			snprintf(tests + strlen(tests), sizeof(tests) - strlen(tests), "%s%d",
				 *tests ? "," : "", i);
	kv_add(pl, "options", "%s", z->options);
	kv_add(pl, z->device ? "device" : "dir", "%s", z->target);
	for (size_t k = 1; !z->device && k < z->ntdirs; k++) {
		char key[32];

		snprintf(key, sizeof(key), "dir%zu", k + 1);
		kv_add(pl, key, "%s", z->tdirs[k]);
	}
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
	kv_add(pl, "keep", "%s", z->s->keep ? "true" : "false");
	kv_add(pl, "engine", "%s", z->s->ro.engine);
	kv_add(pl, "seed", "%llu", (unsigned long long)z->s->ro.seed);
	/* --direct is -I here (not on the fwrite/fread streams) */
	kv_add(pl, "direct", "%s", z->direct ? "true" : "false");
	kv_add(pl, "target", "%s", z->device ? "block device" : "directory");
	if (z->device) {
		kv_add(pl, "device_access", "%s", z->policy.write ? "write" : "read");
		kv_add(pl, "allow_write_device", "%s", z->policy.allow_write ? "true" : "false");
		kv_add(pl, "force_destroy_data", "%s", z->policy.force_destroy ? "true" : "false");
	}
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

/* -F F1 F2 ...: the names following the option up to the next option. */
static void take_files(struct ioz *z, const char *first, int argc, char **argv)
{
	z->files = xrealloc(z->files, (z->nfiles + 1) * sizeof(*z->files));
	z->files[z->nfiles++] = (char *)first;
	while (optind < argc && argv[optind][0] != '-') {
		z->files = xrealloc(z->files, (z->nfiles + 1) * sizeof(*z->files));
		z->files[z->nfiles++] = argv[optind++];
	}
}

/* An option with a number: -i, -j, -t; EXIT_OK or EXIT_USAGE. */
static int number_option(struct ioz *z, int key, const char *arg)
{
	uint64_t v;

	switch (key) {
	case 'i':
		if (num_parse_u64(arg, &v) < 0 || v > 10) {
			msg_err("invalid -i '%s' (expected a test from 0 to 10; see --help)", arg);
			return EXIT_USAGE;
		}
		z->tests |= 1u << v;
		return EXIT_OK;
	case 'j':
		if (num_parse_u64(arg, &v) < 0 || v < 1 || v > (1u << 20)) {
			msg_err("invalid -j '%s' (expected a stride in records, at least 1)", arg);
			return EXIT_USAGE;
		}
		z->stride = v;
		return EXIT_OK;
	default:
		if (num_parse_u64(arg, &v) < 0 || v < 1 || v > MAX_THREADS) {
			msg_err("invalid -t '%s' (expected a number of threads from 1 to %d)", arg, MAX_THREADS);
			return EXIT_USAGE;
		}
		z->nthreads = (unsigned)v;
		return EXIT_OK;
	}
}

/* A size option: -g -n -q -y (auto mode's bounds), -r -s (repeatable). */
static int size_option(struct ioz *z, int key, const char *arg)
{
	char opt[3] = { '-', (char)key, 0 };
	uint64_t v;

	if (parse_kb(opt, arg, &v) < 0)
		return EXIT_USAGE;
	switch (key) {
	case 'g':
		z->max_size = v;
		break;
	case 'n':
		z->min_size = v;
		break;
	case 'q':
		z->max_rec = v;
		break;
	case 'y':
		z->min_rec = v;
		break;
	case 'r':
		sizes_add(&z->r_opt, v);
		break;
	default:
		sizes_add(&z->s_opt, v);
		break;
	}
	return EXIT_OK;
}

/* The options that are flags. */
static int *flag_of(struct suite_session *s, struct ioz *z, int key)
{
	switch (key) {
	case 'a':
		return &z->autom;
	case 'c':
		return &z->inc_close;
	case 'e':
		return &z->inc_flush;
	case 'I':
		return &z->direct;
	case 'o':
		return &z->osync;
	case 'R':
		return &z->csv_stdout;
	case 'w':
		return &s->keep;
	case 'x':
		return &z->no_stonewall;
	case 'z':
		return &z->all_recs;
	case IOZ_ALLOW_WRITE_DEVICE:
		return &z->policy.allow_write;
	case IOZ_FORCE_DESTROY_DATA:
		return &z->policy.force_destroy;
	default:
		return NULL;
	}
}

static int iozone_option(struct suite_session *s, int key, const char *arg, int argc, char **argv)
{
	struct ioz *z = ctx(s);
	int *flag = flag_of(s, z, key);

	if (flag) {
		*flag = 1;
		return EXIT_OK;
	}
	switch (key) {
	case 'b':
		z->csv_file = arg;
		return EXIT_OK;
	case 'F':
		take_files(z, arg, argc, argv);
		return EXIT_OK;
	case 'f':
		z->file = arg;
		return EXIT_OK;
	case IOZ_DIR:
		suite_add_target(s, "--dir", arg);
		z->dir = s->dir;
		return EXIT_OK;
	case 'T':
		return EXIT_OK;
	case 'i':
	case 'j':
	case 't':
		return number_option(z, key, arg);
	case '+':
		if (!strcmp(arg, "n"))
			z->no_retest = 1;
		else if (!strcmp(arg, "D"))
			z->odsync = 1;
		else {
			msg_err("unknown or unsupported option '-+%s'", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	default:
		return size_option(z, key, arg);
	}
}

static void iozone_init(struct suite_session *s)
{
	struct ioz *z = ctx(s);

	z->s = s;
	z->stride = DEFAULT_STRIDE;
	/* the runner's setup chatter and progress line only with --progress */
	s->ro.quiet = 1;
	s->ro.progress = PROGRESS_UNSET;
	s->ro.duration = PHASE_SECONDS;
}

/* The shared options iozone's way: --direct is -I (not on the fwrite and
 * fread streams), the progress line only when asked for. */
static void shared_as_iozone(struct suite_session *s, struct ioz *z)
{
	if (s->ro.direct) {
		z->direct = 1;
		s->ro.direct = 0;
	}
	if (s->ro.progress == PROGRESS_UNSET)
		s->ro.progress = PROGRESS_AUTO;
	else if (s->chatter && s->ro.progress != PROGRESS_NEVER)
		s->ro.quiet = 0; /* the runner's progress line needs it (and its chatter) */
}

/* Where the files go: the run directory's parent (shown and recorded as
 * an absolute path: iozone's default is "."), or the devices. */
static int place(struct suite_session *s, struct ioz *z)
{
	z->device = device_targets(z);
	if (z->device < 0)
		return EXIT_USAGE;
	if (z->device && s->ro.verify && needs_prealloc(z)) {
		msg_err("--verify on a block device needs a write test first: the first test "
			"would read what the device holds, which fsgauge did not write");
		return EXIT_USAGE;
	}
	if (z->device) {
		z->target = xstrdup(z->nfiles ? z->files[0] : z->file);
		s->no_rundir = 1;
		return EXIT_OK;
	}
	if (target_dirs(z) < 0)
		return EXIT_USAGE;
	/* the targets are the files' directories, in the order named */
	z->target = xstrdup(z->tdirs[0]);
	s->ntargets = 0;
	for (size_t k = 0; k < z->ntdirs; k++)
		suite_add_target(s, z->dir ? "--dir" : "-F", z->tdirs[k]);
	s->dir = z->target;
	return EXIT_OK;
}

static int iozone_check(struct suite_session *s, int argc, char **argv)
{
	struct ioz *z = ctx(s);

	if (argc > 0) {
		msg_err("unexpected argument '%s' (-F takes the file names)", argv[0]);
		return EXIT_USAGE;
	}
	if (s->ntargets > 1) {
		char what[1024];

		msg_err("%s: iozone runs in one directory; give one --dir, or name files in "
			"several directories with -F (docs/targets.md)",
			suite_targets_text(s, what, sizeof(what)));
		return EXIT_USAGE;
	}
	shared_as_iozone(s, z);
	if (check_opts(z) < 0 || plan_sizes(z) < 0)
		return EXIT_USAGE;
	if (!z->tests)
		z->tests = z->nthreads ? TP_DEFAULT_TESTS : AUTO_DEFAULT_TESTS;
	z->nfs = z->nthreads ? z->nthreads : 1;
	if (place(s, z) != EXIT_OK)
		return EXIT_USAGE;
	if (z->csv_file && outfile_check(z->csv_file, "spreadsheet") < 0)
		return EXIT_USAGE;
	return EXIT_OK;
}

/* The model: one file per thread, sized for the largest test
 * (preallocated when the first test only reads), or the devices. */
static void build_files(struct suite_session *s, struct ioz *z)
{
	uint64_t biggest = 0;

	for (size_t k = 0; k < z->sizes.n; k++)
		biggest = MAX(biggest, z->sizes.v[k]);
	z->w = wl_new("iozone");
	if (!z->device)
		workload_set_var(z->w, "dir", s->rd->path);

	z->fsets = xcalloc(z->nfs, sizeof(*z->fsets));
	for (unsigned i = 0; i < z->nfs; i++) {
		char name[64];
		const char *fname = name;

		if (z->nfiles)
			fname = base_name(z->files[i]);
		else if (z->file)
			fname = base_name(z->file);
		else if (z->nthreads)
			snprintf(name, sizeof(name), "iozone.DUMMY.%u", i);
		else
			snprintf(name, sizeof(name), "iozone.tmp");
		z->fsets[i] = wl_add_file(z->w, fname, (int64_t)biggest);
		if (z->device) {
			/* a device's content is read as it is: never preallocated */
			z->fsets[i]->has_device = 1;
			z->fsets[i]->device_fd = z->devfd[i];
			z->fsets[i]->device_flags = (z->policy.write ? O_RDWR : O_RDONLY) |
						    (z->osync ? O_SYNC : 0) | (z->odsync ? O_DSYNC : 0) |
						    (z->direct ? O_DIRECT : 0);
			z->fsets[i]->device_path = xstrdup(z->nfiles ? z->files[i] : z->file);
		} else if (needs_prealloc(z)) {
			z->fsets[i]->prealloc = wl_int(100);
		}
		/* its target's run directory (with one target, $dir's) */
		if (!z->device && s->nrd > 1)
			z->fsets[i]->path = wl_str(s->rds[z->ftarget[i]].path);
	}
}

static int iozone_plan(struct suite_session *s)
{
	struct ioz *z = ctx(s);
	int ret;

	if (z->device) {
		ret = open_devices(z);
		if (ret != EXIT_OK)
			return ret;
		if (s->chatter)
			fprintf(stderr, "block device%s: %s%s (%s; nothing is created or removed)\n",
				z->nfs > 1 ? "s" : "", z->target, z->nfs > 1 ? " ..." : "",
				z->policy.write ? "written" : "read only");
	}
	if (z->csv_file && outfile_open(&z->csv, z->csv_file, "spreadsheet") < 0)
		return EXIT_USAGE;
	build_files(s, z);
	plan_needs(z, &s->needs);
	s->has_needs = 1;
	s->w = z->w;
	s->workload = "iozone";
	return EXIT_OK;
}

/* The header's command line: "fsgauge iozone" and the words after it, as
 * given (main() recorded them before getopt permuted argv); and the
 * options that define the workload. */
static void command_texts(struct ioz *z, const struct result *res)
{
	size_t n = res->ncommand_line > 2 ? res->ncommand_line : 2, len = sizeof("fsgauge iozone");
	char *const *argv = res->command_line;

	for (size_t i = 2; i < res->ncommand_line; i++)
		len += strlen(argv[i]) + 1;
	z->cmdline = xmalloc(len);
	strcpy(z->cmdline, "fsgauge iozone");
	for (size_t i = 2; i < res->ncommand_line; i++) {
		strcat(z->cmdline, " ");
		strcat(z->cmdline, argv[i]);
	}
	/* workload_options() skips its argv[0], "iozone" */
	z->options = res->ncommand_line >= 2 ? workload_options((int)(n - 1), argv + 1)
					     : xstrdup("");
}

static void iozone_params(struct suite_session *s, struct result *res)
{
	struct ioz *z = ctx(s);

	command_texts(z, res);
	record_params(z, res);
	/* -F in several directories: each target's throughput (tests.c) */
	for (size_t k = 1; !z->device && z->ntdirs > 1 && k <= z->ntdirs; k++) {
		char name[64], label[64];
		struct metric_def d = { name, "KB/s", label, BETTER_HIGHER };

		snprintf(name, sizeof(name), "target%zu.throughput", k);
		snprintf(label, sizeof(label), "throughput, target %zu", k);
		result_add_metric_def(res, &d);
	}
}

static void iozone_begin(struct suite_session *s)
{
	struct ioz *z = ctx(s);

	if (z->device)
		kv_add(&s->acc->env, "target", "%s", z->target);
	print_header(z);
}

static int iozone_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct ioz *z = ctx(s);
	int err;

	if (s->nruns > 1)
		printf("%s\tRun %u of %u\n\n", s->run ? "\n" : "", s->run + 1, s->nruns);
	z->rn = rn;
	z->res = one;
	err = z->nthreads ? run_throughput(z) : run_table(z);
	if (!err && !runner_signalled() && !one->interrupted && !one->stopped_on_error)
		z->runs_ok++;
	z->rn = NULL;
	z->res = NULL;
	return err;
}

/* --repeat: iozone's figure per test over the runs (the result's: every
 * run's value, their mean, sd, cv and 95% interval). */
static void repeat_table(struct ioz *z, const struct result *acc)
{
	const char *mainf = z->nthreads ? "children_throughput" : "throughput";
	int any = 0;

	for (size_t i = 0; i < acc->nphases; i++) {
		const struct result_metric *m = result_phase_find_metric(&acc->phases[i], mainf);

		any |= m && m->nruns;
	}
	if (!any)
		return;
	printf("\n\tfsgauge: iozone's figure (KB/sec) over %u runs: mean, 95%% confidence "
	       "interval (Student t, %u df), sd, cv, and each run\n",
	       z->s->nruns, z->s->nruns - 1);
	/* "±" is two bytes in UTF-8: one more for the same width */
	printf("\t%-26s %12s %13s %12s %6s  %s\n", "test", "mean", "± ci95", "sd", "cv", "runs");
	for (size_t i = 0; i < acc->nphases; i++) {
		const struct result_phase *p = &acc->phases[i];
		const struct result_metric *m = result_phase_find_metric(p, mainf);
		struct repeat_stat rs;

		if (!m || !m->nruns)
			continue;
		result_metric_stat(m, &rs);
		printf("\t%-26s %12.2f ", p->name, rs.mean);
		if (isnan(rs.ci95_high))
			printf("%12s", "-");
		else
			printf("%12.2f", rs.ci95_high - rs.mean);
		printf(" %12.2f %5.1f%% ", rs.sd, rs.cv * 100.0);
		for (size_t r = 0; r < m->nruns; r++)
			printf(" %.2f", m->runs[r]);
		putchar('\n');
	}
}

static void iozone_report(struct suite_session *s, struct result *acc)
{
	struct ioz *z = ctx(s);

	if (s->nruns > 1)
		repeat_table(z, acc);
	if (acc->nphases) {
		int per_test = !z->nthreads && z->sizes.n * z->recs.n > 1;

		ioz_fmt_summary(stdout, acc, per_test);
		ioz_fmt_cache_warnings(stdout, acc, per_test);
	}
	if (acc->interrupted)
		printf("\nNOTE: interrupted by a signal: these are partial results\n");
	if (acc->errors || acc->stopped_on_error)
		printf("\nNOTE: %llu operation errors; first: %s\n", (unsigned long long)acc->errors,
		       acc->first_error ? acc->first_error : "?");
	if (!acc->interrupted && !acc->stopped_on_error && z->runs_ok == s->nruns)
		printf("\n\niozone test complete.\n");
	fflush(stdout);
	if (z->csv.f && outfile_close(&z->csv, "spreadsheet") < 0)
		s->status = EXIT_SYSTEM;
}

/* -w and --keep keep the run directory, said unless quiet. */
static int iozone_finish_rundir(struct suite_session *s, struct rundir *rd)
{
	return rundir_finish(rd, s->keep, s->chatter);
}

static void iozone_fini(struct suite_session *s)
{
	struct ioz *z = ctx(s);

	if (z->csv.f)
		outfile_discard(&z->csv);
	free(z->s_opt.v);
	free(z->r_opt.v);
	free(z->sizes.v);
	free(z->recs.v);
	free(z->files);
	free(z->fsets);
	free(z->cmdline);
	free(z->options);
	free(z->target);
	for (size_t k = 0; k < z->ntdirs; k++)
		free(z->tdirs[k]);
	free(z->tdirs);
	free(z->ftarget);
	workload_free(z->w);
	close_devices(z);
}

static const char *iozone_grid_group(size_t g)
{
	return ioz_tests[g].key;
}

static int iozone_grid_point(const char *phase, struct phase_point *pt)
{
	enum ioz_test t;

	if (!ioz_parse_phase_name(phase, &t, &pt->size_kb, &pt->rec_kb))
		return 0;
	pt->group = (size_t)t;
	return 1;
}

/* A group per test, in enum ioz_test's order. */
static const struct phase_grid iozone_grid = {
	.what = "iozone test",
	.ngroups = IOZ__COUNT,
	.group_name = iozone_grid_group,
	.point = iozone_grid_point,
};

/* compare and report: auto and single-stream mode name a phase per test,
 * file size and record size ("write 64k 4k"), summarised per test;
 * throughput mode does not. */
static const struct phase_grid *iozone_phase_grid(const struct rfile *rf)
{
	const char *mode = kv_get(&rf->params, "mode");

	return !mode || strcmp(mode, "throughput") ? &iozone_grid : NULL;
}

const struct suite_ops suite_iozone = {
	.name = "iozone",
	/* several targets: -F names in several directories (two --dir are
	 * refused in iozone_check) */
	.synopsis = "fsgauge iozone [options]",
	.about = "iozone's file I/O tests, with iozone's options and report, on the fsgauge\n"
		 "engine.  With -t N, the throughput test (N threads, one file each; iozone\n"
		 "uses processes by default, fsgauge always threads); with -a, the table of\n"
		 "KB/s per file size and record size; else the table's row for -s and -r.\n"
		 "Files live in a fresh directory inside the target, removed afterwards;\n"
		 "-f or -F may name block devices instead (see 'block devices' below).\n"
		 "Sizes are in KB unless suffixed k, m or g.",
	.opts = iozone_opts,
	.shared = SH_SESSION | SH_SEED | SH_QUIET | (SH_MEASURE & ~(SH_WARMUP | SH_STEADY)) |
		  SH_DRY_RUN,
	.refused = iozone_refused,
	.help_extra =
		"In iozone: --direct is -I (not on the fwrite/fread tests); --quiet has no\n"
		"short form (-q is the largest record); --repeat N runs every test N times\n"
		"(fresh files each run unless --reuse) and ends with each test's KB/sec\n"
		"mean, sd, cv and 95% confidence interval; --drop-caches drops the page\n"
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
		"directory is created, nothing is removed (docs/iozone.md).\n",
	.exit_help = "exit status: 0 ok, 1 I/O or verify errors during the run, 2 usage error or\n"
		     "refused device, 3 system error, 130 interrupted (partial results are still\n"
		     "written).\n",
	.metrics = iozone_metrics,
	.phase_grid = iozone_phase_grid,
	.html_section = iozone_html_section,
	.html_covers = iozone_html_covers,
	.ctx_size = sizeof(struct ioz),
	.init = iozone_init,
	.option = iozone_option,
	.check = iozone_check,
	.plan = iozone_plan,
	.params = iozone_params,
	.begin = iozone_begin,
	.run = iozone_run,
	.report = iozone_report,
	.verdicts_on_stderr = 1,
	.finish_rundir = iozone_finish_rundir,
	.fini = iozone_fini,
};
