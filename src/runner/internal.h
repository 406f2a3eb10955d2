/*
 * internal.h — structures shared by the runner's own files (runner.c
 * drives threads and phases, flowop.c executes one flowop).  Not for use
 * outside src/runner/.
 */
#ifndef FSGAUGE_RUNNER_INTERNAL_H
#define FSGAUGE_RUNNER_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "engine/engine.h"
#include "runner/fileset.h"
#include "runner/offsets.h"
#include "runner/rate.h"
#include "runner/runner.h"
#include "stats/devices.h"
#include "workload/replay.h"

#define FD_SLOTS 64
#define AIO_DEPTH 64

/* Results of executing one flowop. */
enum flow_result {
	FR_OK = 0,
	FR_NORSC,  /* no suitable file right now: a stall */
	FR_ERROR,  /* an operation failed (already counted and reported) */
	FR_DONE,   /* the run's finish condition was met */
};

/* semblock/sempost and block/wakeup rendezvous, one per target name. */
struct sync_obj {
	char *name;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int64_t count;	   /* semaphore value */
	uint64_t wakeups;  /* block/wakeup generation */
};

/* A set of counters summed across threads by finishoncount/onbytes. */
struct counter_set {
	struct op_stats **v;
	size_t n;
};

/* bufsize=: a stdio-like user-space buffer on a descriptor slot. */
struct stdio_buf {
	char *buf;
	size_t size;
	size_t len;		/* bytes valid (reading) or waiting to be written */
	size_t pos;		/* read cursor */
	uint64_t off;		/* file offset of buf[0] */
	int dirty;		/* holds written data not yet flushed */
	/* --verify: the self-checking block the stream is writing, whose
	 * bytes putc and buffered writes hand out (vblk_off: its offset,
	 * UINT64_MAX when none is made yet) */
	unsigned char *vblk;
	uint64_t vblk_off;
};

enum { SLOT_HELD = 1, SLOT_OPEN = 2 };

struct fd_slot {
	int fd;			/* -1 when closed */
	struct rt_fileset *fs;
	int64_t idx;		/* entry of the open file; -1 when none */
	int held;		/* SLOT_HELD: we set FSE_BUSY on it; SLOT_OPEN: our open
				 * descriptor is counted on it; 0: neither (a single file) */
	uint64_t off;		/* sequential offset */
	struct rt_fileset *last_fs; /* the file last open here, for deletefile fd= */
	int64_t last_idx;
	uint64_t seq_rec, seq_pass; /* reverse= and stride= position */
	struct stdio_buf *sb;	/* bufsize=, putc, getc: the user-space buffer, or NULL */
	/* a chunked file: one descriptor per chunk file (cfds[0] == fd) */
	int *cfds;
	unsigned ncfds;		/* open in cfds; 0 when the file is not chunked */
	unsigned cfds_cap;
};

/* A pass in the order the fileset's leaf directories list their files:
 * the directory being read and what getdents() last returned.  One
 * reader at a time (mu, unless one worker uses the fileset); the
 * directory is read as the pass reaches it,
 * as readdir() does. */
struct dir_pass {
	pthread_mutex_t mu;
	uint64_t leaf;	   /* the leaf directory being read */
	int fd;		   /* open on it, or -1 */
	int done;	   /* every leaf read (or the pass stopped) */
	unsigned pos, len; /* buf[pos..len): entries not yet taken */
	char buf[32768] __attribute__((aligned(8)));
};

/* One pass of an `ordered` flowop over its fileset in a phase: shared by
 * every thread running the flowop, so that together they visit each entry
 * once. */
struct ordered_pass {
	const struct wl_flowop *fo;
	uint64_t next;	/* atomic: the next position of the pass */
	uint64_t key;	/* shuffled passes: the permutation's key */
	int shuffle;
	struct dir_pass *dir; /* `readdir` passes (NULL: index order or shuffled) */
};

/* What a request's cookie (io_req.user) points to: an aio_slot or a
 * depth_slot, told apart by their first member. */
enum { INFLIGHT_AIO = 0, INFLIGHT_DEPTH = 1 };

