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
#include "suite/run/run.h"
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
	int per_target;		/* --per-target */
	/* --per-target: the instance for each target (inst[0] is w, which
	 * holds every instance's filesets and processes once they are
	 * built; the others keep the variables those refer to) */
	struct workload **inst;
	size_t ninst;
	/* variables of the file's own `set` that put a fileset outside the
	 * one -d target: they stand for the run directory (paths_check()) */
	struct wl_var **moved;
	size_t nmoved;
};

enum { RUN_TIME = 't', RUN_SET = 's', RUN_FILE = 'f', RUN_PER_TARGET = OPT_OWN };

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
	{ "per-target", 0, RUN_PER_TARGET, OPTARG_NONE, NULL,
	  "with several -d: run one instance of the workload in\neach target at once (as bonnie++ -p), "
	  "each\noperation's figures kept apart as NAME@K, K the\nnumber of its -d from 1 "
	  "(docs/targets.md)" },
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
	if (key == RUN_PER_TARGET) {
		r->per_target = 1;
		return EXIT_OK;
	}
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

/*
 * Several -d (docs/targets.md): the workload's filesets must sit under
 * them, each target holding at least one.  A workload whose filesets all
 * sit in one (its $dir's) runs in one target; a fileset under none is
 * refused here, before anything is created.  EXIT_OK or EXIT_USAGE after
 * a message.
 */
/* The targets as runner_fileset_target() sees them before their run
 * directories exist: each stands for its own (and $dir is the target
 * itself).  Caller frees the array. */
static struct rundir *bare_rundirs(struct suite_session *s)
{
	struct rundir *rds = xcalloc(s->ntargets, sizeof(*rds));

	for (size_t i = 0; i < s->ntargets; i++)
		rds[i].parent = rds[i].path = (char *)suite_target(s, i);
	return rds;
}

static int targets_check(struct suite_session *s, const struct workload *w)
{
	struct rundir *rds = bare_rundirs(s);
	unsigned char *used = xcalloc(s->ntargets, 1);
	size_t nused = 0, unused = s->ntargets;
	char rel[4096], what[1024];
	int ret = EXIT_OK;

	for (size_t i = 0; i < w->nfilesets && ret == EXIT_OK; i++) {
		int at;

		if (w->filesets[i]->has_device)
			continue;
		at = runner_fileset_target(w->filesets[i], rds, s->ntargets, rel, sizeof(rel), 0);
		if (at < 0)
			ret = EXIT_USAGE;
		else if (!used[at]++)
			nused++;
	}
	for (size_t i = s->ntargets; i-- > 0;)
		if (!used[i])
			unused = i; /* the first */
	if (ret == EXIT_OK && nused < 2) {
		msg_err("%s: workload '%s' has one $dir, so it runs in one target; give one -d, "
			"or --per-target to run it in each (docs/targets.md)",
			suite_targets_text(s, what, sizeof(what)), w->name);
		ret = EXIT_USAGE;
	} else if (ret == EXIT_OK && nused < s->ntargets) {
		msg_err("-d '%s' holds none of the filesets of workload '%s': give -d only for the "
			"directories its filesets' paths name (docs/targets.md)",
			suite_target(s, unused), w->name);
		ret = EXIT_USAGE;
	}
	free(used);
	free(rds);
	return ret;
}

/* The workload's text parsed with the overrides, $dir's among them, into
 * *w: EXIT_OK, or EXIT_USAGE after the parser's message. */
static int parse(struct run_suite *r, struct workload **w)
{
	struct wl_error werr;

	if (workload_parse(r->text, r->source, r->ov, r->nov + 1, w, &werr) == 0)
		return EXIT_OK;
	if (werr.line)
		msg_err("%s:%d:%d: %s", werr.file, werr.line, werr.col, werr.msg);
	else /* the command line's -s: no position */
		msg_err("%s: %s", werr.file, werr.msg);
	return EXIT_USAGE;
}

/* Every fileset of instance k sits under target k (its $dir): EXIT_OK,
 * or EXIT_USAGE after a message. */
