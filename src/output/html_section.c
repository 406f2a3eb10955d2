/* html_section.c — what a suite's own section of the HTML report builds
 * with; see html_section.h. */
#include "output/html_section.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void html_result_heading(FILE *f, const struct comparison *c, size_t i)
{
	fprintf(f, "<h3 class=\"result\"><span class=\"swatch\" style=\"background:%s\"></span>",
		svg_color((int)i));
	svg_escape(f, c->res[i]->name);
	if (i == 0 && c->nres > 1)
		fputs(" (baseline)", f);
	fputs("</h3>\n", f);
}

void html_suite_result_open(FILE *f, const struct comparison *c, size_t i)
{
	fputs("<div class=\"suite-result\" data-result=\"", f);
	svg_escape(f, c->res[i]->name);
	fputs("\">\n", f);
	html_result_heading(f, c, i);
}

size_t html_cdf_points(const struct rop *op, double **xs, double **ys)
{
	double *x = xmalloc((op->nbuckets + 1) * sizeof(double));
	double *y = xmalloc((op->nbuckets + 1) * sizeof(double));
	uint64_t cum = 0;
	size_t n = 0;

	if (op->nbuckets && op->hist_count) {
		x[n] = (double)(op->buckets[0].lo ? op->buckets[0].lo : 1) / 1e3;
		y[n++] = 0;
	}
	for (size_t i = 0; i < op->nbuckets && op->hist_count; i++) {
		const struct rbucket *b = &op->buckets[i];
		uint64_t hi = b->hi == UINT64_MAX ? b->lo * 2 : b->hi;

		cum += b->count;
		x[n] = (double)(hi ? hi : 1) / 1e3;
		y[n++] = (double)cum / (double)op->hist_count;
	}
	*xs = x;
	*ys = y;
	return n;
}

size_t html_pct_points(const struct rop *op, double **xs, double **ys)
{
	double *x = xmalloc((op->nbuckets + 1) * sizeof(double));
	double *y = xmalloc((op->nbuckets + 1) * sizeof(double));
	double total = (double)op->hist_count;
	uint64_t cum = 0;
	size_t n = 0;

	if (op->nbuckets && op->hist_count) {
		x[n] = 0;
		y[n++] = (double)(op->buckets[0].lo ? op->buckets[0].lo : 1) / 1e3;
	}
	for (size_t i = 0; i < op->nbuckets && op->hist_count; i++) {
		const struct rbucket *b = &op->buckets[i];
		uint64_t hi = b->hi == UINT64_MAX ? b->lo * 2 : b->hi;

		if (!b->count)
			continue;
		cum += b->count;
		/* all done: the slowest of hist_count, at 1 - 1/hist_count */
		x[n] = cum < op->hist_count ? svg_nines((double)cum / total)
					    : svg_nines(1 - 1 / total);
		y[n++] = (double)(hi ? hi : 1) / 1e3;
	}
	*xs = x;
	*ys = y;
	return n;
}

void html_latency_init(struct html_latency *l, size_t nres)
{
	l->cdf = xcalloc(nres ? nres : 1, sizeof(*l->cdf));
	l->pct = xcalloc(nres ? nres : 1, sizeof(*l->pct));
	l->n = 0;
}

void html_latency_add(struct html_latency *l, const char *name, int style, const struct rop *op)
{
	double *x, *y;

	l->cdf[l->n].name = l->pct[l->n].name = name;
	l->cdf[l->n].style = l->pct[l->n].style = style;
	l->cdf[l->n].n = html_cdf_points(op, &x, &y);
	l->cdf[l->n].x = x;
	l->cdf[l->n].y = y;
	l->pct[l->n].n = html_pct_points(op, &x, &y);
	l->pct[l->n].x = x;
	l->pct[l->n].y = y;
	l->n++;
}

/* Is the latency's spread wide (the slowest over 10 times the fastest)?
 * Then the percentile plot's latency axis is logarithmic. */
static int wide_spread(const struct svg_series *s, size_t ns)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < ns; i++)
		for (size_t k = 0; k < s[i].n; k++)
			if (s[i].y[k] > 0 && isfinite(s[i].y[k])) {
				lo = MIN(lo, s[i].y[k]);
				hi = MAX(hi, s[i].y[k]);
			}
	return hi > 10 * lo;
}

void html_latency_charts(FILE *f, struct html_latency *l, const char *figure, const char *what,
			 const char *after, const char *desc, const char *ylabel)
{
	struct svg_chart ch = { 0 };
	char title[300], text[600];

	fputs("<div class=\"pair\">\n", f);
	ch.kind = "cdf";
	ch.figure = figure;
	snprintf(title, sizeof(title), "%s latency CDF%s", what, after);
	ch.title = title;
	snprintf(text, sizeof(text), "Cumulative distribution of the latency of %s, one line per "
		 "result.", desc);
	ch.desc = text;
	ch.xlabel = "latency (us, log scale)";
	ch.ylabel = ylabel;
	ch.xlog = 1;
	ch.ymax = 1;
	svg_line_chart(f, &ch, l->cdf, l->n);

	memset(&ch, 0, sizeof(ch));
	ch.kind = "percentile";
	ch.figure = figure;
	snprintf(title, sizeof(title), "%s latency percentiles%s", what, after);
	ch.title = title;
	snprintf(text, sizeof(text), "Latency of %s at each percentile, on an axis of nines "
		 "(p50, p90, p99, p99.9, p99.99), one line per result.", desc);
	ch.desc = text;
	ch.xlabel = "percentile (nines)";
	ch.xnines = 1;
	ch.ylog = wide_spread(l->pct, l->n);
	ch.ylabel = ch.ylog ? "latency (us, log scale)" : "latency (us)";
	svg_line_chart(f, &ch, l->pct, l->n);
	fputs("</div>\n", f);
	for (size_t i = 0; i < l->n; i++) {
		free((void *)l->cdf[i].x);
		free((void *)l->cdf[i].y);
		free((void *)l->pct[i].x);
		free((void *)l->pct[i].y);
	}
	l->n = 0;
}

void html_latency_free(struct html_latency *l)
{
	free(l->cdf);
	free(l->pct);
}