struct aio_slot {
	int kind;		/* INFLIGHT_AIO (zeroed) */
	struct io_req req;
	void *buf;
	int busy;
	struct op_stats *st;	/* the aiowrite flowop's stats */
	struct wflow *f;	/* the aiowrite flowop */
	struct rt_fileset *fs;	/* the file written, for messages */
	int64_t idx;
	uint64_t t0;
};

/* rotate= (fio's nrfiles with file_service_type): a read/write flowop's
 * requests go round the entries of its fileset, each with its own
 * position, through at most nslot descriptors (entry i in slot i % nslot;
 * one there for another entry is closed first, untimed, as the open). */
struct rot_file {
	uint64_t off;			 /* sequential position */
	uint64_t map_n, map_pos, map_key; /* randommap's pass (offsets.h) */
	int opened;			 /* opened before (invalidate= syncs the first time) */
};

struct rot_state {
	struct fd_slot *slot;
	unsigned nslot;
	struct rot_file *file;
	uint64_t n;		/* the fileset's entries */
	uint64_t cur;		/* the entry of the last request */
	uint64_t left;		/* requests before the next switch */
	uint64_t every;		/* rotate=: requests per turn, >= 1 */
	int random;		/* rotate_random: the next entry drawn at random */
	int started;
};

struct rot_state *rot_new(const struct wl_flowop *fo, uint64_t n);
void rot_free(struct rot_state *r);

/* iodepth= above 1 on an asynchronous engine: one request of the
 * flowop's queue, with a buffer of its own. */
struct depth_slot {
	int kind;		/* INFLIGHT_DEPTH */
	unsigned i;		/* its index in depth_q.slot */
	struct io_req req;
	void *buf;
	size_t cap;		/* bytes buf holds */
	/* fixedbufs: 1 + the slot of the engine's table its buffer is put
	 * in when it is (re)allocated; 0: none (io_req.buf_index) */
	unsigned buf_index;
	uint64_t t0;		/* op_clock() as it was issued (before it was queued) */
	uint64_t ts;		/* op_clock() as the call that submitted it returned */
	struct wflow *f;
	struct rt_fileset *fs;	/* the file, for messages and its size */
	int64_t idx;
};

/* A read or write flowop's requests in flight (flowop.c, depth_pass). */
struct depth_q {
	unsigned nslot;		/* iodepth=: the slots */
	unsigned depth;		/* in flight at most: nslot, or fewer when the engine
				 * took fewer (depth_submit) */
	unsigned inflight;
	unsigned nfree;		/* idle slots, their indices in free[] */
	unsigned *free;
	struct depth_slot *slot;
	int failed;		/* a completion failed since the pass began */
	unsigned batch;		/* iodepth_batch=: push this many at once (1: submit each) */
	unsigned nqueued;	/* queued with engine_queue(), not yet flushed */
	unsigned *queued;	/* their slot indices */
};

/* CPU time per operation is sampled: reading the thread's CPU clock is a
 * system call, about as costly as a cached 4 KiB read (docs/engine.md).
 * Each operation of a flowop is sampled with a probability p fixed before
 * it starts: 1 for the first, then, after each sample, 1/K with K the
 * number of the flowop's mean operations (mean so far) that fit in
 * CPU_SAMPLE_GAP_NS, at least 1.  The next sample is a geometric draw
 * (cpu_rng) of that p away, so every later operation has the same chance
 * whatever the latency of those around it; a sample counts K times (its
 * 1/p) in the CPU sum and, beside it, its latency K times in cpu_lat_ns,
 * and us/op-cpu is their ratio times the mean latency (result.h): an
 * unbiased estimate, which cannot exceed the latency of the operations of
 * one synchronous thread.  The clock reads take about 0.5% of the time
 * spent in the flowop's operations; a flowop slower than the gap is
 * sampled at every operation. */
#define CPU_SAMPLE_GAP_NS 500000

/* The per-operation path touches the fields before `st` and the head of
 * `st` (counters and histogram summary): they come first, so that they
 * share memory pages; st's histogram buckets alone span about 75 KiB.
 * Each starts on a page (aligned; the arrays of them are allocated with
 * xcalloc_aligned), so that this head is one page, not two. */
