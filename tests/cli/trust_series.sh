#!/bin/sh
# Time series, warm-up, steady state, repeats, too-fast and the progress
# line: intervals add up exactly to the totals, warm-up intervals are
# marked and excluded, repeats carry per-run figures and their statistics,
# a phase too short to measure is never reported as a number.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
cat > "$T/rw.f" <<'WML'
define file name=big,path=$dir,size=2m,prealloc,reuse
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=2 {
    flowop write name=wr,filename=big,iosize=4k,random
    flowop read name=rd,filename=big,iosize=8k,random
  }
}
WML

# intervals and warm-up
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 1.5 --interval 0.2 --warmup 0.5 --json "$T/i.json"
j="$T/i.json"
check "--interval/--warmup: exit 0" [ "$rc" -eq 0 ]
check "intervals recorded with their period" \
	[ "$(json "$j" 'd["phases"][0]["interval_seconds"] == 0.2 and len(d["phases"][0]["intervals"]) >= 8')" = true ]
check "warm-up excluded for about 0.5 s" \
	[ "$(json "$j" '0.5 <= d["phases"][0]["warmup_seconds"] < 0.8')" = true ]
check "measured time about 1.5 s" [ "$(json "$j" '1.5 <= d["phases"][0]["seconds"] < 2')" = true ]
check "the first intervals are warm-up, the last are not" \
	[ "$(json "$j" '(lambda v: v[0]["warmup"] and not v[-1]["warmup"] and all(not x["warmup"] for x in v[[x["warmup"] for x in v].index(False):]))(d["phases"][0]["intervals"])')" = true ]
check "interval times increase" \
	[ "$(json "$j" '(lambda v: all(a["t"] < b["t"] for a, b in zip(v, v[1:])))(d["phases"][0]["intervals"])')" = true ]
check "measured intervals: ops add up to the summary" \
	[ "$(json "$j" '(lambda p: sum(i["ops"] for i in p["intervals"] if not i["warmup"]) == p["summary"]["ops"] > 0)(d["phases"][0])')" = true ]
check "measured intervals: bytes read and written add up" \
	[ "$(json "$j" '(lambda p: sum(i["bytes_read"] for i in p["intervals"] if not i["warmup"]) == p["summary"]["bytes_read"] and sum(i["bytes_written"] for i in p["intervals"] if not i["warmup"]) == p["summary"]["bytes_written"])(d["phases"][0])')" = true ]
check "measured intervals: per-op ops add up to each operation" \
	[ "$(json "$j" '(lambda p: all(sum(i["per_op"][o["name"]]["ops"] for i in p["intervals"] if not i["warmup"]) == o["ops"] for o in p["operations"]))(d["phases"][0])')" = true ]
check "measured totals exclude the warm-up: bytes = ops x iosize" \
	[ "$(json "$j" 'all(o["bytes_written"] == o["ops"] * 4096 for o in d["phases"][0]["operations"] if o["name"] == "wr")')" = true ]
check "intervals have rates, mean and p99 latency" \
	[ "$(json "$j" 'all(i["ops_per_second"] >= 0 and (i["ops"] == 0 or (i["p99_us"] > 0 and i["mean_latency_us"] > 0)) for i in d["phases"][0]["intervals"])')" = true ]
check "per-op interval p99 present" \
	[ "$(json "$j" 'all("p99_us" in v for i in d["phases"][0]["intervals"] for v in i["per_op"].values())')" = true ]
check "text: the warm-up line" grep -q "^Warm-up: 0\.[5-9] s excluded" "$T/out"

# steady state
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 0.5 --engine null --interval 0.1 --warmup 5 \
	--steady-state=100,3 --json "$T/s.json"
check "--steady-state reached: exit 0" [ "$rc" -eq 0 ]
check "--steady-state=100,3: reached well before the 5 s cap" \
	[ "$(json "$T/s.json" 'd["phases"][0]["steady_state"] is True and d["phases"][0]["warmup_seconds"] < 4')" = true ]
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 0.5 --engine null --interval 0.1 --warmup 0.5 \
	--steady-state=0.000001,5 --json "$T/n.json"
check "--steady-state not reached: the whole warm-up is used" \
	[ "$(json "$T/n.json" 'd["phases"][0]["steady_state"] is False and d["phases"][0]["warmup_seconds"] >= 0.5')" = true ]
check "text says steady state was not reached" grep -q "steady state NOT reached" "$T/out"

# repeats
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 0.6 --repeat 3 --interval 0.2 --json "$T/r.json"
j="$T/r.json"
check "--repeat 3: exit 0" [ "$rc" -eq 0 ]
check "three repeats" [ "$(json "$j" 'len(d["phases"][0]["repeats"])')" = 3 ]
check "repeats are summary-shaped plus p99" \
	[ "$(json "$j" 'all(set(d["phases"][0]["summary"]) <= set(r) and "p99_latency_us" in r for r in d["phases"][0]["repeats"])')" = true ]
check "repeats carry per-run operations named as the phase's, and p99 in ms" \
	[ "$(json "$j" 'all([o["name"] for o in r["operations"]] == [o["name"] for o in d["phases"][0]["operations"]] and "p99_latency_ms" in r and all("ops_per_second" in o and "p99" in o["latency_us"] for o in r["operations"]) for r in d["phases"][0]["repeats"])')" = true ]
check "per-run operation ops add up to the phase's" \
	[ "$(json "$j" 'all(sum(r["operations"][i]["ops"] for r in d["phases"][0]["repeats"]) == o["ops"] for i, o in enumerate(d["phases"][0]["operations"]))')" = true ]
