/*
 * engine.h — the layer that issues the I/O system calls of every measured
 * operation (and of verify's writes and reads, so --engine applies to
 * them).  Control work around a run is not measured and does not go
 * through an engine: the run directory and its removal (util/rundir.c,
 * util/beneath.c), preflight (runner/preflight.c), dropping the page
 * cache (runner_drop_caches()), reading /proc and /sys (stats/).
 *
 * An engine is an ops table; each worker thread creates its own instance
 * (struct engine) and never shares it.  Every operation is described by a
 * struct io_req and completes with a result: bytes transferred, a file
 * descriptor, 0, or -errno — never errno and never -1.  Synchronous
 * engines complete a request inside engine_exec(); asynchronous ones
 * (io_uring, libaio: ENGINE_ASYNC) also accept engine_submit() (or
 * engine_queue() and engine_flush(), to push a batch with one system
 * call) and hand completions back from engine_reap(), so callers treat
 * both alike.  Engines take no timestamps:
 * the runner times around the call.
 *
 * Path operations are relative to req->dirfd (the run directory), so every
 * file the runner touches is addressed from inside the directory it
 * created.
 *
 * Engines: "psync" (default: pread/pwrite and friends), "io_uring" (when
 * built with liburing), "libaio" (Linux native AIO, when built with
 * libaio), "null" (completes everything at once without
 * touching the system: for tests and overhead measurement) and "faulty"
 * (wraps another engine and fails chosen operations; see faulty.h).
 *
 * Code outside the registry (engine.c) never compares engine names: it
 * asks what an engine can do, engine_spec_caps() and the ENGINE_* flags
 * below.
 */
#ifndef FSGAUGE_ENGINE_H
#define FSGAUGE_ENGINE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "engine/syscall.h"
#include "util/util.h"

/* The engine a run uses unless --engine names another. */
#define ENGINE_DEFAULT "psync"

enum io_op {
	IO_OPEN,      /* dirfd, path, flags, mode -> fd */
	IO_CLOSE,     /* fd */
	IO_READ,      /* fd, buf, len, off -> bytes */
	IO_WRITE,     /* fd, buf, len, off -> bytes */
	IO_FSYNC,     /* fd */
	IO_FDATASYNC, /* fd */
	IO_UNLINK,    /* dirfd, path */
	IO_MKDIR,     /* dirfd, path, mode */
	IO_RMDIR,     /* dirfd, path */
	IO_RENAME,    /* dirfd, path -> path2 */
	IO_STAT,      /* dirfd, path, st (optional) */
	IO_FSTAT,     /* fd, st (optional) */
	IO_LISTDIR,   /* dirfd, path -> number of entries read */
	IO_FTRUNCATE, /* fd, off = new length */
	IO_FALLOCATE, /* fd, off, len, flags = mode (FALLOC_FL_*) -> len */
	IO_SYMLINK,   /* path = target, path2 = link name (relative to dirfd) */
	IO_LINK,      /* path = existing, path2 = new name */
	IO_CHMOD,     /* dirfd, path, mode */
	IO_UTIMES,    /* dirfd, path, times[2] */
	IO_LSEEK,     /* fd, off, flags = whence -> new offset */
	IO_SYNCFS,    /* fd: flush the file system holding it */
	IO_GETDENTS,  /* fd (a directory), buf, len -> bytes of struct linux_dirent64 */
	/* fd (a block device), off, len -> len: discard the range (fio's
	 * trim; the BLKDISCARD ioctl).  Synchronous on every engine, as fio
	 * 3.33's trims on psync, libaio and io_uring: exec() issues it at
	 * once, on an asynchronous engine too while requests of its own are
	 * in flight (their completions stay for the reap); io_uring's and
	 * libaio's submit() and queue() refuse it (-EINVAL) */
	IO_DISCARD,
	IO__COUNT
};

/* "open", "read", ... */
const char *io_op_name(enum io_op op);
/* Names of the open(2) flags set in `flags` ("O_WRONLY", "O_RDWR",
 * "O_CREAT", "O_TRUNC", "O_APPEND", "O_SYNC", "O_DSYNC", "O_DIRECT",
 * "O_NOFOLLOW", ...), at most `max` into out[]; returns how many.  O_DSYNC
 * is named only when the flags do not hold all of O_SYNC (which includes
 * its bit). */
size_t engine_open_flag_names(int flags, const char **out, size_t max);

