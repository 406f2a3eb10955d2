#!/bin/sh
# io-vs-fio.sh — run Debian's fio and `fsgauge io` with the same fio
# options on the same directory (or device), alternating, and print for
# each case both tools' IOPS, their CPU per I/O and the ratio fsgauge/fio.
# Both tools write fio's JSON (--output-format=json), and the figures are
# read from it by the same code, so the comparison also checks that
# fsgauge's JSON says what fio's says.
#
#   bench/io-vs-fio.sh [-d DIR] [-k ROUNDS] [-t SECONDS] [-c CPU] [-L]
#
# Cases (4 KiB requests on a 256 MiB file unless said):
#   psync-randread-qd1      psync, random reads, one in flight
#   io_uring-randread-qd32  io_uring, random reads, 32 in flight
#   libaio-randread-qd32    libaio, direct random reads, 32 in flight, on a
#                           loop device (with -L, root: a loop device over a
#                           file in DIR; fio and fsgauge read the device)
#   io_uring-direct-qd32    io_uring, the same direct reads of the loop device
#                           (with -L): on tmpfs, buffered io_uring reads go
#                           through the kernel's io-wq threads in both tools
#                           and the figures follow their scheduling
#   psync-write-128k        psync, 128 KiB sequential writes, refill_buffers
#                           (fsgauge makes new data for every write; fio
#                           only with refill_buffers)
# DIR (default $TMPDIR or /tmp) decides what is measured: on tmpfs the
# reads are memory copies and the figures are each tool's cost per I/O.
# A round runs every case with fio then fsgauge; the next round in the
# other order, so that neither always goes first.  -c CPU pins both to one
# CPU (a VM's vCPUs may differ in speed).  The ratio printed is the median
# over rounds of fsgauge/fio taken between neighbouring runs.
# Targets (issue 19): psync >= 1.05, io_uring and libaio >= 1.00.
set -eu
FSGAUGE=${FSGAUGE:-$(dirname "$0")/../fsgauge}
FIO=${FIO:-$(command -v fio || echo /usr/bin/fio)}
dir=${TMPDIR:-/tmp}
rounds=3
secs=5
cpu=
useloop=0
while [ $# -gt 0 ]; do
	case $1 in
	-d) dir=$2; shift 2 ;;
	-k) rounds=$2; shift 2 ;;
	-t) secs=$2; shift 2 ;;
	-c) cpu=$2; shift 2 ;;
	-L) useloop=1; shift ;;
	*) echo "usage: $0 [-d DIR] [-k ROUNDS] [-t SECONDS] [-c CPU] [-L]" >&2; exit 2 ;;
	esac
done
[ -x "$FIO" ] || { echo "fio not found (apt-get install fio)" >&2; exit 2; }
[ -x "$FSGAUGE" ] || { echo "fsgauge not built: run make" >&2; exit 2; }
out=$(mktemp -d "$dir/io-vs-fio.XXXXXX")
ldev= limg=
cleanup() {
	[ -z "$ldev" ] || losetup -d "$ldev" 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
pin=
[ -z "$cpu" ] || pin="taskset -c $cpu"

cases="psync-randread-qd1 io_uring-randread-qd32 psync-write-128k"
if [ "$useloop" = 1 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "-L needs root (losetup)" >&2
		exit 2
	fi
	limg=$out/loop.img
	truncate -s 256M "$limg"
	dd if=/dev/urandom of="$limg" bs=1M count=256 conv=notrunc status=none
	ldev=$(losetup --find --show "$limg")
	cases="$cases libaio-randread-qd32 io_uring-direct-qd32"
fi

# opts CASE: the fio options of a case (for both tools)
opts() {
	common="--runtime=$secs --time_based --randrepeat=1 --output-format=json"
	case $1 in
	psync-randread-qd1) echo "--name=c --rw=randread --bs=4k --size=256m --ioengine=psync $common" ;;
	io_uring-randread-qd32) echo "--name=c --rw=randread --bs=4k --size=256m --ioengine=io_uring --iodepth=32 $common" ;;
	libaio-randread-qd32) echo "--name=c --rw=randread --bs=4k --ioengine=libaio --iodepth=32 --direct=1 --filename=$ldev $common" ;;
	io_uring-direct-qd32) echo "--name=c --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --direct=1 --filename=$ldev $common" ;;
	psync-write-128k) echo "--name=c --rw=write --bs=128k --size=256m --ioengine=psync --refill_buffers $common" ;;
	esac
}

# one TOOL CASE ROUND: run it, keep its JSON as $out/TOOL.CASE.ROUND.json
one() {
	f=$out/$1.$2.$3.json
	mkdir -p "$out/$1.d"
	# shellcheck disable=SC2046
	case $1 in
	fio)
		case $2 in
		libaio* | *direct*) $pin "$FIO" $(opts "$2") --readonly >"$f" ;;
		*) (cd "$out/fio.d" && $pin "$FIO" $(opts "$2") --directory="$out/fio.d" >"$f") ;;
		esac
		rm -f "$out/fio.d"/* ;;
	fsgauge)
		case $2 in
		libaio* | *direct*) $pin "$FSGAUGE" io $(opts "$2") -q >"$f" ;;
		*) $pin "$FSGAUGE" io $(opts "$2") -d "$out/fsgauge.d" -q >"$f" ;;
		esac ;;
	esac
}

r=1
while [ "$r" -le "$rounds" ]; do
	for c in $cases; do
		if [ $((r % 2)) = 1 ]; then
			one fio "$c" "$r"
			one fsgauge "$c" "$r"
		else
			one fsgauge "$c" "$r"
			one fio "$c" "$r"
		fi
	done
	r=$((r + 1))
done

python3 - "$out" "$rounds" $cases <<'PY'
import json, statistics, sys
out, rounds, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def figures(path):
    d = json.load(open(path))
    j = d["jobs"][0]
    iops = j["read"]["iops"] + j["write"]["iops"]
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    secs = j["job_runtime"] / 1000.0
    cpu_us = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * secs * 1e6 / ios if ios else float("nan")
    return iops, cpu_us

print("%-24s %12s %12s %10s %10s %8s %s" % ("case", "fio IOPS", "fsgauge IOPS", "fio us/IO",
                                             "fsg us/IO", "ratio", "(range)"))
for c in cases:
    fio = [figures("%s/fio.%s.%d.json" % (out, c, r)) for r in range(1, rounds + 1)]
    fsg = [figures("%s/fsgauge.%s.%d.json" % (out, c, r)) for r in range(1, rounds + 1)]
    ratios = [b[0] / a[0] for a, b in zip(fio, fsg)]
    print("%-24s %12.0f %12.0f %10.2f %10.2f %8.3f (%.3f-%.3f)" % (
        c, statistics.median(x[0] for x in fio), statistics.median(x[0] for x in fsg),
        statistics.median(x[1] for x in fio), statistics.median(x[1] for x in fsg),
        statistics.median(ratios), min(ratios), max(ratios)))
PY
