/*
 * cache.h — cache honesty: decide whether a phase's reads were likely
 * served from memory, and whether a rate is beyond what its devices can
 * do.  Pure computation on figures sampled by the runner; the rules and
 * their order are documented in docs/trust.md.
 */
#ifndef FSGAUGE_CACHE_H
#define FSGAUGE_CACHE_H

#include <stdint.h>

#include "stats/result.h"
#include "stats/sysstat.h"

/* Reads below this (bytes) are too few for the device evidence. */
#define CACHE_MIN_EVIDENCE (1u << 20)
/* Devices reading less than this fraction of the application's bytes
 * means the rest came from memory. */
#define CACHE_DEVICE_RATIO 0.5
/* Devices writing less than this fraction of the application's bytes,
 * with nothing forcing them out, means the writes stayed in memory. */
#define CACHE_WRITE_RATIO 0.1
/* A sync the figure does not time taking at least this share of the
 * workers' time: the figure is at least twice what the storage did. */
#define CACHE_UNTIMED_SYNC_SHARE 0.5

struct cache_inputs {
	int direct;		   /* every read used O_DIRECT */
	const char *fstype;	   /* "ext4", "tmpfs", "zfs"; NULL if unknown */
	double seconds;		   /* measured window */
	int too_fast;
	uint64_t app_bytes_read, app_bytes_written;
	uint64_t read_working_set; /* bytes the reads could touch */
	int have_devices;	   /* device counters were measured */
	uint64_t dev_bytes_read;
	uint64_t dev_bytes_written;
	int synced;		   /* the phase fsyncs, or writes with O_SYNC/O_DSYNC/O_DIRECT */
	/* the workers' seconds in syncs the suite's figure does not time
	 * (iozone's fsync after its timing, without -e); not in synced */
	double untimed_sync_seconds;
	unsigned nthreads;	   /* the phase's workers */
	struct meminfo mem;	   /* at the start of the measured window */
	double ceiling_mb_s;	   /* devices_ceiling_mb_s(); 0: no ceiling known */
	const char *devices;	   /* "sda (hdd)", for the messages */
};

/* Fill out's verdicts and figures (frees nothing: out's strings must be
 * NULL on entry; the caller frees them). */
void cache_assess(const struct cache_inputs *in, struct result_cache *out);

/* Several targets (ph->targets, each assessed): the phase's verdict made
 * of theirs, replacing ph->cache.  Reads likely cached, writes absorbed,
 * a rate implausible: when on any target, each such target named in the
 * reason ("target 2 '/b': ..."); memory_fs when every target keeps its
 * files in memory; the read working set the targets' sum. */
void cache_combine_targets(struct result_phase *ph);

#endif
