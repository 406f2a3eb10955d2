/*
 * outfile.h — the files fsgauge writes its results to (--json, report -o,
 * compare --json, iozone -b): checked before any work, never a block
 * device, never written through a symbolic link someone else planted, and
 * replaced whole or not at all.
 *
 * What a destination gets, by what its name is when the run starts and
 * again when the file is opened (both resolved the same way, below):
 *
 *  - "-": standard output.
 *  - A new name, an existing regular file, or a symbolic link that leads
 *    to a regular file: the result is written to a temporary file created
 *    beside the name (".NAME.XXXXXX", O_CREAT | O_EXCL | O_NOFOLLOW, the
 *    mode a new file gets) and renamed over the name once complete.  So a
 *    symbolic link is replaced by the result, and the file it led to is
 *    left untouched; a failed write (a full disk) or a signal leaves the
 *    previous file as it was and no temporary file.
 *  - A character device (/dev/null), a FIFO, or a symbolic link that
 *    leads to one, or to one of the process's descriptors (a link of
 *    /proc, which /dev/stdout, /dev/stderr and /dev/fd/N lead to): opened
 *    and written in place, never renamed over.  A regular file reached
 *    through a descriptor (`--json /dev/stdout > r.json`) is truncated and
 *    written in place; one reached otherwise when opened (the name changed
 *    since it was looked at) is refused, never truncated.
 *  - A block device or a directory, also through a link: refused.  So is a
 *    symbolic link that leads nowhere, or through more than 40 links.
 *
 * Names are resolved one component at a time from descriptors, and the
 * temporary file is created and renamed relative to the descriptor of the
 * directory that was checked, so swapping a directory of the path for a
 * symbolic link after the check cannot move the write elsewhere.  Every
 * symbolic link that would be followed, in the directories of the name
 * or as the name itself, is checked as the kernel's fs.protected_symlinks
 * does (whether or not that is enabled): a link in a sticky,
 * world-writable directory (/tmp) that belongs to neither the user
 * running fsgauge nor the directory's owner is refused, since another user
 * could have planted it to point root's result at any file.
 */
#ifndef FSGAUGE_OUTFILE_H
#define FSGAUGE_OUTFILE_H

#include <stdio.h>

struct outfile {
	FILE *f;
	char *path;  /* as given */
	char *tmp;   /* the temporary file's name in dirfd, to rename; or NULL */
	char *name;  /* the name it is renamed to in dirfd */
	int dirfd;   /* O_PATH descriptor of the directory holding them, or -1 */
	int pending; /* slot in the list of temporary files a signal removes */
};

/* For a result written to standard output ("-") by a command that also
 * prints tables there: from now on what is printed to stdout goes to
 * stderr, and "-" names the original standard output, so that it
 * carries the result alone and parses.  Call before printing anything.
 * 0, or -errno with a message. */
int outfile_claim_stdout(void);

/* Whether `path` can take the `what` ("JSON result") before a run starts,
 * by the rules above: not empty, not a block device or directory, not
 * a planted link, and the directory that takes the temporary file exists
 * and is writable (an existing regular file must be writable too).  0, or
 * -EINVAL with a message printed (a usage error). */
int outfile_check(const char *path, const char *what);

/* Open for writing, by the same rules.  0, or -errno with a message
 * naming `what` and path.  While a temporary file exists, SIGINT, SIGTERM
 * and SIGHUP, if the program has not caught them, remove it before they
 * end the process. */
int outfile_open(struct outfile *o, const char *path, const char *what);

/* Flush, close and put in place.  0, or -errno with a message; on failure
 * the temporary file is removed and an existing file left as it was. */
int outfile_close(struct outfile *o, const char *what);

/* Give up: close, and remove the temporary file (an existing file stays
 * as it was; standard output stays open). */
void outfile_discard(struct outfile *o);

#endif
