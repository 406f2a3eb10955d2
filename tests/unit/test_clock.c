/* test_clock.c — unit tests for util/clock.c: the clock operations are
 * timed with agrees with CLOCK_MONOTONIC over an interval both measure,
 * a reading taken before the previous one gives 0, and FSGAUGE_CLOCK
 * chooses CLOCK_MONOTONIC (each setting in a child process: the choice
 * is made once per process). */
#include "tap.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* op_clock() read between two CLOCK_MONOTONIC readings, the tightest of a
 * few tries (so that a preemption between the reads does not count):
 * *n is the middle of that pair, *t the op_clock() reading; returns the
 * pair's width. */
static uint64_t bracket(uint64_t *n, uint64_t *t)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 20; i++) {
		uint64_t a = now_ns(), c = op_clock(), b = now_ns();

		if (b - a < best) {
			best = b - a;
			*n = a + (b - a) / 2;
			*t = c;
		}
	}
	return best;
}

/* Both clocks over the same ~20 ms. */
static void test_agrees(void)
{
	uint64_t n0 = 0, n1 = 0, t0 = 0, t1 = 0, w;
	struct timespec nap = {0, 20000000};

	w = bracket(&n0, &t0);
	nanosleep(&nap, NULL);
	w += bracket(&n1, &t1);
	double mono = (double)(n1 - n0), op = (double)op_clock_ns(t1 - t0);
	double slack = 0.001 * mono + (double)w + 1000;

	ok(mono >= 2e7, "slept at least 20 ms (%.0f ns)", mono);
	ok(op > mono - slack && op < mono + slack,
	   "op_clock measured %.0f ns where CLOCK_MONOTONIC measured %.0f (within %.0f)", op, mono,
	   slack);
}

/* The choice in a fresh process with FSGAUGE_CLOCK=value: exit status 0
 * when it is CLOCK_MONOTONIC for the stated reason and differences pass
 * through unchanged, 1 when it is the TSC, 2 otherwise. */
static int child_choice(const char *value)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setenv("FSGAUGE_CLOCK", value, 1);
		op_clock_init();
		if (!op_clock_tsc && strstr(op_clock_describe(), "FSGAUGE_CLOCK=system") &&
		    op_clock_ns(12345) == 12345)
			_exit(0);
		_exit(op_clock_tsc ? 1 : 2);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	const char *d;
	/* before this process chooses (a child inherits the choice) */
	int sys = child_choice("system"), dflt = child_choice("auto");

	op_clock_init();
	d = op_clock_describe();
	ok(!strncmp(d, "tsc (", 5) || !strncmp(d, "clock_gettime (CLOCK_MONOTONIC): ", 33),
	   "described: %s", d);
	ok(!!op_clock_tsc == !strncmp(d, "tsc (", 5), "the description names the clock in use");
	test_agrees();
	is_int((int)op_clock_ns((uint64_t)-5), 0, "a reading before the previous one: 0 ns");
	is_int((int)op_clock_ns(0), 0, "no difference: 0 ns");
	is_int(sys, 0, "FSGAUGE_CLOCK=system: CLOCK_MONOTONIC, said why");
	is_int(dflt, op_clock_tsc ? 1 : 2, "FSGAUGE_CLOCK=auto: the default choice");
	return done_testing();
}
