#!/bin/sh
# What the contention rule (docs/insight.md) sees in four workloads of 8
# threads on tmpfs: one fileset entry to create and delete against 64
# entries (the workers wait for each other in fsgauge), and 4 KiB random
# writes into one file against writes into 64 files (the workers wait on
# the file's lock in the kernel, whose waiters partly spin).  Prints, per
# workload, the workers' shares on a CPU, queued and asleep, the
# contention figure, the voluntary switches per operation and the verdict.
#
#   sh bench/insight-contention.sh [SECONDS] [TMPFS-DIR]
set -eu
secs=${1:-3}
dir=${2:-/dev/shm}
top=$(cd "$(dirname "$0")/.." && pwd)
fsg=${FSGAUGE:-$top/fsgauge}
[ "$(stat -f -c %T "$dir")" = tmpfs ] || { echo "$dir is not a tmpfs" >&2; exit 2; }
work=$(mktemp -d "$dir/fsgauge-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

for n in 1 64; do
	cat >"$work/entry$n.f" <<WML
define fileset name=f,path=\$dir,entries=$n,size=1m
define process name=p {
  thread name=t,instances=8 {
    flowop createfile name=cr,filesetname=f,fd=1
    flowop writewholefile name=wr,fd=1,iosize=64k
    flowop closefile name=cl,fd=1
    flowop deletefile name=del,filesetname=f
  }
}
run $secs
WML
	cat >"$work/write$n.f" <<WML
define fileset name=f,path=\$dir,entries=$n,size=4m,prealloc
define process name=p {
  thread name=t,instances=8 {
    flowop write name=w1,filesetname=f,iosize=4k,random
  }
}
run $secs
WML
done
mkdir "$work/d"
printf '%-8s %6s %6s %6s %10s %9s  %s\n' workload on% runq% asleep% contention vcsw/op verdict
for w in entry1 entry64 write1 write64; do
	"$fsg" run "$work/$w.f" -d "$work/d" --json "$work/$w.json" >/dev/null 2>&1
	python3 - "$work/$w.json" "$w" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
t, lb = p["workers"], p["limited_by"]
c = [r for r in lb["rules"] if r["rule"] == "contention"][0]
w = t["seconds"]
on, q = t["cpu_seconds"] / w, t["runq_seconds"] / w
v = c["figures"]["voluntary_switches_per_op"]
print("%-8s %6.0f %6.0f %7.0f %10.1f %9s  %s" % (sys.argv[2], 100 * on, 100 * q,
      100 * (1 - on - q), c["value"], "-" if v is None else "%.4f" % v,
      lb["verdict"] + (" (%s)" % lb["part"] if lb["part"] else "")))
PY
done
