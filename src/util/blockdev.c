/* blockdev.c — block-device safety checks and the checked open; see
 * blockdev.h. */
#include "util/blockdev.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifdef HAVE_LIBBLKID
#include <blkid/blkid.h>
#endif

#include "util/util.h"

int blockdev_is(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return S_ISBLK(st.st_mode) ? 1 : 0;
}

/* Is device `dev` the source of a mount?  Fills `where` with the first
 * mount point found. */
static int mounted_dev(dev_t dev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[1024];

		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min, mnt) != 3)
			continue;
		if (makedev(maj, min) == dev) {
			snprintf(where, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Is device `dev` an active swap area?  /proc/swaps names it by path. */
static int swap_dev(dev_t dev)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char path[2048];
		struct stat st;

		if (sscanf(line, "%2047s", path) == 1 && path[0] == '/' && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = 1;
	}
	fclose(f);
	return found;
}

/* The first entry of /sys/dev/block/M:m/holders, if any. */
static int held_dev(dev_t dev, char *holder, size_t len)
{
	char path[128];
	DIR *d;
	struct dirent *de;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(dev), minor(dev));
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(holder, len, "%.63s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

/* Check the device and, for a whole disk, each of its partitions
 * (/sys/dev/block/M:m/<part>/dev) for mounts, swap and holders. */
static void usage_of(dev_t dev, struct blockdev_info *bi)
{
	char path[128];
	DIR *d;
	struct dirent *de;

	bi->mounted = mounted_dev(dev, bi->mountpoint, sizeof(bi->mountpoint));
	bi->swap = swap_dev(dev);
	bi->held = held_dev(dev, bi->holder, sizeof(bi->holder));
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char devfile[512], buf[64];
		unsigned maj, min;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(devfile, sizeof(devfile), "%s/%s/partition", path, de->d_name);
		if (access(devfile, F_OK) < 0)
			continue;
		snprintf(devfile, sizeof(devfile), "%s/%s/dev", path, de->d_name);
		f = fopen(devfile, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2) {
			dev_t pd = makedev(maj, min);

			if (!bi->mounted)
				bi->mounted = mounted_dev(pd, bi->mountpoint, sizeof(bi->mountpoint));
			if (!bi->swap)
				bi->swap = swap_dev(pd);
			if (!bi->held)
				bi->held = held_dev(pd, bi->holder, sizeof(bi->holder));
		}
		fclose(f);
	}
	closedir(d);
}

#ifdef HAVE_LIBBLKID
static int signature_of(int fd, char *type, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *v = NULL;
	int ret = -1;

	if (!pr)
		return -1;
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0)
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* blkid_do_probe: every signature, even ambivalent ones (two file
	 * systems' magics on one device is still "has data") */
	switch (blkid_do_probe(pr)) {
	case 0:
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) < 0 &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) < 0)
			v = "unknown";
		snprintf(type, len, "%s", v);
		ret = 1;
		break;
	case 1:
		ret = 0;
		break;
	default:
		ret = -1;
	}
out:
	blkid_free_probe(pr);
	return ret;
}
#else
/* The common signatures, for builds without libblkid. */
static int signature_of(int fd, char *type, size_t len)
{
	static const struct {
		const char *name;
		off_t off;
		const char *magic;
		size_t n;
	} sigs[] = {
		{ "ext4", 0x438, "\x53\xef", 2 },
		{ "xfs", 0, "XFSB", 4 },
		{ "btrfs", 0x10040, "_BHRfS_M", 8 },
		{ "swap", 4086, "SWAPSPACE2", 10 },
		{ "swap", 4086, "SWAP-SPACE", 10 },
		{ "LVM2_member", 0x218, "LVM2 001", 8 },
		{ "crypto_LUKS", 0, "LUKS\xba\xbe", 6 },
		{ "gpt", 512, "EFI PART", 8 },
		{ "dos", 510, "\x55\xaa", 2 },
	};
	char buf[16];

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		ssize_t n = pread(fd, buf, sigs[i].n, sigs[i].off);

		if (n < 0)
			return -1;
		if ((size_t)n == sigs[i].n && !memcmp(buf, sigs[i].magic, sigs[i].n)) {
			snprintf(type, len, "%s", sigs[i].name);
			return 1;
		}
	}
	return 0;
}
#endif

/* Open `path` itself, without opening the device behind it: an O_PATH
 * descriptor, the anchor every later open and check goes through, so that
 * they all see the one device the path named at this moment.  A FIFO, a
 * character device or anything else is refused here, before any driver's
 * open runs.  Returns the descriptor, -ENOTBLK or -errno. */
int blockdev_anchor(const char *path, struct stat *st)
{
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (!S_ISBLK(st->st_mode)) {
		close(fd);
		return -ENOTBLK;
	}
	return fd;
}

