/* test_insight.c — unit tests for stats/insight.c: each "limited by" rule
 * on constructed phase figures, their order, the closest figures when no
 * rule holds, and the merge of the workers' figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/insight.h"
#include "tap.h"

#define S 1000000000ull /* ns per second */

/* A 10 s phase of 2 workers on 2 CPUs, idle: no rule holds. */
static struct result *base(struct result_phase **pp)
{
	struct result *r = result_new("run", "test");
	struct result_phase *p = result_add_phase(r, "main");
	struct result_op *o = result_phase_add_op(p, "read1", "read", OPC_READ);

	for (int i = 0; i < 1000; i++)
		hist_add(&o->st.lat, 1000);
	o->st.ops = 1000;
	p->seconds = 10;
	p->nthreads = 2;
	p->cpu_user_ns = S / 10;
	p->cpu_sys_ns = S / 10;
	p->has_system_cpu = 1;
	p->system_cpu.user = 50;
	p->system_cpu.system = 50;
	p->system_cpu.idle = 1900;
	p->threads = (struct result_threads){ .n = 2, .wall_ns = 20 * S, .cpu_ns = S / 5,
					      .runq_ns = S / 10, .runq_n = 2,
					      .top_cpu_ns = S / 10, .top_wall_ns = 10 * S,
					      .ncpus = 2, .ncpus_online = 2 };
	p->cache.assessed = 1;
	p->device.ndev = 1;
	p->device.names = calloc(1, sizeof(char *));
	p->device.names[0] = strdup("sda");
	p->device.per = calloc(1, sizeof(struct dev_io));
	p->device.per[0].busy_ms = 1000; /* 10% of 10 s */
	p->device.per[0].writes = 1000;
	p->device.per[0].write_ms = 2000;
	p->device.per[0].weighted_ms = 2000;
	p->device.total = p->device.per[0];
	*pp = p;
	return r;
}

static void verdict(const struct result_phase *p, enum insight_kind want, const char *needle,
		    const char *what)
{
	struct insight in;
	char line[2048];

	insight_assess(p, &in);
	insight_line(&in, line, sizeof(line));
	ok(in.verdict == want && strstr(line, needle), "%s: %s (%s)", what, insight_name(want),
	   line);
}

static void test_undetermined(void)
{
	struct result_phase *p;
	struct result *r = base(&p);
	struct insight in;

	insight_assess(p, &in);
	is_int(in.verdict, INSIGHT_UNDETERMINED, "an idle phase: undetermined");
	ok(in.nclosest >= 2 && in.closest[0] == INSIGHT_DEVICE && in.closest[1] == INSIGHT_CPU,
	   "closest first: device 10%% of 90, then cpu 5%% of 90 (%s, %s)",
	   insight_name(in.closest[0]), insight_name(in.closest[1]));
	is_near(in.rule[INSIGHT_DEVICE].value, 10.0, 1e-9, "device busy figure");
	ok(!in.rule[INSIGHT_SYNC].evaluated && !in.rule[INSIGHT_RATE].evaluated,
	   "no sync operation, no rate: those rules are not evaluated");
	verdict(p, INSIGHT_UNDETERMINED, "closest: device 10% of its 90% threshold (sda",
		"the line names the closest rule with its evidence");
	p->too_fast = 1;
	verdict(p, INSIGHT_UNDETERMINED, "too fast", "a too-fast phase has no verdict");
	result_free(r);
}

static void test_cpu(void)
{
	struct result_phase *p;
	struct result *r = base(&p);
	struct insight in;

	p->system_cpu.user = 300;
	p->system_cpu.system = 1600;
	p->system_cpu.idle = 100;
	p->cpu_user_ns = 3 * S;
	p->cpu_sys_ns = 16 * S;
	verdict(p, INSIGHT_CPU, "cpu (system)", "system CPU 95% busy, mostly system time");
	p->cpu_user_ns = S / 10;
	p->cpu_sys_ns = S / 10;
	verdict(p, INSIGHT_CPU, "cpu (other processes)", "busy CPUs, but not this process's");
	r->phases[0].system_cpu.idle = 1900; /* the system idle again */
	p->system_cpu.user = 50;
	p->system_cpu.system = 50;
	p->threads.top_cpu_ns = 98 * S / 10;
	verdict(p, INSIGHT_CPU, "cpu (one thread)", "one worker at 98% of a core");
	p->threads.top_cpu_ns = S / 10;
	p->threads.cpu_ns = 4 * S;
	p->threads.runq_ns = 15 * S;
	insight_assess(p, &in);
	ok(in.verdict == INSIGHT_CPU && !strcmp(in.rule[INSIGHT_CPU].part, "waiting for a CPU"),
	   "workers runnable 95%% of their time, mostly waiting: %s", in.rule[INSIGHT_CPU].part);
	result_free(r);
}

