/*
 * runner.c — threads, phases and stopping; see runner.h.  The flowops
 * themselves are in flowop.c.
 */
#include "runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "runner/internal.h"
#include "runner/preflight.h"
#include "stats/env.h"
#include "util/clock.h"
#include "util/display.h"
#include "util/rundir.h"
#include "util/stop.h"
#include "util/util.h"
#include "workload/build.h"

HOT_DATA volatile int runner_stop_signal;

static void on_signal(int sig)
{
	__atomic_store_n(&runner_stop_signal, sig, __ATOMIC_RELAXED);
}

void runner_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: sleeps wake up and see the stop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* the engines' retries of EINTR and EAGAIN stop once it is set */
	stop_register(&runner_stop_signal);
	/* a reader that goes away (`| head`) must not kill us with files on
	 * disk: writes to it fail instead, and the run ends as it would */
	signal(SIGPIPE, SIG_IGN);
}

static struct sync_obj *sync_get(struct runner *rn, const char *name)
{
	for (size_t i = 0; i < rn->nsyncs; i++)
		if (!strcmp(rn->syncs[i].name, name))
			return &rn->syncs[i];
	return NULL;
}

/* Sync objects are created before any worker starts, one per semblock
 * or block flowop name, so workers never modify the table.  A replay
 * flowop uses one as the counter its threads claim executions from. */
static void sync_collect(struct runner *rn, struct wl_flowop *const *fl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_flowop *fo = fl[i];

		if (fo->type == FO_COMPOSITE)
			sync_collect(rn, fo->children, fo->nchildren);
		if ((fo->type != FO_SEMBLOCK && fo->type != FO_BLOCK &&
		     !(fo->type == FO_REPLAY && fo->replay)) ||
		    sync_get(rn, fo->name))
			continue;
		rn->syncs = xrealloc(rn->syncs, (rn->nsyncs + 1) * sizeof(*rn->syncs));
		struct sync_obj *so = &rn->syncs[rn->nsyncs++];

		memset(so, 0, sizeof(*so));
		so->name = xstrdup(fo->name);
		pthread_mutex_init(&so->mu, NULL);
		pthread_cond_init(&so->cv, NULL);
	}
}

static struct ordered_pass *pass_get(struct runner *rn, const struct wl_flowop *fo)
{
	for (size_t i = 0; i < rn->npasses; i++)
		if (rn->passes[i].fo == fo)
			return &rn->passes[i];
	return NULL;
}

/* One pass per `ordered` flowop definition, shared by the threads that
 * run it, created before any worker starts.  Shuffled passes get a key
 * from the seed, the phase and the flowop, so that every phase shuffles
 * differently but a run repeats exactly. */
static void pass_collect(struct runner *rn, struct wl_flowop *const *fl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_flowop *fo = fl[i];

		if (fo->type == FO_COMPOSITE)
			pass_collect(rn, fo->children, fo->nchildren);
		if (!(wl_val_bool(&fo->ordered, 0) || wl_val_bool(&fo->readdir, 0)) ||
		    pass_get(rn, fo))
			continue;
		rn->passes = xrealloc(rn->passes, (rn->npasses + 1) * sizeof(*rn->passes));
		struct ordered_pass *op = &rn->passes[rn->npasses++];

		op->fo = fo;
		op->next = 0;
		op->shuffle = wl_val_bool(&fo->random, 0);
		op->dir = NULL;
		if (wl_val_bool(&fo->readdir, 0)) {
			op->dir = xcalloc(1, sizeof(*op->dir));
			pthread_mutex_init(&op->dir->mu, NULL);
			op->dir->fd = -1;
		}
		op->key = rn->o->seed * 0x9e3779b97f4a7c15ull + rn->nphases * 0x100000001b3ull +
			  rn->npasses;
	}
}

static struct rt_fileset *fileset_by_def(struct runner *rn, const struct wl_fileset *def)
{
	for (size_t i = 0; i < rn->nfs; i++)
		if (rn->fs[i].def == def)
			return &rn->fs[i];
	return NULL;
}

static void wflow_init(struct runner *rn, struct wflow *f, const struct wl_flowop *fo);
static void visit_flows(struct runner *rn, struct wflow *fl, size_t n, struct worker *wk,
			wflow_fn fn, void *arg);

/* The operations a read, write or rwmix flowop counts apart from its
 * own: an rwmix's reads and writes ("NAME.read", "NAME.write"), a
 * trimwrite write's discards and writes ("NAME.trim", class other, and
 * "NAME.write").  They are children of the wflow that are never
 * executed, only counted in, with descriptors of their own (f->acct_fo,
 * freed by wflow_free) so that they are named in the result as any
 * flowop. */
static void wflow_acct_init(struct runner *rn, struct wflow *f)
{
	const struct wl_flowop *fo = f->fo;
	struct wl_flowop *d;
	size_t n = 0;

	if (fo->type != FO_RWMIX && !f->trimwrite)
		return;
	f->acct_fo = d = xcalloc(2, sizeof(*d));
	if (f->trimwrite) {
		d[n].type = FO_WRITE;
		d[n].trim = wl_bool(1); /* (its class: runner_flow_class) */
		d[n++].name = xasprintf("%s.trim", fo->name);
	} else {
		d[n].type = FO_READ;
		d[n++].name = xasprintf("%s.read", fo->name);
	}
	d[n].type = FO_WRITE;
	d[n++].name = xasprintf("%s.write", fo->name);
	for (size_t i = 0; i < n; i++)
		d[i].line = fo->line;
	f->nacct_fo = n;
	f->nchildren = n;
	f->children = xcalloc_aligned(n, sizeof(*f->children), _Alignof(struct wflow));
	for (size_t i = 0; i < n; i++)
		wflow_init(rn, &f->children[i], &d[i]);
}

static void wflow_init(struct runner *rn, struct wflow *f, const struct wl_flowop *fo)
{
	memset(f, 0, offsetof(struct wflow, st));
	memset((char *)f + offsetof(struct wflow, st) + sizeof(f->st), 0,
	       sizeof(*f) - offsetof(struct wflow, st) - sizeof(f->st));
	f->fo = fo;
	f->fs = fo->fileset ? fileset_by_def(rn, fo->fileset) : NULL;
	op_stats_init(&f->st);
	f->priv.fd = -1;
	f->priv.idx = -1;
	f->priv.last_idx = -1;
	flow_init_attrs(f, rn->o->direct);
	if (engine_spec_caps(rn->o->engine) & ENGINE_DISKLESS)
		f->invalidate = f->advice = 0; /* its descriptors are no files */
	f->ofs = offsets_new(fo, rn->o->seed);
	f->rate = rate_new(fo);
	if (wl_val_isset(&fo->rotate) && f->fs && f->fs->n && runner_block_flowop(fo->type))
		f->rot = rot_new(fo, f->fs->n);
	if (f->iodepth > 1 && runner_block_flowop(fo->type) &&
	    (engine_spec_caps(rn->o->engine) & ENGINE_ASYNC))
		depth_q_init(f);
	if (flow_splits(fo, f->bufsize, f->random, f->trim | f->falloc | f->truncate) &&
	    (engine_spec_caps(rn->o->engine) & ENGINE_ASYNC))
		op_stats_split(&f->st);
	f->pass = pass_get(rn, fo);
	if (fo->type == FO_SEMBLOCK || fo->type == FO_BLOCK || (fo->type == FO_REPLAY && fo->replay))
		f->sync = sync_get(rn, fo->name);
	else if (fo->type == FO_SEMPOST || fo->type == FO_WAKEUP)
		f->sync = sync_get(rn, wl_val_str(&fo->target, ""));
	if ((fo->type == FO_COMPOSITE || fo->type == FO_REPLAY) && fo->nchildren) {
		f->nchildren = fo->nchildren;
		f->children = xcalloc_aligned(fo->nchildren, sizeof(*f->children), _Alignof(struct wflow));
		for (size_t i = 0; i < fo->nchildren; i++) {
			wflow_init(rn, &f->children[i], fo->children[i]);
			if (fo->type == FO_REPLAY)
				f->replay_child[fo->children[i]->replay_kind] = (unsigned char)i;
		}
	} else {
		wflow_acct_init(rn, f);
	}
}

/* In filebench every flowop without fd= uses descriptor slot 0, so an
 * fsync or closefile without fd= acts on the file the thread's other
 * fd-less flowops opened (filemicro_rwritefsync: `write` with
 * filename=, then `fsync`).  In fsgauge an fd-less flowop with a file has
 * a descriptor of its own, so such an fsync or closefile is bound to the
 * descriptor of the nearest fd-less flowop with a file before it in the
 * thread's list (the loop wraps: before the first, the last). */
