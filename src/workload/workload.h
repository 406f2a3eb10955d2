/*
 * workload.h — the workload model: what every front end (the WML parser
 * behind `fsgauge run`, bonnie, iozone, untar) builds and the runner
 * executes.  Pure data: no I/O, no globals.
 *
 * A workload is a set of variables, random variables, filesets (a
 * `define file` is a fileset of one entry), processes (thread groups),
 * and per thread a list of flowops executed in a loop until the run stops.
 *
 * Attribute values (struct wl_val) are either constants or references to
 * a variable.  References are resolved when the value is read, so a `set`
 * after a `define` and a `-s var=value` override both take effect, and a
 * variable holding a random variable yields a fresh sample on every read
 * (filebench's semantics: `iosize=$iosize` with a gamma $iosize draws a new
 * size per operation).
 *
 * Memory: everything hangs off struct workload and is freed by
 * workload_free(); strings are owned copies.
 */
#ifndef FSGAUGE_WORKLOAD_H
#define FSGAUGE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "util/rand.h"

struct wl_var;
struct randvar;

enum wl_val_kind {
	WLV_NONE = 0, /* attribute not given */
	WLV_INT,
	WLV_DBL,
	WLV_BOOL,
	WLV_STR,
	WLV_VAR, /* reference to a variable, resolved when read */
	WLV_RAND, /* an anonymous random variable: size=cvar(...) inline */
};

struct wl_val {
	enum wl_val_kind kind;
	int64_t i; /* WLV_INT, WLV_BOOL */
	double d;  /* WLV_DBL */
	char *s;   /* WLV_STR */
	struct wl_var *var;	/* WLV_VAR */
	struct randvar *rv;	/* WLV_RAND */
};

enum wl_var_kind {
	VAR_UNSET = 0,
	VAR_INT,
	VAR_DBL,
	VAR_BOOL,
	VAR_STR,
	VAR_RAND, /* holds a random variable */
};

struct wl_var {
	char *name; /* without the '$' */
	enum wl_var_kind kind;
	int64_t i;
	double d;
	char *s;
	struct randvar *rv;
	int overridden; /* set from the command line: later `set`s are ignored */
	int implicit;	/* ... by fsgauge itself ($dir): no warning when unused */
	int used;	/* referenced by some attribute or expression */
	int line;	/* where first set (0 for command line) */
};

/* Random variable types: filebench's randvar types and its cvar library. */
enum rv_type {
	RV_UNIFORM,
	RV_GAMMA,
	RV_TABULAR,
	RV_EXPONENTIAL,
	RV_NORMAL,
	RV_LOGNORMAL,
	RV_WEIBULL,
	RV_TRIANGULAR,
};

struct rv_bucket {
	double pct;	 /* probability weight of this row (percent) */
	double lo, hi;	 /* value drawn uniformly in [lo, hi] */
};

struct randvar {
	char *name; /* "$x" name without '$', or NULL for inline cvar(...) */
	enum rv_type type;
	/* Parameters; which apply depends on type.  For gamma, shape is
	 * `gamma` and the mean is `mean` (scale = (mean - min) / gamma). */
	double min, max; /* max <= min means unbounded */
	double round;	 /* round samples to a multiple of this; 0 = none */
	double mean, gamma, sigma, shape, scale, lower, upper, mode;
	struct rv_bucket *table; /* RV_TABULAR */
	size_t ntable;
	int line;
	/* From cvar(...): the parameters are the cvar library's (gamma is the
	 * plain shape, uniform uses lower/upper) and min/max only clamp the
	 * sample.  From randvar: gamma draws are offset by min, uniform spans
	 * [min, 2 * mean - min] (or [min, max] without a mean). */
	int cvar;
	int has_seed; /* seed= given: the runner may seed a private stream */
	uint64_t seed;
};

/* Draw one sample: min, round and max applied.  Never negative. */
double randvar_sample(const struct randvar *rv, struct rng *r);
/* Theoretical mean of a random variable (after min, before round), used
 * for preflight space estimates and fileset statistics. */
double randvar_mean(const struct randvar *rv);

/* Reading attribute values.  A reference to an unset variable, or a value
 * of the wrong kind, yields `dflt`.  Random variables are sampled with r;
 * r may be NULL for constants (then a random variable yields its mean). */
