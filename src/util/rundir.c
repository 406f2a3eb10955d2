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

/* /proc/self/stat's field 22, the process's start time in clock ticks
 * since boot: with the boot id, it tells this process from a later one
 * given the same pid.  0 when unknown. */
static unsigned long long proc_start_time(const char *stat_path)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd = open(stat_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* the command name (field 2) may hold spaces and parentheses */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	p++;
	for (int field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &start) != 1)
		return 0;
	return start;
}

static void read_line_file(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, out, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	out[n] = 0;
	out[strcspn(out, "\n")] = 0;
}

static unsigned long long pid_namespace(const char *ns_path)
{
	char link[64];
	unsigned long long ino = 0;
	ssize_t n = readlink(ns_path, link, sizeof(link) - 1);

	if (n <= 0)
		return 0;
	link[n] = 0;
	if (sscanf(link, "pid:[%llu]", &ino) != 1)
		return 0;
	return ino;
}

void rundir_owner_self(struct rundir_owner *o)
{
	memset(o, 0, sizeof(*o));
	if (gethostname(o->host, sizeof(o->host)) < 0)
		o->host[0] = 0;
	o->host[sizeof(o->host) - 1] = 0;
	o->pid = (long)getpid();
	o->start = proc_start_time("/proc/self/stat");
	read_line_file("/proc/sys/kernel/random/boot_id", o->boot_id, sizeof(o->boot_id));
	o->pidns = pid_namespace("/proc/self/ns/pid");
	o->uid = (long)geteuid();
}

/* The marker: its existence is what makes the directory ours to remove
 * (failing to create it is an error); its contents only serve `fsgauge
 * clean`, and a run whose marker could not be written in full (a full
 * disk, a file-size limit) goes on with a warning: clean then leaves
 * its directory alone. */
static int write_marker(int dirfd, const char *parent, const char *name)
{
	struct rundir_owner o;
	int fd = openat(dirfd, RUNDIR_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	rundir_owner_self(&o);
	/* (a host name holds no blank or newline: a line each, as read back) */
	if (dprintf(fd,
		    "fsgauge run directory\nversion %s\nhost %s\npid %ld\nstart %llu\nboot_id %s\n"
		    "pidns %llu\nuid %ld\n",
		    FSGAUGE_VERSION, o.host[0] ? o.host : "unknown", o.pid, o.start,
		    o.boot_id[0] ? o.boot_id : "unknown", o.pidns, o.uid) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret < 0)
		msg_warn("cannot write '%s/%s/%s': %s ('fsgauge clean' will leave this run "
			 "directory alone)",
			 parent, name, RUNDIR_MARKER, strerror(-ret));
	return 0;
}

int rundir_marker_read(int dirfd, struct rundir_owner *o)
{
	char buf[RUNDIR_MARKER_MAX + 1], *line, *save = NULL;
	struct stat st;
	ssize_t n;
	int fd, have = 0;

	memset(o, 0, sizeof(*o));
	fd = openat(dirfd, RUNDIR_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > RUNDIR_MARKER_MAX) {
		close(fd);
		return -EINVAL;
	}
	n = read(fd, buf, RUNDIR_MARKER_MAX);
	close(fd);
	if (n < 0)
		return -EIO;
	if (!n || buf[n - 1] != '\n')
		return -EINVAL; /* cut short: its last value may be too */
	buf[n] = 0;
	line = strtok_r(buf, "\n", &save);
	if (!line || strcmp(line, "fsgauge run directory"))
		return -EINVAL;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char key[32], val[RUNDIR_MARKER_MAX];

		if (sscanf(line, "%31s %1023s", key, val) != 2) {
			if (!strcmp(line, "kept"))
				o->kept = 1;
			continue;
		}
		if (!strcmp(key, "host") && strlen(val) < sizeof(o->host)) {
			snprintf(o->host, sizeof(o->host), "%s", val);
			have |= 1;
		} else if (!strcmp(key, "pid") && sscanf(val, "%ld", &o->pid) == 1 && o->pid > 0) {
			have |= 2;
		} else if (!strcmp(key, "start") && sscanf(val, "%llu", &o->start) == 1) {
			have |= 4;
		} else if (!strcmp(key, "boot_id") && strlen(val) < sizeof(o->boot_id)) {
			snprintf(o->boot_id, sizeof(o->boot_id), "%s", val);
			have |= 8;
		} else if (!strcmp(key, "pidns")) {
			sscanf(val, "%llu", &o->pidns);
		} else if (!strcmp(key, "uid") && sscanf(val, "%ld", &o->uid) == 1) {
			have |= 16;
		}
	}
	return have == 31 ? 0 : -ENODATA;
}

