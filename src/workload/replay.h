/*
 * replay.h — a prepared list of file-system operations that the runner's
 * FO_REPLAY flowop replays through the engine, every operation timed and
 * counted by kind.  `fsgauge untar` builds one from an archive
 * (workload/archive.h) or from a synthetic tree (workload/synthetic_tree.h),
 * and a second one that removes the extracted tree.
 *
 * Pure data: building a replay does no I/O.  Entries go in as an archive
 * lists them (replay_add()); the builder sanitises every path and refuses
 * anything that could write outside the tree being extracted:
 *
 *  - absolute paths, `..` components, and over-long paths or names;
 *  - a path that crosses a symbolic link created earlier in the archive
 *    (`evil -> /etc` then `evil/passwd`), or a non-directory;
 *  - a hard link to anything but an earlier file or symlink of the archive;
 *  - a non-directory over an existing directory.
 *
 * Files are created with O_CREAT|O_EXCL|O_NOFOLLOW semantics; an entry
 * that repeats a non-directory path is extracted as tar does, by removing
 * the earlier name first.  Missing parent directories are created.  Every
 * name is created exclusively and no directory is ever replaced, so each
 * directory a path crosses is one the same execution made: on a file
 * system that folds case, a name aliasing an earlier symlink fails with
 * EEXIST rather than resolving through it.
 *
 * Every path in an operation is relative to the root of one extracted
 * copy; "" is that root.  The runner prefixes each execution's directory.
 *
 *	struct replay *r = replay_new(&opts);
 *	if (replay_add(r, &entry, err, sizeof(err)) < 0) ... refuse, say err
 *	replay_finish(r);		// deferred directory metadata, fsyncs
 *	struct replay *rm = replay_removal(r);	// depth-first removal
 *	...
 *	replay_free(rm); replay_free(r);
 *
 * Once finished a replay is immutable and may be shared by any number of
 * threads.  Memory: everything belongs to the replay (strings in an arena).
 */
#ifndef FSGAUGE_REPLAY_H
#define FSGAUGE_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Operation kinds: each is counted as its own operation ("untar.mkdir"). */
enum replay_kind {
	RPK_MKDIR,    /* path, mode */
	RPK_CREATE,   /* open(path, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, mode): the current file */
	RPK_WRITE,    /* len bytes at off into the current file */
	RPK_FSYNC,    /* fsync the current file */
	RPK_CLOSE,    /* close the current file */
	RPK_SYMLINK,  /* path -> path2 (the link's text, not resolved) */
	RPK_LINK,     /* hard link path to path2 (an earlier entry) */
	RPK_CHMOD,    /* path, mode */
	RPK_UTIMES,   /* path, mtime (the link itself for symlinks) */
	RPK_FSYNCDIR, /* open the directory path, fsync it, close: one operation */
	RPK_UNLINK,   /* path */
	RPK_RMDIR,    /* path */
	RPK__COUNT
};

/* "mkdir", "create", ...; "?" out of range. */
const char *replay_kind_name(enum replay_kind k);

/* A write's data comes from the run's data pattern (--data), not from
 * the replay's contents. */
#define REPLAY_PATTERN UINT64_MAX

struct replay_op {
	uint8_t kind;	    /* enum replay_kind */
	uint32_t mode;	    /* mkdir, create, chmod */
	uint32_t len;	    /* write */
	const char *path;   /* relative to the copy's root; "" is the root */
	const char *path2;  /* symlink: its text; link: the existing entry */
	uint64_t off;	    /* write: offset in the file */
	uint64_t data;	    /* write: offset in the contents, or REPLAY_PATTERN */
	struct timespec mtime; /* utimes */
};

enum replay_type {
	RPT_DIR,
	RPT_FILE,
	RPT_SYMLINK,
	RPT_HARDLINK,
};

