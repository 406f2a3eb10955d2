/*
 * flowop.c — executing one flowop, with filebench's semantics:
 *
 *  - openfile/createfile/deletefile/statfile/renamefile pick a file from
 *    the fileset and hold it exclusively while they use it; an open file
 *    is not held but counted, and shared when no other file is free
 *    (held until closed under --verify); an fsync or closefile with
 *    neither fd= nor a file acts on the descriptor of the fd-less
 *    flowop before it (runner.c, bind_fdless_syncs);
 *  - read/write use the descriptor in slot fd= when given, otherwise a
 *    private descriptor opened on first use; random offsets are aligned
 *    to iosize within the working set (wss= or the file's size);
 *    sequential offsets advance and wrap at the end of the working set;
 *  - when no suitable file exists the flowop reports FR_NORSC and the
 *    worker waits and retries (a "stall"), never failing the run;
 *  - ordered= flowops take entries in one pass per phase (index order,
 *    shuffled with random, or with readdir the order the fileset's
 *    directories list them); a chunked file (chunksize=) is one logical
 *    file stored in several, every offset mapped to its chunk file;
 *  - putc/getc move iosize characters one at a time through the slot's
 *    user buffer (the one bufsize= uses), written or read through the
 *    engine when full or empty: one timed operation per call, so that the
 *    clock is read twice per iosize characters, not per character.
 *
 * The runner times around every engine call (op_clock before and after:
 * util/clock.h);
 * picking a file, stamping data and choosing an offset happen outside
 * that window (an open's window also covers building the file's path,
 * in slot_open_fds).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/internal.h"
#include "runner/verify.h"
#include "util/clock.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"

struct timing {
	uint64_t t0, c0;
	int cpu;
};

static ALWAYS_INLINE void op_begin(struct wflow *f, struct timing *t)
{
	t->cpu = f->cpu_left <= 1;
	/* c0 is set either way: gcc cannot always see that op_end reads it
	 * only when t->cpu is set */
	t->c0 = t->cpu ? thread_cpu_ns() : 0;
	t->t0 = op_clock();
}

/* One operation into the flowop's statistics (opened by STAT_BEGIN) and
 * the worker's totals. */
static ALWAYS_INLINE void op_count(struct worker *wk, struct op_stats *st, uint64_t lat,
				   uint64_t rbytes, uint64_t wbytes, uint64_t tbytes)
{
	/* single writer; finishoncount and the sampler read them (result.h) */
	STAT_ADD_R(st->bytes_read, rbytes);
	STAT_ADD_R(st->bytes_written, wbytes);
	if (tbytes) /* a constant 0 but in do_range(): no store on the others */
		STAT_ADD_R(st->bytes_trimmed, tbytes);
	STAT_ADD_R(st->ops, 1);
	STAT_COMMIT(st);
	hist_add(&st->lat, lat);
	wk->all_ops++;
	if (rbytes || wbytes || tbytes) {
		wk->io_ops++;
		wk->io_bytes += rbytes + wbytes + tbytes;
	}
}

/* After a CPU sample: the weight of the next one (K, the flowop's mean
 * operations in CPU_SAMPLE_GAP_NS) and how far away it is, a geometric
 * draw with p = 1/K (internal.h). */
HOT static void cpu_sample_next(struct worker *wk, struct wflow *f)
{
	double mean = hist_mean(&f->st.lat), k, u, gap;

	k = mean > 0 ? floor((double)CPU_SAMPLE_GAP_NS / mean) : (double)CPU_SAMPLE_GAP_NS;
	k = MAX(1.0, MIN(k, (double)CPU_SAMPLE_GAP_NS));
	f->cpu_weight = (uint64_t)k;
	if (f->cpu_weight == 1) {
		f->cpu_left = 1;
		return;
	}
	u = 1.0 - rng_double(&wk->cpu_rng); /* (0, 1] */
	gap = 1.0 + floor(log(u) / log1p(-1.0 / k));
	f->cpu_left = gap < 1e12 ? (uint64_t)gap : (uint64_t)1e12;
}

/* The end of an operation op_begin() began, `lat` ns long. */
static ALWAYS_INLINE void op_end_lat(struct worker *wk, struct wflow *f, struct timing *t,
				     uint64_t lat, uint64_t rbytes, uint64_t wbytes,
				     uint64_t tbytes)
{
	struct op_stats *st = &f->st;

	STAT_BEGIN(st);
	if (t->cpu) {
		/* less what the two clock reads themselves put between them
		 * (measured per thread: cpu_clock_cost in runner.c); a thread
		 * uses no more CPU than the wall time it was timed for */
		uint64_t c = thread_cpu_ns() - t->c0;

		c = c > wk->cpu_clock_ns ? c - wk->cpu_clock_ns : 0;
		STAT_ADD_R(st->cpu_ns, MIN(c, lat) * f->cpu_weight);
		STAT_ADD_R(st->cpu_lat_ns, lat * f->cpu_weight);
		STAT_ADD_R(st->cpu_samples, 1);
	} else {
		f->cpu_left--;
	}
	op_count(wk, st, lat, rbytes, wbytes, tbytes);
	if (t->cpu)
		cpu_sample_next(wk, f);
}

static ALWAYS_INLINE void op_end3(struct worker *wk, struct wflow *f, struct timing *t,
				   uint64_t rbytes, uint64_t wbytes, uint64_t tbytes)
{
	op_end_lat(wk, f, t, op_clock_ns(op_clock() - t->t0), rbytes, wbytes, tbytes);
}

/* An asynchronous request's submission and completion latencies, beside
 * the latency op_count() counted (st->split: stats/result.h). */
static ALWAYS_INLINE void split_add(struct op_stats *st, uint64_t slat, uint64_t clat)
{
	hist_add(&st->split->slat, slat);
	hist_add(&st->split->clat, clat);
}

/* op_end3() of an operation that discards nothing: every one but a trim. */
static ALWAYS_INLINE void op_end(struct worker *wk, struct wflow *f, struct timing *t, uint64_t rbytes,
			  uint64_t wbytes)
{
	op_end3(wk, f, t, rbytes, wbytes, 0);
}

