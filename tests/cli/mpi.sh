#!/bin/sh
# `mpirun ... fsgauge SUITE`: three ranks on this machine (docs/mpi.md).
# For run, untar, bonnie and iozone: the reduced operations are the sum of
# the per-rank ones, histogram counts equal operations, every rank's run
# directory is gone; a fault on rank 2 only stops all three with one
# error and exit 1; SIGINT to mpirun leaves rank 0's partial result.
# The same with --repeat 3 (a fault and SIGINT in run 2).  Several
# targets: a run directory per rank in each, their figures reduced.
# Without MPI in the binary, mpirun's environment is refused (exit 2).
. "$(dirname "$0")/lib.sh"

if ! "$FSGAUGE" --version | grep -q '+mpi'; then
	# the binary has no MPI: under mpirun (its environment) it refuses
	expect_fail "built without MPI: mpirun's environment refused" 2 \
		"started by mpirun \(3 ranks\), but this fsgauge was built without MPI" \
		env OMPI_COMM_WORLD_SIZE=3 "$FSGAUGE" run varmail -t 1 -d "$T"
	check "nothing created" [ -z "$(ls "$T" | grep fsgauge-)" ]
	finish
	exit $?
fi
command -v mpirun >/dev/null 2>&1 || skip_all "mpirun not installed (openmpi-bin)"
case "$SANITIZE" in
*address* | *thread*) skip_all "Open MPI under SANITIZE=$SANITIZE reports its own leaks and races" ;;
esac
M="mpirun --oversubscribe --allow-run-as-root -np 3"
d="$T/target"
mkdir "$d"
# mpirun needs its own session directory; keep it inside $T
export TMPDIR="$T"

no_rundir() {
	[ -z "$(ls -A "$d" | grep '^fsgauge-')" ]
}

# reduced: phases[i].summary.ops == sum over ranks; histograms = ops
reduced() {
	json "$1" 'all(p["summary"]["ops"] == sum(r["phases"][i]["ops"] for r in d["ranks"] if i < len(r["phases"])) and p["ranks"]["n"] == 3 for i, p in enumerate(d["phases"])) and len(d["phases"]) > 0'
}
hist_ok() {
	# (stonewall and threaddone are control flowops: counted, not timed)
	json "$1" 'all(o["histogram"]["count"] == o["ops"] or (o["type"] in ("stonewall", "threaddone") and o["histogram"]["count"] == 0) for p in d["phases"] for o in p["operations"]) and sum(o["histogram"]["count"] for p in d["phases"] for o in p["operations"]) > 0'
}

# host_rows REPORT.html RESULT.json: the report's ranks section has, per
# phase, a hosts table with one row per host of the JSON's hosts array:
# its ranks and, from hosts[].phases[].device, its devices' figures (the
# counters as written, the rates and times per request made of them
# within the printed digits), or "none (REASON)"
host_rows() {
	python3 - "$1" "$2" <<'PY'
import json, sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
d = json.load(open(sys.argv[2]))
def text(c):
    return "".join(n.data for n in c.childNodes if n.nodeType == n.TEXT_NODE)
def near(cell, v, digits):
    return abs(float(cell) - v) <= 0.5 * 10 ** -digits + 1e-9
tables = {t.getAttribute("data-phase"): t for t in doc.getElementsByTagName("table") if t.getAttribute("data-table") == "hosts"}
ok = len(d["hosts"]) > 0 and set(tables) == set(p["name"] for p in d["phases"])
for p in d["phases"]:
    t = tables.get(p["name"])
    if t is None:
        continue
    trs = t.getElementsByTagName("tr")
    head = [text(c) for c in trs[0].getElementsByTagName("th")]
    rows = [[text(c) for c in tr.getElementsByTagName("td")] for tr in trs[1:]]
    hosts = [(h, q) for h in d["hosts"] for q in h["phases"] if q["name"] == p["name"]]
    ok = ok and len(rows) == len(hosts) == len(set(r[0] for r in rows))
    for row, (h, q) in zip(rows, hosts):
        c, dev = dict(zip(head, row)), q["device"]
        ok = ok and c["host"] == h["host"] and c["ranks"] == ",".join(str(r) for r in h["ranks"])
        if "none" in dev:
            ok = ok and len(row) == 3 and row[2] == "none (%s)" % dev["none"]
            continue
        n = dev["reads"] + dev["writes"] + (dev["flushes"] or 0)
        s = q["seconds"]
        ok = ok and c["devices"] == h["environment"]["block_devices"] and near(c["seconds"], s, 3) \
            and int(c["reads"]) == dev["reads"] and int(c["writes"]) == dev["writes"] \
            and int(c["busy ms"]) == dev["busy_ms"] \
            and near(c["read MiB"], dev["bytes_read"] / 2**20, 1) \
            and near(c["write MiB"], dev["bytes_written"] / 2**20, 1) \
            and near(c["util %"], dev["utilization"], 1) and near(c["queue"], dev["avg_queue_depth"], 2) \
            and near(c["requests/s"], n / s, 1) \
            and near(c["MiB/s"], (dev["bytes_read"] + dev["bytes_written"]) / 2**20 / s, 1) \
            and (near(c["service ms"], dev["busy_ms"] / n, 3) if n else c["service ms"] == "-") \
            and (near(c["await ms"], (dev["read_ms"] + dev["write_ms"] + (dev["flush_ms"] or 0)) / n, 3) if n else c["await ms"] == "-")
print("true" if ok else "false")
PY
}

