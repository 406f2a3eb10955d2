/* fileset.c — run-time filesets: layout, selection, preallocation; see
 * fileset.h. */
#include "runner/fileset.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "runner/data.h"
#include "runner/verify.h"
#include "util/beneath.h"
#include "util/stop.h"
#include "util/util.h"

/* Decide from (seed, i) alone whether entry i is preallocated, so the
 * answer does not depend on thread count or order. */
static double entry_uniform(uint64_t seed, uint64_t i)
{
	uint64_t z = seed ^ (i * 0x9e3779b97f4a7c15ull) ^ 0xa0761d6478bd642full;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1.0p-53;
}

int fileset_layout(struct rt_fileset *fs, const struct wl_fileset *def)
{
	int64_t n;
	uint64_t pow;

	fs->is_file = def->is_file;
	n = def->is_file ? 1 : wl_val_int(&def->entries, NULL, 1);
	if (!def->is_file && wl_val_int(&def->leafdirs, NULL, 0) > 0) {
		/* a fileset of empty directories (makedirs, removedirs, listdirs) */
		n = wl_val_int(&def->leafdirs, NULL, 0);
		fs->leafdirs = 1;
	}
	if (n < 0) {
		msg_err("fileset '%s': entries must not be negative", def->name);
		return -EINVAL;
	}
	fs->n = (uint64_t)n;
	fs->width = (uint64_t)wl_val_int(&def->dirwidth, NULL, 0);
	fs->flat = def->flat && !def->is_file;
	fs->names = fs->flat && def->names && def->nnames == (size_t)n ? def->names : NULL;
	if (fs->width < 2 || fs->flat) /* flat: one level, no directories */
		fs->width = fs->n > 1 ? fs->n : 2;
	fs->levels = 1;
	for (pow = fs->width; pow < fs->n && fs->levels < 32; fs->levels++) {
		if (pow > UINT64_MAX / fs->width)
			break;
		pow *= fs->width;
	}
	/* intermediate directories: at depth k there are ceil(n / w^(L-k)) */
	fs->ndirs = 0;
	for (unsigned k = 1; k < fs->levels; k++) {
		uint64_t div = 1;

		for (unsigned j = 0; j < fs->levels - k; j++)
			div *= fs->width;
		fs->ndirs += (fs->n + div - 1) / div;
	}
	if (wl_val_isset(&def->prealloc))
		fs->prealloc_pct = def->prealloc.kind == WLV_BOOL
					   ? (def->prealloc.i ? 100.0 : 0.0)
					   : wl_val_double(&def->prealloc, NULL, 100.0);
	else
		fs->prealloc_pct = def->is_file ? 100.0 : 0.0;
	if (fs->prealloc_pct > 100)
		fs->prealloc_pct = 100;
	fs->reuse = wl_val_bool(&def->reuse, 0);
	fs->paralloc = wl_val_bool(&def->paralloc, 0);
	fs->readonly = wl_val_bool(&def->readonly, 0);
	fs->cached = wl_val_bool(&def->cached, 0);
	if (fs->n > FILESET_MAX_ENTRIES) {
		msg_err("fileset '%s': %llu entries is more than fsgauge supports (%u)", def->name,
			(unsigned long long)fs->n, FILESET_MAX_ENTRIES);
		return -EINVAL;
	}
	fs->nchunks = 1;
	if (wl_val_isset(&def->chunksize)) {
		int64_t c = wl_val_int(&def->chunksize, NULL, 0);
		int64_t size = wl_val_int(&def->size, NULL, 0);

		if (!def->is_file || c <= 0) {
			msg_err("%s '%s': chunksize must be a positive size, on a single file",
				def->is_file ? "file" : "fileset", def->name);
			return -EINVAL;
		}
		fs->chunk = (uint64_t)c;
		if (size > c && (uint64_t)(size - 1) / (uint64_t)c + 1 > FILESET_MAX_CHUNKS) {
			msg_err("file '%s': %lld bytes in chunks of %lld makes more than %d files",
				def->name, (long long)size, (long long)c, FILESET_MAX_CHUNKS);
			return -EINVAL;
		}
		if (size > c)
			fs->nchunks = (unsigned)((uint64_t)(size - 1) / (uint64_t)c + 1);
	}
	return 0;
}

