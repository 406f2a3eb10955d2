/* test_display.c — util/display.c: long names shortened for messages
 * (whole UTF-8 characters, the ellipsis, short names untouched) and the
 * names of file kinds. */
#include "tap.h"
#include "util/display.h"

#include <string.h>
#include <sys/stat.h>

static void test_name(void)
{
	char buf[DISPLAY_NAME_BUF], small[8], big[5000], want[DISPLAY_NAME_BUF];
	const char *s;

	s = display_name("varmail", buf, sizeof(buf));
	is_str(s, "varmail", "a short name is shown whole");
	ok(s != buf, "  without a copy");
	is_str(display_name("", buf, sizeof(buf)), "", "an empty name stays empty");
	is_str(display_name(NULL, buf, sizeof(buf)), "", "NULL shows as an empty name");

	memset(big, 'a', DISPLAY_NAME_MAX);
	big[DISPLAY_NAME_MAX] = 0;
	is_str(display_name(big, buf, sizeof(buf)), big, "%d bytes: still whole", DISPLAY_NAME_MAX);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	s = display_name(big, buf, sizeof(buf));
	memset(want, 'a', DISPLAY_NAME_KEEP);
	strcpy(want + DISPLAY_NAME_KEEP, "\xe2\x80\xa6");
	is_str(s, want, "4999 bytes: the first %d and an ellipsis", DISPLAY_NAME_KEEP);
	ok(s == buf, "  in the caller's buffer");
	is_int(strlen(s), DISPLAY_NAME_KEEP + 3, "  of %d bytes", DISPLAY_NAME_KEEP + 3);

	big[DISPLAY_NAME_MAX + 1] = 0; /* one byte over */
	is_int(strlen(display_name(big, buf, sizeof(buf))), DISPLAY_NAME_KEEP + 3,
	       "%d bytes: shortened", DISPLAY_NAME_MAX + 1);

	/* "é" is two bytes (c3 a9): put one across the cut */
	memset(big, 'a', sizeof(big) - 1);
	big[DISPLAY_NAME_KEEP - 1] = (char)0xc3;
	big[DISPLAY_NAME_KEEP] = (char)0xa9;
	s = display_name(big, buf, sizeof(buf));
	is_int(strlen(s), DISPLAY_NAME_KEEP - 1 + 3, "a character across the cut is left out whole");
	ok(!memcmp(s + DISPLAY_NAME_KEEP - 1, "\xe2\x80\xa6", 4), "  the ellipsis follows");
	/* a three-byte character ending right at the cut is kept */
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big + DISPLAY_NAME_KEEP - 3, "\xe2\x82\xac", 3); /* "€" */
	s = display_name(big, buf, sizeof(buf));
	ok(!memcmp(s + DISPLAY_NAME_KEEP - 3, "\xe2\x82\xac\xe2\x80\xa6", 7),
	   "a character ending at the cut is kept");

	s = display_name(big, small, sizeof(small));
	is_str(s, "aaaa\xe2\x80\xa6", "an 8-byte buffer: 4 bytes and the ellipsis");
	is_str(display_name("abcdefgh", small, sizeof(small)), "abcd\xe2\x80\xa6",
	       "a name that does not fit a small buffer is shortened");
	is_str(display_name(big, small, 3), "", "a buffer too small for the ellipsis: empty");
}

static void test_kind(void)
{
	is_str(display_file_kind(S_IFREG | 0644), "a regular file", "regular file");
	is_str(display_file_kind(S_IFDIR | 0755), "a directory", "directory");
	is_str(display_file_kind(S_IFIFO | 0600), "a FIFO", "FIFO");
	is_str(display_file_kind(S_IFSOCK), "a socket", "socket");
	is_str(display_file_kind(S_IFCHR), "a character device", "character device");
	is_str(display_file_kind(S_IFBLK), "a block device", "block device");
	is_str(display_file_kind(S_IFLNK | 0777), "a symbolic link", "symbolic link");
	is_str(display_file_kind(0), "an unknown kind of file", "no type bits");
}

int main(void)
{
	test_name();
	test_kind();
	return done_testing();
}
