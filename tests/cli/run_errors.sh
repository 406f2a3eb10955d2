#!/bin/sh
# Every user-reachable error of `fsgauge`, `fsgauge run`, `list` and `show`:
# one line on stderr naming what was wrong, the documented exit code, and
# nothing left behind in the target directory.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"

expect_fail "no command: usage, exit 2" 2 "usage: fsgauge" "$FSGAUGE"
expect_fail "unknown command" 2 "unknown command 'frob'" "$FSGAUGE" frob
expect_fail "run without workload" 2 "run needs a workload" "$FSGAUGE" run
expect_fail "unknown workload" 2 "unknown workload 'nosuch'" "$FSGAUGE" run nosuch -d "$d"
expect_fail "unknown option, named by 'fsgauge run'" 2 "^fsgauge run: (unrecognized|invalid) option" \
	"$FSGAUGE" run varmail --frobnicate
expect_fail "-d '': the same message as other missing directories" 2 \
	"^fsgauge: cannot use target directory '': No such file or directory\$" \
	"$FSGAUGE" run varmail -d "" -t 1
expect_fail "negative thread instances: refused when read, nothing created" 2 \
	"varmail:[0-9]+:[0-9]+: thread 'mailworker': instances must not be negative \(-1\)" \
	"$FSGAUGE" run varmail -d "$d" -s nthreads=-1 -t 1
expect_fail "help of an unknown command" 2 "unknown command 'frob'" "$FSGAUGE" help frob
expect_fail "show: unknown option" 2 "show: unknown option '--frob'" "$FSGAUGE" show --frob varmail
expect_fail "show: two names" 2 "show needs exactly one workload name" "$FSGAUGE" show varmail webserver
expect_fail "show --resolved of an unknown workload" 2 "unknown workload 'nosuch'" \
	"$FSGAUGE" show --resolved nosuch
expect_fail "missing target directory" 2 "cannot use target directory '$T/missing': No such file" \
	"$FSGAUGE" run varmail -d "$T/missing" -t 1
touch "$T/plainfile"
expect_fail "target is a file" 2 "cannot use target directory '$T/plainfile': Not a directory" \
	"$FSGAUGE" run varmail -d "$T/plainfile" -t 1
expect_fail "bad size in -s" 2 "command line.*filesize.*12q" \
	"$FSGAUGE" run varmail -d "$d" -s filesize=12q -t 1
expect_fail "-s without =" 2 "invalid -s 'nfiles' \(expected VAR=VALUE\)" \
	"$FSGAUGE" run varmail -d "$d" -s nfiles
# -t is range-checked before it becomes nanoseconds (2e10 once overflowed
# the conversion, ended the run at once and reported success)
for t in abc 0 2e10 1e308 31536001 inf nan -1; do
	expect_fail "run time -t $t" 2 \
		"^fsgauge: invalid -t '$t' \(expected seconds, above 0 and at most 31536000, a year\)$" \
		"$FSGAUGE" run varmail -d "$d" -t "$t"
done
check "  and nothing is created" empty_dir "$d"
printf 'define fileset name=a,path=$dir,entries=2,filesize=1k\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=a\n  }\n}\nrun 1e308\n' >"$T/long.f"
expect_fail "run 1e308 in a workload file: refused with its position" 2 \
	"^fsgauge: $T/long.f:7:5: invalid run duration 1e\+308 \(expected seconds, from 0 to 31536000, a year\)$" \
	"$FSGAUGE" run "$T/long.f" -d "$d"
sed 's/^run 1e308$/run $runtime/' "$T/long.f" >"$T/var.f"
expect_fail "run \$runtime with -s runtime=4e7: refused" 2 \
	"$T/var.f:7:5: invalid run duration 40000000 \(expected seconds, from 0 to 31536000" \
	"$FSGAUGE" run "$T/var.f" -d "$d" -s runtime=4e7
check "  and nothing is created" empty_dir "$d"

# A fileset name becomes a file name: longer than NAME_MAX (255 bytes) is a
# workload error found by the parser, shown shortened, before anything is
# created (4123 bytes once ended in exit 3, no message and no JSON).
name_f() { # LENGTH: a workload whose fileset name has LENGTH bytes
	n=$(printf "%${1}s" "" | tr ' ' a)
	printf 'define fileset name=%s,path=$dir,entries=2,filesize=1k,prealloc\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=%s\n  }\n}\nrun 1\n' "$n" "$n" >"$T/name$1.f"
}
name_f 4123
a48=$(printf '%48s' "" | tr ' ' a)
expect_fail "a fileset name of 4123 bytes: exit 2, a one-line message with the name shortened" 2 \
	"^fsgauge: $T/name4123.f:1:21: name too long: '$a48…' \(4123 bytes; a file or fileset name becomes a file name, at most 255 bytes\)$" \
	"$FSGAUGE" run "$T/name4123.f" -d "$d" -t 1 --json "$T/name.json"