static void bind_fdless_syncs(struct worker *wk)
{
	struct fd_slot *last = NULL;

	for (size_t i = 0; i < wk->nflows; i++)
		if (wk->flows[i].fs && !wk->flows[i].fd_slot)
			last = &wk->flows[i].priv;
	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];

		if (f->fs && !f->fd_slot)
			last = &f->priv;
		else if (!f->fs && !wl_val_isset(&f->fo->fd) &&
			 (f->type == FO_FSYNC || f->type == FO_CLOSEFILE))
			f->slot = last;
	}
}

/* Several targets: which one each flow's operations touch (wflow.target,
 * what measure.c counts its bytes in).  In a thread whose files are all
 * in one target, every flow's is that one; else a flow with a fileset has
 * its fileset's, an untar replay its copies' target's, and a flow on a numbered descriptor (fd=) the target of
 * the files the thread's flowops open into that descriptor when they are
 * all in one.  Otherwise -1: counted in no target. */
struct flow_tgt {
	int fd_index; /* -1: every flow with a file; else those opening into it */
	int t;	      /* -2 none yet, -1 several */
};

static int flow_file_target(const struct runner *rn, const struct wflow *f)
{
	if (f->type == FO_REPLAY && f->fo->replay)
		return f->fo->replay_target < rn->nrd ? (int)f->fo->replay_target : 0;
	return f->fs && !f->fs->def->has_device ? (int)f->fs->target : -2;
}

static void flow_tgt_note(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct flow_tgt *a = arg;
	int t = flow_file_target(rn, f);

	(void)wk;
	if (t < -1 || (a->fd_index >= 0 && (!f->fd_slot || f->fd_index != a->fd_index)))
		return;
	a->t = a->t == -2 || a->t == t ? t : -1;
}

static void flow_tgt_set(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	const struct flow_tgt *all = arg;
	struct flow_tgt a = { f->fd_index, -2 };

	if (all->t >= 0)
		f->target = all->t;
	else if (flow_file_target(rn, f) >= 0)
		f->target = flow_file_target(rn, f);
	else if (f->fd_slot) {
		visit_flows(rn, wk->flows, wk->nflows, wk, flow_tgt_note, &a);
		f->target = a.t >= 0 ? a.t : -1;
	} else {
		f->target = -1;
	}
}

static void bind_flow_targets(struct runner *rn, struct worker *wk)
{
	struct flow_tgt all = { -1, -2 };

	visit_flows(rn, wk->flows, wk->nflows, wk, flow_tgt_note, &all);
	visit_flows(rn, wk->flows, wk->nflows, wk, flow_tgt_set, &all);
}

/* iopslimit, opslimit and bwlimit with target= count the operations or
 * bytes of the flowop of that name, as filebench's do; the events are
 * taken by each thread for its own operations, so the thread's flowop of
 * that name is the one counted (without one, the thread's totals). */
static void bind_limit_targets(struct worker *wk)
{
	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];
		const char *target;

		if ((f->type != FO_IOPSLIMIT && f->type != FO_OPSLIMIT && f->type != FO_BWLIMIT) ||
		    !wl_val_isset(&f->fo->target))
			continue;
		target = wl_val_str(&f->fo->target, "");
		for (size_t j = 0; j < wk->nflows && !f->limit_st; j++)
			if (j != i && !strcmp(wk->flows[j].fo->name, target))
				f->limit_st = &wk->flows[j].st;
	}
}

/* fsync with target= and every= or atend= (fio's fsync=, fdatasync=,
 * end_fsync=; built in code only) syncs the write flowop of that name in
 * this thread: linked here, it runs from that write (flowop.c, sync_note,
 * sync_before and worker_run), never in the thread's loop.  As fio's
 * synchronous engines (psync and its kin, null) do, and its asynchronous
 * ones do not, a sync due at the end of a pass over the file is issued
 * twice (sync_pass) when the flowop has bytes to move (iobytes=, not a
 * runtime alone: fio reopens its files at each pass of its loops only). */
static void bind_sync_targets(struct worker *wk)
{
	int sync_engine = !(engine_spec_caps(wk->rn->o->engine) & ENGINE_ASYNC);

	for (size_t i = 0; i < wk->nflows; i++) {
		struct wflow *f = &wk->flows[i];
		const char *target;

		if (f->type != FO_FSYNC || !wl_val_isset(&f->fo->target) ||
		    (!wl_val_isset(&f->fo->every) && !wl_val_isset(&f->fo->atend)))
			continue;
		f->sync_linked = 1;
		f->sync_every = (uint64_t)MAX(wl_val_int(&f->fo->every, NULL, 0), 0);
		f->sync_atend = wl_val_bool(&f->fo->atend, 0);
		f->sync_datasync = wl_val_bool(&f->fo->datasync, 0);
		target = wl_val_str(&f->fo->target, "");
		for (size_t j = 0; j < wk->nflows; j++) {
			struct wflow *w = &wk->flows[j];

			if (j == i || (w->type != FO_WRITE && w->type != FO_RWMIX) ||
			    strcmp(w->fo->name, target))
				continue;
			if (f->sync_every && !w->syncer) {
				w->syncer = f;
				w->sync_pass = sync_engine && w->iobytes;
			}
			if (f->sync_atend && !w->end_syncer)
				w->end_syncer = f;
			w->after = 1;
			break;
		}
	}
}

static void wflow_free(struct wflow *f)
{
	for (size_t i = 0; i < f->nchildren; i++)
		wflow_free(&f->children[i]);
	op_stats_release(&f->st);
	free(f->children);
	free(f->execs);
	depth_q_free(f);
	offsets_free(f->ofs);
	rot_free(f->rot);
	for (size_t i = 0; i < f->nacct_fo; i++)
		free(f->acct_fo[i].name);
	free(f->acct_fo);
	rate_free(f->rate);
}

/* The largest iodepth= of the flowops in fl[0..n) and their children. */
static unsigned flowops_max_iodepth(struct wl_flowop *const *fl, size_t n)
{
	unsigned m = 1;

	for (size_t i = 0; i < n; i++) {
		int64_t d = wl_val_int(&fl[i]->iodepth, NULL, 1);

		m = MAX(m, (unsigned)MIN(MAX(d, 1), WL_IODEPTH_MAX));
		m = MAX(m, flowops_max_iodepth(fl[i]->children, fl[i]->nchildren));
	}
	return m;
}

/* The phase's first read or write flowop with iodepth= above 1 among
 * fl[0..n) and their children, or NULL. */
static const struct wl_flowop *flowops_deep(struct wl_flowop *const *fl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_flowop *c = flowops_deep(fl[i]->children, fl[i]->nchildren);

		if (runner_block_flowop(fl[i]->type) && wl_val_int(&fl[i]->iodepth, NULL, 1) > 1)
			return fl[i];
		if (c)
			return c;
	}
	return NULL;
}

/* iodepth= on an engine that completes each request at once: the note
 * (as fio's) that the flowops run at depth 1, once per flowop. */
static void depth_notes(struct runner *rn, struct wl_flowop *const *fl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t d = wl_val_int(&fl[i]->iodepth, NULL, 1);

		if (runner_block_flowop(fl[i]->type) && d > 1)
			msg_info("flowop '%s': engine %s is synchronous: iodepth=%lld runs at depth 1",
				 fl[i]->name, rn->o->engine, (long long)d);
		depth_notes(rn, fl[i]->children, fl[i]->nchildren);
	}
}

static void phase_depth_notes(struct runner *rn, struct wl_process *const *procs, size_t nprocs)
{
	if (engine_spec_caps(rn->o->engine) & ENGINE_ASYNC)
		return;
	for (size_t p = 0; p < nprocs; p++)
		for (size_t t = 0; t < procs[p]->nthreads; t++)
			depth_notes(rn, procs[p]->threads[t]->flowops, procs[p]->threads[t]->nflowops);
}

static void visit_flows(struct runner *rn, struct wflow *fl, size_t n, struct worker *wk,
			wflow_fn fn, void *arg)
{
	for (size_t i = 0; i < n; i++) {
		fn(rn, wk, &fl[i], arg);
		visit_flows(rn, fl[i].children, fl[i].nchildren, wk, fn, arg);
	}
}

void runner_visit_flows(struct runner *rn, wflow_fn fn, void *arg)
{
	for (size_t w = 0; w < rn->nworkers; w++)
		visit_flows(rn, rn->workers[w].flows, rn->workers[w].nflows, &rn->workers[w], fn,
			    arg);
}

#define visit_all runner_visit_flows

/* Count the workers that use each fileset (visit_all goes worker by
 * worker, so last_user tells a new worker from the same one). */
