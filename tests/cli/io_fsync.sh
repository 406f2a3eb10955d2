#!/bin/sh
# fio's fsync=N and fdatasync=N in fsgauge io (docs/io.md, "Options"):
# the syncs each job issues, from fsgauge's JSON, against the number
# fio 3.33's rule gives (a sync before the request that follows each
# Nth write, none after the last; on psync and null one more where a
# pass over the files ends) and against fio's own counts on the same job
# when fio is installed; the order of a mixed job's requests and syncs,
# call by call (strace), in fsgauge and in fio; a time_based job's count
# within the rule's bounds.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
have_fio=0
command -v fio >/dev/null && have_fio=1
have_strace=0
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null && have_strace=1
# LeakSanitizer cannot run under ptrace: off there (a sanitized build;
# ASAN_OPTIONS is ignored by other builds)
nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# rule W N P S: the syncs of a clone that writes W times with fsync=N (or
# fdatasync=N) over P passes of its files, by fio 3.33's rule: one before
# each request that follows the Nth, 2Nth, ... write (so none after the
# last write: floor((W - 1) / N)), and with a synchronous engine (S = 1:
# psync, null) one more at each boundary between passes where the writes
# so far are a multiple of N (fio closes and reopens the files there and
# syncs on both sides)
rule() {
	awk -v w="$1" -v n="$2" -v p="$3" -v s="$4" 'BEGIN {
		c = w > 0 ? int((w - 1) / n) : 0
		for (i = 1; s && i < p; i++)
			if (int(i * w / p) % n == 0)
				c++
		print c
	}'
}

# counts KIND: "WRITES SYNCS" of job t in $T/j.json, KIND fsync or fdatasync
counts() {
	json "$T/j.json" "' '.join(str(sum(o['ops'] for o in d['phases'][0]['operations'] if o['name'] == n)) for n in ('t.write', 't.$1'))"
}

# fiocounts: "WRITES SYNCS" of fio's JSON $T/fio.json, its jobs summed
# (its "sync" object's lat_ns.N counts the fsyncs and fdatasyncs of
# fsync=N and fdatasync=N; total_ios counts only the fsyncs)
fiocounts() {
	json "$T/fio.json" "'%d %d' % (sum(j['write']['total_ios'] for j in d['jobs']), sum(j['sync']['lat_ns']['N'] for j in d['jobs']))"
}

# Each case: ENGINE FIO W N P CLONES ARGS...: an fsgauge io job t with bs=4k
# and ARGS on ENGINE, each of its CLONES writing W times over P passes
# with fsync or fdatasync N; FIO = 1: compared with fio's run of the job
# (FIO = 0 at iodepth above 1, where fio's count follows its queueing,
# docs/fio-compat.md)
while read -r eng fio w n p clones args; do
	case "$eng" in '' | '#'*) continue ;; esac
	kind=fsync
	case "$args" in *--fdatasync=*) kind=fdatasync ;; esac
	s=0
	case "$eng" in psync | null) s=1 ;; esac
	what="$eng $args"
	why=$(engine_refused "$eng")
	if [ -n "$why" ]; then
		ok "# SKIP $what: $why"
		[ "$fio" = 1 ] && ok "# SKIP fio: $what: $why"
		continue
	fi
	want="$((w * clones)) $((clones * $(rule "$w" "$n" "$p" "$s")))"
	run "$FSGAUGE" io --name=t --bs=4k --ioengine="$eng" $args -d "$d" -q --json "$T/j.json" \
		</dev/null
	got=$(counts $kind)
	check "$what: $w writes a clone, $kind by the rule ($want)" [ "$rc/$got" = "0/$want" ]
	[ "$fio" = 1 ] || continue
	if [ "$have_fio" = 0 ]; then
		ok "# SKIP fio: $what: fio not installed"
		continue
	fi
	rm -rf "$T/fio"
	mkdir "$T/fio"
	(cd "$T/fio" && fio --name=t --bs=4k --ioengine="$eng" $args --output-format=json \
		--output="$T/fio.json" </dev/null >/dev/null 2>"$T/fio.err")
	if [ ! -s "$T/fio.json" ]; then
		not_ok "fio: $what: fio failed"
		sed 's/^/#   /' "$T/fio.err" | head -5
		continue
	fi
	check "fio: $what: the same writes and ${kind}s as fsgauge's ($got)" [ "$(fiocounts)" = "$got" ]
