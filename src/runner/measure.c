/*
 * measure.c — the measured window of a phase, for every suite: start and
 * end samples (process CPU, system CPU, memory, device counters), the
 * warm-up (--warmup, --steady-state), the time series (--interval), the
 * live progress line, and the verdicts (cache, plausibility, too fast).
 *
 * Nothing here runs on a worker's hot path.  Workers keep their own
 * cumulative op_stats (updated with relaxed stores, see result.h); this
 * code, running in the runner's control thread, reads them live and
 * works with differences:
 *
 *  - an interval is (snapshot now) - (snapshot at the previous tick),
 *    per operation name; the last one is (final stats after the join) -
 *    (last snapshot), so intervals add up exactly to the totals;
 *  - the warm-up is excluded the same way: at its end a snapshot becomes
 *    the baseline, and the phase's figures are (final) - (baseline).  No
 *    worker is ever reset or paused, so there is nothing to race with.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/internal.h"
#include "stats/cache.h"
#include "stats/steady.h"
#include "stats/sysstat.h"
#include "stats/zfsstat.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"

#define NS 1000000000ull
#define PROGRESS_NS NS
/* runner_phase()'s duration for phases that run until their work is done */
#define UNTIL_DONE (3600.0 * 24 * 365)

struct measure {
	struct runner *rn;
	const struct run_opts *o;
	const char *name;
	double duration;
	size_t nops;
	/* per op: its flows keep submission and completion latencies (an
	 * asynchronous engine's: op_stats.split), so its snapshots have
	 * their split allocated beforehand (stats_array) */
	unsigned char *split;
	uint64_t t_phase;	 /* the start gate opened */
	uint64_t t0;		 /* start of the measured window */
	uint64_t t_end;
	int warming;
	uint64_t warmup_until;	 /* the warm-up ends by then at the latest */
	int steady;		 /* 1 reached, -1 not reached, 0 not asked */
	struct rusage ru0;
	size_t ndev;
	struct dev_io *dev0, *dev_prev, *dev_cur;
	int cpu_ok;
	struct cpu_times cpu0;
	struct meminfo mem0;
	struct zfs_snap *zfs0;	 /* the kstats at the window's start */
	struct op_stats *base;	 /* per op at the end of the warm-up */
	/* several targets: per target, its flows' figures as the window
	 * began (struct tgt_bytes; NULL with one target) */
	struct tgt_bytes *tbase;
	/* --interval */
	uint64_t interval_ns, next_tick, t_prev;
	struct op_stats *prev, *cur; /* per op */
	struct op_stats *scratch;
	struct hist *all;
	struct result_phase ivs; /* holds the intervals until finish */
	/* progress line */
	int progress, tty, shown;
	uint64_t next_progress, prog_t;
	uint64_t prog_ops, prog_bytes;
	struct hist *prog_prev, *prog_cur, *prog_diff;
};

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * NS + (uint64_t)tv.tv_usec * 1000ull;
}

/* A snapshot array for the phase's ops (n of them; one scratch entry:
 * n 1 with any op split), the splits allocated now: a snapshot then
 * allocates and faults in nothing, and reads an op's counters and
 * histograms close together. */
static struct op_stats *stats_array(const struct measure *m, size_t n)
{
	struct op_stats *v = xmalloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++) {
		op_stats_init(&v[i]);
		for (size_t k = 0; k < m->nops; k++)
			if (m->split[k] && (n == m->nops ? k == i : 1)) {
				op_stats_split(&v[i]);
				break;
			}
	}
	return v;
}

static void note_split(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	unsigned char *split = arg;

	if (f->st.split)
		split[f->result_idx] = 1;
}

static void snap_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct op_stats *v = arg;

	op_stats_merge_live(&v[f->result_idx], &f->st);
}

static void stats_array_free(struct op_stats *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		op_stats_release(&v[i]);
	free(v);
}

/* v[k] = live totals of operation k, summed over every worker. */
static void snapshot(struct measure *m, struct op_stats *v)
{
	for (size_t k = 0; k < m->nops; k++)
		op_stats_clear(&v[k]);
	runner_visit_flows(m->rn, snap_flow, v);
}

/* What the operations on one target's files moved (wflow.target). */
struct tgt_bytes {
	uint64_t read_ops, bytes_read, bytes_written;
};

static void tgt_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct tgt_bytes *v = arg;

	(void)rn;
	(void)wk;
	if (f->target < 0)
		return;
	/* the owner updates them with atomic stores (STAT_ADD_R) */
	v[f->target].bytes_read += __atomic_load_n(&f->st.bytes_read, __ATOMIC_RELAXED);
	v[f->target].bytes_written += __atomic_load_n(&f->st.bytes_written, __ATOMIC_RELAXED);
	if (runner_flow_class(f->fo) == OPC_READ)
		v[f->target].read_ops += __atomic_load_n(&f->st.ops, __ATOMIC_RELAXED);
}

/* v[k]: live totals of the flows on target k (rn->nrd of them). */
static void tgt_snapshot(struct measure *m, struct tgt_bytes *v)
{
	memset(v, 0, m->rn->nrd * sizeof(*v));
	runner_visit_flows(m->rn, tgt_flow, v);
}