struct io_req {
	enum io_op op;
	int fd;	   /* file descriptor for fd operations */
	int dirfd; /* directory for path operations */
	const char *path, *path2;
	void *buf;
	size_t len;
	uint64_t off;
	int flags;
	mode_t mode;
	struct stat *st;
	const struct timespec *times;
	/* ENGINE_OPT_FIXEDBUFS: 1 + the slot (engine_set_buffer()) whose
	 * buffer holds buf..buf+len; 0: the engine looks for one */
	unsigned buf_index;
	int64_t res; /* completion: >= 0 success, -errno failure */
	void *user;  /* caller's cookie, untouched */
};

struct engine;

/* Capabilities: struct engine_ops.caps for an ops table, and
 * engine_spec_caps() for the spec an engine is opened with. */
enum {
	/* Stores and creates nothing: no file or directory appears, and a
	 * read returns nothing that was written (null).  Read by the free
	 * space and inode preflights (the engine needs neither) and by the
	 * --verify and `verify` checks (there is nothing to read back). */
	ENGINE_DISKLESS = 1u << 0,
	/* Wraps another engine, named in its spec "NAME:INNER[:...]"
	 * (faulty).  A wrapper spec has the capabilities of the engine it
	 * wraps, plus this one and without ENGINE_INLINE_SYSCALLS.  Read by
	 * the registry, to open and check wrapper specs. */
	ENGINE_WRAPPER = 1u << 1,
	/* exec() is engine_syscall() and nothing else, so engine_exec() may
	 * issue the common system calls inline (psync).  A property of the
	 * ops table: a wrapper's exec() is its own.  Read by engine_open(),
	 * which sets struct engine.inline_syscalls from it. */
	ENGINE_INLINE_SYSCALLS = 1u << 2,
	/* Keeps more than one request in flight: submit() queues up to the
	 * `depth` given to engine_open() reads, writes, fsyncs and
	 * fdatasyncs before the caller reaps, and they are performed
	 * concurrently (io_uring, libaio).  Without it submit() completes
	 * the request at once and reap() only hands it back (psync, null).
	 * Inherited by a wrapper. */
	ENGINE_ASYNC = 1u << 3,
	/* Takes ENGINE_OPT_SQPOLL (a kernel thread polls its submission
	 * queue: io_uring).  Inherited by a wrapper, which passes its
	 * options to the engine it wraps. */
	ENGINE_SQPOLL = 1u << 4,
	/* Takes ENGINE_OPT_REGFILES (io_uring); inherited by a wrapper. */
	ENGINE_REGFILES = 1u << 5,
	/* Takes ENGINE_OPT_FIXEDBUFS (io_uring); inherited by a wrapper. */
	ENGINE_FIXEDBUFS = 1u << 6,
};

/*
 * Options of an instance beyond its engine's name, for engine_open_opts()
 * (fio's engine options, taken for a whole run: struct run_opts).  A
 * zeroed struct asks for nothing; an option the engine does not take (its
 * capability missing) is refused when the instance is opened.  They
 * change only how the instance is set up, not what a request costs when
 * none is given.
 */
enum {
	/* fio's sqthread_poll: a kernel thread polls the submission queue
	 * (IORING_SETUP_SQPOLL): submitting is writing the queue, without a
	 * system call while the thread is awake (it sleeps after the
	 * kernel's default idle time, 1 s, and the next submission wakes it
	 * up).  Needs ENGINE_SQPOLL. */
	ENGINE_OPT_SQPOLL = 1u << 0,
	/* fio's sqthread_poll_cpu: that thread bound to CPU sq_cpu
	 * (IORING_SETUP_SQ_AFF); with ENGINE_OPT_SQPOLL only */
	ENGINE_OPT_SQ_AFF = 1u << 1,
	/* fio's registerfiles: the descriptors of the files the instance
	 * opens (IO_OPEN) are registered with the ring, in a table of
	 * `nfiles` slots (io_uring_register_files), and its reads, writes
	 * and syncs on them name the slot (IOSQE_FIXED_FILE): the kernel
	 * takes no reference on the file per request.  An open registers
	 * its descriptor, a close (IO_CLOSE) unregisters it, each one more
	 * io_uring_register call; a descriptor the instance did not open (a
	 * block device the front end opened) is registered at its first
	 * request and must stay open while the instance is.  When every
	 * slot is taken a file is used by its descriptor (nfiles is the
	 * caller's bound on the files it holds open at once).  Needs
	 * ENGINE_REGFILES. */
	ENGINE_OPT_REGFILES = 1u << 2,
	/* fio's fixedbufs: a table of `nbufs` buffers registered with the
	 * ring (io_uring_register_buffers, every slot empty at first), which
	 * engine_set_buffer() fills; a read or write whose buffer is in one
	 * of them is IORING_OP_READ_FIXED or WRITE_FIXED on it (the kernel
	 * maps no pages per request): the slot io_req.buf_index names, or
	 * without one the first slot holding the buffer.  Needs
	 * ENGINE_FIXEDBUFS. */
	ENGINE_OPT_FIXEDBUFS = 1u << 3,
};

