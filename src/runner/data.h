/*
 * data.h — the bytes fsgauge writes.
 *
 * A compressing or deduplicating file system must not flatter a result, so
 * by default written data is incompressible and never repeats, without a
 * random-number call per byte on the hot path:
 *
 *  - each thread fills its buffer once from its own generator (data_fill);
 *  - before every write, data_refresh() XORs the range about to be written
 *    with a fresh keystream k, k + C, k + 2C, ... (k random per call, C an
 *    odd constant): one add and one xor per 8 bytes, which the compiler
 *    vectorises, so a 128 KiB refresh costs a few microseconds at most and
 *    usually far less than the copy into the page cache.  Consecutive
 *    writes from the same buffer therefore share no byte strings, so
 *    neither a long-window compressor (zstd --long) nor block dedupe finds
 *    anything to gain.  Refreshing happens before the timed call, never
 *    inside it.
 *
 * Patterns (--data):
 *   random       incompressible, unique blocks (default)
 *   zero         zero-filled, like filebench's default
 *   compress=N%  every 512-byte chunk is N% random bytes then zeros, so any
 *                write of 512 bytes or more compresses to about N% with
 *                gzip, zstd or lz4
 *   dedupe=N%    each 4 KiB block of a write is, with probability N%, a
 *                copy of one of DATA_DEDUPE_POOL fixed random blocks (the
 *                same in every thread and every run), else unique; so about
 *                N% of the 4 KiB blocks written repeat earlier ones.  Block
 *                boundaries follow the buffer, so file-system dedupe sees
 *                them when writes are 4 KiB-aligned.
 * tests/unit/test_data.c checks each with gzip and zstd and by hashing
 * blocks.
 */
#ifndef FSGAUGE_DATA_H
#define FSGAUGE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "util/rand.h"

enum data_kind {
	DATA_RANDOM = 0, /* incompressible, unique blocks (default) */
	DATA_ZERO,	 /* zero-filled, like filebench's default */
	DATA_COMPRESS,	 /* data compresses to about `pct` percent */
	DATA_DEDUPE,	 /* `pct` percent of blocks repeat earlier ones */
};

struct data_pattern {
	enum data_kind kind;
	unsigned pct; /* for DATA_COMPRESS and DATA_DEDUPE */
};

#define DATA_BLOCK 4096	     /* dedupe granularity */
#define DATA_CHUNK 512	     /* compress=N% granularity */
#define DATA_DEDUPE_POOL 64  /* distinct repeated blocks of dedupe=N% */

/* Parse "random", "zero", "compress=N%", "dedupe=N%" (N in 0..100, the %
 * optional); 0 or -EINVAL. */
int data_pattern_parse(const char *s, struct data_pattern *out);
/* Canonical text of a pattern ("compress=50%"), into buf. */
const char *data_pattern_name(const struct data_pattern *p, char *buf, size_t len);

/* Fill a freshly allocated buffer according to the pattern. */
void data_fill(const struct data_pattern *p, struct rng *r, void *buf, size_t len);
/* Prepare buf[0..len) for the next write (see above).  `buf` must be
 * 8-byte aligned and must have been data_fill()ed with the same pattern. */
void data_refresh(const struct data_pattern *p, struct rng *r, void *buf, size_t len);

#endif
