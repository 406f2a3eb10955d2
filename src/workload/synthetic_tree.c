/* synthetic_tree.c — deterministic source-tree-shaped trees; see
 * synthetic_tree.h. */
#include "workload/synthetic_tree.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rand.h"
#include "util/util.h"

static const struct synthetic_preset presets[] = {
	{
		.name = "tiny",
		.description = "a few hundred files (tests, quick checks)",
		.files = 400, .dirs = 40, .max_depth = 5,
		.size_median = 3500, .size_sigma = 1.3,
		.tail_pct = 2, .tail_min = 40000, .tail_alpha = 1.3, .size_cap = 2 << 20,
		.empty_pct = 1, .symlink_pct = 1, .exec_pct = 3, .dir_weight_sigma = 1.2,
	},
	{
		.name = "small",
		.description = "a library's source tree: thousands of files",
		.files = 4000, .dirs = 350, .max_depth = 8,
		.size_median = 4500, .size_sigma = 1.35,
		.tail_pct = 2, .tail_min = 50000, .tail_alpha = 1.25, .size_cap = 8 << 20,
		.empty_pct = 1, .symlink_pct = 0.5, .exec_pct = 3, .dir_weight_sigma = 1.3,
	},
	{
		.name = "medium",
		.description = "a large application's source tree: tens of thousands of files",
		.files = 25000, .dirs = 2500, .max_depth = 10,
		.size_median = 4500, .size_sigma = 1.4,
		.tail_pct = 2, .tail_min = 50000, .tail_alpha = 1.2, .size_cap = 16 << 20,
		.empty_pct = 1, .symlink_pct = 0.3, .exec_pct = 2, .dir_weight_sigma = 1.3,
	},
	{
		.name = "linux",
		.description = "the order of a Linux kernel tree: ~75k files, ~1 GB",
		.files = 75000, .dirs = 5000, .max_depth = 10,
		.size_median = 5500, .size_sigma = 1.35,
		.tail_pct = 2, .tail_min = 60000, .tail_alpha = 1.25, .size_cap = 32 << 20,
		.empty_pct = 0.5, .symlink_pct = 0.05, .exec_pct = 1, .dir_weight_sigma = 1.4,
	},
};

const struct synthetic_preset *synthetic_tree_presets(size_t *n)
{
	*n = ARRAY_SIZE(presets);
	return presets;
}

const struct synthetic_preset *synthetic_tree_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

static const char *const dir_words[] = {
	"src",	   "include", "lib",	 "drivers", "net",     "fs",	  "core",    "util",
	"test",	   "tests",   "doc",	 "docs",    "arch",    "tools",	  "scripts", "common",
	"internal", "platform", "ui",	 "model",   "io",      "base",	  "plugins", "resources",
	"impl",	   "api",     "crypto",	 "sound",   "media",   "mm",	  "kernel",  "block",
	"compat",  "debug",   "examples", "bin",    "config",  "data",	  "gen",     "parser",
};

static const char *const file_words[] = {
	"main",	  "util",    "core",   "common", "init",   "config",   "parser", "table",
	"buffer", "list",    "hash",   "queue",	 "device", "driver",   "file",	 "inode",
	"super",  "io",	     "read",   "write",	 "event",  "handler",  "module", "sched",
	"memory", "page",    "cache",  "lock",	 "string", "format",   "test",	 "helper",
	"socket", "message", "stream", "view",	 "editor", "resource", "widget", "plugin",
};

struct ext_weight {
	const char *ext;
	unsigned weight;
};

static const struct ext_weight exts[] = {
	{ ".c", 30 }, { ".h", 22 }, { ".java", 10 }, { ".py", 5 }, { ".txt", 4 }, { ".S", 3 },
	{ ".json", 3 }, { ".xml", 4 }, { ".md", 3 }, { ".sh", 2 }, { ".rst", 3 }, { ".yaml", 3 },
	{ ".html", 2 }, { ".properties", 2 }, { "", 4 },
};

