#!/bin/sh
# `fsgauge iozone`: every -i test at small scale in throughput and
# single-stream mode with byte counts as requested; what -o, -+D, -I, -c
# and -e change, as the engine recorded it; stonewalling; the report's
# layout, parsed; the CSV spreadsheet; option errors; nothing left behind
# unless -w; SIGINT.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

# JSON checks are batched (one python for all of them, python starts
# slowly on a busy machine): jcheck DESC FILE EXPR queues an expression
# over the result `d` of FILE, with helpers ph(name) (a phase), op(phase,
# name) (its operations of that name), tbytes/tops(phase, i) (thread i's
# record bytes and operations) and flags(phase) (its sync/direct flags);
# jcheck_run evaluates the queue and prints the TAP lines.
jcheck() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$T/checks.tsv"
}

jcheck_run() {
	python3 - "$T/checks.tsv" >"$T/checks.out" <<'PY'
import json, sys
files = {}
def load(f):
	if f not in files:
		files[f] = json.load(open(f))
	return files[f]
for line in open(sys.argv[1]):
	desc, f, expr = line.rstrip("\n").split("\t")
	try:
		d = load(f)
		def ph(n): return [p for p in d["phases"] if p["name"] == n][0]
		def op(p, n): return [o for o in p["operations"] if o["name"] == n]
		def tbytes(p, i): return sum(o["bytes_read"] + o["bytes_written"] for o in p["operations"] if o["name"].startswith("t%d." % i))
		def tops(p, i): return sum(o["ops"] for o in p["operations"] if o["name"].startswith("t%d." % i) and o["class"] != "other")
		def flags(p): return sorted(set(p["open_flags"]) & {"O_SYNC", "O_DSYNC", "O_DIRECT"})
		r = eval(expr)
		why = "" if r is True else "got %r" % (r,)
	except Exception as e:
		r, why = False, "%s: %s" % (type(e).__name__, e)
	print("%d\t%s\t%s" % (r is True, desc, why))
PY
	while IFS='	' read -r res desc why; do
		if [ "$res" = 1 ]; then ok "$desc"; else not_ok "$desc"; echo "#   $why"; fi
	done <"$T/checks.out"
}

all_i="-i 0 -i 1 -i 2 -i 3 -i 4 -i 5 -i 6 -i 7 -i 8 -i 9 -i 10"

# --- throughput mode, every test, no stonewalling: exact byte counts
run "$FSGAUGE" iozone -t 2 -s 2m -r 64k -x $all_i --dir "$d" --json "$T/tp.json"
check "throughput, all tests: exit 0" [ "$rc" -eq 0 ]
jcheck "throughput, all tests: 14 phases" "$T/tp.json" 'len(d["phases"])==14'
jcheck "throughput: every phase named after iozone's section" "$T/tp.json" '[p["name"] for p in d["phases"]]==["initial writers","rewriters","readers","re-readers","reverse readers","record rewriters","stride readers","random readers","mixed workload","random writers","pwrite writers","pread readers","fwriters","freaders"]'
jcheck "throughput: each thread moved exactly -s bytes in every test" "$T/tp.json" \
	'all(tbytes(p,i)==2*1048576 for p in d["phases"] for i in (0,1))'