static void dev_sample(struct measure *m, struct dev_io *v)
{
	if (m->ndev)
		devices_sample(&m->rn->devs, v);
}

struct measure *measure_new(struct runner *rn, const struct run_opts *o, const char *name,
			    double duration)
{
	struct measure *m = xcalloc(1, sizeof(*m));
	double interval = o->interval;

	m->rn = rn;
	m->o = o;
	m->name = name;
	m->duration = duration;
	m->nops = rn->nopdefs;
	m->split = xcalloc(m->nops ? m->nops : 1, 1);
	runner_visit_flows(rn, note_split, m->split);
	m->ndev = rn->devs.n;
	if (rn->nrd > 1 && rn->tgs)
		m->tbase = xcalloc(rn->nrd, sizeof(*m->tbase));
	if (m->ndev) {
		m->dev0 = xcalloc(m->ndev, sizeof(*m->dev0));
		m->dev_prev = xcalloc(m->ndev, sizeof(*m->dev_prev));
		m->dev_cur = xcalloc(m->ndev, sizeof(*m->dev_cur));
	}
	/* --steady-state needs samples: one a second unless --interval */
	if (o->steady_pct > 0 && interval <= 0)
		interval = 1.0;
	if (interval > 0) {
		m->interval_ns = duration_ns(interval);
		if (!m->interval_ns)
			m->interval_ns = 1;
		m->prev = stats_array(m, m->nops);
		m->cur = stats_array(m, m->nops);
		m->all = xmalloc(sizeof(*m->all));
	}
	m->scratch = stats_array(m, 1);
	m->tty = isatty(2);
	m->progress = !o->quiet && (o->progress == PROGRESS_ALWAYS ||
				    (o->progress == PROGRESS_AUTO && m->tty));
	if (m->progress) {
		m->prog_prev = xmalloc(sizeof(*m->prog_prev));
		m->prog_cur = xmalloc(sizeof(*m->prog_cur));
		m->prog_diff = xmalloc(sizeof(*m->prog_diff));
		hist_init(m->prog_prev);
	}
	return m;
}

void measure_thread_start(struct worker *wk)
{
	uint64_t run;

	wk->win_cpu0_ns = thread_cpu_ns();
	wk->win_t0_ns = now_ns();
	wk->sched_ok = sysstat_thread_sched(0, &run, &wk->win_runq0_ns) == 0;
	wk->csw_ok = sysstat_thread_switches(0, &wk->win_vcsw0, &wk->win_ivcsw0) == 0;
	wk->flt_ok = sysstat_thread_faults(0, &wk->win_minflt0, &wk->win_majflt0) == 0;
	wk->win_ok = 1;
}

void measure_thread_end(struct worker *wk)
{
	uint64_t run;

	wk->cpu_end_ns = thread_cpu_ns();
	wk->t_end_ns = now_ns();
	/* (its own flag: the control thread may be writing sched_ok, when a
	 * warm-up ends, while this thread ends) */
	wk->sched_end_ok = sysstat_thread_sched(0, &run, &wk->runq_end_ns) == 0;
	wk->csw_end_ok = sysstat_thread_switches(0, &wk->vcsw_end, &wk->ivcsw_end) == 0;
	wk->flt_end_ok = sysstat_thread_faults(0, &wk->minflt_end, &wk->majflt_end) == 0;
}

/* A running worker's clocks, read from this thread (the CPU clock through
 * pthread_getcpuclockid(), the run-queue wait from its schedstat): 0, or
 * -1 when it has ended or cannot be read (it is then left out). */