static void count_users(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	if (f->fs && f->fs->last_user != wk->id + 1) {
		f->fs->last_user = wk->id + 1;
		f->fs->nusers++;
	}
}

/* The written maps (fileset.h) record one phase's writes: a fileset's
 * map is cleared as a phase in which a flow writes the fileset starts
 * (once per phase), so that a readback after it reads back that phase's
 * blocks alone, as fio's verify reads what its job wrote. */
static void wmap_reset(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	int writes = (f->type == FO_WRITE && !f->trim && !f->falloc && !f->truncate) ||
		     f->type == FO_RWMIX;

	(void)wk;
	(void)arg;
	if (writes && f->fs && f->fs->wmap && f->fs->wmap_phase != rn->nphases) {
		fileset_wmap_clear(f->fs);
		f->fs->wmap_phase = rn->nphases;
	}
}

struct cset_arg {
	const char *target; /* NULL: every flowop */
	struct counter_set *cs;
};

static void cset_add(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct cset_arg *a = arg;

	if (a->target && strcmp(f->fo->name, a->target))
		return;
	if (f->fo->type == FO_FINISHONCOUNT || f->fo->type == FO_FINISHONBYTES)
		return;
	a->cs->v = xrealloc(a->cs->v, (a->cs->n + 1) * sizeof(*a->cs->v));
	a->cs->v[a->cs->n++] = &f->st;
}

/* Build the counter sets finishoncount/finishonbytes sum over. */
static void counters_build(struct runner *rn)
{
	for (size_t w = 0; w < rn->nworkers; w++) {
		struct worker *wk = &rn->workers[w];

		for (size_t i = 0; i < wk->nflows; i++) {
			struct wflow *f = &wk->flows[i];

			if (f->fo->type != FO_FINISHONCOUNT && f->fo->type != FO_FINISHONBYTES)
				continue;
			struct cset_arg a;
			const char *target = wl_val_isset(&f->fo->target)
						     ? wl_val_str(&f->fo->target, NULL)
						     : NULL;

			rn->csets = xrealloc(rn->csets, (rn->ncsets + 1) * sizeof(*rn->csets));
			a.cs = &rn->csets[rn->ncsets++];
			memset(a.cs, 0, sizeof(*a.cs));
			a.target = target;
			visit_all(rn, cset_add, &a);
		}
	}
	/* Pointers into rn->csets are stable only now that it is complete. */
	size_t k = 0;

	for (size_t w = 0; w < rn->nworkers; w++) {
		struct worker *wk = &rn->workers[w];

		for (size_t i = 0; i < wk->nflows; i++)
			if (wk->flows[i].fo->type == FO_FINISHONCOUNT ||
			    wk->flows[i].fo->type == FO_FINISHONBYTES)
				wk->flows[i].counters = &rn->csets[k++];
	}
}

/* The CPU time two back-to-back reads of the thread CPU clock put between
 * them: the part of the reads a CPU sample (op_begin/op_end) includes, and
 * subtracts.  The median of a few tries. */
static uint64_t cpu_clock_cost(void)
{
	uint64_t d[15];

	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		uint64_t a = thread_cpu_ns();

		d[i] = thread_cpu_ns() - a;
	}
	qsort(d, ARRAY_SIZE(d), sizeof(*d), cmp_u64);
	return d[ARRAY_SIZE(d) / 2];
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct runner *rn = wk->rn;
	int64_t nice = wl_val_int(&wk->pd->nice, NULL, 0);

	if (nice)
		setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), (int)nice);
	wk->cpu_clock_ns = cpu_clock_cost();
	__atomic_store_n(&wk->ktid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	pthread_mutex_lock(&rn->gate_mu);
	while (!rn->go)
		pthread_cond_wait(&rn->gate_cv, &rn->gate_mu);
	pthread_mutex_unlock(&rn->gate_mu);
	if (wk->win_self)
		measure_thread_start(wk);
	worker_run(wk);
	worker_drain_aio(wk);
	worker_close_all(wk);
	/* for the measured window's thread figures (measure.c) */
	measure_thread_end(wk);
	__atomic_store_n(&wk->ended, 1, __ATOMIC_RELEASE);
	/* the last thread out notes when the phase's work ended: the
	 * control loop only looks every 10 ms */
	if (__atomic_add_fetch(&rn->ndone, 1, __ATOMIC_ACQ_REL) == rn->nworkers)
		__atomic_store_n(&rn->all_done_ns, now_ns(), __ATOMIC_RELEASE);
	return NULL;
}

/* How much of path p directory `base` is (p itself, or below it), give
 * or take trailing slashes: its length in p, or -1 when p is elsewhere. */
static ssize_t base_of(const char *p, const char *base)
{
	size_t bl = strlen(base);

	while (bl > 1 && base[bl - 1] == '/')
		bl--;
	if (!bl || strncmp(p, base, bl))
		return -1;
	if (bl == 1 && base[0] == '/')
		return 0; /* the root: everything is below it */
	return p[bl] == 0 || p[bl] == '/' ? (ssize_t)bl : -1;
}

/* The run directory path p is in: the one whose run directory, or whose
 * target (as named, or resolved: a relative -d), is the longest start of
 * p; *skip is how much of p that is.  -1 when none. */
static int target_of(const char *p, const struct rundir *rds, size_t nrd, size_t *skip)
{
	ssize_t best = -1;
	int at = -1;

	for (size_t i = 0; i < nrd; i++) {
		char *real = realpath(rds[i].parent, NULL);
		const char *bases[3] = { rds[i].path, rds[i].parent, real };

		for (size_t k = 0; k < 3; k++) {
			ssize_t n = bases[k] ? base_of(p, bases[k]) : -1;

			if (n > best) {
				best = n;
				at = (int)i;
				/* below a run directory: the rest is below it;
				 * below a target: the same rest, in its run
				 * directory */
			}
		}
		free(real);
	}
	if (at >= 0)
		*skip = (size_t)best;
	return at;
}

int runner_path_target(const char *p, const struct rundir *rds, size_t nrd)
{
	size_t skip;

	return target_of(p, rds, nrd, &skip);
}

/* The targets, quoted, for a message: "'/a' and '/b'". */
static const char *targets_list(const struct rundir *rds, size_t nrd, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < nrd && n < len; i++)
		n += snprintf(buf + n, len - n, "%s'%s'", !i ? "" : i + 1 == nrd ? " and " : ", ",
			      rds[i].parent);
	return buf;
}

/* Resolve where a fileset lives: the run directory of its target and
 * the path below it.  Its path must be a run directory, a target, or
 * below one of them: we never create files anywhere else.  A path that
 * names a target stands for its run directory: filebench files that keep
 * their directory in a variable of another name than $dir
 * (createdelete-swing's `set $path=/tmp`) run unchanged with -d set to
 * that directory, and a workload file's filesets under two -d targets
 * each go in their own. */
int runner_fileset_target(const struct wl_fileset *def, const struct rundir *rds, size_t nrd,
			  char *buf, size_t len, int quiet)
{
	const char *p = wl_val_str(&def->path, rds[0].path);
	size_t skip = 0;
	int at = target_of(p, rds, nrd, &skip);

	if (at < 0) {
		char list[1024];

		if (quiet)
			return -EPERM;
		if (nrd == 1)
			msg_err("%s '%s' has path '%s', outside the run directory; fsgauge only "
				"writes below its own run directory (use -d to choose where)",
				def->is_file ? "file" : "fileset", def->name, p);
		else
			msg_err("%s '%s' has path '%s', under none of the targets %s; fsgauge only "
				"writes below its own run directory in each (name the directory "
				"with -d)",
				def->is_file ? "file" : "fileset", def->name, p,
				targets_list(rds, nrd, list, sizeof(list)));
		return -EPERM;
	}
	p += skip;
	while (*p == '/')
		p++;
	if (strstr(p, "..")) {
		if (!quiet)
			msg_err("fileset '%s': path '%s' must not contain '..'", def->name, p);
		return -EPERM;
	}
	/* with a word (it once ended in exit 3 and nothing printed); the
	 * parser already refuses a name longer than NAME_MAX */
	if (snprintf(buf, len, "%s%s%s", p, *p ? "/" : "", def->name) >= (int)len) {
		char shown[DISPLAY_NAME_BUF], nm[DISPLAY_NAME_BUF];

		if (quiet)
			return -EINVAL;
		msg_err("%s '%s': path too long: '%s' (%zu bytes below the run directory, at "
			"most %zu)",
			def->is_file ? "file" : "fileset", display_name(def->name, nm, sizeof(nm)),
			display_name(p, shown, sizeof(shown)), strlen(p) + 1 + strlen(def->name),
			len - 1);
		return -EINVAL;
	}
	return at;
}

