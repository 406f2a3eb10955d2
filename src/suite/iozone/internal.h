/*
 * internal.h — what the files of the iozone suite share: its state
 * (struct ioz, the session's ctx), the plan (which file sizes, record
 * sizes and tests run) and the test runner.
 *
 *   iozone.c   the suite: options table, checks, block devices, the plan,
 *              the hooks suite_main() calls (suite/suite.h)
 *   tests.c    one test as a phase of threads (build_phase), its figures,
 *              throughput mode and the auto/single-stream table, the header
 *   format.c   iozone's report layout (format.h)
 */
#ifndef FSGAUGE_SUITE_IOZONE_INTERNAL_H
#define FSGAUGE_SUITE_IOZONE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "suite/iozone/format.h"
#include "suite/suite.h"
#include "util/blockdev.h"
#include "util/outfile.h"
#include "workload/build.h"

#define KB 1024ull
#define MAX_THREADS 256		      /* iozone's MAXSTREAMS */
#define MAX_RECORD (16ull << 20)      /* iozone's largest record */
/* "until done" for the runner: a phase ends when its threads are done */
#define PHASE_SECONDS (3600.0 * 24 * 365)

struct sizes {
	uint64_t *v;
	size_t n;
};

struct ioz {
	struct suite_session *s; /* the session (its run options: s->ro) */
	/* options */
	int autom;
	unsigned nthreads;	/* -t; 0: not throughput mode */
	struct sizes s_opt, r_opt;
	uint64_t min_size, max_size, min_rec, max_rec;
	int all_recs;		/* -z */
	unsigned tests;		/* -i bits */
	int osync, odsync, inc_close, inc_flush, direct, no_retest, no_stonewall;
	int csv_stdout;
	const char *csv_file;
	uint64_t stride;
	char **files;		/* -F */
	size_t nfiles;
	const char *file;	/* -f */
	const char *dir;	/* --dir */
	char *cmdline;		/* "fsgauge iozone ..." as given */
	char *options;		/* workload_options() */
	char *target;		/* the target directory (or the first device) */
	/* -F names in several directories (docs/targets.md): each
	 * directory (absolute) is a target, tdirs[k] (owned); file i goes in
	 * the run directory of target ftarget[i]; ntdirs 1 otherwise */
	char **tdirs;
	size_t ntdirs;
	size_t *ftarget;
	/* derived */
	unsigned nfs;		/* threads (files) */
	struct sizes sizes, recs; /* the file sizes and record sizes to run */
	struct wl_fileset **fsets;
	struct workload *w;
	struct runner *rn;	/* the current run's runner */
	struct result *res;	/* the current run's result */
	struct outfile csv;	/* -b */
	unsigned runs_ok;	/* runs whose tests all ran */
	/* block-device targets (-f/-F /dev/X) */
	struct blockdev_policy policy;
	int device; /* the targets are block devices */
	int *devfd; /* per thread, from blockdev_open() */
};

void sizes_add(struct sizes *s, uint64_t v);
const char *base_name(const char *p);

/* Whether test t runs (-i, -+n, throughput mode's tests). */
int test_selected(const struct ioz *z, enum ioz_test t);
/* The tests of auto and single-stream mode in column order, and of
 * throughput mode in its order; returns how many. */
size_t auto_columns(const struct ioz *z, enum ioz_test *cols);
size_t tp_tests(const struct ioz *z, enum ioz_test *list);

/* Test t at file size s and record size r: one process of a thread per
 * file (caller frees with wl_process_free()). */
struct wl_process *build_phase(const struct ioz *z, enum ioz_test t, uint64_t s, uint64_t r);

/* iozone's header, before the first run. */
void print_header(struct ioz *z);
/* One run's tests into z->res with runner z->rn (throughput mode or the
 * table), its report on stdout and into -b's file: 0 or -errno. */
int run_throughput(struct ioz *z);
int run_table(struct ioz *z);
/* After printing: when stdout is gone (a closed pipe), stop as after a
 * signal, so that the files are still removed. */
void out_flush(void);

/* report.c: iozone's section of the HTML report and the phases it draws
 * (the html_section and html_covers hooks): 1 when every result that has
 * phase `phase` draws it in its heat maps (an auto or single-stream phase
 * with its throughput), which then gets no chart section of its own. */
struct comparison;
void iozone_html_section(FILE *f, const struct comparison *c);
int iozone_html_covers(const struct comparison *c, const char *phase);

#endif
