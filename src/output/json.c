/*
 * json.c — the JSON result file, written with jansson.  The format is
 * documented in docs/json-format.md; bump RESULT_SCHEMA_VERSION when a
 * field changes meaning or disappears.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "gitrev.h" /* generated: FSGAUGE_GITREV, the commit built from */
#include "engine/engine.h"
#include "output/comparison.h"
#include "output/output.h"
#include "stats/insight.h"
#include "stats/zfsstat.h"
#include "util/outfile.h"
#include "util/util.h"

#define MB (1024.0 * 1024.0)

static json_t *kv_object(const struct kvlist *l)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key, json_string(l->v[i].value));
	return o;
}

static json_t *latency_json(const struct hist *h)
{
	json_t *o = json_object();

	if (!h->count)
		return o;
	json_object_set_new(o, "mean", json_real(hist_mean(h) / 1e3));
	json_object_set_new(o, "min", json_real((double)h->min / 1e3));
	json_object_set_new(o, "max", json_real((double)h->max / 1e3));
	json_object_set_new(o, "p50", json_real((double)hist_quantile(h, 0.5) / 1e3));
	json_object_set_new(o, "p90", json_real((double)hist_quantile(h, 0.9) / 1e3));
	json_object_set_new(o, "p99", json_real((double)hist_quantile(h, 0.99) / 1e3));
	json_object_set_new(o, "p99_9", json_real((double)hist_quantile(h, 0.999) / 1e3));
	return o;
}

/* Non-empty buckets only, as [lower_ns, upper_ns, count]. */
static json_t *hist_json(const struct hist *h)
{
	json_t *o = json_object(), *b = json_array();

	json_object_set_new(o, "unit", json_string("ns"));
	json_object_set_new(o, "sub_bucket_bits", json_integer(HIST_SUB_BITS));
	json_object_set_new(o, "count", json_integer((json_int_t)h->count));
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		json_t *row = json_array();

		json_array_append_new(row, json_integer((json_int_t)hist_bucket_lo(i)));
		json_array_append_new(row, json_integer((json_int_t)hist_bucket_hi(i)));
		json_array_append_new(row, json_integer((json_int_t)h->buckets[i]));
		json_array_append_new(b, row);
	}
	json_object_set_new(o, "buckets", b);
	return o;
}

/* An open-loop operation's schedule (rate_iops=, rate=): what its
 * clients saw, latency from the scheduled time (docs/json-format.md). */
static json_t *schedule_json(const struct op_schedule *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "ops", json_integer((json_int_t)s->ops));
	json_object_set_new(o, "late", json_integer((json_int_t)s->late));
	json_object_set_new(o, "late_after_us", json_integer((json_int_t)(OP_SCHED_LATE_NS / 1000)));
	json_object_set_new(o, "threads", json_integer((json_int_t)s->threads));
	json_object_set_new(o, "below_rate_min", json_integer((json_int_t)s->below_min));
	json_object_set_new(o, "latency_us", latency_json(&s->lat));
	json_object_set_new(o, "histogram", hist_json(&s->lat));
	return o;
}

