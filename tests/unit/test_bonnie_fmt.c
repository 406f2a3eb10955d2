/* test_bonnie_fmt.c — unit tests for suite/bonnie/format.c: the tables and
 * CSV lines against bonnie++'s published output (seeds 001 and 004) and
 * the field lists in tests/fixtures/bonnie-csv-*.txt. */
#include "tap.h"
#include "suite/bonnie/format.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* A figure that prints as `rate` and `pct`: two seconds, amounts a hair
 * above so that truncation lands on the printed number. */
static struct bonnie_figure fig(double rate, int pct)
{
	return (struct bonnie_figure){ 1, 2.0, rate * 2.0 + 0.01, pct / 100.0 * 2.0 + 0.001, 0 };
}

static struct bonnie_figure too_fast(void)
{
	return (struct bonnie_figure){ 1, 0.3, 1e9, 0.2, 0.001 };
}

static char *capture_text_csv(const struct bonnie_report *r, enum bonnie_layout l,
			      enum bonnie_csv c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bonnie_fmt_text(f, r, l, c);
	fclose(f);
	return buf;
}

/* the table with the CSV its layout defaults to (1.98 for 1.9x) */
static char *capture_text(const struct bonnie_report *r, enum bonnie_layout l)
{
	return capture_text_csv(r, l, l == BONNIE_TXT_19 ? BONNIE_CSV_198 : BONNIE_CSV_103);
}

static char *capture_csv(const struct bonnie_report *r, enum bonnie_csv c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bonnie_fmt_csv(f, r, c);
	fclose(f);
	return buf;
}

static char *capture_header(enum bonnie_csv c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bonnie_fmt_csv_header(f, c);
	fclose(f);
	return buf;
}

/* Collapse runs of blanks into one space and trim (the seeds lost their
 * column alignment in the mail archive). */
static char *squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	int space = 1;

	for (; *s; s++) {
		int blank = *s == ' ' || *s == '\n' || *s == '\t';

		if (blank && space)
			continue;
		*o++ = blank ? ' ' : *s;
		space = blank;
	}
	if (o > out && o[-1] == ' ')
		o--;
	*o = 0;
	return out;
}

static int fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

/* Seed 001: bonnie++ 1.03 -s200 -n20:10000:10000:10 -f, the single disk. */
static void seed001(struct bonnie_report *r)
{
	memset(r, 0, sizeof(*r));
	r->machine = "mirror";
	r->file_size = 200ull << 20;
	r->chunk_size = BONNIE_DEFAULT_CHUNK;
	r->seeks = BONNIE_DEFAULT_SEEKS;
	r->seekers = BONNIE_DEFAULT_SEEKERS;
	r->concurrency = 1;
	r->seed = 7;
	r->files = 20;
	r->max_size = 10000;
	r->min_size = 10000;
	r->dirs = 10;
	r->file_chunk = BONNIE_DEFAULT_CHUNK;
	r->t[BT_PUT_BLOCK] = fig(144896, 45);
	r->t[BT_REWRITE] = fig(15404, 4);
	r->t[BT_GET_BLOCK] = fig(159673, 9);
	r->t[BT_SEEKS] = (struct bonnie_figure){ 1, 2.0, 16326.4, 0.121, 0 };
	r->t[BT_SEQ_CREATE] = fig(4523, 41);
	r->t[BT_SEQ_STAT] = fig(1976, 6);
	r->t[BT_SEQ_DEL] = too_fast();
	r->t[BT_RAN_CREATE] = fig(6038, 55);
	r->t[BT_RAN_STAT] = fig(408, 1);
	r->t[BT_RAN_DEL] = fig(25162, 99);
}

