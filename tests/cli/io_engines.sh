#!/bin/sh
# fio's ftruncate, falloc and cpuio engines in fsgauge io (issue 20,
# docs/io.md "Range engines" and "cpuio", docs/fio-compat.md): each from
# the command line and from a job file, their system calls counted with
# strace (and compared with fio's own on the same job when fio is
# installed), the files' sizes and blocks, the chunks' bounds, the
# result's and fio's JSON counts, and the refusals.
. "$(dirname "$0")/lib.sh"

FX="$(dirname "$0")/../fixtures/fio"
d="$T/target"
mkdir "$d"
have_strace=0
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null && have_strace=1
have_fio=0
command -v fio >/dev/null && have_fio=1

# trace SYSCALL OUT COMMAND...: runs COMMAND (under strace when it works,
# the calls with their files' paths in OUT); $rc, $T/out, $T/err as run
trace() {
	sc=$1 out=$2
	shift 2
	: >"$out"
	if [ "$have_strace" = 1 ]; then
		# LeakSanitizer cannot run under ptrace: off there (a sanitized
		# build; ASAN_OPTIONS is ignored by other builds), kept elsewhere
		run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -y -e trace="$sc" -o "$out" "$@"
	else
		run "$@"
	fi
}

# calls FILE NAME: the calls of trace FILE on files named NAME (the
# syscall's arguments after the descriptor, one line each)
calls() {
	grep "/$2>" "$1" | sed 's/^[0-9]* *[a-z]*([0-9]*<[^>]*>, //; s/) *= .*//'
}

# kept: the run directory --keep left (then removed by the test)
kept() {
	sed -n 's/^kept run directory: //p' "$T/err"
}

# summary: one line per operation of the first phase of $T/r.json, "NAME
# OPS BYTES_READ BYTES_WRITTEN BYTES_TRIMMED", then "fio DIR TOTAL_IOS
# IO_BYTES" per direction of fio's JSON $T/fio.json (when written),
# "param KEY VALUE" per job.* parameter, "secs SECONDS" of the phase and
# "minlat NAME US" per operation, into $T/sum (one python each run)
summary() {
	json "$T/r.json" "'\\n'.join(['%s %d %d %d %d' % (o['name'], o['ops'], o['bytes_read'], o['bytes_written'], o.get('bytes_trimmed') or 0) for o in d['phases'][0]['operations']] + ['param %s %s' % kv for kv in d['parameters'].items() if kv[0].startswith('job.')] + ['secs %f' % d['phases'][0]['seconds']] + ['minlat %s %f' % (o['name'], o['latency_us']['min']) for o in d['phases'][0]['operations'] if o['ops']] + ((lambda f: ['fio %s %d %d' % (k, f['jobs'][0][k]['total_ios'], f['jobs'][0][k]['io_bytes']) for k in ('read', 'write', 'trim')])(json.load(open('$T/fio.json'))) if __import__('os').path.exists('$T/fio.json') else []))" >"$T/sum"
}

# op NAME FIELD: ops, read, written or trimmed of operation NAME (summary)
op() {
	awk -v n="$1" -v f="$2" '$1 == n { print f == "ops" ? $2 : f == "read" ? $3 : f == "written" ? $4 : $5 }' "$T/sum"
}

# fiodir DIR: "TOTAL_IOS IO_BYTES" of fio's JSON's direction DIR (summary)
fiodir() {
	awk -v d="$1" '$1 == "fio" && $2 == d { print $3, $4 }' "$T/sum"
}

size_blocks() {
	stat -c '%s %b' "$1"
}

# --- ftruncate -------------------------------------------------------------------

trace ftruncate "$T/ft.tr" "$FSGAUGE" io --name=ft --ioengine=ftruncate --rw=write --bs=4k \
	--size=64k -d "$d" --keep -q --json "$T/r.json" --output-format=json --output "$T/fio.json"
check "ftruncate rw=write: runs" [ "$rc" = 0 ]
rd=$(kept)
summary
check "  16 requests, JOB.write, no bytes" [ "$(op ft.write ops) $(op ft.write written)" = "16 0" ]
check "  the file ends at the last request's offset (size - bs)" [ "$(size_blocks "$rd/ft.0.0")" = "61440 0" ]
check "  fio's JSON: write.total_ios 16, io_bytes 0" \
	[ "$(fiodir write)" = "16 0" ]