static void test_device_sync(void)
{
	struct result_phase *p;
	struct result *r = base(&p);
	struct result_op *f = result_phase_add_op(p, "fsync1", "fsync", OPC_OTHER);
	struct insight in;

	p->device.per[0].busy_ms = 9500;
	verdict(p, INSIGHT_DEVICE, "sda was busy 95%", "device busy 95%");
	insight_assess(p, &in);
	is_near(in.rule[INSIGHT_DEVICE].fig[1].value, 0.2, 1e-9, "queue depth 2000 ms / 10 s");
	ok(!strcmp(in.rule[INSIGHT_DEVICE].fig[1].name, "queue_depth"), "named queue_depth");
	f->sync = 1;
	for (int i = 0; i < 1000; i++)
		hist_add(&f->st.lat, 12 * 1000 * 1000); /* 12 ms: 12 s of 20 s of thread time */
	f->st.ops = 1000;
	verdict(p, INSIGHT_SYNC, "also: device", "sync 60% of thread time beats device");
	insight_assess(p, &in);
	is_near(in.rule[INSIGHT_SYNC].value, 60.0, 0.5, "sync share 60%%");
	ok(strstr(in.rule[INSIGHT_SYNC].evidence, "p50 12.0") != NULL, "p50 in the evidence: %s",
	   in.rule[INSIGHT_SYNC].evidence);
	f->sync = 0;
	verdict(p, INSIGHT_DEVICE, "sda", "the same time in a non-sync operation does not count");
	/* 1000 writes (2000 ms) and 1000 flushes (1000 ms) in 9.5 s busy */
	p->device.per[0].flushes = 1000;
	p->device.per[0].flush_ms = 1000;
	verdict(p, INSIGHT_DEVICE, "4.750 ms of service and 1.500 ms in all per request, 200 requests/s",
		"flush requests are requests: service, time and rate per request");
	p->device.per[0].no_flush = 1;
	verdict(p, INSIGHT_DEVICE, "9.500 ms of service and 2.000 ms in all per request, 100 requests/s",
		"flush counters unknown: the reads and writes alone");
	result_free(r);
}

/* A figure of a rule by name, NAN when absent. */
static double figure(const struct insight_rule *r, const char *name)
{
	for (size_t i = 0; i < r->nfig; i++)
		if (!strcmp(r->fig[i].name, name))
			return r->fig[i].value;
	return NAN;
}

/* The synchronous rule gives the devices' flush requests (/proc/diskstats'
 * flush fields) when the kernel counts them. */
static void test_sync_flushes(void)
{
	struct result_phase *p;
	struct result *r = base(&p);
	struct result_op *f = result_phase_add_op(p, "fsync1", "fsync", OPC_OTHER);
	const struct insight_rule *s;
	struct insight in;

	f->sync = 1;
	for (int i = 0; i < 1000; i++)
		hist_add(&f->st.lat, 12 * 1000 * 1000);
	f->st.ops = 1000;
	p->device.total.flushes = 500;
	p->device.total.flush_ms = 250;
	insight_assess(p, &in);
	s = &in.rule[INSIGHT_SYNC];
	ok(in.verdict == INSIGHT_SYNC &&
		   strstr(s->evidence, "; sda: 500 flush requests (50.0/s, 0.500 ms each)"),
	   "500 flushes in 10 s, 250 ms: rate and time each (%s)", s->evidence);
	is_near(figure(s, "device_flushes"), 500, 1e-9, "device_flushes figure");
	is_near(figure(s, "device_flushes_per_second"), 50, 1e-9,
		"device_flushes_per_second figure");
	is_near(figure(s, "device_flush_ms"), 0.5, 1e-9, "device_flush_ms figure");

	p->device.total.flushes = p->device.total.flush_ms = 0;
	insight_assess(p, &in);
	ok(strstr(s->evidence, "; sda: no flush requests") && figure(s, "device_flushes") == 0 &&
		   isnan(figure(s, "device_flush_ms")),
	   "no flush reached the device: said so (%s)", s->evidence);

	p->device.total.no_flush = 1;
	p->device.total.flushes = 7;
	insight_assess(p, &in);
	ok(!strstr(s->evidence, "flush requests") && isnan(figure(s, "device_flushes")),
	   "a kernel without the flush fields: nothing said (%s)", s->evidence);

	p->device.total.no_flush = 0;
	p->device.ndev = 2;
	p->device.names = realloc(p->device.names, 2 * sizeof(char *));
	p->device.names[1] = strdup("sdb");
	p->device.per = realloc(p->device.per, 2 * sizeof(struct dev_io));
	p->device.per[1] = p->device.per[0];
	insight_assess(p, &in);
	ok(strstr(s->evidence, "; the 2 devices: 7 flush requests (0.7/s,") != NULL,
	   "two devices: their total (%s)", s->evidence);

	p->device.none = strdup("tmpfs has no block device");
	insight_assess(p, &in);
	ok(!strstr(s->evidence, "flush requests"), "no device: nothing said (%s)", s->evidence);
	result_free(r);
}

