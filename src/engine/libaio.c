/*
 * libaio.c — engine on Linux native AIO through Debian's libaio
 * (io_setup, io_submit, io_getevents).  Reads, writes, fsyncs and
 * fdatasyncs go through the AIO context: submit() queues up to `depth`
 * of them and reap() hands their completions back; exec() submits one
 * and waits for it.  Other operations (open, unlink, stat, ...) use the
 * plain system calls, as the io_uring engine does.
 *
 * queue() prepares a control block without entering the kernel; flush()
 * hands every queued one over with one io_submit().  When the kernel
 * takes only the first k of n, the call is repeated for the rest: an
 * io_submit() that refuses its first block with -errno (other than
 * EAGAIN) makes that request complete with the error, and the next call
 * goes on from the one after it; -EAGAIN (out of kernel resources)
 * leaves the rest queued for the next flush or reap.  submit() is
 * queue() then flush(), and reap() flushes first.
 *
 * Native AIO is asynchronous for O_DIRECT files; on a buffered file the
 * kernel often completes the request inside io_submit().  The completion
 * is the same either way.
 *
 * A request the kernel refuses at submission (a bad descriptor, an
 * O_DIRECT request out of alignment) is not an error of submit(): it
 * completes with -errno and reap() returns it, as io_uring's completions
 * carry such errors.  An fsync the kernel cannot queue (-EINVAL from
 * kernels before 4.18) is done synchronously and completes the same way.
 */
#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "util/util.h"

struct aio {
	io_context_t ctx;
	unsigned depth;
	unsigned inflight;	 /* in the kernel's context */
	struct iocb *cbs;	 /* depth control blocks ... */
	struct iocb **free_cbs;	 /* ... of which nfree are unused */
	unsigned nfree;
	struct io_event *events; /* depth, for io_getevents() */
	struct engine_cq done;	 /* completed at submission */
	struct iocb **pending;	 /* depth: queued, not handed to the kernel */
	unsigned npending;
};

static int laio_init(struct engine *e, unsigned depth)
{
	struct aio *a = xcalloc(1, sizeof(*a));
	int ret;

	a->depth = depth ? depth : 1;
	ret = io_setup((int)a->depth, &a->ctx);
	if (ret < 0) {
		if (ret == -EAGAIN)
			msg_err("libaio: the system-wide limit of AIO requests is reached "
				"(sysctl fs.aio-max-nr; each thread takes its queue depth)");
		free(a);
		return ret;
	}
	a->cbs = xcalloc(a->depth, sizeof(*a->cbs));
	a->free_cbs = xcalloc(a->depth, sizeof(*a->free_cbs));
	a->events = xcalloc(a->depth, sizeof(*a->events));
	a->pending = xcalloc(a->depth, sizeof(*a->pending));
	for (unsigned i = 0; i < a->depth; i++)
		a->free_cbs[i] = &a->cbs[i];
	a->nfree = a->depth;
	engine_cq_init(&a->done, a->depth);
	e->priv = a;
	return 0;
}

static void laio_exit(struct engine *e)
{
	struct aio *a = e->priv;

	/* io_destroy() waits for what is still in flight */
	io_destroy(a->ctx);
	engine_cq_free(&a->done);
	free(a->pending);
	free(a->events);
	free(a->free_cbs);
	free(a->cbs);
	free(a);
}

static int aio_op(enum io_op op)
{
	return op == IO_READ || op == IO_WRITE || op == IO_FSYNC || op == IO_FDATASYNC;
}

static void prep(struct iocb *cb, struct io_req *req)
{
	switch (req->op) {
	case IO_READ:
		io_prep_pread(cb, req->fd, req->buf, req->len, (long long)req->off);
		break;
	case IO_WRITE:
		io_prep_pwrite(cb, req->fd, req->buf, req->len, (long long)req->off);
		break;
	case IO_FDATASYNC:
		io_prep_fdsync(cb, req->fd);
		break;
	default:
		io_prep_fsync(cb, req->fd);
		break;
	}
	cb->data = req;
}

