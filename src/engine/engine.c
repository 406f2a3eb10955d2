/* engine.c — engine registry, instance creation and the shared
 * synchronous system-call path; see engine.h. */
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine/faulty.h"
#include "util/stop.h"
#include "util/util.h"

extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_null_ops;
#ifdef HAVE_LIBURING
extern const struct engine_ops engine_io_uring_ops;
#endif
#ifdef HAVE_LIBAIO
extern const struct engine_ops engine_libaio_ops;
#endif

static const struct engine_ops *const engines[] = {
	&engine_psync_ops,
#ifdef HAVE_LIBURING
	&engine_io_uring_ops,
#endif
#ifdef HAVE_LIBAIO
	&engine_libaio_ops,
#endif
	&engine_null_ops,
	&engine_faulty_ops,
};

/* Requests of every closed instance, per operation (atomic adds). */
static uint64_t totals[IO__COUNT];

static const char *const op_names[IO__COUNT] = {
	[IO_OPEN] = "open",	  [IO_CLOSE] = "close",	    [IO_READ] = "read",
	[IO_WRITE] = "write",	  [IO_FSYNC] = "fsync",	    [IO_FDATASYNC] = "fdatasync",
	[IO_UNLINK] = "unlink",	  [IO_MKDIR] = "mkdir",	    [IO_RMDIR] = "rmdir",
	[IO_RENAME] = "rename",	  [IO_STAT] = "stat",	    [IO_FSTAT] = "fstat",
	[IO_LISTDIR] = "listdir", [IO_FTRUNCATE] = "ftruncate", [IO_FALLOCATE] = "fallocate",
	[IO_SYMLINK] = "symlink", [IO_LINK] = "link",	    [IO_CHMOD] = "chmod",
	[IO_UTIMES] = "utimes",	  [IO_LSEEK] = "lseek",	    [IO_SYNCFS] = "syncfs",
	[IO_GETDENTS] = "getdents", [IO_DISCARD] = "trim",
};

const char *io_op_name(enum io_op op)
{
	return op < IO__COUNT && op_names[op] ? op_names[op] : "?";
}

size_t engine_open_flag_names(int flags, const char **out, size_t max)
{
	static const struct {
		int bits;
		const char *name;
	} tab[] = {
		{ O_WRONLY, "O_WRONLY" }, { O_RDWR, "O_RDWR" },	    { O_CREAT, "O_CREAT" },
		{ O_EXCL, "O_EXCL" },	  { O_TRUNC, "O_TRUNC" },   { O_APPEND, "O_APPEND" },
		{ O_SYNC, "O_SYNC" },	  { O_DSYNC, "O_DSYNC" },   { O_DIRECT, "O_DIRECT" },
		{ O_NOATIME, "O_NOATIME" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_DIRECTORY, "O_DIRECTORY" },
	};
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tab) && n < max; i++) {
		if ((flags & tab[i].bits) != tab[i].bits)
			continue;
		if (tab[i].bits == O_DSYNC && (flags & O_SYNC) == O_SYNC)
			continue;
		out[n++] = tab[i].name;
	}
	return n;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const char *const *engine_names(void)
{
	static const char *names[ARRAY_SIZE(engines) + 1];

	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		names[i] = engines[i]->name;
	return names;
}

/* The wrapper engine whose name is the first ':'-separated part of
 * `spec` ("faulty" in "faulty:null:nth=1", or "faulty" alone), or NULL. */
static const struct engine_ops *spec_wrapper(const char *spec)
{
	size_t n = strcspn(spec, ":");

	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if ((engines[i]->caps & ENGINE_WRAPPER) && strlen(engines[i]->name) == n &&
		    !strncmp(engines[i]->name, spec, n))
			return engines[i];
	return NULL;
}

const struct engine_ops *engine_spec_find(const char *spec, unsigned *caps, char *errbuf,
					  size_t errlen)
{
	const struct engine_ops *ops = spec_wrapper(spec);
	unsigned c;

	if (ops) {
		struct faulty_rule rule;

		/* faulty is the only wrapper: its parser checks the whole
		 * spec and finds the engine it wraps */
		if (faulty_parse(spec, &rule, errbuf, errlen) < 0)
			return NULL;
		c = (rule.inner->caps & ~ENGINE_INLINE_SYSCALLS) | ops->caps;
	} else {
		ops = engine_find(spec);
		if (!ops) {
			char list[256] = "";

			for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
				if (*list)
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
				strncat(list, engines[i]->name, sizeof(list) - strlen(list) - 1);
			}
			snprintf(errbuf, errlen, "unknown engine '%s' (available: %s)", spec, list);
			return NULL;
		}
		c = ops->caps;
	}
	if (caps)
		*caps = c;
	return ops;
}

unsigned engine_spec_caps(const char *spec)
{
	unsigned caps = 0;

	if (!spec || !engine_spec_find(spec, &caps, NULL, 0))
		return 0;
	return caps;
}

