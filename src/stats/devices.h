/*
 * devices.h — the block devices under a directory, what they are, and
 * their I/O counters.
 *
 * devices_find() maps a directory to the block devices that hold its data:
 * the mount (/proc/self/mountinfo) gives a device number, /sys/dev/block
 * names it, and device-mapper and md devices are followed through their
 * slaves/ down to the devices below (so a RAID-1 mirror shows both disks
 * and the write amplification of mirroring).  Partitions are counted as
 * partitions (other partitions of the disk are not ours) but described by
 * their disk (model, rotational, scheduler).  Loop devices are counted
 * themselves; their backing file is recorded, not followed.  btrfs lists
 * its member devices in /sys/fs/btrfs/UUID/devices; a ZFS pool's devices
 * come from `zpool status -P -L POOL` when the command exists.  File
 * systems without a block device (tmpfs, nfs, overlay, ...) get a reason
 * instead.
 *
 * devices_sample() reads the cumulative counters of those devices from
 * /proc/diskstats; the difference of two samples (dev_io_sub) is what the
 * devices did in between.
 */
#ifndef FSGAUGE_DEVICES_H
#define FSGAUGE_DEVICES_H

#include <stddef.h>
#include <sys/types.h>

#include "stats/result.h"

#define DEVICES_MAX 64

struct device {
	char name[64];	/* as in /proc/diskstats: "sda1", "loop0", "nvme0n1p2" */
	char disk[64];	/* the whole disk for a partition ("sda"), else name */
	unsigned major, minor;
};

#define DEVICES_MD_MAX 8

/* An md (Linux software RAID) array found on the way down, from its
 * sysfs md/ directory: the work it is doing beside the benchmark's. */
struct md_state {
	char name[32];		  /* "md0" */
	char level[16];		  /* "raid5" */
	char sync_action[16];	  /* "idle", "resync", "recover", "check", "repair", "reshape" */
	char sync_completed[48];  /* "1024 / 2097152" (sectors), "none", or "" */
	double sync_pct;	  /* of sync_completed; -1 when not syncing or unknown */
	long degraded;		  /* missing members; -1 unknown */
};

struct devices {
	size_t n;
	struct device dev[DEVICES_MAX];
	char none[256];	 /* when n == 0: why ("tmpfs has no block device") */
	char stack[512]; /* how they were found: "dm-0 -> sda2 sdb2" */
	struct md_state md[DEVICES_MD_MAX]; /* the md arrays above them */
	size_t nmd;
};

/* Read md array `name`'s state from its sysfs md directory (mddir:
 * "/sys/block/md0/md", or a fixture's).  0, or -errno when it has no
 * sync_action (not an md array). */
int devices_md_read(const char *mddir, const char *name, struct md_state *out);
/* Whether the array was doing its own I/O (a resync, recovery, check,
 * repair or reshape) or is degraded: what a run's figures then include. */
int devices_md_busy(const struct md_state *m);

/* Find the devices under `path`.  Always fills `out` (n = 0 with a reason
 * when there are none); returns the number of devices. */
int devices_find(const char *path, struct devices *out);
/* The same for block devices used directly (iozone -f/-F /dev/X): each
 * device (followed through dm/md to the devices below, as above).
 * Returns the number of devices. */
int devices_find_devnums(const dev_t *devs, size_t n, struct devices *out);

/* Cumulative counters of each device into per[0..n) (zeros for a device
 * that has vanished).  Returns 0 or -errno (message printed once). */
int devices_sample(const struct devices *d, struct dev_io *per);

/* Parse one /proc/diskstats line.  Returns 0, or -EINVAL for a line that
 * is not one. */
int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor, char *name,
			 size_t namelen, struct dev_io *io);

/* What sysfs says about a device's disk; empty strings and -1 when
 * unknown. */
struct device_props {
	int rotational;		/* 1, 0, or -1 */
	char model[128];
	char scheduler[32];	/* the active one: "mq-deadline" */
	long nr_requests;	/* block-layer queue size */
	long queue_depth;	/* device (SCSI/SATA) queue depth */
	char write_cache[32];	/* "write back" / "write through" */
	char backing_file[512];	/* loop devices */
	const char *class;	/* "hdd", "ssd", "nvme", "mmc", "virtual", "loop",
				 * "memory", "unknown" */
	double ceiling_mb_s;	/* plausible sequential rate ceiling (10^6 B/s)
				 * of the class, 0 when it has none */
};
void devices_props(const struct device *d, struct device_props *p);

/* Sum of the devices' ceilings, or 0 when any device has none (or there
 * are no devices). */
double devices_ceiling_mb_s(const struct devices *d);

/* Parse `zpool status -P -L` output: the leaf vdev paths ("/dev/sda1"),
 * at most max of them, each < 256 bytes.  Returns how many. */
size_t devices_parse_zpool_status(const char *text, char (*paths)[256], size_t max);

#endif
