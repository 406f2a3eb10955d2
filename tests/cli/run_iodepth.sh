#!/bin/sh
# iodepth= on read and write flowops (issue 19): on the asynchronous
# engines (io_uring, libaio) a flowop keeps up to N requests in flight
# (the JSON's iodepth.max reaches N, every submission completes and
# counts its bytes); on psync it runs at depth 1 with a note; an
# injected write error among requests in flight stops the run cleanly;
# --verify with it is refused; iodepth=0 and iodepth=x are parse errors.
# iodepth_batch=B pushes requests B at a time: the JSON's
# iodepth.submit_calls is about ops/B (ops with B=1); its bad values are
# parse errors.
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
d="$T/target"
mkdir "$d"

# workload DEPTH [SEQ]: 4 KiB random reads and writes of a preallocated
# 16 MiB file at iodepth=DEPTH (and sequential reads when SEQ is given)
workload() {
	seq=""
	[ -n "$2" ] && seq="flowop read name=sr,filename=big,iosize=4k,iodepth=$1"
	cat > "$T/d.f" <<WML
define file name=big,path=\$dir,size=16m,prealloc
define process name=p {
  thread name=t,memsize=1m {
    flowop read name=rr,filename=big,iosize=4k,random,iodepth=$1
    flowop write name=rw,filename=big,iosize=4k,random,iodepth=$1
    $seq
  }
}
run 1
WML
}

# the operation checks: "NAME max=M ok" when its submissions, completed
# operations and bytes agree (4 KiB each, no errors)
OPS='" ".join("%s max=%d %s" % (o["name"], o["iodepth"]["max"], "ok" if o["ops"] > 0 and o["errors"] == 0 and sum(o["iodepth"]["submissions"].values()) == o["ops"] and o["bytes_read"] + o["bytes_written"] == 4096 * o["ops"] else "bad") for o in d["phases"][0]["operations"])'

no_note() { ! grep -q "runs at depth 1" "$T/err"; }

workload 32 seq
for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP $eng: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" run "$T/d.f" -d "$d" -q --seed 3 --json "$T/j.json" --engine "$eng"
	check "$eng, iodepth=32: runs, exit 0" [ "$rc" -eq 0 ]
	check "  32 in flight; every submission completed, ops match the bytes" \
		[ "$(json "$T/j.json" "$OPS")" = "rr max=32 ok rw max=32 ok sr max=32 ok" ]
	check "  no note about depth" no_note
done
check "nothing left in the target" empty_dir "$d"

# batch DEPTH BATCH: 4 KiB random reads at iodepth=DEPTH, iodepth_batch=BATCH
# (reads from the page cache: each batch completes whole, so the
# refills come in whole batches), and random writes at batch 1
batch() {
	cat > "$T/b.f" <<WML
define file name=big,path=\$dir,size=16m,prealloc
define process name=p {
  thread name=t,memsize=1m {
    flowop read name=rr,filename=big,iosize=4k,random,iodepth=$1,iodepth_batch=$2
    flowop write name=rw,filename=big,iosize=4k,random,iodepth=$1,iodepth_batch=1
  }
}
run 1
WML
}
# "ok" when rr's submission calls are at most ops/8 + 64 (and not fewer
# than ops/8) and rw's are its ops
CALLS='"ok" if [(o["errors"], sum(o["iodepth"]["submissions"].values()) == o["ops"], o["bytes_read"] + o["bytes_written"] == 4096 * o["ops"]) for o in d["phases"][0]["operations"]] == [(0, True, True)] * 2 and d["phases"][0]["operations"][0]["ops"] // 8 <= d["phases"][0]["operations"][0]["iodepth"]["submit_calls"] <= d["phases"][0]["operations"][0]["ops"] // 8 + 64 and d["phases"][0]["operations"][1]["iodepth"]["submit_calls"] == d["phases"][0]["operations"][1]["ops"] else d["phases"][0]["operations"]'

batch 32 8
for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP $eng iodepth_batch: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" run "$T/b.f" -d "$d" -q --seed 3 --json "$T/j.json" --engine "$eng"
	check "$eng, iodepth=32 iodepth_batch=8: runs, exit 0" [ "$rc" -eq 0 ]
	check "  submit_calls about ops/8 (batch 1: ops); every submission completed" \
		[ "$(json "$T/j.json" "$CALLS")" = ok ]
	check "  nothing left behind" empty_dir "$d"
done

workload 32
run "$FSGAUGE" run "$T/d.f" -d "$d" --seed 3 --json "$T/j.json" --engine psync
check "psync, iodepth=32: runs, exit 0" [ "$rc" -eq 0 ]
check "  a note per flowop: it runs at depth 1" \
	[ "$(grep -c "engine psync is synchronous: iodepth=32 runs at depth 1" "$T/err")" -eq 2 ]
check "  max in flight 1, ops match the bytes" \
	[ "$(json "$T/j.json" "$OPS")" = "rr max=1 ok rw max=1 ok" ]

workload 1
run "$FSGAUGE" run "$T/d.f" -d "$d" -q --seed 3 --json "$T/j.json" --engine psync
check "iodepth=1: no depth record in the JSON" \
	[ "$(json "$T/j.json" '[("iodepth" in o) for o in d["phases"][0]["operations"]]')" = "[False, False]" ]