int fileset_init(struct rt_fileset *fs, const struct wl_fileset *def, const char *relpath,
		 uint64_t seed)
{
	struct rng r;
	int ret;

	memset(fs, 0, sizeof(*fs));
	fs->dirfd = fs->rootfd = -1;
	fs->def = def;
	fs->name = xstrdup(def->name);
	fs->relpath = xstrdup(relpath);
	fs->relpath_len = strlen(relpath);
	fs->names_dir = strrchr(relpath, '/') ? (size_t)(strrchr(relpath, '/') - relpath) + 1 : 0;
	ret = fileset_layout(fs, def);
	if (ret < 0)
		return ret;
	pthread_mutex_init(&fs->lock, NULL);
	fs->lock_init = 1;
	fs->e = calloc(fs->n ? fs->n : 1, sizeof(*fs->e));
	fs->avail[0].v = calloc(fs->n ? fs->n : 1, sizeof(uint32_t));
	fs->avail[1].v = calloc(fs->n ? fs->n : 1, sizeof(uint32_t));
	if (!fs->e || !fs->avail[0].v || !fs->avail[1].v) {
		msg_err("fileset '%s': cannot allocate %llu entries", def->name,
			(unsigned long long)fs->n);
		return -ENOMEM;
	}
	rng_seed(&r, seed, 0x5eed0000 + (uint64_t)def->line);
	for (uint64_t i = 0; i < fs->n; i++) {
		int64_t sz = fs->leafdirs ? 0 : wl_val_int(&def->size, &r, 0);

		fs->e[i].size = sz > 0 ? (uint64_t)sz : 0;
		fs->total_bytes += fs->e[i].size;
	}
	return 0;
}

void fileset_free(struct rt_fileset *fs)
{
	if (fs->lock_init)
		pthread_mutex_destroy(&fs->lock);
	if (fs->dirfd >= 0)
		close(fs->dirfd);
	free(fs->avail[0].v);
	free(fs->avail[1].v);
	free(fs->e);
	free(fs->wmap);
	free(fs->name);
	free(fs->relpath);
	memset(fs, 0, sizeof(*fs));
}

static uint64_t wmap_words_for(uint64_t bytes)
{
	uint64_t blocks = (bytes + DATA_BLOCK - 1) / DATA_BLOCK;

	return (blocks + 63) / 64;
}

double fileset_wmap_bytes(uint64_t n, uint64_t bytes)
{
	return (double)(n ? n : 1) * (double)wmap_words_for(bytes) * sizeof(uint64_t);
}

void fileset_wmap_init(struct rt_fileset *fs, uint64_t bytes)
{
	uint64_t n = fs->n ? fs->n : 1;

	free(fs->wmap);
	fs->wmap = NULL;
	fs->wmap_words = wmap_words_for(bytes);
	fs->wmap_blocks = (bytes + DATA_BLOCK - 1) / DATA_BLOCK;
	if (fs->wmap_words)
		fs->wmap = xcalloc(n * fs->wmap_words, sizeof(*fs->wmap));
}

void fileset_wmap_clear(struct rt_fileset *fs)
{
	if (fs->wmap)
		memset(fs->wmap, 0, (fs->n ? fs->n : 1) * fs->wmap_words * sizeof(*fs->wmap));
}

void fileset_wmap_mark(struct rt_fileset *fs, uint64_t i, uint64_t off, uint64_t len)
{
	uint64_t *w, b, end;

	if (!fs->wmap || !len || i >= (fs->n ? fs->n : 1))
		return;
	w = fs->wmap + i * fs->wmap_words;
	b = off / DATA_BLOCK;
	end = MIN((off + len + DATA_BLOCK - 1) / DATA_BLOCK, fs->wmap_blocks);
	for (; b < end; b++)
		if (!(__atomic_load_n(&w[b / 64], __ATOMIC_RELAXED) & (1ull << (b % 64))))
			__atomic_fetch_or(&w[b / 64], 1ull << (b % 64), __ATOMIC_RELAXED);
}

uint64_t fileset_wmap_next(const struct rt_fileset *fs, uint64_t i, uint64_t b, uint64_t end)
{
	const uint64_t *w;

	if (!fs->wmap || i >= (fs->n ? fs->n : 1))
		return end;
	w = fs->wmap + i * fs->wmap_words;
	end = MIN(end, fs->wmap_blocks);
	while (b < end) {
		uint64_t word = __atomic_load_n(&w[b / 64], __ATOMIC_RELAXED) >> (b % 64);

		if (word)
			return MIN(b + (uint64_t)__builtin_ctzll(word), end);
		b = (b / 64 + 1) * 64;
	}
	return end;
}

/* Path building, on the hot path of every metadata operation (no printf):
 * append the n bytes at s to buf (size len, holding a string of pos
 * bytes); the new length, or -ENAMETOOLONG. */