/* "-s NAME" when the value is a variable (what the user can lower on
 * the command line), else "ATTR= of KIND 'NAME'" (the workload's text). */
static const char *lower_hint(char *buf, size_t len, const struct wl_val *v, const char *attr,
			      const char *kind, const char *name)
{
	if (v->kind == WLV_VAR)
		snprintf(buf, len, "-s %s", v->var->name);
	else
		snprintf(buf, len, "%s= of %s '%s'", attr, kind, name);
	return buf;
}

static size_t count_flows(struct wl_flowop *const *fl, size_t n)
{
	size_t k = n;

	for (size_t i = 0; i < n; i++)
		k += count_flows(fl[i]->children, fl[i]->nchildren);
	return k;
}

/* The flows of fl[0..n) (and their children, and an rwmix's two rows)
 * that keep submission and completion latencies on an asynchronous
 * engine (flow_splits()). */
static size_t count_split_flows(struct wl_flowop *const *fl, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct wl_flowop *fo = fl[i];
		int64_t bufsize = wl_val_int(&fo->bufsize, NULL, 0);
		int range = wl_val_isset(&fo->fallocate) || wl_val_bool(&fo->trim, 0) ||
			    wl_val_bool(&fo->truncate, 0);

		if (fo->type == FO_RWMIX)
			k += 2;
		else if (flow_splits(fo, bufsize > 0 ? (uint64_t)bufsize : 0,
				     wl_val_bool(&fo->random, 0), range))
			k++;
		k += count_split_flows(fo->children, fo->nchildren);
	}
	return k;
}

size_t runner_worker_overhead(size_t nflows)
{
	/* worker_setup() allocates at least one flow */
	return sizeof(struct worker) + (nflows ? nflows : 1) * sizeof(struct wflow);
}

double runner_thread_memory(const struct wl_thread *td)
{
	return runner_thread_memory_on(td, NULL);
}

double runner_thread_memory_on(const struct wl_thread *td, const char *engine)
{
	int64_t memsize = wl_val_int(&td->memsize, NULL, 1 << 20);
	double split = 0;

	if (memsize < 4096) /* as worker_setup() */
		memsize = 4096;
	if (engine && (engine_spec_caps(engine) & ENGINE_ASYNC))
		split = (double)count_split_flows(td->flowops, td->nflowops) *
			(double)sizeof(struct op_split);
	return (double)memsize + split +
	       (double)runner_worker_overhead(count_flows(td->flowops, td->nflowops));
}

/* What fileset `def`, laid out in fs, takes in its file system. */
static void fileset_needs(const struct wl_fileset *def, const struct rt_fileset *fs, double *bytes,
			  double *entries)
{
	/* what preallocation writes: the mean size of the entries it
	 * creates (a random size's mean), as the space they take */
	*bytes = fs->leafdirs ? 0
			      : (double)fs->n * wl_val_double(&def->size, NULL, 0) *
					fs->prealloc_pct / 100.0;
	/* every entry may be created during the run, each in its chunk
	 * files; plus the intermediate and own directories */
	*entries = (double)fs->n * fs->nchunks + (double)fs->ndirs +
		   (fs->is_file || fs->flat ? 0 : 1);
}

int runner_needs_targets(const struct workload *w, const struct run_opts *o,
			 const struct rundir *rds, size_t nrd, struct target_needs *tn)
{
	char rel[4096];

	if (engine_spec_caps(o->engine) & ENGINE_DISKLESS)
		return 0;
	for (size_t i = 0; i < nrd; i++)
		tn[i].entries += 2; /* its run directory and marker */
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct wl_fileset *def = w->filesets[i];
		struct rt_fileset fs;
		double bytes, entries;
		int at, ret;

		if (def->has_device)
			continue;
		at = runner_fileset_target(def, rds, nrd, rel, sizeof(rel), 1);
		if (at < 0)
			continue; /* refused with its message when the filesets are made */
		memset(&fs, 0, sizeof(fs));
		ret = fileset_layout(&fs, def);
		if (ret < 0)
			return ret;
		fileset_needs(def, &fs, &bytes, &entries);
		tn[at].bytes += bytes;
		tn[at].entries += entries;
	}
	return 0;
}

int runner_needs(const struct workload *w, const struct run_opts *o, struct preflight_needs *n)
{
	/* the largest contributors, named in the messages */
	const struct wl_process *tp = NULL;
	const struct wl_thread *tt = NULL;
	const struct wl_fileset *fb = NULL, *fe = NULL;
	double tk = 0, tmem = 0, threads_mem = 0, tables = 0, nentries = 0, wmaps = 0;
	double fb_bytes = -1, fe_entries = -1;
	/* a diskless engine (null, alone or wrapped) creates nothing */
	int creates = !(engine_spec_caps(o->engine) & ENGINE_DISKLESS);
	char h1[160], h2[160], h3[160];

	memset(n, 0, sizeof(*n));
	snprintf(n->what, sizeof(n->what), "the workload");
	if (creates)
		n->entries = 2; /* the run directory and its marker */
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct wl_fileset *def = w->filesets[i];
		struct rt_fileset fs;
		double bytes, entries;
		int ret;

		memset(&fs, 0, sizeof(fs));
		ret = fileset_layout(&fs, def);
		if (ret < 0)
			return ret;
		tables += (double)(fs.n ? fs.n : 1) * (double)FILESET_ENTRY_BYTES;
		nentries += (double)fs.n;
		if (o->verify && def->written_map)
			wmaps += fileset_wmap_bytes(fs.n, def->written_map);
		if (def->has_device || !creates)
			continue;
		fileset_needs(def, &fs, &bytes, &entries);
		n->bytes += bytes;
		n->entries += entries;
		if (bytes > fb_bytes) {
			fb_bytes = bytes;
			fb = def;
		}
		if (entries > fe_entries) {
			fe_entries = entries;
			fe = def;
		}
	}
	for (size_t p = 0; p < w->nprocesses; p++) {
		const struct wl_process *pd = w->processes[p];
		double pi = (double)MAX(wl_val_int(&pd->instances, NULL, 1), 0);

		for (size_t t = 0; t < pd->nthreads; t++) {
			const struct wl_thread *td = pd->threads[t];
			double k = pi * (double)MAX(wl_val_int(&td->instances, NULL, 1), 0);
			double mem = k * runner_thread_memory_on(td, o->engine);

			n->threads += k;
			threads_mem += mem;
			if (!tt || mem > tmem || (mem == tmem && k > tk)) {
				tp = pd;
				tt = td;
				tk = k;
				tmem = mem;
			}
		}
	}
	n->memory = threads_mem + tables + wmaps;
	if (tt) {
		int64_t memsize = MAX(wl_val_int(&tt->memsize, NULL, 1 << 20), 4096);

		snprintf(n->threads_detail, sizeof(n->threads_detail),
			 "process '%s' x %lld, thread '%s' x %lld in each%s",
			 tp->name, (long long)wl_val_int(&tp->instances, NULL, 1), tt->name,
			 (long long)wl_val_int(&tt->instances, NULL, 1),
			 tk < n->threads ? ", and the other threads" : "");
		snprintf(n->memory_detail, sizeof(n->memory_detail),
			 "%.0f threads '%s' x %.1f MiB (%.1f MiB memsize + %.1f MiB of statistics and "
			 "state)%s + %.0f fileset entries x %zu bytes",
			 tk, tt->name, tmem / tk / 1048576.0, (double)memsize / 1048576.0,
			 (tmem / tk - (double)memsize) / 1048576.0,
			 tk < n->threads ? " + the other threads" : "", nentries,
			 (size_t)FILESET_ENTRY_BYTES);
		if (wmaps > 0) {
			size_t len = strlen(n->memory_detail);

			snprintf(n->memory_detail + len, sizeof(n->memory_detail) - len,
				 " + %.1f MiB of written-block maps (verify's read-back)",
				 wmaps / 1048576.0);
		}
		snprintf(n->lower_threads, sizeof(n->lower_threads), "lower %s or %s",
			 lower_hint(h1, sizeof(h1), &tt->instances, "instances", "thread", tt->name),
			 lower_hint(h2, sizeof(h2), &tp->instances, "instances", "process",
				    tp->name));
		snprintf(n->lower_memory, sizeof(n->lower_memory), "lower %s or %s%s%s",
			 h1, lower_hint(h3, sizeof(h3), &tt->memsize, "memsize", "thread", tt->name),
			 fe ? " or " : "",
			 fe ? lower_hint(h2, sizeof(h2), &fe->entries, "entries", "fileset",
					 fe->name)
			    : "");
	}
	if (fb)
		snprintf(n->lower_space, sizeof(n->lower_space), "lower %s or %s, or choose "
			 "another -d",
			 lower_hint(h1, sizeof(h1), &fb->entries, "entries", "fileset", fb->name),
			 lower_hint(h2, sizeof(h2), &fb->size, "size", "fileset", fb->name));
	if (fe)
		snprintf(n->lower_inodes, sizeof(n->lower_inodes), "lower %s, or choose another -d",
			 lower_hint(h1, sizeof(h1), fe->leafdirs.kind ? &fe->leafdirs : &fe->entries,
				    fe->leafdirs.kind ? "leafdirs" : "entries", "fileset",
				    fe->name));
	return 0;
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