static void test_103(void)
{
	struct bonnie_report r;
	char *t, *c, *s;

	seed001(&r);
	c = capture_csv(&r, BONNIE_CSV_103);
	is_str(c, "mirror,200M,,,144896,45,15404,4,,,159673,9,8163.2,6,20:10000:10000/10,4523,41,"
		  "1976,6,+++++,+++,6038,55,408,1,25162,99\n",
	       "1.03 CSV equals seed 001's line");
	is_int(fields(c), 27, "1.03 CSV has 27 fields");
	t = capture_text(&r, BONNIE_TXT_103);
	is_str(t,
	       "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
	       "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	       "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
	       "mirror         200M           144896  45 15404   4           159673   9  8163   6\n"
	       "                    ------Sequential Create------ --------Random Create--------\n"
	       "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	       "files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	       "  20:10000:10000/10  4523  41  1976   6 +++++ +++  6038  55   408   1 25162  99\n",
	       "1.03 table in bonnie++ 1.03's columns");
	s = squeeze(t);
	ok(strstr(s, "mirror 200M 144896 45 15404 4 159673 9 8163 6") != NULL,
	   "1.03 table data line equals seed 001's (blanks squeezed)");
	ok(strstr(s, "20:10000:10000/10 4523 41 1976 6 +++++ +++ 6038 55 408 1 25162 99") != NULL,
	   "1.03 file line equals seed 001's");
	free(s);
	free(t);
	free(c);

	/* seeks under 1000/s: one decimal in the table, as seed 001's 669.3 */
	r.t[BT_SEEKS] = (struct bonnie_figure){ 1, 2.0, 1338.6, 0.021, 0 };
	t = capture_text(&r, BONNIE_TXT_103);
	ok(strstr(t, " 669.3   1\n") != NULL, "seeks under 1000/s print one decimal");
	free(t);

	/* a long machine name is cut so the size still fits in 19 columns */
	r.machine = "adsp-sc589-ezkit";
	r.file_size = 424ull << 20;
	t = capture_text(&r, BONNIE_TXT_103);
	ok(strstr(t, "\nadsp-sc589-ezk 424M ") != NULL, "long machine name cut before the size");
	free(t);
	r.file_size = 4ull << 30;
	r.chunk_size = 4096;
	t = capture_text(&r, BONNIE_TXT_103);
	ok(strstr(t, "Machine   Size:chnk K/sec") != NULL, "non-default chunk: Size:chnk header");
	ok(strstr(t, "adsp-sc589-ez 4G:4k ") != NULL, "whole GiB sizes print as G, chunk as k");
	free(t);
	c = capture_csv(&r, BONNIE_CSV_103);
	ok(!strncmp(c, "adsp-sc589-ezkit,4G:4k,", 23), "1.03 CSV: size:chunk in one field");
	free(c);
}

static void test_too_fast(void)
{
	struct bonnie_report r;
	char *t, *c;

	seed001(&r);
	for (int i = 0; i < BT__COUNT; i++)
		r.t[i] = too_fast();
	r.t[BT_SEQ_DEL].seconds = 0.4999;
	ok(bonnie_too_fast(&r.t[BT_SEQ_DEL]), "0.4999 s is under the threshold");
	r.t[BT_RAN_DEL].seconds = 0.5;
	r.t[BT_RAN_DEL].amount = 100;
	ok(!bonnie_too_fast(&r.t[BT_RAN_DEL]), "0.5 s is not");
	r.t[BT_RAN_DEL].seconds = 0.3;
	struct bonnie_figure none = { 0 };

	ok(!bonnie_too_fast(&none), "a test not run is not too fast");
	for (int l = BONNIE_TXT_103; l <= BONNIE_TXT_64; l++) {
		int lines = 0, digits = 0;

		t = capture_text(&r, (enum bonnie_layout)l);
		/* on every line with results, no digit after the first 19
		 * columns (the machine and size, or files, cell) */
		for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
			if (!strstr(line, "+++++"))
				continue;
			lines++;
			for (size_t k = 19; k < strlen(line); k++)
				digits += line[k] >= '0' && line[k] <= '9';
		}
		ok(lines == 2 && digits == 0,
		   "layout %d: tests under 0.5 s print +++++, never a number (%d lines, %d digits)",
		   l, lines, digits);
		free(t);
	}
	for (int v = BONNIE_CSV_103; v <= BONNIE_CSV_198; v++) {
		c = capture_csv(&r, (enum bonnie_csv)v);
		ok(strstr(c, ",+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++") != NULL,
		   "CSV %d: +++++,+++ for every test under 0.5 s", v);
		free(c);
	}
}

