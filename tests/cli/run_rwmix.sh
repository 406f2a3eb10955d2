#!/bin/sh
# The rwmix flowop (issue 19, fio's rw=randrw/rw with rwmixread): each
# operation a read with probability readpct percent, counted as two
# operations NAME.read and NAME.write.  Over 10,000 operations on the
# null engine the read share is within 3 points of readpct (70, 0,
# 100); at iodepth=16 on io_uring and libaio every request completes and
# counts in its row; sequential reads and writes share one offset that
# wraps at the file's end (the file keeps its size); --verify checks its
# reads; bad readpct values are parse errors (exit 2).
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
d="$T/target"
mkdir "$d"

# mix ATTRS: one thread, rwmix of 4 KiB requests on a 1 MiB file with
# 10,000 requests' worth of iobytes (ATTRS: more attributes)
mix() {
	cat > "$T/m.f" <<WML
define file name=big,path=\$dir,size=1m,prealloc
define process name=p {
  thread name=t,memsize=1m {
    flowop rwmix name=mx,filename=big,iosize=4k,iobytes=40000k$1
  }
}
run 60
WML
}

# "NAME:TYPE:OPS:BYTES_READ:BYTES_WRITTEN:ERRORS ..." of the operations
ROWS='" ".join("%s:%s:%d:%d:%d:%d" % (o["name"], o["type"], o["ops"], o["bytes_read"], o["bytes_written"], o["errors"]) for o in d["phases"][0]["operations"])'
# the read share (percent) of the two rows' operations, and their sum
SHARE='"%.2f %d" % (100.0 * d["phases"][0]["operations"][0]["ops"] / (d["phases"][0]["operations"][0]["ops"] + d["phases"][0]["operations"][1]["ops"]), d["phases"][0]["operations"][0]["ops"] + d["phases"][0]["operations"][1]["ops"])'

within() { # within SHARE_AND_SUM P: |share - P| <= 3 and the sum is 10000
	python3 -c 'import sys; s, n = sys.argv[1].split(); sys.exit(not (abs(float(s) - float(sys.argv[2])) <= 3 and n == "10000"))' "$1" "$2"
}

for p in 70 0 100 30; do
	mix ",random,readpct=$p"
	run "$FSGAUGE" run "$T/m.f" -d "$d" -q --engine null --seed 7 --json "$T/j.json"
	check "readpct=$p, null engine: exit 0" [ "$rc" -eq 0 ]
	share=$(json "$T/j.json" "$SHARE")
	check "  10,000 operations, $share% reads: within 3 of $p" within "$share" "$p"
	check "  two rows, mx.read (type read) and mx.write (type write), 4 KiB each, no errors" \
		[ "$(json "$T/j.json" '[(o["name"], o["type"], o["errors"], o["bytes_read"] + o["bytes_written"] == 4096 * o["ops"]) for o in d["phases"][0]["operations"]]')" = "[('mx.read', 'read', 0, True), ('mx.write', 'write', 0, True)]" ]
done
case $(json "$T/j.json" 'd["phases"][0]["operations"][1]["bytes_read"]') in
0) ok "the write row reads nothing" ;;
*) not_ok "the write row reads nothing" ;;
esac
run "$FSGAUGE" run "$T/m.f" -d "$d" -q --engine null --seed 7
check "text output: both rows" sh -c "grep -q '^mx.read ' '$T/out' && grep -q '^mx.write ' '$T/out'"

mix ",random,readpct=70,iodepth=16"
for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP $eng: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" run "$T/m.f" -d "$d" -q --engine "$eng" --seed 7 --json "$T/j.json"
	check "$eng, iodepth=16: exit 0" [ "$rc" -eq 0 ]
	share=$(json "$T/j.json" "$SHARE")
	check "  10,000 requests, $share% reads: within 3 of 70" within "$share" 70
	check "  every submission completed in its row; 16 in flight" \
		[ "$(json "$T/j.json" '[(o["errors"], sum(o["iodepth"]["submissions"].values()) == o["ops"], o["bytes_read"] + o["bytes_written"] == 4096 * o["ops"], o["iodepth"]["max"]) for o in d["phases"][0]["operations"]]')" = "[(0, True, True, 16), (0, True, True, 16)]" ]
done
check "nothing left in the target" empty_dir "$d"

# sequential: 3 MiB of requests over a 1 MiB file wrap at its end,
# writes included (the file keeps its size)
mix ",readpct=50"
sed 's/iobytes=40000k/iobytes=3m/' "$T/m.f" > "$T/s.f"
mkdir "$T/keep"
run "$FSGAUGE" run "$T/s.f" -d "$T/keep" -q --keep --json "$T/j.json"
check "sequential rwmix, --keep: exit 0" [ "$rc" -eq 0 ]
check "  768 requests in all" [ "$(json "$T/j.json" 'sum(o["ops"] for o in d["phases"][0]["operations"])')" = 768 ]
kept=$(ls -d "$T/keep"/fsgauge-* 2>/dev/null)
check "  the file is still 1 MiB" [ "$(stat -c %s "$kept/big")" = 1048576 ]

run "$FSGAUGE" run "$T/s.f" -d "$d" -q --verify --json "$T/j.json"
[ "$rc" -eq 0 ] && [ "$(json "$T/j.json" 'd.get("verify_errors", 0)')" = 0 ]
checked "--verify: exit 0, reads checked, no verify errors"

mix ",readpct=101"
expect_fail "readpct=101: exit 2, its place and range" 2 \
	"m.f:4:[0-9]+: flowop 'mx': readpct 101 is out of range \(0 to 100 percent\)" \
	"$FSGAUGE" run "$T/m.f" -d "$d" -q --engine null
mix ",readpct=\$p"
expect_fail "readpct=\$p with -s p=-1: exit 2" 2 "flowop 'mx': readpct -1 is out of range" \
	"$FSGAUGE" run "$T/m.f" -d "$d" -q --engine null -s p=-1
sed 's/flowop rwmix name=mx,/flowop read name=mx,/' "$T/s.f" > "$T/r.f"
expect_fail "readpct on read: exit 2" 2 "flowop 'mx': readpct is for rwmix flowops only" \
	"$FSGAUGE" run "$T/r.f" -d "$d" -q --engine null
check "nothing left in the target" empty_dir "$d"
finish
