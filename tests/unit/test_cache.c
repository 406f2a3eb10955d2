/* test_cache.c — unit tests for stats/cache.c (the cache and plausibility
 * verdicts, rule by rule) and stats/steady.c (the steady-state rule). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cache.h"
#include "stats/steady.h"
#include "tap.h"

#define MiB (1024ull * 1024)

static struct cache_inputs base(void)
{
	struct cache_inputs in;

	memset(&in, 0, sizeof(in));
	in.fstype = "ext4";
	in.seconds = 10;
	in.app_bytes_read = 1000 * MiB;
	in.read_working_set = 100 * MiB;
	in.mem.total = 16384 * MiB;
	in.mem.available = 8192 * MiB;
	in.mem.cached = 1024 * MiB;
	in.mem.arc_size = in.mem.arc_max = -1;
	return in;
}

static void verdict(const struct cache_inputs *in, int want, const char *needle, const char *what)
{
	struct result_cache c;

	memset(&c, 0, sizeof(c));
	cache_assess(in, &c);
	ok(c.assessed && c.likely_cached == want && c.reason && strstr(c.reason, needle),
	   "%s: %s (%s)", what, want ? "cached" : "not cached", c.reason ? c.reason : "(null)");
	free(c.reason);
	free(c.rate_reason);
}

static void rate(const struct cache_inputs *in, int want, const char *needle, const char *what)
{
	struct result_cache c;

	memset(&c, 0, sizeof(c));
	cache_assess(in, &c);
	ok(c.rate_implausible == want && (!want || strstr(c.rate_reason, needle)), "%s (%s)", what,
	   c.rate_reason ? c.rate_reason : "plausible");
	free(c.reason);
	free(c.rate_reason);
}

static void test_cache(void)
{
	struct cache_inputs in = base();
	struct result_cache c;

	verdict(&in, 1, "fits in available memory", "small working set, no device evidence");
	in.read_working_set = 10000 * MiB;
	verdict(&in, 0, "exceeds available memory", "working set larger than available memory");
	in.mem.arc_max = 12000 * MiB;
	verdict(&in, 1, "ZFS ARC", "working set within the ARC maximum");
	in = base();
	in.have_devices = 1;
	in.dev_bytes_read = 10 * MiB;
	verdict(&in, 1, "(1%): the rest came from memory", "devices read 1% of the bytes");
	in.dev_bytes_read = 990 * MiB;
	verdict(&in, 0, "(99%)", "devices read 99%: device evidence beats the working-set rule");
	in.app_bytes_read = 100 * 1024;
	in.dev_bytes_read = 0;
	verdict(&in, 1, "fits in available memory", "too few bytes for device evidence");
	in = base();
	in.direct = 1;
	verdict(&in, 0, "O_DIRECT", "O_DIRECT reads are not flagged");
	in.fstype = "zfs";
	verdict(&in, 1, "fits", "O_DIRECT on zfs is still judged (the ARC caches it)");
	in = base();
	in.fstype = "tmpfs";
	in.direct = 1;
	verdict(&in, 1, "tmpfs keeps files in memory", "tmpfs");
	in = base();
	in.app_bytes_read = 0;
	verdict(&in, 0, "no data was read", "no reads");
	memset(&c, 0, sizeof(c));
	in = base();
	cache_assess(&in, &c);
	ok(c.read_working_set_bytes == 100 * MiB && c.ram_bytes == 16384 * MiB &&
		   c.mem_available_bytes == 8192 * MiB && c.arc_bytes == -1,
	   "figures recorded");
	free(c.reason);

	in = base();
	in.ceiling_mb_s = 300;
	in.devices = "sda (hdd)";
	rate(&in, 0, "", "104 MB/s reads on a 300 MB/s disk: plausible");
	in.app_bytes_read = 9400 * 1000 * 1000ull;
	rate(&in, 1, "reads at 940 MB/s exceed what sda (hdd) can deliver (300 MB/s)",
	     "940 MB/s reads from one disk: implausible");
	in = base();
	in.ceiling_mb_s = 300;
	in.app_bytes_written = 5000 * 1000 * 1000ull;
	rate(&in, 1, "writes at 500 MB/s", "500 MB/s writes to one disk: implausible");
	in.ceiling_mb_s = 0;
	rate(&in, 0, "", "no ceiling known: no verdict");
	in.ceiling_mb_s = 300;
	in.too_fast = 1;
	rate(&in, 0, "", "too fast to measure: no verdict");
}

static void test_steady(void)
{
	double t[10], y[10], ch;

	for (int i = 0; i < 5; i++) {
		t[i] = i + 1;
		y[i] = 1000;
	}
	ok(steady_state_reached(t, y, 5, 5, &ch) && ch == 0, "flat rate: steady, change 0");
	for (int i = 0; i < 5; i++)
		y[i] = 1000 + 100 * i; /* +400 over the window, mean 1200: 33% */
	ok(!steady_state_reached(t, y, 5, 5, &ch), "ramping rate: not steady");
	is_near(ch, 400.0 / 1200 * 100, 1e-9, "change = |slope| * span / mean");
	ok(steady_state_reached(t, y, 5, 40, NULL), "within a 40%% tolerance");
	static const double noisy[] = { 1000, 1040, 960, 1030, 970 };
	memcpy(y, noisy, sizeof(noisy));
	int st = steady_state_reached(t, y, 5, 5, &ch);

	ok(st, "noise without trend: steady (%.2f%%)", ch);
	ok(!steady_state_reached(t, y, 1, 5, &ch) && isnan(ch), "one sample: cannot tell");
	for (int i = 0; i < 5; i++)
		y[i] = 0;
	ok(!steady_state_reached(t, y, 5, 5, NULL), "no operations at all: not steady");
}

