/*
 * test_data.c — the data patterns, measured the way a file system would
 * see them: write what the runner writes (one buffer, refreshed before
 * every write) to a temporary file, then compress it with the real gzip
 * and zstd, and hash its 4 KiB blocks to measure the dedupe ratio.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/data.h"
#include "tap.h"
#include "util/util.h"

#define TOTAL (16u << 20)

static char tmpl[4096];

/* Write TOTAL bytes as `iosize`-byte writes from one buffer of `bufsz`,
 * refreshed before each write, like flowop.c does. */
static int write_pattern(const char *spec, size_t iosize, size_t bufsz, int random_len)
{
	struct data_pattern p;
	struct rng r;
	unsigned char *buf;
	FILE *f;
	size_t done = 0;

	if (data_pattern_parse(spec, &p) < 0)
		return -1;
	if (posix_memalign((void **)&buf, 4096, bufsz))
		return -1;
	rng_seed(&r, 42, 7);
	data_fill(&p, &r, buf, bufsz);
	f = fopen(tmpl, "w");
	if (!f) {
		free(buf);
		return -1;
	}
	while (done < TOTAL) {
		size_t n = random_len ? 1 + rng_below(&r, iosize) : iosize;

		data_refresh(&p, &r, buf, n);
		fwrite(buf, 1, n, f);
		done += n;
	}
	fclose(f);
	free(buf);
	return 0;
}

static double compressed_ratio(const char *cmd)
{
	char line[8192];
	FILE *p;
	double n = -1;

	snprintf(line, sizeof(line), "%s < '%s' | wc -c", cmd, tmpl);
	p = popen(line, "r");
	if (!p)
		return -1;
	if (fscanf(p, "%lf", &n) != 1)
		n = -1;
	pclose(p);
	return n / (double)TOTAL;
}

/* Fraction of the file's whole 4 KiB blocks that are distinct. */
static double unique_blocks(void)
{
	FILE *f = fopen(tmpl, "r");
	unsigned char b[4096];
	size_t n = 0, cap = TOTAL / 4096 + 1, uniq = 0;
	uint64_t *h = calloc(cap, sizeof(*h));

	if (!f || !h)
		return -1;
	while (fread(b, 1, sizeof(b), f) == sizeof(b) && n < cap) {
		uint64_t x = 0xcbf29ce484222325ull; /* FNV-1a */

		for (size_t i = 0; i < sizeof(b); i++)
			x = (x ^ b[i]) * 0x100000001b3ull;
		h[n++] = x;
	}
	fclose(f);
	qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t i = 0; i < n; i++)
		uniq += i == 0 || h[i] != h[i - 1];
	free(h);
	return n ? (double)uniq / (double)n : -1;
}

static int have(const char *cmd)
{
	char line[256];

	snprintf(line, sizeof(line), "command -v %s >/dev/null 2>&1", cmd);
	return system(line) == 0;
}

static void check_compress(const char *spec, size_t iosize, size_t bufsz, int rlen, double want,
			   double tol, int zstd)
{
	double g, z, zl;

	if (write_pattern(spec, iosize, bufsz, rlen) < 0) {
		ok(0, "%s: write the pattern", spec);
		return;
	}
	g = compressed_ratio("gzip -c");
	is_near(g, want, tol, "%s, %zu-byte writes%s: gzip ratio %.3f", spec, iosize,
		rlen ? " (random lengths)" : "", g);
	if (!zstd)
		return;
	z = compressed_ratio("zstd -q -c");
	is_near(z, want, tol, "%s, %zu-byte writes%s: zstd ratio %.3f", spec, iosize,
		rlen ? " (random lengths)" : "", z);
	zl = compressed_ratio("zstd -q -c --long=27");
	is_near(zl, want, tol, "%s, %zu-byte writes%s: zstd --long=27 ratio %.3f", spec, iosize,
		rlen ? " (random lengths)" : "", zl);
}