run $M "$FSGAUGE" run varmail -t 2 -s nfiles=200 -d "$d" --json "$T/run.json"
check "run: exit 0" [ "$rc" -eq 0 ]
check "run: 3 ranks, 1 host" [ "$(json "$T/run.json" 'len(d["ranks"]) * 10 + len(d["hosts"])')" = 31 ]
check "run: reduced ops = sum of the ranks'" [ "$(reduced "$T/run.json")" = true ]
check "run: histogram counts = ops" [ "$(json "$T/run.json" 'all(o["histogram"]["count"] == o["ops"] for o in d["phases"][0]["operations"])')" = true ]
check "run: per-rank run directories named and removed" sh -c "grep -q 'fsgauge-.*-r0-' '$T/err' && [ -z \"\$(ls -A '$d' | grep '^fsgauge-')\" ]"
check "run: one report, with the ranks' block" [ "$(grep -c '^IO Summary' "$T/out")" -eq 1 ]
check "run: slowest rank named" grep -Eq "^phase run over 3 ranks: ops/s min .* slowest rank [0-2] " "$T/out"
check "run: one 'run directory' line (rank 0's)" [ "$(grep -c '^run directory:' "$T/err")" -eq 1 ]
check "run: rows have rank, host, ops, rate, seconds" [ "$(json "$T/run.json" 'sorted(r["rank"] for r in d["ranks"]) == [0,1,2] and all(r["host"] and r["phases"][0]["seconds"] > 0 and r["phases"][0]["ops_per_second"] > 0 for r in d["ranks"])')" = true ]
check "run: phase time covers every rank's" [ "$(json "$T/run.json" 'd["phases"][0]["seconds"] >= max(r["phases"][0]["seconds"] for r in d["ranks"])')" = true ]
check "run: one file system, no warning" [ "$(json "$T/run.json" '[f["ranks"] for f in d["file_systems"]] == [[0, 1, 2]] and "file_systems_warning" not in d and not any(r["other_file_system"] for r in d["ranks"])')" = true ]
check "run: no file-system warning in the text or on stderr" sh -c "! grep -q 'targets are on' '$T/out' '$T/err'"
run "$FSGAUGE" report "$T/run.json" -o "$T/run.html"
check "run: report: exit 0, well-formed" sh -c "[ $rc -eq 0 ] && python3 -c 'import xml.dom.minidom as m, sys; m.parse(sys.argv[1])' '$T/run.html'"
check "run: report: a row per host with the JSON's device figures" [ "$(host_rows "$T/run.html" "$T/run.json")" = true ]

