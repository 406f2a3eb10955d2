/*
 * replicate.c — one workload made of several instances of another, for
 * `run --per-target` and bonnie's several targets (docs/targets.md): each instance is parsed on its
 * own (its $dir a different target), its names given a suffix so that no
 * two instances share a fileset, process, thread or flowop name, and its
 * filesets and processes moved into the first.  The runner merges the
 * statistics of flowops by name, so distinct names keep every instance's
 * figures apart.
 */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "workload/internal.h"
#include "workload/workload.h"

static void suffix(char **name, const char *sfx)
{
	char *s;

	if (!*name)
		return;
	s = xasprintf("%s%s", *name, sfx);
	free(*name);
	*name = s;
}

static void flowop_suffix(struct wl_flowop *fo, const char *sfx)
{
	suffix(&fo->name, sfx);
	suffix(&fo->fileset_name, sfx);
	/* target= names a flowop (sempost, the limits, finishon*, fsync's
	 * target): the one of this instance */
	if (wl_val_isset(&fo->target)) {
		char *t = xasprintf("%s%s", wl_val_str(&fo->target, ""), sfx);

		wl_val_clear(&fo->target);
		fo->target.kind = WLV_STR;
		fo->target.s = t;
	}
	for (size_t i = 0; i < fo->nchildren; i++)
		flowop_suffix(fo->children[i], sfx);
}

void wl_process_suffix_names(struct wl_process *p, const char *sfx)
{
	suffix(&p->name, sfx);
	for (size_t j = 0; j < p->nthreads; j++) {
		struct wl_thread *t = p->threads[j];

		suffix(&t->name, sfx);
		for (size_t k = 0; k < t->nflowops; k++)
			flowop_suffix(t->flowops[k], sfx);
	}
}

void workload_suffix_names(struct workload *w, const char *sfx)
{
	for (size_t i = 0; i < w->nfilesets; i++)
		suffix(&w->filesets[i]->name, sfx);
	for (size_t i = 0; i < w->nprocesses; i++)
		wl_process_suffix_names(w->processes[i], sfx);
}

void workload_absorb(struct workload *dst, struct workload *src)
{
	dst->filesets = xrealloc(dst->filesets,
				 (dst->nfilesets + src->nfilesets) * sizeof(*dst->filesets));
	memcpy(dst->filesets + dst->nfilesets, src->filesets,
	       src->nfilesets * sizeof(*src->filesets));
	dst->nfilesets += src->nfilesets;
	src->nfilesets = 0;
	dst->processes = xrealloc(dst->processes,
				  (dst->nprocesses + src->nprocesses) * sizeof(*dst->processes));
	memcpy(dst->processes + dst->nprocesses, src->processes,
	       src->nprocesses * sizeof(*src->processes));
	dst->nprocesses += src->nprocesses;
	src->nprocesses = 0;
}
