/*
 * test_latsplit.c — the submission and completion latencies of an
 * asynchronous engine's requests (fio's slat and clat; stats/result.h,
 * struct op_split), kept by the runner beside each operation's latency.
 *
 * The bookkeeping (op_clock_split(), util/clock.h): from a request's three
 * clock readings, slat + clat = lat, neither negative, also when the
 * readings come out of order (two CPUs' clocks a little apart), on the
 * system clock and on a TSC-like clock with a rounding rate.
 *
 * The runner, on a file in a temporary directory: two threads reading
 * (and with rwmix reading and writing) 4 KiB blocks on io_uring and
 * libaio (each when built in; skipped when the kernel refuses the
 * engine), at depth 1 (engine_submit() and engine_reap() in the runner),
 * at depth 8 with one submission call per request and with batches of 4
 * (iodepth_batch=): every operation has a slat and a clat, so the three
 * histograms count the operations; mean(slat) + mean(clat) = mean(lat)
 * within the histogram's documented error (exact by construction); no
 * part exceeds the whole (max) and the whole is no shorter than a part
 * (min).  A read made while an aiowrite is in flight is one blocking
 * call: all completion.  On psync (synchronous) there is no split.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#include "engine/engine.h"
#include "runner/runner.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "util/clock.h"
#include "util/rundir.h"
#include "util/util.h"
#include "workload/build.h"

#define BLOCKS 64 /* reads (or requests) per thread */

/* --- op_clock_split() ---------------------------------------------------- */

static void split_case(uint64_t a, uint64_t b, uint64_t c, const char *what)
{
	uint64_t lat, slat, clat;

	op_clock_split(a, b, c, &lat, &slat, &clat);
	ok(slat + clat == lat && slat <= lat && lat == op_clock_ns(c - a),
	   "%s: slat %llu + clat %llu = lat %llu", what, (unsigned long long)slat,
	   (unsigned long long)clat, (unsigned long long)lat);
}

static void test_split_times(void)
{
	int tsc = op_clock_tsc;
	uint64_t mult = op_clock_mult, lat, slat, clat, x = 88172645463325252ull;
	int bad = 0;

	/* the system clock: readings are ns */
	op_clock_tsc = 0;
	op_clock_split(1000, 1500, 4000, &lat, &slat, &clat);
	ok(lat == 3000 && slat == 500 && clat == 2500, "in order: 3000 = 500 + 2500 ns");
	op_clock_split(1000, 990, 2000, &lat, &slat, &clat);
	ok(lat == 1000 && slat == 0 && clat == 1000,
	   "submission read before the issue (another CPU): slat 0, clat the whole");
	op_clock_split(1000, 2000, 1500, &lat, &slat, &clat);
	ok(lat == 500 && slat == 500 && clat == 0,
	   "reap read before the submission: slat the whole, clat 0");
	op_clock_split(1000, 900, 800, &lat, &slat, &clat);
	ok(lat == 0 && slat == 0 && clat == 0, "everything backwards: all 0");
	op_clock_split(7, 7, 7, &lat, &slat, &clat);
	ok(lat == 0 && slat == 0 && clat == 0, "no time at all: all 0");
	/* a TSC of 1/3 ns per tick: each difference rounds down on its own */
	op_clock_tsc = 1;
	op_clock_mult = (1ull << 32) / 3;
	split_case(10, 11, 12, "tsc, a tick each");
	split_case(0, 2, 4, "tsc, two ticks each");
	split_case(5, 3, 1000, "tsc, submission before issue");
	for (int i = 0; i < 100000; i++) {
		uint64_t a, b, c;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a = x % 1000000;
		b = a + (x >> 20) % 4000 - 1000; /* sometimes before a */
		c = b + (x >> 40) % 4000 - 1000; /* sometimes before b */
		op_clock_split(a, b, c, &lat, &slat, &clat);
		bad += slat + clat != lat || slat > lat || lat != op_clock_ns(c - a);
	}
	is_int(bad, 0, "100000 random readings, some out of order: slat + clat = lat every time");
	op_clock_tsc = tsc;
	op_clock_mult = mult;
}

/* --- the runner ---------------------------------------------------------- */

enum mode { M_READ, M_RWMIX, M_AIO };

/* Run one phase on `engine`: 2 threads, each BLOCKS requests of 4 KiB on
 * the file (random reads; rwmix: half writes), iodepth= depth with
 * iodepth_batch= batch; M_AIO: an aiowrite before each read and an
 * aiowait after it.  The result, or NULL when the engine did not start
 * (its reason in *why). */