struct wflow {
	const struct wl_flowop *fo;
	enum flowop_type type;	/* fo->type */
	struct rt_fileset *fs;
	struct fd_slot priv;	/* private descriptor for read/write without fd= */
	/* attributes read once (flow_init_attrs): the hot path does not
	 * resolve them per operation */
	int reverse, stonewall;
	uint64_t stride, bufsize;
	uint64_t base;		/* offset=: where the working set starts */
	int64_t iters;		/* iters=, >= 1; 0: a random variable, drawn per call */
	int64_t iosize;		/* iosize=, >= 1; 0: a random variable, drawn per operation */
	int64_t wss;		/* wss=, constant; -1: a random variable */
	int random;		/* random= */
	/* random_distribution=, percentage_random=, randommap (offsets.h);
	 * NULL: uniform random offsets with repeats */
	struct rw_offsets *ofs;
	/* rate_iops=, rate=: the open-loop schedule (rate.h); NULL: closed loop */
	struct rw_rate *rate;
	/* rotate=: the entries it goes round (NULL: one file, priv or fd=) */
	struct rot_state *rot;
	int fd_slot;		/* uses a numbered descriptor slot (fd=, or no fileset) */
	int fd_given;		/* fd= is set (read at binding, not per operation) */
	int indexed;		/* indexed= is set (idem) */
	int fd_index;		/* which: fd= (0 when unset or out of range) */
	/* fsync or closefile with neither fd= nor a file: the private
	 * descriptor it acts on (worker setup), or NULL for slot fd_index */
	struct fd_slot *slot;
	int oflags;		/* open flags from directio=/dsync=/osync=/--direct */
	int dirsync;		/* dirsync=: fsync the file's directory too */
	unsigned iodepth;	/* iodepth=, >= 1 */
	unsigned iodepth_batch;	/* iodepth_batch=, 1 to iodepth */
	unsigned reap_min;	/* reap_min=: completions waited for when full, >= 1 */
	unsigned reap_max;	/* reap_max=: at most this many at once; 0: no bound */
	int invalidate;		/* invalidate=: drop the file's cache after each open */
	int advice;		/* fadvise=: POSIX_FADV_* + 1 after each open; 0: none */
	struct depth_q *dq;	/* iodepth > 1 on an ENGINE_ASYNC engine, else NULL */
	/* iobytes= (and the other per-operation extras of read and write):
	 * flow_after() runs after each operation */
	int after;
	uint64_t iobytes;	/* iobytes=: the thread is done once issued reaches it; 0: none */
	uint64_t issued;	/* bytes of the requests issued so far */
	/* fsync=N linked (syncer, below): due before the next request (fio's
	 * rule, flowop.c, sync_note); read by every request, so here */
	int sync_pending;
	unsigned readpct;	/* rwmix: readpct=, 0 to 100 */
	/* thinktime=: a pause of think_ns (the first think_spin_ns of it
	 * spent spinning) after every think_blocks requests; think_n counts
	 * the requests since the last pause */
	uint64_t think_ns, think_spin_ns;
	uint64_t think_blocks, think_n;
	/* a write flowop with trim=: discards instead of writing (do_range) */
	int trim;
	/* a write flowop with trimwrite=: each request's range discarded,
	 * then written (do_trimwrite), counted in its children: [0] the
	 * discards ("NAME.trim"), [1] the writes ("NAME.write") */
	int trimwrite;
	/* a read flowop with readback=: under --verify, reads back the
	 * blocks of its fileset's written map (do_readback), from entry
	 * rb_entry, block rb_block on (rb_started: set to the working
	 * set's first block) */
	int readback, rb_started;
	uint64_t rb_entry, rb_block;
	/* fallocate=, truncate=: the range operation instead of the
	 * transfer (do_range); falloc_mode: fallocate's mode */
	int falloc, truncate, falloc_mode;
	/* a delay flowop with spin=: on the CPU instead of asleep */
	int spin;
	/* the descriptors of the children that count an rwmix's or a
	 * trimwrite write's operations apart (runner.c, wflow_acct_init) */
	struct wl_flowop *acct_fo;
	size_t nacct_fo;
	/* CPU sampling: operations until the next sample (1: the next one),
	 * and the weight (1/p) the next sample counts with */
	uint64_t cpu_left, cpu_weight;
	struct op_stats st;
	struct wflow *children; /* FO_COMPOSITE */
	size_t nchildren;
	struct sync_obj *sync;	/* semblock/block: own; sempost/wakeup: target's */
	struct counter_set *counters; /* finishoncount/finishonbytes */
	uint64_t last_mark;	/* iopslimit/opslimit/bwlimit: count at last call */
	/* iopslimit/opslimit/bwlimit with target=: the counters of the
	 * flowop of that name in this thread (worker setup); NULL: the
	 * thread's own totals */
	const struct op_stats *limit_st;
	double trv_sum, trv_sumsq; /* testrandvar */
	size_t result_idx;	/* where it merges in the result phase */
	struct ordered_pass *pass; /* ordered=: the phase's pass over the fileset */
	/* the entries at positions ahead_k - 1 and ahead_k of the pass
	 * (ahead_k 0: none yet), worked out and prefetched early (pass_entry) */
	uint64_t ahead_k, ahead_i[2];
	uint64_t nexec;		/* rewrite: operations so far (value=N writes back every N-th) */
	/* a write flowop that fsyncs with target= sync (runner.c,
	 * bind_sync_targets): the one every N writes and the one at the end
	 * (either NULL; both may be the same flow), the writes issued so far
	 * and the descriptor of the last one (for the sync at the end).
	 * sync_pass: on a synchronous engine with iobytes=, the sync due
	 * (sync_pending, above) comes twice when the request after it starts
	 * a new pass over its file (fio closes and reopens its files there) */
	struct wflow *syncer, *end_syncer;
	uint64_t nwrites;
	struct fd_slot *sync_slot;
	int sync_pass;
	/* that fsync flow: it runs only from its write (never in the loop),
	 * before the request after every `sync_every`th write (0: never) and
	 * at the end (`sync_atend`) */
	int sync_linked, sync_atend, sync_datasync;
	uint64_t sync_every;
	/* FO_REPLAY: the child counting each kind of operation, and this
	 * thread's executions (op names filled in when merged) */
	unsigned char replay_child[RPK__COUNT];
	struct result_exec *execs;
	size_t nexecs;
	uint64_t execs_ended; /* nexecs, atomic: the progress line reads it live */
	/* several targets: the one whose files its operations touch, or -1
	 * (none, or several: runner.c, bind_flow_targets) */
	int target;
} __attribute__((aligned(4096)));

