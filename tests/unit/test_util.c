/* test_util.c — unit tests for util/util.c helpers: table_calloc() and
 * cmp_u64(). */
#include "tap.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_table_calloc(void)
{
	unsigned char *small = table_calloc(100, 24);
	unsigned char *big = table_calloc(300000, 24); /* 7.2 MB */

	ok(small && all_zero(small, 2400), "a small table: zeroed");
	ok(big && all_zero(big, 300000 * 24), "a large table: zeroed");
	ok(big && (uintptr_t)big % (2u << 20) == 0, "a large table: aligned to 2 MiB");
	if (big) {
		big[300000 * 24 - 1] = 1; /* all of it is usable */
		ok(big[300000 * 24 - 1] == 1, "a large table: its last byte is writable");
	}
	ok(table_calloc(SIZE_MAX / 8, 16) == NULL, "a size that overflows: NULL");
	free(small);
	free(big);
	unsigned char *none = table_calloc(0, 24);

	ok(none != NULL, "no entries: still a valid pointer (like a fileset of 0)");
	free(none);
}

static void test_cmp_u64(void)
{
	uint64_t v[] = { 5, UINT64_MAX, 0, 3, 3, 1ull << 63 };

	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_u64);
	ok(v[0] == 0 && v[1] == 3 && v[2] == 3 && v[3] == 5 && v[4] == 1ull << 63 &&
		   v[5] == UINT64_MAX,
	   "cmp_u64 sorts ascending, the top bit included (no signed overflow)");
}

int main(void)
{
	test_table_calloc();
	test_cmp_u64();
	return done_testing();
}
