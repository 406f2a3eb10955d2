#!/bin/sh
# fsgauge-test: serial (sets kernel.io_uring_disabled, which every io_uring run of the machine sees)
# A kernel that refuses io_uring (docs/io.md, "Options", ioengine): with
# /proc/sys/kernel/io_uring_disabled at 2 (io_uring_setup refused to
# every process), fsgauge io on io_uring, plain and with sqthread_poll,
# registerfiles, fixedbufs or a queue depth, through faulty:io_uring and
# from a job file, and fsgauge run and bonnie with --engine io_uring,
# stop before the run: exit 3, the engine's message naming the sysctl,
# no result, nothing left in the target; psync still runs.  At 1, a user
# without CAP_SYS_ADMIN gets the same with "is 1".  The old value is put
# back however the test ends.
. "$(dirname "$0")/lib.sh"

knob=/proc/sys/kernel/io_uring_disabled
[ -f "$knob" ] || skip_all "no $knob (a kernel before Linux 6.6)"
hold_sysctl "$knob" io_uring

d="$T/target"
mkdir "$d"
# (io_uring as the kernel had it: the last check runs it again)
worked=0
"$FSGAUGE" io --ioengine=io_uring --size=64k -d "$d" -q >/dev/null 2>&1 && worked=1

# message VALUE: the whole of stderr when the sysctl at VALUE refuses io_uring
message() {
	echo "fsgauge: cannot start engine 'io_uring' (the kernel refused io_uring_setup: kernel.io_uring_disabled is $1): Operation not permitted"
}

# refused DESC VALUE COMMAND...: COMMAND exits 3 and prints only the
# engine's message with the sysctl at VALUE; no result, nothing left
refused() {
	what=$1 v=$2
	shift 2
	rm -f "$T/j.json"
	run "$@" --json "$T/j.json"
	if [ "$rc" = 3 ] && [ "$(cat "$T/err")" = "$(message "$v")" ] && [ ! -e "$T/j.json" ] &&
		empty_dir "$d"; then
		ok "$what: exit 3, the message naming the sysctl, no result, nothing left"
	else
		not_ok "$what: exit 3, the message naming the sysctl, no result, nothing left"
		echo "#   exit $rc; stderr:"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}

echo 2 >"$knob"
check "the sysctl set to 2" [ "$(cat "$knob")" = 2 ]
for opts in "" "--sqthread_poll=1" "--sqthread_poll=1 --sqthread_poll_cpu=0" "--registerfiles=1" \
	"--fixedbufs=1" "--iodepth=8"; do
	# shellcheck disable=SC2086
	refused "io --ioengine=io_uring${opts:+ $opts}" 2 "$FSGAUGE" io --ioengine=io_uring --rw=write --bs=4k \
		--size=64k $opts -d "$d" -q
done
refused "io --ioengine=faulty:io_uring:op=write,nth=5,err=EIO" 2 \
	"$FSGAUGE" io --ioengine=faulty:io_uring:op=write,nth=5,err=EIO --size=64k -d "$d" -q
printf '[w]\nioengine=io_uring\nrw=randwrite\nbs=4k\nsize=64k\n' >"$T/w.fio"
refused "io with a job file's ioengine=io_uring" 2 "$FSGAUGE" io "$T/w.fio" -d "$d" -q
refused "run varmail --engine io_uring" 2 "$FSGAUGE" run varmail -t 1 --engine io_uring -d "$d" -q
refused "bonnie --engine io_uring" 2 "$FSGAUGE" bonnie -r 0 -s 8 -n 0 --engine io_uring -d "$d" -q \
	</dev/null
run "$FSGAUGE" io --ioengine=psync --rw=write --bs=4k --size=64k -d "$d" -q
[ "$rc" = 0 ] && empty_dir "$d"
checked "psync still runs (exit 0), nothing left"

# 1: refused to a user without CAP_SYS_ADMIN (outside kernel.io_uring_group)
u="$T/user"
mkdir "$u"
chmod 711 "$T"
chown 65534:65534 "$u"
if command -v setpriv >/dev/null && nobody_reaches "$FSGAUGE" "$u"; then
	echo 1 >"$knob"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$FSGAUGE" io --ioengine=io_uring \
		--size=64k -d "$u" -q
	[ "$rc" = 3 ] && [ "$(cat "$T/err")" = "$(message 1)" ] && empty_dir "$u"
	checked "at 1, as uid 65534: exit 3, the message naming the sysctl, nothing left"
else
	ok "at 1, as uid 65534: # SKIP needs setpriv and a tree uid 65534 can reach"
fi
chmod 700 "$T"

echo "$old" >"$knob"
check "the old value ($old) back" [ "$(cat "$knob")" = "$old" ]
if [ "$worked" = 1 ]; then
	run "$FSGAUGE" io --ioengine=io_uring --size=64k -d "$d" -q
	check "io_uring runs again (exit 0)" [ "$rc" = 0 ]
else
	ok "io_uring runs again: # SKIP it did not run before the test either"
fi
check "nothing left in the target" empty_dir "$d"

finish