/* Workers asleep inside their writes with the device mostly idle. */
static struct result *blocked(struct result_phase **pp)
{
	struct result *r = base(pp);
	struct result_phase *p = *pp;
	struct result_op *w = result_phase_add_op(p, "write1", "write", OPC_WRITE);

	for (int i = 0; i < 1000; i++)
		hist_add(&w->st.lat, 15 * 1000 * 1000); /* 15 s of the workers' 20 s */
	w->st.ops = 1000;
	p->threads.cpu_ns = 2 * S;
	p->threads.runq_ns = S;
	p->threads.csw_n = 2;
	p->threads.vcsw = 3000;
	return r;
}

static void test_contention(void)
{
	struct result_phase *p;
	struct result *r = blocked(&p);
	struct result_op *d, *o;
	struct insight in;

	/* 20 s: 2 on a CPU, 1 queued, 17 asleep; the device busy 10% of the
	 * phase explains 2 s of it: 15 s blocked, 75% */
	verdict(p, INSIGHT_CONTENTION, "contention (write1): the workers were asleep 75%",
		"asleep 75% with the device 10% busy");
	insight_assess(p, &in);
	is_near(in.rule[INSIGHT_CONTENTION].value, 75.0, 0.01, "the share: (17 - 2) s of 20 s");
	ok(strstr(in.rule[INSIGHT_CONTENTION].evidence,
		  "1.50 voluntary context switches per operation") &&
		   strstr(in.rule[INSIGHT_CONTENTION].evidence, "the devices busy 10%") &&
		   strstr(in.rule[INSIGHT_CONTENTION].evidence, "most time in write1 (write: 1000"),
	   "evidence: switches per op, device busy, the operation (%s)",
	   in.rule[INSIGHT_CONTENTION].evidence);
	p->threads.csw_n = 1;
	insight_assess(p, &in);
	ok(!strstr(in.rule[INSIGHT_CONTENTION].evidence, "context switches"),
	   "switches not read for every worker: not quoted");
	p->device.per[0].busy_ms = 6000; /* 60%: explains 12 of the 17 s */
	insight_assess(p, &in);
	is_near(in.rule[INSIGHT_CONTENTION].value, 25.0, 0.01, "device busy 60%%: 5 s blocked");
	ok(in.verdict == INSIGHT_UNDETERMINED, "25%% blocked: below the 50%% rule");
	p->device.per[0].busy_ms = 9500;
	verdict(p, INSIGHT_DEVICE, "sda was busy 95%", "a busy device explains the sleep");
	p->device.per[0].busy_ms = 1000;
	p->threads.rate_wait_ns = 8 * S;
	p->threads.event_rate = 100;
	verdict(p, INSIGHT_RATE, "also: contention", "a rate cap first; contention also holds");
	insight_assess(p, &in);
	is_near(in.rule[INSIGHT_CONTENTION].value, 700.0 / 12, 0.01,
		"rate sleep is by design: (17 - 8 - 2 device) s of the 12 s not asleep for it");
	p->threads.rate_wait_ns = 0;
	p->threads.event_rate = 0;
	d = result_phase_add_op(p, "d1", "delay", OPC_OTHER);
	hist_add(&d->st.lat, 14 * S);
	d->st.ops = 1;
	insight_assess(p, &in);
	ok(!in.rule[INSIGHT_CONTENTION].holds, "14 s in a delay flowop is no contention (%.0f%%)",
	   in.rule[INSIGHT_CONTENTION].value);
	result_free(r);

	r = blocked(&p);
	p->threads.runq_n = 1;
	insight_assess(p, &in);
	ok(!in.rule[INSIGHT_CONTENTION].evaluated, "no schedstat for every worker: not evaluated");
	p->threads.runq_n = 2;
	p->device.ndev = 0;
	insight_assess(p, &in);
	ok(!in.rule[INSIGHT_CONTENTION].evaluated,
	   "no device and not tmpfs (NFS, FUSE): the sleep may be the network's");
	p->cache.memory_fs = 1;
	verdict(p, INSIGHT_CONTENTION, "no device behind the file system",
		"tmpfs: nothing to explain the sleep (capped at the 15 s in operations)");
	p->device.ndev = 1; /* result_free frees the names it counts */
	result_free(r);

	/* fileset stalls: 60000 x 0.2 ms = 12 s of the blocked time */
	r = blocked(&p);
	o = result_phase_add_op(p, "open1", "openfile", OPC_OTHER);
	o->st.stalls = 60000;
	verdict(p, INSIGHT_CONTENTION,
		"contention (open1): the workers were asleep 75%",
		"the stalls are most of the blocked time: the part is the stalling flowop");
	verdict(p, INSIGHT_CONTENTION, "open1 found no free fileset entry 60000 times (12.0 s",
		"the stalls in the evidence");
	/* before the page cache, after the device; cpu is also listed */
	p->cache.writes_absorbed = 1;
	p->cache.write_reason = strdup("the devices wrote nothing");
	p->system_cpu.idle = 5;
	verdict(p, INSIGHT_CONTENTION, "also: page cache, cpu", "contention before cache and cpu");
	result_free(r);

	/* time asleep outside any operation (fsgauge's loop) is not blamed */
	r = base(&p);
	p->threads.cpu_ns = 2 * S;
	p->threads.runq_ns = S;
	insight_assess(p, &in);
	ok(in.rule[INSIGHT_CONTENTION].evaluated && in.rule[INSIGHT_CONTENTION].value < 1,
	   "asleep 85%% but 1 ms inside operations: %.2f%%", in.rule[INSIGHT_CONTENTION].value);
	result_free(r);
}

