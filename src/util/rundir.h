/*
 * rundir.h — the run directory: the only place fsgauge creates files.
 *
 * Every run creates a fresh directory (fsgauge-<pid>-<random>) inside the
 * target the user named (or $TMPDIR, or /tmp), marks it with a marker
 * file, and works only inside it through a directory descriptor.  Removal
 * refuses a directory without our marker, never follows symbolic links,
 * never crosses into another file system, and never runs an external
 * command.  Safety rules: DESIGN.md, docs/reliability.md.
 */
#ifndef FSGAUGE_RUNDIR_H
#define FSGAUGE_RUNDIR_H

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
/* Check `parent` (NULL: $TMPDIR or /tmp) is an existing, writable
 * directory and create a marked run directory in it.  Prints a one-line
 * message and returns -errno on failure (-ENOTDIR when the target is not a
 * directory, -ENOENT when missing, -EACCES when not writable, -EMFILE when
 * the descriptors for cleaning up cannot be reserved). */
int rundir_create(struct rundir *rd, const char *parent);
/* Take over an existing run directory `path` made by an earlier fsgauge
 * (`fsgauge verify --check-only`): it must be a directory named
 * fsgauge-* that carries our marker.  Returns 0 or -errno (message
 * printed). */
int rundir_adopt(struct rundir *rd, const char *path);
/* Remove the run directory and everything in it (which we created).
 * Directories of ours that lost their owner permissions get them back
 * first.  Returns 0, or -errno after removing what it could (message
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
 * PATH" on stderr when `say`) or remove it as rundir_remove() does.
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