void engine_open_error(const struct engine *e, const char *name, int err)
{
	if (e->init_refused && e->init_opts)
		err_errno(err, "cannot start engine '%s' with %s (the kernel refused %s)", name,
			  e->init_opts, e->init_refused);
	else if (e->init_refused)
		err_errno(err, "cannot start engine '%s' (the kernel refused %s)", name,
			  e->init_refused);
	else
		err_errno(err, "cannot start engine '%s'", name);
}

static const struct {
	unsigned flag, cap;
	const char *name;
} opt_tab[] = {
	{ ENGINE_OPT_SQPOLL, ENGINE_SQPOLL, "sqthread_poll" },
	{ ENGINE_OPT_SQ_AFF, ENGINE_SQPOLL, "sqthread_poll_cpu" },
	{ ENGINE_OPT_REGFILES, ENGINE_REGFILES, "registerfiles" },
	{ ENGINE_OPT_FIXEDBUFS, ENGINE_FIXEDBUFS, "fixedbufs" },
};

const char *engine_opt_name(unsigned flag)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_tab); i++)
		if (opt_tab[i].flag == flag)
			return opt_tab[i].name;
	return "?";
}

unsigned engine_opts_caps(unsigned flags)
{
	unsigned caps = 0;

	for (size_t i = 0; i < ARRAY_SIZE(opt_tab); i++)
		if (flags & opt_tab[i].flag)
			caps |= opt_tab[i].cap;
	return caps;
}

int engine_open(struct engine **out, const char *spec, unsigned depth)
{
	return engine_open_opts(out, spec, depth, NULL);
}

int engine_open_opts(struct engine **out, const char *spec, unsigned depth,
		     const struct engine_opts *opts)
{
	const struct engine_ops *ops;
	struct engine *e;
	int ret;

	if (opts && opts->flags) {
		unsigned caps = engine_spec_caps(spec);

		for (size_t i = 0; i < ARRAY_SIZE(opt_tab); i++)
			if ((opts->flags & opt_tab[i].flag) && !(caps & opt_tab[i].cap)) {
				msg_err("engine '%s' does not take %s", spec, opt_tab[i].name);
				return -EINVAL;
			}
		if ((opts->flags & ENGINE_OPT_SQ_AFF) && !(opts->flags & ENGINE_OPT_SQPOLL)) {
			msg_err("sqthread_poll_cpu needs sqthread_poll");
			return -EINVAL;
		}
	}
	if (spec_wrapper(spec)) {
		e = xcalloc(1, sizeof(*e));
		if (opts)
			e->opts = *opts;
		ret = faulty_open(e, spec, depth ? depth : 1);
		if (ret < 0) {
			free(e);
			return ret;
		}
		*out = e;
		return 0;
	}
	ops = engine_find(spec);
	if (!ops) {
		msg_err("unknown engine '%s'", spec);
		return -EINVAL;
	}
	e = xcalloc(1, sizeof(*e));
	e->ops = ops;
	e->inline_syscalls = !!(ops->caps & ENGINE_INLINE_SYSCALLS);
	if (opts)
		e->opts = *opts;
	ret = ops->init(e, depth ? depth : 1);
	if (ret < 0) {
		engine_open_error(e, spec, ret);
		free(e);
		return ret;
	}
	*out = e;
	return 0;
}

void engine_close(struct engine *e)
{
	if (!e)
		return;
	for (int i = 0; i < IO__COUNT; i++)
		if (e->nreq[i])
			__atomic_add_fetch(&totals[i], e->nreq[i], __ATOMIC_RELAXED);
	if (e->ops->exit)
		e->ops->exit(e);
	free(e);
}

void engine_totals(uint64_t out[IO__COUNT])
{
	for (int i = 0; i < IO__COUNT; i++)
		out[i] = __atomic_load_n(&totals[i], __ATOMIC_RELAXED);
}

