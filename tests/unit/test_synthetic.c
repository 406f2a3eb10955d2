/* test_synthetic.c — unit tests for workload/synthetic_tree.c: every
 * preset builds, is deterministic for a seed and different for another,
 * has the preset's counts, stays within its depth, and has the shape the
 * header promises (many small files, a heavy tail, uneven directories). */
#include "tap.h"
#include "util/util.h"
#include "workload/replay.h"
#include "workload/synthetic_tree.h"

#include <stdlib.h>

static struct replay *build(const struct synthetic_preset *p, uint64_t seed)
{
	struct replay_opts o = { .umask = 022 };
	struct replay *r = replay_new(&o);
	char err[512] = "";

	if (synthetic_tree_build(p, seed, r, err, sizeof(err)) < 0) {
		ok(0, "preset %s builds: %s", p->name, err);
		replay_free(r);
		return NULL;
	}
	replay_finish(r);
	return r;
}

static int same_tree(const struct replay *a, const struct replay *b)
{
	if (a->nnodes != b->nnodes || a->nops != b->nops)
		return 0;
	for (size_t i = 0; i < a->nnodes; i++) {
		const struct replay_node *x = &a->nodes[i], *y = &b->nodes[i];

		if (x->type != y->type || x->size != y->size || x->mode != y->mode ||
		    strcmp(x->path, y->path) || x->mtime.tv_sec != y->mtime.tv_sec)
			return 0;
	}
	return 1;
}

static int cmp_size(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_preset(const struct synthetic_preset *p)
{
	struct replay *a = build(p, 1), *b = build(p, 1), *c = build(p, 2);
	uint64_t small = 0, empty = 0, nsym = 0;

	if (!a || !b || !c)
		goto out;
	ok(same_tree(a, b), "%s: the same seed gives the same tree", p->name);
	ok(!same_tree(a, c), "%s: another seed gives another tree", p->name);
	is_int(a->st.files, p->files, "%s: %u files", p->name, p->files);
	is_int(a->st.dirs, p->dirs, "%s: %u directories", p->name, p->dirs);
	nsym = (uint64_t)((double)p->files * p->symlink_pct / 100.0 + 0.5);
	is_int(a->st.symlinks, nsym, "%s: %llu symlinks", p->name, (unsigned long long)nsym);
	ok(a->st.max_depth <= p->max_depth + 1, "%s: depth %u within %u directories and a file",
	   p->name, a->st.max_depth, p->max_depth);
	for (size_t i = 0; i < a->nnodes; i++) {
		const struct replay_node *n = &a->nodes[i];

		if (n->type != RPT_FILE)
			continue;
		small += n->size < 1024;
		empty += n->size == 0;
	}
	ok(small * 100 >= a->st.files * 5, "%s: many small files (%.1f%% under 1 KiB)", p->name,
	   100.0 * (double)small / (double)a->st.files);
	ok(empty > 0 || p->files < 200, "%s: some empty files (%llu)", p->name,
	   (unsigned long long)empty);
	ok(a->st.size_p99 >= 10 * a->st.size_median, "%s: heavy tail (p99 %llu >= 10 x median %llu)",
	   p->name, (unsigned long long)a->st.size_p99, (unsigned long long)a->st.size_median);
	ok(a->st.size_median > p->size_median / 2 && a->st.size_median < p->size_median * 2,
	   "%s: median %llu near the preset's %.0f", p->name,
	   (unsigned long long)a->st.size_median, p->size_median);
	ok(a->st.size_max <= p->size_cap, "%s: no file above the cap", p->name);
	for (size_t i = 0; i < a->nops; i++)
		if (a->ops[i].kind == RPK_WRITE && a->ops[i].data != REPLAY_PATTERN) {
			ok(0, "%s: writes use the data pattern", p->name);
			goto out;
		}
	ok(1, "%s: writes use the data pattern", p->name);

	/* uneven directories: the fullest holds many times the median */
	uint64_t *per = xcalloc(a->nnodes + 1, sizeof(*per));
	size_t nd = 0;

	for (size_t i = 0; i < a->nnodes; i++)
		if (a->nodes[i].type == RPT_FILE)
			per[a->nodes[i].parent == REPLAY_ROOT ? a->nnodes : a->nodes[i].parent]++;
	for (size_t i = 0; i < a->nnodes; i++)
		if (a->nodes[i].type == RPT_DIR)
			per[nd++] = per[i];
	qsort(per, nd, sizeof(*per), cmp_size);
	ok(nd && per[nd - 1] >= 4 * (per[nd / 2] ? per[nd / 2] : 1),
	   "%s: fullest directory %llu files, median %llu", p->name,
	   (unsigned long long)(nd ? per[nd - 1] : 0), (unsigned long long)(nd ? per[nd / 2] : 0));
	free(per);
out:
	replay_free(a);
	replay_free(b);
	replay_free(c);
}

int main(void)
{
	size_t n;
	const struct synthetic_preset *p = synthetic_tree_presets(&n);

	ok(n >= 3, "there are presets");
	ok(synthetic_tree_find("tiny") == &p[0], "find by name");
	ok(synthetic_tree_find("nosuch") == NULL, "unknown name");
	for (size_t i = 0; i < n; i++)
		test_preset(&p[i]);
	return done_testing();
}
