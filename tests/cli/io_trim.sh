#!/bin/sh
# fio's trims on io_uring and libaio, and its trimwrite and randtrimwrite
# (issue 19, docs/io.md "Trims"), on a loop device over random data: each
# trim one BLKDISCARD ioctl, synchronous on every engine as fio 3.33's
# (traced with strace, the ranges compared with fio's own on the same
# job), the trims and writes the job asked for in fsgauge's result and in
# its fio JSON (and in fio's, when fio is installed), the discards seen by
# the device (/sys/block/loopN/stat), trimwrite's blocks read back as
# written (with verify, fsgauge's self-checking block of its offset; else
# neither the old data nor zeros), the rest of the device unchanged, and
# the faulty engine's failed trim.  The refusals first: they need no
# device.  The rest needs root and losetup, and skips without them; the
# loop device is always detached.
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
mkdir "$T/d"
F="$FSGAUGE io -d $T/d --name=j --size=1m"

# --- refused before anything is made (exit 2) ---
for rw in trimwrite randtrimwrite; do
	expect_fail "rw=$rw on a file in the run directory: refused" 2 \
		"^fsgauge: job 'j': rw=$rw needs a block device \(filename=/dev/X\): a trim discards a device's blocks" \
		$F --rw=$rw
done
expect_fail "rw=trimwrite with rate_iops: refused" 2 \
	"^fsgauge: job 'j': rate_iops with rw=trimwrite is not supported by fsgauge io: give it to a read or a write job \(docs/io.md\)" \
	$F --rw=trimwrite --rate_iops=100
expect_fail "rw=randtrimwrite with rate: refused" 2 \
	"^fsgauge: job 'j': rate with rw=randtrimwrite is not supported by fsgauge io" \
	$F --rw=randtrimwrite --rate=1m
expect_fail "rw=trimwrite with thinktime: refused" 2 \
	"^fsgauge: job 'j': thinktime with rw=trimwrite is not supported by fsgauge io: fio counts the trims and the writes in thinktime_blocks, fsgauge a trim and its write as one request \(docs/io.md\)" \
	$F --rw=trimwrite --thinktime=100
expect_fail "ioengine=falloc with rw=trimwrite: refused" 2 \
	"^fsgauge: job 'j': ioengine=falloc with a mixed rw= \(one direction per job\) is not supported by fsgauge io \(docs/io.md\)" \
	$F --rw=trimwrite --ioengine=falloc
expect_fail "ioengine=ftruncate with rw=randtrimwrite: refused" 2 \
	"^fsgauge: job 'j': ioengine=ftruncate with rw=randtrimwrite is not supported: fio's ftruncate engine fails every trim with EINVAL \(give rw=write or randwrite; docs/io.md\)" \
	$F --rw=randtrimwrite --ioengine=ftruncate
check "nothing left in the target" empty_dir "$T/d"

if [ "$(id -u)" -ne 0 ]; then
	ok "trims on a loop device: # SKIP not root"
	finish
	exit
