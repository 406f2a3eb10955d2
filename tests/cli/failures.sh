#!/bin/sh
# Real failures, not injected ones: a full file system (tiny tmpfs), a
# read-only mount, a directory that loses its permissions during the run,
# a low open-file limit, and SIGINT/SIGTERM/SIGHUP at random points during
# preallocation and during the run.  For each: no crash, no hang, a clear
# message, the documented exit code, partial results marked in the JSON,
# and nothing left behind.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
root=0
[ "$(id -u)" -eq 0 ] && root=1
mounts=""
cleanup_mounts() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
}
trap 'cleanup_mounts; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT

# verdict DESC WANT_RC MSG_REGEX JSON_REGEX... : judge the last run ($rc,
# $T/err, $T/r.json) and the target directory $dir_checked
verdict() {
	desc=$1 want=$2 re=$3
	shift 3
	why=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="hung"
	elif [ "$rc" -ge 128 ] && [ "$rc" -ne 130 ]; then
		why="crashed (exit $rc)"
	elif [ "$rc" -ne "$want" ]; then
		why="exit $rc, want $want"
	elif [ -n "$re" ] && ! grep -Eq -- "$re" "$T/err"; then
		why="no message matching /$re/"
	elif ! empty_dir "$dir_checked"; then
		why="left behind: $(ls -A "$dir_checked" | head -3)"
	fi
	for j in "$@"; do
		[ -n "$why" ] && break
		if [ ! -s "$T/r.json" ]; then
			why="no JSON result"
		elif ! grep -Eq -- "$j" "$T/r.json"; then
			why="JSON lacks /$j/"
		fi
	done
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc: $why"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}

# --- ENOSPC on a tiny tmpfs ----------------------------------------------
cat >"$T/fill.f" <<'EOF'
set $dir=/tmp
define fileset name=fill,path=$dir,size=128k,entries=128,prealloc=5
define process name=filler,instances=1
{
  thread name=filler,memsize=128k,instances=2
  {
    flowop createfile name=create,filesetname=fill,fd=1
    flowop writewholefile name=write,fd=1,iosize=32k
    flowop closefile name=close,fd=1
  }
}
EOF
cat >"$T/tiny.f" <<'EOF'
set $dir=/tmp
define fileset name=tiny,path=$dir,size=1,entries=2000,prealloc=100
define process name=p,instances=1
{
  thread name=t,instances=1
  {
    flowop statfile name=stat,filesetname=tiny
  }
}
EOF
if [ "$root" -eq 1 ]; then
	mkdir "$T/small"
	if mount -t tmpfs -o size=2m fsgauge-test "$T/small" 2>/dev/null; then
		mounts="$mounts $T/small"
		dir_checked="$T/small"
		rm -f "$T/r.json"
		run timeout -k 5 60 "$FSGAUGE" run "$T/fill.f" -q -d "$T/small" -t 30 --json "$T/r.json"
		verdict "ENOSPC during the run: exit 1, message, JSON marked, nothing left" 1 \
			"(write|create) '[^']+'.*: No space left on device" \
			'"complete": false' '"stopped_on_error": true' '"first_error": ".*No space left'
		check "ENOSPC during the run: the tmpfs is empty again" \
			[ "$(df -P "$T/small" | awk 'NR == 2 { print $3 }')" -lt 64 ]
		rm -f "$T/r.json"
		run timeout -k 5 60 "$FSGAUGE" run "$T/tiny.f" -q -d "$T/small" -t 30 --json "$T/r.json"
		verdict "ENOSPC while preallocating: exit 1, message, JSON marked, nothing left" 1 \
			"cannot preallocate: (write|create) '[^']+'.*: No space left on device" \
			'"complete": false' '"stopped_on_error": true' '"phases": \[\]'
	else
		ok "ENOSPC: # SKIP cannot mount a tmpfs here"
	fi
else
	ok "ENOSPC: # SKIP needs root to mount a tiny tmpfs"
fi

# --- EROFS ----------------------------------------------------------------
if [ "$root" -eq 1 ]; then
	mkdir "$T/ro"
	if mount -t tmpfs -o size=1m fsgauge-ro "$T/ro" 2>/dev/null &&
		mount -o remount,ro "$T/ro" 2>/dev/null; then
		mounts="$mounts $T/ro"
		dir_checked="$T/ro"
		rm -f "$T/r.json"
		run timeout -k 5 60 "$FSGAUGE" run varmail -q -d "$T/ro" -t 1 --json "$T/r.json"
		verdict "EROFS: refused before anything is created, exit 2" 2 \
			"cannot write in target directory '$T/ro': Read-only file system"
		check "EROFS: no JSON for a run that never started" [ ! -e "$T/r.json" ]
	else
		ok "EROFS: # SKIP cannot mount a read-only tmpfs here"
	fi
else
	ok "EROFS: # SKIP needs root to mount a read-only file system"
fi

# --- EACCES: the fileset directory loses its permissions mid-run ------------
# As an unprivileged user (root ignores permissions): nobody when we are
# root, ourselves otherwise.
as_user=""
if [ "$root" -eq 1 ]; then
	if command -v setpriv >/dev/null; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ "$root" -eq 0 ] || [ -n "$as_user" ]; then
	u="$T/user"
	mkdir "$u" "$T/ujson"
	chmod 711 "$T"
	[ "$root" -eq 1 ] && chown 65534:65534 "$u" "$T/ujson"
	dir_checked="$u"
	rm -f "$T/r.json"
	# shellcheck disable=SC2086
	$as_user "$FSGAUGE" run varmail -q -d "$u" -s nfiles=20 -s nthreads=2 -t 30 \
		--json "$T/ujson/r.json" >"$T/out" 2>"$T/err" &
	pid=$!
	n=0
	while [ $n -lt 200 ] && ! ls -d "$u"/fsgauge-*/bigfileset >/dev/null 2>&1; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.2
	chmod 0500 "$u"/fsgauge-*/bigfileset 2>/dev/null
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	hung=0
	kill -9 $pid 2>/dev/null && hung=1
	wait $pid
	rc=$?
	[ $hung -eq 1 ] && rc=124
	cp "$T/ujson/r.json" "$T/r.json" 2>/dev/null
	verdict "EACCES mid-run: exit 1, message, JSON marked, everything removed" 1 \
		"(create|unlink|open) '[^']+'.*: Permission denied" \
		'"complete": false' '"stopped_on_error": true'
	chmod 700 "$T"
