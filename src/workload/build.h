/*
 * build.h — building a struct workload in code, for the front ends that
 * do not parse WML (bonnie, iozone, untar).  The result is the same model
 * the parser produces and is freed by workload_free().
 *
 *   struct workload *w = wl_new("bonnie");
 *   struct wl_fileset *f = wl_add_file(w, "Bonnie.data", 1 << 30);
 *   struct wl_process *p = wl_add_process(w, "writer", 1);
 *   struct wl_thread *t = wl_add_thread(p, "writer", 1, 1 << 20);
 *   struct wl_flowop *fo = wl_add_flowop(t, FO_WRITE, "block_write", f);
 *   fo->iosize = wl_int(8192);
 *
 * Processes added to a workload run together in one phase; a front end
 * with several phases keeps them in its own arrays and passes each set to
 * runner_phase() (wl_new_process() creates one not attached to w; free
 * those with wl_process_free()).
 */
#ifndef FSGAUGE_WORKLOAD_BUILD_H
#define FSGAUGE_WORKLOAD_BUILD_H

#include "workload/replay.h"
#include "workload/workload.h"

struct workload *wl_new(const char *name);

/* Constant attribute values. */
struct wl_val wl_int(int64_t v);
struct wl_val wl_bool(int v);
struct wl_val wl_dbl(double v);
/* The string is copied. */
struct wl_val wl_str(const char *s);

/* A `define file`: one file named `name` directly in the run directory. */
struct wl_fileset *wl_add_file(struct workload *w, const char *name, int64_t size);
/* A `define fileset` of `entries` files, `dirwidth` per directory, with
 * `prealloc_pct` percent created beforehand; size as given (it may be a
 * random variable). */
struct wl_fileset *wl_add_fileset(struct workload *w, const char *name, int64_t entries,
				  struct wl_val size, int64_t dirwidth, int prealloc_pct);
/* A fileset of `entries` files of `size` bytes named "<name>.<i>"
 * directly in the run directory (fio's names), prealloc_pct percent of
 * them created beforehand. */
struct wl_fileset *wl_add_flat_fileset(struct workload *w, const char *name, int64_t entries,
				       int64_t size, int prealloc_pct);
/* A flat fileset of `n` entries named names[0] .. names[n - 1] (plain
 * names, distinct: the caller checks) directly in the run directory,
 * each of `size` bytes, or an empty directory with `dirs`; the array and
 * its strings become the workload's.  prealloc_pct as above. */
struct wl_fileset *wl_add_named_fileset(struct workload *w, const char *name, char **names,
					size_t n, int64_t size, int dirs, int prealloc_pct);
/* A random variable owned by w (freed with it). */
struct randvar *wl_add_randvar(struct workload *w, enum rv_type type);

struct wl_process *wl_add_process(struct workload *w, const char *name, int64_t instances);
struct wl_process *wl_new_process(const char *name, int64_t instances);
void wl_process_free(struct wl_process *p);
struct wl_thread *wl_add_thread(struct wl_process *p, const char *name, int64_t instances,
				int64_t memsize);
struct wl_flowop *wl_add_flowop(struct wl_thread *t, enum flowop_type type, const char *name,
				struct wl_fileset *fs);
/* An rwmix flowop (FO_RWMIX) on fs: each operation a read with
 * probability readpct percent (0 to 100), else a write; counted as two
 * operations, "<name>.read" and "<name>.write".  Set iosize, random,
 * iodepth, iobytes, ... on the result as on a read or write. */
struct wl_flowop *wl_add_rwmix(struct wl_thread *t, const char *name, struct wl_fileset *fs,
			       int readpct);
/* A composite flowop (as a `define flowop` call): its children run in
 * order, `iters` times per call, and the whole call is timed as one
 * operation named `name`.  Add children with wl_add_child(). */
struct wl_flowop *wl_add_composite(struct wl_thread *t, const char *name);
struct wl_flowop *wl_add_child(struct wl_flowop *composite, enum flowop_type type,
			       const char *name, struct wl_fileset *fs);
/* A FO_REPLAY flowop named `name` replaying r (not copied: it must outlive
 * the workload) `executions` times in all across the threads running it,
 * execution k in directory "<dir>-<k>" (k printed with at least 3 digits).
 * Its children count each kind of operation r holds, named
 * "<name>.<kind>" ("untar.mkdir").  Its executions go in the first run
 * directory; set replay_target for another's. */
struct wl_flowop *wl_add_replay(struct wl_thread *t, const char *name, const struct replay *r,
				int64_t executions, const char *dir);

#endif
