/* build.c — building a workload in code; see build.h. */
#include "workload/build.h"

#include <string.h>

#include "workload/internal.h"
#include "util/util.h"

#define PUSH(arr, n, item)                                                                         \
	do {                                                                                       \
		(arr) = xrealloc((arr), ((n) + 1) * sizeof(*(arr)));                               \
		(arr)[(n)++] = (item);                                                             \
	} while (0)

struct workload *wl_new(const char *name)
{
	struct workload *w = xcalloc(1, sizeof(*w));

	w->name = xstrdup(name);
	w->source = xstrdup(name);
	return w;
}

struct wl_val wl_int(int64_t v)
{
	return (struct wl_val){ .kind = WLV_INT, .i = v };
}

struct wl_val wl_bool(int v)
{
	return (struct wl_val){ .kind = WLV_BOOL, .i = !!v };
}

struct wl_val wl_dbl(double v)
{
	return (struct wl_val){ .kind = WLV_DBL, .d = v };
}

struct wl_val wl_str(const char *s)
{
	return (struct wl_val){ .kind = WLV_STR, .s = xstrdup(s) };
}

static struct wl_fileset *add_fileset(struct workload *w, const char *name)
{
	struct wl_fileset *fs = xcalloc(1, sizeof(*fs));
	struct wl_var *dir = wl_var_get(w, "dir");

	fs->name = xstrdup(name);
	/* like `path=$dir`: the run directory, set by the front end */
	dir->used = 1;
	fs->path = (struct wl_val){ .kind = WLV_VAR, .var = dir };
	PUSH(w->filesets, w->nfilesets, fs);
	return fs;
}

struct wl_fileset *wl_add_file(struct workload *w, const char *name, int64_t size)
{
	struct wl_fileset *fs = add_fileset(w, name);

	fs->is_file = 1;
	fs->size = wl_int(size);
	fs->entries = wl_int(1);
	fs->prealloc = wl_int(0);
	return fs;
}

struct wl_fileset *wl_add_fileset(struct workload *w, const char *name, int64_t entries,
				  struct wl_val size, int64_t dirwidth, int prealloc_pct)
{
	struct wl_fileset *fs = add_fileset(w, name);

	fs->size = size;
	fs->entries = wl_int(entries);
	fs->dirwidth = wl_int(dirwidth);
	fs->prealloc = wl_int(prealloc_pct);
	return fs;
}

struct wl_fileset *wl_add_flat_fileset(struct workload *w, const char *name, int64_t entries,
				       int64_t size, int prealloc_pct)
{
	struct wl_fileset *fs = wl_add_fileset(w, name, entries, wl_int(size), 0, prealloc_pct);

	fs->flat = 1;
	return fs;
}

struct wl_fileset *wl_add_named_fileset(struct workload *w, const char *name, char **names,
					size_t n, int64_t size, int dirs, int prealloc_pct)
{
	struct wl_fileset *fs = wl_add_flat_fileset(w, name, (int64_t)n, dirs ? 0 : size,
						    prealloc_pct);

	fs->names = names;
	fs->nnames = n;
	if (dirs)
		fs->leafdirs = wl_int((int64_t)n);
	return fs;
}

struct randvar *wl_add_randvar(struct workload *w, enum rv_type type)
{
	struct randvar *rv = xcalloc(1, sizeof(*rv));

	rv->type = type;
	PUSH(w->randvars, w->nrandvars, rv);
	return rv;
}

struct wl_process *wl_new_process(const char *name, int64_t instances)
{
	struct wl_process *p = xcalloc(1, sizeof(*p));

	p->name = xstrdup(name);
	p->instances = wl_int(instances);
	return p;
}

struct wl_process *wl_add_process(struct workload *w, const char *name, int64_t instances)
{
	struct wl_process *p = wl_new_process(name, instances);

	PUSH(w->processes, w->nprocesses, p);
	return p;
}

struct wl_thread *wl_add_thread(struct wl_process *p, const char *name, int64_t instances,
				int64_t memsize)
{
	struct wl_thread *t = xcalloc(1, sizeof(*t));

	t->name = xstrdup(name);
	t->instances = wl_int(instances);
	t->memsize = wl_int(memsize);
	PUSH(p->threads, p->nthreads, t);
	return t;
}

static struct wl_flowop *new_flowop(enum flowop_type type, const char *name,
				    struct wl_fileset *fs)
{
	struct wl_flowop *fo = xcalloc(1, sizeof(*fo));

	fo->type = type;
	fo->name = xstrdup(name);
	if (fs) {
		fo->fileset = fs;
		fo->fileset_name = xstrdup(fs->name);
	}
	return fo;
}

struct wl_flowop *wl_add_flowop(struct wl_thread *t, enum flowop_type type, const char *name,
				struct wl_fileset *fs)
{
	struct wl_flowop *fo = new_flowop(type, name, fs);

	PUSH(t->flowops, t->nflowops, fo);
	return fo;
}

struct wl_flowop *wl_add_rwmix(struct wl_thread *t, const char *name, struct wl_fileset *fs,
			       int readpct)
{
	struct wl_flowop *fo = wl_add_flowop(t, FO_RWMIX, name, fs);

	fo->readpct = wl_int(readpct);
	return fo;
}

struct wl_flowop *wl_add_composite(struct wl_thread *t, const char *name)
{
	struct wl_flowop *fo = wl_add_flowop(t, FO_COMPOSITE, name, NULL);

	fo->composite_name = xstrdup(name);
	return fo;
}

struct wl_flowop *wl_add_child(struct wl_flowop *composite, enum flowop_type type,
			       const char *name, struct wl_fileset *fs)
{
	struct wl_flowop *fo = new_flowop(type, name, fs);

	PUSH(composite->children, composite->nchildren, fo);
	return fo;
}

struct wl_flowop *wl_add_replay(struct wl_thread *t, const char *name, const struct replay *r,
				int64_t executions, const char *dir)
{
	struct wl_flowop *fo = wl_add_flowop(t, FO_REPLAY, name, NULL);
	int used[RPK__COUNT] = { 0 };

	fo->replay = r;
	fo->value = wl_int(executions);
	fo->dir = wl_str(dir);
	for (size_t i = 0; i < r->nops; i++)
		used[r->ops[i].kind] = 1;
	for (int k = 0; k < RPK__COUNT; k++) {
		struct wl_flowop *c;

		if (!used[k])
			continue;
		c = xcalloc(1, sizeof(*c));
		c->type = FO_REPLAY;
		c->name = xasprintf("%s.%s", name, replay_kind_name(k));
		c->replay_kind = k;
		PUSH(fo->children, fo->nchildren, c);
	}
	return fo;
}
