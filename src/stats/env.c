/* env.c — environment capture; see env.h. */
#include "stats/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "gitrev.h" /* generated: FSGAUGE_GITREV, the commit built from */
#include "stats/devices.h"
#include "util/clock.h"
#include "util/spawn.h"
#include "util/util.h"

/* mountinfo escapes spaces and friends as \040 octal; undo it in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*d++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = 0;
}

int env_mount_of(const char *path, struct mount_info *mi)
{
	struct stat st;
	FILE *f;
	char line[4096];
	size_t best = 0;
	int found = 0;
	char *real;

	if (stat(path, &st) < 0)
		return -errno;
	real = realpath(path, NULL);
	f = fopen("/proc/self/mountinfo", "re");
	if (!f) {
		free(real);
		return -errno;
	}
	/* id parent major:minor root mountpoint options [optional...] - fstype source superopts */
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[1024], opts[1024], *dash, fstype[64], src[512], sopts[1024];

		if (sscanf(line, "%*d %*d %u:%u %*s %1023s %1023s", &maj, &min, mnt, opts) != 4)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %511s %1023s", fstype, src, sopts) < 2)
			continue;
		unescape(mnt);
		size_t ml = strlen(mnt);
		int same_dev = makedev(maj, min) == st.st_dev;
		int prefix = real && !strncmp(real, mnt, ml) &&
			     (real[ml] == '/' || real[ml] == 0 || ml == 1);

		/* the deepest mount that contains the path and has its device */
		if (prefix && (same_dev || !found) && ml >= best) {
			best = ml;
			found = 1 + same_dev;
			snprintf(mi->mountpoint, sizeof(mi->mountpoint), "%s", mnt);
			snprintf(mi->fstype, sizeof(mi->fstype), "%s", fstype);
			snprintf(mi->source, sizeof(mi->source), "%s", src);
			snprintf(mi->options, sizeof(mi->options), "%.511s,%.510s", opts, sopts);
			mi->major = maj;
			mi->minor = min;
		}
	}
	fclose(f);
	free(real);
	return found ? 0 : -ENOENT;
}

uint64_t env_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			c++;
			while (*c == ' ' || *c == '\t')
				c++;
			c[strcspn(c, "\n")] = 0;
			snprintf(buf, len, "%s", c);
			break;
		}
	}
	fclose(f);
}

/* The block devices under the target and their queue settings. */
/* The md arrays above the devices: their level and the work they were
 * doing, and a warning when it was more than idle (a resync's I/O, or a
 * degraded array's reconstruction, is in every figure of the run). */
static void md_env(struct kvlist *env, const struct devices *ds)
{
	for (size_t i = 0; i < ds->nmd; i++) {
		const struct md_state *m = &ds->md[i];
		char key[128];

#define MD_KEY(k) (snprintf(key, sizeof(key), "device.%s.%s", m->name, k), key)
		if (m->level[0])
			kv_add(env, MD_KEY("md_level"), "%s", m->level);
		kv_add(env, MD_KEY("md_sync_action"), "%s", m->sync_action);
		if (m->sync_pct >= 0)
			kv_add(env, MD_KEY("md_sync_percent"), "%.1f", m->sync_pct);
		if (m->degraded >= 0)
			kv_add(env, MD_KEY("md_degraded"), "%ld", m->degraded);
#undef MD_KEY
		if (!devices_md_busy(m))
			continue;
		if (m->degraded > 0 && (!strcmp(m->sync_action, "idle") || !m->sync_action[0]))
			msg_warn("%s (%s) is degraded (%ld missing): reads of the missing members' "
				 "data are reconstructed from the others, in every figure of this run",
				 m->name, m->level[0] ? m->level : "md", m->degraded);
		else if (m->sync_pct >= 0)
			msg_warn("%s (%s) is doing a %s (%.1f%% done): its own I/O is in every "
				 "figure of this run",
				 m->name, m->level[0] ? m->level : "md", m->sync_action, m->sync_pct);
		else
			msg_warn("%s (%s) is doing a %s: its own I/O is in every figure of this run",
				 m->name, m->level[0] ? m->level : "md", m->sync_action);
	}
}