/* A number, or null when it is not one (NAN: undefined, e.g. a CI of one
 * run or a ratio over nothing). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *headline_json(const struct result_headline *h, int repeat)
{
	json_t *o = json_object();

	if (repeat)
		json_object_set_new(o, "seconds", json_real(h->seconds));
	json_object_set_new(o, "ops", json_integer((json_int_t)h->ops));
	json_object_set_new(o, "ops_per_second", num(h->ops_per_second));
	json_object_set_new(o, "read_ops_per_second", num(h->read_ops_per_second));
	json_object_set_new(o, "write_ops_per_second", num(h->write_ops_per_second));
	json_object_set_new(o, "bytes_read", json_integer((json_int_t)h->bytes_read));
	json_object_set_new(o, "bytes_written", json_integer((json_int_t)h->bytes_written));
	json_object_set_new(o, "mb_per_second", num(h->mb_per_second));
	json_object_set_new(o, "cpu_us_per_op", num(h->cpu_us_per_op));
	json_object_set_new(o, "mean_latency_ms", num(h->mean_latency_ms));
	json_object_set_new(o, "p99_latency_us", num(h->p99_latency_us));
	json_object_set_new(o, "p99_latency_ms", num(h->p99_latency_us / 1e3));
	json_object_set_new(o, "errors", json_integer((json_int_t)h->errors));
	if (!repeat)
		return o;
	json_object_set_new(o, "too_fast", json_boolean(h->too_fast));
	if (isfinite(h->write_amplification) || isfinite(h->read_amplification)) {
		json_t *d = json_object();

		if (isfinite(h->write_amplification))
			json_object_set_new(d, "write_amplification", json_real(h->write_amplification));
		if (isfinite(h->read_amplification))
			json_object_set_new(d, "read_amplification", json_real(h->read_amplification));
		json_object_set_new(o, "device", d);
	}
	if (h->nper_op) {
		json_t *ops = json_array();

		for (size_t i = 0; i < h->nper_op; i++) {
			const struct repeat_op *r = &h->per_op[i];
			json_t *j = json_object(), *lat = json_object();

			json_object_set_new(j, "name", json_string(r->name));
			json_object_set_new(j, "ops", json_integer((json_int_t)r->ops));
			json_object_set_new(j, "ops_per_second", num(r->ops_per_second));
			json_object_set_new(j, "mb_per_second", num(r->mb_per_second));
			json_object_set_new(j, "cpu_us_per_op", num(r->cpu_us_per_op));
			if (isfinite(r->lat_mean_us)) {
				json_object_set_new(lat, "mean", json_real(r->lat_mean_us));
				json_object_set_new(lat, "p99", json_real(r->lat_p99_us));
			}
			json_object_set_new(j, "latency_us", lat);
			json_array_append_new(ops, j);
		}
		json_object_set_new(o, "operations", ops);
	}
	return o;
}

static json_t *repeat_stats_json(const struct result_phase *p)
{
	json_t *o = json_object();

	for (size_t k = 0; headline_fields[k].name; k++) {
		struct repeat_stat rs;
		json_t *j = json_object();

		result_repeat_stat(p, &headline_fields[k], &rs);
		json_object_set_new(j, "mean", num(rs.mean));
		json_object_set_new(j, "sd", num(rs.sd));
		json_object_set_new(j, "cv", num(rs.cv));
		json_object_set_new(j, "ci95_low", num(rs.ci95_low));
		json_object_set_new(j, "ci95_high", num(rs.ci95_high));
		json_object_set_new(j, "n", json_integer((json_int_t)rs.n));
		json_object_set_new(o, headline_fields[k].name, j);
	}
	return o;
}

/* A suite's figure: its value and unit; over --repeat also every run's
 * value and their statistics (result_metric_stat()). */
static json_t *metric_json(const struct result_metric *m)
{
	json_t *o = json_object();
	struct repeat_stat rs;

	json_object_set_new(o, "value", json_real(m->value));
	json_object_set_new(o, "unit", json_string(m->unit));
	if (!m->nruns)
		return o;
	json_t *runs = json_array();

	for (size_t i = 0; i < m->nruns; i++)
		json_array_append_new(runs, num(m->runs[i]));
	json_object_set_new(o, "runs", runs);
	result_metric_stat(m, &rs);
	json_object_set_new(o, "n", json_integer((json_int_t)rs.n));
	json_object_set_new(o, "sd", num(rs.sd));
	json_object_set_new(o, "cv", num(rs.cv));
	json_object_set_new(o, "ci95_low", num(rs.ci95_low));
	json_object_set_new(o, "ci95_high", num(rs.ci95_high));
	return o;
}

/* Device counters over `secs` for `ndev` devices, with the amplification
 * ratios against what the application did (null when it did nothing of
 * that kind). */
json_t *output_dev_io_json(const struct dev_io *d, double secs, size_t ndev,
			   uint64_t app_bytes_written, uint64_t app_bytes_read, uint64_t app_read_ops)
{
	json_t *o = json_object();
	struct dev_figures fg;

	dev_io_figures(d, secs, ndev, &fg);
	json_object_set_new(o, "reads", json_integer((json_int_t)d->reads));
	json_object_set_new(o, "writes", json_integer((json_int_t)d->writes));
	json_object_set_new(o, "bytes_read", json_integer((json_int_t)d->bytes_read));
	json_object_set_new(o, "bytes_written", json_integer((json_int_t)d->bytes_written));
	json_object_set_new(o, "read_merges", json_integer((json_int_t)d->read_merges));
	json_object_set_new(o, "write_merges", json_integer((json_int_t)d->write_merges));
	json_object_set_new(o, "read_ms", json_integer((json_int_t)d->read_ms));
	json_object_set_new(o, "write_ms", json_integer((json_int_t)d->write_ms));
	json_object_set_new(o, "busy_ms", json_integer((json_int_t)d->busy_ms));
	json_object_set_new(o, "utilization", num(fg.utilization));
	json_object_set_new(o, "avg_queue_depth", num(fg.queue));
	/* flush requests: /proc/diskstats has them from kernel 5.5 */
	json_object_set_new(o, "flushes",
			    d->no_flush ? json_null() : json_integer((json_int_t)d->flushes));
	json_object_set_new(o, "flush_ms",
			    d->no_flush ? json_null() : json_integer((json_int_t)d->flush_ms));
	json_object_set_new(o, "write_amplification",
			    num(app_bytes_written ? (double)d->bytes_written / (double)app_bytes_written
						  : NAN));
	/* read_amplification is in requests, like read_ops_amplification
	 * (the name compare reads); read_bytes_amplification in bytes */
	json_object_set_new(o, "read_amplification",
			    num(app_read_ops ? (double)d->reads / (double)app_read_ops : NAN));
	json_object_set_new(o, "read_ops_amplification",
			    num(app_read_ops ? (double)d->reads / (double)app_read_ops : NAN));
	json_object_set_new(o, "read_bytes_amplification",
			    num(app_bytes_read ? (double)d->bytes_read / (double)app_bytes_read : NAN));
	return o;
}

