/* outfile.c — result files, written safely; see outfile.h. */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* the original standard output once claimed, else -1 */
static int claimed_stdout = -1;

int outfile_claim_stdout(void)
{
	if (claimed_stdout >= 0)
		return 0;
	fflush(stdout);
	claimed_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (claimed_stdout < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return err_errno(-errno, "cannot set standard output aside for the result");
	return 0;
}

/* The directory part of path ("." when it has none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

int outfile_check(const char *path, const char *what)
{
	struct stat st;
	char *dir;
	int ret = 0;

	if (!*path) {
		msg_err("the %s needs a file name ('-' for standard output)", what);
		return -EINVAL;
	}
	if (!strcmp(path, "-"))
		return 0;
	if (stat(path, &st) == 0) {
		if (S_ISBLK(st.st_mode)) {
			msg_err("refusing to write the %s to block device '%s'", what, path);
			return -EINVAL;
		}
		if (S_ISDIR(st.st_mode)) {
			msg_err("cannot write the %s to '%s': Is a directory", what, path);
			return -EINVAL;
		}
		if (access(path, W_OK) < 0) {
			err_errno(-errno, "cannot write the %s to '%s'", what, path);
			return -EINVAL;
		}
	} else if (errno != ENOENT || lstat(path, &st) == 0) {
		/* (a symlink to nothing is not created through) */
		err_errno(errno == ENOENT ? -ENOENT : -errno, "cannot write the %s to '%s'", what,
			  path);
		return -EINVAL;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return 0; /* written in place (outfile_open): its directory does not matter */
	/* a new file, or a regular one replaced: its directory takes the
	 * temporary file */
	dir = dir_of(path);
	if (access(dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "cannot write the %s to '%s' (directory '%s')", what, path, dir);
		ret = -EINVAL;
	}
	free(dir);
	return ret;
}

static int open_in_place(struct outfile *o, const char *what)
{
	struct stat st;
	int fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return err_errno(-errno, "cannot write the %s to '%s'", what, o->path);
	if (fstat(fd, &st) < 0 || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd);
		msg_err("refusing to write the %s to '%s': not a file", what, o->path);
		return -EINVAL;
	}
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) {
		int e = errno;

		close(fd);
		return err_errno(-e, "cannot write the %s to '%s'", what, o->path);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		return err_errno(-ENOMEM, "cannot write the %s to '%s'", what, o->path);
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, const char *what)
{
	struct stat st;
	char *dir;
	const char *base;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		fd = claimed_stdout >= 0 ? fcntl(claimed_stdout, F_DUPFD_CLOEXEC, 3) : -1;
		o->f = fd >= 0 ? fdopen(fd, "w") : stdout;
		if (!o->f) {
			close(fd);
			o->f = stdout;
		}
		return 0;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_in_place(o, what);
	dir = dir_of(path);
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	o->tmp = xasprintf("%s/.%s.XXXXXX", dir, base);
	free(dir);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(o->tmp);
		o->tmp = NULL;
		return err_errno(-e, "cannot write the %s to '%s'", what, path);
	}
	/* the permissions a new file would get (mkostemp makes it 0600) */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno ? errno : ENOMEM;

		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return err_errno(-e, "cannot write the %s to '%s'", what, path);
	}
	return 0;
}

int outfile_close(struct outfile *o, const char *what)
{
	int ret = 0;

	if (!o->f)
		goto out;
	if (o->f == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout))
			ret = err_errno(-(errno ? errno : EIO), "cannot write the %s to standard output",
					what);
		goto out;
	}
	if (fflush(o->f) == EOF)
		ret = -(errno ? errno : EIO);
	else if (ferror(o->f))
		ret = -EIO; /* an earlier write failed */
	if (fclose(o->f) == EOF && !ret)
		ret = -(errno ? errno : EIO);
	if (!ret && o->tmp && rename(o->tmp, o->path) < 0)
		ret = -errno;
	if (ret < 0) {
		if (o->tmp)
			unlink(o->tmp);
		if (strcmp(o->path, "-"))
			err_errno(ret, "cannot write the %s to '%s'", what, o->path);
		else
			err_errno(ret, "cannot write the %s to standard output", what);
	}
out:
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return ret;
}

void outfile_discard(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
