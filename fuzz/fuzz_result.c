/*
 * fuzz_result.c — libFuzzer harness for the result-JSON reader used by
 * compare and report: any bytes must be refused with a message or read
 * into a result that pools, counts, renders as an HTML report (with the
 * bonnie and iozone sections when the suite says so) and frees cleanly.  result_read()
 * takes a path, so the input is handed over as a memfd.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "output/comparison.h"
#include "output/html.h"
#include "output/result_read.h"
#include "suite/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-result", MFD_CLOEXEC);
	char path[64];
	struct rfile *rf;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (result_read(path, &rf) == 0) {
		struct rfile *two[2] = { rf, rf };
		struct rfile *pooled;
		struct rfile *both[2];
		struct html_hooks hooks[8];
		size_t nhooks;
		struct comparison c;
		FILE *null = fopen("/dev/null", "we");

		/* as compare and report: the suite says what its result is */
		suite_report_mark(rf);
		pooled = result_read_pool(two, 2);
		both[0] = rf;
		both[1] = pooled;
		result_read_runs(rf);
		result_read_runs(pooled);
		comparison_build(&c, both, 2);
		nhooks = suite_report_html(&c, hooks, sizeof(hooks) / sizeof(hooks[0]));
		if (null) {
			html_report(null, &c, NULL, hooks, nhooks);
			fclose(null);
		}
		comparison_free(&c);
		result_read_free(pooled);
		result_read_free(rf);
	}
	close(fd);
	return 0;
}
