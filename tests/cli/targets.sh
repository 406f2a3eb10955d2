#!/bin/sh
# Several targets (docs/targets.md): a suite or workload that runs in one
# target refuses several -d (iozone's --dir, verify) with a message saying
# what to give, exit 2, and nothing is created in any of them; those that
# take several (iozone -F, run, bonnie, untar, io) on two directories.
. "$(dirname "$0")/lib.sh"

a="$T/a" b="$T/b" c="$T/c"
mkdir "$a" "$b" "$c"
two="given twice \('$a' and '$b'\)"

expect_fail "run: two -d with a one-\$dir workload" 2 \
	"^fsgauge: -d $two: workload 'varmail' has one \\\$dir, so it runs in one target; give one -d, or --per-target to run it in each \(docs/targets.md\)\$" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -t 1
expect_fail "run: three -d are listed" 2 \
	"^fsgauge: -d given 3 times \('$a', '$b', '$c'\): workload 'varmail' has one" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -d "$a" -d "$c" -t 1
expect_fail "run: --dir spelled long counts as -d" 2 "^fsgauge: -d $two: workload 'webserver'" \
	"$FSGAUGE" run webserver --dir "$a" --dir="$b" -t 1
expect_fail "run: several -d and -s dir=" 2 \
	"^fsgauge: -s dir='$a' and several -d name different directories: give one\$" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" -s dir="$a" -t 1
expect_fail "run --dry-run: refused too" 2 "^fsgauge: -d $two: workload 'varmail'" \
	"$FSGAUGE" run varmail -d "$a" -d "$b" --dry-run
expect_fail "iozone: two --dir" 2 \
	"^fsgauge: --dir $two: iozone runs in one directory; give one --dir, or name files in several directories with -F \(docs/targets.md\)\$" \
	"$FSGAUGE" iozone --dir "$a" --dir "$b" -i 0 -s 64k -r 4k
expect_fail "verify: two -d" 2 \
	"^fsgauge: -d $two: verify writes and checks its files in one directory; give one -d" \
	"$FSGAUGE" verify -d "$a" -d "$b"
for x in "$a" "$b" "$c"; do
	check "  nothing created in $(basename "$x")" empty_dir "$x"
done

# untar with two -d: every copy in each (tests/cli/targets_mounts.sh: two
# file systems, the figures, ENOSPC and SIGINT)
run "$FSGAUGE" untar --synthetic tiny --copies 2 -d "$a" -d "$b" -q --json "$T/u.json"
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "untar with two -d: exit 0, both run directories removed"
check "  two copies in each target" \
	[ "$(json "$T/u.json" 'sorted(x["name"] for x in d["phases"][0]["executions"] if x["complete"])')" = "['untar@1', 'untar@1', 'untar@2', 'untar@2']" ]
# each target's figures are declared (metric_defs: NAME@K, "target K"),
# so compare shows them with their units
jcheck_defs() {
	json "$1" 'all(any(m["name"] == n and m["label"].endswith(", target " + n[-1]) for m in d["metric_defs"]) for p in d["phases"] for n in p["metrics"] if "@" in n)'
}
check "  each target's metrics declared" [ "$(jcheck_defs "$T/u.json")" = true ]
cp "$T/u.json" "$T/u2.json"
run "$FSGAUGE" compare "$T/u.json" "$T/u2.json"
check "  compare shows them, labelled and with their units" \
	grep -q "^  files/s, all copies, target 2 (files/s) " "$T/out"
expect_fail "untar: a -d that does not exist (exit 2)" 2 \
	"^fsgauge: cannot use target directory '$c/none': No such file or directory\$" \
	"$FSGAUGE" untar --synthetic tiny -d "$a" -d "$c/none"
check "  nothing left in the other" empty_dir "$a"

# io with two -d, and with fio's --directory=A:B: clone N in directory N
# mod 2 (tests/cli/targets_mounts.sh: two file systems, the figures,
# ENOSPC and SIGINT)
run "$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 -d "$a" -d "$b" -q --json "$T/io.json"
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "io with two -d: exit 0, both run directories removed"
check "  a clone's requests in each" \
	[ "$(json "$T/io.json" 'sorted(o["name"] for o in d["phases"][0]["operations"] if o["ops"] and o["name"].endswith(".write"))')" = "['j@1.write', 'j@2.write']" ]