static int thread_sample(struct worker *wk, uint64_t now)
{
	int tid = __atomic_load_n(&wk->ktid, __ATOMIC_ACQUIRE);
	struct timespec ts;
	uint64_t run;
	clockid_t c;

	if (!tid || __atomic_load_n(&wk->ended, __ATOMIC_ACQUIRE))
		return -1;
	if (pthread_getcpuclockid(wk->tid, &c) || clock_gettime(c, &ts))
		return -1;
	wk->win_cpu0_ns = (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
	wk->win_t0_ns = now;
	wk->sched_ok = sysstat_thread_sched(tid, &run, &wk->win_runq0_ns) == 0;
	wk->csw_ok = sysstat_thread_switches(tid, &wk->win_vcsw0, &wk->win_ivcsw0) == 0;
	wk->flt_ok = sysstat_thread_faults(tid, &wk->win_minflt0, &wk->win_majflt0) == 0;
	return 0;
}

/* Each worker's clocks at the start of the window: read by the worker
 * itself when the window opens with the start gate (before_gate), else
 * (the end of a warm-up) from here. */
static void threads_start(struct measure *m, uint64_t now, int before_gate)
{
	for (size_t i = 0; i < m->rn->nworkers; i++) {
		struct worker *wk = &m->rn->workers[i];

		wk->win_ok = 0;
		wk->win_self = before_gate && wk->started;
		if (!before_gate && wk->started)
			wk->win_ok = thread_sample(wk, now) == 0;
	}
}

/* The measured window starts now (before_gate: as the start gate opens). */
static void window_start(struct measure *m, uint64_t now, int before_gate)
{
	m->t0 = now;
	__atomic_store_n(&m->rn->window_ns, now, __ATOMIC_RELAXED);
	m->t_end = now + duration_ns(m->duration);
	getrusage(RUSAGE_SELF, &m->ru0);
	m->cpu_ok = sysstat_cpu(&m->cpu0) == 0;
	sysstat_mem(&m->mem0);
	if (m->tbase)
		tgt_snapshot(m, m->tbase);
	if (!m->zfs0)
		m->zfs0 = xmalloc(sizeof(*m->zfs0));
	zfsstat_sample(m->rn->zfs_dataset, m->zfs0);
	threads_start(m, now, before_gate);
}

void measure_start(struct measure *m)
{
	const struct run_opts *o = m->o;
	uint64_t now = now_ns();

	m->t_phase = m->t_prev = now;
	m->rn->start_ns = now;
	dev_sample(m, m->dev0);
	if (m->ndev)
		memcpy(m->dev_prev, m->dev0, m->ndev * sizeof(*m->dev0));
	if (m->interval_ns)
		m->next_tick = now + m->interval_ns;
	m->next_progress = now + PROGRESS_NS;
	m->prog_t = now;
	if (o->warmup > 0 || o->steady_pct > 0) {
		double w = o->warmup > 0 ? o->warmup : m->duration;

		m->warming = 1;
		__atomic_store_n(&m->rn->window_ns, UINT64_MAX, __ATOMIC_RELAXED);
		m->warmup_until = now + duration_ns(w);
		m->t_end = m->warmup_until + duration_ns(m->duration);
		if (o->steady_pct > 0)
			m->steady = -1;
		getrusage(RUSAGE_SELF, &m->ru0);
	} else {
		window_start(m, now, 1);
	}
}

uint64_t measure_end_ns(const struct measure *m)
{
	return m->t_end;
}

/* Close the interval ending at `now`: cur/dev_cur hold the totals then. */
static void interval_close(struct measure *m, uint64_t now)
{
	struct result_interval *iv = result_phase_add_interval(&m->ivs, m->nops);
	struct op_stats *d = m->scratch, *tmp;
	struct dev_io *dtmp;

	if (now < m->t_prev) /* the phase's end may be dated back to its last thread */
		now = m->t_prev;
	iv->t = (double)(now - m->t_phase) / 1e9;
	iv->seconds = (double)(now - m->t_prev) / 1e9;
	iv->warmup = m->warming;
	hist_init(m->all);
	for (size_t k = 0; k < m->nops; k++) {
		op_stats_sub(d, &m->cur[k], &m->prev[k]);
		iv->op_ops[k] = d->ops;
		iv->op_bytes[k] = d->bytes_read + d->bytes_written + d->bytes_trimmed;
		iv->op_p99_ns[k] = hist_quantile(&d->lat, 0.99);
		iv->ops += d->ops;
		iv->bytes_read += d->bytes_read;
		iv->bytes_written += d->bytes_written;
		iv->lat_sum_ns += d->lat.sum;
		iv->lat_count += d->lat.count;
		hist_merge(m->all, &d->lat);
	}
	iv->p99_ns = hist_quantile(m->all, 0.99);
	if (m->ndev) {
		iv->has_device = 1;
		for (size_t i = 0; i < m->ndev; i++) {
			struct dev_io x;

			dev_io_sub(&x, &m->dev_cur[i], &m->dev_prev[i]);
			dev_io_add(&iv->device, &x);
		}
		dtmp = m->dev_prev;
		m->dev_prev = m->dev_cur;
		m->dev_cur = dtmp;
	}
	tmp = m->prev;
	m->prev = m->cur;
	m->cur = tmp;
	m->t_prev = now;
}

static void warmup_end(struct measure *m, uint64_t now, int just_ticked)
{
	m->base = stats_array(m, m->nops);
	if (m->interval_ns) {
		if (!just_ticked) {
			snapshot(m, m->cur);
			dev_sample(m, m->dev_cur);
			interval_close(m, now);
			m->next_tick = now + m->interval_ns;
		}
		for (size_t k = 0; k < m->nops; k++) /* (a copy: prev is reused) */
			op_stats_merge(&m->base[k], &m->prev[k]);
		if (m->ndev)
			memcpy(m->dev0, m->dev_prev, m->ndev * sizeof(*m->dev0));
	} else {
		snapshot(m, m->base);
		dev_sample(m, m->dev0);
	}
	m->warming = 0;
	window_start(m, now, 0);
}

/* Is the rate over the last steady_window warm-up intervals steady? */
static int steady_now(struct measure *m)
{
	size_t w = m->o->steady_window ? m->o->steady_window : 5, n = 0;
	double t[64], y[64];

	if (w > 64)
		w = 64;
	for (size_t i = m->ivs.nintervals; i-- > 0 && n < w;) {
		const struct result_interval *iv = &m->ivs.intervals[i];

		if (!iv->warmup || iv->seconds <= 0)
			break;
		t[w - 1 - n] = iv->t;
		y[w - 1 - n] = (double)iv->ops / iv->seconds;
		n++;
	}
	return n == w && steady_state_reached(t, y, n, m->o->steady_pct, NULL);
}

struct prog_arg {
	uint64_t ops, bytes;
	struct hist *lat;
	/* replay flowops (untar's copies): executions ended and asked for,
	 * each flowop's count once however many threads share it */
	uint64_t execs_ended, execs_total;
	const struct wl_flowop *replays[64]; /* (untar: one per target) */
	size_t nreplays;
};

static void prog_replay(struct prog_arg *a, const struct wflow *f)
{
	size_t i;

	a->execs_ended += __atomic_load_n(&f->execs_ended, __ATOMIC_RELAXED);
	for (i = 0; i < a->nreplays && a->replays[i] != f->fo; i++)
		;
	if (i < a->nreplays)
		return;
	if (a->nreplays < ARRAY_SIZE(a->replays))
		a->replays[a->nreplays++] = f->fo;
	a->execs_total += (uint64_t)wl_val_int(&f->fo->value, NULL, 1);
}

static void prog_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct prog_arg *a = arg;

	if (f->fo->type == FO_REPLAY && f->fo->replay)
		prog_replay(a, f);
	a->ops += __atomic_load_n(&f->st.ops, __ATOMIC_RELAXED);
	a->bytes += __atomic_load_n(&f->st.bytes_read, __ATOMIC_RELAXED) +
		    __atomic_load_n(&f->st.bytes_written, __ATOMIC_RELAXED);
	hist_merge_live(a->lat, &f->st.lat);
}

