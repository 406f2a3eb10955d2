#!/bin/sh
# outfile_links.sh — result files and symbolic links (src/util/outfile.h):
# a link another user planted in a sticky, world-writable directory is
# refused before anything runs (run --json, compare --json, report -o,
# iozone -b, bonnie and untar --json), also as a directory of the path or
# a link further along; a link that is not planted and leads to a regular
# file is replaced by the result, its target untouched; /dev/stdout and
# /dev/null are written in place and never renamed over; no temporary
# file is left after a success, a full file system or a signal.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root (a second user, uid 65534, plants the links)"
command -v setpriv > /dev/null || skip_all "needs setpriv (util-linux) to act as a second user"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody true 2> /dev/null || skip_all "setpriv cannot switch to uid 65534"

F=$(cd "$(dirname "$0")/../fixtures" && pwd)
A="$F/single-a.json"
B="$F/single-b.json"
chmod 755 "$T" # the second user reaches the sticky directory through it
d="$T/target"
mkdir "$d"
small="-t 1 -q -s nfiles=20 -s meandirwidth=5"
S="$T/sticky"
mkdir "$S"
chmod 1777 "$S"
secret="$T/secret"
echo "root only" > "$secret"
chmod 600 "$secret"
# plant NAME TARGET: the second user's symbolic link $S/NAME -> TARGET
plant() {
	rm -f "$S/$1"
	as_nobody ln -s "$2" "$S/$1"
}
secret_intact() {
	[ "$(cat "$secret")" = "root only" ] && [ "$(stat -c %a "$secret")" = 600 ]
}
# no_temp DIR: no temporary result file (.NAME.XXXXXX) in DIR
no_temp() {
	[ -z "$(ls -A "$1" | grep '^\.')" ]
}
risk="symbolic link '%s' belongs to another user \(uid 65534\) in a world-writable sticky directory, where anyone can plant a link"

# --- planted: refused before anything runs, exit 2 --------------------------
plant r.json "$secret"
expect_fail "run --json: another user's link in a sticky directory is refused, exit 2" 2 \
	"refusing to write the JSON result to '$S/r.json': $(printf "$risk" r.json)" \
	"$FSGAUGE" run varmail -d "$d" $small --json "$S/r.json"
check "... before the run: nothing was created in the target" empty_dir "$d"
plant c.json "$secret"
expect_fail "compare --json: refused, exit 2" 2 \
	"refusing to write the comparison to '$S/c.json': $(printf "$risk" c.json)" \
	"$FSGAUGE" compare "$A" "$B" --json "$S/c.json"
plant r.html "$secret"
expect_fail "report -o: refused, exit 2" 2 \
	"refusing to write the report to '$S/r.html': $(printf "$risk" r.html)" \
	"$FSGAUGE" report "$A" "$B" -o "$S/r.html"
plant x.xls "$secret"
expect_fail "iozone -b: refused, exit 2" 2 \
	"refusing to write the spreadsheet to '$S/x.xls': $(printf "$risk" x.xls)" \
	"$FSGAUGE" iozone --dir "$d" -s 64k -r 4k -i 0 -b "$S/x.xls"
plant b.json "$secret"
expect_fail "bonnie --json: refused, exit 2" 2 "refusing to write the JSON result to '$S/b.json'" \
	"$FSGAUGE" bonnie -d "$d" -s 0 -n 1 -q --json "$S/b.json"
plant u.json "$secret"
expect_fail "untar --json: refused, exit 2" 2 "refusing to write the JSON result to '$S/u.json'" \
	"$FSGAUGE" untar --synthetic tiny -d "$d" -q --json "$S/u.json"
plant null.json /dev/null
expect_fail "a planted link to a character device: refused too" 2 \
	"refusing to write the comparison to '$S/null.json': $(printf "$risk" null.json)" \
	"$FSGAUGE" compare "$A" "$B" --json "$S/null.json"
check "... the file the links named is untouched" secret_intact
check "... the links are still the second user's" \
	sh -c "[ -L '$S/r.json' ] && [ \"\$(stat -c %u '$S/r.json')\" = 65534 ]"
check "... nothing was created in the target" empty_dir "$d"

