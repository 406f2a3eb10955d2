#!/bin/sh
# `fsgauge untar`: a real directory of this machine, tarred and extracted,
# comes out byte-identical to `tar -x` (contents, modes, times, symlinks,
# hard links); other formats list the same; counts add up over
# --copies/--jobs/--then rm; the spool file path gives the same tree;
# synthetic trees are deterministic and match docs/untar.md; hostile
# archives are refused without writing anywhere; truncated archives fail
# naming the entry; usage errors; the null engine; nothing is left behind.
. "$(dirname "$0")/lib.sh"

docs="$(dirname "$0")/../../docs/untar.md"

# jvars FILE NAME=EXPR...: set shell variables from Python expressions over
# the JSON document d, in one interpreter (op(PHASE, NAME) sums the ops of
# an operation; tree(KEY) is an integer tree statistic)
jvars() {
	f=$1
	shift
	eval "$(python3 - "$f" "$@" <<'PY'
import json, shlex, sys
d = json.load(open(sys.argv[1]))
def op(phase, name):
    return sum(o['ops'] for p in d['phases'] if p['name'] == phase
               for o in p['operations'] if o['name'] == name)
def tree(key):
    return int(d['parameters']['tree.' + key])
for a in sys.argv[2:]:
    k, e = a.split('=', 1)
    v = eval(e)
    v = str(v).lower() if isinstance(v, bool) else str(v)
    print(k + '=' + shlex.quote(v))
PY
)"
}
d="$T/target"
mkdir "$d"
umask 022

run "$FSGAUGE" untar --help
check "--help exits 0 and lists the presets" grep -q "tiny" "$T/out"
# the help is generated from the options untar accepts: the refused ones
# are not listed
for o in direct reuse warmup steady-state verify; do
	check "--help does not list --$o" sh -c '! grep -Eq -- "^ +--$1" "$2"' _ "$o" "$T/out"
done
check "--help lists the measurement options untar takes" grep -q -- "--repeat N" "$T/out"

# --- usage errors ----------------------------------------------------------
expect_fail "no source" 2 "exactly one of --tarball FILE and --synthetic NAME" "$FSGAUGE" untar -d "$d"
expect_fail "two sources" 2 "exactly one of" "$FSGAUGE" untar --synthetic tiny --tarball x.tar -d "$d"
expect_fail "unknown preset lists the others" 2 "unknown synthetic tree 'huge' \(available: tiny, small" \
	"$FSGAUGE" untar --synthetic huge -d "$d"
expect_fail "bad --fsync" 2 "invalid --fsync 'always' \(expected none, file or dir\)" \
	"$FSGAUGE" untar --synthetic tiny --fsync always -d "$d"
expect_fail "bad --then" 2 "invalid --then 'cp'" "$FSGAUGE" untar --synthetic tiny --then cp -d "$d"
expect_fail "bad --copies" 2 "invalid --copies '0'" "$FSGAUGE" untar --synthetic tiny --copies 0 -d "$d"
expect_fail "stray argument" 2 "unexpected argument 'x.tar'" "$FSGAUGE" untar --synthetic tiny x.tar
expect_fail "--direct is refused" 2 "--direct does not apply to untar" \
	"$FSGAUGE" untar --synthetic tiny --direct -d "$d"
expect_fail "--warmup is refused" 2 "--warmup and --steady-state do not apply" \
	"$FSGAUGE" untar --synthetic tiny --warmup 1 -d "$d"
expect_fail "--reuse is refused" 2 "--reuse does not apply" \
	"$FSGAUGE" untar --synthetic tiny --repeat 2 --reuse -d "$d"
expect_fail "--steady-state is refused" 2 "--warmup and --steady-state do not apply" \
	"$FSGAUGE" untar --synthetic tiny --steady-state -d "$d"
expect_fail "--verify is refused: nothing is read back" 2 \
	"--verify does not apply to untar: its copies are written and removed, never read back" \
	"$FSGAUGE" untar --synthetic tiny --verify -d "$d"
