/*
 * io_uring.c — engine on liburing.  Reads, writes and fsyncs go through
 * the ring (submit/reap are truly asynchronous; exec submits one request
 * and waits for it).  Other operations (open, unlink, ...) use the plain
 * system calls: io_uring's versions of those are not faster on the
 * kernels people benchmark and are missing on older ones.
 *
 * queue() fills submission queue entries without entering the kernel;
 * flush() hands them all over with one io_uring_submit() (one
 * io_uring_enter()); submit() is queue() then flush(), and reap()
 * flushes first.  Entries the kernel does not take (it stops early when
 * out of memory, or after an entry it cannot even start) stay in the
 * submission ring, and the next io_uring_submit() hands them over again.
 *
 * The ring is set up with IORING_SETUP_CLAMP (liburing 2.3, Debian 12,
 * has it; Linux 5.6 and later honour it): a depth above the kernel's
 * limit of entries (32768 today) is clamped to it instead of refused,
 * and the engine's depth is then what the ring has.  It also asks for
 * IORING_SETUP_COOP_TASKRUN (Linux 5.19): a completion posted by one of
 * the kernel's io-wq threads (where buffered reads of tmpfs, loop devices
 * and other files without non-blocking reads go) waits for the thread's
 * next entry into the kernel, its reap, instead of interrupting it (an
 * inter-processor interrupt per request, expensive in a VM); fio sets the
 * same flag.  A kernel that refuses a flag with EINVAL gets the ring
 * without COOP_TASKRUN, then without either.
 *
 * With ENGINE_OPT_SQPOLL (fio's sqthread_poll) the ring has a kernel
 * thread that polls its submission queue (IORING_SETUP_SQPOLL, bound to
 * a CPU with ENGINE_OPT_SQ_AFF): io_uring_submit() then enters the
 * kernel only to wake that thread when it has gone idle, so
 * nsubmit_calls counts the flushes, not system calls.
 *
 * With ENGINE_OPT_REGFILES (fio's registerfiles) the ring has a table of
 * files (io_uring_register_files, every slot empty at first): an open
 * through the instance puts its descriptor in a free slot, a close takes
 * it out (io_uring_register_files_update, one call each), and the
 * requests on a registered descriptor name its slot (IOSQE_FIXED_FILE).
 *
 * With ENGINE_OPT_FIXEDBUFS it has a table of buffers
 * (io_uring_register_buffers, every slot empty at first) that
 * engine_set_buffer() fills (io_uring_register_buffers_update_tag), and
 * a read or write on one of them is READ_FIXED or WRITE_FIXED.
 *
 * The options are read once, at init: without them the request path is
 * the same but for one test of a field already in the cache.
 */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/util.h"

struct uring {
	struct io_uring ring;
	unsigned depth;
	unsigned inflight; /* taken and not reaped: queued or in the kernel */
	unsigned queued;   /* of which not handed to the kernel yet */
	/* registerfiles (ENGINE_OPT_REGFILES): the table's slots (0: none),
	 * the slot of each descriptor (slot_of[fd], -1: none; nmap of
	 * them) and the free slots (nfree of them in free_slot[]) */
	unsigned nfiles;
	int *slot_of;
	unsigned nmap;
	unsigned *free_slot;
	unsigned nfree;
	/* fixedbufs (ENGINE_OPT_FIXEDBUFS): the table's buffers (nbufs;
	 * iov_base NULL: an empty slot) */
	struct iovec *bufs;
	unsigned nbufs;
	int special; /* registerfiles or fixedbufs: the queue's slow path */
};

/* io_uring_queue_init_params() with the setup flags `flags` and the
 * instance's options (engine_open_opts()): sqthread_poll's
 * IORING_SETUP_SQPOLL, without an idle time of its own (the kernel's
 * default, as fio's), and sqthread_poll_cpu's IORING_SETUP_SQ_AFF. */
static int ring_setup(struct engine *e, struct uring *u, unsigned flags)
{
	struct io_uring_params p = { .flags = flags };

	if (e->opts.flags & ENGINE_OPT_SQPOLL)
		p.flags |= IORING_SETUP_SQPOLL;
	if (e->opts.flags & ENGINE_OPT_SQ_AFF) {
		p.flags |= IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = e->opts.sq_cpu;
	}
	return io_uring_queue_init_params(u->depth, &u->ring, &p);
}

/* After a ring with sqthread_poll was refused: whether the kernel takes
 * a plain one (then the option is what it refused). */
