/* text.c — filebench-style text output; see output.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "stats/insight.h"
#include "stats/zfsstat.h"
#include "util/util.h"

#define MB (1024.0 * 1024.0)

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void headline_line(FILE *f, const struct result_headline *h)
{
	double lat_ms = h->mean_latency_ms;

	/* filebench's line; sub-millisecond latencies get three decimals
	 * instead of printing a meaningless 0.0ms */
	fprintf(f, "IO Summary: %llu ops %.1f ops/s, (%.0f/%.0f r/w) %.1fmb/s, %.0fus cpu/op, %.*fms latency",
		(unsigned long long)h->ops, h->ops_per_second, h->read_ops_per_second,
		h->write_ops_per_second, h->mb_per_second, h->cpu_us_per_op,
		lat_ms >= 1.0 || lat_ms == 0 ? 1 : 3, lat_ms);
}

void output_io_summary(FILE *f, const struct result_phase *p)
{
	struct result_headline h;

	if (p->too_fast) {
		fprintf(f, "IO Summary: +++++ too fast to measure (%s)",
			p->too_fast_reason ? p->too_fast_reason : "too brief");
		return;
	}
	result_phase_headline(p, &h);
	headline_line(f, &h);
}

static void op_row(FILE *f, const struct result_op *o, double secs, int phase_too_fast)
{
	const struct hist *h = &o->st.lat;

	if (phase_too_fast || result_op_too_few(o)) {
		fprintf(f, "%-20s %7lluops  +++++ %s\n", o->name, (unsigned long long)o->st.ops,
			phase_too_fast ? "too fast to measure" : "too few operations to measure");
		return;
	}
	fprintf(f, "%-20s %7lluops %7.0fops/s %6.1fmb/s %7.3fms/op ", o->name,
		(unsigned long long)o->st.ops, (double)o->st.ops / secs,
		(double)(o->st.bytes_read + o->st.bytes_written) / MB / secs,
		h->count ? hist_mean(h) / 1e6 : 0.0);
	if (o->st.cpu_samples)
		fprintf(f, "%7.0fus/op-cpu", op_stats_cpu_per_op(&o->st) / 1e3);
	else
		fprintf(f, "%7sus/op-cpu", "-"); /* no operation was CPU-sampled */
	if (h->count)
		fprintf(f, "  %9.3f %9.3f %9.3f %9.3f %9.3f", ms(hist_quantile(h, 0.5)),
			ms(hist_quantile(h, 0.9)), ms(hist_quantile(h, 0.99)),
			ms(hist_quantile(h, 0.999)), ms(h->max));
	if (o->st.errors)
		fprintf(f, "  errors=%llu", (unsigned long long)o->st.errors);
	if (o->st.stalls)
		fprintf(f, "  stalls=%llu", (unsigned long long)o->st.stalls);
	if (o->st.qdepth_max) /* iodepth=: the most requests in flight at once */
		fprintf(f, "  iodepth max=%llu", (unsigned long long)o->st.qdepth_max);
	if (!strcmp(o->type, "testrandvar"))
		fprintf(f, "  mean=%.2f sd=%.2f", o->extra_mean, o->extra_sd);
	fputc('\n', f);
	if (o->sched && o->sched->lat.count) {
		/* rate_iops=, rate=: the latency from each request's scheduled
		 * time, what a client of the open-loop schedule waited */
		const struct hist *s = &o->sched->lat;

		char late[32];

		snprintf(late, sizeof(late), "late=%llu", (unsigned long long)o->sched->late);
		fprintf(f, "%-20s %7lluops %-25s%7.3fms/op %15s", "  from schedule",
			(unsigned long long)o->sched->ops, late, hist_mean(s) / 1e6, "");
		fprintf(f, "  %9.3f %9.3f %9.3f %9.3f %9.3f\n", ms(hist_quantile(s, 0.5)),
			ms(hist_quantile(s, 0.9)), ms(hist_quantile(s, 0.99)),
			ms(hist_quantile(s, 0.999)), ms(s->max));
	}
}

