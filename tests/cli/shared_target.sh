#!/bin/sh
# A target other users may write (docs/reliability.md, "Threat model: a
# shared target"): a world-writable, non-sticky target is refused unless
# --allow-shared-target, by every command that makes a run directory; a
# run directory swapped for someone else's between mkdir and open is
# neither written in nor removed (exit 3); links found below the run
# directory are not followed; and a run directory renamed away during
# the run does not make the cleanup remove what now holds its name.
#
# The swaps happen at the exact moment fsgauge is open to them: an
# LD_PRELOAD shim (rundir_swap.c, built here) plays the other user.
. "$(dirname "$0")/lib.sh"

W="$T/w"
mkdir "$W"
small_run="run fileserver -t 1 -s nfiles=50 -s nthreads=2 -q"

# --- the target's mode ----------------------------------------------------
chmod 0777 "$W"
for cmd in "run fileserver -t 1 -s nfiles=20 -s nthreads=1 -q -d" \
	"bonnie -r 0 -s 8 -n 1 --engine null -q -d" \
	"iozone -s 64k -r 4k -i 0 --quiet --dir" \
	"untar --synthetic tiny -q -d" \
	"verify -q -n 1 -s 4k -d"; do
	name=${cmd%% *}
	# shellcheck disable=SC2086
	expect_fail "$name: a 0777 target is refused, naming the risk" 2 \
		"refusing target directory '$W': it is writable by every user and not sticky \(mode 0777\), so another user could swap the run directory for one of theirs; .*--allow-shared-target" \
		"$FSGAUGE" $cmd "$W"
	check "$name: nothing created in the refused target" empty_dir "$W"
	# shellcheck disable=SC2086
	run "$FSGAUGE" $cmd "$W" --allow-shared-target
	check "$name: --allow-shared-target accepts it (exit $rc)" [ "$rc" -eq 0 ]
	check "$name: and leaves it empty" empty_dir "$W"
	run "$FSGAUGE" help "$name"
	check "$name --help lists --allow-shared-target" grep -q -- "--allow-shared-target" "$T/out"
done
chmod 1777 "$W"
run "$FSGAUGE" $small_run -d "$W"
check "a sticky 1777 target needs no option (exit $rc)" [ "$rc" -eq 0 ]
chmod 0775 "$W"
run "$FSGAUGE" $small_run -d "$W"
check "a group-writable target needs no option (exit $rc)" [ "$rc" -eq 0 ]
chmod 0755 "$W"

# --- swaps at the vulnerable moment ----------------------------------------
if [ "$(id -u)" -ne 0 ]; then
	ok "swap tests # SKIP they need root (a second uid, 65534)"
	finish
	exit $?
fi
if ! ${CC:-cc} -shared -fPIC -o "$T/swap.so" "$(dirname "$0")/rundir_swap.c" -ldl 2>"$T/cc.err"; then
	ok "swap tests # SKIP no C compiler to build the shim: $(head -1 "$T/cc.err")"
	finish
	exit $?
fi
out="$T/outside"
mkdir "$out"