/* An entry of the tree as it is after extraction, in creation order. */
struct replay_node {
	enum replay_type type;
	uint32_t mode;	    /* final permission bits (see replay_add()) */
	uint32_t mode_made; /* the mode given to mkdir/open (before the umask) */
	int implicit;	    /* a parent directory the archive did not list */
	int removed;	    /* replaced by a later entry with the same path */
	const char *path;   /* cleaned, relative to the copy's root */
	const char *target; /* symlink: its text; hard link: the entry it names */
	uint64_t size;	    /* file bytes (hard link: its target's) */
	uint64_t data;	    /* contents' offset, or REPLAY_PATTERN */
	struct timespec mtime;
	int has_mtime;
	size_t parent;	    /* index of the parent directory node; REPLAY_ROOT at the top */
};

#define REPLAY_ROOT SIZE_MAX

/* What one extracted copy holds (replaced entries not counted). */
struct replay_stats {
	uint64_t files;	    /* regular files */
	uint64_t dirs;	    /* directories, the copy's root not counted */
	uint64_t symlinks;
	uint64_t hardlinks;
	uint64_t bytes;	    /* sum of the regular files' sizes */
	uint64_t skipped;   /* entries not extracted (devices, fifos, sockets) */
	uint64_t size_median; /* file size quantiles, nearest rank */
	uint64_t size_p90;
	uint64_t size_p99;
	uint64_t size_max;
	unsigned max_depth; /* most path components of any entry */
};

enum replay_fsync {
	REPLAY_FSYNC_NONE = 0,
	REPLAY_FSYNC_FILE, /* fsync every file before closing it */
	REPLAY_FSYNC_DIR,  /* and every directory once it is complete */
};

struct replay_opts {
	enum replay_fsync fsync;
	uint32_t write_size; /* largest single write (default 64 KiB) */
	mode_t umask;	     /* modes the creating process loses; chmod restores them */
};

/* Longest cleaned path accepted, so that "<copy dir>/<path>" fits the
 * runner's 4096-byte path buffers. */
#define REPLAY_PATH_MAX 4000

/* One archive entry. */
struct replay_entry {
	enum replay_type type;
	const char *path;    /* as the archive names it */
	const char *target;  /* symlink text, or the hard link's entry (as named) */
	uint32_t mode;	     /* permission bits (others ignored) */
	uint64_t size;	     /* regular file */
	uint64_t data;	     /* offset of the contents, or REPLAY_PATTERN */
	struct timespec mtime;
	int has_mtime;
};

struct replay {
	struct replay_op *ops;
	size_t nops;
	struct replay_node *nodes;
	size_t nnodes;
	struct replay_stats st;	/* valid after replay_finish() */
	struct replay_opts opts;
	/* File contents, set by whoever read them: in memory (data), or in a
	 * spool file (data_fd >= 0) that the runner reads outside the timed
	 * window.  Neither is owned by the replay. */
	const unsigned char *data;
	int data_fd;
	uint64_t data_size;
	struct replay_priv *priv; /* builder state: arena, path index */
};

/* A new, empty replay.  opts may be NULL for the defaults. */
struct replay *replay_new(const struct replay_opts *opts);
/* Add an entry: checks and cleans its path, creates missing parents, and
 * appends the operations that extract it.  Returns 0, or -EINVAL when the
 * entry is refused; err then says why, naming the entry ("entry
 * '../x': path has a '..' component").  After a refusal the replay must
 * not be used. */
int replay_add(struct replay *r, const struct replay_entry *e, char *err, size_t errlen);
/* Count an entry that is not extracted (device, fifo, socket). */
void replay_skip(struct replay *r);
/* Append the deferred operations (directory modes and times, deepest
 * first, then directory fsyncs) and compute the statistics. */
void replay_finish(struct replay *r);
/* A new replay that removes one extracted copy of r, depth first: each
 * directory's non-directories unlinked, its subdirectories removed, then
 * the directory itself; the copy's root last.  Shares no memory with r. */
struct replay *replay_removal(const struct replay *r);
void replay_free(struct replay *r);

/* Clean an archive path into out: "./a//b/" -> "a/b", "." -> "".
 * Returns 0, or -EINVAL with *why set ("absolute path", "path has a '..'
 * component", "path is too long", "a name is too long", "empty path"). */
int replay_path_clean(const char *in, char *out, size_t outlen, const char **why);

#endif