expect_fail "an unknown option: the one message style" 2 \
	"^fsgauge untar: unrecognized option '--frob' \(try 'fsgauge untar --help'\)$" \
	"$FSGAUGE" untar --synthetic tiny --frob -d "$d"
expect_fail "a missing argument: the one message style" 2 \
	"^fsgauge untar: option '--copies' needs an argument \(try 'fsgauge untar --help'\)$" \
	"$FSGAUGE" untar --synthetic tiny -d "$d" --copies
expect_fail "missing target directory" 2 "cannot use target directory" \
	"$FSGAUGE" untar --synthetic tiny -d "$T/nosuch"
check "usage errors leave nothing" empty_dir "$d"

# --- synthetic trees ----------------------------------------------------------
"$FSGAUGE" untar --synthetic tiny --list >"$T/tiny1" 2>/dev/null
"$FSGAUGE" untar --synthetic tiny --list >"$T/tiny1b" 2>/dev/null
"$FSGAUGE" untar --synthetic tiny --seed 2 --list >"$T/tiny2" 2>/dev/null
check "synthetic: same seed, same tree" cmp -s "$T/tiny1" "$T/tiny1b"
check "synthetic: another seed, another tree" sh -c "! cmp -s '$T/tiny1' '$T/tiny2'"

# every preset's statistics, computed here from its listing, equal the
# table in docs/untar.md (seed 1)
cat >"$T/stats.py" <<'PY'
import sys, math
def stats(lines):
    files = dirs = syms = links = 0; sizes = []; depth = 0
    for l in lines:
        if l.startswith('#'):
            continue
        t, mode, size, rest = l.rstrip('\n').split(' ', 3)
        path = rest.split(' -> ')[0].split(' => ')[0]
        depth = max(depth, path.count('/') + 1)
        if t == 'f': files += 1; sizes.append(int(size))
        elif t == 'd': dirs += 1
        elif t == 'l': syms += 1
        elif t == 'h': links += 1
    sizes.sort()
    rank = lambda q: sizes[max(0, math.ceil(q * len(sizes)) - 1)]
    return [files, dirs, syms, sum(sizes), rank(0.5), rank(0.99), depth]
table = {}
for l in open(sys.argv[1]):
    c = [x.strip() for x in l.strip().strip('|').split('|')]
    if len(c) == 8 and c[0].startswith('`') and c[1].replace(',', '').isdigit():
        table[c[0].strip('`')] = [int(x.replace(',', '')) for x in c[1:]]
name = sys.argv[2]
got = stats(open(sys.argv[3]))
want = table.get(name)
print(name, 'measured', got, 'documented', want)
sys.exit(0 if got == want else 1)
PY
for p in tiny small medium linux; do
	"$FSGAUGE" untar --synthetic $p --list >"$T/list-$p" 2>/dev/null
	check "synthetic $p: statistics match docs/untar.md" python3 "$T/stats.py" "$docs" $p "$T/list-$p"
	check "synthetic $p: --list summary agrees" sh -c "tail -1 '$T/list-$p' | grep -q '^# files'"
done

# the tiny tree extracted is exactly what --list says
run "$FSGAUGE" untar --synthetic tiny -d "$d" --keep --json "$T/tiny.json"
check "synthetic tiny: exit 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "synthetic tiny: kept the copy" [ -d "$kept/copy-000" ]
(cd "$kept/copy-000" && find . -mindepth 1 -printf '%y %m %s %P -> %l\n') |
	sed 's/^f \([0-7]*\) /f 0\1 /; s/^d \([0-7]*\) [0-9]* /d 0\1 0 /; s/^l [0-7]* [0-9]* /l 0777 0 /; s/ -> $//' |
	sort >"$T/tiny-fs"
