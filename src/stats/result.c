/* result.c — the shared result model; see result.h. */
#include "stats/ranks.h"
#include "stats/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "stats/summary.h"
#include "stats/zfsstat.h"
#include "util/util.h"

void op_stats_init(struct op_stats *s)
{
	memset(s, 0, offsetof(struct op_stats, lat));
	hist_init(&s->lat);
}

void op_stats_release(struct op_stats *s)
{
	free(s->split);
	s->split = NULL;
}

struct op_split *op_stats_split(struct op_stats *s)
{
	if (!s->split) {
		s->split = xmalloc(sizeof(*s->split));
		hist_init(&s->split->slat);
		hist_init(&s->split->clat);
	}
	return s->split;
}

void op_stats_clear(struct op_stats *s)
{
	struct op_split *sp = s->split;

	op_stats_init(s);
	if (sp) {
		hist_init(&sp->slat);
		hist_init(&sp->clat);
		s->split = sp;
	}
}

void op_stats_merge(struct op_stats *dst, const struct op_stats *src)
{
	dst->ops += src->ops;
	dst->errors += src->errors;
	dst->stalls += src->stalls;
	dst->bytes_read += src->bytes_read;
	dst->bytes_written += src->bytes_written;
	dst->bytes_trimmed += src->bytes_trimmed;
	dst->cpu_ns += src->cpu_ns;
	dst->cpu_lat_ns += src->cpu_lat_ns;
	dst->cpu_samples += src->cpu_samples;
	for (int i = 0; i < OP_QDEPTH_BUCKETS; i++)
		dst->qdepth[i] += src->qdepth[i];
	dst->qdepth_max = MAX(dst->qdepth_max, src->qdepth_max);
	dst->submit_calls += src->submit_calls;
	dst->reap_calls += src->reap_calls;
	hist_merge(&dst->lat, &src->lat);
	if (src->split) {
		struct op_split *sp = op_stats_split(dst);

		hist_merge(&sp->slat, &src->split->slat);
		hist_merge(&sp->clat, &src->split->clat);
	}
}