check "  recorded: job.ft.ioengine=ftruncate" grep -qx "param job.ft.ioengine ftruncate" "$T/sum"
if [ "$have_strace" = 1 ]; then
	want=$(i=0; while [ $i -lt 16 ]; do echo $((i * 4096)); i=$((i + 1)); done)
	check "  strace: one ftruncate(fd, offset) per request, in order" [ "$(calls "$T/ft.tr" ft.0.0)" = "$want" ]
else
	ok "  strace: # SKIP strace cannot run here"
fi
rm -rf "$rd"

trace ftruncate "$T/ftr.tr" "$FSGAUGE" io --name=ft --ioengine=ftruncate --rw=randwrite --bs=4k \
	--size=64k -d "$d" --keep -q --json "$T/r.json"
rd=$(kept)
rm -f "$T/fio.json"
summary
sz=$(stat -c %s "$rd/ft.0.0")
c=0
[ "$rc" = 0 ] && [ "$(op ft.write ops)" = 16 ] && [ $((sz % 4096)) = 0 ] && [ "$sz" -lt 65536 ] && c=1
check "ftruncate rw=randwrite: 16 requests, the size a multiple of bs below size" [ "$c" = 1 ]
if [ "$have_strace" = 1 ]; then
	c=0
	[ "$(calls "$T/ftr.tr" ft.0.0 | sort -n | tr '\n' ' ')" = "$(echo "$want" | tr '\n' ' ')" ] &&
		[ "$(calls "$T/ftr.tr" ft.0.0 | tail -n 1)" = "$sz" ] && c=1
	check "  strace: each block's offset once (fio's random map), the last one the size" [ "$c" = 1 ]
fi
rm -rf "$rd"

# a rate counts each request's range (an ftruncate moves no byte): 16
# requests at 32 a second reach rate_min
run "$FSGAUGE" io --name=ft --ioengine=ftruncate --rw=write --bs=4k --size=64k --rate=128k \
	--rate_min=64k -d "$d" -q
check "ftruncate with rate=128k rate_min=64k: each request counts its 4k, rate_min met" [ "$rc" = 0 ]

# --- falloc ------------------------------------------------------------------------

# falloc RW MODE DIR: one falloc job of 16 requests, fallocate(2) with
# MODE, counted as DIR; its file's size and blocks in $fsize, $fblocks
falloc() {
	rw=$1 mode=$2
	trace fallocate "$T/fa.tr" "$FSGAUGE" io --name=fa --ioengine=falloc --rw="$rw" --bs=4k \
		--size=64k -d "$d" --keep -q --json "$T/r.json" --output-format=json --output "$T/fio.json"
	rd=$(kept)
	summary
	dir=$3
	c=0
	[ "$rc" = 0 ] && [ "$(op fa."$dir" ops)" = 16 ] && [ "$(fiodir "$dir" | cut -d' ' -f1)" = 16 ] && c=1
	check "falloc rw=$rw: runs, 16 requests as fa.$dir in the result and fio's JSON (no bytes)" [ "$c" = 1 ]
	if [ "$have_strace" = 1 ]; then
		n=$(calls "$T/fa.tr" fa.0.0 | grep -c "^$mode, [0-9]*, 4096$")
		c=0
		[ "$n" = 16 ] && [ "$(calls "$T/fa.tr" fa.0.0 | wc -l)" = 16 ] && c=1
		check "  strace: 16 fallocate(fd, $mode, off, 4096) on its file, no other" [ "$c" = 1 ]
	else
		ok "  strace: # SKIP strace cannot run here"
	fi
	set -- $(size_blocks "$rd/fa.0.0")
	fsize=$1 fblocks=$2
	rm -rf "$rd"
}

