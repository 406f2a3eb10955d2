/* result_read.c — read a JSON result file back; see result_read.h. */
#include "output/result_read.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/zfsstat.h"
#include "util/util.h"

const struct figure_info result_read_figures[FIG_COUNT] = {
	[FIG_OPS] = { "ops_per_second", "ops/s", "ops/s", "ops/s", 0 },
	[FIG_MBPS] = { "mb_per_second", "MB/s", "MB/s", "MB/s", 0 }, /* MB = 2^20 bytes */
	[FIG_LAT_MEAN] = { "mean_latency", "mean latency", "ms", "us", 1 },
	[FIG_LAT_P99] = { "p99_latency", "p99 latency", "ms", "us", 1 },
	[FIG_CPU] = { "cpu_us_per_op", "CPU/op", "us", "us", 1 },
	[FIG_DEV_WAMP] = { "device_write_amplification", "device write amplification", "ratio",
			   NULL, 1 },
	[FIG_DEV_RAMP] = { "device_read_amplification", "device read amplification", "ratio", NULL,
			   1 },
};

/* "invalid result 'x.json': phases[2]: missing 'name'" */
static int invalid(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int invalid(const char *path, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	msg_err("invalid result '%s': %s", path, buf);
	return -EINVAL;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double num2(const json_t *o, const char *key, const char *sub)
{
	return num(json_is_object(o) ? json_object_get(o, key) : NULL, sub);
}

static char *str_or_null(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* Object values as text: strings as they are, anything else as compact JSON. */
static void read_kv(struct kvlist *l, const json_t *o)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		if (json_is_string(v)) {
			kv_add(l, key, "%s", json_string_value(v));
		} else {
			char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));

			kv_add(l, key, "%s", s ? s : "");
			free(s);
		}
	}
}

/* The figures of one summary-like object: a phase's "summary" (with the
 * phase's "device"), or one entry of "repeats" (with its own "device"). */
static void phase_figures(const json_t *sum, const json_t *device, double f[FIG_COUNT])
{
	f[FIG_OPS] = num(sum, "ops_per_second");
	f[FIG_MBPS] = num(sum, "mb_per_second");
	f[FIG_LAT_MEAN] = num(sum, "mean_latency_ms");
	f[FIG_LAT_P99] = num(sum, "p99_latency_ms");
	f[FIG_CPU] = num(sum, "cpu_us_per_op");
	f[FIG_DEV_WAMP] = num(device, "write_amplification");
	f[FIG_DEV_RAMP] = num(device, "read_amplification");
}

static void op_figures(const json_t *op, double f[FIG_COUNT])
{
	f[FIG_OPS] = num(op, "ops_per_second");
	f[FIG_MBPS] = num(op, "mb_per_second");
	f[FIG_LAT_MEAN] = num2(op, "latency_us", "mean");
	f[FIG_LAT_P99] = num2(op, "latency_us", "p99");
	f[FIG_CPU] = num(op, "cpu_us_per_op");
	f[FIG_DEV_WAMP] = NAN;
	f[FIG_DEV_RAMP] = NAN;
}

static void samples_one(struct rsamples *s, double v)
{
	if (!isfinite(v))
		return;
	s->v = xmalloc(sizeof(double));
	s->v[0] = v;
	s->n = 1;
}

/*
 * Figures from the repeats when every repeat has the figure, else the one
 * aggregate value.  rep[k][f] holds repeat k's figure f (NAN if absent).
 */
static void fill_samples(struct rsamples fig[FIG_COUNT], const double agg[FIG_COUNT],
			 double (*rep)[FIG_COUNT], size_t nrep)
{
	for (int f = 0; f < FIG_COUNT; f++) {
		size_t k;

		for (k = 0; k < nrep; k++)
			if (!isfinite(rep[k][f]))
				break;
		if (nrep && k == nrep) {
			fig[f].v = xmalloc(nrep * sizeof(double));
			for (k = 0; k < nrep; k++)
				fig[f].v[k] = rep[k][f];
			fig[f].n = nrep;
		} else {
			samples_one(&fig[f], agg[f]);
		}
	}
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct rbucket *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* An operation's "iodepth" object (absent: no iodepth=, all 0). */
static void read_qdepth(const json_t *j, struct rop *op)
{
	const json_t *b = json_object_get(j, "submissions"), *v;
	const char *key;

	if (!json_is_object(j))
		return;
	if (json_is_integer(json_object_get(j, "max")))
		op->qdepth_max = (uint64_t)json_integer_value(json_object_get(j, "max"));
	json_object_foreach((json_t *)b, key, v) {
		unsigned long long low = strtoull(key + (key[0] == '>' ? 2 : 0), NULL, 10);

		if (json_is_integer(v) && low >= 1)
			op->qdepth[op_qdepth_bucket(low)] += (uint64_t)json_integer_value(v);
	}
}

static int read_hist(const char *path, const char *where, const json_t *h, struct rop *op)
{
	const json_t *b = json_object_get(h, "buckets"), *row;
	size_t i;

	if (!h)
		return 0;
	if (!json_is_object(h) || (b && !json_is_array(b)))
		return invalid(path, "%s.histogram: expected an object with a 'buckets' array", where);
	if (!b)
		return 0;
	op->buckets = xcalloc(json_array_size(b), sizeof(*op->buckets));
	json_array_foreach(b, i, row) {
		const json_t *lo = json_array_get(row, 0), *hi = json_array_get(row, 1);
		const json_t *n = json_array_get(row, 2);

		if (!json_is_array(row) || !json_is_integer(lo) || !json_is_integer(hi) ||
		    !json_is_integer(n) || json_integer_value(lo) < 0 || json_integer_value(n) < 0)
			return invalid(path, "%s.histogram.buckets[%zu]: expected [lo_ns, hi_ns, count]",
				       where, i);
		op->buckets[i].lo = (uint64_t)json_integer_value(lo);
		/* The last bucket's upper bound is UINT64_MAX, which jansson
		 * reads back as -1 (it has only signed integers). */
		op->buckets[i].hi = json_integer_value(hi) < 0 ? UINT64_MAX
							       : (uint64_t)json_integer_value(hi);
		op->buckets[i].count = (uint64_t)json_integer_value(n);
		op->hist_count += op->buckets[i].count;
	}
	op->nbuckets = json_array_size(b);
	qsort(op->buckets, op->nbuckets, sizeof(*op->buckets), cmp_bucket);
	return 0;
}

/*
 * The phase's p99 over all its operations (in ms), from the merged
 * histograms, for results whose summary has no "p99_latency_ms": the
 * midpoint of the bucket holding the ceil(0.99 n)-th value, as
 * hist_quantile() does, clamped to the operations' exact maximum.
 */
static double phase_p99_ms(const struct rphase *p, const json_t *jops)
{
	struct rbucket *all;
	size_t n = 0, k = 0;
	uint64_t total = 0, rank, seen = 0;
	double maxv = 0, v = NAN;

	for (size_t i = 0; i < p->nops; i++)
		n += p->ops[i].nbuckets;
	if (!n)
		return NAN;
	all = xmalloc(n * sizeof(*all));
	for (size_t i = 0; i < p->nops; i++) {
		if (p->ops[i].nbuckets) /* an operation without buckets has buckets == NULL */
			memcpy(all + k, p->ops[i].buckets, p->ops[i].nbuckets * sizeof(*all));
		k += p->ops[i].nbuckets;
		total += p->ops[i].hist_count;
		double m = num2(json_array_get(jops, i), "latency_us", "max");

		if (isfinite(m) && m * 1e3 > maxv)
			maxv = m * 1e3;
	}
	qsort(all, n, sizeof(*all), cmp_bucket);
	rank = (uint64_t)ceil(0.99 * (double)total);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < n && total; i++) {
		seen += all[i].count;
		if (seen >= rank) {
			uint64_t hi = all[i].hi == UINT64_MAX ? all[i].lo * 2 : all[i].hi;

			v = (double)all[i].lo + (double)(hi - all[i].lo) / 2;
			break;
		}
	}
	free(all);
	if (maxv > 0 && v > maxv)
		v = maxv;
	return v / 1e6;
}

