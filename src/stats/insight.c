/* insight.c — the "limited by" verdict of a phase; see insight.h and
 * docs/insight.md. */
#include "stats/insight.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stats/sysstat.h"
#include "util/util.h"

static const struct {
	const char *name, *label;
} kinds[INSIGHT__COUNT] = {
	[INSIGHT_UNDETERMINED] = { "undetermined", "undetermined" },
	[INSIGHT_RATE] = { "rate_limit", "rate limit" },
	[INSIGHT_SELF] = { "fsgauge", "fsgauge itself" },
	[INSIGHT_CACHE] = { "page_cache", "page cache" },
	[INSIGHT_SYNC] = { "sync_latency", "synchronous latency" },
	[INSIGHT_DEVICE] = { "device", "device" },
	[INSIGHT_CONTENTION] = { "contention", "contention" },
	[INSIGHT_CPU] = { "cpu", "cpu" },
};

/* The order in which a holding rule becomes the verdict. */
static const enum insight_kind order[] = { INSIGHT_RATE,   INSIGHT_SELF,  INSIGHT_SYNC,
					   INSIGHT_DEVICE,  INSIGHT_CONTENTION,
					   INSIGHT_CACHE,   INSIGHT_CPU };

const char *insight_name(enum insight_kind k)
{
	return k >= 0 && k < INSIGHT__COUNT ? kinds[k].name : "undetermined";
}

int insight_kind_of(const char *name)
{
	for (int k = 0; k < INSIGHT__COUNT; k++)
		if (name && !strcmp(kinds[k].name, name))
			return k;
	return -1;
}

static void fig(struct insight_rule *r, const char *name, double v)
{
	if (r->nfig < INSIGHT_MAX_FIGURES) {
		r->fig[r->nfig].name = name;
		r->fig[r->nfig].value = v;
		r->nfig++;
	}
}

/* r judged: value against threshold (>=), in percent. */
static void judge(struct insight_rule *r, double value, double threshold)
{
	r->evaluated = 1;
	r->value = value;
	r->threshold = threshold;
	r->holds = value >= threshold;
}

/* The workers' time in the window (ns): measured, or threads x seconds. */
static double thread_time_ns(const struct result_phase *p)
{
	if (p->threads.n && p->threads.wall_ns)
		return (double)p->threads.wall_ns;
	return (double)(p->nthreads > 0 ? p->nthreads : 1) * p->seconds * 1e9;
}

static double pct(double part, double whole)
{
	return whole > 0 ? MIN(100.0 * part / whole, 100.0) : 0.0;
}

static uint64_t ops_total(const struct result_phase *p)
{
	struct phase_totals t;

	result_phase_totals(p, &t);
	return t.ops;
}

/* rate_iops=, rate=: the scheduled operations' rate and late count. */
static const struct result_op *scheduled_op(const struct result_phase *p, uint64_t *ops,
					    uint64_t *late)
{
	const struct result_op *first = NULL;

	*ops = *late = 0;
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].sched) {
			first = first ? first : &p->ops[i];
			*ops += p->ops[i].sched->ops;
			*late += p->ops[i].sched->late;
		}
	return first;
}

static void rule_rate(const struct result_phase *p, struct insight_rule *r)
{
	uint64_t ops, late;
	const struct result_op *so = scheduled_op(p, &ops, &late);
	double share = pct((double)p->threads.rate_wait_ns, thread_time_ns(p));
	int n;

	if (!so && p->threads.event_rate <= 0)
		return;
	judge(r, share, INSIGHT_RATE_WAIT);
	fig(r, "wait_percent", share);
	n = snprintf(r->evidence, sizeof(r->evidence),
		     "the workers slept for their rate cap %.0f%% of their time", share);
	if (p->threads.event_rate > 0) {
		snprintf(r->part, sizeof(r->part), "eventgen");
		fig(r, "event_rate", p->threads.event_rate);
		snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			 " (eventgen rate %g/s; %.1f ops/s done)", p->threads.event_rate,
			 p->seconds > 0 ? (double)ops_total(p) / p->seconds : 0.0);
	} else {
		snprintf(r->part, sizeof(r->part), "%s", so->name);
		fig(r, "scheduled_ops_per_second", p->seconds > 0 ? (double)ops / p->seconds : 0);
		fig(r, "late", (double)late);
		snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			 " (%s's schedule: %.1f ops/s, %llu of %llu late)", so->name,
			 p->seconds > 0 ? (double)ops / p->seconds : 0.0, (unsigned long long)late,
			 (unsigned long long)ops);
	}
}

