#!/bin/sh
# Several targets on two file systems (docs/targets.md): two tmpfs
# mounts, one large and one of 2 MiB.  iozone -F with a file on each:
# each file in the run directory of its own target, per-file and
# per-target figures, the summary over both, both run directories
# removed; ENOSPC on the small one while the large one has room, and
# SIGINT: a clean stop, both removed.  The same for run FILE.f with a
# fileset in each, run --per-target, bonnie, untar with two -d and io with
# two -d (fio's directory=/a:/b), and bonnie and run --per-target on a
# tmpfs and a loop-mounted ext4 together, each target's devices and cache
# verdict apart (skipped without mkfs.ext4 or a loop device).  Needs root
# (mount); skips without.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to mount two tmpfs"
a="$T/a" b="$T/b"
mkdir "$a" "$b"
mount -t tmpfs -o size=64m fsgauge-ta "$a" 2>/dev/null || skip_all "cannot mount a tmpfs"
if ! mount -t tmpfs -o size=2m fsgauge-tb "$b" 2>/dev/null; then
	umount "$a"
	skip_all "cannot mount a second tmpfs"
fi
e="$T/e"
trap 'umount "$a" "$b" "$e" 2>/dev/null; rm -rf "$T"' EXIT

# jcheck DESCRIPTION FILE EXPR: EXPR over the JSON in FILE is true
jcheck() {
	check "$1" [ "$(json "$2" "$3" 2>/dev/null)" = true ]
}

# --- iozone -F across the two: files, figures, cleanup --------------------
run "$FSGAUGE" iozone -i 0 -i 1 -t 2 -s 512k -r 64k -x -F "$a/f1" "$b/f2" --keep \
	--json "$T/i.json"
check "iozone -F on two file systems: exit 0" [ "$rc" -eq 0 ]
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
checked "  a marked run directory in each target"
[ "$(stat -c %s "$ka/f1")" -eq 524288 ] && [ "$(stat -c %s "$kb/f2")" -eq 524288 ] &&
	[ ! -e "$ka/f2" ] && [ ! -e "$kb/f1" ]
checked "  each file in its own target's run directory, written in full"
grep -q "fsgauge: 1 thread in '$a'" "$T/out" && grep -q "fsgauge: 1 thread in '$b'" "$T/out"
checked "  the section names each target"
jcheck "  per-file figures: both threads moved 512 KB in each test" "$T/i.json" \
	'all(p["metrics"]["t0.xfer"]["value"] == 512 and p["metrics"]["t1.xfer"]["value"] == 512 for p in d["phases"])'
jcheck "  per-target throughput > 0 and the Children figure is their sum" "$T/i.json" \
	'all(p["metrics"]["target1.throughput"]["value"] > 0 and p["metrics"]["target2.throughput"]["value"] > 0 and abs(p["metrics"]["target1.throughput"]["value"] + p["metrics"]["target2.throughput"]["value"] - p["metrics"]["children_throughput"]["value"]) < 1e-6 * p["metrics"]["children_throughput"]["value"] for p in d["phases"])'
jcheck "  the result names both directories" "$T/i.json" \
	'd["parameters"]["dir"] == "'"$a"'" and d["parameters"]["dir2"] == "'"$b"'" and d["environment"]["target2"] == "'"$b"'"'
rm -rf "$ka" "$kb"
run "$FSGAUGE" iozone -i 0 -t 2 -s 512k -r 64k -F "$a/f1" "$b/f2" --quiet
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "iozone -F without --keep: exit 0, both run directories removed"

# --- the preflight per target ------------------------------------------------
expect_fail "iozone -F: the small target cannot hold its file (exit 2)" 2 \
	"^fsgauge: not enough free space for 2 threads: 4.0 MiB needed, '$b' has" \
	"$FSGAUGE" iozone -i 0 -t 2 -s 4m -r 64k -F "$a/f1" "$b/f2"
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"

