/* test_replay.c — unit tests for workload/replay.c: the path sanitiser,
 * the refusals that keep a hostile archive inside its copy, the
 * operations an entry becomes, and the depth-first removal list. */
#include "tap.h"
#include "util/util.h"
#include "workload/replay.h"

#include <errno.h>
#include <stdlib.h>

static void test_path_clean(void)
{
	static const struct {
		const char *in;
		const char *want; /* NULL: refused */
		const char *why;
	} cases[] = {
		{ "a", "a", NULL },
		{ "a/b/c", "a/b/c", NULL },
		{ "./a//b/", "a/b", NULL },
		{ "a/./b/.", "a/b", NULL },
		{ ".", "", NULL },
		{ "./", "", NULL },
		{ "..a", "..a", NULL },
		{ "a/..b/c..", "a/..b/c..", NULL },
		{ "a/...", "a/...", NULL },
		{ "", NULL, "empty path" },
		{ "/etc/passwd", NULL, "absolute path" },
		{ "//x", NULL, "absolute path" },
		{ "/", NULL, "absolute path" },
		{ "..", NULL, "path has a '..' component" },
		{ "../x", NULL, "path has a '..' component" },
		{ "a/../b", NULL, "path has a '..' component" },
		{ "a/..", NULL, "path has a '..' component" },
		{ "a/b/../../..", NULL, "path has a '..' component" },
		{ "./..//x", NULL, "path has a '..' component" },
	};
	char out[REPLAY_PATH_MAX + 1];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *why = NULL;
		int rc = replay_path_clean(cases[i].in, out, sizeof(out), &why);

		if (cases[i].want) {
			is_int(rc, 0, "clean '%s'", cases[i].in);
			is_str(out, cases[i].want, "clean '%s' gives '%s'", cases[i].in, cases[i].want);
		} else {
			is_int(rc, -EINVAL, "refuse '%s'", cases[i].in);
			is_str(why, cases[i].why, "refuse '%s': %s", cases[i].in, cases[i].why);
		}
	}

	/* names up to 255 bytes, paths up to REPLAY_PATH_MAX */
	char name[300], path[5000];
	const char *why = NULL;

	memset(name, 'n', 255);
	name[255] = 0;
	is_int(replay_path_clean(name, out, sizeof(out), &why), 0, "a 255-byte name is fine");
	name[255] = 'n';
	name[256] = 0;
	is_int(replay_path_clean(name, out, sizeof(out), &why), -EINVAL, "a 256-byte name is not");
	is_str(why, "a name in the path is too long", "and says so");
	path[0] = 0;
	while (strlen(path) + 11 <= REPLAY_PATH_MAX)
		strcat(path, "abcdefghi/");
	path[strlen(path) - 1] = 0;
	is_int(replay_path_clean(path, out, sizeof(out), &why), 0, "a %zu-byte path is fine",
	       strlen(path));
	strcat(path, "/abcdefghijklmnop");
	is_int(replay_path_clean(path, out, sizeof(out), &why), -EINVAL, "a %zu-byte path is not",
	       strlen(path));
	is_str(why, "path is too long", "and says so");
	is_int(replay_path_clean("abc", out, 3, &why), -EINVAL, "out buffer too small");
}

static struct replay_entry ent(enum replay_type type, const char *path, const char *target,
			       uint64_t size)
{
	struct replay_entry e = { .type = type, .path = path, .target = target, .size = size,
				  .mode = type == RPT_DIR ? 0755 : 0644, .data = 0,
				  .mtime = { 1000, 5 }, .has_mtime = 1 };

	return e;
}

static int add(struct replay *r, enum replay_type type, const char *path, const char *target,
	       uint64_t size, char *err)
{
	struct replay_entry e = ent(type, path, target, size);

	err[0] = 0;
	return replay_add(r, &e, err, 256);
}

/* "kind:path" of every operation, space separated. */
static char *ops_text(const struct replay *r)
{
	size_t cap = 64, len = 0;
	char *s = xmalloc(cap);

	s[0] = 0;
	for (size_t i = 0; i < r->nops; i++) {
		const struct replay_op *op = &r->ops[i];
		char one[512];
		int n = snprintf(one, sizeof(one), "%s%s:%s", i ? " " : "",
				 replay_kind_name(op->kind), op->path);

		while (len + (size_t)n + 1 > cap)
			s = xrealloc(s, cap *= 2);
		memcpy(s + len, one, (size_t)n + 1);
		len += (size_t)n;
	}
	return s;
}

static void is_ops(const struct replay *r, const char *want, const char *desc)
{
	char *got = ops_text(r);

	is_str(got, want, "%s", desc);
	free(got);
}

