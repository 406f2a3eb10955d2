/*
 * test_async.c — the engines that keep many requests in flight
 * (ENGINE_ASYNC: io_uring, libaio, each when built in): on a file in a
 * temporary directory, 32 writes at distinct offsets submitted before
 * the first reap (and a 33rd refused with -EAGAIN: the depth given to
 * engine_open() is the limit), every completion's byte count, the data
 * read back by 32 submitted reads, a read past the end of the file
 * completing with 0 bytes, a request on a bad descriptor completing with
 * -EBADF, fsync and fdatasync through the queue, and exec() of the same
 * operations; the 32 writes and reads again on an O_DIRECT file (where
 * native AIO is asynchronous; skipped where the file system refuses
 * O_DIRECT).  The synchronous engines do not claim ENGINE_ASYNC.
 *
 * Batched submission (engine_queue(), engine_flush()): batches of 1, 7
 * and 32 writes queued without a system call and pushed by one flush
 * with one submission call (engine_submit_calls()), their completions
 * and the data read back by a batch of reads; queued and submitted
 * requests together limited by the depth (-EAGAIN past it); a reap with
 * only queued requests pushes and completes them; a bad descriptor in a
 * batch completes with -EBADF and the others are done; faulty:io_uring
 * and faulty:libaio pass a batch through (one injected failure, one
 * call); on psync and null a queued request is complete at once and
 * flush has nothing to push.  io_uring opened with a depth of 65536
 * starts, clamped to the kernel's limit (IORING_SETUP_CLAMP).
 *
 * Engine options (engine_open_opts()): io_uring with sqthread_poll (and
 * bound to CPU 0), and faulty:io_uring with it, pass all of the above;
 * psync, faulty:null and sqthread_poll_cpu alone are refused.  With
 * registerfiles, the same, and the requests on a registered file reach
 * it through the ring's table even with its descriptor closed behind
 * the engine's back (test_regfiles).  With fixedbufs, a request naming
 * a registered buffer that does not hold its own fails with -EFAULT, the
 * right one moves the data (test_fixedbufs).
 *
 * Trims (IO_DISCARD, fio's trim) are synchronous on every engine, as fio
 * 3.33's: exec() issues the BLKDISCARD ioctl, on io_uring and libaio
 * too while a write of theirs is in flight (its completion left for the
 * reap), counted as a trim request, and submit() refuses one; on a
 * regular file the ioctl fails and exec() returns its -errno.
 * faulty:io_uring and faulty:libaio pass them through, and fail the one
 * an op=trim rule picks without reaching the engine (test_discard).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/faulty.h"
#include "tap.h"

#define DEPTH 32
#define BS 4096

/* aligned for O_DIRECT */
static _Alignas(4096) char bufs[DEPTH][BS], back[DEPTH][BS];

/* Reap until `want` completions are in done[]; returns how many came. */
static int reap_all(struct engine *e, struct io_req **done, int want)
{
	int n = 0;

	while (n < want) {
		int r = engine_reap(e, done + n, 1, (unsigned)(want - n));

		if (r <= 0)
			break;
		n += r;
	}
	return n;
}

/* Submit `n` requests of reqs[]; returns how many were accepted before
 * the first refusal, the refusal in *err (0 if none). */
static int submit_all(struct engine *e, struct io_req *reqs, int n, int *err)
{
	int i;

	*err = 0;
	for (i = 0; i < n; i++) {
		int r = engine_submit(e, &reqs[i]);

		if (r < 0) {
			*err = r;
			break;
		}
	}
	return i;
}

/* Each completion's request is one of reqs[] and came once; each
 * transferred `want` bytes. */
static void check_done(const char *name, const char *what, struct io_req **done, int n,
		       struct io_req *reqs, int64_t want)
{
	int seen[DEPTH] = { 0 }, good = 1, unique = 1;

	for (int i = 0; i < n; i++) {
		int idx = (int)(done[i] - reqs);

		if (idx < 0 || idx >= DEPTH || seen[idx]++) {
			unique = 0;
			continue;
		}
		if (done[i]->res != want) {
			if (good)
				printf("#   %s: %s %d completed with %lld\n", name, what, idx,
				     (long long)done[i]->res);
			good = 0;
		}
	}
	ok(unique, "%s: each of the %s completed once", name, what);
	ok(good, "%s: every one of the %s transferred %lld bytes", name, what, (long long)want);
}

