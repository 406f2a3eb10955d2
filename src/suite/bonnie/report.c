/*
 * report.c — bonnie's section of the HTML report: bonnie++'s two tables
 * (I/O tests and file creation) per bonnie result, from the phases'
 * metrics (bonnie_kib_per_sec, bonnie_per_sec, bonnie_cpu, ...; older
 * results' bonnie_rate).  A result without them, or with malformed ones,
 * gets empty cells, never a crash.  Reached through suite_bonnie's
 * html_section hook (suite/report.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_section.h"
#include "output/svg.h"
#include "suite/bonnie/bonnie.h"
#include "suite/bonnie/format.h"
#include "util/util.h"

static int is_bonnie(const struct rfile *rf)
{
	return rf->suite && !strcmp(rf->suite, "bonnie");
}

struct bonnie_cells {
	struct bonnie_report r;
	int has_cpu[BT__COUNT]; /* the %CP was recorded */
	int any_io, any_files, any_latency;
};

/* A test's rate: bonnie_kib_per_sec (K/sec: the I/O tests) or
 * bonnie_per_sec (/sec: seeks and the file tests), or, in results written
 * before the rate was split in two metrics of one unit each, bonnie_rate
 * (K/sec or /sec by the test, the same figure).  NAN when none is there. */
static double bonnie_rate(const struct rphase *p, int t)
{
	double rate = result_read_metric_mean(p, t <= BT_GET_BLOCK ? "bonnie_kib_per_sec" : "bonnie_per_sec");

	return isfinite(rate) ? rate : result_read_metric_mean(p, "bonnie_rate");
}

/* bonnie++'s figures of a result, from its phases' metrics: the rate
 * (bonnie_rate() above), bonnie_cpu (%), bonnie_max_latency (us) and
 * bonnie_too_fast, each the mean over pooled runs (the latency the
 * longest; too fast when any run was). */
static void bonnie_cells(const struct rfile *rf, struct bonnie_cells *b)
{
	memset(b, 0, sizeof(*b));
	b->r.machine = kv_get(&rf->params, "machine");
	if (!b->r.machine)
		b->r.machine = rf->name;
	b->r.file_size = (uint64_t)result_read_param_ll(rf, "file_size", 0);
	b->r.chunk_size = (uint64_t)result_read_param_ll(rf, "chunk_size", BONNIE_DEFAULT_CHUNK);
	b->r.files = (unsigned)(result_read_param_ll(rf, "files", 0) / 1024);
	b->r.max_size = result_read_param_ll(rf, "max_size", 0);
	b->r.min_size = result_read_param_ll(rf, "min_size", 0);
	b->r.dirs = (unsigned)result_read_param_ll(rf, "dirs", 0);
	for (int t = 0; t < BT__COUNT; t++) {
		const struct rphase *p = result_read_phase(rf, bonnie_test_name((enum bonnie_test)t));
		double rate = bonnie_rate(p, t), cpu = result_read_metric_mean(p, "bonnie_cpu");
		double lat = result_read_metric_max(p, "bonnie_max_latency");
		double fast = result_read_metric_max(p, "bonnie_too_fast");
		int too_fast;

		if (!p)
			continue;
		if (t <= BT_SEEKS)
			b->any_io = 1;
		else
			b->any_files = 1;
		if (!isfinite(rate))
			continue; /* failed or not recorded: blank, as bonnie++ */
		/* without the verdict, the phase's own "too short" flag */
		too_fast = isfinite(fast) ? fast > 0 : p->too_fast;
		bonnie_figure_from_rates(&b->r.t[t], rate, isfinite(cpu) ? cpu : 0,
					 isfinite(lat) ? lat / 1e6 : 0, too_fast);
		b->has_cpu[t] = isfinite(cpu);
		b->any_latency |= b->r.t[t].max_latency > 0;
	}
}

static void bonnie_cell_pair(FILE *f, const struct bonnie_cells *b, int t)
{
	const struct bonnie_figure *x = &b->r.t[t];
	const char *name = bonnie_test_name((enum bonnie_test)t);
	char v[48], cp[16];

	bonnie_fmt_rate(v, sizeof(v), x, t == BT_SEEKS);
	bonnie_fmt_cpu(cp, sizeof(cp), x);
	if (!b->has_cpu[t] && !bonnie_too_fast(x))
		cp[0] = 0;
	if (bonnie_too_fast(x)) {
		fprintf(f, "<td class=\"num toofast\" data-test=\"%s\" data-col=\"rate\" "
			   "title=\"under 0.5 s: too short to measure\">%s</td>"
			   "<td class=\"num toofast\" data-test=\"%s\" data-col=\"cpu\">%s</td>",
			name, v, name, cp);
		return;
	}
	fprintf(f, "<td class=\"num\" data-test=\"%s\" data-col=\"rate\">%s</td>"
		   "<td class=\"num\" data-test=\"%s\" data-col=\"cpu\">%s</td>",
		name, v, name, cp);
}

