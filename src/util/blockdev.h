/*
 * blockdev.h — the one place that decides whether fsgauge may touch a
 * block device, and how it opens one.  Every front end that accepts a raw
 * device calls blockdev_open(); none opens a device by itself.  Today
 * that is `fsgauge iozone -f/-F /dev/X` (opens each device once, read-only
 * for read-only test selections, and hands the descriptor to the runner:
 * wl_fileset.has_device) and `fsgauge devcheck`; run, bonnie, untar and
 * verify work on directories only (docs/reliability.md, "Block devices").
 *
 * Rules (docs/reliability.md, DESIGN.md "Safety rules"):
 *  - a block device is opened read-only unless the user passed
 *    --allow-write-device;
 *  - even then, a device that is in use (mounted, itself or through a
 *    partition; used as swap; held by device-mapper, md or another
 *    holder) or that carries a file-system, RAID, LVM or partition-table
 *    signature is refused for writing unless --force-destroy-data;
 *  - a device opened for writing is opened O_EXCL, so the kernel refuses
 *    it when someone mounts or claims it between our checks and the open.
 *
 * Signatures are found with libblkid when built with it (HAVE_LIBBLKID);
 * without it a built-in check of the common magic numbers is used (ext2/3/4,
 * XFS, btrfs, swap, LVM2, LUKS, MBR and GPT partition tables).
 */
#ifndef FSGAUGE_BLOCKDEV_H
#define FSGAUGE_BLOCKDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct blockdev_policy {
	int write;	   /* the caller wants to write */
	int allow_write;   /* --allow-write-device */
	int force_destroy; /* --force-destroy-data */
};

/* What blockdev_inspect() found about a device. */
struct blockdev_info {
	dev_t rdev;
	uint64_t size;	   /* bytes */
	int mounted;	   /* it or one of its partitions is mounted */
	char mountpoint[1024];
	int swap;	   /* used as swap */
	int held;	   /* /sys/.../holders is not empty (dm, md, ...) */
	char holder[64];
	int has_signature; /* 1 found, 0 none, -1 could not tell */
	char signature[64]; /* "ext4", "gpt", "swap", ... */
};

/* 1 when `path` is a block device (following symlinks), 0 when not,
 * -errno when it cannot be stat-ed. */
int blockdev_is(const char *path);

/* Fill *info for block device `path`.  Reading the signature needs read
 * access to the device.  Returns 0 or -errno (-ENOTBLK when `path` is not
 * a block device); prints nothing. */
int blockdev_inspect(const char *path, struct blockdev_info *info);

/* Apply the rules above.  Returns 0 when the access is allowed, -EPERM
 * when refused, -ENOTBLK when `path` is not a block device, or -errno;
 * prints a message saying what was refused and which option would allow
 * it ("refusing to write to '/dev/sdb': it holds an ext4 file system
 * (use --force-destroy-data to overwrite it)"). */
int blockdev_check(const char *path, const struct blockdev_policy *p);

/* blockdev_check(), then open the device: O_RDONLY, or O_RDWR | O_EXCL
 * when writing is allowed; `extra_flags` (O_DIRECT, ...) are added.
 * Returns the descriptor or -errno (message printed). */
int blockdev_open(const char *path, const struct blockdev_policy *p, int extra_flags);

/* The size in bytes of the device open as `fd`.  Returns 0 or -errno
 * (nothing printed). */
int blockdev_size(int fd, uint64_t *size);

#endif
