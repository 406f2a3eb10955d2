/*
 * untar.c — the `untar` suite: the "unpack a source tree N times" workload
 * (seed 002: untarring a source tarball 40 times from each of two clients
 * to compare ZFS log devices), measured operation by operation.
 *
 * The archive is read and decompressed once (workload/tarball.h) into a
 * replay list, or a synthetic tree is generated (workload/synthetic_tree.h);
 * then --jobs threads replay it --copies times through the engine, copy k
 * in its own directory copy-NNN of the run directory, every mkdir,
 * create, write, close, fsync, chmod, utimes, symlink and link timed and
 * counted.  --then rm adds a second measured phase that removes the
 * trees, depth first, through the engine.  Per copy: elapsed time,
 * files/s, MiB/s; per operation kind: counts and latency percentiles.
 *
 * On the session driver (suite/suite.h): the tree is read or generated in
 * plan() (with the run directory made, as a spool file may go there; or,
 * for --list, printed there without one), the phases run in untar_run()
 * through the runner, and the per-copy tables are its report.  The spool
 * file is control work, never measured: it goes through a psync engine of
 * its own (engine_exec_full()), not the runner.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/shared.h"
#include "engine/engine.h"
#include "output/output.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/env.h"
#include "suite/suite.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/build.h"
#include "workload/replay.h"
#include "workload/synthetic_tree.h"
#include "workload/tarball.h"

#define MIB (1024.0 * 1024.0)
/* runner_phase() runs a phase this long or more until its work is done */
#define UNTIL_DONE DURATION_MAX_SECONDS
#define DEFAULT_WRITE_SIZE (64 * 1024)
#define COPY_DIR "copy"

/* Where the archive's contents go while it is read: memory up to a limit,
 * then a spool file (O_TMPFILE) in the run directory, written through a
 * psync engine.  Writing it is preparation, never measured. */
struct contents {
	unsigned char *mem;
	size_t len, cap;
	uint64_t limit;
	int dirfd;
	const char *dirpath;
	struct engine *eng;
	int fd;
	uint64_t size;
};

static int contents_spool(struct contents *c)
{
	struct io_req q = { .op = IO_OPEN, .dirfd = c->dirfd, .path = ".",
			    .flags = O_TMPFILE | O_RDWR, .mode = 0600 };
	int64_t ret;

	if (engine_open(&c->eng, ENGINE_DEFAULT, 1) < 0)
		return -EINVAL;
	ret = engine_exec_full(c->eng, &q);
	if (ret == -EOPNOTSUPP || ret == -EISDIR || ret == -EINVAL) {
		/* no O_TMPFILE here: a named file, unlinked at once */
		q.path = ".untar-spool";
		q.flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW;
		ret = engine_exec_full(c->eng, &q);
		if (ret >= 0) {
			struct io_req u = { .op = IO_UNLINK, .dirfd = c->dirfd, .path = q.path };

			engine_exec_full(c->eng, &u);
		}
	}
	if (ret < 0)
		return err_errno((int)ret, "cannot create a spool file in '%s'", c->dirpath);
	c->fd = (int)ret;
	if (c->len) {
		struct io_req w = { .op = IO_WRITE, .fd = c->fd, .buf = c->mem, .len = c->len };

		ret = engine_exec_full(c->eng, &w);
		if (ret < 0)
			return err_errno((int)ret, "cannot write the spool file in '%s'", c->dirpath);
	}
	free(c->mem);
	c->mem = NULL;
	c->len = c->cap = 0;
	return 0;
}

static int contents_put(void *ctx, const void *buf, size_t len)
{
	struct contents *c = ctx;
	int ret;

	if (c->fd < 0 && c->size + len > c->limit) {
		ret = contents_spool(c);
		if (ret < 0)
			return ret;
	}
	if (c->fd >= 0) {
		struct io_req w = { .op = IO_WRITE, .fd = c->fd, .buf = (void *)buf, .len = len,
				    .off = c->size };
		int64_t r = engine_exec_full(c->eng, &w);

		if (r < 0)
			return err_errno((int)r, "cannot write the spool file in '%s'", c->dirpath);
	} else {
		if (c->len + len > c->cap) {
			size_t cap = c->cap ? c->cap : 1 << 20;

			while (cap < c->len + len)
				cap *= 2;
			if (cap > c->limit && c->len + len <= c->limit)
				cap = (size_t)c->limit;
			c->mem = xrealloc(c->mem, cap);
			c->cap = cap;
		}
		memcpy(c->mem + c->len, buf, len);
		c->len += len;
	}
	c->size += len;
	return 0;
}

/* Read every page of the contents once, before anything is measured:
 * growing the buffer may have moved it (mremap), and on some virtual
 * machines the first touch of each moved page is a fault costing tens of
 * microseconds, which would otherwise land in the first copy's time. */
static unsigned long contents_touch(const struct contents *c)
{
	unsigned long sum = 0;

	for (size_t i = 0; i < c->len; i += 4096)
		sum += ((const volatile unsigned char *)c->mem)[i];
	return sum;
}

