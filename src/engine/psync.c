/*
 * psync.c — the default engine: plain synchronous system calls
 * (pread/pwrite, openat, ...).  submit() executes at once and queues the
 * completion so that aiowrite/aiowait work on it too.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "util/util.h"

static int psync_init(struct engine *e, unsigned depth)
{
	struct engine_cq *q = xcalloc(1, sizeof(*q));

	engine_cq_init(q, depth);
	e->priv = q;
	return 0;
}

static void psync_exit(struct engine *e)
{
	engine_cq_free(e->priv);
	free(e->priv);
}

static int64_t psync_exec(struct engine *e, struct io_req *req)
{
	return engine_syscall(req);
}

static int psync_submit(struct engine *e, struct io_req *req)
{
	struct engine_cq *q = e->priv;

	if (q->n >= q->depth)
		return -EAGAIN;
	engine_syscall(req);
	return engine_cq_push(q, req);
}

static int psync_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	return engine_cq_pop(e->priv, done, max);
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.description = "synchronous system calls (pread/pwrite); the default",
	.caps = ENGINE_INLINE_SYSCALLS,
	.init = psync_init,
	.exit = psync_exit,
	.exec = psync_exec,
	.submit = psync_submit,
	.reap = psync_reap,
};