static void test_19(void)
{
	struct bonnie_report r;
	char *t, *c;

	seed001(&r);
	r.t[BT_PUT_BLOCK].max_latency = 1.992;
	r.t[BT_REWRITE].max_latency = 2.372;
	r.t[BT_GET_BLOCK].max_latency = 0.0001;
	r.t[BT_SEEKS].max_latency = 0.289;
	r.t[BT_SEQ_CREATE].max_latency = 0.000949;
	r.t[BT_RAN_DEL].max_latency = 120.5;
	t = capture_text_csv(&r, BONNIE_TXT_19, BONNIE_CSV_197);
	ok(strstr(t, "Version  1.97       ------Sequential Output------") == t &&
		   strstr(t, "\nVersion  1.97       ------Sequential Create------") != NULL,
	   "1.9x with the 1.97 CSV: both sections say Version 1.97");
	free(t);
	for (int v = BONNIE_CSV_NONE; v <= BONNIE_CSV_198; v++) {
		if (v == BONNIE_CSV_197)
			continue;
		t = capture_text_csv(&r, BONNIE_TXT_19, (enum bonnie_csv)v);
		ok(strstr(t, "Version  1.98       ------Sequential Output------") == t &&
			   strstr(t, "\nVersion  1.98       ------Sequential Create------") != NULL &&
			   !strstr(t, "1.97"),
		   "1.9x with CSV %d: both sections say Version 1.98, as the 1.98 CSV line", v);
		free(t);
	}
	t = capture_text(&r, BONNIE_TXT_19);
	ok(strstr(t, "Version  1.98       ------Sequential Output------") == t,
	   "1.9x: version line");
	ok(strstr(t, "\nConcurrency   1     -Per Chr-") != NULL, "1.9x: concurrency line");
	ok(strstr(t, "\nLatency                        1992ms    2372ms               100us     289ms\n") !=
		   NULL,
	   "1.9x: latency row of the I/O tests (blank for tests not run)");
	ok(strstr(t, "\nmirror              -Create-- --Read---") != NULL,
	   "1.9x: machine name on the create header");
	ok(strstr(t, "\nLatency               949us") != NULL && strstr(t, "  120s\n") != NULL,
	   "1.9x: latency row of the file tests in us, ms and s");
	free(t);
	c = capture_csv(&r, BONNIE_CSV_197);
	is_int(fields(c), 48, "1.97 CSV has 48 fields");
	ok(!strncmp(c, "1.97,fsgauge,mirror,1,7,200M,,,,144896,45,", 41),
	   "1.97 CSV starts with format, program, machine, concurrency, seed, size, chunk");
	ok(strstr(c, ",8163,6,20,10000,10000,10,,4523,41,") != NULL,
	   "1.97 CSV: seeks without decimals over 1000/s, files, max, min, dirs, chunk");
	ok(strstr(c, ",,1992ms,2372ms,,100us,289ms,949us,") != NULL,
	   "1.97 CSV: latencies, empty for tests not run");
	free(c);
	c = capture_csv(&r, BONNIE_CSV_198);
	is_int(fields(c), 50, "1.98 CSV has 50 fields");
	ok(!strncmp(c, "1.98,fsgauge,mirror,1,7,200M,,8192,5,,,144896,", 46),
	   "1.98 CSV: seeks and seekers after the chunk size");
	free(c);

	/* tests skipped: -s 0 and -n 0 give empty fields, still the count */
	r.file_size = 0;
	for (int v = BONNIE_CSV_103; v <= BONNIE_CSV_198; v++) {
		c = capture_csv(&r, (enum bonnie_csv)v);
		is_int(fields(c), bonnie_csv_fields((enum bonnie_csv)v),
		       "CSV %d without I/O tests: %d fields", v, bonnie_csv_fields((enum bonnie_csv)v));
		free(c);
	}
	r.file_size = 200ull << 20;
	r.files = 0;
	for (int v = BONNIE_CSV_103; v <= BONNIE_CSV_198; v++) {
		c = capture_csv(&r, (enum bonnie_csv)v);
		is_int(fields(c), bonnie_csv_fields((enum bonnie_csv)v),
		       "CSV %d without file tests: %d fields", v, bonnie_csv_fields((enum bonnie_csv)v));
		free(c);
	}
	t = capture_text(&r, BONNIE_TXT_19);
	ok(!strstr(t, "Create"), "no file-test section when -n 0");
	free(t);
}