static void test_queue(const char *name, struct engine *e, int fd)
{
	struct io_req reqs[DEPTH], extra, *done[DEPTH + 1];
	int n, err, good = 1;

	/* writes in a scrambled order of offsets, each block its own pattern */
	for (int i = 0; i < DEPTH; i++) {
		int blk = (i * 7) % DEPTH;

		memset(bufs[i], 'A' + blk % 26, BS);
		snprintf(bufs[i], 16, "block %d", blk);
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[i], .len = BS,
					   .off = (uint64_t)blk * BS };
	}
	n = submit_all(e, reqs, DEPTH, &err);
	is_int(n, DEPTH, "%s: %d writes submitted before the first reap (%d)", name, DEPTH, err);
	extra = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[0], .len = BS, .off = 0 };
	is_int(engine_submit(e, &extra), -EAGAIN, "%s: request %d is refused: the queue is full",
	       name, DEPTH + 1);
	n = reap_all(e, done, DEPTH);
	is_int(n, DEPTH, "%s: %d write completions reaped", name, DEPTH);
	check_done(name, "writes", done, n, reqs, BS);
	is_int(engine_reap(e, done, 0, DEPTH), 0, "%s: nothing more to reap", name);

	for (int i = 0; i < DEPTH; i++) {
		memset(back[i], 0, BS);
		reqs[i] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[i], .len = BS,
					   .off = (uint64_t)i * BS };
	}
	n = submit_all(e, reqs, DEPTH, &err);
	is_int(n, DEPTH, "%s: %d reads submitted before the first reap (%d)", name, DEPTH, err);
	n = reap_all(e, done, DEPTH);
	is_int(n, DEPTH, "%s: %d read completions reaped", name, DEPTH);
	check_done(name, "reads", done, n, reqs, BS);
	for (int i = 0; i < DEPTH; i++)
		if (memcmp(back[(i * 7) % DEPTH], bufs[i], BS))
			good = 0;
	ok(good, "%s: the data read back is what was written, block by block", name);
}

static void test_edges(const char *name, struct engine *e, int fd)
{
	struct io_req r, *done[2];
	char buf[BS];

	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = buf, .len = BS,
			     .off = (uint64_t)(DEPTH + 8) * BS };
	is_int(engine_submit(e, &r), 0, "%s: a read past the end is queued", name);
	is_int(reap_all(e, done, 1), 1, "%s: ... and completes", name);
	is_int(r.res, 0, "%s: ... with 0 bytes", name);

	r = (struct io_req){ .op = IO_WRITE, .fd = -1, .buf = buf, .len = BS, .off = 0 };
	is_int(engine_submit(e, &r), 0, "%s: a write on a bad descriptor is taken", name);
	is_int(reap_all(e, done, 1), 1, "%s: ... and completes", name);
	is_int(r.res, -EBADF, "%s: ... with -EBADF", name);

	r = (struct io_req){ .op = IO_FSYNC, .fd = fd };
	is_int(engine_submit(e, &r), 0, "%s: fsync is queued", name);
	is_int(reap_all(e, done, 1), 1, "%s: ... and completes", name);
	is_int(r.res, 0, "%s: ... with 0", name);
	r = (struct io_req){ .op = IO_FDATASYNC, .fd = fd };
	is_int(engine_submit(e, &r), 0, "%s: fdatasync is queued", name);
	is_int(reap_all(e, done, 1), 1, "%s: ... and completes", name);
	is_int(r.res, 0, "%s: ... with 0", name);

	/* exec(): one request to completion */
	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = buf, .len = BS, .off = BS };
	is_int(engine_exec_full(e, &r), BS, "%s: exec read", name);
	ok(!strcmp(buf, "block 1"), "%s: ... of the right block (%.8s)", name, buf);
	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = buf, .len = BS,
			     .off = (uint64_t)(DEPTH + 8) * BS };
	is_int(engine_exec(e, &r), 0, "%s: exec read past the end: 0 bytes", name);
	r = (struct io_req){ .op = IO_WRITE, .fd = -1, .buf = buf, .len = BS };
	is_int(engine_exec(e, &r), -EBADF, "%s: exec write on a bad descriptor: -EBADF", name);
	r = (struct io_req){ .op = IO_FDATASYNC, .fd = fd };
	is_int(engine_exec(e, &r), 0, "%s: exec fdatasync", name);
	r = (struct io_req){ .op = IO_FSTAT, .fd = fd };
	is_int(engine_exec(e, &r), 0, "%s: exec fstat (not queued: the system call)", name);
	r = (struct io_req){ .op = IO_FSTAT, .fd = fd };
	ok(engine_submit(e, &r) < 0, "%s: submit of an operation it does not queue is refused",
	   name);
}

