/* reduce.c — packing a rank's result, folding the ranks into one; see reduce.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/reduce.h"
#include "stats/ranks.h"
#include "util/util.h"

#define PACK_MAGIC 0x66736731u /* "fsg1" */

static void put(struct rbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put_u64(struct rbuf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_f64(struct rbuf *b, double v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct rbuf *b, const char *s)
{
	uint64_t n = s ? strlen(s) : 0;

	put_u64(b, s ? n + 1 : 0);
	if (s)
		put(b, s, n);
}

/* The reading side: every get fails (and keeps failing) past the end. */
struct rd {
	const unsigned char *p;
	size_t left;
	int bad;
};

static int get(struct rd *r, void *out, size_t n)
{
	if (r->bad || n > r->left) {
		r->bad = 1;
		memset(out, 0, n);
		return -1;
	}
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return 0;
}

static uint64_t get_u64(struct rd *r)
{
	uint64_t v;

	get(r, &v, sizeof(v));
	return v;
}

static double get_f64(struct rd *r)
{
	double v;

	get(r, &v, sizeof(v));
	return v;
}

/* A string (NULL when packed as none); the caller frees it. */
static char *get_str(struct rd *r)
{
	uint64_t n = get_u64(r);
	char *s;

	if (!n || r->bad)
		return NULL;
	if (n - 1 > r->left) {
		r->bad = 1;
		return NULL;
	}
	s = xstrndup((const char *)r->p, n - 1);
	r->p += n - 1;
	r->left -= n - 1;
	return s;
}

/* A count of items at least `least` bytes each: bounded by what is left. */
static uint64_t get_count(struct rd *r, size_t least)
{
	uint64_t n = get_u64(r);

	if (n > r->left / least)
		r->bad = 1;
	return r->bad ? 0 : n;
}

static void pack_phase(struct rbuf *b, const struct result_phase *p, double start, double end,
                       int wall, double wall_at)
{
	put_str(b, p->name);
	put_f64(b, p->seconds);
	put_f64(b, p->warmup_seconds);
	put_f64(b, start);
	put_f64(b, end);
	put_u64(b, (uint64_t)wall);
	put_f64(b, wall_at);
	put_u64(b, p->cpu_user_ns);
	put_u64(b, p->cpu_sys_ns);
	put_u64(b, (uint64_t)p->nthreads);
	put_str(b, p->end_reason);
	put_u64(b, (uint64_t)p->open_flags);
	put(b, p->io_requests, sizeof(p->io_requests));
	put_u64(b, p->device.none ? 0 : p->device.ndev);
	put_str(b, p->device.none);
	put(b, &p->device.total, sizeof(p->device.total));
	put(b, &p->threads, sizeof(p->threads));
	put_u64(b, p->nops);
	for (size_t i = 0; i < p->nops; i++) {
		put_str(b, p->ops[i].name);
		put_str(b, p->ops[i].type);
		put_u64(b, (uint64_t)p->ops[i].cls);
		put_u64(b, (uint64_t)p->ops[i].sync);
		put(b, &p->ops[i].st, sizeof(p->ops[i].st));
		/* rate=, rate_iops=: the open-loop schedule, when there is one */
		put_u64(b, p->ops[i].sched != NULL);
		if (p->ops[i].sched)
			put(b, p->ops[i].sched, sizeof(*p->ops[i].sched));
		/* an asynchronous engine's submission and completion latencies */
		put_u64(b, p->ops[i].st.split != NULL);
		if (p->ops[i].st.split)
			put(b, p->ops[i].st.split, sizeof(*p->ops[i].st.split));
	}
	put_u64(b, p->nmetrics);
	for (size_t i = 0; i < p->nmetrics; i++) {
		put_str(b, p->metrics[i].name);
		put_str(b, p->metrics[i].unit);
		put_f64(b, p->metrics[i].value);
	}
	/* several targets: each one's bytes and device counters */
	put_u64(b, p->ntargets);
	for (size_t i = 0; i < p->ntargets; i++) {
		const struct result_target *t = &p->targets[i];

		put_u64(b, t->read_ops);
		put_u64(b, t->bytes_read);
		put_u64(b, t->bytes_written);
		put_u64(b, t->device.none ? 0 : t->device.ndev);
		put(b, &t->device.total, sizeof(t->device.total));
	}
	put_u64(b, p->nexecs);
	for (size_t i = 0; i < p->nexecs; i++) {
		const struct result_exec *x = &p->execs[i];

		put_str(b, x->op);
		put_u64(b, x->index);
		put_u64(b, (uint64_t)x->thread);
		put_f64(b, x->start);
		put_f64(b, x->seconds);
		put_u64(b, x->ops);
		put_u64(b, x->bytes);
		put_u64(b, x->errors);
		put_u64(b, (uint64_t)x->complete);
		put_u64(b, x->repeat);
	}
}

void reduce_pack(struct rbuf *b, const struct result *r, const struct rank_info *ri)
{
	const struct kvlist *env;

	put_u64(b, PACK_MAGIC);
	put_u64(b, (uint64_t)ri->rank);
	put_str(b, ri->host);
	put_f64(b, ri->clock_offset);
	put_u64(b, r->errors);
	put_u64(b, r->verify_errors);
	put_u64(b, (uint64_t)r->stopped_on_error);
	put_u64(b, (uint64_t)r->interrupted);
	put_str(b, r->first_error);
	put(b, r->io_requests, sizeof(r->io_requests));
	put_u64(b, r->nfilesets);
	for (size_t i = 0; i < r->nfilesets; i++) {
		put_u64(b, r->filesets[i].entries);
		put_u64(b, r->filesets[i].preallocated);
		put_u64(b, r->filesets[i].bytes);
		put_u64(b, r->filesets[i].dirs);
	}
	env = ri->env ? ri->env : &r->env;
	put_u64(b, env->n);
	for (size_t i = 0; i < env->n; i++) {
		put_str(b, env->v[i].key);
		put_str(b, env->v[i].value);
	}
	put_u64(b, r->nphases);
	for (size_t i = 0; i < r->nphases; i++) {
		int t = i < ri->ntimes;

		pack_phase(b, &r->phases[i], t ? ri->starts[i] : NAN, t ? ri->ends[i] : NAN,
		           t && ri->wall_how ? ri->wall_how[i] : RANK_WALL_NONE,
		           t && ri->wall_at ? ri->wall_at[i] : NAN);
	}
}

/* One rank unpacked: a result of its own, plus what a result lacks. */
struct unpacked {
	struct result *r;
	int rank;
	char *host;
	double clock_offset;
	double *start, *end; /* per phase */
	int *wall;	     /* per phase: enum rank_wall */
	double *wall_at;
	uint64_t *ndev;	    /* per phase: devices measured (0: none) */
	char **dev_none;    /* per phase: why none, or NULL */
	uint64_t fs[64][4];
	size_t nfs;
};

static void unpack_phase(struct rd *d, struct unpacked *u, size_t i)
{
	char *name = get_str(d), *reason;
	struct result_phase *p = result_add_phase(u->r, name ? name : "");
	uint64_t n;

	free(name);
	p->seconds = get_f64(d);
	p->warmup_seconds = get_f64(d);
	u->start[i] = get_f64(d);
	u->end[i] = get_f64(d);
	n = get_u64(d);
	u->wall[i] = n <= RANK_WALL_PEER ? (int)n : RANK_WALL_NONE;
	u->wall_at[i] = get_f64(d);
	p->cpu_user_ns = get_u64(d);
	p->cpu_sys_ns = get_u64(d);
	p->nthreads = (int)get_u64(d);
	reason = get_str(d);
	/* kept as a string of the rank row; the phase's is set by the merge */
	p->too_fast_reason = reason;
	p->open_flags = (int)get_u64(d);
	get(d, p->io_requests, sizeof(p->io_requests));
	u->ndev[i] = get_u64(d);
	u->dev_none[i] = get_str(d);
	get(d, &p->device.total, sizeof(p->device.total));
	get(d, &p->threads, sizeof(p->threads));
	n = get_count(d, sizeof(struct op_stats));
	for (uint64_t k = 0; k < n; k++) {
		char *on = get_str(d), *ot = get_str(d);
		struct result_op *o =
		    result_phase_add_op(p, on ? on : "", ot ? ot : "", (enum op_class)get_u64(d));

		o->sync = (int)get_u64(d);
		get(d, &o->st, sizeof(o->st));
		o->st.split = NULL; /* (the sender's pointer) */
		if (get_u64(d)) {
			o->sched = xmalloc(sizeof(*o->sched));
			op_schedule_init(o->sched);
			get(d, o->sched, sizeof(*o->sched));
		}
		if (get_u64(d))
			get(d, op_stats_split(&o->st), sizeof(*o->st.split));
		free(on);
		free(ot);
	}
	n = get_count(d, 3 * sizeof(uint64_t));
	for (uint64_t k = 0; k < n; k++) {
		char *mn = get_str(d), *mu = get_str(d);

		result_phase_add_metric(p, mn ? mn : "", mu ? mu : "", get_f64(d));
		free(mn);
		free(mu);
	}
	n = get_count(d, 4 * sizeof(uint64_t) + sizeof(struct dev_io));
	p->targets = n ? xcalloc(n, sizeof(*p->targets)) : NULL;
	for (uint64_t k = 0; k < n; k++) {
		struct result_target *t = &p->targets[p->ntargets++];

		t->read_ops = get_u64(d);
		t->bytes_read = get_u64(d);
		t->bytes_written = get_u64(d);
		/* measured or not: the counts alone (none set when not) */
		if (!get_u64(d))
			t->device.none = xstrdup("none");
		get(d, &t->device.total, sizeof(t->device.total));
	}
	n = get_count(d, 10 * sizeof(uint64_t));
	p->execs = n ? xcalloc(n, sizeof(*p->execs)) : NULL;
	for (uint64_t k = 0; k < n; k++) {
		struct result_exec *x = &p->execs[p->nexecs++];
		char *op = get_str(d);

		x->op = op ? op : xstrdup("");
		x->index = get_u64(d);
		x->thread = (int)get_u64(d);
		x->start = get_f64(d);
		x->seconds = get_f64(d);
		x->ops = get_u64(d);
		x->bytes = get_u64(d);
		x->errors = get_u64(d);
		x->complete = (int)get_u64(d);
		x->repeat = (unsigned)get_u64(d);
	}
}

static void unpacked_free(struct unpacked *u)
{
	for (size_t i = 0; u->dev_none && u->r && i < u->r->nphases; i++)
		free(u->dev_none[i]);
	result_free(u->r);
	free(u->host);
	free(u->start);
	free(u->end);
	free(u->wall);
	free(u->wall_at);
	free(u->ndev);
	free(u->dev_none);
}

static int unpack(const unsigned char *buf, size_t len, struct unpacked *u)
{
	struct rd d = {buf, len, 0};
	uint64_t n;

	memset(u, 0, sizeof(*u));
	u->r = result_new("", "");
	if (get_u64(&d) != PACK_MAGIC)
		return -EINVAL;
	u->rank = (int)get_u64(&d);
	u->host = get_str(&d);
	u->clock_offset = get_f64(&d);
	u->r->errors = get_u64(&d);
	u->r->verify_errors = get_u64(&d);
	u->r->stopped_on_error = (int)get_u64(&d);
	u->r->interrupted = (int)get_u64(&d);
	u->r->first_error = get_str(&d);
	get(&d, u->r->io_requests, sizeof(u->r->io_requests));
	n = get_count(&d, 4 * sizeof(uint64_t));
	u->nfs = MIN(n, ARRAY_SIZE(u->fs));
	for (uint64_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++) {
			uint64_t v = get_u64(&d);

			if (i < ARRAY_SIZE(u->fs))
				u->fs[i][k] = v;
		}
	n = get_count(&d, 2 * sizeof(uint64_t));
	for (uint64_t i = 0; i < n; i++) {
		char *k = get_str(&d), *v = get_str(&d);

		kv_add(&u->r->env, k ? k : "", "%s", v ? v : "");
		free(k);
		free(v);
	}
	n = get_count(&d, 16 * sizeof(uint64_t));
	u->start = xcalloc(n + 1, sizeof(double));
	u->end = xcalloc(n + 1, sizeof(double));
	u->wall = xcalloc(n + 1, sizeof(int));
	u->wall_at = xcalloc(n + 1, sizeof(double));
	u->ndev = xcalloc(n + 1, sizeof(*u->ndev));
	u->dev_none = xcalloc(n + 1, sizeof(*u->dev_none));
	for (uint64_t i = 0; i < n && !d.bad; i++)
		unpack_phase(&d, u, i);
	if (!u->host)
		u->host = xstrdup("?");
	return d.bad || d.left ? -EINVAL : 0;
}

enum reduce_rule reduce_metric_rule(const char *name, const char *unit)
{
	size_t ul = unit ? strlen(unit) : 0;

	if (!strncmp(name, "min_", 4))
		return REDUCE_MIN;
	if (!strncmp(name, "max_", 4) || strstr(name, "_max_"))
		return REDUCE_MAX;
	if (!strncmp(name, "avg_", 4))
		return REDUCE_MEAN;
	if ((ul >= 2 && !strcmp(unit + ul - 2, "/s")) ||
	    (ul >= 4 && !strcmp(unit + ul - 4, "/sec")) || (unit && !strcmp(unit, "KB")))
		return REDUCE_SUM;
	return REDUCE_MEAN;
}

static const char *const end_order[] = {"error", "signal", "peer"};

/* The phase's end reason over the ranks: an error before a signal
 * before a peer's stop, else rank 0's. */
static void merge_end_reason(struct result_phase *a, const char *other)
{
	for (size_t i = 0; i < ARRAY_SIZE(end_order); i++) {
		if (a->end_reason && !strcmp(a->end_reason, end_order[i]))
			return;
		if (other && !strcmp(other, end_order[i])) {
			a->end_reason = end_order[i];
			return;
		}
	}
}

static void merge_metrics(struct result_phase *a, struct unpacked *u, size_t n, size_t pi)
{
	for (size_t m = 0; m < a->nmetrics; m++) {
		struct result_metric *am = &a->metrics[m];
		enum reduce_rule rule = reduce_metric_rule(am->name, am->unit);
		double v = am->value;
		size_t count = 1;

		for (size_t r = 1; r < n; r++) {
			const struct result_metric *om;

			if (pi >= u[r].r->nphases)
				continue;
			om = result_phase_find_metric(&u[r].r->phases[pi], am->name);
			if (!om)
				continue;
			count++;
			if (rule == REDUCE_MIN)
				v = MIN(v, om->value);
			else if (rule == REDUCE_MAX)
				v = MAX(v, om->value);
			else
				v += om->value;
		}
		am->value = rule == REDUCE_MEAN ? v / (double)count : v;
	}
}

static void merge_execs(struct result_phase *a, struct result_phase *b, int rank)
{
	if (!b->nexecs)
		return;
	a->execs = xrealloc(a->execs, (a->nexecs + b->nexecs) * sizeof(*a->execs));
	memcpy(a->execs + a->nexecs, b->execs, b->nexecs * sizeof(*b->execs));
	for (size_t i = 0; i < b->nexecs; i++)
		a->execs[a->nexecs + i].rank = rank;
	a->nexecs += b->nexecs;
	b->nexecs = 0; /* their names belong to a now */
}

/* Phase pi of rank u (not rank 0) into a. */
static void merge_phase(struct result_phase *a, struct unpacked *u, size_t pi, int new_host)
{
	struct result_phase *b = &u->r->phases[pi];

	for (size_t k = 0; k < a->nops && k < b->nops; k++)
		if (!strcmp(a->ops[k].name, b->ops[k].name)) {
			op_stats_merge(&a->ops[k].st, &b->ops[k].st);
			op_schedule_merge(&a->ops[k].sched, b->ops[k].sched);
			a->ops[k].sync |= b->ops[k].sync;
		}
	result_threads_merge(&a->threads, &b->threads);
	a->nthreads += b->nthreads;
	a->cpu_user_ns += b->cpu_user_ns;
	a->cpu_sys_ns += b->cpu_sys_ns;
	a->open_flags |= b->open_flags;
	for (size_t i = 0; i < RESULT_IO_OPS; i++)
		a->io_requests[i] += b->io_requests[i];
	if (new_host && u->ndev[pi] && !a->device.none)
		dev_io_add(&a->device.total, &b->device.total);
	/* several targets: the ranks' bytes add up; a target's devices as
	 * the phase's (a host's counters once, beside rank 0's names) */
	for (size_t k = 0; k < a->ntargets && k < b->ntargets; k++) {
		struct result_target *x = &a->targets[k];
		const struct result_target *y = &b->targets[k];

		x->read_ops += y->read_ops;
		x->bytes_read += y->bytes_read;
		x->bytes_written += y->bytes_written;
		if (new_host && !y->device.none && !x->device.none)
			dev_io_add(&x->device.total, &y->device.total);
	}
	merge_end_reason(a, b->too_fast_reason);
	merge_execs(a, b, u->rank);
}

/* A host's device counters per phase: its first rank's. */
static void host_phases(struct result_host *h, const struct unpacked *u)
{
	h->phases = xcalloc(u->r->nphases + 1, sizeof(*h->phases));
	for (size_t i = 0; i < u->r->nphases; i++) {
		const struct result_phase *p = &u->r->phases[i];
		struct host_phase *hp = &h->phases[h->nphases++];

		hp->name = xstrdup(p->name);
		hp->seconds = p->seconds;
		hp->ndev = (size_t)u->ndev[i];
		hp->none = u->dev_none[i] ? xstrdup(u->dev_none[i]) : NULL;
		if (hp->ndev)
			hp->device = p->device.total;
	}
}

/* The ranks' rows, and one per distinct host. */
static struct result_ranks *rows(struct unpacked *u, size_t n, const int *other_fs)
{
	struct result_ranks *rr = xcalloc(1, sizeof(*rr));

	rr->v = xcalloc(n, sizeof(*rr->v));
	rr->hosts = xcalloc(n, sizeof(*rr->hosts));
	for (size_t r = 0; r < n; r++) {
		struct result_rank *row = &rr->v[rr->n++];
		size_t h;

		row->rank = u[r].rank;
		row->host = xstrdup(u[r].host);
		row->clock_offset = u[r].clock_offset;
		row->other_fs = other_fs ? other_fs[r] : 0;
		row->phases = xcalloc(u[r].r->nphases + 1, sizeof(*row->phases));
		for (size_t i = 0; i < u[r].r->nphases; i++) {
			const struct result_phase *p = &u[r].r->phases[i];
			struct rank_phase *rp = &row->phases[row->nphases++];
			struct phase_totals t;

			result_phase_totals(p, &t);
			rp->name = xstrdup(p->name);
			rp->ops = t.ops;
			rp->errors = t.errors;
			rp->bytes = t.bytes_read + t.bytes_written;
			rp->seconds = p->seconds;
			rp->start = 0;
			rp->wall = (enum rank_wall)u[r].wall[i];
			rp->wall_at = NAN;
			rp->end_reason = xstrdup(p->too_fast_reason ? p->too_fast_reason : "");
		}
		for (h = 0; h < rr->nhosts; h++)
			if (!strcmp(rr->hosts[h].host, u[r].host))
				break;
		if (h == rr->nhosts) {
			rr->hosts[h].host = xstrdup(u[r].host);
			rr->hosts[h].ranks = xcalloc(n, sizeof(int));
			for (size_t k = 0; k < u[r].r->env.n; k++)
				kv_add(&rr->hosts[h].env, u[r].r->env.v[k].key, "%s",
				       u[r].r->env.v[k].value);
			host_phases(&rr->hosts[h], &u[r]);
			rr->nhosts++;
		}
		rr->hosts[h].ranks[rr->hosts[h].nranks++] = u[r].rank;
	}
	return rr;
}

/* Each phase's start offsets in the rows, and its time: the earliest
 * start to the latest end, on rank 0's clock. */
static void phase_times(struct result *acc, struct unpacked *u, size_t n)
{
	for (size_t pi = 0; pi < acc->nphases; pi++) {
		struct result_phase *a = &acc->phases[pi];
		double first = INFINITY, last = -INFINITY;

		for (size_t r = 0; r < n; r++) {
			if (pi >= u[r].r->nphases || !isfinite(u[r].start[pi]))
				continue;
			first = MIN(first, u[r].start[pi]);
			last = MAX(last, u[r].end[pi]);
		}
		if (!isfinite(first) || !isfinite(last) || last < first)
			continue;
		for (size_t r = 0; r < n; r++) {
			struct rank_phase *rp;

			if (pi >= u[r].r->nphases || !isfinite(u[r].start[pi]))
				continue;
			rp = &acc->ranks->v[r].phases[pi];
			rp->start = u[r].start[pi] - first;
			if (rp->wall != RANK_WALL_NONE && isfinite(u[r].wall_at[pi]))
				rp->wall_at = u[r].wall_at[pi] - first;
		}
		a->seconds = MAX(last - first - a->warmup_seconds, a->seconds);
	}
}

static void merge_status(struct result *acc, struct unpacked *u)
{
	acc->errors += u->r->errors;
	acc->verify_errors += u->r->verify_errors;
	acc->stopped_on_error |= u->r->stopped_on_error;
	acc->interrupted |= u->r->interrupted;
	if (!acc->first_error && u->r->first_error)
		acc->first_error = xasprintf("rank %d: %s", u->rank, u->r->first_error);
	for (size_t i = 0; i < RESULT_IO_OPS; i++)
		acc->io_requests[i] += u->r->io_requests[i];
	for (size_t i = 0; i < acc->nfilesets && i < u->nfs; i++) {
		acc->filesets[i].entries += u->fs[i][0];
		acc->filesets[i].preallocated += u->fs[i][1];
		acc->filesets[i].bytes += u->fs[i][2];
		acc->filesets[i].dirs += u->fs[i][3];
	}
}

int reduce_merge(struct result *acc, const unsigned char *const *bufs, const size_t *lens, size_t n,
                 const int *other_fs)
{
	struct unpacked *u = xcalloc(n ? n : 1, sizeof(*u));
	int ret = 0;

	for (size_t r = 0; r < n && ret == 0; r++)
		if (unpack(bufs[r], lens[r], &u[r]) < 0)
			ret = -EINVAL;
	if (ret == 0 && n) {
		/* rank 0's own first error is named too, once others are merged */
		if (acc->first_error && n > 1) {
			char *e = xasprintf("rank %d: %s", u[0].rank, acc->first_error);

			free(acc->first_error);
			acc->first_error = e;
		}
		for (size_t pi = 0; pi < acc->nphases; pi++)
			merge_metrics(&acc->phases[pi], u, n, pi);
		for (size_t r = 1; r < n; r++) {
			int new_host = 1;

			for (size_t q = 0; q < r; q++)
				new_host &= strcmp(u[q].host, u[r].host) != 0;
			for (size_t pi = 0; pi < acc->nphases && pi < u[r].r->nphases; pi++)
				if (!strcmp(acc->phases[pi].name, u[r].r->phases[pi].name))
					merge_phase(&acc->phases[pi], &u[r], pi, new_host);
			merge_status(acc, &u[r]);
		}
		result_ranks_free(acc->ranks);
		acc->ranks = rows(u, n, other_fs);
		phase_times(acc, u, n);
	}
	for (size_t r = 0; r < n; r++)
		unpacked_free(&u[r]);
	free(u);
	return ret;
}
