/*
 * test_suite.c — the suite layer from the outside: a toy suite and a toy
 * metric defined here, in tests/, run through suite_main() and seen in
 * the text, the JSON, compare and report without anything in output/
 * knowing them (compare and report read the toy metric's unit, label and
 * direction from the result's metrics table, "metric_defs"); the option
 * tables (generated help, letters, the one message style) and the
 * exit-code mapping.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

#include "cmd/cmd.h"
#include "output/result_read.h"
#include "suite/suite.h"
#include "util/util.h"
#include "workload/build.h"

/* --- the toy suite ------------------------------------------------------ */

struct toy {
	unsigned points; /* --points N: the toy score per operation */
	int fail_setup;	 /* --fail-setup: ops->setup says EXIT_SYSTEM */
	int files;	 /* --files: a 64 KiB file in each target's run directory */
	int too_big;	 /* --too-big: the last target is asked for an exabyte */
	int sigint;	 /* --sigint: the run raises SIGINT before its phase */
	struct workload *w;
};

enum {
	TOY_POINTS = OPT_OWN + 1,
	TOY_FAIL_SETUP,
	TOY_FILES,
	TOY_TOO_BIG,
	TOY_SIGINT,
	TOY_LOUD = 'L'
};

/* What the plan and the run saw of the run directories (several targets):
 * how many, how many were marked and in their target, and how many had
 * their file when the run began. */
static size_t toy_plan_nrd, toy_plan_marked, toy_run_files;

/* What ops->setup saw: how often it ran, and whether a run directory
 * existed then (it must not: setup comes before it, bonnie's -u/-g). */
static int toy_setup_calls, toy_setup_saw_rundir;

static const struct suite_opt toy_opts[] = {
	{ "points", 0, TOY_POINTS, OPTARG_REQUIRED, "N", "points per operation (default 2)" },
	/* takes -q's neighbour letter; and 'd' below is taken from --dir */
	{ "loud", 'L', TOY_LOUD, OPTARG_NONE, NULL, "say more" },
	{ "depth", 'd', 'd', OPTARG_REQUIRED, "N", "a toy depth (takes -d from --dir)" },
	{ "fail-setup", 0, TOY_FAIL_SETUP, OPTARG_NONE, NULL, "the setup hook fails (exit 3)" },
	{ "files", 0, TOY_FILES, OPTARG_NONE, NULL, "a file in each target" },
	{ "too-big", 0, TOY_TOO_BIG, OPTARG_NONE, NULL, "the last target cannot hold the run" },
	{ "sigint", 0, TOY_SIGINT, OPTARG_NONE, NULL, "SIGINT before the phase" },
	{ 0 },
};

static const struct suite_refusal toy_refused[] = {
	{ SH_REUSE, "--reuse does not apply to toy: every run is new" },
	{ 0, NULL },
};

static const struct metric_def toy_metrics[] = {
	{ "toy_score", "points", "toy score", BETTER_HIGHER },
	{ NULL, NULL, NULL, BETTER_NONE },
};

static int toy_option(struct suite_session *s, int key, const char *arg, int argc, char **argv)
{
	struct toy *t = s->ctx;

	(void)argc;
	(void)argv;
	if (key == TOY_POINTS) {
		char *end;
		unsigned long v = strtoul(arg, &end, 10);

		if (!*arg || *end || v < 1 || v > 1000) {
			msg_err("invalid --points '%s' (expected 1 to 1000)", arg);
			return EXIT_USAGE;
		}
		t->points = (unsigned)v;
	}
	if (key == TOY_FAIL_SETUP)
		t->fail_setup = 1;
	if (key == TOY_FILES)
		t->files = 1;
	if (key == TOY_TOO_BIG)
		t->too_big = 1;
	if (key == TOY_SIGINT)
		t->sigint = 1;
	return EXIT_OK;
}

static int toy_setup(struct suite_session *s)
{
	toy_setup_calls++;
	if (s->rd->fd >= 0)
		toy_setup_saw_rundir = 1;
	return ((struct toy *)s->ctx)->fail_setup ? EXIT_SYSTEM : EXIT_OK;
}

static void toy_init(struct suite_session *s)
{
	((struct toy *)s->ctx)->points = 2;
}

