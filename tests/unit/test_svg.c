/* test_svg.c — unit tests for the percentile plot: the "nines" axis of
 * output/svg.c and the points output/html_section.c draws on it. */
#include "tap.h"
#include "output/html_section.h"
#include "output/svg.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_nines(void)
{
	is_near(svg_nines(0), 0, 1e-12, "p0 at 0");
	is_near(svg_nines(0.5), log10(2), 1e-12, "p50 at log10(2)");
	is_near(svg_nines(0.9), 1, 1e-9, "p90 at 1");
	is_near(svg_nines(0.99), 2, 1e-9, "p99 at 2");
	is_near(svg_nines(0.999), 3, 1e-9, "p99.9 at 3");
	is_near(svg_nines(0.9999), 4, 1e-9, "p99.99 at 4");
}

/* 100 operations: 50 in [1, 2) us, 40 in [4, 5) us, 9 in [10, 20) us and
 * the slowest at 1 ms and over (the open-ended last bucket). */
static void test_points(void)
{
	struct rbucket b[] = {
		{ 1000, 2000, 50 }, { 2000, 3000, 0 }, { 4000, 5000, 40 },
		{ 10000, 20000, 9 }, { 1000000, UINT64_MAX, 1 },
	};
	struct rop op = { .buckets = b, .nbuckets = ARRAY_SIZE(b), .hist_count = 100 };
	static const double wx[] = { 0, 0.30103, 1, 2, 2 }, wy[] = { 1, 2, 5, 20, 2000 };
	double *x, *y;
	size_t n = html_pct_points(&op, &x, &y);

	is_int(n, 5, "a point at p0 and one per non-empty bucket (the empty one skipped)");
	for (size_t i = 0; i < n && i < ARRAY_SIZE(wx); i++) {
		is_near(x[i], wx[i], 1e-5, "point %zu: nines", i);
		is_near(y[i], wy[i], 1e-9, "point %zu: latency (us)", i);
	}
	free(x);
	free(y);

	op.hist_count = 0;
	op.nbuckets = 0;
	n = html_pct_points(&op, &x, &y);
	is_int(n, 0, "no histogram: no points");
	free(x);
	free(y);
}

/* The chart's text, drawn into memory. */
static char *draw(const struct svg_chart *c, const struct svg_series *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	svg_line_chart(f, c, s, n);
	fclose(f);
	return buf;
}

static int has_tick(const char *svg, const char *label)
{
	char want[64];

	snprintf(want, sizeof(want), ">%s</text>", label);
	return strstr(svg, want) != NULL;
}

static void test_chart(void)
{
	static const double x[] = { 0, 0.30103, 1, 2, 3 }, y[] = { 1.5, 2, 5, 20, 2000 };
	static const double x6[] = { 0, 1, 6 }, y6[] = { 100, 150, 180 };
	struct svg_series s = { .name = "a", .x = x, .y = y, .n = 5 };
	struct svg_chart c = { .kind = "percentile", .figure = "op", .title = "op latency percentiles",
			       .xlabel = "percentile (nines)", .ylabel = "latency (us, log scale)",
			       .xnines = 1, .ylog = 1 };
	char *svg = draw(&c, &s, 1);

	ok(strstr(svg, "data-chart=\"percentile\" data-figure=\"op\"") != NULL, "its kind and figure");
	ok(has_tick(svg, "p50") && has_tick(svg, "p90") && has_tick(svg, "p99") &&
		   has_tick(svg, "p99.9") && has_tick(svg, "p99.99"),
	   "x ticks p50, p90, p99, p99.9, p99.99");
	ok(!has_tick(svg, "p99.999"), "no tick past p99.99 when the data ends before it");
	ok(has_tick(svg, "1") && has_tick(svg, "10") && has_tick(svg, "100") &&
		   has_tick(svg, "1000") && has_tick(svg, "10k"),
	   "y ticks in decades, 1 to 10k");
	ok(strstr(svg, "text-anchor=\"end\">p99.99</text>") != NULL,
	   "the last x label ends at the chart's edge");
	free(svg);

	/* data to six nines: the axis goes that far; linear latency */
	s.x = x6;
	s.y = y6;
	s.n = 3;
	c.ylog = 0;
	c.ylabel = "latency (us)";
	svg = draw(&c, &s, 1);
	ok(has_tick(svg, "p99.9999"), "x ticks to p99.9999 when the data goes there");
	ok(has_tick(svg, "0") && has_tick(svg, "200"), "linear y from 0: ticks 0 to 200");
	free(svg);
}

int main(void)
{
	test_nines();
	test_points();
	test_chart();
	return done_testing();
}
