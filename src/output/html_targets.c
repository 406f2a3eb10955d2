/* html_targets.c — the report's section on results over several targets:
 * per phase a row per target with what the operations on its files
 * moved, what its own devices did and its cache verdict; see
 * html_section.h. */
#include <math.h>
#include <stdio.h>

#include "output/html_section.h"

#define MIB (1024.0 * 1024.0)

static void num(FILE *f, double v, double div, const char *fmt)
{
	fputs("<td class=\"num\">", f);
	if (isfinite(v))
		fprintf(f, fmt, v / div);
	else
		fputs("-", f);
	fputs("</td>", f);
}

/* The target's verdicts, or "none" */
static void verdict_cell(FILE *f, const struct rtarget *t)
{
	const struct {
		int on;
		const char *what, *why, *key;
	} v[] = {
		{ t->likely_cached, "reads likely cached", t->cache_reason, "reads" },
		{ t->writes_absorbed, "writes likely absorbed", t->write_reason, "writes" },
		{ t->rate_implausible, "implausible rate", t->rate_reason, "rate" },
	};
	int n = 0;

	fputs("<td>", f);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (!v[i].on)
			continue;
		fprintf(f, "%s<span data-verdict=\"%s\"><strong>%s</strong>: ",
			n++ ? "<br/>" : "", v[i].key, v[i].what);
		svg_escape(f, v[i].why ? v[i].why : "");
		fputs("</span>", f);
	}
	if (!n)
		fputs("none", f);
	fputs("</td>", f);
}

static void phase_table(FILE *f, const struct rphase *ph)
{
	fputs("<h4>Phase ", f);
	svg_escape(f, ph->name);
	fprintf(f, " on %zu targets</h4>\n<table data-table=\"targets\" data-phase=\"", ph->ntargets);
	svg_escape(f, ph->name);
	fputs("\">\n<tr><th>target</th><th>file system</th><th>read MiB</th><th>written MiB</th>"
	      "<th>devices</th><th>device read MiB</th><th>device written MiB</th>"
	      "<th>util %</th><th>write amplification</th><th>cache verdict</th></tr>\n",
	      f);
	for (size_t k = 0; k < ph->ntargets; k++) {
		const struct rtarget *t = &ph->targets[k];

		fprintf(f, "<tr data-target=\"%zu\"><td>", k + 1);
		svg_escape(f, t->path);
		fputs("</td><td>", f);
		svg_escape(f, t->fs_type ? t->fs_type : "?");
		fputs("</td>", f);
		num(f, t->bytes_read, MIB, "%.1f");
		num(f, t->bytes_written, MIB, "%.1f");
		fputs("<td>", f);
		if (t->devices)
			svg_escape(f, t->devices);
		else {
			fputs("none (", f);
			svg_escape(f, t->no_device ? t->no_device : "not measured");
			fputs(")", f);
		}
		fputs("</td>", f);
		num(f, t->dev_bytes_read, MIB, "%.1f");
		num(f, t->dev_bytes_written, MIB, "%.1f");
		num(f, t->utilization, 1, "%.0f");
		num(f, t->write_amplification, 1, "%.2f");
		verdict_cell(f, t);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void html_write_targets(FILE *f, const struct comparison *c)
{
	int any = 0;

	for (size_t i = 0; i < c->nres && !any; i++)
		for (size_t p = 0; p < c->res[i]->nphases && !any; p++)
			any = c->res[i]->phases[p].ntargets > 0;
	if (!any)
		return;
	fputs("<section id=\"targets\">\n<h2>Targets</h2>\n<p class=\"note\">Each target's share "
	      "of each phase: the bytes the operations on its files moved, what its own devices "
	      "did, and its cache verdict (docs/targets.md). An operation on files in several "
	      "targets counts in none.</p>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];
		int has = 0;

		for (size_t p = 0; p < rf->nphases && !has; p++)
			has = rf->phases[p].ntargets > 0;
		if (!has)
			continue;
		html_result_heading(f, c, i);
		for (size_t p = 0; p < rf->nphases; p++)
			if (rf->phases[p].ntargets)
				phase_table(f, &rf->phases[p]);
	}
	fputs("</section>\n", f);
}
