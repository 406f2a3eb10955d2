/*
 * format.c — bonnie's text tables and CSV lines; see format.h.
 *
 * The layouts follow the published output of bonnie++ 1.03 and 1.9x and
 * of bonnie-64 (columns, widths, "+++++" for tests under half a second,
 * blank columns for tests not run); the code is fsgauge's own.
 */
#include "suite/bonnie/format.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define KIB ((uint64_t)1024)
#define MIB ((uint64_t)1024 * 1024)

static const char *const test_names[BT__COUNT] = {
	[BT_PUTC] = "putc",
	[BT_PUT_BLOCK] = "put_block",
	[BT_REWRITE] = "rewrite",
	[BT_GETC] = "getc",
	[BT_GET_BLOCK] = "get_block",
	[BT_SEEKS] = "seeks",
	[BT_SEQ_CREATE] = "seq_create",
	[BT_SEQ_STAT] = "seq_stat",
	[BT_SEQ_DEL] = "seq_del",
	[BT_RAN_CREATE] = "ran_create",
	[BT_RAN_STAT] = "ran_stat",
	[BT_RAN_DEL] = "ran_del",
};

const char *bonnie_test_name(enum bonnie_test t)
{
	return (unsigned)t < BT__COUNT ? test_names[t] : NULL;
}

int bonnie_too_fast(const struct bonnie_figure *f)
{
	return f->ran && !(f->seconds >= BONNIE_MIN_SECONDS);
}

int bonnie_csv_fields(enum bonnie_csv c)
{
	switch (c) {
	case BONNIE_CSV_103:
		return 27;
	case BONNIE_CSV_197:
		return 48;
	case BONNIE_CSV_198:
		return 50;
	default:
		return 0;
	}
}

/* The file size as bonnie++ writes it: MiB, or GiB when whole ("200M",
 * "4G"); sizes that are not whole MiB (fsgauge accepts units) in KiB. */
static void size_text(char *buf, size_t len, uint64_t bytes)
{
	uint64_t m = bytes / MIB;

	if (bytes % MIB)
		snprintf(buf, len, "%" PRIu64 "K", bytes / KIB);
	else if (m && m % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "G", m / 1024);
	else
		snprintf(buf, len, "%" PRIu64 "M", m);
}

/* A block size as bonnie++ writes it: bytes, "k" or "m" when whole. */
static void chunk_text(char *buf, size_t len, uint64_t bytes)
{
	if (bytes && bytes % MIB == 0)
		snprintf(buf, len, "%" PRIu64 "m", bytes / MIB);
	else if (bytes && bytes % KIB == 0)
		snprintf(buf, len, "%" PRIu64 "k", bytes / KIB);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
}

static double rate(const struct bonnie_figure *f)
{
	return f->seconds > 0 ? f->amount / f->seconds : 0;
}

static int cpu_pct(const struct bonnie_figure *f)
{
	/* bonnie++: CPU time over elapsed time, truncated */
	return f->seconds > 0 ? (int)(f->cpu_seconds / f->seconds * 100.0) : 0;
}

void bonnie_fmt_rate(char *buf, size_t len, const struct bonnie_figure *x, int is_seeks)
{
	double v = rate(x);

	if (!x->ran)
		snprintf(buf, len, "%s", "");
	else if (bonnie_too_fast(x))
		snprintf(buf, len, "%s", "+++++");
	else if (is_seeks)
		snprintf(buf, len, v >= 1000.0 ? "%.0f" : "%.1f", v);
	else /* truncated, as bonnie++ (without overflowing an int) */
		snprintf(buf, len, "%.0f", trunc(v));
}

void bonnie_fmt_cpu(char *buf, size_t len, const struct bonnie_figure *x)
{
	if (!x->ran)
		snprintf(buf, len, "%s", "");
	else if (bonnie_too_fast(x))
		snprintf(buf, len, "%s", "+++");
	else
		snprintf(buf, len, "%.0f",
			 x->seconds > 0 ? trunc(x->cpu_seconds / x->seconds * 100.0) : 0.0);
}

void bonnie_figure_from_rates(struct bonnie_figure *f, double per_second, double cpu_percent,
			      double max_latency, int too_fast)
{
	/* one second of the recorded rate; none when it was too short to
	 * measure, so that nothing can print a number for it */
	f->ran = 1;
	f->seconds = too_fast ? 0 : 1;
	f->amount = too_fast ? 0 : per_second;
	f->cpu_seconds = too_fast ? 0 : cpu_percent / 100.0;
	f->max_latency = max_latency > 0 ? max_latency : 0;
}