int64_t wl_val_int(const struct wl_val *v, struct rng *r, int64_t dflt);
double wl_val_double(const struct wl_val *v, struct rng *r, double dflt);
int wl_val_bool(const struct wl_val *v, int dflt);
const char *wl_val_str(const struct wl_val *v, const char *dflt);
/* 1 when the attribute was given (directly or through a set variable). */
int wl_val_isset(const struct wl_val *v);
/* 1 when reading it may give different values (random variable). */
int wl_val_israndom(const struct wl_val *v);

struct wl_fileset {
	char *name;
	int is_file;	    /* `define file`: exactly one entry, named `name` */
	struct wl_val path; /* directory the fileset lives in */
	struct wl_val size; /* file size (random variables allowed) */
	struct wl_val entries;	/* number of files */
	struct wl_val dirwidth; /* mean directory width */
	struct wl_val dirgamma; /* accepted, recorded (see docs) */
	struct wl_val dirdepthrv;
	struct wl_val leafdirs; /* a fileset of empty leaf directories */
	struct wl_val prealloc; /* percent of entries created beforehand (bool -> 100) */
	struct wl_val reuse, paralloc, readonly, trusttree, cached;
	struct wl_val sizegamma; /* old-style filesizegamma, recorded */
	/* `define file` only: store the file as name.000, name.001, ... of at
	 * most this many bytes each (bonnie++'s 1 GiB chunk files); every
	 * flowop still sees one file of the full size */
	struct wl_val chunksize;
	/* Entries are files named "<name>.<i>" directly in the fileset's
	 * path, with no directory of its own (fio's jobname.jobnum.filenum;
	 * built in code only: wl_add_flat_fileset) */
	int flat;
	/* A flat fileset whose entry i is named names[i] (nnames of them,
	 * owned) in the fileset's path instead of "<name>.<i>" (fio's
	 * filename_format; built in code only: wl_add_named_fileset) */
	char **names;
	size_t nnames;
	/* A block device in place of the file (`define file` only; iozone's
	 * -f/-F /dev/X): the front end opened it with blockdev_open()
	 * (util/blockdev.h) and owns the descriptor.  Every open of the
	 * entry uses that descriptor (a close leaves it open); nothing is
	 * created, truncated, preallocated or removed, and the entry counts
	 * as existing with its full size from the start. */
	int has_device;
	int device_fd;
	int device_flags;  /* the flags it was opened with, for open_flags */
	char *device_path; /* for messages */
	/* Under --verify: record which 4 KiB blocks of the first
	 * `written_map` bytes of each entry the writes of a phase reach
	 * (write, rwmix and trimwrite requests), for the readback reads of
	 * a later phase (fsgauge io's verify read-back; built in code only,
	 * docs/engine.md).  0: none */
	uint64_t written_map;
	int line;
};

/* The largest iodepth= a read or write flowop takes. */
#define WL_IODEPTH_MAX 65536

enum flowop_type {
	FO_CREATEFILE,
	FO_OPENFILE,
	FO_CLOSEFILE,
	FO_DELETEFILE,
	FO_STATFILE,
	FO_RENAMEFILE,
	FO_MAKEDIR,
	FO_REMOVEDIR,
	FO_LISTDIR,
	FO_READ,
	FO_WRITE,
	FO_READWHOLEFILE,
	FO_WRITEWHOLEFILE,
	FO_APPENDFILE,
	FO_APPENDFILERAND,
	FO_FSYNC,
	FO_FSYNCSET,
	FO_AIOWRITE,
	FO_AIOWAIT,
	FO_HOG,
	FO_DELAY,
	FO_EVENTLIMIT,
	FO_IOPSLIMIT,
	FO_OPSLIMIT,
	FO_BWLIMIT,
	FO_FINISHONCOUNT,
	FO_FINISHONBYTES,
	FO_SEMBLOCK,
	FO_SEMPOST,
	FO_BLOCK,
	FO_WAKEUP,
	FO_PRINT,
	FO_TESTRANDVAR,
	FO_COMPOSITE, /* a `define flowop` called from a thread */
	FO_STONEWALL, /* the first thread to get here raises the phase's stonewall */
	FO_THREADDONE, /* this thread is done; the others go on */
	FO_REPLAY,    /* replay a prepared operation list (built in code only) */
	FO_PUTC,      /* iosize characters one at a time through a user buffer */
	FO_GETC,      /* iosize characters one at a time from a user buffer */
	FO_REWRITE,   /* read a block, dirty a byte, write it back */
	FO_SYNCFS,    /* flush the file system the run directory is on */
	FO_RWMIX,     /* a read or a write, readpct= percent of them reads */
	FO__COUNT
};

