#!/bin/sh
# iobytes= on read and write flowops (issue 19, fio's io_size per job):
# a thread is done once it has issued N bytes through the flowop (the
# last request whole), the others go on; the phase ends when every
# thread is done, or at its time.  On the null engine and, at iodepth=8,
# on io_uring and libaio (requests in flight count when issued, and all
# complete).  Bad values are parse errors (exit 2).
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
d="$T/target"
mkdir "$d"

# ops "NAME=OPS/BYTES ..." of the phase's operations, and why it ended
OPS='d["phases"][0]["end_reason"] + " " + " ".join("%s=%d/%d" % (o["name"], o["ops"], o["bytes_read"] + o["bytes_written"]) for o in d["phases"][0]["operations"])'

# wfile ATTRS: 2 processes x 2 threads, each writing 400 KiB in 4 KiB
# random requests (ATTRS: more attributes), in a run of up to 30 s
wfile() {
	cat > "$T/w.f" <<WML
define file name=big,path=\$dir,size=1m,prealloc
define process name=p,instances=2 {
  thread name=t,instances=2,memsize=1m {
    flowop write name=w,filename=big,iosize=4k,random,iobytes=400k$1
  }
}
run 30
WML
}
wfile ""
run "$FSGAUGE" run "$T/w.f" -d "$d" -q --engine null --json "$T/j.json"
check "null engine: runs, exit 0" [ "$rc" -eq 0 ]
check "  4 threads x 100 writes of 4 KiB, the phase ended when all were done" \
	[ "$(json "$T/j.json" "$OPS")" = "threads done w=400/1638400" ]

for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP $eng: not built in"
		continue
		;;
	esac
	wfile ",iodepth=8"
	run "$FSGAUGE" run "$T/w.f" -d "$d" -q --engine "$eng" --json "$T/j.json"
	check "$eng, iodepth=8: runs, exit 0" [ "$rc" -eq 0 ]
	check "  every thread's 100 requests issued and completed, no more" \
		[ "$(json "$T/j.json" "$OPS")" = "threads done w=400/1638400" ]
	check "  8 in flight" [ "$(json "$T/j.json" 'd["phases"][0]["operations"][0]["iodepth"]["max"]')" = 8 ]
done
check "nothing left in the target" empty_dir "$d"

# a budget that is not a whole number of requests: the last is whole
cat > "$T/r.f" <<'WML'
define file name=big,path=$dir,size=1m,prealloc
define process name=p {
  thread name=t,memsize=1m {
    flowop read name=r,filename=big,iosize=4k,iobytes=10k
  }
}
run 30
WML
run "$FSGAUGE" run "$T/r.f" -d "$d" -q --engine null --json "$T/j.json"
check "iobytes=10k in 4 KiB reads: 3 reads, 12 KiB" \
	[ "$(json "$T/j.json" "$OPS")" = "threads done r=3/12288" ]

# a thread that is done does not end the others: the phase runs its time
cat > "$T/t.f" <<'WML'
define file name=big,path=$dir,size=1m,prealloc
define process name=a {
  thread name=t,memsize=1m {
    flowop read name=ra,filename=big,iosize=4k,iobytes=40k
  }
}
define process name=b {
  thread name=t,memsize=1m {
    flowop read name=rb,filename=big,iosize=4k
    flowop delay name=pause,value=0.01
  }
}
run 1
WML
run "$FSGAUGE" run "$T/t.f" -d "$d" -q --engine null --json "$T/j.json"
check "one thread with iobytes=40k among others: exit 0" [ "$rc" -eq 0 ]
check "  its 10 reads; the other thread goes on until the phase's time" \
	[ "$(json "$T/j.json" 'd["phases"][0]["end_reason"] + " " + str([(o["name"], o["ops"] if o["name"] == "ra" else o["ops"] > 10) for o in d["phases"][0]["operations"]])')" = "duration [('ra', 10), ('rb', True), ('pause', True)]" ]
check "nothing left in the target" empty_dir "$d"

wfile ""
sed 's/iobytes=400k/iobytes=0/' "$T/w.f" > "$T/z.f"
expect_fail "iobytes=0: exit 2, its place and range" 2 \
	"z.f:4:[0-9]+: flowop 'w': iobytes 0 is out of range \(at least 1\)" \
	"$FSGAUGE" run "$T/z.f" -d "$d" -q --engine null
sed 's/flowop write name=w,/flowop appendfile name=w,/' "$T/w.f" > "$T/a.f"
expect_fail "iobytes on appendfile: exit 2" 2 \
	"flowop 'w': iobytes is for read, write and rwmix flowops only" \
	"$FSGAUGE" run "$T/a.f" -d "$d" -q --engine null
check "nothing left in the target" empty_dir "$d"
finish
