/*
 * main.c — fsgauge's entry point: dispatches to the subcommands in cmd/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gitrev.h" /* generated: FSGAUGE_GITREV, the commit built from */
#include "cmd/cmd.h"
#include "engine/engine.h"
#include "stats/result.h"
#include "util/util.h"

const struct command commands[] = {
	{ "run", cmd_run, "run a filebench-style workload (built-in name or .f file)" },
	{ "list", cmd_list, "list the built-in workloads" },
	{ "show", cmd_show, "print a built-in workload's text" },
	{ "untar", cmd_untar, "extract a tarball (or a synthetic tree) N times, measured" },
	{ "compare", cmd_compare, "compare result files: ratios, confidence intervals, significance" },
	{ "report", cmd_report, "write a self-contained HTML report with charts from result files" },
	{ "iozone", cmd_iozone, "iozone's tests and throughput mode, iozone's options and report" },
	{ "io", cmd_io, "fio's block workloads with fio's options: queue depth, devices" },
	{ "verify", cmd_verify, "write, read back and check data (corruption test)" },
	{ "devcheck", cmd_devcheck, "check whether a block device may be read or written" },
	{ "bonnie", cmd_bonnie, "bonnie++'s tests with bonnie++'s options, table and CSV" },
	{ "clean", cmd_clean, "remove the run directories that killed runs left behind" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fsgauge COMMAND [options]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'fsgauge COMMAND --help' describes a command's options.\n"
		   "'fsgauge --version' lists the compiled-in features.\n");
}

static void version(void)
{
	const char *const *e = engine_names();

	printf("fsgauge %s (%s)\n", FSGAUGE_VERSION, FSGAUGE_GITREV);
	printf("engines:");
	for (; *e; e++)
		printf(" %s", *e);
	printf("\nfeatures:");
#ifdef HAVE_LIBURING
	printf(" +io_uring");
#else
	printf(" -io_uring");
#endif
#ifdef HAVE_LIBAIO
	printf(" +libaio");
#else
	printf(" -libaio");
#endif
#ifdef HAVE_LIBARCHIVE
	printf(" +libarchive");
#else
	printf(" -libarchive");
#endif
#ifdef HAVE_LIBBLKID
	printf(" +libblkid");
#else
	printf(" -libblkid");
#endif
#ifdef HAVE_MPI
	printf(" +mpi");
#else
	printf(" -mpi");
#endif
	printf(" +jansson\n");
}

int main(int argc, char **argv)
{
	/* before getopt permutes argv: every result records it as given */
	result_set_command_line(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc == 3) {
		/* `fsgauge help run` is `fsgauge run --help` */
		static char help_opt[] = "--help";
		char *hargv[] = { argv[2], help_opt, NULL };

		for (const struct command *c = commands; c->name; c++)
			if (!strcmp(argv[2], c->name))
				return c->fn(2, hargv);
		msg_err("unknown command '%s' (try 'fsgauge --help')", argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return EXIT_OK;
	}
	for (const struct command *c = commands; c->name; c++) {
		if (!strcmp(argv[1], c->name)) {
			/* getopt names the program by argv[0]: "fsgauge run: ..." */
			char *name = xasprintf("fsgauge %s", argv[1]);
			int ret;

			argv[1] = name;
			ret = c->fn(argc - 1, argv + 1);
			free(name);

			/* output lost (a closed pipe, a full disk) is a failure */
			if ((fflush(stdout) == EOF || ferror(stdout)) && ret == EXIT_OK) {
				err_errno(-(errno ? errno : EIO), "cannot write to standard output");
				ret = EXIT_SYSTEM;
			}
			return ret;
		}
	}
	msg_err("unknown command '%s' (try 'fsgauge --help')", argv[1]);
	return EXIT_USAGE;
}
