/* cache.c — cache and plausibility verdicts; see cache.h. */
#include "stats/cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MIB (1024.0 * 1024.0)

static int in_memory_fs(const char *t)
{
	return t && (!strcmp(t, "tmpfs") || !strcmp(t, "ramfs") || !strcmp(t, "devtmpfs"));
}

/* The write side (docs/trust.md): many bytes written, the devices wrote
 * next to none, and no fsync, O_SYNC or O_DIRECT made them; or a sync
 * the figure does not time took most of the workers' time. */
static void cache_assess_writes(const struct cache_inputs *in, struct result_cache *out)
{
	double w = (double)in->app_bytes_written;
	double busy = in->seconds * (in->nthreads ? in->nthreads : 1);

	if (in->synced || in->app_bytes_written < CACHE_MIN_EVIDENCE)
		return;
	if (in_memory_fs(in->fstype)) {
		out->writes_absorbed = 1;
		out->write_reason = xasprintf("%s keeps files in memory: the %.1f MiB written "
					      "never reach a device",
					      in->fstype, w / MIB);
	} else if (in->have_devices && (double)in->dev_bytes_written < w * CACHE_WRITE_RATIO) {
		out->writes_absorbed = 1;
		out->write_reason = xasprintf("the application wrote %.1f MiB, the devices %.1f MiB "
					      "(%.0f%%), and the phase has no fsync, O_SYNC or "
					      "O_DIRECT: the page cache absorbed the writes, which "
					      "reach the devices after the measurement",
					      w / MIB, (double)in->dev_bytes_written / MIB,
					      (double)in->dev_bytes_written / w * 100.0);
	} else if (in->untimed_sync_seconds > 0 &&
		   in->untimed_sync_seconds >= busy * CACHE_UNTIMED_SYNC_SHARE) {
		out->writes_absorbed = 1;
		out->write_reason = xasprintf("the fsync after the timing took %.3f s of the "
					      "workers' %.3f s: the %.1f MiB were timed into the "
					      "page cache and reached the devices in the fsync "
					      "the figure leaves out",
					      in->untimed_sync_seconds, busy, w / MIB);
	}
}

void cache_assess(const struct cache_inputs *in, struct result_cache *out)
{
	uint64_t ws = in->read_working_set;
	int zfs = in->fstype && !strcmp(in->fstype, "zfs");

	out->assessed = 1;
	out->likely_cached = 0;
	out->memory_fs = in_memory_fs(in->fstype);
	out->read_working_set_bytes = ws;
	out->ram_bytes = in->mem.total;
	out->mem_available_bytes = in->mem.available;
	out->page_cache_bytes = in->mem.cached;
	out->arc_bytes = in->mem.arc_size;
	out->arc_max_bytes = in->mem.arc_max;

	if (!in->app_bytes_read) {
		out->reason = xstrdup("no data was read");
	} else if (in->direct && !zfs && !in_memory_fs(in->fstype)) {
		/* ZFS before 2.3 accepts O_DIRECT but still caches in the ARC */
		out->reason = xstrdup("reads used O_DIRECT, which bypasses the page cache");
	} else if (in_memory_fs(in->fstype)) {
		out->likely_cached = 1;
		out->reason = xasprintf("%s keeps files in memory", in->fstype);
	} else if (in->have_devices && in->app_bytes_read >= CACHE_MIN_EVIDENCE) {
		double r = (double)in->dev_bytes_read / (double)in->app_bytes_read;

		out->likely_cached = r < CACHE_DEVICE_RATIO;
		out->reason = xasprintf("the devices read %.1f MiB for the %.1f MiB the application "
					"read (%.0f%%)%s",
					(double)in->dev_bytes_read / MIB,
					(double)in->app_bytes_read / MIB, r * 100.0,
					out->likely_cached ? ": the rest came from memory" : "");
	} else if (in->mem.arc_max > 0 && ws <= (uint64_t)in->mem.arc_max) {
		out->likely_cached = 1;
		out->reason = xasprintf("the read working set (%.1f MiB) fits in the ZFS ARC "
					"(up to %.1f MiB)",
					(double)ws / MIB, (double)in->mem.arc_max / MIB);
	} else if (in->mem.available && ws <= in->mem.available) {
		out->likely_cached = 1;
		out->reason = xasprintf("the read working set (%.1f MiB) fits in available memory "
					"(%.1f MiB of %.1f MiB RAM)",
					(double)ws / MIB, (double)in->mem.available / MIB,
					(double)in->mem.total / MIB);
	} else if (in->mem.available) {
		out->reason = xasprintf("the read working set (%.1f MiB) exceeds available memory "
					"(%.1f MiB)",
					(double)ws / MIB, (double)in->mem.available / MIB);
	} else {
		out->reason = xstrdup("memory size unknown");
	}

	cache_assess_writes(in, out);
	if (in->ceiling_mb_s > 0 && in->seconds > 0 && !in->too_fast) {
		double rd = (double)in->app_bytes_read / 1e6 / in->seconds;
		double wr = (double)in->app_bytes_written / 1e6 / in->seconds;

		if (rd > in->ceiling_mb_s) {
			out->rate_implausible = 1;
			out->rate_reason = xasprintf("reads at %.0f MB/s exceed what %s can deliver "
						     "(%.0f MB/s): they came from memory",
						     rd, in->devices ? in->devices : "the devices",
						     in->ceiling_mb_s);
		} else if (wr > in->ceiling_mb_s) {
			out->rate_implausible = 1;
			out->rate_reason = xasprintf("writes at %.0f MB/s exceed what %s can absorb "
						     "(%.0f MB/s): they went to memory, not to the "
						     "devices",
						     wr, in->devices ? in->devices : "the devices",
						     in->ceiling_mb_s);
		}
	}
}

/* *acc joined with "target K 'path': why" ("; " between). */
static void reason_join(char **acc, size_t k, const char *path, const char *why)
{
	char *s = xasprintf("%s%starget %zu '%s': %s", *acc ? *acc : "", *acc ? "; " : "", k + 1,
			    path, why ? why : "");

	free(*acc);
	*acc = s;
}

void cache_combine_targets(struct result_phase *ph)
{
	struct result_cache *c = &ph->cache;
	int all_memory = 1;

	free(c->reason);
	free(c->write_reason);
	free(c->rate_reason);
	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < ph->ntargets; k++) {
		const struct result_target *t = &ph->targets[k];
		const struct result_cache *x = &t->cache;

		if (!x->assessed)
			continue;
		if (!c->assessed) {
			c->ram_bytes = x->ram_bytes;
			c->mem_available_bytes = x->mem_available_bytes;
			c->page_cache_bytes = x->page_cache_bytes;
			c->arc_bytes = x->arc_bytes;
			c->arc_max_bytes = x->arc_max_bytes;
		}
		c->assessed = 1;
		all_memory &= x->memory_fs;
		c->read_working_set_bytes += x->read_working_set_bytes;
		if (x->likely_cached) {
			c->likely_cached = 1;
			reason_join(&c->reason, k, t->path, x->reason);
		}
		if (x->writes_absorbed) {
			c->writes_absorbed = 1;
			reason_join(&c->write_reason, k, t->path, x->write_reason);
		}
		if (x->rate_implausible) {
			c->rate_implausible = 1;
			reason_join(&c->rate_reason, k, t->path, x->rate_reason);
		}
	}
	c->memory_fs = c->assessed && all_memory;
}
