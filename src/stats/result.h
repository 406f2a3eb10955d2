/*
 * result.h — what a run measured, in a form every suite shares and every
 * output writer reads: a result is a list of phases (a filebench run has
 * one; bonnie has one per test), each a list of named operations with
 * their merged statistics.
 *
 * Workers fill their own struct op_stats (single writer, no locks); the
 * runner merges them into the result after the workers are joined.
 * Memory: result_free() frees everything reachable from the result.
 */
#ifndef FSGAUGE_RESULT_H
#define FSGAUGE_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

/* How an operation counts in the "r/w" split of the IO Summary. */
enum op_class {
	OPC_OTHER = 0, /* metadata, sync, control */
	OPC_READ,
	OPC_WRITE,
};

/*
 * Workers are the only writers of their op_stats, but the runner's sampler
 * reads them while they run (time series, warm-up baselines, progress), so
 * counters are updated with STAT_ADD: a relaxed atomic store of the new
 * value, the same plain store as `x += v` on common CPUs, never a locked
 * instruction.
 */
#define STAT_ADD(field, v) __atomic_store_n(&(field), (field) + (v), __ATOMIC_RELAXED)

/*
 * An operation's counters (ops, bytes, CPU) change together, so a live
 * reader must not see them half-updated: a warm-up baseline taken between
 * the bytes and the ops of one operation would leave the measured window
 * one operation's bytes off.  The worker brackets its update with
 * STAT_BEGIN/STAT_COMMIT, a sequence counter that is odd while the update
 * is under way; op_stats_merge_live() retries until it reads an even,
 * unchanged counter.  The stores in between are release stores (ordered
 * after the odd counter), on x86 the same plain stores as before.
 */
#define STAT_BEGIN(st) __atomic_store_n(&(st)->seq, (st)->seq + 1, __ATOMIC_RELAXED)
#define STAT_ADD_R(field, v) __atomic_store_n(&(field), (field) + (v), __ATOMIC_RELEASE)
#define STAT_COMMIT(st) __atomic_store_n(&(st)->seq, (st)->seq + 1, __ATOMIC_RELEASE)

#define OP_QDEPTH_BUCKETS 7

/*
 * A request on an asynchronous engine (io_uring, libaio) has three times
 * (fio's slat, clat and lat): issued (the runner reads the clock as it
 * hands the request to the engine), submitted (as the call that handed it
 * to the kernel returned: one reading per call, for every request of a
 * batch), reaped (as the reap that returned its completion returned).
 * The operation's `lat` runs from issue to reap; `slat` from issue to
 * submission, `clat` from submission to reap, each in ns.  One of each
 * per operation, so their counts are the operation's: a request the
 * runner could only run to completion in one call (a chunked file, or
 * while other requests of the thread are in flight: the engine then uses
 * the system call) counts its whole latency as completion and 0 as
 * submission.  Allocated only for the operations of asynchronous engines
 * (two histograms: about 150 KiB); see struct op_stats.split.
 */
struct op_split {
	struct hist slat, clat;
};

/* A flowop that finds no suitable file sleeps this long and tries again
 * (runner/flowop.c): the insight contention rule counts the stalls' time. */
#define RESULT_STALL_SLEEP_NS 200000ull