jcheck "throughput: each thread did -s/-r record operations (fwrite/fread: through a buffer)" "$T/tp.json" 'all(tops(p,i)==32 for p in d["phases"] for i in (0,1))'
jcheck "throughput: min xfer is the whole file (2048 KB) without stonewalling" "$T/tp.json" 'all(p["metrics"]["min_xfer"]["value"]==2048 for p in d["phases"])'
jcheck "throughput: children = sum of the threads, avg = children / 2" "$T/tp.json" 'all(abs(p["metrics"]["children_throughput"]["value"]-p["metrics"]["t0.throughput"]["value"]-p["metrics"]["t1.throughput"]["value"])<1e-6*p["metrics"]["children_throughput"]["value"] and abs(p["metrics"]["avg_throughput"]["value"]*2-p["metrics"]["children_throughput"]["value"])<1e-6*p["metrics"]["children_throughput"]["value"] for p in d["phases"])'
jcheck "throughput: no stonewall flowop with -x" "$T/tp.json" 'all(not op(p,"stonewall") for p in d["phases"])'
jcheck "throughput: mixed workload: thread 0 reads, thread 1 writes" "$T/tp.json" 'op(ph("mixed workload"),"t0.read")[0]["bytes_read"]==2*1048576 and op(ph("mixed workload"),"t1.write")[0]["bytes_written"]==2*1048576'
jcheck "throughput: fwriters reach the engine in whole buffers (one write per record here)" "$T/tp.json" 'ph("fwriters")["io_requests"]["write"]==64'
jcheck "throughput: initial writers create the files, rewriters do not" "$T/tp.json" '"O_CREAT" in ph("initial writers")["open_flags"] and "O_CREAT" not in ph("rewriters")["open_flags"]'
jcheck "throughput: no sync or direct flags by default" "$T/tp.json" 'all(not set(p["open_flags"]) & {"O_SYNC","O_DSYNC","O_DIRECT"} for p in d["phases"])'
jcheck "throughput: the timed section holds the records, not the close (no -c)" "$T/tp.json" 'all(op(p,"t0-close") and not op(p,"t0.close") for p in d["phases"])'
jcheck "throughput: writes are fsync'ed after the timing (iozone without -c)" "$T/tp.json" 'op(ph("initial writers"),"t0-fsync")[0]["ops"]==1 and not op(ph("readers"),"t0-fsync")'
jcheck "a single run: metrics are value and unit only (no runs)" "$T/tp.json" 'all(set(m)=={"value","unit"} for p in d["phases"] for m in p["metrics"].values())'
jcheck "result is complete, suite iozone" "$T/tp.json" 'd["suite"]=="iozone" and d["status"]["complete"]'
jcheck "parameters recorded" "$T/tp.json" 'd["parameters"]["mode"]=="throughput" and d["parameters"]["threads"]=="2" and d["parameters"]["stonewalling"]=="false"'
check "nothing left behind" empty_dir "$d"

# the report's layout, parsed, agrees with the JSON
cat > "$T/parse.py" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
num = r"\s*=\s*([0-9]+\.[0-9]{2})"
secs = re.findall(r"Children see throughput for\s+(\d+) (.+?)\s*" + num + r" KB/sec\n"
		  r"\s*Parent sees throughput for\s+\d+ .+?" + num + r" KB/sec\n"
		  r"\s*Min throughput per thread" + num + r" KB/sec\s*\n"
		  r"\s*Max throughput per thread" + num + r" KB/sec\n"
		  r"\s*Avg throughput per thread" + num + r" KB/sec\n"
		  r"\s*Min xfer" + num + r" KB\n", out)
assert len(secs) == len(d["phases"]), (len(secs), len(d["phases"]))
for s, p in zip(secs, d["phases"]):
	n, label = int(s[0]), s[1]
	assert n == p["threads"] and label == p["name"], (s, p["name"])
	m = p["metrics"]
	for val, key in zip(s[2:], ["children_throughput", "parent_throughput", "min_throughput",
				    "max_throughput", "avg_throughput", "min_xfer"]):
		assert abs(float(val) - m[key]["value"]) <= 0.006, (label, key, val, m[key])
	assert float(s[4]) <= float(s[6]) <= float(s[5]), s
print("ok")
PY
run "$FSGAUGE" iozone -t 2 -s 1m -r 32k -i 0 -i 1 -i 2 --dir "$d" --json "$T/lay.json"
check "layout run: exit 0" [ "$rc" -eq 0 ]
check "layout: every section parses and matches the JSON" [ "$(python3 "$T/parse.py" "$T/out" "$T/lay.json" 2>&1)" = ok ]
check "layout: header says threads, and that iozone uses processes" \
	grep -q "Throughput test with 2 threads (iozone's default is processes" "$T/out"
