/*
 * rundir.h — the run directory: the only place fsgauge creates files.
 *
 * Every run creates a fresh directory (fsgauge-<pid>-<random>, or
 * fsgauge-<host>-r<rank>-<pid>-<random> for an MPI rank) inside the
 * target the user named (or $TMPDIR, or /tmp), marks it with a marker
 * file, and works only inside it through a directory descriptor.  Removal
 * refuses a directory without our marker, never follows symbolic links,
 * never crosses into another file system, and never runs an external
 * command.  Safety rules: DESIGN.md, docs/reliability.md.
 */
#ifndef FSGAUGE_RUNDIR_H
#define FSGAUGE_RUNDIR_H

#include <stddef.h>

#define RUNDIR_MARKER ".fsgauge-run"

/* Descriptors held in reserve from creation to removal, so that the
 * removal works even after the run met EMFILE or under a tiny
 * `ulimit -n`: removal holds one descriptor per directory level. */
#define RUNDIR_SPARE_FDS 4

struct rundir {
	char *parent;	/* the directory the user named */
	char *path;	/* parent/fsgauge-<pid>-<random> */
	int fd;		/* O_DIRECTORY descriptor of path */
	int parent_fd;
	int spare[RUNDIR_SPARE_FDS];
	int nspare;	/* how many of spare[] are open */
};

/* Where runs go without -d: $TMPDIR, else /tmp. */
const char *rundir_default_parent(void);

/* Name the run directories made from now on fsgauge-TAG-<pid>-<random>
 * (NULL or "": fsgauge-<pid>-<random>): an MPI rank's "<host>-r<rank>",
 * so that the ranks sharing one target tell their directories apart.  A
 * '/' in TAG becomes '_'; at most 127 bytes are kept. */
void rundir_set_tag(const char *tag);

/* rundir_create() flags */
#define RUNDIR_ALLOW_SHARED 1u /* --allow-shared-target: accept a target every
				* user may write that is not sticky */

/* Check `parent` (NULL: $TMPDIR or /tmp) is an existing, writable
 * directory and create a marked run directory in it.  A target writable
 * by every user without the sticky bit is refused unless `flags` has
 * RUNDIR_ALLOW_SHARED.  The directory made is opened and checked through
 * its descriptor to be a directory of ours, mode 0700 and empty: one
 * someone put in its place between mkdir and open is neither written in
 * nor removed.  Prints a one-line message and returns -errno on failure
 * (-ENOTDIR when the target is not a directory, -ENOENT when missing,
 * -EACCES when not writable, -EPERM for a shared target refused, -ESTALE
 * when the directory opened is not the one made, -EMFILE when the
 * descriptors for cleaning up cannot be reserved). */
int rundir_create(struct rundir *rd, const char *parent, unsigned flags);
/* The exit status for a rundir_create() failure `err`: EXIT_SYSTEM for
 * a run directory that was replaced (-ESTALE), else EXIT_USAGE (a target
 * that cannot be used; nothing was created). */
int rundir_create_status(int err);

/*
 * The marker (RUNDIR_MARKER, directly in the run directory) names the run
 * that made the directory, so that `fsgauge clean` can tell a directory
 * whose run is over (killed, out of memory) from one still in use.  Lines
 * of "key value", after a first line "fsgauge run directory":
 *
 *   version  fsgauge's version
 *   host     gethostname()
 *   pid      the process
 *   start    its start time, /proc/PID/stat field 22 (clock ticks since boot)
 *   boot_id  /proc/sys/kernel/random/boot_id: a reboot makes pid and
 *            start meaningless
 *   pidns    the inode of its pid namespace (/proc/self/ns/pid), 0 unknown
 *   uid      its effective uid
 *
 * and a line "kept" once the run kept it on purpose (--keep, verify
 * --write-only).  Unknown keys are ignored.
 */
#define RUNDIR_MARKER_MAX 1024 /* bytes a marker may have */
struct rundir_owner {
	char host[256];
	long pid;
	unsigned long long start;
	char boot_id[40];
	unsigned long long pidns;
	long uid;
	int kept;
};
/* This process, as its marker names it. */
void rundir_owner_self(struct rundir_owner *o);
/* Read the marker in directory dirfd (not following a link).  0, -ENOENT
 * without one, -EINVAL when it is not a regular file, too long or not a
 * marker, -ENODATA when it lacks one of host, pid, start, boot_id, uid
 * (an older fsgauge wrote only version and pid). */
int rundir_marker_read(int dirfd, struct rundir_owner *o);
/* Whether the run `o` names is still going: 1 (the same process, same
 * start time, same boot), 0 when it is over (`why` says how we know),
 * -1 when this cannot be told from here (another host, another pid
 * namespace, nothing to go by).  `why` gets a phrase for the user. */
int rundir_owner_alive(const struct rundir_owner *o, char *why, size_t len);

/* Take over an existing run directory `path` made by an earlier fsgauge
 * (`fsgauge verify --check-only`): it must be a directory named
 * fsgauge-* that carries our marker.  Returns 0 or -errno (message
 * printed). */
int rundir_adopt(struct rundir *rd, const char *path);
/* Remove the run directory and everything in it (which we created).
 * Directories of ours that lost their owner permissions get them back
 * first.  The directory itself is removed by name only while that name
 * still holds it: after it was renamed away, -ESTALE and the name is left
 * alone.  Returns 0, or -errno after removing what it could (message
 * printed). */
int rundir_remove(struct rundir *rd);
/* Remove only what a command knows it made in a run directory it adopted
 * (`verify --check-only`): each regular file directly inside rd for which
 * ours(name, arg) is true, then the marker, then the directory itself if
 * that left it empty.  Anything else (a file someone added, a
 * subdirectory, a symbolic link, even under one of our names) is not
 * touched: the directory is kept, unmarked, and a warning names what was
 * left there.  Refuses a directory without our marker.  Releases rd.
 * Returns 0 when the directory is gone, 1 when it was kept for entries
 * not ours, or -errno after a message when something could not be
 * removed. */
int rundir_remove_ours(struct rundir *rd, int (*ours)(const char *name, void *arg), void *arg);
/* The end of a run: keep the directory (--keep; "kept run directory:
 * PATH" on stderr when `say`; the marker notes it is kept) or remove it
 * as rundir_remove() does.
 * Either way rd is released.  Returns 0, or -errno when the removal
 * failed (message printed). */
int rundir_finish(struct rundir *rd, int keep, int say);
/* Close descriptors and free memory without removing anything (--keep). */
void rundir_release(struct rundir *rd);

/* Remove everything inside directory `dirfd` (not the directory itself,
 * and not a run-directory marker directly inside it, so the run directory
 * stays ours): no symlink is followed, nothing on another device is
 * touched.  Used for the run directory between repeats and for removing a
 * fileset.
 * Returns 0 or the first -errno met. */
int rundir_empty(int dirfd);

#endif