static int read_intervals(const char *path, const char *where, const json_t *a, struct rphase *p)
{
	const json_t *e;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return invalid(path, "%s.intervals: expected an array", where);
	p->intervals = xcalloc(json_array_size(a), sizeof(*p->intervals));
	json_array_foreach(a, i, e) {
		struct rinterval *iv = &p->intervals[i];

		if (!json_is_object(e) || !isfinite(num(e, "t")))
			return invalid(path, "%s.intervals[%zu]: expected an object with a number 't'",
				       where, i);
		iv->t = num(e, "t");
		iv->ops_per_second = num(e, "ops_per_second");
		iv->mb_per_second = num(e, "mb_per_second");
		iv->p99_us = num(e, "p99_us");
	}
	p->nintervals = json_array_size(a);
	return 0;
}

static struct rmetric *metric_find(struct rmetric *m, size_t n, const char *name);

static struct rmetric *metric_add(struct rphase *p, const char *name, const char *unit)
{
	struct rmetric *m;

	p->metrics = xrealloc(p->metrics, (p->nmetrics + 1) * sizeof(*p->metrics));
	m = &p->metrics[p->nmetrics++];
	m->name = xstrdup(name);
	m->unit = xstrdup(unit ? unit : "");
	m->v.v = NULL;
	m->v.n = 0;
	m->st = (struct repeat_stat){ .mean = NAN, .sd = NAN, .cv = NAN, .ci95_low = NAN,
				      .ci95_high = NAN };
	return m;
}

/* A metric's "runs" (--repeat) as its samples, with the statistics
 * written beside them; 0 when there are none (then "value" is the one
 * sample). */
static int metric_runs(struct rmetric *m, const json_t *v)
{
	const json_t *runs = json_object_get(v, "runs"), *e;
	size_t i, n = json_array_size(runs);

	if (!json_is_array(runs) || !n)
		return 0;
	m->v.v = xmalloc(n * sizeof(double));
	json_array_foreach(runs, i, e)
		if (json_is_number(e) && isfinite(json_number_value(e)))
			m->v.v[m->v.n++] = json_number_value(e);
	if (!m->v.n) {
		free(m->v.v);
		m->v.v = NULL;
		return 0;
	}
	m->st.n = json_is_integer(json_object_get(v, "n"))
			  ? (uint64_t)json_integer_value(json_object_get(v, "n"))
			  : m->v.n;
	m->st.mean = num(v, "value");
	m->st.sd = num(v, "sd");
	m->st.cv = num(v, "cv");
	m->st.ci95_low = num(v, "ci95_low");
	m->st.ci95_high = num(v, "ci95_high");
	return 1;
}

/* "metrics": {"name": {"value": v, "unit": "u"}, ...}.  Suite data is
 * optional, so anything else (not an object, no number) is skipped. */
static void read_metrics(const json_t *o, struct rphase *p)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return;
	json_object_foreach((json_t *)o, key, v) {
		const json_t *u = json_object_get(v, "unit");
		double x = num(v, "value");

		if (!isfinite(x) || result_read_metric(p, key))
			continue;
		struct rmetric *m = metric_add(p, key, json_is_string(u) ? json_string_value(u) : NULL);

		if (!metric_runs(m, v))
			samples_one(&m->v, x);
	}
}