check "layout: each thread's file and records" grep -q "Each thread writes a 1024 Kbyte file in 32 Kbyte records" "$T/out"
check "layout: command line echoed" grep -q "Command line used: fsgauge iozone -t 2 -s 1m -r 32k" "$T/out"
check "layout: fsgauge summary with percentiles and open flags" grep -q "p99.9 .*open flags" "$T/out"
check "layout: ends with iozone's last line" grep -q "^iozone test complete.$" "$T/out"
# a test under 0.5 s: its CPU columns say "-", never a number, and a note says why
check "layout: no CPU figures for tests too brief to measure" [ "$(python3 - "$T/out" "$T/lay.json" <<'PY'
import json, re, sys
out, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
rows = {m.group(1).strip(): m.group(2).split() for m in
	re.finditer(r"^\t(\S.{25}) +\d+ +((?:\S+ +){6}\S+)", out, re.M)}
brief = [p["name"] for p in d["phases"] if p.get("too_fast")]
assert brief, "no phase too fast"
for p in d["phases"]:
	r = rows[p["name"]]
	assert (r[-2:] == ["-", "-"]) == bool(p.get("too_fast")), (p["name"], r)
assert "CPU not given for %d test" % len(brief) in out
print("ok")
PY
)" = ok ]
# stonewalling (the default): the first finisher stops the others
jcheck "stonewall raised once in every phase" "$T/lay.json" 'all(op(p,"stonewall")[0]["ops"]==1 for p in d["phases"])'
jcheck "stonewalled threads moved at most the file, min xfer is the least" "$T/lay.json" 'all(max(tbytes(p,0),tbytes(p,1))<=1048576 and p["metrics"]["min_xfer"]["value"]*1024==min([tbytes(p,i) for i in (0,1) if tbytes(p,i)] or [0]) and p["metrics"]["idle_threads"]["value"]==sum(1 for i in (0,1) if not tbytes(p,i)) for p in d["phases"])'
jcheck "stonewalled initial writers still complete their files (untimed fill)" "$T/lay.json" 'all(tbytes(ph("initial writers"),i)+sum(o["bytes_written"] for o in op(ph("initial writers"),"t%d-fill"%i))==1048576 for i in (0,1))'
# threads the stonewall stopped before their first record: eight threads
# of one record each on the null engine, the first done before the others
# start; their 0.00 is not a Min, and the section says what happened
run "$FSGAUGE" iozone -t 8 -i 0 -s 4k -r 4k --dir "$d" --engine null --json "$T/idle.json"
check "eight one-record threads: exit 0" [ "$rc" -eq 0 ]
jcheck "idle threads: counted, and left out of min and min xfer" "$T/idle.json" 'all(p["metrics"]["idle_threads"]["value"]==sum(1 for i in range(8) if not tbytes(p,i)) and p["metrics"]["min_xfer"]["value"]*1024==min(tbytes(p,i) for i in range(8) if tbytes(p,i)) and p["metrics"]["min_throughput"]["value"]>0 and abs(p["metrics"]["avg_throughput"]["value"]*(8-p["metrics"]["idle_threads"]["value"])-p["metrics"]["children_throughput"]["value"])<=1e-6*p["metrics"]["children_throughput"]["value"] for p in d["phases"])'
check "no Min of 0.00 in the text" sh -c "! grep -Eq 'Min (throughput per thread|xfer) .*= +0\.00 ' '$T/out'"
n_idle=$(json "$T/idle.json" 'int(d["phases"][0]["metrics"]["idle_threads"]["value"])')
if [ "$n_idle" -gt 0 ]; then
	check "the idle threads named under their section ($n_idle of 8)" \
		grep -q "^	fsgauge: $n_idle of 8 threads moved no data (the first thread to finish raised the stonewall before their first record): Min and Avg throughput and Min xfer are over the $((8 - n_idle)) that did; " "$T/out"
else
	ok "# SKIP every thread wrote its record before the stonewall: no idle thread to report"
	check "no idle-thread note" sh -c "! grep -q 'moved no data' '$T/out'"
fi
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k --dir "$d" --engine null --json "$T/def.json"
jcheck "default throughput tests are iozone's (seed 003's sections)" "$T/def.json" '[p["name"] for p in d["phases"]]==["initial writers","rewriters","readers","re-readers","reverse readers","stride readers","random readers","mixed workload","random writers","pwrite writers","pread readers"]'

# --- single-stream mode, every test
run "$FSGAUGE" iozone -s 1m -r 64k $all_i --dir "$d" --json "$T/s.json"
check "single stream, all tests: exit 0" [ "$rc" -eq 0 ]
jcheck "single stream: 18 columns, 18 phases" "$T/s.json" 'len(d["phases"])==18'
jcheck "single stream: every test moved exactly 1 MiB" "$T/s.json" 'all(tbytes(p,0)==1048576 for p in d["phases"])'
jcheck "single stream: random mix reads and writes in turn" "$T/s.json" 'op(d["phases"][13],"t0.mix.read")[0]["ops"]==8 and op(d["phases"][13],"t0.mix.write")[0]["ops"]==8'
jcheck "single stream: record rewrite writes one record's place" "$T/s.json" '[p for p in d["phases"] if p["name"].startswith("record-rewrite")][0]["io_requests"]["write"]==16'
hdr=$(grep -n "reclen" "$T/out" | head -1 | cut -d: -f1)
check "single stream: table header and one row of 2 + 18 numbers" \
	[ "$(sed -n "$((hdr + 1))p" "$T/out" | awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) bad = 1; print (NF == 20 && !bad && $1 == 1024 && $2 == 64) ? "ok" : "bad" }')" = ok ]
