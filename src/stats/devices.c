/* devices.c — block devices under a directory and their counters; see
 * devices.h. */
#include "stats/devices.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "stats/env.h"
#include "util/spawn.h"
#include "util/util.h"

/*
 * Plausible rate ceilings per device class, in MB/s (10^6 bytes), for
 * either direction: a measured application rate above the sum of its
 * devices' ceilings cannot have come from (or reached) the devices.  They
 * are deliberately generous — the fastest of each class on the market,
 * not typical ones — so a flag means "impossible", not "unusual":
 *   hdd   300 MB/s: the outer tracks of the fastest 7200-15k rpm disks
 *         reach about 290;
 *   ssd  1300 MB/s: SATA 3 tops out at 600, SAS-12 at about 1200;
 *   mmc   400 MB/s: eMMC 5.1 / UFS-less SD UHS-II;
 *   nvme 16000 MB/s: PCIe 5.0 x4 is about 15800.
 * Virtual, loop, network and memory devices have no ceiling: what backs
 * them is unknown or is memory.
 */
static const struct {
	const char *class;
	double mb_s;
} ceilings[] = {
	{ "hdd", 300 }, { "ssd", 1300 }, { "mmc", 400 }, { "nvme", 16000 },
};

/* Models of virtual disks that claim to be rotational SCSI disks. */
static const char *const virtual_models[] = {
	"QEMU", "VMware", "Virtual", "VBOX", "PersistentDisk", "Elastic Block", "Xen",
	"Msft", "HARDDISK", /* "QEMU HARDDISK" and its clones */
};

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return (int)n;
}

static long read_long(const char *path)
{
	char buf[64], *end;
	long v;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t l = strlen(buf);

	if (l + 1 < len && snprintf(buf + l, len - l, fmt, a, b) >= (int)(len - l))
		buf[len - 1] = 0; /* truncated: the stack text is informative only */
}

static int add_leaf(struct devices *out, unsigned maj, unsigned min, const char *name,
		    const char *disk)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->dev[i].major == maj && out->dev[i].minor == min)
			return 0;
	if (out->n >= DEVICES_MAX)
		return -E2BIG;
	struct device *d = &out->dev[out->n++];

	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->disk, sizeof(d->disk), "%s", disk);
	d->major = maj;
	d->minor = min;
	return 0;
}

int devices_md_read(const char *mddir, const char *name, struct md_state *out)
{
	char path[PATH_MAX];
	unsigned long long done, total;
	int r;

	memset(out, 0, sizeof(*out));
	out->sync_pct = -1;
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(path, sizeof(path), "%s/sync_action", mddir);
	r = read_text(path, out->sync_action, sizeof(out->sync_action));
	if (r < 0)
		return r;
	if (r == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/level", mddir);
	read_text(path, out->level, sizeof(out->level));
	snprintf(path, sizeof(path), "%s/sync_completed", mddir);
	read_text(path, out->sync_completed, sizeof(out->sync_completed));
	if (sscanf(out->sync_completed, "%llu / %llu", &done, &total) == 2 && total > 0)
		out->sync_pct = 100.0 * (double)done / (double)total;
	snprintf(path, sizeof(path), "%s/degraded", mddir);
	out->degraded = read_long(path);
	return 0;
}

int devices_md_busy(const struct md_state *m)
{
	return (m->sync_action[0] && strcmp(m->sync_action, "idle") &&
		strcmp(m->sync_action, "frozen")) ||
	       m->degraded > 0;
}

/* Add block device maj:min, or the devices below it (dm, md). */
static void add_blockdev(struct devices *out, unsigned maj, unsigned min, int depth)
{
	char link[64], sys[PATH_MAX], path[PATH_MAX + 512], name[64], disk[64];
	DIR *d;
	struct dirent *de;
	int nslaves = 0;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	if (!realpath(link, sys))
		return;
	snprintf(name, sizeof(name), "%s", strrchr(sys, '/') + 1);
	snprintf(path, sizeof(path), "%s/slaves", sys);
	d = depth < 8 ? opendir(path) : NULL;
	if (d) {
		char below[256] = "";

		while ((de = readdir(d))) {
			char dev[32];
			unsigned smaj, smin;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/slaves/%s/dev", sys, de->d_name);
			if (read_text(path, dev, sizeof(dev)) <= 0 ||
			    sscanf(dev, "%u:%u", &smaj, &smin) != 2)
				continue;
			nslaves++;
			append(below, sizeof(below), "%s%s", *below ? " " : "", de->d_name);
			add_blockdev(out, smaj, smin, depth + 1);
		}
		closedir(d);
		if (nslaves && out->nmd < DEVICES_MD_MAX) {
			snprintf(path, sizeof(path), "%s/md", sys);
			if (devices_md_read(path, name, &out->md[out->nmd]) == 0)
				out->nmd++;
		}
		if (nslaves) {
			append(out->stack, sizeof(out->stack), "%s%s", *out->stack ? "; " : "", name);
			append(out->stack, sizeof(out->stack), " -> %s%s", below, "");
			return;
		}
	}
	/* a partition's sysfs directory sits inside its disk's */
	snprintf(path, sizeof(path), "%s/partition", sys);
	if (access(path, F_OK) == 0) {
		char *slash;

		*strrchr(sys, '/') = 0;
		slash = strrchr(sys, '/');
		snprintf(disk, sizeof(disk), "%s", slash ? slash + 1 : name);
	} else {
		snprintf(disk, sizeof(disk), "%s", name);
	}
	add_leaf(out, maj, min, name, disk);
}

static int add_path(struct devices *out, const char *dev)
{
	struct stat st;

	if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
		return -ENODEV;
	add_blockdev(out, major(st.st_rdev), minor(st.st_rdev), 0);
	return 0;
}

/* btrfs: every member of the file system that has `source` as a member. */
static int add_btrfs(struct devices *out, const char *source)
{
	struct stat st;
	char link[64], sys[PATH_MAX], path[PATH_MAX + 300];
	const char *want;
	DIR *top, *d;
	struct dirent *u, *de;
	int found = 0;

	if (stat(source, &st) < 0 || !S_ISBLK(st.st_mode))
		return -ENODEV;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, sys))
		return -ENODEV;
	want = strrchr(sys, '/') + 1;
	top = opendir("/sys/fs/btrfs");
	if (!top)
		return -ENOENT;
	while (!found && (u = readdir(top))) {
		if (u->d_name[0] == '.' || strlen(u->d_name) != 36) /* a UUID */
			continue;
		snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices/%s", u->d_name, want);
		if (access(path, F_OK) < 0)
			continue;
		found = 1;
		snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices", u->d_name);
		d = opendir(path);
		if (!d)
			break;
		while ((de = readdir(d))) {
			char dev[32];
			unsigned maj, min;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices/%s/dev", u->d_name,
				 de->d_name);
			if (read_text(path, dev, sizeof(dev)) > 0 &&
			    sscanf(dev, "%u:%u", &maj, &min) == 2)
				add_blockdev(out, maj, min, 0);
		}
		closedir(d);
		snprintf(out->stack, sizeof(out->stack), "btrfs %.36s", u->d_name);
	}
	closedir(top);
	return found ? 0 : -ENOENT;
}

