/*
 * job.h — one fio job as fsgauge io runs it: its options, set by fio's
 * option names from text (the command line's --name=value and, later, a
 * job file's key=value), with fio's units and meanings (docs/io.md).
 *
 *	struct io_job j;
 *	char err[256];
 *	io_job_init(&j, "job1");
 *	if (io_job_set(&j, "bs", "4k", err, sizeof(err)) < 0) ... err says why
 *	...
 *	io_job_free(&j);
 *
 * io_job_set() returns 0, -ENOENT for a name that is no option fsgauge io
 * knows, -ENOTSUP for a fio option fsgauge io does not take (err names
 * it: never silently ignored), or -EINVAL for a bad value (err says
 * what was expected).  No I/O, no globals.
 */
#ifndef FSGAUGE_SUITE_IO_JOB_H
#define FSGAUGE_SUITE_IO_JOB_H

#include <stddef.h>
#include <stdint.h>

enum io_rw {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,	   /* rw, readwrite: sequential, mixed */
	RW_RANDRW, /* randrw */
	RW_TRIM,   /* trim: sequential discards (block devices only) */
	RW_RANDTRIM, /* randtrim */
	/* trimwrite: each block discarded, then written (block devices
	 * only; fio's trims preceding writes to the same blocks) */
	RW_TRIMWRITE,
	RW_RANDTRIMWRITE, /* randtrimwrite: the same at random offsets */
};

/* fio's data directions, for bs=READ,WRITE. */
enum io_dir { IO_DIR_READ = 0, IO_DIR_WRITE = 1,
	/* a result direction only (the "<job>.trim" operations): a trim's
	 * requests take the write block size, and bs= has no trim side */
	IO_DIR_TRIM = 2 };

/* One bssplit= entry: blocks of `size` for `pct` percent of the I/O. */
struct io_split {
	uint64_t size;
	double pct;
};

#define IO_SPLIT_MAX 64

/* fio's file-level engines (ioengine=filecreate, filestat, filedelete,
 * and on directories dircreate, dirstat, dirdelete: io_job.fileop_dir):
 * one timed operation per file, no I/O (docs/io.md) */
enum io_fileop { IO_FILEOP_NONE, IO_FILEOP_CREATE, IO_FILEOP_STAT, IO_FILEOP_DELETE };

/* fio's engines whose requests are range operations on the job's file
 * instead of transfers (ioengine=ftruncate: a write truncates the file
 * to its offset; falloc: fallocate(2) of its range, a trim punches a
 * hole), run on psync's calls (docs/io.md) */
enum io_rangeop { IO_RANGEOP_NONE, IO_RANGEOP_FTRUNCATE, IO_RANGEOP_FALLOC };

/* The most files of one clone (nrfiles=, openfiles=). */
#define IO_NRFILES_MAX 1000000