# ranks on two file systems (an MPMD command line): ranks 0 and 1 on
# /dev/shm (tmpfs), rank 2 on the test's target; named before the run and
# in the report, and in the JSON
shm=/dev/shm/fsgauge-mpi-test.$$
if [ -d /dev/shm ] && command -v findmnt >/dev/null 2>&1 && mkdir "$shm" &&
	[ "$(stat -c %d "$shm")" != "$(stat -c %d "$d")" ]; then
	t0=$(findmnt -n -o FSTYPE -T "$shm" | tail -n 1) m0=$(findmnt -n -o TARGET -T "$shm" | tail -n 1)
	t2=$(findmnt -n -o FSTYPE -T "$d" | tail -n 1) m2=$(findmnt -n -o TARGET -T "$d" | tail -n 1)
	run mpirun --oversubscribe --allow-run-as-root -np 2 "$FSGAUGE" run varmail -t 1 -s nfiles=50 \
		-d "$shm" --json "$T/fs.json" : -np 1 "$FSGAUGE" run varmail -t 1 -s nfiles=50 -d "$d" \
		--json "$T/fs.json"
	w="the ranks' targets are on 2 file systems, and their figures are reduced together: $t0 at $m0 \(device [0-9]+:[0-9]+ on [^;]+; ranks 0,1\); $t2 at $m2 \(device [0-9]+:[0-9]+ on [^;]+; rank 2\)"
	check "two file systems: exit 0" [ "$rc" -eq 0 ]
	warned_before_run() {
		[ "$(grep -c 'targets are on' "$T/err")" -eq 1 ] &&
			grep -Eq "^fsgauge: warning: $w\$" "$T/err" &&
			[ "$(grep -n 'targets are on' "$T/err" | cut -d: -f1)" -lt \
				"$(grep -n '^Running' "$T/err" | head -1 | cut -d: -f1)" ]
	}
	check "two file systems: warned once on stderr, before the run, naming both" warned_before_run
	check "two file systems: the warning in the text report" grep -Eq "^WARNING: $w\$" "$T/out"
	check "two file systems: file_systems and the warning in the JSON" [ "$(json "$T/fs.json" '[(f["type"], f["mount_point"], f["ranks"]) for f in d["file_systems"]] == [("'"$t0"'", "'"$m0"'", [0, 1]), ("'"$t2"'", "'"$m2"'", [2])] and d["file_systems_warning"].startswith("the ranks\x27 targets are on 2 file systems") and [r["other_file_system"] for r in sorted(d["ranks"], key=lambda r: r["rank"])] == [False, False, True]')" = true ]
	run "$FSGAUGE" report "$T/fs.json" -o "$T/fs.html"
	check "two file systems: report: exit 0" [ "$rc" -eq 0 ]
	check "two file systems: report: the warning in a warning box, and at the top" \
		sh -c "grep -Eq '<div class=\"warn\" role=\"note\" data-warning=\"file_systems\"><strong>WARNING:</strong> the ranks&#39; targets are on 2 file systems' '$T/fs.html' && grep -q '<li>.*fs.json&#39;: the ranks&#39; targets are on 2 file systems' '$T/fs.html'"
	# the host's devices are its first rank's: rank 0's, on tmpfs
	check "two file systems: report: the host's devices, none on tmpfs, and why" \
		[ "$(host_rows "$T/fs.html" "$T/fs.json") $(json "$T/fs.json" 'd["hosts"][0]["phases"][0]["device"].get("none")')" = "true $t0 has no block device" ]
	run "$FSGAUGE" compare --brief "$T/run.json" "$T/fs.json"
	check "two file systems: compare: exit 0" [ "$rc" -eq 0 ]
	check "two file systems: compare: the result's warning" \
		grep -Eq "^warning: '$T/fs.json': $w\$" "$T/out"
	check "two file systems: compare: the file systems differ from the baseline's" \
		grep -Eq "^warning: '$T/fs.json' and the baseline '$T/run.json' ran their ranks on different file systems: 2 file systems \(($t0, $t2|$t2, $t0)\) against 1 \($t2\)\$" "$T/out"
	cp "$T/run.json" "$T/run2.json"
	run "$FSGAUGE" compare --brief "$T/run.json" "$T/run2.json"
	check "two file systems: no file-system warning for one file system" sh -c "! grep -q 'file systems' '$T/err' '$T/out'"
	check "two file systems: no run directory left in either" \
		[ -z "$(ls -A "$shm" "$d" | grep '^fsgauge-')" ]
	rmdir "$shm"
else
	[ -d "$shm" ] && rmdir "$shm"
	ok "two file systems: # SKIP /dev/shm is not another file system than $d here"
fi

run $M "$FSGAUGE" untar --synthetic tiny --copies 2 -d "$d" --json "$T/untar.json"
check "untar: exit 0" [ "$rc" -eq 0 ]
check "untar: reduced ops = sum of the ranks'" [ "$(reduced "$T/untar.json")" = true ]
check "untar: histograms = ops" [ "$(hist_ok "$T/untar.json")" = true ]
check "untar: 6 copies in the table" [ "$(grep -Ec '^ +[0-2] copy-00[01] ' "$T/out")" -eq 6 ]
check "untar: no run directory left" no_rundir