static int64_t listdir(struct io_req *r)
{
	int fd = openat(r->dirfd, r->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	int64_t n = 0;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	errno = 0;
	while (readdir(d))
		n++;
	if (errno) {
		int e = errno;

		closedir(d);
		return -e;
	}
	closedir(d);
	return n;
}

int64_t engine_syscall(struct io_req *r)
{
	struct stat stbuf;
	int64_t ret;

	switch (r->op) {
	case IO_OPEN:
	case IO_CLOSE:
	case IO_READ:
	case IO_WRITE:
	case IO_UNLINK:
	case IO_MKDIR:
	case IO_RMDIR:
		return engine_syscall_inline(r);
	case IO_FSYNC:
		ret = fsync(r->fd);
		break;
	case IO_FDATASYNC:
		ret = fdatasync(r->fd);
		break;
	case IO_RENAME:
		ret = renameat(r->dirfd, r->path, r->dirfd, r->path2);
		break;
	case IO_STAT:
		ret = fstatat(r->dirfd, r->path, r->st ? r->st : &stbuf, AT_SYMLINK_NOFOLLOW);
		break;
	case IO_FSTAT:
		ret = fstat(r->fd, r->st ? r->st : &stbuf);
		break;
	case IO_LISTDIR:
		return r->res = listdir(r);
	case IO_FTRUNCATE:
		ret = ftruncate(r->fd, (off_t)r->off);
		break;
	case IO_FALLOCATE:
		ret = fallocate(r->fd, r->flags, (off_t)r->off, (off_t)r->len);
		if (ret == 0)
			ret = (int64_t)r->len; /* the bytes of the range, as null's */
		break;
	case IO_SYMLINK:
		ret = symlinkat(r->path, r->dirfd, r->path2);
		break;
	case IO_LINK:
		ret = linkat(r->dirfd, r->path, r->dirfd, r->path2, 0);
		break;
	case IO_CHMOD:
		ret = fchmodat(r->dirfd, r->path, r->mode, 0);
		break;
	case IO_UTIMES:
		ret = utimensat(r->dirfd, r->path, r->times, AT_SYMLINK_NOFOLLOW);
		break;
	case IO_LSEEK:
		ret = lseek(r->fd, (off_t)r->off, r->flags);
		break;
	case IO_SYNCFS:
		ret = syncfs(r->fd);
		break;
	case IO_GETDENTS:
		ret = getdents64(r->fd, r->buf, r->len);
		break;
	case IO_DISCARD: {
		uint64_t range[2] = { r->off, r->len };

		ret = ioctl(r->fd, BLKDISCARD, range);
		if (ret == 0)
			ret = (int64_t)r->len; /* the bytes discarded, as a write's */
		break;
	}
	default:
		ret = -1;
		errno = EINVAL;
	}
	if (ret < 0)
		ret = -errno;
	return r->res = ret;
}

/* EINTR and EAGAIN are transient: retry, but not forever — a storage
 * stack that answers EAGAIN to everything must end in an error, not a
 * hang.  After a few immediate retries, back off for a millisecond.  Not
 * at all once the process is stopping (util/stop.h): the EINTR is then
 * most likely the user's SIGINT, and an open of a FIFO that nobody
 * writes, retried, would block again until SIGKILL. */
#define RETRY_MAX 1000
#define RETRY_SPIN 8

static int retry_transient(int64_t r, unsigned *tries)
{
	if (r != -EINTR && r != -EAGAIN)
		return 0;
	if (++*tries > RETRY_MAX || stop_requested())
		return 0;
	if (*tries > RETRY_SPIN) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	return 1;
}

int64_t engine_exec_retry(struct engine *e, struct io_req *req, int64_t r)
{
	unsigned tries = 0;

	while (retry_transient(r, &tries))
		r = engine_exec(e, req);
	return r;
}

int64_t engine_exec_rest(struct engine *e, struct io_req *req, int64_t r)
{
	struct io_req part = *req;
	size_t done = 0;
	unsigned tries = 0;

	for (;;) {
		if (!retry_transient(r, &tries)) {
			if (r < 0)
				return req->res = r;
			if (r == 0) {
				if (req->op == IO_WRITE)
					return req->res = -EIO; /* a write that makes no progress */
				break;			   /* EOF */
			}
			if ((size_t)r > part.len)
				return req->res = -EIO; /* an engine claiming more than asked */
			tries = 0;
			done += (size_t)r;
			if (done >= req->len)
				break;
		}
		part.buf = (char *)req->buf + done;
		part.len = req->len - done;
		part.off = req->off + done;
		r = engine_exec(e, &part);
	}
	return req->res = (int64_t)done;
}

void engine_cq_init(struct engine_cq *q, unsigned depth)
{
	q->depth = depth;
	q->n = 0;
	q->done = xcalloc(depth, sizeof(*q->done));
}

void engine_cq_free(struct engine_cq *q)
{
	free(q->done);
	q->done = NULL;
}

int engine_cq_push(struct engine_cq *q, struct io_req *req)
{
	if (q->n >= q->depth)
		return -EAGAIN;
	q->done[q->n++] = req;
	return 0;
}

int engine_cq_pop(struct engine_cq *q, struct io_req **done, unsigned max)
{
	unsigned n = MIN(q->n, max);

	memcpy(done, q->done, n * sizeof(*done));
	memmove(q->done, q->done + n, (q->n - n) * sizeof(*done));
	q->n -= n;
	return (int)n;
}

const struct engine_ops *engine_find_checked(const char *name)
{
	char err[512];
	const struct engine_ops *e = engine_spec_find(name, NULL, err, sizeof(err));

	if (!e)
		msg_err("%s", err);
	return e;
}

int64_t engine_exec_queued(struct engine *e, struct io_req *req)
{
	struct io_req *done;
	int ret = e->ops->submit(e, req);

	if (ret < 0)
		return req->res = ret;
	ret = e->ops->reap(e, &done, 1, 1);
	if (ret < 0)
		return req->res = ret;
	if (ret == 0)
		return req->res = -EIO; /* asked for one: none is an engine fault */
	return req->res;
}
