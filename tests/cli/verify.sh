#!/bin/sh
# Data verification: `fsgauge verify` writes self-checking blocks, reads
# them back and finds a corrupted byte, a truncated file and two swapped
# blocks at their exact offsets; `fsgauge run --verify` checks every block
# it reads and reports a corruption (injected by the faulty engine) with
# exit 1, in chunked files and through putc/getc too (bonnie's own checks
# are in bonnie.sh).  Nothing is left behind.  Also what `verify` refuses
# (the null engine, too large a size, files beyond the free space, -n/-s/
# --seed with --check-only), its exit statuses (1 for an I/O error of the
# run, 3 for a manifest it cannot write) and that --check-only removes
# only what its manifest lists.  Its command line: the generated help,
# --json and --label refused with their reason, the one message for an
# unknown option.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

run "$FSGAUGE" verify -q -d "$d" -n 3 -s 256k
check "verify: clean data reads back intact (exit 0)" [ "$rc" -eq 0 ]
check "verify: reports 0 bad" grep -q "verified 3 files of 262144 bytes: 0 bad" "$T/out"
check "verify: nothing left behind" empty_dir "$d"

# write_only: leaves a run directory, sets $rd
write_only() {
	run "$FSGAUGE" verify -q -d "$d" -n 3 -s 64k --write-only
	rd=$(sed -n 's/^run directory: //p' "$T/out")
	[ "$rc" -eq 0 ] && [ -f "$rd/v0" ] && [ -f "$rd/verify.manifest" ]
}

# flip_byte FILE OFFSET: invert one byte in place
flip_byte() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $((b ^ 255)))" |
		dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null
	printf '%02x' $((b ^ 255))
}

check "verify --write-only leaves the files and a manifest" write_only
found=$(flip_byte "$rd/v1" 12345)
expect_fail "a corrupted byte is found at its exact offset" 1 \
	"verify error: '$rd/v1' at offset 12345: expected byte 0x[0-9a-f]{2}, found 0x$found" \
	"$FSGAUGE" verify -q --check-only "$rd"
check "  and only that one" grep -q ": 1 bad" "$T/out"
check "  and the run directory is removed" empty_dir "$d"

write_only
truncate -s 40000 "$rd/v0"
expect_fail "a truncated file is found at the exact offset" 1 \
	"verify error: '$rd/v0' truncated at offset 40000: expected 65536 bytes, found 40000" \
	"$FSGAUGE" verify -q --check-only "$rd"
check "  and nothing else is reported" grep -q ": 1 bad" "$T/out"

write_only
dd if="$rd/v2" of="$T/b2" bs=4096 skip=2 count=1 2>/dev/null
dd if="$rd/v2" of="$T/b5" bs=4096 skip=5 count=1 2>/dev/null
dd if="$T/b5" of="$rd/v2" bs=4096 seek=2 count=1 conv=notrunc 2>/dev/null
dd if="$T/b2" of="$rd/v2" bs=4096 seek=5 count=1 conv=notrunc 2>/dev/null
expect_fail "two swapped blocks: the first is found at its offset" 1 \
	"verify error: '$rd/v2' at offset 8192: expected the block of offset 8192, found the block of offset 20480" \
	"$FSGAUGE" verify -q --check-only "$rd"
check "  and the second at its offset" \
	grep -q "'$rd/v2' at offset 20480: expected the block of offset 20480, found the block of offset 8192" "$T/err"
check "  two bad blocks" grep -q ": 2 bad" "$T/out"

write_only
cp "$rd/v0" "$T/v0.copy"
cp "$rd/v1" "$rd/v0"
expect_fail "a block of another file is named as such" 1 \
	"'$rd/v0' at offset 0: expected a block of file id 0, found one of file id 1" \
	"$FSGAUGE" verify -q --check-only "$rd"
check "nothing left after the checks" empty_dir "$d"

# Files the manifest names are opened O_NONBLOCK and checked to be regular
# files: a FIFO in a data file's place is a verify error (the data is not
# there), not an open that waits for a writer until SIGKILL; one in the
# manifest's place is refused.  Under timeout, so that a regression fails
# instead of hanging.
write_only
rm "$rd/v1"
mkfifo "$rd/v1"
expect_fail "a FIFO in a data file's place is a verify error, without blocking" 1 \
	"^fsgauge: verify error: '$rd/v1' is a FIFO, not a regular file$" \
	timeout -k 5 60 "$FSGAUGE" verify -q --check-only "$rd"
