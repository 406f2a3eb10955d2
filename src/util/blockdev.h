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
 *    it when someone mounts or claims it after our checks;
 *  - the checks are made on the descriptor the I/O then uses (below), not
 *    on the path.
 *
 * Signatures are found with libblkid when built with it (HAVE_LIBBLKID);
 * without it a built-in check of the common magic numbers is used (ext2/3/4,
 * XFS, btrfs, swap, LVM2, LUKS, MBR and GPT partition tables).
 */
#ifndef FSGAUGE_BLOCKDEV_H
#define FSGAUGE_BLOCKDEV_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* What blockdev_allowed() and the opens return when the rules refuse an
 * access (an errno open(2) never gives, so a refusal is told apart from
 * the kernel's own EPERM or EACCES). */
#define BLOCKDEV_REFUSED (-ECANCELED)

struct blockdev_policy {
	int write;	   /* the caller wants to write */
	int allow_write;   /* --allow-write-device */
	int force_destroy; /* --force-destroy-data */
};

/* What blockdev_inspect() found about a device. */
struct blockdev_info {
	dev_t rdev;
	uint64_t size;	   /* bytes, when size_known */
	int size_known;	   /* 0: the device could not be opened for reading */
	int mounted;	   /* it or one of its partitions is mounted */
	char mountpoint[1024];
	int swap;	   /* used as swap */
	int held;	   /* /sys/.../holders is not empty (dm, md, ...) */
	char holder[64];
	int has_signature; /* 1 found, 0 none, -1 could not tell */
	char signature[64]; /* "ext4", "gpt", "swap", ... */
};

/* 1 when `path` is a block device (following symlinks), 0 when not,
 * -errno when it cannot be stat-ed.  For telling targets apart only:
 * what a path names can change, so no safety decision rests on this. */
int blockdev_is(const char *path);

/*
 * Every check and the I/O go through one device, whatever happens to its
 * path meanwhile (a symlink swapped between two devices must not let the
 * checks see one and the writes reach the other):
 *
 *	anchor = blockdev_anchor(path, &st);       O_PATH: no driver open yet
 *	fd = blockdev_open_anchor(anchor, path, &policy, O_DIRECT);
 *
 * blockdev_open_anchor() opens the anchor's inode once (through
 * /proc/self/fd, never by the path again) in the mode the I/O needs,
 * inspects that descriptor (fstat's st_rdev for the mount table, swap and
 * holders; libblkid on the descriptor for the signature), applies the
 * rules and returns that same descriptor.  blockdev_open() does both.
 */

/* An O_PATH descriptor for block device `path` (symlinks followed), its
 * stat in *st.  Returns the descriptor, -ENOTBLK when `path` is not a
 * block device (nothing opened behind it: FIFOs and character devices are
 * never opened), or -errno.  Prints nothing. */
int blockdev_anchor(const char *path, struct stat *st);

/* Open the device `anchor` (from blockdev_anchor() or any descriptor of a
 * block device) holds, with open(2) `flags` (O_CLOEXEC added).  Returns
 * the new descriptor, for the same device (checked), or -errno.  Prints
 * nothing. */
int blockdev_reopen(int anchor, int flags);

/* Fill *info for the block device open as `fd`.  Size and signature need
 * a descriptor open for reading (not O_PATH, not O_DIRECT): otherwise
 * size_known is 0 and has_signature -1.  Returns 0 or -errno (-ENOTBLK
 * when `fd` is not a block device); prints nothing. */
int blockdev_inspect(int fd, struct blockdev_info *info);

/* Apply the rules above to what blockdev_inspect() found; `name` is for
 * messages.  Returns 0 when the access is allowed, or BLOCKDEV_REFUSED after a
 * message saying what was refused and which option would allow it
 * ("refusing to write to '/dev/sdb': it holds ext4 data (a 'ext4'
 * signature; use --force-destroy-data to overwrite it)"). */
int blockdev_allowed(const char *name, const struct blockdev_info *info,
		     const struct blockdev_policy *p);

/* The checked open: the device `anchor` holds, O_RDONLY, or O_RDWR |
 * O_EXCL when writing is allowed, plus `extra_flags` (O_DIRECT is set
 * after the checks, which read through the page cache).  Returns the
 * descriptor, BLOCKDEV_REFUSED when refused, or -errno (message printed).  The
 * caller keeps `anchor`. */
int blockdev_open_anchor(int anchor, const char *name, const struct blockdev_policy *p,
			 int extra_flags);

/* blockdev_anchor() then blockdev_open_anchor().  Returns the descriptor,
 * BLOCKDEV_REFUSED when refused, or -errno (message printed). */
int blockdev_open(const char *path, const struct blockdev_policy *p, int extra_flags);

/* The size in bytes of the device open as `fd`.  Returns 0 or -errno
 * (nothing printed). */
int blockdev_size(int fd, uint64_t *size);

/* The most bytes one discard (BLKDISCARD, fio's trim) may cover on the
 * device open as `fd`, from /sys/dev/block/M:m/queue/discard_max_bytes
 * (a partition's from its disk's queue): 0 when the device does not
 * discard.  Returns 0 or -errno (nothing printed). */
int blockdev_discard_max(int fd, uint64_t *max);

#endif
