#!/bin/sh
# fsgauge iozone against iozone itself, same options, same directory, runs
# alternated (iozone, fsgauge, iozone, fsgauge, ...) and each side's best
# kept.  Prints iozone's and fsgauge's KB/s per test and their ratio.
#
#   sh bench/iozone-compare.sh [DIR] [SIZE] [RECORD] [THREADS] [ROUNDS]
#
# Defaults: $TMPDIR (or /tmp), 1g, 1m, 2 threads, 2 rounds.  Block-size
# sequential writes and reads are expected within +-15% when disk-bound:
# give a SIZE x THREADS well above the RAM, or set EXTRA="-I" (O_DIRECT)
# where the file system supports it; otherwise the reads measure the page
# cache, differently on each run.  EXTRA adds options to both sides
# (for example EXTRA="-e -c").
#
# iozone must be on PATH, or IOZONE=/path/to/iozone.  Without it the
# script says so and exits 0: Debian's iozone3 is in non-free and is not
# installed on the machines fsgauge is developed on (docs/iozone.md).
set -eu
dir=${1:-${TMPDIR:-/tmp}}
size=${2:-1g}
rec=${3:-1m}
threads=${4:-2}
rounds=${5:-2}
extra=${EXTRA:-}
iozone=${IOZONE:-iozone}
top=$(cd "$(dirname "$0")/.." && pwd)
fsg=${FSGAUGE:-$top/fsgauge}

if ! command -v "$iozone" >/dev/null 2>&1; then
	echo "iozone-compare: SKIP: '$iozone' is not on PATH (Debian's iozone3 is in" \
		"non-free and not available here); set IOZONE=/path/to/iozone to compare"
	exit 0
fi
work=$(mktemp -d "$dir/fsgauge-iozone-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

files=""
i=0
while [ "$i" -lt "$threads" ]; do
	files="$files $work/ioz.$i"
	i=$((i + 1))
done

# "label<TAB>children KB/s" per throughput section of a report
sections() {
	sed -n 's/^[[:space:]]*Children see throughput for *[0-9]* \(.*[^[:space:]]\)[[:space:]]*= *\([0-9.]*\) [kK]B\/sec.*/\1\t\2/p' "$1"
}
# the single-stream table's numbers (write rewrite read reread)
row() {
	awk '/reclen/ { getline; print $3, $4, $5, $6; exit }' "$1"
}

best() { # file label -> the largest value of that label
	awk -F'\t' -v l="$2" '$1 == l && $2 > m { m = $2 } END { printf "%.2f\n", m }' "$1"
}

r=1
while [ "$r" -le "$rounds" ]; do
	sync
	(cd "$work" && "$iozone" -t "$threads" -s "$size" -r "$rec" -i 0 -i 1 $extra -F $files) \
		>"$work/ioz.out"
	sections "$work/ioz.out" >>"$work/ioz.tp"
	row "$work/ioz.out" >/dev/null
	sync
	"$fsg" iozone -t "$threads" -s "$size" -r "$rec" -i 0 -i 1 $extra --quiet --dir "$work" \
		>"$work/fsg.out"
	sections "$work/fsg.out" >>"$work/fsg.tp"
	sync
	(cd "$work" && "$iozone" -s "$size" -r "$rec" -i 0 -i 1 $extra -f "$work/single") \
		>"$work/ioz1.out"
	row "$work/ioz1.out" | awk '{ printf "write\t%s\nrewrite\t%s\nread\t%s\nreread\t%s\n", $1, $2, $3, $4 }' >>"$work/ioz.1"
	sync
	"$fsg" iozone -s "$size" -r "$rec" -i 0 -i 1 $extra --quiet --dir "$work" >"$work/fsg1.out"
	row "$work/fsg1.out" | awk '{ printf "write\t%s\nrewrite\t%s\nread\t%s\nreread\t%s\n", $1, $2, $3, $4 }' >>"$work/fsg.1"
	r=$((r + 1))
done

printf 'iozone %s vs fsgauge iozone in %s: -s %s -r %s %s (best of %s)\n' \
	"$("$iozone" -v 2>/dev/null | sed -n 's/.*Version \$Revision: \([0-9.]*\).*/\1/p' | head -1)" \
	"$dir" "$size" "$rec" "$extra" "$rounds"
printf '%-40s %14s %14s %8s\n' "test" "iozone KB/s" "fsgauge KB/s" "ratio"
for l in "initial writers" "rewriters" "readers" "re-readers"; do
	a=$(best "$work/ioz.tp" "$l")
	b=$(best "$work/fsg.tp" "$l")
	printf '%-40s %14.2f %14.2f %8.3f\n' "$threads threads, $l (children)" "$a" "$b" \
		"$(echo "$a $b" | awk '{ print ($1 > 0 ? $2 / $1 : 0) }')"
done
for l in write rewrite read reread; do
	a=$(best "$work/ioz.1" "$l")
	b=$(best "$work/fsg.1" "$l")
	printf '%-40s %14.0f %14.0f %8.3f\n' "single stream, $l" "$a" "$b" \
		"$(echo "$a $b" | awk '{ print ($1 > 0 ? $2 / $1 : 0) }')"
done
echo "expected when disk-bound: sequential write and read ratios within 0.85 .. 1.15"
