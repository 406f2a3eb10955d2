/*
 * csv.h — CSV fields as RFC 4180 writes them: a field holding a comma, a
 * double quote or a line break goes in double quotes, its double quotes
 * doubled.
 */
#ifndef FSGAUGE_CSV_H
#define FSGAUGE_CSV_H

#include <stdio.h>

/* Write s as one CSV field (nothing for NULL).  always_quote: quote it
 * whatever it holds (a spreadsheet output that quotes every string). */
void csv_field(FILE *f, const char *s, int always_quote);

#endif