check "  each target's metrics declared" [ "$(jcheck_defs "$T/io.json")" = true ]
run "$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 --directory="$a:$b" -q
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "io --directory=A:B: exit 0, both run directories removed"
run "$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 -d "$a" -d "$b" --directory="$a:$b" -q
check "io: -d and --directory naming the same directories: exit 0" [ "$rc" -eq 0 ]
# a file engine's chain: each clone's files made, then statted, in its own
# directory (one name in two directories is two files)
run "$FSGAUGE" io --nrfiles=3 --filesize=4k '--filename_format=f.$filenum' --numjobs=2 \
	--name=create --ioengine=filecreate --name=stat --stonewall --ioengine=filestat \
	-d "$a" -d "$b" -q --json "$T/io.json"
[ "$rc" -eq 0 ] && empty_dir "$a" && empty_dir "$b"
checked "io: filecreate then filestat on two -d: exit 0, both removed"
check "  each clone's three files made and statted in its own directory" \
	[ "$(json "$T/io.json" '[sorted((o["name"], o["ops"]) for o in p["operations"] if o["ops"] and o["name"] != "done") for p in d["phases"]]')" = "[[('create@1.read', 3), ('create@2.read', 3)], [('stat@1.read', 3), ('stat@2.read', 3)]]" ]
expect_fail "io: a -d that does not exist (exit 2)" 2 \
	"^fsgauge: cannot use target directory '$c/none': No such file or directory\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --numjobs=2 -d "$a" -d "$c/none"
check "  nothing left in the other" empty_dir "$a"

# iozone -F with files in two directories: each is a target, with its own
# run directory, removed afterwards (tests/cli/targets_mounts.sh: two file
# systems, ENOSPC and SIGINT)
run "$FSGAUGE" iozone -i 0 -t 2 -s 64k -r 4k -x -F "$a/f1" "$b/f1" --quiet --json "$T/i.json"
check "iozone -F in two directories: exit 0" [ "$rc" -eq 0 ]
check "  one file name in two directories is two files" \
	[ "$(json "$T/i.json" 'd["phases"][0]["metrics"]["t0.xfer"]["value"] == 64 and d["phases"][0]["metrics"]["t1.xfer"]["value"] == 64')" = true ]
check "  each target's throughput declared (target<K>.throughput)" \
	[ "$(json "$T/i.json" '[(m["name"], m["unit"], m["label"]) for m in d["metric_defs"] if m["name"].startswith("target")] == [("target1.throughput", "KB/s", "throughput, target 1"), ("target2.throughput", "KB/s", "throughput, target 2")]')" = true ]
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"
expect_fail "iozone -F: one name twice in one directory" 2 \
	"^fsgauge: file name 'f1' is given twice to -F in '$a'\$" \
	"$FSGAUGE" iozone -i 0 -t 3 -s 64k -r 4k -F "$a/f1" "$b/f2" "$a/../a/f1"
empty_dir "$a" && empty_dir "$b"
checked "  nothing created"

# --- run --per-target: one instance of the workload in each target --------
run "$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=20 -s nthreads=2 --per-target \
	--json "$T/p.json"
check "run --per-target on two directories: exit 0" [ "$rc" -eq 0 ]
grep -q "Starting 1 filereader@1 instances" "$T/err" && grep -q "Starting 1 filereader@2 instances" "$T/err"
checked "  one instance started in each"
check "  every operation named NAME@1 or NAME@2, each name in both" \
	[ "$(json "$T/p.json" 'sorted(o["name"][:-2] for o in d["phases"][0]["operations"] if o["name"].endswith("@1")) == sorted(o["name"][:-2] for o in d["phases"][0]["operations"] if o["name"].endswith("@2")) and all(o["name"][-2:] in ("@1", "@2") for o in d["phases"][0]["operations"])')" = true ]
check "  operations in each target" \
	[ "$(json "$T/p.json" 'all(sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith(k)) > 0 for k in ("@1", "@2"))')" = true ]
# the target lines' ops, and the IO Summary's
ops_of() { grep -F "$1" "$T/out" | sed -n 's/^[^:]*: \([0-9]*\) ops .*/\1/p'; }
t1=$(ops_of "  target 1 '$a'") t2=$(ops_of "  target 2 '$b'") all=$(ops_of "IO Summary")
[ -n "$t1" ] && [ -n "$t2" ] && [ "$((t1 + t2))" -eq "$all" ]
checked "  a line per target; their ops add up to the IO Summary's"
check "  a target line's ops are its operations' in the JSON" \
	[ "$(json "$T/p.json" 'sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"].endswith("@1"))')" = "$t1" ]