/* Of the workers' time, the share on a CPU and the share runnable but
 * waiting for one (percent; runq NAN when schedstat was not read for
 * every worker). */
static void workers_cpu(const struct result_phase *p, double *on, double *runq)
{
	const struct result_threads *t = &p->threads;

	*on = t->n && t->wall_ns ? pct((double)t->cpu_ns, (double)t->wall_ns) : NAN;
	*runq = t->n && t->wall_ns && t->runq_n == t->n ? pct((double)t->runq_ns, (double)t->wall_ns)
							: NAN;
}

/* on + runq: the workers' time spent running or ready to run. */
static double workers_bound(double on, double runq)
{
	return isnan(on) ? NAN : MIN(on + (isnan(runq) ? 0 : runq), 100.0);
}

static void rule_self(const struct result_phase *p, struct insight_rule *r)
{
	double on, runq, bound, proc = (double)(p->cpu_user_ns + p->cpu_sys_ns), user, share;

	workers_cpu(p, &on, &runq);
	bound = workers_bound(on, runq);
	if (isnan(bound) || proc <= 0)
		return;
	user = pct((double)p->cpu_user_ns, proc);
	share = user * bound / 100.0;
	judge(r, share, INSIGHT_SELF_SHARE);
	snprintf(r->part, sizeof(r->part), "user time");
	fig(r, "share_percent", share);
	fig(r, "user_percent_of_cpu", user);
	fig(r, "workers_cpu_bound_percent", bound);
	fig(r, "user_seconds", (double)p->cpu_user_ns / 1e9);
	fig(r, "system_seconds", (double)p->cpu_sys_ns / 1e9);
	snprintf(r->evidence, sizeof(r->evidence),
		 "the workers were on a CPU or waiting for one %.0f%% of their time, and %.0f%% of "
		 "the process's CPU time was fsgauge's own code (user %.2f s, system %.2f s): "
		 "%.0f%% of the workers' time",
		 bound, user, (double)p->cpu_user_ns / 1e9, (double)p->cpu_sys_ns / 1e9, share);
}

/* The cache warnings, joined: reads, writes, rate. */
static void cache_words(const struct result_cache *c, struct insight_rule *r)
{
	size_t n = 0;
	const char *what[3] = { NULL, NULL, NULL }, *why[3];

	if (c->likely_cached)
		what[n] = "reads", why[n++] = c->reason;
	if (c->writes_absorbed)
		what[n] = "writes", why[n++] = c->write_reason;
	if (c->rate_implausible)
		what[n] = "rate", why[n++] = c->rate_reason;
	for (size_t i = 0, len = 0; i < n && len < sizeof(r->evidence); i++) {
		if (i == 0)
			snprintf(r->part, sizeof(r->part), "%s", what[i]);
		len += (size_t)snprintf(r->evidence + len, sizeof(r->evidence) - len, "%s%s: %s",
					i ? "; " : "", what[i], why[i] ? why[i] : "");
	}
}

static void rule_cache(const struct result_phase *p, struct insight_rule *r)
{
	const struct result_cache *c = &p->cache;
	int warned = c->likely_cached || c->writes_absorbed || c->rate_implausible;

	if (!c->assessed)
		return;
	r->evaluated = 1;
	r->value = r->threshold = NAN;
	r->holds = warned && !c->memory_fs;
	fig(r, "reads_from_memory", c->likely_cached);
	fig(r, "writes_absorbed", c->writes_absorbed);
	fig(r, "rate_implausible", c->rate_implausible);
	if (warned)
		cache_words(c, r);
	if (warned && c->memory_fs) {
		size_t l = strlen(r->evidence);

		snprintf(r->evidence + l, sizeof(r->evidence) - l,
			 " (no storage behind the file system: not a verdict)");
	} else if (!warned) {
		snprintf(r->evidence, sizeof(r->evidence), "no cache warning");
	}
}

/* The synchronous operation with the most time (NULL: none); *sum: all
 * synchronous operations' time (ns). */
