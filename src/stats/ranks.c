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

/* Rank row rk's phase `name` (run < 0), or its runs[] entry of that run. */
static const struct rank_phase *pick(const struct result_rank *rk, const char *name, long run)
{
	const struct rank_phase *p = rank_find_phase(rk, name);

	if (!p || run < 0)
		return p;
	for (size_t i = 0; i < p->nruns; i++)
		if (p->runs[i].repeat == (unsigned)run)
			return &p->runs[i];
	return NULL;
}

static void summary(const struct result_ranks *r, const char *name, long run,
		    struct rank_summary *out)
{
	double sum = 0, first = 0, last = 0, secs = 0;

	memset(out, 0, sizeof(*out));
	out->slowest = -1;
	out->wall_rank = -1;
	for (size_t i = 0; r && i < r->n; i++) {
		const struct rank_phase *p = pick(&r->v[i], name, run);
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

void rank_summary(const struct result_ranks *r, const char *name, struct rank_summary *out)
{
	summary(r, name, -1, out);
}

void rank_summary_run(const struct result_ranks *r, const char *name, unsigned run,
		      struct rank_summary *out)
{
	summary(r, name, run, out);
}

static void rank_phase_free(struct rank_phase *p)
{
	for (size_t i = 0; i < p->nruns; i++)
		rank_phase_free(&p->runs[i]);
	free(p->runs);
	free(p->name);
	free(p->end_reason);
}

static void host_free(struct result_host *h)
{
	free(h->host);
	free(h->ranks);
	kv_free(&h->env);
	for (size_t p = 0; p < h->nphases; p++) {
		free(h->phases[p].name);
		free(h->phases[p].none);
	}
	free(h->phases);
}

void result_ranks_free(struct result_ranks *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		for (size_t p = 0; p < r->v[i].nphases; p++)
			rank_phase_free(&r->v[i].phases[p]);
		free(r->v[i].phases);
		free(r->v[i].host);
	}
	free(r->v);
	result_hosts_free(r->hosts, r->nhosts);
	rank_fs_free(r->fs, r->nfs);
	free(r);
}

void result_hosts_free(struct result_host *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		host_free(&h[i]);
	free(h);
}

const struct host_phase *result_host_phase(const struct result_host *h, const char *name)
{
	for (size_t i = 0; i < h->nphases; i++)
		if (!strcmp(h->phases[i].name, name))
			return &h->phases[i];
	return NULL;
}

struct result_host *result_hosts_dup(const struct result_host *h, size_t n)
{
	struct result_host *d;

	if (!n)
		return NULL;
	d = xcalloc(n, sizeof(*d));
	for (size_t i = 0; i < n; i++) {
		d[i].host = xstrdup(h[i].host);
		d[i].nranks = h[i].nranks;
		d[i].ranks = xcalloc(h[i].nranks + 1, sizeof(int));
		if (h[i].nranks)
			memcpy(d[i].ranks, h[i].ranks, h[i].nranks * sizeof(int));
		for (size_t k = 0; k < h[i].env.n; k++)
			kv_add(&d[i].env, h[i].env.v[k].key, "%s", h[i].env.v[k].value);
		d[i].nphases = h[i].nphases;
		d[i].phases = xcalloc(h[i].nphases + 1, sizeof(*d[i].phases));
		for (size_t p = 0; p < h[i].nphases; p++) {
			d[i].phases[p] = h[i].phases[p];
			d[i].phases[p].name = xstrdup(h[i].phases[p].name);
			d[i].phases[p].none =
			    h[i].phases[p].none ? xstrdup(h[i].phases[p].none) : NULL;
		}
	}
	return d;
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

/* Run `run`'s row of a phase: a copy of p's own figures. */
static struct rank_phase run_row(const struct rank_phase *p, unsigned run)
{
	struct rank_phase c = *p;