HOT static int put_bytes(char *buf, size_t len, size_t pos, const char *s, size_t n)
{
	char *d = buf + pos;

	if (pos + n >= len)
		return -ENAMETOOLONG;
	/* eight bytes at a time, then one: inline moves, where memcpy() of a
	 * variable length is a call through the PLT into libc, two more
	 * pages of code on the path after a system call (docs/engine.md) */
	for (; n >= 8; n -= 8, d += 8, s += 8)
		__builtin_memcpy(d, s, 8);
	for (; n; n--)
		*d++ = *s++;
	*d = 0;
	return (int)(d - buf);
}

/* Append "/<c><v in decimal>", two digits at a time (a division each:
 * half as many as one digit at a time). */
HOT static int put_comp(char *buf, size_t len, size_t pos, char c, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char t[24];
	size_t n = sizeof(t);

	while (v >= 100) {
		const char *d = pairs + 2 * (v % 100);

		v /= 100;
		t[--n] = d[1];
		t[--n] = d[0];
	}
	if (v >= 10) {
		t[--n] = pairs[2 * v + 1];
		t[--n] = pairs[2 * v];
	} else {
		t[--n] = (char)('0' + v);
	}
	t[--n] = c;
	t[--n] = '/';
	return put_bytes(buf, len, pos, t + n, sizeof(t) - n);
}

/* Append "/d<digit>" for each of the top k base-w digits of prefix p. */
static int put_dirs(const struct rt_fileset *fs, uint64_t p, unsigned k, char *buf, size_t len,
		    size_t pos)
{
	uint64_t digits[64];
	int w = (int)pos;

	for (unsigned j = 0; j < k; j++) {
		digits[k - 1 - j] = p % fs->width;
		p /= fs->width;
	}
	for (unsigned j = 0; j < k && w >= 0; j++)
		w = put_comp(buf, len, (size_t)w, 'd', digits[j]);
	return w;
}

HOT int fileset_entry_path(const struct rt_fileset *fs, uint64_t i, char *buf, size_t len)
{
	int pos;

	if (fs->names) { /* fio's filename_format: the name given, beside relpath */
		const char *nm = fs->names[i];

		pos = put_bytes(buf, len, 0, fs->relpath, fs->names_dir);
		return pos < 0 ? pos : put_bytes(buf, len, (size_t)pos, nm, strlen(nm));
	}
	pos = put_bytes(buf, len, 0, fs->relpath, fs->relpath_len);
	if (pos < 0 || fs->is_file)
		return pos;
	if (fs->flat && pos > 0) {
		/* "<relpath>.<i>": put_comp's "/.<i>" one byte back, over the
		 * relpath's last byte, which is then put back */
		char last = buf[pos - 1];

		pos = put_comp(buf, len, (size_t)pos - 1, '.', i);
		if (pos > 0)
			buf[fs->relpath_len - 1] = last;
		return pos;
	}
	if (fs->levels > 1) {
		pos = put_dirs(fs, i / fs->width, fs->levels - 1, buf, len, (size_t)pos);
		if (pos < 0)
			return pos;
	}
	return put_comp(buf, len, (size_t)pos, fs->leafdirs ? 'l' : 'f', i);
}

int fileset_chunk_path(const struct rt_fileset *fs, unsigned c, char *buf, size_t len)
{
	int w = snprintf(buf, len, "%s.%03u", fs->relpath, c);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : w;
}

int fileset_dir_path(const struct rt_fileset *fs, uint64_t d, char *buf, size_t len)
{
	int w = put_bytes(buf, len, 0, fs->relpath, fs->relpath_len);

	if (w < 0)
		return w;
	for (unsigned k = 1; k < fs->levels; k++) {
		uint64_t div = 1, count;

		for (unsigned j = 0; j < fs->levels - k; j++)
			div *= fs->width;
		count = (fs->n + div - 1) / div;
		if (d < count)
			return put_dirs(fs, d, k, buf, len, (size_t)w);
		d -= count;
	}
	return -EINVAL;
}

uint64_t fileset_nleaves(const struct rt_fileset *fs)
{
	return fs->levels > 1 ? (fs->n + fs->width - 1) / fs->width : 1;
}

int fileset_leaf_path(const struct rt_fileset *fs, uint64_t j, char *buf, size_t len)
{
	if (fs->levels <= 1)
		return put_bytes(buf, len, 0, ".", 1);
	/* put_dirs writes "/d0/d3": drop the leading slash */
	int w = put_dirs(fs, j, fs->levels - 1, buf, len, 0);

	if (w > 0)
		memmove(buf, buf + 1, (size_t)w--);
	return w;
}

