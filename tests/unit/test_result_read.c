/* test_result_read.c — unit tests for output/result_read.c: samples from
 * repeats and their fallbacks, the phase p99 from histograms, pooling. */
#include "output/result_read.h"
#include "stats/zfsstat.h"
#include "tap.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/fsgauge-test-rr.XXXXXX";

/* Returns the path in a static buffer, valid until the next call. */
static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	return path;
}

#define HEAD                                                                                 \
	"{\"schema_version\": 1, \"suite\": \"run\", \"workload\": \"w\", \"label\": \"L\",\n" \
	" \"parameters\": {\"duration\": \"10\", \"n\": 3}, \"environment\": {},\n"

/* Two operations; histograms: 98 values at 1000 ns and 2 at 5000 ns in
 * total, so the phase p99 (the 99th of 100) lies in the 5000 ns bucket. */
static const char with_repeats[] = HEAD
	" \"workload_hash\": \"00ff\", \"command_line\": [\"fsgauge\", \"run\", \"-s\", \"a=b\"],\n"
	" \"phases\": [{\"name\": \"main\", \"seconds\": 30,\n"
	"  \"summary\": {\"ops_per_second\": 100, \"mb_per_second\": 2, \"mean_latency_ms\": 1,\n"
	"               \"cpu_us_per_op\": 9},\n"
	"  \"device\": {\"write_amplification\": 1.5},\n"
	"  \"cache\": {\"likely_cached\": true, \"reason\": \"small\"},\n"
	"  \"metrics\": {\"rate\": {\"value\": 10, \"unit\": \"K/sec\"}, \"bare\": 3,\n"
	"              \"novalue\": {\"unit\": \"x\"}, \"text\": {\"value\": \"1\"}},\n"
	"  \"operations\": [\n"
	"   {\"name\": \"a\", \"type\": \"read\", \"ops\": 60, \"ops_per_second\": 60,\n"
	"    \"latency_us\": {\"mean\": 1.1, \"p99\": 1.0, \"max\": 5.0},\n"
	"    \"histogram\": {\"buckets\": [[1000, 1003, 59], [4992, 5007, 1]]}},\n"
	"   {\"name\": \"b\", \"type\": \"write\", \"ops\": 40, \"ops_per_second\": 40,\n"
	"    \"latency_us\": {\"mean\": 1.2, \"p99\": 5.0, \"max\": 5.0},\n"
	"    \"iodepth\": {\"max\": 16, \"submissions\": {\"1\": 5, \"16\": 35, \">=64\": 0}},\n"
	"    \"histogram\": {\"buckets\": [[1000, 1003, 39], [4992, 5007, 1]]}}],\n"
	"  \"repeats\": [\n"
	"   {\"ops_per_second\": 90, \"mb_per_second\": 1.8, \"mean_latency_ms\": 1.1,\n"
	"    \"cpu_us_per_op\": 9, \"device\": {\"write_amplification\": 1.4},\n"
	"    \"operations\": [{\"name\": \"a\", \"ops_per_second\": 55, \"latency_us\": {\"p99\": 2}},\n"
	"                   {\"name\": \"b\", \"ops_per_second\": 35}]},\n"
	"   {\"ops_per_second\": 100, \"mb_per_second\": 2, \"mean_latency_ms\": 1,\n"
	"    \"cpu_us_per_op\": 9, \"device\": {\"write_amplification\": 1.5},\n"
	"    \"operations\": [{\"name\": \"a\", \"ops_per_second\": 60, \"latency_us\": {\"p99\": 3}},\n"
	"                   {\"name\": \"b\", \"ops_per_second\": 40}]},\n"
	"   {\"ops_per_second\": 110, \"mb_per_second\": 2.2, \"mean_latency_ms\": 0.9,\n"
	"    \"device\": {\"write_amplification\": 1.6},\n"
	"    \"operations\": [{\"name\": \"a\", \"ops_per_second\": 65, \"latency_us\": {\"p99\": 4}},\n"
	"                   {\"name\": \"b\", \"ops_per_second\": 45}]}],\n"
	"  \"intervals\": [{\"t\": 1, \"ops_per_second\": 99}, {\"t\": 2, \"p99_us\": 7}]\n"
	" }]}\n";

