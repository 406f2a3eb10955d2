#!/bin/sh
# Runs each test (a unit-test binary or a CLI test script) with a timeout,
# reads its TAP output and prints one line per test plus a summary.
# Exit status is non-zero when any test fails.
set -u
# Sanitized builds run several times slower (ThreadSanitizer most): give
# each test more time there rather than fail on a slow machine.
[ -n "${SANITIZE:-}" ] && : "${TEST_TIMEOUT:=1800}"
: "${TEST_TIMEOUT:=600}"
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
	name=$(basename "$t")
	log="$logdir/$name.log"
	case "$t" in
	*.sh) timeout -k 10 "$TEST_TIMEOUT" sh "$t" >"$log" 2>&1 ;;
	*) timeout -k 10 "$TEST_TIMEOUT" "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	nok=$(grep -c '^not ok' "$log")
	nall=$(grep -c '^ok\|^not ok' "$log")
	if grep -q '^1\.\.0 # *[Ss][Kk][Ii][Pp]' "$log"; then
		skip=$((skip + 1))
		printf 'SKIP %-28s %s\n' "$name" "$(sed -n 's/^1\.\.0 # *[Ss][Kk][Ii][Pp] *//p' "$log")"
	elif [ "$rc" -ne 0 ] || [ "$nok" -ne 0 ] || ! grep -q '^1\.\.[0-9]' "$log"; then
		fail=$((fail + 1))
		failed="$failed $name"
		printf 'FAIL %-28s (exit %d, %d of %d assertions failed; log %s)\n' "$name" "$rc" "$nok" "$nall" "$log"
		grep -A3 '^not ok' "$log" | head -20 | sed 's/^/     /'
		[ "$rc" -ge 124 ] && tail -5 "$log" | sed 's/^/     /'
	else
		pass=$((pass + 1))
		printf 'ok   %-28s %d assertions%s\n' "$name" "$nall" \
			"$(grep -c '# SKIP' "$log" | sed 's/^0$//; s/^[1-9].*/ (some skipped)/')"
	fi
done
printf '\n%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
