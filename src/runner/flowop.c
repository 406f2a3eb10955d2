/*
 * flowop.c — executing one flowop, with filebench's semantics:
 *
 *  - openfile/createfile/deletefile/statfile/renamefile pick a file from
 *    the fileset and hold it exclusively while it is open;
 *  - read/write use the descriptor in slot fd= when given, otherwise a
 *    private descriptor opened on first use; random offsets are aligned
 *    to iosize within the working set (wss= or the file's size);
 *    sequential offsets advance and wrap at the end of the working set;
 *  - when no suitable file exists the flowop reports FR_NORSC and the
 *    worker waits and retries (a "stall"), never failing the run.
 *
 * The runner times around every engine call (now_ns before and after);
 * nothing outside that window (path formatting, data stamping, offset
 * choice) is counted in the latency.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/internal.h"
#include "util/util.h"

/* Sample thread CPU for 1 op in CPU_SAMPLE_EVERY, and for every op when
 * the flowop's mean latency exceeds CPU_SAMPLE_ALWAYS_NS: reading the
 * thread CPU clock is a system call, too costly to do around every
 * microsecond-long operation. */
#define CPU_SAMPLE_EVERY 64
#define CPU_SAMPLE_ALWAYS_NS 50000

struct timing {
	uint64_t t0, c0;
	int cpu;
};

static inline void op_begin(struct wflow *f, struct timing *t)
{
	t->cpu = (f->sample_ctr++ % CPU_SAMPLE_EVERY) == 0 ||
		 (f->st.lat.count && f->st.lat.sum > (double)CPU_SAMPLE_ALWAYS_NS * (double)f->st.lat.count);
	if (t->cpu)
		t->c0 = thread_cpu_ns();
	t->t0 = now_ns();
}

static inline void op_end(struct worker *wk, struct wflow *f, struct timing *t, uint64_t rbytes,
			  uint64_t wbytes)
{
	uint64_t t1 = now_ns();
	struct op_stats *st = &f->st;

	if (t->cpu) {
		STAT_ADD(st->cpu_ns, thread_cpu_ns() - t->c0);
		STAT_ADD(st->cpu_samples, 1);
	}
	hist_add(&st->lat, t1 - t->t0);
	/* single writer; finishoncount and the sampler read them (result.h) */
	if (rbytes)
		STAT_ADD(st->bytes_read, rbytes);
	if (wbytes)
		STAT_ADD(st->bytes_written, wbytes);
	STAT_ADD(st->ops, 1);
	wk->all_ops++;
	if (rbytes || wbytes) {
		wk->io_ops++;
		wk->io_bytes += rbytes + wbytes;
	}
}

void runner_op_error(struct worker *wk, struct wflow *f, const char *op, const char *path,
		     int neg_errno)
{
	struct runner *rn = wk->rn;

	if (f)
		STAT_ADD(f->st.errors, 1);
	pthread_mutex_lock(&rn->err_mu);
	if (!rn->first_error) {
		rn->first_error = xasprintf("%s%s%s%s: %s", op, path ? " '" : "", path ? path : "",
					    path ? "'" : "", strerror(-neg_errno));
		msg_err("flowop '%s': %s", f ? f->fo->name : "?", rn->first_error);
	}
	if (rn->o->on_error == ON_ERROR_STOP) {
		rn->stopped_on_error = 1;
		rn->stop = 1;
	}
	pthread_mutex_unlock(&rn->err_mu);
}