struct engine_opts {
	unsigned flags; /* ENGINE_OPT_* */
	unsigned sq_cpu; /* ENGINE_OPT_SQ_AFF: the CPU */
	unsigned nfiles; /* ENGINE_OPT_REGFILES: slots of the table (at least 1) */
	unsigned nbufs;	 /* ENGINE_OPT_FIXEDBUFS: slots of the table (at least 1) */
};

struct engine_ops {
	const char *name;
	const char *description;
	unsigned caps; /* ENGINE_* */
	/* Per-thread setup; `depth` is the most requests the caller will
	 * have submitted and not reaped.  Returns 0 or -errno. */
	int (*init)(struct engine *e, unsigned depth);
	void (*exit)(struct engine *e);
	/* Execute one request to completion; sets and returns req->res. */
	int64_t (*exec)(struct engine *e, struct io_req *req);
	/* Queue a request (read/write/fsync/fdatasync at least); 0 or
	 * -errno (-EAGAIN when the queue is full: reap first; -EINVAL for an
	 * operation the engine does not queue).  An error of the request
	 * itself (a bad descriptor, a read the file refuses) is the result
	 * of its completion, not of submit(). */
	int (*submit)(struct engine *e, struct io_req *req);
	/* Wait for at least `min` completions, return up to `max` of them in
	 * done[]; returns how many, or -errno.  Pushes queued requests first
	 * (see engine_queue()). */
	int (*reap)(struct engine *e, struct io_req **done, unsigned min, unsigned max);
	/* Optional (asynchronous engines): queue() is submit() without
	 * entering the kernel, flush() pushes every queued request with as
	 * few system calls as it can (one, unless the kernel takes part of
	 * the batch); flush() returns 0 or -errno.  NULL in an engine whose
	 * submit() completes at once: engine_queue() is then its submit()
	 * and engine_flush() does nothing. */
	int (*queue)(struct engine *e, struct io_req *req);
	int (*flush)(struct engine *e);
	/* Optional (ENGINE_FIXEDBUFS): engine_set_buffer(). */
	int (*set_buffer)(struct engine *e, unsigned slot, void *buf, size_t len);
};

struct engine {
	const struct engine_ops *ops;
	/* psync: engine_exec() issues the common system calls itself, inline
	 * (engine/syscall.h), instead of through ops->exec */
	int inline_syscalls;
	void *priv;
	struct engine *inner; /* wrapped engine (faulty) */
	struct engine_opts opts; /* what engine_open_opts() was given, for init() */
	/* set by an init() that fails on an option: what the kernel
	 * refused ("IORING_SETUP_SQPOLL") and the options that asked for it
	 * ("sqthread_poll"), for engine_open_error(); init_opts NULL: the
	 * kernel refused the engine itself, init_refused says what and why
	 * ("io_uring_setup: kernel.io_uring_disabled is 2") */
	const char *init_refused, *init_opts;
	/* What the engine was asked to do, for tests and the JSON record:
	 * the union of open flags seen, and requests per operation. */
	int open_flags_seen;
	uint64_t nreq[IO__COUNT];
	/* System calls the engine made to hand requests to the kernel
	 * (io_uring_enter() for submission, io_submit()): a batch pushed by
	 * one engine_flush() counts one.  See engine_submit_calls(). */
	uint64_t nsubmit_calls;
};

/* Find an engine by name; NULL if unknown or not compiled in. */
const struct engine_ops *engine_find(const char *name);
/* Check an engine spec — an engine name, or a wrapper spec such as
 * "faulty:null:op=write,nth=1" (see faulty.h) — without opening it.
 * Returns the ops table engine_open() would start (the wrapper's for a
 * wrapper spec) and its capabilities in *caps (when caps is not NULL);
 * or NULL with the reason in errbuf ("unknown engine 'x' (available:
 * psync, ...)", or what is wrong with the wrapper spec). */
const struct engine_ops *engine_spec_find(const char *spec, unsigned *caps, char *errbuf,
					  size_t errlen);