static void test_cache(void)
{
	struct result_phase *p;
	struct result *r = base(&p);

	p->cache.likely_cached = 1;
	p->cache.reason = strdup("the devices read 0.0 MiB for the 100.0 MiB");
	verdict(p, INSIGHT_CACHE, "page cache (reads): reads: the devices read",
		"reads from memory on a device-backed file system");
	p->cache.memory_fs = 1;
	verdict(p, INSIGHT_UNDETERMINED, "closest", "on tmpfs the cache warning is no verdict");
	p->cache.memory_fs = 0;
	p->device.per[0].busy_ms = 9500;
	verdict(p, INSIGHT_DEVICE, "also: page cache", "a busy device comes before the cache");
	result_free(r);
}

static void test_rate_self(void)
{
	struct result_phase *p;
	struct result *r = base(&p);

	p->threads.event_rate = 100;
	p->threads.rate_wait_ns = 10 * S; /* half the workers' time */
	verdict(p, INSIGHT_RATE, "eventgen rate 100/s", "workers slept 50% for the eventgen");
	p->threads.rate_wait_ns = 2 * S;
	verdict(p, INSIGHT_UNDETERMINED, "closest: rate limit", "10% asleep: below the 25% rule");
	p->threads.event_rate = 0;
	p->threads.rate_wait_ns = 0;
	p->cpu_user_ns = 18 * S;
	p->cpu_sys_ns = S;
	p->threads.cpu_ns = 19 * S;
	p->threads.runq_ns = S / 2;
	verdict(p, INSIGHT_SELF, "fsgauge itself (user time)", "95% user time, workers CPU-bound");
	p->threads.cpu_ns = 2 * S;
	p->threads.runq_ns = 0;
	verdict(p, INSIGHT_UNDETERMINED, "closest: fsgauge",
		"user time high but the workers mostly waited: not fsgauge");
	result_free(r);
}