static void absorbed(const struct cache_inputs *in, int want, const char *needle, const char *what)
{
	struct result_cache c;

	memset(&c, 0, sizeof(c));
	cache_assess(in, &c);
	ok(c.writes_absorbed == want && (!want || (c.write_reason && strstr(c.write_reason, needle))) &&
		   (want || !c.write_reason),
	   "%s: %s (%s)", what, want ? "absorbed" : "not absorbed",
	   c.write_reason ? c.write_reason : "(null)");
	free(c.reason);
	free(c.rate_reason);
	free(c.write_reason);
}

/* The write side: many bytes written, the devices next to none, and
 * nothing forcing them out. */
static void test_writes(void)
{
	struct cache_inputs in = base();

	in.have_devices = 1;
	in.app_bytes_written = 8000 * MiB;
	in.dev_bytes_written = 0;
	absorbed(&in, 1, "the application wrote 8000.0 MiB, the devices 0.0 MiB (0%)",
		 "8000 MiB written, devices 0");
	in.dev_bytes_written = 799 * MiB;
	absorbed(&in, 1, "(10%)", "devices under a tenth");
	in.dev_bytes_written = 800 * MiB;
	absorbed(&in, 0, "", "devices a tenth: written out");
	in.dev_bytes_written = 0;
	in.synced = 1;
	absorbed(&in, 0, "", "fsync or O_SYNC in the phase: not judged");
	in.synced = 0;
	in.have_devices = 0;
	absorbed(&in, 0, "", "no device counters: no evidence");
	in.fstype = "tmpfs";
	absorbed(&in, 1, "tmpfs keeps files in memory", "tmpfs");
	in.fstype = "ext4";
	in.have_devices = 1;
	in.app_bytes_written = MiB - 1;
	absorbed(&in, 0, "", "under 1 MiB written: too little evidence");
	/* a sync the figure does not time (iozone's, without -e): the devices
	 * wrote the data, inside the phase but outside the figure */
	in = base();
	in.have_devices = 1;
	in.app_bytes_written = 64 * MiB;
	in.dev_bytes_written = 64 * MiB;
	in.nthreads = 2;
	in.untimed_sync_seconds = 10;
	absorbed(&in, 1, "the fsync after the timing took 10.000 s of the workers' 20.000 s",
		 "an untimed fsync half of the workers' time (2 x 10 s)");
	in.untimed_sync_seconds = 9.9;
	absorbed(&in, 0, "", "an untimed fsync under half: the figure is mostly the storage's");
	in.untimed_sync_seconds = 15;
	in.synced = 1;
	absorbed(&in, 0, "", "a timed sync as well (iozone -e): not judged");
	in.synced = 0;
	in.fstype = "tmpfs";
	absorbed(&in, 1, "tmpfs keeps files in memory", "tmpfs: the untimed fsync reaches no device");
}