mkdir "$T/rootdir"
chmod 700 "$T/rootdir"
plant sub "$T/rootdir"
expect_fail "a planted link as a directory of the path: refused, exit 2" 2 \
	"refusing to write the comparison to '$S/sub/c.json': $(printf "$risk" sub)" \
	"$FSGAUGE" compare "$A" "$B" --json "$S/sub/c.json"
check "... nothing written in the directory it named" empty_dir "$T/rootdir"
plant hop "$secret"
ln -s "$S/hop" "$T/mine.json"
expect_fail "root's own link leading through a planted one: refused, exit 2" 2 \
	"refusing to write the comparison to '$T/mine.json': $(printf "$risk" hop)" \
	"$FSGAUGE" compare "$A" "$B" --json "$T/mine.json"
check "... the file is untouched" secret_intact

# --- not planted: the link is replaced, its target untouched ----------------
mkdir "$T/theirs"
chown 65534:65534 "$T/theirs"
chmod 1777 "$T/theirs"
as_nobody ln -s "$secret" "$T/theirs/c.json"
run "$FSGAUGE" compare "$A" "$B" --json "$T/theirs/c.json"
check "the sticky directory's owner's own link: followed, as the kernel would (exit $rc)" [ "$rc" -eq 0 ]
check "... replaced by the result, a regular file" sh -c \
	"[ ! -L '$T/theirs/c.json' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))[\"results\"]' '$T/theirs/c.json'"
check "... the file it named untouched" secret_intact
ln -s "$secret" "$S/own.json"
run "$FSGAUGE" run varmail -d "$d" $small --json "$S/own.json"
check "run --json: root's own link to a regular file in the sticky directory (exit $rc)" [ "$rc" -eq 0 ]
check "... is replaced by the result" sh -c \
	"[ ! -L '$S/own.json' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))[\"schema_version\"]' '$S/own.json'"
check "... and the file it named is untouched" secret_intact
ln -s "$secret" "$S/own.html"
run "$FSGAUGE" report "$A" "$B" -o "$S/own.html"
check "report -o: root's own link replaced by the report, the target untouched" sh -c \
	"[ $rc -eq 0 ] && [ ! -L '$S/own.html' ] && grep -q '</html>' '$S/own.html'"
ln -s "$secret" "$S/own.xls"
run "$FSGAUGE" iozone --dir "$d" -s 64k -r 4k -i 0 -b "$S/own.xls"
check "iozone -b: root's own link replaced by the spreadsheet" sh -c \
	"[ $rc -eq 0 ] && [ ! -L '$S/own.xls' ] && [ -s '$S/own.xls' ]"
check "... the file untouched by all three" secret_intact
check "... and no temporary file is left in the sticky directory" no_temp "$S"

# --- written in place: /dev/stdout, /dev/null, a FIFO --------------------
run "$FSGAUGE" report "$A" "$B" -o /dev/stdout
check "report -o /dev/stdout with stdout a file: exit 0, the page in the file" sh -c \
	"[ $rc -eq 0 ] && grep -q '^<!DOCTYPE html>' '$T/out' && grep -q '</html>' '$T/out'"
check "... /dev/stdout is still the link to /proc/self/fd/1" \
	sh -c "[ -L /dev/stdout ] && [ \"\$(readlink /dev/stdout)\" = /proc/self/fd/1 ]"
"$FSGAUGE" report "$A" "$B" -o /dev/stdout 2> /dev/null | grep -c '</html>' > "$T/pipe.count"
check "report -o /dev/stdout with stdout a pipe: the page goes through it" \
	[ "$(cat "$T/pipe.count")" = 1 ]
run "$FSGAUGE" compare "$A" "$B" --json /dev/fd/1
check "compare --json /dev/fd/1 (a descriptor): written in place, exit 0" sh -c \
	"[ $rc -eq 0 ] && grep -q '\"results\"' '$T/out' && [ -L /dev/fd ]"
run "$FSGAUGE" compare "$A" "$B" --json /dev/null
check "compare --json /dev/null: exit 0, /dev/null still a character device" \
	sh -c "[ $rc -eq 0 ] && [ -c /dev/null ]"