struct io_job {
	char *name;
	char *description;
	enum io_rw rw;
	uint64_t bs[2];			 /* per direction */
	uint64_t bs_lo[2], bs_hi[2];	 /* bsrange=; lo 0: none */
	struct io_split split[2][IO_SPLIT_MAX]; /* bssplit= */
	size_t nsplit[2];
	uint64_t blockalign;		 /* 0: the block size */
	uint64_t size;			 /* 0: not given */
	uint64_t filesize;		 /* filesize=: each file's; 0: size / nrfiles */
	unsigned nrfiles;		 /* files per clone (default 1) */
	unsigned openfiles;		 /* open at once; 0: nrfiles */
	unsigned fst_nr;		 /* file_service_type's :N (requests per turn) */
	int fst_random;			 /* file_service_type=random */
	uint64_t io_size;		 /* 0: size */
	/* offset=, offset_increment=: clone k's region starts at offset
	 * (or offset_pct percent of the file or device, aligned down to the
	 * smallest block size) plus k * offset_increment; io_job_offset() */
	uint64_t offset;
	int offset_pct;			 /* offset=P%: P; -1: offset is a size */
	uint64_t offset_increment;
	unsigned numjobs;
	unsigned loops;
	unsigned iodepth, iodepth_batch;
	/* iodepth_batch_complete_min= (and its alias iodepth_batch_complete),
	 * iodepth_batch_complete_max=: completions waited for at least and
	 * taken at most at once; max 0: not given (no bound) */
	unsigned batch_complete_min, batch_complete_max;
	/* fadvise_hint=: IO_FADV_*; invalidate=: drop each file's page cache
	 * when it is opened (fsgauge's default 0: docs/io.md) */
	int fadvise_hint;
	int invalidate;
	unsigned rwmixread;		 /* mixed jobs: percent reads (default 50) */
	char *ioengine;			 /* fsgauge's engine name */
	char *ioengine_fio;		 /* as given ("sync", "pvsync") */
	enum io_fileop fileop;		 /* a file-level engine (run on psync) */
	int fileop_dir;			 /* the fileop is on directories (dir*) */
	enum io_rangeop rangeop;	 /* ftruncate, falloc (run on psync) */
	/* ioengine=cpuio: no I/O, each request cpuchunks microseconds on the
	 * CPU then a sleep that makes it cpuload percent of the period */
	int cpuio;
	unsigned cpuload;		 /* percent; 0: not given */
	unsigned cpuchunks;		 /* microseconds (default 50000, fio's) */
	int stat_lstat;			 /* stat_type=lstat (else stat) */
	/* io_uring's sqthread_poll=, sqthread_poll_cpu= (IOJ_SQPOLL_CPU),
	 * registerfiles=, fixedbufs= */
	int sqthread_poll, registerfiles, fixedbufs;
	unsigned sqthread_poll_cpu;
	int direct, sync, dsync;
	unsigned fsync, fdatasync;	 /* a sync every N writes; 0: none */
	int end_fsync, fsync_on_close;
	/* rate=, rate_iops=, rate_min=, rate_process=: an open-loop
	 * schedule per clone (docs/io.md, "Open-loop rates") */
	uint64_t rate;			 /* bytes per second; 0: none */
	uint64_t rate_iops;		 /* requests per second; 0: none */
	uint64_t rate_min;		 /* bytes per second; 0: none */
	int rate_process;		 /* 0: not given, 1: linear, 2: poisson */
	/* thinktime=, thinktime_spin= (seconds), thinktime_blocks=: a pause
	 * after every thinktime_blocks requests of a clone */
	double thinktime, thinktime_spin;
	unsigned thinktime_blocks;	 /* default 1 */
	double runtime;			 /* seconds; 0: none */
	int time_based;
	double ramp_time;
	double startdelay;		 /* seconds before the job's group starts */
	char *filename;			 /* NULL: "<name>.<clone>.0" per clone */
	char *filename_format;		 /* fio's, with the file engines; NULL: none */
	char *directory;
	int group_reporting;
	int stonewall;
	char *wait_for;			 /* wait_for=: the job this one waits for */
	int zero_buffers;
	int compress_pct, dedupe_pct;	 /* -1: not given */
	int verify;
	/* do_verify= (default 1): with verify, a job that writes reads back
	 * what it wrote after its writes (io_job_reads_back) */
	int do_verify;
	char *random_distribution;	 /* NULL: uniform (util/dist.h's text) */
	int percentage_random;		 /* 100 unless given */
	int norandommap;
	int randrepeat;
	uint64_t randseed;
	int has_randseed;
	unsigned kb_base;		 /* 1024 (fio's default) or 1000 */
	double percentiles[64];		 /* percentile_list=; n 0: fio's default */
	size_t npercentiles;
	int lat_percentiles;
	unsigned given;			 /* options given (bits of IOJ_*) */
	/* the options as set (key, value; value NULL for a flag), for fio's
	 * "job options"; the first nglobal came with the copy of [global] */
	struct io_kv {
		char *key, *val;
	} *opts;
	size_t nopts, nglobal;
};

/* fadvise_hint= values, fio's: none (0), by the job's rw= (1: random
 * or sequential), or one advice for every job. */
