/*
 * rundir.h — the run directory: the only place fsgauge creates files.
 *
 * Every run creates a fresh directory (fsgauge-<pid>-<random>) inside the
 * target the user named (or $TMPDIR, or /tmp), marks it with a marker
 * file, and works only inside it through a directory descriptor.  Removal
 * refuses a directory without our marker, never follows symbolic links,
 * never crosses into another file system, and never runs an external
 * command.  Safety rules: ../../docs/safety.md.
 */
#ifndef FSGAUGE_RUNDIR_H
#define FSGAUGE_RUNDIR_H

#define RUNDIR_MARKER ".fsgauge-run"

struct rundir {
	char *parent;	/* the directory the user named */
	char *path;	/* parent/fsgauge-<pid>-<random> */
	int fd;		/* O_DIRECTORY descriptor of path */
	int parent_fd;
};

/* Where runs go without -d: $TMPDIR, else /tmp. */
const char *rundir_default_parent(void);
/* Check `parent` (NULL: $TMPDIR or /tmp) is an existing, writable
 * directory and create a marked run directory in it.  Prints a one-line
 * message and returns -errno on failure (-ENOTDIR when the target is not a
 * directory, -ENOENT when missing, -EACCES when not writable). */
int rundir_create(struct rundir *rd, const char *parent);
/* Remove the run directory and everything in it (which we created).
 * Returns 0, or -errno after removing what it could (message printed). */
int rundir_remove(struct rundir *rd);
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