# seed 002: two clients each untar a tarball 40 times into one target
# (a small tarball made here, so that it is quick)
if "$FSGAUGE" --version | grep -q '+libarchive'; then
	mkdir -p "$T/src/a/b"
	for i in 1 2 3 4 5 6; do head -c $((i * 700)) /dev/urandom >"$T/src/a/f$i"; done
	echo x >"$T/src/a/b/g"
	tar -czf "$T/src.tar.gz" -C "$T/src" .
	run mpirun --oversubscribe --allow-run-as-root -np 2 "$FSGAUGE" untar --tarball "$T/src.tar.gz" \
		--copies 40 -d "$d" --json "$T/seed002.json"
	j="$T/seed002.json"
	check "seed 002: exit 0" [ "$rc" -eq 0 ]
	check "seed 002: 40 copies per rank in the table, a rank column" \
		[ "$(grep -c '^   0 copy-0' "$T/out")" -eq 40 -a "$(grep -c '^   1 copy-0' "$T/out")" -eq 40 ]
	check "seed 002: executions name their rank, 40 complete each" [ "$(json "$j" 'sorted((x["rank"], x["index"]) for x in d["phases"][0]["executions"] if x["complete"]) == [(r, i) for r in (0, 1) for i in range(40)]')" = true ]
	check "seed 002: reduced ops = sum of the ranks'" [ "$(json "$j" 'd["phases"][0]["summary"]["ops"] == sum(r["phases"][0]["ops"] for r in d["ranks"]) > 0')" = true ]
	check "seed 002: each rank's ops are its copies' ops" [ "$(json "$j" 'all(r["phases"][0]["ops"] == sum(x["ops"] for x in d["phases"][0]["executions"] if x["rank"] == r["rank"]) for r in d["ranks"])')" = true ]
	check "seed 002: each client's time, their min/max/mean" [ "$(json "$j" 'len(d["ranks"]) == 2 and all(r["phases"][0]["seconds"] > 0 for r in d["ranks"]) and (lambda s, q: q["min_seconds"] == min(s) and q["max_seconds"] == max(s) and abs(q["mean_seconds"] - sum(s) / 2) < 1e-9)([r["phases"][0]["seconds"] for r in d["ranks"]], d["phases"][0]["ranks"])')" = true ]
	check "seed 002: the slowest rank is the one with the lowest rate" [ "$(json "$j" 'd["phases"][0]["ranks"]["slowest_rank"] == min(d["ranks"], key=lambda r: r["phases"][0]["ops_per_second"])["rank"] and d["phases"][0]["ranks"]["min_ops_per_second"] <= d["phases"][0]["ranks"]["mean_ops_per_second"] <= d["phases"][0]["ranks"]["max_ops_per_second"]')" = true ]
	check "seed 002: text: per-rank rows, their spread, the slowest rank" sh -c "grep -Eq '^phase untar over 2 ranks: ops/s min .* slowest rank [01] ' '$T/out' && grep -Eq '^seconds per rank: min [0-9.]+, max [0-9.]+, mean [0-9.]+; spread [0-9.]+ s' '$T/out' && [ \$(sed -n '/^seconds per rank:/,/^devices of host/p' '$T/out' | grep -Ec '^ +[01] [^ ]+ +[0-9]+ +[0-9.]+ +[0-9.]+ ') -eq 2 ]"
	check "seed 002: device counters per distinct host, summing to the phase's" [ "$(json "$j" '[h["host"] for h in d["hosts"]] == sorted(set(r["host"] for r in d["ranks"])) and all(("none" in p["device"]) == all("none" in h["phases"][i]["device"] for h in d["hosts"]) and ("none" in p["device"] or all(p["device"][k] == sum(h["phases"][i]["device"][k] for h in d["hosts"]) for k in ("reads", "writes", "bytes_read", "bytes_written"))) for i, p in enumerate(d["phases"]))')" = true ]
	check "seed 002: text: a devices line per host" grep -Eq '^devices of host [^ ]+ \(ranks 0,1\): ' "$T/out"
	check "seed 002: no run directory left" no_rundir
else
	ok "seed 002: # SKIP built without libarchive (--tarball)"
fi

run $M "$FSGAUGE" bonnie -d "$d" -r 0 -s 4 -n 1:2048:1024:2 -m tiny --json "$T/bonnie.json"
check "bonnie: exit 0" [ "$rc" -eq 0 ]
check "bonnie: reduced ops = sum of the ranks'" [ "$(reduced "$T/bonnie.json")" = true ]
check "bonnie: histograms = ops" [ "$(hist_ok "$T/bonnie.json")" = true ]
check "bonnie: one progress line per test (rank 0's)" [ "$(grep -o 'Writing intelligently' "$T/err" | wc -l)" -eq 1 ]
check "bonnie: no run directory left" no_rundir
# the table is the reduced run's: its CSV line's rates are the JSON's
# metrics (whole numbers, as bonnie++ prints them), not rank 0's own;
# every write slowed by 1 ms (faulty's delay=, a sleep: whatever the
# machine's speed or load), so that the three write tests of 8 MiB take
# over bonnie++'s 0.5 s and are measured, not "+++++"
run $M "$FSGAUGE" bonnie -d "$d" -r 0 -s 8 -n 0 -m big --engine faulty:psync:op=write,delay=1000 \
	--json "$T/bonnie_slow.json"
check "bonnie, slowed writes: exit 0" [ "$rc" -eq 0 ]
cat >"$T/csvrates.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
csv = [l for l in open(sys.argv[2]) if l.startswith("big,")][0].strip().split(",")
# fields 2, 4, ... 12: putc, put_block, rewrite, getc, get_block, seeks
names = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks"]
ok, measured = True, 0
for i, n in enumerate(names):
    cell = csv[2 + 2 * i]
    p = [x for x in d["phases"] if x["name"] == n][0]["metrics"]
    rate = p.get("bonnie_kib_per_sec", p.get("bonnie_per_sec"))["value"]
    if cell.startswith("+"):
        ok = ok and p["bonnie_too_fast"]["value"] == 1
    else:
        measured += 1
        ok = ok and abs(int(cell) - rate) <= 1