static const char single[] = HEAD
	" \"command_line\": [\"fsgauge\", 7],\n"
	" \"status\": {\"complete\": false, \"interrupted\": true, \"errors\": 2},\n"
	" \"phases\": [{\"name\": \"main\", \"summary\": {\"ops_per_second\": 120,\n"
	"   \"p99_latency_ms\": 0.25}, \"metrics\": {\"rate\": {\"value\": 30},\n"
	"   \"only_b\": {\"value\": 1, \"unit\": 7}},\n"
	"  \"operations\": [{\"name\": \"b\", \"ops\": 10, \"ops_per_second\": 12,\n"
	"    \"iodepth\": {\"max\": 64, \"submissions\": {\"1\": 2, \">=64\": 8}},\n"
	"    \"histogram\": {\"buckets\": [[1000, 1003, 10], [17592186044416, -1, 1]]}}]}]}\n";

static void test_repeats(struct rfile *rf)
{
	const struct rphase *p = &rf->phases[0];

	is_int(rf->nphases, 1, "one phase");
	is_str(rf->name, "L", "name from the label");
	is_str(kv_get(&rf->params, "n"), "3", "non-string parameter as JSON text");
	is_int(p->nrepeats, 3, "three repeats");
	is_str(rf->workload_hash, "00ff", "workload_hash read");
	ok(rf->command_line && !strcmp(rf->command_line[0], "fsgauge") &&
		   !strcmp(rf->command_line[3], "a=b") && !rf->command_line[4],
	   "command_line read as given, NULL-terminated");
	is_int(p->fig[FIG_OPS].n, 3, "ops/s: one sample per repeat");
	ok(p->fig[FIG_OPS].v[0] == 90 && p->fig[FIG_OPS].v[2] == 110, "ops/s samples in run order");
	is_near(result_read_mean(&p->fig[FIG_OPS]), 100, 1e-12, "mean of the repeats");
	is_int(p->fig[FIG_CPU].n, 1, "cpu missing from one repeat: the aggregate, one sample");
	is_near(p->fig[FIG_CPU].v[0], 9, 0, "cpu aggregate");
	is_int(p->fig[FIG_DEV_WAMP].n, 3, "device amplification from each repeat");
	is_int(p->fig[FIG_DEV_RAMP].n, 0, "read amplification absent");
	is_int(p->fig[FIG_LAT_P99].n, 1, "phase p99 without p99_latency_ms: one sample");
	is_near(p->fig[FIG_LAT_P99].v[0], 0.0049995, 1e-9,
		"phase p99 from the merged histograms: midpoint of the 5000 ns bucket, in ms");
	ok(p->likely_cached && p->cache_reason && !strcmp(p->cache_reason, "small"),
	   "cache flag and reason");
	is_int(p->nops, 2, "two operations");
	is_int(p->ops[0].fig[FIG_OPS].n, 3, "op ops/s from the repeats");
	is_int(p->ops[0].fig[FIG_LAT_P99].n, 3, "op p99 from the repeats");
	is_int(p->ops[1].fig[FIG_LAT_P99].n, 1, "op p99 missing in repeats: aggregate");
	is_int(p->ops[0].hist_count, 60, "histogram count");
	ok(p->ops[0].qdepth_max == 0 && p->ops[0].qdepth[0] == 0, "no iodepth: all 0");
	ok(p->ops[1].qdepth_max == 16 && p->ops[1].qdepth[0] == 5 && p->ops[1].qdepth[4] == 35,
	   "iodepth: max and submissions by bucket read");
	is_int(p->nintervals, 2, "intervals");
	ok(isnan(p->intervals[0].p99_us) && p->intervals[1].p99_us == 7, "missing interval keys NAN");
	is_int(result_read_runs(rf), 3, "runs = 3");
	is_int(p->nmetrics, 1, "metrics: only entries with a number value kept");
	ok(result_read_metric(p, "rate") && result_read_metric(p, "rate")->v.n == 1 &&
		   result_read_metric(p, "rate")->v.v[0] == 10,
	   "metrics: value read");
	is_str(result_read_metric(p, "rate")->unit, "K/sec", "metrics: unit read");
	ok(!result_read_metric(p, "bare") && !result_read_metric(p, "novalue") &&
		   !result_read_metric(p, "text"),
	   "metrics: malformed entries skipped");
	ok(rf->complete, "no status: complete");
}