/* "createfile", ...; NULL for FO_COMPOSITE.  flowop_type_parse returns -1
 * for an unknown name, and for "replay", which workload files cannot use. */
const char *flowop_type_name(enum flowop_type t);
int flowop_type_parse(const char *name);

struct wl_flowop {
	enum flowop_type type;
	char *name;
	char *fileset_name;	/* filesetname= or filename= */
	struct wl_fileset *fileset; /* resolved by the parser */
	struct wl_val iosize, iters, fd, srcfd, random, dsync, directio;
	struct wl_val wss;	/* workingset / wss: bytes of the file used */
	struct wl_val value;	/* delay seconds, hog loops, limits, counts */
	struct wl_val target;	/* flowop named by sempost/wakeup/finishon* */
	struct wl_val blocking, highwater, rotatefd, indexed, opennext;
	struct wl_val dir;	/* listdir/makedir extras are not needed */
	/* file-picking flowops: take the fileset's entries in one pass per
	 * phase, in index order (with `random`: in a shuffled order) */
	struct wl_val ordered;
	/* read/write with random: where random offsets fall and how many
	 * requests take one (fio's random_distribution=, percentage_random=,
	 * randommap; util/dist.h, docs/workload-language.md) */
	struct wl_val random_distribution; /* a dist_parse() spec; default uniform */
	struct wl_val percentage_random;   /* 0 to 100; default 100 */
	struct wl_val randommap;	   /* each block once per pass; default off */
	/* read/write: the byte of the file where the working set starts
	 * (fio's offset=); default 0 */
	struct wl_val offset;
	/* read/write: an open-loop schedule (fio's rate_iops=, rate=,
	 * rate_process=, rate_min=; docs/workload-language.md) */
	struct wl_val rate_iops;	   /* requests per second */
	struct wl_val rate;		   /* bytes per second */
	struct wl_val rate_process;	   /* "linear" (default) or "poisson" */
	struct wl_val rate_min;		   /* bytes per second the run must reach */
	char *print_text;	/* print: the text to print */
	struct wl_val rvar;	/* testrandvar: randvar= */
	/* FO_COMPOSITE: the definition's flowops with this call's parameters
	 * bound; executed in order, `iters` times per call. */
	struct wl_flowop **children;
	size_t nchildren;
	int line;
	char *composite_name; /* FO_COMPOSITE: the name of its `define flowop` */
	/* Added for the iozone front end, usable from WML (docs/engine.md). */
	struct wl_val osync;	/* open with O_SYNC */
	struct wl_val reverse;	/* sequential offsets run backwards from the end */
	struct wl_val stride;	/* sequential offsets jump this many records */
	struct wl_val bufsize;	/* stdio-like user-space buffer of this size */
	struct wl_val stonewall; /* the iters= loop ends at the phase's stonewall */
	struct wl_val resume;	/* writewholefile: start at the file's current size */
	/* built in code only: the suite's figure does not time this flowop
	 * (iozone's fsync after its timing, without -e), so a sync here does
	 * not make the phase's writes synced (docs/trust.md) */
	int after_timing;
	/* fsync (of a slot) and deletefile: also fsync the directory that
	 * holds the file, as bonnie++ -b does (docs/engine.md) */
	struct wl_val dirsync;
	/* fsync with target= naming a write flowop of the same thread (built
	 * in code only, for fio's fsync=, fdatasync=, end_fsync=): not run
	 * in the thread's loop, but by that flowop, before its request that
	 * follows every `every`th write it issues (fio's rule, docs/io.md:
	 * on that request's descriptor) and (`atend`) once when the thread
	 * stops, on the last write's descriptor; `datasync`: fdatasync
	 * instead of fsync */
	struct wl_val every, atend, datasync;
	/* an ordered pass in the order the fileset's directories list their
	 * files (readdir), as bonnie++'s sequential stat and delete */
	struct wl_val readdir;
	/* read/write: keep up to this many requests in flight on an
	 * asynchronous engine (fio's iodepth; 1 to WL_IODEPTH_MAX, default 1;
	 * docs/workload-language.md) */
	struct wl_val iodepth;
	/* read/write with iodepth=: queue requests and push them to the
	 * kernel B at a time, one submission call per batch (fio's
	 * iodepth_batch_submit; 1 to iodepth, default 1: one call per request) */
	struct wl_val iodepth_batch;
	/* read/write: once this thread has issued this many bytes through
	 * the flowop, the thread is done (fio's io_size per job;
	 * docs/workload-language.md) */
	struct wl_val iobytes;
	/* read/write/rwmix on a fileset: each request goes to one of the
	 * fileset's entries, the same one for `rotate` requests in a row,
	 * then the next in index order (with rotate_random: one drawn at
	 * random), at most `openfiles` of them open at once (default: all);
	 * each entry keeps its own sequential offset and random map (fio's
	 * nrfiles=, file_service_type=, openfiles=; built in code only,
	 * docs/engine.md) */
	struct wl_val rotate, rotate_random, openfiles;
	/* rwmix: the percentage of its operations that are reads (fio's
	 * rwmixread), 0 to 100, default 50; the runner counts them as two
	 * operations, "NAME.read" and "NAME.write" */
	struct wl_val readpct;
	/* read/write/rwmix: after every `thinktime_blocks` requests (default
	 * 1), pause `thinktime` seconds, spinning on the CPU for the first
	 * `thinktime_spin` of them and sleeping the rest (fio's thinktime=,
	 * thinktime_blocks=, thinktime_spin=; built in code only, docs/io.md) */
	struct wl_val thinktime, thinktime_spin, thinktime_blocks;
	/* write: discard each request's range of the block device instead of
	 * writing it (fio's rw=trim, randtrim; built in code only, docs/io.md);
	 * its bytes count as trimmed, not written */
	struct wl_val trim;
	/* write: discard each request's range of the block device, then
	 * write it (fio's rw=trimwrite, randtrimwrite; built in code only,
	 * docs/io.md): the runner counts the discards as "NAME.trim" (bytes
	 * trimmed) and the writes as "NAME.write", the flowop itself being
	 * no operation (as an rwmix's reads and writes) */
	struct wl_val trimwrite;
	/* read/write with iodepth=: wait for at least `reap_min` completions
	 * each time the flowop's queue is full (default 1) and take at most
	 * `reap_max` of them at once (0: every one the engine has; fio's
	 * iodepth_batch_complete_min and _max; built in code only,
	 * docs/io.md) */
	struct wl_val reap_min, reap_max;
	/* openfile/createfile, and read/write/rwmix that open their files
	 * (rotate=): after each open, untimed, drop the file's cached pages
	 * (posix_fadvise POSIX_FADV_DONTNEED: fio's invalidate=1) and then
	 * give the kernel the advice `fadvise` (a POSIX_FADV_* value + 1; 0:
	 * none; fio's fadvise_hint=), both over the whole file; built in
	 * code only, docs/io.md */
	struct wl_val invalidate, fadvise;
	/* read/write: instead of transferring data, fallocate(2) the
	 * request's range with mode `fallocate` (FALLOC_FL_* bits: fio's
	 * falloc engine; with trim=, its bytes count as trimmed, else none), or
	 * (write) ftruncate(2) the file to the request's offset (`truncate`:
	 * fio's ftruncate engine); built in code only, docs/io.md */
	struct wl_val fallocate, truncate;
	/* delay: spend the time on the CPU (a busy loop, never cut short)
	 * instead of sleeping, then sleep `thinktime` seconds, untimed (fio's
	 * cpuio engine: cpuchunks, and its share of the period by cpuload;
	 * built in code only, docs/io.md) */
	struct wl_val spin;
	/* read on a fileset with written_map: under --verify, read back the
	 * blocks of each entry that the writes of the last phase writing the
	 * fileset reached (its written map), in [offset, offset + wss), in
	 * entry then offset order, each once: a request per run of written
	 * blocks within each `iosize` bytes from offset (fio's verify read
	 * of each block written), every block checked, a block not read back
	 * whole (a hole, the file's end) a verify error; the thread is done
	 * when every one is read.  Opens its entries itself, untimed (with
	 * rotate=); built in code only, docs/engine.md */
	struct wl_val readback;
	/* FO_REPLAY (see docs/engine.md): the operations to replay
	 * (workload/replay.h), immutable, shared by every thread, owned by
	 * whoever built the workload; `value` executions in all, each in its
	 * own directory "<dir>-NNN".  Its `children` count the operations by
	 * kind: FO_REPLAY flowops with replay NULL and replay_kind set.
	 * `replay_target`: the run directory its executions go in, the
	 * runner's rds[replay_target] (0: the first; with several targets,
	 * docs/targets.md) */
	const struct replay *replay;
	int replay_kind;
	size_t replay_target;
};