/* Seed 004: bonnie-64 with -s 5000: "5 97.7 92.8 387.2 40.1 ..." */
static void test_64(void)
{
	struct bonnie_report r;
	char *t, *s;

	memset(&r, 0, sizeof(r));
	r.machine = "";
	r.file_size = 5000ull << 20;
	r.chunk_size = BONNIE_DEFAULT_CHUNK;
	r.concurrency = 1;
	r.t[BT_PUTC] = (struct bonnie_figure){ 1, 10, 97.7 * 1024 * 10 + 1, 9.28 + 0.0001, 0 };
	r.t[BT_PUT_BLOCK] = (struct bonnie_figure){ 1, 10, 387.2 * 1024 * 10 + 1, 4.01 + 0.0001, 0 };
	r.t[BT_REWRITE] = (struct bonnie_figure){ 1, 10, 341.8 * 1024 * 10 + 1, 4.57 + 0.0001, 0 };
	r.t[BT_GETC] = (struct bonnie_figure){ 1, 10, 178.7 * 1024 * 10 + 1, 8.16 + 0.0001, 0 };
	r.t[BT_GET_BLOCK] = (struct bonnie_figure){ 1, 10, 972.4 * 1024 * 10 + 1, 5.47 + 0.0001, 0 };
	r.t[BT_SEEKS] = (struct bonnie_figure){ 1, 10, 3355, 0.15 + 0.0001, 0 };
	t = capture_text(&r, BONNIE_TXT_64);
	ok(strstr(t, "Machine    GB M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU M/sec %CPU  /sec %CPU\n") !=
		   NULL,
	   "bonnie-64 header");
	s = squeeze(strrchr(t, '\n') == t + strlen(t) - 1 ? strstr(t, "%CPU\n") + 5 : t);
	is_str(s, "5 97.7 92.8 387.2 40.1 341.8 45.7 178.7 81.6 972.4 54.7 335 1.5",
	       "bonnie-64 line equals seed 004's first line (blanks squeezed)");
	free(s);
	ok(strstr(t, "\n            5  97.7 92.8 387.2 40.1") != NULL, "bonnie-64 columns");
	free(t);

	/* under 1000 MiB the whole number would be 0; past 99.9% CPU (two
	 * processes, or rounding) and 9999.9 MiB/s one decimal does not fit */
	r.file_size = 600ull << 20;
	r.t[BT_PUTC] = (struct bonnie_figure){ 1, 10, 97.7 * 1024 * 10 + 1, 10.02, 0 };
	r.t[BT_GETC] = (struct bonnie_figure){ 1, 10, 12345.6 * 1024 * 10 + 1, 18.16, 0 };
	t = capture_text(&r, BONNIE_TXT_64);
	s = squeeze(strstr(t, "%CPU\n") + 5);
	is_str(s, "0.6 97.7 100 387.2 40.1 341.8 45.7 12346 182 972.4 54.7 335 1.5",
	       "bonnie-64: 600 MiB is 0.6 GB; 100.2%, 181.6% and 12345.6 MiB/s lose their decimal");
	free(s);
	{
		const char *hdr = strstr(t, "Machine    GB");
		const char *line = strchr(hdr, '\n') + 1;

		is_int((int)(strchr(line, '\n') - line), (int)(strchr(hdr, '\n') - hdr),
		       "bonnie-64: the line is as wide as its header");
		ok(line[13] == ' ' && line[19] == ' ' && line[24] == ' ' && line[30] == ' ',
		   "bonnie-64: the columns start where the header's do");
	}
	free(t);
}

