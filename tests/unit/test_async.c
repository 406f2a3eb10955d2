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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
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
	r = (struct io_req){ .op = IO_CLOSE, .fd = fd };
	engine_exec(e, &r);
	r = (struct io_req){ .op = IO_UNLINK, .dirfd = dfd, .path = "direct" };
	is_int(engine_exec(e, &r), 0, "%s: unlink the O_DIRECT file", name);
}

static void test_engine(const char *name)
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
	if (engine_open(&e, name, DEPTH) < 0) {
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
#if defined(HAVE_LIBURING) || defined(HAVE_LIBAIO)
	ok(tested > 0, "an asynchronous engine was tested (%d)", tested);
#else
	if (!tested)
		ok(1, "# SKIP no asynchronous engine built in");
#endif
	return done_testing();
}
