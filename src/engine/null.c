/*
 * null.c — an engine that does nothing, instantly.  Every request
 * succeeds: opens return a made-up descriptor, reads and writes transfer
 * the full length, listdir finds no entries.  With it the whole runner
 * path (selection, stats, output) runs without touching storage, for
 * tests and for measuring fsgauge's own overhead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/util.h"

struct null_engine {
	int next_fd;
	struct engine_cq q;
};

static int null_init(struct engine *e, unsigned depth)
{
	struct null_engine *p = xcalloc(1, sizeof(*p));

	p->next_fd = 1000;
	engine_cq_init(&p->q, depth);
	e->priv = p;
	return 0;
}

static void null_exit(struct engine *e)
{
	struct null_engine *p = e->priv;

	engine_cq_free(&p->q);
	free(p);
}

static int64_t null_exec(struct engine *e, struct io_req *req)
{
	struct null_engine *p = e->priv;

	switch (req->op) {
	case IO_OPEN:
		return req->res = p->next_fd++;
	case IO_READ:
	case IO_WRITE:
	case IO_FALLOCATE:
	case IO_DISCARD:
		return req->res = (int64_t)req->len;
	case IO_STAT:
	case IO_FSTAT:
		if (req->st)
			memset(req->st, 0, sizeof(*req->st));
		return req->res = 0;
	case IO_LSEEK:
		return req->res = (int64_t)req->off;
	default:
		return req->res = 0;
	}
}

static int null_submit(struct engine *e, struct io_req *req)
{
	struct null_engine *p = e->priv;

	if (p->q.n >= p->q.depth)
		return -EAGAIN;
	null_exec(e, req);
	return engine_cq_push(&p->q, req);
}

static int null_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct null_engine *p = e->priv;

	return engine_cq_pop(&p->q, done, max);
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.description = "does nothing, instantly (tests and overhead measurement)",
	.caps = ENGINE_DISKLESS,
	.init = null_init,
	.exit = null_exit,
	.exec = null_exec,
	.submit = null_submit,
	.reap = null_reap,
};