static void test_merge_names(void)
{
	struct result_threads a = { .n = 1, .wall_ns = 10, .cpu_ns = 5, .top_cpu_ns = 5,
				    .top_wall_ns = 10 };
	struct result_threads b = { .n = 2, .wall_ns = 20, .cpu_ns = 18, .top_cpu_ns = 9,
				    .top_wall_ns = 10, .rate_wait_ns = 3, .ncpus = 4,
				    .vcsw = 7, .ivcsw = 2, .csw_n = 2 };

	result_threads_merge(&a, &b);
	ok(a.n == 3 && a.wall_ns == 30 && a.cpu_ns == 23 && a.rate_wait_ns == 3 && a.ncpus == 4,
	   "merge adds the sums");
	ok(a.top_cpu_ns == 9 && a.top_wall_ns == 10, "merge keeps the busier worker");
	ok(a.vcsw == 7 && a.ivcsw == 2 && a.csw_n == 2, "merge adds the context switches");
	for (int k = 0; k < INSIGHT__COUNT; k++)
		is_int(insight_kind_of(insight_name((enum insight_kind)k)), k, "name %s round-trips",
		       insight_name((enum insight_kind)k));
	is_int(insight_kind_of("bogus"), -1, "unknown name");
}

/* result_stored_judge(): the data-reduction warning. */
static void test_stored(void)
{
	struct result_stored s = { .checked = 1, .files = 4, .size_bytes = 64u << 20,
				   .allocated_bytes = 8u << 20, .written_bytes = 64u << 20 };

	result_stored_judge(&s, "zero");
	ok(s.reduced && strstr(s.reason, "stored 12% of the bytes written") &&
		   strstr(s.reason, "use --data random"),
	   "8 of 64 MiB allocated: warned (%s)", s.reason ? s.reason : "");
	free(s.reason);
	s = (struct result_stored){ .checked = 1, .files = 1, .size_bytes = 256u << 20,
				    .allocated_bytes = 4u << 20, .written_bytes = 4u << 20 };
	result_stored_judge(&s, "random");
	ok(!s.reduced, "a sparse file: 4 MiB written, 4 MiB allocated of 256 MiB: no warning");
	s = (struct result_stored){ .checked = 1, .files = 1, .size_bytes = 512u << 10,
				    .allocated_bytes = 0, .written_bytes = 512u << 10 };
	result_stored_judge(&s, "random");
	ok(!s.reduced, "under 1 MiB: too little to judge");
	s = (struct result_stored){ .checked = 1, .files = 2, .size_bytes = 8u << 20,
				    .allocated_bytes = 1u << 20, .written_bytes = 8u << 20 };
	result_stored_judge(&s, "random");
	ok(s.reduced && strstr(s.reason, "not the storage's") && !strstr(s.reason, "--data"),
	   "random data reduced: no --data hint (%s)", s.reason ? s.reason : "");
	free(s.reason);
}

/* The base phase with 1000 fsyncs of latency lat_ns after 1000 writes,
 * sda of class cls (NULL: no device info, as a result read back). */
static struct result *flushing(struct result_phase **pp, uint64_t lat_ns, const char *cls)
{
	struct result *r = base(pp);
	struct result_phase *p = *pp;
	struct result_op *w, *f;

	result_phase_add_op(p, "write1", "write", OPC_WRITE);
	result_phase_add_op(p, "fsync1", "fsync", OPC_OTHER);
	w = &p->ops[1]; /* after both: adding an op moves the array */
	f = &p->ops[2];

	w->st.ops = 1000;
	w->st.bytes_written = 1000 * 4096;
	for (int i = 0; i < 1000; i++) {
		hist_add(&w->st.lat, 5000);
		hist_add(&f->st.lat, lat_ns);
	}
	f->sync = 1;
	f->st.ops = 1000;
	if (cls) {
		p->device.info = calloc(1, sizeof(*p->device.info));
		p->device.info[0].rotational = strcmp(cls, "ssd") != 0; /* virtual disks say 1 */
		snprintf(p->device.info[0].class, sizeof(p->device.info[0].class), "%s", cls);
	}
	return r;
}

