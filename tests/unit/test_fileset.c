/* test_fileset.c — unit tests for runner/fileset.c: the layout's paths
 * (entries, leaf directories, intermediate directories, a `define file`,
 * and buffers too small for them), the selection lists under random
 * picks, claims and releases, where entries' system calls resolve from
 * (fileset_at), and leaf directories with the entries their names give
 * (for passes in the order a directory lists them). */
#include "tap.h"
#include "runner/fileset.h"
#include "workload/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/rand.h"

static struct wl_val ival(int64_t v)
{
	struct wl_val x;

	memset(&x, 0, sizeof(x));
	x.kind = WLV_INT;
	x.i = v;
	return x;
}

static void init(struct rt_fileset *fs, struct wl_fileset *def, const char *name, int is_file,
		 int64_t entries, int64_t width, int64_t leafdirs)
{
	memset(def, 0, sizeof(*def));
	def->name = (char *)name;
	def->is_file = is_file;
	def->entries = ival(entries);
	def->dirwidth = ival(width);
	def->size = ival(1024);
	if (leafdirs)
		def->leafdirs = ival(leafdirs);
	ok(fileset_init(fs, def, name, 1) == 0, "fileset_init %s", name);
}

static void test_entries(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	char buf[256];

	/* 200 entries, 3 per directory: 3^5 >= 200, so four directory levels
	 * above the files; entry i sits under the base-3 digits of i / 3 */
	init(&fs, &def, "fs", 0, 200, 3, 0);
	is_int(fileset_entry_path(&fs, 0, buf, sizeof(buf)), (int)strlen("fs/d0/d0/d0/d0/f0"),
	       "entry 0: length");
	is_str(buf, "fs/d0/d0/d0/d0/f0", "entry 0");
	fileset_entry_path(&fs, 5, buf, sizeof(buf));
	is_str(buf, "fs/d0/d0/d0/d1/f5", "entry 5: 5 / 3 = 1");
	fileset_entry_path(&fs, 199, buf, sizeof(buf));
	is_str(buf, "fs/d2/d1/d1/d0/f199", "entry 199: 199 / 3 = 66 = 2110 in base 3");
	fileset_entry_path(&fs, 1234567890123ull, buf, sizeof(buf));
	ok(strstr(buf, "/f1234567890123") != NULL, "a 13-digit index is written in full");

	/* a buffer just too small, and one just large enough (with the NUL) */
	size_t need = strlen("fs/d2/d1/d1/d0/f199");

	is_int(fileset_entry_path(&fs, 199, buf, need), -ENAMETOOLONG,
	       "a buffer without room for the NUL: -ENAMETOOLONG");
	is_int(fileset_entry_path(&fs, 199, buf, need + 1), (int)need, "room for the NUL: fits");
	is_int(fileset_entry_path(&fs, 199, buf, 4), -ENAMETOOLONG,
	       "too small for the directories: -ENAMETOOLONG");
	is_int(fileset_entry_path(&fs, 199, buf, 2), -ENAMETOOLONG,
	       "too small for the fileset's own path: -ENAMETOOLONG");

	/* intermediate directories: parents before children */
	is_int(fileset_dir_path(&fs, 0, buf, sizeof(buf)), 5, "directory 0: length");
	is_str(buf, "fs/d0", "directory 0 is a top-level one");
	fileset_dir_path(&fs, 2, buf, sizeof(buf));
	is_str(buf, "fs/d2", "directory 2: the last top-level one");
	fileset_dir_path(&fs, 3, buf, sizeof(buf));
	is_str(buf, "fs/d0/d0", "directory 3: the first of the second level");
	is_int(fileset_dir_path(&fs, 3, buf, 3), -ENAMETOOLONG, "directory path too long");
	fileset_free(&fs);

	/* one level: every entry directly in the fileset's directory */
	init(&fs, &def, "flat", 0, 10, 1000, 0);
	fileset_entry_path(&fs, 7, buf, sizeof(buf));
	is_str(buf, "flat/f7", "a flat fileset");
	fileset_free(&fs);

	/* numbers are written two digits at a time: every index with one to
	 * six digits as printf writes it */
	char want[64];
	uint64_t bad = UINT64_MAX;

	init(&fs, &def, "flat", 0, 1000000, 2000000, 0);
	for (uint64_t i = 0; i < fs.n && bad == UINT64_MAX; i++) {
		snprintf(want, sizeof(want), "flat/f%llu", (unsigned long long)i);
		if (fileset_entry_path(&fs, i, buf, sizeof(buf)) != (int)strlen(want) ||
		    strcmp(buf, want))
			bad = i;
	}
	ok(bad == UINT64_MAX, "entries 0 to 999999 named as printf names them (first wrong: %llu)",
	   (unsigned long long)bad);
	fileset_free(&fs);
}

