#!/bin/sh
# Several targets on two file systems (docs/targets.md): two tmpfs
# mounts, one large and one of 2 MiB.  iozone -F with a file on each:
# each file in the run directory of its own target, per-file and
# per-target figures, the summary over both, both run directories
# removed; ENOSPC on the small one while the large one has room, and
# SIGINT: a clean stop, both removed.  Needs root (mount); skips without.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to mount two tmpfs"
a="$T/a" b="$T/b"
mkdir "$a" "$b"
mount -t tmpfs -o size=64m fsgauge-ta "$a" 2>/dev/null || skip_all "cannot mount a tmpfs"
if ! mount -t tmpfs -o size=2m fsgauge-tb "$b" 2>/dev/null; then
	umount "$a"
	skip_all "cannot mount a second tmpfs"
fi
trap 'umount "$a" "$b" 2>/dev/null; rm -rf "$T"' EXIT

# jcheck DESCRIPTION FILE EXPR: EXPR over the JSON in FILE is true
jcheck() {
	check "$1" [ "$(json "$2" "$3" 2>/dev/null)" = true ]
}

# --- iozone -F across the two: files, figures, cleanup --------------------
run "$FSGAUGE" iozone -i 0 -i 1 -t 2 -s 512k -r 64k -x -F "$a/f1" "$b/f2" --keep \
	--json "$T/i.json"
check "iozone -F on two file systems: exit 0" [ "$rc" -eq 0 ]
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
check "  a marked run directory in each target" \
	[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
check "  each file in its own target's run directory, written in full" \
	[ "$(stat -c %s "$ka/f1")" -eq 524288 ] && [ "$(stat -c %s "$kb/f2")" -eq 524288 ] &&
	[ ! -e "$ka/f2" ] && [ ! -e "$kb/f1" ]
check "  the section names each target" \
	grep -q "fsgauge: 1 thread in '$a'" "$T/out" && grep -q "fsgauge: 1 thread in '$b'" "$T/out"
jcheck "  per-file figures: both threads moved 512 KB in each test" "$T/i.json" \
	'all(p["metrics"]["t0.xfer"]["value"] == 512 and p["metrics"]["t1.xfer"]["value"] == 512 for p in d["phases"])'
jcheck "  per-target throughput > 0 and the Children figure is their sum" "$T/i.json" \
	'all(p["metrics"]["target1.throughput"]["value"] > 0 and p["metrics"]["target2.throughput"]["value"] > 0 and abs(p["metrics"]["target1.throughput"]["value"] + p["metrics"]["target2.throughput"]["value"] - p["metrics"]["children_throughput"]["value"]) < 1e-6 * p["metrics"]["children_throughput"]["value"] for p in d["phases"])'
jcheck "  the result names both directories" "$T/i.json" \
	'd["parameters"]["dir"] == "'"$a"'" and d["parameters"]["dir2"] == "'"$b"'" and d["environment"]["target2"] == "'"$b"'"'
rm -rf "$ka" "$kb"
run "$FSGAUGE" iozone -i 0 -t 2 -s 512k -r 64k -F "$a/f1" "$b/f2" --quiet
check "iozone -F without --keep: exit 0, both run directories removed" \
	[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"

# --- the preflight per target ------------------------------------------------
expect_fail "iozone -F: the small target cannot hold its file (exit 2)" 2 \
	"^fsgauge: not enough free space for 2 threads: 4.0 MiB needed, '$b' has" \
	"$FSGAUGE" iozone -i 0 -t 2 -s 4m -r 64k -F "$a/f1" "$b/f2"
check "  nothing left in either" empty_dir "$a" && empty_dir "$b"

# --- ENOSPC on the small one while the large one has room -------------------
# every write is slowed (faulty's delay=, no failure) so that the small
# tmpfs can be filled once both run directories exist; the writes there
# then meet a real ENOSPC
slow="faulty:psync:op=write,delay=20000"
"$FSGAUGE" iozone -i 0 -t 2 -s 1m -r 4k -x -F "$a/f1" "$b/f2" --engine "$slow" \
	--json "$T/e.json" >"$T/out" 2>"$T/err" &
pid=$!
wait_for "$T/err" "run directory: $b/" 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "ENOSPC on one target: exit 1" [ "$rc" -eq 1 ]
check "  the message names the write and the path" \
	grep -Eq "write '[^']*f2'.*: No space left on device" "$T/err" "$T/out"
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

# --- SIGINT ----------------------------------------------------------------------
"$FSGAUGE" iozone -i 0 -t 2 -s 1m -r 4k -x -F "$a/f1" "$b/f2" --engine "$slow" \
	--json "$T/s.json" >"$T/out" 2>"$T/err" &
pid=$!
check "SIGINT: the run got going" wait_for "$T/out" 'Each thread writes'
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "SIGINT: JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
check "SIGINT: both run directories removed" empty_dir "$a" && empty_dir "$b"

finish