void runner_op_error(struct worker *wk, struct wflow *f, const char *op, const char *path,
		     int neg_errno)
{
	struct runner *rn = wk->rn;

	/* an operation the user's signal cut short (the engines no longer
	 * retry EINTR then) is the stop, not an error */
	if (neg_errno == -EINTR && runner_stopping(rn))
		return;
	if (f)
		STAT_ADD(f->st.errors, 1);
	pthread_mutex_lock(&rn->err_mu);
	if (!rn->first_error) {
		rn->first_error = xasprintf("%s%s%s%s: %s", op, path ? " '" : "", path ? path : "",
					    path ? "'" : "", strerror(-neg_errno));
		msg_err("flowop '%s': %s", f ? f->fo->name : "?", rn->first_error);
	}
	if (rn->o->on_error == ON_ERROR_STOP) {
		__atomic_store_n(&rn->stopped_on_error, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&rn->err_mu);
}

#define VERIFY_PRINT_MAX 10

void runner_verify_error(struct worker *wk, struct wflow *f, const char *path, uint64_t off,
			 int chunked, const struct verify_mismatch *m)
{
	struct runner *rn = wk->rn;
	char what[256], whole[64] = "";
	unsigned long long n;

	wk->verify_errors++;
	verify_describe(m, what, sizeof(what));
	if (chunked)
		snprintf(whole, sizeof(whole), " (%llu in the chunked file)",
			 (unsigned long long)m->offset);
	pthread_mutex_lock(&rn->err_mu);
	n = ++rn->verify_reported;
	if (!rn->first_error)
		rn->first_error = xasprintf("verify '%s' at offset %llu%s: %s", path ? path : "?",
					    (unsigned long long)off, whole, what);
	if (n <= VERIFY_PRINT_MAX)
		msg_err("verify error: '%s' at offset %llu%s: %s", path ? path : "?",
			(unsigned long long)off, whole, what);
	if (n == VERIFY_PRINT_MAX)
		msg_err("further verify errors are counted, not printed");
	if (rn->o->on_error == ON_ERROR_STOP) {
		__atomic_store_n(&rn->stopped_on_error, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&rn->err_mu);
}

HOT static const char *entry_path(struct worker *wk, struct rt_fileset *fs, int64_t idx, char *buf)
{
	if (fs->chunk) { /* a chunked file, for messages: its chunk files */
		if (fs->nchunks > 1)
			snprintf(buf, sizeof(wk->path), "%s.{000..%03u}", fs->relpath, fs->nchunks - 1);
		else
			snprintf(buf, sizeof(wk->path), "%s.000", fs->relpath);
		return buf;
	}
	if (fileset_entry_path(fs, (uint64_t)idx, buf, sizeof(wk->path)) < 0)
		snprintf(buf, sizeof(wk->path), "%s/?", fs->relpath);
	return buf;
}

static int ensure_buf(struct worker *wk, size_t len)
{
	void *nb;

	if (len <= wk->bufsz)
		return 0;
	if (posix_memalign(&nb, 4096, len))
		return -ENOMEM;
	data_fill(&wk->rn->o->data, &wk->rng, nb, len);
	free(wk->buf);
	wk->buf = nb;
	wk->bufsz = len;
	return 0;
}

static int open_flags(const struct wflow *f, const struct rt_fileset *fs)
{
	return (fs && fs->readonly ? O_RDONLY : O_RDWR) | f->oflags;
}

HOT static void slot_release(struct fd_slot *s, int exists)
{
	if (s->sb) {
		free(s->sb->buf);
		free(s->sb->vblk);
		free(s->sb);
		s->sb = NULL;
	}
	s->seq_rec = s->seq_pass = 0;
	if (s->fs) {
		s->last_fs = s->fs;
		s->last_idx = s->idx;
	}
	if (s->held == SLOT_HELD && s->fs)
		fileset_release(s->fs, (uint64_t)s->idx, exists);
	else if (s->held == SLOT_OPEN && s->fs)
		fileset_close(s->fs, (uint64_t)s->idx);
	s->held = 0;
	s->fd = -1;
	s->fs = NULL;
	s->idx = -1;
	s->off = 0;
	s->ncfds = 0;
}

/* The entry at position k of f's ordered pass.  In a shuffled pass over a
 * big fileset each entry is a cache miss (index order is a walk the CPU
 * prefetches by itself); the entries at k + 1 and k + 2, likely this
 * worker's next (other workers of the pass may take them), are worked out
 * now and the one two steps ahead prefetched, so that the system calls in
 * between hide the miss (a claim touches only the entry).  Only hints:
 * what is claimed is decided by fileset_claim(). */
static ALWAYS_INLINE uint64_t pass_entry(struct wflow *f, struct rt_fileset *fs, uint64_t k)
{
	struct ordered_pass *op = f->pass;
	uint64_t i, n = fs->n;

	if (!op->shuffle)
		return k;
	if (f->ahead_k == k + 1) {
		i = f->ahead_i[0];
		f->ahead_i[0] = f->ahead_i[1];
	} else {
		i = rand_permute(k, n, op->key);
		f->ahead_i[0] = k + 1 < n ? rand_permute(k + 1, n, op->key) : 0;
	}
	f->ahead_k = k + 2;
	if (k + 2 < n) {
		f->ahead_i[1] = rand_permute(k + 2, n, op->key);
		__builtin_prefetch(&fs->e[f->ahead_i[1]]);
	}
	return i;
}

/* Report a failed system call of a readdir pass, naming the leaf
 * directory by its path under the run directory. */
static void dir_pass_error(struct worker *wk, struct wflow *f, struct rt_fileset *fs,
			   const char *op, const char *leaf, int64_t err)
{
	char path[PATH_MAX];

	if (strcmp(leaf, "."))
		snprintf(path, sizeof(path), "%s/%s", fs->relpath, leaf);
	else
		snprintf(path, sizeof(path), "%s", fs->relpath);
	runner_op_error(wk, f, op, path, (int)err);
}

/* The next entry of a readdir pass that is in the wanted state, claimed:
 * the names the fileset's leaf directories list, leaf after leaf, each
 * directory opened and read (getdents, 32 KiB at a time) when the pass
 * reaches it, as readdir() does, so that its reading is part of the pass;
 * a name that is not one of the fileset's entries is skipped.  -1 after
 * the last; a failure to open or read a directory is the flowop's error,
 * and the pass goes on with the next directory unless the run stops. */
static int64_t dir_pass_next(struct worker *wk, struct wflow *f, struct rt_fileset *fs,
			     struct dir_pass *d, enum pick_want want)
{
	char leaf[PATH_MAX];
	int64_t i = -1, r;

	/* (a fileset one worker uses has one user of its passes: no lock) */
	if (fs->nusers != 1)
		pthread_mutex_lock(&d->mu);
	while (!d->done) {
		if (d->pos < d->len) {
			const struct dirent64 *de = (const void *)(d->buf + d->pos);

			d->pos += de->d_reclen;
			i = fileset_entry_of_name(fs, d->leaf, de->d_name);
			if (i >= 0 && fileset_claim(fs, (uint64_t)i, want))
				break;
			i = -1;
			continue;
		}
		if (d->leaf >= fileset_nleaves(fs) || runner_stopping(wk->rn)) {
			d->done = 1;
			break;
		}
		/* (at most 64 levels of "d<index>/": always fits) */
		fileset_leaf_path(fs, d->leaf, leaf, sizeof(leaf));
		if (d->fd < 0) {
			struct io_req q = { .op = IO_OPEN, .dirfd = fs->dirfd, .path = leaf,
					    .flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC };

			r = engine_exec_full(wk->eng, &q);
			if (r < 0) {
				dir_pass_error(wk, f, fs, "open", leaf, r);
				d->leaf++;
				continue;
			}
			d->fd = (int)r;
		}
		struct io_req q = { .op = IO_GETDENTS, .fd = d->fd, .buf = d->buf,
				    .len = sizeof(d->buf) };

		r = engine_exec_full(wk->eng, &q);
		if (r > 0) {
			d->pos = 0;
			d->len = (unsigned)r;
			continue;
		}
		if (r < 0)
			dir_pass_error(wk, f, fs, "getdents", leaf, r);
		struct io_req c = { .op = IO_CLOSE, .fd = d->fd };

		engine_exec_full(wk->eng, &c);
		d->fd = -1;
		d->leaf++;
	}
	if (fs->nusers != 1)
		pthread_mutex_unlock(&d->mu);
	return i;
}

/* Claim an entry for flowop f: the next of its ordered pass, the one its
 * indexed= variable names, or any in the wanted state.  A readdir pass
 * needs the fileset's directory open (not with the null engine, which
 * makes none): without it, the pass takes index order. */
HOT static int64_t pick(struct worker *wk, struct wflow *f, struct rt_fileset *fs, enum pick_want want)
{
	if (f->pass && f->pass->dir && fs->dirfd >= 0)
		return dir_pass_next(wk, f, fs, f->pass->dir, want);
	if (f->pass && fs->n) {
		/* ordered: each position of the pass is taken once, by whichever
		 * thread gets there; an entry not in the wanted state when its
		 * turn comes is skipped; after the last, there is no file */
		struct ordered_pass *op = f->pass;

		for (;;) {
			uint64_t k = __atomic_fetch_add(&op->next, 1, __ATOMIC_RELAXED);
			uint64_t i;

			if (k >= fs->n) {
				__atomic_store_n(&op->next, fs->n, __ATOMIC_RELAXED);
				return -1;
			}
			i = pass_entry(f, fs, k);
			if (fileset_claim(fs, i, want))
				return (int64_t)i;
		}
	}
	if (f->indexed && fs->n) {
		/* the named entry, or the next one in the wanted state: keeps
		 * the variable's skew (hot files) without stalling on a busy one */
		uint64_t i = (uint64_t)wl_val_int(&f->fo->indexed, &wk->rng, 0) % fs->n;

		for (uint64_t k = 0; k < fs->n; k++, i = i + 1 < fs->n ? i + 1 : 0)
			if (fileset_claim(fs, i, want))
				return (int64_t)i;
		return -1;
	}
	return fileset_pick(fs, want, &wk->rng);
}

/* Open descriptors on a fileset's entries are shared, as in filebench,
 * except under --verify, whose rewrites check blocks that a write by
 * another thread could tear: there a file stays held while it is open. */
static inline int opens_shared(const struct worker *wk)
{
	return !wk->rn->o->verify;
}

/* Pick an existing file to open or stat, setting *held to what the
 * caller then owns on it.  Single files (`define file`) are shared, not
 * held, as filebench does (0).  A fileset's entry nobody has open is
 * preferred (SLOT_HELD); when there is none, one that other threads have
 * open is shared (SLOT_OPEN: webserver's one log file, appended to by
 * every thread), unless the flowop takes its files in an order or by
 * index. */
HOT static int64_t pick_existing(struct worker *wk, struct wflow *f, struct rt_fileset *fs, int *held)
{
	int64_t idx;

	if (fs->is_file) {
		*held = 0;
		return (__atomic_load_n(&fs->e[0].state, __ATOMIC_ACQUIRE) & FSE_EXISTS) ? 0 : -1;
	}
	*held = SLOT_HELD;
	idx = pick(wk, f, fs, PICK_EXISTING);
	if (idx < 0 && opens_shared(wk) && !f->pass && !f->indexed) {
		idx = fileset_share(fs, &wk->rng);
		*held = SLOT_OPEN;
	}
	return idx;
}

/* Under --verify, a write that does not take the rewrite locks reaches a
 * file several workers use: its rewrites stop checking (fs->plain_writes).
 * Loaded first, so that the shared line is written once per phase. */
static void note_plain_write(struct worker *wk, struct fd_slot *s)
{
	if (unlikely(wk->rn->o->verify) && s->fs && s->fs->is_file && s->fs->nusers > 1 &&
	    !__atomic_load_n(&s->fs->plain_writes, __ATOMIC_SEQ_CST))
		__atomic_store_n(&s->fs->plain_writes, 1, __ATOMIC_SEQ_CST);
}

/* The size of the flowop's next I/O: iosize= read once at setup, or drawn
 * from its random variable (filebench's default, 8 KiB, when unset). */
static inline int64_t flow_iosize(struct worker *wk, struct wflow *f)
{
	int64_t n;

	if (f->iosize)
		return f->iosize;
	n = wl_val_int(&f->fo->iosize, &wk->rng, 8192);
	return n > 0 ? n : 1;
}

/* Read or write len bytes at logical offset off of the file open in slot
 * s: one engine call, or for a chunked file one per chunk file the range
 * touches (the last chunk file takes everything past the others).
 * Returns the bytes transferred (short only at end of file) or -errno.
 * slot_rw() is this for everyone but rewrite's locked write-back. */
static int64_t slot_rw_chunked(struct worker *wk, struct fd_slot *s, int write, void *buf,
			       size_t len, uint64_t off)
{
	uint64_t chunk = s->fs->chunk;
	size_t done = 0;

	while (done < len) {
		uint64_t pos = off + done, c = MIN(pos / chunk, (uint64_t)s->ncfds - 1);
		uint64_t coff = pos - c * chunk;
		size_t n = len - done;

		if (c + 1 < s->ncfds)
			n = (size_t)MIN((uint64_t)n, chunk - coff);
		struct io_req q = { .op = write ? IO_WRITE : IO_READ, .fd = s->cfds[c],
				    .buf = (char *)buf + done, .len = n, .off = coff };
		int64_t r = engine_exec_full(wk->eng, &q);

		if (r < 0)
			return r;
		done += (size_t)r;
		if ((size_t)r < n)
			break; /* end of the file */
	}
	return (int64_t)done;
}

static ALWAYS_INLINE int64_t slot_rw_raw(struct worker *wk, struct fd_slot *s, int write,
					 void *buf, size_t len, uint64_t off)
{
	if (likely(!s->ncfds)) {
		struct io_req q = { .op = write ? IO_WRITE : IO_READ, .fd = s->fd, .buf = buf,
				    .len = len, .off = off };

		return engine_exec_full(wk->eng, &q);
	}
	return slot_rw_chunked(wk, s, write, buf, len, off);
}

static ALWAYS_INLINE int64_t slot_rw(struct worker *wk, struct fd_slot *s, int write, void *buf,
				     size_t len, uint64_t off)
{
	if (write)
		note_plain_write(wk, s);
	return slot_rw_raw(wk, s, write, buf, len, off);
}

/* One timed read or write (f's operation) on an asynchronous engine
 * (f->st.split set: runner.c, flow_splits()) at depth 1: the request is
 * submitted (engine_submit()), the clock read as that call returns, and
 * reaped (engine_reap()): the two calls engine_exec() makes on such an
 * engine, here with a reading between them, so that its latency splits
 * into submission and completion (struct op_split).  Timed and
 * CPU-sampled as op_begin()/op_end() time the others; a short or
 * interrupted transfer is continued as engine_exec_full() continues it
 * (inside the completion).  A chunked file, an empty request, or a
 * thread with other requests in flight (whose completions the reap could
 * take: the engine then uses the system call) is one engine_exec_full()
 * call, its latency all completion.  Returns what slot_rw() returns. */
static __attribute__((noinline)) int64_t rw_split(struct worker *wk, struct wflow *f,
						  struct fd_slot *s, int write, void *buf,
						  size_t len, uint64_t off)
{
	struct io_req q = { .op = write ? IO_WRITE : IO_READ, .fd = s->fd, .buf = buf,
			    .len = len, .off = off };
	struct timing t;
	uint64_t ts, lat, slat, clat;
	int64_t r;

	if (write)
		note_plain_write(wk, s);
	op_begin(f, &t);
	if (unlikely(s->ncfds || !len || wk->depth_inflight || wk->aio_inflight)) {
		r = slot_rw_raw(wk, s, write, buf, len, off);
		ts = t.t0;
	} else {
		r = engine_submit(wk->eng, &q);
		ts = op_clock();
		if (likely(r == 0)) {
			struct io_req *done;
			int n = engine_reap(wk->eng, &done, 1, 1);

			/* (nothing else in flight: done is &q) */
			r = n < 0 ? n : n == 0 ? -EIO : q.res;
		}
		if (unlikely(r != (int64_t)len))
			r = engine_exec_rest(wk->eng, &q, r);
	}
	op_clock_split(t.t0, ts, op_clock(), &lat, &slat, &clat);
	op_end_lat(wk, f, &t, lat, !write && r > 0 ? (uint64_t)r : 0,
		   write && r > 0 ? (uint64_t)r : 0, 0);
	split_add(&f->st, slat, clat);
	return r;
}

/* fsync (op IO_FSYNC) or fdatasync (IO_FDATASYNC) every descriptor of the
 * slot's file.  0 or -errno. */
static int64_t slot_sync(struct worker *wk, struct fd_slot *s, enum io_op op)
{
	unsigned n = s->ncfds ? s->ncfds : 1;
	int64_t ret = 0;

	for (unsigned c = 0; c < n && ret >= 0; c++) {
		struct io_req q = { .op = op, .fd = s->ncfds ? s->cfds[c] : s->fd };

		ret = engine_exec_full(wk->eng, &q);
	}
	return ret;
}

static int64_t slot_fsync(struct worker *wk, struct fd_slot *s)
{
	return slot_sync(wk, s, IO_FSYNC);
}

static int64_t fsync_dir(struct worker *wk, int dirfd, const char *path);

/* dirsync=: fsync the directory that holds entry idx of fs (a chunked
 * file's chunk files share one).  0 or -errno; on failure wk->path2
 * names the directory. */
static int64_t entry_dir_fsync(struct worker *wk, struct rt_fileset *fs, int64_t idx)
{
	char *slash;

	if (fs->levels == 1 && fs->dirfd >= 0 && !fs->is_file) {
		struct io_req q = { .op = IO_FSYNC, .fd = fs->dirfd };

		snprintf(wk->path2, sizeof(wk->path2), "%s", fs->relpath);
		return engine_exec_full(wk->eng, &q);
	}
	if (fs->chunk)
		snprintf(wk->path2, sizeof(wk->path2), "%s", fs->relpath);
	else if (fileset_entry_path(fs, (uint64_t)idx, wk->path2, sizeof(wk->path2)) < 0)
		return -ENAMETOOLONG;
	slash = strrchr(wk->path2, '/');
	if (slash)
		*slash = 0;
	else /* directly in the run directory */
		snprintf(wk->path2, sizeof(wk->path2), ".");
	return fsync_dir(wk, fs->rootfd, wk->path2);
}

/* slot_open_fds() for a device (opened once by the front end) or a
 * chunked file (one descriptor per chunk file). */
static int64_t slot_open_other(struct worker *wk, struct fd_slot *s, struct rt_fileset *fs,
			       int flags, mode_t mode)
{
	struct io_req q = { .op = IO_OPEN, .dirfd = fs->rootfd, .path = wk->path,
			    .flags = flags, .mode = mode };
	int64_t fd;

	if (fs->def->has_device) {
		/* opened once, by the front end through blockdev_open(): the
		 * flags it was opened with are the ones recorded */
		snprintf(wk->path, sizeof(wk->path), "%s", fs->def->device_path);
		wk->eng->open_flags_seen |= fs->def->device_flags;
		s->fd = fs->def->device_fd;
		s->ncfds = 0;
		return 0;
	}
	if (s->cfds_cap < fs->nchunks) { /* grows once per slot, not per open */
		s->cfds = xrealloc(s->cfds, fs->nchunks * sizeof(*s->cfds));
		s->cfds_cap = fs->nchunks;
	}
	for (unsigned c = 0; c < fs->nchunks; c++) {
		if (fileset_chunk_path(fs, c, wk->path, sizeof(wk->path)) < 0)
			fd = -ENAMETOOLONG;
		else
			fd = engine_exec_full(wk->eng, &q);
		if (fd < 0) {
			while (c--) {
				struct io_req cq = { .op = IO_CLOSE, .fd = s->cfds[c] };

				engine_exec(wk->eng, &cq);
			}
			return fd;
		}
		s->cfds[c] = (int)fd;
	}
	s->fd = s->cfds[0];
	s->ncfds = fs->nchunks;
	return 0;
}

/* Open entry idx of fs into slot s: one descriptor, or one per chunk of
 * a chunked file.  Returns 0 or -errno, with wk->path naming the file
 * that failed. */
static ALWAYS_INLINE int64_t slot_open_fds(struct worker *wk, struct fd_slot *s,
					   struct rt_fileset *fs, int64_t idx, int flags,
					   mode_t mode)
{
	if (likely(!fs->chunk && !fs->def->has_device)) {
		struct io_req q = { .op = IO_OPEN, .path = wk->path, .flags = flags, .mode = mode };
		int64_t fd;

		if (fileset_entry_path(fs, (uint64_t)idx, wk->path, sizeof(wk->path)) < 0)
			return -ENAMETOOLONG;
		q.dirfd = fileset_at(fs, fs->rootfd, &q.path);
		fd = engine_exec_full(wk->eng, &q);
		if (fd < 0)
			return fd;
		s->fd = (int)fd;
		s->ncfds = 0;
		return 0;
	}
	return slot_open_other(wk, s, fs, flags, mode);
}

/* slot_close_fds() for a chunked file or a device. */
static int64_t slot_close_other(struct worker *wk, struct fd_slot *s)
{
	int64_t ret = 0, r;

	if (s->fs && s->fs->def->has_device)
		return 0; /* the device stays open: its descriptor is the front end's */
	for (unsigned c = 0; c < s->ncfds; c++) {
		struct io_req q = { .op = IO_CLOSE, .fd = s->cfds[c] };

		r = engine_exec(wk->eng, &q);
		if (r < 0 && ret >= 0)
			ret = r;
	}
	s->ncfds = 0;
	return ret;
}

/* Close every descriptor of the slot.  Returns 0 or the first -errno. */
static ALWAYS_INLINE int64_t slot_close_fds(struct worker *wk, struct fd_slot *s)
{
	if (likely(!s->ncfds && !(s->fs && s->fs->def->has_device))) {
		struct io_req q = { .op = IO_CLOSE, .fd = s->fd };

		return engine_exec(wk->eng, &q);
	}
	return slot_close_other(wk, s);
}

static void flows_free_slots(struct wflow *fl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(fl[i].priv.cfds);
		fl[i].priv.cfds = NULL;
		fl[i].priv.cfds_cap = 0;
		flows_free_slots(fl[i].children, fl[i].nchildren);
	}
}

void worker_free_slots(struct worker *wk)
{
	for (int i = 0; i < FD_SLOTS; i++) {
		free(wk->fds[i].cfds);
		wk->fds[i].cfds = NULL;
		wk->fds[i].cfds_cap = 0;
	}
	flows_free_slots(wk->flows, wk->nflows);
}

/* invalidate=, fadvise=: after slot s was opened (untimed), drop its
 * file's cached pages, then advise the kernel, both over the whole file,
 * at every open as fio does (td_io_open_file).  Dirty pages are not
 * dropped, so at a file's first open (`first`) they are written back
 * before, as fio has synced the files it laid out (create_fsync) before
 * it drops their pages.  Advice is a hint: a failure is reported once
 * per worker and the run goes on, as fio's "fadvise hint failed". */
static __attribute__((noinline)) void slot_advise(struct worker *wk, struct wflow *f,
						  struct fd_slot *s, int first)
{
	int fd = s->ncfds ? s->cfds[0] : s->fd;
	int ret = 0;

	if (fd < 0)
		return;
	if (f->invalidate && first &&
	    sync_file_range(fd, 0, 0,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
				    SYNC_FILE_RANGE_WAIT_AFTER) < 0)
		ret = errno;
	if (!ret && f->invalidate)
		ret = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!ret && f->advice)
		ret = posix_fadvise(fd, 0, 0, f->advice - 1);
	if (ret && !wk->advise_warned) {
		wk->advise_warned = 1;
		msg_warn("%s: %s on '%s' failed: %s", f->fo->name,
			 f->invalidate ? "dropping the page cache" : "posix_fadvise", wk->path,
			 strerror(ret));
	}
}

static ALWAYS_INLINE void slot_opened(struct worker *wk, struct wflow *f, struct fd_slot *s,
				      int first)
{
	if (unlikely(f->invalidate | f->advice))
		slot_advise(wk, f, s, first);
}

/* Open a file of the flowop's fileset into slot s (timed as the flowop's
 * operation only for openfile; implicit opens are not counted), picked
 * by pick_existing(). */
static ALWAYS_INLINE enum flow_result slot_open(struct worker *wk, struct wflow *f, struct fd_slot *s,
				  int timed)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int held;
	int64_t idx, ret;

	if (!fs) {
		runner_op_error(wk, f, "open", NULL, -EBADF);
		return FR_ERROR;
	}
	idx = pick_existing(wk, f, fs, &held);
	if (idx < 0)
		return FR_NORSC;
	if (timed)
		op_begin(f, &t);
	ret = slot_open_fds(wk, s, fs, idx, open_flags(f, fs), 0);
	if (timed)
		op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		if (held == SLOT_HELD)
			fileset_release(fs, (uint64_t)idx, 1);
		else if (held == SLOT_OPEN)
			fileset_close(fs, (uint64_t)idx);
		runner_op_error(wk, f, "open", wk->path, (int)ret);
		return FR_ERROR;
	}
	if (held == SLOT_HELD && opens_shared(wk)) {
		fileset_open_held(fs, (uint64_t)idx);
		held = SLOT_OPEN;
	}
	s->fs = fs;
	s->idx = idx;
	s->held = held;
	s->off = 0;
	slot_opened(wk, f, s, 1);
	return FR_OK;
}

static void aio_drain_fd(struct worker *wk, int fd);

static void entry_grow(struct fd_slot *s, uint64_t end);
static const char *slot_path(struct worker *wk, struct fd_slot *s);

/* Write out what a bufsize=/putc buffer holds (stdio's fflush).  Returns
 * 0 or -errno. */
HOT static int64_t sb_flush(struct worker *wk, struct fd_slot *s)
{
	struct stdio_buf *b = s->sb;
	int64_t ret;

	if (!b || !b->dirty || !b->len)
		return 0;
	ret = slot_rw(wk, s, 1, b->buf, b->len, b->off);
	if (ret < 0)
		return ret;
	entry_grow(s, b->off + (uint64_t)ret);
	b->off += b->len;
	b->len = 0;
	return 0;
}

/* Close without timing (end of the thread, reuse of the slot): buffered
 * data is still written first. */
static void slot_close(struct worker *wk, struct fd_slot *s)
{
	aio_drain_fd(wk, s->fd);
	if (s->fd >= 0) {
		int64_t ret = sb_flush(wk, s);

		if (ret < 0)
			runner_op_error(wk, NULL, "write", slot_path(wk, s), (int)ret);
		slot_close_fds(wk, s);
	}
	slot_release(s, 1);
}

static void rot_close(struct worker *wk, struct wflow *f, struct fd_slot *s);

void worker_close_all(struct worker *wk)
{
	for (int i = 0; i < FD_SLOTS; i++)
		if (wk->fds[i].fd >= 0)
			slot_close(wk, &wk->fds[i]);
	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];

		if (f->priv.fd >= 0)
			slot_close(wk, &f->priv);
		for (unsigned k = 0; f->rot && k < f->rot->nslot; k++)
			if (f->rot->slot[k].fd >= 0)
				rot_close(wk, f, &f->rot->slot[k]);
		for (size_t c = 0; c < f->nchildren; c++)
			if (f->children[c].priv.fd >= 0)
				slot_close(wk, &f->children[c].priv);
	}
}

static struct fd_slot *fd_slot_of(struct worker *wk, struct wflow *f)
{
	return f->slot ? f->slot : &wk->fds[f->fd_index];
}

/* The descriptor a data flowop works on, opening one if needed. */
static enum flow_result rot_setup(struct worker *wk, struct wflow *f, struct fd_slot **out);

static enum flow_result io_setup(struct worker *wk, struct wflow *f, struct fd_slot **out)
{
	struct fd_slot *s;
	enum flow_result r;

	if (unlikely(f->rot))
		return rot_setup(wk, f, out);
	if (f->fd_slot)
		s = fd_slot_of(wk, f);
	else
		s = &f->priv;
	if (s->fd < 0) {
		r = slot_open(wk, f, s, 0);
		if (r != FR_OK)
			return r;
	}
	*out = s;
	return FR_OK;
}

/* The working set's bytes: wss=, else the file's size past offset=. */
static uint64_t slot_wss(struct wflow *f, struct fd_slot *s)
{
	int64_t wss = f->wss >= 0 ? f->wss : wl_val_int(&f->fo->wss, NULL, 0);

	if (wss > 0)
		return (uint64_t)wss;
	if (s->fs && s->idx >= 0) {
		uint64_t cur = __atomic_load_n(&s->fs->e[s->idx].cur, __ATOMIC_RELAXED);

		cur = cur ? cur : s->fs->e[s->idx].size;
		return cur > f->base ? cur - f->base : 0;
	}
	return 0;
}

