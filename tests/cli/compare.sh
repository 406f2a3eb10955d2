#!/bin/sh
# `fsgauge compare` and `fsgauge report`: reading results (and refusing
# files that are not), refusing incomparable results, the table, CSV and
# JSON outputs, statistics verdicts on fixtures with repeats and single
# runs, the HTML report (well-formed, one chart per headline figure, no
# external resources, rendered by headless Chromium when installed), and an
# end-to-end comparison of real `fsgauge run` results.
. "$(dirname "$0")/lib.sh"

F=$(cd "$(dirname "$0")/../fixtures" && pwd)

# --- help and usage errors ------------------------------------------------
run "$FSGAUGE" compare --help
check "compare --help exits 0" [ "$rc" -eq 0 ]
check "compare --help names the test" grep -q "Welch" "$T/out"
# the options' lines come from the table the parser uses: each one accepted
# is listed, at the help column
for o in csv "json FILE" brief force no-pool; do
	check "compare --help lists --$o" grep -Eq -- "^ +--$o +[a-z]" "$T/out"
done
run "$FSGAUGE" report --help
check "report --help exits 0" [ "$rc" -eq 0 ]
for o in "output FILE" "title TEXT" force no-pool; do
	check "report --help lists --$o" grep -Eq -- "^ +(-o, )?--$o +[a-z]" "$T/out"
done
check "report --help names -o" grep -q -- "-o, --output" "$T/out"
# what it refuses and what it allows, as results_load() does (tested below)
check "report --help: refuses other suite or workload names" \
	grep -q "results whose suite or workload names differ" "$T/out"
check "report --help: refuses workloads that differ beyond their parameters" \
	sh -c "tr '\\n' ' ' < '$T/out' | grep -q 'differ beyond their parameters'"
check "report --help: allows parameter sweeps" \
	sh -c "tr '\\n' ' ' < '$T/out' | grep -q 'Parameters may differ (a sweep: nthreads 4 against 8)'"
check "report --help: pooled files must match, --no-pool" \
	sh -c "tr '\\n' ' ' < '$T/out' | grep -q 'parameters and workloads must match, else exit 2'"
expect_fail "compare with one file: usage error" 2 "at least two result files" \
	"$FSGAUGE" compare "$F/ext4.json"
expect_fail "compare with a bad option: the one unrecognized-option message (exit 2)" 2 \
	"^fsgauge compare: unrecognized option '--bogus' \\(try 'fsgauge compare --help'\\)\$" \
	"$FSGAUGE" compare --bogus "$F/ext4.json" "$F/zfs.json"
expect_fail "compare --json without its file: the one needs-an-argument message" 2 \
	"^fsgauge compare: option '--json' needs an argument \\(try 'fsgauge compare --help'\\)\$" \
	"$FSGAUGE" compare "$F/ext4.json" "$F/zfs.json" --json
expect_fail "report with a bad option: the one unrecognized-option message (exit 2)" 2 \
	"^fsgauge report: unrecognized option '--bogus' \\(try 'fsgauge report --help'\\)\$" \
	"$FSGAUGE" report --bogus -o "$T/r.html" "$F/ext4.json"
expect_fail "report without -o: usage error" 2 "needs an output file" \
	"$FSGAUGE" report "$F/ext4.json"
expect_fail "report without files: usage error" 2 "at least one result file" \
	"$FSGAUGE" report -o "$T/r.html"

# --- unreadable and invalid result files ----------------------------------
# a file the system does not let be read: exit 3; one refused as input
# (not a regular file, too large, empty, not JSON, not a result): exit 2
expect_fail "missing file: exit 3, names it" 3 "cannot read result '$T/nope.json': No such file or directory" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/nope.json"
printf '{\n "schema_version": 1,\n "suite": oops\n}\n' > "$T/bad.json"
expect_fail "not JSON: exit 2 with the line, column and reason" 2 \
	"cannot read result '$T/bad.json': not valid JSON: line 3, column [0-9]+: .*invalid token" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/bad.json"
echo '{"suite": "run", "phases": []}' > "$T/nosv.json"
expect_fail "no schema_version: not an fsgauge result" 2 "'$T/nosv.json' is not an fsgauge result \(no schema_version\)" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/nosv.json"
echo '[1, 2]' > "$T/array.json"
expect_fail "a JSON array: not an fsgauge result" 2 "is not an fsgauge result" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/array.json"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["schema_version"]=99; json.dump(d,open(sys.argv[2],"w"))' "$F/ext4.json" "$T/new.json"
expect_fail "newer schema_version refused" 2 "schema_version 99 is newer than this fsgauge understands" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/new.json"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); del d["phases"]; json.dump(d,open(sys.argv[2],"w"))' "$F/ext4.json" "$T/nophases.json"
expect_fail "missing phases named" 2 "invalid result '$T/nophases.json': missing 'phases'" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/nophases.json"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); del d["phases"][0]["summary"]; json.dump(d,open(sys.argv[2],"w"))' "$F/ext4.json" "$T/nosum.json"
expect_fail "missing phase summary named" 2 "phases\[0\] \(main\): missing 'summary'" \
	"$FSGAUGE" report -o "$T/r.html" "$T/nosum.json"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["phases"][0]["operations"][1]["histogram"]["buckets"][0]=[1,"x",3]
json.dump(d,open(sys.argv[2],"w"))' "$F/ext4.json" "$T/badhist.json"
expect_fail "bad histogram bucket named" 2 "phases\[0\].operations\[1\].histogram.buckets\[0\]: expected \[lo_ns, hi_ns, count\]" \
	"$FSGAUGE" compare "$F/ext4.json" "$T/badhist.json"