/* What the devices of d did over secs, against what the application
 * moved (t: the phase's totals, or a target's). */
static json_t *device_json(const struct result_device *d, double secs, const struct phase_totals *t)
{
	json_t *o, *names, *per;

	if (d->none || !d->ndev) {
		o = json_object();
		json_object_set_new(o, "none", json_string(d->none ? d->none : "not measured"));
		return o;
	}
	o = output_dev_io_json(&d->total, secs, d->ndev, t->bytes_written, t->bytes_read,
			       t->read_ops);
	names = json_array();
	per = json_object();
	for (size_t i = 0; i < d->ndev; i++) {
		json_array_append_new(names, json_string(d->names[i]));
		json_object_set_new(per, d->names[i],
				    output_dev_io_json(&d->per[i], secs, 1, 0, 0, 0));
	}
	json_object_set_new(o, "devices", names);
	json_object_set_new(o, "ceiling_mb_per_second",
			    d->ceiling_mb_s > 0 ? json_real(d->ceiling_mb_s) : json_null());
	json_object_set_new(o, "per_device", per);
	return o;
}

static json_t *cache_json(const struct result_cache *c);

/* Several targets: per target, what the operations on its files moved,
 * its devices and its cache verdict (docs/json-format.md). */
static json_t *targets_json(const struct result_phase *p)
{
	json_t *a = json_array();

	for (size_t k = 0; k < p->ntargets; k++) {
		const struct result_target *tg = &p->targets[k];
		struct phase_totals t = { .read_ops = tg->read_ops,
					  .bytes_read = tg->bytes_read,
					  .bytes_written = tg->bytes_written };
		json_t *o = json_object();

		json_object_set_new(o, "target", json_string(tg->path));
		json_object_set_new(o, "fs_type", tg->fstype ? json_string(tg->fstype) : json_null());
		json_object_set_new(o, "read_ops", json_integer((json_int_t)tg->read_ops));
		json_object_set_new(o, "bytes_read", json_integer((json_int_t)tg->bytes_read));
		json_object_set_new(o, "bytes_written", json_integer((json_int_t)tg->bytes_written));
		json_object_set_new(o, "device", device_json(&tg->device, p->seconds, &t));
		if (tg->cache.assessed)
			json_object_set_new(o, "cache", cache_json(&tg->cache));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *system_cpu_json(const struct cpu_times *c)
{
	json_t *o = json_object();
	double tot = (double)(c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
			      c->softirq + c->steal);

	if (tot <= 0)
		tot = NAN;
	json_object_set_new(o, "user", num(100.0 * (double)c->user / tot));
	json_object_set_new(o, "nice", num(100.0 * (double)c->nice / tot));
	json_object_set_new(o, "system", num(100.0 * (double)c->system / tot));
	json_object_set_new(o, "iowait", num(100.0 * (double)c->iowait / tot));
	json_object_set_new(o, "irq", num(100.0 * (double)c->irq / tot));
	json_object_set_new(o, "softirq", num(100.0 * (double)c->softirq / tot));
	json_object_set_new(o, "steal", num(100.0 * (double)c->steal / tot));
	json_object_set_new(o, "idle", num(100.0 * (double)c->idle / tot));
	return o;
}

static json_t *cache_json(const struct result_cache *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "likely_cached", json_boolean(c->likely_cached));
	json_object_set_new(o, "memory_fs", json_boolean(c->memory_fs));
	json_object_set_new(o, "reason", c->reason ? json_string(c->reason) : json_null());
	json_object_set_new(o, "read_working_set_bytes",
			    json_integer((json_int_t)c->read_working_set_bytes));
	json_object_set_new(o, "ram_bytes", json_integer((json_int_t)c->ram_bytes));
	json_object_set_new(o, "mem_available_bytes", json_integer((json_int_t)c->mem_available_bytes));
	json_object_set_new(o, "page_cache_bytes", json_integer((json_int_t)c->page_cache_bytes));
	json_object_set_new(o, "arc_bytes",
			    c->arc_bytes >= 0 ? json_integer((json_int_t)c->arc_bytes) : json_null());
	json_object_set_new(o, "arc_max_bytes",
			    c->arc_max_bytes >= 0 ? json_integer((json_int_t)c->arc_max_bytes)
						  : json_null());
	json_object_set_new(o, "rate_implausible", json_boolean(c->rate_implausible));
	json_object_set_new(o, "rate_reason",
			    c->rate_reason ? json_string(c->rate_reason) : json_null());
	json_object_set_new(o, "writes_absorbed", json_boolean(c->writes_absorbed));
	json_object_set_new(o, "write_reason",
			    c->write_reason ? json_string(c->write_reason) : json_null());
	return o;
}

/* iodepth=: the depths seen at submission (struct op_stats.qdepth),
 * keyed by the lowest depth of each bucket as fio prints its "IO depths"
 * ("1", "2", "4", ..., "32", ">=64"), and the largest. */
static json_t *qdepth_json(const struct op_stats *st)
{
	json_t *o = json_object(), *b = json_object();

	for (unsigned i = 0; i < OP_QDEPTH_BUCKETS; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%s%llu", i + 1 == OP_QDEPTH_BUCKETS ? ">=" : "",
			 (unsigned long long)op_qdepth_low(i));
		json_object_set_new(b, key, json_integer((json_int_t)st->qdepth[i]));
	}
	json_object_set_new(o, "max", json_integer((json_int_t)st->qdepth_max));
	json_object_set_new(o, "submissions", b);
	json_object_set_new(o, "submit_calls", json_integer((json_int_t)st->submit_calls));
	json_object_set_new(o, "reap_calls", json_integer((json_int_t)st->reap_calls));
	return o;
}