	c.name = xstrdup(p->name);
	c.end_reason = p->end_reason ? xstrdup(p->end_reason) : NULL;
	c.repeat = run;
	c.runs = NULL;
	c.nruns = 0;
	return c;
}

static void keep_run(struct rank_phase *p, const struct rank_phase *one, unsigned run)
{
	p->runs = xrealloc(p->runs, (p->nruns + 1) * sizeof(*p->runs));
	p->runs[p->nruns++] = run_row(one, run);
}

static int end_rank(const char *reason)
{
	static const char *const order[] = {"peer", "signal", "error"};

	for (size_t i = 0; reason && i < ARRAY_SIZE(order); i++)
		if (!strcmp(reason, order[i]))
			return (int)i + 1;
	return 0;
}

/* Run `run` of a phase (b) into the rank's merged row a. */
static void phase_fold(struct rank_phase *a, const struct rank_phase *b, unsigned run)
{
	keep_run(a, b, run);
	a->ops += b->ops;
	a->errors += b->errors;
	a->bytes += b->bytes;
	a->seconds += b->seconds;
	a->start = fmax(a->start, b->start);
	if (end_rank(b->end_reason) >= end_rank(a->end_reason) &&
	    (end_rank(b->end_reason) || !end_rank(a->end_reason))) {
		free(a->end_reason);
		a->end_reason = b->end_reason ? xstrdup(b->end_reason) : NULL;
	}
	if (a->wall == RANK_WALL_NONE && b->wall != RANK_WALL_NONE) {
		a->wall = b->wall;
		a->wall_at = b->wall_at;
	}
}

static struct rank_phase *row_phase(struct result_rank *rk, const char *name)
{
	for (size_t i = 0; i < rk->nphases; i++)
		if (!strcmp(rk->phases[i].name, name))
			return &rk->phases[i];
	rk->phases = xrealloc(rk->phases, (rk->nphases + 1) * sizeof(*rk->phases));
	rk->phases[rk->nphases] = (struct rank_phase){.name = xstrdup(name), .wall_at = NAN};
	return &rk->phases[rk->nphases++];
}

static void rank_fold(struct result_ranks *a, struct result_rank *b, unsigned run)
{
	struct result_rank *ra = NULL;

	for (size_t i = 0; i < a->n && !ra; i++)
		if (a->v[i].rank == b->rank)
			ra = &a->v[i];
	if (!ra) {
		a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
		ra = &a->v[a->n++];
		*ra = *b;
		ra->host = xstrdup(b->host);
		ra->phases = NULL;
		ra->nphases = 0;
	}
	for (size_t p = 0; p < b->nphases; p++)
		phase_fold(row_phase(ra, b->phases[p].name), &b->phases[p], run);
}

static void host_fold(struct result_ranks *a, struct result_host *b)
{
	struct result_host *ha = NULL;

	for (size_t i = 0; i < a->nhosts && !ha; i++)
		if (!strcmp(a->hosts[i].host, b->host))
			ha = &a->hosts[i];
	if (!ha) {
		a->hosts = xrealloc(a->hosts, (a->nhosts + 1) * sizeof(*a->hosts));
		a->hosts[a->nhosts++] = *b;
		memset(b, 0, sizeof(*b)); /* taken */
		return;
	}
	for (size_t p = 0; p < b->nphases; p++) {
		struct host_phase *x = &b->phases[p], *y = NULL;

		for (size_t i = 0; i < ha->nphases && !y; i++)
			if (!strcmp(ha->phases[i].name, x->name))
				y = &ha->phases[i];
		if (!y) {
			ha->phases = xrealloc(ha->phases, (ha->nphases + 1) * sizeof(*ha->phases));
			ha->phases[ha->nphases++] = *x;
			x->name = x->none = NULL; /* taken */
			continue;
		}
		y->seconds += x->seconds;
		if (x->ndev) {
			dev_io_add(&y->device, &x->device);
			y->ndev = y->ndev > x->ndev ? y->ndev : x->ndev;
		}
	}
}

void result_ranks_merge_repeat(struct result_ranks **acc, struct result_ranks **one)
{
	struct result_ranks *a = *acc, *b = *one;
	unsigned run;

	if (!b)
		return;
	*one = NULL;
	if (!a) {
		*acc = b;
		for (size_t i = 0; i < b->n; i++)
			for (size_t p = 0; p < b->v[i].nphases; p++)
				keep_run(&b->v[i].phases[p], &b->v[i].phases[p], 0);
		b->nruns = 1;
		return;
	}
	run = a->nruns++;
	for (size_t i = 0; i < b->n; i++)
		rank_fold(a, &b->v[i], run);
	for (size_t i = 0; i < b->nhosts; i++)
		host_fold(a, &b->hosts[i]);
	if (!a->nfs && b->nfs) {
		a->fs = b->fs;
		a->nfs = b->nfs;
		b->fs = NULL;
		b->nfs = 0;
	}
	result_ranks_free(b);
}
