#!/bin/sh
# fsgauge's own overhead, measured against a bare C loop doing the same
# system calls, in one invocation on the same machine and directory:
#   1. 4 KiB pread at random offsets of a cached 64 MiB file, one thread;
#   2. create + close + unlink of empty files, one thread;
# then the preallocation time and peak RSS of a 1,000,000-entry fileset.
# Prints ops/s of both and their ratio (target: fsgauge >= 0.95 of bare).
#
#   [ROUNDS=5] sh bench/overhead.sh [SECONDS] [DIR]
set -eu
secs=${1:-5}
dir=${2:-${TMPDIR:-/tmp}}
top=$(cd "$(dirname "$0")/.." && pwd)
fsg=${FSGAUGE:-$top/fsgauge}
work=$(mktemp -d "$dir/fsgauge-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

cc -O2 -D_GNU_SOURCE -I"$top/src" -o "$work/bare_loop" "$top/bench/bare_loop.c" \
	"$top/src/util/clock.c" "$top/src/util/util.c" -lpthread

cat > "$work/pread.f" <<WML
define file name=data,path=\$dir,size=64m,prealloc,reuse
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop read name=pread4k,filename=data,iosize=4k,random
  }
}
WML

# 1. pread of a cached file.  The bare loop reads a file fsgauge itself
# preallocated (kept from a first run), so both sides read files written
# the same way; both stay cached (64 MiB against the machine's RAM).
"$fsg" run "$work/pread.f" -d "$work" -t 1 -q --keep 2> "$work/keep.err" > /dev/null
kept=$(sed -n 's/^kept run directory: //p' "$work/keep.err")
cat "$kept/data" > /dev/null

rate() { # json file, op name -> ops/s of that op
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(sum(o["ops_per_second"] for o in d["phases"][0]["operations"] if o["name"]==sys.argv[2]))' "$1" "$2"
}

# Both sides run pinned to the same CPU (this VM's two vCPUs differ by up
# to 8% in a cached pread loop) and alternate, ROUNDS times: a ratio is
# taken between neighbouring runs, and the median of those is reported
# with the range, so that the machine's drift (other tenants, writeback)
# falls on both sides alike.  The pread test also runs a bare loop that
# times every pread as fsgauge does (two clock reads and a histogram
# increment): fsgauge / bare-timed is what fsgauge costs beyond measuring;
# and one that issues the system call inline, as fsgauge's psync engine
# does (src/engine/syscall.h): the bare loop calls libc's pread(), whose
# return after the system call is itself a cost (docs/engine.md), so this
# is the tightest reference there is.  The create test has the same
# three references, each of its three calls timed or inline.
rounds=${ROUNDS:-5}
pin=""
if command -v taskset > /dev/null 2>&1; then
	pin="taskset -c $(($(getconf _NPROCESSORS_ONLN) - 1))"
fi
sync
for i in $(seq "$rounds"); do
	$pin "$work/bare_loop" pread "$kept/data" "$secs" | awk '{print $3}' >> "$work/bp"
	$pin "$work/bare_loop" pread-inline "$kept/data" "$secs" | awk '{print $3}' >> "$work/bi"
	$pin "$work/bare_loop" pread-timed "$kept/data" "$secs" | awk '{print $3}' >> "$work/bt"
	$pin "$fsg" run "$work/pread.f" -d "$work" -t "$secs" -q --json "$work/pread.json" > /dev/null
	rate "$work/pread.json" pread4k >> "$work/fp"
	for v in create:bc create-inline:bci create-timed:bct; do
		mkdir "$work/bare"
		$pin "$work/bare_loop" "${v%%:*}" "$work/bare" "$secs" | awk '{print $3}' >> "$work/${v##*:}"
		rmdir "$work/bare"
	done
	$pin "$fsg" run "$top/bench/create-close-unlink.f" -d "$work" -t "$secs" -q --json "$work/create.json" > /dev/null
	rate "$work/create.json" create >> "$work/fc"
done

# line TEST FSGAUGE-FILE REFERENCE-FILE: median ops/s of both, and the
# median (min-max) of the per-round ratios
line() {
	paste "$2" "$3" | python3 -c 'import statistics, sys
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
f, b = [r[0] for r in rows], [r[1] for r in rows]
q = [x / y for x, y in rows]
print("%-34s %12.0f %12.0f %7.3f  (%.3f-%.3f)" % (sys.argv[1], statistics.median(b),
      statistics.median(f), statistics.median(q), min(q), max(q)))' "$1"
}
printf '%-34s %12s %12s %7s  %s\n' "test ($rounds rounds${pin:+, pinned})" "ref ops/s" "fsgauge" "ratio" "(range)"
line "4 KiB pread, cached: vs bare loop" "$work/fp" "$work/bp"
line "  vs bare loop, syscall inline" "$work/fp" "$work/bi"
line "  vs bare loop timing each pread" "$work/fp" "$work/bt"
line "  (bare timed vs bare)" "$work/bt" "$work/bp"
line "  (bare inline vs bare)" "$work/bi" "$work/bp"
line "create+close+unlink (per file)" "$work/fc" "$work/bc"
line "  vs bare loop, syscalls inline" "$work/fc" "$work/bci"
line "  vs bare loop timing each call" "$work/fc" "$work/bct"
line "  (bare timed vs bare)" "$work/bct" "$work/bc"
line "  (bare inline vs bare)" "$work/bci" "$work/bc"

# 3. a 1,000,000-entry fileset: preallocation time and peak RSS
cat > "$work/million.f" <<WML
define fileset name=million,path=\$dir,size=0,entries=1000000,dirwidth=1000,prealloc=100
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop statfile name=stat,filesetname=million
  }
}
WML
python3 - "$fsg" "$work" <<'PY'
import resource, subprocess, sys, time, json
fsg, work = sys.argv[1], sys.argv[2]
t0 = time.time()
subprocess.run([fsg, "run", work + "/million.f", "-d", work, "-t", "1", "-q",
                "--json", work + "/million.json"], check=True, stdout=subprocess.DEVNULL)
wall = time.time() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
d = json.load(open(work + "/million.json"))
fs = d["filesets"][0]
print("1,000,000-entry fileset: %d files preallocated in %.1f s (whole run incl. cleanup %.1f s), peak RSS %.0f MiB"
      % (fs["preallocated"], fs["seconds"], wall, rss))
PY
