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
	"varmail:[0-9]+:[0-9]+: thread 'filereaderthread': instances must not be negative \(-1\)" \
	"$FSGAUGE" run varmail -d "$d" -s nthreads=-1 -t 1
expect_fail "help of an unknown command" 2 "unknown command 'frob'" "$FSGAUGE" help frob
expect_fail "show: unknown option, the one message style" 2 "^fsgauge show: unrecognized option '--frob' \\(try 'fsgauge show --help'\\)" "$FSGAUGE" show --frob varmail
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
empty_dir "$d" && [ ! -e "$T/name.json" ]
checked "  nothing created, no JSON"
name_f 256
expect_fail "a fileset name of 256 bytes is refused" 2 "name too long: '$a48…' \(256 bytes" \
	"$FSGAUGE" run "$T/name256.f" -d "$d" -t 1
name_f 255
run "$FSGAUGE" run "$T/name255.f" -d "$d" -t 0.1 -q --json "$T/name.json"
[ "$rc" -eq 0 ] &&
	[ "$(json "$T/name.json" 'len(d["filesets"][0]["name"])')" -eq 255 ]
checked "a fileset name of 255 bytes works (exit $rc)"
check "  and nothing is left" empty_dir "$d"
expect_fail "unknown engine" 2 "unknown engine 'turbo' \(available: psync" \
	"$FSGAUGE" run varmail -d "$d" --engine turbo
expect_fail "bad seed" 2 "invalid --seed 'x' \\(expected a non-negative integer\\)" "$FSGAUGE" run varmail -d "$d" --seed x
expect_fail "bad data pattern" 2 "invalid data pattern 'ones'" "$FSGAUGE" run varmail -d "$d" --data ones
expect_fail "bad --on-error" 2 "invalid --on-error 'maybe'" "$FSGAUGE" run varmail -d "$d" --on-error=maybe
expect_fail "two workloads" 2 "unexpected argument 'webserver'" "$FSGAUGE" run varmail webserver
expect_fail "unreadable workload file" 2 "cannot read workload file '$T/none.f': No such file" \
	"$FSGAUGE" run "$T/none.f" -d "$d"

printf 'set $dir=/tmp\ndefine fileset name=x,path=$dir,size=1k,entries=10\ndefine process name=p {\n  thread name=t {\n    flowop raed name=r1,filesetname=x\n  }\n}\n' > "$T/bad.f"
expect_fail "malformed workload names file:line:col" 2 "$T/bad.f:5:[0-9]+: .*raed" \
	"$FSGAUGE" run "$T/bad.f" -d "$d" -t 1

printf 'define fileset name=escape,path=/etc,size=1k,entries=2,prealloc\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=escape\n  }\n}\n' > "$T/escape.f"
expect_fail "fileset path= outside the -d target is refused, naming the attribute to change" 2 \
	"^fsgauge: fileset 'escape' has path '/etc', outside the target '$d'; fsgauge only writes below its own run directory \(change path= of fileset 'escape' to \\\$dir or a directory inside the target\)\$" \
	"$FSGAUGE" run "$T/escape.f" -d "$d" -t 1
check "  and nothing is created" empty_dir "$d"
# without -d the target is \$TMPDIR: the message says how to choose one
mkdir "$T/tmpdir"
expect_fail "fileset outside the default target: refused, use -d" 2 \
	"^fsgauge: fileset 'escape' has path '/etc', outside the run directory; fsgauge only writes below its own run directory \(use -d to choose where\)\$" \
	env TMPDIR="$T/tmpdir" "$FSGAUGE" run "$T/escape.f" -t 1
check "  and nothing is left" empty_dir "$T/tmpdir"

printf 'define process name=p {\n  thread name=t {\n    flowop hog name=work,value=10\n    flowop finishoncount name=done,value=5,target=wrok\n  }\n}\n' > "$T/target-typo.f"
expect_fail "a target= naming no flowop is refused with its position" 2 \
	"target-typo.f:4:1: flowop 'done': target 'wrok' is not the name of any flowop" \
	"$FSGAUGE" run "$T/target-typo.f" -d "$d" -t 1