print("true" if ok and measured else "false")
PY
check "bonnie: the table's CSV rates are the reduced JSON's (at least one measured)" \
	[ "$(python3 "$T/csvrates.py" "$T/bonnie_slow.json" "$T/out")" = true ]

# io with verify: every rank reads back what it wrote, in the same phases;
# when the runtime ends the writes, no rank reads back (the ranks agree)
run $M "$FSGAUGE" io --rw=randwrite --bs=4k --size=64k --verify=crc32c -d "$d" -q --json "$T/iov.json"
check "io, verify: exit 0, each rank's 16 blocks read back in the read-back phase" \
	[ "$rc/$(json "$T/iov.json" "[(p['name'], [o['ops'] for o in p['operations'] if o['name'] in ('io.write', 'io.verify')]) for p in d['phases']]")" = "0/[('io', [48]), ('io.verify', [48])]" ]
check "io, verify: reduced ops = sum of the ranks'" [ "$(reduced "$T/iov.json")" = true ]
run timeout 120 $M "$FSGAUGE" io --rw=write --bs=4k --size=64m --rate_iops=50 --runtime=0.3 \
	--verify=crc32c -d "$d" -q --json "$T/iov.json"
check "io, verify, the runtime ends the writes: exit 0, no read-back on any rank" \
	[ "$rc/$(json "$T/iov.json" "[p['name'] for p in d['phases']]")" = "0/['io']" ]
check "io: no run directory left" no_rundir

run $M "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 1 --dir "$d" --json "$T/iozone.json"
check "iozone: exit 0" [ "$rc" -eq 0 ]
check "iozone: reduced ops = sum of the ranks'" [ "$(reduced "$T/iozone.json")" = true ]
check "iozone: histograms = ops (timed operations)" [ "$(hist_ok "$T/iozone.json")" = true ]
check "iozone: no run directory left" no_rundir
# ten more: every phase's stonewalls settle between phases (a lost one
# hung the next round); each run is bounded, none may time out
hung=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	timeout 60 $M "$FSGAUGE" iozone -t 2 -s 256k -r 64k -i 0 -i 1 --dir "$d" >/dev/null 2>&1 || hung=$((hung + 1))
done
check "iozone: ten more runs, none hung or failed" [ "$hung" -eq 0 ]

# iozone's stonewall across ranks: rank 0 has 16 records a thread, ranks
# 1 and 2 256 each, with 2 ms a read (faulty delay=): the first thread to
# finish raises the stonewall on every rank, the others' reads stop early
small="$FSGAUGE iozone -t 2 -s 64k -r 4k -i 0 -i 1 --dir $d --json $T/wall.json"
slow="--engine faulty:psync:op=read,delay=2000"
run mpirun --oversubscribe --allow-run-as-root -np 1 $small : -np 2 "$FSGAUGE" iozone -t 2 -s 1m \
	-r 4k -i 0 -i 1 --dir "$d" $slow