static const struct result_op *sync_top(const struct result_phase *p, double *sum)
{
	const struct result_op *top = NULL;

	*sum = 0;
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];

		if (!o->sync || !o->st.lat.count)
			continue;
		*sum += (double)o->st.lat.sum;
		if (!top || o->st.lat.sum > top->st.lat.sum)
			top = o;
	}
	return top;
}

/* The devices written in the phase: all "hdd"?  Their write requests into
 * *writes, the first one's index into *first; the reason when not. */
static const char *written_hdd(const struct result_phase *p, uint64_t *writes, size_t *first,
			       char *buf, size_t len)
{
	const struct result_device *d = &p->device;
	size_t n = 0;

	*writes = 0;
	if (d->none || !d->ndev)
		return "no block device under the target";
	if (!d->info)
		return "the devices' class is not known";
	for (size_t i = 0; i < d->ndev; i++) {
		if (!d->per[i].writes)
			continue;
		if (strcmp(d->info[i].class, "hdd")) {
			snprintf(buf, len, "%s was written and is %s, not a rotating disk%s",
				 d->names[i], d->info[i].class[0] ? d->info[i].class : "unknown",
				 d->info[i].rotational == 1 ? " (it says rotational)" : "");
			return buf;
		}
		if (!n++)
			*first = i;
		*writes += d->per[i].writes;
	}
	return n ? NULL : "no write reached a device";
}

static void rule_flush(const struct result_phase *p, struct insight_flush *f)
{
	const struct result_op *top;
	struct phase_totals t;
	const char *why;
	size_t first = 0;
	double sum;
	char buf[160];

	top = sync_top(p, &sum);
	if (!top)
		return;
	f->present = 1;
	snprintf(f->op, sizeof(f->op), "%s", top->name);
	snprintf(f->type, sizeof(f->type), "%s", top->type);
	f->p50_us = (double)hist_quantile(&top->st.lat, 0.5) / 1e3;
	f->calls = top->st.ops;
	result_phase_totals(p, &t);
	why = written_hdd(p, &f->device_writes, &first, buf, sizeof(buf));
	if (!why && f->device_writes)
		snprintf(f->device, sizeof(f->device), "%s", p->device.names[first]);
	if (!why && top->st.ops < INSIGHT_FLUSH_MIN_OPS)
		why = "too few synchronous calls";
	else if (!why && !t.bytes_written)
		why = "the phase wrote nothing";
	else if (!why && f->device_writes * 2 < f->calls)
		why = "fewer device writes than half the synchronous calls";
	if (why) {
		snprintf(f->evidence, sizeof(f->evidence), "not judged: %s", why);
		return;
	}
	f->judged = 1;
	f->implausible = f->p50_us < INSIGHT_FLUSH_HDD_US;
	if (!f->implausible) {
		snprintf(f->evidence, sizeof(f->evidence),
			 "p50 %s %.0f us on rotational %s: plausible for a flush that reaches the "
			 "platter",
			 f->type, f->p50_us, f->device);
		return;
	}
	snprintf(f->evidence, sizeof(f->evidence),
		 "p50 %s %.0f us on rotational %s: a volatile write cache is acknowledging "
		 "flushes (cache-nonvolatile, a write-back RAID controller, or a disk's write cache "
		 "without barriers); a flush that reaches a platter takes a millisecond or more "
		 "(%s: %llu calls, %s: %llu write requests in the phase)",
		 f->type, f->p50_us, f->device, f->op, (unsigned long long)f->calls, f->device,
		 (unsigned long long)f->device_writes);
}

/* The flush requests the devices under the target completed in the phase
 * (/proc/diskstats, kernel 5.5+), appended to the synchronous rule's
 * evidence: whether the fsyncs reached the devices as flushes, how often,
 * and what each cost there.  Nothing when unknown. */