fi
command -v losetup >/dev/null || { ok "trims on a loop device: # SKIP losetup not installed"; finish; exit; }
head -c 16777216 /dev/urandom >"$T/disk.img"
loop=""
trap '[ -n "$loop" ] && losetup -d "$loop"; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
# (a timeout's or the user's signal goes through the EXIT trap too)
trap 'exit 130' INT
trap 'exit 143' TERM
loop=$(losetup -f --show "$T/disk.img" 2>/dev/null) || loop=""
if [ -z "$loop" ] || [ "$(cat "/sys/block/${loop#/dev/}/queue/discard_max_bytes" 2>/dev/null || echo 0)" -eq 0 ]; then
	ok "trims on a loop device: # SKIP cannot set up a loop device that discards"
	finish
	exit
fi
stat="/sys/block/${loop#/dev/}/stat"
have_strace=0
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null && have_strace=1
have_fio=0
command -v fio >/dev/null && fio --cmdhelp=rw 2>/dev/null | grep -q randtrimwrite && have_fio=1
mkdir "$T/cwd"
cd "$T/cwd" || exit 1

# snap: the device's bytes before a run, in $T/before, and its discarded
# sectors so far (the 14th field of its stat: Linux 4.18 and later)
snap() {
	dd if="$loop" of="$T/before" bs=1M status=none
	dsec0=$(awk '{print $14}' "$stat")
}
# discarded SECTORS: the run discarded that many sectors on the device
discarded() {
	[ -z "$dsec0" ] || [ "$(($(awk '{print $14}' "$stat") - dsec0))" -eq "$1" ]
}
# rest OFF LEN: the device outside [OFF, OFF + LEN) is as it was before
rest() {
	cmp -s -n "$1" "$loop" "$T/before" && cmp -s -i "$(($1 + $2))" "$loop" "$T/before"
}
# blocks MODE OFF LEN: each 4 KiB block of [OFF, OFF + LEN) is, by MODE,
# zero (trimmed), new (written: neither zeros nor what was there before),
# verify (fsgauge's self-checking block of its own offset), or old (as
# before); nzero OFF LEN prints how many are zeros
blocks() {
	python3 - "$loop" "$T/before" "$@" <<'EOF'
import struct, sys
dev, ref, mode, off, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
zero = bytes(4096)
nz = 0
with open(dev, 'rb') as a, open(ref, 'rb') as b:
    a.seek(off)
    b.seek(off)
    for k in range(0, n, 4096):
        x, y = a.read(4096), b.read(4096)
        nz += x == zero
        if mode == 'zero':
            good = x == zero
        elif mode == 'new':
            good = x != zero and x != y
        elif mode == 'old':
            good = x == y
        elif mode == 'verify':
            magic, _, at = struct.unpack('<QQQ', x[:24])
            good = magic == 0x3159465256475346 and at == off + k
        else:
            good = True
        if not good:
            print('# block at %d is not %s' % (off + k, mode))
            sys.exit(1)
if mode == 'nzero':
    print(nz)
EOF
}
# trace OUT COMMAND...: COMMAND under strace when it works (its ioctl,
# write and submission calls in OUT); $rc, $T/out, $T/err as run
trace() {
	_o=$1
	shift
	: >"$_o"
	if [ "$have_strace" = 1 ]; then
		run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -e trace=ioctl,pwrite64,io_submit,io_uring_enter -o "$_o" "$@"
	else
		run "$@"
	fi
}
# calls TRACE: "T OFF LEN" per discard and "W OFF LEN" per pwrite64 of the trace, in order
calls() {
	sed -n 's/.*BLKDISCARD, \[\([0-9]*\), \([0-9]*\)\]) *= 0$/T \1 \2/p; s/.*pwrite64([0-9]*[^,]*, .*, \([0-9]*\), \([0-9]*\)) *= [0-9]*$/W \2 \1/p' "$1"
}
# ndiscards TRACE: how many BLKDISCARD ioctls it made
ndiscards() {
	grep -c 'BLKDISCARD' "$1"
}
# ops: "NAME OPS BYTES_READ BYTES_WRITTEN BYTES_TRIMMED CLASS" of the
# first phase's requests in $T/r.json
ops() {
	json "$T/r.json" "' '.join('%s %d %d %d %d %s' % (o['name'], o['ops'], o['bytes_read'], o['bytes_written'], o.get('bytes_trimmed', 0), o['class']) for o in d['phases'][0]['operations'] if o['name'].split('.')[-1] in ('read', 'write', 'trim'))"
}
# fiocounts FILE: "READS WRITES TRIMS WRITE_BYTES TRIM_BYTES" of a fio JSON, its jobs together
fiocounts() {
	json "$1" "' '.join(str(sum(j[k][f] for j in d['jobs'])) for k, f in (('read', 'total_ios'), ('write', 'total_ios'), ('trim', 'total_ios'), ('write', 'io_bytes'), ('trim', 'io_bytes')))"
}
# fio_same NAME FSGAUGE-FIO-JSON FIO-OPTIONS...: fio on the same job:
# the same counts in its JSON; its calls in $T/fio.trace
fio_same() {
	_what=$1 _ours=$2
	shift 2
	if [ "$have_fio" != 1 ]; then
		ok "$_what: the same counts as fio's JSON # SKIP fio (3.33, with randtrimwrite) not installed"
		return
	fi
	if [ "$have_strace" = 1 ]; then
		strace -f -qq -e trace=ioctl,pwrite64 -o "$T/fio.trace" \
			fio --name=j --filename="$loop" --output-format=json "$@" >"$T/fio.json" 2>"$T/fio.err"
	else
		fio --name=j --filename="$loop" --output-format=json "$@" >"$T/fio.json" 2>"$T/fio.err"
	fi
	check "$_what: the same counts as fio's JSON ($(fiocounts "$T/fio.json"))" \
		[ "$(fiocounts "$_ours")" = "$(fiocounts "$T/fio.json")" ]
}

# --- rw=trim on io_uring (fio 3.33: each trim the ioctl, none in the ring)
job="--name=j --filename=$loop --bs=64k --size=1m --offset=1m"
if case " $engines " in *" io_uring "*) true ;; *) false ;; esac then
	snap
	# shellcheck disable=SC2086
	trace "$T/t.trace" "$FSGAUGE" io $job --rw=trim --ioengine=io_uring --iodepth=8 \
		--allow-write-device --json "$T/r.json" --output-format=json
	cp "$T/out" "$T/fs.json"
	check "rw=trim, ioengine=io_uring, iodepth=8: exit 0" [ "$rc" -eq 0 ]
	check "  16 trims of 1 MiB, nothing read or written" [ "$(ops)" = "j.trim 16 0 0 1048576 other" ]
	blocks zero 1048576 1048576 && rest 1048576 1048576
	checked "  [1m, 2m) reads as zeros, the rest unchanged"
	check "  the device discarded 2048 sectors" discarded 2048
	check "  its fio JSON: the trims with clat_ns (synchronous, as fio's), no reads or writes" \
		[ "$(json "$T/fs.json" "[(j['trim']['total_ios'], j['trim']['io_bytes'], 'clat_ns' in j['trim'], j['read']['total_ios'], j['write']['total_ios']) for j in d['jobs']]")" = "[(16, 1048576, True, 0, 0)]" ]
	if [ "$have_strace" = 1 ]; then
		check "  16 BLKDISCARD ioctls, [1m + 64k i, 64k) in order" \
			[ "$(calls "$T/t.trace" | tr '\n' ' ')" = "$(i=0; while [ $i -lt 16 ]; do printf 'T %d 65536 ' $((1048576 + 65536 * i)); i=$((i + 1)); done)" ]
	else
		ok "  the ioctls # SKIP strace cannot trace here"
	fi
	# shellcheck disable=SC2086
	fio_same "  fio, rw=trim on io_uring" "$T/fs.json" --bs=64k --size=1m --offset=1m --rw=trim --ioengine=io_uring --iodepth=8
	[ "$have_fio" = 1 ] && [ "$have_strace" = 1 ] &&
		check "  and fio made the same ioctls" [ "$(calls "$T/fio.trace")" = "$(calls "$T/t.trace")" ]
