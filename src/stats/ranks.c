/* ranks.c — the per-rank rows of an MPI run; see ranks.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "stats/ranks.h"
#include "util/util.h"

const char *rank_wall_name(enum rank_wall w)
{
	return w == RANK_WALL_RAISED ? "raised" : w == RANK_WALL_PEER ? "peer" : NULL;
}

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
	out->wall_rank = -1;
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
		if (p->wall == RANK_WALL_RAISED && (out->wall_rank < 0 || p->wall_at < out->wall_at)) {
			out->wall_rank = r->v[i].rank;
			out->wall_at = p->wall_at;
		}
		out->wall_peers += p->wall == RANK_WALL_PEER;
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
	rank_fs_free(r->fs, r->nfs);
	free(r);
}

static int same_fs(const struct rank_target *a, const struct rank_target *b)
{
	if (a->magic != b->magic || strcmp(a->type ? a->type : "", b->type ? b->type : ""))
		return 0;
	return strcmp(a->host, b->host) || a->dev == b->dev;
}

size_t rank_fs_group(const struct rank_target *t, size_t n, struct rank_fs **out, int *other_fs)
{
	struct rank_fs *fs = n ? xcalloc(n, sizeof(*fs)) : NULL;
	size_t *first = n ? xcalloc(n, sizeof(*first)) : NULL, nfs = 0;

	for (size_t r = 0; r < n; r++) {
		size_t g;

		for (g = 0; g < nfs; g++)
			if (same_fs(&t[first[g]], &t[r]))
				break;
		if (g == nfs) {
			first[g] = r;
			fs[g].type = t[r].type && *t[r].type
					     ? xstrdup(t[r].type)
					     : xasprintf("0x%" PRIx64, t[r].magic);
			fs[g].mount_point = xstrdup(t[r].mount_point ? t[r].mount_point : "");
			fs[g].device = xasprintf("%u:%u", major((dev_t)t[r].dev),
						 minor((dev_t)t[r].dev));
			fs[g].host = xstrdup(t[r].host);
			fs[g].ranks = xcalloc(n, sizeof(int));
			nfs++;
		}
		fs[g].ranks[fs[g].nranks++] = (int)r;
		if (other_fs)
			other_fs[r] = g != 0;
	}
	free(first);
	*out = fs;
	return nfs;
}

void rank_fs_free(struct rank_fs *fs, size_t n)
{
	for (size_t i = 0; fs && i < n; i++) {
		free(fs[i].type);
		free(fs[i].mount_point);
		free(fs[i].device);
		free(fs[i].host);
		free(fs[i].ranks);
	}
	free(fs);
}

char *rank_fs_warning(const struct rank_fs *fs, size_t n)
{
	char *s, *t;

	if (n < 2)
		return NULL;
	s = xasprintf("the ranks' targets are on %zu file systems, and their figures are "
		      "reduced together:",
		      n);
	for (size_t i = 0; i < n; i++) {
		t = xasprintf("%s%s %s%s%s (device %s on %s; rank%s", s, i ? ";" : "", fs[i].type,
			      *fs[i].mount_point ? " at " : "", fs[i].mount_point, fs[i].device,
			      fs[i].host, fs[i].nranks == 1 ? "" : "s");
		free(s);
		s = t;
		for (size_t k = 0; k < fs[i].nranks; k++) {
			t = xasprintf("%s%s%d", s, k ? "," : " ", fs[i].ranks[k]);
			free(s);
			s = t;
		}
		t = xasprintf("%s)", s);
		free(s);
		s = t;
	}
	return s;
}
