/* html_verdict.c — the report's verdict: a line per result (and phase)
 * saying how its headline figures compare with the baseline's; see
 * html_section.h. */
#include "output/html_section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Phases per result with a line of their own; the rest are counted. */
#define VERDICT_MAX_PHASES 16

static const struct {
	enum figure fig;
	const char *name;
} vfigs[] = {
	{ FIG_OPS, "ops/s" },
	{ FIG_LAT_P99, "p99" },
	{ FIG_CPU, "CPU/op" },
};

/* The phase row (no operation, no metric) of figure fig, or NULL. */
static const struct cmp_row *phase_row(const struct comparison *c, const char *phase,
				       enum figure fig)
{
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if (!row->op && !row->metric && row->fig == fig && !strcmp(row->phase, phase))
			return row;
	}
	return NULL;
}

/* Why there is no ratio, or NULL when there is one. */
static const char *no_ratio(const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *cell;

	if (!row || (!row->cells[i].n && !row->cells[0].n))
		return "not recorded";
	cell = &row->cells[i];
	if (!cell->n)
		return "not recorded in this result";
	if (!row->cells[0].n)
		return "not recorded in the baseline";
	if (!cell->has_stat || cell->st.method == COMPARE_NONE || !isfinite(cell->st.ratio))
		return "no ratio (the baseline's is 0)";
	if (!(cell->st.ratio > 0))
		return "0 in this result";
	return NULL;
}

/* "ops/s 1.42× faster (1.35–1.49, significant)"; 1 when it has a ratio
 * whose significance cannot be judged (a single run on a side). */
static int verdict_figure(FILE *f, const struct comparison *c, const char *phase, size_t k,
			  size_t i)
{
	const struct cmp_row *row = phase_row(c, phase, vfigs[k].fig);
	const char *why = no_ratio(row, i), *sig;
	const struct cmp_cell *cell;
	char words[64], ci[64];
	int inv;

	fprintf(f, "<span class=\"vfig\" data-figure=\"%s\"",
		result_read_figures[vfigs[k].fig].key);
	if (why) {
		fprintf(f, " data-direction=\"none\">%s %s</span>", vfigs[k].name, why);
		return 0;
	}
	cell = &row->cells[i];
	comparison_ratio_words(row, cell->st.ratio, 0, words, sizeof(words), &inv);
	comparison_ratio_interval(row, i, inv, ci, sizeof(ci));
	sig = cell->st.significant > 0 ? "yes" : cell->st.significant == 0 ? "no" : "unjudged";
	fprintf(f, " data-direction=\"%s\" data-significant=\"%s\">%s %s",
		!strncmp(words, "the same", 8) ? "same" : strchr(words, ' ') + 1, sig,
		vfigs[k].name, words);
	if (cell->st.significant < 0) {
		fputs("</span>", f);
		return 1;
	}
	fputs(" (", f);
	if (*ci)
		fprintf(f, "%s, ", ci);
	else if (isfinite(cell->st.p))
		fprintf(f, cell->st.p < 0.001 ? "p&lt;0.001, " : "p=%.3f, ", cell->st.p);
	fprintf(f, "%s)</span>", cell->st.significant ? "significant" : "not significant");
	return 0;
}

static void verdict_line(FILE *f, const struct comparison *c, size_t i, const char *phase,
			 int name_phase)
{
	int unjudged = 0;

	fputs("<li class=\"verdict\" data-result=\"", f);
	svg_escape(f, c->res[i]->name);
	fputs("\" data-phase=\"", f);
	svg_escape(f, phase);
	fputs("\"><span class=\"swatch\" style=\"background:", f);
	fprintf(f, "%s\"></span><strong>", svg_color((int)i));
	svg_escape(f, c->res[i]->name);
	fputs("</strong>", f);
	if (name_phase) {
		fputs(", phase ", f);
		svg_escape(f, phase);
	}
	fputs(": ", f);
	for (size_t k = 0; k < ARRAY_SIZE(vfigs); k++) {
		if (k)
			fputs(", ", f);
		unjudged += verdict_figure(f, c, phase, k, i);
	}
	if (unjudged)
		fputs(" (a single run on a side: significance not judged)", f);
	fputs("</li>\n", f);
}