else
	ok "rw=trim on io_uring # SKIP io_uring not built in"
fi

# --- rw=randtrim on libaio: each 4 KiB block of the region once (the random map)
if case " $engines " in *" libaio "*) true ;; *) false ;; esac then
	snap
	trace "$T/t.trace" "$FSGAUGE" io --name=j --filename="$loop" --bs=4k --size=1m --offset=3m \
		--rw=randtrim --ioengine=libaio --iodepth=8 --allow-write-device --json "$T/r.json" \
		--output-format=json
	cp "$T/out" "$T/fs.json"
	check "rw=randtrim, ioengine=libaio, iodepth=8: exit 0, 256 trims of 1 MiB" \
		[ "$rc/$(ops)" = "0/j.trim 256 0 0 1048576 other" ]
	blocks zero 3145728 1048576 && rest 3145728 1048576
	checked "  [3m, 4m) reads as zeros, the rest unchanged"
	check "  the device discarded 2048 sectors" discarded 2048
	if [ "$have_strace" = 1 ]; then
		check "  256 BLKDISCARD ioctls, each block of [3m, 4m) once, no io_submit" \
			[ "$(calls "$T/t.trace" | sort -u | wc -l)/$(ndiscards "$T/t.trace")/$(calls "$T/t.trace" | awk '$2 < 3145728 || $2 >= 4194304 || $3 != 4096' | wc -l)/$(grep -c io_submit "$T/t.trace")" = 256/256/0/0 ]
	else
		ok "  the ioctls # SKIP strace cannot trace here"
	fi
	fio_same "  fio, rw=randtrim on libaio" "$T/fs.json" --bs=4k --size=1m --offset=3m --rw=randtrim --ioengine=libaio --iodepth=8
	[ "$have_fio" = 1 ] && [ "$have_strace" = 1 ] &&
		check "  and fio discarded the same blocks" [ "$(calls "$T/fio.trace" | sort)" = "$(calls "$T/t.trace" | sort)" ]
	# faulty:libaio passes trims through and fails the one its rule picks
	snap
	run "$FSGAUGE" io --name=j --filename="$loop" --bs=4k --size=1m --offset=4m --rw=randtrim \
		--ioengine=faulty:libaio:op=trim,nth=5,err=EIO --iodepth=8 --allow-write-device -q
	[ "$rc" -eq 1 ] && grep -q "trim '$loop': Input/output error" "$T/err"
	checked "faulty:libaio, EIO on the 5th randtrim: exit 1, the trim named"
	[ "$(blocks nzero 4194304 1048576)" = 4 ] && rest 4194304 1048576
	checked "  4 blocks of [4m, 5m) trimmed before it, nothing else"