check "  one line" [ "$(wc -l <"$T/err")" -eq 1 ]
check "  nothing created, no JSON" empty_dir "$d" && [ ! -e "$T/name.json" ]
name_f 256
expect_fail "a fileset name of 256 bytes is refused" 2 "name too long: '$a48…' \(256 bytes" \
	"$FSGAUGE" run "$T/name256.f" -d "$d" -t 1
name_f 255
run "$FSGAUGE" run "$T/name255.f" -d "$d" -t 0.1 -q --json "$T/name.json"
check "a fileset name of 255 bytes works (exit $rc)" [ "$rc" -eq 0 ] &&
	[ "$(json "$T/name.json" 'len(d["filesets"][0]["name"])')" -eq 255 ]
check "  and nothing is left" empty_dir "$d"
expect_fail "unknown engine" 2 "unknown engine 'turbo' \(available: psync" \
	"$FSGAUGE" run varmail -d "$d" --engine turbo
expect_fail "bad seed" 2 "invalid seed 'x'" "$FSGAUGE" run varmail -d "$d" --seed x
expect_fail "bad data pattern" 2 "invalid data pattern 'ones'" "$FSGAUGE" run varmail -d "$d" --data ones
expect_fail "bad --on-error" 2 "invalid --on-error 'maybe'" "$FSGAUGE" run varmail -d "$d" --on-error=maybe
expect_fail "two workloads" 2 "unexpected argument 'webserver'" "$FSGAUGE" run varmail webserver
expect_fail "unreadable workload file" 2 "cannot read workload file '$T/none.f': No such file" \
	"$FSGAUGE" run "$T/none.f" -d "$d"

printf 'set $dir=/tmp\ndefine fileset name=x,path=$dir,size=1k,entries=10\ndefine process name=p {\n  thread name=t {\n    flowop raed name=r1,filesetname=x\n  }\n}\n' > "$T/bad.f"
expect_fail "malformed workload names file:line:col" 2 "$T/bad.f:5:[0-9]+: .*raed" \
	"$FSGAUGE" run "$T/bad.f" -d "$d" -t 1

printf 'define fileset name=escape,path=/etc,size=1k,entries=2,prealloc\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=escape\n  }\n}\n' > "$T/escape.f"
expect_fail "fileset outside the run directory is refused" 2 "outside the run directory" \
	"$FSGAUGE" run "$T/escape.f" -d "$d" -t 1

printf 'define process name=p {\n  thread name=t {\n    flowop hog name=work,value=10\n    flowop finishoncount name=done,value=5,target=wrok\n  }\n}\n' > "$T/target-typo.f"
expect_fail "a target= naming no flowop is refused with its position" 2 \
	"target-typo.f:4:1: flowop 'done': target 'wrok' is not the name of any flowop" \
	"$FSGAUGE" run "$T/target-typo.f" -d "$d" -t 1

# a path that is the target itself (-d) stands for the run directory, so
# a filebench file keeping its directory in another variable than $dir
# (createdelete-swing: set $path=/tmp) runs unchanged; below it is still
# outside the run directory
printf 'set $path=%s\ndefine fileset name=swing,path=$path,size=1k,entries=4,prealloc\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=swing\n  }\n}\n' "$d/" > "$T/target.f"
run "$FSGAUGE" run "$T/target.f" -d "$d" -t 1 --json "$T/target.json"
check "fileset path = the -d target: runs in the run directory (exit 0)" \
	[ "$rc" -eq 0 ] && [ "$(json "$T/target.json" 'd["phases"][0]["operations"][0]["ops"] > 0')" = true ]
check "fileset path = the -d target: nothing left behind" empty_dir "$d"
sed "s|^set \$path=.*|set \$path=$d/sub|" "$T/target.f" > "$T/below.f"
expect_fail "fileset path below the target but not in the run directory: refused" 2 \
	"fileset 'swing' has path '$d/sub', outside the run directory" "$FSGAUGE" run "$T/below.f" -d "$d" -t 1

expect_fail "preflight refuses a fileset larger than the free space" 2 "not enough free space" \
	"$FSGAUGE" run varmail -d "$d" -s filesize=1t -s nfiles=1000 -t 1

expect_fail "list takes no arguments" 2 "list takes no arguments" "$FSGAUGE" list x
expect_fail "show unknown" 2 "unknown workload 'nosuch'" "$FSGAUGE" show nosuch
expect_fail "show needs a name" 2 "show needs exactly one workload name" "$FSGAUGE" show

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir "$T/locked"
	chmod 755 "$T/locked"
	chmod 711 "$T"
	expect_fail "unwritable target directory" 2 "cannot write in target directory '$T/locked': Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$FSGAUGE" run varmail -d "$T/locked" -t 1
	chmod 700 "$T"
elif [ "$(id -u)" -ne 0 ]; then
	mkdir "$T/locked"
	chmod 555 "$T/locked"
	expect_fail "unwritable target directory" 2 "cannot write in target directory '$T/locked'" \
		"$FSGAUGE" run varmail -d "$T/locked" -t 1
	chmod 755 "$T/locked"
else
	ok "unwritable target directory # SKIP no setpriv to drop root"
fi

check "nothing left in the target after the failures" empty_dir "$d"
finish
