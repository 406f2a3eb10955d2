/*
 * json.c — the JSON result file, written with jansson.  The format is
 * documented in docs/json-format.md; bump RESULT_SCHEMA_VERSION when a
 * field changes meaning or disappears.
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "output/output.h"
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

static const char *class_name(enum op_class c)
{
	return c == OPC_READ ? "read" : c == OPC_WRITE ? "write" : "other";
}

static json_t *phase_json(const struct result_phase *p)
{
	json_t *o = json_object(), *ops = json_array(), *sum = json_object(), *cpu = json_object();
	struct phase_totals t;
	double secs = p->seconds > 0 ? p->seconds : 1e-9;
	double cpu_ns = (double)(p->cpu_user_ns + p->cpu_sys_ns);

	result_phase_totals(p, &t);
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "seconds", json_real(p->seconds));
	json_object_set_new(o, "threads", json_integer(p->nthreads));
	if (p->end_reason)
		json_object_set_new(o, "end_reason", json_string(p->end_reason));
	json_object_set_new(cpu, "user_seconds", json_real((double)p->cpu_user_ns / 1e9));
	json_object_set_new(cpu, "system_seconds", json_real((double)p->cpu_sys_ns / 1e9));
	json_object_set_new(o, "process_cpu", cpu);
	json_object_set_new(sum, "ops", json_integer((json_int_t)t.ops));
	json_object_set_new(sum, "ops_per_second", json_real((double)t.ops / secs));
	json_object_set_new(sum, "read_ops_per_second", json_real((double)t.read_ops / secs));
	json_object_set_new(sum, "write_ops_per_second", json_real((double)t.write_ops / secs));
	json_object_set_new(sum, "bytes_read", json_integer((json_int_t)t.bytes_read));
	json_object_set_new(sum, "bytes_written", json_integer((json_int_t)t.bytes_written));
	json_object_set_new(sum, "mb_per_second",
			    json_real((double)(t.bytes_read + t.bytes_written) / MB / secs));
	json_object_set_new(sum, "cpu_us_per_op", json_real(t.ops ? cpu_ns / (double)t.ops / 1e3 : 0));
	json_object_set_new(sum, "mean_latency_ms",
			    json_real(t.ops ? t.lat_sum_ns / (double)t.ops / 1e6 : 0));
	json_object_set_new(sum, "errors", json_integer((json_int_t)t.errors));
	json_object_set_new(o, "summary", sum);
	json_object_set_new(o, "too_fast", json_boolean(p->too_fast));
	if (p->too_fast_reason)
		json_object_set_new(o, "too_fast_reason", json_string(p->too_fast_reason));
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *r = &p->ops[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(r->name));
		json_object_set_new(j, "type", json_string(r->type));
		json_object_set_new(j, "class", json_string(class_name(r->cls)));
		json_object_set_new(j, "ops", json_integer((json_int_t)r->st.ops));
		json_object_set_new(j, "ops_per_second", json_real((double)r->st.ops / secs));
		json_object_set_new(j, "errors", json_integer((json_int_t)r->st.errors));
		json_object_set_new(j, "stalls", json_integer((json_int_t)r->st.stalls));
		json_object_set_new(j, "bytes_read", json_integer((json_int_t)r->st.bytes_read));
		json_object_set_new(j, "bytes_written", json_integer((json_int_t)r->st.bytes_written));
		json_object_set_new(j, "mb_per_second",
				    json_real((double)(r->st.bytes_read + r->st.bytes_written) / MB / secs));
		json_object_set_new(j, "cpu_us_per_op", json_real(op_stats_cpu_per_op(&r->st) / 1e3));
		json_object_set_new(j, "cpu_samples", json_integer((json_int_t)r->st.cpu_samples));
		json_object_set_new(j, "latency_us", latency_json(&r->st.lat));
		json_object_set_new(j, "histogram", hist_json(&r->st.lat));
		if (!strcmp(r->type, "testrandvar")) {
			json_object_set_new(j, "sample_mean", json_real(r->extra_mean));
			json_object_set_new(j, "sample_sd", json_real(r->extra_sd));
		}
		json_array_append_new(ops, j);
	}
	json_object_set_new(o, "operations", ops);
	return o;
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
	json_object_set_new(st, "complete", json_boolean(!r->interrupted && !r->stopped_on_error));
	json_object_set_new(st, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(st, "stopped_on_error", json_boolean(r->stopped_on_error));
	json_object_set_new(st, "errors", json_integer((json_int_t)r->errors));
	json_object_set_new(st, "first_error", r->first_error ? json_string(r->first_error) : json_null());
	json_object_set_new(o, "status", st);
	json_object_set_new(o, "parameters", kv_object(&r->params));
	json_object_set_new(o, "environment", kv_object(&r->env));
	for (size_t i = 0; i < r->nfilesets; i++) {
		const struct result_fileset *f = &r->filesets[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(f->name));
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
	for (size_t i = 0; i < r->nphases; i++)
		json_array_append_new(phases, phase_json(&r->phases[i]));
	json_object_set_new(o, "phases", phases);
	return o;
}

int output_json_file(const struct result *r, const char *path)
{
	json_t *o = result_json(r);
	int ret;

	if (!strcmp(path, "-")) {
		ret = json_dumpf(o, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
	} else {
		ret = json_dump_file(o, path, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	}
	json_decref(o);
	if (ret < 0)
		return err_errno(-(errno ? errno : EIO), "cannot write JSON result '%s'", path);
	return 0;
}
