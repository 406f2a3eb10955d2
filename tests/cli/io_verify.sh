#!/bin/sh
# fsgauge io's verify read-back (docs/io.md, "Verify"): a job that writes
# with verify reads back every block it wrote, once, after its writes, in
# a phase of its own ("<group>.verify", its "<job>.verify" requests), so
# that the writes' figures do not include it; fio's report counts those
# reads as the job's reads (read.total_ios, the read line, issued rwts),
# over the read-back's own time.  Checked from the JSON and the files
# (the blocks a job wrote, counted in the kept run directory), never from
# a trace: sequential and random jobs, norandommap, bsrange, io_size past
# size, numjobs, nrfiles, a shared file, a mixed job, group_reporting,
# several targets.  A corrupted, zeroed or missing block is a verify
# error (exit 1, the first named); do_verify=0 reads nothing back;
# time_based and a runtime that ends the writes read nothing back, with a
# note, and one that ends the read-back says so; SIGINT stops it.  The
# verify options fsgauge io refuses.  With fio installed, fio's count of
# verify reads for the same jobs.
. "$(dirname "$0")/lib.sh"

d="$T/d"
mkdir "$d" "$T/cwd"
cd "$T/cwd" || exit 1
F="$FSGAUGE io -q -d $d"

# phases: "NAME:OP=OPS/BYTES ..." of the operations that move data, per phase
phases() {
	json "$T/r.json" "' '.join(p['name'] + ':' + ','.join('%s=%d/%d' % (o['name'], o['ops'], o['bytes_read'] + o['bytes_written']) for o in p['operations'] if o['name'].rsplit('.', 1)[-1] in ('read', 'write', 'verify')) for p in d['phases'])"
}
# written FILE...: how many 4 KiB blocks of the files are fsgauge's
# self-checking blocks (those the job wrote: its files start empty)
written() {
	python3 - "$@" <<'EOF'
import sys
n = 0
for f in sys.argv[1:]:
    b = open(f, 'rb').read()
    n += sum(1 for o in range(0, len(b) - 4095, 4096) if b[o:o + 8] == b'FSGVRFY1')
print(n)
EOF
}
# kept: the run directory --keep left (from stderr)
kept() {
	sed -n 's/^kept run directory: //p' "$T/err"
}

# --- a sequential write job: every block read back once, after the writes
run $F --rw=write --bs=4k --size=64k --verify=crc32c --json "$T/r.json" --output-format=normal
check "rw=write, verify: exit 0, the writes, then their read-back in a phase of its own" \
	[ "$rc/$(phases)" = "0/io:io.write=16/65536 io.verify:io.verify=16/65536" ]
check "  the write phase's metrics are the writes' alone" \
	[ "$(json "$T/r.json" "sorted(d['phases'][0]['metrics'])")" = "['write_bw', 'write_iops']" ]
check "  its write_bw is its bytes over its own time" \
	[ "$(json "$T/r.json" "abs(d['phases'][0]['metrics']['write_bw']['value'] - 64 / d['phases'][0]['seconds']) < 1e-6 * d['phases'][0]['metrics']['write_bw']['value']")" = true ]
check "  the read-back's are reads" \
	[ "$(json "$T/r.json" "sorted(d['phases'][1]['metrics'])")" = "['read_bw', 'read_iops']" ]
check "  measured whole: no warm-up, ended when done" \
	[ "$(json "$T/r.json" "(d['phases'][1]['warmup_seconds'], d['phases'][1]['end_reason'])")" = "(0.0, 'threads done')" ]
check "  do_verify recorded" [ "$(json "$T/r.json" "d['parameters']['job.io.do_verify']")" = 1 ]
check "  fio's issued rwts count the reads back" grep -q '^     issued rwts: total=16,16,0,0$' "$T/out"
check "  and its read line" grep -Eq '^  read: IOPS=.*\(64\.0KiB/[0-9]+msec\)$' "$T/out"
check "  fsgauge's VERIFY line says what was read back" \
	grep -Eq '^  VERIFY: read back and checked 16 requests, io=64\.0KiB, run=[0-9]+msec, after the writes \(in READ, not in the writes. time\)$' "$T/out"
check "  nothing left behind" empty_dir "$d"