int64_t fileset_entry_of_name(const struct rt_fileset *fs, uint64_t j, const char *name)
{
	uint64_t i = 0, lo = fs->levels > 1 ? j * fs->width : 0;
	uint64_t hi = fs->levels > 1 ? MIN(lo + fs->width, fs->n) : fs->n;
	const char *p = name + 1;

	if (name[0] != (fs->leafdirs ? 'l' : 'f') || !*p || (p[0] == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || i > (UINT64_MAX - 9) / 10)
			return -1;
		i = i * 10 + (uint64_t)(*p - '0');
	}
	return i >= lo && i < hi ? (int64_t)i : -1;
}

/*
 * Selection keeps two lists of entry indices — existing and free, neither
 * held — with each entry's position in its list, so picking a random
 * entry in either state, claiming a given one and releasing are O(1)
 * (a fileset with one existing file among millions must not be scanned).
 * One mutex per fileset guards them: picks happen only around metadata
 * system calls, which cost far more than an uncontended lock.  A fileset
 * that only one worker of the phase uses is not locked at all: the lists
 * are touched only by workers, and by the front end before they start
 * and after they stop (nusers is set before the workers start).
 */
static inline void fs_lock(struct rt_fileset *fs)
{
	if (fs->nusers != 1)
		pthread_mutex_lock(&fs->lock);
}

static inline void fs_unlock(struct rt_fileset *fs)
{
	if (fs->nusers != 1)
		pthread_mutex_unlock(&fs->lock);
}

/* Is an entry of state st available to a thread wanting x (1: an
 * existing file, 0: a free name)? */
static inline int available(uint32_t st, int x)
{
	return !(st & (FSE_BUSY | FSE_OPENS)) && !!(st & FSE_EXISTS) == x;
}

static inline void set_state(struct rt_fileset *fs, uint64_t i, uint32_t st)
{
	__atomic_store_n(&fs->e[i].state, st, __ATOMIC_RELEASE);
}

/* Entry i became available to x: list it, unless it still is. */
HOT static void list_put(struct rt_fileset *fs, uint64_t i, int x)
{
	struct fs_list *l = &fs->avail[x];

	fs->navail[x]++;
	if (!(fs->e[i].state & FSE_IN(x))) {
		l->v[l->n++] = (uint32_t)i;
		set_state(fs, i, fs->e[i].state | FSE_IN(x));
	}
}

/* Hold available entry i (it may stay listed: picks skip it). */
static void take(struct rt_fileset *fs, uint64_t i, int x)
{
	fs->navail[x]--;
	set_state(fs, i, fs->e[i].state | FSE_BUSY);
}

void fileset_index(struct rt_fileset *fs)
{
	fs_lock(fs);
	fs->avail[0].n = fs->avail[1].n = 0;
	fs->navail[0] = fs->navail[1] = 0;
	fs->nexist = 0;
	for (uint64_t i = 0; i < fs->n; i++) {
		int exists = !!(fs->e[i].state & FSE_EXISTS);

		fs->e[i].state = exists ? FSE_EXISTS : 0;
		fs->nexist += (uint64_t)exists;
		list_put(fs, i, exists);
	}
	fs_unlock(fs);
}

HOT int fileset_claim(struct rt_fileset *fs, uint64_t i, enum pick_want want)
{
	int x = want == PICK_EXISTING, ok = 0;

	fs_lock(fs);
	if (available(fs->e[i].state, x)) {
		take(fs, i, x);
		ok = 1;
	}
	fs_unlock(fs);
	return ok;
}

/* Each entry available when the pick is made is equally likely to be
 * taken.  When at least half the entries are available, a few entries
 * drawn at random from the whole fileset are tried first: the entry is
 * the only memory touched (it is read and written anyway), where the list
 * costs a cache line, and often a page, of its own.  Then the list: a
 * position drawn at random among its entries; an entry there that is no
 * longer available is dropped from the list and another drawn.  Either
 * way the entry taken is uniform over the available ones, so the mix is
 * too; each dropped entry was listed by one earlier state change, which
 * bounds the work. */
