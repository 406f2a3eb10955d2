/* report.c — the suites' hooks for compare and report; see report.h. */
#include "suite/report.h"

#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

void suite_report_mark(struct rfile *rf)
{
	const struct suite_ops *ops = suite_find(rf->suite);

	rf->grid = ops && ops->phase_grid ? ops->phase_grid(rf) : NULL;
}

size_t suite_report_html(const struct comparison *c, struct html_hooks *out, size_t max)
{
	const struct suite_ops *ops;
	size_t n = 0;

	/* in the registry's order, each suite once */
	for (size_t k = 0; (ops = suite_at(k)) && n < max; k++) {
		size_t i;

		if (!ops->html_section && !ops->html_covers)
			continue;
		for (i = 0; i < c->nres && strcmp(c->res[i]->suite, ops->name); i++)
			;
		if (i == c->nres)
			continue;
		out[n].section = ops->html_section;
		out[n].covers = ops->html_covers;
		n++;
	}
	return n;
}