struct merge_arg {
	struct result_phase *ph;
};

enum op_class runner_flow_class(const struct wl_flowop *fo)
{
	switch (fo->type) {
	case FO_REPLAY:
		return fo->replay_kind == RPK_WRITE && !fo->replay ? OPC_WRITE : OPC_OTHER;
	case FO_READ:
		/* fallocate (fsgauge io's falloc) moves no data */
		return wl_val_isset(&fo->fallocate) ? OPC_OTHER : OPC_READ;
	case FO_READWHOLEFILE:
	case FO_GETC:
		return OPC_READ;
	case FO_WRITE:
		/* a trim (fsgauge io's rw=trim) neither reads nor writes: its
		 * bytes are counted apart (bytes_trimmed), as fio's trim; a
		 * fallocate or ftruncate (falloc, ftruncate) moves no data */
		if (wl_val_bool(&fo->trim, 0) || wl_val_isset(&fo->fallocate) ||
		    wl_val_bool(&fo->truncate, 0))
			return OPC_OTHER;
		/* fall through */
	case FO_WRITEWHOLEFILE:
	case FO_APPENDFILE:
	case FO_APPENDFILERAND:
	case FO_AIOWRITE:
	case FO_PUTC:
	case FO_REWRITE:
		return OPC_WRITE;
	default:
		return OPC_OTHER;
	}
}

/* A replay flowop's executions go to the phase's list; its operations
 * are counted by its children, so it is no operation itself. */
static void merge_execs(struct result_phase *ph, struct wflow *f)
{
	ph->execs = xrealloc(ph->execs, (ph->nexecs + f->nexecs) * sizeof(*ph->execs));
	for (size_t i = 0; i < f->nexecs; i++) {
		ph->execs[ph->nexecs] = f->execs[i];
		ph->execs[ph->nexecs++].op = xstrdup(f->fo->name);
	}
}

static int exec_cmp(const void *a, const void *b)
{
	const struct result_exec *x = a, *y = b;
	int c = strcmp(x->op, y->op);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static const char *flow_type_name(const struct wl_flowop *fo)
{
	const char *type = flowop_type_name(fo->type);

	if (fo->type == FO_REPLAY && !fo->replay)
		return replay_kind_name(fo->replay_kind); /* a kind: "mkdir" */
	return type ? type : "composite";
}

/* Give every flowop name of the phase an index, in first-seen order: the
 * order of the result's operations and of the sampler's tables. */
static void name_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	if (f->fo->type == FO_REPLAY && f->fo->replay)
		return; /* not an operation: its children are */
	if (f->fo->type == FO_RWMIX || f->trimwrite) {
		/* not an operation either: its reads (trims) and writes are;
		 * what it counts itself (stalls, a failed open) goes with an
		 * rwmix's reads, a trimwrite's writes */
		name_flow(rn, wk, &f->children[0], arg);
		name_flow(rn, wk, &f->children[1], arg);
		f->result_idx = f->children[f->trimwrite].result_idx;
		return;
	}
	for (size_t i = 0; i < rn->nopdefs; i++)
		if (!strcmp(rn->opdefs[i]->name, f->fo->name)) {
			f->result_idx = i;
			return;
		}
	rn->opdefs = xrealloc(rn->opdefs, (rn->nopdefs + 1) * sizeof(*rn->opdefs));
	rn->opdefs[rn->nopdefs] = f->fo;
	f->result_idx = rn->nopdefs++;
}

/* A flowop whose time is time waiting for the storage to make data
 * durable: the sync rule of stats/insight.h. */
static int flow_is_sync(const struct wflow *f)
{
	if (f->type == FO_FSYNC || f->type == FO_FSYNCSET || f->type == FO_SYNCFS)
		return 1;
	return runner_flow_class(f->fo) == OPC_WRITE && (f->oflags & (O_SYNC | O_DSYNC));
}

static void merge_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct merge_arg *m = arg;
	struct result_op *o;

	if (f->fo->type == FO_REPLAY && f->fo->replay) {
		merge_execs(m->ph, f);
		return;
	}
	o = &m->ph->ops[f->result_idx];
	op_stats_merge(&o->st, &f->st);
	o->sync |= flow_is_sync(f);
	if (f->rate) {
		rate_finish(f->rate);
		op_schedule_merge(&o->sched, &f->rate->sched);
	}
	if (f->fo->type == FO_TESTRANDVAR) {
		/* combine sums: stash them in extra_* until finished below */
		o->extra_mean += f->trv_sum;
		o->extra_sd += f->trv_sumsq;
	}
}

static void cpu_sample_start(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	f->cpu_left = 1;
	f->cpu_weight = 1;
}

/* The descriptors flows fl[0..n) may hold open at once beside the
 * worker's numbered slots: a private one each and those of their
 * rotate= slots. */
static unsigned flows_max_fds(const struct wflow *fl, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		k += 1 + (fl[i].rot ? fl[i].rot->nslot : 0) +
		     flows_max_fds(fl[i].children, fl[i].nchildren);
	return k;
}

/* fixedbufs: number the buffers of the iodepth= queues of flows
 * fl[0..n) from `next` (depth_slot.buf_index is 1 + its slot); returns
 * the next free number. */
static unsigned flows_number_bufs(struct wflow *fl, size_t n, unsigned next)
{
	for (size_t i = 0; i < n; i++) {
		for (unsigned k = 0; fl[i].dq && k < fl[i].dq->nslot; k++)
			fl[i].dq->slot[k].buf_index = 1 + next++;
		next = flows_number_bufs(fl[i].children, fl[i].nchildren, next);
	}
	return next;
}

static int worker_setup(struct runner *rn, struct worker *wk)
{
	int64_t memsize = wl_val_int(&wk->td->memsize, NULL, 1 << 20);

	if (memsize < 4096)
		memsize = 4096;
	unsigned depth = flowops_max_iodepth(wk->td->flowops, wk->td->nflowops);
	struct engine_opts eo = rn->o->engine_opts;

	rng_seed(&wk->rng, rn->o->seed, 1000 + wk->id);
	if (posix_memalign(&wk->buf, 4096, (size_t)memsize))
		return -ENOMEM;
	wk->bufsz = (size_t)memsize;
	data_fill(&rn->o->data, &wk->rng, wk->buf, wk->bufsz);
	for (int i = 0; i < FD_SLOTS; i++) {
		wk->fds[i].fd = -1;
		wk->fds[i].idx = wk->fds[i].last_idx = -1;
	}
	wk->nflows = wk->td->nflowops;
	wk->flows = xcalloc_aligned(wk->nflows ? wk->nflows : 1, sizeof(*wk->flows), _Alignof(struct wflow));
	for (size_t i = 0; i < wk->nflows; i++)
		wflow_init(rn, &wk->flows[i], wk->td->flowops[i]);
	/* registerfiles: a slot for each descriptor the worker may hold */
	if (eo.flags & ENGINE_OPT_REGFILES)
		eo.nfiles = FD_SLOTS + flows_max_fds(wk->flows, wk->nflows);
	/* fixedbufs: slot 0 the worker's buffer, then one per request of
	 * the iodepth= queues (filled as each is allocated: depth_submit) */
	if (eo.flags & ENGINE_OPT_FIXEDBUFS)
		eo.nbufs = flows_number_bufs(wk->flows, wk->nflows, 1);
	/* aiowrite's requests and those of the iodepth= flowops */
	if (engine_open_opts(&wk->eng, rn->o->engine, depth > 1 ? AIO_DEPTH + depth : AIO_DEPTH,
			     &eo) < 0)
		return -EINVAL;
	if (eo.flags & ENGINE_OPT_FIXEDBUFS) {
		int ret = engine_set_buffer(wk->eng, 0, wk->buf, wk->bufsz);

		if (ret < 0) {
			err_errno(ret, "cannot register the I/O buffer of %zu bytes (fixedbufs)",
				  wk->bufsz);
			return ret;
		}
	}
	bind_fdless_syncs(wk);
	bind_flow_targets(rn, wk);
	bind_limit_targets(wk);
	bind_sync_targets(wk);
	/* CPU sampling (internal.h): every flowop's first operation is
	 * sampled, counting for itself alone; the later draws come from a
	 * stream of their own, which keeps the workload's the same */
	rng_seed(&wk->cpu_rng, rn->o->seed, 2000000 + wk->id);
	visit_flows(rn, wk->flows, wk->nflows, wk, cpu_sample_start, NULL);
	return 0;
}

