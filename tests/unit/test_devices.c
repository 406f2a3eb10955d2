/* test_devices.c — unit tests for stats/devices.c and stats/sysstat.c:
 * parsing /proc/diskstats, /proc/stat, /proc/meminfo, arcstats and
 * `zpool status`, and finding the devices of real directories. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "stats/devices.h"
#include "stats/sysstat.h"
#include "tap.h"
#include "util/util.h"

static void test_diskstats(void)
{
	/* kernel 5.5+: 20 fields; the first 14 are what we use */
	static const char *line =
		" 254       0 vda 61883 8601 3243402 17108 75693 9208 2375904 31675 0 13748 59677 "
		"22550 86 610264 7288 8715 3605\n";
	static const char *old = "   8       1 sda1 100 2 800 30 50 3 400 20 0 45 50\n";
	unsigned maj, min;
	char name[64];
	struct dev_io io;

	ok(diskstats_parse_line(line, &maj, &min, name, sizeof(name), &io) == 0,
	   "parse a 20-field diskstats line");
	ok(maj == 254 && min == 0 && !strcmp(name, "vda"), "device number and name");
	ok(io.reads == 61883 && io.read_merges == 8601 && io.bytes_read == 3243402ull * 512 &&
		   io.read_ms == 17108,
	   "read fields (sectors are 512 bytes)");
	ok(io.writes == 75693 && io.write_merges == 9208 && io.bytes_written == 2375904ull * 512 &&
		   io.write_ms == 31675,
	   "write fields");
	ok(io.busy_ms == 13748 && io.weighted_ms == 59677, "io_ticks and time_in_queue");
	ok(!io.no_flush && io.flushes == 8715 && io.flush_ms == 3605,
	   "flush requests and their ms: the last two fields, after the discards'");
	ok(diskstats_parse_line(old, &maj, &min, name, sizeof(name), &io) == 0 &&
		   io.writes == 50 && io.busy_ms == 45 && io.weighted_ms == 50,
	   "parse a 14-field line (older kernels)");
	ok(io.no_flush && io.flushes == 0, "14 fields: the flush counters unknown");
	ok(diskstats_parse_line("   8 1 sda1 1 2 3 4 5 6 7 8 0 9 10 11 12 13 14\n", &maj, &min,
				name, sizeof(name), &io) == 0 &&
		   io.no_flush && io.weighted_ms == 10,
	   "18 fields (4.18 to 5.4: discards, no flushes): the flush counters unknown");
	ok(diskstats_parse_line("   8 1 sda1 1 2 3\n", &maj, &min, name, sizeof(name), &io) < 0,
	   "reject a short line");
	ok(diskstats_parse_line("", &maj, &min, name, sizeof(name), &io) < 0, "reject empty");
}

static void test_proc_stat(void)
{
	struct cpu_times a, b, d;

	ok(sysstat_parse_cpu("cpu  100 5 50 1000 20 3 7 1 0 0\ncpu0 50 2 25 500 10 1 3 0 0 0\n",
			     &a) == 0,
	   "parse /proc/stat");
	ok(a.user == 100 && a.nice == 5 && a.system == 50 && a.idle == 1000 && a.iowait == 20 &&
		   a.irq == 3 && a.softirq == 7 && a.steal == 1,
	   "the aggregate cpu line's fields");
	ok(sysstat_parse_cpu("intr 1 2 3\ncpu  200 5 70 1500 20 3 7 1 0 0\n", &b) == 0,
	   "the cpu line need not be first");
	cpu_times_sub(&d, &b, &a);
	ok(d.user == 100 && d.system == 20 && d.idle == 500 && d.iowait == 0, "deltas");
	is_int(cpu_times_total(&d), 620, "total ticks");
	ok(sysstat_parse_cpu("cpu0 1 2 3 4\n", &a) < 0, "no aggregate line: error");
	ok(sysstat_cpu(&a) == 0 && cpu_times_total(&a) > 0, "this machine's /proc/stat");
}