# --- inputs that are not result files: compare and report alike ------------
mkdir "$T/adir"
mkfifo "$T/fifo"
truncate -s 300M "$T/huge.json" # sparse: refused by its size, never read
: > "$T/empty.json"
head -c 3000 "$F/ext4.json" > "$T/cut.json"
echo '{"name": "not a result", "values": [1, 2, 3]}' > "$T/other.json"
ln -s "$F/xfs.json" "$T/link.json"
for cmd in compare report; do
	if [ $cmd = compare ]; then set -- compare "$F/ext4.json"; else set -- report -o "$T/in.html"; fi
	expect_fail "$cmd: a directory: exit 2, named as one" 2 \
		"cannot read result '$T/adir': not a regular file \(a directory\)" \
		"$FSGAUGE" "$@" "$T/adir"
	run timeout 10 "$FSGAUGE" "$@" "$T/fifo"
	check "$cmd: a FIFO does not block (exit $rc, not timeout's 124)" [ "$rc" -ne 124 ]
	check "... exit 2, named as a FIFO" sh -c "[ $rc -eq 2 ] &&
		grep -q \"cannot read result '$T/fifo': not a regular file (a FIFO)\" '$T/err'"
	expect_fail "$cmd: a file over the size limit: exit 2, its size and the limit" 2 \
		"cannot read result '$T/huge.json': too large \(314572800 bytes; a result may have at most 268435456, 256 MiB\)" \
		"$FSGAUGE" "$@" "$T/huge.json"
	expect_fail "$cmd: an empty file: exit 2" 2 "cannot read result '$T/empty.json': the file is empty" \
		"$FSGAUGE" "$@" "$T/empty.json"
	expect_fail "$cmd: truncated JSON: exit 2, line, column and why" 2 \
		"cannot read result '$T/cut.json': not valid JSON: line [0-9]+, column [0-9]+: .* \(the file ends early: truncated\?\)" \
		"$FSGAUGE" "$@" "$T/cut.json"
	expect_fail "$cmd: valid JSON that is not a result: exit 2" 2 \
		"'$T/other.json' is not an fsgauge result \(no schema_version\)" \
		"$FSGAUGE" "$@" "$T/other.json"
done
check "... and no report was written" [ ! -e "$T/in.html" ]
run "$FSGAUGE" compare --force "$F/ext4.json" "$T/link.json"
check "a symlink to a result is read through (exit $rc)" [ "$rc" -eq 0 ]
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null && nobody_reaches "$FSGAUGE" "$F/ext4.json"; then
	cp "$F/xfs.json" "$T/secret.json"
	chmod 600 "$T/secret.json"
	chmod 755 "$T"
	expect_fail "a result the user may not read: exit 3, the system's reason" 3 \
		"cannot read result '$T/secret.json': Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$FSGAUGE" compare "$F/ext4.json" "$T/secret.json"
	chmod 700 "$T"
else
	ok "# SKIP unreadable result: needs root, setpriv and a tree uid 65534 can read"
fi
# a result too big for the memory the process may have: jansson gives no
# reason, fsgauge says it ran out of memory (exit 3, a system limit)
# (10 MB of numbers: jansson needs about 40 bytes for each)
python3 -c 'import sys
open(sys.argv[1], "w").write("{\"schema_version\": 1, \"pad\": [" + "0," * 5000000 + "0]}\n")' "$T/long.json"
if (ulimit -v 150000 && "$FSGAUGE" --version) > /dev/null 2>&1; then
	(ulimit -v 150000; exec "$FSGAUGE" compare "$F/ext4.json" "$T/long.json") > "$T/out" 2> "$T/err"
	rc=$?
	check "out of memory parsing a result: exit 3, says so (exit $rc)" sh -c "[ $rc -eq 3 ] &&
		grep -q \"cannot read result '$T/long.json' ([0-9]* bytes): Cannot allocate memory\" '$T/err'"
else
	ok "# SKIP out of memory: fsgauge does not start under ulimit -v (a sanitizer build)"
fi

# --- incomparable results ---------------------------------------------------
expect_fail "different workloads refused (exit 2)" 2 "cannot compare results of different workloads" \
	"$FSGAUGE" compare "$F/ext4.json" "$F/webserver.json"
check "... listing both workloads" grep -q "webserver.json: run webserver" "$T/err"
run "$FSGAUGE" compare --force "$F/ext4.json" "$F/webserver.json"
check "different workloads with --force: exit 0" [ "$rc" -eq 0 ]
check "... with a warning" grep -q "warning: comparing results of different workloads" "$T/err"
expect_fail "report: different workloads refused (exit 2), as its help says" 2 \
	"cannot compare results of different workloads" \
	"$FSGAUGE" report "$F/ext4.json" "$F/webserver.json" -o "$T/wl.html"
check "... listing both, writing no report" sh -c \
	"grep -q 'webserver.json: run webserver' '$T/err' && [ ! -e '$T/wl.html' ]"
# --- parameters that differ: what is compared, listed first ----------------
run "$FSGAUGE" compare "$F/ext4.json" "$F/threads32.json"
check "different parameters compared: exit 0 (exit $rc)" [ "$rc" -eq 0 ]
check "... no error" sh -c "! grep -q 'error' '$T/err'"
check "... 'what differs' before the table" sh -c \
	"grep -n 'what differs:' '$T/out' | cut -d: -f1 | { read a; [ \$a -lt \$(grep -n \"^phase 'main'\" '$T/out' | cut -d: -f1) ]; }"
check "... var.nthreads: 16 → 32" grep -q "^  var.nthreads: 16 → 32\$" "$T/out"
check "... duration: 10 → 20" grep -q "^  duration: 10 → 20\$" "$T/out"
check "... but not the seed (it may differ)" sh -c "! grep -q '^  seed:' '$T/out'"
check "... two parameters differ: no sweep" sh -c "! grep -q 'a sweep over' '$T/out'"
run "$FSGAUGE" compare --json "$T/pd.json" "$F/ext4.json" "$F/threads32.json"
check "... in the JSON: parameter_differences, sweep null" [ "$(json "$T/pd.json" \
	'[x["key"] for x in d["parameter_differences"]] == ["var.nthreads", "duration"] and d["sweep"] is None')" = true ]

