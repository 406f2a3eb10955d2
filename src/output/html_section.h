/*
 * html_section.h — what a suite's own section of the HTML report builds
 * with (the report.c of a suite's module; output/html.c uses the CDF
 * charts too).  A section is a hook, struct html_hooks (html.h),
 * that takes the whole comparison and writes a <section> about the results
 * of its suite only (with --force a report may mix suites), one part per
 * result, headed by html_result_heading().
 */
#ifndef FSGAUGE_HTML_SECTION_H
#define FSGAUGE_HTML_SECTION_H

#include <stdio.h>

#include "output/comparison.h"
#include "output/svg.h"

/* The heading of result i's part: its colour and name ("(baseline)"
 * for the first of several). */
void html_result_heading(FILE *f, const struct comparison *c, size_t i);
/* Open result i's part of a suite's section: <div class="suite-result"
 * data-result="NAME"> (the report's rendering checks find it by that)
 * and its heading; the suite closes the </div>. */
void html_suite_result_open(FILE *f, const struct comparison *c, size_t i);

/* Latency CDF points (us, cumulative fraction) of a histogram; *xs and
 * *ys are allocated for the caller.  Returns their number. */
size_t html_cdf_points(const struct rop *op, double **xs, double **ys);

/* Percentile plot points of a histogram: x on the "nines" axis
 * (svg_nines() of the fraction of operations done), y the latency (us)
 * they took at most: (0, the first bucket's floor), then each non-empty
 * bucket's top at the fraction done by its end; the last, where every
 * operation is done, at 1 - 1/count (the slowest of count operations).
 * *xs and *ys are allocated for the caller.  Returns their number. */
size_t html_pct_points(const struct rop *op, double **xs, double **ys);

/* The latency charts of one operation, one line per result: a CDF and,
 * beside it, a percentile plot.  html_latency_add() a result's
 * histogram, then html_latency_charts(); room for `nres` results. */
struct html_latency {
	struct svg_series *cdf, *pct;
	size_t n;
};

void html_latency_init(struct html_latency *l, size_t nres);
void html_latency_add(struct html_latency *l, const char *name, int style, const struct rop *op);
/* A <div class="pair"> of the CDF (log-scale latency in us across,
 * `ylabel` up; data-chart "cdf") and the percentile plot (nines across:
 * p50, p90, p99, p99.9, p99.99, ...; latency up, log scale when the
 * slowest is over 10 times the fastest; data-chart "percentile"), both
 * with data-figure `figure`, titled "<what> latency CDF<after>" and "<what>
 * latency percentiles<after>" and described as the latency of `desc` ("operation
 * x in phase y"); the points are freed, l->n back to 0. */
void html_latency_charts(FILE *f, struct html_latency *l, const char *figure, const char *what,
			 const char *after, const char *desc, const char *ylabel);
void html_latency_free(struct html_latency *l);

/* The verdict section (output/html_verdict.c): for each result but the
 * baseline, a line per phase (grid groups: one per group) with its ops/s,
 * p99 latency and CPU per operation against the baseline's, as ratios in
 * words (comparison_ratio_words) with their interval and significance,
 * or why there is none.  Nothing for a single result. */
void html_write_verdicts(FILE *f, const struct comparison *c);

/* The ranks section (output/html_ranks.c) for the results that ran under
 * mpirun: each one's file-systems warning in a warning box, and per phase
 * the stonewall (who raised it, when, whom it stopped), a row per rank
 * and a row per host with what its block devices did.  Nothing when no
 * result has ranks. */
void html_write_ranks(FILE *f, const struct comparison *c);

/* The targets section (output/html_targets.c) for the results over
 * several targets: per phase a row per target (its bytes, its devices,
 * its cache verdict).  Nothing when no result has targets. */
void html_write_targets(FILE *f, const struct comparison *c);

#endif
