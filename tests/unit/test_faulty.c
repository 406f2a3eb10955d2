/*
 * test_faulty.c — the fault-injecting engine: spec parsing, nth/after
 * counting (process-wide, across instances and threads), injected
 * errors and short transfers, and engine_exec_full()'s retrying of
 * EINTR, EAGAIN and short transfers.  Runs on the null engine, so no
 * storage is touched.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/faulty.h"
#include "tap.h"
#include "util/stop.h"

static int64_t do_op(struct engine *e, enum io_op op, size_t len)
{
	static char buf[65536];
	struct io_req q = { .op = op, .fd = 3, .buf = buf, .len = len, .path = "x" };

	return engine_exec(e, &q);
}

static void test_parse(void)
{
	static const struct {
		const char *spec;
		int ok;
		uint32_t ops;
		int after;
		uint64_t n;
		int err;
	} cases[] = {
		{ "faulty:null", 1, 0, 0, 0, EIO },
		{ "faulty:psync:op=write,nth=5,err=EIO", 1, 1u << IO_WRITE, 0, 5, EIO },
		{ "faulty:psync:op=write|fsync,after=0,err=ENOSPC", 1,
		  (1u << IO_WRITE) | (1u << IO_FSYNC), 1, 0, ENOSPC },
		{ "faulty:null:nth=1", 1, (1u << IO__COUNT) - 1, 0, 1, EIO },
		{ "faulty:null:op=read,nth=2,err=short", 1, 1u << IO_READ, 0, 2, 0 },
		{ "faulty:null:op=any,nth=2,err=short", 1, (1u << IO_READ) | (1u << IO_WRITE), 0, 2,
		  0 },
		{ "faulty:null:op=open,after=3,err=eintr", 1, 1u << IO_OPEN, 1, 3, EINTR },
		{ "faulty:null:op=read,delay=2000", 1, 1u << IO_READ, 1, 0, EIO },
		{ "faulty:null:op=write,nth=3,delay=1", 1, 1u << IO_WRITE, 0, 3, EIO },
		{ "faulty:null:op=read,delay=0", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=read,delay=x", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=read,delay=10000001", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=read,delay=5,err=EIO", 0, 0, 0, 0, 0 },
		{ "faulty", 0, 0, 0, 0, 0 },
		{ "faulty:", 0, 0, 0, 0, 0 },
		{ "faulty:nosuch:nth=1", 0, 0, 0, 0, 0 },
		{ "faulty:faulty:nth=1", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=0", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=1,after=2", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=bogus,nth=1", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=,nth=1", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=1,err=EWHAT", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=fsync,nth=1,err=short", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=any,nth=2,err=zero", 1, 1u << IO_READ, 0, 2, FAULTY_ZERO },
		{ "faulty:null:op=read,after=1,err=eof", 1, 1u << IO_READ, 1, 1, FAULTY_EOF },
		{ "faulty:null:op=write,nth=1,err=zero", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=1,err=eof", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=x", 0, 0, 0, 0, 0 },
		{ "faulty:null:op=write,nth=-1", 0, 0, 0, 0, 0 },
		{ "faulty:null:color=red,nth=1", 0, 0, 0, 0, 0 },
		{ "faulty:null:nth", 0, 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct faulty_rule r;
		char err[512] = "";
		int ret = faulty_parse(cases[i].spec, &r, err, sizeof(err));

		if (!cases[i].ok) {
			ok(ret == -EINVAL && err[0], "parse rejects '%s' (%s)", cases[i].spec, err);
			continue;
		}
		if (!ok(ret == 0, "parse accepts '%s'", cases[i].spec)) {
			printf("#   %s\n", err);
			continue;
		}
		if (cases[i].ops)
			is_int(r.ops, cases[i].ops, "  ops mask of '%s'", cases[i].spec);
		is_int(r.after, cases[i].after, "  after flag of '%s'", cases[i].spec);
		is_int(r.n, cases[i].n, "  count of '%s'", cases[i].spec);
		is_int(r.err, cases[i].err, "  error of '%s'", cases[i].spec);
	}
}

static void test_nth(void)
{
	const char *spec = "faulty:null:op=write,nth=3,err=ENOSPC";
	struct engine *e;
	int64_t got[6];

	ok(engine_open(&e, spec, 4) == 0, "open %s", spec);
	for (int i = 0; i < 6; i++) {
		do_op(e, IO_READ, 100); /* reads are not counted by an op=write rule */
		got[i] = do_op(e, IO_WRITE, 100);
	}
	for (int i = 0; i < 6; i++)
		is_int(got[i], i == 2 ? -ENOSPC : 100, "write %d of nth=3 rule", i + 1);
	is_int(faulty_count(spec), 6, "six writes counted");
	is_int(faulty_injected(spec), 1, "one fault injected");
	is_int(e->nreq[IO_WRITE], 6, "requests counted on the outer instance");
	engine_close(e);
}