/* A named flat fileset (fio's filename_format): entry i is names[i],
 * beside the fileset's relpath (in its directory), files or directories. */
static void test_named(void)
{
	char *names[] = { "chain.0.0", "x", "$odd name" };
	struct wl_fileset def;
	struct rt_fileset fs;
	char buf[64];

	init(&fs, &def, "create.0", 0, 3, 0, 0);
	fileset_free(&fs);
	def.flat = 1;
	def.names = names;
	def.nnames = 3;
	ok(fileset_init(&fs, &def, "create.0", 1) == 0, "fileset_init, named");
	is_int(fileset_entry_path(&fs, 0, buf, sizeof(buf)), 9, "entry 0: length");
	is_str(buf, "chain.0.0", "entry 0: its name, in the run directory");
	fileset_entry_path(&fs, 2, buf, sizeof(buf));
	is_str(buf, "$odd name", "entry 2: its name as given");
	is_int(fileset_entry_path(&fs, 0, buf, 9), -ENAMETOOLONG,
	       "no room for the NUL: -ENAMETOOLONG");
	fileset_free(&fs);

	ok(fileset_init(&fs, &def, "sub/dir/create.0", 1) == 0,
	   "fileset_init, named, below a path");
	fileset_entry_path(&fs, 1, buf, sizeof(buf));
	is_str(buf, "sub/dir/x", "entry 1: beside the fileset's relpath");
	fileset_free(&fs);

	def.nnames = 2; /* not one per entry: the default names */
	ok(fileset_init(&fs, &def, "create.0", 1) == 0, "fileset_init, names not one per entry");
	fileset_entry_path(&fs, 2, buf, sizeof(buf));
	is_str(buf, "create.0.2", "entry 2: <relpath>.<i>");
	fileset_free(&fs);

	def.nnames = 3;
	def.leafdirs = ival(3);
	ok(fileset_init(&fs, &def, "create.0", 1) == 0, "fileset_init, named directories");
	ok(fs.leafdirs && fs.n == 3, "three directories");
	fileset_entry_path(&fs, 1, buf, sizeof(buf));
	is_str(buf, "x", "directory 1: its name");
	fileset_free(&fs);
}

static void test_leafdirs_and_file(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	char buf[64];

	init(&fs, &def, "ld", 0, 0, 100, 30);
	fileset_entry_path(&fs, 29, buf, sizeof(buf));
	is_str(buf, "ld/l29", "a leaf directory is named l<index>");
	fileset_free(&fs);

	init(&fs, &def, "sub/data", 1, 1, 0, 0);
	is_int(fileset_entry_path(&fs, 0, buf, sizeof(buf)), 8, "define file: its own path");
	is_str(buf, "sub/data", "define file: no directories, no index");
	is_int(fileset_entry_path(&fs, 0, buf, 8), -ENAMETOOLONG, "define file: too long");
	fileset_free(&fs);
}

/* Held entries, and only they, are FSE_BUSY; an entry's open count is
 * the opens[] the test keeps (none when NULL); an entry is listed in
 * avail[x] once when FSE_IN(x) says so, else not at all; every entry
 * neither held nor open is listed in the list of its state; navail[x]
 * counts those, and nexist the existing entries. */
static int selection_consistent_opens(const struct rt_fileset *fs, const int *held,
				      const unsigned *opens)
{
	uint64_t nexist = 0, navail[2] = { 0, 0 };
	unsigned listed[2][64] = { { 0 } };

	if (fs->n > 64)
		return 0;
	for (int x = 0; x < 2; x++)
		for (uint32_t p = 0; p < fs->avail[x].n; p++) {
			if (fs->avail[x].v[p] >= fs->n)
				return 0;
			listed[x][fs->avail[x].v[p]]++;
		}
	for (uint64_t i = 0; i < fs->n; i++) {
		uint32_t st = fs->e[i].state;
		int x = !!(st & FSE_EXISTS);

		nexist += (uint64_t)x;
		if (!!held[i] != !!(st & FSE_BUSY))
			return 0;
		if ((st & FSE_OPENS) / FSE_OPEN1 != (opens ? opens[i] : 0))
			return 0;
		for (int y = 0; y < 2; y++)
			if (listed[y][i] != !!(st & FSE_IN(y)))
				return 0;
		if (!held[i] && !(st & FSE_OPENS)) {
			navail[x]++;
			if (!listed[x][i])
				return 0;
		}
	}
	return nexist == fs->nexist && navail[0] == fs->navail[0] && navail[1] == fs->navail[1];
}

