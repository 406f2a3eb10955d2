/*
 * html_suites.h — the suite-specific sections of the HTML report
 * (output/html.c): for bonnie results bonnie++'s two tables (I/O tests and
 * file creation) per result, for iozone results the throughput-mode table
 * or, in auto and single-stream mode, one heat map of KB/s by file size and
 * record size per test.
 *
 * Each writer takes the whole comparison and writes a <section> about the
 * results of its suite only (with --force a report may mix suites), one
 * part per result, headed by the result's name.  The figures come from the
 * phases' "metrics" (struct rmetric); a result without them, or with
 * malformed ones, gets empty cells or a note, never a crash.
 */
#ifndef FSGAUGE_HTML_SUITES_H
#define FSGAUGE_HTML_SUITES_H

#include <stdio.h>

#include "output/comparison.h"

void html_bonnie_section(FILE *f, const struct comparison *c);
void html_iozone_section(FILE *f, const struct comparison *c);

#endif