# a thread sweep: nthreads 4, 8, 16, nothing else differs
for n in 4 8 16; do
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="n"+sys.argv[3]; d["parameters"]["var.nthreads"]=sys.argv[3]
for p in d["phases"]:
    p["summary"]["ops_per_second"] *= int(sys.argv[3]) / 4
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/sw$n.json" "$n"
done
run "$FSGAUGE" compare --json "$T/sw.json" "$T/sw4.json" "$T/sw8.json" "$T/sw16.json"
check "thread sweep compared: exit 0" [ "$rc" -eq 0 ]
check "... var.nthreads: 4 → 8 → 16" grep -q "^  var.nthreads: 4 → 8 → 16\$" "$T/out"
check "... named a sweep" grep -q "a sweep over var.nthreads" "$T/out"
check "... the JSON's sweep: the parameter and its values" [ "$(json "$T/sw.json" \
	'd["sweep"] == {"parameter": "var.nthreads", "values": [4, 8, 16]}')" = true ]
check "... no workload warning (no workload text, hashes equal)" sh -c "! grep -q 'workload' '$T/err'"
run "$FSGAUGE" report -o "$T/sw.html" "$T/sw4.json" "$T/sw8.json" "$T/sw16.json"
check "report of a sweep: exit 0" [ "$rc" -eq 0 ]
check "... a sweep section over var.nthreads" grep -q '<section id="sweep">' "$T/sw.html"
check "... an ops/s chart against it" grep -q 'data-chart="sweep" data-figure="ops_per_second"' "$T/sw.html"
run "$FSGAUGE" report -o "$T/nosw.html" "$F/ext4.json" "$F/threads32.json"
check "report of two parameters differing: no sweep chart" sh -c "! grep -q 'data-chart=\"sweep\"' '$T/nosw.html'"
# sizes in what differs in binary units
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="big"; d["parameters"]["var.meanfilesize"]="1048576"
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/big.json"
run "$FSGAUGE" compare "$F/single-a.json" "$T/big.json"
check "a size parameter in binary units: 16 KiB → 1 MiB" grep -q "^  var.meanfilesize: 16 KiB → 1 MiB\$" "$T/out"
# ... and in the report's tables, the raw value in the tooltip
run "$FSGAUGE" report -o "$T/big.html" "$F/single-a.json" "$T/big.json"
check "report: a size parameter in binary units, raw in title (what differs and parameters)" \
	[ "$(grep -c '<td title="1048576">1 MiB</td>' "$T/big.html")" -eq 2 ]
check "report: 16k as 16 KiB" grep -q '<td title="16k">16 KiB</td>' "$T/big.html"
check "report: ram_bytes in binary units" grep -q '<td title="17179869184">16 GiB</td>' "$T/big.html"
check "report: a count stays as it is, no title" sh -c \
	"grep -q '<th>var.nthreads</th><td>16</td>' '$T/big.html' && ! grep -q 'title=\"16\"' '$T/big.html'"

# workloads of one name that differ beyond their parameters: the lines
wtext() { # OUT LABEL TEXT
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]; d["workload_text"]=sys.argv[4]
d["workload_hash"]="%032x" % hash(sys.argv[4]) if sys.argv[4] else d["workload_hash"]
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/$1" "$2" "$3"
}
nl='
'
wtext wa.json wa "workload varmail${nl}var nthreads=4${nl}thread t instances=\$nthreads=4${nl}    flowop read r1 iosize=\$io=\"4 k\"${nl}usage \"threads (default 4)\""
wtext wb.json wb "workload varmail${nl}var nthreads=8 (overridden)${nl}thread t instances=\$nthreads=8${nl}    flowop read r1 iosize=\$io=\"8 k\"${nl}usage \"threads (default 8)\""
wtext wc.json wc "workload varmail${nl}var nthreads=4${nl}thread t instances=\$nthreads=4${nl}    flowop write w1 iosize=\$io=\"4 k\""
run "$FSGAUGE" compare "$T/wa.json" "$T/wb.json"
check "workload texts that differ only in values: exit 0, no warning" \
	sh -c "[ $rc -eq 0 ] && ! grep -q 'differ beyond the parameters' '$T/out'"
# ... refused without --force (exit 2), the lines that differ shown as a
# short unified-style diff: the two files, one unchanged line around
expect_fail "workloads that differ in flowops: refused (exit 2)" 2 \
	"^fsgauge: cannot compare results whose workloads differ beyond their parameters" \
	"$FSGAUGE" compare "$T/wa.json" "$T/wc.json"
check "... the baseline's file first" grep -qx "  --- '$T/wa.json' (the baseline)" "$T/err"
check "... then the other's" grep -qx "  +++ '$T/wc.json'" "$T/err"
check "... an unchanged line around, as \$name" grep -qx '    thread t instances=\$nthreads' "$T/err"
check "... the baseline's line" grep -qx '  -     flowop read r1 iosize=\$io' "$T/err"
check "... and the other's" grep -qx '  +     flowop write w1 iosize=\$io' "$T/err"
check "... in that order" sh -c "grep -E '^  (---|\\+\\+\\+|-|\\+) ' '$T/err' | cut -c3-5 | tr -d ' \\n' | grep -qx -- '---+++-+'"
check "... the way out named" grep -qx "use --force to compare them anyway" "$T/err"
check "... no table" [ ! -s "$T/out" ]
run "$FSGAUGE" compare --force "$T/wa.json" "$T/wc.json"
check "--force: compared (exit 0)" [ "$rc" -eq 0 ]
check "--force: a warning on stderr" grep -q "^fsgauge: warning: comparing results whose workloads differ beyond their parameters (--force)" "$T/err"
check "--force: the warning with the lines, with the table" grep -q "warning: '$T/wc.json' and the baseline '$T/wa.json' both ran run 'varmail', but their workloads differ beyond the parameters" "$T/out"
check "--force: the baseline's line" grep -qx '  -     flowop read r1 iosize=\$io' "$T/out"
check "--force: and the other's" grep -qx '  +     flowop write w1 iosize=\$io' "$T/out"
check "--force: the table" grep -q "^baseline: wa" "$T/out"
# many lines: the first 12 changes, then how many more
many=$(i=0; while [ $i -lt 20 ]; do printf '    flowop read r%d iosize=4k\n' $i; i=$((i + 1)); done)
wtext wm.json wm "workload varmail${nl}thread t instances=\$nthreads=4${nl}${many}"
run "$FSGAUGE" compare "$T/wa.json" "$T/wm.json"
check "a long diff: the first 12 changed lines" [ "$(grep -cE '^  [-+] ' "$T/err")" -eq 12 ]
check "... then how many more" grep -qx '  \.\.\. (9 more lines differ)' "$T/err"
expect_fail "report refuses them too (exit 2)" 2 \
	"^fsgauge: cannot compare results whose workloads differ beyond their parameters" \
	"$FSGAUGE" report "$T/wa.json" "$T/wc.json" -o "$T/wdiff.html"