static int toy_plan(struct suite_session *s)
{
	struct toy *t = s->ctx;
	struct wl_process *p;
	struct wl_thread *th;

	t->w = wl_new("toy");
	p = wl_add_process(t->w, "p", 1);
	th = wl_add_thread(p, "hogger", 4, 4096);
	wl_add_flowop(th, FO_HOG, "hog", NULL);
	wl_add_flowop(th, FO_THREADDONE, "done", NULL);
	toy_plan_nrd = s->nrd;
	toy_plan_marked = 0;
	for (size_t i = 0; i < s->nrd; i++) {
		struct stat st;
		char name[32];

		if (s->rds[i].fd >= 0 && fstatat(s->rds[i].fd, ".fsgauge-run", &st, 0) == 0 &&
		    !strcmp(s->rds[i].parent, s->targets[i]))
			toy_plan_marked++;
		if (t->files) {
			struct wl_fileset *fs;

			snprintf(name, sizeof(name), "toy.%zu", i);
			fs = wl_add_file(t->w, name, 65536);
			fs->path = wl_str(s->rds[i].path);
			fs->prealloc = wl_int(100);
			s->tneeds[i].bytes = 65536;
			s->tneeds[i].entries = 3;
		}
	}
	if (t->too_big)
		s->tneeds[s->nrd - 1].bytes = 1e18;
	s->has_needs = t->files || t->too_big;
	s->w = t->w;
	s->workload = "toy";
	return EXIT_OK;
}

static int toy_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	struct toy *t = s->ctx;
	int r;

	toy_run_files = 0;
	for (size_t i = 0; i < s->nrd; i++) {
		struct stat st;
		char name[32];

		snprintf(name, sizeof(name), "toy.%zu", i);
		if (fstatat(s->rds[i].fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_size == 65536)
			toy_run_files++;
	}
	if (t->sigint)
		raise(SIGINT);
	r = runner_phase(rn, "toy", t->w->processes, t->w->nprocesses, 1e6);

	if (r == 0 && one->nphases) {
		struct result_phase *ph = &one->phases[one->nphases - 1];

		uint64_t hogs = 0;

		for (size_t i = 0; i < ph->nops; i++)
			if (!strcmp(ph->ops[i].name, "hog"))
				hogs = ph->ops[i].st.ops;
		result_phase_add_metric(ph, "toy_score", "points", (double)(hogs * t->points));
	}
	return r;
}

static void toy_report(struct suite_session *s, struct result *acc)
{
	(void)s;
	printf("toy: %zu phases\n", acc->nphases);
}

static void toy_fini(struct suite_session *s)
{
	workload_free(((struct toy *)s->ctx)->w);
}

static const struct suite_ops toy_suite = {
	.name = "toy",
	.synopsis = "fsgauge toy [options]",
	.about = "A toy suite of the unit tests.",
	.opts = toy_opts,
	.shared = SH_DIR | SH_SESSION | SH_QUIET | SH_REPEAT,
	.refused = toy_refused,
	.metrics = toy_metrics,
	.ctx_size = sizeof(struct toy),
	.init = toy_init,
	.option = toy_option,
	.setup = toy_setup,
	.plan = toy_plan,
	.run = toy_run,
	.report = toy_report,
	.fini = toy_fini,
};

/* --- capturing stdout/stderr -------------------------------------------- */

struct capture {
	int fd, saved;
	char path[64];
};

static void capture_start(struct capture *c, int fd)
{
	fflush(fd == 1 ? stdout : stderr);
	snprintf(c->path, sizeof(c->path), "/tmp/fsgauge-test-suite.XXXXXX");
	int t = mkstemp(c->path);

	c->fd = fd;
	c->saved = dup(fd);
	dup2(t, fd);
	close(t);
}

