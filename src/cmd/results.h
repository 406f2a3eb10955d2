/*
 * results.h — what `compare` and `report` share: read the result files
 * named on the command line, pool the files that carry the same label as
 * repeated runs of one result, line them up, and refuse (or, with --force,
 * warn) when they are not comparable.
 */
#ifndef FSGAUGE_CMD_RESULTS_H
#define FSGAUGE_CMD_RESULTS_H

#include <stddef.h>

#include "output/comparison.h"

struct results {
	struct rfile **files; /* as read, in command-line order */
	size_t nfiles;
	struct rfile **res;   /* what is compared: files, or pools of them */
	size_t n;
	struct rfile **pools; /* the pooled results (owned) */
	size_t npools;
	struct comparison cmp;
};

/* Read paths[0..n) (the first is the baseline) into r and build the
 * comparison.  With pool, files with the same (non-empty) label become one
 * result whose runs are the files' runs; such files must share suite,
 * workload and parameters.  Different suites or workloads between results
 * are refused with a message listing them (exit 2), or listed as a warning
 * with force; parameters may differ (comparison.h: "what differs").  Returns EXIT_OK,
 * EXIT_USAGE (also for a file refused as input: not a regular file, too
 * large, not a result; see result_read()), or EXIT_SYSTEM when the system
 * does not let a file be read (missing, permissions, EIO).  Call
 * results_free() in every case. */
int results_load(struct results *r, char **paths, size_t n, int force, int pool);
void results_free(struct results *r);

#endif
