#!/bin/sh
# `fsgauge bonnie`: option parsing and every error (message, exit 2; the
# generated --help without the refused options, the one unrecognized and
# needs-an-argument style), every test at small scale with consistent
# counters in the JSON, the table and CSV layouts against
# tests/fixtures/bonnie-csv-*.txt, "+++++" for tests under half a second
# (the null engine makes every test that fast), -q/-x/-f/-b/-D/-u/-p/-y,
# chunk files, --verify (clean, and a flipped bit found in each reading
# test), nothing left behind, exit codes (the session's: 3 for a setup
# failure after measured runs).
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
fx="$(dirname "$0")/../fixtures"
B="$FSGAUGE bonnie"

# jcheck DESC WANT FILE EXPR: checks that a Python expression over the JSON
# document `d` in FILE prints as WANT; the checks are queued and evaluated
# by jflush in one python run (starting python per check is slow).
jn=0
jcheck() {
	jn=$((jn + 1))
	printf '%s\n%s\n%s\n%s\n' "$1" "$2" "$3" "$4" > "$T/jq.$jn"
}
jflush() {
	python3 - "$T" "$jn" > "$T/jq.out" <<'PY'
import json, sys
t, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    desc, want, path, expr = open("%s/jq.%d" % (t, i)).read().split("\n")[:4]
    try:
        d = json.load(open(path))
        v = eval(expr)
        got = str(v).lower() if isinstance(v, bool) else str(v)
    except Exception as e:
        got = "error: %s" % e
    print("%s\t%s\t%s" % ("1" if got == want else "0", desc, got))
PY
	while IFS='	' read -r good desc got; do
		if [ "$good" = 1 ]; then ok "$desc"; else not_ok "$desc"; echo "#   got: $got"; fi
	done < "$T/jq.out"
}

# --- option errors: a message and exit 2 -----------------------------------
expect_fail "unknown option" 2 "try 'fsgauge bonnie --help'" $B -d "$d" -K
expect_fail "stray argument" 2 "unexpected argument 'foo'" $B -d "$d" foo
expect_fail "-s junk" 2 "invalid -s size '12q'" $B -d "$d" -s 12q
expect_fail "-s chunk not a power of two" 2 "invalid -s chunk size '3000'" $B -d "$d" -s 8:3000
expect_fail "-s chunk too small" 2 "invalid -s chunk size '128'" $B -d "$d" -s 8:128
expect_fail "-s seeks 0" 2 "invalid -s number of seeks '0'" $B -d "$d" -s 8:8k:0
expect_fail "-s too many fields" 2 "invalid -s '8:8k:10:2:9'" $B -d "$d" -s 8:8k:10:2:9
expect_fail "-s not a multiple of the chunk" 2 "not a multiple of the chunk size" $B -d "$d" -r 0 -s 1000k:16k
expect_fail "-s below twice -r" 2 "less than twice the RAM \(64M\).*-r 0" $B -d "$d" -s 100 -r 64
expect_fail "-s below twice -r with units" 2 "file size 1024M is less than twice the RAM \(1024M\)" $B -d "$d" -s 1g -r 1g
expect_fail "-s and -n both 0" 2 "nothing to do" $B -d "$d" -s 0 -n 0
expect_fail "-n junk" 2 "invalid -n number 'x'" $B -d "$d" -n x
expect_fail "-n links" 2 "links instead of files\) is not supported" $B -d "$d" -n 1:-1
expect_fail "-n max below min" 2 "largest file size \(10\) is smaller than the smallest \(20\)" $B -d "$d" -s 0 -n 1:10:20
expect_fail "-n 0 directories" 2 "invalid -n number of directories '0'" $B -d "$d" -s 0 -n 1:0:0:0
expect_fail "-n more directories than files" 2 "2000 directories for 1024 files \\(at most 512" $B -d "$d" -s 0 -n 1:0:0:2000
expect_fail "-n chunk" 2 "invalid -n chunk size '100'" $B -d "$d" -s 0 -n 1:0:0:1:100
expect_fail "-f junk" 2 "invalid -f size 'zz'" $B -d "$d" -fzz
expect_fail "-f then a word that is not a size" 2 "unexpected argument 'zz'" $B -d "$d" -f zz
expect_fail "-f larger than -s" 2 "-f size .* is larger than the file size" $B -d "$d" -r 0 -s 8 -f 16
expect_fail "-x 0" 2 "invalid -x '0'" $B -d "$d" -x 0
expect_fail "-p junk" 2 "invalid -p 'x'" $B -d "$d" -p x
expect_fail "-p with -y" 2 "give one or the other" $B -d "$d" -p 2 -y
expect_fail "-y junk" 2 "invalid -y 'q'" $B -d "$d" -yq
expect_fail "-z junk" 2 "invalid -z 'abc'" $B -d "$d" -z abc
expect_fail "-r junk" 2 "invalid -r 'lots'" $B -d "$d" -r lots
expect_fail "--format junk" 2 "invalid --format '99'" $B -d "$d" --format 99
expect_fail "--csv junk" 2 "invalid --csv '2'" $B -d "$d" --csv 2
expect_fail "--engine junk" 2 "unknown engine 'nope'" $B -d "$d" --engine nope
expect_fail "--data junk" 2 "invalid data pattern 'ones'" $B -d "$d" --data ones
expect_fail "--reuse refused" 2 "--reuse does not apply to bonnie" $B -d "$d" --reuse
expect_fail "--progress refused" 2 "--progress does not apply to bonnie" $B -d "$d" --progress
expect_fail "--chunk-file junk" 2 "invalid --chunk-file 'x'" $B -d "$d" --chunk-file x
expect_fail "--chunk-file not a multiple of 4k" 2 "invalid --chunk-file '1000'" $B -d "$d" --chunk-file 1000
expect_fail "--chunk-file too small for the file" 2 "--chunk-file 4096 makes more than 100000 chunk files" $B -d "$d" -r 0 -s 1g --chunk-file 4k
expect_fail "--verify with the null engine (it stores nothing)" 2 "--verify needs an engine that stores data" $B -d "$d" -r 0 -s 8 --verify --engine null
expect_fail "--verify: a file size that is not whole 4k blocks" 2 "file size 1049600 is not a multiple of the chunk size 4096 \\(4k under --verify\\)" $B -d "$d" -r 0 -s 1025k:256 --verify
expect_fail "--repeat junk (the shared parser)" 2 "invalid --repeat '0'" $B -d "$d" --repeat 0
expect_fail "-u unknown user" 2 "unknown user 'no-such-user-x'" $B -d "$d" -r 0 -s 8 -u no-such-user-x
expect_fail "-g unknown group" 2 "unknown group 'no-such-group-x'" $B -d "$d" -r 0 -s 8 -g no-such-group-x
expect_fail "-d missing" 2 "cannot use target directory '$d/missing'" $B -d "$d/missing" -r 0 -s 8 -n 0
expect_fail "-y without semaphores" 2 "cannot use semaphore set 0x" $B -d "$d" -r 0 -s 8 -n 0 -y --sem-key 0x7f3a0001
for k in 12q -5 0 0x 0x100000000 4294967296 " 7" ""; do
	expect_fail "--sem-key '$k': refused" 2 \
		"invalid --sem-key '$k' \\(expected a System V key from 1 to 0xffffffff" \
		$B -d "$d" -r 0 -s 8 -n 0 -y --sem-key "$k"
