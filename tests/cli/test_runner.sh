#!/bin/sh
# test_runner.sh — tests/run-tests.sh, which `make check` runs: it counts
# passing, failing and skipped tests right whether they run one at a time
# or several at once, fails on a failed assertion, a bad exit status or a
# missing plan, runs tests marked serial after the others and alone, and
# refuses a bad JOBS.
. "$(dirname "$0")/lib.sh"

runner="$(cd "$(dirname "$0")/.." && pwd)/run-tests.sh"
w="$T/tests"
mkdir "$w"
# (each test notes its start and end in $T/trace, for the serial check)
mk() { # NAME BODY: a test script
	printf '#!/bin/sh\necho "start %s" >> %s\n%s\necho "end %s" >> %s\n' \
		"$1" "$T/trace" "$2" "$1" "$T/trace" > "$w/$1"
}
# wait_other NAME: with OVERLAP set, each of pass1 and pass2 waits (up to
# 20 s) until the other has started, so run at once they overlap however
# slow the machine; run one at a time they do not
wait_other() {
	printf 'i=0; while [ -n "${OVERLAP:-}" ] && ! grep -q "^start %s" %s && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done' \
		"$1" "$T/trace"
}
mk pass1.sh "echo 1..2; echo 'ok 1 - a'; $(wait_other pass2.sh); echo 'ok 2 - b'"
mk pass2.sh "echo 1..1; $(wait_other pass1.sh); echo 'ok 1 - a'"
mk skip.sh 'echo "1..0 # SKIP nothing to do here"'
mk failed.sh 'echo 1..2; echo "ok 1 - a"; echo "not ok 2 - b"'
mk badexit.sh 'echo 1..1; echo "ok 1 - a"; exit 3'
mk noplan.sh 'echo "ok 1 - a"'
mk serial.sh '# fsgauge-test: serial (for the test)
echo 1..1; echo "ok 1 - a"'

for jobs in 1 3; do
	: > "$T/trace"
	# (the serial test named first: it still runs last)
	overlap=""
	[ "$jobs" -gt 1 ] && overlap=1
	run env JOBS=$jobs OVERLAP=$overlap BUILD="$T/b$jobs" sh "$runner" "$w/serial.sh" "$w/pass1.sh" \
		"$w/pass2.sh" "$w/skip.sh" "$w/failed.sh" "$w/badexit.sh" "$w/noplan.sh"
	check "JOBS=$jobs: exit 1 when a test fails" [ "$rc" -eq 1 ]
	check "JOBS=$jobs: the summary counts each kind" grep -q "^3 passed, 3 failed, 1 skipped$" "$T/out"
	check "JOBS=$jobs: the failed tests are named" \
		grep -q "^failed: failed.sh badexit.sh noplan.sh$" "$T/out"
	check "JOBS=$jobs: one line per test" [ "$(grep -c '^ok \|^FAIL \|^SKIP ' "$T/out")" -eq 7 ]
	check "JOBS=$jobs: a failed assertion is shown" grep -q "^     not ok 2 - b" "$T/out"
	check "JOBS=$jobs: the exit status of a test is shown" grep -q "^FAIL badexit.sh .*(exit 3, 0 of 1" "$T/out"
	check "JOBS=$jobs: the skip reason is shown" grep -q "^SKIP skip.sh .*nothing to do here" "$T/out"
	check "JOBS=$jobs: passing tests say their assertions and seconds" \
		grep -Eq "^ok   pass1.sh +2 assertions, [0-9]+ s$" "$T/out"
	check "JOBS=$jobs: logs are kept" grep -q "not ok 2 - b" "$T/b$jobs/test-logs/failed.sh.log"
	check "JOBS=$jobs: the serial test runs last, alone" \
		[ "$(tail -n 2 "$T/trace" | tr '\n' ' ')" = "start serial.sh end serial.sh " ]
done
# with 3 at once, pass1 and pass2 overlapped
first_end=$(grep -n "^end pass" "$T/trace" | head -n 1 | cut -d: -f1)
check "JOBS=3: tests run at once" [ "$(head -n "$first_end" "$T/trace" | grep -c '^start pass')" -eq 2 ]

run env BUILD="$T/b1" sh "$runner" "$w/pass1.sh" "$w/skip.sh"
check "all passing: exit 0" [ "$rc" -eq 0 ]
check "all passing: summary" grep -q "^1 passed, 0 failed, 1 skipped$" "$T/out"

for bad in 0 x -1 2x; do
	run env JOBS="$bad" BUILD="$T/b1" sh "$runner" "$w/pass1.sh"
	check "JOBS='$bad': exit 2" [ "$rc" -eq 2 ]
	check "JOBS='$bad': says why" grep -q "run-tests.sh: JOBS must be a positive integer, not '$bad'" "$T/err"
done
finish