static void repeats_text(FILE *f, const struct result_phase *p)
{
	/* every latency in ms, as the breakdown and the IO Summary print
	 * them; the JSON keeps p99_latency_us, scaled here for display */
	static const struct {
		const char *label;
		double scale;
	} show[] = { { "ops/s", 1 },	 { "mb/s", 1 },	      { "latency ms", 1 },
		     { "p99 ms", 1e-3 }, { "us cpu/op", 1 },  { "read ops/s", 1 },
		     { "write ops/s", 1 } };

	for (size_t i = 0; i < p->nrepeats; i++) {
		fprintf(f, "run %zu: ", i + 1);
		if (p->repeats[i].too_fast)
			fprintf(f, "IO Summary: +++++ too fast to measure");
		else
			headline_line(f, &p->repeats[i]);
		fputc('\n', f);
	}
	if (p->too_fast)
		return;
	fprintf(f, "mean ± 95%% confidence interval over %zu runs (Student t, %zu df):\n",
		p->nrepeats, p->nrepeats - 1);
	for (size_t k = 0; headline_fields[k].name; k++) {
		struct repeat_stat rs;
		int known = k < sizeof(show) / sizeof(show[0]);
		double x = known ? show[k].scale : 1;

		result_repeat_stat(p, &headline_fields[k], &rs);
		/* the bounds too: a rate or a latency cannot go below 0, where
		 * mean - half-width can when the runs scatter */
		fprintf(f, "  %-12s %12.3f ± %-10.3f (%.3f to %.3f; sd %.3f, cv %.1f%%)\n",
			known ? show[k].label : headline_fields[k].name, rs.mean * x,
			isnan(rs.ci95_high) ? 0.0 : (rs.ci95_high - rs.mean) * x,
			(isnan(rs.ci95_low) ? rs.mean : rs.ci95_low) * x,
			(isnan(rs.ci95_high) ? rs.mean : rs.ci95_high) * x, rs.sd * x, rs.cv * 100.0);
	}
}

/* What the devices of d did over secs, after `lead` ("Devices",
 * "  target 2 '/b' (ext4): devices"), against what the application moved
 * (t). */
static void device_line(FILE *f, const char *lead, const struct result_device *d, double secs,
			const struct phase_totals *t)
{
	struct dev_figures fg;

	if (d->none) {
		fprintf(f, "%s: none (%s)\n", lead, d->none);
		return;
	}
	if (!d->ndev)
		return;
	dev_io_figures(&d->total, secs, d->ndev, &fg);
	fprintf(f, "%s (", lead);
	for (size_t i = 0; i < d->ndev; i++)
		fprintf(f, "%s%s", i ? " " : "", d->names[i]);
	fprintf(f, "): %llu reads %.1f MiB, %llu writes %.1f MiB, util %.0f%%, queue %.2f",
		(unsigned long long)d->total.reads, (double)d->total.bytes_read / MB,
		(unsigned long long)d->total.writes, (double)d->total.bytes_written / MB,
		fg.utilization, fg.queue);
	if (t->bytes_written)
		fprintf(f, ", write amplification %.2f",
			(double)d->total.bytes_written / (double)t->bytes_written);
	if (t->read_ops)
		fprintf(f, ", read ops amplification %.2f",
			(double)d->total.reads / (double)t->read_ops);
	fputc('\n', f);
}

/* The phase's devices; with several targets, then each target's own
 * (its devices against the operations on its files). */
static void device_text(FILE *f, const struct result_phase *p)
{
	double secs = p->seconds > 0 ? p->seconds : 1e-9;
	struct phase_totals t;

	result_phase_totals(p, &t);
	device_line(f, "Devices", &p->device, secs, &t);
	for (size_t k = 0; k < p->ntargets; k++) {
		const struct result_target *tg = &p->targets[k];
		struct phase_totals tt = { .read_ops = tg->read_ops,
					   .bytes_read = tg->bytes_read,
					   .bytes_written = tg->bytes_written };
		char lead[4200];

		snprintf(lead, sizeof(lead), "  target %zu '%s'%s%s%s: devices", k + 1, tg->path,
			 tg->fstype ? " (" : "", tg->fstype ? tg->fstype : "", tg->fstype ? ")" : "");
		device_line(f, lead, &tg->device, secs, &tt);
	}
}

static void system_cpu_text(FILE *f, const struct result_phase *p)
{
	const struct cpu_times *c = &p->system_cpu;
	double tot = (double)(c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
			      c->softirq + c->steal);

	if (!p->has_system_cpu || tot <= 0)
		return;
	fprintf(f, "System CPU: user %.1f%%, nice %.1f%%, system %.1f%%, iowait %.1f%%, irq %.1f%%, "
		   "softirq %.1f%%, steal %.1f%%, idle %.1f%%\n",
		100.0 * (double)c->user / tot, 100.0 * (double)c->nice / tot,
		100.0 * (double)c->system / tot, 100.0 * (double)c->iowait / tot,
		100.0 * (double)c->irq / tot, 100.0 * (double)c->softirq / tot,
		100.0 * (double)c->steal / tot, 100.0 * (double)c->idle / tot);
}