grep -v '^#' "$T/tiny1" | sort >"$T/tiny-list"
check "synthetic tiny: the tree on disk is the listing" cmp -s "$T/tiny-fs" "$T/tiny-list"
jvars "$T/tiny.json" w='d["phases"][0]["summary"]["bytes_written"]' b='tree("bytes")'
check "synthetic tiny: file sizes are the generator's" [ "$w" = "$b" ]
rm -rf "$kept"

# --- a real directory of this machine ----------------------------------------
src=/usr/include
[ -d "$src" ] || src=/usr/share
x="$T/x"
mkdir -p "$x/zz-extra/sub/deeper" "$x/zz-extra/private"
printf 'hello\n' >"$x/zz-extra/hello.txt"
: >"$x/zz-extra/empty"
head -c 200000 /dev/urandom >"$x/zz-extra/sub/random.bin"
printf '#!/bin/sh\necho hi\n' >"$x/zz-extra/script.sh"
chmod 0755 "$x/zz-extra/script.sh"
chmod 0600 "$x/zz-extra/hello.txt"
chmod 0700 "$x/zz-extra/private"
ln -s ../hello.txt "$x/zz-extra/sub/link-to-hello"
ln -s no/such/target "$x/zz-extra/dangling"
ln "$x/zz-extra/sub/random.bin" "$x/zz-extra/deeper-hardlink.bin"
touch -d '2010-03-30 14:50:00' "$x/zz-extra/sub/deeper" "$x/zz-extra/hello.txt"
(cd "${src%/*}" && find "${src##*/}" | LC_ALL=C sort | head -n 2000) >"$T/list"
tar -C "${src%/*}" --no-recursion -cf "$T/src.tar" -T "$T/list" 2>/dev/null
tar -C "$x" -rf "$T/src.tar" zz-extra
gzip -c "$T/src.tar" >"$T/src.tar.gz"
nfiles=$(tar -tvf "$T/src.tar" | grep -c '^-')
check "built a test archive of $nfiles files from $src" [ "$nfiles" -ge 1000 ]

if ! "$FSGAUGE" --version | grep -q '+libarchive'; then
	expect_fail "without libarchive: --tarball says so" 2 "built without libarchive" \
		"$FSGAUGE" untar --tarball "$T/src.tar.gz" -d "$d"
	run "$FSGAUGE" untar --synthetic tiny -d "$d" -q
	check "without libarchive: --synthetic works" [ "$rc" -eq 0 ]
	check "nothing left behind" empty_dir "$d"
	finish
	exit $?
fi

mkdir "$T/ref"
tar -C "$T/ref" -xpf "$T/src.tar.gz"
run "$FSGAUGE" untar --tarball "$T/src.tar.gz" -d "$d" --keep --json "$T/one.json"
check "tarball: exit 0" [ "$rc" -eq 0 ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "tarball: contents byte-identical to tar -x" diff -r --no-dereference "$T/ref" "$kept/copy-000"
# Directory times are left out: GNU tar creates symlinks late (its
# "delayed links") and so leaves the current time on some directories.
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf '%y %m %p\n' \) -o \
		-printf '%y %m %s %n %T@ %p -> %l\n' | LC_ALL=C sort)
}
tree "$T/ref" >"$T/ref.tree"
tree "$kept/copy-000" >"$T/ours.tree"
check "tarball: types, modes, sizes, link counts, file times and symlink targets as tar -x" \
	cmp -s "$T/ref.tree" "$T/ours.tree"
check "tarball: the hard link is one file" [ "$kept/copy-000/zz-extra/sub/random.bin" -ef "$kept/copy-000/zz-extra/deeper-hardlink.bin" ]
check "tarball: a dangling symlink stays dangling" [ "$(readlink "$kept/copy-000/zz-extra/dangling")" = no/such/target ]
jvars "$T/one.json" f='tree("files")' h='tree("hardlinks")'
check "json: files in the tree" [ "$f" = "$nfiles" ]
check "json: one hard link" [ "$h" = 1 ]
rm -rf "$kept"