/* One status line: phase, elapsed/total, time left, the executions of
 * replay flowops (untar: copies ended of copies asked for) and the last
 * second's ops/s, MB/s and p99. */
static void progress_update(struct measure *m, uint64_t now)
{
	struct prog_arg a = { .lat = m->prog_cur };
	double dt = (double)(now - m->prog_t) / 1e9;
	double el = (double)(now - m->t_phase) / 1e9, total = (double)(m->t_end - m->t_phase) / 1e9;
	struct hist *h;
	char when[96], copies[64] = "";

	hist_init(m->prog_cur);
	runner_visit_flows(m->rn, prog_flow, &a);
	hist_sub(m->prog_diff, m->prog_cur, m->prog_prev);
	if (m->duration >= UNTIL_DONE)
		snprintf(when, sizeof(when), "%.0fs (until done)", el);
	else if (m->t_end > now)
		snprintf(when, sizeof(when), "%.0fs/%.0fs, %.0fs left", el, total,
			 (double)(m->t_end - now) / 1e9);
	else
		snprintf(when, sizeof(when), "%.0fs/%.0fs", el, total);
	if (a.nreplays)
		snprintf(copies, sizeof(copies), "  %llu/%llu copies",
			 (unsigned long long)a.execs_ended, (unsigned long long)a.execs_total);
	fprintf(stderr, "%s%s: %s%s  %.0f ops/s  %.1f MB/s  p99 %.3f ms%s%s",
		m->tty ? "\r" : "", m->name, when, copies,
		dt > 0 ? (double)(a.ops - m->prog_ops) / dt : 0.0,
		dt > 0 ? (double)(a.bytes - m->prog_bytes) / 1e6 / dt : 0.0,
		(double)hist_quantile(m->prog_diff, 0.99) / 1e6, m->warming ? "  (warming up)" : "",
		m->tty ? "\033[K" : "\n");
	fflush(stderr);
	m->shown = 1;
	m->prog_ops = a.ops;
	m->prog_bytes = a.bytes;
	m->prog_t = now;
	h = m->prog_prev;
	m->prog_prev = m->prog_cur;
	m->prog_cur = h;
}

void measure_tick(struct measure *m)
{
	uint64_t now = now_ns();

	if (m->warming && now >= m->warmup_until)
		warmup_end(m, now, 0);
	if (m->interval_ns && now >= m->next_tick) {
		snapshot(m, m->cur);
		dev_sample(m, m->dev_cur);
		interval_close(m, now);
		m->next_tick += m->interval_ns;
		if (m->next_tick <= now)
			m->next_tick = now + m->interval_ns;
		if (m->warming && m->o->steady_pct > 0 && steady_now(m)) {
			m->steady = 1;
			warmup_end(m, now, 1);
		}
	}
	if (m->progress && now >= m->next_progress) {
		progress_update(m, now);
		m->next_progress = now + PROGRESS_NS;
	}
}

/* Filesets the phase's reads touch, and how many bytes they hold. */
struct ws_arg {
	struct rt_fileset **seen;
	size_t nseen;
	int all_direct;
	int any_read;
	int synced; /* an fsync flowop, or a descriptor opened O_SYNC/O_DSYNC/O_DIRECT */
	/* the sync flowops the suite's figure does not time (after_timing) */
	const char **untimed;
	size_t nuntimed;
	/* one target's flows only (wflow.target), or -1 every flow; for a
	 * target, the seconds of its untimed syncs and its workers */
	int target;
	uint64_t untimed_ns;
	unsigned nthreads, last_wk;
};