# fio's JSON: the reads back in read, over the read-back's time; the job
# over both
run $F --rw=write --bs=4k --size=64k --verify=crc32c --json "$T/r.json" --output-format=json
cp "$T/out" "$T/fio.json"
check "fio's JSON: read has the 16 blocks read back, write the 16 writes" \
	[ "$(json "$T/fio.json" "[(j['read']['total_ios'], j['read']['io_bytes'], j['read']['clat_ns']['N'], j['write']['total_ios'], j['write']['io_bytes']) for j in d['jobs']]")" = "[(16, 65536, 16, 16, 65536)]" ]
check "  each direction's runtime its own phase's, job_runtime both" \
	[ "$(json "$T/fio.json" "[(j['read']['runtime'], j['write']['runtime'], j['job_runtime']) for j in d['jobs']]")" = \
	  "$(json "$T/r.json" "[(round(d['phases'][1]['seconds'] * 1000), round(d['phases'][0]['seconds'] * 1000), round((d['phases'][0]['seconds'] + d['phases'][1]['seconds']) * 1000))]")" ]

# --repeat: each run reads back its own writes (the results summed)
for reuse in "" --reuse; do
	run $F --rw=write --bs=4k --size=64k --verify=crc32c --repeat 2 $reuse --json "$T/r.json" \
		--output-format=normal
	check "--repeat 2 $reuse: each run's 16 blocks read back" \
		[ "$rc/$(phases)" = "0/io:io.write=32/131072 io.verify:io.verify=32/131072" ]
	check "  the text's VERIFY line has them" grep -q '^  VERIFY: read back and checked 32 requests, io=128KiB, ' "$T/out"
done

# --- random writes: each block once (the random map), read back once
run $F --rw=randwrite --bs=4k --size=64k --verify=crc32c --json "$T/r.json"
check "rw=randwrite: the 16 blocks read back once" \
	[ "$rc/$(phases)" = "0/io:io.write=16/65536 io.verify:io.verify=16/65536" ]
# a request of bs is read back as one
run $F --rw=randwrite --bs=16k --size=64k --verify=crc32c --json "$T/r.json"
check "bs=16k: 4 writes, 4 reads back of 16k" \
	[ "$rc/$(phases)" = "0/io:io.write=4/65536 io.verify:io.verify=4/65536" ]

# norandommap and io_size past size write some blocks twice, some not at
# all: each block written is read back once (its last write), the others
# not; the kept file says which were written
run $F --rw=randwrite --bs=4k --size=64k --io_size=128k --norandommap --verify=crc32c \
	--json "$T/r.json" --keep
k=$(kept)
n=$(written "$k/io.0.0")
check "norandommap, io_size=2 x size: 32 writes, each block written read back once ($n)" \
	[ "$rc/$(phases)" = "0/io:io.write=32/131072 io.verify:io.verify=$n/$((n * 4096))" ]
check "  some blocks were written twice" [ "$n" -lt 32 ]
rm -rf "$k"
run $F --rw=write --bs=4k --size=64k --io_size=128k --verify=crc32c --json "$T/r.json"
check "a sequential job writing its file twice reads each block back once" \
	[ "$rc/$(phases)" = "0/io:io.write=32/131072 io.verify:io.verify=16/65536" ]
run $F --rw=write --bs=4k --size=64k --io_size=32k --verify=crc32c --json "$T/r.json"
check "io_size below size: only the blocks written are read back" \
	[ "$rc/$(phases)" = "0/io:io.write=8/32768 io.verify:io.verify=8/32768" ]
run $F --rw=write --bs=4k --size=64k --loops=2 --verify=crc32c --json "$T/r.json"
check "loops=2: 32 writes, each block read back once after the last loop" \
	[ "$rc/$(phases)" = "0/io:io.write=32/131072 io.verify:io.verify=16/65536" ]

# bsrange: the blocks written, in runs of at most the largest size
run $F --rw=randwrite --bsrange=4k-16k --size=64k --norandommap --verify=crc32c \
	--json "$T/r.json" --keep
k=$(kept)
n=$(written "$k/io.0.0")
check "bsrange=4k-16k: every block written read back once ($n blocks)" \
	[ "$rc/$(json "$T/r.json" "d['phases'][1]['operations'][0]['bytes_read']")" = "0/$((n * 4096))" ]