static int selection_consistent(const struct rt_fileset *fs, const int *held)
{
	return selection_consistent_opens(fs, held, NULL);
}

/* Open descriptors, as the runner counts them: an open file is not held,
 * so other threads may share it (fileset_share), while a pick for a
 * delete or a new open never takes it; with its last close it is
 * available again. */
static void test_opens(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	struct rng r;
	int held[40] = { 0 }, consistent = 1, share_ok = 1;
	unsigned opens[40] = { 0 }, shares = 0, closes = 0, max_open = 0;

	init(&fs, &def, "opens", 0, 1, 1000, 0);
	fs.e[0].state = FSE_EXISTS;
	fileset_index(&fs);
	rng_seed(&r, 11, 0);
	is_int(fileset_share(&fs, &r), -1, "one file, not open: nothing to share");
	is_int(fileset_pick(&fs, PICK_EXISTING, &r), 0, "one file: picked to be opened");
	fileset_open_held(&fs, 0);
	is_int(fileset_pick(&fs, PICK_EXISTING, &r), -1, "open: not picked again (a delete waits)");
	is_int(fileset_claim(&fs, 0, PICK_EXISTING), 0, "open: not claimed either");
	is_int(fileset_share(&fs, &r), 0, "open: shared by a second thread");
	is_int(fileset_share(&fs, &r), 0, "and a third");
	opens[0] = 3;
	ok(selection_consistent_opens(&fs, held, opens), "three opens counted, not available");
	fileset_close(&fs, 0);
	fileset_close(&fs, 0);
	is_int(fileset_pick(&fs, PICK_EXISTING, &r), -1, "still open once: not available");
	fileset_close(&fs, 0);
	opens[0] = 0;
	ok(selection_consistent_opens(&fs, held, opens), "last close: available again");
	is_int(fileset_pick(&fs, PICK_EXISTING, &r), 0, "and picked");
	fileset_release(&fs, 0, 1);
	fileset_free(&fs);

	/* random opens, shares, closes, picks and releases on 40 entries */
	init(&fs, &def, "opens", 0, 40, 1000, 0);
	for (uint64_t i = 0; i < fs.n; i += 2)
		fs.e[i].state = FSE_EXISTS;
	fileset_index(&fs);
	for (int k = 0; k < 20000 && consistent; k++) {
		uint64_t i = rng_below(&r, fs.n);
		int64_t j;

		switch (rng_below(&r, 5)) {
		case 0: /* open: pick, then the hold becomes an open */
			j = fileset_pick(&fs, PICK_EXISTING, &r);
			if (j >= 0) {
				fileset_open_held(&fs, (uint64_t)j);
				opens[j]++;
			}
			break;
		case 1: /* share one that is open */
			j = fileset_share(&fs, &r);
			if (j >= 0) {
				share_ok &= opens[j] > 0 && !held[j];
				opens[j]++;
				shares++;
			}
			break;
		case 2: /* close */
			if (opens[i]) {
				fileset_close(&fs, i);
				opens[i]--;
				closes++;
			}
			break;
		case 3: /* pick for a delete or create: never an open one */
			j = fileset_pick(&fs, rng_below(&r, 2) ? PICK_EXISTING : PICK_NONEXISTENT, &r);
			if (j >= 0) {
				share_ok &= !opens[j];
				held[j] = 1;
			}
			break;
		default:
			if (held[i]) {
				fileset_release(&fs, i, (int)rng_below(&r, 2));
				held[i] = 0;
			}
			break;
		}
		for (uint64_t e = 0; e < fs.n; e++)
			max_open = opens[e] > max_open ? opens[e] : max_open;
		consistent = selection_consistent_opens(&fs, held, opens);
	}
	ok(consistent, "20000 random opens, shares, closes, picks and releases stay consistent");
	ok(share_ok, "only open, unheld files are shared; open ones are never picked");
	ok(shares > 100 && closes > 100 && max_open > 1,
	   "the sequence shared files (%u shares, %u closes, up to %u opens)", shares, closes,
	   max_open);
	fileset_free(&fs);
}

