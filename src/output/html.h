/*
 * html.h — `fsgauge report`: one self-contained HTML file (inline CSS and
 * SVG; no scripts, fonts or anything fetched) with the environment of each
 * result, a bar chart with error bars per headline figure, latency CDFs per
 * operation from the histograms, time series when recorded, and the
 * comparison table.  Printable (a print style sheet) and well-formed XML,
 * so that tests can parse it.
 *
 * Suite-specific sections (bonnie and iozone tables, the iozone auto-mode
 * heat maps; output/html_suites.h) plug into a table keyed by suite name
 * in html.c and come before the per-phase charts.
 */
#ifndef FSGAUGE_HTML_H
#define FSGAUGE_HTML_H

#include <stdio.h>

#include "output/comparison.h"

/* Write the report of c (its first result is the baseline) to f.  title
 * may be NULL for a default.  Returns 0, or -EIO when writing failed. */
int html_report(FILE *f, const struct comparison *c, const char *title);

#endif