int main(void)
{
	struct data_pattern p;
	char name[64];
	const char *tmp = getenv("TMPDIR");
	int fd, zstd;
	static const char *bad[] = { "", "rand", "compress=", "compress=101%", "compress=-1",
				     "dedupe=50%%", "compress=5x", "dedupe=", "zero=1",
				     "compress=99999999999999999999999" };

	/* parsing and names */
	ok(data_pattern_parse("random", &p) == 0 && p.kind == DATA_RANDOM, "parse random");
	ok(data_pattern_parse("zero", &p) == 0 && p.kind == DATA_ZERO, "parse zero");
	ok(data_pattern_parse("compress=40%", &p) == 0 && p.kind == DATA_COMPRESS && p.pct == 40,
	   "parse compress=40%%");
	ok(data_pattern_parse("dedupe=25", &p) == 0 && p.kind == DATA_DEDUPE && p.pct == 25,
	   "parse dedupe=25 (the %% is optional)");
	is_str(data_pattern_name(&p, name, sizeof(name)), "dedupe=25%", "canonical name");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(data_pattern_parse(bad[i], &p) == -EINVAL, "reject '%s'", bad[i]);

	if (!have("gzip")) {
		printf("# gzip missing: skipping the compressor checks\n");
		return done_testing();
	}
	zstd = have("zstd");
	if (!zstd)
		printf("# zstd missing: gzip only\n");
	snprintf(tmpl, sizeof(tmpl), "%s/fsgauge-test-data.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(tmpl);
	if (fd < 0) {
		ok(0, "create a temporary file");
		return done_testing();
	}
	close(fd);

	/* random: incompressible even to a 128 MiB-window compressor, though
	 * every write comes from the same buffer */
	check_compress("random", 8192, 1 << 20, 0, 1.0, 0.01, zstd);
	check_compress("random", 131072, 131072, 0, 1.0, 0.01, zstd);
	check_compress("random", 16384, 1 << 20, 1, 1.0, 0.01, zstd);
	double u;
	write_pattern("random", 8192, 1 << 20, 0);
	u = unique_blocks();
	is_near(u, 1.0, 0.0, "random: every 4 KiB block is unique (%.4f)", u);

	/* zero */
	check_compress("zero", 8192, 1 << 20, 0, 0.0, 0.01, zstd);

	/* compress=N% */
	static const unsigned pcts[] = { 10, 25, 50, 75, 90 };
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		snprintf(name, sizeof(name), "compress=%u%%", pcts[i]);
		check_compress(name, 8192, 1 << 20, 0, pcts[i] / 100.0, 0.05, zstd);
	}
	check_compress("compress=50%", 131072, 131072, 0, 0.5, 0.05, zstd);
	check_compress("compress=50%", 16384, 1 << 20, 1, 0.5, 0.05, zstd);
	check_compress("compress=0%", 8192, 1 << 20, 0, 0.0, 0.01, zstd);
	check_compress("compress=100%", 8192, 1 << 20, 0, 1.0, 0.01, zstd);

	/* dedupe=N%: distinct blocks are the other (100 - N)% plus the pool */
	static const unsigned dd[] = { 0, 25, 50, 90 };
	for (size_t i = 0; i < sizeof(dd) / sizeof(dd[0]); i++) {
		snprintf(name, sizeof(name), "dedupe=%u%%", dd[i]);
		write_pattern(name, 8192, 1 << 20, 0);
		u = unique_blocks();
		is_near(u, 1.0 - dd[i] / 100.0, 0.03, "%s: %.4f of the 4 KiB blocks are distinct",
			name, u);
	}
	write_pattern("dedupe=50%", 65536, 65536, 0);
	u = unique_blocks();
	is_near(u, 0.5, 0.03, "dedupe=50%%, 64 KiB writes: %.4f distinct", u);
	/* the unique blocks of dedupe data are still incompressible */
	check_compress("dedupe=0%", 8192, 1 << 20, 0, 1.0, 0.01, 0);

	unlink(tmpl);
	return done_testing();
}
