/*
 * tests.c — iozone's tests as phases of the runner: one thread per file
 * (build_phase), a thread's and the parent's figures (KB/s as iozone
 * prints them, into the phase's metrics), the two ways to run them
 * (throughput mode's sections, the auto/single-stream table) and iozone's
 * header.  See internal.h.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gitrev.h" /* generated: FSGAUGE_GITREV, the commit built from */
#include "runner/runner.h"
#include "suite/iozone/internal.h"
#include "util/util.h"

#define CROSSOVER (16ull << 20) /* above this file size auto mode ... */
#define LARGE_REC (64 * KB)	/* ... skips records below this (but -z) */

/* Whether auto mode runs record size r with file size s. */
static int rec_applies(const struct ioz *z, uint64_t s, uint64_t r)
{
	if (r > s)
		return 0;
	if (z->autom && !z->r_opt.n && !z->all_recs && s > CROSSOVER && r < LARGE_REC)
		return 0;
	return 1;
}

int test_selected(const struct ioz *z, enum ioz_test t)
{
	const struct ioz_test_info *ti = &ioz_tests[t];

	if (!(z->tests & (1u << ti->option)))
		return 0;
	if (ti->retest && z->no_retest)
		return 0;
	if (z->nthreads && !ti->tp_label)
		return 0;
	/* iozone's tables show random mix and pread/pwrite only when asked */
	return 1;
}

/* The tests of auto and single-stream mode, in column order. */
size_t auto_columns(const struct ioz *z, enum ioz_test *cols)
{
	size_t n = 0;

	for (int t = 0; t < IOZ__COUNT; t++)
		if (test_selected(z, (enum ioz_test)t))
			cols[n++] = (enum ioz_test)t;
	return n;
}

size_t tp_tests(const struct ioz *z, enum ioz_test *list)
{
	size_t n = 0;

	for (const enum ioz_test *t = ioz_tp_order; *t != IOZ__COUNT; t++)
		if (test_selected(z, *t))
			list[n++] = *t;
	return n;
}

/* --- building a test's threads ------------------------------------------- */

static char *fmt_name(char *buf, size_t len, const char *thread, const char *what)
{
	snprintf(buf, len, "%s%s", thread, what);
	return buf;
}

static void open_attrs(const struct ioz *z, struct wl_flowop *fo, int stdio)
{
	fo->fd = wl_int(1);
	if (stdio)
		return; /* iozone's fopen streams get none of these */
	if (z->osync)
		fo->osync = wl_bool(1);
	if (z->odsync)
		fo->dsync = wl_bool(1);
	if (z->direct)
		fo->directio = wl_bool(1);
}

struct data_op {
	int write, random, reverse, same_record, stdio;
};

static struct data_op test_data_op(const struct ioz *z, enum ioz_test t, unsigned thread)
{
	struct data_op d = { 0 };

	d.write = ioz_tests[t].writes;
	d.stdio = ioz_tests[t].stdio;
	switch (t) {
	case IOZ_RANDREAD:
	case IOZ_RANDWRITE:
		d.random = 1;
		break;
	case IOZ_MIX:
		/* iozone's throughput mix: half the threads read, half write */
		d.random = 1;
		d.write = thread % 2;
		break;
	case IOZ_BKWDREAD:
		d.reverse = 1;
		break;
	case IOZ_RECREWRITE:
		d.same_record = 1;
		break;
	default:
		break;
	}
	return d;
}

static struct wl_flowop *add_data_op(struct wl_flowop *parent, const char *name,
				     struct wl_fileset *fs, const struct data_op *d,
				     const struct ioz *z, uint64_t s, uint64_t r, uint64_t iters)
{
	struct wl_flowop *fo = wl_add_child(parent, d->write ? FO_WRITE : FO_READ, name, fs);

	fo->fd = wl_int(1);
	fo->iosize = wl_int((int64_t)r);
	fo->iters = wl_int((int64_t)iters);
	fo->wss = wl_int((int64_t)(d->same_record ? r : s));
	if (d->random)
		fo->random = wl_bool(1);
	if (d->reverse)
		fo->reverse = wl_bool(1);
	if (d->stdio)
		fo->bufsize = wl_int((int64_t)r);
	return fo;
}

