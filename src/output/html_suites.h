/*
 * html_suites.h — the suite-specific sections of the HTML report
 * (output/html.c): for bonnie results bonnie++'s two tables (I/O tests and
 * file creation) per result, for iozone results the throughput-mode table
 * or, in auto and single-stream mode, one heat map of KB/s by file size and
 * record size per test, a table of the warnings per test and one latency
 * CDF per test pooled over all sizes: those phases get no chart section of
 * their own (html_iozone_covers), so the report stays readable with
 * thousands of them.
 *
 * Each writer takes the whole comparison and writes a <section> about the
 * results of its suite only (with --force a report may mix suites), one
 * part per result, headed by the result's name.  The figures come from the
 * phases' "metrics" (struct rmetric); a result without them, or with
 * malformed ones, gets empty cells or a note, never a crash.
 */
#ifndef FSGAUGE_HTML_SUITES_H
#define FSGAUGE_HTML_SUITES_H

#include <stdio.h>

#include "output/comparison.h"
#include "output/svg.h"

void html_bonnie_section(FILE *f, const struct comparison *c);
void html_iozone_section(FILE *f, const struct comparison *c);

/* 1 when every result that has phase `phase` draws it in its iozone heat
 * maps (an auto or single-stream phase with its throughput): the report
 * then gives it no chart section of its own. */
int html_iozone_covers(const struct comparison *c, const char *phase);

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

#endif
