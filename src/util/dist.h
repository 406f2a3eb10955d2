/*
 * dist.h — offset distributions over the N blocks of a file: which block
 * a random read or write touches next (fio's random_distribution=).
 *
 *   uniform (or "random")   every block equally likely (rng_below)
 *   zipf:THETA              block of rank k drawn with weight k^-THETA
 *   pareto:H                the hottest H share of the blocks gets the
 *                           share 1 - H of the draws (pareto:0.2: 80/20)
 *   normal:SIGMA            a normal around the middle of the range with
 *                           a standard deviation of SIGMA percent of it
 *                           (0 < SIGMA <= 100; draws outside the range
 *                           are drawn again)
 *   zoned:A/R:A/R...        A percent of the draws fall uniformly in the
 *                           next R percent of the range, zone after zone
 *                           from the start (the As and the Rs each add up
 *                           to 100)
 *
 * Usage: dist_parse() a spec once (the parser and the runner both do),
 * dist_init() a struct dist for a block count (O(1) for every kind, cheap
 * enough to redo when the file changes size), then dist_next() per draw
 * with the thread's RNG (util/rand.h): O(1) for every kind (zipf by
 * rejection-inversion, expected fewer than 1.2 tries; zoned by a scan of
 * at most DIST_ZONES_MAX zones).
 *
 * Zipf and pareto ranks are spread over the range by a keyed bijection
 * (rand_permute): the hot blocks are scattered, not the first ones, and
 * each block keeps its rank for the whole run.  normal and zoned are
 * positional: their hot blocks are where the spec says.
 *
 * Pure computation: no I/O, no allocation, no globals.
 */
#ifndef FSGAUGE_DIST_H
#define FSGAUGE_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "util/rand.h"

enum dist_kind {
	DIST_UNIFORM = 0,
	DIST_ZIPF,
	DIST_PARETO,
	DIST_NORMAL,
	DIST_ZONED,
};

#define DIST_ZONES_MAX 64

struct dist_zone {
	double access; /* percent of the draws */
	double range;  /* percent of the blocks */
};

struct dist_spec {
	enum dist_kind kind;
	double param; /* zipf theta, pareto h, normal sigma (percent) */
	unsigned nzones;
	struct dist_zone zone[DIST_ZONES_MAX];
};

/* Parse a random_distribution= spec.  Returns 0 with *out filled, or
 * -EINVAL with a message in err (when errlen > 0) such as
 * "bad random_distribution 'zipf:-1': theta must be > 0". */
int dist_parse(const char *text, struct dist_spec *out, char *err, size_t errlen);

/* The canonical text of a spec ("zipf:1.2", "zoned:60/10:40/90") into
 * buf; returns buf. */
char *dist_format(const struct dist_spec *s, char *buf, size_t len);

struct dist {
	struct dist_spec spec;
	uint64_t n;   /* blocks */
	uint64_t key; /* the rank-to-block bijection's key */
	/* zipf: rejection-inversion constants (Hörmann and Derflinger) */
	double z_h1, z_hn, z_s;
	/* pareto: rank = n * u^p_pow */
	double p_pow;
	/* zoned: the first block of each zone (zone_first[nzones] = n) and
	 * the cumulative draw fraction up to each zone's end */
	uint64_t zone_first[DIST_ZONES_MAX + 1];
	double zone_cum[DIST_ZONES_MAX];
};

/* Set d up for n blocks (n >= 1; 0 counts as 1).  key chooses how
 * zipf and pareto ranks map to blocks (the same key: the same map). */
void dist_init(struct dist *d, const struct dist_spec *s, uint64_t n, uint64_t key);
/* The next block, in [0, d->n). */
uint64_t dist_next(const struct dist *d, struct rng *r);
/* Under zipf and pareto, the block of rank k (0 the hottest) is
 * rand_permute(k, d->n, d->key): tests use it to count by rank. */

#endif