/* One test's two text columns: rate and %CP (blank when not run). */
static void txt_stat(FILE *f, const struct bonnie_figure *x, int is_seeks)
{
	char v[32], c[16];

	bonnie_fmt_rate(v, sizeof(v), x, is_seeks);
	bonnie_fmt_cpu(c, sizeof(c), x);
	fprintf(f, " %5s %3s", v, c);
}

/* One test's two CSV fields (each with its leading comma). */
static void csv_stat(FILE *f, const struct bonnie_figure *x, int is_seeks, int seeks_one_decimal)
{
	double v = rate(x);

	if (!x->ran) {
		fputs(",,", f);
		return;
	}
	if (bonnie_too_fast(x)) {
		fputs(",+++++,+++", f);
		return;
	}
	if (is_seeks)
		fprintf(f, seeks_one_decimal || v < 1000.0 ? ",%.1f" : ",%.0f", v);
	else
		fprintf(f, ",%d", (int)v);
	fprintf(f, ",%d", cpu_pct(x));
}

void bonnie_fmt_latency(char *buf, size_t len, const struct bonnie_figure *x)
{
	double s = x->max_latency;

	if (!x->ran || !(s > 0))
		buf[0] = 0;
	else if (s > 99.999999)
		snprintf(buf, len, "%ds", (int)s);
	else if (s > 0.099999)
		snprintf(buf, len, "%dms", (int)(s * 1000.0));
	else
		snprintf(buf, len, "%dus", (int)(s * 1000000.0));
}

void bonnie_fmt_size(char *buf, size_t len, const struct bonnie_report *r, char sep)
{
	char s[32], c[32];

	size_text(s, sizeof(s), r->file_size);
	if (r->chunk_size != BONNIE_DEFAULT_CHUNK) {
		chunk_text(c, sizeof(c), r->chunk_size);
		snprintf(buf, len, "%s%c%s", s, sep, c);
	} else {
		snprintf(buf, len, "%s", s);
	}
}

/* The line's name in `width` columns at most: the machine name, cut so
 * that the target's "@K" (several targets) stays whole after it. */
static void line_name(char *buf, size_t len, const struct bonnie_report *r, int width)
{
	int keep = width - (int)strlen(r->target);

	snprintf(buf, len, "%.*s%s", keep > 0 ? keep : 0, r->machine, r->target);
}

/* The first 19 columns of a line: its name, cut so that a space and the
 * cell fit, and the cell (the size, or the files) at the right.  A
 * target's "@K" is never cut: a long files cell then pushes the line. */
static void machine_size(FILE *f, const struct bonnie_report *r, const char *size)
{
	char name[64];
	int keep = 18 - (int)strlen(size), least = (int)strlen(r->target);

	if (keep < least)
		keep = least;
	line_name(name, sizeof(name), r, keep);
	if (keep > 0)
		fprintf(f, "%-*.*s %s", keep, keep, name, size);
	else
		fputs(size, f);
}

void bonnie_fmt_files(char *buf, size_t len, const struct bonnie_report *r)
{
	int n = snprintf(buf, len, "%u", r->files);

	if (r->max_size && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ":%" PRId64 ":%" PRId64, r->max_size,
			      r->min_size);
	if (r->dirs > 1 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "/%u", r->dirs);
}

static const char *files_header(const struct bonnie_report *r)
{
	if (r->min_size)
		return "files:max:min       ";
	if (r->max_size)
		return "files:max           ";
	return "              files ";
}

static void latency_row(FILE *f, const struct bonnie_report *r, int from, int to)
{
	char b[16];

	fputs("Latency          ", f);
	for (int i = from; i < to; i++) {
		bonnie_fmt_latency(b, sizeof(b), &r->t[i]);
		fprintf(f, " %9s", b);
	}
	fputc('\n', f);
}

static void txt_io_19(FILE *f, const struct bonnie_report *r, size_t n, const char *version)
{
	char size[64];

	fprintf(f, "Version %5s       ------Sequential Output------ --Sequential Input- --Random-\n",
		version);
	fprintf(f, "Concurrency %3u     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n",
		r->concurrency);
	fputs(r->chunk_size == BONNIE_DEFAULT_CHUNK ? "Machine        Size " : "Machine   Size:chnk ",
	      f);
	fputs("K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n", f);
	for (size_t k = 0; k < n; k++) {
		bonnie_fmt_size(size, sizeof(size), &r[k], ':');
		machine_size(f, &r[k], size);
		for (int i = BT_PUTC; i <= BT_SEEKS; i++)
			txt_stat(f, &r[k].t[i], i == BT_SEEKS);
		fputc('\n', f);
		latency_row(f, &r[k], BT_PUTC, BT_SEEKS + 1);
	}
}