static void worker_free(struct worker *wk)
{
	worker_free_slots(wk);
	for (size_t i = 0; i < wk->nflows; i++)
		wflow_free(&wk->flows[i]);
	free(wk->flows);
	for (int i = 0; i < AIO_DEPTH; i++)
		free(wk->aio[i].buf);
	free(wk->buf);
	engine_close(wk->eng);
}

/* Several targets: each one's file system and devices (rn->tgs), the
 * devices under the others' run directories joining those of the first
 * in rn->devs (each once). */
_Static_assert(DEVICES_MAX <= 64, "runner_target.devmask has a bit per device");
static void devices_more(struct runner *rn)
{
	rn->tgs = xcalloc(rn->nrd, sizeof(*rn->tgs));
	for (size_t i = 0; i < rn->nrd; i++) {
		struct runner_target *t = &rn->tgs[i];
		struct mount_info mi;
		struct devices d;

		if (env_mount_of(rn->rds[i].path, &mi) == 0)
			snprintf(t->fstype, sizeof(t->fstype), "%s", mi.fstype);
		if (i == 0) {
			for (size_t k = 0; k < rn->devs.n; k++)
				t->devmask |= 1ull << k;
			snprintf(t->none, sizeof(t->none), "%s", rn->devs.none);
			continue;
		}
		devices_find(rn->rds[i].path, &d);
		snprintf(t->none, sizeof(t->none), "%s", d.none);
		for (size_t k = 0; k < d.n && rn->devs.n < DEVICES_MAX; k++) {
			size_t j = 0;

			while (j < rn->devs.n && (rn->devs.dev[j].major != d.dev[k].major ||
						  rn->devs.dev[j].minor != d.dev[k].minor))
				j++;
			if (j == rn->devs.n)
				rn->devs.dev[rn->devs.n++] = d.dev[k];
			t->devmask |= 1ull << j;
		}
	}
}

struct runner *runner_new(struct workload *w, struct rundir *rds, size_t nrd,
			  const struct run_opts *o, struct result *res)
{
	struct runner *rn = xcalloc(1, sizeof(*rn));
	struct rundir *rd = nrd ? rds : NULL;

	op_clock_init(); /* before any worker times an operation */
	rn->w = w;
	rn->o = o;
	rn->rd = rd;
	rn->rds = rd ? rds : NULL;
	rn->nrd = rd ? nrd : 0;
	rn->res = res;
	if (rd) {
		struct mount_info mi;

		rn->dirfd = rd->fd;
		devices_find(rd->path, &rn->devs);
		if (rn->nrd > 1)
			devices_more(rn);
		if (env_mount_of(rd->path, &mi) == 0) {
			snprintf(rn->fstype, sizeof(rn->fstype), "%s", mi.fstype);
			if (!strcmp(mi.fstype, "zfs"))
				snprintf(rn->zfs_dataset, sizeof(rn->zfs_dataset), "%s",
					 mi.source);
		}
	} else {
		/* block devices only: their counters are the devices' own */
		size_t n = 0;
		dev_t *devs = xcalloc(w->nfilesets ? w->nfilesets : 1, sizeof(*devs));

		rn->dirfd = -1;
		for (size_t i = 0; i < w->nfilesets; i++) {
			struct stat st;

			if (w->filesets[i]->has_device && fstat(w->filesets[i]->device_fd, &st) == 0)
				devs[n++] = st.st_rdev;
		}
		devices_find_devnums(devs, n, &rn->devs);
		free(devs);
	}
	pthread_mutex_init(&rn->err_mu, NULL);
	for (int i = 0; i < RUNNER_VLOCKS; i++)
		pthread_mutex_init(&rn->vlock[i], NULL);
	pthread_mutex_init(&rn->gate_mu, NULL);
	pthread_cond_init(&rn->gate_cv, NULL);
	return rn;
}

/* --verify with iodepth= above 1 on an asynchronous engine is refused:
 * a thread's requests in flight together may read a block while another
 * of them writes it, and a torn read there is no corruption. */
static int verify_depth_check(struct runner *rn)
{
	const struct workload *w = rn->w;

	if (!rn->o->verify || !(engine_spec_caps(rn->o->engine) & ENGINE_ASYNC))
		return 0;
	for (size_t p = 0; p < w->nprocesses; p++)
		for (size_t t = 0; t < w->processes[p]->nthreads; t++) {
			const struct wl_thread *td = w->processes[p]->threads[t];
			const struct wl_flowop *fo = flowops_deep(td->flowops, td->nflowops);

			if (fo) {
				msg_err("flowop '%s' (line %d): --verify does not work with iodepth= "
					"above 1 (requests in flight together may read a block "
					"another is writing); use iodepth=1 or run without --verify",
					fo->name, fo->line);
				return -EINVAL;
			}
		}
	return 0;
}

int runner_create_filesets(struct runner *rn)
{
	struct workload *w = rn->w;
	const struct run_opts *o = rn->o;
	struct result *res = rn->res;
	char rel[4096];
	int ret;

	ret = verify_depth_check(rn);
	if (ret < 0)
		return ret;
	rn->fs = xcalloc(w->nfilesets ? w->nfilesets : 1, sizeof(*rn->fs));
	for (size_t i = 0; i < w->nfilesets; i++) {
		int at = -1;

		if (w->filesets[i]->has_device) {
			snprintf(rel, sizeof(rel), "%s", w->filesets[i]->name);
		} else if (!rn->rd) {
			msg_err("file '%s': no run directory to put it in", w->filesets[i]->name);
			return -EINVAL;
		} else {
			at = runner_fileset_target(w->filesets[i], rn->rds, rn->nrd, rel,
						   sizeof(rel), 0);
			if (at < 0)
				return at;
		}
		ret = fileset_init(&rn->fs[i], w->filesets[i], rel, o->seed + i);
		/* the run directory its entries resolve from */
		rn->fs[i].rootfd = at >= 0 ? rn->rds[at].fd : rn->dirfd;
		rn->fs[i].target = at > 0 ? (unsigned)at : 0;
		rn->nfs++;
		if (ret < 0)
			return ret;
	}
	ret = 0;
	for (size_t i = 0; i < rn->nfs && !runner_signalled(); i++) {
		struct rt_fileset *fs = &rn->fs[i];
		struct fileset_prealloc_stats ps;
		struct result_fileset *rf = result_add_fileset(res, fs->name);
		double depth = fs->width > 1 && fs->n > 1 ? log((double)fs->n) / log((double)fs->width)
							  : 0;

		if (!o->quiet)
			fprintf(stderr,
				"Fileset %s: %llu %s, avg dir width = %.1f, avg depth = %.1f, "
				"mbytes=%.0f\n",
				fs->name, (unsigned long long)fs->n, fs->leafdirs ? "leafdirs" : "files",
				(double)fs->width, depth, (double)fs->total_bytes / 1048576.0);
		fs->verify = o->verify;
		if (o->verify && fs->def->written_map)
			fileset_wmap_init(fs, fs->def->written_map);
		/* a chunked file's blocks are stamped with their offset in the
		 * whole file; a block must not straddle two chunk files, which
		 * preallocation writes one at a time */
		if (fs->verify && fs->chunk % DATA_BLOCK) {
			msg_err("file '%s': --verify needs a chunksize that is a multiple of %d "
				"(its blocks must not straddle two chunk files)",
				fs->name, DATA_BLOCK);
			return -EINVAL;
		}
		memset(&ps, 0, sizeof(ps));
		if (fs->def->has_device)
			fileset_use_device(fs);
		else
			ret = fileset_create(fs, fs->rootfd, o->engine, &o->data,
					     o->prealloc_threads ? o->prealloc_threads : ncpus(),
					     o->seed + i, &runner_stop_signal, &ps);
		if (!fs->def->has_device && rn->rds && rn->rds[fs->target].parent)
			rf->target = xstrdup(rn->rds[fs->target].parent);
		rf->entries = fs->n;
		rf->preallocated = ps.files;
		rf->bytes = ps.bytes;
		rf->dirs = fs->ndirs;
		rf->mean_dirwidth = (double)fs->width;
		rf->depth = depth;
		rf->seconds = ps.seconds;
		if (ps.error) {
			/* an I/O error while preallocating: the run stops here
			 * and the partial record says why */
			res->errors++;
			res->stopped_on_error = 1;
			if (!res->first_error)
				res->first_error = ps.error;
			else
				free(ps.error);
		}
		if (ret == -EINTR && runner_signalled())
			res->interrupted = 1;
		if (ret < 0)
			return ret;
		if (!o->quiet)
			fprintf(stderr, "Preallocated %llu of %llu of fileset %s in %.0f seconds\n",
				(unsigned long long)ps.files, (unsigned long long)fs->n, fs->name,
				ps.seconds < 1 && ps.seconds > 0 ? 1.0 : ps.seconds);
	}
	if (runner_signalled()) {
		res->interrupted = 1;
		return -EINTR;
	}
	return 0;
}

