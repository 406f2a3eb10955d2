/*
 * svg.h — small inline SVG charts for the HTML report: bar charts with
 * error bars and line charts (linear, logarithmic or "nines" x axis,
 * linear or logarithmic y axis).  Output is well-formed XML that browsers
 * show inline in HTML, with a <title> and <desc> for screen readers, axis
 * labels with units, and line styles that stay distinguishable when
 * printed in grey.
 *
 * Each chart is an <svg class="chart" data-chart="KIND" data-figure="KEY">
 * element; tests count charts by those attributes.  The caller escapes
 * nothing: every string passed in is escaped here.
 */
#ifndef FSGAUGE_SVG_H
#define FSGAUGE_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Number of distinct series styles (colour + dash pattern); style i is
 * used for result i modulo this. */
#define SVG_STYLES 8

struct svg_bar {
	const char *label; /* under the bar */
	double value;	   /* NAN: no bar ("no data" shown) */
	double err;	   /* half-width of the error bar; NAN for none */
	const char *note;  /* a second line under the label ("1.33× faster"), or NULL */
	const char *note2; /* a third line ("significant"), or NULL */
	int style;
};

struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	int style;
};

struct svg_chart {
	const char *kind;   /* "bar", "cdf", "percentile", "timeseries", "heatmap":
			     * data-chart */
	const char *figure; /* data-figure attribute (figure key), or NULL */
	const char *title;
	const char *desc;   /* longer description for assistive technology, or NULL */
	const char *xlabel; /* axis labels, with their unit: "latency (us)" */
	const char *ylabel;
	int xlog;	    /* logarithmic x axis (values must be > 0) */
	int xnines;	    /* x is -log10(1 - p) of a fraction p: ticks p50, p90,
			     * p99, p99.9, ... (a percentile plot; svg_nines()) */
	int ylog;	    /* logarithmic y axis (values must be > 0); ymax unused */
	double ymax;	    /* fixed top of the y axis, or 0 for automatic */
};

/* Write s with &, <, >, " and ' escaped for XML/HTML text and attributes. */
void svg_escape(FILE *f, const char *s);
/* The colour of style i, as "#rrggbb". */
const char *svg_color(int style);

/* A heat map: one cell per (row, column) with a value, coloured on a
 * sequential scale whose lightness rises with the value (so that a grey
 * printout keeps the order), the value written in the cell and in its
 * <title> with the unit, and a colour legend with the unit.  Rows run top
 * to bottom, columns left to right; the chart's xlabel names the columns
 * and its ylabel the rows (with their unit). */
struct svg_heatmap {
	size_t nrows, ncols;
	const char *const *rows; /* row and column labels ("64") */
	const char *const *cols;
	const double *v;	 /* v[r * ncols + c]; NAN: no cell (not run) */
	const char *row_name;	 /* "file size": the cell's <title> */
	const char *col_name;	 /* "record size" */
	const char *label_unit;	 /* unit of the labels: "KB" */
	const char *unit;	 /* unit of the values: "KB/s" */
	double lo, hi;		 /* colour scale; logarithmic when 0 < lo < hi */
};

void svg_bar_chart(FILE *f, const struct svg_chart *c, const struct svg_bar *bars, size_t n);
/* The x of fraction p (0 <= p < 1) on a "nines" axis: -log10(1 - p), so
 * p90 is 1, p99 2, p99.9 3. */
double svg_nines(double p);
/* Lines through each series' points (x ascending); a legend names them. */
void svg_line_chart(FILE *f, const struct svg_chart *c, const struct svg_series *s, size_t n);
void svg_heat_map(FILE *f, const struct svg_chart *c, const struct svg_heatmap *h);

#endif
