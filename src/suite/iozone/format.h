/*
 * format.h — the iozone front end's tests and its report in iozone's
 * layout: the throughput-mode sections ("Children see throughput for N
 * initial writers = ... KB/sec"), the auto-mode table of KB/s per file
 * size and record size, the spreadsheet report (-R/-b) as CSV, and
 * fsgauge's own summary after them (latency percentiles, CPU, open
 * flags, requests).  suite/iozone/iozone.c runs the tests; this file only
 * formats.  Figures are KB/s with KB = 1024 bytes, as iozone's.
 */
#ifndef FSGAUGE_SUITE_IOZONE_FORMAT_H
#define FSGAUGE_SUITE_IOZONE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/result.h"

/* Every test a phase can run.  Auto and single-stream modes run them in
 * this order (the table's columns); throughput mode in ioz_tp_order. */
enum ioz_test {
	IOZ_WRITE,
	IOZ_REWRITE,
	IOZ_READ,
	IOZ_REREAD,
	IOZ_RANDREAD,
	IOZ_RANDWRITE,
	IOZ_BKWDREAD,
	IOZ_RECREWRITE,
	IOZ_STRIDEREAD,
	IOZ_FWRITE,
	IOZ_FREWRITE,
	IOZ_FREAD,
	IOZ_FREREAD,
	IOZ_MIX,
	IOZ_PWRITE,
	IOZ_REPWRITE,
	IOZ_PREAD,
	IOZ_REPREAD,
	IOZ__COUNT
};

struct ioz_test_info {
	const char *key;      /* "write": phase names and JSON */
	int option;	      /* the -i number that selects it */
	int retest;	      /* a second pass, skipped by -+n */
	int writes;	      /* the data operations write */
	int creates;	      /* makes the file anew (initial write) */
	int stdio;	      /* through a user-space buffer (fwrite/fread) */
	const char *tp_label; /* throughput section: "initial writers"; NULL:
			       * not a throughput-mode test */
	const char *tp_csv;   /* throughput spreadsheet row: "Initial write" */
	const char *col_top;  /* auto table header, upper and lower line */
	const char *col;
	const char *csv;      /* auto spreadsheet title: "Writer report" */
};

extern const struct ioz_test_info ioz_tests[IOZ__COUNT];
/* Throughput mode's order of tests (iozone's), IOZ__COUNT-terminated. */
extern const enum ioz_test ioz_tp_order[];

/* One throughput-mode section. */
struct ioz_tp {
	unsigned nthreads;
	double children; /* sum of the threads' own KB/s */
	double parent;	 /* all KB over the phase's wall time */
	double min, max, avg;
	double min_xfer; /* KB moved by the thread that moved least */
	/* threads that moved no data (the stonewall came before their first
	 * record, or they stopped): min, avg and min_xfer leave them out, and the
	 * section says so, rather than print a Min of 0.00 */
	unsigned idle;
	int stonewall;
	/* -F in several directories: each target's threads and the sum of
	 * their KB/s, said after the section (ntargets 0 or 1: nothing) */
	unsigned ntargets;
	const char *const *tnames;
	const unsigned *tthreads;
	const double *tkbs;
};

/* The throughput-mode section for test `label` ("initial writers"). */
void ioz_fmt_tp_section(FILE *f, const char *label, const struct ioz_tp *t);

/* Auto and single-stream mode table: header for the columns `cols`, then
 * per row the file size and record size (KB), then one cell per column
 * (kbs < 0: not run, printed blank), then a newline. */
void ioz_fmt_table_header(FILE *f, const enum ioz_test *cols, size_t ncols);
void ioz_fmt_table_row(FILE *f, uint64_t size_kb, uint64_t rec_kb);
void ioz_fmt_table_cell(FILE *f, double kbs);

/* The auto-mode spreadsheet: per column a titled matrix, record sizes
 * across, file sizes down.  values[(c * nsizes + s) * nrecs + r] is the
 * KB/s of column c at file size s and record size r, < 0 when not run
 * (an empty cell). */
void ioz_fmt_csv_auto(FILE *f, const enum ioz_test *cols, size_t ncols, const uint64_t *sizes_kb,
		      size_t nsizes, const uint64_t *recs_kb, size_t nrecs, const double *values);
/* The throughput-mode spreadsheet: one row per test run. */
void ioz_fmt_csv_tp(FILE *f, const enum ioz_test *tests, const double *children, size_t n,
		    unsigned nthreads, uint64_t rec_kb);

/* Auto and single-stream phases are named "<test> <size>k <record>k"
 * ("write 256k 4k").  Returns 1 and fills *t, *size_kb and *rec_kb (any
 * may be NULL) when name is one, else 0. */
int ioz_parse_phase_name(const char *name, enum ioz_test *t, uint64_t *size_kb, uint64_t *rec_kb);
/* A thread's record operation (or its timed parts) by name: "t<N>.<...>";
 * not the untimed "t<N>-fill" nor the timed section "t<N>" itself. */
int ioz_is_thread_op_name(const char *name);

/* fsgauge's summary after iozone's layout: per phase the record
 * operations of every thread together (count, latency percentiles, CPU per
 * operation), the process's CPU and the open flags the engine saw.  With
 * per_test (auto mode's grid of cells), one row per test: its cells'
 * phases ("write 64k 4k", "write 64k 8k", ...) together, latencies merged,
 * CPU over the cells long enough to measure, and a line pointing to the
 * JSON for the cells. */
void ioz_fmt_summary(FILE *f, const struct result *r, int per_test);
/* The cache-honesty warnings (reads from memory, writes the page cache
 * absorbed, implausible rates) of every test, "\tWARNING: 'read 1024k
 * 64k': ..."; with per_test, one line per test and verdict saying in how
 * many of its cells, with the first cell's reason. */
void ioz_fmt_cache_warnings(FILE *f, const struct result *r, int per_test);

#endif