static struct rmetric *metric_find(struct rmetric *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

const struct rmetric *result_read_metric(const struct rphase *p, const char *name)
{
	return metric_find(p->metrics, p->nmetrics, name);
}

/* The operation named `name` in repeat entry `rep`, or NULL. */
static const json_t *repeat_op(const json_t *rep, const char *name)
{
	const json_t *ops = json_object_get(rep, "operations"), *o;
	size_t i;

	json_array_foreach(ops, i, o) {
		const json_t *n = json_object_get(o, "name");

		if (json_is_string(n) && !strcmp(json_string_value(n), name))
			return o;
	}
	return NULL;
}


/* "zfs" (stats/zfsstat.h): each field a non-negative integer, else unknown;
 * the pool's and the dataset's names. */
static void read_zfs(const json_t *jz, struct result_zfs *z)
{
	const json_t *pool, *ds;

	memset(z, 0, sizeof(*z));
	if (!json_is_object(jz))
		return;
	z->present = 1;
	for (int f = 0; f < ZFS__NFIELDS; f++) {
		const json_t *g = json_object_get(jz, zfs_group_name(zfs_fields[f].group));
		const json_t *v = json_object_get(g, zfs_fields[f].key);

		if (json_is_integer(v) && json_integer_value(v) >= 0) {
			z->v[f] = (uint64_t)json_integer_value(v);
			z->have |= 1ull << f;
		}
	}
	pool = json_object_get(jz, "pool");
	ds = json_object_get(jz, "dataset");
	if (json_is_string(json_object_get(pool, "name")))
		snprintf(z->pool, sizeof(z->pool), "%s",
			 json_string_value(json_object_get(pool, "name")));
	if (json_is_string(json_object_get(ds, "name")) &&
	    json_is_string(json_object_get(ds, "objset"))) {
		snprintf(z->dataset, sizeof(z->dataset), "%s",
			 json_string_value(json_object_get(ds, "name")));
		snprintf(z->objset, sizeof(z->objset), "%s",
			 json_string_value(json_object_get(ds, "objset")));
	}
}
/* A phase's "targets": each entry with a "target" string (others
 * skipped, not refused: the report only shows them). */
static void read_targets(const json_t *a, struct rphase *p)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		return;
	p->targets = xcalloc(json_array_size(a) ? json_array_size(a) : 1, sizeof(*p->targets));
	json_array_foreach(a, i, e) {
		const json_t *dev = json_object_get(e, "device"), *cache = json_object_get(e, "cache");
		const json_t *names = json_object_get(dev, "devices"), *n;
		struct rtarget *t;
		size_t k;

		if (!json_is_object(e) || !json_is_string(json_object_get(e, "target")))
			continue;
		t = &p->targets[p->ntargets++];
		t->path = str_or_null(e, "target");
		t->fs_type = str_or_null(e, "fs_type");
		t->bytes_read = num(e, "bytes_read");
		t->bytes_written = num(e, "bytes_written");
		t->no_device = str_or_null(dev, "none");
		json_array_foreach(json_is_array(names) ? names : NULL, k, n) {
			char *d;

			if (!json_is_string(n))
				continue;
			d = xasprintf("%s%s%s", t->devices ? t->devices : "", t->devices ? " " : "",
				      json_string_value(n));
			free(t->devices);
			t->devices = d;
		}
		t->dev_bytes_read = num(dev, "bytes_read");
		t->dev_bytes_written = num(dev, "bytes_written");
		t->utilization = num(dev, "utilization");
		t->write_amplification = num(dev, "write_amplification");
		t->likely_cached = json_is_true(json_object_get(cache, "likely_cached"));
		t->writes_absorbed = json_is_true(json_object_get(cache, "writes_absorbed"));
		t->rate_implausible = json_is_true(json_object_get(cache, "rate_implausible"));
		t->cache_reason = str_or_null(cache, "reason");
		t->write_reason = str_or_null(cache, "write_reason");
		t->rate_reason = str_or_null(cache, "rate_reason");
	}
}

static void rtarget_free(struct rtarget *t)
{
	free(t->path);
	free(t->fs_type);
	free(t->devices);
	free(t->no_device);
	free(t->cache_reason);
	free(t->write_reason);
	free(t->rate_reason);
}

static void rtarget_copy(struct rtarget *dst, const struct rtarget *src)
{
	*dst = *src;
	dst->path = xstrdup_or_null(src->path);
	dst->fs_type = xstrdup_or_null(src->fs_type);
	dst->devices = xstrdup_or_null(src->devices);
	dst->no_device = xstrdup_or_null(src->no_device);
	dst->cache_reason = xstrdup_or_null(src->cache_reason);
	dst->write_reason = xstrdup_or_null(src->write_reason);
	dst->rate_reason = xstrdup_or_null(src->rate_reason);
}

static int read_phase(const char *path, size_t idx, const json_t *jp, struct rphase *p)
{
	const json_t *name = json_object_get(jp, "name"), *sum = json_object_get(jp, "summary");
	const json_t *ops = json_object_get(jp, "operations"), *reps = json_object_get(jp, "repeats");
	const json_t *cache = json_object_get(jp, "cache"), *e;
	double agg[FIG_COUNT], (*rep)[FIG_COUNT] = NULL;
	char where[64];
	size_t i, nrep;
	int ret;

	snprintf(where, sizeof(where), "phases[%zu]", idx);
	if (!json_is_object(jp))
		return invalid(path, "%s: expected an object", where);
	if (!json_is_string(name))
		return invalid(path, "%s: missing 'name'", where);
	p->name = xstrdup(json_string_value(name));
	if (!json_is_object(sum))
		return invalid(path, "%s (%s): missing 'summary'", where, p->name);
	if (ops && !json_is_array(ops))
		return invalid(path, "%s.operations: expected an array", where);
	if (reps && !json_is_array(reps))
		return invalid(path, "%s.repeats: expected an array", where);
	p->seconds = num(jp, "seconds");
	p->too_fast = json_is_true(json_object_get(jp, "too_fast"));
	p->too_fast_reason = str_or_null(jp, "too_fast_reason");
	if (json_is_object(cache)) {
		p->likely_cached = json_is_true(json_object_get(cache, "likely_cached"));
		p->cache_reason = str_or_null(cache, "reason");
		p->writes_absorbed = json_is_true(json_object_get(cache, "writes_absorbed"));
		p->write_reason = str_or_null(cache, "write_reason");
	}
	if (json_is_object(json_object_get(jp, "limited_by"))) {
		p->limited_by = str_or_null(json_object_get(jp, "limited_by"), "verdict");
		p->limited_text = str_or_null(json_object_get(jp, "limited_by"), "text");
	}
	read_metrics(json_object_get(jp, "metrics"), p);
	read_zfs(json_object_get(jp, "zfs"), &p->zfs);
	read_targets(json_object_get(jp, "targets"), p);

	nrep = reps ? json_array_size(reps) : 0;
	p->nrepeats = nrep;
	json_array_foreach(reps, i, e)
		if (!json_is_object(e))
			return invalid(path, "%s.repeats[%zu]: expected an object", where, i);
	if (nrep)
		rep = xcalloc(nrep, sizeof(*rep));

	p->ops = xcalloc(ops ? json_array_size(ops) : 1, sizeof(*p->ops));
	json_array_foreach(ops, i, e) {
		struct rop *op = &p->ops[i];
		const json_t *n = json_object_get(e, "name");
		char ow[128];

		snprintf(ow, sizeof(ow), "%s.operations[%zu]", where, i);
		if (!json_is_object(e) || !json_is_string(n)) {
			free(rep);
			return invalid(path, "%s: missing 'name'", ow);
		}
		p->nops = i + 1;
		op->name = xstrdup(json_string_value(n));
		op->type = str_or_null(e, "type");
		op->ops = json_is_integer(json_object_get(e, "ops"))
				  ? (uint64_t)json_integer_value(json_object_get(e, "ops"))
				  : 0;
		read_qdepth(json_object_get(e, "iodepth"), op);
		ret = read_hist(path, ow, json_object_get(e, "histogram"), op);
		if (ret < 0) {
			free(rep);
			return ret;
		}
		op_figures(e, agg);
		for (size_t k = 0; k < nrep; k++)
			op_figures(repeat_op(json_array_get(reps, k), op->name), rep[k]);
		fill_samples(op->fig, agg, rep, nrep);
	}

	phase_figures(sum, json_object_get(jp, "device"), agg);
	if (!isfinite(agg[FIG_LAT_P99]))
		agg[FIG_LAT_P99] = phase_p99_ms(p, ops);
	for (size_t k = 0; k < nrep; k++) {
		const json_t *r = json_array_get(reps, k);

		phase_figures(r, json_object_get(r, "device"), rep[k]);
	}
	fill_samples(p->fig, agg, rep, nrep);
	free(rep);
	return read_intervals(path, where, json_object_get(jp, "intervals"), p);
}

