/*
 * run.h — inside the run suite: what run.c (the suite: options, the
 * workload, the session's hooks) takes from report.c (its section of the
 * HTML report).
 */
#ifndef FSGAUGE_SUITE_RUN_H
#define FSGAUGE_SUITE_RUN_H

#include <stdio.h>

#include "output/comparison.h"

/* The report's per-operation breakdown of every run result of c, as
 * filebench prints it (the suite's html_section hook). */
void run_html_section(FILE *f, const struct comparison *c);

#endif
