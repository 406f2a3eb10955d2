#!/bin/sh
# Where random reads and writes fall (issue 19): random_distribution=,
# percentage_random= and randommap on read/write flowops.  A write
# flowop fills a new sparse 1 MiB file with 256 writes of 4 KiB; the
# file's holes (SEEK_HOLE/SEEK_DATA) show which blocks were written:
# with randommap every block exactly once (no hole left after 256 writes
# of 256 blocks), without it some block twice (a hole); zoned:100/25:0/75
# writes only the first quarter; percentage_random=0 writes in order.
# Their bad values are parse errors with their place, exit 2.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

# workload ATTRS: a new file written by 256 random writes with ATTRS
workload() {
	cat > "$T/o.f" <<WML
define fileset name=fs,path=\$dir,size=1m,entries=1,prealloc=0
define process name=p {
  thread name=t,memsize=1m {
    flowop createfile name=c,filesetname=fs,fd=1
    flowop write name=w,fd=1,iosize=4k,random,wss=1m,iters=256$1
    flowop closefile name=cl,fd=1
    flowop finishoncount name=stop,target=cl,value=1
  }
}
run 60
WML
}

# layout: "SIZE FIRST-HOLE DATA-AFTER-256K" of the file the last run
# kept (DATA-AFTER-256K: 1 when some data lies at or after 256 KiB)
layout() {
	python3 - "$d" <<'PY'
import os, sys
files = [os.path.join(r, n) for r, _, ns in os.walk(sys.argv[1]) for n in ns if n == "f0"]
fd = os.open(files[0], os.O_RDONLY)
size = os.fstat(fd).st_size
hole = os.lseek(fd, 0, os.SEEK_HOLE)
try:
    after = 1 if os.lseek(fd, 262144, os.SEEK_DATA) < size else 0
except OSError:
    after = 0
print(size, hole, after)
PY
}