static void test_selection(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	struct rng r;
	int held[40] = { 0 }, consistent = 1, exists_ok = 1, twice = 0;
	unsigned picks[2] = { 0, 0 }, claims = 0;

	init(&fs, &def, "sel", 0, 40, 1000, 0);
	for (uint64_t i = 0; i < fs.n; i += 3) /* a third exist, as if preallocated */
		fs.e[i].state = FSE_EXISTS;
	fileset_index(&fs);
	ok(selection_consistent(&fs, held), "after indexing: every entry in its list");
	rng_seed(&r, 7, 0);
	for (int k = 0; k < 20000 && consistent; k++) {
		uint64_t i = rng_below(&r, fs.n);

		switch (rng_below(&r, 4)) {
		case 0: /* pick, as createfile (free) or deletefile (existing) */
		case 1: {
			enum pick_want want = rng_below(&r, 2) ? PICK_EXISTING : PICK_NONEXISTENT;
			int64_t j = fileset_pick(&fs, want, &r);

			if (j >= 0) {
				exists_ok &= !!(fs.e[j].state & FSE_EXISTS) == (want == PICK_EXISTING);
				held[j] = 1;
				picks[want == PICK_EXISTING]++;
			}
			break;
		}
		case 2: /* claim a given entry */
			if (fileset_claim(&fs, i, rng_below(&r, 2) ? PICK_EXISTING : PICK_NONEXISTENT)) {
				twice |= held[i];
				held[i] = 1;
				claims++;
			}
			break;
		default: /* release one we hold, existing or not */
			if (held[i]) {
				if (rng_below(&r, 2))
					fileset_set_exists(&fs, i, (int)rng_below(&r, 2));
				fileset_release(&fs, i, (int)rng_below(&r, 2));
				held[i] = 0;
			}
			break;
		}
		consistent = selection_consistent(&fs, held);
	}
	ok(consistent, "20000 random picks, claims and releases keep the lists consistent");
	ok(exists_ok, "a pick returns an entry in the state asked for");
	ok(!twice, "a held entry cannot be claimed");
	ok(picks[0] > 100 && picks[1] > 100 && claims > 100,
	   "the sequence exercised picks of both kinds and claims (%u, %u, %u)", picks[0],
	   picks[1], claims);
	fileset_free(&fs);
}

/* fileset_pick() takes each available entry equally often, whichever
 * way it finds it: tried at random in the whole fileset (when at least
 * half the entries are available: the existing ones here) or drawn from a
 * list that also holds entries no longer available (the free ones), and
 * never a held one.  Chi-square against uniform, at a level (0.1%) a fixed
 * seed passes or fails for good. */
static void test_pick_uniform(void)
{
	/* 99.9% quantiles of chi-square with 8 and 28 degrees of freedom (9
	 * free entries available, 29 existing ones) */
	static const double crit[2] = { 26.12, 56.89 };
	struct wl_fileset def;
	struct rt_fileset fs;
	struct rng r;
	int held[40] = { 0 };

	init(&fs, &def, "uni", 0, 40, 1000, 0);
	for (uint64_t i = 0; i < 30; i++)
		fs.e[i].state = FSE_EXISTS;
	fileset_index(&fs);
	rng_seed(&r, 11, 0);
	/* entries 0-4 change state twice: each is left listed in both lists,
	 * in one of them while not available there */
	for (uint64_t i = 0; i < 5; i++) {
		ok(fileset_claim(&fs, i, PICK_EXISTING), "claim existing entry %d", (int)i);
		fileset_release(&fs, i, 0);
		ok(fileset_claim(&fs, i, PICK_NONEXISTENT), "claim it again, now free");
		fileset_release(&fs, i, 1);
	}
	/* entries 5 (existing) and 35 (free) are held throughout */
	ok(fileset_claim(&fs, 5, PICK_EXISTING) && fileset_claim(&fs, 35, PICK_NONEXISTENT),
	   "hold one existing entry and one free one");
	held[5] = held[35] = 1;
	ok(selection_consistent(&fs, held), "stale list entries: still consistent");
	for (int x = 0; x < 2; x++) {
		unsigned count[40] = { 0 }, m = 0, trials = 0, wrong = 0;
		double chi = 0;

		for (int k = 0; k < 40000; k++) {
			int64_t j = fileset_pick(&fs, x ? PICK_EXISTING : PICK_NONEXISTENT, &r);

			if (j < 0 || held[j] || !!(fs.e[j].state & FSE_EXISTS) != x) {
				wrong++;
				break;
			}
			count[j]++;
			trials++;
			fileset_release(&fs, (uint64_t)j, x);
		}
		ok(!wrong && selection_consistent(&fs, held),
		   "%s: 40000 picks, each an available entry in that state",
		   x ? "existing" : "free");
		for (int i = 0; i < 40; i++)
			m += !held[i] && !!(fs.e[i].state & FSE_EXISTS) == x;
		for (int i = 0; i < 40; i++) {
			double e = (double)trials / m;

			if (!held[i] && !!(fs.e[i].state & FSE_EXISTS) == x)
				chi += (count[i] - e) * (count[i] - e) / e;
		}
		ok(m == (x ? 29u : 9u) && chi < crit[x],
		   "%s: uniform over the %u available (chi-square %.1f < %.2f)",
		   x ? "existing" : "free", m, chi, crit[x]);
	}
	fileset_free(&fs);
}

