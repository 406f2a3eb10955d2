#!/bin/sh
# Several targets on two file systems (docs/targets.md): two tmpfs
# mounts, one large and one of 2 MiB.  iozone -F with a file on each:
# each file in the run directory of its own target, per-file and
# per-target figures, the summary over both, both run directories
# removed; ENOSPC on the small one while the large one has room, and
# SIGINT: a clean stop, both removed.  The same for run FILE.f with a
# fileset in each, run --per-target and bonnie, and bonnie on a tmpfs and
# a loop-mounted ext4 together (skipped without mkfs.ext4 or a loop
# device).  Needs root (mount); skips without.
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
check "  a marked run directory in each target" \
	[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
check "  each file in its own target's run directory, written in full" \
	[ "$(stat -c %s "$ka/f1")" -eq 524288 ] && [ "$(stat -c %s "$kb/f2")" -eq 524288 ] &&
	[ ! -e "$ka/f2" ] && [ ! -e "$kb/f1" ]
check "  the section names each target" \
	grep -q "fsgauge: 1 thread in '$a'" "$T/out" && grep -q "fsgauge: 1 thread in '$b'" "$T/out"
jcheck "  per-file figures: both threads moved 512 KB in each test" "$T/i.json" \
	'all(p["metrics"]["t0.xfer"]["value"] == 512 and p["metrics"]["t1.xfer"]["value"] == 512 for p in d["phases"])'
jcheck "  per-target throughput > 0 and the Children figure is their sum" "$T/i.json" \
	'all(p["metrics"]["target1.throughput"]["value"] > 0 and p["metrics"]["target2.throughput"]["value"] > 0 and abs(p["metrics"]["target1.throughput"]["value"] + p["metrics"]["target2.throughput"]["value"] - p["metrics"]["children_throughput"]["value"]) < 1e-6 * p["metrics"]["children_throughput"]["value"] for p in d["phases"])'
jcheck "  the result names both directories" "$T/i.json" \
	'd["parameters"]["dir"] == "'"$a"'" and d["parameters"]["dir2"] == "'"$b"'" and d["environment"]["target2"] == "'"$b"'"'
rm -rf "$ka" "$kb"
run "$FSGAUGE" iozone -i 0 -t 2 -s 512k -r 64k -F "$a/f1" "$b/f2" --quiet
check "iozone -F without --keep: exit 0, both run directories removed" \
	[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"

# --- the preflight per target ------------------------------------------------
expect_fail "iozone -F: the small target cannot hold its file (exit 2)" 2 \
	"^fsgauge: not enough free space for 2 threads: 4.0 MiB needed, '$b' has" \
	"$FSGAUGE" iozone -i 0 -t 2 -s 4m -r 64k -F "$a/f1" "$b/f2"
check "  nothing left in either" empty_dir "$a" && empty_dir "$b"

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
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

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
check "SIGINT: both run directories removed" empty_dir "$a" && empty_dir "$b"

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
check "  a marked run directory in each target" \
	[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ]
check "  each fileset in its own target's run directory (the path below the target)" \
	[ "$(ls "$ka/fa" | wc -l)" -eq 8 ] && [ "$(ls "$kb/sub/fb" | wc -l)" -eq 8 ] &&
	[ -d "$ka/fc" ] && [ ! -e "$kb/fa" ] && [ ! -e "$ka/sub" ] && [ ! -e "$kb/fc" ]
jcheck "  the JSON names each fileset's target" "$T/r.json" \
	'[(f["name"], f["target"]) for f in d["filesets"]] == [("fa", "'"$a"'"), ("fb", "'"$b"'"), ("fc", "'"$a"'")]'
jcheck "  both flowops ran" "$T/r.json" \
	'all(o["ops"] > 0 for o in d["phases"][0]["operations"] if o["name"] in ("oa", "ob", "rb")) and len([o for o in d["phases"][0]["operations"] if o["name"] in ("oa", "ob", "rb")]) == 3'
rm -rf "$ka" "$kb"
run "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 1 -q
check "run FILE.f on two targets without --keep: exit 0, both removed" \
	[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"

# --- the refusals: a path under no target, a target holding no fileset -----
c="$T/c"
mkdir "$c"
expect_fail "run FILE.f: a fileset under none of the targets (exit 2)" 2 \
	"^fsgauge: fileset 'fb' has path '$b/sub', under none of the targets '$a' and '$c'; fsgauge only writes below its own run directory in each \(name the directory with -d\)\$" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$c" -t 1
check "  nothing created" empty_dir "$a" && empty_dir "$b" && empty_dir "$c"
expect_fail "run FILE.f: a -d holding none of the filesets (exit 2)" 2 \
	"^fsgauge: -d '$c' holds none of the filesets of workload 'two': give -d only for the directories its filesets' paths name \(docs/targets.md\)\$" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -d "$c" -t 1
check "  nothing created" empty_dir "$a" && empty_dir "$b" && empty_dir "$c"
expect_fail "run varmail: one \$dir and two -d stays refused" 2 \
	"^fsgauge: -d given twice \('$a' and '$b'\): workload 'varmail' has one \\\$dir" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -t 1
two_f 1m 100 openfile "readwholefile name=rb,fd=1,iosize=4k"
expect_fail "run FILE.f: the small target cannot hold its fileset (preflight, exit 2)" 2 \
	"^fsgauge: not enough free space for the workload: 8.0 MiB needed, '$b' has" \
	"$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 1
check "  nothing left in either" empty_dir "$a" && empty_dir "$b"

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
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

# --- SIGINT ------------------------------------------------------------------
two_f 4k 100 openfile "readwholefile name=rb,fd=1,iosize=4k"
spawn "$T/out" "$T/err" "$FSGAUGE" run "$T/two.f" -d "$a" -d "$b" -t 60 --json "$T/s.json"
check "run on two targets, SIGINT: the run got going" wait_for "$T/err" 'Starting 1 t threads'
kill -INT "$pid"
wait "$pid"
rc=$?
check "run on two targets, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

# --- run --per-target: one varmail in each file system ------------------------
run "$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=10 -s filesize=4k -s nthreads=2 \
	--per-target --json "$T/p.json"
check "run --per-target on two file systems: exit 0" [ "$rc" -eq 0 ]
jcheck "  operations in each target, together the whole" "$T/p.json" \
	'sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith("@1")) > 0 and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith("@2")) > 0 and sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"][-2:] in ("@1", "@2")) == sum(o["ops"] for o in d["phases"][0]["operations"])'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"
expect_fail "run --per-target: the small target cannot hold its instance (exit 2)" 2 \
	"^fsgauge: not enough free space .*'$b'" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=1000 -s filesize=16k --per-target
check "  nothing left in either" empty_dir "$a" && empty_dir "$b"
spawn "$T/out" "$T/err" "$FSGAUGE" run varmail -d "$a" -d "$b" -t 60 -s nfiles=10 -s filesize=4k \
	--per-target --json "$T/s.json"
check "run --per-target, SIGINT: the run got going" wait_for "$T/err" '^Running'
kill -INT "$pid"
wait "$pid"
rc=$?
check "run --per-target, SIGINT: exit 130" [ "$rc" -eq 130 ]
jcheck "  JSON marked interrupted" "$T/s.json" 'd["status"]["interrupted"]'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

# --- bonnie on the two: a line, a CSV line, figures and files each --------
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box --json "$T/b.json"
check "bonnie on two file systems: exit 0" [ "$rc" -eq 0 ]
check "  two table lines in each section and two CSV lines, named MACHINE@K" \
	[ "$(grep -c '^box@[12] ' "$T/out")" -eq 4 ] && [ "$(grep -c '^box@[12],1M,' "$T/out")" -eq 2 ]
jcheck "  each target wrote its file and made its files" "$T/b.json" \
	'all({o["name"]: o for o in p["operations"]}["write@" + k]["bytes_written"] == 1048576 for p in d["phases"] if p["name"] == "put_block" for k in "12") and all({o["name"]: o for o in p["operations"]}["file.create@" + k]["ops"] == 1024 for p in d["phases"] if p["name"] == "seq_create" for k in "12")'
jcheck "  each test's rate per target > 0" "$T/b.json" \
	'all(p["metrics"][m + k]["value"] > 0 for p in d["phases"] if p["name"] != "remove_data" for m in ["bonnie_kib_per_sec" if p["name"] in ("putc", "put_block", "rewrite", "getc", "get_block") else "bonnie_per_sec"] for k in ("@1", "@2"))'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

# --- bonnie: the preflight per target ----------------------------------------
expect_fail "bonnie: the small target cannot hold its file (exit 2)" 2 \
	"^fsgauge: not enough free space for the tests: 4.0 MiB needed, '$b' has 2.0 MiB free; use a smaller -s or -n, or another -d\$" \
	"$FSGAUGE" bonnie -d "$a" -d "$b" -s 4 -r 0 -n 0
check "  nothing left in either" empty_dir "$a" && empty_dir "$b"

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
check "  the message names the target's operation, the file and the cause" \
	grep -Eq "fsgauge: flowop '[a-z_]+@2': write 'Bonnie.000': No space left on device\$" "$T/err" &&
	grep -q "^fsgauge: 1 operation errors; first: write 'Bonnie.000': No space left on device (target 2 '$b')\$" "$T/err"
check "  both lines printed, the failed test blank on each" \
	[ "$(grep '^box@[12],1M,' "$T/out" | cut -d, -f3-4 | sort -u)" = "," ]
jcheck "  JSON marked stopped on error, not complete" "$T/e.json" \
	'd["status"]["stopped_on_error"] and not d["status"]["complete"] and "No space left" in d["status"]["first_error"]'
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

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
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"

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
	check "  a line per target in each section, a CSV line each" \
		[ "$(grep -c '^box@[12] ' "$T/out")" -eq 4 ] &&
		[ "$(grep -c '^box@[12],2M,' "$T/out")" -eq 2 ]
	jcheck "  each target wrote its file and made its files, rates > 0" "$T/x.json" \
		'all({o["name"]: o for o in p["operations"]}["write@" + k]["bytes_written"] == 2097152 and p["metrics"]["bonnie_kib_per_sec@" + k]["value"] > 0 for p in d["phases"] if p["name"] == "put_block" for k in "12") and all({o["name"]: o for o in p["operations"]}["file.create@" + k]["ops"] == 1024 and p["metrics"]["bonnie_per_sec@" + k]["value"] > 0 for p in d["phases"] if p["name"] == "seq_create" for k in "12")'
	jcheck "  the filesets name their targets" "$T/x.json" \
		'sorted({f["target"] for f in d["filesets"]}) == sorted(["'"$a"'", "'"$e"'"])'
	check "  both run directories removed (the ext4 as it was)" \
		empty_dir "$a" && [ "$(ls -A "$e")" = "$before" ]
	umount "$e"
fi

finish
