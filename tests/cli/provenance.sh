#!/bin/sh
# Every result says how it was made: `command_line` (argv exactly as
# given) and `workload_hash` (the resolved workload text for run, the
# parameters for the suites built from options), so that two results of
# "the same" workload that differ are told apart; compare warns about
# results of one workload name whose hashes differ, and results without a
# hash (older files) compare as before.
. "$(dirname "$0")/lib.sh"

F=$(cd "$(dirname "$0")/../fixtures" && pwd)
mkdir "$T/a" "$T/b"
cat >"$T/w.f" <<'WL'
set $dir=/tmp
set $iosize=4k
define file name=f1,path=$dir,size=64k,prealloc
define process name=p,instances=1
{
  thread name=t,instances=1
  {
    flowop read name=rd,filename=f1,iosize=$iosize
  }
}
WL
sed 's/iosize=\$iosize/iosize=8k/' "$T/w.f" >"$T/w2.f"
R="$FSGAUGE run -q --engine null -t 0.2"

# --- command_line ---------------------------------------------------------
run $R -d "$T/a" --label "one two" --json "$T/r1.json" "$T/w.f"
check "run exits 0" [ "$rc" -eq 0 ]
check "command_line is argv as given" python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); sys.exit(d["command_line"] != sys.argv[2:])' "$T/r1.json" \
	$R -d "$T/a" --label "one two" --json "$T/r1.json" "$T/w.f"
check "workload_hash is 32 hex digits" python3 -c 'import json,sys,re
sys.exit(not re.fullmatch("[0-9a-f]{32}", json.load(open(sys.argv[1]))["workload_hash"]))' "$T/r1.json"
bad=$(printf 'r\377.json')
run $R --json "$T/$bad" "$T/w.f"
check "a non-UTF-8 argument is kept, its bytes as \\xNN" [ "$(json "$T/$bad" 'd["command_line"][-2]')" = "$T/r\\xff.json" ]

# --- workload_hash of run -------------------------------------------------
run $R -d "$T/b" --seed 7 --json "$T/r2.json" "$T/w.f"
h1=$(json "$T/r1.json" 'd["workload_hash"]')
check "same workload on another target, other seed and options: same hash" \
	[ "$(json "$T/r2.json" 'd["workload_hash"]')" = "$h1" ]
run $R -s iosize=8k --json "$T/r3.json" "$T/w.f"
check "a -s change: another hash" [ "$(json "$T/r3.json" 'd["workload_hash"]')" != "$h1" ]
run $R --json "$T/r4.json" "$T/w2.f"
check "an edited flowop: another hash" [ "$(json "$T/r4.json" 'd["workload_hash"]')" != "$h1" ]
run $R --json "$T/r0.json" "$T/w.f"
run $R --label L --json "$T/p1.json" "$T/w.f"
cp "$T/w2.f" "$T/w.f"
run $R --json "$T/r5.json" "$T/w.f"
check "the same file name, edited: same parameters" \
	[ "$(json "$T/r5.json" 'd["parameters"]')" = "$(json "$T/r0.json" 'd["parameters"]')" ]

# --- compare ----------------------------------------------------------------
run "$FSGAUGE" compare "$T/r0.json" "$T/r5.json"
check "compare of an edited workload: refused (exit 2)" [ "$rc" -eq 2 ]
check "  the edited line, both ways" [ "$(grep -c '^  [-+] .*flowop read' "$T/err")" = 2 ]
run "$FSGAUGE" compare --force "$T/r0.json" "$T/r5.json"
check "compare --force of an edited workload: exits 0" [ "$rc" -eq 0 ]
check "compare --force of an edited workload: warns, with the lines that differ" grep -q \
	"^warning: '$T/r5.json' and the baseline '$T/r0.json' both ran run 'w', but their workloads differ beyond the parameters" "$T/out"
check "  the edited line, both ways" [ "$(grep -c '^  [-+] .*flowop read' "$T/out")" = 2 ]
run "$FSGAUGE" compare --force --json - "$T/r0.json" "$T/r5.json"
check "compare --json: the warning is in warnings" [ "$(json "$T/out" 'len([w for w in d["warnings"] if "workloads differ beyond the parameters" in w])')" -eq 1 ]
run "$FSGAUGE" compare "$T/r1.json" "$T/r2.json"
check "compare of the same workload: no workload warning" sh -c '! grep -q "not the same workload" "$1"' _ "$T/out"
run "$FSGAUGE" compare "$F/ext4.json" "$F/xfs.json"
check "fixtures without workload_hash: compare exits 0" [ "$rc" -eq 0 ]
check "fixtures without workload_hash: no workload warning" sh -c '! grep -q "not the same workload" "$1"' _ "$T/out"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["workload_hash"]="00"; json.dump(d,open(sys.argv[2],"w"))' "$F/xfs.json" "$T/xfs-hash.json"
run "$FSGAUGE" compare "$F/ext4.json" "$T/xfs-hash.json"
check "one result without a hash: no workload warning" sh -c '! grep -q "not the same workload" "$1"' _ "$T/out"
run $R --label L --json "$T/p2.json" "$T/w.f"
run "$FSGAUGE" compare "$T/p1.json" "$T/p2.json" "$T/r0.json"
check "pooling results of different workloads: warns" grep -q \
	"results labelled 'L' ran different workloads: '$T/p1.json' has workload_hash" "$T/err"

# --- the suites built from options ----------------------------------------
U="$FSGAUGE untar --engine null --synthetic tiny --copies 1 -q"
run $U -d "$T/a" --json "$T/u1.json"
check "untar exits 0" [ "$rc" -eq 0 ]
check "untar: command_line is argv as given" python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); sys.exit(d["command_line"] != sys.argv[2:])' "$T/u1.json" \
	$U -d "$T/a" --json "$T/u1.json"
run $U -d "$T/b" --label other --json "$T/u2.json"
check "untar: another target and label, same hash" \
	[ "$(json "$T/u1.json" 'd["workload_hash"]')" = "$(json "$T/u2.json" 'd["workload_hash"]')" ]
run $U --fsync file --json "$T/u3.json"
check "untar: another parameter, another hash" \
	[ "$(json "$T/u1.json" 'd["workload_hash"]')" != "$(json "$T/u3.json" 'd["workload_hash"]')" ]

finish