static void entry_grow_at(struct rt_fileset *fs, int64_t idx, uint64_t end)
{
	uint64_t cur = __atomic_load_n(&fs->e[idx].cur, __ATOMIC_RELAXED);

	while (end > cur && !__atomic_compare_exchange_n(&fs->e[idx].cur, &cur, end, 0,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void entry_grow(struct fd_slot *s, uint64_t end)
{
	if (!s->fs || s->idx < 0)
		return;
	entry_grow_at(s->fs, s->idx, end);
}

/* A write, trimwrite or rwmix request wrote [off, off + len) of the file in
 * slot s: its size as far as our writes know, and (under --verify, on a
 * fileset with a written map) the blocks a readback is to read back. */
static ALWAYS_INLINE void entry_wrote(struct fd_slot *s, uint64_t off, uint64_t len)
{
	entry_grow(s, off + len);
	if (unlikely(s->fs && s->fs->wmap) && s->idx >= 0)
		fileset_wmap_mark(s->fs, (uint64_t)s->idx, off, len);
}

static const char *slot_path(struct worker *wk, struct fd_slot *s)
{
	if (!s->fs || s->idx < 0)
		return NULL;
	return entry_path(wk, s->fs, s->idx, wk->path2);
}

/* reverse= and stride=: the next record of the pattern within the
 * working set.  Reverse goes from the last record down to the first, then
 * starts again at the last.  Stride visits records 0, n, 2n, ... and at the
 * end starts a new pass one record further (1, n+1, ...): after n passes
 * every record was read once. */
static uint64_t pattern_offset(const struct wflow *f, struct fd_slot *s, uint64_t iosize,
			       uint64_t wss)
{
	uint64_t nrec = wss >= iosize ? wss / iosize : 1;
	uint64_t rec;

	if (f->reverse) {
		rec = nrec - 1 - s->seq_rec % nrec;
		s->seq_rec++;
		return rec * iosize;
	}
	rec = s->seq_rec < nrec ? s->seq_rec : 0;
	s->seq_rec = rec + f->stride;
	if (s->seq_rec >= nrec) {
		s->seq_pass++;
		s->seq_rec = s->seq_pass % MIN(f->stride, nrec);
	}
	return rec * iosize;
}

static int verifying(const struct worker *wk);
static int stream_stamp(struct worker *wk, struct fd_slot *s, struct stdio_buf *b,
			unsigned char *dst, size_t n, uint64_t pos);
static int check_read(struct worker *wk, struct wflow *f, struct fd_slot *s, const void *buf,
		      uint64_t off, size_t n);

/* bufsize=: read or write `iosize` bytes through a user-space buffer, as
 * stdio's fread/fwrite do: data is copied, and the engine sees whole
 * buffers at the stream's sequential position. */
static enum flow_result do_buffered(struct worker *wk, struct wflow *f, struct fd_slot *s,
				    size_t iosize, int write)
{
	struct stdio_buf *b = s->sb;
	struct timing t;
	size_t done = 0;
	int64_t ret = 0;

	if (!b) {
		b = xcalloc(1, sizeof(*b));
		/* under --verify whole blocks, so that every refill is checked */
		b->size = verifying(wk) ? (size_t)verify_align_up(f->bufsize) : (size_t)f->bufsize;
		if (posix_memalign((void **)&b->buf, 4096, b->size)) {
			free(b);
			runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
			return FR_ERROR;
		}
		b->off = s->off;
		b->dirty = write;
		s->sb = b;
	}
	if (write && !verifying(wk)) {
		data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, iosize);
	} else if (write && stream_stamp(wk, s, b, wk->buf, iosize,
					 b->off + (b->dirty ? b->len : b->pos)) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	op_begin(f, &t);
	if (write) {
		if (!b->dirty) { /* was reading: go on from the stream position */
			b->off += b->pos;
			b->len = b->pos = 0;
			b->dirty = 1;
		}
		while (done < iosize) {
			size_t n = MIN(iosize - done, b->size - b->len);

			memcpy(b->buf + b->len, (char *)wk->buf + done, n);
			b->len += n;
			done += n;
			if (b->len == b->size && (ret = sb_flush(wk, s)) < 0)
				break;
		}
	} else {
		if (b->dirty) {
			ret = sb_flush(wk, s);
			b->dirty = 0;
		}
		while (ret >= 0 && done < iosize) {
			if (b->pos == b->len) {
				b->off += b->len;
				b->len = b->pos = 0;
				ret = slot_rw(wk, s, 0, b->buf, b->size, b->off);
				if (ret <= 0)
					break; /* end of file, or an error */
				b->len = (size_t)ret;
				if (verifying(wk) && check_read(wk, f, s, b->buf, b->off, b->len)) {
					op_end(wk, f, &t, done, 0);
					return FR_ERROR;
				}
			}
			size_t n = MIN(iosize - done, b->len - b->pos);

			memcpy((char *)wk->buf + done, b->buf + b->pos, n);
			b->pos += n;
			done += n;
		}
	}
	op_end(wk, f, &t, write ? 0 : done, write ? done : 0);
	s->off = b->off + (b->dirty ? b->len : b->pos);
	if (ret < 0) {
		runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

static int verifying(const struct worker *wk)
{
	return wk->verify;
}

/* Prepare buf for a write of len bytes at file offset off: self-checking
 * blocks under --verify (len and off are whole blocks then), else the
 * data pattern's fresh stamps. */
static void fill_for_write(struct worker *wk, struct fd_slot *s, void *buf, size_t len,
			   uint64_t off)
{
	if (verifying(wk))
		verify_stamp(buf, len, off, s->idx >= 0 ? (uint64_t)s->idx : 0, ++wk->generation,
			     rng_next(&wk->rng));
	else
		data_refresh(&wk->rn->o->data, &wk->rng, buf, len);
}

/* Report a bad block read from the file in slot s.  m->offset is in the
 * whole file; a chunked file's is named as the chunk file holding it and
 * the offset in that chunk file (what one needs to look at it), with the
 * whole file's offset the block's header speaks of. */
static void report_mismatch(struct worker *wk, struct wflow *f, struct fd_slot *s,
			    const struct verify_mismatch *m)
{
	if (s->ncfds) {
		uint64_t c = MIN(m->offset / s->fs->chunk, (uint64_t)s->ncfds - 1);

		if (fileset_chunk_path(s->fs, (unsigned)c, wk->path2, sizeof(wk->path2)) >= 0) {
			runner_verify_error(wk, f, wk->path2, m->offset - c * s->fs->chunk, 1, m);
			return;
		}
	}
	runner_verify_error(wk, f, slot_path(wk, s), m->offset, 0, m);
}

/* Under --verify, check every whole block of a read of n bytes at off;
 * returns how many were bad (each reported). */
static int check_blocks(struct worker *wk, struct wflow *f, struct fd_slot *s, const void *buf,
			uint64_t off, size_t n)
{
	int bad = 0;

	for (size_t o = (size_t)(verify_align_up(off) - off); o + DATA_BLOCK <= n; o += DATA_BLOCK) {
		struct verify_mismatch m;

		if (verify_block((const char *)buf + o, off + o, UINT64_MAX, NULL, &m) > VERIFY_HOLE) {
			report_mismatch(wk, f, s, &m);
			bad++;
		}
	}
	return bad;
}

/* check_blocks() for a workload read, except that a `define file` used by
 * several threads of the phase is not checked: another thread's write may
 * be under way on the block we read, and a torn read there is not
 * corruption.  (Under --verify fileset entries are held while open; rewrite
 * locks the range instead, and checks.) */
static int check_read(struct worker *wk, struct wflow *f, struct fd_slot *s, const void *buf,
		      uint64_t off, size_t n)
{
	if (s->fs && s->fs->is_file && s->fs->nusers > 1)
		return 0;
	return check_blocks(wk, f, s, buf, off, n);
}

/* Under --verify, the bytes a stream (putc, bufsize= writes) writes at
 * [pos, pos + n) of the slot's file, into dst: those of the self-checking
 * blocks covering them, each made when the stream enters it and kept in
 * the stream's buffer while it is written a piece at a time, so that a
 * block filled by many small calls is still one valid block.  0, or
 * -ENOMEM. */
static int stream_stamp(struct worker *wk, struct fd_slot *s, struct stdio_buf *b,
			unsigned char *dst, size_t n, uint64_t pos)
{
	if (!b->vblk) {
		if (posix_memalign((void **)&b->vblk, 4096, DATA_BLOCK))
			return -ENOMEM;
		b->vblk_off = UINT64_MAX;
	}
	while (n) {
		uint64_t at = verify_align_down(pos);
		size_t in = (size_t)(pos - at), k = MIN(n, DATA_BLOCK - in);

		if (b->vblk_off != at) {
			verify_make_block(b->vblk, at, s->idx >= 0 ? (uint64_t)s->idx : 0,
					  ++wk->generation, rng_next(&wk->rng));
			b->vblk_off = at;
		}
		memcpy(dst, b->vblk + in, k);
		dst += k;
		pos += k;
		n -= k;
	}
	return 0;
}

/* A file that several threads of the phase use (`define file`). */
static int slot_shared(const struct fd_slot *s)
{
	return s->fs && s->fs->is_file && s->fs->nusers > 1;
}

/* Under --verify, lock (lock = 1) or unlock the stripes of the regions
 * [off, off + len) touches, in stripe order (no deadlock between threads
 * locking overlapping ranges). */
static void vlock_range(struct runner *rn, uint64_t off, uint64_t len, int lock)
{
	uint64_t first = off >> RUNNER_VLOCK_SHIFT, last = (off + len - 1) >> RUNNER_VLOCK_SHIFT;
	uint64_t set = 0;

	if (last - first + 1 >= RUNNER_VLOCKS)
		set = ~(uint64_t)0;
	else
		for (uint64_t r = first; r <= last; r++)
			set |= (uint64_t)1 << (r % RUNNER_VLOCKS);
	for (int i = 0; i < RUNNER_VLOCKS; i++)
		if (set & ((uint64_t)1 << i)) {
			if (lock)
				pthread_mutex_lock(&rn->vlock[i]);
			else
				pthread_mutex_unlock(&rn->vlock[i]);
		}
}

/* --- rotate=: requests going round the entries of a fileset ------------ */

struct rot_state *rot_new(const struct wl_flowop *fo, uint64_t n)
{
	struct rot_state *r = xcalloc(1, sizeof(*r));
	int64_t every = wl_val_int(&fo->rotate, NULL, 1);
	int64_t open = wl_val_int(&fo->openfiles, NULL, 0);

	r->n = n;
	r->every = every > 0 ? (uint64_t)every : 1;
	r->random = wl_val_bool(&fo->rotate_random, 0);
	r->nslot = open > 0 && (uint64_t)open < n ? (unsigned)open : (unsigned)MIN(n, UINT_MAX);
	r->slot = xcalloc(r->nslot, sizeof(*r->slot));
	for (unsigned i = 0; i < r->nslot; i++) {
		r->slot[i].fd = -1;
		r->slot[i].idx = -1;
		r->slot[i].last_idx = -1;
	}
	r->file = xcalloc(n, sizeof(*r->file));
	return r;
}

void rot_free(struct rot_state *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nslot; i++)
		free(r->slot[i].cfds);
	free(r->slot);
	free(r->file);
	free(r);
}

/* The block of a random request of a rotating flowop: the random map
 * of the slot's entry (each entry has its own pass). */
static uint64_t rot_block(struct wflow *f, struct fd_slot *s, struct rng *rng, uint64_t blocks)
{
	struct rot_file *e = &f->rot->file[s->idx];
	struct rw_offsets *o = f->ofs;
	uint64_t b;

	o->map_n = e->map_n;
	o->map_pos = e->map_pos;
	o->map_key = e->map_key;
	b = offsets_block(o, rng, blocks);
	e->map_n = o->map_n;
	e->map_pos = o->map_pos;
	e->map_key = o->map_key;
	return b;
}

/* Close a rotating flowop's slot (untimed), keeping its entry's position. */
static int depth_flush(struct worker *wk, struct depth_q *q);

static void rot_close(struct worker *wk, struct wflow *f, struct fd_slot *s)
{
	/* requests queued and not yet pushed go in first: the close waits
	 * for every request in flight (aio_drain_fd) */
	if (f->dq && f->dq->nqueued) {
		int ret = depth_flush(wk, f->dq);

		if (ret < 0)
			runner_op_error(wk, f, "submit", slot_path(wk, s), ret);
	}
	if (s->idx >= 0)
		f->rot->file[s->idx].off = s->off;
	slot_close(wk, s);
}

/* The slot of a rotating flowop's entry e, opened (created, for a
 * flowop that writes) when it is not; an entry sharing its slot is
 * closed first.  FR_OK or FR_ERROR. */
static enum flow_result rot_open(struct worker *wk, struct wflow *f, uint64_t e,
				 struct fd_slot **out)
{
	struct rot_state *r = f->rot;
	struct rt_fileset *fs = f->fs;
	struct fd_slot *s = &r->slot[e % r->nslot];
	int64_t ret;

	if (s->fd >= 0 && (uint64_t)s->idx != e)
		rot_close(wk, f, s);
	if (s->fd < 0) {
		int flags = open_flags(f, fs) | (f->type == FO_READ ? 0 : O_CREAT);

		ret = slot_open_fds(wk, s, fs, (int64_t)e, flags, 0644);
		if (ret < 0) {
			s->fd = -1;
			runner_op_error(wk, f, "open", wk->path, (int)ret);
			return FR_ERROR;
		}
		s->fs = fs;
		s->idx = (int64_t)e;
		s->held = 0;
		s->off = r->file[e].off;
		slot_opened(wk, f, s, !r->file[e].opened);
		r->file[e].opened = 1;
	}
	*out = s;
	return FR_OK;
}

/* The slot of the rotating flowop's next request: the entry whose turn
 * it is (rot_open).  FR_OK or FR_ERROR. */
static enum flow_result rot_setup(struct worker *wk, struct wflow *f, struct fd_slot **out)
{
	struct rot_state *r = f->rot;

	if (!r->left || !r->started) {
		if (r->random)
			r->cur = rng_below(&wk->rng, r->n);
		else if (r->started)
			r->cur = r->cur + 1 < r->n ? r->cur + 1 : 0;
		else
			r->cur = 0;
		r->left = r->every;
		r->started = 1;
	}
	r->left--;
	return rot_open(wk, f, r->cur, out);
}

/* The offset of a read or write flowop's next request of iosize bytes
 * in the file of slot s. */
static ALWAYS_INLINE uint64_t rw_offset(struct worker *wk, struct wflow *f, struct fd_slot *s,
					int64_t iosize, int write)
{
	uint64_t off, wss = slot_wss(f, s);

	if (f->random && (!f->ofs || offsets_take_random(f->ofs, &wk->rng))) {
		uint64_t blocks = wss >= (uint64_t)iosize ? wss / (uint64_t)iosize : 1;

		off = (unlikely(f->rot && f->ofs) ? rot_block(f, s, &wk->rng, blocks)
		       : f->ofs			  ? offsets_block(f->ofs, &wk->rng, blocks)
						  : rng_below(&wk->rng, blocks)) *
		      (uint64_t)iosize;
	} else if (f->reverse || f->stride > 1) {
		off = pattern_offset(f, s, (uint64_t)iosize, wss);
	} else {
		off = s->off;
		if (wss && off + (uint64_t)iosize > wss && (!write || wl_val_isset(&f->fo->wss)))
			off = 0; /* wrap at the end of the working set */
		s->off = off + (uint64_t)iosize;
	}
	if (verifying(wk))
		off = verify_align_down(off);
	return off + f->base;
}

/* iodepth=: count a submission at which `depth` requests of the flowop
 * (this one included) are in flight. */
static ALWAYS_INLINE void depth_seen(struct op_stats *st, uint64_t depth)
{
	STAT_ADD(st->qdepth[op_qdepth_bucket(depth)], 1);
	if (depth > st->qdepth_max)
		__atomic_store_n(&st->qdepth_max, depth, __ATOMIC_RELAXED);
}

static enum flow_result depth_pass(struct worker *wk, struct wflow *f, struct fd_slot *s,
				   int64_t iosize, int write);

/* The wflow an operation of the flowop counts in: an rwmix's read or
 * write child ("NAME.read", "NAME.write"), a trimwrite's write child
 * ("NAME.write"), else the flowop itself. */
static inline struct wflow *rw_acct(struct wflow *f, int write)
{
	return f->type == FO_RWMIX || unlikely(f->trimwrite) ? &f->children[write != 0] : f;
}

/* rwmix: the direction of its next operation, 1 for a write. */
static inline int mix_pick(struct worker *wk, const struct wflow *f)
{
	return rng_below(&wk->rng, 100) >= f->readpct;
}

/* For messages: a depth pass's direction (-1: an rwmix's, both). */
static inline const char *rw_what(int write)
{
	return write < 0 ? "read/write" : write ? "write" : "read";
}

/* One sync by fsync flow `sy` (linked to a write flowop: sync_linked) of
 * the write's descriptor s, timed as sy's operation.  FR_OK or FR_ERROR
 * (counted and reported). */
static enum flow_result flow_sync(struct worker *wk, struct wflow *sy, struct fd_slot *s)
{
	struct timing t;
	int64_t ret;

	op_begin(sy, &t);
	ret = slot_sync(wk, s, sy->sync_datasync ? IO_FDATASYNC : IO_FSYNC);
	op_end(wk, sy, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, sy, sy->sync_datasync ? "fdatasync" : "fsync", slot_path(wk, s),
				(int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

/* A request (a write when `write`) issued on s by a flowop that an fsync
 * is linked to (f->syncer, f->end_syncer): count a write; f->syncer is
 * due before the next request when the writes so far are a multiple of N
 * (every=), as fio 3.33's fsync=N: none after the last request, and in a
 * mixed flowop, a read after the sync makes it due again while no write
 * came (fio syncs before each request until the count moves on). */
static inline void sync_note(struct wflow *f, struct fd_slot *s, int write)
{
	if (!f->syncer && !f->end_syncer)
		return;
	if (write) {
		f->sync_slot = s;
		f->nwrites++;
	}
	f->sync_pending = f->syncer && f->nwrites && f->nwrites % f->syncer->sync_every == 0;
}

/* Does the next request of iosize bytes on s start a new pass over the
 * flowop's file (sequential: it would run past the working set and wraps
 * to its start; random with randommap: every block of the pass was
 * visited)?  With rotate=, a pass is over all the files, as fio's (it
 * reopens them all once every one is done): with a constant iosize, the
 * request after each whole pass's bytes. */
static int pass_starts(struct wflow *f, struct fd_slot *s, int64_t iosize)
{
	uint64_t wss = slot_wss(f, s);

	if (f->random && (!f->ofs || !f->ofs->randommap))
		return 0;
	if (f->rot) {
		uint64_t bytes = wss / (uint64_t)iosize * (uint64_t)iosize; /* a file's pass */
		uint64_t pass = f->iosize ? bytes * f->rot->n : 0;

		return pass && f->issued && f->issued % pass == 0;
	}
	if (f->random)
		return f->ofs->map_n && f->ofs->map_pos >= f->ofs->map_n;
	if (f->reverse || f->stride > 1)
		return 0;
	/* (rw_offset's wrap: a write without wss= grows the file instead) */
	return wss && s->off && s->off + (uint64_t)iosize > wss &&
	       (f->type != FO_WRITE || wl_val_isset(&f->fo->wss));
}

static enum flow_result depth_sync(struct worker *wk, struct wflow *f, struct fd_slot *s);

/* The sync due (f->sync_pending) before the flowop's next request of
 * iosize bytes, on s, the file that request goes to (with rotate=, the
 * file whose turn it is: fio's sync takes that turn, fsgauge's leaves it
 * to the request, so that each file keeps its share of the requests).  At
 * depth, the requests queued and in flight complete first (depth_sync).
 * With sync_pass, when the request starts a new pass over its file, one
 * more sync before it.  FR_OK (issue the request), FR_DONE (the run is
 * stopping: none), or FR_ERROR. */
static __attribute__((noinline)) enum flow_result sync_before(struct worker *wk, struct wflow *f,
							      struct fd_slot *s, int64_t iosize)
{
	int n = f->sync_pass && pass_starts(f, s, iosize) ? 2 : 1;

	f->sync_pending = 0;
	for (int i = 0; i < n; i++) {
		enum flow_result r = f->dq ? depth_sync(wk, f, s) : flow_sync(wk, f->syncer, s);

		if (r != FR_OK)
			return r;
		if (runner_stopping(wk->rn))
			return FR_DONE;
	}
	return FR_OK;
}

/* iobytes=: the flowop has issued all the bytes it may. */
static inline int flow_spent(const struct wflow *f)
{
	return f->iobytes && f->issued >= f->iobytes;
}

static void delay_ns(struct runner *rn, uint64_t ns);

/* thinktime=: after every think_blocks requests, spin on the CPU for
 * think_spin_ns, then sleep for the rest of think_ns (a stop cuts it
 * short).  The sleep in the measured window counts with the rate waits
 * (rate_wait_ns): a wait by design, not contention. */
static void flow_think(struct worker *wk, struct wflow *f)
{
	struct runner *rn = wk->rn;
	uint64_t t0, now;

	if (++f->think_n < f->think_blocks)
		return;
	f->think_n = 0;
	t0 = now_ns();
	for (now = t0; now - t0 < f->think_spin_ns && !runner_stopping(rn); now = now_ns())
		;
	if (now - t0 < f->think_ns && !runner_stopping(rn)) {
		delay_ns(rn, f->think_ns - (now - t0));
		if (now >= __atomic_load_n(&rn->window_ns, __ATOMIC_RELAXED))
			wk->rate_wait_ns += now_ns() - now;
	}
}

/* delay with spin=: `ns` on the CPU (by the monotonic clock), not cut
 * short by a stop (fio's cpuio spins its whole chunk too), so that each
 * operation is one whole chunk of CPU work. */
static void spin_ns(uint64_t ns)
{
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < ns)
		;
}

/* After a read or write operation of `len` bytes (issued, whatever it
 * moved) by a flowop with f->after set: FR_DONE once iobytes= is
 * spent (no thinktime after the last request), else FR_OK. */
static enum flow_result flow_after(struct worker *wk, struct wflow *f, struct fd_slot *s,
				   int write, uint64_t len)
{
	f->issued += len;
	sync_note(f, s, write);
	if (flow_spent(f))
		return FR_DONE;
	if (f->think_ns)
		flow_think(wk, f);
	return FR_OK;
}

/* What read, write, rwmix and trimwrite do first: the descriptor
 * (io_setup), the request's size (whole verify blocks under --verify) and
 * a buffer for it, a failure to allocate counted against errf. */
static ALWAYS_INLINE enum flow_result block_setup(struct worker *wk, struct wflow *f,
						  struct wflow *errf, struct fd_slot **s,
						  int64_t *iosize)
{
	enum flow_result r = io_setup(wk, f, s);

	if (r != FR_OK)
		return r;
	*iosize = flow_iosize(wk, f);
	if (verifying(wk))
		*iosize = (int64_t)verify_align_up((uint64_t)*iosize);
	if (unlikely(f->sync_pending) && (r = sync_before(wk, f, *s, *iosize)) != FR_OK)
		return r;
	if (ensure_buf(wk, (size_t)*iosize) < 0) {
		runner_op_error(wk, errf, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	return FR_OK;
}

static ALWAYS_INLINE enum flow_result do_rw(struct worker *wk, struct wflow *f, int write)
{
	struct fd_slot *s;
	struct timing t;
	int64_t iosize, ret;
	uint64_t off, due = 0;
	enum flow_result r = block_setup(wk, f, f, &s, &iosize);

	if (r != FR_OK)
		return r;
	if (f->bufsize && !f->random)
		return do_buffered(wk, f, s, (size_t)iosize, write);
	if (unlikely(f->iodepth > 1)) {
		/* a chunked file is read and written one request at a time
		 * (a request may span two chunk files) */
		if (f->dq && !s->ncfds)
			return depth_pass(wk, f, s, iosize, write);
		depth_seen(&f->st, 1);
	}
	if (unlikely(f->rate)) {
		due = rate_wait(f->rate, wk->rn, &wk->rng, (uint64_t)iosize);
		if (!due)
			return FR_OK; /* stopping: not issued */
	}
	off = rw_offset(wk, f, s, iosize, write);
	if (write)
		fill_for_write(wk, s, wk->buf, (size_t)iosize, off);
	if (unlikely(f->st.split)) {
		ret = rw_split(wk, f, s, write, wk->buf, (size_t)iosize, off);
	} else {
		op_begin(f, &t);
		ret = slot_rw(wk, s, write, wk->buf, (size_t)iosize, off);
		op_end(wk, f, &t, !write && ret > 0 ? (uint64_t)ret : 0,
		       write && ret > 0 ? (uint64_t)ret : 0);
	}
	if (unlikely(f->rate))
		rate_done(f->rate, wk->rn, due, ret > 0 ? (uint64_t)ret : 0);
	if (ret < 0) {
		runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	if (write)
		entry_wrote(s, off, (uint64_t)ret);
	else if (verifying(wk) && check_read(wk, f, s, wk->buf, off, (size_t)ret))
		return FR_ERROR;
	return unlikely(f->after) ? flow_after(wk, f, s, write, (uint64_t)iosize) : FR_OK;
}

/* A read or write flowop whose requests are range operations instead of
 * transfers, at the offsets a write (or read) would have (sequential or
 * random, the random map and the rate as for transfers): with trim=, one
 * discard of a block of the device open in the slot (fio's rw=trim,
 * randtrim; fsgauge io refuses it on anything else), or with fallocate=
 * a punched hole (fio's falloc engine's trim), counted as bytes trimmed;
 * with fallocate= alone, fallocate(2) of the range in that mode, and with
 * truncate=, ftruncate(2) of the file to the offset (fio's falloc and
 * ftruncate engines), counted as operations that move no bytes.  No
 * data, no fsync after it, no verify. */
static enum flow_result do_range(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct timing t;
	int64_t iosize, ret;
	uint64_t off, due = 0;
	const char *what = f->falloc ? "fallocate" : f->truncate ? "ftruncate" : "trim";

	if (r != FR_OK)
		return r;
	iosize = flow_iosize(wk, f);
	if (unlikely(f->rate)) {
		due = rate_wait(f->rate, wk->rn, &wk->rng, (uint64_t)iosize);
		if (!due)
			return FR_OK; /* stopping: not issued */
	}
	off = rw_offset(wk, f, s, iosize, f->type == FO_WRITE);
	op_begin(f, &t);
	{
		struct io_req q = { .op = f->falloc ? IO_FALLOCATE : f->truncate ? IO_FTRUNCATE
									     : IO_DISCARD,
				    .fd = s->fd, .len = (size_t)iosize, .off = off,
				    .flags = f->falloc_mode };

		ret = engine_exec_full(wk->eng, &q);
	}
	op_end3(wk, f, &t, 0, 0, f->trim && ret > 0 ? (uint64_t)ret : 0);
	/* a rate's bytes: the range's (an ftruncate completes with 0) */
	if (unlikely(f->rate))
		rate_done(f->rate, wk->rn, due, ret >= 0 ? (uint64_t)iosize : 0);
	if (ret < 0) {
		runner_op_error(wk, f, what, slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	return unlikely(f->after) ? flow_after(wk, f, s, 0, (uint64_t)iosize) : FR_OK;
}

/* trimwrite: discard [off, off + len) of s's device before it is
 * written, timed and counted as the flowop's "NAME.trim" (children[0],
 * bytes trimmed) with `depth` requests of the flowop in flight, this one
 * included (iodepth=).  Synchronous on every engine, as fio 3.33's trims
 * (the BLKDISCARD ioctl, on libaio and io_uring too, while their writes
 * are in flight).  0, or -1 after the error is reported. */
static int trim_range(struct worker *wk, struct wflow *f, struct fd_slot *s, uint64_t len,
		      uint64_t off, uint64_t depth)
{
	struct wflow *c = &f->children[0];
	struct io_req q = { .op = IO_DISCARD, .fd = s->fd, .len = (size_t)len, .off = off };
	struct timing t;
	int64_t ret;

	if (f->iodepth > 1)
		depth_seen(&c->st, depth);
	op_begin(c, &t);
	ret = engine_exec_full(wk->eng, &q);
	op_end3(wk, c, &t, 0, 0, ret > 0 ? (uint64_t)ret : 0);
	if (ret < 0) {
		runner_op_error(wk, c, "trim", slot_path(wk, s), (int)ret);
		return -1;
	}
	return 0;
}

/* A write flowop with trimwrite= (fio's trimwrite, randtrimwrite): each
 * request's range is discarded (trim_range), then written, at the
 * offset a write would have (sequential, random, the random map), the
 * write counted in children[1] ("NAME.write"); the pair is one request
 * of the flowop (iobytes=, the linked fsync every N writes).  With
 * iodepth= on an asynchronous engine the writes stay in flight while the
 * next ranges are discarded (depth_submit).  No rate= (fsgauge io
 * refuses one with trimwrite). */
static enum flow_result do_trimwrite(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	struct wflow *c = &f->children[1];
	struct timing t;
	int64_t iosize, ret;
	uint64_t off;
	enum flow_result r = block_setup(wk, f, c, &s, &iosize);

	if (r != FR_OK)
		return r;
	if (f->dq && !s->ncfds)
		return depth_pass(wk, f, s, iosize, 1);
	off = rw_offset(wk, f, s, iosize, 1);
	if (trim_range(wk, f, s, (uint64_t)iosize, off, 1) < 0)
		return FR_ERROR;
	if (f->iodepth > 1)
		depth_seen(&c->st, 1);
	fill_for_write(wk, s, wk->buf, (size_t)iosize, off);
	op_begin(c, &t);
	ret = slot_rw(wk, s, 1, wk->buf, (size_t)iosize, off);
	op_end(wk, c, &t, 0, ret > 0 ? (uint64_t)ret : 0);
	if (ret < 0) {
		runner_op_error(wk, c, "write", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	entry_wrote(s, off, (uint64_t)ret);
	return unlikely(f->after) ? flow_after(wk, f, s, 1, (uint64_t)iosize) : FR_OK;
}

/* rwmix: one read or write (a read with probability readpct percent),
 * counted in the flowop's read or write child; sequential reads and
 * writes share one offset, which wraps at the end of the working set
 * (the file's size, or wss=), writes included.  With iodepth= on an
 * asynchronous engine every request picks its own direction. */
static enum flow_result do_rwmix(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	struct wflow *c;
	struct timing t;
	int64_t iosize, ret;
	uint64_t off;
	int write;
	enum flow_result r = block_setup(wk, f, f, &s, &iosize);

	if (r != FR_OK)
		return r;
	if (f->dq && !s->ncfds)
		return depth_pass(wk, f, s, iosize, -1);
	write = mix_pick(wk, f);
	c = rw_acct(f, write);
	if (f->iodepth > 1)
		depth_seen(&c->st, 1);
	off = rw_offset(wk, f, s, iosize, 0);
	if (write)
		fill_for_write(wk, s, wk->buf, (size_t)iosize, off);
	if (unlikely(c->st.split)) {
		ret = rw_split(wk, c, s, write, wk->buf, (size_t)iosize, off);
	} else {
		op_begin(c, &t);
		ret = slot_rw(wk, s, write, wk->buf, (size_t)iosize, off);
		op_end(wk, c, &t, !write && ret > 0 ? (uint64_t)ret : 0,
		       write && ret > 0 ? (uint64_t)ret : 0);
	}
	if (ret < 0) {
		runner_op_error(wk, c, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	if (write)
		entry_wrote(s, off, (uint64_t)ret);
	else if (verifying(wk) && check_read(wk, c, s, wk->buf, off, (size_t)ret))
		return FR_ERROR;
	return unlikely(f->after) ? flow_after(wk, f, s, write, (uint64_t)iosize) : FR_OK;
}

/* readback: check the n bytes read at off of entry e (the bytes of
 * `len` asked for), whole blocks written there: each must be the block
 * of its offset and of that file, intact; zeros (a hole) or the file's
 * end where a block was written are verify errors too.  Returns how many
 * were bad (each reported). */
static int readback_check(struct worker *wk, struct wflow *f, struct fd_slot *s, uint64_t e,
			  const void *buf, uint64_t off, size_t len, size_t n)
{
	int bad = 0;

	for (size_t o = 0; o + DATA_BLOCK <= len; o += DATA_BLOCK) {
		struct verify_mismatch m;
		enum verify_what w;

		if (o + DATA_BLOCK > n) {
			/* (reported once: the blocks after it are missing too) */
			memset(&m, 0, sizeof(m));
			m.what = VERIFY_SHORT;
			m.offset = off + o;
			m.found = off + n;
			report_mismatch(wk, f, s, &m);
			return bad + 1;
		}
		w = verify_block((const char *)buf + o, off + o, e, NULL, &m);
		if (w == VERIFY_OK)
			continue;
		if (w == VERIFY_HOLE) {
			m.what = VERIFY_HOLE;
			m.offset = off + o;
		}
		report_mismatch(wk, f, s, &m);
		bad++;
	}
	return bad;
}

/* A read flowop with readback= (fsgauge io's verify read-back): the next
 * run of written blocks of its fileset's written map (fileset.h), in
 * entry then offset order within the working set [base, base + wss),
 * a run ending where the iosize-long pieces from base do (a written
 * request of the job's block size is read back as one), read as one
 * timed request and checked (readback_check: a bad block is a verify
 * error, and the read-back goes on).  Its entries are opened as they
 * come (rot_open, untimed; one descriptor at a time).  FR_DONE when
 * every written block has been read: the thread is done. */
static enum flow_result do_readback(struct worker *wk, struct wflow *f)
{
	struct rt_fileset *fs = f->fs;
	uint64_t n = fs && fs->n ? fs->n : 1;
	uint64_t lo = f->base / DATA_BLOCK;
	uint64_t piece = MAX(verify_align_up((uint64_t)MAX(f->iosize, 1)) / DATA_BLOCK, 1);
	uint64_t hi, b, end, limit, off, len;
	struct fd_slot *s;
	struct timing t;
	enum flow_result r;
	int64_t ret;

	if (!fs || !fs->wmap || !f->rot || f->wss <= 0)
		return FR_DONE;
	hi = verify_align_up(f->base + (uint64_t)f->wss) / DATA_BLOCK;
	if (!f->rb_started) {
		f->rb_block = lo;
		f->rb_started = 1;
	}
	for (b = f->rb_block;; b = lo) {
		if (f->rb_entry >= n)
			return FR_DONE;
		b = fileset_wmap_next(fs, f->rb_entry, b, hi);
		if (b < hi)
			break;
		f->rb_entry++;
	}
	limit = MIN(lo + ((b - lo) / piece + 1) * piece, hi);
	for (end = b + 1; end < limit && fileset_wmap_next(fs, f->rb_entry, end, end + 1) == end;)
		end++;
	f->rb_block = end;
	r = rot_open(wk, f, f->rb_entry, &s);
	if (r != FR_OK)
		return r;
	off = b * DATA_BLOCK;
	len = (end - b) * DATA_BLOCK;
	if (ensure_buf(wk, (size_t)len) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	if (unlikely(f->st.split)) {
		ret = rw_split(wk, f, s, 0, wk->buf, (size_t)len, off);
	} else {
		op_begin(f, &t);
		ret = slot_rw(wk, s, 0, wk->buf, (size_t)len, off);
		op_end(wk, f, &t, ret > 0 ? (uint64_t)ret : 0, 0);
	}
	if (ret < 0) {
		runner_op_error(wk, f, "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	/* a bad block is counted and reported (and stops the run under
	 * --on-error=stop); the read-back goes on with the next, so that
	 * every block written is checked */
	readback_check(wk, f, s, f->rb_entry, wk->buf, off, (size_t)len, (size_t)ret);
	return FR_OK;
}

static enum flow_result do_append(struct worker *wk, struct wflow *f, int rand)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct timing t;
	int64_t iosize, ret;

	if (r != FR_OK)
		return r;
	iosize = flow_iosize(wk, f);
	if (rand)
		iosize = 1 + (int64_t)rng_below(&wk->rng, (uint64_t)iosize);
	if (verifying(wk))
		iosize = (int64_t)verify_align_up((uint64_t)iosize);
	if (ensure_buf(wk, (size_t)iosize) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	if (!verifying(wk))
		data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, (size_t)iosize);
	struct io_req seek = { .op = IO_LSEEK, .fd = s->fd, .off = 0, .flags = SEEK_END };
	op_begin(f, &t);
	if (s->ncfds) /* a chunked file ends where our writes left it */
		ret = (int64_t)__atomic_load_n(&s->fs->e[s->idx].cur, __ATOMIC_RELAXED);
	else
		ret = engine_exec(wk->eng, &seek);
	if (ret >= 0) {
		/* under --verify the blocks name their offset, known only
		 * now: stamping is inside the timed window there */
		if (verifying(wk)) {
			ret = (int64_t)verify_align_up((uint64_t)ret);
			fill_for_write(wk, s, wk->buf, (size_t)iosize, (uint64_t)ret);
		}
		uint64_t at = (uint64_t)ret;

		ret = slot_rw(wk, s, 1, wk->buf, (size_t)iosize, at);
		if (ret >= 0)
			entry_grow(s, at + (uint64_t)ret);
	}
	op_end(wk, f, &t, 0, ret > 0 ? (uint64_t)ret : 0);
	if (ret < 0) {
		runner_op_error(wk, f, "append", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

static enum flow_result do_wholefile(struct worker *wk, struct wflow *f, int write)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct timing t;
	int64_t iosize, ret = 0;
	uint64_t size, done = 0, start = 0;

	if (r != FR_OK)
		return r;
	if (write) {
		/* size of the file in slot srcfd= (copyfiles), else the entry's */
		struct fd_slot *src = NULL;
		int64_t sfd = wl_val_int(&f->fo->srcfd, NULL, -1);

		if (sfd >= 0 && sfd < FD_SLOTS && wk->fds[sfd].fs)
			src = &wk->fds[sfd];
		if (src)
			size = slot_wss(f, src);
		else if (wl_val_int(&f->fo->wss, NULL, 0) > 0)
			size = (uint64_t)wl_val_int(&f->fo->wss, NULL, 0);
		else
			size = s->fs && s->idx >= 0 ? s->fs->e[s->idx].size : 0;
	} else {
		size = slot_wss(f, s);
	}
	iosize = wl_val_int(&f->fo->iosize, &wk->rng, 0);
	if (iosize <= 0)
		iosize = size ? (int64_t)MIN(size, (uint64_t)1 << 20) : 1;
	if (verifying(wk)) {
		iosize = (int64_t)verify_align_up((uint64_t)iosize);
		size = verify_align_up(size);
	}
	if (ensure_buf(wk, (size_t)iosize) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	ret = sb_flush(wk, s);
	if (ret < 0) {
		runner_op_error(wk, f, "write", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	/* resume: complete a partly written file from its current size */
	if (write && wl_val_bool(&f->fo->resume, 0) && s->fs && s->idx >= 0)
		start = MIN(__atomic_load_n(&s->fs->e[s->idx].cur, __ATOMIC_RELAXED), size);
	done = start;
	op_begin(f, &t);
	while (done < size) {
		size_t n = (size_t)MIN((uint64_t)iosize, size - done);

		/* Stamping costs a few ns per 4 KiB; it stays inside the
		 * whole-file operation rather than splitting its timing. */
		if (write)
			fill_for_write(wk, s, wk->buf, n, done);
		ret = slot_rw(wk, s, write, wk->buf, n, done);
		if (!write && ret > 0 && verifying(wk) &&
		    check_read(wk, f, s, wk->buf, done, (size_t)ret)) {
			op_end(wk, f, &t, done + (uint64_t)ret, 0);
			return FR_ERROR;
		}
		if (ret <= 0)
			break;
		done += (uint64_t)ret;
	}
	op_end(wk, f, &t, write ? 0 : done, write ? done - start : 0);
	if (ret < 0) {
		runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	if (write)
		entry_grow(s, done);
	return FR_OK;
}

/* The slot's user-space buffer for putc/getc (the one bufsize= uses): of
 * bufsize= bytes if given, else iosize (under --verify rounded up to
 * whole blocks, so that every refill can be checked); allocated on first
 * use on the open file and kept until it is closed (aligned for
 * O_DIRECT). */
static struct stdio_buf *slot_sb(struct worker *wk, struct wflow *f, struct fd_slot *s,
				 size_t iosize)
{
	struct stdio_buf *b = s->sb;

	if (b)
		return b;
	b = xcalloc(1, sizeof(*b));
	b->size = f->bufsize ? (size_t)f->bufsize : iosize;
	if (verifying(wk))
		b->size = (size_t)verify_align_up(b->size);
	if (posix_memalign((void **)&b->buf, 4096, b->size)) {
		free(b);
		return NULL;
	}
	b->off = s->off;
	s->sb = b;
	return b;
}

/* A character into the buffer, as stdio's putc() does it: a call, a
 * bounds check and a store per character.  Out of line, so that the
 * compiler cannot turn the character loop into one memcpy and the
 * operation measures per-character work as bonnie++'s does. */
static __attribute__((noinline)) void sb_putc(struct stdio_buf *b, unsigned char c)
{
	if (likely(b->len < b->size))
		b->buf[b->len++] = (char)c;
}

/* A character out of the buffer, as stdio's getc() does it. */
static __attribute__((noinline)) int sb_getc(struct stdio_buf *b)
{
	if (likely(b->pos < b->len))
		return (unsigned char)b->buf[b->pos++];
	return -1;
}

/* putc: iosize characters of the run's data, one at a time, into the
 * slot's buffer; each time it is full it is written through the engine
 * at the stream position.  One timed operation per call, which counts the
 * characters it put. */
static enum flow_result do_putc(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct stdio_buf *b;
	struct timing t;
	int64_t iosize, ret = 0;
	const unsigned char *src;

	if (r != FR_OK)
		return r;
	iosize = flow_iosize(wk, f);
	if (ensure_buf(wk, (size_t)iosize) < 0 || !(b = slot_sb(wk, f, s, (size_t)iosize))) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	if (!b->dirty) { /* was reading: go on from the stream position */
		b->off += b->pos;
		b->len = b->pos = 0;
		b->dirty = 1;
	}
	/* under --verify the characters are those of self-checking blocks
	 * at the stream position, whatever iosize */
	if (!verifying(wk))
		data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, (size_t)iosize);
	else if (stream_stamp(wk, s, b, wk->buf, (size_t)iosize, b->off + b->len) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	src = wk->buf;
	op_begin(f, &t);
	for (size_t i = 0; i < (size_t)iosize; i++) {
		sb_putc(b, src[i]);
		if (b->len == b->size && (ret = sb_flush(wk, s)) < 0)
			break;
	}
	op_end(wk, f, &t, 0, ret < 0 ? 0 : (uint64_t)iosize);
	s->off = b->off + b->len;
	if (ret < 0) {
		runner_op_error(wk, f, "write", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

/* getc: iosize characters, one at a time, out of the slot's buffer; each
 * time it is empty it is refilled through the engine from the stream
 * position (wrapping at the end of the file).  One timed operation per
 * call, which counts the characters it got. */
static enum flow_result do_getc(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct stdio_buf *b;
	struct timing t;
	int64_t iosize, ret = 0;
	uint64_t wss;
	unsigned sink = 0;
	size_t i;
	int bad = 0;

	if (r != FR_OK)
		return r;
	iosize = flow_iosize(wk, f);
	if (!(b = slot_sb(wk, f, s, (size_t)iosize))) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	if (b->dirty) { /* was writing: flush, then read on from there */
		ret = sb_flush(wk, s);
		b->dirty = 0;
		if (ret < 0) {
			runner_op_error(wk, f, "write", slot_path(wk, s), (int)ret);
			return FR_ERROR;
		}
	}
	wss = slot_wss(f, s);
	op_begin(f, &t);
	for (i = 0; i < (size_t)iosize; i++) {
		if (b->pos == b->len) {
			b->off += b->len;
			if (wss && b->off >= wss)
				b->off = 0;
			b->len = b->pos = 0;
			ret = slot_rw(wk, s, 0, b->buf, b->size, b->off);
			if (ret <= 0)
				break;
			b->len = (size_t)ret;
			/* the characters about to be got are checked as the
			 * blocks they come in (whole blocks of the buffer) */
			if (verifying(wk) && check_read(wk, f, s, b->buf, b->off, b->len)) {
				ret = 0;
				bad = 1;
				break;
			}
		}
		sink += (unsigned)sb_getc(b);
	}
	op_end(wk, f, &t, i, 0);
	s->off = b->off + b->pos;
	wk->char_sink += sink;
	if (bad)
		return FR_ERROR;
	if (i < (size_t)iosize) {
		runner_op_error(wk, f, "read", slot_path(wk, s), ret < 0 ? (int)ret : -ENODATA);
		return FR_ERROR;
	}
	return FR_OK;
}

/* rewrite: read iosize bytes at the next sequential offset (or, with
 * random, a random aligned one), dirty one byte and write the block back
 * where it came from, as one timed operation; with value=N only every
 * N-th operation writes back (the first does), the others only read:
 * bonnie++'s rewrite test (N = 1) and its seeks (N = 10).
 *
 * Under --verify (whole blocks, as every data operation): the blocks
 * read are checked, and "dirtying" them is stamping them anew with a
 * new generation (new header and content, so the write-back really
 * changes every block, and a file system that skips identical rewrites
 * cannot); a block that failed is not written back.  On a file several
 * threads share (bonnie's seekers) the read and write-back hold the
 * range's stripe locks, so that no read sees another thread's write-back
 * half done and every read can be checked -- unless another kind of write,
 * which takes no lock, reached the file in the phase (fs->plain_writes). */
static enum flow_result do_rewrite(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct timing t;
	int64_t iosize, every, ret, w = 0;
	uint64_t off, wss;
	int update, verify = verifying(wk), locked = 0, bad = 0;
	void *wbuf;

	if (r != FR_OK)
		return r;
	iosize = flow_iosize(wk, f);
	if (verify)
		iosize = (int64_t)verify_align_up((uint64_t)iosize);
	/* under --verify the blocks to write back go in the buffer's second
	 * half, stamped before the clock starts */
	if (ensure_buf(wk, (size_t)iosize * (verify ? 2 : 1)) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	wbuf = verify ? (char *)wk->buf + iosize : wk->buf;
	every = wl_val_int(&f->fo->value, NULL, 1);
	if (every < 1)
		every = 1;
	update = f->nexec++ % (uint64_t)every == 0;
	wss = slot_wss(f, s);
	if (f->random) {
		uint64_t blocks = wss >= (uint64_t)iosize ? wss / (uint64_t)iosize : 1;

		off = rng_below(&wk->rng, blocks) * (uint64_t)iosize;
	} else {
		off = s->off;
		if (wss && off + (uint64_t)iosize > wss)
			off = 0;
		s->off = off + (uint64_t)iosize;
	}
	if (verify) {
		off = verify_align_down(off);
		locked = slot_shared(s);
		if (update)
			verify_stamp(wbuf, (size_t)iosize, off, s->idx >= 0 ? (uint64_t)s->idx : 0,
				     ++wk->generation, rng_next(&wk->rng));
	}
	if (locked)
		vlock_range(wk->rn, off, (uint64_t)iosize, 1);
	op_begin(f, &t);
	ret = slot_rw(wk, s, 0, wk->buf, (size_t)iosize, off);
	if (ret > 0 && verify && (!locked || !__atomic_load_n(&s->fs->plain_writes, __ATOMIC_SEQ_CST)))
		bad = check_blocks(wk, f, s, wk->buf, off, (size_t)ret);
	if (ret > 0 && update && !bad) {
		if (!verify)
			((unsigned char *)wk->buf)[f->nexec % (uint64_t)ret]++;
		w = slot_rw_raw(wk, s, 1, wbuf, (size_t)ret, off);
	}
	op_end(wk, f, &t, ret > 0 ? (uint64_t)ret : 0, w > 0 ? (uint64_t)w : 0);
	if (locked)
		vlock_range(wk->rn, off, (uint64_t)iosize, 0);
	if (ret < 0 || w < 0) {
		runner_op_error(wk, f, ret < 0 ? "read" : "write", slot_path(wk, s),
				(int)(ret < 0 ? ret : w));
		return FR_ERROR;
	}
	return bad ? FR_ERROR : FR_OK;
}

static ALWAYS_INLINE enum flow_result do_openfile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);

	if (s->fd >= 0) /* a previous iteration left it open: close first */
		slot_close(wk, s);
	return slot_open(wk, f, s, 1);
}

static ALWAYS_INLINE enum flow_result do_createfile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t idx, ret;
	int held;

	if (!fs) {
		runner_op_error(wk, f, "create", NULL, -EBADF);
		return FR_ERROR;
	}
	if (s->fd >= 0)
		slot_close(wk, s);
	/* A single file (`define file`) is shared, not held: createfile makes
	 * it anew (empty) whether or not it exists. */
	held = !fs->is_file;
	idx = held ? pick(wk, f, fs, PICK_NONEXISTENT) : 0;
	if (idx < 0)
		return FR_NORSC;
	op_begin(f, &t);
	ret = slot_open_fds(wk, s, fs, idx, open_flags(f, fs) | O_CREAT | O_TRUNC, 0644);
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		s->fd = -1;
		if (held)
			fileset_release(fs, (uint64_t)idx, 0);
		runner_op_error(wk, f, "create", wk->path, (int)ret);
		return FR_ERROR;
	}
	__atomic_store_n(&fs->e[idx].cur, 0, __ATOMIC_RELAXED);
	if (held) {
		fileset_set_exists(fs, (uint64_t)idx, 1); /* exists now, still held by us */
		held = SLOT_HELD;
		if (opens_shared(wk)) { /* ... and open, as any open file */
			fileset_open_held(fs, (uint64_t)idx);
			held = SLOT_OPEN;
		}
	} else if (fileset_claim(fs, (uint64_t)idx, PICK_NONEXISTENT)) {
		fileset_release(fs, (uint64_t)idx, 1); /* a single file: exists now, not held */
	}
	s->fs = fs;
	s->idx = idx;
	s->held = held;
	s->off = 0;
	slot_opened(wk, f, s, 1);
	return FR_OK;
}

static ALWAYS_INLINE enum flow_result do_closefile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);
	struct timing t;
	int64_t ret;

	if (s->fd < 0)
		return FR_OK; /* nothing open: filebench treats this as a no-op too */
	aio_drain_fd(wk, s->fd);
	int64_t fr;

	op_begin(f, &t);
	fr = sb_flush(wk, s); /* fclose writes what the buffer holds */
	ret = slot_close_fds(wk, s);
	op_end(wk, f, &t, 0, 0);
	/* Linux releases the descriptor even when close() says EINTR: it
	 * must not be retried (it could close someone else's), and the
	 * interruption is not an error of the storage */
	if (ret == -EINTR)
		ret = 0;
	if (fr < 0)
		runner_op_error(wk, f, "write", slot_path(wk, s), (int)fr);
	else if (ret < 0)
		runner_op_error(wk, f, "close", slot_path(wk, s), (int)ret);
	if (fr < 0)
		ret = fr;
	slot_release(s, 1);
	return ret < 0 ? FR_ERROR : FR_OK;
}

static ALWAYS_INLINE enum flow_result do_path_op(struct worker *wk, struct wflow *f, enum io_op op)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t idx, ret;
	int held = 1;
	int exists_after = 1;

	if (op == IO_UNLINK && f->fd_given) {
		/* deletefile fd=N: the file last open on slot N */
		struct fd_slot *s = fd_slot_of(wk, f);

		if (s->fd >= 0)
			slot_close(wk, s);
		fs = s->last_fs;
		if (!fs || s->last_idx < 0 || !fileset_claim(fs, (uint64_t)s->last_idx, PICK_EXISTING))
			return FR_NORSC;
		idx = s->last_idx;
		s->last_fs = NULL;
	} else if (op == IO_STAT && f->fd_given) {
		/* statfile fd=N: stat, by its path, the file open in slot N */
		struct fd_slot *s = fd_slot_of(wk, f);

		if (s->fd < 0 || !s->fs || s->idx < 0)
			return FR_NORSC;
		fs = s->fs;
		idx = s->idx;
		held = 0; /* the slot holds it */
	} else if (!fs) {
		runner_op_error(wk, f, io_op_name(op), NULL, -EBADF);
		return FR_ERROR;
	} else if (op == IO_MKDIR) {
		idx = pick(wk, f, fs, PICK_NONEXISTENT);
	} else if (op == IO_STAT) {
		/* (with no free file, one others have open: filebench stats
		 * open files too) */
		idx = pick_existing(wk, f, fs, &held);
	} else {
		idx = pick(wk, f, fs, PICK_EXISTING);
	}
	if (idx < 0)
		return FR_NORSC;
	struct stat sb;
	struct io_req q = { .op = op, .path = entry_path(wk, fs, idx, wk->path), .mode = 0755,
			    .st = &sb };
	q.dirfd = fileset_at(fs, fs->rootfd, &q.path);
	op_begin(f, &t);
	if (!fs->chunk) {
		ret = engine_exec_full(wk->eng, &q);
	} else { /* every chunk file of a chunked file, as one operation */
		ret = 0;
		for (unsigned c = 0; c < fs->nchunks && ret >= 0; c++) {
			ret = fileset_chunk_path(fs, c, wk->path, sizeof(wk->path));
			if (ret >= 0)
				ret = engine_exec_full(wk->eng, &q);
		}
	}
	int64_t dret = 0; /* dirsync= (not for stat): the directory, in the same window */

	if (unlikely(f->dirsync) && ret >= 0 && op != IO_STAT)
		dret = entry_dir_fsync(wk, fs, idx);
	op_end(wk, f, &t, 0, 0);
	switch (op) {
	case IO_UNLINK:
	case IO_RMDIR:
		exists_after = ret < 0;
		if (ret >= 0)
			__atomic_store_n(&fs->e[idx].cur, 0, __ATOMIC_RELAXED);
		break;
	case IO_MKDIR:
		exists_after = ret >= 0;
		break;
	default:
		break;
	}
	if (held == SLOT_OPEN)
		fileset_close(fs, (uint64_t)idx);
	else if (held)
		fileset_release(fs, (uint64_t)idx, exists_after);
	if (ret < 0) {
		runner_op_error(wk, f, io_op_name(op), wk->path, (int)ret);
		return FR_ERROR;
	}
	if (dret < 0) {
		runner_op_error(wk, f, "fsync directory", wk->path2, (int)dret);
		return FR_ERROR;
	}
	return FR_OK;
}

static enum flow_result do_renamefile(struct worker *wk, struct wflow *f)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t from, to, ret;

	if (!fs || fs->is_file) {
		runner_op_error(wk, f, "rename", NULL, -EINVAL);
		return FR_ERROR;
	}
	from = fileset_pick(fs, PICK_EXISTING, &wk->rng);
	if (from < 0)
		return FR_NORSC;
	to = fileset_pick(fs, PICK_NONEXISTENT, &wk->rng);
	if (to < 0) {
		fileset_release(fs, (uint64_t)from, 1);
		return FR_NORSC;
	}
	struct io_req q = { .op = IO_RENAME, .path = entry_path(wk, fs, from, wk->path),
			    .path2 = entry_path(wk, fs, to, wk->path2) };
	/* both entries are below the one directory */
	q.dirfd = fileset_at(fs, fs->rootfd, &q.path);
	fileset_at(fs, fs->rootfd, &q.path2);
	op_begin(f, &t);
	ret = engine_exec_full(wk->eng, &q);
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		fileset_release(fs, (uint64_t)to, 0);
		fileset_release(fs, (uint64_t)from, 1);
		runner_op_error(wk, f, "rename", wk->path, (int)ret);
		return FR_ERROR;
	}
	__atomic_store_n(&fs->e[to].cur, __atomic_load_n(&fs->e[from].cur, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	fs->e[to].size = fs->e[from].size;
	fileset_release(fs, (uint64_t)to, 1);
	fileset_release(fs, (uint64_t)from, 0);
	return FR_OK;
}

static enum flow_result do_listdir(struct worker *wk, struct wflow *f)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t ret;

	if (!fs) {
		runner_op_error(wk, f, "listdir", NULL, -EBADF);
		return FR_ERROR;
	}
	/* A random directory of the fileset's tree: the fileset's own
	 * directory or one of its intermediate directories. */
	uint64_t d = rng_below(&wk->rng, fs->ndirs + 1);
	if (d == fs->ndirs)
		snprintf(wk->path, sizeof(wk->path), "%s", fs->relpath);
	else
		fileset_dir_path(fs, d, wk->path, sizeof(wk->path));
	struct io_req q = { .op = IO_LISTDIR, .dirfd = fs->rootfd, .path = wk->path };
	op_begin(f, &t);
	ret = engine_exec_full(wk->eng, &q);
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, f, "listdir", wk->path, (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

static enum flow_result do_fsync(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	struct timing t;
	int64_t ret;

	if (f->sync_linked)
		return FR_OK; /* run by its write flowop (flow_after, worker_run) */
	if (f->fd_slot)
		s = fd_slot_of(wk, f);
	else
		s = &f->priv;
	if (s->fd < 0) {
		enum flow_result r = f->fs ? slot_open(wk, f, s, 0) : FR_NORSC;

		if (r != FR_OK)
			return r;
	}
	op_begin(f, &t);
	ret = sb_flush(wk, s); /* fflush before fsync, as -e does with stdio */
	if (ret >= 0)
		ret = slot_fsync(wk, s);
	const char *dir = NULL; /* set when the directory's fsync failed */

	if (ret >= 0 && f->dirsync && s->fs && !s->fs->def->has_device) {
		ret = entry_dir_fsync(wk, s->fs, s->idx);
		dir = ret < 0 ? wk->path2 : NULL;
	}
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, f, dir ? "fsync directory" : "fsync", dir ? dir : slot_path(wk, s),
				(int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

/* syncfs: flush the file system that holds the fileset's directory (or,
 * without filesetname=, the run directory): everything written to it, by
 * anyone, as bonnie++'s sync() at the end of its create and delete tests
 * but only that file system. */
static enum flow_result do_syncfs(struct worker *wk, struct wflow *f)
{
	struct io_req q = { .op = IO_SYNCFS, .fd = wk->rn->dirfd };
	struct timing t;

	if (f->fs) /* its own directory, else its target's run directory */
		q.fd = f->fs->dirfd >= 0 ? f->fs->dirfd : f->fs->rootfd;
	op_begin(f, &t);
	int64_t ret = engine_exec_full(wk->eng, &q);

	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, f, "syncfs", f->fs ? f->fs->relpath : ".", (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

static enum flow_result do_fsyncset(struct worker *wk, struct wflow *f)
{
	struct timing t;
	int64_t ret = 0;
	int idx = -1;

	op_begin(f, &t);
	for (int i = 0; i < FD_SLOTS; i++) {
		struct fd_slot *s = &wk->fds[i];

		if (s->fd < 0 || (f->fs && s->fs != f->fs))
			continue;
		ret = slot_fsync(wk, s);
		if (ret < 0) {
			idx = i;
			break;
		}
	}
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, f, "fsync", slot_path(wk, &wk->fds[idx]), (int)ret);
		return FR_ERROR;
	}
	return FR_OK;
}

/* Finish a completed asynchronous write: a short one, or one that met
 * EINTR/EAGAIN, is completed synchronously from where it stopped (a
 * partial transfer is not an error); a real error is reported with the
 * file's path. */
static void aio_complete(struct worker *wk, struct aio_slot *a)
{
	struct io_req *q = &a->req;
	int64_t res = q->res;

	if (res == -EINTR || res == -EAGAIN || (res >= 0 && (size_t)res < q->len)) {
		size_t done = res > 0 ? (size_t)res : 0;
		struct io_req rest = { .op = IO_WRITE, .fd = q->fd, .buf = (char *)q->buf + done,
				       .len = q->len - done, .off = q->off + done };

		res = engine_exec_full(wk->eng, &rest);
	}
	if (res < 0) {
		const char *path = NULL;

		if (a->fs && a->idx >= 0)
			path = entry_path(wk, a->fs, a->idx, wk->path2);
		__atomic_store_n(&a->st->bytes_written,
				 a->st->bytes_written - MIN(a->st->bytes_written, (uint64_t)q->len),
				 __ATOMIC_RELAXED);
		runner_op_error(wk, a->f, "aiowrite", path, (int)res);
	} else if (a->fs && a->idx >= 0) {
		entry_grow_at(a->fs, a->idx, q->off + q->len);
	}
	a->busy = 0;
	wk->aio_inflight--;
}

/* iodepth=: the operation of a completed request, `lat` ns after it was
 * issued, of which `slat` until its submission call returned and `clat`
 * from then to its reap (no CPU sample: the thread did other work
 * meanwhile). */
static void depth_account(struct worker *wk, struct wflow *f, uint64_t lat, uint64_t slat,
			  uint64_t clat, uint64_t rbytes, uint64_t wbytes)
{
	struct op_stats *st = &f->st;

	STAT_BEGIN(st);
	op_count(wk, st, lat, rbytes, wbytes, 0);
	if (st->split)
		split_add(st, slat, clat);
}

/* Finish a completed request of an iodepth= flowop, reaped at op_clock()
 * `now`: a short transfer, or one that met EINTR/EAGAIN, is completed
 * synchronously from where it stopped (a read up to the end of the file);
 * then it counts as one operation, and an error goes the way of every
 * operation error (runner_op_error). */
static void depth_complete(struct worker *wk, struct depth_slot *d, uint64_t now)
{
	struct io_req *q = &d->req;
	struct wflow *f = d->f;
	struct depth_q *dq = f->dq;
	int write = q->op == IO_WRITE;
	struct wflow *c = rw_acct(f, write);
	int64_t res = q->res;
	uint64_t lat, slat, clat;

	if (res == -EINTR || res == -EAGAIN || (res > 0 && (size_t)res < q->len)) {
		size_t done = res > 0 ? (size_t)res : 0;
		struct io_req rest = { .op = q->op, .fd = q->fd, .buf = (char *)q->buf + done,
				       .len = q->len - done, .off = q->off + done };
		int64_t r = engine_exec_full(wk->eng, &rest);

		res = r < 0 ? r : (int64_t)(done + (size_t)r);
		now = op_clock();
	}
	op_clock_split(d->t0, d->ts, now, &lat, &slat, &clat);
	depth_account(wk, c, lat, slat, clat, !write && res > 0 ? (uint64_t)res : 0,
		      write && res > 0 ? (uint64_t)res : 0);
	if (res < 0) {
		const char *path = NULL;

		if (d->fs && d->idx >= 0)
			path = entry_path(wk, d->fs, d->idx, wk->path2);
		runner_op_error(wk, c, write ? "write" : "read", path, (int)res);
		dq->failed = 1;
	} else if (write && d->fs && d->idx >= 0) {
		entry_grow_at(d->fs, d->idx, q->off + (uint64_t)res);
		if (unlikely(d->fs->wmap))
			fileset_wmap_mark(d->fs, (uint64_t)d->idx, q->off, (uint64_t)res);
	}
	dq->free[dq->nfree++] = d->i;
	dq->inflight--;
	wk->depth_inflight--;
}

/* Reap at least `min` completions of the worker's requests in flight
 * (aiowrite's and iodepth= flowops'); how many, or -errno. */
static ALWAYS_INLINE int inflight_reap_n(struct worker *wk, unsigned min, unsigned max)
{
	struct io_req *done[AIO_DEPTH];
	int n = engine_reap(wk->eng, done, MIN(min, AIO_DEPTH), MIN(max, AIO_DEPTH));
	uint64_t now = n > 0 ? op_clock() : 0;

	for (int i = 0; i < n; i++) {
		const int *kind = done[i]->user;

		if (*kind == INFLIGHT_DEPTH)
			depth_complete(wk, done[i]->user, now);
		else
			aio_complete(wk, done[i]->user);
	}
	return n;
}

static int inflight_reap(struct worker *wk, unsigned min)
{
	return inflight_reap_n(wk, min, AIO_DEPTH);
}

/* reap_min=, reap_max= (fio's iodepth_batch_complete_min and _max): with
 * the flowop's queue full, wait for at least reap_min completions (the
 * engine waits for no more than it has in flight) and take at most
 * reap_max (0: as many as are there, up to AIO_DEPTH a call); how many,
 * or -errno. */
static __attribute__((noinline)) int depth_reap_batch(struct worker *wk, struct wflow *f)
{
	unsigned max = f->reap_max ? f->reap_max : AIO_DEPTH, got = 0;

	while (got < max) {
		unsigned need = f->reap_min > got ? f->reap_min - got : 0;
		int n = inflight_reap_n(wk, need, max - got);

		if (n < 0)
			return got ? (int)got : n;
		got += (unsigned)n;
		if (got >= f->reap_min || !n)
			break;
	}
	return (int)got;
}

void worker_drain_aio(struct worker *wk)
{
	while (wk->aio_inflight || wk->depth_inflight)
		if (inflight_reap(wk, wk->aio_inflight + wk->depth_inflight) <= 0)
			break;
}

/* Before a descriptor is closed, wait for the asynchronous requests on
 * it: completing a short one later would go through a descriptor number
 * that may by then belong to another file. */
HOT static void aio_drain_fd(struct worker *wk, int fd)
{
	if (fd < 0)
		return;
	if (wk->depth_inflight) {
		/* (the requests of iodepth= flowops: any on fd drains all) */
		worker_drain_aio(wk);
		return;
	}
	for (int i = 0; i < AIO_DEPTH && wk->aio_inflight; i++)
		if (wk->aio[i].busy && wk->aio[i].req.fd == fd) {
			worker_drain_aio(wk);
			return;
		}
}

int depth_q_init(struct wflow *f)
{
	struct depth_q *q = xcalloc(1, sizeof(*q));

	q->nslot = q->depth = f->iodepth;
	q->slot = xcalloc(q->nslot, sizeof(*q->slot));
	q->free = xcalloc(q->nslot, sizeof(*q->free));
	q->queued = xcalloc(q->nslot, sizeof(*q->queued));
	q->batch = MAX(f->iodepth_batch, 1);
	for (unsigned i = 0; i < q->nslot; i++) {
		q->slot[i].kind = INFLIGHT_DEPTH;
		q->slot[i].i = i;
		q->free[i] = q->nslot - 1 - i;
	}
	q->nfree = q->nslot;
	f->dq = q;
	return 0;
}

/* After worker_drain_aio(): nothing of the queue is in flight. */
void depth_q_free(struct wflow *f)
{
	struct depth_q *q = f->dq;

	if (!q)
		return;
	for (unsigned i = 0; i < q->nslot; i++)
		free(q->slot[i].buf);
	free(q->slot);
	free(q->free);
	free(q->queued);
	free(q);
	f->dq = NULL;
}

/* iodepth_batch=: push the flowop's queued requests to the kernel with
 * one engine_flush(); the clock read as it returns is the submission
 * time of all of them (their latency runs from each one's issue, before
 * it was queued).  A refusal for lack of resources keeps them queued for
 * the next reap (which pushes first: their submission time is then this
 * flush's); 0 or -errno. */
static int depth_flush(struct worker *wk, struct depth_q *q)
{
	uint64_t now;
	int ret;

	if (!q->nqueued)
		return 0;
	ret = engine_flush(wk->eng);
	now = op_clock();
	for (unsigned i = 0; i < q->nqueued; i++)
		q->slot[q->queued[i]].ts = now;
	q->nqueued = 0;
	return ret == -EAGAIN ? 0 : ret;
}

/* Submit (iodepth_batch=1) or queue a request (depth_submit flushes once
 * a batch is queued), issued at d->t0; a submitted one's submission time
 * is when engine_submit() returns.  0 or -errno (-EAGAIN: the engine is
 * full). */
static int depth_push(struct worker *wk, struct depth_q *q, struct depth_slot *d)
{
	int ret;

	if (q->batch <= 1) {
		ret = engine_submit(wk->eng, &d->req);
		d->ts = op_clock();
		return ret;
	}
	ret = engine_queue(wk->eng, &d->req);
	if (ret < 0)
		return ret;
	q->queued[q->nqueued++] = d->i;
	return 0;
}

/* trimwrite at depth: the flowop's writes queued and not pushed go to
 * the kernel first (fio's engines push theirs before a trim), then the
 * trim, synchronous, with the writes in flight.  0 or -1 after the error
 * is reported. */
static __attribute__((noinline)) int depth_trim(struct worker *wk, struct wflow *f,
						 struct fd_slot *s, int64_t iosize, uint64_t off)
{
	struct depth_q *q = f->dq;
	int ret = depth_flush(wk, q);

	if (ret < 0) {
		runner_op_error(wk, rw_acct(f, 1), "write", slot_path(wk, s), ret);
		return -1;
	}
	return trim_range(wk, f, s, (uint64_t)iosize, off, q->inflight + 1);
}

/* iodepth=: hand the engine one more request of the flowop (iosize
 * bytes, at the offset rw_offset() picks; write -1: an rwmix's, of the
 * direction it picks).  1 for a write, 0 for a read, -1 after an error
 * (reported). */
static int depth_submit(struct worker *wk, struct wflow *f, struct fd_slot *s, int64_t iosize,
			int write)
{
	struct depth_q *q = f->dq;
	/* taken off the idle list now: a reap below may put others back */
	struct depth_slot *d = &q->slot[q->free[--q->nfree]];
	uint64_t off;
	int ret;

	if (d->cap < (size_t)iosize) {
		free(d->buf);
		d->cap = 0;
		if (posix_memalign(&d->buf, 4096, (size_t)iosize)) {
			d->buf = NULL;
			q->free[q->nfree++] = d->i;
			runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
			return -1;
		}
		d->cap = (size_t)iosize;
		data_fill(&wk->rn->o->data, &wk->rng, d->buf, d->cap);
		if (unlikely(d->buf_index)) {
			ret = engine_set_buffer(wk->eng, d->buf_index - 1, d->buf, d->cap);
			if (ret < 0) {
				q->free[q->nfree++] = d->i;
				runner_op_error(wk, f, "register buffer (fixedbufs)", NULL, ret);
				return -1;
			}
		}
	}
	if (write < 0) {
		write = mix_pick(wk, f);
		off = rw_offset(wk, f, s, iosize, 0); /* (one offset wrapping for both) */
	} else {
		off = rw_offset(wk, f, s, iosize, write);
	}
	if (unlikely(f->trimwrite) && depth_trim(wk, f, s, iosize, off) < 0) {
		q->free[q->nfree++] = d->i;
		return -1;
	}
	if (write) {
		fill_for_write(wk, s, d->buf, (size_t)iosize, off);
		note_plain_write(wk, s);
	}
	d->req = (struct io_req){ .op = write ? IO_WRITE : IO_READ, .fd = s->fd, .buf = d->buf,
				  .len = (size_t)iosize, .off = off, .buf_index = d->buf_index,
				  .user = d };
	d->f = f;
	d->fs = s->fs;
	d->idx = s->idx;
	/* (ts until a submission call returns: a request reaped without one
	 * counts as all completion) */
	d->t0 = d->ts = op_clock();
	ret = depth_push(wk, q, d);
	while (ret == -EAGAIN && (wk->depth_inflight || wk->aio_inflight)) {
		/* the engine holds fewer requests than asked (io_uring clamps
		 * its ring to the kernel's limit): from now on the flowop keeps
		 * as many in flight as it took; this one goes in once one of
		 * them is reaped */
		q->depth = MAX(q->inflight, 1);
		if (depth_flush(wk, q) < 0 || inflight_reap(wk, 1) < 0)
			break;
		d->t0 = d->ts = op_clock(); /* (issued again: the wait is not its latency) */
		ret = depth_push(wk, q, d);
	}
	if (ret < 0) {
		uint64_t lat = op_clock_ns(op_clock() - d->t0);

		q->free[q->nfree++] = d->i;
		/* (refused by the engine: all of it spent submitting) */
		depth_account(wk, rw_acct(f, write), lat, lat, 0, 0, 0);
		runner_op_error(wk, rw_acct(f, write), write ? "write" : "read", slot_path(wk, s), ret);
		return -1;
	}
	q->inflight++;
	wk->depth_inflight++;
	depth_seen(&rw_acct(f, write)->st, q->inflight);
	if (q->nqueued >= q->batch) {
		/* (the queued requests stay in flight: the drain reaps them) */
		ret = depth_flush(wk, q);
		if (ret < 0) {
			runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), ret);
			return -1;
		}
	}
	return write;
}

/* The linked fsync is due before a request at depth: the requests queued
 * and in flight complete first, so that the sync covers their writes.
 * FR_OK or FR_ERROR. */
static enum flow_result depth_sync(struct worker *wk, struct wflow *f, struct fd_slot *s)
{
	int ret = depth_flush(wk, f->dq);

	while (ret >= 0 && f->dq->inflight)
		if ((ret = inflight_reap(wk, 1)) == 0)
			break;
	if (ret < 0) {
		runner_op_error(wk, f, "write", slot_path(wk, s), ret);
		return FR_ERROR;
	}
	if (f->dq->failed)
		return FR_ERROR;
	return flow_sync(wk, f->syncer, s);
}

/* depth_pass: submit requests until iodepth are in flight, flushing what
 * is still queued at the end. */
static enum flow_result depth_fill(struct worker *wk, struct wflow *f, struct fd_slot *s,
				   int64_t iosize, int write)
{
	struct depth_q *q = f->dq;
	int ret;

	q->failed = 0;
	for (int first = 1; q->inflight < q->depth && !runner_stopping(wk->rn) && !flow_spent(f);
	     first = 0) {
		int wrote;

		/* rotate=: each request on the entry whose turn it is (the
		 * first one's: the caller's s) */
		if (f->rot && !first && rot_setup(wk, f, &s) != FR_OK)
			return FR_ERROR;
		if (unlikely(f->sync_pending)) {
			enum flow_result r = sync_before(wk, f, s, iosize);

			if (r == FR_DONE)
				break;
			if (r != FR_OK)
				return r;
		}
		wrote = depth_submit(wk, f, s, iosize, write);

		if (wrote < 0)
			return FR_ERROR;
		f->issued += (uint64_t)iosize;
		sync_note(f, s, wrote);
		if (!f->iosize)
			iosize = flow_iosize(wk, f);
	}
	ret = depth_flush(wk, q);
	if (ret < 0) {
		runner_op_error(wk, f, rw_what(write), slot_path(wk, s), ret);
		return FR_ERROR;
	}
	return FR_OK;
}

/* iobytes= of a flowop with iodepth= is spent: complete its requests in
 * flight (the thread's, which is done); FR_DONE, or FR_ERROR when one
 * failed. */
static enum flow_result depth_spent(struct worker *wk, struct wflow *f)
{
	while (f->dq->inflight)
		if (inflight_reap(wk, 1) <= 0)
			break;
	return f->dq->failed ? FR_ERROR : FR_DONE;
}

/* One pass of a read or write flowop with iodepth= on an asynchronous
 * engine: submit requests (each of its own size when iosize= is random)
 * until iodepth are in flight, then reap at least one completion (of this
 * flowop or another's).  The requests stay in flight into the next pass;
 * worker_drain_aio() completes them all before the phase ends. */
static enum flow_result depth_pass(struct worker *wk, struct wflow *f, struct fd_slot *s,
				   int64_t iosize, int write)
{
	struct depth_q *q = f->dq;
	/* (nothing else queues: the pass's submission calls are its own) */
	uint64_t calls0 = engine_submit_calls(wk->eng);
	enum flow_result r = depth_fill(wk, f, s, iosize, write);

	if (r == FR_OK && !runner_stopping(wk->rn) && q->inflight) {
		/* (else the drain reaps the rest) */
		int n = likely(f->reap_min <= 1 && !f->reap_max) ? inflight_reap(wk, 1)
								: depth_reap_batch(wk, f);

		STAT_ADD(f->st.reap_calls, 1);

		if (n < 0) {
			runner_op_error(wk, f, rw_what(write), slot_path(wk, s), n);
			r = FR_ERROR;
		}
	}
	if (r == FR_OK && flow_spent(f))
		r = depth_spent(wk, f);
	STAT_ADD(f->st.submit_calls, engine_submit_calls(wk->eng) - calls0);
	if (r == FR_OK && q->failed)
		r = FR_ERROR;
	return r;
}

static enum flow_result do_aiowrite(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct aio_slot *a = NULL;
	struct timing t;
	int64_t iosize;
	uint64_t off, wss;
	int ret;

	if (r != FR_OK)
		return r;
	if (wk->aio_inflight >= AIO_DEPTH)
		inflight_reap(wk, 1);
	for (int i = 0; i < AIO_DEPTH; i++) {
		if (!wk->aio[i].busy) {
			a = &wk->aio[i];
			break;
		}
	}
	if (!a)
		return FR_NORSC;
	iosize = flow_iosize(wk, f);
	if (verifying(wk))
		iosize = (int64_t)verify_align_up((uint64_t)iosize);
	if (!a->buf || a->req.len < (size_t)iosize) {
		free(a->buf);
		if (posix_memalign(&a->buf, 4096, (size_t)iosize)) {
			a->buf = NULL;
			runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
			return FR_ERROR;
		}
		data_fill(&wk->rn->o->data, &wk->rng, a->buf, (size_t)iosize);
	}
	wss = slot_wss(f, s);
	if (f->random) {
		uint64_t blocks = wss >= (uint64_t)iosize ? wss / (uint64_t)iosize : 1;

		off = rng_below(&wk->rng, blocks) * (uint64_t)iosize;
	} else {
		off = s->off;
		if (wss && wl_val_isset(&f->fo->wss) && off + (uint64_t)iosize > wss)
			off = 0;
		s->off = off + (uint64_t)iosize;
	}
	if (verifying(wk))
		off = verify_align_down(off);
	fill_for_write(wk, s, a->buf, (size_t)iosize, off);
	if (s->ncfds) {
		/* a chunked file: written synchronously (a write may span two
		 * chunk files, which one request cannot) */
		int64_t w;

		op_begin(f, &t);
		w = slot_rw(wk, s, 1, a->buf, (size_t)iosize, off);
		op_end(wk, f, &t, 0, w > 0 ? (uint64_t)w : 0);
		if (w < 0) {
			runner_op_error(wk, f, "aiowrite", slot_path(wk, s), (int)w);
			return FR_ERROR;
		}
		entry_grow(s, off + (uint64_t)w);
		return FR_OK;
	}
	note_plain_write(wk, s);
	a->req = (struct io_req){ .op = IO_WRITE, .fd = s->fd, .buf = a->buf, .len = (size_t)iosize,
				  .off = off, .user = a };
	a->st = &f->st;
	a->f = f;
	a->fs = s->fs;
	a->idx = s->idx;
	op_begin(f, &t);
	ret = engine_submit(wk->eng, &a->req);
	op_end(wk, f, &t, 0, ret == 0 ? (uint64_t)iosize : 0);
	if (ret < 0) {
		runner_op_error(wk, f, "aiowrite", slot_path(wk, s), ret);
		return FR_ERROR;
	}
	a->busy = 1;
	wk->aio_inflight++;
	return FR_OK;
}

static enum flow_result do_aiowait(struct worker *wk, struct wflow *f)
{
	struct timing t;

	op_begin(f, &t);
	worker_drain_aio(wk);
	op_end(wk, f, &t, 0, 0);
	return FR_OK;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

/* Interruptible delay: sleeps in slices so a stop is seen within 50 ms. */
static void delay_ns(struct runner *rn, uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	for (uint64_t now = now_ns(); now < end && !runner_stopping(rn); now = now_ns())
		sleep_ns(MIN(end - now, 50000000ull));
}

/* Consume `n` events of the eventgen, waiting until they are due (the
 * wait counts in wk->rate_wait_ns within the measured window). */
static void events_consume(struct worker *wk, uint64_t n)
{
	struct runner *rn = wk->rn;

	if (rn->event_rate <= 0 || !n)
		return;
	uint64_t mine = __atomic_add_fetch(&rn->events_used, n, __ATOMIC_RELAXED);
	/* event number `mine` is due at start + mine / rate */
	uint64_t due = rn->start_ns + duration_ns((double)mine / rn->event_rate);
	uint64_t now = now_ns();

	if (due > now) {
		delay_ns(rn, due - now);
		if (now >= __atomic_load_n(&rn->window_ns, __ATOMIC_RELAXED))
			wk->rate_wait_ns += now_ns() - now;
	}
}

static enum flow_result do_finish(struct worker *wk, struct wflow *f, int bytes)
{
	uint64_t sum = 0, limit = (uint64_t)wl_val_int(&f->fo->value, NULL, 0);

	for (size_t i = 0; i < f->counters->n; i++) {
		struct op_stats *st = f->counters->v[i];

		sum += bytes ? __atomic_load_n(&st->bytes_read, __ATOMIC_RELAXED) +
				       __atomic_load_n(&st->bytes_written, __ATOMIC_RELAXED)
			     : __atomic_load_n(&st->ops, __ATOMIC_RELAXED);
	}
	return sum >= limit ? FR_DONE : FR_OK;
}

/* Wait on so->cv (so->mu held) for at most 50 ms, so a waiting thread
 * sees a stop promptly. */
static void sync_wait_slice(struct sync_obj *so)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&so->cv, &so->mu, &ts);
}

static enum flow_result do_sem(struct worker *wk, struct wflow *f, int post)
{
	struct sync_obj *so = f->sync;
	int64_t v = wl_val_int(&f->fo->value, NULL, 1);
	struct timing t;

	if (!so)
		return FR_OK;
	op_begin(f, &t);
	pthread_mutex_lock(&so->mu);
	if (post) {
		so->count += v;
		pthread_cond_broadcast(&so->cv);
	} else {
		while (so->count < v && !runner_stopping(wk->rn))
			sync_wait_slice(so);
		if (so->count >= v)
			so->count -= v;
	}
	pthread_mutex_unlock(&so->mu);
	op_end(wk, f, &t, 0, 0);
	return FR_OK;
}

static enum flow_result do_block(struct worker *wk, struct wflow *f, int wake)
{
	struct sync_obj *so = f->sync;
	struct timing t;

	if (!so)
		return FR_OK;
	op_begin(f, &t);
	pthread_mutex_lock(&so->mu);
	if (wake) {
		so->wakeups++;
		pthread_cond_broadcast(&so->cv);
	} else {
		uint64_t gen = so->wakeups;

		while (so->wakeups == gen && !runner_stopping(wk->rn))
			sync_wait_slice(so);
	}
	pthread_mutex_unlock(&so->mu);
	op_end(wk, f, &t, 0, 0);
	return FR_OK;
}

/* "<root>/<path>", or the root itself for "" (the copy's directory). */
static int replay_path(char *buf, size_t len, const char *root, const char *path)
{
	int n = snprintf(buf, len, "%s%s%s", root, *path ? "/" : "", path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The bytes of a replayed write, in the thread's buffer: the run's data
 * pattern, or the replay's contents copied from memory or read from its
 * spool file, all outside the timed window.  Returns 0 or -errno. */
static int replay_data(struct worker *wk, const struct replay *r, const struct replay_op *op,
		       void **buf)
{
	if (op->data == REPLAY_PATTERN || (!r->data && r->data_fd < 0)) {
		if (ensure_buf(wk, op->len) < 0)
			return -ENOMEM;
		data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, op->len);
		*buf = wk->buf;
		return 0;
	}
	if (ensure_buf(wk, op->len) < 0)
		return -ENOMEM;
	if (r->data) {
		/* copied into the thread's small buffer, as tar writes from its
		 * record buffer: the system call reads cache-hot memory */
		memcpy(wk->buf, r->data + op->data, op->len);
		*buf = wk->buf;
		return 0;
	}
	struct io_req q = { .op = IO_READ, .fd = r->data_fd, .buf = wk->buf, .len = op->len,
			    .off = op->data };
	int64_t ret = engine_exec_full(wk->eng, &q);

	if (ret >= 0 && (uint64_t)ret < op->len)
		ret = -EIO; /* the spool file is shorter than we wrote it */
	*buf = wk->buf;
	return ret < 0 ? (int)ret : 0;
}

/* open(O_DIRECTORY), fsync, close: one operation. */
static int64_t fsync_dir(struct worker *wk, int dirfd, const char *path)
{
	struct io_req q = { .op = IO_OPEN, .dirfd = dirfd, .path = path,
			    .flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW };
	int64_t fd = engine_exec_full(wk->eng, &q), ret;

	if (fd < 0)
		return fd;
	q = (struct io_req){ .op = IO_FSYNC, .fd = (int)fd };
	ret = engine_exec_full(wk->eng, &q);
	q = (struct io_req){ .op = IO_CLOSE, .fd = (int)fd };
	engine_exec(wk->eng, &q);
	return ret;
}

/* FO_REPLAY: claim the next execution and replay the whole list in its
 * directory "<dir>-NNN" of its run directory (replay_target's), each
 * operation timed and counted by the child of its kind; the execution's
 * own time goes to the thread's list.  FR_DONE once every execution is
 * claimed. */
static enum flow_result do_replay(struct worker *wk, struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	const struct replay *r = fo->replay;
	struct runner *rn = wk->rn;
	uint64_t total = (uint64_t)wl_val_int(&fo->value, NULL, 1), k, t0;
	struct result_exec x = { 0 };
	char root[128];
	int fd = -1, failed = 0;
	int dirfd = fo->replay_target < rn->nrd ? rn->rds[fo->replay_target].fd : rn->dirfd;
	size_t i;

	if (!r || !f->sync) {
		runner_op_error(wk, f, "replay", NULL, -EINVAL);
		return FR_ERROR;
	}
	k = __atomic_fetch_add(&f->sync->count, 1, __ATOMIC_RELAXED);
	if (k >= total)
		return FR_DONE;
	snprintf(root, sizeof(root), "%.80s-%03llu", wl_val_str(&fo->dir, fo->name),
		 (unsigned long long)k);
	t0 = now_ns();
	x.index = k;
	x.thread = (int)wk->id;
	x.start = (double)(t0 - rn->start_ns) / 1e9;
	for (i = 0; i < r->nops && !runner_stopping(rn); i++) {
		const struct replay_op *op = &r->ops[i];
		struct wflow *c = &f->children[f->replay_child[op->kind]];
		struct io_req q = { .dirfd = dirfd, .path = wk->path, .fd = fd };
		struct timespec times[2] = { { 0, UTIME_OMIT }, op->mtime };
		const char *what = replay_kind_name(op->kind);
		struct timing t;
		int64_t ret;

		ret = replay_path(wk->path, sizeof(wk->path), root, op->path);
		switch (op->kind) {
		case RPK_MKDIR:
			q.op = IO_MKDIR;
			q.mode = op->mode;
			break;
		case RPK_CREATE:
			q.op = IO_OPEN;
			q.flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
			q.mode = op->mode;
			break;
		case RPK_WRITE:
			q.op = IO_WRITE;
			q.len = op->len;
			q.off = op->off;
			if (ret == 0 && (ret = replay_data(wk, r, op, &q.buf)) < 0)
				what = "read contents for";
			break;
		case RPK_FSYNC:
			q.op = IO_FSYNC;
			break;
		case RPK_CLOSE:
			q.op = IO_CLOSE;
			break;
		case RPK_SYMLINK:
			q.op = IO_SYMLINK;
			q.path = op->path2;
			q.path2 = wk->path;
			break;
		case RPK_LINK:
			q.op = IO_LINK;
			if (ret == 0)
				ret = replay_path(wk->path2, sizeof(wk->path2), root, op->path2);
			q.path = wk->path2;
			q.path2 = wk->path;
			break;
		case RPK_CHMOD:
			q.op = IO_CHMOD;
			q.mode = op->mode;
			break;
		case RPK_UTIMES:
			q.op = IO_UTIMES;
			q.times = times;
			break;
		case RPK_FSYNCDIR:
			q.op = IO_FSYNC; /* below: open, fsync, close */
			break;
		case RPK_UNLINK:
			q.op = IO_UNLINK;
			break;
		case RPK_RMDIR:
			q.op = IO_RMDIR;
			break;
		default:
			ret = -EINVAL;
		}
		if (ret == 0) {
			op_begin(c, &t);
			if (op->kind == RPK_FSYNCDIR)
				ret = fsync_dir(wk, dirfd, wk->path);
			else if (op->kind == RPK_CLOSE)
				ret = engine_exec(wk->eng, &q); /* never retried: the fd is gone */
			else
				ret = engine_exec_full(wk->eng, &q);
			op_end(wk, c, &t, 0, op->kind == RPK_WRITE && ret > 0 ? (uint64_t)ret : 0);
		}
		if (op->kind == RPK_CLOSE)
			fd = -1;
		if (ret < 0) {
			runner_op_error(wk, c, what, wk->path, (int)ret);
			x.errors++;
			failed = 1;
			break;
		}
		if (op->kind == RPK_CREATE)
			fd = (int)ret;
		else if (op->kind == RPK_WRITE)
			x.bytes += (uint64_t)ret;
		x.ops++;
	}
	if (fd >= 0) {
		/* stopped or failed with a file open: close it, uncounted */
		struct io_req q = { .op = IO_CLOSE, .fd = fd };

		engine_exec(wk->eng, &q);
	}
	x.seconds = (double)(now_ns() - t0) / 1e9;
	x.complete = !failed && i == r->nops;
	f->execs = xrealloc(f->execs, (f->nexecs + 1) * sizeof(*f->execs));
	f->execs[f->nexecs++] = x;
	__atomic_add_fetch(&f->execs_ended, 1, __ATOMIC_RELAXED);
	return failed ? FR_ERROR : FR_OK;
}

static enum flow_result exec_composite(struct worker *wk, struct wflow *f);

/* One operation of a flowop that is not a composite. */
static ALWAYS_INLINE enum flow_result exec_simple(struct worker *wk, struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	struct timing t;

	switch (f->type) {
	case FO_READ:
	case FO_WRITE:
		if (unlikely(f->trim | f->falloc | f->truncate | f->trimwrite | f->readback))
			return f->trimwrite  ? do_trimwrite(wk, f)
			       : f->readback ? do_readback(wk, f)
					     : do_range(wk, f);
		return do_rw(wk, f, f->type == FO_WRITE);
	case FO_RWMIX:
		return do_rwmix(wk, f);
	case FO_APPENDFILE:
		return do_append(wk, f, 0);
	case FO_APPENDFILERAND:
		return do_append(wk, f, 1);
	case FO_READWHOLEFILE:
		return do_wholefile(wk, f, 0);
	case FO_WRITEWHOLEFILE:
		return do_wholefile(wk, f, 1);
	case FO_PUTC:
		return do_putc(wk, f);
	case FO_GETC:
		return do_getc(wk, f);
	case FO_REWRITE:
		return do_rewrite(wk, f);
	case FO_OPENFILE:
		return do_openfile(wk, f);
	case FO_CREATEFILE:
		return do_createfile(wk, f);
	case FO_CLOSEFILE:
		return do_closefile(wk, f);
	case FO_DELETEFILE:
		return do_path_op(wk, f, IO_UNLINK);
	case FO_STATFILE:
		return do_path_op(wk, f, IO_STAT);
	case FO_MAKEDIR:
		return do_path_op(wk, f, IO_MKDIR);
	case FO_REMOVEDIR:
		return do_path_op(wk, f, IO_RMDIR);
	case FO_RENAMEFILE:
		return do_renamefile(wk, f);
	case FO_LISTDIR:
		return do_listdir(wk, f);
	case FO_FSYNC:
		return do_fsync(wk, f);
	case FO_FSYNCSET:
		return do_fsyncset(wk, f);
	case FO_SYNCFS:
		return do_syncfs(wk, f);
	case FO_AIOWRITE:
		return do_aiowrite(wk, f);
	case FO_AIOWAIT:
		return do_aiowait(wk, f);
	case FO_HOG: {
		int64_t n = wl_val_int(&fo->value, &wk->rng, 0);
		volatile unsigned char *b = wk->buf;

		op_begin(f, &t);
		for (int64_t i = 0; i < n; i++)
			b[(size_t)i % wk->bufsz] = (unsigned char)i;
		op_end(wk, f, &t, 0, 0);
		return FR_OK;
	}
	case FO_DELAY: {
		double secs = wl_val_double(&fo->value, &wk->rng, 0);

		op_begin(f, &t);
		if (secs > 0 && f->spin)
			spin_ns(duration_ns(secs));
		else if (secs > 0)
			delay_ns(wk->rn, duration_ns(secs));
		op_end(wk, f, &t, 0, 0);
		if (f->think_ns)
			flow_think(wk, f);
		return FR_OK;
	}
	case FO_EVENTLIMIT:
		events_consume(wk, 1);
		return FR_OK;
	case FO_IOPSLIMIT:
	case FO_OPSLIMIT: {
		/* one event per operation of the target (this thread's), or
		 * per I/O operation / operation of the thread */
		uint64_t n = f->limit_st		   ? f->limit_st->ops
			     : fo->type == FO_IOPSLIMIT ? wk->io_ops
							: wk->all_ops;

		events_consume(wk, n - f->last_mark);
		f->last_mark = n;
		return FR_OK;
	}
	case FO_BWLIMIT: {
		/* one event per MiB, as filebench's bwlimit: eventgen rate=96
		 * caps the bytes at 96 MiB/s.  Bytes beyond those paid for
		 * take whole MiB events, paid in advance (last_mark may run
		 * ahead of the bytes), so no thread is ever ahead of the rate */
		uint64_t n = f->limit_st ? f->limit_st->bytes_read + f->limit_st->bytes_written
					 : wk->io_bytes;

		if (n > f->last_mark) {
			uint64_t ev = ((n - f->last_mark) + (1u << 20) - 1) >> 20;

			events_consume(wk, ev);
			f->last_mark += ev << 20;
		}
		return FR_OK;
	}
	case FO_FINISHONCOUNT:
		return do_finish(wk, f, 0);
	case FO_FINISHONBYTES:
		return do_finish(wk, f, 1);
	case FO_SEMBLOCK:
		return do_sem(wk, f, 0);
	case FO_SEMPOST:
		return do_sem(wk, f, 1);
	case FO_BLOCK:
		return do_block(wk, f, 0);
	case FO_WAKEUP:
		return do_block(wk, f, 1);
	case FO_PRINT:
		msg_info("message from process (%s,%u), thread (%s,%u): %s", wk->pd->name, wk->pinst,
			 wk->td->name, wk->tinst,
			 fo->print_text ? fo->print_text : wl_val_str(&fo->value, ""));
		STAT_ADD(f->st.ops, 1);
		return FR_OK;
	case FO_TESTRANDVAR: {
		double v = wl_val_double(fo->rvar.kind ? &fo->rvar : &fo->value, &wk->rng, 0);

		f->trv_sum += v;
		f->trv_sumsq += v * v;
		STAT_ADD(f->st.ops, 1);
		return FR_OK;
	}
	case FO_STONEWALL:
		/* the first thread here stops the others' stonewall= loops */
		if (!__atomic_exchange_n(&wk->rn->stonewalled, 1, __ATOMIC_RELAXED)) {
			__atomic_store_n(&wk->rn->stonewall_ns, now_ns(), __ATOMIC_RELEASE);
			STAT_ADD(f->st.ops, 1);
		}
		return FR_OK;
	case FO_THREADDONE:
		STAT_ADD(f->st.ops, 1);
		return FR_DONE;
	case FO_REPLAY:
		return do_replay(wk, f);
	default:
		return FR_OK;
	}
}

/* Execute a flowop `iters` times, waiting out stalls.  `composite` is
 * f->type == FO_COMPOSITE, a constant where this is inlined: a simple
 * flowop's operation is inlined here, and the usual read or write has its
 * system call right here (engine/syscall.h). */
static ALWAYS_INLINE enum flow_result flow_loop(struct worker *wk, struct wflow *f, int composite)
{
	int64_t iters = f->iters ? f->iters : wl_val_int(&f->fo->iters, &wk->rng, 1);
	enum flow_result r = FR_OK;
	int stalled = 0;

	if (iters < 1)
		iters = 1;
	for (int64_t i = 0; i < iters && !runner_stopping(wk->rn);) {
		if (!stalled && f->stonewall &&
		    __atomic_load_n(&wk->rn->stonewalled, __ATOMIC_RELAXED))
			break;
		r = composite ? exec_composite(wk, f) : exec_simple(wk, f);
		if (likely(r == FR_OK)) {
			stalled = 0;
			i++;
			continue;
		}
		if (r != FR_NORSC)
			return r;
		/* no suitable file: wait for one and try this iteration again */
		STAT_ADD(f->st.stalls, 1);
		if (wk->rn->w->quit_mode != QUIT_TIMEOUT)
			return FR_DONE; /* out of files ends this thread */
		sleep_ns(RESULT_STALL_SLEEP_NS);
		stalled = 1;
	}
	return r;
}

static ALWAYS_INLINE enum flow_result flow_run(struct worker *wk, struct wflow *f)
{
	return f->type == FO_COMPOSITE ? flow_loop(wk, f, 1) : flow_loop(wk, f, 0);
}

enum flow_result flow_exec(struct worker *wk, struct wflow *f)
{
	return flow_run(wk, f);
}

/* One execution of a composite flowop, timed as one operation: its
 * children in order, each `iters` times.  A function of its own (the
 * runner's loops call it), in which the simple children are inlined, so
 * that their system calls too have nothing to return through. */
static enum flow_result exec_composite(struct worker *wk, struct wflow *f)
{
	enum flow_result r = FR_OK;
	struct timing t;

	op_begin(f, &t);
	for (size_t i = 0; i < f->nchildren && r == FR_OK; i++) {
		struct wflow *c = &f->children[i];

		r = c->type == FO_COMPOSITE ? flow_exec(wk, c) : flow_loop(wk, c, 0);
	}
	op_end(wk, f, &t, 0, 0);
	return r;
}

/* The syncs at the end (atend=) of the write flowops that wrote: once the
 * thread's writes are done, by iobytes= or by the run's stop (not after an
 * interruption by a signal). */
static void flow_end_syncs(struct worker *wk)
{
	if (runner_signalled())
		return;
	worker_drain_aio(wk); /* the writes in flight first */
	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];

		if (f->end_syncer && f->nwrites && f->sync_slot && f->sync_slot->fd >= 0)
			(void)flow_sync(wk, f->end_syncer, f->sync_slot);
	}
}

HOT void worker_run(struct worker *wk)
{
	struct runner *rn = wk->rn;

	while (!runner_stopping(rn) && !wk->done) {
		/* (flow_loop checks for a stop before each operation) */
		for (size_t i = 0; i < wk->nflows; i++) {
			enum flow_result r = flow_run(wk, &wk->flows[i]);

			if (r == FR_DONE) {
				wk->done = 1;
				/* finishoncount/onbytes end the whole run; running
				 * out of files ends this thread (set mode quit). */
				if (wk->flows[i].fo->type == FO_FINISHONCOUNT ||
				    wk->flows[i].fo->type == FO_FINISHONBYTES) {
					__atomic_store_n(&rn->finished, 1, __ATOMIC_RELAXED);
					__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
				}
				break;
			}
		}
	}
	flow_end_syncs(wk);
}

/* The attributes flow_after() acts on (read and write only). */
static void flow_init_after(struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	int64_t v;

	if (!runner_block_flowop(fo->type))
		return;
	v = wl_val_int(&fo->readpct, NULL, 50);
	f->readpct = (unsigned)MIN(MAX(v, 0), 100);
	v = wl_val_int(&fo->iobytes, NULL, 0);
	f->iobytes = v > 0 ? (uint64_t)v : 0;
	f->think_ns = duration_ns(wl_val_double(&fo->thinktime, NULL, 0));
	f->think_spin_ns = MIN(duration_ns(wl_val_double(&fo->thinktime_spin, NULL, 0)),
			       f->think_ns);
	v = wl_val_int(&fo->thinktime_blocks, NULL, 1);
	f->think_blocks = v > 0 ? (uint64_t)v : 1;
	f->after = f->iobytes != 0 || f->think_ns != 0;
}

void flow_init_attrs(struct wflow *f, int direct)
{
	const struct wl_flowop *fo = f->fo;
	int64_t v;

	f->oflags = O_NOFOLLOW;
	if (direct || wl_val_bool(&fo->directio, 0))
		f->oflags |= O_DIRECT;
	if (wl_val_bool(&fo->dsync, 0))
		f->oflags |= O_DSYNC;
	if (wl_val_bool(&fo->osync, 0))
		f->oflags |= O_SYNC;
	f->dirsync = wl_val_bool(&fo->dirsync, 0);

	f->reverse = wl_val_bool(&fo->reverse, 0);
	f->stonewall = wl_val_bool(&fo->stonewall, 0);
	v = wl_val_int(&fo->stride, NULL, 0);
	f->stride = v > 1 ? (uint64_t)v : 0;
	v = wl_val_int(&fo->bufsize, NULL, 0);
	f->bufsize = v > 0 ? (uint64_t)v : 0;
	v = wl_val_int(&fo->offset, NULL, 0);
	f->base = v > 0 ? (uint64_t)v : 0;
	f->type = fo->type;
	f->random = wl_val_bool(&fo->random, 0);
	f->iters = wl_val_israndom(&fo->iters) ? 0 : MAX(wl_val_int(&fo->iters, NULL, 1), 1);
	f->iosize = wl_val_israndom(&fo->iosize) ? 0 : MAX(wl_val_int(&fo->iosize, NULL, 8192), 1);
	f->wss = wl_val_israndom(&fo->wss) ? -1 : wl_val_int(&fo->wss, NULL, 0);
	f->fd_given = wl_val_isset(&fo->fd);
	f->indexed = wl_val_isset(&fo->indexed);
	f->fd_slot = f->fd_given || !f->fs;
	v = wl_val_int(&fo->fd, NULL, 0);
	f->fd_index = v >= 0 && v < FD_SLOTS ? (int)v : 0;
	v = wl_val_int(&fo->iodepth, NULL, 1);
	f->iodepth = (unsigned)MIN(MAX(v, 1), WL_IODEPTH_MAX);
	v = wl_val_int(&fo->iodepth_batch, NULL, 1);
	f->iodepth_batch = (unsigned)MIN(MAX(v, 1), (int64_t)f->iodepth);
	f->trim = fo->type == FO_WRITE && wl_val_bool(&fo->trim, 0);
	f->trimwrite = fo->type == FO_WRITE && wl_val_bool(&fo->trimwrite, 0);
	f->readback = fo->type == FO_READ && wl_val_bool(&fo->readback, 0);
	v = wl_val_int(&fo->reap_min, NULL, 1);
	f->reap_min = (unsigned)MIN(MAX(v, 1), (int64_t)f->iodepth);
	v = wl_val_int(&fo->reap_max, NULL, 0);
	f->reap_max = v > 0 ? (unsigned)MIN(MAX(v, (int64_t)f->reap_min), (int64_t)f->iodepth) : 0;
	f->invalidate = wl_val_bool(&fo->invalidate, 0);
	v = wl_val_int(&fo->fadvise, NULL, 0);
	f->advice = v > 0 && v <= POSIX_FADV_NOREUSE + 1 ? (int)v : 0;
	f->falloc = (fo->type == FO_READ || fo->type == FO_WRITE) && wl_val_isset(&fo->fallocate);
	f->falloc_mode = (int)wl_val_int(&fo->fallocate, NULL, 0);
	f->truncate = fo->type == FO_WRITE && wl_val_bool(&fo->truncate, 0);
	if (fo->type == FO_DELAY) {
		/* spin=, and the pause after each (thinktime=): fio's cpuio */
		f->spin = wl_val_bool(&fo->spin, 0);
		f->think_ns = duration_ns(wl_val_double(&fo->thinktime, NULL, 0));
		f->think_blocks = 1;
	}
	flow_init_after(f);
}