static void test_flush(void)
{
	struct result_phase *p;
	struct result *r = flushing(&p, 20 * 1000, "hdd");
	struct insight in;
	char line[2048];
	const char *want = "p50 fsync 20 us on rotational sda: a volatile write cache is "
			   "acknowledging flushes (cache-nonvolatile, a write-back RAID "
			   "controller, or a disk's write cache without barriers)";

	insight_assess(p, &in);
	insight_line(&in, line, sizeof(line));
	ok(in.flush.present && in.flush.judged && in.flush.implausible,
	   "20 us fsyncs on a rotating disk: implausible (%s)", in.flush.evidence);
	ok(strstr(in.flush.evidence, want) != NULL, "the warning's words: %s", in.flush.evidence);
	ok(strstr(in.flush.evidence, "fsync1: 1000 calls, sda: 1000 write requests") != NULL,
	   "the figures beside it: %s", in.flush.evidence);
	ok(strstr(line, "; implausible flushes: p50 fsync 20 us on rotational sda") != NULL,
	   "in the verdict's line: %s", line);
	is_near(in.flush.p50_us, 20.0, 1.0, "p50 in us");
	is_str(in.flush.device, "sda", "the device named");
	result_free(r);

	r = flushing(&p, 8 * 1000 * 1000, "hdd");
	insight_assess(p, &in);
	insight_line(&in, line, sizeof(line));
	ok(in.flush.judged && !in.flush.implausible && strstr(in.flush.evidence, "plausible") &&
		   !strstr(line, "implausible"),
	   "8 ms fsyncs on a rotating disk: plausible, no warning (%s)", in.flush.evidence);
	result_free(r);

	r = flushing(&p, 20 * 1000, "ssd");
	insight_assess(p, &in);
	ok(in.flush.present && !in.flush.judged && !in.flush.implausible &&
		   strstr(in.flush.evidence, "sda was written and is ssd, not a rotating disk"),
	   "20 us fsyncs on an SSD: not judged (%s)", in.flush.evidence);
	result_free(r);

	r = flushing(&p, 20 * 1000, "virtual");
	insight_assess(p, &in);
	ok(!in.flush.judged && strstr(in.flush.evidence, "is virtual, not a rotating disk (it says "
						     "rotational)"),
	   "a virtual disk claiming rotational: not judged (%s)", in.flush.evidence);
	result_free(r);

	r = flushing(&p, 20 * 1000, "hdd");
	p->device.per[0].writes = 0;
	insight_assess(p, &in);
	ok(!in.flush.judged && strstr(in.flush.evidence, "no write reached a device"),
	   "no write reached the disk: not judged (%s)", in.flush.evidence);
	p->device.per[0].writes = 400;
	insight_assess(p, &in);
	ok(!in.flush.judged && strstr(in.flush.evidence, "half the synchronous calls"),
	   "400 writes for 1000 fsyncs: most had nothing to flush (%s)", in.flush.evidence);
	p->device.per[0].writes = 1000;
	p->ops[1].st.bytes_written = 0; /* write1 */
	insight_assess(p, &in);
	ok(!in.flush.judged && strstr(in.flush.evidence, "wrote nothing"),
	   "the application wrote nothing: not judged (%s)", in.flush.evidence);
	result_free(r);

	r = flushing(&p, 20 * 1000, NULL);
	insight_assess(p, &in);
	ok(in.flush.present && !in.flush.judged && strstr(in.flush.evidence, "not known"),
	   "no device info: not judged (%s)", in.flush.evidence);
	result_free(r);

	r = base(&p);
	insight_assess(p, &in);
	ok(!in.flush.present, "no synchronous operation: no flush check");
	result_free(r);
}

/* Merging repeats keeps each device's class. */
static void test_flush_merge(void)
{
	struct result_phase *p, *q;
	struct result *a = flushing(&p, 20 * 1000, NULL), *b = flushing(&q, 20 * 1000, "hdd");
	struct insight in;

	result_merge_repeat(a, b);
	insight_assess(&a->phases[0], &in);
	ok(a->phases[0].device.info && !strcmp(a->phases[0].device.info[0].class, "hdd") &&
		   in.flush.implausible,
	   "a merged phase keeps the class of the run that knew it (%s)", in.flush.evidence);
	result_free(a);
	result_free(b);
}

int main(void)
{
	test_flush();
	test_flush_merge();
	test_stored();
	test_undetermined();
	test_cpu();
	test_device_sync();
	test_sync_flushes();
	test_contention();
	test_cache();
	test_rate_self();
	test_merge_names();
	return done_testing();
}
