/* ranks.c — the per-rank rows of an MPI run; see ranks.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ranks.h"

double rank_phase_rate(const struct rank_phase *p)
{
	return p->seconds > 0 ? (double)p->ops / p->seconds : 0;
}

const struct rank_phase *rank_find_phase(const struct result_rank *rk, const char *name)
{
	for (size_t i = 0; i < rk->nphases; i++)
		if (!strcmp(rk->phases[i].name, name))
			return &rk->phases[i];
	return NULL;
}

void rank_summary(const struct result_ranks *r, const char *name, struct rank_summary *out)
{
	double sum = 0, first = 0, last = 0, secs = 0;

	memset(out, 0, sizeof(*out));
	out->slowest = -1;
	for (size_t i = 0; r && i < r->n; i++) {
		const struct rank_phase *p = rank_find_phase(&r->v[i], name);
		double rate;

		if (!p)
			continue;
		rate = rank_phase_rate(p);
		if (!out->n || rate < out->min) {
			out->min = rate;
			out->slowest = r->v[i].rank;
		}
		if (!out->n || rate > out->max)
			out->max = rate;
		if (!out->n || p->seconds < out->min_seconds)
			out->min_seconds = p->seconds;
		if (!out->n || p->seconds > out->max_seconds)
			out->max_seconds = p->seconds;
		secs += p->seconds;
		if (!out->n || p->start < first)
			first = p->start;
		if (!out->n || p->start > last)
			last = p->start;
		sum += rate;
		out->n++;
	}
	if (out->n) {
		out->mean = sum / (double)out->n;
		out->skew = last - first;
		out->mean_seconds = secs / (double)out->n;
	}
}

void result_ranks_free(struct result_ranks *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		for (size_t p = 0; p < r->v[i].nphases; p++) {
			free(r->v[i].phases[p].name);
			free(r->v[i].phases[p].end_reason);
		}
		free(r->v[i].phases);
		free(r->v[i].host);
	}
	free(r->v);
	for (size_t i = 0; i < r->nhosts; i++) {
		free(r->hosts[i].host);
		free(r->hosts[i].ranks);
		kv_free(&r->hosts[i].env);
		for (size_t p = 0; p < r->hosts[i].nphases; p++) {
			free(r->hosts[i].phases[p].name);
			free(r->hosts[i].phases[p].none);
		}
		free(r->hosts[i].phases);
	}
	free(r->hosts);
	free(r);
}