falloc write 0 write
c=0
[ "$fsize" = 65536 ] && [ $((fblocks * 512)) -ge 65536 ] && c=1
check "  the file is 64k with its blocks allocated (st_blocks)" [ "$c" = 1 ]
c=0
[ "$(op fa.write written)" = 0 ] && [ "$(fiodir write)" = "16 0" ] && c=1
check "  no bytes written" [ "$c" = 1 ]
falloc randwrite 0 write
c=0
[ "$fsize" = 65536 ] && [ $((fblocks * 512)) -ge 65536 ] && c=1
check "  the file is 64k with its blocks allocated (st_blocks)" [ "$c" = 1 ]
falloc read FALLOC_FL_KEEP_SIZE read
c=0
[ "$fsize" = 65536 ] && [ $((fblocks * 512)) -ge 65536 ] && [ "$(op fa.read read)" = 0 ] && c=1
check "  laid out beforehand: 64k, allocated, no bytes read" [ "$c" = 1 ]
falloc trim 'FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE' trim
c=0
[ "$fsize" = 65536 ] && [ "$fblocks" = 0 ] && [ "$(op fa.trim trimmed)" = 65536 ] &&
	[ "$(fiodir trim)" = "16 65536" ] && c=1
check "  every block punched: 64k long, st_blocks 0; 64k trimmed" [ "$c" = 1 ]

# --- fio's own calls on the same jobs ----------------------------------------------

if [ "$have_fio" = 1 ] && [ "$have_strace" = 1 ]; then
	for job in "ftruncate write ftruncate" "falloc write fallocate" "falloc read fallocate" \
		"falloc trim fallocate"; do
		set -- $job
		mkdir "$T/fio"
		(cd "$T/fio" && strace -f -qq -y -e trace="$3" -o "$T/fio.tr" fio --name=x --ioengine="$1" \
			--rw="$2" --bs=4k --size=64k --output-format=json >/dev/null 2>&1)
		trace "$3" "$T/fs.tr" "$FSGAUGE" io --name=x --ioengine="$1" --rw="$2" --bs=4k --size=64k \
			-d "$d" -q
		# fio's requests: its layout's calls (the whole file at once) left out
		check "fio $1 rw=$2: the same calls as fio's requests, in the same order" \
			[ "$(calls "$T/fio.tr" x.0.0 | grep -v ', 65536$')" = "$(calls "$T/fs.tr" x.0.0)" ]
		rm -rf "$T/fio"
	done
else
	ok "fio's calls: # SKIP fio or strace not available"
fi

# --- a job file --------------------------------------------------------------------

trace ftruncate,fallocate "$T/jf.tr" "$FSGAUGE" io "$FX/rangeops.fio" -d "$d" --keep -q \
	--json "$T/r.json"
rd=$(kept)
rm -f "$T/fio.json"
summary
check "rangeops.fio: runs" [ "$rc" = 0 ]
c=0
[ "$(op trunc.write ops)" = 16 ] && [ "$(stat -c %s "$rd/trunc.0.0")" = 61440 ] && c=1
check "  trunc: 16 writes, the file 60k" [ "$c" = 1 ]
c=0
[ "$(op alloc.write ops)" = 16 ] && [ "$(stat -c %s "$rd/alloc.0.0")" = 65536 ] &&
	[ $(($(stat -c %b "$rd/alloc.0.0") * 512)) -ge 65536 ] && c=1
check "  alloc: 16 writes, the file 64k allocated" [ "$c" = 1 ]
c=0
[ "$(op punch.trim ops)" = 16 ] && [ "$(size_blocks "$rd/punch.0.0")" = "65536 0" ] && c=1
check "  punch: 16 trims, the file 64k with no block" [ "$c" = 1 ]
if [ "$have_strace" = 1 ]; then
	check "  strace: 16 calls on each file" [ "$(calls "$T/jf.tr" trunc.0.0 | wc -l) $(calls "$T/jf.tr" alloc.0.0 | wc -l) $(calls "$T/jf.tr" punch.0.0 | grep -c PUNCH)" = "16 16 16" ]
fi
rm -rf "$rd"

# --- cpuio -------------------------------------------------------------------------

# most OPS CLONES CHUNK_US SLEEP_US: whether OPS chunks fit the phase: each
# clone's chunk and sleep take at least CHUNK + SLEEP, so a clone does at
# most seconds / (CHUNK + SLEEP) of them, and one more that the end cuts
most() {
	awk -v n="$1" -v k="$2" -v p="$(($3 + $4))" '$1 == "secs" { exit !(n <= k * (int($2 * 1e6 / p) + 1)) }' "$T/sum"
}