sed -n "$((hdr + 1))p" "$T/out" | cut -c25- | tr -s ' ' '\n' | grep . | paste -sd, - >"$T/row.txt"
jcheck "single stream: the row's numbers are the JSON's" "$T/s.json" \
	'open("'"$T/row.txt"'").read().strip()==",".join("%d" % p["metrics"]["throughput"]["value"] for p in d["phases"])'

# --- auto mode and the spreadsheet
run "$FSGAUGE" iozone -a -n 64k -g 128k -y 32k -q 64k -i 0 -i 1 -R -b "$T/x.csv" --dir "$d" --json "$T/a.json"
check "auto mode: exit 0" [ "$rc" -eq 0 ]
jcheck "auto mode: 2 file sizes x 2 record sizes x 4 tests" "$T/a.json" 'len(d["phases"])==16'
check "auto mode: Auto Mode in the header" grep -q "Auto Mode" "$T/out"
check "auto mode: 4 table rows" [ "$(grep -cE '^ +(64|128) +(32|64)( +[0-9]+){4}$' "$T/out")" = 4 ]
check "auto mode: -R prints the spreadsheet" grep -q '"Excel output is below:"' "$T/out"
# fsgauge's latency summary: one row per test, its four cells together
sed -n '/fsgauge: per test/,/^$/p' "$T/out" >"$T/asum"
check "auto mode summary: one row per test (4), no row per cell" \
	[ "$(grep -cE '^	(write|rewrite|read|reread) +[0-9]+ ' "$T/asum")" = 4 -a \
	  "$(grep -cE '^	[a-z-]+ [0-9]+k [0-9]+k ' "$T/asum")" = 0 ]
check "auto mode summary: each row's ops are its cells' record operations in the JSON" \
	[ "$(python3 - "$T/a.json" "$T/asum" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
rows = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\t(\S+) +(\d+) ", open(sys.argv[2]).read(), re.M)}
want = {}
for p in d["phases"]:
	key = p["name"].split(" ")[0]
	want[key] = want.get(key, 0) + sum(o["ops"] for o in p["operations"]
		if re.match(r"t\d+\.", o["name"]) and o["bytes_read"] + o["bytes_written"] > 0)
rows.pop("test", None)
assert rows == want, (rows, want)
print("ok")
PY
)" = ok ]
check "auto mode summary: points to the JSON for the 16 cells" \
	grep -q "the JSON has each of the 16 cells as a phase" "$T/asum"
cat > "$T/sheet.py" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
titles = [r[0] for r in rows if len(r) == 1]
assert titles == ["Writer report", "Re-writer report", "Reader report", "Re-Reader report"], titles
i = rows.index(["Writer report"])
assert rows[i + 1] == ["KB", "32", "64"], rows[i + 1]
assert [r[0] for r in rows[i + 2:i + 4]] == ["64", "128"]
assert all(all(c.isdigit() for c in r[1:]) for r in rows[i + 2:i + 4])
print("ok")
PY
check "auto mode: -b writes a CSV a spreadsheet opens (titles, matrix)" [ "$(python3 "$T/sheet.py" "$T/x.csv" 2>&1)" = ok ]
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -R -b "$T/t.csv" --dir "$d"
check "throughput -b: a row per test" \
	[ "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print([x[0] for x in r if len(x)==2])' "$T/t.csv")" = "['Test', 'Initial write', 'Rewrite']" ]

# --- the access patterns, as the system calls show them (strace)
offsets() { # the record numbers of the 64k preads in strace output $1
	grep 'pread64(.*, 65536, ' "$1" | sed 's/.*, 65536, \([0-9]*\)).*/\1/' | awk '{ printf "%s%d", n++ ? " " : "", $1 / 65536 }'
}
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
	strace -f -e trace=pread64 -o "$T/st5" "$FSGAUGE" iozone -s 1m -r 64k -i 5 -j 3 --dir "$d" >/dev/null 2>&1
	check "stride read (-j 3): records 0 3 6 .. then 1 4 7 .., each once" \
		[ "$(offsets "$T/st5")" = "0 3 6 9 12 15 1 4 7 10 13 2 5 8 11 14" ]
	strace -f -e trace=pread64 -o "$T/st3" "$FSGAUGE" iozone -s 1m -r 64k -i 3 --dir "$d" >/dev/null 2>&1
	check "backward read: the last record first, down to the first" \
		[ "$(offsets "$T/st3")" = "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0" ]
else
	ok "# SKIP strace is not available: access pattern checks"
	ok "# SKIP strace is not available: access pattern checks"
fi