struct runner;

/* Stripes of the --verify rewrite locks, and the region each covers. */
#define RUNNER_VLOCKS      64
#define RUNNER_VLOCK_SHIFT 16

/* The per-operation path reads the fields up to `fds`: they come first, in
 * as few memory pages as possible; path buffers and aio slots follow.  A
 * worker starts on a page of its own (aligned, rn->workers allocated with
 * xcalloc_aligned): those fields and the first descriptor slots are one
 * page, where a worker straddling two would cost a second TLB miss after
 * every system call (docs/engine.md). */
struct worker {
	struct runner *rn;
	struct wflow *flows;
	size_t nflows;
	struct engine *eng;
	struct rng rng;
	void *buf;
	size_t bufsz;
	int verify;		/* --verify (the run's option, read once) */
	int done;
	uint64_t cpu_clock_ns;	/* what reading the thread CPU clock adds to a sample */
	struct rng cpu_rng;	/* the CPU sampling draws (a stream apart from the workload's) */
	uint64_t io_ops, all_ops, io_bytes; /* for the *limit flowops */
	uint64_t verify_errors;	/* --verify: bad blocks read */
	uint64_t generation;	/* --verify: writes stamped so far */
	unsigned id;
	const struct wl_process *pd;
	const struct wl_thread *td;
	unsigned pinst, tinst;
	struct fd_slot fds[FD_SLOTS];
	struct aio_slot aio[AIO_DEPTH];
	unsigned aio_inflight;
	unsigned depth_inflight; /* requests of every depth_q in flight */
	char path[4096], path2[4096];
	unsigned char_sink;	/* getc: consumes the characters read */
	int init_err;
	pthread_t tid;
	int started;		/* tid is a thread that was created */
	/* the measured window (measure.c): the thread's CPU clock and
	 * now_ns() when it began (win_ok: read), and when the worker ended
	 * (ended: atomic, set by the worker last) */
	int win_ok, ended;
	uint64_t win_cpu0_ns, win_t0_ns, cpu_end_ns, t_end_ns;
	/* ... and its run-queue wait (schedstat: sched_ok when read at the
	 * window's start, sched_end_ok at the thread's end) */
	int sched_ok, sched_end_ok;
	uint64_t win_runq0_ns, runq_end_ns;
	/* ... and its context switches, voluntary and not (csw_ok,
	 * csw_end_ok: read at the window's start and at the thread's end) */
	int csw_ok, csw_end_ok;
	uint64_t win_vcsw0, win_ivcsw0, vcsw_end, ivcsw_end;
	/* ... and its page faults, minor and major (the same way) */
	int flt_ok, flt_end_ok;
	uint64_t win_minflt0, win_majflt0, minflt_end, majflt_end;
	/* the window starts as the gate opens: the worker reads its own
	 * clocks then (measure.c sets it before the gate opens) */
	int win_self;
	int ktid;		/* its kernel thread id (atomic: set as it starts) */
	/* asleep for the eventgen within the measured window */
	uint64_t rate_wait_ns;
	int advise_warned;	/* a posix_fadvise failure was reported (slot_advise) */
} __attribute__((aligned(4096)));

