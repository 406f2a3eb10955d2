#!/bin/sh
# fsgauge io (issue 19): fio's options on the fsgauge engine.  Requests
# and bytes as fio counts them (size/bs per clone, io_size, loops,
# numjobs), fio's units and kb_base, the command line's jobs (--name,
# stonewall), the queue depth reached on io_uring and libaio, block
# sizes from bsrange/bssplit by their mean, files left behind (none),
# every usage error with its message and exit 2, and fio's report.
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
d="$T/target"
mkdir "$d"

# ops NAME: "OPS BYTES" of operation NAME in phase 0 of $T/j.json
ops() {
	json "$T/j.json" "' '.join('%d %d' % (o['ops'], o['bytes_read'] + o['bytes_written']) for o in d['phases'][0]['operations'] if o['name'] == '$1')"
}

run "$FSGAUGE" io --rw=randread --bs=4k --size=1m -d "$d" -q --json "$T/j.json"
check "randread 1m at 4k: exit 0" [ "$rc" -eq 0 ]
check "  256 reads of 4 KiB" [ "$(ops io.read)" = "256 1048576" ]
check "  fio's read line" grep -Eq '^  read: IOPS=[0-9.]+[kM]?, BW=' "$T/out"
check "  fio's group line" grep -Eq '^   READ: bw=.*io=1024KiB \(1049kB\)' "$T/out"
check "  the percentiles" grep -q '99.90th=\[' "$T/out"
check "  the result says suite io" [ "$(json "$T/j.json" "d['suite']")" = io ]
check "  the metrics" [ "$(json "$T/j.json" "sorted(d['phases'][0]['metrics'])")" = "['read_bw', 'read_iops']" ]
check "  nothing left in the target" empty_dir "$d"

run "$FSGAUGE" io --rw=write --bs=64k --size=2m --numjobs=3 -d "$d" -q --json "$T/j.json"
check "write 2m at 64k, numjobs=3: exit 0" [ "$rc" -eq 0 ]
check "  96 writes, 6 MiB: each clone its size" [ "$(ops io.write)" = "96 6291456" ]
check "  fio's jobs count" grep -q '^io: (groupid=0, jobs=3)' "$T/out"
check "  nothing left" empty_dir "$d"

run "$FSGAUGE" io --rw=read --bs 8k --size=1m --io_size=256k --loops=3 -d "$d" -q --json "$T/j.json"
check "io_size=256k loops=3: 96 reads of 8 KiB ('--bs 8k' spelling too)" [ "$(ops io.read)" = "96 786432" ]

# fio's units: with kb_base=1024 (its default) k is 1024 and, for old
# scripts, KiB is 1000; kb_base=1000 turns both round
run "$FSGAUGE" io --rw=write --bs=1KiB --size=100KiB -d "$d" -q --json "$T/j.json"
check "kb_base 1024: KiB is 1000 (fio's compatibility rule)" [ "$(ops io.write)" = "100 100000" ]
run "$FSGAUGE" io --kb_base=1000 --rw=write --bs=1k --size=100k -d "$d" -q --json "$T/j.json"
check "kb_base 1000: k is 1000" [ "$(ops io.write)" = "100 100000" ]
run "$FSGAUGE" io --kb_base=1000 --rw=write --bs=1KiB --size=4KiB -d "$d" -q --json "$T/j.json"
check "kb_base 1000: KiB is 1024" [ "$(ops io.write)" = "4 4096" ]

# jobs: the options before --name are every job's; stonewall makes a group
run "$FSGAUGE" io --bs=4k --size=256k --name=a --rw=read --name=b --rw=write --bs=16k \
	-d "$d" -q --json "$T/j.json"
check "two jobs together: exit 0" [ "$rc" -eq 0 ]
check "  one phase, a's reads and b's writes" \
	[ "$(json "$T/j.json" "len(d['phases'])") $(ops a.read) $(ops b.write)" = "1 64 262144 16 262144" ]
check "  a block per job" [ "$(grep -c '^[ab]: (groupid=0, jobs=1)' "$T/out")" = 2 ]
run "$FSGAUGE" io --bs=4k --size=256k --name=a --rw=read --name=b --rw=write --stonewall \
	--group_reporting -d "$d" -q --json "$T/j.json"
