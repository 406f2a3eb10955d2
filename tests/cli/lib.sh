# lib.sh — helpers for the CLI tests (POSIX sh, TAP output).
#
#   . "$(dirname "$0")/lib.sh"
#   run "$FSGAUGE" list          # sets $rc, files $T/out and $T/err
#   check "lists varmail" grep -q varmail "$T/out"
#   finish
#
# $T is a fresh temporary directory, removed at exit.  json FILE EXPR
# evaluates a Python expression over the parsed JSON document `d`.

: "${FSGAUGE:?set FSGAUGE to the fsgauge binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/fsgauge-test.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
tap_n=0
tap_fail=0

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_fail=$((tap_fail + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND...: passes when the command succeeds
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# COND...; checked DESCRIPTION: the status of the command just before
# (a list with && or ||, which check's single command cannot take: in
# `check D A && B`, B would run outside the check and its failure be lost)
checked() {
	if [ $? -eq 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# run COMMAND...: stdout in $T/out, stderr in $T/err, status in $rc
run() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# expect_fail DESCRIPTION CODE MESSAGE-REGEX COMMAND...: the command exits
# with CODE and prints a line matching MESSAGE-REGEX on stderr
expect_fail() {
	desc=$1 code=$2 re=$3
	shift 3
	run "$@"
	if [ "$rc" -eq "$code" ] && grep -Eq -- "$re" "$T/err"; then
		ok "$desc"
	else
		not_ok "$desc"
		echo "#   exit $rc (want $code); stderr:"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}

# json FILE EXPR: prints the value of a Python expression over d
json() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
v=eval(sys.argv[2])
print(v if not isinstance(v,bool) else str(v).lower())' "$1" "$2"
}

# wait_for FILE ERE [SECONDS]: waits until a line of FILE matches ERE (a
# sign that a background run got going), for at most SECONDS (default
# 30); fails if it never does.  Tests signal a run after this instead of
# after a fixed sleep, which a slow or sanitized build may not outlast.
wait_for() {
	_w=0
	while ! grep -Eq "$2" "$1" 2>/dev/null; do
		[ "$_w" -ge "$((${3:-30} * 10))" ] && return 1
		sleep 0.1
		_w=$((_w + 1))
	done
}

# spawn OUT ERR COMMAND...: starts COMMAND in the background, its stdout
# in OUT and stderr in ERR, and sets $pid.  Both files are removed first:
# the redirections truncate them in the child, so a line an earlier run
# left there could satisfy wait_for at once, and a signal sent then finds
# the new process before it has installed its handlers, with SIGINT still
# ignored (a background job of a non-interactive shell starts that way):
# the signal is lost and the run goes on to its end.
spawn() {
	_o=$1 _e=$2
	shift 2
	rm -f "$_o" "$_e"
	"$@" >"$_o" 2>"$_e" &
	pid=$!
}

# empty_dir DIR: succeeds when DIR exists and holds nothing
# True when uid 65534 can read every path given: the checks that act as
# another user need the tree reachable (a clone under a 0700 directory,
# such as mktemp -d's, is not), else they skip.
nobody_reaches() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c 'for p; do [ -r "$p" ] || exit 1; done' _ "$@" 2>/dev/null
}

# empty_dir DIR...: each DIR is a directory with nothing in it
empty_dir() {
	for _e; do
		[ -d "$_e" ] && [ -z "$(ls -A "$_e")" ] || return 1
	done
}

# hold_sysctl FILE WHAT: for a serial test that changes the sysctl FILE
# (under /proc/sys): skips unless engine WHAT is built in, the user is
# root and FILE exists and can be written; keeps its value in $old and
# puts it back however the test ends (EXIT, INT, TERM).
hold_sysctl() {
	case " $("$FSGAUGE" --version | sed -n 's/^engines: //p') " in
	*" $2 "*) ;;
	*) skip_all "$2 not built in" ;;
	esac
	[ "$(id -u)" = 0 ] || skip_all "needs root to set $1"
	[ -f "$1" ] || skip_all "no $1"
	old=$(cat "$1")
	# writable: the same value written back (/proc/sys may be read-only here)
	{ echo "$old" >"$1"; } 2>/dev/null || skip_all "$1 cannot be written here"
	held_sysctl=$1
	trap '{ echo "$old" >"$held_sysctl"; } 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# engine_refused E: why engine E cannot run here (not built in, or the
# kernel refuses it: io_uring disabled, no AIO contexts left), or nothing
# (any other failure of the probe is left to the test to report)
engine_refused() {
	case " psync null $("$FSGAUGE" --version | sed -n 's/^engines: //p') " in
	*" $1 "*) ;;
	*)
		echo "not built in"
		return
		;;
	esac
	mkdir -p "$T/probe"
	if ! "$FSGAUGE" io --name=probe --size=4k --ioengine="$1" -d "$T/probe" -q >/dev/null \
		2>"$T/probe.err" && grep -q "cannot start engine '$1'" "$T/probe.err"; then
		echo "the kernel refuses it: $(grep -m1 "cannot start engine" "$T/probe.err")"
	fi
	rm -rf "$T/probe"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

finish() {
	echo "1..$tap_n"
	[ "$tap_fail" -eq 0 ]
}
