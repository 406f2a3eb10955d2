/*
 * html.h — `fsgauge report`: one self-contained HTML file (inline CSS and
 * SVG; no scripts, fonts or anything fetched) with the environment of each
 * result, a bar chart with error bars per headline figure, latency CDFs per
 * operation from the histograms, time series when recorded, and the
 * comparison table.  Printable (a print style sheet) and well-formed XML,
 * so that tests can parse it.
 *
 * Suite-specific sections (a suite's own tables and heat maps, in the
 * suite's module; what they build with: output/html_section.h) arrive as
 * hooks the caller passes (cmd/report.c, from the suites' hooks), so this
 * file names no suite; they come before the per-phase charts.
 */
#ifndef FSGAUGE_HTML_H
#define FSGAUGE_HTML_H

#include <stdio.h>

#include "output/comparison.h"

/* A suite's part of the report; either member may be NULL. */
struct html_hooks {
	/* its section, about the results of that suite */
	void (*section)(FILE *f, const struct comparison *c);
	/* 1 when the section draws phase `phase` itself: no chart section */
	int (*covers)(const struct comparison *c, const char *phase);
};

/* Write the report of c (its first result is the baseline) to f, with
 * the suite sections hooks[0..nhooks) in that order.  title may be NULL
 * for a default.  Returns 0, or -EIO when writing failed. */
int html_report(FILE *f, const struct comparison *c, const char *title,
		const struct html_hooks *hooks, size_t nhooks);

#endif
