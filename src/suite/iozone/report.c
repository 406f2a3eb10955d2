/*
 * report.c — iozone's section of the HTML report: for throughput-mode
 * results the throughput table; in auto and single-stream mode one heat
 * map of KB/s by file size and record size per test, a table of the
 * warnings per test and one latency CDF per test pooled over all sizes.
 * Those phases get no chart section of their own (iozone_html_covers), so
 * the report stays readable with thousands of them.  Reached through
 * suite_iozone's html_section and html_covers hooks (suite/report.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_section.h"
#include "output/svg.h"
#include "suite/iozone/format.h"
#include "suite/iozone/internal.h"
#include "util/util.h"

static int is_iozone(const struct rfile *rf)
{
	return rf->suite && !strcmp(rf->suite, "iozone");
}

static void kbs_cell(FILE *f, double v, const char *test, const char *col)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"num\" data-test=\"%s\" data-col=\"%s\">%.2f</td>", test, col, v);
	else
		fprintf(f, "<td class=\"num\" data-test=\"%s\" data-col=\"%s\"></td>", test, col);
}

static void iozone_tp_table(FILE *f, const struct rfile *rf)
{
	static const struct {
		const char *metric, *col;
	} cols[] = {
		{ "children_throughput", "children" }, { "parent_throughput", "parent" },
		{ "min_throughput", "min" },	       { "max_throughput", "max" },
		{ "avg_throughput", "avg" },	       { "min_xfer", "min_xfer" },
	};
	const char *threads = kv_get(&rf->params, "threads");
	int rows = 0;

	fputs("<table class=\"iozone\" data-table=\"throughput\">\n<caption>Throughput mode: "
	      "KB = 1024 bytes</caption>\n<tr><th>test</th><th>threads</th>"
	      "<th>children see (KB/s)</th><th>parent sees (KB/s)</th>"
	      "<th>min per thread (KB/s)</th><th>max per thread (KB/s)</th>"
	      "<th>avg per thread (KB/s)</th><th>min xfer (KB)</th></tr>\n",
	      f);
	for (const enum ioz_test *t = ioz_tp_order; *t != IOZ__COUNT; t++) {
		const struct ioz_test_info *ti = &ioz_tests[*t];
		const struct rphase *p = result_read_phase(rf, ti->tp_label);

		if (!p)
			continue;
		rows++;
		fprintf(f, "<tr data-test=\"%s\"><th>", ti->key);
		svg_escape(f, ti->tp_label);
		fputs("</th><td class=\"num\">", f);
		svg_escape(f, threads ? threads : "");
		fputs("</td>", f);
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
			kbs_cell(f, result_read_metric_mean(p, cols[k].metric), ti->key, cols[k].col);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (!rows)
		fputs("<p class=\"note\">No iozone throughput test in this result.</p>\n", f);
}

/* One cell of an auto or single-stream table: phase "<test> <size>k <rec>k". */
struct ioz_point {
	enum ioz_test test;
	uint64_t size_kb, rec_kb;
	double kbs;
};

static int parse_point(const struct rfile *rf, const struct rphase *p, struct ioz_point *pt)
{
	struct phase_point gp;

	if (!comparison_grid_phase(rf, p->name, &gp))
		return 0;
	pt->test = (enum ioz_test)gp.group;
	pt->size_kb = gp.size_kb;
	pt->rec_kb = gp.rec_kb;
	pt->kbs = result_read_metric_mean(p, "throughput");
	return isfinite(pt->kbs);
}

static size_t points_of(const struct rfile *rf, struct ioz_point **out)
{
	struct ioz_point *pts = xcalloc(rf->nphases + 1, sizeof(*pts));
	size_t n = 0;

	for (size_t i = 0; i < rf->nphases; i++)
		n += parse_point(rf, &rf->phases[i], &pts[n]);
	*out = pts;
	return n;
}

