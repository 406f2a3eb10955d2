/* outfile.c — result files, written safely; see outfile.h. */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define PROC_FS_MAGIC 0x9fa0 /* PROC_SUPER_MAGIC in <linux/magic.h> */
#define MAX_LINKS 40	     /* as the kernel's MAXSYMLINKS */

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

/* ---- temporary files a signal removes ---------------------------------- */

/*
 * compare and report catch no signal, so a SIGINT while they write would
 * leave the temporary file.  While one exists, the signals that end a
 * process and that the program leaves at their default get a handler
 * that removes the temporary files (unlinkat() is async-signal-safe) and
 * lets the signal end the process as it would have.  A program that
 * catches them itself (the suites: runner_install_signals()) finishes or
 * discards its files on its own.
 */
#define MAX_PENDING 4

static struct {
	volatile sig_atomic_t used;
	int dirfd;
	char name[NAME_MAX + 1];
} pending[MAX_PENDING];

static const int end_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_end_signal(int sig)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i].used)
			unlinkat(pending[i].dirfd, pending[i].name, 0);
	/* SA_RESETHAND restored the default: once this returns, the signal
	 * raised here ends the process */
	raise(sig);
}

static int pending_add(int dirfd, const char *name)
{
	struct sigaction sa, cur;

	for (int i = 0; i < MAX_PENDING; i++) {
		if (pending[i].used)
			continue;
		pending[i].dirfd = dirfd;
		snprintf(pending[i].name, sizeof(pending[i].name), "%s", name);
		pending[i].used = 1;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_end_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof(end_signals) / sizeof(end_signals[0]); k++)
			if (sigaction(end_signals[k], NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
				sigaction(end_signals[k], &sa, NULL);
		return i;
	}
	return -1; /* (more than MAX_PENDING at once: not watched) */
}

static void pending_remove(int slot)
{
	struct sigaction cur;

	if (slot < 0)
		return;
	pending[slot].used = 0;
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i].used)
			return;
	for (size_t k = 0; k < sizeof(end_signals) / sizeof(end_signals[0]); k++)
		if (sigaction(end_signals[k], NULL, &cur) == 0 && cur.sa_handler == on_end_signal)
			signal(end_signals[k], SIG_DFL);
}

/* ---- resolving a destination -------------------------------------------- */

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

/* The last component of path; "." for a path ending in '/'. */
static char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	return xstrdup(*base ? base : ".");
}

struct walk {
	const char *what, *path; /* for messages */
	unsigned links;		 /* followed so far */
	int reported;		 /* a message was printed */
};

/*
 * fs.protected_symlinks' rule: a symbolic link in a sticky,
 * world-writable directory is followed only by its owner, or when it
 * belongs to the directory's owner.  Anyone else's link there may have
 * been planted to point the result at a file of the user running
 * fsgauge.  0, or -EPERM with a message.
 */
static int link_planted(struct walk *w, int dirfd, const char *name, const struct stat *lst)
{
	struct stat dst;

	if (fstat(dirfd, &dst) < 0)
		return -errno;
	if (!(dst.st_mode & S_ISVTX) || !(dst.st_mode & S_IWOTH) || lst->st_uid == geteuid() ||
	    lst->st_uid == dst.st_uid)
		return 0;
	msg_err("refusing to write the %s to '%s': symbolic link '%s' belongs to another user "
		"(uid %u) in a world-writable sticky directory, where anyone can plant a link to "
		"make the result overwrite a file of yours (the rule of fs.protected_symlinks)",
		w->what, w->path, name, (unsigned)lst->st_uid);
	w->reported = 1;
	return -EPERM;
}

static int on_proc(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_FS_MAGIC;
}

/* The text of the link `name` in dirfd, or NULL with errno set. */
static char *read_link(int dirfd, const char *name)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf));

	if (n < 0)
		return NULL;
	if ((size_t)n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return xstrndup(buf, (size_t)n);
}

/*
 * An O_PATH descriptor of the directory `dir` names, relative to `at`:
 * one component at a time, never letting the kernel follow a link; each
 * link met is checked (link_planted()) and followed by its text, except a
 * link of /proc (/proc/self/cwd), whose text may name no path and which
 * the kernel follows.  The descriptor, or -errno.
 */