# --- what the options change, as the engine recorded it
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 1 -o --dir "$d" --json "$T/o.json"
jcheck "-o: writers open with O_SYNC" "$T/o.json" 'flags(ph("initial writers"))==["O_SYNC"]'
jcheck "-o: readers too (as iozone's)" "$T/o.json" 'flags(ph("readers"))==["O_SYNC"]'
check "-o: SYNC Mode in the header" grep -q "SYNC Mode." "$T/out"
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -+D --dir "$d" --json "$T/dsync.json"
jcheck "-+D: O_DSYNC" "$T/dsync.json" 'flags(ph("rewriters"))==["O_DSYNC"]'
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 6 -I --dir "$d" --engine null --json "$T/direct.json"
jcheck "-I: O_DIRECT opens (null engine)" "$T/direct.json" 'flags(ph("rewriters"))==["O_DIRECT"]'
jcheck "-I: not on fwrite's stdio-like stream, as iozone's fopen" "$T/direct.json" 'flags(ph("fwriters"))==[]'
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -I --dir "$d" --json "$T/direct2.json"
if [ "$rc" -eq 0 ]; then
	jcheck "-I on the real file system: O_DIRECT recorded" "$T/direct2.json" 'flags(ph("initial writers"))==["O_DIRECT"]'
else
	ok "# SKIP -I: the target file system refuses O_DIRECT"
fi
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 1 -c -e --dir "$d" --json "$T/ce.json"
check "-c -e: exit 0" [ "$rc" -eq 0 ]
jcheck "-c: the close is inside the timed section (t0.close), none after" "$T/ce.json" 'all(op(p,"t0.close")[0]["ops"]==1 and not op(p,"t0-close") for p in (ph("rewriters"),ph("readers")))'
jcheck "-e: fsync inside the timed section of writes, none after" "$T/ce.json" 'op(ph("rewriters"),"t0.fsync")[0]["ops"]==1 and not op(ph("rewriters"),"t0-fsync") and not op(ph("readers"),"t0.fsync")'
jcheck "-c -e: the timed section lasts at least its records, fsync and close" "$T/ce.json" 'all(op(p,"t%d"%i)[0]["latency_us"]["mean"] >= sum(o["latency_us"].get("mean",0)*o["ops"] for o in p["operations"] if o["name"].startswith("t%d."%i)) for p in d["phases"] for i in (0,1))'
jcheck "-c -e: the engine saw one fsync and one close per thread in rewriters" "$T/ce.json" 'ph("rewriters")["io_requests"]["fsync"]==2 and ph("rewriters")["io_requests"]["close"]==2'
check "-c -e: header lines" grep -q "Include close in write timing" "$T/out"

# --- -F names, -w keeps, -+n skips retests
run "$FSGAUGE" iozone -t 2 -s 128k -r 64k -i 0 -i 1 -+n -w -F "$d/one" "$d/two" --json "$T/f.json"
check "-F -w -+n: exit 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
[ -n "$kept" ] && [ -d "$kept" ]
checked "-w: reports the kept directory"
check "-F: the files carry the given names, full size" \
	[ "$(stat -c %s "$kept/one" "$kept/two" 2>/dev/null | paste -sd,)" = "131072,131072" ]
jcheck "-+n: no rewriters, no re-readers" "$T/f.json" '[p["name"] for p in d["phases"]]==["initial writers","readers"]'
rm -rf "$kept"
check "nothing else left behind" empty_dir "$d"
run "$FSGAUGE" iozone -t 2 -s 128k -r 64k -i 1 -x --dir "$d" --json "$T/r.json"
jcheck "read-only tests: the files are written beforehand" "$T/r.json" 'd["filesets"][0]["bytes"]==131072 and tbytes(ph("readers"),0)==131072'

run "$FSGAUGE" iozone --help
[ "$rc" -eq 0 ] && grep -q -- "-t N  *throughput test" "$T/out"
checked "--help: exit 0, lists iozone's options"
grep -q -- "--repeat N" "$T/out" && grep -q "In iozone: --direct is -I" "$T/out" && grep -q -- "--allow-write-device" "$T/out"
checked "--help: the shared measurement options and what they mean here"
check "--help is generated: the refused --warmup and --steady-state are not listed" \
	sh -c "! grep -Eq '^ +--(warmup|steady-state)' '$T/out'"
check "--help: -q is the largest record, --quiet has no short form" \
	sh -c "grep -q '^  -q SIZE ' '$T/out' && grep -q '^      --quiet ' '$T/out' && ! grep -q -- '-q, --quiet' '$T/out'"
run "$FSGAUGE" --help
check "iozone is in the command list" grep -q "^  iozone " "$T/out"