struct runner_target {
	char fstype[64];
	uint64_t devmask;
	char none[256]; /* no device under it: why */
};

struct runner {
	struct workload *w;
	const struct run_opts *o;
	struct rundir *rd;	/* the first target's run directory (rds[0]) */
	struct rundir *rds;	/* one per target (runner_new()) */
	size_t nrd;
	struct result *res;
	int dirfd;		/* rd's; a fileset's own is fs->rootfd */
	struct rt_fileset *fs;
	size_t nfs;
	struct worker *workers;
	size_t nworkers;
	volatile int stop;
	int finished;	      /* a finish condition was met */
	uint64_t start_ns;
	/* atomic: now_ns() when the phase's measured window began
	 * (UINT64_MAX during a warm-up); the open-loop schedules (rate.c)
	 * record only the requests due from then on */
	uint64_t window_ns;
	pthread_mutex_t err_mu;
	/* --verify: rewrites of a file shared by several threads lock the
	 * stripes of the regions they touch, so that a read never sees
	 * another thread's write-back half done (runner_vlock()) */
	pthread_mutex_t vlock[RUNNER_VLOCKS];
	char *first_error;
	unsigned long long verify_reported; /* verify errors seen (under err_mu) */
	int stopped_on_error;
	double event_rate;    /* eventgen rate (events/s); 0 = none */
	uint64_t events_used; /* atomic */
	struct sync_obj *syncs;
	size_t nsyncs;
	struct counter_set *csets;
	size_t ncsets;
	struct ordered_pass *passes; /* this phase's ordered passes */
	size_t npasses;
	uint64_t nphases;	/* phases started, to key shuffled passes */
	unsigned ndone;	      /* atomic: workers finished */
	pthread_mutex_t gate_mu; /* start gate: workers wait until go */
	pthread_cond_t gate_cv;
	int go;
	/* the phase's operation names, in result order (wflow.result_idx) */
	const struct wl_flowop **opdefs;
	size_t nopdefs;
	/* what lies under the run directory (found once) */
	struct devices devs;
	char fstype[64];
	/* several targets (nrd > 1): per run directory, its file system and
	 * which of devs are under it (bit i: devs.dev[i]) */
	struct runner_target *tgs;
	char zfs_dataset[512]; /* the target's dataset on ZFS ("tank/fs"), else "" */
	int stonewalled;      /* atomic: a `stonewall` flowop ran in this phase */
	uint64_t stonewall_ns; /* atomic: when the first did (0: none here) */
	int wall_told;	      /* the stonewall is known to the other clients */
	int peer_stopped;     /* another client (runner_sync) stopped this phase */
	uint64_t all_done_ns; /* atomic: when the last worker of the phase ended */
};