static json_t *intervals_json(const struct result_phase *p)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->nintervals; i++) {
		const struct result_interval *iv = &p->intervals[i];
		json_t *o = json_object(), *per = json_object();
		double secs = iv->seconds > 0 ? iv->seconds : NAN;
		uint64_t read_ops = 0;

		if (p->nrepeats)
			json_object_set_new(o, "repeat", json_integer((json_int_t)iv->repeat + 1));
		json_object_set_new(o, "t", json_real(iv->t));
		json_object_set_new(o, "seconds", json_real(iv->seconds));
		json_object_set_new(o, "warmup", json_boolean(iv->warmup));
		json_object_set_new(o, "ops", json_integer((json_int_t)iv->ops));
		json_object_set_new(o, "bytes_read", json_integer((json_int_t)iv->bytes_read));
		json_object_set_new(o, "bytes_written", json_integer((json_int_t)iv->bytes_written));
		json_object_set_new(o, "ops_per_second", num((double)iv->ops / secs));
		json_object_set_new(o, "mb_per_second",
				    num((double)(iv->bytes_read + iv->bytes_written) / MB / secs));
		json_object_set_new(o, "mean_latency_us",
				    iv->lat_count ? json_real(iv->lat_sum_ns / (double)iv->lat_count / 1e3)
						  : json_null());
		json_object_set_new(o, "p99_us",
				    iv->lat_count ? json_real((double)iv->p99_ns / 1e3) : json_null());
		for (size_t k = 0; k < iv->nops && k < p->nops; k++) {
			json_t *j = json_object();

			json_object_set_new(j, "ops", json_integer((json_int_t)iv->op_ops[k]));
			json_object_set_new(j, "ops_per_second", num((double)iv->op_ops[k] / secs));
			json_object_set_new(j, "p99_us",
					    iv->op_ops[k] ? json_real((double)iv->op_p99_ns[k] / 1e3)
							  : json_null());
			json_object_set_new(per, p->ops[k].name, j);
			if (p->ops[k].cls == OPC_READ)
				read_ops += iv->op_ops[k];
		}
		json_object_set_new(o, "per_op", per);
		if (iv->has_device)
			json_object_set_new(o, "device",
					    output_dev_io_json(&iv->device, iv->seconds, p->device.ndev,
							iv->bytes_written, iv->bytes_read, read_ops));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *rule_json(enum insight_kind k, const struct insight_rule *r)
{
	json_t *o = json_object(), *f = json_object();

	json_object_set_new(o, "rule", json_string(insight_name(k)));
	json_object_set_new(o, "holds", json_boolean(r->holds));
	json_object_set_new(o, "value", num(r->value));
	json_object_set_new(o, "threshold", num(r->threshold));
	json_object_set_new(o, "part", r->part[0] ? json_string(r->part) : json_null());
	json_object_set_new(o, "evidence", json_string(r->evidence));
	for (size_t i = 0; i < r->nfig; i++)
		json_object_set_new(f, r->fig[i].name, num(r->fig[i].value));
	json_object_set_new(o, "figures", f);
	return o;
}

/* "limited_by.flush": the flush plausibility check; null without a
 * synchronous operation. */
static json_t *flush_json(const struct insight_flush *fl)
{
	json_t *o;

	if (!fl->present)
		return json_null();
	o = json_object();
	json_object_set_new(o, "judged", json_boolean(fl->judged));
	json_object_set_new(o, "implausible", json_boolean(fl->implausible));
	json_object_set_new(o, "operation", json_string(fl->op));
	json_object_set_new(o, "type", json_string(fl->type));
	json_object_set_new(o, "p50_us", num(fl->p50_us));
	json_object_set_new(o, "calls", json_integer((json_int_t)fl->calls));
	json_object_set_new(o, "bound_us", json_real(INSIGHT_FLUSH_HDD_US));
	json_object_set_new(o, "device", fl->device[0] ? json_string(fl->device) : json_null());
	json_object_set_new(o, "device_writes", json_integer((json_int_t)fl->device_writes));
	json_object_set_new(o, "evidence", json_string(fl->evidence));
	json_object_set_new(o, "warning", fl->implausible ? json_string(fl->evidence) : json_null());
	return o;
}

/* "limited_by": the verdict (stats/insight.h, docs/insight.md). */
static json_t *limited_by_json(const struct result_phase *p)
{
	struct insight in;
	json_t *o = json_object(), *rules = json_array(), *also = json_array(), *cl = json_array();
	const struct insight_rule *v;
	char line[2048];

	insight_assess(p, &in);
	v = &in.rule[in.verdict];
	insight_line(&in, line, sizeof(line));
	json_object_set_new(o, "verdict", json_string(insight_name(in.verdict)));
	json_object_set_new(o, "part", v->part[0] ? json_string(v->part) : json_null());
	json_object_set_new(o, "evidence", json_string(v->evidence));
	json_object_set_new(o, "text", json_string(line));
	for (int k = 1; k < INSIGHT__COUNT; k++) {
		if (!in.rule[k].evaluated)
			continue;
		json_array_append_new(rules, rule_json((enum insight_kind)k, &in.rule[k]));
		if (in.rule[k].holds && k != (int)in.verdict)
			json_array_append_new(also, json_string(insight_name((enum insight_kind)k)));
	}
	for (size_t i = 0; i < in.nclosest; i++)
		json_array_append_new(cl, json_string(insight_name(in.closest[i])));
	json_object_set_new(o, "also", also);
	json_object_set_new(o, "closest", cl);
	json_object_set_new(o, "rules", rules);
	json_object_set_new(o, "flush", flush_json(&in.flush));
	return o;
}

static json_t *stored_json(const struct result_stored *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "files", json_integer((json_int_t)t->files));
	json_object_set_new(o, "size_bytes", json_integer((json_int_t)t->size_bytes));
	json_object_set_new(o, "allocated_bytes", json_integer((json_int_t)t->allocated_bytes));
	json_object_set_new(o, "written_bytes", json_integer((json_int_t)t->written_bytes));
	json_object_set_new(o, "truncated", json_boolean(t->truncated));
	json_object_set_new(o, "reduced", json_boolean(t->reduced));
	json_object_set_new(o, "reason", t->reason ? json_string(t->reason) : json_null());
	return o;
}

