#!/bin/sh
# Runs each test (a unit-test binary or a CLI test script) with a timeout,
# reads its TAP output and prints one line per test, with how long it
# took, plus a summary.  Exit status is non-zero when any test fails.
#
#   [JOBS=N] [TEST_TIMEOUT=S] sh tests/run-tests.sh TEST...
#
# Tests run JOBS at a time (default: the number of online CPUs), each in
# its own temporary directory, the longest first (as the last run in this
# build directory timed them; in a build directory with no timings yet,
# such as a fresh clone's, as tests/durations has them: seconds of one
# plain run, kept for this order only; a test in neither counts as
# longest).
# Their lines come as they finish.  A test script containing the line
# beginning "# fsgauge-test: serial" changes state other tests see (drops the
# page cache): those run one at a time, after the others.
set -u
# Sanitized builds run several times slower (ThreadSanitizer most): give
# each test more time there rather than fail on a slow machine.
[ -n "${SANITIZE:-}" ] && : "${TEST_TIMEOUT:=1800}"
: "${TEST_TIMEOUT:=600}"
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"

# run-tests.sh --one TEST: run one test; print its line and leave its
# verdict (ok, skip or fail) in $logdir/NAME.verdict
if [ "${1:-}" = --one ]; then
	t=$2
	name=$(basename "$t")
	log="$logdir/$name.log"
	t0=$(date +%s)
	case "$t" in
	*.sh) timeout -k 10 "$TEST_TIMEOUT" sh "$t" >"$log" 2>&1 ;;
	*) timeout -k 10 "$TEST_TIMEOUT" "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	secs=$(($(date +%s) - t0))
	echo "$secs" > "$logdir/$name.secs"
	nok=$(grep -c '^not ok' "$log")
	nall=$(grep -c '^ok\|^not ok' "$log")
	if grep -q '^1\.\.0 # *[Ss][Kk][Ii][Pp]' "$log"; then
		echo skip > "$logdir/$name.verdict"
		printf 'SKIP %-28s %s\n' "$name" "$(sed -n 's/^1\.\.0 # *[Ss][Kk][Ii][Pp] *//p' "$log")"
	elif [ "$rc" -ne 0 ] || [ "$nok" -ne 0 ] || ! grep -q '^1\.\.[0-9]' "$log"; then
		echo fail > "$logdir/$name.verdict"
		{
			printf 'FAIL %-28s (exit %d, %d of %d assertions failed, %d s; log %s)\n' \
				"$name" "$rc" "$nok" "$nall" "$secs" "$log"
			grep -A3 '^not ok' "$log" | head -20 | sed 's/^/     /'
			[ "$rc" -ge 124 ] && tail -5 "$log" | sed 's/^/     /'
		} | cat # one write: lines of tests running at once do not interleave
	else
		echo ok > "$logdir/$name.verdict"
		printf 'ok   %-28s %d assertions%s, %d s\n' "$name" "$nall" \
			"$(grep -c '# SKIP' "$log" | sed 's/^0$//; s/^[1-9].*/ (some skipped)/')" "$secs"
	fi
	exit 0
fi

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case "$jobs" in
'' | *[!0-9]* | 0) echo "run-tests.sh: JOBS must be a positive integer, not '$jobs'" >&2; exit 2 ;;
esac
parallel="" serial=""
for t in "$@"; do
	rm -f "$logdir/$(basename "$t").verdict"
	if grep -qs '^# fsgauge-test: serial' "$t"; then
		serial="$serial $t"
	else
		parallel="$parallel $t"
	fi
done
# (test names have no spaces: they are files in tests/ and build/)
durations=$(dirname "$0")/durations
for t in $parallel; do
	n=$(basename "$t")
	secs=$(cat "$logdir/$n.secs" 2>/dev/null) ||
		secs=$(awk -v n="$n" '$1 == n { print $2; f = 1 } END { if (!f) print 999999 }' "$durations" 2>/dev/null) ||
		secs=999999
	printf '%s %s\n' "$secs" "$t"
done | sort -s -k1,1nr | cut -d' ' -f2 | xargs -r -n 1 -P "$jobs" sh "$0" --one
for t in $serial; do
	sh "$0" --one "$t"
done

pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
	name=$(basename "$t")
	case "$(cat "$logdir/$name.verdict" 2>/dev/null)" in
	ok) pass=$((pass + 1)) ;;
	skip) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $name" ;;
	esac
done
printf '\n%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