/* The captured text (caller frees). */
static char *capture_end(struct capture *c)
{
	FILE *f;
	char *buf = xcalloc(1, 1 << 20);

	fflush(c->fd == 1 ? stdout : stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	f = fopen(c->path, "r");
	if (f) {
		size_t n = fread(buf, 1, (1 << 20) - 1, f);

		buf[n] = 0;
		fclose(f);
	}
	unlink(c->path);
	return buf;
}

/* suite_main with argv from a NULL-terminated list; *err gets stderr. */
static int toy_main(char **err, char **out, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	struct capture ce = { 0 }, co = { 0 };
	int ret;

	argv[argc++] = (char *)"fsgauge toy";
	va_start(ap, out);
	for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
		argv[argc++] = xstrdup(a);
	va_end(ap);
	argv[argc] = NULL;
	capture_start(&ce, 2);
	capture_start(&co, 1);
	ret = suite_main(&toy_suite, argc, argv);
	*out = capture_end(&co);
	*err = capture_end(&ce);
	for (int i = 1; i < argc; i++)
		free(argv[i]);
	return ret;
}

static char *run_cmd(int (*fn)(int, char **), const char *name, int *ret, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;
	struct capture co = { 0 }, ce = { 0 };
	char *out, *err;

	argv[argc++] = (char *)name;
	va_start(ap, ret);
	for (char *a; (a = va_arg(ap, char *)) && argc < 15;)
		argv[argc++] = xstrdup(a);
	va_end(ap);
	argv[argc] = NULL;
	capture_start(&ce, 2);
	capture_start(&co, 1);
	*ret = fn(argc, argv);
	out = capture_end(&co);
	err = capture_end(&ce);
	if (*ret)
		printf("# %s", err);
	free(err);
	for (int i = 1; i < argc; i++)
		free(argv[i]);
	return out;
}

/* --- the tests ---------------------------------------------------------- */

static void test_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	suite_usage(&toy_suite, f);
	fclose(f);
	ok(strstr(buf, "usage: fsgauge toy [options]") != NULL, "help: the synopsis");
	ok(strstr(buf, "      --points N") != NULL, "help: a long-only option of its own");
	ok(strstr(buf, "  -L, --loud") != NULL, "help: an option of its own with a letter");
	ok(strstr(buf, "  -d, --depth N") != NULL, "help: its own -d");
	ok(strstr(buf, "      --dir DIR") != NULL && !strstr(buf, "-d, --dir"),
	   "help: the shared --dir lost the letter the suite took");
	ok(strstr(buf, "  -q, --quiet") != NULL, "help: a shared option keeps a free letter");
	ok(strstr(buf, "--repeat N") != NULL, "help: an accepted measurement option");
	ok(!strstr(buf, "--reuse"), "help: a refused option is not listed");
	ok(!strstr(buf, "--warmup") && !strstr(buf, "--on-error"),
	   "help: options outside the mask are not listed");
	ok(strstr(buf, "exit status: 0 ok") != NULL, "help: the common exit text");
	free(buf);
}

static void test_messages(const char *dir)
{
	char *err, *out;
	int r;

	r = toy_main(&err, &out, "--frob", (char *)NULL);
	is_int(r, EXIT_USAGE, "an unknown long option exits 2");
	is_str(err, "fsgauge toy: unrecognized option '--frob' (try 'fsgauge toy --help')\n",
	       "the one unrecognized-option message");
	free(err);
	free(out);
	r = toy_main(&err, &out, "-Z", (char *)NULL);
	is_int(r, EXIT_USAGE, "an unknown short option exits 2");
	is_str(err, "fsgauge toy: unrecognized option '-Z' (try 'fsgauge toy --help')\n",
	       "the same style for a short option");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--points", (char *)NULL);
	is_int(r, EXIT_USAGE, "a missing argument exits 2");
	is_str(err, "fsgauge toy: option '--points' needs an argument (try 'fsgauge toy --help')\n",
	       "the missing-argument message");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--reuse", (char *)NULL);
	is_int(r, EXIT_USAGE, "a refused option exits 2");
	is_str(err, "fsgauge: --reuse does not apply to toy: every run is new\n",
	       "a refused option says why");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--warmup", "1", (char *)NULL);
	is_int(r, EXIT_USAGE, "an option outside the mask exits 2");
	ok(strstr(err, "unrecognized option '--warmup'") != NULL, "and is unrecognized");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--points", "x", "-d", "3", (char *)NULL);
	is_int(r, EXIT_USAGE, "a bad value of its own exits 2");
	is_str(err, "fsgauge: invalid --points 'x' (expected 1 to 1000)\n", "with its message");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--help", (char *)NULL);
	is_int(r, EXIT_OK, "--help exits 0");
	ok(strstr(out, "usage: fsgauge toy") != NULL, "--help prints the help on stdout");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--dir", dir, "--engine", "nosuch", (char *)NULL);
	is_int(r, EXIT_USAGE, "an unknown engine exits 2");
	ok(strstr(err, "unknown engine 'nosuch'") != NULL, "and names it");
	free(err);
	free(out);
}