/* A batch of n writes queued then pushed by one flush with one
 * submission call, then a batch of n reads of them. */
static void test_batch_of(const char *name, struct engine *e, int fd, int n)
{
	struct io_req reqs[DEPTH], *done[DEPTH];
	uint64_t c0 = engine_submit_calls(e);
	int err = 0, got, good = 1;
	char what[32];

	for (int i = 0; i < n; i++) {
		memset(bufs[i], 'a' + (n + i) % 26, BS);
		snprintf(bufs[i], 24, "batch %d block %d", n, i);
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[i], .len = BS,
					   .off = (uint64_t)i * BS };
		if (!err)
			err = engine_queue(e, &reqs[i]);
	}
	is_int(err, 0, "%s: a batch of %d writes queued", name, n);
	is_int((int)(engine_submit_calls(e) - c0), 0, "%s: ... without a system call", name);
	is_int(engine_flush(e), 0, "%s: ... flushed", name);
	is_int((int)(engine_submit_calls(e) - c0), 1, "%s: ... with one submission call", name);
	got = reap_all(e, done, n);
	is_int(got, n, "%s: %d completions of the batch", name, n);
	snprintf(what, sizeof(what), "%d batched writes", n);
	check_done(name, what, done, got, reqs, BS);

	for (int i = 0; i < n; i++) {
		memset(back[i], 0, BS);
		reqs[i] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[i], .len = BS,
					   .off = (uint64_t)i * BS };
		engine_queue(e, &reqs[i]);
	}
	c0 = engine_submit_calls(e);
	is_int(engine_flush(e), 0, "%s: a batch of %d reads flushed", name, n);
	is_int((int)(engine_submit_calls(e) - c0), 1, "%s: ... with one submission call", name);
	got = reap_all(e, done, n);
	snprintf(what, sizeof(what), "%d batched reads", n);
	check_done(name, what, done, got, reqs, BS);
	for (int i = 0; i < n; i++)
		if (memcmp(back[i], bufs[i], BS))
			good = 0;
	ok(good, "%s: the batch of %d read back what was written", name, n);
}

static void test_batch(const char *name, struct engine *e, int fd)
{
	struct io_req reqs[DEPTH], extra, *done[DEPTH];
	char buf[BS];
	uint64_t c0;
	int n, err = 0;

	test_batch_of(name, e, fd, 1);
	test_batch_of(name, e, fd, 7);
	test_batch_of(name, e, fd, DEPTH);

	/* the depth counts queued and submitted requests alike */
	for (int i = 0; i < DEPTH; i++) {
		reqs[i] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[i], .len = BS,
					   .off = (uint64_t)i * BS };
		if (!err)
			err = i < DEPTH / 2 ? engine_submit(e, &reqs[i]) : engine_queue(e, &reqs[i]);
	}
	is_int(err, 0, "%s: %d submitted and %d queued", name, DEPTH / 2, DEPTH / 2);
	extra = (struct io_req){ .op = IO_READ, .fd = fd, .buf = buf, .len = BS, .off = 0 };
	is_int(engine_queue(e, &extra), -EAGAIN, "%s: queueing request %d is refused: -EAGAIN",
	       name, DEPTH + 1);
	is_int(engine_submit(e, &extra), -EAGAIN, "%s: ... and so is submitting it", name);
	n = reap_all(e, done, DEPTH);
	is_int(n, DEPTH, "%s: the reap pushes the queued ones: %d completions", name, DEPTH);
	check_done(name, "submitted and queued reads", done, n, reqs, BS);

	/* a reap with only queued requests pushes and completes them */
	for (int i = 0; i < 7; i++) {
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[i], .len = BS,
					   .off = (uint64_t)i * BS };
		engine_queue(e, &reqs[i]);
	}
	c0 = engine_submit_calls(e);
	n = engine_reap(e, done, 7, 7);
	is_int(n, 7, "%s: a reap of 7 queued, never flushed writes completes them", name);
	check_done(name, "queued writes reaped", done, n > 0 ? n : 0, reqs, BS);
	is_int((int)(engine_submit_calls(e) - c0), 1, "%s: ... pushed with one call", name);
	is_int(engine_reap(e, done, 0, DEPTH), 0, "%s: nothing more to reap", name);
	is_int(engine_flush(e), 0, "%s: a flush with nothing queued", name);

	/* a bad descriptor in a batch: its own completion, the others done */
	for (int i = 0; i < 3; i++)
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = i == 1 ? -1 : fd, .buf = bufs[i],
					   .len = BS, .off = (uint64_t)i * BS };
	for (int i = 0; i < 3; i++)
		engine_queue(e, &reqs[i]);
	is_int(engine_flush(e), 0, "%s: a batch with a bad descriptor is flushed", name);
	is_int(reap_all(e, done, 3), 3, "%s: ... all 3 complete", name);
	ok(reqs[0].res == BS && reqs[1].res == -EBADF && reqs[2].res == BS,
	   "%s: ... the bad one with -EBADF, the others whole (%lld %lld %lld)", name,
	   (long long)reqs[0].res, (long long)reqs[1].res, (long long)reqs[2].res);
}

