#!/bin/sh
# Block-device safety on loop devices: reading is allowed, writing needs
# --allow-write-device, and a device that is mounted or carries a
# file-system or partition-table signature needs --force-destroy-data on
# top (and a mounted one is still refused by the exclusive open).  Checked
# through `fsgauge devcheck`, which runs the same code (util/blockdev.c)
# the device-capable suites call.
. "$(dirname "$0")/lib.sh"

# usage errors, before any device is looked at (no root needed)
expect_fail "devcheck with an empty device name: usage error" 2 \
	"devcheck needs a device, not an empty name" "$FSGAUGE" devcheck ""
expect_fail "devcheck --allow-write-device without --write: refused" 2 \
	"^fsgauge: --allow-write-device only applies with --write" \
	"$FSGAUGE" devcheck /dev/null --allow-write-device
expect_fail "devcheck --force-destroy-data without --write: refused" 2 \
	"^fsgauge: --force-destroy-data only applies with --write" \
	"$FSGAUGE" devcheck /dev/null --force-destroy-data
expect_fail "devcheck with both without --write: refused" 2 \
	"^fsgauge: --allow-write-device and --force-destroy-data only apply with --write" \
	"$FSGAUGE" devcheck /dev/null --force-destroy-data --allow-write-device
run "$FSGAUGE" devcheck --help
# (the generated help puts a long option's text on the next line)
check "devcheck --help says both apply with --write" \
	[ "$(grep -A1 -- '^ *--\(allow-write-device\|force-destroy-data\)' "$T/out" | grep -c 'with --write:')" = 2 ]

if [ "$(id -u)" -ne 0 ]; then
	finish
	exit
fi
command -v losetup >/dev/null || skip_all "losetup not installed"
truncate -s 32M "$T/disk.img"
loop=$(losetup -f --show "$T/disk.img" 2>/dev/null) || skip_all "cannot set up a loop device"
mnt=""
loop2="" loop3=""
trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; losetup -d "$loop"; [ -n "$loop2" ] && losetup -d "$loop2"; [ -n "$loop3" ] && losetup -d "$loop3"; rm -rf "$T"' EXIT

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
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 0600 "$loop"
	expect_fail "a device nobody cannot open: read refused at open" 3 \
		"cannot open device '$loop': Permission denied" \
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$FSGAUGE" devcheck "$loop"
	check "  its size is unknown, not 0" grep -qx "size: unknown" "$T/out"
	check "  and the signature too, with the reason" \
		grep -qx "signature: unknown (cannot read the device: Permission denied)" "$T/out"
	check "  what needs no open is still shown" grep -qx "mounted: no" "$T/out"
else
	ok "a device nobody cannot open: # SKIP no user nobody or no setpriv"
