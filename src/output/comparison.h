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
	double ci_half;	  /* t-based 95% half-width of the mean; NAN when n < 2 (CSV
			   * clamps mean - ci_half at 0: no figure is negative) */
	int has_stat;	  /* st is valid: not the baseline, and both have samples */
	struct compare_stat st; /* this result against the baseline */
};

struct cmp_row {
	const char *phase; /* borrowed from the results */
	const char *op;	   /* NULL for the phase's own figures */
	enum figure fig;   /* a headline figure (unused when metric is set) */
	/* a suite's phase metric: its definition from a result's metrics
	 * table (borrowed), and its unit; NULL for a headline figure */
	const struct metric_def *metric;
	const char *metric_unit;
	/* the grid of a phase every result has as a grid phase, and the
	 * phase's group in it; grid NULL otherwise (comparison_row_grouped) */
	const struct phase_grid *grid;
	size_t group;
	struct cmp_cell *cells; /* one per result */
};

/* A key whose value differs between results: one value per result, NULL
 * when a result does not have the key. */
struct cmp_diff {
	const char *key;
	const char **values;
};

/* A warning about one phase of a result whose phases form a grid (see
 * comparison_grid_phase): such results have a phase per group, file size
 * and record size, hundreds of them, so their warnings are grouped per
 * result, group and kind in `warnings`, and listed here one by one. */
struct cmp_flag {
	size_t res;		    /* index into res[] */
	const struct rphase *phase; /* borrowed */
	struct phase_point pt;	    /* in the result's grid (res[res]->grid) */
	int cached; /* 1: reads likely from memory; 0: too brief to measure */
};

struct comparison {
	struct rfile **res;
	size_t nres;
	int workload_mismatch;	/* suite or workload differs from the baseline */
	struct cmp_diff *param_diffs; /* parameters that differ ("what differs") */
	size_t nparam_diffs;
	/* a sweep: exactly one parameter differs and every result has a
	 * number for it (nthreads 4, 8, 16): its index in param_diffs and its
	 * value per result (sweep_x); -1 and NULL otherwise */
	int sweep;
	double *sweep_x;
	struct cmp_diff *env_diffs;
	size_t nenv_diffs;
	char **warnings; /* cache honesty, incomplete results, too-fast phases */
	size_t nwarnings;
	/* results of the baseline's suite and workload name whose resolved
	 * workloads differ beyond the parameters (other flowops, filesets or
	 * attributes): for each, "  --- 'BASE' (the baseline)", "  +++ 'FILE'"
	 * and the lines that differ (util/linediff.h), without a last newline.
	 * Refused without --force (cmd/results.c); also in `warnings`. */
	char **workload_diffs;
	size_t nworkload_diffs;
	struct cmp_flag *flags; /* the per-phase warnings grouped in `warnings` */
	size_t nflags;
	struct cmp_row *rows;
	size_t nrows;
	/* the distinct grids of the results (rfile.grid), in result order */
	const struct phase_grid **grids;
	size_t ngrids;
};

/* Parameters that may legitimately differ between compared runs. */
int comparison_param_ignored(const char *key);

/* The workload hash of a result whose workload is built from options (a
 * suite that sets no workload_hash of its own): result_hash() of its
 * parameters in order, each as KEY NUL VALUE NUL, leaving out those
 * comparison_param_ignored() names (they say how the run was done, not
 * what ran).  Caller frees. */
char *comparison_params_hash(const struct kvlist *params);

/* 1 when both results record a workload_hash and they differ (the same
 * workload name, different workloads); 0 otherwise, and always for a
 * result without one (older files). */
int comparison_hash_differs(const struct rfile *a, const struct rfile *b);

/* 1 when environment values a and b (either may be NULL: absent) describe
 * the same configuration.  Mostly string equality; but a value that
 * carries a measurement after its kind (latency_clock: "tsc (2096.0 MHz,
 * ...; CPUs in step within 5 ns)") is compared by its kind only, the text
 * before " (", since the measurement differs from run to run. */
int comparison_env_same(const char *key, const char *a, const char *b);

/* 1 when rf's phases form a grid (rf->grid, as its suite says) and
 * `phase` is one of the grid's phases; *pt (may be NULL) is then filled. */
int comparison_grid_phase(const struct rfile *rf, const char *phase, struct phase_point *pt);

/* 1 when every result that has the phase of row r has it as a phase of
 * the same grid (r->grid, group r->group).  The text table and the report
 * summarise the phase rows of such phases per group
 * (comparison_grid_sum), leaving out their operation rows, instead of
 * listing hundreds of phases; CSV and JSON keep every row. */
