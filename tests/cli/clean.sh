#!/bin/sh
# `fsgauge clean [DIR] [--dry-run]`: the run directories that killed runs
# left are removed; a live run's, another host's, one kept on purpose and
# any directory not marked, not ours or not 0700 are kept, each with its
# reason; removal follows no link.  Markers made by hand here say what a
# real one says (util/rundir.h): host, pid, start time, boot id, pid
# namespace, uid.
. "$(dirname "$0")/lib.sh"

D="$T/d"
mkdir "$D"
host=$(uname -n)
boot=$(cat /proc/sys/kernel/random/boot_id)
pidns=$(readlink /proc/self/ns/pid | tr -dc 0-9)
uid=$(id -u)

# mark NAME PID START [HOST] [BOOT]: a run directory NAME in $D with a marker
mark() {
	mkdir -m 0700 "$D/$1"
	printf 'fsgauge run directory\nversion test\nhost %s\npid %s\nstart %s\nboot_id %s\npidns %s\nuid %s\n' \
		"${4:-$host}" "$2" "$3" "${5:-$boot}" "$pidns" "$uid" >"$D/$1/.fsgauge-run"
}
# a pid that has ended
sh -c 'exit 0' &
dead=$!
wait $dead

# --- usage and unusable directories ------------------------------------------
run "$FSGAUGE" help clean
check "help clean: usage, exit 0" sh -c "[ $rc -eq 0 ] && head -1 '$T/out' | grep -q '^usage: fsgauge clean '"
check "fsgauge --help lists clean" sh -c "'$FSGAUGE' --help | grep -Eq '^  clean +remove the run directories'"
expect_fail "two directories: exit 2" 2 "unexpected argument 'b'" "$FSGAUGE" clean a b
expect_fail "unknown option: exit 2" 2 "try 'fsgauge clean --help'" "$FSGAUGE" clean --bogus
expect_fail "empty name: exit 2" 2 "empty directory name" "$FSGAUGE" clean ""
expect_fail "missing DIR: exit 3" 3 "cannot open directory '$T/none': No such file or directory" \
	"$FSGAUGE" clean "$T/none"
: >"$T/file"
expect_fail "DIR a file: exit 3" 3 "cannot open directory '$T/file': Not a directory" \
	"$FSGAUGE" clean "$T/file"
run "$FSGAUGE" clean "$D"
check "nothing to clean: says so, exit 0" \
	sh -c "[ $rc -eq 0 ] && grep -qx \"no fsgauge run directories in '$D'\" '$T/out'"
mkdir "$T/tmp"
TMPDIR="$T/tmp" run "$FSGAUGE" clean
check "without DIR: \$TMPDIR" grep -qx "no fsgauge run directories in '$T/tmp'" "$T/out"

# --- a run killed with SIGKILL -----------------------------------------------
"$FSGAUGE" run fileserver -d "$D" -t 300 -s nfiles=50 -s nthreads=1 >/dev/null 2>"$T/k.err" &
kpid=$!
if wait_for "$T/k.err" '^run directory: '; then
	# a live fsgauge run, its real marker: never touched
	run "$FSGAUGE" clean "$D"
	check "a live run is kept: its run is still going (pid $kpid)" \
		grep -Eq "^kept $D/fsgauge-$kpid-[0-9a-f]+: its run is still going \(pid $kpid\)\$" "$T/out"
	kill -KILL $kpid
	wait $kpid
	k=$(ls -d "$D"/fsgauge-$kpid-* 2>/dev/null)
	check "SIGKILL leaves the run directory" sh -c "[ -n '$k' ] && [ -f '$k/.fsgauge-run' ]"
	check "its marker names host, pid, start, boot id and uid" \
		sh -c "grep -qx 'host $host' '$k/.fsgauge-run' && grep -qx 'pid $kpid' '$k/.fsgauge-run' && grep -Eq '^start [1-9][0-9]*\$' '$k/.fsgauge-run' && grep -qx 'boot_id $boot' '$k/.fsgauge-run' && grep -qx 'uid $uid' '$k/.fsgauge-run'"
	mkdir "$T/precious"
	echo data >"$T/precious/keep"
	ln -s "$T/precious" "$k/link"
	ln -s "$T/precious/keep" "$k/bigfileset/flink" 2>/dev/null || ln -s "$T/precious/keep" "$k/flink"
	run "$FSGAUGE" clean --dry-run "$D"
	check "--dry-run: would remove the killed run's directory, exit 0" \
		sh -c "[ $rc -eq 0 ] && grep -qx 'would remove $k (pid $kpid has ended)' '$T/out'"
	check "--dry-run: removes nothing" sh -c "[ -f '$k/.fsgauge-run' ] && [ -L '$k/link' ]"
	run "$FSGAUGE" clean "$D"
	check "clean removes it, exit 0" \
		sh -c "[ $rc -eq 0 ] && grep -qx 'removed $k (pid $kpid has ended)' '$T/out'"
	check "the directory is gone" [ ! -e "$k" ]
	check "the links' targets are untouched" \
		sh -c "[ -d '$T/precious' ] && [ \"\$(cat '$T/precious/keep')\" = data ]"
	check "the target is empty again" empty_dir "$D"