# kept ATTRS: run the workload with ATTRS and --keep; $T/j.json, layout in $lay
kept() {
	rm -rf "$d"/*
	workload "$1"
	run "$FSGAUGE" run "$T/o.f" -d "$d" -q --keep --seed 5 --json "$T/j.json"
	lay=$(layout)
}
W_OPS='[o["ops"] for o in d["phases"][0]["operations"] if o["name"] == "w"][0]'

kept ""
check "random writes without randommap: runs, exit 0" [ "$rc" -eq 0 ]
check "  256 writes" [ "$(json "$T/j.json" "$W_OPS")" = 256 ]
plain=$lay
case "$plain" in
"1048576 1048576 "*)
	ok "# SKIP randommap coverage: this file system reports no holes ($plain)"
	holes=0
	;;
*)
	ok "  some block written twice, another not at all: a hole ($plain)"
	holes=1
	;;
esac

kept ",randommap"
check "randommap: runs, exit 0" [ "$rc" -eq 0 ]
check "  256 writes" [ "$(json "$T/j.json" "$W_OPS")" = 256 ]
if [ "$holes" = 1 ]; then
	check "  every one of the 256 blocks written (each once: no hole) ($lay)" \
		[ "${lay% *}" = "1048576 1048576" ]
fi

kept ",random_distribution=zoned:100/25:0/75"
check "zoned:100/25:0/75: runs, exit 0" [ "$rc" -eq 0 ]
check "  256 writes" [ "$(json "$T/j.json" "$W_OPS")" = 256 ]
if [ "$holes" = 1 ]; then
	check "  nothing written past the first quarter ($lay)" [ "${lay##* }" = 0 ]
fi

kept ",percentage_random=0"
check "percentage_random=0: runs, exit 0" [ "$rc" -eq 0 ]
if [ "$holes" = 1 ]; then
	check "  sequential: every block written in one pass ($lay)" \
		[ "${lay% *}" = "1048576 1048576" ]
fi

kept ",random_distribution=zipf:1.2,percentage_random=50"
check "zipf:1.2 with percentage_random=50: runs, exit 0" [ "$rc" -eq 0 ]
check "  256 writes" [ "$(json "$T/j.json" "$W_OPS")" = 256 ]

# offset=: the working set starts there; data (SEEK_DATA/SEEK_HOLE
# extents, "START-END ...") lands only in [offset, offset + wss), or in
# the rest of the file after offset without wss
extents() {
	python3 - "$d" <<'PY'
import os, sys
files = [os.path.join(r, n) for r, _, ns in os.walk(sys.argv[1]) for n in ns if n == "f0"]
fd = os.open(files[0], os.O_RDONLY)
size, pos, out = os.fstat(fd).st_size, 0, []
while pos < size:
    try:
        start = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:
        break
    end = os.lseek(fd, start, os.SEEK_HOLE)
    out.append("%d-%d" % (start, end))
    pos = end
print(size, " ".join(out))
PY
}
if [ "$holes" = 1 ]; then
	workload ""
	sed 's/wss=1m,iters=256/wss=256k,iters=64,offset=256k,randommap/' "$T/o.f" > "$T/of.f"
	rm -rf "$d"/*
	run "$FSGAUGE" run "$T/of.f" -d "$d" -q --keep --json "$T/j.json"
	[ "$rc" -eq 0 ] && [ "$(json "$T/j.json" "$W_OPS")" = 64 ]
	checked "offset=256k,wss=256k with randommap: exit 0, 64 writes"
	check "  the data is exactly [256 KiB, 512 KiB) ($(extents))" [ "$(extents)" = "524288 262144-524288" ]
	sed 's/,random,wss=1m,iters=256/,offset=768k,iters=128/' "$T/o.f" > "$T/of.f"
	rm -rf "$d"/*
	run "$FSGAUGE" run "$T/of.f" -d "$d" -q --keep --json "$T/j.json"
	check "sequential offset=768k without wss, 128 writes of 4 KiB: exit 0" [ "$rc" -eq 0 ]
	check "  they start at 768 KiB and go on past the end, as sequential writes without wss do ($(extents))" \
		[ "$(extents)" = "1310720 786432-1310720" ]
	sed 's/flowop write name=w,fd=1,iosize=4k,random,wss=1m,iters=256/flowop read name=w,fd=1,iosize=4k,offset=768k,iters=128/; s/prealloc=0/prealloc/; s/createfile/openfile/' "$T/o.f" > "$T/of.f"
	run "$FSGAUGE" run "$T/of.f" -d "$d" -q --json "$T/j.json"
	[ "$rc" -eq 0 ] && [ "$(json "$T/j.json" "$W_OPS")" = 128 ]
	checked "sequential reads at offset=768k of a 1 MiB file, without wss: 128 reads of 4 KiB (exit $rc)"
	check "  each a whole 4 KiB: they wrap within the last 256 KiB, never past the end" \
		[ "$(json "$T/j.json" '[o["bytes_read"] for o in d["phases"][0]["operations"] if o["name"] == "w"][0]')" = 524288 ]
else
	ok "# SKIP offset= placement: this file system reports no holes"
fi
rm -rf "$d"/*

# bad WML: ATTRS|MESSAGE (the message follows file:line:col)
while IFS='|' read -r attrs want; do
	workload ",$attrs"
	expect_fail "$attrs: a parse error with its place, exit 2" 2 "o\.f:5:[0-9]+: $want" \
		"$FSGAUGE" run "$T/o.f" -d "$d" -q
done <<'EOF_BAD'
random_distribution=zipf:-1|flowop 'w': bad random_distribution 'zipf:-1': theta must be > 0$
random_distribution=pareto:1|flowop 'w': bad random_distribution 'pareto:1': h must be between 0 and 1$
random_distribution=zoned:60/10:30/20:10/60|flowop 'w': bad random_distribution 'zoned:60/10:30/20:10/60': range percentages add up to 90, not 100$
random_distribution=bogus|flowop 'w': bad random_distribution 'bogus': unknown distribution
percentage_random=101|flowop 'w': percentage_random 101 is out of range \(0 to 100\)$
percentage_random=x|percentage_random
randommap,random_distribution=zipf:1.1|flowop 'w': randommap takes every block once per pass: it needs the uniform random_distribution$
offset=x|offset
offset=4k,bufsize=64k|flowop 'w': offset and bufsize exclude each other$
EOF_BAD

# attributes that need random, and a flowop that has no offsets
sed 's/,random,/,/' "$T/o.f" > "$T/n.f"
for attr in randommap percentage_random=10 random_distribution=zipf:1.2; do
	sed "s/iters=256,[^ ]*/iters=256,$attr/" "$T/n.f" > "$T/n2.f"
	expect_fail "$attr without random: refused, exit 2" 2 "n2\.f:5:[0-9]+: flowop 'w': ${attr%%=*} needs random$" \
		"$FSGAUGE" run "$T/n2.f" -d "$d" -q
done
workload ""
sed 's/flowop closefile name=cl,fd=1/flowop closefile name=cl,fd=1,randommap/' "$T/o.f" > "$T/n3.f"
expect_fail "randommap on closefile: refused, exit 2" 2 "flowop 'cl': randommap is for read and write flowops only$" \
	"$FSGAUGE" run "$T/n3.f" -d "$d" -q
sed 's/flowop closefile name=cl,fd=1,randommap/flowop closefile name=cl,fd=1,offset=4k/' "$T/n3.f" > "$T/n4.f"
expect_fail "offset on closefile: refused, exit 2" 2 "flowop 'cl': offset is for read and write flowops only$" \
	"$FSGAUGE" run "$T/n4.f" -d "$d" -q
check "nothing left in the target" empty_dir "$d"
finish
