#!/bin/sh
# outputs.sh — the files results go to (--json, report -o, compare --json,
# iozone -b): checked before anything runs, never a block device, written
# whole or not at all (a symlink to a file is replaced, not written
# through; links of other users: outfile_links.sh), and written after the
# run directory is removed (so that a full file system still takes them);
# `--json -` puts the JSON alone on stdout; a reader that closes the pipe
# early leaves nothing behind; workload names cannot touch fsgauge's
# marker; -d and -s dir= must agree; the report shows each result's
# command line, quoted so that a shell reads back the words given.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
small="-t 1 -q -s nfiles=20 -s meandirwidth=5"

# --- checked before the run: nothing created, exit 2 ---
expect_fail "--json in a missing directory: exit 2 before running" 2 \
	"cannot write the JSON result to '$T/no/r.json' \(directory '$T/no'\): No such file" \
	"$FSGAUGE" run varmail -d "$d" $small --json "$T/no/r.json"
check "... nothing was created in the target" empty_dir "$d"
expect_fail "--json '': exit 2" 2 "the JSON result needs a file name" \
	"$FSGAUGE" run varmail -d "$d" $small --json ""
expect_fail "--json a directory: exit 2" 2 "cannot write the JSON result to '$T': Is a directory" \
	"$FSGAUGE" run varmail -d "$d" $small --json "$T"
expect_fail "untar --json in a missing directory: exit 2" 2 \
	"cannot write the JSON result to '$T/no/u.json'" \
	"$FSGAUGE" untar --synthetic tiny -d "$d" -q --json "$T/no/u.json"
expect_fail "bonnie --json in a missing directory: exit 2" 2 \
	"cannot write the JSON result to '$T/no/b.json'" \
	"$FSGAUGE" bonnie -d "$d" -s 0 -n 1 -q --json "$T/no/b.json"
expect_fail "iozone -b in a missing directory: exit 2" 2 \
	"cannot write the spreadsheet to '$T/no/x.xls'" \
	"$FSGAUGE" iozone --dir "$d" -s 64k -r 4k -i 0 -b "$T/no/x.xls"
check "... nothing was created by any of them" empty_dir "$d"

# --- -d and -s dir= ---
expect_fail "-d and -s dir= naming different directories: exit 2" 2 \
	"-d '$d' and -s dir='$T' name different directories" \
	"$FSGAUGE" run varmail -d "$d" -s dir="$T" $small

# --- the marker is not a workload's ---
cat > "$T/marker.f" <<'WML'
define file name=.fsgauge-run,path=$dir,size=1k,prealloc
define process name=p {
  thread name=t {
    flowop deletefile name=del,filesetname=.fsgauge-run
  }
}
WML
expect_fail "a file named .fsgauge-run: refused, exit 2" 2 \
	"marker.f:1:[0-9]+: name '.fsgauge-run' is reserved" \
	"$FSGAUGE" run "$T/marker.f" -d "$d" -t 1 -q

# --- --json -: the JSON alone on stdout, the table on stderr ---
run "$FSGAUGE" run varmail -d "$d" $small --json -
check "--json -: exit 0" [ "$rc" -eq 0 ]
check "--json -: stdout is one JSON document" \
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out"
check "--json -: the breakdown and IO Summary went to stderr" \
	grep -q "^IO Summary:" "$T/err"
run "$FSGAUGE" bonnie -d "$d" -s 0 -n 1 --json -
check "bonnie --json -: stdout is one JSON document, the CSV on stderr" sh -c \
	"[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/out' && grep -Eq '^[^ ,]+(,[^,]*){20,}\$' '$T/err'"
run "$FSGAUGE" untar --synthetic tiny -d "$d" -q --json -
check "untar --json -: stdout is one JSON document" sh -c \
	"[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/out'"
run "$FSGAUGE" iozone --dir "$d" -s 64k -r 4k -i 0 --json -
check "iozone --json -: stdout is one JSON document, the report on stderr" sh -c \
	"[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/out' && grep -q 'iozone test complete' '$T/err'"
check "... and nothing is left in the target" empty_dir "$d"