int blockdev_reopen(int anchor, int flags)
{
	struct stat a, b;
	char proc[64];
	int fd;

	if (fstat(anchor, &a) < 0)
		return -errno;
	/* the inode the anchor holds, whatever its path names now */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", anchor);
	fd = open(proc, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &b) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (!S_ISBLK(b.st_mode) || b.st_rdev != a.st_rdev) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

int blockdev_inspect(int fd, struct blockdev_info *bi)
{
	struct stat st;
	int fl;

	memset(bi, 0, sizeof(*bi));
	bi->has_signature = -1;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	bi->rdev = st.st_rdev;
	usage_of(st.st_rdev, bi);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_PATH) || (fl & O_ACCMODE) == O_WRONLY)
		return 0; /* usage known; size and signature unknown */
	if (ioctl(fd, BLKGETSIZE64, &bi->size) == 0)
		bi->size_known = 1;
	else
		bi->size = 0;
	/* blkid reads through the page cache with buffers of its own:
	 * O_DIRECT is set on the descriptor after the checks, not before */
	if (!(fl & O_DIRECT))
		bi->has_signature = signature_of(fd, bi->signature, sizeof(bi->signature));
	return 0;
}

int blockdev_allowed(const char *name, const struct blockdev_info *bi,
		     const struct blockdev_policy *p)
{
	if (!p->write)
		return 0;
	if (!p->allow_write) {
		msg_err("refusing to write to block device '%s': fsgauge only reads devices unless "
			"--allow-write-device is given",
			name);
		return BLOCKDEV_REFUSED;
	}
	if (p->force_destroy)
		return 0;
	if (bi->mounted) {
		msg_err("refusing to write to '%s': it is mounted on '%s' (use "
			"--force-destroy-data to overwrite it anyway)",
			name, bi->mountpoint);
		return BLOCKDEV_REFUSED;
	}
	if (bi->swap) {
		msg_err("refusing to write to '%s': it is in use as swap (use --force-destroy-data "
			"to overwrite it anyway)",
			name);
		return BLOCKDEV_REFUSED;
	}
	if (bi->held) {
		msg_err("refusing to write to '%s': it is in use by '%s' (use --force-destroy-data "
			"to overwrite it anyway)",
			name, bi->holder);
		return BLOCKDEV_REFUSED;
	}
	if (bi->has_signature == 1) {
		msg_err("refusing to write to '%s': it holds %s data (a '%s' signature; use "
			"--force-destroy-data to overwrite it)",
			name, bi->signature, bi->signature);
		return BLOCKDEV_REFUSED;
	}
	if (bi->has_signature < 0) {
		msg_err("refusing to write to '%s': cannot read it to look for a file system (use "
			"--force-destroy-data to overwrite it anyway)",
			name);
		return BLOCKDEV_REFUSED;
	}
	return 0;
}

int blockdev_size(int fd, uint64_t *size)
{
	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		return -errno;
	return 0;
}

int blockdev_open_anchor(int anchor, const char *name, const struct blockdev_policy *p,
			 int extra_flags)
{
	struct blockdev_info bi;
	int fd, ret, fl;

	if (p->write && !p->allow_write) {
		memset(&bi, 0, sizeof(bi));
		return blockdev_allowed(name, &bi, p);
	}
	/* one open, in the mode the I/O needs: the checks below and the I/O
	 * use this descriptor, so they are about the same device */
	fd = blockdev_reopen(anchor, (p->write ? O_RDWR | O_EXCL : O_RDONLY) |
					     (extra_flags & ~O_DIRECT));
	if (fd < 0) {
		if (fd == -EBUSY && p->write) {
			/* the kernel refuses the exclusive open of a device in
			 * use: say why, from the anchor (the same device) */
			if (blockdev_inspect(anchor, &bi) == 0 && blockdev_allowed(name, &bi, p) < 0)
				return BLOCKDEV_REFUSED;
			return err_errno(fd, "cannot open '%s' for writing: it is in use "
					     "(mounted or claimed by another driver)",
					 name);
		}
		return err_errno(fd, "cannot open device '%s'", name);
	}
	ret = blockdev_inspect(fd, &bi);
	if (ret < 0) {
		close(fd);
		return err_errno(ret, "cannot use device '%s'", name);
	}
	ret = blockdev_allowed(name, &bi, p);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	if ((extra_flags & O_DIRECT) &&
	    ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT) < 0)) {
		ret = -errno;
		close(fd);
		return err_errno(ret, "cannot use direct I/O on device '%s'", name);
	}
	return fd;
}

int blockdev_open(const char *path, const struct blockdev_policy *p, int extra_flags)
{
	struct stat st;
	int anchor = blockdev_anchor(path, &st);
	int fd;

	if (anchor < 0)
		return err_errno(anchor, "cannot use device '%s'", path);
	fd = blockdev_open_anchor(anchor, path, p, extra_flags);
	close(anchor);
	return fd;
}

int blockdev_discard_max(int fd, uint64_t *max)
{
	static const char *const where[] = { "queue", "../queue" };
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char path[160];
		unsigned long long v;
		FILE *f;
		int ok;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/discard_max_bytes",
			 major(st.st_rdev), minor(st.st_rdev), where[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		ok = fscanf(f, "%llu", &v) == 1;
		fclose(f);
		if (!ok)
			return -EIO;
		*max = (uint64_t)v;
		return 0;
	}
	return -ENOENT;
}