static void bonnie_latency_row(FILE *f, const struct bonnie_cells *b, int from, int to, int span)
{
	char buf[32];

	if (!b->any_latency)
		return;
	fprintf(f, "<tr class=\"latency\"><th colspan=\"%d\">latency (longest operation)</th>", span);
	for (int t = from; t < to; t++) {
		bonnie_fmt_latency(buf, sizeof(buf), &b->r.t[t]);
		fprintf(f, "<td class=\"num\" colspan=\"2\" data-test=\"%s\" data-col=\"latency\">%s</td>",
			bonnie_test_name((enum bonnie_test)t), buf);
	}
	fputs("</tr>\n", f);
}

static void bonnie_io_table(FILE *f, const struct bonnie_cells *b)
{
	static const char *const heads[] = { "Per Chr", "Block", "Rewrite",
					     "Per Chr", "Block", "Seeks" };
	char size[64];

	fputs("<table class=\"bonnie\" data-table=\"io\">\n<caption>Sequential output and input, "
	      "random seeks</caption>\n<tr><th rowspan=\"3\">machine</th><th rowspan=\"3\">size</th>"
	      "<th colspan=\"6\">Sequential Output</th><th colspan=\"4\">Sequential Input</th>"
	      "<th colspan=\"2\">Random</th></tr>\n<tr>",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(heads); i++)
		fprintf(f, "<th colspan=\"2\">%s</th>", heads[i]);
	fputs("</tr>\n<tr>", f);
	for (int t = BT_PUTC; t <= BT_SEEKS; t++)
		fprintf(f, "<th>%s</th><th>%%CP</th>", t == BT_SEEKS ? "/sec" : "K/sec");
	fputs("</tr>\n<tr class=\"figures\"><td>", f);
	svg_escape(f, b->r.machine);
	size[0] = 0; /* unknown without the parameter */
	if (b->r.file_size)
		bonnie_fmt_size(size, sizeof(size), &b->r, ':');
	fputs("</td><td class=\"num\">", f);
	svg_escape(f, size);
	fputs("</td>", f);
	for (int t = BT_PUTC; t <= BT_SEEKS; t++)
		bonnie_cell_pair(f, b, t);
	fputs("</tr>\n", f);
	bonnie_latency_row(f, b, BT_PUTC, BT_SEEKS + 1, 2);
	fputs("</table>\n", f);
}

static void bonnie_files_table(FILE *f, const struct bonnie_cells *b)
{
	static const char *const heads[] = { "Create", "Read", "Delete" };
	char files[128];

	fputs("<table class=\"bonnie\" data-table=\"files\">\n<caption>File creation (files in "
	      "units of 1024)</caption>\n<tr><th rowspan=\"3\">files</th>"
	      "<th colspan=\"6\">Sequential Create</th><th colspan=\"6\">Random Create</th></tr>\n"
	      "<tr>",
	      f);
	for (int k = 0; k < 6; k++)
		fprintf(f, "<th colspan=\"2\">%s</th>", heads[k % 3]);
	fputs("</tr>\n<tr>", f);
	for (int k = 0; k < 6; k++)
		fputs("<th>/sec</th><th>%CP</th>", f);
	bonnie_fmt_files(files, sizeof(files), &b->r);
	fprintf(f, "</tr>\n<tr class=\"figures\"><td class=\"num\">%s</td>", files);
	for (int t = BT_SEQ_CREATE; t < BT__COUNT; t++)
		bonnie_cell_pair(f, b, t);
	fputs("</tr>\n", f);
	bonnie_latency_row(f, b, BT_SEQ_CREATE, BT__COUNT, 1);
	fputs("</table>\n", f);
}

void bonnie_html_section(FILE *f, const struct comparison *c)
{
	fputs("<section id=\"bonnie\" class=\"suite\">\n<h2>bonnie++ tables</h2>\n<p class=\"note\">"
	      "As bonnie++ prints them. K/sec: KiB (1024 bytes) per second; /sec: seeks or files "
	      "per second; %CP: the process's CPU time over the test's elapsed time, in percent "
	      "(over 100 with several threads); latency: the longest single operation. "
	      "<strong>+++++</strong> (and +++): the test took under 0.5 s, too short to measure "
	      "(bonnie++'s rule), so no number is shown; a blank: the test did not run or "
	      "failed.</p>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		struct bonnie_cells b;

		if (!is_bonnie(c->res[i]))
			continue;
		bonnie_cells(c->res[i], &b);
		html_suite_result_open(f, c, i);
		if (b.any_io)
			bonnie_io_table(f, &b);
		if (b.any_files)
			bonnie_files_table(f, &b);
		if (!b.any_io && !b.any_files)
			fputs("<p class=\"note\">No bonnie++ test in this result.</p>\n", f);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
}
