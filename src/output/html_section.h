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

/* Latency CDF points (us, cumulative fraction) of a histogram; *xs and
 * *ys are allocated for the caller.  Returns their number. */
size_t html_cdf_points(const struct rop *op, double **xs, double **ys);

/* Append result `name`'s CDF of op's histogram to s[*ns] (colour `style`). */
void html_cdf_add(struct svg_series *s, size_t *ns, const char *name, int style,
		  const struct rop *op);

/* Draw a latency CDF chart (log-scale latency in us across, `ylabel` up)
 * of s[0..ns) and free the series' points. */
void html_cdf_chart(FILE *f, const char *figure, const char *title, const char *desc,
		    const char *ylabel, struct svg_series *s, size_t ns);

/* The verdict section (output/html_verdict.c): for each result but the
 * baseline, a line per phase (grid groups: one per group) with its ops/s,
 * p99 latency and CPU per operation against the baseline's, as ratios in
 * words (comparison_ratio_words) with their interval and significance,
 * or why there is none.  Nothing for a single result. */
void html_write_verdicts(FILE *f, const struct comparison *c);

/* The ranks section (output/html_ranks.c) for the results that ran under
 * mpirun: each one's file-systems warning in a warning box, and per phase
 * the stonewall (who raised it, when, whom it stopped) and a row per
 * rank.  Nothing when no result has ranks. */
void html_write_ranks(FILE *f, const struct comparison *c);

#endif
