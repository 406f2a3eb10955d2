#!/bin/sh
# `fsgauge run`: the filebench-style output, the JSON result and its
# invariants, the run directory's life cycle, --keep, -s warnings, the
# null engine, and SIGINT.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

run "$FSGAUGE" --version
check "--version exits 0" [ "$rc" -eq 0 ]
check "--version lists engines and features" grep -q "engines: psync" "$T/out"
# the commit named is the one built from (make regenerates it; a stale
# one would put the wrong commit into every result)
if rev=$(cd "$(dirname "$0")/../.." && git describe --always --dirty --abbrev=7 2>/dev/null); then
	check "--version names the commit built from ($rev)" grep -q "^fsgauge [^ ]* ($rev)\$" "$T/out"
fi

run "$FSGAUGE" list
check "list exits 0" [ "$rc" -eq 0 ]
check "list shows varmail with a description" grep -Eq '^varmail +mail server' "$T/out"
check "list shows at least 40 personalities" [ "$(wc -l < "$T/out")" -ge 40 ]
run "$FSGAUGE" show varmail
check "show prints the workload text" grep -q "define fileset" "$T/out"
run "$FSGAUGE" show --resolved varmail
check "show --resolved prints the canonical dump, exit 0" \
	sh -c "[ $rc -eq 0 ] && head -1 '$T/out' | grep -qx 'workload varmail' && grep -q '^var nfiles=1000\$' '$T/out'"
run "$FSGAUGE" help run
check "help run is run's help" sh -c "[ $rc -eq 0 ] && head -1 '$T/out' | grep -q '^usage: fsgauge run '"

# varmail, small
run "$FSGAUGE" run varmail -d "$d" -t 2 -s nfiles=100 -s nthreads=4 --json "$T/v.json" --label small
check "varmail exits 0" [ "$rc" -eq 0 ]
check "stderr shows the fileset line" grep -Eq "^Fileset bigfileset: 100 files" "$T/err"
check "stderr shows the run directory" grep -q "run directory: $d/fsgauge-" "$T/err"
check "stdout has the per-operation breakdown" grep -q "^Per-Operation Breakdown" "$T/out"
check "IO Summary line in filebench's format" \
	grep -Eq '^IO Summary: [0-9]+ ops [0-9.]+ ops/s, \([0-9]+/[0-9]+ r/w\) [0-9.]+mb/s, [0-9]+us cpu/op, [0-9.]+ms latency$' "$T/out"