struct op_stats {
	uint64_t ops;
	uint64_t errors;
	uint64_t stalls;       /* times no suitable file was available (each one
				* a RESULT_STALL_SLEEP_NS sleep before the retry) */
	uint64_t bytes_read;
	uint64_t bytes_written;
	uint64_t bytes_trimmed; /* discarded (fio's trim: rw=trim, randtrim) */
	/* CPU sampling (runner/internal.h): each sampled operation counts
	 * with its weight, 1/p, the operations it stands for */
	uint64_t cpu_ns;       /* weighted thread CPU of the sampled operations */
	uint64_t cpu_lat_ns;   /* weighted latency of the same operations */
	uint64_t cpu_samples;  /* how many operations were CPU-sampled */
	uint64_t seq;          /* odd while the owner updates (STAT_BEGIN) */
	/* iodepth= above 1 (read, write): at each submission, how many of
	 * the flowop's requests were in flight with it (fio's "IO depths"):
	 * qdepth[i] counts depths from 2^i to 2^(i+1) - 1 (1, 2-3, 4-7, ...,
	 * 32-63), the last every depth from 64 up; qdepth_max is the largest.
	 * All zero for a flowop without iodepth=. */
	uint64_t qdepth[OP_QDEPTH_BUCKETS];
	uint64_t qdepth_max;
	/* iodepth= above 1: the submission system calls its requests took
	 * (engine_submit_calls(); fewer than the requests with iodepth_batch=) */
	uint64_t submit_calls;
	/* iodepth= above 1: the waits for completions with its queue full
	 * (each takes at least reap_min=, fio's iodepth_batch_complete_min,
	 * unless fewer are in flight); the drains at its end not counted */
	uint64_t reap_calls;
	/* an asynchronous engine's operations: their submission and
	 * completion latencies (struct op_split), owned by this op_stats;
	 * NULL otherwise.  op_stats_merge() and op_stats_sub() allocate
	 * the destination's when the source has one, so an op_stats that
	 * was merged or subtracted into is released with
	 * op_stats_release(). */
	struct op_split *split;
	struct hist lat;       /* latency in ns */
};

/* An operation issued on a schedule (rate_iops=, rate=) is late when it
 * is issued more than this after its scheduled time. */
#define OP_SCHED_LATE_NS 1000000ull

/* What the schedule of an open-loop flowop saw (docs/workload-language.md,
 * "Open-loop rates"): the latency of each operation from the time it was
 * scheduled (not from when it was issued: no coordinated omission), how
 * many were issued late, and how many threads fell below rate_min=.
 * Merged by addition like op_stats; read only after the workers joined. */
struct op_schedule {
	uint64_t ops;	     /* operations issued on the schedule */
	uint64_t late;	     /* issued more than OP_SCHED_LATE_NS after their time */
	uint64_t threads;    /* threads that ran the schedule */
	uint64_t below_min;  /* ... whose rate stayed below rate_min= */
	struct hist lat;     /* completion - scheduled time, ns */
};

void op_schedule_init(struct op_schedule *s);
/* *dst += src, allocating *dst (owned by the caller) when NULL. */
void op_schedule_merge(struct op_schedule **dst, const struct op_schedule *src);

/* The bucket of qdepth[] a depth (>= 1) counts in. */
static inline unsigned op_qdepth_bucket(uint64_t depth)
{
	unsigned b = 0;

	while (b + 1 < OP_QDEPTH_BUCKETS && depth >= (2ull << b))
		b++;
	return b;
}
/* The lowest depth of bucket b (1, 2, 4, ..., 64). */
static inline uint64_t op_qdepth_low(unsigned b)
{
	return 1ull << b;
}

void op_stats_init(struct op_stats *s);
/* Free what s owns (its split) and set it NULL; s stays usable. */
void op_stats_release(struct op_stats *s);
/* s back to nothing counted, as op_stats_init(), keeping its split (if
 * any) allocated and emptied. */
void op_stats_clear(struct op_stats *s);
/* s's split, allocated (empty) if it has none. */
struct op_split *op_stats_split(struct op_stats *s);
void op_stats_merge(struct op_stats *dst, const struct op_stats *src);
/* dst += a snapshot of `live`, which its owner may be updating (relaxed
 * atomic loads; see hist_snapshot()). */
void op_stats_merge_live(struct op_stats *dst, const struct op_stats *live);
/* dst = later - earlier (two snapshots or merged snapshots of the same
 * operations): what happened between them.  See hist_sub(). */
void op_stats_sub(struct op_stats *dst, const struct op_stats *later,
		  const struct op_stats *earlier);
