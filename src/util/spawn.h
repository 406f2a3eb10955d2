/*
 * spawn.h — running a helper command (zpool, zfs) without a shell and
 * capturing what it prints.  Never used for anything that changes files.
 */
#ifndef FSGAUGE_SPAWN_H
#define FSGAUGE_SPAWN_H

#include <stddef.h>

/* The path of executable `cmd` found in $PATH (or the usual sbin/bin
 * directories when PATH is unset), into buf.  Returns 0 or -ENOENT. */
int spawn_which(const char *cmd, char *buf, size_t len);

/* Run argv[0] (a path) with argv, stdin and stderr on /dev/null, and keep
 * up to len - 1 bytes of its standard output in buf (NUL-terminated).
 * Returns 0 when it exited with status 0, -EIO otherwise, or -errno when
 * it could not be started. */
int spawn_capture(char *const argv[], char *buf, size_t len);

#endif
