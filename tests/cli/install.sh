#!/bin/sh
# `make install` and `make uninstall` into a DESTDIR: the binary, the
# fsgauge(1) page generated from the help texts, the bash and zsh
# completions (the zsh one generated from the help texts and the list).
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
zcomp=$D/usr/share/zsh/vendor-completions/_fsgauge
check "the man page is installed" [ -f "$man1" ]
check "the bash completion is installed" [ -f "$comp" ]
check "the zsh completion is installed as _fsgauge" [ -f "$zcomp" ]
check "the page names the zsh completion" grep -q 'share/zsh/vendor-completions/_fsgauge' "$man1"
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

# The zsh completion lists every command of --help, with its description,
# and every built-in workload of 'fsgauge list'.
check "the zsh completion starts with #compdef fsgauge" sh -c "head -1 '$zcomp' | grep -qx '#compdef fsgauge'"
missing=
for c in $("$FSGAUGE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
	grep -q "^		'$c:[a-z]" "$zcomp" || missing="$missing $c"
	grep -q "^_fsgauge_$(printf %s "$c" | tr - _)() {" "$zcomp" || missing="$missing $c()"
done
check "the zsh completion has every command and its function${missing:+ (missing:$missing)}" [ -z "$missing" ]
nw=$("$FSGAUGE" list | wc -l)
missing=
for w in $("$FSGAUGE" list | awk '{print $1}'); do
	grep -q "^		'$w:" "$zcomp" || missing="$missing $w"
done
check "the zsh completion has the $nw built-in workloads${missing:+ (missing:$missing)}" [ "$nw" -gt 20 -a -z "$missing" ]
check "the zsh completion has run's options, with descriptions" \
	grep -q "^		'\*--set=\[set a workload variable" "$zcomp"

if command -v zsh >/dev/null 2>&1; then
	check "the zsh completion parses (zsh -n)" zsh -n "$zcomp"
	# zcomplete WORDS...: the command line after a TAB typed at the end of
	# 'fsgauge WORDS' in an interactive zsh (on a pseudo-terminal) that
	# loads the completion from its directory
	cat >"$T/zcomplete.zsh" <<'EOF'
zmodload zsh/zpty || exit 1
dir=$1 out=$2; shift 2
rm -f $out
zpty z zsh -f -i
zpty -w z "PS1='' RPS1=''; unsetopt beep; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "dump() { print -r -- \"\$BUFFER\" > $out; BUFFER=; zle accept-line }; zle -N dump; bindkey '^X' dump"
zpty -n -w z "fsgauge $*"$'\t\C-x'
for i in {1..600}; do [[ -s $out ]] && break; sleep 0.05; done
zpty -d z
cat $out 2>/dev/null
EOF
	zcomplete() {
		zsh -f "$T/zcomplete.zsh" "${zcomp%/*}" "$T/zout" "$@"
	}
	if zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
		out=$(zcomplete ru)
		check "zsh completes 'ru' to run" [ "$out" = "fsgauge run " ]
		out=$(zcomplete run varm)
		check "zsh completes a built-in workload name" [ "$out" = "fsgauge run varmail " ]
		out=$(zcomplete run --dry)
		check "zsh completes run's options" [ "$out" = "fsgauge run --dry-run " ]
		out=$(zcomplete run --engine=io_)
		check "zsh completes an engine of --version" [ "$out" = "fsgauge run --engine=io_uring " ]
		out=$(zcomplete untar --synthetic ti)
		check "zsh completes untar's synthetic trees" [ "$out" = "fsgauge untar --synthetic tiny " ]
		out=$(zcomplete compare --bri)
		check "zsh completes compare's options" [ "$out" = "fsgauge compare --brief " ]
	else
		ok "# SKIP zsh has no zsh/zpty module: completions not typed"
	fi
else
	ok "# SKIP zsh is not installed (apt-get install zsh): the zsh completion not tried"
fi

run mk uninstall DESTDIR="$D" PREFIX=/usr
check "make uninstall exits 0" [ "$rc" -eq 0 ]
check "uninstall removes the four files" sh -c "[ ! -e '$D/usr/bin/fsgauge' ] && [ ! -e '$man1' ] && [ ! -e '$comp' ] && [ ! -e '$zcomp' ]"
finish
