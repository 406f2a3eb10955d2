/* test_human.c — unit tests for util/human.c. */
#include "tap.h"
#include "util/human.h"
#include "util/util.h"

#include <math.h>

static void test_bytes(void)
{
	static const struct {
		double in;
		const char *want;
	} cases[] = {
		{ 0, "0 B" },
		{ 512, "512 B" },
		{ 1023, "1023 B" },
		{ 1024, "1 KiB" },
		{ 1536, "1.5 KiB" },
		{ 16384, "16 KiB" },
		{ 1048576, "1 MiB" },
		{ 1310720, "1.25 MiB" },
		{ 1048575, "1024 KiB" }, /* 1023.999 KiB: never "1e+03" */
		{ 17179869184.0, "16 GiB" },
		{ 25276502016.0, "23.5 GiB" },
		{ 1099511627776.0 * 3, "3 TiB" },
		{ 1152921504606846976.0 * 15, "15 EiB" },
		{ 1152921504606846976.0 * 4096, "4096 EiB" },
		{ -1, "-" },
		{ NAN, "-" },
		{ INFINITY, "-" },
	};
	char b[HUMAN_BUF];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		is_str(human_bytes(cases[i].in, b, sizeof(b)), cases[i].want, "human_bytes(%.17g)",
		       cases[i].in);
}

static void test_ns(void)
{
	static const struct {
		double in;
		const char *want;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1 ns" },
		{ 850, "850 ns" },
		{ 999.4, "999 ns" },
		{ 999.7, "1 \u00b5s" },
		{ 1000, "1 \u00b5s" },
		{ 12345, "12.3 \u00b5s" },
		{ 100000, "100 \u00b5s" },
		{ 4.56e6, "4.56 ms" },
		{ 1.234e9, "1.23 s" },
		{ 3600e9, "3600 s" },
		{ 0.25, "0.25 ns" },
		{ -5, "-" },
		{ NAN, "-" },
	};
	char b[HUMAN_BUF];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		is_str(human_ns(cases[i].in, b, sizeof(b)), cases[i].want, "human_ns(%.17g)",
		       cases[i].in);
	/* a short buffer is cut and terminated, never overrun */
	char small[4] = "xxx";
	human_ns(12345, small, 3);
	is_str(small, "12", "human_ns into 3 bytes truncates");
}

int main(void)
{
	test_bytes();
	test_ns();
	return done_testing();
}
