/* rundir.c — create, mark and safely remove the run directory; see
 * rundir.h. */
#include "util/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

const char *rundir_default_parent(void)
{
	const char *p = getenv("TMPDIR");

	return p && *p ? p : "/tmp";
}

int rundir_create(struct rundir *rd, const char *parent)
{
	struct stat st;
	char name[64];
	int fd, pfd, mfd;

	memset(rd, 0, sizeof(*rd));
	rd->fd = rd->parent_fd = -1;
	if (!parent)
		parent = rundir_default_parent();
	if (stat(parent, &st) < 0)
		return err_errno(-errno, "cannot use target directory '%s'", parent);
	if (S_ISBLK(st.st_mode)) {
		msg_err("target '%s' is a block device; this command works on a directory", parent);
		return -ENOTDIR;
	}
	if (!S_ISDIR(st.st_mode))
		return err_errno(-ENOTDIR, "cannot use target directory '%s'", parent);
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return err_errno(-errno, "cannot open target directory '%s'", parent);
	if (faccessat(pfd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		int e = -errno;

		close(pfd);
		return err_errno(e, "cannot write in target directory '%s'", parent);
	}
	for (int tries = 0;; tries++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(name, sizeof(name), "fsgauge-%d-%06lx", (int)getpid(),
			 (unsigned long)((ts.tv_nsec ^ (ts.tv_sec << 20)) & 0xffffff));
		if (mkdirat(pfd, name, 0700) == 0)
			break;
		if (errno != EEXIST || tries > 100) {
			int e = -errno;

			close(pfd);
			return err_errno(e, "cannot create run directory in '%s'", parent);
		}
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = -errno;

		unlinkat(pfd, name, AT_REMOVEDIR);
		close(pfd);
		return err_errno(e, "cannot open run directory '%s/%s'", parent, name);
	}
	mfd = openat(fd, RUNDIR_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (mfd >= 0) {
		dprintf(mfd, "fsgauge run directory\nversion %s\npid %d\n", FSGAUGE_VERSION,
			(int)getpid());
		close(mfd);
	}
	if (mfd < 0) {
		int e = -errno;

		close(fd);
		unlinkat(pfd, name, AT_REMOVEDIR);
		close(pfd);
		return err_errno(e, "cannot mark run directory '%s/%s'", parent, name);
	}
	rd->parent = xstrdup(parent);
	rd->path = xasprintf("%s%s%s", parent, parent[strlen(parent) - 1] == '/' ? "" : "/", name);
	rd->fd = fd;
	rd->parent_fd = pfd;
	return 0;
}

/* Depth-first removal below dirfd.  `dev` is the device of the run
 * directory: an entry on another device is a mount point someone put
 * there, and we do not descend into it. */
static int empty_dir(int dirfd, dev_t dev, int depth)
{
	int first_err = 0;
	DIR *d;
	struct dirent *de;
	int fd = dup(dirfd);

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = -errno;

		close(fd);
		return e;
	}
	rewinddir(d);
	while ((errno = 0, de = readdir(d))) {
		struct stat st;
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (depth == 0 && !strcmp(n, RUNDIR_MARKER))
			continue; /* removed last, by rundir_remove */
		if (fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT && !first_err)
				first_err = -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub;

			if (st.st_dev != dev) {
				if (!first_err)
					first_err = -EXDEV;
				continue;
			}
			sub = openat(dirfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				if (!first_err)
					first_err = -errno;
				continue;
			}
			int r = empty_dir(sub, dev, depth + 1);

			close(sub);
			if (r < 0 && !first_err)
				first_err = r;
			if (unlinkat(dirfd, n, AT_REMOVEDIR) < 0 && errno != ENOENT && !first_err)
				first_err = -errno;
		} else if (unlinkat(dirfd, n, 0) < 0 && errno != ENOENT && !first_err) {
			first_err = -errno;
		}
	}
	if (errno && !first_err)
		first_err = -errno;
	closedir(d);
	return first_err;
}

int rundir_empty(int dirfd)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return -errno;
	/* depth 0: a run directory keeps its marker (rundir_remove needs it) */
	return empty_dir(dirfd, st.st_dev, 0);
}

int rundir_remove(struct rundir *rd)
{
	struct stat st;
	const char *name;
	int ret;

	if (rd->fd < 0)
		return 0;
	/* Refuse a directory that does not carry our marker: it is not ours. */
	if (fstatat(rd->fd, RUNDIR_MARKER, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		msg_err("refusing to remove '%s': it has no %s marker", rd->path, RUNDIR_MARKER);
		rundir_release(rd);
		return -EPERM;
	}
	if (fstat(rd->fd, &st) < 0)
		return err_errno(-errno, "cannot remove run directory '%s'", rd->path);
	ret = empty_dir(rd->fd, st.st_dev, 0);
	if (ret < 0) {
		err_errno(ret, "cannot remove everything in run directory '%s'", rd->path);
		rundir_release(rd);
		return ret;
	}
	if (unlinkat(rd->fd, RUNDIR_MARKER, 0) < 0)
		ret = -errno;
	name = strrchr(rd->path, '/') + 1;
	if (!ret && unlinkat(rd->parent_fd, name, AT_REMOVEDIR) < 0)
		ret = -errno;
	if (ret < 0)
		err_errno(ret, "cannot remove run directory '%s'", rd->path);
	rundir_release(rd);
	return ret;
}

void rundir_release(struct rundir *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->parent_fd >= 0)
		close(rd->parent_fd);
	rd->fd = rd->parent_fd = -1;
	free(rd->parent);
	free(rd->path);
	rd->parent = rd->path = NULL;
}