ln -s /dev/null "$T/tonull.json"
run "$FSGAUGE" compare "$A" "$B" --json "$T/tonull.json"
check "root's link to /dev/null: written through, the link stays" \
	sh -c "[ $rc -eq 0 ] && [ -L '$T/tonull.json' ] && [ -c /dev/null ]"
mkfifo "$T/fifo"
cat "$T/fifo" > "$T/fifo.out" &
reader=$!
run "$FSGAUGE" compare "$A" "$B" --json "$T/fifo"
wait $reader
check "compare --json FIFO: written through it, the FIFO stays" sh -c \
	"[ $rc -eq 0 ] && [ -p '$T/fifo' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/fifo.out'"

# --- no temporary file after a full file system --------------------------
if mkdir "$T/full" && mount -t tmpfs -o size=64k tmpfs "$T/full" 2> /dev/null; then
	echo '{"old": true}' > "$T/full/c.json"
	dd if=/dev/zero of="$T/full/fill" bs=4k 2> /dev/null
	expect_fail "compare --json on a full file system: exit 3, the reason" 3 \
		"cannot write the comparison to '$T/full/c.json': No space left on device" \
		"$FSGAUGE" compare "$A" "$B" --json "$T/full/c.json"
	check "... the previous file is left as it was" \
		[ "$(cat "$T/full/c.json")" = '{"old": true}' ]
	expect_fail "report -o on a full file system: exit 3" 3 \
		"cannot write the report to '$T/full/r.html': No space left on device" \
		"$FSGAUGE" report "$A" "$B" -o "$T/full/r.html"
	expect_fail "run --json on a full file system: exit 3" 3 \
		"cannot write the JSON result to '$T/full/r.json': No space left on device" \
		"$FSGAUGE" run varmail -d "$d" $small --json "$T/full/r.json"
	check "... no temporary file is left, nor a partial result" \
		sh -c "[ \"\$(ls -A '$T/full' | sort | tr '\n' ' ')\" = 'c.json fill ' ]"
	umount "$T/full"
else
	ok "# SKIP full file system: cannot mount a tmpfs"
fi

# --- no temporary file after a signal -----------------------------------
# compare and report catch no signal of their own.  strace delivers
# SIGINT at their first write(2), which is into the temporary file (they
# print nothing before it): the process ends as SIGINT ends it, and
# leaves nothing behind.
if command -v strace > /dev/null && strace -qq -o /dev/null true 2> /dev/null; then
	mkdir "$T/sig"
	echo old > "$T/sig/c.json"
	for cmd in report compare; do
		if [ $cmd = report ]; then out="$T/sig/r.html"; set -- report "$A" "$B" -o "$out"
		else out="$T/sig/c.json"; set -- compare "$A" "$B" --json "$out"; fi
		run strace -qq -o /dev/null -e trace=write -e inject=write:signal=SIGINT:when=1 \
			"$FSGAUGE" "$@"
		check "$cmd: SIGINT while writing ends it as SIGINT does (exit $rc: 130)" sh -c \
			"[ $rc -eq 130 ] && [ ! -s '$T/err' ]"
		check "... no temporary file is left" no_temp "$T/sig"
	done
	check "... no report, and the previous comparison as it was" \
		sh -c "[ ! -e '$T/sig/r.html' ] && [ \"\$(cat '$T/sig/c.json')\" = old ]"
else
	ok "# SKIP a signal while writing: needs strace, and ptrace allowed"
fi
# the suites catch SIGINT: iozone's spreadsheet, open for the whole run,
# is completed and put in place (a long run on the null engine)
"$FSGAUGE" iozone --engine null --dir "$d" -s 100g -r 4k -i 0 -b "$T/sig.xls" > "$T/ioz.out" 2>&1 &
pid=$!
n=0
while [ -z "$(ls -A "$T" | grep '^\.sig\.xls\.')" ] && [ $n -lt 300 ] && kill -0 $pid 2> /dev/null; do
	sleep 0.1
	n=$((n + 1))
done
kill -INT $pid 2> /dev/null
wait $pid
rc=$?
check "iozone -b, SIGINT during the run: exit 130 ($rc)" [ "$rc" -eq 130 ]
check "... the spreadsheet is in place" [ -f "$T/sig.xls" ]
check "... no temporary file is left" no_temp "$T"
check "... nor anything in the target" empty_dir "$d"
finish
