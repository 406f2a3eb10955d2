/*
 * rate.h — open-loop schedules of read and write flowops (rate_iops=,
 * rate=, rate_process=, rate_min=; docs/workload-language.md, "Open-loop
 * rates", and docs/io.md).  Internal to src/runner/.
 *
 * Each thread's flowop has its own schedule, as each fio job has: the
 * k-th request is due at start + the sum of k intervals (1/rate_iops, or
 * the request's bytes / rate; exponential with that mean under
 * rate_process=poisson).  rate_wait() sleeps until a request is due;
 * rate_done() records its latency from the due time, so that a target
 * that falls behind shows the wait its clients would have seen, and
 * counts it late when it was issued more than OP_SCHED_LATE_NS after its
 * time.  The schedule never skips requests to catch up: a late one is
 * issued at once and the next is due one interval after the late one was
 * due.  Only requests that complete in the phase's measured window
 * (after a warm-up: runner.window_ns) are recorded, as the operation's
 * own figures count them: a request due in the warm-up that a backlog
 * pushed into the window is in both.  One request at a time: the
 * parser refuses a schedule with iodepth= above 1.
 */
#ifndef FSGAUGE_RUNNER_RATE_H
#define FSGAUGE_RUNNER_RATE_H

#include <stdint.h>

#include "stats/result.h"
#include "util/rand.h"
#include "workload/workload.h"

struct runner;

struct rw_rate {
	double op_ns;      /* rate_iops=: ns between requests (0: by bytes) */
	double byte_ns;    /* rate=: ns per byte */
	int poisson;       /* rate_process=poisson */
	uint64_t min_bps;  /* rate_min=: bytes per second, 0 when none */
	uint64_t start;    /* now_ns() when the first request was due; 0 before it */
	double t;          /* ns after start the next request is due */
	uint64_t issued;   /* now_ns() when the request in flight was issued */
	uint64_t win_start; /* due time of the first recorded request; 0 before */
	uint64_t bytes;    /* transferred by the recorded requests */
	uint64_t last_end; /* now_ns() at the last recorded completion */
	uint64_t wait_ns;  /* asleep for requests due in the measured window */
	struct op_schedule sched;
};

/* The schedule of read/write flowop fo, or NULL when it has neither
 * rate_iops= nor rate=.  Owned by the caller: rate_free(). */
struct rw_rate *rate_new(const struct wl_flowop *fo);
void rate_free(struct rw_rate *rt);

/* Wait until the next request of len bytes is due and return its due
 * time (now_ns()); 0 when the run began stopping while waiting (the
 * request is not to be issued). */
uint64_t rate_wait(struct rw_rate *rt, const struct runner *rn, struct rng *r, uint64_t len);
/* The request due at `due` completed (with `bytes` transferred):
 * recorded when it completed in the measured window. */
void rate_done(struct rw_rate *rt, const struct runner *rn, uint64_t due, uint64_t bytes);
/* At the phase's end: whether this thread met rate_min= (below_min). */
void rate_finish(struct rw_rate *rt);

#endif
