/* beneath.c — open a path below a directory, following no symbolic link;
 * see beneath.h. */
#include "util/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

/* 0: not probed yet, 1: openat2() works, -1: the kernel has none */
static int have_openat2;

/* Copy `path` into buf (PATH_MAX) with empty and "." components dropped,
 * refusing what may never resolve below dirfd. */
static int clean_path(const char *path, char *buf)
{
	size_t n = 0;

	if (!path || !*path || *path == '/')
		return -EINVAL;
	for (const char *s = path; *s;) {
		size_t len = strcspn(s, "/");

		if (len == 2 && s[0] == '.' && s[1] == '.')
			return -EINVAL;
		if (len && !(len == 1 && s[0] == '.')) {
			if (n + !!n + len >= PATH_MAX)
				return -ENAMETOOLONG;
			if (n)
				buf[n++] = '/';
			memcpy(buf + n, s, len);
			n += len;
		}
		s += len;
		s += strspn(s, "/");
	}
	if (!n)
		return -EINVAL; /* only "." or slashes: the directory itself */
	buf[n] = 0;
	return 0;
}

/* An open of `name` in `at` with O_NOFOLLOW failed with `err`: a
 * symbolic link there is -ELOOP whichever error open(2) chose (with
 * O_DIRECTORY it says ENOTDIR). */
static int link_or(int at, const char *name, int err)
{
	struct stat st;

	if ((err == -ENOTDIR || err == -ELOOP) &&
	    fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return err;
}

static int walk(int dirfd, char *p, int flags, mode_t mode)
{
	int cur = dirfd, fd;
	char *s = p, *slash;

	while ((slash = strchr(s, '/'))) {
		*slash = 0;
		fd = openat(cur, s, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			fd = link_or(cur, s, -errno);
		*slash = '/';
		if (cur != dirfd)
			close(cur);
		if (fd < 0)
			return fd;
		cur = fd;
		s = slash + 1;
	}
	fd = openat(cur, s, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		fd = link_or(cur, s, -errno);
	if (cur != dirfd)
		close(cur);
	return fd;
}

int beneath_open_walk(int dirfd, const char *path, int flags, mode_t mode)
{
	char p[PATH_MAX];
	int r = clean_path(path, p);

	return r < 0 ? r : walk(dirfd, p, flags, mode);
}

#ifdef SYS_openat2
/* openat2(), or -ENOSYS without it; a rename elsewhere in the file
 * system during the lookup (-EAGAIN) is retried. */
static int try_openat2(int dirfd, const char *p, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC),
		.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
	};
	long fd;

	for (int tries = 0;; tries++) {
		fd = syscall(SYS_openat2, dirfd, p, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN || tries >= 8)
			break;
	}
	/* (every component before the last was found no link, else ELOOP) */
	return fd < 0 ? link_or(dirfd, p, -errno) : (int)fd;
}
#endif

int beneath_open(int dirfd, const char *path, int flags, mode_t mode)
{
	char p[PATH_MAX];
	int r = clean_path(path, p);

	if (r < 0)
		return r;
#ifdef SYS_openat2
	if (__atomic_load_n(&have_openat2, __ATOMIC_RELAXED) >= 0) {
		r = try_openat2(dirfd, p, flags, mode);
		if (r == -ENOSYS) {
			__atomic_store_n(&have_openat2, -1, __ATOMIC_RELAXED);
		} else if (r != -EPERM) {
			__atomic_store_n(&have_openat2, 1, __ATOMIC_RELAXED);
			return r;
		}
		/* EPERM: a seccomp filter may deny openat2 outright; the
		 * walk answers for itself */
	}
#endif
	return walk(dirfd, p, flags, mode);
}

int beneath_have_openat2(void)
{
#ifdef SYS_openat2
	if (!__atomic_load_n(&have_openat2, __ATOMIC_RELAXED)) {
		int fd = try_openat2(AT_FDCWD, ".", O_PATH | O_DIRECTORY, 0);

		if (fd >= 0)
			close(fd);
		if (fd == -ENOSYS)
			__atomic_store_n(&have_openat2, -1, __ATOMIC_RELAXED);
		else if (fd >= 0)
			__atomic_store_n(&have_openat2, 1, __ATOMIC_RELAXED);
	}
#endif
	return __atomic_load_n(&have_openat2, __ATOMIC_RELAXED) > 0;
}