static json_t *threads_json(const struct result_threads *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "measured", json_integer((json_int_t)t->n));
	json_object_set_new(o, "seconds", json_real((double)t->wall_ns / 1e9));
	json_object_set_new(o, "cpu_seconds", json_real((double)t->cpu_ns / 1e9));
	json_object_set_new(o, "runq_seconds",
			    t->runq_n == t->n ? json_real((double)t->runq_ns / 1e9) : json_null());
	json_object_set_new(o, "voluntary_switches",
			    t->csw_n == t->n ? json_integer((json_int_t)t->vcsw) : json_null());
	json_object_set_new(o, "involuntary_switches",
			    t->csw_n == t->n ? json_integer((json_int_t)t->ivcsw) : json_null());
	json_object_set_new(o, "minor_faults",
			    t->flt_n == t->n ? json_integer((json_int_t)t->minflt) : json_null());
	json_object_set_new(o, "major_faults",
			    t->flt_n == t->n ? json_integer((json_int_t)t->majflt) : json_null());
	json_object_set_new(o, "busiest_cpu_percent",
			    t->top_wall_ns ? json_real(100.0 * (double)t->top_cpu_ns /
						       (double)t->top_wall_ns)
					   : json_null());
	json_object_set_new(o, "rate_wait_seconds", json_real((double)t->rate_wait_ns / 1e9));
	json_object_set_new(o, "eventgen_rate", t->event_rate > 0 ? json_real(t->event_rate)
								  : json_null());
	json_object_set_new(o, "usable_cpus", json_integer(t->ncpus));
	json_object_set_new(o, "online_cpus", json_integer(t->ncpus_online));
	return o;
}

static const char *class_name(enum op_class c)
{
	return c == OPC_READ ? "read" : c == OPC_WRITE ? "write" : "other";
}

/* "zfs": the ZFS view (stats/zfsstat.h): per group its fields, null when
 * not known; a group none of whose fields is known is left out. */