# --- ENOSPC on the small one while the large one has room -------------------
# every write is slowed (faulty's delay=, no failure) so that the small
# tmpfs can be filled once both run directories exist; the writes there
# then meet a real ENOSPC
slow="faulty:psync:op=write,delay=20000"
spawn "$T/out" "$T/err" "$FSGAUGE" iozone -i 0 -t 2 -s 1m -r 4k -x -F "$a/f1" "$b/f2" \
	--engine "$slow" --json "$T/e.json"
wait_for "$T/err" "run directory: $b/" 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "ENOSPC on one target: exit 1" [ "$rc" -eq 1 ]
check "  the message names the write and the path" \
	grep -Eq "write '[^']*f2'.*: No space left on device" "$T/err" "$T/out"
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- SIGINT ----------------------------------------------------------------------
spawn "$T/out" "$T/err" "$FSGAUGE" iozone -i 0 -t 2 -s 1m -r 4k -x -F "$a/f1" "$b/f2" \
	--engine "$slow" --json "$T/s.json"
check "SIGINT: the run got going" wait_for "$T/out" 'Each thread writes'
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "SIGINT: JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "SIGINT: both run directories removed"

# --- run FILE.f with a fileset under each target ------------------------------
# fa in the large one, fb below a subdirectory of the small one; $dir is
# the first target (fc sits there)
two_f() {
	cat >"$T/two.f" <<EOF
define fileset name=fa,path=$a,entries=8,filesize=$1,prealloc
define fileset name=fb,path=$b/sub,entries=8,filesize=$1,prealloc=$2
define fileset name=fc,path=\$dir,entries=2,filesize=4k,prealloc
define process name=p,instances=1
{
  thread name=t,memsize=64k,instances=1
  {
    flowop openfile name=oa,filesetname=fa,fd=1
    flowop closefile name=ca,fd=1
    flowop $3 name=ob,filesetname=fb,fd=1
    flowop $4
    flowop closefile name=cb,fd=1
  }
}
run 1
EOF
}
two_f 4k 100 openfile "readwholefile name=rb,fd=1,iosize=4k"
run "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 1 --keep --json "$T/r.json"
check "run FILE.f with filesets under two -d: exit 0" [ "$rc" -eq 0 ]
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
checked "  a marked run directory in each target"
[ "$(ls "$ka/fa" | wc -l)" -eq 8 ] && [ "$(ls "$kb/sub/fb" | wc -l)" -eq 8 ] &&
	[ -d "$ka/fc" ] && [ ! -e "$kb/fa" ] && [ ! -e "$ka/sub" ] && [ ! -e "$kb/fc" ]
checked "  each fileset in its own target's run directory (the path below the target)"
jcheck "  the JSON names each fileset's target" "$T/r.json" \
	'[(f["name"], f["target"]) for f in d["filesets"]] == [("fa", "'"$a"'"), ("fb", "'"$b"'"), ("fc", "'"$a"'")]'
jcheck "  both flowops ran" "$T/r.json" \
	'all(o["ops"] > 0 for o in d["phases"][0]["operations"] if o["name"] in ("oa", "ob", "rb")) and len([o for o in d["phases"][0]["operations"] if o["name"] in ("oa", "ob", "rb")]) == 3'
rm -rf "$ka" "$kb"
run "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 1 -q
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "run FILE.f on two targets without --keep: exit 0, both removed"

# --- the refusals: a path under no target, a target holding no fileset -----
c="$T/c"
mkdir "$c"
expect_fail "run FILE.f: a fileset under none of the targets (exit 2)" 2 \
	"^fsgauge: fileset 'fb' has path '$b/sub', under none of the targets '$a' and '$c'; fsgauge only writes below its own run directory in each \(name the directory with -d\)\$" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$c" -t 1
empty_dir "$a" && empty_dir "$b" && empty_dir "$c"
checked "  nothing created"
expect_fail "run FILE.f: a -d holding none of the filesets (exit 2)" 2 \
	"^fsgauge: -d '$c' holds none of the filesets of workload 'two': give -d only for the directories its filesets' paths name \(docs/targets.md\)\$" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -d "$c" -t 1