size_t devices_parse_zpool_status(const char *text, char (*paths)[256], size_t max)
{
	const char *line = text;
	size_t n = 0;
	int in_config = 0;

	while (line && *line && n < max) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512], tok[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)MIN(len, sizeof(buf) - 1), line);
		if (!strncmp(buf, "config:", 7))
			in_config = 1;
		else if (!strncmp(buf, "errors:", 7))
			in_config = 0;
		else if (in_config && sscanf(buf, " %255s", tok) == 1 && !strncmp(tok, "/dev/", 5))
			snprintf(paths[n++], 256, "%s", tok);
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

static void add_zfs(struct devices *out, const char *source)
{
	char zpool[PATH_MAX], pool[128], *text;
	char (*paths)[256];
	size_t n;

	snprintf(pool, sizeof(pool), "%.127s", source);
	pool[strcspn(pool, "/")] = 0;
	if (spawn_which("zpool", zpool, sizeof(zpool)) < 0) {
		snprintf(out->none, sizeof(out->none),
			 "zfs pool '%s': its devices are unknown without the zpool command", pool);
		return;
	}
	char *argv[] = { zpool, "status", "-P", "-L", pool, NULL };

	text = xmalloc(1 << 16);
	if (spawn_capture(argv, text, 1 << 16) < 0) {
		snprintf(out->none, sizeof(out->none), "zfs pool '%s': 'zpool status' failed", pool);
		free(text);
		return;
	}
	paths = xcalloc(DEVICES_MAX, sizeof(*paths));
	n = devices_parse_zpool_status(text, paths, DEVICES_MAX);
	for (size_t i = 0; i < n; i++)
		add_path(out, paths[i]);
	snprintf(out->stack, sizeof(out->stack), "zfs pool %s", pool);
	if (!out->n)
		snprintf(out->none, sizeof(out->none), "zfs pool '%s': no device found in 'zpool status'",
			 pool);
	free(paths);
	free(text);
}

int devices_find(const char *path, struct devices *out)
{
	struct mount_info mi;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = env_mount_of(path, &mi);
	if (ret < 0) {
		snprintf(out->none, sizeof(out->none), "cannot find the mount of '%s': %s", path,
			 strerror(-ret));
		return 0;
	}
	if (!strcmp(mi.fstype, "zfs")) {
		add_zfs(out, mi.source);
	} else if (!strcmp(mi.fstype, "btrfs") && add_btrfs(out, mi.source) == 0) {
		/* members found */
	} else if (mi.major != 0) {
		add_blockdev(out, mi.major, mi.minor, 0);
	} else if (mi.source[0] == '/') {
		add_path(out, mi.source);
	}
	if (!out->n && !out->none[0])
		snprintf(out->none, sizeof(out->none), "%s has no block device", mi.fstype);
	return (int)out->n;
}