struct gdir {
	uint32_t parent;
	uint32_t depth;	   /* root 0 */
	uint32_t first_sub, next_sib, last_sub; /* subdirectory lists */
	uint32_t first_file, last_file;		 /* file/symlink lists (indexes into gfile) */
	char name[48];
};

struct gfile {
	uint32_t next;
	int symlink;
	uint32_t mode;
	uint64_t size;
	int64_t mtime;
	char name[48];
	char target[64];
};

#define NONE UINT32_MAX

struct gen {
	struct gdir *d;
	uint32_t nd;
	struct gfile *f;
	uint32_t nf;
	struct rng rng;
	char path[REPLAY_PATH_MAX + 1];
	struct replay *r;
	char *err;
	size_t errlen;
};

static uint64_t file_size(const struct synthetic_preset *p, struct rng *r)
{
	double v;

	if (rng_double(r) * 100 < p->empty_pct)
		return 0;
	if (rng_double(r) * 100 < p->tail_pct) {
		double u = 1.0 - rng_double(r); /* (0, 1] */

		v = p->tail_min * pow(u, -1.0 / p->tail_alpha);
	} else {
		v = rng_lognormal(r, log(p->size_median), p->size_sigma);
	}
	if (v < 1)
		v = 1;
	if (v > (double)p->size_cap)
		v = (double)p->size_cap;
	return (uint64_t)v;
}

static const char *pick_ext(struct rng *r)
{
	unsigned total = 0, x;

	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		total += exts[i].weight;
	x = (unsigned)rng_below(r, total);
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		if (x < exts[i].weight)
			return exts[i].ext;
		x -= exts[i].weight;
	}
	return "";
}

/* Directories by preferential attachment: an urn holds each directory
 * once plus once per subdirectory, so a parent is drawn with probability
 * proportional to (subdirectories + 1). */
static void grow_dirs(struct gen *g, const struct synthetic_preset *p)
{
	uint32_t *urn = xmalloc(((size_t)p->dirs * 2 + 2) * sizeof(*urn));
	size_t nurn = 0;

	g->nd = p->dirs + 1;
	g->d = xcalloc(g->nd, sizeof(*g->d));
	for (uint32_t i = 0; i < g->nd; i++) {
		g->d[i].first_sub = g->d[i].next_sib = g->d[i].last_sub = NONE;
		g->d[i].first_file = g->d[i].last_file = NONE;
	}
	urn[nurn++] = 0;
	for (uint32_t i = 1; i < g->nd; i++) {
		uint32_t par = 0;

		for (int tries = 0; tries < 64; tries++) {
			uint32_t c = urn[rng_below(&g->rng, nurn)];

			if (g->d[c].depth < p->max_depth) {
				par = c;
				break;
			}
		}
		g->d[i].parent = par;
		g->d[i].depth = g->d[par].depth + 1;
		snprintf(g->d[i].name, sizeof(g->d[i].name), "%s%u",
			 dir_words[rng_below(&g->rng, ARRAY_SIZE(dir_words))], i);
		if (g->d[par].last_sub == NONE)
			g->d[par].first_sub = i;
		else
			g->d[g->d[par].last_sub].next_sib = i;
		g->d[par].last_sub = i;
		urn[nurn++] = par;
		urn[nurn++] = i;
	}
	free(urn);
}

