/*
 * verify.h — self-checking data blocks for --verify and `fsgauge verify`.
 *
 * Every 4 KiB block written under verification starts with a header that
 * says what it is and carries a checksum (XXH3-64, libxxhash) of the whole
 * block; the rest is random content generated from the header, so a block
 * can be checked on its own, by anyone who reads it back:
 *
 *   offset  0  magic       "FSGVRFY1"
 *           8  file id     which file (fileset and entry, or verify's index)
 *          16  offset      the block's offset in its file
 *          24  generation  which write (counts up per writer)
 *          32  seed        the seed the content was generated from
 *          40  checksum    XXH3-64 of the block with this field zero
 *          48  content     (DATA_BLOCK - 48) random bytes from the fields
 *
 * verify_check() finds what is wrong with a block read at a given offset:
 * a block from another offset (swapped or misdirected), from another file,
 * a torn or corrupted block (checksum), or, when the exact expected block
 * is known, the first differing byte.  An all-zero block is a hole, which
 * the workload checks accept (files can be extended by ftruncate or holes)
 * and `fsgauge verify` does not.
 */
#ifndef FSGAUGE_VERIFY_H
#define FSGAUGE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "runner/data.h"

#define VERIFY_MAGIC 0x3159465256475346ull /* "FSGVRFY1" stored little-endian */
#define VERIFY_HDR 48

struct verify_hdr {
	uint64_t magic, file_id, offset, generation, seed, checksum;
};

/* Stamp len bytes of buf (len and file_off multiples of DATA_BLOCK) as
 * blocks of file `file_id` at file offset file_off. */
void verify_stamp(void *buf, size_t len, uint64_t file_off, uint64_t file_id, uint64_t generation,
		  uint64_t seed);

/* The exact block with these fields, into blk (DATA_BLOCK bytes). */
void verify_make_block(void *blk, uint64_t file_off, uint64_t file_id, uint64_t generation,
		       uint64_t seed);

enum verify_what {
	VERIFY_OK = 0,
	VERIFY_HOLE,	 /* all zeros */
	VERIFY_MAGIC_BAD, /* not one of our blocks */
	VERIFY_OFFSET,	 /* our block, but of another offset */
	VERIFY_FILE,	 /* our block, but of another file */
	VERIFY_CHECKSUM, /* header fine, content or header corrupted */
	VERIFY_CONTENT,	 /* differs from the exactly expected block */
	/* where a block was written, and read back (fsgauge io's verify
	 * read-back), the file ends before it: `found` is where */
	VERIFY_SHORT,
};

struct verify_mismatch {
	enum verify_what what;
	uint64_t offset;   /* file offset of the first bad byte */
	uint64_t expected; /* what was expected there (a field or a byte) */
	uint64_t found;
	const char *field; /* "magic", "offset", "file id", "checksum", "byte" */
};

/* Check one block read from file offset file_off.  `file_id` is the
 * expected file, or UINT64_MAX when unknown; `exact`, when not NULL, is
 * the exactly expected block (then every byte is compared).  Returns
 * VERIFY_OK or VERIFY_HOLE (fine for workload reads), else fills *m. */
enum verify_what verify_block(const void *blk, uint64_t file_off, uint64_t file_id,
			      const void *exact, struct verify_mismatch *m);

/* Describe a mismatch: "expected offset 8192, found 12288".  A
 * VERIFY_HOLE (zeros where a block was written: a read-back's lost
 * write) and a VERIFY_SHORT are described too. */
void verify_describe(const struct verify_mismatch *m, char *buf, size_t len);

/* Round a byte range out to whole blocks. */
static inline uint64_t verify_align_down(uint64_t v)
{
	return v & ~(uint64_t)(DATA_BLOCK - 1);
}

static inline uint64_t verify_align_up(uint64_t v)
{
	return (v + DATA_BLOCK - 1) & ~(uint64_t)(DATA_BLOCK - 1);
}

#endif
