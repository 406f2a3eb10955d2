/* report.c — the suites' hooks for compare and report; see report.h. */
#include "suite/report.h"

#include <stdlib.h>
#include <string.h>

#include "output/html_suites.h"
#include "suite/suite.h"
#include "util/util.h"

/*
 * The hooks of suites that are not suite modules yet (their sections stay
 * in output/html_suites.c).  A suite converted to a suite module sets
 * them in its suite_ops instead (iozone does), which wins over this
 * table; its entry here then goes.
 */
struct report_hooks {
	const char *suite;
	int (*phase_grid)(const struct rfile *rf);
	void (*html_section)(FILE *f, const struct comparison *c);
	int (*html_covers)(const struct comparison *c, const char *phase);
};

static const struct report_hooks interim[] = {
	{ "bonnie", NULL, html_bonnie_section, NULL },
};

/* The hooks of suite `name` into *h; 0 when it has none. */
static int hooks_of(const char *name, struct report_hooks *h)
{
	const struct suite_ops *ops = suite_find(name);

	memset(h, 0, sizeof(*h));
	h->suite = name;
	if (ops && (ops->phase_grid || ops->html_section || ops->html_covers)) {
		h->phase_grid = ops->phase_grid;
		h->html_section = ops->html_section;
		h->html_covers = ops->html_covers;
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(interim); i++)
		if (!strcmp(interim[i].suite, name)) {
			*h = interim[i];
			return 1;
		}
	return 0;
}

void suite_report_mark(struct rfile *rf)
{
	struct report_hooks h;

	rf->phase_grid = hooks_of(rf->suite, &h) && h.phase_grid ? h.phase_grid(rf) : 0;
}

/* Append suite `name`'s section to out unless it has none or is there. */
static size_t add_suite(const char *name, const char **done, size_t ndone, struct html_hooks *out,
			size_t n, size_t max)
{
	struct report_hooks h;

	for (size_t k = 0; k < ndone; k++)
		if (!strcmp(done[k], name))
			return n;
	if (n < max && hooks_of(name, &h) && (h.html_section || h.html_covers)) {
		out[n].section = h.html_section;
		out[n].covers = h.html_covers;
		n++;
	}
	return n;
}

size_t suite_report_html(const struct comparison *c, struct html_hooks *out, size_t max)
{
	const char **done = xcalloc(c->nres + ARRAY_SIZE(interim) + 1, sizeof(*done));
	size_t n = 0, ndone = 0;

	for (size_t t = 0; t < ARRAY_SIZE(interim); t++)
		for (size_t i = 0; i < c->nres; i++)
			if (!strcmp(c->res[i]->suite, interim[t].suite)) {
				n = add_suite(interim[t].suite, done, ndone, out, n, max);
				done[ndone++] = interim[t].suite;
				break;
			}
	for (size_t i = 0; i < c->nres; i++) {
		n = add_suite(c->res[i]->suite, done, ndone, out, n, max);
		done[ndone++] = c->res[i]->suite;
	}
	free(done);
	return n;
}