fi
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
# --- fsgauge iozone on devices (-f / -F): the same rules, through
# blockdev_open(); no run directory, nothing removed, the first -s bytes
truncate -s 16M "$T/d2.img" "$T/d3.img"
loop2=$(losetup -f --show "$T/d2.img" 2>/dev/null) || loop2=""
loop3=$(losetup -f --show "$T/d3.img" 2>/dev/null) || loop3=""
if [ -n "$loop2" ] && [ -n "$loop3" ]; then
	sum() { sha256sum <"$1" | cut -d' ' -f1; }
	mkdir "$T/cwd"
	cd "$T/cwd" || exit 1
	run "$FSGAUGE" iozone -s 1m -r 64k -i 0 -i 1 -f "$loop2" --allow-write-device --json "$T/dev.json"
	check "iozone -f on an empty device with --allow-write-device: exit 0" [ "$rc" -eq 0 ]
	check "  says it writes the device and creates nothing" grep -q "^block device: $loop2 (written; nothing is created or removed)" "$T/err"
	check "  the report is iozone's" grep -q "^iozone test complete.$" "$T/out"
	check "  no run directory anywhere (the current directory stays empty)" empty_dir "$T/cwd"
	check "  the tests used the first -s bytes: the rest is still zeros" \
		cmp -s -i 1048576 "$loop2" /dev/zero -n 15728640
	check "  and the first -s bytes were written (not zeros)" sh -c "! cmp -s -n 1048576 '$loop2' /dev/zero"
	check "  JSON: write and rewrite wrote -s bytes, read and reread read -s bytes" \
		[ "$(json "$T/dev.json" '[sum(o["bytes_written"] + o["bytes_read"] for o in p["operations"] if o["name"].startswith("t0.")) for p in d["phases"]]')" = "[1048576, 1048576, 1048576, 1048576]" ]
	check "  JSON: the device's own counters saw the writes" \
		[ "$(json "$T/dev.json" 'd["phases"][0]["device"]["devices"] == ["'"${loop2#/dev/}"'"] and d["phases"][0]["device"]["bytes_written"] >= 1048576')" = true ]
	check "  JSON: the device and the permission are recorded" \
		[ "$(json "$T/dev.json" '(d["parameters"]["device"], d["parameters"]["device_access"], d["parameters"]["target"])')" = "('$loop2', 'write', 'block device')" ]

	before=$(sum "$loop2")
	expect_fail "iozone write test on a device without --allow-write-device: refused" 2 \
		"refusing to write to block device '$loop2'.*--allow-write-device" \
		"$FSGAUGE" iozone -s 1m -r 64k -i 0 -f "$loop2"
	check "  the device is unchanged" [ "$(sum "$loop2")" = "$before" ]
	expect_fail "  -i 2 (random reads and writes) writes too: refused" 2 \
		"refusing to write to block device '$loop2'" "$FSGAUGE" iozone -s 1m -r 64k -i 2 -f "$loop2"
	run "$FSGAUGE" iozone -s 1m -r 64k -i 1 -i 3 -i 5 -f "$loop2" --json "$T/ro.json"
	check "read-only tests on a device without --allow-write-device: exit 0" [ "$rc" -eq 0 ]
	check "  says it only reads" grep -q "(read only; nothing is created or removed)" "$T/err"
	check "  each test read -s bytes of what the device holds" \
		[ "$(json "$T/ro.json" 'all(sum(o["bytes_read"] for o in p["operations"] if o["name"].startswith("t0.")) == 1048576 for p in d["phases"]) and len(d["phases"]) == 4 and d["parameters"]["device_access"] == "read"')" = true ]
	check "  nothing was written (JSON)" [ "$(json "$T/ro.json" 'sum(p["summary"]["bytes_written"] for p in d["phases"])')" = 0 ]
	check "  the device is unchanged" [ "$(sum "$loop2")" = "$before" ]
	check "  and no run directory was made" empty_dir "$T/cwd"
	run "$FSGAUGE" iozone -a -n 64k -g 256k -y 64k -q 128k -i 1 -f "$loop2" --json "$T/auto.json"
	[ "$rc" -eq 0 ] && [ "$(grep -cE '^ +(64|128|256) +(64|128) +[0-9]+ +[0-9]+$' "$T/out")" = 5 ]
	checked "read-only auto mode on a device: exit 0, 5 rows"
	check "  nothing written, no file completed (a device has its full size)" \
		[ "$(json "$T/auto.json" 'sum(p["summary"]["bytes_written"] for p in d["phases"]) == 0 and not any(o["name"] == "t0-fill" for p in d["phases"] for o in p["operations"])')" = true ]
	check "  the device is unchanged" [ "$(sum "$loop2")" = "$before" ]

	dd if=/dev/zero of="$loop3" bs=1M count=16 2>/dev/null
	run "$FSGAUGE" iozone -t 2 -s 2m -r 64k -x -i 0 -i 1 -F "$loop2" "$loop3" --allow-write-device --json "$T/tp.json"
	check "iozone -F dev1 dev2 (throughput mode): exit 0" [ "$rc" -eq 0 ]
	check "  each thread moved -s bytes on its device in every test" \
		[ "$(json "$T/tp.json" 'all(sum(o["bytes_written"] + o["bytes_read"] for o in p["operations"] if o["name"].startswith("t%d." % i)) == 2097152 for p in d["phases"] for i in (0, 1))')" = true ]
	check "  the second device was written too" sh -c "! cmp -s -n 2097152 '$loop3' /dev/zero"
	expect_fail "the same device twice in -F" 2 "block device '$loop2' is given twice" \
		"$FSGAUGE" iozone -t 2 -s 1m -i 1 -F "$loop2" "$loop2"
	expect_fail "-F mixing a device and a file" 2 "names block devices and files" \
		"$FSGAUGE" iozone -t 2 -s 1m -i 1 -F "$loop2" "$T/cwd/f"
	expect_fail "--dir with a device" 2 "--dir does not apply to a block device target" \
		"$FSGAUGE" iozone -s 1m -i 1 -f "$loop2" --dir "$T"
	expect_fail "a file size larger than the device" 2 \
		"file size 32768k does not fit on block device '$loop2' \(16777216 bytes\)" \
		"$FSGAUGE" iozone -s 32m -r 64k -i 1 -f "$loop2"
	expect_fail "--verify with a read-only selection" 2 "--verify on a block device needs a write test first" \
		"$FSGAUGE" iozone -s 1m -r 64k -i 1 -f "$loop2" --verify
	run "$FSGAUGE" iozone -s 1m -r 64k -i 0 -i 1 -f "$loop2" --allow-write-device --verify --json "$T/v.json"
	[ "$rc" -eq 0 ] && [ "$(json "$T/v.json" 'd["status"]["verify_errors"]')" = 0 ]
	checked "--verify after a write test on a device: exit 0, no verify errors"
	check "refusals created nothing" empty_dir "$T/cwd"

	if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$loop2" >/dev/null 2>&1; then
		before=$(sum "$loop2")
		expect_fail "iozone on an ext4 device with --allow-write-device alone: refused" 2 \
			"refusing to write to '$loop2': it holds ext4 data.*--force-destroy-data" \
			"$FSGAUGE" iozone -s 1m -r 64k -i 0 -f "$loop2" --allow-write-device
		check "  the file system is unchanged" [ "$(sum "$loop2")" = "$before" ]
		run "$FSGAUGE" iozone -s 1m -r 64k -i 1 -f "$loop2"
		check "  reading it is allowed" [ "$rc" -eq 0 ]
		check "  and leaves it unchanged" [ "$(sum "$loop2")" = "$before" ]
		mkdir "$T/mnt2"
		if mount "$loop2" "$T/mnt2" 2>/dev/null; then
			mnt="$T/mnt2"
			expect_fail "iozone on a mounted device: refused" 2 \
				"refusing to write to '$loop2': it is mounted on '$T/mnt2'" \
				"$FSGAUGE" iozone -s 1m -r 64k -i 0 -f "$loop2" --allow-write-device
			expect_fail "  even with --force-destroy-data the exclusive open refuses it" 3 \
				"cannot open '$loop2' for writing: it is in use" \
				"$FSGAUGE" iozone -s 1m -r 64k -i 0 -f "$loop2" --allow-write-device --force-destroy-data
			umount "$mnt" && mnt=""
			before=$(sum "$loop2") # mounting itself writes to it
		else
			ok "iozone on a mounted device: # SKIP cannot mount here"
		fi
		run "$FSGAUGE" iozone -s 1m -r 64k -i 0 -f "$loop2" --allow-write-device --force-destroy-data
		check "iozone on an ext4 device with --force-destroy-data: exit 0" [ "$rc" -eq 0 ]
		check "  the device was written" [ "$(sum "$loop2")" != "$before" ]
	else
		ok "iozone on an ext4 device: # SKIP mkfs.ext4 not available"
	fi
	cd / || exit 1