static const char *entry_path(struct worker *wk, struct rt_fileset *fs, int64_t idx, char *buf)
{
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

static int open_flags(struct worker *wk, struct wflow *f, struct rt_fileset *fs)
{
	int flags = fs && fs->readonly ? O_RDONLY : O_RDWR;

	if (wk->rn->o->direct || wl_val_bool(&f->fo->directio, 0))
		flags |= O_DIRECT;
	if (wl_val_bool(&f->fo->dsync, 0))
		flags |= O_DSYNC;
	return flags | O_NOFOLLOW;
}

static void slot_release(struct fd_slot *s, int exists)
{
	if (s->fs) {
		s->last_fs = s->fs;
		s->last_idx = s->idx;
	}
	if (s->held && s->fs)
		fileset_release(s->fs, (uint64_t)s->idx, exists);
	s->held = 0;
	s->fd = -1;
	s->fs = NULL;
	s->idx = -1;
	s->off = 0;
}

/* Claim an entry for flowop f: the one its indexed= variable names, or
 * any in the wanted state. */
static int64_t pick(struct worker *wk, struct wflow *f, struct rt_fileset *fs, enum pick_want want)
{
	if (wl_val_isset(&f->fo->indexed) && fs->n) {
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

/* Pick an existing file; single files (`define file`) are shared, not
 * held, as filebench does. */
static int64_t pick_existing(struct worker *wk, struct wflow *f, struct rt_fileset *fs, int *held)
{
	if (fs->is_file) {
		*held = 0;
		return (__atomic_load_n(&fs->e[0].state, __ATOMIC_ACQUIRE) & FSE_EXISTS) ? 0 : -1;
	}
	*held = 1;
	return pick(wk, f, fs, PICK_EXISTING);
}

/* Open a file of the flowop's fileset into slot s (timed as the flowop's
 * operation only for openfile; implicit opens are not counted). */
static enum flow_result slot_open(struct worker *wk, struct wflow *f, struct fd_slot *s,
				  int timed)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int held;
	int64_t idx, fd;

	if (!fs) {
		runner_op_error(wk, f, "open", NULL, -EBADF);
		return FR_ERROR;
	}
	idx = pick_existing(wk, f, fs, &held);
	if (idx < 0)
		return FR_NORSC;
	struct io_req q = { .op = IO_OPEN, .dirfd = wk->rn->dirfd,
			    .path = entry_path(wk, fs, idx, wk->path),
			    .flags = open_flags(wk, f, fs) };
	if (timed)
		op_begin(f, &t);
	fd = engine_exec_full(wk->eng, &q);
	if (timed)
		op_end(wk, f, &t, 0, 0);
	if (fd < 0) {
		if (held)
			fileset_release(fs, (uint64_t)idx, 1);
		runner_op_error(wk, f, "open", wk->path, (int)fd);
		return FR_ERROR;
	}
	s->fd = (int)fd;
	s->fs = fs;
	s->idx = idx;
	s->held = held;
	s->off = 0;
	return FR_OK;
}

static void slot_close(struct worker *wk, struct fd_slot *s)
{
	if (s->fd >= 0) {
		struct io_req q = { .op = IO_CLOSE, .fd = s->fd };

		engine_exec(wk->eng, &q);
	}
	slot_release(s, 1);
}

void worker_close_all(struct worker *wk)
{
	for (int i = 0; i < FD_SLOTS; i++)
		if (wk->fds[i].fd >= 0)
			slot_close(wk, &wk->fds[i]);
	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];

		if (f->priv.fd >= 0)
			slot_close(wk, &f->priv);
		for (size_t c = 0; c < f->nchildren; c++)
			if (f->children[c].priv.fd >= 0)
				slot_close(wk, &f->children[c].priv);
	}
}

static struct fd_slot *fd_slot_of(struct worker *wk, struct wflow *f)
{
	int64_t n = wl_val_int(&f->fo->fd, NULL, 0);

	if (n < 0 || n >= FD_SLOTS)
		n = 0;
	return &wk->fds[n];
}

/* The descriptor a data flowop works on, opening one if needed. */
static enum flow_result io_setup(struct worker *wk, struct wflow *f, struct fd_slot **out)
{
	struct fd_slot *s;
	enum flow_result r;