static char *display_name(const char *path, const char *label)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (label && *label)
		return xstrdup(label);
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	return xstrndup(base, n);
}

/* Add a definition to rf unless it has one of that name already. */
static void metric_def_add(struct rfile *rf, const char *name, const char *unit,
			   const char *label, enum metric_better better)
{
	struct metric_def *d;

	if (result_read_metric_def(rf, name))
		return;
	rf->metric_defs = xrealloc(rf->metric_defs, (rf->nmetric_defs + 1) * sizeof(*d));
	d = &rf->metric_defs[rf->nmetric_defs++];
	d->name = xstrdup(name);
	d->unit = xstrdup(unit ? unit : "");
	d->label = xstrdup(label ? label : name);
	d->better = better;
}

/* "metric_defs": [{"name", "unit", "label", "better": "higher"|"lower"|null}].
 * Optional (older results have none); an entry without a string name is
 * skipped, a missing unit or label is "" or the name, any other "better"
 * is no direction. */
static void read_metric_defs(struct rfile *rf, const json_t *a)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		return;
	json_array_foreach(a, i, e) {
		const json_t *n = json_object_get(e, "name"), *u = json_object_get(e, "unit");
		const json_t *l = json_object_get(e, "label"), *b = json_object_get(e, "better");
		const char *bs = json_is_string(b) ? json_string_value(b) : "";

		if (!json_is_string(n))
			continue;
		metric_def_add(rf, json_string_value(n), json_is_string(u) ? json_string_value(u) : NULL,
			       json_is_string(l) ? json_string_value(l) : NULL,
			       !strcmp(bs, "higher")  ? BETTER_HIGHER
			       : !strcmp(bs, "lower") ? BETTER_LOWER
						      : BETTER_NONE);
	}
}

const struct metric_def *result_read_metric_def(const struct rfile *rf, const char *name)
{
	for (size_t i = 0; i < rf->nmetric_defs; i++)
		if (!strcmp(rf->metric_defs[i].name, name))
			return &rf->metric_defs[i];
	return NULL;
}

/* "command_line": an array of strings, NULL-terminated; NULL when absent
 * or not an array of strings (it is only shown, never relied on). */
static char **read_args(const json_t *a)
{
	char **v;
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		return NULL;
	json_array_foreach(a, i, e)
		if (!json_is_string(e))
			return NULL;
	v = xcalloc(json_array_size(a) + 1, sizeof(*v));
	json_array_foreach(a, i, e)
		v[i] = xstrdup(json_string_value(e));
	return v;
}

