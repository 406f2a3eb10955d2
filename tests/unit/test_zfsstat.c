/* test_zfsstat.c — unit tests for stats/zfsstat.c: the kstat parsers, the
 * phase's differences (counters reset or missing: unknown, never
 * garbage), the merge of repeats and the line, on the texts of
 * tests/fixtures/zfs-kstat (written for the tests from OpenZFS's format:
 * see its README) and on constructed ones. */
#include <stdlib.h>
#include <string.h>

#include "stats/zfsstat.h"
#include "tap.h"

#define FIXTURE "tests/fixtures/zfs-kstat"
#define BIT(f) (1ull << (f))

/* The fixture's differences, snapshot 2 - snapshot 1 (its README). */
static const struct {
	enum zfs_field f;
	uint64_t want;
} fixture_delta[] = {
	{ ZFS_ARC_HITS, 1210200 },
	{ ZFS_ARC_MISSES, 23100 },
	{ ZFS_ARC_DD_HITS, 812400 },
	{ ZFS_ARC_DD_MISSES, 9100 },
	{ ZFS_ARC_DM_HITS, 390500 },
	{ ZFS_ARC_DM_MISSES, 13650 },
	{ ZFS_ARC_PD_HITS, 7300 },
	{ ZFS_ARC_PD_MISSES, 350 },
	{ ZFS_ARC_SIZE_START, 3284613120ull },
	{ ZFS_ARC_SIZE, 3328599040ull },
	{ ZFS_ARC_C, 4141876224ull },
	{ ZFS_ARC_C_MAX, 8349724672ull },
	{ ZFS_ZIL_COMMITS, 4210 },
	{ ZFS_ZIL_COMMIT_WRITERS, 2972 },
	{ ZFS_ZIL_ITXS, 6880 },
	{ ZFS_ZIL_INDIRECT_BYTES, 1572864 },
	{ ZFS_ZIL_COPIED_BYTES, 14102528 },
	{ ZFS_ZIL_NEEDCOPY_BYTES, 3932160 },
	{ ZFS_ZIL_NORMAL_BYTES, 18034688 },
	{ ZFS_ZIL_SLOG_BYTES, 0 },
	{ ZFS_POOL_READS, 1600 },
	{ ZFS_POOL_WRITES, 5120 },
	{ ZFS_POOL_BYTES_READ, 52428800 },
	{ ZFS_POOL_BYTES_WRITTEN, 209715200 },
	{ ZFS_DS_READS, 3310 },
	{ ZFS_DS_WRITES, 14020 },
	{ ZFS_DS_BYTES_READ, 13557760 },
	{ ZFS_DS_BYTES_WRITTEN, 57425920 },
};

static void fixture(struct result_zfs *z)
{
	struct zfs_snap a, b;

	zfsstat_sample_root(FIXTURE "/1", "tank/fsg", &a);
	zfsstat_sample_root(FIXTURE "/2", "tank/fsg", &b);
	zfsstat_delta(&a, &b, z);
}

static void test_fixture(void)
{
	struct result_zfs z;
	char line[1024];

	fixture(&z);
	ok(z.present, "the fixture's two snapshots give a ZFS view");
	for (size_t i = 0; i < sizeof(fixture_delta) / sizeof(fixture_delta[0]); i++) {
		enum zfs_field f = fixture_delta[i].f;

		ok((z.have & BIT(f)) && z.v[f] == fixture_delta[i].want, "%s.%s: %llu (want %llu)",
		   zfs_group_name(zfs_fields[f].group), zfs_fields[f].key,
		   (unsigned long long)z.v[f], (unsigned long long)fixture_delta[i].want);
	}
	is_int(z.have, (1ull << ZFS__NFIELDS) - 1, "every field known");
	is_str(z.pool, "tank", "the pool from the dataset's name");
	is_str(z.dataset, "tank/fsg", "the dataset");
	is_str(z.objset, "objset-0x36", "its objset kstat, not tank's objset-0x1");
	is_near(zfsstat_arc_hit_percent(&z), 100.0 * 1210200 / 1233300, 1e-9, "ARC hit share");
	is_int(zfsstat_zil_log_bytes(&z), 18034688, "ZIL log bytes: normal + slog");
	zfsstat_line(&z, NULL, line, sizeof(line));
	is_str(line,
	       "ARC 98.1% hits (1.21M hits, 23,100 misses), size 3.1 GiB of 7.78 GiB; ZIL 4,210 "
	       "commits, 17.2 MiB to the log, 1.5 MiB written indirectly; pool tank: 1,600 reads "
	       "(50 MiB), 5,120 writes (200 MiB); dataset tank/fsg: 3,310 reads (12.9 MiB), "
	       "14,020 writes (54.8 MiB)",
	       "the line");
}