	if (wl_val_isset(&f->fo->fd) || !f->fs)
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

static uint64_t slot_wss(struct wflow *f, struct fd_slot *s)
{
	int64_t wss = wl_val_int(&f->fo->wss, NULL, 0);

	if (wss > 0)
		return (uint64_t)wss;
	if (s->fs && s->idx >= 0) {
		uint64_t cur = __atomic_load_n(&s->fs->e[s->idx].cur, __ATOMIC_RELAXED);

		return cur ? cur : s->fs->e[s->idx].size;
	}
	return 0;
}

static void entry_grow(struct fd_slot *s, uint64_t end)
{
	if (!s->fs || s->idx < 0)
		return;
	uint64_t cur = __atomic_load_n(&s->fs->e[s->idx].cur, __ATOMIC_RELAXED);

	while (end > cur &&
	       !__atomic_compare_exchange_n(&s->fs->e[s->idx].cur, &cur, end, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static const char *slot_path(struct worker *wk, struct fd_slot *s)
{
	if (!s->fs || s->idx < 0)
		return NULL;
	return entry_path(wk, s->fs, s->idx, wk->path2);
}

static enum flow_result do_rw(struct worker *wk, struct wflow *f, int write)
{
	struct fd_slot *s;
	enum flow_result r = io_setup(wk, f, &s);
	struct timing t;
	int64_t iosize, ret;
	uint64_t off, wss;

	if (r != FR_OK)
		return r;
	iosize = wl_val_int(&f->fo->iosize, &wk->rng, 8192);
	if (iosize <= 0)
		iosize = 1;
	if (ensure_buf(wk, (size_t)iosize) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	wss = slot_wss(f, s);
	if (wl_val_bool(&f->fo->random, 0)) {
		uint64_t blocks = wss >= (uint64_t)iosize ? wss / (uint64_t)iosize : 1;

		off = rng_below(&wk->rng, blocks) * (uint64_t)iosize;
	} else {
		off = s->off;
		if (wss && off + (uint64_t)iosize > wss && (!write || wl_val_isset(&f->fo->wss)))
			off = 0; /* wrap at the end of the working set */
		s->off = off + (uint64_t)iosize;
	}
	if (write)
		data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, (size_t)iosize);
	struct io_req q = { .op = write ? IO_WRITE : IO_READ, .fd = s->fd, .buf = wk->buf,
			    .len = (size_t)iosize, .off = off };
	op_begin(f, &t);
	ret = engine_exec_full(wk->eng, &q);
	op_end(wk, f, &t, !write && ret > 0 ? (uint64_t)ret : 0,
	       write && ret > 0 ? (uint64_t)ret : 0);
	if (ret < 0) {
		runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	if (write)
		entry_grow(s, off + (uint64_t)ret);
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
	iosize = wl_val_int(&f->fo->iosize, &wk->rng, 8192);
	if (iosize <= 0)
		iosize = 1;
	if (rand)
		iosize = 1 + (int64_t)rng_below(&wk->rng, (uint64_t)iosize);
	if (ensure_buf(wk, (size_t)iosize) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, (size_t)iosize);
	struct io_req seek = { .op = IO_LSEEK, .fd = s->fd, .off = 0, .flags = SEEK_END };
	op_begin(f, &t);
	ret = engine_exec(wk->eng, &seek);
	if (ret >= 0) {
		struct io_req q = { .op = IO_WRITE, .fd = s->fd, .buf = wk->buf,
				    .len = (size_t)iosize, .off = (uint64_t)ret };
		ret = engine_exec_full(wk->eng, &q);
		if (ret >= 0)
			entry_grow(s, q.off + (uint64_t)ret);
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
	uint64_t size, done = 0;

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
	if (ensure_buf(wk, (size_t)iosize) < 0) {
		runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
		return FR_ERROR;
	}
	op_begin(f, &t);
	while (done < size) {
		size_t n = (size_t)MIN((uint64_t)iosize, size - done);

		/* Stamping costs a few ns per 4 KiB; it stays inside the
		 * whole-file operation rather than splitting its timing. */
		if (write)
			data_refresh(&wk->rn->o->data, &wk->rng, wk->buf, n);
		struct io_req q = { .op = write ? IO_WRITE : IO_READ, .fd = s->fd, .buf = wk->buf,
				    .len = n, .off = done };
		ret = engine_exec_full(wk->eng, &q);
		if (ret <= 0)
			break;
		done += (uint64_t)ret;
	}
	op_end(wk, f, &t, write ? 0 : done, write ? done : 0);
	if (ret < 0) {
		runner_op_error(wk, f, write ? "write" : "read", slot_path(wk, s), (int)ret);
		return FR_ERROR;
	}
	if (write)
		entry_grow(s, done);
	return FR_OK;
}

static enum flow_result do_openfile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);

	if (s->fd >= 0) /* a previous iteration left it open: close first */
		slot_close(wk, s);
	return slot_open(wk, f, s, 1);
}

static enum flow_result do_createfile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t idx, fd;

	if (!fs) {
		runner_op_error(wk, f, "create", NULL, -EBADF);
		return FR_ERROR;
	}
	if (s->fd >= 0)
		slot_close(wk, s);
	idx = pick(wk, f, fs, PICK_NONEXISTENT);
	if (idx < 0)
		return FR_NORSC;
	struct io_req q = { .op = IO_OPEN, .dirfd = wk->rn->dirfd,
			    .path = entry_path(wk, fs, idx, wk->path),
			    .flags = open_flags(wk, f, fs) | O_CREAT | O_TRUNC, .mode = 0644 };
	op_begin(f, &t);
	fd = engine_exec_full(wk->eng, &q);
	op_end(wk, f, &t, 0, 0);
	if (fd < 0) {
		fileset_release(fs, (uint64_t)idx, 0);
		runner_op_error(wk, f, "create", wk->path, (int)fd);
		return FR_ERROR;
	}
	__atomic_store_n(&fs->e[idx].cur, 0, __ATOMIC_RELAXED);
	fileset_set_exists(fs, (uint64_t)idx, 1); /* exists now, still held by us */
	s->fd = (int)fd;
	s->fs = fs;
	s->idx = idx;
	s->held = 1;
	s->off = 0;
	return FR_OK;
}

static enum flow_result do_closefile(struct worker *wk, struct wflow *f)
{
	struct fd_slot *s = fd_slot_of(wk, f);
	struct timing t;
	int64_t ret;

	if (s->fd < 0)
		return FR_OK; /* nothing open: filebench treats this as a no-op too */
	struct io_req q = { .op = IO_CLOSE, .fd = s->fd };
	op_begin(f, &t);
	ret = engine_exec(wk->eng, &q);
	op_end(wk, f, &t, 0, 0);
	if (ret < 0)
		runner_op_error(wk, f, "close", slot_path(wk, s), (int)ret);
	slot_release(s, 1);
	return ret < 0 ? FR_ERROR : FR_OK;
}

static enum flow_result do_path_op(struct worker *wk, struct wflow *f, enum io_op op)
{
	struct rt_fileset *fs = f->fs;
	struct timing t;
	int64_t idx, ret;
	int held = 1;
	int exists_after = 1;

	if (op == IO_UNLINK && wl_val_isset(&f->fo->fd)) {
		/* deletefile fd=N: the file last open on slot N */
		struct fd_slot *s = fd_slot_of(wk, f);

		if (s->fd >= 0)
			slot_close(wk, s);
		fs = s->last_fs;
		if (!fs || s->last_idx < 0 || !fileset_claim(fs, (uint64_t)s->last_idx, PICK_EXISTING))
			return FR_NORSC;
		idx = s->last_idx;
		s->last_fs = NULL;
	} else if (!fs) {
		runner_op_error(wk, f, io_op_name(op), NULL, -EBADF);
		return FR_ERROR;
	} else if (op == IO_MKDIR) {
		idx = pick(wk, f, fs, PICK_NONEXISTENT);
	} else if (op == IO_STAT) {
		idx = pick_existing(wk, f, fs, &held);
	} else {
		idx = pick(wk, f, fs, PICK_EXISTING);
	}
	if (idx < 0)
		return FR_NORSC;
	struct io_req q = { .op = op, .dirfd = wk->rn->dirfd,
			    .path = entry_path(wk, fs, idx, wk->path), .mode = 0755 };
	op_begin(f, &t);
	ret = engine_exec_full(wk->eng, &q);
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
	if (held)
		fileset_release(fs, (uint64_t)idx, exists_after);
	if (ret < 0) {
		runner_op_error(wk, f, io_op_name(op), wk->path, (int)ret);
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
	struct io_req q = { .op = IO_RENAME, .dirfd = wk->rn->dirfd,
			    .path = entry_path(wk, fs, from, wk->path),
			    .path2 = entry_path(wk, fs, to, wk->path2) };
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
	struct io_req q = { .op = IO_LISTDIR, .dirfd = wk->rn->dirfd, .path = wk->path };
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

	if (wl_val_isset(&f->fo->fd) || !f->fs)
		s = fd_slot_of(wk, f);
	else
		s = &f->priv;
	if (s->fd < 0) {
		enum flow_result r = f->fs ? slot_open(wk, f, s, 0) : FR_NORSC;

		if (r != FR_OK)
			return r;
	}
	struct io_req q = { .op = IO_FSYNC, .fd = s->fd };
	op_begin(f, &t);
	ret = engine_exec_full(wk->eng, &q);
	op_end(wk, f, &t, 0, 0);
	if (ret < 0) {
		runner_op_error(wk, f, "fsync", slot_path(wk, s), (int)ret);
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
		struct io_req q = { .op = IO_FSYNC, .fd = s->fd };
		ret = engine_exec_full(wk->eng, &q);
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

static int aio_reap(struct worker *wk, unsigned min)
{
	struct io_req *done[AIO_DEPTH];
	int n = engine_reap(wk->eng, done, min, AIO_DEPTH);

	for (int i = 0; i < n; i++) {
		struct aio_slot *a = done[i]->user;

		if (done[i]->res < 0) {
			STAT_ADD(a->st->errors, 1);
			runner_op_error(wk, NULL, "aiowrite", NULL, (int)done[i]->res);
		}
		a->busy = 0;
		wk->aio_inflight--;
	}
	return n;
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
		aio_reap(wk, 1);
	for (int i = 0; i < AIO_DEPTH; i++) {
		if (!wk->aio[i].busy) {
			a = &wk->aio[i];
			break;
		}
	}
	if (!a)
		return FR_NORSC;
	iosize = wl_val_int(&f->fo->iosize, &wk->rng, 8192);
	if (iosize <= 0)
		iosize = 1;
	if (!a->buf || a->req.len < (size_t)iosize) {
		free(a->buf);
		if (posix_memalign(&a->buf, 4096, (size_t)iosize)) {
			a->buf = NULL;
			runner_op_error(wk, f, "allocate buffer", NULL, -ENOMEM);
			return FR_ERROR;
		}
		data_fill(&wk->rn->o->data, &wk->rng, a->buf, (size_t)iosize);
	}
	data_refresh(&wk->rn->o->data, &wk->rng, a->buf, (size_t)iosize);
	wss = slot_wss(f, s);
	if (wl_val_bool(&f->fo->random, 0)) {
		uint64_t blocks = wss >= (uint64_t)iosize ? wss / (uint64_t)iosize : 1;

		off = rng_below(&wk->rng, blocks) * (uint64_t)iosize;
	} else {
		off = s->off;
		if (wss && wl_val_isset(&f->fo->wss) && off + (uint64_t)iosize > wss)
			off = 0;
		s->off = off + (uint64_t)iosize;
	}
	a->req = (struct io_req){ .op = IO_WRITE, .fd = s->fd, .buf = a->buf, .len = (size_t)iosize,
				  .off = off, .user = a };
	a->st = &f->st;
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
	while (wk->aio_inflight)
		if (aio_reap(wk, wk->aio_inflight) < 0)
			break;
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

/* Consume `n` events of the eventgen, waiting until they are due. */
static void events_consume(struct runner *rn, uint64_t n)
{
	if (rn->event_rate <= 0 || !n)
		return;
	uint64_t mine = __atomic_add_fetch(&rn->events_used, n, __ATOMIC_RELAXED);
	/* event number `mine` is due at start + mine / rate */
	uint64_t due = rn->start_ns + (uint64_t)((double)mine / rn->event_rate * 1e9);
	uint64_t now = now_ns();

	if (due > now)
		delay_ns(rn, due - now);
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
static int64_t fsync_dir(struct worker *wk, const char *path)
{
	struct io_req q = { .op = IO_OPEN, .dirfd = wk->rn->dirfd, .path = path,
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
 * directory "<dir>-NNN", each operation timed and counted by the child
 * of its kind; the execution's own time goes to the thread's list.
 * FR_DONE once every execution is claimed. */
static enum flow_result do_replay(struct worker *wk, struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	const struct replay *r = fo->replay;
	struct runner *rn = wk->rn;
	uint64_t total = (uint64_t)wl_val_int(&fo->value, NULL, 1), k, t0;
	struct result_exec x = { 0 };
	char root[128];
	int fd = -1, failed = 0;
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
		struct io_req q = { .dirfd = rn->dirfd, .path = wk->path, .fd = fd };
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
				ret = fsync_dir(wk, wk->path);
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
	return failed ? FR_ERROR : FR_OK;
}

static enum flow_result exec_one(struct worker *wk, struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	struct timing t;

	switch (fo->type) {
	case FO_READ:
		return do_rw(wk, f, 0);
	case FO_WRITE:
		return do_rw(wk, f, 1);
	case FO_APPENDFILE:
		return do_append(wk, f, 0);
	case FO_APPENDFILERAND:
		return do_append(wk, f, 1);
	case FO_READWHOLEFILE:
		return do_wholefile(wk, f, 0);
	case FO_WRITEWHOLEFILE:
		return do_wholefile(wk, f, 1);
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
		if (secs > 0)
			delay_ns(wk->rn, (uint64_t)(secs * 1e9));
		op_end(wk, f, &t, 0, 0);
		return FR_OK;
	}
	case FO_EVENTLIMIT:
		events_consume(wk->rn, 1);
		return FR_OK;
	case FO_IOPSLIMIT:
		events_consume(wk->rn, wk->io_ops - f->last_mark);
		f->last_mark = wk->io_ops;
		return FR_OK;
	case FO_OPSLIMIT:
		events_consume(wk->rn, wk->all_ops - f->last_mark);
		f->last_mark = wk->all_ops;
		return FR_OK;
	case FO_BWLIMIT:
		events_consume(wk->rn, wk->io_bytes - f->last_mark);
		f->last_mark = wk->io_bytes;
		return FR_OK;
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
	case FO_COMPOSITE: {
		enum flow_result r = FR_OK;

		op_begin(f, &t);
		for (size_t i = 0; i < f->nchildren && r == FR_OK; i++)
			r = flow_exec(wk, &f->children[i]);
		op_end(wk, f, &t, 0, 0);
		return r;
	}
	case FO_REPLAY:
		return do_replay(wk, f);
	default:
		return FR_OK;
	}
}

/* Execute a flowop `iters` times, waiting out stalls. */
enum flow_result flow_exec(struct worker *wk, struct wflow *f)
{
	int64_t iters = wl_val_int(&f->fo->iters, &wk->rng, 1);
	enum flow_result r = FR_OK;

	if (iters < 1)
		iters = 1;
	for (int64_t i = 0; i < iters && !runner_stopping(wk->rn); i++) {
		r = exec_one(wk, f);
		while (r == FR_NORSC && !runner_stopping(wk->rn)) {
			STAT_ADD(f->st.stalls, 1);
			if (wk->rn->w->quit_mode != QUIT_TIMEOUT)
				return FR_DONE; /* out of files ends this thread */
			sleep_ns(200000);
			r = exec_one(wk, f);
		}
		if (r != FR_OK)
			return r;
	}
	return r;
}