# the same tree through a spool file instead of memory
run "$FSGAUGE" untar --tarball "$T/src.tar.gz" -d "$d" --keep --max-memory 64k --json "$T/spool.json"
check "spool: exit 0" [ "$rc" -eq 0 ]
check "spool: said so" grep -q "in a spool file" "$T/err"
jvars "$T/spool.json" sp='d["parameters"]["spooled"]'
check "spool: recorded" [ "$sp" = true ]
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "spool: contents byte-identical to tar -x" diff -r --no-dereference "$T/ref" "$kept/copy-000"
check "spool: no spool file left in the run directory" [ "$(ls -A "$kept")" = "$(printf '.fsgauge-run\ncopy-000')" ]
rm -rf "$kept"

# other containers and compressors list the same tree (a smaller one)
head -n 300 "$T/list" >"$T/list300"
tar -C "${src%/*}" --no-recursion -cf "$T/small.tar" -T "$T/list300" 2>/dev/null
tar -C "$x" -rf "$T/small.tar" zz-extra
gzip -c "$T/small.tar" >"$T/small.tar.gz"
"$FSGAUGE" untar --tarball "$T/small.tar.gz" --list >"$T/l.gz"
"$FSGAUGE" untar --tarball "$T/small.tar" --list >"$T/l.tar"
check "plain tar and tar.gz list the same" cmp -s "$T/l.gz" "$T/l.tar"
if command -v xz >/dev/null; then
	xz -c "$T/small.tar" >"$T/src.tar.xz"
	"$FSGAUGE" untar --tarball "$T/src.tar.xz" --list >"$T/l.xz"
	check "tar.xz lists the same" cmp -s "$T/l.gz" "$T/l.xz"
fi
if command -v zstd >/dev/null; then
	zstd -q -c "$T/small.tar" >"$T/src.tar.zst"
	"$FSGAUGE" untar --tarball "$T/src.tar.zst" --list >"$T/l.zst"
	check "tar.zst lists the same" cmp -s "$T/l.gz" "$T/l.zst"
fi
if command -v zip >/dev/null; then
	mkdir "$T/smallref"
	tar -C "$T/smallref" -xpf "$T/small.tar"
	(cd "$T/smallref" && zip -qry "$T/src.zip" .)
	# zip has no hard links (both names are files): compare type, mode, name
	norm() { grep -v '^[#d]' "$1" | sed 's/^h/f/; s/ => .*//' | awk '{ $3 = ""; print }' | LC_ALL=C sort; }
	"$FSGAUGE" untar --tarball "$T/src.zip" --list >"$T/l.zip"
	norm "$T/l.gz" >"$T/l.gz.n"
	norm "$T/l.zip" >"$T/l.zip.n"
	check "zip lists the same files" cmp -s "$T/l.gz.n" "$T/l.zip.n"
fi

# --- copies, jobs, then rm: the counts add up -------------------------------------
run "$FSGAUGE" untar --tarball "$T/small.tar.gz" -d "$d" --copies 3 --jobs 2 --then rm --json "$T/c.json" --label three
check "copies: exit 0" [ "$rc" -eq 0 ]
jvars "$T/c.json" files='tree("files")' syms='tree("symlinks")' links='tree("hardlinks")' \
	dirs='tree("dirs") + 1' bytes='tree("bytes")' \
	create='op("untar", "untar.create")' mkdir='op("untar", "untar.mkdir")' \
	symlink='op("untar", "untar.symlink")' link='op("untar", "untar.link")' \
	close='op("untar", "untar.close")' unlink='op("rm", "rm.unlink")' rmdir='op("rm", "rm.rmdir")' \
	written='d["phases"][0]["summary"]["bytes_written"]' \
	complete='[sum(1 for x in p["executions"] if x["complete"]) for p in d["phases"]]' \
	index='[x["index"] for x in d["phases"][0]["executions"]]' \
	threads='[p["threads"] for p in d["phases"]]' errors='d["status"]["errors"]' \
	pct='all(o["latency_us"]["p50"] <= o["latency_us"]["p99"] for p in d["phases"] for o in p["operations"])'
