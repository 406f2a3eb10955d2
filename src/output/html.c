/* html.c — the self-contained HTML report; see html.h. */
#include "output/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/html_section.h"
#include "output/svg.h"
#include "stats/zfsstat.h"
#include "util/shquote.h"
#include "util/util.h"

/* No '<' or '&' in here: the document must stay well-formed XML. */
static const char css[] =
	"body{font-family:sans-serif;margin:24px auto;padding:0 16px;color:#222;max-width:1400px;"
	"line-height:1.35}\n"
	"h1{font-size:1.6em;margin-bottom:4px}h2{font-size:1.3em;border-bottom:1px solid #bbb;"
	"margin-top:32px}h3{font-size:1.05em;margin:20px 0 8px}\n"
	".meta{color:#555;margin-top:0}\n"
	"table{border-collapse:collapse;font-size:13px;margin:8px 0}\n"
	"th,td{border:1px solid #d4d4d4;padding:3px 7px;text-align:left;vertical-align:top}\n"
	"th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	"tr.diff td,tr.diff th{background:#fff3cd}tr.phase th{background:#e4ecf5}\n"
	".swatch{display:inline-block;width:11px;height:11px;margin-right:6px;"
	"vertical-align:middle}\n"
	".charts,.pair{display:flex;flex-wrap:wrap;gap:14px}\n"
	"svg.chart{background:#fff;border:1px solid #e2e2e2}\n"
	"svg .ctitle{font-size:14px;font-weight:bold}svg .tick{font-size:11px;fill:#444}\n"
	"svg .alabel{font-size:12px;fill:#222}svg .val{font-size:11px;fill:#222}\n"
	"svg .note{font-size:11px;fill:#555}\n"
	"svg .legend{font-size:12px;fill:#222}svg .grid{stroke:#e6e6e6}svg .axis{stroke:#333}\n"
	"svg .line{fill:none;stroke-width:2}svg .err{stroke:#222;stroke-width:1.5;fill:none}\n"
	"svg .cell text{font-size:10px}caption{text-align:left;font-weight:bold;padding:2px 0}\n"
	"td.toofast{color:#555}h3.result{margin-top:24px}\n"
	"ul.verdicts{padding-left:18px}li.verdict{margin:3px 0}\n"
	".better{color:#0a6b0a;font-weight:bold}.worse{color:#b00020;font-weight:bold}\n"
	".ns,.na{color:#666}\n"
	".warn{border:1px solid #d9a400;background:#fff8e1;padding:8px 14px;margin:12px 0}\n"
	".note{color:#555;font-size:13px}\n"
	"code.cmdline{white-space:pre-wrap;word-break:break-all}\n"
	"@media print{body{margin:0;max-width:none;font-size:11px}h2{break-after:avoid}"
	"h3{break-after:avoid}svg.chart,table,.warn{break-inside:avoid}"
	"svg.chart{border:none}tr.diff td,tr.diff th{background:none;font-weight:bold}"
	".charts,.pair{gap:6px}.pair{break-inside:avoid}}\n";

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static void fmt(char *buf, size_t len, double v)
{
	comparison_fmt(buf, len, v);
}

static void swatch(FILE *f, int style)
{
	fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>", svg_color(style));
}

static void write_results(FILE *f, const struct comparison *c)
{
	fputs("<section id=\"results\">\n<h2>Results</h2>\n<table>\n<tr><th>result</th><th>file</th>"
	      "<th>suite</th><th>workload</th><th>runs</th><th>started</th><th>status</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];
		size_t runs = result_read_runs(rf);
		fputs("<tr><td>", f);
		swatch(f, (int)i);
		esc(f, rf->name);
		if (i == 0)
			fputs(" (baseline)", f);
		fputs("</td><td>", f);
		esc(f, rf->path);
		fputs("</td><td>", f);
		esc(f, rf->suite);
		fputs("</td><td>", f);
		esc(f, rf->workload);
		fprintf(f, "</td><td class=\"num\">%zu</td><td>", runs);
		esc(f, rf->started_at ? rf->started_at : "");
		fprintf(f, "</td><td>%s</td></tr>\n",
			!rf->complete ? (rf->interrupted ? "interrupted" : "stopped on error")
			: rf->errors  ? "complete, with errors"
				      : "complete");
	}
	fputs("</table>\n</section>\n", f);
}

/* The "limited by" verdict of each result's phases (docs/insight.md), a
 * row per phase and result; a grid's phases (iozone's auto mode) are
 * counted by verdict instead of listed. */
static void limits_grid(FILE *f, const struct rfile *rf, size_t i)
{
	const char *names[16];
	size_t n[16], nk = 0, k;

	for (size_t p = 0; p < rf->nphases; p++) {
		const struct rphase *ph = &rf->phases[p];

		if (!ph->limited_by || !comparison_grid_phase(rf, ph->name, NULL))
			continue;
		for (k = 0; k < nk && strcmp(names[k], ph->limited_by); k++)
			;
		if (k == nk && nk < ARRAY_SIZE(names))
			names[nk] = ph->limited_by, n[nk++] = 0;
		if (k < nk)
			n[k]++;
	}
	if (!nk)
		return;
	fputs("<tr><td>(grid)</td><td>", f);
	swatch(f, (int)i);
	esc(f, rf->name);
	fputs("</td><td colspan=\"2\">", f);
	for (k = 0; k < nk; k++) {
		fprintf(f, "%s%zu phases ", k ? ", " : "", n[k]);
		esc(f, names[k]);
	}
	fputs("</td></tr>\n", f);
}

static void limits_row(FILE *f, const struct rfile *rf, size_t i, const struct rphase *ph)
{
	const char *text = ph->limited_text ? ph->limited_text : "";
	const char *colon = strchr(text, ':');

	fputs("<tr><td>", f);
	esc(f, ph->name);
	fputs("</td><td>", f);
	swatch(f, (int)i);
	esc(f, rf->name);
	fputs("</td><td>", f);
	esc(f, ph->limited_by);
	fputs("</td><td>", f);
	esc(f, colon ? colon + 2 : text);
	if (ph->limited_mixed)
		fputs(" (its pooled runs' verdicts differ)", f);
	if (ph->zfs.present) {
		char line[1536];

		zfsstat_line(&ph->zfs, &rf->env, line, sizeof(line));
		fputs("<div class=\"zfs\">ZFS: ", f);
		esc(f, line);
		fputs("</div>", f);
	}
	fputs("</td></tr>\n", f);
}

static void write_limits(FILE *f, const struct comparison *c)
{
	int any = 0;

	for (size_t i = 0; i < c->nres && !any; i++)
		for (size_t p = 0; p < c->res[i]->nphases && !any; p++)
			any = c->res[i]->phases[p].limited_by != NULL;
	if (!any)
		return;
	fputs("<section id=\"limited-by\">\n<h2>Limited by</h2>\n<table data-table=\"limited-by\">\n"
	      "<tr><th>phase</th><th>result</th><th>verdict</th><th>evidence</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];

		for (size_t p = 0; p < rf->nphases; p++)
			if (rf->phases[p].limited_by &&
			    !comparison_grid_phase(rf, rf->phases[p].name, NULL))
				limits_row(f, rf, i, &rf->phases[p]);
		limits_grid(f, rf, i);
	}
	fputs("</table>\n<p class=\"meta\">What bounded each phase's figures, and the numbers that "
	      "say so (docs/insight.md).</p>\n</section>\n",
	      f);
}

static void write_warnings(FILE *f, const struct comparison *c)
{
	if (!c->nwarnings && !c->workload_mismatch)
		return;
	fputs("<div class=\"warn\" role=\"note\"><strong>Read with care:</strong>\n<ul>\n", f);
	if (c->workload_mismatch)
		fputs("<li>the results are of different suites or workloads (compared with "
		      "--force)</li>\n",
		      f);
	for (size_t i = 0; i < c->nwarnings; i++) {
		fputs("<li>", f);
		esc(f, c->warnings[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul></div>\n", f);
}

/* A parameter or environment value as a cell: a byte count in binary
 * units (comparison_human_value: "1 MiB", "23.5 GiB") with the value as
 * recorded in its title (the tooltip), anything else as it is. */
static void value_cell(FILE *f, const char *key, const char *v)
{
	char buf[64];
	const char *h = v ? comparison_human_value(key, v, buf, sizeof(buf)) : "";

	if (h == v || !v) {
		fputs("<td>", f);
		esc(f, v ? v : "");
		fputs("</td>", f);
		return;
	}
	fputs("<td title=\"", f);
	esc(f, v);
	fputs("\">", f);
	esc(f, h);
	fputs("</td>", f);
}

static void diff_rows(FILE *f, const struct comparison *c, const struct cmp_diff *d, size_t n,
		      const char *what)
{
	for (size_t k = 0; k < n; k++) {
		fputs("<tr><th>", f);
		esc(f, d[k].key);
		fprintf(f, " <small>(%s)</small></th>", what);
		for (size_t i = 0; i < c->nres; i++)
			value_cell(f, d[k].key, d[k].values[i]);
		fputs("</tr>\n", f);
	}
}

/* What differs between the results, first: the full tables come last. */
static void write_differences(FILE *f, const struct comparison *c)
{
	if (!c->nenv_diffs && !c->nparam_diffs)
		return;
	fputs("<section id=\"differences\">\n<h2>What differs</h2>\n<table>\n<tr><th>key</th>", f);
	for (size_t i = 0; i < c->nres; i++) {
		fputs("<th>", f);
		swatch(f, (int)i);
		esc(f, c->res[i]->name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	diff_rows(f, c, c->param_diffs, c->nparam_diffs, "parameter");
	diff_rows(f, c, c->env_diffs, c->nenv_diffs, "environment");
	fputs("</table>\n</section>\n", f);
}

/* The command line of each result, quoted for a shell (util/shquote.h),
 * so that pasted it runs what made the result again.  Never highlighted:
 * the file names in it (--json) differ between any two runs.  No row when
 * no result recorded one (older results). */
static void command_line_row(FILE *f, const struct comparison *c)
{
	int any = 0;

	for (size_t i = 0; i < c->nres; i++)
		any |= c->res[i]->command_line != NULL;
	if (!any)
		return;
	fputs("<tr data-key=\"command_line\"><th>command line</th>", f);
	for (size_t i = 0; i < c->nres; i++) {
		char *line;

		if (!c->res[i]->command_line) {
			fputs("<td class=\"na\">(not recorded)</td>", f);
			continue;
		}
		line = shquote_argv(c->res[i]->command_line);
		fputs("<td><code class=\"cmdline\">", f);
		esc(f, line);
		fputs("</code></td>", f);
		free(line);
	}
	fputs("</tr>\n", f);
}

/* A key/value table with one column per result; rows whose values differ
 * are highlighted.  The environment's starts with the command lines. */
static void write_kv_table(FILE *f, const struct comparison *c, const char *id, const char *title,
			   int env)
{
	const char **keys = NULL;
	size_t nkeys = 0;

	for (size_t i = 0; i < c->nres; i++) {
		const struct kvlist *l = env ? &c->res[i]->env : &c->res[i]->params;

		for (size_t k = 0; k < l->n; k++) {
			size_t j;

			for (j = 0; j < nkeys && strcmp(keys[j], l->v[k].key); j++)
				;
			if (j < nkeys)
				continue;
			keys = xrealloc(keys, (nkeys + 1) * sizeof(*keys));
			keys[nkeys++] = l->v[k].key;
		}
	}
	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
	fputs("<p class=\"note\">Highlighted rows differ between results; byte counts are in "
	      "binary units (1 MiB = 1048576 bytes), the value as recorded in their tooltip.",
	      f);
	if (env)
		fputs(" The command line is the one each result was made with (a result pooled "
		      "from several files: its first file's), quoted so that it can be pasted "
		      "into a shell.",
		      f);
	fputs("</p>\n<table>\n<tr><th>key</th>", f);
	for (size_t i = 0; i < c->nres; i++) {
		fputs("<th>", f);
		swatch(f, (int)i);
		esc(f, c->res[i]->name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	if (env)
		command_line_row(f, c);
	for (size_t k = 0; k < nkeys; k++) {
		const char *base = kv_get(env ? &c->res[0]->env : &c->res[0]->params, keys[k]);
		int differs = 0;

		for (size_t i = 1; i < c->nres; i++) {
			const char *v = kv_get(env ? &c->res[i]->env : &c->res[i]->params, keys[k]);

			if (env)
				differs |= !comparison_env_same(keys[k], base, v);
			else
				differs |= (v == NULL) != (base == NULL) || (v && strcmp(v, base));
		}
		fprintf(f, "<tr%s><th>", differs ? " class=\"diff\"" : "");
		esc(f, keys[k]);
		fputs("</th>", f);
		for (size_t i = 0; i < c->nres; i++) {
			const char *v = kv_get(env ? &c->res[i]->env : &c->res[i]->params, keys[k]);

			value_cell(f, keys[k], v);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
	free(keys);
}

static const struct cmp_row *find_row(const struct comparison *c, const char *phase, const char *op,
				      enum figure fig)
{
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if (!row->metric && row->fig == fig && !strcmp(row->phase, phase) &&
		    ((!row->op && !op) || (row->op && op && !strcmp(row->op, op))))
			return row;
	}
	return NULL;
}

/* The bar chart of one phase row: a headline figure or a suite metric. */
static void bar_chart(FILE *f, const struct comparison *c, const struct cmp_row *row,
		      const char *phase, struct svg_bar *bars, char (*notes)[64])
{
	const char *title = comparison_title(row), *unit = comparison_unit(row);
	enum metric_better better = comparison_better(row);
	char head[200], ylabel[100], desc[400];
	struct svg_chart ch = { 0 };

	for (size_t i = 0; i < c->nres; i++) {
		bars[i].label = c->res[i]->name;
		bars[i].value = row->cells[i].n ? row->cells[i].mean : NAN;
		bars[i].err = row->cells[i].ci_half;
		bars[i].style = (int)i;
		bars[i].note = NULL;
		bars[i].note2 = NULL;
		if (i == 0 && c->nres > 1) {
			bars[i].note = "baseline";
		} else if (row->cells[i].has_stat) {
			/* "1.39× lower latency", "significant": never a ratio below 1 */
			comparison_ratio_words(row, row->cells[i].st.ratio, 1, notes[i],
					       sizeof(notes[i]), NULL);
			bars[i].note = *notes[i] ? notes[i] : "no ratio";
			bars[i].note2 = *notes[i] ? comparison_significance_words(row, i) : NULL;
			if (bars[i].note2 && !*bars[i].note2)
				bars[i].note2 = NULL;
		}
	}
	comparison_row_label(head, sizeof(head), row);
	if (better == BETTER_NONE)
		snprintf(ylabel, sizeof(ylabel), "%s", *unit ? unit : title);
	else
		snprintf(ylabel, sizeof(ylabel), "%s (%s is better)", *unit ? unit : title,
			 better == BETTER_LOWER ? "lower" : "higher");
	snprintf(desc, sizeof(desc),
		 "Bar chart of %s%s%s for each result of phase %s, with 95%% confidence "
		 "intervals where runs were repeated.",
		 title, *unit ? " in " : "", unit, phase);
	ch.kind = "bar";
	ch.figure = comparison_key(row);
	ch.title = head;
	ch.desc = desc;
	ch.xlabel = "result";
	ch.ylabel = ylabel;
	svg_bar_chart(f, &ch, bars, c->nres);
}

static void write_bar_charts(FILE *f, const struct comparison *c, const char *phase)
{
	struct svg_bar *bars = xcalloc(c->nres, sizeof(*bars));
	char(*notes)[64] = xcalloc(c->nres, sizeof(*notes));

	fputs("<h3>Headline figures</h3>\n<p class=\"note\">Bars: mean over the runs of each "
	      "result; error bars: 95% confidence interval of the mean (only with 2 or more "
	      "runs).</p>\n<div class=\"charts\">\n",
	      f);
	for (int fig = 0; fig < FIG_COUNT; fig++) {
		const struct cmp_row *row = find_row(c, phase, NULL, fig);

		if (row)
			bar_chart(f, c, row, phase, bars, notes);
	}
	/* the suite's own figures, as its metrics table names them */
	for (size_t r = 0; r < c->nrows; r++)
		if (c->rows[r].metric && !strcmp(c->rows[r].phase, phase))
			bar_chart(f, c, &c->rows[r], phase, bars, notes);
	fputs("</div>\n", f);
	free(notes);
	free(bars);
}

static const struct rphase *phase_of(const struct rfile *rf, const char *name)
{
	for (size_t i = 0; i < rf->nphases; i++)
		if (!strcmp(rf->phases[i].name, name))
			return &rf->phases[i];
	return NULL;
}

static void write_cdfs(FILE *f, const struct comparison *c, const char *phase)
{
	const char **names = NULL;
	size_t nnames = 0;
	struct html_latency l;
	char desc[400];

	for (size_t i = 0; i < c->nres; i++) {
		const struct rphase *p = phase_of(c->res[i], phase);

		for (size_t o = 0; p && o < p->nops; o++) {
			size_t j;

			if (!p->ops[o].hist_count)
				continue;
			for (j = 0; j < nnames && strcmp(names[j], p->ops[o].name); j++)
				;
			if (j < nnames)
				continue;
			names = xrealloc(names, (nnames + 1) * sizeof(*names));
			names[nnames++] = p->ops[o].name;
		}
	}
	if (!nnames)
		return;
	fputs("<h3>Latency distribution per operation</h3>\n<p class=\"note\">Left: cumulative "
	      "fraction of operations completed within a latency (log scale), from the latency "
	      "histograms (bucket error under 0.4%). A curve further left is faster; the gap "
	      "at the top shows the tail. Right: the latency at each percentile, on an axis of "
	      "nines (p50, p90, p99, p99.9, p99.99) that gives each nine of the tail the same "
	      "room; lower is faster. A line ends at the slowest operation: a run of n "
	      "operations resolves the tail only to about 1 in n.</p>\n<div class=\"charts\">\n",
	      f);
	html_latency_init(&l, c->nres);
	for (size_t k = 0; k < nnames; k++) {
		for (size_t i = 0; i < c->nres; i++) {
			const struct rphase *p = phase_of(c->res[i], phase);

			for (size_t o = 0; p && o < p->nops; o++) {
				if (strcmp(p->ops[o].name, names[k]) || !p->ops[o].hist_count)
					continue;
				html_latency_add(&l, c->res[i]->name, (int)i, &p->ops[o]);
				break;
			}
		}
		snprintf(desc, sizeof(desc), "operation %s in phase %s", names[k], phase);
		html_latency_charts(f, &l, names[k], names[k], "", desc, "fraction of operations");
	}
	fputs("</div>\n", f);
	html_latency_free(&l);
	free(names);
}

static void write_series(FILE *f, const struct comparison *c, const char *phase)
{
	static const struct {
		const char *key, *title, *ylabel;
	} series[] = {
		{ "ops_per_second", "ops/s over time", "ops/s" },
		{ "mb_per_second", "MB/s over time", "MB/s" },
		{ "p99_us", "p99 latency over time", "p99 latency (us)" },
	};
	struct svg_series *s = xcalloc(c->nres, sizeof(*s));
	int any = 0;

	for (size_t i = 0; i < c->nres; i++) {
		const struct rphase *p = phase_of(c->res[i], phase);

		any |= p && p->nintervals;
	}
	if (!any) {
		free(s);
		return;
	}
	fputs("<h3>Time series</h3>\n<div class=\"charts\">\n", f);
	for (size_t k = 0; k < ARRAY_SIZE(series); k++) {
		struct svg_chart ch = { 0 };
		size_t ns = 0;
		int have = 0;
		char desc[300];

		for (size_t i = 0; i < c->nres; i++) {
			const struct rphase *p = phase_of(c->res[i], phase);
			double *x, *y;

			if (!p || !p->nintervals)
				continue;
			x = xmalloc(p->nintervals * sizeof(double));
			y = xmalloc(p->nintervals * sizeof(double));
			for (size_t j = 0; j < p->nintervals; j++) {
				const struct rinterval *iv = &p->intervals[j];

				x[j] = iv->t;
				y[j] = k == 0 ? iv->ops_per_second : k == 1 ? iv->mb_per_second
									    : iv->p99_us;
				have |= isfinite(y[j]) && y[j] > 0;
			}
			s[ns].name = c->res[i]->name;
			s[ns].style = (int)i;
			s[ns].x = x;
			s[ns].y = y;
			s[ns].n = p->nintervals;
			ns++;
		}
		if (have) {
			snprintf(desc, sizeof(desc), "%s in phase %s, one line per result.",
				 series[k].title, phase);
			ch.kind = "timeseries";
			ch.figure = series[k].key;
			ch.title = series[k].title;
			ch.desc = desc;
			ch.xlabel = "time (s)";
			ch.ylabel = series[k].ylabel;
			svg_line_chart(f, &ch, s, ns);
		}
		for (size_t i = 0; i < ns; i++) {
			free((void *)s[i].x);
			free((void *)s[i].y);
		}
	}
	fputs("</div>\n", f);
	free(s);
}

static void cell_value(FILE *f, const struct cmp_cell *cell)
{
	char v[32];

	if (!cell->n) {
		fputs("<td class=\"num\">-</td>", f);
		return;
	}
	fmt(v, sizeof(v), cell->mean);
	fprintf(f, "<td class=\"num\">%s", v);
	if (isfinite(cell->ci_half) && cell->mean != 0)
		fprintf(f, " &#177;%.1f%%", 100 * cell->ci_half / fabs(cell->mean));
	fprintf(f, " <small>(n=%zu)</small></td>", cell->n);
}

/* "1.33× faster (1.30–1.36) p<0.001 better": the ratio in words (below 1
 * inverted, the interval with it), the exact ratio in data-ratio. */
static void cell_ratio(FILE *f, const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *cell = &row->cells[i];
	const char *v = comparison_verdict(row, i);
	char words[64], ci[64];
	int inv;

	/* no ratio (the baseline's mean is 0): no p-value or verdict either */
	if (!cell->has_stat || !isfinite(cell->st.ratio)) {
		fputs("<td class=\"num\">-</td>", f);
		return;
	}
	comparison_ratio_words(row, cell->st.ratio, 1, words, sizeof(words), &inv);
	comparison_ratio_interval(row, i, inv, ci, sizeof(ci));
	fprintf(f, "<td class=\"num\" data-ratio=\"%.6g\">%s", cell->st.ratio,
		*words ? words : "0 (the baseline's is not)");
	if (*ci)
		fprintf(f, " <small>(%s)</small>", ci);
	if (isfinite(cell->st.p))
		fprintf(f, cell->st.p < 0.001 ? " p&lt;0.001" : " p=%.3f", cell->st.p);
	fprintf(f, " <span class=\"%s\">%s</span></td>",
		!strcmp(v, "better")  ? "better"
		: !strcmp(v, "worse") ? "worse"
		: !strcmp(v, "n/a")   ? "na"
				      : "ns",
		!strcmp(v, "n/a") || !strcmp(v, "ns") ? comparison_significance_words(row, i) : v);
}

/* A phase row of figure fig in group g of grid (for its words). */
static const struct cmp_row *find_grid_row(const struct comparison *c,
					   const struct phase_grid *grid, size_t g, enum figure fig)
{
	for (size_t r = 0; r < c->nrows; r++)
		if (c->rows[r].grid == grid && c->rows[r].group == g && c->rows[r].fig == fig &&
		    !c->rows[r].op && !c->rows[r].metric)
			return &c->rows[r];
	return &c->rows[0];
}

/* The rows of grid phases, one block per group: per figure the number of
 * phases each result has and, against the baseline, the geometric mean of
 * the ratios, their range and how many were significantly better or worse
 * (comparison_grid_sum). */
static void write_table_group(FILE *f, const struct comparison *c, const struct phase_grid *grid,
			      size_t t, int cols)
{
	const char *key = grid->group_name(t);
	char words[64];
	int head = 0;

	for (int fig = 0; fig < FIG_COUNT; fig++) {
		const struct figure_info *fi = &result_read_figures[fig];
		struct cmp_grid_sum *sum = xcalloc(c->nres, sizeof(*sum));

		if (!comparison_grid_sum(c, grid, t, (enum figure)fig, sum)) {
			free(sum);
			continue;
		}
		if (!head) {
			fprintf(f,
				"<tr class=\"phase\" data-test=\"%s\"><th colspan=\"%d\">"
				"%s %s, all file and record sizes: phases with "
				"the figure; ratio: geometric mean of the phases' ratios "
				"[smallest, largest], phases significantly better / "
				"worse</th></tr>\n",
				key, cols, grid->what, key);
			head = 1;
		}
		fprintf(f, "<tr data-test=\"%s\" data-figure=\"%s\"><th>", key, fi->key);
		esc(f, fi->title);
		if (strcmp(fi->title, fi->phase_unit)) {
			fputs(" (", f);
			esc(f, fi->phase_unit);
			fputs(")", f);
		}
		fputs("</th>", f);
		for (size_t i = 0; i < c->nres; i++) {
			fprintf(f, "<td class=\"num\">%zu phases</td>", sum[i].phases);
			if (!i)
				continue;
			if (!sum[i].nratios) {
				fputs("<td class=\"num\">-</td>", f);
				continue;
			}
			comparison_ratio_words(find_grid_row(c, grid, t, (enum figure)fig),
					       sum[i].gmean, 1, words, sizeof(words), NULL);
			fprintf(f,
				"<td class=\"num\" data-ratio=\"%.6g\">%s <small>(phases "
				"%.3g to %.3g)</small> <span class=\"better\">%zu better</span> / "
				"<span class=\"worse\">%zu worse</span></td>",
				sum[i].gmean, words, sum[i].lo, sum[i].hi, sum[i].better,
				sum[i].worse);
		}
		fputs("</tr>\n", f);
		free(sum);
	}
}

static void write_table_grouped(FILE *f, const struct comparison *c, int cols)
{
	for (size_t k = 0; k < c->ngrids; k++)
		for (size_t t = 0; t < c->grids[k]->ngroups; t++)
			write_table_group(f, c, c->grids[k], t, cols);
}

static void write_table(FILE *f, const struct comparison *c)
{
	const char *phase = NULL;
	char lab[300];
	int cols = 1 + (int)c->nres + (int)(c->nres - 1);

	fputs("<section id=\"compare\">\n<h2>Comparison</h2>\n<p class=\"note\">Against the "
	      "baseline: the ratio result / baseline (with repeats, the ratio of geometric "
	      "means) in words, a ratio below 1 inverted with its interval (0.5 of a latency is "
	      "2.00\u00d7 lower latency); in parentheses its 95% confidence interval, then the "
	      "p-value of Welch's t-test on the logarithms of the values (on the raw values, "
	      "without an interval, when a value is 0); -: the baseline is 0, so there is no "
	      "ratio, p-value or verdict. "
	      "<span class=\"better\">better</span> / <span class=\"worse\">worse</span>: "
	      "significant at p &lt; 0.05; not significant; single run: not judged, a single "
	      "run on either side cannot show significance.</p>\n<table>\n<tr><th>figure</th>",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		fputs("<th>", f);
		swatch(f, (int)i);
		esc(f, c->res[i]->name);
		fputs("</th>", f);
		if (i) {
			fputs("<th>", f);
			esc(f, c->res[i]->name);
			fputs(" against ", f);
			esc(f, c->res[0]->name);
			fputs("</th>", f);
		}
	}
	fputs("</tr>\n", f);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if (comparison_row_grouped(c, row))
			continue;
		if (!phase || strcmp(phase, row->phase)) {
			phase = row->phase;
			fprintf(f, "<tr class=\"phase\"><th colspan=\"%d\">phase ", cols);
			esc(f, phase);
			fputs("</th></tr>\n", f);
		}
		comparison_row_label(lab, sizeof(lab), row);
		fputs("<tr><th>", f);
		esc(f, lab);
		fputs("</th>", f);
		for (size_t i = 0; i < c->nres; i++) {
			cell_value(f, &row->cells[i]);
			if (i)
				cell_ratio(f, row, i);
		}
		fputs("</tr>\n", f);
	}
	write_table_grouped(f, c, cols);
	fputs("</table>\n</section>\n", f);
}

/* Order of the results along the sweep: indices sorted by sweep_x. */
static size_t *sweep_order(const struct comparison *c)
{
	size_t *ord = xcalloc(c->nres, sizeof(*ord));

	for (size_t i = 0; i < c->nres; i++) {
		size_t j = i;

		while (j > 0 && c->sweep_x[ord[j - 1]] > c->sweep_x[i]) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	return ord;
}

/* One figure of one phase against the swept parameter: the mean of each
 * result and, where runs were repeated, the bounds of its 95% confidence
 * interval as two more lines. */
static void sweep_chart(FILE *f, const struct comparison *c, const struct cmp_row *row,
			const size_t *ord)
{
	const char *key = c->param_diffs[c->sweep].key, *unit = comparison_unit(row);
	enum metric_better better = comparison_better(row);
	double *x = xcalloc(c->nres, sizeof(double)), *y[3];
	struct svg_series s[3] = { { 0 } };
	struct svg_chart ch = { 0 };
	char head[300], ylabel[120], desc[400];
	size_t ns = 1, have = 0;
	int ci = 0;

	for (int k = 0; k < 3; k++)
		y[k] = xcalloc(c->nres, sizeof(double));
	for (size_t j = 0; j < c->nres; j++) {
		const struct cmp_cell *cell = &row->cells[ord[j]];

		x[j] = c->sweep_x[ord[j]];
		y[0][j] = cell->n ? cell->mean : NAN;
		y[1][j] = cell->n && isfinite(cell->ci_half) ? MAX(cell->mean - cell->ci_half, 0)
							     : NAN;
		y[2][j] = cell->n && isfinite(cell->ci_half) ? cell->mean + cell->ci_half : NAN;
		have += cell->n > 0;
		ci |= isfinite(y[1][j]);
	}
	s[0] = (struct svg_series){ "mean", x, y[0], c->nres, 0 };
	if (ci) {
		s[1] = (struct svg_series){ "95% CI, low", x, y[1], c->nres, 1 };
		s[2] = (struct svg_series){ "95% CI, high", x, y[2], c->nres, 1 };
		ns = 3;
	}
	if (have >= 2) {
		comparison_row_label(head, sizeof(head), row);
		snprintf(ylabel, sizeof(ylabel), "%s%s", *unit ? unit : comparison_title(row),
			 better == BETTER_LOWER	   ? " (lower is better)"
			 : better == BETTER_HIGHER ? " (higher is better)"
						   : "");
		snprintf(desc, sizeof(desc),
			 "Line chart of %s in phase %s against %s, one point per result%s.",
			 comparison_title(row), row->phase, key,
			 ci ? ", with lines at the bounds of the 95% confidence interval" : "");
		ch.kind = "sweep";
		ch.figure = comparison_key(row);
		ch.title = head;
		ch.desc = desc;
		ch.xlabel = key;
		ch.ylabel = ylabel;
		svg_line_chart(f, &ch, s, ns);
	}
	for (int k = 0; k < 3; k++)
		free(y[k]);
	free(x);
}

/* A sweep (one parameter differs, 3 or more results): per phase, ops/s,
 * p99 latency and CPU per operation against the parameter. */
static void write_sweep(FILE *f, const struct comparison *c)
{
	static const enum figure figs[] = { FIG_OPS, FIG_LAT_P99, FIG_CPU };
	const char *phase = NULL;
	size_t *ord;

	if (c->sweep < 0 || c->nres < 3 || !c->sweep_x)
		return;
	ord = sweep_order(c);
	fputs("<section id=\"sweep\">\n<h2>Sweep over ", f);
	esc(f, c->param_diffs[c->sweep].key);
	fputs("</h2>\n<p class=\"note\">Each figure against the one parameter that differs "
	      "between the results: the mean over each result's runs and, where runs were "
	      "repeated, the bounds of its 95% confidence interval.</p>\n",
	      f);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if (row->op || row->metric || comparison_row_grouped(c, row))
			continue;
		if (!phase || strcmp(phase, row->phase)) {
			if (phase)
				fputs("</div>\n", f);
			phase = row->phase;
			fputs("<h3>Phase ", f);
			esc(f, phase);
			fputs("</h3>\n<div class=\"charts\">\n", f);
		}
		for (size_t k = 0; k < ARRAY_SIZE(figs); k++)
			if (row->fig == figs[k])
				sweep_chart(f, c, row, ord);
	}
	if (phase)
		fputs("</div>\n", f);
	fputs("</section>\n", f);
	free(ord);
}

/* 1 when a suite's section draws phase `name` itself. */
static int covered(const struct comparison *c, const char *name, const struct html_hooks *hooks,
		   size_t nhooks)
{
	for (size_t k = 0; k < nhooks; k++)
		if (hooks[k].covers && hooks[k].covers(c, name))
			return 1;
	return 0;
}

int html_report(FILE *f, const struct comparison *c, const char *title,
		const struct html_hooks *hooks, size_t nhooks)
{
	const struct rfile *b = c->res[0];
	char def[300], when[64];
	time_t now = time(NULL);
	struct tm tm;

	snprintf(def, sizeof(def), "fsgauge report: %s %s", b->suite, b->workload);
	if (!title)
		title = def;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	      "<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>",
	      f);
	esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	esc(f, title);
	fprintf(f, "</h1>\n<p class=\"meta\">%zu result%s; baseline: ", c->nres,
		c->nres == 1 ? "" : "s");
	esc(f, b->name);
	fprintf(f, ". Generated by fsgauge %s on %s.</p>\n", FSGAUGE_VERSION, when);
	html_write_verdicts(f, c);
	write_warnings(f, c);
	write_results(f, c);
	write_limits(f, c);
	write_differences(f, c);
	write_sweep(f, c);
	html_write_ranks(f, c);
	html_write_targets(f, c);
	for (size_t k = 0; k < nhooks; k++)
		if (hooks[k].section)
			hooks[k].section(f, c);

	for (size_t i = 0; i < c->nres; i++) {
		for (size_t p = 0; p < c->res[i]->nphases; p++) {
			const char *name = c->res[i]->phases[p].name;
			int seen = 0;

			for (size_t j = 0; j < i && !seen; j++)
				seen = phase_of(c->res[j], name) != NULL;
			/* drawn by a suite's section (heat maps of a grid:
			 * hundreds of phases) */
			if (seen || covered(c, name, hooks, nhooks))
				continue;
			fputs("<section class=\"phase\">\n<h2>Phase ", f);
			esc(f, name);
			fputs("</h2>\n", f);
			write_bar_charts(f, c, name);
			write_cdfs(f, c, name);
			write_series(f, c, name);
			fputs("</section>\n", f);
		}
	}
	if (c->nres > 1)
		write_table(f, c);
	write_kv_table(f, c, "environment", "Environment", 1);
	write_kv_table(f, c, "parameters", "Parameters", 0);
	fputs("</body>\n</html>\n", f);
	/* errno is still the failed write's (ENOSPC): each later write to
	 * the stream fails the same way */
	return ferror(f) ? -(errno ? errno : EIO) : 0;
}