# minlat NAME CHUNK_US: whether operation NAME's smallest latency is at
# least a chunk (a chunk is never cut short)
minlat() {
	awk -v n="$1" -v c="$2" 'BEGIN { r = 1 } $1 == "minlat" && $2 == n { r = !($3 >= c) } END { exit r }' "$T/sum"
}

trace pread64,pwrite64,preadv,pwritev,fallocate,ftruncate,fsync,fdatasync "$T/cpu.tr" \
	"$FSGAUGE" io --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 --runtime=1 \
	--numjobs=2 -d "$d" -q --json "$T/r.json" --output-format=json --output "$T/fio.json"
summary
n=$(op c.read ops)
c=0
[ "$rc" = 0 ] && [ "$n" -ge 2 ] && [ "$(op c.read read) $(op c.read written)" = "0 0" ] && c=1
check "cpuio cpuload=50 cpuchunks=20000 numjobs=2: runs, chunks as c.read, no bytes" [ "$c" = 1 ]
check "  at most one chunk + sleep (40 ms) per clone per 40 ms of the phase" most "$n" 2 20000 20000
check "  each chunk's latency at least cpuchunks" minlat c.read 20000
check "  fio's JSON: read.total_ios = the chunks, io_bytes 0, no writes" \
	[ "$(fiodir read) $(fiodir write)" = "$n 0 0 0" ]
check "  recorded: cpuload, cpuchunks" [ "$(grep -c -e '^param job.c.cpuload 50$' -e '^param job.c.cpuchunks 20000$' "$T/sum")" = 2 ]
if [ "$have_strace" = 1 ]; then
	check "  strace: no read, write, fallocate, ftruncate or sync call on a file of the target" \
		[ -z "$(grep "<$d/" "$T/cpu.tr")" ]
fi
check "  nothing left in the target" empty_dir "$d"

run "$FSGAUGE" io "$FX/cpuio.fio" -d "$d" -q --json "$T/r.json" --output-format=json --output "$T/fio.json"
rm -f "$T/fio.json"
summary
b=$(op burn.read ops) q=$(op quarter.read ops)
c=0
[ "$rc" = 0 ] && [ "$b" -ge 1 ] && [ "$q" -ge 1 ] && [ "$(op quarter.write ops)" = "" ] &&
	[ "$(op burn.read read) $(op quarter.read read)" = "0 0" ] && c=1
check "cpuio.fio: runs, both jobs' chunks as reads (rw=write too), no bytes" [ "$c" = 1 ]
check "  burn (cpuload=100): at most one 5 ms chunk per 5 ms" most "$b" 1 5000 0
check "  quarter (cpuload=25): at most one 10 ms chunk + 30 ms sleep per 40 ms" most "$q" 1 10000 30000
c=0
minlat burn.read 5000 && minlat quarter.read 10000 && c=1
check "  each chunk at least cpuchunks long" [ "$c" = 1 ]

if [ "$have_fio" = 1 ]; then
	mkdir "$T/fio"
	(cd "$T/fio" && fio --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 --runtime=1 \
		--output-format=json --output="$T/fio/out.json" >/dev/null 2>&1)
	check "fio's own cpuio run: its chunks as reads, no bytes, no writes, as fsgauge's" \
		[ "$(json "$T/fio/out.json" "'%d %d %d' % (d['jobs'][0]['read']['total_ios'] > 0, d['jobs'][0]['read']['io_bytes'], d['jobs'][0]['write']['total_ios'])")" = "1 0 0" ]
	rm -rf "$T/fio"
else
	ok "fio's own cpuio run: # SKIP fio not installed"
fi

expect_fail "cpuio without cpuload: refused" 2 "job 'io': ioengine=cpuio needs cpuload" \
	"$FSGAUGE" io --ioengine=cpuio --runtime=1 -d "$d"
expect_fail "cpuio without a runtime: refused" 2 "job 'io': ioengine=cpuio needs a runtime" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 -d "$d"
expect_fail "cpuio from a job file without its runtime: refused" 2 "job 'burn': ioengine=cpuio needs a runtime" \
	"$FSGAUGE" io "$FX/cpuio.fio" -s runtime=0 -d "$d"