check "run directory removed, target empty" empty_dir "$d"
check "json: schema_version 1" [ "$(json "$T/v.json" 'd["schema_version"]')" = 1 ]
check "json: label recorded" [ "$(json "$T/v.json" 'd["label"]')" = small ]
check "json: ended by its duration" [ "$(json "$T/v.json" 'd["phases"][0]["end_reason"]')" = duration ]
check "json: complete" [ "$(json "$T/v.json" 'd["status"]["complete"]')" = true ]
check "json: every varmail flowop ran" [ "$(json "$T/v.json" 'min(o["ops"] for o in d["phases"][0]["operations"])>0')" = true ]
check "json: environment has the fs type" [ -n "$(json "$T/v.json" 'd["environment"]["fs_type"]')" ]
check "json: kernel recorded" [ -n "$(json "$T/v.json" 'd["environment"]["kernel"]')" ]
clk=$(json "$T/v.json" 'd["environment"]["latency_clock"]')
check "json: the clock operations were timed with ($clk)" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^(tsc \(|clock_gettime \(CLOCK_MONOTONIC\): )"' _ "$clk"
check "json: -s override recorded in parameters" [ "$(json "$T/v.json" 'd["parameters"]["var.nfiles"]')" = 100 ]
check "json: percentiles ordered" [ "$(json "$T/v.json" 'all(o["latency_us"]["p50"]<=o["latency_us"]["p99"]<=o["latency_us"]["max"]*1.01 for o in d["phases"][0]["operations"])')" = true ]
check "json: histogram counts equal ops" [ "$(json "$T/v.json" 'all(sum(b[2] for b in o["histogram"]["buckets"])==o["ops"] for o in d["phases"][0]["operations"])')" = true ]
check "json: appends wrote between 1 and iosize bytes per op" \
	[ "$(json "$T/v.json" 'all(o["ops"]<=o["bytes_written"]<=o["ops"]*16384 for o in d["phases"][0]["operations"] if o["type"]=="appendfilerand")')" = true ]
check "json: whole-file reads read bytes" [ "$(json "$T/v.json" 'all(o["bytes_read"]>0 for o in d["phases"][0]["operations"] if o["type"]=="readwholefile")')" = true ]

# the IO Summary agrees with the JSON
ops=$(json "$T/v.json" 'd["phases"][0]["summary"]["ops"]')
check "IO Summary op count equals JSON summary" grep -q "^IO Summary: $ops ops" "$T/out"

# a fixed-iosize write workload: bytes = ops x iosize exactly
cat > "$T/w.f" <<'WML'
define file name=big,path=$dir,size=1m,prealloc
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=2 {
    flowop write name=rw,filename=big,iosize=4k,random
    flowop read name=rr,filename=big,iosize=8k,random
  }
}
WML
run "$FSGAUGE" run "$T/w.f" -d "$d" -t 1 --json "$T/w.json"
check "random write/read workload exits 0" [ "$rc" -eq 0 ]
check "write bytes = ops x 4k" [ "$(json "$T/w.json" '[o["bytes_written"]==o["ops"]*4096 and o["ops"]>0 for o in d["phases"][0]["operations"] if o["name"]=="rw"][0]')" = true ]
check "read bytes = ops x 8k" [ "$(json "$T/w.json" '[o["bytes_read"]==o["ops"]*8192 and o["ops"]>0 for o in d["phases"][0]["operations"] if o["name"]=="rr"][0]')" = true ]
check "two threads reported" [ "$(json "$T/w.json" 'd["phases"][0]["threads"]')" = 2 ]

# -s of a variable the workload never uses: a warning, not an error
run "$FSGAUGE" run varmail -d "$d" -t 1 -s nfiles=20 -s nosuchvar=3
check "unused -s variable: exit 0" [ "$rc" -eq 0 ]
check "unused -s variable: warning names it" grep -q "warning: .*nosuchvar" "$T/err"
# ... but -d is not a -s: a workload without $dir gets no warning for it
cat > "$T/nodir.f" <<'WML'
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop hog name=h,value=100
  }
}
WML
run "$FSGAUGE" run "$T/nodir.f" -d "$d" -t 1
check "workload without \$dir, -d given: exit 0, no warning" \
	sh -c "[ $rc -eq 0 ] && ! grep -q warning '$T/err'"

# --keep keeps the marked run directory
run "$FSGAUGE" run varmail -d "$d" -t 1 -s nfiles=20 --keep
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "--keep reports the directory" [ -n "$kept" ]
check "--keep leaves the marker" [ -f "$kept/.fsgauge-run" ]
check "--keep leaves the files" [ -d "$kept/bigfileset" ]
# no other user can change what is inside the run directory while it runs
check "run directory is private (mode 700)" [ "$(stat -c %a "$kept")" = 700 ]
rm -rf "$kept"

# the null engine runs the whole path without touching storage
run "$FSGAUGE" run varmail -d "$d" -t 1 --engine null --json "$T/n.json"
check "null engine: exit 0" [ "$rc" -eq 0 ]
check "null engine: operations counted" [ "$(json "$T/n.json" 'd["phases"][0]["summary"]["ops"]>1000')" = true ]
check "null engine: nothing created" empty_dir "$d"

