#!/bin/sh
# The command line filebench users reach for: `run -f FILE`, `show
# --resolved FILE.f -s var=value`, and `--dry-run` (parse, plan,
# preflight, print, create nothing) for run, bonnie and iozone.
. "$(dirname "$0")/lib.sh"

d=$T/target
mkdir -p "$d"
"$FSGAUGE" show varmail > "$T/mail.f"

# --- run -f FILE -------------------------------------------------------------
run "$FSGAUGE" run -f "$T/mail.f" --engine null -t 1 -s nfiles=20 -s nthreads=1 -d "$d" -q \
	--json "$T/f.json"
check "run -f FILE: exit 0" [ "$rc" -eq 0 ]
check "run -f FILE: the file's flowops ran" grep -q '^deletefile1 ' "$T/out"
check "run -f FILE: the result names the file's workload" \
	[ "$(json "$T/f.json" 'd["workload"]')" = mail ]
check "run -f FILE: nothing left behind" empty_dir "$d"
expect_fail "run -f and an operand" 2 \
	"^fsgauge: -f '$T/mail.f' and 'varmail' both name the workload: give one\$" \
	"$FSGAUGE" run -f "$T/mail.f" varmail -d "$d"
expect_fail "run -f twice" 2 "^fsgauge: -f given twice \('$T/mail.f' and 'x.f'\): give one workload\$" \
	"$FSGAUGE" run -f "$T/mail.f" -f x.f -d "$d"
expect_fail "run -f of a missing file" 2 \
	"^fsgauge: cannot read workload file '$T/nope.f': No such file or directory\$" \
	"$FSGAUGE" run -f "$T/nope.f" -d "$d"
expect_fail "run -f without its argument" 2 \
	"^fsgauge run: option '--file' needs an argument \(try 'fsgauge run --help'\)\$" \
	"$FSGAUGE" run -f
check "run --help shows -f FILE" sh -c "'$FSGAUGE' run --help | grep -q '^  -f, --file FILE '"

# --- show --resolved FILE.f -s var=value -------------------------------------
run "$FSGAUGE" show --resolved "$T/mail.f" -s nthreads=3 -s dir=/srv/x
check "show --resolved FILE.f -s: exit 0" [ "$rc" -eq 0 ]
check "show --resolved FILE.f: the file's workload" grep -qx 'workload mail' "$T/out"
check "show -s: the override in the dump" grep -qx 'var nthreads=3 (overridden)' "$T/out"
check "show -s dir=: the fileset's path" grep -q '^fileset bigfileset path=$dir="/srv/x" ' "$T/out"
check "show -s: the thread count resolved" grep -q '^  thread filereaderthread instances=$nthreads=3 ' "$T/out"
run "$FSGAUGE" show --resolved varmail -s nthreads=5
check "show --resolved NAME -s" grep -qx 'var nthreads=5 (overridden)' "$T/out"
run "$FSGAUGE" show "$T/mail.f"
check "show FILE.f prints the file as written" cmp -s "$T/out" "$T/mail.f"
expect_fail "show -s without --resolved" 2 \
	"^fsgauge: -s applies to --resolved only \(the text is printed as written\)\$" \
	"$FSGAUGE" show varmail -s nthreads=3
expect_fail "show -s without '='" 2 "^fsgauge: invalid -s 'nthreads' \(expected VAR=VALUE\)\$" \
	"$FSGAUGE" show --resolved varmail -s nthreads
expect_fail "show -s with a bad value" 2 \
	"^fsgauge: command line: -s nthreads=abc: expected a whole number \(instances of thread 'filereaderthread'\)\$" \
	"$FSGAUGE" show --resolved varmail -s nthreads=abc
expect_fail "show of a missing file" 2 \
	"^fsgauge: cannot read workload file '$T/nope.f': No such file or directory\$" \
	"$FSGAUGE" show --resolved "$T/nope.f"
