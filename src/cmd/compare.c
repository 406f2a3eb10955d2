/*
 * compare.c — `fsgauge compare BASE.json OTHER.json...`: one table of every
 * headline figure of every result, each with its ratio to the baseline, a
 * 95% confidence interval of the ratio and a significance verdict.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/results.h"
#include "suite/options.h"
#include "suite/suite.h"
#include "util/outfile.h"
#include "util/util.h"

enum { CMP_CSV = OPT_OWN + 1, CMP_JSON, CMP_BRIEF, CMP_FORCE, CMP_NO_POOL };

/* The options; --help lists them from here. */
static const struct suite_opt compare_opts[] = {
	{ "csv", 0, CMP_CSV, OPTARG_NONE, NULL,
	  "print CSV instead of the table: one line per figure and\nresult (phase, operation, figure, unit, result, file, n,\nmean, sd, CI, ratio, ratio CI, p-value, verdict)" },
	{ "json", 0, CMP_JSON, OPTARG_REQUIRED, "FILE",
	  "also write the comparison as JSON ('-': stdout, instead\nof the table)" },
	{ "brief", 0, CMP_BRIEF, OPTARG_NONE, NULL, "the table shows phase figures only, not each operation" },
	{ "force", 0, CMP_FORCE, OPTARG_NONE, NULL,
	  "compare even when suites or workloads differ, or run\nworkloads beyond their parameters (the differences are\nlisted)" },
	{ "no-pool", 0, CMP_NO_POOL, OPTARG_NONE, NULL,
	  "treat every file as its own result, even with equal\nlabels" },
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge compare [options] BASELINE.json OTHER.json...\n"
		"\n"
		"Compares 2 or more result files (written by 'fsgauge run --json' and the other\n"
		"suites) with the first one, the baseline: for each phase and operation, each\n"
		"headline figure (ops/s, MB/s, mean and p99 latency, CPU per operation, device\n"
		"amplification when recorded) of each result, its ratio to the baseline and,\n"
		"when both results hold 2 or more repeated runs, a 95%% confidence interval of\n"
		"the ratio and a verdict from Welch's t-test on log values (p < 0.05; on raw\n"
		"values, without an interval, when a value is 0).  A single run on either side\n"
		"gives a ratio but never a verdict; a baseline of 0 gives neither.  Environment\n"
		"differences and warnings (reads likely served from memory, incomplete runs,\n"
		"mpirun ranks on several file systems or on other ones than the baseline's)\n"
		"come first.\n"
		"\n"
		"Files with the same label (--label) are pooled as repeated runs of one\n"
		"result, so 'compare ufs-*.json zfs-*.json' of separate runs works like\n"
		"--repeat.  Parameters may differ (a thread sweep, nthreads 4 against 8): they\n"
		"are listed first, under \"what differs\".  Results of different suites or\n"
		"workloads, and run workloads that differ beyond their parameters (other\n"
		"flowops: the lines that differ are shown), are refused without --force.\n"
		"A file given twice, and files that all share a label (one result: nothing\n"
		"to compare), are refused.\n"
		"\n"
		"options:\n");
	opt_help_table(f, compare_opts);
	fprintf(f,
		"\n"
		"docs/compare.md explains the statistics and how to read them.\n"
		"\n"
		"Result files must be regular files of at most %llu MiB.\n"
		"\n"
		"exit status: 0 ok, 2 usage error, a file that is not a result (not a regular\n"
		"file, too large, empty, not JSON, not an fsgauge result) or results that\n"
		"cannot be compared, 3 a result file the system does not let be read\n"
		"(missing, permissions, I/O error, out of memory) or the JSON cannot be written.\n",
		RESULT_READ_MAX_BYTES >> 20);
}

struct compare_args {
	const char *json;
	int csv, brief, force, pool;
};

/* argv into *a: EXIT_OK (the files from optind), SUITE_DONE after --help
 * (the caller exits 0), or EXIT_USAGE after the one message style. */
static int compare_parse(struct compare_args *a, int argc, char **argv)
{
	struct opt_parser p;
	const char *arg;
	int key, ret = EXIT_OK;

	opt_parser_init(&p, argv[0], 0, compare_opts, NULL, 0);
	while (ret == EXIT_OK && (key = opt_next(&p, argc, argv, &arg)) != 0) {
		switch (key) {
		case CMP_CSV:
			a->csv = 1;
			break;
		case CMP_JSON:
			a->json = arg;
			break;
		case CMP_BRIEF:
			a->brief = 1;
			break;
		case CMP_FORCE:
			a->force = 1;
			break;
		case CMP_NO_POOL:
			a->pool = 0;
			break;
		case 'h':
			compare_usage(stdout);
			ret = SUITE_DONE;
			break;
		default:
			ret = EXIT_USAGE;
			break;
		}
	}
	opt_parser_free(&p);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .pool = 1 };
	const char *json;
	int csv, brief, ret;
	struct results r;

	ret = compare_parse(&a, argc, argv);
	if (ret != EXIT_OK)
		return ret == SUITE_DONE ? EXIT_OK : ret;
	json = a.json;
	csv = a.csv;
	brief = a.brief;
	if (argc - optind < 2) {
		msg_err("compare needs at least two result files (the first is the baseline)");
		fprintf(stderr, "try 'fsgauge compare --help'\n");
		return EXIT_USAGE;
	}
	if (csv && json && !strcmp(json, "-")) {
		msg_err("--csv and --json - both write to stdout; give --json a file name");
		return EXIT_USAGE;
	}
	if (json && outfile_check(json, "comparison") < 0)
		return EXIT_USAGE;
	ret = results_load(&r, argv + optind, (size_t)(argc - optind), a.force, a.pool);
	if (ret == EXIT_OK && r.n < 2) {
		/* pooling made one result of them all: no baseline to compare with */
		msg_err("all results are labelled '%s': nothing to compare (label them "
			"differently, or use --no-pool to compare each file as its own result)",
			r.res[0]->label);
		ret = EXIT_USAGE;
	}
	if (ret != EXIT_OK) {
		results_free(&r);
		return ret;
	}
	if (csv || (json && !strcmp(json, "-")))
		for (size_t i = 0; i < r.cmp.nwarnings; i++)
			msg_warn("%s", r.cmp.warnings[i]);
	if (json && comparison_write_json(&r.cmp, json) < 0)
		ret = EXIT_SYSTEM;
	if (csv)
		comparison_write_csv(stdout, &r.cmp);
	else if (!json || strcmp(json, "-"))
		comparison_write_text(stdout, &r.cmp, brief);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		msg_err("cannot write to stdout");
		ret = EXIT_SYSTEM;
	}
	results_free(&r);
	return ret;
}