HOT int64_t fileset_pick(struct rt_fileset *fs, enum pick_want want, struct rng *r)
{
	int x = want == PICK_EXISTING;
	struct fs_list *l = &fs->avail[x];
	int64_t i = -1;

	fs_lock(fs);
	if (!fs->navail[x])
		goto out;
	if (fs->navail[x] * 2 >= fs->n) {
		for (int k = 0; k < 4; k++) {
			uint64_t j = rng_below(r, fs->n);

			if (available(__atomic_load_n(&fs->e[j].state, __ATOMIC_RELAXED), x)) {
				i = (int64_t)j;
				take(fs, j, x);
				goto out;
			}
		}
	}
	/* (the navail > 0 available entries are listed: the list does not
	 * run out; the test on its length only guards the loop) */
	while (i < 0 && l->n) {
		uint32_t p = (uint32_t)rng_below(r, l->n), j = l->v[p];

		l->v[p] = l->v[--l->n];
		set_state(fs, j, fs->e[j].state & ~FSE_IN(x));
		if (available(fs->e[j].state, x)) {
			i = j;
			take(fs, j, x);
		}
	}
out:
	fs_unlock(fs);
	return i;
}

HOT void fileset_set_exists(struct rt_fileset *fs, uint64_t i, int exists)
{
	fs_lock(fs);
	if (!!(fs->e[i].state & FSE_EXISTS) != !!exists)
		fs->nexist += exists ? 1 : (uint64_t)-1;
	set_state(fs, i, (fs->e[i].state & ~FSE_EXISTS) | (exists ? FSE_EXISTS : 0));
	fs_unlock(fs);
}

HOT void fileset_release(struct rt_fileset *fs, uint64_t i, int exists)
{
	uint32_t st;

	fs_lock(fs);
	st = fs->e[i].state;
	if (!!(st & FSE_EXISTS) != !!exists)
		fs->nexist += exists ? 1 : (uint64_t)-1;
	if (!(st & FSE_BUSY)) /* (not held: it was counted available) */
		fs->navail[!!(st & FSE_EXISTS)]--;
	set_state(fs, i, (st & (FSE_IN(0) | FSE_IN(1))) | (exists ? FSE_EXISTS : 0));
	list_put(fs, i, !!exists);
	fs_unlock(fs);
}

/* (a held entry has no open descriptors: a hold is only taken on an
 * available entry, and fileset_share() passes held ones by) */
HOT void fileset_open_held(struct rt_fileset *fs, uint64_t i)
{
	fs_lock(fs);
	set_state(fs, i, (fs->e[i].state & ~FSE_BUSY) + FSE_OPEN1);
	fs_unlock(fs);
}

int64_t fileset_share(struct rt_fileset *fs, struct rng *r)
{
	int64_t i = -1;

	fs_lock(fs);
	for (int k = 0; k < 64 && fs->nexist; k++) {
		uint64_t j = rng_below(r, fs->n);
		uint32_t st = fs->e[j].state;

		if ((st & FSE_EXISTS) && !(st & FSE_BUSY) && (st & FSE_OPENS) &&
		    (st & FSE_OPENS) != FSE_OPENS) {
			set_state(fs, j, st + FSE_OPEN1);
			i = (int64_t)j;
			break;
		}
	}
	fs_unlock(fs);
	return i;
}

HOT void fileset_close(struct rt_fileset *fs, uint64_t i)
{
	uint32_t st;

	fs_lock(fs);
	st = fs->e[i].state - FSE_OPEN1;
	set_state(fs, i, st);
	if (!(st & (FSE_BUSY | FSE_OPENS)))
		list_put(fs, i, !!(st & FSE_EXISTS));
	fs_unlock(fs);
}

/* State shared by the preallocation threads of one fileset. */
struct prealloc_shared {
	pthread_mutex_t mu;
	int failed;  /* atomic: a thread met an error, all stop */
	char *error; /* the first one */
};

struct prealloc_job {
	struct rt_fileset *fs;
	int dirfd;
	const char *engine;
	const struct data_pattern *dp;
	uint64_t seed;
	unsigned idx, nthreads;
	const volatile int *stop;
	struct prealloc_shared *sh;
	uint64_t files, bytes;
	int err;
};

/* Record and print an I/O failure: the first one is kept for the result,
 * later ones (other threads tripping over the same full disk) are only
 * counted in silence. */
