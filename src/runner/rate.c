/* rate.c — open-loop schedules of read and write flowops; see rate.h. */
#include "runner/rate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/internal.h"
#include "util/util.h"

/* A sleep is cut into slices of at most this, so that a stop (the
 * phase's end, a signal) is seen soon even at a low rate. */
#define RATE_SLICE_NS 50000000ull

struct rw_rate *rate_new(const struct wl_flowop *fo)
{
	struct rw_rate *rt;

	if (fo->type != FO_READ && fo->type != FO_WRITE)
		return NULL;
	if (!wl_val_isset(&fo->rate_iops) && !wl_val_isset(&fo->rate))
		return NULL;
	rt = xcalloc(1, sizeof(*rt));
	if (wl_val_isset(&fo->rate_iops))
		rt->op_ns = 1e9 / wl_val_double(&fo->rate_iops, NULL, 1);
	else
		rt->byte_ns = 1e9 / (double)MAX(wl_val_int(&fo->rate, NULL, 1), 1);
	rt->poisson = !strcmp(wl_val_str(&fo->rate_process, "linear"), "poisson");
	rt->min_bps = (uint64_t)MAX(wl_val_int(&fo->rate_min, NULL, 0), 0);
	op_schedule_init(&rt->sched);
	rt->sched.threads = 1;
	return rt;
}

void rate_free(struct rw_rate *rt)
{
	free(rt);
}

uint64_t rate_wait(struct rw_rate *rt, const struct runner *rn, struct rng *r, uint64_t len)
{
	double interval = rt->op_ns ? rt->op_ns : rt->byte_ns * (double)len;
	uint64_t now = now_ns(), due, slept_from;

	if (!rt->start)
		rt->start = now;
	due = rt->start + (uint64_t)rt->t;
	rt->t += rt->poisson ? rng_exponential(r, interval) : interval;
	slept_from = now;
	while (now < due) {
		uint64_t until = MIN(due, now + RATE_SLICE_NS);
		struct timespec ts = {(time_t)(until / 1000000000ull),
		                      (long)(until % 1000000000ull)};

		if (runner_stopping(rn))
			return 0;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = now_ns();
	}
	if (due >= __atomic_load_n(&rn->window_ns, __ATOMIC_RELAXED))
		rt->wait_ns += now - slept_from;
	if (runner_stopping(rn))
		return 0;
	rt->issued = now;
	return due ? due : 1;
}

void rate_done(struct rw_rate *rt, const struct runner *rn, uint64_t due, uint64_t bytes)
{
	uint64_t end = now_ns();
	uint64_t window = __atomic_load_n(&rn->window_ns, __ATOMIC_RELAXED);

	/* counted as the operation's figures are: those that complete after
	 * the warm-up's snapshot (runner/measure.c), whenever they were due */
	if (end < window)
		return;
	if (!rt->win_start)
		rt->win_start = due > window ? due : window;
	rt->sched.ops++;
	if (rt->issued - due > OP_SCHED_LATE_NS)
		rt->sched.late++;
	hist_add(&rt->sched.lat, end > due ? end - due : 0);
	rt->bytes += bytes;
	rt->last_end = end;
}

void rate_finish(struct rw_rate *rt)
{
	double secs;

	if (!rt->min_bps || !rt->sched.ops)
		return;
	secs = (double)(rt->last_end - rt->win_start) / 1e9;
	if (secs > 0 && (double)rt->bytes / secs < (double)rt->min_bps)
		rt->sched.below_min = 1;
}