static json_t *zfs_json(const struct result_zfs *z)
{
	json_t *o = json_object(), *g[4] = { NULL, NULL, NULL, NULL };
	double hp = zfsstat_arc_hit_percent(z);
	int64_t lb = zfsstat_zil_log_bytes(z);
	char line[1024];

	json_object_set_new(o, "kstat_root", json_string(zfsstat_root()));
	for (int f = 0; f < ZFS__NFIELDS; f++)
		if (z->have & (1ull << f) && !g[zfs_fields[f].group])
			g[zfs_fields[f].group] = json_object();
	for (int f = 0; f < ZFS__NFIELDS; f++) {
		json_t *go = g[zfs_fields[f].group];

		if (!go)
			continue;
		json_object_set_new(go, zfs_fields[f].key,
				    z->have & (1ull << f) && z->v[f] <= INT64_MAX
					    ? json_integer((json_int_t)z->v[f])
					    : json_null());
	}
	if (g[ZG_ARC])
		json_object_set_new(g[ZG_ARC], "hit_percent", hp >= 0 ? json_real(hp) : json_null());
	if (g[ZG_ZIL])
		json_object_set_new(g[ZG_ZIL], "log_bytes",
				    lb >= 0 ? json_integer((json_int_t)lb) : json_null());
	if (g[ZG_POOL])
		json_object_set_new(g[ZG_POOL], "name", json_string(z->pool));
	if (g[ZG_DATASET]) {
		json_object_set_new(g[ZG_DATASET], "name", json_string(z->dataset));
		json_object_set_new(g[ZG_DATASET], "objset", json_string(z->objset));
	}
	for (int k = 0; k < 4; k++)
		if (g[k])
			json_object_set_new(o, zfs_group_name((enum zfs_group)k), g[k]);
	zfsstat_line(z, NULL, line, sizeof(line));
	json_object_set_new(o, "text", json_string(line));
	return o;
}