static void test_single_and_pool(struct rfile *a, struct rfile *b)
{
	const struct rphase *p = &b->phases[0];
	struct rfile *files[2] = { a, b }, *pool;

	ok(!b->complete && b->interrupted && b->errors == 2, "status read");
	is_int(p->nrepeats, 0, "no repeats");
	is_int(p->fig[FIG_OPS].n, 1, "single sample");
	is_near(p->fig[FIG_LAT_P99].v[0], 0.25, 0, "p99_latency_ms used when present");
	is_int(p->fig[FIG_MBPS].n, 0, "absent figure: no samples");
	ok(p->ops[0].buckets[1].hi == UINT64_MAX, "last bucket's -1 upper bound read as unbounded");
	is_int(result_read_runs(b), 1, "runs = 1");
	ok(!b->workload_hash, "no workload_hash: NULL");
	ok(!b->command_line, "a command_line that is not all strings: NULL");

	pool = result_read_pool(files, 2);
	p = &pool->phases[0];
	is_int(p->nrepeats, 4, "pool: 3 repeats + 1 run");
	is_int(p->fig[FIG_OPS].n, 4, "pool: samples concatenated");
	is_near(p->fig[FIG_OPS].v[3], 120, 0, "pool: the single run last");
	is_int(p->ops[1].hist_count, 51, "pool: histograms merged (40 + 11)");
	ok(p->ops[1].qdepth_max == 64 && p->ops[1].qdepth[0] == 7 && p->ops[1].qdepth[4] == 35 &&
		   p->ops[1].qdepth[OP_QDEPTH_BUCKETS - 1] == 8,
	   "pool: iodepth submissions added, the larger max");
	is_int(p->ops[1].nbuckets, 3, "pool: equal buckets merged");
	ok(p->ops[1].buckets[0].lo == 1000 && p->ops[1].buckets[0].count == 49,
	   "pool: 39 + 10 in the 1000 ns bucket");
	ok(!pool->complete, "pool: incomplete when a member is");
	is_str(pool->workload_hash, "00ff", "pool: the first member's workload_hash");
	ok(p->likely_cached, "pool: cache flag kept");
	ok(result_read_metric(p, "rate") && result_read_metric(p, "rate")->v.n == 2 &&
		   result_read_metric(p, "rate")->v.v[1] == 30,
	   "pool: metric samples concatenated by name");
	ok(result_read_metric(p, "only_b") && *result_read_metric(p, "only_b")->unit == 0,
	   "pool: a metric of one member kept; a unit that is not a string is empty");
	result_read_free(pool);
}

/* A metric over --repeat: its runs are its samples, its statistics read
 * as written; runs without a number fall back to the value. */
static void test_metric_runs(void)
{
	struct rfile *rf = NULL;
	const struct rmetric *m;

	is_int(result_read(write_file("m.json", HEAD " \"phases\": [{\"name\": \"w\",\n"
				      "  \"summary\": {\"ops_per_second\": 1}, \"metrics\": {\n"
				      "  \"kbs\": {\"value\": 20, \"unit\": \"KB/s\", \"runs\": [18, 20, 22],\n"
				      "   \"n\": 3, \"sd\": 2, \"cv\": 0.1, \"ci95_low\": 15,\n"
				      "   \"ci95_high\": 25},\n"
				      "  \"odd\": {\"value\": 5, \"runs\": [\"x\"]}}}]}\n"),
			   &rf),
	       0, "read metrics with runs");
	m = rf ? result_read_metric(&rf->phases[0], "kbs") : NULL;
	ok(m && m->v.n == 3 && m->v.v[0] == 18 && m->v.v[2] == 22, "metric runs: one sample per run");
	ok(m && m->st.n == 3 && m->st.mean == 20 && m->st.sd == 2 && m->st.cv == 0.1 &&
		   m->st.ci95_low == 15 && m->st.ci95_high == 25,
	   "metric runs: n, sd, cv and the interval read");
	m = rf ? result_read_metric(&rf->phases[0], "odd") : NULL;
	ok(m && m->v.n == 1 && m->v.v[0] == 5 && m->st.n == 0 && isnan(m->st.sd),
	   "metric runs without numbers: the value, no statistics");
	result_read_free(rf);
}

