/* test_csv.c — unit tests for output/csv.c. */
#include "tap.h"
#include "output/csv.h"

#include <stdio.h>
#include <stdlib.h>

/* s written as one field, as a string (caller frees) */
static char *field(const char *s, int always)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, s, always);
	fclose(f);
	return buf;
}

static void check(const char *in, int always, const char *want, const char *what)
{
	char *got = field(in, always);

	is_str(got, want, "%s", what);
	free(got);
}

int main(void)
{
	check("plain", 0, "plain", "a plain field is written as it is");
	check("plain", 1, "\"plain\"", "always_quote: quoted anyway");
	check("a,b", 0, "\"a,b\"", "a comma: quoted");
	check("say \"hi\"", 0, "\"say \"\"hi\"\"\"", "double quotes: quoted and doubled");
	check("two\nlines", 0, "\"two\nlines\"", "a line break: quoted");
	check("cr\r", 0, "\"cr\r\"", "a carriage return: quoted");
	check("", 0, "", "an empty field: nothing");
	check("", 1, "\"\"", "an empty field, always_quote: two quotes");
	check(NULL, 1, "", "NULL: nothing at all");
	return done_testing();
}