static void test_meminfo(void)
{
	struct meminfo m = { 0 };

	m.arc_size = m.arc_max = -1;
	sysstat_parse_meminfo("MemTotal:       24683620 kB\nMemFree:        24125476 kB\n"
			      "MemAvailable:   24330408 kB\nBuffers:            4180 kB\n"
			      "Cached:           383336 kB\nSwapCached:            0 kB\n",
			      &m);
	ok(m.total == 24683620ull * 1024 && m.available == 24330408ull * 1024 &&
		   m.cached == 383336ull * 1024 && m.buffers == 4180ull * 1024,
	   "meminfo fields in bytes; SwapCached is not Cached");
	sysstat_parse_arcstats("13 1 0x01 123 33456 1 2\nname                            type data\n"
			       "hits                            4    1000\n"
			       "size                            4    1073741824\n"
			       "c_max                           4    8589934592\n",
			       &m);
	ok(m.arc_size == 1073741824 && m.arc_max == 8589934592, "arcstats size and c_max");
	ok(sysstat_mem(&m) == 0 && m.total > 0 && m.available > 0, "this machine's meminfo");
}

static void test_switches(void)
{
	uint64_t v = 0, iv = 0, v2, iv2;

	ok(sysstat_parse_switches("Name:\tfsgauge\nvoluntary_ctxt_switches:\t1234\n"
				  "nonvoluntary_ctxt_switches:\t56\n",
				  &v, &iv) == 0 &&
		   v == 1234 && iv == 56,
	   "status: voluntary 1234, involuntary 56");
	ok(sysstat_parse_switches("voluntary_ctxt_switches:\t1\n", &v, &iv) < 0,
	   "a missing line: error");
	ok(sysstat_thread_switches(0, &v, &iv) == 0, "this thread's switches");
	usleep(2000); /* a sleep is a voluntary switch */
	ok(sysstat_thread_switches(0, &v2, &iv2) == 0 && v2 > v, "a sleep adds one (%llu, %llu)",
	   (unsigned long long)v, (unsigned long long)v2);
}

/* Write `text` to DIR/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* An md array's sysfs md/ directory, written as the kernel lays it out
 * (this kernel has no md: the files are made here, as a fixture). */