static void phase_cleanup(struct runner *rn)
{
	for (size_t i = 0; i < rn->nworkers; i++)
		worker_free(&rn->workers[i]);
	free(rn->workers);
	rn->workers = NULL;
	rn->nworkers = 0;
	for (size_t i = 0; i < rn->ncsets; i++)
		free(rn->csets[i].v);
	free(rn->csets);
	rn->csets = NULL;
	rn->ncsets = 0;
	for (size_t i = 0; i < rn->nsyncs; i++) {
		free(rn->syncs[i].name);
		pthread_mutex_destroy(&rn->syncs[i].mu);
		pthread_cond_destroy(&rn->syncs[i].cv);
	}
	free(rn->syncs);
	rn->syncs = NULL;
	rn->nsyncs = 0;
	for (size_t i = 0; i < rn->npasses; i++) {
		struct dir_pass *d = rn->passes[i].dir;

		if (d) {
			if (d->fd >= 0) /* a pass stopped before its end */
				close(d->fd);
			pthread_mutex_destroy(&d->mu);
			free(d);
		}
	}
	free(rn->passes);
	rn->passes = NULL;
	rn->npasses = 0;
	free(rn->opdefs);
	rn->opdefs = NULL;
	rn->nopdefs = 0;
}

static const char drop_caches_path[] = "/proc/sys/vm/drop_caches";

