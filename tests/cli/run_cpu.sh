#!/bin/sh
# CPU time per operation (us/op-cpu, cpu_us_per_op): which operations are
# sampled, and the bounds a sample obeys (src/runner/internal.h,
# CPU_SAMPLE_GAP_NS; docs/engine.md).
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
gap_us=500

# first FILE EXPR: EXPR about the first operation `o` of the first phase
first() {
	json "$1" "(lambda o: $2)(d['phases'][0]['operations'][0])"
}

# 1. Fast operations (the null engine: well under a microsecond each) are
# sampled with a probability of about one mean operation in a gap, so
# about once per gap of operation time: far fewer samples than
# operations, and (the draws are random: wide bounds) between a third
# and twice the number of gaps in the operation time.
cat > "$T/fast.f" <<'WML'
define file name=data,path=$dir,size=1m,prealloc
define process name=p,instances=1 {
  thread name=t,memsize=64k,instances=1 {
    flowop read name=r,filename=data,iosize=4k,random
  }
}
WML
run "$FSGAUGE" run "$T/fast.f" -d "$d" -t 1 -q --engine null --json "$T/fast.json"
check "fast: the run succeeds" [ "$rc" -eq 0 ]
ops=$(first "$T/fast.json" 'o["ops"]')
samples=$(first "$T/fast.json" 'o["cpu_samples"]')
# total operation time, in microseconds
total=$(first "$T/fast.json" 'int(o["latency_us"]["mean"] * o["ops"])')
echo "# fast: $ops operations, $samples sampled, ${total} us in all"
check "fast: far fewer samples than operations" [ "$samples" -gt 0 -a "$samples" -lt "$((ops / 50))" ]
check "fast: at most about two samples per gap of operation time" \
	[ "$samples" -le "$((2 * total / gap_us + 10))" ]
check "fast: at least about a third of a sample per gap of operation time" \
	[ "$samples" -ge "$((total / gap_us / 3))" ]
check "fast: CPU per operation is no more than the mean latency" \
	[ "$(first "$T/fast.json" 'o["cpu_us_per_op"] <= o["latency_us"]["mean"] * (1 + 1e-9)')" = true ]

# 2. An operation longer than the gap (a 2 ms delay) is sampled every
# time, and it sleeps: far less CPU than its wall time.
cat > "$T/slow.f" <<'WML'
define process name=p,instances=1 {
  thread name=t,memsize=64k,instances=1 {
    flowop delay name=nap,value=0.002
  }
}
WML
run "$FSGAUGE" run "$T/slow.f" -d "$d" -t 1 -q --json "$T/slow.json"
check "slow: the run succeeds" [ "$rc" -eq 0 ]
ops=$(first "$T/slow.json" 'o["ops"]')
samples=$(first "$T/slow.json" 'o["cpu_samples"]')
echo "# slow: $ops operations, $samples sampled"
check "slow: some operations ran" [ "$ops" -gt 10 ]
check "slow: every operation is sampled" [ "$samples" -eq "$ops" ]
check "slow: a sleeping operation's CPU is a small part of its wall time" \
	[ "$(first "$T/slow.json" 'o["cpu_us_per_op"] < o["latency_us"]["mean"] / 10')" = true ]

# 3. A flowop's first operation is always sampled (it stands for itself
# alone), so a flowop of twenty trivial hog operations has a sample and
# a number, never below zero nor above its mean latency; a 50 ms delay
# run twelve times is sampled at every operation.
cat > "$T/few.f" <<'WML'
define process name=p,instances=1 {
  thread name=t,memsize=64k,instances=1 {
    flowop hog name=tiny,value=1,iters=20
    flowop delay name=nap,value=0.05,iters=12
    flowop threaddone name=end
  }
}
WML
run "$FSGAUGE" run "$T/few.f" -d "$d" -t 60 --seed 12 --json "$T/few.json"
check "few: the run succeeds" [ "$rc" -eq 0 ]
op() {
	json "$T/few.json" "[o for o in d['phases'][0]['operations'] if o['name'] == '$1'][0]$2"
}
check "few: the brief flowop's first operation is sampled" [ "$(op tiny '["cpu_samples"] >= 1')" = true ]
check "few: its CPU per operation is within 0 and its mean latency" \
	[ "$(op tiny '["cpu_us_per_op"]') " != "None " -a \
	  "$(json "$T/few.json" '(lambda o: 0 <= o["cpu_us_per_op"] <= o["latency_us"]["mean"] * (1 + 1e-9))([o for o in d["phases"][0]["operations"] if o["name"] == "tiny"][0])')" = true ]
check "few: the 50 ms delay run twelve times: twelve samples" [ "$(op nap '["cpu_samples"]')" = 12 ]
check "few: the sampled flowop prints a number" grep -Eq '^nap +12ops .* [0-9]+us/op-cpu' "$T/out"

# 4. One synchronous thread on tmpfs (every operation is CPU, a little
# waiting at most): no operation's CPU per operation exceeds its mean
# latency, in a varmail-like loop and in an untar (issue 22: sampling
# keyed to elapsed time used to pick slow stretches more often).
tmpfs_dir() {
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
		mktemp -d /dev/shm/fsgauge-cpu.XXXXXX
	elif [ "$(stat -f -c %T "${TMPDIR:-/tmp}")" = tmpfs ]; then
		mktemp -d "$T/tmpfs.XXXXXX"
	fi
}
s=$(tmpfs_dir)
if [ -n "$s" ]; then
	cat > "$T/mail.f" <<'WML'
define fileset name=mail,path=$dir,size=16k,entries=200,dirwidth=100,prealloc=50
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop deletefile name=del,filesetname=mail
    flowop createfile name=create,filesetname=mail,fd=1
    flowop appendfilerand name=append,iosize=16k,fd=1
    flowop fsync name=sync,fd=1
    flowop closefile name=close,fd=1
    flowop openfile name=open,filesetname=mail,fd=1
    flowop readwholefile name=read,fd=1,iosize=1m
    flowop closefile name=close2,fd=1
  }
}
WML
	bound='all(o["cpu_us_per_op"] is None or o["cpu_us_per_op"] <= o["latency_us"]["mean"] * (1 + 1e-9) for p in d["phases"] for o in p["operations"] if o["ops"])'
	run "$FSGAUGE" run "$T/mail.f" -d "$s" -t 2 -q --json "$T/mail.json"
	check "tmpfs: the 1-thread mail loop succeeds" [ "$rc" -eq 0 ]
	check "tmpfs: every flowop was CPU-sampled" \
		[ "$(json "$T/mail.json" 'all(o["cpu_samples"] > 0 for o in d["phases"][0]["operations"])')" = true ]
	check "tmpfs: CPU per operation <= latency per operation, every flowop" \
		[ "$(json "$T/mail.json" "$bound")" = true ]
	run "$FSGAUGE" untar --synthetic small -d "$s" --copies 2 --jobs 1 -q --json "$T/untar.json"
	check "tmpfs: the 1-thread untar succeeds" [ "$rc" -eq 0 ]
	check "tmpfs: untar: CPU per operation <= latency per operation, every operation" \
		[ "$(json "$T/untar.json" "$bound")" = true ]
	check "tmpfs: nothing left behind" empty_dir "$s"
	rmdir "$s"
else
	for i in 1 2 3 4 5 6; do ok "# SKIP no writable tmpfs (/dev/shm or \$TMPDIR) for the 1-thread bound"; done
fi
check "nothing left behind" empty_dir "$d"
finish
