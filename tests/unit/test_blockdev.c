/* test_blockdev.c — unit tests for util/blockdev.c: the rules
 * (blockdev_allowed() on made-up findings), what is refused before any
 * driver's open (FIFOs, regular files), and, as root on two loop devices,
 * that the checks and the I/O are about one device even when the path
 * names another one in between.
 *
 * That last part does not race: this program defines open() (and the
 * fortified __open_2()), which the objects linked in call instead of
 * libc's.  Ours calls libc's, then, right after the first open of the
 * test's symlink, points the symlink at the other device — the moment a
 * check-by-path-then-open-by-path would lose, every time. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/blockdev.h"

/* --- the open() interposer ------------------------------------------------- */

static char swap_path[512]; /* the symlink whose opens are counted */
static char swap_to[512];   /* where it points after the first one */
static int path_opens;

/* Point swap_path at `to`, atomically (as `ln -sfn` and `mv -T` do). */
static void swap_link_to(const char *to)
{
	char tmp[600];

	snprintf(tmp, sizeof(tmp), "%s.tmp", swap_path);
	unlink(tmp);
	if (symlink(to, tmp) < 0 || rename(tmp, swap_path) < 0)
		perror("swapping the test symlink");
}

static int counted_open(const char *path, int flags, mode_t mode)
{
	static int (*real_open)(const char *, int, ...);
	int fd;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	fd = real_open(path, flags, mode);
	if (swap_path[0] && !strcmp(path, swap_path) && ++path_opens == 1 && swap_to[0])
		swap_link_to(swap_to);
	return fd;
}

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return counted_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return counted_open(path, flags, mode);
}

int __open_2(const char *path, int flags)
{
	return counted_open(path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
	return counted_open(path, flags, 0);
}

/* --- tests that need no device ---------------------------------------------- */

static void test_rules(void)
{
	static const struct {
		struct blockdev_policy p;
		int mounted, swap, held, sig;
		int want;
		const char *what;
	} t[] = {
		{ { 0, 0, 0 }, 1, 1, 1, 1, 0, "reading: always allowed" },
		{ { 1, 0, 0 }, 0, 0, 0, 0, BLOCKDEV_REFUSED, "writing needs --allow-write-device" },
		{ { 1, 1, 0 }, 0, 0, 0, 0, 0, "an unused blank device may be written" },
		{ { 1, 1, 0 }, 1, 0, 0, 0, BLOCKDEV_REFUSED, "mounted: refused" },
		{ { 1, 1, 0 }, 0, 1, 0, 0, BLOCKDEV_REFUSED, "swap: refused" },
		{ { 1, 1, 0 }, 0, 0, 1, 0, BLOCKDEV_REFUSED, "held: refused" },
		{ { 1, 1, 0 }, 0, 0, 0, 1, BLOCKDEV_REFUSED, "a signature: refused" },
		{ { 1, 1, 0 }, 0, 0, 0, -1, BLOCKDEV_REFUSED, "unreadable (signature unknown): refused" },
		{ { 1, 1, 1 }, 1, 1, 1, 1, 0, "--force-destroy-data allows all of it" },
		{ { 1, 0, 1 }, 0, 0, 0, 0, BLOCKDEV_REFUSED, "--force-destroy-data alone does not" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blockdev_info bi = { .mounted = t[i].mounted,
					    .swap = t[i].swap,
					    .held = t[i].held,
					    .has_signature = t[i].sig };

		strcpy(bi.mountpoint, "/mnt");
		strcpy(bi.holder, "dm-0");
		strcpy(bi.signature, "ext4");
		is_int(blockdev_allowed("/dev/x", &bi, &t[i].p), t[i].want, "%s", t[i].what);
	}
	ok(BLOCKDEV_REFUSED != -EPERM && BLOCKDEV_REFUSED != -EACCES,
	   "a refusal is told apart from the kernel's EPERM and EACCES");
}

static void test_not_devices(const char *dir)
{
	struct blockdev_policy ro = {0};
	char fifo[600], file[600];
	struct stat st;
	int fd;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	if (mkfifo(fifo, 0600) < 0 || (fd = creat(file, 0600)) < 0) {
		ok(0, "make a FIFO and a file");
		return;
	}
	close(fd);
	/* a read-only open of a FIFO without a writer would block here */
	is_int(blockdev_anchor(fifo, &st), -ENOTBLK, "a FIFO is refused without being opened");
	is_int(blockdev_open(fifo, &ro, 0), -ENOTBLK, "blockdev_open() of a FIFO: -ENOTBLK");
	is_int(blockdev_anchor(file, &st), -ENOTBLK, "a regular file is not a device");
	is_int(blockdev_anchor("", &st), -ENOENT, "an empty name: -ENOENT");
	unlink(fifo);
	unlink(file);
}

/* --- the same device for the checks and the I/O (root, loop devices) -------- */

static int loop_attach(const char *img, char *dev, size_t len)
{
	char cmd[700];
	FILE *f;
	int ok_ = 0;

	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>/dev/null", img);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(dev, (int)len, f)) {
		dev[strcspn(dev, "\n")] = 0;
		ok_ = dev[0] == '/';
	}
	if (pclose(f) != 0)
		ok_ = 0;
	return ok_ ? 0 : -1;
}

static void loop_detach(const char *dev)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot detach %s\n", dev);
}