check "  counted as one bad, the other files checked" grep -q "verified 3 files of 65536 bytes: 1 bad" "$T/out"
check "  the FIFO is not removed (the manifest lists regular files)" [ -p "$rd/v1" ]
check "  and the rest is" [ "$(ls -A "$rd")" = v1 ]
rm -r "$rd"
write_only
rm "$rd/v2"
mkdir "$rd/v2"
expect_fail "a directory in a data file's place is named as such" 1 \
	"verify error: '$rd/v2' is a directory, not a regular file" \
	timeout -k 5 60 "$FSGAUGE" verify -q --check-only "$rd"
rm -r "$rd"
write_only
rm "$rd/verify.manifest"
mkfifo "$rd/verify.manifest"
expect_fail "a FIFO in the manifest's place is refused, without blocking" 2 \
	"^fsgauge: '$rd/verify.manifest' is a FIFO, not a regular file: not written by 'fsgauge verify --write-only'$" \
	timeout -k 5 60 "$FSGAUGE" verify -q --check-only "$rd"
[ -p "$rd/verify.manifest" ] && [ -f "$rd/v0" ]
checked "  and nothing is removed"
rm -r "$rd"
check "nothing left after the FIFO checks" empty_dir "$d"

mkdir "$T/fsgauge-fake"
expect_fail "--check-only refuses a directory without our marker" 2 "no .fsgauge-run marker" \
	"$FSGAUGE" verify --check-only "$T/fsgauge-fake"
expect_fail "--check-only refuses a directory not named fsgauge-*" 2 "not an fsgauge run directory" \
	"$FSGAUGE" verify --check-only "$T"
check "  and removed nothing" [ -d "$T/fsgauge-fake" ]
expect_fail "--check-only of a missing directory: No such file or directory" 2 \
	"^fsgauge: cannot open run directory '$T/fsgauge-none': No such file or directory\$" \
	"$FSGAUGE" verify --check-only "$T/fsgauge-none"
expect_fail "--check-only /nonexistent: No such file or directory, not the name" 2 \
	"^fsgauge: cannot open run directory '/nonexistent': No such file or directory\$" \
	"$FSGAUGE" verify --check-only /nonexistent
: > "$T/fsgauge-file"
expect_fail "--check-only of a file: Not a directory" 2 \
	"^fsgauge: cannot open run directory '$T/fsgauge-file': Not a directory\$" \
	"$FSGAUGE" verify --check-only "$T/fsgauge-file"
mkdir -p "$T/vt"
expect_fail "verify -s 10t: the space needed in TiB" 2 \
	"^fsgauge: not enough free space for 4 files of 10t and a manifest: 40\.0 TiB needed, '$T/vt' has [0-9.]+ [MGT]iB free; " \
	"$FSGAUGE" verify -s 10t -d "$T/vt"
check "  and created nothing" empty_dir "$T/vt"
expect_fail "verify: bad size" 2 "invalid -s 'x' \\(expected a size" "$FSGAUGE" verify -s x -d "$d"
expect_fail "verify: write error (injected EIO) exits 1" 1 "cannot write '?v[0-9]'? at offset [0-9]+: Input/output error" \
	"$FSGAUGE" verify -q -d "$d" --engine faulty:psync:op=write,nth=2,err=EIO
check "  and leaves nothing" empty_dir "$d"

# --- verify: what it refuses, and its exit statuses ------------------------
for eng in null faulty:null faulty:null:op=read,nth=1,err=EIO; do
	expect_fail "verify --engine $eng is refused (it stores nothing to read back)" 2 \
		"^fsgauge: verify needs an engine that stores data: the null engine" \
		"$FSGAUGE" verify -q -d "$d" -n 1 -s 8k --engine "$eng"
	check "  and creates nothing" empty_dir "$d"
done
expect_fail "verify: a size that parses but is too large names the limit" 2 \
	"^fsgauge: invalid -s '2p': too large \(at most 1p" "$FSGAUGE" verify -q -d "$d" -s 2p
expect_fail "verify: a size beyond 64 bits names the limit too" 2 \
	"invalid -s '20e': too large \(at most 1p" "$FSGAUGE" verify -q -d "$d" -s 20e
expect_fail "verify: a zero size" 2 "invalid -s '0' \(expected at least 1 byte" \
	"$FSGAUGE" verify -q -d "$d" -s 0
run "$FSGAUGE" verify --help
check "verify --help: exit 1 covers I/O errors of the run, 3 system errors" \
	grep -q "mismatches or met an I/O error writing or reading the files; 2 usage error" "$T/out"