/* delay=: the picked operations succeed, each after at least the delay
 * (a lower bound: a sleep is never shorter), and count as injected. */
static void test_delay(void)
{
	const char *spec = "faulty:null:op=read,delay=3000";
	struct engine *e;
	struct timespec a, b;
	int64_t r[3];

	ok(engine_open(&e, spec, 1) == 0, "open %s", spec);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 3; i++)
		r[i] = do_op(e, IO_READ, 100);
	clock_gettime(CLOCK_MONOTONIC, &b);
	is_int(do_op(e, IO_WRITE, 50), 50, "a write is not picked by op=read");
	for (int i = 0; i < 3; i++)
		is_int(r[i], 100, "delayed read %d succeeds in full", i + 1);
	ok((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) >= 3 * 3000000LL,
	   "three delayed reads take at least 3 x 3 ms");
	is_int(faulty_injected(spec), 3, "each delay counted as injected");
	engine_close(e);
}

static void test_after(void)
{
	const char *spec = "faulty:null:op=open|fsync,after=2,err=EIO";
	struct engine *e;
	int fails = 0;

	engine_open(&e, spec, 1);
	is_int(do_op(e, IO_OPEN, 0) >= 0, 1, "open 1 succeeds");
	is_int(do_op(e, IO_FSYNC, 0), 0, "fsync (op 2) succeeds");
	is_int(do_op(e, IO_WRITE, 10), 10, "write is not affected");
	for (int i = 0; i < 10; i++)
		fails += do_op(e, i % 2 ? IO_OPEN : IO_FSYNC, 0) == -EIO;
	is_int(fails, 10, "every open and fsync after the 2nd fails");
	engine_close(e);
}

static void test_shared_across_instances(void)
{
	const char *spec = "faulty:null:op=write,nth=4";
	struct engine *a, *b;

	engine_open(&a, spec, 1);
	engine_open(&b, spec, 1);
	is_int(do_op(a, IO_WRITE, 1), 1, "write 1 on instance a");
	is_int(do_op(b, IO_WRITE, 1), 1, "write 2 on instance b");
	is_int(do_op(a, IO_WRITE, 1), 1, "write 3 on instance a");
	is_int(do_op(b, IO_WRITE, 1), -EIO, "write 4 on instance b fails: counting is shared");
	is_int(do_op(a, IO_WRITE, 1), 1, "write 5 on instance a");
	engine_close(a);
	engine_close(b);
}

struct thr {
	const char *spec;
	int fails, n;
};

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	struct engine *e;

	if (engine_open(&e, t->spec, 1) < 0)
		return NULL;
	for (int i = 0; i < t->n; i++)
		if (do_op(e, IO_WRITE, 8) == -EIO)
			t->fails++;
	engine_close(e);
	return NULL;
}