# --- replaced whole: an existing result file, and the temporary file ---
echo "old" > "$T/r.json"
run "$FSGAUGE" run varmail -d "$d" $small --json "$T/r.json"
check "an existing result file is replaced by the new result" \
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))["schema_version"]' "$T/r.json"
check "... and no temporary file is left beside it" \
	sh -c "[ -z \"\$(ls -A '$T' | grep '^\.r\.json\.')\" ]"
umask_mode=$(stat -c %a "$T/r.json")
check "... with the mode a new file gets ($umask_mode)" \
	[ "$umask_mode" = "$(printf '%o' $((0666 & ~$(umask))))" ]
echo "mine" > "$T/target.json"
ln -s "$T/target.json" "$T/link.json"
run "$FSGAUGE" run varmail -d "$d" $small --json "$T/link.json"
check "a symlink to a file: replaced by the result, the file it named untouched" sh -c \
	"[ $rc -eq 0 ] && [ ! -L '$T/link.json' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/link.json' && [ \"\$(cat '$T/target.json')\" = mine ]"
ln -s "$T/nowhere/x.json" "$T/dangling.json"
expect_fail "a symlink to nothing: exit 2 before running" 2 \
	"cannot write the JSON result to '$T/dangling.json': No such file or directory" \
	"$FSGAUGE" run varmail -d "$d" $small --json "$T/dangling.json"
run "$FSGAUGE" run varmail -d "$d" $small --json /dev/null
check "--json /dev/null (a character device): written in place, exit 0" \
	sh -c "[ $rc -eq 0 ] && [ -c /dev/null ]"

# --- a closed pipe: the run ends, cleans up, and says it could not write ---
"$FSGAUGE" run varmail -d "$d" $small 2>&1 | head -c 1 > /dev/null
check "a reader closing the pipe early: nothing left in the target" empty_dir "$d"
( "$FSGAUGE" run varmail -d "$d" -t 1 -s nfiles=20 2>&1; echo "rc=$?" > "$T/pipe.rc" ) | head -c 1 > /dev/null
check "... and the exit status is not a signal's nor 0 ($(cat "$T/pipe.rc"))" \
	sh -c "grep -Eq '^rc=(1|3)$' '$T/pipe.rc'"

# --- compare and report outputs ---
"$FSGAUGE" run varmail -d "$d" $small --label a --json "$T/a.json" > /dev/null 2>&1
"$FSGAUGE" run varmail -d "$d" $small --label b --json "$T/b.json" > /dev/null 2>&1
expect_fail "report -o a directory: exit 2" 2 "cannot write the report to '$T': Is a directory" \
	"$FSGAUGE" report "$T/a.json" "$T/b.json" -o "$T"
expect_fail "compare --json in a missing directory: exit 2" 2 \
	"cannot write the comparison to '$T/no/c.json'" \
	"$FSGAUGE" compare "$T/a.json" "$T/b.json" --json "$T/no/c.json"
run "$FSGAUGE" report "$T/a.json" "$T/b.json" -o "$T/r.html"
check "report -o FILE: written (exit 0)" sh -c "[ $rc -eq 0 ] && grep -q '<html' '$T/r.html'"

# --- the report shows each result's command line, pasteable ---
# (words with a space, a quote and HTML's characters; a result without
# one, as older files, says so)
"$FSGAUGE" run varmail -d "$d" $small --engine null --label "it's <b>&c" --json "$T/q r.json" \
	> /dev/null 2>&1
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["label"]="old"; del d["command_line"]
json.dump(d,open(sys.argv[2],"w"))' "$T/a.json" "$T/old.json"
run "$FSGAUGE" report "$T/a.json" "$T/q r.json" "$T/old.json" -o "$T/cl.html"
check "report of results with command lines: exit 0" [ "$rc" -eq 0 ]
python3 - "$T" > "$T/cl.out" 2>&1 << 'PY'
import json, subprocess, sys
import xml.etree.ElementTree as ET
t = sys.argv[1]
H = "{http://www.w3.org/1999/xhtml}"
root = ET.parse(t + "/cl.html").getroot()
env = [s for s in root.iter(H + "section") if s.get("id") == "environment"][0]
rows = [tr for tr in env.iter(H + "tr") if tr.get("data-key") == "command_line"]
assert len(rows) == 1, "one command-line row in the environment: %d" % len(rows)
tds = rows[0].findall(H + "td")
assert len(tds) == 3, "a cell per result: %d" % len(tds)
for i, name in enumerate(("a.json", "q r.json")):
    want = json.load(open(t + "/" + name))["command_line"]
    code = tds[i].find(H + "code")
    assert code is not None, "%s: no <code>" % name
    line = code.text
    # the shell reads the line back into the words run was given
    got = subprocess.run(["sh", "-c", 'for w in %s; do printf "%%s\\0" "$w"; done' % line],
                         capture_output=True, check=True).stdout.decode().split("\0")[:-1]
    assert got == want, "%s: %r read back as %r" % (name, line, got)
