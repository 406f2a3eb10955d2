#!/bin/sh
# The runner features added for iozone, from WML: osync, reverse, stride,
# bufsize (stdio-like buffer), stonewall / threaddone, writewholefile
# resume, createfile on a single file; and the per-phase open flags and
# request counts in the JSON.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

cat >"$T/p.f" <<'WML'
define file name=a,path=$dir,size=1m,prealloc
define file name=b,path=$dir,size=1m,prealloc
define file name=c,path=$dir,size=256k
define process name=p,instances=1 {
  thread name=one,memsize=1m,instances=1 {
    flowop openfile name=one.open,filename=a,fd=1,osync
    flowop read name=one.rev,filename=a,fd=1,iosize=64k,iters=16,reverse
    flowop read name=one.stride,filename=a,fd=1,iosize=64k,iters=16,stride=3
    flowop write name=one.buf,filename=a,fd=1,iosize=16k,iters=64,bufsize=256k
    flowop closefile name=one.close,fd=1
    flowop createfile name=one.create,filename=c,fd=2
    flowop write name=one.half,filename=c,fd=2,iosize=64k,iters=2
    flowop writewholefile name=one.fill,filename=c,fd=2,iosize=64k,resume
    flowop closefile name=one.close2,fd=2
    flowop stonewall name=sw
    flowop threaddone name=done
  }
  thread name=two,memsize=1m,instances=1 {
    flowop openfile name=two.open,filename=b,fd=1
    flowop read name=two.read,filename=b,fd=1,iosize=4k,iters=100000000,stonewall
    flowop threaddone name=done
  }
}
run 60
WML
run "$FSGAUGE" run "$T/p.f" -d "$d" --json "$T/p.json" -q
check "pattern workload: exit 0" [ "$rc" -eq 0 ]
# one python for every figure (python starts slowly on a busy machine)
python3 - "$T/p.json" >"$T/v" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
o = {x["name"]: x for x in p["operations"]}
print(p["seconds"] < 30)
print(o["one.rev"]["bytes_read"], o["one.stride"]["bytes_read"])
print(o["one.buf"]["ops"], o["one.buf"]["bytes_written"])
print(p["io_requests"]["write"])
print(o["one.half"]["bytes_written"], o["one.fill"]["bytes_written"])
print(o["sw"]["ops"], o["two.read"]["ops"] < 100000000, o["done"]["ops"])
print(all(f in p["open_flags"] for f in ("O_SYNC", "O_CREAT", "O_RDWR")))
PY
line() { sed -n "${1}p" "$T/v"; }
check "the phase ended when both threads were done, long before 60 s" [ "$(line 1)" = True ]
check "reverse and stride read the whole file" [ "$(line 2)" = "1048576 1048576" ]
check "bufsize: 64 writes of 16k, 1 MiB" [ "$(line 3)" = "64 1048576" ]
check "bufsize: the engine saw 4 writes of 256k (plus 2 + the fill's 2)" [ "$(line 4)" = 8 ]
check "createfile on a single file, then resume completes it to its size" [ "$(line 5)" = "131072 131072" ]
check "stonewall raised once, ended the other thread's loop; threaddone in both" [ "$(line 6)" = "1 True 2" ]
check "open flags: osync and the create recorded" [ "$(line 7)" = True ]
check "nothing left behind" empty_dir "$d"

finish