static void sync_flushes(const struct result_phase *p, struct insight_rule *r)
{
	const struct result_device *d = &p->device;
	size_t len = strlen(r->evidence);
	char who[64];

	if (d->none || !d->ndev || d->total.no_flush || !(p->seconds > 0))
		return;
	if (d->ndev == 1)
		snprintf(who, sizeof(who), "%s", d->names[0]);
	else
		snprintf(who, sizeof(who), "the %zu devices", d->ndev);
	fig(r, "device_flushes", (double)d->total.flushes);
	fig(r, "device_flushes_per_second", (double)d->total.flushes / p->seconds);
	if (!d->total.flushes) {
		snprintf(r->evidence + len, sizeof(r->evidence) - len, "; %s: no flush requests",
			 who);
		return;
	}
	fig(r, "device_flush_ms", (double)d->total.flush_ms / (double)d->total.flushes);
	snprintf(r->evidence + len, sizeof(r->evidence) - len,
		 "; %s: %llu flush requests (%.1f/s, %.3f ms each)", who,
		 (unsigned long long)d->total.flushes, (double)d->total.flushes / p->seconds,
		 (double)d->total.flush_ms / (double)d->total.flushes);
}

static void rule_sync(const struct result_phase *p, struct insight_rule *r)
{
	const struct result_op *top;
	double sum, share, p50;

	top = sync_top(p, &sum);
	if (!top)
		return;
	share = pct(sum, thread_time_ns(p));
	p50 = (double)hist_quantile(&top->st.lat, 0.5) / 1e6;
	judge(r, share, INSIGHT_SYNC_SHARE);
	snprintf(r->part, sizeof(r->part), "%s", top->name);
	fig(r, "share_percent", share);
	fig(r, "p50_ms", p50);
	fig(r, "ops", (double)top->st.ops);
	fig(r, "ops_per_second", p->seconds > 0 ? (double)top->st.ops / p->seconds : 0);
	snprintf(r->evidence, sizeof(r->evidence),
		 "the workers spent %.0f%% of their time in synchronous operations; most in %s "
		 "(%s: %llu calls, p50 %.3f ms, %.1f/s)",
		 share, top->name, top->type, (unsigned long long)top->st.ops, p50,
		 p->seconds > 0 ? (double)top->st.ops / p->seconds : 0.0);
	sync_flushes(p, r);
}

/* Device i of the phase: its figures into r (busy, queue, times; its
 * flush requests count as requests: dev_io_figures()), the times per
 * request 0 without a request. */
static void device_words(const struct result_phase *p, size_t i, double busy,
			 struct insight_rule *r)
{
	struct dev_figures fg;
	double queue, svc, await, mb;

	dev_io_figures(&p->device.per[i], p->seconds, 1, &fg);
	queue = fg.queue;
	svc = isnan(fg.service_ms) ? 0 : fg.service_ms;
	await = isnan(fg.await_ms) ? 0 : fg.await_ms;
	mb = fg.mib_per_second;

	snprintf(r->part, sizeof(r->part), "%s", p->device.names[i]);
	fig(r, "busy_percent", busy);
	fig(r, "queue_depth", queue);
	fig(r, "service_ms", svc);
	fig(r, "await_ms", await);
	fig(r, "requests_per_second", fg.requests_per_second);
	fig(r, "mib_per_second", mb);
	snprintf(r->evidence, sizeof(r->evidence),
		 "%s was busy %.0f%% of the phase: queue depth %.2f, %.3f ms of service and "
		 "%.3f ms in all per request, %.0f requests/s, %.1f MiB/s",
		 p->device.names[i], busy, queue, svc, await, fg.requests_per_second, mb);
}

static void rule_device(const struct result_phase *p, struct insight_rule *r)
{
	double best = -1;
	size_t bi = 0;

	if (p->device.none || !p->device.ndev || p->seconds <= 0)
		return;
	for (size_t i = 0; i < p->device.ndev; i++) {
		double u = dev_io_utilization(&p->device.per[i], p->seconds, 1);

		if (u > best)
			best = u, bi = i;
	}
	judge(r, best, INSIGHT_DEVICE_BUSY);
	device_words(p, bi, best, r);
}

/* The contention rule's figures (ns of the workers' time, summed). */
struct contention_figs {
	double wall, asleep;	/* their time; of it off a CPU and not runnable */
	double designed;	/* asleep by design: rate caps, delay, semblock, block */
	double dev;		/* the devices' busy share of the phase, summed (%, <= 100) */
	double explained;	/* of the sleep, what device I/O can account for */
	double blocked;		/* the rest: waiting for each other */
	double stall_ns;	/* of it, the fileset stalls' sleeps */
	double op_ns;		/* the time inside operations (not by design) */
	const struct result_op *top;	/* the most time (not by design) */
	const struct result_op *stalls; /* the most stalls */
};