assert "'it'\\''s <b>&c'" in tds[1].find(H + "code").text, tds[1].find(H + "code").text
assert "'" + t + "/q r.json'" in tds[1].find(H + "code").text, "the quoted file name"
assert "".join(tds[2].itertext()) == "(not recorded)", "".join(tds[2].itertext())
print("ok")
PY
check "... a command-line row, each pasteable (sh reads back run's words), HTML-escaped" \
	sh -c "[ \"\$(cat '$T/cl.out')\" = ok ]"
[ "$(cat "$T/cl.out")" = ok ] || sed 's/^/# /' "$T/cl.out"
check "... the markup escaped: no raw <b> from the label" sh -c "! grep -q '<b>&c' '$T/cl.html'"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["command_line"]=["fsgauge","second"]
json.dump(d,open(sys.argv[2],"w"))' "$T/a.json" "$T/a2.json"
run "$FSGAUGE" report "$T/a.json" "$T/a2.json" -o "$T/pool.html"
check "a result pooled from two files: its first file's command line" sh -c \
	"[ $rc -eq 0 ] && grep -q 'cmdline\">[^<]*fsgauge run varmail' '$T/pool.html' && ! grep -q 'fsgauge second' '$T/pool.html'"

# --- root only: block devices and a full file system ---
if [ "$(id -u)" -eq 0 ] && command -v losetup > /dev/null &&
	truncate -s 1M "$T/disk.img" && loop=$(losetup -f --show "$T/disk.img" 2> /dev/null); then
	ln -s "$loop" "$T/devlink"
	expect_fail "--json to a block device: refused, exit 2" 2 \
		"refusing to write the JSON result to block device '$loop'" \
		"$FSGAUGE" run varmail -d "$d" $small --json "$loop"
	expect_fail "report -o through a symlink to a block device: refused" 2 \
		"refusing to write the report to block device '$T/devlink'" \
		"$FSGAUGE" report "$T/a.json" "$T/b.json" -o "$T/devlink"
	expect_fail "compare --json to a block device: refused" 2 \
		"refusing to write the comparison to block device" \
		"$FSGAUGE" compare "$T/a.json" "$T/b.json" --json "$loop"
	expect_fail "iozone -b to a block device: refused" 2 \
		"refusing to write the spreadsheet to block device" \
		"$FSGAUGE" iozone --dir "$d" -s 64k -r 4k -i 0 -b "$loop"
	check "... the device holds only zeros still" \
		sh -c "[ \"\$(od -An -v -tx1 '$loop' | tr -d ' \n' | tr -d 0)\" = '' ]"
	losetup -d "$loop"
else
	ok "# SKIP block devices: needs root and losetup"
fi
if [ "$(id -u)" -eq 0 ] && mkdir "$T/full" && mount -t tmpfs -o size=2m tmpfs "$T/full" 2> /dev/null; then
	# appends until the file system has not a page left
	cat > "$T/fill.f" <<'WML'
define file name=big,path=$dir,size=0,prealloc
define process name=p {
  thread name=t {
    flowop appendfile name=app,filename=big,iosize=64k
  }
}
WML
	run "$FSGAUGE" run "$T/fill.f" -d "$T/full" -t 10 -q --json "$T/full/res.json"
	check "ENOSPC during the run: exit 1" [ "$rc" -eq 1 ]
	check "... the result, on the full file system, is whole and marked" \
		python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["status"]; sys.exit(not (s["stopped_on_error"] and not s["complete"] and "No space" in s["first_error"]))' \
		"$T/full/res.json"
	check "... and it is all that is left there" sh -c "[ \"\$(ls -A '$T/full')\" = res.json ]"
	umount "$T/full"
else
	ok "# SKIP full file system: needs root and tmpfs"
fi
finish