enum { IO_FADV_NONE, IO_FADV_TYPE, IO_FADV_SEQUENTIAL, IO_FADV_RANDOM, IO_FADV_NOREUSE };

/* Bits of io_job.given, for checks that depend on what was said. */
enum {
	IOJ_BS = 1u << 0,
	IOJ_SIZE = 1u << 1,
	IOJ_RUNTIME = 1u << 2,
	IOJ_IODEPTH = 1u << 3,
	IOJ_IOENGINE = 1u << 4,
	IOJ_RW = 1u << 5,
	IOJ_DIRECTORY = 1u << 6,
	IOJ_THINK_BLOCKS = 1u << 7,
	IOJ_THINK_SPIN = 1u << 8,
	IOJ_BATCH_MAX = 1u << 9,
	IOJ_SQPOLL_CPU = 1u << 10,
};

void io_job_init(struct io_job *j, const char *name);
/* A copy of `src` named `name` (fio's [global] section into a job). */
void io_job_copy(struct io_job *dst, const struct io_job *src, const char *name);
void io_job_free(struct io_job *j);
int io_job_set(struct io_job *j, const char *key, const char *val, char *err, size_t errlen);

/* Whether fio option `key` takes no value (a bare flag: time_based). */
int io_job_flag(const char *key);

/* The options fsgauge io takes, in help order, with their help text;
 * terminated by a NULL name. */
struct io_opt_info {
	const char *name;
	const char *argname; /* NULL: a flag */
	const char *help;
};
extern const struct io_opt_info io_opt_table[];

/* Bytes of each of the job's files: filesize=, else size / nrfiles
 * (fio's rule); 0 when neither is given. */
uint64_t io_job_file_size(const struct io_job *j);
/* Whether the job's clones each go round several files (nrfiles above 1
 * without filename=). */
int io_job_multi(const struct io_job *j);

/* The smallest request size of the job (fio's minimum block size):
 * bs, bsrange's low end or bssplit's smallest entry, over both
 * directions. */
uint64_t io_job_min_bs(const struct io_job *j);
/* Where clone k's region starts in a file or device of `whole` bytes
 * (offset=P% is of `whole`).  0, or -ERANGE when it would be past
 * INT64_MAX. */
int io_job_offset(const struct io_job *j, unsigned k, uint64_t whole, uint64_t *base);

/* Whether the job reads, writes, and is random. */
int io_job_reads(const struct io_job *j);
int io_job_writes(const struct io_job *j);
int io_job_random(const struct io_job *j);
/* The job discards, on a block device only: rw=trim or randtrim (no
 * reads, no writes: io_job_writes() is 0, so no fsync, as fio syncs no
 * trims), or trimwrite or randtrimwrite (io_job_trimwrite()). */
int io_job_trims(const struct io_job *j);
/* rw=trimwrite or randtrimwrite: each block discarded then written (the
 * job writes: io_job_writes() is 1, and its writes are synced as a write
 * job's). */
int io_job_trimwrite(const struct io_job *j);
/* With verify and do_verify, a job that writes (write, randwrite, rw,
 * randrw, trimwrite, randtrimwrite), not time_based (fio's verify never
 * starts then), nor on a file, range or cpuio engine (which refuse
 * verify): after its writes it reads back and checks every block it
 * wrote, in a phase of its own (docs/io.md, "Verify"). */
int io_job_reads_back(const struct io_job *j);
/* rw=rw (readwrite) or randrw: reads and writes, rwmixread percent reads */
int io_job_mixed(const struct io_job *j);
/* fio's name of the job's rw= ("randread"). */
const char *io_rw_name(enum io_rw rw);

/* Parse a size with fio's units under kb_base (1024: k = 1024 and, for
 * old scripts, KiB = 1000; 1000: k = 1000 and KiB = 1024).  0 or -EINVAL
 * / -ERANGE. */
int io_size_parse(const char *s, unsigned kb_base, uint64_t *out);
/* Parse fio's time: a number with an optional us, ms, s, m, h or d
 * suffix, `unit` seconds when bare.  0 or -EINVAL. */
int io_time_parse(const char *s, double unit, double *secs);

#endif
