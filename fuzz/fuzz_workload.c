/*
 * fuzz_workload.c — libFuzzer harness for the WML parser: any text must
 * parse or fail with a file:line:col error, never crash, leak or read out
 * of bounds; what parses must dump (workload_dump) and free cleanly, and
 * setting a variable afterwards must not break it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct workload *w = NULL;
	struct wl_error err;
	static const struct wl_override ov[] = { { "nfiles", "20", 0 }, { "dir", "/nonexistent", 1 } };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	/* even inputs parse without overrides, odd ones with two */
	if (workload_parse(text, "fuzz.f", ov, size % 2 ? 2 : 0, &w, &err) == 0) {
		char *dump = workload_dump(w);

		free(dump);
		workload_set_var(w, "nthreads", "3");
		workload_free(w);
	} else if (!err.msg[0] || err.line < 0 || err.col < 0) {
		abort(); /* an error must say what and where */
	}
	free(text);
	return 0;
}
