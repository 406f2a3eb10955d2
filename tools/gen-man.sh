#!/bin/sh
# gen-man.sh FSGAUGE VERSION > fsgauge.1
#
# Writes the fsgauge(1) manual page from the binary's own help texts:
# `fsgauge --help` gives the commands, `fsgauge COMMAND --help` each
# command's section, so the page says what the options tables say and
# cannot drift from them.  The help texts are kept as they are printed
# (no-fill blocks), escaped for roff.
set -eu
bin=$1
version=$2

# roff: backslashes first, a leading . or ' would be a request, and - is
# written \- so that options can be searched for and copied
esc() {
	sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/' -e 's/-/\\-/g'
}

commands=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[ -n "$commands" ] || { echo "gen-man.sh: no commands in '$bin --help'" >&2; exit 1; }

cat <<HEAD
.TH FSGAUGE 1 "" "fsgauge $version" "User Commands"
.SH NAME
fsgauge \\- file system and storage benchmarks with trustworthy numbers
.SH SYNOPSIS
.B fsgauge
.I COMMAND
.RI [ options ]
.SH DESCRIPTION
fsgauge measures file systems and storage the way filebench, bonnie++,
iozone and untar runs do, with latency percentiles, CPU per operation, what
the devices did, repeats with confidence intervals and a warning when the
page cache answered.
All files are created in a fresh run directory it marks as its own, and
removed afterwards.
.PP
.nf
HEAD
"$bin" --help | esc
echo ".fi"
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS fsgauge $c"
	echo ".nf"
	"$bin" "$c" --help | esc
	echo ".fi"
done
cat <<'TAIL'
.SH EXIT STATUS
0 ok, 1 the run met I/O or verify errors, 2 usage or workload error,
3 system error, 130 interrupted (partial results are still written).
.SH FILES
.TP
.I share/bash-completion/completions/fsgauge
bash completion: commands, built-in workload names and each command's
options.
.TP
.I share/zsh/vendor-completions/_fsgauge
zsh completion: the same, with their descriptions.
.SH SEE ALSO
.BR filebench (1),
.BR bonnie++ (8),
.BR iozone (1),
.BR fio (1)
TAIL