static void test_direct(const char *name, struct engine *e, int dfd)
{
	struct io_req r = { .op = IO_OPEN, .dirfd = dfd, .path = "direct",
			    .flags = O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, .mode = 0600 };
	int fd = (int)engine_exec_full(e, &r);
	char label[64];

	if (fd == -EINVAL) {
		ok(1, "# SKIP %s: the file system refuses O_DIRECT", name);
		return;
	}
	ok(fd >= 0, "%s: open an O_DIRECT file", name);
	if (fd < 0)
		return;
	snprintf(label, sizeof(label), "%s O_DIRECT", name);
	test_queue(label, e, fd);
	test_batch(label, e, fd);
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	engine_exec(e, &r);
	r = (struct io_req){ .op = IO_UNLINK, .dirfd = dfd, .path = "direct" };
	is_int(engine_exec(e, &r), 0, "%s: unlink the O_DIRECT file", name);
}

/* The tests above on engine `spec` opened with options `o` (NULL: none),
 * `name` in the messages. */
static void test_engine_opts(const char *spec, const struct engine_opts *o, const char *name)
{
	char dir[] = "/tmp/fsgauge-async-XXXXXX";
	struct engine *e = NULL;
	int dfd, fd;
	struct io_req r;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (engine_open_opts(&e, spec, DEPTH, o) < 0) {
		ok(0, "engine_open('%s', %d)", name, DEPTH);
		goto out;
	}
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "data",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd = (int)engine_exec_full(e, &r);
	ok(fd >= 0, "%s: open a file in the temporary directory", name);
	if (fd >= 0) {
		test_queue(name, e, fd);
		test_edges(name, e, fd);
		test_batch(name, e, fd);
		r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
		is_int(engine_exec(e, &r), 0, "%s: close", name);
	}
	r = (struct io_req){ .op = IO_UNLINK, .dirfd = dfd, .path = "data" };
	is_int(engine_exec(e, &r), 0, "%s: unlink", name);
	test_direct(name, e, dfd);
	engine_close(e);
out:
	close(dfd);
	rmdir(dir);
}

static void test_engine(const char *name)
{
	test_engine_opts(name, NULL, name);
}

#ifdef HAVE_LIBURING
/* sqthread_poll (ENGINE_OPT_SQPOLL, with and without a CPU): the same
 * requests complete the same way through a ring the kernel's thread
 * polls; an engine without ENGINE_SQPOLL refuses it, a wrapper passes
 * it to io_uring, and sqthread_poll_cpu alone is refused. */