/* The ZFS view (stats/zfsstat.h): integers known, anything else unknown;
 * a phase without it has none; pooled files add up. */
static const char zfs[] = HEAD
	" \"phases\": [{\"name\": \"w\", \"summary\": {\"ops_per_second\": 1},\n"
	"  \"zfs\": {\"kstat_root\": \"/r\", \"arc\": {\"hits\": 90, \"misses\": 10,\n"
	"   \"size_bytes\": 1073741824, \"hit_percent\": 90},\n"
	"   \"zil\": {\"commits\": -1, \"itxs\": \"x\", \"log_normal_bytes\": 2048,\n"
	"   \"log_slog_bytes\": null},\n"
	"   \"pool\": {\"name\": \"tank\", \"reads\": 1, \"writes\": 2, \"bytes_read\": 512,\n"
	"   \"bytes_written\": 1024},\n"
	"   \"dataset\": {\"name\": \"tank/fs\", \"reads\": 3}}},\n"
	"  {\"name\": \"v\", \"summary\": {\"ops_per_second\": 1}, \"zfs\": 7}]}\n";

static void test_zfs(void)
{
	struct rfile *rf = NULL, *files[2], *pool;
	const struct result_zfs *z;
	char line[512];

	is_int(result_read(write_file("zfs.json", zfs), &rf), 0, "read a result with zfs");
	if (!rf)
		return;
	z = &rf->phases[0].zfs;
	ok(z->present && z->v[ZFS_ARC_HITS] == 90 && z->v[ZFS_ARC_MISSES] == 10 &&
		   z->v[ZFS_ARC_SIZE] == 1073741824 && z->v[ZFS_ZIL_NORMAL_BYTES] == 2048,
	   "zfs: the integers read");
	ok(!(z->have & (1ull << ZFS_ZIL_COMMITS)) && !(z->have & (1ull << ZFS_ZIL_ITXS)) &&
		   !(z->have & (1ull << ZFS_ZIL_SLOG_BYTES)) && !(z->have & (1ull << ZFS_ARC_C)),
	   "zfs: negative, text, null and missing fields unknown");
	ok(!strcmp(z->pool, "tank") && !z->dataset[0] && (z->have & (1ull << ZFS_DS_READS)),
	   "zfs: the pool's name; a dataset without its objset unnamed");
	zfsstat_line(z, NULL, line, sizeof(line));
	is_str(line,
	       "ARC 90.0% hits (90 hits, 10 misses), size 1 GiB; pool tank: 1 reads (512 B), 2 "
	       "writes (1 KiB)",
	       "zfs: the line from the figures read back");
	ok(!rf->phases[1].zfs.present, "zfs: not an object, no ZFS view");
	files[0] = files[1] = rf;
	pool = result_read_pool(files, 2);
	ok(pool && pool->phases[0].zfs.v[ZFS_ARC_HITS] == 180 &&
		   pool->phases[0].zfs.v[ZFS_ARC_SIZE] == 1073741824,
	   "zfs: pooled files' counters add, the size is the last's");
	result_read_free(pool);
	result_read_free(rf);
}

/* An MPI result's ranks, stonewall and file systems (docs/mpi.md), with
 * malformed entries that are skipped; and the comparison of two results'
 * file systems. */