# a path that is the target itself (-d) stands for the run directory, so
# a filebench file keeping its directory in another variable than $dir
# (createdelete-swing: set $path=/tmp) runs unchanged; a path below the
# target stands for the same path below the run directory
printf 'set $path=%s\ndefine fileset name=swing,path=$path,size=1k,entries=4,prealloc\ndefine process name=p {\n  thread name=t {\n    flowop statfile name=s,filesetname=swing\n  }\n}\n' "$d/" > "$T/target.f"
run "$FSGAUGE" run "$T/target.f" -d "$d" -t 1 --json "$T/target.json"
[ "$rc" -eq 0 ] && [ "$(json "$T/target.json" 'd["phases"][0]["operations"][0]["ops"] > 0')" = true ]
checked "fileset path = the -d target: runs in the run directory (exit 0)"
check "fileset path = the -d target: nothing left behind" empty_dir "$d"
sed "s|^set \$path=.*|set \$path=$d/sub|" "$T/target.f" > "$T/below.f"
run "$FSGAUGE" run "$T/below.f" -d "$d" -t 1 --keep -q
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null)
[ "$rc" -eq 0 ] && [ -n "$kept" ] && [ -f "$kept/sub/swing/f0" ] && [ ! -e "$d/sub" ]
checked "fileset path below the target: runs in the same place below the run directory"
[ -n "$kept" ] && rm -rf "$kept"

# with -d, a path from the file's own `set` that lies outside the target
# goes in the run directory, with a note naming the variable; given with
# -s it is refused, naming the variable to change (issue 22)
sed "s|^set \$path=.*|set \$path=$T/outside|" "$T/target.f" > "$T/outside.f"
run "$FSGAUGE" run "$T/outside.f" -d "$d" -t 0.2 --keep --json "$T/outside.json"
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null)
[ "$rc" -eq 0 ] && [ -n "$kept" ] && [ -f "$kept/swing/f0" ] && [ ! -e "$T/outside" ]
checked "set \$path outside the -d target: runs in the run directory (exit $rc)"
check "  with a note naming the variable" grep -qx \
	"fsgauge: note: fileset 'swing' has path '$T/outside' from the file's 'set \$path', outside the target '$d': \$path is the run directory instead (-s path=DIR for a directory DIR inside the target)" \
	"$T/err"