/* The sorted distinct values of v[0..n); returns their number. */
static size_t distinct(uint64_t *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static size_t index_of(const uint64_t *v, size_t n, uint64_t x)
{
	size_t i;

	for (i = 0; i < n && v[i] != x; i++)
		;
	return i;
}

static char **labels(const uint64_t *v, size_t n)
{
	char **l = xcalloc(n + 1, sizeof(*l));

	for (size_t i = 0; i < n; i++)
		l[i] = xasprintf("%" PRIu64, v[i]);
	return l;
}

static void labels_free(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* The heat map of test t of one result; lo/hi: the colour scale shared by
 * every result's map of this test. */
static void iozone_heat_map(FILE *f, const struct rfile *rf, const struct ioz_point *pts,
			    size_t npts, enum ioz_test t, double lo, double hi)
{
	uint64_t *sizes = xcalloc(npts + 1, sizeof(*sizes));
	uint64_t *recs = xcalloc(npts + 1, sizeof(*recs));
	size_t ns = 0, nr = 0;
	char title[200], desc[400];
	struct svg_chart ch = { 0 };
	struct svg_heatmap h = { 0 };
	double *v;
	char **rl, **cl;

	for (size_t i = 0; i < npts; i++) {
		if (pts[i].test != t)
			continue;
		sizes[ns++] = pts[i].size_kb;
		recs[nr++] = pts[i].rec_kb;
	}
	ns = distinct(sizes, ns);
	nr = distinct(recs, nr);
	v = xmalloc((ns * nr + 1) * sizeof(*v));
	for (size_t i = 0; i < ns * nr; i++)
		v[i] = NAN;
	for (size_t i = 0; i < npts; i++) {
		size_t r, k;

		if (pts[i].test != t)
			continue;
		r = index_of(sizes, ns, pts[i].size_kb);
		k = index_of(recs, nr, pts[i].rec_kb);
		if (!isfinite(v[r * nr + k])) /* a repeated cell: the first */
			v[r * nr + k] = pts[i].kbs;
	}
	rl = labels(sizes, ns);
	cl = labels(recs, nr);
	snprintf(title, sizeof(title), "%s: KB/s by file size and record size (%s)",
		 ioz_tests[t].key, rf->name);
	snprintf(desc, sizeof(desc),
		 "Heat map of iozone's %s throughput in KB/s (KB = 1024 bytes) of result %s: one "
		 "row per file size, one column per record size, both in KB; each cell gives its "
		 "value.",
		 ioz_tests[t].key, rf->name);
	ch.kind = "heatmap";
	ch.figure = ioz_tests[t].key;
	ch.title = title;
	ch.desc = desc;
	ch.xlabel = "record size (KB)";
	ch.ylabel = "file size (KB)";
	h.nrows = ns;
	h.ncols = nr;
	h.rows = (const char *const *)rl;
	h.cols = (const char *const *)cl;
	h.v = v;
	h.row_name = "file size";
	h.col_name = "record size";
	h.label_unit = "KB";
	h.unit = "KB/s";
	h.lo = lo;
	h.hi = hi;
	svg_heat_map(f, &ch, &h);
	labels_free(rl, ns);
	labels_free(cl, nr);
	free(v);
	free(sizes);
	free(recs);
}

static int is_throughput(const struct rfile *rf)
{
	const char *mode = kv_get(&rf->params, "mode");

	return mode && !strcmp(mode, "throughput");
}

int iozone_html_covers(const struct comparison *c, const char *phase)
{
	int any = 0;

	for (size_t i = 0; i < c->nres; i++) {
		const struct rphase *p = result_read_phase(c->res[i], phase);
		struct ioz_point pt;

		if (!p)
			continue;
		if (!parse_point(c->res[i], p, &pt))
			return 0;
		any = 1;
	}
	return any;
}

/* The per-test warning table of result `res`: how many of each test's
 * phases were flagged, and the file sizes they span (c->flags). */
static void iozone_warning_table(FILE *f, const struct comparison *c, size_t res)
{
	const struct rfile *rf = c->res[res];
	int any = 0;

	for (size_t k = 0; k < c->nflags && !any; k++)
		any = c->flags[k].res == res;
	if (!any)
		return;
	fputs("<table class=\"iozone\" data-table=\"warnings\">\n<caption>Warnings per test (file "
	      "sizes in KB)</caption>\n<tr><th>test</th><th>phases</th>"
	      "<th>too brief to measure</th><th>file sizes</th>"
	      "<th>reads likely from memory</th><th>file sizes</th></tr>\n",
	      f);
	for (int t = 0; t < IOZ__COUNT; t++) {
		size_t total = 0, n[2] = { 0, 0 };
		uint64_t lo[2] = { UINT64_MAX, UINT64_MAX }, hi[2] = { 0, 0 };

		for (size_t p = 0; p < rf->nphases; p++) {
			struct phase_point pt;

			total += comparison_grid_phase(rf, rf->phases[p].name, &pt) &&
				 pt.group == (size_t)t;
		}
		if (!total)
			continue;
		for (size_t k = 0; k < c->nflags; k++) {
			const struct cmp_flag *fl = &c->flags[k];

			if (fl->res != res || fl->pt.group != (size_t)t)
				continue;
			n[fl->cached]++;
			lo[fl->cached] = MIN(lo[fl->cached], fl->pt.size_kb);
			hi[fl->cached] = MAX(hi[fl->cached], fl->pt.size_kb);
		}
		fprintf(f, "<tr data-test=\"%s\"><th>%s</th><td class=\"num\">%zu</td>",
			ioz_tests[t].key, ioz_tests[t].key, total);
		for (int kind = 0; kind < 2; kind++) { /* too brief (0), then cached (1) */
			fprintf(f, "<td class=\"num\" data-col=\"%s\">%zu</td>",
				kind ? "cached" : "too_fast", n[kind]);
			if (n[kind] && lo[kind] != hi[kind])
				fprintf(f, "<td class=\"num\">%" PRIu64 " to %" PRIu64 "</td>",
					lo[kind], hi[kind]);
			else if (n[kind])
				fprintf(f, "<td class=\"num\">%" PRIu64 "</td>", lo[kind]);
			else
				fputs("<td></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct rbucket *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The histogram of every record operation of type `type` ("read",
 * "write") in the phases of test t of rf, merged: buckets with the same
 * lower bound are added (the histograms share their layout).  The caller
 * frees op->buckets. */
static void pooled_hist(const struct comparison *c, size_t res, enum ioz_test t, const char *type,
			struct rop *op)
{
	const struct rfile *rf = c->res[res];
	size_t n = 0;

	memset(op, 0, sizeof(*op));
	for (size_t p = 0; p < rf->nphases; p++) {
		const struct rphase *ph = &rf->phases[p];
		struct phase_point pt;

		if (!comparison_grid_phase(rf, ph->name, &pt) || pt.group != (size_t)t)
			continue;
		for (size_t o = 0; o < ph->nops; o++) {
			const struct rop *x = &ph->ops[o];

			if (!x->hist_count || !x->type || strcmp(x->type, type) ||
			    !ioz_is_thread_op_name(x->name))
				continue;
			op->buckets =
			    xrealloc(op->buckets, (n + x->nbuckets + 1) * sizeof(*op->buckets));
			memcpy(op->buckets + n, x->buckets, x->nbuckets * sizeof(*x->buckets));
			n += x->nbuckets;
		}
	}
	if (!n)
		return;
	qsort(op->buckets, n, sizeof(*op->buckets), cmp_bucket);
	op->nbuckets = 0;
	for (size_t i = 0; i < n; i++) {
		struct rbucket *b = &op->buckets[i];
		/* no "last" before the first bucket (buckets - 1 is undefined) */
		struct rbucket *last = op->nbuckets ? &op->buckets[op->nbuckets - 1] : NULL;

		op->hist_count += b->count;
		if (last && last->lo == b->lo) {
			last->count += b->count;
			last->hi = MAX(last->hi, b->hi);
		} else {
			op->buckets[op->nbuckets++] = *b;
		}
	}
}

/* One latency CDF per test and kind of record operation, pooled over all
 * the file and record sizes, one line per result: a bounded number of
 * charts however many phases the results have. */
static void iozone_cdfs(FILE *f, const struct comparison *c)
{
	static const char *const types[] = { "write", "read" };
	struct rop *ops = xcalloc(c->nres, sizeof(*ops));
	struct html_latency l;
	int started = 0;

	html_latency_init(&l, c->nres);
	for (int t = 0; t < IOZ__COUNT; t++) {
		for (size_t k = 0; k < ARRAY_SIZE(types); k++) {
			char what[200], desc[500], fig[64];

			for (size_t i = 0; i < c->nres; i++) {
				pooled_hist(c, i, (enum ioz_test)t, types[k], &ops[i]);
				if (ops[i].hist_count)
					html_latency_add(&l, c->res[i]->name, (int)i, &ops[i]);
			}
			if (l.n && !started) {
				fputs("<h3>Latency per test</h3>\n<p class=\"note\">Left: "
				      "cumulative fraction of the test's read or write calls "
				      "completed within a latency (log scale); right: the latency "
				      "at each percentile, on an axis of nines (p50, p90, p99, "
				      "p99.9, p99.99). Pooled over all its file sizes and record "
				      "sizes: every call counts once, so the small records, which "
				      "make the most calls, weigh the most. One line per "
				      "result.</p>\n<div class=\"charts\">\n",
				      f);
				started = 1;
			}
			if (l.n) {
				snprintf(fig, sizeof(fig), "%s %s", ioz_tests[t].key, types[k]);
				snprintf(what, sizeof(what), "%s: %s", ioz_tests[t].key, types[k]);
				snprintf(desc, sizeof(desc),
					 "the %s calls of iozone test %s, pooled over all file and "
					 "record sizes",
					 types[k], ioz_tests[t].key);
				html_latency_charts(f, &l, fig, what, ", all sizes", desc,
						    "fraction of calls");
			}
			for (size_t i = 0; i < c->nres; i++)
				free(ops[i].buckets);
		}
	}
	if (started)
		fputs("</div>\n", f);
	html_latency_free(&l);
	free(ops);
}

void iozone_html_section(FILE *f, const struct comparison *c)
{
	struct ioz_point **pts = xcalloc(c->nres, sizeof(*pts));
	size_t *npts = xcalloc(c->nres, sizeof(*npts));
	double lo[IOZ__COUNT], hi[IOZ__COUNT];

	/* one colour scale per test over every result: equal colours mean
	 * equal throughput across the maps; log when all values are > 0 */
	for (int t = 0; t < IOZ__COUNT; t++) {
		lo[t] = INFINITY;
		hi[t] = -INFINITY;
	}
	for (size_t i = 0; i < c->nres; i++) {
		if (!is_iozone(c->res[i]) || is_throughput(c->res[i]))
			continue;
		npts[i] = points_of(c->res[i], &pts[i]);
		for (size_t k = 0; k < npts[i]; k++) {
			lo[pts[i][k].test] = MIN(lo[pts[i][k].test], pts[i][k].kbs);
			hi[pts[i][k].test] = MAX(hi[pts[i][k].test], pts[i][k].kbs);
		}
	}

	fputs("<section id=\"iozone\" class=\"suite\">\n<h2>iozone tables</h2>\n<p class=\"note\">"
	      "KB = 1024 bytes. Throughput mode: iozone's figures per test (children see: the sum "
	      "of the threads' own rates; parent sees: all data over the test's wall time). Auto "
	      "mode: one heat map per test, file sizes down, record sizes across; the colour "
	      "(darker: slower, lighter: faster; a log scale shared by every result's map of the "
	      "test) and the value in each cell are KB/s (k = thousand, M = million; the exact "
	      "value in the cell's tooltip). Grey cells were not run. In these modes the heat maps "
	      "replace the per-phase charts (one phase per test, file size and record size): "
	      "each result's warnings are counted per test in a table, and the latency is "
	      "drawn per test over all sizes.</p>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];

		if (!is_iozone(rf))
			continue;
		html_suite_result_open(f, c, i);
		if (is_throughput(rf)) {
			iozone_tp_table(f, rf);
		} else if (!npts[i]) {
			fputs("<p class=\"note\">No iozone table figures in this result.</p>\n", f);
		} else {
			fputs("<div class=\"charts\">\n", f);
			for (int t = 0; t < IOZ__COUNT; t++) {
				size_t k;

				for (k = 0; k < npts[i] && pts[i][k].test != (enum ioz_test)t; k++)
					;
				if (k < npts[i])
					iozone_heat_map(f, rf, pts[i], npts[i], (enum ioz_test)t,
							lo[t] > 0 ? lo[t] : 0, hi[t]);
			}
			fputs("</div>\n", f);
		}
		iozone_warning_table(f, c, i);
		fputs("</div>\n", f);
	}
	iozone_cdfs(f, c);
	fputs("</section>\n", f);
	for (size_t i = 0; i < c->nres; i++)
		free(pts[i]);
	free(pts);
	free(npts);
}