static struct result *run_phase(const char *dir, const char *engine, int depth, int batch,
				enum mode mode, char *why, size_t whylen)
{
	struct workload *w = wl_new("latsplit");
	struct wl_fileset *f = wl_add_file(w, "data", BLOCKS * 4096);
	struct wl_process *p = wl_add_process(w, "p", 1);
	struct wl_thread *t = wl_add_thread(p, "t", 2, 1 << 20);
	struct wl_flowop *fo;
	struct run_opts o;
	struct rundir rd;
	struct result *res = result_new("test", "latsplit");
	struct runner *rn;
	int r;

	f->prealloc = wl_int(100);
	f->reuse = wl_bool(0);
	w->quit_mode = QUIT_ALLDONE;
	fo = wl_add_flowop(t, FO_OPENFILE, "open", f);
	fo->fd = wl_int(1);
	if (mode == M_AIO) {
		fo = wl_add_flowop(t, FO_AIOWRITE, "aw", f);
		fo->fd = wl_int(1);
		fo->iosize = wl_int(4096);
	}
	fo = mode == M_RWMIX ? wl_add_rwmix(t, "rw", f, 50) : wl_add_flowop(t, FO_READ, "rd", f);
	fo->fd = wl_int(1);
	fo->iosize = wl_int(4096);
	fo->random = wl_bool(1);
	fo->iodepth = wl_int(depth);
	fo->iodepth_batch = wl_int(batch);
	fo->iters = wl_int(mode == M_AIO ? 1 : INT64_MAX);
	fo->iobytes = wl_int(BLOCKS * 4096);
	if (mode == M_AIO)
		wl_add_flowop(t, FO_AIOWAIT, "wait", NULL);
	wl_add_flowop(t, FO_CLOSEFILE, "close", f)->fd = wl_int(1);
	if (mode != M_AIO)
		wl_add_flowop(t, FO_THREADDONE, "done", NULL);
	memset(&o, 0, sizeof(o));
	o.engine = engine;
	o.duration = mode == M_AIO ? 0.2 : 60;
	o.seed = 1;
	o.quiet = 1;
	o.progress = PROGRESS_NEVER;
	o.data.kind = DATA_RANDOM;
	if (rundir_create(&rd, dir, 0) < 0) {
		snprintf(why, whylen, "cannot create a run directory in %s", dir);
		workload_free(w);
		result_free(res);
		return NULL;
	}
	rn = runner_new(w, &rd, 1, &o, res);
	r = rn ? runner_create_filesets(rn) : -EINVAL;
	if (r == 0)
		r = runner_phase(rn, "p", w->processes, w->nprocesses, o.duration);
	if (rn)
		runner_free(rn);
	rundir_remove(&rd);
	workload_free(w);
	if (r < 0 || !res->nphases) {
		snprintf(why, whylen, "the phase did not run: %s", strerror(r < 0 ? -r : EIO));
		result_free(res);
		return NULL;
	}
	return res;
}

static const struct result_op *find_op(const struct result *res, const char *name)
{
	const struct result_phase *ph = &res->phases[res->nphases - 1];

	for (size_t i = 0; i < ph->nops; i++)
		if (!strcmp(ph->ops[i].name, name))
			return &ph->ops[i];
	return NULL;
}

/* The invariants of one operation's split; nops: how many it must have
 * (0: any). */
static void check_split(const struct result_op *op, uint64_t nops, const char *what)
{
	const struct op_stats *st = &op->st;
	const struct op_split *sp = st->split;
	/* hist.h: a reported value within 2^-(SUB_BITS+1) of one recorded */
	double tol = 1.0 / (double)(2u << HIST_SUB_BITS);

	if (!ok(sp != NULL, "%s: submission and completion latencies kept", what))
		return;
	if (nops)
		is_int(st->ops, nops, "%s: %llu operations", what, (unsigned long long)nops);
	ok(sp->slat.count == st->ops && sp->clat.count == st->ops && st->lat.count == st->ops,
	   "%s: slat, clat and lat each count every operation (%llu, %llu, %llu of %llu)", what,
	   (unsigned long long)sp->slat.count, (unsigned long long)sp->clat.count,
	   (unsigned long long)st->lat.count, (unsigned long long)st->ops);
	ok(fabs(hist_mean(&sp->slat) + hist_mean(&sp->clat) - hist_mean(&st->lat)) <=
		   tol * hist_mean(&st->lat),
	   "%s: mean(slat) + mean(clat) = mean(lat) (%.1f + %.1f, %.1f ns)", what,
	   hist_mean(&sp->slat), hist_mean(&sp->clat), hist_mean(&st->lat));
	ok(sp->slat.sum + sp->clat.sum == st->lat.sum,
	   "%s: and exactly, request by request (sums %.0f + %.0f = %.0f)", what, sp->slat.sum,
	   sp->clat.sum, st->lat.sum);
	ok(sp->slat.max <= st->lat.max && sp->clat.max <= st->lat.max,
	   "%s: no part exceeds the whole (max %llu, %llu <= %llu)", what,
	   (unsigned long long)sp->slat.max, (unsigned long long)sp->clat.max,
	   (unsigned long long)st->lat.max);
	ok(st->lat.min >= sp->slat.min && st->lat.min >= sp->clat.min,
	   "%s: and the whole is no shorter than a part (min %llu >= %llu, %llu)", what,
	   (unsigned long long)st->lat.min, (unsigned long long)sp->slat.min,
	   (unsigned long long)sp->clat.min);
	ok(hist_quantile(&st->lat, 0.5) >= hist_quantile(&sp->slat, 0.5) * (1 - tol) &&
		   hist_quantile(&st->lat, 0.5) >= hist_quantile(&sp->clat, 0.5) * (1 - tol),
	   "%s: the median of the whole at least each part's", what);
}

