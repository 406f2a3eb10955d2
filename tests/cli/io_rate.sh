#!/bin/sh
# Open-loop rates (issue 19): fsgauge io's rate=, rate_iops=, rate_process=
# and rate_min= (and the workload language's flowop attributes of the same
# names).  Every usage error with its message and exit 2; on the null
# engine the requests follow the schedule (their count near rate x the
# measured seconds); on an engine slowed by the faulty engine's delay= the
# latency from the scheduled time grows past the service latency, the late
# requests are counted and the run says it could not keep up; a Poisson
# schedule queues where a linear one of the same rate does not.  Counts
# and comparisons of one run's own figures, never wall-clock constants.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
F="$FSGAUGE io -d $d"

# fig EXPR: a Python expression over o (operation io.read or io.write of
# phase 0 of $T/j.json), s (its schedule) and p (the phase)
fig() {
	json "$T/j.json" "(lambda p: (lambda o: (lambda s: $1)(o.get('schedule')))([x for x in p['operations'] if x['name'] in ('io.read', 'io.write')][0]))(d['phases'][0])"
}

# usage errors
expect_fail "rate_process neither linear nor poisson" 2 \
	"invalid rate_process 'bursty' \(expected linear or poisson\)" \
	$F --size=1m --rate_iops=100 --rate_process=bursty
expect_fail "rate_min above rate" 2 \
	"job 'io': rate_min=2097152 is above rate=1048576 \(bytes per second\)" \
	$F --size=1m --rate=1m --rate_min=2m
expect_fail "rate_min without rate" 2 "job 'io': rate_min needs rate" \
	$F --size=1m --rate_iops=100 --rate_min=1m
expect_fail "rate_process without a rate" 2 "job 'io': rate_process needs rate or rate_iops" \
	$F --size=1m --rate_process=poisson
expect_fail "rate and rate_iops together" 2 "job 'io': give rate or rate_iops, not both" \
	$F --size=1m --rate=1m --rate_iops=100
expect_fail "per-direction rates (',')" 2 "invalid rate '1m,500k' \(expected bytes per second" \
	$F --size=1m --rate=1m,500k
expect_fail "rate_iops not a number" 2 "invalid rate_iops 'fast' \(expected requests per second" \
	$F --size=1m --rate_iops=fast
expect_fail "rate with iodepth above 1: refused (one request at a time)" 2 \
	"job 'io': rate_iops with iodepth=4 is not supported by fsgauge io: a schedule issues one request at a time" \
	$F --size=1m --rate_iops=100 --iodepth=4 --ioengine=null
expect_fail "rate with a mixed job: refused" 2 \
	"job 'io': rate with rw=randrw is not supported by fsgauge io" \
	$F --size=1m --rw=randrw --rate=1m
expect_fail "an unsupported rate option of fio's: named" 2 \
	"option 'rate_iops_min' is not supported by fsgauge io" $F --size=1m --rate_iops_min=10
expect_fail "faulty engine: delay=0" 2 "invalid delay=0 \(expected microseconds" \
	$F --size=1m --ioengine=faulty:null:delay=0
expect_fail "faulty engine: delay= with err=" 2 "give delay= or err=, not both" \
	$F --size=1m --ioengine=faulty:null:delay=5,err=EIO

# the workload language's attributes
wl() {
	printf 'define file name=f,path=$dir,size=1m,prealloc\ndefine process name=p {\n thread name=t {\n  flowop read name=r,filename=f,iosize=4k,%s\n }\n}\n' "$1" > "$T/rate.f"
}
wl "rate_iops=100,iodepth=4"
expect_fail "workload: rate_iops with iodepth above 1" 2 \
	"flowop 'r': rate_iops with iodepth above 1 is not supported" \
	"$FSGAUGE" run "$T/rate.f" -d "$d" -t 1 --engine null
wl "rate_iops=100,rate_process=uniform"
expect_fail "workload: bad rate_process, with its place" 2 \
	":4:[0-9]+: flowop 'r': rate_process 'uniform' is not linear or poisson" \
	"$FSGAUGE" run "$T/rate.f" -d "$d" -t 1 --engine null
wl "rate=100k,rate_min=200k"
expect_fail "workload: rate_min above rate" 2 "flowop 'r': rate_min is above rate" \
	"$FSGAUGE" run "$T/rate.f" -d "$d" -t 1 --engine null
check "nothing left after the errors" empty_dir "$d"

# the null engine keeps up: the requests follow the schedule
R=400
run $F --rw=randread --bs=4k --size=1m --time_based --runtime=2 --ioengine=null \
	--rate_iops=$R --json "$T/j.json"
check "rate_iops=$R on the null engine: exit 0" [ "$rc" -eq 0 ]
check "  requests between 0.5 and 1.1 x rate x the measured seconds" \
	[ "$(fig "0.5 * $R * p['seconds'] <= o['ops'] <= 1.1 * $R * p['seconds'] + 1")" = true ]
check "  every request on the schedule, in the result's 'schedule'" \
	[ "$(fig "s['ops'] == o['ops'] and s['threads'] == 1 and s['late_after_us'] == 1000")" = true ]
check "  latency from the schedule: one per request, never below the service's minimum" \
	[ "$(fig "s['histogram']['count'] == s['ops'] and s['latency_us']['min'] >= o['latency_us']['min']")" = true ]
