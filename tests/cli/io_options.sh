#!/bin/sh
# fsgauge io (issue 19): fio's fadvise_hint, invalidate and
# iodepth_batch_complete_min/_max, and io_uring's sqthread_poll,
# sqthread_poll_cpu, registerfiles and fixedbufs (docs/io.md).  Each parsed in both spellings and in
# a job file, each bad value refused (exit 2, message), and each
# honoured: the posix_fadvise calls seen by strace, the device reads an
# invalidated file costs, the completions a wait may take
# (iodepth.reap_calls in the result), the minimum libaio's io_getevents
# is asked for, the flags of the rings io_uring_setup makes and the
# files and buffers io_uring_register puts in their tables.
. "$(dirname "$0")/lib.sh"

engines=$("$FSGAUGE" --version | sed -n 's/^engines: //p')
FX="$(dirname "$0")/../fixtures/fio"
d="$T/target"
mkdir "$d"
F="$FSGAUGE io --name=j --bs=4k --size=1m -d $d -q"
have_strace=0
# LeakSanitizer cannot run under ptrace: off for the runs under strace
nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null && have_strace=1

# advice ARGS...: the posix_fadvise calls of an io run, "ADVICE ..." in
# order (strace's names), into $adv; the run's exit status in $rc
advice() {
	env "$nolsan" strace -f -qq -e trace=fadvise64 -o "$T/strace" $F "$@" >"$T/out" 2>"$T/err"
	rc=$?
	adv=$(sed -n 's/.*fadvise64([0-9]*, 0, 0, POSIX_FADV_\([A-Z]*\).*/\1/p' "$T/strace" | tr '\n' ' ')
	adv=${adv% }
}

# --- fadvise_hint and invalidate -----------------------------------------
if [ "$have_strace" = 1 ]; then
	advice --rw=read
	[ "$rc" = 0 ] && [ -z "$adv" ]
	checked "default: no posix_fadvise (fsgauge's defaults are 0)"
	advice --rw=read --fadvise_hint=1
	check "fadvise_hint=1, rw=read: SEQUENTIAL once" [ "$rc $adv" = "0 SEQUENTIAL" ]
	advice --rw=randread --fadvise_hint 1
	check "fadvise_hint 1 (spaced), rw=randread: RANDOM" [ "$rc $adv" = "0 RANDOM" ]
	advice --rw=randrw --fadvise_hint=1
	check "fadvise_hint=1, rw=randrw: RANDOM" [ "$rc $adv" = "0 RANDOM" ]
	advice --rw=randread --fadvise_hint=sequential
	check "fadvise_hint=sequential on randread: SEQUENTIAL" [ "$rc $adv" = "0 SEQUENTIAL" ]
	advice --rw=write --fadvise_hint random
	check "fadvise_hint random on a write job: RANDOM" [ "$rc $adv" = "0 RANDOM" ]
	advice --rw=read --fadvise_hint=noreuse
	check "fadvise_hint=noreuse: NOREUSE" [ "$rc $adv" = "0 NOREUSE" ]
	advice --rw=read --fadvise_hint=0
	[ "$rc" = 0 ] && [ -z "$adv" ]
	checked "fadvise_hint=0: none"
	advice --rw=read --invalidate
	check "invalidate (bare): DONTNEED" [ "$rc $adv" = "0 DONTNEED" ]
	advice --rw=randread --invalidate=1 --fadvise_hint=1
	check "invalidate=1 with fadvise_hint=1: DONTNEED, then RANDOM" [ "$rc $adv" = "0 DONTNEED RANDOM" ]
	advice --rw=read --invalidate=0 --numjobs=2 --fadvise_hint=1
	check "numjobs=2: one advice per clone's file" [ "$rc $adv" = "0 SEQUENTIAL SEQUENTIAL" ]
	advice --rw=read --nrfiles=3 --fadvise_hint=random
	check "nrfiles=3: one advice per file opened" [ "$rc $adv" = "0 RANDOM RANDOM RANDOM" ]
	# each request on the next file, one open at a time: every open
	# drops the file's pages, as fio's (512 requests, 512 opens)
	advice --rw=read --nrfiles=3 --openfiles=1 --io_size=2m --invalidate=1
	[ "$rc" = 0 ] && [ "$(echo $adv | wc -w)" = 512 ] && [ -z "$(echo $adv | tr ' ' '\n' | grep -vx DONTNEED)" ]
	checked "nrfiles=3, openfiles=1: every open invalidates ($(echo $adv | wc -w) of 512)"
	env "$nolsan" strace -f -qq -e trace=sync_file_range -o "$T/strace" $F --rw=read --nrfiles=3 --openfiles=1 \
		--io_size=2m --invalidate=1 >/dev/null 2>&1
	check "  the dirty pages written back at each file's first open only (3)" \
		[ "$(grep -c 'sync_file_range(' "$T/strace")" = 3 ]
	advice --rw=read --ioengine=null --fadvise_hint=1 --invalidate=1
	[ "$rc" = 0 ] && [ -z "$adv" ]
	checked "null engine: no file, no advice"