static void test_sqpoll(void)
{
	struct engine_opts sq = { .flags = ENGINE_OPT_SQPOLL };
	struct engine_opts aff = { .flags = ENGINE_OPT_SQPOLL | ENGINE_OPT_SQ_AFF, .sq_cpu = 0 };
	struct engine_opts lone = { .flags = ENGINE_OPT_SQ_AFF, .sq_cpu = 0 };
	struct engine *e = NULL;
	int r;

	ok(engine_spec_caps("io_uring") & ENGINE_SQPOLL, "io_uring takes sqthread_poll");
	ok(engine_spec_caps("faulty:io_uring") & ENGINE_SQPOLL, "faulty:io_uring takes it too");
	ok(!(engine_spec_caps("psync") & ENGINE_SQPOLL) && !(engine_spec_caps("null") & ENGINE_SQPOLL),
	   "psync and null do not");
	is_int(engine_open_opts(&e, "psync", 1, &sq), -EINVAL, "psync with sqthread_poll: -EINVAL");
	is_int(engine_open_opts(&e, "faulty:null", 1, &sq), -EINVAL,
	       "faulty:null with sqthread_poll: -EINVAL");
	is_int(engine_open_opts(&e, "io_uring", 1, &lone), -EINVAL,
	       "sqthread_poll_cpu without sqthread_poll: -EINVAL");
	r = engine_open_opts(&e, "io_uring", DEPTH, &sq);
	if (r == -EPERM || r == -EINVAL) {
		ok(1, "# SKIP the kernel refuses IORING_SETUP_SQPOLL here (%s)", strerror(-r));
		return;
	}
	is_int(r, 0, "io_uring with sqthread_poll opens");
	if (!r)
		engine_close(e);
	test_engine_opts("io_uring", &sq, "io_uring+sqthread_poll");
	test_engine_opts("io_uring", &aff, "io_uring+sqthread_poll_cpu=0");
	test_engine_opts("faulty:io_uring", &sq, "faulty:io_uring+sqthread_poll");
}

/* One write then one read of BS bytes at 0 through the queue on fd;
 * the read's result, its data compared with the write's in *same. */
static int64_t write_read(struct engine *e, int fd, int *same)
{
	struct io_req w = { .op = IO_WRITE, .fd = fd, .buf = bufs[0], .len = BS };
	struct io_req r = { .op = IO_READ, .fd = fd, .buf = back[0], .len = BS }, *done;

	memset(bufs[0], 0x5a, BS);
	memset(back[0], 0, BS);
	if (engine_submit(e, &w) < 0 || engine_reap(e, &done, 1, 1) != 1 || w.res != BS)
		return w.res < 0 ? w.res : -EIO;
	if (engine_submit(e, &r) < 0 || engine_reap(e, &done, 1, 1) != 1)
		return -EIO;
	*same = !memcmp(bufs[0], back[0], BS);
	return r.res;
}

/* registerfiles (ENGINE_OPT_REGFILES): the requests name the file's slot,
 * not its descriptor.  Seen from outside: with the descriptor closed
 * behind the instance's back (a plain close(2), not IO_CLOSE), a request
 * with that number still reaches the file, which the table holds; after
 * IO_CLOSE the slot is empty again and a request on the number fails
 * with -EBADF.  A table of one slot: the second file is used by its
 * descriptor.  The whole queue, batch and O_DIRECT suite passes with a
 * table too; psync and null refuse the option. */