check "  fio's report: the schedule's latency and counts" \
	grep -Eq '^    schedule: rate_iops=400 \(linear\), issued=[0-9]+, late=[0-9]+' "$T/out"
check "  and its percentiles" grep -q '^    sched lat percentiles' "$T/out"
check "  nothing left" empty_dir "$d"

run $F --rw=write --bs=4k --size=1m --time_based --runtime=2 --ioengine=null --rate=800k \
	--rate_process=poisson --json "$T/j.json"
check "rate=800k (200 requests of 4k a second), poisson: exit 0" [ "$rc" -eq 0 ]
check "  requests between 0.5 and 1.1 x 200 x the measured seconds" \
	[ "$(fig "0.5 * 200 * p['seconds'] <= o['ops'] <= 1.1 * 200 * p['seconds'] + 1")" = true ]
check "  fio's report names the process" grep -q '^    schedule: rate=819200 (poisson)' "$T/out"

run $F --rw=read --bs=4k --size=1m --time_based --runtime=1 --ramp_time=1 --ioengine=null \
	--rate_iops=$R --json "$T/j.json"
check "with ramp_time=1: exit 0" [ "$rc" -eq 0 ]
check "  the schedule counts the measured window only, as the requests do" \
	[ "$(fig "0 <= o['ops'] - s['ops'] <= 2")" = true ]

# an engine slower than the schedule: each read takes 10 ms, one is due
# every 5 ms
run $F --rw=randread --bs=4k --size=1m --time_based --runtime=1 --rate_iops=200 \
	--ioengine=faulty:null:op=read,delay=10000 --json "$T/j.json"
check "slowed engine (10 ms a read, one due every 5 ms): exit 0" [ "$rc" -eq 0 ]
check "  no more requests than the engine can serve" \
	[ "$(fig "o['ops'] <= p['seconds'] / 0.010 + 1")" = true ]
check "  the service latency is the engine's (at least its delay)" \
	[ "$(fig "o['latency_us']['p50'] >= 10000")" = true ]
check "  the latency from the schedule exceeds it (p50)" \
	[ "$(fig "s['latency_us']['p50'] > o['latency_us']['p50']")" = true ]
check "  late requests counted" [ "$(fig "s['late'] > 0")" = true ]
check "  the warning, on stderr" grep -q "flowop 'io.read': could not keep up: [0-9]* of [0-9]* operations late" "$T/err"
check "  and in the report" grep -q "^WARNING: io.read could not keep up with its schedule" "$T/out"
check "  nothing left" empty_dir "$d"

run $F --rw=randread --bs=4k --size=1m --time_based --runtime=1 --rate=800k --rate_min=600k \
	--ioengine=faulty:null:op=read,delay=10000 --json "$T/j.json"
check "rate_min out of reach (600k/s wanted, at most 400k/s served): exit 1" [ "$rc" -eq 1 ]
check "  the error names it" grep -q "flowop 'io.read': below rate_min in 1 of 1 threads" "$T/err"
check "  counted in the result" [ "$(fig "s['below_rate_min'] == 1")" = true ]

# same rate, same service time (5 ms of every 10): a linear schedule
# leaves each request the time it needs, a Poisson one bunches them, so
# that requests wait for those before them (M/D/1 at 50%)
run $F --rw=randread --bs=4k --size=1m --time_based --runtime=2 --rate_iops=100 \
	--ioengine=faulty:null:op=read,delay=5000 --randseed=7 --json "$T/j.json"
check "linear, 100/s, 5 ms a read: exit 0" [ "$rc" -eq 0 ]
lin=$(fig "s['latency_us']['mean']")
run $F --rw=randread --bs=4k --size=1m --time_based --runtime=2 --rate_iops=100 \
	--rate_process=poisson --ioengine=faulty:null:op=read,delay=5000 --randseed=7 \
	--json "$T/j.json"
check "poisson, the same: exit 0" [ "$rc" -eq 0 ]
check "  still near rate x seconds (0.5 to 1.1)" \
	[ "$(fig "0.5 * 100 * p['seconds'] <= o['ops'] <= 1.1 * 100 * p['seconds'] + 1")" = true ]
# (the mean latency from the schedule, not the late count: on a loaded
# machine sleeps overshoot by more than the 1 ms that makes a request
# late, and nearly every request of both is late)
check "  a longer mean latency from the schedule than linear's ($lin us)" \
	[ "$(fig "s['latency_us']['mean'] > $lin")" = true ]

# the workload language runs the schedule too
wl "rate_iops=$R"
run "$FSGAUGE" run "$T/rate.f" -d "$d" -t 2 --engine null --json "$T/j.json"
check "workload rate_iops=$R: exit 0" [ "$rc" -eq 0 ]
check "  requests between 0.5 and 1.1 x rate x seconds" \
	[ "$(json "$T/j.json" "(lambda p, o: 0.5 * $R * p['seconds'] <= o['ops'] <= 1.1 * $R * p['seconds'] + 1 and o['schedule']['ops'] == o['ops'])(d['phases'][0], d['phases'][0]['operations'][0])")" = true ]
check "  the text row 'from schedule'" grep -Eq '^  from schedule +[0-9]+ops late=[0-9]+' "$T/out"
check "  nothing left" empty_dir "$d"

finish