check "... and writes no report" [ ! -e "$T/wdiff.html" ]
run "$FSGAUGE" report --force "$T/wa.json" "$T/wc.json" -o "$T/wdiff.html"
check "report --force: exit 0" [ "$rc" -eq 0 ]
check "... the lines that differ in the report" grep -q "differ beyond the parameters" "$T/wdiff.html"

# --- the table ----------------------------------------------------------------
run "$FSGAUGE" compare "$F/ext4.json" "$F/zfs.json" "$F/xfs.json"
check "three results with repeats: exit 0" [ "$rc" -eq 0 ]
check "baseline named" grep -q "^baseline: ext4" "$T/out"
check "5 runs each" [ "$(grep -c '(run varmail, 5 runs)' "$T/out")" -eq 3 ]
check "environment differences listed" grep -Eq "^ +fs_type +ext4 +zfs +xfs" "$T/out"
check "equal environment keys not listed" sh -c "! grep -Eq '^ +kernel ' '$T/out'"
check "cache-honesty warning for zfs" grep -q "warning: '$F/zfs.json' phase 'main': reads were likely served from memory" "$T/out"
check "zfs ops/s: ratio ~1.3, better" grep -Eq "^ +zfs +5[0-9.]+ +[0-9.]+% +5 +1\.3[0-9]+ +\[1\.[0-9]+, 1\.[0-9]+\] +<0\.001 +better" "$T/out"
check "xfs ops/s (0.5% faster, 2% noise): not significant" grep -Eq "^ +xfs +[0-9.]+ +[0-9.]+% +5 +1\.0[0-9]+ +\[0\.9[0-9]+, 1\.0[0-9]+\] +0\.[0-9]+ +ns" "$T/out"
check "device amplification row present" grep -q "device write amplification" "$T/out"
check "per-operation rows" grep -q "fsyncfile1: p99 latency (us)" "$T/out"
check "MB/s of opens (all 0) left out" sh -c "! grep -q 'openfile1: MB/s' '$T/out'"
run "$FSGAUGE" compare --brief "$F/ext4.json" "$F/zfs.json"
check "--brief: no operation rows" sh -c "! grep -q 'fsyncfile1:' '$T/out'"
check "--brief: phase rows" grep -q "p99 latency (ms)" "$T/out"

run "$FSGAUGE" compare "$F/single-a.json" "$F/single-b.json"
check "single runs: exit 0" [ "$rc" -eq 0 ]
check "single runs: ratio 2.0 shown" grep -Eq "^ +single-b +[0-9.]+ +1 +2\.0[0-9]+ " "$T/out"
check "single runs: verdict n/a" grep -Eq " n/a$" "$T/out"
check "single runs: never better or worse" sh -c "! grep -Eq ' (better|worse)$' '$T/out'"
check "p99 computed from histograms without p99_latency_ms" grep -Eq "^ +p99 latency \(ms\) +single-a +[0-9.]+ " "$T/out"

run "$FSGAUGE" compare "$F/single-a.json" "$F/incomplete.json"
check "incomplete result warned" grep -q "incomplete.json' is incomplete (interrupted)" "$T/out"

# --- CSV --------------------------------------------------------------------
run "$FSGAUGE" compare --csv "$F/ext4.json" "$F/zfs.json" "$F/xfs.json"
check "--csv: exit 0" [ "$rc" -eq 0 ]
check "--csv: header" [ "$(head -1 "$T/out")" = "phase,operation,figure,unit,result,file,n,mean,sd,ci95_low,ci95_high,ratio,ratio_ci95_low,ratio_ci95_high,p_value,verdict" ]
check "--csv: warnings go to stderr" grep -q "warning: .*likely served from memory" "$T/err"
cp "$T/out" "$T/t.csv"
check "--csv: every line has 16 fields, 3 results per row" python3 -c '
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
assert all(len(r)==16 for r in rows), "field count"
assert (len(rows)-1)%3==0
z=[r for r in rows if r[0]=="main" and r[1]=="" and r[2]=="ops_per_second" and r[4]=="zfs"][0]
assert 1.25<float(z[11])<1.4 and z[15]=="better" and float(z[14])<0.001, z
b=[r for r in rows if r[2]=="ops_per_second" and r[4]=="ext4" and r[1]==""][0]
assert b[11]=="1" and b[15]=="", b
' "$T/t.csv"

# --- JSON ---------------------------------------------------------------------
run "$FSGAUGE" compare --json "$T/c.json" "$F/ext4.json" "$F/zfs.json"
[ "$rc" -eq 0 ] && grep -q "^baseline:" "$T/out"
checked "--json FILE: exit 0, table still on stdout"
check "--json: zfs ops/s significant, ratio interval above 1" [ "$(json "$T/c.json" '[r["results"][1] for r in d["rows"] if r["figure"]=="ops_per_second" and r["operation"] is None][0]["ratio_ci95_low"]>1')" = true ]
check "--json: method welch-log" [ "$(json "$T/c.json" 'd["rows"][0]["results"][1]["method"]')" = welch-log ]
check "--json: environment differences" [ "$(json "$T/c.json" '[e["values"] for e in d["environment_differences"] if e["key"]=="fs_type"][0]')" = "['ext4', 'zfs']" ]
check "--json: the cache warning" [ "$(json "$T/c.json" 'len(d["warnings"])')" = 1 ]
run "$FSGAUGE" compare --json - "$F/single-a.json" "$F/single-b.json"
cp "$T/out" "$T/c2.json"
check "--json -: JSON on stdout, no table" [ "$(json "$T/c2.json" 'd["rows"][0]["results"][1]["significant"]')" = None ]
expect_fail "--csv with --json -: usage error" 2 "both write to stdout" \
	"$FSGAUGE" compare --csv --json - "$F/single-a.json" "$F/single-b.json"

