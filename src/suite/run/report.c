/*
 * report.c — run's section of the HTML report: filebench's per-operation
 * breakdown, as `fsgauge run` prints it (flowop, ops, ops/s, mb/s, ms/op,
 * us/op-cpu, the latency percentiles), one table per run result and
 * phase, in filebench's order (the last-defined operation first), so a
 * report of run results reads row for row like filebench's output.
 * Reached through suite_run's html_section hook (suite/report.h).
 *
 * Figures of pooled files (several runs) are the means over the runs;
 * ops the sum; the percentiles come from the pooled histogram, each the
 * middle of its bucket (the histogram's bounded error, stats/hist.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_section.h"
#include "output/svg.h"
#include "suite/run/run.h"

static int is_run(const struct rfile *rf)
{
	return rf->suite && !strcmp(rf->suite, "run");
}

/* The latency (ms) at quantile q of op's histogram, NAN without one. */
static double bucket_quantile_ms(const struct rop *op, double q)
{
	uint64_t want, seen = 0;

	if (!op->nbuckets || !op->hist_count)
		return NAN;
	want = (uint64_t)ceil(q * (double)op->hist_count);
	if (want < 1)
		want = 1;
	for (size_t i = 0; i < op->nbuckets; i++) {
		seen += op->buckets[i].count;
		if (seen >= want)
			return ((double)op->buckets[i].lo + (double)op->buckets[i].hi) / 2e6;
	}
	return (double)op->buckets[op->nbuckets - 1].hi / 1e6;
}

/* The slowest operation (ms): the top of the last bucket used. */
static double bucket_max_ms(const struct rop *op)
{
	for (size_t i = op->nbuckets; i-- > 0;)
		if (op->buckets[i].count)
			return (double)op->buckets[i].hi / 1e6;
	return NAN;
}

/* A number cell: fmt of v, or empty when v is not a number. */
static void num_cell(FILE *f, const char *col, const char *fmt, double v)
{
	fprintf(f, "<td class=\"num\" data-col=\"%s\">", col);
	if (isfinite(v))
		fprintf(f, fmt, v);
	fputs("</td>", f);
}

static void op_row(FILE *f, const struct rop *op)
{
	static const struct {
		const char *col;
		double q;
	} pct[] = { { "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 }, { "p99.9", 0.999 } };

	fputs("<tr data-op=\"", f);
	svg_escape(f, op->name);
	fputs("\"><th>", f);
	svg_escape(f, op->name);
	fprintf(f, "</th><td class=\"num\" data-col=\"ops\">%llu</td>", (unsigned long long)op->ops);
	num_cell(f, "ops/s", "%.0f", result_read_mean(&op->fig[FIG_OPS]));
	num_cell(f, "mb/s", "%.1f", result_read_mean(&op->fig[FIG_MBPS]));
	num_cell(f, "ms/op", "%.3f", result_read_mean(&op->fig[FIG_LAT_MEAN]) / 1e3);
	num_cell(f, "us/op-cpu", "%.0f", result_read_mean(&op->fig[FIG_CPU]));
	for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
		num_cell(f, pct[k].col, "%.3f", bucket_quantile_ms(op, pct[k].q));
	num_cell(f, "max", "%.3f", bucket_max_ms(op));
	fputs("</tr>\n", f);
}

static void phase_table(FILE *f, const struct rfile *rf, const struct rphase *p)
{
	fputs("<table class=\"breakdown\" data-phase=\"", f);
	svg_escape(f, p->name);
	fputs("\">\n", f);
	if (rf->nphases > 1) {
		fputs("<caption>phase ", f);
		svg_escape(f, p->name);
		fputs("</caption>\n", f);
	}
	fputs("<tr><th>flowop</th><th>ops</th><th>ops/s</th><th>mb/s</th><th>ms/op</th>"
	      "<th>us/op-cpu</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th>"
	      "<th>max ms</th></tr>\n",
	      f);
	for (size_t k = p->nops; k-- > 0;)
		op_row(f, &p->ops[k]);
	fputs("</table>\n", f);
}

void run_html_section(FILE *f, const struct comparison *c)
{
	fputs("<section id=\"run\" class=\"suite\">\n<h2>Per-operation breakdown</h2>\n"
	      "<p class=\"note\">As <code>fsgauge run</code> and filebench print it, the "
	      "last-defined operation first. mb/s: MiB (2<sup>20</sup> bytes) per second; "
	      "us/op-cpu: CPU per operation; the percentiles are from the latency histogram "
	      "(the middle of a bucket); with several runs pooled, ops is their sum and the "
	      "other figures their mean.</p>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];

		if (!is_run(rf))
			continue;
		html_suite_result_open(f, c, i);
		for (size_t k = 0; k < rf->nphases; k++)
			phase_table(f, rf, &rf->phases[k]);
		if (!rf->nphases)
			fputs("<p class=\"note\">No phase in this result.</p>\n", f);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
}