/* Entries of directory `dir` (not . and ..), or -1. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* ops->setup: after the shared checks, before the run directory. */
static void test_setup_hook(const char *dir)
{
	char *err, *out;
	int r, calls = toy_setup_calls;

	r = toy_main(&err, &out, "--dir", dir, "--engine", "null", "--json", "/nonexistent/x.json",
		     "--fail-setup", (char *)NULL);
	is_int(r, EXIT_USAGE, "setup: a bad --json is refused first (exit 2)");
	is_int(toy_setup_calls, calls, "setup: not called when the shared checks fail");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--dir", dir, "--engine", "null", "--fail-setup", (char *)NULL);
	is_int(r, EXIT_SYSTEM, "setup: its verdict is the exit status (3)");
	is_int(toy_setup_calls, calls + 1, "setup: called once");
	ok(!toy_setup_saw_rundir, "setup: runs before the run directory exists");
	is_int(dir_entries(dir), 0, "setup: a failed setup leaves no run directory");
	free(err);
	free(out);
}

/* bonnie's metrics table: its rate is two metrics of one unit each. */
static void test_bonnie_metrics(void)
{
	const struct suite_ops *b = suite_find("bonnie");
	const struct metric_def *kib = NULL, *per = NULL;
	int rate = 0, n = 0;

	ok(b == &suite_bonnie, "suite_find finds bonnie");
	for (const struct metric_def *m = b ? b->metrics : NULL; m && m->name; m++, n++) {
		if (!strcmp(m->name, "bonnie_kib_per_sec"))
			kib = m;
		if (!strcmp(m->name, "bonnie_per_sec"))
			per = m;
		rate |= !strcmp(m->name, "bonnie_rate");
	}
	ok(n >= 2 && !rate, "bonnie: no metric of two units (bonnie_rate) in its table");
	ok(kib && !strcmp(kib->unit, "K/sec") && kib->better == BETTER_HIGHER && kib->label,
	   "bonnie_kib_per_sec: K/sec, higher is better, labelled");
	ok(per && !strcmp(per->unit, "/sec") && per->better == BETTER_HIGHER && per->label,
	   "bonnie_per_sec: /sec, higher is better, labelled");
}

static const struct rphase *rphase_named(const struct rfile *rf, const char *name)
{
	for (size_t i = 0; i < rf->nphases; i++)
		if (!strcmp(rf->phases[i].name, name))
			return &rf->phases[i];
	return NULL;
}

/* The whole of a (small) file (caller frees). */
static char *file_text(const char *path)
{
	char *buf = xcalloc(1, 1 << 22);
	FILE *f = fopen(path, "r");

	if (f) {
		size_t n = fread(buf, 1, (1 << 22) - 1, f);

		buf[n] = 0;
		fclose(f);
	}
	return buf;
}

static void test_metric_defs(const struct rfile *rf)
{
	const struct metric_def *d = result_read_metric_def(rf, "toy_score");

	is_int((int)rf->nmetric_defs, 1, "metric_defs: the toy's one metric");
	ok(d != NULL, "metric_defs: toy_score is declared");
	if (!d)
		return;
	is_str(d->label, "toy score", "metric_defs: its label");
	is_str(d->unit, "points", "metric_defs: its unit");
	is_int(d->better, BETTER_HIGHER, "metric_defs: higher is better");
}