else
	ok "# SKIP strace is not available: the posix_fadvise calls are not checked"
fi

run $F --rw=randread --fadvise_hint=random --invalidate=1 --json "$T/j.json"
check "recorded: job.j.fadvise_hint, job.j.invalidate" \
	[ "$rc $(json "$T/j.json" "d['parameters']['job.j.fadvise_hint'] + ' ' + d['parameters']['job.j.invalidate']")" = "0 random 1" ]
check "  nothing left" empty_dir "$d"

# invalidate for real: the file the job reads was just laid out (in the
# page cache); invalidated, its reads reach the device
fstype=$(stat -f -c %T "$d")
if [ "$fstype" = tmpfs ] || [ "$fstype" = ramfs ]; then
	ok "# SKIP $fstype holds its files in memory: no device reads to count"
else
	devread() {
		json "$T/j.json" "d['phases'][0]['device']['bytes_read'] if d['phases'][0]['device']['devices'] else -1"
	}
	run $FSGAUGE io --name=j --rw=read --bs=64k --size=16m -d "$d" -q --json "$T/j.json"
	cached=$(devread)
	run $FSGAUGE io --name=j --rw=read --bs=64k --size=16m --invalidate=1 -d "$d" -q --json "$T/j.json"
	dropped=$(devread)
	if [ "$cached" = -1 ]; then
		ok "# SKIP no device counters under $d"
	else
		check "without invalidate the laid-out file is read from memory ($cached bytes from the device)" \
			[ "$cached" -lt 16777216 ]
		check "with invalidate=1 it is read from the device ($dropped bytes >= 16 MiB)" \
			[ "$dropped" -ge 16777216 ]
	fi
fi

# --- iodepth_batch_complete_min / _max -----------------------------------
# reapstat: "OPS REAP_CALLS" of j.read
reapstat() {
	json "$T/j.json" "' '.join('%d %d' % (o['ops'], o['iodepth']['reap_calls']) for o in d['phases'][0]['operations'] if o['name'] == 'j.read')"
}
for e in io_uring libaio; do
	case " $engines " in
	*" $e "*) ;;
	*)
		ok "# SKIP $e is not built in"
		continue
		;;
	esac
	# each wait takes at most max: ops <= reap_calls * max + the last
	# drain (at most iodepth)
	run $FSGAUGE io --name=j --rw=randread --bs=4k --size=4m --ioengine=$e --iodepth=32 \
		--iodepth_batch_submit=32 --iodepth_batch_complete_max=4 -d "$d" -q --json "$T/j.json"
	set -- $(reapstat)
	[ "$rc" = 0 ] && [ "$1" = 1024 ] && [ "$1" -le $(($2 * 4 + 32)) ]
	checked "$e iodepth_batch_complete_max=4: each wait takes at most 4 ($1 ops, $2 waits)"
	run $FSGAUGE io --name=j --rw=randread --bs=4k --size=4m --ioengine=$e --iodepth=32 \
		--iodepth_batch_complete_min 2 --iodepth_batch_complete_max 2 -d "$d" -q --json "$T/j.json"
	set -- $(reapstat)
	[ "$rc" = 0 ] && [ "$1" = 1024 ] && [ "$1" -le $(($2 * 2 + 32)) ] && [ "$1" -ge $(($2 * 2)) ]
	checked "$e min=max=2 (spaced): waits take 2 ($1 ops, $2 waits)"
	run $FSGAUGE io --name=j --rw=randread --bs=4k --size=4m --ioengine=$e --iodepth=32 \
		--iodepth_batch_complete=16 -d "$d" -q --json "$T/j.json"
	set -- $(reapstat)
	[ "$rc" = 0 ] && [ "$1" = 1024 ] && [ "$1" -ge $((($2 - 1) * 16)) ]
	checked "$e iodepth_batch_complete=16: each wait at least 16 ($1 ops, $2 waits)"
	check "  recorded" [ "$(json "$T/j.json" "d['parameters']['job.j.iodepth_batch_complete_min']")" = 16 ]