static json_t *phase_json(const struct result_phase *p)
{
	json_t *o = json_object(), *ops = json_array(), *sum, *cpu = json_object();
	struct phase_totals t;
	struct result_headline h;
	double secs = p->seconds > 0 ? p->seconds : 1e-9;

	result_phase_totals(p, &t);
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "seconds", json_real(p->seconds));
	json_object_set_new(o, "threads", json_integer(p->nthreads));
	if (p->end_reason)
		json_object_set_new(o, "end_reason", json_string(p->end_reason));
	json_object_set_new(cpu, "user_seconds", json_real((double)p->cpu_user_ns / 1e9));
	json_object_set_new(cpu, "system_seconds", json_real((double)p->cpu_sys_ns / 1e9));
	json_object_set_new(o, "process_cpu", cpu);
	result_phase_headline(p, &h);
	sum = headline_json(&h, 0);
	json_object_set_new(o, "summary", sum);
	json_object_set_new(o, "too_fast", json_boolean(p->too_fast));
	if (p->too_fast_reason)
		json_object_set_new(o, "too_fast_reason", json_string(p->too_fast_reason));
	json_object_set_new(o, "warmup_seconds", json_real(p->warmup_seconds));
	json_object_set_new(o, "steady_state", p->steady_state ? json_boolean(p->steady_state > 0)
							       : json_null());
	if (p->nrepeats) {
		json_t *rep = json_array();

		for (size_t i = 0; i < p->nrepeats; i++)
			json_array_append_new(rep, headline_json(&p->repeats[i], 1));
		json_object_set_new(o, "repeats", rep);
		json_object_set_new(o, "repeat_stats", repeat_stats_json(p));
	}
	json_object_set_new(o, "device", device_json(&p->device, p->seconds, &t));
	if (p->ntargets)
		json_object_set_new(o, "targets", targets_json(p));
	if (p->has_system_cpu)
		json_object_set_new(o, "system_cpu", system_cpu_json(&p->system_cpu));
	if (p->cache.assessed)
		json_object_set_new(o, "cache", cache_json(&p->cache));
	json_object_set_new(o, "workers", threads_json(&p->threads));
	if (p->stored.checked)
		json_object_set_new(o, "stored", stored_json(&p->stored));
	if (p->zfs.present)
		json_object_set_new(o, "zfs", zfs_json(&p->zfs));
	json_object_set_new(o, "limited_by", limited_by_json(p));
	if (p->interval > 0) {
		json_object_set_new(o, "interval_seconds", json_real(p->interval));
		json_object_set_new(o, "intervals", intervals_json(p));
	}
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *r = &p->ops[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(r->name));
		json_object_set_new(j, "type", json_string(r->type));
		json_object_set_new(j, "class", json_string(class_name(r->cls)));
		json_object_set_new(j, "sync", json_boolean(r->sync));
		json_object_set_new(j, "ops", json_integer((json_int_t)r->st.ops));
		json_object_set_new(j, "ops_per_second", json_real((double)r->st.ops / secs));
		json_object_set_new(j, "errors", json_integer((json_int_t)r->st.errors));
		json_object_set_new(j, "stalls", json_integer((json_int_t)r->st.stalls));
		json_object_set_new(j, "bytes_read", json_integer((json_int_t)r->st.bytes_read));
		json_object_set_new(j, "bytes_written", json_integer((json_int_t)r->st.bytes_written));
		/* only an operation that discards has it (fsgauge io's trims) */
		if (r->st.bytes_trimmed)
			json_object_set_new(j, "bytes_trimmed",
					    json_integer((json_int_t)r->st.bytes_trimmed));
		json_object_set_new(j, "mb_per_second",
				    json_real((double)(r->st.bytes_read + r->st.bytes_written +
						       r->st.bytes_trimmed) /
					      MB / secs));
		/* null when no operation was sampled: unknown, not zero */
		json_object_set_new(j, "cpu_us_per_op", num(op_stats_cpu_per_op(&r->st) / 1e3));
		json_object_set_new(j, "cpu_samples", json_integer((json_int_t)r->st.cpu_samples));
		json_object_set_new(j, "too_fast", json_boolean(p->too_fast || result_op_too_few(r)));
		json_object_set_new(j, "latency_us", latency_json(&r->st.lat));
		json_object_set_new(j, "histogram", hist_json(&r->st.lat));
		if (r->st.split) {
			/* an asynchronous engine's requests: the latency split
			 * at the submission call's return (fio's slat, clat) */
			json_object_set_new(j, "submission_latency_us",
					    latency_json(&r->st.split->slat));
			json_object_set_new(j, "submission_histogram",
					    hist_json(&r->st.split->slat));
			json_object_set_new(j, "completion_latency_us",
					    latency_json(&r->st.split->clat));
			json_object_set_new(j, "completion_histogram",
					    hist_json(&r->st.split->clat));
		}
		if (r->st.qdepth_max)
			json_object_set_new(j, "iodepth", qdepth_json(&r->st));
		if (r->sched)
			json_object_set_new(j, "schedule", schedule_json(r->sched));
		if (!strcmp(r->type, "testrandvar")) {
			json_object_set_new(j, "sample_mean", json_real(r->extra_mean));
			json_object_set_new(j, "sample_sd", json_real(r->extra_sd));
		}
		json_array_append_new(ops, j);
	}
	json_object_set_new(o, "operations", ops);
	{
		const char *names[32];
		size_t n = engine_open_flag_names(p->open_flags, names, ARRAY_SIZE(names));
		json_t *fl = json_array(), *rq = json_object(), *mt = json_object();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(fl, json_string(names[i]));
		json_object_set_new(o, "open_flags", fl);
		for (int i = 0; i < IO__COUNT; i++)
			if (p->io_requests[i])
				json_object_set_new(rq, io_op_name((enum io_op)i),
						    json_integer((json_int_t)p->io_requests[i]));
		json_object_set_new(o, "io_requests", rq);
		for (size_t i = 0; i < p->nmetrics; i++)
			json_object_set_new(mt, p->metrics[i].name, metric_json(&p->metrics[i]));
		json_object_set_new(o, "metrics", mt);
	}
	if (p->nexecs) {
		json_t *ex = json_array();

		for (size_t i = 0; i < p->nexecs; i++) {
			const struct result_exec *x = &p->execs[i];
			json_t *j = json_object();

			json_object_set_new(j, "name", json_string(x->op));
			json_object_set_new(j, "index", json_integer((json_int_t)x->index));
			json_object_set_new(j, "thread", json_integer(x->thread));
			json_object_set_new(j, "start_seconds", json_real(x->start));
			json_object_set_new(j, "seconds", json_real(x->seconds));
			json_object_set_new(j, "ops", json_integer((json_int_t)x->ops));
			json_object_set_new(j, "bytes_written", json_integer((json_int_t)x->bytes));
			json_object_set_new(j, "errors", json_integer((json_int_t)x->errors));
			json_object_set_new(j, "complete", json_boolean(x->complete));
			json_object_set_new(j, "repeat", json_integer(x->repeat));
			json_array_append_new(ex, j);
		}
		json_object_set_new(o, "executions", ex);
	}
	return o;
}

/* An argument as a JSON string: as given when it is UTF-8 (JSON can hold
 * nothing else), else with every byte above 0x7f written as the four
 * characters \xNN, so that no argument is lost. */
static json_t *arg_json(const char *a)
{
	json_t *j = json_string(a);
	char *s;
	size_t n = 0;

	if (j)
		return j;
	s = xmalloc(4 * strlen(a) + 1);
	for (const unsigned char *p = (const unsigned char *)a; *p; p++) {
		if (*p < 0x80)
			s[n++] = (char)*p;
		else
			n += (size_t)sprintf(s + n, "\\x%02x", *p);
	}
	s[n] = 0;
	j = json_string(s);
	free(s);
	return j;
}

/* The suite's metrics table: [{name, unit, label, better}], better
 * "higher", "lower" or null. */