static void test_run(const char *dir)
{
	char a[300], b[300], html[300], *err, *out;
	struct rfile *rf = NULL;
	int r;

	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	snprintf(html, sizeof(html), "%s/r.html", dir);
	r = toy_main(&err, &out, "--dir", dir, "--engine", "null", "--json", a, "--label", "A",
		     "-q", (char *)NULL);
	is_int(r, EXIT_OK, "the toy suite runs (exit 0)");
	if (r)
		printf("# %s", err);
	is_str(out, "toy: 1 phases\n", "its own text report");
	free(err);
	free(out);
	r = toy_main(&err, &out, "--dir", dir, "--engine", "null", "--json", b, "--label", "B",
		     "-q", "--repeat", "2", (char *)NULL);
	is_int(r, EXIT_OK, "and with --repeat 2");
	free(err);
	free(out);

	r = result_read(a, &rf);
	ok(r == 0 && rf, "its JSON reads back");
	if (rf) {
		const struct rphase *p = rphase_named(rf, "toy");
		const struct rmetric *m = p ? result_read_metric(p, "toy_score") : NULL;

		is_str(rf->suite, "toy", "the result's suite is the toy's name");
		ok(m != NULL, "the toy metric is in the JSON");
		ok(m && m->v.n == 1 && m->v.v[0] == 2.0 * 4, "toy_score = points x operations (2 x 4 hogs)");
		test_metric_defs(rf);
		result_read_free(rf);
	}
	out = file_text(a);
	ok(strstr(out, "\"metric_defs\"") != NULL, "the JSON has a top-level metric_defs");
	free(out);

	out = run_cmd(cmd_compare, "fsgauge compare", &r, a, b, (char *)NULL);
	is_int(r, EXIT_OK, "compare of two toy results exits 0");
	ok(strstr(out, "toy score (points)") != NULL,
	   "compare names the toy metric by its label and unit, from the metrics table");
	free(out);
	out = run_cmd(cmd_compare, "fsgauge compare", &r, "--csv", a, b, (char *)NULL);
	ok(strstr(out, ",toy_score,points,") != NULL, "compare --csv: the metric's name and unit");
	free(out);
	out = run_cmd(cmd_report, "fsgauge report", &r, "-o", html, a, b, (char *)NULL);
	is_int(r, EXIT_OK, "report of two toy results exits 0");
	free(out);
	out = file_text(html);
	ok(strstr(out, "toy score (points)") != NULL, "report shows the toy metric's label and unit");
	ok(strstr(out, "points (higher is better)") != NULL, "and which way is better");
	free(out);
	unlink(a);
	unlink(b);
	unlink(html);
}

/* Several targets (a suite that declares it takes several: the toy has
 * no one_target): one marked run directory in each, each fileset in its
 * own, each target's preflight, and every one removed on every exit. */
static void test_targets(const char *dir)
{
	char a[300], b[300], json[300], *err, *out;
	int r;

	snprintf(a, sizeof(a), "%s/ta", dir);
	snprintf(b, sizeof(b), "%s/tb", dir);
	snprintf(json, sizeof(json), "%s/t.json", dir);
	mkdir(a, 0700);
	mkdir(b, 0700);
	r = toy_main(&err, &out, "-q", "--dir", a, "--dir", b, "--files", "--json", json,
		     (char *)NULL);
	is_int(r, EXIT_OK, "targets: two --dir run (exit 0)");
	if (r)
		printf("# %s", err);
	is_int((int)toy_plan_nrd, 2, "targets: the plan sees two run directories");
	is_int((int)toy_plan_marked, 2, "targets: each made and marked in its own target");
	is_int((int)toy_run_files, 2, "targets: each fileset was created in its own target");
	ok(dir_entries(a) == 0 && dir_entries(b) == 0, "targets: both run directories removed");
	free(err);
	free(out);
	out = file_text(json);
	ok(out && strstr(out, "\"target2\": \"") && strstr(out, "/tb\""),
	   "targets: the result's environment names the second target");
	free(out);
	unlink(json);

	r = toy_main(&err, &out, "-q", "--dir", a, "--dir", b, "--files", "--too-big",
		     (char *)NULL);
	is_int(r, EXIT_USAGE, "targets: the second target cannot hold its share (exit 2)");
	ok(strstr(err, "not enough free space") && strstr(err, b),
	   "targets: the preflight names that target");
	ok(dir_entries(a) == 0 && dir_entries(b) == 0, "targets: refused, nothing left in either");
	free(err);
	free(out);

	r = toy_main(&err, &out, "-q", "--dir", a, "--dir", "/nonexistent/fsgauge", "--files",
		     (char *)NULL);
	is_int(r, EXIT_USAGE, "targets: a missing second target (exit 2)");
	ok(strstr(err, "cannot use target directory '/nonexistent/fsgauge'") != NULL,
	   "targets: with the usual message");
	is_int(dir_entries(a), 0, "targets: the first run directory, made already, removed");
	free(err);
	free(out);

	/* last: the stop flag stays set in this process */
	r = toy_main(&err, &out, "-q", "--dir", a, "--dir", b, "--files", "--sigint",
		     (char *)NULL);
	is_int(r, EXIT_INTERRUPTED, "targets: SIGINT stops the run (exit 130)");
	ok(dir_entries(a) == 0 && dir_entries(b) == 0, "targets: SIGINT, both removed");
	free(err);
	free(out);
	rmdir(a);
	rmdir(b);
}