static void txt_io_103(FILE *f, const struct bonnie_report *r, size_t n)
{
	char size[64];

	fputs("Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n", f);
	fputs("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n", f);
	fputs(r->chunk_size == BONNIE_DEFAULT_CHUNK ? "Machine        Size " : "Machine   Size:chnk ",
	      f);
	fputs("K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n", f);
	for (size_t k = 0; k < n; k++) {
		bonnie_fmt_size(size, sizeof(size), &r[k], ':');
		machine_size(f, &r[k], size);
		for (int i = BT_PUTC; i <= BT_SEEKS; i++)
			txt_stat(f, &r[k].t[i], i == BT_SEEKS);
		fputc('\n', f);
	}
}

/* A bonnie-64 number in `width` columns: one decimal while it fits, none
 * past that (100% CPU, 10 GiB/s from the page cache), so that a large
 * value never pushes the columns after it. */
static void num_64(FILE *f, double v, int width)
{
	char b[32];

	snprintf(b, sizeof(b), "%.1f", v);
	if ((int)strlen(b) > width)
		snprintf(b, sizeof(b), "%.0f", v);
	fprintf(f, " %*s", width, b);
}

/* bonnie-64: "GB" is the size in MiB divided by 1000, as bonnie-64
 * prints it (a whole number: 5000 MiB is 5), with one decimal under
 * 1000 MiB (two under 100), where the whole number would say 0; rates in MiB/s and %CPU
 * with one decimal while they fit their columns. */
static void txt_io_64(FILE *f, const struct bonnie_report *rs, size_t n)
{
	uint64_t mib = rs->file_size / MIB;

	fputs("              -------Sequential Output-------- ---Sequential Input-- --Random--\n", f);
	fputs("              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n", f);
	fputs("Machine    GB M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU  /sec %CPU\n", f);
	for (size_t k = 0; k < n; k++) {
		const struct bonnie_report *r = &rs[k];
		char name[64];

		line_name(name, sizeof(name), r, 8);
		if (mib >= 1000)
			fprintf(f, "%-8.8s %4" PRIu64, name, mib / 1000);
		else
			fprintf(f, "%-8.8s %4.*f", name, mib >= 100 ? 1 : 2, (double)mib / 1000.0);
		for (int i = BT_PUTC; i <= BT_SEEKS; i++) {
			const struct bonnie_figure *x = &r->t[i];
			double pct = x->seconds > 0 ? x->cpu_seconds / x->seconds * 100.0 : 0;

			if (!x->ran) {
				fputs("           ", f);
				continue;
			}
			if (bonnie_too_fast(x)) {
				fputs(" +++++ ++++", f);
				continue;
			}
			if (i == BT_SEEKS)
				fprintf(f, " %5d", (int)rate(x));
			else
				num_64(f, rate(x) / 1024.0, 5);
			num_64(f, pct, 4);
		}
		fputc('\n', f);
	}
}

/* The 1.9x tables name the CSV format they come with: bonnie++ 1.97
 * printed "Version 1.97" over a 1.97 line, 1.98 "Version 1.98" over a
 * 1.98 line (2.00 prints its own release, 2.00a, over a 1.98 line: the
 * CSV's first field is the format, not the program). */
static const char *version_19(enum bonnie_csv c)
{
	return c == BONNIE_CSV_197 ? "1.97" : "1.98";
}

static void txt_files(FILE *f, const struct bonnie_report *r, size_t n, enum bonnie_layout l,
		      enum bonnie_csv c)
{
	char files[128];

	if (l == BONNIE_TXT_19) {
		fprintf(f,
			"Version %5s       ------Sequential Create------ --------Random Create--------\n",
			version_19(c));
		fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
			r->machine);
	} else {
		fputs("                    ------Sequential Create------ --------Random Create--------\n",
		      f);
		fputs("                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
		      f);
	}
	fputs(files_header(r), f);
	fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", f);
	for (size_t k = 0; k < n; k++) {
		bonnie_fmt_files(files, sizeof(files), &r[k]);
		/* alone, bonnie++'s line: the files at the right; several
		 * targets: named as the I/O lines */
		if (r[k].target[0])
			machine_size(f, &r[k], files);
		else
			fprintf(f, "%19s", files);
		for (int i = BT_SEQ_CREATE; i < BT__COUNT; i++)
			txt_stat(f, &r[k].t[i], 0);
		fputc('\n', f);
		if (l == BONNIE_TXT_19)
			latency_row(f, &r[k], BT_SEQ_CREATE, BT__COUNT);
	}
}