static void test_engine(const char *dir, const char *engine)
{
	static const struct {
		int depth, batch;
		enum mode mode;
		const char *what;
	} cases[] = {
		{ 1, 1, M_READ, "depth 1" },
		{ 8, 1, M_READ, "depth 8" },
		{ 8, 4, M_READ, "depth 8, batches of 4" },
		{ 4, 1, M_RWMIX, "rwmix at depth 4" },
		{ 1, 1, M_RWMIX, "rwmix at depth 1" },
	};
	char why[256], what[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct result *res = run_phase(dir, engine, cases[i].depth, cases[i].batch,
					       cases[i].mode, why, sizeof(why));

		snprintf(what, sizeof(what), "%s, %s", engine, cases[i].what);
		if (!res) {
			ok(1, "# SKIP %s: %s", what, why);
			continue;
		}
		if (cases[i].mode == M_RWMIX) {
			const struct result_op *r = find_op(res, "rw.read");
			const struct result_op *w = find_op(res, "rw.write");

			ok(r && w && r->st.ops + w->st.ops == 2 * BLOCKS,
			   "%s: reads and writes make 2 x %d requests", what, BLOCKS);
			if (r && w) {
				char sub[160];

				snprintf(sub, sizeof(sub), "%s, reads", what);
				check_split(r, 0, sub);
				snprintf(sub, sizeof(sub), "%s, writes", what);
				check_split(w, 0, sub);
			}
		} else {
			const struct result_op *op = find_op(res, "rd");

			if (ok(op != NULL, "%s: the reads are in the result", what))
				check_split(op, 2 * BLOCKS, what);
			op = find_op(res, "open");
			ok(op && !op->st.split, "%s: an open (a system call) has no split", what);
		}
		result_free(res);
	}
}

/* Reads made while an aiowrite of the thread is in flight: one blocking
 * call each (the engine uses the system call), so all completion. */
static void test_aio_inflight(const char *dir, const char *engine)
{
	char why[256];
	struct result *res = run_phase(dir, engine, 1, 1, M_AIO, why, sizeof(why));
	const struct result_op *op;

	if (!res) {
		ok(1, "# SKIP %s with an aiowrite in flight: %s", engine, why);
		return;
	}
	op = find_op(res, "rd");
	if (ok(op && op->st.split && op->st.ops > 0,
	       "%s, reads beside an aiowrite in flight: split kept", engine)) {
		ok(op->st.split->slat.count == op->st.ops && op->st.split->slat.max == 0,
		   "  each one blocking call: slat 0 for all %llu", (unsigned long long)op->st.ops);
		ok(op->st.split->clat.sum == op->st.lat.sum, "  and clat the whole latency");
	}
	result_free(res);
}

int main(void)
{
	char dir[] = "/tmp/fsgauge-latsplit-XXXXXX";
	const char *engines[] = { "io_uring", "libaio" };
	int tested = 0;

	msg_quiet = 1;
	op_clock_init();
	test_split_times();
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return done_testing();
	}
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		struct engine *e = NULL;

		if (!engine_find(engines[i])) {
			ok(1, "# SKIP %s: not built in", engines[i]);
			continue;
		}
		if (engine_open(&e, engines[i], 8) < 0) {
			ok(1, "# SKIP %s: the kernel refuses it here", engines[i]);
			continue;
		}
		engine_close(e);
		test_engine(dir, engines[i]);
		test_aio_inflight(dir, engines[i]);
		tested++;
	}
	if (!tested)
		ok(1, "# SKIP no asynchronous engine here");
	{
		char why[256];
		struct result *res = run_phase(dir, "psync", 8, 1, M_READ, why, sizeof(why));
		const struct result_op *op = res ? find_op(res, "rd") : NULL;

		ok(op && op->st.ops == 2 * BLOCKS && !op->st.split,
		   "psync (synchronous): no split%s%s", res ? "" : ": ", res ? "" : why);
		result_free(res);
	}
	rmdir(dir);
	return done_testing();
}
