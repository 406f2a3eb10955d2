#!/bin/sh
# insight_device.sh — the device verdict (docs/insight.md, rule 4: a device
# under the target busy at least 90%) produced for real: ext4 on a loop
# device whose image lives on a slow FUSE file system (slowfuse.c, built
# here with libfuse3: every read and write of the image waits DELAY_US
# before it is done), read with O_DIRECT by 4 threads.  Each of the loop
# device's requests is in flight for the whole delay, so the device is
# busy while the workers wait for it, whatever else the machine is doing.
# Needs root, /dev/fuse, libfuse3 (libfuse3-dev), losetup and mkfs.ext4:
# skips, saying which, without them.  Everything mounted or attached is
# undone on every exit.
. "$(dirname "$0")/lib.sh"

V='d["phases"][0]["limited_by"]'
D="[r for r in $V['rules'] if r['rule']=='device'][0]"
DELAY_US=2000

[ "$(id -u)" = 0 ] || skip_all "needs root (losetup, mount)"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
for t in losetup mkfs.ext4 pkg-config; do
	command -v $t >/dev/null 2>&1 || skip_all "no $t"
done
pkg-config --exists fuse3 2>/dev/null || skip_all "no libfuse3 (libfuse3-dev)"
# shellcheck disable=SC2046 # the flags are words
${CC:-cc} -O2 -o "$T/slowfuse" "$(dirname "$0")/slowfuse.c" $(pkg-config --cflags --libs fuse3) \
	2>"$T/cc.err" || skip_all "cannot build slowfuse.c with libfuse3: $(head -1 "$T/cc.err")"

img="$T/image" fmnt="$T/fuse" mnt="$T/ext4" loop="" fpid=""
cleanup() {
	if [ -n "$loop" ]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
		losetup -d "$loop" 2>/dev/null
	fi
	if [ -n "$fpid" ]; then
		# the loop device lets go of the image when detached; udev
		# may still hold it open a moment
		i=0
		while ! umount "$fmnt" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ $i -lt 50 ] || umount -l "$fmnt" 2>/dev/null
		kill "$fpid" 2>/dev/null
		wait "$fpid" 2>/dev/null
	fi
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the file system is made on the plain file, at full speed, its inode
# tables and journal written now (no lazy init writing later, in the phase)
mkdir "$fmnt" "$mnt"
truncate -s 128M "$img" &&
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 ||
	skip_all "cannot make ext4 on '$img'"
"$T/slowfuse" "$img" $DELAY_US "$fmnt" >"$T/fuse.log" 2>&1 &
fpid=$!
# slowfuse is up when its one file is there
wait_for_file() {
	i=0
	while [ ! -f "$fmnt/disk.img" ]; do
		kill -0 "$fpid" 2>/dev/null && [ $i -lt 100 ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
wait_for_file || skip_all "cannot mount slowfuse: $(head -1 "$T/fuse.log")"
loop=$(losetup -f --show "$fmnt/disk.img" 2>"$T/losetup.err") ||
	skip_all "cannot attach a loop device: $(head -1 "$T/losetup.err")"
mount -t ext4 "$loop" "$mnt" 2>"$T/mount.err" || skip_all "cannot mount '$loop': $(head -1 "$T/mount.err")"
dev=${loop#/dev/}

run "$FSGAUGE" io --name=r --rw=randread --bs=4k --size=1m --direct=1 --numjobs=4 \
	--runtime=2 --time_based -d "$mnt" --json "$T/dev.json"
check "O_DIRECT reads on the slow loop device run" [ "$rc" -eq 0 ]
v=$(json "$T/dev.json" "$V['verdict']")
check "limited by device (got $v)" [ "$v" = device ]
grep -e '^limited by' -e "^  $dev:" "$T/out" | sed 's/^/# /'
check "the part is the loop device under the target, $dev" \
	[ "$(json "$T/dev.json" "$V['part']")" = "$dev" ]
check "the text line with its figures" \
	grep -Eq "^limited by: device \\($dev\\): $dev was busy (9[0-9]|100)% of the phase: queue depth [0-9.]+, [0-9.]+ ms of service and [0-9.]+ ms in all per request, [0-9]+ requests/s, [0-9.]+ MiB/s" "$T/out"
check "the device rule holds at 90% or more" \
	[ "$(json "$T/dev.json" "$D['holds'] and $D['value'] >= 90 and $D['threshold'] == 90")" = true ]
check "its busy share is the device's busy time over the phase" \
	[ "$(json "$T/dev.json" "abs($D['value'] - min(100, d['phases'][0]['device']['per_device']['$dev']['busy_ms'] / 10 / d['phases'][0]['seconds'])) < 0.01")" = true ]
# (not exactly as many: a read in flight as the window opens or closes is
# counted by one side only)
check "the device served the O_DIRECT reads: its reads at least 90% of fsgauge's" \
	[ "$(json "$T/dev.json" "d['phases'][0]['device']['per_device']['$dev']['reads'] >= 0.9 * sum(o['ops'] for o in d['phases'][0]['operations'])")" = true ]
# each request waits DELAY_US in slowfuse before it is done: the device's
# own time per request (read_ms + write_ms, counted in ns) cannot be less
check "time per request at least the image's delay ($DELAY_US us)" \
	[ "$(json "$T/dev.json" "$D['figures']['await_ms'] >= $DELAY_US / 1000")" = true ]
check "the synchronous rule does not hold: O_DIRECT reads are no flush" \
	[ "$(json "$T/dev.json" "'sync_latency' in [r['rule'] for r in $V['rules'] if r['holds']]")" = false ]

finish