# --- pooling files with the same label ---------------------------------------
for i in 1 2 3; do
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]; json.dump(d,open(sys.argv[2],"w"))' \
		"$F/single-a.json" "$T/pa$i.json" pa
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]; json.dump(d,open(sys.argv[2],"w"))' \
		"$F/single-b.json" "$T/pb$i.json" pb
done
run "$FSGAUGE" compare "$T"/pa?.json "$T"/pb?.json
check "same label: pooled into 3 runs" [ "$(grep -c '(run varmail, 3 runs)' "$T/out")" -eq 2 ]
check "same label: pooling reported" grep -q "pooled 3 results labelled 'pa'" "$T/err"
check "pooled constant runs: significant" grep -Eq "^ +pb +[0-9.]+ +0\.0% +3 +2\.0[0-9]+ .* better$" "$T/out"
run "$FSGAUGE" compare --no-pool "$T"/pa?.json "$T"/pb?.json
check "--no-pool: six results" [ "$(grep -c '(run varmail, 1 run)' "$T/out")" -eq 6 ]
expect_fail "all files labelled alike: nothing to compare (exit 2)" 2 \
	"all results are labelled 'pa': nothing to compare \(label them differently, or use --no-pool" \
	"$FSGAUGE" compare "$T"/pa?.json
check "... and no table" [ ! -s "$T/out" ]
run "$FSGAUGE" compare --no-pool "$T/pa1.json" "$T/pa2.json"
check "... --no-pool compares them" [ "$rc" -eq 0 ]
run "$FSGAUGE" report "$T"/pa?.json -o "$T/pa.html"
[ "$rc" -eq 0 ] && [ "$(grep -c '^<tr><td><span class="swatch"' "$T/pa.html")" -eq 1 ] &&
	grep -q '^<tr><td><span class="swatch"[^>]*></span>pa (baseline)</td><td>[^<]*pa1.json (+2 more)</td><td>run</td><td>varmail</td><td class="num">3</td>' "$T/pa.html"
checked "report of one label: one pooled result of 3 runs, exit 0"

# two runs of 10 and 1000 ops/s: t(0.975, 1) = 12.7 makes mean - half-width
# about -5800, but a rate cannot be negative
for v in 10 1000; do
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="wide"; d["phases"][0]["summary"]["ops_per_second"]=float(sys.argv[3])
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/wide$v.json" "$v"
done
run "$FSGAUGE" compare --csv "$T/wide10.json" "$T/wide1000.json" "$T/pb1.json"
check "--csv: ci95_low of a rate clamped at 0, ci95_high not" python3 -c '
import csv,sys
r=[r for r in csv.reader(open(sys.argv[1])) if r[2]=="ops_per_second" and r[1]=="" and r[4]=="wide"][0]
assert r[9]=="0" and float(r[10])>5000, r
assert all(float(x[9])>=0 for x in csv.reader(open(sys.argv[1])) if x[0]!="phase" and x[9]), "a negative ci95_low"
' "$T/out"

# --- the same file twice: not two runs -----------------------------------------
expect_fail "the same file twice refused (exit 2), named" 2 \
	"result '$T/pa1.json' is given twice: a result cannot be compared or pooled with itself" \
	"$FSGAUGE" compare "$T/pa1.json" "$T/pa1.json"
expect_fail "... also among others" 2 "result '$T/pa2.json' is given twice" \
	"$FSGAUGE" compare "$T/pa1.json" "$T/pa2.json" "$T/pb1.json" "$T/pa2.json"
ln -s pa1.json "$T/pa-link.json"
expect_fail "... also by another name (a symlink)" 2 \
	"'$T/pa1.json' and '$T/pa-link.json' are the same result file" \
	"$FSGAUGE" compare "$T/pa1.json" "$T/pa-link.json"
expect_fail "... also with --no-pool" 2 "is given twice" \
	"$FSGAUGE" compare --no-pool "$T/pa1.json" "$T/pa1.json"
expect_fail "report of the same file twice refused (exit 2)" 2 \
	"result '$T/pa1.json' is given twice" \
	"$FSGAUGE" report "$T/pa1.json" "$T/pa1.json" -o "$T/twice.html"
check "... writing no report" [ ! -e "$T/twice.html" ]
cp "$T/pa1.json" "$T/pa-copy.json"
run "$FSGAUGE" compare "$T/pa1.json" "$T/pa-copy.json" "$T/pb1.json"
check "a copy is another file: pooled (exit 0)" [ "$rc" -eq 0 ]

python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="pa"; d["parameters"]["var.nthreads"]="4"
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/pa4.json"
expect_fail "pooling different parameters refused" 2 "cannot pool the results labelled 'pa'" \
	"$FSGAUGE" compare "$T"/pa?.json "$T"/pb?.json

# --- latency_clock: the clock kind is the configuration, not its measurement ---
# (the calibrated rate and the CPUs' skew differ from run to run)
mkclock() { # OUT LABEL CLOCK
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]; d["environment"]["latency_clock"]=sys.argv[4]
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/$1" "$2" "$3"
}
tsc="tsc (2096.0 MHz, invariant, calibrated against CLOCK_MONOTONIC; CPUs in step within"
mkclock c1.json ca "$tsc 5 ns)"
mkclock c2.json ca "$tsc 1 ns)"
mkclock c3.json cb "tsc (2095.9 MHz, invariant, calibrated against CLOCK_MONOTONIC; CPUs in step within 0 ns)"
mkclock c4.json cb "clock_gettime (CLOCK_MONOTONIC): the TSC is not invariant"
run "$FSGAUGE" compare "$T/c1.json" "$T/c2.json" "$T/c3.json"
check "tsc skews differ: pooled without an environment warning" sh -c "[ $rc -eq 0 ] && ! grep -q 'differ in environment' '$T/err'"
check "tsc rates differ: no environment difference listed" sh -c "! grep -q 'latency_clock' '$T/out'"
run "$FSGAUGE" compare "$T/c1.json" "$T/c2.json" "$T/c3.json" "$T/c4.json"
check "tsc against clock_gettime: pooling warns" grep -q "warning: results labelled 'cb' differ in environment 'latency_clock'" "$T/err"
run "$FSGAUGE" compare --no-pool --json "$T/cl.json" "$T/c1.json" "$T/c4.json"
check "tsc against clock_gettime: listed, full values kept" \
	[ "$(json "$T/cl.json" '[e["values"][1] for e in d["environment_differences"] if e["key"]=="latency_clock"][0]')" = "clock_gettime (CLOCK_MONOTONIC): the TSC is not invariant" ]