/* One phase: a process of one thread per file.  Thread t<N>:
 *   t<N>-open                     open (create for initial writes)
 *   [t<N>-fill]                   auto mode: grow the file to s, untimed
 *   t<N> { t<N>.<op> x records    the timed section (composite)
 *          [t<N>.fsync] [t<N>.close] }
 *   [stonewall]                   throughput mode, without -x
 *   [t<N>-reopen] [t<N>-fill]     stonewalled initial writes complete the file
 *   [t<N>-fsync] [t<N>-close]     what iozone does after the timing
 *   done                          threaddone
 */
struct wl_process *build_phase(const struct ioz *z, enum ioz_test t, uint64_t s,
				      uint64_t r)
{
	const struct ioz_test_info *ti = &ioz_tests[t];
	struct wl_process *p = wl_new_process("iozone", 1);
	uint64_t nrec = s / r;
	int stonewall = z->nthreads && !z->no_stonewall;

	for (unsigned i = 0; i < z->nfs; i++) {
		char th[32], nm[64];
		struct wl_fileset *fs = z->fsets[i];
		struct data_op d = test_data_op(z, t, i);
		struct wl_thread *thr;
		struct wl_flowop *fo, *timed;
		int reopened = 0;

		snprintf(th, sizeof(th), "t%u", i);
		thr = wl_add_thread(p, th, 1, (int64_t)MAX(r, 4096));
		fo = wl_add_flowop(thr, ti->creates ? FO_CREATEFILE : FO_OPENFILE,
				   fmt_name(nm, sizeof(nm), th, "-open"), fs);
		open_attrs(z, fo, d.stdio);
		/* (a device is always its full size: nothing to complete) */
		if (!ti->creates && z->sizes.n > 1 && !z->device) {
			fo = wl_add_flowop(thr, FO_WRITEWHOLEFILE,
					   fmt_name(nm, sizeof(nm), th, "-fill"), fs);
			fo->fd = wl_int(1);
			fo->resume = wl_bool(1);
			fo->iosize = wl_int((int64_t)r);
			fo->wss = wl_int((int64_t)s);
		}
		timed = wl_add_composite(thr, th);
		if (t == IOZ_MIX && !z->nthreads) {
			/* single stream: random reads and writes in turn */
			struct data_op rd = d, wr = d;
			struct wl_flowop *mix;

			rd.write = 0;
			wr.write = 1;
			if (nrec / 2) {
				mix = wl_add_child(timed, FO_COMPOSITE,
						   fmt_name(nm, sizeof(nm), th, ".mix"), NULL);
				mix->composite_name = xstrdup(mix->name);
				mix->iters = wl_int((int64_t)(nrec / 2));
				add_data_op(mix, fmt_name(nm, sizeof(nm), th, ".mix.read"), fs, &rd,
					    z, s, r, 1);
				add_data_op(mix, fmt_name(nm, sizeof(nm), th, ".mix.write"), fs,
					    &wr, z, s, r, 1);
			}
			if (nrec % 2)
				add_data_op(timed, fmt_name(nm, sizeof(nm), th, ".mix.read"), fs, &rd,
					    z, s, r, 1);
			d.write = 1;
		} else {
			fo = add_data_op(timed,
					 fmt_name(nm, sizeof(nm), th, d.write ? ".write" : ".read"),
					 fs, &d, z, s, r, nrec);
			if (t == IOZ_STRIDEREAD)
				fo->stride = wl_int((int64_t)z->stride);
			if (stonewall)
				fo->stonewall = wl_bool(1);
		}
		if (z->inc_flush && d.write) {
			fo = wl_add_child(timed, FO_FSYNC, fmt_name(nm, sizeof(nm), th, ".fsync"),
					  fs);
			fo->fd = wl_int(1);
		}
		if (z->inc_close) {
			fo = wl_add_child(timed, FO_CLOSEFILE,
					  fmt_name(nm, sizeof(nm), th, ".close"), fs);
			fo->fd = wl_int(1);
		}
		if (stonewall)
			wl_add_flowop(thr, FO_STONEWALL, "stonewall", NULL);
		if (stonewall && ti->creates) {
			if (z->inc_close) {
				fo = wl_add_flowop(thr, FO_OPENFILE,
						   fmt_name(nm, sizeof(nm), th, "-reopen"), fs);
				open_attrs(z, fo, d.stdio);
				reopened = 1;
			}
			fo = wl_add_flowop(thr, FO_WRITEWHOLEFILE,
					   fmt_name(nm, sizeof(nm), th, "-fill"), fs);
			fo->fd = wl_int(1);
			fo->resume = wl_bool(1);
			fo->iosize = wl_int((int64_t)r);
			fo->wss = wl_int((int64_t)s);
		}
		if (!z->inc_close && d.write) {
			fo = wl_add_flowop(thr, FO_FSYNC, fmt_name(nm, sizeof(nm), th, "-fsync"),
					   fs);
			fo->fd = wl_int(1);
			fo->after_timing = 1;
		}
		if (!z->inc_close || reopened) {
			fo = wl_add_flowop(thr, FO_CLOSEFILE,
					   fmt_name(nm, sizeof(nm), th, "-close"), fs);
			fo->fd = wl_int(1);
		}
		wl_add_flowop(thr, FO_THREADDONE, "done", NULL);
	}
	return p;
}