j="$T/wall.json"
check "stonewall: exit 0" [ "$rc" -eq 0 ]
check "stonewall: reduced ops = sum of the ranks'" [ "$(reduced "$j")" = true ]
check "stonewall: histograms = ops" [ "$(hist_ok "$j")" = true ]
rd='[p for p in d["phases"] if p["name"] == "readers"][0]'
ri='[r["phases"][i] for r in sorted(d["ranks"], key=lambda r: r["rank"]) for i, p in enumerate(d["phases"]) if p["name"] == "readers"]'
check "stonewall: the readers' raised by rank 0, ranks 1 and 2 stopped by it (JSON)" \
	[ "$(json "$j" "$rd[\"ranks\"][\"stonewall_rank\"] == 0 and $rd[\"ranks\"][\"stonewall_peer_ranks\"] == 2 and [x[\"stonewall\"] for x in $ri] == [\"raised\", \"peer\", \"peer\"] and $ri[0][\"stonewall_seconds\"] <= min(x[\"stonewall_seconds\"] for x in $ri)")" = true ]
check "stonewall: the slow ranks read less than their share (512 records each)" \
	[ "$(json "$j" "all(x[\"ops\"] < 512 for x in $ri[1:]) and sum(o[\"ops\"] for o in $rd[\"operations\"] if o[\"name\"].endswith(\".read\")) < 32 + 2 * 512")" = true ]
check "stonewall: every phase's first raiser is a rank that raised it" \
	[ "$(json "$j" 'all(p["ranks"]["stonewall_rank"] is not None and d["ranks"][p["ranks"]["stonewall_rank"]]["phases"][i]["stonewall"] == "raised" for i, p in enumerate(d["phases"]))')" = true ]
check "stonewall: text: who raised it, whom it stopped" \
	grep -Eq '^stonewall: raised by rank 0 \([^)]+\) [0-9.]+ s after the first start; it stopped ranks 1,2$' "$T/out"
run "$FSGAUGE" report "$j" -o "$T/wall.html"
check "stonewall: report: exit 0, well-formed" sh -c "[ $rc -eq 0 ] && python3 -c 'import xml.dom.minidom as m, sys; m.parse(sys.argv[1])' '$T/wall.html'"
check "stonewall: report: who raised it, when, whom it stopped" \
	grep -Eq '<p class="stonewall" data-rank="0" data-peers="2">stonewall: raised by rank 0 \([^)]+\) [0-9.]+ s after the first start; it stopped 2 ranks: 1,2</p>' "$T/wall.html"
wall_rows() {
	python3 - "$T/wall.html" "$j" <<'PY'
import json, re, sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
d = json.load(open(sys.argv[2]))
want = {"raised": "raised", "peer": "stopped by a peer", None: "-"}
for t in doc.getElementsByTagName("table"):
    if t.getAttribute("data-table") != "ranks" or t.getAttribute("data-phase") != "readers":
        continue
    rows = [[c.firstChild.data if c.firstChild else "" for c in tr.getElementsByTagName("td")] for tr in t.getElementsByTagName("tr")[1:]]
    ph = [[p for p in r["phases"] if p["name"] == "readers"][0] for r in d["ranks"]]
    ok = len(rows) == 3 and all(int(row[0].split()[0]) == r["rank"] and int(row[2]) == p["ops"] and row[7] == want[p["stonewall"]] for row, r, p in zip(rows, d["ranks"], ph))
    print("true" if ok else "false")
    sys.exit(0)
print("false")
PY
}
check "stonewall: report: one row per rank with its ops and stonewall" [ "$(wall_rows)" = true ]
check "stonewall: no run directory left" no_rundir
# -x: no stonewall; every rank reads all its records
run mpirun --oversubscribe --allow-run-as-root -np 1 $small -x : -np 2 "$FSGAUGE" iozone -t 2 -s 1m \
	-r 4k -i 0 -i 1 -x --dir "$d" $slow
check "stonewall -x: exit 0" [ "$rc" -eq 0 ]
check "stonewall -x: none raised, every record read" \
	[ "$(json "$j" "all(p[\"ranks\"][\"stonewall_rank\"] is None for p in d[\"phases\"]) and all(x[\"stonewall\"] is None for x in $ri) and sum(o[\"ops\"] for o in $rd[\"operations\"] if o[\"name\"].endswith(\".read\")) == 32 + 2 * 512")" = true ]
check "stonewall -x: no stonewall line" sh -c "! grep -q '^stonewall:' '$T/out'"

# a fault on rank 2 only (an MPMD command line): all stop, exit 1, one error
run mpirun --oversubscribe --allow-run-as-root -np 2 "$FSGAUGE" run varmail -t 20 -s nfiles=200 -d "$d" --json "$T/fault.json" : \
	-np 1 "$FSGAUGE" run varmail -t 20 -s nfiles=200 -d "$d" --json "$T/fault.json" \
	--engine faulty:psync:op=fsync,nth=20,err=EIO
check "fault on rank 2: exit 1" [ "$rc" -eq 1 ]
check "fault on rank 2: one error message" [ "$(grep -c '^fsgauge: .*Input/output error' "$T/err")" -eq 1 ]
check "fault on rank 2: rank 0's result names rank 2's error" [ "$(json "$T/fault.json" 'd["status"]["stopped_on_error"] and d["status"]["first_error"].startswith("rank 2: ")')" = true ]
check "fault on rank 2: the others stopped by it (peer), well before -t 20" [ "$(json "$T/fault.json" 'sorted(r["phases"][0]["end_reason"] for r in d["ranks"]) == ["error", "peer", "peer"] and all(r["phases"][0]["seconds"] < 15 for r in d["ranks"])')" = true ]
check "fault on rank 2: no run directory left" no_rundir

# --repeat: each run reduced over the ranks, then folded as one process
# folds its runs: per phase, each run's reduced ops (repeats[k]) is the
# sum of that run's rank rows (ranks[].phases[].repeats[k]); the JSON's
# repeats, repeat_stats and metrics have the single-process shape
per_run() {
	json "$1" 'len(d["ranks"]) == 3 and all(len(p["repeats"]) == '"$2"' and len(p["ranks"]["repeats"]) == '"$2"' and all(h["ops"] == sum(q["repeats"][k]["ops"] for r in d["ranks"] for q in r["phases"] if q["name"] == p["name"] and q["repeats"][k]["repeat"] == k) for k, h in enumerate(p["repeats"])) for p in d["phases"])'
}
same_shape() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def shape(d):
    return [(p["name"], sorted(p["repeats"][0]), sorted((k, sorted(v)) for k, v in p["repeat_stats"].items()),
             sorted((k, sorted(v)) for k, v in p.get("metrics", {}).items())) for p in d["phases"]]
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("true" if shape(a) == shape(b) and all(len(m["runs"]) == m["n"] for p in a["phases"] for m in p.get("metrics", {}).values()) else "false")
PY
}
run "$FSGAUGE" run varmail -t 1 -s nfiles=50 -d "$d" --repeat 2 --json "$T/rep1.json"
run timeout 120 $M "$FSGAUGE" run varmail -t 1 -s nfiles=50 -d "$d" --repeat 3 --json "$T/rep.json"
check "--repeat 3: run: exit 0" [ "$rc" -eq 0 ]
check "--repeat 3: run: each run's reduced ops = the sum of its rank rows" [ "$(per_run "$T/rep.json" 3)" = true ]
check "--repeat 3: run: repeats and repeat_stats as without mpirun (n 3)" \
	[ "$(same_shape "$T/rep.json" "$T/rep1.json") $(json "$T/rep.json" 'd["phases"][0]["repeat_stats"]["ops_per_second"]["n"]')" = "true 3" ]
check "--repeat 3: run: a line per run in the ranks' block" [ "$(grep -Ec '^run [1-3]: ops/s min .* slowest rank [0-2] ' "$T/out")" -eq 3 ]
check "--repeat 3: run: every rank's run directory removed" no_rundir
run "$FSGAUGE" compare --brief "$T/rep1.json" "$T/rep.json"
check "--repeat 3: compare reads it" [ "$rc" -eq 0 ]
run "$FSGAUGE" report "$T/rep.json" -o "$T/rep.html"
check "--repeat 3: report reads it" sh -c "[ $rc -eq 0 ] && python3 -c 'import xml.dom.minidom as m, sys; m.parse(sys.argv[1])' '$T/rep.html'"
check "--repeat 3: report: a row per host with the JSON's device figures (the runs together)" \
	[ "$(host_rows "$T/rep.html" "$T/rep.json")" = true ]
iz="iozone -t 2 -s 256k -r 64k -i 0 -i 1 --dir $d"
run "$FSGAUGE" $iz --repeat 2 --json "$T/irep1.json"
run timeout 120 $M "$FSGAUGE" $iz --repeat 3 --json "$T/irep.json"
check "--repeat 3: iozone: exit 0" [ "$rc" -eq 0 ]
check "--repeat 3: iozone: each run's reduced ops = the sum of its rank rows" [ "$(per_run "$T/irep.json" 3)" = true ]
check "--repeat 3: iozone: repeats, repeat_stats and metrics' runs as without mpirun" [ "$(same_shape "$T/irep.json" "$T/irep1.json")" = true ]
check "--repeat 3: iozone: every rank's run directory removed" no_rundir
# a fault on rank 2 in run 2 (iozone -x: 16 writes a run, the 20th
# fails): every rank stops there, one error, exit 1; runs 1 and 2 kept
izx="$FSGAUGE iozone -t 2 -s 256k -r 64k -x -i 0 --dir $d --repeat 3 --json $T/rfault.json"
run timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 $izx : -np 1 $izx \
	--engine faulty:psync:op=write,nth=20,err=EIO
check "--repeat, fault on rank 2 in run 2: exit 1, one error" \
	sh -c "[ $rc -eq 1 ] && [ \$(grep -c '^fsgauge: .*Input/output error' '$T/err') -eq 1 ]"
check "--repeat, fault on rank 2 in run 2: no run 3, runs 1 and 2 kept and marked" [ "$(json "$T/rfault.json" 'd["status"]["stopped_on_error"] and d["status"]["first_error"].startswith("rank 2: ") and [len(p["repeats"]) for p in d["phases"]] == [2, 1] and [r["phases"][0]["repeats"][1]["end_reason"] for r in d["ranks"]][2] == "error"')" = true ]
check "--repeat, fault on rank 2 in run 2: run 3 never started" sh -c "! grep -q '^Repeat 3 of 3' '$T/err'"
check "--repeat, fault on rank 2 in run 2: no run directory left" no_rundir

# options not reduced yet: refused on every rank, exit 2
expect_fail "--interval under mpirun: refused" 2 "^fsgauge: --interval cannot be used under mpirun" \
	$M "$FSGAUGE" run varmail -t 1 -d "$d" --interval 1
check "--interval refused: nothing created" no_rundir
# several targets: each rank its own run directory in each target; the
# targets' figures reduced as the phase's (docs/targets.md, docs/mpi.md)
ta="$T/ta" tb="$T/tb"
mkdir "$ta" "$tb"
run $M "$FSGAUGE" run varmail -t 1 -s nfiles=50 -s nthreads=2 -d "$ta" -d "$tb" --per-target \
	--keep --json "$T/tg.json"
check "several targets: exit 0" [ "$rc" -eq 0 ]
# one_per_rank DIR...: one run directory of each of the 3 ranks in each DIR
one_per_rank() {
	for t; do
		for r in 0 1 2; do
			[ "$(ls "$t" | grep -c "^fsgauge-.*-r$r-")" -eq 1 ] || return 1
		done
	done
}
check "several targets: a run directory per rank in each target" one_per_rank "$ta" "$tb"
check "several targets: reduced ops = sum of the ranks'" [ "$(reduced "$T/tg.json")" = true ]
check "several targets: each target's operations in every rank, its bytes the phase's share" \
	[ "$(json "$T/tg.json" 'all(len(p["targets"]) == 2 and [t["target"] for t in p["targets"]] == ["'"$ta"'", "'"$tb"'"] and all(sum(t[k] for t in p["targets"]) == sum(o[k] for o in p["operations"]) > 0 for k in ("bytes_read", "bytes_written")) for p in d["phases"])')" = true ]
rm -rf "$ta"/fsgauge-* "$tb"/fsgauge-*
run $M "$FSGAUGE" iozone -i 0 -t 2 -s 64k -r 4k -F "$ta/f1" "$tb/f2" --json "$T/tgi.json"
check "iozone -F in two directories under mpirun: exit 0" [ "$rc" -eq 0 ]
check "  reduced ops = sum of the ranks'" [ "$(reduced "$T/tgi.json")" = true ]
check "  each target's bytes written: its file's, from every rank" \
	[ "$(json "$T/tgi.json" '[t["bytes_written"] for t in d["phases"][0]["targets"]] == [3 * 65536, 3 * 65536]')" = true ]
check "  no run directory left in either" empty_dir "$ta" "$tb"
# the preflight counts every rank's share of each target: a 2 MiB tmpfs
# holds one rank's 1 MiB file, not three
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=2m fsgauge-mpi-tb "$tb" 2>/dev/null; then
	expect_fail "several targets: one too small for the ranks' files (exit 2)" 2 \
		"^fsgauge: not enough free space for 2 threads x 3 ranks: 3.0 MiB needed, '$tb' has" \
		$M "$FSGAUGE" iozone -i 0 -t 2 -s 1m -r 64k -F "$ta/f1" "$tb/f2"
	check "  nothing created in either" empty_dir "$ta" "$tb"
	umount "$tb"
else
	ok "several targets: one too small for the ranks' files # SKIP needs root to mount a tmpfs"
fi
rmdir "$ta" "$tb"

# a target one rank cannot use: every rank stops before running, exit 2
expect_fail "missing target: exit 2" 2 "cannot" $M "$FSGAUGE" run varmail -t 1 -d "$T/none"

# SIGINT to mpirun: rank 0 writes the partial result.  mpirun sends the
# ranks SIGTERM and SIGKILL odls_base_sigkill_timeout seconds later (1 by
# default; Open MPI 4.1 waits that long before the SIGTERM too): on a
# loaded machine a rank may need more to stop, reduce and clean up, so
# the tests give it 10
export OMPI_MCA_odls_base_sigkill_timeout=10
$M "$FSGAUGE" run varmail -t 60 -s nfiles=200 -d "$d" --json "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
pid=$!
if wait_for "$T/int.err" "^Running" 30; then
	sleep 1
	kill -INT $pid
fi
wait $pid
check "SIGINT: rank 0's partial result, marked interrupted" [ "$(json "$T/int.json" 'd["status"]["interrupted"] and d["phases"][0]["summary"]["ops"] > 0')" = true ]
check "SIGINT: no run directory left" no_rundir

# SIGINT in run 2 of --repeat 3: runs 1 and 2 (partial) in rank 0's
# result (run 2 lasts longer than mpirun's 10 s before the SIGTERM)
rm -f "$T/rint.out" "$T/rint.err" "$T/rint.json"
# (--foreground: timeout signals mpirun only, which signals the ranks)
timeout --foreground 180 $M "$FSGAUGE" run varmail -t 20 -s nfiles=50 -d "$d" --repeat 3 --json "$T/rint.json" \
	>"$T/rint.out" 2>"$T/rint.err" &
pid=$!
w=0
while [ "$(cat "$T/rint.err" 2>/dev/null | grep -c '^Running')" -lt 2 ] && [ $w -lt 600 ]; do
	sleep 0.1
	w=$((w + 1))
done
sleep 1
kill -INT $pid
wait $pid
check "--repeat, SIGINT in run 2: partial result, marked interrupted, runs 1 and 2" [ "$(json "$T/rint.json" 'd["status"]["interrupted"] and len(d["phases"][0]["repeats"]) == 2 and all(h["ops"] > 0 for h in d["phases"][0]["repeats"]) and all(r["phases"][0]["repeats"][1]["end_reason"] in ("signal", "peer") for r in d["ranks"]) and any(r["phases"][0]["repeats"][1]["end_reason"] == "signal" for r in d["ranks"])')" = true ]
check "--repeat, SIGINT in run 2: no run directory left" no_rundir
finish