check "  the JSON: per_target, each fileset in its own target" \
	[ "$(json "$T/p.json" 'd["parameters"]["per_target"] == "true" and sorted((f["name"], f["target"]) for f in d["filesets"]) == [("bigfileset@1", "'"$a"'"), ("bigfileset@2", "'"$b"'")]')" = true ]
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"
run "$FSGAUGE" run varmail -d "$a" -d "$b" -t 1 -s nfiles=20 -s nthreads=1 --per-target --keep -q
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ "$rc" -eq 0 ] && [ -d "$ka/bigfileset@1" ] && [ -d "$kb/bigfileset@2" ] &&
	[ ! -e "$ka/bigfileset@2" ] && [ ! -e "$kb/bigfileset@1" ]
checked "run --per-target --keep: each instance's fileset in its target's run directory"
rm -rf "$ka" "$kb"
expect_fail "run --per-target with one -d" 2 \
	"^fsgauge: --per-target runs the workload once in each target: give -d more than once\$" \
	"$FSGAUGE" run varmail -d "$a" -t 1 --per-target
cat >"$T/sub.f" <<EOF
define fileset name=fa,path=$a/sub,entries=4,filesize=4k,prealloc
define process name=p,instances=1
{
  thread name=t,memsize=64k,instances=1
  {
    flowop openfile name=oa,filesetname=fa,fd=1
    flowop closefile name=ca,fd=1
  }
}
run 1
EOF
expect_fail "run --per-target: a fileset not under \$dir" 2 \
	"^fsgauge: --per-target: fileset 'fa' has path '$a/sub', not under [$]dir \('$b'\); --per-target runs workloads whose files are all under [$]dir \(docs/targets.md\)\$" \
	"$FSGAUGE" run "$T/sub.f" -d "$a" -d "$b" --per-target
empty_dir "$a" && empty_dir "$b"
checked "  nothing created"

# --- bonnie on two directories: a line, a CSV line and figures each ------
# (tests/cli/targets_mounts.sh: two file systems, ENOSPC and SIGINT)
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box --keep --json "$T/b.json"
check "bonnie on two directories: exit 0" [ "$rc" -eq 0 ]
[ "$(grep -c '^box@1 ' "$T/out")" -eq 2 ] && [ "$(grep -c '^box@2 ' "$T/out")" -eq 2 ] &&
	[ "$(grep -c '^Machine ' "$T/out")" -eq 1 ]
checked "  the table: a line per target in each section, named MACHINE@K"
[ "$(grep -c '^box@[12],1M,' "$T/out")" -eq 2 ] &&
	[ "$(grep '^box@[12],1M,' "$T/out" | awk -F, 'NF == 27' | wc -l)" -eq 2 ]
checked "  two CSV lines, 27 fields each"
grep -q "^Target 1: $a (its lines: box@1)\$" "$T/err" &&
	grep -q "^Target 2: $b (its lines: box@2)\$" "$T/err"
checked "  stderr says which target each line is"
ka=$(ls -d "$a"/fsgauge-* 2>/dev/null) kb=$(ls -d "$b"/fsgauge-* 2>/dev/null)
[ -f "$ka/.fsgauge-run" ] && [ -f "$kb/.fsgauge-run" ] && [ -d "$ka/files" ] && [ -d "$kb/files" ]
checked "  --keep: a marked run directory in each, each with its own files directory"
rm -rf "$ka" "$kb"
# every test's operations are each target's, NAME@1 and NAME@2, and each
# target did the whole test: the data file written, 1024 files made
jcheck() {
	check "$1" [ "$(json "$2" "$3" 2>/dev/null)" = true ]
}
jcheck "  each test's operations named @1 and @2, the same in both" "$T/b.json" \
	'all(sorted(o["name"][:-2] for o in p["operations"] if o["name"].endswith("@1")) == sorted(o["name"][:-2] for o in p["operations"] if o["name"].endswith("@2")) and all(o["name"][-2:] in ("@1", "@2") for o in p["operations"]) for p in d["phases"])'
