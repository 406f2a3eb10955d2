/*
 * report.h — what compare and report learn about a suite from the suite
 * itself, so that output/ names no suite: whether a result's phases form
 * a grid (iozone's auto mode: summarised per test), and the suite's own
 * section of the HTML report and the phases that section draws.
 *
 * The hooks are the suites' own (suite.h: a suite_ops' phase_grid,
 * html_section, html_covers; bonnie and iozone set them), found in the
 * registry by the result's suite.
 *
 *     suite_report_mark(rf);                 // after result_read()
 *     n = suite_report_html(&cmp, hooks, ARRAY_SIZE(hooks));
 *     html_report(f, &cmp, title, hooks, n);
 */
#ifndef FSGAUGE_SUITE_REPORT_H
#define FSGAUGE_SUITE_REPORT_H

#include <stddef.h>

#include "output/html.h"
#include "output/result_read.h"

/* Set rf->grid from its suite's phase_grid hook (NULL without one). */
void suite_report_mark(struct rfile *rf);

/* The HTML sections of the suites of c's results, each suite once, in
 * the registry's order, into out[0..max); returns how many. */
size_t suite_report_html(const struct comparison *c, struct html_hooks *out, size_t max);

#endif