check "stonewall: two phases (groups)" [ "$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "['a', 'b']" ]
check "  two run status groups" [ "$(grep -c '^Run status group' "$T/out")" = 2 ]

# wait_for=JOB: a group boundary when only JOB's group runs before it;
# jobs after it that wait too share its group
run "$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --name=b --rw=write --wait_for=a \
	--name=c --rw=read --wait_for=a -d "$d" -q --json "$T/j.json"
check "wait_for: [a][b,c wait_for=a] runs as two phases" \
	[ "$rc/$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "0/['a', 'b']" ]
check "  c runs with b" [ "$(json "$T/j.json" "sorted(o['name'] for o in d['phases'][1]['operations'] if o['name'].endswith(('.read', '.write')))")" = "['b.write', 'c.read']" ]
run "$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --name=b --rw=write --stonewall \
	--name=c --rw=read --wait_for=a -d "$d" -q --json "$T/j.json"
check "wait_for a job of an earlier group: met, c runs beside b" \
	[ "$rc/$(json "$T/j.json" "[sorted(o['name'] for o in p['operations'] if o['name'].endswith(('.read', '.write'))) for p in d['phases']]")" = "0/[['a.read'], ['b.write', 'c.read']]" ]
expect_fail "wait_for while another job runs beside the one waited for: exit 2" 2 \
	"job 'b': wait_for='a' while 'x' runs beside 'a' is not supported" \
	"$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --name=x --rw=read \
	--name=b --rw=write --wait_for=a -d "$d" -q
expect_fail "a job without wait_for after one with it: exit 2" 2 \
	"job 'c' would run beside 'a' in fio \\(it has no wait_for or stonewall\\), but comes after 'b'" \
	"$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --name=b --rw=write --wait_for=a \
	--name=c --rw=read -d "$d" -q
expect_fail "wait_for naming no earlier job: exit 2" 2 "job 'a': wait_for='zz' names no job before it" \
	"$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --wait_for=zz -d "$d" -q
expect_fail "wait_for naming a later job: exit 2" 2 "job 'a': wait_for='b' names no job before it" \
	"$FSGAUGE" io --bs=4k --size=64k --name=a --rw=read --wait_for=b --name=b --rw=write -d "$d" -q

# block sizes drawn: the bytes per request average the split's mean
run "$FSGAUGE" io --rw=randread --bssplit=4k/50:64k/50 --size=8m --io_size=64m -d "$d" -q \
	--json "$T/j.json" --seed 7
check "bssplit 4k/50:64k/50: mean request within 10% of 34 KiB" \
	[ "$(json "$T/j.json" "all(abs(o['bytes_read'] / o['ops'] - 34816) < 3482 for o in d['phases'][0]['operations'] if o['name'] == 'io.read')")" = true ]
run "$FSGAUGE" io --rw=randread --bsrange=4k-16k --size=8m --io_size=32m -d "$d" -q \
	--json "$T/j.json" --seed 7
check "bsrange 4k-16k: mean within 10% of 10 KiB" \
	[ "$(json "$T/j.json" "all(abs(o['bytes_read'] / o['ops'] - 10240) < 1024 for o in d['phases'][0]['operations'] if o['name'] == 'io.read')")" = true ]

# random offsets: fio's random map (each block once per pass) unless
# norandommap; seen in the blocks a sparse file ends up with
kb_of() { du -k "$d"/fsgauge-*/io.0.0 | cut -f1; }
run "$FSGAUGE" io --rw=randwrite --size=1m -d "$d" -q --keep
check "randwrite with the random map: every block written (1024 KiB allocated)" [ "$(kb_of)" = 1024 ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=randwrite --size=1m --norandommap -d "$d" -q --keep
check "norandommap: blocks repeat, holes remain" [ "$(kb_of)" -lt 1024 ]
rm -rf "$d"/fsgauge-*
# a size that is no multiple of the block: a pass is the whole blocks that
# fit, as fio's (36 KiB in 8 KiB writes: 4, and the file stays at 32 KiB)
run "$FSGAUGE" io --rw=write --bs=8k --size=36k -d "$d" -q --json "$T/j.json" --keep
check "size=36k, bs=8k: 4 writes, none past the end" \
	[ "$rc/$(ops io.write)/$(du -k --apparent-size "$d"/fsgauge-*/io.0.0 | cut -f1)" = "0/4 32768/32" ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=randwrite --bs=8k --size=36k --loops=2 -d "$d" -q --json "$T/j.json"
check "  randwrite, loops=2: 8" [ "$rc/$(ops io.write)" = "0/8 65536" ]
run "$FSGAUGE" io --rw=write --bs=8k --size=36k --io_size=72k -d "$d" -q --json "$T/j.json"
check "  io_size=72k: its 9 writes, as fio's" [ "$rc/$(ops io.write)" = "0/9 73728" ]
run "$FSGAUGE" io --rw=randread --size=1m --random_distribution=zipf:1.2 -d "$d" -q --json "$T/j.json"
check "random_distribution=zipf:1.2: runs its 256 reads" [ "$(ops io.read)" = "256 1048576" ]
run "$FSGAUGE" io --rw=randread --size=1m --percentage_random=50 -d "$d" -q --json "$T/j.json"
check "percentage_random=50: runs its 256 reads" [ "$(ops io.read)" = "256 1048576" ]

# queue depth on the asynchronous engines
for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP $eng: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" io --rw=randread --bs=4k --size=4m --ioengine=$eng --iodepth=32 -d "$d" \
		--json "$T/j.json"
	[ "$rc" -eq 0 ] && [ "$(ops io.read)" = "1024 4194304" ]
	checked "$eng iodepth=32: exit 0, 1024 reads"
	check "  32 in flight at most, reached" \
		[ "$(json "$T/j.json" "[o['iodepth']['max'] for o in d['phases'][0]['operations'] if o['name'] == 'io.read']")" = "[32]" ]
	check "  fio's IO depths line shows depth 32" grep -Eq 'IO depths +:.* 32=[1-9]' "$T/out"
	check "  no note" sh -c "! grep -q note: '$T/err'"
done
run "$FSGAUGE" io --rw=randread --bs=4k --size=1m --ioengine=sync --iodepth=8 -d "$d"
check "sync engine, iodepth=8: a note" grep -q "note: job 'io': ioengine sync completes each request before the next: iodepth=8 keeps 1 in flight" "$T/err"

run "$FSGAUGE" io --rw=read --bs=4k --size=64m --runtime=1 --time_based --ioengine=null -q \
	--json "$T/j.json"
check "time_based on the null engine: ended by the runtime" \
	[ "$(json "$T/j.json" "d['phases'][0]['end_reason']")" = duration ]

run "$FSGAUGE" io --rw=write --bs=4k --size=64k -d "$d" -q --repeat 2 --json "$T/j.json"
check "--repeat 2: two runs recorded" [ "$(json "$T/j.json" "len(d['phases'][0]['repeats'])")" = 2 ]

# an injected I/O error: exit 1, the error named, nothing left
run "$FSGAUGE" io --rw=write --bs=4k --size=1m --ioengine=faulty:psync:op=write,nth=5,err=EIO \
	-d "$d" -q
check "faulty engine, EIO on a write: exit 1" [ "$rc" -eq 1 ]
check "  the error in the report" grep -q "NOTE: 1 operation errors; first: .*Input/output error" "$T/out"
check "  nothing left" empty_dir "$d"

# mixed modes: rwmixread percent of the requests read, the rest write;
# together they move size (or io_size) bytes, counted as io.read and
# io.write, and fio's report has both lines
run "$FSGAUGE" io --rw=randrw --rwmixread=70 --size=4m -d "$d" -q --json "$T/j.json" --seed 3
check "randrw rwmixread=70: exit 0" [ "$rc" -eq 0 ]
check "  reads and writes add up to 1024 requests, 4 MiB" \
	[ "$(json "$T/j.json" "sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] in ('io.read', 'io.write'))")" = 1024 ]
check "  reads about 70% of them (60-80%)" \
	[ "$(json "$T/j.json" "0.6 < sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'io.read') / 1024 < 0.8")" = true ]
check "  only reads read, only writes write" \
	[ "$(json "$T/j.json" "all((o['bytes_written'] == 0) if o['name'] == 'io.read' else (o['bytes_read'] == 0) for o in d['phases'][0]['operations'] if o['name'] in ('io.read', 'io.write'))")" = true ]
check "  fio's read and write lines" grep -Eq '^  write: IOPS=' "$T/out"
check "  the read line too" grep -Eq '^  read: IOPS=' "$T/out"
check "  rwmixread recorded" [ "$(json "$T/j.json" "d['parameters']['job.io.rwmixread']")" = 70 ]
check "  nothing left" empty_dir "$d"
run "$FSGAUGE" io --rw=readwrite --rwmixread=10 --rwmixwrite=100 --bs=8k --size=1m -d "$d" -q \
	--json "$T/j.json"
check "rw=readwrite, rwmixwrite=100 (the later option wins): 128 writes, no reads" \
	[ "$(ops io.write) $(json "$T/j.json" "sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] == 'io.read')")" = "128 1048576 0" ]