# limited_run LIMIT COMMAND...: run under `ulimit -f LIMIT` with SIGXFSZ
# ignored (writes past the limit fail with EFBIG); stdout and stderr go
# through a pipe, which the limit does not apply to
limited_run() {
	lim=$1
	shift
	(
		sh -c 'trap "" XFSZ; ulimit -f "$0" && exec "$@"' "$lim" "$@" 2>&1
		echo $? >"$T/rc"
	) | cat >"$T/err"
	rc=$(cat "$T/rc")
}
limited_run 1024 "$FSGAUGE" verify -q -d "$d" -n 1 -s 2m
[ "$rc" -eq 1 ] && grep -q "cannot write 'v0' at offset [0-9]*: File too large" "$T/err"
checked "verify: a data write failing (EFBIG) during the run exits 1"
check "  and leaves nothing" empty_dir "$d"
limited_run 0 "$FSGAUGE" verify -q -d "$d" -n 1 -s 8k
[ "$rc" -eq 3 ] && grep -Eq "cannot write '$d/fsgauge-[^/]+/verify.manifest': File too large" "$T/err"
checked "verify: a manifest that cannot be written is a system error (exit 3)"
check "  and leaves nothing" empty_dir "$d"

# free-space preflight; under a file-size limit, so that a binary without
# it fails at once instead of filling the disk
limited_run 1024 "$FSGAUGE" verify -q -d "$d" -n 1000 -s 1p
[ "$rc" -eq 2 ] &&
	grep -Eq "^fsgauge: not enough free space for 1000 files of 1p and a manifest: [0-9.]+ [MGT]iB needed, '$d' has [0-9.]+ [MGT]iB free; use a smaller -s" "$T/err"
checked "verify: files larger than the free space are refused (exit 2)"
check "  and nothing is left" empty_dir "$d"
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$T/small"
	trap 'umount "$T/small" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	if mount -t tmpfs -o size=1m,nr_inodes=8 fsgauge-verify "$T/small" 2>/dev/null; then
		limited_run 4096 "$FSGAUGE" verify -q -d "$T/small" -n 1 -s 2m
		[ "$rc" -eq 2 ] &&
			grep -Eq "not enough free space for 1 files of 2m and a manifest: 2\.0 MiB needed, '$T/small' has [01]\.[0-9] MiB free" "$T/err"
		checked "verify on a 1 MiB tmpfs: 2 MiB refused before writing (exit 2)"
		limited_run 4096 "$FSGAUGE" verify -q -d "$T/small" -n 20 -s 4k
		[ "$rc" -eq 2 ] &&
			grep -Eq "not enough free inodes for 20 files of 4k and a manifest: 21 needed, '$T/small' has [0-9]+ free; use fewer files \(-n\)" "$T/err"
		checked "verify on a tmpfs of 8 inodes: 20 files refused (exit 2)"
		check "  and the tmpfs is empty" empty_dir "$T/small"
		umount "$T/small"
	else
		ok "verify preflight on a tmpfs: # SKIP cannot mount a tmpfs here"
	fi
else
	ok "verify preflight on a tmpfs: # SKIP needs root to mount a tiny tmpfs"
fi

# --check-only: the manifest decides -n, -s and --seed
write_only
for o in "-n 5" "-s 8k" "--seed 7"; do
	# shellcheck disable=SC2086
	expect_fail "verify --check-only refuses $o (the manifest decides it)" 2 \
		"^fsgauge: ${o%% *} does not apply to --check-only: the manifest of the run directory decides" \
		"$FSGAUGE" verify -q $o --check-only "$rd"
done
[ -f "$rd/v0" ] && [ -f "$rd/verify.manifest" ] && [ -f "$rd/.fsgauge-run" ]
checked "  and touches nothing"

# --check-only removes only what its manifest lists: files added to the
# run directory are named, left, and the directory kept
echo mine >"$rd/mine.txt"
mkdir "$rd/sub"
echo y >"$rd/sub/y"
echo outside >"$T/outside"
ln -s "$T/outside" "$rd/v7"
run "$FSGAUGE" verify -q --check-only "$rd"
[ "$rc" -eq 0 ] && grep -q ": 0 bad" "$T/out"
checked "verify --check-only with files it did not create: the check still passes (exit 0)"
check "  a warning names what was left" grep -Eq \
	"^fsgauge: warning: left '$rd' in place, no longer marked as a run directory: fsgauge did not create these entries in it: .*'mine.txt'" "$T/err"