static char **dup_args(char *const *a)
{
	size_t n = 0;
	char **v;

	if (!a)
		return NULL;
	while (a[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(a[i]);
	return v;
}

static void free_args(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void *memdup(const void *p, size_t n)
{
	void *d = xmalloc(n ? n : 1);

	if (n)
		memcpy(d, p, n);
	return d;
}

static char *str_or_empty(const json_t *o, const char *key)
{
	char *v = str_or_null(o, key);

	return v ? v : xstrdup("");
}

/* One rank's phase row (a "ranks[].phases[]" entry) into the phase. */
static void rank_row(struct rphase_ranks *pr, int rank, const char *host, const json_t *q)
{
	const json_t *w = json_object_get(q, "stonewall");
	struct rrank_phase *row;

	pr->rows = xrealloc(pr->rows, (pr->nrows + 1) * sizeof(*pr->rows));
	row = &pr->rows[pr->nrows++];
	row->rank = rank;
	row->host = xstrdup(host ? host : "?");
	row->ops = json_is_integer(json_object_get(q, "ops"))
	               ? (uint64_t)json_integer_value(json_object_get(q, "ops"))
	               : 0;
	row->ops_per_second = num(q, "ops_per_second");
	row->seconds = num(q, "seconds");
	row->start = num(q, "start_seconds");
	row->end_reason = str_or_null(q, "end_reason");
	row->stonewall = !json_is_string(w)                        ? 0
	                 : !strcmp(json_string_value(w), "raised") ? 'r'
	                 : !strcmp(json_string_value(w), "peer")   ? 'p'
	                                                           : 0;
	row->stonewall_seconds = num(q, "stonewall_seconds");
}

static int int_or(const json_t *v, int def)
{
	return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

static uint64_t u64_or0(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
	                                                       : 0;
}

/*
 * How many devices a host's counters are of.  The writer divides the
 * busy time by that many devices' time for "utilization" (at most 100%)
 * but does not write the count; it is recovered from the utilisation,
 * so that dev_io_figures() gives it back.  Below 100% the division
 * undoes it; at 0 and at the cap any count gives the same figure, and 1
 * is taken, as without a utilisation.
 */
static size_t host_ndev(const struct host_phase *hp, double util)
{
	double n;

	if (!(hp->seconds > 0) || !(util > 0) || !(util < 100))
		return 1;
	n = round((double)hp->device.busy_ms * 100.0 / (hp->seconds * 1000.0 * util));
	return n >= 1 && n < 65536 ? (size_t)n : 1;
}

/* One "hosts[].phases[]" entry: its time and what the host's devices
 * did (the counters of output_dev_io_json(), or "none" and why). */
static void host_phase_read(struct host_phase *hp, const json_t *q)
{
	const json_t *dev = json_object_get(q, "device");
	struct dev_io *d = &hp->device;

	hp->name = str_or_null(q, "name");
	hp->seconds = num(q, "seconds");
	if (!json_is_object(dev))
		return;
	if (json_is_string(json_object_get(dev, "none"))) {
		hp->none = str_or_null(dev, "none");
		return;
	}
	if (!json_is_integer(json_object_get(dev, "reads")) &&
	    !json_is_integer(json_object_get(dev, "writes")))
		return;
	d->reads = u64_or0(dev, "reads");
	d->writes = u64_or0(dev, "writes");
	d->read_merges = u64_or0(dev, "read_merges");
	d->write_merges = u64_or0(dev, "write_merges");
	d->bytes_read = u64_or0(dev, "bytes_read");
	d->bytes_written = u64_or0(dev, "bytes_written");
	d->read_ms = u64_or0(dev, "read_ms");
	d->write_ms = u64_or0(dev, "write_ms");
	d->busy_ms = u64_or0(dev, "busy_ms");
	d->no_flush = !json_is_integer(json_object_get(dev, "flushes"));
	d->flushes = u64_or0(dev, "flushes");
	d->flush_ms = u64_or0(dev, "flush_ms");
	/* time_in_queue is written as its average over the phase */
	if (hp->seconds > 0 && num(dev, "avg_queue_depth") >= 0)
		d->weighted_ms =
		    (uint64_t)llround(num(dev, "avg_queue_depth") * hp->seconds * 1000.0);
	hp->ndev = host_ndev(hp, num(dev, "utilization"));
}

/* "hosts": each distinct host's ranks, environment and devices per
 * phase; malformed entries skipped. */
static void read_hosts(struct rfile *rf, const json_t *a)
{
	const json_t *e, *v;
	size_t i, k;

	json_array_foreach(json_is_array(a) ? a : NULL, i, e)
	{
		const json_t *ranks = json_object_get(e, "ranks");
		const json_t *ph = json_object_get(e, "phases");
		const json_t *env = json_object_get(e, "environment");
		struct result_host *h;

		if (!json_is_object(e) || !json_is_string(json_object_get(e, "host")))
			continue;
		rf->hosts = xrealloc(rf->hosts, (rf->nhosts + 1) * sizeof(*rf->hosts));
		h = &rf->hosts[rf->nhosts++];
		memset(h, 0, sizeof(*h));
		h->host = str_or_null(e, "host");
		h->ranks = xcalloc(json_array_size(ranks) + 1, sizeof(int));
		json_array_foreach(json_is_array(ranks) ? ranks : NULL, k, v)
			if (json_is_integer(v))
				h->ranks[h->nranks++] = (int)json_integer_value(v);
		if (json_is_object(env))
			read_kv(&h->env, env);
		h->phases = xcalloc(json_array_size(ph) + 1, sizeof(*h->phases));
		json_array_foreach(json_is_array(ph) ? ph : NULL, k, v)
			if (json_is_object(v) && json_is_string(json_object_get(v, "name")))
				host_phase_read(&h->phases[h->nphases++], v);
	}
}

/*
 * What an MPI result adds (docs/mpi.md): the phases' "ranks" objects,
 * the top-level "ranks" rows (by phase name), "file_systems" and
 * "file_systems_warning".  All optional: entries of the wrong shape are
 * skipped, as for metrics (only shown, never relied on).
 */
static void read_mpi(struct rfile *rf, const json_t *root, const json_t *phases)
{
	const json_t *ranks = json_object_get(root, "ranks"),
	             *fs = json_object_get(root, "file_systems");
	const json_t *e, *q;
	size_t i, k;

	for (size_t p = 0; p < rf->nphases; p++) {
		const json_t *o = json_object_get(json_array_get(phases, p), "ranks");
		struct rphase_ranks *pr = &rf->phases[p].ranks;

		pr->slowest_rank = pr->stonewall_rank = -1;
		pr->stonewall_seconds = NAN;
		if (!json_is_object(o))
			continue;
		pr->n = json_is_integer(json_object_get(o, "n"))
		            ? (size_t)MAX(json_integer_value(json_object_get(o, "n")), 0)
		            : 0;
		pr->slowest_rank = int_or(json_object_get(o, "slowest_rank"), -1);
		pr->stonewall_rank = int_or(json_object_get(o, "stonewall_rank"), -1);
		if (pr->stonewall_rank >= 0)
			pr->stonewall_seconds = num(o, "stonewall_seconds");
		pr->stonewall_peers =
		    (uint64_t)MAX(int_or(json_object_get(o, "stonewall_peer_ranks"), 0), 0);
	}
	json_array_foreach(json_is_array(ranks) ? ranks : NULL, i, e)
	{
		const json_t *h = json_object_get(e, "host");

		if (!json_is_integer(json_object_get(e, "rank")))
			continue;
		json_array_foreach(json_object_get(e, "phases"), k, q)
		{
			const json_t *n = json_object_get(q, "name");
			struct rphase *ph;

			if (!json_is_object(q) || !json_is_string(n))
				continue;
			ph = (struct rphase *)result_read_phase(rf, json_string_value(n));
			if (ph)
				rank_row(&ph->ranks, int_or(json_object_get(e, "rank"), -1),
				         json_is_string(h) ? json_string_value(h) : NULL, q);
		}
	}
	json_array_foreach(json_is_array(fs) ? fs : NULL, i, e)
	{
		struct rfs *f;

		if (!json_is_object(e) || !json_is_string(json_object_get(e, "type")))
			continue;
		rf->fs = xrealloc(rf->fs, (rf->nfs + 1) * sizeof(*rf->fs));
		f = &rf->fs[rf->nfs++];
		f->type = str_or_empty(e, "type");
		f->mount_point = str_or_empty(e, "mount_point");
		f->host = str_or_empty(e, "host");
		f->nranks = json_array_size(json_object_get(e, "ranks"));
	}
	rf->fs_warning = str_or_null(root, "file_systems_warning");
	read_hosts(rf, json_object_get(root, "hosts"));
}

static int read_doc(const char *path, const json_t *root, struct rfile *rf)
{
	const json_t *sv = json_object_get(root, "schema_version");
	const json_t *suite = json_object_get(root, "suite"), *wl = json_object_get(root, "workload");
	const json_t *params = json_object_get(root, "parameters");
	const json_t *env = json_object_get(root, "environment");
	const json_t *phases = json_object_get(root, "phases"), *st = json_object_get(root, "status");
	const json_t *e;
	size_t i;
	int ret;

	if (!json_is_object(root) || !sv) {
		msg_err("'%s' is not an fsgauge result (no schema_version)", path);
		return -EINVAL;
	}
	if (!json_is_integer(sv) || json_integer_value(sv) < 1)
		return invalid(path, "schema_version is not a positive integer");
	rf->schema_version = json_integer_value(sv);
	if (rf->schema_version > RESULT_READ_MAX_SCHEMA) {
		msg_err("cannot read result '%s': schema_version %lld is newer than this fsgauge "
			"understands (%d); upgrade fsgauge",
			path, rf->schema_version, RESULT_READ_MAX_SCHEMA);
		return -EINVAL;
	}
	if (!json_is_string(suite))
		return invalid(path, "missing 'suite'");
	if (!json_is_string(wl))
		return invalid(path, "missing 'workload'");
	if (!json_is_object(params))
		return invalid(path, "missing 'parameters'");
	if (!json_is_object(env))
		return invalid(path, "missing 'environment'");
	if (!json_is_array(phases))
		return invalid(path, "missing 'phases'");
	if (st && !json_is_object(st))
		return invalid(path, "'status' is not an object");

	rf->suite = xstrdup(json_string_value(suite));
	rf->workload = xstrdup(json_string_value(wl));
	rf->label = str_or_null(root, "label");
	rf->started_at = str_or_null(root, "started_at");
	rf->workload_hash = str_or_null(root, "workload_hash");
	rf->workload_text = str_or_null(root, "workload_text");
	rf->command_line = read_args(json_object_get(root, "command_line"));
	rf->name = display_name(path, rf->label);
	rf->complete = st ? !json_is_false(json_object_get(st, "complete")) : 1;
	rf->interrupted = json_is_true(json_object_get(st, "interrupted"));
	rf->stopped_on_error = json_is_true(json_object_get(st, "stopped_on_error"));
	if (json_is_integer(json_object_get(st, "errors")))
		rf->errors = (uint64_t)json_integer_value(json_object_get(st, "errors"));
	read_kv(&rf->params, params);
	read_kv(&rf->env, env);
	read_metric_defs(rf, json_object_get(root, "metric_defs"));

	rf->phases = xcalloc(json_array_size(phases) + 1, sizeof(*rf->phases));
	json_array_foreach(phases, i, e) {
		rf->nphases = i + 1;
		ret = read_phase(path, i, e, &rf->phases[i]);
		if (ret < 0)
			return ret;
	}
	read_mpi(rf, root, phases);
	return 0;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

struct reader {
	int fd;
	uint64_t total; /* bytes read so far */
	int err;	/* errno of a failed read, or EFBIG */
};

/* jansson's input: the file, until RESULT_READ_MAX_BYTES (in case it grew
 * since it was looked at) */
static size_t read_chunk(void *buf, size_t len, void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	do
		n = read(r->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		r->err = errno;
		return (size_t)-1;
	}
	r->total += (uint64_t)n;
	if (r->total > RESULT_READ_MAX_BYTES) {
		r->err = EFBIG;
		return (size_t)-1;
	}
	return (size_t)n;
}

static void too_large(const char *path, uint64_t size)
{
	msg_err("cannot read result '%s': too large (%" PRIu64 " bytes; a result may have at "
		"most %llu, %llu MiB)",
		path, size, RESULT_READ_MAX_BYTES, RESULT_READ_MAX_BYTES >> 20);
}

/* The parsed file, or NULL with a message and *ret set.  Symbolic links
 * are followed (reading through one is harmless); anything but a regular
 * file is refused, before it is opened when possible, and O_NONBLOCK
 * keeps a FIFO swapped in meanwhile from blocking the open. */
static json_t *load(const char *path, int *ret)
{
	struct reader r = { -1, 0, 0 };
	json_error_t jerr;
	struct stat st;
	json_t *root;

	if (stat(path, &st) < 0) {
		*ret = err_errno(-errno, "cannot read result '%s'", path);
		return NULL;
	}
	if (S_ISREG(st.st_mode)) {
		r.fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (r.fd < 0) {
			*ret = err_errno(-errno, "cannot read result '%s'", path);
			return NULL;
		}
		if (fstat(r.fd, &st) < 0) {
			*ret = err_errno(-errno, "cannot read result '%s'", path);
			close(r.fd);
			return NULL;
		}
	}
	if (!S_ISREG(st.st_mode)) {
		msg_err("cannot read result '%s': not a regular file (%s)", path,
			file_kind(st.st_mode));
		*ret = -EINVAL;
		goto fail;
	}
	if ((uint64_t)st.st_size > RESULT_READ_MAX_BYTES) {
		too_large(path, (uint64_t)st.st_size);
		*ret = -EINVAL;
		goto fail;
	}
	fcntl(r.fd, F_SETFL, fcntl(r.fd, F_GETFL) & ~O_NONBLOCK);
	root = json_load_callback(read_chunk, &r, 0, &jerr);
	close(r.fd);
	if (root)
		return root;
	if (r.err == EFBIG) {
		too_large(path, r.total);
		*ret = -EINVAL;
	} else if (r.err) {
		*ret = err_errno(-r.err, "cannot read result '%s'", path);
	} else if (r.total == 0) {
		msg_err("cannot read result '%s': the file is empty", path);
		*ret = -EINVAL;
	} else if (json_error_code(&jerr) == json_error_out_of_memory || !*jerr.text) {
		/* (jansson returns no reason when an allocation fails) */
		*ret = err_errno(-ENOMEM, "cannot read result '%s' (%" PRIu64 " bytes)", path,
				 (uint64_t)st.st_size);
	} else {
		msg_err("cannot read result '%s': not valid JSON: line %d, column %d: %s%s", path,
			jerr.line, jerr.column, jerr.text,
			json_error_code(&jerr) == json_error_premature_end_of_input
				? " (the file ends early: truncated?)"
				: "");
		*ret = -EINVAL;
	}
	return NULL;
fail:
	if (r.fd >= 0)
		close(r.fd);
	return NULL;
}

int result_read(const char *path, struct rfile **out)
{
	struct rfile *rf;
	json_t *root;
	int ret = 0;

	*out = NULL;
	root = load(path, &ret);
	if (!root)
		return ret;
	rf = xcalloc(1, sizeof(*rf));
	rf->path = xstrdup(path);
	ret = read_doc(path, root, rf);
	json_decref(root);
	if (ret < 0) {
		result_read_free(rf);
		return ret;
	}
	*out = rf;
	return 0;
}

static void samples_free(struct rsamples fig[FIG_COUNT])
{
	for (int f = 0; f < FIG_COUNT; f++)
		free(fig[f].v);
}

void result_read_free(struct rfile *rf)
{
	if (!rf)
		return;
	for (size_t i = 0; i < rf->nphases; i++) {
		struct rphase *p = &rf->phases[i];

		for (size_t k = 0; k < p->nops; k++) {
			free(p->ops[k].name);
			free(p->ops[k].type);
			free(p->ops[k].buckets);
			samples_free(p->ops[k].fig);
		}
		free(p->ops);
		samples_free(p->fig);
		free(p->intervals);
		free(p->name);
		free(p->too_fast_reason);
		free(p->cache_reason);
		free(p->write_reason);
		free(p->limited_by);
		free(p->limited_text);
		for (size_t k = 0; k < p->nmetrics; k++) {
			free(p->metrics[k].name);
			free(p->metrics[k].unit);
			free(p->metrics[k].v.v);
		}
		free(p->metrics);
		for (size_t k = 0; k < p->ntargets; k++)
			rtarget_free(&p->targets[k]);
		free(p->targets);
		for (size_t k = 0; k < p->ranks.nrows; k++) {
			free(p->ranks.rows[k].host);
			free(p->ranks.rows[k].end_reason);
		}
		free(p->ranks.rows);
	}
	free(rf->phases);
	for (size_t i = 0; i < rf->nfs; i++) {
		free(rf->fs[i].type);
		free(rf->fs[i].mount_point);
		free(rf->fs[i].host);
	}
	free(rf->fs);
	free(rf->fs_warning);
	result_hosts_free(rf->hosts, rf->nhosts);
	kv_free(&rf->params);
	kv_free(&rf->env);
	free(rf->path);
	free(rf->name);
	free(rf->suite);
	free(rf->workload);
	free(rf->label);
	free(rf->started_at);
	free(rf->workload_hash);
	free(rf->workload_text);
	free_args(rf->command_line);
	for (size_t i = 0; i < rf->nmetric_defs; i++) {
		free((char *)rf->metric_defs[i].name);
		free((char *)rf->metric_defs[i].unit);
		free((char *)rf->metric_defs[i].label);
	}
	free(rf->metric_defs);
	free(rf);
}

size_t result_read_runs(const struct rfile *rf)
{
	size_t runs = 1;

	for (size_t p = 0; p < rf->nphases; p++)
		runs = MAX(runs, rf->phases[p].nrepeats);
	return runs;
}

double result_read_mean(const struct rsamples *s)
{
	double sum = 0;

	if (!s->n)
		return NAN;
	for (size_t i = 0; i < s->n; i++)
		sum += s->v[i];
	return sum / (double)s->n;
}

static void samples_append(struct rsamples *dst, const struct rsamples *src)
{
	if (!src->n)
		return;
	dst->v = xrealloc(dst->v, (dst->n + src->n) * sizeof(double));
	memcpy(dst->v + dst->n, src->v, src->n * sizeof(double));
	dst->n += src->n;
}

static void op_pool(struct rop *dst, const struct rop *src)
{
	size_t n = 0;

	if (!dst->name) {
		dst->name = xstrdup(src->name);
		dst->type = src->type ? xstrdup(src->type) : NULL;
	}
	dst->ops += src->ops;
	for (int i = 0; i < OP_QDEPTH_BUCKETS; i++)
		dst->qdepth[i] += src->qdepth[i];
	dst->qdepth_max = MAX(dst->qdepth_max, src->qdepth_max);
	for (int f = 0; f < FIG_COUNT; f++)
		samples_append(&dst->fig[f], &src->fig[f]);
	/* histograms merge by adding the counts of equal buckets */
	dst->buckets = xrealloc(dst->buckets, (dst->nbuckets + src->nbuckets + 1) * sizeof(*dst->buckets));
	if (src->nbuckets)
		memcpy(dst->buckets + dst->nbuckets, src->buckets,
		       src->nbuckets * sizeof(*src->buckets));
	dst->nbuckets += src->nbuckets;
	qsort(dst->buckets, dst->nbuckets, sizeof(*dst->buckets), cmp_bucket);
	for (size_t i = 0; i < dst->nbuckets; i++) {
		if (n && dst->buckets[n - 1].lo == dst->buckets[i].lo)
			dst->buckets[n - 1].count += dst->buckets[i].count;
		else
			dst->buckets[n++] = dst->buckets[i];
	}
	dst->nbuckets = n;
	dst->hist_count += src->hist_count;
}

static void phase_pool(struct rphase *dst, const struct rphase *src)
{
	if (!dst->name) {
		dst->name = xstrdup(src->name);
		dst->too_fast_reason = src->too_fast_reason ? xstrdup(src->too_fast_reason) : NULL;
		dst->cache_reason = src->cache_reason ? xstrdup(src->cache_reason) : NULL;
		dst->limited_by = src->limited_by ? xstrdup(src->limited_by) : NULL;
		dst->limited_text = src->limited_text ? xstrdup(src->limited_text) : NULL;
		/* the ranks' rows: the first file's (as its time series) */
		dst->ranks = src->ranks;
		dst->ranks.rows =
		    memdup(src->ranks.rows, src->ranks.nrows * sizeof(*src->ranks.rows));
		for (size_t k = 0; k < src->ranks.nrows; k++) {
			dst->ranks.rows[k].host = xstrdup(src->ranks.rows[k].host);
			dst->ranks.rows[k].end_reason = src->ranks.rows[k].end_reason
			                                    ? xstrdup(src->ranks.rows[k].end_reason)
			                                    : NULL;
		}
		/* the targets' rows: the first file's */
		if (src->ntargets) {
			dst->targets = xcalloc(src->ntargets, sizeof(*dst->targets));
			for (size_t k = 0; k < src->ntargets; k++)
				rtarget_copy(&dst->targets[k], &src->targets[k]);
			dst->ntargets = src->ntargets;
		}
		/* one time series (the first run's) keeps the chart readable */
		if (src->nintervals) {
			dst->intervals = xmalloc(src->nintervals * sizeof(*src->intervals));
			memcpy(dst->intervals, src->intervals, src->nintervals * sizeof(*src->intervals));
			dst->nintervals = src->nintervals;
		}
	}
	dst->nrepeats += src->nrepeats ? src->nrepeats : 1;
	dst->seconds = (isfinite(dst->seconds) ? dst->seconds : 0) + src->seconds;
	dst->too_fast |= src->too_fast;
	if (dst->limited_by && src->limited_by && strcmp(dst->limited_by, src->limited_by))
		dst->limited_mixed = 1;
	zfsstat_merge(&dst->zfs, &src->zfs);
	if (src->writes_absorbed && !dst->writes_absorbed) {
		dst->writes_absorbed = 1;
		free(dst->write_reason);
		dst->write_reason = src->write_reason ? xstrdup(src->write_reason) : NULL;
	}
	if (src->likely_cached && !dst->likely_cached) {
		dst->likely_cached = 1;
		if (!dst->cache_reason && src->cache_reason)
			dst->cache_reason = xstrdup(src->cache_reason);
	}
	for (int f = 0; f < FIG_COUNT; f++)
		samples_append(&dst->fig[f], &src->fig[f]);
	for (size_t i = 0; i < src->nmetrics; i++) {
		const struct rmetric *m = &src->metrics[i];
		struct rmetric *d = metric_find(dst->metrics, dst->nmetrics, m->name);

		if (!d)
			d = metric_add(dst, m->name, m->unit);
		samples_append(&d->v, &m->v);
	}
	for (size_t i = 0; i < src->nops; i++) {
		size_t k;

		for (k = 0; k < dst->nops && strcmp(dst->ops[k].name, src->ops[i].name); k++)
			;
		if (k == dst->nops) {
			dst->ops = xrealloc(dst->ops, (dst->nops + 1) * sizeof(*dst->ops));
			memset(&dst->ops[k], 0, sizeof(dst->ops[k]));
			dst->nops++;
		}
		op_pool(&dst->ops[k], &src->ops[i]);
	}
}

struct rfile *result_read_pool(struct rfile *const *files, size_t n)
{
	struct rfile *rf = xcalloc(1, sizeof(*rf));
	const struct rfile *a = files[0];

	rf->path = xasprintf("%s (+%zu more)", a->path, n - 1);
	rf->name = xstrdup(a->name);
	rf->schema_version = a->schema_version;
	rf->suite = xstrdup(a->suite);
	rf->workload = xstrdup(a->workload);
	rf->label = a->label ? xstrdup(a->label) : NULL;
	rf->started_at = a->started_at ? xstrdup(a->started_at) : NULL;
	rf->workload_hash = a->workload_hash ? xstrdup(a->workload_hash) : NULL;
	rf->workload_text = a->workload_text ? xstrdup(a->workload_text) : NULL;
	rf->command_line = dup_args(a->command_line);
	rf->grid = a->grid;
	rf->complete = 1;
	rf->fs_warning = a->fs_warning ? xstrdup(a->fs_warning) : NULL;
	rf->nfs = a->nfs;
	rf->fs = memdup(a->fs, a->nfs * sizeof(*a->fs));
	for (size_t k = 0; k < a->nfs; k++) {
		rf->fs[k].type = xstrdup(a->fs[k].type);
		rf->fs[k].mount_point = xstrdup(a->fs[k].mount_point);
		rf->fs[k].host = xstrdup(a->fs[k].host);
	}
	rf->hosts = result_hosts_dup(a->hosts, a->nhosts);
	rf->nhosts = a->nhosts;
	for (size_t k = 0; k < a->params.n; k++)
		kv_add(&rf->params, a->params.v[k].key, "%s", a->params.v[k].value);
	for (size_t k = 0; k < a->env.n; k++)
		kv_add(&rf->env, a->env.v[k].key, "%s", a->env.v[k].value);
	for (size_t i = 0; i < n; i++) {
		const struct rfile *s = files[i];

		rf->complete &= s->complete;
		rf->interrupted |= s->interrupted;
		rf->stopped_on_error |= s->stopped_on_error;
		rf->errors += s->errors;
		for (size_t d = 0; d < s->nmetric_defs; d++)
			metric_def_add(rf, s->metric_defs[d].name, s->metric_defs[d].unit,
				       s->metric_defs[d].label, s->metric_defs[d].better);
		for (size_t p = 0; p < s->nphases; p++) {
			size_t k;

			for (k = 0; k < rf->nphases && strcmp(rf->phases[k].name, s->phases[p].name);
			     k++)
				;
			if (k == rf->nphases) {
				rf->phases = xrealloc(rf->phases, (k + 1) * sizeof(*rf->phases));
				memset(&rf->phases[k], 0, sizeof(rf->phases[k]));
				rf->phases[k].seconds = NAN;
				rf->nphases++;
			}
			phase_pool(&rf->phases[k], &s->phases[p]);
		}
	}
	return rf;
}

const struct rphase *result_read_phase(const struct rfile *rf, const char *name)
{
	for (size_t i = 0; i < rf->nphases; i++)
		if (!strcmp(rf->phases[i].name, name))
			return &rf->phases[i];
	return NULL;
}

double result_read_metric_mean(const struct rphase *p, const char *name)
{
	const struct rmetric *m = p ? result_read_metric(p, name) : NULL;

	return m ? result_read_mean(&m->v) : NAN;
}

double result_read_metric_max(const struct rphase *p, const char *name)
{
	const struct rmetric *m = p ? result_read_metric(p, name) : NULL;
	double v = NAN;

	for (size_t i = 0; m && i < m->v.n; i++)
		if (!(v >= m->v.v[i]))
			v = m->v.v[i];
	return v;
}

long long result_read_param_ll(const struct rfile *rf, const char *key, long long def)
{
	const char *v = kv_get(&rf->params, key);
	char *end;
	long long x;

	if (!v || !*v)
		return def;
	x = strtoll(v, &end, 10);
	return *end || x < 0 ? def : x;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "ext4, tmpfs": the sorted types */
static void fs_list(const struct rfile *rf, char *buf, size_t len)
{
	char **t = xcalloc(rf->nfs + 1, sizeof(*t));
	size_t o;

	for (size_t i = 0; i < rf->nfs; i++)
		t[i] = rf->fs[i].type;
	qsort(t, rf->nfs, sizeof(*t), cmp_str);
	o = 0;
	*buf = 0;
	for (size_t i = 0; i < rf->nfs && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", t[i]);
	free(t);
}

int result_read_fs_differ(const struct rfile *a, const struct rfile *b, char *buf, size_t len)
{
	char x[256], y[256];

	if (!a->nfs || !b->nfs)
		return 0;
	fs_list(a, x, sizeof(x));
	fs_list(b, y, sizeof(y));
	if (a->nfs == b->nfs && !strcmp(x, y))
		return 0;
	snprintf(buf, len, "%zu file system%s (%s) against %zu (%s)", a->nfs,
	         a->nfs == 1 ? "" : "s", x, b->nfs, y);
	return 1;
}