done
expect_fail "--sem-key 4294967295 (0xffffffff) is a valid key" 2 "cannot use semaphore set 0xffffffff" \
	$B -d "$d" -r 0 -s 8 -n 0 -y --sem-key 4294967295
run $B -d "$d" -r 0 -s 0 -n 1 -y p --engine null </dev/null
check "-y p with stdin at its end: runs without waiting, exit 0" [ "$rc" -eq 0 ]
check "  warns once that stdin is at its end" \
	[ "$(grep -c "^fsgauge: warning: -y p: stdin is at its end, so the tests no longer wait for Enter" "$T/err")" = 1 ]
check "  prompts once only" [ "$(grep -c "press Enter to start" "$T/err")" = 1 ]
check "  and is not reported as interrupted" sh -c "! grep -q interrupted '$T/err'"
check "  every file test ran" [ "$(grep -c '^Delete files in' "$T/err")" = 2 ]
printf '\n\n' | $B -d "$d" -r 0 -s 0 -n 1 -y p --engine null >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c "press Enter to start" "$T/err")" = 3 ] &&
	[ "$(grep -c "stdin is at its end" "$T/err")" = 1 ]
checked "-y p with two Enters then the end: exit 0, three prompts, one warning"
run $B --help
check "--help exits 0 and describes -s" sh -c "[ $rc -eq 0 ] && grep -q -- '-s SIZE' '$T/out'"
# generated from the options bonnie accepts: the refused ones are not
# listed, -q is listed once (bonnie++'s quiet), and so are -D and -x
check "--help lists no refused option (--reuse, --progress)" sh -c "! grep -Eq -- '--(reuse|progress)' '$T/out'"
check "--help lists -q once, as --quiet too" [ "$(grep -Ec -- '^ +-q' "$T/out")" = 1 ]
check "--help: -q is bonnie++'s quiet" grep -Eq -- '^  -q, --quiet +quiet: the CSV line alone' "$T/out"
check "--help: -D is --direct" grep -Eq -- '^  -D, --direct +O_DIRECT for the block tests' "$T/out"
expect_fail "--reuse refused: its message, exit 2, nothing else" 2 "^fsgauge: --reuse does not apply to bonnie: every run makes its own files$" $B -d "$d" --reuse
expect_fail "--progress=always refused: its message, exit 2" 2 "^fsgauge: --progress does not apply to bonnie: it prints bonnie\+\+'s progress lines \(-q to silence them\)$" $B -d "$d" --progress=always
expect_fail "unknown option: the one message style" 2 "^fsgauge bonnie: unrecognized option '-K' \(try 'fsgauge bonnie --help'\)$" $B -d "$d" -K
expect_fail "unknown long option (--seed is -z here): the one message style" 2 "^fsgauge bonnie: unrecognized option '--seed' \(try 'fsgauge bonnie --help'\)$" $B -d "$d" --seed 3
expect_fail "-s without its argument: the one message style" 2 "^fsgauge bonnie: option '-s' needs an argument \(try 'fsgauge bonnie --help'\)$" $B -d "$d" -s
expect_fail "--json without its argument: the one message style" 2 "^fsgauge bonnie: option '--json' needs an argument \(try 'fsgauge bonnie --help'\)$" $B -d "$d" --json
check "errors leave nothing behind" empty_dir "$d"