/* Leaf directories and the names listed in them. */
static void test_leaves(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	char buf[256];

	init(&fs, &def, "fs", 0, 200, 3, 0);
	is_int((int)fileset_nleaves(&fs), 67, "200 entries, 3 per leaf: 67 leaves");
	is_int(fileset_leaf_path(&fs, 66, buf, sizeof(buf)), (int)strlen("d2/d1/d1/d0"),
	       "leaf 66: length");
	is_str(buf, "d2/d1/d1/d0", "leaf 66: the directories of entry 199, below the fileset's");
	fileset_leaf_path(&fs, 0, buf, sizeof(buf));
	is_str(buf, "d0/d0/d0/d0", "leaf 0");
	is_int(fileset_leaf_path(&fs, 66, buf, 8), -ENAMETOOLONG, "leaf path: buffer too small");
	is_int((int)fileset_entry_of_name(&fs, 66, "f199"), 199, "f199 in leaf 66");
	is_int((int)fileset_entry_of_name(&fs, 66, "f198"), 198, "f198 in leaf 66");
	is_int((int)fileset_entry_of_name(&fs, 66, "f197"), -1, "f197 is leaf 65's");
	is_int((int)fileset_entry_of_name(&fs, 66, "f200"), -1, "f200: past the last entry");
	is_int((int)fileset_entry_of_name(&fs, 66, "f0199"), -1, "a leading zero: not ours");
	is_int((int)fileset_entry_of_name(&fs, 0, "f0"), 0, "f0 in leaf 0");
	is_int((int)fileset_entry_of_name(&fs, 66, "f199x"), -1, "trailing junk");
	is_int((int)fileset_entry_of_name(&fs, 66, "l199"), -1, "l199: not a file's name");
	is_int((int)fileset_entry_of_name(&fs, 0, "f"), -1, "no number");
	is_int((int)fileset_entry_of_name(&fs, 0, "."), -1, ".");
	is_int((int)fileset_entry_of_name(&fs, 0, ".."), -1, "..");
	is_int((int)fileset_entry_of_name(&fs, 0, "f99999999999999999999999"), -1,
	       "a number past 2^64");
	fileset_free(&fs);

	init(&fs, &def, "one", 0, 4, 1000, 0);
	is_int((int)fileset_nleaves(&fs), 1, "one level: one leaf");
	fileset_leaf_path(&fs, 0, buf, sizeof(buf));
	is_str(buf, ".", "one level: the fileset's own directory");
	is_int((int)fileset_entry_of_name(&fs, 0, "f3"), 3, "one level: f3");
	is_int((int)fileset_entry_of_name(&fs, 0, "f4"), -1, "one level: f4 is past the end");
	fileset_free(&fs);

	init(&fs, &def, "ld", 0, 0, 1000, 10);
	is_int((int)fileset_entry_of_name(&fs, 0, "l5"), 5, "leafdirs: l5");
	is_int((int)fileset_entry_of_name(&fs, 0, "f5"), -1, "leafdirs: f5 is not ours");
	fileset_free(&fs);
}

/* Entries' system calls resolve below the fileset's own directory once
 * fileset_create() has made it, and from the run directory otherwise. */