done

# libaio hands the minimum to the kernel: io_getevents(ctx, MIN, ...)
case " $engines " in
*" libaio "*)
	if [ "$have_strace" = 1 ]; then
		for m in 1 12; do
			env "$nolsan" strace -f -qq -e trace=io_getevents -o "$T/strace" $FSGAUGE io --name=j --rw=randread \
				--bs=4k --size=4m --ioengine=libaio --iodepth=32 --iodepth_batch_submit=32 \
				--iodepth_batch_complete_min=$m -d "$d" -q >/dev/null 2>&1
			# the waits of the passes (32 in flight), not the last drain's
			mins=$(sed -n 's/.*io_getevents([0-9a-fx]*, \([0-9]*\), 32,.*/\1/p' "$T/strace" | sort -u | tr '\n' ' ')
			check "libaio iodepth_batch_complete_min=$m: io_getevents asks for $m (saw: $mins)" \
				[ "$mins" = "$m " ]
		done
	else
		ok "# SKIP strace is not available"
	fi
	;;
*) ok "# SKIP libaio is not built in" ;;
esac

# --- io_uring's sqthread_poll, sqthread_poll_cpu, registerfiles, fixedbufs ----
# jops JOB: "OPS BYTES" of JOB's requests in phase P (default 0)
jops() {
	json "$T/j.json" "' '.join('%d %d' % (o['ops'], o['bytes_read'] + o['bytes_written']) for o in d['phases'][${2:-0}]['operations'] if o['name'] == '$1')"
}
# setups: the io_uring_setup calls of a traced run that made a ring
# with IORING_SETUP_SQPOLL, and those that made one without it
setups() {
	sq=$(grep -c 'io_uring_setup(.*IORING_SETUP_SQPOLL.*) = [0-9]' "$T/strace")
	plain=$(grep 'io_uring_setup(.*) = [0-9]' "$T/strace" | grep -vc IORING_SETUP_SQPOLL)
}
case " $engines " in
*" io_uring "*)
	run $F --rw=randread --ioengine=io_uring --iodepth=8 --sqthread_poll --json "$T/j.json"
	if [ "$rc" = 3 ] && grep -q "refused IORING_SETUP_SQPOLL" "$T/err"; then
		ok "# SKIP the kernel refuses IORING_SETUP_SQPOLL here: $(head -1 "$T/err")"
	else
		check "sqthread_poll (bare), randread at depth 8: 256 reads of 4k" \
			[ "$rc/$(jops j.read)" = "0/256 1048576" ]
		check "  recorded: job.j.sqthread_poll" \
			[ "$(json "$T/j.json" "d['parameters'].get('job.j.sqthread_poll')")" = 1 ]
		run $F --rw=write --ioengine=io_uring --iodepth=4 --sqthread_poll=1 --sqthread_poll_cpu 1 \
			--numjobs=2 --json "$T/j.json"
		check "sqthread_poll=1 sqthread_poll_cpu 1 (spaced), 2 clones writing: 2 x 256 writes of 4k" \
			[ "$rc/$(jops j.write)" = "0/512 2097152" ]
		check "  recorded: job.j.sqthread_poll_cpu" \
			[ "$(json "$T/j.json" "d['parameters'].get('job.j.sqthread_poll_cpu')")" = 1 ]
		if [ "$have_strace" = 1 ]; then
			env "$nolsan" strace -f -qq -e trace=io_uring_setup -o "$T/strace" $F --rw=randread \
				--ioengine=io_uring --iodepth=8 --numjobs=2 --sqthread_poll --sqthread_poll_cpu=0 \
				>/dev/null 2>&1
			setups
			# a ring per clone and the check before the run; the layout's
			# rings (the file laid out for the reads) are plain
			check "strace: numjobs=2: 3 rings with SQPOLL (2 clones + the check before the run; saw $sq)" \
				[ "$sq" = 3 ]
			check "  each bound to CPU 0 (IORING_SETUP_SQ_AFF, sq_thread_cpu=0)" \
				[ "$(grep 'io_uring_setup(.*IORING_SETUP_SQPOLL.*) = [0-9]' "$T/strace" | grep -c 'IORING_SETUP_SQ_AFF.*sq_thread_cpu=0,')" = 3 ]
			env "$nolsan" strace -f -qq -e trace=io_uring_setup -o "$T/strace" $F --rw=randread \
				--ioengine=io_uring --iodepth=8 --numjobs=2 >/dev/null 2>&1
			setups
			[ "$sq" = 0 ] && [ "$plain" -ge 2 ]
			checked "  without it: no ring with SQPOLL ($plain without)"
		else
			ok "# SKIP strace is not available: the rings' flags are not checked"
		fi
		run "$FSGAUGE" io "$FX/uring.fio" -d "$d" -q --json "$T/j.json"
		check "uring.fio: 2 clones x 64 reads, then 64 writes, polled, files and buffers registered" \
			[ "$rc/$(jops polled.read)/$(jops pwrite.write 1)" = "0/128 524288/64 262144" ]
		check "  recorded for both jobs" \
			[ "$(json "$T/j.json" "[d['parameters'].get('job.' + k) for k in ('polled.sqthread_poll', 'pwrite.sqthread_poll_cpu', 'polled.registerfiles', 'pwrite.fixedbufs')]")" = "['1', '0', '1', '1']" ]
	fi

	# registerfiles: a table per clone's ring, each file's descriptor put
	# in a slot when it is opened and taken out when it is closed
	run $F --rw=randread --ioengine=io_uring --iodepth=8 --registerfiles --numjobs=2 --json "$T/j.json"
	check "registerfiles (bare), 2 clones at depth 8: 2 x 256 reads of 4k" \
		[ "$rc/$(jops j.read)" = "0/512 2097152" ]
	check "  recorded: job.j.registerfiles" \
		[ "$(json "$T/j.json" "d['parameters'].get('job.j.registerfiles')")" = 1 ]
	run $F --rw=write --ioengine=io_uring --iodepth=4 --registerfiles=1 --nrfiles=4 --json "$T/j.json"
	check "registerfiles=1, nrfiles=4 written round robin: 256 writes of 4k" \
		[ "$rc/$(jops j.write)" = "0/256 1048576" ]
	if [ "$have_strace" = 1 ]; then
		# regs: the tables made (IORING_REGISTER_FILES, every slot
		# empty), the descriptors put in a slot and the slots emptied
		# (the calls, as strace shows their arguments: with -f, a call
		# may be cut in two lines, its result on the second)
		regs() {
			tables=$(grep -c 'IORING_REGISTER_FILES, \[-1' "$T/strace")
			puts=$(grep -c 'IORING_REGISTER_FILES_UPDATE, {offset=[0-9]*, fds=\[[0-9]' "$T/strace")
			empties=$(grep -c 'IORING_REGISTER_FILES_UPDATE, {offset=[0-9]*, fds=\[-1\]' "$T/strace")
		}
		env "$nolsan" strace -f -qq -e trace=io_uring_register -o "$T/strace" $F --rw=randread \
			--ioengine=io_uring --iodepth=8 --numjobs=2 --registerfiles >/dev/null 2>&1
		regs
		check "strace: numjobs=2: 3 tables (2 clones + the check), 2 files put in, 2 taken out (saw $tables, $puts, $empties)" \
			[ "$tables/$puts/$empties" = "3/2/2" ]
		env "$nolsan" strace -f -qq -e trace=io_uring_register -o "$T/strace" $F --rw=read \
			--ioengine=io_uring --iodepth=8 --nrfiles=4 --registerfiles >/dev/null 2>&1
		regs
		check "  nrfiles=4: the clone's 4 files put in and taken out (saw $tables, $puts, $empties)" \
			[ "$tables/$puts/$empties" = "2/4/4" ]
		env "$nolsan" strace -f -qq -e trace=io_uring_register -o "$T/strace" $F --rw=randread \
			--ioengine=io_uring --iodepth=8 >/dev/null 2>&1
		check "  without it: no io_uring_register call" [ ! -s "$T/strace" ]
	else
		ok "# SKIP strace is not available: the registrations are not checked"
	fi

	# fixedbufs: a table of buffers per clone's ring, the clone's buffer
	# in slot 0 and each request's buffer of the queue in its own slot
	for dep in 1 8; do
		run $F --rw=randread --ioengine=io_uring --iodepth=$dep --fixedbufs --numjobs=2 --json "$T/j.json"
		check "fixedbufs (bare), iodepth=$dep, 2 clones: 2 x 256 reads of 4k" \
			[ "$rc/$(jops j.read)" = "0/512 2097152" ]
	done
	check "  recorded: job.j.fixedbufs" [ "$(json "$T/j.json" "d['parameters'].get('job.j.fixedbufs')")" = 1 ]
	run $F --rw=randwrite --ioengine=io_uring --iodepth=8 --fixedbufs=1 --bsrange=4k-16k --json "$T/j.json"
	[ "$rc" = 0 ] && [ "$(json "$T/j.json" "1048576 <= sum(o['bytes_written'] for o in d['phases'][0]['operations'] if o['name'] == 'j.write') < 1048576 + 16384")" = true ]
	checked "fixedbufs=1, bsrange 4k-16k at depth 8: writes cover the 1m (at most one request over)"
	if [ "$have_strace" = 1 ]; then
		# bufs: the tables made (IORING_REGISTER_BUFFERS, every slot
		# empty) and the buffers put in their slots
		bufs() {
			tables=$(grep -c 'IORING_REGISTER_BUFFERS, \[{iov_base=NULL' "$T/strace")
			puts=$(grep -c 'IORING_REGISTER_BUFFERS_UPDATE, {offset=[0-9]*, data=\[{iov_base=0x' "$T/strace")
			slots=$(grep -o 'IORING_REGISTER_BUFFERS, \[.*\], [0-9]*' "$T/strace" | sed 's/.*, //' | sort -n | tail -1)
		}
		env "$nolsan" strace -f -qq -e trace=io_uring_register -o "$T/strace" $F --rw=randread \
			--ioengine=io_uring --iodepth=8 --numjobs=2 --fixedbufs >/dev/null 2>&1
		bufs
		check "strace: numjobs=2 at depth 8: 3 tables (2 clones + the check) of at most 9 slots, 2 x 9 buffers put in (saw $tables, $slots, $puts)" \
			[ "$tables/$slots/$puts" = "3/9/18" ]
		env "$nolsan" strace -f -qq -e trace=io_uring_register -o "$T/strace" $F --rw=read \
			--ioengine=io_uring --fixedbufs >/dev/null 2>&1
		bufs
		check "  iodepth=1: the clone's buffer alone (saw $tables, $slots, $puts)" [ "$tables/$slots/$puts" = "2/1/1" ]
	else
		ok "# SKIP strace is not available: the buffers' registrations are not checked"
	fi
	expect_fail "sqthread_poll_cpu without sqthread_poll" 2 \
		"job 'j': sqthread_poll_cpu needs sqthread_poll=1" $F --ioengine=io_uring --sqthread_poll_cpu=0
	expect_fail "sqthread_poll_cpu past the machine's CPUs" 2 \
		"job 'j': sqthread_poll_cpu=100000: this machine's CPUs are 0 to" \
		$F --ioengine=io_uring --sqthread_poll --sqthread_poll_cpu=100000
	expect_fail "jobs that differ in fixedbufs" 2 \
		"jobs 'a' and 'b' differ in fixedbufs" \
		$FSGAUGE io --bs=4k --size=1m --ioengine=io_uring -d "$d" -q --name=a --fixedbufs --name=b --fixedbufs=0
	expect_fail "jobs that differ in registerfiles" 2 \
		"jobs 'a' and 'b' differ in registerfiles" \
		$FSGAUGE io --bs=4k --size=1m --ioengine=io_uring -d "$d" -q --name=a --name=b --registerfiles=1
	expect_fail "jobs that differ in sqthread_poll" 2 \
		"jobs 'a' and 'b' differ in sqthread_poll or sqthread_poll_cpu" \
		$FSGAUGE io --bs=4k --size=1m --ioengine=io_uring -d "$d" -q --name=a --sqthread_poll --name=b
	;;
