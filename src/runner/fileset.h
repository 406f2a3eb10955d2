/*
 * fileset.h — filesets at run time: a compact table of entries (24 bytes
 * plus 8 for the selection lists, FILESET_ENTRY_BYTES: ten million entries
 * take 320 MB), a deterministic directory
 * layout computed from the entry index (no per-directory memory), and
 * selection of entries by the worker threads.
 *
 * Layout: a fileset of n entries with directory width w lives under
 * <rundir>/<path>/<name>/.  With L the smallest level count such that
 * w^L >= n, entry i sits in directories named by its base-w digits above
 * the last: <name>/d<dL-1>/.../d<d1>/f<i> (L = 1: directly in <name>/).
 * Entry sizes are drawn once from the fileset's size variable with a
 * generator seeded from --seed, so a layout repeats exactly.
 *
 * Selection: an entry's state says whether the file exists, whether a
 * thread holds it exclusively (a create, delete, rename or stat while it
 * runs; an open until the file is open) and how many descriptors threads
 * have open on it.  As in filebench, an open file is not held: other
 * threads may open it too (fileset_share(), when no file is free), but a
 * delete or rename only takes a file nobody has open.  Lists of the
 * entries available in each state make every pick O(1), under a
 * per-fileset mutex.
 *
 * Chunked files: a `define file` with chunksize= is stored as
 * <name>.000, <name>.001, ... of at most chunksize bytes each (the last
 * one takes the rest and grows past chunksize when the file is
 * extended); the runner maps offsets of the one logical file to them.
 */
#ifndef FSGAUGE_FILESET_H
#define FSGAUGE_FILESET_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rand.h"
#include "workload/workload.h"

#define FSE_EXISTS 1u
#define FSE_BUSY 2u   /* held by a thread */
#define FSE_IN0 4u    /* listed in avail[0] (see rt_fileset.avail) */
#define FSE_IN(x) (FSE_IN0 << (x)) /* listed in avail[x], x = 0 or 1 */
#define FSE_OPEN1 (1u << 16)	/* one open descriptor on it ... */
#define FSE_OPENS (0xffffu << 16) /* ... counted in the top 16 bits */
/* Entry indexes are 32-bit in the selection lists. */
#define FILESET_MAX_ENTRIES (UINT32_MAX - 1)

struct fs_entry {
	uint64_t size;	/* intended size, drawn at layout time */
	uint64_t cur;	/* current size as far as our writes know (atomic) */
	uint32_t state; /* FSE_* bits; written under the fileset's lock,
			 * read atomically */
};

struct fs_list {
	uint32_t *v;
	uint32_t n;
};

struct rt_fileset {
	const struct wl_fileset *def;
	char *name;
	char *relpath;	/* directory (or file, for `define file`) under the run dir */
	size_t relpath_len;
	int is_file;
	int leafdirs;	/* entries are directories */
	int flat;	/* entries are "<relpath>.<i>": no directory of the fileset's */
	/* a named flat fileset (def->names): entry i is names[i] beside
	 * relpath, whose first names_dir bytes are its directory and '/' */
	char *const *names;
	size_t names_dir;
	uint64_t n;
	uint64_t width;
	unsigned levels;
	uint64_t ndirs; /* intermediate directories */
	double prealloc_pct;
	int reuse, paralloc, readonly, cached;
	int verify;	/* preallocate self-checking blocks (runner/verify.h) */
	unsigned nusers;   /* workers of the current phase using it */
	unsigned last_user; /* while counting them: last worker id + 1 */
	/* --verify, a file several workers use: set (atomic) once a write
	 * other than a rewrite's write-back reaches it in the phase; from
	 * then on its rewrites no longer check what they read (such a
	 * write takes no lock, and could tear the block a rewrite reads) */
	int plain_writes;
	/* the fileset's own directory, open once it exists (-1: none, as for
	 * a file or a device): entries' system calls resolve from it
	 * (fileset_at), so that the kernel does not walk relpath each time */
	int dirfd;
	/* the run directory its relpath is below (its target's: the runner
	 * sets it after fileset_init(); -1 for a device), and that target's
	 * index in the session's targets */
	int rootfd;
	unsigned target;
	struct fs_entry *e;
	uint64_t nexist; /* existing entries (under lock) */
	/* Selection index, guarded by lock.  An entry is available to a
	 * thread wanting an existing file (x = 1) or a free name (x = 0) when
	 * it is neither held nor open and exists, or not.  navail[x] counts them.  Every
	 * available entry is in list avail[x], once (FSE_IN(x) says it is
	 * there); the list may also hold entries that stopped being available
	 * since: a pick that meets one drops it.  So a state change touches
	 * the entry and the end of a list, and never another entry's memory
	 * (no back-pointers to keep up); see fileset_pick(). */
	struct fs_list avail[2];
	uint64_t navail[2];
	pthread_mutex_t lock;
	int lock_init;
	uint64_t total_bytes; /* sum of entry sizes */
	uint64_t chunk;	  /* chunked file: bytes per chunk file; 0 when not chunked */
	unsigned nchunks; /* files the entry is stored in (1 when not chunked) */
	/* Under --verify with def->written_map: the written map, a bit per
	 * 4 KiB block (DATA_BLOCK) of the first wmap_blocks blocks of each
	 * entry, wmap_words words per entry (entry i's at wmap + i *
	 * wmap_words), set (atomically) as writes reach the blocks; NULL
	 * without.  wmap_phase: the phase (runner.nphases) it was last
	 * cleared for, by the phase's first writer. */
	uint64_t *wmap;
	uint64_t wmap_words, wmap_blocks;
	uint64_t wmap_phase;
};