static int designed_sleep(const struct result_op *o)
{
	return !strcmp(o->type, "delay") || !strcmp(o->type, "semblock") ||
	       !strcmp(o->type, "block");
}

static void contention_figs(const struct result_phase *p, struct contention_figs *f)
{
	const struct result_threads *t = &p->threads;

	memset(f, 0, sizeof(*f));
	f->wall = (double)t->wall_ns;
	f->asleep = MAX(f->wall - (double)t->cpu_ns - (double)t->runq_ns, 0.0);
	f->designed = (double)t->rate_wait_ns;
	for (size_t i = 0; i < p->nops; i++) {
		const struct result_op *o = &p->ops[i];

		if (designed_sleep(o)) {
			f->designed += (double)o->st.lat.sum;
			continue;
		}
		f->op_ns += (double)o->st.lat.sum;
		f->stall_ns += (double)o->st.stalls * (double)RESULT_STALL_SLEEP_NS;
		if (o->st.stalls && (!f->stalls || o->st.stalls > f->stalls->st.stalls))
			f->stalls = o;
		if (o->st.ops && (!f->top || o->st.lat.sum > f->top->st.lat.sum))
			f->top = o;
	}
	for (size_t i = 0; !p->device.none && i < p->device.ndev; i++)
		f->dev += dev_io_utilization(&p->device.per[i], p->seconds, 1);
	f->dev = MIN(f->dev, 100.0);
	/* a worker waits for a device only while it has a request in flight:
	 * each worker's I/O wait is at most the devices' busy time */
	f->explained = MIN(MAX(f->asleep - f->designed, 0.0), f->wall * f->dev / 100.0);
	f->blocked = MAX(f->asleep - f->designed - f->explained, 0.0);
	/* a worker sleeps on another inside an operation, or stalled for a
	 * fileset entry: no more than that time */
	f->blocked = MIN(f->blocked, f->op_ns + f->stall_ns);
	f->stall_ns = MIN(f->stall_ns, f->blocked);
}

static void rule_contention(const struct result_phase *p, struct insight_rule *r)
{
	const struct result_threads *t = &p->threads;
	struct contention_figs f;
	uint64_t ops = ops_total(p);
	double share, vpo = NAN;
	const struct result_op *o;
	int n;

	/* the sleep must be split into run queue and not (schedstat), and the
	 * waits must be local: on NFS or FUSE they may be the network's */
	if (!t->n || !t->wall_ns || t->runq_n != t->n ||
	    !(p->cache.memory_fs || (p->device.ndev && !p->device.none)))
		return;
	contention_figs(p, &f);
	share = pct(f.blocked, f.wall - f.designed);
	if (t->csw_n == t->n && ops)
		vpo = (double)t->vcsw / (double)ops;
	judge(r, share, INSIGHT_CONTENTION_SHARE);
	/* the part: the flowop that stalled, when the stalls are most of it */
	o = f.stalls && f.stall_ns * 2 >= f.blocked ? f.stalls : f.top;
	snprintf(r->part, sizeof(r->part), "%s", o ? o->name : "workers");
	fig(r, "share_percent", share);
	fig(r, "asleep_percent", pct(f.asleep, f.wall));
	fig(r, "device_busy_percent", f.dev);
	fig(r, "designed_sleep_percent", pct(f.designed, f.wall));
	fig(r, "voluntary_switches_per_op", vpo);
	fig(r, "stall_sleep_percent", pct(f.stall_ns, f.wall));
	n = snprintf(r->evidence, sizeof(r->evidence),
		     "the workers were asleep %.0f%% of their time with no device I/O to explain "
		     "it (on a CPU %.0f%%, waiting for one %.0f%%, ",
		     share, pct((double)t->cpu_ns, f.wall), pct((double)t->runq_ns, f.wall));
	if (p->device.ndev && !p->device.none)
		n += snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			      "the devices busy %.0f%% of the phase)", f.dev);
	else
		n += snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			      "no device behind the file system)");
	if (!isnan(vpo))
		n += snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			      "; %.2f voluntary context switches per operation", vpo);
	if (o && o == f.stalls && f.stall_ns * 2 >= f.blocked)
		snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			 "; %s found no free fileset entry %llu times (%.1f s asleep of their %.1f s)",
			 o->name, (unsigned long long)o->st.stalls, f.stall_ns / 1e9, f.wall / 1e9);
	else if (o)
		snprintf(r->evidence + n, sizeof(r->evidence) - (size_t)n,
			 "; most time in %s (%s: %llu calls, p50 %.3f ms, p99 %.3f ms)", o->name,
			 o->type, (unsigned long long)o->st.ops,
			 (double)hist_quantile(&o->st.lat, 0.5) / 1e6,
			 (double)hist_quantile(&o->st.lat, 0.99) / 1e6);
}

