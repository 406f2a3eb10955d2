/*
 * io_uring.c — engine on liburing.  Reads, writes and fsyncs go through
 * the ring (submit/reap are truly asynchronous; exec submits one request
 * and waits for it).  Other operations (open, unlink, ...) use the plain
 * system calls: io_uring's versions of those are not faster on the
 * kernels people benchmark and are missing on older ones.
 */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "util/util.h"

struct uring {
	struct io_uring ring;
	unsigned depth, inflight;
};

static int uring_init(struct engine *e, unsigned depth)
{
	struct uring *u = xcalloc(1, sizeof(*u));
	int ret;

	u->depth = depth < 4 ? 4 : depth;
	ret = io_uring_queue_init(u->depth, &u->ring, 0);
	if (ret < 0) {
		free(u);
		return ret;
	}
	e->priv = u;
	return 0;
}

static void uring_exit(struct engine *e)
{
	struct uring *u = e->priv;

	io_uring_queue_exit(&u->ring);
	free(u);
}

static int ring_op(enum io_op op)
{
	return op == IO_READ || op == IO_WRITE || op == IO_FSYNC || op == IO_FDATASYNC;
}

static int uring_submit(struct engine *e, struct io_req *req)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe;
	int ret;

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
	io_uring_sqe_set_data(sqe, req);
	ret = io_uring_submit(&u->ring);
	if (ret < 0)
		return ret;
	u->inflight++;
	return 0;
}

static int uring_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct uring *u = e->priv;
	unsigned n = 0;

	if (min > u->inflight)
		min = u->inflight;
	while (n < max && u->inflight) {
		struct io_uring_cqe *cqe;
		int ret;

		if (n < min)
			ret = io_uring_wait_cqe(&u->ring, &cqe);
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
	struct io_req *done;
	int ret;

	/* Non-ring operations, and any request made while asynchronous ones
	 * are in flight (whose completions a reap here would steal), use the
	 * plain system call. */
	if (!ring_op(req->op) || ((struct uring *)e->priv)->inflight)
		return engine_syscall(req);
	ret = uring_submit(e, req);
	if (ret < 0)
		return req->res = ret;
	ret = uring_reap(e, &done, 1, 1);
	if (ret < 0)
		return req->res = ret;
	return req->res;
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.description = "Linux io_uring through liburing (reads, writes, fsync)",
	.caps = ENGINE_ASYNC,
	.init = uring_init,
	.exit = uring_exit,
	.exec = uring_exec,
	.submit = uring_submit,
	.reap = uring_reap,
};
#endif
