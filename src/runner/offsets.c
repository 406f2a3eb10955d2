/* offsets.c — random offsets of read and write flowops; see offsets.h. */
#include "runner/offsets.h"

#include <stdlib.h>

#include "util/util.h"

struct rw_offsets *offsets_new(const struct wl_flowop *fo, uint64_t seed)
{
	struct rw_offsets *o;
	struct dist_spec spec = {0};

	if ((fo->type != FO_READ && fo->type != FO_WRITE && fo->type != FO_RWMIX) ||
	    !wl_val_bool(&fo->random, 0))
		return NULL;
	if (!wl_val_isset(&fo->random_distribution) && !wl_val_isset(&fo->percentage_random) &&
	    !wl_val_bool(&fo->randommap, 0))
		return NULL;
	/* the parser checked the spec: a failure leaves it uniform */
	if (wl_val_isset(&fo->random_distribution))
		dist_parse(wl_val_str(&fo->random_distribution, "random"), &spec, NULL, 0);
	o = xcalloc(1, sizeof(*o));
	dist_init(&o->dist, &spec, 1, seed * 0x9e3779b97f4a7c15ull ^ 0x2545f4914f6cdd1dull);
	o->pct_random = (unsigned)MIN(MAX(wl_val_int(&fo->percentage_random, NULL, 100), 0), 100);
	o->randommap = wl_val_bool(&fo->randommap, 0);
	return o;
}

void offsets_free(struct rw_offsets *o)
{
	free(o);
}

uint64_t offsets_block(struct rw_offsets *o, struct rng *r, uint64_t blocks)
{
	if (o->randommap) {
		/* a new pass when the last one is complete or the file's
		 * block count changed under it */
		if (o->map_pos >= o->map_n || o->map_n != blocks) {
			o->map_n = blocks;
			o->map_pos = 0;
			o->map_key = rng_next(r);
		}
		return rand_permute(o->map_pos++, blocks, o->map_key);
	}
	if (o->dist.spec.kind == DIST_UNIFORM)
		return rng_below(r, blocks);
	if (o->dist.n != blocks)
		dist_init(&o->dist, &o->dist.spec, blocks, o->dist.key);
	return dist_next(&o->dist, r);
}