# --- every test, small, on this file system --------------------------------
run $B -d "$d" -r 0 -s 8 -n 1:2048:1024:4 -m small --json "$T/a.json" --label small
check "small run exits 0" [ "$rc" -eq 0 ]
check "nothing left behind" empty_dir "$d"
check "progress on stderr, bonnie++'s words" grep -q "^Writing intelligently...done" "$T/err"
check "1.03 table header" grep -q "^Version  1.03       ------Sequential Output------ --Sequential Input- --Random-$" "$T/out"
check "1.03 machine line: name, size" grep -Eq "^small {12}8M " "$T/out"
check "1.03 files line" grep -Eq "^ {6}1:2048:1024/4 " "$T/out"
csv=$(grep '^small,' "$T/out")
check "1.03 CSV line: 27 fields as the fixture lists" [ "$(echo "$csv" | awk -F, '{print NF}')" = "$(grep -v '^#' "$fx/bonnie-csv-103.txt" | head -1 | awk -F, '{print NF}')" ]
check "1.03 CSV: name, size, then files at field 15" sh -c "echo '$csv' | awk -F, '\$1==\"small\" && \$2==\"8M\" && \$15==\"1:2048:1024/4\" {ok=1} END {exit !ok}'"
# Every JSON figure at once (one python start, not one per check):
# `v NAME` is the value of the expression named NAME below.
python3 - "$T/a.json" > "$T/a.vals" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in d["phases"]}
def op(p, o): return [x for x in ph[p]["operations"] if x["name"] == o][0]
M8 = 8388608
v = {
 "meta": d["status"]["complete"] and d["label"] == "small" and d["suite"] == "bonnie",
 "phases": ",".join(p["name"] for p in d["phases"]),
 "putc_bytes": op("putc", "putc")["bytes_written"], "putc_ops": op("putc", "putc")["ops"],
 "pb_bytes": op("put_block", "write")["bytes_written"], "pb_ops": op("put_block", "write")["ops"],
 "pb_fsync": op("put_block", "fsync")["ops"],
 "rw": op("rewrite", "rewrite")["bytes_read"] == op("rewrite", "rewrite")["bytes_written"] == M8,
 "getc_bytes": op("getc", "getc")["bytes_read"], "gb_bytes": op("get_block", "read")["bytes_read"],
 "seeks": op("seeks", "seek")["ops"] == 8192 and ph["seeks"]["threads"] == 5,
 "seek_w": op("seeks", "seek")["bytes_written"], "seek_r": op("seeks", "seek")["bytes_read"],
 "p99": op("seeks", "seek")["latency_us"]["p99"] > 0,
 "cpu": all("user_seconds" in p["process_cpu"] for p in d["phases"]),
 "params": d["parameters"]["file_size"] == "8388608" and d["parameters"]["files"] == "1024",
 "metric": abs(ph["put_block"]["metrics"]["bonnie_kib_per_sec"]["value"] - M8 / 1024 / ph["put_block"]["seconds"]) < 1e-3,
 "units": all((p["metrics"].get("bonnie_kib_per_sec", {}).get("unit"), p["metrics"].get("bonnie_per_sec", {}).get("unit")) ==
              (("K/sec", None) if p["name"] in ("putc", "put_block", "rewrite", "getc", "get_block") else (None, "/sec"))
              for p in d["phases"] if p["name"] != "remove_data"),
 "cp": abs(ph["put_block"]["metrics"]["bonnie_cpu"]["value"] - 100 * (ph["put_block"]["process_cpu"]["user_seconds"] + ph["put_block"]["process_cpu"]["system_seconds"]) / ph["put_block"]["seconds"]) < 1e-3,
}
for t in ("seq", "ran"):
    c, s_, x = t + "_create", t + "_stat", t + "_del"
    v[t + "_created"] = op(c, "file.create")["ops"]
    v[t + "_same"] = op(c, "file.create")["ops"] == op(x, "file.delete")["ops"]
    v[t + "_stat"] = op(s_, "file.stat")["ops"] == 1024 and op(s_, "file.read")["bytes_read"] == op(c, "file.write")["bytes_written"]
    v[t + "_sizes"] = 1024 * 1024 <= op(c, "file.write")["bytes_written"] <= 1024 * 2048
for k, x in v.items():
    print("%s=%s" % (k, str(x).lower() if isinstance(x, bool) else x))