static int instance_check(struct suite_session *s, const struct workload *w, size_t k,
			  const struct rundir *rds)
{
	char rel[4096];

	for (size_t i = 0; i < w->nfilesets; i++) {
		const struct wl_fileset *fs = w->filesets[i];
		int at;

		if (fs->has_device) {
			msg_err("--per-target: %s '%s' is a block device, which the instances would "
				"share; --per-target runs workloads whose files are all under $dir",
				fs->is_file ? "file" : "fileset", fs->name);
			return EXIT_USAGE;
		}
		at = runner_fileset_target(fs, rds, s->ntargets, rel, sizeof(rel), 0);
		if (at < 0)
			return EXIT_USAGE;
		if ((size_t)at != k) {
			msg_err("--per-target: %s '%s' has path '%s', not under $dir ('%s'); "
				"--per-target runs workloads whose files are all under $dir "
				"(docs/targets.md)",
				fs->is_file ? "file" : "fileset", fs->name,
				wl_val_str(&fs->path, ""), suite_target(s, k));
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/*
 * --per-target (docs/targets.md): one instance of the workload in each
 * target, parsed with its own target as $dir, every name in it given
 * "@K" (K the target's number, from 1), all run as one workload r->w.
 * EXIT_OK, or EXIT_USAGE after a message.
 */
static int per_target_build(struct suite_session *s, struct run_suite *r)
{
	struct rundir *rds;
	int ret = EXIT_OK;

	if (s->ntargets < 2) {
		msg_err("--per-target runs the workload once in each target: give -d more than once");
		return EXIT_USAGE;
	}
	rds = bare_rundirs(s);
	r->inst = xcalloc(s->ntargets, sizeof(*r->inst));
	r->inst[0] = r->w;
	r->ninst = 1;
	for (size_t k = 0; k < s->ntargets && ret == EXIT_OK; k++) {
		if (k > 0) {
			r->ov[r->nov].value = suite_target(s, k);
			ret = parse(r, &r->inst[k]);
			if (ret != EXIT_OK)
				break;
			r->ninst++;
		}
		ret = instance_check(s, r->inst[k], k, rds);
	}
	r->ov[r->nov].value = suite_target(s, 0);
	for (size_t k = 0; k < r->ninst && ret == EXIT_OK; k++) {
		char sfx[32];

		snprintf(sfx, sizeof(sfx), "@%zu", k + 1);
		workload_suffix_names(r->inst[k], sfx);
	}
	for (size_t k = 1; k < r->ninst && ret == EXIT_OK; k++)
		workload_absorb(r->w, r->inst[k]);
	free(rds);
	return ret;
}

static int run_check(struct suite_session *s, int argc, char **argv)
{
	struct run_suite *r = ctx(s);
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
	if (parse(r, &r->w) != EXIT_OK)
		return EXIT_USAGE;
	ret = paths_check(s, r);
	if (ret != EXIT_OK)
		return ret;
	for (size_t i = 0; i < r->w->nwarnings; i++)
		msg_warn("%s", r->w->warnings[i]);
	if (!s->ro.quiet)
		for (size_t i = 0; i < r->w->nechoes; i++)
			fprintf(stderr, "%s\n", r->w->echoes[i]);
	s->ro.duration = run_duration(r);
	if (r->per_target && per_target_build(s, r) != EXIT_OK)
		return EXIT_USAGE;
	return s->ntargets > 1 ? targets_check(s, r->w) : EXIT_OK;
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
	/* several targets: each fileset's share in its own ($dir is still
	 * the first target here, as runner_fileset_target() maps it) */
	if (s->nrd > 1 && runner_needs_targets(r->w, &s->ro, s->rds, s->nrd, s->tneeds) < 0)
		return EXIT_USAGE;
	s->has_needs = 1;
	workload_set_var(r->w, "dir", s->rd->path);
	for (size_t k = 1; k < r->ninst; k++)
		workload_set_var(r->inst[k], "dir", s->rds[k].path);
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
	if (ctx(s)->per_target)
		kv_add(&res->params, "per_target", "true");
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

/* --per-target: after the IO Summary (every target's operations), one
 * line per target with its own operations' figures. */
static void per_target_lines(struct suite_session *s, const struct result *acc)
{
	const struct result_phase *p;
	struct result_phase sub;

	if (!acc->nphases || acc->phases[acc->nphases - 1].too_fast)
		return;
	p = &acc->phases[acc->nphases - 1];
	for (size_t k = 1; k <= ctx(s)->ninst; k++) {
		struct result_headline h;

		suite_target_phase(p, k, &sub);
		result_phase_headline(&sub, &h);
		printf("  target %zu '%s': %llu ops %.1f ops/s, (%.0f/%.0f r/w) %.1fmb/s, "
		       "%.3fms latency\n",
		       k, suite_target(s, k - 1), (unsigned long long)h.ops, h.ops_per_second,
		       h.read_ops_per_second, h.write_ops_per_second, h.mb_per_second,
		       h.mean_latency_ms);
		free(sub.ops);
	}
}

static void run_report(struct suite_session *s, struct result *acc)
{
	output_text_flags(stdout, acc, OUTPUT_TEXT_FILEBENCH_ORDER);
	if (ctx(s)->per_target)
		per_target_lines(s, acc);
}

static void run_fini(struct suite_session *s)
{
	struct run_suite *r = ctx(s);

	workload_free(r->w);
	/* after w: its filesets and processes refer to their variables */
	for (size_t k = 1; k < r->ninst; k++)
		workload_free(r->inst[k]);
	free(r->inst);
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
	.help_extra = "Several -d: a workload file whose filesets' paths sit under different\n"
		      "directories takes one -d for each (each fileset goes in the run directory\n"
		      "made there, $dir is the first); every -d must hold one of its filesets.  A\n"
		      "workload with one $dir takes one -d, or several with --per-target: one\n"
		      "instance in each, its names given @K (docs/targets.md).\n",
	.shared = SH_DIR | SH_SESSION | SH_SEED | SH_ON_ERROR | SH_QUIET | SH_MEASURE | SH_DRY_RUN,
	.ctx_size = sizeof(struct run_suite),
	.init = run_init,
	.option = run_option,
	.check = run_check,
	.plan = run_plan,
	.params = run_params,
	.run = run_run,
	.report = run_report,
	.html_section = run_html_section,
	.fini = run_fini,
};
