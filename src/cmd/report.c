/*
 * report.c — `fsgauge report A.json B.json... -o report.html`: one
 * self-contained HTML page with the environment, charts and the
 * comparison table of the results (see output/html.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/results.h"
#include "output/html.h"
#include "suite/options.h"
#include "suite/report.h"
#include "suite/suite.h"
#include "util/outfile.h"
#include "util/util.h"

enum { REP_TITLE = OPT_OWN + 1, REP_FORCE, REP_NO_POOL };

/* The options; --help lists them from here. */
static const struct suite_opt report_opts[] = {
	{ "output", 'o', 'o', OPTARG_REQUIRED, "FILE", "the HTML file to write ('-' for stdout; required)" },
	{ "title", 0, REP_TITLE, OPTARG_REQUIRED, "TEXT",
	  "the page title (default: fsgauge report: SUITE WORKLOAD)" },
	{ "force", 0, REP_FORCE, OPTARG_NONE, NULL, "report even when suites or workloads differ" },
	{ "no-pool", 0, REP_NO_POOL, OPTARG_NONE, NULL,
	  "treat every file as its own result, even with equal\nlabels" },
	{ "help", 'h', 'h', OPTARG_NONE, NULL, "this help" },
	{ 0 },
};

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: fsgauge report [options] RESULT.json... -o REPORT.html\n"
		"\n"
		"Writes one self-contained HTML file (no network, scripts or external fonts;\n"
		"opens from disk in any browser and prints well) from 1 or more result files,\n"
		"the first being the baseline: the environment and parameters of each result,\n"
		"a bar chart with 95%% confidence error bars for each headline figure, latency\n"
		"CDFs per operation from the histograms, time series when the results have\n"
		"them, and the table of 'fsgauge compare'.  bonnie results also get bonnie++'s\n"
		"tables, iozone results iozone's throughput table or, in auto mode, a heat map\n"
		"of KB/s by file size and record size per test, results run under mpirun a\n"
		"section on their ranks (the file-systems warning, each phase's stonewall and a\n"
		"row per rank).\n"
		"\n"
		"Files with the same label are pooled as repeated runs of one result (their\n"
		"parameters and workloads must match, else exit 2: label them differently\n"
		"or use --no-pool).  As 'fsgauge compare', it refuses with exit 2, unless\n"
		"--force: results whose suite or workload names differ (varmail against\n"
		"webserver), and run results of one workload whose resolved workload texts\n"
		"differ beyond their parameters (other flowops, filesets or attributes,\n"
		"compared without their var, usage and echo lines; the lines that differ\n"
		"are shown).  A file given twice is refused.  Parameters may differ (a\n"
		"sweep: nthreads 4 against 8): they are shown at the top under \"what\n"
		"differs\", and when one parameter alone varies across 3 or more results,\n"
		"each figure is charted against it.  A workload_hash that differs with no\n"
		"workload text to compare, and environment differences, are only warned\n"
		"about or listed.\n"
		"\n"
		"options:\n");
	opt_help_table(f, report_opts);
	fprintf(f,
		"\n"
		"Result files must be regular files of at most %llu MiB.\n"
		"\n"
		"exit status: 0 ok, 2 usage error, a file that is not a result (not a regular\n"
		"file, too large, empty, not JSON, not an fsgauge result) or results that\n"
		"cannot be compared, 3 a result file the system does not let be read\n"
		"(missing, permissions, I/O error, out of memory) or the report cannot be\n"
		"written.\n",
		RESULT_READ_MAX_BYTES >> 20);
}

struct report_args {
	const char *out, *title;
	int force, pool;
};

/* argv into *a: EXIT_OK (the files from optind), SUITE_DONE after --help
 * (the caller exits 0), or EXIT_USAGE after the one message style. */
static int report_parse(struct report_args *a, int argc, char **argv)
{
	struct opt_parser p;
	const char *arg;
	int key, ret = EXIT_OK;

	opt_parser_init(&p, argv[0], 0, report_opts, NULL, 0);
	while (ret == EXIT_OK && (key = opt_next(&p, argc, argv, &arg)) != 0) {
		switch (key) {
		case 'o':
			a->out = arg;
			break;
		case REP_TITLE:
			a->title = arg;
			break;
		case REP_FORCE:
			a->force = 1;
			break;
		case REP_NO_POOL:
			a->pool = 0;
			break;
		case 'h':
			report_usage(stdout);
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

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .pool = 1 };
	struct html_hooks hooks[16];
	const char *out, *title;
	size_t nhooks;
	int ret;
	struct results r;
	struct outfile f;

	ret = report_parse(&a, argc, argv);
	if (ret != EXIT_OK)
		return ret == SUITE_DONE ? EXIT_OK : ret;
	out = a.out;
	title = a.title;
	if (argc - optind < 1) {
		msg_err("report needs at least one result file");
		fprintf(stderr, "try 'fsgauge report --help'\n");
		return EXIT_USAGE;
	}
	if (!out) {
		msg_err("report needs an output file: -o REPORT.html ('-' for stdout)");
		return EXIT_USAGE;
	}
	if (outfile_check(out, "report") < 0)
		return EXIT_USAGE;
	ret = results_load(&r, argv + optind, (size_t)(argc - optind), a.force, a.pool);
	if (ret != EXIT_OK) {
		results_free(&r);
		return ret;
	}
	for (size_t i = 0; i < r.cmp.nwarnings; i++)
		msg_warn("%s", r.cmp.warnings[i]);
	if (outfile_open(&f, out, "report") < 0) {
		results_free(&r);
		return EXIT_SYSTEM;
	}
	/* the suites' own sections, from the suites: output/ names none */
	nhooks = suite_report_html(&r.cmp, hooks, ARRAY_SIZE(hooks));
	ret = html_report(f.f, &r.cmp, title, hooks, nhooks);
	if (ret < 0) {
		outfile_discard(&f);
		err_errno(ret, "cannot write the report to '%s'", out);
		ret = EXIT_SYSTEM;
	} else {
		ret = outfile_close(&f, "report") < 0 ? EXIT_SYSTEM : EXIT_OK;
	}
	results_free(&r);
	return ret;
}