static uint32_t pick_weighted(const double *cum, uint32_t n, double x)
{
	uint32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void add_file(struct gen *g, uint32_t dir, uint32_t idx)
{
	struct gdir *d = &g->d[dir];

	if (d->last_file == NONE)
		d->first_file = idx;
	else
		g->f[d->last_file].next = idx;
	d->last_file = idx;
}

/* Files (and symlinks) to directories with log-normal weights. */
static void place_files(struct gen *g, const struct synthetic_preset *p)
{
	uint32_t nsym = (uint32_t)((double)p->files * p->symlink_pct / 100.0 + 0.5);
	double *cum = xmalloc(g->nd * sizeof(*cum)), total = 0;

	for (uint32_t i = 0; i < g->nd; i++) {
		total += rng_lognormal(&g->rng, 0, p->dir_weight_sigma);
		cum[i] = total;
	}
	g->nf = p->files + nsym;
	g->f = xcalloc(g->nf, sizeof(*g->f));
	for (uint32_t i = 0; i < g->nf; i++) {
		struct gfile *f = &g->f[i];
		uint32_t dir = pick_weighted(cum, g->nd, rng_double(&g->rng) * total);

		f->next = NONE;
		f->mtime = 1269907200 + (int64_t)rng_below(&g->rng, 3 * 365 * 86400);
		if (i < p->files) {
			f->size = file_size(p, &g->rng);
			f->mode = rng_double(&g->rng) * 100 < p->exec_pct ? 0755 : 0644;
			/* '_' keeps file names apart from directory names */
			snprintf(f->name, sizeof(f->name), "%s_%u%s",
				 file_words[rng_below(&g->rng, ARRAY_SIZE(file_words))], i,
				 pick_ext(&g->rng));
		} else {
			const struct gdir *d = &g->d[dir];

			f->symlink = 1;
			f->mode = 0777;
			snprintf(f->name, sizeof(f->name), "link_%u", i);
			/* to a file of the same directory (or a dangling name):
			 * never out of the tree */
			if (d->first_file != NONE && !g->f[d->first_file].symlink)
				snprintf(f->target, sizeof(f->target), "%s", g->f[d->first_file].name);
			else
				snprintf(f->target, sizeof(f->target), "README");
		}
		add_file(g, dir, i);
	}
	free(cum);
}

static int emit(struct gen *g, const struct replay_entry *e)
{
	return replay_add(g->r, e, g->err, g->errlen);
}

/* Depth first, as tar lists a tree: the directory, its files, then its
 * subdirectories.  plen is the length of the directory's path in g->path
 * ("" for the root). */
static int walk(struct gen *g, uint32_t dir, size_t plen)
{
	for (uint32_t i = g->d[dir].first_file; i != NONE; i = g->f[i].next) {
		const struct gfile *f = &g->f[i];
		struct replay_entry e = { .type = f->symlink ? RPT_SYMLINK : RPT_FILE,
					  .path = g->path, .target = f->target, .mode = f->mode,
					  .size = f->size, .data = REPLAY_PATTERN,
					  .mtime = { f->mtime, 0 }, .has_mtime = 1 };

		snprintf(g->path + plen, sizeof(g->path) - plen, "%s%s", plen ? "/" : "", f->name);
		if (emit(g, &e) < 0)
			return -EINVAL;
	}
	for (uint32_t s = g->d[dir].first_sub; s != NONE; s = g->d[s].next_sib) {
		size_t n = plen + (plen ? 1 : 0) + strlen(g->d[s].name);
		struct replay_entry e = { .type = RPT_DIR, .path = g->path, .mode = 0755,
					  .mtime = { 1269907200, 0 }, .has_mtime = 1 };

		snprintf(g->path + plen, sizeof(g->path) - plen, "%s%s", plen ? "/" : "",
			 g->d[s].name);
		if (emit(g, &e) < 0 || walk(g, s, n) < 0)
			return -EINVAL;
		g->path[plen] = 0;
	}
	return 0;
}

int synthetic_tree_build(const struct synthetic_preset *p, uint64_t seed, struct replay *r,
			 char *err, size_t errlen)
{
	struct gen g = { .r = r, .err = err, .errlen = errlen };
	int ret;

	rng_seed(&g.rng, seed, 0x7472656555ull); /* a stream of its own */
	grow_dirs(&g, p);
	place_files(&g, p);
	g.path[0] = 0;
	ret = walk(&g, 0, 0);
	free(g.d);
	free(g.f);
	return ret;
}