void bonnie_fmt_text_n(FILE *f, const struct bonnie_report *r, size_t n, enum bonnie_layout l,
		       enum bonnie_csv c)
{
	if (!n)
		return;
	if (r->file_size) {
		if (l == BONNIE_TXT_19)
			txt_io_19(f, r, n, version_19(c));
		else if (l == BONNIE_TXT_64)
			txt_io_64(f, r, n);
		else
			txt_io_103(f, r, n);
	}
	if (r->files)
		txt_files(f, r, n, l, c);
}

void bonnie_fmt_text(FILE *f, const struct bonnie_report *r, enum bonnie_layout l,
		     enum bonnie_csv c)
{
	bonnie_fmt_text_n(f, r, 1, l, c);
}

static void csv_103(FILE *f, const struct bonnie_report *r)
{
	char size[64], files[128];

	fprintf(f, "%s%s", r->machine, r->target);
	if (r->file_size) {
		bonnie_fmt_size(size, sizeof(size), r, ':');
		fprintf(f, ",%s", size);
	} else {
		fputc(',', f);
	}
	for (int i = BT_PUTC; i <= BT_SEEKS; i++)
		csv_stat(f, &r->t[i], i == BT_SEEKS, 1);
	if (r->files) {
		bonnie_fmt_files(files, sizeof(files), r);
		fprintf(f, ",%s", files);
	} else {
		fputc(',', f);
	}
	for (int i = BT_SEQ_CREATE; i < BT__COUNT; i++)
		csv_stat(f, &r->t[i], 0, 0);
	fputc('\n', f);
}

/* 1.97 and 1.98: the fields in the order of bonnie++'s header line and
 * of bon_csv2html's manual page (bonnie++ 2.00 itself puts num_dirs in
 * the file_chunk_size column; we follow the documented order). */
static void csv_19(FILE *f, const struct bonnie_report *r, enum bonnie_csv c)
{
	char size[32], chunk[32], b[32];

	fprintf(f, "%s,fsgauge,%s%s,%u,%" PRIu64, c == BONNIE_CSV_198 ? "1.98" : "1.97",
		r->machine, r->target, r->concurrency, r->seed);
	if (r->file_size) {
		size_text(size, sizeof(size), r->file_size);
		chunk_text(chunk, sizeof(chunk), r->chunk_size);
		fprintf(f, ",%s,%s", size, r->chunk_size == BONNIE_DEFAULT_CHUNK ? "" : chunk);
		if (c == BONNIE_CSV_198)
			fprintf(f, ",%u,%u", r->seeks, r->seekers);
	} else {
		fputs(c == BONNIE_CSV_198 ? ",,,," : ",,", f);
	}
	for (int i = BT_PUTC; i <= BT_SEEKS; i++)
		csv_stat(f, &r->t[i], i == BT_SEEKS, 0);
	if (r->files) {
		fprintf(f, ",%u", r->files);
		if (r->max_size)
			fprintf(f, ",%" PRId64, r->max_size);
		else
			fputc(',', f);
		if (r->min_size)
			fprintf(f, ",%" PRId64, r->min_size);
		else
			fputc(',', f);
		if (r->dirs > 1)
			fprintf(f, ",%u", r->dirs);
		else
			fputc(',', f);
		chunk_text(chunk, sizeof(chunk), r->file_chunk);
		fprintf(f, ",%s", r->file_chunk == BONNIE_DEFAULT_CHUNK ? "" : chunk);
	} else {
		fputs(",,,,,", f);
	}
	for (int i = BT_SEQ_CREATE; i < BT__COUNT; i++)
		csv_stat(f, &r->t[i], 0, 0);
	for (int i = 0; i < BT__COUNT; i++) {
		bonnie_fmt_latency(b, sizeof(b), &r->t[i]);
		fprintf(f, ",%s", b);
	}
	fputc('\n', f);
}

void bonnie_fmt_csv(FILE *f, const struct bonnie_report *r, enum bonnie_csv c)
{
	if (c == BONNIE_CSV_103)
		csv_103(f, r);
	else if (c == BONNIE_CSV_197 || c == BONNIE_CSV_198)
		csv_19(f, r, c);
}

void bonnie_fmt_csv_header(FILE *f, enum bonnie_csv c)
{
	if (c != BONNIE_CSV_197 && c != BONNIE_CSV_198)
		return;
	fputs("format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size", f);
	if (c == BONNIE_CSV_198)
		fputs(",seeks,seek_proc_count", f);
	fputs(",putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu"
	      ",get_block,get_block_cpu,seeks,seeks_cpu"
	      ",num_files,max_size,min_size,num_dirs,file_chunk_size"
	      ",seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu"
	      ",ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu"
	      ",putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency"
	      ",seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency"
	      ",ran_create_latency,ran_stat_latency,ran_del_latency\n",
	      f);
}
