/*
 * test_verify.c — self-checking blocks: a stamped block checks clean at
 * its offset, and each kind of damage is named: another offset, another
 * file, a flipped bit (checksum), foreign data (magic), a hole, and with
 * the exact expected block the first differing byte.
 */
#include <stdlib.h>
#include <string.h>

#include "runner/verify.h"
#include "tap.h"

int main(void)
{
	static unsigned char buf[4 * DATA_BLOCK], want[DATA_BLOCK];
	struct verify_mismatch m;
	char what[256];

	verify_stamp(buf, sizeof(buf), 8192, 7, 3, 42);
	for (int i = 0; i < 4; i++)
		is_int(verify_block(buf + i * DATA_BLOCK, 8192 + i * DATA_BLOCK, 7, NULL, &m), VERIFY_OK,
		       "stamped block %d checks clean", i);
	is_int(verify_block(buf, 8192, UINT64_MAX, NULL, &m), VERIFY_OK, "file id may be unknown");
	verify_make_block(want, 8192, 7, 3, 42);
	ok(!memcmp(want, buf, DATA_BLOCK), "verify_make_block gives the stamped block");
	is_int(verify_block(buf, 8192, 7, want, &m), VERIFY_OK, "exact comparison: clean");
	verify_make_block(want, 8192, 7, 4, 42);
	ok(memcmp(want, buf, DATA_BLOCK), "another generation gives other content");

	is_int(verify_block(buf + DATA_BLOCK, 8192, 7, NULL, &m), VERIFY_OFFSET,
	       "a block read at the wrong offset");
	is_int(m.expected, 8192, "  expected offset");
	is_int(m.found, 12288, "  found offset");
	verify_describe(&m, what, sizeof(what));
	is_str(what, "expected the block of offset 8192, found the block of offset 12288",
	       "  described");
	is_int(verify_block(buf, 8192, 8, NULL, &m), VERIFY_FILE, "a block of another file");
	is_int(m.found, 7, "  found file id");

	buf[1000] ^= 0x04;
	is_int(verify_block(buf, 8192, 7, NULL, &m), VERIFY_CHECKSUM, "a flipped bit: checksum");
	is_int(m.offset, 8192, "  reported at the block's offset");
	verify_make_block(want, 8192, 7, 3, 42);
	is_int(verify_block(buf, 8192, 7, want, &m), VERIFY_CONTENT, "exact: content differs");
	is_int(m.offset, 8192 + 1000, "  at the exact byte");
	is_int(m.expected ^ m.found, 0x04, "  expected and found differ by the flipped bit");
	buf[1000] ^= 0x04;

	buf[20] ^= 0x01; /* the offset field */
	is_int(verify_block(buf, 8192, 7, NULL, &m), VERIFY_OFFSET, "a damaged offset field");
	buf[20] ^= 0x01;
	buf[45] ^= 0x01; /* the checksum field */
	is_int(verify_block(buf, 8192, 7, NULL, &m), VERIFY_CHECKSUM, "a damaged checksum field");
	buf[45] ^= 0x01;

	memset(buf, 0, DATA_BLOCK);
	is_int(verify_block(buf, 8192, 7, NULL, &m), VERIFY_HOLE, "an all-zero block is a hole");
	is_int(verify_block(buf, 8192, 7, want, &m), VERIFY_CONTENT, "  but not the expected data");
	/* a read-back (fsgauge io's verify) names a hole and a file's end */
	memset(&m, 0, sizeof(m));
	m.what = VERIFY_HOLE;
	verify_describe(&m, what, sizeof(what));
	is_str(what, "expected the block written there, found zeros", "a hole described");
	m.what = VERIFY_SHORT;
	m.found = 12000;
	verify_describe(&m, what, sizeof(what));
	is_str(what, "expected the block written there, found the end of the file at offset 12000",
	       "a file's end described");
	memset(buf, 0xab, DATA_BLOCK);
	is_int(verify_block(buf, 8192, 7, NULL, &m), VERIFY_MAGIC_BAD, "foreign data: magic");
	is_int(verify_align_up(1), DATA_BLOCK, "align_up(1)");
	is_int(verify_align_up(DATA_BLOCK), DATA_BLOCK, "align_up(block)");
	is_int(verify_align_down(DATA_BLOCK + 5), DATA_BLOCK, "align_down");
	return done_testing();
}