*) ok "# SKIP io_uring is not built in" ;;
esac
for e in psync sync libaio null filestat; do
	case $e in libaio) case " $engines " in *" libaio "*) ;; *) continue ;; esac ;; esac
	for o in sqthread_poll registerfiles fixedbufs; do
		expect_fail "$o with ioengine=$e" 2 \
			"job 'j': $o applies to ioengine=io_uring, not $e \\(docs/io.md\\)" \
			$F --ioengine=$e --$o
	done
done
expect_fail "sqthread_poll_cpu with ioengine=psync" 2 \
	"job 'j': sqthread_poll_cpu applies to ioengine=io_uring, not " $F --ioengine=psync --sqthread_poll_cpu=0
printf '[j]\nrw=read\nsize=1m\nsqthread_poll=1\n' >"$T/bad.fio"
expect_fail "job file: sqthread_poll on psync (the default engine)" 2 \
	"job 'j': sqthread_poll applies to ioengine=io_uring, not psync" "$FSGAUGE" io "$T/bad.fio" -d "$d" -q
expect_fail "sqthread_poll=maybe: invalid" 2 "invalid sqthread_poll 'maybe' \\(expected 0 or 1\\)" \
	$F --ioengine=io_uring --sqthread_poll=maybe
check "nothing left after the io_uring options" empty_dir "$d"