run "$FSGAUGE" report --no-pool "$T/c1.json" "$T/c3.json" -o "$T/cl.html"
check "report: latency_clock row not highlighted for a different skew" \
	grep -q '<tr><th>latency_clock</th>' "$T/cl.html"
run "$FSGAUGE" report --no-pool "$T/c1.json" "$T/c4.json" -o "$T/cl.html"
check "report: latency_clock row highlighted for a different clock" \
	grep -q '<tr class="diff"><th>latency_clock</th>' "$T/cl.html"

# --- a baseline of 0: no ratio, so no p-value and no verdict ----------------------
# device read amplification 0 in both runs of za, 0 and 0.5 in zb's: the
# ratio is undefined and Welch's test on 0,0 against 0,0.5 (p = 0.5) must
# not be shown as if it qualified one
for i in 1 2; do
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]
d["phases"][0]["device"]={"read_amplification": float(sys.argv[4]), "write_amplification": 1.5}
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/za$i.json" za 0
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]=sys.argv[3]
d["phases"][0]["device"]={"read_amplification": float(sys.argv[4]), "write_amplification": 1.5}
json.dump(d,open(sys.argv[2],"w"))' "$F/single-a.json" "$T/zb$i.json" zb $((i - 1))
done
run "$FSGAUGE" compare "$T"/za?.json "$T"/zb?.json
check "zero baseline: exit 0" [ "$rc" -eq 0 ]
check "zero baseline: ratio, CI, p shown as -, no verdict" \
	grep -Eq "^ +zb +0\.5 +[0-9.]+% +2 +- +- +- *$" "$T/out"
check "zero baseline: never nan" sh -c "! grep -qi nan '$T/out'"
run "$FSGAUGE" compare --csv "$T"/za?.json "$T"/zb?.json
check "zero baseline --csv: ratio, p and verdict empty" python3 -c '
import csv,sys
r=[r for r in csv.reader(open(sys.argv[1])) if r[2]=="device_read_amplification" and r[4]=="zb"][0]
assert r[11:]==["","","","",""], r
' "$T/out"
run "$FSGAUGE" compare --json - "$T"/za?.json "$T"/zb?.json
cp "$T/out" "$T/z.json"
check "zero baseline --json: ratio, p_value, significant and verdict null, method none" \
	[ "$(json "$T/z.json" '[(c["ratio"],c["p_value"],c["significant"],c["verdict"],c["method"]) for r in d["rows"] if r["figure"]=="device_read_amplification" for c in r["results"][1:]][0]')" = "(None, None, None, None, 'none')" ]
run "$FSGAUGE" report "$T"/za?.json "$T"/zb?.json -o "$T/z.html"
check "zero baseline report: a bare - for the ratio, no nan or p" python3 -c '
import re,sys
h=open(sys.argv[1]).read()
assert "nan" not in h.lower().replace("nanosec",""), "nan in the report"
row=re.search(r"<tr><th>device read amplification \(ratio\)</th>.*?</tr>", h).group(0)
cells=re.findall(r"<td[^>]*>(.*?)</td>", row)
assert cells[-1]=="-", cells
' "$T/z.html"

# --- the HTML report --------------------------------------------------------------
run "$FSGAUGE" report "$F/ext4.json" "$F/zfs.json" "$F/xfs.json" -o "$T/r.html"
check "report: exit 0" [ "$rc" -eq 0 ]
check "report: cache warning on stderr" grep -q "warning: .*likely served from memory" "$T/err"
if command -v xmllint >/dev/null 2>&1; then
	check "report: well-formed (xmllint)" xmllint --noout "$T/r.html"
else
	ok "report: well-formed (xmllint) # SKIP xmllint not installed"
fi
check "report: tags balanced (python html.parser)" python3 -c '
import sys
from html.parser import HTMLParser
VOID={"meta","br","img","input","hr","link","col","area","base","wbr","source","track","embed","param"}
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.stack=[]
    def handle_starttag(s,t,a):
        if t not in VOID: s.stack.append(t)
    def handle_startendtag(s,t,a): pass
    def handle_endtag(s,t):
        if t in VOID: return
        assert s.stack and s.stack[-1]==t, "unbalanced </%s> (open: %s)"%(t,s.stack[-3:])
        s.stack.pop()
p=P(); p.feed(open(sys.argv[1]).read()); p.close()
assert not p.stack, p.stack
' "$T/r.html"
for fig in ops_per_second mb_per_second mean_latency p99_latency cpu_us_per_op \
	device_write_amplification device_read_amplification; do
	check "report: one bar chart of $fig" \
		[ "$(grep -c "data-chart=\"bar\" data-figure=\"$fig\"" "$T/r.html")" -eq 1 ]