/* engine_spec_find(), printing the reason (msg_err) when it fails. */
const struct engine_ops *engine_find_checked(const char *name);
/* The capabilities (ENGINE_*) of the engine `spec` names; 0 for an
 * unknown engine or an invalid spec (which engine_open() refuses). */
unsigned engine_spec_caps(const char *spec);
/* Names of all compiled-in engines, NULL-terminated. */
const char *const *engine_names(void);

/* Create a per-thread engine instance; returns 0 or -errno (message
 * printed).  `spec` is an engine name, or "faulty:..." (see faulty.h). */
int engine_open(struct engine **out, const char *spec, unsigned depth);
/* engine_open() with options (`opts` NULL: none).  An option the engine
 * of `spec` does not take is -EINVAL ("engine 'psync' does not take
 * sqthread_poll"); one the kernel refuses is its -errno, with a message
 * naming what was refused. */
/* fio's name of an option (ENGINE_OPT_SQPOLL: "sqthread_poll"). */
const char *engine_opt_name(unsigned flag);
int engine_open_opts(struct engine **out, const char *spec, unsigned depth,
		     const struct engine_opts *opts);
/* The message of an instance whose init() failed with -err: engine
 * `name`, what the kernel refused (init_refused: of its options, or the
 * engine itself and why) and strerror. */
void engine_open_error(const struct engine *e, const char *name, int err);
/* The capabilities (ENGINE_*) the options in `flags` need. */
unsigned engine_opts_caps(unsigned flags);
/* Close an instance; its request counts are added to the process-wide
 * totals. */
void engine_close(struct engine *e);
/* Requests per operation issued by every instance closed so far in this
 * process (for the result record and the fault-injection tests). */
void engine_totals(uint64_t out[IO__COUNT]);

/* The synchronous implementation shared by psync and as the fallback of
 * other engines: performs req with plain system calls. */
int64_t engine_syscall(struct io_req *req);

/* engine_syscall() with the per-operation system calls inline (see
 * engine/syscall.h for why), the others through engine_syscall(). */
static ALWAYS_INLINE int64_t engine_syscall_inline(struct io_req *r)
{
	switch (r->op) {
	case IO_READ:
		return r->res = sys_pread(r->fd, r->buf, r->len, r->off);
	case IO_WRITE:
		return r->res = sys_pwrite(r->fd, r->buf, r->len, r->off);
	case IO_OPEN:
		return r->res = sys_openat(r->dirfd, r->path, r->flags | O_CLOEXEC, r->mode);
	case IO_CLOSE:
		return r->res = sys_close(r->fd);
	case IO_UNLINK:
		return r->res = sys_unlinkat(r->dirfd, r->path, 0);
	case IO_MKDIR:
		return r->res = sys_mkdirat(r->dirfd, r->path, r->mode);
	case IO_RMDIR:
		return r->res = sys_unlinkat(r->dirfd, r->path, AT_REMOVEDIR);
	case IO_STAT:
		if (r->st)
			return r->res = sys_fstatat(r->dirfd, r->path, r->st, AT_SYMLINK_NOFOLLOW);
		return engine_syscall(r); /* into a buffer of its own */
	default:
		return engine_syscall(r);
	}
}

static ALWAYS_INLINE int64_t engine_exec(struct engine *e, struct io_req *req)
{
	e->nreq[req->op]++;
	if (req->op == IO_OPEN)
		e->open_flags_seen |= req->flags;
	if (e->inline_syscalls)
		return engine_syscall_inline(req);
	return e->ops->exec(e, req);
}

static inline int engine_submit(struct engine *e, struct io_req *req)
{
	e->nreq[req->op]++;
	return e->ops->submit(e, req);
}

static inline int engine_reap(struct engine *e, struct io_req **done, unsigned min,
			      unsigned max)
{
	return e->ops->reap(e, done, min, max);
}