/* Add fs to a's filesets, once. */
static void ws_note(struct ws_arg *a, struct rt_fileset *fs)
{
	for (size_t i = 0; i < a->nseen; i++)
		if (a->seen[i] == fs)
			return;
	a->seen = xrealloc(a->seen, (a->nseen + 1) * sizeof(*a->seen));
	a->seen[a->nseen++] = fs;
}

/* Reads often go through a descriptor another flowop opened (fd=), so
 * the working set is every fileset the phase's flowops name, which bounds
 * what the reads could touch; the caller caps it at the bytes read. */
static void ws_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct ws_arg *a = arg;
	int sync_op = f->type == FO_FSYNC || f->type == FO_FSYNCSET || f->type == FO_SYNCFS;

	if (a->target >= 0) {
		if (f->target != a->target)
			return;
		if (a->last_wk != wk->id + 1) {
			a->last_wk = wk->id + 1;
			a->nthreads++;
		}
	}
	if (sync_op && f->fo->after_timing) {
		a->untimed = xrealloc(a->untimed, (a->nuntimed + 1) * sizeof(*a->untimed));
		a->untimed[a->nuntimed++] = f->fo->name;
		a->untimed_ns += f->st.lat.sum; /* the workers are joined */
	} else if (sync_op || (f->oflags & (O_SYNC | O_DSYNC | O_DIRECT)) || rn->o->direct) {
		a->synced = 1;
	}
	if (runner_flow_class(f->fo) == OPC_READ) {
		a->any_read = 1;
		if (!rn->o->direct && !wl_val_bool(&f->fo->directio, 0))
			a->all_direct = 0;
	}
	if (!f->fs)
		return;
	ws_note(a, f->fs);
}

/* The phase's working set (its filesets' bytes), and in: whether every
 * read was direct, whether the writes were synced, and the workers'
 * seconds in syncs the suite's figure does not time (each such flowop
 * once: its result op holds every thread's calls).  target >= 0: that
 * target's flows only (its own syncs' seconds, its workers in
 * in->nthreads). */
static uint64_t read_working_set(struct measure *m, const struct result_phase *ph, int target,
				 struct cache_inputs *in)
{
	struct ws_arg a = { .all_direct = 1, .target = target };
	uint64_t ws = 0;

	runner_visit_flows(m->rn, ws_flow, &a);
	for (size_t i = 0; i < a.nseen; i++) {
		const struct rt_fileset *fs = a.seen[i];

		for (uint64_t e = 0; e < fs->n; e++) {
			uint32_t st = __atomic_load_n(&fs->e[e].state, __ATOMIC_RELAXED);
			uint64_t cur = __atomic_load_n(&fs->e[e].cur, __ATOMIC_RELAXED);

			if (st & FSE_EXISTS)
				ws += MAX(cur, fs->e[e].size);
		}
	}
	free(a.seen);
	in->direct = a.any_read && a.all_direct;
	in->synced = a.synced;
	if (target >= 0) {
		in->untimed_sync_seconds = (double)a.untimed_ns / 1e9;
		in->nthreads = a.nthreads;
		free(a.untimed);
		return ws;
	}
	for (size_t k = 0; k < ph->nops; k++) {
		for (size_t i = 0; i < a.nuntimed; i++) {
			if (!strcmp(ph->ops[k].name, a.untimed[i])) {
				in->untimed_sync_seconds += ph->ops[k].st.lat.sum / 1e9;
				break;
			}
		}
	}
	free(a.untimed);
	return ws;
}

/* The devices of mask (bit i: rn->devs.dev[i]) in ds. */
static void devices_subset(const struct devices *all, uint64_t mask, struct devices *ds)
{
	memset(ds, 0, sizeof(*ds));
	for (size_t i = 0; i < all->n; i++)
		if (mask & (1ull << i))
			ds->dev[ds->n++] = all->dev[i];
}

/* What the devices of mask did between m->dev0 and end, into d; none:
 * why there is none, when mask has none. */
static void device_view(struct measure *m, uint64_t mask, const char *none,
			const struct dev_io *end, struct result_device *d)
{
	const struct devices *all = &m->rn->devs;
	struct devices *ds;
	size_t n = 0;

	for (size_t i = 0; i < m->ndev; i++)
		n += !!(mask & (1ull << i));
	if (!n) {
		d->none = xstrdup(none[0] ? none : "no block device found");
		return;
	}
	d->ndev = n;
	d->names = xcalloc(n, sizeof(*d->names));
	d->per = xcalloc(n, sizeof(*d->per));
	d->info = xcalloc(n, sizeof(*d->info));
	n = 0;
	for (size_t i = 0; i < m->ndev; i++) {
		struct device_props dp;

		if (!(mask & (1ull << i)))
			continue;
		devices_props(&all->dev[i], &dp);
		d->info[n].rotational = dp.rotational;
		snprintf(d->info[n].class, sizeof(d->info[n].class), "%s", dp.class);
		d->names[n] = xstrdup(all->dev[i].name);
		dev_io_sub(&d->per[n], &end[i], &m->dev0[i]);
		dev_io_add(&d->total, &d->per[n]);
		n++;
	}
	ds = xmalloc(sizeof(*ds));
	devices_subset(all, mask, ds);
	d->ceiling_mb_s = devices_ceiling_mb_s(ds);
	free(ds);
}

