/*
 * fuzz_size.c — libFuzzer harness for the number, size, data-pattern and
 * engine-spec parsers: no crash on any text, and the round trips hold:
 * size_format() of a parsed size parses back to the same bytes, and a
 * data pattern's canonical name parses back to the same pattern.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/faulty.h"
#include "runner/data.h"
#include "util/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[64], err[512];
	uint64_t v, back;
	double d;
	struct data_pattern dp, dp2;
	struct faulty_rule rule;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (size_parse(s, &v) == 0) {
		size_format(v, buf, sizeof(buf));
		if (size_parse(buf, &back) < 0 || back != v)
			abort();
	}
	size_parse_unit(s, 1 << 20, &v);
	num_parse_u64(s, &v);
	if (num_parse_double(s, &d) == 0 && d != d)
		abort(); /* nan is documented as refused */
	if (data_pattern_parse(s, &dp) == 0) {
		data_pattern_name(&dp, buf, sizeof(buf));
		if (data_pattern_parse(buf, &dp2) < 0 || dp2.kind != dp.kind || dp2.pct != dp.pct)
			abort();
	}
	if (faulty_parse(s, &rule, err, sizeof(err)) < 0 && !err[0])
		abort(); /* a refused spec must say why */
	free(s);
	return 0;
}