static void test_md(void)
{
	char dir[] = "/tmp/fsgauge-md.XXXXXX";
	struct md_state m;
	int r;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	ok(devices_md_read(dir, "md0", &m) == -ENOENT, "no sync_action: not an md array");
	put(dir, "sync_action", "idle\n");
	put(dir, "level", "raid5\n");
	put(dir, "sync_completed", "none\n");
	put(dir, "degraded", "0\n");
	ok(devices_md_read(dir, "md0", &m) == 0 && !strcmp(m.name, "md0") &&
		   !strcmp(m.level, "raid5") && !strcmp(m.sync_action, "idle") && m.sync_pct < 0 &&
		   m.degraded == 0 && !devices_md_busy(&m),
	   "idle raid5: its level, not syncing, not busy");
	put(dir, "sync_action", "resync\n");
	put(dir, "sync_completed", "1048576 / 4194304\n");
	r = devices_md_read(dir, "md0", &m);
	ok(r == 0 && !strcmp(m.sync_action, "resync") && m.sync_pct == 25.0 && devices_md_busy(&m),
	   "a resync a quarter done: 25%%, busy (%.1f)", m.sync_pct);
	put(dir, "sync_action", "frozen\n");
	put(dir, "sync_completed", "none\n");
	ok(devices_md_read(dir, "md0", &m) == 0 && !devices_md_busy(&m), "frozen: not busy");
	put(dir, "sync_action", "idle\n");
	put(dir, "degraded", "1\n");
	ok(devices_md_read(dir, "md0", &m) == 0 && m.degraded == 1 && devices_md_busy(&m),
	   "idle but degraded (1 missing): busy");
	put(dir, "sync_action", "");
	ok(devices_md_read(dir, "md0", &m) == -EINVAL, "an empty sync_action: an error");
	for (const char *const *f = (const char *const[]){ "sync_action", "level", "sync_completed",
							    "degraded", NULL };
	     *f; f++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
}

static void test_faults(void)
{
	uint64_t mi = 0, ma = 0, mi2 = 0, ma2 = 0;
	size_t len = 64 << 20;
	int got;
	char *p;

	ok(sysstat_parse_faults("4242 (a (b) c) S 1 4242 4242 0 -1 4194560 1234 99 56 7 0 0\n",
				&mi, &ma) == 0 &&
		   mi == 1234 && ma == 56,
	   "stat: a name with spaces and parentheses; minor 1234, major 56");
	ok(sysstat_parse_faults("4242 (x) S 1 2 3\n", &mi, &ma) < 0, "a short line: error");
	ok(sysstat_parse_faults("no parenthesis", &mi, &ma) < 0, "no name: error");
	ok(sysstat_thread_faults(0, &mi, &ma) == 0, "this thread's faults");
	p = malloc(len);
	if (p)
		memset(p, 1, len); /* fresh pages: minor faults */
	got = p && sysstat_thread_faults(0, &mi2, &ma2) == 0;
	ok(got && mi2 > mi && ma2 >= ma,
	   "touching 64 MiB of new memory adds minor faults (%llu, %llu)",
	   (unsigned long long)mi, (unsigned long long)mi2);
	free(p);
}

static void test_zpool(void)
{
	static const char *text =
		"  pool: tank\n state: ONLINE\nconfig:\n\n"
		"\tNAME                        STATE     READ WRITE CKSUM\n"
		"\ttank                        ONLINE       0     0     0\n"
		"\t  mirror-0                  ONLINE       0     0     0\n"
		"\t    /dev/sda1               ONLINE       0     0     0\n"
		"\t    /dev/sdb1               ONLINE       0     0     0\n"
		"\tlogs\n"
		"\t  /dev/nvme0n1p1            ONLINE       0     0     0\n"
		"\ncache\n\t  /dev/nvme0n1p2  ONLINE 0 0 0\n"
		"errors: No known data errors\n/dev/not-a-vdev\n";
	char paths[8][256];
	size_t n = devices_parse_zpool_status(text, paths, 8);

	is_int(n, 4, "four vdevs in zpool status -P");
	ok(n == 4 && !strcmp(paths[0], "/dev/sda1") && !strcmp(paths[1], "/dev/sdb1") &&
		   !strcmp(paths[2], "/dev/nvme0n1p1") && !strcmp(paths[3], "/dev/nvme0n1p2"),
	   "mirror members, log and cache devices, nothing after errors:");
	is_int(devices_parse_zpool_status(text, paths, 2), 2, "at most max paths");
}

static void test_find(void)
{
	struct devices *d = xmalloc(sizeof(*d));
	struct statfs sf;

	if (statfs("/dev/shm", &sf) == 0 && sf.f_type == 0x01021994 /* TMPFS_MAGIC */) {
		is_int(devices_find("/dev/shm", d), 0, "tmpfs: no devices");
		is_str(d->none, "tmpfs has no block device", "tmpfs: the reason");
	} else {
		ok(1, "# SKIP /dev/shm is not tmpfs");
		ok(1, "# SKIP /dev/shm is not tmpfs");
	}
	is_int(devices_find("/proc", d), 0, "/proc: no devices");
	is_str(d->none, "proc has no block device", "/proc: the reason");
	devices_find("/nonexistent-fsgauge", d);
	ok(d->n == 0 && strstr(d->none, "cannot find the mount of '/nonexistent-fsgauge'"),
	   "a missing path: a reason, no crash (%s)", d->none);
	/* whatever holds the root: devices with names and counters, or a reason */
	devices_find("/", d);
	if (d->n) {
		struct dev_io io[DEVICES_MAX];
		struct device_props p;

		ok(devices_sample(d, io) == 0, "sample the root's devices (%s)", d->dev[0].name);
		ok(io[0].reads + io[0].writes > 0, "a mounted root device has done I/O");
		devices_props(&d->dev[0], &p);
		ok(p.class && *p.class, "the root device has a class (%s)", p.class);
	} else {
		ok(d->none[0], "the root has no device: %s", d->none);
	}
	free(d);
}

int main(void)
{
	test_diskstats();
	test_switches();
	test_faults();
	test_md();
	test_proc_stat();
	test_meminfo();
	test_zpool();
	test_find();
	return done_testing();
}