grep -q "'sub'" "$T/err" && grep -q "'v7'" "$T/err"
checked "  naming each entry"
[ "$(cat "$rd/mine.txt")" = mine ] &&
	[ "$(cat "$rd/sub/y")" = y ] && [ -L "$rd/v7" ] && [ "$(cat "$T/outside")" = outside ]
checked "  those entries are left as they were"
[ ! -e "$rd/v0" ] && [ ! -e "$rd/v1" ] && [ ! -e "$rd/v2" ] &&
	[ ! -e "$rd/verify.manifest" ] && [ ! -e "$rd/.fsgauge-run" ]
checked "  what the manifest lists, the manifest and the marker are removed"
rm -r "$rd"
write_only
flip_byte "$rd/v0" 100 >/dev/null
echo mine >"$rd/mine.txt"
expect_fail "verify --check-only with a foreign file and a bad block: exit 1 (the check's)" 1 \
	"verify error: '$rd/v0' at offset 100" "$FSGAUGE" verify -q --check-only "$rd"
grep -q "warning: left '$rd' in place.*'mine.txt'" "$T/err" &&
	[ -f "$rd/mine.txt" ] && [ ! -e "$rd/v0" ]
checked "  the foreign file named and left"
rm -r "$rd"
check "nothing left after the --check-only tests" empty_dir "$d"

# --- the command line (generated help, refused and unknown options) -------
run "$FSGAUGE" verify --help
[ "$rc" -eq 0 ] && grep -q -- "--check-only DIR" "$T/out" && grep -q -- "--write-only" "$T/out" &&
	grep -q -- "-d, --dir DIR" "$T/out" && grep -q -- "--allow-shared-target" "$T/out"
checked "verify --help: exit 0, lists its own options and the shared ones it takes"
check "verify --help: lists neither --json nor --label (refused) nor a measurement option" \
	sh -c '! grep -Eq -- "--(json|label|repeat|direct|verify)" "$1"' sh "$T/out"
check "verify --help: each option letter once" \
	sh -c '[ -z "$(grep -Eo "^  -[a-zA-Z]," "$1" | sort | uniq -d)" ]' sh "$T/out"
expect_fail "verify --json is refused with its reason (exit 2)" 2 \
	"^fsgauge: --json does not apply to verify: it writes no result; its verdict is the 'verified' line and the exit status$" \
	"$FSGAUGE" verify -q -d "$d" -n 1 -s 4k --json "$T/v.json"
empty_dir "$d" && [ ! -e "$T/v.json" ]
checked "  and writes nothing"
expect_fail "verify --label is refused with its reason (exit 2)" 2 \
	"^fsgauge: --label does not apply to verify: it writes no result to label$" \
	"$FSGAUGE" verify -q -d "$d" -n 1 -s 4k --label x
for o in -Q --direct --repeat=2; do
	expect_fail "verify $o: the one unrecognized-option message (exit 2)" 2 \
		"^fsgauge verify: unrecognized option '${o%%=*}' \(try 'fsgauge verify --help'\)$" \
		"$FSGAUGE" verify -q -d "$d" "$o"
done
check "  and nothing is created" empty_dir "$d"
expect_fail "verify: an operand is refused" 2 "^fsgauge: unexpected argument 'extra'$" \
	"$FSGAUGE" verify -q -d "$d" extra
expect_fail "verify: --write-only with --check-only is refused" 2 \
	"^fsgauge: --write-only and --check-only exclude each other$" \
	"$FSGAUGE" verify -q --write-only --check-only "$T/fsgauge-fake"
expect_fail "verify: -d with --check-only is refused" 2 \
	"^fsgauge: --check-only names the run directory itself; -d does not apply$" \
	"$FSGAUGE" verify -q -d "$d" --check-only "$T/fsgauge-fake"
empty_dir "$d" && empty_dir "$T/fsgauge-fake"
checked "  and nothing is created"

# without -q: what it writes and drops on stderr, the verdict on stdout;
# the run directory is named once (by "writing ... in DIR")
run "$FSGAUGE" verify -d "$d" -n 2 -s 8k
[ "$rc" -eq 0 ] && grep -Eq "^writing 2 files of 8192 bytes in $d/fsgauge-[^/]+$" "$T/err"
checked "verify without -q: says what it writes, where"
check "  and how it dropped the cache" \
	grep -Eq "^(dropped the page cache|not root: evicted only the files' own pages from the cache)$" "$T/err"