PY
v() { sed -n "s/^$1=//p" "$T/a.vals"; }
M8=8388608
check "json: complete, label, suite" [ "$(v meta)" = true ]
check "json: the twelve tests and remove_data, in bonnie++'s order" [ "$(v phases)" = "putc,put_block,rewrite,getc,get_block,seeks,remove_data,seq_create,seq_stat,seq_del,ran_create,ran_stat,ran_del" ]
check "putc: characters = file size" [ "$(v putc_bytes)" = $M8 ]
check "putc: one operation per 8k buffer" [ "$(v putc_ops)" = 1024 ]
check "put_block: bytes written = file size" [ "$(v pb_bytes)" = $M8 ]
check "put_block: 8k writes" [ "$(v pb_ops)" = 1024 ]
check "put_block: fsync before close" [ "$(v pb_fsync)" = 1 ]
check "rewrite: reads and writes the whole file" [ "$(v rw)" = true ]
check "getc: characters = file size" [ "$(v getc_bytes)" = $M8 ]
check "get_block: bytes read = file size" [ "$(v gb_bytes)" = $M8 ]
check "seeks: 8192 seeks by 5 threads" [ "$(v seeks)" = true ]
check "seeks: every tenth block of each seeker written back" [ "$(v seek_w)" = $((5 * 164 * 8192)) ]
check "seeks: a block read per seek" [ "$(v seek_r)" = $((8192 * 8192)) ]
for t in seq ran; do
	check "${t}_create: 1024 files" [ "$(v ${t}_created)" = 1024 ]
	check "${t}_create: files created = deleted" [ "$(v ${t}_same)" = true ]
	check "${t}_stat: every file stat'ed once and read" [ "$(v ${t}_stat)" = true ]
	check "${t}_create: sizes between min and max" [ "$(v ${t}_sizes)" = true ]
done
check "json: per-test latency percentiles" [ "$(v p99)" = true ]
check "json: CPU of each phase" [ "$(v cpu)" = true ]
check "json: parameters" [ "$(v params)" = true ]
check "json: K/sec = bytes / 1024 / seconds (metric bonnie_kib_per_sec)" [ "$(v metric)" = true ]
check "json: one unit per metric: bonnie_kib_per_sec (K/sec) for the I/O tests, bonnie_per_sec (/sec) for seeks and files" [ "$(v units)" = true ]
check "json: %CP = process CPU / elapsed (metric bonnie_cpu)" [ "$(v cp)" = true ]

# --- +++++ for tests under half a second, never a number --------------------
# The null engine makes the tests take milliseconds; whatever the machine's
# load, each test's columns must be +++++ exactly when its phase took
# under 0.5 s, and a number otherwise.
run $B -d "$d" -r 0 -s 8 -n 2:4096:0:2 --engine null -m fast --json "$T/n.json"
check "null engine run exits 0" [ "$rc" -eq 0 ]
grep '^fast,' "$T/out" > "$T/n.csv"
python3 - "$T/n.json" "$T/n.csv" > "$T/n.vals" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = open(sys.argv[2]).read().strip().split(",")
secs = {p["name"]: p["seconds"] for p in d["phases"]}
# 1.03 CSV: name, size, 6 x (rate, cpu), files, 6 x (rate, cpu)
cols = [2, 4, 6, 8, 10, 12, 15, 17, 19, 21, 23, 25]
names = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
bad, fast = [], 0
for n, c in zip(names, cols):
    plus = f[c] == "+++++" and f[c + 1] == "+++"
    num = f[c].replace(".", "").isdigit() and f[c + 1].isdigit()
    fast += plus
    if (secs[n] < 0.5 and not plus) or (secs[n] >= 0.5 and not num):
        bad.append("%s %.3fs %s,%s" % (n, secs[n], f[c], f[c + 1]))
print("bad=" + ";".join(bad))
print("fast=%d" % fast)
PY
check "+++++ exactly for the tests under 0.5 s ($(sed -n 's/^bad=//p' "$T/n.vals"))" [ -z "$(sed -n 's/^bad=//p' "$T/n.vals")" ]
check "+++++ appears (null engine tests are fast)" [ "$(sed -n 's/^fast=//p' "$T/n.vals")" -gt 0 ]
check "no number next to a +++++ in the table" sh -c "! grep -Eq '\+\+\+\+\+ +[0-9]' '$T/out'"
check "+++++ in the files line" grep -Eq "^ +2:4096:0/2 .*\+\+\+\+\+ \+\+\+" "$T/out"
run $B -d "$d" -r 0 -s 8 -n 2 --engine null -m fast --format 19
check "1.9x: a latency row" grep -q '^Latency  ' "$T/out"
check "1.9x: both tables say Version 1.98, the CSV line 1.98" sh -c \
	"[ \$(grep -c '^Version  1.98  ' '$T/out') -eq 2 ] && grep -q '^1\.98,fsgauge,fast,' '$T/out' && ! grep -q '^Version  1\.97' '$T/out'"
run $B -d "$d" -r 0 -s 8 -n 2 --engine null -m fast --format 19 --csv 197
check "1.9x --csv 197: both tables say Version 1.97, the CSV line 1.97" sh -c \
	"[ \$(grep -c '^Version  1.97  ' '$T/out') -eq 2 ] && grep -q '^1\.97,fsgauge,fast,' '$T/out' && ! grep -q '^Version  1\.98' '$T/out'"
check "1.9x: no number next to a +++++" sh -c "grep -q '+++++ +++' '$T/out' && ! grep -Eq '\+\+\+\+\+ +[0-9]' '$T/out'"
run $B -d "$d" -r 0 -s 8 -n 0 --engine null -m fast --format 64
check "bonnie-64: its header, a line for the machine, no CSV" sh -c "grep -q '^Machine    GB M/sec %CPU' '$T/out' && grep -q '^fast     0.01 ' '$T/out' && ! grep -q , '$T/out'"
check "bonnie-64: +++++ ++++ for fast tests, no number after" sh -c "grep -q '+++++ ++++' '$T/out' && ! grep -Eq '\+\+\+\+\+ +[0-9]' '$T/out'"

