/*
 * display.h — user-given names and file types as messages show them.
 *
 * A message is one line: a name thousands of characters long (a fileset
 * name, a path) would bury what failed, and a fixed message buffer would
 * cut it, and whatever follows it, at a random place.  display_name()
 * shows a long name by its beginning and "…", so that the message says
 * which name and how long it is:
 *
 *	char b[DISPLAY_NAME_BUF];
 *	msg_err("name too long: '%s' (%zu bytes)", display_name(name, b, sizeof(b)),
 *		strlen(name));
 *
 * No I/O, no allocation.
 */
#ifndef FSGAUGE_DISPLAY_H
#define FSGAUGE_DISPLAY_H

#include <stddef.h>
#include <sys/types.h>

/* Names of up to DISPLAY_NAME_MAX bytes are shown whole; longer ones as
 * their first DISPLAY_NAME_KEEP bytes (fewer, to end on a whole UTF-8
 * character) and "…".  DISPLAY_NAME_BUF holds either. */
#define DISPLAY_NAME_MAX 64
#define DISPLAY_NAME_KEEP 48
#define DISPLAY_NAME_BUF (DISPLAY_NAME_MAX + 1)

/* `name` as a message shows it, in buf (len bytes; DISPLAY_NAME_BUF is
 * enough for any name, a smaller buffer shortens more).  Returns buf, or
 * name itself when it is short enough to show whole (no copy: the caller
 * keeps name alive while it uses the result).  NULL shows as "". */
const char *display_name(const char *name, char *buf, size_t len);

/* What kind of file `mode` (st_mode) is, for "'x' is a FIFO, not a
 * regular file": "a regular file", "a directory", "a FIFO", "a socket",
 * "a character device", "a block device", "a symbolic link", or "an
 * unknown kind of file".  A static string. */
const char *display_file_kind(mode_t mode);

#endif
