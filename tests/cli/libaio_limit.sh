#!/bin/sh
# fsgauge-test: serial (sets fs.aio-max-nr, which every libaio run of the machine sees)
# A system out of AIO contexts (docs/io.md, "Options", ioengine): with
# /proc/sys/fs/aio-max-nr at 0, io_setup(2) refuses every context, and
# fsgauge io on libaio (plain, at a queue depth, from a job file) and
# fsgauge run with --engine libaio stop before the run: exit 3, libaio's
# message naming the sysctl, then the engine's; no result, nothing left
# in the target; psync still runs.  The old value is put back however
# the test ends, and libaio runs again.
. "$(dirname "$0")/lib.sh"

knob=/proc/sys/fs/aio-max-nr
hold_sysctl "$knob" libaio

d="$T/target"
mkdir "$d"
worked=0
"$FSGAUGE" io --ioengine=libaio --size=64k -d "$d" -q >/dev/null 2>&1 && worked=1

want="fsgauge: libaio: the system-wide limit of AIO requests is reached (sysctl fs.aio-max-nr; each thread takes its queue depth)
fsgauge: cannot start engine 'libaio': Resource temporarily unavailable"

# refused DESC COMMAND...: exit 3, the two lines above alone on stderr,
# no result, nothing left
refused() {
	what=$1
	shift
	rm -f "$T/j.json"
	run "$@" --json "$T/j.json"
	if [ "$rc" = 3 ] && [ "$(cat "$T/err")" = "$want" ] && [ ! -e "$T/j.json" ] &&
		empty_dir "$d"; then
		ok "$what: exit 3, the message naming the sysctl, no result, nothing left"
	else
		not_ok "$what: exit 3, the message naming the sysctl, no result, nothing left"
		echo "#   exit $rc; stderr:"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}

echo 0 >"$knob"
check "the sysctl set to 0" [ "$(cat "$knob")" = 0 ]
refused "io, libaio" "$FSGAUGE" io --ioengine=libaio --size=64k -d "$d" -q
refused "io, libaio at iodepth=8" "$FSGAUGE" io --ioengine=libaio --iodepth=8 --direct=0 --size=64k -d "$d" -q
cat >"$T/job.fio" <<'EOF'
[global]
ioengine=libaio
size=64k
[j]
rw=randread
EOF
refused "io, a job file on libaio" "$FSGAUGE" io "$T/job.fio" -d "$d" -q
refused "run varmail --engine libaio" "$FSGAUGE" run varmail --engine libaio -s nfiles=10 -t 1 -d "$d" -q
run "$FSGAUGE" io --ioengine=psync --size=64k -d "$d" -q
check "psync still runs (exit 0), nothing left" sh -c "[ $rc = 0 ] && [ -z \"\$(ls -A '$d')\" ]"

echo "$old" >"$knob"
check "the old value back ($old)" [ "$(cat "$knob")" = "$old" ]
if [ "$worked" = 1 ]; then
	run "$FSGAUGE" io --ioengine=libaio --size=64k -d "$d" -q
	check "libaio runs again (exit 0)" [ "$rc" = 0 ]
else
	ok "libaio runs again # SKIP it did not run before the test either"
fi
finish