/* Mean CPU ns per operation from the samples: the share of their
 * (weighted) latency that was CPU, times the mean latency of all the
 * operations, so never more than that mean for a synchronous thread;
 * NaN when none was sampled (unknown, not zero: JSON null, `-` in text). */
double op_stats_cpu_per_op(const struct op_stats *s);

struct result_op {
	char *name;  /* flowop or test name: "readfile1", "block_write" */
	char *type;  /* flowop type or operation kind: "read" */
	enum op_class cls;
	/* an open-loop flowop (rate_iops=, rate=): its schedule; NULL
	 * otherwise.  Owned by the result. */
	struct op_schedule *sched;
	/* synchronous: fsync, fdatasync, syncfs, or writes on a descriptor
	 * opened O_SYNC/O_DSYNC: its time is time waiting for the storage
	 * (stats/insight.h's sync rule) */
	int sync;
	struct op_stats st;
	double extra_mean; /* testrandvar: sample mean */
	double extra_sd;   /* testrandvar: sample standard deviation */
};

/* A key/value pair of text; used for parameters and the environment. */
struct kv {
	char *key;
	char *value;
};

struct kvlist {
	struct kv *v;
	size_t n;
};

void kv_add(struct kvlist *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);

/* What a set of block devices did: deltas of /proc/diskstats. */
struct dev_io {
	uint64_t reads, writes;		    /* completed requests */
	uint64_t read_merges, write_merges; /* requests merged into others */
	uint64_t bytes_read, bytes_written; /* sectors * 512 */
	uint64_t read_ms, write_ms;	    /* time requests spent, summed */
	uint64_t busy_ms;		    /* io_ticks: time with I/O in flight */
	uint64_t weighted_ms;		    /* time_in_queue: integral of queue depth */
	uint64_t flushes, flush_ms;	    /* flush requests completed, their time */
	int no_flush;			    /* the flush counters are unknown (a kernel
					     * before 5.5, or a device without them) */
};

/* dst += src; the flush counters are unknown in dst when unknown in either. */
void dev_io_add(struct dev_io *dst, const struct dev_io *src);
/* dst = later - earlier, counter by counter (0 if a counter went back);
 * the flush counters unknown when unknown in either. */
void dev_io_sub(struct dev_io *dst, const struct dev_io *later, const struct dev_io *earlier);
/* Percent of `secs` the `ndev` devices (0 counts as 1) were busy on
 * average: busy_ms / (secs * 1000 * ndev) * 100, at most 100; NAN when
 * secs <= 0. */
double dev_io_utilization(const struct dev_io *d, double secs, size_t ndev);

/* What device counters come to over a phase: the figures the text's
 * Devices line, the JSON's "device" objects, the "limited by" verdict's
 * device rule and the report's table of hosts (under mpirun) show,
 * computed here once.
 * A request is a read, a write or, when the kernel counts them, a flush:
 * flushes keep a device busy and are in its time_in_queue as the reads
 * and writes are. */
struct dev_figures {
	double utilization;	    /* dev_io_utilization() */
	double queue;		    /* average requests in flight: weighted_ms / time */
	double requests_per_second; /* reads + writes (+ flushes) */
	double mib_per_second;	    /* read + written, MiB (2^20 bytes) */
	double service_ms;	    /* busy time per request */
	double await_ms;	    /* time per request, queued and served */
};
/* The figures of `d` (`ndev` devices, 0 counts as 1) over `secs`: the
 * rates and utilisation NAN when secs <= 0, the times per request NAN
 * without a request. */
void dev_io_figures(const struct dev_io *d, double secs, size_t ndev, struct dev_figures *out);

/* What sysfs said about one device's disk at the phase's end (what a
 * flush can cost: stats/insight.h). */
struct result_devinfo {
	int rotational; /* queue/rotational: 1, 0, or -1 unknown */
	char class[16]; /* devices_props()'s class: "hdd", "ssd", "virtual", ... */
};