check "copies: files created = copies x files" [ "$create" -eq $((3 * files)) ]
check "copies: directories made = copies x (dirs + root)" [ "$mkdir" -eq $((3 * dirs)) ]
check "copies: symlinks and links made" [ $((symlink + link)) -eq $((3 * (syms + links))) ]
check "copies: every file closed" [ "$close" -eq $((3 * files)) ]
check "copies: bytes written = copies x bytes" [ "$written" -eq $((3 * bytes)) ]
check "rm: names removed = names created" [ "$unlink" -eq $((3 * (files + syms + links))) ]
check "rm: directories removed = directories made" [ "$rmdir" -eq "$mkdir" ]
check "copies: three complete executions per phase" [ "$complete" = "[3, 3]" ]
check "copies: copy numbers 0..2" [ "$index" = "[0, 1, 2]" ]
check "copies: two threads" [ "$threads" = "[2, 2]" ]
check "copies: no errors" [ "$errors" = 0 ]
check "copies: percentiles per operation kind" [ "$pct" = true ]
check "copies: per-copy table printed" grep -Eq '^copy-002 +[01] ' "$T/out"
check "copies: nothing left behind" empty_dir "$d"

# the status line counts the copies: each directory made waits 20 ms, so
# three copies of the tiny tree take a few seconds of status lines
run "$FSGAUGE" untar --synthetic tiny -d "$d" --copies 3 --engine faulty:null:op=mkdir,delay=20000 \
	--progress=always
check "--progress with copies: exit 0" [ "$rc" -eq 0 ]
tr '\r' '\n' <"$T/err" | grep '^untar: ' >"$T/prog"
check "--progress: status lines" [ -s "$T/prog" ]
check "--progress: each says how many of the 3 copies have ended, never fewer than before" \
	awk 'BEGIN { last = 0; bad = 0 }
	     { if (!match($0, /  [0-9]+\/3 copies  /)) { bad = 1; next }
	       k = substr($0, RSTART + 2) + 0; if (k < last || k > 3) bad = 1; last = k }
	     END { exit bad }' "$T/prog"
check "--progress with copies: nothing left behind" empty_dir "$d"
# the figures of the per-copy tables, as the phases' metrics (the suite's
# metrics table)
jvars "$T/c.json" m0='sorted(d["phases"][0]["metrics"])' m1='sorted(d["phases"][1]["metrics"])' \
	u0='d["phases"][0]["metrics"]["files_per_second"]["unit"]' \
	pos='all(m["value"] > 0 for p in d["phases"] for m in p["metrics"].values())'
check "metrics: untar's phase" [ "$m0" = "['files_per_second', 'mib_per_second', 'seconds_per_copy']" ]
check "metrics: rm's phase" [ "$m1" = "['entries_per_second', 'seconds_per_copy']" ]
check "metrics: with their units" [ "$u0" = files/s ]
check "metrics: all positive" [ "$pos" = true ]

# --fsync dir: one fsync per file, one per directory and the root
run "$FSGAUGE" untar --synthetic tiny -d "$d" --fsync dir --json "$T/f.json"
check "fsync dir: exit 0" [ "$rc" -eq 0 ]
jvars "$T/f.json" fs='op("untar", "untar.fsync")' fd='op("untar", "untar.fsyncdir")'
check "fsync dir: a file fsync per file" [ "$fs" -eq 400 ]
check "fsync dir: a directory fsync per directory and root" [ "$fd" -eq 41 ]
check "fsync dir: nothing left behind" empty_dir "$d"

# --repeat: the runs folded together, every copy of every run kept apart
run "$FSGAUGE" untar --synthetic tiny -d "$d" --copies 2 --repeat 2 --json "$T/r.json"
check "repeat: exit 0" [ "$rc" -eq 0 ]
jvars "$T/r.json" c='op("untar", "untar.create")' n='len(d["phases"][0]["executions"])' \
	runs='sorted(set(x["repeat"] for x in d["phases"][0]["executions"]))' \
	rs='d["phases"][0]["repeat_stats"]["ops_per_second"]["n"]'
