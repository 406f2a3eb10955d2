/*
 * run.c — `fsgauge run WORKLOAD|FILE.f`: parse a filebench-style workload,
 * create a marked run directory, run it on the engine, print the
 * filebench-style breakdown and IO Summary, write JSON, clean up.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "output/output.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "stats/env.h"
#include "util/outfile.h"
#include "util/rundir.h"
#include "util/size.h"
#include "util/util.h"
#include "workload/builtin.h"
#include "workload/workload.h"

#define DEFAULT_DURATION 60.0
#define UNBOUNDED_DURATION DURATION_MAX_SECONDS

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge run WORKLOAD|FILE.f [options]\n"
		"\n"
		"Runs a filebench-style workload: a built-in personality (see 'fsgauge list')\n"
		"or a workload file.  All files are created in a fresh, marked directory inside\n"
		"the target, which is removed afterwards unless --keep is given.\n"
		"\n"
		"options:\n"
		"  -d, --dir DIR          target directory (default: $TMPDIR or /tmp)\n"
		"  -t, --time SECS        run time; overrides the file's 'run N' (default: the\n"
		"                         file's 'run N'; a bare 'run' with 'set mode quit\n"
		"                         firstdone|alldone' runs until done; else %.0f seconds;\n"
		"                         at most a year, as for 'run N')\n"
		"  -s, --set VAR=VALUE    set a workload variable, overriding the file's 'set'\n"
		"                         (repeatable; -s nthreads=32 -s filesize=64k)\n"
		"      --json FILE        write the full result as JSON ('-': stdout, and the\n"
		"                         tables go to stderr)\n"
		"      --label TEXT       a label stored in the result (for compare/report)\n"
		"      --engine NAME      I/O engine: psync (default), io_uring, null, or\n"
		"                         faulty:ENGINE:RULE to inject faults (tests; see\n"
		"                         docs/reliability.md)\n"
		"      --seed N           seed for file layout and random choices (default 1)\n"
		"      --on-error=MODE    stop (default) or continue after an I/O error\n"
		"      --keep             keep the run directory and its files\n"
		"  -h, --help             this help\n"
		"\n",
		DEFAULT_DURATION);
	common_run_usage(f);
	fprintf(f, "\n"
		   "exit status: 0 ok, 1 I/O errors during the run, 2 usage or workload error,\n"
		   "3 system error, 130 interrupted (partial results are still written).\n");
}

/* Read a whole file; caller frees.  NULL with errno on failure. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);

		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(buf);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

static int is_file_arg(const char *a)
{
	struct stat st;
	size_t n = strlen(a);

	return strchr(a, '/') || (n > 2 && !strcmp(a + n - 2, ".f")) ||
	       (stat(a, &st) == 0 && S_ISREG(st.st_mode));
}

static void record_params(struct result *res, const struct workload *w, const struct run_opts *o)
{
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
			if (strcmp(v->name, "dir")) /* the run directory differs every run */
				kv_add(&res->params, key, "%s", v->s ? v->s : "");
			break;
		case VAR_RAND:
			kv_add(&res->params, key, "random(mean=%g)", randvar_mean(v->rv));
			break;
		default:
			break;
		}
	}
	kv_add(&res->params, "duration", "%g", o->duration);
	kv_add(&res->params, "engine", "%s", o->engine);
	kv_add(&res->params, "seed", "%llu", (unsigned long long)o->seed);
	kv_add(&res->params, "on_error", "%s", o->on_error == ON_ERROR_STOP ? "stop" : "continue");
	common_run_params(&res->params, o);
}

/*
 * The result's workload_hash: result_hash() of the canonical dump (what
 * `fsgauge show --resolved` prints) of the workload as run, -s overrides
 * applied, but with $dir as the fixed text RESOLVED_DIR instead of the
 * target, so that one workload run on two file systems has one hash.  A
 * second parse, so that texts the target was put in (echo) are fixed too.
 * `ov` has room for nov + 1 overrides, the last being $dir's.
 */
#define RESOLVED_DIR "\"<target>\""