/* Several targets: the phase's verdict made of the targets' own. */
static void target(struct result_phase *ph, const char *path, const char *fstype,
		   const struct cache_inputs *in)
{
	struct result_target *t;

	ph->targets = realloc(ph->targets, (ph->ntargets + 1) * sizeof(*ph->targets));
	t = &ph->targets[ph->ntargets++];
	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	t->fstype = strdup(fstype);
	cache_assess(in, &t->cache);
}

static void phase_clear(struct result_phase *ph)
{
	for (size_t k = 0; k < ph->ntargets; k++) {
		free(ph->targets[k].path);
		free(ph->targets[k].fstype);
		free(ph->targets[k].cache.reason);
		free(ph->targets[k].cache.rate_reason);
		free(ph->targets[k].cache.write_reason);
	}
	free(ph->targets);
	free(ph->cache.reason);
	free(ph->cache.rate_reason);
	free(ph->cache.write_reason);
	memset(ph, 0, sizeof(*ph));
}

static void test_targets(void)
{
	struct cache_inputs disk = base(), mem = base();
	struct result_phase ph;

	memset(&ph, 0, sizeof(ph));
	/* an ext4 whose devices read everything, and a tmpfs */
	disk.have_devices = 1;
	disk.read_working_set = 100000 * MiB;
	disk.dev_bytes_read = disk.app_bytes_read;
	mem.fstype = "tmpfs";
	mem.app_bytes_written = 64 * MiB;
	target(&ph, "/e", "ext4", &disk);
	target(&ph, "/m", "tmpfs", &mem);
	ph.cache.reason = strdup("stale");
	cache_combine_targets(&ph);
	ok(ph.cache.assessed && ph.cache.likely_cached && ph.cache.reason &&
	       !strcmp(ph.cache.reason, "target 2 '/m': tmpfs keeps files in memory"),
	   "reads cached on the tmpfs only: the phase's reason names it alone (%s)",
	   ph.cache.reason ? ph.cache.reason : "(null)");
	ok(!ph.cache.memory_fs, "memory_fs only when every target is in memory");
	ok(ph.cache.writes_absorbed && ph.cache.write_reason &&
	       !strcmp(ph.cache.write_reason, "target 2 '/m': tmpfs keeps files in memory: the "
					      "64.0 MiB written never reach a device"),
	   "writes absorbed on the tmpfs: named (%s)",
	   ph.cache.write_reason ? ph.cache.write_reason : "(null)");
	ok(ph.cache.read_working_set_bytes ==
	       ph.targets[0].cache.read_working_set_bytes + ph.targets[1].cache.read_working_set_bytes,
	   "the read working set is the targets' sum");
	ok(ph.cache.ram_bytes == 16384 * MiB, "memory figures from the targets'");
	phase_clear(&ph);

	/* both cached: both named, in target order; two in memory */
	target(&ph, "/a", "tmpfs", &mem);
	target(&ph, "/b", "tmpfs", &mem);
	cache_combine_targets(&ph);
	ok(ph.cache.reason && !strcmp(ph.cache.reason, "target 1 '/a': tmpfs keeps files in memory; "
						       "target 2 '/b': tmpfs keeps files in memory"),
	   "both flagged: both named (%s)", ph.cache.reason ? ph.cache.reason : "(null)");
	ok(ph.cache.memory_fs, "every target in memory: memory_fs");
	phase_clear(&ph);

	/* neither flagged: none; a target not assessed is left out */
	target(&ph, "/e", "ext4", &disk);
	target(&ph, "/x", "ext4", &disk);
	ph.targets[1].cache.assessed = 0;
	cache_combine_targets(&ph);
	ok(ph.cache.assessed && !ph.cache.likely_cached && !ph.cache.reason &&
	       !ph.cache.writes_absorbed && !ph.cache.rate_implausible && !ph.cache.memory_fs,
	   "no target flagged: nor is the phase");
	phase_clear(&ph);
}

int main(void)
{
	test_targets();
	test_writes();
	test_cache();
	test_steady();
	return done_testing();
}