check "  the result's workload text says so, var.path is not a parameter" \
	[ "$(json "$T/outside.json" '"path=$path=\"<target>\"" in d["workload_text"] and "var.path" not in d["parameters"]')" = true ]
[ -n "$kept" ] && rm -rf "$kept"
mkdir "$T/target2"
run "$FSGAUGE" run "$T/outside.f" -d "$T/target2" -t 0.2 -q --json "$T/outside2.json"
[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] &&
	[ "$(json "$T/outside.json" 'd["workload_hash"]')" = "$(json "$T/outside2.json" 'd["workload_hash"]')" ]
checked "  one workload hash on two targets, nothing on stderr with -q (exit $rc)"
check "  nothing left behind" empty_dir "$T/target2"
mkdir "$T/elsewhere"
expect_fail "-s path= outside the -d target: refused naming the variable" 2 \
	"^fsgauge: fileset 'swing' has path '$T/elsewhere' from -s path, outside the target '$d'; fsgauge only writes below its own run directory \(change -s path to a directory inside the target\)\$" \
	"$FSGAUGE" run "$T/outside.f" -d "$d" -s path="$T/elsewhere" -t 1
[ "$(wc -l <"$T/err")" -eq 1 ] &&
	empty_dir "$d" && empty_dir "$T/elsewhere"
checked "  one line, nothing created in the target or elsewhere"
expect_fail "-s dir= is a target too: -s path= outside it refused the same way" 2 \
	"^fsgauge: fileset 'swing' has path '/var' from -s path, outside the target '$d'" \
	"$FSGAUGE" run "$T/outside.f" -s dir="$d" -s path=/var -t 1
run "$FSGAUGE" run "$T/outside.f" -d "$d" -s path="$d/sub" -t 0.2 -q --keep
kept=$(ls -d "$d"/fsgauge-* 2>/dev/null)
[ "$rc" -eq 0 ] && [ -n "$kept" ] && [ -f "$kept/sub/swing/f0" ] && [ ! -e "$d/sub" ]
checked "-s path= below the target: below the run directory (exit $rc)"
[ -n "$kept" ] && rm -rf "$kept"

expect_fail "preflight refuses a fileset larger than the free space" 2 "not enough free space" \
	"$FSGAUGE" run varmail -d "$d" -s filesize=1t -s nfiles=1000 -t 1

# --- -s values against the type of the attribute reading them -------------
expect_fail "-s nthreads=abc: not a whole number, exit 2" 2 \
	"^fsgauge: command line: -s nthreads=abc: expected a whole number \(instances of thread 'filereaderthread'\)\$" \
	"$FSGAUGE" run varmail -d "$d" -s nthreads=abc -t 1
expect_fail "-s nthreads=1.5: a fraction for a count, exit 2" 2 \
	"^fsgauge: command line: -s nthreads=1.5: expected a whole number \(instances of thread 'filereaderthread'\)\$" \
	"$FSGAUGE" run varmail -d "$d" -s nthreads=1.5 -t 1
expect_fail "-s nfiles=abc: not a whole number, exit 2" 2 \
	"^fsgauge: command line: -s nfiles=abc: expected a whole number \(entries of fileset 'bigfileset'\)\$" \
	"$FSGAUGE" run varmail -d "$d" -s nfiles=abc -t 1
expect_fail "-s filesize=abc: not a size, exit 2" 2 \
	"^fsgauge: command line: -s filesize=abc: expected a whole number of bytes, optionally with k, m, g or t \(size of fileset 'bigfileset'\)\$" \
	"$FSGAUGE" run varmail -d "$d" -s filesize=abc -t 1
printf 'set $n=lots\ndefine fileset name=x,path=$dir,size=1k,entries=4\ndefine process name=p {\n  thread name=t,instances=$n {\n    flowop statfile name=s,filesetname=x\n  }\n}\n' > "$T/settype.f"
expect_fail "set \$n=lots read as a thread count: a workload error at the attribute" 2 \
	"settype.f:4:27: instances of thread 't' is \\\$n, which is 'lots' \(set on line 1\): expected a whole number" \
	"$FSGAUGE" run "$T/settype.f" -d "$d" -t 1
run "$FSGAUGE" run varmail -q -d "$d" -s nthreads=2 -s nfiles=1e1 -s filesize=2k -s iosize=1.5k \
	--engine null -t 1 --json "$T/types.json"
[ "$rc" -eq 0 ] &&
	[ "$(json "$T/types.json" 'd["parameters"]["var.nfiles"]')" = 10 ] &&
	[ "$(json "$T/types.json" 'd["phases"][0]["threads"]')" = 2 ]
checked "whole doubles and sizes with suffixes still work (exit 0)"

# --- preflight: threads, memory, inodes, before anything is created --------
expect_fail "-s nthreads=100000000: too many threads, with the figures" 2 \
	"^fsgauge: too many threads for the workload: 100000000 needed \(process 'filereader' x 1, thread 'filereaderthread' x 100000000 in each\), fsgauge starts at most 4096 per run; lower -s nthreads or instances= of process 'filereader'\$" \
	"$FSGAUGE" run varmail -d "$d" -s nthreads=100000000 -t 1
check "  and the memory they would take" grep -Eq \
	"^fsgauge: not enough memory for the workload: [0-9]+\.[0-9] [MGT]iB needed \(100000000 threads 'filereaderthread' x 1[01]\.[0-9] MiB \(10\.0 MiB memsize \+ [0-9.]+ MiB of statistics and state\) \+ 1000 fileset entries x 32 bytes\), [0-9.]+ [MGT]iB available \(MemAvailable\); lower -s nthreads or memsize= of thread 'filereaderthread' or -s nfiles\$" "$T/err"
check "  nothing created" empty_dir "$d"
printf 'define fileset name=x,path=$dir,size=1k,entries=10\ndefine process name=p,instances=3000 {\n  thread name=t,memsize=64k,instances=3000 {\n    flowop statfile name=s,filesetname=x\n  }\n}\n' > "$T/instances.f"
expect_fail "instances=3000 on a process and its thread: too many threads" 2 \
	"^fsgauge: too many threads for the workload: 9000000 needed \(process 'p' x 3000, thread 't' x 3000 in each\), fsgauge starts at most 4096 per run; lower instances= of thread 't' or instances= of process 'p'\$" \
	"$FSGAUGE" run "$T/instances.f" -d "$d" -t 1
check "  nothing created" empty_dir "$d"
printf 'define fileset name=x,path=$dir,size=1k,entries=10\ndefine process name=p {\n  thread name=t,memsize=$m,instances=2 {\n    flowop statfile name=s,filesetname=x\n  }\n}\n' > "$T/memsize.f"
avail_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
if [ -n "$avail_mib" ] && [ "$avail_mib" -lt 2097152 ]; then
	expect_fail "2 threads of memsize 1t: not enough memory, with the figures" 2 \
		"^fsgauge: not enough memory for the workload: 2048\.0 GiB needed \(2 threads 't' x 1048576\.[0-9] MiB \(1048576\.0 MiB memsize \+ 0\.[0-9] MiB of statistics and state\) \+ 10 fileset entries x 32 bytes\), [0-9]+\.[0-9] [MGT]iB available \(MemAvailable\); lower instances= of thread 't' or -s m or entries= of fileset 'x'\$" \
		"$FSGAUGE" run "$T/memsize.f" -d "$d" -s m=1t -t 1
	check "  nothing created" empty_dir "$d"
else
	ok "memory preflight # SKIP MemAvailable is 2 TiB or more"
	ok "  nothing created # SKIP"
fi
# the audit's -s nthreads=4k: 4096 threads (the most a run may have) of
# varmail's 10 MiB buffers, more than this machine has (else skipped)
if [ -n "$avail_mib" ] && [ "$avail_mib" -lt 40960 ]; then
	expect_fail "-s nthreads=4k: refused for memory, exit 2" 2 \
		"^fsgauge: not enough memory for the workload: [0-9.]+ [MGT]iB needed \(4096 threads 'filereaderthread' x 1[01]\.[0-9] MiB" \
		"$FSGAUGE" run varmail -d "$d" -s nthreads=4k -t 1
	check "  not for the thread count" sh -c "! grep -q 'too many threads' '$T/err'"
	check "  nothing created" empty_dir "$d"
else
	for i in 1 2 3; do ok "-s nthreads=4k # SKIP MemAvailable is 40 GiB or more"; done
fi
# the audit's -s nfiles=1e9 -s filesize=0: fileset tables of 30 GiB, and a
# billion inodes; refused for whichever this machine lacks
run "$FSGAUGE" run varmail -d "$d" -s nfiles=1e9 -s filesize=0 -t 1
check "-s nfiles=1e9 -s filesize=0: refused, exit 2" [ "$rc" -eq 2 ]
check "  for memory (1e9 entries x 32 bytes) or inodes (1000001003), with the figures" grep -Eq \
	"^fsgauge: (not enough memory for the workload: [0-9.]+ [MGT]iB needed \(.* \+ 1000000000 fileset entries x 32 bytes\), [0-9.]+ [MGT]iB available|not enough free inodes for the workload: 1000001003 needed, '$d' has [0-9]+ free; lower -s nfiles)" "$T/err"
check "  nothing created" empty_dir "$d"
run "$FSGAUGE" run varmail -q -d "$d" -s nfiles=1e9 -s filesize=0 -s nthreads=2 --engine null -t 1
check "  on the null engine (nothing on disk) the memory is still checked" \
	sh -c "[ $rc -eq 2 ] || [ ${avail_mib:-0} -gt 31000 ]"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
	# RLIMIT_NPROC binds an ordinary user: 32 threads under ulimit -u 20
	mkdir "$T/nproc"
	chown 65534:65534 "$T/nproc"
	chmod 711 "$T"
	if nobody_reaches "$FSGAUGE"; then
		expect_fail "RLIMIT_NPROC lower than the threads: refused with the limit" 2 \
			"^fsgauge: too many threads for the workload: 32 needed \(process 'filereader' x 1, thread 'filereaderthread' x 32 in each\) and 1 running, the user's process limit \(RLIMIT_NPROC, ulimit -u\) is 20; lower -s nthreads" \
			setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=20:20 \
			"$FSGAUGE" run varmail -d "$T/nproc" -s nthreads=32 -s nfiles=20 -t 1
		check "  nothing created" empty_dir "$T/nproc"
	else
		ok "# SKIP RLIMIT_NPROC as a user: uid 65534 cannot reach '$FSGAUGE'"
		ok "# SKIP   nothing created"
	fi
	chmod 700 "$T"
	# ... but not root, whom the kernel does not hold to it
	run prlimit --nproc=20:20 "$FSGAUGE" run varmail -q -d "$d" -s nthreads=32 -s nfiles=20 -t 1 \
		--engine null
	check "root is not held to RLIMIT_NPROC (as in the kernel): runs, exit 0" [ "$rc" -eq 0 ]
	# free inodes: a tmpfs of 500
	mkdir "$T/few"
	if mount -t tmpfs -o size=64m,nr_inodes=500 fsgauge-inodes "$T/few" 2>/dev/null; then
		trap 'umount "$T/few" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
		expect_fail "more files than free inodes: refused, exit 2, with the figures" 2 \
			"^fsgauge: not enough free inodes for the workload: 1003 needed, '$T/few' has 49[0-9] free; lower -s nfiles, or choose another -d\$" \
			"$FSGAUGE" run varmail -d "$T/few" -s nfiles=1000 -s filesize=0 -t 1
		check "  nothing created" empty_dir "$T/few"
		umount "$T/few"
	else
		for i in 1 2; do ok "inode preflight # SKIP cannot mount a tmpfs"; done
	fi
else
	for i in 1 2 3 4 5; do ok "RLIMIT_NPROC and inode preflight # SKIP needs root, setpriv and prlimit"; done
fi

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