# --- the shared measurement options (docs/trust.md), iozone's way
run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -x -i 0 -i 1 --repeat 3 --dir "$d" --json "$T/rep.json"
check "--repeat 3: exit 0" [ "$rc" -eq 0 ]
check "--repeat 3: each run prints its report (Run K of 3, 4 sections each)" \
	[ "$(grep -c '^	Run [123] of 3$' "$T/out"),$(grep -c 'Children see throughput' "$T/out")" = "3,12" ]
check "--repeat 3: a statistics line per test after the runs" \
	[ "$(sed -n '/over 3 runs/,/^$/p' "$T/out" | grep -cE '^	(initial writers|rewriters|readers|re-readers) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+% +[0-9.]+ [0-9.]+ [0-9.]+$')" = 4 ]
check "--repeat 3: the report still ends with iozone's last line" grep -q "^iozone test complete.$" "$T/out"
jcheck "--repeat 3: each test once, with 3 repeats" "$T/rep.json" '[len(p["repeats"]) for p in d["phases"]]==[3,3,3,3]'
jcheck "--repeat 3: repeat_stats of n=3 with mean, sd, cv, 95% CI around the mean" "$T/rep.json" 'all(p["repeat_stats"]["ops_per_second"]["n"]==3 and p["repeat_stats"]["ops_per_second"]["ci95_low"]<=p["repeat_stats"]["ops_per_second"]["mean"]<=p["repeat_stats"]["ops_per_second"]["ci95_high"] and "sd" in p["repeat_stats"]["ops_per_second"] and "cv" in p["repeat_stats"]["ops_per_second"] for p in d["phases"])'
jcheck "--repeat 3: operations add up over the runs (3 x -s per thread)" "$T/rep.json" 'all(tbytes(p,i)==3*262144 for p in d["phases"] for i in (0,1))'
jcheck "--repeat 3: iozone's figure per run, its mean, sd and CI in metrics" "$T/rep.json" 'all(m["n"]==3 and len(m["runs"])==3 and abs(m["value"]-sum(m["runs"])/3)<=1e-6*m["value"] and m["ci95_low"]<=m["value"]<=m["ci95_high"] and m["sd"]>=0 and "cv" in m for m in (p["metrics"]["children_throughput"] for p in d["phases"]))'
jcheck "--repeat 3: every metric keeps its runs, and no mangled names" "$T/rep.json" 'all(len(m["runs"])==3 and m["n"]==3 for p in d["phases"] for m in p["metrics"].values()) and not any("." in k and not k.startswith("t") for p in d["phases"] for k in p["metrics"])'
jcheck "--repeat 3: repeat recorded in parameters" "$T/rep.json" 'd["parameters"]["repeat"]=="3" and d["parameters"]["reuse"]=="false"'
check "--repeat 3: nothing left behind" empty_dir "$d"
run "$FSGAUGE" iozone -s 128k -r 64k -i 0 --repeat 2 --dir "$d" --json "$T/rep1.json"
jcheck "--repeat in single-stream mode: the table's figure per run" "$T/rep1.json" 'all(p["metrics"]["throughput"]["n"]==2 and len(p["metrics"]["throughput"]["runs"])==2 and len(p["repeats"])==2 for p in d["phases"])'

# --reuse: read-only tests find the files of the previous run: they are
# written once (the engine's writes are the preallocation's only)
run "$FSGAUGE" iozone -s 256k -r 64k -i 1 --repeat 2 --dir "$d" --json "$T/fresh.json"
check "--repeat 2 without --reuse: exit 0" [ "$rc" -eq 0 ]
run "$FSGAUGE" iozone -s 256k -r 64k -i 1 --repeat 2 --reuse --dir "$d" --json "$T/reuse.json"
[ "$rc" -eq 0 ] && grep -q "Repeat 2 of 2 (reusing the filesets)" "$T/err"
checked "--repeat 2 --reuse: exit 0, says so"
jcheck "--reuse: the file is written once, not once per run" "$T/reuse.json" 'd["io_requests"]["write"]*2==json.load(open("'"$T/fresh.json"'"))["io_requests"]["write"]>0'
jcheck "--reuse: recorded, and both runs read the whole file" "$T/reuse.json" 'd["parameters"]["reuse"]=="true" and tbytes(d["phases"][0],0)==2*262144'
check "--reuse: nothing left behind" empty_dir "$d"