static int walk_dir(struct walk *w, int at, const char *dir)
{
	char *rest = xstrdup(dir), *p = rest, *comp;
	int cur = openat(at, *dir == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd, ret = cur < 0 ? -errno : 0;
	struct stat st;

	while (!ret && p) {
		comp = strsep(&p, "/");
		if (!*comp || !strcmp(comp, "."))
			continue;
		fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char *target, *next;

			if (++w->links > MAX_LINKS)
				ret = -ELOOP;
			else
				ret = link_planted(w, cur, comp, &st);
			if (!ret && on_proc(cur)) {
				close(fd);
				fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
				if (fd < 0) {
					ret = -errno;
					break;
				}
				close(cur);
				cur = fd;
				continue;
			}
			target = ret ? NULL : read_link(fd, "");
			if (!ret && !target)
				ret = -errno;
			close(fd);
			if (ret)
				break;
			if (*target == '/') {
				fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
				if (fd < 0) {
					ret = -errno;
					free(target);
					break;
				}
				close(cur);
				cur = fd;
			}
			next = p ? xasprintf("%s/%s", target, p) : target;
			if (next != target)
				free(target);
			free(rest);
			rest = p = next;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			ret = -ENOTDIR;
			break;
		}
		close(cur);
		cur = fd;
	}
	free(rest);
	if (ret < 0) {
		if (cur >= 0)
			close(cur);
		return ret;
	}
	return cur;
}

/* Where a result goes (see outfile.h). */
struct dest {
	int in_place; /* else replaced: a temporary file renamed over name */
	int dirfd;    /* O_PATH: the directory holding name */
	char *name;   /* replaced: the path's last component; in place: what is opened */
	int follow;   /* in place: name is a link of /proc (a descriptor) */
	int existing; /* replaced: name is a regular file (not a link) */
};

static void dest_free(struct dest *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->name);
	d->dirfd = -1;
	d->name = NULL;
}

/* Resolve path by the rules of outfile.h.  0, or -errno with a message. */
static int dest_find(struct dest *d, const char *path, const char *what)
{
	struct walk w = { what, path, 0, 0 };
	char *dir = dir_of(path), *name = base_of(path), *target, *tdir;
	int first, at, nat, ret = 0;
	unsigned hops = 0;
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->dirfd = -1;
	first = at = walk_dir(&w, AT_FDCWD, dir);
	if (at < 0) {
		if (!w.reported)
			err_errno(at, "cannot write the %s to '%s' (directory '%s')", what, path, dir);
		free(dir);
		free(name);
		return at;
	}
	free(dir);
	for (;;) {
		if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = -errno;
			if (ret == -ENOENT && !hops)
				ret = 0; /* a new file */
			else
				err_errno(ret, "cannot write the %s to '%s'", what, path);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			ret = link_planted(&w, at, name, &st);
			if (ret < 0)
				break;
			if (on_proc(at)) {
				d->in_place = d->follow = 1;
				break;
			}
			if (++w.links > MAX_LINKS) {
				ret = err_errno(-ELOOP, "cannot write the %s to '%s'", what, path);
				break;
			}
			target = read_link(at, name);
			if (!target) {
				ret = err_errno(-errno, "cannot write the %s to '%s'", what, path);
				break;
			}
			tdir = dir_of(target);
			nat = walk_dir(&w, at, tdir);
			free(tdir);
			free(name);
			name = base_of(target);
			free(target);
			if (nat < 0) {
				ret = nat;
				if (!w.reported)
					err_errno(ret, "cannot write the %s to '%s'", what, path);
				break;
			}
			if (at != first)
				close(at);
			at = nat;
			hops++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			msg_err("cannot write the %s to '%s': Is a directory", what, path);
			ret = -EISDIR;
		} else if (S_ISBLK(st.st_mode)) {
			msg_err("refusing to write the %s to block device '%s'", what, path);
			ret = -EINVAL;
		} else if (S_ISREG(st.st_mode)) {
			d->existing = !hops;
		} else {
			d->in_place = 1; /* a character device, FIFO or socket */
		}
		break;
	}
	if (ret < 0) {
		if (at != first)
			close(at);
		close(first);
		free(name);
		return ret;
	}
	if (d->in_place) {
		d->dirfd = at;
		d->name = name;
		if (first != at)
			close(first);
	} else {
		d->dirfd = first;
		d->name = base_of(path);
		free(name);
		if (at != first)
			close(at);
	}
	return 0;
}