static void phase_devices(struct measure *m, struct result_phase *ph, const struct dev_io *end)
{
	struct runner *rn = m->rn;

	device_view(m, m->ndev < 64 ? (1ull << m->ndev) - 1 : ~0ull, rn->devs.none, end,
		    &ph->device);
	if (!m->tbase)
		return;
	ph->ntargets = rn->nrd;
	ph->targets = xcalloc(rn->nrd, sizeof(*ph->targets));
	for (size_t k = 0; k < rn->nrd; k++) {
		struct result_target *t = &ph->targets[k];

		t->path = xstrdup(rn->rds[k].parent ? rn->rds[k].parent : rn->rds[k].path);
		t->fstype = rn->tgs[k].fstype[0] ? xstrdup(rn->tgs[k].fstype) : NULL;
		device_view(m, rn->tgs[k].devmask, rn->tgs[k].none, end, &t->device);
	}
}

static void written_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	struct ws_arg *a = arg;

	/* writes often go through a descriptor another flowop opened (fd=):
	 * every fileset the phase names */
	if (!f->fs || f->fs->def->has_device)
		return;
	ws_note(a, f->fs);
}

/* Entry i of fs, or its chunk files: into s (regular files only). */
static void stored_entry(struct measure *m, const struct rt_fileset *fs, uint64_t i,
			 struct result_stored *s)
{
	char path[4096];
	unsigned n = fs->chunk ? fs->nchunks : 1;

	for (unsigned c = 0; c < n && s->files < STORED_MAX_FILES; c++) {
		const char *p = path;
		struct stat st;
		int dfd;

		if ((fs->chunk ? fileset_chunk_path(fs, c, path, sizeof(path))
			       : fileset_entry_path(fs, i, path, sizeof(path))) < 0)
			return;
		dfd = fileset_at(fs, fs->rootfd, &p);
		if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		s->files++;
		s->size_bytes += (uint64_t)st.st_size;
		s->allocated_bytes += (uint64_t)st.st_blocks * 512u;
	}
}

/* Data-reduction honesty: the files of the filesets the phase names that
 * are still there, their allocated blocks against the bytes written. */
static void phase_stored(struct measure *m, struct result_phase *ph)
{
	struct ws_arg a = { .all_direct = 1, .target = -1 };
	struct result_stored *s = &ph->stored;
	struct phase_totals t;
	char data[64];

	result_phase_totals(ph, &t);
	if (t.bytes_written < (1u << 20) || m->rn->dirfd < 0)
		return;
	runner_visit_flows(m->rn, written_flow, &a);
	for (size_t k = 0; k < a.nseen; k++) {
		const struct rt_fileset *fs = a.seen[k];

		for (uint64_t e = 0; e < fs->n && s->files < STORED_MAX_FILES; e++)
			if (__atomic_load_n(&fs->e[e].state, __ATOMIC_RELAXED) & FSE_EXISTS)
				stored_entry(m, fs, e, s);
	}
	free(a.seen);
	s->checked = s->files > 0;
	s->truncated = s->files >= STORED_MAX_FILES;
	s->written_bytes = t.bytes_written;
	data_pattern_name(&m->o->data, data, sizeof(data));
	result_stored_judge(s, data);
}

static void rate_wait_flow(struct runner *rn, struct worker *wk, struct wflow *f, void *arg)
{
	if (f->rate)
		*(uint64_t *)arg += f->rate->wait_ns;
}

/* The workers' time in the window (after the join): their time and CPU,
 * the busiest one, the time they slept for their rates. */