# --- job files ---------------------------------------------------------------
cat >"$T/o.fio" <<EOF
[global]
bs=4k
size=1m
fadvise_hint=random
invalidate=1

[j]
rw=randread
ioengine=null
iodepth=8
iodepth_batch_complete_min=2
iodepth_batch_complete_max=4
EOF
run "$FSGAUGE" io "$T/o.fio" -d "$d" -q --json "$T/j.json"
check "job file: the keys taken (exit 0)" [ "$rc" = 0 ]
check "  recorded" [ "$(json "$T/j.json" "' '.join(d['parameters'][k] for k in ('job.j.fadvise_hint', 'job.j.invalidate'))")" = "random 1" ]
printf '[j]\nrw=read\nsize=1m\nfadvise_hint=maybe\n' >"$T/bad.fio"
expect_fail "job file: a bad fadvise_hint names its line" 2 \
	"bad.fio:4: invalid fadvise_hint 'maybe' \(expected 0, 1, sequential, random or noreuse\)" \
	"$FSGAUGE" io "$T/bad.fio" -d "$d" -q
printf '[j]\nrw=read\nsize=1m\nioengine=libaio\niodepth=4\niodepth_batch_complete_max=8\n' >"$T/bad.fio"
expect_fail "job file: iodepth_batch_complete_max above iodepth" 2 \
	"job 'j': iodepth_batch_complete_max=8 is above iodepth=4" "$FSGAUGE" io "$T/bad.fio" -d "$d" -q