int comparison_row_grouped(const struct comparison *c, const struct cmp_row *r);

/* The number of phase rows (no operation, no metric) of figure `fig` in
 * group g of grid `grid`. */
size_t comparison_grid_rows(const struct comparison *c, const struct phase_grid *grid, size_t g,
			    enum figure fig);

/* Result i's phase rows of figure `fig` of group g of a grid, summarised:
 * the phases where it has a value, and against the baseline the geometric
 * mean, smallest and largest of the ratios and the verdict counts. */
struct cmp_grid_sum {
	size_t phases;	      /* rows where result i has the figure */
	size_t nratios;	      /* of which with a positive, finite ratio */
	double gmean, lo, hi; /* of those ratios; NAN when none */
	size_t better, worse;
};
/* Fills out[0..c->nres) for group g of `grid` and figure fig; returns
 * the phases counted over all results (0: no result has the figure for
 * the group). */
size_t comparison_grid_sum(const struct comparison *c, const struct phase_grid *grid, size_t g,
			   enum figure fig, struct cmp_grid_sum *out);

/* Build the comparison of res[0..n) (n >= 1).  Display names that repeat
 * get " #2", " #3" appended.  Always succeeds. */
void comparison_build(struct comparison *c, struct rfile **res, size_t n);
void comparison_free(struct comparison *c);

/* The unit of a row's figure ("" when a metric has none). */
const char *comparison_unit(const struct cmp_row *r);
/* What the row's figure is called: the headline figure's title ("ops/s")
 * or the metric's label from the result's metrics table ("toy score"). */
const char *comparison_title(const struct cmp_row *r);
/* Its stable key (CSV, JSON): "ops_per_second", or the metric's name. */
const char *comparison_key(const struct cmp_row *r);
/* Which way is better: the figure's, or the metric's as its table says. */
enum metric_better comparison_better(const struct cmp_row *r);
/* "OP: TITLE (UNIT)" (no OP for a phase row; no unit when it is empty or
 * the title itself) into buf. */
void comparison_row_label(char *buf, size_t len, const struct cmp_row *r);
/* Verdict of result i in row r: "" for the baseline or an empty cell,
 * "better"/"worse" when significant (by the figure's direction; for a
 * metric with no direction "higher"/"lower"), "ns" when not significant,
 * "n/a" when it cannot be judged (single samples). */
const char *comparison_verdict(const struct cmp_row *r, size_t i);

/* A ratio in words, as people say it: a ratio below 1 is inverted and
 * takes the other word, so that the number is always >= 1 ("0.61" of a
 * latency is "1.64× lower").  The words follow the row's figure:
 * throughput (ops/s, MB/s) "faster"/"slower"; latency "higher"/"lower"
 * ("higher latency"/"lower latency" when `full`); CPU/op "more"/"less"
 * ("more CPU/op"); anything else "higher"/"lower".  A ratio that rounds
 * to 1.00 is "the same (1.00×)".  *inverted (may be NULL) is set to 1
 * when the ratio was inverted, so that an interval shown with it is
 * inverted too (comparison_ratio_interval).  Returns buf ("" for a ratio
 * that is not positive and finite: the caller says why there is none). */
const char *comparison_ratio_words(const struct cmp_row *r, double ratio, int full, char *buf,
				   size_t len, int *inverted);
/* The 95% interval of result i's ratio as "1.35–1.49", inverted
 * ("1/hi–1/lo") when `inverted`; "" when there is none. */
const char *comparison_ratio_interval(const struct cmp_row *r, size_t i, int inverted, char *buf,
				      size_t len);

/* Whether result i's ratio in row r is significant, in words for the
 * report: "significant", "not significant", "single run: not judged"
 * (a side has one run), or "" (the baseline, an empty cell, no ratio). */
const char *comparison_significance_words(const struct cmp_row *r, size_t i);

/* A parameter or environment value as people read it (util/human.h): a byte count
 * ("ram_bytes", a "...size" parameter, "1048576" or "16k") in binary units
 * ("23.5 GiB", "1 MiB", "16 KiB"); anything else unchanged.  Returns buf,
 * or value itself. */
const char *comparison_human_value(const char *key, const char *value, char *buf, size_t len);

/* "what differs", one line per parameter that differs: "  KEY: A → B"
 * (values in result order, human units; "(none)" where a result lacks
 * it), and the sweep when there is one.  Nothing when none differs. */
void comparison_write_what_differs(FILE *f, const struct comparison *c);

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
