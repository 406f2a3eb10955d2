#!/bin/sh
# insight.sh — the "limited by" verdicts (docs/insight.md) produced for
# real: cpu (varmail on tmpfs), fsgauge itself (the null engine), rate
# limit (eventgen, io --rate_iops), page cache (a small working set read
# on a file system with a device), undetermined (threads that sleep),
# contention (8 threads and one fileset entry on tmpfs), the ZFS view
# (OpenZFS's kstats, from the fixture tests/fixtures/zfs-kstat),
# synchronous latency (varmail's fsyncs on a loop-mounted ext4: root; the
# loop device's flush requests beside them).  The device verdict is
# insight_device.sh's (a loop device over a slow FUSE image).
# Every verdict is checked in the JSON (limited_by) and as the text line.
# The machine may be shared: where another process's load can make a
# rule hold (a busy CPU or disk), the check says so and skips.
. "$(dirname "$0")/lib.sh"

V='d["phases"][0]["limited_by"]'

# verdict FILE: the first phase's verdict; part FILE: its part
verdict() { json "$1" "$V[\"verdict\"]"; }
# a ThreadSanitizer build (make check SANITIZE=thread) costs fsgauge
# several times its CPU: "fsgauge itself" is then the true verdict
tsan_build() { case ${SANITIZE:-} in *thread*) return 0 ;; esac; return 1; }
holds() { json "$1" "[r['rule'] for r in $V['rules'] if r['holds']]"; }

# --- cpu: varmail on tmpfs (/dev/shm, or a tmpfs mounted as root) -----------
shm=""
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/fsgauge-insight.XXXXXX)
elif [ "$(id -u)" = 0 ] && mkdir "$T/tmpfs" && mount -t tmpfs -o size=256m tmpfs "$T/tmpfs"; then
	shm="$T/tmpfs"
fi
if [ -n "$shm" ]; then
	run "$FSGAUGE" run varmail -d "$shm" -t 2 -s nthreads=8 --json "$T/cpu.json"
	check "varmail on tmpfs runs" [ "$rc" -eq 0 ]
	v=$(verdict "$T/cpu.json")
	if [ "$v" = fsgauge ] && tsan_build; then
		ok "varmail on tmpfs: # SKIP ThreadSanitizer build: fsgauge itself is what limits it (verdict $v)"
	else
		check "varmail on tmpfs: limited by cpu" [ "$v" = cpu ]
		check "the text has the line with its figures" \
			grep -Eq '^limited by: cpu \([a-z ]+\): the workers were on a CPU [0-9]+%' "$T/out"
	fi
	check "the cpu rule carries its figures" \
		[ "$(json "$T/cpu.json" "[r for r in $V['rules'] if r['rule']=='cpu'][0]['value'] >= 90")" = true ]
	check "tmpfs: the cache warning is no page-cache verdict" \
		[ "$(json "$T/cpu.json" "'page_cache' in [r['rule'] for r in $V['rules'] if r['holds']]")" = false ]
	check "workers' time recorded" \
		[ "$(json "$T/cpu.json" 'd["phases"][0]["workers"]["measured"]')" = 8 ]

	# --- contention: 8 threads, one fileset entry to create and delete --
	# (the others find no free entry and wait: they sleep, the CPUs
	# need not be busy, and tmpfs has no device to explain the sleep)
	for n in 1 64; do
		cat >"$T/one$n.f" <<EOF
