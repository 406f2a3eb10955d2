#!/bin/sh
# Engine capabilities in the front ends: a diskless engine (null, alone or
# wrapped by faulty) needs no free space, so the space preflight of run,
# iozone, bonnie and untar lets through on it what it refuses on psync;
# and nothing is left behind.  A 2 MiB tmpfs stands for a full disk.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to mount a small tmpfs"
s="$T/small"
mkdir "$s"
mount -t tmpfs -o size=2m fsgauge-caps "$s" 2>/dev/null || skip_all "cannot mount a tmpfs"
trap 'umount "$s" 2>/dev/null; rm -rf "$T"' EXIT

# suite NAME: the command line of suite NAME against $s, without --engine;
# each needs more than the 2 MiB of $s (16, 4, 8 and 234 MiB)
suite() {
	case $1 in
	run) echo "$FSGAUGE run varmail -q -d $s -s nfiles=20 -s filesize=1m -t 0.2" ;;
	iozone) echo "$FSGAUGE iozone -s 4m -r 1m -i 0 --dir $s" ;;
	bonnie) echo "$FSGAUGE bonnie -r 0 -s 8 -n 0 -d $s" ;;
	untar) echo "$FSGAUGE untar --synthetic small -d $s --copies 4 --jobs 2 --then rm" ;;
	esac
}

for name in run iozone bonnie untar; do
	# shellcheck disable=SC2046 # the command line is split on purpose
	expect_fail "$name on psync: refused for space, exit 2" 2 "^fsgauge: not enough free space for " \
		$(suite $name) --engine psync
	check "  nothing created" empty_dir "$s"
	for eng in null faulty:null faulty:null:op=write,nth=1000000; do
		# shellcheck disable=SC2046
		run $(suite $name) --engine "$eng"
		check "$name on $eng (diskless): no space needed, exit 0" [ "$rc" -eq 0 ]
		check "  no space preflight message" sh -c "! grep -q 'not enough free space' '$T/err'"
		check "  nothing left behind" empty_dir "$s"
	done
done

finish