void op_stats_merge_live(struct op_stats *dst, const struct op_stats *live)
{
	uint64_t s1, s2, ops, rd, wr, tr, cpu, cpu_lat, samples;

	/* one consistent set of the counters an operation updates together
	 * (STAT_BEGIN/STAT_COMMIT in result.h); an update takes nanoseconds,
	 * so this settles at once */
	do {
		s1 = __atomic_load_n(&live->seq, __ATOMIC_ACQUIRE);
		ops = __atomic_load_n(&live->ops, __ATOMIC_ACQUIRE);
		rd = __atomic_load_n(&live->bytes_read, __ATOMIC_ACQUIRE);
		wr = __atomic_load_n(&live->bytes_written, __ATOMIC_ACQUIRE);
		tr = __atomic_load_n(&live->bytes_trimmed, __ATOMIC_ACQUIRE);
		cpu = __atomic_load_n(&live->cpu_ns, __ATOMIC_ACQUIRE);
		cpu_lat = __atomic_load_n(&live->cpu_lat_ns, __ATOMIC_ACQUIRE);
		samples = __atomic_load_n(&live->cpu_samples, __ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&live->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
	dst->ops += ops;
	dst->bytes_read += rd;
	dst->bytes_written += wr;
	dst->bytes_trimmed += tr;
	dst->cpu_ns += cpu;
	dst->cpu_lat_ns += cpu_lat;
	dst->cpu_samples += samples;
	dst->errors += __atomic_load_n(&live->errors, __ATOMIC_RELAXED);
	dst->stalls += __atomic_load_n(&live->stalls, __ATOMIC_RELAXED);
	for (int i = 0; i < OP_QDEPTH_BUCKETS; i++)
		dst->qdepth[i] += __atomic_load_n(&live->qdepth[i], __ATOMIC_RELAXED);
	dst->qdepth_max = MAX(dst->qdepth_max, __atomic_load_n(&live->qdepth_max, __ATOMIC_RELAXED));
	dst->submit_calls += __atomic_load_n(&live->submit_calls, __ATOMIC_RELAXED);
	dst->reap_calls += __atomic_load_n(&live->reap_calls, __ATOMIC_RELAXED);
	/* (the owner sets its split before it starts and never changes it;
	 * its histograms read with lat's, for counts that agree) */
	if (live->split) {
		struct op_split *sp = op_stats_split(dst);
		struct hist *d[3] = { &dst->lat, &sp->slat, &sp->clat };
		const struct hist *l[3] = { &live->lat, &live->split->slat, &live->split->clat };

		hist_merge_live_n(d, l, 3);
	} else {
		hist_merge_live(&dst->lat, &live->lat);
	}
}

void op_schedule_init(struct op_schedule *s)
{
	memset(s, 0, offsetof(struct op_schedule, lat));
	hist_init(&s->lat);
}

void op_schedule_merge(struct op_schedule **dst, const struct op_schedule *src)
{
	if (!src)
		return;
	if (!*dst) {
		*dst = xmalloc(sizeof(**dst));
		op_schedule_init(*dst);
	}
	(*dst)->ops += src->ops;
	(*dst)->late += src->late;
	(*dst)->threads += src->threads;
	(*dst)->below_min += src->below_min;
	hist_merge(&(*dst)->lat, &src->lat);
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void op_stats_sub(struct op_stats *dst, const struct op_stats *later,
		  const struct op_stats *earlier)
{
	dst->ops = sub0(later->ops, earlier->ops);
	dst->errors = sub0(later->errors, earlier->errors);
	dst->stalls = sub0(later->stalls, earlier->stalls);
	dst->bytes_read = sub0(later->bytes_read, earlier->bytes_read);
	dst->bytes_written = sub0(later->bytes_written, earlier->bytes_written);
	dst->bytes_trimmed = sub0(later->bytes_trimmed, earlier->bytes_trimmed);
	dst->cpu_ns = sub0(later->cpu_ns, earlier->cpu_ns);
	dst->cpu_lat_ns = sub0(later->cpu_lat_ns, earlier->cpu_lat_ns);
	dst->cpu_samples = sub0(later->cpu_samples, earlier->cpu_samples);
	for (int i = 0; i < OP_QDEPTH_BUCKETS; i++)
		dst->qdepth[i] = sub0(later->qdepth[i], earlier->qdepth[i]);
	dst->submit_calls = sub0(later->submit_calls, earlier->submit_calls);
	dst->reap_calls = sub0(later->reap_calls, earlier->reap_calls);
	/* a maximum does not subtract: the later one (the whole span) */
	dst->qdepth_max = later->qdepth_max;
	hist_sub(&dst->lat, &later->lat, &earlier->lat);
	if (!later->split) {
		op_stats_release(dst);
	} else if (!earlier->split) {
		memcpy(op_stats_split(dst), later->split, sizeof(*later->split));
	} else {
		struct op_split *sp = op_stats_split(dst);

		hist_sub(&sp->slat, &later->split->slat, &earlier->split->slat);
		hist_sub(&sp->clat, &later->split->clat, &earlier->split->clat);
	}
}

void dev_io_add(struct dev_io *dst, const struct dev_io *src)
{
	dst->reads += src->reads;
	dst->writes += src->writes;
	dst->read_merges += src->read_merges;
	dst->write_merges += src->write_merges;
	dst->bytes_read += src->bytes_read;
	dst->bytes_written += src->bytes_written;
	dst->read_ms += src->read_ms;
	dst->write_ms += src->write_ms;
	dst->busy_ms += src->busy_ms;
	dst->weighted_ms += src->weighted_ms;
	dst->flushes += src->flushes;
	dst->flush_ms += src->flush_ms;
	dst->no_flush |= src->no_flush;
}

void dev_io_sub(struct dev_io *dst, const struct dev_io *later, const struct dev_io *earlier)
{
	dst->reads = sub0(later->reads, earlier->reads);
	dst->writes = sub0(later->writes, earlier->writes);
	dst->read_merges = sub0(later->read_merges, earlier->read_merges);
	dst->write_merges = sub0(later->write_merges, earlier->write_merges);
	dst->bytes_read = sub0(later->bytes_read, earlier->bytes_read);
	dst->bytes_written = sub0(later->bytes_written, earlier->bytes_written);
	dst->read_ms = sub0(later->read_ms, earlier->read_ms);
	dst->write_ms = sub0(later->write_ms, earlier->write_ms);
	dst->busy_ms = sub0(later->busy_ms, earlier->busy_ms);
	dst->weighted_ms = sub0(later->weighted_ms, earlier->weighted_ms);
	dst->flushes = sub0(later->flushes, earlier->flushes);
	dst->flush_ms = sub0(later->flush_ms, earlier->flush_ms);
	dst->no_flush = later->no_flush || earlier->no_flush;
}

double dev_io_utilization(const struct dev_io *d, double secs, size_t ndev)
{
	double u;

	if (!(secs > 0))
		return NAN;
	u = (double)d->busy_ms / (secs * 1000.0 * (double)(ndev ? ndev : 1)) * 100.0;
	/* The kernel advances io_ticks a jiffy at a time, so a short
	 * interval can read, say, 4 ms busy in 3.8 ms: a device cannot be
	 * busy more than all of the time. */
	return MIN(u, 100.0);
}

void dev_io_figures(const struct dev_io *d, double secs, size_t ndev, struct dev_figures *out)
{
	uint64_t flushes = d->no_flush ? 0 : d->flushes, flush_ms = d->no_flush ? 0 : d->flush_ms;
	double reqs = (double)(d->reads + d->writes + flushes);
	double t = secs > 0 ? secs : NAN;

	out->utilization = dev_io_utilization(d, secs, ndev);
	out->queue = (double)d->weighted_ms / (t * 1000.0);
	out->requests_per_second = reqs / t;
	out->mib_per_second = (double)(d->bytes_read + d->bytes_written) / (1024.0 * 1024.0) / t;
	out->service_ms = reqs > 0 ? (double)d->busy_ms / reqs : NAN;
	out->await_ms = reqs > 0 ? (double)(d->read_ms + d->write_ms + flush_ms) / reqs : NAN;
}

double op_stats_cpu_per_op(const struct op_stats *s)
{
	if (!s->cpu_samples)
		return NAN;
	if (!s->cpu_lat_ns || !s->lat.count)
		return 0; /* samples of no measurable time used none */
	return (double)s->cpu_ns / (double)s->cpu_lat_ns * hist_mean(&s->lat);
}

void kv_add(struct kvlist *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = xstrdup("");
	va_end(ap);
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].key, key)) {
			free(l->v[i].value);
			l->v[i].value = v;
			return;
		}
	}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = v;
	l->n++;
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].value;
	return NULL;
}