/* --- figures --------------------------------------------------------------- */

/* Thread `i`'s timed seconds (its composite) and bytes (its record
 * operations). */
static void thread_figures(const struct result_phase *ph, unsigned i, double *secs,
			   double *bytes)
{
	char th[32];
	size_t tl = (size_t)snprintf(th, sizeof(th), "t%u", i);

	*secs = 0;
	*bytes = 0;
	for (size_t k = 0; k < ph->nops; k++) {
		const struct result_op *o = &ph->ops[k];

		if (!strcmp(o->name, th))
			*secs = o->st.lat.count ? o->st.lat.sum / 1e9 : 0;
		else if (!strncmp(o->name, th, tl) && o->name[tl] == '.')
			*bytes += (double)(o->st.bytes_read + o->st.bytes_written);
	}
}

/* The section's figures.  A thread that moved nothing (stonewalled
 * before its first record) would make Min 0.00, which says nothing about
 * the storage: min, avg and min_xfer are over the threads that moved
 * data, and t->idle counts the others (the JSON's per-thread figures keep
 * their zeros). */
/* -F in several directories: each target's threads and KB/s (the sum of
 * its threads'), in the section and as metrics target<K>.throughput. */
static void tp_targets(struct ioz *z, struct result_phase *ph, struct ioz_tp *t,
		       const double *kbs, unsigned *tthreads, double *tkbs)
{
	if (z->ntdirs < 2)
		return;
	for (unsigned i = 0; i < z->nfs; i++) {
		tthreads[z->ftarget[i]]++;
		tkbs[z->ftarget[i]] += kbs[i];
	}
	for (size_t k = 0; k < z->ntdirs; k++) {
		char name[48];

		snprintf(name, sizeof(name), "target%zu.throughput", k + 1);
		result_phase_add_metric(ph, name, "KB/s", tkbs[k]);
	}
	t->ntargets = (unsigned)z->ntdirs;
	t->tnames = (const char *const *)z->tdirs;
	t->tthreads = tthreads;
	t->tkbs = tkbs;
}

static void tp_figures(struct ioz *z, struct result_phase *ph, struct ioz_tp *t,
		       unsigned *tthreads, double *tkbs)
{
	double total_kb = 0, *kbs_of = xcalloc(z->nfs, sizeof(*kbs_of));
	int any = 0;

	memset(t, 0, sizeof(*t));
	t->nthreads = z->nfs;
	t->stonewall = z->nthreads && !z->no_stonewall;
	for (unsigned i = 0; i < z->nfs; i++) {
		double secs, bytes, kb, kbs;
		char name[48];

		thread_figures(ph, i, &secs, &bytes);
		kb = bytes / KB;
		kbs = secs > 0 ? kb / secs : 0;
		kbs_of[i] = kbs;
		t->children += kbs;
		total_kb += kb;
		if (!i || kbs > t->max)
			t->max = kbs;
		if (kb <= 0) {
			t->idle++;
		} else {
			if (!any || kbs < t->min)
				t->min = kbs;
			if (!any || kb < t->min_xfer)
				t->min_xfer = kb;
			any = 1;
		}
		snprintf(name, sizeof(name), "t%u.throughput", i);
		result_phase_add_metric(ph, name, "KB/s", kbs);
		snprintf(name, sizeof(name), "t%u.xfer", i);
		result_phase_add_metric(ph, name, "KB", kb);
	}
	t->avg = z->nfs > t->idle ? t->children / (z->nfs - t->idle) : 0;
	t->parent = ph->seconds > 0 ? total_kb / ph->seconds : 0;
	result_phase_add_metric(ph, "children_throughput", "KB/s", t->children);
	result_phase_add_metric(ph, "parent_throughput", "KB/s", t->parent);
	result_phase_add_metric(ph, "min_throughput", "KB/s", t->min);
	result_phase_add_metric(ph, "max_throughput", "KB/s", t->max);
	result_phase_add_metric(ph, "avg_throughput", "KB/s", t->avg);
	result_phase_add_metric(ph, "min_xfer", "KB", t->min_xfer);
	result_phase_add_metric(ph, "idle_threads", "threads", (double)t->idle);
	tp_targets(z, ph, t, kbs_of, tthreads, tkbs);
	free(kbs_of);
}