case " $engines " in *" io_uring "*)
	run "$FSGAUGE" io --rw=randrw --ioengine=io_uring --iodepth=8 --size=2m -d "$d" -q \
		--json "$T/j.json"
	check "randrw at iodepth=8 on io_uring: 512 requests in all" \
		[ "$(json "$T/j.json" "sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] in ('io.read', 'io.write'))")" = 512 ]
	;;
*) ok "# SKIP randrw at iodepth=8: io_uring not built in" ;;
esac

# fio's JSON (--output-format): the fields fio's consumers read
# (docs/fio-compat.md), agreeing with fsgauge's own result
run "$FSGAUGE" io --rw=randrw --size=1m --name=m --output-format=json+ -d "$d" --json "$T/j.json"
check "--output-format=json+: exit 0, standard output parses" \
	[ "$rc" -eq 0 -a "$(json "$T/out" "d['jobs'][0]['jobname']")" = m ]
check "  reads and writes as fsgauge counted them" \
	[ "$(json "$T/out" "d['jobs'][0]['read']['total_ios'] + d['jobs'][0]['write']['total_ios']")" = 256 ]
check "  io_bytes of both: 1 MiB" \
	[ "$(json "$T/out" "d['jobs'][0]['read']['io_bytes'] + d['jobs'][0]['write']['io_bytes']")" = 1048576 ]
check "  lat_ns N = total_ios, percentiles and bins in clat_ns (psync)" \
	[ "$(json "$T/out" "[j['read']['lat_ns']['N'] == j['read']['total_ios'] and sum(j['read']['clat_ns']['bins'].values()) == j['read']['total_ios'] and '99.000000' in j['read']['clat_ns']['percentile'] for j in d['jobs']]")" = "[True]" ]
check "  options before --name are global options; unmeasured fields are absent" \
	[ "$(json "$T/out" "(d['global options'], d['jobs'][0]['job options'], 'slat_ns' in d['jobs'][0]['read'], 'bw_min' in d['jobs'][0]['read'])")" = "({'rw': 'randrw', 'size': '1m'}, {}, False, False)" ]
run "$FSGAUGE" io --rw=read --size=1m --output-format=normal,json --output "$T/fio.out" -d "$d"
[ "$rc" -eq 0 -a ! -s "$T/out" ] && grep -q '^Run status group 0' "$T/fio.out" && grep -q '"fio version"' "$T/fio.out"
checked "--output FILE: normal then json in the file, nothing on stdout"
expect_fail "bad --output-format" 2 "invalid --output-format 'xml' \(expected normal, json, json\+ or terse\)" \
	$FSGAUGE io --size=1m --output-format=json,xml -d "$d"
expect_fail "fio JSON and --json - on stdout" 2 \
	"--json - and --output-format=json both write to standard output" \
	$FSGAUGE io --size=1m --output-format=json --json - -d "$d"
# fio's fsync=N, fdatasync=N: a sync before the request that follows
# every Nth write, none after the last (floor((writes - 1) / N) in a
# write job; tests/cli/io_fsync.sh has the rule's cases, against fio's);
# end_fsync, fsync_on_close: one more per file at the end; read-only
# jobs: none
run "$FSGAUGE" io --rw=write --bs=4k --size=100k --fsync=10 -d "$d" -q --json "$T/j.json"
check "fsync=10 over 25 writes: exit 0" [ "$rc" -eq 0 ]
check "  25 writes, 2 fsyncs" [ "$(ops io.write) $(ops io.fsync)" = "25 102400 2 0" ]
check "  fio's sync lines" grep -Eq '^    sync \((nsec|usec|msec)\): min=' "$T/out"
check "  fio's issued rwts counts the syncs" grep -q '^     issued rwts: total=0,25,0,2$' "$T/out"
check "  nothing left" empty_dir "$d"
run "$FSGAUGE" io --rw=randwrite --bs=4k --size=64k --fsync=1 --numjobs=2 -d "$d" -q --json "$T/j.json"
check "fsync=1, 2 clones: an fsync between writes, 15 a clone" \
	[ "$(ops io.write) $(ops io.fsync)" = "32 131072 30 0" ]
check "  fio's sync header" grep -q '^  fsync/fdatasync/sync_file_range:$' "$T/out"
run "$FSGAUGE" io --rw=write --bs=4k --size=100k --fdatasync=7 -d "$d" -q --json "$T/j.json"
check "fdatasync=7 over 25 writes: 3 fdatasyncs, no fsync" \
	[ "$(ops io.write) $(ops io.fdatasync)/$(ops io.fsync)" = "25 102400 3 0/" ]
run "$FSGAUGE" io --rw=write --bs=4k --size=64k --numjobs=3 --end_fsync=1 -d "$d" -q --json "$T/j.json"
check "end_fsync=1, 3 clones: one fsync per file" [ "$(ops io.fsync)" = "3 0" ]
run "$FSGAUGE" io --rw=write --bs=4k --size=64k --fsync_on_close=1 -d "$d" -q --json "$T/j.json"
check "fsync_on_close=1: one fsync for the file" [ "$(ops io.fsync)" = "1 0" ]
run "$FSGAUGE" io --rw=write --bs=4k --size=100k --fsync=3 --end_fsync=1 -d "$d" -q --json "$T/j.json"
check "fsync=3 and end_fsync over 25 writes: 8 + 1" [ "$(ops io.fsync)" = "9 0" ]
run "$FSGAUGE" io --rw=write --bs=4k --size=64k --fsync=4 --ioengine=null --time_based --runtime=0.3 \
	-d "$d" -q --json "$T/j.json"
w=$(ops io.write | cut -d' ' -f1) s=$(ops io.fsync | cut -d' ' -f1)
check "time_based, fsync=4: floor((writes - 1) / 4) fsyncs, or writes / 4 when the stop came after one" \
	[ "$s" -ge $(((w - 1) / 4)) -a "$s" -le $((w / 4)) ]
# at depth: the writes in flight complete before each sync, the count is the same
# (floor(255 / 10) + 1)
for eng in io_uring libaio; do
	case " $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP fsync at depth on $eng: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" io --rw=randwrite --bs=4k --size=1m --fsync=10 --end_fsync=1 --ioengine=$eng \
		--iodepth=8 -d "$d" -q --json "$T/j.json"
	check "$eng iodepth=8, fsync=10, end_fsync over 256 writes: 25 + 1 fsyncs" \
		[ "$rc/$(ops io.write)/$(ops io.fsync)" = "0/256 1048576/26 0" ]
