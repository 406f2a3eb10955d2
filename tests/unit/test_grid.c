/* test_grid.c — unit tests for the phase grid of output/comparison.c: a
 * toy suite's grid (struct phase_grid, as a suite's phase_grid hook
 * returns it) groups phases, sums them per group and groups their
 * warnings, with no suite module involved. */
#include "output/comparison.h"
#include "tap.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/fsgauge-test-grid.XXXXXX";

static const char *const toy_groups[] = { "alpha", "beta" };

static const char *toy_group_name(size_t g)
{
	return toy_groups[g];
}

/* "<group> <size>k <record>k" */
static int toy_point(const char *phase, struct phase_point *pt)
{
	char name[16];
	unsigned long long size, rec;
	int end = 0;

	if (sscanf(phase, "%15s %lluk %lluk%n", name, &size, &rec, &end) != 3 || phase[end])
		return 0;
	for (size_t g = 0; g < ARRAY_SIZE(toy_groups); g++) {
		if (!strcmp(name, toy_groups[g])) {
			pt->group = g;
			pt->size_kb = size;
			pt->rec_kb = rec;
			return 1;
		}
	}
	return 0;
}

static const struct phase_grid toy_grid = {
	.what = "toy test",
	.ngroups = ARRAY_SIZE(toy_groups),
	.group_name = toy_group_name,
	.point = toy_point,
};

/* Returns the path in a static buffer, valid until the next call. */
static const char *write_result(const char *name, double k)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return path;
	fprintf(f,
		"{\"schema_version\": 1, \"suite\": \"toy\", \"workload\": \"w\", \"label\": \"%s\",\n"
		" \"parameters\": {}, \"environment\": {},\n"
		" \"phases\": [\n"
		"  {\"name\": \"alpha 64k 4k\", \"summary\": {\"ops_per_second\": %g},\n"
		"   \"too_fast\": true, \"too_fast_reason\": \"small\"},\n"
		"  {\"name\": \"alpha 128k 4k\", \"summary\": {\"ops_per_second\": %g},\n"
		"   \"too_fast\": true, \"too_fast_reason\": \"big\"},\n"
		"  {\"name\": \"beta 64k 4k\", \"summary\": {\"ops_per_second\": %g}},\n"
		"  {\"name\": \"other\", \"summary\": {\"ops_per_second\": %g},\n"
		"   \"too_fast\": true}]}\n",
		name, 100 * k, 200 * k, 50 * k, 10 * k);
	fclose(f);
	return path;
}

static int has_line(char *const *v, size_t n, const char *text)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], text))
			return 1;
	return 0;
}

static void test_grid(struct rfile *a, struct rfile *b)
{
	struct rfile *res[2] = { a, b };
	struct comparison c;
	struct cmp_grid_sum sum[2];
	struct phase_point pt;
	size_t grouped = 0, other = 0;

	ok(!comparison_grid_phase(a, "alpha 64k 4k", NULL), "no grid as read: not a grid phase");
	a->grid = b->grid = &toy_grid;
	ok(comparison_grid_phase(a, "alpha 128k 4k", &pt) && pt.group == 0 && pt.size_kb == 128 &&
		   pt.rec_kb == 4,
	   "grid phase: group and axes");
	ok(!comparison_grid_phase(a, "other", &pt), "a phase the grid does not place: not a grid phase");

	comparison_build(&c, res, 2);
	is_int((long long)c.ngrids, 1, "the results' grid, once");
	for (size_t r = 0; r < c.nrows; r++) {
		if (comparison_row_grouped(&c, &c.rows[r]))
			grouped++;
		else if (!strcmp(c.rows[r].phase, "other"))
			other++;
	}
	ok(grouped > 0 && other > 0, "grid phases' rows are grouped, the other phase's are not");
	is_int((long long)comparison_grid_rows(&c, &toy_grid, 0, FIG_OPS), 2,
	       "group alpha: 2 ops/s rows");
	is_int((long long)comparison_grid_sum(&c, &toy_grid, 0, FIG_OPS, sum), 4,
	       "group alpha: 2 phases in each of 2 results");
	ok(sum[1].phases == 2 && sum[1].nratios == 2 && fabs(sum[1].gmean - 2) < 1e-9 &&
		   fabs(sum[1].lo - 2) < 1e-9 && fabs(sum[1].hi - 2) < 1e-9,
	   "group alpha: geometric mean and range of the ratios");
	is_int((long long)comparison_grid_sum(&c, &toy_grid, 1, FIG_OPS, sum), 2,
	       "group beta: 1 phase in each result");
	ok(has_line(c.warnings, c.nwarnings,
		    "toy test 'alpha': ran too briefly to measure reliably in 2 of 2 phases "
		    "(file sizes 64 to 128 KB); the largest, 'alpha 128k 4k': big"),
	   "the grid's flagged phases: one warning per group, named by the grid");
	ok(has_line(c.warnings, c.nwarnings, "phase 'other' ran too briefly"),
	   "a phase outside the grid: its own warning");
	is_int((long long)c.nflags, 4, "the grid's flags, one per flagged phase and result");
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		if (f) {
			comparison_write_text(f, &c, 0);
			fclose(f);
		}
		ok(text && strstr(text, "\ntoy test 'alpha': 2 phases (file size x record size), "
					"summarised") &&
			   strstr(text, "\ntoy test 'beta': 1 phases") &&
			   strstr(text, "phase 'other'") && !strstr(text, "phase 'alpha 64k 4k'"),
		   "text: a block per group, named by the grid; other phases as rows");
		free(text);
	}
	comparison_free(&c);

	/* results with different grids: no phase is grouped */
	b->grid = NULL;
	comparison_build(&c, res, 2);
	grouped = 0;
	for (size_t r = 0; r < c.nrows; r++)
		grouped += comparison_row_grouped(&c, &c.rows[r]);
	is_int((long long)grouped, 0, "a phase only one result has as a grid phase: not grouped");
	comparison_free(&c);
}

int main(void)
{
	struct rfile *a = NULL, *b = NULL;

	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP cannot create a temporary directory\n");
		return 0;
	}
	is_int(result_read(write_result("a", 1), &a), 0, "read a");
	is_int(result_read(write_result("b", 2), &b), 0, "read b");
	if (a && b)
		test_grid(a, b);
	result_read_free(a);
	result_read_free(b);
	for (const char *const *n = (const char *const[]){ "a", "b", NULL }; *n; n++) {
		char p[160];

		snprintf(p, sizeof(p), "%s/%s", dir, *n);
		unlink(p);
	}
	rmdir(dir);
	return done_testing();
}