struct wl_thread {
	char *name;
	struct wl_val instances;
	struct wl_val memsize; /* per-thread I/O buffer size */
	struct wl_val useism;
	struct wl_flowop **flowops;
	size_t nflowops;
	int line;
};

struct wl_process {
	char *name;
	struct wl_val instances;
	struct wl_val nice;
	struct wl_thread **threads;
	size_t nthreads;
	int line;
};

enum quit_mode {
	QUIT_TIMEOUT = 0, /* run for the duration (default) */
	QUIT_FIRSTDONE,	  /* stop when the first thread finishes */
	QUIT_ALLDONE,	  /* stop when every thread has finished */
};

struct workload {
	char *name;   /* personality name or file base name */
	char *source; /* file name used in messages */
	struct wl_var **vars;
	size_t nvars;
	struct randvar **randvars; /* all random variables, named or inline */
	size_t nrandvars;
	struct wl_fileset **filesets;
	size_t nfilesets;
	struct wl_process **processes;
	size_t nprocesses;
	int has_run;	    /* a `run N` line was present */
	double run_seconds; /* from `run N` (valid when has_run) */
	enum quit_mode quit_mode;
	struct wl_val eventgen_rate; /* events/s for eventlimit; WLV_NONE if absent */
	int debug_level;
	char **echoes; /* `echo` texts, in order */
	size_t nechoes;
	char **usages; /* `usage` texts, in order */
	size_t nusages;
	char **warnings; /* non-fatal findings (unused -s variable, ...) */
	size_t nwarnings;
};

