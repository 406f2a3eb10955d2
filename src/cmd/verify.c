/*
 * verify.c — `fsgauge verify`: write files of self-checking blocks
 * (runner/verify.h) in a fresh run directory, fsync them, drop them from
 * the page cache (all caches when root, the files' own pages otherwise),
 * read them back and compare every byte with what was written.  Each
 * mismatch is reported with the file, the exact offset, what was expected
 * and what was found.
 *
 * Two-step use, for tests and for checking data across a reboot or a
 * remount: `verify --write-only` leaves the run directory (with a manifest
 * of what it wrote) and prints its path; `verify --check-only DIR` checks
 * it, then removes the files the manifest lists, the manifest and the
 * marker, and the directory only if nothing else is in it.
 */
#include <ctype.h>
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
#include "runner/preflight.h"
#include "runner/runner.h"
#include "runner/verify.h"
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

static void verify_usage(FILE *f)
{
	fprintf(f, "usage: fsgauge verify [options]\n"
		   "       fsgauge verify --write-only [options]\n"
		   "       fsgauge verify --check-only RUNDIR\n"
		   "\n"
		   "Writes files of self-checking 4 KiB blocks (file, offset, generation and seed\n"
		   "in a header, XXH3 checksum) in a fresh run directory, fsyncs them, drops the\n"
		   "page cache (root; otherwise the files' own cached pages), reads them back and\n"
		   "reports every block that differs: file, exact offset, expected and found.\n"
		   "\n"
		   "options:\n"
		   "  -d, --dir DIR          target directory (default: $TMPDIR or /tmp)\n"
		   "  -n, --files N          number of files (default 4, at most 1000000)\n"
		   "  -s, --size SIZE        size of each file, rounded up to 4 KiB (default 1m,\n"
		   "                         at most 1p); refused when the files do not fit in\n"
		   "                         the target's free space\n"
		   "      --seed N           seed of the content (default 1)\n"
		   "      --engine NAME      I/O engine (default psync; not null, which stores\n"
		   "                         nothing to read back)\n"
		   "      --write-only       write and keep the run directory; print its path\n"
		   "      --check-only DIR   check a run directory left by --write-only, with the\n"
		   "                         -n, -s and --seed its manifest records (giving them\n"
		   "                         is an error), then remove the files the manifest\n"
		   "                         lists, the manifest and the marker, and DIR only if\n"
		   "                         that empties it (anything else is left, with a\n"
		   "                         warning)\n"
		   "      --keep             keep the run directory\n"
		   "  -q, --quiet            no progress messages\n"
		   "  -h, --help             this help\n");
	common_shared_target_usage(f);
	fprintf(f, "\n"
		   "exit status: 0 all data read back intact; 1 the run started and found\n"
		   "mismatches or met an I/O error writing or reading the files; 2 usage error\n"
		   "or refused before writing (bad target, not enough free space); 3 system\n"
		   "error (such as a manifest that cannot be written); 130 interrupted.\n");
}

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

/* Refuse to start when the files cannot fit in the target: bytes (the
 * files and a block for the manifest) and inodes (the files and the
 * manifest).  0, or -errno after a message. */