static void contents_free(struct contents *c)
{
	if (c->fd >= 0) {
		struct io_req q = { .op = IO_CLOSE, .fd = c->fd };

		engine_exec(c->eng, &q);
		c->fd = -1;
	}
	engine_close(c->eng);
	c->eng = NULL;
	free(c->mem);
	c->mem = NULL;
}

static const char *fsync_name(enum replay_fsync f)
{
	return f == REPLAY_FSYNC_FILE ? "file" : f == REPLAY_FSYNC_DIR ? "dir" : "none";
}

static const char *human(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1024 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", (double)bytes / (MIB * 1024));
	else if (bytes >= 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", (double)bytes / MIB);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	return buf;
}

static void tree_summary(FILE *f, const char *what, const struct replay_stats *st)
{
	char b1[32], b2[32], b3[32];

	fprintf(f,
		"%s: %llu files, %llu directories, %llu symlinks, %llu hard links, %s; file size "
		"median %s, p99 %s; depth %u",
		what, (unsigned long long)st->files, (unsigned long long)st->dirs,
		(unsigned long long)st->symlinks, (unsigned long long)st->hardlinks,
		human(st->bytes, b1, sizeof(b1)), human(st->size_median, b2, sizeof(b2)),
		human(st->size_p99, b3, sizeof(b3)), st->max_depth);
	if (st->skipped)
		fprintf(f, "; %llu special files skipped", (unsigned long long)st->skipped);
	fputc('\n', f);
}

/* `--list`: the entries as extracted, then the statistics. */
static void print_list(const struct replay *r)
{
	const struct replay_stats *st = &r->st;

	for (size_t i = 0; i < r->nnodes; i++) {
		const struct replay_node *n = &r->nodes[i];
		static const char types[] = { [RPT_DIR] = 'd', [RPT_FILE] = 'f',
					      [RPT_SYMLINK] = 'l', [RPT_HARDLINK] = 'h' };

		if (n->removed)
			continue;
		printf("%c %04o %llu %s", types[n->type], n->mode,
		       (unsigned long long)(n->type == RPT_FILE ? n->size : 0), n->path);
		if (n->type == RPT_SYMLINK)
			printf(" -> %s", n->target);
		else if (n->type == RPT_HARDLINK)
			printf(" => %s", n->target);
		putchar('\n');
	}
	printf("# files %llu dirs %llu symlinks %llu hardlinks %llu bytes %llu median %llu p90 %llu "
	       "p99 %llu max %llu depth %u skipped %llu\n",
	       (unsigned long long)st->files, (unsigned long long)st->dirs,
	       (unsigned long long)st->symlinks, (unsigned long long)st->hardlinks,
	       (unsigned long long)st->bytes, (unsigned long long)st->size_median,
	       (unsigned long long)st->size_p90, (unsigned long long)st->size_p99,
	       (unsigned long long)st->size_max, st->max_depth, (unsigned long long)st->skipped);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double nearest_rank(const double *v, size_t n, double q)
{
	size_t k = (size_t)((double)n * q);

	if ((double)k < (double)n * q)
		k++;
	return n ? v[k ? k - 1 : 0] : 0;
}

/* The figures of a target's copies: how many are complete, the sum of
 * their seconds, the bytes of all, and when the first started and the
 * last ended (seconds from the phase's start). */
struct copies_fig {
	size_t ndone, n;
	double sum, first, last;
	uint64_t bytes;
};

static void copies_add(struct copies_fig *c, const struct result_exec *x)
{
	if (x->complete) {
		c->ndone++;
		c->sum += x->seconds;
	}
	c->bytes += x->bytes;
	c->first = c->n++ ? MIN(c->first, x->start) : x->start;
	c->last = MAX(c->last, x->start + x->seconds);
}

/* One target's line under the phase's totals (several targets: its
 * copies, made by "untar@K"), and its figures as the phase's metrics
 * NAME@K: its rates over its own wall time, from its first copy's start
 * to its last copy's end (the targets ran at once; the slower one ends
 * later). */
static void target_line(FILE *f, const struct suite_session *s, struct result_phase *ph,
			size_t k, const struct copies_fig *c, uint64_t per_copy, int removal)
{
	double wall = c->last - c->first > 0 ? c->last - c->first : 1e-9;
	double rate = (double)(per_copy * c->ndone) / wall, mean = c->ndone ? c->sum / c->ndone : 0;
	struct result_phase sub;
	struct result_headline h;
	char name[64];

	suite_target_phase(ph, k, &sub);
	result_phase_headline(&sub, &h);
	free(sub.ops);
	fprintf(f, "  target %zu '%s': %zu copies, %.3f s per copy (mean), %.3f s wall, %.1f %s",
		k, suite_target(s, k - 1), c->ndone, mean, c->n ? wall : 0.0, rate,
		removal ? "entries/s" : "files/s");
	if (!removal)
		fprintf(f, ", %.1f MiB/s", (double)c->bytes / MIB / wall);
	fprintf(f, ", %llu ops\n", (unsigned long long)h.ops);
	if (!c->ndone)
		return;
	snprintf(name, sizeof(name), "seconds_per_copy@%zu", k);
	result_phase_add_metric(ph, name, "s", mean);
	snprintf(name, sizeof(name), "%s@%zu", removal ? "entries_per_second" : "files_per_second",
		 k);
	result_phase_add_metric(ph, name, removal ? "entries/s" : "files/s", rate);
	snprintf(name, sizeof(name), "mib_per_second@%zu", k);
	if (!removal)
		result_phase_add_metric(ph, name, "MiB/s", (double)c->bytes / MIB / wall);
}

/* The per-copy table of one phase, and its totals; the totals also go
 * into the phase's metrics (untar_metrics[]: the JSON's
 * phases[].metrics).  With several targets (ntg), a column names each
 * copy's target and a line per target follows the totals. */
static void copies_text(FILE *f, const struct suite_session *s, struct result_phase *ph,
			const struct replay_stats *st, int removal, int ranks, size_t ntg)
{
	uint64_t per_copy = removal ? st->files + st->symlinks + st->hardlinks + st->dirs + 1
				    : st->files;
	double *secs = xmalloc((ph->nexecs ? ph->nexecs : 1) * sizeof(*secs));
	struct copies_fig *tg = xcalloc(ntg + 1, sizeof(*tg));
	size_t ndone = 0;
	uint64_t bytes = 0;
	unsigned runs = 1;

	for (size_t i = 0; i < ph->nexecs; i++)
		runs = MAX(runs, ph->execs[i].repeat + 1);
	fprintf(f, "Phase %s, per copy:\n", ph->name);
	if (runs > 1)
		fprintf(f, "%4s ", "run");
	if (ranks)
		fprintf(f, "%4s ", "rank");
	if (ntg > 1)
		fprintf(f, "%6s ", "target");
	fprintf(f, "%-10s %6s %10s %10s %12s %10s\n", "copy", "thread", "start s", "seconds",
		removal ? "entries/s" : "files/s", "MiB/s");
	for (size_t i = 0; i < ph->nexecs; i++) {
		const struct result_exec *x = &ph->execs[i];
		double el = x->seconds > 0 ? x->seconds : 1e-9;
		size_t k = ntg > 1 ? suite_op_target(x->op) : 0;

		if (k > ntg)
			k = 0;
		if (runs > 1)
			fprintf(f, "%4u ", x->repeat + 1);
		if (ranks)
			fprintf(f, "%4d ", x->rank);
		if (ntg > 1)
			fprintf(f, "%6zu ", k);
		copies_add(&tg[k], x);
		fprintf(f, "%s-%03llu %6d %10.3f %10.3f", COPY_DIR, (unsigned long long)x->index,
			x->thread, x->start, x->seconds);
		if (x->complete && removal) {
			fprintf(f, " %12.1f %10s\n", (double)per_copy / el, "-");
			secs[ndone++] = x->seconds;
		} else if (x->complete) {
			fprintf(f, " %12.1f %10.1f\n", (double)per_copy / el,
				(double)x->bytes / MIB / el);
			secs[ndone++] = x->seconds;
		} else {
			fprintf(f, "  incomplete: %llu ops, %llu errors\n", (unsigned long long)x->ops,
				(unsigned long long)x->errors);
		}
		bytes += x->bytes;
	}
	if (ndone) {
		double sum = 0, wall = ph->seconds > 0 ? ph->seconds : 1e-9;

		qsort(secs, ndone, sizeof(*secs), cmp_double);
		for (size_t i = 0; i < ndone; i++)
			sum += secs[i];
		fprintf(f,
			"seconds per copy: mean %.3f, min %.3f, p50 %.3f, p90 %.3f, max %.3f (%zu "
			"copies)\n",
			sum / (double)ndone, secs[0], nearest_rank(secs, ndone, 0.5),
			nearest_rank(secs, ndone, 0.9), secs[ndone - 1], ndone);
		fprintf(f, "all copies: %.3f s wall%s, %.1f %s", ph->seconds,
			runs > 1 ? " (the runs together)" : "",
			(double)(per_copy * ndone) / wall, removal ? "entries/s" : "files/s");
		if (!removal)
			fprintf(f, ", %.1f MiB/s", (double)bytes / MIB / wall);
		fputc('\n', f);
		result_phase_add_metric(ph, "seconds_per_copy", "s", sum / (double)ndone);
		result_phase_add_metric(ph, removal ? "entries_per_second" : "files_per_second",
					removal ? "entries/s" : "files/s",
					(double)(per_copy * ndone) / wall);
		if (!removal)
			result_phase_add_metric(ph, "mib_per_second", "MiB/s",
						(double)bytes / MIB / wall);
	}
	for (size_t k = 1; ntg > 1 && k <= ntg; k++)
		target_line(f, s, ph, k, &tg[k], per_copy, removal);
	fputc('\n', f);
	free(tg);
	free(secs);
}


/* The suite's state (s->ctx). */
struct untar_suite {
	struct replay_opts ropt;
	const char *tarball, *synthetic;
	const struct synthetic_preset *preset;
	uint64_t copies, jobs, max_memory;
	double max_time;
	int list, then_rm;
	int read_interrupted;	/* a signal came while the archive was read */
	struct contents ct;
	struct replay *r, *rm;
	struct workload *w;	/* the untar phase's processes */
	/* the phases' processes, one per target (ntg: the run directories;
	 * several with several -d, each extracting every copy: docs/untar.md) */
	struct wl_process **pun, **prm;
	size_t ntg;
};

enum {
	UT_COPIES = 'n',
	UT_JOBS = 'j',
	UT_TARBALL = OPT_OWN,
	UT_SYNTHETIC,
	UT_FSYNC,
	UT_THEN,
	UT_WRITE_SIZE,
	UT_MAX_MEMORY,
	UT_MAX_TIME,
	UT_LIST,
};

static const struct suite_opt untar_opts[] = {
	{ "tarball", 0, UT_TARBALL, OPTARG_REQUIRED, "FILE",
	  "the archive to extract: tar (any compression), zip,\ncpio, 7z, ... (whatever "
	  "libarchive reads)" },
	{ "synthetic", 0, UT_SYNTHETIC, OPTARG_REQUIRED, "NAME",
	  "a generated tree shaped like a source tree (the\nnames are listed below)" },
	{ "copies", 'n', UT_COPIES, OPTARG_REQUIRED, "N", "copies to extract (default 1)" },
	{ "jobs", 'j', UT_JOBS, OPTARG_REQUIRED, "J", "threads extracting in parallel (default 1)" },
	{ "fsync", 0, UT_FSYNC, OPTARG_REQUIRED, "MODE",
	  "none (default); file: fsync every file before closing\nit; dir: also every directory "
	  "once it is complete" },
	{ "then", 0, UT_THEN, OPTARG_REQUIRED, "rm", "a second measured phase removes the copies" },
	{ "write-size", 0, UT_WRITE_SIZE, OPTARG_REQUIRED, "SIZE",
	  "largest single write (default 64k)" },
	{ "max-memory", 0, UT_MAX_MEMORY, OPTARG_REQUIRED, "SIZE",
	  "archive contents kept in memory; beyond it they go to\na spool file in the run "
	  "directory (default: a quarter\nof RAM, at most 1g)" },
	{ "max-time", 0, UT_MAX_TIME, OPTARG_REQUIRED, "SECS",
	  "stop a phase after this long (default: when done)" },
	{ "list", 0, UT_LIST, OPTARG_NONE, NULL,
	  "print the tree's entries and statistics; write nothing" },
	{ 0 },
};

/* The shared options that mean nothing here: refused, not ignored. */
#define UNTAR_NO_WARMUP                                                                    \
	"--warmup and --steady-state do not apply to untar: its phases run until the copies " \
	"are done (use --copies or --repeat)"
static const struct suite_refusal untar_refused[] = {
	{ SH_DIRECT, "--direct does not apply to untar: it writes whole files of any size, as tar "
		     "does" },
	{ SH_REUSE, "--reuse does not apply to untar: every run extracts fresh copies" },
	{ SH_WARMUP, UNTAR_NO_WARMUP },
	{ SH_STEADY, UNTAR_NO_WARMUP },
	{ SH_VERIFY, "--verify does not apply to untar: its copies are written and removed, never "
		     "read back (fsgauge verify checks what a file system gives back)" },
	{ 0 },
};

/* Its figures, per phase (copies_text() records them). */
static const struct metric_def untar_metrics[] = {
	{ "seconds_per_copy", "s", "seconds per copy (mean)", BETTER_LOWER },
	{ "files_per_second", "files/s", "files/s, all copies", BETTER_HIGHER },
	{ "mib_per_second", "MiB/s", "MiB/s, all copies", BETTER_HIGHER },
	{ "entries_per_second", "entries/s", "entries removed/s, all copies", BETTER_HIGHER },
	{ NULL, NULL, NULL, BETTER_NONE },
};

static struct untar_suite *ctx(struct suite_session *s)
{
	return s->ctx;
}

static uint64_t default_max_memory(void)
{
	uint64_t ram = env_ram_bytes(), lim = 1ull << 30;

	if (ram && ram / 4 < lim)
		lim = ram / 4;
	return lim;
}

static void untar_init(struct suite_session *s)
{
	struct untar_suite *u = ctx(s);

	u->ropt = (struct replay_opts){ .fsync = REPLAY_FSYNC_NONE,
					.write_size = DEFAULT_WRITE_SIZE };
	u->copies = u->jobs = 1;
	u->max_memory = default_max_memory();
	u->max_time = UNTIL_DONE;
	u->ct.fd = -1;
}

static int parse_fsync(const char *arg, enum replay_fsync *f)
{
	if (!strcmp(arg, "none"))
		*f = REPLAY_FSYNC_NONE;
	else if (!strcmp(arg, "file"))
		*f = REPLAY_FSYNC_FILE;
	else if (!strcmp(arg, "dir"))
		*f = REPLAY_FSYNC_DIR;
	else {
		msg_err("invalid --fsync '%s' (expected none, file or dir)", arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The options with a numeric value.  EXIT_OK or EXIT_USAGE. */
static int untar_number(struct untar_suite *u, int key, const char *arg)
{
	uint64_t v;

	switch (key) {
	case UT_COPIES:
		if (num_parse_u64(arg, &u->copies) < 0 || u->copies < 1 || u->copies > 1000000) {
			msg_err("invalid --copies '%s' (expected 1 to 1000000)", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case UT_JOBS:
		if (num_parse_u64(arg, &u->jobs) < 0 || u->jobs < 1 || u->jobs > 4096) {
			msg_err("invalid --jobs '%s' (expected 1 to 4096)", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case UT_WRITE_SIZE:
		if (size_parse(arg, &v) < 0 || v < 1 || v > (64u << 20)) {
			msg_err("invalid --write-size '%s' (expected 1 to 64m)", arg);
			return EXIT_USAGE;
		}
		u->ropt.write_size = (uint32_t)v;
		return EXIT_OK;
	case UT_MAX_MEMORY:
		if (size_parse(arg, &u->max_memory) < 0) {
			msg_err("invalid --max-memory '%s' (expected a size: 512m, 2g)", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case UT_MAX_TIME:
		if (duration_parse(arg, 0, 1, &u->max_time) < 0) {
			msg_err("invalid --max-time '%s' (expected seconds, above 0 and at most "
				DURATION_MAX_TEXT ")", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	default:
		return EXIT_USAGE;
	}
}

static int untar_option(struct suite_session *s, int key, const char *arg, int argc,
			char **argv)
{
	struct untar_suite *u = ctx(s);

	(void)argc;
	(void)argv;
	switch (key) {
	case UT_TARBALL:
		u->tarball = arg;
		return EXIT_OK;
	case UT_SYNTHETIC:
		u->synthetic = arg;
		return EXIT_OK;
	case UT_FSYNC:
		return parse_fsync(arg, &u->ropt.fsync);
	case UT_THEN:
		if (strcmp(arg, "rm")) {
			msg_err("invalid --then '%s' (expected rm)", arg);
			return EXIT_USAGE;
		}
		u->then_rm = 1;
		return EXIT_OK;
	case UT_LIST:
		u->list = 1;
		return EXIT_OK;
	default:
		return untar_number(u, key, arg);
	}
}

/* --synthetic NAME's preset, or NULL after a message naming the others. */
static const struct synthetic_preset *find_preset(const char *name)
{
	const struct synthetic_preset *preset = synthetic_tree_find(name);
	size_t n;
	const struct synthetic_preset *p = synthetic_tree_presets(&n);
	char names[256] = "";

	if (preset)
		return preset;
	for (size_t i = 0; i < n; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
			 p[i].name);
	msg_err("unknown synthetic tree '%s' (available: %s)", name, names);
	return NULL;
}

/* Read the archive or generate the tree into u->r; with `sink` (NULL for
 * --list) the archive's contents go there.  0, or -errno with err set. */
static int load_tree(struct untar_suite *u, uint64_t seed, const struct tarball_sink *sink,
		     char *err, size_t errlen)
{
	uint64_t v;

	if (u->synthetic)
		return synthetic_tree_build(u->preset, seed, u->r, err, errlen);
	return tarball_load(u->tarball, u->r, sink, &v, err, errlen);
}

/* --list: print the tree and finish (no run directory: s->no_rundir),
 * after the shared checks as before. */
static int list_tree(struct suite_session *s)
{
	struct untar_suite *u = ctx(s);
	char err[1024];

	if (load_tree(u, s->ro.seed, NULL, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		return EXIT_USAGE;
	}
	replay_finish(u->r);
	print_list(u->r);
	return SUITE_DONE;
}

static int untar_check(struct suite_session *s, int argc, char **argv)
{
	struct untar_suite *u = ctx(s);
	char err[1024];
	mode_t um;

	if (argc > 0) {
		msg_err("unexpected argument '%s' (the archive goes after --tarball)", argv[0]);
		return EXIT_USAGE;
	}
	if (!u->tarball == !u->synthetic) {
		msg_err("untar needs exactly one of --tarball FILE and --synthetic NAME");
		return EXIT_USAGE;
	}
	if (u->synthetic && !(u->preset = find_preset(u->synthetic)))
		return EXIT_USAGE;
	if (u->tarball && !tarball_supported()) {
		tarball_unsupported(u->tarball, err, sizeof(err));
		msg_err("%s", err);
		return EXIT_USAGE;
	}
	if (u->tarball && (s->given & SH_DATA)) {
		msg_err("--data applies to --synthetic trees; a tarball's files are written with "
			"their own contents");
		return EXIT_USAGE;
	}
	if (u->jobs > u->copies)
		u->jobs = u->copies;
	um = umask(0);
	umask(um);
	u->ropt.umask = um;
	u->r = replay_new(&u->ropt);
	s->no_rundir = u->list; /* --list writes nothing: plan() prints it */
	return EXIT_OK;
}

/* What the copies need (bytes and inodes; nothing on a diskless engine
 * such as null, which creates nothing) and what the extracting threads
 * need (their memory: `extract`'s buffers and state), for the session's
 * preflight. */
static void fill_needs(struct suite_session *s, const struct wl_thread *extract)
{
	const struct untar_suite *u = ctx(s);
	const struct replay_stats *st = &u->r->st;
	struct preflight_needs *n = &s->needs;
	double entries = (double)(st->files + st->dirs + st->symlinks + st->hardlinks + 1);
	double ntg = (double)u->ntg;

	/* every target holds every copy; its threads are its own */
	n->threads = (double)u->jobs * ntg;
	if (!(engine_spec_caps(s->ro.engine) & ENGINE_DISKLESS)) {
		n->bytes = (double)u->copies * ((double)st->bytes + entries * 512.0);
		n->entries = entries * (double)u->copies;
		for (size_t k = 0; u->ntg > 1 && k < s->nrd; k++) {
			s->tneeds[k].bytes = n->bytes;
			s->tneeds[k].entries = n->entries;
		}
		n->bytes *= ntg;
		n->entries *= ntg;
	}
	n->memory = (double)u->jobs * ntg * runner_thread_memory(extract);
	snprintf(n->what, sizeof(n->what), "%llu copies", (unsigned long long)u->copies);
	snprintf(n->memory_detail, sizeof(n->memory_detail), "%llu jobs x %.1f MiB%s",
		 (unsigned long long)u->jobs, runner_thread_memory(extract) / MIB,
		 u->ntg > 1 ? " in each target" : "");
	snprintf(n->lower_space, sizeof(n->lower_space), "use fewer --copies or another -d%s",
		 u->ct.fd >= 0 ? " (the spool file is already written)" : "");
	snprintf(n->lower_inodes, sizeof(n->lower_inodes), "use fewer --copies or another -d");
	snprintf(n->lower_memory, sizeof(n->lower_memory),
		 "use fewer --jobs or a smaller --write-size");
	snprintf(n->lower_threads, sizeof(n->lower_threads), "use fewer --jobs");
	s->has_needs = 1;
}

/* "NAME", or with several targets "NAME@K" for target k (from 0): the
 * names of target K's processes, threads and replays, so that each
 * target's operations ("untar@2.create") and copies are its own. */
static const char *tname(const struct untar_suite *u, const char *name, size_t k, char *buf,
			 size_t len)
{
	if (u->ntg < 2)
		return name;
	snprintf(buf, len, "%s@%zu", name, k + 1);
	return buf;
}

/* The model: the untar phase's processes in u->w (the session's), the rm
 * phase's in u->prm; one of each per run directory, its replays there
 * (replay_target), every copy extracted in each. */
static void build_model(struct suite_session *s)
{
	struct untar_suite *u = ctx(s);
	struct wl_thread *t, *first = NULL;
	struct wl_flowop *fo;
	char b[64], b2[64];

	u->ntg = s->nrd > 1 ? s->nrd : 1;
	u->w = wl_new("untar");
	u->pun = xcalloc(u->ntg, sizeof(*u->pun));
	if (u->then_rm) {
		u->rm = replay_removal(u->r);
		u->prm = xcalloc(u->ntg, sizeof(*u->prm));
	}
	for (size_t k = 0; k < u->ntg; k++) {
		u->pun[k] = wl_add_process(u->w, tname(u, "untar", k, b, sizeof(b)), 1);
		t = wl_add_thread(u->pun[k], tname(u, "extract", k, b, sizeof(b)),
				  (int64_t)u->jobs, MAX((int64_t)u->ropt.write_size, 4096));
		fo = wl_add_replay(t, tname(u, "untar", k, b, sizeof(b)), u->r,
				   (int64_t)u->copies, COPY_DIR);
		fo->replay_target = k;
		first = first ? first : t;
		if (!u->then_rm)
			continue;
		u->prm[k] = wl_new_process(tname(u, "rm", k, b, sizeof(b)), 1);
		t = wl_add_thread(u->prm[k], tname(u, "remove", k, b, sizeof(b)), (int64_t)u->jobs,
				  4096);
		fo = wl_add_replay(t, tname(u, "rm", k, b2, sizeof(b2)), u->rm, (int64_t)u->copies,
				   COPY_DIR);
		fo->replay_target = k;
	}
	fill_needs(s, first);
	s->w = u->w;
}

/* A failure to read the archive: a bad archive or a wrong name is the
 * user's to fix. */
static int load_status(int ret)
{
	return ret == -EINVAL || ret == -ENOTSUP || ret == -ENOENT || ret == -EACCES ||
			       ret == -EISDIR || ret == -ENOTDIR || ret == -ELOOP
		       ? EXIT_USAGE
		       : EXIT_SYSTEM;
}

/* With the run directory made: read the archive (its contents into memory
 * or a spool file there) or generate the tree, then build the model. */
static int untar_plan(struct suite_session *s)
{
	struct untar_suite *u = ctx(s);
	struct tarball_sink sink = { contents_put, &u->ct };
	char err[1024];
	int ret;

	if (u->list)
		return list_tree(s);
	s->workload = u->tarball ? u->tarball : u->synthetic;
	u->ct.limit = u->max_memory;
	u->ct.dirfd = s->rd->fd;
	u->ct.dirpath = s->rd->path;
	if (u->tarball && !s->ro.quiet)
		fprintf(stderr, "reading '%s'...\n", u->tarball);
	ret = load_tree(u, s->ro.seed, &sink, err, sizeof(err));
	if (ret < 0) {
		msg_err("%s", err);
		if (ret != -EINTR && !runner_signalled())
			return load_status(ret);
		/* stopped by a signal while reading the archive (a FIFO whose
		 * writer is slow or absent): nothing ran, but --json still
		 * gets a result that says it was interrupted; the run directory
		 * holds no copy, and goes even with --keep */
		u->read_interrupted = 1;
		s->keep = 0;
		return EXIT_INTERRUPTED;
	}
	replay_finish(u->r);
	contents_touch(&u->ct);
	u->r->data = u->ct.mem;
	u->r->data_fd = u->ct.fd;
	u->r->data_size = u->ct.size;
	if (!s->ro.quiet) {
		tree_summary(stderr, u->tarball ? "archive" : "synthetic tree", &u->r->st);
		if (u->ct.fd >= 0)
			fprintf(stderr, "contents: %.1f MiB in a spool file (more than --max-memory)\n",
				(double)u->ct.size / MIB);
	}
	build_model(s);
	return EXIT_OK;
}

/* The parameters in the order untar has always written them: a result
 * without a workload hash of its own is hashed over its parameters in
 * order (comparison_params_hash()), and results written before the
 * session driver must still compare as the same workload. */
static void untar_params(struct suite_session *s, struct result *res)
{
	const struct untar_suite *u = ctx(s);
	const struct replay_stats *st = &u->r->st;
	struct kvlist *p = &res->params;

	kv_free(p);
	if (u->tarball)
		kv_add(p, "tarball", "%s", u->tarball);
	else
		kv_add(p, "synthetic", "%s", u->synthetic);
	kv_add(p, "copies", "%llu", (unsigned long long)u->copies);
	kv_add(p, "jobs", "%llu", (unsigned long long)u->jobs);
	kv_add(p, "fsync", "%s", fsync_name(u->r->opts.fsync));
	kv_add(p, "then", "%s", u->then_rm ? "rm" : "none");
	kv_add(p, "write_size", "%u", u->r->opts.write_size);
	kv_add(p, "max_memory", "%llu", (unsigned long long)u->max_memory);
	kv_add(p, "spooled", "%s", u->ct.fd >= 0 ? "true" : "false");
	kv_add(p, "max_time", "%g", u->max_time);
	kv_add(p, "umask", "%04o", (unsigned)u->r->opts.umask);
	kv_add(p, "engine", "%s", s->ro.engine);
	kv_add(p, "seed", "%llu", (unsigned long long)s->ro.seed);
	shared_run_params(p, &s->ro);
	if (u->tarball)
		kv_add(p, "data", "the archive's contents");
	kv_add(p, "on_error", "%s", s->ro.on_error == ON_ERROR_STOP ? "stop" : "continue");
	if (u->read_interrupted)
		return; /* the tree is not known */
	kv_add(p, "tree.files", "%llu", (unsigned long long)st->files);
	kv_add(p, "tree.dirs", "%llu", (unsigned long long)st->dirs);
	kv_add(p, "tree.symlinks", "%llu", (unsigned long long)st->symlinks);
	kv_add(p, "tree.hardlinks", "%llu", (unsigned long long)st->hardlinks);
	kv_add(p, "tree.bytes", "%llu", (unsigned long long)st->bytes);
	kv_add(p, "tree.skipped", "%llu", (unsigned long long)st->skipped);
	kv_add(p, "tree.size_median", "%llu", (unsigned long long)st->size_median);
	kv_add(p, "tree.size_p99", "%llu", (unsigned long long)st->size_p99);
	kv_add(p, "tree.depth", "%u", st->max_depth);
	kv_add(p, "tree.ops_per_copy", "%zu", u->r->nops);
}

/* One run: the untar phase, then (--then rm) the rm phase when every copy
 * was extracted. */
static int untar_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct untar_suite *u = ctx(s);
	int rr = runner_phase(rn, "untar", u->pun, u->ntg, u->max_time);
	int failed = one->errors || one->stopped_on_error;

	if (rr != 0 || !u->then_rm)
		return rr;
	if (failed)
		msg_warn("no rm phase: extracting failed (the copies are removed unmeasured)");
	if (failed || one->interrupted)
		return rr;
	if (one->nphases && one->phases[0].nexecs < u->copies * u->ntg) {
		msg_warn("not removing: only %zu of %llu copies were extracted",
			 one->phases[0].nexecs, (unsigned long long)(u->copies * u->ntg));
		return rr;
	}
	return runner_phase(rn, "rm", u->prm, u->ntg, u->max_time);
}

/* Copies a phase did not finish (--max-time): recorded, said, and the run
 * fell short (exit 1). */
static void check_finished(struct suite_session *s, struct result *acc)
{
	const struct untar_suite *u = ctx(s);
	uint64_t want = u->copies * s->nruns * u->ntg;

	for (size_t i = 0; i < acc->nphases; i++) {
		uint64_t done = 0;
		char key[64];

		for (size_t x = 0; x < acc->phases[i].nexecs; x++)
			done += (uint64_t)acc->phases[i].execs[x].complete;
		if (done >= want)
			continue;
		snprintf(key, sizeof(key), "incomplete.%s", acc->phases[i].name);
		kv_add(&acc->params, key, "%llu of %llu copies finished", (unsigned long long)done,
		       (unsigned long long)want);
		msg_err("phase %s: only %llu of %llu copies finished within --max-time %g",
			acc->phases[i].name, (unsigned long long)done, (unsigned long long)want,
			u->max_time);
		s->status = EXIT_RUN_ERRORS;
	}
}

/* The per-copy tables and the usual breakdown.  The contents go first:
 * a spool file's space is what lets the results be written on a full
 * file system. */
static void untar_report(struct suite_session *s, struct result *acc)
{
	struct untar_suite *u = ctx(s);

	contents_free(&u->ct);
	if (u->read_interrupted)
		return; /* nothing ran: the message said why */
	for (size_t i = 0; i < acc->nphases; i++)
		copies_text(stdout, s, &acc->phases[i], &u->r->st, i > 0, acc->ranks != NULL,
			    u->ntg);
	output_text(stdout, acc);
	if (!acc->interrupted && !acc->errors && !acc->stopped_on_error)
		check_finished(s, acc);
}

static void untar_help_more(FILE *f)
{
	size_t n;
	const struct synthetic_preset *p = synthetic_tree_presets(&n);

	fprintf(f, "\nsynthetic trees (--synthetic NAME, docs/untar.md):\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-8s %s\n", p[i].name, p[i].description);
}

static void untar_fini(struct suite_session *s)
{
	struct untar_suite *u = ctx(s);

	contents_free(&u->ct);
	workload_free(u->w);
	for (size_t k = 0; u->prm && k < u->ntg; k++)
		wl_process_free(u->prm[k]);
	free(u->prm);
	free(u->pun);
	replay_free(u->rm);
	replay_free(u->r);
}

const struct suite_ops suite_untar = {
	.name = "untar",
	.synopsis = "fsgauge untar (--tarball FILE | --synthetic NAME) [options]",
	.about = "Extracts a tree --copies times with --jobs threads, each copy in its own\n"
		 "directory (copy-000, copy-001, ...) of a fresh run directory, and measures\n"
		 "every operation (mkdir, create, write, close, fsync, chmod, utimes, symlink,\n"
		 "link).  The archive is decompressed once, before the measured phase.",
	.opts = untar_opts,
	.shared = SH_DIR | SH_SESSION | SH_SEED | SH_ON_ERROR | SH_QUIET | SH_DATA |
		  SH_DROP_CACHES | SH_REPEAT | SH_INTERVAL | SH_PROGRESS,
	.refused = untar_refused,
	.help_extra = "--data applies to --synthetic trees, a tarball writes its own contents;\n"
		      "--repeat N extracts the copies N times, removing them in between.  --direct,\n"
		      "--reuse, --warmup, --steady-state and --verify are refused: files are written\n"
		      "whole, every run extracts fresh copies, a phase runs until its copies are\n"
		      "done, and nothing is read back.\n"
		      "Several -d: every copy is extracted in each target at once, each with its\n"
		      "own --jobs threads and run directory; its operations and copies are named\n"
		      "@K (K the number of its -d, from 1), a line per target follows the totals\n"
		      "(docs/untar.md).\n",
	.help_more = untar_help_more,
	.exit_help = "exit status: 0 ok, 1 I/O errors or copies not finished, 2 usage error or\n"
		     "a malformed, truncated or refused archive, 3 system error, 130 interrupted.\n",
	.metrics = untar_metrics,
	.ctx_size = sizeof(struct untar_suite),
	.init = untar_init,
	.option = untar_option,
	.check = untar_check,
	.plan = untar_plan,
	.params = untar_params,
	.run = untar_run,
	.report = untar_report,
	.fini = untar_fini,
};