/* A `-s name=value` from the command line. */
struct wl_override {
	const char *name; /* without '$' */
	const char *value;
	int implicit; /* fsgauge's own ($dir from -d or the default): a workload
		       * that does not use it gets no warning */
};

struct wl_error {
	char file[256];
	int line, col;
	char msg[512]; /* "expected '=' after attribute name, found ','" */
};

/*
 * Parse WML text.  `source` is the name used in error messages.
 * Overrides are applied as if set at the top and win over the file's own
 * `set`s.  Returns 0 and a new workload in *out, or -EINVAL with *err
 * filled (file:line:col and what was expected).  Never prints.
 */
int workload_parse(const char *text, const char *source, const struct wl_override *ov,
		   size_t nov, struct workload **out, struct wl_error *err);
void workload_free(struct workload *w);

/* Variable lookup by name (without '$'); NULL if absent. */
struct wl_var *workload_var(const struct workload *w, const char *name);
/* Set a variable to a value parsed from text (as `set $name=text`).
 * Returns 0 or -EINVAL for an unparsable value. */
int workload_set_var(struct workload *w, const char *name, const char *text);

/*
 * Several instances as one workload (replicate.c; `run --per-target`):
 * workload_suffix_names() appends `sfx` to the name of every fileset,
 * process, thread and flowop of w, and to what flowops name by them
 * (filesetname=, target=), so that two instances share none;
 * workload_absorb() moves src's filesets and processes to the end of
 * dst's.  src keeps its variables and random variables, which the moved
 * parts refer to: free it only after dst is done with.
 */
void workload_suffix_names(struct workload *w, const char *sfx);
/* The same for one process (built apart from a workload: bonnie's tests,
 * one process per target): its name, its threads' and its flowops'. */
void wl_process_suffix_names(struct wl_process *p, const char *sfx);
void workload_absorb(struct workload *dst, struct workload *src);

/* A stable, canonical text form of the whole workload (every variable,
 * fileset, process, thread and flowop with resolved attribute values),
 * for golden tests and `fsgauge show --resolved`.  Caller frees. */
char *workload_dump(const struct workload *w);

#endif
