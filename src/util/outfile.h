/*
 * outfile.h — the files fsgauge writes its results to (--json, report -o,
 * iozone -b): checked before any work, never a block device, and
 * replaced whole or not at all.
 *
 * "-" is standard output.  A new path, or an existing regular file, is
 * written to a temporary file beside it and renamed over it on success,
 * so that a run that fails to write (a full disk) leaves the previous
 * file, not half of a new one, and no temporary file.  Anything else
 * that exists (a character device such as /dev/null, a FIFO, a symlink
 * to a regular file) is opened and written in place; a block device, or
 * anything that turns out to be one once opened, is refused: results
 * never land on a disk's blocks.
 */
#ifndef FSGAUGE_OUTFILE_H
#define FSGAUGE_OUTFILE_H

#include <stdio.h>

struct outfile {
	FILE *f;
	char *path; /* as given */
	char *tmp;  /* the temporary file to rename, or NULL */
};

/* For a result written to standard output ("-") by a command that also
 * prints tables there: from now on what is printed to stdout goes to
 * stderr, and "-" names the original standard output, so that it
 * carries the result alone and parses.  Call before printing anything.
 * 0, or -errno with a message. */
int outfile_claim_stdout(void);

/* Whether `path` can take the `what` ("JSON result") before a run starts:
 * not empty, not a block device or directory, its directory exists and
 * is writable.  0, or -EINVAL with a message printed (a usage error). */
int outfile_check(const char *path, const char *what);

/* Open for writing.  0, or -errno with a message naming `what` and path. */
int outfile_open(struct outfile *o, const char *path, const char *what);

/* Flush, close and put in place.  0, or -errno with a message; on failure
 * the temporary file is removed and an existing file left as it was. */
int outfile_close(struct outfile *o, const char *what);

/* Give up: close, and remove the temporary file (an existing file stays
 * as it was; standard output stays open). */
void outfile_discard(struct outfile *o);

#endif
