/*
 * data.h — the bytes fsgauge writes.
 *
 * By default data is incompressible and never repeats: each thread fills
 * a buffer once from its own fast generator, and before every write the
 * first 16 bytes of each 4 KiB block in the range are restamped with fresh
 * random words, so no two written blocks are equal (a deduplicating file
 * system gains nothing) and the cost is two generator calls per 4 KiB.
 * Restamping happens before the timed call, never inside it.
 */
#ifndef FSGAUGE_DATA_H
#define FSGAUGE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "util/rand.h"

enum data_kind {
	DATA_RANDOM = 0, /* incompressible, unique blocks (default) */
	DATA_ZERO,	 /* zero-filled, like filebench's default */
	DATA_COMPRESS,	 /* blocks compress to about `pct` percent */
	DATA_DEDUPE,	 /* `pct` percent of blocks repeat earlier ones */
};

struct data_pattern {
	enum data_kind kind;
	unsigned pct; /* for DATA_COMPRESS and DATA_DEDUPE */
};

#define DATA_BLOCK 4096

/* Parse "random", "zero", "compress=N%", "dedupe=N%"; 0 or -EINVAL. */
int data_pattern_parse(const char *s, struct data_pattern *out);
/* Canonical text of a pattern ("compress=50%"), into buf. */
const char *data_pattern_name(const struct data_pattern *p, char *buf, size_t len);

/* Fill a freshly allocated buffer according to the pattern. */
void data_fill(const struct data_pattern *p, struct rng *r, void *buf, size_t len);
/* Prepare buf[0..len) for the next write: fresh stamps for unique blocks
 * (random, compress), and for dedupe a choice per block of whether it
 * repeats.  `off` is the file offset the data goes to. */
void data_refresh(const struct data_pattern *p, struct rng *r, void *buf, size_t len);

#endif