static const char mpi[] = HEAD
	" \"phases\": [{\"name\": \"readers\", \"summary\": {\"ops_per_second\": 1},\n"
	"  \"ranks\": {\"n\": 3, \"slowest_rank\": 2, \"stonewall_rank\": 0,\n"
	"   \"stonewall_seconds\": 0.25, \"stonewall_peer_ranks\": 2}},\n"
	"  {\"name\": \"writers\", \"summary\": {\"ops_per_second\": 1},\n"
	"  \"ranks\": {\"n\": 3, \"stonewall_rank\": null, \"stonewall_seconds\": null,\n"
	"   \"stonewall_peer_ranks\": 0}}],\n"
	" \"ranks\": [{\"rank\": 0, \"host\": \"a\", \"phases\": [{\"name\": \"readers\", \"ops\": 16,\n"
	"   \"ops_per_second\": 160, \"seconds\": 0.1, \"start_seconds\": 0, \"end_reason\": \"threads done\",\n"
	"   \"stonewall\": \"raised\", \"stonewall_seconds\": 0.25}, {\"name\": \"nosuch\"}, 7]},\n"
	"  {\"rank\": 1, \"phases\": [{\"name\": \"readers\", \"ops\": 9, \"stonewall\": \"peer\",\n"
	"   \"stonewall_seconds\": 0.26}, {\"name\": \"writers\", \"stonewall\": null}]},\n"
	"  {\"rank\": \"x\", \"phases\": [{\"name\": \"readers\"}]}],\n"
	" \"file_systems\": [{\"type\": \"tmpfs\", \"mount_point\": \"/dev/shm\", \"ranks\": [0, 1]},\n"
	"  {\"type\": \"ext4\", \"mount_point\": \"/\", \"host\": \"a\", \"ranks\": [2]}, {\"type\": 3}],\n"
	" \"file_systems_warning\": \"on 2 file systems\",\n"
	/* host a: two devices, 25% busy over 2 s (1000 ms of 2 x 2000);
	 * 500 requests (100 reads, 300 writes, 100 flushes); host b: flushes
	 * unknown, busy past the cap; then entries without a host */
	" \"hosts\": [{\"host\": \"a\", \"ranks\": [0, 2],\n"
	"   \"environment\": {\"block_devices\": \"sda sdb\"},\n"
	"   \"phases\": [{\"name\": \"readers\", \"seconds\": 2, \"device\": {\"reads\": 100,\n"
	"    \"writes\": 300, \"bytes_read\": 1048576, \"bytes_written\": 3145728,\n"
	"    \"read_merges\": 4, \"write_merges\": 6, \"read_ms\": 200, \"write_ms\": 600,\n"
	"    \"busy_ms\": 1000, \"utilization\": 25, \"avg_queue_depth\": 1.5, \"flushes\": 100,\n"
	"    \"flush_ms\": 100, \"write_amplification\": null}},\n"
	"    {\"seconds\": 1}, 7, {\"name\": \"writers\", \"seconds\": 1,\n"
	"    \"device\": {\"none\": \"tmpfs has no block device\"}}]},\n"
	"  {\"host\": \"b\", \"ranks\": [1, \"x\"],\n"
	"   \"phases\": [{\"name\": \"readers\", \"seconds\": 2, \"device\": {\"reads\": 1,\n"
	"    \"writes\": 0, \"busy_ms\": 3000, \"utilization\": 100, \"flushes\": null,\n"
	"    \"flush_ms\": null}}, {\"name\": \"writers\"}]},\n"
	"  {\"ranks\": [3]}, \"c\", {\"host\": 5, \"ranks\": [4]}]}\n";

static const char mpi_one_fs[] = HEAD " \"phases\": [],\n"
	" \"file_systems\": [{\"type\": \"ext4\", \"ranks\": [0, 1, 2]}]}\n";

/* The hosts of the mpi fixture: their ranks, environment and devices
 * per phase; the figures dev_io_figures() makes of them are the ones
 * written. */
