/* html_section.c — what a suite's own section of the HTML report builds
 * with; see html_section.h. */
#include "output/html_section.h"

#include <inttypes.h>
#include <stdlib.h>

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

void html_cdf_add(struct svg_series *s, size_t *ns, const char *name, int style,
		  const struct rop *op)
{
	double *x, *y;

	s[*ns].name = name;
	s[*ns].style = style;
	s[*ns].n = html_cdf_points(op, &x, &y);
	s[*ns].x = x;
	s[*ns].y = y;
	(*ns)++;
}

void html_cdf_chart(FILE *f, const char *figure, const char *title, const char *desc,
		    const char *ylabel, struct svg_series *s, size_t ns)
{
	struct svg_chart ch = { 0 };

	ch.kind = "cdf";
	ch.figure = figure;
	ch.title = title;
	ch.desc = desc;
	ch.xlabel = "latency (us, log scale)";
	ch.ylabel = ylabel;
	ch.xlog = 1;
	ch.ymax = 1;
	svg_line_chart(f, &ch, s, ns);
	for (size_t i = 0; i < ns; i++) {
		free((void *)s[i].x);
		free((void *)s[i].y);
	}
}
