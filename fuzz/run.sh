#!/bin/sh
# Run each libFuzzer harness in $FUZZ_BIN_DIR: first its regression inputs
# (fuzz/regress/<name>/, inputs that once crashed), then fuzzing for
# $FUZZ_SECONDS seconds from its corpus (fuzz/corpus/<name>/, plus the
# built-in personalities for the workload parser).  New corpus entries
# and crash artifacts go to $FUZZ_WORK.  Prints one TAP line per harness
# and step; exits non-zero when any input crashed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${FUZZ_BIN_DIR:?}" "${FUZZ_SECONDS:=60}" "${FUZZ_WORK:=build-fuzz}"
n=0 fail=0
for bin in "$FUZZ_BIN_DIR"/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin" | sed 's/^fuzz_//')
	corpus="$FUZZ_WORK/corpus/$name"
	art="$FUZZ_WORK/artifacts/$name"
	mkdir -p "$corpus" "$art"
	seeds="$here/corpus/$name"
	[ -d "$seeds" ] || seeds= # git keeps no empty directories
	[ "$name" = workload ] && cp "$here"/../workloads/*.f "$corpus"/ 2>/dev/null
	reg=$(ls "$here/regress/$name"/* 2>/dev/null)
	if [ -n "$reg" ]; then
		n=$((n + 1))
		# shellcheck disable=SC2086
		if "$bin" -runs=1 $reg >"$art/regress.log" 2>&1; then
			echo "ok $n - $name: regression inputs pass"
		else
			fail=$((fail + 1))
			echo "not ok $n - $name: a regression input fails (log $art/regress.log)"
			grep -m5 'ERROR\|SUMMARY' "$art/regress.log" | sed 's/^/#   /'
		fi
	fi
	n=$((n + 1))
	if "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=0 -close_fd_mask=3 -artifact_prefix="$art/" "$corpus" ${seeds:+"$seeds"} >"$art/fuzz.log" 2>&1; then
		echo "ok $n - $name: ${FUZZ_SECONDS}s of fuzzing found nothing ($(grep -o 'corp: [0-9]*' "$art/fuzz.log" | tail -1))"
	else
		fail=$((fail + 1))
		echo "not ok $n - $name: fuzzing found a failing input (in $art/, log $art/fuzz.log)"
		grep -m5 'ERROR\|SUMMARY\|Test unit written' "$art/fuzz.log" | sed 's/^/#   /'
	fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