/* A grid group of result i (iozone's "write" test over every file and
 * record size): the geometric mean of its phases' ops/s ratios. */
static void verdict_group(FILE *f, const struct comparison *c, size_t i,
			  const struct phase_grid *grid, size_t g)
{
	struct cmp_grid_sum *sum = xcalloc(c->nres, sizeof(*sum));
	const struct cmp_row *row = NULL;
	char words[64];

	if (!comparison_grid_sum(c, grid, g, FIG_OPS, sum) || !sum[i].phases)
		goto out;
	for (size_t r = 0; r < c->nrows && !row; r++)
		if (c->rows[r].grid == grid && c->rows[r].group == g && c->rows[r].fig == FIG_OPS &&
		    !c->rows[r].op && !c->rows[r].metric)
			row = &c->rows[r];
	fputs("<li class=\"verdict\" data-result=\"", f);
	svg_escape(f, c->res[i]->name);
	fputs("\" data-group=\"", f);
	svg_escape(f, grid->group_name(g));
	fprintf(f, "\"><span class=\"swatch\" style=\"background:%s\"></span><strong>",
		svg_color((int)i));
	svg_escape(f, c->res[i]->name);
	fputs("</strong>, ", f);
	svg_escape(f, grid->what);
	fputc(' ', f);
	svg_escape(f, grid->group_name(g));
	fputs(": ", f);
	if (!sum[i].nratios || !row) {
		fprintf(f, "ops/s no ratio in its %zu phases</li>\n", sum[i].phases);
		goto out;
	}
	comparison_ratio_words(row, sum[i].gmean, 0, words, sizeof(words), NULL);
	fprintf(f,
		"ops/s %s (geometric mean over %zu phases; phase ratios %.3g to %.3g; "
		"%zu significantly better, %zu worse)</li>\n",
		words, sum[i].nratios, sum[i].lo, sum[i].hi, sum[i].better, sum[i].worse);
out:
	free(sum);
}

/* The distinct phases of the phase rows that are not summarised per grid
 * group, in row order; caller frees. */
static const char **verdict_phases(const struct comparison *c, size_t *n)
{
	const char **ph = NULL;

	*n = 0;
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		if (row->op || row->metric || comparison_row_grouped(c, row) ||
		    (*n && !strcmp(ph[*n - 1], row->phase)))
			continue;
		ph = xrealloc(ph, (*n + 1) * sizeof(*ph));
		ph[(*n)++] = row->phase;
	}
	return ph;
}

void html_write_verdicts(FILE *f, const struct comparison *c)
{
	size_t nph;
	const char **ph;

	if (c->nres < 2)
		return;
	ph = verdict_phases(c, &nph);
	fputs("<section id=\"verdict\">\n<h2>Verdict</h2>\n<p class=\"note\">Each result against "
	      "the baseline, ",
	      f);
	svg_escape(f, c->res[0]->name);
	fputs(": the ratio of its mean to the baseline's in words (a ratio below 1 is inverted: "
	      "0.5 of a latency is 2\u00d7 lower), the 95% confidence interval of the ratio, and "
	      "whether the difference is significant at p &lt; 0.05 (Welch's t-test, as in the "
	      "comparison table).</p>\n<ul class=\"verdicts\">\n",
	      f);
	for (size_t i = 1; i < c->nres; i++) {
		for (size_t p = 0; p < nph && p < VERDICT_MAX_PHASES; p++)
			verdict_line(f, c, i, ph[p], nph > 1);
		if (nph > VERDICT_MAX_PHASES) {
			fprintf(f, "<li class=\"more\">and %zu more phase%s of ",
				nph - VERDICT_MAX_PHASES, nph - VERDICT_MAX_PHASES > 1 ? "s" : "");
			svg_escape(f, c->res[i]->name);
			fputs(": the comparison table has them all</li>\n", f);
		}
		for (size_t k = 0; k < c->ngrids; k++)
			for (size_t g = 0; g < c->grids[k]->ngroups; g++)
				verdict_group(f, c, i, c->grids[k], g);
	}
	fputs("</ul>\n</section>\n", f);
	free(ph);
}
