#!/bin/sh
# The fault loop: count the operations of a small varmail run, then fail
# the Nth write, open or fsync (sampled over the whole run, preallocation
# included) with EIO and ENOSPC, and every one after N.  For each run:
# no crash, no hang, a message naming the operation and the path, exit 1,
# the partial JSON marked, and nothing left in the target directory.
# Transient faults (EINTR, EAGAIN, short transfers) must be retried and
# never reported.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
wl="varmail -q -s nfiles=20 -s nthreads=2"
: "${FAULT_SAMPLES:=3}"

# strerror text of the errors injected
errtext() {
	case $1 in
	EIO) echo "Input/output error" ;;
	ENOSPC) echo "No space left on device" ;;
	esac
}

# samples COUNT K SEED: 1, 2 and K values spread over [3, COUNT/4]
# (a quarter, so the fault is met even when the run goes slower than the
# counting run did)
samples() {
	awk -v n="$1" -v k="$2" -v seed="$3" 'BEGIN {
		srand(seed); print 1; print 2; hi = int(n / 4);
		for (i = 0; i < k && hi > 3; i++) print 3 + int(rand() * (hi - 2));
	}'
}

# jgrep REGEX: the JSON result of the last run matches (python is too slow
# to start for every one of the runs on a loaded machine)
jgrep() {
	grep -Eq -- "$1" "$T/f.json"
}

# faulted DESC SPEC ERR [ARGS...]: a run that must stop on the fault
faulted() {
	desc=$1 spec=$2 err=$3
	shift 3
	rm -f "$T/f.json"
	# shellcheck disable=SC2086
	timeout -k 5 60 "$FSGAUGE" run $wl -d "$d" -t 30 --engine "faulty:psync:$spec" \
		--json "$T/f.json" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	msg=$(errtext "$err")
	why=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="hung (killed by timeout)"
	elif [ "$rc" -ge 128 ]; then
		why="crashed (exit $rc)"
	elif [ "$rc" -ne 1 ]; then
		why="exit $rc, want 1"
	elif ! grep -Eq "(open|create|write|append|fsync|read|mkdir) '[^']+'.*: $msg" "$T/err"; then
		why="no message naming the operation and path"
	elif [ ! -s "$T/f.json" ]; then
		why="no JSON written"
	elif ! jgrep '"complete": false' || ! jgrep '"stopped_on_error": true' ||
		! jgrep '"errors": [1-9]' || ! jgrep "\"first_error\": \".*: $msg\""; then
		why="JSON not marked: $(grep -A5 '"status"' "$T/f.json")"
	elif ! empty_dir "$d"; then
		why="left behind: $(ls -A "$d" | head -3)"
	fi
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc: $why"
		sed 's/^/#   /' "$T/err" | head -5
		rm -rf "${d:?}"/* 2>/dev/null
	fi
}

# transient DESC SPEC: a run whose faults must be absorbed
transient() {
	desc=$1 spec=$2
	rm -f "$T/f.json"
	# shellcheck disable=SC2086
	timeout -k 5 60 "$FSGAUGE" run $wl -d "$d" -t 1 --engine "faulty:psync:$spec" \
		--json "$T/f.json" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && empty_dir "$d" &&
		jgrep '"complete": true' && jgrep '"errors": 0,' && ! jgrep '"errors": [1-9]'; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}

# 1. count what a clean run does (the faulty engine in count-only mode)
# shellcheck disable=SC2086
run "$FSGAUGE" run $wl -d "$d" -t 1 --engine faulty:psync --json "$T/count.json"
check "count run succeeds" [ "$rc" -eq 0 ]
eval "$(json "$T/count.json" '" ".join("n_%s=%d" % (k, d["io_requests"].get(k, 0)) for k in ("write", "open", "fsync"))')"
# shellcheck disable=SC2154
check "count run did writes, opens and fsyncs ($n_write, $n_open, $n_fsync)" \
	[ "$n_write" -gt 8 ] && [ "$n_open" -gt 8 ] && [ "$n_fsync" -gt 8 ]

# 2. the loop: the Nth operation fails
seed=1
for op in write open fsync; do
	eval "n=\$n_$op"
	for err in EIO ENOSPC; do
		for i in $(samples "$n" "$FAULT_SAMPLES" "$seed"); do
			faulted "$op #$i fails with $err" "op=$op,nth=$i,err=$err" "$err"
		done
		seed=$((seed + 1))
	done
done

# 3. every operation after N fails
faulted "every write after the 5th fails with ENOSPC" "op=write,after=5,err=ENOSPC" ENOSPC
faulted "every open after the 10th fails with EIO" "op=open,after=10,err=EIO" EIO
faulted "every operation after the 40th fails with EIO" "op=any,after=40,err=EIO" EIO

# 4. --on-error=continue counts errors and runs on; still exit 1
# shellcheck disable=SC2086
run timeout -k 5 60 "$FSGAUGE" run $wl -d "$d" -t 1 --on-error=continue \
	--engine "faulty:psync:op=fsync,nth=3,err=EIO" --json "$T/c.json"
check "--on-error=continue: exit 1 after an fsync error" [ "$rc" -eq 1 ]
check "--on-error=continue: the error is counted, the run not stopped" \
	[ "$(json "$T/c.json" 'd["status"]["errors"] == 1 and not d["status"]["stopped_on_error"]')" = true ]
check "--on-error=continue: nothing left behind" empty_dir "$d"

# 5. --keep keeps the run directory of a failed run, marked as ours
# shellcheck disable=SC2086
run timeout -k 5 60 "$FSGAUGE" run $wl -d "$d" -t 30 --keep \
	--engine "faulty:psync:op=write,nth=50,err=EIO"
check "--keep: exit 1" [ "$rc" -eq 1 ]
kept=$(ls -A "$d")
check "--keep: the run directory is kept" [ -f "$d/$kept/.fsgauge-run" ]
rm -rf "${d:?}/$kept"

# 6. transient faults are retried, not reported
for op in write open fsync; do
	transient "EINTR on $op #3 is retried" "op=$op,nth=3,err=EINTR"
	transient "EAGAIN on $op #7 is retried" "op=$op,nth=7,err=EAGAIN"
done
transient "EINTR on close #5 is not an error (the descriptor is gone)" "op=close,nth=5,err=EINTR"
transient "every write short: completed by retries" "op=write,after=0,err=short"
transient "every read short: completed by retries" "op=read,after=0,err=short"
# shellcheck disable=SC2086
run "$FSGAUGE" run $wl -d "$d" -t 1 --engine faulty:psync:op=write,after=0,err=short \
	--json "$T/s.json"
check "short writes: more write requests than write operations, bytes unchanged" \
	[ "$(json "$T/s.json" 'd["io_requests"]["write"] > sum(o["ops"] for o in d["phases"][0]["operations"] if o["class"] == "write") + 20')" = true ]

finish