/* Which part of the busy CPU time: user, system, softirq (irq too), steal. */
static const char *cpu_part(const struct cpu_times *c, double *share)
{
	const char *name[] = { "user", "system", "softirq", "steal" };
	double v[] = { (double)(c->user + c->nice), (double)c->system,
		       (double)(c->irq + c->softirq), (double)c->steal };
	size_t best = 0;

	for (size_t i = 1; i < ARRAY_SIZE(v); i++)
		if (v[i] > v[best])
			best = i;
	*share = v[best];
	return name[best];
}

/* The CPU rule's figures. */
struct cpu_figs {
	double sys;	  /* usable CPUs busy, percent (0 unknown) */
	double busy_cpus; /* CPUs busy, all processes */
	double own;	  /* CPUs this process used */
	double thr;	  /* busiest worker, percent of a core */
	double on, runq, bound; /* the workers' time (workers_cpu()) */
	unsigned ncpus, online;
};

static void cpu_figs(const struct result_phase *p, struct cpu_figs *f)
{
	const struct cpu_times *c = &p->system_cpu;
	const struct result_threads *t = &p->threads;
	double tot = (double)cpu_times_total(c), busy = tot - (double)(c->idle + c->iowait);

	memset(f, 0, sizeof(*f));
	f->ncpus = t->ncpus ? t->ncpus : 1;
	f->online = t->ncpus_online ? t->ncpus_online : f->ncpus;
	f->busy_cpus = p->has_system_cpu && tot > 0 ? busy / tot * f->online : 0;
	f->sys = MIN(100.0 * f->busy_cpus / f->ncpus, 100.0);
	f->own = (double)(p->cpu_user_ns + p->cpu_sys_ns) / 1e9 / p->seconds;
	f->thr = t->top_wall_ns ? pct((double)t->top_cpu_ns, (double)t->top_wall_ns) : 0;
	workers_cpu(p, &f->on, &f->runq);
	f->bound = workers_bound(f->on, f->runq);
}

/* Which part: the system's (other processes, or its largest kind), the
 * workers' (waiting for a CPU, or their own larger mode), one thread. */
static const char *cpu_which(const struct result_phase *p, const struct cpu_figs *f)
{
	double ticks;

	if (f->sys >= INSIGHT_CPU_BUSY && f->own < f->busy_cpus * INSIGHT_OTHERS_SHARE / 100.0)
		return "other processes";
	if (f->sys >= INSIGHT_CPU_BUSY)
		return cpu_part(&p->system_cpu, &ticks);
	if (f->bound >= INSIGHT_CPU_BUSY && !isnan(f->runq) && f->runq > f->on)
		return "waiting for a CPU";
	if (f->bound >= INSIGHT_CPU_BUSY)
		return p->cpu_sys_ns >= p->cpu_user_ns ? "system" : "user";
	return "one thread";
}

