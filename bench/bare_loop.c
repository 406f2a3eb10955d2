/*
 * bare_loop.c — the reference for bench/overhead.sh: the same system calls
 * fsgauge issues, in the tightest loop we can write, single-threaded.
 *
 *   bare_loop pread FILE SECONDS     4 KiB pread at random aligned offsets
 *   bare_loop pread-inline FILE SECONDS
 *                                    the same with the system call issued
 *                                    inline, as fsgauge's psync engine does
 *                                    (src/engine/syscall.h): no libc
 *                                    function to return through
 *   bare_loop pread-timed FILE SECONDS
 *                                    the same, timing each pread as fsgauge
 *                                    does (its clock, util/clock.h, before
 *                                    and after) into a log2 histogram: what
 *                                    measuring every operation costs by
 *                                    itself
 *   bare_loop create DIR SECONDS     openat(O_CREAT) + close + unlink
 *   bare_loop create-inline DIR SECONDS
 *   bare_loop create-timed DIR SECONDS
 *                                    the same with the system calls
 *                                    inline, or each of the three timed
 *                                    into a histogram of its own, as for
 *                                    pread
 *
 * Prints "<ops> <seconds> <ops/s>".
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/syscall.h"
#include "util/clock.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char buf[4096] __attribute__((aligned(4096)));
	uint64_t x = 88172645463325252ull, ops = 0;
	double secs, t0, t;

	if (argc != 4)
		return 2;
	secs = atof(argv[3]);
	if (!strncmp(argv[1], "pread", 5)) {
		int timed = !strcmp(argv[1], "pread-timed");
		int inl = !strcmp(argv[1], "pread-inline");
		static volatile uint64_t hist[64]; /* written, never read */
		int fd = open(argv[2], O_RDONLY);
		struct stat st;

		if (fd < 0 || fstat(fd, &st) < 0)
			return 1;
		op_clock_init();
		uint64_t blocks = (uint64_t)st.st_size / 4096;

		t0 = now();
		do {
			for (int i = 0; i < 1024; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				uint64_t start = timed ? op_clock() : 0;

				uint64_t off = (x % blocks) * 4096;

				if ((inl ? sys_pread(fd, buf, 4096, off)
					 : pread(fd, buf, 4096, (off_t)off)) != 4096)
					return 1;
				if (timed)
					hist[63 - __builtin_clzll(op_clock_ns(op_clock() - start) | 1)]++;
			}
			ops += 1024;
		} while ((t = now()) - t0 < secs);
	} else if (!strncmp(argv[1], "create", 6)) {
		int timed = !strcmp(argv[1], "create-timed");
		int inl = !strcmp(argv[1], "create-inline");
		static volatile uint64_t hist[3][64]; /* written, never read */
		int dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
		char name[64];

		if (dfd < 0)
			return 1;
		op_clock_init();
		t0 = now();
		do {
			for (int i = 0; i < 256; i++) {
				uint64_t c0, c1, c2;

				snprintf(name, sizeof(name), "f%llu", (unsigned long long)(ops + i));
				c0 = timed ? op_clock() : 0;
				int64_t fd = inl ? sys_openat(dfd, name, O_RDWR | O_CREAT | O_TRUNC, 0644)
						 : openat(dfd, name, O_RDWR | O_CREAT | O_TRUNC, 0644);

				if (fd < 0)
					return 1;
				if (timed) {
					c1 = op_clock();
					hist[0][63 - __builtin_clzll(op_clock_ns(c1 - c0) | 1)]++;
				}
				c1 = timed ? op_clock() : 0;
				if (inl)
					sys_close((int)fd);
				else
					close((int)fd);
				if (timed) {
					c2 = op_clock();
					hist[1][63 - __builtin_clzll(op_clock_ns(c2 - c1) | 1)]++;
				}
				c2 = timed ? op_clock() : 0;
				if (inl)
					sys_unlinkat(dfd, name, 0);
				else
					unlinkat(dfd, name, 0);
				if (timed)
					hist[2][63 - __builtin_clzll(op_clock_ns(op_clock() - c2) | 1)]++;
			}
			ops += 256;
		} while ((t = now()) - t0 < secs);
	} else {
		return 2;
	}
	printf("%llu %.3f %.1f\n", (unsigned long long)ops, t - t0, (double)ops / (t - t0));
	return 0;
}
