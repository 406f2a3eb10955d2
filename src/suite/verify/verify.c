/*
 * verify.c — the `verify` suite: write files of self-checking blocks
 * (runner/verify.h) in a fresh run directory, fsync them, drop them from
 * the page cache (all caches when root, the files' own pages otherwise),
 * read them back and compare every byte with what was written.  Each
 * mismatch is reported with the file, the exact offset, what was expected
 * and what was found.
 *
 * It has no workload model: s->w stays NULL, so the session makes no
 * runner and verify_run() does the I/O through an engine of its own.  It
 * writes no result file (--json and --label are refused): its verdict is
 * the "verified N files of M bytes: K bad" line and the exit status.
 *
 * Two-step use, for tests and for checking data across a reboot or a
 * remount: `verify --write-only` leaves the run directory (with a manifest
 * of what it wrote) and prints its path; `verify --check-only DIR` adopts
 * it (s->adopt), checks it, then removes the files the manifest lists, the
 * manifest and the marker, and the directory only if nothing else is in
 * it (verify_finish_rundir()).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/shared.h"
#include "engine/engine.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "runner/verify.h"
#include "suite/suite.h"
#include "util/display.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"

#define MANIFEST "verify.manifest"
#define CHUNK (1u << 20)
#define PRINT_MAX 20
#define SIZE_MAX_BYTES (1ull << 50) /* 1 PiB per file */

struct vparams {
	uint64_t files, size, seed;
};

static int write_manifest(int dirfd, const struct vparams *p)
{
	int fd = openat(dirfd, MANIFEST, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (dprintf(fd, "fsgauge verify\nfiles %llu\nsize %llu\nseed %llu\n",
		    (unsigned long long)p->files, (unsigned long long)p->size,
		    (unsigned long long)p->seed) < 0)
		ret = errno ? -errno : -EIO;
	if (fsync(fd) < 0 && !ret)
		ret = -errno;
	close(fd);
	return ret;
}

/* Open a file of the run directory that the manifest names (or the
 * manifest) for reading, refusing anything but a regular file: the
 * directory is the user's to hand over, and a FIFO would block the open
 * (hence O_NONBLOCK, cleared once the file is known to be regular), a
 * device would be read.  The descriptor, or -errno; -EINVAL with *kind
 * set to what it is ("a FIFO") when it is not a regular file. */
static int open_listed(int dirfd, const char *name, const char **kind)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	int e;

	*kind = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		e = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		*kind = display_file_kind(st.st_mode);
		e = -EINVAL;
	} else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = -errno;
	} else {
		return fd;
	}
	close(fd);
	return e;
}

/* Read the manifest of the run directory `path` (messages name it).
 * 0, or -EINVAL after a message. */
static int read_manifest(int dirfd, const char *path, struct vparams *p)
{
	const char *kind;
	int fd = open_listed(dirfd, MANIFEST, &kind);
	char buf[512];
	ssize_t n;
	unsigned long long f, s, sd;

	if (kind) {
		msg_err("'%s/%s' is %s, not a regular file: not written by 'fsgauge verify "
			"--write-only'",
			path, MANIFEST, kind);
		return -EINVAL;
	}
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		goto bad;
	buf[n] = 0;
	if (sscanf(buf, "fsgauge verify\nfiles %llu\nsize %llu\nseed %llu", &f, &s, &sd) != 3 ||
	    !f || s % DATA_BLOCK)
		goto bad;
	p->files = f;
	p->size = s;
	p->seed = sd;
	return 0;
bad:
	msg_err("'%s' has no valid %s: not written by 'fsgauge verify --write-only'", path,
		MANIFEST);
	return -EINVAL;
}

/* Whether `name` is one of the entries the manifest of *arg (a struct
 * vparams) stands for: the manifest itself and the files v0 ... v<files-1>
 * (as write_files() names them: no leading zeros). */
static int manifest_lists(const char *name, void *arg)
{
	const struct vparams *p = arg;
	unsigned long long i;
	char *end;

	if (!strcmp(name, MANIFEST))
		return 1;
	if (name[0] != 'v' || !isdigit((unsigned char)name[1]) || (name[1] == '0' && name[2]))
		return 0;
	errno = 0;
	i = strtoull(name + 1, &end, 10);
	return !*end && !errno && i < p->files;
}

/* What the run needs of the target, for the session's preflight: bytes
 * (the files and a block for the manifest) and inodes (the files and the
 * manifest); it refuses to start when they do not fit. */