# --- refusals ----------------------------------------------------------------
expect_fail "fadvise_hint=2: invalid" 2 \
	"invalid fadvise_hint '2' \(expected 0, 1, sequential, random or noreuse\)" $F --fadvise_hint=2
expect_fail "fadvise_hint without a value" 2 "option '--fadvise_hint' needs an argument" $F --fadvise_hint
expect_fail "invalidate=maybe: invalid" 2 "invalid invalidate 'maybe' \(expected 0 or 1\)" $F --invalidate=maybe
expect_fail "invalidate with a file engine" 2 \
	"job 'j': ioengine=filecreate with invalidate is not supported by fsgauge io" \
	$F --ioengine=filecreate --invalidate=1
expect_fail "fadvise_hint with a file engine" 2 \
	"job 'j': ioengine=filestat with fadvise_hint is not supported by fsgauge io" \
	$F --ioengine=filestat --fadvise_hint=1
expect_fail "iodepth_batch_complete_min above iodepth" 2 \
	"job 'j': iodepth_batch_complete_min=16 is above iodepth=8" \
	$F --ioengine=null --iodepth=8 --iodepth_batch_complete_min=16
expect_fail "iodepth_batch_complete (the alias) above iodepth" 2 \
	"job 'j': iodepth_batch_complete_min=2 is above iodepth=1" $F --iodepth_batch_complete=2
expect_fail "iodepth_batch_complete_max below min" 2 \
	"job 'j': iodepth_batch_complete_max=2 is below iodepth_batch_complete_min=4" \
	$F --ioengine=null --iodepth=8 --iodepth_batch_complete_min=4 --iodepth_batch_complete_max=2
expect_fail "iodepth_batch_complete_max=0: invalid" 2 \
	"invalid iodepth_batch_complete_max '0' \(expected a whole number in range\)" \
	$F --iodepth_batch_complete_max=0
expect_fail "iodepth_batch_complete_min=x: invalid" 2 \
	"invalid iodepth_batch_complete_min 'x'" $F --iodepth_batch_complete_min x
check "nothing left after the refusals" empty_dir "$d"

finish
