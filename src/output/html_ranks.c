/* html_ranks.c — the report's section on the ranks of MPI results: the
 * file-systems warning, and per phase the stonewall across ranks, one
 * row per rank and one per host with what its block devices did; see
 * html_section.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_section.h"
#include "util/util.h"

static void num(FILE *f, double v, const char *fmt)
{
	fputs("<td class=\"num\">", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("-", f);
	fputs("</td>", f);
}

static const char *host_of(const struct rphase_ranks *pr, int rank)
{
	for (size_t i = 0; i < pr->nrows; i++)
		if (pr->rows[i].rank == rank)
			return pr->rows[i].host;
	return "?";
}

/* "stonewall: raised by rank 0 (vm) 0.000257 s after the first start; it
 * stopped ranks 1,2", as the text report says it */
static void wall_line(FILE *f, const struct rphase_ranks *pr)
{
	size_t k = 0;

	fprintf(f,
	        "<p class=\"stonewall\" data-rank=\"%d\" data-peers=\"%llu\">stonewall: raised "
	        "by rank %d (",
	        pr->stonewall_rank, (unsigned long long)pr->stonewall_peers, pr->stonewall_rank);
	svg_escape(f, host_of(pr, pr->stonewall_rank));
	fprintf(f, ") %.6f s after the first start; ", pr->stonewall_seconds);
	if (!pr->stonewall_peers)
		fputs("no other rank was stopped by it", f);
	else
		fprintf(f, "it stopped %llu rank%s", (unsigned long long)pr->stonewall_peers,
		        pr->stonewall_peers == 1 ? "" : "s");
	for (size_t i = 0; i < pr->nrows; i++)
		if (pr->rows[i].stonewall == 'p')
			fprintf(f, "%s%d", k++ ? "," : ": ", pr->rows[i].rank);
	fputs("</p>\n", f);
}

/* What each host's block devices did in the phase (hosts[].phases[]:
 * the first rank on a host measured them for every rank on it), the
 * figures of dev_io_figures() as the JSON and text have them. */
static void host_table(FILE *f, const struct rfile *rf, const char *phase)
{
	fputs("<table data-table=\"hosts\" data-phase=\"", f);
	svg_escape(f, phase);
	fputs("\">\n<caption>Block devices per host</caption>\n<tr><th>host</th><th>ranks</th>"
	      "<th>devices</th><th>seconds</th><th>reads</th><th>read MiB</th><th>writes</th>"
	      "<th>write MiB</th><th>requests/s</th><th>MiB/s</th><th>util %</th>"
	      "<th>busy ms</th><th>queue</th><th>service ms</th><th>await ms</th></tr>\n",
	      f);
	for (size_t i = 0; i < rf->nhosts; i++) {
		const struct result_host *h = &rf->hosts[i];
		const struct host_phase *hp = result_host_phase(h, phase);
		const char *names = kv_get(&h->env, "block_devices");
		struct dev_figures fg;

		if (!hp)
			continue;
		fputs("<tr><td>", f);
		svg_escape(f, h->host);
		fputs("</td><td>", f);
		for (size_t k = 0; k < h->nranks; k++)
			fprintf(f, "%s%d", k ? "," : "", h->ranks[k]);
		if (!hp->ndev) {
			fputs("</td><td colspan=\"13\">none (", f);
			svg_escape(f, hp->none ? hp->none : "not measured");
			fputs(")</td></tr>\n", f);
			continue;
		}
		dev_io_figures(&hp->device, hp->seconds, hp->ndev, &fg);
		fputs("</td><td>", f);
		svg_escape(f, names ? names : "-");
		fputs("</td>", f);
		num(f, hp->seconds, "%.3f");
		fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)hp->device.reads);
		num(f, (double)hp->device.bytes_read / 1048576.0, "%.1f");
		fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)hp->device.writes);
		num(f, (double)hp->device.bytes_written / 1048576.0, "%.1f");
		num(f, fg.requests_per_second, "%.1f");
		num(f, fg.mib_per_second, "%.1f");
		num(f, fg.utilization, "%.1f");
		fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)hp->device.busy_ms);
		num(f, fg.queue, "%.2f");
		num(f, fg.service_ms, "%.3f");
		num(f, fg.await_ms, "%.3f");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void phase_table(FILE *f, const struct rfile *rf, const struct rphase *ph)
{
	const struct rphase_ranks *pr = &ph->ranks;

	fputs("<h4>Phase ", f);
	svg_escape(f, ph->name);
	fprintf(f, " over %zu rank%s</h4>\n", pr->n, pr->n == 1 ? "" : "s");
	if (pr->stonewall_rank >= 0)
		wall_line(f, pr);
	fputs("<table data-table=\"ranks\" data-phase=\"", f);
	svg_escape(f, ph->name);
	fputs("\">\n<tr><th>rank</th><th>host</th><th>ops</th><th>ops/s</th><th>seconds</th>"
	      "<th>start s</th><th>end</th><th>stonewall</th><th>stonewall s</th></tr>\n",
	      f);
	for (size_t i = 0; i < pr->nrows; i++) {
		const struct rrank_phase *r = &pr->rows[i];

		fprintf(f, "<tr><td class=\"num\">%d%s</td><td>", r->rank,
		        r->rank == pr->slowest_rank ? " (slowest)" : "");
		svg_escape(f, r->host);
		fprintf(f, "</td><td class=\"num\">%llu</td>", (unsigned long long)r->ops);
		num(f, r->ops_per_second, "%.1f");
		num(f, r->seconds, "%.3f");
		num(f, r->start, "%.6f");
		fputs("<td>", f);
		svg_escape(f, r->end_reason ? r->end_reason : "");
		fprintf(f, "</td><td>%s</td>",
		        r->stonewall == 'r'   ? "raised"
		        : r->stonewall == 'p' ? "stopped by a peer"
		                              : "-");
		num(f, r->stonewall_seconds, "%.6f");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (rf->nhosts)
		host_table(f, rf, ph->name);
}

void html_write_ranks(FILE *f, const struct comparison *c)
{
	int any = 0;

	for (size_t i = 0; i < c->nres && !any; i++)
		for (size_t p = 0; p < c->res[i]->nphases && !any; p++)
			any = c->res[i]->phases[p].ranks.nrows > 0 || c->res[i]->nfs > 0;
	if (!any)
		return;
	fputs("<section id=\"ranks\">\n<h2>Ranks (mpirun)</h2>\n<p class=\"note\">Each rank's "
	      "share of each phase, and the stonewall across the ranks: the rank whose thread "
	      "raised it first, when (after the first start, rank 0's clock) and the ranks it "
	      "stopped; and what each host's block devices did, as the first rank on the host "
	      "measured them for all its ranks: the phase's own device figures are their sum "
	      "(docs/mpi.md).</p>\n",
	      f);
	for (size_t i = 0; i < c->nres; i++) {
		const struct rfile *rf = c->res[i];

		if (!rf->nfs && (!rf->nphases || !rf->phases[0].ranks.nrows))
			continue;
		html_result_heading(f, c, i);
		if (rf->fs_warning) {
			fputs("<div class=\"warn\" role=\"note\" data-warning=\"file_systems\">"
			      "<strong>WARNING:</strong> ",
			      f);
			svg_escape(f, rf->fs_warning);
			fputs("</div>\n", f);
		}
		for (size_t p = 0; p < rf->nphases; p++)
			if (rf->phases[p].ranks.nrows)
				phase_table(f, rf, &rf->phases[p]);
	}
	fputs("</section>\n", f);
}
