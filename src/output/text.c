/* text.c — filebench-style text output; see output.h. */
#include <string.h>

#include "output/output.h"

#define MB (1024.0 * 1024.0)

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void output_io_summary(FILE *f, const struct result_phase *p)
{
	struct phase_totals t;
	double secs = p->seconds > 0 ? p->seconds : 1e-9;
	double cpu_ns = (double)(p->cpu_user_ns + p->cpu_sys_ns);

	result_phase_totals(p, &t);
	double lat_ms = t.ops ? t.lat_sum_ns / (double)t.ops / 1e6 : 0.0;

	/* filebench's line; sub-millisecond latencies get three decimals
	 * instead of printing a meaningless 0.0ms */
	fprintf(f, "IO Summary: %llu ops %.1f ops/s, (%.0f/%.0f r/w) %.1fmb/s, %.0fus cpu/op, %.*fms latency",
		(unsigned long long)t.ops, (double)t.ops / secs, (double)t.read_ops / secs,
		(double)t.write_ops / secs, (double)(t.bytes_read + t.bytes_written) / MB / secs,
		t.ops ? cpu_ns / (double)t.ops / 1e3 : 0.0, lat_ms >= 1.0 || lat_ms == 0 ? 1 : 3,
		lat_ms);
}

static void phase_text(FILE *f, const struct result_phase *p)
{
	double secs = p->seconds > 0 ? p->seconds : 1e-9;

	fprintf(f, "Per-Operation Breakdown\n");
	fprintf(f, "%-20s %10s %12s %10s %12s %16s  %9s %9s %9s %9s %9s\n", "flowop", "ops",
		"ops/s", "mb/s", "ms/op", "us/op-cpu", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
		"max ms");
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];
		const struct hist *h = &o->st.lat;

		fprintf(f, "%-20s %7lluops %7.0fops/s %6.1fmb/s %7.3fms/op %7.0fus/op-cpu",
			o->name, (unsigned long long)o->st.ops, (double)o->st.ops / secs,
			(double)(o->st.bytes_read + o->st.bytes_written) / MB / secs,
			h->count ? hist_mean(h) / 1e6 : 0.0, op_stats_cpu_per_op(&o->st) / 1e3);
		if (h->count)
			fprintf(f, "  %9.3f %9.3f %9.3f %9.3f %9.3f", ms(hist_quantile(h, 0.5)),
				ms(hist_quantile(h, 0.9)), ms(hist_quantile(h, 0.99)),
				ms(hist_quantile(h, 0.999)), ms(h->max));
		if (o->st.errors)
			fprintf(f, "  errors=%llu", (unsigned long long)o->st.errors);
		if (o->st.stalls)
			fprintf(f, "  stalls=%llu", (unsigned long long)o->st.stalls);
		if (!strcmp(o->type, "testrandvar"))
			fprintf(f, "  mean=%.2f sd=%.2f", o->extra_mean, o->extra_sd);
		fputc('\n', f);
	}
	fputc('\n', f);
	output_io_summary(f, p);
	fputc('\n', f);
}

void output_text(FILE *f, const struct result *r)
{
	for (size_t i = 0; i < r->nphases; i++) {
		const struct result_phase *p = &r->phases[i];

		if (r->nphases > 1)
			fprintf(f, "Phase %s:\n", p->name);
		phase_text(f, p);
	}
	if (r->interrupted)
		fprintf(f, "NOTE: interrupted by a signal: these are partial results\n");
	if (r->stopped_on_error)
		fprintf(f, "NOTE: stopped at the first error (--on-error=stop): partial results\n");
	if (r->errors)
		fprintf(f, "NOTE: %llu operation errors; first: %s\n", (unsigned long long)r->errors,
			r->first_error ? r->first_error : "?");
}