done <<'EOF'
# W divisible by N and not, N = 1, N = W, N > W; fdatasync
psync 1 8 2 1 1 --rw=write --size=32k --fsync=2
psync 1 9 4 1 1 --rw=write --size=36k --fsync=4
psync 1 8 1 1 1 --rw=write --size=32k --fsync=1
psync 1 8 8 1 1 --rw=write --size=32k --fsync=8
psync 1 8 9 1 1 --rw=write --size=32k --fsync=9
psync 1 8 3 1 1 --rw=write --size=32k --fdatasync=3
psync 1 16 4 1 1 --rw=randwrite --size=64k --fdatasync=4
# each clone its own count
psync 1 4 2 1 3 --rw=randwrite --size=16k --fsync=2 --numjobs=3
# loops and io_size: passes over the file, counted on through them
psync 1 24 2 3 1 --rw=write --size=32k --fsync=2 --loops=3
psync 1 27 4 3 1 --rw=write --size=36k --fsync=4 --loops=3
psync 1 24 4 3 1 --rw=randwrite --size=32k --fsync=4 --loops=3
psync 1 16 2 2 1 --rw=write --size=32k --io_size=64k --fsync=2
null 1 12 2 3 1 --rw=write --size=16k --fsync=2 --loops=3
# several files: the writes of all of them counted together
psync 1 12 2 1 1 --rw=write --size=48k --nrfiles=3 --fsync=2
psync 1 36 2 3 1 --rw=write --size=48k --nrfiles=3 --fsync=2 --loops=3
psync 1 24 2 2 1 --rw=randwrite --size=48k --nrfiles=3 --fsync=2 --loops=2
psync 1 12 2 1 1 --rw=write --size=48k --nrfiles=2 --fsync=2 --file_service_type=roundrobin:3
# the asynchronous engines: no sync more at the passes' ends
libaio 1 8 2 1 1 --rw=write --size=32k --fsync=2
libaio 1 24 2 3 1 --rw=write --size=32k --fsync=2 --loops=3
libaio 1 27 4 3 1 --rw=write --size=36k --fdatasync=4 --loops=3
libaio 1 24 2 2 1 --rw=randwrite --size=48k --nrfiles=3 --fsync=2 --loops=2
io_uring 1 8 2 1 1 --rw=write --size=32k --fsync=2
io_uring 1 24 4 3 1 --rw=randwrite --size=32k --fsync=4 --loops=3
io_uring 1 8 3 1 1 --rw=write --size=32k --fdatasync=3
# at depth: the same rule, the queue drained before each sync
io_uring 0 256 8 1 1 --rw=randwrite --size=1m --fsync=8 --iodepth=8
libaio 0 256 8 1 1 --rw=randwrite --size=1m --fsync=8 --iodepth=8
EOF

# seqcheck N: the requests (r, w) and syncs (S) on stdin, one a line,
# against the rule: prints "WRITES READS SYNCS MISPLACED", MISPLACED
# counting the syncs that were not due and the requests issued while one
# was.  A sync is due before a request (a read too, in a mixed job) once
# the writes so far are a multiple of N, until one is issued; the syncs
# before the first request (fio's, of the files it laid out) are left out.
seqcheck() {
	awk -v n="$1" '
		$1 == "S" && !started { next }
		$1 == "S" { s++; if (!due) bad++; due = 0; next }
		{ started = 1; if (due) bad++; if ($1 == "w") w++; else r++; due = w > 0 && w % n == 0 }
		END { printf "%d %d %d %d\n", w, r, s, bad }'
}

# calls TRACE: the 4 KiB reads and writes and the syncs of file t.0.0 in
# strace -y output TRACE, as r, w and S
calls() {
	grep '/t\.0\.0>' "$1" | awk '
		/^[0-9]+ +pwrite64\(.*, 4096, [0-9]+\) += 4096$/ { print "w"; next }
		/^[0-9]+ +pread64\(.*, 4096, [0-9]+\) += 4096$/ { print "r"; next }
		/^[0-9]+ +f(data)?sync\(/ { print "S" }'
}

# a mixed job: a read after the sync makes the next one due again while
# no write came (fio syncs before each request until the count moves on)
for job in "randrw 2 --fsync=2" "randrw 3 --fdatasync=3 --rwmixread=40" "rw 4 --fsync=4 --rwmixread=30"; do
	set -- $job
	rw=$1 n=$2
	shift 2
	opts="$*"
	what="rw=$rw $opts"
	if [ "$have_strace" = 0 ]; then
		ok "# SKIP $what: strace cannot run here"
		continue
	fi
	kind=fsync
	case "$opts" in *fdatasync*) kind=fdatasync ;; esac
	run env "$nolsan" strace -f -qq -y -e trace=pread64,pwrite64,fsync,fdatasync -o "$T/fs.tr" \
		"$FSGAUGE" io --name=t --bs=4k --size=128k --rw="$rw" $opts -d "$d" -q --json "$T/j.json"
	set -- $(calls "$T/fs.tr" | seqcheck "$n")
	got=$(counts $kind)
	c=0
	[ "$rc" = 0 ] && [ "$4" = 0 ] && [ "$1 $3" = "$got" ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && c=1
	check "$what: each sync where the rule has it ($1 writes, $2 reads, $3 syncs, $4 misplaced)" [ "$c" = 1 ]
	check "  as many syncs as the JSON's t.$kind, at least floor((W - 1) / N), at most that + reads" \
		[ "$3" -ge $((($1 - 1) / n)) -a "$3" -le $((($1 - 1) / n + $2)) ]
	if [ "$have_fio" = 1 ]; then
		rm -rf "$T/fio"
		mkdir "$T/fio"
		(cd "$T/fio" && strace -f -qq -y -e trace=pread64,pwrite64,fsync,fdatasync -o "$T/fio.tr" \
			fio --name=t --bs=4k --size=128k --rw="$rw" $opts --output-format=json \
			--output="$T/fio.json" >/dev/null 2>&1)
		set -- $(calls "$T/fio.tr" | seqcheck "$n")
		c=0
		[ "$4" = 0 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$1 $3" = "$(fiocounts)" ] && c=1
		check "  fio's own run: its syncs by the same rule ($1 writes, $2 reads, $3 syncs, $4 misplaced)" \
			[ "$c" = 1 ]
	else
		ok "  fio's own run: # SKIP fio not installed"
	fi
done
check "nothing left in the target" empty_dir "$d"

# time_based: the run ends where the clock says, after a write or after
# the sync due (then the count is W / N, else floor((W - 1) / N))
for n in 3 4; do
	run "$FSGAUGE" io --name=t --rw=write --bs=4k --size=64k --fsync=$n --ioengine=null \
		--time_based --runtime=0.3 -d "$d" -q --json "$T/j.json"
	set -- $(counts fsync)
	check "time_based, fsync=$n: $1 writes, $2 syncs, floor((W - 1) / $n) to floor(W / $n)" \
		[ "$rc" = 0 -a "$1" -gt $n -a "$2" -ge $((($1 - 1) / n)) -a "$2" -le $(($1 / n)) ]
done

finish