printf 'define fileset name=a,path=$dir,size=1k,entries=1\nflowop bogus\n' > "$T/bad.f"
expect_fail "show --resolved of a bad file: its place" 2 "^fsgauge: $T/bad.f:2:[0-9]+: " \
	"$FSGAUGE" show --resolved "$T/bad.f"

# --- --dry-run ---------------------------------------------------------------
run "$FSGAUGE" run varmail --dry-run -d "$d" -s nthreads=2 --json "$T/dry.json"
check "run --dry-run: exit 0" [ "$rc" -eq 0 ]
check "run --dry-run: says nothing was created" grep -qx 'dry run: nothing was created' "$T/out"
check "run --dry-run: the run directory it would make" \
	grep -q "^target: $d (the run directory would be $d/fsgauge-[0-9]*-XXXXXX)\$" "$T/out"
check "run --dry-run: the preflight's thread count" \
	grep -q "^  threads  2 (process 'filereader' x 1, thread 'filereaderthread' x 2 in each); at most 4096\$" "$T/out"
check "run --dry-run: the preflight's entries (1000 files, 3 directories)" \
	grep -q "^  entries  1003 (files and directories)" "$T/out"
check "run --dry-run: the resolved workload" \
	sh -c "grep -qx 'var nthreads=2 (overridden)' '$T/out' && grep -q '^    flowop deletefile deletefile1 ' '$T/out'"
check "run --dry-run: the duration" grep -qx 'duration: 60 s per run' "$T/out"
check "run --dry-run: the target stays empty" empty_dir "$d"
check "run --dry-run: no JSON written" [ ! -e "$T/dry.json" ]
run "$FSGAUGE" run -f "$T/mail.f" --dry-run -t 5 --repeat 3 -d "$d" -q
check "run -f --dry-run: -t and --repeat shown" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'duration: 5 s per run' '$T/out' && grep -qx 'runs: 3' '$T/out'"
expect_fail "run --dry-run: the preflight still refuses" 2 \
	"^fsgauge: too many threads for the workload: 100000 needed" \
	"$FSGAUGE" run varmail --dry-run -d "$d" -s nthreads=100000
check "run --dry-run refused: nothing printed as run" [ ! -s "$T/out" ]
expect_fail "run --dry-run: a missing target" 2 \
	"^fsgauge: cannot use target directory '$T/none': No such file or directory\$" \
	"$FSGAUGE" run varmail --dry-run -d "$T/none"
: > "$T/plain"
expect_fail "run --dry-run: a target that is a file" 2 \
	"^fsgauge: cannot use target directory '$T/plain': Not a directory\$" \
	"$FSGAUGE" run varmail --dry-run -d "$T/plain"
expect_fail "run --dry-run: a workload error" 2 "^fsgauge: $T/bad.f:2:[0-9]+: " \
	"$FSGAUGE" run "$T/bad.f" --dry-run -d "$d"
check "nothing created by the refused dry runs" empty_dir "$d"

run "$FSGAUGE" bonnie --dry-run -d "$d" -s 64m -r 32 -n 0 -q
check "bonnie --dry-run: exit 0, its file planned" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'dry run: nothing was created' '$T/out' && grep -q '^  space    64.0 MiB' '$T/out'"
check "bonnie --dry-run: nothing created" empty_dir "$d"
run "$FSGAUGE" iozone --dry-run -i 0 -s 1m -r 4k -f "$d/iozone.tmp"
check "iozone --dry-run: exit 0, 1 MiB planned" \
	sh -c "[ $rc -eq 0 ] && grep -q '^  space    1.0 MiB' '$T/out'"
check "iozone --dry-run: nothing created" empty_dir "$d"
expect_fail "untar has no --dry-run" 2 "unrecognized option '--dry-run'" \
	"$FSGAUGE" untar --dry-run --synthetic -d "$d"
check "--dry-run in run's help" sh -c "'$FSGAUGE' run --help | grep -q '^      --dry-run '"
finish
