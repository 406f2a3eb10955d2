/*
 * offsets.h — where a random read or write flowop's requests fall:
 * random_distribution= (util/dist.h), percentage_random= and randommap
 * (docs/workload-language.md).  Internal to src/runner/.
 *
 * A flowop with none of the three has no struct rw_offsets (NULL) and its
 * random requests stay uniform with repeats (rng_below), as before.  One
 * per flowop per thread, written by that thread only.
 */
#ifndef FSGAUGE_RUNNER_OFFSETS_H
#define FSGAUGE_RUNNER_OFFSETS_H

#include <stdint.h>

#include "util/dist.h"
#include "util/rand.h"
#include "workload/workload.h"

struct rw_offsets {
	struct dist dist;    /* set up for dist.n blocks (redone when that changes) */
	unsigned pct_random; /* percentage_random=: 0 to 100 */
	int randommap;       /* each block once per pass */
	uint64_t map_n;      /* randommap: the pass's block count */
	uint64_t map_pos;    /* ... how many blocks it has taken */
	uint64_t map_key;    /* ... the permutation it walks */
};

/* The offsets of read/write flowop fo, or NULL when it has none of the
 * attributes (or is not a random read or write).  seed: the run's seed,
 * which fixes where zipf's and pareto's hot blocks are (the same blocks
 * in every thread).  Owned by the caller: offsets_free(). */
struct rw_offsets *offsets_new(const struct wl_flowop *fo, uint64_t seed);
void offsets_free(struct rw_offsets *o);

/* 1 when this request takes a random offset (percentage_random=), 0 when
 * it takes the next sequential one. */
static inline int offsets_take_random(const struct rw_offsets *o, struct rng *r)
{
	return o->pct_random >= 100 || (o->pct_random && rng_below(r, 100) < o->pct_random);
}

/* The block, in [0, blocks), of a random request among `blocks` (>= 1). */
uint64_t offsets_block(struct rw_offsets *o, struct rng *r, uint64_t blocks);

#endif
