/*
 * test_preflight.c — the preflight's comparisons (what a run needs
 * against what there is) and their messages, with made-up figures, and
 * the reading of MemAvailable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/preflight.h"
#include "tap.h"

#define MIB (1024.0 * 1024.0)

struct cmp_case {
	const char *name;
	struct preflight_needs n;
	struct preflight_have h;
	int rc;
	const char *msg[3]; /* lines of stderr, in order; NULL: no more */
};

/* Figures that pass every check. */
#define HAVE_PLENTY                                                                        \
	{ .bytes_free = 1e12, .inodes_free = 1e6, .mem_available = 8192 * MIB,             \
	  .nproc_limit = -1, .max_threads = PREFLIGHT_MAX_THREADS }

static const struct cmp_case cmp_cases[] = {
	{ "everything fits",
	  { .bytes = 1e9, .entries = 1000, .memory = 100 * MIB, .threads = 16 },
	  HAVE_PLENTY, 0, { NULL } },
	{ "exactly what there is fits",
	  { .bytes = 1e12, .entries = 1e6, .memory = 8192 * MIB, .threads = 4096 },
	  HAVE_PLENTY, 0, { NULL } },
	{ "space",
	  { .bytes = 2048 * MIB, .what = "the filesets", .lower_space = "lower -s nfiles" },
	  { .bytes_free = 1024 * MIB, .inodes_free = -1, .mem_available = -1, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  -ENOSPC,
	  { "fsgauge: not enough free space for the filesets: 2048.0 MiB needed, '/t' has "
	    "1024.0 MiB free; lower -s nfiles\n" } },
	{ "inodes",
	  { .entries = 1003, .what = "the workload", .lower_inodes = "lower -s nfiles" },
	  { .bytes_free = -1, .inodes_free = 497, .mem_available = -1, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  -ENOSPC,
	  { "fsgauge: not enough free inodes for the workload: 1003 needed, '/t' has 497 free; "
	    "lower -s nfiles\n" } },
	{ "no inode limit (f_files 0): not checked",
	  { .entries = 1e12 },
	  { .bytes_free = -1, .inodes_free = -1, .mem_available = -1, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  0, { NULL } },
	{ "memory, with how it adds up",
	  { .memory = 40960 * MIB, .what = "the workload", .memory_detail = "4096 threads x 10 MiB",
	    .lower_memory = "lower -s nthreads" },
	  { .bytes_free = -1, .inodes_free = -1, .mem_available = 16384 * MIB, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  -ENOMEM,
	  { "fsgauge: not enough memory for the workload: 40.0 GiB needed (4096 threads x 10 "
	    "MiB), 16.0 GiB available (MemAvailable); lower -s nthreads\n" } },
	{ "space in TiB, free in GiB (verify -s 10t)",
	  { .bytes = 4 * 10.0 * MIB * MIB, .what = "4 files of 10t" },
	  { .bytes_free = 81.5 * 1024 * MIB, .inodes_free = -1, .mem_available = -1,
	    .nproc_limit = -1, .max_threads = PREFLIGHT_MAX_THREADS },
	  -ENOSPC,
	  { "fsgauge: not enough free space for 4 files of 10t: 40.0 TiB needed, '/t' has 81.5 GiB "
	    "free; choose another -d\n" } },
	{ "memory unknown: not checked", { .memory = 1e18 },
	  { .bytes_free = -1, .inodes_free = -1, .mem_available = -1, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  0, { NULL } },
	{ "threads over the maximum",
	  { .threads = 4097, .what = "the workload", .threads_detail = "thread 't' x 4097",
	    .lower_threads = "lower -s nthreads" },
	  HAVE_PLENTY, -EAGAIN,
	  { "fsgauge: too many threads for the workload: 4097 needed (thread 't' x 4097), fsgauge "
	    "starts at most 4096 per run; lower -s nthreads\n" } },
	{ "processes count with the threads", { .threads = 4000, .processes = 100 }, HAVE_PLENTY,
	  -EAGAIN, { "fsgauge: too many threads for the run: 4100 needed, fsgauge starts at most" } },
	{ "RLIMIT_NPROC: the threads and the main one",
	  { .threads = 20, .what = "the workload", .lower_threads = "lower -s nthreads" },
	  { .bytes_free = -1, .inodes_free = -1, .mem_available = -1, .nproc_limit = 20,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  -EAGAIN,
	  { "fsgauge: too many threads for the workload: 20 needed and 1 running, the user's "
	    "process limit (RLIMIT_NPROC, ulimit -u) is 20; lower -s nthreads\n" } },
	{ "RLIMIT_NPROC: 19 threads and the main one fit", { .threads = 19 },
	  { .bytes_free = -1, .inodes_free = -1, .mem_available = -1, .nproc_limit = 20,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  0, { NULL } },
	{ "every failure has its line, the first one's errno",
	  { .bytes = 2, .entries = 2, .memory = 2, .threads = 5000 },
	  { .bytes_free = 1, .inodes_free = 1, .mem_available = 1, .nproc_limit = -1,
	    .max_threads = PREFLIGHT_MAX_THREADS },
	  -ENOSPC,
	  { "fsgauge: not enough free space for the run: 0.0 MiB needed, '/t' has 0.0 MiB free; "
	    "choose another -d\n",
	    "fsgauge: not enough free inodes for the run: 2 needed, '/t' has 1 free; choose "
	    "another -d\n",
	    "fsgauge: not enough memory for the run: 0.0 MiB needed, 0.0 MiB available "
	    "(MemAvailable); make the run smaller\n" } },
};

/* Run preflight_compare() with stderr in a temporary file; the caller
 * frees the text. */
static char *compare_captured(const struct cmp_case *c, int *rc)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	char *buf = calloc(1, 8192);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	*rc = preflight_compare(&c->n, &c->h, "/t");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, 8191, tmp);
	buf[n] = 0;
	fclose(tmp);
	return buf;
}

static void test_compare(void)
{
	for (size_t i = 0; i < sizeof(cmp_cases) / sizeof(cmp_cases[0]); i++) {
		const struct cmp_case *c = &cmp_cases[i];
		int rc, lines = 0;
		char *out = compare_captured(c, &rc);
		const char *p = out;

		is_int(rc, c->rc, "%s: returns %d", c->name, c->rc);
		for (size_t j = 0; j < 3 && c->msg[j]; j++) {
			size_t len = strlen(c->msg[j]);

			if (!ok(!strncmp(p, c->msg[j], len), "%s: line %zu", c->name, j + 1))
				printf("#   got  '%s'\n#   want '%s'\n", p, c->msg[j]);
			p = strchr(p, '\n');
			p = p ? p + 1 : "";
		}
		for (const char *q = out; *q; q++)
			lines += *q == '\n';
		if (!c->msg[0])
			is_str(out, "", "%s: says nothing", c->name);
		else if (c->n.threads > PREFLIGHT_MAX_THREADS && c->rc == -ENOSPC)
			is_int(lines, 4, "%s: one line per failed check", c->name);
		free(out);
	}
}

static void test_meminfo(void)
{
	is_int((long long)preflight_meminfo_available("MemTotal:       16000000 kB\n"
						      "MemFree:         1000000 kB\n"
						      "MemAvailable:    8000000 kB\n"),
	       8000000LL * 1024, "MemAvailable read, in bytes");
	ok(preflight_meminfo_available("MemTotal: 1 kB\nMemFree: 1 kB\n") < 0,
	   "no MemAvailable (kernels before 3.14): unknown");
	ok(preflight_meminfo_available("") < 0, "empty: unknown");
}

static void test_have_read(void)
{
	struct preflight_have h;

	preflight_have_read(-1, "/", &h);
	ok(h.bytes_free >= 0, "the root file system's free space is read");
	ok(h.mem_available > 0, "MemAvailable is read on this machine");
	is_int((long long)h.max_threads, PREFLIGHT_MAX_THREADS, "the thread maximum");
	if (getuid() == 0)
		ok(h.nproc_limit < 0, "root: RLIMIT_NPROC not enforced, not checked");
	else
		ok(1, "RLIMIT_NPROC for root # SKIP not root");
	preflight_have_read(-1, "/nonexistent/dir", &h);
	ok(h.bytes_free < 0 && h.inodes_free < 0, "a target that cannot be read: no disk checks");
}

int main(void)
{
	test_compare();
	test_meminfo();
	test_have_read();
	return done_testing();
}
