/*
 * run.c — the `run` suite: a filebench-style workload (a built-in
 * personality or a .f file) parsed into the workload model and run as one
 * phase; the text report is filebench's breakdown (in filebench's order,
 * the last-defined operation first) and IO Summary (output/text.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "suite/suite.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/builtin.h"
#include "workload/workload.h"

#define DEFAULT_DURATION 60.0
#define UNBOUNDED_DURATION DURATION_MAX_SECONDS

struct run_suite {
	struct wl_override *ov; /* -s VAR=VALUE, and room for $dir's */
	size_t nov;
	const char *dir_s;	/* -s dir=X */
	const char *file;	/* -f FILE (filebench's habit) */
	double duration;	/* -t; -1 when not given */
	char *text;		/* the workload's text */
	const char *source;	/* its file name or built-in name */
	struct workload *w;
	/* variables of the file's own `set` that put a fileset outside the
	 * one -d target: they stand for the run directory (paths_check()) */
	struct wl_var **moved;
	size_t nmoved;
};

enum { RUN_TIME = 't', RUN_SET = 's', RUN_FILE = 'f' };

static const struct suite_opt run_opts[] = {
	{ "file", 'f', RUN_FILE, OPTARG_REQUIRED, "FILE",
	  "the workload file (as filebench -f FILE); the same as\ngiving FILE as the operand" },
	{ "time", 't', RUN_TIME, OPTARG_REQUIRED, "SECS",
	  "run time; overrides the file's 'run N' (default: the\nfile's 'run N'; a bare 'run' "
	  "with 'set mode quit\nfirstdone|alldone' runs until done; else 60 seconds;\nat most a "
	  "year, as for 'run N')" },
	{ "set", 's', RUN_SET, OPTARG_REQUIRED, "VAR=VALUE",
	  "set a workload variable, overriding the file's 'set'\n(repeatable; -s nthreads=32 -s "
	  "filesize=64k)" },
	{ 0 },
};

static struct run_suite *ctx(struct suite_session *s)
{
	return s->ctx;
}

