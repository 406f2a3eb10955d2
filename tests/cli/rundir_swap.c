/*
 * rundir_swap.c — an LD_PRELOAD shim for tests/cli/shared_target.sh: it
 * plays the other user of a shared target, at the exact moment fsgauge
 * is open to it, so that the race is tested deterministically and no
 * test hook is needed in fsgauge itself.
 *
 * SWAP_MODE (read once) says what to do right after fsgauge's
 * mkdirat() of its run directory (the first fsgauge-* name) succeeds:
 *
 *   other     rename it away (to moved-NAME) and put in its place a
 *             directory owned by SWAP_UID (default 65534), mode 0777,
 *             holding bigfileset/ and bigfileset/d0 -> SWAP_OUTSIDE
 *   other700  the same, mode 0700
 *   rootfull  a directory of ours (the caller's uid), mode 0700, holding
 *             a file 'theirs'
 *   rootmode  a directory of ours, mode 0755, empty
 *   link      a symbolic link to SWAP_OUTSIDE
 *
 * and, with the directory left as fsgauge made it:
 *
 *   inside    right after the marker is created, bigfileset/ and
 *             bigfileset/d0 -> SWAP_OUTSIDE inside the run directory
 *   insidetop right after the marker is created, bigfileset ->
 *             SWAP_OUTSIDE inside the run directory
 *   remove    when the marker is unlinked (the end of the cleanup):
 *             rename the run directory away and put an empty directory
 *             owned by SWAP_UID in its place
 *   adopted   the same for a run directory fsgauge did not make but took
 *             over (verify --check-only), named by SWAP_RUNDIR
 *
 * Built by the test with $CC -shared -fPIC; never part of fsgauge.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char run_name[256];
static int run_parent = -1; /* a dup of the descriptor mkdirat was given */
static int done;

static const char *mode(void)
{
	const char *m = getenv("SWAP_MODE");

	return m ? m : "";
}

static uid_t swap_uid(void)
{
	const char *u = getenv("SWAP_UID");

	return u ? (uid_t)atoi(u) : 65534;
}

static void die(const char *what)
{
	perror(what);
	_exit(99);
}

/* bigfileset/ and bigfileset/d0 -> outside (or bigfileset -> outside
 * when top), in directory fd, owned by uid */
static void plant(int fd, int top, uid_t uid)
{
	const char *out = getenv("SWAP_OUTSIDE");

	if (!out)
		die("SWAP_OUTSIDE");
	if (top) {
		if (symlinkat(out, fd, "bigfileset") < 0)
			die("symlinkat");
		fchownat(fd, "bigfileset", uid, uid, AT_SYMLINK_NOFOLLOW);
		return;
	}
	if (mkdirat(fd, "bigfileset", 0777) < 0 || fchmodat(fd, "bigfileset", 0777, 0) < 0 ||
	    symlinkat(out, fd, "bigfileset/d0") < 0)
		die("plant");
	fchownat(fd, "bigfileset", uid, uid, 0);
	fchownat(fd, "bigfileset/d0", uid, uid, AT_SYMLINK_NOFOLLOW);
}

static void move_away(int dirfd, const char *name)
{
	char moved[300];

	snprintf(moved, sizeof(moved), "moved-%s", name);
	if (renameat(dirfd, name, dirfd, moved) < 0)
		die("renameat");
}

int mkdirat(int dirfd, const char *path, mode_t m)
{
	static int (*real)(int, const char *, mode_t);
	const char *md = mode();
	int r, fd;

	if (!real)
		real = (int (*)(int, const char *, mode_t))dlsym(RTLD_NEXT, "mkdirat");
	r = real(dirfd, path, m);
	if (r < 0 || done || strncmp(path, "fsgauge-", 8) || strchr(path, '/'))
		return r;
	done = 1;
	snprintf(run_name, sizeof(run_name), "%s", path);
	run_parent = fcntl(dirfd, F_DUPFD_CLOEXEC, 100);
	if (!strncmp(md, "inside", 6) || !strcmp(md, "remove") || !*md)
		return r;
	move_away(dirfd, path);
	if (!strcmp(md, "link")) {
		if (symlinkat(getenv("SWAP_OUTSIDE"), dirfd, path) < 0)
			die("symlinkat");
		return r;
	}
	if (real(dirfd, path, 0700) < 0)
		die("mkdirat");
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die("openat");
	if (!strcmp(md, "other") || !strcmp(md, "other700")) {
		plant(fd, 0, swap_uid());
		if (fchmod(fd, !strcmp(md, "other") ? 0777 : 0700) < 0 ||
		    fchown(fd, swap_uid(), swap_uid()) < 0)
			die("fchown");
	} else if (!strcmp(md, "rootfull")) {
		int f = openat(fd, "theirs", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

		if (f < 0)
			die("theirs");
		close(f);
	} else if (!strcmp(md, "rootmode")) {
		if (fchmod(fd, 0755) < 0)
			die("fchmod");
	}
	close(fd);
	return r;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	const char *md = mode();
	mode_t m = 0;
	int r;

	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		m = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	r = real(dirfd, path, flags, m);
	if (r >= 0 && (flags & O_CREAT) && !strcmp(path, ".fsgauge-run") &&
	    !strncmp(md, "inside", 6) && done == 1) {
		done = 2;
		plant(dirfd, !strcmp(md, "insidetop"), getuid());
	}
	return r;
}

int unlinkat(int dirfd, const char *path, int flags)
{
	static int (*real)(int, const char *, int);
	int r;

	if (!real)
		real = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");
	r = real(dirfd, path, flags);
	if (r == 0 && !strcmp(path, ".fsgauge-run") && !strcmp(mode(), "adopted") && !done) {
		const char *rd = getenv("SWAP_RUNDIR");
		const char *slash = rd ? strrchr(rd, '/') : NULL;
		char moved[4096];

		if (!slash)
			die("SWAP_RUNDIR");
		done = 2;
		snprintf(moved, sizeof(moved), "%.*s/moved-%s", (int)(slash - rd), rd, slash + 1);
		if (rename(rd, moved) < 0 || mkdir(rd, 0755) < 0 ||
		    chown(rd, swap_uid(), swap_uid()) < 0)
			die("impostor");
	}
	if (r == 0 && !strcmp(path, ".fsgauge-run") && !strcmp(mode(), "remove") && done == 1 &&
	    run_parent >= 0) {
		done = 2;
		move_away(run_parent, run_name);
		if (mkdirat(run_parent, run_name, 0755) < 0 ||
		    fchownat(run_parent, run_name, swap_uid(), swap_uid(), 0) < 0)
			die("impostor");
	}
	return r;
}