define fileset name=f,path=\$dir,entries=$n,size=1m
define process name=p {
  thread name=t,instances=8 {
    flowop createfile name=cr,filesetname=f,fd=1
    flowop writewholefile name=wr,fd=1,iosize=64k
    flowop closefile name=cl,fd=1
    flowop deletefile name=del,filesetname=f
  }
}
run 2
EOF
	done
	C="[r for r in $V['rules'] if r['rule']=='contention'][0]"
	run "$FSGAUGE" run "$T/one1.f" -d "$shm" --json "$T/one.json"
	check "one entry, 8 threads: runs" [ "$rc" -eq 0 ]
	v=$(verdict "$T/one.json")
	check "one entry, 8 threads: limited by contention" [ "$v" = contention ]
	[ "$v" = contention ] || grep '^limited by' "$T/out" | sed 's/^/# /'
	check "the line names the stalling flowop, the sleep and the switches" \
		grep -Eq '^limited by: contention \(cr\): the workers were asleep [0-9]+% of their time with no device I/O to explain it \(.*no device behind the file system\); [0-9.]+ voluntary context switches per operation; cr found no free fileset entry [0-9]+ times' "$T/out"
	check "the workers slept: a voluntary switch per operation or more" \
		[ "$(json "$T/one.json" "$C['figures']['voluntary_switches_per_op'] >= 1")" = true ]
	check "the switches are in the workers' JSON" \
		[ "$(json "$T/one.json" 'd["phases"][0]["workers"]["voluntary_switches"] > 0')" = true ]
	check "the stalls are counted" \
		[ "$(json "$T/one.json" '[o for o in d["phases"][0]["operations"] if o["name"]=="cr"][0]["stalls"] > 0')" = true ]
	run "$FSGAUGE" run "$T/one64.f" -d "$shm" --json "$T/many.json"
	check "64 entries, 8 threads: the contention rule does not hold" \
		[ "$(json "$T/many.json" "$C['holds']")" = false ]
	check "64 entries: the workers seldom slept" \
		[ "$(json "$T/many.json" "$C['value'] < $C['threshold']")" = true ]
	case $shm in /dev/shm/*) rmdir "$shm" ;; *) umount "$shm" ;; esac
else
	ok "cpu and contention on tmpfs: # SKIP no tmpfs (/dev/shm not tmpfs, not root)"
fi

# --- fsgauge itself: the null engine does no I/O (one thread: two contend
# on the fileset's locks, whose futex time is system time) -----------------
run "$FSGAUGE" run varmail -d "$T" -t 1 -s nthreads=1 --engine null --json "$T/null.json"
check "null engine: limited by fsgauge itself" [ "$(verdict "$T/null.json")" = fsgauge ]
check "the text line says so" grep -q '^limited by: fsgauge itself (user time): ' "$T/out"

# --- compare and report show each result's verdict per phase ---------------
run "$FSGAUGE" run varmail -d "$T" -t 1 -s nthreads=1 --engine null --label second --json "$T/null2.json"
run "$FSGAUGE" compare "$T/null.json" "$T/null2.json" --json "$T/cmp.json"
check "compare: a limited-by line per result" \
	sh -c "grep -q '^  limited by  null  *fsgauge itself (user time): ' '$T/out' && grep -q '^  limited by  second  *fsgauge itself' '$T/out'"
check "compare JSON: the verdict per result and phase" \
	[ "$(json "$T/cmp.json" 'd["results"][1]["limited_by"]["run"]["verdict"]')" = fsgauge ]
run "$FSGAUGE" report "$T/null.json" "$T/null2.json" -o "$T/r.html"
check "report: a Limited by table" grep -q '<section id="limited-by">' "$T/r.html"
check "report: a row per phase and result" \
	[ "$(grep -c '<tr><td>run</td><td>.*</td><td>fsgauge</td>' "$T/r.html")" -ge 1 ]
run "$FSGAUGE" compare "$(dirname "$0")/../fixtures/ext4.json" "$(dirname "$0")/../fixtures/xfs.json"
check "compare: older results without a verdict print none" sh -c "[ $rc -eq 0 ] && ! grep -q 'limited by' '$T/out'"

# --- the ZFS view (docs/insight.md): OpenZFS's kstats read from
# $FSGAUGE_KSTAT_ROOT; this machine has no ZFS, so the fixture of two
# snapshots written for the tests (tests/fixtures/zfs-kstat/README): its
# first sample reads 1/, its second 2/, and the phase's figures are the
# differences the README lists ------------------------------------------------
Z='d["phases"][0]["zfs"]'
ZFIX="$(cd "$(dirname "$0")/../fixtures/zfs-kstat" && pwd)"
if [ -e /proc/spl/kstat/zfs/arcstats ]; then
	ok "no ZFS view without kstats: # SKIP this machine has ZFS"
else
	check "without ZFS kstats: no zfs member" [ "$(json "$T/null.json" "'zfs' in d['phases'][0]")" = false ]
	run "$FSGAUGE" run varmail -d "$T" -t 1 -s nthreads=1 --engine null
	check "without ZFS kstats: no ZFS line" sh -c "[ $rc -eq 0 ] && ! grep -q '^ZFS:' '$T/out'"
fi
zdir=$T # the null engine does no I/O: any file system
run env FSGAUGE_KSTAT_ROOT="$ZFIX" "$FSGAUGE" run varmail -d "$zdir" -t 1 -s nthreads=1 --engine null \
	--json "$T/zfs.json"
check "kstat fixture: the run works" [ "$rc" -eq 0 ]
check "kstat fixture: the root recorded" [ "$(json "$T/zfs.json" "$Z['kstat_root']")" = "$ZFIX" ]
for kv in arc.hits=1210200 arc.misses=23100 arc.demand_data_hits=812400 \
	arc.demand_data_misses=9100 arc.demand_metadata_hits=390500 \
	arc.demand_metadata_misses=13650 arc.prefetch_data_hits=7300 arc.prefetch_data_misses=350 \
	arc.size_bytes_start=3284613120 arc.size_bytes=3328599040 arc.target_bytes=4141876224 \
	arc.max_bytes=8349724672 zil.commits=4210 zil.commit_writers=2972 zil.itxs=6880 \
	zil.indirect_bytes=1572864 zil.copied_bytes=14102528 zil.needcopy_bytes=3932160 \
	zil.log_normal_bytes=18034688 zil.log_slog_bytes=0 zil.log_bytes=18034688; do
	k=${kv%%=*} g=${k%%.*} f=${k#*.}
	check "kstat fixture: zfs.$k is the fixture's difference ${kv#*=}" \
		[ "$(json "$T/zfs.json" "$Z['$g']['$f']")" = "${kv#*=}" ]
done
check "kstat fixture: the ARC's hit share" \
	[ "$(json "$T/zfs.json" "round($Z['arc']['hit_percent'], 2)")" = 98.13 ]
check "kstat fixture: no pool or dataset figures off ZFS" \
	[ "$(json "$T/zfs.json" "'pool' in $Z or 'dataset' in $Z")" = false ]
zline='ARC 98.1% hits (1.21M hits, 23,100 misses), size 3.1 GiB of 7.78 GiB; ZIL 4,210 commits, 17.2 MiB to the log, 1.5 MiB written indirectly'
check "kstat fixture: the ZFS line beside the cache warnings" grep -qxF "ZFS: $zline" "$T/out"
check "kstat fixture: the JSON's text" [ "$(json "$T/zfs.json" "$Z['text']")" = "$zline" ]
run "$FSGAUGE" compare "$T/zfs.json" "$T/null.json" --json "$T/zcmp.json"
check "compare: the ZFS line of the result that has one" \
	sh -c "grep '^  ZFS         zfs ' '$T/out' | grep -qF '  $zline' && [ \$(grep -c '^  ZFS ' '$T/out') -eq 1 ]"
check "compare JSON: the ZFS line" \
	[ "$(json "$T/zcmp.json" 'd["results"][0]["limited_by"]["run"]["zfs"]')" = "$zline" ]
run "$FSGAUGE" report "$T/zfs.json" -o "$T/z.html"
check "report: the ZFS line under the verdict" grep -qF "<div class=\"zfs\">ZFS: $zline</div>" "$T/z.html"
run env FSGAUGE_KSTAT_ROOT="$ZFIX/1" "$FSGAUGE" run varmail -d "$zdir" -t 1 -s nthreads=1 --engine null \
	--json "$T/zfs1.json"
check "one static snapshot: every counter known and unchanged" \
	[ "$(json "$T/zfs1.json" "$Z['arc']['hits'] == 0 and $Z['zil']['commits'] == 0 and $Z['arc']['size_bytes'] == 3284613120")" = true ]
check "one static snapshot: the cache verdict's ARC from the same root" \
	[ "$(json "$T/zfs1.json" 'd["phases"][0]["cache"]["arc_max_bytes"]')" = 8349724672 ]
run env FSGAUGE_KSTAT_ROOT="$T/nosuch" "$FSGAUGE" run varmail -d "$zdir" -t 1 -s nthreads=1 --engine null \
	--json "$T/zfs0.json"
check "a root with no kstats: no zfs member, no line" \
	sh -c "[ \"\$(grep -c '^ZFS:' '$T/out')\" = 0 ] && [ $rc -eq 0 ]" 
check "a root with no kstats: the JSON has none" [ "$(json "$T/zfs0.json" "'zfs' in d['phases'][0]")" = false ]
run env FSGAUGE_KSTAT_ROOT="$ZFIX" "$FSGAUGE" bonnie -d "$zdir" -s 8M -r 4 -n 0
check "bonnie: a ZFS line per phase on stderr, the first phase's the fixture's" \
	sh -c "grep -m1 '^phase [a-z_]*: ZFS: ' '$T/err' | grep -qF ': ZFS: $zline' && [ \$(grep -c '^phase [a-z_]*: ZFS: ' '$T/err') -ge 2 ]"
check "bonnie: no ZFS line on stdout" sh -c "! grep -q 'ZFS' '$T/out'"

# --- rate limit: eventgen and rate_iops ------------------------------------
cat >"$T/ev.f" <<'EOF'
define fileset name=f,path=$dir,entries=1,size=64k,prealloc
define process name=p {
  thread name=t,instances=2 {
    flowop read name=r1,filesetname=f,iosize=4k
    flowop eventlimit name=lim
  }
}
eventgen rate=100
run 2
EOF
run "$FSGAUGE" run "$T/ev.f" -d "$T" --json "$T/ev.json"
check "eventgen: limited by rate limit" [ "$(verdict "$T/ev.json")" = rate_limit ]
check "eventgen: the part and the rate" grep -q '^limited by: rate limit (eventgen): .*eventgen rate 100/s' "$T/out"
check "eventgen: the wait recorded" \
	[ "$(json "$T/ev.json" 'd["phases"][0]["workers"]["rate_wait_seconds"] > 1')" = true ]
run "$FSGAUGE" io --name=j --rw=randread --bs=4k --size=1m --rate_iops=100 --runtime=2 \
	--time_based -d "$T" --ioengine=null --json "$T/rate.json"
check "io --rate_iops: limited by rate limit" [ "$(verdict "$T/rate.json")" = rate_limit ]
check "io --rate_iops: the line in io's text" grep -q "^limited by: rate limit (j.read): .*schedule" "$T/out"

# --- page cache: a small working set read on a device-backed file system ---
fstype=$(stat -f -c %T "$T")
case $fstype in
tmpfs | ramfs) ok "page cache: # SKIP $T is on $fstype" ;;
*)
	run "$FSGAUGE" io --name=c --rw=read --bs=64k --size=4m --runtime=2 --time_based -d "$T" \
		--json "$T/cache.json"
	check "cached reads: the page cache rule holds" \
		[ "$(json "$T/cache.json" "'page_cache' in [r['rule'] for r in $V['rules'] if r['holds']]")" = true ]
	v=$(verdict "$T/cache.json")
	if [ "$v" = page_cache ]; then
		ok "cached reads: limited by page cache"
		check "its evidence is the cache warning" \
			grep -q '^limited by: page cache (reads): reads: ' "$T/out"
	elif [ "$v" = device ] || [ "$v" = sync_latency ]; then
		ok "cached reads: # SKIP another process kept the device busy (verdict $v)"
	elif [ "$v" = fsgauge ] && tsan_build; then
		ok "cached reads: # SKIP ThreadSanitizer build: fsgauge itself is what limits it"
	else
		not_ok "cached reads: limited by page cache (got $v)"
	fi
	;;
esac

# --- undetermined: one thread that sleeps ----------------------------------
cat >"$T/idle.f" <<'EOF'
define process name=p {
  thread name=t,instances=1 {
    flowop delay name=d1,value=0.01
  }
}
run 2
EOF
run "$FSGAUGE" run "$T/idle.f" -d "$T" --json "$T/idle.json"
v=$(verdict "$T/idle.json")
if [ "$v" = undetermined ]; then
	ok "sleeping thread: undetermined"
	check "undetermined names the closest rules" \
		[ "$(json "$T/idle.json" "len($V['closest']) >= 1")" = true ]
	check "the text line gives the closest figures" \
		grep -Eq '^limited by: undetermined: no rule reached its threshold; closest: [a-z ]+ [0-9]+% of its [0-9]+% threshold' "$T/out"
else
	p=$(json "$T/idle.json" "$V['part']")
	case "$v:$p" in
	"cpu:other processes" | device:*) ok "undetermined: # SKIP the machine is busy ($v, $p)" ;;
	*) not_ok "sleeping thread: undetermined (got $v, $p)" ;;
	esac
fi

# --- stored bytes: the allocation figures match the file system -----------
run "$FSGAUGE" io --name=w --rw=write --bs=64k --size=8m -d "$T" --keep --json "$T/st.json"
kept=$(sed -n 's/^kept run directory: //p' "$T/err")
alloc=$(find "$kept" -type f ! -name .fsgauge-run -exec stat -c '%b %B' {} + | awk '{ s += $1 * $2 } END { print s + 0 }')
check "stored: the files' allocation as stat sees it" \
	[ "$(json "$T/st.json" 'd["phases"][0]["stored"]["allocated_bytes"]')" = "$alloc" ]
check "stored: a fully written file is not flagged" \
	[ "$(json "$T/st.json" 'd["phases"][0]["stored"]["reduced"]')" = false ]
check "stored: no warning line" sh -c "! grep -q 'stored [0-9]*% of the bytes' '$T/out'"
rm -rf "$kept"

# --- too fast: no verdict ---------------------------------------------------
run "$FSGAUGE" run varmail -d "$T" -t 0.1 --json "$T/fast.json"
check "a too-fast phase: undetermined, said why" \
	grep -q '^limited by: undetermined: the phase was too fast to measure' "$T/out"

# --- bonnie and iozone: the lines on stderr, their own text untouched -------
# (none under -q / --quiet, as run -q prints nothing on stderr; the JSON
# keeps them)
run "$FSGAUGE" bonnie -d "$T" -s 8M -r 4 -n 0
check "bonnie: one line per phase on stderr" grep -q '^phase put_block: limited by: ' "$T/err"
check "bonnie: none on stdout" sh -c "! grep -q 'limited by' '$T/out'"
run "$FSGAUGE" bonnie -d "$T" -s 8M -r 4 -n 0 -q --json "$T/bq.json"
check "bonnie -q: no line on stderr or stdout" sh -c \
	"[ $rc -eq 0 ] && ! grep -q 'limited by' '$T/err' '$T/out'"
check "bonnie -q: the table still on stderr" grep -q '^Version' "$T/err"
check "bonnie -q: the verdicts in the JSON" \
	[ "$(json "$T/bq.json" 'all("limited_by" in p for p in d["phases"])')" = true ]
run "$FSGAUGE" iozone -s 64k -r 4k -i 0 --dir "$T"
check "iozone: one line per phase on stderr" grep -q '^phase write 64k 4k: limited by: ' "$T/err"
check "iozone: none on stdout" sh -c "! grep -q 'limited by' '$T/out'"
run "$FSGAUGE" iozone -s 64k -r 4k -i 0 --dir "$T" --quiet --json "$T/iq.json"
check "iozone --quiet: nothing on stderr, no line on stdout" sh -c \
	"[ $rc -eq 0 ] && [ ! -s '$T/err' ] && ! grep -q 'limited by' '$T/out'"
check "iozone --quiet: the verdicts in the JSON" \
	[ "$(json "$T/iq.json" 'all("limited_by" in p for p in d["phases"])')" = true ]

# --- flush plausibility: fsyncs on the test directory's file system -------
# (whether they are judged depends on the disk under $T: the invariants)
run "$FSGAUGE" io --name=f --rw=write --bs=4k --size=1m --fsync=1 --runtime=1 --time_based \
	-d "$T" --json "$T/flush.json"
F="$V['flush']"
check "flush: the check recorded for the fsyncs" \
	[ "$(json "$T/flush.json" "$F['operation'] == 'f.fsync' and $F['calls'] > 0 and $F['p50_us'] > 0 and $F['bound_us'] == 1000")" = true ]
check "flush: a warning only when judged implausible, and then in the line" \
	[ "$(json "$T/flush.json" "($F['warning'] is None) != $F['implausible'] and (not $F['implausible'] or $F['judged'] and $F['p50_us'] < 1000 and 'volatile write cache' in $V['text'])")" = true ]
case $(json "$T/flush.json" "$F['judged']"):$(json "$T/flush.json" "$F['implausible']") in
true:false) check "flush: a plausible flush is no warning in the text" sh -c "! grep -q 'implausible flushes' '$T/out'" ;;
true:true) check "flush: the warning in the text" grep -q '^limited by: .*; implausible flushes: p50 fsync [0-9]* us on rotational ' "$T/out" ;;
*) check "flush: not judged, said why" [ "$(json "$T/flush.json" "$F['evidence'].startswith('not judged: ')")" = true ] ;;
esac
check "flush: null without a synchronous operation" [ "$(json "$T/rate.json" "$F is None")" = true ]

# --- synchronous latency: varmail's fsyncs on a loop-mounted ext4 (root) ----
if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null 2>&1; then
	ok "sync latency: # SKIP needs root and mkfs.ext4"
else
	img="$T/ext4.img" mnt="$T/ext4"
	mkdir "$mnt"
	if truncate -s 256M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 &&
		mount -o loop "$img" "$mnt" 2>/dev/null; then
		trap 'umount "$mnt" 2>/dev/null || umount -l "$mnt"; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
		run "$FSGAUGE" run varmail -d "$mnt" -t 3 -s nthreads=4 --json "$T/sync.json"
		check "varmail on ext4: limited by synchronous latency" \
			[ "$(verdict "$T/sync.json")" = sync_latency ]
		check "the line names the fsync and its p50" \
			grep -Eq '^limited by: synchronous latency \(fsyncfile[0-9]\): the workers spent [0-9]+% of their time in synchronous operations; most in fsyncfile[0-9] \(fsync: [0-9]+ calls, p50 [0-9.]+ ms' "$T/out"
		# the devices' flush requests (/proc/diskstats, kernel 5.5+) beside
		# the fsyncs: the rule's figures are the phase's device counters
		S="[r for r in $V['rules'] if r['rule']=='sync_latency'][0]"
		if [ "$(json "$T/sync.json" "d['phases'][0]['device']['flushes'] is None")" = true ]; then
			ok "sync latency: the devices' flushes # SKIP this kernel's /proc/diskstats has no flush fields"
		else
			check "the devices' flush requests are counted: the fsyncs reached the loop device" \
				[ "$(json "$T/sync.json" "d['phases'][0]['device']['flushes'] > 0 and d['phases'][0]['device']['flush_ms'] >= 0")" = true ]
			check "the synchronous rule's flush figures are the device's" \
				[ "$(json "$T/sync.json" "(lambda f, dv, s: f['device_flushes'] == dv['flushes'] and abs(f['device_flushes_per_second'] - dv['flushes'] / s) < 1e-6 and abs(f['device_flush_ms'] - dv['flush_ms'] / dv['flushes']) < 1e-6)($S['figures'], d['phases'][0]['device'], d['phases'][0]['seconds'])")" = true ]
			check "the line gives the device's flush rate" \
				grep -Eq '^limited by: synchronous latency .*; loop[0-9]+: [0-9]+ flush requests \([0-9.]+/s, [0-9.]+ ms each\)' "$T/out"
		fi
		check "fsync operations are marked sync in the JSON" \
			[ "$(json "$T/sync.json" "all(o['sync'] for o in d['phases'][0]['operations'] if o['type']=='fsync')")" = true ]
		check "flushes on a loop device: not judged, the class said" \
			[ "$(json "$T/sync.json" "$V['flush']['judged'] is False and ' is loop, not a rotating disk' in $V['flush']['evidence']")" = true ]
		umount "$mnt"
		trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	else
		ok "sync latency: # SKIP cannot loop-mount ext4"
	fi
fi

finish
