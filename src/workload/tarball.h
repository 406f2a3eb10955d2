/*
 * tarball.h — reading an archive into a replay list (workload/replay.h)
 * with libarchive: tar in every dialect, cpio, zip, 7-zip, ISO 9660 and
 * whatever else libarchive reads, compressed with gzip, bzip2, xz, zstd,
 * lz4 and the rest.  The archive is decompressed once, here, so that what
 * `fsgauge untar` measures is the file system, not the decompressor.
 *
 * Every entry goes through replay_add(), which refuses hostile paths; the
 * file contents go, in archive order, to a sink the caller provides (the
 * contents of an entry start where the previous entry's ended), so this
 * module only reads.  Device nodes, fifos and sockets are counted as
 * skipped.  A malformed or truncated archive is an error naming the entry
 * where reading stopped.
 *
 * Without libarchive at build time (HAVE_LIBARCHIVE unset) tarball_load()
 * fails with -ENOTSUP and says so.
 */
#ifndef FSGAUGE_TARBALL_H
#define FSGAUGE_TARBALL_H

#include <stddef.h>
#include <stdint.h>

#include "workload/replay.h"

struct tarball_sink {
	/* Append len bytes of contents; returns 0 or -errno after printing
	 * a message. */
	int (*put)(void *ctx, const void *buf, size_t len);
	void *ctx;
};

/* 1 when built with libarchive. */
int tarball_supported(void);
/* The message for a build without libarchive, naming `path`, into err. */
void tarball_unsupported(const char *path, char *err, size_t errlen);

/* Read archive `path` into replay r (not finished) and its file contents
 * into sink (NULL: read and dropped, for a listing).  *data_size gets the
 * total bytes of contents.  Returns 0; -EINVAL for a malformed, truncated,
 * empty or refused archive and -ENOTSUP without libarchive, with err
 * filled; or -errno from the sink. */
int tarball_load(const char *path, struct replay *r, const struct tarball_sink *sink,
		 uint64_t *data_size, char *err, size_t errlen);

#endif