expect_fail "cpumode=qsort: refused by name" 2 "cpumode=qsort is not supported by fsgauge io" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --cpumode=qsort --runtime=1 -d "$d"
expect_fail "exit_on_io_done: refused by name" 2 "option 'exit_on_io_done' is not supported by fsgauge io" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --exit_on_io_done=1 --runtime=1 -d "$d"
expect_fail "cpuload with psync: refused" 2 "job 'io': cpuload applies to ioengine=cpuio" \
	"$FSGAUGE" io --cpuload=10 --size=64k -d "$d"
expect_fail "cpuio with filename=: refused" 2 "ioengine=cpuio with filename= \\(it has no file\\)" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --runtime=1 --filename=f -d "$d"
mkdir -p "$T/d2"
expect_fail "cpuio with two -d: refused (no file to place)" 2 \
	"^fsgauge: -d given 2 times, but the jobs have no file \\(ioengine=cpuio\\): give one -d\$" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --runtime=1 --numjobs=2 -d "$d" -d "$T/d2"
empty_dir "$d" && empty_dir "$T/d2"
checked "  nothing created in either"
expect_fail "cpuio with fadvise_hint: refused (no file to advise)" 2 \
	"ioengine=cpuio with fadvise_hint \\(it has no file\\)" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --runtime=1 --fadvise_hint=1 -d "$d"
expect_fail "cpuio with invalidate: refused (no file to drop)" 2 \
	"ioengine=cpuio with invalidate \\(it has no file\\)" \
	"$FSGAUGE" io --ioengine=cpuio --cpuload=10 --runtime=1 --invalidate=1 -d "$d"

# --- refusals ----------------------------------------------------------------------

expect_fail "ftruncate rw=read: refused (fio fails each read with EINVAL)" 2 \
	"job 'io': ioengine=ftruncate with rw=read is not supported: fio's ftruncate engine fails every read" \
	"$FSGAUGE" io --ioengine=ftruncate --rw=read --size=64k -d "$d"
expect_fail "ftruncate rw=randtrim: refused" 2 "ioengine=ftruncate with rw=randtrim is not supported" \
	"$FSGAUGE" io --ioengine=ftruncate --rw=randtrim --size=64k -d "$d"
expect_fail "ftruncate from a job file, rw=rw: refused" 2 "job 'trunc': ioengine=ftruncate with a mixed rw=" \
	"$FSGAUGE" io "$FX/rangeops.fio" --section=trunc -s rw=rw -d "$d"
expect_fail "falloc rw=randrw: refused" 2 "ioengine=falloc with a mixed rw= \\(one direction per job\\)" \
	"$FSGAUGE" io --ioengine=falloc --rw=randrw --size=64k -d "$d"
expect_fail "falloc with verify: refused" 2 "ioengine=falloc with verify" \
	"$FSGAUGE" io --ioengine=falloc --rw=write --verify=crc32c --size=64k -d "$d"
expect_fail "ftruncate with fsync: refused" 2 "ioengine=ftruncate with fsync options" \
	"$FSGAUGE" io --ioengine=ftruncate --rw=write --fsync=1 --size=64k -d "$d"
check "  nothing left in the target" empty_dir "$d"

# a file system without fallocate: ext2 (ext4's driver refuses fallocate on
# files without extents), when root can mount one
e2=""
if [ "$(id -u)" = 0 ] && command -v mkfs.ext2 >/dev/null && truncate -s 8M "$T/e2.img" &&
	mkfs.ext2 -q -F "$T/e2.img" >/dev/null 2>&1 && mkdir "$T/e2" &&
	mount -o loop "$T/e2.img" "$T/e2" 2>/dev/null; then
	e2="$T/e2"
	trap 'umount "$e2" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	expect_fail "falloc on ext2 (no fallocate): refused before the run" 2 \
		"job 'io': ioengine=falloc: the file system of '.*' does not support fallocate: Operation not supported" \
		"$FSGAUGE" io --ioengine=falloc --rw=write --size=64k -d "$e2"
	expect_fail "  falloc rw=read there: names the mode" 2 \
		"does not support fallocate with FALLOC_FL_KEEP_SIZE \\(rw=read\\)" \
		"$FSGAUGE" io --ioengine=falloc --rw=read --size=64k -d "$e2"
	check "  nothing left there" [ "$(ls -A "$e2")" = lost+found ]
else
	ok "falloc on a file system without fallocate: # SKIP cannot mount an ext2 image here"
fi

finish