/* The devices under the target during a phase. */
struct result_device {
	char *none;	     /* no block device, and why ("tmpfs has no block
			      * device"); NULL when devices were measured */
	size_t ndev;
	char **names;	     /* "sda1", "loop0" */
	struct dev_io *per;  /* per device, in names order */
	struct result_devinfo *info; /* per device, in names order; NULL when
				      * not known (a result read back, MPI) */
	struct dev_io total;
	double ceiling_mb_s; /* sum of the devices' plausible rate ceilings
			      * (MB/s, 10^6); 0 when a device's class has none */
};

/* Whole-system CPU time over the phase, from /proc/stat (clock ticks). */
struct cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* The workers' time over a phase's measured window (runner/measure.c),
 * what the "limited by" verdict weighs (stats/insight.h).  Sums over the
 * workers, merged by addition (repeats, MPI ranks); n 0 when no worker's
 * clock could be read. */
struct result_threads {
	uint64_t n;		/* workers measured */
	uint64_t wall_ns;	/* their time in the window, summed */
	uint64_t cpu_ns;	/* their CPU time (user + system), summed */
	/* their time runnable but waiting for a CPU (schedstat), summed;
	 * runq_n: the workers it was read for */
	uint64_t runq_ns, runq_n;
	/* their context switches (/proc/.../status), summed: voluntary (they
	 * slept) and involuntary (preempted); csw_n: the workers read */
	uint64_t vcsw, ivcsw, csw_n;
	/* their page faults (/proc/.../stat), summed: minor and major;
	 * flt_n: the workers read */
	uint64_t minflt, majflt, flt_n;
	/* the worker with the largest CPU share: its CPU and its time */
	uint64_t top_cpu_ns, top_wall_ns;
	uint64_t rate_wait_ns;	/* asleep for rate_iops=, rate=, the eventgen or thinktime */
	double event_rate;	/* the eventgen's rate (events/s); 0: none */
	unsigned ncpus;		/* CPUs the process could run on (its affinity) */
	unsigned ncpus_online;	/* CPUs online (what /proc/stat covers) */
};
/* a += b: sums add, the busiest worker is the one with the larger share. */
void result_threads_merge(struct result_threads *a, const struct result_threads *b);

/* Cache honesty: were reads likely served from memory?  And was a rate
 * beyond what the devices can do? */
struct result_cache {
	int assessed;
	int likely_cached;
	char *reason;
	int memory_fs; /* the target's file system keeps files in memory (tmpfs) */
	uint64_t read_working_set_bytes; /* data the reads could touch */
	uint64_t ram_bytes, mem_available_bytes, page_cache_bytes;
	int64_t arc_bytes, arc_max_bytes; /* ZFS ARC; -1 when there is none */
	int rate_implausible;
	char *rate_reason;
	/* the write side: the application wrote, the devices did not, and
	 * nothing in the phase forced the data out (fsync, O_SYNC, O_DIRECT) */
	int writes_absorbed;
	char *write_reason;
};

/* One target of a run over several (docs/targets.md, "Devices and the
 * cache per target"): what the operations on its files moved, what its
 * own devices did, and its own cache verdict.  An operation counts in
 * the target of the files its flowop works on; a flowop whose files are
 * in several targets (a descriptor opened in either) counts in none, so
 * the targets' bytes may add up to less than the phase's. */
struct result_target {
	char *path;	/* the target as named (-d) */
	char *fstype;	/* its file system ("ext4", "tmpfs"), or NULL */
	uint64_t read_ops, bytes_read, bytes_written;
	struct result_device device;
	struct result_cache cache;
};

/* Data-reduction honesty (docs/trust.md, "Stored bytes"): after a phase
 * that wrote, the files it wrote that are still there, their allocated
 * blocks against the bytes written.  checked 0 when not looked at (too
 * little written, no files: a block device). */