static int prealloc_fail(struct prealloc_shared *sh, int neg_errno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int prealloc_fail(struct prealloc_shared *sh, int neg_errno, const char *fmt, ...)
{
	va_list ap;
	char what[4200];

	/* cut short by the user's signal (the engines no longer retry EINTR
	 * then): the stop, not an error of the file system */
	if (neg_errno == -EINTR && stop_requested()) {
		__atomic_store_n(&sh->failed, 1, __ATOMIC_RELAXED);
		return neg_errno;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&sh->mu);
	if (!sh->error) {
		sh->error = xasprintf("%s: %s", what, strerror(-neg_errno));
		msg_err("cannot preallocate: %s", sh->error);
	}
	__atomic_store_n(&sh->failed, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&sh->mu);
	return neg_errno;
}

/* Create and write the file at (dirfd, at), named `path` in messages. */
static int write_entry(struct engine *e, int dirfd, const char *at, const char *path,
		       uint64_t size, void *buf, size_t bufsz, struct rng *r,
		       const struct data_pattern *dp, uint64_t *bytes, struct prealloc_shared *sh,
		       const volatile int *stop, int verify, uint64_t id, uint64_t base)
{
	struct io_req q = { .op = IO_OPEN, .dirfd = dirfd, .path = at,
			    .flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, .mode = 0644 };
	int64_t fd = engine_exec_full(e, &q);
	uint64_t off = 0;
	int64_t ret = 0;

	if (fd < 0)
		return prealloc_fail(sh, (int)fd, "create '%s'", path);
	if (verify)
		size = verify_align_up(size); /* whole self-checking blocks */
	/* a big file is written in 1 MiB pieces; a signal or another
	 * thread's failure stops it between two */
	while (off < size && !__atomic_load_n(stop, __ATOMIC_RELAXED) && !__atomic_load_n(&sh->failed, __ATOMIC_RELAXED)) {
		size_t n = (size_t)MIN((uint64_t)bufsz, size - off);

		if (verify)
			verify_stamp(buf, n, base + off, id, 0, rng_next(r));
		else
			data_refresh(dp, r, buf, n);
		q = (struct io_req){ .op = IO_WRITE, .fd = (int)fd, .buf = buf, .len = n, .off = off };
		ret = engine_exec_full(e, &q);
		if (ret < 0) {
			prealloc_fail(sh, (int)ret, "write '%s' at offset %llu", path,
				      (unsigned long long)off);
			break;
		}
		off += n;
		*bytes += n;
	}
	q = (struct io_req){ .op = IO_CLOSE, .fd = (int)fd };
	/* EINTR from close() still releases the descriptor (Linux): fine */
	if (engine_exec(e, &q) < 0 && q.res != -EINTR && ret >= 0)
		ret = prealloc_fail(sh, (int)q.res, "close '%s'", path);
	return ret < 0 ? (int)ret : 0;
}

static void *prealloc_thread(void *arg)
{
	struct prealloc_job *j = arg;
	struct rt_fileset *fs = j->fs;
	struct engine *e;
	static const struct data_pattern random_data = { DATA_RANDOM, 0 };
	const struct data_pattern *dp = j->dp ? j->dp : &random_data;
	struct rng r;
	size_t bufsz = 1 << 20;
	void *buf;
	char path[4096];

	if (engine_open(&e, j->engine, 1) < 0) {
		j->err = -EINVAL;
		__atomic_store_n(&j->sh->failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (posix_memalign(&buf, 4096, bufsz)) {
		j->err = -ENOMEM;
		__atomic_store_n(&j->sh->failed, 1, __ATOMIC_RELAXED);
		engine_close(e);
		return NULL;
	}
	rng_seed(&r, j->seed, 0xa110c000 + j->idx);
	data_fill(dp, &r, buf, bufsz);
	for (uint64_t i = j->idx; i < fs->n && !__atomic_load_n(j->stop, __ATOMIC_RELAXED) &&
				  !__atomic_load_n(&j->sh->failed, __ATOMIC_RELAXED);
	     i += j->nthreads) {
		if (entry_uniform(j->seed, i) * 100.0 >= fs->prealloc_pct)
			continue;
		if (fileset_entry_path(fs, i, path, sizeof(path)) < 0) {
			j->err = prealloc_fail(j->sh, -ENAMETOOLONG, "path of entry %llu of '%s'",
					       (unsigned long long)i, fs->relpath);
			break;
		}
		const char *at = path;
		int atfd = fileset_at(fs, j->dirfd, &at);

		if (fs->leafdirs) {
			struct io_req q = { .op = IO_MKDIR, .dirfd = atfd, .path = at, .mode = 0755 };
			int64_t ret = engine_exec_full(e, &q);

			if (ret < 0 && ret != -EEXIST) {
				j->err = prealloc_fail(j->sh, (int)ret, "mkdir '%s'", path);
				break;
			}
		} else if (fs->chunk) {
			uint64_t left = fs->verify ? verify_align_up(fs->e[i].size) : fs->e[i].size;

			for (unsigned c = 0; c < fs->nchunks && !j->err; c++) {
				uint64_t n = c + 1 < fs->nchunks ? MIN(left, fs->chunk) : left;

				fileset_chunk_path(fs, c, path, sizeof(path));
				/* under --verify, stamped with the offsets of the
				 * whole file (chunk c starts at c * chunk, a
				 * multiple of the block size: runner checks) */
				j->err = write_entry(e, j->dirfd, path, path, n, buf, bufsz, &r, dp,
						     &j->bytes, j->sh, j->stop, fs->verify, i,
						     (uint64_t)c * fs->chunk);
				left -= n;
			}
			if (j->err)
				break;
		} else {
			j->err = write_entry(e, atfd, at, path, fs->e[i].size, buf, bufsz, &r, dp,
					     &j->bytes, j->sh, j->stop, fs->verify, i, 0);
			if (j->err)
				break;
		}
		fs->e[i].cur = fs->verify ? verify_align_up(fs->e[i].size) : fs->e[i].size;
		fs->e[i].state = FSE_EXISTS;
		j->files++;
	}
	free(buf);
	engine_close(e);
	return NULL;
}

void fileset_use_device(struct rt_fileset *fs)
{
	for (uint64_t i = 0; i < fs->n; i++) {
		fs->e[i].cur = fs->e[i].size;
		fs->e[i].state = FSE_EXISTS;
	}
	fileset_index(fs);
}

/* The first len bytes of relpath, a directory below the run directory
 * (dirfd), and every parent up to it, one component at a time: each is
 * made (or found) relative to its parent's descriptor, then opened
 * without following a symbolic link (beneath.h), so that nothing found
 * below the run directory can send the fileset elsewhere.  *last (when
 * not NULL) is the last one's descriptor, else it is closed.  When a
 * directory just made cannot be found, the engine made none (null):
 * *last stays -1, and a real problem shows at the first operation. */
static int make_dirs(struct engine *e, int dirfd, const char *relpath, size_t len,
		     struct prealloc_shared *sh, int *last)
{
	char path[4096];
	int cur = dirfd;

	if (last)
		*last = -1;
	if (len >= sizeof(path))
		return prealloc_fail(sh, -ENAMETOOLONG, "mkdir '%.64s...'", relpath);
	memcpy(path, relpath, len);
	path[len] = 0;
	for (char *s = path, *end;; s = end + 1) {
		int64_t r;
		int next;
		char c;

		end = s + strcspn(s, "/");
		c = *end;
		*end = 0;
		if (!*s || !strcmp(s, ".")) {
			if (!c)
				break;
			*end = c;
			continue;
		}
		struct io_req q = { .op = IO_MKDIR, .dirfd = cur, .path = s, .mode = 0755 };

		r = engine_exec_full(e, &q);
		if (r < 0 && r != -EEXIST) {
			if (cur != dirfd)
				close(cur);
			return prealloc_fail(sh, (int)r, "mkdir '%s'", path);
		}
		next = beneath_open(cur, s, O_RDONLY | O_DIRECTORY, 0);
		if (cur != dirfd)
			close(cur);
		if (next == -ENOENT && r == 0)
			return 0; /* the engine made nothing */
		if (next < 0)
			return prealloc_fail(sh, next, "open directory '%s'", path);
		cur = next;
		if (!c)
			break;
		*end = c;
	}
	if (cur != dirfd) {
		if (last)
			*last = cur;
		else
			close(cur);
	}
	return 0;
}

/* The fileset's own directory (make_dirs): fs->dirfd is it, or stays -1
 * when the engine made none (entries then resolve from the run
 * directory: fileset_at). */
static int make_own_dir(struct rt_fileset *fs, struct engine *e, int dirfd,
			struct prealloc_shared *sh)
{
	int cur, ret = make_dirs(e, dirfd, fs->relpath, fs->relpath_len, sh, &cur);

	if (ret == 0 && cur >= 0) {
		if (fs->dirfd >= 0)
			close(fs->dirfd);
		fs->dirfd = cur;
	}
	return ret;
}

/* The directories between the fileset's own and its entries (d0, d0/d3,
 * ...), level by level.  Each is made relative to its parent, opened
 * with beneath_open() from the fileset's directory (one open per
 * parent: the levels come in order), and one that already exists must
 * be a directory, not a link to one. */
static int make_levels(struct rt_fileset *fs, struct engine *e, int dirfd,
		       const volatile int *stop, struct prealloc_shared *sh)
{
	char path[4096], parent[4096] = "";
	int pfd = -1, ret = 0;

	for (uint64_t d = 0; d < fs->ndirs && !__atomic_load_n(stop, __ATOMIC_RELAXED); d++) {
		struct io_req q = { .op = IO_MKDIR, .dirfd = dirfd, .path = path, .mode = 0755 };
		const char *rel, *slash;
		struct stat st;
		int64_t r;

		if (fileset_dir_path(fs, d, path, sizeof(path)) < 0) {
			ret = prealloc_fail(sh, -ENAMETOOLONG, "path of directory %llu of '%s'",
					    (unsigned long long)d, fs->relpath);
			break;
		}
		if (fs->dirfd >= 0) {
			rel = path + fs->relpath_len + 1;
			slash = strrchr(rel, '/');
			q.dirfd = fs->dirfd;
			q.path = rel;
			if (slash) {
				size_t plen = (size_t)(slash - rel);

				if (pfd < 0 || strlen(parent) != plen || strncmp(parent, rel, plen)) {
					if (pfd >= 0)
						close(pfd);
					memcpy(parent, rel, plen);
					parent[plen] = 0;
					pfd = beneath_open(fs->dirfd, parent, O_RDONLY | O_DIRECTORY, 0);
					if (pfd < 0) {
						ret = prealloc_fail(sh, pfd, "open directory '%s/%s'",
								    fs->relpath, parent);
						break;
					}
				}
				q.dirfd = pfd;
				q.path = slash + 1;
			}
		}
		r = engine_exec_full(e, &q);
		if (r == -EEXIST && fs->dirfd >= 0) {
			if (fstatat(q.dirfd, q.path, &st, AT_SYMLINK_NOFOLLOW) < 0)
				r = -errno;
			else if (S_ISLNK(st.st_mode))
				r = -ELOOP;
			else if (!S_ISDIR(st.st_mode))
				r = -ENOTDIR;
		}
		if (r < 0 && r != -EEXIST) {
			ret = prealloc_fail(sh, (int)r, "mkdir '%s'", path);
			break;
		}
	}
	if (pfd >= 0)
		close(pfd);
	return ret;
}

int fileset_create(struct rt_fileset *fs, int dirfd, const char *engine,
		   const struct data_pattern *dp, int nthreads, uint64_t seed,
		   const volatile int *stop, struct fileset_prealloc_stats *out)
{
	struct prealloc_shared sh = { .error = NULL };
	struct engine *e;
	uint64_t t0 = now_ns();
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (engine_open(&e, engine, 1) < 0)
		return -EINVAL;
	pthread_mutex_init(&sh.mu, NULL);
	if (!fs->is_file && !fs->flat) {
		ret = make_own_dir(fs, e, dirfd, &sh);
		if (ret == 0)
			ret = make_levels(fs, e, dirfd, stop, &sh);
		if (ret < 0)
			goto out;
	} else if (fs->names_dir > 1) {
		/* a file (or flat files) in a directory below the run
		 * directory (fsgauge io's relative directory=): made first */
		ret = make_dirs(e, dirfd, fs->relpath, fs->names_dir - 1, &sh, NULL);
		if (ret < 0)
			goto out;
	}
	/* Always in parallel (filebench's paralloc is the only mode here). */
	if (nthreads < 1)
		nthreads = 1;
	if ((uint64_t)nthreads > fs->n)
		nthreads = fs->n ? (int)fs->n : 1;
	{
		struct prealloc_job *jobs = xcalloc((size_t)nthreads, sizeof(*jobs));
		pthread_t *tids = xcalloc((size_t)nthreads, sizeof(*tids));
		int *started = xcalloc((size_t)nthreads, sizeof(*started));

		for (int t = 0; t < nthreads; t++) {
			jobs[t] = (struct prealloc_job){ .fs = fs, .dirfd = dirfd, .engine = engine,
							 .dp = dp, .seed = seed, .idx = (unsigned)t,
							 .nthreads = (unsigned)nthreads, .stop = stop,
							 .sh = &sh };
			if (pthread_create(&tids[t], NULL, prealloc_thread, &jobs[t]) == 0) {
				started[t] = 1;
			} else {
				/* its share of the entries would be missing: stop all */
				jobs[t].err = prealloc_fail(&sh, -EAGAIN, "start thread %d", t + 1);
			}
		}
		for (int t = 0; t < nthreads; t++) {
			if (started[t])
				pthread_join(tids[t], NULL);
			out->files += jobs[t].files;
			out->bytes += jobs[t].bytes;
			if (jobs[t].err && !ret)
				ret = jobs[t].err;
		}
		free(started);
		free(jobs);
		free(tids);
	}
out:
	fileset_index(fs);
	engine_close(e);
	pthread_mutex_destroy(&sh.mu);
	out->error = sh.error;
	out->seconds = (double)(now_ns() - t0) / 1e9;
	return ret;
}