else
	ok "EACCES: # SKIP cannot run as an unprivileged user (no setpriv)"
fi

# --- EMFILE ---------------------------------------------------------------
dir_checked="$d"
rm -f "$T/r.json"
run sh -c 'ulimit -n 12 && exec timeout -k 5 60 "$@"' sh "$FSGAUGE" run varmail -q -d "$d" \
	-s nfiles=20 -s nthreads=8 -t 30 --json "$T/r.json"
verdict "EMFILE (ulimit -n 12): exit 1, message, JSON marked, nothing left" 1 \
	"(create|open) '[^']+'.*: Too many open files" '"complete": false' '"stopped_on_error": true'
run sh -c 'ulimit -n 7 && exec timeout -k 5 60 "$@"' sh "$FSGAUGE" run varmail -q -d "$d" -t 1
verdict "EMFILE (ulimit -n 7): refused up front, exit 2, nothing created" 2 \
	"cannot reserve [0-9]+ descriptors for cleaning up '$d': Too many open files"

# --- signals --------------------------------------------------------------
# signal_run DESC SIG WHEN ARGS...: start a run, wait until it reaches
# WHEN (prealloc: its run directory exists; run: "Running" on stderr),
# wait a random 0-0.5 s more, send SIG and judge the result.
signal_run() {
	desc=$1 sig=$2 when=$3
	shift 3
	rm -f "$T/r.json"
	"$FSGAUGE" run "$@" -d "$d" --json "$T/r.json" >"$T/out" 2>"$T/err" &
	pid=$!
	n=0
	while [ $n -lt 400 ]; do
		case $when in
		prealloc) ls -d "$d"/fsgauge-*/bigfileset >/dev/null 2>&1 && break ;;
		run) grep -q '^Running' "$T/err" && break ;;
		esac
		sleep 0.05
		n=$((n + 1))
	done
	sleep "0.$(awk -v s="$$$n" 'BEGIN { srand(s); printf "%d", rand() * 5 }')"
	kill -"$sig" $pid
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	hung=0
	kill -9 $pid 2>/dev/null && hung=1
	wait $pid
	rc=$?
	[ $hung -eq 1 ] && rc=124
	dir_checked="$d"
	if [ "$when" = prealloc ]; then
		verdict "$desc" 130 "" '"interrupted": true' '"complete": false' '"phases": \[\]'
	else
		verdict "$desc" 130 "" '"interrupted": true' '"complete": false' '"name": "run"'
	fi
}

for sig in INT TERM HUP; do
	signal_run "SIG$sig while preallocating: exit 130, partial JSON, nothing left" $sig prealloc \
		varmail -q -s nfiles=50000 -s filesize=1k -s meandirwidth=1000 -t 30
	signal_run "SIG$sig during the run: exit 130, partial JSON, nothing left" $sig run \
		varmail -s nfiles=20 -s nthreads=4 -t 30
done

# A signal between the run directory's creation and the first phase, put
# there exactly by strace's signal injection on the first mkdir (the run
# directory's): untar and iozone then run no phase, and must still say
# they were interrupted (they once exited 0 with no JSON, or with a JSON
# that called itself complete).
if command -v strace > /dev/null 2>&1 &&
	strace -f -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2> /dev/null; then
	sdir="$T/sig-early"
	mkdir "$sdir"
	for cmd in "untar --synthetic tiny -d $sdir" "iozone --dir $sdir -s 64k -r 4k -i 0"; do
		rm -f "$T/early.json"
		# shellcheck disable=SC2086
		# (LeakSanitizer, in an ASan build, cannot work under ptrace)
		run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -o /dev/null -e trace=mkdir,mkdirat \
			-e inject=mkdir,mkdirat:signal=SIGTERM:when=1 "$FSGAUGE" $cmd --json "$T/early.json"
		check "${cmd%% *}: SIGTERM before the first phase: exit 130 (got $rc)" [ "$rc" -eq 130 ]
		check "... the JSON says interrupted, not complete" python3 -c 'import json,sys
s = json.load(open(sys.argv[1]))["status"]
sys.exit(not (s["interrupted"] and not s["complete"]))' "$T/early.json"
		check "... and nothing is left" empty_dir "$sdir"
	done
else
	ok "# SKIP signal before the first phase: needs strace with syscall injection"
fi

finish
