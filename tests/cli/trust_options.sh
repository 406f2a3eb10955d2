#!/bin/sh
# The shared measurement options (src/suite/shared.c): every bad value is
# refused with a message naming it and exit status 2, before anything is
# created; good values are recorded in the result's parameters.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

bad() { # DESCRIPTION REGEX OPTION...
	desc=$1 re=$2
	shift 2
	expect_fail "$desc" 2 "$re" "$FSGAUGE" run varmail -d "$d" -t 1 "$@"
	check "$desc: nothing created" empty_dir "$d"
}

bad "--data bogus" "invalid data pattern 'bogus' \(expected random, zero" --data bogus
bad "--data compress=150%" "invalid data pattern 'compress=150%'" --data compress=150%
bad "--data dedupe=x" "invalid data pattern 'dedupe=x'" --data dedupe=x
bad "--repeat 0" "invalid --repeat '0' \(expected a whole number from 1 to 1000\)" --repeat 0
bad "--repeat -1" "invalid --repeat '-1'" --repeat -1
bad "--repeat 2.5" "invalid --repeat '2.5'" --repeat 2.5
bad "--repeat 1001" "invalid --repeat '1001'" --repeat 1001
bad "--interval 0" "invalid --interval '0' \(expected seconds, from 0.05 to 31536000, a year\)" --interval 0
bad "--interval abc" "invalid --interval 'abc'" --interval abc
bad "--interval 0.01" "invalid --interval '0.01'" --interval 0.01
bad "--warmup -1" "invalid --warmup '-1' \(expected seconds, from 0 to 31536000, a year\)" --warmup -1
bad "--warmup nan" "invalid --warmup 'nan'" --warmup nan
# durations are range-checked before they become nanoseconds: 1e300 once
# overflowed the conversion and ended the warm-up at once
bad "--warmup 1e300" "invalid --warmup '1e300' \(expected seconds, from 0 to 31536000, a year\)" --warmup 1e300
bad "--warmup 31536001" "invalid --warmup '31536001'" --warmup 31536001
bad "--interval 1e300" "invalid --interval '1e300' \(expected seconds, from 0.05 to 31536000" --interval 1e300
bad "--steady-state=0" "invalid --steady-state '0' \(expected PCT or PCT,N" --steady-state=0
bad "--steady-state=101" "invalid --steady-state '101'" --steady-state=101
bad "--steady-state=5,1" "invalid --steady-state '5,1'" --steady-state=5,1
bad "--steady-state=5,x" "invalid --steady-state '5,x'" --steady-state=5,x
bad "--progress=sometimes" "invalid --progress 'sometimes' \(expected auto, always or never\)" \
	--progress=sometimes
bad "--reuse without --repeat" "--reuse keeps files between repeats: it needs --repeat N" --reuse
bad "--reuse with --repeat 1" "--reuse keeps files between repeats" --reuse --repeat 1

# --drop-caches needs root: as another user it must fail cleanly
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		chmod 1777 "$d"
		expect_fail "--drop-caches as a user: exit 2, says it needs root" 2 \
			"cannot drop caches: cannot open '/proc/sys/vm/drop_caches': .*needs root" \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$FSGAUGE" run varmail \
			-d "$d" -t 1 --drop-caches
		check "--drop-caches as a user: nothing created" empty_dir "$d"
	else
		ok "# SKIP --drop-caches as a user: no setpriv"
	fi
else
	expect_fail "--drop-caches without root: exit 2, says it needs root" 2 \
		"cannot drop caches: cannot open '/proc/sys/vm/drop_caches': .*needs root" \
		"$FSGAUGE" run varmail -d "$d" -t 1 --drop-caches
	check "--drop-caches without root: nothing created" empty_dir "$d"
fi

# good values are recorded
run "$FSGAUGE" run varmail -d "$d" -t 0.6 -q --engine null -s nfiles=20 -s nthreads=2 \
	--data compress=40% --interval 0.2 --warmup 0.1 --steady-state=50,3 --repeat 2 --reuse \
	--progress=never --json "$T/p.json"
check "all the options together: exit 0" [ "$rc" -eq 0 ]
check "param data" [ "$(json "$T/p.json" 'd["parameters"]["data"]')" = "compress=40%" ]
check "param repeat" [ "$(json "$T/p.json" 'd["parameters"]["repeat"]')" = 2 ]
check "param reuse" [ "$(json "$T/p.json" 'd["parameters"]["reuse"]')" = true ]
check "param interval" [ "$(json "$T/p.json" 'd["parameters"]["interval"]')" = 0.2 ]
check "param warmup" [ "$(json "$T/p.json" 'd["parameters"]["warmup"]')" = 0.1 ]
check "param steady_state" [ "$(json "$T/p.json" 'd["parameters"]["steady_state"]')" = "50%,3" ]
check "param direct" [ "$(json "$T/p.json" 'd["parameters"]["direct"]')" = false ]
check "param drop_caches" [ "$(json "$T/p.json" 'd["parameters"]["drop_caches"]')" = false ]
check "--help lists the measurement options" sh -c "'$FSGAUGE' run --help | grep -q -- '--steady-state'"
check "nothing left behind" empty_dir "$d"
finish