static void test_refusals(void)
{
	struct replay_opts o = { .umask = 022 };
	struct replay *r;
	char err[256];

	/* a symlink, then a path through it: refused, whatever it points at */
	r = replay_new(&o);
	is_int(add(r, RPT_SYMLINK, "esc", "/etc", 0, err), 0, "a symlink to /etc is only a symlink");
	is_int(add(r, RPT_FILE, "esc/passwd", NULL, 3, err), -EINVAL, "writing through it: refused");
	is_str(err,
	       "entry 'esc/passwd': path crosses the symbolic link 'esc' created earlier in the "
	       "archive",
	       "the message names the entry and the symlink");
	replay_free(r);

	r = replay_new(&o);
	add(r, RPT_DIR, "d", NULL, 0, err);
	add(r, RPT_SYMLINK, "d/up", "../..", 0, err);
	is_int(add(r, RPT_DIR, "d/up/x", NULL, 0, err), -EINVAL, "a directory through a symlink");
	is_int(add(r, RPT_SYMLINK, "d/up/y", "z", 0, err), -EINVAL, "a symlink through a symlink");
	is_int(add(r, RPT_HARDLINK, "d/up/h", "d", 0, err), -EINVAL, "a hard link through a symlink");
	is_int(add(r, RPT_HARDLINK, "h", "d/up/x", 0, err), -EINVAL,
	       "a hard link to a path through a symlink");
	replay_free(r);

	r = replay_new(&o);
	is_int(add(r, RPT_FILE, "/abs", NULL, 1, err), -EINVAL, "absolute path");
	is_str(err, "entry '/abs': absolute path", "message");
	replay_free(r);

	r = replay_new(&o);
	is_int(add(r, RPT_FILE, "a/../../x", NULL, 1, err), -EINVAL, "dot-dot");
	is_str(err, "entry 'a/../../x': path has a '..' component", "message");
	replay_free(r);

	r = replay_new(&o);
	add(r, RPT_FILE, "f", NULL, 1, err);
	is_int(add(r, RPT_HARDLINK, "h1", "/etc/shadow", 0, err), -EINVAL, "hard link to /etc");
	is_int(add(r, RPT_HARDLINK, "h2", "../f", 0, err), -EINVAL, "hard link with '..'");
	is_int(add(r, RPT_HARDLINK, "h3", "nosuch", 0, err), -EINVAL, "hard link to nothing");
	is_str(err, "entry 'h3': hard link to 'nosuch', which is not an earlier file of the archive",
	       "message");
	is_int(add(r, RPT_HARDLINK, "h4", "h4", 0, err), -EINVAL, "hard link to itself");
	add(r, RPT_DIR, "dir", NULL, 0, err);
	is_int(add(r, RPT_HARDLINK, "h5", "dir", 0, err), -EINVAL, "hard link to a directory");
	is_int(add(r, RPT_HARDLINK, "h6", "./f", 0, err), 0, "hard link to an earlier file");
	is_int(add(r, RPT_FILE, "f/x", NULL, 1, err), -EINVAL, "a file below a file");
	is_str(err, "entry 'f/x': 'f' is not a directory", "message");
	is_int(add(r, RPT_FILE, "dir", NULL, 1, err), -EINVAL, "a file over a directory");
	is_int(add(r, RPT_SYMLINK, "s", "", 0, err), -EINVAL, "a symlink without a target");
	is_int(add(r, RPT_FILE, ".", NULL, 0, err), -EINVAL, "'.' as a file");
	replay_free(r);
}

static void test_ops(void)
{
	struct replay_opts o = { .umask = 022, .write_size = 1000 };
	struct replay *r = replay_new(&o);
	struct replay_entry e;
	char err[256];

	/* implicit parents, chunked writes, metadata as tar does */
	is_int(add(r, RPT_FILE, "a/b/f", NULL, 2500, err), 0, "a file with missing parents");
	is_ops(r, "mkdir: mkdir:a mkdir:a/b create:a/b/f write:a/b/f write:a/b/f write:a/b/f "
		  "close:a/b/f utimes:a/b/f",
	       "parents made, three writes, close, utimes");
	is_int(r->ops[4].off, 0, "first write at 0");
	is_int(r->ops[5].off, 1000, "second at 1000");
	is_int(r->ops[6].off, 2000, "third at 2000");
	is_int(r->ops[6].len, 500, "of 500 bytes");
	is_int(r->ops[6].data, 2000, "from contents offset 2000");
	is_int(r->ops[0].mode, 0755, "the copy's root is made 0755");
	is_int(r->ops[3].mode, 0644, "the file is created with its mode");

	e = ent(RPT_FILE, "a/g", NULL, 0);
	e.mode = 0664; /* the umask would lose g+w: chmod after */
	is_int(replay_add(r, &e, err, sizeof(err)), 0, "a group-writable file");
	is_str(replay_kind_name(r->ops[r->nops - 2].kind), "chmod", "is chmodded after close");
	is_int(r->ops[r->nops - 2].mode, 0664, "to 0664");

	e = ent(RPT_FILE, "a/suid", NULL, 0);
	e.mode = 04755;
	replay_add(r, &e, err, sizeof(err));
	is_int(r->nodes[r->nnodes - 1].mode, 0755, "set-id bits dropped");

	e = ent(RPT_DIR, "a/b/", NULL, 0);
	e.mode = 0555;
	e.mtime.tv_sec = 7;
	is_int(replay_add(r, &e, err, sizeof(err)), 0, "a directory listed after its contents");
	is_int(r->nodes[1].mode, 0755, "keeps owner rwx (0555 -> 0755)");
	is_int(r->nodes[1].implicit, 0, "is no longer implicit");

	is_int(add(r, RPT_SYMLINK, "a/l", "b/f", 0, err), 0, "a symlink");
	is_str(r->ops[r->nops - 2].path2, "b/f", "its text as given");
	is_str(replay_kind_name(r->ops[r->nops - 1].kind), "utimes", "and its time");
	is_int(add(r, RPT_HARDLINK, "hl", "a/b/f", 0, err), 0, "a hard link");
	is_str(r->ops[r->nops - 1].path2, "a/b/f", "to the cleaned target");

	/* the same name again: the earlier one is removed first */
	size_t before = r->nops;

	is_int(add(r, RPT_FILE, "a/l", NULL, 0, err), 0, "a file replacing the symlink");
	is_str(replay_kind_name(r->ops[before].kind), "unlink", "unlinks it first");
	is_str(replay_kind_name(r->ops[before + 1].kind), "create", "then creates");
	is_int(add(r, RPT_DIR, "hl2", NULL, 0, err), 0, "a directory");
	is_int(add(r, RPT_DIR, "./hl2/", NULL, 0, err), 0, "listed twice");

	replay_finish(r);
	is_int(r->st.files, 4, "files: a/b/f a/g a/suid a/l (not the hard link)");
	is_int(r->st.hardlinks, 1, "one hard link");
	is_int(r->st.symlinks, 0, "the symlink was replaced");
	is_int(r->st.dirs, 3, "dirs: a a/b hl2");
	is_int(r->st.bytes, 2500, "bytes");
	is_int(r->st.max_depth, 3, "depth");
	/* deferred, in reverse creation order: hl2, a/b; `a` was implicit
	 * (no time of its own) */
	char *t = ops_text(r);
	size_t tl = strlen(t), wl = strlen(" utimes:hl2 utimes:a/b");

	ok(tl > wl && !strcmp(t + tl - wl, " utimes:hl2 utimes:a/b"),
	   "directory times last, deepest first");
	free(t);
	replay_free(r);
}

