/*
 * beneath.h — open a path below a directory without following any
 * symbolic link and without leaving that directory.
 *
 * Used for the directories fsgauge makes and opens below its run
 * directory (a fileset's directory and the levels under it), so that a
 * symbolic link found there, whoever put it, never sends a run outside
 * the run directory.  openat2() with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS
 * where the kernel has it (Linux 5.6; probed at the first call, ENOSYS
 * falls back), else a walk component by component, each opened with
 * O_NOFOLLOW | O_DIRECTORY relative to the one before.  Both refuse the
 * same paths with the same errors.
 *
 * The measured operations themselves (open, create, unlink, ... of an
 * entry) do not go through here: see docs/reliability.md, "Threat model:
 * a shared target", for why they need not.
 */
#ifndef FSGAUGE_BENEATH_H
#define FSGAUGE_BENEATH_H

#include <sys/types.h>

/* Open `path`, relative to directory `dirfd`, with open(2) `flags`
 * (O_NOFOLLOW and O_CLOEXEC are added) and `mode` (for O_CREAT).  Empty
 * components and "." are skipped.  Returns the descriptor, or -errno:
 * -EINVAL for an empty or absolute path or one with a ".." component,
 * -ELOOP when any component, the last one included, is a symbolic link,
 * -ENOTDIR when a component before the last is not a directory,
 * -ENAMETOOLONG, or what open(2) returns. */
int beneath_open(int dirfd, const char *path, int flags, mode_t mode);

/* beneath_open() without openat2(): the fallback walk, always (tests
 * compare the two). */
int beneath_open_walk(int dirfd, const char *path, int flags, mode_t mode);

/* 1 when beneath_open() uses openat2(), 0 when the kernel lacks it
 * (known after the first call; probes if none was made). */
int beneath_have_openat2(void);

#endif
