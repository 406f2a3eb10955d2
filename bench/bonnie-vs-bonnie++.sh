#!/bin/sh
# bonnie-vs-bonnie++.sh — run Debian's bonnie++ and `fsgauge bonnie` with
# the same arguments on the same directory, print both tables and the
# ratio fsgauge/bonnie++ of every figure both report.
#
#   bench/bonnie-vs-bonnie++.sh [-d DIR] [-k ROUNDS] [-M MIB] [-c CPUS]
#                               [-L MIB:MBPS[:IOPS]] [-- BONNIE-ARGS...]
#
# Defaults: DIR is $TMPDIR or /tmp, one round, and the arguments
# "-s 4096 -r 0 -n 16 -f": a 4 GiB file, 16*1024 empty files, no
# per-character tests (bonnie++ 1.98 and later write one byte per
# write(2) there, bonnie++ 1.03 and fsgauge use stdio-like buffering, so
# those columns are not comparable).  A round runs bonnie++ then fsgauge;
# with -k N the rounds alternate so that neither always goes first.
# Expect block write, block read and creates within +-15% when both are
# disk-bound; with the file smaller than twice the RAM (-r 0), reads come
# from the page cache and measure memory, not the disk.  -M MIB runs each
# tool in a memory cgroup limited to MIB (root; cgroup v1 memory controller
# or cgroup v2): the page cache the tool can fill is charged to it, so a
# file larger than MIB is read from the device even on a machine with much
# more RAM — both tools disk-bound without a file of twice the RAM.
# -c CPUS pins both tools to those CPUs (taskset list, e.g. 1 or 0-1): on
# a VM whose CPUs differ in speed, an unpinned CPU-bound test (creates on
# tmpfs) measures where the scheduler put each tool as much as the tool.
# -L MIB:MBPS[:IOPS] makes a disk whose speed is known: a loop device on a
# file of MIB MiB (direct I/O to it, in DIR's file system), with ext4, its
# reads and writes throttled to MBPS MB/s (and IOPS operations/s) by the
# block-I/O cgroup controller (v1, root group: writeback included), and
# runs both tools on it (root; removed afterwards).  With -M, so that the
# page cache cannot hold the file, block write, rewrite and block read are
# disk-bound whatever the host does with its own disk.
set -eu
FSGAUGE=${FSGAUGE:-$(dirname "$0")/../fsgauge}
BONNIEPP=${BONNIEPP:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
dir=${TMPDIR:-/tmp}
rounds=1
memlimit=
cpus=
loop=
while [ $# -gt 0 ]; do
	case $1 in
	-d) dir=$2; shift 2 ;;
	-k) rounds=$2; shift 2 ;;
	-M) memlimit=$2; shift 2 ;;
	-c) cpus=$2; shift 2 ;;
	-L) loop=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "usage: $0 [-d DIR] [-k ROUNDS] [-M MIB] [-c CPUS] [-L MIB:MBPS[:IOPS]] [-- BONNIE-ARGS...]" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || set -- -s 4096 -r 0 -n 16 -f
[ -x "$BONNIEPP" ] || { echo "bonnie++ not found (apt-get install bonnie++)" >&2; exit 2; }
[ -x "$FSGAUGE" ] || { echo "fsgauge not built: run make" >&2; exit 2; }
user=
[ "$(id -u)" = 0 ] && user="-u root"
out=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-vs.XXXXXX")
cg=
ldev= lmnt= limg= lmm=
blkio=/sys/fs/cgroup/blkio
cleanup() {
	if [ -n "$lmm" ]; then
		for f in read_bps write_bps read_iops write_iops; do
			echo "$lmm 0" >"$blkio/blkio.throttle.${f}_device" 2>/dev/null || true
		done
	fi
	[ -z "$lmnt" ] || { umount "$lmnt" 2>/dev/null && rmdir "$lmnt"; } || true
	[ -z "$ldev" ] || losetup -d "$ldev" 2>/dev/null || true
	[ -z "$limg" ] || rm -f "$limg"
	rm -rf "$out"
	# an emptied cgroup directory is removed with rmdir, as the kernel wants
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "$memlimit" ]; then
	if [ -d /sys/fs/cgroup/memory ] && [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		cg=/sys/fs/cgroup/memory/bonnie-vs.$$
		mkdir "$cg" && echo $((memlimit * 1048576)) >"$cg/memory.limit_in_bytes"
	elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		cg=/sys/fs/cgroup/bonnie-vs.$$
		mkdir "$cg" && echo $((memlimit * 1048576)) >"$cg/memory.max"
	else
		echo "-M needs a cgroup memory controller (v1 at /sys/fs/cgroup/memory or v2) and root" >&2
		exit 2
	fi
fi
if [ -n "$loop" ]; then
	lmib=$(echo "$loop" | cut -d: -f1) lmbps=$(echo "$loop" | cut -d: -f2)
	liops=$(echo "$loop" | cut -s -d: -f3)
	case "$lmib:$lmbps:${liops:-1}" in
	*[!0-9:]* | :* | *::* | *:) echo "-L $loop: want MIB:MBPS[:IOPS], whole numbers" >&2; exit 2 ;;
	esac
	[ "$(id -u)" = 0 ] || { echo "-L needs root (losetup, mount, cgroup)" >&2; exit 2; }
	[ -f "$blkio/blkio.throttle.write_bps_device" ] ||
		{ echo "-L needs the cgroup v1 blkio controller at $blkio" >&2; exit 2; }
	limg=$(mktemp "$dir/bonnie-vs-disk.XXXXXX")
	truncate -s "${lmib}M" "$limg"
	ldev=$(losetup -f --show --direct-io=on "$limg")
	# inode tables and journal written now, not by the kernel in the
	# background during the runs, under the throttle
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ldev"
	lmnt=$(mktemp -d "$dir/bonnie-vs-mnt.XXXXXX")
	mount "$ldev" "$lmnt"
	lmm=$(lsblk -dno MAJ:MIN "$ldev" | tr -d ' ')
	for f in read_bps write_bps; do
		echo "$lmm $((lmbps * 1000000))" >"$blkio/blkio.throttle.${f}_device"
	done
	if [ -n "$liops" ]; then
		for f in read_iops write_iops; do
			echo "$lmm $liops" >"$blkio/blkio.throttle.${f}_device"
		done
	fi
	dir=$lmnt