/* The result keeps a copy of the metrics table; a result written before
 * metric_defs (none recorded) reads back with an empty table. */
static void test_metric_defs_old(const char *dir)
{
	struct result *r = result_new("toy", "toy");
	char path[300];
	FILE *f;
	struct rfile *rf = NULL;

	result_set_metric_defs(r, toy_metrics);
	is_str(result_metric_def(r, "toy_score")->label, "toy score",
	       "result_metric_def: the result keeps a copy of the table");
	result_set_metric_defs(r, NULL);
	is_int((int)r->nmetric_defs, 0, "result_set_metric_defs(NULL): no table");

	/* as an older result: no metric_defs at all */
	snprintf(path, sizeof(path), "%s/old.json", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("{\"schema_version\": 1, \"suite\": \"toy\", \"workload\": \"toy\", "
		      "\"parameters\": {}, \"environment\": {}, \"phases\": [{\"name\": \"toy\", "
		      "\"summary\": {\"ops_per_second\": 1, \"mb_per_second\": 0, "
		      "\"mean_latency_ms\": 1, \"cpu_us_per_op\": 1}, \"operations\": [], "
		      "\"metrics\": {\"toy_score\": {\"value\": 8, \"unit\": \"points\"}}}]}\n",
		      f);
		fclose(f);
	}
	ok(result_read(path, &rf) == 0 && rf, "a result without metric_defs still loads");
	if (rf) {
		is_int((int)rf->nmetric_defs, 0, "with no metric definitions");
		ok(result_read_metric_def(rf, "toy_score") == NULL, "its metric is undeclared");
		result_read_free(rf);
	}
	unlink(path);
	result_free(r);
}

static void test_exit_status(void)
{
	struct result *r = result_new("toy", "toy");

	is_int(suite_exit_status(0, r, EXIT_OK), EXIT_OK, "a clean run: 0");
	is_int(suite_exit_status(-ENOSPC, r, EXIT_OK), EXIT_USAGE,
	       "a setup failure before anything ran, the target too small: 2");
	is_int(suite_exit_status(-EIO, r, EXIT_OK), EXIT_SYSTEM,
	       "a setup failure before anything ran, the system's: 3");
	result_add_phase(r, "p");
	is_int(suite_exit_status(-EIO, r, EXIT_OK), EXIT_SYSTEM,
	       "a setup failure after a phase ran: still 3");
	is_int(suite_exit_status(0, r, EXIT_RUN_ERRORS), EXIT_RUN_ERRORS,
	       "a suite's verdict that the run fell short: 1");
	r->verify_errors = 1;
	is_int(suite_exit_status(0, r, EXIT_OK), EXIT_RUN_ERRORS,
	       "verify errors count, for every suite: 1");
	r->interrupted = 1;
	is_int(suite_exit_status(-EIO, r, EXIT_OK), EXIT_INTERRUPTED,
	       "interrupted wins over everything: 130");
	result_free(r);
}

int main(void)
{
	char dir[] = "/tmp/fsgauge-test-suite-dir.XXXXXX";

	if (!mkdtemp(dir)) {
		printf("Bail out! cannot create a temporary directory\n");
		return 1;
	}
	test_help();
	test_messages(dir);
	test_run(dir);
	test_setup_hook(dir);
	test_bonnie_metrics();
	test_metric_defs_old(dir);
	test_exit_status();
	test_targets(dir);
	rmdir(dir);
	return done_testing();
}