static void test_at(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;
	struct fileset_prealloc_stats ps;
	char tmpl[] = "/tmp/fsgauge-test-fileset.XXXXXX", buf[256];
	const char *p = buf;
	static const volatile int stop = 0;
	struct stat a, b;
	int dfd;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	dfd = open(tmpl, O_RDONLY | O_DIRECTORY);
	init(&fs, &def, "at", 0, 4, 1000, 0);
	fileset_entry_path(&fs, 3, buf, sizeof(buf));
	ok(fileset_at(&fs, dfd, &p) == dfd && p == buf,
	   "before the directory exists: the run directory and the whole path");
	is_int(fileset_create(&fs, dfd, "psync", NULL, 1, 1, &stop, &ps), 0, "fileset_create");
	ok(fs.dirfd >= 0, "the fileset's directory is open");
	p = buf;
	int fd = fileset_at(&fs, dfd, &p);

	ok(fd == fs.dirfd, "entries resolve from the fileset's directory");
	is_str(p, "f3", "with the path below it");
	ok(fstat(fd, &a) == 0 && fstatat(dfd, "at", &b, 0) == 0 && a.st_ino == b.st_ino &&
		   a.st_dev == b.st_dev,
	   "which is <run dir>/at");
	fileset_free(&fs);

	/* the null engine makes no directory: nothing to open, no shortcut */
	init(&fs, &def, "none", 0, 4, 1000, 0);
	is_int(fileset_create(&fs, dfd, "null", NULL, 1, 1, &stop, &ps), 0,
	       "fileset_create, null engine");
	p = buf;
	fileset_entry_path(&fs, 1, buf, sizeof(buf));
	ok(fs.dirfd < 0 && fileset_at(&fs, dfd, &p) == dfd && p == buf,
	   "null engine: the run directory and the whole path");
	fileset_free(&fs);
	unlinkat(dfd, "at", AT_REMOVEDIR);
	close(dfd);
	rmdir(tmpl);
}

/* The written map (verify's read-back): a bit per 4 KiB block of each
 * entry, set by the ranges written, found again in order. */
static void test_wmap(void)
{
	struct wl_fileset def;
	struct rt_fileset fs;

	init(&fs, &def, "wm", 0, 3, 10, 0);
	is_int((int64_t)fileset_wmap_bytes(3, 300 * 4096), 3 * 5 * 8,
	       "wmap_bytes: 300 blocks take 5 words per entry");
	fileset_wmap_init(&fs, 300 * 4096 - 100);
	ok(fs.wmap != NULL, "wmap allocated");
	is_int(fs.wmap_blocks, 300, "a partial last block counts");
	is_int(fileset_wmap_next(&fs, 1, 0, 300), 300, "nothing written: none found");
	fileset_wmap_mark(&fs, 1, 8192, 8192);	     /* blocks 2, 3 */
	fileset_wmap_mark(&fs, 1, 70 * 4096 + 1, 1); /* block 70 */
	fileset_wmap_mark(&fs, 1, 299 * 4096, 8192); /* block 299; 300 is past the map */
	fileset_wmap_mark(&fs, 2, 0, 4096);
	is_int(fileset_wmap_next(&fs, 1, 0, 300), 2, "the first written block");
	is_int(fileset_wmap_next(&fs, 1, 3, 300), 3, "  the next");
	is_int(fileset_wmap_next(&fs, 1, 4, 300), 70, "  across words");
	is_int(fileset_wmap_next(&fs, 1, 71, 300), 299, "  the last");
	is_int(fileset_wmap_next(&fs, 1, 4, 50), 50, "  none below the end asked");
	is_int(fileset_wmap_next(&fs, 0, 0, 300), 300, "another entry's blocks are its own");
	is_int(fileset_wmap_next(&fs, 2, 0, 300), 0, "  entry 2's");
	is_int(fileset_wmap_next(&fs, 3, 0, 300), 300, "no entry past the fileset's");
	fileset_wmap_clear(&fs);
	is_int(fileset_wmap_next(&fs, 1, 0, 300), 300, "cleared");
	fileset_free(&fs);
	init(&fs, &def, "wm0", 0, 3, 10, 0);
	fileset_wmap_init(&fs, 0);
	ok(fs.wmap == NULL, "no map for 0 bytes");
	fileset_wmap_mark(&fs, 0, 0, 4096);
	is_int(fileset_wmap_next(&fs, 0, 0, 10), 10, "  nothing recorded then");
	fileset_free(&fs);
}

int main(void)
{
	test_wmap();
	test_entries();
	test_named();
	test_leafdirs_and_file();
	test_selection();
	test_opens();
	test_pick_uniform();
	test_at();
	test_leaves();
	return done_testing();
}