else
	ok "rw=randtrim on libaio # SKIP libaio not built in"
fi

# --- rw=trimwrite on psync with verify: trim, then write, block by block
snap
trace "$T/t.trace" "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=5m \
	--rw=trimwrite --verify=crc32c --allow-write-device --json "$T/r.json"
cp "$T/out" "$T/text"
check "rw=trimwrite, psync, verify: exit 0, 16 trims and 16 writes of 1 MiB each" \
	[ "$rc/$(ops)" = "0/j.trim 16 0 0 1048576 other j.write 16 0 1048576 0 write" ]
check "  fio's issued rwts: 16 writes, 16 trims, and the 16 blocks read back (verify)" \
	grep -q '^     issued rwts: total=16,16,16,0$' "$T/text"
check "  the read-back phase read each written block once, 1 MiB" \
	[ "$(json "$T/r.json" "[(p['name'], o['ops'], o['bytes_read']) for p in d['phases'][1:] for o in p['operations'] if o['name'] == 'j.verify']")" = "[('j.verify', 16, 1048576)]" ]
grep -Eq '^  write: IOPS=' "$T/text" && grep -Eq '^  trim: IOPS=' "$T/text"
checked "  fio's write and trim lines"
check "  the trim and write metrics" \
	[ "$(json "$T/r.json" "sorted(d['phases'][0]['metrics'])")" = "['trim_bw', 'trim_iops', 'write_bw', 'write_iops']" ]
blocks verify 5242880 1048576 && rest 5242880 1048576
checked "  every block of [5m, 6m) reads back as fsgauge's block of its offset, the rest unchanged"
check "  the device discarded 2048 sectors" discarded 2048
if [ "$have_strace" = 1 ]; then
	check "  each block's BLKDISCARD, then its pwrite64, in order" \
		[ "$(calls "$T/t.trace" | tr '\n' ' ')" = "$(i=0; while [ $i -lt 16 ]; do o=$((5242880 + 65536 * i)); printf 'T %d 65536 W %d 65536 ' $o $o; i=$((i + 1)); done)" ]
else
	ok "  the calls # SKIP strace cannot trace here"
fi
run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=5m --rw=read \
	--verify=crc32c --json "$T/v.json" -q
check "  a read job with verify checks the 16 blocks: exit 0" \
	[ "$rc/$(json "$T/v.json" "[o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'j.read']")" = "0/[16]" ]
run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=5m --rw=trimwrite \
	--verify=crc32c --allow-write-device --output-format=json -q
cp "$T/out" "$T/fsv.json"
fio_same "  fio, rw=trimwrite with verify (its 16 verify reads too)" "$T/fsv.json" --bs=64k --size=1m \
	--offset=5m --rw=trimwrite --verify=crc32c --verify_state_save=0
run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=5m --rw=trimwrite \
	--allow-write-device --output-format=json -q
cp "$T/out" "$T/fs.json"
fio_same "  fio, rw=trimwrite on psync" "$T/fs.json" --bs=64k --size=1m --offset=5m --rw=trimwrite
[ "$have_fio" = 1 ] && [ "$have_strace" = 1 ] &&
	check "  and fio made the same calls in the same order" [ "$(calls "$T/fio.trace")" = "$(calls "$T/t.trace")" ]