# --- CSV formats against the fixtures ---------------------------------------
run $B -d "$d" -r 0 -s 8 -n 1 --engine null -x 2 --csv 197 -m twice --json "$T/x.json"
check "-x 2 exits 0" [ "$rc" -eq 0 ]
check "-x 2 --csv 197: header line equals the fixture's" [ "$(head -1 "$T/out")" = "$(grep -v '^#' "$fx/bonnie-csv-197.txt" | head -1)" ]
check "-x 2: two CSV lines of 48 fields, no table" [ "$(tail -n +2 "$T/out" | awk -F, 'NF==48 && $1=="1.97" && $3=="twice"' | wc -l)" = 2 ] 
check "-x 2: no table" sh -c "! grep -q Version '$T/out'"
jcheck "-x 2: both runs in the JSON, as repeats of each test" "1 2" "$T/x.json" '"%d %d" % (len([p for p in d["phases"] if p["name"]=="put_block"]), len([p for p in d["phases"] if p["name"]=="put_block"][0]["repeats"]))'
jcheck "-x 2: bonnie++'s figures as metrics" "K/sec %" "$T/x.json" '"%s %s" % tuple(m["unit"] for p in d["phases"] if p["name"]=="put_block" for k, m in sorted(p["metrics"].items()) if k in ("bonnie_kib_per_sec", "bonnie_cpu"))[::-1]'
jcheck "-x 2: each metric keeps both runs' values and is their mean, with repeat statistics" "ok" "$T/x.json" '"ok" if all(len(m["runs"]) == 2 and m["n"] == 2 and abs(m["value"] - sum(m["runs"]) / 2) <= 1e-9 * max(1, abs(m["value"])) and "ci95_low" in m for p in d["phases"] if p["name"] in ("put_block", "create_seq") for m in p["metrics"].values()) and any(p["metrics"] for p in d["phases"]) else "no"'
run $B -d "$d" -r 0 -s 8 -n 1 --engine null -x 2 --format 19 -m twice
check "--format 19 -x 2: 1.98 header equals the fixture's" [ "$(head -1 "$T/out")" = "$(grep -v '^#' "$fx/bonnie-csv-198.txt" | head -1)" ]
check "1.98 lines have 50 fields" [ "$(tail -n +2 "$T/out" | awk -F, 'NF==50 && $1=="1.98"' | wc -l)" = 2 ]
if command -v bon_csv2txt >/dev/null 2>&1; then
	tail -1 "$T/out" | bon_csv2txt > "$T/b2t" 2>"$T/b2t.err"
	check "Debian's bon_csv2txt reads the 1.98 line" sh -c "grep -q twice '$T/b2t' && ! grep -q Expected '$T/b2t.err'"
else
	ok "# SKIP bon_csv2txt not installed"
fi

# --- -q, -f, -b, -D -----------------------------------------------------------
run $B -d "$d" -r 0 -s 8 -n 0 -q -m quiet
check "-q: stdout is the CSV line alone" [ "$(cat "$T/out")" = "$(grep '^quiet,' "$T/out")" ]
check "-q: the table on stderr, no progress" sh -c "grep -q '^Version  1.03' '$T/err' && ! grep -q 'Writing' '$T/err'"
run $B -d "$d" -r 0 -s 8 -n 0 -f --json "$T/f.json"
jcheck "-f: no per-character tests" "put_block,rewrite,get_block,seeks,remove_data" "$T/f.json" '",".join(p["name"] for p in d["phases"])'
check "-f: blank per-character columns" grep -Eq "^vm|^[^ ]+ +8M {11}[0-9+]" "$T/out"
run $B -d "$d" -r 0 -s 8 -n 0 -f 4 --json "$T/f4.json"
jcheck "-f 4: per-character tests on 4 MiB" 4194304 "$T/f4.json" '[o["bytes_written"] for p in d["phases"] if p["name"]=="putc" for o in p["operations"] if o["name"]=="putc"][0]'
run $B -d "$d" -r 0 -s 1:8k:100 -n 0 -b -f --json "$T/b.json"
check "-b runs (O_DSYNC writes)" [ "$rc" -eq 0 ]
jcheck "-b: the block tests open the data file O_DSYNC" "put_block rewrite get_block seeks" "$T/b.json" \
	'" ".join(p["name"] for p in d["phases"] if "O_DSYNC" in p["open_flags"])'
jcheck "-s size:chunk:seeks: 100 seeks" 100 "$T/b.json" '[o["ops"] for p in d["phases"] if p["name"]=="seeks" for o in p["operations"] if o["name"]=="seek"][0]'
# -b on the file tests, as bonnie++: each created file fsynced, then its
# directory; the directory after each delete (bonnie++ 2.00a makes 6144
# fsync calls for -n 1 -b, strace -c)
run $B -d "$d" -r 0 -s 0 -n 1 -b --json "$T/bn.json"
check "-b -n 1 runs" [ "$rc" -eq 0 ]
jcheck "-b -n 1: bonnie++'s 6144 fsync calls" 6144 "$T/bn.json" 'd["io_requests"]["fsync"]'
jcheck "create and delete tests end with a syncfs, as bonnie++'s with sync()" \
	"seq_create seq_del ran_create ran_del" "$T/bn.json" \
	'" ".join(p["name"] for p in d["phases"] for o in p["operations"] if o["name"]=="syncfs" and o["ops"]==1)'