check "repeat: files created = runs x copies x files" [ "$c" -eq 1600 ]
check "repeat: four executions" [ "$n" -eq 4 ]
check "repeat: from runs 0 and 1" [ "$runs" = "[0, 1]" ]
check "repeat: statistics over 2 runs" [ "$rs" -eq 2 ]
check "repeat: a run column" grep -Eq '^ +2 copy-001 ' "$T/out"
check "repeat: nothing left behind" empty_dir "$d"

# --max-time ends a phase before its copies are done: the run fell short
# (exit 1), and the result says how far it got (null engine: ~0.05 s a copy)
expect_fail "--max-time: copies not finished, exit 1" 1 \
	"phase untar: only [0-9]+ of 100 copies finished within --max-time 0.2" \
	"$FSGAUGE" untar --synthetic medium -d "$d" --engine null --copies 100 --jobs 2 \
	--max-time 0.2 -q --json "$T/mt.json"
jvars "$T/mt.json" inc='d["parameters"]["incomplete.untar"]'
check "--max-time: recorded as incomplete.untar ($inc)" sh -c 'echo "$1" | grep -Eq "^[0-9]+ of 100 copies finished$"' _ "$inc"
check "--max-time: nothing left behind" empty_dir "$d"

# the null engine runs the whole path and writes nothing
run "$FSGAUGE" untar --synthetic small -d "$d" --engine null --copies 4 --jobs 2 --then rm --json "$T/n.json"
check "null engine: exit 0" [ "$rc" -eq 0 ]
jvars "$T/n.json" c='op("untar", "untar.create")' u='op("rm", "rm.unlink")'
check "null engine: creates counted" [ "$c" -eq 16000 ]
check "null engine: removals counted" [ "$u" -eq 16080 ]
check "null engine: nothing created" empty_dir "$d"

# --- I/O errors (the faulty engine) ------------------------------------------------
expect_fail "ENOSPC on the 100th write: exit 1 naming the operation and file" 1 \
	"flowop 'untar.write': write 'copy-000/[^']+': No space left on device" \
	"$FSGAUGE" untar --synthetic tiny -d "$d" --copies 2 --json "$T/e.json" \
	--engine faulty:psync:op=write,nth=100,err=ENOSPC
jvars "$T/e.json" inc='[x["complete"] for x in d["phases"][0]["executions"]]' \
	st='d["status"]["stopped_on_error"]'
check "ENOSPC: the copy is marked incomplete" [ "$inc" = "[False]" ]
check "ENOSPC: stopped on the error" [ "$st" = true ]
check "ENOSPC: nothing left behind" empty_dir "$d"
expect_fail "--on-error=continue: the other copies go on" 1 "no rm phase: extracting failed" \
	"$FSGAUGE" untar --synthetic tiny -d "$d" --copies 3 --then rm --on-error=continue \
	--json "$T/e2.json" --engine faulty:psync:op=open,nth=50,err=EIO
jvars "$T/e2.json" inc='[x["complete"] for x in d["phases"][0]["executions"]]' np='len(d["phases"])'
check "--on-error=continue: one copy failed, two complete" [ "$inc" = "[False, True, True]" ]
check "--on-error=continue: no rm phase after a failed extraction" [ "$np" -eq 1 ]
check "--on-error=continue: nothing left behind" empty_dir "$d"

