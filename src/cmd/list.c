/* list.c — `fsgauge list` and `fsgauge show NAME`: the built-in
 * personalities. */
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
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

int cmd_show(int argc, char **argv)
{
	const struct builtin_workload *b;
	const char *name = NULL, *arg;
	struct opt_parser p;
	int resolved = 0, c;

	opt_parser_init(&p, argv[0], 0, show_opts, NULL, 0);
	while ((c = opt_next(&p, argc, argv, &arg)) > 0) {
		if (c == 'h') {
			opt_parser_free(&p);
			printf("usage: fsgauge show [--resolved] NAME\n\n"
			       "Prints the workload-language text of a built-in workload.\n"
			       "Save it to a file, edit it, and run it with 'fsgauge run FILE.f'.\n\n"
			       "options:\n");
			opt_help_table(stdout, show_opts);
			return EXIT_OK;
		}
		resolved = 1;
	}
	opt_parser_free(&p);
	if (c < 0)
		return EXIT_USAGE;
	if (optind + 1 == argc)
		name = argv[optind];
	if (!name) {
		msg_err("show needs exactly one workload name (see 'fsgauge list')");
		return EXIT_USAGE;
	}
	b = builtin_find(name);
	if (!b) {
		msg_err("unknown workload '%s' (see 'fsgauge list')", name);
		return EXIT_USAGE;
	}
	if (resolved) {
		/* $dir as `run` without -d would see it before its run directory */
		struct wl_override ov = { "dir", rundir_default_parent(), 1 };
		struct workload *w = NULL;
		struct wl_error err;
		char *dump;

		if (workload_parse(b->text, b->name, &ov, 1, &w, &err) < 0) {
			msg_err("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
			return EXIT_SYSTEM; /* a built-in that does not parse is our bug */
		}
		dump = workload_dump(w);
		fputs(dump, stdout);
		free(dump);
		workload_free(w);
		return EXIT_OK;
	}
	fputs(b->text, stdout);
	return EXIT_OK;
}