empty_dir "$a" && empty_dir "$b" && empty_dir "$c"
checked "  nothing created"
expect_fail "run varmail: one \$dir and two -d stays refused" 2 \
	"^fsgauge: -d given twice \('$a' and '$b'\): workload 'varmail' has one \\\$dir" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -t 1
two_f 1m 100 openfile "readwholefile name=rb,fd=1,iosize=4k"
expect_fail "run FILE.f: the small target cannot hold its fileset (preflight, exit 2)" 2 \
	"^fsgauge: not enough free space for the workload: 8.0 MiB needed, '$b' has" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 1
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"

# --- ENOSPC on the small one while the large one has room -------------------
# fb's files are created and appended to during the run, each write
# slowed (faulty's delay=) so that the small tmpfs can be filled from
# outside once both run directories exist
two_f 1m 0 createfile "appendfilerand name=wb,fd=1,iosize=64k"
spawn "$T/out" "$T/err" "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 30 \
	--engine "faulty:psync:op=write,delay=20000" --json "$T/e.json"
wait_for "$T/err" "run directory: $b/" 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "run on two targets, ENOSPC on one: exit 1" [ "$rc" -eq 1 ]
check "  the message names the write and the path" \
	grep -Eq "No space left on device" "$T/err" "$T/out"
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- SIGINT ------------------------------------------------------------------
two_f 4k 100 openfile "readwholefile name=rb,fd=1,iosize=4k"
spawn "$T/out" "$T/err" "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 60 --json "$T/s.json"
check "run on two targets, SIGINT: the run got going" wait_for "$T/err" 'Starting 1 t threads'
kill -INT "$pid"
wait "$pid"
rc=$?
check "run on two targets, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- run --per-target: one varmail in each file system ------------------------
run "$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=10 -s filesize=4k -s nthreads=2 \
	--per-target --json "$T/p.json"
check "run --per-target on two file systems: exit 0" [ "$rc" -eq 0 ]
jcheck "  operations in each target, together the whole" "$T/p.json" \
	'sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith("@1")) > 0 and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith("@2")) > 0 and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"][-2:] in ("@1", "@2")) == sum(o["ops"] for o in d["phases"][0]["operations"])'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"
expect_fail "run --per-target: the small target cannot hold its instance (exit 2)" 2 \
	"^fsgauge: not enough free space .*'$b'" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=1000 -s filesize=16k --per-target
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"
spawn "$T/out" "$T/err" "$FSGAUGE" run varmail -d "$a" -d "$b" -t 60 -s nfiles=10 -s filesize=4k \
	--per-target --json "$T/s.json"
check "run --per-target, SIGINT: the run got going" wait_for "$T/err" '^Running'
kill -INT "$pid"
wait "$pid"
rc=$?
check "run --per-target, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- bonnie on the two: a line, a CSV line, figures and files each --------
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box --json "$T/b.json"
check "bonnie on two file systems: exit 0" [ "$rc" -eq 0 ]
[ "$(grep -c '^box@[12] ' "$T/out")" -eq 4 ] && [ "$(grep -c '^box@[12],1M,' "$T/out")" -eq 2 ]
checked "  two table lines in each section and two CSV lines, named MACHINE@K"
jcheck "  each target wrote its file and made its files" "$T/b.json" \
	'all({o["name"]: o for o in p["operations"]}["write@" + k]["bytes_written"] == 1048576 for p in d["phases"] if p["name"] == "put_block" for k in "12") and all({o["name"]: o for o in p["operations"]}["file.create@" + k]["ops"] == 1024 for p in d["phases"] if p["name"] == "seq_create" for k in "12")'
jcheck "  each test's rate per target > 0" "$T/b.json" \
	'all(p["metrics"][m + k]["value"] > 0 for p in d["phases"] if p["name"] != "remove_data" for m in ["bonnie_kib_per_sec" if p["name"] in ("putc", "put_block", "rewrite", "getc", "get_block") else "bonnie_per_sec"] for k in ("@1", "@2"))'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- bonnie: the preflight per target ----------------------------------------