jcheck "  each target wrote the whole file and made 1024 files" "$T/b.json" \
	'all({o["name"]: o for o in p["operations"]}["write@" + k]["bytes_written"] == 1048576 for p in d["phases"] if p["name"] == "put_block" for k in "12") and all({o["name"]: o for o in p["operations"]}["file.create@" + k]["ops"] == 1024 for p in d["phases"] if p["name"] in ("seq_create", "ran_create") for k in "12")'
jcheck "  each test's figures per target (NAME@K) > 0, in the metrics table" "$T/b.json" \
	'all(p["metrics"][m + k]["value"] > 0 for p in d["phases"] if p["name"] != "remove_data" for m in ("bonnie_kib_per_sec" if p["name"] in ("putc", "put_block", "rewrite", "getc", "get_block") else "bonnie_per_sec", "bonnie_max_latency") for k in ("@1", "@2")) and {"bonnie_kib_per_sec@2", "bonnie_cpu@1"} <= {m["name"] for m in d["metric_defs"]}'
jcheck "  the combined figure: every target's amount over the test's time (at most the sum of theirs)" "$T/b.json" \
	'all(abs(p["metrics"]["bonnie_kib_per_sec"]["value"] * p["seconds"] - 2048) < 1e-6 * 2048 and p["metrics"]["bonnie_kib_per_sec"]["value"] <= p["metrics"]["bonnie_kib_per_sec@1"]["value"] + p["metrics"]["bonnie_kib_per_sec@2"]["value"] for p in d["phases"] if p["name"] == "put_block")'
jcheck "  the JSON: targets 2, each fileset in its target" "$T/b.json" \
	'd["parameters"]["targets"] == "2" and d["environment"]["target2"] == "'"$b"'" and sorted((f["name"], f["target"]) for f in d["filesets"]) == [("Bonnie", "'"$a"'"), ("Bonnie", "'"$b"'"), ("files", "'"$a"'"), ("files", "'"$b"'")]'
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 -m box --format 19 -x 2
[ "$rc" -eq 0 ] && [ "$(grep -c '^format_version,' "$T/out")" -eq 1 ] &&
	[ "$(grep -c '^1.98,fsgauge,box@1,' "$T/out")" -eq 2 ] &&
	[ "$(grep -c '^1.98,fsgauge,box@2,' "$T/out")" -eq 2 ] && [ "$(wc -l <"$T/out")" -eq 5 ]
checked "bonnie on two directories, -x 2 --format 19: a 1.98 header and a line per target per run"
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 0 -m box --format 64 --csv 103 -q
[ "$rc" -eq 0 ] && [ "$(grep -c '^box@[12],1M,' "$T/out")" -eq 2 ] && [ "$(wc -l <"$T/out")" -eq 2 ]
checked "bonnie on two directories, --format 64 -q: the CSV lines alone on stdout"
[ "$(grep -c '^box@[12] ' "$T/err")" -eq 2 ] && ! grep -q '^Target' "$T/err"
checked "  the bonnie-64 table on stderr, a line per target"
empty_dir "$a" && empty_dir "$b"
checked "  both run directories removed"
run "$FSGAUGE" bonnie -d "$a" -d "$b" -s 1 -r 0 -n 1 --dry-run
[ "$rc" -eq 0 ] && grep -q "^target: $a " "$T/out" && grep -q "^target: $b " "$T/out" &&
	grep -q ", in $b:\$" "$T/out"
checked "bonnie --dry-run on two directories: each target's needs"
empty_dir "$a" && empty_dir "$b"
checked "  nothing created"
expect_fail "bonnie: a second -d that does not exist (exit 2)" 2 \
	"^fsgauge: cannot use target directory '$T/none': No such file or directory\$" \
	"$FSGAUGE" bonnie -d "$a" -d "$T/none" -s 1 -r 0 -n 1
check "  nothing left in the first" empty_dir "$a"
run "$FSGAUGE" bonnie -d "$a" -d "$a" -s 1 -r 0 -n 0 -m box
[ "$rc" -eq 0 ] && [ "$(grep -c '^box ' "$T/out")" -eq 1 ] && ! grep -q '@' "$T/out"
checked "bonnie: the same -d twice is one target (one line, no @K)"

# the same directory named twice is one target
run "$FSGAUGE" run varmail -d "$a" -d "$a" -t 1 -q -s nfiles=20 -s filesize=4k
check "run: the same -d twice is one target (exit 0)" [ "$rc" -eq 0 ]
check "  and its run directory is removed" empty_dir "$a"
finish