static int plain_ring_ok(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(4, &ring, 0) < 0)
		return 0;
	io_uring_queue_exit(&ring);
	return 1;
}

/* Why the kernel refuses every ring with EPERM, when its sysctl says
 * so: kernel.io_uring_disabled (Linux 6.6) is 2 (io_uring_setup refused
 * to every process) or 1 (to those without CAP_SYS_ADMIN outside
 * kernel.io_uring_group); NULL otherwise. */
static const char *uring_disabled(void)
{
	char c = 0;
	int fd = open("/proc/sys/kernel/io_uring_disabled", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '2'	  ? "io_uring_setup: kernel.io_uring_disabled is 2"
	       : c == '1' ? "io_uring_setup: kernel.io_uring_disabled is 1"
			  : NULL;
}

/* fixedbufs: a table of n slots, all empty (a NULL buffer of no bytes
 * is an empty slot). */
static int bufs_init(struct uring *u, unsigned n)
{
	int ret;

	u->nbufs = n ? n : 1;
	u->bufs = xcalloc(u->nbufs, sizeof(*u->bufs));
	ret = io_uring_register_buffers(&u->ring, u->bufs, u->nbufs);
	if (ret < 0) {
		free(u->bufs);
		u->bufs = NULL;
		u->nbufs = 0;
	}
	return ret;
}

static int uring_set_buffer(struct engine *e, unsigned slot, void *buf, size_t len)
{
	struct uring *u = e->priv;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	int ret;

	if (slot >= u->nbufs)
		return -EINVAL;
	ret = io_uring_register_buffers_update_tag(&u->ring, slot, &iov, NULL, 1);
	if (ret < 0)
		return ret;
	u->bufs[slot] = iov;
	return 0;
}

/* The slot of the table that holds the request's buffer, or -1. */
static int buf_slot(const struct uring *u, const struct io_req *req)
{
	const char *b = req->buf;

	if (req->buf_index)
		return req->buf_index <= u->nbufs ? (int)req->buf_index - 1 : -1;
	for (unsigned i = 0; i < u->nbufs; i++) {
		const char *base = u->bufs[i].iov_base;

		if (base && b >= base && b + req->len <= base + u->bufs[i].iov_len)
			return (int)i;
	}
	return -1;
}

/* registerfiles: a table of n slots, all empty (-1). */
static int files_init(struct uring *u, unsigned n)
{
	int *fds = xcalloc(n ? n : 1, sizeof(*fds));
	int ret;

	u->nfiles = n ? n : 1;
	for (unsigned i = 0; i < u->nfiles; i++)
		fds[i] = -1;
	ret = io_uring_register_files(&u->ring, fds, u->nfiles);
	free(fds);
	if (ret < 0)
		return ret;
	u->free_slot = xcalloc(u->nfiles, sizeof(*u->free_slot));
	for (unsigned i = 0; i < u->nfiles; i++)
		u->free_slot[i] = u->nfiles - 1 - i;
	u->nfree = u->nfiles;
	return 0;
}

/* Put descriptor fd in a free slot of the table (after taking any slot a
 * descriptor of that number had: the number was closed behind the
 * instance's back and reused).  0 when it is registered or every slot is
 * taken (it is used by its descriptor), or the kernel's -errno. */
static int file_register(struct uring *u, int fd)
{
	unsigned slot;
	int ret;

	if ((unsigned)fd >= u->nmap) {
		unsigned n = MAX((unsigned)fd + 1, u->nmap * 2);

		u->slot_of = xrealloc(u->slot_of, n * sizeof(*u->slot_of));
		for (unsigned i = u->nmap; i < n; i++)
			u->slot_of[i] = -1;
		u->nmap = n;
	}
	if (u->slot_of[fd] >= 0) {
		slot = (unsigned)u->slot_of[fd];
	} else {
		if (!u->nfree)
			return 0;
		slot = u->free_slot[--u->nfree];
	}
	ret = io_uring_register_files_update(&u->ring, slot, &fd, 1);
	if (ret < 0) {
		u->slot_of[fd] = -1;
		u->free_slot[u->nfree++] = slot;
		return ret;
	}
	u->slot_of[fd] = (int)slot;
	return 0;
}

/* Empty the slot of descriptor fd (before it is closed). */
static void file_unregister(struct uring *u, int fd)
{
	int none = -1;

	if ((unsigned)fd >= u->nmap || u->slot_of[fd] < 0)
		return;
	(void)io_uring_register_files_update(&u->ring, (unsigned)u->slot_of[fd], &none, 1);
	u->free_slot[u->nfree++] = (unsigned)u->slot_of[fd];
	u->slot_of[fd] = -1;
}

/* registerfiles: an open registers the descriptor it made, a close
 * unregisters its descriptor first.  A registration the kernel refuses
 * fails the open (its descriptor closed). */
static int64_t files_exec(struct engine *e, struct uring *u, struct io_req *req)
{
	int64_t r;
	int ret;

	if (req->op == IO_CLOSE) {
		file_unregister(u, req->fd);
		return engine_syscall(req);
	}
	r = engine_syscall(req);
	if (r < 0)
		return r;
	ret = file_register(u, (int)r);
	if (ret < 0) {
		close((int)r);
		return req->res = ret;
	}
	return r;
}

/* The SQE names the slot of the request's descriptor (registered now
 * if the instance did not open it); left as it is when it has none. */
static void sqe_fixed_file(struct uring *u, struct io_uring_sqe *sqe, int fd)
{
	if (fd < 0)
		return;
	if ((unsigned)fd >= u->nmap || u->slot_of[fd] < 0)
		if (file_register(u, fd) < 0 || (unsigned)fd >= u->nmap || u->slot_of[fd] < 0)
			return;
	sqe->fd = u->slot_of[fd];
	sqe->flags |= IOSQE_FIXED_FILE;
}

/* The options' part of a request's SQE: its buffer's slot (a read or
 * write on a registered buffer becomes READ_FIXED or WRITE_FIXED) and
 * its file's. */
static void sqe_special(struct uring *u, struct io_uring_sqe *sqe, const struct io_req *req)
{
	int slot;

	if (u->nbufs && (req->op == IO_READ || req->op == IO_WRITE) &&
	    (slot = buf_slot(u, req)) >= 0) {
		if (req->op == IO_READ)
			io_uring_prep_read_fixed(sqe, req->fd, req->buf, (unsigned)req->len, req->off,
						 slot);
		else
			io_uring_prep_write_fixed(sqe, req->fd, req->buf, (unsigned)req->len,
						  req->off, slot);
	}
	if (u->nfiles)
		sqe_fixed_file(u, sqe, req->fd);
}

static int uring_init(struct engine *e, unsigned depth)
{
	struct uring *u = xcalloc(1, sizeof(*u));
	unsigned flags = 0;
	int ret;

	u->depth = depth < 4 ? 4 : depth;
#ifdef IORING_SETUP_CLAMP
	flags |= IORING_SETUP_CLAMP;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
	/* (not with sqthread_poll: the kernel's thread posts the
	 * completions, and the kernel refuses the two together) */
	if (!(e->opts.flags & ENGINE_OPT_SQPOLL))
		ret = ring_setup(e, u, flags | IORING_SETUP_COOP_TASKRUN);
	else
		ret = -EINVAL;
	if (ret == -EINVAL) /* a kernel before 5.19 */
#endif
		ret = ring_setup(e, u, flags);
	if (ret == -EINVAL && flags) /* a kernel before 5.6 */
		ret = ring_setup(e, u, 0);
	if (ret < 0) {
		/* what the kernel refused: the option, when it takes a plain
		 * ring; else any ring, and the sysctl that says why */
		if ((e->opts.flags & ENGINE_OPT_SQPOLL) && plain_ring_ok()) {
			int aff = (e->opts.flags & ENGINE_OPT_SQ_AFF) != 0;

			e->init_refused = aff ? "IORING_SETUP_SQPOLL|IORING_SETUP_SQ_AFF"
					      : "IORING_SETUP_SQPOLL";
			e->init_opts = aff ? "sqthread_poll and sqthread_poll_cpu" : "sqthread_poll";
		} else if (ret == -EPERM) {
			e->init_refused = uring_disabled();
		}
		free(u);
		return ret;
	}
	if (u->ring.sq.ring_entries < u->depth) /* clamped */
		u->depth = u->ring.sq.ring_entries;
	if ((e->opts.flags & ENGINE_OPT_REGFILES) && (ret = files_init(u, e->opts.nfiles)) < 0) {
		e->init_refused = "IORING_REGISTER_FILES";
		e->init_opts = "registerfiles";
		io_uring_queue_exit(&u->ring);
		free(u);
		return ret;
	}
	if ((e->opts.flags & ENGINE_OPT_FIXEDBUFS) && (ret = bufs_init(u, e->opts.nbufs)) < 0) {
		e->init_refused = "IORING_REGISTER_BUFFERS";
		e->init_opts = "fixedbufs";
		io_uring_queue_exit(&u->ring);
		free(u->slot_of);
		free(u->free_slot);
		free(u);
		return ret;
	}
	u->special = u->nfiles || u->nbufs;
	e->priv = u;
	return 0;
}

static void uring_exit(struct engine *e)
{
	struct uring *u = e->priv;

	io_uring_queue_exit(&u->ring);
	free(u->slot_of);
	free(u->free_slot);
	free(u->bufs);
	free(u);
}

static int ring_op(enum io_op op)
{
	return op == IO_READ || op == IO_WRITE || op == IO_FSYNC || op == IO_FDATASYNC;
}

static int uring_queue(struct engine *e, struct io_req *req)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe;

	if (!ring_op(req->op))
		return -EINVAL;
	if (u->inflight >= u->depth)
		return -EAGAIN;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return -EAGAIN;
	switch (req->op) {
	case IO_READ:
		io_uring_prep_read(sqe, req->fd, req->buf, (unsigned)req->len, req->off);
		break;
	case IO_WRITE:
		io_uring_prep_write(sqe, req->fd, req->buf, (unsigned)req->len, req->off);
		break;
	default:
		io_uring_prep_fsync(sqe, req->fd,
				    req->op == IO_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
		break;
	}
	if (unlikely(u->special))
		sqe_special(u, sqe, req);
	io_uring_sqe_set_data(sqe, req);
	u->inflight++;
	u->queued++;
	return 0;
}

/* Hand every queued entry to the kernel: one io_uring_submit(), more
 * only when the kernel takes part of them. */
static int uring_flush(struct engine *e)
{
	struct uring *u = e->priv;

	while (u->queued) {
		int ret = io_uring_submit(&u->ring);

		e->nsubmit_calls++;
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return ret;
		if (ret == 0)
			return -EAGAIN;
		u->queued -= (unsigned)ret < u->queued ? (unsigned)ret : u->queued;
	}
	return 0;
}

/* Taken requests are never refused afterwards: one the kernel would not
 * take now stays queued, for the next flush or reap. */
static int uring_submit(struct engine *e, struct io_req *req)
{
	int ret = uring_queue(e, req);

	if (ret < 0)
		return ret;
	uring_flush(e);
	return 0;
}

static int uring_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct uring *u = e->priv;
	int pushed = uring_flush(e);
	unsigned n = 0;

	/* wait only for what the kernel has */
	if (min > u->inflight - u->queued)
		min = u->inflight - u->queued;
	if (pushed < 0 && u->inflight == u->queued)
		return pushed; /* nothing in the kernel to wait for */
	while (n < max && u->inflight > u->queued) {
		struct io_uring_cqe *cqe;
		int ret;

		/* one wait for all `min` (a single io_uring_enter() asking
		 * for them: fio's iodepth_batch_complete_min), then taken
		 * one by one */
		if (n < min)
			ret = io_uring_wait_cqe_nr(&u->ring, &cqe, min - n);
		else
			ret = io_uring_peek_cqe(&u->ring, &cqe);
		if (ret == -EAGAIN)
			break;
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return n ? (int)n : ret;
		struct io_req *req = io_uring_cqe_get_data(cqe);

		req->res = cqe->res;
		io_uring_cqe_seen(&u->ring, cqe);
		u->inflight--;
		done[n++] = req;
	}
	return (int)n;
}

static int64_t uring_exec(struct engine *e, struct io_req *req)
{
	/* Non-ring operations, and any request made while asynchronous ones
	 * are in flight (whose completions a reap here would steal), use the
	 * plain system call. */
	struct uring *u = e->priv;

	if (unlikely(u->nfiles) && (req->op == IO_OPEN || req->op == IO_CLOSE))
		return files_exec(e, u, req);
	if (!ring_op(req->op) || u->inflight)
		return engine_syscall(req);
	return engine_exec_queued(e, req);
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.description = "Linux io_uring through liburing (reads, writes, fsync)",
	.caps = ENGINE_ASYNC | ENGINE_SQPOLL | ENGINE_REGFILES | ENGINE_FIXEDBUFS,
	.init = uring_init,
	.exit = uring_exit,
	.exec = uring_exec,
	.submit = uring_submit,
	.reap = uring_reap,
	.queue = uring_queue,
	.flush = uring_flush,
	.set_buffer = uring_set_buffer,
};
#endif