static void fill_needs(const struct vparams *p, struct preflight_needs *n)
{
	char size[32];

	n->bytes = (double)p->files * (double)p->size + DATA_BLOCK;
	n->entries = (double)p->files + 1;
	n->memory = CHUNK;
	snprintf(n->what, sizeof(n->what), "%llu files of %s and a manifest",
		 (unsigned long long)p->files, size_format(p->size, size, sizeof(size)));
	snprintf(n->lower_space, sizeof(n->lower_space),
		 "use a smaller -s, fewer files (-n) or another -d");
	snprintf(n->lower_inodes, sizeof(n->lower_inodes), "use fewer files (-n) or another -d");
}

static int write_files(struct engine *e, int dirfd, const struct vparams *p, void *buf)
{
	for (uint64_t i = 0; i < p->files && !runner_signalled(); i++) {
		char name[32];
		struct io_req q;
		int64_t fd, r = 0;

		snprintf(name, sizeof(name), "v%llu", (unsigned long long)i);
		q = (struct io_req){ .op = IO_OPEN, .dirfd = dirfd, .path = name,
				     .flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, .mode = 0644 };
		fd = engine_exec_full(e, &q);
		if (fd < 0)
			return err_errno((int)fd, "cannot create '%s'", name);
		for (uint64_t off = 0; off < p->size && r >= 0; off += CHUNK) {
			size_t n = (size_t)MIN((uint64_t)CHUNK, p->size - off);

			verify_stamp(buf, n, off, i, 1, p->seed);
			q = (struct io_req){ .op = IO_WRITE, .fd = (int)fd, .buf = buf, .len = n,
					     .off = off };
			r = engine_exec_full(e, &q);
			if (r < 0)
				err_errno((int)r, "cannot write '%s' at offset %llu", name,
					  (unsigned long long)off);
		}
		if (r >= 0) {
			q = (struct io_req){ .op = IO_FSYNC, .fd = (int)fd };
			r = engine_exec_full(e, &q);
			if (r < 0)
				err_errno((int)r, "cannot fsync '%s'", name);
		}
		q = (struct io_req){ .op = IO_CLOSE, .fd = (int)fd };
		engine_exec(e, &q);
		if (r < 0)
			return (int)r;
	}
	return runner_signalled() ? -EINTR : 0;
}

/* Drop what we wrote from the page cache so that the reads come from the
 * storage: all clean caches when root, else each file's own pages. */
static void drop_caches(int dirfd, const struct vparams *p, int quiet)
{
	const char *step;

	if (runner_drop_caches_try(0, &step) == 0) {
		if (!quiet)
			fprintf(stderr, "dropped the page cache\n");
		return;
	}
	for (uint64_t i = 0; i < p->files; i++) {
		char name[32];
		struct stat st;
		int f;

		snprintf(name, sizeof(name), "v%llu", (unsigned long long)i);
		/* only regular files (the check reports anything else);
		 * O_NONBLOCK: a FIFO put in place in between must not block */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		f = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f < 0)
			continue;
		posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED);
		close(f);
	}
	if (!quiet)
		fprintf(stderr, "not root: evicted only the files' own pages from the cache\n");
}

/* Open data file `name` of the run directory for reading, through the
 * engine, with its status in *st; or, after a message, -errno.  Anything
 * but a regular file in its place is reported as a verify error (the data
 * is not there, as when the file is missing): looked at before it is
 * opened, so that a device is never opened, and again on the descriptor,
 * opened with O_NONBLOCK so that a FIFO put there in between cannot
 * block the check waiting for a writer. */
static int64_t open_data_file(struct engine *e, int dirfd, const char *dirpath, const char *name,
			      struct stat *st)
{
	struct io_req q = { .op = IO_STAT, .dirfd = dirfd, .path = name, .st = st };
	int64_t fd, r;

	r = engine_exec_full(e, &q);
	if (r == 0 && !S_ISREG(st->st_mode))
		goto not_regular;
	q = (struct io_req){ .op = IO_OPEN, .dirfd = dirfd, .path = name,
			     .flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK };
	fd = engine_exec_full(e, &q);
	if (fd < 0)
		return err_errno((int)fd, "cannot open '%s/%s'", dirpath, name);
	q = (struct io_req){ .op = IO_FSTAT, .fd = (int)fd, .st = st };
	r = engine_exec_full(e, &q);
	if (r < 0)
		err_errno((int)r, "cannot stat '%s/%s'", dirpath, name);
	else if (!S_ISREG(st->st_mode))
		r = -EINVAL;
	else if (fcntl((int)fd, F_SETFL, fcntl((int)fd, F_GETFL) & ~O_NONBLOCK) < 0)
		r = err_errno(-errno, "cannot clear O_NONBLOCK on '%s/%s'", dirpath, name);
	else
		return fd;
	q = (struct io_req){ .op = IO_CLOSE, .fd = (int)fd };
	engine_exec(e, &q);
	if (r != -EINVAL)
		return r;
not_regular:
	msg_err("verify error: '%s/%s' is %s, not a regular file", dirpath, name,
		display_file_kind(st->st_mode));
	return -EINVAL;
}