static void test_regfiles(void)
{
	struct engine_opts one = { .flags = ENGINE_OPT_REGFILES, .nfiles = 1 };
	struct engine_opts eight = { .flags = ENGINE_OPT_REGFILES, .nfiles = 8 };
	char dir[] = "/tmp/fsgauge-async-XXXXXX";
	struct engine *e = NULL;
	struct io_req r;
	int dfd, fd, fd2, same = 0;

	ok(engine_spec_caps("io_uring") & ENGINE_REGFILES, "io_uring takes registerfiles");
	ok(engine_spec_caps("faulty:io_uring") & ENGINE_REGFILES, "faulty:io_uring takes it too");
	is_int(engine_open_opts(&e, "null", 1, &one), -EINVAL, "null with registerfiles: -EINVAL");
	is_int(engine_open_opts(&e, "psync", 1, &one), -EINVAL, "psync with registerfiles: -EINVAL");
	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		ok(0, "temporary directory: %s", strerror(errno));
		return;
	}
	if (engine_open_opts(&e, "io_uring", DEPTH, &one) < 0) {
		ok(0, "io_uring with registerfiles (1 slot) opens");
		goto out;
	}
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "a",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd = (int)engine_exec_full(e, &r);
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "b",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd2 = (int)engine_exec_full(e, &r);
	ok(fd >= 0 && fd2 >= 0, "registerfiles: two files opened through the engine");
	is_int((int)write_read(e, fd, &same), BS, "registerfiles: the registered file written and read");
	ok(same, "  ... the data read back");
	is_int((int)write_read(e, fd2, &same), BS,
	       "registerfiles: the table full, the second file used by its descriptor");
	close(fd);
	is_int((int)write_read(e, fd, &same), BS,
	       "registerfiles: its descriptor closed behind the engine, the file is still reached "
	       "through its slot (IOSQE_FIXED_FILE)");
	/* the number is free: open(2) would reuse it; IO_CLOSE empties the
	 * slot (its close(2) fails: the descriptor is gone) */
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	is_int(engine_exec(e, &r), -EBADF, "IO_CLOSE of it: the slot emptied, close(2) -EBADF");
	is_int((int)write_read(e, fd, &same), -EBADF, "  ... then a request on the number: -EBADF");
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd2 };
	is_int(engine_exec(e, &r), 0, "the second file closed");
	engine_close(e);
	unlinkat(dfd, "a", 0);
	unlinkat(dfd, "b", 0);
	test_engine_opts("io_uring", &eight, "io_uring+registerfiles");
	test_engine_opts("faulty:io_uring", &eight, "faulty:io_uring+registerfiles");
out:
	close(dfd);
	rmdir(dir);
}

/* One request on fd through the queue, waited for; its result. */
static int64_t one_req(struct engine *e, struct io_req *r)
{
	struct io_req *done;

	if (engine_submit(e, r) < 0 || engine_reap(e, &done, 1, 1) != 1)
		return -EIO;
	return r->res;
}

/* fixedbufs (ENGINE_OPT_FIXEDBUFS): a read or write on a buffer of the
 * table is READ_FIXED or WRITE_FIXED on its slot.  Seen from outside: a
 * request naming a slot (buf_index) whose buffer does not hold its own
 * fails with -EFAULT (the kernel checks the range against the slot's),
 * and one naming the right slot, or none (found by address), moves the
 * data; engine_set_buffer() past the table, or on an instance without
 * one, is -EINVAL; the queue suite passes with a table; psync refuses. */
static void test_fixedbufs(void)
{
	struct engine_opts two = { .flags = ENGINE_OPT_FIXEDBUFS, .nbufs = 2 };
	char dir[] = "/tmp/fsgauge-async-XXXXXX";
	struct engine *e = NULL;
	struct io_req r;
	int dfd, fd;

	ok(engine_spec_caps("io_uring") & ENGINE_FIXEDBUFS, "io_uring takes fixedbufs");
	is_int(engine_open_opts(&e, "psync", 1, &two), -EINVAL, "psync with fixedbufs: -EINVAL");
	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		ok(0, "temporary directory: %s", strerror(errno));
		return;
	}
	if (engine_open_opts(&e, "faulty:io_uring", DEPTH, &two) < 0) {
		ok(0, "faulty:io_uring with fixedbufs (2 slots) opens");
		goto out;
	}
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "f",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd = (int)engine_exec_full(e, &r);
	is_int(engine_set_buffer(e, 0, bufs[0], BS), 0, "fixedbufs: bufs[0] in slot 0 (through the wrapper)");
	is_int(engine_set_buffer(e, 1, back[0], BS), 0, "  back[0] in slot 1");
	is_int(engine_set_buffer(e, 2, back[1], BS), -EINVAL, "  a slot past the table: -EINVAL");
	memset(bufs[0], 0x3c, BS);
	memset(back[0], 0, BS);
	r = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[0], .len = BS, .buf_index = 1 };
	is_int((int)one_req(e, &r), BS, "fixedbufs: WRITE_FIXED of slot 0");
	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[0], .len = BS, .buf_index = 1 };
	is_int((int)one_req(e, &r), -EFAULT, "  a read naming slot 0 into another buffer: -EFAULT");
	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[0], .len = BS };
	is_int((int)one_req(e, &r), BS, "  a read into slot 1's buffer, found by address");
	ok(!memcmp(bufs[0], back[0], BS), "  ... the data written");
	r = (struct io_req){ .op = IO_READ, .fd = fd, .buf = back[1], .len = BS };
	is_int((int)one_req(e, &r), BS, "  a read into a buffer of no slot: an ordinary read");
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	engine_exec(e, &r);
	engine_close(e);
	unlinkat(dfd, "f", 0);
	e = NULL;
	if (engine_open(&e, "io_uring", 1) == 0) {
		is_int(engine_set_buffer(e, 0, bufs[0], BS), -EINVAL,
		       "engine_set_buffer() without fixedbufs: -EINVAL");
		engine_close(e);
	}
	test_engine_opts("io_uring", &(struct engine_opts){ .flags = ENGINE_OPT_FIXEDBUFS, .nbufs = 1 },
			 "io_uring+fixedbufs");