struct result_stored {
	int checked;
	uint64_t files;		  /* regular files stat'ed */
	uint64_t size_bytes;	  /* their sizes (st_size), summed */
	uint64_t allocated_bytes; /* their st_blocks * 512, summed */
	uint64_t written_bytes;	  /* the application's bytes written in the phase */
	int truncated;		  /* only the first STORED_MAX_FILES files were looked at */
	int reduced;		  /* allocated < STORED_RATIO of min(size, written) */
	char *reason;		  /* the warning, when reduced */
};
#define STORED_MAX_FILES 100000
#define STORED_RATIO 0.5
/* Judge s's figures (s->reduced, s->reason; reason must be NULL on entry,
 * owned by s): `data` is the --data pattern's text ("random", "zero"). */
void result_stored_judge(struct result_stored *s, const char *data);

/* OpenZFS's kstats over a phase (stats/zfsstat.h, docs/insight.md "The ZFS
 * view"): the ARC's and the ZIL's counters (the whole machine), and the
 * target's pool and dataset.  v[f] is field f's change over the phase
 * (the end's value for a gauge: the ARC's size and targets), known when
 * bit f of `have` is set: a field missing from either sample, or a
 * counter that went backwards (the module reloaded, the pool
 * re-imported), is unknown, never a difference of garbage.  Plain data. */
enum zfs_field {
	ZFS_ARC_HITS,
	ZFS_ARC_MISSES,
	ZFS_ARC_DD_HITS,
	ZFS_ARC_DD_MISSES,
	ZFS_ARC_DM_HITS,
	ZFS_ARC_DM_MISSES,
	ZFS_ARC_PD_HITS,
	ZFS_ARC_PD_MISSES,
	ZFS_ARC_SIZE_START, /* gauge: the ARC's size when the phase started */
	ZFS_ARC_SIZE,	    /* gauges at the end: size, target (c), c_max */
	ZFS_ARC_C,
	ZFS_ARC_C_MAX,
	ZFS_ZIL_COMMITS,
	ZFS_ZIL_COMMIT_WRITERS,
	ZFS_ZIL_ITXS,
	ZFS_ZIL_INDIRECT_BYTES,
	ZFS_ZIL_COPIED_BYTES,
	ZFS_ZIL_NEEDCOPY_BYTES,
	ZFS_ZIL_NORMAL_BYTES,
	ZFS_ZIL_SLOG_BYTES,
	ZFS_POOL_READS,
	ZFS_POOL_WRITES,
	ZFS_POOL_BYTES_READ,
	ZFS_POOL_BYTES_WRITTEN,
	ZFS_DS_READS,
	ZFS_DS_WRITES,
	ZFS_DS_BYTES_READ,
	ZFS_DS_BYTES_WRITTEN,
	ZFS__NFIELDS
};

struct result_zfs {
	int present;		  /* a kstat file was read at both ends */
	uint64_t have;		  /* bit f: v[f] is known */
	uint64_t v[ZFS__NFIELDS];
	char pool[256];		  /* the target's pool ("tank"), when its io kstat was read */
	char dataset[256];	  /* the target's dataset ("tank/fs"), when its objset was */
	char objset[32];	  /* that objset's kstat ("objset-0x36") */
};

/* One --interval sample of a phase. */
struct result_interval {
	unsigned repeat;  /* 0-based repeat this interval belongs to */
	double t;	  /* seconds since the phase started, at the interval's end */
	double seconds;	  /* length of the interval */
	int warmup;	  /* inside the warm-up: not part of the phase totals */
	uint64_t ops, bytes_read, bytes_written;
	double lat_sum_ns;
	uint64_t lat_count, p99_ns;
	size_t nops;	  /* per operation, in the phase's ops order */
	uint64_t *op_ops, *op_bytes, *op_p99_ns; /* op_bytes: read + written */
	int has_device;
	struct dev_io device;
};

/* One operation's figures in one run (for `repeats[].operations`). */
struct repeat_op {
	char *name;
	uint64_t ops;
	double ops_per_second, mb_per_second, cpu_us_per_op;
	double lat_mean_us, lat_p99_us; /* NAN without operations */
};

