#!/bin/sh
# Every built-in personality parses and runs for about a second at small
# scale, with its invariants checked in the JSON: the run completes, every
# data/metadata flowop that must run did, written bytes match fixed I/O
# sizes, and nothing is left behind.
. "$(dirname "$0")/lib.sh"

d="$T/target"
mkdir "$d"
small="-s nfiles=40 -s nthreads=2 -s filesize=256k -s meanfilesize=8k -s count=40 \
-s totalfiles=200 -s numactivevids=2 -s numpassivevids=3 -s nshadows=2 -s ndbwriters=2 \
-s logfilesize=1m -s iosize=8k -s eventrate=2000 -s iters=16"

# flowops that may legitimately not run within a second (they wait on
# others, or are control flowops without an operation of their own)
control='semblock sempost block wakeup eventlimit iopslimit opslimit bwlimit finishoncount finishonbytes delay hog print testrandvar aiowait'

for name in $("$FSGAUGE" list | awk '{print $1}'); do
	# shellcheck disable=SC2086
	run "$FSGAUGE" run "$name" -d "$d" -t 1 -q $small --json "$T/$name.json"
	if [ "$rc" -ne 0 ]; then
		not_ok "$name runs (exit $rc)"
		sed 's/^/#   /' "$T/err" | head -5
		continue
	fi
	ok "$name runs"
	# one python per personality: these checks run 40 times
	python3 - "$T/$name.json" "$name" "$control" <<'PY' > "$T/checks"
import json, sys
d = json.load(open(sys.argv[1])); name = sys.argv[2]; control = sys.argv[3].split()
ops = d["phases"][0]["operations"]
missing = [o["name"] for o in ops if o["ops"] == 0 and o["type"] not in control]
print("complete" if d["status"]["complete"] else "not-complete")
print("ran" if not missing else "missing " + " ".join(missing))
print("noerr" if d["status"]["errors"] == 0 else "errors %d" % d["status"]["errors"])
PY
	check "$name: complete" grep -qx complete "$T/checks"
	if grep -qx ran "$T/checks"; then ok "$name: every flowop ran"; else not_ok "$name: flowops that never ran: $(sed -n 's/^missing //p' "$T/checks")"; fi
	check "$name: no errors" grep -qx noerr "$T/checks"
	check "$name: nothing left behind" empty_dir "$d"
done
finish