/* Auto and single-stream mode: KB/s as iozone prints it (whole KB/s of
 * the bytes over the timed section). */
static double single_figure(struct result_phase *ph)
{
	double secs, bytes, kbs;

	thread_figures(ph, 0, &secs, &bytes);
	kbs = secs > 0 ? (double)((uint64_t)(bytes / secs) >> 10) : 0;
	result_phase_add_metric(ph, "throughput", "KB/s", kbs);
	result_phase_add_metric(ph, "xfer", "KB", bytes / KB);
	return kbs;
}

/* --- running --------------------------------------------------------------- */

/* After printing: when stdout is gone (a closed pipe), stop as after a
 * signal, so that the files are still removed. */
void out_flush(void)
{
	if (fflush(stdout) == EOF && !runner_signalled())
		__atomic_store_n(&runner_stop_signal, SIGPIPE, __ATOMIC_RELAXED);
}

/* Run one test as a phase; returns the new result phase, or NULL when it
 * could not run or was cut short (interrupted, stopped on an error). */
static struct result_phase *run_test(struct ioz *z, enum ioz_test t, uint64_t s, uint64_t r,
				     int *err)
{
	struct wl_process *p = build_phase(z, t, s, r);
	char name[96];
	size_t before = z->res->nphases;
	int ret;

	if (z->nthreads)
		snprintf(name, sizeof(name), "%s", ioz_tests[t].tp_label);
	else
		snprintf(name, sizeof(name), "%s %lluk %lluk", ioz_tests[t].key,
			 (unsigned long long)(s / KB), (unsigned long long)(r / KB));
	ret = runner_phase(z->rn, name, &p, 1, PHASE_SECONDS);
	wl_process_free(p);
	if (ret < 0)
		*err = ret;
	if (z->res->nphases == before)
		return NULL;
	if (runner_signalled() || z->res->stopped_on_error)
		return NULL;
	return &z->res->phases[z->res->nphases - 1];
}

void print_header(struct ioz *z)
{
	struct timespec res;
	time_t now = time(NULL);
	char date[64];

	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", localtime(&now));
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("\tfsgauge iozone: iozone's file I/O tests on the fsgauge engine\n"
	       "\t\tfsgauge %s (%s), engine %s\n\n",
	       FSGAUGE_VERSION, FSGAUGE_GITREV, z->s->ro.engine);
	printf("\tRun began: %s\n\n", date);
	if (z->autom)
		printf("\tAuto Mode\n");
	if (z->osync)
		printf("\tSYNC Mode.\n");
	if (z->odsync)
		printf("\tO_DSYNC Mode.\n");
	if (z->inc_close)
		printf("\tInclude close in write timing\n");
	if (z->inc_flush)
		printf("\tInclude fsync in write timing\n");
	if (z->direct)
		printf("\tO_DIRECT feature enabled\n");
	if (z->no_retest)
		printf("\tNo retest option selected\n");
	if (z->s->keep)
		printf("\tSetting no_unlink\n");
	if (z->nthreads && z->no_stonewall)
		printf("\tStonewall disabled\n");
	for (size_t i = 0; i < z->r_opt.n; i++)
		printf("\tRecord Size %llu KB\n", (unsigned long long)(z->r_opt.v[i] / KB));
	for (size_t i = 0; i < z->s_opt.n; i++)
		printf("\tFile size set to %llu KB\n", (unsigned long long)(z->s_opt.v[i] / KB));
	if (z->autom && !z->s_opt.n)
		printf("\tUsing minimum file size of %llu kilobytes.\n"
		       "\tUsing maximum file size of %llu kilobytes.\n",
		       (unsigned long long)(z->sizes.v[0] / KB),
		       (unsigned long long)(z->sizes.v[z->sizes.n - 1] / KB));
	printf("\tCommand line used: %s\n", z->cmdline);
	printf("\tOutput is in Kbytes/sec\n");
	printf("\tTime Resolution = %.9f seconds.\n",
	       (double)res.tv_sec + (double)res.tv_nsec / 1e9);
	printf("\tFile stride size set to %llu * record size.\n", (unsigned long long)z->stride);
	if (z->nthreads) {
		printf("\tThroughput test with %u threads (iozone's default is processes; fsgauge "
		       "always uses threads)\n",
		       z->nthreads);
		printf("\tEach thread writes a %llu Kbyte file in %llu Kbyte records\n\n",
		       (unsigned long long)(z->sizes.v[0] / KB),
		       (unsigned long long)(z->recs.v[0] / KB));
	} else {
		putchar('\n');
	}
	out_flush();
}