/* The header lines agree with the committed field lists. */
static void test_fixtures(void)
{
	static const struct {
		enum bonnie_csv v;
		const char *path;
	} fx[] = {
		{ BONNIE_CSV_103, "tests/fixtures/bonnie-csv-103.txt" },
		{ BONNIE_CSV_197, "tests/fixtures/bonnie-csv-197.txt" },
		{ BONNIE_CSV_198, "tests/fixtures/bonnie-csv-198.txt" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(fx); i++) {
		FILE *f = fopen(fx[i].path, "r");
		char line[4096], names[4096] = "";

		if (!f) {
			ok(0, "cannot open %s (run from the source tree)", fx[i].path);
			continue;
		}
		while (fgets(line, sizeof(line), f))
			if (line[0] != '#') {
				snprintf(names, sizeof(names), "%s", line);
				break;
			}
		fclose(f);
		is_int(fields(names), bonnie_csv_fields(fx[i].v), "%s: %d field names", fx[i].path,
		       bonnie_csv_fields(fx[i].v));
		if (fx[i].v != BONNIE_CSV_103) {
			char *h = capture_header(fx[i].v);

			is_str(h, names, "header line equals %s", fx[i].path);
			free(h);
		} else {
			char *h = capture_header(fx[i].v);

			is_str(h, "", "1.03 has no header line");
			free(h);
		}
	}
}

/* The cell helpers the HTML report shares with the text table. */
static void test_cells(void)
{
	struct bonnie_figure x = fig(12345.6, 42), none = { 0 }, fast = too_fast(), y;
	struct bonnie_report r = { .file_size = 300 << 20, .chunk_size = BONNIE_DEFAULT_CHUNK,
				   .files = 16, .max_size = 4096, .min_size = 0, .dirs = 10 };
	char b[64];

	bonnie_fmt_rate(b, sizeof(b), &x, 0);
	is_str(b, "12345", "rate: whole K/sec");
	bonnie_fmt_cpu(b, sizeof(b), &x);
	is_str(b, "42", "%%CP: truncated percentage");
	x = fig(345.67, 3);
	bonnie_fmt_rate(b, sizeof(b), &x, 1);
	is_str(b, "345.7", "seeks under 1000: one decimal");
	bonnie_fmt_rate(b, sizeof(b), &fast, 0);
	is_str(b, "+++++", "too fast: +++++");
	bonnie_fmt_cpu(b, sizeof(b), &fast);
	is_str(b, "+++", "too fast: +++");
	bonnie_fmt_rate(b, sizeof(b), &none, 0);
	is_str(b, "", "not run: blank rate");
	bonnie_fmt_cpu(b, sizeof(b), &none);
	is_str(b, "", "not run: blank %%CP");
	bonnie_fmt_latency(b, sizeof(b), &fast);
	is_str(b, "1000us", "latency in us");
	bonnie_fmt_size(b, sizeof(b), &r, ':');
	is_str(b, "300M", "size cell");
	r.chunk_size = 16384;
	bonnie_fmt_size(b, sizeof(b), &r, ':');
	is_str(b, "300M:16k", "size cell with a block size");
	bonnie_fmt_files(b, sizeof(b), &r);
	is_str(b, "16:4096:0/10", "files cell");

	bonnie_figure_from_rates(&y, 98765.4, 55.9, 0.0025, 0);
	bonnie_fmt_rate(b, sizeof(b), &y, 0);
	is_str(b, "98765", "rebuilt figure: the recorded rate");
	bonnie_fmt_cpu(b, sizeof(b), &y);
	is_str(b, "55", "rebuilt figure: the recorded %%CP");
	bonnie_fmt_latency(b, sizeof(b), &y);
	is_str(b, "2500us", "rebuilt figure: the recorded latency");
	bonnie_figure_from_rates(&y, 98765.4, 55.9, 0, 1);
	ok(bonnie_too_fast(&y), "rebuilt too-fast figure is too fast");
	bonnie_fmt_rate(b, sizeof(b), &y, 0);
	is_str(b, "+++++", "rebuilt too-fast figure: no number");
	bonnie_fmt_latency(b, sizeof(b), &y);
	is_str(b, "", "rebuilt figure without latency: blank");
	bonnie_figure_from_rates(&y, 3e12, 1e300, NAN, 0);
	bonnie_fmt_rate(b, sizeof(b), &y, 0);
	is_str(b, "3000000000000", "a rate beyond int prints whole");
	bonnie_fmt_cpu(b, sizeof(b), &y);
	ok(strlen(b) > 0, "an absurd %%CP prints without overflow");
}

/* Several targets: one header per section, a line per target named
 * MACHINE@K, the name cut before "@K" when it does not fit. */
static void test_targets(void)
{
	struct bonnie_report r[2];
	char *buf = NULL, *c;
	size_t len = 0;
	FILE *f;

	seed001(&r[0]);
	seed001(&r[1]);
	strcpy(r[0].target, "@1");
	strcpy(r[1].target, "@2");
	r[1].t[BT_PUT_BLOCK] = fig(100000, 30);
	f = open_memstream(&buf, &len);
	bonnie_fmt_text_n(f, r, 2, BONNIE_TXT_103, BONNIE_CSV_103);
	fclose(f);
	is_str(buf,
	       "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
	       "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	       "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
	       "mirror@1       200M           144896  45 15404   4           159673   9  8163   6\n"
	       "mirror@2       200M           100000  30 15404   4           159673   9  8163   6\n"
	       "                    ------Sequential Create------ --------Random Create--------\n"
	       "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	       "files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	       "@1 20:10000:10000/10  4523  41  1976   6 +++++ +++  6038  55   408   1 25162  99\n"
	       "@2 20:10000:10000/10  4523  41  1976   6 +++++ +++  6038  55   408   1 25162  99\n",
	       "two targets: one header per section, a line each named MACHINE@K (@K whole)");
	free(buf);
	c = capture_csv(&r[1], BONNIE_CSV_103);
	ok(!strncmp(c, "mirror@2,200M,,,100000,30,", 26), "two targets: the CSV line's name is MACHINE@K");
	free(c);
	c = capture_csv(&r[1], BONNIE_CSV_198);
	ok(!strncmp(c, "1.98,fsgauge,mirror@2,1,", 24), "two targets: the 1.98 line's name too");
	free(c);
	r[0].machine = r[1].machine = "averyverylonghostname";
	buf = NULL;
	f = open_memstream(&buf, &len);
	bonnie_fmt_text_n(f, r, 2, BONNIE_TXT_64, BONNIE_CSV_NONE);
	fclose(f);
	ok(strstr(buf, "\naveryv@1 ") && strstr(buf, "\naveryv@2 "),
	   "bonnie-64: a long name is cut before @K, which stays");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	bonnie_fmt_text_n(f, r, 2, BONNIE_TXT_19, BONNIE_CSV_198);
	fclose(f);
	ok(strstr(buf, "\naveryverylon@1 200M ") && strstr(buf, "\naveryverylon@2 200M "),
	   "1.9x: a long name is cut before @K, which stays");
	free(buf);
}

int main(void)
{
	test_cells();
	test_103();
	test_too_fast();
	test_19();
	test_64();
	test_fixtures();
	test_targets();
	is_str(bonnie_test_name(BT_SEQ_CREATE), "seq_create", "test names are the CSV's");
	ok(bonnie_test_name(BT__COUNT) == NULL, "no name past the last test");
	return done_testing();
}