expect_fail "bonnie: the small target cannot hold its file (exit 2)" 2 \
	"^fsgauge: not enough free space for the tests: 4.0 MiB needed, '$b' has 2.0 MiB free; use a smaller -s or -n, or another -d\$" \
	"$FSGAUGE" bonnie -d "$a" -d "$b" -s 4 -r 0 -n 0
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"

# --- bonnie: ENOSPC on the small one while the large one has room ----------
# every write slowed (faulty's delay=): the small tmpfs is filled from
# outside once both run directories exist (the target lines come after)
spawn "$T/out" "$T/err" "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box \
	--engine "faulty:psync:op=write,delay=20000" --json "$T/e.json"
wait_for "$T/err" "^Target 2: $b " 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "bonnie, ENOSPC on one target: exit 1" [ "$rc" -eq 1 ]
grep -Eq "fsgauge: flowop '[a-z_]+@2': write 'Bonnie.000': No space left on device\$" "$T/err" &&
	grep -q "^fsgauge: 1 operation errors; first: write 'Bonnie.000': No space left on device (target 2 '$b')\$" "$T/err"
checked "  the message names the target's operation, the file and the cause"
check "  both lines printed, the failed test blank on each" \
	[ "$(grep '^box@[12],1M,' "$T/out" | cut -d, -f3-4 | sort -u)" = "," ]
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- bonnie: SIGINT ------------------------------------------------------------
spawn "$T/out" "$T/err" "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box \
	--engine "faulty:psync:op=write,delay=20000" --json "$T/s.json"
check "bonnie on two targets, SIGINT: the run got going" wait_for "$T/err" '^Writing with putc'
kill -INT "$pid"
wait "$pid"
rc=$?
check "bonnie on two targets, SIGINT: exit 130" [ "$rc" -eq 130 ]
check "  says so" grep -q "^fsgauge: interrupted by a signal: partial results\$" "$T/err"
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- bonnie on a tmpfs and a loop-mounted ext4 --------------------------------
mkdir "$e"
if ! command -v mkfs.ext4 >/dev/null 2>&1; then
	ok "bonnie on tmpfs and ext4: # SKIP mkfs.ext4 not available"
elif ! truncate -s 64m "$T/ext4.img" || ! mkfs.ext4 -q -F "$T/ext4.img" >/dev/null 2>&1 ||
	! mount -o loop "$T/ext4.img" "$e" 2>/dev/null; then
	ok "bonnie on tmpfs and ext4: # SKIP cannot make or loop-mount an ext4"