int runner_drop_caches_try(int check_only, const char **step)
{
	int fd, e;

	if (!check_only)
		sync();
	*step = "open";
	fd = open(drop_caches_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*step = "write";
	if (!check_only && write(fd, "3\n", 2) != 2) {
		e = errno ? -errno : -EIO;
		close(fd);
		return e;
	}
	close(fd);
	return 0;
}

int runner_drop_caches(int check_only)
{
	const char *step;
	int e = runner_drop_caches_try(check_only, &step);

	if (e < 0)
		msg_err("cannot drop caches: cannot %s '%s': %s (--drop-caches needs root)", step,
			drop_caches_path, strerror(-e));
	return e;
}

/* One worker per thread instance of each process instance of `procs`,
 * set up: 0 or -errno (after a message). */
static int workers_build(struct runner *rn, struct wl_process *const *procs, size_t nprocs)
{
	size_t k = 0;

	for (size_t p = 0; p < nprocs; p++) {
		const struct wl_process *pd = procs[p];
		int64_t pi = wl_val_int(&pd->instances, NULL, 1);

		for (size_t t = 0; t < pd->nthreads; t++) {
			int64_t ti = wl_val_int(&pd->threads[t]->instances, NULL, 1);

			rn->nworkers += (size_t)(MAX(pi, 0) * MAX(ti, 0));
			sync_collect(rn, pd->threads[t]->flowops, pd->threads[t]->nflowops);
			pass_collect(rn, pd->threads[t]->flowops, pd->threads[t]->nflowops);
		}
	}
	if (!rn->nworkers) {
		msg_err("workload '%s' defines no threads to run", rn->w->name);
		return -EINVAL;
	}
	rn->workers = xcalloc_aligned(rn->nworkers, sizeof(*rn->workers), _Alignof(struct worker));
	for (size_t p = 0; p < nprocs; p++) {
		const struct wl_process *pd = procs[p];
		int64_t pi = wl_val_int(&pd->instances, NULL, 1);

		for (int64_t a = 0; a < pi; a++)
			for (size_t t = 0; t < pd->nthreads; t++) {
				int64_t ti = wl_val_int(&pd->threads[t]->instances, NULL, 1);

				for (int64_t b = 0; b < ti; b++) {
					struct worker *wk = &rn->workers[k];

					wk->rn = rn;
					wk->verify = rn->o->verify;
					wk->id = (unsigned)k++;
					wk->pd = pd;
					wk->td = pd->threads[t];
					wk->pinst = (unsigned)a;
					wk->tinst = (unsigned)b;
				}
			}
	}
	for (size_t i = 0; i < rn->nworkers; i++) {
		int ret = worker_setup(rn, &rn->workers[i]);

		if (ret < 0) {
			msg_err("cannot set up thread %zu", i);
			return ret;
		}
	}
	return 0;
}

/* The phase's start lines on stderr (filebench's, for run's phase). */
static void phase_announce(const struct run_opts *o, const char *name,
			   struct wl_process *const *procs, size_t nprocs, double duration)
{
	const char *label = o->chatter_unnamed ? "" : name;
	const char *sep = o->chatter_unnamed ? "" : " ";

	if (o->quiet)
		return;
	for (size_t p = 0; p < nprocs; p++) {
		const struct wl_process *pd = procs[p];

		fprintf(stderr, "Starting %lld %s instances\n",
			(long long)wl_val_int(&pd->instances, NULL, 1), pd->name);
		for (size_t t = 0; t < pd->nthreads; t++)
			fprintf(stderr, "Starting %lld %s threads\n",
				(long long)wl_val_int(&pd->threads[t]->instances, NULL, 1),
				pd->threads[t]->name);
	}
	if (duration >= 3600.0 * 24 * 365)
		fprintf(stderr, "Running until done...\n");
	else if (o->steady_pct > 0)
		fprintf(stderr, "Running %s%sfor %.0f seconds after a warm-up of up to %.0f "
			"seconds (until steady within %g%%)...\n",
			label, sep, duration, o->warmup > 0 ? o->warmup : duration, o->steady_pct);
	else if (o->warmup > 0)
		fprintf(stderr, "Running %s%sfor %.0f seconds after a %.0f-second warm-up...\n",
			label, sep, duration, o->warmup);
	else if (o->chatter_unnamed)
		fprintf(stderr, "Running for %.0f seconds...\n", duration);
	else
		fprintf(stderr, "Running %s for up to %.0f seconds...\n", name, duration);
}

/* Why a phase ended: the result's "end_reason" is its name. */
enum phase_end { END_ERROR, END_DURATION, END_THREADS_DONE, END_SIGNAL, END_FINISH, END_PEER };
static const char *const phase_end_names[] = {
	[END_ERROR] = "error",
	[END_PEER] = "peer",
	[END_DURATION] = "duration",
	[END_THREADS_DONE] = "threads done",
	[END_SIGNAL] = "signal",
	[END_FINISH] = "finish",
};

/* The stonewall across clients: another's raises ours (the workers'
 * stonewall= loops end at their next iteration); ours, once, is told to
 * the others unless theirs came first. */
static void wall_sync(struct runner *rn, int peer)
{
	const struct runner_sync *sync = rn->o->sync;
	uint64_t at;

	if (rn->wall_told)
		return;
	if (peer & RUNNER_SYNC_WALL) {
		rn->wall_told = 1;
		__atomic_store_n(&rn->stonewalled, 1, __ATOMIC_RELAXED);
		return;
	}
	at = __atomic_load_n(&rn->stonewall_ns, __ATOMIC_ACQUIRE);
	if (at && sync->wall) {
		rn->wall_told = 1;
		sync->wall(sync->arg, at);
	}
}

/* Watch the started workers until the phase ends; stop them; *t_stop is
 * the end of the measured window. */
static enum phase_end phase_wait(struct runner *rn, struct measure *meas, int ret,
				 uint64_t *t_stop)
{
	const struct runner_sync *sync = rn->o->sync;
	enum phase_end why = END_ERROR;

	while (ret == 0 && !runner_stopping(rn)) {
		uint64_t now, t_end;
		unsigned ndone = __atomic_load_n(&rn->ndone, __ATOMIC_RELAXED);

		if (sync) {
			int peer = sync->poll(sync->arg);

			if (peer & RUNNER_SYNC_STOP) {
				rn->peer_stopped = 1;
				why = END_PEER;
				break;
			}
			wall_sync(rn, peer);
		}
		measure_tick(meas);
		t_end = measure_end_ns(meas);
		now = now_ns();
		if (now >= t_end) {
			why = END_DURATION;
			break;
		}
		if ((rn->w->quit_mode == QUIT_FIRSTDONE && ndone > 0) || ndone == rn->nworkers) {
			why = END_THREADS_DONE;
			break;
		}
		struct timespec ts = { 0, (long)MIN(t_end - now, 10000000ull) };
		nanosleep(&ts, NULL);
	}
	/* a stonewall raised just before the last worker ended */
	if (sync && ret == 0 && !rn->peer_stopped)
		wall_sync(rn, 0);
	if (runner_signalled())
		why = END_SIGNAL;
	else if (rn->peer_stopped)
		why = END_PEER;
	else if (__atomic_load_n(&rn->finished, __ATOMIC_RELAXED))
		why = END_FINISH;
	else if (__atomic_load_n(&rn->stopped_on_error, __ATOMIC_RELAXED))
		why = END_ERROR;
	__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
	*t_stop = now_ns();
	if (why == END_THREADS_DONE && __atomic_load_n(&rn->all_done_ns, __ATOMIC_ACQUIRE))
		*t_stop = __atomic_load_n(&rn->all_done_ns, __ATOMIC_ACQUIRE);
	return why;
}

/* An open-loop flowop's schedule at the phase's end: say once when it
 * could not keep up, and make a thread below rate_min= an error (exit 1,
 * as an I/O error: the run did not do what was asked). */
static void schedule_verdict(struct runner *rn, struct result_op *op)
{
	const struct op_schedule *s = op->sched;

	if (s->late)
		msg_warn("flowop '%s': could not keep up: %llu of %llu operations late (issued "
			 "more than %llu ms after their scheduled time)",
			 op->name, (unsigned long long)s->late, (unsigned long long)s->ops,
			 OP_SCHED_LATE_NS / 1000000ull);
	if (s->below_min) {
		char *e = xasprintf("flowop '%s': below rate_min in %llu of %llu threads", op->name,
				    (unsigned long long)s->below_min,
				    (unsigned long long)s->threads);

		msg_err("%s", e);
		op->st.errors += s->below_min;
		rn->res->errors += s->below_min;
		if (!rn->res->first_error)
			rn->res->first_error = e;
		else
			free(e);
	}
}

/* The finished phase into the result: its operations merged from the
 * workers, the engines' request counts, the measured window. */
static void phase_record(struct runner *rn, const char *name, enum phase_end why,
			 struct measure *meas, uint64_t t_stop)
{
	struct result *res = rn->res;
	struct result_phase *ph = result_add_phase(res, name);
	struct merge_arg m = { ph };

	ph->nthreads = (int)rn->nworkers;
	ph->end_reason = phase_end_names[why];
	for (size_t i = 0; i < rn->nworkers; i++) {
		const struct engine *e = rn->workers[i].eng;

		if (!e)
			continue;
		ph->open_flags |= e->open_flags_seen;
		for (int op = 0; op < IO__COUNT; op++)
			ph->io_requests[op] += e->nreq[op];
	}
	for (size_t i = 0; i < rn->nopdefs; i++)
		result_phase_add_op(ph, rn->opdefs[i]->name, flow_type_name(rn->opdefs[i]),
				    runner_flow_class(rn->opdefs[i]));
	visit_all(rn, merge_flow, &m);
	if (ph->nexecs)
		qsort(ph->execs, ph->nexecs, sizeof(*ph->execs), exec_cmp);
	for (size_t i = 0; i < ph->nops; i++) {
		struct result_op *op = &ph->ops[i];

		res->errors += op->st.errors;
		if (op->sched)
			schedule_verdict(rn, op);
		if (!strcmp(op->type, "testrandvar") && op->st.ops) {
			double n = (double)op->st.ops, mean = op->extra_mean / n;
			double var = op->extra_sd / n - mean * mean;

			op->extra_mean = mean;
			op->extra_sd = var > 0 ? sqrt(var) : 0;
		}
	}
	measure_finish(meas, ph, t_stop);
}

int runner_phase(struct runner *rn, const char *name, struct wl_process *const *procs,
		 size_t nprocs, double duration)
{
	return runner_phase_flags(rn, name, procs, nprocs, duration, 0);
}

int runner_phase_flags(struct runner *rn, const char *name, struct wl_process *const *procs,
		       size_t nprocs, double duration, unsigned flags)
{
	const struct run_opts *o = rn->o;
	/* the phase's own measurement options: without the warm-up if asked */
	struct run_opts po = *o;
	struct result *res = rn->res;
	struct measure *meas;
	enum phase_end why;
	uint64_t t_stop;
	size_t started = 0;
	int ret;

	__atomic_store_n(&rn->stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rn->finished, 0, __ATOMIC_RELAXED);
	rn->stonewalled = 0;
	rn->stonewall_ns = 0;
	rn->wall_told = 0;
	rn->peer_stopped = 0;
	rn->all_done_ns = 0;
	rn->go = 0;
	rn->ndone = 0;
	rn->events_used = 0;
	rn->nphases++;
	ret = workers_build(rn, procs, nprocs);
	if (ret < 0) {
		phase_cleanup(rn);
		return ret;
	}
	counters_build(rn);
	for (size_t i = 0; i < rn->nfs; i++)
		rn->fs[i].nusers = rn->fs[i].last_user = rn->fs[i].plain_writes = 0;
	visit_all(rn, count_users, NULL);
	visit_all(rn, wmap_reset, NULL);
	visit_all(rn, name_flow, NULL);
	rn->event_rate = wl_val_double(&rn->w->eventgen_rate, NULL, 0);
	if (o->drop_caches) {
		ret = runner_drop_caches(0);
		if (ret < 0) {
			phase_cleanup(rn);
			return ret;
		}
	}
	if (flags & RUNNER_PHASE_NO_WARMUP) {
		po.warmup = 0;
		po.steady_pct = 0;
	}
	meas = measure_new(rn, &po, name, duration);
	phase_announce(&po, name, procs, nprocs, duration);
	phase_depth_notes(rn, procs, nprocs);
	for (; started < rn->nworkers; started++) {
		if (pthread_create(&rn->workers[started].tid, NULL, worker_main,
				   &rn->workers[started])) {
			msg_err("cannot start thread %zu of %zu", started + 1, rn->nworkers);
			__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
			ret = -EAGAIN;
			break;
		}
		rn->workers[started].started = 1;
	}
	/* with the other clients: none starts before all are ready, and
	 * none starts after one has stopped */
	if (ret == 0 && o->sync && o->sync->start(o->sync->arg)) {
		rn->peer_stopped = 1;
		__atomic_store_n(&rn->stop, 1, __ATOMIC_RELAXED);
		ret = 1;
	}
	measure_start(meas);
	/* open the start gate (also on failure: started threads see stop) */
	pthread_mutex_lock(&rn->gate_mu);
	rn->go = 1;
	pthread_cond_broadcast(&rn->gate_cv);
	pthread_mutex_unlock(&rn->gate_mu);
	why = phase_wait(rn, meas, ret, &t_stop);
	if (o->sync && ret != 1)
		o->sync->end(o->sync->arg, why == END_ERROR || why == END_SIGNAL);
	for (size_t i = 0; i < started; i++)
		pthread_join(rn->workers[i].tid, NULL);
	for (size_t i = 0; i < rn->nworkers; i++)
		res->verify_errors += rn->workers[i].verify_errors;
	if (runner_signalled())
		res->interrupted = 1;
	if (ret == 0)
		phase_record(rn, name, why, meas, t_stop);
	measure_free(meas);
	res->stopped_on_error |= rn->stopped_on_error | rn->peer_stopped;
	if (ret == 1)
		ret = 0; /* another client stopped: nothing ran, nothing failed here */
	if (rn->first_error && !res->first_error)
		res->first_error = xstrdup(rn->first_error);
	phase_cleanup(rn);
	return ret;
}

_Static_assert(IO__COUNT <= RESULT_IO_OPS, "result_phase.io_requests is too small");

void runner_free(struct runner *rn)
{
	uint64_t tot[IO__COUNT];

	if (!rn)
		return;
	phase_cleanup(rn);
	/* every engine instance is closed now: record what they were asked */
	engine_totals(tot);
	for (int i = 0; i < IO__COUNT; i++)
		rn->res->io_requests[i] = tot[i];
	for (size_t i = 0; i < rn->nfs; i++)
		fileset_free(&rn->fs[i]);
	free(rn->fs);
	free(rn->first_error);
	pthread_mutex_destroy(&rn->err_mu);
	for (int i = 0; i < RUNNER_VLOCKS; i++)
		pthread_mutex_destroy(&rn->vlock[i]);
	pthread_mutex_destroy(&rn->gate_mu);
	pthread_cond_destroy(&rn->gate_cv);
	free(rn->tgs);
	free(rn);
}

void runner_set_result(struct runner *rn, struct result *res)
{
	rn->res = res;
}