void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* result_set_command_line(): what main() was given */
static struct {
	char **argv;
	size_t argc;
} invocation;

void result_set_command_line(int argc, char *const *argv)
{
	for (size_t i = 0; i < invocation.argc; i++)
		free(invocation.argv[i]);
	free(invocation.argv);
	invocation.argc = argc > 0 ? (size_t)argc : 0;
	invocation.argv = xcalloc(invocation.argc + 1, sizeof(*invocation.argv));
	for (size_t i = 0; i < invocation.argc; i++)
		invocation.argv[i] = xstrdup(argv[i]);
}

char *result_hash(const void *data, size_t len)
{
	XXH128_canonical_t c;
	char *hex = xmalloc(2 * sizeof(c.digest) + 1);

	XXH128_canonicalFromHash(&c, XXH3_128bits(data, len));
	for (size_t i = 0; i < sizeof(c.digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", c.digest[i]);
	return hex;
}

struct result *result_new(const char *suite, const char *workload)
{
	struct result *r = xcalloc(1, sizeof(*r));
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	r->suite = xstrdup(suite);
	r->workload = xstrdup(workload);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->started_at = xstrdup(buf);
	if (invocation.argv) {
		r->ncommand_line = invocation.argc;
		r->command_line = xcalloc(invocation.argc + 1, sizeof(*r->command_line));
		for (size_t i = 0; i < invocation.argc; i++)
			r->command_line[i] = xstrdup(invocation.argv[i]);
	}
	return r;
}

struct result_phase *result_add_phase(struct result *r, const char *name)
{
	struct result_phase *p;

	r->phases = xrealloc(r->phases, (r->nphases + 1) * sizeof(*r->phases));
	p = &r->phases[r->nphases++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	return p;
}

struct result_op *result_phase_add_op(struct result_phase *p, const char *name, const char *type,
				      enum op_class cls)
{
	struct result_op *o;

	p->ops = xrealloc(p->ops, (p->nops + 1) * sizeof(*p->ops));
	o = &p->ops[p->nops++];
	memset(o, 0, offsetof(struct result_op, st));
	o->name = xstrdup(name);
	o->type = xstrdup(type);
	o->cls = cls;
	op_stats_init(&o->st);
	o->extra_mean = o->extra_sd = 0;
	return o;
}

struct result_fileset *result_add_fileset(struct result *r, const char *name)
{
	struct result_fileset *f;

	r->filesets = xrealloc(r->filesets, (r->nfilesets + 1) * sizeof(*r->filesets));
	f = &r->filesets[r->nfilesets++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	return f;
}

struct result_interval *result_phase_add_interval(struct result_phase *p, size_t nops)
{
	struct result_interval *iv;

	p->intervals = xrealloc(p->intervals, (p->nintervals + 1) * sizeof(*p->intervals));
	iv = &p->intervals[p->nintervals++];
	memset(iv, 0, sizeof(*iv));
	iv->nops = nops;
	iv->op_ops = xcalloc(nops ? nops : 1, sizeof(*iv->op_ops));
	iv->op_bytes = xcalloc(nops ? nops : 1, sizeof(*iv->op_bytes));
	iv->op_p99_ns = xcalloc(nops ? nops : 1, sizeof(*iv->op_p99_ns));
	return iv;
}

static void device_free(struct result_device *d)
{
	for (size_t i = 0; i < d->ndev; i++)
		free(d->names[i]);
	free(d->names);
	free(d->per);
	free(d->info);
	free(d->none);
	memset(d, 0, sizeof(*d));
}

static void cache_free(struct result_cache *c)
{
	free(c->reason);
	free(c->rate_reason);
	free(c->write_reason);
	memset(c, 0, sizeof(*c));
}

static void phase_free(struct result_phase *p)
{
	for (size_t j = 0; j < p->nops; j++) {
		free(p->ops[j].name);
		free(p->ops[j].type);
		free(p->ops[j].sched);
		op_stats_release(&p->ops[j].st);
	}
	free(p->ops);
	free(p->name);
	free(p->too_fast_reason);
	device_free(&p->device);
	cache_free(&p->cache);
	for (size_t j = 0; j < p->ntargets; j++) {
		free(p->targets[j].path);
		free(p->targets[j].fstype);
		device_free(&p->targets[j].device);
		cache_free(&p->targets[j].cache);
	}
	free(p->targets);
	free(p->stored.reason);
	for (size_t j = 0; j < p->nintervals; j++) {
		free(p->intervals[j].op_ops);
		free(p->intervals[j].op_bytes);
		free(p->intervals[j].op_p99_ns);
	}
	free(p->intervals);
	for (size_t j = 0; j < p->nrepeats; j++) {
		for (size_t k = 0; k < p->repeats[j].nper_op; k++)
			free(p->repeats[j].per_op[k].name);
		free(p->repeats[j].per_op);
	}
	free(p->repeats);
	for (size_t j = 0; j < p->nexecs; j++)
		free(p->execs[j].op);
	free(p->execs);
	for (size_t j = 0; j < p->nprocs; j++)
		free(p->procs[j].name);
	free(p->procs);
	for (size_t j = 0; j < p->nmetrics; j++) {
		free(p->metrics[j].name);
		free(p->metrics[j].unit);
		free(p->metrics[j].runs);
	}
	free(p->metrics);
}

void result_phase_add_metric(struct result_phase *p, const char *name, const char *unit,
			     double value)
{
	struct result_metric *m;

	for (size_t i = 0; i < p->nmetrics; i++) {
		if (!strcmp(p->metrics[i].name, name)) {
			free(p->metrics[i].unit);
			p->metrics[i].unit = xstrdup(unit);
			p->metrics[i].value = value;
			return;
		}
	}
	p->metrics = xrealloc(p->metrics, (p->nmetrics + 1) * sizeof(*p->metrics));
	m = &p->metrics[p->nmetrics++];
	m->name = xstrdup(name);
	m->unit = xstrdup(unit);
	m->value = value;
	m->runs = NULL;
	m->nruns = 0;
}

const struct result_metric *result_phase_find_metric(const struct result_phase *p,
						     const char *name)
{
	for (size_t i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return &p->metrics[i];
	return NULL;
}

double result_phase_metric(const struct result_phase *p, const char *name, double dflt)
{
	for (size_t i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return p->metrics[i].value;
	return dflt;
}

static void metric_defs_free(struct result *r)
{
	for (size_t i = 0; i < r->nmetric_defs; i++) {
		free((char *)r->metric_defs[i].name);
		free((char *)r->metric_defs[i].unit);
		free((char *)r->metric_defs[i].label);
	}
	free(r->metric_defs);
	r->metric_defs = NULL;
	r->nmetric_defs = 0;
}

void result_set_metric_defs(struct result *r, const struct metric_def *defs)
{
	size_t n = 0;

	metric_defs_free(r);
	while (defs && defs[n].name)
		n++;
	if (!n)
		return;
	r->metric_defs = xcalloc(n, sizeof(*r->metric_defs));
	for (size_t i = 0; i < n; i++) {
		struct metric_def *d = &r->metric_defs[i];

		d->name = xstrdup(defs[i].name);
		d->unit = xstrdup(defs[i].unit ? defs[i].unit : "");
		d->label = xstrdup(defs[i].label ? defs[i].label : defs[i].name);
		d->better = defs[i].better;
	}
	r->nmetric_defs = n;
}

void result_add_metric_def(struct result *r, const struct metric_def *d)
{
	struct metric_def *x;

	r->metric_defs = xrealloc(r->metric_defs, (r->nmetric_defs + 1) * sizeof(*r->metric_defs));
	x = &r->metric_defs[r->nmetric_defs++];
	x->name = xstrdup(d->name);
	x->unit = xstrdup(d->unit ? d->unit : "");
	x->label = xstrdup(d->label ? d->label : d->name);
	x->better = d->better;
}

const struct metric_def *result_metric_def(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetric_defs; i++)
		if (!strcmp(r->metric_defs[i].name, name))
			return &r->metric_defs[i];
	return NULL;
}

void result_free(struct result *r)
{
	if (!r)
		return;
	metric_defs_free(r);
	for (size_t i = 0; i < r->nphases; i++)
		phase_free(&r->phases[i]);
	for (size_t i = 0; i < r->nfilesets; i++) {
		free(r->filesets[i].name);
		free(r->filesets[i].target);
	}
	free(r->filesets);
	free(r->phases);
	kv_free(&r->params);
	kv_free(&r->env);
	free(r->suite);
	free(r->workload);
	free(r->label);
	free(r->engine);
	free(r->first_error);
	free(r->started_at);
	for (size_t i = 0; i < r->ncommand_line; i++)
		free(r->command_line[i]);
	free(r->command_line);
	free(r->workload_hash);
	result_ranks_free(r->ranks);
	free(r->workload_text);
	free(r);
}

void result_phase_totals(const struct result_phase *p, struct phase_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];

		t->ops += o->st.ops;
		t->errors += o->st.errors;
		t->bytes_read += o->st.bytes_read;
		t->bytes_written += o->st.bytes_written;
		t->lat_sum_ns += o->st.lat.sum;
		if (o->cls == OPC_READ)
			t->read_ops += o->st.ops;
		else if (o->cls == OPC_WRITE)
			t->write_ops += o->st.ops;
	}
}

void result_phase_headline(const struct result_phase *p, struct result_headline *h)
{
	struct phase_totals t;
	struct hist *all = xmalloc(sizeof(*all));
	double secs = p->seconds > 0 ? p->seconds : 1e-9;
	double cpu_ns = (double)(p->cpu_user_ns + p->cpu_sys_ns);

	result_phase_totals(p, &t);
	hist_init(all);
	for (size_t i = 0; i < p->nops; i++)
		hist_merge(all, &p->ops[i].st.lat);
	memset(h, 0, sizeof(*h));
	h->seconds = p->seconds;
	h->ops = t.ops;
	h->errors = t.errors;
	h->bytes_read = t.bytes_read;
	h->bytes_written = t.bytes_written;
	h->ops_per_second = (double)t.ops / secs;
	h->read_ops_per_second = (double)t.read_ops / secs;
	h->write_ops_per_second = (double)t.write_ops / secs;
	h->mb_per_second = (double)(t.bytes_read + t.bytes_written) / (1024.0 * 1024.0) / secs;
	h->cpu_us_per_op = t.ops ? cpu_ns / (double)t.ops / 1e3 : 0;
	h->mean_latency_ms = t.ops ? t.lat_sum_ns / (double)t.ops / 1e6 : 0;
	h->p99_latency_us = (double)hist_quantile(all, 0.99) / 1e3;
	h->write_amplification = h->read_amplification = NAN;
	if (p->device.ndev && !p->device.none) {
		if (t.bytes_written)
			h->write_amplification =
				(double)p->device.total.bytes_written / (double)t.bytes_written;
		if (t.read_ops)
			h->read_amplification = (double)p->device.total.reads / (double)t.read_ops;
	}
	h->too_fast = p->too_fast;
	free(all);
}

/* Each operation's figures in one run. */
static void headline_ops(const struct result_phase *p, struct result_headline *h)
{
	double secs = p->seconds > 0 ? p->seconds : 1e-9;

	h->nper_op = p->nops;
	h->per_op = xcalloc(p->nops ? p->nops : 1, sizeof(*h->per_op));
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];
		struct repeat_op *r = &h->per_op[i];

		r->name = xstrdup(o->name);
		r->ops = o->st.ops;
		r->ops_per_second = (double)o->st.ops / secs;
		r->mb_per_second =
			(double)(o->st.bytes_read + o->st.bytes_written) / (1024.0 * 1024.0) / secs;
		r->cpu_us_per_op = op_stats_cpu_per_op(&o->st) / 1e3;
		r->lat_mean_us = o->st.lat.count ? hist_mean(&o->st.lat) / 1e3 : NAN;
		r->lat_p99_us = o->st.lat.count ? (double)hist_quantile(&o->st.lat, 0.99) / 1e3 : NAN;
	}
}

const struct headline_field headline_fields[] = {
	{ "ops_per_second", offsetof(struct result_headline, ops_per_second) },
	{ "mb_per_second", offsetof(struct result_headline, mb_per_second) },
	{ "mean_latency_ms", offsetof(struct result_headline, mean_latency_ms) },
	{ "p99_latency_us", offsetof(struct result_headline, p99_latency_us) },
	{ "cpu_us_per_op", offsetof(struct result_headline, cpu_us_per_op) },
	{ "read_ops_per_second", offsetof(struct result_headline, read_ops_per_second) },
	{ "write_ops_per_second", offsetof(struct result_headline, write_ops_per_second) },
	{ NULL, 0 },
};

/* mean, sd, cv and the 95% interval of `s`; `nonneg`: the figure cannot
 * be negative, whatever a wide t interval says. */
static void stat_fill(const struct summary *s, int nonneg, struct repeat_stat *out)
{
	out->n = s->n;
	out->mean = s->n ? s->mean : NAN;
	out->sd = summary_sd(s);
	out->cv = summary_cv(s);
	if (s->n >= 2) {
		double half = summary_ci_half(s, 0.95);

		out->ci95_low = nonneg ? MAX(s->mean - half, 0) : s->mean - half;
		out->ci95_high = s->mean + half;
	} else {
		out->ci95_low = out->ci95_high = NAN;
	}
}

void result_repeat_stat(const struct result_phase *p, const struct headline_field *f,
			struct repeat_stat *out)
{
	struct summary s;

	summary_init(&s);
	for (size_t i = 0; i < p->nrepeats; i++)
		summary_add(&s, *(const double *)((const char *)&p->repeats[i] + f->offset));
	/* every headline figure is a rate, a time or a ratio of them */
	stat_fill(&s, 1, out);
}

void result_metric_stat(const struct result_metric *m, struct repeat_stat *out)
{
	struct summary s;
	int nonneg = 1;

	summary_init(&s);
	for (size_t i = 0; i < m->nruns; i++) {
		summary_add(&s, m->runs[i]);
		nonneg &= m->runs[i] >= 0;
	}
	stat_fill(&s, nonneg, out);
}

int result_op_too_few(const struct result_op *o)
{
	return o->st.ops > 0 && o->st.ops < RESULT_MIN_OPS;
}

void result_phase_judge(struct result_phase *p)
{
	struct phase_totals t;

	if (p->too_fast)
		return;
	result_phase_totals(p, &t);
	if (p->seconds < RESULT_MIN_SECONDS) {
		p->too_fast = 1;
		p->too_fast_reason = xasprintf("ran %.3f s, under the %.1f s minimum", p->seconds,
					       RESULT_MIN_SECONDS);
	} else if (t.ops > 0 && t.ops < RESULT_MIN_OPS) {
		p->too_fast = 1;
		p->too_fast_reason = xasprintf("only %llu operations, under the %d minimum",
					       (unsigned long long)t.ops, RESULT_MIN_OPS);
	}
}

static struct result_phase *phase_find(struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

static size_t op_find_or_add(struct result_phase *p, const struct result_op *src)
{
	for (size_t i = 0; i < p->nops; i++)
		if (!strcmp(p->ops[i].name, src->name))
			return i;
	result_phase_add_op(p, src->name, src->type, src->cls);
	return p->nops - 1;
}

static void device_merge(struct result_device *a, const struct result_device *b)
{
	if (b->none) {
		if (!a->none && !a->ndev)
			a->none = xstrdup(b->none);
		return;
	}
	free(a->none);
	a->none = NULL;
	for (size_t i = 0; i < b->ndev; i++) {
		size_t j;

		for (j = 0; j < a->ndev; j++)
			if (!strcmp(a->names[j], b->names[i]))
				break;
		if (j == a->ndev) {
			a->names = xrealloc(a->names, (a->ndev + 1) * sizeof(*a->names));
			a->per = xrealloc(a->per, (a->ndev + 1) * sizeof(*a->per));
			a->names[j] = xstrdup(b->names[i]);
			memset(&a->per[j], 0, sizeof(a->per[j]));
			if (a->info) {
				a->info = xrealloc(a->info, (a->ndev + 1) * sizeof(*a->info));
				a->info[j] = (struct result_devinfo){ .rotational = -1 };
			}
			a->ndev++;
		}
		if (b->info && !a->info) {
			a->info = xcalloc(a->ndev, sizeof(*a->info));
			for (size_t k = 0; k < a->ndev; k++)
				a->info[k].rotational = -1;
		}
		if (b->info && !a->info[j].class[0])
			a->info[j] = b->info[i];
		dev_io_add(&a->per[j], &b->per[i]);
	}
	dev_io_add(&a->total, &b->total);
	if (!a->ceiling_mb_s)
		a->ceiling_mb_s = b->ceiling_mb_s;
}

void result_stored_judge(struct result_stored *s, const char *data)
{
	uint64_t base = MIN(s->size_bytes, s->written_bytes);
	double pct;

	if (!s->checked || base < (1u << 20) || (double)s->allocated_bytes >= STORED_RATIO * (double)base)
		return;
	pct = 100.0 * (double)s->allocated_bytes / (double)base;
	s->reduced = 1;
	s->reason = xasprintf("stored %.0f%% of the bytes written (%.1f MiB allocated for %.1f MiB in "
			      "%llu files): compression, deduplication, zero detection or data kept "
			      "in metadata; %s",
			      pct, (double)s->allocated_bytes / 1048576.0, (double)base / 1048576.0,
			      (unsigned long long)s->files,
			      data && strcmp(data, "random")
				  ? "the data written was not random: use --data random"
				  : "the figures are the file system's, not the storage's");
}

static void stored_merge(struct result_stored *a, const struct result_stored *b)
{
	if (!b->checked || (a->checked && !(b->reduced && !a->reduced)))
		return;
	free(a->reason);
	*a = *b;
	a->reason = b->reason ? xstrdup(b->reason) : NULL;
}

void result_threads_merge(struct result_threads *a, const struct result_threads *b)
{
	/* the busier worker: top_cpu / top_wall larger (cross-multiplied) */
	if (b->top_wall_ns && (!a->top_wall_ns || (double)b->top_cpu_ns * (double)a->top_wall_ns >
							  (double)a->top_cpu_ns * (double)b->top_wall_ns)) {
		a->top_cpu_ns = b->top_cpu_ns;
		a->top_wall_ns = b->top_wall_ns;
	}
	a->n += b->n;
	a->wall_ns += b->wall_ns;
	a->cpu_ns += b->cpu_ns;
	a->runq_ns += b->runq_ns;
	a->runq_n += b->runq_n;
	a->vcsw += b->vcsw;
	a->ivcsw += b->ivcsw;
	a->csw_n += b->csw_n;
	a->minflt += b->minflt;
	a->majflt += b->majflt;
	a->flt_n += b->flt_n;
	a->rate_wait_ns += b->rate_wait_ns;
	if (b->event_rate > 0)
		a->event_rate = b->event_rate;
	if (b->ncpus)
		a->ncpus = b->ncpus;
	if (b->ncpus_online)
		a->ncpus_online = b->ncpus_online;
}

static void cache_merge(struct result_cache *a, const struct result_cache *b)
{
	if (!b->assessed)
		return;
	a->memory_fs |= b->memory_fs;
	if (!a->assessed || (b->likely_cached && !a->likely_cached)) {
		a->assessed = 1;
		a->likely_cached = b->likely_cached;
		free(a->reason);
		a->reason = b->reason ? xstrdup(b->reason) : NULL;
	}
	a->read_working_set_bytes = MAX(a->read_working_set_bytes, b->read_working_set_bytes);
	a->ram_bytes = b->ram_bytes;
	a->mem_available_bytes = b->mem_available_bytes;
	a->page_cache_bytes = b->page_cache_bytes;
	a->arc_bytes = b->arc_bytes;
	a->arc_max_bytes = b->arc_max_bytes;
	if (b->writes_absorbed && !a->writes_absorbed) {
		a->writes_absorbed = 1;
		a->write_reason = b->write_reason ? xstrdup(b->write_reason) : NULL;
	}
	if (b->rate_implausible && !a->rate_implausible) {
		a->rate_implausible = 1;
		a->rate_reason = b->rate_reason ? xstrdup(b->rate_reason) : NULL;
	}
}

/* Several targets: each run's target K into the merged phase's target
 * K (the runs of one session name the same targets, in one order). */
static void targets_merge(struct result_phase *a, const struct result_phase *b)
{
	if (b->ntargets > a->ntargets) {
		a->targets = xrealloc(a->targets, b->ntargets * sizeof(*a->targets));
		for (size_t k = a->ntargets; k < b->ntargets; k++)
			a->targets[k] = (struct result_target){
				.path = xstrdup(b->targets[k].path),
				.fstype = b->targets[k].fstype ? xstrdup(b->targets[k].fstype) : NULL,
			};
		a->ntargets = b->ntargets;
	}
	for (size_t k = 0; k < b->ntargets; k++) {
		struct result_target *x = &a->targets[k];
		const struct result_target *y = &b->targets[k];

		x->read_ops += y->read_ops;
		x->bytes_read += y->bytes_read;
		x->bytes_written += y->bytes_written;
		device_merge(&x->device, &y->device);
		cache_merge(&x->cache, &y->cache);
	}
}

/* A front-end figure of one run into the merged phase: its value joins
 * the runs' values, and the merged value is their mean. */
static void metric_merge(struct result_phase *a, const struct result_metric *bm)
{
	struct result_metric *m = NULL;
	double sum = 0;

	result_phase_add_metric(a, bm->name, bm->unit, bm->value);
	for (size_t i = 0; i < a->nmetrics && !m; i++)
		if (!strcmp(a->metrics[i].name, bm->name))
			m = &a->metrics[i];
	m->runs = xrealloc(m->runs, (m->nruns + 1) * sizeof(*m->runs));
	m->runs[m->nruns++] = bm->value;
	for (size_t i = 0; i < m->nruns; i++)
		sum += m->runs[i];
	m->value = sum / (double)m->nruns;
}

static void phase_merge(struct result_phase *a, struct result_phase *b, unsigned repeat)
{
	struct result_headline h;
	size_t *map = xcalloc(b->nops ? b->nops : 1, sizeof(*map));

	result_phase_judge(b);
	result_phase_headline(b, &h);
	headline_ops(b, &h);
	a->repeats = xrealloc(a->repeats, (a->nrepeats + 1) * sizeof(*a->repeats));
	a->repeats[a->nrepeats++] = h;

	a->seconds += b->seconds;
	a->cpu_user_ns += b->cpu_user_ns;
	a->cpu_sys_ns += b->cpu_sys_ns;
	a->nthreads = MAX(a->nthreads, b->nthreads);
	for (size_t i = 0; i < b->nops; i++) {
		struct result_op *src = &b->ops[i], *dst;

		map[i] = op_find_or_add(a, src);
		dst = &a->ops[map[i]];
		if (!strcmp(src->type, "testrandvar")) {
			/* combine the sample moments by their counts */
			double n1 = (double)dst->st.ops, n2 = (double)src->st.ops;

			if (n1 + n2 > 0) {
				double m = (n1 * dst->extra_mean + n2 * src->extra_mean) / (n1 + n2);
				double q = n1 * (dst->extra_sd * dst->extra_sd +
						 dst->extra_mean * dst->extra_mean) +
					   n2 * (src->extra_sd * src->extra_sd +
						 src->extra_mean * src->extra_mean);
				double var = q / (n1 + n2) - m * m;

				dst->extra_mean = m;
				dst->extra_sd = var > 0 ? sqrt(var) : 0;
			}
		}
		op_stats_merge(&dst->st, &src->st);
		op_schedule_merge(&dst->sched, src->sched);
		dst->sync |= src->sync;
	}
	if (b->too_fast && !a->too_fast) {
		a->too_fast = 1;
		free(a->too_fast_reason);
		a->too_fast_reason = xasprintf("repeat %u: %s", repeat + 1,
					       b->too_fast_reason ? b->too_fast_reason : "too fast");
	}
	a->warmup_seconds += b->warmup_seconds;
	if (b->steady_state && (!a->steady_state || b->steady_state < 0))
		a->steady_state = b->steady_state;
	if (b->has_system_cpu) {
		struct cpu_times *x = &a->system_cpu, *y = &b->system_cpu;

		a->has_system_cpu = 1;
		x->user += y->user;
		x->nice += y->nice;
		x->system += y->system;
		x->idle += y->idle;
		x->iowait += y->iowait;
		x->irq += y->irq;
		x->softirq += y->softirq;
		x->steal += y->steal;
	}
	device_merge(&a->device, &b->device);
	cache_merge(&a->cache, &b->cache);
	targets_merge(a, b);
	result_threads_merge(&a->threads, &b->threads);
	stored_merge(&a->stored, &b->stored);
	zfsstat_merge(&a->zfs, &b->zfs);
	a->interval = b->interval;
	for (size_t i = 0; i < b->nintervals; i++) {
		struct result_interval *src = &b->intervals[i];
		struct result_interval *dst = result_phase_add_interval(a, a->nops);
		uint64_t *oo = dst->op_ops, *ob = dst->op_bytes, *op = dst->op_p99_ns;

		*dst = *src;
		dst->repeat = repeat;
		dst->nops = a->nops;
		dst->op_ops = oo;
		dst->op_bytes = ob;
		dst->op_p99_ns = op;
		for (size_t k = 0; k < src->nops && k < b->nops; k++) {
			oo[map[k]] = src->op_ops[k];
			ob[map[k]] = src->op_bytes[k];
			op[map[k]] = src->op_p99_ns[k];
		}
	}
	a->open_flags |= b->open_flags;
	for (size_t i = 0; i < RESULT_IO_OPS; i++)
		a->io_requests[i] += b->io_requests[i];
	for (size_t i = 0; i < b->nmetrics; i++)
		metric_merge(a, &b->metrics[i]);
	/* executions move over, marked with their run */
	a->execs = xrealloc(a->execs, (a->nexecs + b->nexecs + 1) * sizeof(*a->execs));
	for (size_t i = 0; i < b->nexecs; i++) {
		a->execs[a->nexecs] = b->execs[i];
		a->execs[a->nexecs++].repeat = repeat;
	}
	b->nexecs = 0; /* their names belong to a now */
	free(map);
}

void result_merge_repeat(struct result *acc, struct result *one)
{
	unsigned repeat = 0;

	for (size_t i = 0; i < one->nphases; i++) {
		struct result_phase *b = &one->phases[i];
		struct result_phase *a = phase_find(acc, b->name);

		if (!a)
			a = result_add_phase(acc, b->name);
		repeat = (unsigned)a->nrepeats;
		phase_merge(a, b, repeat);
	}
	if (!acc->nfilesets && one->nfilesets) {
		acc->filesets = one->filesets;
		acc->nfilesets = one->nfilesets;
		one->filesets = NULL;
		one->nfilesets = 0;
	}
	acc->interrupted |= one->interrupted;
	acc->stopped_on_error |= one->stopped_on_error;
	acc->errors += one->errors;
	acc->verify_errors += one->verify_errors;
	/* engine request totals are process-wide and cumulative */
	for (size_t i = 0; i < RESULT_IO_OPS; i++)
		acc->io_requests[i] = MAX(acc->io_requests[i], one->io_requests[i]);
	if (one->first_error && !acc->first_error)
		acc->first_error = xstrdup(one->first_error);
	/* under mpirun: the run's rank and host rows (stats/ranks.h) */
	result_ranks_merge_repeat(&acc->ranks, &one->ranks);
}
