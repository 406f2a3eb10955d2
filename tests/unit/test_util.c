/* test_util.c — unit tests for util/util.c helpers. */
#include "tap.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>

static void test_cmp_u64(void)
{
	uint64_t v[] = { 5, UINT64_MAX, 0, 3, 3, 1ull << 63 };

	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_u64);
	ok(v[0] == 0 && v[1] == 3 && v[2] == 3 && v[3] == 5 && v[4] == 1ull << 63 &&
		   v[5] == UINT64_MAX,
	   "cmp_u64 sorts ascending, the top bit included (no signed overflow)");
	ok(cmp_u64(&v[1], &v[2]) == 0, "cmp_u64: equal values compare equal");
	ok(cmp_u64(&v[0], &v[5]) < 0 && cmp_u64(&v[5], &v[0]) > 0, "cmp_u64: 0 < UINT64_MAX, both ways");
}

int main(void)
{
	test_cmp_u64();
	return done_testing();
}