run "$FSGAUGE" iozone -t 2 -s 1m -r 4k -i 0 -i 1 --interval 0.05 --dir "$d" --json "$T/iv.json"
check "--interval: exit 0" [ "$rc" -eq 0 ]
jcheck "--interval: every test has its time series, period recorded" "$T/iv.json" 'all(p["interval_seconds"]==0.05 and len(p["intervals"])>=1 for p in d["phases"]) and d["parameters"]["interval"]=="0.05"'
jcheck "--interval: the intervals' ops add up to each test's" "$T/iv.json" 'all(sum(i["ops"] for i in p["intervals"])==p["summary"]["ops"]>0 for p in d["phases"])'
jcheck "--interval: bytes read and written add up" "$T/iv.json" 'all(sum(i["bytes_read"] for i in p["intervals"])==p["summary"]["bytes_read"] and sum(i["bytes_written"] for i in p["intervals"])==p["summary"]["bytes_written"] for p in d["phases"])'
jcheck "--interval: per operation too (the threads' records)" "$T/iv.json" 'all(sum(i["per_op"][o["name"]]["ops"] for i in p["intervals"])==o["ops"] for p in d["phases"] for o in p["operations"])'

run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 6 --direct --dir "$d" --engine null --json "$T/dir.json"
jcheck "--direct is -I: O_DIRECT opens" "$T/dir.json" 'flags(ph("rewriters"))==["O_DIRECT"] and d["parameters"]["o_direct"]=="true" and d["parameters"]["direct"]=="true"'
jcheck "--direct is -I: not on fwrite's stream" "$T/dir.json" 'flags(ph("fwriters"))==[]'
check "--direct: the header says so, as with -I" grep -q "O_DIRECT feature enabled" "$T/out"

run "$FSGAUGE" iozone -s 256k -r 64k -i 0 --data zero -w --dir "$d" --json "$T/zero.json"
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "--data zero: the file holds zeros" cmp -s -n 262144 "$kept/iozone.tmp" /dev/zero
jcheck "--data zero: recorded" "$T/zero.json" 'd["parameters"]["data"]=="zero"'
rm -rf "$kept"
run "$FSGAUGE" iozone -s 256k -r 64k -i 0 -w --dir "$d"
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "default data is not zeros (the check above can fail)" sh -c "! cmp -s -n 262144 '$kept/iozone.tmp' /dev/zero"
rm -rf "$kept"

run "$FSGAUGE" iozone -t 2 -s 256k -r 64k -x -i 0 -i 1 -i 2 --verify --dir "$d" --json "$T/ver.json"
check "--verify: exit 0" [ "$rc" -eq 0 ]
jcheck "--verify: recorded, no verify errors, every read checked" "$T/ver.json" 'd["parameters"]["verify"]=="true" and d["status"]["verify_errors"]==0 and tbytes(ph("readers"),0)==262144'

