/* csv.c — CSV fields; see csv.h. */
#include "output/csv.h"

#include <string.h>

void csv_field(FILE *f, const char *s, int always_quote)
{
	if (!s)
		return;
	if (!always_quote && !strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