static int run_option(struct suite_session *s, int key, const char *arg, int argc, char **argv)
{
	struct run_suite *r = ctx(s);
	char *eq;

	(void)argc;
	(void)argv;
	if (key == RUN_FILE) {
		if (r->file) {
			msg_err("-f given twice ('%s' and '%s'): give one workload", r->file, arg);
			return EXIT_USAGE;
		}
		r->file = arg;
		return EXIT_OK;
	}
	if (key == RUN_TIME) {
		if (duration_parse(arg, 0, 1, &r->duration) < 0) {
			msg_err("invalid -t '%s' (expected seconds, above 0 and at most "
				DURATION_MAX_TEXT ")", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	/* -s VAR=VALUE: the argument is split in place, as getopt leaves it */
	eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		msg_err("invalid -s '%s' (expected VAR=VALUE)", arg);
		return EXIT_USAGE;
	}
	*eq = 0;
	if (!strcmp(arg[0] == '$' ? arg + 1 : arg, "dir")) {
		r->dir_s = eq + 1; /* -s dir=X is the same as -d X */
		return EXIT_OK;
	}
	r->ov = xrealloc(r->ov, (r->nov + 1) * sizeof(*r->ov));
	r->ov[r->nov].name = arg[0] == '$' ? arg + 1 : arg;
	r->ov[r->nov].value = eq + 1;
	r->ov[r->nov].implicit = 0;
	r->nov++;
	return EXIT_OK;
}

static int load_file(struct run_suite *r, const char *name)
{
	r->text = read_text_file(name);
	if (!r->text) {
		err_errno(-errno, "cannot read workload file '%s'", name);
		return EXIT_USAGE;
	}
	r->source = name;
	return EXIT_OK;
}

/* The workload's text from the operand: a file or a built-in name. */
static int load_text(struct run_suite *r, const char *name)
{
	const struct builtin_workload *b;

	if (workload_arg_is_file(name))
		return load_file(r, name);
	b = builtin_find(name);
	if (!b) {
		msg_err("unknown workload '%s' (see 'fsgauge list', or give a .f file)", name);
		return EXIT_USAGE;
	}
	r->text = xstrdup(b->text);
	r->source = b->name;
	return EXIT_OK;
}

/*
 * One target named (-d or -s dir=): a fileset whose path lies outside it
 * is placed in the run directory when that path comes from the file's
 * own `set` of a variable (filebench's createdelete-swing keeps its
 * directory in $path, not $dir), with a note naming the variable; it is
 * refused when the path was given with -s (naming the variable to
 * change) or written in the define itself.  Nothing is created before
 * this, and the runner still refuses any path outside the run directory
 * (runner_fileset_target()).  Several -d are left to their own checks.
 * EXIT_OK or EXIT_USAGE after a message.
 */
static int paths_check(struct suite_session *s, struct run_suite *r)
{
	/* the target as runner_fileset_target() sees it before the run
	 * directory exists: $dir is the target itself */
	struct rundir rd = { .parent = (char *)s->dir, .path = (char *)s->dir };
	const struct workload *w = r->w;

	if (!s->dir || s->ntargets > 1)
		return EXIT_OK;
	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct wl_fileset *def = w->filesets[i];
		const char *kind = def->is_file ? "file" : "fileset";
		const char *p = wl_val_str(&def->path, s->dir);
		struct wl_var *v = def->path.kind == WLV_VAR ? def->path.var : NULL;

		if (def->has_device || runner_path_target(p, &rd, 1) >= 0)
			continue;
		if (v && v->overridden) {
			msg_err("%s '%s' has path '%s' from -s %s, outside the target '%s'; fsgauge "
				"only writes below its own run directory (change -s %s to a "
				"directory inside the target)",
				kind, def->name, p, v->name, s->dir, v->name);
			return EXIT_USAGE;
		}
		if (!v) {
			msg_err("%s '%s' has path '%s', outside the target '%s'; fsgauge only "
				"writes below its own run directory (change path= of %s '%s' to "
				"$dir or a directory inside the target)",
				kind, def->name, p, s->dir, kind, def->name);
			return EXIT_USAGE;
		}
		if (s->chatter) /* once under mpirun, not with -q */
			msg_info("note: %s '%s' has path '%s' from the file's 'set $%s', outside "
				 "the target '%s': $%s is the run directory instead (-s %s=DIR for "
				 "a directory DIR inside the target)",
				 kind, def->name, p, v->name, s->dir, v->name, v->name);
		/* every use of the variable: the run directory (the target
		 * stands for it until it exists; run_plan() names it) */
		if (workload_set_var(r->w, v->name, s->dir) < 0) {
			msg_err("cannot set $%s to the target '%s'", v->name, s->dir);
			return EXIT_USAGE;
		}
		r->moved = xrealloc(r->moved, (r->nmoved + 1) * sizeof(*r->moved));
		r->moved[r->nmoved++] = v;
	}
	return EXIT_OK;
}

static double run_duration(const struct run_suite *r)
{
	const struct workload *w = r->w;

	if (r->duration > 0)
		return r->duration;
	if (w->has_run && w->run_seconds > 0)
		return w->run_seconds;
	if (w->has_run && w->quit_mode != QUIT_TIMEOUT)
		return UNBOUNDED_DURATION; /* `run` with firstdone/alldone: until done */
	return DEFAULT_DURATION;
}

static int run_check(struct suite_session *s, int argc, char **argv)
{
	struct run_suite *r = ctx(s);
	struct wl_error werr;
	int ret;

	if (r->dir_s && s->dir && strcmp(s->dir, r->dir_s)) {
		msg_err("-d '%s' and -s dir='%s' name different directories: give one", s->dir,
			r->dir_s);
		return EXIT_USAGE;
	}
	if (r->dir_s && s->ntargets > 1) {
		msg_err("-s dir='%s' and several -d name different directories: give one",
			r->dir_s);
		return EXIT_USAGE;
	}
	if (r->dir_s)
		s->dir = r->dir_s;
	if (s->dir && !*s->dir)
		return EXIT_OK; /* the shared checks say what is wrong */
	if (r->file && argc > 0) {
		msg_err("-f '%s' and '%s' both name the workload: give one", r->file, argv[0]);
		return EXIT_USAGE;
	}
	if (argc < 1 && !r->file) {
		msg_err("run needs a workload name or file (see 'fsgauge list')");
		return EXIT_USAGE;
	}
	if (argc > 1) {
		msg_err("unexpected argument '%s' after the workload", argv[1]);
		return EXIT_USAGE;
	}
	ret = r->file ? load_file(r, r->file) : load_text(r, argv[0]);
	if (ret != EXIT_OK)
		return ret;
	/* $dir is the run directory, known only once it exists: parse with the
	 * target in its place (so echo/usage texts and checks see a value),
	 * then point it at the run directory. */
	r->ov = xrealloc(r->ov, (r->nov + 1) * sizeof(*r->ov));
	r->ov[r->nov].name = "dir";
	r->ov[r->nov].value = s->dir ? s->dir : rundir_default_parent();
	r->ov[r->nov].implicit = 1;
	if (workload_parse(r->text, r->source, r->ov, r->nov + 1, &r->w, &werr) < 0) {
		if (werr.line)
			msg_err("%s:%d:%d: %s", werr.file, werr.line, werr.col, werr.msg);
		else /* the command line's -s: no position */
			msg_err("%s: %s", werr.file, werr.msg);
		return EXIT_USAGE;
	}
	ret = paths_check(s, r);
	if (ret != EXIT_OK)
		return ret;
	for (size_t i = 0; i < r->w->nwarnings; i++)
		msg_warn("%s", r->w->warnings[i]);
	if (!s->ro.quiet)
		for (size_t i = 0; i < r->w->nechoes; i++)
			fprintf(stderr, "%s\n", r->w->echoes[i]);
	s->ro.duration = run_duration(r);
	if (s->ntargets > 1) {
		char what[1024];

		msg_err("%s: workload '%s' has one $dir, so it runs in one target; give one -d "
			"(docs/targets.md)",
			suite_targets_text(s, what, sizeof(what)), r->w->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * The result's workload_hash: result_hash() of the canonical dump (what
 * `fsgauge show --resolved` prints) of the workload as run, -s overrides
 * applied, but with $dir as the fixed text RESOLVED_DIR instead of the
 * target, so that one workload run on two file systems has one hash.  A
 * second parse, so that texts the target was put in (echo) are fixed too.
 * The text itself goes into *text (the result's workload_text).
 */
#define RESOLVED_DIR "\"<target>\""

static char *resolved_hash(struct run_suite *r, char **text)
{
	/* the variables moved into the run directory too (paths_check()) */
	size_t n = r->nov + 1 + r->nmoved;
	struct wl_override *ov = xcalloc(n, sizeof(*ov));
	struct workload *w = NULL;
	struct wl_error werr;
	char *dump, *h = NULL;

	memcpy(ov, r->ov, (r->nov + 1) * sizeof(*ov));
	ov[r->nov].value = RESOLVED_DIR;
	for (size_t i = 0; i < r->nmoved; i++)
		ov[r->nov + 1 + i] = (struct wl_override){ .name = r->moved[i]->name,
							   .value = RESOLVED_DIR, .implicit = 1 };
	if (workload_parse(r->text, r->source, ov, n, &w, &werr) == 0) {
		dump = workload_dump(w);
		h = result_hash(dump, strlen(dump));
		*text = dump;
	}
	workload_free(w);
	free(ov);
	return h;
}

static int run_plan(struct suite_session *s)
{
	struct run_suite *r = ctx(s);

	if (runner_needs(r->w, &s->ro, &s->needs) < 0)
		return EXIT_USAGE;
	s->has_needs = 1;
	workload_set_var(r->w, "dir", s->rd->path);
	for (size_t i = 0; i < r->nmoved; i++)
		workload_set_var(r->w, r->moved[i]->name, s->rd->path);
	s->w = r->w;
	s->workload = r->w->name;
	s->workload_hash = resolved_hash(r, &s->workload_text);
	return EXIT_OK;
}

/* Is v one of the variables paths_check() moved into the run directory? */
static int moved_var(const struct run_suite *r, const struct wl_var *v)
{
	for (size_t i = 0; i < r->nmoved; i++)
		if (r->moved[i] == v)
			return 1;
	return 0;
}

static void run_params(struct suite_session *s, struct result *res)
{
	const struct workload *w = ctx(s)->w;

	for (size_t i = 0; i < w->nvars; i++) {
		const struct wl_var *v = w->vars[i];
		char key[300];

		snprintf(key, sizeof(key), "var.%s", v->name);
		switch (v->kind) {
		case VAR_INT:
			kv_add(&res->params, key, "%lld", (long long)v->i);
			break;
		case VAR_DBL:
			kv_add(&res->params, key, "%g", v->d);
			break;
		case VAR_BOOL:
			kv_add(&res->params, key, "%s", v->i ? "true" : "false");
			break;
		case VAR_STR:
			/* the run directory differs every run */
			if (strcmp(v->name, "dir") && !moved_var(ctx(s), v))
				kv_add(&res->params, key, "%s", v->s ? v->s : "");
			break;
		case VAR_RAND:
			kv_add(&res->params, key, "random(mean=%g)", randvar_mean(v->rv));
			break;
		default:
			break;
		}
	}
	kv_add(&res->params, "duration", "%g", s->ro.duration);
	kv_add(&res->params, "engine", "%s", s->ro.engine);
	kv_add(&res->params, "seed", "%llu", (unsigned long long)s->ro.seed);
	kv_add(&res->params, "on_error", "%s",
	       s->ro.on_error == ON_ERROR_STOP ? "stop" : "continue");
}

static int run_run(struct suite_session *s, struct runner *rn, struct result *one)
{
	const struct workload *w = ctx(s)->w;

	return runner_phase(rn, "run", w->processes, w->nprocesses, s->ro.duration);
}

static void run_report(struct suite_session *s, struct result *acc)
{
	(void)s;
	output_text_flags(stdout, acc, OUTPUT_TEXT_FILEBENCH_ORDER);
}

static void run_fini(struct suite_session *s)
{
	struct run_suite *r = ctx(s);

	workload_free(r->w);
	free(r->text);
	free(r->ov);
	free(r->moved);
}

static void run_init(struct suite_session *s)
{
	ctx(s)->duration = -1;
	s->ro.chatter_unnamed = 1; /* filebench's "Running for 60 seconds..." */
}

const struct suite_ops suite_run = {
	.name = "run",
	.synopsis = "fsgauge run WORKLOAD|FILE.f [options]\n       fsgauge run -f FILE [options]",
	.about = "Runs a filebench-style workload: a built-in personality (see 'fsgauge list')\n"
		 "or a workload file.  All files are created in a fresh, marked directory inside\n"
		 "the target, which is removed afterwards unless --keep is given.",
	.opts = run_opts,
	.shared = SH_DIR | SH_SESSION | SH_SEED | SH_ON_ERROR | SH_QUIET | SH_MEASURE | SH_DRY_RUN,
	.ctx_size = sizeof(struct run_suite),
	.init = run_init,
	.option = run_option,
	.check = run_check,
	.plan = run_plan,
	.params = run_params,
	.run = run_run,
	.report = run_report,
	.fini = run_fini,
};
