/*
 * comparison.h — line up 1..N results read by result_read.h (the first is
 * the baseline) and compare every headline figure with the baseline's:
 * the model behind `fsgauge compare` (text, CSV, JSON writers here) and
 * `fsgauge report` (output/html.c).
 *
 * Results are aligned by phase name and, within a phase, by operation
 * name; a phase or operation missing from some result leaves an empty cell
 * (n = 0).  Statistics come from stats/compare.h at 95% confidence.
 *
 *     struct comparison c;
 *     comparison_build(&c, files, nfiles);
 *     if (c.nparam_diffs && !force) ... refuse ...
 *     comparison_write_text(stdout, &c, 0);
 *     comparison_free(&c);
 *
 * Memory: the comparison borrows the struct rfile array (which must
 * outlive it) and owns everything else; comparison_free() releases it.
 */
#ifndef FSGAUGE_COMPARISON_H
#define FSGAUGE_COMPARISON_H

#include <stdio.h>

#include "output/result_read.h"
#include "stats/compare.h"

#define COMPARISON_CONF 0.95

/* One result's cell of one row. */
struct cmp_cell {
	size_t n;	  /* samples; 0: this result has no such figure */
	double mean, sd;  /* sd 0 when n < 2 */
	double ci_half;	  /* t-based 95% half-width of the mean; NAN when n < 2 */
	int has_stat;	  /* st is valid: not the baseline, and both have samples */
	struct compare_stat st; /* this result against the baseline */
};

struct cmp_row {
	const char *phase; /* borrowed from the results */
	const char *op;	   /* NULL for the phase's own figures */
	enum figure fig;
	struct cmp_cell *cells; /* one per result */
};

/* A key whose value differs between results: one value per result, NULL
 * when a result does not have the key. */
struct cmp_diff {
	const char *key;
	const char **values;
};

struct comparison {
	struct rfile **res;
	size_t nres;
	int workload_mismatch;	/* suite or workload differs from the baseline */
	struct cmp_diff *param_diffs; /* parameters that must match but differ */
	size_t nparam_diffs;
	struct cmp_diff *env_diffs;
	size_t nenv_diffs;
	char **warnings; /* cache honesty, incomplete results, too-fast phases */
	size_t nwarnings;
	struct cmp_row *rows;
	size_t nrows;
};

/* Parameters that may legitimately differ between compared runs. */
int comparison_param_ignored(const char *key);

/* Build the comparison of res[0..n) (n >= 1).  Display names that repeat
 * get " #2", " #3" appended.  Always succeeds. */
void comparison_build(struct comparison *c, struct rfile **res, size_t n);
void comparison_free(struct comparison *c);

/* The unit of a row's figure. */
const char *comparison_unit(const struct cmp_row *r);
/* Verdict of result i in row r: "" for the baseline or an empty cell,
 * "better"/"worse" when significant (by the figure's direction), "same"
 * when not significant, "n/a" when it cannot be judged (single samples). */
const char *comparison_verdict(const struct cmp_row *r, size_t i);

/* Print the differences (parameters or environment) as an indented
 * table, one line per key, values in result order. */
void comparison_write_diffs(FILE *f, const struct comparison *c, const struct cmp_diff *d,
			    size_t n);
/* The human-readable table; brief: phase figures only, no operations. */
void comparison_write_text(FILE *f, const struct comparison *c, int brief);
/* One CSV line per row and result (long format), with a header line. */
void comparison_write_csv(FILE *f, const struct comparison *c);
/* The comparison as JSON into `path` ("-" for stdout).  Returns 0 or
 * -errno (message printed). */
int comparison_write_json(const struct comparison *c, const char *path);

/* Numbers for people: 4 significant digits, no exponent for ordinary
 * magnitudes.  Returns buf. */
char *comparison_fmt(char *buf, size_t len, double v);

#endif