/* Check every file; returns the number of bad blocks (or problems), or
 * -errno when the files cannot be read at all. */
static int64_t check_files(struct engine *e, int dirfd, const struct vparams *p, void *buf,
			   const char *dirpath)
{
	unsigned char want[DATA_BLOCK];
	int64_t bad = 0;

	for (uint64_t i = 0; i < p->files && !runner_signalled(); i++) {
		char name[32];
		struct stat st;
		struct io_req q;
		int64_t fd;
		uint64_t off = 0;

		snprintf(name, sizeof(name), "v%llu", (unsigned long long)i);
		fd = open_data_file(e, dirfd, dirpath, name, &st);
		if (fd < 0) {
			bad++;
			continue;
		}
		if ((uint64_t)st.st_size != p->size) {
			if (bad++ < PRINT_MAX)
				msg_err("verify error: '%s/%s' %s at offset %llu: expected %llu bytes, "
					"found %llu",
					dirpath, name,
					(uint64_t)st.st_size < p->size ? "truncated" : "extended",
					(unsigned long long)MIN((uint64_t)st.st_size, p->size),
					(unsigned long long)p->size, (unsigned long long)st.st_size);
		}
		while (off < p->size) {
			size_t n = (size_t)MIN((uint64_t)CHUNK, p->size - off);
			int64_t r;

			q = (struct io_req){ .op = IO_READ, .fd = (int)fd, .buf = buf, .len = n,
					     .off = off };
			r = engine_exec_full(e, &q);
			if (r < 0) {
				err_errno((int)r, "cannot read '%s/%s' at offset %llu", dirpath, name,
					  (unsigned long long)off);
				bad++;
				break;
			}
			for (size_t o = 0; o + DATA_BLOCK <= (size_t)r; o += DATA_BLOCK) {
				struct verify_mismatch m;
				char what[256];

				verify_make_block(want, off + o, i, 1, p->seed);
				if (verify_block((char *)buf + o, off + o, i, want, &m) == VERIFY_OK)
					continue;
				verify_describe(&m, what, sizeof(what));
				if (bad++ < PRINT_MAX)
					msg_err("verify error: '%s/%s' at offset %llu: %s", dirpath, name,
						(unsigned long long)m.offset, what);
			}
			if ((size_t)r < n)
				break; /* end of file: reported above */
			off += n;
		}
		q = (struct io_req){ .op = IO_CLOSE, .fd = (int)fd };
		engine_exec(e, &q);
	}
	if (bad > PRINT_MAX)
		msg_err("%lld verify errors in all (the first %d printed)", (long long)bad, PRINT_MAX);
	return bad;
}

/* The suite's state (s->ctx). */
struct verify_suite {
	struct vparams p;
	const char *check_dir;	/* --check-only DIR */
	int write_only;
	const char *layout_opt;	/* the last of -n, -s and --seed given */
	int written;		/* --write-only: the files are all there */
	int checked;		/* the check ran: the verdict is known */
	int64_t bad;		/* what it found */
};

enum {
	VERIFY_FILES = 'n',
	VERIFY_SIZE = 's',
	VERIFY_SEED = OPT_OWN,
	VERIFY_WRITE_ONLY,
	VERIFY_CHECK_ONLY,
};

static const struct suite_opt verify_opts[] = {
	{ "files", 'n', VERIFY_FILES, OPTARG_REQUIRED, "N",
	  "number of files (default 4, at most 1000000)" },
	{ "size", 's', VERIFY_SIZE, OPTARG_REQUIRED, "SIZE",
	  "size of each file, rounded up to 4 KiB (default 1m,\nat most 1p); refused when the "
	  "files do not fit in\nthe target's free space" },
	{ "seed", 0, VERIFY_SEED, OPTARG_REQUIRED, "N", "seed of the content (default 1)" },
	{ "write-only", 0, VERIFY_WRITE_ONLY, OPTARG_NONE, NULL,
	  "write and keep the run directory; print its path" },
	{ "check-only", 0, VERIFY_CHECK_ONLY, OPTARG_REQUIRED, "DIR",
	  "check a run directory left by --write-only, with the\n-n, -s and --seed its manifest "
	  "records (giving them\nis an error), then remove the files the manifest\nlists, the "
	  "manifest and the marker, and DIR only if\nthat empties it (anything else is left, "
	  "with a\nwarning)" },
	{ 0 },
};

