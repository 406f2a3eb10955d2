/* test_beneath.c — unit tests for util/beneath.c: paths below a
 * directory resolve without following a symbolic link and without
 * leaving it, through openat2() and through the fallback walk alike. */
#include "tap.h"
#include "util/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];
static char outside[64];

/* the tree:  root/a/b/  root/a/file  root/lnk -> a  root/a/out -> outside
 *            root/dangling -> outside/made-through-link */
static void setup(void)
{
	char p[256];
	int fd;

	snprintf(root, sizeof(root), "%s/fsg-beneath.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	snprintf(outside, sizeof(outside), "%s/fsg-outside.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root) || !mkdtemp(outside))
		exit(1);
	snprintf(p, sizeof(p), "%s/a", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/b", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/file", root);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	close(fd);
	snprintf(p, sizeof(p), "%s/lnk", root);
	if (symlink("a", p) < 0)
		exit(1);
	snprintf(p, sizeof(p), "%s/a/out", root);
	if (symlink(outside, p) < 0)
		exit(1);
	snprintf(p, sizeof(p), "%s/dangling", root);
	{
		char t[128];

		snprintf(t, sizeof(t), "%s/made-through-link", outside);
		if (symlink(t, p) < 0)
			exit(1);
	}
}

static void teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", root, outside);
	if (system(cmd) != 0)
		printf("# could not remove the test tree\n");
}

/* the descriptor names the same inode as the path, seen from outside */
static int same_as(int fd, const char *rel)
{
	char p[256];
	struct stat a, b;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return fd >= 0 && fstat(fd, &a) == 0 && lstat(p, &b) == 0 && a.st_ino == b.st_ino &&
	       a.st_dev == b.st_dev;
}

static void run_cases(const char *how, int (*fn)(int, const char *, int, mode_t), int dirfd)
{
	struct {
		const char *path;
		int flags;
		int want; /* 0: a descriptor, else -errno */
		const char *what;
	} cases[] = {
		{ "a/b", O_RDONLY | O_DIRECTORY, 0, "a plain path of directories opens" },
		{ "a//./b/", O_RDONLY | O_DIRECTORY, 0, "empty and '.' components are skipped" },
		{ "a/file", O_RDONLY, 0, "a file below a directory opens" },
		{ "lnk", O_RDONLY | O_DIRECTORY, -ELOOP, "a symbolic link as the last component is refused" },
		{ "lnk/b", O_RDONLY | O_DIRECTORY, -ELOOP, "a symbolic link as a middle component is refused" },
		{ "a/out", O_RDONLY | O_DIRECTORY, -ELOOP, "a link leading outside is refused" },
		{ "a/out/x", O_WRONLY | O_CREAT, -ELOOP, "nothing is created through a link leading outside" },
		{ "dangling", O_WRONLY | O_CREAT, -ELOOP, "O_CREAT on a dangling link is refused" },
		{ "../x", O_RDONLY, -EINVAL, "a leading '..' is refused" },
		{ "a/../a/b", O_RDONLY | O_DIRECTORY, -EINVAL, "a '..' that stays below is refused too" },
		{ "/etc", O_RDONLY | O_DIRECTORY, -EINVAL, "an absolute path is refused" },
		{ "", O_RDONLY, -EINVAL, "an empty path is refused" },
		{ "./", O_RDONLY, -EINVAL, "'.' alone (the directory itself) is refused" },
		{ "a/file/x", O_RDONLY, -ENOTDIR, "a file as a middle component: ENOTDIR" },
		{ "a/nothing", O_RDONLY, -ENOENT, "a missing entry: ENOENT" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = fn(dirfd, cases[i].path, cases[i].flags, 0644);

		if (cases[i].want == 0)
			ok(same_as(fd, cases[i].path), "%s: %s ('%s')", how, cases[i].what, cases[i].path);
		else if (!ok(fd == cases[i].want, "%s: %s ('%s')", how, cases[i].what, cases[i].path))
			printf("#   got %d, want %d\n", fd, cases[i].want);
		if (fd >= 0)
			close(fd);
	}
	{
		int fd = fn(dirfd, "a/b/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
		char p[256];
		struct stat st;

		snprintf(p, sizeof(p), "%s/a/b/new", root);
		ok(fd >= 0 && stat(p, &st) == 0 && S_ISREG(st.st_mode), "%s: O_CREAT makes a new file below", how);
		if (fd >= 0)
			close(fd);
		unlink(p);
	}
	{
		char p[256];
		struct stat st;

		snprintf(p, sizeof(p), "%s/made-through-link", outside);
		ok(stat(p, &st) < 0 && errno == ENOENT, "%s: nothing appeared outside", how);
		snprintf(p, sizeof(p), "%s/x", outside);
		ok(stat(p, &st) < 0 && errno == ENOENT, "%s: nothing appeared through a/out", how);
	}
}

int main(void)
{
	int dirfd;

	setup();
	dirfd = open(root, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0)
		return 1;
	run_cases("walk", beneath_open_walk, dirfd);
	run_cases(beneath_have_openat2() ? "openat2" : "fallback (no openat2)", beneath_open, dirfd);
	if (!beneath_have_openat2())
		printf("# this kernel has no openat2(): beneath_open() used the walk\n");
	close(dirfd);
	teardown();
	return done_testing();
}
