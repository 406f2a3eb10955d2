/*
 * untar.c — `fsgauge untar`: the "unpack a source tree N times" workload
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
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "engine/engine.h"
#include "output/output.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/env.h"
#include "util/outfile.h"
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

static void untar_usage(FILE *f)
{
	size_t n;
	const struct synthetic_preset *p = synthetic_tree_presets(&n);

	fprintf(f,
		"usage: fsgauge untar (--tarball FILE | --synthetic NAME) [options]\n"
		"\n"
		"Extracts a tree --copies times with --jobs threads, each copy in its own\n"
		"directory (copy-000, copy-001, ...) of a fresh run directory, and measures\n"
		"every operation (mkdir, create, write, close, fsync, chmod, utimes, symlink,\n"
		"link).  The archive is decompressed once, before the measured phase.\n"
		"\n"
		"options:\n"
		"      --tarball FILE     the archive to extract: tar (any compression), zip,\n"
		"                         cpio, 7z, ... (whatever libarchive reads)\n"
		"      --synthetic NAME   a generated tree shaped like a source tree:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "                           %-8s %s\n", p[i].name, p[i].description);
	fprintf(f,
		"  -n, --copies N         copies to extract (default 1)\n"
		"  -j, --jobs J           threads extracting in parallel (default 1)\n"
		"      --fsync MODE       none (default); file: fsync every file before closing\n"
		"                         it; dir: also every directory once it is complete\n"
		"      --then rm          a second measured phase removes the copies\n"
		"  -d, --dir DIR          target directory (default: $TMPDIR or /tmp)\n"
		"      --write-size SIZE  largest single write (default 64k)\n"
		"      --max-memory SIZE  archive contents kept in memory; beyond it they go to\n"
		"                         a spool file in the run directory (default: a quarter\n"
		"                         of RAM, at most 1g)\n"
		"      --max-time SECS    stop a phase after this long (default: when done)\n"
		"      --list             print the tree's entries and statistics; write nothing\n"
		"      --json FILE        write the full result as JSON ('-': stdout, and the\n"
		"                         tables go to stderr)\n"
		"      --label TEXT       a label stored in the result\n"
		"      --engine NAME      I/O engine: psync (default), io_uring, null, or\n"
		"                         faulty:ENGINE:RULE (fault injection, docs/reliability.md)\n"
		"      --seed N           seed of the synthetic tree and of written data (default 1)\n"
		"      --on-error=MODE    stop (default) or continue after an I/O error\n"
		"      --keep             keep the run directory and the copies\n"
		"  -h, --help             this help\n"
		"\n");
	common_run_usage(f);
	fprintf(f,
		"  (--data applies to --synthetic trees, a tarball writes its own contents;\n"
		"  --repeat N extracts the copies N times, removing them in between; --direct,\n"
		"  --reuse, --warmup and --steady-state do not apply)\n"
		"\n"
		"exit status: 0 ok, 1 I/O errors or copies not finished, 2 usage error or a\n"
		"malformed, truncated or refused archive, 3 system error, 130 interrupted.\n");
}

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

	if (engine_open(&c->eng, "psync", 1) < 0)
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

/* The per-copy table of one phase, and its totals. */
static void copies_text(FILE *f, const struct result_phase *ph, const struct replay_stats *st,
			int removal)
{
	uint64_t per_copy = removal ? st->files + st->symlinks + st->hardlinks + st->dirs + 1
				    : st->files;
	double *secs = xmalloc((ph->nexecs ? ph->nexecs : 1) * sizeof(*secs));
	size_t ndone = 0;
	uint64_t bytes = 0;
	unsigned runs = 1;

	for (size_t i = 0; i < ph->nexecs; i++)
		runs = MAX(runs, ph->execs[i].repeat + 1);
	fprintf(f, "Phase %s, per copy:\n", ph->name);
	if (runs > 1)
		fprintf(f, "%4s ", "run");
	fprintf(f, "%-10s %6s %10s %10s %12s %10s\n", "copy", "thread", "start s", "seconds",
		removal ? "entries/s" : "files/s", "MiB/s");
	for (size_t i = 0; i < ph->nexecs; i++) {
		const struct result_exec *x = &ph->execs[i];
		double s = x->seconds > 0 ? x->seconds : 1e-9;

		if (runs > 1)
			fprintf(f, "%4u ", x->repeat + 1);
		fprintf(f, "%s-%03llu %6d %10.3f %10.3f", COPY_DIR, (unsigned long long)x->index,
			x->thread, x->start, x->seconds);
		if (x->complete && removal) {
			fprintf(f, " %12.1f %10s\n", (double)per_copy / s, "-");
			secs[ndone++] = x->seconds;
		} else if (x->complete) {
			fprintf(f, " %12.1f %10.1f\n", (double)per_copy / s,
				(double)x->bytes / MIB / s);
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
	}
	fputc('\n', f);
	free(secs);
}

static void record_params(struct result *res, const struct run_opts *o, const char *tarball,
			  const char *synthetic, uint64_t copies, unsigned jobs,
			  const struct replay *r, int then_rm, uint64_t max_memory, int spooled,
			  double max_time)
{
	const struct replay_stats *st = &r->st;

	if (tarball)
		kv_add(&res->params, "tarball", "%s", tarball);
	else
		kv_add(&res->params, "synthetic", "%s", synthetic);
	kv_add(&res->params, "copies", "%llu", (unsigned long long)copies);
	kv_add(&res->params, "jobs", "%u", jobs);
	kv_add(&res->params, "fsync", "%s", fsync_name(r->opts.fsync));
	kv_add(&res->params, "then", "%s", then_rm ? "rm" : "none");
	kv_add(&res->params, "write_size", "%u", r->opts.write_size);
	kv_add(&res->params, "max_memory", "%llu", (unsigned long long)max_memory);
	kv_add(&res->params, "spooled", "%s", spooled ? "true" : "false");
	kv_add(&res->params, "max_time", "%g", max_time);
	kv_add(&res->params, "umask", "%04o", (unsigned)r->opts.umask);
	kv_add(&res->params, "engine", "%s", o->engine);
	kv_add(&res->params, "seed", "%llu", (unsigned long long)o->seed);
	common_run_params(&res->params, o);
	if (tarball)
		kv_add(&res->params, "data", "the archive's contents");
	kv_add(&res->params, "on_error", "%s", o->on_error == ON_ERROR_STOP ? "stop" : "continue");
	kv_add(&res->params, "tree.files", "%llu", (unsigned long long)st->files);
	kv_add(&res->params, "tree.dirs", "%llu", (unsigned long long)st->dirs);
	kv_add(&res->params, "tree.symlinks", "%llu", (unsigned long long)st->symlinks);
	kv_add(&res->params, "tree.hardlinks", "%llu", (unsigned long long)st->hardlinks);
	kv_add(&res->params, "tree.bytes", "%llu", (unsigned long long)st->bytes);
	kv_add(&res->params, "tree.skipped", "%llu", (unsigned long long)st->skipped);
	kv_add(&res->params, "tree.size_median", "%llu", (unsigned long long)st->size_median);
	kv_add(&res->params, "tree.size_p99", "%llu", (unsigned long long)st->size_p99);
	kv_add(&res->params, "tree.depth", "%u", st->max_depth);
	kv_add(&res->params, "tree.ops_per_copy", "%zu", r->nops);
}

/* Refuse to start when the copies cannot fit (bytes and inodes; not on
 * a diskless engine such as null, which creates nothing) or the extracting threads
 * cannot run (their memory: `extract`'s buffers and state). */
static int preflight(const struct rundir *rd, const struct replay_stats *st, uint64_t copies,
		     uint64_t spool, const char *engine, const struct wl_thread *extract,
		     uint64_t jobs)
{
	struct preflight_needs n = { .threads = (double)jobs };
	double entries = (double)(st->files + st->dirs + st->symlinks + st->hardlinks + 1);

	if (!(engine_spec_caps(engine) & ENGINE_DISKLESS)) {
		n.bytes = (double)copies * ((double)st->bytes + entries * 512.0);
		n.entries = entries * (double)copies;
	}
	n.memory = (double)jobs * runner_thread_memory(extract);
	snprintf(n.what, sizeof(n.what), "%llu copies", (unsigned long long)copies);
	snprintf(n.memory_detail, sizeof(n.memory_detail), "%llu jobs x %.1f MiB", (unsigned long long)jobs,
		 runner_thread_memory(extract) / MIB);
	snprintf(n.lower_space, sizeof(n.lower_space), "use fewer --copies or another -d%s",
		 spool ? " (the spool file is already written)" : "");
	snprintf(n.lower_inodes, sizeof(n.lower_inodes), "use fewer --copies or another -d");
	snprintf(n.lower_memory, sizeof(n.lower_memory), "use fewer --jobs or a smaller --write-size");
	snprintf(n.lower_threads, sizeof(n.lower_threads), "use fewer --jobs");
	return preflight_check(rd->fd, rd->parent, &n);
}

static uint64_t default_max_memory(void)
{
	uint64_t ram = env_ram_bytes(), lim = 1ull << 30;

	if (ram && ram / 4 < lim)
		lim = ram / 4;
	return lim;
}

int cmd_untar(int argc, char **argv)
{
	enum {
		UT_TARBALL = 0x100, UT_SYNTHETIC, UT_FSYNC, UT_THEN, UT_WRITE_SIZE,
		UT_MAX_MEMORY, UT_MAX_TIME, UT_LIST, UT_JSON, UT_LABEL, UT_ENGINE,
		UT_SEED, UT_ON_ERROR, UT_KEEP,
	};
	static const struct option longopts[] = {
		{ "tarball", required_argument, NULL, UT_TARBALL },
		{ "synthetic", required_argument, NULL, UT_SYNTHETIC },
		{ "copies", required_argument, NULL, 'n' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "fsync", required_argument, NULL, UT_FSYNC },
		{ "then", required_argument, NULL, UT_THEN },
		{ "dir", required_argument, NULL, 'd' },
		{ "write-size", required_argument, NULL, UT_WRITE_SIZE },
		{ "max-memory", required_argument, NULL, UT_MAX_MEMORY },
		{ "max-time", required_argument, NULL, UT_MAX_TIME },
		{ "list", no_argument, NULL, UT_LIST },
		{ "json", required_argument, NULL, UT_JSON },
		{ "label", required_argument, NULL, UT_LABEL },
		{ "engine", required_argument, NULL, UT_ENGINE },
		{ "seed", required_argument, NULL, UT_SEED },
		{ "on-error", required_argument, NULL, UT_ON_ERROR },
		{ "keep", no_argument, NULL, UT_KEEP },
		{ "help", no_argument, NULL, 'h' },
		COMMON_RUN_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { .engine = "psync", .seed = 1, .on_error = ON_ERROR_STOP };
	struct replay_opts ro = { .fsync = REPLAY_FSYNC_NONE, .write_size = DEFAULT_WRITE_SIZE };
	const char *dir = NULL, *json = NULL, *label = NULL, *tarball = NULL, *synthetic = NULL;
	uint64_t copies = 1, jobs = 1, max_memory = default_max_memory(), v;
	double max_time = UNTIL_DONE;
	int keep = 0, list = 0, then_rm = 0, data_given = 0, c, ret = EXIT_OK;
	struct rundir rd = { .fd = -1, .parent_fd = -1 };
	struct contents ct = { .fd = -1 };
	struct replay *r = NULL, *rm = NULL;
	struct workload *w = NULL;
	struct wl_process *prm = NULL;
	struct result *res = NULL;
	struct runner *rn = NULL;
	char err[1024];
	mode_t um;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:n:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case UT_TARBALL:
			tarball = optarg;
			break;
		case UT_SYNTHETIC:
			synthetic = optarg;
			break;
		case 'n':
			if (num_parse_u64(optarg, &copies) < 0 || copies < 1 || copies > 1000000) {
				msg_err("invalid --copies '%s' (expected 1 to 1000000)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			if (num_parse_u64(optarg, &jobs) < 0 || jobs < 1 || jobs > 4096) {
				msg_err("invalid --jobs '%s' (expected 1 to 4096)", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_FSYNC:
			if (!strcmp(optarg, "none"))
				ro.fsync = REPLAY_FSYNC_NONE;
			else if (!strcmp(optarg, "file"))
				ro.fsync = REPLAY_FSYNC_FILE;
			else if (!strcmp(optarg, "dir"))
				ro.fsync = REPLAY_FSYNC_DIR;
			else {
				msg_err("invalid --fsync '%s' (expected none, file or dir)", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_THEN:
			if (strcmp(optarg, "rm")) {
				msg_err("invalid --then '%s' (expected rm)", optarg);
				return EXIT_USAGE;
			}
			then_rm = 1;
			break;
		case 'd':
			dir = optarg;
			break;
		case UT_WRITE_SIZE:
			if (size_parse(optarg, &v) < 0 || v < 1 || v > (64u << 20)) {
				msg_err("invalid --write-size '%s' (expected 1 to 64m)", optarg);
				return EXIT_USAGE;
			}
			ro.write_size = (uint32_t)v;
			break;
		case UT_MAX_MEMORY:
			if (size_parse(optarg, &max_memory) < 0) {
				msg_err("invalid --max-memory '%s' (expected a size: 512m, 2g)", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_MAX_TIME:
			if (duration_parse(optarg, 0, 1, &max_time) < 0) {
				msg_err("invalid --max-time '%s' (expected seconds, above 0 and at most "
					DURATION_MAX_TEXT ")", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_LIST:
			list = 1;
			break;
		case UT_JSON:
			json = optarg;
			break;
		case UT_LABEL:
			label = optarg;
			break;
		case UT_ENGINE:
			if (!engine_find_checked(optarg))
				return EXIT_USAGE;
			o.engine = optarg;
			break;
		case UT_SEED:
			if (num_parse_u64(optarg, &o.seed) < 0) {
				msg_err("invalid seed '%s' (expected a non-negative integer)", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_ON_ERROR:
			if (!strcmp(optarg, "stop"))
				o.on_error = ON_ERROR_STOP;
			else if (!strcmp(optarg, "continue"))
				o.on_error = ON_ERROR_CONTINUE;
			else {
				msg_err("invalid --on-error '%s' (expected stop or continue)", optarg);
				return EXIT_USAGE;
			}
			break;
		case UT_KEEP:
			keep = 1;
			break;
		case 'q':
			common_run_opt(OPT_QUIET, NULL, &o);
			break;
		case 'h':
			untar_usage(stdout);
			return EXIT_OK;
		case OPT_DATA:
			if (common_run_opt(c, optarg, &o) < 0)
				return EXIT_USAGE;
			data_given = 1;
			break;
		default: {
			int rc = common_run_opt(c, optarg, &o);

			if (rc > 0)
				break;
			if (rc == 0)
				fprintf(stderr, "try 'fsgauge untar --help'\n");
			return EXIT_USAGE;
		}
		}
	}
	/* The shared options that mean nothing here are refused, not ignored. */
	if (o.direct) {
		msg_err("--direct does not apply to untar: it writes whole files of any size, as "
			"tar does");
		return EXIT_USAGE;
	}
	if (o.reuse) {
		msg_err("--reuse does not apply to untar: every run extracts fresh copies");
		return EXIT_USAGE;
	}
	if (o.warmup > 0 || o.steady_pct > 0) {
		msg_err("--warmup and --steady-state do not apply to untar: its phases run until "
			"the copies are done (use --copies or --repeat)");
		return EXIT_USAGE;
	}
	if (common_run_check(&o) < 0 || (json && outfile_check(json, "JSON result") < 0) ||
	    (json && !strcmp(json, "-") && outfile_claim_stdout() < 0))
		return EXIT_USAGE;
	if (optind < argc) {
		msg_err("unexpected argument '%s' (the archive goes after --tarball)", argv[optind]);
		return EXIT_USAGE;
	}
	if (!tarball == !synthetic) {
		msg_err("untar needs exactly one of --tarball FILE and --synthetic NAME");
		return EXIT_USAGE;
	}
	const struct synthetic_preset *preset = NULL;

	if (synthetic) {
		preset = synthetic_tree_find(synthetic);
		if (!preset) {
			size_t n;
			const struct synthetic_preset *p = synthetic_tree_presets(&n);
			char names[256] = "";

			for (size_t i = 0; i < n; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 i ? ", " : "", p[i].name);
			msg_err("unknown synthetic tree '%s' (available: %s)", synthetic, names);
			return EXIT_USAGE;
		}
	}
	if (tarball && !tarball_supported()) {
		tarball_unsupported(tarball, err, sizeof(err));
		msg_err("%s", err);
		return EXIT_USAGE;
	}
	if (tarball && data_given) {
		msg_err("--data applies to --synthetic trees; a tarball's files are written with "
			"their own contents");
		return EXIT_USAGE;
	}
	if (jobs > copies)
		jobs = copies;
	um = umask(0);
	umask(um);
	ro.umask = um;
	r = replay_new(&ro);

	if (list) {
		if (synthetic)
			ret = synthetic_tree_build(preset, o.seed, r, err, sizeof(err));
		else
			ret = tarball_load(tarball, r, NULL, &v, err, sizeof(err));
		if (ret < 0) {
			msg_err("%s", err);
			ret = EXIT_USAGE;
			goto out;
		}
		replay_finish(r);
		print_list(r);
		ret = EXIT_OK;
		goto out;
	}

	runner_install_signals();
	int rc = rundir_create(&rd, dir, o.allow_shared_target ? RUNDIR_ALLOW_SHARED : 0);

	if (rc < 0) {
		ret = rundir_create_status(rc);
		goto out;
	}
	if (!o.quiet)
		fprintf(stderr, "run directory: %s\n", rd.path);
	if (synthetic) {
		ret = synthetic_tree_build(preset, o.seed, r, err, sizeof(err));
	} else {
		struct tarball_sink sink = { contents_put, &ct };

		ct.limit = max_memory;
		ct.dirfd = rd.fd;
		ct.dirpath = rd.path;
		if (!o.quiet)
			fprintf(stderr, "reading '%s'...\n", tarball);
		ret = tarball_load(tarball, r, &sink, &v, err, sizeof(err));
	}
	if (ret < 0 && (ret == -EINTR || runner_signalled())) {
		/* stopped by a signal while reading the archive (a FIFO whose
		 * writer is slow or absent): nothing ran, but --json still gets
		 * a result that says it was interrupted */
		msg_err("%s", err);
		ret = EXIT_INTERRUPTED;
		res = result_new("untar", tarball);
		res->label = label ? xstrdup(label) : NULL;
		res->engine = xstrdup(o.engine);
		res->seed = o.seed;
		res->interrupted = 1;
		if (rundir_remove(&rd) < 0)
			ret = EXIT_SYSTEM;
		if (json && output_json_file(res, json) < 0)
			ret = EXIT_SYSTEM;
		goto out;
	}
	if (ret < 0) {
		msg_err("%s", err);
		/* a bad archive or a wrong name is the user's to fix */
		ret = ret == -EINVAL || ret == -ENOTSUP || ret == -ENOENT || ret == -EACCES ||
				      ret == -EISDIR || ret == -ENOTDIR || ret == -ELOOP
			      ? EXIT_USAGE
			      : EXIT_SYSTEM;
		goto out;
	}
	replay_finish(r);
	contents_touch(&ct);
	r->data = ct.mem;
	r->data_fd = ct.fd;
	r->data_size = ct.size;
	if (!o.quiet) {
		tree_summary(stderr, tarball ? "archive" : "synthetic tree", &r->st);
		if (ct.fd >= 0)
			fprintf(stderr, "contents: %.1f MiB in a spool file (more than --max-memory)\n",
				(double)ct.size / MIB);
	}
	w = wl_new("untar");
	struct wl_process *pun = wl_add_process(w, "untar", 1);
	struct wl_thread *t = wl_add_thread(pun, "extract", (int64_t)jobs,
					    MAX((int64_t)ro.write_size, 4096));

	wl_add_replay(t, "untar", r, (int64_t)copies, COPY_DIR);
	if (preflight(&rd, &r->st, copies, ct.fd >= 0, o.engine, t, jobs) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (then_rm) {
		rm = replay_removal(r);
		prm = wl_new_process("rm", 1);
		t = wl_add_thread(prm, "remove", (int64_t)jobs, 4096);
		wl_add_replay(t, "rm", rm, (int64_t)copies, COPY_DIR);
	}

	res = result_new("untar", tarball ? tarball : synthetic);
	res->label = label ? xstrdup(label) : NULL;
	res->engine = xstrdup(o.engine);
	res->seed = o.seed;
	record_params(res, &o, tarball, synthetic, copies, (unsigned)jobs, r, then_rm, max_memory,
		      ct.fd >= 0, max_time);
	env_capture(&res->env, rd.parent);

	unsigned nrep = o.repeat > 1 ? o.repeat : 1;
	int rr = 0;

	for (unsigned k = 0; k < nrep && !runner_signalled(); k++) {
		struct result *one = nrep > 1 ? result_new("untar", res->workload) : res;

		if (nrep > 1 && !o.quiet)
			fprintf(stderr, "Repeat %u of %u\n", k + 1, nrep);
		if (k > 0 && !then_rm) {
			/* the previous run's copies go, unmeasured */
			rr = rundir_empty(rd.fd);
			if (rr < 0) {
				err_errno(rr, "cannot empty run directory '%s' between repeats", rd.path);
				if (one != res)
					result_free(one);
				break;
			}
		}
		rn = runner_new(w, &rd, &o, one);
		rr = runner_create_filesets(rn);
		if (rr == 0)
			rr = runner_phase(rn, "untar", &pun, 1, max_time);
		if (rr == 0 && then_rm && (one->errors || one->stopped_on_error))
			msg_warn("no rm phase: extracting failed (the copies are removed unmeasured)");
		if (rr == 0 && then_rm && !one->errors && !one->stopped_on_error &&
		    !one->interrupted) {
			if (one->nphases && one->phases[0].nexecs < copies)
				msg_warn("not removing: only %zu of %llu copies were extracted",
					 one->phases[0].nexecs, (unsigned long long)copies);
			else
				rr = runner_phase(rn, "rm", &prm, 1, max_time);
		}
		runner_free(rn);
		rn = NULL;
		if (one != res) {
			result_merge_repeat(res, one);
			result_free(one);
		}
		if (rr < 0 || res->errors || res->stopped_on_error || res->interrupted)
			break;
	}
	if (runner_signalled())
		res->interrupted = 1; /* also when it came before a phase began */
	contents_free(&ct);
	/* the run directory goes first: on a full file system its space is
	 * what lets the results be written */
	if (rundir_finish(&rd, keep, 1) < 0)
		ret = EXIT_SYSTEM;

	if (rr < 0 && !res->nphases && !res->interrupted) {
		ret = rr == -EINTR ? EXIT_INTERRUPTED : EXIT_SYSTEM;
	} else {
		for (size_t i = 0; i < res->nphases; i++)
			copies_text(stdout, &res->phases[i], &r->st, i > 0);
		output_text(stdout, res);
		fflush(stdout);
		if (res->interrupted) {
			ret = EXIT_INTERRUPTED;
		} else if (res->errors || res->stopped_on_error) {
			ret = EXIT_RUN_ERRORS;
		} else {
			for (size_t i = 0; i < res->nphases; i++) {
				uint64_t done = 0, want = copies * nrep;

				for (size_t x = 0; x < res->phases[i].nexecs; x++)
					done += (uint64_t)res->phases[i].execs[x].complete;
				if (done < want) {
					char key[64];

					snprintf(key, sizeof(key), "incomplete.%s", res->phases[i].name);
					kv_add(&res->params, key, "%llu of %llu copies finished",
					       (unsigned long long)done, (unsigned long long)want);
					msg_err("phase %s: only %llu of %llu copies finished within "
						"--max-time %g",
						res->phases[i].name, (unsigned long long)done,
						(unsigned long long)want, max_time);
					ret = EXIT_RUN_ERRORS;
				}
			}
		}
	}
	if (json && (res->nphases || res->interrupted) && output_json_file(res, json) < 0 && !ret)
		ret = EXIT_SYSTEM;
out:
	contents_free(&ct);
	if (rd.fd >= 0) {
		/* failed before running: nothing of ours worth keeping */
		if (rundir_remove(&rd) < 0 && !ret)
			ret = EXIT_SYSTEM;
	}
	runner_free(rn);
	result_free(res);
	workload_free(w);
	wl_process_free(prm);
	replay_free(rm);
	replay_free(r);
	return ret;
}