/* The headline figures of one run of a phase; `summary` in the JSON, and
 * one element of `repeats`. */
struct result_headline {
	double seconds;
	uint64_t ops, errors, bytes_read, bytes_written;
	double ops_per_second, read_ops_per_second, write_ops_per_second;
	double mb_per_second; /* MiB/s, as filebench's "mb/s" */
	double cpu_us_per_op, mean_latency_ms, p99_latency_us;
	/* device bytes written / application bytes written, device read
	 * requests / application read operations; NAN when not measured or
	 * the application did none */
	double write_amplification, read_amplification;
	int too_fast;
	/* per operation: filled for the elements of `repeats` only (owned by
	 * the phase) */
	size_t nper_op;
	struct repeat_op *per_op;
};

/* The figures --repeat summarises: name (the JSON key) and offset of the
 * double in struct result_headline.  Terminated by a NULL name. */
struct headline_field {
	const char *name;
	size_t offset;
};
extern const struct headline_field headline_fields[];

/* mean, sd, cv and the 95% t-based confidence interval of one figure over
 * the repeats (see summary.h); the lower bound is clamped at 0, as no
 * headline figure can be negative. */
struct repeat_stat {
	uint64_t n;
	double mean, sd, cv, ci95_low, ci95_high; /* low/high NAN when n < 2 */
};

/* Room for the requests per operation of engine/engine.h's enum io_op
 * (checked where they are copied). */
#define RESULT_IO_OPS 32

/* A figure a front end computes from a phase's operations (iozone's
 * "Children see throughput", ...), kept with the phase for JSON.  With
 * --repeat, result_merge_repeat() keeps every run's value in runs[] (in
 * run order; a run that did not reach the phase has none) and value is
 * their mean; result_metric_stat() gives their sd, cv and confidence
 * interval.  A single run has nruns 0. */
struct result_metric {
	char *name;  /* "children_throughput" */
	char *unit;  /* "KB/s" */
	double value;
	double *runs; /* owned by the phase */
	size_t nruns;
};

/* A suite's figure, declared once (its metrics table, an array ending
 * with a NULL name): compare and report take the unit, the label and
 * which way is better from it. */
enum metric_better { BETTER_NONE = 0, BETTER_HIGHER, BETTER_LOWER };
struct metric_def {
	const char *name, *unit, *label;
	enum metric_better better;
};

/* One execution of a replay flowop (one extracted or removed copy of a
 * tree: see docs/engine.md), as the thread that ran it measured it. */
struct result_exec {
	char *op;	  /* the replay flowop's name ("untar") */
	uint64_t index;	  /* execution number: the copy */
	int thread;	  /* worker index within the phase */
	double start;	  /* seconds from the start of the phase */
	double seconds;	  /* elapsed, first operation to last */
	uint64_t ops;	  /* operations done */
	uint64_t bytes;	  /* bytes written */
	uint64_t errors;
	int complete;	  /* every operation of the list done without error */
	unsigned repeat;  /* 0-based run (--repeat) it belongs to */
	int rank;	  /* the MPI rank that ran it (0 alone) */
};

/* One process of a phase as its workers ran it: from the start of the
 * measured window to the end of its last worker, and its workers' CPU in
 * the window.  Kept for the suite's after_run (bonnie's figures per
 * target, one process each); not written to the JSON, not folded over
 * repeats. */
struct result_proc {
	char *name;	  /* the process's name ("putc@2") */
	double seconds;
	uint64_t cpu_ns;  /* its workers' thread CPU (user + system) */
};