# swap MODE ARGS...: run fsgauge with the shim in SWAP_MODE
swap() {
	_m=$1
	shift
	run env SWAP_MODE="$_m" SWAP_OUTSIDE="$out" LD_PRELOAD="$T/swap.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
# planted: the name fsgauge made, now holding what the shim put there
planted() { ls -d "$W"/fsgauge-* 2>/dev/null | head -1; }
reset() { rm -rf "$W" "$out"; mkdir "$W" "$out"; }

replaced_re="run directory '$W/fsgauge-[0-9]+-[0-9a-f]+' is not the one fsgauge just created"
for m in other other700 rootfull rootmode link; do
	reset
	case $m in
	other | other700) why="it is owned by uid 65534, not 0" ;;
	rootfull) why="it is not empty" ;;
	rootmode) why="its mode is 0755, not 0700" ;;
	link) why="it is not a directory" ;;
	esac
	# shellcheck disable=SC2086
	swap $m "$FSGAUGE" $small_run -d "$W"
	if [ "$rc" -eq 3 ] && grep -Eq "$replaced_re \($why\): it was replaced, nothing was written in it" "$T/err"; then
		ok "$m: swapped run directory: exit 3, '$why'"
	else
		not_ok "$m: swapped run directory: exit 3, '$why'"
		echo "#   exit $rc; stderr:"
		sed 's/^/#   /' "$T/err" | head -5
	fi
	check "$m: nothing created in the outside directory" empty_dir "$out"
	check "$m: stderr is one line" [ "$(wc -l <"$T/err")" -eq 1 ]
	p=$(planted)
	case $m in
	other | other700)
		check "$m: the planted directory is left as it was (link, no marker)" \
			sh -c "[ -L '$p/bigfileset/d0' ] && [ ! -e '$p/.fsgauge-run' ] && [ \$(ls -A '$p/bigfileset' | wc -l) -eq 1 ]"
		;;
	rootfull)
		check "$m: the planted directory is left as it was" \
			sh -c "[ \"\$(ls -A '$p')\" = theirs ]"
		;;
	rootmode)
		check "$m: the planted directory is left as it was" \
			sh -c "[ -d '$p' ] && [ -z \"\$(ls -A '$p')\" ] && [ \$(stat -c %a '$p') = 755 ]"
		;;
	link)
		check "$m: the planted link is left as it was" [ -L "$p" ]
		;;
	esac
done

# the same in a shared target the user accepted: the checks still hold
reset
chmod 0777 "$W"
# shellcheck disable=SC2086
swap other "$FSGAUGE" $small_run -d "$W" --allow-shared-target
check "--allow-shared-target: a swap is still caught (exit $rc)" [ "$rc" -eq 3 ]
check "--allow-shared-target: with the message" grep -Eq "$replaced_re" "$T/err"
check "--allow-shared-target: nothing created in the outside directory" empty_dir "$out"
chmod 0755 "$W"

# links planted below the run directory (after its checks) are not followed
for m in inside insidetop; do
	reset
	# shellcheck disable=SC2086
	swap $m "$FSGAUGE" $small_run -d "$W"
	case $m in
	inside) what="mkdir 'bigfileset/d0'" ;;
	insidetop) what="open directory 'bigfileset'" ;;
	esac
	check "$m: a link below the run directory stops the run (exit $rc): $what" \
		sh -c "[ $rc -eq 1 ] && grep -q \"cannot preallocate: $what: Too many levels of symbolic links\" '$T/err'"
	check "$m: nothing created in the outside directory" empty_dir "$out"
	check "$m: the run directory is removed (the link with it, not its target)" \
		sh -c "[ -z \"\$(ls -A '$W')\" ] && [ -d '$out' ]"
done

# the run directory renamed away during the run, an empty directory of
# another user put in its place: the cleanup leaves that one alone
reset
# shellcheck disable=SC2086
swap remove "$FSGAUGE" $small_run -d "$W"
check "renamed away: exit 3 (exit $rc)" [ "$rc" -eq 3 ]
check "renamed away: the message says what was left" \
	grep -Eq "run directory '$W/fsgauge-[0-9]+-[0-9a-f]+' was moved or replaced while fsgauge used it: everything in it was removed, but '.*' is no longer it and is left alone" "$T/err"
p=$(planted)
check "renamed away: the other user's directory is still there" \
	sh -c "[ -d '$p' ] && [ \$(stat -c %u '$p') = 65534 ]"
check "renamed away: ours was emptied where it went" empty_dir "$W/moved-${p##*/}"

# the same for a run directory taken over (verify --check-only)
reset
run "$FSGAUGE" verify -q -d "$W" -n 2 -s 8k --write-only
vd=$(ls -d "$W"/fsgauge-*)
swap adopted env SWAP_RUNDIR="$vd" "$FSGAUGE" verify -q --check-only "$vd"
check "check-only, renamed away: exit 3 (exit $rc)" [ "$rc" -eq 3 ]
check "check-only, renamed away: the message says what was left" \
	grep -q "run directory '$vd' was moved or replaced meanwhile: '$vd' is no longer it and is left alone" "$T/err"
check "check-only, renamed away: the other user's directory is still there" \
	sh -c "[ -d '$vd' ] && [ \$(stat -c %u '$vd') = 65534 ]"
check "check-only, renamed away: ours holds none of its files" empty_dir "$W/moved-${vd##*/}"

finish
