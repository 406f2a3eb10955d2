/* test_linediff.c — unit tests for util/linediff.c. */
#include "tap.h"
#include "util/linediff.h"
#include "util/util.h"

#include <stdlib.h>

/* Splits a '|'-separated list into lines (static storage, one list at a time per slot). */
static char **split(const char *s, size_t *n, int slot)
{
	static char buf[2][4096];
	static char *l[2][256];
	size_t k = 0;

	snprintf(buf[slot], sizeof(buf[slot]), "%s", s);
	if (!*s) {
		*n = 0;
		return l[slot];
	}
	for (char *p = buf[slot], *e;; p = e + 1) {
		l[slot][k++] = p;
		e = strchr(p, '|');
		if (!e)
			break;
		*e = 0;
	}
	*n = k;
	return l[slot];
}

static void test_cases(void)
{
	static const struct {
		const char *a, *b;
		size_t context, max;
		const char *want; /* NULL: equal */
		size_t changed;
	} cases[] = {
		{ "x|y|z", "x|y|z", 1, 0, NULL, 0 },
		{ "", "", 1, 0, NULL, 0 },
		{ "", "a", 1, 0, "  + a\n", 1 },
		{ "a", "", 1, 0, "  - a\n", 1 },
		/* one line replaced in the middle: one unchanged line each side */
		{ "h|a|b|c|d|e", "h|a|b|X|d|e", 1, 0, "    b\n  - c\n  + X\n    d\n", 2 },
		/* no context */
		{ "a|b|c", "a|X|c", 0, 0, "  - b\n  + X\n", 2 },
		/* a line inserted, a line removed, far apart: two hunks */
		{ "1|2|3|4|5|6|7|8", "1|new|2|3|4|5|6|8", 1, 0,
		  "    1\n  + new\n    2\n  ...\n    6\n  - 7\n    8\n", 2 },
		/* order matters: the same lines, moved */
		{ "a|b", "b|a", 1, 0, "  - a\n    b\n  + a\n", 2 },
		{ "a|b", "b|a", 0, 0, "  - a\n  ...\n  + a\n", 2 },
		/* capped: the first 2 changes, then how many more */
		{ "a|b|c|d", "w|x|y|z", 0, 2, "  - a\n  - b\n  ... (6 more lines differ)\n", 8 },
		/* context around a hidden change is not shown */
		{ "a|k|b|k2|c", "A|k|b|k2|C", 1, 2, "  - a\n  + A\n    k\n  ... (2 more lines differ)\n", 4 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t na, nb, changed = 99;
		char **a = split(cases[i].a, &na, 0), **b = split(cases[i].b, &nb, 1);
		char *d = linediff(a, na, b, nb, cases[i].context, cases[i].max, "  ", &changed);

		if (!cases[i].want)
			ok(d == NULL, "'%s' = '%s': NULL", cases[i].a, cases[i].b);
		else
			is_str(d ? d : "(null)", cases[i].want, "'%s' against '%s'", cases[i].a,
			       cases[i].b);
		is_int(changed, cases[i].changed, "  %zu lines changed", cases[i].changed);
		free(d);
	}
}

/* Past LINEDIFF_MAX_CELLS the middle is shown removed, then added: every
 * line is still accounted for. */
static void test_large(void)
{
	size_t n = 3000;
	char **a = xcalloc(n, sizeof(*a)), **b = xcalloc(n, sizeof(*b));
	size_t changed;
	char *d;

	for (size_t i = 0; i < n; i++) {
		a[i] = xasprintf("line %zu", i);
		b[i] = xasprintf("line %zu", i % 2 ? i : i + 1);
	}
	ok((n - 2) * (n - 2) > LINEDIFF_MAX_CELLS, "the middle passes the table's bound");
	d = linediff(a, n, b, n, 0, 0, "", &changed);
	ok(d != NULL, "large lists: a diff");
	ok(changed >= 2 && changed <= 2 * n, "large lists: %zu changed lines", changed);
	free(d);
	d = linediff(a, n, a, n, 0, 0, "", &changed);
	ok(d == NULL && changed == 0, "large equal lists: NULL");
	for (size_t i = 0; i < n; i++) {
		free(a[i]);
		free(b[i]);
	}
	free(a);
	free(b);
}

int main(void)
{
	test_cases();
	test_large();
	return done_testing();
}