check "the summary is all runs together" \
	[ "$(json "$j" 'sum(r["ops"] for r in d["phases"][0]["repeats"]) == d["phases"][0]["summary"]["ops"]')" = true ]
check "repeat_stats for every headline figure, n = 3" \
	[ "$(json "$j" 'all(d["phases"][0]["repeat_stats"][k]["n"] == 3 for k in ("ops_per_second","mb_per_second","mean_latency_ms","p99_latency_us","cpu_us_per_op"))')" = true ]
check "repeat_stats: mean of the runs, inside its 95% CI" \
	[ "$(json "$j" '(lambda p, s: abs(s["mean"] - sum(r["ops_per_second"] for r in p["repeats"]) / 3) < 1e-6 * s["mean"] and s["ci95_low"] <= s["mean"] <= s["ci95_high"] and s["sd"] >= 0 and s["cv"] >= 0)(d["phases"][0], d["phases"][0]["repeat_stats"]["ops_per_second"])')" = true ]
check "repeat intervals are tagged with their run" \
	[ "$(json "$j" 'sorted(set(i["repeat"] for i in d["phases"][0]["intervals"]))')" = "[1, 2, 3]" ]
check "text: one IO Summary per run" [ "$(grep -c '^run [123]: IO Summary: ' "$T/out")" -eq 3 ]
check "text: mean and confidence interval" grep -q "^mean ± 95% confidence interval over 3 runs" "$T/out"
check "text: ops/s mean ± half-width" grep -Eq '^  ops/s +[0-9.]+ ± [0-9.]+' "$T/out"
check "text: each figure's interval bounds are the JSON's, the low one never below 0" \
	python3 - "$j" "$T/out" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["phases"][0]["repeat_stats"]
text = open(sys.argv[2]).read()
# every latency in ms: the JSON's p99 is in us, the text's in ms
names = {"ops/s": ("ops_per_second", 1), "mb/s": ("mb_per_second", 1),
         "latency ms": ("mean_latency_ms", 1), "p99 ms": ("p99_latency_us", 1e-3),
         "us cpu/op": ("cpu_us_per_op", 1)}
assert not re.search(r"^  \S+ us ", text, re.M), "a latency in us in the summary"
for label, (key, scale) in names.items():
    m = re.search(r"^  %s +([0-9.]+) ± ([0-9.]+) +\(([0-9.]+) to ([0-9.]+); sd " % re.escape(label), text, re.M)
    mean, half, lo, hi = map(float, m.groups())
    want_lo, want_hi = s[key]["ci95_low"] * scale, s[key]["ci95_high"] * scale
    assert abs(lo - want_lo) <= 0.0005 + 1e-9 * want_hi and abs(hi - want_hi) <= 0.0005 + 1e-9 * want_hi, (label, lo, hi, want_lo, want_hi)
    assert lo >= 0 and abs(lo - max(mean - half, 0)) <= 0.002, (label, mean, half, lo)
PY
check "fresh files each run: one fileset recorded" [ "$(json "$j" 'len(d["filesets"])')" = 1 ]
check "nothing left behind after repeats" empty_dir "$d"
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 0.6 --repeat 2 --reuse --json "$T/ru.json"
check "--repeat 2 --reuse: exit 0" [ "$rc" -eq 0 ]
check "--reuse: two repeats" [ "$(json "$T/ru.json" 'len(d["phases"][0]["repeats"])')" = 2 ]
check "--reuse: stderr says the files are reused" grep -q "reusing the filesets" "$T/err"

# too fast
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 0.2 --json "$T/f.json"
check "0.2 s phase: exit 0" [ "$rc" -eq 0 ]
check "text: +++++ too fast to measure, with the reason" \
	grep -q "^IO Summary: +++++ too fast to measure (ran 0\.[0-9]* s, under the 0\.5 s minimum)" "$T/out"
check "text: no numbers in the IO Summary" sh -c "! grep -q '^IO Summary: [0-9]' '$T/out'"
check "text: operations say too fast" grep -Eq "^wr +[0-9]+ops  \+\+\+\+\+ too fast" "$T/out"
check "json: too_fast with a reason, raw counts kept" \
	[ "$(json "$T/f.json" '(lambda p: p["too_fast"] is True and "0.5 s minimum" in p["too_fast_reason"] and p["summary"]["ops"] > 0)(d["phases"][0])')" = true ]
check "json: per-op too_fast" [ "$(json "$T/f.json" 'all(o["too_fast"] for o in d["phases"][0]["operations"])')" = true ]
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 1 --json "$T/ok.json"
check "a 1 s phase is measured" [ "$(json "$T/ok.json" 'd["phases"][0]["too_fast"]')" = false ]

# progress line
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 1.5 --progress=always
check "--progress=always: a status line on stderr" grep -Eq '^run: [0-9]+s/[0-9]+s.* ops/s .* MB/s .*p99 ' "$T/err"
check "--progress=always: not on stdout" sh -c "! grep -q '^run: ' '$T/out'"
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 1.5
check "stderr not a terminal: no status line" sh -c "! grep -q 'p99 [0-9.]* ms' '$T/err'"
run "$FSGAUGE" run "$T/rw.f" -d "$d" -t 1.5 -q --progress=always
check "--quiet: no status line" sh -c "! grep -q 'p99 [0-9.]* ms' '$T/err'"
check "nothing left behind" empty_dir "$d"
finish