else
	before=$(ls -A "$e")
	run "$FSGAUGE" bonnie -d "$a" -d "$e" -s 2 -r 0 -n 1 -m box --json "$T/x.json"
	check "bonnie on tmpfs and ext4: exit 0" [ "$rc" -eq 0 ]
	[ "$(grep -c '^box@[12] ' "$T/out")" -eq 4 ] &&
		[ "$(grep -c '^box@[12],2M,' "$T/out")" -eq 2 ]
	checked "  a line per target in each section, a CSV line each"
	jcheck "  each target wrote its file and made its files, rates > 0" "$T/x.json" \
		'all({o["name"]: o for o in p["operations"]}["write@" + k]["bytes_written"] == 2097152 and p["metrics"]["bonnie_kib_per_sec@" + k]["value"] > 0 for p in d["phases"] if p["name"] == "put_block" for k in "12") and all({o["name"]: o for o in p["operations"]}["file.create@" + k]["ops"] == 1024 and p["metrics"]["bonnie_per_sec@" + k]["value"] > 0 for p in d["phases"] if p["name"] == "seq_create" for k in "12")'
	jcheck "  the filesets name their targets" "$T/x.json" \
		'sorted({f["target"] for f in d["filesets"]}) == sorted(["'"$a"'", "'"$e"'"])'
	empty_dir "$a" && [ "$(ls -A "$e")" = "$before" ]
	checked "  both run directories removed (the ext4 as it was)"
	# devices and the cache verdict per target (docs/targets.md)
	jcheck "  each phase: an entry per target, in -d order, its file system and devices" \
		"$T/x.json" \
		'all([t["target"] for t in p["targets"]] == ["'"$a"'", "'"$e"'"] and p["targets"][0]["fs_type"] == "tmpfs" and p["targets"][0]["device"]["none"] == "tmpfs has no block device" and p["targets"][1]["fs_type"] == "ext4" and len(p["targets"][1]["device"]["devices"]) >= 1 and set(p["targets"][1]["device"]["devices"]) <= set(p["device"]["devices"]) for p in d["phases"])'
	jcheck "  the targets' bytes are the phase's operations' (every flowop in one target)" \
		"$T/x.json" \
		'all(sum(t[k] for t in p["targets"]) == sum(o[k] for o in p["operations"]) for p in d["phases"] for k in ("bytes_read", "bytes_written"))'
	jcheck "  put_block: each target wrote its own 2 MiB" "$T/x.json" \
		'all(t["bytes_written"] == 2097152 for p in d["phases"] if p["name"] == "put_block" for t in p["targets"])'
	jcheck "  the ext4's write amplification: its devices' bytes over its own operations'" \
		"$T/x.json" \
		'all(abs(t["device"]["write_amplification"] - t["device"]["bytes_written"] / t["bytes_written"]) < 1e-9 for p in d["phases"] for t in p["targets"][1:] if t["bytes_written"])'
	jcheck "  the tmpfs keeps files in memory, the ext4 not, nor the phase (not every target)" \
		"$T/x.json" \
		'all(p["targets"][0]["cache"]["memory_fs"] and not p["targets"][1]["cache"]["memory_fs"] and not p["cache"]["memory_fs"] for p in d["phases"])'
	jcheck "  putc: the tmpfs's writes absorbed, and the phase's reason names it" "$T/x.json" \
		'all(p["targets"][0]["cache"]["writes_absorbed"] and p["cache"]["write_reason"].startswith("target 1 " + chr(39) + "'"$a"'" + chr(39) + ": tmpfs keeps files in memory") for p in d["phases"] if p["name"] == "putc")'
	# the other order, repeated: the tmpfs second is still in memory (a
	# target's file system is its own, not the first's)
	run "$FSGAUGE" run varmail -d "$e" -d "$a" -t 1 -s nfiles=10 -s filesize=4k -s nthreads=2 \
		--per-target --repeat 2 --json "$T/y.json"
	check "run --per-target on ext4 then tmpfs, twice: exit 0" [ "$rc" -eq 0 ]
	grep -Eq "^  target 1 '$e' \(ext4\): devices \(loop[0-9]+\): [0-9]+ reads" "$T/out" &&
		grep -q "^  target 2 '$a' (tmpfs): devices: none (tmpfs has no block device)\$" "$T/out"
	checked "  a device line per target"
	jcheck "  the second target, the tmpfs, in memory; the first not" "$T/y.json" \
		'd["phases"][0]["targets"][1]["cache"]["memory_fs"] and d["phases"][0]["targets"][1]["cache"]["likely_cached"] and not d["phases"][0]["targets"][0]["cache"]["memory_fs"]'
	jcheck "  two runs folded: the targets' bytes still the operations' (both runs)" \
		"$T/y.json" \
		'len(d["phases"][0]["repeats"]) == 2 and all(sum(t[k] for t in p["targets"]) == sum(o[k] for o in p["operations"]) > 0 for p in d["phases"] for k in ("bytes_read", "bytes_written"))'
	# the report: a row per target with the JSON's figures; an entry
	# without a target name is skipped
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
d["phases"][0]["targets"].append({"target": 5})
json.dump(d, open(sys.argv[2], "w"))' "$T/y.json" "$T/z.json"
	run "$FSGAUGE" report "$T/z.json" -o "$T/y.html"
	check "report on it: exit 0" [ "$rc" -eq 0 ]
	check "  the targets table: a row per target, the JSON's MiB read and written" python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