static json_t *metric_defs_json(const struct result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nmetric_defs; i++) {
		const struct metric_def *d = &r->metric_defs[i];
		json_t *m = json_object();

		json_object_set_new(m, "name", json_string(d->name));
		json_object_set_new(m, "unit", json_string(d->unit));
		json_object_set_new(m, "label", json_string(d->label));
		json_object_set_new(m, "better", d->better == BETTER_HIGHER  ? json_string("higher")
						 : d->better == BETTER_LOWER ? json_string("lower")
									     : json_null());
		json_array_append_new(a, m);
	}
	return a;
}

static json_t *result_json(const struct result *r)
{
	json_t *o = json_object(), *tool = json_object(), *st = json_object();
	json_t *phases = json_array(), *fsets = json_array();

	json_object_set_new(o, "schema_version", json_integer(RESULT_SCHEMA_VERSION));
	json_object_set_new(tool, "name", json_string("fsgauge"));
	json_object_set_new(tool, "version", json_string(FSGAUGE_VERSION));
	json_object_set_new(tool, "git", json_string(FSGAUGE_GITREV));
	json_object_set_new(o, "tool", tool);
	json_object_set_new(o, "suite", json_string(r->suite));
	json_object_set_new(o, "workload", json_string(r->workload));
	json_object_set_new(o, "label", r->label ? json_string(r->label) : json_null());
	json_object_set_new(o, "engine", r->engine ? json_string(r->engine) : json_null());
	json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(o, "started_at", json_string(r->started_at));
	if (r->command_line) {
		json_t *cl = json_array();

		for (size_t i = 0; i < r->ncommand_line; i++)
			json_array_append_new(cl, arg_json(r->command_line[i]));
		json_object_set_new(o, "command_line", cl);
	} else {
		json_object_set_new(o, "command_line", json_null());
	}
	if (r->workload_hash) {
		json_object_set_new(o, "workload_hash", json_string(r->workload_hash));
	} else {
		char *h = comparison_params_hash(&r->params);

		json_object_set_new(o, "workload_hash", json_string(h));
		free(h);
	}
	if (r->workload_text)
		json_object_set_new(o, "workload_text", json_string(r->workload_text));
	json_object_set_new(st, "complete", json_boolean(!r->interrupted && !r->stopped_on_error));
	json_object_set_new(st, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(st, "stopped_on_error", json_boolean(r->stopped_on_error));
	json_object_set_new(st, "errors", json_integer((json_int_t)r->errors));
	json_object_set_new(st, "verify_errors", json_integer((json_int_t)r->verify_errors));
	json_object_set_new(st, "first_error", r->first_error ? json_string(r->first_error) : json_null());
	json_object_set_new(o, "status", st);
	{
		json_t *rq = json_object();

		for (int i = 0; i < IO__COUNT && i < RESULT_IO_OPS; i++)
			if (r->io_requests[i])
				json_object_set_new(rq, io_op_name((enum io_op)i),
						    json_integer((json_int_t)r->io_requests[i]));
		json_object_set_new(o, "io_requests", rq);
	}
	json_object_set_new(o, "metric_defs", metric_defs_json(r));
	json_object_set_new(o, "parameters", kv_object(&r->params));
	json_object_set_new(o, "environment", kv_object(&r->env));
	for (size_t i = 0; i < r->nfilesets; i++) {
		const struct result_fileset *f = &r->filesets[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(f->name));
		if (f->target)
			json_object_set_new(j, "target", json_string(f->target));
		json_object_set_new(j, "entries", json_integer((json_int_t)f->entries));
		json_object_set_new(j, "preallocated", json_integer((json_int_t)f->preallocated));
		json_object_set_new(j, "bytes", json_integer((json_int_t)f->bytes));
		json_object_set_new(j, "directories", json_integer((json_int_t)f->dirs));
		json_object_set_new(j, "dirwidth", json_real(f->mean_dirwidth));
		json_object_set_new(j, "depth", json_real(f->depth));
		json_object_set_new(j, "seconds", json_real(f->seconds));
		json_array_append_new(fsets, j);
	}
	json_object_set_new(o, "filesets", fsets);
	for (size_t i = 0; i < r->nphases; i++) {
		json_t *pj = phase_json(&r->phases[i]);

		output_ranks_phase_json(pj, r, r->phases[i].name);
		json_array_append_new(phases, pj);
	}
	json_object_set_new(o, "phases", phases);
	output_ranks_json(o, r);
	return o;
}

int output_json_dump(json_t *o, const char *path, const char *what)
{
	struct outfile out;
	int ret = outfile_open(&out, path, what);

	if (ret < 0) {
		json_decref(o);
		return ret;
	}
	errno = 0;
	ret = json_dumpf(o, out.f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	if (ret == 0 && fputc('\n', out.f) == EOF)
		ret = -1;
	json_decref(o);
	if (ret < 0) {
		ret = -(errno ? errno : EIO);
		outfile_discard(&out);
		return err_errno(ret, "cannot write the %s to '%s'", what, path);
	}
	return outfile_close(&out, what);
}

int output_json_file(const struct result *r, const char *path)
{
	return output_json_dump(result_json(r), path, "JSON result");
}