static void test_fsync_and_umask(void)
{
	struct replay_opts o = { .umask = 077, .fsync = REPLAY_FSYNC_DIR };
	struct replay *r = replay_new(&o);
	char err[256];

	add(r, RPT_FILE, "d/f", NULL, 10, err);
	replay_finish(r);
	is_ops(r, "mkdir: mkdir:d create:d/f write:d/f fsync:d/f close:d/f chmod:d/f utimes:d/f "
		  "chmod:d chmod: fsyncdir:d fsyncdir:",
	       "fsync=dir: file fsync before close, directories and root after; umask 077 "
	       "chmods everything back");
	replay_free(r);

	o.fsync = REPLAY_FSYNC_FILE;
	o.umask = 022;
	r = replay_new(&o);
	add(r, RPT_FILE, "f", NULL, 0, err);
	replay_finish(r);
	is_ops(r, "mkdir: create:f fsync:f close:f utimes:f", "fsync=file, empty file: no write");
	replay_free(r);
}

static void test_removal(void)
{
	struct replay *r = replay_new(NULL), *rm;
	char err[256];
	static const char *const files[] = { "top", "a/x", "a/b/y", "a/b/c/z", "a/b2/w", "e/" };

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		add(r, files[i][strlen(files[i]) - 1] == '/' ? RPT_DIR : RPT_FILE, files[i], NULL, 1,
		    err);
	add(r, RPT_SYMLINK, "a/b/s", "y", 0, err);
	add(r, RPT_HARDLINK, "a/h", "top", 0, err);
	replay_finish(r);
	rm = replay_removal(r);
	is_ops(rm, "unlink:top unlink:a/x unlink:a/h unlink:a/b/y unlink:a/b/s unlink:a/b/c/z "
		   "rmdir:a/b/c rmdir:a/b unlink:a/b2/w rmdir:a/b2 rmdir:a rmdir:e rmdir:",
	       "depth first: a directory's entries, its subdirectories, then itself; root last");
	is_int(rm->st.files, r->st.files, "removal carries the tree's statistics");
	replay_free(rm);
	replay_free(r);
}

static void test_stats(void)
{
	struct replay *r = replay_new(NULL);
	char err[256], name[32];

	/* sizes 1..100: nearest-rank median 50, p90 90, p99 99 */
	for (int i = 100; i >= 1; i--) {
		snprintf(name, sizeof(name), "f%d", i);
		add(r, RPT_FILE, name, NULL, (uint64_t)i, err);
	}
	replay_skip(r);
	replay_finish(r);
	is_int(r->st.size_median, 50, "median");
	is_int(r->st.size_p90, 90, "p90");
	is_int(r->st.size_p99, 99, "p99");
	is_int(r->st.size_max, 100, "max");
	is_int(r->st.bytes, 5050, "bytes");
	is_int(r->st.skipped, 1, "skipped");
	replay_free(r);
}

int main(void)
{
	test_path_clean();
	test_refusals();
	test_ops();
	test_fsync_and_umask();
	test_removal();
	test_stats();
	return done_testing();
}
