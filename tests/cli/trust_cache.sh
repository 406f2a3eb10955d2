#!/bin/sh
# Cache honesty: reading a file much smaller than RAM is flagged as served
# from memory (text WARNING, phases[].cache.likely_cached), O_DIRECT reads
# are not, and a tmpfs target says it has no block device.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
cat > "$T/read.f" <<'WML'
define file name=small,path=$dir,size=4m,prealloc,reuse
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop read name=rd,filename=small,iosize=4k,random
  }
}
WML

run "$FSGAUGE" run "$T/read.f" -d "$d" -t 1 --json "$T/c.json"
check "small read working set: exit 0" [ "$rc" -eq 0 ]
check "text: WARNING that reads came from memory" \
	grep -q "^WARNING: reads were likely served from memory" "$T/out"
check "json: phases[].cache.likely_cached is true" \
	[ "$(json "$T/c.json" 'd["phases"][0]["cache"]["likely_cached"]')" = true ]
check "json: the reason is given" [ -n "$(json "$T/c.json" 'd["phases"][0]["cache"]["reason"]')" ]
check "json: read working set <= 4 MiB, RAM recorded" \
	[ "$(json "$T/c.json" '0 < d["phases"][0]["cache"]["read_working_set_bytes"] <= 4*1048576 < d["phases"][0]["cache"]["ram_bytes"]')" = true ]

fstype=$(stat -f -c %T "$d" 2>/dev/null)
if [ "$fstype" = tmpfs ]; then
	ok "# SKIP O_DIRECT: the test directory is on tmpfs"
elif ! dd if=/dev/zero of="$d/probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
	ok "# SKIP O_DIRECT: the file system refuses it"
	rm -f "$d/probe"
else
	rm -f "$d/probe"
	run "$FSGAUGE" run "$T/read.f" -d "$d" -t 1 --direct --json "$T/direct.json"
	check "--direct: exit 0" [ "$rc" -eq 0 ]
	check "--direct: no cache WARNING" sh -c "! grep -q 'WARNING: reads were likely' '$T/out'"
	check "--direct: likely_cached is false" \
		[ "$(json "$T/direct.json" 'd["phases"][0]["cache"]["likely_cached"]')" = false ]
	check "--direct: the reason names O_DIRECT or the device reads" \
		[ "$(json "$T/direct.json" '"O_DIRECT" in d["phases"][0]["cache"]["reason"] or "devices read" in d["phases"][0]["cache"]["reason"]')" = true ]
	check "--direct recorded" [ "$(json "$T/direct.json" 'd["parameters"]["direct"]')" = true ]
fi
check "nothing left behind" empty_dir "$d"

# tmpfs: no block device, and always memory
shm=""
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/fsgauge-test.XXXXXX)
	trap 'rm -rf "$shm"; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
fi
if [ -n "$shm" ]; then
	run "$FSGAUGE" run "$T/read.f" -d "$shm" -t 1 --json "$T/shm.json"
	check "tmpfs: exit 0" [ "$rc" -eq 0 ]
	check "tmpfs: json device.none says there is no block device" \
		[ "$(json "$T/shm.json" 'd["phases"][0]["device"]["none"]')" = "tmpfs has no block device" ]
	check "tmpfs: text says so" grep -q "^Devices: none (tmpfs has no block device)" "$T/out"
	check "tmpfs: reads flagged as memory" \
		[ "$(json "$T/shm.json" 'd["phases"][0]["cache"]["likely_cached"]')" = true ]
	check "tmpfs: environment says no block devices" \
		[ "$(json "$T/shm.json" 'd["environment"]["block_devices"]')" = "none: tmpfs has no block device" ]
	check "tmpfs: nothing left behind" empty_dir "$shm"
else
	ok "# SKIP tmpfs: /dev/shm is not a writable tmpfs"
fi
# --- the write side: written, not on the devices, nothing forcing it out ---
wd="$T/wtarget"
mkdir "$wd"
for sync in no yes; do
	{
		echo 'define file name=out,path=$dir,size=0'
		echo 'define process name=p,instances=1 {'
		echo '  thread name=t,memsize=1m,instances=1 {'
		echo '    flowop appendfile name=app,filename=out,iosize=1m,iters=16'
		[ "$sync" = yes ] && echo '    flowop fsync name=sync,filename=out'
		echo '    flowop finishonbytes name=stop,value=16m'
		echo '  }'
		echo '}'
	} > "$T/w-$sync.f"
	run "$FSGAUGE" run "$T/w-$sync.f" -d "$wd" -t 30 --json "$T/w-$sync.json"
	check "writes ($sync fsync): the run succeeds (exit $rc)" [ "$rc" -eq 0 ]
done
wa() { json "$T/w-$1.json" "d['phases'][0]['cache']$2"; }
check "with an fsync in the phase: never judged absorbed" [ "$(wa yes "['writes_absorbed']")" = false ]
check "... and no write warning" sh -c "! grep -q 'writes were likely absorbed' '$T/out'"
run "$FSGAUGE" run "$T/w-no.f" -d "$wd" -t 30 --json "$T/w-no.json"
dev_w=$(json "$T/w-no.json" "(d['phases'][0].get('device') or {}).get('total', {}).get('bytes_written', -1)")
if [ "$(wa no "['writes_absorbed']")" = true ]; then
	check "no fsync, devices wrote little: the text warns" grep -q "^WARNING: writes were likely absorbed by the page cache, not the storage: " "$T/out"
	check "... saying why" [ -n "$(wa no "['write_reason']")" ]
	cp "$T/w-no.json" "$T/w-no2.json"
	run "$FSGAUGE" compare "$T/w-no.json" "$T/w-no2.json"
	check "... and compare warns" grep -q "phase '.*': writes were likely absorbed by the page cache" "$T/out"