static void test_threads(void)
{
	const char *spec = "faulty:null:op=write,nth=7777";
	struct thr t[4];
	pthread_t tid[4];
	int fails = 0;

	for (int i = 0; i < 4; i++) {
		t[i] = (struct thr){ spec, 0, 5000 };
		pthread_create(&tid[i], NULL, thr_main, &t[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		fails += t[i].fails;
	}
	is_int(fails, 1, "exactly one of 20000 writes on 4 threads fails (nth=7777)");
	is_int(faulty_count(spec), 20000, "all 20000 writes counted");
}

static void test_short_and_retry(void)
{
	struct engine *e;
	char buf[1000];
	struct io_req q;
	uint64_t before;

	engine_open(&e, "faulty:null:op=write,after=0,err=short", 1);
	is_int(do_op(e, IO_WRITE, 1000), 500, "short: a write transfers half");
	is_int(do_op(e, IO_WRITE, 1), 1, "short: a one-byte write cannot be shorter");
	is_int(do_op(e, IO_READ, 1000), 1000, "short on writes leaves reads whole");
	before = e->nreq[IO_WRITE];
	q = (struct io_req){ .op = IO_WRITE, .fd = 3, .buf = buf, .len = 1000, .off = 0 };
	is_int(engine_exec_full(e, &q), 1000, "exec_full completes a write made of short ones");
	is_int(q.res, 1000, "  and sets res");
	/* 1000 -> 500+250+125+62+31+16+8+4+2+1+1 */
	is_int(e->nreq[IO_WRITE] - before, 11, "  in 11 partial writes");
	engine_close(e);

	/* what a read returns: zeros (a lost write), or nothing (the end) */
	engine_open(&e, "faulty:null:op=read,nth=1,err=zero", 1);
	memset(buf, 0x5a, sizeof(buf));
	q = (struct io_req){ .op = IO_READ, .fd = 3, .buf = buf, .len = 1000 };
	is_int(engine_exec(e, &q), 1000, "zero: the read succeeds");
	ok(buf[0] == 0 && buf[999] == 0, "  and returns zeros");
	engine_close(e);
	engine_open(&e, "faulty:null:op=read,nth=1,err=eof", 1);
	q = (struct io_req){ .op = IO_READ, .fd = 3, .buf = buf, .len = 1000 };
	is_int(engine_exec_full(e, &q), 0, "eof: the read finds the end (0 bytes)");
	is_int(do_op(e, IO_READ, 1000), 1000, "  the next read is whole");
	engine_close(e);

	engine_open(&e, "faulty:null:op=read,nth=1,err=EINTR", 1);
	q = (struct io_req){ .op = IO_READ, .fd = 3, .buf = buf, .len = 1000 };
	is_int(engine_exec_full(e, &q), 1000, "EINTR on a read is retried");
	engine_close(e);

	engine_open(&e, "faulty:null:op=open,nth=1,err=EAGAIN", 1);
	q = (struct io_req){ .op = IO_OPEN, .path = "x" };
	ok(engine_exec_full(e, &q) >= 0, "EAGAIN on an open is retried");
	engine_close(e);

	engine_open(&e, "faulty:null:op=fsync,after=0,err=EINTR", 1);
	q = (struct io_req){ .op = IO_FSYNC, .fd = 3 };
	is_int(engine_exec_full(e, &q), -EINTR, "endless EINTR gives up with the error");
	engine_close(e);

	engine_open(&e, "faulty:null:op=write,after=5,err=EIO", 1);
	q = (struct io_req){ .op = IO_WRITE, .fd = 3, .buf = buf, .len = 100 };
	is_int(engine_exec_full(e, &q), 100, "write before the fault");
	for (int i = 0; i < 4; i++)
		engine_exec_full(e, &q);
	is_int(engine_exec_full(e, &q), -EIO, "EIO is returned, not retried");
	engine_close(e);
}

/* Once the process is stopping (util/stop.h), an EINTR or EAGAIN is
 * returned at once instead of retried: a signal must end an open that
 * blocks (a FIFO nobody writes), not be answered by opening again. */
static void test_retry_stopping(void)
{
	static volatile int flag;
	struct engine *e;
	struct io_req q;
	char buf[64];
	uint64_t before;

	stop_register(&flag);
	ok(!stop_requested(), "a registered flag at 0 is not stopping");
	engine_open(&e, "faulty:null:op=read,nth=1,err=EINTR", 1);
	q = (struct io_req){ .op = IO_READ, .fd = 3, .buf = buf, .len = sizeof(buf) };
	is_int(engine_exec_full(e, &q), sizeof(buf), "not stopping: EINTR is retried");
	engine_close(e);

	flag = 2; /* SIGINT */
	ok(stop_requested(), "a set flag is stopping");
	engine_open(&e, "faulty:null:op=open,after=0,err=EINTR", 1);
	before = e->nreq[IO_OPEN];
	q = (struct io_req){ .op = IO_OPEN, .path = "x" };
	is_int(engine_exec_full(e, &q), -EINTR, "stopping: EINTR on an open is returned");
	is_int(e->nreq[IO_OPEN] - before, 1, "  after one request, not retried");
	engine_close(e);

	engine_open(&e, "faulty:null:op=write,after=0,err=EAGAIN", 1);
	before = e->nreq[IO_WRITE];
	q = (struct io_req){ .op = IO_WRITE, .fd = 3, .buf = buf, .len = sizeof(buf) };
	is_int(engine_exec_full(e, &q), -EAGAIN, "stopping: EAGAIN on a write is returned");
	is_int(e->nreq[IO_WRITE] - before, 1, "  after one request, not retried");
	engine_close(e);

	engine_open(&e, "faulty:null:op=read,nth=2,err=EINTR", 1);
	q = (struct io_req){ .op = IO_READ, .fd = 3, .buf = buf, .len = sizeof(buf) };
	engine_exec_full(e, &q); /* the first read, whole */
	is_int(engine_exec_full(e, &q), -EINTR, "stopping: an interrupted read is not resumed");
	engine_close(e);

	stop_register(NULL);
	ok(!stop_requested(), "unregistered: never stopping");
}

static void test_async(void)
{
	struct engine *e;
	char buf[64];
	struct io_req r[4], *done[4];
	int n, fails = 0, whole = 0;

	engine_open(&e, "faulty:null:op=write,nth=2,err=EIO", 4);
	for (int i = 0; i < 4; i++) {
		r[i] = (struct io_req){ .op = IO_WRITE, .fd = 3, .buf = buf, .len = 64 };
		is_int(engine_submit(e, &r[i]), 0, "submit %d", i + 1);
	}
	n = engine_reap(e, done, 4, 4);
	is_int(n, 4, "four completions reaped");
	for (int i = 0; i < n; i++) {
		fails += done[i]->res == -EIO;
		whole += done[i]->res == 64;
	}
	is_int(fails, 1, "one injected failure among them");
	is_int(whole, 3, "three whole writes");
	is_int(r[1].res, -EIO, "it is the second submitted");
	engine_close(e);
}

static void test_totals(void)
{
	uint64_t t0[IO__COUNT], t1[IO__COUNT];
	struct engine *e;

	engine_totals(t0);
	engine_open(&e, "null", 1);
	for (int i = 0; i < 7; i++)
		do_op(e, IO_UNLINK, 0);
	engine_close(e);
	engine_totals(t1);
	is_int(t1[IO_UNLINK] - t0[IO_UNLINK], 7, "engine_totals adds a closed instance's requests");
}

int main(void)
{
	struct engine *e;

	test_parse();
	ok(engine_open(&e, "faulty:nosuch", 1) == -EINVAL, "engine_open rejects a bad spec");
	ok(engine_open(&e, "faulty", 1) == -EINVAL, "engine_open rejects bare 'faulty'");
	test_nth();
	test_after();
	test_delay();
	test_retry_stopping();
	test_shared_across_instances();
	test_threads();
	test_short_and_retry();
	test_async();
	test_totals();
	return done_testing();
}
