#!/bin/sh
# Block-device safety on loop devices: reading is allowed, writing needs
# --allow-write-device, and a device that is mounted or carries a
# file-system or partition-table signature needs --force-destroy-data on
# top (and a mounted one is still refused by the exclusive open).  Checked
# through `fsgauge devcheck`, which runs the same code (util/blockdev.c)
# the device-capable suites call.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for loop devices"
command -v losetup >/dev/null || skip_all "losetup not installed"
truncate -s 32M "$T/disk.img"
loop=$(losetup -f --show "$T/disk.img" 2>/dev/null) || skip_all "cannot set up a loop device"
mnt=""
trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; losetup -d "$loop"; rm -rf "$T"' EXIT

expect_ok() {
	desc=$1 re=$2
	shift 2
	run "$@"
	if [ "$rc" -eq 0 ] && grep -Eq -- "$re" "$T/out"; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"
		sed 's/^/#   /' "$T/out" "$T/err" | head -10
	fi
}

expect_ok "empty device: read allowed" "^signature: none" "$FSGAUGE" devcheck "$loop"
check "  and its size is known" grep -q "^size: 33554432" "$T/out"
expect_fail "empty device: write refused without --allow-write-device" 2 \
	"refusing to write to block device '$loop'.*--allow-write-device" \
	"$FSGAUGE" devcheck "$loop" --write
expect_ok "empty device: write allowed with --allow-write-device" "^write: allowed" \
	"$FSGAUGE" devcheck "$loop" --write --allow-write-device

if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$loop" >/dev/null 2>&1; then
	expect_ok "ext4 device: read allowed" "^signature: ext4" "$FSGAUGE" devcheck "$loop"
	expect_fail "ext4 device: write refused with --allow-write-device alone" 2 \
		"refusing to write to '$loop': it holds ext4 data.*--force-destroy-data" \
		"$FSGAUGE" devcheck "$loop" --write --allow-write-device
	expect_ok "ext4 device: write allowed with --force-destroy-data" "^write: allowed" \
		"$FSGAUGE" devcheck "$loop" --write --allow-write-device --force-destroy-data
	mkdir "$T/mnt"
	if mount "$loop" "$T/mnt" 2>/dev/null; then
		mnt="$T/mnt"
		expect_ok "mounted device: read allowed" "^mounted: yes, on $T/mnt" \
			"$FSGAUGE" devcheck "$loop"
		expect_fail "mounted device: write refused" 2 \
			"refusing to write to '$loop': it is mounted on '$T/mnt'" \
			"$FSGAUGE" devcheck "$loop" --write --allow-write-device
		expect_fail "mounted device: the exclusive open refuses even with --force-destroy-data" 3 \
			"cannot open '$loop' for writing: it is in use" \
			"$FSGAUGE" devcheck "$loop" --write --allow-write-device --force-destroy-data
		expect_fail "run on a block device keeps its directory-only message" 2 \
			"target '$loop' is a block device; this command works on a directory" \
			"$FSGAUGE" run varmail -d "$loop" -t 1
		umount "$mnt" && mnt=""
	else
		ok "mounted device: # SKIP cannot mount here"
	fi
else
	ok "ext4 device: # SKIP mkfs.ext4 not available"
fi

# a partition table alone (no file system) is data too
dd if=/dev/zero of="$loop" bs=1M count=1 conv=notrunc 2>/dev/null
printf '\125\252' | dd of="$loop" bs=1 seek=510 conv=notrunc 2>/dev/null
expect_fail "partition table: write refused" 2 "refusing to write to '$loop': it holds" \
	"$FSGAUGE" devcheck "$loop" --write --allow-write-device
if command -v mkswap >/dev/null && mkswap "$loop" >/dev/null 2>&1; then
	expect_fail "swap signature: write refused" 2 "refusing to write to '$loop': it holds swap" \
		"$FSGAUGE" devcheck "$loop" --write --allow-write-device
fi
dd if=/dev/zero of="$loop" bs=1M count=1 conv=notrunc 2>/dev/null
expect_ok "wiped device: write allowed again" "^write: allowed" \
	"$FSGAUGE" devcheck "$loop" --write --allow-write-device

expect_fail "devcheck on a regular file" 2 "'$T/disk.img' is not a block device" \
	"$FSGAUGE" devcheck "$T/disk.img"
expect_fail "devcheck on a missing path" 3 "cannot inspect '$T/none'" "$FSGAUGE" devcheck "$T/none"
expect_fail "devcheck needs one device" 2 "devcheck needs exactly one device" "$FSGAUGE" devcheck
finish
