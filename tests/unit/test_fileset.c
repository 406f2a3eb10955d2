/* test_fileset.c — unit tests for the fileset layout's paths
 * (runner/fileset.c): entries, leaf directories, intermediate directories,
 * a `define file`, and buffers too small for them. */
#include "tap.h"
#include "runner/fileset.h"
#include "workload/workload.h"

#include <errno.h>
#include <string.h>

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

int main(void)
{
	test_entries();
	test_leafdirs_and_file();
	return done_testing();
}
