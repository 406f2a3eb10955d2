#!/bin/sh
# `fsgauge untar` against `tar -x`, the same number of times on the same
# directory, wall time per copy side by side.
#
#   sh bench/untar-vs-tar.sh [ARCHIVE] [COPIES] [DIR]
#
# ARCHIVE defaults to an uncompressed tar of /usr/include built here (so
# that tar's time is not gunzip's); COPIES to 5; DIR to $TMPDIR or /tmp.
# For each copy, alternately: `sync`, then `tar -xf ARCHIVE` into a fresh
# directory (timed around the command, so it includes tar's start and its
# reading of the archive), removed afterwards; `sync`, then `fsgauge untar
# --tarball ARCHIVE --copies 1` (the copy's own time from the JSON: first
# mkdir to last utimes, after the archive was read; the whole command's
# time is shown too).  Then one `fsgauge untar --copies COPIES` run, whose
# copies go one after another in one process.  fsgauge writes 10240 bytes
# at a time here, as GNU tar does (WRITE_SIZE=64k for fsgauge's default).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fsg=${FSGAUGE:-$top/fsgauge}
copies=${2:-5}
dir=${3:-${TMPDIR:-/tmp}}
ws=${WRITE_SIZE:-10240}
work=$(mktemp -d "$dir/untar-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

archive=${1:-}
if [ -z "$archive" ]; then
	archive=$work/usr-include.tar
	tar -C /usr -cf "$archive" include 2>/dev/null
fi

now() { date +%s.%N; }

"$fsg" untar --tarball "$archive" --list | tail -1 >"$work/stats"
echo "machine: $(uname -sr), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "target:  $dir ($(df -PT "$dir" | awk 'NR==2 {print $2 " on " $1}'))"
echo "archive: $archive ($(du -h "$archive" | cut -f1)): $(sed 's/^# //' "$work/stats")"
echo "fsgauge: $("$fsg" --version | head -1), --write-size $ws"
echo
printf '%-6s %12s %16s %16s %8s\n' copy "tar -x s" "fsgauge copy s" "fsgauge cmd s" "ratio"
i=0
while [ $i -lt "$copies" ]; do
	mkdir "$work/tar-$i"
	sync
	t0=$(now)
	tar -C "$work/tar-$i" -xf "$archive"
	t1=$(now)
	rm -rf "$work/tar-$i"
	sync
	t2=$(now)
	"$fsg" untar --tarball "$archive" --copies 1 --write-size "$ws" -d "$work" -q \
		--json "$work/one-$i.json" >/dev/null
	t3=$(now)
	python3 - "$work/one-$i.json" "$t0" "$t1" "$t2" "$t3" "$i" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t0, t1, t2, t3 = map(float, sys.argv[2:6])
copy = d['phases'][0]['executions'][0]['seconds']
tar = t1 - t0
print('%-6s %12.3f %16.3f %16.3f %8.2f' % (sys.argv[6], tar, copy, t3 - t2, copy / tar))
with open(sys.argv[1] + '.row', 'w') as f:
    f.write('%f %f %f\n' % (tar, copy, t3 - t2))
PY
	i=$((i + 1))
done
cat "$work"/one-*.json.row | python3 -c '
import sys, statistics as st
rows = [list(map(float, l.split())) for l in sys.stdin]
med = [st.median(c) for c in zip(*rows)]
print("%-6s %12.3f %16.3f %16.3f %8.2f" % ("median", med[0], med[1], med[2], med[1] / med[0]))'
echo
echo "fsgauge's own cost: the same copies on the null engine (no system calls):"
"$fsg" untar --tarball "$archive" --copies "$copies" --engine null --write-size "$ws" -d "$work" -q |
	sed -n 's/^seconds per copy/  seconds per copy/p'
echo
echo "one fsgauge run, --copies $copies --jobs 1:"
sync
"$fsg" untar --tarball "$archive" --copies "$copies" --write-size "$ws" -d "$work" -q |
	sed -n '/^Phase untar, per copy:/,/^all copies/p'
