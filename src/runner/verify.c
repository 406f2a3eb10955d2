/* verify.c — self-checking data blocks; see verify.h. */
#include "runner/verify.h"

#include <stdio.h>
#include <string.h>
#include <xxhash.h>

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t block_sum(const unsigned char *b)
{
	unsigned char tmp[DATA_BLOCK];

	memcpy(tmp, b, DATA_BLOCK);
	memset(tmp + 40, 0, 8);
	return XXH3_64bits(tmp, DATA_BLOCK);
}

void verify_make_block(void *blk, uint64_t file_off, uint64_t file_id, uint64_t generation,
		       uint64_t seed)
{
	unsigned char *b = blk;
	uint64_t s = seed ^ (file_id * 0xd6e8feb86659fd93ull) ^ (file_off * 0xa0761d6478bd642full) ^
		     (generation * 0xe7037ed1a0b428dbull);

	put64(b, VERIFY_MAGIC);
	put64(b + 8, file_id);
	put64(b + 16, file_off);
	put64(b + 24, generation);
	put64(b + 32, seed);
	put64(b + 40, 0);
	for (size_t o = VERIFY_HDR; o < DATA_BLOCK; o += 8)
		put64(b + o, splitmix(&s));
	put64(b + 40, block_sum(b));
}

void verify_stamp(void *buf, size_t len, uint64_t file_off, uint64_t file_id, uint64_t generation,
		  uint64_t seed)
{
	for (size_t o = 0; o + DATA_BLOCK <= len; o += DATA_BLOCK)
		verify_make_block((char *)buf + o, file_off + o, file_id, generation, seed);
}

static int all_zero(const unsigned char *b)
{
	for (size_t i = 0; i < DATA_BLOCK; i++)
		if (b[i])
			return 0;
	return 1;
}

static enum verify_what fail(struct verify_mismatch *m, enum verify_what w, uint64_t off,
			     const char *field, uint64_t expected, uint64_t found)
{
	m->what = w;
	m->offset = off;
	m->field = field;
	m->expected = expected;
	m->found = found;
	return w;
}

enum verify_what verify_block(const void *blk, uint64_t file_off, uint64_t file_id,
			      const void *exact, struct verify_mismatch *m)
{
	const unsigned char *b = blk, *x = exact;

	memset(m, 0, sizeof(*m));
	if (x) {
		/* The expected block is known: the first differing byte is
		 * the answer, with the header explaining it when it can. */
		size_t i;

		for (i = 0; i < DATA_BLOCK && b[i] == x[i]; i++)
			;
		if (i == DATA_BLOCK)
			return VERIFY_OK;
		if (get64(b) == VERIFY_MAGIC && get64(b + 16) != file_off)
			return fail(m, VERIFY_OFFSET, file_off, "offset", file_off, get64(b + 16));
		if (get64(b) == VERIFY_MAGIC && get64(b + 8) != file_id)
			return fail(m, VERIFY_FILE, file_off, "file id", file_id, get64(b + 8));
		return fail(m, VERIFY_CONTENT, file_off + i, "byte", x[i], b[i]);
	}
	if (all_zero(b))
		return VERIFY_HOLE;
	if (get64(b) != VERIFY_MAGIC)
		return fail(m, VERIFY_MAGIC_BAD, file_off, "magic", VERIFY_MAGIC, get64(b));
	if (get64(b + 16) != file_off)
		return fail(m, VERIFY_OFFSET, file_off, "offset", file_off, get64(b + 16));
	if (file_id != UINT64_MAX && get64(b + 8) != file_id)
		return fail(m, VERIFY_FILE, file_off, "file id", file_id, get64(b + 8));
	if (block_sum(b) != get64(b + 40))
		return fail(m, VERIFY_CHECKSUM, file_off, "checksum", block_sum(b), get64(b + 40));
	return VERIFY_OK;
}

void verify_describe(const struct verify_mismatch *m, char *buf, size_t len)
{
	switch (m->what) {
	case VERIFY_OFFSET:
		snprintf(buf, len, "expected the block of offset %llu, found the block of offset %llu",
			 (unsigned long long)m->expected, (unsigned long long)m->found);
		break;
	case VERIFY_FILE:
		snprintf(buf, len, "expected a block of file id %llu, found one of file id %llu",
			 (unsigned long long)m->expected, (unsigned long long)m->found);
		break;
	case VERIFY_CONTENT:
		snprintf(buf, len, "expected byte 0x%02llx, found 0x%02llx",
			 (unsigned long long)m->expected, (unsigned long long)m->found);
		break;
	case VERIFY_MAGIC_BAD:
		snprintf(buf, len, "expected a verify header (magic 0x%016llx), found 0x%016llx",
			 (unsigned long long)m->expected, (unsigned long long)m->found);
		break;
	case VERIFY_CHECKSUM:
		snprintf(buf, len, "expected checksum 0x%016llx, found 0x%016llx",
			 (unsigned long long)m->expected, (unsigned long long)m->found);
		break;
	case VERIFY_HOLE:
		snprintf(buf, len, "expected the block written there, found zeros");
		break;
	case VERIFY_SHORT:
		snprintf(buf, len, "expected the block written there, found the end of the file "
			 "at offset %llu", (unsigned long long)m->found);
		break;
	default:
		snprintf(buf, len, "no mismatch");
	}
}