static void test_mpi_hosts(const struct rfile *rf)
{
	const struct host_phase *hp;
	struct dev_figures fg;

	is_int(rf->nhosts, 2, "hosts: entries without a string host skipped");
	if (rf->nhosts != 2)
		return;
	ok(!strcmp(rf->hosts[0].host, "a") && rf->hosts[0].nranks == 2 &&
		   rf->hosts[0].ranks[0] == 0 && rf->hosts[0].ranks[1] == 2 &&
		   !strcmp(kv_get(&rf->hosts[0].env, "block_devices"), "sda sdb"),
	   "host a: its ranks and environment");
	is_int(rf->hosts[0].nphases, 2, "host a: phases without a name skipped");
	hp = result_host_phase(&rf->hosts[0], "readers");
	ok(hp && hp->seconds == 2 && !hp->none && hp->device.reads == 100 &&
		   hp->device.writes == 300 && hp->device.bytes_read == 1048576 &&
		   hp->device.bytes_written == 3145728 && hp->device.read_merges == 4 &&
		   hp->device.write_merges == 6 && hp->device.read_ms == 200 &&
		   hp->device.write_ms == 600 && hp->device.busy_ms == 1000 &&
		   hp->device.flushes == 100 && hp->device.flush_ms == 100 && !hp->device.no_flush,
	   "host a, readers: the counters");
	ok(hp && hp->ndev == 2 && hp->device.weighted_ms == 3000,
	   "host a, readers: 2 devices (from the utilisation), the time in queue (from the "
	   "queue depth)");
	if (hp) {
		dev_io_figures(&hp->device, hp->seconds, hp->ndev, &fg);
		ok(fg.utilization == 25 && fg.queue == 1.5 && fg.requests_per_second == 250 &&
			   fg.mib_per_second == 2 && fg.service_ms == 2 && fg.await_ms == 1.8,
		   "host a, readers: utilisation and queue as written; rates and times per "
		   "request");
	}
	hp = result_host_phase(&rf->hosts[0], "writers");
	ok(hp && !hp->ndev && hp->none && !strcmp(hp->none, "tmpfs has no block device"),
	   "host a, writers: no device, and why");
	ok(!strcmp(rf->hosts[1].host, "b") && rf->hosts[1].nranks == 1 &&
		   rf->hosts[1].ranks[0] == 1 && !rf->hosts[1].env.n,
	   "host b: ranks that are not integers skipped; no environment");
	hp = result_host_phase(&rf->hosts[1], "readers");
	ok(hp && hp->ndev == 1 && hp->device.no_flush && hp->device.reads == 1 &&
		   !hp->device.bytes_read,
	   "host b, readers: flushes unknown, missing counters 0, one device at the cap");
	if (hp) {
		dev_io_figures(&hp->device, hp->seconds, hp->ndev, &fg);
		ok(fg.utilization == 100 && fg.service_ms == 3000 && fg.await_ms == 0,
		   "host b, readers: utilisation capped as written");
	}
	hp = result_host_phase(&rf->hosts[1], "writers");
	ok(hp && !hp->ndev && !hp->none && isnan(hp->seconds), "host b, writers: not measured");
}