/*
 * Batched submission (fio's iodepth_batch_submit).  engine_queue() takes
 * a request as engine_submit() does — same operations, same errors, the
 * same depth limit counting queued and in-flight requests alike (-EAGAIN
 * past it) — but does not enter the kernel; engine_flush() pushes every
 * queued request at once.  The rule:
 *
 *   - after engine_submit() returns 0, the request is in the kernel (or
 *     already complete);
 *   - after engine_queue() returns 0, it is only queued: it is in the
 *     kernel once engine_flush() returns 0 (or engine_submit() of a later
 *     request returns 0, which pushes everything queued before it);
 *   - engine_reap() pushes what is queued before it waits, so a queued
 *     request is never waited for without having been pushed; when the
 *     kernel refuses the push (out of resources) with nothing in flight,
 *     reap returns that error instead of waiting;
 *   - a request the kernel refuses in the push (a bad descriptor, ...)
 *     completes with -errno, as on submit; when the kernel takes only
 *     part of a batch, flush repeats the call for the rest, and a refusal
 *     for lack of resources (-EAGAIN, returned) keeps the rest queued for
 *     the next flush or reap;
 *   - a request submit or queue has taken is never refused later: if the
 *     kernel will not take it yet, engine_submit() still returns 0 and
 *     the request stays queued, as above.
 *
 * On a synchronous engine (psync, null) engine_queue() is engine_submit(),
 * which completes the request at once, and engine_flush() does nothing;
 * the faulty wrapper forwards both to the engine it wraps.
 */
static inline int engine_queue(struct engine *e, struct io_req *req)
{
	e->nreq[req->op]++;
	if (!e->ops->queue)
		return e->ops->submit(e, req);
	return e->ops->queue(e, req);
}

static inline int engine_flush(struct engine *e)
{
	return e->ops->flush ? e->ops->flush(e) : 0;
}

/* ENGINE_OPT_FIXEDBUFS: put buf..buf+len in slot `slot` (below nbufs) of
 * the instance's table of buffers, in place of what was there (which no
 * request in flight may use); a wrapper's goes to the engine it wraps.
 * 0, -errno from the kernel (ENOMEM: beyond what the user may lock in
 * memory, RLIMIT_MEMLOCK), or -EINVAL for an instance without the table. */
static inline int engine_set_buffer(struct engine *e, unsigned slot, void *buf, size_t len)
{
	while (e->inner)
		e = e->inner;
	if (!e->ops->set_buffer || !(e->opts.flags & ENGINE_OPT_FIXEDBUFS))
		return -EINVAL;
	return e->ops->set_buffer(e, slot, buf, len);
}

/* The submission system calls of an instance and of the engines it
 * wraps (struct engine.nsubmit_calls). */
static inline uint64_t engine_submit_calls(const struct engine *e)
{
	uint64_t n = 0;

	for (; e; e = e->inner)
		n += e->nsubmit_calls;
	return n;
}

/* The slow paths of engine_exec_full(), in engine.c: a request that
 * failed with EINTR or EAGAIN (result r), and a read or write that
 * transferred less than asked. */
int64_t engine_exec_retry(struct engine *e, struct io_req *req, int64_t r);
/* exec() of a queueing engine, with nothing else of its own in flight:
 * submit `req` through its ops, wait for its completion; the result, or
 * -errno of the submit or the reap. */
int64_t engine_exec_queued(struct engine *e, struct io_req *req);
int64_t engine_exec_rest(struct engine *e, struct io_req *req, int64_t r);

/* Run a synchronous request to completion through exec(), retrying
 * EINTR and EAGAIN (a bounded number of times in a row, then the error
 * is returned; not at all once stop_requested(), util/stop.h, so that
 * a signal ends a blocked open or read) and continuing short reads/writes until `len` bytes or
 * EOF.  Returns total bytes (reads/writes) or the result, or -errno.
 * Inline: the usual case is one engine call and no function to return
 * through after it. */
static ALWAYS_INLINE int64_t engine_exec_full(struct engine *e, struct io_req *req)
{
	int64_t r;

	if (req->op != IO_READ && req->op != IO_WRITE) {
		r = engine_exec(e, req);
		if (likely(r != -EINTR && r != -EAGAIN))
			return r;
		return engine_exec_retry(e, req, r);
	}
	if (unlikely(!req->len))
		return req->res = 0;
	r = engine_exec(e, req);
	if (likely(r == (int64_t)req->len))
		return r; /* the usual case: all of it at once */
	return engine_exec_rest(e, req, r);
}

/* A queue of completed requests, for engines whose submit() completes
 * at once (psync, null): submit pushes, reap pops in order. */
struct engine_cq {
	unsigned depth, n;
	struct io_req **done;
};

void engine_cq_init(struct engine_cq *q, unsigned depth);
void engine_cq_free(struct engine_cq *q);
/* 0, or -EAGAIN when full. */
int engine_cq_push(struct engine_cq *q, struct io_req *req);
/* Move up to max completions to done[]; returns how many. */
int engine_cq_pop(struct engine_cq *q, struct io_req **done, unsigned max);

#endif