else
	ok "iozone on devices: # SKIP cannot set up two more loop devices"
fi
# --- fsgauge io on a device (filename=/dev/X): the same rules; every
# refusal leaves the device's bytes unchanged (sha256 before and after)
truncate -s 16M "$T/d4.img"
loop4=$(losetup -f --show "$T/d4.img" 2>/dev/null) || loop4=""
if [ -n "$loop4" ]; then
	trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; losetup -d "$loop"; [ -n "$loop2" ] && losetup -d "$loop2"; [ -n "$loop3" ] && losetup -d "$loop3"; losetup -d "$loop4"; rm -rf "$T"' EXIT
	sum() { sha256sum <"$1" | cut -d' ' -f1; }
	mkdir "$T/iocwd"
	cd "$T/iocwd" || exit 1
	io="io --name=j --bs=64k --size=1m --filename=$loop4"
	before=$(sum "$loop4")
	for rw in write randwrite rw randrw; do
		# shellcheck disable=SC2086
		expect_fail "io --rw=$rw on a device without --allow-write-device: refused" 2 \
			"refusing to write to block device '$loop4'.*--allow-write-device" "$FSGAUGE" $io --rw=$rw
		check "  the device is unchanged" [ "$(sum "$loop4")" = "$before" ]
	done
	printf '[r]\nrw=read\n[w]\nrw=write\n' >"$T/rw.fio"
	# shellcheck disable=SC2086
	expect_fail "a job file whose second job writes the device: refused before the first runs" 2 \
		"refusing to write to block device '$loop4'" "$FSGAUGE" io "$T/rw.fio" --bs=64k --size=1m --filename="$loop4" --json "$T/no.json"
	[ "$(sum "$loop4")" = "$before" ] && [ ! -e "$T/no.json" ]
	checked "  the device is unchanged and no result written"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $io --rw=randread --ioengine=libaio --iodepth=8 --direct=1 -q --json "$T/ior.json"
	check "io --rw=randread on a device, libaio at depth 8, direct: exit 0" [ "$rc" -eq 0 ]
	check "  it read --size bytes and wrote none (JSON)" \
		[ "$(json "$T/ior.json" 'sum(p["summary"]["bytes_read"] for p in d["phases"]) == 1048576 and sum(p["summary"]["bytes_written"] for p in d["phases"]) == 0')" = true ]
	check "  the device is unchanged" [ "$(sum "$loop4")" = "$before" ]
	check "  nothing was created in the current directory" empty_dir "$T/iocwd"
	# shellcheck disable=SC2086
	expect_fail "io: a size larger than the device" 2 \
		"size 33554432 does not fit on block device '$loop4' \(16777216 bytes\)" \
		"$FSGAUGE" io --name=j --rw=read --size=32m --filename="$loop4"
	# offset=, offset_increment= on a device: the region must fit, before anything runs
	expect_fail "io: offset + size past the device's end" 2 \
		"job 'j': offset 15728640 \+ size 2097152 does not fit on block device '$loop4' \(16777216 bytes\)" \
		"$FSGAUGE" io --name=j --rw=read --size=2m --offset=15m --filename="$loop4"
	expect_fail "io: an offset at the device's end" 2 \
		"job 'j': offset 16777216 is not inside block device '$loop4' \(16777216 bytes\)" \
		"$FSGAUGE" io --name=j --rw=read --offset=100% --filename="$loop4"
	expect_fail "io: offset_increment putting clone 1 past the end" 2 \
		"job 'j': offset 16777216 \(with offset_increment\) is not inside block device '$loop4'" \
		"$FSGAUGE" io --name=j --rw=read --size=1m --offset=15m --offset_increment=1m --numjobs=2 --filename="$loop4"
	check "  the device is unchanged" [ "$(sum "$loop4")" = "$before" ]
	run "$FSGAUGE" io --name=j --rw=read --bs=64k --offset=75% --filename="$loop4" --json "$T/off.json"
	[ "$rc/$(json "$T/off.json" 'sum(p["summary"]["bytes_read"] for p in d["phases"])')" = "0/4194304" ] &&
		grep -q "^block device: $loop4 (read only" "$T/err"
	checked "io --offset=75% on a device without size: reads the last quarter (4 MiB), read only"
	run "$FSGAUGE" io --name=j --rw=randread --bs=4k --size=1m --offset=8m --numjobs=2 \
		--offset_increment=2m --filename="$loop4" -q --json "$T/off.json"
	[ "$rc/$(json "$T/off.json" 'sum(o["ops"] for o in d["phases"][0]["operations"] if o["name"] == "j.read")')" = 0/512 ] &&
		[ "$(sum "$loop4")" = "$before" ]
	checked "io randread, offset=8m, 2 clones: 512 reads of the device, unchanged"
	# shellcheck disable=SC2086
	expect_fail "io: -d with a device" 2 "-d does not apply to a block device target \('$loop4'\)" \
		"$FSGAUGE" $io --rw=read -d "$T"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $io --rw=write --ioengine=io_uring --iodepth=8 --direct=1 --allow-write-device --json "$T/iow.json"
	check "io --rw=write on an empty device with --allow-write-device (io_uring, depth 8): exit 0" [ "$rc" -eq 0 ]
	check "  says it writes the device and creates nothing" \
		grep -q "^block device: $loop4 (written; nothing is created or removed)" "$T/err"
	check "  the first --size bytes were written, the rest is still zeros" \
		sh -c "! cmp -s -n 1048576 '$loop4' /dev/zero && cmp -s -i 1048576 -n 15728640 '$loop4' /dev/zero"
	check "  the device's own counters saw the writes (JSON)" \
		[ "$(json "$T/iow.json" 'd["phases"][0]["device"]["devices"] == ["'"${loop4#/dev/}"'"] and d["phases"][0]["device"]["bytes_written"] >= 1048576')" = true ]
	check "  nothing was created in the current directory" empty_dir "$T/iocwd"
	run "$FSGAUGE" io --name=j --rw=write --bs=64k --size=1m --offset=4m --filename="$loop4" \
		--allow-write-device -q
	[ "$rc" -eq 0 ] && cmp -s -i 1048576 -n 3145728 "$loop4" /dev/zero &&
		! cmp -s -i 4194304 -n 1048576 "$loop4" /dev/zero &&
		cmp -s -i 5242880 -n 11534336 "$loop4" /dev/zero
	checked "io --rw=write --offset=4m --size=1m on the device: exit 0, only [4m, 5m) written"
	if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$loop4" >/dev/null 2>&1; then
		before=$(sum "$loop4")
		# shellcheck disable=SC2086
		expect_fail "io on an ext4 device with --allow-write-device alone: refused" 2 \
			"refusing to write to '$loop4': it holds ext4 data.*--force-destroy-data" \
			"$FSGAUGE" $io --rw=write --allow-write-device
		check "  the file system is unchanged" [ "$(sum "$loop4")" = "$before" ]
		# shellcheck disable=SC2086
		run "$FSGAUGE" $io --rw=read -q
		[ "$rc" -eq 0 ] && [ "$(sum "$loop4")" = "$before" ]
		checked "  reading it is allowed and leaves it unchanged"
		mkdir "$T/mnt4"
		if mount "$loop4" "$T/mnt4" 2>/dev/null; then
			mnt="$T/mnt4"
			# shellcheck disable=SC2086
			expect_fail "io on a mounted device: refused" 2 \
				"refusing to write to '$loop4': it is mounted on '$T/mnt4'" \
				"$FSGAUGE" $io --rw=write --allow-write-device
			# shellcheck disable=SC2086
			expect_fail "  even with --force-destroy-data the exclusive open refuses it" 3 \
				"cannot open '$loop4' for writing: it is in use" \
				"$FSGAUGE" $io --rw=write --allow-write-device --force-destroy-data
			umount "$mnt" && mnt=""
			before=$(sum "$loop4") # mounting itself writes to it
		else
			ok "io on a mounted device: # SKIP cannot mount here"
		fi
		# shellcheck disable=SC2086
		run "$FSGAUGE" $io --rw=randwrite --allow-write-device --force-destroy-data -q
		[ "$rc" -eq 0 ] && [ "$(sum "$loop4")" != "$before" ]
		checked "io on an ext4 device with --force-destroy-data: exit 0, the device was written"
	else
		ok "io on an ext4 device: # SKIP mkfs.ext4 not available"
	fi
	check "io on devices created nothing" empty_dir "$T/iocwd"
	cd / || exit 1
