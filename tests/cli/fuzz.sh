#!/bin/sh
# A short, bounded run of every libFuzzer harness (fuzz/run.sh), with
# their regression inputs first.  Skipped when clang's fuzzer runtime is
# not installed (the Makefile then builds no harness).
[ -n "${FUZZ_BIN_DIR:-}" ] && ls "$FUZZ_BIN_DIR"/fuzz_* >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP clang's libFuzzer runtime is not available"; exit 0; }
exec sh "$(dirname "$0")/../../fuzz/run.sh"