# --- randtrimwrite on io_uring at depth 4 with O_DIRECT: each trim with
# writes in flight; at the device's start (fio 3.33's randtrimwrite with
# an offset above 0 ends after one trim: docs/fio-compat.md)
if case " $engines " in *" io_uring "*) true ;; *) false ;; esac then
	snap
	trace "$T/t.trace" "$FSGAUGE" io --name=j --filename="$loop" --bs=4k --size=1m \
		--rw=randtrimwrite --ioengine=io_uring --iodepth=4 --direct=1 --allow-write-device \
		--json "$T/r.json" --output-format=json
	cp "$T/out" "$T/fs.json"
	check "rw=randtrimwrite, io_uring, iodepth=4, direct: exit 0, 256 trims and 256 writes" \
		[ "$rc/$(ops)" = "0/j.trim 256 0 0 1048576 other j.write 256 0 1048576 0 write" ]
	blocks new 0 1048576 && rest 0 1048576
	checked "  every block of [0, 1m) written after its trim (new data), the rest unchanged"
	check "  the device discarded 2048 sectors" discarded 2048
	check "  the writes were in flight together (a depth above 1 in the result)" \
		[ "$(json "$T/r.json" "[o['iodepth']['max'] > 1 for o in d['phases'][0]['operations'] if o['name'] == 'j.write']")" = "[True]" ]
	if [ "$have_strace" = 1 ]; then
		check "  256 BLKDISCARD ioctls, each block of [0, 1m) once" \
			[ "$(calls "$T/t.trace" | sort -u | wc -l)/$(calls "$T/t.trace" | awk '$2 >= 1048576 || $3 != 4096' | wc -l)" = 256/0 ]
	else
		ok "  the ioctls # SKIP strace cannot trace here"
	fi
	fio_same "  fio, rw=randtrimwrite on io_uring" "$T/fs.json" --bs=4k --size=1m --rw=randtrimwrite --ioengine=io_uring --iodepth=4 --direct=1
	# faulty:io_uring passes them through: the 3rd trim fails, the two pairs before it are done
	snap
	run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=9m --rw=trimwrite \
		--ioengine=faulty:io_uring:op=trim,nth=3,err=EIO --iodepth=4 --allow-write-device \
		--json "$T/r.json" -q
	[ "$rc" -eq 1 ] && grep -q "trim '$loop': Input/output error" "$T/err"
	checked "faulty:io_uring, EIO on the 3rd trim of a trimwrite: exit 1, the trim named"
	blocks new 9437184 131072 && rest 9437184 131072
	checked "  two pairs done: [9m, 9m+128k) written, nothing after it"
	check "  3 trims counted (one failed) and 2 writes" \
		[ "$(json "$T/r.json" "[(o['name'], o['ops'], o['errors']) for o in d['phases'][0]['operations'] if o['name'] in ('j.trim', 'j.write')]")" = "[('j.trim', 3, 1), ('j.write', 2, 0)]" ]
else
	ok "rw=randtrimwrite on io_uring # SKIP io_uring not built in"
fi

# --- trimwrite on libaio, two clones in their own regions, batches of 2
if case " $engines " in *" libaio "*) true ;; *) false ;; esac then
	snap
	run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=11m \
		--offset_increment=1m --numjobs=2 --rw=trimwrite --ioengine=libaio --iodepth=4 \
		--iodepth_batch=2 --allow-write-device --json "$T/r.json" --output-format=json -q
	cp "$T/out" "$T/fs.json"
	check "rw=trimwrite, libaio, 2 clones, iodepth=4, batches of 2: exit 0, 32 trims and 32 writes" \
		[ "$rc/$(ops)" = "0/j.trim 32 0 0 2097152 other j.write 32 0 2097152 0 write" ]
	blocks new 11534336 2097152 && rest 11534336 2097152
	checked "  [11m, 13m) written after its trims, the rest unchanged"
	check "  the device discarded 4096 sectors" discarded 4096
	fio_same "  fio, 2 clones on libaio" "$T/fs.json" --bs=64k --size=1m --offset=11m --offset_increment=1m --numjobs=2 --rw=trimwrite --ioengine=libaio --iodepth=4 --iodepth_batch=2
else
	ok "rw=trimwrite on libaio # SKIP libaio not built in"
fi

# --- trimwrite's syncs: end_fsync once at the end (as fio); fsync=N refused
run "$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --offset=13m --rw=trimwrite \
	--end_fsync=1 --allow-write-device --json "$T/r.json" -q
check "rw=trimwrite with end_fsync: exit 0, one fsync" \
	[ "$rc/$(json "$T/r.json" "[o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'j.fsync']")" = "0/[1]" ]
snap
for o in fsync fdatasync; do
	expect_fail "rw=randtrimwrite with $o=2: refused" 2 \
		"^fsgauge: job 'j': rw=randtrimwrite with $o is not supported by fsgauge io: fio syncs no trimwrite job every N writes \(end_fsync and fsync_on_close sync once at the end; docs/io.md\)" \
		"$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --rw=randtrimwrite --$o=2 --allow-write-device
done
for rw in trimwrite randtrimwrite; do
	expect_fail "rw=$rw on the device without --allow-write-device: refused" 2 \
		"refusing to write to block device '$loop'.*--allow-write-device" \
		"$FSGAUGE" io --name=j --filename="$loop" --bs=64k --size=1m --rw=$rw
done
check "  the device is unchanged" rest 0 0
check "nothing was created in the current directory" empty_dir "$T/cwd"
cd / || exit 1
finish
