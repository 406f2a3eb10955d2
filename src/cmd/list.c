/* list.c — `fsgauge list` and `fsgauge show NAME`: the built-in
 * personalities. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "suite/options.h"
#include "util/rundir.h"
#include "util/util.h"
#include "workload/builtin.h"
#include "workload/workload.h"

int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fsgauge list\n\nLists the built-in workloads with a one-line "
		       "description.\nRun one with 'fsgauge run NAME'; print it with 'fsgauge show "
		       "NAME'.\n");
		return EXIT_OK;
	}
	if (argc > 1) {
		msg_err("list takes no arguments (got '%s')", argv[1]);
		return EXIT_USAGE;
	}
	for (const struct builtin_workload *b = builtin_workloads; b->name; b++)
		printf("%-30s %s\n", b->name, b->description);
	return EXIT_OK;
}

static const struct suite_opt show_opts[] = {
	{ "resolved", 0, 'r', OPTARG_NONE, NULL,
	  "print the workload as fsgauge reads it instead: one\nitem per line, every attribute with its value\n(docs/workload-language.md, \"The canonical dump\")" },
	{ "set", 's', 's', OPTARG_REQUIRED, "VAR=VALUE",
	  "with --resolved: set a workload variable first, as\n'fsgauge run -s' does (repeatable)" },
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

struct show_args {
	int resolved;
	struct wl_override *ov; /* -s, and one more slot for $dir */
	size_t nov;
};

/* One option of show: 0, SHOW_DONE after --help, or EXIT_USAGE after a
 * message. */
#define SHOW_DONE 1000
static int show_option(struct show_args *a, int c, const char *arg)
{
	char *eq;

	if (c == 'h') {
		printf("usage: fsgauge show [--resolved [-s VAR=VALUE]...] NAME|FILE.f\n\n"
		       "Prints the workload-language text of a built-in workload or a workload\n"
		       "file.  Save it to a file, edit it, and run it with 'fsgauge run FILE.f'.\n\n"
		       "options:\n");
		opt_help_table(stdout, show_opts);
		return SHOW_DONE;
	}
	if (c == 'r') {
		a->resolved = 1;
		return 0;
	}
	eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		msg_err("invalid -s '%s' (expected VAR=VALUE)", arg);
		return EXIT_USAGE;
	}
	*eq = 0;
	a->ov = xrealloc(a->ov, (a->nov + 1) * sizeof(*a->ov));
	a->ov[a->nov].name = arg[0] == '$' ? arg + 1 : arg;
	a->ov[a->nov].value = eq + 1;
	a->ov[a->nov].implicit = 0;
	a->nov++;
	return 0;
}

/* The canonical dump of `text` with the overrides; $dir, unless -s gives
 * it, as `run` without -d would see it before its run directory. */
static int show_resolved(const char *text, const char *source, struct show_args *a, int builtin)
{
	struct workload *w = NULL;
	struct wl_error err;
	size_t n = a->nov;
	int has_dir = 0;
	char *dump;

	for (size_t i = 0; i < a->nov; i++)
		has_dir |= !strcmp(a->ov[i].name, "dir");
	a->ov = xrealloc(a->ov, (a->nov + 1) * sizeof(*a->ov));
	if (!has_dir)
		a->ov[n++] = (struct wl_override){ "dir", rundir_default_parent(), 1 };
	if (workload_parse(text, source, a->ov, n, &w, &err) < 0) {
		if (err.line)
			msg_err("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
		else /* the command line's -s: no position */
			msg_err("%s: %s", err.file, err.msg);
		/* a built-in that does not parse by itself is our bug */
		return builtin && !a->nov ? EXIT_SYSTEM : EXIT_USAGE;
	}
	for (size_t i = 0; i < w->nwarnings; i++)
		msg_warn("%s", w->warnings[i]);
	dump = workload_dump(w);
	fputs(dump, stdout);
	free(dump);
	workload_free(w);
	return EXIT_OK;
}

static int show_one(const char *name, struct show_args *a)
{
	const struct builtin_workload *b = NULL;
	const char *source = name;
	char *text;
	int ret;

	if (workload_arg_is_file(name)) {
		text = read_text_file(name);
		if (!text) {
			err_errno(-errno, "cannot read workload file '%s'", name);
			return EXIT_USAGE;
		}
	} else {
		b = builtin_find(name);
		if (!b) {
			msg_err("unknown workload '%s' (see 'fsgauge list', or give a .f file)",
				name);
			return EXIT_USAGE;
		}
		text = xstrdup(b->text);
		source = b->name;
	}
	if (a->resolved) {
		ret = show_resolved(text, source, a, b != NULL);
	} else {
		fputs(text, stdout);
		ret = EXIT_OK;
	}
	free(text);
	return ret;
}

int cmd_show(int argc, char **argv)
{
	struct show_args a = { 0 };
	struct opt_parser p;
	const char *arg;
	int c, ret = 0;

	opt_parser_init(&p, argv[0], 0, show_opts, NULL, 0);
	while (ret == 0 && (c = opt_next(&p, argc, argv, &arg)) > 0)
		ret = show_option(&a, c, arg);
	opt_parser_free(&p);
	if (ret == 0 && c < 0)
		ret = EXIT_USAGE;
	if (ret == 0 && a.nov && !a.resolved) {
		msg_err("-s applies to --resolved only (the text is printed as written)");
		ret = EXIT_USAGE;
	}
	if (ret == 0 && optind + 1 != argc) {
		msg_err("show needs exactly one workload name or file (see 'fsgauge list')");
		ret = EXIT_USAGE;
	}
	if (ret == 0)
		ret = show_one(argv[optind], &a);
	free(a.ov);
	return ret == SHOW_DONE ? EXIT_OK : ret;
}