# without -d: a fresh directory under $TMPDIR, printed and removed
mkdir "$T/tmp"
TMPDIR="$T/tmp" run "$FSGAUGE" run varmail -t 1 -s nfiles=20
check "default target is under TMPDIR" grep -q "run directory: $T/tmp/fsgauge-" "$T/err"
check "default run directory removed" empty_dir "$T/tmp"

# set mode quit alldone + bare `run`: ends when every thread runs out of files
cat > "$T/q.f" <<'WML'
set mode quit alldone
define fileset name=fs,path=$dir,size=4k,entries=50,prealloc=100
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=2 {
    flowop deletefile name=del,filesetname=fs
  }
}
run
WML
run timeout 60 "$FSGAUGE" run "$T/q.f" -d "$d" --json "$T/q.json"
check "quit alldone: exits 0 on its own" [ "$rc" -eq 0 ]
check "quit alldone: says it runs until done" grep -q "Running until done" "$T/err"
check "quit alldone: ended because the threads were done" [ "$(json "$T/q.json" 'd["phases"][0]["end_reason"]')" = "threads done" ]
check "quit alldone: deleted exactly the 50 files" [ "$(json "$T/q.json" 'd["phases"][0]["operations"][0]["ops"]')" = 50 ]

# finishoncount ends the run normally, with results, once the target's
# operations summed over all threads reach the value
cat > "$T/f.f" <<'WML'
define fileset name=fs,path=$dir,size=1k,entries=1000,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=3 {
    flowop createfile name=mk,filesetname=fs,fd=1
    flowop writewholefile name=wr,fd=1,iosize=1k
    flowop closefile name=cl,fd=1
    flowop finishoncount name=done,target=mk,value=200
  }
}
WML
run timeout 60 "$FSGAUGE" run "$T/f.f" -d "$d" -t 30 --json "$T/f.json"
check "finishoncount: exit 0" [ "$rc" -eq 0 ]
check "finishoncount: complete, not an error" [ "$(json "$T/f.json" 'd["status"]["complete"]')" = true ]
check "finishoncount: stopped at 200 creates (one extra per other thread at most)" \
	[ "$(json "$T/f.json" '200<=[o["ops"] for o in d["phases"][0]["operations"] if o["name"]=="mk"][0]<=202')" = true ]
check "finishoncount: writewholefile wrote 1k per created file" \
	[ "$(json "$T/f.json" '[o["bytes_written"]==1024*o["ops"] for o in d["phases"][0]["operations"] if o["name"]=="wr"][0]')" = true ]
check "finishoncount: the phase ended by the finish condition" [ "$(json "$T/f.json" 'd["phases"][0]["end_reason"]')" = finish ]

# FSGAUGE_CLOCK: system makes operations timed with CLOCK_MONOTONIC (said
# in the JSON); an unknown value is warned about and the default used
run env FSGAUGE_CLOCK=system "$FSGAUGE" run varmail -d "$d" -t 1 -s nfiles=20 -q --json "$T/ck.json"
check "FSGAUGE_CLOCK=system: exits 0" [ "$rc" -eq 0 ]
check "FSGAUGE_CLOCK=system: recorded" \
	[ "$(json "$T/ck.json" 'd["environment"]["latency_clock"]')" = "clock_gettime (CLOCK_MONOTONIC): FSGAUGE_CLOCK=system" ]
run env FSGAUGE_CLOCK=bogus "$FSGAUGE" run varmail -d "$d" -t 1 -s nfiles=20 -q --json "$T/ck.json"
check "FSGAUGE_CLOCK=bogus: exits 0" [ "$rc" -eq 0 ]
check "FSGAUGE_CLOCK=bogus: warned" \
	grep -q "FSGAUGE_CLOCK='bogus' is not 'auto' or 'system'; using auto" "$T/err"
check "FSGAUGE_CLOCK=bogus: the default clock (${clk%% *})" \
	[ "$(json "$T/ck.json" 'd["environment"]["latency_clock"].split()[0]')" = "${clk%% *}" ]