done
check "report: a latency CDF per operation (4)" [ "$(grep -c 'data-chart="cdf"' "$T/r.html")" -eq 4 ]
check "report: time series (ops/s, MB/s, p99)" [ "$(grep -c 'data-chart="timeseries"' "$T/r.html")" -eq 3 ]
check "report: a percentile plot per operation (4)" [ "$(grep -c 'data-chart="percentile"' "$T/r.html")" -eq 4 ]
[ "$(grep -c '<title id="ct' "$T/r.html")" -eq 18 ] && grep -q 'fraction of operations' "$T/r.html"
checked "report: charts have titles and axis labels"
# beside each CDF, in one div.pair, the percentile plot of the same
# operation: x on a nines axis (p50 ... p99.99), latency never falling as
# the percentile rises (pixels: x rising, y not rising)
check "report: each CDF has its percentile plot beside it, on a nines axis" python3 -c '
import re, sys
h = open(sys.argv[1]).read()
pairs = re.findall(r"<div class=\"pair\">\n(<svg .*?</svg>)\n(<svg .*?</svg>)\n</div>", h, re.S)
assert len(pairs) == 4, len(pairs)
for cdf, pct in pairs:
    fig = re.search(r"data-chart=\"cdf\" data-figure=\"([^\"]*)\"", cdf).group(1)
    assert "data-chart=\"percentile\" data-figure=\"%s\"" % fig in pct, fig
    assert "%s latency percentiles</text>" % fig in pct, fig
    ticks = re.findall(r"class=\"tick\"[^>]*>(p[0-9.]+)</text>", pct)
    assert ticks[:5] == ["p50", "p90", "p99", "p99.9", "p99.99"], ticks
    assert "percentile (nines)" in pct and "latency (us" in pct
    lines = re.findall(r"<polyline [^>]*points=\"([^\"]*)\"", pct)
    assert len(lines) == 3, (fig, len(lines))
    for pts in lines:
        xy = [tuple(map(float, p.split(","))) for p in pts.split()]
        assert len(xy) >= 2, (fig, xy)
        assert all(b[0] >= a[0] and b[1] <= a[1] for a, b in zip(xy, xy[1:])), (fig, xy)
' "$T/r.html"
check "report: environment of each result" grep -q '<td>tank/zfs</td>' "$T/r.html"
check "report: the comparison table" grep -q '<section id="compare">' "$T/r.html"
check "report: a print style sheet" grep -q '@media print' "$T/r.html"
check "report: nothing external (no scripts, links, imports, urls)" \
	sh -c "! grep -Eqi '<script|<link|<img|@import|url\(|src=|href=' '$T/r.html'"
# the verdict: a line per result but the baseline, at the top, in words
# (a clearly faster zfs, an xfs within the noise), never an n/a
verdicts() { # HTML: "name|phase|figure=direction/significant,...|text" per line
	python3 -c '
import re,sys
h=open(sys.argv[1]).read()
for li in re.findall(r"<li class=\"verdict\".*?</li>", h):
    m=re.match(r"<li class=\"verdict\" data-result=\"([^\"]*)\"(?: data-phase=\"([^\"]*)\")?", li)
    figs=re.findall(r"data-figure=\"([^\"]*)\" data-direction=\"([^\"]*)\"(?: data-significant=\"([^\"]*)\")?", li)
    print("%s|%s|%s|%s" % (m.group(1), m.group(2), ",".join("%s=%s/%s" % f for f in figs), re.sub("<[^>]*>", "", li)))
' "$1"
}
verdicts "$T/r.html" > "$T/v.txt"
check "verdict: a line per result but the baseline (2)" [ "$(wc -l < "$T/v.txt")" -eq 2 ]
check "... before the warnings and the results" python3 -c '
import sys
h=open(sys.argv[1]).read()
assert 0 < h.index("id=\"verdict\"") < h.index("class=\"warn\"") < h.index("id=\"results\"")
' "$T/r.html"
check "... zfs: ops/s faster, significant; p99 lower; CPU/op less" \
	grep -q "^zfs|main|ops_per_second=faster/yes,p99_latency=lower/yes,cpu_us_per_op=less/yes|" "$T/v.txt"
check "... zfs in words: ratio, interval, significant" \
	grep -Eq "^zfs\|.*\|zfs: ops/s 1\.3[0-9]× faster \(1\.[0-9]+–1\.[0-9]+, significant\), p99 [0-9.]+× lower \([0-9.]+–[0-9.]+, significant\), CPU/op [0-9.]+× less" "$T/v.txt"
check "... xfs (0.5% faster, 2% noise): not significant" \
	grep -Eq "^xfs\|main\|ops_per_second=[a-z]+/no,.*ops/s [0-9.]+× (faster|slower) \([0-9.]+–[0-9.]+, not significant\)" "$T/v.txt"
check "... no n/a, nan or inverted ratio below 1 in the verdict" sh -c "! grep -Eqi 'n/a|nan|0\.[0-9]+×' '$T/v.txt'"
run "$FSGAUGE" report "$F/zfs.json" "$F/ext4.json" -o "$T/rev.html"
verdicts "$T/rev.html" > "$T/v.txt"
check "verdict with zfs as the baseline: ext4 slower, p99 higher, CPU/op more" \
	grep -Eq "^ext4\|main\|ops_per_second=slower/yes,p99_latency=higher/yes,cpu_us_per_op=more/yes\|ext4: ops/s 1\.3[0-9]× slower" "$T/v.txt"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="nocpu"
for p in d["phases"]:
    p["summary"].pop("cpu_us_per_op", None)
    for o in p["operations"]: o.pop("cpu_us_per_op", None)
json.dump(d,open(sys.argv[2],"w"))' "$F/single-b.json" "$T/nocpu.json"
run "$FSGAUGE" report "$F/single-a.json" "$T/nocpu.json" -o "$T/v1.html"
verdicts "$T/v1.html" > "$T/v.txt"
check "verdict of single runs: a ratio, significance not judged (said once)" \
	grep -Eq "^nocpu\|main\|ops_per_second=faster/unjudged,.*nocpu: ops/s 2\.0[0-9]× faster, .* \(a single run on a side: significance not judged\)\$" "$T/v.txt"
check "... a figure the result lacks said so, no ratio" \
	grep -q "cpu_us_per_op=none/|.*CPU/op not recorded in this result" "$T/v.txt"
run "$FSGAUGE" report "$T/nocpu.json" "$F/single-a.json" -o "$T/v2.html"
verdicts "$T/v2.html" > "$T/v.txt"
check "... or the baseline lacks" grep -q "CPU/op not recorded in the baseline" "$T/v.txt"
# ratios in words on the bars and in the table: never below 1, never n/a
check "bars: zfs's ops/s '1.33× faster', significant; xfs's not significant" python3 -c '
import re,sys
h=open(sys.argv[1]).read()
ch=re.search(r"<svg [^>]*data-chart=\"bar\" data-figure=\"ops_per_second\".*?</svg>", h, re.S).group(0)
notes=re.findall(r"<text class=\"note\"[^>]*>([^<]*)</text>", ch)
assert notes[0]=="baseline", notes
assert re.fullmatch(r"1\.3[0-9]× faster", notes[1]) and notes[2]=="significant", notes
assert re.fullmatch(r"1\.0[0-9]× (faster|slower)", notes[3]) and notes[4]=="not significant", notes
ch=re.search(r"<svg [^>]*data-chart=\"bar\" data-figure=\"p99_latency\".*?</svg>", h, re.S).group(0)
notes=re.findall(r"<text class=\"note\"[^>]*>([^<]*)</text>", ch)
assert re.fullmatch(r"1\.[0-9]+× lower latency", notes[1]), notes
ch=re.search(r"<svg [^>]*data-chart=\"bar\" data-figure=\"cpu_us_per_op\".*?</svg>", h, re.S).group(0)
assert re.search(r">1\.[0-9]+× less CPU/op<", ch), "cpu words"
allnotes=re.findall(r"<text class=\"note\"[^>]*>([^<]*)</text>", h)
bad=[n for n in allnotes if re.search(r"\u00d7\s*0\.|0\.[0-9]+\u00d7|n/a|better|worse", n)]
assert not bad, bad
' "$T/r.html"
check "table: ratios in words with the interval, the exact ratio in data-ratio" python3 -c '
import html,re,sys
h=open(sys.argv[1]).read()
cells=re.findall(r"<td class=\"num\" data-ratio=\"([^\"]*)\">(.*?)</td>", h)
assert cells, "no ratio cells"
for r, t in cells:
    r=float(r); t=html.unescape(re.sub("<[^>]*>", "", t))
    m=re.match(r"(the same \(1\.00×\)|([0-9.]+)× ([a-zA-Z/ ]+?)) (\([0-9.]+–[0-9.]+\) )?(p[<=][0-9.]+ )?(better|worse|higher|lower|not significant|single run: not judged)$", t)
    assert m, t
    if m.group(2):
        x=float(m.group(2)); assert x>=1, t
        assert abs(x-(r if r>=1 else 1/r))/x < 0.01, (r, t)
        up=m.group(3) in ("faster","higher latency","more CPU/op","higher")
        assert up == (r>1), (r, t)
' "$T/r.html"
run "$FSGAUGE" report "$F/single-a.json" "$F/single-b.json" -o "$T/s.html"
check "single runs: bars and table say 'single run: not judged', never n/a" python3 -c '
import re,sys
h=open(sys.argv[1]).read()
assert "single run: not judged" in h
sec=h[h.index("id=\"compare\""):]
assert "n/a" not in re.sub(r"<p class=\"note\">.*?</p>", "", sec), "n/a in the table"
assert "n/a" not in "".join(re.findall(r"<text class=\"note\"[^>]*>([^<]*)</text>", h))
' "$T/s.html"
run "$FSGAUGE" report "$F/single-a.json" -o "$T/one.html"
[ "$rc" -eq 0 ] && ! grep -q 'id="compare"' "$T/one.html"
checked "report of one result: exit 0, no comparison table"
check "... and no verdict" sh -c "! grep -q 'id=\"verdict\"' '$T/one.html'"
check "report of one result without device figures: 5 bar charts" [ "$(grep -c 'data-chart="bar"' "$T/one.html")" -eq 5 ]
expect_fail "report into a missing directory: refused before reading, exit 2" 2 \
	"cannot write the report to '$T/no/such/r.html' \\(directory '$T/no/such'\\): No such file" \
	"$FSGAUGE" report "$F/ext4.json" -o "$T/no/such/r.html"
expect_fail "report of different workloads refused" 2 "different workloads" \
	"$FSGAUGE" report "$F/ext4.json" "$F/webserver.json" -o "$T/x.html"

# Headless Chromium renders it (Debian package chromium).
render() {
	ud=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$ud" --screenshot="$2" --window-size=1200,2000 \
		"file://$1" >"$T/chrome.log" 2>&1
}
if [ -x /usr/bin/chromium ]; then
	render "$T/r.html" "$T/r.png"
	check "chromium renders the report to a PNG" python3 -c '
import sys
b=open(sys.argv[1],"rb").read()
assert b[:8]==b"\x89PNG\r\n\x1a\n", "not a PNG"
w=int.from_bytes(b[16:20],"big"); h=int.from_bytes(b[20:24],"big")
assert (w,h)==(1200,2000), (w,h)
assert len(b)>20000, "suspiciously small: %d bytes"%len(b)
' "$T/r.png"
else
	ok "chromium renders the report to a PNG # SKIP /usr/bin/chromium absent (Debian package chromium)"
fi

# --- end to end: real results from `fsgauge run` ---------------------------------
mkdir "$T/a" "$T/b"
real_ok=1
for i in 1 2; do
	for side in a b; do
		"$FSGAUGE" run -d "$T/$side" -t 1 -s nfiles=50 -s nthreads=2 -q --label "$side" \
			--json "$T/real-$side$i.json" varmail >"$T/run.out" 2>&1 || real_ok=0
	done
done
if [ "$real_ok" -eq 1 ]; then
	run "$FSGAUGE" compare "$T"/real-a?.json "$T"/real-b?.json
	check "real results: compare exits 0" [ "$rc" -eq 0 ]
	check "real results: pooled into 2 runs each" [ "$(grep -c '(run varmail, 2 runs)' "$T/out")" -eq 2 ]
	check "real results: every flowop has a row" [ "$(grep -c ': ops/s' "$T/out")" -eq \
		"$(json "$T/real-a1.json" 'len(d["phases"][0]["operations"])')" ]
	check "real results: environment difference is the target" grep -Eq "^ +target +$T/a +$T/b" "$T/out"
	run "$FSGAUGE" report "$T"/real-a?.json "$T"/real-b?.json -o "$T/real.html"
	check "real results: report exits 0" [ "$rc" -eq 0 ]
	check "real results: report has error bars" grep -q 'class="err"' "$T/real.html"
	check "real results: a CDF per flowop" [ "$(grep -c 'data-chart="cdf"' "$T/real.html")" -eq \
		"$(json "$T/real-a1.json" 'len([o for o in d["phases"][0]["operations"] if o["ops"]])')" ]
else
	ok "real results # SKIP fsgauge run failed: $(head -c 200 "$T/run.out")"
fi

finish
