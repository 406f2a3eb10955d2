#!/bin/sh
# `make install` and `make uninstall` into a DESTDIR: the binary, the
# fsgauge(1) page generated from the help texts, the bash completion.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

command -v make >/dev/null 2>&1 || skip_all "make is not installed"
[ -x "$ROOT/fsgauge" ] || skip_all "no built $ROOT/fsgauge to install"

# The tree's fsgauge as it is (-o: never relinked here, tests may be
# running it), the page built in our own directory, and the stamp of the
# last link left alone.
mk() {
	make -s -C "$ROOT" -o fsgauge BUILD="$T/build" LINK_STAMP="$T/link.stamp" "$@"
}
D=$T/dest
run mk install DESTDIR="$D" PREFIX=/usr
check "make install exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T/err" | head -5
check "the binary is installed, executable" [ -x "$D/usr/bin/fsgauge" ]
check "the installed binary runs" sh -c "'$D/usr/bin/fsgauge' --version | grep -q '^fsgauge '"
man1=$D/usr/share/man/man1/fsgauge.1
comp=$D/usr/share/bash-completion/completions/fsgauge
check "the man page is installed" [ -f "$man1" ]
check "the bash completion is installed" [ -f "$comp" ]
check "the page has .TH and .SH NAME" sh -c "grep -q '^\.TH FSGAUGE 1' '$man1' && grep -qx '\.SH NAME' '$man1'"
ncmd=$("$FSGAUGE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | wc -l)
nss=$(grep -c '^\.SS fsgauge ' "$man1")
check "a section per command of --help ($ncmd)" [ "$ncmd" -gt 5 -a "$nss" -eq "$ncmd" ]
check "run's section has its options, escaped" grep -q '^  \\-s, \\-\\-set VAR=VALUE' "$man1"

if command -v man >/dev/null 2>&1; then
	run env MANWIDTH=100 man -l "$man1"
	check "man -l renders the page" [ "$rc" -eq 0 ]
	check "the rendered page shows run's -s option" grep -q -- '-s, --set VAR=VALUE' "$T/out"
	check "the rendered page shows bonnie's section" grep -q '^   fsgauge bonnie' "$T/out"
else
	ok "# SKIP man is not installed: man -l not tried"
fi

if command -v bash >/dev/null 2>&1; then
	check "the completion script parses (bash -n)" bash -n "$comp"
	# complete WORDS...: what the script offers for the last word
	complete_words() {
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fsgauge
			printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$@"
	}
	out=$(cd "$T" && complete_words "$D/usr/bin/fsgauge" ru)
	check "completes 'ru' to run" [ "$out" = run ]
	out=$(cd "$T" && complete_words "$D/usr/bin/fsgauge" run varm)
	check "completes a built-in workload name" [ "$out" = varmail ]
	out=$(cd "$T" && complete_words "$D/usr/bin/fsgauge" run --se | tr '\n' ' ')
	check "completes run's options from its --help" [ "$out" = "--seed --set " ]
	out=$(cd "$T" && complete_words "$D/usr/bin/fsgauge" bonnie --form)
	check "completes bonnie's options from its --help" [ "$out" = --format ]
else
	ok "# SKIP bash is not installed: the completion not tried"
fi

run mk uninstall DESTDIR="$D" PREFIX=/usr
check "make uninstall exits 0" [ "$rc" -eq 0 ]
check "uninstall removes the three files" sh -c "[ ! -e '$D/usr/bin/fsgauge' ] && [ ! -e '$man1' ] && [ ! -e '$comp' ]"
finish