t = re.search(r"<table data-table=\"targets\" data-phase=\"run\">(.*?)</table>", h, re.S).group(1)
rows = re.findall(r"<tr data-target=\"(\d+)\"><td>([^<]*)</td><td>([^<]*)</td><td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td>", t)
want = [(str(k + 1), x["target"], x["fs_type"], "%.1f" % (x["bytes_read"] / 1048576), "%.1f" % (x["bytes_written"] / 1048576)) for k, x in enumerate(d["phases"][0]["targets"])]
sys.exit(rows != want)' "$T/y.json" "$T/y.html"
	check "  the tmpfs row carries its verdict" \
		grep -q '<span data-verdict="reads"><strong>reads likely cached</strong>: tmpfs keeps files in memory</span>' "$T/y.html"
	umount "$e"
fi

# --- untar with two -d: every copy in each file system ------------------------
# a tarball of which two copies fit the small tmpfs (40 files of 16 KiB)
python3 -c '
import os, sys, tarfile, io
with tarfile.open(sys.argv[1], "w") as t:
    for i in range(40):
        ti = tarfile.TarInfo("d/f%03d" % i); ti.size = 16384
        t.addfile(ti, io.BytesIO(os.urandom(16384)))
' "$T/small.tar"
run "$FSGAUGE" untar --tarball "$T/small.tar" --copies 2 --jobs 2 -d "$a" -d "$b" --keep -q \
	--json "$T/u.json"
check "untar on two file systems: exit 0" [ "$rc" -eq 0 ]
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
checked "  a marked run directory in each target"
files=$(json "$T/u.json" 'd["parameters"]["tree.files"]')
nfiles() { find "$1" -type f | wc -l; }
[ "$(nfiles "$ka/copy-000")" -eq "$files" ] && [ "$(nfiles "$ka/copy-001")" -eq "$files" ] &&
	[ "$(nfiles "$kb/copy-000")" -eq "$files" ] && [ "$(nfiles "$kb/copy-001")" -eq "$files" ] &&
	[ ! -e "$ka/copy-002" ] && [ ! -e "$kb/copy-002" ]
checked "  both copies in each, every file of the tree in each copy"
jcheck "  the copies: two complete ones made by untar@1, two by untar@2" "$T/u.json" \
	'sorted((x["name"], x["index"], x["complete"]) for x in d["phases"][0]["executions"]) == [("untar@1", 0, True), ("untar@1", 1, True), ("untar@2", 0, True), ("untar@2", 1, True)]'
jcheck "  operations per target: the same tree's in each, together the whole" "$T/u.json" \
	'[o["ops"] for o in d["phases"][0]["operations"] if o["name"].startswith("untar@1.")] == [o["ops"] for o in d["phases"][0]["operations"] if o["name"].startswith("untar@2.")] and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].startswith("untar@1.")) > 0 and all(o["name"].split(".")[0] in ("untar@1", "untar@2") for o in d["phases"][0]["operations"])'
jcheck "  per-target metrics, the combined ones beside them" "$T/u.json" \
	'all(d["phases"][0]["metrics"][m + k]["value"] > 0 for m in ("seconds_per_copy", "files_per_second", "mib_per_second") for k in ("", "@1", "@2"))'
rm -rf "$ka" "$kb"
run "$FSGAUGE" untar --tarball "$T/small.tar" --copies 2 --jobs 2 -d "$a" -d "$b" --then rm \
	--json "$T/u.json"
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "untar --then rm on two file systems: exit 0, both run directories removed"
# ops of a target line: "  target K 'DIR': ... N ops"
tops() { grep -F "  target $1 '$2': " "$T/out" | sed -n "${3:-1}s/.*, \([0-9]*\) ops\$/\1/p"; }
[ "$(grep -c "^  target 1 '$a': 2 copies, " "$T/out")" -eq 2 ] &&
	[ "$(grep -c "^  target 2 '$b': 2 copies, " "$T/out")" -eq 2 ]