if case " $engines " in *" io_uring "*) true ;; *) false ;; esac; then
	cat > "$T/e.f" <<'WML'
define file name=big,path=$dir,size=1m,prealloc
define process name=p {
  thread name=t {
    flowop write name=rw,filename=big,iosize=4k,random,iodepth=16
  }
}
run 5
WML
	# the preallocation writes the 1 MiB file in one write: the 11th is the
	# flowop's 10th
	run "$FSGAUGE" run "$T/e.f" -d "$d" -q --json "$T/j.json" \
		--engine faulty:io_uring:op=write,nth=11,err=EIO
	check "faulty:io_uring, EIO at the 10th write at iodepth=16: exit 1" [ "$rc" -eq 1 ]
	check "  the error reported with the file" grep -Eq "write '[^']*big'.*Input/output error" "$T/err"
	check "  one error counted, stopped on it, the others completed" \
		[ "$(json "$T/j.json" '"%d %s %d" % (d["phases"][0]["operations"][0]["errors"], d["status"]["stopped_on_error"], d["phases"][0]["operations"][0]["ops"] >= 10)')" = "1 True 1" ]
	check "  nothing left behind" empty_dir "$d"

	# io_uring clamps its ring to the kernel's limit (32768 entries): the
	# flowop keeps as many in flight as the ring takes
	sed 's/iodepth=16/iodepth=65536/; s/iosize=4k/iosize=512/; s/run 5/run 1/' "$T/e.f" > "$T/c.f"
	run "$FSGAUGE" run "$T/c.f" -d "$d" -q --json "$T/j.json" --engine io_uring
	check "io_uring, iodepth=65536: runs, exit 0" [ "$rc" -eq 0 ]
	check "  as many in flight as the ring takes, all completed" \
		[ "$(json "$T/j.json" '"ok" if [(o["errors"], sum(o["iodepth"]["submissions"].values()) == o["ops"], 32 <= o["iodepth"]["max"] <= 65536) for o in d["phases"][0]["operations"]] == [(0, True, True)] else "bad"')" = ok ]
	check "  nothing left behind" empty_dir "$d"
	sed 's/iodepth=65536/iodepth=65536,iodepth_batch=1000/' "$T/c.f" > "$T/cb.f"
	run "$FSGAUGE" run "$T/cb.f" -d "$d" -q --json "$T/j.json" --engine io_uring
	check "io_uring, iodepth=65536 iodepth_batch=1000: runs, exit 0" [ "$rc" -eq 0 ]
	check "  all completed, fewer submission calls than requests" \
		[ "$(json "$T/j.json" '"ok" if [(o["errors"], sum(o["iodepth"]["submissions"].values()) == o["ops"], 0 < o["iodepth"]["submit_calls"] < o["ops"]) for o in d["phases"][0]["operations"]] == [(0, True, True)] else "bad"')" = ok ]
	check "  nothing left behind" empty_dir "$d"

	workload 32
	expect_fail "--verify with iodepth=32 on io_uring: refused, exit 2" 2 \
		"flowop 'rr' \(line 4\): --verify does not work with iodepth= above 1" \
		"$FSGAUGE" run "$T/d.f" -d "$d" -q --verify --engine io_uring
	check "  nothing left behind" empty_dir "$d"
else
	ok "# SKIP faulty:io_uring and --verify: io_uring not built in"
fi

for bad in 0 x 65537; do
	workload "$bad"
	case $bad in
	x) want="d.f:4:.*iodepth 'x' is not a number" ;;
	*) want="d.f:4:.*flowop 'rr': iodepth $bad is out of range \(1 to 65536" ;;
	esac
	expect_fail "iodepth=$bad: a parse error with its place, exit 2" 2 "$want" \
		"$FSGAUGE" run "$T/d.f" -d "$d" -q
done
for bad in "0:2" "9:8" "x:8" "2:"; do
	batch "${bad#*:}" "${bad%%:*}"
	case $bad in
	x:*) want="b.f:4:.*iodepth_batch 'x' is not a number" ;;
	*:) want="b.f:4:.*flowop 'rr': iodepth_batch needs iodepth" ;;
	*) want="b.f:4:.*flowop 'rr': iodepth_batch ${bad%%:*} is out of range \(1 to iodepth, ${bad#*:}\)" ;;
	esac
	[ "$bad" = "2:" ] && sed -i 's/iodepth=,//' "$T/b.f"
	expect_fail "iodepth_batch=${bad%%:*} at iodepth=${bad#*:}: a parse error with its place, exit 2" 2 \
		"$want" "$FSGAUGE" run "$T/b.f" -d "$d" -q
done

workload 1
sed 's/flowop write name=rw,filename=big,iosize=4k,random,iodepth=1/flowop fsync name=rw,filename=big,iodepth=4/' \
	"$T/d.f" > "$T/s.f"
expect_fail "iodepth on fsync: refused, exit 2" 2 "iodepth is for read, write and rwmix flowops only" \
	"$FSGAUGE" run "$T/s.f" -d "$d" -q
check "nothing left in the target" empty_dir "$d"

finish