static void devices_env(struct kvlist *env, const char *target)
{
	struct devices *ds = xmalloc(sizeof(*ds));
	char names[512] = "";

	devices_find(target, ds);
	if (!ds->n) {
		kv_add(env, "block_devices", "none: %s", ds->none);
		free(ds);
		return;
	}
	for (size_t i = 0; i < ds->n; i++) {
		struct device_props p;
		const struct device *d = &ds->dev[i];
		char key[128];
		size_t l = strlen(names);

		snprintf(names + l, sizeof(names) - l, "%s%s", i ? " " : "", d->name);
		devices_props(d, &p);
#define DEV_KEY(k) (snprintf(key, sizeof(key), "device.%s.%s", d->name, k), key)
		if (strcmp(d->disk, d->name))
			kv_add(env, DEV_KEY("disk"), "%s", d->disk);
		kv_add(env, DEV_KEY("class"), "%s", p.class);
		if (p.model[0])
			kv_add(env, DEV_KEY("model"), "%s", p.model);
		if (p.rotational >= 0)
			kv_add(env, DEV_KEY("rotational"), "%s", p.rotational ? "true" : "false");
		if (p.scheduler[0])
			kv_add(env, DEV_KEY("scheduler"), "%s", p.scheduler);
		if (p.nr_requests >= 0)
			kv_add(env, DEV_KEY("nr_requests"), "%ld", p.nr_requests);
		if (p.queue_depth >= 0)
			kv_add(env, DEV_KEY("queue_depth"), "%ld", p.queue_depth);
		if (p.write_cache[0])
			kv_add(env, DEV_KEY("write_cache"), "%s", p.write_cache);
		if (p.backing_file[0])
			kv_add(env, DEV_KEY("backing_file"), "%s", p.backing_file);
		if (p.ceiling_mb_s > 0)
			kv_add(env, DEV_KEY("ceiling_mb_per_second"), "%.0f", p.ceiling_mb_s);
#undef DEV_KEY
	}
	kv_add(env, "block_devices", "%s", names);
	if (ds->stack[0])
		kv_add(env, "device_stack", "%s", ds->stack);
	md_env(env, ds);
	free(ds);
}

/* recordsize, compression, ... of the dataset, when zfs(8) is there. */
static void zfs_props(struct kvlist *env, const char *dataset)
{
	char zfs[4096], *out;
	char *argv[] = { zfs, "get", "-H", "-o", "property,value",
			 "recordsize,compression,atime,sync,logbias,primarycache,dedup,copies",
			 (char *)dataset, NULL };

	if (spawn_which("zfs", zfs, sizeof(zfs)) < 0) {
		kv_add(env, "zfs_properties", "unknown: no zfs command");
		return;
	}
	out = xmalloc(8192);
	if (spawn_capture(argv, out, 8192) == 0) {
		for (char *save, *line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *tab = strchr(line, '\t');

			if (!tab)
				continue;
			*tab = 0;
			char key[128];

			snprintf(key, sizeof(key), "zfs.%s", line);
			kv_add(env, key, "%s", tab + 1);
		}
	} else {
		kv_add(env, "zfs_properties", "unknown: 'zfs get' failed");
	}
	free(out);
}

void env_capture(struct kvlist *env, const char *target)
{
	struct utsname u;
	struct mount_info mi;
	char cpu[256], host[256];

	kv_add(env, "tool", "fsgauge %s (%s)", FSGAUGE_VERSION, FSGAUGE_GITREV);
	kv_add(env, "latency_clock", "%s", op_clock_describe());
	if (uname(&u) == 0) {
		kv_add(env, "os", "%s", u.sysname);
		kv_add(env, "kernel", "%s", u.release);
		kv_add(env, "kernel_version", "%s", u.version);
		kv_add(env, "arch", "%s", u.machine);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = 0;
		kv_add(env, "hostname", "%s", host);
	}
	cpu_model(cpu, sizeof(cpu));
	kv_add(env, "cpu_model", "%s", cpu);
	kv_add(env, "cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	kv_add(env, "ram_bytes", "%llu", (unsigned long long)env_ram_bytes());
	if (target) {
		kv_add(env, "target", "%s", target);
		if (env_mount_of(target, &mi) == 0) {
			kv_add(env, "fs_type", "%s", mi.fstype);
			kv_add(env, "mount_point", "%s", mi.mountpoint);
			kv_add(env, "mount_options", "%s", mi.options);
			kv_add(env, "source_device", "%s", mi.source);
			kv_add(env, "device_number", "%u:%u", mi.major, mi.minor);
			if (!strcmp(mi.fstype, "zfs"))
				zfs_props(env, mi.source);
		}
		devices_env(env, target);
	}
}