jcheck "-b -n 1: an fsync per created file, in both create tests" "1024 1024" "$T/bn.json" \
	'" ".join(str(o["ops"]) for p in d["phases"] if p["name"].endswith("_create") for o in p["operations"] if o["name"]=="file.fsync")'
# sequential stat and delete take the files as their directory lists
# them (bonnie++: readdir()), the random ones in a shuffled order
jcheck "sequential stat and delete read the directory (getdents), random ones do not" \
	"seq_stat seq_del" "$T/bn.json" \
	'" ".join(p["name"] for p in d["phases"] if p["io_requests"].get("getdents", 0) > 0)'
if dd if=/dev/zero of="$d/direct-probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
	rm -f "$d/direct-probe"
	run $B -d "$d" -r 0 -s 8:8k:500 -n 0 -D -f --json "$T/D.json"
	check "-D runs (O_DIRECT block tests)" [ "$rc" -eq 0 ]
	jcheck "-D recorded" true "$T/D.json" 'd["parameters"]["direct"]=="true"'
else
	rm -f "$d/direct-probe"
	ok "# SKIP O_DIRECT not supported in $d"
fi
check "nothing left behind after -q/-f/-b/-D" empty_dir "$d"

# --- a file over 1 GiB is split in 1 GiB chunk files, as bonnie++ does -------
run $B -d "$d" -r 0 -s 2560 -n 0 -f --engine null --json "$T/c.json"
check "-s 2560 (three chunk files) exits 0" [ "$rc" -eq 0 ]
jcheck "-s 2560: block write wrote it all" 2684354560 "$T/c.json" '[o["bytes_written"] for p in d["phases"] if p["name"]=="put_block" for o in p["operations"] if o["name"]=="write"][0]'
check "-s 2560: table shows 2560M" grep -Eq " 2560M " "$T/out"

# --- -u: become another user (root only) ------------------------------------
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	mkdir "$T/open" && chmod 1777 "$T/open"
	run $B -d "$T/open" -r 0 -s 1:8k:100 -n 0 -f -u nobody
	check "-u nobody: runs as nobody" sh -c "[ $rc -eq 0 ] && grep -q '^Using uid:$(id -u nobody), gid:' '$T/err'"
	check "-u nobody: nothing left behind" empty_dir "$T/open"
	expect_fail "-u nobody in a directory nobody cannot write" 2 "cannot write in target directory" $B -d "$d" -r 0 -s 8 -n 0 -u nobody
else
	ok "# SKIP -u needs root and a 'nobody' user"
	ok "# SKIP -u needs root"
	ok "# SKIP -u needs root"
fi

# --- -p/-y: instances start each test together --------------------------------
key=$(( 0x7f3a0000 + $$ % 4096 ))
run $B -p 2 --sem-key $key
check "-p 2 creates the semaphores" [ "$rc" -eq 0 ]
$B -d "$d" -r 0 -s 8 -n 1 -f --engine null -y s --sem-key $key -m one > "$T/y1" 2>&1 &
p1=$!
$B -d "$d" -r 0 -s 8 -n 1 -f --engine null -y --sem-key $key -m two > "$T/y2" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ]
checked "-y: two instances both complete"
check "-y: both print their CSV line" sh -c "grep -q '^one,' '$T/y1' && grep -q '^two,' '$T/y2'"
run $B -p -1 --sem-key $key
check "-p -1 removes the semaphores" [ "$rc" -eq 0 ]
expect_fail "-p -1 twice" 3 "cannot remove semaphore set" $B -p -1 --sem-key $key

# A setup failure after tests were measured is the session's exit code,
# as for every suite: 3 (system error) with the figures kept; bonnie's
# own loop said 0.  -p 1 lets each test start once: -x 2's second run
# waits on its first test until the set is removed under it (EIDRM).
run $B -p 1 --sem-key $key
check "-p 1 creates the semaphores" [ "$rc" -eq 0 ]
$B -d "$d" -r 0 -s 8 -n 0 -f --engine null -y s --sem-key $key -x 2 -m gone --json "$T/gone.json" \
	> "$T/g.out" 2> "$T/g.err" &