else
	not_ok "the run started (stderr: $(head -3 "$T/k.err"))"
	kill -KILL $kpid 2>/dev/null
fi

# --- hand-made markers --------------------------------------------------------
sleep 300 &
spid=$!
start=$(sed 's/.*) //' /proc/$spid/stat | cut -d' ' -f20)
mark fsgauge-live-1 $spid "$start"
mark fsgauge-reused-1 $spid $((start + 1))
mark fsgauge-dead-1 $dead 12345
mark fsgauge-reboot-1 $spid "$start" "$host" 00000000-0000-0000-0000-000000000000
mark fsgauge-host-1 $dead 12345 other-host.invalid
mark fsgauge-mode-1 $dead 12345
chmod 0755 "$D/fsgauge-mode-1"
mark fsgauge-kept-1 $dead 12345
echo kept >>"$D/fsgauge-kept-1/.fsgauge-run"
mkdir -m 0700 "$D/fsgauge-old-1"
printf 'fsgauge run directory\nversion 0.1.0\npid %s\n' $dead >"$D/fsgauge-old-1/.fsgauge-run"
mkdir -m 0700 "$D/fsgauge-nomark-1"
echo mine >"$D/fsgauge-nomark-1/file"
mark fsgauge-bad-1 $dead 12345
printf 'not a marker\n' >"$D/fsgauge-bad-1/.fsgauge-run"
mkdir "$T/elsewhere"
mark fsgauge-x $dead 12345
mv "$D/fsgauge-x" "$T/elsewhere/"
ln -s "$T/elsewhere/fsgauge-x" "$D/fsgauge-link-1"
mkdir -m 0700 "$D/other-1"
run "$FSGAUGE" clean --dry-run "$D"
check "--dry-run: exit 0" [ "$rc" -eq 0 ]
check "--dry-run: one line per fsgauge-* entry" [ "$(wc -l <"$T/out")" -eq 11 ]
check "--dry-run: all still there" \
	[ "$(ls "$D" | wc -l)" -eq 12 ]
run "$FSGAUGE" clean "$D"
check "exit 0" [ "$rc" -eq 0 ]
line() { grep -qxF -- "$1" "$T/out"; }
check "live process, same start time: kept" line "kept $D/fsgauge-live-1: its run is still going (pid $spid)"
check "live process, same start time: untouched" [ -f "$D/fsgauge-live-1/.fsgauge-run" ]
check "pid reused (another start time): removed" line "removed $D/fsgauge-reused-1 (pid $spid is now another process: its run is over)"
check "pid ended: removed" line "removed $D/fsgauge-dead-1 (pid $dead has ended)"
check "another boot: removed" line "removed $D/fsgauge-reboot-1 (pid $spid ran before the last reboot)"
check "another host: kept, with why" line "kept $D/fsgauge-host-1: made on host 'other-host.invalid': its process cannot be checked from here"
check "another host: untouched" [ -f "$D/fsgauge-host-1/.fsgauge-run" ]
check "mode 0755: kept" line "kept $D/fsgauge-mode-1: mode 0755, not 0700: not made as a run directory"
check "kept on purpose: kept" line "kept $D/fsgauge-kept-1: kept on purpose by its run (--keep or verify --write-only)"
check "an older marker: kept" line "kept $D/fsgauge-old-1: its marker names no host and start time (an older fsgauge's): whether its run is over cannot be told"
check "no marker: kept" line "kept $D/fsgauge-nomark-1: no .fsgauge-run marker"
check "no marker: its file untouched" [ "$(cat "$D/fsgauge-nomark-1/file")" = mine ]
check "not a marker: kept" line "kept $D/fsgauge-bad-1: .fsgauge-run is not a valid marker"
check "a symbolic link named fsgauge-*: kept" line "kept $D/fsgauge-link-1: not a directory"
check "... and what it points to untouched" [ -f "$T/elsewhere/fsgauge-x/.fsgauge-run" ]
check "other names are not listed" sh -c "! grep -q other-1 '$T/out'"
check "what was kept is all there" \
	[ "$(ls "$D" | tr '\n' ' ')" = "fsgauge-bad-1 fsgauge-host-1 fsgauge-kept-1 fsgauge-link-1 fsgauge-live-1 fsgauge-mode-1 fsgauge-nomark-1 fsgauge-old-1 other-1 " ]