done
# mixed jobs: fsync=N counts the job's writes only, sync and at depth; a
# read after the sync makes it due again before the next request while
# no write came: floor((writes - 1) / 4) at least, at most that + reads
for eng in psync io_uring libaio; do
	case " psync $engines " in
	*" $eng "*) ;;
	*)
		ok "# SKIP mixed fsync on $eng: not built in"
		continue
		;;
	esac
	run "$FSGAUGE" io --rw=randrw --bs=4k --size=1m --fsync=4 --end_fsync=1 --ioengine=$eng \
		--iodepth=8 -d "$d" -q --json "$T/j.json"
	w=$(ops io.write | cut -d' ' -f1) r=$(ops io.read | cut -d' ' -f1) s=$(ops io.fsync | cut -d' ' -f1)
	check "$eng randrw, fsync=4, end_fsync: floor((writes - 1) / 4) + 1 fsyncs, at most reads more" \
		[ "$rc" = 0 -a "$w" -gt 0 -a "$s" -ge $(((w - 1) / 4 + 1)) -a "$s" -le $(((w - 1) / 4 + 1 + r)) ]
done
run "$FSGAUGE" io --rw=read --bs=4k --size=64k --fsync=1 --end_fsync=1 -d "$d" -q --json "$T/j.json"
check "read-only job with fsync=1, end_fsync=1: no fsync, as fio" \
	[ "$rc/$(ops io.read)/$(ops io.fsync)" = "0/16 65536/" ]
check "  and no sync lines" [ "$(grep -c 'fsync/fdatasync' "$T/out")" = 0 ]
run "$FSGAUGE" io --rw=write --bs=4k --size=100k --fdatasync=5 \
	--ioengine=faulty:psync:op=fdatasync,nth=2,err=EIO -d "$d" -q
check "faulty engine, EIO on the 2nd fdatasync: exit 1" [ "$rc" -eq 1 ]
check "  the error named" grep -q "flowop 'io.fdatasync': fdatasync 'io.0.0': Input/output error" "$T/err"
check "  nothing left" empty_dir "$d"