else
	ok "io on devices: # SKIP cannot set up another loop device"
fi
# --- fio's trims (rw=trim, randtrim) on a loop device over random data: a
# loop device punches holes on discard, so a trimmed range reads as zeros;
# trims destroy data, so the write rules apply to them
head -c 16777216 /dev/urandom >"$T/d5.img"
cp "$T/d5.img" "$T/d5.orig"
loop5=$(losetup -f --show "$T/d5.img" 2>/dev/null) || loop5=""
q5=/sys/block/${loop5#/dev/}/queue/discard_max_bytes
if [ -n "$loop5" ] && [ "$(cat "$q5" 2>/dev/null || echo 0)" -gt 0 ]; then
	trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; losetup -d "$loop"; [ -n "$loop2" ] && losetup -d "$loop2"; [ -n "$loop3" ] && losetup -d "$loop3"; [ -n "$loop4" ] && losetup -d "$loop4"; losetup -d "$loop5"; rm -rf "$T"' EXIT
	sum() { sha256sum <"$1" | cut -d' ' -f1; }
	# same L OFF LEN: bytes [OFF, OFF + LEN) of the device as in the original data
	same() { cmp -s -i "$2:$2" -n "$3" "$1" "$T/d5.orig"; }
	mkdir -p "$T/trcwd"
	cd "$T/trcwd" || exit 1
	tr="io --name=j --bs=64k --size=1m --filename=$loop5"
	before=$(sum "$loop5")
	for rw in trim randtrim; do
		# shellcheck disable=SC2086
		expect_fail "io --rw=$rw on a device without --allow-write-device: refused" 2 \
			"refusing to write to block device '$loop5'.*--allow-write-device" "$FSGAUGE" $tr --rw=$rw
		check "  the device is unchanged" [ "$(sum "$loop5")" = "$before" ]
	done
	# (trims on io_uring and libaio, and trimwrite: tests/cli/io_trim.sh)
	# shellcheck disable=SC2086
	expect_fail "io --rw=trim with verify: refused" 2 "job 'j': rw=trim with verify is not supported" \
		"$FSGAUGE" $tr --rw=trim --verify=crc32c --allow-write-device
	# shellcheck disable=SC2086
	expect_fail "io --rw=trim with fsync: refused" 2 "job 'j': rw=trim with fsync, fdatasync, end_fsync or fsync_on_close is not supported" \
		"$FSGAUGE" $tr --rw=trim --fsync=1 --allow-write-device
	check "  the device is unchanged" [ "$(sum "$loop5")" = "$before" ]
	# a device without discard: another loop device whose queue is told
	# it has none; the kernel keeps that limit across losetup -d (and may
	# refuse to raise it again), so the device is removed afterwards
	# (LOOP_CTL_REMOVE) for the next user to get a fresh one
	truncate -s 1M "$T/d6.img"
	loop6=$(losetup -f --show "$T/d6.img" 2>/dev/null) || loop6=""
	q6=/sys/block/${loop6#/dev/}/queue/discard_max_bytes
	if [ -n "$loop6" ] && (echo 0 >"$q6") 2>/dev/null && [ "$(cat "$q6")" = 0 ]; then
		head -c 1048576 /dev/urandom >"$loop6"
		b6=$(sum "$loop6")
		expect_fail "io --rw=trim on a device without discard: refused before the run" 2 \
			"job 'j': rw=trim: block device '$loop6' does not support discard \(its queue's discard_max_bytes is 0\)" \
			"$FSGAUGE" io --name=j --bs=64k --size=1m --filename="$loop6" --rw=trim --allow-write-device
		check "  the device is unchanged" [ "$(sum "$loop6")" = "$b6" ]
	else
		ok "io --rw=trim on a device without discard: # SKIP cannot set discard_max_bytes to 0"
	fi
	if [ -n "$loop6" ]; then
		losetup -d "$loop6"
		python3 -c 'import fcntl, os, sys
fcntl.ioctl(os.open("/dev/loop-control", os.O_RDWR), 0x4C81, int(sys.argv[1]))' "${loop6#/dev/loop}" 2>/dev/null ||
			echo "# could not remove $loop6: its discard_max_bytes stays 0" >&2
	fi
	# shellcheck disable=SC2086
	run "$FSGAUGE" $tr --rw=trim --ioengine=null --allow-write-device --json "$T/tn.json"
	[ "$rc/$(json "$T/tn.json" '[(o["ops"], o.get("bytes_trimmed")) for o in d["phases"][0]["operations"] if o["name"] == "j.trim"]')" = "0/[(16, 1048576)]" ] &&
		[ "$(sum "$loop5")" = "$before" ]
	checked "io --rw=trim on the null engine: exit 0, 16 trims counted, the device untouched"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $tr --rw=trim --allow-write-device --json "$T/tr.json"
	[ "$rc" -eq 0 ] && grep -q "^block device: $loop5 (written; nothing is created or removed)" "$T/err"
	checked "io --rw=trim --size=1m on the device: exit 0, says it writes the device"
	cmp -s -n 1048576 "$loop5" /dev/zero && same "$loop5" 1048576 15728640
	checked "  the first MiB reads as zeros, the rest is unchanged"
	check "  16 trims of 1 MiB, nothing read or written (JSON)" \
		[ "$(json "$T/tr.json" '[(o["ops"], o["bytes_trimmed"], o["bytes_read"], o["bytes_written"], o["class"]) for o in d["phases"][0]["operations"] if o["name"] == "j.trim"]')" = "[(16, 1048576, 0, 0, 'other')]" ]
	check "  the trim metrics" [ "$(json "$T/tr.json" "sorted(d['phases'][0]['metrics'])")" = "['trim_bw', 'trim_iops']" ]
	check "  fio's trim line" grep -Eq '^  trim: IOPS=[0-9.]+[kM]?, BW=' "$T/out"
	check "  fio's group line" grep -Eq '^   TRIM: bw=.*io=1024KiB \(1049kB\)' "$T/out"
	check "  fio's issued rwts counts the trims third" grep -q '^     issued rwts: total=0,0,16,0$' "$T/out"
	# randtrim: fio's random map takes each block once, so a region of
	# size/bs blocks is trimmed whole
	run "$FSGAUGE" io --name=j --rw=randtrim --bs=4k --size=1m --offset=4m --filename="$loop5" \
		--allow-write-device --output-format=json -q
	check "io --rw=randtrim --bs=4k --size=1m --offset=4m: exit 0" [ "$rc" -eq 0 ]
	check "  fio's JSON: 256 trims of 1 MiB, no reads or writes" \
		[ "$(json "$T/out" '[(j["trim"]["total_ios"], j["trim"]["io_bytes"], j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["iops"] > 0) for j in d["jobs"]]')" = "[(256, 1048576, 0, 0, True)]" ]
	cmp -s -i 4194304 -n 1048576 "$loop5" /dev/zero && same "$loop5" 1048576 3145728 &&
		same "$loop5" 5242880 11534336
	checked "  each block once (the random map): [4m, 5m) reads as zeros, [1m, 4m) and [5m, 16m) unchanged"
	run "$FSGAUGE" io --name=j --rw=randtrim --bs=4k --size=1m --offset=8m --norandommap --filename="$loop5" \
		--allow-write-device --json "$T/tr.json" -q
	[ "$rc/$(json "$T/tr.json" '[o["ops"] for o in d["phases"][0]["operations"] if o["name"] == "j.trim"]')" = "0/[256]" ] &&
		same "$loop5" 5242880 3145728 && same "$loop5" 9437184 7340032
	checked "io --rw=randtrim --norandommap: still size/bs (256) trims, inside [8m, 9m)"
	before=$(sum "$loop5")
	run "$FSGAUGE" io --name=j --rw=trim --bs=4k --size=1m --offset=12m --filename="$loop5" \
		--allow-write-device --ioengine=faulty:psync:op=trim,nth=3,err=EIO -q
	[ "$rc" -eq 1 ] && grep -q "trim '$loop5': Input/output error" "$T/err"
	checked "faulty engine, EIO on the 3rd trim: exit 1, the trim named"
	cmp -s -i 12582912 -n 8192 "$loop5" /dev/zero && same "$loop5" 12591104 4186112
	checked "  two trims were made ([12m, 12m+8k) zeros), nothing after them"
	if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$loop5" >/dev/null 2>&1; then
		before=$(sum "$loop5")
		# shellcheck disable=SC2086
		expect_fail "io --rw=trim on an ext4 device with --allow-write-device alone: refused" 2 \
			"refusing to write to '$loop5': it holds ext4 data.*--force-destroy-data" \
			"$FSGAUGE" $tr --rw=trim --allow-write-device
		check "  the file system is unchanged" [ "$(sum "$loop5")" = "$before" ]
		mkdir "$T/mnt5"
		if mount "$loop5" "$T/mnt5" 2>/dev/null; then
			mnt="$T/mnt5"
			# shellcheck disable=SC2086
			expect_fail "io --rw=trim on a mounted device: refused" 2 \
				"refusing to write to '$loop5': it is mounted on '$T/mnt5'" \
				"$FSGAUGE" $tr --rw=trim --allow-write-device
			# shellcheck disable=SC2086
			expect_fail "  even with --force-destroy-data the exclusive open refuses it" 3 \
				"cannot open '$loop5' for writing: it is in use" \
				"$FSGAUGE" $tr --rw=trim --allow-write-device --force-destroy-data
			umount "$mnt" && mnt=""
			before=$(sum "$loop5") # mounting itself writes to it
		else
			ok "io --rw=trim on a mounted device: # SKIP cannot mount here"
		fi
		# shellcheck disable=SC2086
		run "$FSGAUGE" $tr --rw=trim --allow-write-device --force-destroy-data -q
		[ "$rc" -eq 0 ] && [ "$(sum "$loop5")" != "$before" ] && cmp -s -n 1048576 "$loop5" /dev/zero
		checked "io --rw=trim on an ext4 device with --force-destroy-data: exit 0, its first MiB discarded"
	else
		ok "io --rw=trim on an ext4 device: # SKIP mkfs.ext4 not available"
	fi
	check "trims on devices created nothing" empty_dir "$T/trcwd"
	cd / || exit 1
else
	[ -n "$loop5" ] && losetup -d "$loop5"
	ok "io --rw=trim on devices: # SKIP cannot set up a loop device that discards"
fi
finish
