/* results.c — load and check results for compare and report; see results.h. */
#include "cmd/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "suite/report.h"
#include "util/util.h"

static void print_workloads(struct rfile *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %s: %s %s\n", files[i]->path, files[i]->suite,
			files[i]->workload);
}

/* Pool the files of one label; EXIT_USAGE when they are not runs of the
 * same configuration. */
static int pool_group(struct results *r, struct rfile **group, size_t n)
{
	struct comparison c;
	int ret = EXIT_OK;

	comparison_build(&c, group, n);
	if (c.workload_mismatch || c.nparam_diffs) {
		msg_err("cannot pool the results labelled '%s' as runs of one configuration:",
			group[0]->label);
		if (c.workload_mismatch)
			print_workloads(group, n);
		else
			comparison_write_diffs(stderr, &c, c.param_diffs, c.nparam_diffs);
		fprintf(stderr, "give them different labels, or use --no-pool\n");
		ret = EXIT_USAGE;
	} else {
		for (size_t k = 1; k < n; k++)
			if (comparison_hash_differs(group[0], group[k]))
				msg_warn("results labelled '%s' ran different workloads: '%s' has "
					 "workload_hash %s, '%s' %s",
					 group[0]->label, group[0]->path, group[0]->workload_hash,
					 group[k]->path, group[k]->workload_hash);
		for (size_t k = 0; k < c.nenv_diffs; k++)
			if (strcmp(c.env_diffs[k].key, "hostname") &&
			    strcmp(c.env_diffs[k].key, "tool"))
				msg_warn("results labelled '%s' differ in environment '%s'",
					 group[0]->label, c.env_diffs[k].key);
		msg_info("pooled %zu results labelled '%s' as repeated runs", n, group[0]->label);
		r->pools = xrealloc(r->pools, (r->npools + 1) * sizeof(*r->pools));
		r->pools[r->npools++] = r->res[r->n++] = result_read_pool(group, n);
	}
	comparison_free(&c);
	/* comparison_build renamed duplicates: the pool keeps group[0]'s name */
	return ret;
}

/*
 * A file named twice (or by two names: a link, "./x.json") would be pooled
 * as two repeated runs, or compared with itself, inventing agreement:
 * refuse it.  Files are told apart by device and inode, so a copy is not
 * a duplicate (it may be a deliberate control).  EXIT_USAGE or EXIT_OK.
 */
static int check_duplicates(char **paths, size_t n)
{
	struct stat *st = xcalloc(n, sizeof(*st));
	char *known = xcalloc(n, 1);
	int ret = EXIT_OK;

	for (size_t i = 0; i < n && ret == EXIT_OK; i++) {
		known[i] = stat(paths[i], &st[i]) == 0;
		for (size_t j = 0; known[i] && j < i; j++) {
			if (!known[j] || st[j].st_dev != st[i].st_dev || st[j].st_ino != st[i].st_ino)
				continue;
			if (!strcmp(paths[i], paths[j]))
				msg_err("result '%s' is given twice: a result cannot be compared "
					"or pooled with itself",
					paths[i]);
			else
				msg_err("'%s' and '%s' are the same result file: a result cannot "
					"be compared or pooled with itself",
					paths[j], paths[i]);
			ret = EXIT_USAGE;
			break;
		}
	}
	free(st);
	free(known);
	return ret;
}

static int pool_files(struct results *r, int pool)
{
	struct rfile **group = xcalloc(r->nfiles, sizeof(*group));
	char *done = xcalloc(r->nfiles, 1);
	int ret = EXIT_OK;

	r->res = xcalloc(r->nfiles, sizeof(*r->res));
	for (size_t i = 0; i < r->nfiles && ret == EXIT_OK; i++) {
		const char *label = r->files[i]->label;
		size_t n = 0;

		if (done[i])
			continue;
		group[n++] = r->files[i];
		for (size_t j = i + 1; pool && label && *label && j < r->nfiles; j++) {
			if (r->files[j]->label && !strcmp(r->files[j]->label, label)) {
				group[n++] = r->files[j];
				done[j] = 1;
			}
		}
		if (n == 1)
			r->res[r->n++] = r->files[i];
		else
			ret = pool_group(r, group, n);
	}
	free(group);
	free(done);
	return ret;
}

int results_load(struct results *r, char **paths, size_t n, int force, int pool)
{
	const struct comparison *c = &r->cmp;
	int ret;

	memset(r, 0, sizeof(*r));
	r->files = xcalloc(n, sizeof(*r->files));
	for (size_t i = 0; i < n; i++) {
		/* a file refused as input is the user's error, one the system
		 * would not let us read is the system's */
		ret = result_read(paths[i], &r->files[i]);
		if (ret < 0)
			return ret == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
		r->nfiles = i + 1;
		suite_report_mark(r->files[i]);
	}
	ret = check_duplicates(paths, n);
	if (ret != EXIT_OK)
		return ret;
	ret = pool_files(r, pool);
	if (ret != EXIT_OK)
		return ret;
	comparison_build(&r->cmp, r->res, r->n);

	if (c->workload_mismatch) {
		if (!force) {
			msg_err("cannot compare results of different workloads:");
			print_workloads(r->res, r->n);
			fprintf(stderr, "use --force to compare them anyway\n");
			return EXIT_USAGE;
		}
		msg_warn("comparing results of different workloads (--force):");
		print_workloads(r->res, r->n);
	}
	if (c->nworkload_diffs) {
		if (!force) {
			msg_err("cannot compare results whose workloads differ beyond their "
				"parameters (other flowops, filesets or attributes; the resolved "
				"workloads without their var, usage and echo lines):");
			for (size_t i = 0; i < c->nworkload_diffs; i++)
				fprintf(stderr, "%s\n", c->workload_diffs[i]);
			fprintf(stderr, "use --force to compare them anyway\n");
			return EXIT_USAGE;
		}
		msg_warn("comparing results whose workloads differ beyond their parameters "
			 "(--force): the lines that differ are in the warnings");
	}
	/* parameters that differ (a thread sweep, nthreads 4 against 8) are
	 * what is being compared: the table and the report list them */
	return EXIT_OK;
}

void results_free(struct results *r)
{
	if (r->cmp.res)
		comparison_free(&r->cmp);
	for (size_t i = 0; i < r->npools; i++)
		result_read_free(r->pools[i]);
	for (size_t i = 0; i < r->nfiles; i++)
		result_read_free(r->files[i]);
	free(r->pools);
	free(r->res);
	free(r->files);
	memset(r, 0, sizeof(*r));
}