out:
	close(dfd);
	rmdir(dir);
}
#endif

/* faulty:ENGINE passes a batch through: one call, one injected fault. */
static void test_faulty_batch(const char *inner)
{
	char spec[64], dir[] = "/tmp/fsgauge-async-XXXXXX";
	struct engine *e = NULL;
	struct io_req reqs[8], *done[8], r;
	int dfd, fd, n, fails = 0, whole = 0;

	snprintf(spec, sizeof(spec), "faulty:%s:op=write,nth=3,err=EIO", inner);
	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		ok(0, "temporary directory: %s", strerror(errno));
		return;
	}
	ok(engine_spec_caps(spec) & ENGINE_ASYNC, "%s is ENGINE_ASYNC", spec);
	if (engine_open(&e, spec, DEPTH) < 0) {
		ok(0, "engine_open('%s')", spec);
		goto out;
	}
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "data",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd = (int)engine_exec_full(e, &r);
	for (int i = 0; i < 8; i++) {
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[i], .len = BS,
					   .off = (uint64_t)i * BS };
		is_int(engine_queue(e, &reqs[i]), 0, "%s: write %d queued", spec, i + 1);
	}
	is_int((int)engine_submit_calls(e), 0, "%s: ... without a system call", spec);
	is_int(engine_flush(e), 0, "%s: flushed", spec);
	is_int((int)engine_submit_calls(e), 1, "%s: ... with one call to %s", spec, inner);
	n = reap_all(e, done, 8);
	is_int(n, 8, "%s: 8 completions", spec);
	for (int i = 0; i < n; i++) {
		fails += done[i]->res == -EIO;
		whole += done[i]->res == BS;
	}
	ok(fails == 1 && whole == 7 && reqs[2].res == -EIO,
	   "%s: the third failed with -EIO, the 7 others are whole", spec);
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	engine_exec(e, &r);
	r = (struct io_req){ .op = IO_UNLINK, .dirfd = dfd, .path = "data" };
	engine_exec(e, &r);
	engine_close(e);
out:
	close(dfd);
	rmdir(dir);
}

/* Trims on engine `spec` (an asynchronous engine, or faulty:E:op=trim,
 * nth=1 around one: `injected`): exec() of IO_DISCARD is the ioctl, done
 * at once with a write of the engine's in flight, whose completion the
 * reap still hands back; submit() refuses a trim. */