struct result_phase {
	char *name;
	double seconds;	     /* measured wall time of the phase */
	uint64_t cpu_user_ns; /* process CPU during the phase */
	uint64_t cpu_sys_ns;
	int nthreads;
	struct result_op *ops;
	size_t nops;
	const char *end_reason; /* "duration", "finish", "threads done", "signal",
				 * "error" (static string) */
	int too_fast;	     /* ran too briefly to measure reliably */
	char *too_fast_reason;
	/* warm-up excluded at the start (--warmup, --steady-state) */
	double warmup_seconds;
	int steady_state;    /* 0 not asked, 1 reached, -1 not reached */
	/* whole-system CPU, devices and cache over the measured window */
	int has_system_cpu;
	struct cpu_times system_cpu;
	struct result_device device;
	struct result_cache cache;
	/* several targets: each one's (struct result_target, in the order
	 * named); the phase's cache verdict is then theirs, each flagged
	 * target's named in its reasons.  0 with one target. */
	struct result_target *targets;
	size_t ntargets;
	struct result_threads threads;
	struct result_stored stored;
	struct result_zfs zfs; /* present 0 without ZFS kstats */
	/* --interval */
	double interval;
	struct result_interval *intervals;
	size_t nintervals;
	/* --repeat: one headline per run (empty for a single run) */
	struct result_headline *repeats;
	size_t nrepeats;
	/* What the phase's engine instances were asked: the union of the
	 * open flags (O_SYNC, O_DIRECT, ...) and requests per enum io_op
	 * (a short transfer continued counts again). */
	int open_flags;
	uint64_t io_requests[RESULT_IO_OPS];
	struct result_metric *metrics;
	size_t nmetrics;
	/* replay executions (untar copies), by op name then index; with
	 * --repeat, every run's, in run order */
	struct result_exec *execs;
	size_t nexecs;
	/* each process of the phase, in the order given (struct result_proc) */
	struct result_proc *procs;
	size_t nprocs;
};

/* Phases shorter than this, or with fewer operations, are reported as
 * "too fast to measure" instead of as numbers (bonnie's +++++). */
#define RESULT_MIN_SECONDS 0.5
#define RESULT_MIN_OPS 10

struct result_fileset {
	char *name;
	char *target;	    /* the target directory it lives in (as named);
			     * NULL for a block device */
	uint64_t entries;
	uint64_t preallocated;
	uint64_t bytes;	    /* bytes written while preallocating */
	uint64_t dirs;
	double mean_dirwidth;
	double depth;
	double seconds;
};

#define RESULT_IO_OPS 32

struct result {
	char *suite;	/* "run", "bonnie", "iozone", "untar" */
	char *workload; /* personality or file name */
	char *label;
	char *engine;
	uint64_t seed;
	struct kvlist params; /* full parameters: variables, options */
	struct kvlist env;    /* environment: kernel, cpu, fs type, ... */
	struct result_fileset *filesets;
	size_t nfilesets;
	struct result_phase *phases;
	size_t nphases;
	int interrupted;      /* stopped by a signal: partial results */
	int stopped_on_error; /* --on-error=stop fired */
	uint64_t errors;      /* total operation errors */
	char *first_error;    /* "write 'x/y': No space left on device" */
	uint64_t verify_errors; /* --verify: blocks read back wrong */
	/* Requests the engines were given, per operation (indexed by enum
	 * io_op of engine/engine.h; retries of short transfers count). */
	uint64_t io_requests[RESULT_IO_OPS];
	char *started_at;     /* ISO 8601 UTC */
	/* the command line as given (argv, argv[0] included), from
	 * result_set_command_line(); NULL/0 when none was recorded */
	char **command_line;
	size_t ncommand_line;
	/* what was run, told apart from a same-named workload that differs:
	 * result_hash() of the resolved workload text (run), or NULL, and
	 * then the JSON writer hashes the parameters (docs/json-format.md) */
	char *workload_hash;
	/* that resolved text ($dir as "<target>"), or NULL: compare shows the
	 * lines two results' workloads differ in beyond their parameters */
	char *workload_text;
	/* the suite's metrics table (result_set_metric_defs()): what its
	 * phases' metrics mean, for compare and report; strings owned */
	struct metric_def *metric_defs;
	size_t nmetric_defs;
	/* an MPI run (mpi/mpi.h), on rank 0: the ranks and hosts whose
	 * figures the phases merge (stats/ranks.h); NULL otherwise */
	struct result_ranks *ranks;
};