# SIGINT mid-run: partial results marked, nothing left, exit 130
# (the progress line, once a second, says operations have completed: no
# guess at how long a slow or sanitized build needs to get going)
spawn "$T/int.out" "$T/int.err" "$FSGAUGE" run varmail -d "$d" -t 60 -s nfiles=50 \
	--progress=always --json "$T/int.json"
check "SIGINT: the run got going" wait_for "$T/int.err" '^run: .* [1-9][0-9]* ops/s'
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
check "SIGINT: results printed and marked" grep -q "interrupted" "$T/int.out"
check "SIGINT: json marked interrupted" [ "$(json "$T/int.json" 'd["status"]["interrupted"] and not d["status"]["complete"]')" = true ]
check "SIGINT: end reason is the signal" [ "$(json "$T/int.json" 'd["phases"][0]["end_reason"]')" = signal ]
check "SIGINT: partial ops recorded" [ "$(json "$T/int.json" 'd["phases"][0]["summary"]["ops"]>0')" = true ]
check "SIGINT: nothing left behind" empty_dir "$d"

# Built-ins carry filebench's names, and the breakdown lists them in
# filebench's order (last-defined first, as seed 000's varmail table); the
# JSON keeps the file's order.
d=$T/names; mkdir -p "$d"
run "$FSGAUGE" run varmail --engine null -t 1 -s nfiles=20 -s nthreads=1 -d "$d" --json "$T/names.json"
check "varmail on null: exit 0" [ "$rc" -eq 0 ]
fb_rev="closefile4 readfile4 openfile4 closefile3 fsyncfile3 appendfilerand3 readfile3 openfile3 closefile2 fsyncfile2 appendfilerand2 createfile2 deletefile1"
rows=$(sed -n '/^Per-Operation Breakdown/,/^$/p' "$T/out" | awk 'NR > 2 && NF { print $1 }' | tr '\n' ' ')
check "breakdown rows are filebench's names in filebench's order" [ "$rows" = "$fb_rev " ]
[ "$rows" = "$fb_rev " ] || echo "#   got: $rows"
fwd=$(for n in $fb_rev; do echo "$n"; done | tac | tr '\n' ' ')
check "JSON operations in the file's order" \
	[ "$(json "$T/names.json" '" ".join(o["name"] for o in d["phases"][0]["operations"])') " = "$fwd" ]
check "fileset bigfileset on stderr" grep -q "^Fileset bigfileset: 20 files" "$T/err"
check "process filereader, thread filereaderthread" \
	sh -c "grep -qx 'Starting 1 filereader instances' '$T/err' && grep -qx 'Starting 1 filereaderthread threads' '$T/err'"
run "$FSGAUGE" run fileserver --engine null -t 1 -s nfiles=20 -s nthreads=1 -d "$d" -q
rows=$(sed -n '/^Per-Operation Breakdown/,/^$/p' "$T/out" | awk 'NR > 2 && NF { print $1 }' | tr '\n' ' ')
check "fileserver rows in filebench's order" [ "$rows" = "statfile1 deletefile1 closefile3 readfile1 openfile2 closefile2 appendfilerand1 openfile1 closefile1 wrtfile1 createfile1 " ]
[ "$rows" = "statfile1 deletefile1 closefile3 readfile1 openfile2 closefile2 appendfilerand1 openfile1 closefile1 wrtfile1 createfile1 " ] || echo "#   got: $rows"
run "$FSGAUGE" run networkfs --engine null -t 1 -s totalfiles=50 -s eventrate=0 -d "$d" -q
check "networkfs: composite steps named CALL.STEP" sh -c "grep -q '^rmw1.readfile1 ' '$T/out' && grep -q '^launch1.openfile3 ' '$T/out' && grep -q '^ratecontrol ' '$T/out'"
check "nothing left behind" empty_dir "$d"

finish