/* Most chunk files of one chunked file. */
#define FILESET_MAX_CHUNKS 100000

enum pick_want {
	PICK_EXISTING,	  /* an existing file, not held */
	PICK_NONEXISTENT, /* a free slot for createfile/makedir */
};

/* The memory fileset_init() allocates per entry: the entry and its place
 * in each of the two selection lists (32 bytes on x86-64). */
#define FILESET_ENTRY_BYTES (sizeof(struct fs_entry) + 2 * sizeof(uint32_t))

/* The layout alone, from the definition, allocating nothing (for the
 * preflight, before anything exists): sets is_file, leafdirs, n, width,
 * levels, ndirs, prealloc_pct, the flags, chunk and nchunks of fs, and
 * nothing else.  Returns 0 or -EINVAL (message printed) for impossible
 * parameters. */
int fileset_layout(struct rt_fileset *fs, const struct wl_fileset *def);
/* Build the run-time fileset from its definition: draws sizes, computes
 * the layout.  `relpath` is the fileset's directory relative to the run
 * directory.  Returns 0 or -EINVAL (message printed) for impossible
 * parameters. */
int fileset_init(struct rt_fileset *fs, const struct wl_fileset *def, const char *relpath,
		 uint64_t seed);
void fileset_free(struct rt_fileset *fs);

/* Path of entry i relative to the run directory, into buf.  Returns the
 * length, or -ENAMETOOLONG. */
int fileset_entry_path(const struct rt_fileset *fs, uint64_t i, char *buf, size_t len);
/* The directory descriptor a system call on `*path`, an entry's path
 * from fileset_entry_path(), resolves from, with *path advanced to the
 * part below it: the fileset's own directory when it is open, else the
 * run directory (rundirfd) and the whole path.  Messages keep naming the
 * whole path (relative to the run directory). */
static inline int fileset_at(const struct rt_fileset *fs, int rundirfd, const char **path)
{
	if (fs->dirfd < 0)
		return rundirfd;
	*path += fs->relpath_len + 1;
	return fs->dirfd;
}
/* Path of chunk file c (0 <= c < nchunks) of a chunked file:
 * "<relpath>.%03u".  Returns the length, or -ENAMETOOLONG. */
int fileset_chunk_path(const struct rt_fileset *fs, unsigned c, char *buf, size_t len);
/* Path of intermediate directory number d (0 <= d < ndirs), parents
 * before children. */
int fileset_dir_path(const struct rt_fileset *fs, uint64_t d, char *buf, size_t len);

/* Entries are stored directory by directory: entries j*width ..
 * (j+1)*width - 1 share leaf directory j (one level: all of them in the
 * fileset's own directory).  Number of leaf directories: */