/*
 * The process's command line, recorded once by main() before any option
 * is parsed (getopt permutes argv); every later result_new() copies it
 * into its result, so a suite need not pass argv along.  The strings are
 * copied; a second call replaces the first.
 */
void result_set_command_line(int argc, char *const *argv);
/* XXH3-128 of data[0..len) as 32 lowercase hex digits (high 64 bits
 * first, as xxh128sum prints it).  The caller frees the string. */
char *result_hash(const void *data, size_t len);

struct result *result_new(const char *suite, const char *workload);
struct result_phase *result_add_phase(struct result *r, const char *name);
struct result_op *result_phase_add_op(struct result_phase *p, const char *name, const char *type,
				      enum op_class cls);
struct result_fileset *result_add_fileset(struct result *r, const char *name);
/* Add (or replace) a front end's figure; name and unit are copied. */
void result_phase_add_metric(struct result_phase *p, const char *name, const char *unit,
			     double value);
/* Record a suite's metrics table `defs` (an array ending with a NULL name;
 * NULL: none) in r: copies of every entry, replacing any recorded before. */
void result_set_metric_defs(struct result *r, const struct metric_def *defs);
/* Add a copy of definition d to r's metrics table. */
void result_add_metric_def(struct result *r, const struct metric_def *d);
/* The recorded definition of metric `name`, or NULL. */
const struct metric_def *result_metric_def(const struct result *r, const char *name);
/* The value of metric `name`, or `dflt` when the phase has none. */
double result_phase_metric(const struct result_phase *p, const char *name, double dflt);
void result_free(struct result *r);

/* Totals over a phase's operations. */
struct phase_totals {
	uint64_t ops, read_ops, write_ops, errors;
	uint64_t bytes_read, bytes_written;
	double lat_sum_ns; /* for the mean latency */
};
void result_phase_totals(const struct result_phase *p, struct phase_totals *t);
/* The headline figures of a phase (its whole measured window). */
void result_phase_headline(const struct result_phase *p, struct result_headline *h);
/* Set p->too_fast and its reason when the phase ran under
 * RESULT_MIN_SECONDS or did fewer than RESULT_MIN_OPS operations (but
 * some).  Keeps an existing verdict. */
void result_phase_judge(struct result_phase *p);
/* An operation with fewer than RESULT_MIN_OPS (but some) operations. */
int result_op_too_few(const struct result_op *o);
/* Statistics of headline field `f` over p's repeats. */
void result_repeat_stat(const struct result_phase *p, const struct headline_field *f,
			struct repeat_stat *out);
/* Statistics of metric `m` over its runs' values (n = 0 for a single
 * run); the lower bound is clamped at 0 when no run's value is negative. */
void result_metric_stat(const struct result_metric *m, struct repeat_stat *out);
/* The phase's metric `name`, or NULL. */
const struct result_metric *result_phase_find_metric(const struct result_phase *p,
						     const char *name);

struct result_interval *result_phase_add_interval(struct result_phase *p, size_t nops);

/*
 * --repeat: fold one complete run `one` into `acc`, phase by phase (by
 * name; new phases are appended).  Each phase's headline is appended to
 * its repeats; operations, times, CPU and device counters add up, so the
 * merged phase describes all runs together (its percentiles are those of
 * every operation of every run); intervals are kept, tagged with the
 * repeat number; the cache verdict is the first positive one; too_fast if
 * any run was.  Status (errors, interruption) accumulates.  Under mpirun
 * (one reduced over the ranks) the rank and host rows fold too
 * (result_ranks_merge_repeat(): every run's together, and each run's).
 * `one` is left empty of phases but must still be freed.
 */
void result_merge_repeat(struct result *acc, struct result *one);

#endif