check "  no other line on stderr" [ "$(wc -l <"$T/err")" -eq 2 ]
check "  the verdict alone on stdout" [ "$(cat "$T/out")" = "verified 2 files of 8192 bytes: 0 bad" ]
check "  nothing left behind" empty_dir "$d"
run "$FSGAUGE" verify -q -d "$d" -n 2 -s 8k --write-only
rd=$(sed -n 's/^run directory: //p' "$T/out")
[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && [ ! -s "$T/err" ]
checked "--write-only: its path once, on stdout only"

# --check-only --keep: checked, then left whole
run "$FSGAUGE" verify -q --keep --check-only "$rd"
[ "$rc" -eq 0 ] && grep -q ": 0 bad" "$T/out"
checked "--check-only --keep: checked (exit 0)"
check "  says it kept the directory" grep -qx "kept run directory: $rd" "$T/err"
[ -f "$rd/v0" ] && [ -f "$rd/v1" ] &&
	[ -f "$rd/verify.manifest" ] && [ -f "$rd/.fsgauge-run" ]
checked "  everything still there"
run "$FSGAUGE" verify -q --check-only "$rd"
[ "$rc" -eq 0 ] && grep -q ": 0 bad" "$T/out" && empty_dir "$d"
checked "  and a second --check-only still checks and removes it"

# --- run --verify -------------------------------------------------------
for w in varmail fileserver randomrw; do
	run "$FSGAUGE" run "$w" -q -d "$d" -t 1 -s nfiles=20 -s nthreads=2 -s filesize=64k \
		-s iosize=8k --verify --json "$T/$w.json"
	[ "$rc" -eq 0 ] && grep -q '"verify_errors": 0' "$T/$w.json" &&
		grep -q '"verify": "true"' "$T/$w.json"
	checked "run $w --verify: exit 0, no verify errors"
done
run "$FSGAUGE" run varmail -q -d "$d" -t 1 -s nfiles=20 -s nthreads=2 --verify \
	--engine faulty:psync:op=read,after=0,err=short --json "$T/s.json"
[ "$rc" -eq 0 ] && grep -q '"verify_errors": 0' "$T/s.json"
checked "run --verify with every read short: still no verify error"
run "$FSGAUGE" run varmail -q -d "$d" -t 10 -s nfiles=20 -s nthreads=2 --verify \
	--engine faulty:psync:op=read,nth=10,err=corrupt --json "$T/c.json"
check "run --verify: a corrupted read exits 1" [ "$rc" -eq 1 ]
check "  with the file and offset on stderr" \
	grep -Eq "verify error: 'bigfileset/[^']+' at offset [0-9]+: expected" "$T/err"
grep -q '"verify_errors": 1' "$T/c.json" && grep -q '"first_error": "verify ' "$T/c.json"
checked "  counted and marked in the JSON"
check "  nothing left behind" empty_dir "$d"
run "$FSGAUGE" run varmail -q -d "$d" -t 2 -s nfiles=20 -s nthreads=2 \
	--engine faulty:psync:op=read,nth=10,err=corrupt --json "$T/n.json"
check "without --verify the same corruption goes unseen (exit 0)" [ "$rc" -eq 0 ]
expect_fail "run --verify refuses the null engine (it stores nothing)" 2 \
	"--verify needs an engine that stores data" \
	"$FSGAUGE" run varmail -q -d "$d" -t 1 --verify --engine faulty:null:op=read,nth=3,err=EIO
check "  and creates nothing" empty_dir "$d"
# --- chunked files and per-character I/O under --verify ------------------
# putc writes the bytes of self-checking blocks 1000 characters at a time
# (blocks straddle calls and chunk files); getc checks every buffer it
# reads; rewrite re-stamps; a preallocated chunked file is stamped with
# the offsets of the whole file (a chunk file stamped with its own
# offsets reads back as "expected the block of offset 65536, found ... 0");
# bufsize= streams (data I/O rounded to 4096, buffers to 12288) too
cat > "$T/chars.f" <<'WML'
define file name=big,path=$dir,size=1m,chunksize=64k,prealloc=0
define file name=pre,path=$dir,size=256k,chunksize=64k,prealloc=100
define file name=buf,path=$dir,size=256k,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filename=big,fd=1
    flowop putc name=putc,fd=1,iosize=1000,iters=1048
    flowop closefile name=close,fd=1
    flowop openfile name=open,filename=big,fd=1
    flowop getc name=getc,fd=1,iosize=1000,iters=1048
    flowop rewrite name=rewrite,fd=1,iosize=8k,iters=128
    flowop read name=readall,fd=1,iosize=64k,iters=16
    flowop closefile name=close2,fd=1
    flowop openfile name=open2,filename=pre,fd=2
    flowop read name=readpre,fd=2,iosize=16k,iters=16
    flowop closefile name=close3,fd=2
    flowop createfile name=create4,filename=buf,fd=3
    flowop write name=bufwrite,fd=3,iosize=3000,iters=64,bufsize=10000
    flowop closefile name=close4,fd=3
    flowop openfile name=open5,filename=buf,fd=3
    flowop read name=bufread,fd=3,iosize=3000,iters=64,bufsize=10000
    flowop closefile name=close5,fd=3
    flowop threaddone name=end
  }
}
run 60
WML
run "$FSGAUGE" run "$T/chars.f" -q -d "$d" --verify --json "$T/ch.json"
[ "$rc" -eq 0 ] && grep -q '"verify_errors": 0' "$T/ch.json"
checked "chunked files, putc/getc/rewrite under --verify: exit 0, no verify errors"
check "  every read done (getc, rewrite, whole file, preallocated chunks, bufsize=)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
o = {x["name"]: x for p in d["phases"] for x in p["operations"]}
sys.exit(not (o["putc"]["bytes_written"] == o["getc"]["bytes_read"] == 1048000 and
              o["rewrite"]["bytes_written"] == o["readall"]["bytes_read"] == 1048576 and
              o["readpre"]["bytes_read"] == 262144 and
              o["bufwrite"]["bytes_written"] == o["bufread"]["bytes_read"] == 262144))' "$T/ch.json"