static void phase_text(FILE *f, const struct result_phase *p, const struct kvlist *env,
		       unsigned flags)
{
	double secs = p->seconds > 0 ? p->seconds : 1e-9;

	if (p->nrepeats)
		fprintf(f, "Per-Operation Breakdown (all %zu runs)\n", p->nrepeats);
	else
		fprintf(f, "Per-Operation Breakdown\n");
	fprintf(f, "%-20s %10s %12s %10s %12s %16s  %9s %9s %9s %9s %9s\n", "flowop", "ops",
		"ops/s", "mb/s", "ms/op", "us/op-cpu", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
		"max ms");
	for (size_t i = 0; i < p->nops; i++)
		op_row(f, &p->ops[flags & OUTPUT_TEXT_FILEBENCH_ORDER ? p->nops - 1 - i : i], secs,
		       p->too_fast);
	fputc('\n', f);
	if (p->nrepeats)
		repeats_text(f, p);
	output_io_summary(f, p);
	if (p->nrepeats)
		fprintf(f, " (all runs)");
	fputc('\n', f);
	if (p->warmup_seconds > 0 || p->steady_state)
		fprintf(f, "Warm-up: %.1f s excluded%s\n", p->warmup_seconds,
			p->steady_state > 0	? " (steady state reached)"
			: p->steady_state < 0 ? " (steady state NOT reached: the whole allowed warm-up)"
					      : "");
	device_text(f, p);
	system_cpu_text(f, p);
	output_cache_warnings(f, p, NULL, NULL);
	output_zfs(f, p, env, "");
	output_limited_by(f, p, "");
}

int output_cache_warnings(FILE *f, const struct result_phase *p, const char *indent,
			  const char *what)
{
	const char *in = indent ? indent : "", *sep = what ? ": " : "", *w = what ? what : "";
	int n = 0;

	if (p->cache.assessed && p->cache.likely_cached) {
		fprintf(f, "%sWARNING: %s%sreads were likely served from memory, not the storage: %s\n",
			in, w, sep, p->cache.reason ? p->cache.reason : "");
		n++;
	}
	if (p->cache.writes_absorbed) {
		fprintf(f,
			"%sWARNING: %s%swrites were likely absorbed by the page cache, not the "
			"storage: %s\n",
			in, w, sep, p->cache.write_reason ? p->cache.write_reason : "");
		n++;
	}
	if (p->cache.rate_implausible) {
		fprintf(f, "%sWARNING: %s%simplausible rate: %s\n", in, w, sep,
			p->cache.rate_reason ? p->cache.rate_reason : "");
		n++;
	}
	if (p->stored.reduced) {
		fprintf(f, "%sWARNING: %s%s%s\n", in, w, sep, p->stored.reason);
		n++;
	}
	return n;
}

void output_limited_by(FILE *f, const struct result_phase *p, const char *prefix)
{
	struct insight in;
	char line[2048];

	insight_assess(p, &in);
	insight_line(&in, line, sizeof(line));
	fprintf(f, "%slimited by: %s\n", prefix, line);
}

void output_zfs(FILE *f, const struct result_phase *p, const struct kvlist *env,
		const char *prefix)
{
	char line[1536];

	if (!p->zfs.present)
		return;
	zfsstat_line(&p->zfs, env, line, sizeof(line));
	fprintf(f, "%sZFS: %s\n", prefix, line);
}

void output_limited_by_all(FILE *f, const struct result *r)
{
	for (size_t i = 0; i < r->nphases; i++) {
		char *pre = r->nphases > 1 ? xasprintf("phase %s: ", r->phases[i].name) : NULL;

		output_limited_by(f, &r->phases[i], pre ? pre : "");
		output_zfs(f, &r->phases[i], &r->env, pre ? pre : "");
		free(pre);
	}
}

void output_text(FILE *f, const struct result *r)
{
	output_text_flags(f, r, 0);
}

void output_text_flags(FILE *f, const struct result *r, unsigned flags)
{
	for (size_t i = 0; i < r->nphases; i++) {
		const struct result_phase *p = &r->phases[i];

		if (r->nphases > 1)
			fprintf(f, "Phase %s:\n", p->name);
		phase_text(f, p, &r->env, flags);
	}
	if (r->interrupted)
		fprintf(f, "NOTE: interrupted by a signal: these are partial results\n");
	if (r->stopped_on_error)
		fprintf(f, "NOTE: stopped at the first error (--on-error=stop): partial results\n");
	if (r->verify_errors)
		fprintf(f, "NOTE: %llu blocks failed verification\n",
			(unsigned long long)r->verify_errors);
	if (r->errors)
		fprintf(f, "NOTE: %llu operation errors; first: %s\n", (unsigned long long)r->errors,
			r->first_error ? r->first_error : "?");
}
