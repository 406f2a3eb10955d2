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
# sampled once per gap of operation time: the operation time between two
# samples is at least the gap and less than the gap plus one operation.
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
# total operation time and the longest operation, in microseconds
total=$(first "$T/fast.json" 'int(o["latency_us"]["mean"] * o["ops"])')
longest=$(first "$T/fast.json" 'int(o["latency_us"]["max"]) + 1')
echo "# fast: $ops operations, $samples sampled, ${total} us in all, longest ${longest} us"
check "fast: far fewer samples than operations" [ "$samples" -gt 0 -a "$samples" -lt "$((ops / 50))" ]
check "fast: at most one sample per gap of operation time" [ "$samples" -le "$((total / gap_us + 1))" ]
check "fast: at least one sample per gap plus the longest operation" \
	[ "$samples" -ge "$((total / (gap_us + longest) - 1))" ]
check "fast: a sample's CPU is no more than the operation's wall time" \
	[ "$(first "$T/fast.json" 'o["cpu_us_per_op"] <= o["latency_us"]["max"]')" = true ]

# 2. An operation longer than the gap (a 2 ms delay) is sampled every time
# from the second on (the first gap starts at a random point of its
# length, so the first operation is sampled only by chance), and it
# sleeps: far less CPU than its wall time.
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
check "slow: every operation from the second on is sampled" [ "$samples" -ge "$((ops - 1))" -a "$samples" -le "$ops" ]
check "slow: a sleeping operation's CPU is a small part of its wall time" \
	[ "$(first "$T/slow.json" 'o["cpu_us_per_op"] < o["latency_us"]["mean"] / 10')" = true ]

# 3. The first gap starts below its full length, so a flowop's first
# operation is never sampled, and a flowop whose operations take less in
# all than what is left of its first gap has no sample: the text says so
# with '-', never a number.  With --seed 12 the first flowop's first gap
# starts 953 ns in (util/rand.c's stream 2000000 of worker 0), so twenty
# trivial hog operations, even under a sanitizer, stay far below the
# 499 us they would need.  A 50 ms delay run twelve times is sampled at
# every operation but the first.
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
check "few: the brief flowop was not sampled" \
	[ "$(json "$T/few.json" '[o for o in d["phases"][0]["operations"] if o["name"] == "tiny"][0]["cpu_samples"]')" = 0 ]
check "few: no sample prints '-' in us/op-cpu" grep -Eq '^tiny +20ops .* -us/op-cpu' "$T/out"
check "few: no sample is null in the JSON, not 0" \
	[ "$(json "$T/few.json" '[o for o in d["phases"][0]["operations"] if o["name"] == "tiny"][0]["cpu_us_per_op"] is None')" = true ]
check "few: the 50 ms delay run twelve times: eleven samples" \
	[ "$(json "$T/few.json" '[o for o in d["phases"][0]["operations"] if o["name"] == "nap"][0]["cpu_samples"]')" = 11 ]
check "few: the sampled flowop prints a number" grep -Eq '^nap +12ops .* [0-9]+us/op-cpu' "$T/out"
check "nothing left behind" empty_dir "$d"
finish
