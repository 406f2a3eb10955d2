#!/bin/sh
# bench.sh — the reference loops of bench/overhead.sh build and do what
# the script reads from them: every mode runs its system calls, prints
# "<ops> <seconds> <ops/s>" consistently, and the create modes leave
# their directory empty; an unknown mode or a missing argument exits 2.
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-cc}
command -v "$cc" > /dev/null 2>&1 || skip_all "no C compiler ($cc)"
"$cc" -O2 -D_GNU_SOURCE -I"$top/src" -o "$T/bare_loop" "$top/bench/bare_loop.c" \
	"$top/src/util/clock.c" "$top/src/util/util.c" -lpthread 2> "$T/cc.err"
check "bench/bare_loop.c builds" [ -x "$T/bare_loop" ]

# consistent LINE: three numbers, ops > 0, and ops/s times the seconds
# gives the ops, within what printing the seconds to 1 ms rounds off
consistent() {
	echo "$1" | awk 'NR == 1 && NF == 3 && $1 > 0 && $2 > 0 {
		d = $3 * $2 - $1; if (d < 0) d = -d
		good = d <= $3 * 0.0005 + 0.01 }
		END { exit !(NR == 1 && good) }'
}

dd if=/dev/zero of="$T/data" bs=64k count=16 2> /dev/null
for m in pread pread-inline pread-timed; do
	run "$T/bare_loop" "$m" "$T/data" 0.05
	check "$m: exit 0 ($(cat "$T/out"))" [ "$rc" -eq 0 ]
	check "$m: the rate is ops over seconds" consistent "$(cat "$T/out")"
done
for m in create create-inline create-timed; do
	mkdir "$T/d-$m"
	run "$T/bare_loop" "$m" "$T/d-$m" 0.05
	check "$m: exit 0 ($(cat "$T/out"))" [ "$rc" -eq 0 ]
	check "$m: the rate is ops over seconds" consistent "$(cat "$T/out")"
	check "$m: every file it created is gone" empty_dir "$T/d-$m"
done

run "$T/bare_loop" create "$T/no-such-dir" 0.05
check "create in a missing directory: exit 1, nothing printed" \
	sh -c "[ $rc -eq 1 ] && [ ! -s '$T/out' ]"
run "$T/bare_loop" pread "$T/no-such-file" 0.05
check "pread of a missing file: exit 1" [ "$rc" -eq 1 ]
run "$T/bare_loop" stat "$T/data" 0.05
check "an unknown mode: exit 2" [ "$rc" -eq 2 ]
run "$T/bare_loop" create "$T"
check "a missing argument: exit 2" [ "$rc" -eq 2 ]

# bench/pages-per-syscall.sh ends its segments at worker_run's own system
# call instructions: the psync engine's calls must stay inlined there (in
# a build without ASan or TSan, whose interceptors need libc's wrappers:
# src/engine/syscall.h)
if [ -n "${SANITIZE:-}" ]; then
	ok "worker_run's inline system calls: # SKIP a SANITIZE build calls libc's wrappers"
elif [ "$(uname -m)" != x86_64 ]; then
	ok "worker_run's inline system calls: # SKIP only on x86_64 (src/engine/syscall.h)"
elif command -v objdump > /dev/null 2>&1; then
	objdump -d --no-show-raw-insn "$FSGAUGE" |
		awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /\tsyscall/ && fn == "<worker_run>:" { n++ }
			END { print n + 0 }' > "$T/nsys"
	check "worker_run issues its system calls inline ($(cat "$T/nsys") sites)" [ "$(cat "$T/nsys")" -ge 3 ]
else
	ok "worker_run's inline system calls: # SKIP no objdump"
fi
finish