static void rule_cpu(const struct result_phase *p, struct insight_rule *r)
{
	const struct cpu_times *c = &p->system_cpu;
	double tot = (double)cpu_times_total(c);
	struct cpu_figs f;

	if (!p->has_system_cpu && !p->threads.n)
		return;
	cpu_figs(p, &f);
	judge(r, MAX(MAX(f.sys, f.thr), isnan(f.bound) ? 0 : f.bound), INSIGHT_CPU_BUSY);
	snprintf(r->part, sizeof(r->part), "%s", cpu_which(p, &f));
	fig(r, "busy_percent", f.sys);
	fig(r, "user_percent", pct((double)(c->user + c->nice), tot));
	fig(r, "system_percent", pct((double)c->system, tot));
	fig(r, "softirq_percent", pct((double)(c->irq + c->softirq), tot));
	fig(r, "process_cpus", f.own);
	fig(r, "workers_on_cpu_percent", f.on);
	fig(r, "workers_runq_percent", f.runq);
	fig(r, "busiest_thread_percent", f.thr);
	snprintf(r->evidence, sizeof(r->evidence),
		 "the workers were on a CPU %.0f%% and waiting for one %.0f%% of their time; the "
		 "busiest used %.0f%% of a core; the %u usable CPUs were %.0f%% busy (user %.0f%%, "
		 "system %.0f%%, softirq %.0f%%, steal %.0f%% of all %u), %.2f of them this process",
		 f.on, f.runq, f.thr, f.ncpus, f.sys, pct((double)(c->user + c->nice), tot),
		 pct((double)c->system, tot), pct((double)(c->irq + c->softirq), tot),
		 pct((double)c->steal, tot), f.online, f.own);
}

/* Undetermined: the evaluated rules with a figure, nearest their
 * thresholds first. */
static void closest(struct insight *in)
{
	for (size_t k = 1; k < INSIGHT__COUNT; k++) {
		const struct insight_rule *r = &in->rule[k];
		double q = r->evaluated && r->threshold > 0 ? r->value / r->threshold : NAN;
		size_t j;

		if (isnan(q))
			continue;
		for (j = in->nclosest; j > 0; j--) {
			const struct insight_rule *o = &in->rule[in->closest[j - 1]];

			if (o->value / o->threshold >= q)
				break;
			if (j < ARRAY_SIZE(in->closest))
				in->closest[j] = in->closest[j - 1];
		}
		if (j < ARRAY_SIZE(in->closest)) {
			in->closest[j] = (enum insight_kind)k;
			if (in->nclosest < ARRAY_SIZE(in->closest))
				in->nclosest++;
		}
	}
}

void insight_assess(const struct result_phase *p, struct insight *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < INSIGHT__COUNT; k++)
		out->rule[k].value = out->rule[k].threshold = NAN;
	if (p->too_fast || p->seconds <= 0) {
		snprintf(out->rule[0].evidence, sizeof(out->rule[0].evidence),
			 "the phase was too fast to measure: no verdict");
		return;
	}
	rule_rate(p, &out->rule[INSIGHT_RATE]);
	rule_self(p, &out->rule[INSIGHT_SELF]);
	rule_cache(p, &out->rule[INSIGHT_CACHE]);
	rule_sync(p, &out->rule[INSIGHT_SYNC]);
	rule_device(p, &out->rule[INSIGHT_DEVICE]);
	rule_contention(p, &out->rule[INSIGHT_CONTENTION]);
	rule_cpu(p, &out->rule[INSIGHT_CPU]);
	rule_flush(p, &out->flush);
	for (size_t i = 0; i < ARRAY_SIZE(order) && !out->verdict; i++)
		if (out->rule[order[i]].holds)
			out->verdict = order[i];
	if (!out->verdict) {
		closest(out);
		snprintf(out->rule[0].evidence, sizeof(out->rule[0].evidence),
			 "no rule reached its threshold");
	}
}

static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return n > 0 ? at + (size_t)n : at;
}

void insight_line(const struct insight *in, char *buf, size_t len)
{
	const struct insight_rule *v = &in->rule[in->verdict];
	size_t at = 0, also = 0;

	buf[0] = 0;
	at = put(buf, len, at, "%s", kinds[in->verdict].label);
	if (v->part[0])
		at = put(buf, len, at, " (%s)", v->part);
	at = put(buf, len, at, ": %s", v->evidence);
	for (size_t i = 0; i < in->nclosest; i++) {
		const struct insight_rule *r = &in->rule[in->closest[i]];

		at = put(buf, len, at, "%s%s %.0f%% of its %.0f%% threshold", i ? "; " : "; closest: ",
			 kinds[in->closest[i]].label, r->value, r->threshold);
		if (i == 0)
			at = put(buf, len, at, " (%s)", r->evidence);
	}
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (order[i] != in->verdict && in->rule[order[i]].holds)
			at = put(buf, len, at, "%s%s", also++ ? ", " : "; also: ",
				 kinds[order[i]].label);
	if (in->flush.implausible)
		put(buf, len, at, "; implausible flushes: %s", in->flush.evidence);
}