# --- hostile archives ---------------------------------------------------------
mkdir "$T/outside" "$T/h"
echo original >"$T/outside/victim"
cat >"$T/mk.py" <<'PY'
import io, sys, tarfile
out, victim = sys.argv[1], sys.argv[2]
def mk(name, entries):
    with tarfile.open(f'{out}/{name}', 'w', format=tarfile.GNU_FORMAT) as t:
        for kind, path, arg in entries:
            ti = tarfile.TarInfo(path)
            if kind == 'f':
                data = arg.encode(); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
            else:
                ti.type = {'l': tarfile.SYMTYPE, 'h': tarfile.LNKTYPE, 'd': tarfile.DIRTYPE}[kind]
                ti.linkname = arg or ''
                t.addfile(ti)
mk('absolute.tar', [('f', 'ok', 'x'), ('f', victim, 'evil')])
mk('dotdot.tar', [('f', 'ok', 'x'), ('f', 'a/../../../outside/victim', 'evil')])
mk('symlink-up.tar', [('l', 'up', '../../../outside'), ('f', 'up/victim', 'evil')])
mk('symlink-abs.tar', [('l', 'esc', victim.rsplit('/', 1)[0]), ('d', 'esc/sub', None), ('f', 'esc/sub/x', 'evil')])
mk('symlink-chain.tar', [('d', 'a', None), ('l', 'a/b', '.'), ('l', 'a/c', '/'), ('f', 'a/b/c/etc-x', 'evil')])
mk('hardlink-abs.tar', [('h', 'hl', victim)])
mk('hardlink-up.tar', [('h', 'hl', '../outside/victim')])
PY
python3 "$T/mk.py" "$T/h" "$T/outside/victim"
for a in absolute dotdot symlink-up symlink-abs symlink-chain hardlink-abs hardlink-up; do
	expect_fail "hostile $a: refused naming the entry" 2 "refusing archive '.*$a.tar': entry '" \
		"$FSGAUGE" untar --tarball "$T/h/$a.tar" -d "$d" --copies 2
done
check "hostile: the victim is untouched" [ "$(cat "$T/outside/victim")" = original ]
check "hostile: nothing written next to it" [ "$(ls -A "$T/outside")" = victim ]
check "hostile: nothing left in the target" empty_dir "$d"
# a symlink replaced by a file of the same name: the link goes, the
# target is not written through
python3 -c '
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    ti = tarfile.TarInfo("s"); ti.type = tarfile.SYMTYPE; ti.linkname = sys.argv[2]; t.addfile(ti)
    ti = tarfile.TarInfo("s"); ti.size = 4; t.addfile(ti, io.BytesIO(b"new\n"))
' "$T/h/replace.tar" "$T/outside/victim"
run "$FSGAUGE" untar --tarball "$T/h/replace.tar" -d "$d" --keep
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
check "replace: exit 0" [ "$rc" -eq 0 ]
[ -f "$kept/copy-000/s" ] && [ ! -L "$kept/copy-000/s" ]
checked "replace: the file replaced the link"
check "replace: the victim is untouched" [ "$(cat "$T/outside/victim")" = original ]
rm -rf "$kept"

# --- malformed and truncated archives -------------------------------------------
size=$(wc -c <"$T/src.tar.gz")
head -c $((size / 2)) "$T/src.tar.gz" >"$T/trunc.tar.gz"
expect_fail "truncated tar.gz: names the entry" 2 "cannot read archive '.*trunc.tar.gz': entry '[^']+' is truncated or corrupt" \
	"$FSGAUGE" untar --tarball "$T/trunc.tar.gz" -d "$d"
size=$(wc -c <"$T/src.tar")
head -c $((size / 2 + 100)) "$T/src.tar" >"$T/trunc.tar"
expect_fail "truncated tar: names the entry" 2 "cannot read archive '.*trunc.tar': (entry '[^']+' is truncated|after entry '[^']+')" \
	"$FSGAUGE" untar --tarball "$T/trunc.tar" -d "$d"
echo "not an archive" >"$T/text.tar"
expect_fail "not an archive" 2 "cannot open archive '.*text.tar': Unrecognized archive format" \
	"$FSGAUGE" untar --tarball "$T/text.tar" -d "$d"