run "$FSGAUGE" iozone -s 128k -r 64k -i 0 --quiet --dir "$d"
[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && grep -q "iozone test complete" "$T/out"
checked "--quiet: nothing on stderr, the report on stdout"
# 16M null-engine writes (64g in 4k records): a few seconds, past the
# first status line at 1 s (4M of them took under a second once the
# per-operation path got leaner)
run "$FSGAUGE" iozone -s 64g -r 4k -i 0 -+n --engine null --progress=always --dir "$d"
check "--progress=always: a status line for the running test" \
	grep -Eq "^write 67108864k 4k: [0-9]+s \(until done\) +[0-9]+ ops/s" "$T/err"
run "$FSGAUGE" iozone -s 128k -r 64k -i 0 --dir "$d"
check "without --progress: no status line" sh -c "! grep -q 'until done' '$T/err'"

# --drop-caches as root is tested in trust_devices.sh, which runs alone
# (dropping the page cache changes what every other test sees): here only
# its refusals, which drop nothing
if [ -w /proc/sys/vm/drop_caches ]; then
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		chmod 1777 "$d"
		expect_fail "--drop-caches as a user: exit 2, says it needs root" 2 \
			"cannot drop caches: cannot open '/proc/sys/vm/drop_caches': .*needs root" \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$FSGAUGE" iozone -s 64k \
			-i 0 --dir "$d" --drop-caches
	else
		ok "# SKIP --drop-caches as a user: no setpriv"
	fi
else
	expect_fail "--drop-caches without root: exit 2, says it needs root" 2 \
		"cannot drop caches: cannot open '/proc/sys/vm/drop_caches': .*needs root" \
		"$FSGAUGE" iozone -s 64k -i 0 --dir "$d" --drop-caches
fi
check "measurement options: nothing left behind" empty_dir "$d"

expect_fail "--warmup is refused" 2 "--warmup and --steady-state do not apply to iozone" \
	"$FSGAUGE" iozone -s 64k --warmup 1 --dir "$d"
expect_fail "--steady-state is refused" 2 "--warmup and --steady-state do not apply to iozone" \
	"$FSGAUGE" iozone -s 64k --steady-state --dir "$d"
expect_fail "--reuse without --repeat" 2 "--reuse keeps files between repeats" \
	"$FSGAUGE" iozone -s 64k --reuse --dir "$d"
expect_fail "--repeat 0" 2 "invalid --repeat '0'" "$FSGAUGE" iozone -s 64k --repeat 0 --dir "$d"
expect_fail "--interval too small" 2 "invalid --interval '0.01'" \
	"$FSGAUGE" iozone -s 64k --interval 0.01 --dir "$d"
expect_fail "--data junk" 2 "invalid data pattern 'junk'" "$FSGAUGE" iozone -s 64k --data junk --dir "$d"
expect_fail "--progress junk" 2 "invalid --progress 'sometimes'" \
	"$FSGAUGE" iozone -s 64k --progress=sometimes --dir "$d"
expect_fail "--repeat needs a value" 2 "option '--repeat' needs an argument" "$FSGAUGE" iozone --dir "$d" --repeat
check "refused options leave nothing behind" empty_dir "$d"

# --- option errors: a message and exit 2
expect_fail "-i 11 is refused" 2 "invalid -i '11' \\(expected a test from 0 to 10" "$FSGAUGE" iozone -i 11 --dir "$d"
expect_fail "-t 0 is refused" 2 "invalid -t '0' \\(expected a number of threads" "$FSGAUGE" iozone -t 0 --dir "$d"
expect_fail "-f .. is refused: the one bad-value style" 2 \
	"^fsgauge: invalid -f '\\.\\.' \\(expected a file name, not '\\.', '\\.\\.' or \\.fsgauge\\*\\)\$" \
	"$FSGAUGE" iozone -f .. --dir "$d" -i 0 -s 64k
expect_fail "-s junk is refused" 2 "invalid -s 'x' \\(expected a number of KB" "$FSGAUGE" iozone -s x --dir "$d"
expect_fail "record larger than the file" 2 "larger than the file size" "$FSGAUGE" iozone -s 64k -r 1m --dir "$d"
expect_fail "record above 16m" 2 "larger than iozone's largest" "$FSGAUGE" iozone -r 32m -s 64m --dir "$d"
expect_fail "-a with -t" 2 "cannot be combined" "$FSGAUGE" iozone -a -t 2 --dir "$d"
expect_fail "-F count differs from -t" 2 "names 2 files but -t asks for 3" "$FSGAUGE" iozone -t 3 -F a b --dir "$d"
expect_fail "-F one file for two threads: 'file', singular" 2 "names 1 file but -t asks for 2" \
	"$FSGAUGE" iozone -t 2 -F a --dir "$d"
expect_fail "unknown -+ option" 2 "unsupported option '-\+q'" "$FSGAUGE" iozone -+q --dir "$d"
expect_fail "unknown option" 2 "unrecognized option '-Q'" "$FSGAUGE" iozone -Q --dir "$d"
expect_fail "missing value" 2 "option '-s' needs an argument" "$FSGAUGE" iozone --dir "$d" -s
expect_fail "stray argument" 2 "unexpected argument 'stray'" "$FSGAUGE" iozone --dir "$d" stray
expect_fail "auto-mode option without -a" 2 "belong to auto mode" "$FSGAUGE" iozone -g 1m --dir "$d"
expect_fail "-n above -g" 2 "larger than -g" "$FSGAUGE" iozone -a -n 1m -g 64k --dir "$d"
expect_fail "unknown engine" 2 "unknown engine 'nope'" "$FSGAUGE" iozone --engine nope --dir "$d"
expect_fail "missing target" 2 "cannot use target directory" "$FSGAUGE" iozone -s 64k --dir "$T/none"
expect_fail "not enough space" 2 "not enough free space" "$FSGAUGE" iozone -t 4 -s 100000g -r 1m --dir "$d"
check "errors leave nothing behind" empty_dir "$d"

# --- SIGINT: partial results, exit 130, files removed
spawn "$T/out" "$T/err" "$FSGAUGE" iozone -t 2 -s 100g -r 4k -i 0 -x --engine null --dir "$d" --json "$T/int.json"
check "SIGINT: the run got going" wait_for "$T/out" 'Each thread writes'
sleep 0.2
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "SIGINT: JSON marked interrupted" "$T/int.json" 'd["status"]["interrupted"]'
check "SIGINT: nothing left behind" empty_dir "$d"

jcheck_run
finish