/* Throughput mode: one section per test. */
int run_throughput(struct ioz *z)
{
	enum ioz_test list[IOZ__COUNT];
	double children[IOZ__COUNT];
	size_t n = tp_tests(z, list), done = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		struct result_phase *ph = run_test(z, list[i], z->sizes.v[0], z->recs.v[0], &err);
		struct ioz_tp t;
		unsigned *tthreads = xcalloc(z->ntdirs + 1, sizeof(*tthreads));
		double *tkbs = xcalloc(z->ntdirs + 1, sizeof(*tkbs));

		if (!ph) {
			free(tthreads);
			free(tkbs);
			break;
		}
		tp_figures(z, ph, &t, tthreads, tkbs);
		ioz_fmt_tp_section(stdout, ioz_tests[list[i]].tp_label, &t);
		out_flush();
		children[done++] = t.children;
		free(tthreads);
		free(tkbs);
	}
	if (z->csv_stdout && done) {
		printf("\n\"Excel output is below:\"\n\n");
		ioz_fmt_csv_tp(stdout, list, children, done, z->nfs, z->recs.v[0] / KB);
	}
	if (z->csv.f && done)
		ioz_fmt_csv_tp(z->csv.f, list, children, done, z->nfs, z->recs.v[0] / KB);
	return err;
}

/* Auto and single-stream mode: one row per file size and record size. */
int run_table(struct ioz *z)
{
	enum ioz_test cols[IOZ__COUNT];
	size_t nc = auto_columns(z, cols), nv;
	uint64_t *skb = xcalloc(z->sizes.n, sizeof(*skb));
	uint64_t *rkb = xcalloc(z->recs.n, sizeof(*rkb));
	double *values;
	int err = 0, stop = 0;

	nv = nc * z->sizes.n * z->recs.n;
	values = xmalloc((nv ? nv : 1) * sizeof(*values));
	for (size_t i = 0; i < nv; i++)
		values[i] = -1;
	for (size_t i = 0; i < z->sizes.n; i++)
		skb[i] = z->sizes.v[i] / KB;
	for (size_t i = 0; i < z->recs.n; i++)
		rkb[i] = z->recs.v[i] / KB;
	ioz_fmt_table_header(stdout, cols, nc);
	for (size_t si = 0; si < z->sizes.n && !stop; si++) {
		for (size_t ri = 0; ri < z->recs.n && !stop; ri++) {
			uint64_t s = z->sizes.v[si], r = z->recs.v[ri];

			if (!rec_applies(z, s, r))
				continue;
			ioz_fmt_table_row(stdout, skb[si], rkb[ri]);
			for (size_t c = 0; c < nc; c++) {
				struct result_phase *ph = run_test(z, cols[c], s, r, &err);

				if (!ph) {
					stop = 1;
					break;
				}
				values[(c * z->sizes.n + si) * z->recs.n + ri] = single_figure(ph);
				ioz_fmt_table_cell(stdout, values[(c * z->sizes.n + si) * z->recs.n + ri]);
				out_flush();
			}
			putchar('\n');
			out_flush();
		}
	}
	if (z->csv_stdout) {
		printf("\n\"Excel output is below:\"\n\n");
		ioz_fmt_csv_auto(stdout, cols, nc, skb, z->sizes.n, rkb, z->recs.n, values);
	}
	if (z->csv.f)
		ioz_fmt_csv_auto(z->csv.f, cols, nc, skb, z->sizes.n, rkb, z->recs.n, values);
	free(values);
	free(skb);
	free(rkb);
	return err;
}
