/* results.c — load and check results for compare and report; see results.h. */
#include "cmd/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void print_workloads(const struct results *r)
{
	for (size_t i = 0; i < r->n; i++)
		fprintf(stderr, "  %s: %s %s\n", r->files[i]->path, r->files[i]->suite,
			r->files[i]->workload);
}

int results_load(struct results *r, char **paths, size_t n, int force)
{
	const struct comparison *c = &r->cmp;

	memset(r, 0, sizeof(*r));
	r->files = xcalloc(n, sizeof(*r->files));
	for (size_t i = 0; i < n; i++) {
		if (result_read(paths[i], &r->files[i]) < 0)
			return EXIT_SYSTEM;
		r->n = i + 1;
	}
	comparison_build(&r->cmp, r->files, n);

	if (c->workload_mismatch) {
		if (!force) {
			msg_err("cannot compare results of different workloads:");
			print_workloads(r);
			fprintf(stderr, "use --force to compare them anyway\n");
			return EXIT_USAGE;
		}
		msg_warn("comparing results of different workloads (--force):");
		print_workloads(r);
	}
	if (c->nparam_diffs) {
		if (!force) {
			msg_err("cannot compare results whose parameters differ:");
			comparison_write_diffs(stderr, c, c->param_diffs, c->nparam_diffs);
			fprintf(stderr, "use --force to compare them anyway (seed, dir, label, repeat "
					"and interval may differ)\n");
			return EXIT_USAGE;
		}
		msg_warn("parameters differ (compared anyway with --force):");
		comparison_write_diffs(stderr, c, c->param_diffs, c->nparam_diffs);
	}
	return EXIT_OK;
}

void results_free(struct results *r)
{
	if (r->cmp.res)
		comparison_free(&r->cmp);
	for (size_t i = 0; i < r->n; i++)
		result_read_free(r->files[i]);
	free(r->files);
	memset(r, 0, sizeof(*r));
}