static int preflight(const struct rundir *rd, const struct vparams *p)
{
	struct preflight_needs n = {
		.bytes = (double)p->files * (double)p->size + DATA_BLOCK,
		.entries = (double)p->files + 1,
		.memory = CHUNK,
	};
	char size[32];

	snprintf(n.what, sizeof(n.what), "%llu files of %s and a manifest",
		 (unsigned long long)p->files, size_format(p->size, size, sizeof(size)));
	snprintf(n.lower_space, sizeof(n.lower_space),
		 "use a smaller -s, fewer files (-n) or another -d");
	snprintf(n.lower_inodes, sizeof(n.lower_inodes), "use fewer files (-n) or another -d");
	return preflight_check(rd->fd, rd->parent, &n);
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
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	if (fd >= 0 && write(fd, "3\n", 2) == 2) {
		close(fd);
		if (!quiet)
			fprintf(stderr, "dropped the page cache\n");
		return;
	}
	if (fd >= 0)
		close(fd);
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

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "files", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "engine", required_argument, NULL, 'E' },
		{ "write-only", no_argument, NULL, 'W' },
		{ "check-only", required_argument, NULL, 'C' },
		{ "keep", no_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "allow-shared-target", no_argument, NULL, OPT_ALLOW_SHARED_TARGET },
		{ NULL, 0, NULL, 0 },
	};
	struct vparams p = { .files = 4, .size = 1 << 20, .seed = 1 };
	const char *dir = NULL, *check_dir = NULL, *engine = "psync";
	int write_only = 0, keep = 0, quiet = 0, checked = 0, c, r, ret = EXIT_OK;
	unsigned rd_flags = 0;
	const char *layout_opt = NULL; /* the last of -n, -s and --seed given */
	struct rundir rd = { .fd = -1, .parent_fd = -1 };
	struct engine *e = NULL;
	void *buf = NULL;
	int64_t bad;

	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed option bundle */
	while ((c = getopt_long(argc, argv, "d:n:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			if (num_parse_u64(optarg, &p.files) < 0 || !p.files || p.files > 1000000) {
				msg_err("invalid number of files '%s' (expected 1 to 1000000)", optarg);
				return EXIT_USAGE;
			}
			layout_opt = "-n";
			break;
		case 's':
			r = size_parse(optarg, &p.size);
			if (r == -EINVAL) {
				msg_err("invalid size '%s' (expected a size such as 64k or 1g)", optarg);
				return EXIT_USAGE;
			}
			if (r < 0 || p.size > SIZE_MAX_BYTES) {
				msg_err("invalid size '%s': too large (at most 1p, 1 PiB per file)",
					optarg);
				return EXIT_USAGE;
			}
			if (!p.size) {
				msg_err("invalid size '%s' (expected at least 1 byte, such as 64k or 1g)",
					optarg);
				return EXIT_USAGE;
			}
			p.size = verify_align_up(p.size);
			layout_opt = "-s";
			break;
		case 'S':
			if (num_parse_u64(optarg, &p.seed) < 0) {
				msg_err("invalid seed '%s' (expected a non-negative integer)", optarg);
				return EXIT_USAGE;
			}
			layout_opt = "--seed";
			break;
		case 'E':
			if (!engine_find_checked(optarg))
				return EXIT_USAGE;
			engine = optarg;
			break;
		case 'W':
			write_only = 1;
			break;
		case 'C':
			check_dir = optarg;
			break;
		case 'k':
			keep = 1;
			break;
		case 'q':
			quiet = 1;
			msg_quiet = 1;
			break;
		case 'h':
			verify_usage(stdout);
			return EXIT_OK;
		case OPT_ALLOW_SHARED_TARGET:
			rd_flags |= RUNDIR_ALLOW_SHARED;
			break;
		default:
			fprintf(stderr, "try 'fsgauge verify --help'\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		msg_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (write_only && check_dir) {
		msg_err("--write-only and --check-only exclude each other");
		return EXIT_USAGE;
	}
	if (check_dir && dir) {
		msg_err("--check-only names the run directory itself; -d does not apply");
		return EXIT_USAGE;
	}
	if (check_dir && layout_opt) {
		msg_err("%s does not apply to --check-only: the manifest of the run directory "
			"decides the number of files, their size and the seed",
			layout_opt);
		return EXIT_USAGE;
	}
	if (common_engine_stores_nothing(engine)) {
		msg_err("verify needs an engine that stores data: the null engine reads back "
			"nothing it was given");
		return EXIT_USAGE;
	}
	runner_install_signals();
	if (check_dir) {
		if (rundir_adopt(&rd, check_dir) < 0)
			return EXIT_USAGE;
		if (read_manifest(rd.fd, check_dir, &p) < 0) {
			rundir_release(&rd);
			return EXIT_USAGE;
		}
	} else if ((r = rundir_create(&rd, dir, rd_flags)) < 0) {
		return rundir_create_status(r);
	} else if (preflight(&rd, &p) < 0) {
		rundir_remove(&rd);
		return EXIT_USAGE;
	}
	if (engine_open(&e, engine, 1) < 0) {
		ret = EXIT_SYSTEM;
		goto out;
	}
	if (posix_memalign(&buf, 4096, CHUNK)) {
		msg_err("cannot allocate an I/O buffer");
		ret = EXIT_SYSTEM;
		goto out;
	}
	if (!check_dir) {
		r = write_manifest(rd.fd, &p);
		if (r < 0) {
			/* before any data: a system error, not one the run met */
			err_errno(r, "cannot write '%s/%s'", rd.path, MANIFEST);
			ret = EXIT_SYSTEM;
			goto out;
		}
		if (!quiet)
			fprintf(stderr, "writing %llu files of %llu bytes in %s\n",
				(unsigned long long)p.files, (unsigned long long)p.size, rd.path);
		r = write_files(e, rd.fd, &p, buf);
		if (r < 0) {
			ret = r == -EINTR ? EXIT_INTERRUPTED : EXIT_RUN_ERRORS;
			goto out;
		}
		if (write_only) {
			printf("run directory: %s\n", rd.path);
			keep = 1;
			goto out;
		}
	}
	drop_caches(rd.fd, &p, quiet);
	bad = check_files(e, rd.fd, &p, buf, rd.path);
	checked = 1;
	if (runner_signalled())
		ret = EXIT_INTERRUPTED;
	else if (bad)
		ret = EXIT_RUN_ERRORS;
	printf("verified %llu files of %llu bytes: %lld bad\n", (unsigned long long)p.files,
	       (unsigned long long)p.size, (long long)bad);
out:
	free(buf);
	engine_close(e);
	/* a run directory adopted by --check-only: removed only once checked,
	 * and then only what its manifest stands for */
	if (keep || (check_dir && !checked)) {
		rundir_finish(&rd, 1, !write_only);
		return ret;
	}
	r = check_dir ? rundir_remove_ours(&rd, manifest_lists, &p) : rundir_remove(&rd);
	if (r < 0 && !ret)
		ret = EXIT_SYSTEM;
	return ret;
}