check "  in requests of at most 16k" \
	[ "$(json "$T/r.json" "d['phases'][1]['operations'][0]['ops'] >= $n * 4096 // 16384")" = true ]
rm -rf "$k"

# --- clones, files, a shared file, a mixed job
run $F --rw=randwrite --bs=4k --size=64k --numjobs=2 --nrfiles=2 --verify=crc32c \
	--json "$T/r.json" --keep
k=$(kept)
n=$(written "$k"/io.*)
check "numjobs=2, nrfiles=2: each clone's files read back, $n blocks" \
	[ "$rc/$n/$(phases)" = "0/32/io:io.write=32/131072 io.verify:io.verify=32/131072" ]
rm -rf "$k"
run $F --rw=write --bs=4k --size=64k --numjobs=2 --filename=shared --offset_increment=64k \
	--verify=crc32c --json "$T/r.json"
check "two clones on one file, each its region: each reads back its own" \
	[ "$rc/$(phases)" = "0/io:io.write=32/131072 io.verify:io.verify=32/131072" ]
run $F --rw=write --bs=4k --size=64k --offset=32k --verify=crc32c --json "$T/r.json"
check "offset=32k: the region's blocks" \
	[ "$rc/$(phases)" = "0/io:io.write=16/65536 io.verify:io.verify=16/65536" ]
run $F --rw=rw --bs=4k --size=64k --verify=crc32c --json "$T/r.json" --output-format=json
cp "$T/out" "$T/fio.json"
w=$(json "$T/r.json" "[o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'io.write'][0]")
check "rw=rw: its $w writes (one pass) read back after its reads and writes" \
	[ "$rc/$(json "$T/r.json" "[o['ops'] for o in d['phases'][1]['operations'] if o['name'] == 'io.verify']")" = "0/[$w]" ]
check "  fio's read: its $((16 - w)) reads and its $w reads back" \
	[ "$(json "$T/fio.json" "d['jobs'][0]['read']['total_ios']")" = 16 ]
# randrw keeps fio's random map too: one pass reads or writes each block
# once, so every write is a block of its own, read back
run $F --rw=randrw --bs=4k --size=256k --verify=crc32c --json "$T/r.json"
w=$(json "$T/r.json" "[o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'io.write'][0]")
r=$(json "$T/r.json" "[o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'io.read'][0]")
check "randrw: one pass of the random map, $r reads and $w writes of 64 blocks, every write read back" \
	[ "$rc/$((r + w))/$(json "$T/r.json" "[o['ops'] for o in d['phases'][1]['operations'] if o['name'] == 'io.verify']")" = "0/64/[$w]" ]

# group_reporting: a writer and a reader; the writer's reads back join the
# group's reads
run $F --bs=4k --size=64k --verify=crc32c --group_reporting --name=w --rw=write --name=r \
	--rw=read --json "$T/r.json" --output-format=json
cp "$T/out" "$T/fio.json"
check "group_reporting: the reader's 16 reads and the writer's 16 reads back" \
	[ "$rc/$(phases)/$(json "$T/fio.json" "[(j['read']['total_ios'], j['write']['total_ios']) for j in d['jobs']]")" = \
	  "0/w:w.write=16/65536,r.read=16/65536 w.verify:w.verify=16/65536/[(32, 16)]" ]

# several targets: each clone's read-back in its own
mkdir "$T/d2"
run $F -d "$T/d2" --rw=write --bs=4k --size=64k --numjobs=2 --verify=crc32c --output-format=normal
check "two targets: a line per target for the read-back too" \
	[ "$rc/$(sed -n '/^Targets, group 0 read-back (io.verify):$/,/^$/p' "$T/out" | grep -c ': read: ios=16, ')" = 0/2 ]
check "  nothing left in either" empty_dir "$d" "$T/d2"

# --- do_verify=0: today's behaviour, the writes only
run $F --rw=write --bs=4k --size=64k --verify=crc32c --do_verify=0 --json "$T/r.json"
check "do_verify=0: nothing read back" [ "$rc/$(phases)" = "0/io:io.write=16/65536" ]
check "  recorded" [ "$(json "$T/r.json" "d['parameters']['job.io.do_verify']")" = 0 ]
run $F --rw=write --bs=4k --size=64k --verify=0 --do_verify=1 --json "$T/r.json"
check "do_verify without verify: nothing to check, nothing read back" \
	[ "$rc/$(phases)" = "0/io:io.write=16/65536" ]
run $F --rw=read --bs=4k --size=64k --verify=crc32c --json "$T/r.json"
check "a read job with verify: its reads are checked, no read-back" \
	[ "$rc/$(phases)" = "0/io:io.read=16/65536" ]
expect_fail "do_verify=x: refused" 2 "invalid do_verify 'x' \(expected 0 or 1\)" \
	$F --rw=write --size=64k --verify=crc32c --do_verify=x

# --- a bad block is a verify error: the first named, exit 1
run $F --rw=write --bs=4k --size=64k --verify=crc32c --json "$T/r.json" \
	--ioengine=faulty:psync:op=read,nth=3,err=corrupt
check "a block read back corrupted (the 3rd read): exit 1" [ "$rc" -eq 1 ]
check "  named with its file and offset (offset order: 8192)" \
	grep -q "^fsgauge: verify error: 'io.0.0' at offset 8192: expected checksum 0x" "$T/err"
check "  counted, the first error, the run stopped (--on-error=stop)" \
	[ "$(json "$T/r.json" "(d['status']['verify_errors'], d['status']['first_error'].startswith(\"verify 'io.0.0' at offset 8192\"), d['status']['stopped_on_error'])")" = "(1, True, True)" ]
check "  nothing left behind" empty_dir "$d"
run $F --rw=write --bs=4k --size=64k --verify=crc32c --json "$T/r.json" --on-error=continue \
	--ioengine=faulty:psync:op=read,nth=3,err=corrupt
check "--on-error=continue: exit 1, every block read back, one bad" \
	[ "$rc/$(phases)/$(json "$T/r.json" "d['status']['verify_errors']")" = "1/io:io.write=16/65536 io.verify:io.verify=16/65536/1" ]
expect_fail "a block read back as zeros (a lost write): a verify error" 1 \
	"^fsgauge: verify error: 'io.0.0' at offset 4096: expected the block written there, found zeros$" \
	$F --rw=write --bs=4k --size=64k --verify=crc32c --ioengine=faulty:psync:op=read,nth=2,err=zero
expect_fail "a block past the file's end: a verify error" 1 \
	"^fsgauge: verify error: 'io.0.0' at offset 8192: expected the block written there, found the end of the file at offset 8192$" \
	$F --rw=write --bs=4k --size=64k --verify=crc32c --ioengine=faulty:psync:op=read,nth=3,err=eof
check "  nothing left behind" empty_dir "$d"
expect_fail "the faulty engine's zero and eof are for reads" 2 \
	"err=zero applies only to op=read" \
	$F --rw=write --size=64k --ioengine=faulty:psync:op=write,nth=1,err=zero

# --- the runtime: fio's verify phase runs within its job's runtime
run $FSGAUGE io -d "$d" --rw=write --bs=4k --size=64k --verify=crc32c --time_based --runtime=0.2 \
	--json "$T/r.json"
check "time_based: exit 0, nothing read back" [ "$rc/$(json "$T/r.json" "[p['name'] for p in d['phases']]")" = "0/['io']" ]
check "  with a note" grep -q "^fsgauge io: note: job 'io': with time_based its writes take the whole runtime, so nothing is read back for verify" "$T/err"
run $FSGAUGE io -d "$d" --rw=write --bs=4k --size=64m --rate_iops=50 --runtime=0.2 \
	--verify=crc32c --json "$T/r.json"
check "a runtime that ends the writes: nothing read back" \
	[ "$rc/$(json "$T/r.json" "[(p['name'], p['end_reason']) for p in d['phases']]")" = "0/[('io', 'duration')]" ]
check "  with a note" grep -q "^fsgauge io: note: group 'io': the runtime (0.2s) ended its writes, so nothing is read back for verify" "$T/err"
# (each read back takes 50 ms more: the 16 cannot fit in what is left of 0.4 s)
run $FSGAUGE io -d "$d" --rw=write --bs=4k --size=64k --runtime=0.4 --verify=crc32c \
	--ioengine=faulty:psync:op=read,delay=50000 --json "$T/r.json"
check "a runtime that ends the read-back: exit 0, fewer than 16 read back" \
	[ "$rc/$(json "$T/r.json" "(d['phases'][1]['end_reason'], d['phases'][1]['operations'][0]['ops'] < 16)")" = "0/('duration', True)" ]
check "  said" grep -q "^fsgauge io: note: group 'io': the runtime (0.4s) ended the read-back for verify before every block written was read back and checked$" "$T/err"
check "  nothing left behind" empty_dir "$d"

# --- SIGINT during the read-back: stops, partial results, nothing left
spawn "$T/sig.out" "$T/sig.err" $FSGAUGE io -d "$d" --rw=write --bs=4k --size=64k --runtime=60 \
	--verify=crc32c --ioengine=faulty:psync:op=read,delay=200000 --json "$T/r.json"
if wait_for "$T/sig.err" "^Running io.verify for up to"; then
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	check "SIGINT in the read-back: exit 130" [ "$rc" -eq 130 ]
	check "  the result marked interrupted, the read-back ended by the signal" \
		[ "$(json "$T/r.json" "(d['status']['interrupted'], [(p['name'], p['end_reason']) for p in d['phases']])")" = "(True, [('io', 'threads done'), ('io.verify', 'signal')])" ]
	check "  nothing left behind" empty_dir "$d"
else
	kill "$pid" 2>/dev/null
	not_ok "SIGINT in the read-back: the read-back never started"
fi

# --- what fsgauge io refuses
expect_fail "verify_only: refused" 2 \
	"^fsgauge io: option 'verify_only' is not supported by fsgauge io: each run writes its files anew in its own run directory, so no earlier run's data is there to check \(docs/io.md\)$" \
	$F --rw=write --size=64k --verify=crc32c --verify_only
for o in verify_backlog verify_backlog_batch; do
	expect_fail "$o: refused" 2 \
		"^fsgauge io: option '$o' is not supported by fsgauge io: a job reads back what it wrote after all its writes \(docs/io.md\)$" \
		$F --rw=write --size=64k --verify=crc32c --$o=4
done
for o in verify_state_save verify_state_load verify_dump verify_async_cpus verify_fatal; do
	expect_fail "$o: refused" 2 "^fsgauge io: option '$o' is not supported by fsgauge io \(docs/io.md\)$" \
		$F --rw=write --size=64k --verify=crc32c --$o=1
done
# at depth on an asynchronous engine, named in io's terms (a job, verify)
for e in io_uring libaio; do
	case " $("$FSGAUGE" --version | sed -n 's/^engines: //p') " in
	*" $e "*)
		expect_fail "verify with iodepth=8 on $e: refused" 2 \
			"^fsgauge: job 'io': verify with iodepth=8 on $e is not supported by fsgauge io \(requests in flight together may read a block another is writing\); use iodepth=1 or no verify$" \
			$F --rw=write --size=64k --verify=crc32c --ioengine=$e --iodepth=8
		;;
	*) ok "verify with iodepth=8 on $e # SKIP $e not built in" ;;
	esac
done
# the written maps (a bit per 4 KiB block read back) are in the preflight
expect_fail "a read-back whose block map cannot fit in memory: refused before anything runs" 2 \
	"^fsgauge: not enough memory for the workload: .* \\+ 3276800\\.0 MiB of written-block maps \\(verify's read-back\\)\\)" \
	$F --rw=write --size=100p --verify=crc32c
check "nothing made by the refused commands" empty_dir "$d"

# --- fio's count of verify reads, for the same jobs
if ! command -v fio >/dev/null; then
	ok "the same reads back as fio # SKIP fio not installed"
	finish
	exit
fi
mkdir "$T/fio"
for job in "--rw=write" "--rw=randwrite" "--rw=randwrite --bs=16k" "--rw=write --io_size=32k" \
	"--rw=randwrite --numjobs=2" "--rw=write --nrfiles=2" "--rw=write --offset=16k" \
	"--rw=write --numjobs=2 --filename=shared --offset_increment=64k" \
	"--rw=randwrite --do_verify=0"; do
	# shellcheck disable=SC2086
	run $F --name=j --size=64k --verify=crc32c $job --output-format=json
	cp "$T/out" "$T/fs.json"
	# shellcheck disable=SC2086
	# (its warnings come before its JSON on standard output)
	fio --name=j --directory="$T/fio" --size=64k --verify=crc32c --verify_state_save=0 $job \
		--output-format=json 2>"$T/fio.err" | sed -n '/^{/,$p' >"$T/fio.json"
	counts="[sum(j['read']['total_ios'] for j in d['jobs']), sum(j['write']['total_ios'] for j in d['jobs'])]"
	check "$job: fio's reads and writes ($(json "$T/fio.json" "$counts"))" \
		[ "$rc/$(json "$T/fs.json" "$counts")" = "0/$(json "$T/fio.json" "$counts")" ]
	rm -rf "$T/fio"/*
done
finish