static void phase_threads(struct measure *m, struct result_phase *ph)
{
	struct result_threads *t = &ph->threads;
	struct runner *rn = m->rn;
	cpu_set_t set;

	for (size_t i = 0; i < rn->nworkers; i++) {
		const struct worker *wk = &rn->workers[i];
		uint64_t wall, cpu;

		t->rate_wait_ns += wk->rate_wait_ns;
		if (!wk->win_ok || wk->t_end_ns <= wk->win_t0_ns)
			continue;
		wall = wk->t_end_ns - wk->win_t0_ns;
		cpu = wk->cpu_end_ns > wk->win_cpu0_ns ? wk->cpu_end_ns - wk->win_cpu0_ns : 0;
		t->n++;
		t->wall_ns += wall;
		t->cpu_ns += cpu;
		if (wk->sched_ok && wk->sched_end_ok && wk->runq_end_ns >= wk->win_runq0_ns) {
			t->runq_n++;
			t->runq_ns += wk->runq_end_ns - wk->win_runq0_ns;
		}
		if (wk->csw_ok && wk->csw_end_ok && wk->vcsw_end >= wk->win_vcsw0 &&
		    wk->ivcsw_end >= wk->win_ivcsw0) {
			t->csw_n++;
			t->vcsw += wk->vcsw_end - wk->win_vcsw0;
			t->ivcsw += wk->ivcsw_end - wk->win_ivcsw0;
		}
		if (wk->flt_ok && wk->flt_end_ok && wk->minflt_end >= wk->win_minflt0 &&
		    wk->majflt_end >= wk->win_majflt0) {
			t->flt_n++;
			t->minflt += wk->minflt_end - wk->win_minflt0;
			t->majflt += wk->majflt_end - wk->win_majflt0;
		}
		if (!t->top_wall_ns ||
		    (double)cpu * (double)t->top_wall_ns > (double)t->top_cpu_ns * (double)wall) {
			t->top_cpu_ns = cpu;
			t->top_wall_ns = wall;
		}
	}
	runner_visit_flows(rn, rate_wait_flow, &t->rate_wait_ns);
	t->event_rate = rn->event_rate;
	t->ncpus_online = (unsigned)MAX(sysconf(_SC_NPROCESSORS_ONLN), 1);
	t->ncpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? (unsigned)CPU_COUNT(&set)
								: t->ncpus_online;
}

/* Each process of the phase (after the join): from the window's start to
 * the end of its last worker, at most the phase's time, and its workers'
 * CPU in the window (struct result_proc). */
static void phase_procs(struct measure *m, struct result_phase *ph)
{
	struct runner *rn = m->rn;

	for (size_t i = 0; i < rn->nworkers; i++) {
		const struct worker *wk = &rn->workers[i];
		struct result_proc *pr = NULL;
		double secs;

		for (size_t k = 0; k < ph->nprocs && !pr; k++)
			if (!strcmp(ph->procs[k].name, wk->pd->name))
				pr = &ph->procs[k];
		if (!pr) {
			ph->procs = xrealloc(ph->procs, (ph->nprocs + 1) * sizeof(*ph->procs));
			pr = &ph->procs[ph->nprocs++];
			*pr = (struct result_proc){ .name = xstrdup(wk->pd->name) };
		}
		if (!wk->win_ok || wk->t_end_ns <= m->t0)
			continue;
		secs = MIN((double)(wk->t_end_ns - m->t0) / 1e9, ph->seconds);
		pr->seconds = MAX(pr->seconds, secs);
		if (wk->cpu_end_ns > wk->win_cpu0_ns)
			pr->cpu_ns += wk->cpu_end_ns - wk->win_cpu0_ns;
	}
}

/* The cache verdict (out) on app_rd and app_wr bytes against what the
 * devices of d did, on a file system of type fstype; target: one
 * target's flows (read_working_set()), or -1 the phase's. */
static void cache_for(struct measure *m, const struct result_phase *ph, int target,
		      const struct result_device *d, const char *fstype, uint64_t app_rd,
		      uint64_t app_wr, struct result_cache *out)
{
	struct cache_inputs in;
	char desc[512] = "";

	memset(&in, 0, sizeof(in));
	in.nthreads = (unsigned)ph->nthreads;
	in.read_working_set = read_working_set(m, ph, target, &in);
	if (in.read_working_set > app_rd)
		in.read_working_set = app_rd;
	in.fstype = fstype;
	in.seconds = ph->seconds;
	in.too_fast = ph->too_fast;
	in.app_bytes_read = app_rd;
	in.app_bytes_written = app_wr;
	in.have_devices = d->ndev > 0 && !d->none;
	in.dev_bytes_read = d->total.bytes_read;
	in.dev_bytes_written = d->total.bytes_written;
	in.mem = m->mem0;
	in.ceiling_mb_s = d->ceiling_mb_s;
	for (size_t i = 0; i < d->ndev; i++) {
		size_t l = strlen(desc);

		snprintf(desc + l, sizeof(desc) - l, "%s%s (%s)", i ? ", " : "", d->names[i],
			 d->info ? d->info[i].class : "?");
	}
	in.devices = desc;
	cache_assess(&in, out);
}

static uint64_t delta(uint64_t later, uint64_t earlier)
{
	return later > earlier ? later - earlier : 0;
}

/* The phase's cache verdict; with several targets each target's (on the
 * operations on its files, tend: as the window closed), and the phase's
 * made of theirs (cache_combine_targets()). */
static void phase_cache(struct measure *m, struct result_phase *ph, const struct tgt_bytes *tend)
{
	struct phase_totals t;

	if (!ph->ntargets) {
		result_phase_totals(ph, &t);
		cache_for(m, ph, -1, &ph->device, m->rn->fstype[0] ? m->rn->fstype : NULL,
			  t.bytes_read, t.bytes_written, &ph->cache);
		return;
	}
	for (size_t k = 0; k < ph->ntargets; k++) {
		struct result_target *tg = &ph->targets[k];

		tg->read_ops = delta(tend[k].read_ops, m->tbase[k].read_ops);
		tg->bytes_read = delta(tend[k].bytes_read, m->tbase[k].bytes_read);
		tg->bytes_written = delta(tend[k].bytes_written, m->tbase[k].bytes_written);
		cache_for(m, ph, (int)k, &tg->device, tg->fstype, tg->bytes_read, tg->bytes_written,
			  &tg->cache);
	}
	cache_combine_targets(ph);
}