static void test_discard(const char *spec, int injected)
{
	char dir[] = "/tmp/fsgauge-async-XXXXXX";
	struct engine *e = NULL;
	struct io_req w, t, *done[2], r;
	uint64_t range[2] = { 0, BS };
	int dfd, fd, want;

	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		ok(0, "temporary directory: %s", strerror(errno));
		return;
	}
	if (engine_open(&e, spec, DEPTH) < 0) {
		ok(0, "engine_open('%s')", spec);
		goto out;
	}
	r = (struct io_req){ .op = IO_OPEN, .dirfd = dfd, .path = "data",
			     .flags = O_RDWR | O_CREAT | O_TRUNC, .mode = 0600 };
	fd = (int)engine_exec_full(e, &r);
	/* what the ioctl itself says of a regular file (no block device) */
	want = ioctl(fd, BLKDISCARD, range) < 0 ? -errno : BS;
	ok(want < 0, "%s: BLKDISCARD on a regular file fails (%d)", spec, want);
	w = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs[0], .len = BS };
	is_int(engine_submit(e, &w), 0, "%s: a write is in flight", spec);
	t = (struct io_req){ .op = IO_DISCARD, .fd = fd, .off = 0, .len = BS };
	if (injected) {
		is_int(engine_exec(e, &t), -EIO, "%s: exec trim: the rule's -EIO", spec);
		t = (struct io_req){ .op = IO_DISCARD, .fd = fd, .off = BS, .len = BS };
	}
	is_int(engine_exec(e, &t), want, "%s: exec trim: the ioctl's result, at once", spec);
	is_int(reap_all(e, done, 1), 1, "%s: ... and the write in flight is reaped after it",
	       spec);
	ok(done[0] == &w && w.res == BS, "%s: ... whole (%lld)", spec, (long long)w.res);
	is_int((int)e->nreq[IO_DISCARD], 1 + injected, "%s: counted as trim requests", spec);
	if (injected)
		ok(faulty_count(spec) == 2 && faulty_injected(spec) == 1,
		   "%s: the rule saw both trims and failed the first", spec);
	t = (struct io_req){ .op = IO_DISCARD, .fd = fd, .off = 0, .len = BS };
	is_int(engine_submit(e, &t), -EINVAL, "%s: submit of a trim is refused (exec only)", spec);
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	engine_exec(e, &r);
	r = (struct io_req){ .op = IO_UNLINK, .dirfd = dfd, .path = "data" };
	engine_exec(e, &r);
	engine_close(e);
out:
	close(dfd);
	rmdir(dir);
}

#ifdef HAVE_LIBURING
/* A depth above the kernel's limit of ring entries (32768) is clamped
 * (IORING_SETUP_CLAMP), not refused. */
static void test_uring_clamp(void)
{
	struct engine *e = NULL;
	int r = engine_open(&e, "io_uring", 65536);

	if (r == -ENOMEM) {
		ok(1, "# SKIP io_uring: no memory for a ring of 32768 entries");
		return;
	}
	is_int(r, 0, "io_uring: depth 65536 is clamped to the kernel's limit, not refused");
	if (!r)
		engine_close(e);
}
#endif

/* On a synchronous engine a queued request is complete at once, flush
 * has nothing to push, and no submission call is counted. */
static void test_sync_batch(const char *name)
{
	struct engine *e;
	struct io_req r[3], *done[3];
	int good = 1;

	if (engine_open(&e, name, 3) < 0) {
		ok(0, "engine_open('%s')", name);
		return;
	}
	for (int i = 0; i < 3; i++) {
		r[i] = (struct io_req){ .op = IO_FSTAT, .fd = 0 };
		good &= engine_queue(e, &r[i]) == 0;
	}
	ok(good, "%s: 3 requests queued", name);
	is_int(engine_flush(e), 0, "%s: flush has nothing to do", name);
	is_int(engine_reap(e, done, 3, 3), 3, "%s: 3 completions", name);
	is_int((int)engine_submit_calls(e), 0, "%s: no submission call counted", name);
	engine_close(e);
}

int main(void)
{
	int tested = 0;

	ok(!(engine_spec_caps("psync") & ENGINE_ASYNC), "psync is not ENGINE_ASYNC");
	ok(!(engine_spec_caps("null") & ENGINE_ASYNC), "null is not ENGINE_ASYNC");
	for (const char *const *n = engine_names(); *n; n++) {
		unsigned caps = engine_spec_caps(*n);

		if (!(caps & ENGINE_ASYNC) || (caps & ENGINE_WRAPPER))
			continue;
		test_engine(*n);
		tested++;
	}
	test_sync_batch("psync");
	test_sync_batch("null");
#ifdef HAVE_LIBURING
	test_discard("io_uring", 0);
	test_discard("faulty:io_uring:op=trim,nth=1,err=EIO", 1);
	test_faulty_batch("io_uring");
	test_uring_clamp();
	test_sqpoll();
	test_regfiles();
	test_fixedbufs();
#endif
#ifdef HAVE_LIBAIO
	test_discard("libaio", 0);
	test_discard("faulty:libaio:op=trim,nth=1,err=EIO", 1);
	test_faulty_batch("libaio");
#endif
#if defined(HAVE_LIBURING) || defined(HAVE_LIBAIO)
	ok(tested > 0, "an asynchronous engine was tested (%d)", tested);
#else
	if (!tested)
		ok(1, "# SKIP no asynchronous engine built in");
#endif
	return done_testing();
}
