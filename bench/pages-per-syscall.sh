#!/bin/sh
# How many distinct pages of code and of data fsgauge's worker touches
# between two of its system calls, on create + close + unlink of empty
# files (bench/overhead.sh's second test).  Where the kernel flushes the
# TLB at every system call (page-table isolation without PCID), each of
# these pages costs a page walk after every call (docs/engine.md).
#
# Counted under valgrind's lackey, which prints every instruction's and
# every memory access's address: a segment ends at each system call
# instruction of the worker's loop (worker_run's inline `syscall`s, found
# with objdump), and the pages of each thread's segments are counted apart
# (valgrind's scheduler lines say which thread runs).  Under valgrind the
# clock is libc's clock_gettime (a PLT page, libc's code and data) and
# operations are slow enough that CPU samples come often: those pages
# count here and not in a native run; compare builds with each other, not
# with the bare loop.
#
#   sh bench/pages-per-syscall.sh [SECONDS] [DIR]     (needs valgrind, objdump)
set -eu
secs=${1:-6}
dir=${2:-${TMPDIR:-/tmp}}
top=$(cd "$(dirname "$0")/.." && pwd)
fsg=${FSGAUGE:-$top/fsgauge}
for t in valgrind objdump python3; do
	command -v "$t" > /dev/null 2>&1 || { echo "pages-per-syscall.sh: needs $t" >&2; exit 2; }
done
work=$(mktemp -d "$dir/fsgauge-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the worker loop's system call instructions, at valgrind's load address
# of a position-independent executable (0x108000 on amd64)
objdump -d --no-show-raw-insn "$fsg" |
	awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /\tsyscall/ && fn == "<worker_run>:" { sub(":", "", $1); print $1 }' \
	> "$work/sites"
[ -s "$work/sites" ] || { echo "pages-per-syscall.sh: no system call in worker_run (inlined elsewhere?)" >&2; exit 1; }

valgrind --tool=lackey --trace-mem=yes --trace-sched=yes --log-fd=3 \
	"$fsg" run "$top/bench/create-close-unlink.f" -d "$work" -t "$secs" -q 3>&1 > /dev/null 2> "$work/vg.err" |
python3 -c '
import collections, re, sys
base = 0x108000
sites = set(int(l, 16) + base for l in open(sys.argv[1]) if l.strip())
warm = 300                    # segments left out: the loop settling
sched = re.compile(r"SCHED\[(\d+)\]: acquired")
tid = 1
cur = collections.defaultdict(lambda: [set(), set()])
n = seen = code = data = 0
for line in sys.stdin:
    if line[0] in "-=":
        m = sched.search(line)
        if m:
            tid = int(m.group(1))
        continue
    kind = line[:2].strip()
    try:
        a = int(line[3:].split(",")[0], 16)
    except ValueError:
        continue
    seg = cur[tid]
    if kind == "I":
        seg[0].add(a >> 12)
        if a in sites:
            seen += 1
            if seen > warm:
                n += 1
                code += len(seg[0])
                data += len(seg[1])
            cur[tid] = [set(), set()]
    else:
        seg[1].add(a >> 12)
if not n:
    sys.exit("pages-per-syscall.sh: no segment counted (run longer, or valgrind loaded the program elsewhere)")
print("%d segments: %.2f pages of code and %.2f of data between two system calls" % (n, code / n, data / n))
' "$work/sites"