int outfile_check(const char *path, const char *what)
{
	struct dest d;
	int ret = 0;

	if (!*path) {
		msg_err("the %s needs a file name ('-' for standard output)", what);
		return -EINVAL;
	}
	if (!strcmp(path, "-"))
		return 0;
	if (dest_find(&d, path, what) < 0)
		return -EINVAL;
	if ((d.in_place || d.existing) && faccessat(d.dirfd, d.name, W_OK, 0) < 0) {
		err_errno(-errno, "cannot write the %s to '%s'", what, path);
		ret = -EINVAL;
	} else if (!d.in_place && faccessat(d.dirfd, ".", W_OK | X_OK, 0) < 0) {
		/* the directory takes the temporary file */
		char *dir = dir_of(path);

		err_errno(-errno, "cannot write the %s to '%s' (directory '%s')", what, path, dir);
		free(dir);
		ret = -EINVAL;
	}
	dest_free(&d);
	return ret;
}

/* ---- writing ------------------------------------------------------------ */

static uint64_t random_bits(void)
{
	static uint64_t counter;
	uint64_t r;
	struct timespec ts;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^
	       ++counter * 0x9e3779b97f4a7c15ull;
}

/* ".NAME.XXXXXX" (NAME shortened so that it stays a valid name) */
static char *temp_name(const char *name)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t r = random_bits();
	char sfx[7];

	for (int i = 0; i < 6; i++, r /= sizeof(chars) - 1)
		sfx[i] = chars[r % (sizeof(chars) - 1)];
	sfx[6] = '\0';
	return xasprintf(".%.200s.%s", name, sfx);
}

static int open_in_place(struct outfile *o, const struct dest *d, const char *what)
{
	struct stat st;
	int fd = openat(d->dirfd, d->name, O_WRONLY | O_CLOEXEC | O_NOCTTY | (d->follow ? 0 : O_NOFOLLOW));

	if (fd < 0)
		return err_errno(-errno, "cannot write the %s to '%s'", what, o->path);
	if (fstat(fd, &st) < 0 || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd);
		msg_err("refusing to write the %s to '%s': not a file", what, o->path);
		return -EINVAL;
	}
	if (S_ISREG(st.st_mode) && !d->follow) {
		/* it was a device or FIFO when looked at: never truncated */
		close(fd);
		msg_err("refusing to write the %s to '%s': it became a regular file while being opened",
			what, o->path);
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

static int open_temp(struct outfile *o, struct dest *d, const char *what)
{
	sigset_t block, old;
	int fd = -1;

	/* a signal between the creation and pending_add() would leave it */
	sigemptyset(&block);
	for (size_t k = 0; k < sizeof(end_signals) / sizeof(end_signals[0]); k++)
		sigaddset(&block, end_signals[k]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		free(o->tmp);
		o->tmp = temp_name(d->name);
		/* the mode a new file gets: 0666 less the umask */
		fd = openat(d->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int e = errno;

		pthread_sigmask(SIG_SETMASK, &old, NULL);
		free(o->tmp);
		o->tmp = NULL;
		return err_errno(-e, "cannot write the %s to '%s'", what, o->path);
	}
	o->pending = pending_add(d->dirfd, o->tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlinkat(d->dirfd, o->tmp, 0);
		pending_remove(o->pending);
		free(o->tmp);
		o->tmp = NULL;
		return err_errno(-ENOMEM, "cannot write the %s to '%s'", what, o->path);
	}
	/* the descriptor and name stay for the rename */
	o->dirfd = d->dirfd;
	o->name = d->name;
	d->dirfd = -1;
	d->name = NULL;
	return 0;
}

/* (a struct never opened, all zero, has no path and nothing to close) */
static void outfile_reset(struct outfile *o)
{
	if (o->path && o->dirfd >= 0)
		close(o->dirfd);
	free(o->tmp);
	free(o->name);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	o->pending = -1;
}

int outfile_open(struct outfile *o, const char *path, const char *what)
{
	struct dest d;
	int fd, ret;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	o->pending = -1;
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
	/* looked at again: what outfile_check() saw may have changed */
	ret = dest_find(&d, path, what);
	if (ret == 0)
		ret = d.in_place ? open_in_place(o, &d, what) : open_temp(o, &d, what);
	dest_free(&d);
	if (ret < 0)
		outfile_reset(o);
	return ret;
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
	if (!ret && o->tmp && renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0)
		ret = -errno;
	if (ret < 0 && o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->tmp)
		pending_remove(o->pending);
	if (ret < 0) {
		if (strcmp(o->path, "-"))
			err_errno(ret, "cannot write the %s to '%s'", what, o->path);
		else
			err_errno(ret, "cannot write the %s to standard output", what);
	}
out:
	outfile_reset(o);
	return ret;
}

void outfile_discard(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp) {
		unlinkat(o->dirfd, o->tmp, 0);
		pending_remove(o->pending);
	}
	outfile_reset(o);
}
