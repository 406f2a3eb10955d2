/*
 * synthetic_tree.h — deterministic trees shaped like real source trees,
 * for `fsgauge untar --synthetic NAME` when no tarball is at hand.
 *
 * A preset fixes the number of files and directories, the deepest level,
 * and a heavy-tailed file size distribution (a log-normal body with a
 * Pareto tail and some empty files); the seed fixes everything else.
 * Directories grow by preferential attachment (a directory with many
 * subdirectories is likelier to get another: a few wide directories, many
 * narrow ones, depth around log n), files go to directories with
 * log-normal weights (many directories with a handful of files, a few
 * with hundreds).  Entries come out in the order tar lists a tree: each
 * directory, then its files and symlinks, then its subdirectories.  File
 * contents come from the run's data pattern (REPLAY_PATTERN).
 *
 * The presets' statistics (files, directories, bytes, median and p99 file
 * size) are in docs/untar.md, checked by tests/cli/untar.sh against what
 * the generator really produces.  Pure computation: no I/O.
 */
#ifndef FSGAUGE_SYNTHETIC_TREE_H
#define FSGAUGE_SYNTHETIC_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "workload/replay.h"

struct synthetic_preset {
	const char *name;
	const char *description;
	uint32_t files;	     /* regular files */
	uint32_t dirs;	     /* directories below the root */
	unsigned max_depth;  /* deepest directory level (1: only top-level dirs) */
	double size_median;  /* log-normal body: median bytes */
	double size_sigma;   /* and sigma of the underlying normal */
	double tail_pct;     /* percent of files from the Pareto tail */
	double tail_min;     /* its scale (smallest value), bytes */
	double tail_alpha;   /* its shape */
	uint64_t size_cap;   /* largest file */
	double empty_pct;    /* percent of empty files */
	double symlink_pct;  /* symlinks, percent of the number of files */
	double exec_pct;     /* percent of files with mode 0755 */
	double dir_weight_sigma; /* spread of the files-per-directory weights */
};

/* The presets, and how many; a preset by name (NULL if unknown). */
const struct synthetic_preset *synthetic_tree_presets(size_t *n);
const struct synthetic_preset *synthetic_tree_find(const char *name);

/* Add preset p's tree for `seed` to replay r (not yet finished).  Returns
 * 0, or -EINVAL with err filled when r refuses an entry (a bug). */
int synthetic_tree_build(const struct synthetic_preset *p, uint64_t seed, struct replay *r,
			 char *err, size_t errlen);

#endif