else
	# the devices (if counted) took a tenth or more: written out in time
	check "no fsync, devices wrote a tenth or more (or none counted): no warning (device bytes $dev_w)" \
		sh -c "! grep -q 'writes were likely absorbed' '$T/out'"
	ok "# SKIP the page cache flushed the writes during the run"
	ok "# SKIP the page cache flushed the writes during the run"
fi
check "writes: nothing left behind" empty_dir "$wd"

# --- every suite's text says what its JSON found, test by test -----------
# (the verdicts themselves depend on the machine; the text must match them)
cat > "$T/says.py" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
named = sys.argv[3] == "named"
kinds = [("likely_cached", "reads were likely served from memory, not the storage"),
	 ("writes_absorbed", "writes were likely absorbed by the page cache, not the storage")]
for p in d["phases"]:
	c = p.get("cache") or {}
	for key, words in kinds:
		pre = "WARNING: '%s': " % p["name"] if named else "WARNING: "
		said = re.search("^\\s*" + re.escape(pre + words), text, re.M) is not None
		assert said == bool(c.get(key)), (p["name"], key, c.get(key), said)
print("ok")
PY
sd="$T/suites"
mkdir "$sd"
run "$FSGAUGE" iozone -i 0 -i 1 -s 4m -r 64k --dir "$sd" --json "$T/ioz.json"
check "iozone: exit 0" [ "$rc" -eq 0 ]
check "iozone: 4 MiB reread from the page cache is flagged in the JSON" \
	[ "$(json "$T/ioz.json" '[p["cache"]["likely_cached"] for p in d["phases"] if p["name"].startswith("reread")]')" = "[True]" ]
check "iozone: a WARNING per test exactly where its JSON has one" \
	[ "$(python3 "$T/says.py" "$T/ioz.json" "$T/out" named 2>&1)" = ok ]
run "$FSGAUGE" iozone -a -n 1m -g 2m -y 64k -q 128k -i 0 -i 1 --dir "$sd" --json "$T/ioza.json"
check "iozone auto mode: exit 0" [ "$rc" -eq 0 ]
check "iozone auto mode: one line per test, counting its flagged cells" \
	[ "$(python3 - "$T/ioza.json" "$T/out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
n = {}
for p in d["phases"]:
	t = p["name"].split(" ")[0]
	n.setdefault(t, [0, 0])
	n[t][1] += 1
	n[t][0] += bool(p["cache"]["likely_cached"])
for t, (hit, cells) in n.items():
	lines = re.findall(r"^\tWARNING: '%s': reads were likely served from memory, not the storage, in (\d+) of its (\d+) cells; " % re.escape(t), text, re.M)
	assert lines == ([(str(hit), str(cells))] if hit else []), (t, hit, cells, lines)
assert n["reread"][0] > 0, "no reread cell flagged"
print("ok")
PY
)" = ok ]
run "$FSGAUGE" bonnie -d "$sd" -s 8 -r 0 -n 0 -f --json "$T/bon.json"
check "bonnie: exit 0" [ "$rc" -eq 0 ]
check "bonnie: the warnings on stderr, per test, where its JSON has them" \
	[ "$(python3 "$T/says.py" "$T/bon.json" "$T/err" named 2>&1)" = ok ]
check "bonnie: none on stdout (the table and CSV)" sh -c "! grep -q WARNING '$T/out'"
run "$FSGAUGE" io --name=w --rw=write --bs=64k --size=16m -d "$sd" --json "$T/io.json"
check "io: exit 0" [ "$rc" -eq 0 ]
check "io: the write warning where its JSON has one" \
	[ "$(python3 "$T/says.py" "$T/io.json" "$T/out" plain 2>&1)" = ok ]
check "suites: nothing left behind" empty_dir "$sd"

# --- iozone on tmpfs: its fsync after the timing reaches no device (and
# is not in the figure), so its write tests are flagged; with -e the
# fsync is timed and counts as the phase's sync ---------------------------
if [ -n "$shm" ]; then
	run "$FSGAUGE" iozone -i 0 -s 4m -r 64k --dir "$shm" --json "$T/iozshm.json"
	check "iozone on tmpfs: exit 0" [ "$rc" -eq 0 ]
	check "iozone on tmpfs: write and rewrite flagged, saying tmpfs" \
		[ "$(json "$T/iozshm.json" '[(p["cache"]["writes_absorbed"], "tmpfs keeps files in memory" in p["cache"]["write_reason"]) for p in d["phases"]]')" = "[(True, True), (True, True)]" ]
	check "iozone on tmpfs: a WARNING per test, naming it" \
		[ "$(grep -c "^	WARNING: '\(write\|rewrite\) 4096k 64k': writes were likely absorbed by the page cache" "$T/out")" = 2 ]
	run "$FSGAUGE" iozone -e -i 0 -s 4m -r 64k --dir "$shm" --json "$T/iozshme.json"
	check "iozone -e on tmpfs: the timed fsync counts: not flagged" \
		[ "$rc/$(json "$T/iozshme.json" '[p["cache"]["writes_absorbed"] for p in d["phases"]]')" = "0/[False, False]" ]
	check "iozone on tmpfs: nothing left behind" empty_dir "$shm"
fi
finish