uint64_t fileset_nleaves(const struct rt_fileset *fs);
/* Path of leaf directory j relative to the fileset's own directory ("."
 * for a one-level fileset, else "d0/d3"), into buf: length or
 * -ENAMETOOLONG. */
int fileset_leaf_path(const struct rt_fileset *fs, uint64_t j, char *buf, size_t len);
/* The entry named `name` in leaf directory j ("f123", or "l123" for
 * leafdirs), or -1 for a name fsgauge would not give an entry there
 * (".", "..", another program's file, a number out of range or written
 * with leading zeros). */
int64_t fileset_entry_of_name(const struct rt_fileset *fs, uint64_t j, const char *name);

/* Claim an entry: returns its index, with FSE_BUSY set, or -1 when none
 * is available right now. */
int64_t fileset_pick(struct rt_fileset *fs, enum pick_want want, struct rng *r);
/* Claim entry i if it is in the wanted state; 1 when claimed, else 0. */
int fileset_claim(struct rt_fileset *fs, uint64_t i, enum pick_want want);
/* A held entry now exists (createfile) or not; it stays held. */
void fileset_set_exists(struct rt_fileset *fs, uint64_t i, int exists);
/* Rebuild the selection lists from the entries' states (after
 * preallocation; every entry becomes not held). */
void fileset_index(struct rt_fileset *fs);
/* Release a claimed entry, saying whether the file now exists. */
void fileset_release(struct rt_fileset *fs, uint64_t i, int exists);
/* The file of held entry i is now open: the hold becomes an open
 * descriptor, which does not keep other threads from opening it. */
void fileset_open_held(struct rt_fileset *fs, uint64_t i);
/* For a thread that wants an existing file when none is available: an
 * existing entry that other threads have open and nobody holds, drawn at
 * random (up to 64 tries), with one more open descriptor counted; -1 if
 * none was found. */
int64_t fileset_share(struct rt_fileset *fs, struct rng *r);
/* A descriptor on entry i was closed; with the last one, the entry is
 * available again. */
void fileset_close(struct rt_fileset *fs, uint64_t i);

/* The written map (rt_fileset.wmap) of fileset fs: the bytes it takes
 * for n entries of `bytes` each (for the preflight), allocated cleared
 * (fileset_wmap_init: none for bytes 0), cleared, a written range
 * [off, off + len) of entry i marked (atomic: writers share a file;
 * blocks past the map are not recorded), and the first written block of
 * entry i in [b, end) (blocks; end when none).  fileset_free() frees it. */
double fileset_wmap_bytes(uint64_t n, uint64_t bytes);
void fileset_wmap_init(struct rt_fileset *fs, uint64_t bytes);
void fileset_wmap_clear(struct rt_fileset *fs);
void fileset_wmap_mark(struct rt_fileset *fs, uint64_t i, uint64_t off, uint64_t len);
uint64_t fileset_wmap_next(const struct rt_fileset *fs, uint64_t i, uint64_t b, uint64_t end);

/* Create the directories and preallocate prealloc% of the entries
 * (writing data of pattern `dp` — NULL for random — of each entry's size,
 * or self-checking blocks when fs->verify), using `nthreads` threads; the
 * first failure stops them all.  Returns 0 or -errno (message printed
 * with the path; out->error set when an I/O operation failed). */
struct engine;
struct data_pattern;
/* A fileset on a block device (def->has_device): instead of
 * fileset_create(), mark its entry existing with its full size; no I/O. */
void fileset_use_device(struct rt_fileset *fs);
struct fileset_prealloc_stats {
	uint64_t files, bytes;
	double seconds;
	/* When an operation failed: what and where ("write 'x/f1' at offset
	 * 8192: No space left on device"); the caller frees it. */
	char *error;
};
/* Make the fileset's directories below the run directory `rundir_fd`
 * (each component relative to the one above, opened without following a
 * symbolic link: one found there is an error, -ELOOP), then preallocate
 * its entries with `nthreads` threads until `*stop`.  Returns 0 or the
 * first -errno; out->error says what failed. */
int fileset_create(struct rt_fileset *fs, int rundir_fd, const char *engine,
		   const struct data_pattern *dp, int nthreads, uint64_t seed,
		   const volatile int *stop, struct fileset_prealloc_stats *out);

#endif