fi
if [ -n "$cpus" ]; then
	command -v taskset >/dev/null 2>&1 || { echo "-c needs taskset (util-linux)" >&2; exit 2; }
	taskset -c "$cpus" true 2>/dev/null || { echo "-c $cpus: not a usable CPU list" >&2; exit 2; }
fi
# in_cg CMD...: run CMD inside the memory cgroup when there is one, pinned
# to the -c CPUs when given
in_cg() {
	if [ -n "$cpus" ]; then
		set -- taskset -c "$cpus" "$@"
	fi
	if [ -n "$cg" ]; then
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
	else
		"$@"
	fi
}

echo "machine: $(uname -n), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB RAM", $2/1048576}' /proc/meminfo), kernel $(uname -r)"
echo "target: $dir ($(df -T "$dir" | awk 'NR==2 {print $2 " on " $1}')), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "arguments: $*"
[ -z "$memlimit" ] || echo "each tool in a memory cgroup of $memlimit MiB (page cache included)"
[ -z "$cpus" ] || echo "both tools pinned to CPU(s) $cpus"
[ -z "$loop" ] || echo "disk: $ldev ($lmib MiB, ext4), reads and writes throttled to $lmbps MB/s${liops:+ and $liops IOPS}"
echo

one() { # one TOOL ROUND ARGS...
	tool=$1 n=$2
	shift 2
	if [ "$tool" = bonnie++ ]; then
		# shellcheck disable=SC2086
		in_cg "$BONNIEPP" -d "$dir" -m bonnie++ $user "$@" >"$out/b.$n" 2>"$out/b.$n.err" ||
			{ echo "bonnie++ failed:" >&2; cat "$out/b.$n.err" >&2; exit 1; }
	else
		# shellcheck disable=SC2086
		in_cg "$FSGAUGE" bonnie -d "$dir" -m fsgauge $user --format 19 "$@" --json "$out/f.$n.json" \
			>"$out/f.$n" 2>"$out/f.$n.err" ||
			{ echo "fsgauge bonnie failed:" >&2; cat "$out/f.$n.err" >&2; exit 1; }
	fi
}

r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		one bonnie++ $r "$@"; one fsgauge $r "$@"
	else
		one fsgauge $r "$@"; one bonnie++ $r "$@"
	fi
	echo "=== round $r: bonnie++ $(dpkg-query -W -f='${Version}' bonnie++ 2>/dev/null || true)"
	grep -v '^[0-9.]*,' "$out/b.$r"
	echo "=== round $r: fsgauge bonnie"
	grep -v '^[0-9.]*,' "$out/f.$r"
	echo
	r=$((r + 1))
done

# Ratios from the 1.98 CSV lines both print (field numbers of that format).
echo "fsgauge / bonnie++ (per round; n/a where either printed +++++ or nothing)"
printf '%-11s' test
r=1
while [ "$r" -le "$rounds" ]; do printf '  %-26s' "round $r"; r=$((r + 1)); done
echo
for t in put_block:12 rewrite:14 get_block:18 seeks:20 seq_create:27 seq_stat:29 seq_del:31 \
	ran_create:33 ran_stat:35 ran_del:37; do
	name=${t%:*} f=${t#*:}
	printf '%-11s' "$name"
	r=1
	while [ "$r" -le "$rounds" ]; do
		b=$(grep '^1\.98,' "$out/b.$r" | cut -d, -f"$f")
		g=$(grep '^1\.98,' "$out/f.$r" | cut -d, -f"$f")
		printf '  %-26s' "$(awk -v b="$b" -v g="$g" 'BEGIN {
			if (b ~ /^[0-9.]+$/ && g ~ /^[0-9.]+$/ && b > 0)
				printf "%s vs %s = %.2f", g, b, g / b
			else
				printf "%s vs %s = n/a", (g == "" ? "-" : g), (b == "" ? "-" : b) }')"
		r=$((r + 1))
	done
	echo
done
