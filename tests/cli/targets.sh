#!/bin/sh
# Several targets (docs/targets.md): a suite or workload that runs in one
# target refuses several -d (bonnie's -d, iozone's --dir) with a message
# saying what to give, exit 2, and nothing is created in any of them.
. "$(dirname "$0")/lib.sh"

a="$T/a" b="$T/b" c="$T/c"
mkdir "$a" "$b" "$c"
two="given twice \('$a' and '$b'\)"

expect_fail "run: two -d with a one-\$dir workload" 2 \
	"^fsgauge: -d $two: workload 'varmail' has one \\\$dir, so it runs in one target; give one -d \(docs/targets.md\)\$" \
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
expect_fail "bonnie: two -d" 2 \
	"^fsgauge: -d $two: bonnie tests one directory; give one -d \(docs/targets.md\)\$" \
	"$FSGAUGE" bonnie -d "$a" -d "$b" -s 0 -n 1
expect_fail "iozone: two --dir" 2 \
	"^fsgauge: --dir $two: iozone runs in one directory; give one --dir, or name files in several directories with -F \(docs/targets.md\)\$" \
	"$FSGAUGE" iozone --dir "$a" --dir "$b" -i 0 -s 64k -r 4k
expect_fail "untar: two -d" 2 \
	"^fsgauge: -d $two: untar unpacks into one directory; give one -d \(docs/targets.md\)\$" \
	"$FSGAUGE" untar -d "$a" -d "$b" --synthetic small
expect_fail "verify: two -d" 2 \
	"^fsgauge: -d $two: verify writes and checks its files in one directory; give one -d" \
	"$FSGAUGE" verify -d "$a" -d "$b"
expect_fail "io: two -d" 2 \
	"^fsgauge: -d $two: io runs its jobs in one directory; give one -d \(docs/targets.md\)\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k -d "$a" -d "$b"
for x in "$a" "$b" "$c"; do
	check "  nothing created in $(basename "$x")" empty_dir "$x"
done

# iozone -F with files in two directories: each is a target, with its own
# run directory, removed afterwards (tests/cli/targets_mounts.sh: two file
# systems, ENOSPC and SIGINT)
run "$FSGAUGE" iozone -i 0 -t 2 -s 64k -r 4k -x -F "$a/f1" "$b/f1" --quiet --json "$T/i.json"
check "iozone -F in two directories: exit 0" [ "$rc" -eq 0 ]
check "  one file name in two directories is two files" \
	[ "$(json "$T/i.json" 'd["phases"][0]["metrics"]["t0.xfer"]["value"] == 64 and d["phases"][0]["metrics"]["t1.xfer"]["value"] == 64')" = true ]
check "  both run directories removed" empty_dir "$a" && empty_dir "$b"
expect_fail "iozone -F: one name twice in one directory" 2 \
	"^fsgauge: file name 'f1' is given twice to -F in '$a'\$" \
	"$FSGAUGE" iozone -i 0 -t 3 -s 64k -r 4k -F "$a/f1" "$b/f2" "$a/../a/f1"
check "  nothing created" empty_dir "$a" && empty_dir "$b"

# the same directory named twice is one target
run "$FSGAUGE" run varmail -d "$a" -d "$a" -t 1 -q -s nfiles=20 -s filesize=4k
check "run: the same -d twice is one target (exit 0)" [ "$rc" -eq 0 ]
check "  and its run directory is removed" empty_dir "$a"
finish
