/*
 * slowfuse.c — a FUSE file system with one file, a slow disk image, for
 * tests/cli/insight_device.sh: a loop device on it is a device whose every
 * request takes at least DELAY_US, so that it is busy while fsgauge waits.
 *
 *   cc -o slowfuse slowfuse.c $(pkg-config --cflags --libs fuse3)
 *   slowfuse IMAGE DELAY_US MOUNTPOINT     (stays in the foreground)
 *
 * MOUNTPOINT/disk.img is IMAGE: each read and write sleeps DELAY_US, then
 * reads or writes IMAGE at the same offset.  The file is opened with
 * direct_io, so the kernel sends every read and write here instead of
 * answering from the page cache: a loop device's request is in flight
 * for the whole delay.  One thread answers the requests one at a time, as
 * a disk with one head would.  Unmounting the mount point ends it.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int image_fd = -1;
static struct timespec delay;
static const char name[] = "disk.img";

static void slow(void)
{
	struct timespec left = delay;

	while (nanosleep(&left, &left) < 0 && errno == EINTR)
		;
}

static int sf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path + 1, name) != 0)
		return -ENOENT;
	if (fstat(image_fd, st) < 0)
		return -errno;
	st->st_ino = 2;
	return 0;
}

static int sf_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path + 1, name) != 0)
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

static int sf_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	ssize_t got;

	(void)path, (void)fi;
	slow();
	got = pread(image_fd, buf, n, off);
	return got < 0 ? -errno : (int)got;
}

static int sf_write(const char *path, const char *buf, size_t n, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t put;

	(void)path, (void)fi;
	slow();
	put = pwrite(image_fd, buf, n, off);
	return put < 0 ? -errno : (int)put;
}

static int sf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	slow();
	return (datasync ? fdatasync(image_fd) : fsync(image_fd)) < 0 ? -errno : 0;
}

static int sf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, name, NULL, 0, 0);
	return 0;
}

static const struct fuse_operations ops = {
	.getattr = sf_getattr,
	.open = sf_open,
	.read = sf_read,
	.write = sf_write,
	.fsync = sf_fsync,
	.readdir = sf_readdir,
};

int main(int argc, char **argv)
{
	char *fargv[] = { argv[0], "-f", "-s", "-o", "fsname=slowfuse", NULL, NULL };
	long us;

	if (argc != 4) {
		fprintf(stderr, "usage: slowfuse IMAGE DELAY_US MOUNTPOINT\n");
		return 2;
	}
	image_fd = open(argv[1], O_RDWR);
	if (image_fd < 0) {
		fprintf(stderr, "slowfuse: cannot open '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	us = strtol(argv[2], NULL, 10);
	if (us < 0 || us > 10000000) {
		fprintf(stderr, "slowfuse: bad delay '%s'\n", argv[2]);
		return 2;
	}
	delay.tv_sec = us / 1000000;
	delay.tv_nsec = us % 1000000 * 1000;
	fargv[5] = argv[3];
	return fuse_main(6, fargv, &ops, NULL);
}