checked "  a line per target in each phase, with its copies"
check "  the combined line over all four copies" grep -q "(4 copies)\$" "$T/out"
[ "$(tops 1 "$a")" = "$(json "$T/u.json" 'sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].startswith("untar@1."))')" ] &&
	[ "$(tops 2 "$b" 2)" = "$(json "$T/u.json" 'sum(o["ops"] for o in d["phases"][1]["operations"] if o["name"].startswith("rm@2."))')" ]
checked "  a target line's ops are its operations' in the JSON"
jcheck "  the rm phase removed every copy in each target" "$T/u.json" \
	'sorted((x["name"], x["complete"]) for x in d["phases"][1]["executions"]) == [("rm@1", True)] * 2 + [("rm@2", True)] * 2'
expect_fail "untar: the small target cannot hold its copies (preflight, exit 2)" 2 \
	"^fsgauge: not enough free space for 1 copies: .* needed, '$b' has .*; use fewer --copies or another -d\$" \
	"$FSGAUGE" untar --synthetic tiny -d "$a" -d "$b"
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"
expect_fail "untar: a target that is not a directory (exit 2)" 2 \
	"^fsgauge: cannot use target directory '$T/two.f': Not a directory\$" \
	"$FSGAUGE" untar --synthetic tiny -d "$a" -d "$T/two.f"
check "  nothing left in the other" empty_dir "$a"

# --- untar: ENOSPC on the small one while the large one has room ----------------
# the tarball's files written 4 KiB at a time with every write slowed, so
# that the small one can be filled from outside once both run directories
# exist
spawn "$T/out" "$T/err" "$FSGAUGE" untar --tarball "$T/small.tar" --write-size 4k \
	-d "$a" -d "$b" --engine "faulty:psync:op=write,delay=20000" --json "$T/e.json"
wait_for "$T/err" "run directory: $b/" 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "untar on two targets, ENOSPC on one: exit 1" [ "$rc" -eq 1 ]
check "  the message names the write and the path" \
	grep -Eq "^fsgauge: flowop 'untar@2.write': write 'copy-000/d/f[0-9]*': No space left on device$" "$T/err"
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- untar: SIGINT ----------------------------------------------------------------
spawn "$T/out" "$T/err" "$FSGAUGE" untar --tarball "$T/small.tar" --write-size 4k --copies 2 \
	-d "$a" -d "$b" --engine "faulty:psync:op=write,delay=20000" --json "$T/s.json"
check "untar on two targets, SIGINT: the run got going" wait_for "$T/err" '^Running'
kill -INT "$pid"
wait "$pid"
rc=$?
check "untar on two targets, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- io with two -d: fio's directory=/a:/b ------------------------------------
# clone N of each job in directory N mod 2, all its nrfiles files there
run "$FSGAUGE" io --name=j --rw=write --bs=64k --size=256k --numjobs=3 --nrfiles=2 \
	-d "$a" -d "$b" --keep --json "$T/io.json"
check "io on two file systems: exit 0" [ "$rc" -eq 0 ]
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
checked "  a marked run directory in each target"
[ "$(cd "$ka" && ls)" = "$(printf 'j.0.0\nj.0.1\nj.2.0\nj.2.1')" ] &&
	[ "$(cd "$kb" && ls)" = "$(printf 'j.1.0\nj.1.1')" ]
checked "  clones 0 and 2 in the first, clone 1 in the second, as fio places them"
check "  every file written in full" \
	[ "$(cat "$ka"/j.* "$kb"/j.* | wc -c)" -eq $((3 * 262144)) ]
jcheck "  requests per target: two clones' in the first, one's in the second" "$T/io.json" \
	'{o["name"]: o["ops"] for o in d["phases"][0]["operations"] if o["ops"]} == {"j@1.write": 8, "j@2.write": 4}'
jcheck "  per-target metrics, the job's over both" "$T/io.json" \
	'abs(d["phases"][0]["metrics"]["write_iops@1"]["value"] + d["phases"][0]["metrics"]["write_iops@2"]["value"] - d["phases"][0]["metrics"]["write_iops"]["value"]) < 1e-6 * d["phases"][0]["metrics"]["write_iops"]["value"] and d["phases"][0]["metrics"]["write_iops@2"]["value"] > 0'
