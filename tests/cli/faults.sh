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
# the option that names the engine, and the engine the faulty one wraps
# (fsgauge io takes fio's --ioengine, and wraps the asynchronous ones too)
eng_opt=--engine inner=psync
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

# faulted DESC SPEC ERR [ARGS...]: a varmail run that must stop on the fault
faulted() {
	desc=$1 spec=$2 err=$3
	shift 3
	# shellcheck disable=SC2086
	faulted_cmd "$desc" "$spec" "$err" run $wl -d "$d" -t 30 "$@"
}

# faulted_cmd DESC SPEC ERR COMMAND...: any fsgauge command (its target
# directory is $d) that must stop on the fault
faulted_cmd() {
	desc=$1 spec=$2 err=$3
	shift 3
	rm -f "$T/f.json"
	timeout -k 5 60 "$FSGAUGE" "$@" "$eng_opt" "faulty:$inner:$spec" \
		--json "$T/f.json" >"$T/out" 2>"$T/err"
	rc=$?
	msg=$(errtext "$err")
	why=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="hung (killed by timeout)"
	elif [ "$rc" -ge 128 ]; then
		why="crashed (exit $rc)"
	elif [ "$rc" -ne 1 ]; then
		why="exit $rc, want 1"
	elif ! grep -Eq "(open|create|write|append|fsync|read|mkdir|close|unlink|rename|stat|listdir|lseek|rmdir|aiowrite) '[^']+'.*: $msg" "$T/err"; then
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

# transient DESC SPEC [COMMAND...]: a run whose faults must be absorbed
# (default: a one-second varmail)
transient() {
	desc=$1 spec=$2
	shift 2
	# shellcheck disable=SC2086
	[ $# -gt 0 ] || set -- run $wl -d "$d" -t 1
	rm -f "$T/f.json"
	timeout -k 5 60 "$FSGAUGE" "$@" "$eng_opt" "faulty:$inner:$spec" \
		--json "$T/f.json" >"$T/out" 2>"$T/err"
	rc=$?
	# (bonnie and iozone print each phase's "limited by" line on stderr)
	grep -v '^\(phase [^:]*: \)\?limited by: ' "$T/err" >"$T/err2"
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err2" ] && empty_dir "$d" &&
		jgrep '"complete": true' && jgrep '"errors": 0,' && ! jgrep '"errors": [1-9]'; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"
		sed 's/^/#   /' "$T/err2" | head -5
	fi
}

# 1. count what a clean run does (the faulty engine in count-only mode)
# shellcheck disable=SC2086
run "$FSGAUGE" run $wl -d "$d" -t 1 --engine faulty:psync --json "$T/count.json"
check "count run succeeds" [ "$rc" -eq 0 ]
eval "$(json "$T/count.json" '" ".join("n_%s=%d" % (k, d["io_requests"].get(k, 0)) for k in ("write", "open", "fsync"))')"
# shellcheck disable=SC2154
[ "$n_write" -gt 8 ] && [ "$n_open" -gt 8 ] && [ "$n_fsync" -gt 8 ]
checked "count run did writes, opens and fsyncs ($n_write, $n_open, $n_fsync)"

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

# 7. iozone: its operation counts are exact (no time limit; -x: no
# stonewalling, which would end threads early), so the loop
# covers every write, open, fsync and read, or evenly spaced ones
if "$FSGAUGE" iozone --help >/dev/null 2>&1; then
	iz="iozone -t 2 -s 512k -r 64k -x -i 0 -i 1 -i 2 --dir $d --quiet"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $iz --engine faulty:psync --json "$T/izc.json"
	check "iozone count run succeeds" [ "$rc" -eq 0 ]
	eval "$(json "$T/izc.json" '" ".join("z_%s=%d" % (k, sum(p.get("io_requests", {}).get(k, 0) for p in d["phases"])) for k in ("write", "open", "fsync", "read"))')"
	# shellcheck disable=SC2154
	[ "$z_write" -gt 0 ] && [ "$z_open" -gt 0 ] && [ "$z_fsync" -gt 0 ] && [ "$z_read" -gt 0 ]
	checked "iozone count run did writes, opens, fsyncs and reads ($z_write, $z_open, $z_fsync, $z_read)"
	for op in write open fsync read; do
		eval "n=\$z_$op"
		for i in $(awk -v n="$n" 'BEGIN { k = n < 4 ? n : 4; for (j = 0; j < k; j++) print 1 + int(j * n / k); if (n > 1) print n }' | sort -un); do
			err=EIO
			[ "$op" = write ] && [ $((i % 2)) -eq 0 ] && err=ENOSPC
			# shellcheck disable=SC2086
			faulted_cmd "iozone: $op #$i of $n fails with $err" "op=$op,nth=$i,err=$err" "$err" $iz
		done
	done
	# shellcheck disable=SC2086
	transient "iozone: every write and read short, completed by retries" "op=read|write,after=0,err=short" $iz
	# shellcheck disable=SC2086
	transient "iozone: EINTR on write #3 is retried" "op=write,nth=3,err=EINTR" $iz
else
	ok "iozone: # SKIP fsgauge iozone is not built"
fi

# 8. untar: a tiny synthetic tree, exact counts as for iozone
if "$FSGAUGE" untar --help >/dev/null 2>&1; then
	ut="untar --synthetic tiny -j 2 -d $d --quiet"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $ut --engine faulty:psync --json "$T/utc.json"
	check "untar count run succeeds" [ "$rc" -eq 0 ]
	eval "$(json "$T/utc.json" '" ".join("u_%s=%d" % (k, sum(p.get("io_requests", {}).get(k, 0) for p in d["phases"]) or d["io_requests"].get(k, 0)) for k in ("write", "open", "mkdir"))')"
	# shellcheck disable=SC2154
	[ "$u_write" -gt 0 ] && [ "$u_open" -gt 0 ] && [ "$u_mkdir" -gt 0 ]
	checked "untar count run did writes, opens and mkdirs ($u_write, $u_open, $u_mkdir)"
	for op in write open mkdir; do
		eval "n=\$u_$op"
		for i in $(awk -v n="$n" 'BEGIN { print 1; if (n > 2) print int(n / 2); if (n > 1) print n }' | sort -un); do
			# shellcheck disable=SC2086
			faulted_cmd "untar: $op #$i of $n fails with ENOSPC" "op=$op,nth=$i,err=ENOSPC" ENOSPC $ut
		done
	done
	# shellcheck disable=SC2086
	transient "untar: every write short, completed by retries" "op=write,after=0,err=short" $ut
else
	ok "untar: # SKIP fsgauge untar is not built"
fi

# 9. bonnie: small sizes; the first and the middle write, open, fsync and
# read of the run (its later counts depend on timing)
if "$FSGAUGE" bonnie --help >/dev/null 2>&1; then
	bn="bonnie -d $d -s 2m -r 1 -n 1 -q"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $bn --engine faulty:psync --json "$T/bnc.json"
	check "bonnie count run succeeds" [ "$rc" -eq 0 ]
	eval "$(json "$T/bnc.json" '" ".join("b_%s=%d" % (k, sum(p.get("io_requests", {}).get(k, 0) for p in d["phases"])) for k in ("write", "open", "fsync", "read"))')"
	for op in write open fsync read; do
		eval "n=\$b_$op"
		for i in $(awk -v n="$n" 'BEGIN { print 1; if (n > 3) print int(n / 2) }'); do
			err=EIO
			[ "$op" = write ] && err=ENOSPC
			# shellcheck disable=SC2086
			faulted_cmd "bonnie: $op #$i of $n fails with $err" "op=$op,nth=$i,err=$err" "$err" $bn
		done
	done
else
	ok "bonnie: # SKIP fsgauge bonnie is not built"
fi

# 10. fsgauge io (fio's options): a mixed random job with fsyncs on psync,
# and on io_uring and libaio with 8 requests in flight, so a fault meets
# a queue that still holds requests; the first, a middle and the last
# write, read, fsync and the open, then transient faults
if "$FSGAUGE" io --help >/dev/null 2>&1; then
	eng_opt=--ioengine
	for inner in psync io_uring libaio; do
		depth=8
		[ "$inner" = psync ] && depth=1
		io="io --name=j --rw=randrw --bs=4k --size=256k --iodepth=$depth --fsync=8 -d $d -q"
		# shellcheck disable=SC2086
		run "$FSGAUGE" $io --ioengine "faulty:$inner" --json "$T/ioc.json"
		check "io on $inner: count run succeeds" [ "$rc" -eq 0 ]
		eval "$(json "$T/ioc.json" '" ".join("i_%s=%d" % (k, d["io_requests"].get(k, 0)) for k in ("write", "read", "fsync", "open"))')"
		# shellcheck disable=SC2154
		[ "$i_write" -gt 8 ] && [ "$i_read" -gt 8 ] && [ "$i_fsync" -gt 0 ] && [ "$i_open" -gt 0 ]
		checked "io on $inner: count run did writes, reads, fsyncs and an open ($i_write, $i_read, $i_fsync, $i_open)"
		for op in write read fsync open; do
			eval "n=\$i_$op"
			for i in $(awk -v n="$n" 'BEGIN { print 1; if (n > 2) print int(n / 2); if (n > 1) print n }' | sort -un); do
				err=EIO
				[ "$op" = write ] && [ "$i" -gt 1 ] && err=ENOSPC
				# shellcheck disable=SC2086
				faulted_cmd "io on $inner: $op #$i of $n fails with $err" "op=$op,nth=$i,err=$err" "$err" $io
			done
		done
		# shellcheck disable=SC2086
		faulted_cmd "io on $inner: every write after the 10th fails with ENOSPC" "op=write,after=10,err=ENOSPC" ENOSPC $io
		# shellcheck disable=SC2086
		transient "io on $inner: every read and write short, completed by retries" "op=read|write,after=0,err=short" $io
		# shellcheck disable=SC2086
		transient "io on $inner: EINTR on write #3 is retried" "op=write,nth=3,err=EINTR" $io
	done
	eng_opt=--engine inner=psync
else
	ok "io: # SKIP fsgauge io is not built"
fi

finish