# offset=, offset_increment=: each clone works in [base, base + size)
# of its file, base = offset (or P% of the file, aligned down to the
# block size) + clone * offset_increment; the file holds the region.
# Written files show it in their layout (size, first data, holes,
# allocation); reads in their system calls (strace, when there)
layout() {
	python3 - "$1" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
st = os.fstat(fd)
data = os.lseek(fd, 0, os.SEEK_DATA)
hole = os.lseek(fd, data, os.SEEK_HOLE)
try:
    more = os.lseek(fd, hole, os.SEEK_DATA)
except OSError:
    more = -1
print(st.st_size, data, hole, more, st.st_blocks * 512 // 1024)
PY
}
run "$FSGAUGE" io --rw=write --bs=4k --size=64k --offset=1m -d "$d" -q --keep --json "$T/j.json"
check "offset=1m, write 64k: exit 0, 16 writes" [ "$rc/$(ops io.write)" = "0/16 65536" ]
check "  the file: 1m + 64k, data only from 1m on" \
	[ "$(layout "$d"/fsgauge-*/io.0.0)" = "1114112 1048576 1114112 -1 64" ]
check "  offset recorded" [ "$(json "$T/j.json" "d['parameters']['job.io.offset']")" = 1048576 ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=randwrite --bs=4k --size=64k --offset=50% -d "$d" -q --keep --json "$T/j.json"
check "offset=50% of 64k, randwrite: every block of [32k, 96k) once" \
	[ "$rc/$(layout "$d"/fsgauge-*/io.0.0)" = "0/98304 32768 98304 -1 64" ]
check "  recorded as 50%" [ "$(json "$T/j.json" "d['parameters']['job.io.offset']")" = 50% ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=randwrite --bsrange=4k-8k --size=62k --offset=10% -d "$d" -q --keep
lay=$(layout "$d"/fsgauge-*/io.0.0)
check "offset=10% of 62k: aligned down to the smallest block (4k): data from 4k, none past 4k + 62k" \
	[ "$rc/$(echo "$lay" | cut -d' ' -f2)" = "0/4096" -a "$(echo "$lay" | cut -d' ' -f1)" -le 67584 ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=randwrite --bs=4k --size=64k --numjobs=2 --offset_increment=128k \
	--filename=shared -d "$d" -q --keep --json "$T/j.json"
check "two clones on one file, offset_increment=128k: [0, 64k) and [128k, 192k), a hole between" \
	[ "$rc/$(layout "$d"/fsgauge-*/shared)" = "0/196608 0 65536 131072 128" ]
check "  32 writes" [ "$(ops io.write)" = "32 131072" ]
rm -rf "$d"/fsgauge-*
run "$FSGAUGE" io --rw=write --bs=4k --nrfiles=2 --size=64k --offset=16k -d "$d" -q --keep
check "nrfiles=2, offset=16k: each file 16k + 32k, data from 16k" \
	[ "$rc/$(layout "$d"/fsgauge-*/io.0.0 | cut -d' ' -f1,2)/$(layout "$d"/fsgauge-*/io.0.1 | cut -d' ' -f1,2)" = "0/49152 16384/49152 16384" ]
rm -rf "$d"/fsgauge-*
printf '[w]\nrw=write\nbs=8k\nsize=64k\noffset=256k\n' > "$T/off.fio"
run "$FSGAUGE" io "$T/off.fio" -d "$d" -q --keep
check "job file: offset=256k" [ "$rc/$(layout "$d"/fsgauge-*/w.0.0 | cut -d' ' -f1,2)" = "0/327680 262144" ]
rm -rf "$d"/fsgauge-*
# LeakSanitizer cannot run under ptrace: a sanitized build is traced
# without it (ASAN_OPTIONS is ignored by other builds)
nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if command -v strace >/dev/null 2>&1; then
	for rw in read randread; do
		rm -f "$T"/st.*
		run env "$nolsan" strace -ff -qq -e trace=pread64 -o "$T/st" "$FSGAUGE" io --rw=$rw --bs=4k --size=64k \
			--numjobs=2 --offset=16k --offset_increment=64k --filename=shared -d "$d" -q
		# each thread's 4 KiB reads: "COUNT MIN MAX" per thread that read
		regions=$(python3 - "$T" <<'PY'
import glob, re, sys
out = []
for f in sorted(glob.glob(sys.argv[1] + "/st.*")):
    offs = [int(m.group(1)) for m in re.finditer(r"pread64\(\d+, .*?, 4096, (\d+)\) = 4096", open(f).read())]
    if offs:
        out.append((min(offs), max(offs), len(offs)))
print(" ".join("%d-%d:%d" % o for o in sorted(out)))
PY
)
		check "$rw, offset=16k, offset_increment=64k, 2 clones: reads in [16k, 80k) and [80k, 144k)" \
			[ "$rc/$regions" = "0/16384-77824:16 81920-143360:16" ]
	done
else
	ok "# SKIP offsets of reads: no strace"
	ok "# SKIP offsets of random reads: no strace"
fi
check "nothing left after the offsets" empty_dir "$d"

# thinktime (fio's unit: microseconds): a pause after every
# thinktime_blocks requests, none after the last; the pauses' sleeps are
# waits by design (workers.rate_wait_seconds), never shorter than asked
wk() {
	json "$T/j.json" "d['phases'][0]['workers']['$1']"
}
run "$FSGAUGE" io --rw=randread --bs=4k --size=64k --ioengine=null --thinktime=20ms \
	--thinktime_blocks=4 -d "$d" -q --json "$T/j.json"
check "thinktime=20ms, thinktime_blocks=4: exit 0, all 16 reads issued" \
	[ "$rc/$(ops io.read)" = "0/16 65536" ]
check "  recorded: thinktime 20000 (us), blocks 4, spin 0" \
	[ "$(json "$T/j.json" "[d['parameters']['job.io.thinktime' + k] for k in ('', '_blocks', '_spin')]")" = "['20000', '4', '0']" ]
check "  3 pauses of 20 ms slept (>= 0.06 s of designed waits)" \
	[ "$(json "$T/j.json" "d['phases'][0]['workers']['rate_wait_seconds'] >= 0.06")" = true ]
run "$FSGAUGE" io --rw=randrw --bs=4k --size=64k --ioengine=null --thinktime=5000 -d "$d" -q \
	--json "$T/j.json"
check "thinktime=5000 (bare: microseconds) on randrw: 16 requests, 15 pauses of 5 ms" \
	[ "$rc/$(json "$T/j.json" "sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] in ('io.read', 'io.write'))")/$(json "$T/j.json" "d['parameters']['job.io.thinktime']")/$(json "$T/j.json" "d['phases'][0]['workers']['rate_wait_seconds'] >= 0.075")" = "0/16/5000/true" ]
run "$FSGAUGE" io --rw=read --bs=4k --size=1m --ioengine=null --time_based --runtime=1 \
	--thinktime=100ms --thinktime_blocks=2 -d "$d" -q --json "$T/j.json"
n=$(ops io.read | cut -d' ' -f1)
[ "$rc" -eq 0 ] && [ "$n" -ge 2 ] && [ "$n" -le 22 ]
checked "time_based 1 s, thinktime=100ms every 2 requests: 2 to 22 reads (got $n)"
run "$FSGAUGE" io --rw=read --bs=4k --size=64k --ioengine=null --thinktime=20ms \
	--thinktime_spin=20ms --thinktime_blocks=4 -d "$d" -q --json "$T/j.json"
check "thinktime_spin=thinktime: 16 reads, no sleep, the 3 pauses spun (phase >= 0.06 s)" \
	[ "$rc/$(ops io.read)/$(wk rate_wait_seconds)/$(json "$T/j.json" "d['phases'][0]['seconds'] >= 0.06")" = "0/16 65536/0.0/true" ]
printf '[t]\nrw=write\nsize=64k\nthinktime=10000\nthinktime_blocks=8\nthinktime_spin=1ms\n' > "$T/think.fio"
run "$FSGAUGE" io "$T/think.fio" -d "$d" -q --json "$T/j.json"
check "job file: thinktime keys, 16 writes, recorded" \
	[ "$rc/$(ops t.write)/$(json "$T/j.json" "[d['parameters']['job.t.thinktime' + k] for k in ('', '_blocks', '_spin')]")" = "0/16 65536/['10000', '8', '1000']" ]
check "nothing left after thinktime" empty_dir "$d"

# startdelay: the group starts after the delay, which is not measured
# (fio's job clock starts after it); a signal during it ends the run
if command -v strace >/dev/null 2>&1; then
	run env "$nolsan" strace -f -qq -ttt -s 100 -e trace=write,openat -o "$T/st" "$FSGAUGE" io \
		--rw=write --bs=4k --size=64k --startdelay=1 -d "$d" --json "$T/j.json"
	check "startdelay=1: exit 0, 16 writes, recorded as 1 (s)" \
		[ "$rc/$(ops io.write)/$(json "$T/j.json" "d['parameters']['job.io.startdelay']")" = "0/16 65536/1" ]
	# the said delay to the clone's first open of its file: at least 1 s
	gap=$(python3 - "$T/st" <<'PY'
import re, sys
said = opened = None
for l in open(sys.argv[1]):
    f = l.split(None, 2)
    if said is None and "startdelay 1s" in l:
        said = float(f[1])
    elif said is not None and 'openat(' in l and '"io.0.0"' in l:
        opened = float(f[1])
        break
print("none" if opened is None else "%.3f" % (opened - said))
PY
)
	check "  the clone opened its file >= 1 s after the delay began (after $gap s)" \
		python3 -c "import sys; sys.exit(not ('$gap' != 'none' and float('$gap') >= 1))"
	check "  not in the measured phase (its seconds < 1)" \
		[ "$(json "$T/j.json" "d['phases'][0]['seconds'] < 1")" = true ]
else
	ok "# SKIP startdelay's wait: no strace"
	ok "# SKIP startdelay outside the measurement: no strace"
fi
printf '[a]\nrw=read\nsize=64k\n[b]\nstonewall\nrw=write\nsize=64k\nstartdelay=100ms\n' > "$T/delay.fio"
run "$FSGAUGE" io "$T/delay.fio" -d "$d" -q --json "$T/j.json"
check "job file: startdelay=100ms on the second group: two phases, b's recorded (0.1), a's none" \
	[ "$rc/$(json "$T/j.json" "len(d['phases'])")/$(json "$T/j.json" "d['parameters'].get('job.b.startdelay')")/$(json "$T/j.json" "d['parameters'].get('job.a.startdelay')")" = "0/2/0.1/None" ]
rm -f "$T/sd.out" "$T/sd.err"
"$FSGAUGE" io --rw=write --size=64k --startdelay=60 -d "$d" --json "$T/j.json" \
	>"$T/sd.out" 2>"$T/sd.err" &
pid=$!
if wait_for "$T/sd.err" "startdelay 60s"; then
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT during startdelay: exit 130" [ "$rc" -eq 130 ]
	check "  the result says interrupted, no phase" \
		[ "$(json "$T/j.json" "(d['status']['interrupted'], len(d['phases']))")" = "(True, 0)" ]
	check "  nothing left" empty_dir "$d"
else
	kill $pid
	wait $pid
	not_ok "the run with startdelay=60 never said so"
fi

# usage errors
F="$FSGAUGE io -d $d"
expect_fail "bad startdelay" 2 "invalid startdelay 'x' \(expected a time: seconds, or with a us, ms, s, m, h or d suffix\)" \
	$F --size=1m --startdelay=x
expect_fail "negative startdelay" 2 "invalid startdelay '-1' \(expected a time" $F --size=1m --startdelay=-1
expect_fail "startdelay range: refused" 2 \
	"startdelay range '1-5' is not supported by fsgauge io: a group's clones start together \(give one time; docs/io.md\)" \
	$F --size=1m --startdelay=1-5
expect_fail "jobs together with different startdelays" 2 \
	"jobs 'a' and 'b' run together but differ in runtime, time_based, ramp_time or startdelay" \
	$F --size=1m --name=a --name=b --startdelay=1
expect_fail "bad thinktime" 2 "invalid thinktime 'x' \(expected a time: microseconds, or with a us, ms, s, m, h or d suffix\)" \
	$F --size=1m --thinktime=x
expect_fail "negative thinktime" 2 "invalid thinktime '-5' \(expected a time" $F --size=1m --thinktime=-5
expect_fail "bad thinktime_spin" 2 "invalid thinktime_spin '1q' \(expected a time" \
	$F --size=1m --thinktime=10 --thinktime_spin=1q
expect_fail "thinktime_blocks=0" 2 "invalid thinktime_blocks '0' \(expected a whole number in range\)" \
	$F --size=1m --thinktime=10 --thinktime_blocks=0
expect_fail "thinktime_blocks without thinktime" 2 "job 'io': thinktime_blocks needs thinktime" \
	$F --size=1m --thinktime_blocks=4
expect_fail "thinktime_spin without thinktime" 2 "job 'io': thinktime_spin needs thinktime" \
	$F --size=1m --thinktime_spin=4
expect_fail "thinktime_spin above thinktime" 2 \
	"job 'io': thinktime_spin \(2000us\) is longer than thinktime \(1000us\)" \
	$F --size=1m --thinktime=1ms --thinktime_spin=2ms
expect_fail "thinktime with a rate" 2 \
	"job 'io': thinktime with rate_iops is not supported by fsgauge io: the schedule would count" \
	$F --size=1m --thinktime=1ms --rate_iops=100
expect_fail "thinktime with iodepth above 1" 2 \
	"job 'io': thinktime with iodepth=4 is not supported by fsgauge io: a clone with thinktime issues one request at a time" \
	$F --size=1m --thinktime=1ms --iodepth=4
expect_fail "thinktime with a file engine" 2 \
	"job 'io': ioengine=filecreate with thinktime is not supported by fsgauge io" \
	$F --size=1m --thinktime=1ms --ioengine=filecreate
expect_fail "thinktime_iotime: not supported" 2 "option 'thinktime_iotime' is not supported by fsgauge io" \
	$F --size=1m --thinktime=1ms --thinktime_iotime=1
expect_fail "thinktime_blocks_type: not supported" 2 \
	"option 'thinktime_blocks_type' is not supported by fsgauge io" \
	$F --size=1m --thinktime=1ms --thinktime_blocks_type=issue
expect_fail "unknown option" 2 "^fsgauge io: unrecognized option '--frob'" $F --frob=1
expect_fail "fio option not supported: named" 2 \
	"^fsgauge io: option 'rate_cycle' is not supported by fsgauge io \(docs/io.md\)" \
	$F --size=1m --rate_cycle=100
expect_fail "fio engine not supported: the ones that are named" 2 \
	"ioengine 'mmap' is not supported by fsgauge io \(psync, io_uring, libaio, null, filecreate, filestat, filedelete, dircreate, dirstat, dirdelete, ftruncate, falloc, cpuio; docs/io.md\)" $F --size=1m --ioengine=mmap
expect_fail "unknown engine" 2 "unknown ioengine 'frob'" $F --size=1m --ioengine=frob
# trims need a block device (tests/cli/blockdev.sh and io_trim.sh run
# them on loop devices)
for rw in trim randtrim trimwrite randtrimwrite; do
	expect_fail "rw=$rw on a file in the run directory: refused" 2 \
		"^fsgauge: job 'io': rw=$rw needs a block device \(filename=/dev/X\): a trim discards a device's blocks" \
		$F --size=1m --rw=$rw
	check "  nothing left in the target" empty_dir "$d"
done
expect_fail "rw=trim on a named file: refused" 2 "job 'j': rw=trim needs a block device" \
	$F --size=1m --name=j --rw=trim --filename=x
expect_fail "rw=trim in a job file, on a file: refused" 2 "job 't': rw=trim needs a block device" \
	sh -c 'printf "[t]\nrw=trim\nsize=1m\n" >"$1/t.fio" && "$2" io "$1/t.fio" -d "$3"' sh "$T" "$FSGAUGE" "$d"
# fio's offset suffix (rw=randread:8) and old spellings: refused by name
for rw in randread:8 trimwrite:4k randwr; do
	expect_fail "rw=$rw: not supported, by name" 2 "^fsgauge: rw=$rw is not supported by fsgauge io \(docs/io.md\)" \
		$F --size=1m --rw=$rw
done
expect_fail "randrw with different read and write sizes" 2 \
	"job 'io': rw=randrw with different read and write block sizes is not supported" \
	$F --size=1m --rw=randrw --bs=4k,8k
expect_fail "bad rwmixread" 2 "invalid rwmixread '101' \(expected a percentage from 0 to 100\)" \
	$F --size=1m --rw=randrw --rwmixread=101
expect_fail "bad rw" 2 \
	"invalid rw 'sideways' \(expected read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite or randtrimwrite\)" \
	$F --size=1m --rw=sideways
expect_fail "bad bs" 2 "invalid bs '0' \(expected a size from 1 to 64m" $F --size=1m --bs=0
expect_fail "bad size" 2 "invalid size '1x'" $F --size=1x
expect_fail "bad bssplit" 2 "invalid bssplit '4k/60:8k/60'" $F --size=1m --bssplit=4k/60:8k/60
expect_fail "bad numjobs" 2 "invalid numjobs '0'" $F --size=1m --numjobs=0
expect_fail "bad runtime" 2 "invalid runtime '5x'" $F --size=1m --runtime=5x
expect_fail "bad random_distribution: dist's reason" 2 \
	"bad random_distribution 'zipf:-1': theta must be > 0" $F --size=1m --random_distribution=zipf:-1
expect_fail "bad percentage_random" 2 "invalid percentage_random '101' \(expected a percentage" \
	$F --size=1m --percentage_random=101
expect_fail "fsync=-1" 2 "invalid fsync '-1' \\(expected a whole number in range\\)" \
	$F --size=1m --rw=write --fsync=-1
expect_fail "fsync=abc" 2 "invalid fsync 'abc' \\(expected a whole number in range\\)" \
	$F --size=1m --rw=write --fsync=abc
expect_fail "fdatasync=x" 2 "invalid fdatasync 'x' \\(expected a whole number in range\\)" \
	$F --size=1m --rw=write --fdatasync=x
expect_fail "fsync and fdatasync together" 2 "job 'io': give fsync or fdatasync, not both" \
	$F --size=1m --rw=write --fsync=2 --fdatasync=3
expect_fail "blockalign other than bs" 2 "blockalign other than the block size is not supported" \
	$F --size=1m --blockalign=512
expect_fail "bad kb_base" 2 "invalid kb_base '512' \(expected 1024 or 1000\)" $F --kb_base=512
expect_fail "no size" 2 "job 'io': no size given \(--size\)" $F --rw=read
expect_fail "time_based without runtime" 2 "job 'io': time_based needs a runtime" \
	$F --size=1m --time_based
expect_fail "iodepth_batch above iodepth" 2 "iodepth_batch_submit=8 is above iodepth=4" \
	$F --size=1m --iodepth=4 --iodepth_batch=8
expect_fail "a filename outside the run directory" 2 \
	"filename '/etc/passwd' is outside the run directory" $F --size=1m --filename=/etc/passwd
expect_fail "a filename with a directory" 2 "filename 'a/b': a plain file name is needed" \
	$F --size=1m --filename=a/b
expect_fail "several files in filename" 2 "several files \(':'\) are not supported" \
	$F --size=1m --filename=a:b
expect_fail "--engine refused" 2 "--engine does not apply to io: use --ioengine" \
	$F --size=1m --engine=psync
expect_fail "--warmup refused" 2 "--warmup does not apply to io: use --ramp_time" \
	$F --size=1m --warmup=1
expect_fail "a value as the next word is read as a job file" 2 \
	"cannot read job file '1'" $F --size=1m --direct 1
expect_fail "jobs on different engines" 2 \
	"jobs 'a' and 'b' differ in ioengine" $F --size=1m --name=a --name=b --ioengine=null
expect_fail "jobs together with different runtimes" 2 \
	"jobs 'a' and 'b' run together but differ in runtime" \
	$F --size=1m --name=a --runtime=1 --name=b --runtime=2
expect_fail "-d and --directory differ" 2 "-d '$d' and --directory '/tmp' name different" \
	$F --size=1m --directory=/tmp
expect_fail "bad offset" 2 "invalid offset 'abc' \(expected a size, as 1m, or a percentage from 0 to 100, as 25%\)" \
	$F --size=1m --offset=abc
expect_fail "offset=150%" 2 "invalid offset '150%' \(expected a size" $F --size=1m --offset=150%
expect_fail "a negative offset" 2 "invalid offset '-4k' \(expected a size" $F --size=1m --offset=-4k
expect_fail "a negative offset_increment" 2 "invalid offset_increment '-1m' \(expected a size, as 1m\)" \
	$F --size=1m --offset_increment=-1m
expect_fail "offset_align: not supported" 2 "option 'offset_align' is not supported by fsgauge io" \
	$F --size=1m --offset=10% --offset_align=8k
expect_fail "verify with an offset off 4 KiB" 2 \
	"job 'io': verify with an offset or offset_increment that is not a multiple of 4096" \
	$F --size=1m --rw=write --verify=crc32c --offset=1000
check "nothing left after the errors" empty_dir "$d"

# fio job files (issue 20): the corpus in tests/fixtures/fio
FX="$(dirname "$0")/../fixtures/fio"
kb=$((64 * $(getconf _NPROCESSORS_ONLN)))
FSGAUGE_TEST_NJ=3 run "$FSGAUGE" io "$FX/groups.fio" -d "$d" -q --json "$T/j.json"
check "job file: exit 0" [ "$rc" -eq 0 ]
check "  two groups (stonewall), named after their first job" \
	[ "$(json "$T/j.json" "[p['name'] for p in d['phases']]")" = "['seqread', 'randwrite']" ]
check "  include (bs=4k) and \$ncpus arithmetic (size=${kb}k)" \
	[ "$(ops seqread.read)" = "$((kb / 4)) $((kb * 1024))" ]
check "  a job's own bs over [global]'s" [ "$(ops seqwrite.write)" = "$((kb / 16)) $((kb * 1024))" ]
check "  group_reporting: one block for the first group" [ "$(grep -c '^seqread: (groupid=0, jobs=2)' "$T/out")" = 1 ]
check "  \${VAR}: numjobs=3 from the environment" \
	[ "$(json "$T/j.json" "sum(o['ops'] for o in d['phases'][1]['operations'] if o['name'] == 'randwrite.write')")" = $((3 * kb / 4)) ]
FSGAUGE_TEST_NJ=1 run "$FSGAUGE" io "$FX/groups.fio" -d "$d" -q --json "$T/j.json" \
	--section=seqwrite -s size=64k -s bs=8k
check "--section and -s: the one job, its keys overridden" \
	[ "$(json "$T/j.json" "len(d['phases'])") $(ops seqwrite.write)" = "1 8 65536" ]
FSGAUGE_TEST_NJ=1 run "$FSGAUGE" io --size=128k "$FX/groups.fio" -d "$d" -q
check "  the command line's options are defaults the file overrides (exit 0)" [ "$rc" -eq 0 ]
printf '[a]\nsize=1m\nrate_cycle=1000\n' > "$T/bad.fio"
expect_fail "job file: unsupported key, with its place" 2 \
	"$T/bad.fio:3: option 'rate_cycle' is not supported by fsgauge io" "$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[w]\nrw=write\nbs=4k\nsize=64k\nfdatasync=4\nend_fsync=1\n' > "$T/sync.fio"
run "$FSGAUGE" io "$T/sync.fio" -d "$d" -q --json "$T/j.json"
check "job file: fdatasync=4 and end_fsync over 16 writes: 3 fdatasyncs, 1 fsync at the end" \
	[ "$rc/$(ops w.write)/$(ops w.fdatasync)/$(ops w.fsync)" = "0/16 65536/3 0/1 0" ]
printf '[w]\nrw=write\nsize=64k\nfsync=-2\n' > "$T/bad.fio"
expect_fail "job file: bad fsync, with its place" 2 "$T/bad.fio:4: invalid fsync '-2'" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[a]\nsize=1m\nioengine=rdma\n' > "$T/bad.fio"
expect_fail "job file: unsupported engine" 2 "$T/bad.fio:3: ioengine 'rdma' is not supported" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[a]\nsize=1m\nfrobnicate=1\n' > "$T/bad.fio"
expect_fail "job file: unknown key" 2 "$T/bad.fio:3: unknown option 'frobnicate'" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf 'size=1m\n[a]\n' > "$T/bad.fio"
expect_fail "job file: an option before any section" 2 "$T/bad.fio:1: option 'size' before any section" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[a]\nsize=${FSGAUGE_UNSET_VAR}\n' > "$T/bad.fio"
expect_fail "job file: an unset variable" 2 "$T/bad.fio:2: environment variable 'FSGAUGE_UNSET_VAR' is not set" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[a]\nsize=(4*)k\n' > "$T/bad.fio"
expect_fail "job file: a bad expression" 2 "$T/bad.fio:2: invalid expression" "$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[a]\ninclude missing.fio\n' > "$T/bad.fio"
expect_fail "job file: a missing include" 2 "$T/bad.fio:2: cannot read included file '$T/missing.fio'" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[global]\ninclude bad.fio\n' > "$T/bad.fio"
expect_fail "job file: an include loop" 2 "includes nested deeper than 8" "$FSGAUGE" io "$T/bad.fio" -d "$d"
printf '[global]\nsize=1m\n' > "$T/bad.fio"
expect_fail "job file: no jobs" 2 "no jobs \(only \[global\] sections\)" "$FSGAUGE" io "$T/bad.fio" -d "$d"
expect_fail "a missing job file" 2 "cannot read job file '$T/none.fio': No such file or directory" \
	"$FSGAUGE" io "$T/none.fio" -d "$d"
FSGAUGE_TEST_NJ=1 expect_fail "--section of no job" 2 "no job 'nosuch' \(--section\)" \
	"$FSGAUGE" io "$FX/groups.fio" -d "$d" --section=nosuch
expect_fail "--section without a job file" 2 "--section applies to job files" $F --size=1m --section=a
expect_fail "-s without =" 2 "invalid -s 'size' \(expected KEY=VALUE\)" "$FSGAUGE" io "$FX/groups.fio" -s size
FSGAUGE_TEST_NJ=1 expect_fail "-s with a bad value" 2 "-s bs=0: invalid bs '0'" \
	"$FSGAUGE" io "$FX/groups.fio" -d "$d" -s bs=0
expect_fail "--name jobs and a job file" 2 "give jobs with --name or in job files, not both" \
	$F --name=x "$FX/groups.fio"
check "nothing left after the job files" empty_dir "$d"

# --- a relative directory=: directories made inside the run directory ------
# (clone N in the (N mod D)-th, a filename= in the first), all removed
run "$FSGAUGE" io --name=j --rw=write --bs=4k --size=64k --numjobs=3 --directory=s1:s2/deep \
	-d "$d" -q --keep --json "$T/rel.json"
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "relative --directory=s1:s2/deep: exit 0, clones 0 and 2 in s1, clone 1 in s2/deep" \
	[ "$rc/$(cd "$kept" 2>/dev/null && find . -type f ! -name .fsgauge-run | sort | tr '\n' ' ')" = \
	"0/./s1/j.0.0 ./s1/j.2.0 ./s2/deep/j.1.0 " ]
check "  each file written whole: 3 x 64k" [ "$(json "$T/rel.json" "d['phases'][0]['summary']['bytes_written']")" = 196608 ]
rm -rf "$kept"
printf '[global]\ndirectory=sub\nsize=64k\n[w]\nrw=write\n[r]\nrw=read\nfilename=shared\nnumjobs=2\n' >"$T/rel.fio"
run "$FSGAUGE" io "$T/rel.fio" -d "$d" -q --keep
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null | head -1)
check "a job file's directory=sub: its files in sub, a filename= there too" \
	[ "$rc/$(cd "$kept" 2>/dev/null && find . -type f ! -name .fsgauge-run | sort | tr '\n' ' ')" = \
	"0/./sub/shared ./sub/w.0.0 " ]
rm -rf "$kept"
run "$FSGAUGE" io --name=j --ioengine=filecreate --nrfiles=2 --size=8k --numjobs=2 --directory=c1:c2 -d "$d" -q
[ "$rc" = 0 ] && empty_dir "$d"
checked "a file engine's files in the directories too, and nothing left"
expect_fail "relative --directory with '..': refused" 2 \
	"^fsgauge: --directory 's1:../x': '../x' leaves the run directory \\('..'\\): fsgauge io only writes inside it\$" \
	$F --name=j --rw=write --size=64k --directory=s1:../x
expect_fail "relative --directory with an empty name: refused" 2 \
	"^fsgauge: --directory 'x::y': an empty name in the list\$" \
	$F --name=j --rw=write --size=64k --directory=x::y
expect_fail "--directory mixing absolute and relative: refused" 2 \
	"^fsgauge: --directory 'x:/tmp' mixes absolute directories \\(targets, as -d\\) and relative ones \\(made inside the run directory\\): give one kind\$" \
	$F --name=j --rw=write --size=64k --directory=x:/tmp
mkdir -p "$T/d2"
expect_fail "relative --directory with two -d: refused" 2 \
	"^fsgauge: --directory 'x' names directories inside the run directory, and -d is given 2 times: give one -d, or absolute directories \\(each a target\\)\$" \
	"$FSGAUGE" io --name=j --rw=write --size=64k --directory=x -d "$d" -d "$T/d2"
empty_dir "$d" && empty_dir "$T/d2"
checked "  nothing created by the refusals"

run "$FSGAUGE" io --help
check "--help lists fio's options" grep -q -- '--iodepth N' "$T/out"
check "  startdelay" grep -q -- '--startdelay TIME' "$T/out"
check "  thinktime, thinktime_blocks, thinktime_spin" \
	[ "$(grep -cE -- '--thinktime(_blocks N|_spin TIME| TIME)' "$T/out")" = 3 ]
check "  and says unlisted options are refused" grep -q "refused with their name" "$T/out"
finish