int rundir_owner_alive(const struct rundir_owner *o, char *why, size_t len)
{
	struct rundir_owner self;
	char path[64];
	unsigned long long start;

	rundir_owner_self(&self);
	if (!self.host[0] || strcmp(o->host, self.host)) {
		snprintf(why, len, "made on host '%s': its process cannot be checked from here",
			 o->host);
		return -1;
	}
	if (!self.boot_id[0] || !strcmp(o->boot_id, "unknown")) {
		snprintf(why, len, "no boot id to tell whether pid %ld is still the run's", o->pid);
		return -1;
	}
	if (strcmp(o->boot_id, self.boot_id)) {
		snprintf(why, len, "pid %ld ran before the last reboot", o->pid);
		return 0;
	}
	if (o->pidns && self.pidns && o->pidns != self.pidns) {
		snprintf(why, len,
			 "made in another pid namespace (a container): pid %ld cannot be checked "
			 "from here",
			 o->pid);
		return -1;
	}
	if (!o->start) {
		snprintf(why, len, "no start time to tell whether pid %ld is still the run's",
			 o->pid);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", o->pid);
	start = proc_start_time(path);
	if (start == o->start) {
		snprintf(why, len, "its run is still going (pid %ld)", o->pid);
		return 1;
	}
	if (!start && access(path, F_OK) == 0) {
		/* there, but unreadable: never guess that it is over */
		snprintf(why, len, "cannot read the start time of pid %ld", o->pid);
		return -1;
	}
	snprintf(why, len, start ? "pid %ld is now another process: its run is over"
				 : "pid %ld has ended",
		 o->pid);
	return 0;
}

/* Whether (dirfd, name) still names the directory open as fd: the name
 * in the parent is all rmdir can go by, and after the directory was
 * renamed away it may name someone else's. */
static int same_dir(int dirfd, const char *name, int fd)
{
	struct stat a, b;

	return fstatat(dirfd, name, &a, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Why the directory open as fd, just made by mkdirat(), is not certainly
 * that one: someone (in a target others may write) may have renamed ours
 * away and put theirs in its place before it was opened.  NULL when it is
 * a directory of ours, mode 0700 (the owner bits a umask took are given
 * back) and empty. */
static const char *not_fresh(int fd, char *why, size_t len)
{
	struct stat st;
	char buf[4096];
	ssize_t got;

	if (fstat(fd, &st) < 0) {
		snprintf(why, len, "cannot stat it: %s", strerror(errno));
		return why;
	}
	if (!S_ISDIR(st.st_mode))
		return "it is not a directory";
	if (st.st_uid != geteuid()) {
		snprintf(why, len, "it is owned by uid %ld, not %ld", (long)st.st_uid,
			 (long)geteuid());
		return why;
	}
	if (st.st_mode & 07077) {
		snprintf(why, len, "its mode is %04o, not 0700", (unsigned)(st.st_mode & 07777));
		return why;
	}
	if (lseek(fd, 0, SEEK_SET) < 0 || (got = getdents64(fd, buf, sizeof(buf))) < 0) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return why;
	}
	for (ssize_t pos = 0; pos < got;) {
		struct dirent64 *de = (struct dirent64 *)(buf + pos);

		pos += de->d_reclen;
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			return "it is not empty";
	}
	if ((st.st_mode & 0777) != 0700 && fchmod(fd, 0700) < 0) {
		snprintf(why, len, "cannot give it mode 0700: %s", strerror(errno));
		return why;
	}
	return NULL;
}

static char rundir_tag[128];

void rundir_set_tag(const char *tag)
{
	size_t n = 0;

	/* a host name may hold nothing a file name cannot */
	for (; tag && *tag && n + 1 < sizeof(rundir_tag); tag++)
		rundir_tag[n++] = *tag == '/' ? '_' : *tag;
	rundir_tag[n] = 0;
}

int rundir_create(struct rundir *rd, const char *parent, unsigned flags)
{
	struct stat st;
	char name[256], why[128];
	const char *bad;
	int fd, pfd, ret;

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
	/* the directory opened, not the path, is where the run goes */
	if (fstat(pfd, &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX) &&
	    !(flags & RUNDIR_ALLOW_SHARED)) {
		msg_err("refusing target directory '%s': it is writable by every user and not "
			"sticky (mode %04o), so another user could swap the run directory for one "
			"of theirs; make it sticky (chmod +t), choose another, or pass "
			"--allow-shared-target",
			parent, (unsigned)(st.st_mode & 07777));
		close(pfd);
		return -EPERM;
	}
	for (int tries = 0;; tries++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(name, sizeof(name), "fsgauge-%s%s%d-%06lx", rundir_tag,
			 *rundir_tag ? "-" : "", (int)getpid(),
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

		/* What the name holds now may not be what we made: left alone */
		close(pfd);
		if (e == -ELOOP || e == -ENOTDIR || e == -ENOENT) {
			msg_err("run directory '%s/%s' is not the one fsgauge just created (%s): "
				"it was replaced, nothing was written in it",
				parent, name, e == -ENOENT ? "it is gone" : "it is not a directory");
			return -ESTALE;
		}
		return err_errno(e, "cannot open run directory '%s/%s'", parent, name);
	}
	bad = not_fresh(fd, why, sizeof(why));
	if (bad) {
		/* Not ours: nothing is written in it and nothing removed (the
		 * one we made, wherever it went, is empty) */
		msg_err("run directory '%s/%s' is not the one fsgauge just created (%s): it was "
			"replaced, nothing was written in it",
			parent, name, bad);
		close(fd);
		close(pfd);
		return -ESTALE;
	}
	ret = write_marker(fd, parent, name);
	if (ret < 0) {
		unlinkat(fd, RUNDIR_MARKER, 0);
		if (same_dir(pfd, name, fd))
			unlinkat(pfd, name, AT_REMOVEDIR);
		close(fd);
		close(pfd);
		return err_errno(ret, "cannot mark run directory '%s/%s'", parent, name);
	}
	for (int i = 0; i < RUNDIR_SPARE_FDS; i++) {
		int sp = fcntl(fd, F_DUPFD_CLOEXEC, 0);

		if (sp < 0) {
			int e = -errno;

			while (rd->nspare)
				close(rd->spare[--rd->nspare]);
			unlinkat(fd, RUNDIR_MARKER, 0);
			if (same_dir(pfd, name, fd))
				unlinkat(pfd, name, AT_REMOVEDIR);
			close(fd);
			close(pfd);
			return err_errno(e, "cannot reserve %d descriptors for cleaning up '%s'",
					 RUNDIR_SPARE_FDS, parent);
		}
		rd->spare[rd->nspare++] = sp;
	}
	rd->parent = xstrdup(parent);
	rd->path = xasprintf("%s%s%s", parent, parent[strlen(parent) - 1] == '/' ? "" : "/", name);
	rd->fd = fd;
	rd->parent_fd = pfd;
	return 0;
}

int rundir_create_status(int err)
{
	return err == -ESTALE ? EXIT_SYSTEM : EXIT_USAGE;
}

/* The names in directory dirfd (without "." and ".."), read in full
 * with getdents64() on dirfd itself before anything is removed: removal
 * then holds exactly one descriptor per level and needs no other, so it
 * works under a low open-file limit (EMFILE is one of the failures a run
 * must clean up after).  Returns the count or -errno; *out is a
 * NULL-terminated array the caller frees with free_names(). */
static long read_names(int dirfd, char ***out)
{
	char buf[16384];
	char **v = NULL;
	size_t n = 0, cap = 0;
	ssize_t got;

	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -errno;
	while ((got = getdents64(dirfd, buf, sizeof(buf))) > 0) {
		for (ssize_t pos = 0; pos < got;) {
			struct dirent64 *de = (struct dirent64 *)(buf + pos);

			pos += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (n + 2 > cap) {
				cap = cap ? cap * 2 : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n++] = xstrdup(de->d_name);
		}
	}
	if (got < 0) {
		int e = -errno;

		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return e;
	}
	if (!v)
		v = xcalloc(1, sizeof(*v));
	v[n] = NULL;
	*out = v;
	return (long)n;
}

static void free_names(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Give the owner back full access to a directory of ours that lost it
 * (a workload or someone else chmod-ed it): without it we could neither
 * list nor empty it.  Only for directories owned by us. */
static int restore_access(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return -EACCES;
	return fchmodat(dirfd, name, (st.st_mode & 07777) | S_IRWXU, 0) < 0 ? -errno : 0;
}

static int unlink_entry(int dirfd, const char *name, int flags)
{
	if (unlinkat(dirfd, name, flags) == 0 || errno == ENOENT)
		return 0;
	if ((errno == EACCES || errno == EPERM) && restore_access(dirfd, ".") == 0 &&
	    (unlinkat(dirfd, name, flags) == 0 || errno == ENOENT))
		return 0;
	return -errno;
}

/* Depth-first removal below dirfd.  `dev` is the device of the run
 * directory: an entry on another device is a mount point someone put
 * there, and we do not descend into it. */
static int empty_dir(int dirfd, dev_t dev, int depth)
{
	int first_err = 0;
	char **names = NULL;
	long n = read_names(dirfd, &names);

	if (n == -EACCES && restore_access(dirfd, ".") == 0)
		n = read_names(dirfd, &names);
	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		struct stat st;
		const char *name = names[i];
		int r;

		if (depth == 0 && !strcmp(name, RUNDIR_MARKER))
			continue; /* removed last, by rundir_remove */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT && !first_err)
				first_err = -errno;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			r = unlink_entry(dirfd, name, 0);
			if (r < 0 && !first_err)
				first_err = r;
			continue;
		}
		if (st.st_dev != dev) {
			if (!first_err)
				first_err = -EXDEV;
			continue;
		}
		int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (sub < 0 && errno == EACCES && restore_access(dirfd, name) == 0)
			sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			if (!first_err)
				first_err = -errno;
			continue;
		}
		/* the entry we looked at must be the directory we opened */
		struct stat st2;

		if (fstat(sub, &st2) < 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
			close(sub);
			if (!first_err)
				first_err = -ESTALE;
			continue;
		}
		r = empty_dir(sub, dev, depth + 1);
		close(sub);
		if (r < 0 && !first_err)
			first_err = r;
		r = unlink_entry(dirfd, name, AT_REMOVEDIR);
		if (r < 0 && !first_err)
			first_err = r;
	}
	free_names(names);
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

int rundir_adopt(struct rundir *rd, const char *path)
{
	char *copy = xstrdup(path), *slash, *name;
	const char *parent;
	struct stat st;
	int ret;

	memset(rd, 0, sizeof(*rd));
	rd->fd = rd->parent_fd = -1;
	while (strlen(copy) > 1 && copy[strlen(copy) - 1] == '/')
		copy[strlen(copy) - 1] = 0;
	slash = strrchr(copy, '/');
	if (slash) {
		*slash = 0;
		name = slash + 1;
		parent = *copy ? copy : "/";
	} else {
		name = copy;
		parent = ".";
	}
	/* a path that is not there, or not a directory, says so first */
	ret = stat(path, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (ret < 0) {
		err_errno(ret, "cannot open run directory '%s'", path);
		free(copy);
		return ret;
	}
	if (strncmp(name, "fsgauge-", 8)) {
		msg_err("'%s' is not an fsgauge run directory (its name does not start with "
			"'fsgauge-')",
			path);
		free(copy);
		return -EINVAL;
	}
	rd->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->parent_fd < 0) {
		ret = err_errno(-errno, "cannot open '%s'", parent);
		goto fail;
	}
	rd->fd = openat(rd->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->fd < 0) {
		ret = err_errno(-errno, "cannot open run directory '%s'", path);
		goto fail;
	}
	if (fstatat(rd->fd, RUNDIR_MARKER, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		msg_err("'%s' is not an fsgauge run directory (no %s marker)", path, RUNDIR_MARKER);
		ret = -EINVAL;
		goto fail;
	}
	rd->parent = xstrdup(parent);
	rd->path = xasprintf("%s/%s", parent, name);
	free(copy);
	return 0;
fail:
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->parent_fd >= 0)
		close(rd->parent_fd);
	rd->fd = rd->parent_fd = -1;
	free(copy);
	return ret;
}

int rundir_remove(struct rundir *rd)
{
	struct stat st;
	const char *name;
	int ret;

	if (rd->fd < 0)
		return 0;
	while (rd->nspare)
		close(rd->spare[--rd->nspare]);
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
	if (!ret && !same_dir(rd->parent_fd, name, rd->fd)) {
		/* renamed away: the name is someone else's now, or nothing */
		msg_err("run directory '%s' was moved or replaced while fsgauge used it: "
			"everything in it was removed, but '%s' is no longer it and is left alone",
			rd->path, rd->path);
		rundir_release(rd);
		return -ESTALE;
	}
	/* (between that check and rmdir, a swap can at most make rmdir take
	 * someone's empty directory: rmdir removes nothing else) */
	if (!ret && unlinkat(rd->parent_fd, name, AT_REMOVEDIR) < 0)
		ret = -errno;
	if (ret < 0)
		err_errno(ret, "cannot remove run directory '%s'", rd->path);
	rundir_release(rd);
	return ret;
}

/* How many of the entries left behind rundir_remove_ours() names. */
#define LEFT_PRINT_MAX 10

int rundir_remove_ours(struct rundir *rd, int (*ours)(const char *name, void *arg), void *arg)
{
	struct stat st;
	char **names = NULL;
	const char **left;
	size_t nleft = 0;
	int ret = 0;
	long n;

	if (rd->fd < 0)
		return 0;
	while (rd->nspare)
		close(rd->spare[--rd->nspare]);
	if (fstatat(rd->fd, RUNDIR_MARKER, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		msg_err("refusing to remove anything in '%s': it has no %s marker", rd->path,
			RUNDIR_MARKER);
		rundir_release(rd);
		return -EPERM;
	}
	n = read_names(rd->fd, &names);
	if (n < 0) {
		ret = err_errno((int)n, "cannot read run directory '%s'", rd->path);
		rundir_release(rd);
		return ret;
	}
	left = xcalloc((size_t)n + 1, sizeof(*left));
	for (long i = 0; i < n; i++) {
		const char *name = names[i];
		int r;

		if (!strcmp(name, RUNDIR_MARKER))
			continue; /* removed last */
		/* only a regular file under one of our names is ours: never
		 * a directory or a link someone put in its place */
		if (fstatat(rd->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				left[nleft++] = name;
			continue;
		}
		if (!S_ISREG(st.st_mode) || !ours(name, arg)) {
			left[nleft++] = name;
			continue;
		}
		r = unlink_entry(rd->fd, name, 0);
		if (r < 0 && !ret)
			ret = err_errno(r, "cannot remove '%s/%s'", rd->path, name);
	}
	if (ret < 0)
		goto out;
	if (unlinkat(rd->fd, RUNDIR_MARKER, 0) < 0 && errno != ENOENT) {
		ret = err_errno(-errno, "cannot remove '%s/%s'", rd->path, RUNDIR_MARKER);
		goto out;
	}
	if (nleft) {
		char list[1024] = "";

		for (size_t i = 0; i < nleft && i < LEFT_PRINT_MAX; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s'%s'",
				 i ? ", " : "", left[i]);
		if (nleft > LEFT_PRINT_MAX)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), " and %zu more",
				 nleft - LEFT_PRINT_MAX);
		msg_warn("left '%s' in place, no longer marked as a run directory: fsgauge did "
			 "not create %s in it: %s",
			 rd->path, nleft == 1 ? "this entry" : "these entries", list);
		ret = 1;
		goto out;
	}
	if (!same_dir(rd->parent_fd, strrchr(rd->path, '/') + 1, rd->fd)) {
		msg_err("run directory '%s' was moved or replaced meanwhile: '%s' is no longer "
			"it and is left alone",
			rd->path, rd->path);
		ret = -ESTALE;
		goto out;
	}
	/* rmdir is the final check: it removes the directory only if empty,
	 * even should something have appeared in it meanwhile */
	if (unlinkat(rd->parent_fd, strrchr(rd->path, '/') + 1, AT_REMOVEDIR) < 0) {
		if (errno == ENOTEMPTY || errno == EEXIST) {
			msg_warn("left '%s' in place: something fsgauge did not create "
				 "appeared in it",
				 rd->path);
			ret = 1;
		} else {
			ret = err_errno(-errno, "cannot remove run directory '%s'", rd->path);
		}
	}
out:
	free(left);
	free_names(names);
	rundir_release(rd);
	return ret;
}

/* A directory kept on purpose (--keep, verify --write-only) says so in
 * its marker: `fsgauge clean` leaves it for its user. */
static void mark_kept(const struct rundir *rd)
{
	int fd = openat(rd->fd, RUNDIR_MARKER, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || write(fd, "kept\n", 5) != 5)
		msg_warn("cannot note in '%s/%s' that the run directory is kept on purpose: %s",
			 rd->path, RUNDIR_MARKER, strerror(errno));
	if (fd >= 0)
		close(fd);
}

int rundir_finish(struct rundir *rd, int keep, int say)
{
	if (!keep)
		return rundir_remove(rd);
	mark_kept(rd);
	if (say)
		fprintf(stderr, "kept run directory: %s\n", rd->path);
	rundir_release(rd);
	return 0;
}

void rundir_release(struct rundir *rd)
{
	while (rd->nspare > 0)
		close(rd->spare[--rd->nspare]);
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->parent_fd >= 0)
		close(rd->parent_fd);
	rd->fd = rd->parent_fd = -1;
	free(rd->parent);
	free(rd->path);
	rd->parent = rd->path = NULL;
}
