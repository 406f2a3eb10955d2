/* list.c — `fsgauge list` and `fsgauge show NAME`: the built-in
 * personalities. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/util.h"
#include "workload/builtin.h"

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

int cmd_show(int argc, char **argv)
{
	const struct builtin_workload *b;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fsgauge show NAME\n\nPrints the workload-language text of a "
		       "built-in workload.\nSave it to a file, edit it, and run it with "
		       "'fsgauge run FILE.f'.\n");
		return EXIT_OK;
	}
	if (argc != 2) {
		msg_err("show needs exactly one workload name (see 'fsgauge list')");
		return EXIT_USAGE;
	}
	b = builtin_find(argv[1]);
	if (!b) {
		msg_err("unknown workload '%s' (see 'fsgauge list')", argv[1]);
		return EXIT_USAGE;
	}
	fputs(b->text, stdout);
	return EXIT_OK;
}