check "  fio's report counts the job's requests in both" grep -q "issued rwts: total=0,12,0,0" "$T/out"
grep -q "^  target 1 '$a': write: ios=8, " "$T/out" && grep -q "^  target 2 '$b': write: ios=4, " "$T/out"
checked "  a line per target"
rm -rf "$ka" "$kb"
run "$FSGAUGE" io --name=j --rw=randrw --bs=4k --size=256k --numjobs=2 --fsync=4 \
	--directory="$a:$b" --json "$T/io.json"
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "io --directory=A:B: exit 0, both run directories removed"
jcheck "  each target's clone read and wrote, and synced" "$T/io.json" \
	'all(sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"] in ("j@%d.read" % k, "j@%d.write" % k)) == 64 and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"] == "j@%d.fsync" % k) > 0 for k in (1, 2))'
jcheck "  the environment names the second target" "$T/io.json" 'd["environment"]["target2"] == "'"$b"'"'
expect_fail "io: a target that no clone's files go to (exit 2)" 2 \
	"^fsgauge: -d '$b' holds none of the jobs' files: with 2 directories clone N of each job works in directory N mod 2 \(a filename= in the first\), as fio's directory=/a:/b; give numjobs=2 or more, or fewer directories \(docs/io.md\)\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k -d "$a" -d "$b"
expect_fail "io: a filename= is in the first directory (exit 2)" 2 \
	"^fsgauge: --directory '$b' holds none of the jobs' files" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 --filename=f --directory="$a:$b"
expect_fail "io: -d and --directory naming other directories (exit 2)" 2 \
	"^fsgauge: -d '$a' and --directory '$b:$a' name different directories: give one\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 -d "$a" --directory="$b:$a"
expect_fail "io: an empty directory in the list (exit 2)" 2 \
	"^fsgauge: cannot use target directory '': No such file or directory\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 --directory="$a::$b"
expect_fail "io: a target that is not a directory (exit 2)" 2 \
	"^fsgauge: cannot use target directory '$T/two.f': Not a directory\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 -d "$a" -d "$T/two.f"
expect_fail "io: a filename= path under a target stays refused (exit 2)" 2 \
	"^fsgauge: job 'j': filename '$b/f' is outside the run directory" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 --filename="$b/f" -d "$a" -d "$b"
expect_fail "io: the small target cannot hold the file its clone reads (preflight, exit 2)" 2 \
	"^fsgauge: not enough free space .*'$b' has" \
	"$FSGAUGE" io --name=j --rw=read --size=4m --numjobs=2 -d "$a" -d "$b"
empty_dir "$a" && empty_dir "$b"
checked "  nothing left in either"

# --- io: ENOSPC on the small one while the large one has room ---------------------
spawn "$T/out" "$T/err" "$FSGAUGE" io --name=j --rw=write --bs=4k --size=1m --numjobs=2 \
	-d "$a" -d "$b" --ioengine=faulty:psync:op=write,delay=20000 --json "$T/e.json"
wait_for "$T/err" "run directory: $b/" 30
dd if=/dev/zero of="$b/filler" bs=64k 2>/dev/null
wait "$pid"
rc=$?
rm -f "$b/filler"
check "io on two targets, ENOSPC on one: exit 1" [ "$rc" -eq 1 ]
check "  the message names the write and the file" \
	grep -Eq "j@2.write.*j.1.0.*No space left on device" "$T/err"
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

# --- io: SIGINT ---------------------------------------------------------------------
spawn "$T/out" "$T/err" "$FSGAUGE" io --name=j --rw=write --bs=4k --size=1m --numjobs=2 \
	-d "$a" -d "$b" --ioengine=faulty:psync:op=write,delay=20000 --json "$T/s.json"
check "io on two targets, SIGINT: the run got going" wait_for "$T/err" '^Running'
kill -INT "$pid"
wait "$pid"
rc=$?
check "io on two targets, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"

finish