/* The ZFS kstats over the window (absent without them). */
static void phase_zfs(struct measure *m, struct result_phase *ph)
{
	struct zfs_snap *end;

	if (!m->zfs0)
		return;
	end = xmalloc(sizeof(*end));
	zfsstat_sample(m->rn->zfs_dataset, end);
	zfsstat_delta(m->zfs0, end, &ph->zfs);
	free(end);
}

void measure_finish(struct measure *m, struct result_phase *ph, uint64_t t_stop)
{
	struct rusage ru1;
	struct dev_io *end = m->ndev ? xcalloc(m->ndev, sizeof(*end)) : NULL;
	struct cpu_times c1;
	struct tgt_bytes *tend = NULL;
	int ended_in_warmup = m->warming;

	getrusage(RUSAGE_SELF, &ru1);
	dev_sample(m, end);
	/* the runner dates a phase whose threads all finished back to when the
	 * last one did, which may be before a warm-up end seen a tick later */
	if (!m->warming && t_stop < m->t0)
		t_stop = m->t0;
	if (m->warming) {
		/* the phase ended before its warm-up did: nothing was measured */
		m->base = stats_array(m, m->nops);
		for (size_t k = 0; k < m->nops; k++)
			op_stats_merge(&m->base[k], &ph->ops[k].st);
		window_start(m, t_stop, 0);
		if (m->ndev)
			memcpy(m->dev0, end, m->ndev * sizeof(*end));
	}
	if (m->interval_ns) {
		for (size_t k = 0; k < m->nops; k++) {
			op_stats_clear(&m->cur[k]);
			op_stats_merge(&m->cur[k], &ph->ops[k].st);
		}
		if (m->ndev)
			memcpy(m->dev_cur, end, m->ndev * sizeof(*end));
		m->warming = ended_in_warmup;
		interval_close(m, t_stop);
		m->warming = 0;
	}
	if (m->base) {
		for (size_t k = 0; k < m->nops; k++) {
			struct op_split *old = ph->ops[k].st.split;

			op_stats_sub(m->scratch, &ph->ops[k].st, &m->base[k]);
			memcpy(&ph->ops[k].st, m->scratch, sizeof(*m->scratch));
			/* (the phase's op owns the difference's split now; the
			 * scratch takes the old one, to reuse or free) */
			m->scratch->split = old;
		}
	}
	ph->seconds = (double)(t_stop - m->t0) / 1e9;
	ph->warmup_seconds = (double)(m->t0 - m->t_phase) / 1e9;
	ph->steady_state = m->steady;
	ph->cpu_user_ns = tv_ns(ru1.ru_utime) - tv_ns(m->ru0.ru_utime);
	ph->cpu_sys_ns = tv_ns(ru1.ru_stime) - tv_ns(m->ru0.ru_stime);
	if (m->cpu_ok && sysstat_cpu(&c1) == 0) {
		ph->has_system_cpu = 1;
		cpu_times_sub(&ph->system_cpu, &c1, &m->cpu0);
	}
	phase_devices(m, ph, end);
	phase_zfs(m, ph);
	ph->interval = m->interval_ns ? (double)m->interval_ns / 1e9 : 0;
	ph->intervals = m->ivs.intervals;
	ph->nintervals = m->ivs.nintervals;
	m->ivs.intervals = NULL;
	m->ivs.nintervals = 0;
	if (ended_in_warmup && !ph->too_fast) {
		ph->too_fast = 1;
		ph->too_fast_reason = xasprintf("the phase ended during its warm-up, after %.3f s",
						ph->warmup_seconds);
	}
	result_phase_judge(ph);
	if (m->tbase) {
		tend = xcalloc(m->rn->nrd, sizeof(*tend));
		tgt_snapshot(m, tend);
	}
	phase_cache(m, ph, tend);
	free(tend);
	phase_threads(m, ph);
	phase_procs(m, ph);
	phase_stored(m, ph);
	free(end);
	if (m->shown && m->tty) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

void measure_free(struct measure *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ivs.nintervals; i++) {
		free(m->ivs.intervals[i].op_ops);
		free(m->ivs.intervals[i].op_bytes);
		free(m->ivs.intervals[i].op_p99_ns);
	}
	free(m->ivs.intervals);
	free(m->zfs0);
	free(m->dev0);
	free(m->dev_prev);
	free(m->dev_cur);
	stats_array_free(m->base, m->nops);
	free(m->tbase);
	stats_array_free(m->prev, m->nops);
	stats_array_free(m->cur, m->nops);
	stats_array_free(m->scratch, 1);
	free(m->split);
	free(m->all);
	free(m->prog_prev);
	free(m->prog_cur);
	free(m->prog_diff);
	free(m);
}