static const struct suite_refusal verify_refused[] = {
	{ SH_JSON, "--json does not apply to verify: it writes no result; its verdict is the "
		   "'verified' line and the exit status" },
	{ SH_LABEL, "--label does not apply to verify: it writes no result to label" },
	{ 0 },
};

static struct verify_suite *ctx(struct suite_session *s)
{
	return s->ctx;
}

static int parse_size(const char *arg, uint64_t *size)
{
	int r = size_parse(arg, size);

	if (r == -EINVAL) {
		msg_err("invalid -s '%s' (expected a size such as 64k or 1g)", arg);
		return EXIT_USAGE;
	}
	if (r < 0 || *size > SIZE_MAX_BYTES) {
		msg_err("invalid -s '%s': too large (at most 1p, 1 PiB per file)", arg);
		return EXIT_USAGE;
	}
	if (!*size) {
		msg_err("invalid -s '%s' (expected at least 1 byte, such as 64k or 1g)", arg);
		return EXIT_USAGE;
	}
	*size = verify_align_up(*size);
	return EXIT_OK;
}

static int verify_option(struct suite_session *s, int key, const char *arg, int argc,
			 char **argv)
{
	struct verify_suite *v = ctx(s);

	(void)argc;
	(void)argv;
	switch (key) {
	case VERIFY_FILES:
		if (num_parse_u64(arg, &v->p.files) < 0 || !v->p.files || v->p.files > 1000000) {
			msg_err("invalid -n '%s' (expected a number of files from 1 to 1000000)", arg);
			return EXIT_USAGE;
		}
		v->layout_opt = "-n";
		return EXIT_OK;
	case VERIFY_SIZE:
		v->layout_opt = "-s";
		return parse_size(arg, &v->p.size);
	case VERIFY_SEED:
		if (num_parse_u64(arg, &v->p.seed) < 0) {
			msg_err("invalid --seed '%s' (expected a non-negative integer)", arg);
			return EXIT_USAGE;
		}
		s->ro.seed = v->p.seed;
		v->layout_opt = "--seed";
		return EXIT_OK;
	case VERIFY_WRITE_ONLY:
		v->write_only = 1;
		return EXIT_OK;
	case VERIFY_CHECK_ONLY:
		v->check_dir = arg;
		return EXIT_OK;
	default:
		return EXIT_USAGE;
	}
}

static void verify_init(struct suite_session *s)
{
	ctx(s)->p = (struct vparams){ .files = 4, .size = 1 << 20, .seed = 1 };
}