static void test_mpi(void)
{
	struct rfile *rf = NULL, *one = NULL, *pool, *files[2];
	const struct rphase_ranks *pr;
	char buf[200];

	is_int(result_read(write_file("mpi.json", mpi), &rf), 0, "read an MPI result");
	is_int(result_read(write_file("one.json", mpi_one_fs), &one), 0, "read one file system");
	if (!rf || !one)
		return;
	pr = &rf->phases[0].ranks;
	ok(pr->n == 3 && pr->slowest_rank == 2 && pr->stonewall_rank == 0 &&
		   pr->stonewall_seconds == 0.25 && pr->stonewall_peers == 2,
	   "phase ranks: n, slowest, stonewall rank, when, ranks stopped");
	is_int(pr->nrows, 2, "rows: ranks with an integer rank, by phase name");
	ok(pr->nrows == 2 && pr->rows[0].rank == 0 && !strcmp(pr->rows[0].host, "a") &&
		   pr->rows[0].ops == 16 && pr->rows[0].ops_per_second == 160 &&
		   pr->rows[0].seconds == 0.1 && pr->rows[0].start == 0 &&
		   !strcmp(pr->rows[0].end_reason, "threads done") && pr->rows[0].stonewall == 'r' &&
		   pr->rows[0].stonewall_seconds == 0.25,
	   "rank 0's row read");
	ok(pr->nrows == 2 && pr->rows[1].rank == 1 && !strcmp(pr->rows[1].host, "?") &&
		   pr->rows[1].stonewall == 'p' && isnan(pr->rows[1].seconds) &&
		   !pr->rows[1].end_reason,
	   "rank 1's row: stopped by a peer, missing host '?', missing figures NAN");
	pr = &rf->phases[1].ranks;
	ok(pr->stonewall_rank == -1 && isnan(pr->stonewall_seconds) && pr->stonewall_peers == 0 &&
		   pr->slowest_rank == -1 && pr->nrows == 1 && pr->rows[0].stonewall == 0,
	   "no stonewall: rank -1, NAN, none stopped; a null stonewall is none");
	is_int(rf->nfs, 2, "file systems: entries without a string type skipped");
	ok(rf->nfs == 2 && !strcmp(rf->fs[0].type, "tmpfs") && rf->fs[0].nranks == 2 &&
		   !strcmp(rf->fs[0].host, "") && !strcmp(rf->fs[1].host, "a") &&
		   !strcmp(rf->fs[1].mount_point, "/"),
	   "file systems: type, mount point, host, ranks");
	is_str(rf->fs_warning, "on 2 file systems", "file_systems_warning read");
	ok(!one->fs_warning && one->nfs == 1, "one file system: no warning");
	ok(result_read_fs_differ(rf, one, buf, sizeof(buf)), "2 file systems against 1 differ");
	is_str(buf, "2 file systems (ext4, tmpfs) against 1 (ext4)", "what differs, types sorted");
	ok(!result_read_fs_differ(one, one, buf, sizeof(buf)), "the same file systems do not differ");
	one->nfs = 0; /* as a result without mpirun */
	ok(!result_read_fs_differ(rf, one, buf, sizeof(buf)) &&
		   !result_read_fs_differ(one, rf, buf, sizeof(buf)),
	   "a result without file_systems (no mpirun) is never told apart");
	one->nfs = 1;
	test_mpi_hosts(rf);
	ok(!one->nhosts && !one->hosts, "no hosts without a hosts array");
	files[0] = rf;
	files[1] = one;
	pool = result_read_pool(files, 2);
	ok(pool->nfs == 2 && !strcmp(pool->fs_warning, "on 2 file systems") &&
		   pool->phases[0].ranks.nrows == 2 && pool->phases[0].ranks.stonewall_rank == 0 &&
		   !strcmp(pool->phases[0].ranks.rows[0].host, "a"),
	   "pool: the first file's ranks and file systems");
	ok(pool->nhosts == 2 && pool->hosts != rf->hosts && !strcmp(pool->hosts[1].host, "b") &&
		   pool->hosts[0].nranks == 2 && pool->hosts[0].ranks[1] == 2 &&
		   !strcmp(kv_get(&pool->hosts[0].env, "block_devices"), "sda sdb") &&
		   pool->hosts[0].nphases == 2 && pool->hosts[0].phases[0].ndev == 2 &&
		   pool->hosts[0].phases[0].device.busy_ms == 1000 &&
		   !strcmp(pool->hosts[0].phases[1].none, "tmpfs has no block device"),
	   "pool: a copy of the first file's hosts");
	result_read_free(pool);
	files[0] = one;
	files[1] = rf;
	pool = result_read_pool(files, 2);
	ok(!pool->nhosts && !pool->hosts, "pool: no hosts when the first file has none");
	result_read_free(pool);
	result_read_free(rf);
	result_read_free(one);
}

static void test_errors(void)
{
	struct rfile *rf = (struct rfile *)1;

	is_int(result_read(write_file("x.json", "{\"a\": }"), &rf), -EINVAL, "bad JSON: -EINVAL");
	ok(rf == NULL, "no result on error");
	is_int(result_read("/nonexistent/x.json", &rf), -ENOENT, "missing file: -ENOENT");
	is_int(result_read(write_file("y.json", "{\"suite\": \"run\"}"), &rf), -EINVAL,
	       "no schema_version: -EINVAL");
	is_int(result_read(write_file("z.json", HEAD " \"phases\": [{\"name\": 1}]}"), &rf), -EINVAL,
	       "phase without a name: -EINVAL");
}

int main(void)
{
	struct rfile *a, *b;

	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP cannot create a temporary directory\n");
		return 0;
	}
	is_int(result_read(write_file("a.json", with_repeats), &a), 0, "read with repeats");
	is_int(result_read(write_file("b.json", single), &b), 0, "read single");
	if (a && b) {
		test_repeats(a);
		test_single_and_pool(a, b);
	}
	result_read_free(a);
	result_read_free(b);
	test_metric_runs();
	test_zfs();
	test_mpi();
	test_errors();
	for (const char *const *n = (const char *const[]){ "a.json", "b.json", "m.json", "x.json", "y.json",
							 "z.json", "mpi.json", "one.json", "zfs.json", NULL };
	     *n; n++) {
		char *p = xasprintf("%s/%s", dir, *n);

		unlink(p);
		free(p);
	}
	rmdir(dir);
	return done_testing();
}