# the 50th read is getc's 50th buffer: offset 49 * 4096 = 200704, in
# big.003 at 4096; its middle byte is in the block's content
run "$FSGAUGE" run "$T/chars.f" -q -d "$d" --verify --json "$T/chc.json" \
	--engine faulty:psync:op=read,nth=50,err=corrupt
check "getc under --verify: a flipped bit exits 1" [ "$rc" -eq 1 ]
check "  named with the chunk file, its offset and the whole file's" \
	grep -q "verify error: 'big.003' at offset 4096 (200704 in the chunked file): expected checksum 0x" "$T/err"
check "  counted" grep -q '"verify_errors": 1' "$T/chc.json"
check "  nothing left behind" empty_dir "$d"
sed 's/chunksize=64k,prealloc=100/chunksize=5000,prealloc=100/' "$T/chars.f" > "$T/odd.f"
expect_fail "--verify refuses a chunksize that is not whole 4 KiB blocks" 2 \
	"file 'pre': --verify needs a chunksize that is a multiple of 4096" \
	"$FSGAUGE" run "$T/odd.f" -q -d "$d" --verify
check "  and leaves nothing" empty_dir "$d"
# --- iozone --verify (one thread per file: reads are checked) -------------
if "$FSGAUGE" iozone --help >/dev/null 2>&1; then
	run "$FSGAUGE" iozone -t 2 -s 512k -r 64k -i 0 -i 1 -i 2 --dir "$d" --quiet --verify \
		--json "$T/iz.json"
	[ "$rc" -eq 0 ] && grep -q '"verify_errors": 0' "$T/iz.json"
	checked "iozone --verify: exit 0, no verify errors"
	run "$FSGAUGE" iozone -t 2 -s 512k -r 64k -i 0 -i 1 --dir "$d" --quiet --verify \
		--engine faulty:psync:op=read,nth=3,err=corrupt --json "$T/izc.json"
	[ "$rc" -eq 1 ] && grep -Eq "verify error: 'iozone[^']*' at offset [0-9]+" "$T/err" &&
		grep -q '"verify_errors": 1' "$T/izc.json"
	checked "iozone --verify: a corrupted read exits 1, named with file and offset"
	check "iozone --verify: nothing left behind" empty_dir "$d"
else
	ok "iozone --verify: # SKIP fsgauge iozone is not built"
fi

# --keep: the files verified stay, in the directory stderr names
run "$FSGAUGE" verify -q -d "$d" -n 2 -s 64k --keep
check "--keep: exit 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "--keep: says which directory it kept" [ "${kept%/*}" = "$d" ]
check "--keep: the directory is there, marked, with its files" \
	[ -f "$kept/.fsgauge-run" -a "$(find "$kept" -type f | wc -l)" -ge 3 ]
rm -rf "$kept"
check "--keep: nothing else left behind" empty_dir "$d"
finish