/* Visit every wflow of every worker (children included). */
/* The flowops that move data a request at a time (iodepth= and the
 * other block attributes apply): read, write, rwmix. */
static inline int runner_block_flowop(enum flowop_type t)
{
	return t == FO_READ || t == FO_WRITE || t == FO_RWMIX;
}

/* Does a flowop (its bufsize=, random=, and whether it is a range
 * operation: trim=, fallocate=, truncate=) count its operations as
 * requests submitted and reaped, with their submission and completion
 * latencies (struct op_split), on an asynchronous engine?  A read or a
 * write that transfers data through do_rw()'s path: not a buffered
 * sequential one (bufsize= without random: do_buffered) nor a range
 * operation (do_range), nor an rwmix, whose rows (its two children) are
 * reads and writes and count its requests. */
static inline int flow_splits(const struct wl_flowop *fo, uint64_t bufsize, int random,
			      int range)
{
	return (fo->type == FO_READ || fo->type == FO_WRITE) && !range && !(bufsize && !random);
}

typedef void (*wflow_fn)(struct runner *rn, struct worker *wk, struct wflow *f, void *arg);
void runner_visit_flows(struct runner *rn, wflow_fn fn, void *arg);
enum op_class runner_flow_class(const struct wl_flowop *fo);

/* measure.c: the measured window of one phase (see runner_phase()). */
struct measure;
/* (o: the phase's measurement options, the run's or runner_phase_flags()'s
 * change of them; it outlives the measure) */
struct measure *measure_new(struct runner *rn, const struct run_opts *o, const char *name,
			    double duration);
/* Workers are about to start: sample the start of the phase. */
void measure_start(struct measure *m);
/* From the control loop, often: warm-up end, interval samples, progress. */
void measure_tick(struct measure *m);
/* When the phase should end (moves when the warm-up ends). */
uint64_t measure_end_ns(const struct measure *m);
/* Workers joined at t_stop and merged into ph (ops in opdefs order):
 * subtract the warm-up, close the last interval, device/CPU deltas,
 * cache and too-fast verdicts. */
void measure_finish(struct measure *m, struct result_phase *ph, uint64_t t_stop);
void measure_free(struct measure *m);
/* From a worker: its clocks at the start of the window (when the window
 * opens with the start gate: win_self) and at its end. */
void measure_thread_start(struct worker *wk);
void measure_thread_end(struct worker *wk);

/* flowop.c */
/* Read the attributes a wflow caches (reverse, stride, bufsize, open
 * flags, ...); `direct` is --direct. */
void flow_init_attrs(struct wflow *f, int direct);
/* Run one flowop `iters` times (a composite's children). */
enum flow_result flow_exec(struct worker *wk, struct wflow *f);
/* A worker thread's work: its flowops in order, over and over, until the
 * phase stops or the thread is done (wk->done). */
void worker_run(struct worker *wk);
void worker_close_all(struct worker *wk);
/* Wait for every asynchronous request in flight (aiowrite's and those
 * of iodepth= flowops), reporting failures. */
void worker_drain_aio(struct worker *wk);
/* Free what the worker's descriptor slots keep (chunk descriptor arrays);
 * after worker_close_all(). */
void worker_free_slots(struct worker *wk);
/* Report an operation error: counts it, prints the first one, and stops
 * the run under --on-error=stop. */
/* iodepth=: set up (0 or -ENOMEM) and free a flowop's queue. */
int depth_q_init(struct wflow *f);
void depth_q_free(struct wflow *f);
void runner_op_error(struct worker *wk, struct wflow *f, const char *op, const char *path,
		     int neg_errno) COLD;

/* Report a block that failed verification (counted; the first few
 * printed; stops the run under --on-error=stop). */
struct verify_mismatch;
/* path: the file as named to the user; off: the offset in it.  chunked:
 * path is a chunk file, off its offset, m->offset the whole file's (both
 * are printed). */
void runner_verify_error(struct worker *wk, struct wflow *f, const char *path, uint64_t off,
			 int chunked, const struct verify_mismatch *m) COLD;

static inline int runner_stopping(const struct runner *rn)
{
	return __atomic_load_n(&rn->stop, __ATOMIC_RELAXED) || runner_signalled();
}

#endif