static dev_t rdev_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_rdev : (dev_t)-1;
}

static dev_t rdev_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_rdev : (dev_t)-1;
}

/* Point `link` at `from`; the first open of `link` then repoints it at
 * `to`. */
static void arm(const char *link, const char *from, const char *to)
{
	snprintf(swap_path, sizeof(swap_path), "%s", link);
	swap_to[0] = 0;
	swap_link_to(from);
	snprintf(swap_to, sizeof(swap_to), "%s", to);
	path_opens = 0;
}

static void test_same_device(const char *dir)
{
	struct blockdev_policy w = {.write = 1, .allow_write = 1}, ro = {0};
	char blank_img[600], data_img[600], link[600], blank[512], data[512];
	struct stat st;
	int fd, anchor;

	snprintf(blank_img, sizeof(blank_img), "%s/blank.img", dir);
	snprintf(data_img, sizeof(data_img), "%s/data.img", dir);
	snprintf(link, sizeof(link), "%s/dev", dir);
	fd = open(blank_img, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 8 << 20) < 0) {
		ok(0, "create %s", blank_img);
		return;
	}
	close(fd);
	/* a DOS partition table's boot signature: "holds data" */
	fd = open(data_img, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 8 << 20) < 0 || pwrite(fd, "\x55\xaa", 2, 510) != 2) {
		ok(0, "create %s", data_img);
		return;
	}
	close(fd);
	if (loop_attach(blank_img, blank, sizeof(blank)) < 0) {
		ok(1, "# SKIP cannot set up a loop device");
		return;
	}
	if (loop_attach(data_img, data, sizeof(data)) < 0) {
		ok(1, "# SKIP cannot set up a second loop device");
		loop_detach(blank);
		return;
	}

	/* the checks see the blank device; the path then names the one with
	 * data: what is written must be the blank one (or nothing) */
	arm(link, blank, data);
	fd = blockdev_open(link, &w, 0);
	ok(fd >= 0, "write open through a link to a blank device: allowed");
	ok(fd < 0 || rdev_fd(fd) == rdev_of(blank),
	   "the descriptor written through is the device checked, not the one the link "
	   "names after the checks");
	is_int(path_opens, 1, "the path is opened once (checks and I/O share that open)");
	if (fd >= 0)
		close(fd);

	/* the other way round: the device with data is refused, whatever the
	 * path names afterwards */
	arm(link, data, blank);
	is_int(blockdev_open(link, &w, 0), BLOCKDEV_REFUSED,
	       "write open through a link to a device with data: refused although the link "
	       "then names a blank one");
	is_int(path_opens, 1, "  the path is opened once");

	/* reading: the device read is the one the path named at the open */
	arm(link, data, blank);
	fd = blockdev_open(link, &ro, O_DIRECT);
	ok(fd >= 0 && rdev_fd(fd) == rdev_of(data), "read-only open: the device first named");
	ok(fd >= 0 && (fcntl(fd, F_GETFL) & O_DIRECT), "  with O_DIRECT set after the checks");
	if (fd >= 0)
		close(fd);

	/* an anchor keeps its device: inspect and reopen follow it, not the path */
	arm(link, blank, data);
	anchor = blockdev_anchor(link, &st);
	ok(anchor >= 0 && st.st_rdev == rdev_of(blank), "anchor: the device the link names");
	if (anchor >= 0) {
		struct blockdev_info bi;
		int rfd = blockdev_reopen(anchor, O_RDONLY);

		ok(rdev_of(link) == rdev_of(data), "  the link has moved on");
		ok(rfd >= 0 && rdev_fd(rfd) == rdev_of(blank), "  reopen: the anchor's device");
		ok(rfd >= 0 && blockdev_inspect(rfd, &bi) == 0 && bi.rdev == rdev_of(blank) &&
			   bi.size_known && bi.size == 8 << 20 && bi.has_signature == 0,
		   "  inspect of that descriptor: blank, 8 MiB");
		if (rfd >= 0)
			close(rfd);
		ok(blockdev_inspect(anchor, &bi) == 0 && !bi.size_known && bi.has_signature < 0,
		   "  inspect of the anchor itself (O_PATH): size and signature unknown");
		close(anchor);
	}
	swap_path[0] = 0;
	loop_detach(data);
	loop_detach(blank);
}

int main(void)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/fsgauge-blockdev.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP cannot create a temporary directory\n");
		return 0;
	}
	test_rules();
	test_not_devices(dir);
	if (geteuid() == 0)
		test_same_device(dir);
	else
		ok(1, "# SKIP the same-device tests need root (loop devices)");
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", dir);
	}
	return done_testing();
}