kill $spid
wait $spid 2>/dev/null

# --- --keep marks the directory as kept on purpose ---------------------------
rm -rf "$D"
mkdir "$D"
run "$FSGAUGE" run fileserver -d "$D" -t 1 -s nfiles=10 -s nthreads=1 --keep -q
k=$(ls -d "$D"/fsgauge-* 2>/dev/null)
check "--keep: the marker says kept" grep -qx kept "$k/.fsgauge-run"
run "$FSGAUGE" clean "$D"
check "--keep: clean keeps it" line "kept $k: kept on purpose by its run (--keep or verify --write-only)"
rm -rf "$D"
mkdir "$D"

# --- a marker that cannot be written in full (a file-size limit) ------------
(
	sh -c 'trap "" XFSZ; ulimit -f 0 && exec "$@"' limited "$FSGAUGE" run fileserver -d "$D" \
		-t 1 -s nfiles=10 -s nthreads=1 --engine null --keep -q 2>&1
	echo $? >"$T/rc"
) | cat >"$T/err"
rc=$(cat "$T/rc")
k=$(ls -d "$D"/fsgauge-* 2>/dev/null)
check "an unwritable marker: the run goes on (exit $rc)" [ "$rc" -eq 0 ]
check "... with a warning naming it and what it means for clean" \
	grep -Eq "^fsgauge: warning: cannot write '$D/fsgauge-[0-9]+-[0-9a-f]+/.fsgauge-run': File too large \('fsgauge clean' will leave this run directory alone\)\$" "$T/err"
check "... and that it cannot be marked as kept" \
	grep -q "^fsgauge: warning: cannot note in '$k/.fsgauge-run' that the run directory is kept on purpose: File too large\$" "$T/err"
run "$FSGAUGE" clean "$D"
check "... and clean leaves it alone" line "kept $k: .fsgauge-run is not a valid marker"
rm -rf "$D"
mkdir "$D"

# --- as root: another owner, and a directory that cannot be removed ----------
if [ "$(id -u)" -eq 0 ]; then
	mark fsgauge-owner-1 $dead 12345
	chown 65534 "$D/fsgauge-owner-1"
	mark fsgauge-mount-1 $dead 12345
	mkdir "$D/fsgauge-mount-1/mnt"
	if mount -t tmpfs -o size=1m tmpfs "$D/fsgauge-mount-1/mnt" 2>/dev/null; then
		echo data >"$D/fsgauge-mount-1/mnt/f"
		run "$FSGAUGE" clean "$D"
		check "a directory it cannot remove completely: exit 1" [ "$rc" -eq 1 ]
		check "... says so" line "not removed $D/fsgauge-mount-1: see the error above"
		check "... the other file system is not entered" [ "$(cat "$D/fsgauge-mount-1/mnt/f")" = data ]
		umount "$D/fsgauge-mount-1/mnt"
	else
		run "$FSGAUGE" clean "$D"
		ok "a directory it cannot remove # SKIP cannot mount a tmpfs"
		ok "# SKIP cannot mount a tmpfs"
		ok "# SKIP cannot mount a tmpfs"
	fi
	check "another owner: kept" line "kept $D/fsgauge-owner-1: owned by uid 65534, not by you (uid 0)"
	check "another owner: untouched" [ -f "$D/fsgauge-owner-1/.fsgauge-run" ]
else
	ok "another owner # SKIP needs root"
	ok "# SKIP needs root"
	ok "# SKIP needs root"
	ok "# SKIP needs root"
	ok "# SKIP needs root"
	ok "# SKIP needs root"
fi

finish
