/*
 * format.h — bonnie's reports, written from measured figures: the
 * text tables of bonnie++ 1.03 and 1.9x and of bonnie-64, and the CSV
 * lines of bonnie++ 1.03, 1.97 and 1.98 (the last is what the
 * bon_csv2html and bon_csv2txt of Debian's bonnie++ 2.00 read).  The
 * layouts and field orders are documented in docs/bonnie.md and
 * tests/fixtures/bonnie-csv-*.txt.
 *
 * Pure formatting, no I/O but the FILE * given: `fsgauge bonnie` (in
 * src/suite/bonnie/bonnie.c) turns its phases into a struct bonnie_report.
 *
 *   struct bonnie_report r = { .machine = "host", .file_size = 200 << 20, ... };
 *   r.t[BT_PUT_BLOCK] = (struct bonnie_figure){ 1, 1.38, 204800, 0.62, 0.0021 };
 *   bonnie_fmt_text(stdout, &r, BONNIE_TXT_103, BONNIE_CSV_103);
 *   bonnie_fmt_csv(stdout, &r, BONNIE_CSV_103);
 */
#ifndef FSGAUGE_SUITE_BONNIE_FORMAT_H
#define FSGAUGE_SUITE_BONNIE_FORMAT_H

#include <stdint.h>
#include <stdio.h>

/* bonnie++'s tests, in its report order. */
enum bonnie_test {
	BT_PUTC,
	BT_PUT_BLOCK,
	BT_REWRITE,
	BT_GETC,
	BT_GET_BLOCK,
	BT_SEEKS,
	BT_SEQ_CREATE,
	BT_SEQ_STAT,
	BT_SEQ_DEL,
	BT_RAN_CREATE,
	BT_RAN_STAT,
	BT_RAN_DEL,
	BT__COUNT
};

/* bonnie++'s reliability rule: a test that took less than half a second
 * is printed as "+++++" (its %CP as "+++"), never as a number — MinTime
 * (0.5 s) in bonnie++'s bonnie.h, and its manual page: "If a test
 * completes in less than 500ms then the output will be displayed as
 * '++++'". */
#define BONNIE_MIN_SECONDS 0.5

struct bonnie_figure {
	int ran;	    /* 0: not run (blank columns) */
	double seconds;	    /* elapsed time of the test */
	double amount;	    /* KiB for the I/O tests, seeks, or files */
	double cpu_seconds; /* process CPU (user + system) during the test */
	double max_latency; /* seconds: the longest single operation; 0 if none */
};

struct bonnie_report {
	const char *machine;
	/* several targets: "@K", the target's number from 1, after the
	 * machine name on its lines and in its CSV field (the name cut to
	 * keep it in the column); "" alone */
	char target[24];
	uint64_t file_size;  /* bytes of the I/O tests; 0 when skipped (-s 0) */
	uint64_t chunk_size; /* bytes per block operation */
	unsigned seeks;	     /* seeks of the seek test, and its processes */
	unsigned seekers;
	unsigned concurrency;
	uint64_t seed;
	unsigned files;	     /* -n number (units of 1024 files); 0 when skipped */
	int64_t max_size;    /* bytes of the created files */
	int64_t min_size;
	unsigned dirs;
	uint64_t file_chunk; /* bytes per write of a created file */
	struct bonnie_figure t[BT__COUNT];
};

enum bonnie_layout {
	BONNIE_TXT_103, /* bonnie++ 1.03: K/sec and %CP */
	BONNIE_TXT_19,	/* bonnie++ 1.9x: plus Concurrency and Latency rows */
	BONNIE_TXT_64,	/* bonnie-64: GB, M/sec and %CPU with a decimal */
};

enum bonnie_csv {
	BONNIE_CSV_NONE,
	BONNIE_CSV_103, /* bonnie++ 1.03: 27 fields, no header line */
	BONNIE_CSV_197, /* bonnie++ 1.97: 48 fields */
	BONNIE_CSV_198, /* bonnie++ 1.98 and 2.00: 50 fields */
};

/* The bonnie++ default block size and seek test. */
#define BONNIE_DEFAULT_CHUNK 8192
#define BONNIE_DEFAULT_SEEKS 8192
#define BONNIE_DEFAULT_SEEKERS 5

/* The test's name in bonnie++'s CSV header ("put_block", "seq_create"). */
const char *bonnie_test_name(enum bonnie_test t);

/* 1 when the test's columns must be "+++++"/"+++" instead of numbers. */
int bonnie_too_fast(const struct bonnie_figure *f);

/* The cells of one test as bonnie++ prints them, for any layout (the
 * text table, the HTML report): the rate (K/sec as a whole number; seeks
 * and files per second), the %CP, and the 1.9x latency ("123us", "45ms",
 * "101s").  Each is "" when the test did not run (and the latency when
 * there is none); a test too fast to measure is "+++++" and "+++", never
 * a number.  buf is the caller's. */
void bonnie_fmt_rate(char *buf, size_t len, const struct bonnie_figure *x, int is_seeks);
void bonnie_fmt_cpu(char *buf, size_t len, const struct bonnie_figure *x);
void bonnie_fmt_latency(char *buf, size_t len, const struct bonnie_figure *x);
/* The "Size" cell ("300M", or "300M:16k" with sep ':' when the block size
 * is not the default) and the files cell ("16", "16:4096:0/10"). */
void bonnie_fmt_size(char *buf, size_t len, const struct bonnie_report *r, char sep);
void bonnie_fmt_files(char *buf, size_t len, const struct bonnie_report *r);

/* A figure rebuilt from what a result recorded (its JSON metrics): the
 * rate per second, the CPU in percent of the elapsed time, the longest
 * operation in seconds (0: none) and whether the test was too fast to
 * measure.  The helpers above then print the recorded values. */
void bonnie_figure_from_rates(struct bonnie_figure *f, double per_second, double cpu_percent,
			      double max_latency, int too_fast);

/* The text table(s) for the tests that ran (the file-creation section of
 * BONNIE_TXT_64 uses the 1.03 layout: bonnie-64 has no such tests).  `c`,
 * the CSV written with it, names BONNIE_TXT_19's version: "1.97" with
 * BONNIE_CSV_197, "1.98" otherwise. */
void bonnie_fmt_text(FILE *f, const struct bonnie_report *r, enum bonnie_layout l,
		     enum bonnie_csv c);
/* The same for n reports of one run (several targets, r[k].target set):
 * each section's header once, then one line per report (in the 1.9x
 * layout each with its Latency row), the files lines named as the I/O
 * lines are.  n == 1 is bonnie_fmt_text(). */
void bonnie_fmt_text_n(FILE *f, const struct bonnie_report *r, size_t n, enum bonnie_layout l,
		       enum bonnie_csv c);
/* One CSV line, with its newline. */
void bonnie_fmt_csv(FILE *f, const struct bonnie_report *r, enum bonnie_csv c);
/* The header line bonnie++ prints before CSV lines with -x (1.97 and
 * 1.98; nothing for 1.03, which has none). */
void bonnie_fmt_csv_header(FILE *f, enum bonnie_csv c);
/* The number of fields of a CSV line. */
int bonnie_csv_fields(enum bonnie_csv c);

#endif