static int laio_queue(struct engine *e, struct io_req *req)
{
	struct aio *a = e->priv;
	struct iocb *cb;

	if (!aio_op(req->op))
		return -EINVAL;
	if (a->inflight + a->done.n + a->npending >= a->depth || !a->nfree)
		return -EAGAIN;
	cb = a->free_cbs[--a->nfree];
	prep(cb, req);
	a->pending[a->npending++] = cb;
	return 0;
}

/* The kernel refused a control block with `err`: its request completes
 * with the error (an fsync it cannot queue is done synchronously). */
static void refused(struct aio *a, struct iocb *cb, int err)
{
	struct io_req *req = cb->data;

	a->free_cbs[a->nfree++] = cb;
	if (err == -EINVAL && (req->op == IO_FSYNC || req->op == IO_FDATASYNC))
		engine_syscall(req);
	else
		req->res = err < 0 ? err : -EIO;
	/* cannot be full: queued, in flight and done stay within depth */
	engine_cq_push(&a->done, req);
}

/* Hand every queued control block to the kernel: one io_submit(), more
 * only when the kernel takes part of them. */
static int laio_flush(struct engine *e)
{
	struct aio *a = e->priv;
	unsigned head = 0;
	int err = 0;

	while (head < a->npending) {
		int ret = io_submit(a->ctx, (long)(a->npending - head), a->pending + head);

		e->nsubmit_calls++;
		if (ret == -EINTR)
			continue;
		if (ret > 0) {
			a->inflight += (unsigned)ret;
			head += (unsigned)ret;
		} else if (ret == -EAGAIN || ret == 0) {
			err = -EAGAIN; /* out of kernel resources: the rest stay queued */
			break;
		} else {
			refused(a, a->pending[head++], ret);
		}
	}
	a->npending -= head;
	memmove(a->pending, a->pending + head, a->npending * sizeof(*a->pending));
	return err;
}

/* Taken requests are never refused afterwards: one the kernel would not
 * take now stays queued, for the next flush or reap. */
static int laio_submit(struct engine *e, struct io_req *req)
{
	int ret = laio_queue(e, req);

	if (ret < 0)
		return ret;
	laio_flush(e);
	return 0;
}

static int laio_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct aio *a = e->priv;
	int pushed = laio_flush(e);
	unsigned n = (unsigned)engine_cq_pop(&a->done, done, max);

	if (min > n + a->inflight)
		min = n + a->inflight; /* wait only for what the kernel has */
	if (pushed < 0 && !n && !a->inflight)
		return pushed; /* nothing in the kernel to wait for */
	while (n < max && a->inflight) {
		struct timespec now = { 0, 0 };
		unsigned want = max - n < a->inflight ? max - n : a->inflight;
		unsigned need = min > n ? min - n : 0;
		/* io_getevents() never writes more than `want` events */
		int got = io_getevents(a->ctx, (long)need, (long)want, a->events,
				       need ? NULL : &now);

		if (got == -EINTR)
			continue;
		if (got < 0)
			return n ? (int)n : got;
		for (int i = 0; i < got; i++) {
			struct io_req *req = a->events[i].data;

			/* res is an unsigned long holding bytes or -errno */
			req->res = (long)a->events[i].res;
			a->free_cbs[a->nfree++] = a->events[i].obj;
			done[n++] = req;
		}
		a->inflight -= (unsigned)got;
		if (n >= min)
			break;
	}
	return (int)n;
}

static int64_t laio_exec(struct engine *e, struct io_req *req)
{
	struct aio *a = e->priv;

	/* Non-AIO operations, and any request made while asynchronous ones
	 * are queued (whose completions a reap here would take), use the
	 * plain system call. */
	if (!aio_op(req->op) || a->inflight || a->done.n || a->npending)
		return engine_syscall(req);
	return engine_exec_queued(e, req);
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.description = "Linux native AIO through libaio (reads, writes, fsync, fdatasync)",
	.caps = ENGINE_ASYNC,
	.init = laio_init,
	.exit = laio_exit,
	.exec = laio_exec,
	.submit = laio_submit,
	.reap = laio_reap,
	.queue = laio_queue,
	.flush = laio_flush,
};
#endif
