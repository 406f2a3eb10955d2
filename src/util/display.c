/* display.c — names and file types in messages; see display.h. */
#include "util/display.h"

#include <string.h>
#include <sys/stat.h>

static const char ellipsis[] = "\xe2\x80\xa6"; /* U+2026, "…" */

const char *display_name(const char *name, char *buf, size_t len)
{
	size_t n, keep;

	if (!name)
		return "";
	n = strlen(name);
	if (n <= DISPLAY_NAME_MAX && n < len)
		return name;
	if (len < sizeof(ellipsis)) {
		if (len)
			buf[0] = 0;
		return buf;
	}
	/* here n > DISPLAY_NAME_MAX or n >= len, so keep < n */
	keep = DISPLAY_NAME_KEEP < len - sizeof(ellipsis) ? DISPLAY_NAME_KEEP : len - sizeof(ellipsis);
	/* do not cut a UTF-8 character: back up over continuation bytes
	 * (10xxxxxx) to the byte that starts the one cut */
	while (keep > 0 && ((unsigned char)name[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(buf, name, keep);
	memcpy(buf + keep, ellipsis, sizeof(ellipsis));
	return buf;
}

const char *display_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "an unknown kind of file";
	}
}
