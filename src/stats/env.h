/*
 * env.h — the environment recorded with every result: kernel, CPU, RAM,
 * and for the target directory its file-system type, mount options and
 * source device (from /proc/self/mountinfo, matched by device number).
 */
#ifndef FSGAUGE_ENV_H
#define FSGAUGE_ENV_H

#include <stdint.h>

#include "stats/result.h"

struct mount_info {
	char mountpoint[1024];
	char fstype[64];
	char source[512];
	char options[2100]; /* per-mount and super-block options */
	unsigned major, minor;
};

/* Find the mount holding `path`.  Returns 0 or -errno. */
int env_mount_of(const char *path, struct mount_info *mi);
/* Total RAM in bytes (0 if unknown). */
uint64_t env_ram_bytes(void);
/* Add kernel, cpu, ram, fs type, mount options, device for `target`. */
void env_capture(struct kvlist *env, const char *target);

#endif