int devices_find_devnums(const dev_t *devs, size_t n, struct devices *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		add_blockdev(out, major(devs[i]), minor(devs[i]), 0);
	if (!out->n)
		snprintf(out->none, sizeof(out->none), "no block device found");
	return (int)out->n;
}

int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor, char *name,
			 size_t namelen, struct dev_io *io)
{
	unsigned long long v[17];
	char nm[64];
	int n;

	n = sscanf(line,
		   " %u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu"
		   " %llu %llu %llu %llu %llu %llu",
		   major, minor, nm, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		   &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16]);
	if (n < 14)
		return -EINVAL;
	snprintf(name, namelen, "%s", nm);
	/* reads merges sectors ms, writes merges sectors ms, in_flight, io_ms, weighted_ms */
	io->reads = v[0];
	io->read_merges = v[1];
	io->bytes_read = v[2] * 512;
	io->read_ms = v[3];
	io->writes = v[4];
	io->write_merges = v[5];
	io->bytes_written = v[6] * 512;
	io->write_ms = v[7];
	io->busy_ms = v[9];
	io->weighted_ms = v[10];
	/* then discards (4 fields, 4.18+), then flushes completed and their
	 * ms (5.5+: Documentation/admin-guide/iostats.rst's fields 16, 17) */
	io->no_flush = n < 20;
	io->flushes = io->no_flush ? 0 : v[15];
	io->flush_ms = io->no_flush ? 0 : v[16];
	return 0;
}

int devices_sample(const struct devices *d, struct dev_io *per)
{
	static int warned;
	FILE *f;
	char line[512];

	memset(per, 0, d->n * sizeof(*per));
	if (!d->n)
		return 0;
	f = fopen("/proc/diskstats", "re");
	if (!f) {
		int e = -errno;

		if (!warned++)
			err_errno(e, "cannot open '/proc/diskstats'");
		return e;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char name[64];
		struct dev_io io;

		if (diskstats_parse_line(line, &maj, &min, name, sizeof(name), &io) < 0)
			continue;
		for (size_t i = 0; i < d->n; i++)
			if (d->dev[i].major == maj && d->dev[i].minor == min)
				per[i] = io;
	}
	fclose(f);
	return 0;
}

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static void sysfs_read(const char *dev, const char *file, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", dev, file);
	read_text(path, buf, len);
}

static long sysfs_long(const char *dev, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", dev, file);
	return read_long(path);
}

void devices_props(const struct device *d, struct device_props *p)
{
	char buf[256];

	memset(p, 0, sizeof(*p));
	p->rotational = (int)sysfs_long(d->disk, "queue/rotational");
	p->nr_requests = sysfs_long(d->disk, "queue/nr_requests");
	p->queue_depth = sysfs_long(d->disk, "device/queue_depth");
	sysfs_read(d->disk, "device/model", p->model, sizeof(p->model));
	sysfs_read(d->disk, "queue/write_cache", p->write_cache, sizeof(p->write_cache));
	sysfs_read(d->name, "loop/backing_file", p->backing_file, sizeof(p->backing_file));
	sysfs_read(d->disk, "queue/scheduler", buf, sizeof(buf));
	if (buf[0]) {
		char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;

		if (a && b) {
			*b = 0;
			snprintf(p->scheduler, sizeof(p->scheduler), "%s", a + 1);
		} else {
			snprintf(p->scheduler, sizeof(p->scheduler), "%.31s", buf);
		}
	}

	const char *n = d->disk;
	int virt = 0;

	for (size_t i = 0; i < ARRAY_SIZE(virtual_models); i++)
		if (strstr(p->model, virtual_models[i]))
			virt = 1;
	if (has_prefix(n, "loop"))
		p->class = "loop";
	else if (has_prefix(n, "zram") || has_prefix(n, "ram") || has_prefix(n, "pmem") ||
		 has_prefix(n, "brd"))
		p->class = "memory";
	else if (has_prefix(n, "vd") || has_prefix(n, "xvd") || has_prefix(n, "nbd") ||
		 has_prefix(n, "rbd") || has_prefix(n, "drbd") || virt)
		p->class = "virtual";
	else if (has_prefix(n, "nvme"))
		p->class = "nvme";
	else if (has_prefix(n, "mmcblk"))
		p->class = "mmc";
	else if (p->rotational == 1)
		p->class = "hdd";
	else if (p->rotational == 0)
		p->class = "ssd";
	else
		p->class = "unknown";
	for (size_t i = 0; i < ARRAY_SIZE(ceilings); i++)
		if (!strcmp(p->class, ceilings[i].class))
			p->ceiling_mb_s = ceilings[i].mb_s;
}

double devices_ceiling_mb_s(const struct devices *d)
{
	double sum = 0;

	for (size_t i = 0; i < d->n; i++) {
		struct device_props p;

		devices_props(&d->dev[i], &p);
		if (p.ceiling_mb_s <= 0)
			return 0;
		sum += p.ceiling_mb_s;
	}
	return sum;
}