static int verify_check(struct suite_session *s, int argc, char **argv)
{
	struct verify_suite *v = ctx(s);

	if (argc > 0) {
		msg_err("unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	if (v->write_only && v->check_dir) {
		msg_err("--write-only and --check-only exclude each other");
		return EXIT_USAGE;
	}
	if (v->check_dir && s->dir) {
		msg_err("--check-only names the run directory itself; -d does not apply");
		return EXIT_USAGE;
	}
	if (v->check_dir && v->layout_opt) {
		msg_err("%s does not apply to --check-only: the manifest of the run directory "
			"decides the number of files, their size and the seed",
			v->layout_opt);
		return EXIT_USAGE;
	}
	if (shared_engine_stores_nothing(s->ro.engine)) {
		msg_err("verify needs an engine that stores data: the null engine reads back "
			"nothing it was given");
		return EXIT_USAGE;
	}
	s->adopt = v->check_dir;
	s->chatter = 0; /* its own messages say where it writes */
	return EXIT_OK;
}

/* With the run directory made (or adopted): what the check needs to know
 * (the manifest), or what the write needs of the target (the preflight). */
static int verify_plan(struct suite_session *s)
{
	struct verify_suite *v = ctx(s);

	if (v->check_dir) {
		if (read_manifest(s->rd->fd, v->check_dir, &v->p) < 0)
			return EXIT_USAGE;
		s->ro.seed = v->p.seed;
		return EXIT_OK;
	}
	fill_needs(&v->p, &s->needs);
	s->has_needs = 1;
	return EXIT_OK;
}

/* Write the manifest and the files.  0 to go on, 1 when the run ended
 * here (with s->status or `one` saying how), -EINTR. */
static int write_step(struct suite_session *s, struct engine *e, void *buf, struct result *one)
{
	struct verify_suite *v = ctx(s);
	int r = write_manifest(s->rd->fd, &v->p);

	if (r < 0) {
		/* before any data: a system error, not one the run met */
		err_errno(r, "cannot write '%s/%s'", s->rd->path, MANIFEST);
		s->status = EXIT_SYSTEM;
		return 1;
	}
	if (!s->ro.quiet)
		fprintf(stderr, "writing %llu files of %llu bytes in %s\n",
			(unsigned long long)v->p.files, (unsigned long long)v->p.size, s->rd->path);
	r = write_files(e, s->rd->fd, &v->p, buf);
	if (r == -EINTR)
		return r;
	if (r < 0) {
		/* an I/O error of the run: exit 1 */
		one->errors++;
		one->stopped_on_error = 1;
		return 1;
	}
	if (v->write_only) {
		printf("run directory: %s\n", s->rd->path);
		v->written = 1;
		return 1;
	}
	return 0;
}

/* The one run: write (unless --check-only), drop the cache, check.  The
 * engine and the buffer are its own (no runner); a failure to get them is
 * a system error, in s->status, before anything is written. */
static int verify_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct verify_suite *v = ctx(s);
	struct engine *e = NULL;
	void *buf = NULL;
	int r = 0;

	(void)rn;
	if (engine_open(&e, s->ro.engine, 1) < 0) {
		s->status = EXIT_SYSTEM;
		return 0;
	}
	if (posix_memalign(&buf, 4096, CHUNK)) {
		msg_err("cannot allocate an I/O buffer");
		s->status = EXIT_SYSTEM;
		buf = NULL;
		goto out;
	}
	if (!v->check_dir) {
		r = write_step(s, e, buf, one);
		if (r != 0)
			goto out;
	}
	drop_caches(s->rd->fd, &v->p, s->ro.quiet);
	v->bad = check_files(e, s->rd->fd, &v->p, buf, s->rd->path);
	v->checked = 1;
	one->verify_errors += (uint64_t)v->bad;
out:
	free(buf);
	engine_close(e);
	return r < 0 ? r : 0;
}

static void verify_report(struct suite_session *s, struct result *acc)
{
	const struct verify_suite *v = ctx(s);

	(void)acc;
	if (v->checked)
		printf("verified %llu files of %llu bytes: %lld bad\n",
		       (unsigned long long)v->p.files, (unsigned long long)v->p.size,
		       (long long)v->bad);
}

/* The run directory: kept with --keep and after --write-only wrote it
 * all (its path is on stdout then); an adopted one kept until it was
 * checked, and then only what its manifest stands for removed; else
 * removed.  0 or -errno. */
static int verify_finish_rundir(struct suite_session *s, struct rundir *rd)
{
	struct verify_suite *v = ctx(s);
	int r;

	if (s->keep || v->written || (v->check_dir && !v->checked))
		return rundir_finish(rd, 1, !v->write_only);
	if (!v->check_dir)
		return rundir_finish(rd, 0, 0);
	r = rundir_remove_ours(rd, manifest_lists, &v->p);
	return r < 0 ? r : 0;
}

const struct suite_ops suite_verify = {
	.name = "verify",
	.one_target = "verify writes and checks its files in one directory",
	.synopsis = "fsgauge verify [options]\n"
		    "       fsgauge verify --write-only [options]\n"
		    "       fsgauge verify --check-only RUNDIR",
	.about = "Writes files of self-checking 4 KiB blocks (file, offset, generation and seed\n"
		 "in a header, XXH3 checksum) in a fresh run directory, fsyncs them, drops the\n"
		 "page cache (root; otherwise the files' own cached pages), reads them back and\n"
		 "reports every block that differs: file, exact offset, expected and found.",
	.opts = verify_opts,
	.shared = SH_DIR | SH_ENGINE | SH_KEEP | SH_QUIET | SH_SHARED_TARGET,
	.refused = verify_refused,
	.help_extra = "The null engine (alone or under faulty:) is refused: it stores nothing to\n"
		      "read back.  verify writes no result file: its verdict is the 'verified'\n"
		      "line on stdout and the exit status.\n",
	.exit_help = "exit status: 0 all data read back intact; 1 the run started and found\n"
		     "mismatches or met an I/O error writing or reading the files; 2 usage error\n"
		     "or refused before writing (bad target, not enough free space); 3 system\n"
		     "error (such as a manifest that cannot be written); 130 interrupted.\n",
	.ctx_size = sizeof(struct verify_suite),
	.init = verify_init,
	.option = verify_option,
	.check = verify_check,
	.plan = verify_plan,
	.run = verify_run,
	.report = verify_report,
	.finish_rundir = verify_finish_rundir,
};