: >"$T/empty.tar"
expect_fail "an empty file" 2 "cannot open archive '.*empty.tar'" "$FSGAUGE" untar --tarball "$T/empty.tar" -d "$d"
expect_fail "a missing archive" 2 "cannot open archive '.*nosuch.tar': No such file or directory" \
	"$FSGAUGE" untar --tarball "$T/nosuch.tar" -d "$d"
expect_fail "--data with a tarball" 2 "--data applies to --synthetic trees" \
	"$FSGAUGE" untar --tarball "$T/src.tar" --data zero -d "$d"
check "bad archives leave nothing" empty_dir "$d"

# --- SIGINT mid-run: partial results, exit 130, nothing left -------------------------
# (each backgrounded block starts from fresh files, spawn in lib.sh: its
# redirections truncate in the child, after wait_for may have read a stale line)
rm -f "$T/int.json"
spawn "$T/int.out" "$T/int.err" "$FSGAUGE" untar --synthetic small -d "$d" --copies 500 --jobs 2 \
	--max-time 30 --json "$T/int.json"
check "SIGINT: the run got going" wait_for "$T/int.err" '^Running'
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
jvars "$T/int.json" i='d["status"]["interrupted"]' inc='any(not x["complete"] for x in d["phases"][0]["executions"])'
check "SIGINT: json marked interrupted" [ "$i" = true ]
check "SIGINT: the copy in progress is marked incomplete" [ "$inc" = true ]
check "SIGINT: nothing left behind" empty_dir "$d"

# --- SIGINT while reading the archive from a FIFO ------------------------------------
# Its open waits for a writer, its reads for data: a signal must end either
# (130, a JSON marked interrupted, the run directory removed), not be
# retried (libarchive's own reader retries EINTR for ever) or end in exit 3.
# Under timeout, so that a regression fails instead of hanging.
# fifo_sigint DESC MESSAGE: untar the FIFO $T/fifo, SIGINT once it has
# started reading, judge
fifo_sigint() {
	rm -f "$T/fifo.json" "$T/fifo.out" "$T/fifo.err" # (an old one would satisfy wait_for at once)
	timeout -k 5 60 "$FSGAUGE" untar --tarball "$T/fifo" -d "$d" --json "$T/fifo.json" \
		>"$T/fifo.out" 2>"$T/fifo.err" &
	pid=$!
	check "$1: it got to the archive" wait_for "$T/fifo.err" "^reading '"
	kill -INT $pid
	wait $pid
	rc=$?
	check "$1: exit 130 (got $rc)" [ "$rc" -eq 130 ]
	grep -Eq "^fsgauge: interrupted while $2 archive '$T/fifo'$" "$T/fifo.err" ||
		sed 's/^/#   /' "$T/fifo.err"
	checked "$1: says so"
	check "$1: json marked interrupted" [ "$(json "$T/fifo.json" 'd["status"]["interrupted"] and not d["status"]["complete"]')" = true ]
	check "$1: nothing left behind" empty_dir "$d"
}
mkfifo "$T/fifo"
fifo_sigint "FIFO without a writer" opening
sleep 60 >"$T/fifo" &
writer=$!
fifo_sigint "FIFO whose writer sends nothing" "(opening|reading)"
kill $writer 2>/dev/null
wait $writer 2>/dev/null
# and a FIFO that does carry an archive is read as a file is (the interrupted
# runs' JSON gone first, so that only this run's can be judged)
rm -f "$T/fifo.json" "$T/fifo.out" "$T/fifo.err"
cat "$T/small.tar" >"$T/fifo" &
writer=$!
run timeout -k 5 60 "$FSGAUGE" untar --tarball "$T/fifo" -d "$d" -q --json "$T/fifo.json"
wait $writer
check "an archive through a FIFO is extracted (exit $rc)" [ "$rc" -eq 0 ]
check "  all of it" [ "$(json "$T/fifo.json" 'd["status"]["complete"]')" = true ]
check "  and nothing is left" empty_dir "$d"

finish