/* Another dataset, none, one on another pool: no pool or dataset figures. */
static void test_fixture_dataset(void)
{
	static const struct {
		const char *dataset, *pool, *objset;
	} cases[] = {
		{ "tank", "tank", "objset-0x1" },
		{ NULL, "", "" },
		{ "tank/none", "tank", "" },
		{ "other/fs", "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct zfs_snap a, b;
		struct result_zfs z;

		zfsstat_sample_root(FIXTURE "/1", cases[i].dataset, &a);
		zfsstat_sample_root(FIXTURE "/2", cases[i].dataset, &b);
		zfsstat_delta(&a, &b, &z);
		ok(z.present && !strcmp(z.pool, cases[i].pool) && !strcmp(z.objset, cases[i].objset) &&
			   !!(z.have & BIT(ZFS_POOL_READS)) == !!cases[i].pool[0] &&
			   !!(z.have & BIT(ZFS_DS_READS)) == !!cases[i].objset[0],
		   "dataset %s: pool '%s', objset '%s'", cases[i].dataset ? cases[i].dataset : "(none)",
		   z.pool, z.objset);
	}
}

#define HDR "11 1 0x01 3 288 9412330771 1816200411772\nname                            type data\n"

/* Parsing named kstats: what counts as a value. */
static void test_parse(void)
{
	static const struct {
		const char *text;
		int found;
		uint64_t hits;
		const char *what;
	} cases[] = {
		{ HDR "hits                            4    123\n"
		      "misses                          4    7\n",
		  2, 123, "two counters" },
		{ HDR "hits                            4    18446744073709551615\n", 1,
		  18446744073709551615ull, "the largest uint64" },
		{ HDR "hits                            4    18446744073709551616\n", 0, 0,
		  "past uint64: skipped" },
		{ HDR "hits                            3    -5\n", 0, 0, "negative: skipped" },
		{ HDR "hits                            7    many\n", 0, 0, "a string: skipped" },
		{ HDR "hits                            4    12x\n", 0, 0, "trailing garbage: skipped" },
		{ HDR "hits                            4\n", 0, 0, "no value: skipped" },
		{ HDR "hits                            4    1 2\n", 0, 0, "two values: skipped" },
		{ HDR "hits_total                      4    9\n", 0, 0, "another name" },
		{ "hits 4 5\n", 0, 0, "no header: nothing" },
		{ HDR "hits\t4\t42\r\n", 1, 42, "tabs and CRLF" },
		{ HDR "hits                            4    5", 1, 5, "no final newline" },
		{ "", 0, 0, "empty" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct zfs_snap s;
		int n;

		memset(&s, 0, sizeof(s));
		n = zfsstat_parse_named(cases[i].text, ZG_ARC, &s);
		ok(n == cases[i].found && (!cases[i].found || !(s.have & BIT(ZFS_ARC_HITS)) ||
					   s.v[ZFS_ARC_HITS] == cases[i].hits),
		   "named: %s (%d found)", cases[i].what, n);
	}
}

static void test_parse_io(void)
{
	static const struct {
		const char *text;
		int found;
		const char *what;
	} cases[] = {
		{ "186 3 0x00 1 80 1 2\nnread    nwritten reads    writes   wtime\n"
		  "100      200      3        4        0\n",
		  4, "names and values" },
		{ "186 3 0x00 1 80 1 2\nwrites reads nwritten nread\n4 3 200 100\n", 4,
		  "another column order" },
		{ "186 3 0x00 1 80 1 2\nnread nwritten reads writes\n100 200 3\n", 0,
		  "a value missing: nothing" },
		{ "186 3 0x00 1 80 1 2\nnread nwritten reads writes\n100 x 3 4\n", 3,
		  "a bad value skipped" },
		{ "186 3 0x00 1 80 1 2\n", 0, "no names" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct zfs_snap s;
		int n;

		memset(&s, 0, sizeof(s));
		n = zfsstat_parse_io(cases[i].text, &s);
		ok(n == cases[i].found && (n < 4 || (s.v[ZFS_POOL_BYTES_READ] == 100 &&
						     s.v[ZFS_POOL_WRITES] == 4)),
		   "io: %s (%d found)", cases[i].what, n);
	}
}

/* The differences: counters reset or missing are unknown. */
static void test_delta(void)
{
	static const struct {
		const char *start, *end;
		int present, hits_known, size_known;
		uint64_t hits;
		const char *what;
	} cases[] = {
		{ HDR "hits 4 100\nsize 4 50\n", HDR "hits 4 160\nsize 4 70\n", 1, 1, 1, 60,
		  "a counter's change, a gauge's end" },
		{ HDR "hits 4 100\nsize 4 50\n", HDR "hits 4 10\nsize 4 70\n", 1, 0, 1, 0,
		  "a counter that went backwards (module reloaded): unknown" },
		{ HDR "size 4 50\n", HDR "hits 4 10\nsize 4 70\n", 1, 0, 1, 0,
		  "missing at the start: unknown" },
		{ HDR "hits 4 10\nsize 4 50\n", HDR "size 4 70\n", 1, 0, 1, 0,
		  "missing at the end: unknown" },
		{ HDR "hits 4 10\n", HDR "hits 4 10\n", 1, 1, 0, 0, "no change: 0, known" },
		{ HDR "hits 4 10\n", NULL, 0, 0, 0, 0, "no end sample: absent" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct zfs_snap a, b;
		struct result_zfs z;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.read = 1;
		zfsstat_parse_named(cases[i].start, ZG_ARC, &a);
		if (cases[i].end) {
			b.read = 1;
			zfsstat_parse_named(cases[i].end, ZG_ARC, &b);
		}
		zfsstat_delta(&a, &b, &z);
		ok(z.present == cases[i].present &&
			   !!(z.have & BIT(ZFS_ARC_HITS)) == cases[i].hits_known &&
			   (!cases[i].hits_known || z.v[ZFS_ARC_HITS] == cases[i].hits) &&
			   !!(z.have & BIT(ZFS_ARC_SIZE)) == cases[i].size_known &&
			   (!cases[i].size_known || z.v[ZFS_ARC_SIZE] == 70),
		   "delta: %s", cases[i].what);
	}
}

static void test_merge_line(void)
{
	struct result_zfs a, b, none;
	struct kvlist env = { 0 };
	char line[1024];

	fixture(&a);
	fixture(&b);
	b.v[ZFS_ARC_SIZE] = 1000;
	b.have &= ~BIT(ZFS_ZIL_ITXS);
	zfsstat_merge(&a, &b);
	ok(a.v[ZFS_ARC_HITS] == 2 * 1210200 && a.v[ZFS_ZIL_COMMITS] == 2 * 4210 &&
		   a.v[ZFS_ARC_SIZE] == 1000 && a.v[ZFS_ARC_SIZE_START] == 3284613120ull &&
		   !(a.have & BIT(ZFS_ZIL_ITXS)) && !strcmp(a.dataset, "tank/fsg"),
	   "merged repeats: counters add, gauges the last run's, a field one run lacks unknown");
	memset(&none, 0, sizeof(none));
	zfsstat_line(&none, NULL, line, sizeof(line));
	is_str(line, "", "no ZFS: no line");
	fixture(&a);
	a.have = BIT(ZFS_ZIL_COMMITS);
	kv_add(&env, "zfs.recordsize", "128K");
	kv_add(&env, "zfs.sync", "standard");
	kv_add(&env, "zfs.logbias", "latency");
	zfsstat_line(&a, &env, line, sizeof(line));
	is_str(line, "ZIL 4,210 commits; properties: recordsize=128K sync=standard logbias=latency",
	       "only what is known, and the dataset's properties");
	a.have = 0;
	zfsstat_line(&a, NULL, line, sizeof(line));
	is_str(line, "no figure known (a counter was reset or missing)", "nothing known");
	kv_free(&env);
}

/* The root from the environment, and its snapshot series: the first
 * sample reads 1/, the second 2/, the later ones 2/ again; a plain root is
 * read as it is. */
static void test_root_series(void)
{
	static const struct {
		const char *root;
		uint64_t commits[3];
		const char *what;
	} cases[] = {
		{ FIXTURE, { 912004, 916214, 916214 }, "a series: 1, 2, then 2 again" },
		{ FIXTURE "/1", { 912004, 912004, 912004 }, "a plain root: itself each time" },
	};

	unsetenv(ZFSSTAT_ROOT_ENV);
	is_str(zfsstat_root(), "/proc/spl/kstat/zfs", "the default root");
	setenv(ZFSSTAT_ROOT_ENV, "", 1);
	is_str(zfsstat_root(), "/proc/spl/kstat/zfs", "an empty variable: the default root");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int good = 1;

		setenv(ZFSSTAT_ROOT_ENV, cases[i].root, 1);
		for (int k = 0; k < 3; k++) {
			struct zfs_snap s;

			zfsstat_sample(NULL, &s);
			good &= s.read && (s.have & BIT(ZFS_ZIL_COMMITS)) &&
				s.v[ZFS_ZIL_COMMITS] == cases[i].commits[k];
		}
		ok(good, "%s", cases[i].what);
	}
	unsetenv(ZFSSTAT_ROOT_ENV);
}

int main(void)
{
	test_fixture();
	test_fixture_dataset();
	test_parse();
	test_parse_io();
	test_delta();
	test_merge_line();
	test_root_series();
	return done_testing();
}