pg=$!
i=0
while [ "$(grep -c '^gone,' "$T/g.out" 2>/dev/null)" != 1 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.3 # the second run is waiting on its first test
$B -p -1 --sem-key $key >/dev/null 2>&1
wait $pg; rg=$?
check "semaphores removed during -x 2: exit 3, the wait's error named" \
	sh -c "[ $rg -eq 3 ] && grep -q 'cannot wait on semaphore set' '$T/g.err'"
check "semaphores removed during -x 2: the first run's CSV line and JSON kept" \
	sh -c "[ \$(grep -c '^gone,' '$T/g.out') = 1 ] && [ -s '$T/gone.json' ]"
check "semaphores removed during -x 2: nothing left behind" empty_dir "$d"

# --- an I/O error: exit 1, the failed test blank, nothing left behind --------
# (ENOSPC on the 200th create; a real full file system is refused by the
# preflight below)
run $B -d "$d" -r 0 -s 0 -n 1 -m full --json "$T/e.json" \
	--engine "faulty:psync:op=open,nth=200,err=ENOSPC"
check "ENOSPC: exit 1" [ "$rc" -eq 1 ]
check "ENOSPC: the error names the file and the cause" grep -q "create 'files/f[0-9]*': No space left on device" "$T/err"
check "ENOSPC: the failed test is blank, not a number or +++++" grep -q "^full,,,,,,,,,,,,,,1,,,,,,,,,,,,$" "$T/out"
check "ENOSPC: nothing left behind" empty_dir "$d"
jcheck "ENOSPC: JSON counts the error, stopped" "true 1" "$T/e.json" '"%s %d" % (str(d["status"]["stopped_on_error"]).lower(), d["status"]["errors"])'

# --- preflight: more files than free inodes (a tmpfs with room for 200
# inodes: -n 1 makes 1024 files) is refused before anything is created
# (unmounted at exit whatever happens, before lib.sh removes $T)
trap 'umount "$T/small" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
if [ "$(id -u)" = 0 ] && mkdir "$T/small" && mount -t tmpfs -o size=16m,nr_inodes=200 tmpfs "$T/small" 2>/dev/null; then
	expect_fail "more files than free inodes: refused, exit 2, with the figures" 2 \
		"^fsgauge: not enough free inodes for the tests: 1026 needed, '$T/small' has 19[0-9] free; use fewer files \(-n\)" \
		$B -d "$T/small" -r 0 -s 0 -n 1 -m full
	check "  nothing created" empty_dir "$T/small"
	umount "$T/small"
else
	for i in 1 2; do ok "# SKIP inode preflight test needs root and a tmpfs mount"; done
fi

# --- injected faults (the faulty engine): an EIO ends the run with exit 1;
# short transfers are continued and every count stays exact
run $B -d "$d" -r 0 -s 8 -n 0 -f -m bad --engine "faulty:psync:op=write,nth=100,err=EIO"
check "EIO on the 100th write: exit 1" [ "$rc" -eq 1 ]
check "EIO: names the operation, the file and the cause" grep -q "write 'Bonnie.000': Input/output error" "$T/err"
check "EIO: block write left blank" grep -q "^bad,8M,,,,,," "$T/out"
check "EIO: nothing left behind" empty_dir "$d"
run $B -d "$d" -r 0 -s 8 -n 1:4096 -f -m short --json "$T/s.json" --engine "faulty:psync:op=write,after=0,err=short"
check "short writes everywhere: exit 0" [ "$rc" -eq 0 ]
jcheck "short writes: block write still wrote the whole file" 8388608 "$T/s.json" '[o["bytes_written"] for p in d["phases"] if p["name"]=="put_block" for o in p["operations"] if o["name"]=="write"][0]'
jcheck "short writes: more write requests than writes" true "$T/s.json" '[p["io_requests"]["write"] > 1024 for p in d["phases"] if p["name"]=="put_block"][0]'

# --- --verify: every block written is stamped, every block read checked ------
# The data file in 1 MiB chunk files (--chunk-file), so that the chunk
# mapping is checked too; the same counts as without --verify.
run $B -d "$d" -r 0 -s 8 -n 1:10000:1000:2 --verify --chunk-file 1m -m ver --json "$T/v.json"
check "--verify: every test runs clean (exit 0)" [ "$rc" -eq 0 ]
check "--verify: nothing left behind" empty_dir "$d"
jcheck "--verify: 0 verify errors, recorded with the chunk file size" "0 true 1048576" "$T/v.json" '"%d %s %s" % (d["status"]["verify_errors"], d["parameters"]["verify"], d["parameters"]["chunk_file_size"])'
jcheck "--verify: the data file is opened as its 8 chunk files" "8 8 8 40" "$T/v.json" '" ".join(str(p["io_requests"]["open"]) for p in d["phases"] if p["name"] in ("rewrite", "getc", "get_block", "seeks"))'
jcheck "--verify: each test moved the whole file" "8388608 8388608 8388608 8388608 8388608" "$T/v.json" '" ".join(str(o["bytes_written"] or o["bytes_read"]) for p in d["phases"] for o in p["operations"] if (p["name"], o["name"]) in (("putc", "putc"), ("put_block", "write"), ("rewrite", "rewrite"), ("getc", "getc"), ("get_block", "read")))'
jcheck "--verify: seeks read a block each, every tenth written back" "true" "$T/v.json" '[(o["bytes_read"], o["bytes_written"]) for p in d["phases"] if p["name"]=="seeks" for o in p["operations"] if o["name"]=="seek"][0] == (8192 * 8192, 5 * 164 * 8192)'
jcheck "--verify: created files are whole 4 KiB blocks, all read back" "true" "$T/v.json" '[o["bytes_written"] for p in d["phases"] if p["name"]=="seq_create" for o in p["operations"] if o["name"]=="file.write"][0] == [o["bytes_read"] for p in d["phases"] if p["name"]=="seq_stat" for o in p["operations"] if o["name"]=="file.read"][0] and 1024 * 4096 <= [o["bytes_written"] for p in d["phases"] if p["name"]=="seq_create" for o in p["operations"] if o["name"]=="file.write"][0] <= 1024 * 12288'
run $B -d "$d" -r 0 -s 4:256 -n 1:2048:0:1:512 -f 1 --verify -m small --json "$T/v256.json"
check "--verify with 256-byte blocks: exit 0" [ "$rc" -eq 0 ]
check "  says the blocks are 4096 bytes instead" grep -q "note: --verify checks whole 4 KiB blocks: the I/O tests use blocks of 4096 bytes, not 256" "$T/err"
check "  and the created files' writes" grep -q "are written 4096 bytes at a time, not 512" "$T/err"
jcheck "  1024 block writes of 4096 bytes, 256 putc buffers" "1024 4194304 256 4096 0" "$T/v256.json" '"%d %d %d %s %d" % tuple([o["ops"] for p in d["phases"] if p["name"]=="put_block" for o in p["operations"] if o["name"]=="write"] + [o["bytes_written"] for p in d["phases"] if p["name"]=="put_block" for o in p["operations"] if o["name"]=="write"] + [o["ops"] for p in d["phases"] if p["name"]=="putc" for o in p["operations"] if o["name"]=="putc"] + [d["parameters"]["chunk_size"], d["status"]["verify_errors"]])'
check "  table shows the 4k blocks" grep -Eq "^small +4M:4k " "$T/out"
# A bit flipped in the middle of the Nth read (the faulty engine): counted
# from the reads of -s 8 (1024 per test: rewrite, getc, get_block, then
# the seeks), the middle byte of an 8k read is the second block's header.
# TEST N OFFSET: the logical offset (N-1-first)*8192+4096 lies in chunk
# file Bonnie.003 of 1 MiB ones; the CSV field of the test is blank.
for spec in "rewrite 500 946176 4091904 7" "getc 1500 749568 3895296 9" "get_block 2500 552960 3698688 11"; do
	set -- $spec
	run $B -d "$d" -r 0 -s 8 -n 1 --verify --chunk-file 1m -m bad --json "$T/vc$2.json" \
		--engine "faulty:psync:op=read,nth=$2,err=corrupt"
	check "--verify, $1: a flipped bit exits 1" [ "$rc" -eq 1 ]
	check "  named with chunk file and offsets" grep -q "verify error: 'Bonnie.003' at offset $3 ($4 in the chunked file): expected a verify header" "$T/err"
	check "  said at the end" grep -q "1 blocks failed verification, 0 operation errors; first: verify 'Bonnie.003'" "$T/err"
	f=$5 fn=$(($5 + 2)) fp=$(($5 - 2))
	check "  the test is blank, the next ones not run" sh -c "grep '^bad,' '$T/out' | awk -F, '\$$f == \"\" && \$$fn == \"\" && \$$fp != \"\" {ok = 1} END {exit !ok}'"
	check "  nothing left behind" empty_dir "$d"
	jcheck "  counted, stopped" "1 true" "$T/vc$2.json" '"%d %s" % (d["status"]["verify_errors"], str(d["status"]["stopped_on_error"]).lower())'
done
# the seeks (random, five threads; 4k blocks: reads 6145 on are the
# seekers'), the middle byte of a 4k read is in the content: checksum
run $B -d "$d" -r 0 -s 8:4k -n 0 --verify --chunk-file 1m -m bad --engine "faulty:psync:op=read,nth=7000,err=corrupt"
check "--verify, seeks: a flipped bit exits 1" [ "$rc" -eq 1 ]
check "  found by the checksum, in a chunk file" grep -Eq "verify error: 'Bonnie.00[0-7]' at offset [0-9]+ \([0-9]+ in the chunked file\): expected checksum 0x" "$T/err"
# the files of the create tests, read back by the stat tests
run $B -d "$d" -r 0 -s 0 -n 1:8192:4096 --verify -m bad --engine "faulty:psync:op=read,nth=100,err=corrupt"
check "--verify, stat with sizes: a flipped bit in a created file exits 1" [ "$rc" -eq 1 ]
check "  named with the file and offset" grep -Eq "verify error: 'files/f[0-9]+' at offset (0|4096): expected" "$T/err"
check "--verify: nothing left behind after the errors" empty_dir "$d"
run $B -d "$d" -r 0 -s 8 -n 0 --chunk-file 1m -m bad --engine "faulty:psync:op=read,nth=500,err=corrupt"
check "without --verify the same flipped bit goes unseen (exit 0)" [ "$rc" -eq 0 ]

# --- SIGINT: partial results, exit 130, nothing left behind ------------------
spawn "$T/iout" "$T/ierr" $B -d "$d" -r 0 -s 4096 -n 0 --engine null --json "$T/i.json"
check "SIGINT: the run got going" wait_for "$T/ierr" '^Writing'
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
check "SIGINT: says so" grep -q "interrupted" "$T/ierr"
jcheck "SIGINT: JSON marked interrupted" true "$T/i.json" 'd["status"]["interrupted"]'
check "SIGINT: nothing left behind" empty_dir "$d"

# --keep: the run directory and its marker stay, and stderr names them
run $B -d "$d" -r 0 -s 8 -n 0 --engine null --keep
check "--keep: exit 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "--keep: says which directory it kept" [ "${kept%/*}" = "$d" ]
check "--keep: the directory is there, marked" [ -f "$kept/.fsgauge-run" ]
rm -rf "$kept"
jflush
finish