static char *resolved_hash(const char *text, const char *source, struct wl_override *ov,
			   size_t nov)
{
	struct wl_override dir = ov[nov];
	struct workload *w = NULL;
	struct wl_error werr;
	char *dump, *h = NULL;

	ov[nov].value = RESOLVED_DIR;
	if (workload_parse(text, source, ov, nov + 1, &w, &werr) == 0) {
		dump = workload_dump(w);
		h = result_hash(dump, strlen(dump));
		free(dump);
	}
	workload_free(w);
	ov[nov] = dir;
	return h;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "time", required_argument, NULL, 't' },
		{ "set", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'J' },
		{ "label", required_argument, NULL, 'L' },
		{ "engine", required_argument, NULL, 'E' },
		{ "seed", required_argument, NULL, 'S' },
		{ "on-error", required_argument, NULL, 'e' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		COMMON_RUN_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { .engine = "psync", .seed = 1, .on_error = ON_ERROR_STOP };
	struct wl_override *ov = NULL;
	size_t nov = 0;
	const char *dir = NULL, *json = NULL, *label = NULL, *dir_d = NULL, *dir_s = NULL;
	double duration = -1;
	int keep = 0, c, ret = EXIT_OK;
	struct workload *w = NULL;
	struct wl_error werr;
	struct rundir rd = { .fd = -1, .parent_fd = -1 };
	struct result *res = NULL;
	char *text = NULL;
	const char *name, *source;

	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed option bundle */
	while ((c = getopt_long(argc, argv, "d:t:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = dir_d = optarg;
			break;
		case 't':
			if (duration_parse(optarg, 0, 1, &duration) < 0) {
				msg_err("invalid -t '%s' (expected seconds, above 0 and at most "
					DURATION_MAX_TEXT ")", optarg);
				ret = EXIT_USAGE;
				goto out;
			}
			break;
		case 's': {
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg) {
				msg_err("invalid -s '%s' (expected VAR=VALUE)", optarg);
				ret = EXIT_USAGE;
				goto out;
			}
			*eq = 0;
			ov = xrealloc(ov, (nov + 1) * sizeof(*ov));
			ov[nov].name = optarg[0] == '$' ? optarg + 1 : optarg;
			ov[nov].value = eq + 1;
			ov[nov].implicit = 0;
			if (!strcmp(ov[nov].name, "dir")) {
				dir = dir_s = eq + 1; /* -s dir=X is the same as -d X */
				break;
			}
			nov++;
			break;
		}
		case 'J':
			json = optarg;
			break;
		case 'L':
			label = optarg;
			break;
		case 'E':
			if (!engine_find_checked(optarg)) {
				ret = EXIT_USAGE;
				goto out;
			}
			o.engine = optarg;
			break;
		case 'S': {
			uint64_t v;

			if (num_parse_u64(optarg, &v) < 0) {
				msg_err("invalid seed '%s' (expected a non-negative integer)", optarg);
				ret = EXIT_USAGE;
				goto out;
			}
			o.seed = v;
			break;
		}
		case 'e':
			if (!strcmp(optarg, "stop"))
				o.on_error = ON_ERROR_STOP;
			else if (!strcmp(optarg, "continue"))
				o.on_error = ON_ERROR_CONTINUE;
			else {
				msg_err("invalid --on-error '%s' (expected stop or continue)", optarg);
				ret = EXIT_USAGE;
				goto out;
			}
			break;
		case 'k':
			keep = 1;
			break;
		case 'q':
			common_run_opt(OPT_QUIET, NULL, &o);
			break;
		case 'h':
			run_usage(stdout);
			goto out;
		default: {
			int r = common_run_opt(c, optarg, &o);

			if (r > 0)
				break;
			if (r == 0)
				fprintf(stderr, "try 'fsgauge run --help'\n");
			ret = EXIT_USAGE;
			goto out;
		}
		}
	}
	if (common_run_check(&o) < 0 || (json && outfile_check(json, "JSON result") < 0) ||
	    (json && !strcmp(json, "-") && outfile_claim_stdout() < 0)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (dir && !*dir) {
		msg_err("cannot use target directory '': No such file or directory");
		ret = EXIT_USAGE;
		goto out;
	}
	if (dir_d && dir_s && strcmp(dir_d, dir_s)) {
		msg_err("-d '%s' and -s dir='%s' name different directories: give one", dir_d,
			dir_s);
		ret = EXIT_USAGE;
		goto out;
	}
	if (optind >= argc) {
		msg_err("run needs a workload name or file (see 'fsgauge list')");
		ret = EXIT_USAGE;
		goto out;
	}
	if (optind + 1 < argc) {
		msg_err("unexpected argument '%s' after the workload", argv[optind + 1]);
		ret = EXIT_USAGE;
		goto out;
	}
	name = argv[optind];
	if (is_file_arg(name)) {
		text = slurp(name);
		if (!text) {
			err_errno(-errno, "cannot read workload file '%s'", name);
			ret = EXIT_USAGE;
			goto out;
		}
		source = name;
	} else {
		const struct builtin_workload *b = builtin_find(name);

		if (!b) {
			msg_err("unknown workload '%s' (see 'fsgauge list', or give a .f file)", name);
			ret = EXIT_USAGE;
			goto out;
		}
		text = xstrdup(b->text);
		source = b->name;
	}
	/* $dir is the run directory, known only once it exists: parse with the
	 * target in its place (so echo/usage texts and checks see a value),
	 * then point it at the run directory. */
	ov = xrealloc(ov, (nov + 1) * sizeof(*ov));
	ov[nov].name = "dir";
	ov[nov].value = dir ? dir : rundir_default_parent();
	ov[nov].implicit = 1;
	if (workload_parse(text, source, ov, nov + 1, &w, &werr) < 0) {
		if (werr.line)
			msg_err("%s:%d:%d: %s", werr.file, werr.line, werr.col, werr.msg);
		else /* the command line's -s: no position */
			msg_err("%s: %s", werr.file, werr.msg);
		ret = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < w->nwarnings; i++)
		msg_warn("%s", w->warnings[i]);
	if (!o.quiet)
		for (size_t i = 0; i < w->nechoes; i++)
			fprintf(stderr, "%s\n", w->echoes[i]);
	if (duration > 0)
		o.duration = duration;
	else if (w->has_run && w->run_seconds > 0)
		o.duration = w->run_seconds;
	else if (w->has_run && w->quit_mode != QUIT_TIMEOUT)
		o.duration = UNBOUNDED_DURATION; /* `run` with firstdone/alldone: until done */
	else
		o.duration = DEFAULT_DURATION;

	runner_install_signals();
	int rc = rundir_create(&rd, dir, o.allow_shared_target ? RUNDIR_ALLOW_SHARED : 0);

	if (rc < 0) {
		ret = rundir_create_status(rc);
		goto out;
	}
	/* before anything else is created (after the target's own checks,
	 * which say more: a read-only or missing target): the run must fit
	 * in the target, the memory and the thread limits; else the empty
	 * run directory goes again */
	struct preflight_needs needs;

	if (runner_needs(w, &o, &needs) < 0 || preflight_check(rd.fd, rd.parent, &needs) < 0) {
		rundir_remove(&rd);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!o.quiet)
		fprintf(stderr, "run directory: %s\n", rd.path);
	workload_set_var(w, "dir", rd.path);

	res = result_new("run", w->name);
	res->label = label ? xstrdup(label) : NULL;
	res->engine = xstrdup(o.engine);
	res->seed = o.seed;
	res->workload_hash = resolved_hash(text, source, ov, nov);
	record_params(res, w, &o);
	env_capture(&res->env, rd.parent);

	int rr = runner_run(w, &rd, &o, res);

	/* the run directory goes first: on a full file system its space is
	 * what lets the results be written */
	if (rundir_finish(&rd, keep, 1) < 0)
		ret = EXIT_SYSTEM;
	if (rr < 0 && !res->nphases && !res->stopped_on_error && !res->interrupted) {
		ret = rr == -EPERM || rr == -ENOSPC || rr == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
	} else {
		output_text(stdout, res);
		fflush(stdout);
		if (res->interrupted)
			ret = EXIT_INTERRUPTED;
		else if (res->errors || res->stopped_on_error || res->verify_errors)
			ret = EXIT_RUN_ERRORS;
	}
	if (res->interrupted && !res->nphases)
		ret = EXIT_INTERRUPTED;
	if (json && (res->nphases || res->interrupted || res->stopped_on_error) &&
	    output_json_file(res, json) < 0 && !ret)
		ret = EXIT_SYSTEM;
out:
	if (rd.fd >= 0)
		rundir_release(&rd);
	result_free(res);
	workload_free(w);
	free(text);
	free(ov);
	return ret;
}
